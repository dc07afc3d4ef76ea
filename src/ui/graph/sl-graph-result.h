/* sl-graph-result.h: one hit of the graph page's search, as its results
 * list shows it
 *
 * The label is the end of the hit's path with the scopes that tell it
 * apart from the other hits (a layer's index among 32 layers stays in
 * sight); the path is whole, for the row's tooltip. The list's row
 * template binds both.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_GRAPH_RESULT (sl_graph_result_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphResult, sl_graph_result, SL, GRAPH_RESULT, GObject)

SlGraphResult *sl_graph_result_new       (guint32        item,
                                          const char    *label,
                                          const char    *path);
guint32        sl_graph_result_get_item  (SlGraphResult *self);
const char    *sl_graph_result_get_label (SlGraphResult *self);
const char    *sl_graph_result_get_path  (SlGraphResult *self);

G_END_DECLS
