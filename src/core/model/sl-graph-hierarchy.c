/* sl-graph-hierarchy.c: scopes, groups, proxies, sections and lifted edges
 *
 * Built in passes over growable columns, then frozen into the graph:
 * graph inputs first in their scopes, scopes and ops, parameters at the
 * lowest common scope of their consumers, graph outputs, proxies for wide fan-out, constants inside their consumers,
 * groups, sections, depths, and last the edges lifted to the children of
 * the lowest common ancestor of their ends. The rules are in sl-graph.h.
 * Every walk is a loop, never recursion: a scope string may have tens of
 * thousands of levels.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-graph-private.h"

#define ROOT 0

typedef struct {
  SlGraph    *graph;
  GArray     *kind;        /* guint8 */
  GArray     *parent;      /* guint32 */
  GArray     *label;       /* guint32 */
  GArray     *ref;         /* guint32 */
  GArray     *scope_depth; /* guint32, valid for scopes while placing */
  GPtrArray  *kids;        /* item → GArray of guint32, or NULL */
  GHashTable *scope_items; /* scope string id → item */
  GHashTable *scope_children; /* (parent item << 32 | segment id) → scope item */
  GHashTable *proxies;     /* (element << 32 | scope item) → proxy item */
  guint32    *placement;   /* element → the scope item it sits in */
  guint8     *proxied;     /* element → fans out through proxies */
} Build;

typedef struct {
  guint32 container;
  guint32 from;
  guint32 to;
  guint8  kind;
} LiftedEdge;

#define U32(array, i) g_array_index ((array), guint32, (i))

/* Keys pack two ids; g_int64_hash would keep only the low one. */
static guint
hash_pair (gconstpointer key)
{
  guint64 v = *(const guint64 *) key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  return (guint) (v >> 32);
}

static GArray *
kids_of (Build   *b,
         guint32  item)
{
  GArray *kids = g_ptr_array_index (b->kids, item);

  if (kids == NULL)
    {
      kids = g_array_new (FALSE, FALSE, sizeof (guint32));
      b->kids->pdata[item] = kids;
    }
  return kids;
}

/* A new item, not yet anybody's child. */
static guint32
new_item (Build           *b,
          SlGraphItemKind  kind,
          guint32          parent,
          guint32          label,
          guint32          ref)
{
  guint32 item = b->kind->len;
  guint8 k = kind;
  guint32 depth = 0;

  g_array_append_val (b->kind, k);
  g_array_append_val (b->parent, parent);
  g_array_append_val (b->label, label);
  g_array_append_val (b->ref, ref);
  if (item != ROOT && kind == SL_GRAPH_ITEM_SCOPE)
    depth = U32 (b->scope_depth, parent) + 1;
  g_array_append_val (b->scope_depth, depth);
  g_ptr_array_add (b->kids, NULL);
  return item;
}

static guint32
add_child (Build           *b,
           SlGraphItemKind  kind,
           guint32          parent,
           guint32          label,
           guint32          ref)
{
  guint32 item = new_item (b, kind, parent, label, ref);

  g_array_append_val (kids_of (b, parent), item);
  return item;
}

/* The item of a scope string, creating it and its missing ancestors.
 * Scopes are found segment by segment from the root, keyed by (parent,
 * segment), so a scope string costs its length however deep it is. */
static guint32
ensure_scope (Build   *b,
              guint32  scope)
{
  SlInternTable *strings = b->graph->strings;
  const char *s;
  guint32 parent = ROOT;
  gpointer found;

  if (scope == 0)
    return ROOT;
  if (g_hash_table_lookup_extended (b->scope_items, GUINT_TO_POINTER (scope), NULL, &found))
    return GPOINTER_TO_UINT (found);

  s = sl_intern_table_get (strings, scope);
  for (;;)
    {
      const char *slash = strchr (s, '/');
      gsize len = slash != NULL ? (gsize) (slash - s) : strlen (s);
      guint32 label = sl_intern_table_intern (strings, s, len);
      guint64 key = ((guint64) parent << 32) | label;

      if (g_hash_table_lookup_extended (b->scope_children, &key, NULL, &found))
        {
          parent = GPOINTER_TO_UINT (found);
        }
      else
        {
          parent = add_child (b, SL_GRAPH_ITEM_SCOPE, parent, label, 0);
          g_hash_table_insert (b->scope_children, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (parent));
          b->graph->n_scopes++;
        }
      if (slash == NULL)
        break;
      s = slash + 1;
    }
  g_hash_table_insert (b->scope_items, GUINT_TO_POINTER (scope), GUINT_TO_POINTER (parent));
  return parent;
}

static void
place_ops (Build *b)
{
  SlGraph *graph = b->graph;

  for (guint e = 0; e < graph->n_ops; e++)
    {
      guint32 scope = ensure_scope (b, graph->scope[e]);

      b->placement[e] = scope;
      graph->element_item[e] = add_child (b, SL_GRAPH_ITEM_OP, scope, graph->name_tail[e], e);
    }
}

/* Graph inputs first in their scope, before its ops; graph outputs after
 * everything else placed there (parameters too). */
static void
place_graph_boundary (Build              *b,
                      SlGraphElementKind  kind)
{
  SlGraph *graph = b->graph;
  guint first = graph->n_ops + graph->n_parameters + graph->n_consts;
  guint last = first + graph->n_graph_inputs;

  if (kind == SL_GRAPH_ELEMENT_OUTPUT)
    {
      first = last;
      last = graph->n_elements;
    }
  for (guint e = first; e < last; e++)
    {
      guint32 scope = ensure_scope (b, graph->scope[e]);

      b->placement[e] = scope;
      graph->element_item[e] = add_child (b, SL_GRAPH_ITEM_PARAMETER, scope, graph->name_tail[e], e);
    }
}

static guint32
common_scope (Build   *b,
              guint32  x,
              guint32  y)
{
  while (U32 (b->scope_depth, x) > U32 (b->scope_depth, y))
    x = U32 (b->parent, x);
  while (U32 (b->scope_depth, y) > U32 (b->scope_depth, x))
    y = U32 (b->parent, y);
  while (x != y)
    {
      x = U32 (b->parent, x);
      y = U32 (b->parent, y);
    }
  return x;
}

static guint32
consumers_scope (Build *b,
                 guint  element)
{
  SlGraph *graph = b->graph;
  guint32 first = graph->consumer_offsets[element], last = graph->consumer_offsets[element + 1];
  guint32 scope;

  if (first == last)
    return ROOT;
  scope = b->placement[graph->consumers[first]];
  for (guint32 k = first + 1; k < last && scope != ROOT; k++)
    scope = common_scope (b, scope, b->placement[graph->consumers[k]]);
  return scope;
}

static void
place_parameters (Build *b)
{
  SlGraph *graph = b->graph;

  for (guint e = graph->n_ops; e < graph->n_ops + graph->n_parameters; e++)
    {
      guint32 scope = consumers_scope (b, e);

      b->placement[e] = scope;
      graph->element_item[e] = add_child (b, SL_GRAPH_ITEM_PARAMETER, scope, graph->name_tail[e], e);
    }
}

static gboolean
fans_out (Build *b,
          guint  element)
{
  SlGraph *graph = b->graph;
  guint32 first = graph->consumer_offsets[element], last = graph->consumer_offsets[element + 1];

  if (last - first < SL_GRAPH_PROXY_MIN_CONSUMERS)
    return FALSE;
  for (guint32 k = first + 1; k < last; k++)
    if (b->placement[graph->consumers[k]] != b->placement[graph->consumers[first]])
      return TRUE;
  return FALSE;
}

static guint64
proxy_key (guint   element,
           guint32 scope)
{
  return ((guint64) element << 32) | scope;
}

static void
add_element_proxies (Build *b,
                     guint  e)
{
  SlGraph *graph = b->graph;

  if (!fans_out (b, e))
    return;
  b->proxied[e] = TRUE;
  for (guint32 k = graph->consumer_offsets[e]; k < graph->consumer_offsets[e + 1]; k++)
    {
      guint32 scope = b->placement[graph->consumers[k]];
      guint64 key = proxy_key (e, scope);
      guint32 proxy;

      if (scope == b->placement[e] || g_hash_table_contains (b->proxies, &key))
        continue;
      proxy = add_child (b, SL_GRAPH_ITEM_PROXY, scope, graph->name_tail[e], e);
      g_hash_table_insert (b->proxies, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (proxy));
    }
}

/* Ops, parameters and graph inputs fan out; constants sit inside their
 * consumers instead. */
static void
add_proxies (Build *b)
{
  SlGraph *graph = b->graph;
  guint inputs = graph->n_ops + graph->n_parameters + graph->n_consts;

  for (guint e = 0; e < graph->n_ops + graph->n_parameters; e++)
    add_element_proxies (b, e);
  for (guint e = inputs; e < inputs + graph->n_graph_inputs; e++)
    add_element_proxies (b, e);
}

static void
attach_consts (Build *b)
{
  SlGraph *graph = b->graph;

  for (guint e = graph->n_ops + graph->n_parameters; e < graph->n_ops + graph->n_parameters + graph->n_consts; e++)
    {
      guint32 first = graph->consumer_offsets[e], last = graph->consumer_offsets[e + 1];

      graph->element_item[e] = SL_GRAPH_NONE;
      if (first == last)
        graph->element_item[e] = add_child (b, SL_GRAPH_ITEM_CONST, ROOT, graph->name_tail[e], e);
      for (guint32 k = first; k < last; k++)
        {
          guint32 consumer = graph->element_item[graph->consumers[k]];
          guint32 item = add_child (b, SL_GRAPH_ITEM_CONST, consumer, graph->name_tail[e], e);

          if (graph->element_item[e] == SL_GRAPH_NONE)
            graph->element_item[e] = item;
        }
    }
}

static guint32
group_label (Build   *b,
             guint32  op_type,
             guint    count)
{
  g_autofree char *label = g_strdup_printf ("%s[%u]", sl_intern_table_get (b->graph->strings, op_type), count);

  return sl_intern_table_intern (b->graph->strings, label, strlen (label));
}

/* Five or more op children of one type fold into a group at the place of
 * the first of them; the others keep their order. */
static void
group_scope (Build   *b,
             guint32  scope)
{
  SlGraph *graph = b->graph;
  GArray *kids = g_ptr_array_index (b->kids, scope);
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) groups = NULL;
  GArray *regrouped;
  gboolean any = FALSE;

  if (kids == NULL || kids->len < SL_GRAPH_GROUP_MIN_SIBLINGS)
    return;
  for (guint i = 0; i < kids->len; i++)
    {
      guint32 kid = U32 (kids, i);
      guint count;

      if (g_array_index (b->kind, guint8, kid) != SL_GRAPH_ITEM_OP)
        continue;
      count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (graph->op_type[U32 (b->ref, kid)]))) + 1;
      g_hash_table_insert (counts, GUINT_TO_POINTER (graph->op_type[U32 (b->ref, kid)]), GUINT_TO_POINTER (count));
      any |= count >= SL_GRAPH_GROUP_MIN_SIBLINGS;
    }
  if (!any)
    return;

  groups = g_hash_table_new (NULL, NULL);
  regrouped = g_array_sized_new (FALSE, FALSE, sizeof (guint32), kids->len);
  for (guint i = 0; i < kids->len; i++)
    {
      guint32 kid = U32 (kids, i);
      guint32 op_type;
      guint count;
      gpointer group;

      if (g_array_index (b->kind, guint8, kid) != SL_GRAPH_ITEM_OP)
        {
          g_array_append_val (regrouped, kid);
          continue;
        }
      op_type = graph->op_type[U32 (b->ref, kid)];
      count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (op_type)));
      if (count < SL_GRAPH_GROUP_MIN_SIBLINGS)
        {
          g_array_append_val (regrouped, kid);
          continue;
        }
      if (!g_hash_table_lookup_extended (groups, GUINT_TO_POINTER (op_type), NULL, &group))
        {
          guint32 item = new_item (b, SL_GRAPH_ITEM_GROUP, scope, group_label (b, op_type, count), op_type);

          group = GUINT_TO_POINTER (item);
          g_hash_table_insert (groups, GUINT_TO_POINTER (op_type), group);
          g_array_append_val (regrouped, item);
        }
      g_array_append_val (kids_of (b, GPOINTER_TO_UINT (group)), kid);
      U32 (b->parent, kid) = GPOINTER_TO_UINT (group);
    }
  g_array_unref (kids);
  b->kids->pdata[scope] = regrouped;
}

static void
group_all (Build *b)
{
  guint n = b->kind->len;

  for (guint32 item = 0; item < n; item++)
    if (g_array_index (b->kind, guint8, item) == SL_GRAPH_ITEM_SCOPE)
      group_scope (b, item);
}

static void
split_into_sections (Build   *b,
                     guint32  container)
{
  GArray *kids;

  while ((kids = g_ptr_array_index (b->kids, container)) != NULL &&
         kids->len > SL_GRAPH_SECTION_MAX_CHILDREN)
    {
      guint n_sections = (kids->len + SL_GRAPH_SECTION_MAX_CHILDREN - 1) / SL_GRAPH_SECTION_MAX_CHILDREN;
      GArray *sections = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_sections);

      for (guint s = 0; s < n_sections; s++)
        {
          g_autofree char *text = g_strdup_printf ("#%u", s + 1);
          guint32 label = sl_intern_table_intern (b->graph->strings, text, strlen (text));
          guint32 section = new_item (b, SL_GRAPH_ITEM_SECTION, container, label, s);
          guint first = s * SL_GRAPH_SECTION_MAX_CHILDREN;
          guint last = MIN (kids->len, first + SL_GRAPH_SECTION_MAX_CHILDREN);
          GArray *part = kids_of (b, section);

          g_array_append_vals (part, &U32 (kids, first), last - first);
          for (guint i = first; i < last; i++)
            U32 (b->parent, U32 (kids, i)) = section;
          g_array_append_val (sections, section);
        }
      g_array_unref (kids);
      b->kids->pdata[container] = sections;
    }
}

static void
section_all (Build *b)
{
  /* Sections are appended while walking; they never need splitting
   * themselves, the container is split again instead. */
  for (guint32 item = 0; item < b->kind->len; item++)
    split_into_sections (b, item);
}

static void
freeze_items (Build *b)
{
  SlGraph *graph = b->graph;
  guint n = b->kind->len;
  guint32 total = 0;

  graph->n_items = n;
  graph->item_kind = (guint8 *) g_array_free (g_steal_pointer (&b->kind), FALSE);
  graph->item_parent = (guint32 *) g_array_free (g_steal_pointer (&b->parent), FALSE);
  graph->item_label = (guint32 *) g_array_free (g_steal_pointer (&b->label), FALSE);
  graph->item_ref = (guint32 *) g_array_free (g_steal_pointer (&b->ref), FALSE);
  graph->child_offsets = g_new (guint32, n + 1);
  for (guint i = 0; i < n; i++)
    {
      GArray *kids = g_ptr_array_index (b->kids, i);

      graph->child_offsets[i] = total;
      total += kids != NULL ? kids->len : 0;
    }
  graph->child_offsets[n] = total;
  graph->children = g_new (guint32, MAX (total, 1));
  for (guint i = 0; i < n; i++)
    {
      GArray *kids = g_ptr_array_index (b->kids, i);

      if (kids != NULL && kids->len > 0)
        memcpy (graph->children + graph->child_offsets[i], kids->data, kids->len * sizeof (guint32));
    }
}

/* Parents may come after their children (groups, sections), so depths
 * are found by walking up to a known one, then filled on the way down. */
static void
compute_depths (SlGraph *graph)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  graph->item_depth = g_new (guint32, graph->n_items);
  memset (graph->item_depth, 0xff, graph->n_items * sizeof (guint32));
  graph->item_depth[ROOT] = 0;
  for (guint32 item = 1; item < graph->n_items; item++)
    {
      guint32 up = item;
      guint32 depth;

      g_array_set_size (path, 0);
      while (graph->item_depth[up] == G_MAXUINT32)
        {
          g_array_append_val (path, up);
          up = graph->item_parent[up];
        }
      depth = graph->item_depth[up];
      for (guint i = path->len; i-- > 0;)
        graph->item_depth[U32 (path, i)] = ++depth;
    }
}

static void
lift (SlGraph    *graph,
      guint32     from,
      guint32     to,
      LiftedEdge *edge)
{
  while (graph->item_depth[from] > graph->item_depth[to])
    from = graph->item_parent[from];
  while (graph->item_depth[to] > graph->item_depth[from])
    to = graph->item_parent[to];
  while (from != to && graph->item_parent[from] != graph->item_parent[to])
    {
      from = graph->item_parent[from];
      to = graph->item_parent[to];
    }
  edge->container = from == ROOT ? ROOT : graph->item_parent[from];
  edge->from = from;
  edge->to = to;
}

static int
compare_edges (gconstpointer a,
               gconstpointer b)
{
  const LiftedEdge *x = a, *y = b;

  if (x->container != y->container)
    return x->container < y->container ? -1 : 1;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  if (x->to != y->to)
    return x->to < y->to ? -1 : 1;
  return (int) x->kind - (int) y->kind;
}

static guint32
edge_start (Build   *b,
            guint32  source,
            guint32  consumer)
{
  SlGraph *graph = b->graph;
  guint32 scope = b->placement[consumer];
  guint64 key;
  gpointer proxy;

  if (!b->proxied[source] || scope == b->placement[source])
    return graph->element_item[source];
  key = proxy_key (source, scope);
  if (g_hash_table_lookup_extended (b->proxies, &key, NULL, &proxy))
    return GPOINTER_TO_UINT (proxy);
  return graph->element_item[source];
}

static void
collect_consumer_edges (Build  *b,
                        guint   consumer,
                        GArray *edges)
{
  SlGraph *graph = b->graph;

  for (guint32 k = graph->input_offsets[consumer]; k < graph->input_offsets[consumer + 1]; k++)
    {
      guint32 source = graph->input_source[k];
      LiftedEdge edge;

      if (source == SL_GRAPH_NONE || graph->kind[source] == SL_GRAPH_ELEMENT_CONST)
        continue;
      lift (graph, edge_start (b, source, consumer), graph->element_item[consumer], &edge);
      edge.kind = graph->input_kind[k];
      g_array_append_val (edges, edge);
    }
}

/* Ops and graph outputs consume; the inputs of other elements are not
 * drawn. */
static GArray *
collect_edges (Build *b)
{
  SlGraph *graph = b->graph;
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (LiftedEdge));

  for (guint e = 0; e < graph->n_ops; e++)
    collect_consumer_edges (b, e, edges);
  for (guint e = graph->n_elements - graph->n_graph_outputs; e < graph->n_elements; e++)
    collect_consumer_edges (b, e, edges);
  g_array_sort (edges, compare_edges);
  return edges;
}

static void
freeze_edges (SlGraph *graph,
              GArray  *edges)
{
  guint n = 0;

  graph->edge_offsets = g_new0 (guint32, graph->n_items + 1);
  graph->edge_from = g_new (guint32, MAX (edges->len, 1));
  graph->edge_to = g_new (guint32, MAX (edges->len, 1));
  graph->edge_count = g_new (guint32, MAX (edges->len, 1));
  graph->edge_kind = g_new (guint8, MAX (edges->len, 1));
  for (guint i = 0; i < edges->len; i++)
    {
      const LiftedEdge *edge = &g_array_index (edges, LiftedEdge, i);

      if (n > 0 && compare_edges (edge, &g_array_index (edges, LiftedEdge, i - 1)) == 0)
        {
          graph->edge_count[n - 1]++;
          continue;
        }
      graph->edge_from[n] = edge->from;
      graph->edge_to[n] = edge->to;
      graph->edge_kind[n] = edge->kind;
      graph->edge_count[n] = 1;
      graph->edge_offsets[edge->container + 1]++;
      n++;
    }
  for (guint i = 0; i < graph->n_items; i++)
    graph->edge_offsets[i + 1] += graph->edge_offsets[i];
}

static void
free_kids (gpointer kids)
{
  if (kids != NULL)
    g_array_unref (kids);
}

void
sl_graph_build_hierarchy (SlGraph *graph)
{
  Build b = { 0 };
  g_autoptr(GArray) edges = NULL;

  b.graph = graph;
  b.kind = g_array_new (FALSE, FALSE, sizeof (guint8));
  b.parent = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.label = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.ref = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.scope_depth = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.kids = g_ptr_array_new_with_free_func (free_kids);
  b.scope_items = g_hash_table_new (NULL, NULL);
  b.scope_children = g_hash_table_new_full (hash_pair, g_int64_equal, g_free, NULL);
  b.proxies = g_hash_table_new_full (hash_pair, g_int64_equal, g_free, NULL);
  b.placement = g_new0 (guint32, MAX (graph->n_elements, 1));
  b.proxied = g_new0 (guint8, MAX (graph->n_elements, 1));
  graph->element_item = g_new (guint32, MAX (graph->n_elements, 1));

  new_item (&b, SL_GRAPH_ITEM_SCOPE, ROOT, 0, 0);
  place_graph_boundary (&b, SL_GRAPH_ELEMENT_INPUT);
  place_ops (&b);
  place_parameters (&b);
  place_graph_boundary (&b, SL_GRAPH_ELEMENT_OUTPUT);
  add_proxies (&b);
  attach_consts (&b);
  group_all (&b);
  section_all (&b);
  freeze_items (&b);
  compute_depths (graph);
  edges = collect_edges (&b);
  freeze_edges (graph, edges);

  g_array_unref (b.scope_depth);
  g_ptr_array_unref (b.kids);
  g_hash_table_unref (b.scope_items);
  g_hash_table_unref (b.scope_children);
  g_hash_table_unref (b.proxies);
  g_free (b.placement);
  g_free (b.proxied);
}
