/* test-names.c: no name or number is cut without a way to read it: graph
 * search results of 32 layers keep the layer index, Lineage runs show the
 * folders that tell them apart, Details values wrap without hyphens and can
 * be copied, tooltips wrap at a readable width, a fitted pipeline is
 * readable and its status counts what Problems lists, the Problems File
 * column shows the part of the path that differs; a screenshot of each
 * screen at 1024 × 640
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include <glib/gstdio.h>

#include "sl-application.h"
#include "sl-count-format.h"
#include "sl-dataset-graph-page.h"
#include "sl-details-panel.h"
#include "sl-graph-canvas.h"
#include "sl-graph-page.h"
#include "sl-lineage-page.h"
#include "sl-pipeline-page.h"
#include "sl-problems-panel.h"
#include "sl-summary-writer.h"
#include "sl-tooltip.h"
#include "sl-window.h"
#include "../graph-fixture.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

static gboolean
document_settled (gpointer data)
{
  SlDocument *document = data;

  return sl_document_get_state (document) != SL_DOCUMENT_LOADING &&
         !panel_widget_get_busy (PANEL_WIDGET (document));
}

static gboolean
has_results (gpointer data)
{
  return sl_graph_page_get_results (data)->len > 0;
}

static void
screenshot (const char *name)
{
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, name);
}

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The labels drawn under @root. */
static void
collect_labels (GtkWidget *root,
                GPtrArray *labels)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root))
    g_ptr_array_add (labels, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_labels (child, labels);
}

/* The same ops in 32 layers: each result names its layer. */
static void
test_graph_search_layers (void)
{
  g_autoptr(GBytes) bytes = graph_fixture_llm (32, NULL);
  g_autofree char *path = g_build_filename (tmp_root, "llm32.pb", NULL);
  g_autoptr(GHashTable) layers = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GRegex) layer_re = g_regex_new ("/([0-9]+)-LLamaDecodeLayer/", 0, 0, NULL);
  SlDocument *document;
  SlGraphPage *page;
  SlGraph *graph;
  GArray *results;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  document = sl_window_open_document (window, "graph", path, NULL);
  page = SL_GRAPH_PAGE (document);
  g_assert_true (wait_until (document_settled, document, 60000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  graph = sl_graph_page_get_graph (page);

  sl_graph_page_search (page, "wq-Linear/MatMul", FALSE);
  g_assert_true (wait_until (has_results, page, 30000));
  results = sl_graph_page_get_results (page);
  g_assert_cmpuint (results->len, >=, 32);
  for (guint i = 0; i < results->len; i++)
    {
      g_autofree char *whole = sl_graph_item_dup_path (graph, g_array_index (results, guint32, i));
      g_autofree char *label = sl_graph_page_dup_result_label (page, i);
      g_autoptr(GMatchInfo) whole_match = NULL;
      g_autoptr(GMatchInfo) label_match = NULL;
      g_autofree char *whole_layer = NULL;
      g_autofree char *label_layer = NULL;

      g_assert_nonnull (label);
      /* Shorter than the path, and its end is the path's end. */
      g_assert_cmpuint (strlen (label), <, strlen (whole));
      g_assert_true (g_str_has_suffix (whole, strrchr (label, '/')));
      g_assert_true (g_regex_match (layer_re, whole, 0, &whole_match));
      g_assert_true (g_regex_match (layer_re, label, 0, &label_match));
      whole_layer = g_match_info_fetch (whole_match, 1);
      label_layer = g_match_info_fetch (label_match, 1);
      g_assert_cmpstr (label_layer, ==, whole_layer);
      g_hash_table_add (layers, GUINT_TO_POINTER (atoi (whole_layer) + 1));
      /* No two results read the same. */
      g_assert_false (g_hash_table_contains (labels, label));
      g_hash_table_add (labels, g_steal_pointer (&label));
    }
  g_assert_cmpuint (g_hash_table_size (layers), ==, 32);
  screenshot ("names-graph-search.png");

  /* The rows shown read as the results do, with the whole path on hover,
   * wrapped as a long name's tooltip is. */
  {
    GtkWidget *list = find_named (GTK_WIDGET (page), "graph-results");
    g_autoptr(GPtrArray) row_labels = g_ptr_array_new ();
    g_autoptr(GHashTable) whole_by_label = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

    for (guint i = 0; i < results->len; i++)
      g_hash_table_insert (whole_by_label, sl_graph_page_dup_result_label (page, i),
                           sl_graph_item_dup_path (graph, g_array_index (results, guint32, i)));
    g_assert_nonnull (list);
    g_assert_true (gtk_widget_get_mapped (list));
    collect_labels (list, row_labels);
    g_assert_cmpuint (row_labels->len, >, 0);
    for (guint i = 0; i < row_labels->len; i++)
      {
        GtkWidget *row = g_ptr_array_index (row_labels, i);
        const char *whole = g_hash_table_lookup (whole_by_label, gtk_label_get_label (GTK_LABEL (row)));
        g_autoptr(GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
        gboolean handled = FALSE;

        g_assert_nonnull (whole);
        g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (row)), ==, PANGO_ELLIPSIZE_MIDDLE);
        g_assert_cmpstr (gtk_widget_get_tooltip_text (row), ==, whole);
        g_signal_emit_by_name (row, "query-tooltip", 0, 0, FALSE, tooltip, &handled);
        g_assert_true (handled);
        g_assert_nonnull (sl_tooltip_get_label (tooltip));
        g_assert_cmpstr (gtk_label_get_text (sl_tooltip_get_label (tooltip)), ==, whole);
        g_assert_cmpint (gtk_label_get_max_width_chars (sl_tooltip_get_label (tooltip)), ==, SL_TOOLTIP_MAX_WIDTH_CHARS);
      }
  }
  panel_widget_close (PANEL_WIDGET (document));
}

static gboolean
has_hyphens_off (GtkLabel *label)
{
  PangoAttrList *attrs = gtk_label_get_attributes (label);
  g_autoptr(PangoAttrIterator) iter = NULL;
  PangoAttribute *attr;

  if (attrs == NULL)
    return FALSE;
  iter = pango_attr_list_get_iterator (attrs);
  attr = pango_attr_iterator_get (iter, PANGO_ATTR_INSERT_HYPHENS);
  return attr != NULL && ((PangoAttrInt *) attr)->value == FALSE;
}

/* A tooltip of a 10,000-character name with no space in it wraps at
 * SL_TOOLTIP_MAX_WIDTH_CHARS, narrower than the screen; the graph
 * canvas's op tooltips use it. */
static void
test_tooltip_width (void)
{
  g_autofree char *name = g_strnfill (10000, 'x');
  g_autoptr(GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
  g_autoptr(SlGraphScene) scene = sl_graph_scene_new ();
  g_autofree char *op = g_strconcat ("aclnnForeachAddListV2_", name, NULL);
  SlGraphSceneBox box = { 0, 0, 160, 40, 1, SL_GRAPH_SCENE_NONE, 0, SL_GRAPH_SHAPE_OP, 0, -1, NULL, "Op" };
  GtkWidget *canvas = sl_graph_canvas_new ();
  GtkWidget *holder = gtk_window_new ();
  GtkLabel *label;
  gboolean shown = FALSE;
  double x, y;
  int natural;

  sl_tooltip_set_text (tooltip, name);
  label = sl_tooltip_get_label (tooltip);
  g_assert_nonnull (label);
  g_assert_cmpint (gtk_label_get_max_width_chars (label), ==, SL_TOOLTIP_MAX_WIDTH_CHARS);
  g_assert_true (gtk_label_get_wrap (label));
  /* No word break to look for in 10,000 letters. */
  g_assert_cmpint (gtk_label_get_wrap_mode (label), ==, PANGO_WRAP_CHAR);
  gtk_widget_measure (GTK_WIDGET (label), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (natural, <, 1024);
  g_assert_cmpint (natural, >, 100);

  /* The canvas's own tooltip of an op with that name. */
  box.label = op;
  sl_graph_scene_add_box (scene, &box);
  sl_graph_scene_finish (scene);
  gtk_window_set_child (GTK_WINDOW (holder), canvas);
  gtk_window_set_default_size (GTK_WINDOW (holder), 400, 300);
  gtk_window_present (GTK_WINDOW (holder));
  sl_graph_canvas_set_scene (SL_GRAPH_CANVAS (canvas), scene, SL_GRAPH_SCENE_NONE);
  wait_for_frames (canvas);
  sl_graph_canvas_fit (SL_GRAPH_CANVAS (canvas));
  sl_graph_canvas_scene_to_widget (SL_GRAPH_CANVAS (canvas), 80, 20, &x, &y);
  g_clear_object (&tooltip);
  tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
  g_signal_emit_by_name (canvas, "query-tooltip", (int) x, (int) y, FALSE, tooltip, &shown);
  g_assert_true (shown);
  label = sl_tooltip_get_label (tooltip);
  g_assert_nonnull (label);
  g_assert_cmpint (gtk_label_get_max_width_chars (label), ==, SL_TOOLTIP_MAX_WIDTH_CHARS);
  g_assert_nonnull (strstr (gtk_label_get_text (label), "aclnnForeachAddListV2_xxx"));
  g_assert_true (has_hyphens_off (label));
  /* Asked again (the pointer moved): the same label, the hyphens still off. */
  g_signal_emit_by_name (canvas, "query-tooltip", (int) x + 1, (int) y, FALSE, tooltip, &shown);
  g_assert_true (sl_tooltip_get_label (tooltip) == label);
  g_assert_true (has_hyphens_off (label));
  gtk_widget_measure (GTK_WIDGET (label), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (natural, <, 1024);
  gtk_window_destroy (GTK_WINDOW (holder));
}

/* A finding's values: labels above, values the panel's width, no hyphen
 * put into a name or number, every value selectable. */
static void
test_details_values (void)
{
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  g_autofree char *long_name = g_strnfill (10000, 'n');
  const char *rows[] = {
    "Op", "aclnnForeachAddListV2_ForeachAddListV2",
    "Wait", "task-wait",
    "Time", "91.78 ms",
    "Long", long_name,
    "Separators", "////----____",
    "Unicode", "\u7b97\u5b50\u540d\u79f0/\u5c42\u6b21 \U0001F680",
    "Empty", "",
    NULL,
  };
  const char *keys[] = { "Op", "Wait", "Time", "Long", "Separators", "Unicode" };
  g_autoptr(GObject) item = g_object_new (G_TYPE_OBJECT, NULL);
  GtkWidget *grid;

  sl_details_panel_show_rows (details, item, "dialog-information-symbolic", "aclnnForeachAddListV2_ForeachAddListV2",
                              rows);
  screenshot ("names-details.png");
  /* An empty value has no row. */
  g_assert_null (sl_details_panel_get_value_widget (details, "Empty"));
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkWidget *value = sl_details_panel_get_value_widget (details, keys[i]);
      graphene_rect_t value_bounds, parent_bounds;

      g_assert_true (GTK_IS_LABEL (value));
      g_assert_true (gtk_label_get_selectable (GTK_LABEL (value)));
      g_assert_true (gtk_label_get_wrap (GTK_LABEL (value)));
      /* Words kept whole but for one longer than a line, which 10,000
       * letters are from the start. */
      g_assert_cmpint (gtk_label_get_wrap_mode (GTK_LABEL (value)), ==,
                       g_str_equal (keys[i], "Long") ? PANGO_WRAP_CHAR : PANGO_WRAP_WORD_CHAR);
      g_assert_true (has_hyphens_off (GTK_LABEL (value)));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (value)), ==, sl_details_panel_lookup (details, keys[i]));

      /* The value has the width of the rows, not what a label left it. */
      grid = gtk_widget_get_parent (value);
      if (gtk_widget_get_mapped (value))
        {
          g_assert_true (gtk_widget_compute_bounds (value, grid, &value_bounds));
          g_assert_true (gtk_widget_compute_bounds (grid, grid, &parent_bounds));
          g_assert_cmpfloat (value_bounds.origin.x, <=, 1);
          g_assert_cmpfloat (value_bounds.size.width, >=, parent_bounds.size.width - 1);
        }
    }
  /* "91.78 ms" keeps to one line where the panel is wide enough for it. */
  {
    GtkWidget *value = sl_details_panel_get_value_widget (details, "Time");
    PangoLayout *layout = gtk_label_get_layout (GTK_LABEL (value));

    if (gtk_widget_get_mapped (value) && gtk_widget_get_width (value) > 120)
      g_assert_cmpint (pango_layout_get_line_count (layout), ==, 1);
  }
}

static void
write_lineage_run (const char *dir,
                   guint       i)
{
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  writer = sl_summary_writer_new (dir, 1700000000 + i, "host", &error);
  g_assert_no_error (error);
  g_assert_true (sl_summary_writer_add_scalar (writer, 1, 1700000000.0, "loss", 1.0f / (i + 1), &error));
  g_assert_true (sl_summary_writer_add_train_lineage (writer, 1700000100.0, "Adam", 0.001f * (i + 1),
                                                      "SoftmaxCrossEntropyWithLogits", 10, 32, "LeNet5",
                                                      0.5f, &error));
  g_assert_true (sl_summary_writer_add_eval_lineage (writer, 1700000200.0, "{\"Accuracy\": 0.9}",
                                                     "/data/mnist/test", 10000, &error));
  g_assert_true (sl_summary_writer_close (writer, &error));
}

static void
check_lineage_names (const char  *folder,
                     const char **expected,
                     guint        n_expected,
                     const char  *shot)
{
  SlDocument *document = sl_window_open_document (window, "lineage", folder, NULL);
  SlLineagePage *page = SL_LINEAGE_PAGE (document);
  SlLineageTable *table;
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();

  g_assert_true (wait_until (document_settled, document, 30000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  table = sl_lineage_page_get_table (page);
  g_assert_cmpuint (sl_lineage_table_get_n_runs (table), ==, n_expected);
  for (guint r = 0; r < n_expected; r++)
    g_ptr_array_add (shown, (gpointer) sl_lineage_page_get_run_label (page, r));
  for (guint e = 0; e < n_expected; e++)
    {
      gboolean found = FALSE;

      for (guint r = 0; r < shown->len; r++)
        found |= g_strcmp0 (g_ptr_array_index (shown, r), expected[e]) == 0;
      if (!found)
        g_error ("no run shown as %s", expected[e]);
    }
  sl_lineage_page_show_view (page, "table");
  screenshot (shot);
  panel_widget_close (PANEL_WIDGET (document));
}

/* Runs in nested folders, all with the same last folder name: the run
 * column shows them relative to the folder opened, as MindInsight does. */
static void
test_lineage_run_names (void)
{
  const char *datasets = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *root = g_build_filename (tmp_root, "sweep", NULL);
  const char *subdirs[] = { "lr_0.001/run", "lr_0.01/run", "lr_0.1/run", "\u5b66\u4e60\u7387/run" };
  const char *expected[] = { "./lr_0.001/run", "./lr_0.01/run", "./lr_0.1/run", "./\u5b66\u4e60\u7387/run" };
  g_autofree char *runs = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (subdirs); i++)
    {
      g_autofree char *dir = g_build_filename (root, subdirs[i], NULL);

      write_lineage_run (dir, i);
    }
  check_lineage_names (root, expected, G_N_ELEMENTS (expected), "names-lineage-generated.png");

  if (datasets == NULL ||
      !g_file_test ((runs = g_build_filename (datasets, "generated__mindinsight-writers", "run_lineage", NULL)),
                    G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the datasets folder is not here");
      return;
    }
  {
    const char *real[] = { "./run_01", "./run_02", "./run_03", "./run_04", "./run_05", "./run_06" };

    check_lineage_names (runs, real, G_N_ELEMENTS (real), "names-lineage-real.png");
  }

  /* Their dataset pipelines side by side, each fitted no smaller than
   * readable. */
  {
    SlDocument *document = sl_window_open_document (window, "dataset-graph", runs, NULL);
    SlDatasetGraphPage *page = SL_DATASET_GRAPH_PAGE (document);

    g_assert_true (wait_until (document_settled, document, 30000));
    g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
    screenshot ("names-dataset-graph.png");
    for (guint r = 0; r < sl_dataset_graph_page_get_n_runs (page); r++)
      {
        SlGraphCanvas *canvas = sl_dataset_graph_page_get_canvas (page, r);

        if (gtk_widget_get_width (GTK_WIDGET (canvas)) <= 1)
          continue;
        sl_graph_canvas_fit (canvas);
        g_assert_cmpfloat (sl_graph_canvas_get_zoom (canvas), >=, SL_GRAPH_CANVAS_MIN_FIT_ZOOM);
      }
    panel_widget_close (PANEL_WIDGET (document));
  }
}

static guint
count_severity (GListModel *problems,
                SlSeverity  severity)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      n += sl_problem_get_severity (problem) == severity;
    }
  return n;
}

/* A pipeline of 30 elements in a chain, the last with a key the SDK
 * does not know. */
static char *
write_long_pipeline (void)
{
  GString *json = g_string_new ("{\n  \"long\": {\n    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"queue0\"},\n");
  char *path = g_build_filename (tmp_root, "long.pipeline", NULL);

  for (guint i = 0; i < 28; i++)
    g_string_append_printf (json, "    \"queue%u\": {\"factory\": \"queue\", \"next\": \"%s%u\"},\n",
                            i, i < 27 ? "queue" : "appsink", i < 27 ? i + 1 : 0);
  g_string_append (json, "    \"appsink0\": {\"factory\": \"appsink\", \"former\": \"x\"}\n  }\n}\n");
  g_assert_true (g_file_set_contents (path, json->str, -1, NULL));
  g_string_free (json, TRUE);
  return path;
}

/* A MindX pipeline (a real one when the datasets are here): fitted no
 * smaller than readable, and its status line counts the problems
 * Problems lists for it. */
static void
test_pipeline_fit_and_status (void)
{
  const char *datasets = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *path = NULL;
  SlProblemsPanel *problems_panel = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  guint errors_before = sl_problems_panel_count (problems_panel, SL_SEVERITY_ERROR);
  guint warnings_before = sl_problems_panel_count (problems_panel, SL_SEVERITY_WARNING);
  SlDocument *document;
  SlGraphCanvas *canvas;
  guint errors, warnings;
  g_autofree char *errors_count = NULL;
  g_autofree char *warnings_count = NULL;
  g_autofree char *errors_text = NULL;
  g_autofree char *warnings_text = NULL;

  if (datasets == NULL ||
      !g_file_test ((path = g_build_filename (datasets, "Ascend__ascend_community_projects", "deepsort", "pipeline",
                                              "deepsort.pipeline", NULL)), G_FILE_TEST_IS_REGULAR))
    {
      g_free (path);
      path = write_long_pipeline ();
    }

  document = sl_window_open_document (window, "pipeline", path, NULL);
  g_assert_true (wait_until (document_settled, document, 30000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  canvas = sl_pipeline_page_get_canvas (SL_PIPELINE_PAGE (document));
  screenshot ("names-pipeline.png");
  g_assert_cmpfloat (sl_graph_canvas_get_zoom (canvas), >=, SL_GRAPH_CANVAS_MIN_FIT_ZOOM);
  gtk_widget_activate_action (GTK_WIDGET (canvas), "graph.zoom-out", NULL);
  gtk_widget_activate_action (GTK_WIDGET (canvas), "graph.zoom-out", NULL);
  sl_graph_canvas_fit (canvas);
  g_assert_cmpfloat (sl_graph_canvas_get_zoom (canvas), >=, SL_GRAPH_CANVAS_MIN_FIT_ZOOM);

  errors = sl_problems_panel_count (problems_panel, SL_SEVERITY_ERROR) - errors_before;
  warnings = sl_problems_panel_count (problems_panel, SL_SEVERITY_WARNING) - warnings_before;
  g_assert_cmpuint (errors, ==, count_severity (sl_document_get_problems (document), SL_SEVERITY_ERROR));
  g_assert_cmpuint (warnings, ==, count_severity (sl_document_get_problems (document), SL_SEVERITY_WARNING));
  g_assert_cmpuint (errors, >=, 1);
  errors_count = sl_count_format (errors);
  warnings_count = sl_count_format (warnings);
  errors_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s error", "%s errors", errors), errors_count);
  warnings_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s warning", "%s warnings", warnings), warnings_count);
  g_assert_nonnull (strstr (sl_pipeline_page_get_status (SL_PIPELINE_PAGE (document)), errors_text));
  g_assert_nonnull (strstr (sl_pipeline_page_get_status (SL_PIPELINE_PAGE (document)), warnings_text));
  panel_widget_close (PANEL_WIDGET (document));
}

static gboolean
folder_scanned (gpointer data)
{
  return sl_folder_get_state (data) != SL_FOLDER_SCANNING;
}

/* Damaged summaries of the same file name in three runs: the File column
 * tells them apart by their run folder. */
static void
test_problems_file_column (void)
{
  g_autofree char *root = g_build_filename (tmp_root, "workspace", NULL);
  const char *runs[] = { "run_a", "run_b", "\u8fd0\u884c_c" };
  SlProblemsPanel *problems_panel = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  GListModel *model = sl_problems_panel_get_model (problems_panel);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  SlFolder *folder;

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *dir = g_build_filename (root, runs[i], NULL);
      g_autofree char *file = g_build_filename (dir, "events.out.events.summary.1796008984.vm_MS", NULL);
      /* A record length far past the end of the file. */
      static const guint8 bad[] = { 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
      g_assert_true (g_file_set_contents (file, (const char *) bad, sizeof bad, NULL));
    }
  folder = sl_window_open_path (window, root);
  g_assert_nonnull (folder);
  g_assert_true (wait_until (folder_scanned, folder, 30000));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (model, i);
      g_autofree char *label = NULL;
      const char *path = sl_problem_get_path (problem);

      if (path == NULL || !g_str_has_prefix (path, root))
        continue;
      label = sl_problems_panel_dup_file_label (problems_panel, problem);
      /* The run folder, then the file: never the folder all share. */
      g_assert_false (g_str_has_prefix (label, root));
      g_assert_true (g_str_has_suffix (path, label));
      g_assert_nonnull (strchr (label, G_DIR_SEPARATOR));
      g_hash_table_add (seen, g_strdup (label));
    }
  g_assert_cmpuint (g_hash_table_size (seen), ==, G_N_ELEMENTS (runs));
  screenshot ("names-problems.png");
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-names-XXXXXX");
  if (skip_without_display ())
    return 77;

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);
  /* A laptop's screen. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 640);

  g_test_add_func ("/names/graph-search-layers", test_graph_search_layers);
  g_test_add_func ("/names/tooltip-width", test_tooltip_width);
  g_test_add_func ("/names/details-values", test_details_values);
  g_test_add_func ("/names/lineage-run-names", test_lineage_run_names);
  g_test_add_func ("/names/pipeline-fit-and-status", test_pipeline_fit_and_status);
  g_test_add_func ("/names/problems-file-column", test_problems_file_column);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
