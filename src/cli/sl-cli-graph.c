/* sl-cli-graph.c: `sightline-cli graph PATH [--json] [--scope SCOPE] [--layout]`
 *
 * For each graph in PATH (a .pb, an .onnx, .air, .om, a summary file or a folder of
 * summaries): its name and the counts of nodes, parameters, constants,
 * data and control edges, scopes, and nodes per op type; with --json
 * also the names of its inputs and outputs (ONNX) and what the file says
 * about the model ("metadata": producer, opset imports and so on). With --scope,
 * also the children of that scope (a path as the hierarchy names it:
 * scope segments, groups "OpType[N]", sections "#n"; "" is the root).
 * With --layout, the positions the graph view gives the top level (or
 * SCOPE's children, with everything else collapsed): boxes and edge
 * routes in scene units, relative to the scope's frame (the top level's
 * to the scene's origin).
 * Problems go to standard error. Exit status: 0 when graphs were read,
 * 1 when PATH holds none or the scope is in no graph, 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-count-format.h"
#include "sl-cli.h"
#include "sl-graph-layout.h"
#include "sl-graph-reader.h"

typedef struct {
  const char *type;
  guint       count;
} OpTypeCount;

/* Op types with their node counts, by name. */
static GArray *
count_op_types (SlGraph *graph)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *result = g_array_new (FALSE, FALSE, sizeof (OpTypeCount));
  GHashTableIter iter;
  gpointer key, value;

  for (guint e = 0; e < sl_graph_get_n_ops (graph); e++)
    {
      const char *type = sl_graph_element_get_op_type (graph, e);

      g_hash_table_insert (counts, (gpointer) type,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, type)) + 1));
    }
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_array_append_val (result, ((OpTypeCount) { key, GPOINTER_TO_UINT (value) }));
  return result;
}

static int
compare_by_name (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (((const OpTypeCount *) a)->type, ((const OpTypeCount *) b)->type);
}

static int
compare_by_count (gconstpointer a,
                  gconstpointer b)
{
  const OpTypeCount *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return g_strcmp0 (x->type, y->type);
}

/* The CLI's four kinds: sections are scopes, elements are nodes. */
static const char *
child_kind (SlGraphItemKind kind)
{
  switch (kind)
    {
    case SL_GRAPH_ITEM_SCOPE:
    case SL_GRAPH_ITEM_SECTION:
      return "scope";
    case SL_GRAPH_ITEM_GROUP:
      return "group";
    case SL_GRAPH_ITEM_PROXY:
      return "proxy";
    case SL_GRAPH_ITEM_OP:
    case SL_GRAPH_ITEM_PARAMETER:
    case SL_GRAPH_ITEM_CONST:
    default:
      return "node";
    }
}

/* An op is named as MindInsight names it; anything else by its path. */
static char *
dup_child_name (SlGraph *graph,
                guint    item)
{
  if (sl_graph_item_get_kind (graph, item) == SL_GRAPH_ITEM_OP)
    return sl_graph_element_dup_name (graph, sl_graph_item_get_element (graph, item));
  return sl_graph_item_dup_path (graph, item);
}

static void
add_children (JsonBuilder *builder,
              SlGraph     *graph,
              guint        scope)
{
  json_builder_set_member_name (builder, "children");
  json_builder_begin_array (builder);
  for (guint i = 0; scope != SL_GRAPH_NONE && i < sl_graph_item_get_n_children (graph, scope); i++)
    {
      guint child = sl_graph_item_get_child (graph, scope, i);
      g_autofree char *name = dup_child_name (graph, child);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, name);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, child_kind (sl_graph_item_get_kind (graph, child)));
      json_builder_set_member_name (builder, "op_type");
      json_builder_add_string_value (builder, sl_graph_item_get_op_type (graph, child));
      json_builder_set_member_name (builder, "child_count");
      json_builder_add_int_value (builder, sl_graph_item_get_n_children (graph, child));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_count (JsonBuilder *builder,
           const char  *name,
           guint        value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* The scene with @scope expanded and everything else collapsed. */
static SlGraphScene *
lay_out_scope (SlGraph  *graph,
               guint     scope,
               guint    *scope_box,
               GError  **error)
{
  g_autoptr(SlGraphLayout) layout = sl_graph_layout_new (graph);
  SlGraphScene *scene;

  sl_graph_layout_expand_to (layout, scope);
  sl_graph_layout_set_expanded (layout, scope, TRUE);
  scene = sl_graph_layout_build_scene (layout, NULL, NULL, NULL, error);
  if (scene != NULL)
    *scope_box = scope == 0 ? SL_GRAPH_SCENE_NONE : sl_graph_scene_lookup_id (scene, scope);
  return scene;
}

static void
scene_origin (SlGraphScene *scene,
              guint         scope_box,
              double       *x,
              double       *y)
{
  const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (scene, NULL);

  *x = scope_box != SL_GRAPH_SCENE_NONE ? boxes[scope_box].x : 0;
  *y = scope_box != SL_GRAPH_SCENE_NONE ? boxes[scope_box].y : 0;
}

static void
add_double (JsonBuilder *builder,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_double_value (builder, value);
}

static void
add_layout_edges (JsonBuilder  *builder,
                  SlGraph      *graph,
                  SlGraphScene *scene,
                  guint         scope_box,
                  double        ox,
                  double        oy)
{
  guint n_edges;
  const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (scene, NULL);
  const SlGraphSceneEdge *edges = sl_graph_scene_get_edges (scene, &n_edges);
  const SlGraphScenePoint *points = sl_graph_scene_get_points (scene, NULL);

  json_builder_set_member_name (builder, "edges");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_edges; i++)
    {
      g_autofree char *from = NULL;
      g_autofree char *to = NULL;

      if (boxes[edges[i].from].parent != scope_box)
        continue;
      from = dup_child_name (graph, boxes[edges[i].from].id);
      to = dup_child_name (graph, boxes[edges[i].to].id);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "from");
      json_builder_add_string_value (builder, from);
      json_builder_set_member_name (builder, "to");
      json_builder_add_string_value (builder, to);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, edges[i].kind == SL_GRAPH_SCENE_EDGE_CONTROL ? "control" : "data");
      add_count (builder, "count", edges[i].count);
      json_builder_set_member_name (builder, "reversed");
      json_builder_add_boolean_value (builder, edges[i].reversed);
      json_builder_set_member_name (builder, "points");
      json_builder_begin_array (builder);
      for (guint k = 0; k < edges[i].n_points; k++)
        {
          json_builder_begin_array (builder);
          json_builder_add_double_value (builder, points[edges[i].first_point + k].x - ox);
          json_builder_add_double_value (builder, points[edges[i].first_point + k].y - oy);
          json_builder_end_array (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_layout (JsonBuilder *builder,
            SlGraph     *graph,
            guint        scope)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  g_autofree char *path = NULL;
  const SlGraphSceneBox *boxes;
  guint n_boxes, scope_box = SL_GRAPH_SCENE_NONE;
  double ox, oy, width = 0, height = 0;

  if (scope == SL_GRAPH_NONE)
    return;
  scene = lay_out_scope (graph, scope, &scope_box, &error);
  if (scene == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return;
    }
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  scene_origin (scene, scope_box, &ox, &oy);
  if (scope_box != SL_GRAPH_SCENE_NONE)
    {
      width = boxes[scope_box].width;
      height = boxes[scope_box].height;
    }
  else
    sl_graph_scene_get_bounds (scene, NULL, NULL, &width, &height);

  path = sl_graph_item_dup_path (graph, scope);
  json_builder_set_member_name (builder, "layout");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "scope");
  json_builder_add_string_value (builder, path);
  add_double (builder, "width", width);
  add_double (builder, "height", height);
  json_builder_set_member_name (builder, "nodes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_boxes; i++)
    {
      g_autofree char *name = NULL;

      if (boxes[i].parent != scope_box)
        continue;
      name = dup_child_name (graph, boxes[i].id);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, name);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, child_kind (sl_graph_item_get_kind (graph, boxes[i].id)));
      add_double (builder, "x", boxes[i].x - ox);
      add_double (builder, "y", boxes[i].y - oy);
      add_double (builder, "width", boxes[i].width);
      add_double (builder, "height", boxes[i].height);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  add_layout_edges (builder, graph, scene, scope_box, ox, oy);
  json_builder_end_object (builder);
}

static void
print_layout (SlGraph *graph,
              guint    scope)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  const SlGraphSceneBox *boxes;
  guint n_boxes, scope_box = SL_GRAPH_SCENE_NONE;
  double ox, oy;

  scene = lay_out_scope (graph, scope, &scope_box, &error);
  if (scene == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return;
    }
  boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
  scene_origin (scene, scope_box, &ox, &oy);
  /* Translators: the heading of box positions: x, y, width, height, name */
  printf (_("  layout (x, y, width, height):\n"));
  for (guint i = 0; i < n_boxes; i++)
    {
      g_autofree char *name = NULL;

      if (boxes[i].parent != scope_box)
        continue;
      name = dup_child_name (graph, boxes[i].id);
      printf ("    %8.1f %8.1f %6.1f %6.1f  %s\n", boxes[i].x - ox, boxes[i].y - oy,
              boxes[i].width, boxes[i].height, name);
    }
}

/* The names of the graph's own inputs or outputs (a subgraph's sit in
 * its scope and are not listed). */
static void
add_boundary (JsonBuilder        *builder,
              SlGraph            *graph,
              const char         *member,
              SlGraphElementKind  kind)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint e = 0; e < sl_graph_get_n_elements (graph); e++)
    {
      g_autofree char *scope = NULL;

      if (sl_graph_element_get_kind (graph, e) != kind)
        continue;
      scope = sl_graph_element_dup_scope (graph, e);
      if (scope[0] == '\0')
        json_builder_add_string_value (builder, sl_graph_element_get_proto_name (graph, e));
    }
  json_builder_end_array (builder);
}

static void
add_metadata (JsonBuilder *builder,
              SlGraph     *graph)
{
  json_builder_set_member_name (builder, "metadata");
  json_builder_begin_object (builder);
  for (guint i = 0; i < sl_graph_get_n_metadata (graph); i++)
    {
      const char *value = NULL;

      json_builder_set_member_name (builder, sl_graph_get_metadata (graph, i, &value));
      json_builder_add_string_value (builder, value);
    }
  json_builder_end_object (builder);
}

static void
add_graph (JsonBuilder *builder,
           SlGraph     *graph,
           const char  *scope_path,
           gboolean     layout)
{
  g_autoptr(GArray) types = count_op_types (graph);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, sl_graph_get_name (graph));
  add_count (builder, "nodes", sl_graph_get_n_ops (graph));
  add_count (builder, "parameters", sl_graph_get_n_parameters (graph));
  add_count (builder, "consts", sl_graph_get_n_consts (graph));
  add_count (builder, "data_edges", sl_graph_get_n_data_edges (graph));
  add_count (builder, "control_edges", sl_graph_get_n_control_edges (graph));
  add_count (builder, "scopes", sl_graph_get_n_scopes (graph));
  json_builder_set_member_name (builder, "op_types");
  json_builder_begin_object (builder);
  g_array_sort (types, compare_by_name);
  for (guint i = 0; i < types->len; i++)
    add_count (builder, g_array_index (types, OpTypeCount, i).type, g_array_index (types, OpTypeCount, i).count);
  json_builder_end_object (builder);
  add_boundary (builder, graph, "inputs", SL_GRAPH_ELEMENT_INPUT);
  add_boundary (builder, graph, "outputs", SL_GRAPH_ELEMENT_OUTPUT);
  add_metadata (builder, graph);
  if (scope_path != NULL)
    add_children (builder, graph, sl_graph_find_item (graph, scope_path));
  if (layout)
    add_layout (builder, graph, scope_path != NULL ? sl_graph_find_item (graph, scope_path) : 0);
  json_builder_end_object (builder);
}

static void
print_json (GPtrArray  *graphs,
            const char *scope_path,
            gboolean    layout)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "graphs");
  json_builder_begin_array (builder);
  for (guint i = 0; i < graphs->len; i++)
    add_graph (builder, g_ptr_array_index (graphs, i), scope_path, layout);
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

static void
print_children (SlGraph *graph,
                guint    scope)
{
  for (guint i = 0; i < sl_graph_item_get_n_children (graph, scope); i++)
    {
      guint child = sl_graph_item_get_child (graph, scope, i);
      g_autofree char *name = dup_child_name (graph, child);

      printf ("    %-6s %-24s %6u  %s\n", child_kind (sl_graph_item_get_kind (graph, child)),
              sl_graph_item_get_op_type (graph, child), sl_graph_item_get_n_children (graph, child), name);
    }
}

static void
print_text (GPtrArray  *graphs,
            const char *scope_path,
            gboolean    layout)
{
  for (guint i = 0; i < graphs->len; i++)
    {
      SlGraph *graph = g_ptr_array_index (graphs, i);
      g_autoptr(GArray) types = count_op_types (graph);
      g_autofree char *memory = g_format_size (sl_graph_get_memory_size (graph));
      g_autofree char *nodes = sl_count_format (sl_graph_get_n_ops (graph));
      g_autofree char *parameters = sl_count_format (sl_graph_get_n_parameters (graph));
      g_autofree char *constants = sl_count_format (sl_graph_get_n_consts (graph));
      g_autofree char *data_edges = sl_count_format (sl_graph_get_n_data_edges (graph));
      g_autofree char *control_edges = sl_count_format (sl_graph_get_n_control_edges (graph));
      g_autofree char *scopes = sl_count_format (sl_graph_get_n_scopes (graph));

      /* Translators: a graph's name, then its counts */
      printf (_("graph %s: %s nodes, %s parameters, %s constants, %s data edges, %s control edges, %s scopes (%s in memory)\n"),
              sl_graph_get_name (graph), nodes, parameters, constants, data_edges, control_edges, scopes, memory);
      g_array_sort (types, compare_by_count);
      for (guint t = 0; t < types->len; t++)
        printf ("  %-32s %8u\n", g_array_index (types, OpTypeCount, t).type, g_array_index (types, OpTypeCount, t).count);
      if (scope_path != NULL)
        {
          guint scope = sl_graph_find_item (graph, scope_path);

          if (scope == SL_GRAPH_NONE)
            continue;
          /* Translators: the path of a scope in the graph */
          printf (_("  children of “%s”:\n"), scope_path);
          print_children (graph, scope);
        }
      if (layout)
        {
          guint scope = scope_path != NULL ? sl_graph_find_item (graph, scope_path) : 0;

          if (scope != SL_GRAPH_NONE)
            print_layout (graph, scope);
        }
    }
}

static void
print_problems (GPtrArray *graphs)
{
  for (guint i = 0; i < graphs->len; i++)
    {
      GPtrArray *problems = sl_graph_get_problems (g_ptr_array_index (graphs, i));

      for (guint p = 0; p < problems->len; p++)
        {
          SlProblem *problem = g_ptr_array_index (problems, p);

          fprintf (stderr, "%s: %s: %s\n", sl_severity_to_string (sl_problem_get_severity (problem)),
                   sl_problem_get_path (problem), sl_problem_get_message (problem));
        }
    }
}

static gboolean
scope_found (GPtrArray  *graphs,
             const char *scope_path)
{
  for (guint i = 0; i < graphs->len; i++)
    if (sl_graph_find_item (g_ptr_array_index (graphs, i), scope_path) != SL_GRAPH_NONE)
      return TRUE;
  return FALSE;
}

static gboolean
parse_options (int          *argc,
               char       ***argv,
               gboolean     *json,
               char        **scope,
               gboolean     *layout)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("PATH — count the nodes, edges and scopes of MindSpore, TensorFlow and ONNX graphs"));
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, json, N_("Print the result as JSON"), NULL },
    { "scope", 0, 0, G_OPTION_ARG_STRING, scope, N_("List the children of this scope"), N_("SCOPE") },
    { "layout", 0, 0, G_OPTION_ARG_NONE, layout, N_("Print the positions the graph view gives the top level, or the scope’s children"), NULL },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return FALSE;
    }
  if (*argc != 2)
    {
      sl_cli_print_error (*argc < 2 ? _("%s needs a PATH") : _("%s takes a single PATH"), "graph");
      return FALSE;
    }
  return TRUE;
}

int
sl_cli_graph (int    argc,
              char **argv)
{
  g_autoptr(GPtrArray) graphs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *scope = NULL;
  gboolean json = FALSE, layout = FALSE;

  if (!parse_options (&argc, &argv, &json, &scope, &layout))
    return 2;

  graphs = sl_graph_reader_load (argv[1], NULL, &error);
  if (graphs == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  if (graphs->len == 0)
    {
      sl_cli_print_error (_("“%s” holds no graph"), argv[1]);
      return 1;
    }

  if (json)
    print_json (graphs, scope, layout);
  else
    print_text (graphs, scope, layout);
  print_problems (graphs);

  if (scope != NULL && !scope_found (graphs, scope))
    {
      sl_cli_print_error (_("no graph has a scope “%s”"), scope);
      return 1;
    }
  return 0;
}
