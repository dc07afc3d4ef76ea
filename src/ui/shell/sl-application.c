/* sl-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <libpanel.h>

#include "sl-application.h"
#include "sl-demo-workspace.h"
#include "sl-document-target.h"
#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-main-thread.h"
#include "sl-platform.h"
#include "sl-preferences-window.h"
#include "sl-window.h"

struct _SlApplication
{
  AdwApplication     parent_instance;

  GSettings         *settings;
  SlWorkspace       *workspace;
  SlSession         *session;    /* the work every window shows */

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
  { "compare-tensors", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Compare the tensors of the two paths given, an NPU dump and its benchmark"), NULL },
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
    window = GTK_WINDOW (sl_window_new (GTK_APPLICATION (self), self->session));

  return SL_WINDOW (window);
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

  /* The workspace's database is read on its writer thread; the window
   * shows the models as they fill. */
  sl_main_thread_mark ();
  /* only with SIGHTLINE_DEBUG_STALLS=1: for developers, not every run */
  sl_main_thread_watch_stalls (50);
  sl_workspace_load_async (self->workspace, NULL, NULL, NULL);
  /* Once for the application, whatever the number of windows. */
  sl_session_follow_jobs (self->session);
}

static void
sl_application_shutdown (GApplication *application)
{
  SlApplication *self = SL_APPLICATION (application);

  /* Each window saved its state on the "shutdown" signal, before this. */
  sl_workspace_cancel_scans (self->workspace);
  sl_workspace_flush (self->workspace);
  sl_main_thread_unmark ();

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

      sl_session_add_problem (self->session, problem);
      return;
    }

  {
    /* The job profiles itself into the workspace's profiler folder,
     * replacing the generated files there with measured ones. */
    const char *argv[] = { program, "--summary-dir", summary_dir, "--profile", profiler_dir,
                           "--epochs", "30", NULL };

    g_autoptr(GError) error = NULL;

    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-panel", "s", "console");
    /* The session keeps the problem; a toast says it here. */
    if (!sl_session_run_argv (self->session, argv, path, &error))
      gtk_widget_activate_action (GTK_WIDGET (window), "win.toast", "s", error->message);
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

      sl_session_add_problem (self->session, problem);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.toast", "s", message);
      return;
    }

  sl_session_request_open (self->session, "path", path, NULL);
  run_demo_job_unless_done (self, window, path);
}

static void
present_window (SlApplication *self,
                SlWindow      *window)
{
  if (self->quit_after_first_frame)
    g_signal_connect (window, "map", G_CALLBACK (window_mapped_cb), self);

  if (self->screenshot_path != NULL || self->report_path != NULL)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.report", "(^ay^ay)",
                                self->screenshot_path != NULL ? self->screenshot_path : "",
                                self->report_path != NULL ? self->report_path : "");

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

/* The tensor comparison's address holds NPU, then BENCH. */
static void
open_tensor_comparison (SlSession *session,
                        GFile     *npu,
                        GFile     *bench)
{
  GFile *files[] = { npu, bench };
  g_autoptr(SlDocumentAddress) address = sl_document_address_new_for_files (files, G_N_ELEMENTS (files));

  if (address != NULL)
    sl_session_request_open_address (session, "tensor-compare", address, NULL);
}

/* Opens @files in the active window (a new one when there is none): as a
 * tensor comparison of NPU and BENCH when @compare, else each on its own. */
static void
open_files (SlApplication  *self,
            GFile         **files,
            int             n_files,
            gboolean        compare)
{
  SlWindow *window = get_or_create_window (self);

  if (compare && n_files == 2)
    open_tensor_comparison (self->session, files[0], files[1]);
  else
    for (int i = 0; i < n_files; i++)
      {
        g_autofree char *path = g_file_get_path (files[i]);

        if (path != NULL)
          sl_session_request_open (self->session, "path", path, NULL);
      }

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
  open_files (SL_APPLICATION (application), files, n_files, FALSE);
}

/* `--document KIND PATH…`: the document opened straight away, once the
 * paths are checked, and the paths added to the Workspace without their
 * folder page; 2 when they do not hold it. */
static int
open_document_from_command_line (SlApplication           *self,
                                 GApplicationCommandLine *command_line,
                                 const char              *name,
                                 GPtrArray               *files)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SlDocumentTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  SlWindow *window;

  for (guint i = 0; i < files->len; i++)
    {
      char *path = g_file_get_path (files->pdata[i]);

      g_ptr_array_add (paths, path != NULL ? path : g_file_get_uri (files->pdata[i]));
    }

  target = sl_document_target_resolve (name, (const char * const *) paths->pdata, paths->len, &error);
  if (target == NULL)
    {
      g_application_command_line_printerr (command_line, "sightline: %s\n", error->message);
      return 2;
    }

  window = get_or_create_window (self);
  /* In the Workspace's folders and recent list, as when opened in the app. */
  for (guint i = 0; i < paths->len; i++)
    sl_workspace_open_path (self->workspace, paths->pdata[i]);
  g_ptr_array_add (paths, NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-target", "(s^aay)", name, paths->pdata);
  present_window (self, window);
  return 0;
}

static void
read_options (SlApplication *self,
              GVariantDict  *options,
              gboolean      *compare_tensors)
{
  g_variant_dict_lookup (options, "demo", "b", &self->open_demo);
  g_variant_dict_lookup (options, "compare-tensors", "b", compare_tensors);
  g_variant_dict_lookup (options, "quit-after-first-frame", "b", &self->quit_after_first_frame);
  if (g_variant_dict_contains (options, "screenshot"))
    {
      g_clear_pointer (&self->screenshot_path, g_free);
      g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot_path);
    }
  if (g_variant_dict_contains (options, "report"))
    {
      g_clear_pointer (&self->report_path, g_free);
      g_variant_dict_lookup (options, "report", "^ay", &self->report_path);
    }
}

/* Every command line comes here, in the instance that already runs when
 * there is one: its options travel with it, so "--compare-tensors NPU
 * BENCH" typed in a terminal opens the comparison in the open window
 * instead of two folders. Paths are taken relative to where it was typed. */
static int
sl_application_command_line (GApplication            *application,
                             GApplicationCommandLine *command_line)
{
  SlApplication *self = SL_APPLICATION (application);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) arguments = NULL;
  g_autofree char *document = NULL;
  gboolean compare_tensors = FALSE;
  int argc = 0;

  read_options (self, g_application_command_line_get_options_dict (command_line), &compare_tensors);
  g_variant_dict_lookup (g_application_command_line_get_options_dict (command_line), "document", "s", &document);
  arguments = g_application_command_line_get_arguments (command_line, &argc);
  for (int i = 1; i < argc; i++)
    g_ptr_array_add (files, g_application_command_line_create_file_for_arg (command_line, arguments[i]));

  if (document != NULL)
    return open_document_from_command_line (self, command_line, document, files);
  if (compare_tensors && files->len != 2)
    {
      g_application_command_line_printerr (command_line, "sightline: %s\n",
                                           _("--compare-tensors needs two paths: the NPU dump and its benchmark"));
      return 1;
    }
  if (files->len == 0)
    g_application_activate (application);
  else
    open_files (self, (GFile **) files->pdata, (int) files->len, compare_tensors);
  return 0;
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  SlApplication *self = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  for (GList *l = windows; l != NULL; l = l->next)
    g_object_ref (l->data);

  /* Each window closes as its close button closes it: it saves its state
   * and asks what becomes of a running job first. The application ends
   * with its last window. */
  for (GList *l = windows; l != NULL; l = l->next)
    if (SL_IS_WINDOW (l->data))
      gtk_window_close (l->data);
  g_list_free_full (windows, g_object_unref);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  SlApplication *self = user_data;

  gtk_window_present (GTK_WINDOW (sl_window_new (GTK_APPLICATION (self), self->session)));
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
  g_clear_object (&self->session);
  g_clear_object (&self->workspace);
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
  app_class->command_line = sl_application_command_line;
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
  self->workspace = sl_workspace_new (NULL);
  self->session = sl_session_new (self->workspace);

  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  {
    g_autofree char *names = sl_document_target_dup_names ();
    /* Kept for the option's life, which is the program's. */
    static char *description;

    if (description == NULL)
      /* Translators: --document's help; %s lists the kinds ("scalars, histograms, …"). */
      description = g_strdup_printf (_("Open the PATH given (two for a comparison) as a document of KIND, without the folder page: %s"),
                                     names);
    g_application_add_main_option (G_APPLICATION (self), "document", 0, 0, G_OPTION_ARG_STRING, description, _("KIND"));
  }
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
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", RESOURCE_PREFIX,
                       NULL);
}

/**
 * sl_application_get_session:
 *
 * Returns: (transfer none): the session every window shows: one job
 *   controller and one Slurm refresher, whatever the number of windows
 */
SlSession *
sl_application_get_session (SlApplication *self)
{
  g_return_val_if_fail (SL_IS_APPLICATION (self), NULL);
  return self->session;
}

/**
 * sl_application_get_workspace:
 *
 * Returns: (transfer none): the workspace every window shows
 */
SlWorkspace *
sl_application_get_workspace (SlApplication *self)
{
  g_return_val_if_fail (SL_IS_APPLICATION (self), NULL);
  return self->workspace;
}
