/* test-conversion-page.c: a converted model's ops against its source's
 *
 * Two GraphDef text models written here stand for an ATC conversion: the
 * source's convolution, bias and ReLU fused into one op carrying GE's
 * `_datadump_original_op_names`, a TransData and a Cast inserted, an op
 * renamed with a multi-batch suffix, an Identity gone. The document is
 * opened as `sightline --document conversion SOURCE CONVERTED` opens it,
 * in a 1024 × 640 window: its size, rows, counts and status filter; an
 * op's name and its source's Show open each graph at the op; the request
 * of the Convert dialog's button opens both graphs beside the table; a
 * folder holding a model and an .om offers the pair; a path that holds
 * no model fails with the reason.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "gui-test-util.h"
#include "sl-conversion-page.h"
#include "sl-conversion-row.h"
#include "sl-document-registry.h"
#include "sl-document-target.h"
#include "sl-graph-page.h"
#include "sl-window-report.h"

#define WIDTH 1024
#define HEIGHT 640

static SlApplication *app;
static char *tmp_root;

static const char source_pbtxt[] =
  "node { name: \"x\" op: \"Placeholder\" }\n"
  "node { name: \"net/conv\" op: \"Conv2D\" input: \"x\" }\n"
  "node { name: \"net/bias\" op: \"BiasAdd\" input: \"net/conv\" }\n"
  "node { name: \"net/relu\" op: \"Relu\" input: \"net/bias\" }\n"
  "node { name: \"net/id\" op: \"Identity\" input: \"net/relu\" }\n"
  "node { name: \"net/fc\" op: \"MatMul\" input: \"net/id\" }\n"
  "node { name: \"out\" op: \"Softmax\" input: \"net/fc\" }\n";

static const char converted_pbtxt[] =
  "node { name: \"x\" op: \"Data\" }\n"
  "node { name: \"trans_TransData_0\" op: \"TransData\" input: \"x\" }\n"
  "node { name: \"net/conv_fused\" op: \"Conv2D\" input: \"trans_TransData_0\"\n"
  "  attr { key: \"_datadump_original_op_names\"\n"
  "         value { list { s: \"net/conv\" s: \"net/bias\" s: \"net/relu\" } } } }\n"
  "node { name: \"trans_Cast_0\" op: \"Cast\" input: \"net/conv_fused\" }\n"
  "node { name: \"net/fc_ascend_mbatch_batch_0\" op: \"MatMulV2\" input: \"trans_Cast_0\" }\n"
  "node { name: \"out\" op: \"SoftmaxV2\" input: \"net/fc_ascend_mbatch_batch_0\" }\n";

static char *
write_file (const char *name,
            const char *text)
{
  char *path = g_build_filename (tmp_root, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static gboolean
document_loaded (gpointer data)
{
  SlDocument *document = data;

  return gtk_widget_get_mapped (GTK_WIDGET (document)) && sl_document_get_state (document) != SL_DOCUMENT_LOADING;
}

static gboolean
graph_selected (gpointer data)
{
  PanelWidget *page = data;
  SlDescription *selection;

  if (sl_document_get_state (SL_DOCUMENT (page)) != SL_DOCUMENT_READY)
    return FALSE;
  selection = sl_document_get_selection (SL_DOCUMENT (page));
  return sl_description_get_title (selection) != NULL;
}

static SlWindow *
new_window (void)
{
  SlWindow *window = sl_window_new (GTK_APPLICATION (app), sl_application_get_session (app));

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  return window;
}

static SlDocument *
open_conversion (SlWindow   *window,
                 const char *source,
                 const char *converted)
{
  const char *paths[] = { source, converted };
  g_autoptr(SlDocumentTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  SlDocument *document;

  /* As `sightline --document conversion SOURCE CONVERTED` does. */
  target = sl_document_target_resolve ("conversion", paths, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (target->kind->id, ==, "conversion");
  document = sl_window_open_address (window, target->kind->id, target->address, NULL);
  g_assert_nonnull (document);
  g_assert_true (SL_IS_CONVERSION_PAGE (document));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (document_loaded, document, 60000));
  return document;
}

static guint
count_status (GListModel            *rows,
              SlConversionRowStatus  status)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlConversionRow) row = g_list_model_get_item (rows, i);

      n += sl_conversion_row_get_status (row) == status;
    }
  return n;
}

static GtkLabel *
find_label_starting (GtkWidget  *widget,
                     const char *prefix)
{
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix))
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label_starting (child, prefix);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_table (void)
{
  g_autofree char *source = write_file ("model.pbtxt", source_pbtxt);
  g_autofree char *converted = write_file ("model_om.pbtxt", converted_pbtxt);
  g_autofree char *graph_id = g_strconcat ("graph:", converted, NULL);
  g_autofree char *source_graph_id = g_strconcat ("graph:", source, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  SlWindow *window = new_window ();
  SlDocument *document = open_conversion (window, source, converted);
  SlConversionPage *page = SL_CONVERSION_PAGE (document);
  GListModel *rows = sl_conversion_page_get_rows (page);
  PanelWidget *graph;
  int min_width, min_height;

  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "conversion-page.png");

  /* 1024 × 640: asked for and given no more, nothing drawn past the edge. */
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, -1, &min_height, NULL, NULL, NULL);
  g_assert_cmpint (min_width, <=, WIDTH);
  g_assert_cmpint (min_height, <=, HEIGHT);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, WIDTH);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, HEIGHT);
  json = sl_window_report_to_json (window);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                                                         "overflowing")), ==, 0);

  /* Six converted ops and the Identity that vanished. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 7);
  g_assert_cmpuint (count_status (rows, SL_CONVERSION_ROW_KEPT), ==, 3);
  g_assert_cmpuint (count_status (rows, SL_CONVERSION_ROW_FUSED), ==, 1);
  g_assert_cmpuint (count_status (rows, SL_CONVERSION_ROW_INSERTED), ==, 2);
  g_assert_cmpuint (count_status (rows, SL_CONVERSION_ROW_REMOVED), ==, 1);
  g_assert_nonnull (find_label_starting (GTK_WIDGET (page), "3 kept · 1 fused · 2 inserted · 1 removed"));

  /* Filtered by status. */
  sl_conversion_page_set_status_filter (page, SL_CONVERSION_ROW_INSERTED);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  sl_conversion_page_set_status_filter (page, SL_CONVERSION_ROW_FUSED);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1);
  {
    g_autoptr(SlConversionRow) row = g_list_model_get_item (rows, 0);
    g_autofree char *sources = sl_conversion_row_dup_sources (row);

    g_assert_cmpstr (sl_conversion_row_get_name (row), ==, "net/conv_fused");
    g_assert_cmpstr (sources, ==, "net/conv, net/bias, net/relu");
  }

  /* Details link the op and each source op. */
  sl_conversion_page_select (page, 0);
  {
    SlDescription *details = sl_document_get_selection (document);
    guint links = 0;

    g_assert_cmpstr (sl_description_get_title (details), ==, "net/conv_fused");
    for (guint i = 0; i < sl_description_get_n_rows (details); i++)
      links += sl_description_get_row_kind (details, i) == SL_DESCRIPTION_ROW_LINK;
    g_assert_cmpuint (links, ==, 4);
  }
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "conversion-page-fused.png");
  sl_conversion_page_set_status_filter (page, -1);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 7);

  /* The op's name opens the converted graph at it, selected. */
  gtk_widget_activate_action (GTK_WIDGET (page), "win.open-document", "(ssv)", "graph", converted,
                              g_variant_new ("(s)", "net/conv_fused"));
  graph = sl_window_find_document (window, graph_id);
  g_assert_nonnull (graph);
  g_assert_true (wait_until (graph_selected, graph, 60000));
  g_assert_cmpstr (sl_description_get_title (sl_document_get_selection (SL_DOCUMENT (graph))), ==, "conv_fused");

  /* Open Both Graphs: the source's opens too; the table stays in front. */
  sl_document_request (document, sl_conversion_page_new_open_request ());
  g_assert_nonnull (sl_window_find_document (window, source_graph_id));
  wait_for_frames (GTK_WIDGET (window));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (document)));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
collect_button (GtkWidget     *button,
                SlFindingKind  group,
                gpointer       data)
{
  g_assert_cmpint (group, ==, SL_FINDING_GRAPH);
  g_ptr_array_add (data, g_object_ref_sink (button));
}

static GPtrArray *
folder_buttons (const char * const *paths)
{
  const SlDocumentKind *kind = sl_document_registry_lookup ("conversion");
  g_autoptr(GListStore) findings = g_list_store_new (SL_TYPE_FINDING);
  GPtrArray *buttons = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *name = g_path_get_basename (paths[i]);
      g_autoptr(SlFinding) finding = sl_finding_new (SL_FINDING_GRAPH, paths[i], name);

      g_list_store_append (findings, finding);
    }
  g_assert_nonnull (kind);
  g_assert_nonnull (kind->add_folder_buttons);
  kind->add_folder_buttons (G_LIST_MODEL (findings), tmp_root, collect_button, buttons);
  return buttons;
}

/* A folder holding a model and an .om offers the pair; one without an
 * .om offers nothing. */
static void
test_folder_button (void)
{
  g_autofree char *source = write_file ("resnet50.pbtxt", source_pbtxt);
  g_autofree char *other = write_file ("other.pbtxt", source_pbtxt);
  g_autofree char *om = write_file ("resnet50.om", converted_pbtxt);
  const char *with_om[] = { other, om, source, NULL };
  const char *without[] = { other, source, NULL };
  g_autoptr(GPtrArray) buttons = folder_buttons (with_om);
  g_autoptr(GPtrArray) none = folder_buttons (without);
  g_autofree char *expected = g_strdup_printf ("('conversion', ['%s', '%s'], <('graphs',)>)", source, om);
  g_autofree char *target = NULL;

  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (buttons->len, ==, 1);
  g_assert_cmpstr (gtk_actionable_get_action_name (g_ptr_array_index (buttons, 0)), ==, "win.open-paths");
  target = g_variant_print (gtk_actionable_get_action_target_value (g_ptr_array_index (buttons, 0)), FALSE);
  g_assert_cmpstr (target, ==, expected);
}

/* A path that holds no model with ops: the document says which. */
static void
test_failure (void)
{
  g_autofree char *source = write_file ("model.pbtxt", source_pbtxt);
  g_autofree char *empty = write_file ("empty.pbtxt", "versions { producer: 1 }\n");
  g_autoptr(SlDocumentAddress) address = sl_document_address_new_pair (source, empty);
  SlWindow *window = new_window ();
  SlDocument *document = sl_window_open_address (window, "conversion", address, NULL);

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (document_loaded, document, 60000));
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_FAILED);
  g_assert_nonnull (strstr (sl_document_get_error (document), "empty.pbtxt"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A converted model cut off in its last node: the ops before the cut are
 * matched, and the Problems panel names the file and the byte of the
 * cut; the whole source model has none. */
static void
test_cut_model (void)
{
  const char *last = strstr (converted_pbtxt, "node { name: \"out\"");
  g_autofree char *cut_text = g_strndup (converted_pbtxt, last - converted_pbtxt + 20);
  g_autofree char *source = write_file ("model.pbtxt", source_pbtxt);
  g_autofree char *cut = write_file ("cut_om.pbtxt", cut_text);
  g_autoptr(SlProblem) problem = NULL;
  SlWindow *window = new_window ();
  SlDocument *document = open_conversion (window, source, cut);
  GListModel *problems;

  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  problems = sl_document_get_problems (document);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, cut);
  g_assert_cmpint (sl_problem_get_offset (problem), >=, (gint64) (last - converted_pbtxt));
  g_assert_cmpint (sl_problem_get_offset (problem), <=, (gint64) strlen (cut_text));
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cache_home = NULL;
  int status;

  tmp_root = make_test_home ("sl-conversion-page-XXXXXX");
  cache_home = g_build_filename (tmp_root, "cache-home", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);

  if (skip_without_display ())
    return 77;

  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  app = sl_application_new ();
  g_application_set_flags (G_APPLICATION (app), g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);

  g_test_add_func ("/conversion-page/table", test_table);
  g_test_add_func ("/conversion-page/failure", test_failure);
  g_test_add_func ("/conversion-page/cut-model", test_cut_model);
  g_test_add_func ("/conversion-page/folder-button", test_folder_button);
  status = g_test_run ();

  g_clear_object (&app);
  g_free (tmp_root);
  return status;
}
