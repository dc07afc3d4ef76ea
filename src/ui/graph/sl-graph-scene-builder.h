/* sl-graph-scene-builder.h: laying out the graph's scene on a worker
 *
 * After an expand, a collapse or a filter change the page asks for a new
 * scene; a newer request overtakes an older one (SlGraphLayout reuses
 * every cached scope). Every request ends with "ended" (whether it is
 * still the newest); the newest then says "built" with its scene and the
 * item to keep in place, or "failed" with why (not when cancelled).
 * While the newest runs, "progress" says how far it has come.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph-layout.h"

G_BEGIN_DECLS

#define SL_TYPE_GRAPH_SCENE_BUILDER (sl_graph_scene_builder_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphSceneBuilder, sl_graph_scene_builder, SL, GRAPH_SCENE_BUILDER, GObject)

SlGraphSceneBuilder *sl_graph_scene_builder_new    (void);
void                 sl_graph_scene_builder_build  (SlGraphSceneBuilder *self,
                                                    SlGraphLayout       *layout,
                                                    guint32              anchor);
void                 sl_graph_scene_builder_cancel (SlGraphSceneBuilder *self);

G_END_DECLS
