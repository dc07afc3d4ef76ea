/* test-job-controller.c: local jobs started, followed and kept in the
 * history by the job controller the window and sightline-cli share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-job-controller.h"
#include "sl-workspace-store.h"

typedef struct {
  GString  *output;
  GString  *events;
  int       exit_code;
  char     *reason;
  gboolean  finished;
} Followed;

static void
started_cb (SlJobController *jobs,
            guint            job,
            const char      *title,
            const char      *command_line,
            Followed        *followed)
{
  g_string_append_printf (followed->events, "started %s: %s\n", title, command_line);
}

static void
output_cb (SlJobController *jobs,
           guint            job,
           GBytes          *data,
           Followed        *followed)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (followed->output, bytes, size);
}

static void
finished_cb (SlJobController *jobs,
             guint            job,
             int              exit_code,
             const char      *reason,
             Followed        *followed)
{
  followed->exit_code = exit_code;
  followed->reason = g_strdup (reason);
  followed->finished = TRUE;
  g_string_append (followed->events, "finished\n");
}

static void
follow (SlJobController *jobs,
        Followed        *followed)
{
  g_signal_connect (jobs, "started", G_CALLBACK (started_cb), followed);
  g_signal_connect (jobs, "output", G_CALLBACK (output_cb), followed);
  g_signal_connect (jobs, "finished", G_CALLBACK (finished_cb), followed);
}

static void
wait_finished (Followed *followed)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!followed->finished)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static gboolean
is_loaded (SlWorkspace *workspace)
{
  return sl_workspace_is_loaded (workspace);
}

static void
test_local_job (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-jobs-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (db);
  g_autoptr(SlJobController) jobs = sl_job_controller_new (workspace);
  g_autoptr(SlJobRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
  const char *busy[] = { "true", NULL };
  Followed followed = { g_string_new (NULL), g_string_new (NULL), 0, NULL, FALSE };

  sl_workspace_load_async (workspace, NULL, NULL, NULL);
  while (!is_loaded (workspace))
    g_main_context_iteration (NULL, TRUE);

  follow (jobs, &followed);
  g_assert_true (sl_job_controller_run_local (jobs, argv, dir, &error));
  g_assert_no_error (error);
  g_assert_true (sl_job_controller_is_running (jobs));
  g_assert_cmpstr (sl_job_controller_get_working_dir (jobs), ==, dir);

  /* One job at a time. */
  g_assert_false (sl_job_controller_run_local (jobs, busy, dir, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);

  wait_finished (&followed);
  g_assert_false (sl_job_controller_is_running (jobs));
  g_assert_cmpint (followed.exit_code, ==, 3);
  g_assert_null (followed.reason);
  /* Output is read to its end before the end is told. */
  g_assert_cmpstr (followed.output->str, ==, "out\nerr\n");
  g_assert_cmpstr (followed.events->str, ==, "started sh: sh -c 'echo out; echo err >&2; exit 3'\nfinished\n");

  /* The history has it, with its end. */
  sl_workspace_flush (workspace);
  while (g_main_context_iteration (NULL, FALSE));
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_jobs (workspace)), ==, 1);
  record = g_list_model_get_item (sl_workspace_get_jobs (workspace), 0);
  g_assert_cmpstr (sl_job_record_get_command (record), ==, "sh -c 'echo out; echo err >&2; exit 3'");
  g_assert_cmpint (sl_job_record_get_exit_code (record), ==, 3);
  g_assert_cmpint (sl_job_record_get_state (record), ==, SL_JOB_STATE_FAILED);
  g_assert_cmpstr (sl_job_record_get_remote_folder (record), ==, dir);
  g_assert_cmpint (sl_job_record_get_target_id (record), ==, sl_workspace_get_local_target_id (workspace));

  g_string_free (followed.output, TRUE);
  g_string_free (followed.events, TRUE);
  g_free (followed.reason);
  g_unlink (db);
}

/* Stop kills a local job; it ends without an exit code, saying why. */
static void
test_local_job_stopped (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-jobs-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (db);
  g_autoptr(SlJobController) jobs = sl_job_controller_new (workspace);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "sleep", "30", NULL };
  Followed followed = { g_string_new (NULL), g_string_new (NULL), 0, NULL, FALSE };

  follow (jobs, &followed);
  g_assert_true (sl_job_controller_run_local (jobs, argv, dir, &error));
  sl_job_controller_stop (jobs);
  wait_finished (&followed);
  g_assert_cmpint (followed.exit_code, ==, -1);
  g_assert_nonnull (followed.reason);
  sl_workspace_flush (workspace);

  g_string_free (followed.output, TRUE);
  g_string_free (followed.events, TRUE);
  g_free (followed.reason);
}

/* A child left running in the background keeps the output open: the job
 * still ends, a moment after it exited. */
static void
test_background_child (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-jobs-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (db);
  g_autoptr(SlJobController) jobs = sl_job_controller_new (workspace);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "sh", "-c", "echo started; sleep 6 &", NULL };
  Followed followed = { g_string_new (NULL), g_string_new (NULL), 0, NULL, FALSE };
  gint64 begun = g_get_monotonic_time ();

  follow (jobs, &followed);
  g_assert_true (sl_job_controller_run_local (jobs, argv, dir, &error));
  wait_finished (&followed);
  g_assert_cmpint (followed.exit_code, ==, 0);
  g_assert_cmpstr (followed.output->str, ==, "started\n");
  g_assert_cmpint (g_get_monotonic_time () - begun, <, 5 * G_USEC_PER_SEC);
  sl_workspace_flush (workspace);

  g_string_free (followed.output, TRUE);
  g_string_free (followed.events, TRUE);
  g_free (followed.reason);
}

static void
test_missing_program (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-jobs-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (db);
  g_autoptr(SlJobController) jobs = sl_job_controller_new (workspace);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "/nonexistent/program", "--flag", NULL };

  g_assert_false (sl_job_controller_run_local (jobs, argv, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (g_strstr_len (error->message, -1, "/nonexistent/program"));
  g_assert_false (sl_job_controller_is_running (jobs));
}

static void
test_quote_argv (void)
{
  const char *plain[] = { "python3", "train.py", "--lr=0.1", NULL };
  const char *hostile[] = { "echo", "two words", "it's", "", "$(rm)", NULL };
  g_autofree char *a = sl_job_controller_quote_argv (plain);
  g_autofree char *b = sl_job_controller_quote_argv (hostile);

  g_assert_cmpstr (a, ==, "python3 train.py --lr=0.1");
  g_assert_cmpstr (b, ==, "echo 'two words' 'it'\\''s' '' '$(rm)'");
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

static gboolean
output_has (Followed   *followed,
            const char *text)
{
  return strstr (followed->output->str, text) != NULL;
}

/* A Slurm job submitted before the last close, still in the history as
 * queued: the controller follows it again from its folder (squeue, then
 * scontrol once it is over), streams its log and saves how it ended.
 * Slurm's commands are fakes on the PATH answering from $FAKE_SLURM. */
static void
test_follow_unfinished_slurm (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-jobs-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *job_dir = g_build_filename (dir, ".sightline", "jobs", "20260101T000000-abcdef", NULL);
  g_autofree char *log = g_build_filename (job_dir, "log", NULL);
  g_autofree char *slurm_id = g_build_filename (job_dir, "slurm_id", NULL);
  g_autofree char *done = g_build_filename (dir, "done", NULL);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = NULL;
  g_autoptr(SlWorkspace) workspace = NULL;
  g_autoptr(SlJobController) jobs = NULL;
  g_autoptr(SlJobRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  Followed followed = { g_string_new (NULL), g_string_new (NULL), 0, NULL, FALSE };
  gint64 deadline;

  g_assert_cmpint (g_mkdir_with_parents (bin, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (job_dir, 0755), ==, 0);
  write_script (bin, "squeue", "#!/bin/sh\n[ -e \"$FAKE_SLURM/done\" ] || echo 'RUNNING None'\n");
  write_script (bin, "sacct", "#!/bin/sh\necho 'Slurm accounting storage is disabled' >&2; exit 1\n");
  write_script (bin, "scontrol", "#!/bin/sh\n[ -e \"$FAKE_SLURM/done\" ] && "
                                 "echo 'JobId=77 JobState=COMPLETED Reason=None ExitCode=0:0'\nexit 0\n");
  g_assert_true (g_file_set_contents (slurm_id, "77\n", -1, NULL));
  g_assert_true (g_file_set_contents (log, "line 1\n", -1, NULL));
  path = g_strdup_printf ("%s:%s", bin, old_path);
  g_setenv ("PATH", path, TRUE);
  g_setenv ("FAKE_SLURM", dir, TRUE);

  {
    g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (db, &error);

    g_assert_no_error (error);
    record = sl_job_record_new ("srun python3 train.py", 1);
    sl_job_record_set_backend (record, SL_JOB_BACKEND_SLURM);
    sl_job_record_set_backend_job_id (record, "77");
    sl_job_record_set_backend_state (record, "PENDING", "Priority");
    sl_job_record_set_state (record, SL_JOB_STATE_QUEUED);
    sl_job_record_set_log_path (record, log);
    sl_job_record_set_remote_folder (record, dir);
    g_assert_true (sl_workspace_store_add_job (store, record, &error));
    g_assert_no_error (error);
    g_clear_object (&record);
  }

  workspace = sl_workspace_new (db);
  jobs = sl_job_controller_new (workspace);
  sl_workspace_load_async (workspace, NULL, NULL, NULL);
  while (!is_loaded (workspace))
    g_main_context_iteration (NULL, TRUE);

  follow (jobs, &followed);
  g_assert_true (sl_job_controller_follow_unfinished (jobs));
  g_assert_true (sl_job_controller_is_running (jobs));
  /* Only one job is followed at a time. */
  g_assert_false (sl_job_controller_follow_unfinished (jobs));

  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!output_has (&followed, "line 1\n"))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }

  /* The job writes its last line and Slurm says it is over. */
  g_assert_true (g_file_set_contents (log, "line 1\nline 2\n", -1, NULL));
  g_assert_true (g_file_set_contents (done, "", -1, NULL));
  wait_finished (&followed);
  g_assert_cmpint (followed.exit_code, ==, 0);
  g_assert_null (followed.reason);
  g_assert_cmpstr (followed.output->str, ==, "line 1\nline 2\n");

  sl_workspace_flush (workspace);
  while (g_main_context_iteration (NULL, FALSE));
  record = g_list_model_get_item (sl_workspace_get_jobs (workspace), 0);
  g_assert_cmpint (sl_job_record_get_state (record), ==, SL_JOB_STATE_SUCCEEDED);
  g_assert_cmpstr (sl_job_record_get_backend_state (record), ==, "COMPLETED");
  g_assert_cmpint (sl_job_record_get_exit_code (record), ==, 0);

  /* Nothing is left to follow. */
  g_assert_false (sl_job_controller_follow_unfinished (jobs));

  g_setenv ("PATH", old_path, TRUE);
  g_unsetenv ("FAKE_SLURM");
  g_string_free (followed.output, TRUE);
  g_string_free (followed.events, TRUE);
  g_free (followed.reason);
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/job-controller/local-job", test_local_job);
  g_test_add_func ("/job-controller/local-job-stopped", test_local_job_stopped);
  g_test_add_func ("/job-controller/background-child", test_background_child);
  g_test_add_func ("/job-controller/missing-program", test_missing_program);
  g_test_add_func ("/job-controller/quote-argv", test_quote_argv);
  g_test_add_func ("/job-controller/follow-unfinished-slurm", test_follow_unfinished_slurm);

  return g_test_run ();
}
