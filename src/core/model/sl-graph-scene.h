/* sl-graph-scene.h: the laid-out geometry of a graph, ready to draw
 *
 * What a graph view draws and hit-tests, and nothing else: boxes with
 * their absolute position, shape and labels, and edges as polylines.
 * Layouts (the computational graph's composed scopes, a MindX stream, a
 * dataset pipeline) fill one in on a worker and finish it; from then on
 * it is read-only and may be read from any thread, so a renderer, the
 * minimap and an export share it while the next scene is being built.
 *
 * Boxes come in drawing order: a container before what it contains.
 * Coordinates are scene units (a pixel at zoom 1), y downward. A grid
 * index answers "what is in this rectangle" in time proportional to the
 * answer, so drawing any part of a 100,000-box scene stays cheap.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_GRAPH_SCENE_NONE G_MAXUINT32

typedef enum {
  SL_GRAPH_SHAPE_OP,          /* a rounded box: an op, a MindX element, a dataset operation */
  SL_GRAPH_SHAPE_CONTAINER,   /* an expanded scope, group or section: a frame, its label in a header */
  SL_GRAPH_SHAPE_COLLAPSED,   /* a scope, group or section that expands: a stacked box */
  SL_GRAPH_SHAPE_PARAMETER,   /* an ellipse: a weight or an input */
  SL_GRAPH_SHAPE_CONST,       /* a small chip drawn inside its consumer */
  SL_GRAPH_SHAPE_PROXY,       /* a dashed ellipse standing for a far source */
} SlGraphShape;

typedef enum {
  SL_GRAPH_BOX_BOOKKEEPING = 1 << 0,   /* Load, TupleGetItem, MakeTuple, UpdateState, Depend */
  SL_GRAPH_BOX_ERROR       = 1 << 1,   /* has an error (a pipeline check, a dangling input) */
  SL_GRAPH_BOX_WARNING     = 1 << 2,
} SlGraphBoxFlags;

typedef enum {
  SL_GRAPH_SCENE_EDGE_DATA,
  SL_GRAPH_SCENE_EDGE_CONTROL,
} SlGraphSceneEdgeKind;

typedef struct {
  double x;
  double y;
} SlGraphScenePoint;

typedef struct {
  double       x;             /* top-left corner */
  double       y;
  double       width;
  double       height;
  guint32      id;            /* the layout's: a graph item, a pipeline element, a dataset node */
  guint32      parent;        /* box index of the enclosing container, or SL_GRAPH_SCENE_NONE */
  guint16      depth;         /* nesting: 0 at the top level */
  guint8       shape;         /* SlGraphShape */
  guint8       flags;         /* SlGraphBoxFlags */
  float        heat;          /* 0..1, a measured share of time to colour by; < 0 for none */
  const char  *label;         /* first line (owned by the scene) */
  const char  *detail;        /* second line (an op type, "12 nodes"), or NULL */
} SlGraphSceneBox;

typedef struct {
  guint32 from;               /* box indices */
  guint32 to;
  guint32 first_point;        /* into sl_graph_scene_get_points() */
  guint32 n_points;           /* at least 2: from the source's border to the target's */
  guint32 count;              /* how many element edges it stands for */
  guint8  kind;               /* SlGraphSceneEdgeKind */
  guint8  reversed;           /* the back edge of a cycle, drawn going up */
} SlGraphSceneEdge;

#define SL_TYPE_GRAPH_SCENE (sl_graph_scene_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphScene, sl_graph_scene, SL, GRAPH_SCENE, GObject)

SlGraphScene           *sl_graph_scene_new            (void);

/* Building, on one thread, before sl_graph_scene_finish(). The box's
 * strings are copied; its parent must already be in the scene. Returns
 * the new box's index. */
guint                   sl_graph_scene_add_box        (SlGraphScene               *self,
                                                       const SlGraphSceneBox      *box);
/* @points run from @from to @to and are copied; returns the edge index. */
guint                   sl_graph_scene_add_edge       (SlGraphScene               *self,
                                                       guint                       from,
                                                       guint                       to,
                                                       SlGraphSceneEdgeKind        kind,
                                                       gboolean                    reversed,
                                                       guint                       count,
                                                       const SlGraphScenePoint    *points,
                                                       guint                       n_points);
/* Builds the indexes; the scene is read-only afterwards. */
void                    sl_graph_scene_finish         (SlGraphScene               *self);
gboolean                sl_graph_scene_is_finished    (SlGraphScene               *self);

const SlGraphSceneBox  *sl_graph_scene_get_boxes      (SlGraphScene               *self,
                                                       guint                      *n_boxes);
const SlGraphSceneEdge *sl_graph_scene_get_edges      (SlGraphScene               *self,
                                                       guint                      *n_edges);
const SlGraphScenePoint *sl_graph_scene_get_points    (SlGraphScene               *self,
                                                       guint                      *n_points);
/* The rectangle holding every box and edge; all zero when empty. */
void                    sl_graph_scene_get_bounds     (SlGraphScene               *self,
                                                       double                     *x,
                                                       double                     *y,
                                                       double                     *width,
                                                       double                     *height);
/* The box of a layout id, or SL_GRAPH_SCENE_NONE when it is not shown. */
guint                   sl_graph_scene_lookup_id      (SlGraphScene               *self,
                                                       guint32                     id);
/* The innermost box under a point, or SL_GRAPH_SCENE_NONE. */
guint                   sl_graph_scene_hit            (SlGraphScene               *self,
                                                       double                      x,
                                                       double                      y);
/* Edges that start or end at a box (ascending indices). */
const guint32          *sl_graph_scene_get_box_edges  (SlGraphScene               *self,
                                                       guint                       box,
                                                       guint                      *n_edges);
/* Boxes and edges whose bounds meet the rectangle, each once, in
 * ascending (drawing) order, appended to the guint32 arrays. */
void                    sl_graph_scene_query          (SlGraphScene               *self,
                                                       double                      x,
                                                       double                      y,
                                                       double                      width,
                                                       double                      height,
                                                       GArray                     *boxes,
                                                       GArray                     *edges);
gsize                   sl_graph_scene_get_memory_size (SlGraphScene              *self);

G_END_DECLS
