/* sl-layered-layout.h: layered (Sugiyama) drawing of a directed graph
 *
 * Lays out one scope's children: boxes of given sizes and the directed
 * edges between them, top to bottom. Knows nothing of any graph model: the
 * input is plain arrays of sizes and of (source, target) indices.
 *
 * Connected components are laid out on their own and packed left to
 * right in the order of their first node, so an extra isolated node or an
 * extra edge never shuffles unrelated components. In each component:
 * cycles are broken by reversing the back edges of a depth-first search,
 * ranks are longest paths then tightened, long edges get one virtual slot
 * per crossed rank (all long edges of one source or of one target share a
 * trunk, so a node feeding every rank costs one slot per rank, not one per
 * edge and rank), crossings are reduced by median sweeps and
 * transposition, and coordinates come from Brandes–Köpf, which keeps the
 * trunks vertical: a long edge is drawn as one straight vertical segment
 * between two bends.
 *
 * It runs synchronously; callers put it on a worker. The same input gives
 * the same output, unless the time budget cuts the search short (a work
 * budget never does). Ranks and orders depend only on the edges, never on
 * the sizes, so a box that grows keeps its rank and its place in it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  SL_LAYERED_EDGE_DATA,
  SL_LAYERED_EDGE_CONTROL,   /* pulls half as hard on ranks as data */
} SlLayeredEdgeKind;

typedef struct {
  guint32           source;
  guint32           target;
  SlLayeredEdgeKind kind;
} SlLayeredEdge;

typedef struct {
  double width;
  double height;
} SlLayeredSize;

typedef struct {
  const SlLayeredSize *nodes;
  guint                n_nodes;
  const SlLayeredEdge *edges;
  guint                n_edges;
  double               node_separation;   /* between boxes on a rank */
  double               rank_separation;   /* between ranks */
  double               crossing_budget_ms;
  /* When non-zero, the crossing search stops after this much work (slots
   * and segments visited, summed over sweeps) instead of after
   * crossing_budget_ms: the same input then always gives the same
   * drawing, whatever the machine's load, which a view that must keep
   * its shape needs. */
  guint64              crossing_work_budget;
} SlLayeredInput;

typedef struct {
  double x;
  double y;
} SlLayeredPoint;

/* A piece of the layered graph between rank and rank + 1 (both ends are
 * boxes or virtual slots of long edges, merged edges counted once): what
 * the crossing count counts. */
typedef struct {
  guint32 rank;
  double  upper_x;
  double  lower_x;
} SlLayeredSegment;

typedef enum {
  SL_LAYERED_STEP_CYCLES,
  SL_LAYERED_STEP_RANKING,
  SL_LAYERED_STEP_LONG_EDGES,
  SL_LAYERED_STEP_CROSSINGS,
  SL_LAYERED_STEP_COORDINATES,
  SL_LAYERED_STEP_ROUTES,
  SL_LAYERED_N_STEPS,
} SlLayeredStep;

typedef void (*SlLayeredProgressFunc) (double   fraction,
                                       gpointer user_data);

typedef struct _SlLayeredLayout SlLayeredLayout;

/* Returns NULL with G_IO_ERROR_CANCELLED when cancelled, or
 * G_IO_ERROR_INVALID_ARGUMENT for an edge to a node that does not exist. */
SlLayeredLayout        *sl_layered_layout_compute          (const SlLayeredInput  *input,
                                                            GCancellable          *cancellable,
                                                            SlLayeredProgressFunc  progress,
                                                            gpointer               user_data,
                                                            GError               **error);
void                    sl_layered_layout_free             (SlLayeredLayout       *self);

guint                   sl_layered_layout_get_n_nodes      (SlLayeredLayout       *self);
guint                   sl_layered_layout_get_n_edges      (SlLayeredLayout       *self);
/* The centre of a box. */
void                    sl_layered_layout_get_node_centre  (SlLayeredLayout       *self,
                                                            guint                  node,
                                                            double                *x,
                                                            double                *y);
/* Rank 0 is the top of the node's component. */
guint                   sl_layered_layout_get_node_rank    (SlLayeredLayout       *self,
                                                            guint                  node);
gboolean                sl_layered_layout_edge_is_reversed (SlLayeredLayout       *self,
                                                            guint                  edge);
/* From source to target: the bottom centre of the source, the bends, the
 * top centre of the target. A reversed edge goes back up, from the top of
 * its source to the bottom of its target; a self-loop is a small loop on
 * the right side of its box. Merged multi-edges share one route. */
const SlLayeredPoint   *sl_layered_layout_get_edge_points  (SlLayeredLayout       *self,
                                                            guint                  edge,
                                                            guint                 *n_points);
void                    sl_layered_layout_get_size         (SlLayeredLayout       *self,
                                                            double                *width,
                                                            double                *height);
guint64                 sl_layered_layout_get_n_crossings  (SlLayeredLayout       *self);
const SlLayeredSegment *sl_layered_layout_get_segments     (SlLayeredLayout       *self,
                                                            guint                 *n_segments);
double                  sl_layered_layout_get_step_ms      (SlLayeredLayout       *self,
                                                            SlLayeredStep          step);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlLayeredLayout, sl_layered_layout_free)

G_END_DECLS
