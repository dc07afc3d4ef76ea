/* test-mindx-workflow.c: SlMindxWorkflow on this computer with the stand-in MindX SDK
 *
 * The stand-in SDK home of tests/integration/workflow-tools/mindx-sdk has
 * the folders the SDK's run.sh puts on the search paths and a
 * StreamManagerApi that checks them and the pipeline's elements, printing
 * the SDK's log lines; the app is the samples' main.py.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-local-target.h"
#include "sl-mindx-workflow.h"
#include "sl-problem.h"
#include "sl-run-config-record.h"
#include "sl-workspace-store.h"

typedef struct {
  char *tmp;
  char *sdk;
  char *project;
  char *remote;
  char *store;
} Fixture;

static char *
tools_path (const char *name)
{
  const char *root = g_getenv ("SL_SOURCE_ROOT");

  return g_build_filename (root ? root : ".", "tests", "integration", "workflow-tools", name, NULL);
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *text = NULL;
  g_autofree char *dir = g_path_get_dirname (to);
  gsize length = 0;

  g_assert_true (g_file_get_contents (from, &text, &length, NULL));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (to, text, length, NULL));
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *files[] = { "main.py", "pipeline/detection.pipeline" };
  g_autofree char *app = tools_path ("mindx-app");

  fixture->tmp = g_dir_make_tmp ("sl-mindx-workflow-XXXXXX", NULL);
  fixture->sdk = tools_path ("mindx-sdk");
  fixture->project = g_build_filename (fixture->tmp, "project", NULL);
  fixture->remote = g_build_filename (fixture->tmp, "remote", NULL);
  fixture->store = g_build_filename (fixture->tmp, "workspace.db", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *from = g_build_filename (app, files[i], NULL);
      g_autofree char *to = g_build_filename (fixture->project, files[i], NULL);

      copy_file (from, to);
    }
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", fixture->tmp);

  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
  g_free (fixture->tmp);
  g_free (fixture->sdk);
  g_free (fixture->project);
  g_free (fixture->remote);
  g_free (fixture->store);
}

static SlMindxWorkflow *
create_workflow (Fixture    *fixture,
                 const char *sdk_home,
                 const char *pipeline)
{
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autoptr(SlMindxSettings) settings = sl_mindx_settings_new ();
  const char *args[] = { pipeline, NULL };
  const char *pull[] = { "output", NULL };
  const char *excludes[] = { ".git", NULL };
  SlMindxWorkflow *workflow;

  settings->sdk_home = g_strdup (sdk_home);
  settings->pipeline = g_strdup (pipeline);
  settings->entry = g_strdup ("main.py");
  workflow = sl_mindx_workflow_new (target, fixture->project, settings, args);
  sl_mindx_workflow_set_remote_dir (workflow, fixture->remote);
  sl_mindx_workflow_set_pull_dirs (workflow, pull);
  sl_mindx_workflow_set_excludes (workflow, excludes);
  sl_mindx_workflow_set_store_path (workflow, fixture->store);
  return workflow;
}

static SlProblem *
find_code (GPtrArray  *problems,
           const char *code)
{
  for (guint i = 0; i < problems->len; i++)
    if (g_strcmp0 (sl_problem_get_code (g_ptr_array_index (problems, i)), code) == 0)
      return g_ptr_array_index (problems, i);
  return NULL;
}

static void
print_problems (SlMindxWorkflow *workflow)
{
  GPtrArray *problems = sl_mindx_workflow_get_problems (workflow);

  for (guint i = 0; i < problems->len; i++)
    g_test_message ("%s: %s", sl_problem_get_code (g_ptr_array_index (problems, i)),
                    sl_problem_get_message (g_ptr_array_index (problems, i)));
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

/* The line @problem points at in its log says what the problem quotes. */
static void
assert_points_at_log_line (SlProblem  *problem,
                           const char *expected)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint line = sl_problem_get_line (problem);

  g_assert_true (g_file_get_contents (sl_problem_get_path (problem), &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (line, >=, 1);
  g_assert_cmpuint (line, <=, g_strv_length (lines));
  g_assert_nonnull (strstr (lines[line - 1], expected));
}

/* The preview shows each variable run.sh sets and the app's command. */
static void
test_preview_shows_environment_and_command (Fixture       *fixture,
                                            gconstpointer  data)
{
  g_autoptr(SlMindxWorkflow) workflow = create_workflow (fixture, "/opt/mxVision", "pipeline/detection.pipeline");
  g_autoptr(SlMindxWorkflow) relative = create_workflow (fixture, "opt/mxVision", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *preview = NULL;
  g_autofree char *dry_run = NULL;
  g_auto(GStrv) environment = sl_mindx_workflow_dup_environment (workflow);
  const char *extra[] = { "ASCEND_RT_VISIBLE_DEVICES=1", "BAD NAME=x", "9LIVES=x", "=x", "NOEQUALS", NULL };

  /* The configuration's own variables follow the SDK's; bad names are dropped. */
  sl_mindx_workflow_set_environment (workflow, extra);
  preview = sl_mindx_workflow_dup_preview (workflow, &error);
  dry_run = sl_mindx_workflow_dup_dry_run (workflow, &error);
  g_assert_nonnull (strstr (preview, "export PYTHONPATH='/opt/mxVision/python'\"${PYTHONPATH:+:$PYTHONPATH}\"\nexport ASCEND_RT_VISIBLE_DEVICES='1'\n"));
  g_assert_null (strstr (preview, "BAD"));
  g_assert_null (strstr (preview, "9LIVES"));
  g_assert_null (strstr (preview, "NOEQUALS"));

  g_assert_no_error (error);
  g_assert_nonnull (strstr (preview, "export MX_SDK_HOME='/opt/mxVision'\n"));
  g_assert_nonnull (strstr (preview, "export LD_LIBRARY_PATH='/opt/mxVision/lib:/opt/mxVision/opensource/lib:"));
  g_assert_nonnull (strstr (preview, "export GST_PLUGIN_PATH='/opt/mxVision/opensource/lib/gstreamer-1.0:/opt/mxVision/lib/plugins'\n"));
  g_assert_nonnull (strstr (preview, "export PYTHONPATH='/opt/mxVision/python'\"${PYTHONPATH:+:$PYTHONPATH}\"\n"));
  g_assert_nonnull (strstr (preview, "'python3' 'main.py' 'pipeline/detection.pipeline'\n"));
  g_assert_true (g_str_has_prefix (dry_run, preview));
  g_assert_nonnull (strstr (dry_run + strlen (preview), "MX_SDK_HOME"));
  g_assert_cmpstr (environment[0], ==, "MX_SDK_HOME=/opt/mxVision");

  g_assert_null (sl_mindx_workflow_dup_preview (relative, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* A pipeline the SDK would reject stops the run before anything is
 * uploaded, with problems naming the file and the element. */
static void
test_broken_pipeline_stops_the_run (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autoptr(SlMindxWorkflow) workflow = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *pipeline = g_build_filename (fixture->project, "pipeline", "broken.pipeline", NULL);
  GPtrArray *problems;
  SlProblem *problem = NULL;

  write_file (fixture->project, "pipeline/broken.pipeline",
              "{\"detection\": {\"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"nowhere\"},\n"
              " \"appsink0\": {\"factory\": \"appsink\"}}}\n");
  workflow = create_workflow (fixture, fixture->sdk, "pipeline/broken.pipeline");
  g_assert_true (sl_mindx_workflow_run (workflow, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (sl_mindx_workflow_succeeded (workflow));
  g_assert_null (sl_mindx_workflow_get_log_path (workflow));
  g_assert_false (g_file_test (fixture->remote, G_FILE_TEST_EXISTS));

  problems = sl_mindx_workflow_get_problems (workflow);
  for (guint i = 0; i < problems->len && problem == NULL; i++)
    if (strstr (sl_problem_get_message (g_ptr_array_index (problems, i)), "nowhere") != NULL)
      problem = g_ptr_array_index (problems, i);
  g_assert_nonnull (problem);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, pipeline);
  g_assert_cmpstr (sl_problem_get_subject (problem), ==, "appsrc0");
  g_assert_cmpuint (sl_problem_get_line (problem), ==, 1);
}

/* The model is missing on the target (*.om is not uploaded by default):
 * the SDK's codes become problems at their log lines, with hints. */
static void
test_stream_codes_become_problems (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(SlMindxWorkflow) workflow = create_workflow (fixture, fixture->sdk, "pipeline/detection.pipeline");
  g_autoptr(GError) error = NULL;
  g_autofree char *result = g_build_filename (fixture->remote, "output", "result.json", NULL);
  GPtrArray *problems;
  SlProblem *missing, *stream;

  g_assert_true (sl_mindx_workflow_run (workflow, NULL, &error));
  g_assert_no_error (error);
  print_problems (workflow);
  /* The samples exit() with 0 after printing the code. */
  g_assert_cmpint (sl_mindx_workflow_get_exit_code (workflow), ==, 0);
  g_assert_false (sl_mindx_workflow_succeeded (workflow));
  g_assert_nonnull (sl_mindx_workflow_get_log_path (workflow));
  g_assert_nonnull (sl_mindx_workflow_get_local_log (workflow));
  g_assert_false (g_file_test (result, G_FILE_TEST_EXISTS));

  problems = sl_mindx_workflow_get_problems (workflow);
  /* The model missing here is only a warning of the check. */
  g_assert_nonnull (problems);
  missing = find_code (problems, "1016");
  stream = find_code (problems, "6003");
  g_assert_nonnull (missing);
  g_assert_nonnull (stream);
  g_assert_cmpstr (sl_problem_get_path (missing), ==, sl_mindx_workflow_get_local_log (workflow));
  g_assert_nonnull (strstr (sl_problem_get_message (missing), "A file or resource does not exist"));
  g_assert_nonnull (strstr (sl_problem_get_message (missing), "models/yolo.om"));
  g_assert_nonnull (sl_problem_get_hint (missing));
  assert_points_at_log_line (missing, "(Code = 1016");
  assert_points_at_log_line (stream, "6003");

  /* The job history says failed, as Problems does, and why. */
  {
    g_autoptr(SlJobRecord) job = dup_recorded_job (fixture);
    guint errors = 0;
    g_autofree char *reason = NULL;

    for (guint i = 0; i < problems->len; i++)
      errors += sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR;
    reason = g_strdup_printf ("exit 0, but the log holds %u SDK error%s", errors, errors == 1 ? "" : "s");
    g_assert_cmpuint (errors, >=, 2);
    g_assert_cmpint (sl_job_record_get_state (job), ==, SL_JOB_STATE_FAILED);
    g_assert_true (sl_job_record_has_exit_code (job));
    g_assert_cmpint (sl_job_record_get_exit_code (job), ==, 0);
    g_assert_cmpstr (sl_job_record_get_outcome_reason (job), ==, reason);
    g_assert_cmpstr (sl_job_record_get_state_word (job), ==, "failed");
  }
}

typedef struct {
  gboolean  done;
  GError   *error;
} AsyncRun;

static void
async_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  AsyncRun *run = data;

  g_assert_true (sl_mindx_workflow_run_finish (SL_MINDX_WORKFLOW (source), result, &run->error));
  run->done = TRUE;
}

static void
count_cb (SlMindxWorkflow *workflow,
          guint           *count)
{
  (*count)++;
}

static void
count_problem_cb (SlMindxWorkflow *workflow,
                  SlProblem       *problem,
                  guint           *count)
{
  (*count)++;
}

/* Run as the window runs it, on the worker: the app exits 0 but its log
 * holds the SDK's codes, so the workflow's verdict is failed, and the
 * job history records the job as failed too, once the run is over. */
static void
test_async_run_records_the_verdict (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autoptr(SlMindxWorkflow) workflow = create_workflow (fixture, fixture->sdk, "pipeline/detection.pipeline");
  g_autoptr(SlJobRecord) job = NULL;
  AsyncRun run = { FALSE, NULL };
  guint finished = 0;
  guint problems = 0;

  g_signal_connect (workflow, "finished", G_CALLBACK (count_cb), &finished);
  g_signal_connect (workflow, "problem", G_CALLBACK (count_problem_cb), &problems);
  sl_mindx_workflow_run_async (workflow, NULL, async_done_cb, &run);
  while (!run.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (run.error);
  g_assert_cmpuint (finished, ==, 1);
  print_problems (workflow);

  g_assert_cmpint (sl_mindx_workflow_get_exit_code (workflow), ==, 0);
  g_assert_false (sl_mindx_workflow_succeeded (workflow));
  g_assert_cmpuint (problems, ==, sl_mindx_workflow_get_problems (workflow)->len);
  g_assert_nonnull (find_code (sl_mindx_workflow_get_problems (workflow), "1016"));
  g_assert_cmpint (sl_workflow_get_job_id (SL_WORKFLOW (workflow)), >, 0);

  job = dup_recorded_job (fixture);
  g_assert_cmpint (sl_job_record_get_id (job), ==, sl_workflow_get_job_id (SL_WORKFLOW (workflow)));
  g_assert_cmpint (sl_job_record_get_state (job), ==, SL_JOB_STATE_FAILED);
  g_assert_cmpint (sl_job_record_get_exit_code (job), ==, 0);
  g_assert_nonnull (strstr (sl_job_record_get_outcome_reason (job), "SDK error"));
}

/* With the model uploaded the app runs and its output folder is pulled. */
static void
test_successful_run_pulls_output (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(SlMindxWorkflow) workflow = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *pulled;
  g_autofree char *result = NULL;

  write_file (fixture->project, "models/yolo.om", "om");
  workflow = create_workflow (fixture, fixture->sdk, "pipeline/detection.pipeline");
  g_assert_true (sl_mindx_workflow_run (workflow, NULL, &error));
  g_assert_no_error (error);
  print_problems (workflow);
  g_assert_true (sl_mindx_workflow_succeeded (workflow));
  g_assert_cmpint (sl_mindx_workflow_get_stage (workflow), ==, SL_MINDX_STAGE_DONE);
  pulled = sl_mindx_workflow_get_pulled (workflow);
  g_assert_nonnull (pulled);
  g_assert_cmpuint (g_strv_length ((char **)pulled), ==, 1);
  result = g_build_filename (pulled[0], "result.json", NULL);
  g_assert_true (g_file_test (result, G_FILE_TEST_IS_REGULAR));

  {
    g_autoptr(SlJobRecord) job = dup_recorded_job (fixture);

    g_assert_cmpint (sl_job_record_get_state (job), ==, SL_JOB_STATE_SUCCEEDED);
    g_assert_null (sl_job_record_get_outcome_reason (job));
  }
}

/* An SDK home without the SDK: InitManager's code, explained. */
static void
test_wrong_sdk_home (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(SlMindxWorkflow) workflow = create_workflow (fixture, fixture->tmp, "pipeline/detection.pipeline");
  g_autoptr(GError) error = NULL;
  SlProblem *problem;

  g_assert_true (sl_mindx_workflow_run (workflow, NULL, &error));
  print_problems (workflow);
  g_assert_false (sl_mindx_workflow_succeeded (workflow));
  /* No module on PYTHONPATH: Python's own error, with the exit code. */
  problem = g_ptr_array_index (sl_mindx_workflow_get_problems (workflow),
                               sl_mindx_workflow_get_problems (workflow)->len - 1);
  g_assert_cmpint (sl_mindx_workflow_get_exit_code (workflow), ==, 1);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "exited with 1"));
  g_assert_nonnull (strstr (sl_problem_get_hint (problem), sl_mindx_workflow_get_log_path (workflow)));
}

/* The settings live in the "mindx" group; the others are kept. */
static void
test_settings_round_trip (void)
{
  g_autoptr(SlRunConfigRecord) config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_MINDX, "detect", "old.py");
  g_autoptr(SlMindxSettings) settings = sl_mindx_settings_from_config (config);
  g_autoptr(SlMindxSettings) read = NULL;
  g_autoptr(JsonObject) slurm = json_object_new ();
  g_autoptr(JsonObject) kept = NULL;
  g_autoptr(GError) error = NULL;

  /* Without a group the command is the entry. */
  g_assert_cmpstr (settings->entry, ==, "old.py");
  g_assert_null (settings->sdk_home);

  json_object_set_int_member (slurm, "nodes", 2);
  sl_run_config_record_set_option_group (config, "slurm", slurm);
  g_free (settings->entry);
  settings->entry = g_strdup ("main.py");
  settings->sdk_home = g_strdup ("/opt/mxVision");
  settings->pipeline = g_strdup ("pipeline/detection.pipeline");
  sl_mindx_settings_store (settings, config);
  g_assert_cmpstr (sl_run_config_record_get_command (config), ==, "main.py");

  read = sl_mindx_settings_from_config (config);
  g_assert_cmpstr (read->sdk_home, ==, "/opt/mxVision");
  g_assert_cmpstr (read->pipeline, ==, "pipeline/detection.pipeline");
  g_assert_cmpstr (read->entry, ==, "main.py");
  g_assert_null (read->toolkit);
  kept = sl_run_config_record_dup_option_group (config, "slurm");
  g_assert_cmpint (json_object_get_int_member (kept, "nodes"), ==, 2);

  /* Hostile or damaged options read as nothing, not as a crash. */
  sl_run_config_record_set_options (config, "{\"mindx\": {\"sdk_home\": 5, \"entry\": [\"x\"], \"pipeline\": null}}");
  g_clear_pointer (&read, sl_mindx_settings_free);
  read = sl_mindx_settings_from_config (config);
  g_assert_null (read->sdk_home);
  g_assert_null (read->pipeline);
  g_assert_cmpstr (read->entry, ==, "main.py");
  sl_run_config_record_set_options (config, "{\"mindx\": ");
  g_clear_pointer (&read, sl_mindx_settings_free);
  read = sl_mindx_settings_from_config (config);
  g_assert_null (read->sdk_home);

  g_assert_false (sl_mindx_settings_check_sdk_home ("/opt/mx;Vision", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (sl_mindx_settings_check_entry ("main.py\nrm -rf /", &error));
  g_clear_error (&error);
  g_assert_false (sl_mindx_settings_check_pipeline_path ("/nonexistent-project", "p.pipeline", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("sl-mindx-cache-XXXXXX", NULL);
  g_autofree char *command = NULL;
  int status;

  /* The job's log is kept in the cache: a test's own. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/mindx-workflow/preview", Fixture, NULL, fixture_set_up, test_preview_shows_environment_and_command,
              fixture_tear_down);
  g_test_add ("/mindx-workflow/broken-pipeline", Fixture, NULL, fixture_set_up, test_broken_pipeline_stops_the_run,
              fixture_tear_down);
  g_test_add ("/mindx-workflow/stream-codes", Fixture, NULL, fixture_set_up, test_stream_codes_become_problems,
              fixture_tear_down);
  g_test_add ("/mindx-workflow/async-verdict-recorded", Fixture, NULL, fixture_set_up,
              test_async_run_records_the_verdict, fixture_tear_down);
  g_test_add ("/mindx-workflow/success-pulls-output", Fixture, NULL, fixture_set_up, test_successful_run_pulls_output,
              fixture_tear_down);
  g_test_add ("/mindx-workflow/wrong-sdk-home", Fixture, NULL, fixture_set_up, test_wrong_sdk_home,
              fixture_tear_down);
  g_test_add_func ("/mindx-workflow/settings-round-trip", test_settings_round_trip);

  status = g_test_run ();
  command = g_strdup_printf ("rm -rf '%s'", cache);
  g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  return status;
}
