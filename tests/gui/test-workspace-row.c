/* test-workspace-row.c: the Workspace panel's rows from their template
 *
 * A row shows what its item is: a section's title as a heading and its
 * number of children as they change, a folder's scan with a spinner and
 * then its count or "unreadable", a server's address on hover. In the
 * panel, each tree row's expander carries the row's whole tooltip.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "gui-test-util.h"

#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-target-record.h"
#include "sl-workspace-panel.h"
#include "sl-workspace-row.h"
#include "sl-workspace-section.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

/* The row's children in order: icon, title, spinner, count. */
static void
row_parts (GtkWidget   *row,
           GtkImage   **icon,
           GtkLabel   **title,
           GtkSpinner **spinner,
           GtkLabel   **count)
{
  GtkWidget *child = gtk_widget_get_first_child (row);

  *icon = GTK_IMAGE (child);
  child = gtk_widget_get_next_sibling (child);
  *title = GTK_LABEL (child);
  child = gtk_widget_get_next_sibling (child);
  *spinner = GTK_SPINNER (child);
  child = gtk_widget_get_next_sibling (child);
  *count = GTK_LABEL (child);
  g_assert_true (GTK_IS_IMAGE (*icon) && GTK_IS_LABEL (*title) && GTK_IS_SPINNER (*spinner) && GTK_IS_LABEL (*count));
}

static void
test_section_and_target (void)
{
  GtkWidget *row = g_object_ref_sink (g_object_new (SL_TYPE_WORKSPACE_ROW, NULL));
  g_autoptr(GListStore) targets = g_list_store_new (SL_TYPE_TARGET_RECORD);
  g_autoptr(SlWorkspaceSection) section = sl_workspace_section_new ("targets", "Targets", "sl-server-symbolic",
                                                                    G_LIST_MODEL (targets));
  g_autoptr(SlTargetRecord) local = sl_target_record_new (SL_TARGET_KIND_LOCAL, "This computer");
  g_autoptr(SlTargetRecord) server = sl_target_record_new (SL_TARGET_KIND_SSH, "npu-box");
  GtkImage *icon;
  GtkLabel *title, *count;
  GtkSpinner *spinner;

  row_parts (row, &icon, &title, &spinner, &count);
  sl_workspace_row_set_item (SL_WORKSPACE_ROW (row), G_OBJECT (section));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "Targets");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (title), "heading"));
  g_assert_cmpstr (gtk_image_get_icon_name (icon), ==, "sl-server-symbolic");
  g_assert_cmpstr (gtk_label_get_label (count), ==, "0");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (spinner)));

  /* The count follows the section's children. */
  g_list_store_append (targets, local);
  g_list_store_append (targets, server);
  g_assert_cmpstr (gtk_label_get_label (count), ==, "2");

  sl_target_record_set_host (server, "10.0.0.7");
  sl_workspace_row_set_item (SL_WORKSPACE_ROW (row), G_OBJECT (server));
  g_assert_cmpstr (gtk_label_get_label (title), ==, "npu-box");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (title), "heading"));
  g_assert_cmpstr (gtk_label_get_label (count), ==, "SSH");
  g_assert_cmpstr (gtk_image_get_icon_name (icon), ==, "sl-server-symbolic");
  g_assert_cmpstr (sl_workspace_row_get_tooltip (SL_WORKSPACE_ROW (row)), ==, "10.0.0.7:22");

  /* No longer watched: the section's changes leave the row alone. */
  g_list_store_remove (targets, 0);
  g_assert_cmpstr (gtk_label_get_label (count), ==, "SSH");

  sl_workspace_row_set_item (SL_WORKSPACE_ROW (row), G_OBJECT (local));
  g_assert_cmpstr (gtk_image_get_icon_name (icon), ==, "computer-symbolic");
  g_assert_cmpstr (gtk_label_get_label (count), ==, "local");

  sl_workspace_row_set_item (SL_WORKSPACE_ROW (row), NULL);
  g_assert_cmpstr (gtk_label_get_label (title), ==, "");
  g_assert_null (sl_workspace_row_get_tooltip (SL_WORKSPACE_ROW (row)));
  g_object_unref (row);
}

static void
scan_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  sl_folder_scan_finish (SL_FOLDER (source), result, NULL);
  *(gboolean *)data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *)data;
}

static void
scan_in_row (const char    *path,
             SlFolderState  expected)
{
  GtkWidget *row = g_object_ref_sink (g_object_new (SL_TYPE_WORKSPACE_ROW, NULL));
  g_autoptr(SlFolder) folder = sl_folder_new (path);
  GtkImage *icon;
  GtkLabel *title, *count;
  GtkSpinner *spinner;
  gboolean done = FALSE;

  row_parts (row, &icon, &title, &spinner, &count);
  sl_workspace_row_set_item (SL_WORKSPACE_ROW (row), G_OBJECT (folder));
  g_assert_cmpint (sl_folder_get_state (folder), ==, SL_FOLDER_SCANNING);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (spinner)));
  g_assert_true (gtk_spinner_get_spinning (spinner));
  g_assert_cmpstr (gtk_label_get_label (count), ==, "");
  g_assert_cmpstr (gtk_label_get_label (title), ==, sl_folder_get_name (folder));

  sl_folder_scan_async (folder, NULL, scan_done_cb, &done);
  g_assert_true (wait_until (is_true, &done, 30000));
  g_assert_cmpint (sl_folder_get_state (folder), ==, expected);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (spinner)));
  if (expected == SL_FOLDER_READY)
    {
      g_assert_cmpstr (gtk_image_get_icon_name (icon), ==, "folder-symbolic");
      g_assert_cmpstr (gtk_label_get_label (count), ==, "0");
      g_assert_cmpstr (sl_workspace_row_get_tooltip (SL_WORKSPACE_ROW (row)), ==, path);
    }
  else
    {
      g_assert_cmpstr (gtk_image_get_icon_name (icon), ==, "dialog-error-symbolic");
      g_assert_cmpstr (gtk_label_get_label (count), ==, "unreadable");
      g_assert_cmpstr (sl_workspace_row_get_tooltip (SL_WORKSPACE_ROW (row)), ==,
                       sl_folder_get_error_message (folder));
    }
  g_object_unref (row);
}

static void
test_folder_scan (void)
{
  g_autofree char *empty = g_build_filename (tmp_root, "empty-folder", NULL);
  g_autofree char *missing = g_build_filename (tmp_root, "no-such-folder", NULL);

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  scan_in_row (empty, SL_FOLDER_READY);
  scan_in_row (missing, SL_FOLDER_FAILED);
}

static void
collect_rows (GtkWidget *widget,
              GPtrArray *rows)
{
  if (SL_IS_WORKSPACE_ROW (widget))
    g_ptr_array_add (rows, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_rows (child, rows);
}

/* The Workspace panel on these lists, in @win, shown and settled. */
/* The four lists a Workspace panel shows, empty until a test fills them */
typedef struct {
  GListStore *targets;
  GListStore *folders;
  GListStore *recent;
  GListStore *jobs;
} PanelLists;

static PanelLists
panel_lists_new (void)
{
  return (PanelLists) {
    .targets = g_list_store_new (SL_TYPE_TARGET_RECORD),
    .folders = g_list_store_new (SL_TYPE_FOLDER),
    .recent = g_list_store_new (G_TYPE_FILE),
    .jobs = g_list_store_new (G_TYPE_OBJECT),
  };
}

static void
panel_lists_clear (PanelLists *lists)
{
  g_clear_object (&lists->targets);
  g_clear_object (&lists->folders);
  g_clear_object (&lists->recent);
  g_clear_object (&lists->jobs);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PanelLists, panel_lists_clear)

static GtkWidget *
show_panel (GtkWidget  *win,
            PanelLists *lists)
{
  GtkWidget *panel = sl_workspace_panel_new (G_LIST_MODEL (lists->targets), G_LIST_MODEL (lists->folders),
                                             G_LIST_MODEL (lists->recent), G_LIST_MODEL (lists->jobs));

  gtk_window_set_default_size (GTK_WINDOW (win), 300, 600);
  gtk_window_set_child (GTK_WINDOW (win), panel);
  gtk_window_present (GTK_WINDOW (win));
  g_assert_true (wait_until (window_is_mapped, win, 10000));
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  return panel;
}

/* The row of @panel showing @item, once the panel has followed its lists'
 * changes; NULL when none shows it. */
static SlWorkspaceRow *
shown_row (GtkWidget *panel,
           gpointer   item)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  collect_rows (panel, rows);
  for (guint i = 0; i < rows->len; i++)
    if (sl_workspace_row_get_item (g_ptr_array_index (rows, i)) == G_OBJECT (item))
      return g_ptr_array_index (rows, i);
  return NULL;
}

/* The panel's rows come from the factory template: each expander shows
 * its tree row and carries the whole name or address on hover. */
static void
test_panel_rows (void)
{
  g_auto(PanelLists) lists = panel_lists_new ();
  g_autoptr(SlTargetRecord) server = sl_target_record_new (SL_TARGET_KIND_SSH, "npu-box");
  g_autofree char *long_path = g_build_filename (tmp_root, "a-folder-with-a-name-long-enough-to-be-cut-in-the-panel", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (long_path);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *panel;
  guint seen = 0;

  sl_target_record_set_host (server, "10.0.0.7");
  g_list_store_append (lists.targets, server);
  g_list_store_append (lists.recent, file);
  panel = show_panel (win, &lists);

  collect_rows (panel, rows);
  g_assert_cmpuint (rows->len, ==, sl_workspace_panel_get_n_rows (SL_WORKSPACE_PANEL (panel)));
  for (guint i = 0; i < rows->len; i++)
    {
      SlWorkspaceRow *row = g_ptr_array_index (rows, i);
      GtkWidget *expander = gtk_widget_get_ancestor (GTK_WIDGET (row), GTK_TYPE_TREE_EXPANDER);
      GObject *item = sl_workspace_row_get_item (row);
      g_autoptr(GObject) shown = NULL;

      g_assert_nonnull (expander);
      g_assert_nonnull (item);
      shown = gtk_tree_list_row_get_item (gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (expander)));
      g_assert_true (shown == item);
      g_assert_cmpstr (gtk_widget_get_tooltip_text (expander), ==, sl_workspace_row_get_tooltip (row));
      if (item == G_OBJECT (server))
        {
          g_assert_cmpstr (gtk_widget_get_tooltip_text (expander), ==, "10.0.0.7:22");
          seen++;
        }
      else if (item == G_OBJECT (file))
        {
          g_assert_cmpstr (gtk_widget_get_tooltip_text (expander), ==, long_path);
          seen++;
        }
    }
  g_assert_cmpuint (seen, ==, 2);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* Two runs' folders named alike show the folders that tell them apart,
 * in the opened folders as in the recent ones; a name of its own stays
 * alone, and the names follow the list as it changes. */
static void
test_names_told_apart (void)
{
  g_auto(PanelLists) lists = panel_lists_new ();
  g_autofree char *first_path = g_build_filename (tmp_root, "level0", "rank0_ascend_pt", NULL);
  g_autofree char *second_path = g_build_filename (tmp_root, "level1", "rank0_ascend_pt", NULL);
  g_autofree char *other_path = g_build_filename (tmp_root, "level1", "other", NULL);
  g_autoptr(SlFolder) first = sl_folder_new (first_path);
  g_autoptr(SlFolder) second = sl_folder_new (second_path);
  g_autoptr(SlFolder) other = sl_folder_new (other_path);
  g_autoptr(GFile) first_file = g_file_new_for_path (first_path);
  g_autoptr(GFile) second_file = g_file_new_for_path (second_path);
  const char *level0 = "level0" G_DIR_SEPARATOR_S "rank0_ascend_pt";
  const char *level1 = "level1" G_DIR_SEPARATOR_S "rank0_ascend_pt";
  GtkWidget *win = gtk_window_new ();
  GtkWidget *panel;
  SlWorkspaceRow *shown;

  g_list_store_append (lists.folders, first);
  g_list_store_append (lists.folders, second);
  g_list_store_append (lists.folders, other);
  g_list_store_append (lists.recent, first_file);
  g_list_store_append (lists.recent, second_file);
  panel = show_panel (win, &lists);

  {
    const struct { gpointer item; const char *title; } expected[] = {
      { first, level0 }, { first_file, level0 }, { second, level1 }, { second_file, level1 }, { other, "other" },
    };

    for (guint e = 0; e < G_N_ELEMENTS (expected); e++)
      {
        shown = shown_row (panel, expected[e].item);
        g_assert_nonnull (shown);
        g_assert_cmpstr (sl_workspace_row_get_title (shown), ==, expected[e].title);
      }
  }

  /* With the other one closed, the name alone says it. */
  g_list_store_remove (lists.folders, 1);
  shown = shown_row (panel, first);
  g_assert_nonnull (shown);
  g_assert_cmpstr (sl_workspace_row_get_title (shown), ==, "rank0_ascend_pt");
  gtk_window_destroy (GTK_WINDOW (win));
}

/* Two findings of a folder with one name (a MindSpore folder opened as a
 * whole is a rank's profile and the cluster of its ranks) say their kind
 * beside it; a finding with a name of its own says nothing more. */
static void
test_finding_kinds (void)
{
  g_auto(PanelLists) lists = panel_lists_new ();
  g_autofree char *path = g_build_filename (tmp_root, "run", "profiler", NULL);
  g_autofree char *part_path = g_build_filename (path, "train", "profiler", NULL);
  g_autoptr(SlFolder) folder = sl_folder_new (path);
  g_autoptr(SlFinding) profile = sl_finding_new (SL_FINDING_MINDSPORE_PROFILER, path, ".");
  g_autoptr(SlFinding) cluster = sl_finding_new (SL_FINDING_CLUSTER, path, ".");
  g_autoptr(SlFinding) part = sl_finding_new (SL_FINDING_MINDSPORE_PROFILER, part_path, "train/profiler");
  g_autoptr(GPtrArray) findings = g_ptr_array_new ();
  GtkWidget *win = gtk_window_new ();
  GtkWidget *panel;
  SlWorkspaceRow *shown;

  g_ptr_array_add (findings, profile);
  g_ptr_array_add (findings, cluster);
  g_ptr_array_add (findings, part);
  sl_folder_restore_findings (folder, findings);
  g_list_store_append (lists.folders, folder);
  panel = show_panel (win, &lists);

  {
    const struct { gpointer item; const char *title, *kind; } expected[] = {
      { profile, "profiler", "profile" }, { cluster, "profiler", "cluster" }, { part, "train/profiler", "" },
    };

    for (guint e = 0; e < G_N_ELEMENTS (expected); e++)
      {
        shown = shown_row (panel, expected[e].item);
        g_assert_nonnull (shown);
        g_assert_cmpstr (sl_workspace_row_get_title (shown), ==, expected[e].title);
        g_assert_cmpstr (sl_workspace_row_get_subtitle (shown), ==, expected[e].kind);
      }
  }

  /* A finding alone with its name says nothing more. */
  g_ptr_array_remove_index (findings, 1);
  sl_folder_restore_findings (folder, findings);
  shown = shown_row (panel, profile);
  g_assert_nonnull (shown);
  g_assert_cmpstr (sl_workspace_row_get_subtitle (shown), ==, "");
  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-workspace-row-XXXXXX");
  if (skip_without_display ())
    return 77;

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/workspace-row/section-and-target", test_section_and_target);
  g_test_add_func ("/workspace-row/folder-scan", test_folder_scan);
  g_test_add_func ("/workspace-row/finding-kinds", test_finding_kinds);
  g_test_add_func ("/workspace-row/panel", test_panel_rows);
  g_test_add_func ("/workspace-row/names-told-apart", test_names_told_apart);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
