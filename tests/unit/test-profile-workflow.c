/* test-profile-workflow.c: SlProfileWorkflow on this computer with the stand-in tools
 *
 * The stand-in msprof and npu-smi of tests/integration/workflow-tools
 * go on the PATH through an environment script, as the toolkit's
 * set_env.sh would put the real ones.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <glib/gstdio.h>

#include "sl-local-target.h"
#include "sl-problem.h"
#include "sl-profile-workflow.h"
#include "sl-workspace-store.h"

typedef struct {
  char *tmp;
  char *bin;
  char *project;
  char *store;
} Fixture;

static void
link_tool (const char *bin,
           const char *name,
           const char *source)
{
  g_autofree char *link = g_build_filename (bin, name, NULL);

  g_assert_cmpint (symlink (source, link), ==, 0);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *root = g_getenv ("SL_SOURCE_ROOT");
  g_autofree char *tools = g_build_filename (root ? root : ".", "tests", "integration", "workflow-tools", NULL);
  g_autofree char *main_py = NULL;
  g_autofree char *python = g_find_program_in_path ("python3");

  fixture->tmp = g_dir_make_tmp ("sl-profile-workflow-XXXXXX", NULL);
  fixture->bin = g_build_filename (fixture->tmp, "toolkit", "bin", NULL);
  fixture->project = g_build_filename (fixture->tmp, "project", NULL);
  fixture->store = g_build_filename (fixture->tmp, "workspace.db", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->bin, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (fixture->project, 0700), ==, 0);
  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "msprof" : "npu-smi";
      g_autofree char *source = g_build_filename (tools, name, NULL);

      link_tool (fixture->bin, name, source);
    }
  g_assert_nonnull (python);
  link_tool (fixture->bin, "python", python);
  main_py = g_build_filename (fixture->project, "main.py", NULL);
  g_assert_true (g_file_set_contents (main_py, "print(\"inference done\")\n", -1, NULL));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", fixture->tmp);

  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
  g_free (fixture->tmp);
  g_free (fixture->bin);
  g_free (fixture->project);
  g_free (fixture->store);
}

/* An environment script that puts the stand-ins first, with @extra exported. */
static char *
write_env_script (Fixture    *fixture,
                  const char *name,
                  const char *extra)
{
  g_autofree char *toolkit = g_path_get_dirname (fixture->bin);
  g_autofree char *path = g_build_filename (fixture->tmp, name, NULL);
  g_autofree char *text = g_strdup_printf ("export PATH=%s:/usr/bin:/bin\nexport ASCEND_TOOLKIT_HOME=%s\n%s\n",
                                           fixture->bin, toolkit, extra ? extra : "");

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_steal_pointer (&path);
}

static SlProfileWorkflow *
create_workflow (Fixture    *fixture,
                 const char *env_script)
{
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  const char *program[] = { "python3", "main.py", NULL };
  SlProfileWorkflow *workflow;

  sl_msprof_command_set_program (command, program);
  sl_msprof_command_set_output (command, "sightline-profile");
  workflow = sl_profile_workflow_new (target, fixture->project, command);
  sl_profile_workflow_set_env_script (workflow, env_script);
  sl_profile_workflow_set_store_path (workflow, fixture->store);
  return workflow;
}

static void
stage_cb (SlProfileWorkflow *workflow,
          GParamSpec        *pspec,
          GArray            *stages)
{
  int stage = sl_profile_workflow_get_stage (workflow);

  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  g_array_append_val (stages, stage);
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_profile_workflow_run_finish (SL_PROFILE_WORKFLOW (source), result, &error));
  g_assert_no_error (error);
  g_main_loop_quit (data);
}

static gboolean
has_stage (GArray *stages,
           int     stage)
{
  for (guint i = 0; i < stages->len; i++)
    if (g_array_index (stages, int, i) == stage)
      return TRUE;
  return FALSE;
}

/* Raw data only: exported on the target, pulled, stages seen in order on
 * the main thread. */
static void
test_raw_profile_is_exported_and_pulled (Fixture       *fixture,
                                         gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env_raw.sh", "export SL_STUB_RAW_ONLY=1");
  g_autoptr(SlProfileWorkflow) workflow = create_workflow (fixture, script);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GArray) stages = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *timeline = NULL;
  g_autofree char *name = NULL;

  g_signal_connect (workflow, "notify::stage", G_CALLBACK (stage_cb), stages);
  sl_profile_workflow_run_async (workflow, NULL, run_done_cb, loop);
  g_main_loop_run (loop);
  /* The last notification may come after the task's callback. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  for (guint i = 0; i < sl_profile_workflow_get_problems (workflow)->len; i++)
    g_test_message ("%s", sl_problem_get_message (g_ptr_array_index (sl_profile_workflow_get_problems (workflow), i)));
  g_assert_true (sl_profile_workflow_succeeded (workflow));
  g_assert_cmpint (sl_profile_workflow_get_exit_code (workflow), ==, 0);
  g_assert_nonnull (sl_profile_workflow_get_profile (workflow));
  name = g_path_get_basename (sl_profile_workflow_get_profile (workflow));
  g_assert_true (g_str_has_prefix (name, "PROF_"));
  timeline = g_build_filename (sl_profile_workflow_get_profile (workflow), "device_0", "timeline", NULL);
  g_assert_true (g_file_test (timeline, G_FILE_TEST_IS_DIR));
  g_assert_nonnull (sl_profile_workflow_get_local_log (workflow));
  g_assert_true (g_file_test (sl_profile_workflow_get_local_log (workflow), G_FILE_TEST_IS_REGULAR));

  g_assert_true (has_stage (stages, SL_PROFILE_STAGE_PREFLIGHT));
  g_assert_true (has_stage (stages, SL_PROFILE_STAGE_RUNNING));
  g_assert_true (has_stage (stages, SL_PROFILE_STAGE_EXPORTING));
  g_assert_true (has_stage (stages, SL_PROFILE_STAGE_PULLING));
  g_assert_cmpint (g_array_index (stages, int, stages->len - 1), ==, SL_PROFILE_STAGE_DONE);
}

/* The one job the run recorded in the fixture's history. */
static SlJobRecord *
dup_recorded_job (Fixture *fixture)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;

  store = sl_workspace_store_new_for_path (fixture->store, &error);
  g_assert_no_error (error);
  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 1);
  return g_object_ref (g_ptr_array_index (jobs, 0));
}

/* The program ran but no data came out: no profile, an error with a
 * hint, and the job history says failed although the program exited 0. */
static void
test_no_output_is_a_problem (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env_nothing.sh", "export SL_STUB_NO_OUTPUT=1");
  g_autoptr(SlProfileWorkflow) workflow = create_workflow (fixture, script);
  g_autoptr(SlJobRecord) job = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *problems;
  SlProblem *last;

  g_assert_true (sl_profile_workflow_run (workflow, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (sl_profile_workflow_succeeded (workflow));
  g_assert_null (sl_profile_workflow_get_profile (workflow));
  g_assert_nonnull (sl_profile_workflow_get_log_path (workflow));
  problems = sl_profile_workflow_get_problems (workflow);
  g_assert_cmpuint (problems->len, >=, 1);
  last = g_ptr_array_index (problems, problems->len - 1);
  g_assert_cmpint (sl_problem_get_severity (last), ==, SL_SEVERITY_ERROR);
  g_assert_nonnull (sl_problem_get_hint (last));
  g_assert_cmpint (sl_profile_workflow_get_stage (workflow), ==, SL_PROFILE_STAGE_DONE);

  g_assert_cmpint (sl_profile_workflow_get_exit_code (workflow), ==, 0);
  job = dup_recorded_job (fixture);
  g_assert_cmpint (sl_job_record_get_state (job), ==, SL_JOB_STATE_FAILED);
  g_assert_true (sl_job_record_has_exit_code (job));
  g_assert_cmpint (sl_job_record_get_exit_code (job), ==, 0);
  {
    guint errors = 0;
    g_autofree char *reason = NULL;

    for (guint i = 0; i < problems->len; i++)
      errors += sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR;
    g_assert_cmpuint (errors, >=, 1);
    reason = g_strdup_printf ("exit 0, but the run found %u error%s", errors, errors == 1 ? "" : "s");
    g_assert_cmpstr (sl_job_record_get_outcome_reason (job), ==, reason);
  }
}

/* A missing environment script stops at the preflight, before any job. */
static void
test_missing_env_script_stops_at_preflight (Fixture       *fixture,
                                            gconstpointer  data)
{
  g_autofree char *script = g_build_filename (fixture->tmp, "no-such-set_env.sh", NULL);
  g_autoptr(SlProfileWorkflow) workflow = create_workflow (fixture, script);

  g_assert_true (sl_profile_workflow_run (workflow, NULL, NULL));
  g_assert_false (sl_profile_workflow_succeeded (workflow));
  g_assert_null (sl_profile_workflow_get_log_path (workflow));
  g_assert_cmpint (sl_profile_workflow_get_exit_code (workflow), ==, -1);
  g_assert_cmpuint (sl_profile_workflow_get_problems (workflow)->len, >=, 1);
}

typedef struct {
  GCancellable *cancellable;
  GMainLoop    *loop;
  GArray       *stages;
  const char   *pid_file;
  GError       *error;
  gboolean      ok;
} CancelRun;

static gboolean
cancel_once_started_cb (gpointer data)
{
  CancelRun *run = data;

  if (!g_file_test (run->pid_file, G_FILE_TEST_EXISTS))
    return G_SOURCE_CONTINUE;
  g_cancellable_cancel (run->cancellable);
  return G_SOURCE_REMOVE;
}

/* The job is cancelled once the program runs, as the dialog's Cancel does. */
static void
cancel_when_running_cb (SlProfileWorkflow *workflow,
                        GParamSpec        *pspec,
                        CancelRun         *run)
{
  int stage = sl_profile_workflow_get_stage (workflow);

  g_array_append_val (run->stages, stage);
  if (stage == SL_PROFILE_STAGE_RUNNING)
    g_timeout_add (50, cancel_once_started_cb, run);
}

static void
cancel_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  CancelRun *run = data;

  run->ok = sl_profile_workflow_run_finish (SL_PROFILE_WORKFLOW (source), result, &run->error);
  g_main_loop_quit (run->loop);
}

static gboolean
process_is_gone (GPid pid)
{
  for (guint i = 0; i < 100; i++)
    {
      if (kill (pid, 0) != 0 && errno == ESRCH)
        return TRUE;
      g_usleep (100 * 1000);
    }
  return FALSE;
}

/* Cancelling stops the job on the target: the program is gone, the run
 * ends as cancelled, and nothing is exported or pulled. */
static void
test_cancel_stops_the_job (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env.sh", NULL);
  g_autofree char *sleeper = g_build_filename (fixture->project, "sleep.py", NULL);
  g_autofree char *pid_file = g_build_filename (fixture->project, "pid", NULL);
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(SlProfileWorkflow) workflow = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GArray) stages = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *pid_text = NULL;
  const char *program[] = { "python3", "sleep.py", NULL };
  CancelRun run = { cancellable, loop, stages, pid_file, NULL, TRUE };

  g_assert_true (g_file_set_contents (sleeper,
                                      "import os, time\n"
                                      "open('pid', 'w').write(str(os.getpid()))\n"
                                      "time.sleep(120)\n", -1, NULL));
  sl_msprof_command_set_program (command, program);
  sl_msprof_command_set_output (command, "sightline-profile");
  workflow = sl_profile_workflow_new (target, fixture->project, command);
  sl_profile_workflow_set_env_script (workflow, script);
  sl_profile_workflow_set_store_path (workflow, fixture->store);
  g_signal_connect (workflow, "notify::stage", G_CALLBACK (cancel_when_running_cb), &run);
  sl_profile_workflow_run_async (workflow, cancellable, cancel_done_cb, &run);
  g_main_loop_run (loop);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_false (run.ok);
  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&run.error);
  g_assert_true (has_stage (stages, SL_PROFILE_STAGE_UPLOADING));
  g_assert_false (has_stage (stages, SL_PROFILE_STAGE_PULLING));
  g_assert_null (sl_profile_workflow_get_profile (workflow));
  g_assert_cmpint (sl_profile_workflow_get_exit_code (workflow), !=, 0);
  /* The program wrote its pid before it slept; it is gone now. */
  g_assert_true (g_file_get_contents (pid_file, &pid_text, NULL, NULL));
  g_assert_true (process_is_gone ((GPid)g_ascii_strtoll (pid_text, NULL, 10)));
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *home = g_dir_make_tmp ("sl-profile-workflow-home-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (home, "cache", NULL);
  g_autofree char *data = g_build_filename (home, "data", NULL);
  int status;

  /* Before anything asks GLib for the user folders. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/profile-workflow/raw-exported-pulled", Fixture, NULL, fixture_set_up,
              test_raw_profile_is_exported_and_pulled, fixture_tear_down);
  g_test_add ("/profile-workflow/no-output", Fixture, NULL, fixture_set_up,
              test_no_output_is_a_problem, fixture_tear_down);
  g_test_add ("/profile-workflow/missing-env-script", Fixture, NULL, fixture_set_up,
              test_missing_env_script_stops_at_preflight, fixture_tear_down);
  g_test_add ("/profile-workflow/cancel-stops-the-job", Fixture, NULL, fixture_set_up,
              test_cancel_stops_the_job, fixture_tear_down);
  status = g_test_run ();
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", home);

    g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  }
  return status;
}
