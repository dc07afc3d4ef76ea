/* test-session.c: the session runs a job through its job controller,
 * the job model shows it with its start and end, and what the windows
 * show (busy, the current job, the problems) follows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-session.h"

typedef struct {
  GString  *events;
  GString  *output;
  int       exit_code;
  char     *reason;
  gboolean  finished;
  guint     busy_changes;
} Seen;

static void
started_cb (SlSession  *session,
            const char *title,
            const char *command_line,
            Seen       *seen)
{
  g_string_append_printf (seen->events, "started %s: %s\n", title, command_line);
}

static void
output_cb (SlSession *session,
           GBytes    *data,
           Seen      *seen)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (seen->output, bytes, size);
}

static void
finished_cb (SlSession  *session,
             int         exit_code,
             const char *reason,
             Seen       *seen)
{
  g_string_append (seen->events, "finished\n");
  seen->exit_code = exit_code;
  g_free (seen->reason);
  seen->reason = g_strdup (reason);
  seen->finished = TRUE;
}

static void
busy_cb (SlSession  *session,
         GParamSpec *pspec,
         Seen       *seen)
{
  seen->busy_changes++;
}

static SlSession *
new_session (const char *dir,
             Seen       *seen)
{
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (db);
  SlSession *session = sl_session_new (workspace);

  sl_workspace_load_async (workspace, NULL, NULL, NULL);
  while (!sl_workspace_is_loaded (workspace))
    g_main_context_iteration (NULL, TRUE);

  g_signal_connect (session, "job-started", G_CALLBACK (started_cb), seen);
  g_signal_connect (session, "job-output", G_CALLBACK (output_cb), seen);
  g_signal_connect (session, "job-finished", G_CALLBACK (finished_cb), seen);
  g_signal_connect (session, "notify::busy", G_CALLBACK (busy_cb), seen);
  return session;
}

static SlJobRecord *
newest_job (SlSession *session)
{
  GListModel *jobs = sl_workspace_get_jobs (sl_session_get_workspace (session));

  return g_list_model_get_n_items (jobs) > 0 ? g_list_model_get_item (jobs, 0) : NULL;
}

/* Iterates until the newest job of the model is @command, started, and
 * ended when @ended. */
static SlJobRecord *
wait_for_job (SlSession  *session,
              const char *command,
              gboolean    ended)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr(SlJobRecord) job = newest_job (session);

      if (job != NULL && g_strcmp0 (sl_job_record_get_command (job), command) == 0 &&
          sl_job_record_get_started_at (job) > 0 && (!ended || sl_job_record_get_finished_at (job) > 0))
        return g_steal_pointer (&job);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

/* A local job waits for a file, so it is seen while it runs. */
static void
test_local_job (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-session-XXXXXX", NULL);
  g_autofree char *go = g_build_filename (dir, "go", NULL);
  Seen seen = { g_string_new (NULL), g_string_new (NULL), 0, NULL, FALSE, 0 };
  g_autoptr(SlSession) session = new_session (dir, &seen);
  g_autoptr(SlJobRecord) running = NULL;
  g_autoptr(SlJobRecord) ended = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  const char *argv[] = { "sh", "-c", "echo started; while [ ! -e go ]; do sleep 0.05; done; echo ended", NULL };
  const char *command = "sh -c 'echo started; while [ ! -e go ]; do sleep 0.05; done; echo ended'";

  g_assert_false (sl_session_get_busy (session));
  g_assert_null (sl_session_get_current_job (session));

  g_assert_true (sl_session_run_argv (session, argv, dir, &error));
  g_assert_no_error (error);
  g_assert_true (sl_session_get_busy (session));
  g_assert_cmpstr (sl_session_get_current_job (session), ==, "sh");

  /* In the job model at once, started and not ended. */
  running = wait_for_job (session, command, FALSE);
  g_assert_cmpint (sl_job_record_get_finished_at (running), ==, 0);
  g_assert_cmpint (sl_job_record_get_state (running), ==, SL_JOB_STATE_RUNNING);
  g_assert_true (sl_session_get_busy (session));

  g_assert_true (g_file_set_contents (go, "", -1, NULL));
  while (!seen.finished)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (seen.exit_code, ==, 0);
  g_assert_null (seen.reason);
  g_assert_cmpstr (seen.output->str, ==, "started\nended\n");
  expected = g_strconcat ("started sh: ", command, "\nfinished\n", NULL);
  g_assert_cmpstr (seen.events->str, ==, expected);
  g_assert_false (sl_session_get_busy (session));
  g_assert_null (sl_session_get_current_job (session));
  g_assert_cmpuint (seen.busy_changes, ==, 2);

  /* Its end, in the model. */
  ended = wait_for_job (session, command, TRUE);
  g_assert_cmpint (sl_job_record_get_state (ended), ==, SL_JOB_STATE_SUCCEEDED);
  g_assert_cmpint (sl_job_record_get_exit_code (ended), ==, 0);
  g_assert_cmpint (sl_job_record_get_finished_at (ended), >=, sl_job_record_get_started_at (ended));
  g_assert_cmpuint (g_list_model_get_n_items (sl_session_get_problems (session)), ==, 0);

  g_string_free (seen.events, TRUE);
  g_string_free (seen.output, TRUE);
  g_free (seen.reason);
}

/* What cannot run is an error for the caller and a Problem of the
 * session, which every window shows. */
static void
test_run_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-session-XXXXXX", NULL);
  Seen seen = { g_string_new (NULL), g_string_new (NULL), 0, NULL, FALSE, 0 };
  g_autoptr(SlSession) session = new_session (dir, &seen);
  GListModel *problems = sl_session_get_problems (session);
  g_autoptr(SlProblem) unread = NULL;
  g_autoptr(GError) error = NULL;
  const char *missing[] = { "/nonexistent/program", "--flag", NULL };

  g_assert_false (sl_session_run_command (session, "echo 'unbalanced", dir, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "echo 'unbalanced"));
  g_clear_error (&error);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  unread = g_list_model_get_item (problems, 0);
  g_assert_cmpint (sl_problem_get_severity (unread), ==, SL_SEVERITY_ERROR);
  g_assert_cmpstr (sl_problem_get_path (unread), ==, dir);

  g_assert_false (sl_session_run_argv (session, missing, dir, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  /* Without an error to fill, the Problem is kept all the same. */
  g_assert_false (sl_session_run_argv (session, missing, dir, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 3);
  g_assert_false (sl_session_get_busy (session));
  g_assert_cmpstr (seen.events->str, ==, "");

  g_string_free (seen.events, TRUE);
  g_string_free (seen.output, TRUE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/local-job", test_local_job);
  g_test_add_func ("/session/run-errors", test_run_errors);

  return g_test_run ();
}
