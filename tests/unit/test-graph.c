/* test-graph.c: the graph reader and SlGraph's hierarchy on generated graphs
 *
 * Every expected number is counted by hand from the graph the test
 * writes: grouping at exactly five siblings, constants inside their
 * consumers, proxies, lifted edges, sections, edge kinds, cycles,
 * self-loops, dangling inputs, very long names, ModelProto, the debugger
 * fields, attribute values, and truncation at every byte.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "graph-fixture.h"
#include "sl-graph-reader.h"

static SlGraph *
decode (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  SlGraph *graph = sl_graph_reader_decode (bytes, "test.pb", &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

static SlGraph *
finish (GraphFixture *fx)
{
  g_autoptr(GBytes) bytes = graph_fixture_finish (fx, "test_graph", NULL);

  graph_fixture_free (fx);
  return decode (bytes);
}

static guint
find (SlGraph    *graph,
      const char *path)
{
  guint item = sl_graph_find_item (graph, path);

  if (item == SL_GRAPH_NONE)
    g_error ("no item %s", path);
  return item;
}

/* n ops of @op_type in @scope, each reading @input (or nothing). */
static void
add_ops (GraphFixture *fx,
         guint         n,
         const char   *op_type,
         const char   *scope,
         const char   *input)
{
  for (guint i = 0; i < n; i++)
    {
      const char *inputs[] = { input };

      g_free (graph_fixture_node (fx, op_type, scope, inputs, input != NULL ? 1 : 0));
    }
}

static void
test_group_threshold (void)
{
  GraphFixture *fx = graph_fixture_new ("g");
  g_autoptr(SlGraph) graph = NULL;
  guint a, b, group;

  add_ops (fx, 5, "Add", "A", NULL);
  add_ops (fx, 4, "Add", "B", NULL);
  add_ops (fx, 1, "Mul", "A", NULL);
  graph = finish (fx);

  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 10);
  g_assert_cmpuint (sl_graph_get_n_scopes (graph), ==, 2);

  /* A: the group of five Adds, then the Mul. */
  a = find (graph, "A");
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, a), ==, 2);
  group = sl_graph_item_get_child (graph, a, 0);
  g_assert_cmpint (sl_graph_item_get_kind (graph, group), ==, SL_GRAPH_ITEM_GROUP);
  g_assert_cmpstr (sl_graph_item_get_label (graph, group), ==, "Add[5]");
  g_assert_cmpstr (sl_graph_item_get_op_type (graph, group), ==, "Add");
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, group), ==, 5);
  g_assert_cmpuint (find (graph, "A/Add[5]"), ==, group);
  g_assert_cmpint (sl_graph_item_get_kind (graph, sl_graph_item_get_child (graph, a, 1)), ==, SL_GRAPH_ITEM_OP);

  /* B: four stay apart. */
  b = find (graph, "B");
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, b), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (sl_graph_item_get_kind (graph, sl_graph_item_get_child (graph, b, i)), ==, SL_GRAPH_ITEM_OP);
}

static void
test_consts_inside_consumers (void)
{
  GraphFixture *fx = graph_fixture_new ("c");
  g_autoptr(SlGraph) graph = NULL;
  const char *inputs[] = { "cst1", "cst1" };
  g_autofree char *x = NULL, *y = NULL;
  guint scope, xi, yi;
  SlGraphEdgeKind kind;

  /* x reads cst1 twice (one copy inside it), y once; cst2 is read by none. */
  x = graph_fixture_node (fx, "Mul", "S", inputs, 2);
  y = graph_fixture_node (fx, "Add", "S", inputs, 1);
  graph_fixture_const (fx, "cst1", 3);
  graph_fixture_const (fx, "cst2", 4);
  graph = finish (fx);

  g_assert_cmpuint (sl_graph_get_n_consts (graph), ==, 2);
  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), ==, 3);
  scope = find (graph, "S");
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, scope), ==, 2);
  xi = sl_graph_item_get_child (graph, scope, 0);
  yi = sl_graph_item_get_child (graph, scope, 1);
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, xi), ==, 1);
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, yi), ==, 1);
  g_assert_cmpint (sl_graph_item_get_kind (graph, sl_graph_item_get_child (graph, xi, 0)), ==, SL_GRAPH_ITEM_CONST);
  g_assert_cmpstr (sl_graph_item_get_label (graph, sl_graph_item_get_child (graph, yi, 0)), ==, "cst1");
  /* No edge leaves a constant; the unread one sits at the root. */
  g_assert_cmpuint (sl_graph_item_get_n_edges (graph, scope), ==, 0);
  g_assert_cmpuint (sl_graph_item_get_n_edges (graph, xi), ==, 0);
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, 0), ==, 2);  /* S and cst2 */
  g_assert_cmpuint (sl_graph_element_get_input (graph, 1, 0, &kind, NULL), ==, 2);  /* y ← cst1 */
  g_assert_cmpint (kind, ==, SL_GRAPH_EDGE_DATA);
  {
    const char *value = NULL;

    g_assert_cmpstr (sl_graph_element_get_attribute (graph, 2, 0, &value), ==, "value");
    g_assert_cmpstr (value, ==, "3");
  }
}

static void
test_parameter_placement (void)
{
  GraphFixture *fx = graph_fixture_new ("p");
  g_autoptr(SlGraph) graph = NULL;
  const char *inputs[] = { "w" };
  const char *shared[] = { "shared" };

  g_free (graph_fixture_node (fx, "MatMul", "net/a", inputs, 1));
  g_free (graph_fixture_node (fx, "MatMul", "net/b/c", shared, 1));
  g_free (graph_fixture_node (fx, "MatMul", "net/b/d", shared, 1));
  graph_fixture_parameter (fx, "w");
  graph_fixture_parameter (fx, "shared");
  graph_fixture_parameter (fx, "unused");
  graph = finish (fx);

  /* One consumer: its scope. Two: their lowest common scope. None: the root. */
  g_autofree char *w = sl_graph_element_dup_scope (graph, 3);
  g_autofree char *s = sl_graph_element_dup_scope (graph, 4);
  g_autofree char *unused = sl_graph_element_dup_scope (graph, 5);

  g_assert_cmpstr (w, ==, "net/a");
  g_assert_cmpstr (s, ==, "net/b");
  g_assert_cmpstr (unused, ==, "");
  g_assert_cmpuint (sl_graph_find_item (graph, "net/b/shared"), ==, sl_graph_element_get_item (graph, 4));
}

/* @n consumers of op "src" (in scope "src"), spread over four scopes. */
static SlGraph *
fan_out (guint n)
{
  GraphFixture *fx = graph_fixture_new ("f");
  g_autofree char *src = graph_fixture_node (fx, "Tile", "src", NULL, 0);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *scope = g_strdup_printf ("layers/%u", i % 4);
      const char *inputs[] = { src };

      g_free (graph_fixture_node (fx, "Add", scope, inputs, 1));
    }
  return finish (fx);
}

static guint
count_kind (SlGraph         *graph,
            SlGraphItemKind  kind)
{
  guint n = 0;

  for (guint i = 0; i < sl_graph_get_n_items (graph); i++)
    n += sl_graph_item_get_kind (graph, i) == kind;
  return n;
}

static void
test_proxies (void)
{
  g_autoptr(SlGraph) wide = fan_out (SL_GRAPH_PROXY_MIN_CONSUMERS);
  g_autoptr(SlGraph) narrow = fan_out (SL_GRAPH_PROXY_MIN_CONSUMERS - 1);
  guint layer, proxy, from, to, count;
  SlGraphEdgeKind kind;

  /* 16 consumers in four scopes: a proxy in each, with an edge to each of
   * the scope's four Adds (four: below the group size). */
  g_assert_cmpuint (count_kind (wide, SL_GRAPH_ITEM_PROXY), ==, 4);
  layer = find (wide, "layers/2");
  g_assert_cmpuint (sl_graph_item_get_n_children (wide, layer), ==, 5);
  proxy = sl_graph_item_get_child (wide, layer, 4);
  g_assert_cmpint (sl_graph_item_get_kind (wide, proxy), ==, SL_GRAPH_ITEM_PROXY);
  g_assert_cmpuint (sl_graph_item_get_element (wide, proxy), ==, 0);
  g_assert_cmpstr (sl_graph_item_get_op_type (wide, proxy), ==, "Tile");
  g_assert_cmpuint (sl_graph_item_get_n_edges (wide, layer), ==, 4);
  sl_graph_item_get_edge (wide, layer, 0, &from, &to, &kind, &count);
  g_assert_cmpuint (from, ==, proxy);
  g_assert_cmpuint (count, ==, 1);
  /* Nothing crosses from src to the layers any more. */
  g_assert_cmpuint (sl_graph_item_get_n_edges (wide, 0), ==, 0);
  g_assert_cmpuint (sl_graph_get_n_data_edges (wide), ==, 16);

  /* 15: no proxy; the edges are lifted to the root (src → layers, 15). */
  g_assert_cmpuint (count_kind (narrow, SL_GRAPH_ITEM_PROXY), ==, 0);
  g_assert_cmpuint (sl_graph_item_get_n_edges (narrow, 0), ==, 1);
  sl_graph_item_get_edge (narrow, 0, 0, &from, &to, &kind, &count);
  g_assert_cmpuint (from, ==, find (narrow, "src"));
  g_assert_cmpuint (to, ==, find (narrow, "layers"));
  g_assert_cmpuint (count, ==, 15);
}

static void
test_lifted_edges (void)
{
  GraphFixture *fx = graph_fixture_new ("l");
  g_autoptr(SlGraph) graph = NULL;
  g_autofree char *x = graph_fixture_node (fx, "MatMul", "net/enc/q", NULL, 0);
  g_autofree char *y = NULL, *z = NULL;
  const char *inputs[] = { x, x };
  const gboolean control[] = { FALSE, TRUE };
  guint net, enc, dec, from, to, count;
  SlGraphEdgeKind kind;

  /* x → y (data and control) and x → z (data), y and z in net/dec/... */
  y = graph_fixture_node_full (fx, "Add", "net/dec/k", inputs, control, 2, NULL);
  z = graph_fixture_node (fx, "Add", "net/dec/v", inputs, 1);
  graph = finish (fx);

  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), ==, 2);
  g_assert_cmpuint (sl_graph_get_n_control_edges (graph), ==, 1);
  net = find (graph, "net");
  enc = find (graph, "net/enc");
  dec = find (graph, "net/dec");
  /* In net: enc → dec twice as data, once as control, kept apart. */
  g_assert_cmpuint (sl_graph_item_get_n_edges (graph, net), ==, 2);
  sl_graph_item_get_edge (graph, net, 0, &from, &to, &kind, &count);
  g_assert_cmpuint (from, ==, enc);
  g_assert_cmpuint (to, ==, dec);
  g_assert_cmpint (kind, ==, SL_GRAPH_EDGE_DATA);
  g_assert_cmpuint (count, ==, 2);
  sl_graph_item_get_edge (graph, net, 1, &from, &to, &kind, &count);
  g_assert_cmpint (kind, ==, SL_GRAPH_EDGE_CONTROL);
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpuint (sl_graph_item_get_n_edges (graph, 0), ==, 0);
  g_assert_cmpuint (sl_graph_item_get_n_edges (graph, dec), ==, 0);
  g_assert_cmpuint (sl_graph_item_get_depth (graph, find (graph, "net/dec/k")), ==, 3);
}

static void
test_sections (void)
{
  GraphFixture *fx = graph_fixture_new ("s");
  g_autoptr(SlGraph) graph = NULL;
  guint wide, exact, group, many;

  /* 1,001 ops of distinct types (no grouping): sections #1 (1,000), #2 (1). */
  for (guint i = 0; i < SL_GRAPH_SECTION_MAX_CHILDREN + 1; i++)
    {
      g_autofree char *type = g_strdup_printf ("Op%u", i);

      add_ops (fx, 1, type, "wide", NULL);
    }
  /* Exactly 1,000: no sections. */
  for (guint i = 0; i < SL_GRAPH_SECTION_MAX_CHILDREN; i++)
    {
      g_autofree char *type = g_strdup_printf ("Op%u", i);

      add_ops (fx, 1, type, "exact", NULL);
    }
  /* 2,500 of one type: one group, split into three sections. */
  add_ops (fx, 2500, "TupleGetItem", "group", NULL);
  graph = finish (fx);

  wide = find (graph, "wide");
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, wide), ==, 2);
  g_assert_cmpint (sl_graph_item_get_kind (graph, sl_graph_item_get_child (graph, wide, 0)), ==, SL_GRAPH_ITEM_SECTION);
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, find (graph, "wide/#1")), ==, 1000);
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, find (graph, "wide/#2")), ==, 1);
  exact = find (graph, "exact");
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, exact), ==, 1000);
  group = find (graph, "group/TupleGetItem[2500]");
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, group), ==, 3);
  g_assert_cmpuint (sl_graph_item_get_n_children (graph, find (graph, "group/TupleGetItem[2500]/#3")), ==, 500);
  many = sl_graph_element_get_item (graph, sl_graph_get_n_ops (graph) - 1);
  g_assert_cmpuint (sl_graph_item_get_depth (graph, many), ==, 4);
}

static void
test_cycles_self_loops_dangling (void)
{
  GraphFixture *fx = graph_fixture_new ("y");
  g_autoptr(SlGraph) graph = NULL;
  const char *a_inputs[] = { "2" };        /* names b, written later */
  const char *b_inputs[] = { "1" };
  const char *self_inputs[] = { "3", "nothing" };
  guint scope, from, to, count;
  SlGraphEdgeKind kind;

  g_free (graph_fixture_node (fx, "Add", "loop", a_inputs, 1));
  g_free (graph_fixture_node (fx, "Mul", "loop", b_inputs, 1));
  g_free (graph_fixture_node (fx, "Sub", "loop", self_inputs, 2));
  graph = finish (fx);

  g_assert_cmpuint (sl_graph_get_n_data_edges (graph), ==, 3);
  g_assert_cmpuint (sl_graph_get_n_dangling_inputs (graph), ==, 1);
  g_assert_cmpuint (sl_graph_element_get_input (graph, 0, 0, NULL, NULL), ==, 1);
  g_assert_cmpuint (sl_graph_element_get_input (graph, 1, 0, NULL, NULL), ==, 0);
  {
    const char *name = NULL;

    g_assert_cmpuint (sl_graph_element_get_input (graph, 2, 1, NULL, &name), ==, SL_GRAPH_NONE);
    g_assert_cmpstr (name, ==, "nothing");
  }
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 1);

  /* a → b, b → a, and the self-loop, all among loop's children. */
  scope = find (graph, "loop");
  g_assert_cmpuint (sl_graph_item_get_n_edges (graph, scope), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      sl_graph_item_get_edge (graph, scope, i, &from, &to, &kind, &count);
      if (from == to)
        g_assert_cmpuint (from, ==, sl_graph_element_get_item (graph, 2));
    }
  g_assert_cmpuint (sl_graph_element_get_n_consumers (graph, 2), ==, 1);
}

static void
test_long_names (void)
{
  GraphFixture *fx = graph_fixture_new ("n");
  g_autoptr(SlGraph) graph = NULL;
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autofree char *wide = g_strnfill (100000, 'x');
  g_autofree char *name = NULL, *op_name = NULL;
  guint item;

  /* 50,000 nested scopes ("s/s/…", 99,999 characters), and one scope
   * whose single segment is 100,000 characters long. */
  for (guint i = 0; i < 50000; i++)
    g_string_append (deep, i == 0 ? "s" : "/s");
  add_ops (fx, 1, "Deep", deep->str, NULL);
  add_ops (fx, 1, "Wide", wide, NULL);
  graph = finish (fx);

  g_assert_cmpuint (sl_graph_get_n_scopes (graph), ==, 50001);
  item = sl_graph_element_get_item (graph, 0);
  g_assert_cmpuint (sl_graph_item_get_depth (graph, item), ==, 50001);
  name = sl_graph_element_dup_name (graph, 0);
  g_assert_cmpuint (strlen (name), ==, deep->len + strlen ("/Deep-op1"));
  g_assert_cmpuint (sl_graph_lookup_op (graph, name), ==, 0);
  op_name = g_strdup_printf ("%s/Wide-op2", wide);
  g_assert_cmpuint (sl_graph_lookup_op (graph, op_name), ==, 1);
  g_assert_cmpuint (strlen (sl_graph_item_get_label (graph, sl_graph_item_get_parent (graph, sl_graph_element_get_item (graph, 1)))), ==, 100000);
}

static void
test_lookup (void)
{
  GraphFixture *fx = graph_fixture_new ("k");
  g_autoptr(SlGraph) graph = NULL;

  add_ops (fx, 3, "Conv2D", "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d", NULL);
  graph = finish (fx);

  g_assert_cmpuint (sl_graph_lookup_op (graph, "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op2"), ==, 1);
  g_assert_cmpuint (sl_graph_lookup_op (graph, "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op9"), ==, SL_GRAPH_NONE);
  g_assert_cmpuint (sl_graph_lookup_op (graph, "Conv2D-op2"), ==, SL_GRAPH_NONE);
  g_assert_cmpuint (sl_graph_get_memory_size (graph), >, 0);
}

/* A debugger graph: source_address, root_name, a bool tensor in the
 * debugger's layout, an int list attribute, a tuple output. */
static void
test_debugger_and_values (void)
{
  GraphFixture *fx = graph_fixture_new ("d");
  g_autoptr(GByteArray) extra = g_byte_array_new ();
  g_autoptr(GByteArray) attr = g_byte_array_new ();
  g_autoptr(GByteArray) value = g_byte_array_new ();
  g_autoptr(GByteArray) ints = g_byte_array_new ();
  g_autoptr(GByteArray) named = g_byte_array_new ();
  g_autoptr(GByteArray) cvalue = g_byte_array_new ();
  g_autoptr(GByteArray) tensor = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SlGraph) graph = NULL;
  const char *inputs[] = { "cst1" };
  const char *text = NULL;
  static const guint8 content[] = { 1 };

  fx_varint (ints, 1);
  fx_varint (ints, 2);
  fx_varint (ints, 5);
  fx_uint (value, 1, 20 /* DT_INTS64 */);
  fx_data (value, 11, ints->data, ints->len);
  fx_string (attr, 1, "pad_list");
  fx_message (attr, 2, value);
  fx_message (extra, 5, attr);
  fx_string (extra, 9, "lenet.py:42 construct\nnn/cell.py:610 __call__");
  g_free (graph_fixture_node_full (fx, "Conv2D", "Default", inputs, NULL, 1, extra));

  /* The debugger's TensorProto: tensor_content 3, data_type 5. */
  fx_data (tensor, 3, content, 1);
  fx_uint (tensor, 5, 1 /* DT_BOOL */);
  fx_uint (cvalue, 1, 14);
  fx_message (cvalue, 8, tensor);
  fx_string (named, 1, "cst1");
  fx_message (named, 2, cvalue);
  fx_message (fx->bytes, 5, named);

  bytes = graph_fixture_finish (fx, "kernel_graph_0", "root_graph_0");
  graph_fixture_free (fx);
  graph = decode (bytes);

  g_assert_cmpstr (sl_graph_get_name (graph), ==, "kernel_graph_0");
  g_assert_cmpstr (sl_graph_get_root_name (graph), ==, "root_graph_0");
  g_assert_cmpstr (sl_graph_element_get_source_address (graph, 0), ==, "lenet.py:42 construct\nnn/cell.py:610 __call__");
  g_assert_cmpstr (sl_graph_element_get_attribute (graph, 0, 0, &text), ==, "pad_list");
  g_assert_cmpstr (text, ==, "[1, 2, 5]");
  g_assert_cmpstr (sl_graph_element_get_attribute (graph, 1, 0, &text), ==, "value");
  g_assert_cmpstr (text, ==, "Tensor(bool, []) = [True]");
  g_assert_cmpint (sl_graph_element_get_output (graph, 1, 0, NULL, NULL), ==, 1);
  {
    const gint64 *dims;
    guint n_dims;

    g_assert_cmpint (sl_graph_element_get_output (graph, 0, 0, &dims, &n_dims), ==, 11);
    g_assert_cmpuint (n_dims, ==, 2);
    g_assert_cmpint (dims[1], ==, 4096);
  }
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 0);
}

static GBytes *
small_graph (GArray **starts,
             GArray **ends)
{
  GraphFixture *fx = graph_fixture_new ("t");
  g_autofree char *prev = g_strdup ("x");
  GBytes *bytes;

  for (guint i = 0; i < 40; i++)
    {
      const char *inputs[] = { prev, "w" };
      char *next = graph_fixture_node (fx, i % 2 ? "Add" : "MatMul", i < 20 ? "net/a" : "net/b", inputs, 2);

      g_free (prev);
      prev = next;
    }
  graph_fixture_parameter (fx, "x");
  graph_fixture_parameter (fx, "w");
  *starts = g_array_ref (fx->node_start);
  *ends = g_array_ref (fx->node_end);
  bytes = graph_fixture_finish (fx, "small", NULL);
  graph_fixture_free (fx);
  return bytes;
}

static void
test_model_proto (void)
{
  g_autoptr(GArray) starts = NULL, ends = NULL;
  g_autoptr(GBytes) graph_bytes = small_graph (&starts, &ends);
  g_autoptr(GBytes) model_bytes = graph_fixture_wrap_model (graph_bytes);
  g_autoptr(SlGraph) as_graph = decode (graph_bytes);
  g_autoptr(SlGraph) as_model = decode (model_bytes);

  g_assert_cmpuint (sl_graph_get_n_ops (as_graph), ==, 40);
  g_assert_cmpuint (sl_graph_get_n_ops (as_model), ==, 40);
  g_assert_cmpuint (sl_graph_get_n_parameters (as_model), ==, 2);
  g_assert_cmpuint (sl_graph_get_n_data_edges (as_model), ==, 80);
  g_assert_cmpstr (sl_graph_get_name (as_model), ==, "small");
  g_assert_cmpuint (sl_graph_get_problems (as_model)->len, ==, 0);
}

/* Cut after @cut bytes: the nodes that end before the cut are kept, and
 * the damage is reported at the start of the node that was cut. */
static void
check_cut (GBytes *bytes,
           gsize   cut,
           gsize   base,
           GArray *starts,
           GArray *ends)
{
  g_autoptr(GBytes) part = g_bytes_new_from_bytes (bytes, 0, cut);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_graph_reader_decode (part, "cut.pb", &error);
  guint whole = 0;
  gssize cut_node = -1;

  for (guint i = 0; i < ends->len; i++)
    {
      if (base + g_array_index (ends, gsize, i) <= cut)
        whole++;
      else if (cut_node < 0 && base + g_array_index (starts, gsize, i) < cut)
        cut_node = i;
    }

  if (whole == 0)
    {
      /* Nothing whole: either an error or an empty (or almost) graph. */
      if (graph == NULL)
        g_assert_nonnull (error);
      else
        g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 0);
      return;
    }
  g_assert_no_error (error);
  g_assert_nonnull (graph);
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, whole);
  if (cut_node >= 0)
    {
      GPtrArray *problems = sl_graph_get_problems (graph);
      gboolean found = FALSE;

      for (guint i = 0; i < problems->len; i++)
        found |= sl_problem_get_offset (g_ptr_array_index (problems, i)) ==
                 (gint64) (base + g_array_index (starts, gsize, cut_node));
      g_assert_true (found);
    }
}

static void
test_truncated_everywhere (void)
{
  g_autoptr(GArray) starts = NULL, ends = NULL;
  g_autoptr(GBytes) bytes = small_graph (&starts, &ends);
  g_autoptr(GBytes) model = graph_fixture_wrap_model (bytes);
  gsize size = g_bytes_get_size (bytes);
  gsize header = g_bytes_get_size (model) - size;

  for (gsize cut = 0; cut < g_array_index (ends, gsize, ends->len - 1); cut++)
    check_cut (bytes, cut, 0, starts, ends);
  /* Inside a ModelProto: the graph runs past the end of the bytes. */
  for (gsize cut = header + 1; cut < header + g_array_index (ends, gsize, ends->len - 1); cut += 7)
    check_cut (model, cut, header, starts, ends);
}

static void
test_damaged_node_skipped (void)
{
  g_autoptr(GArray) starts = NULL, ends = NULL;
  g_autoptr(GBytes) bytes = small_graph (&starts, &ends);
  g_autoptr(GByteArray) copy = g_byte_array_new ();
  g_autoptr(GBytes) damaged = NULL;
  g_autoptr(SlGraph) graph = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  gsize node = g_array_index (starts, gsize, 5);
  guint header = 0;

  /* Node 5's first input gets an impossible wire type (7): the framing
   * of the graph holds, so only node 5 is lost. */
  g_byte_array_append (copy, data, size);
  while (copy->data[node + 1 + header] & 0x80)
    header++;
  copy->data[node + 2 + header] = (1 << 3) | 7;
  damaged = g_byte_array_free_to_bytes (g_steal_pointer (&copy));
  graph = decode (damaged);

  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 39);
  g_assert_cmpuint (sl_graph_get_n_parameters (graph), ==, 2);
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, >=, 1);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (sl_graph_get_problems (graph), 0)), ==,
                   (gint64) (node + 2 + header));
}

static void
test_deep_nesting (void)
{
  g_autoptr(GByteArray) value = g_byte_array_new ();
  g_autoptr(GByteArray) node = g_byte_array_new ();
  g_autoptr(GByteArray) attr = g_byte_array_new ();
  g_autoptr(GByteArray) graph_bytes = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SlGraph) graph = NULL;

  /* A ValueProto nested 10,000 deep (values 18): the walker stops it
   * long before protobuf-c could run out of stack. */
  fx_uint (value, 3, 7);
  for (guint i = 0; i < 10000; i++)
    {
      g_autoptr(GByteArray) outer = g_byte_array_new ();

      fx_message (outer, 18, value);
      g_byte_array_set_size (value, 0);
      g_byte_array_append (value, outer->data, outer->len);
    }
  fx_string (attr, 1, "deep");
  fx_message (attr, 2, value);
  fx_string (node, 2, "1");
  fx_string (node, 3, "Add");
  fx_message (node, 5, attr);
  fx_message (graph_bytes, 1, node);
  g_byte_array_set_size (node, 0);
  fx_string (node, 2, "2");
  fx_string (node, 3, "Mul");
  fx_message (graph_bytes, 1, node);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&graph_bytes));
  graph = decode (bytes);

  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, 1);
  g_assert_cmpstr (sl_graph_element_get_op_type (graph, 0), ==, "Mul");
  g_assert_cmpuint (sl_graph_get_problems (graph)->len, ==, 1);
}

static void
test_garbage (void)
{
  static const guint8 junk[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
  g_autoptr(GBytes) bytes = g_bytes_new_static (junk, sizeof junk);
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) none = sl_graph_reader_decode (bytes, "junk.pb", &error);
  g_autoptr(SlGraph) nothing = decode (empty);

  g_assert_null (none);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpuint (sl_graph_get_n_elements (nothing), ==, 0);
  g_assert_cmpuint (sl_graph_get_n_items (nothing), ==, 1);
}

static void
test_llm (void)
{
  guint n_ops = 0;
  g_autoptr(GBytes) bytes = graph_fixture_llm (2, &n_ops);
  g_autoptr(SlGraph) graph = decode (bytes);
  guint proxies = count_kind (graph, SL_GRAPH_ITEM_PROXY);

  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, n_ops);
  g_assert_cmpuint (sl_graph_get_n_dangling_inputs (graph), ==, 0);
  g_assert_cmpuint (sl_graph_get_n_control_edges (graph), >, 0);
  /* Two layers give the mask two consumers, too few for proxies. */
  g_assert_cmpuint (proxies, ==, 0);
}

static void
test_llm_summary (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-graph-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) graphs = NULL;
  guint n_ops = 0;
  SlGraph *graph;

  g_assert_no_error (error);
  path = graph_fixture_write_llm_summary (folder, 40, &n_ops, &error);
  g_assert_no_error (error);
  graphs = sl_graph_reader_load (folder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (graphs->len, ==, 1);
  graph = g_ptr_array_index (graphs, 0);
  g_assert_cmpuint (sl_graph_get_n_ops (graph), ==, n_ops);
  g_assert_cmpuint (n_ops, >=, 19000);
  g_assert_cmpuint (n_ops, <=, 21000);
  /* The mask feeds 40 Adds in 40 attention scopes, the rotary table 160
   * Muls in 40 rotary scopes: a proxy in each of those 80 scopes. */
  g_assert_cmpuint (count_kind (graph, SL_GRAPH_ITEM_PROXY), ==, 80);
  /* The optimizer scope holds 40 × 9 updates: its big groups are split. */
  g_assert_nonnull (graph);
  g_assert_cmpuint (sl_graph_find_item (graph, "Default/optimizer-AdamWeightDecay/TupleGetItem[720]"), !=, SL_GRAPH_NONE);
  g_assert_cmpuint (sl_graph_find_item (graph, "Default/optimizer-AdamWeightDecay/Load[1080]/#2"), !=, SL_GRAPH_NONE);
  g_unlink (path);
  g_rmdir (folder);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph/group-threshold", test_group_threshold);
  g_test_add_func ("/graph/consts-inside-consumers", test_consts_inside_consumers);
  g_test_add_func ("/graph/parameter-placement", test_parameter_placement);
  g_test_add_func ("/graph/proxies", test_proxies);
  g_test_add_func ("/graph/lifted-edges", test_lifted_edges);
  g_test_add_func ("/graph/sections", test_sections);
  g_test_add_func ("/graph/cycles-self-loops-dangling", test_cycles_self_loops_dangling);
  g_test_add_func ("/graph/long-names", test_long_names);
  g_test_add_func ("/graph/lookup", test_lookup);
  g_test_add_func ("/graph/debugger-and-values", test_debugger_and_values);
  g_test_add_func ("/graph/model-proto", test_model_proto);
  g_test_add_func ("/graph/truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/graph/damaged-node-skipped", test_damaged_node_skipped);
  g_test_add_func ("/graph/deep-nesting", test_deep_nesting);
  g_test_add_func ("/graph/garbage", test_garbage);
  g_test_add_func ("/graph/llm", test_llm);
  g_test_add_func ("/graph/llm-summary", test_llm_summary);
  return g_test_run ();
}
