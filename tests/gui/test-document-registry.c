/* test-document-registry.c: a kind of document registered by the test
 * itself opens through the window, which knows nothing of it; single
 * files, and folders holding one thing, open their own document; Details
 * and Problems follow the document in front; the folder page offers the
 * buttons kinds declare
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"

#include <glib/gstdio.h>

#include "sl-application.h"
#include "sl-details-panel.h"
#include "sl-document-registry.h"
#include "sl-finding.h"
#include "sl-finding-page.h"
#include "sl-folder-page.h"
#include "sl-problems-panel.h"
#include "sl-timeline-page.h"
#include "sl-window.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

/* A document kind of the test's own: it "loads" in an idle, meets one
 * problem, and keeps the requests it is handed. */

#define TEST_TYPE_GRAPH_DOCUMENT (test_graph_document_get_type ())
G_DECLARE_FINAL_TYPE (TestGraphDocument, test_graph_document, TEST, GRAPH_DOCUMENT, SlDocument)

struct _TestGraphDocument
{
  SlDocument  parent_instance;

  GObject    *item;
  GPtrArray  *requests;
  guint       n_loads;
  guint       selected;
};

G_DEFINE_FINAL_TYPE (TestGraphDocument, test_graph_document, SL_TYPE_DOCUMENT)

static gboolean
finish_loading_cb (gpointer data)
{
  g_autoptr(TestGraphDocument) self = data;
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, "Graph", sl_document_get_path (SL_DOCUMENT (self)),
                                                 42, "node 7 has no inputs");

  sl_document_add_problem (SL_DOCUMENT (self), problem);
  sl_document_set_progress (SL_DOCUMENT (self), 1.0);
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
  return G_SOURCE_REMOVE;
}

static void
test_graph_document_load (SlDocument *document)
{
  TEST_GRAPH_DOCUMENT (document)->n_loads++;
  g_idle_add (finish_loading_cb, g_object_ref (document));
}

static void
test_graph_document_handle_request (SlDocument *document,
                                    GVariant   *request)
{
  TestGraphDocument *self = TEST_GRAPH_DOCUMENT (document);

  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_READY);
  g_ptr_array_add (self->requests, g_variant_ref (request));
}

static gboolean
test_graph_document_describe (SlDocument    *document,
                              SlDescription *details)
{
  TestGraphDocument *self = TEST_GRAPH_DOCUMENT (document);
  g_autofree char *node = g_strdup_printf ("node %u", self->selected);
  const char *rows[] = { "Node", node, NULL };

  if (self->selected == G_MAXUINT)
    return FALSE;
  sl_description_show_rows (details, NULL, "sl-graph-symbolic", "Graph", rows);
  return TRUE;
}

static void
test_graph_document_finalize (GObject *object)
{
  TestGraphDocument *self = TEST_GRAPH_DOCUMENT (object);

  g_clear_object (&self->item);
  g_clear_pointer (&self->requests, g_ptr_array_unref);

  G_OBJECT_CLASS (test_graph_document_parent_class)->finalize (object);
}

static void
test_graph_document_class_init (TestGraphDocumentClass *klass)
{
  SlDocumentClass *document_class = SL_DOCUMENT_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = test_graph_document_finalize;
  document_class->load = test_graph_document_load;
  document_class->handle_request = test_graph_document_handle_request;
  document_class->describe = test_graph_document_describe;
}

static void
test_graph_document_init (TestGraphDocument *self)
{
  self->requests = g_ptr_array_new_with_free_func ((GDestroyNotify)g_variant_unref);
  self->selected = G_MAXUINT;   /* nothing */
  panel_widget_set_child (PANEL_WIDGET (self), gtk_label_new ("graph"));
}

static void
setup_graph (SlDocument *document,
             GObject    *item)
{
  g_set_object (&TEST_GRAPH_DOCUMENT (document)->item, item);
}

static const SlFindingKind graph_findings[] = { SL_FINDING_GRAPH, SL_FINDING_N_KINDS };

static const SlDocumentKind graph_kind = {
  "test-graph", test_graph_document_get_type, "Graph: %s", "sl-graph-symbolic", graph_findings, FALSE, setup_graph,
};

static gboolean
document_ready (gpointer data)
{
  return sl_document_get_state (data) == SL_DOCUMENT_READY;
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static void
test_registered_kind_opens_finding (void)
{
  g_autofree char *path = g_build_filename (tmp_root, "model.pb", NULL);
  g_autofree char *id = g_strdup_printf ("test-graph:%s", path);
  g_autoptr(SlFinding) finding = sl_finding_new (SL_FINDING_GRAPH, path, "model.pb");
  SlProblemsPanel *problems = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  guint warnings = sl_problems_panel_count (problems, SL_SEVERITY_WARNING);
  TestGraphDocument *document;
  GVariant *request;

  /* A finding no view reads opens on the generic finding page; a graph
   * opens in the built-in graph view until a newer kind claims it. */
  g_assert_true (sl_document_registry_lookup_finding (SL_FINDING_TENSOR) == sl_document_registry_lookup ("finding"));
  g_assert_true (sl_document_registry_lookup_finding (SL_FINDING_GRAPH) == sl_document_registry_lookup ("graph"));

  sl_document_registry_register (&graph_kind);
  g_assert_true (sl_document_registry_lookup_finding (SL_FINDING_GRAPH) == &graph_kind);
  g_assert_true (sl_document_registry_lookup ("test-graph") == &graph_kind);

  sl_window_open_item (window, G_OBJECT (finding));
  document = TEST_GRAPH_DOCUMENT (sl_window_find_document (window, id));
  g_assert_nonnull (document);
  g_assert_true (document->item == G_OBJECT (finding));
  g_assert_cmpuint (document->n_loads, ==, 1);
  g_assert_cmpstr (sl_document_get_path (SL_DOCUMENT (document)), ==, path);
  g_assert_cmpstr (panel_widget_get_title (PANEL_WIDGET (document)), ==, "Graph: model.pb");
  g_assert_cmpstr (panel_widget_get_icon_name (PANEL_WIDGET (document)), ==, "sl-graph-symbolic");
  g_assert_true (sl_document_get_workspace (SL_DOCUMENT (document)) == sl_window_get_workspace (window));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (document)), ==, SL_DOCUMENT_LOADING);

  /* A link made while it loads is handed over once it is ready. */
  request = g_variant_new ("(sxxx)", "MatMul", (gint64)10, (gint64)20, (gint64)-1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-document", "(ssv)", "test-graph", path,
                                             request));
  g_assert_cmpuint (document->requests->len, ==, 0);
  g_assert_true (wait_until (document_ready, document, 5000));
  g_assert_cmpuint (document->requests->len, ==, 1);
  g_assert_cmpstr (g_variant_print (g_ptr_array_index (document->requests, 0), FALSE), ==,
                   "('MatMul', 10, 20, -1)");
  g_assert_cmpfloat (sl_document_get_progress (SL_DOCUMENT (document)), ==, 1.0);

  /* Once ready, links apply at once; opening again raises the same one. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-document", "(ssv)", "test-graph", path,
                                             g_variant_new ("(sxxx)", "Add", (gint64)-1, (gint64)-1, (gint64)-1)));
  g_assert_cmpuint (document->requests->len, ==, 2);
  g_assert_cmpuint (document->n_loads, ==, 1);
  sl_window_open_item (window, G_OBJECT (finding));
  g_assert_true (sl_window_find_document (window, id) == PANEL_WIDGET (document));

  /* Its problems reach the Problems panel, its selection Details. */
  g_assert_cmpuint (sl_problems_panel_count (problems, SL_SEVERITY_WARNING), ==, warnings + 1);
  document->selected = 7;
  sl_document_details_changed (SL_DOCUMENT (document));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Node"), ==, "node 7");

  /* An unknown kind opens nothing. */
  g_assert_null (sl_window_open_document (window, "no-such-kind", path, NULL));
  panel_widget_close (PANEL_WIDGET (document));
}

static gboolean
timeline_open (gpointer path)
{
  g_autofree char *id = g_strdup_printf ("timeline:%s", (const char *)path);
  PanelWidget *page = sl_window_find_document (window, id);

  return SL_IS_TIMELINE_PAGE (page) && sl_document_get_state (SL_DOCUMENT (page)) == SL_DOCUMENT_READY;
}

static gboolean
document_open (gpointer id)
{
  return sl_window_find_document (window, id) != NULL;
}

/* The text of the first label under @widget that starts with @prefix. */
static const char *
find_label_text (GtkWidget  *widget,
                 const char *prefix)
{
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix))
    return gtk_label_get_label (GTK_LABEL (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      const char *text = find_label_text (child, prefix);

      if (text != NULL)
        return text;
    }
  return NULL;
}

/* The status line speaks of a scan that starts with @data. */
static gboolean
status_shown (gpointer data)
{
  return find_label_text (GTK_WIDGET (window), data) != NULL;
}

/* A single trace file opens as its timeline, not as a folder page with
 * one row; a folder still shows its page. */
static void
test_single_file_opens_its_document (void)
{
  g_autofree char *folder = g_build_filename (tmp_root, "traces", NULL);
  g_autofree char *path = g_build_filename (folder, "step.json", NULL);
  g_autofree char *folder_id = NULL;
  g_autofree char *file_folder_id = g_strdup_printf ("folder:%s", path);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, "[{\"name\":\"step\",\"ph\":\"X\",\"ts\":0,\"dur\":5,\"pid\":1,\"tid\":1}]",
                                      -1, NULL));

  sl_window_open_path (window, path);
  g_assert_true (wait_until (timeline_open, path, 30000));
  g_assert_null (sl_window_find_document (window, file_folder_id));
  /* It is in the Workspace all the same. */
  g_assert_nonnull (sl_workspace_lookup_folder (sl_window_get_workspace (window), path));
  /* The status line speaks of the scan alone, and of no problems when it
   * met none: the Problems panel also lists the documents'. */
  {
    const char *status = find_label_text (GTK_WIDGET (window), "step.json: ");

    g_assert_nonnull (status);
    g_assert_true (g_str_has_prefix (status, "step.json: 1 found in 1 file ("));
    g_assert_true (g_str_has_suffix (status, " ms)"));
    g_assert_null (strstr (status, "problem"));
  }

  sl_window_open_path (window, folder);
  folder_id = g_strdup_printf ("folder:%s", folder);
  g_assert_true (wait_until (document_open, folder_id, 10000));
}

static gboolean
folder_scanned (gpointer data)
{
  SlFolder *folder = sl_workspace_lookup_folder (sl_window_get_workspace (window), data);

  return folder != NULL && sl_folder_get_state (folder) != SL_FOLDER_SCANNING;
}

static gboolean
timeline_shown (gpointer data)
{
  g_autofree char *id = g_strdup_printf ("timeline:%s", (const char *) data);
  PanelWidget *page = sl_window_find_document (window, id);

  return page != NULL && gtk_widget_get_mapped (GTK_WIDGET (page));
}

static void
write_trace (const char *path)
{
  g_autofree char *folder = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, "[{\"name\":\"step\",\"ph\":\"X\",\"ts\":0,\"dur\":5,\"pid\":1,\"tid\":1}]",
                                      -1, NULL));
}

/* A folder holding one thing shows that thing's document in front, its
 * folder page one tab away; a folder of two shows its page only. */
static void
test_folder_of_one_opens_its_document (void)
{
  g_autofree char *one = g_build_filename (tmp_root, "one-trace", NULL);
  g_autofree char *trace = g_build_filename (one, "only.json", NULL);
  g_autofree char *two = g_build_filename (tmp_root, "two-traces", NULL);
  g_autofree char *first = g_build_filename (two, "a.json", NULL);
  g_autofree char *second = g_build_filename (two, "b.json", NULL);
  g_autofree char *one_id = g_strdup_printf ("folder:%s", one);
  g_autofree char *two_id = g_strdup_printf ("folder:%s", two);
  g_autofree char *first_id = g_strdup_printf ("timeline:%s", first);
  g_autofree char *second_id = g_strdup_printf ("timeline:%s", second);

  write_trace (trace);
  write_trace (first);
  write_trace (second);

  sl_window_open_path (window, one);
  g_assert_true (wait_until (timeline_shown, trace, 30000));
  g_assert_nonnull (sl_window_find_document (window, one_id));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (sl_window_find_document (window, one_id))));

  sl_window_open_path (window, two);
  g_assert_true (wait_until (folder_scanned, two, 30000));
  g_assert_true (wait_until (document_open, two_id, 10000));
  g_assert_null (sl_window_find_document (window, first_id));
  g_assert_null (sl_window_find_document (window, second_id));

  /* A trace cut off is a problem of the scan: the status line counts it. */
  {
    g_autofree char *damaged = g_build_filename (tmp_root, "damaged-traces", NULL);
    g_autofree char *good = g_build_filename (damaged, "good.json", NULL);
    g_autofree char *cut = g_build_filename (damaged, "cut.json", NULL);
    const char *status;

    g_assert_cmpint (g_mkdir_with_parents (damaged, 0755), ==, 0);
    write_trace (good);
    g_assert_true (g_file_set_contents (cut, "[{\"name\":\"step\",\"ph\":\"X\",\"ts\":0,\"dur\":5,\"pid\":1,\"tid\":1},"
                                        " {\"name\":\"st", -1, NULL));
    sl_window_open_path (window, damaged);
    g_assert_true (wait_until (folder_scanned, damaged, 30000));
    g_assert_true (wait_until (status_shown, (gpointer) "damaged-traces: ", 10000));
    status = find_label_text (GTK_WIDGET (window), "damaged-traces: ");
    g_assert_nonnull (status);
    g_assert_true (g_str_has_prefix (status, "damaged-traces: 2 found in 2 files ("));
    g_assert_true (g_str_has_suffix (status, " ms), 1 problem while scanning"));
  }
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static gboolean
model_holds_path (GListModel *problems,
                  const char *path)
{
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (g_strcmp0 (sl_problem_get_path (problem), path) == 0)
        return TRUE;
    }
  return FALSE;
}

static TestGraphDocument *
open_test_graph (const char *name)
{
  g_autofree char *path = g_build_filename (tmp_root, name, NULL);
  g_autofree char *id = g_strdup_printf ("test-graph:%s", path);
  g_autoptr(SlFinding) finding = sl_finding_new (SL_FINDING_GRAPH, path, name);
  TestGraphDocument *document;

  sl_window_open_item (window, G_OBJECT (finding));
  document = TEST_GRAPH_DOCUMENT (sl_window_find_document (window, id));
  g_assert_nonnull (document);
  g_assert_true (wait_until (document_ready, document, 5000));
  return document;
}

/* A document says what is selected in it and which problems it met, as
 * properties; Details and Problems follow the document in front. */
static void
test_front_document_drives_details_and_problems (void)
{
  SlProblemsPanel *problems = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  GListModel *shown = sl_problems_panel_get_model (problems);
  g_autoptr(SlProblem) own = sl_problem_new (SL_SEVERITY_ERROR, "Scan", "/elsewhere/own.txt", 0, "the window's own");
  TestGraphDocument *first, *second;
  g_autoptr(GListModel) first_problems = NULL;
  guint notified = 0;
  guint errors;

  if (sl_document_registry_lookup ("test-graph") == NULL)
    sl_document_registry_register (&graph_kind);
  sl_window_add_problem (window, own);
  errors = sl_problems_panel_count (problems, SL_SEVERITY_ERROR);

  first = open_test_graph ("first.pb");
  second = open_test_graph ("second.pb");

  /* The problems model is a property, the one the document fills. */
  g_object_get (first, "problems", &first_problems, NULL);
  g_assert_true (first_problems == sl_document_get_problems (SL_DOCUMENT (first)));
  g_assert_cmpuint (g_list_model_get_n_items (first_problems), ==, 1);

  /* The second, opened last, is in front: its problems show, not the
   * first's; the window's own stay. */
  g_assert_true (sl_problems_panel_get_document (problems) == SL_DOCUMENT (second));
  g_assert_true (sl_details_panel_get_document (details) == SL_DOCUMENT (second));
  g_assert_true (model_holds_path (shown, sl_document_get_path (SL_DOCUMENT (second))));
  g_assert_false (model_holds_path (shown, sl_document_get_path (SL_DOCUMENT (first))));
  g_assert_true (model_holds_path (shown, "/elsewhere/own.txt"));
  g_assert_cmpuint (sl_problems_panel_count (problems, SL_SEVERITY_ERROR), ==, errors);

  /* Nothing is selected in it yet: no selection, Details keeps nothing. */
  g_assert_null (sl_document_get_selection (SL_DOCUMENT (second)));
  g_assert_null (sl_details_panel_lookup (details, "Node"));

  /* Selecting notifies the selection, which Details shows. */
  g_signal_connect (second, "notify::selection", G_CALLBACK (count_notify_cb), &notified);
  second->selected = 5;
  sl_document_details_changed (SL_DOCUMENT (second));
  g_assert_cmpuint (notified, ==, 1);
  g_assert_nonnull (sl_document_get_selection (SL_DOCUMENT (second)));
  g_assert_cmpstr (sl_description_lookup (sl_document_get_selection (SL_DOCUMENT (second)), "Node"), ==, "node 5");
  g_assert_cmpstr (sl_details_panel_lookup (details, "Node"), ==, "node 5");
  g_signal_handlers_disconnect_by_func (second, count_notify_cb, &notified);

  /* The first in front: Details and Problems switch to it. It has no
   * selection, so Details shows none rather than the second's. */
  panel_widget_raise (PANEL_WIDGET (first));
  g_assert_true (sl_details_panel_get_document (details) == SL_DOCUMENT (first));
  g_assert_true (sl_problems_panel_get_document (problems) == SL_DOCUMENT (first));
  g_assert_null (sl_details_panel_lookup (details, "Node"));
  g_assert_true (model_holds_path (shown, sl_document_get_path (SL_DOCUMENT (first))));
  g_assert_false (model_holds_path (shown, sl_document_get_path (SL_DOCUMENT (second))));
  g_assert_true (model_holds_path (shown, "/elsewhere/own.txt"));

  first->selected = 3;
  sl_document_details_changed (SL_DOCUMENT (first));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Node"), ==, "node 3");

  /* Back to the second: its selection, its problems. */
  panel_widget_raise (PANEL_WIDGET (second));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Node"), ==, "node 5");
  g_assert_true (model_holds_path (shown, sl_document_get_path (SL_DOCUMENT (second))));
  g_assert_false (model_holds_path (shown, sl_document_get_path (SL_DOCUMENT (first))));

  /* A problem the document in front adds shows at once; one it drops
   * leaves. */
  {
    g_autoptr(SlProblem) late = sl_problem_new (SL_SEVERITY_ERROR, "Graph", "/elsewhere/late.pb", 1, "late");

    sl_document_add_problem (SL_DOCUMENT (second), late);
    g_assert_true (model_holds_path (shown, "/elsewhere/late.pb"));
    g_assert_cmpuint (sl_problems_panel_count (problems, SL_SEVERITY_ERROR), ==, errors + 1);
    sl_document_clear_problems (SL_DOCUMENT (second));
    g_assert_false (model_holds_path (shown, "/elsewhere/late.pb"));
    g_assert_cmpuint (sl_problems_panel_count (problems, SL_SEVERITY_ERROR), ==, errors);
  }

  /* Closing the documents takes their problems and selection away. */
  panel_widget_close (PANEL_WIDGET (second));
  panel_widget_close (PANEL_WIDGET (first));
  g_assert_null (sl_details_panel_lookup (details, "Node"));
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (shown, i);

      g_assert_false (g_str_has_suffix (sl_problem_get_path (problem), ".pb"));
    }
  g_assert_true (model_holds_path (shown, "/elsewhere/own.txt"));
}

/* The folder page offers what a kind declares, in the header of the group
 * the kind names; it knows no kind itself. */
static void
add_pair_button (GListModel         *findings,
                 const char         *folder_path,
                 SlFolderButtonFunc  add,
                 gpointer            data)
{
  guint traces = 0;

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

      traces += sl_finding_get_kind (finding) == SL_FINDING_TRACE;
    }
  if (traces >= 2)
    add (sl_document_registry_new_button (sl_document_registry_lookup ("test-pair"), folder_path, "Pair Traces",
                                          "Two traces side by side"),
         SL_FINDING_TRACE, data);
}

static const SlDocumentKind pair_kind = {
  "test-pair", test_graph_document_get_type, "Pair: %s", "sl-graph-symbolic", NULL, FALSE, NULL,
  .add_folder_buttons = add_pair_button,
};

static GtkWidget *
find_button_labelled (GtkWidget  *widget,
                      const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button_labelled (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The folder page of @folder holding two traces, a.json and b.json. */
static PanelWidget *
open_folder_of_two_traces (const char *folder)
{
  g_autofree char *first = g_build_filename (folder, "a.json", NULL);
  g_autofree char *second = g_build_filename (folder, "b.json", NULL);
  g_autofree char *folder_id = g_strdup_printf ("folder:%s", folder);

  write_trace (first);
  write_trace (second);
  sl_window_open_path (window, folder);
  g_assert_true (wait_until (folder_scanned, (gpointer) folder, 30000));
  g_assert_true (wait_until (document_open, folder_id, 10000));
  return sl_window_find_document (window, folder_id);
}

static void
test_folder_page_offers_declared_buttons (void)
{
  g_autofree char *folder = g_build_filename (tmp_root, "pair-traces", NULL);
  g_autoptr(GVariant) expected = NULL;
  PanelWidget *page;
  GtkWidget *button;

  sl_document_registry_register (&pair_kind);
  page = open_folder_of_two_traces (folder);

  button = find_button_labelled (GTK_WIDGET (page), "Pair Traces");
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.open-document");
  expected = g_variant_ref_sink (g_variant_new ("(ssv)", "test-pair", folder, g_variant_new ("()")));
  g_assert_true (g_variant_equal (gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button)), expected));
  /* A built-in kind's button is offered the same way: two profiles
   * compared, two tensor dumps; not here, where neither is. */
  g_assert_null (find_button_labelled (GTK_WIDGET (page), "Compare Profiles"));
  panel_widget_close (page);
}

/* A kind of two paths is addressed by both, in order, never by one joined
 * string: the folder page's button carries them as a list, the document
 * opened holds them apart (a folder whose name holds a newline stays one
 * path), the same pair raises the same tab, and the session's request
 * opens it too. */
static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
add_two_traces_button (GListModel         *findings,
                       const char         *folder_path,
                       SlFolderButtonFunc  add,
                       gpointer            data)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SlDocumentAddress) address = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

      if (sl_finding_get_kind (finding) == SL_FINDING_TRACE)
        g_ptr_array_add (traces, g_strdup (sl_finding_get_path (finding)));
    }
  if (traces->len < 2)
    return;
  g_ptr_array_sort (traces, compare_strings);
  address = sl_document_address_new_pair (traces->pdata[0], traces->pdata[1]);
  add (sl_document_registry_new_address_button (sl_document_registry_lookup ("test-two"), address, "Two Traces",
                                                "The first trace against the second"),
       SL_FINDING_TRACE, data);
}

static const SlDocumentKind two_kind = {
  "test-two", test_graph_document_get_type, "Two: %s", "sl-graph-symbolic", NULL, FALSE, NULL,
  .n_paths = 2, .add_folder_buttons = add_two_traces_button,
};

static void
test_two_path_kind_is_addressed_by_its_paths (void)
{
  /* A newline in a folder's name: a path of its own, not two. */
  g_autofree char *folder = g_build_filename (tmp_root, "two\ntraces", NULL);
  g_autofree char *first = g_build_filename (folder, "a.json", NULL);
  g_autofree char *second = g_build_filename (folder, "b.json", NULL);
  g_autoptr(SlDocumentAddress) address = sl_document_address_new_pair (first, second);
  g_autoptr(SlDocumentAddress) reversed = sl_document_address_new_pair (second, first);
  g_autofree char *id = NULL;
  g_autofree char *reversed_id = NULL;
  g_autoptr(GVariant) expected = NULL;
  PanelWidget *page;
  PanelWidget *document;
  GtkWidget *button;
  guint n_documents;

  sl_document_registry_register (&two_kind);
  id = sl_document_registry_dup_address_id (&two_kind, address);
  reversed_id = sl_document_registry_dup_address_id (&two_kind, reversed);
  g_assert_cmpstr (id, !=, reversed_id);
  page = open_folder_of_two_traces (folder);

  button = find_button_labelled (GTK_WIDGET (page), "Two Traces");
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.open-paths");
  {
    const char *paths[] = { first, second, NULL };

    expected = g_variant_ref_sink (g_variant_new ("(s^asv)", "test-two", paths, g_variant_new ("()")));
  }
  g_assert_true (g_variant_equal (gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button)), expected));

  g_signal_emit_by_name (button, "clicked");
  document = sl_window_find_document (window, id);
  g_assert_nonnull (document);
  g_assert_true (sl_document_address_equal (sl_document_get_address (SL_DOCUMENT (document)), address));
  g_assert_cmpuint (sl_document_address_get_n_paths (sl_document_get_address (SL_DOCUMENT (document))), ==, 2);
  g_assert_cmpstr (sl_document_address_get_path (sl_document_get_address (SL_DOCUMENT (document)), 0), ==, first);
  g_assert_cmpstr (sl_document_address_get_path (sl_document_get_address (SL_DOCUMENT (document)), 1), ==, second);
  g_assert_cmpstr (sl_document_get_path (SL_DOCUMENT (document)), ==, first);
  g_assert_cmpstr (panel_widget_get_title (document), ==, "Two: b.json");
  n_documents = sl_window_get_n_documents (window);

  /* The same pair raises the same tab, from the action or the session;
   * the pair the other way round is another comparison. */
  g_signal_emit_by_name (button, "clicked");
  sl_session_request_open_address (sl_window_get_session (window), "test-two", address, NULL);
  g_assert_cmpuint (sl_window_get_n_documents (window), ==, n_documents);
  sl_session_request_open_address (sl_window_get_session (window), "test-two", reversed, NULL);
  g_assert_cmpuint (sl_window_get_n_documents (window), ==, n_documents + 1);
  g_assert_nonnull (sl_window_find_document (window, reversed_id));

  /* No path, an empty one, or a kind nobody registered opens nothing. */
  {
    const char *empty[] = { first, "", NULL };

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-paths", "(s^asv)", "test-two",
                                               (const char * const[]) { NULL }, g_variant_new ("()")));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-paths", "(s^asv)", "test-two", empty,
                                               g_variant_new ("()")));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-paths", "(s^asv)", "no-such-kind",
                                               (const char * const[]) { first, second, NULL }, g_variant_new ("()")));
    g_assert_cmpuint (sl_window_get_n_documents (window), ==, n_documents + 1);
  }

  panel_widget_close (sl_window_find_document (window, reversed_id));
  panel_widget_close (document);
  panel_widget_close (page);
}

/* The folder and finding pages show a template child as their own: closing
 * them frees it once (fatal criticals catch an unparent of a freed child). */
static void
test_folder_and_finding_pages_close (void)
{
  g_autofree char *folder = g_build_filename (tmp_root, "closing", NULL);
  g_autofree char *first = g_build_filename (folder, "a.json", NULL);
  g_autofree char *second = g_build_filename (folder, "b.json", NULL);
  g_autofree char *folder_id = g_strdup_printf ("folder:%s", folder);
  g_autofree char *tensor_path = g_build_filename (tmp_root, "x.npy", NULL);
  g_autofree char *finding_id = g_strdup_printf ("finding:%s", tensor_path);
  g_autoptr(SlFinding) tensor = sl_finding_new (SL_FINDING_TENSOR, tensor_path, "x.npy");
  PanelWidget *page;

  write_trace (first);
  write_trace (second);
  sl_window_open_path (window, folder);
  g_assert_true (wait_until (folder_scanned, folder, 30000));
  g_assert_true (wait_until (document_open, folder_id, 10000));
  page = sl_window_find_document (window, folder_id);
  g_assert_true (SL_IS_FOLDER_PAGE (page));
  panel_widget_close (page);
  g_assert_null (sl_window_find_document (window, folder_id));

  sl_window_open_item (window, G_OBJECT (tensor));
  page = sl_window_find_document (window, finding_id);
  g_assert_true (SL_IS_FINDING_PAGE (page));
  panel_widget_close (page);
  g_assert_null (sl_window_find_document (window, finding_id));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = NULL;
  int status;

  tmp_root = g_dir_make_tmp ("sl-registry-XXXXXX", NULL);
  data_home = g_build_filename (tmp_root, "data-home", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  app = sl_application_new ();
  g_application_set_flags (G_APPLICATION (app), g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);
  g_application_activate (G_APPLICATION (app));
  window = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (window);
  g_assert_true (wait_until (window_mapped, window, 30000));

  g_test_add_func ("/registry/registered-kind-opens-finding", test_registered_kind_opens_finding);
  g_test_add_func ("/registry/single-file-opens-its-document", test_single_file_opens_its_document);
  g_test_add_func ("/registry/folder-of-one-opens-its-document", test_folder_of_one_opens_its_document);
  g_test_add_func ("/registry/front-document-drives-details-and-problems",
                   test_front_document_drives_details_and_problems);
  g_test_add_func ("/registry/folder-page-offers-declared-buttons", test_folder_page_offers_declared_buttons);
  g_test_add_func ("/registry/folder-and-finding-pages-close", test_folder_and_finding_pages_close);
  g_test_add_func ("/registry/two-path-kind-is-addressed-by-its-paths", test_two_path_kind_is_addressed_by_its_paths);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
