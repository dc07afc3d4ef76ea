/* sl-flat-scene.h: a graph without nesting laid out into a scene
 *
 * What the MindX stream and dataset pipeline views share: one box per
 * node, sized by its text, and the edges between them, laid out by the
 * layered layout with a work budget (the same file always gives the same
 * drawing) and written into a finished scene.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph-scene.h"
#include "sl-layered-layout.h"

G_BEGIN_DECLS

/* A box wide enough for the longer of @label and @detail at about 7
 * scene units a character, within bounds. */
double        sl_flat_scene_box_width (const char             *label,
                                       const char             *detail);

/* @boxes: one per node, their position ignored (the layout sets it) and
 * their parent none; @edges between node indices, with @counts (or
 * NULL: 1 each). Returns the finished scene, or NULL when cancelled. */
SlGraphScene *sl_flat_scene_build     (const SlGraphSceneBox  *boxes,
                                       guint                   n_boxes,
                                       const SlLayeredEdge    *edges,
                                       const guint            *counts,
                                       guint                   n_edges,
                                       double                  rank_separation,
                                       GCancellable           *cancellable,
                                       GError                **error);

G_END_DECLS
