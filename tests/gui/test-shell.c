/* test-shell.c: the workbench shell driven in-process, on the real widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gui-test-util.h"

#include <glib/gstdio.h>

#include "sl-application.h"
#include "sl-console-panel.h"
#include "sl-demo-workspace.h"
#include "sl-details-panel.h"
#include "sl-finding.h"
#include "sl-image-card.h"
#include "sl-folder-page.h"
#include "sl-preferences-window.h"
#include "sl-problems-panel.h"
#include "sl-profile-page.h"
#include "sl-timeline-page.h"
#include "sl-scalar-card.h"
#include "sl-scalars-page.h"
#include "sl-summary-writer.h"
#include "sl-window.h"
#include "sl-workspace-panel.h"

#define DEFAULT_LAYOUT "workspace:start:0 problems:bottom:0 console:bottom:0 details:end:0"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;


static gboolean
scans_done (gpointer data)
{
  return sl_workspace_get_n_scanning (sl_window_get_workspace (data)) == 0;
}

static gboolean
window_idle (gpointer data)
{
  return !sl_window_is_busy (data);
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static char *
make_dir (const char *name)
{
  char *path = g_build_filename (tmp_root, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
  return path;
}

/* The folder page's stack follows its state: the page named @name shows */
static void
assert_stack_shows (PanelWidget *page,
                    const char  *name)
{
  GtkStack *stack = GTK_STACK (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_FOLDER_PAGE, "stack"));

  g_assert_nonnull (gtk_stack_get_child_by_name (stack, name));
  g_assert_true (gtk_stack_get_visible_child (stack) == gtk_stack_get_child_by_name (stack, name));
}

static void
test_panels_in_default_places (void)
{
  g_autofree char *layout = sl_window_describe_layout (window);
  static const char *ids[] = { "workspace", "problems", "console", "details" };

  g_assert_cmpstr (layout, ==, DEFAULT_LAYOUT);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      PanelWidget *panel = sl_window_find_panel (window, ids[i]);

      g_assert_nonnull (panel);
      g_assert_nonnull (panel_widget_get_title (panel));
    }
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (sl_window_find_panel (window, "workspace"))));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (sl_window_find_panel (window, "details"))));
}

static int
bottom_height (void)
{
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (sl_window_find_panel (window, "problems")), PANEL_TYPE_PANED);

  wait_for_frames (GTK_WIDGET (window));
  wait_for_frames (GTK_WIDGET (window));
  return gtk_widget_get_height (paned);
}

/* The bottom panels are short while Problems has nothing to show, and
 * grow when a problem arrives; a height nobody chose is not saved. */
static void
test_bottom_dock_follows_problems (void)
{
  SlSession *session = sl_window_get_session (window);
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, "Test", "/nowhere/file", -1, "a problem");
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GVariant) layout = NULL;
  int empty, full;

  sl_session_clear_problems (session);
  empty = bottom_height ();
  g_assert_cmpint (empty, >=, 100);
  g_assert_cmpint (empty, <=, 130);

  sl_session_add_problem (session, problem);
  full = bottom_height ();
  g_assert_cmpint (full, >=, 200);
  g_assert_cmpint (full, <=, 230);

  sl_session_clear_problems (session);
  g_assert_cmpint (bottom_height (), ==, empty);

  sl_window_save_state (window);
  layout = g_settings_get_value (settings, "layout");
  g_assert_false (g_variant_lookup (layout, "size-bottom", "i", NULL));
  g_assert_true (g_variant_lookup (layout, "panels", "a(ssuub)", NULL));
}

static void
test_layout_saved_and_restored (void)
{
  g_autofree char *moved = NULL;
  g_autofree char *restored = NULL;
  g_autofree char *reset = NULL;
  SlWindow *second;

  g_assert_true (sl_window_move_panel (window, "problems", "end"));
  g_assert_true (sl_window_move_panel (window, "workspace", "bottom"));
  g_assert_false (sl_window_move_panel (window, "no-such-panel", "end"));
  g_assert_false (sl_window_move_panel (window, "console", "nowhere"));
  moved = sl_window_describe_layout (window);
  g_assert_nonnull (strstr (moved, "problems:end:0"));
  g_assert_nonnull (strstr (moved, "workspace:bottom:0"));
  g_assert_nonnull (strstr (moved, "details:end:0"));

  /* Quit saves; the next window starts where this one was. */
  sl_window_save_state (window);
  second = sl_window_new (GTK_APPLICATION (app), sl_application_get_session (app));
  restored = sl_window_describe_layout (second);
  g_assert_cmpstr (restored, ==, moved);
  gtk_window_destroy (GTK_WINDOW (second));

  sl_window_reset_layout (window);
  reset = sl_window_describe_layout (window);
  g_assert_cmpstr (reset, ==, DEFAULT_LAYOUT);

  /* A reset also forgets the saved layout. */
  second = sl_window_new (GTK_APPLICATION (app), sl_application_get_session (app));
  g_free (restored);
  restored = sl_window_describe_layout (second);
  g_assert_cmpstr (restored, ==, DEFAULT_LAYOUT);
  gtk_window_destroy (GTK_WINDOW (second));
}

static void
test_closed_panel_comes_back (void)
{
  PanelWidget *problems = sl_window_find_panel (window, "problems");
  g_autofree char *closed = NULL;
  g_autofree char *shown = NULL;

  panel_widget_close (problems);
  closed = sl_window_describe_layout (window);
  g_assert_null (strstr (closed, "problems:"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-panel", "s", "problems"));
  shown = sl_window_describe_layout (window);
  g_assert_cmpstr (shown, ==, DEFAULT_LAYOUT);
  g_assert_true (sl_window_find_panel (window, "problems") == problems);
}

static void
test_damaged_layout_setting_ignored (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *layout = NULL;
  GVariantBuilder builder;
  SlWindow *second;

  /* A future or damaged layout must not move panels to odd places. */
  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&builder, "{sv}", "version", g_variant_new_uint32 (1));
  g_variant_builder_add (&builder, "{sv}", "panels", g_variant_new_string ("garbage"));
  g_variant_builder_add (&builder, "{sv}", "size-start", g_variant_new_string ("wide"));
  g_settings_set_value (settings, "layout", g_variant_builder_end (&builder));

  second = sl_window_new (GTK_APPLICATION (app), sl_application_get_session (app));
  layout = sl_window_describe_layout (second);
  g_assert_cmpstr (layout, ==, DEFAULT_LAYOUT);
  gtk_window_destroy (GTK_WINDOW (second));
  g_settings_reset (settings, "layout");
}

static void
test_open_folder_lists_findings (void)
{
  g_autofree char *demo = g_build_filename (tmp_root, "demo", NULL);
  g_autofree char *id = NULL;
  SlWorkspacePanel *workspace;
  PanelWidget *page;
  SlFolder *folder;
  gboolean folder_row = FALSE;
  guint finding_rows = 0;

  g_assert_true (sl_demo_workspace_ensure (demo, NULL));
  folder = sl_window_open_path (window, demo);
  g_assert_nonnull (folder);
  g_assert_true (wait_until (scans_done, window, 30000));

  g_assert_cmpint (sl_folder_get_state (folder), ==, SL_FOLDER_READY);
  g_assert_cmpuint (g_list_model_get_n_items (sl_folder_get_findings (folder)), ==, 2);

  /* The demo training job fills train/summary; when it ends, the folder it
   * ran in is scanned again and the run appears. */
  {
    g_autofree char *summary_dir = g_build_filename (demo, "train", "summary", NULL);
    const char *argv[] = { g_getenv ("SIGHTLINE_DEMO_TRAIN"), "--epochs", "2", "--summary-dir", summary_dir, NULL };

    g_assert_nonnull (argv[0]);
    sl_window_run_argv (window, argv, demo);
    g_assert_true (wait_until (window_idle, window, 60000));
  }
  g_assert_cmpuint (g_list_model_get_n_items (sl_folder_get_findings (folder)), ==, 3);

  id = g_strdup_printf ("folder:%s", sl_folder_get_path (folder));
  page = sl_window_find_document (window, id);
  g_assert_true (SL_IS_FOLDER_PAGE (page));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  assert_stack_shows (page, "findings");

  workspace = SL_WORKSPACE_PANEL (sl_window_find_panel (window, "workspace"));
  for (guint i = 0; i < sl_workspace_panel_get_n_rows (workspace); i++)
    {
      g_autoptr(GObject) item = sl_workspace_panel_get_row_item (workspace, i);

      folder_row |= item == G_OBJECT (folder);
      finding_rows += SL_IS_FINDING (item);
    }
  g_assert_true (folder_row);
  g_assert_cmpuint (finding_rows, >=, 3);

  /* The run index in the workspace database follows, from a worker. */
  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr(GPtrArray) runs = sl_workspace_run_sync (sl_window_get_workspace (window), list_runs_func,
                                                         (gpointer)sl_folder_get_path (folder), NULL);

      if (runs != NULL && runs->len == 3)
        break;
      g_assert_cmpuint (i, <, 999);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }

  /* Opening it again rescans rather than adding it twice. */
  g_assert_true (sl_window_open_path (window, demo) == folder);
  g_assert_true (wait_until (scans_done, window, 30000));
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_folders (sl_window_get_workspace (window))), ==, 1);
}

static gboolean
scalars_loaded (gpointer data)
{
  return sl_document_get_state (SL_DOCUMENT (data)) != SL_DOCUMENT_LOADING;
}

static void
test_scalars_of_demo_run (void)
{
  g_autofree char *summary_dir = g_build_filename (tmp_root, "demo", "train", "summary", NULL);
  g_autofree char *id = g_strdup_printf ("scalars:%s", summary_dir);
  SlScalarsPage *page;

  /* The demo job of the previous test wrote this run. */
  sl_window_open_document (window, "scalars", summary_dir, NULL);
  page = SL_SCALARS_PAGE (sl_window_find_document (window, id));
  g_assert_nonnull (page);
  g_assert_true (wait_until (scalars_loaded, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);

  /* loss, accuracy, learning_rate, eval/loss, eval/accuracy */
  g_assert_cmpuint (sl_scalars_page_get_n_runs (page), ==, 1);
  g_assert_cmpuint (sl_scalars_page_get_n_cards (page), ==, 5);
  /* weight, bias and weight gradient of three layers */
  g_assert_cmpuint (sl_scalars_page_get_n_histogram_cards (page), ==, 9);
  sl_scalars_page_show_histograms (page, 1);
  sl_scalars_page_show_histograms (page, 0);

  /* Several tags in one chart, from the card menu; and points above a
   * value highlighted. Both survive a live reload. */
  {
    SlScalarChart *chart = sl_scalars_page_get_chart (page, "loss");
    SlScalarChartRenderer *renderer;

    g_assert_nonnull (chart);
    renderer = sl_scalar_chart_get_renderer (chart);
    g_assert_cmpuint (sl_scalar_chart_renderer_get_n_series (renderer), ==, 1);
    sl_scalars_page_toggle_tag_in_chart (page, "loss", "eval/loss");
    g_assert_cmpuint (sl_scalar_chart_renderer_get_n_series (renderer), ==, 2);
    g_assert_nonnull (strstr (sl_scalar_chart_renderer_get_series_name (renderer, 1), "eval/loss"));
    sl_scalars_page_set_threshold (page, "loss", SL_CHART_THRESHOLD_ABOVE, 0.5);
    sl_scalars_page_set_filter (page, "^loss$");
    sl_scalars_page_show_view (page, "scalars");
    g_assert_true (wait_until (window_mapped, window, 5000));
    wait_until (window_idle, window, 2000);
    g_assert_cmpuint (save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "shell-scalars.png"), >, 500);
    sl_scalars_page_set_filter (page, "");

    /* Asking again for a tag already drawn takes it out. */
    sl_scalars_page_toggle_tag_in_chart (page, "loss", "eval/loss");
    g_assert_cmpuint (sl_scalar_chart_renderer_get_n_series (renderer), ==, 1);
    sl_scalars_page_toggle_tag_in_chart (page, "loss", "accuracy");
    sl_scalars_page_toggle_tag_in_chart (page, "loss", NULL);
    g_assert_cmpuint (sl_scalar_chart_renderer_get_n_series (renderer), ==, 1);
  }

  sl_scalars_page_show_view (page, "histograms");
  wait_until (window_idle, window, 2000);
  /* The tab names the view shown. */
  g_assert_true (g_str_has_prefix (panel_widget_get_title (PANEL_WIDGET (page)), "Histograms: "));
  /* Smoothing applies to scalars only: it is not shown, greyed out, here. */
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_SCALARS_PAGE,
                                                                        "smoothing_scale"))));
  g_assert_cmpuint (save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "shell-histograms.png"), >, 500);

  /* input_samples and decision_boundary, decoded from their PNGs */
  g_assert_cmpuint (sl_scalars_page_get_n_image_cards (page), ==, 2);
  sl_scalars_page_show_view (page, "images");
  wait_until (window_idle, window, 2000);
  g_assert_true (g_str_has_prefix (panel_widget_get_title (PANEL_WIDGET (page)), "Images: "));
  g_assert_cmpuint (save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "shell-images.png"), >, 500);
  for (guint i = 0; i < 2; i++)
    {
      SlImageCard *card = SL_IMAGE_CARD (sl_scalars_page_get_image_card (page, i));
      GdkTexture *texture = sl_image_card_get_texture (card);

      g_assert_null (sl_image_card_get_error (card));
      g_assert_nonnull (texture);
      g_assert_cmpint (gdk_texture_get_width (texture), ==, 160);
      sl_image_card_set_adjustment (card, 0.2, 1.5);
      g_assert_true (sl_image_card_get_texture (card) != texture);
      g_assert_cmpint (gdk_texture_get_height (sl_image_card_get_texture (card)), ==, 160);
    }
  sl_scalars_page_show_view (page, "scalars");
  g_assert_true (g_str_has_prefix (panel_widget_get_title (PANEL_WIDGET (page)), "Scalars: "));
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_SCALARS_PAGE,
                                                                       "smoothing_scale"))));

  sl_scalars_page_set_filter (page, "^eval/");
  g_assert_cmpuint (sl_scalars_page_get_n_visible_cards (page), ==, 2);
  /* A pattern being typed keeps the last good filter. */
  sl_scalars_page_set_filter (page, "(unclosed");
  g_assert_cmpuint (sl_scalars_page_get_n_visible_cards (page), ==, 2);
  sl_scalars_page_set_filter (page, "");
  g_assert_cmpuint (sl_scalars_page_get_n_visible_cards (page), ==, 5);

  /* Opening it again raises the same page. */
  sl_window_open_document (window, "scalars", summary_dir, NULL);
  g_assert_true (sl_window_find_document (window, id) == PANEL_WIDGET (page));
}

static SlFinding *
find_summary_finding (SlFolder *folder)
{
  GListModel *findings = sl_folder_get_findings (folder);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

      if (sl_finding_get_kind (finding) == SL_FINDING_SUMMARY_RUN)
        return finding;
    }

  return NULL;
}

static gboolean
index_has_tags (gpointer data)
{
  const char *root = data;
  g_autoptr(GPtrArray) runs = sl_workspace_run_sync (sl_window_get_workspace (window), list_runs_func,
                                                     (gpointer)root, NULL);

  for (guint i = 0; runs != NULL && i < runs->len; i++)
    {
      const char * const *tags = sl_run_record_get_tags (g_ptr_array_index (runs, i));

      if (tags[0] != NULL && g_strv_contains (tags, "loss"))
        return TRUE;
    }

  return FALSE;
}

typedef struct {
  guint         n_folders;
  gboolean      was_restored;
  SlFolderState state;
  guint         n_findings;
  gboolean      summary_tags_had_loss;
  gboolean      summary_had_files;
} Restored;

/* What the workspace shows the moment it is loaded, before any scan. */
static void
note_restored_cb (SlWorkspace *workspace,
                  GParamSpec  *pspec,
                  Restored    *restored)
{
  GListModel *folders = sl_workspace_get_folders (workspace);
  g_autoptr(SlFolder) folder = NULL;
  SlFinding *summary;

  restored->n_folders = g_list_model_get_n_items (folders);
  if (restored->n_folders == 0)
    return;

  folder = g_list_model_get_item (folders, 0);
  restored->was_restored = sl_folder_is_restored (folder);
  restored->state = sl_folder_get_state (folder);
  restored->n_findings = g_list_model_get_n_items (sl_folder_get_findings (folder));
  summary = find_summary_finding (folder);
  restored->summary_tags_had_loss = summary != NULL && sl_finding_lookup_detail (summary, "tags") != NULL &&
                                    strstr (sl_finding_lookup_detail (summary, "tags"), "loss") != NULL;
  restored->summary_had_files = summary != NULL && sl_finding_lookup_detail (summary, "summary_files") != NULL;
}

static gboolean
workspace_loaded (gpointer data)
{
  return sl_workspace_is_loaded (data);
}

static gboolean
workspace_scanned (gpointer data)
{
  return sl_workspace_get_n_scanning (data) == 0;
}

/* The next start shows the Workspace from the run index before any scan,
 * with the tags a view read last time, then scans again. */
static void
test_workspace_restored_from_index (void)
{
  g_autofree char *demo = g_build_filename (tmp_root, "demo", NULL);
  SlWorkspace *next_start;
  Restored restored = { 0 };
  SlFolder *folder;
  SlFinding *summary;

  /* The scalars page of the previous test read the demo run. */
  g_assert_true (wait_until (index_has_tags, demo, 10000));

  /* A second workspace on the same database is what the next start has. */
  next_start = sl_workspace_new (sl_workspace_get_db_path (sl_window_get_workspace (window)));
  g_signal_connect (next_start, "notify::loaded", G_CALLBACK (note_restored_cb), &restored);
  sl_workspace_load_async (next_start, NULL, NULL, NULL);
  g_assert_true (wait_until (workspace_loaded, next_start, 10000));

  /* Shown at once, while the scan runs. */
  g_assert_cmpuint (restored.n_folders, ==, 1);
  g_assert_true (restored.was_restored);
  g_assert_cmpint (restored.state, ==, SL_FOLDER_SCANNING);
  g_assert_cmpuint (restored.n_findings, ==, 3);
  g_assert_true (restored.summary_tags_had_loss);
  g_assert_true (restored.summary_had_files);
  folder = g_list_model_get_item (sl_workspace_get_folders (next_start), 0);
  g_object_unref (folder);
  g_assert_cmpstr (sl_folder_get_path (folder), ==, demo);

  g_assert_true (wait_until (workspace_scanned, next_start, 30000));
  g_assert_false (sl_folder_is_restored (folder));
  g_assert_cmpuint (g_list_model_get_n_items (sl_folder_get_findings (folder)), ==, 3);
  summary = find_summary_finding (folder);
  g_assert_nonnull (strstr (sl_finding_lookup_detail (summary, "tags"), "accuracy"));

  /* Removing the folder is remembered too. */
  g_assert_true (sl_workspace_remove_folder (next_start, demo));
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_folders (next_start)), ==, 0);
  {
    g_auto(GStrv) open = sl_workspace_run_sync (next_start, list_open_folders_func, NULL, NULL);

    g_assert_cmpuint (g_strv_length (open), ==, 0);
  }

  /* The window's workspace still holds the folder; put it back in the
   * database for the tests that follow. */
  sl_workspace_open_path (next_start, demo);
  g_assert_true (wait_until (workspace_scanned, next_start, 30000));
  sl_workspace_flush (next_start);
  g_object_unref (next_start);
}


/* A run written by MindInsight's own summary writers: every view of it,
 * screenshotted. Skipped without the datasets. */
static void
test_views_of_real_run (void)
{
  const char *datasets = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *run = datasets ? g_build_filename (datasets, "generated__mindinsight-writers", "run_small", NULL) : NULL;
  g_autofree char *id = NULL;
  SlScalarsPage *page;

  if (run == NULL || !g_file_test (run, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the datasets are not here");
      return;
    }

  sl_window_open_document (window, "scalars", run, NULL);
  id = g_strdup_printf ("scalars:%s", run);
  page = SL_SCALARS_PAGE (sl_window_find_document (window, id));
  g_assert_nonnull (page);
  g_assert_true (wait_until (scalars_loaded, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_cmpuint (sl_scalars_page_get_n_cards (page), ==, 3);
  g_assert_cmpuint (sl_scalars_page_get_n_histogram_cards (page), ==, 2);
  g_assert_cmpuint (sl_scalars_page_get_n_image_cards (page), ==, 2);

  sl_scalars_page_show_view (page, "scalars");
  g_assert_cmpuint (save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "real-run-scalars.png"), >, 1000);
  sl_scalars_page_show_view (page, "histograms");
  g_assert_cmpuint (save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "real-run-histograms.png"), >, 1000);
  sl_scalars_page_show_view (page, "images");
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "real-run-images.png");
  for (guint i = 0; i < 2; i++)
    g_assert_null (sl_image_card_get_error (SL_IMAGE_CARD (sl_scalars_page_get_image_card (page, i))));
}

static gboolean
timeline_window_set (gpointer data)
{
  SlTimelinePage *timeline = data;
  gint64 start = 0, end = 0;

  if (sl_document_get_state (SL_DOCUMENT (timeline)) != SL_DOCUMENT_READY)
    return FALSE;
  sl_timeline_view_get_window (sl_timeline_page_get_view (timeline), &start, &end);
  /* Fitted to the whole trace first; the request narrows it. */
  return end - start < sl_trace_get_end_ns (sl_timeline_view_get_trace (sl_timeline_page_get_view (timeline))) -
                       sl_trace_get_start_ns (sl_timeline_view_get_trace (sl_timeline_page_get_view (timeline)));
}

static gboolean
profile_loaded (gpointer data)
{
  return sl_document_get_state (SL_DOCUMENT (data)) != SL_DOCUMENT_LOADING;
}

/* The demo workspace's profiler folder opens as a profile document from
 * its finding, and its problems (none here) go to Problems. */
static void
test_profile_of_demo (void)
{
  g_autofree char *demo = g_build_filename (tmp_root, "demo", NULL);
  g_autofree char *id = NULL;
  SlFolder *folder = NULL;
  SlFinding *profiler = NULL;
  SlProfilePage *page;
  GListModel *findings;
  const SlProfileRank *rank;

  for (guint i = 0; i < g_list_model_get_n_items (sl_workspace_get_folders (sl_window_get_workspace (window))); i++)
    {
      g_autoptr(SlFolder) candidate = g_list_model_get_item (sl_workspace_get_folders (sl_window_get_workspace (window)), i);

      if (g_strcmp0 (sl_folder_get_path (candidate), demo) == 0)
        folder = candidate;
    }
  g_assert_nonnull (folder);
  findings = sl_folder_get_findings (folder);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

      if (sl_finding_get_kind (finding) == SL_FINDING_MINDSPORE_PROFILER)
        profiler = finding;
    }
  g_assert_nonnull (profiler);

  sl_window_open_document (window, "profile", sl_finding_get_path (profiler), NULL);
  id = g_strdup_printf ("profile:%s", sl_finding_get_path (profiler));
  page = SL_PROFILE_PAGE (sl_window_find_document (window, id));
  g_assert_nonnull (page);
  g_assert_true (wait_until (profile_loaded, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);

  rank = sl_profile_get_rank (sl_profile_page_get_profile (page), 0);
  g_assert_nonnull (rank->steps);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), >, 0);
  g_assert_false (sl_op_table_is_empty (rank->ops));
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_stats_view_get_rows (sl_profile_page_get_ops_view (page))), >, 0);

  sl_profile_page_show_view (page, "steps");
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "shell-profile-steps.png");

  /* Opening it again raises the same page. */
  sl_window_open_document (window, "profile", sl_finding_get_path (profiler), NULL);
  g_assert_true (sl_window_find_document (window, id) == PANEL_WIDGET (page));

  /* Clicking step 2 opens the timeline zoomed to it: the demo measured both
   * with one clock. */
  {
    g_autofree char *timeline_id = g_strdup_printf ("timeline:%s", sl_finding_get_path (profiler));
    const SlStep *step = sl_step_trace_get_step (rank->steps, 1);
    SlTimelinePage *timeline;
    gint64 start = 0, end = 0;

    g_signal_emit_by_name (sl_profile_page_get_step_chart (page), "step-activated", 1u);
    timeline = SL_TIMELINE_PAGE (sl_window_find_document (window, timeline_id));
    g_assert_nonnull (timeline);
    g_assert_true (wait_until (timeline_window_set, timeline, 30000));
    sl_timeline_view_get_window (sl_timeline_page_get_view (timeline), &start, &end);
    /* The demo's timeline starts at 0 and its step trace counts ticks, as
     * MindSpore's do: the steps are placed from the timeline's start. */
    {
      SlTrace *trace = sl_timeline_view_get_trace (sl_timeline_page_get_view (timeline));
      gint64 expected_start = step->start_ns - sl_step_trace_get_step (rank->steps, 0)->start_ns + sl_trace_get_start_ns (trace);
      gint64 length = step->end_ns - step->start_ns;

      g_assert_cmpint (llabs (start - expected_start), <=, length / 10 + 1);
      g_assert_cmpint (llabs (end - (expected_start + length)), <=, length / 10 + 1);
    }
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "shell-profile-step-on-timeline.png");
  }
}

typedef struct {
  SlScalarsPage *page;
  const char    *tag;
  guint          n_points;
} SeriesWait;

static gboolean
series_has_points (gpointer data)
{
  SeriesWait *wait = data;
  SlScalarSeries *series = sl_scalars_page_lookup_series (wait->page, ".", wait->tag);

  return series != NULL && sl_scalar_series_get_n_points (series) == wait->n_points;
}

static gboolean
page_has_two_cards (gpointer data)
{
  return sl_scalars_page_get_n_cards (data) == 2;
}

/* The last word a monitor has on a write: no more events follow it. */
static void
note_change_cb (GFileMonitor      *monitor,
                GFile             *file,
                GFile             *other_file,
                GFileMonitorEvent  event,
                gboolean          *changed)
{
  if (event == G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT)
    *changed = TRUE;
}

static gboolean
page_unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (data);
}

static gboolean
widget_is_visible (gpointer data)
{
  return gtk_widget_get_visible (data);
}

static void
write_scalars (SlSummaryWriter *writer,
               const char      *tag,
               gint64           first,
               gint64           last)
{
  for (gint64 step = first; step <= last; step++)
    g_assert_true (sl_summary_writer_add_scalar (writer, step, 1.7e9 + step, tag, 1.0 / step, NULL));
  g_assert_true (sl_summary_writer_flush (writer, NULL));
}

static void
test_scalars_follow_a_growing_run (void)
{
  g_autofree char *dir = make_dir ("live");
  g_autofree char *id = g_strdup_printf ("scalars:%s", dir);
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  SeriesWait wait = { NULL, "loss", 10 };
  SlScalarsPage *page;

  writer = sl_summary_writer_new (dir, 1700000000, "test", &error);
  g_assert_no_error (error);
  write_scalars (writer, "loss", 1, 10);

  sl_window_open_document (window, "scalars", dir, NULL);
  page = SL_SCALARS_PAGE (sl_window_find_document (window, id));
  g_assert_true (wait_until (scalars_loaded, page, 30000));
  wait.page = page;
  g_assert_true (series_has_points (&wait));
  /* It follows the files' monitors: no timer of its own polls them. */
  g_assert_null (g_main_context_find_source_by_user_data (NULL, page));

  /* Training writes on; the open chart follows. */
  write_scalars (writer, "loss", 11, 25);
  wait.n_points = 25;
  g_assert_true (wait_until (series_has_points, &wait, 15000));

  /* A restarted job goes back to step 5: the points written before the
   * restart from step 5 on are dropped, the one written after it kept,
   * and the card names the run and says so. */
  write_scalars (writer, "loss", 5, 5);
  wait.n_points = 5;
  g_assert_true (wait_until (series_has_points, &wait, 15000));
  g_assert_cmpuint (sl_scalar_series_get_n_restarts (sl_scalars_page_lookup_series (page, ".", "loss")), ==, 1);
  {
    GtkWidget *card = sl_scalars_page_get_card (page, "loss");
    GtkLabel *notice = GTK_LABEL (gtk_widget_get_template_child (card, SL_TYPE_SCALAR_CARD, "notice_label"));
    g_autofree char *base = g_path_get_basename (dir);
    g_autofree char *expected = g_strdup_printf ("Run “%s” (loss) went back from step 25 to step 5, a restarted job: "
                                                 "21 points written before the restart, from step 5 on, were dropped; "
                                                 "the points written after it are shown", base);

    g_assert_true (wait_until (widget_is_visible, notice, 15000));
    g_assert_cmpstr (gtk_label_get_label (notice), ==, expected);
    wait_for_frames (GTK_WIDGET (window));
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "shell-scalars-restarted-job.png");
  }

  /* A tag that appears later gets its card. */
  write_scalars (writer, "accuracy", 1, 3);
  g_assert_true (wait_until (page_has_two_cards, page, 15000));

  /* Written while another tab is in front: read once it is shown. */
  {
    g_autofree char *other = make_dir ("live-other");
    SlDocument *front = sl_window_open_document (window, "scalars", other, NULL);

    g_autoptr(GFile) run = g_file_new_for_path (dir);
    g_autoptr(GFileMonitor) monitor = g_file_monitor_directory (run, G_FILE_MONITOR_NONE, NULL, NULL);
    gboolean changed = FALSE;

    g_assert_true (wait_until (scalars_loaded, front, 30000));
    g_assert_true (wait_until (page_unmapped, page, 15000));
    g_assert_nonnull (monitor);
    g_signal_connect (monitor, "changed", G_CALLBACK (note_change_cb), &changed);
    write_scalars (writer, "loss", 6, 12);
    /* The page's monitor spoke while it was hidden, and is done, as this
     * one is: only being shown can make the page read now. */
    g_assert_true (wait_until (flag_set, &changed, 15000));
    while (g_main_context_pending (NULL))
      g_main_context_iteration (NULL, FALSE);
    g_assert_false (series_has_points (&(SeriesWait) { page, "loss", 12 }));
    wait.n_points = 12;
    panel_widget_raise (PANEL_WIDGET (page));
    g_assert_true (wait_until (series_has_points, &wait, 15000));
    panel_widget_close (PANEL_WIDGET (front));
  }
  g_assert_true (sl_summary_writer_close (writer, NULL));
}

static void
test_scalars_without_summaries (void)
{
  g_autofree char *empty = make_dir ("no-summaries");
  g_autofree char *id = g_strdup_printf ("scalars:%s", empty);
  SlScalarsPage *page;

  sl_window_open_document (window, "scalars", empty, NULL);
  page = SL_SCALARS_PAGE (sl_window_find_document (window, id));
  g_assert_true (wait_until (scalars_loaded, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_EMPTY);
  g_assert_cmpuint (sl_scalars_page_get_n_cards (page), ==, 0);
}

static SlProblem *
find_problem_for (SlProblemsPanel *panel,
                  const char      *path)
{
  GListModel *model = sl_problems_panel_get_model (panel);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (model, i);

      if (g_strcmp0 (sl_problem_get_path (problem), path) == 0)
        return problem;
    }

  return NULL;
}

static void
test_damaged_file_reported (void)
{
  g_autofree char *dir = make_dir ("damaged");
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.1700000000.host_MS", NULL);
  static const guint8 garbage[24] = { 0x10, 0, 0, 0, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3 };
  SlProblemsPanel *problems = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  SlProblem *problem;

  g_assert_true (g_file_set_contents (path, (const char *)garbage, sizeof garbage, NULL));
  sl_window_open_path (window, dir);
  g_assert_true (wait_until (scans_done, window, 30000));

  problem = find_problem_for (problems, path);
  g_assert_nonnull (problem);
  g_assert_cmpint (sl_problem_get_offset (problem), >=, 0);
  g_assert_cmpuint (sl_problems_panel_count (problems, SL_SEVERITY_ERROR) +
                    sl_problems_panel_count (problems, SL_SEVERITY_WARNING), >=, 1);

  /* Revealing a problem shows its file and position in Details. */
  g_signal_emit_by_name (problems, "problem-activated", problem);
  g_assert_true (sl_details_panel_get_item (details) == G_OBJECT (problem));
  g_assert_cmpstr (sl_details_panel_lookup (details, "File"), ==, path);
  g_assert_nonnull (sl_details_panel_lookup (details, "Position"));
}

static void
test_empty_and_missing_folders (void)
{
  g_autofree char *empty = make_dir ("empty");
  g_autofree char *missing = g_build_filename (tmp_root, "missing", NULL);
  g_autofree char *empty_id = NULL;
  g_autofree char *missing_id = NULL;
  SlProblemsPanel *problems = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  SlFolder *folder;

  folder = sl_window_open_path (window, empty);
  g_assert_true (wait_until (scans_done, window, 30000));
  empty_id = g_strdup_printf ("folder:%s", sl_folder_get_path (folder));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (sl_window_find_document (window, empty_id))), ==, SL_DOCUMENT_EMPTY);
  assert_stack_shows (sl_window_find_document (window, empty_id), "empty");

  folder = sl_window_open_path (window, missing);
  g_assert_true (wait_until (scans_done, window, 30000));
  g_assert_cmpint (sl_folder_get_state (folder), ==, SL_FOLDER_FAILED);
  g_assert_nonnull (sl_folder_get_error_message (folder));
  missing_id = g_strdup_printf ("folder:%s", sl_folder_get_path (folder));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (sl_window_find_document (window, missing_id))), ==, SL_DOCUMENT_FAILED);
  assert_stack_shows (sl_window_find_document (window, missing_id), "failed");
  g_assert_nonnull (find_problem_for (problems, sl_folder_get_path (folder)));
}

static gboolean
console_idle (gpointer data)
{
  return !sl_console_panel_is_running (data);
}

static void
test_run_command_streams_and_records (void)
{
  SlConsolePanel *console = SL_CONSOLE_PANEL (sl_window_find_panel (window, "console"));
  g_autoptr(GPtrArray) jobs = NULL;
  g_autofree char *text = NULL;
  SlJobRecord *job;

  sl_console_panel_clear (console);
  sl_window_run_command (window, "echo 'hello from a job'", tmp_root);
  g_assert_true (sl_console_panel_is_running (console));
  g_assert_true (wait_until (console_idle, console, 30000));

  text = sl_console_panel_dup_text (console);
  g_assert_nonnull (strstr (text, "$ echo 'hello from a job'"));
  g_assert_nonnull (strstr (text, "hello from a job\n"));
  g_assert_nonnull (strstr (text, "exited with code 0"));

  /* The job history gets the end too, a moment after the console. */
  for (guint i = 0; i < 200; i++)
    {
      g_clear_pointer (&jobs, g_ptr_array_unref);
      jobs = sl_workspace_run_sync (sl_window_get_workspace (window), list_last_job_func, NULL, NULL);
      if (jobs->len == 1 && sl_job_record_has_exit_code (g_ptr_array_index (jobs, 0)))
        break;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
  g_assert_cmpuint (jobs->len, ==, 1);
  job = g_ptr_array_index (jobs, 0);
  g_assert_cmpstr (sl_job_record_get_command (job), ==, "echo 'hello from a job'");
  g_assert_cmpint (sl_job_record_get_exit_code (job), ==, 0);
  g_assert_cmpint (sl_job_record_get_state (job), ==, SL_JOB_STATE_SUCCEEDED);
}

static void
test_run_command_errors (void)
{
  SlProblemsPanel *problems = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
  SlConsolePanel *console = SL_CONSOLE_PANEL (sl_window_find_panel (window, "console"));
  guint errors = sl_problems_panel_count (problems, SL_SEVERITY_ERROR);
  g_autofree char *text = NULL;

  sl_window_run_command (window, "echo 'unbalanced", tmp_root);
  g_assert_cmpuint (sl_problems_panel_count (problems, SL_SEVERITY_ERROR), ==, errors + 1);

  sl_window_run_command (window, "/nonexistent/program --flag", tmp_root);
  g_assert_cmpuint (sl_problems_panel_count (problems, SL_SEVERITY_ERROR), ==, errors + 2);
  g_assert_false (sl_console_panel_is_running (console));

  sl_window_run_command (window, "sh -c 'exit 3'", tmp_root);
  g_assert_true (wait_until (console_idle, console, 30000));
  text = sl_console_panel_dup_text (console);
  g_assert_nonnull (strstr (text, "exited with code 3"));
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static gboolean
result_set (gpointer data)
{
  return *(GAsyncResult **)data != NULL;
}

static void
test_targets_added (void)
{
  SlWorkspace *workspace = sl_window_get_workspace (window);
  GListModel *targets = sl_workspace_get_targets (workspace);
  guint before = g_list_model_get_n_items (targets);
  g_autoptr(SlTargetRecord) target = sl_target_record_new (SL_TARGET_KIND_SSH, "lab-910b");
  g_autoptr(SlTargetRecord) duplicate = sl_target_record_new (SL_TARGET_KIND_SSH, "lab-910b");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean done = FALSE;

  g_assert_cmpuint (before, ==, 1); /* Local */

  sl_target_record_set_host (target, "192.0.2.10");
  sl_target_record_set_remote_base_folder (target, "~/sightline");
  sl_workspace_save_target_async (workspace, target, NULL, changed_cb, &done);
  g_assert_true (wait_until (flag_set, &done, 10000));
  g_assert_cmpuint (g_list_model_get_n_items (targets), ==, before + 1);
  g_assert_cmpint (sl_target_record_get_id (target), >, 0);

  /* A name already taken is refused by the database, and the model keeps
   * what it had. */
  sl_target_record_set_host (duplicate, "192.0.2.11");
  sl_target_record_set_remote_base_folder (duplicate, "~/sightline");
  sl_workspace_save_target_async (workspace, duplicate, NULL, store_result_cb, &result);
  g_assert_true (wait_until (result_set, &result, 10000));
  g_assert_false (sl_workspace_change_finish (workspace, result, &error));
  g_assert_nonnull (error);
  g_assert_cmpuint (g_list_model_get_n_items (targets), ==, before + 1);
}

static void
test_preferences_window (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  GtkWidget *prefs = sl_preferences_window_new ();

  gtk_window_set_transient_for (GTK_WINDOW (prefs), GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (prefs));
  g_assert_true (wait_until (window_mapped, prefs, 10000));

  g_settings_set_string (settings, "color-scheme", "dark");
  g_assert_cmpint (adw_style_manager_get_color_scheme (adw_style_manager_get_default ()), ==,
                   ADW_COLOR_SCHEME_FORCE_DARK);
  g_settings_set_string (settings, "color-scheme", "light");
  g_assert_cmpint (adw_style_manager_get_color_scheme (adw_style_manager_get_default ()), ==,
                   ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_settings_reset (settings, "color-scheme");

  gtk_window_destroy (GTK_WINDOW (prefs));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = NULL;
  g_autofree char *cache_home = NULL;
  int status;

  tmp_root = g_dir_make_tmp ("sl-shell-XXXXXX", NULL);
  data_home = g_build_filename (tmp_root, "data-home", NULL);
  cache_home = g_build_filename (tmp_root, "cache-home", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  /* Criticals stay fatal; warnings are not, since a bare test display
   * without a session bus makes GTK warn once about it. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  app = sl_application_new ();
  /* Another Sightline on the same session bus must not take the window. */
  g_application_set_flags (G_APPLICATION (app), g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);
  g_application_activate (G_APPLICATION (app));
  window = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (window);
  g_assert_true (wait_until (window_mapped, window, 30000));

  g_test_add_func ("/shell/panels-in-default-places", test_panels_in_default_places);
  g_test_add_func ("/shell/bottom-dock-follows-problems", test_bottom_dock_follows_problems);
  g_test_add_func ("/shell/layout-saved-and-restored", test_layout_saved_and_restored);
  g_test_add_func ("/shell/closed-panel-comes-back", test_closed_panel_comes_back);
  g_test_add_func ("/shell/damaged-layout-setting-ignored", test_damaged_layout_setting_ignored);
  g_test_add_func ("/shell/open-folder-lists-findings", test_open_folder_lists_findings);
  g_test_add_func ("/shell/scalars-of-demo-run", test_scalars_of_demo_run);
  g_test_add_func ("/shell/workspace-restored-from-index", test_workspace_restored_from_index);
  g_test_add_func ("/shell/profile-of-demo", test_profile_of_demo);
  g_test_add_func ("/shell/views-of-real-run", test_views_of_real_run);
  g_test_add_func ("/shell/scalars-follow-a-growing-run", test_scalars_follow_a_growing_run);
  g_test_add_func ("/shell/scalars-without-summaries", test_scalars_without_summaries);
  g_test_add_func ("/shell/damaged-file-reported", test_damaged_file_reported);
  g_test_add_func ("/shell/empty-and-missing-folders", test_empty_and_missing_folders);
  g_test_add_func ("/shell/run-command-streams-and-records", test_run_command_streams_and_records);
  g_test_add_func ("/shell/run-command-errors", test_run_command_errors);
  g_test_add_func ("/shell/targets-added", test_targets_added);
  g_test_add_func ("/shell/preferences-window", test_preferences_window);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
