/* sl-window-documents.c: the window's documents, made by the registry,
 * and the Workspace's folders and scans
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-document-registry.h"
#include "sl-window-private.h"

/* Details shows what a panel selected (an item), or the selection of
 * the document in front (see sl_details_panel_set_document()). */
void
_sl_window_details_show_item (SlWindow *self,
                              GObject  *item)
{
  sl_details_panel_show (self->details_panel, item);
}

/* Details and Problems follow the document in front. */
static void
set_front_document (SlWindow   *self,
                    SlDocument *document)
{
  sl_details_panel_set_document (self->details_panel, document);
  sl_problems_panel_set_document (self->problems_panel, document);
}

/**
 * _sl_window_show_front_details:
 * @front: (nullable): the page now in front of its frame
 */
void
_sl_window_show_front_details (SlWindow    *self,
                               PanelWidget *front)
{
  set_front_document (self, SL_IS_DOCUMENT (front) ? SL_DOCUMENT (front) : NULL);
}

/* A document selected something: it is the one the user works in, even
 * in a frame whose front changed earlier than another's. A document in
 * front of its frame that selects nothing any more takes Details too, so
 * Details keeps no other document's selection. */
static void
document_selection_cb (SlWindow   *self,
                       GParamSpec *pspec,
                       SlDocument *document)
{
  PanelFrame *frame;

  if (self->disposing)
    return;
  frame = PANEL_FRAME (gtk_widget_get_ancestor (GTK_WIDGET (document), PANEL_TYPE_FRAME));
  if (sl_document_get_selection (document) != NULL ||
      (frame != NULL && panel_frame_get_visible_child (frame) == PANEL_WIDGET (document)))
    set_front_document (self, document);
}

static void
show_document (SlWindow   *self,
               SlDocument *document)
{
  g_signal_connect_object (document, "notify::selection", G_CALLBACK (document_selection_cb), self,
                           G_CONNECT_SWAPPED);
  panel_grid_add (self->grid, PANEL_WIDGET (document));
  panel_widget_raise (PANEL_WIDGET (document));
}

/**
 * sl_window_open_document:
 * @kind_id: a kind of the document registry ("scalars", "timeline", ...)
 * @path: what it shows
 * @item: (nullable): the finding or folder it shows, when there is one
 *
 * Raises the document of @kind_id for @path, or opens it.
 *
 * Returns: (transfer none) (nullable): the document, or %NULL when no such
 *   kind is registered
 */
SlDocument *
sl_window_open_document (SlWindow   *self,
                         const char *kind_id,
                         const char *path,
                         GObject    *item)
{
  g_autoptr(SlDocumentAddress) address = NULL;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (kind_id != NULL && path != NULL, NULL);

  address = sl_document_address_new_for_path (path);
  return sl_window_open_address (self, kind_id, address, item);
}

/**
 * sl_window_open_address:
 * @kind_id: a kind of the document registry ("compare", ...)
 * @address: what it shows: one path, or a comparison's sides in order
 * @item: (nullable): the finding or folder it shows, when there is one
 *
 * Raises the document of @kind_id for @address, or opens it.
 *
 * Returns: (transfer none) (nullable): the document, or %NULL when no such
 *   kind is registered
 */
SlDocument *
sl_window_open_address (SlWindow          *self,
                        const char        *kind_id,
                        SlDocumentAddress *address,
                        GObject           *item)
{
  const SlDocumentKind *kind;
  g_autofree char *id = NULL;
  PanelWidget *page;
  SlDocument *document;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (kind_id != NULL && address != NULL, NULL);

  if (!(kind = sl_document_registry_lookup (kind_id)))
    return NULL;

  id = sl_document_registry_dup_address_id (kind, address);
  if ((page = sl_window_find_document (self, id)) != NULL)
    {
      panel_widget_raise (page);
      return SL_IS_DOCUMENT (page) ? SL_DOCUMENT (page) : NULL;
    }

  document = sl_document_registry_create_for_address (kind, address, item, self->workspace);
  show_document (self, document);
  return document;
}

/**
 * sl_window_open_item:
 * @item: an #SlFolder, an #SlFinding, or a #GFile to open in the Workspace
 *
 * Opens the document that shows @item, and shows @item in Details.
 */
void
sl_window_open_item (SlWindow *self,
                     GObject  *item)
{
  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (G_IS_OBJECT (item));

  if (SL_IS_FOLDER (item))
    sl_window_open_document (self, "folder", sl_folder_get_path (SL_FOLDER (item)), item);
  else if (SL_IS_FINDING (item))
    {
      const SlDocumentKind *kind = sl_document_registry_lookup_finding (sl_finding_get_kind (SL_FINDING (item)));

      if (kind != NULL)
        sl_window_open_document (self, kind->id, sl_finding_get_path (SL_FINDING (item)), item);
    }
  else if (G_IS_FILE (item))
    {
      g_autofree char *path = g_file_get_path (G_FILE (item));

      if (path != NULL)
        sl_window_open_path (self, path);
      return;
    }

  _sl_window_details_show_item (self, item);
}

static SlFinding *
lookup_finding (SlWindow   *self,
                const char *kind_id,
                const char *path)
{
  GListModel *folders = sl_workspace_get_folders (self->workspace);

  for (guint i = 0; i < g_list_model_get_n_items (folders); i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (folders, i);
      GListModel *findings = sl_folder_get_findings (folder);

      for (guint j = 0; j < g_list_model_get_n_items (findings); j++)
        {
          g_autoptr(SlFinding) finding = g_list_model_get_item (findings, j);

          if (g_str_equal (sl_finding_get_path (finding), path) &&
              g_str_equal (sl_finding_kind_to_id (sl_finding_get_kind (finding)), kind_id))
            return finding;
        }
    }

  return NULL;
}

/* The files the scans looked at, as the session counts them. */
static void
scan_progress_cb (SlWindow   *self,
                  GParamSpec *pspec,
                  SlSession  *session)
{
  guint files = sl_session_get_scan_progress (session);
  const char *name = sl_session_get_scan_folder (session);
  g_autofree char *count = NULL;
  g_autofree char *status = NULL;

  if (name == NULL || sl_session_get_n_scanning (session) == 0)
    return;
  count = sl_count_format (files);
  status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Scanning %s: %s file looked at…",
                                         "Scanning %s: %s files looked at…", files),
                            name, count);
  gtk_label_set_label (self->status_label, status);
  gtk_progress_bar_pulse (self->scan_progress);
}

/* The scan box shows while the workspace scans. */
static void
n_scanning_changed_cb (SlWindow   *self,
                       GParamSpec *pspec,
                       SlSession  *session)
{
  gboolean scanning = sl_session_get_n_scanning (session) > 0;

  gtk_widget_set_visible (self->scan_box, scanning);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-scan", scanning);
}

static void
report_scan (SlWindow *self,
             SlFolder *folder)
{
  guint n_findings = g_list_model_get_n_items (sl_folder_get_findings (folder));
  guint n_problems = g_list_model_get_n_items (sl_folder_get_problems (folder));
  g_autofree char *n_findings_text = sl_count_format (n_findings);
  g_autofree char *n_files_text = sl_count_format (sl_folder_get_files_scanned (folder));
  g_autofree char *n_problems_text = sl_count_format (n_problems);
  g_autofree char *found = NULL;
  g_autofree char *problems = NULL;
  g_autofree char *status = NULL;

  /* Translators: "%s" is a folder name, then "3 found in 47 files (12 ms)" and "2 problems while scanning". */
  found = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s found in %s file (%.0f ms)",
                                        "%s found in %s files (%.0f ms)", sl_folder_get_files_scanned (folder)),
                           n_findings_text, n_files_text, sl_folder_get_scan_time (folder) / 1000.0);
  /* The scan's own problems only: the Problems panel also lists those of
   * the documents open, so a count of none would contradict it. */
  if (n_problems > 0)
    {
      problems = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s problem while scanning", "%s problems while scanning", n_problems),
                                  n_problems_text);
      status = g_strdup_printf (_("%s: %s, %s"), sl_folder_get_name (folder), found, problems);
    }
  else
    status = g_strdup_printf (_("%s: %s"), sl_folder_get_name (folder), found);
  gtk_label_set_label (self->status_label, status);

  if (n_problems > 0)
    {
      g_autofree char *toast = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "%s problem while reading %s: see Problems",
                                                             "%s problems while reading %s: see Problems",
                                                             n_problems),
                                                n_problems_text, sl_folder_get_name (folder));
      sl_window_show_toast (self, toast);
    }
}

/* A file opened by itself shows its document, once the scan says what
 * it is; anything else (or nothing recognised) shows the folder page. */
static gboolean
open_single_file (SlWindow *self,
                  SlFolder *folder)
{
  GListModel *findings = sl_folder_get_findings (folder);
  g_autoptr(SlFinding) finding = NULL;
  const SlDocumentKind *kind;

  if (g_list_model_get_n_items (findings) != 1)
    return FALSE;

  finding = g_list_model_get_item (findings, 0);
  kind = sl_document_registry_lookup_finding (sl_finding_get_kind (finding));
  if (kind == NULL || kind->opens_any_finding)
    return FALSE;

  sl_window_open_item (self, G_OBJECT (finding));
  return TRUE;
}

static void
folder_scanned_cb (SlWindow    *self,
                   SlFolder    *folder,
                   GError      *error,
                   SlWorkspace *workspace)
{
  gboolean single_file = g_hash_table_remove (self->opening_files, sl_folder_get_path (folder));
  gboolean opened_folder = g_hash_table_remove (self->opening_folders, sl_folder_get_path (folder));

  g_hash_table_remove (self->scanning_paths, sl_folder_get_path (folder));

  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_label_set_label (self->status_label, _("Scanning stopped"));
          return;
        }

      /* The session keeps the problem (sl-session.c); the status says it. */
      gtk_label_set_label (self->status_label, error->message);
    }
  else
    report_scan (self, folder);

  if (single_file && !(error == NULL && open_single_file (self, folder)))
    sl_window_open_item (self, G_OBJECT (folder));
  /* A folder holding one thing (a profile, a trace, a run) shows it; its
   * folder page stays one tab away. */
  if (opened_folder && error == NULL)
    open_single_file (self, folder);

  if (sl_details_panel_get_item (self->details_panel) == G_OBJECT (folder))
    sl_details_panel_show (self->details_panel, G_OBJECT (folder));
}

static void
workspace_problems_cb (SlWindow   *self,
                       guint       position,
                       guint       removed,
                       guint       added,
                       GListModel *problems)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (sl_problem_get_severity (problem) >= SL_SEVERITY_WARNING)
        sl_window_show_toast (self, sl_problem_get_message (problem));
    }
}

typedef struct {
  SlWindow *window;
  SlFolder *folder;
} OpenPath;

static void
open_path_free (OpenPath *open)
{
  g_clear_weak_pointer (&open->window);
  g_object_unref (open->folder);
  g_free (open);
}

/* A file shows its document once the scan says what it is (now, if the
 * scan was quicker than this answer); anything else shows its folder page,
 * which follows the scan. */
static void
path_type_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  OpenPath *open = user_data;
  g_autoptr(GFileInfo) info = g_file_query_info_finish (G_FILE (object), result, NULL);
  SlWindow *self = open->window;
  SlFolder *folder = open->folder;

  if (self != NULL && sl_workspace_lookup_folder (self->workspace, sl_folder_get_path (folder)) == folder)
    {
      gboolean is_file = info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR;
      gboolean scanned = sl_folder_get_state (folder) != SL_FOLDER_SCANNING &&
                         !g_hash_table_contains (self->scanning_paths, sl_folder_get_path (folder));

      if (!is_file)
        {
          sl_window_open_item (self, G_OBJECT (folder));
          if (!scanned)
            g_hash_table_add (self->opening_folders, g_strdup (sl_folder_get_path (folder)));
          else
            open_single_file (self, folder);
        }
      else if (!scanned)
        g_hash_table_add (self->opening_files, g_strdup (sl_folder_get_path (folder)));
      else if (!open_single_file (self, folder))
        sl_window_open_item (self, G_OBJECT (folder));
    }

  open_path_free (open);
}

/**
 * sl_window_open_path:
 * @path: a folder or a file
 *
 * Adds @path to the Workspace (or finds it there) and scans it in a
 * worker. A folder shows its page, which follows the scan, and then the
 * document of what it holds when that is one thing; a single file shows
 * its own document once the scan has recognised it. Whether @path
 * is a file is asked in the background too: the disk may be a slow one.
 *
 * Returns: (transfer none): the folder
 */
SlFolder *
sl_window_open_path (SlWindow   *self,
                     const char *path)
{
  g_autoptr(GFile) file = NULL;
  SlFolder *folder;
  OpenPath *open;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  folder = sl_workspace_open_path (self->workspace, path);
  adw_window_title_set_subtitle (self->window_title, sl_folder_get_path (folder));
  sl_workspace_panel_select_item (self->workspace_panel, G_OBJECT (folder));
  g_hash_table_add (self->scanning_paths, g_strdup (sl_folder_get_path (folder)));

  open = g_new0 (OpenPath, 1);
  g_set_weak_pointer (&open->window, self);
  open->folder = g_object_ref (folder);
  file = g_file_new_for_path (sl_folder_get_path (folder));
  g_file_query_info_async (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT,
                           NULL, path_type_cb, open);

  return folder;
}

/**
 * sl_window_remove_folder:
 * @path: an opened folder
 *
 * Takes @path out of the Workspace and closes its document; the files are
 * not touched.
 */
void
sl_window_remove_folder (SlWindow   *self,
                         const char *path)
{
  g_autofree char *id = NULL;
  PanelWidget *page;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  id = sl_document_registry_dup_id (sl_document_registry_lookup ("folder"), path);
  if ((page = sl_window_find_document (self, id)) != NULL)
    panel_widget_close (page);

  sl_workspace_remove_folder (self->workspace, path);
}

SlWorkspace *
sl_window_get_workspace (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  return self->workspace;
}

/**
 * sl_window_is_busy:
 *
 * Returns: whether the session scans or runs a job or a workflow
 */
gboolean
sl_window_is_busy (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  return sl_session_get_busy (self->session);
}

/**
 * sl_window_open_finding:
 * @kind_id: a finding kind's id ("summary-run", ...)
 * @path: the finding's path
 *
 * Opens the document of a finding of the Workspace.
 *
 * Returns: whether the Workspace holds that finding
 */
gboolean
sl_window_open_finding (SlWindow   *self,
                        const char *kind_id,
                        const char *path)
{
  SlFinding *finding;

  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  if (!(finding = lookup_finding (self, kind_id, path)))
    return FALSE;

  sl_window_open_item (self, G_OBJECT (finding));
  return TRUE;
}

/* Follows the workspace: its scans, what they found, its problems. */
void
_sl_window_connect_workspace (SlWindow *self)
{
  GListModel *problems = sl_workspace_get_problems (self->workspace);

  g_signal_connect_object (self->workspace, "folder-scanned", G_CALLBACK (folder_scanned_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::n-scanning", G_CALLBACK (n_scanning_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::scan-progress", G_CALLBACK (scan_progress_cb), self,
                           G_CONNECT_SWAPPED);
  n_scanning_changed_cb (self, NULL, self->session);

  /* What went wrong with the workspace before this window, and since. */
  g_signal_connect_object (problems, "items-changed", G_CALLBACK (workspace_problems_cb), self, G_CONNECT_SWAPPED);
  workspace_problems_cb (self, 0, 0, g_list_model_get_n_items (problems), problems);
}
