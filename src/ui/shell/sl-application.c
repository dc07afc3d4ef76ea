/* sl-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <libpanel.h>

#include "sl-application.h"
#include "sl-demo-workspace.h"
#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-platform.h"
#include "sl-preferences-window.h"
#include "sl-window.h"
#include "sl-window-report.h"

struct _SlApplication
{
  AdwApplication     parent_instance;

  GSettings         *settings;
  SlWorkspaceStore  *store;
  GPtrArray         *startup_problems;
  GListStore        *targets;
  GListStore        *recent_folders;
  GListStore        *jobs;

  /* Command-line options */
  gboolean           open_demo;
  char              *screenshot_path;
  char              *report_path;
  gboolean           quit_after_first_frame;
  gint64             start_time;
};

G_DEFINE_FINAL_TYPE (SlApplication, sl_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "demo", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Open the demo workspace"), NULL },
  { "screenshot", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, NULL,
    "Save a PNG of the window once everything opened is scanned, then quit", "FILE" },
  { "report", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, NULL,
    "Write a JSON description of the window once everything opened is scanned, then quit", "FILE" },
  { "quit-after-first-frame", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, NULL,
    "Print start-up time and memory after the first frame, then quit", NULL },
  { NULL }
};

static SlWindow *
get_or_create_window (SlApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      window = GTK_WINDOW (sl_window_new (self));
      sl_window_restore_folders (SL_WINDOW (window));
    }

  return SL_WINDOW (window);
}

static void
add_startup_problem (SlApplication *self,
                     SlSeverity     severity,
                     const char    *path,
                     const char    *message)
{
  g_ptr_array_add (self->startup_problems,
                   sl_problem_new (severity, _("Workspace"), path, -1, message));
}

static void
reload_targets (SlApplication *self)
{
  g_autoptr(GPtrArray) targets = NULL;
  g_autoptr(GError) error = NULL;

  if (self->store == NULL)
    return;

  targets = sl_workspace_store_list_targets (self->store, &error);
  if (targets == NULL)
    {
      add_startup_problem (self, SL_SEVERITY_ERROR, sl_workspace_store_get_path (self->store), error->message);
      return;
    }

  g_list_store_splice (self->targets, 0, g_list_model_get_n_items (G_LIST_MODEL (self->targets)),
                       targets->pdata, targets->len);
}

#define JOBS_SHOWN 50

/**
 * sl_application_reload_jobs:
 *
 * Reads the job history again (after a job started or ended).
 */
void
sl_application_reload_jobs (SlApplication *self)
{
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (SL_IS_APPLICATION (self));

  if (self->store == NULL)
    return;

  if (!(jobs = sl_workspace_store_list_jobs (self->store, JOBS_SHOWN, &error)))
    {
      g_warning ("Could not read the job history: %s", error->message);
      return;
    }
  g_list_store_splice (self->jobs, 0, g_list_model_get_n_items (G_LIST_MODEL (self->jobs)),
                       jobs->pdata, jobs->len);
}

/**
 * sl_application_get_jobs:
 *
 * Returns: (transfer none): a #GListModel of #SlJobRecord, newest first
 */
GListModel *
sl_application_get_jobs (SlApplication *self)
{
  g_return_val_if_fail (SL_IS_APPLICATION (self), NULL);
  return G_LIST_MODEL (self->jobs);
}

static void
reload_recent_folders (SlApplication *self)
{
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) files = NULL;

  if (self->store == NULL)
    return;

  records = sl_workspace_store_list_recent_folders (self->store, NULL);
  if (records == NULL)
    return;

  files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (files, g_file_new_for_path (sl_recent_folder_record_get_path (g_ptr_array_index (records, i))));

  g_list_store_splice (self->recent_folders, 0, g_list_model_get_n_items (G_LIST_MODEL (self->recent_folders)),
                       files->pdata, files->len);
}

static void
open_store (SlApplication *self)
{
  g_autofree char *path = sl_workspace_store_dup_default_path ();
  g_autoptr(GError) error = NULL;

  self->store = sl_workspace_store_new_for_path (path, &error);
  if (self->store == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The workspace database could not be opened, so targets, recent folders and job history are not kept this time: %s"),
                                                  error->message);
      add_startup_problem (self, SL_SEVERITY_ERROR, path, message);
      return;
    }

  if (sl_workspace_store_get_recovery_message (self->store) != NULL)
    add_startup_problem (self, SL_SEVERITY_WARNING, path, sl_workspace_store_get_recovery_message (self->store));

  reload_targets (self);
  sl_application_reload_jobs (self);
  reload_recent_folders (self);
}

static gboolean
color_scheme_to_adw (GValue   *value,
                     GVariant *variant,
                     gpointer  user_data)
{
  const char *scheme = g_variant_get_string (variant, NULL);

  if (g_str_equal (scheme, "light"))
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (g_str_equal (scheme, "dark"))
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_DARK);
  else
    g_value_set_enum (value, ADW_COLOR_SCHEME_DEFAULT);

  return TRUE;
}

static void
sl_application_startup (GApplication *application)
{
  SlApplication *self = SL_APPLICATION (application);
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "win.show-help-overlay", { "<Control>question", "<Control>F1", NULL } },
  };

  G_APPLICATION_CLASS (sl_application_parent_class)->startup (application);

  panel_init ();

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  self->settings = g_settings_new (APP_ID);
  g_settings_bind_with_mapping (self->settings, "color-scheme",
                                adw_style_manager_get_default (), "color-scheme",
                                G_SETTINGS_BIND_GET, color_scheme_to_adw, NULL, NULL, NULL);

  open_store (self);
}

static void
sl_application_shutdown (GApplication *application)
{
  SlApplication *self = SL_APPLICATION (application);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (SL_IS_WINDOW (l->data))
        sl_window_save_state (l->data);
    }

  G_APPLICATION_CLASS (sl_application_parent_class)->shutdown (application);
}

static void
report_first_frame_cb (GdkFrameClock *clock,
                       SlApplication *self)
{
  gint64 elapsed = g_get_monotonic_time () - self->start_time;

  g_signal_handlers_disconnect_by_func (clock, report_first_frame_cb, self);

  /* Parsed by tests/bench/bench-startup.c */
  g_print ("first-frame-ms=%.1f rss-kb=%" G_GUINT64_FORMAT "\n",
           elapsed / 1000.0, sl_platform_get_resident_bytes () / 1024);
  g_application_quit (G_APPLICATION (self));
}

static void
window_mapped_cb (GtkWidget     *window,
                  SlApplication *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

  g_signal_connect (clock, "after-paint", G_CALLBACK (report_first_frame_cb), self);
}

/* The uninstalled build says where it is; an installed one is in BINDIR. */
static char *
find_demo_train (void)
{
  const char *env = g_getenv ("SIGHTLINE_DEMO_TRAIN");
  g_autofree char *installed = g_build_filename (BINDIR, "sightline-demo-train", NULL);

  if (env != NULL && g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (env);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  return g_find_program_in_path ("sightline-demo-train");
}

static gboolean
has_summary_file (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_suffix (name, "_MS"))
        return TRUE;
    }

  return FALSE;
}

/* The demo workspace's summary run is a genuine training job, run once in
 * the Console the first time the workspace is opened. */
static void
run_demo_job_unless_done (SlApplication *self,
                          SlWindow      *window,
                          const char    *path)
{
  g_autofree char *summary_dir = g_build_filename (path, "train", "summary", NULL);
  g_autofree char *profiler_dir = g_build_filename (path, "train", "profiler", NULL);
  g_autofree char *program = NULL;

  if (has_summary_file (summary_dir))
    return;

  program = find_demo_train ();
  if (program == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The demo training job (sightline-demo-train) was not found in %s or on the PATH; the demo workspace has no training run. Reinstall Sightline to get it back."), BINDIR);
      g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Workspace"), path, -1, message);

      sl_window_add_problem (window, problem);
      return;
    }

  {
    /* The job profiles itself into the workspace's profiler folder,
     * replacing the generated files there with measured ones. */
    const char *argv[] = { program, "--summary-dir", summary_dir, "--profile", profiler_dir,
                           "--epochs", "30", NULL };

    sl_window_run_argv (window, argv, path);
  }
}

static void
open_demo (SlApplication *self,
           SlWindow      *window)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "sightline", "demo", NULL);
  g_autoptr(GError) error = NULL;

  if (!sl_demo_workspace_ensure (path, &error))
    {
      g_autofree char *message = g_strdup_printf (_("The demo workspace could not be written: %s"), error->message);
      g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_ERROR, _("Workspace"), path, -1, message);

      sl_window_add_problem (window, problem);
      sl_window_show_toast (window, message);
      return;
    }

  sl_window_open_path (window, path);
  run_demo_job_unless_done (self, window, path);
}

static void
present_window (SlApplication *self,
                SlWindow      *window)
{
  if (self->quit_after_first_frame)
    g_signal_connect (window, "map", G_CALLBACK (window_mapped_cb), self);

  if (self->screenshot_path != NULL || self->report_path != NULL)
    sl_window_report_when_idle (window, self->screenshot_path, self->report_path);

  gtk_window_present (GTK_WINDOW (window));
}

static void
sl_application_activate (GApplication *application)
{
  SlApplication *self = SL_APPLICATION (application);
  SlWindow *window = get_or_create_window (self);

  if (self->open_demo)
    {
      self->open_demo = FALSE;
      open_demo (self, window);
    }

  present_window (self, window);
}

static void
sl_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  SlApplication *self = SL_APPLICATION (application);
  SlWindow *window = get_or_create_window (self);

  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);

      if (path != NULL)
        sl_window_open_path (window, path);
    }

  if (self->open_demo)
    {
      self->open_demo = FALSE;
      open_demo (self, window);
    }

  present_window (self, window);
}

static int
sl_application_handle_local_options (GApplication *application,
                                     GVariantDict *options)
{
  SlApplication *self = SL_APPLICATION (application);

  g_variant_dict_lookup (options, "demo", "b", &self->open_demo);
  g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot_path);
  g_variant_dict_lookup (options, "report", "^ay", &self->report_path);
  g_variant_dict_lookup (options, "quit-after-first-frame", "b", &self->quit_after_first_frame);

  return -1;
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  SlApplication *self = user_data;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (SL_IS_WINDOW (l->data))
        sl_window_save_state (l->data);
    }

  g_application_quit (G_APPLICATION (self));
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (sl_window_new (SL_APPLICATION (user_data))));
}

static void
open_demo_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  SlApplication *self = user_data;

  open_demo (self, get_or_create_window (self));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  SlApplication *self = user_data;
  GtkWindow *window = GTK_WINDOW (sl_preferences_window_new ());

  gtk_window_set_transient_for (window, gtk_application_get_active_window (GTK_APPLICATION (self)));
  gtk_window_present (window);
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  SlApplication *self = user_data;
  static const char *developers[] = { "The Sightline developers", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (GTK_APPLICATION (self)),
                        "application-name", "Sightline",
                        "application-icon", APP_ID,
                        "version", PACKAGE_VERSION,
                        "comments", _("A fast native workbench for training and profiling models on remote accelerator servers"),
                        "website", "https://github.com/sightline/sightline",
                        "issue-url", "https://github.com/sightline/sightline/issues",
                        "developer-name", _("The Sightline developers"),
                        "developers", developers,
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
sl_application_finalize (GObject *object)
{
  SlApplication *self = (SlApplication *)object;

  g_clear_object (&self->settings);
  g_clear_object (&self->store);
  g_clear_object (&self->targets);
  g_clear_object (&self->recent_folders);
  g_clear_object (&self->jobs);
  g_clear_pointer (&self->startup_problems, g_ptr_array_unref);
  g_clear_pointer (&self->screenshot_path, g_free);
  g_clear_pointer (&self->report_path, g_free);

  G_OBJECT_CLASS (sl_application_parent_class)->finalize (object);
}

static void
sl_application_class_init (SlApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = sl_application_finalize;

  app_class->startup = sl_application_startup;
  app_class->shutdown = sl_application_shutdown;
  app_class->activate = sl_application_activate;
  app_class->open = sl_application_open;
  app_class->handle_local_options = sl_application_handle_local_options;
}

static void
sl_application_init (SlApplication *self)
{
  static const GActionEntry actions[] = {
    { "quit", quit_action },
    { "new-window", new_window_action },
    { "open-demo", open_demo_action },
    { "preferences", preferences_action },
    { "about", about_action },
  };

  self->start_time = g_get_monotonic_time ();
  self->startup_problems = g_ptr_array_new_with_free_func (g_object_unref);
  self->targets = g_list_store_new (SL_TYPE_TARGET_RECORD);
  self->jobs = g_list_store_new (SL_TYPE_JOB_RECORD);
  self->recent_folders = g_list_store_new (G_TYPE_FILE);

  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FOLDER|FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Open training summaries, profiler output and traces."));
  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
}

SlApplication *
sl_application_new (void)
{
  return g_object_new (SL_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", RESOURCE_PREFIX,
                       NULL);
}

/**
 * sl_application_get_store:
 *
 * Returns: (transfer none) (nullable): the workspace database, or %NULL
 *   when it could not be opened (a Problem says why)
 */
SlWorkspaceStore *
sl_application_get_store (SlApplication *self)
{
  g_return_val_if_fail (SL_IS_APPLICATION (self), NULL);
  return self->store;
}

/**
 * sl_application_get_targets:
 *
 * Returns: (transfer none): a #GListModel of #SlTargetRecord
 */
GListModel *
sl_application_get_targets (SlApplication *self)
{
  g_return_val_if_fail (SL_IS_APPLICATION (self), NULL);
  return G_LIST_MODEL (self->targets);
}

/**
 * sl_application_get_recent_folders:
 *
 * Returns: (transfer none): a #GListModel of #GFile, newest first
 */
GListModel *
sl_application_get_recent_folders (SlApplication *self)
{
  g_return_val_if_fail (SL_IS_APPLICATION (self), NULL);
  return G_LIST_MODEL (self->recent_folders);
}

void
sl_application_note_recent_folder (SlApplication *self,
                                   const char    *path)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (SL_IS_APPLICATION (self));
  g_return_if_fail (path != NULL);

  if (self->store == NULL)
    return;

  if (!sl_workspace_store_note_recent_folder (self->store, path, &error))
    g_warning ("Could not remember %s as a recent folder: %s", path, error->message);
  else
    reload_recent_folders (self);
}

gboolean
sl_application_add_target (SlApplication   *self,
                           SlTargetRecord  *target,
                           GError         **error)
{
  g_return_val_if_fail (SL_IS_APPLICATION (self), FALSE);
  g_return_val_if_fail (SL_IS_TARGET_RECORD (target), FALSE);

  if (self->store == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The workspace database is not open; see Problems for why"));
      return FALSE;
    }

  if (!sl_workspace_store_add_target (self->store, target, error))
    return FALSE;

  reload_targets (self);
  return TRUE;
}

static void
job_finished_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GSubprocess *subprocess = G_SUBPROCESS (object);
  g_autoptr(SlJobRecord) job = user_data;
  SlApplication *self = SL_APPLICATION (g_application_get_default ());
  SlJobState state = SL_JOB_STATE_CANCELLED;

  if (!g_subprocess_wait_finish (subprocess, result, NULL))
    return;

  if (g_subprocess_get_if_exited (subprocess))
    {
      int code = g_subprocess_get_exit_status (subprocess);

      sl_job_record_set_exit_code (job, code);
      state = code == 0 ? SL_JOB_STATE_SUCCEEDED : SL_JOB_STATE_FAILED;
    }

  sl_job_record_set_finished_at (job, g_get_real_time () / G_USEC_PER_SEC);
  sl_job_record_set_state (job, state);

  if (self != NULL && self->store != NULL)
    {
      sl_workspace_store_finish_job (self->store, job, NULL);
      sl_application_reload_jobs (self);
    }
}

/**
 * sl_application_record_job:
 *
 * Adds a started local job to the job history and records its end.
 */
void
sl_application_record_job (SlApplication *self,
                           GSubprocess   *subprocess,
                           const char    *command_line,
                           const char    *working_dir)
{
  g_autoptr(SlJobRecord) job = NULL;
  g_autoptr(GError) error = NULL;
  gint64 local_id = -1;

  g_return_if_fail (SL_IS_APPLICATION (self));
  g_return_if_fail (G_IS_SUBPROCESS (subprocess));

  if (self->store == NULL)
    return;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->targets)); i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (G_LIST_MODEL (self->targets), i);

      if (sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL)
        {
          local_id = sl_target_record_get_id (target);
          break;
        }
    }

  job = sl_job_record_new (command_line, local_id);
  sl_job_record_set_started_at (job, g_get_real_time () / G_USEC_PER_SEC);
  sl_job_record_set_state (job, SL_JOB_STATE_RUNNING);
  sl_job_record_set_remote_folder (job, working_dir);

  if (!sl_workspace_store_add_job (self->store, job, &error))
    {
      g_warning ("Could not add the job to the history: %s", error->message);
      return;
    }
  sl_application_reload_jobs (self);

  g_subprocess_wait_async (subprocess, NULL, job_finished_cb, g_steal_pointer (&job));
}

typedef struct {
  char      *db_path;
  char      *root;
  GPtrArray *findings;
  gint64     scanned_at;
} IndexJob;

static void
index_job_free (IndexJob *job)
{
  g_free (job->db_path);
  g_free (job->root);
  g_ptr_array_unref (job->findings);
  g_free (job);
}

static char **
finding_details_to_strv (SlFinding *finding)
{
  GPtrArray *flat = g_ptr_array_new ();

  for (guint i = 0; i < sl_finding_get_n_details (finding); i++)
    {
      const char *key = NULL;
      const char *value = NULL;

      sl_finding_get_detail (finding, i, &key, &value);
      g_ptr_array_add (flat, g_strdup (key));
      g_ptr_array_add (flat, g_strdup (value));
    }
  g_ptr_array_add (flat, NULL);

  return (char **)g_ptr_array_free (flat, FALSE);
}

/* What readers learnt about a run (its tags, how far each file was read)
 * outlives a rescan, as long as the file did not shrink. */
static SlRunRecord *
run_record_for (const char  *root,
                SlFinding   *finding,
                gint64       scanned_at,
                SlRunRecord *previous)
{
  SlRunRecord *run = sl_run_record_new (root, sl_finding_kind_to_id (sl_finding_get_kind (finding)),
                                        sl_finding_get_name (finding), sl_finding_get_path (finding));
  g_auto(GStrv) details = finding_details_to_strv (finding);

  sl_run_record_set_last_seen (run, scanned_at);
  sl_run_record_set_details (run, (const char * const *)details);
  if (previous != NULL)
    sl_run_record_set_tags (run, sl_run_record_get_tags (previous));

  for (guint i = 0; i < sl_finding_get_n_files (finding); i++)
    {
      const char *path = sl_finding_get_file (finding, i);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                     G_FILE_QUERY_INFO_NONE, NULL, NULL);
      guint64 size = info ? (guint64)g_file_info_get_size (info) : 0;
      guint64 old_size = 0;
      guint64 read_offset = 0;

      if (previous == NULL || !sl_run_record_lookup_file (previous, path, &old_size, &read_offset) ||
          read_offset > size)
        read_offset = 0;

      sl_run_record_set_file (run, path, size, read_offset);
    }

  return run;
}

static GHashTable *
index_runs_by_path (GPtrArray *runs)
{
  GHashTable *by_path = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; runs != NULL && i < runs->len; i++)
    g_hash_table_insert (by_path, (gpointer)sl_run_record_get_path (g_ptr_array_index (runs, i)),
                         g_ptr_array_index (runs, i));

  return by_path;
}

/* Runs in a worker with its own connection: a folder can hold thousands of
 * runs, and the window must not wait for the disk. */
static void
index_folder_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  IndexJob *job = task_data;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) previous = NULL;
  g_autoptr(GHashTable) previous_by_path = NULL;
  g_autoptr(GError) error = NULL;

  store = sl_workspace_store_new_for_path (job->db_path, &error);
  if (store == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  previous = sl_workspace_store_list_runs (store, job->root, NULL);
  previous_by_path = index_runs_by_path (previous);

  for (guint i = 0; i < job->findings->len; i++)
    {
      SlFinding *finding = g_ptr_array_index (job->findings, i);
      g_autoptr(SlRunRecord) run = run_record_for (job->root, finding, job->scanned_at,
                                                   g_hash_table_lookup (previous_by_path,
                                                                        sl_finding_get_path (finding)));

      if (!sl_workspace_store_upsert_run (store, run, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }

  if (!sl_workspace_store_prune_runs (store, job->root, job->scanned_at, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
index_folder_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_warning ("Could not update the run index: %s", error->message);
}

/**
 * sl_application_index_folder:
 * @folder: a scanned #SlFolder
 *
 * Records what was found in @folder in the workspace database's run index,
 * and forgets runs that are no longer there.
 */
void
sl_application_index_folder (SlApplication *self,
                             gpointer       folder)
{
  g_autoptr(GTask) task = NULL;
  GListModel *findings;
  IndexJob *job;

  g_return_if_fail (SL_IS_APPLICATION (self));
  g_return_if_fail (SL_IS_FOLDER (folder));

  if (self->store == NULL || sl_folder_get_state (folder) != SL_FOLDER_READY)
    return;

  findings = sl_folder_get_findings (folder);
  job = g_new0 (IndexJob, 1);
  job->db_path = g_strdup (sl_workspace_store_get_path (self->store));
  job->root = g_strdup (sl_folder_get_path (folder));
  job->findings = g_ptr_array_new_with_free_func (g_object_unref);
  job->scanned_at = g_get_real_time ();
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    g_ptr_array_add (job->findings, g_list_model_get_item (findings, i));

  task = g_task_new (self, NULL, index_folder_cb, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify)index_job_free);
  g_task_run_in_thread (task, index_folder_thread);
}

/* Tags are known once a view read the run; the run index keeps them. */
static void
add_tags_detail (SlFinding          *finding,
                 const char * const *tags)
{
  g_autofree char *joined = NULL;

  if (tags == NULL || tags[0] == NULL || sl_finding_lookup_detail (finding, "tags") != NULL)
    return;

  joined = g_strjoinv (", ", (char **)tags);
  sl_finding_add_detail (finding, "tags", joined);
}

static SlFinding *
finding_from_run_record (SlRunRecord *run)
{
  const char * const *details = sl_run_record_get_details (run);
  SlFindingKind kind;
  SlFinding *finding;

  if (!sl_finding_kind_from_id (sl_run_record_get_kind_id (run), &kind))
    return NULL;

  finding = sl_finding_new (kind, sl_run_record_get_path (run), sl_run_record_get_relative_name (run));
  for (guint i = 0; i < sl_run_record_get_n_files (run); i++)
    {
      const char *path = NULL;
      guint64 size = 0;

      sl_run_record_get_file (run, i, &path, &size, NULL);
      sl_finding_add_file (finding, path, size);
    }
  for (guint i = 0; details[i] != NULL && details[i + 1] != NULL; i += 2)
    sl_finding_add_detail (finding, details[i], details[i + 1]);
  add_tags_detail (finding, sl_run_record_get_tags (run));

  return finding;
}

/**
 * sl_application_annotate_findings:
 * @folder: a scanned #SlFolder
 *
 * Adds what the run index knows beyond the scan (the tags of runs a view
 * has read) to the findings of @folder.
 */
void
sl_application_annotate_findings (SlApplication *self,
                                  gpointer       folder)
{
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GHashTable) by_path = NULL;
  GListModel *findings;

  g_return_if_fail (SL_IS_APPLICATION (self));
  g_return_if_fail (SL_IS_FOLDER (folder));

  if (self->store == NULL ||
      !(runs = sl_workspace_store_list_runs (self->store, sl_folder_get_path (folder), NULL)))
    return;

  by_path = index_runs_by_path (runs);
  findings = sl_folder_get_findings (folder);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
      SlRunRecord *run = g_hash_table_lookup (by_path, sl_finding_get_path (finding));

      if (run != NULL)
        add_tags_detail (finding, sl_run_record_get_tags (run));
    }
}

/**
 * sl_application_dup_indexed_findings:
 * @root: an opened folder
 *
 * What the run index remembers of @root from its last scan, so the
 * Workspace can show it before the folder is scanned again.
 *
 * Returns: (transfer full) (element-type SlFinding): findings, possibly empty
 */
GPtrArray *
sl_application_dup_indexed_findings (SlApplication *self,
                                     const char    *root)
{
  g_autoptr(GPtrArray) findings = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (SL_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (root != NULL, NULL);

  if (self->store == NULL)
    return g_steal_pointer (&findings);

  runs = sl_workspace_store_list_runs (self->store, root, &error);
  if (runs == NULL)
    {
      g_warning ("Could not read the run index of %s: %s", root, error->message);
      return g_steal_pointer (&findings);
    }

  for (guint i = 0; i < runs->len; i++)
    {
      SlFinding *finding = finding_from_run_record (g_ptr_array_index (runs, i));

      if (finding != NULL)
        g_ptr_array_add (findings, finding);
    }

  return g_steal_pointer (&findings);
}

/**
 * sl_application_dup_open_folders:
 *
 * Returns: (transfer full): the folders the Workspace held when it was
 *   last changed, in order
 */
char **
sl_application_dup_open_folders (SlApplication *self)
{
  g_autoptr(GError) error = NULL;
  char **paths;

  g_return_val_if_fail (SL_IS_APPLICATION (self), NULL);

  if (self->store == NULL)
    return g_new0 (char *, 1);

  paths = sl_workspace_store_list_open_folders (self->store, &error);
  if (paths == NULL)
    {
      g_warning ("Could not read the folders of the Workspace: %s", error->message);
      return g_new0 (char *, 1);
    }

  return paths;
}

void
sl_application_set_open_folders (SlApplication      *self,
                                 const char * const *paths)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (SL_IS_APPLICATION (self));

  if (self->store != NULL && !sl_workspace_store_set_open_folders (self->store, paths, &error))
    g_warning ("Could not remember the folders of the Workspace: %s", error->message);
}

/**
 * sl_application_note_run_read:
 * @run_path: a run's folder
 * @tags: (nullable): the tags read so far
 *
 * Remembers in the run index what a view read of a run, so the next start
 * lists its tags at once.
 */
void
sl_application_note_run_read (SlApplication      *self,
                              const char         *run_path,
                              const char * const *tags,
                              const char * const *files,
                              const guint64      *offsets,
                              guint               n_files)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (SL_IS_APPLICATION (self));
  g_return_if_fail (run_path != NULL);

  if (self->store != NULL &&
      !sl_workspace_store_note_run_read (self->store, run_path, tags, files, offsets, n_files, &error))
    g_warning ("Could not update the run index for %s: %s", run_path, error->message);
}

/**
 * sl_application_report_startup_problems:
 * @window: an #SlWindow
 *
 * Shows what went wrong before the window existed (a damaged database
 * moved aside, say) in the window's Problems panel.
 */
void
sl_application_report_startup_problems (SlApplication *self,
                                        gpointer       window)
{
  g_return_if_fail (SL_IS_APPLICATION (self));
  g_return_if_fail (SL_IS_WINDOW (window));

  for (guint i = 0; i < self->startup_problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (self->startup_problems, i);

      sl_window_add_problem (window, problem);
      if (sl_problem_get_severity (problem) >= SL_SEVERITY_WARNING)
        sl_window_show_toast (window, sl_problem_get_message (problem));
    }
}
