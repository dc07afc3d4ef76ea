/* sl-graph-scene.c: laid-out boxes and edges with a grid index
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-graph-scene.h"

/* An item covering more cells than this is kept in a list that every
 * query reads, so one frame around the whole graph does not fill every
 * cell of the grid. */
#define MAX_CELLS_PER_ITEM 64
#define MAX_GRID_SIDE 1024
#define MIN_CELL_SIZE 64.0

struct _SlGraphScene
{
  GObject       parent_instance;

  GArray       *boxes;        /* SlGraphSceneBox */
  GArray       *edges;        /* SlGraphSceneEdge */
  GArray       *points;       /* SlGraphScenePoint */
  GStringChunk *strings;
  gboolean      finished;

  double        x0, y0, x1, y1;

  /* Grid: items are boxes (0..n_boxes-1) then edges (n_boxes + e). */
  double        cell_size;
  guint         columns;
  guint         rows;
  guint32      *cell_start;   /* columns * rows + 1 */
  guint32      *cell_items;
  GArray       *big_items;    /* guint32 */

  guint32      *box_edge_start;
  guint32      *box_edges;
  GHashTable   *by_id;        /* id → box index + 1 */
};

G_DEFINE_FINAL_TYPE (SlGraphScene, sl_graph_scene, G_TYPE_OBJECT)

static void
sl_graph_scene_finalize (GObject *object)
{
  SlGraphScene *self = SL_GRAPH_SCENE (object);

  g_array_unref (self->boxes);
  g_array_unref (self->edges);
  g_array_unref (self->points);
  g_string_chunk_free (self->strings);
  g_free (self->cell_start);
  g_free (self->cell_items);
  g_clear_pointer (&self->big_items, g_array_unref);
  g_free (self->box_edge_start);
  g_free (self->box_edges);
  g_clear_pointer (&self->by_id, g_hash_table_unref);

  G_OBJECT_CLASS (sl_graph_scene_parent_class)->finalize (object);
}

static void
sl_graph_scene_class_init (SlGraphSceneClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_graph_scene_finalize;
}

static void
sl_graph_scene_init (SlGraphScene *self)
{
  self->boxes = g_array_new (FALSE, FALSE, sizeof (SlGraphSceneBox));
  self->edges = g_array_new (FALSE, FALSE, sizeof (SlGraphSceneEdge));
  self->points = g_array_new (FALSE, FALSE, sizeof (SlGraphScenePoint));
  self->strings = g_string_chunk_new (4096);
}

SlGraphScene *
sl_graph_scene_new (void)
{
  return g_object_new (SL_TYPE_GRAPH_SCENE, NULL);
}

guint
sl_graph_scene_add_box (SlGraphScene          *self,
                        const SlGraphSceneBox *box)
{
  SlGraphSceneBox copy;

  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), SL_GRAPH_SCENE_NONE);
  g_return_val_if_fail (box != NULL, SL_GRAPH_SCENE_NONE);
  g_return_val_if_fail (!self->finished, SL_GRAPH_SCENE_NONE);
  g_return_val_if_fail (box->parent == SL_GRAPH_SCENE_NONE || box->parent < self->boxes->len,
                        SL_GRAPH_SCENE_NONE);

  copy = *box;
  copy.width = MAX (copy.width, 0);
  copy.height = MAX (copy.height, 0);
  copy.label = g_string_chunk_insert_const (self->strings, box->label != NULL ? box->label : "");
  copy.detail = box->detail != NULL ? g_string_chunk_insert_const (self->strings, box->detail) : NULL;
  g_array_append_val (self->boxes, copy);
  return self->boxes->len - 1;
}

guint
sl_graph_scene_add_edge (SlGraphScene            *self,
                         guint                    from,
                         guint                    to,
                         SlGraphSceneEdgeKind     kind,
                         gboolean                 reversed,
                         guint                    count,
                         const SlGraphScenePoint *points,
                         guint                    n_points)
{
  SlGraphSceneEdge edge;

  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), SL_GRAPH_SCENE_NONE);
  g_return_val_if_fail (!self->finished, SL_GRAPH_SCENE_NONE);
  g_return_val_if_fail (from < self->boxes->len && to < self->boxes->len, SL_GRAPH_SCENE_NONE);
  g_return_val_if_fail (n_points >= 2 && points != NULL, SL_GRAPH_SCENE_NONE);

  edge = (SlGraphSceneEdge) {
    .from = from,
    .to = to,
    .first_point = self->points->len,
    .n_points = n_points,
    .count = MAX (count, 1),
    .kind = kind,
    .reversed = reversed ? 1 : 0,
  };
  g_array_append_vals (self->points, points, n_points);
  g_array_append_val (self->edges, edge);
  return self->edges->len - 1;
}

typedef struct {
  double x0, y0, x1, y1;
} Rect;

static Rect
edge_rect (SlGraphScene          *self,
           const SlGraphSceneEdge *e)
{
  const SlGraphScenePoint *p = &g_array_index (self->points, SlGraphScenePoint, e->first_point);
  Rect r = { p[0].x, p[0].y, p[0].x, p[0].y };

  for (guint i = 1; i < e->n_points; i++)
    {
      r.x0 = MIN (r.x0, p[i].x);
      r.y0 = MIN (r.y0, p[i].y);
      r.x1 = MAX (r.x1, p[i].x);
      r.y1 = MAX (r.y1, p[i].y);
    }
  return r;
}

static Rect
box_rect (const SlGraphSceneBox *b)
{
  return (Rect) { b->x, b->y, b->x + b->width, b->y + b->height };
}

static Rect
item_rect (SlGraphScene *self,
           guint32       item)
{
  guint n_boxes = self->boxes->len;

  if (item < n_boxes)
    return box_rect (&g_array_index (self->boxes, SlGraphSceneBox, item));
  return edge_rect (self, &g_array_index (self->edges, SlGraphSceneEdge, item - n_boxes));
}

static void
compute_bounds (SlGraphScene *self)
{
  guint n_items = self->boxes->len + self->edges->len;

  if (n_items == 0)
    {
      self->x0 = self->y0 = self->x1 = self->y1 = 0;
      return;
    }
  self->x0 = self->y0 = INFINITY;
  self->x1 = self->y1 = -INFINITY;
  for (guint32 i = 0; i < n_items; i++)
    {
      Rect r = item_rect (self, i);

      self->x0 = MIN (self->x0, r.x0);
      self->y0 = MIN (self->y0, r.y0);
      self->x1 = MAX (self->x1, r.x1);
      self->y1 = MAX (self->y1, r.y1);
    }
}

static void
cell_range (SlGraphScene *self,
            Rect          r,
            guint        *c0,
            guint        *c1,
            guint        *r0,
            guint        *r1)
{
  double fx0 = floor ((r.x0 - self->x0) / self->cell_size);
  double fx1 = floor ((r.x1 - self->x0) / self->cell_size);
  double fy0 = floor ((r.y0 - self->y0) / self->cell_size);
  double fy1 = floor ((r.y1 - self->y0) / self->cell_size);

  *c0 = (guint) CLAMP (fx0, 0, self->columns - 1);
  *c1 = (guint) CLAMP (fx1, 0, self->columns - 1);
  *r0 = (guint) CLAMP (fy0, 0, self->rows - 1);
  *r1 = (guint) CLAMP (fy1, 0, self->rows - 1);
}

/* An edge is indexed by each of its segments, so a long vertical trunk
 * costs one cell per cell it passes, not the cells of its bounding box. */
typedef void (*CellFunc) (SlGraphScene *self,
                          guint         cell,
                          guint32       item,
                          gpointer      data);

static gboolean
visit_item_cells (SlGraphScene *self,
                  guint32       item,
                  CellFunc      func,
                  gpointer      data)
{
  guint n_boxes = self->boxes->len;
  guint c0, c1, r0, r1;

  if (item < n_boxes)
    {
      cell_range (self, item_rect (self, item), &c0, &c1, &r0, &r1);
      if ((guint64)(c1 - c0 + 1) * (r1 - r0 + 1) > MAX_CELLS_PER_ITEM)
        return FALSE;
      for (guint r = r0; r <= r1; r++)
        for (guint c = c0; c <= c1; c++)
          func (self, r * self->columns + c, item, data);
      return TRUE;
    }
  else
    {
      const SlGraphSceneEdge *e = &g_array_index (self->edges, SlGraphSceneEdge, item - n_boxes);
      const SlGraphScenePoint *p = &g_array_index (self->points, SlGraphScenePoint, e->first_point);
      guint64 cells = 0;

      for (guint i = 0; i + 1 < e->n_points; i++)
        {
          Rect s = { MIN (p[i].x, p[i + 1].x), MIN (p[i].y, p[i + 1].y),
                     MAX (p[i].x, p[i + 1].x), MAX (p[i].y, p[i + 1].y) };

          cell_range (self, s, &c0, &c1, &r0, &r1);
          cells += (guint64)(c1 - c0 + 1) * (r1 - r0 + 1);
        }
      if (cells > 4 * MAX_CELLS_PER_ITEM)
        return FALSE;
      for (guint i = 0; i + 1 < e->n_points; i++)
        {
          Rect s = { MIN (p[i].x, p[i + 1].x), MIN (p[i].y, p[i + 1].y),
                     MAX (p[i].x, p[i + 1].x), MAX (p[i].y, p[i + 1].y) };

          cell_range (self, s, &c0, &c1, &r0, &r1);
          for (guint r = r0; r <= r1; r++)
            for (guint c = c0; c <= c1; c++)
              func (self, r * self->columns + c, item, data);
        }
      return TRUE;
    }
}

static void
count_in_cell (SlGraphScene *self,
               guint         cell,
               guint32       item,
               gpointer      data)
{
  self->cell_start[cell + 1]++;
}

static void
place_in_cell (SlGraphScene *self,
               guint         cell,
               guint32       item,
               gpointer      data)
{
  guint32 *fill = data;

  /* Consecutive segments of one edge often share a cell. */
  if (fill[cell] > self->cell_start[cell] && self->cell_items[fill[cell] - 1] == item)
    return;
  self->cell_items[fill[cell]++] = item;
}

static void
build_grid (SlGraphScene *self)
{
  guint n_items = self->boxes->len + self->edges->len;
  double width = MAX (self->x1 - self->x0, 1);
  double height = MAX (self->y1 - self->y0, 1);
  double cell = MAX (sqrt (width * height / MAX (n_items, 1)) * 2, MIN_CELL_SIZE);
  g_autofree guint32 *fill = NULL;
  g_autofree guint8 *big = NULL;
  guint n_cells;

  cell = MAX (cell, MAX (width, height) / MAX_GRID_SIDE);
  self->cell_size = cell;
  self->columns = MAX ((guint) ceil (width / cell), 1);
  self->rows = MAX ((guint) ceil (height / cell), 1);
  n_cells = self->columns * self->rows;
  self->cell_start = g_new0 (guint32, n_cells + 1);
  self->big_items = g_array_new (FALSE, FALSE, sizeof (guint32));
  big = g_new0 (guint8, MAX (n_items, 1));

  for (guint32 i = 0; i < n_items; i++)
    if (!visit_item_cells (self, i, count_in_cell, NULL))
      {
        big[i] = 1;
        g_array_append_val (self->big_items, i);
      }
  for (guint c = 0; c < n_cells; c++)
    self->cell_start[c + 1] += self->cell_start[c];

  self->cell_items = g_new (guint32, MAX (self->cell_start[n_cells], 1));
  fill = g_memdup2 (self->cell_start, n_cells * sizeof (guint32));
  for (guint32 i = 0; i < n_items; i++)
    if (!big[i])
      visit_item_cells (self, i, place_in_cell, fill);
  /* place_in_cell skips repeats that count_in_cell counted: close gaps. */
  {
    guint32 out = 0;

    for (guint c = 0; c < n_cells; c++)
      {
        guint32 start = self->cell_start[c];

        self->cell_start[c] = out;
        memmove (self->cell_items + out, self->cell_items + start, (fill[c] - start) * sizeof (guint32));
        out += fill[c] - start;
      }
    self->cell_start[n_cells] = out;
  }
}

static void
build_box_edges (SlGraphScene *self)
{
  guint n_boxes = self->boxes->len;
  guint n_edges = self->edges->len;
  g_autofree guint32 *fill = NULL;

  self->box_edge_start = g_new0 (guint32, n_boxes + 1);
  for (guint i = 0; i < n_edges; i++)
    {
      const SlGraphSceneEdge *e = &g_array_index (self->edges, SlGraphSceneEdge, i);

      self->box_edge_start[e->from + 1]++;
      if (e->to != e->from)
        self->box_edge_start[e->to + 1]++;
    }
  for (guint b = 0; b < n_boxes; b++)
    self->box_edge_start[b + 1] += self->box_edge_start[b];
  self->box_edges = g_new (guint32, MAX (self->box_edge_start[n_boxes], 1));
  fill = g_memdup2 (self->box_edge_start, (n_boxes + 1) * sizeof (guint32));
  for (guint32 i = 0; i < n_edges; i++)
    {
      const SlGraphSceneEdge *e = &g_array_index (self->edges, SlGraphSceneEdge, i);

      self->box_edges[fill[e->from]++] = i;
      if (e->to != e->from)
        self->box_edges[fill[e->to]++] = i;
    }
}

void
sl_graph_scene_finish (SlGraphScene *self)
{
  g_return_if_fail (SL_IS_GRAPH_SCENE (self));

  if (self->finished)
    return;

  compute_bounds (self);
  build_grid (self);
  build_box_edges (self);
  self->by_id = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < self->boxes->len; i++)
    {
      const SlGraphSceneBox *b = &g_array_index (self->boxes, SlGraphSceneBox, i);

      /* The first box of an id wins: ids are unique in a well-made scene. */
      if (!g_hash_table_contains (self->by_id, GUINT_TO_POINTER (b->id)))
        g_hash_table_insert (self->by_id, GUINT_TO_POINTER (b->id), GUINT_TO_POINTER (i + 1));
    }
  self->finished = TRUE;
}

gboolean
sl_graph_scene_is_finished (SlGraphScene *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), FALSE);

  return self->finished;
}

const SlGraphSceneBox *
sl_graph_scene_get_boxes (SlGraphScene *self,
                          guint        *n_boxes)
{
  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), NULL);

  if (n_boxes != NULL)
    *n_boxes = self->boxes->len;
  return (const SlGraphSceneBox *) self->boxes->data;
}

const SlGraphSceneEdge *
sl_graph_scene_get_edges (SlGraphScene *self,
                          guint        *n_edges)
{
  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), NULL);

  if (n_edges != NULL)
    *n_edges = self->edges->len;
  return (const SlGraphSceneEdge *) self->edges->data;
}

const SlGraphScenePoint *
sl_graph_scene_get_points (SlGraphScene *self,
                           guint        *n_points)
{
  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), NULL);

  if (n_points != NULL)
    *n_points = self->points->len;
  return (const SlGraphScenePoint *) self->points->data;
}

void
sl_graph_scene_get_bounds (SlGraphScene *self,
                           double       *x,
                           double       *y,
                           double       *width,
                           double       *height)
{
  g_return_if_fail (SL_IS_GRAPH_SCENE (self));
  g_return_if_fail (self->finished);

  if (x != NULL)
    *x = self->x0;
  if (y != NULL)
    *y = self->y0;
  if (width != NULL)
    *width = self->x1 - self->x0;
  if (height != NULL)
    *height = self->y1 - self->y0;
}

guint
sl_graph_scene_lookup_id (SlGraphScene *self,
                          guint32       id)
{
  gpointer value;

  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), SL_GRAPH_SCENE_NONE);
  g_return_val_if_fail (self->finished, SL_GRAPH_SCENE_NONE);

  value = g_hash_table_lookup (self->by_id, GUINT_TO_POINTER (id));
  return value != NULL ? GPOINTER_TO_UINT (value) - 1 : SL_GRAPH_SCENE_NONE;
}

const guint32 *
sl_graph_scene_get_box_edges (SlGraphScene *self,
                              guint         box,
                              guint        *n_edges)
{
  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), NULL);
  g_return_val_if_fail (self->finished, NULL);
  g_return_val_if_fail (box < self->boxes->len, NULL);

  *n_edges = self->box_edge_start[box + 1] - self->box_edge_start[box];
  return self->box_edges + self->box_edge_start[box];
}

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

static gboolean
rects_meet (Rect a,
            Rect b)
{
  return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}

/* Candidates from the cells (with repeats), sorted and made unique; no
 * state is shared between queries, so several threads may query. */
static GArray *
collect_items (SlGraphScene *self,
               Rect          q)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint c0, c1, r0, r1;
  guint32 last = G_MAXUINT32;
  guint out = 0;

  if (self->boxes->len + self->edges->len == 0)
    return found;

  g_array_append_vals (found, self->big_items->data, self->big_items->len);
  if (q.x1 >= self->x0 && q.x0 <= self->x1 && q.y1 >= self->y0 && q.y0 <= self->y1)
    {
      cell_range (self, q, &c0, &c1, &r0, &r1);
      for (guint r = r0; r <= r1; r++)
        for (guint c = c0; c <= c1; c++)
          {
            guint cell = r * self->columns + c;

            g_array_append_vals (found, self->cell_items + self->cell_start[cell],
                                 self->cell_start[cell + 1] - self->cell_start[cell]);
          }
    }
  g_array_sort (found, compare_guint32);

  for (guint i = 0; i < found->len; i++)
    {
      guint32 item = g_array_index (found, guint32, i);

      if (item == last)
        continue;
      last = item;
      if (rects_meet (item_rect (self, item), q))
        g_array_index (found, guint32, out++) = item;
    }
  g_array_set_size (found, out);
  return found;
}

void
sl_graph_scene_query (SlGraphScene *self,
                      double        x,
                      double        y,
                      double        width,
                      double        height,
                      GArray       *boxes,
                      GArray       *edges)
{
  g_autoptr(GArray) found = NULL;
  guint n_boxes;

  g_return_if_fail (SL_IS_GRAPH_SCENE (self));
  g_return_if_fail (self->finished);

  n_boxes = self->boxes->len;
  found = collect_items (self, (Rect) { x, y, x + MAX (width, 0), y + MAX (height, 0) });
  for (guint i = 0; i < found->len; i++)
    {
      guint32 item = g_array_index (found, guint32, i);

      if (item < n_boxes)
        {
          if (boxes != NULL)
            g_array_append_val (boxes, item);
        }
      else if (edges != NULL)
        {
          guint32 e = item - n_boxes;

          g_array_append_val (edges, e);
        }
    }
}

guint
sl_graph_scene_hit (SlGraphScene *self,
                    double        x,
                    double        y)
{
  g_autoptr(GArray) found = NULL;
  guint n_boxes;

  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), SL_GRAPH_SCENE_NONE);
  g_return_val_if_fail (self->finished, SL_GRAPH_SCENE_NONE);

  n_boxes = self->boxes->len;
  found = collect_items (self, (Rect) { x, y, x, y });
  /* Boxes come before what they contain, so the last hit is innermost. */
  for (guint i = found->len; i-- > 0;)
    {
      guint32 item = g_array_index (found, guint32, i);

      if (item < n_boxes)
        return item;
    }
  return SL_GRAPH_SCENE_NONE;
}

gsize
sl_graph_scene_get_memory_size (SlGraphScene *self)
{
  guint n_cells;

  g_return_val_if_fail (SL_IS_GRAPH_SCENE (self), 0);

  n_cells = self->finished ? self->columns * self->rows : 0;
  return sizeof *self
         + self->boxes->len * sizeof (SlGraphSceneBox)
         + self->edges->len * sizeof (SlGraphSceneEdge)
         + self->points->len * sizeof (SlGraphScenePoint)
         + (self->finished ? (n_cells + 1 + self->cell_start[n_cells]) * sizeof (guint32) : 0)
         + (self->finished ? (self->boxes->len + 1) * 2 * sizeof (guint32) : 0);
}
