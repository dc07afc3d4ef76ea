/* test-convert-workflow.c: SlConvertWorkflow on this computer with the stand-in atc
 *
 * The stand-in atc of tests/integration/workflow-tools goes on the PATH
 * through an environment script, as the toolkit's set_env.sh would put
 * the real one, and its plog files go under the fixture's own folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-convert-workflow.h"
#include "sl-local-target.h"
#include "sl-problem.h"
#include "sl-workspace-store-outputs.h"

typedef struct {
  char *tmp;
  char *bin;
  char *project;
  char *store;
  char *plog_root;
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
write_project_file (Fixture    *fixture,
                    const char *name)
{
  g_autofree char *path = g_build_filename (fixture->project, name, NULL);

  g_assert_true (g_file_set_contents (path, "model bytes\n", -1, NULL));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *root = g_getenv ("SL_SOURCE_ROOT");
  g_autofree char *tools = g_build_filename (root ? root : ".", "tests", "integration", "workflow-tools", NULL);
  g_autofree char *atc = g_build_filename (tools, "atc", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");

  fixture->tmp = g_dir_make_tmp ("sl-convert-workflow-XXXXXX", NULL);
  fixture->bin = g_build_filename (fixture->tmp, "toolkit", "bin", NULL);
  fixture->project = g_build_filename (fixture->tmp, "project", NULL);
  fixture->store = g_build_filename (fixture->tmp, "workspace.db", NULL);
  fixture->plog_root = g_build_filename (fixture->tmp, "ascend-log", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->bin, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (fixture->project, 0700), ==, 0);
  link_tool (fixture->bin, "atc", atc);
  g_assert_nonnull (python);
  link_tool (fixture->bin, "python", python);
  write_project_file (fixture, "unet_hw960_bs1.air");
  write_project_file (fixture, "net_opset18.onnx");
  write_project_file (fixture, "aipp_unet_simple_opencv.cfg");
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
  g_free (fixture->plog_root);
}

/* An environment script that puts the toolkit's bin (or only the system's)
 * first and moves ATC's plog files into the fixture. */
static char *
write_env_script (Fixture    *fixture,
                  const char *name,
                  gboolean    with_toolkit)
{
  g_autofree char *toolkit = g_path_get_dirname (fixture->bin);
  g_autofree char *path = g_build_filename (fixture->tmp, name, NULL);
  g_autofree char *text = g_strdup_printf ("export PATH=%s%s/usr/bin:/bin\n"
                                           "export ASCEND_TOOLKIT_HOME=%s\n"
                                           "export ASCEND_PROCESS_LOG_PATH=%s\n",
                                           with_toolkit ? fixture->bin : "", with_toolkit ? ":" : "",
                                           toolkit, fixture->plog_root);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_steal_pointer (&path);
}

static SlConvertWorkflow *
create_workflow (Fixture            *fixture,
                 const char         *env_script,
                 SlAtcFramework      framework,
                 const char         *model,
                 const char         *output,
                 const char         *aipp)
{
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autoptr(SlAtcCommand) command = sl_atc_command_new ();
  SlConvertWorkflow *workflow;

  sl_atc_command_set_framework (command, framework);
  sl_atc_command_set_model (command, model);
  sl_atc_command_set_output (command, output);
  sl_atc_command_set_soc_version (command, "Ascend310");
  sl_atc_command_set_insert_op_conf (command, aipp);
  workflow = sl_convert_workflow_new (target, fixture->project, command);
  sl_convert_workflow_set_env_script (workflow, env_script);
  sl_convert_workflow_set_store_path (workflow, fixture->store);
  return workflow;
}

static void
print_problems (SlConvertWorkflow *workflow)
{
  GPtrArray *problems = sl_convert_workflow_get_problems (workflow);

  for (guint i = 0; i < problems->len; i++)
    g_test_message ("%s: %s", sl_problem_get_subject (g_ptr_array_index (problems, i)),
                    sl_problem_get_message (g_ptr_array_index (problems, i)));
}

static void
stage_cb (SlConvertWorkflow *workflow,
          GParamSpec        *pspec,
          GArray            *stages)
{
  int stage = sl_convert_workflow_get_stage (workflow);

  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  g_array_append_val (stages, stage);
}

typedef struct {
  GMainLoop *loop;
  gboolean   ok;
  GError    *error;
} Done;

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  Done *done = data;

  done->ok = sl_convert_workflow_run_finish (SL_CONVERT_WORKFLOW (source), result, &done->error);
  g_main_loop_quit (done->loop);
}

/* The walkthrough's conversion: the .om is where the project is, the log
 * is kept here, stages come in order on the main thread, nothing is wrong. */
static void
test_good_conversion (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env.sh", TRUE);
  g_autoptr(SlConvertWorkflow) workflow = create_workflow (fixture, script, SL_ATC_FRAMEWORK_MINDSPORE,
                                                           "unet_hw960_bs1.air", "unet_hw960_bs1",
                                                           "aipp_unet_simple_opencv.cfg");
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GArray) stages = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *expected = g_build_filename (fixture->project, "unet_hw960_bs1.om", NULL);
  g_autofree char *log = NULL;
  Done done = { loop, FALSE, NULL };

  g_signal_connect (workflow, "notify::stage", G_CALLBACK (stage_cb), stages);
  sl_convert_workflow_run_async (workflow, NULL, run_done_cb, &done);
  g_main_loop_run (loop);
  /* The last notification may come after the task's callback. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  print_problems (workflow);
  g_assert_no_error (done.error);
  g_assert_true (done.ok);
  g_assert_true (sl_convert_workflow_succeeded (workflow));
  g_assert_cmpuint (sl_convert_workflow_get_problems (workflow)->len, ==, 0);
  g_assert_cmpint (sl_convert_workflow_get_exit_code (workflow), ==, 0);
  g_assert_cmpstr (sl_convert_workflow_get_output (workflow), ==, expected);
  g_assert_cmpstr (sl_convert_workflow_get_local_output (workflow), ==, expected);
  g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));
  /* The model it read is here, to open beside the .om. */
  {
    g_autofree char *source = sl_convert_workflow_dup_local_source (workflow);
    g_autofree char *model = g_build_filename (fixture->project, "unet_hw960_bs1.air", NULL);

    g_assert_cmpstr (source, ==, model);
  }
  g_assert_true (g_file_get_contents (sl_convert_workflow_get_local_log (workflow), &log, NULL, NULL));
  g_assert_nonnull (strstr (log, "ATC run success"));
  /* A success writes no plog. */
  g_assert_cmpuint (g_strv_length ((GStrv)sl_convert_workflow_get_plogs (workflow)), ==, 0);

  /* The project keeps the model among its outputs. */
  {
    g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (fixture->store, NULL);
    g_autoptr(GPtrArray) outputs = sl_workspace_store_list_project_outputs (store, fixture->project, NULL);
    SlProjectOutputRow *row;

    g_assert_nonnull (outputs);
    g_assert_cmpuint (outputs->len, ==, 1);
    row = g_ptr_array_index (outputs, 0);
    g_assert_cmpstr (row->kind, ==, "om");
    g_assert_cmpstr (row->path, ==, expected);
    g_assert_cmpstr (row->source, ==, "unet_hw960_bs1.air");
    g_assert_cmpint (row->id, >, 0);
  }

  /* Converted again: the same output, refreshed, not a second one. */
  g_assert_true (sl_convert_workflow_run (workflow, NULL, NULL));
  {
    g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (fixture->store, NULL);
    g_autoptr(GPtrArray) outputs = sl_workspace_store_list_project_outputs (store, fixture->project, NULL);

    g_assert_cmpuint (outputs->len, ==, 1);
  }

  /* The second run's stages are not counted. */
  g_assert_cmpuint (stages->len, >=, 4);
  g_assert_cmpint (g_array_index (stages, int, 0), ==, SL_CONVERT_STAGE_PREFLIGHT);
  g_assert_cmpint (g_array_index (stages, int, 1), ==, SL_CONVERT_STAGE_CONVERTING);
  g_assert_cmpint (g_array_index (stages, int, 2), ==, SL_CONVERT_STAGE_PULLING_LOGS);
  g_assert_cmpint (g_array_index (stages, int, 3), ==, SL_CONVERT_STAGE_DONE);
}

/* An ONNX opset ATC cannot read: E19010 with its option, the job log on
 * the target and its copy here at the line ATC printed it, and the plog
 * pulled and named in the hint. */
static void
test_coded_error (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env.sh", TRUE);
  g_autoptr(SlConvertWorkflow) workflow = create_workflow (fixture, script, SL_ATC_FRAMEWORK_ONNX,
                                                           "net_opset18.onnx", "net", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *log = NULL;
  g_autofree char *plog = NULL;
  const char * const *plogs;
  const char * const *local_plogs;
  GPtrArray *problems;
  SlProblem *problem;

  g_assert_true (sl_convert_workflow_run (workflow, NULL, &error));
  g_assert_no_error (error);
  print_problems (workflow);
  g_assert_false (sl_convert_workflow_succeeded (workflow));
  g_assert_null (sl_convert_workflow_get_output (workflow));
  g_assert_cmpint (sl_convert_workflow_get_exit_code (workflow), ==, 1);

  problems = sl_convert_workflow_get_problems (workflow);
  g_assert_cmpuint (problems->len, ==, 1);
  problem = g_ptr_array_index (problems, 0);
  g_assert_cmpstr (sl_problem_get_code (problem), ==, "E19010");
  g_assert_cmpstr (sl_problem_get_subject (problem), ==, "--model");
  g_assert_cmpstr (sl_problem_get_message (problem), ==, "No parser is registered for Op [Conv_0, optype [ai.onnx::18::Conv]].");
  g_assert_cmpstr (sl_problem_get_path (problem), ==, sl_convert_workflow_get_log_path (workflow));
  g_assert_cmpstr (sl_problem_get_local_copy (problem), ==, sl_convert_workflow_get_local_log (workflow));
  /* ATC's own Solution: line is the hint. */
  g_assert_true (g_str_has_prefix (sl_problem_get_hint (problem), "Check the version of the installation package"));

  /* The line is the one ATC printed the code on, in the local copy too. */
  g_assert_true (g_file_get_contents (sl_problem_get_local_copy (problem), &log, NULL, NULL));
  lines = g_strsplit (log, "\n", -1);
  g_assert_cmpuint (sl_problem_get_line (problem), >=, 1);
  g_assert_cmpuint (sl_problem_get_line (problem), <=, g_strv_length (lines));
  g_assert_true (g_str_has_prefix (lines[sl_problem_get_line (problem) - 1], "E19010: "));

  plogs = sl_convert_workflow_get_plogs (workflow);
  local_plogs = sl_convert_workflow_get_local_plogs (workflow);
  g_assert_cmpuint (g_strv_length ((GStrv)plogs), ==, 1);
  g_assert_true (g_str_has_prefix (plogs[0], fixture->plog_root));
  g_assert_cmpstr (local_plogs[0], !=, "");
  g_assert_cmpstr (local_plogs[0], !=, plogs[0]);
  g_assert_true (g_file_get_contents (local_plogs[0], &plog, NULL, NULL));
  g_assert_nonnull (strstr (plog, "E19010"));
  g_assert_nonnull (strstr (sl_problem_get_hint (problem), plogs[0]));
  g_assert_nonnull (strstr (sl_problem_get_hint (problem), local_plogs[0]));
}

/* The preflight names every missing thing at once, and nothing runs:
 * atc not found once the script is sourced, the model and the AIPP file
 * not in the project. */
static void
test_preflight_stops_before_the_job (Fixture       *fixture,
                                     gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env_without_atc.sh", FALSE);
  g_autoptr(SlConvertWorkflow) workflow = create_workflow (fixture, script, SL_ATC_FRAMEWORK_MINDSPORE,
                                                           "models/missing.air", "out", "missing_aipp.cfg");
  g_autofree char *om = g_build_filename (fixture->project, "out.om", NULL);
  GPtrArray *problems;
  gboolean tool = FALSE, model = FALSE, aipp = FALSE;

  g_assert_true (sl_convert_workflow_run (workflow, NULL, NULL));
  print_problems (workflow);
  g_assert_false (sl_convert_workflow_succeeded (workflow));
  g_assert_null (sl_convert_workflow_get_log_path (workflow));
  g_assert_cmpint (sl_convert_workflow_get_exit_code (workflow), ==, -1);
  g_assert_false (g_file_test (om, G_FILE_TEST_EXISTS));

  problems = sl_convert_workflow_get_problems (workflow);
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      g_assert_nonnull (sl_problem_get_hint (problem));
      tool = tool || g_strcmp0 (sl_problem_get_subject (problem), "atc") == 0;
      model = model || g_strcmp0 (sl_problem_get_subject (problem), "--model") == 0;
      aipp = aipp || g_strcmp0 (sl_problem_get_subject (problem), "--insert_op_conf") == 0;
    }
  g_assert_true (tool);
  g_assert_true (model);
  g_assert_true (aipp);
}

/* An absolute AIPP path is looked for on the target. */
static void
test_absolute_input_checked_on_target (Fixture       *fixture,
                                       gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env.sh", TRUE);
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autoptr(SlAtcCommand) command = sl_atc_command_new ();
  g_autoptr(SlConvertWorkflow) workflow = NULL;
  g_autofree char *aipp = g_build_filename (fixture->tmp, "elsewhere", "aipp.cfg", NULL);
  GPtrArray *problems;
  SlProblem *problem;

  sl_atc_command_set_framework (command, SL_ATC_FRAMEWORK_MINDSPORE);
  sl_atc_command_set_model (command, "unet_hw960_bs1.air");
  sl_atc_command_set_output (command, "unet");
  sl_atc_command_set_soc_version (command, "Ascend310");
  sl_atc_command_set_insert_op_conf (command, aipp);
  workflow = sl_convert_workflow_new (target, fixture->project, command);
  sl_convert_workflow_set_env_script (workflow, script);
  sl_convert_workflow_set_store_path (workflow, fixture->store);

  g_assert_true (sl_convert_workflow_run (workflow, NULL, NULL));
  print_problems (workflow);
  problems = sl_convert_workflow_get_problems (workflow);
  g_assert_cmpuint (problems->len, ==, 1);
  problem = g_ptr_array_index (problems, 0);
  g_assert_cmpstr (sl_problem_get_subject (problem), ==, "--insert_op_conf");
  g_assert_nonnull (strstr (sl_problem_get_message (problem), aipp));
  g_assert_null (sl_convert_workflow_get_log_path (workflow));
}

/* Fields ATC would refuse are problems with their options; nothing runs. */
static void
test_bad_fields_are_problems (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env.sh", TRUE);
  g_autoptr(SlConvertWorkflow) workflow = create_workflow (fixture, script, SL_ATC_FRAMEWORK_CAFFE,
                                                           "x.prototxt", "a;b", NULL);
  GPtrArray *problems;
  gboolean output = FALSE, weight = FALSE;

  g_assert_true (sl_convert_workflow_run (workflow, NULL, NULL));
  problems = sl_convert_workflow_get_problems (workflow);
  for (guint i = 0; i < problems->len; i++)
    {
      output = output || g_strcmp0 (sl_problem_get_subject (g_ptr_array_index (problems, i)), "--output") == 0;
      weight = weight || g_strcmp0 (sl_problem_get_subject (g_ptr_array_index (problems, i)), "--weight") == 0;
    }
  g_assert_true (output);
  g_assert_true (weight);
  g_assert_null (sl_convert_workflow_get_log_path (workflow));
  g_assert_cmpint (sl_convert_workflow_get_stage (workflow), ==, SL_CONVERT_STAGE_DONE);
  g_assert_null (sl_convert_workflow_dup_dry_run (workflow, NULL));
}

static gboolean
cancel_when_converting (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
cancel_on_stage_cb (SlConvertWorkflow *workflow,
                    GParamSpec        *pspec,
                    GCancellable      *cancellable)
{
  /* A moment into the job, so its stop is what ends it. */
  if (sl_convert_workflow_get_stage (workflow) == SL_CONVERT_STAGE_CONVERTING)
    g_timeout_add (500, cancel_when_converting, cancellable);
}

/* A conversion stopped halfway ends cancelled, without an .om, well
 * before ATC would have finished. */
static void
test_cancel_stops_the_job (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *script = write_env_script (fixture, "set_env_slow.sh", TRUE);
  g_autoptr(SlConvertWorkflow) workflow = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autofree char *om = g_build_filename (fixture->project, "unet.om", NULL);
  g_autofree char *text = NULL;
  Done done = { loop, TRUE, NULL };
  gint64 start;

  g_assert_true (g_file_get_contents (script, &text, NULL, NULL));
  {
    g_autofree char *slow = g_strconcat (text, "export SL_STUB_ATC_SECONDS=30\n", NULL);

    g_assert_true (g_file_set_contents (script, slow, -1, NULL));
  }
  workflow = create_workflow (fixture, script, SL_ATC_FRAMEWORK_MINDSPORE, "unet_hw960_bs1.air", "unet", NULL);
  g_signal_connect (workflow, "notify::stage", G_CALLBACK (cancel_on_stage_cb), cancellable);
  start = g_get_monotonic_time ();
  sl_convert_workflow_run_async (workflow, cancellable, run_done_cb, &done);
  g_main_loop_run (loop);

  g_assert_false (done.ok);
  g_assert_error (done.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&done.error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 25 * G_USEC_PER_SEC);
  g_assert_false (sl_convert_workflow_succeeded (workflow));
  g_assert_false (g_file_test (om, G_FILE_TEST_EXISTS));
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *home = g_dir_make_tmp ("sl-convert-workflow-home-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (home, "cache", NULL);
  g_autofree char *data = g_build_filename (home, "data", NULL);
  int status;

  /* Before anything asks GLib for the user folders. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/convert-workflow/good", Fixture, NULL, fixture_set_up, test_good_conversion, fixture_tear_down);
  g_test_add ("/convert-workflow/coded-error", Fixture, NULL, fixture_set_up, test_coded_error, fixture_tear_down);
  g_test_add ("/convert-workflow/preflight", Fixture, NULL, fixture_set_up,
              test_preflight_stops_before_the_job, fixture_tear_down);
  g_test_add ("/convert-workflow/absolute-input", Fixture, NULL, fixture_set_up,
              test_absolute_input_checked_on_target, fixture_tear_down);
  g_test_add ("/convert-workflow/bad-fields", Fixture, NULL, fixture_set_up,
              test_bad_fields_are_problems, fixture_tear_down);
  g_test_add ("/convert-workflow/cancel", Fixture, NULL, fixture_set_up, test_cancel_stops_the_job, fixture_tear_down);
  status = g_test_run ();
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", home);

    g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  }
  return status;
}
