/* sl-graph-layout.h: a computational graph laid out scope by scope
 *
 * Holds what a graph view shows of an SlGraph — which containers (scopes,
 * groups, sections) are expanded, whether bookkeeping ops are hidden, the
 * measured time of each op — and turns it into an SlGraphScene.
 *
 * Each expanded container is laid out on its own by the layered layout
 * and cached under its children's sizes; a container's size is what its
 * parent lays out. So expanding one container lays out that container and
 * then each of its ancestors (whose children's sizes changed), reusing
 * every other layout as it was. Ranks and orders depend only on edges and
 * the crossing search has a work budget, never a time budget, so an
 * ancestor laid out again keeps every child's rank and place in its rank,
 * and collapsing gives back the cached layouts: the exact earlier
 * positions.
 *
 * The view state is set from one thread (the view's); building a scene
 * may run on a worker at the same time: it takes a copy of the state when
 * it starts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph.h"
#include "sl-graph-scene.h"

G_BEGIN_DECLS

/* Scene geometry, in scene units. */
#define SL_GRAPH_LAYOUT_HEADER_HEIGHT 26.0   /* a container's label band */
#define SL_GRAPH_LAYOUT_PADDING       14.0   /* around a container's content */

typedef void (*SlGraphLayoutProgressFunc) (double   fraction,
                                           gpointer user_data);

#define SL_TYPE_GRAPH_LAYOUT (sl_graph_layout_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphLayout, sl_graph_layout, SL, GRAPH_LAYOUT, GObject)

SlGraphLayout  *sl_graph_layout_new                 (SlGraph                   *graph);
SlGraph        *sl_graph_layout_get_graph           (SlGraphLayout             *self);

/* Scopes, groups and sections with children expand; the root always is. */
gboolean        sl_graph_layout_is_expandable       (SlGraphLayout             *self,
                                                     guint                      item);
void            sl_graph_layout_set_expanded        (SlGraphLayout             *self,
                                                     guint                      item,
                                                     gboolean                   expanded);
gboolean        sl_graph_layout_get_expanded        (SlGraphLayout             *self,
                                                     guint                      item);
/* Expands every container above @item so that it is drawn; TRUE when
 * anything changed. */
gboolean        sl_graph_layout_expand_to           (SlGraphLayout             *self,
                                                     guint                      item);
/* The first view: the root, and below it containers that are an only
 * child, so a graph whose ops all sit in "Default" opens showing them. */
void            sl_graph_layout_expand_initial      (SlGraphLayout             *self);
/* The drawn item that stands for @item: itself, or its innermost
 * collapsed ancestor; a hidden bookkeeping op gives its container. */
guint           sl_graph_layout_get_shown_item      (SlGraphLayout             *self,
                                                     guint                      item);

/* Load, TupleGetItem, MakeTuple, UpdateState and Depend (as MindSpore
 * spells them in either case, with or without underscores). Hidden ops
 * are bridged: an edge through them joins what they joined. */
void            sl_graph_layout_set_hide_bookkeeping (SlGraphLayout            *self,
                                                     gboolean                   hide);
gboolean        sl_graph_layout_get_hide_bookkeeping (SlGraphLayout            *self);
gboolean        sl_graph_op_type_is_bookkeeping     (const char                *op_type);

/* Measured time per op element (any unit; elements beyond @n_elements or
 * with 0 count as unmeasured), or NULL to stop colouring. Boxes get heat
 * from their share of the largest drawn total. */
void            sl_graph_layout_set_times           (SlGraphLayout             *self,
                                                     const double              *times,
                                                     guint                      n_elements);
/* An item's total measured time (the sum below it); 0 when unmeasured. */
double          sl_graph_layout_get_item_time       (SlGraphLayout             *self,
                                                     guint                      item);
/* How many ops lie below @item. */
guint           sl_graph_layout_get_n_ops_below     (SlGraphLayout             *self,
                                                     guint                      item);

/* Lays out what the cache lacks and builds the scene of the current
 * state. Box ids are graph items. NULL with G_IO_ERROR_CANCELLED. */
SlGraphScene   *sl_graph_layout_build_scene         (SlGraphLayout             *self,
                                                     GCancellable              *cancellable,
                                                     SlGraphLayoutProgressFunc  progress,
                                                     gpointer                   user_data,
                                                     GError                   **error);
/* Layouts computed (not taken from the cache) by the last build. */
guint           sl_graph_layout_get_last_n_computed (SlGraphLayout             *self);
gsize           sl_graph_layout_get_cache_size      (SlGraphLayout             *self);

G_END_DECLS
