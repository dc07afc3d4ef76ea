/* test-transfer.c: the pure rules of uploads, pulls and jobs, and the
 * job backend and puller on this computer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-direct-job-backend.h"
#include "sl-folder-puller.h"
#include "sl-transfer.h"

static void
test_excludes (void)
{
  const char * const *defaults = sl_transfer_default_excludes ();
  const char * const custom[] = { "data/*.bin", "*.log", NULL };

  g_assert_true (sl_transfer_is_excluded (defaults, ".git"));
  g_assert_true (sl_transfer_is_excluded (defaults, ".git/objects/ab/cdef"));
  g_assert_true (sl_transfer_is_excluded (defaults, "pkg/__pycache__/m.cpython-311.pyc"));
  g_assert_true (sl_transfer_is_excluded (defaults, "out/epoch_3.ckpt"));
  g_assert_true (sl_transfer_is_excluded (defaults, "model.om"));
  g_assert_false (sl_transfer_is_excluded (defaults, "train.py"));
  g_assert_false (sl_transfer_is_excluded (defaults, "my.git/file"));
  g_assert_false (sl_transfer_is_excluded (defaults, "model.omx"));
  g_assert_false (sl_transfer_is_excluded (defaults, "ckpt/readme"));

  /* A pattern with "/" matches the whole relative path. */
  g_assert_true (sl_transfer_is_excluded (custom, "data/x.bin"));
  g_assert_false (sl_transfer_is_excluded (custom, "other/data/x.bin"));
  g_assert_true (sl_transfer_is_excluded (custom, "logs/run.log"));
  g_assert_false (sl_transfer_is_excluded (NULL, ".git"));
}

static void
test_incremental (void)
{
  g_assert_true (sl_transfer_is_unchanged (10, 1000, 10, 1000));
  g_assert_false (sl_transfer_is_unchanged (10, 1000, 11, 1000));
  g_assert_false (sl_transfer_is_unchanged (10, 1000, 10, 1001));

  g_assert_cmpint (sl_transfer_decide_pull (FALSE, 0, 0, 100, 5), ==, SL_PULL_FULL);
  g_assert_cmpint (sl_transfer_decide_pull (TRUE, 100, 5, 100, 5), ==, SL_PULL_SKIP);
  /* Grew: only the new bytes, once the prefix is checked. */
  g_assert_cmpint (sl_transfer_decide_pull (TRUE, 100, 5, 180, 9), ==, SL_PULL_APPEND);
  /* Shrank or rewritten at the same size: fetched again. */
  g_assert_cmpint (sl_transfer_decide_pull (TRUE, 100, 5, 50, 9), ==, SL_PULL_FULL);
  g_assert_cmpint (sl_transfer_decide_pull (TRUE, 100, 5, 100, 9), ==, SL_PULL_FULL);
  /* An empty local file has no prefix to check. */
  g_assert_cmpint (sl_transfer_decide_pull (TRUE, 0, 5, 100, 9), ==, SL_PULL_FULL);
}

static void
test_cache_paths (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *home = NULL;
  g_autofree char *odd = NULL;
  char *refused;

  path = sl_transfer_dup_cache_dir ("/cache", "a800", "/data/runs//exp1/./summaries", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, "/cache/targets/a800/data/runs/exp1/summaries");

  home = sl_transfer_dup_cache_dir ("/cache", "a800", "~/runs", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (home, ==, "/cache/targets/a800/~/runs");

  /* A target name never makes a path component of its own. */
  odd = sl_transfer_dup_cache_dir ("/cache", "../x/y", "/r", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (odd, ==, "/cache/targets/.._x_y/r");

  refused = sl_transfer_dup_cache_dir ("/cache", "a800", "/data/../../etc", &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_assert_null (refused);
}

static void
test_join_checked (void)
{
  const char *good[] = { "a b", "q'uote", "$(touch x)", "semi;colon", "new\nline", "-dash", "sub/file" };
  const char *bad[] = { "..", "a/../b", "", "a//b", "." };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = sl_transfer_join_checked ("/cache/t", good[i], &error);

      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (path, "/cache/t/"));
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = sl_transfer_join_checked ("/cache/t", bad[i], &error);

      g_assert_null (path);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
    }
}

static void
test_job_layout (void)
{
  const char * const argv[] = { "python3", "train.py", "--name", "it's $(x); y", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, "/srv/my project", "/srv");
  g_autoptr(SlJob) found = NULL;
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_local ();
  g_autoptr(SlJobBackend) backend = sl_direct_job_backend_new (shell);
  g_autoptr(GError) error = NULL;
  g_autofree char *log = sl_job_dup_log_path (job);
  g_autofree char *wrapper = sl_direct_job_backend_dup_wrapper (job);
  g_autofree char *launch = NULL;
  g_autofree char *prefix = g_strdup_printf ("/srv/.sightline/jobs/%s", sl_job_get_id (job));

  g_assert_cmpstr (sl_job_get_dir (job), ==, prefix);
  g_assert_true (g_str_has_suffix (log, "/log"));
  g_assert_true (g_str_has_prefix (log, prefix));

  /* The wrapper runs the quoted command in the quoted folder and writes
   * the exit code when it ends. */
  g_assert_nonnull (strstr (wrapper, "cd -- '/srv/my project'"));
  g_assert_nonnull (strstr (wrapper, "'python3' 'train.py' '--name' 'it'\\''s $(x); y' &"));
  g_assert_nonnull (strstr (wrapper, "exit_code"));

  launch = sl_job_backend_dup_launch_command (backend, job, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (launch, "setsid nohup \"$shell\" run.sh > log 2>&1"));
  g_assert_true (g_str_has_prefix (launch, "d='/srv/.sightline/jobs/"));

  found = sl_job_new_for_dir (sl_job_get_dir (job));
  g_assert_cmpstr (sl_job_get_id (found), ==, sl_job_get_id (job));
  g_assert_null (sl_job_get_argv (found));
}

typedef struct {
  GMainLoop *loop;
  guint      n_changed;
} PullerWait;

static void
on_changed (SlFolderPuller *puller,
            GStrv           paths,
            PullerWait     *wait)
{
  g_assert_cmpuint (g_strv_length (paths), >, 0);
  wait->n_changed++;
  g_main_loop_quit (wait->loop);
}

static gboolean
on_timeout (gpointer data)
{
  g_assert_not_reached ();
  return G_SOURCE_REMOVE;
}

static void
append_file (const char *path,
             const char *text)
{
  FILE *f = g_fopen (path, "ab");

  g_assert_nonnull (f);
  fputs (text, f);
  fclose (f);
}

static void
test_puller_local (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-transfer-XXXXXX", NULL);
  g_autofree char *remote = g_build_filename (tmp, "remote", NULL);
  g_autofree char *local = g_build_filename (tmp, "local", NULL);
  g_autofree char *remote_file = g_build_filename (remote, "run.summary", NULL);
  g_autofree char *local_file = g_build_filename (local, "run.summary", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_local ();
  g_autoptr(SlFolderPuller) puller = NULL;
  PullerWait wait = { g_main_loop_new (NULL, FALSE), 0 };
  guint timeout;

  g_mkdir_with_parents (remote, 0755);
  append_file (remote_file, "first records;");

  puller = sl_folder_puller_new (shell, remote, local, 100);
  g_signal_connect (puller, "changed", G_CALLBACK (on_changed), &wait);
  sl_folder_puller_start (puller);

  timeout = g_timeout_add_seconds (20, on_timeout, NULL);
  g_main_loop_run (wait.loop);
  g_assert_true (g_file_get_contents (local_file, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "first records;");
  g_clear_pointer (&contents, g_free);

  append_file (remote_file, " more records");
  g_main_loop_run (wait.loop);
  g_source_remove (timeout);
  sl_folder_puller_stop (puller);

  g_assert_cmpuint (wait.n_changed, ==, 2);
  g_assert_true (g_file_get_contents (local_file, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "first records; more records");
  g_assert_cmpuint (sl_folder_puller_get_n_pulls (puller), >=, 2);

  g_main_loop_unref (wait.loop);
  g_remove (local_file);
  g_remove (remote_file);
  g_rmdir (local);
  g_rmdir (remote);
  g_rmdir (tmp);
}

typedef struct {
  GMainLoop    *loop;
  GString      *log;
  guint64       next_offset;
  GAsyncResult *result;
} AsyncWait;

static void
collect_log (GBytes   *data,
             guint64   offset,
             gpointer  user_data)
{
  AsyncWait *wait = user_data;
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  /* In order, nothing skipped or repeated. */
  g_assert_cmpuint (offset, ==, wait->next_offset);
  wait->next_offset += size;
  g_string_append_len (wait->log, bytes, size);
}

static void
got_result (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  AsyncWait *wait = user_data;

  wait->result = g_object_ref (result);
  g_main_loop_quit (wait->loop);
}

static void
test_job_local_async (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-job-XXXXXX", NULL);
  const char * const argv[] = { "sh", "-c", "for i in 1 2 3 4 5; do echo \"line $i\"; sleep 0.1; done; exit 4", NULL };
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_local ();
  g_autoptr(SlJobBackend) backend = sl_direct_job_backend_new (shell);
  g_autoptr(SlJob) job = sl_job_new (argv, tmp, tmp);
  g_autoptr(GError) error = NULL;
  g_autofree char *command = NULL;
  AsyncWait wait = { g_main_loop_new (NULL, FALSE), g_string_new (NULL), 0, NULL };
  guint64 offset = 0;
  int exit_code = -1;
  SlJobStatus status;

  sl_job_backend_launch_async (backend, job, NULL, got_result, &wait);
  g_main_loop_run (wait.loop);
  g_assert_true (sl_job_backend_launch_finish (backend, wait.result, &error));
  g_assert_no_error (error);
  g_assert_nonnull (sl_job_get_backend_id (job));
  g_clear_object (&wait.result);

  sl_job_backend_attach_log_async (backend, job, 0, collect_log, &wait, NULL, NULL, got_result, &wait);
  g_main_loop_run (wait.loop);
  status = sl_job_backend_attach_log_finish (backend, wait.result, &offset, &exit_code, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, SL_JOB_STATUS_EXITED);
  g_assert_cmpint (exit_code, ==, 4);
  g_assert_cmpstr (wait.log->str, ==, "line 1\nline 2\nline 3\nline 4\nline 5\n");
  g_assert_cmpuint (offset, ==, wait.log->len);
  g_clear_object (&wait.result);

  /* The wrapper left the exit code in the job folder. */
  {
    g_autofree char *path = sl_job_dup_file_path (job, "exit_code");
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, "4\n");
  }

  g_string_free (wait.log, TRUE);
  g_main_loop_unref (wait.loop);
  command = g_strdup_printf ("rm -rf '%s'", tmp);
  g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
}

static void
test_error_advice (void)
{
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_local ();
  struct {
    GQuark      domain;
    int         code;
    const char *expected;
  } cases[] = {
    { G_IO_ERROR, G_IO_ERROR_NO_SPACE, "the disk is full" },
    { G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "permission denied" },
    { SL_SSH_ERROR, SL_SSH_ERROR_NOT_CONNECTED, "Check the network" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = g_error_new_literal (cases[i].domain, cases[i].code, "reason");

      sl_target_shell_explain_error (shell, "Could not upload a file", "/srv/run/a.py", &error);
      /* What failed, where, and what to do. */
      g_assert_true (g_str_has_prefix (error->message, "Could not upload a file (/srv/run/a.py): "));
      g_assert_nonnull (strstr (error->message, cases[i].expected));
      g_assert_true (g_error_matches (error, cases[i].domain, cases[i].code));
      g_error_free (error);
    }
}

/* A job whose status could not be written (its disk was full) is seen
 * through the file name the wrapper falls back to, and flagged; one that
 * left nothing is lost, and not flagged while the disk has room. */
static void
test_job_end_on_full_disk (void)
{
  g_autofree char *base = g_dir_make_tmp ("sl-job-full-XXXXXX", NULL);
  const char * const argv[] = { "true", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, base, base);
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_local ();
  g_autoptr(SlJobBackend) backend = sl_direct_job_backend_new (shell);
  g_autoptr(GError) error = NULL;
  g_autofree char *pid_path = g_build_filename (sl_job_get_dir (job), "pid", NULL);
  g_autofree char *fallback = g_build_filename (sl_job_get_dir (job), "exited-3", NULL);
  g_autofree char *wrapper = sl_direct_job_backend_dup_wrapper (job);
  int exit_code = -1;
  SlJobStatus status;

  /* The wrapper keeps the status in a file name when it cannot write it. */
  g_assert_nonnull (strstr (wrapper, "exited-$1"));

  g_assert_cmpint (g_mkdir_with_parents (sl_job_get_dir (job), 0700), ==, 0);
  /* No process group has this id: the job is gone. */
  g_assert_true (g_file_set_contents (pid_path, "2147483646\n", -1, NULL));

  status = sl_job_backend_poll (backend, job, &exit_code, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, SL_JOB_STATUS_LOST);
  g_assert_false (sl_job_get_disk_full (job));

  g_assert_true (g_file_set_contents (fallback, "", 0, NULL));
  status = sl_job_backend_poll (backend, job, &exit_code, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, SL_JOB_STATUS_EXITED);
  g_assert_cmpint (exit_code, ==, 3);
  g_assert_true (sl_job_get_disk_full (job));

  g_assert_cmpint (g_remove (fallback), ==, 0);
  g_assert_cmpint (g_remove (pid_path), ==, 0);
  g_assert_cmpint (g_rmdir (sl_job_get_dir (job)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transfer/excludes", test_excludes);
  g_test_add_func ("/transfer/incremental", test_incremental);
  g_test_add_func ("/transfer/cache-paths", test_cache_paths);
  g_test_add_func ("/transfer/join-checked", test_join_checked);
  g_test_add_func ("/transfer/job-layout", test_job_layout);
  g_test_add_func ("/transfer/job-end-on-full-disk", test_job_end_on_full_disk);
  g_test_add_func ("/transfer/puller-local", test_puller_local);
  g_test_add_func ("/transfer/error-advice", test_error_advice);
  g_test_add_func ("/transfer/job-local-async", test_job_local_async);

  return g_test_run ();
}
