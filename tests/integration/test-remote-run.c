/* test-remote-run.c: SlRemoteRun against a real sshd
 *
 * Run through sshd_fixture.py. A small project is uploaded to the
 * fixture's server, its script started as a job, its log streamed, its
 * output folder pulled into the cache here and its end recorded in a
 * workspace database: once ending well (exit 0, through the blocking call)
 * and once failing with exit 13 (through the async call from a main loop).
 * The log, the exit code, the uploaded and the pulled files are compared
 * byte for byte with what the script writes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-remote-run.h"
#include "sl-ssh-target.h"
#include "sl-workspace-store.h"

/* Prints where it runs, writes two files into out/ (one in a subfolder),
 * a line on stderr, and exits with its argument. */
#define SCRIPT \
  "echo \"hello from $(basename \"$(pwd)\")\"\n" \
  "mkdir -p out/sub\n" \
  "printf 'alpha\\n' > out/a.txt\n" \
  "printf 'beta %s\\n' \"$1\" > out/sub/b.txt\n" \
  "echo 'to stderr' >&2\n" \
  "exit \"$1\"\n"

static char *tmp_root;
static char *project_dir;
static char *remote_dir;
static char *db_path;

typedef struct {
  GString  *log;
  GPtrArray *messages;
  char     *started_dir;
  char     *started_log;
  guint     n_pulled;
  char     *pulled_dir;
  gboolean  done;
  gboolean  ok;
  SlJobStatus status;
  int       exit_code;
  GError   *error;
} RunState;

static void
run_state_clear (RunState *state)
{
  g_string_free (state->log, TRUE);
  g_ptr_array_unref (state->messages);
  g_free (state->started_dir);
  g_free (state->started_log);
  g_free (state->pulled_dir);
  g_clear_error (&state->error);
}

static void
log_cb (SlRemoteRun *run,
        GBytes      *data,
        RunState    *state)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_assert_false (state->done);
  g_string_append_len (state->log, bytes, size);
}

static void
message_cb (SlRemoteRun *run,
            const char  *text,
            RunState    *state)
{
  g_test_message ("%s", text);
  g_ptr_array_add (state->messages, g_strdup (text));
}

static void
job_started_cb (SlRemoteRun *run,
                gint64       job_id,
                const char  *dir,
                const char  *log_path,
                RunState    *state)
{
  g_assert_null (state->started_dir);
  g_assert_cmpint (job_id, >, 0);
  state->started_dir = g_strdup (dir);
  state->started_log = g_strdup (log_path);
}

static void
pulled_cb (SlRemoteRun *run,
           const char  *local_dir,
           guint        n_changed,
           RunState    *state)
{
  state->n_pulled++;
  g_free (state->pulled_dir);
  state->pulled_dir = g_strdup (local_dir);
}

static SlTarget *
new_target (void)
{
  const char *host = g_getenv ("SL_SSH_HOST");
  const char *port = g_getenv ("SL_SSH_PORT");
  g_autofree char *known_hosts = g_build_filename (tmp_root, "known_hosts", NULL);
  g_autofree char *host_key = NULL;
  g_autofree char *line = NULL;
  g_auto(GStrv) parts = NULL;
  g_autofree char *base = g_build_filename (tmp_root, "server", NULL);
  SlTarget *target;

  /* The fixture's host key, known beforehand as after a first accept. */
  g_assert_true (g_file_get_contents (g_getenv ("SL_SSH_HOST_KEY_PUB"), &host_key, NULL, NULL));
  parts = g_strsplit (g_strstrip (host_key), " ", -1);
  g_assert_cmpuint (g_strv_length (parts), >=, 2);
  line = g_strdup_printf ("[%s]:%s %s %s\n", host, port, parts[0], parts[1]);
  g_assert_true (g_file_set_contents (known_hosts, line, -1, NULL));

  g_assert_cmpint (g_mkdir_with_parents (base, 0755), ==, 0);
  target = sl_ssh_target_new ("fixture", host);
  sl_ssh_target_set_port (SL_SSH_TARGET (target), atoi (port));
  sl_ssh_target_set_user (SL_SSH_TARGET (target), g_getenv ("SL_SSH_USER"));
  sl_ssh_target_set_identity_file (SL_SSH_TARGET (target), g_getenv ("SL_SSH_KEY"));
  sl_ssh_target_set_known_hosts_file (SL_SSH_TARGET (target), known_hosts);
  sl_ssh_target_set_base_dir (SL_SSH_TARGET (target), base);
  return target;
}

static SlRemoteRun *
new_run (SlTarget   *target,
         const char *exit_code,
         RunState   *state)
{
  const char *argv[] = { "sh", "run.sh", exit_code, NULL };
  const char *pulls[] = { "out", NULL };
  SlRemoteRun *run = sl_remote_run_new (target, project_dir, argv);

  memset (state, 0, sizeof *state);
  state->log = g_string_new (NULL);
  state->messages = g_ptr_array_new_with_free_func (g_free);
  sl_remote_run_set_remote_dir (run, remote_dir);
  sl_remote_run_set_pull_dirs (run, pulls);
  sl_remote_run_set_pull_interval (run, 200);
  sl_remote_run_set_store_path (run, db_path);
  sl_remote_run_set_reconnect_limit (run, 10);
  g_signal_connect (run, "log", G_CALLBACK (log_cb), state);
  g_signal_connect (run, "message", G_CALLBACK (message_cb), state);
  g_signal_connect (run, "job-started", G_CALLBACK (job_started_cb), state);
  g_signal_connect (run, "pulled", G_CALLBACK (pulled_cb), state);
  return run;
}

static void
assert_file (const char *dir,
             const char *name,
             const char *expected)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, expected);
}

static SlJobRecord *
find_job (gint64 id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (db_path, &error);
  g_autoptr(GPtrArray) jobs = NULL;

  g_assert_no_error (error);
  jobs = sl_workspace_store_list_jobs (store, 100, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < jobs->len; i++)
    {
      SlJobRecord *job = g_ptr_array_index (jobs, i);

      if (sl_job_record_get_id (job) == id)
        return g_object_ref (job);
    }
  return NULL;
}

/* What is common to both runs once they ended: the log, the folder, the
 * pulled files and the job history. */
static gboolean
has_message (RunState   *state,
             const char *text)
{
  for (guint i = 0; i < state->messages->len; i++)
    if (g_str_equal (g_ptr_array_index (state->messages, i), text))
      return TRUE;
  return FALSE;
}

static void
check_finished (SlRemoteRun *run,
                RunState    *state,
                const char  *exit_code)
{
  g_autofree char *resolved = realpath (remote_dir, NULL);
  /* Recorded as the shell line that ran it, every word quoted. */
  g_autofree char *command = g_strdup_printf ("'sh' 'run.sh' '%s'", exit_code);
  g_autofree char *base = g_build_filename (tmp_root, "server", NULL);
  g_autofree char *resolved_base = realpath (base, NULL);
  g_autofree char *jobs_dir = NULL;
  g_autofree char *script_path = g_build_filename (project_dir, "run.sh", NULL);
  g_autofree char *expected_pull = NULL;
  g_autofree char *b_text = g_strdup_printf ("beta %s\n", exit_code);
  g_autofree char *script = NULL;
  g_auto(GStrv) local_dirs = NULL;
  g_autoptr(SlJobRecord) record = NULL;

  /* The whole output, in order, once. */
  g_assert_cmpstr (state->log->str, ==, "hello from run\nto stderr\n");

  /* The project was uploaded as it is here. */
  g_assert_nonnull (resolved);
  g_assert_cmpstr (state->started_dir, ==, resolved);
  g_assert_true (g_file_get_contents (script_path, &script, NULL, NULL));
  assert_file (resolved, "run.sh", script);
  g_assert_cmpstr (sl_remote_run_get_log_path (run), ==, state->started_log);
  /* The log is in the job's own folder under the target's base folder. */
  jobs_dir = g_strconcat (resolved_base, "/.sightline/jobs/", NULL);
  g_assert_true (g_str_has_prefix (state->started_log, jobs_dir));
  g_assert_true (g_str_has_suffix (state->started_log, "/log"));
  {
    const char *rest = state->started_log + strlen (jobs_dir);

    /* "<job>/log": one folder per job */
    g_assert_true (strchr (rest, '/') == rest + strlen (rest) - strlen ("/log"));
  }

  /* out/ arrived here, in the target's cache folder, with both files. */
  local_dirs = sl_remote_run_dup_local_pull_dirs (run);
  g_assert_cmpuint (g_strv_length (local_dirs), ==, 1);
  expected_pull = g_build_filename (tmp_root, "cache", "sightline", "targets", "local", resolved, "out", NULL);
  g_assert_cmpstr (local_dirs[0], ==, expected_pull);
  g_assert_cmpuint (state->n_pulled, >=, 1);
  g_assert_cmpstr (state->pulled_dir, ==, expected_pull);
  assert_file (local_dirs[0], "a.txt", "alpha\n");
  assert_file (local_dirs[0], "sub/b.txt", b_text);

  /* The job history has how it ended. */
  record = find_job (sl_remote_run_get_job_id (run));
  g_assert_nonnull (record);
  g_assert_cmpstr (sl_job_record_get_command (record), ==, command);
  g_assert_cmpint (sl_job_record_get_exit_code (record), ==, atoi (exit_code));
  g_assert_cmpint (sl_job_record_get_state (record), ==,
                   atoi (exit_code) == 0 ? SL_JOB_STATE_SUCCEEDED : SL_JOB_STATE_FAILED);
  g_assert_cmpstr (sl_job_record_get_remote_folder (record), ==, resolved);
  g_assert_cmpstr (sl_job_record_get_log_path (record), ==, state->started_log);
  g_assert_cmpint (sl_job_record_get_finished_at (record), >, 0);
}

static void
test_run_succeeds (void)
{
  g_autoptr(SlTarget) target = new_target ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  RunState state;
  SlJobStatus status = SL_JOB_STATUS_LOST;
  int exit_code = -1;

  run = new_run (target, "0", &state);
  g_assert_true (sl_remote_run_execute (run, &status, &exit_code, NULL, &error));
  g_assert_no_error (error);
  state.done = TRUE;
  g_assert_cmpint (status, ==, SL_JOB_STATUS_EXITED);
  g_assert_cmpint (exit_code, ==, 0);
  /* The first upload sends the script; the second finds it unchanged. */
  {
    g_autofree char *size = g_format_size (strlen (SCRIPT));
    g_autofree char *uploaded = g_strdup_printf ("Uploaded 1 files (%s), 0 unchanged, 0 left out", size);

    g_assert_true (has_message (&state, uploaded));
  }
  check_finished (run, &state, "0");
  run_state_clear (&state);
}

static void
finished_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  RunState *state = user_data;

  state->ok = sl_remote_run_execute_finish (SL_REMOTE_RUN (source), result, &state->status,
                                            &state->exit_code, &state->error);
  state->done = TRUE;
}

static void
test_run_fails_with_13 (void)
{
  g_autoptr(SlTarget) target = new_target ();
  g_autoptr(SlRemoteRun) run = NULL;
  RunState state;
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  /* Exit 13, not 3: the second run rewrites out/sub/b.txt, and a rewrite
   * of the same size in the same second as the first run's is what the
   * pull's size-and-time check cannot see. */
  run = new_run (target, "13", &state);
  state.exit_code = -1;
  sl_remote_run_execute_async (run, NULL, finished_cb, &state);
  while (!state.done)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  /* Signals from the worker may still be queued behind the result. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_no_error (state.error);
  g_assert_true (state.ok);
  g_assert_cmpint (state.status, ==, SL_JOB_STATUS_EXITED);
  g_assert_cmpint (state.exit_code, ==, 13);
  g_assert_cmpint (sl_job_state_for_exit (state.status, state.exit_code), ==, SL_JOB_STATE_FAILED);
  g_assert_null (sl_remote_run_explain_exit (13));
  g_assert_true (has_message (&state, "Uploaded 0 files (0 bytes), 1 unchanged, 0 left out"));
  check_finished (run, &state, "13");
  run_state_clear (&state);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *cache = NULL;
  g_autofree char *script = NULL;
  int status;

  if (g_getenv ("SL_SSH_PORT") == NULL)
    {
      g_print ("1..0 # SKIP run through sshd_fixture.py\n");
      return 77;
    }

  tmp_root = g_dir_make_tmp ("sl-remote-run-XXXXXX", NULL);
  g_assert_nonnull (tmp_root);
  /* Before anything asks for the cache folder. */
  cache = g_build_filename (tmp_root, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);

  project_dir = g_build_filename (tmp_root, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0755), ==, 0);
  script = g_build_filename (project_dir, "run.sh", NULL);
  g_assert_true (g_file_set_contents (script, SCRIPT, -1, NULL));
  remote_dir = g_build_filename (tmp_root, "server", "run", NULL);
  db_path = g_build_filename (tmp_root, "workspace.db", NULL);

  g_test_add_func ("/remote-run/succeeds", test_run_succeeds);
  g_test_add_func ("/remote-run/fails-with-13", test_run_fails_with_13);
  status = g_test_run ();

  {
    const char *rm[] = { "rm", "-rf", tmp_root, NULL };

    g_spawn_sync (NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  }
  return status;
}
