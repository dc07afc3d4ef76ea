/* test-two-windows.c: two windows on one session
 *
 * A new window shows the application's session: one job controller and
 * one Slurm refresher whatever the number of windows, a Slurm job left
 * unfinished at the last close followed again exactly once, a job
 * started from one window in the Console and the Jobs list of the other,
 * and an old job's log opened in a Console log view of its own. The
 * session's problems, a scan's among them, show once in each window's
 * Problems panel, and Clear in one clears them in both. Closing a window
 * while jobs run asks nothing while another window shows the session;
 * the last one asks about every job and workflow run the session owns.
 *
 * The constructors are counted by the linker (--wrap), so the counts are
 * of every instance the program made, not only of those a window holds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-application.h"
#include "sl-atc-command.h"
#include "sl-console-panel.h"
#include "sl-problems-panel.h"
#include "sl-run-dialog.h"
#include "sl-slurm-refresher.h"
#include "sl-window.h"
#include "sl-workspace-panel.h"
#include "sl-workspace-store.h"

static SlApplication *app;
static guint live_controllers;
static guint live_refreshers;
static guint n_followed_again;

SlJobController  *__real_sl_job_controller_new               (SlWorkspace     *workspace);
SlJobController  *__wrap_sl_job_controller_new               (SlWorkspace     *workspace);
SlSlurmRefresher *__real_sl_slurm_refresher_new              (SlWorkspace     *workspace);
SlSlurmRefresher *__wrap_sl_slurm_refresher_new              (SlWorkspace     *workspace);
gboolean          __real_sl_job_controller_follow_unfinished (SlJobController *self);
gboolean          __wrap_sl_job_controller_follow_unfinished (SlJobController *self);

static void
forget_instance (gpointer  counter,
                 GObject  *gone)
{
  (*(guint *)counter)--;
}

SlJobController *
__wrap_sl_job_controller_new (SlWorkspace *workspace)
{
  SlJobController *jobs = __real_sl_job_controller_new (workspace);

  live_controllers++;
  g_object_weak_ref (G_OBJECT (jobs), forget_instance, &live_controllers);
  return jobs;
}

SlSlurmRefresher *
__wrap_sl_slurm_refresher_new (SlWorkspace *workspace)
{
  SlSlurmRefresher *refresher = __real_sl_slurm_refresher_new (workspace);

  live_refreshers++;
  g_object_weak_ref (G_OBJECT (refresher), forget_instance, &live_refreshers);
  return refresher;
}

gboolean
__wrap_sl_job_controller_follow_unfinished (SlJobController *self)
{
  gboolean followed = __real_sl_job_controller_follow_unfinished (self);

  n_followed_again += followed;
  return followed;
}

static void
write_script (const char *dir,
              const char *name,
              const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

/* A Slurm job submitted before the last close, still queued in the
 * history; Slurm's commands are fakes answering from $FAKE_SLURM. */
static void
leave_unfinished_slurm_job (const char *root)
{
  g_autofree char *bin = g_build_filename (root, "bin", NULL);
  g_autofree char *job_dir = g_build_filename (root, ".sightline", "jobs", "20260101T000000-abcdef", NULL);
  g_autofree char *log = g_build_filename (job_dir, "log", NULL);
  g_autofree char *slurm_id = g_build_filename (job_dir, "slurm_id", NULL);
  g_autofree char *path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  g_autofree char *db = sl_workspace_store_dup_default_path ();
  g_autofree char *db_dir = g_path_get_dirname (db);
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlJobRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (bin, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (job_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (db_dir, 0755), ==, 0);
  write_script (bin, "squeue", "#!/bin/sh\n[ -e \"$FAKE_SLURM/done\" ] || echo 'RUNNING None'\n");
  write_script (bin, "sacct", "#!/bin/sh\necho 'Slurm accounting storage is disabled' >&2; exit 1\n");
  write_script (bin, "scontrol", "#!/bin/sh\n[ -e \"$FAKE_SLURM/done\" ] && "
                                 "echo 'JobId=77 JobState=COMPLETED Reason=None ExitCode=0:0'\nexit 0\n");
  g_assert_true (g_file_set_contents (slurm_id, "77\n", -1, NULL));
  g_assert_true (g_file_set_contents (log, "line 1\n", -1, NULL));
  g_setenv ("PATH", path, TRUE);
  g_setenv ("FAKE_SLURM", root, TRUE);

  store = sl_workspace_store_new_for_path (db, &error);
  g_assert_no_error (error);
  record = sl_job_record_new ("srun python3 train.py", 1);
  sl_job_record_set_backend (record, SL_JOB_BACKEND_SLURM);
  sl_job_record_set_backend_job_id (record, "77");
  sl_job_record_set_backend_state (record, "PENDING", "Priority");
  sl_job_record_set_state (record, SL_JOB_STATE_QUEUED);
  sl_job_record_set_log_path (record, log);
  sl_job_record_set_remote_folder (record, root);
  g_assert_true (sl_workspace_store_add_job (store, record, &error));
  g_assert_no_error (error);
}

static gboolean
following (gpointer data)
{
  return sl_job_controller_is_running (sl_session_get_jobs (data));
}

static gboolean
not_following (gpointer data)
{
  return !following (data);
}

typedef struct {
  SlConsolePanel *console;
  const char     *text;
} ConsoleText;

static gboolean
console_has (gpointer data)
{
  ConsoleText *wanted = data;
  g_autofree char *text = sl_console_panel_dup_text (wanted->console);

  return strstr (text, wanted->text) != NULL;
}

static SlConsolePanel *
console_of (SlWindow *window)
{
  return SL_CONSOLE_PANEL (sl_window_find_panel (window, "console"));
}

static SlWindow *
open_new_window (SlWindow *first)
{
  GList *windows;
  SlWindow *second = NULL;

  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  for (GList *l = windows; l != NULL; l = l->next)
    if (SL_IS_WINDOW (l->data) && l->data != (gpointer)first)
      second = l->data;
  g_assert_nonnull (second);
  g_assert_true (wait_until (window_is_mapped, second, 30000));
  return second;
}

/* The job of @command, in the Jobs rows of @window's Workspace. */
static SlJobRecord *
find_job_row (SlWindow   *window,
              const char *command)
{
  SlWorkspacePanel *panel = SL_WORKSPACE_PANEL (sl_window_find_panel (window, "workspace"));

  for (guint i = 0; i < sl_workspace_panel_get_n_rows (panel); i++)
    {
      g_autoptr(GObject) item = sl_workspace_panel_get_row_item (panel, i);

      if (SL_IS_JOB_RECORD (item) && g_strcmp0 (sl_job_record_get_command (SL_JOB_RECORD (item)), command) == 0)
        return SL_JOB_RECORD (g_steal_pointer (&item));
    }
  return NULL;
}

typedef struct {
  SlWindow   *window;
  const char *command;
  gboolean    ended;
} JobRow;

static gboolean
job_row_shown (gpointer data)
{
  JobRow *wanted = data;
  g_autoptr(SlJobRecord) job = find_job_row (wanted->window, wanted->command);

  return job != NULL && sl_job_record_get_started_at (job) > 0 &&
         (!wanted->ended || sl_job_record_get_finished_at (job) > 0);
}

/* The Run dialog open for @window, or NULL. */
static GtkWindow *
find_run_dialog (SlWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (SL_IS_RUN_DIALOG (toplevel) && gtk_window_get_transient_for (toplevel) == GTK_WINDOW (window))
        return toplevel;
    }
  return NULL;
}

/* Run is a "session." action of each window; "win.run" still opens it. */
static void
test_session_actions (void)
{
  SlWindow *window = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  GtkWindow *dialog;

  g_assert_null (find_run_dialog (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "session.run", NULL));
  dialog = find_run_dialog (window);
  g_assert_nonnull (dialog);
  gtk_window_destroy (dialog);
  g_assert_null (find_run_dialog (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  dialog = find_run_dialog (window);
  g_assert_nonnull (dialog);
  gtk_window_destroy (dialog);
}

static void
test_two_windows_one_session (void)
{
  g_autofree char *root = g_strdup (g_getenv ("FAKE_SLURM"));
  g_autofree char *log = g_build_filename (root, ".sightline", "jobs", "20260101T000000-abcdef", "log", NULL);
  g_autofree char *done = g_build_filename (root, "done", NULL);
  SlWindow *first = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  SlSession *session = sl_application_get_session (app);
  SlWindow *second;
  ConsoleText line_2_first = { console_of (first), "line 2" };
  ConsoleText line_2_second;
  ConsoleText echoed;
  JobRow started = { NULL, "echo from-the-first-window", FALSE };
  JobRow ended = { NULL, "echo from-the-first-window", TRUE };

  /* The unfinished job is followed as soon as the history is read. */
  g_assert_true (wait_until (following, session, 30000));
  g_assert_cmpuint (n_followed_again, ==, 1);

  second = open_new_window (first);
  g_assert_true (sl_window_get_session (first) == session);
  g_assert_true (sl_window_get_session (second) == session);
  g_assert_true (sl_window_get_workspace (second) == sl_window_get_workspace (first));
  g_assert_cmpuint (live_controllers, ==, 1);
  g_assert_cmpuint (live_refreshers, ==, 1);

  /* Still followed once, and both Consoles show what it writes. */
  sl_session_follow_jobs (session);
  g_assert_cmpuint (n_followed_again, ==, 1);
  line_2_second.console = console_of (second);
  line_2_second.text = "line 2";
  g_assert_true (g_file_set_contents (log, "line 1\nline 2\n", -1, NULL));
  g_assert_true (wait_until (console_has, &line_2_first, 30000));
  g_assert_true (wait_until (console_has, &line_2_second, 30000));
  g_assert_true (g_file_set_contents (done, "", -1, NULL));
  g_assert_true (wait_until (not_following, session, 30000));
  g_assert_cmpuint (n_followed_again, ==, 1);

  /* A job started from the first window is in the second one's Console
   * and Jobs list, with its start, then its end. */
  sl_window_run_command (first, "echo from-the-first-window", root);
  started.window = second;
  ended.window = second;
  g_assert_true (wait_until (job_row_shown, &started, 30000));
  echoed.console = console_of (second);
  echoed.text = "from-the-first-window\n";
  g_assert_true (wait_until (console_has, &echoed, 30000));
  g_assert_true (wait_until (job_row_shown, &ended, 30000));
  g_assert_cmpuint (live_controllers, ==, 1);

  /* An old job's log, opened from the Jobs list, is read into a log
   * view of its own: the newest job's view is left as it was. */
  {
    SlConsolePanel *console = console_of (first);
    g_autoptr(SlJobRecord) slurm_job = find_job_row (first, "srun python3 train.py");
    guint n_logs = sl_console_panel_get_n_jobs (console);
    guint echo_log = sl_console_panel_get_shown_job (console);
    g_autofree char *echo_text = sl_console_panel_dup_text (console);
    g_autofree char *echo_after = NULL;
    ConsoleText read_to_end = { console, "[end of the log]" };
    ConsoleText old_lines = { console, "line 1\nline 2\n" };

    g_assert_nonnull (slurm_job);
    g_assert_cmpuint (echo_log, >, 0);
    sl_window_show_job_log (first, slurm_job);
    g_assert_cmpuint (sl_console_panel_get_n_jobs (console), ==, n_logs + 1);
    g_assert_cmpuint (sl_console_panel_get_shown_job (console), !=, echo_log);
    g_assert_true (wait_until (console_has, &read_to_end, 30000));
    g_assert_true (console_has (&old_lines));
    g_assert_false (sl_console_panel_is_running (console));
    sl_console_panel_show_job (console, echo_log);
    echo_after = sl_console_panel_dup_text (console);
    g_assert_cmpstr (echo_after, ==, echo_text);
    g_assert_null (strstr (echo_after, "[Log of job"));
  }

  /* Closing a window leaves the session to the other. */
  gtk_window_destroy (GTK_WINDOW (second));
  g_assert_cmpuint (live_controllers, ==, 1);
  g_assert_cmpuint (live_refreshers, ==, 1);
  g_assert_true (sl_window_get_session (first) == session);
}

static SlProblemsPanel *
problems_of (SlWindow *window)
{
  return SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));
}

/* How many rows of @window's Problems panel are about @path. */
static guint
n_problems_for (SlWindow   *window,
                const char *path)
{
  GListModel *model = sl_problems_panel_get_model (problems_of (window));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (model, i);

      if (g_strcmp0 (sl_problem_get_path (problem), path) == 0)
        n++;
    }
  return n;
}

/* The problems about @path of the document in front in @window. */
static guint
n_document_problems_for (SlWindow   *window,
                         const char *path)
{
  SlDocument *document = sl_problems_panel_get_document (problems_of (window));
  GListModel *model;
  guint n = 0;

  if (document == NULL)
    return 0;
  model = sl_document_get_problems (document);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (model, i);

      if (g_strcmp0 (sl_problem_get_path (problem), path) == 0)
        n++;
    }
  return n;
}

/* The panel's count of @severity, checked against its rows. */
static void
assert_counts_match_rows (SlWindow *window)
{
  SlProblemsPanel *panel = problems_of (window);
  GListModel *model = sl_problems_panel_get_model (panel);
  guint counted[SL_SEVERITY_ERROR + 1] = { 0 };

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (model, i);

      counted[sl_problem_get_severity (problem)]++;
    }
  for (SlSeverity severity = SL_SEVERITY_INFO; severity <= SL_SEVERITY_ERROR; severity++)
    g_assert_cmpuint (sl_problems_panel_count (panel, severity), ==, counted[severity]);
}

typedef struct {
  SlWindow   *window;
  const char *path;
} ProblemShown;

static gboolean
problem_shown (gpointer data)
{
  ProblemShown *shown = data;

  return n_problems_for (shown->window, shown->path) > 0;
}

static gboolean
nothing_scanning (gpointer data)
{
  return sl_session_get_n_scanning (data) == 0;
}

static void
test_problems_in_every_window (void)
{
  static const guint8 garbage[24] = { 0x10, 0, 0, 0, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3 };
  SlWindow *first = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  SlSession *session = sl_application_get_session (app);
  g_autoptr(SlProblem) own = sl_problem_new (SL_SEVERITY_ERROR, "Test", "/elsewhere/from-the-session.txt", -1,
                                             "a problem of the session");
  g_autofree char *dir = g_dir_make_tmp ("sl-two-windows-scan-XXXXXX", NULL);
  g_autofree char *damaged = NULL;
  ProblemShown shown;
  SlWindow *second;
  guint errors_first, errors_second;

  g_assert_nonnull (dir);
  second = open_new_window (first);
  errors_first = sl_problems_panel_count (problems_of (first), SL_SEVERITY_ERROR);
  errors_second = sl_problems_panel_count (problems_of (second), SL_SEVERITY_ERROR);

  /* Added to the session: once in each window, counted in each. */
  sl_session_add_problem (session, own);
  g_assert_cmpuint (n_problems_for (first, "/elsewhere/from-the-session.txt"), ==, 1);
  g_assert_cmpuint (n_problems_for (second, "/elsewhere/from-the-session.txt"), ==, 1);
  g_assert_cmpuint (sl_problems_panel_count (problems_of (first), SL_SEVERITY_ERROR), ==, errors_first + 1);
  g_assert_cmpuint (sl_problems_panel_count (problems_of (second), SL_SEVERITY_ERROR), ==, errors_second + 1);

  /* A damaged file one window's scan meets: once in each window too. */
  damaged = g_build_filename (dir, "events.out.events.summary.1700000000.host_MS", NULL);
  g_assert_true (g_file_set_contents (damaged, (const char *)garbage, sizeof garbage, NULL));
  sl_window_open_path (first, dir);
  shown.window = second;
  shown.path = damaged;
  g_assert_true (wait_until (problem_shown, &shown, 30000));
  g_assert_true (wait_until (nothing_scanning, session, 30000));
  /* The session's once in each; the first window also lists what the
   * document it opened on the run met in that file. */
  g_assert_cmpuint (n_problems_for (second, damaged), ==, 1);
  g_assert_cmpuint (n_problems_for (first, damaged), ==, 1 + n_document_problems_for (first, damaged));
  assert_counts_match_rows (first);
  assert_counts_match_rows (second);

  /* Clear in the second window clears the session's, so the first's too. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (problems_of (second)), "problems.clear", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (sl_session_get_problems (session)), ==, 0);
  g_assert_cmpuint (n_problems_for (first, "/elsewhere/from-the-session.txt"), ==, 0);
  g_assert_cmpuint (n_problems_for (second, "/elsewhere/from-the-session.txt"), ==, 0);
  /* The document's stay: they are its file's, until it reads it again. */
  g_assert_cmpuint (n_problems_for (first, damaged), ==, n_document_problems_for (first, damaged));
  g_assert_cmpuint (n_problems_for (second, damaged), ==, 0);
  assert_counts_match_rows (first);
  assert_counts_match_rows (second);

  gtk_window_destroy (GTK_WINDOW (second));
  sl_window_remove_folder (first, dir);
  g_unlink (damaged);
  g_rmdir (dir);
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GList *toplevels = gtk_window_list_toplevels ();
  AdwMessageDialog *found = NULL;

  for (GList *l = toplevels; l != NULL && found == NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      found = l->data;
  g_list_free (toplevels);
  return found;
}

static gboolean
message_dialog_shown (gpointer data)
{
  AdwMessageDialog *dialog = find_message_dialog ();

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static gboolean
pointer_cleared (gpointer data)
{
  return *(gpointer *)data == NULL;
}

static gboolean
n_running_is (gpointer data)
{
  return sl_session_get_n_running (sl_application_get_session (app)) == GPOINTER_TO_UINT (data);
}

static void
convert_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  *(gboolean *)data = TRUE;
}

/* A program of this computer and a conversion run on the session. The
 * second window closes without a question, as the first still shows the
 * session and its jobs go on; closing the first, the last, names both,
 * offers no Keep Running (neither goes on without Sightline), and Cancel
 * keeps the window and the jobs. */
static void
test_close_asks_on_the_last_window (void)
{
  SlWindow *first = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  SlSession *session = sl_application_get_session (app);
  g_autofree char *dir = g_dir_make_tmp ("sl-two-windows-close-XXXXXX", NULL);
  g_autofree char *go = g_build_filename (dir, "go", NULL);
  g_autoptr(SlAtcCommand) command = sl_atc_command_new ();
  g_autoptr(SlConvertWorkflow) convert = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "sh", "-c", "while [ ! -e go ]; do sleep 0.05; done", NULL };
  AdwMessageDialog *question;
  const char *body;
  SlWindow *second;
  gboolean converted = FALSE;

  g_assert_true (sl_session_run_argv (session, argv, dir, &error));
  g_assert_no_error (error);
  /* The ATC dialog made a conversion: the session follows it from here. */
  convert = sl_session_create_convert (session, 0, dir, NULL, command, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_session_get_n_running (session), ==, 2);

  second = open_new_window (first);
  g_object_add_weak_pointer (G_OBJECT (second), (gpointer *)&second);
  gtk_window_close (GTK_WINDOW (second));
  g_assert_true (wait_until (pointer_cleared, &second, 10000));
  g_assert_null (find_message_dialog ());
  g_assert_cmpuint (sl_session_get_n_running (session), ==, 2);

  gtk_window_close (GTK_WINDOW (first));
  g_assert_true (wait_until (message_dialog_shown, NULL, 10000));
  question = find_message_dialog ();
  body = adw_message_dialog_get_body (question);
  g_assert_nonnull (strstr (body, "“sh”"));
  g_assert_nonnull (strstr (body, "“Convert a Model with ATC”"));
  g_assert_nonnull (strstr (adw_message_dialog_get_heading (question), "2"));
  g_assert_false (adw_message_dialog_has_response (question, "keep"));
  g_assert_true (adw_message_dialog_has_response (question, "stop"));
  g_object_add_weak_pointer (G_OBJECT (question), (gpointer *)&question);
  adw_message_dialog_response (question, "cancel");
  gtk_window_destroy (GTK_WINDOW (question));
  g_assert_true (wait_until (pointer_cleared, &question, 5000));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (first)));
  g_assert_cmpuint (sl_session_get_n_running (session), ==, 2);

  /* Both end: the conversion finds no ATC here, the program its file. */
  sl_convert_workflow_run_async (convert, NULL, convert_done_cb, &converted);
  g_assert_true (wait_until (flag_set, &converted, 60000));
  g_assert_true (g_file_set_contents (go, "", -1, NULL));
  g_assert_true (wait_until (n_running_is, GUINT_TO_POINTER (0), 30000));
  g_unlink (go);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *root = NULL;
  int status;

  root = make_test_home ("sl-two-windows-XXXXXX");
  if (skip_without_display ())
    return 77;
  leave_unfinished_slurm_job (root);

  g_test_init (&argc, &argv, NULL);
  start_application (&app);

  g_test_add_func ("/session/two-windows", test_two_windows_one_session);
  g_test_add_func ("/session/actions", test_session_actions);
  g_test_add_func ("/session/problems-in-every-window", test_problems_in_every_window);
  g_test_add_func ("/session/close-asks-on-the-last-window", test_close_asks_on_the_last_window);
  status = g_test_run ();

  g_clear_object (&app);
  return status;
}
