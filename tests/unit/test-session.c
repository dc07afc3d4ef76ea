/* test-session.c: the session runs a job through its job controller,
 * the job model shows it with its start and end, and what the windows
 * show (busy, the current job, the problems) follows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "sl-session.h"

/* The linker counts the job controllers made (tests/unit/meson.build). */
static gint n_controllers_made;

SlJobController *__real_sl_job_controller_new (SlWorkspace *workspace);
SlJobController *__wrap_sl_job_controller_new (SlWorkspace *workspace);

SlJobController *
__wrap_sl_job_controller_new (SlWorkspace *workspace)
{
  g_atomic_int_inc (&n_controllers_made);
  return __real_sl_job_controller_new (workspace);
}

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
            guint       job,
            const char *title,
            const char *command_line,
            Seen       *seen)
{
  g_string_append_printf (seen->events, "started %s: %s\n", title, command_line);
}

static void
output_cb (SlSession *session,
           guint      job,
           GBytes    *data,
           Seen      *seen)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (seen->output, bytes, size);
}

static void
finished_cb (SlSession  *session,
             guint       job,
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

/* Two jobs at once, each told apart by its number. */
typedef struct {
  GHashTable *output;      /* job → GString */
  GHashTable *titles;      /* job → title */
  GHashTable *ended;       /* job → reason, "" for none */
  GHashTable *exit_codes;  /* job → exit code + 1 */
  guint       n_jobs_at_second_start;
  guint       n_started;
} Jobs;

static void
free_string (gpointer data)
{
  g_string_free (data, TRUE);
}

static void
jobs_started_cb (SlSession  *session,
                 guint       job,
                 const char *title,
                 const char *command_line,
                 Jobs       *jobs)
{
  g_assert_cmpuint (job, >, 0);
  g_assert_false (g_hash_table_contains (jobs->titles, GUINT_TO_POINTER (job)));
  g_hash_table_insert (jobs->titles, GUINT_TO_POINTER (job), g_strdup (title));
  g_hash_table_insert (jobs->output, GUINT_TO_POINTER (job), g_string_new (NULL));
  if (++jobs->n_started == 2)
    jobs->n_jobs_at_second_start = sl_job_controller_get_n_jobs (sl_session_get_jobs (session));
}

static void
jobs_output_cb (SlSession *session,
                guint      job,
                GBytes    *data,
                Jobs      *jobs)
{
  GString *output = g_hash_table_lookup (jobs->output, GUINT_TO_POINTER (job));
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_assert_nonnull (output);
  g_assert_false (g_hash_table_contains (jobs->ended, GUINT_TO_POINTER (job)));
  g_string_append_len (output, bytes, size);
}

static void
jobs_finished_cb (SlSession  *session,
                  guint       job,
                  int         exit_code,
                  const char *reason,
                  Jobs       *jobs)
{
  g_assert_true (g_hash_table_contains (jobs->titles, GUINT_TO_POINTER (job)));
  g_assert_false (g_hash_table_contains (jobs->ended, GUINT_TO_POINTER (job)));
  g_hash_table_insert (jobs->ended, GUINT_TO_POINTER (job), g_strdup (reason ? reason : ""));
  g_hash_table_insert (jobs->exit_codes, GUINT_TO_POINTER (job), GINT_TO_POINTER (exit_code + 1));
}

static void
link_tool (const char *bin,
           const char *name,
           const char *source)
{
  g_autofree char *link = g_build_filename (bin, name, NULL);

  g_assert_cmpint (symlink (source, link), ==, 0);
}

/* A toolkit of stand-ins (tests/integration/workflow-tools) whose
 * msprof runs the program and finds no data; returns its set_env.sh. */
static char *
make_toolkit (const char *dir)
{
  const char *root = g_getenv ("SL_SOURCE_ROOT");
  g_autofree char *tools = g_build_filename (root ? root : ".", "tests", "integration", "workflow-tools", NULL);
  g_autofree char *toolkit = g_build_filename (dir, "toolkit", NULL);
  g_autofree char *bin = g_build_filename (toolkit, "bin", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *script = g_build_filename (dir, "set_env.sh", NULL);
  g_autofree char *text = NULL;

  g_assert_nonnull (python);
  g_assert_cmpint (g_mkdir_with_parents (bin, 0700), ==, 0);
  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "msprof" : "npu-smi";
      g_autofree char *source = g_build_filename (tools, name, NULL);

      link_tool (bin, name, source);
    }
  link_tool (bin, "python", python);
  text = g_strdup_printf ("export PATH=%s:/usr/bin:/bin\nexport ASCEND_TOOLKIT_HOME=%s\nexport SL_STUB_NO_OUTPUT=1\n",
                          bin, toolkit);
  g_assert_true (g_file_set_contents (script, text, -1, NULL));
  return g_steal_pointer (&script);
}

static void
profile_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_session_run_profile_finish (SL_SESSION (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *)data = TRUE;
}

static SlJobRecord *
find_job (SlSession  *session,
          const char *word)
{
  GListModel *model = sl_workspace_get_jobs (sl_session_get_workspace (session));

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlJobRecord) job = g_list_model_get_item (model, i);

      if (strstr (sl_job_record_get_command (job), word) != NULL)
        return g_steal_pointer (&job);
    }
  return NULL;
}

static guint
find_job_number (Jobs       *jobs,
                 const char *title_start)
{
  GHashTableIter iter;
  gpointer job, title;

  g_hash_table_iter_init (&iter, jobs->titles);
  while (g_hash_table_iter_next (&iter, &job, &title))
    if (g_str_has_prefix (title, title_start))
      return GPOINTER_TO_UINT (job);
  return 0;
}

/* A profile runs while a Run job does: both go through the session's
 * one job controller, each job's signals carry its own number, its log
 * goes to it alone, and the profile's job is in the job model with its
 * start and end. Its program exits 0 but no profile came out: the job
 * ends failed, in the signals and in the history. */
static void
test_profile_beside_run_job (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-session-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autofree char *project = g_build_filename (dir, "project", NULL);
  g_autofree char *main_py = g_build_filename (project, "main.py", NULL);
  g_autofree char *go = g_build_filename (dir, "go", NULL);
  g_autofree char *env_script = make_toolkit (dir);
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (db);
  g_autoptr(SlSession) session = NULL;
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(SlProfileWorkflow) workflow = NULL;
  g_autoptr(SlJobRecord) profiled = NULL;
  g_autoptr(GError) error = NULL;
  const char *program[] = { "python3", "main.py", NULL };
  const char *argv[] = { "sh", "-c", "echo waiting; while [ ! -e go ]; do sleep 0.05; done; echo run-ended", NULL };
  Jobs jobs = {
    g_hash_table_new_full (NULL, NULL, NULL, free_string),
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new (NULL, NULL),
    0, 0,
  };
  gboolean profiled_done = FALSE;
  gint made_before;
  guint run_job, profile_job;
  GString *run_output, *profile_output;

  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  g_assert_true (g_file_set_contents (main_py, "print(\"inference done\")\n", -1, NULL));
  session = sl_session_new (workspace);
  sl_workspace_load_async (workspace, NULL, NULL, NULL);
  while (!sl_workspace_is_loaded (workspace))
    g_main_context_iteration (NULL, TRUE);
  g_signal_connect (session, "job-started", G_CALLBACK (jobs_started_cb), &jobs);
  g_signal_connect (session, "job-output", G_CALLBACK (jobs_output_cb), &jobs);
  g_signal_connect (session, "job-finished", G_CALLBACK (jobs_finished_cb), &jobs);
  made_before = g_atomic_int_get (&n_controllers_made);
  g_assert_cmpint (made_before, >=, 1);

  g_assert_true (sl_session_run_argv (session, argv, dir, &error));
  g_assert_no_error (error);

  sl_msprof_command_set_program (command, program);
  sl_msprof_command_set_output (command, "sightline-profile");
  workflow = sl_session_create_profile (session, 0, project, env_script, command, &error);
  g_assert_no_error (error);
  sl_session_run_profile (session, workflow, NULL, profile_done_cb, &profiled_done);
  while (!profiled_done)
    g_main_context_iteration (NULL, TRUE);

  /* The profile's job went through the session's controller, beside the
   * Run job, which still runs. */
  g_assert_cmpint (g_atomic_int_get (&n_controllers_made), ==, made_before);
  g_assert_cmpuint (jobs.n_started, ==, 2);
  g_assert_cmpuint (jobs.n_jobs_at_second_start, ==, 2);
  run_job = find_job_number (&jobs, "sh");
  profile_job = find_job_number (&jobs, "msprof");
  g_assert_cmpuint (run_job, >, 0);
  g_assert_cmpuint (profile_job, >, 0);
  g_assert_cmpuint (run_job, !=, profile_job);
  g_assert_cmpuint (sl_workflow_get_controller_job (SL_WORKFLOW (workflow)), ==, profile_job);
  g_assert_true (g_hash_table_contains (jobs.ended, GUINT_TO_POINTER (profile_job)));
  g_assert_false (g_hash_table_contains (jobs.ended, GUINT_TO_POINTER (run_job)));

  /* Its end says failed, with why, although the program exited 0. */
  g_assert_cmpint (sl_profile_workflow_get_exit_code (workflow), ==, 0);
  g_assert_false (sl_profile_workflow_succeeded (workflow));
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (jobs.exit_codes, GUINT_TO_POINTER (profile_job))) - 1, ==, -1);
  g_assert_nonnull (strstr (g_hash_table_lookup (jobs.ended, GUINT_TO_POINTER (profile_job)), "in Problems"));

  /* In the job model with its start and end, failed. */
  while (!(profiled = find_job (session, "msprof")) || sl_job_record_get_finished_at (profiled) == 0 ||
         sl_job_record_get_state (profiled) != SL_JOB_STATE_FAILED)
    {
      g_clear_object (&profiled);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpint (sl_job_record_get_started_at (profiled), >, 0);
  g_assert_cmpint (sl_job_record_get_finished_at (profiled), >=, sl_job_record_get_started_at (profiled));
  g_assert_cmpint (sl_job_record_get_exit_code (profiled), ==, 0);

  g_assert_true (g_file_set_contents (go, "", -1, NULL));
  while (!g_hash_table_contains (jobs.ended, GUINT_TO_POINTER (run_job)))
    g_main_context_iteration (NULL, TRUE);

  /* Each log went to its own job. */
  run_output = g_hash_table_lookup (jobs.output, GUINT_TO_POINTER (run_job));
  profile_output = g_hash_table_lookup (jobs.output, GUINT_TO_POINTER (profile_job));
  g_assert_cmpstr (run_output->str, ==, "waiting\nrun-ended\n");
  g_assert_nonnull (strstr (profile_output->str, "inference done"));
  g_assert_null (strstr (profile_output->str, "waiting"));
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (jobs.exit_codes, GUINT_TO_POINTER (run_job))) - 1, ==, 0);
  g_assert_cmpint (g_atomic_int_get (&n_controllers_made), ==, made_before);
  g_assert_false (sl_session_get_busy (session));

  g_hash_table_unref (jobs.output);
  g_hash_table_unref (jobs.titles);
  g_hash_table_unref (jobs.ended);
  g_hash_table_unref (jobs.exit_codes);
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_true (g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL));
  }
}

static void
max_running_cb (SlSession  *session,
                GParamSpec *pspec,
                guint      *max)
{
  *max = MAX (*max, sl_session_get_n_running (session));
}

/* The command line's run of a workflow: through the session's one job
 * controller, as a window's is (no controller of its own), its job in
 * the session's signals with the workflow's verdict and in the history
 * with its start and end, its problems the session's, and counted among
 * what the session runs until it ended. */
static void
test_workflow_sync (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-session-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autofree char *project = g_build_filename (dir, "project", NULL);
  g_autofree char *main_py = g_build_filename (project, "main.py", NULL);
  g_autofree char *env_script = make_toolkit (dir);
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (db);
  g_autoptr(SlSession) session = sl_session_new (workspace);
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(SlTarget) target = sl_session_create_target (session, 0, NULL);
  g_autoptr(SlProfileWorkflow) workflow = NULL;
  g_autoptr(SlJobRecord) profiled = NULL;
  g_autoptr(GError) error = NULL;
  const char *program[] = { "python3", "main.py", NULL };
  Jobs jobs = {
    g_hash_table_new_full (NULL, NULL, NULL, free_string),
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new (NULL, NULL),
    0, 0,
  };
  guint max_running = 0;
  gint made_before;
  guint job;

  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  g_assert_true (g_file_set_contents (main_py, "print(\"inference done\")\n", -1, NULL));
  g_signal_connect (session, "job-started", G_CALLBACK (jobs_started_cb), &jobs);
  g_signal_connect (session, "job-output", G_CALLBACK (jobs_output_cb), &jobs);
  g_signal_connect (session, "job-finished", G_CALLBACK (jobs_finished_cb), &jobs);
  g_signal_connect (session, "notify::n-running", G_CALLBACK (max_running_cb), &max_running);
  made_before = g_atomic_int_get (&n_controllers_made);

  sl_msprof_command_set_program (command, program);
  sl_msprof_command_set_output (command, "sightline-profile");
  workflow = sl_profile_workflow_new (target, project, command);
  sl_profile_workflow_set_env_script (workflow, env_script);
  sl_profile_workflow_set_store_path (workflow, db);
  g_assert_true (sl_session_run_workflow_sync (session, SL_WORKFLOW (workflow), NULL, &error));
  g_assert_no_error (error);

  g_assert_cmpint (g_atomic_int_get (&n_controllers_made), ==, made_before);
  g_assert_cmpuint (jobs.n_started, ==, 1);
  job = find_job_number (&jobs, "msprof");
  g_assert_cmpuint (job, >, 0);
  g_assert_cmpuint (sl_workflow_get_controller_job (SL_WORKFLOW (workflow)), ==, job);
  g_assert_nonnull (strstr (((GString *)g_hash_table_lookup (jobs.output, GUINT_TO_POINTER (job)))->str,
                            "inference done"));
  /* No profile came out although the program exited 0: failed, with why. */
  g_assert_cmpint (sl_profile_workflow_get_exit_code (workflow), ==, 0);
  g_assert_nonnull (strstr (g_hash_table_lookup (jobs.ended, GUINT_TO_POINTER (job)), "in Problems"));
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (jobs.exit_codes, GUINT_TO_POINTER (job))) - 1, ==, -1);
  g_assert_cmpuint (g_list_model_get_n_items (sl_session_get_problems (session)), ==,
                    sl_profile_workflow_get_problems (workflow)->len);
  g_assert_cmpuint (g_list_model_get_n_items (sl_session_get_problems (session)), >, 0);
  g_assert_cmpuint (max_running, ==, 1);
  g_assert_cmpuint (sl_session_get_n_running (session), ==, 0);
  g_assert_false (sl_session_get_busy (session));

  sl_workspace_flush (workspace);
  {
    g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (db, &error);
    g_autoptr(GPtrArray) history = NULL;

    g_assert_no_error (error);
    history = sl_workspace_store_list_jobs (store, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (history->len, ==, 1);
    profiled = g_object_ref (g_ptr_array_index (history, 0));
  }
  g_assert_cmpint (sl_job_record_get_state (profiled), ==, SL_JOB_STATE_FAILED);
  g_assert_cmpint (sl_job_record_get_started_at (profiled), >, 0);
  g_assert_cmpint (sl_job_record_get_finished_at (profiled), >=, sl_job_record_get_started_at (profiled));
  g_assert_nonnull (sl_job_record_get_outcome_reason (profiled));

  g_hash_table_unref (jobs.output);
  g_hash_table_unref (jobs.titles);
  g_hash_table_unref (jobs.ended);
  g_hash_table_unref (jobs.exit_codes);
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_true (g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/local-job", test_local_job);
  g_test_add_func ("/session/run-errors", test_run_errors);
  g_test_add_func ("/session/profile-beside-run-job", test_profile_beside_run_job);
  g_test_add_func ("/session/workflow-sync", test_workflow_sync);

  return g_test_run ();
}
