/* sl-graph-layout.c: expanded containers laid out on their own, cached
 * under their children's sizes and composed bottom-up into a scene
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-graph-layout.h"
#include "sl-layered-layout.h"
#include "sl-main-thread.h"

/* Box sizes come from the label's length: the core has no fonts, and the
 * renderer ellipsizes what does not fit (the tooltip has it all). */
#define CHAR_WIDTH        6.6
#define OP_HEIGHT         40.0
#define OP_MIN_WIDTH      72.0
#define OP_MAX_WIDTH      220.0
#define COLLAPSED_HEIGHT  48.0
#define COLLAPSED_MIN     100.0
#define COLLAPSED_MAX     240.0
#define ROUND_HEIGHT      28.0
#define ROUND_MIN         60.0
#define ROUND_MAX         200.0
#define CHIP_HEIGHT       16.0
#define CHIP_GAP          4.0
#define CHIP_MAX_WIDTH    96.0
#define EMPTY_WIDTH       120.0
#define NODE_SEPARATION   24.0
#define RANK_SEPARATION   36.0
/* Enough sweeps for a 1,000-box scope; a bound on time for larger ones
 * that does not depend on the machine's load. */
#define CROSSING_WORK     4000000
/* The cache is dropped when it holds more boxes than this. */
#define CACHE_MAX_BOXES   4000000

typedef struct {
  double width;
  double height;
} Size;

/* One container laid out: its shown children, their centres relative to
 * the container's content origin, and the routes of the edges among
 * them. Shared read-only once in the cache. */
typedef struct {
  gatomicrefcount  ref;
  guint            container;
  gboolean         hide;
  guint64          key;
  guint            n_children;
  guint32         *children;
  Size            *sizes;
  double          *cx;
  double          *cy;
  guint            n_edges;
  guint32         *edge_from;     /* local child indices */
  guint32         *edge_to;
  guint32         *edge_count;
  guint8          *edge_kind;
  guint8          *edge_reversed;
  guint32         *edge_point_start;  /* n_edges + 1 */
  SlGraphScenePoint *points;
  double           width;
  double           height;
} ContainerLayout;

struct _SlGraphLayout
{
  GObject      parent_instance;

  SlGraph     *graph;
  guint        n_items;
  guint32     *n_ops_below;

  GMutex       lock;          /* guards everything below */
  guint8      *expanded;
  gboolean     hide_bookkeeping;
  double      *item_time;     /* NULL when not coloured */
  GHashTable  *cache;         /* key → ContainerLayout */
  gsize        cache_boxes;
  guint        last_n_computed;
};

G_DEFINE_FINAL_TYPE (SlGraphLayout, sl_graph_layout, G_TYPE_OBJECT)

/* The root's parent is the root in the model; here, none. */
static guint
parent_of (SlGraph *graph,
           guint    item)
{
  return item == 0 ? SL_GRAPH_NONE : sl_graph_item_get_parent (graph, item);
}

static ContainerLayout *
container_layout_ref (ContainerLayout *layout)
{
  g_atomic_ref_count_inc (&layout->ref);
  return layout;
}

static void
container_layout_unref (ContainerLayout *layout)
{
  if (layout == NULL || !g_atomic_ref_count_dec (&layout->ref))
    return;
  g_free (layout->children);
  g_free (layout->sizes);
  g_free (layout->cx);
  g_free (layout->cy);
  g_free (layout->edge_from);
  g_free (layout->edge_to);
  g_free (layout->edge_count);
  g_free (layout->edge_kind);
  g_free (layout->edge_reversed);
  g_free (layout->edge_point_start);
  g_free (layout->points);
  g_free (layout);
}

static void
sl_graph_layout_finalize (GObject *object)
{
  SlGraphLayout *self = SL_GRAPH_LAYOUT (object);

  g_clear_object (&self->graph);
  g_free (self->n_ops_below);
  g_free (self->expanded);
  g_free (self->item_time);
  g_hash_table_unref (self->cache);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (sl_graph_layout_parent_class)->finalize (object);
}

static void
sl_graph_layout_class_init (SlGraphLayoutClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_graph_layout_finalize;
}

static guint
hash_key (gconstpointer key)
{
  guint64 k = *(const guint64 *) key;

  return (guint) (k ^ (k >> 32));
}

static gboolean
equal_key (gconstpointer a,
           gconstpointer b)
{
  return *(const guint64 *) a == *(const guint64 *) b;
}

static void
sl_graph_layout_init (SlGraphLayout *self)
{
  g_mutex_init (&self->lock);
  self->cache = g_hash_table_new_full (hash_key, equal_key, NULL,
                                       (GDestroyNotify) container_layout_unref);
}

static void
count_ops_below (SlGraphLayout *self)
{
  guint n_ops = sl_graph_get_n_ops (self->graph);

  self->n_ops_below = g_new0 (guint32, MAX (self->n_items, 1));
  for (guint e = 0; e < n_ops; e++)
    for (guint item = sl_graph_element_get_item (self->graph, e);
         item != SL_GRAPH_NONE;
         item = parent_of (self->graph, item))
      self->n_ops_below[item]++;
}

/**
 * sl_graph_layout_new:
 * @graph: the graph to lay out
 *
 * Returns: (transfer full): a layout showing the root expanded
 */
SlGraphLayout *
sl_graph_layout_new (SlGraph *graph)
{
  SlGraphLayout *self;

  g_return_val_if_fail (SL_IS_GRAPH (graph), NULL);

  self = g_object_new (SL_TYPE_GRAPH_LAYOUT, NULL);
  self->graph = g_object_ref (graph);
  self->n_items = sl_graph_get_n_items (graph);
  self->expanded = g_new0 (guint8, MAX (self->n_items, 1));
  self->expanded[0] = 1;
  count_ops_below (self);
  return self;
}

SlGraph *
sl_graph_layout_get_graph (SlGraphLayout *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), NULL);

  return self->graph;
}

/* ------------------------------------------------------------------ */
/* The view state                                                     */

gboolean
sl_graph_op_type_is_bookkeeping (const char *op_type)
{
  static const char * const names[] = { "load", "tuplegetitem", "maketuple", "updatestate", "depend" };
  char folded[16];
  guint n = 0;

  if (op_type == NULL)
    return FALSE;
  for (const char *p = op_type; *p != '\0'; p++)
    {
      if (*p == '_')
        continue;
      if (n + 1 >= sizeof folded)
        return FALSE;
      folded[n++] = g_ascii_tolower (*p);
    }
  folded[n] = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (folded, names[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
item_is_container (SlGraph *graph,
                   guint    item)
{
  switch (sl_graph_item_get_kind (graph, item))
    {
    case SL_GRAPH_ITEM_SCOPE:
    case SL_GRAPH_ITEM_GROUP:
    case SL_GRAPH_ITEM_SECTION:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
item_is_hidden (SlGraph  *graph,
                guint     item,
                gboolean  hide)
{
  SlGraphItemKind kind;

  if (!hide)
    return FALSE;
  kind = sl_graph_item_get_kind (graph, item);
  return (kind == SL_GRAPH_ITEM_OP || kind == SL_GRAPH_ITEM_GROUP) &&
         sl_graph_op_type_is_bookkeeping (sl_graph_item_get_op_type (graph, item));
}

gboolean
sl_graph_layout_is_expandable (SlGraphLayout *self,
                               guint          item)
{
  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), FALSE);

  return item < self->n_items && item_is_container (self->graph, item) &&
         sl_graph_item_get_n_children (self->graph, item) > 0;
}

void
sl_graph_layout_set_expanded (SlGraphLayout *self,
                              guint          item,
                              gboolean       expanded)
{
  g_return_if_fail (SL_IS_GRAPH_LAYOUT (self));
  g_return_if_fail (item < self->n_items);

  if (item == 0 || !sl_graph_layout_is_expandable (self, item))
    return;
  g_mutex_lock (&self->lock);
  self->expanded[item] = expanded ? 1 : 0;
  g_mutex_unlock (&self->lock);
}

gboolean
sl_graph_layout_get_expanded (SlGraphLayout *self,
                              guint          item)
{
  gboolean expanded;

  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), FALSE);
  g_return_val_if_fail (item < self->n_items, FALSE);

  g_mutex_lock (&self->lock);
  expanded = self->expanded[item];
  g_mutex_unlock (&self->lock);
  return expanded;
}

gboolean
sl_graph_layout_expand_to (SlGraphLayout *self,
                           guint          item)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), FALSE);
  g_return_val_if_fail (item < self->n_items, FALSE);

  g_mutex_lock (&self->lock);
  for (guint up = parent_of (self->graph, item);
       up != SL_GRAPH_NONE;
       up = parent_of (self->graph, up))
    {
      /* A constant's parent is its consumer op: shown, never expanded. */
      if (!item_is_container (self->graph, up))
        continue;
      changed |= !self->expanded[up];
      self->expanded[up] = 1;
    }
  g_mutex_unlock (&self->lock);
  return changed;
}

void
sl_graph_layout_expand_initial (SlGraphLayout *self)
{
  guint item = 0;

  g_return_if_fail (SL_IS_GRAPH_LAYOUT (self));

  g_mutex_lock (&self->lock);
  self->expanded[0] = 1;
  while (sl_graph_item_get_n_children (self->graph, item) == 1)
    {
      guint child = sl_graph_item_get_child (self->graph, item, 0);

      if (!item_is_container (self->graph, child) || sl_graph_item_get_n_children (self->graph, child) == 0)
        break;
      self->expanded[child] = 1;
      item = child;
    }
  g_mutex_unlock (&self->lock);
}

guint
sl_graph_layout_get_shown_item (SlGraphLayout *self,
                                guint          item)
{
  g_autoptr(GArray) chain = NULL;
  guint shown;

  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), 0);
  g_return_val_if_fail (item < self->n_items, 0);

  chain = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint up = item; up != SL_GRAPH_NONE; up = parent_of (self->graph, up))
    g_array_append_val (chain, up);

  g_mutex_lock (&self->lock);
  /* From the top down, the first container that is collapsed. */
  shown = item;
  for (guint i = chain->len; i-- > 1;)
    {
      guint up = g_array_index (chain, guint, i);

      if (item_is_container (self->graph, up) && !self->expanded[up])
        {
          shown = up;
          break;
        }
    }
  if (item_is_hidden (self->graph, shown, self->hide_bookkeeping))
    shown = parent_of (self->graph, shown);
  g_mutex_unlock (&self->lock);
  return shown != SL_GRAPH_NONE ? shown : 0;
}

void
sl_graph_layout_set_hide_bookkeeping (SlGraphLayout *self,
                                      gboolean       hide)
{
  g_return_if_fail (SL_IS_GRAPH_LAYOUT (self));

  g_mutex_lock (&self->lock);
  self->hide_bookkeeping = hide;
  g_mutex_unlock (&self->lock);
}

gboolean
sl_graph_layout_get_hide_bookkeeping (SlGraphLayout *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), FALSE);

  return self->hide_bookkeeping;
}

void
sl_graph_layout_set_times (SlGraphLayout *self,
                           const double  *times,
                           guint          n_elements)
{
  double *item_time = NULL;

  g_return_if_fail (SL_IS_GRAPH_LAYOUT (self));

  if (times != NULL)
    {
      guint n_ops = MIN (n_elements, sl_graph_get_n_ops (self->graph));

      item_time = g_new0 (double, MAX (self->n_items, 1));
      for (guint e = 0; e < n_ops; e++)
        {
          if (!(times[e] > 0) || !isfinite (times[e]))
            continue;
          for (guint item = sl_graph_element_get_item (self->graph, e);
               item != SL_GRAPH_NONE;
               item = parent_of (self->graph, item))
            item_time[item] += times[e];
        }
    }
  g_mutex_lock (&self->lock);
  g_free (self->item_time);
  self->item_time = item_time;
  g_mutex_unlock (&self->lock);
}

double
sl_graph_layout_get_item_time (SlGraphLayout *self,
                               guint          item)
{
  double time;

  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), 0);
  g_return_val_if_fail (item < self->n_items, 0);

  g_mutex_lock (&self->lock);
  time = self->item_time != NULL ? self->item_time[item] : 0;
  g_mutex_unlock (&self->lock);
  return time;
}

guint
sl_graph_layout_get_n_ops_below (SlGraphLayout *self,
                                 guint          item)
{
  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), 0);
  g_return_val_if_fail (item < self->n_items, 0);

  return self->n_ops_below[item];
}

guint
sl_graph_layout_get_last_n_computed (SlGraphLayout *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), 0);

  return self->last_n_computed;
}

gsize
sl_graph_layout_get_cache_size (SlGraphLayout *self)
{
  gsize n;

  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), 0);

  g_mutex_lock (&self->lock);
  n = g_hash_table_size (self->cache);
  g_mutex_unlock (&self->lock);
  return n;
}

/* ------------------------------------------------------------------ */
/* Box sizes and labels                                               */

static double
text_width (const char *text)
{
  return text != NULL ? g_utf8_strlen (text, 400) * CHAR_WIDTH : 0;
}

/* "float32[1,4096,4096]" for an op's first output, NULL without one. */
static char *
dup_output_text (SlGraph *graph,
                 guint    element)
{
  const gint64 *dims;
  guint n_dims;
  int dtype;
  GString *text;

  if (element == SL_GRAPH_NONE || sl_graph_element_get_n_outputs (graph, element) == 0)
    return NULL;
  dtype = sl_graph_element_get_output (graph, element, 0, &dims, &n_dims);
  text = g_string_new (sl_graph_dtype_to_string (dtype));
  g_string_append_c (text, '[');
  for (guint i = 0; i < n_dims && i < 8; i++)
    g_string_append_printf (text, i > 0 ? ",%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, dims[i]);
  if (n_dims > 8)
    g_string_append (text, ",…");
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

static char *
dup_detail (SlGraphLayout *self,
            guint          item)
{
  SlGraph *graph = self->graph;

  switch (sl_graph_item_get_kind (graph, item))
    {
    case SL_GRAPH_ITEM_OP:
      {
        char *output = dup_output_text (graph, sl_graph_item_get_element (graph, item));

        return output != NULL ? output : g_strdup (sl_graph_item_get_op_type (graph, item));
      }
    case SL_GRAPH_ITEM_SCOPE:
    case SL_GRAPH_ITEM_GROUP:
    case SL_GRAPH_ITEM_SECTION:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u op", "%u ops", self->n_ops_below[item]),
                              self->n_ops_below[item]);
    case SL_GRAPH_ITEM_PROXY:
      return g_strdup (sl_graph_item_get_op_type (graph, item));
    case SL_GRAPH_ITEM_PARAMETER:
    case SL_GRAPH_ITEM_CONST:
    default:
      return NULL;
    }
}

static double
chip_width (SlGraph *graph,
            guint    item)
{
  return CLAMP (12 + text_width (sl_graph_item_get_label (graph, item)) * 0.9, 30, CHIP_MAX_WIDTH);
}

/* Constants sit as chips in rows under an op's two lines of text; with
 * @x and @y, their offsets from the op's corner. Returns the rows. */
static guint
place_chips (SlGraph *graph,
             guint    op,
             double   width,
             double  *x,
             double  *y)
{
  guint n = sl_graph_item_get_n_children (graph, op);
  double cx = 8, row_width = MAX (width - 16, CHIP_MAX_WIDTH);
  guint rows = 0, k = 0;

  for (guint i = 0; i < n; i++)
    {
      guint child = sl_graph_item_get_child (graph, op, i);
      double w;

      if (sl_graph_item_get_kind (graph, child) != SL_GRAPH_ITEM_CONST)
        continue;
      w = chip_width (graph, child);
      if (rows == 0 || (cx > 8 && cx + w > 8 + row_width))
        {
          rows++;
          cx = 8;
        }
      if (x != NULL)
        {
          x[k] = cx;
          y[k] = OP_HEIGHT - 4 + (rows - 1) * (CHIP_HEIGHT + CHIP_GAP);
        }
      cx += w + CHIP_GAP;
      k++;
    }
  return rows;
}

static Size
leaf_size (SlGraphLayout *self,
           guint          item)
{
  SlGraph *graph = self->graph;
  const char *label = sl_graph_item_get_label (graph, item);
  g_autofree char *detail = dup_detail (self, item);
  double text = MAX (text_width (label), text_width (detail));

  switch (sl_graph_item_get_kind (graph, item))
    {
    case SL_GRAPH_ITEM_OP:
      {
        double width = CLAMP (24 + text, OP_MIN_WIDTH, OP_MAX_WIDTH);
        guint rows = place_chips (graph, item, width, NULL, NULL);

        return (Size) { width, OP_HEIGHT + (rows > 0 ? rows * (CHIP_HEIGHT + CHIP_GAP) : 0) };
      }
    case SL_GRAPH_ITEM_SCOPE:
    case SL_GRAPH_ITEM_GROUP:
    case SL_GRAPH_ITEM_SECTION:
      return (Size) { CLAMP (40 + text, COLLAPSED_MIN, COLLAPSED_MAX), COLLAPSED_HEIGHT };
    /* Proxies and parameters are ellipses, whose text has 72 % of their
     * width (see the renderer): widen them so a short name is whole. */
    case SL_GRAPH_ITEM_PROXY:
      return (Size) { CLAMP (28 + text * 1.4, ROUND_MIN, ROUND_MAX), ROUND_HEIGHT - 4 };
    case SL_GRAPH_ITEM_PARAMETER:
      return (Size) { CLAMP (28 + text * 1.4, ROUND_MIN, ROUND_MAX), ROUND_HEIGHT };
    case SL_GRAPH_ITEM_CONST:
    default:
      return (Size) { CLAMP (28 + text, ROUND_MIN, ROUND_MAX), ROUND_HEIGHT };
    }
}

static Size
expanded_size (SlGraph               *graph,
               guint                  item,
               const ContainerLayout *layout)
{
  double label = text_width (sl_graph_item_get_label (graph, item)) + 2 * SL_GRAPH_LAYOUT_PADDING + 60;
  double width = layout->n_children > 0 ? layout->width : EMPTY_WIDTH;
  double height = layout->n_children > 0 ? layout->height : 0;

  return (Size) { MAX (width + 2 * SL_GRAPH_LAYOUT_PADDING, label),
                  height + SL_GRAPH_LAYOUT_HEADER_HEIGHT + 2 * SL_GRAPH_LAYOUT_PADDING };
}

/* ------------------------------------------------------------------ */
/* Laying out one container                                           */

/* What one build works on: a copy of the state. */
typedef struct {
  SlGraphLayout *self;
  SlGraph       *graph;
  guint8        *expanded;
  gboolean       hide;
  guint32       *local;          /* item → index among its container's shown children */
  GHashTable    *layouts;        /* container item → ContainerLayout, for this build */
  guint          n_computed;
} Build;

static gboolean
shown_expanded (Build *b,
                guint  item)
{
  return b->expanded[item] && item_is_container (b->graph, item) &&
         sl_graph_item_get_n_children (b->graph, item) > 0;
}

static Size
child_size (Build *b,
            guint  child)
{
  if (shown_expanded (b, child))
    {
      ContainerLayout *inner = g_hash_table_lookup (b->layouts, GUINT_TO_POINTER (child));

      if (inner != NULL)
        return expanded_size (b->graph, child, inner);
    }
  return leaf_size (b->self, child);
}

static guint64
mix (guint64 h,
     guint64 v)
{
  h ^= v;
  h *= 0x100000001b3ull;
  return h;
}

static guint64
double_bits (double d)
{
  guint64 bits;

  memcpy (&bits, &d, sizeof bits);
  return bits;
}

static guint64
layout_key (guint         container,
            gboolean      hide,
            const guint32 *children,
            const Size    *sizes,
            guint          n)
{
  guint64 h = 0xcbf29ce484222325ull;

  h = mix (h, container);
  h = mix (h, hide);
  for (guint i = 0; i < n; i++)
    {
      h = mix (h, children[i]);
      h = mix (h, double_bits (sizes[i].width));
      h = mix (h, double_bits (sizes[i].height));
    }
  return h;
}

typedef struct {
  guint32 from;
  guint32 to;
  guint32 count;
  guint8  kind;
} LocalEdge;

/* The edges of @container among its shown children; a hidden child is
 * bridged: each shown source reaching it gets edges to the shown targets
 * it leads to (control when any hop is control). */
static GArray *
collect_edges (Build  *b,
               guint   container,
               guint   n_shown)
{
  SlGraph *graph = b->graph;
  guint n = sl_graph_item_get_n_edges (graph, container);
  g_autoptr(GArray) raw = g_array_sized_new (FALSE, FALSE, sizeof (LocalEdge), n);
  GArray *edges = g_array_sized_new (FALSE, FALSE, sizeof (LocalEdge), n);
  g_autofree guint *out_start = NULL;
  g_autofree guint *out_edges = NULL;
  gboolean any_hidden = FALSE;

  /* Local indices: shown children 0..n_shown-1, hidden ones after. */
  for (guint i = 0; i < n; i++)
    {
      guint from, to, count;
      SlGraphEdgeKind kind;
      LocalEdge e;

      sl_graph_item_get_edge (graph, container, i, &from, &to, &kind, &count);
      if (from >= b->self->n_items || to >= b->self->n_items ||
          b->local[from] == G_MAXUINT32 || b->local[to] == G_MAXUINT32)
        continue;
      e = (LocalEdge) { b->local[from], b->local[to], count, kind == SL_GRAPH_EDGE_CONTROL };
      g_array_append_val (raw, e);
    }

  if (!b->hide)
    {
      g_array_append_vals (edges, raw->data, raw->len);
      return edges;
    }

  for (guint i = 0; i < raw->len; i++)
    any_hidden |= g_array_index (raw, LocalEdge, i).from >= n_shown ||
                  g_array_index (raw, LocalEdge, i).to >= n_shown;
  if (!any_hidden)
    {
      g_array_append_vals (edges, raw->data, raw->len);
      return edges;
    }

  {
    guint max_local = 0;
    g_autofree guint *seen = NULL;
    g_autofree guint8 *seen_kind = NULL;
    g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint64));
    guint stamp = 0;

    for (guint i = 0; i < raw->len; i++)
      {
        LocalEdge *e = &g_array_index (raw, LocalEdge, i);

        max_local = MAX (max_local, MAX (e->from, e->to) + 1);
      }
    out_start = g_new0 (guint, max_local + 1);
    for (guint i = 0; i < raw->len; i++)
      out_start[g_array_index (raw, LocalEdge, i).from + 1]++;
    for (guint v = 0; v < max_local; v++)
      out_start[v + 1] += out_start[v];
    out_edges = g_new (guint, MAX (raw->len, 1));
    {
      g_autofree guint *fill = g_memdup2 (out_start, (max_local + 1) * sizeof (guint));

      for (guint i = 0; i < raw->len; i++)
        out_edges[fill[g_array_index (raw, LocalEdge, i).from]++] = i;
    }
    seen = g_new0 (guint, max_local);
    seen_kind = g_new0 (guint8, max_local);

    for (guint i = 0; i < raw->len; i++)
      {
        LocalEdge *e = &g_array_index (raw, LocalEdge, i);

        if (e->from >= n_shown)
          continue;
        if (e->to < n_shown)
          {
            g_array_append_val (edges, *e);
            continue;
          }
        /* A walk through hidden children from this edge's target. */
        stamp++;
        g_array_set_size (stack, 0);
        {
          guint64 start = ((guint64) e->to << 1) | e->kind;

          g_array_append_val (stack, start);
          seen[e->to] = stamp;
        }
        while (stack->len > 0)
          {
            guint64 top = g_array_index (stack, guint64, stack->len - 1);
            guint v = top >> 1;
            guint8 control = top & 1;

            g_array_set_size (stack, stack->len - 1);
            for (guint k = out_start[v]; k < out_start[v + 1]; k++)
              {
                LocalEdge *next = &g_array_index (raw, LocalEdge, out_edges[k]);
                guint8 kind = control | next->kind;

                if (next->to < n_shown)
                  {
                    /* One bridged edge per shown target and walk. */
                    if (seen[next->to] == stamp && seen_kind[next->to] <= kind)
                      continue;
                    seen[next->to] = stamp;
                    seen_kind[next->to] = kind;
                    {
                      LocalEdge bridged = { e->from, next->to, e->count, kind };

                      if (next->to != e->from)
                        g_array_append_val (edges, bridged);
                    }
                  }
                else if (seen[next->to] != stamp)
                  {
                    guint64 push = ((guint64) next->to << 1) | kind;

                    seen[next->to] = stamp;
                    g_array_append_val (stack, push);
                  }
              }
          }
      }
  }
  return edges;
}

static ContainerLayout *
compute_container (Build         *b,
                   guint          container,
                   const guint32 *children,
                   const Size    *sizes,
                   guint          n_children,
                   guint64        key,
                   GArray        *edges,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autofree SlLayeredSize *boxes = g_new (SlLayeredSize, MAX (n_children, 1));
  g_autofree SlLayeredEdge *input_edges = g_new (SlLayeredEdge, MAX (edges->len, 1));
  g_autoptr(SlLayeredLayout) layered = NULL;
  g_autoptr(GArray) points = g_array_new (FALSE, FALSE, sizeof (SlGraphScenePoint));
  ContainerLayout *layout;
  SlLayeredInput input;

  for (guint i = 0; i < n_children; i++)
    boxes[i] = (SlLayeredSize) { sizes[i].width, sizes[i].height };
  for (guint i = 0; i < edges->len; i++)
    {
      LocalEdge *e = &g_array_index (edges, LocalEdge, i);

      input_edges[i] = (SlLayeredEdge) { e->from, e->to, e->kind ? SL_LAYERED_EDGE_CONTROL : SL_LAYERED_EDGE_DATA };
    }
  input = (SlLayeredInput) {
    .nodes = boxes,
    .n_nodes = n_children,
    .edges = input_edges,
    .n_edges = edges->len,
    .node_separation = NODE_SEPARATION,
    .rank_separation = RANK_SEPARATION,
    .crossing_work_budget = CROSSING_WORK,
  };
  layered = sl_layered_layout_compute (&input, cancellable, NULL, NULL, error);
  if (layered == NULL)
    return NULL;

  layout = g_new0 (ContainerLayout, 1);
  g_atomic_ref_count_init (&layout->ref);
  layout->container = container;
  layout->hide = b->hide;
  layout->key = key;
  layout->n_children = n_children;
  layout->children = g_memdup2 (children, MAX (n_children, 1) * sizeof (guint32));
  layout->sizes = g_memdup2 (sizes, MAX (n_children, 1) * sizeof (Size));
  layout->cx = g_new (double, MAX (n_children, 1));
  layout->cy = g_new (double, MAX (n_children, 1));
  for (guint i = 0; i < n_children; i++)
    sl_layered_layout_get_node_centre (layered, i, &layout->cx[i], &layout->cy[i]);
  sl_layered_layout_get_size (layered, &layout->width, &layout->height);

  layout->n_edges = edges->len;
  layout->edge_from = g_new (guint32, MAX (edges->len, 1));
  layout->edge_to = g_new (guint32, MAX (edges->len, 1));
  layout->edge_count = g_new (guint32, MAX (edges->len, 1));
  layout->edge_kind = g_new (guint8, MAX (edges->len, 1));
  layout->edge_reversed = g_new (guint8, MAX (edges->len, 1));
  layout->edge_point_start = g_new (guint32, edges->len + 1);
  for (guint i = 0; i < edges->len; i++)
    {
      LocalEdge *e = &g_array_index (edges, LocalEdge, i);
      const SlLayeredPoint *p;
      guint np;

      layout->edge_from[i] = e->from;
      layout->edge_to[i] = e->to;
      layout->edge_count[i] = e->count;
      layout->edge_kind[i] = e->kind;
      layout->edge_reversed[i] = sl_layered_layout_edge_is_reversed (layered, i);
      layout->edge_point_start[i] = points->len;
      p = sl_layered_layout_get_edge_points (layered, i, &np);
      for (guint k = 0; k < np; k++)
        {
          SlGraphScenePoint q = { p[k].x, p[k].y };

          g_array_append_val (points, q);
        }
    }
  layout->edge_point_start[edges->len] = points->len;
  layout->points = (SlGraphScenePoint *) g_array_free (g_steal_pointer (&points), FALSE);
  return layout;
}

/* The layout of @container under the current sizes of its children: from
 * the cache, or computed and cached. */
static ContainerLayout *
layout_container (Build         *b,
                  guint          container,
                  GCancellable  *cancellable,
                  GError       **error)
{
  SlGraphLayout *self = b->self;
  SlGraph *graph = b->graph;
  guint n_all = sl_graph_item_get_n_children (graph, container);
  g_autofree guint32 *children = g_new (guint32, MAX (n_all, 1));
  g_autofree guint32 *hidden = g_new (guint32, MAX (n_all, 1));
  g_autofree Size *sizes = NULL;
  g_autoptr(GArray) edges = NULL;
  ContainerLayout *layout;
  guint n = 0, n_hidden = 0;
  guint64 key;

  for (guint i = 0; i < n_all; i++)
    {
      guint child = sl_graph_item_get_child (graph, container, i);

      if (sl_graph_item_get_kind (graph, child) == SL_GRAPH_ITEM_CONST)
        continue;
      if (item_is_hidden (graph, child, b->hide))
        hidden[n_hidden++] = child;
      else
        children[n++] = child;
    }
  sizes = g_new (Size, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    sizes[i] = child_size (b, children[i]);

  key = layout_key (container, b->hide, children, sizes, n);
  g_mutex_lock (&self->lock);
  layout = g_hash_table_lookup (self->cache, &key);
  if (layout != NULL && layout->container == container && layout->n_children == n &&
      memcmp (layout->children, children, n * sizeof (guint32)) == 0 &&
      memcmp (layout->sizes, sizes, n * sizeof (Size)) == 0)
    {
      container_layout_ref (layout);
      g_mutex_unlock (&self->lock);
      return layout;
    }
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < n; i++)
    b->local[children[i]] = i;
  for (guint i = 0; i < n_hidden; i++)
    b->local[hidden[i]] = n + i;
  edges = collect_edges (b, container, n);
  for (guint i = 0; i < n; i++)
    b->local[children[i]] = G_MAXUINT32;
  for (guint i = 0; i < n_hidden; i++)
    b->local[hidden[i]] = G_MAXUINT32;

  layout = compute_container (b, container, children, sizes, n, key, edges, cancellable, error);
  if (layout == NULL)
    return NULL;
  b->n_computed++;

  g_mutex_lock (&self->lock);
  if (self->cache_boxes + n > CACHE_MAX_BOXES)
    {
      g_hash_table_remove_all (self->cache);
      self->cache_boxes = 0;
    }
  g_hash_table_replace (self->cache, &layout->key, container_layout_ref (layout));
  self->cache_boxes += n;
  g_mutex_unlock (&self->lock);
  return layout;
}

/* Expanded containers in depth-first order from the root: reversed, a
 * container comes after every container inside it. */
static GArray *
collect_expanded (Build *b)
{
  GArray *order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
  guint root = 0;

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint item = g_array_index (stack, guint, stack->len - 1);
      guint n = sl_graph_item_get_n_children (b->graph, item);

      g_array_set_size (stack, stack->len - 1);
      g_array_append_val (order, item);
      for (guint i = 0; i < n; i++)
        {
          guint child = sl_graph_item_get_child (b->graph, item, i);

          if (shown_expanded (b, child) && !item_is_hidden (b->graph, child, b->hide))
            g_array_append_val (stack, child);
        }
    }
  return order;
}

/* ------------------------------------------------------------------ */
/* Composing the scene                                                */

static guint8
shape_of (Build *b,
          guint  item)
{
  switch (sl_graph_item_get_kind (b->graph, item))
    {
    case SL_GRAPH_ITEM_SCOPE:
    case SL_GRAPH_ITEM_GROUP:
    case SL_GRAPH_ITEM_SECTION:
      return shown_expanded (b, item) ? SL_GRAPH_SHAPE_CONTAINER : SL_GRAPH_SHAPE_COLLAPSED;
    case SL_GRAPH_ITEM_PARAMETER:
      return SL_GRAPH_SHAPE_PARAMETER;
    case SL_GRAPH_ITEM_CONST:
      return SL_GRAPH_SHAPE_CONST;
    case SL_GRAPH_ITEM_PROXY:
      return SL_GRAPH_SHAPE_PROXY;
    case SL_GRAPH_ITEM_OP:
    default:
      return SL_GRAPH_SHAPE_OP;
    }
}

static guint8
flags_of (Build *b,
          guint  item)
{
  SlGraph *graph = b->graph;
  SlGraphItemKind kind = sl_graph_item_get_kind (graph, item);
  guint8 flags = 0;

  if ((kind == SL_GRAPH_ITEM_OP || kind == SL_GRAPH_ITEM_GROUP) &&
      sl_graph_op_type_is_bookkeeping (sl_graph_item_get_op_type (graph, item)))
    flags |= SL_GRAPH_BOX_BOOKKEEPING;
  if (kind == SL_GRAPH_ITEM_OP)
    {
      guint element = sl_graph_item_get_element (graph, item);

      /* An input naming no node is damage the user should see. */
      for (guint i = 0; element != SL_GRAPH_NONE && i < sl_graph_element_get_n_inputs (graph, element); i++)
        if (sl_graph_element_get_input (graph, element, i, NULL, NULL) == SL_GRAPH_NONE)
          {
            flags |= SL_GRAPH_BOX_WARNING;
            break;
          }
    }
  return flags;
}

typedef struct {
  guint  item;
  guint  box;
  double x;        /* content origin */
  double y;
  guint  depth;
} Placement;

static float
heat_of (const double *item_time,
         double        max_time,
         guint         item)
{
  if (item_time == NULL || max_time <= 0 || !(item_time[item] > 0))
    return -1;
  return (float) CLAMP (item_time[item] / max_time, 0, 1);
}

static void
add_chips (Build        *b,
           SlGraphScene *scene,
           guint         op,
           guint         op_box,
           double        left,
           double        top,
           double        width,
           guint         depth)
{
  SlGraph *graph = b->graph;
  guint n = sl_graph_item_get_n_children (graph, op);
  g_autofree double *x = NULL;
  g_autofree double *y = NULL;
  guint k = 0;

  if (n == 0)
    return;
  x = g_new (double, n);
  y = g_new (double, n);
  place_chips (graph, op, width, x, y);
  for (guint i = 0; i < n; i++)
    {
      guint child = sl_graph_item_get_child (graph, op, i);
      SlGraphSceneBox box;

      if (sl_graph_item_get_kind (graph, child) != SL_GRAPH_ITEM_CONST)
        continue;
      box = (SlGraphSceneBox) {
        .x = left + x[k], .y = top + y[k],
        .width = chip_width (graph, child), .height = CHIP_HEIGHT,
        .id = child, .parent = op_box, .depth = depth + 1,
        .shape = SL_GRAPH_SHAPE_CONST, .heat = -1,
        .label = sl_graph_item_get_label (graph, child),
      };
      sl_graph_scene_add_box (scene, &box);
      k++;
    }
}

static void
place_container (Build                 *b,
                 SlGraphScene          *scene,
                 const ContainerLayout *layout,
                 const Placement       *at,
                 const double          *item_time,
                 double                 max_time,
                 GArray                *stack)
{
  g_autofree guint *boxes = g_new (guint, MAX (layout->n_children, 1));

  for (guint i = 0; i < layout->n_children; i++)
    {
      guint child = layout->children[i];
      Size size = layout->sizes[i];
      g_autofree char *detail = dup_detail (b->self, child);
      SlGraphSceneBox box = {
        .x = at->x + layout->cx[i] - size.width / 2,
        .y = at->y + layout->cy[i] - size.height / 2,
        .width = size.width,
        .height = size.height,
        .id = child,
        .parent = at->box,
        .depth = at->depth,
        .shape = shape_of (b, child),
        .flags = flags_of (b, child),
        .heat = heat_of (item_time, max_time, child),
        .label = sl_graph_item_get_label (b->graph, child),
        .detail = detail,
      };

      boxes[i] = sl_graph_scene_add_box (scene, &box);
      if (box.shape == SL_GRAPH_SHAPE_OP)
        add_chips (b, scene, child, boxes[i], box.x, box.y, box.width, at->depth);
      else if (box.shape == SL_GRAPH_SHAPE_CONTAINER)
        {
          ContainerLayout *inner = g_hash_table_lookup (b->layouts, GUINT_TO_POINTER (child));
          double content = inner->n_children > 0 ? inner->width : EMPTY_WIDTH;
          Placement p = {
            .item = child,
            .box = boxes[i],
            .x = box.x + (box.width - content) / 2,
            .y = box.y + SL_GRAPH_LAYOUT_HEADER_HEIGHT + SL_GRAPH_LAYOUT_PADDING,
            .depth = at->depth + 1,
          };

          g_array_append_val (stack, p);
        }
    }

  for (guint i = 0; i < layout->n_edges; i++)
    {
      guint start = layout->edge_point_start[i];
      guint np = layout->edge_point_start[i + 1] - start;
      g_autofree SlGraphScenePoint *points = NULL;

      if (np < 2)
        continue;
      points = g_new (SlGraphScenePoint, np);
      for (guint k = 0; k < np; k++)
        points[k] = (SlGraphScenePoint) { at->x + layout->points[start + k].x, at->y + layout->points[start + k].y };
      sl_graph_scene_add_edge (scene, boxes[layout->edge_from[i]], boxes[layout->edge_to[i]],
                               layout->edge_kind[i] ? SL_GRAPH_SCENE_EDGE_CONTROL : SL_GRAPH_SCENE_EDGE_DATA,
                               layout->edge_reversed[i], layout->edge_count[i], points, np);
    }
}

static double
largest_shown_time (Build        *b,
                    const double *item_time)
{
  GHashTableIter iter;
  gpointer value;
  double max_time = 0;

  if (item_time == NULL)
    return 0;
  g_hash_table_iter_init (&iter, b->layouts);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      ContainerLayout *layout = value;

      for (guint i = 0; i < layout->n_children; i++)
        if (!shown_expanded (b, layout->children[i]))
          max_time = MAX (max_time, item_time[layout->children[i]]);
    }
  return max_time;
}

static SlGraphScene *
compose_scene (Build        *b,
               const double *item_time)
{
  SlGraphScene *scene = sl_graph_scene_new ();
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Placement));
  double max_time = largest_shown_time (b, item_time);
  Placement root = { 0, SL_GRAPH_SCENE_NONE, 0, 0, 0 };

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      Placement at = g_array_index (stack, Placement, stack->len - 1);
      ContainerLayout *layout = g_hash_table_lookup (b->layouts, GUINT_TO_POINTER (at.item));

      g_array_set_size (stack, stack->len - 1);
      if (layout != NULL)
        place_container (b, scene, layout, &at, item_time, max_time, stack);
    }
  sl_graph_scene_finish (scene);
  return scene;
}

/**
 * sl_graph_layout_build_scene:
 *
 * Returns: (transfer full): the scene, or %NULL when cancelled
 */
SlGraphScene *
sl_graph_layout_build_scene (SlGraphLayout              *self,
                             GCancellable               *cancellable,
                             SlGraphLayoutProgressFunc   progress,
                             gpointer                    user_data,
                             GError                    **error)
{
  g_autoptr(GHashTable) layouts = NULL;
  g_autofree guint8 *expanded = NULL;
  g_autofree guint32 *local = NULL;
  g_autofree double *item_time = NULL;
  g_autoptr(GArray) order = NULL;
  Build b;

  g_return_val_if_fail (SL_IS_GRAPH_LAYOUT (self), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  SL_ASSERT_OFF_MAIN_THREAD ();

  g_mutex_lock (&self->lock);
  expanded = g_memdup2 (self->expanded, MAX (self->n_items, 1));
  item_time = self->item_time != NULL ? g_memdup2 (self->item_time, self->n_items * sizeof (double)) : NULL;
  b = (Build) { .self = self, .graph = self->graph, .expanded = expanded, .hide = self->hide_bookkeeping };
  g_mutex_unlock (&self->lock);

  local = g_new (guint32, MAX (self->n_items, 1));
  memset (local, 0xff, MAX (self->n_items, 1) * sizeof (guint32));
  layouts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) container_layout_unref);
  b.local = local;
  b.layouts = layouts;

  order = collect_expanded (&b);
  for (guint i = order->len; i-- > 0;)
    {
      guint container = g_array_index (order, guint, i);
      ContainerLayout *layout;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      layout = layout_container (&b, container, cancellable, error);
      if (layout == NULL)
        return NULL;
      g_hash_table_insert (layouts, GUINT_TO_POINTER (container), layout);
      if (progress != NULL)
        progress ((double) (order->len - i) / (order->len + 1), user_data);
    }

  self->last_n_computed = b.n_computed;
  if (progress != NULL)
    progress (1.0, user_data);
  return compose_scene (&b, item_time);
}
