/* sl-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window hosts: the dock and its panels, the documents the registry
 * makes, and the Console following the job controller. It knows no view
 * by name; links between documents are actions (sl-window-actions.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <libpanel.h>

#include "sl-application.h"
#include "sl-document-registry.h"
#include "sl-welcome-page.h"
#include "sl-window-private.h"

#define PROGRESS_INTERVAL_MS 100

G_DEFINE_FINAL_TYPE (SlWindow, sl_window, ADW_TYPE_APPLICATION_WINDOW)

void
sl_window_show_toast (SlWindow   *self,
                      const char *message)
{
  g_return_if_fail (SL_IS_WINDOW (self));

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

void
sl_window_add_problem (SlWindow  *self,
                       SlProblem *problem)
{
  g_return_if_fail (SL_IS_WINDOW (self));

  sl_problems_panel_add (self->problems_panel, problem);
}

static PanelFrame *
sl_window_create_frame_cb (SlWindow  *self,
                           PanelGrid *grid)
{
  PanelFrame *frame = PANEL_FRAME (panel_frame_new ());

  panel_frame_set_header (frame, PANEL_FRAME_HEADER (panel_frame_tab_bar_new ()));
  panel_frame_set_placeholder (frame, sl_welcome_page_new ());

  return frame;
}

typedef struct {
  const char  *id;
  PanelWidget *found;
  guint        count;
} FindDocument;

static void
find_document_in_frame (PanelFrame *frame,
                        gpointer    user_data)
{
  FindDocument *find = user_data;
  guint n = panel_frame_get_n_pages (frame);

  for (guint i = 0; i < n; i++)
    {
      PanelWidget *page = panel_frame_get_page (frame, i);

      find->count++;
      if (find->id != NULL && find->found == NULL && g_strcmp0 (panel_widget_get_id (page), find->id) == 0)
        find->found = page;
    }
}

/**
 * sl_window_find_document:
 *
 * Returns: (transfer none) (nullable): the open document with @id
 */
PanelWidget *
sl_window_find_document (SlWindow   *self,
                         const char *id)
{
  FindDocument find = { id, NULL, 0 };

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  panel_grid_foreach_frame (self->grid, find_document_in_frame, &find);
  return find.found;
}

guint
sl_window_get_n_documents (SlWindow *self)
{
  FindDocument find = { NULL, NULL, 0 };

  g_return_val_if_fail (SL_IS_WINDOW (self), 0);

  panel_grid_foreach_frame (self->grid, find_document_in_frame, &find);
  return find.count;
}

/**
 * sl_window_find_panel:
 *
 * Returns: (transfer none) (nullable): the dock panel with @id
 */
PanelWidget *
sl_window_find_panel (SlWindow   *self,
                      const char *id)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  return sl_dock_layout_find_panel (self->layout, id);
}

static void
forward_problems_cb (SlWindow   *self,
                     guint       position,
                     guint       removed,
                     guint       added,
                     GListModel *problems)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      sl_problems_panel_add (self->problems_panel, problem);
    }
}

static void
document_details_changed_cb (SlWindow   *self,
                             SlDocument *document)
{
  sl_document_show_details (document, self->details_panel);
}

static void
show_document (SlWindow   *self,
               SlDocument *document)
{
  GListModel *problems = sl_document_get_problems (document);

  g_signal_connect_object (problems, "items-changed", G_CALLBACK (forward_problems_cb), self, G_CONNECT_SWAPPED);
  forward_problems_cb (self, 0, 0, g_list_model_get_n_items (problems), problems);
  g_signal_connect_object (document, "details-changed", G_CALLBACK (document_details_changed_cb), self,
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
  const SlDocumentKind *kind;
  g_autofree char *id = NULL;
  PanelWidget *page;
  SlDocument *document;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (kind_id != NULL && path != NULL, NULL);

  if (!(kind = sl_document_registry_lookup (kind_id)))
    return NULL;

  id = sl_document_registry_dup_id (kind, path);
  if ((page = sl_window_find_document (self, id)) != NULL)
    {
      panel_widget_raise (page);
      return SL_IS_DOCUMENT (page) ? SL_DOCUMENT (page) : NULL;
    }

  document = sl_document_registry_create (kind, path, item, self->workspace);
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

  sl_details_panel_show (self->details_panel, item);
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

static void
update_scan_status (SlWindow *self)
{
  GListModel *folders = sl_workspace_get_folders (self->workspace);
  guint n = g_list_model_get_n_items (folders);
  guint files = 0;
  const char *name = NULL;
  g_autofree char *status = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (folders, i);

      if (sl_folder_get_state (folder) == SL_FOLDER_SCANNING)
        {
          files += sl_folder_poll_progress (folder);
          name = sl_folder_get_name (folder);
        }
    }

  if (name != NULL)
    {
      status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Scanning %s: %u file looked at…",
                                             "Scanning %s: %u files looked at…", files),
                                name, files);
      gtk_label_set_label (self->status_label, status);
      gtk_progress_bar_pulse (self->scan_progress);
    }
}

static gboolean
progress_timeout_cb (gpointer user_data)
{
  update_scan_status (SL_WINDOW (user_data));
  return G_SOURCE_CONTINUE;
}

/* The scan box shows while the workspace scans; a counter read from the
 * scanning threads moves the progress. */
static void
n_scanning_changed_cb (SlWindow    *self,
                       GParamSpec  *pspec,
                       SlWorkspace *workspace)
{
  gboolean scanning = sl_workspace_get_n_scanning (workspace) > 0;

  gtk_widget_set_visible (self->scan_box, scanning);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-scan", scanning);
  if (scanning && self->progress_source == 0)
    self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, progress_timeout_cb, self);
  else if (!scanning)
    g_clear_handle_id (&self->progress_source, g_source_remove);
}

static void
report_scan (SlWindow *self,
             SlFolder *folder)
{
  guint n_findings = g_list_model_get_n_items (sl_folder_get_findings (folder));
  guint n_problems = g_list_model_get_n_items (sl_folder_get_problems (folder));
  g_autofree char *found = NULL;
  g_autofree char *problems = NULL;
  g_autofree char *status = NULL;

  /* Translators: "%s" is a folder name, then "3 found in 47 files (12 ms)" and "2 problems". */
  found = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u found in %u file (%.0f ms)",
                                        "%u found in %u files (%.0f ms)", sl_folder_get_files_scanned (folder)),
                           n_findings, sl_folder_get_files_scanned (folder), sl_folder_get_scan_time (folder) / 1000.0);
  problems = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u problem", "%u problems", n_problems), n_problems);
  status = g_strdup_printf (_("%s: %s, %s"), sl_folder_get_name (folder), found, problems);
  gtk_label_set_label (self->status_label, status);

  if (n_problems > 0)
    {
      g_autofree char *toast = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "%u problem while reading %s: see Problems",
                                                             "%u problems while reading %s: see Problems",
                                                             n_problems),
                                                n_problems, sl_folder_get_name (folder));
      sl_problems_panel_add_all (self->problems_panel, sl_folder_get_problems (folder));
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

  if (error != NULL)
    {
      g_autoptr(SlProblem) problem = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_label_set_label (self->status_label, _("Scanning stopped"));
          return;
        }

      problem = sl_problem_new (SL_SEVERITY_ERROR, _("Workspace"), sl_folder_get_path (folder), -1, error->message);
      sl_problems_panel_add (self->problems_panel, problem);
      gtk_label_set_label (self->status_label, error->message);
    }
  else
    report_scan (self, folder);

  if (single_file && !(error == NULL && open_single_file (self, folder)))
    sl_window_open_item (self, G_OBJECT (folder));

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

      sl_problems_panel_add (self->problems_panel, problem);
      if (sl_problem_get_severity (problem) >= SL_SEVERITY_WARNING)
        sl_window_show_toast (self, sl_problem_get_message (problem));
    }
}

/**
 * sl_window_open_path:
 * @path: a folder or a file
 *
 * Adds @path to the Workspace (or finds it there) and scans it in a
 * worker. A folder shows its page at once; a single file shows its own
 * document once the scan has recognised it.
 *
 * Returns: (transfer none): the folder
 */
SlFolder *
sl_window_open_path (SlWindow   *self,
                     const char *path)
{
  SlFolder *folder;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  folder = sl_workspace_open_path (self->workspace, path);
  adw_window_title_set_subtitle (self->window_title, sl_folder_get_path (folder));
  sl_workspace_panel_select_item (self->workspace_panel, G_OBJECT (folder));

  if (g_file_test (sl_folder_get_path (folder), G_FILE_TEST_IS_REGULAR))
    g_hash_table_add (self->opening_files, g_strdup (sl_folder_get_path (folder)));
  else
    sl_window_open_item (self, G_OBJECT (folder));

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

  id = g_strdup_printf ("folder:%s", path);
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
 * Returns: whether a scan or a job is running
 */
gboolean
sl_window_is_busy (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  return sl_workspace_get_n_scanning (self->workspace) > 0 || sl_console_panel_is_running (self->console_panel);
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

/* Jobs: the controller runs them, the Console shows them. */

static void
report_run_error (SlWindow   *self,
                  const char *working_dir,
                  const char *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_ERROR, _("Run"), working_dir, -1, message);

  sl_problems_panel_add (self->problems_panel, problem);
  sl_console_panel_append (self->console_panel, message, -1);
  sl_console_panel_append (self->console_panel, "\n", -1);
  sl_window_show_toast (self, message);
}

/**
 * sl_window_run_argv:
 * @working_dir: (nullable): where to run; folders opened in the workspace
 *   that contain it, or are inside it, are scanned again when the job ends
 *
 * Runs a program on this computer, its output streamed into the Console
 * and the job kept in the history.
 */
void
sl_window_run_argv (SlWindow           *self,
                    const char * const *argv,
                    const char         *working_dir)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);

  panel_dock_set_reveal_area (self->dock, PANEL_AREA_BOTTOM, TRUE);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));

  if (!sl_job_controller_run_local (self->jobs, argv, working_dir, &error))
    report_run_error (self, working_dir, error->message);
}

/**
 * sl_window_run_command:
 * @command_line: a command with arguments quoted as in a POSIX shell
 */
void
sl_window_run_command (SlWindow   *self,
                       const char *command_line,
                       const char *working_dir)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (command_line != NULL);

  if (!g_shell_parse_argv (command_line, NULL, &argv, &error))
    {
      g_autofree char *message = g_strdup_printf (_("The command “%s” could not be read: %s"), command_line, error->message);

      report_run_error (self, working_dir, message);
      return;
    }

  sl_window_run_argv (self, (const char * const *)argv, working_dir);
}

/**
 * sl_window_run_on_target:
 * @target_id: an SSH target of the workspace
 * @project_dir: the local folder uploaded and run in
 * @pull_dirs: (nullable): output folders under it, space-separated
 * @remote_dir: (nullable): where it goes on the target
 * @excludes: (nullable): patterns not to upload, instead of the defaults
 *
 * Uploads @project_dir, starts @command_line there as a detached job,
 * streams its log into the Console, pulls the output folders into the
 * cache while it runs and opens them in the Workspace.
 *
 * Returns: %TRUE when the job was started
 */
gboolean
sl_window_run_on_target (SlWindow           *self,
                         gint64              target_id,
                         const char         *command_line,
                         const char         *project_dir,
                         const char         *pull_dirs,
                         const char         *remote_dir,
                         const char * const *excludes,
                         GError            **error)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  return sl_job_controller_run_on_target (self->jobs, target_id, command_line, project_dir, pull_dirs,
                                          remote_dir, excludes, error);
}

static void
job_started_cb (SlWindow        *self,
                const char      *title,
                const char      *command_line,
                SlJobController *jobs)
{
  g_autofree char *line = g_strdup_printf ("$ %s\n", command_line);

  sl_console_panel_begin_job (self->console_panel, title);
  sl_console_panel_append (self->console_panel, line, -1);
}

static void
job_output_cb (SlWindow        *self,
               GBytes          *data,
               SlJobController *jobs)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  sl_console_panel_append (self->console_panel, bytes, size);
}

static void
job_message_cb (SlWindow        *self,
                const char      *text,
                SlJobController *jobs)
{
  g_autofree char *line = g_strdup_printf ("[%s]\n", text);

  sl_console_panel_append (self->console_panel, line, -1);
}

static void
job_status_cb (SlWindow        *self,
               const char      *status,
               SlJobController *jobs)
{
  sl_console_panel_set_job_status (self->console_panel, status);
}

/* Pulled output appears in the Workspace; later pulls that brought new
 * files rescan it (open views follow their files by themselves). */
static void
job_pulled_cb (SlWindow        *self,
               const char      *local_dir,
               guint            n_changed,
               SlJobController *jobs)
{
  SlFolder *folder = sl_workspace_lookup_folder (self->workspace, local_dir);

  if (folder == NULL)
    sl_window_open_path (self, local_dir);
  else if (n_changed > 0)
    sl_workspace_rescan (self->workspace, folder);
}

/* A job's outputs (summaries, profiles) appear in the workspace when it
 * ends: folders it ran in, or that it ran inside, are scanned again. */
static void
job_finished_cb (SlWindow        *self,
                 int              exit_code,
                 const char      *reason,
                 SlJobController *jobs)
{
  const char *working_dir = sl_job_controller_get_working_dir (jobs);

  sl_console_panel_end_job (self->console_panel, exit_code, reason);
  if (working_dir != NULL)
    sl_workspace_rescan_around (self->workspace, working_dir);
}

static void
console_stop_requested_cb (SlWindow       *self,
                           SlConsolePanel *console)
{
  sl_job_controller_stop (self->jobs);
}

static void
read_job_log_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(SlWindow) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const char *data;

  if (!(bytes = sl_job_controller_read_log_finish (SL_JOB_CONTROLLER (object), result, &error)))
    {
      g_autofree char *line = g_strdup_printf (_("[The log could not be read: %s]\n"), error->message);

      sl_console_panel_append (self->console_panel, line, -1);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size > 0)
    sl_console_panel_append (self->console_panel, data, size);
  sl_console_panel_append (self->console_panel, _("[end of the log]\n"), -1);
}

/**
 * sl_window_show_job_log:
 * @job: a job of the history
 *
 * Reads the job's log (on its server for a remote job) into the Console.
 */
void
sl_window_show_job_log (SlWindow    *self,
                        SlJobRecord *job)
{
  g_autofree char *header = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  header = g_strdup_printf (_("\n[Log of job %lld: %s]\n"), (long long)sl_job_record_get_id (job),
                            sl_job_record_get_command (job));
  sl_console_panel_append (self->console_panel, header, -1);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));
  sl_job_controller_read_log_async (self->jobs, job, NULL, read_job_log_cb, g_object_ref (self));
}

static void
workspace_item_activated_cb (SlWindow *self,
                             GObject  *item)
{
  if (SL_IS_JOB_RECORD (item))
    sl_window_show_job_log (self, SL_JOB_RECORD (item));
  else
    sl_window_open_item (self, item);
}

static void
selection_changed_cb (SlWindow *self,
                      GObject  *item)
{
  if (item != NULL && !G_IS_FILE (item))
    sl_details_panel_show (self->details_panel, item);
}

static void
problem_activated_cb (SlWindow  *self,
                      SlProblem *problem)
{
  sl_details_panel_show (self->details_panel, G_OBJECT (problem));
  panel_dock_set_reveal_area (self->dock, PANEL_AREA_END, TRUE);
  panel_widget_raise (PANEL_WIDGET (self->details_panel));
}

/**
 * sl_window_describe_layout:
 *
 * Returns: (transfer full): one "id:area:frame" token per dock panel,
 *   space-separated, for tests and the window report
 */
char *
sl_window_describe_layout (SlWindow *self)
{
  static const char *ids[] = { "workspace", "problems", "console", "details" };
  GString *str = g_string_new (NULL);

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      PanelWidget *panel = sl_dock_layout_find_panel (self->layout, ids[i]);
      PanelArea area;
      guint frame;

      if (panel == NULL || !sl_dock_layout_get_placement (self->layout, panel, &area, &frame))
        continue;
      g_string_append_printf (str, "%s%s:%s:%u", str->len ? " " : "", ids[i],
                              sl_dock_layout_area_to_id (area), frame);
    }

  return g_string_free (str, FALSE);
}

void
sl_window_save_state (SlWindow *self)
{
  int width, height;

  g_return_if_fail (SL_IS_WINDOW (self));

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_set_value (self->settings, "layout", sl_dock_layout_save (self->layout));
}

static gboolean
sl_window_close_request (GtkWindow *window)
{
  SlWindow *self = SL_WINDOW (window);

  sl_window_save_state (self);

  return GTK_WINDOW_CLASS (sl_window_parent_class)->close_request (window);
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         SlWindow      *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  files = g_value_get_boxed (value);
  for (const GSList *l = files; l != NULL; l = l->next)
    {
      g_autofree char *path = g_file_get_path (l->data);

      if (path != NULL)
        sl_window_open_path (self, path);
    }

  return files != NULL;
}

static GMenuModel *
create_panel_menu (const char *panel_id)
{
  static const struct {
    const char *area;
    const char *label;
  } targets[] = {
    { "start", N_("Move to the _Left") },
    { "end", N_("Move to the _Right") },
    { "bottom", N_("Move to the _Bottom") },
    { "center", N_("Move to the _Documents") },
  };
  GMenu *menu = g_menu_new ();

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(targets[i].label), NULL);

      g_menu_item_set_action_and_target (item, "win.move-panel", "(ss)", panel_id, targets[i].area);
      g_menu_append_item (menu, item);
    }

  return G_MENU_MODEL (menu);
}

static void
add_panel (SlWindow    *self,
           PanelWidget *panel,
           PanelArea    area,
           guint        frame)
{
  g_autoptr(GMenuModel) menu = create_panel_menu (panel_widget_get_id (panel));

  panel_widget_set_menu_model (panel, menu);
  sl_dock_layout_add_panel (self->layout, panel, area, frame);
}

/* Panels need the application's models, and "application" is set only
 * after construction, so this runs from sl_window_new(). */
static void
create_panels (SlWindow      *self,
               SlApplication *app)
{
  g_autoptr(GVariant) layout = NULL;

  GListModel *problems;

  self->workspace = g_object_ref (sl_application_get_workspace (app));
  self->jobs = sl_job_controller_new (self->workspace);
  self->workspace_panel = SL_WORKSPACE_PANEL (sl_workspace_panel_new (sl_workspace_get_targets (self->workspace),
                                                                      sl_workspace_get_folders (self->workspace),
                                                                      sl_workspace_get_recent_folders (self->workspace),
                                                                      sl_workspace_get_jobs (self->workspace)));
  self->problems_panel = SL_PROBLEMS_PANEL (sl_problems_panel_new ());
  self->console_panel = SL_CONSOLE_PANEL (sl_console_panel_new ());
  self->details_panel = SL_DETAILS_PANEL (sl_details_panel_new ());

  g_signal_connect_object (self->workspace_panel, "item-activated", G_CALLBACK (workspace_item_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workspace_panel, "selection-changed", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->problems_panel, "selection-changed", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->problems_panel, "problem-activated", G_CALLBACK (problem_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->console_panel, "stop-requested", G_CALLBACK (console_stop_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "started", G_CALLBACK (job_started_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "output", G_CALLBACK (job_output_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "message", G_CALLBACK (job_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "status", G_CALLBACK (job_status_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "pulled", G_CALLBACK (job_pulled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->jobs, "finished", G_CALLBACK (job_finished_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workspace, "folder-scanned", G_CALLBACK (folder_scanned_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workspace, "notify::n-scanning", G_CALLBACK (n_scanning_changed_cb), self,
                           G_CONNECT_SWAPPED);
  n_scanning_changed_cb (self, NULL, self->workspace);

  self->layout = sl_dock_layout_new (self->dock, self->grid);
  sl_dock_layout_set_area (self->layout, PANEL_AREA_START, self->start_paned);
  sl_dock_layout_set_area (self->layout, PANEL_AREA_END, self->end_paned);
  sl_dock_layout_set_area (self->layout, PANEL_AREA_BOTTOM, self->bottom_paned);

  add_panel (self, PANEL_WIDGET (self->workspace_panel), PANEL_AREA_START, 0);
  add_panel (self, PANEL_WIDGET (self->problems_panel), PANEL_AREA_BOTTOM, 0);
  add_panel (self, PANEL_WIDGET (self->console_panel), PANEL_AREA_BOTTOM, 0);
  add_panel (self, PANEL_WIDGET (self->details_panel), PANEL_AREA_END, 0);
  panel_widget_raise (PANEL_WIDGET (self->problems_panel));

  panel_dock_set_start_width (self->dock, 300);
  panel_dock_set_end_width (self->dock, 320);
  panel_dock_set_bottom_height (self->dock, 220);

  layout = g_settings_get_value (self->settings, "layout");
  sl_dock_layout_restore (self->layout, layout);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* What went wrong with the workspace before this window, and since. */
  problems = sl_workspace_get_problems (self->workspace);
  g_signal_connect_object (problems, "items-changed", G_CALLBACK (workspace_problems_cb), self, G_CONNECT_SWAPPED);
  workspace_problems_cb (self, 0, 0, g_list_model_get_n_items (problems), problems);
}

static void
sl_window_dispose (GObject *object)
{
  SlWindow *self = (SlWindow *)object;

  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_WINDOW);
  g_clear_object (&self->layout);
  g_clear_object (&self->jobs);

  G_OBJECT_CLASS (sl_window_parent_class)->dispose (object);
}

static void
sl_window_finalize (GObject *object)
{
  SlWindow *self = (SlWindow *)object;

  g_clear_object (&self->workspace);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->opening_files, g_hash_table_unref);

  G_OBJECT_CLASS (sl_window_parent_class)->finalize (object);
}

static void
sl_window_class_init (SlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = sl_window_dispose;
  object_class->finalize = sl_window_finalize;
  window_class->close_request = sl_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SlWindow, dock);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, grid);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, start_paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, end_paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, bottom_paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, scan_box);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, scan_progress);
  gtk_widget_class_bind_template_callback (widget_class, sl_window_create_frame_cb);

  _sl_window_class_add_actions (widget_class);
  sl_document_registry_ensure_builtin ();

  g_type_ensure (PANEL_TYPE_DOCK);
  g_type_ensure (PANEL_TYPE_GRID);
  g_type_ensure (PANEL_TYPE_PANED);
  g_type_ensure (PANEL_TYPE_STATUSBAR);
  g_type_ensure (PANEL_TYPE_TOGGLE_BUTTON);
}

static void
sl_window_init (SlWindow *self)
{
  GtkDropTarget *drop;

  self->settings = g_settings_new (APP_ID);
  self->opening_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-scan", FALSE);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

#ifdef DEVELOPMENT_BUILD
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
}

SlWindow *
sl_window_new (SlApplication *app)
{
  SlWindow *self;

  g_return_val_if_fail (SL_IS_APPLICATION (app), NULL);

  self = g_object_new (SL_TYPE_WINDOW, "application", app, NULL);
  create_panels (self, app);

  return self;
}
