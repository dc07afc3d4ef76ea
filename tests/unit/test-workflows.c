/* test-workflows.c: the commands, checks and log parsers of the target workflows
 *
 * msprof and ATC command lines with every option and hostile paths; the
 * ATC log parser on a log shaped as ATC prints it (coded errors with
 * continuation lines, a failure without a code, a killed run); the MindX
 * environment run through a real /bin/sh; StreamManager codes; the
 * preflight script run through /bin/sh with stand-in tools, and its
 * parser on npu-smi tables.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-atc-command.h"
#include "sl-atc-log.h"
#include "sl-mindx-env.h"
#include "sl-mindx-errors.h"
#include "sl-msprof-command.h"
#include "sl-problem.h"
#include "sl-workflow-preflight.h"

static char *
join (GStrv argv)
{
  return g_strjoinv (" ", argv);
}

static SlMsprofCommand *
new_profile (const char * const *program)
{
  SlMsprofCommand *command = sl_msprof_command_new ();

  sl_msprof_command_set_program (command, program);
  sl_msprof_command_set_output (command, "/data/out");
  return command;
}

static void
test_msprof_every_option (void)
{
  const char * const program[] = { "python3", "main.py", "--pipeline", "a.pipeline", NULL };
  g_autoptr(SlMsprofCommand) command = new_profile (program);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_autofree char *text = NULL;

  sl_msprof_command_set_switch (command, SL_MSPROF_TASK_TIME, 1);
  sl_msprof_command_set_switch (command, SL_MSPROF_ASCENDCL, 1);
  sl_msprof_command_set_switch (command, SL_MSPROF_RUNTIME_API, 0);
  sl_msprof_command_set_switch (command, SL_MSPROF_HCCL, 1);
  sl_msprof_command_set_switch (command, SL_MSPROF_AICPU, 1);
  sl_msprof_command_set_aic_metrics (command, "MemoryUB");
  sl_msprof_command_set_aic_mode (command, "sample-based");
  sl_msprof_command_set_aic_freq (command, 50);
  sl_msprof_command_set_sampler (command, SL_MSPROF_SYS_HARDWARE_MEM, 50);
  sl_msprof_command_set_sampler (command, SL_MSPROF_SYS_CPU, 20);
  sl_msprof_command_set_host_sys (command, "cpu,mem");

  argv = sl_msprof_command_dup_argv (command, &error);
  g_assert_no_error (error);
  text = join (argv);
  g_assert_cmpstr (text, ==,
                   "msprof --output=/data/out --task-time=on --ai-core=on --aicpu=on --ascendcl=on "
                   "--runtime-api=off --hccl=on --aic-mode=sample-based --aic-freq=50 --aic-metrics=MemoryUB "
                   "--sys-hardware-mem=on --sys-hardware-mem-freq=50 --sys-cpu-profiling=on --sys-cpu-freq=20 "
                   "--host-sys=cpu,mem python3 main.py --pipeline a.pipeline");
}

static void
test_msprof_defaults_left_out (void)
{
  const char * const program[] = { "./app", NULL };
  g_autoptr(SlMsprofCommand) command = new_profile (program);
  g_auto(GStrv) argv = sl_msprof_command_dup_argv (command, NULL);
  g_autofree char *text = join (argv);

  g_assert_cmpstr (text, ==, "msprof --output=/data/out ./app");
}

static void
test_msprof_refusals (void)
{
  static const char * const hostile[] = {
    "/data/o'ut", "/data/o\"ut", "/data/$HOME", "/data/a;b", "/data/a|b", "/data/a&b", "/data/`id`", "/data/a\nb",
  };

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      const char * const program[] = { "./app", NULL };
      const char * const bad_program[] = { hostile[i], NULL };
      const char * const bad_arg[] = { "./app", hostile[i], NULL };
      g_autoptr(SlMsprofCommand) command = new_profile (program);
      g_autoptr(SlMsprofCommand) command2 = new_profile (bad_program);
      g_autoptr(SlMsprofCommand) command3 = new_profile (bad_arg);
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = NULL;

      sl_msprof_command_set_output (command, hostile[i]);
      argv = sl_msprof_command_dup_argv (command, &error);
      g_assert_null (argv);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "output folder"));
      g_assert_false (sl_msprof_command_validate (command2, NULL));
      g_assert_false (sl_msprof_command_validate (command3, NULL));
    }
}

static void
test_msprof_bad_values (void)
{
  const char * const program[] = { "./app", NULL };
  g_autoptr(SlMsprofCommand) command = new_profile (program);
  g_autoptr(SlMsprofCommand) empty = sl_msprof_command_new ();
  g_autoptr(GError) error = NULL;
  int state = -1;

  sl_msprof_command_set_aic_metrics (command, "Everything");
  g_assert_false (sl_msprof_command_validate (command, &error));
  g_assert_nonnull (strstr (error->message, "Everything"));
  g_clear_error (&error);

  sl_msprof_command_set_aic_metrics (command, "PipeUtilization");
  sl_msprof_command_set_sampler (command, SL_MSPROF_SYS_CPU, 51);
  g_assert_false (sl_msprof_command_validate (command, &error));
  g_assert_nonnull (strstr (error->message, "--sys-cpu-freq"));
  g_clear_error (&error);

  sl_msprof_command_set_sampler (command, SL_MSPROF_SYS_CPU, 0);
  sl_msprof_command_set_aic_freq (command, 10);
  g_assert_false (sl_msprof_command_validate (command, &error));
  g_clear_error (&error);
  sl_msprof_command_set_aic_freq (command, 0);
  sl_msprof_command_set_host_sys (command, "cpu,gpu");
  g_assert_false (sl_msprof_command_validate (command, &error));
  g_assert_nonnull (strstr (error->message, "gpu"));
  g_clear_error (&error);
  sl_msprof_command_set_host_sys (command, NULL);
  g_assert_true (sl_msprof_command_validate (command, NULL));

  g_assert_false (sl_msprof_command_validate (empty, &error));
  g_assert_nonnull (strstr (error->message, "program"));

  g_assert_true (sl_msprof_parse_switch_value ("on", &state) && state == 1);
  g_assert_true (sl_msprof_parse_switch_value ("off", &state) && state == 0);
  g_assert_false (sl_msprof_parse_switch_value ("yes", &state));
}

static void
test_msprof_export (void)
{
  g_auto(GStrv) argv = sl_msprof_dup_export_argv ("/data/out/PROF_000001_x");
  g_autofree char *text = join (argv);

  g_assert_cmpstr (text, ==, "msprof --export=on --output=/data/out/PROF_000001_x");
}

static void
test_framework_profilers (void)
{
  const char * const ms_program[] = { "python3", "train.py", NULL };
  const char * const pt_program[] = { "python3", "train.py", "--epochs", "1", NULL };
  g_autoptr(SlMsprofCommand) ms = new_profile (ms_program);
  g_autoptr(SlMsprofCommand) pt = new_profile (pt_program);
  g_autoptr(SlMsprofCommand) not_python = NULL;
  g_auto(GStrv) ms_argv = NULL;
  g_auto(GStrv) ms_env = NULL;
  g_auto(GStrv) pt_argv = NULL;
  g_auto(GStrv) pt_env = NULL;
  g_autofree char *ms_text = NULL;
  const char * const binary[] = { "./app", NULL };

  sl_msprof_command_set_kind (ms, SL_PROFILER_MINDSPORE);
  sl_msprof_command_set_switch (ms, SL_MSPROF_HCCL, 1);
  sl_msprof_command_set_aic_metrics (ms, "Memory");
  ms_argv = sl_msprof_command_dup_argv (ms, NULL);
  ms_text = join (ms_argv);
  g_assert_cmpstr (ms_text, ==, "python3 train.py");
  ms_env = sl_msprof_command_dup_environment (ms);
  g_assert_cmpuint (g_strv_length (ms_env), ==, 1);
  g_assert_cmpstr (ms_env[0], ==,
                   "MS_PROFILER_OPTIONS={\"start\": true, \"output_path\": \"/data/out\", "
                   "\"profile_communication\": true, \"aicore_metrics\": 2, \"l2_cache\": false}");

  sl_msprof_command_set_kind (pt, SL_PROFILER_TORCH_NPU);
  pt_argv = sl_msprof_command_dup_argv (pt, NULL);
  g_assert_cmpuint (g_strv_length (pt_argv), ==, 6);
  g_assert_cmpstr (pt_argv[0], ==, "python3");
  g_assert_cmpstr (pt_argv[1], ==, "-c");
  g_assert_nonnull (strstr (pt_argv[2], "tensorboard_trace_handler('/data/out')"));
  g_assert_nonnull (strstr (pt_argv[2], "AiCMetrics.PipeUtilization"));
  g_assert_cmpstr (pt_argv[3], ==, "train.py");
  g_assert_cmpstr (pt_argv[5], ==, "1");
  pt_env = sl_msprof_command_dup_environment (pt);
  g_assert_cmpuint (g_strv_length (pt_env), ==, 0);

  not_python = new_profile (binary);
  sl_msprof_command_set_kind (not_python, SL_PROFILER_TORCH_NPU);
  g_assert_false (sl_msprof_command_validate (not_python, NULL));
  sl_msprof_command_set_kind (not_python, SL_PROFILER_MINDSPORE);
  sl_msprof_command_set_sampler (not_python, SL_MSPROF_SYS_IO, 10);
  g_assert_false (sl_msprof_command_validate (not_python, NULL));
}

/* ATC */

static SlAtcCommand *
new_walkthrough_conversion (void)
{
  SlAtcCommand *command = sl_atc_command_new ();

  sl_atc_command_set_framework (command, SL_ATC_FRAMEWORK_MINDSPORE);
  sl_atc_command_set_model (command, "unet_hw960_bs1.air");
  sl_atc_command_set_output (command, "unet_hw960_bs1");
  sl_atc_command_set_input_format (command, "NCHW");
  sl_atc_command_set_soc_version (command, "Ascend310");
  sl_atc_command_set_log_level (command, "error");
  sl_atc_command_set_insert_op_conf (command, "aipp_unet_simple_opencv.cfg");
  return command;
}

static const char *
first_error_option (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    if (sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR)
      return sl_problem_get_subject (g_ptr_array_index (problems, i));
  return NULL;
}

static void
test_atc_walkthrough (void)
{
  g_autoptr(SlAtcCommand) command = new_walkthrough_conversion ();
  g_autoptr(GPtrArray) problems = sl_atc_command_validate (command);
  g_auto(GStrv) argv = sl_atc_command_dup_argv (command, NULL);
  g_autofree char *text = join (argv);
  g_autofree char *om = sl_atc_command_dup_om_path (command);

  g_assert_cmpuint (problems->len, ==, 0);
  g_assert_cmpstr (text, ==, "atc --framework=1 --model=unet_hw960_bs1.air --output=unet_hw960_bs1 "
                   "--input_format=NCHW --soc_version=Ascend310 --insert_op_conf=aipp_unet_simple_opencv.cfg --log=error");
  g_assert_cmpstr (om, ==, "unet_hw960_bs1.om");
}

static void
test_atc_fields (void)
{
  struct { const char *field; const char *value; const char *option; } cases[] = {
    { "framework", NULL, "--framework" },
    { "model", "", "--model" },
    { "model", "net's.air", "--model" },
    { "weight", "x.caffemodel", "--weight" },
    { "output", "", "--output" },
    { "output", "out/", "--output" },
    { "output", "a;b", "--output" },
    { "input_format", "NHWC", "--input_format" },
    { "input_shape", "input", "--input_shape" },
    { "input_shape", "input:1,3,x,224", "--input_shape" },
    { "input_shape", "input:1,3,224,224;$(id):1", "--input_shape" },
    { "soc_version", "", "--soc_version" },
    { "soc_version", "Ascend", "--soc_version" },
    { "soc_version", "310P3", "--soc_version" },
    { "insert_op_conf", "a|b.cfg", "--insert_op_conf" },
    { "precision_mode", "fp8", "--precision_mode" },
    { "log", "verbose", "--log" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SlAtcCommand) command = new_walkthrough_conversion ();
      g_autoptr(GPtrArray) problems = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = NULL;
      const char *field = cases[i].field;
      const char *value = cases[i].value;

      if (g_str_equal (field, "framework"))
        sl_atc_command_set_framework (command, SL_ATC_FRAMEWORK_NONE);
      else if (g_str_equal (field, "model"))
        sl_atc_command_set_model (command, value);
      else if (g_str_equal (field, "weight"))
        sl_atc_command_set_weight (command, value);
      else if (g_str_equal (field, "output"))
        sl_atc_command_set_output (command, value);
      else if (g_str_equal (field, "input_format"))
        sl_atc_command_set_input_format (command, value);
      else if (g_str_equal (field, "input_shape"))
        sl_atc_command_set_input_shape (command, value);
      else if (g_str_equal (field, "soc_version"))
        sl_atc_command_set_soc_version (command, value);
      else if (g_str_equal (field, "insert_op_conf"))
        sl_atc_command_set_insert_op_conf (command, value);
      else if (g_str_equal (field, "precision_mode"))
        sl_atc_command_set_precision_mode (command, value);
      else
        sl_atc_command_set_log_level (command, value);

      problems = sl_atc_command_validate (command);
      g_assert_cmpstr (first_error_option (problems), ==, cases[i].option);
      argv = sl_atc_command_dup_argv (command, &error);
      g_assert_null (argv);
      g_assert_true (g_str_has_prefix (error->message, cases[i].option));
    }
}

static void
test_atc_caffe_and_shapes (void)
{
  g_autoptr(SlAtcCommand) caffe = sl_atc_command_new ();
  g_autoptr(GPtrArray) problems = NULL;
  g_auto(GStrv) argv = NULL;
  g_autofree char *text = NULL;
  SlAtcFramework framework = SL_ATC_FRAMEWORK_NONE;

  sl_atc_command_set_framework (caffe, SL_ATC_FRAMEWORK_CAFFE);
  sl_atc_command_set_model (caffe, "resnet50.prototxt");
  sl_atc_command_set_output (caffe, "resnet50");
  sl_atc_command_set_soc_version (caffe, "Ascend310P3");
  problems = sl_atc_command_validate (caffe);
  g_assert_cmpstr (first_error_option (problems), ==, "--weight");
  g_clear_pointer (&problems, g_ptr_array_unref);

  sl_atc_command_set_weight (caffe, "resnet50.caffemodel");
  sl_atc_command_set_input_shape (caffe, "data:1,3,224,224;im_info:-1,3;x:0:1~8,3");
  sl_atc_command_set_precision_mode (caffe, "allow_mix_precision");
  problems = sl_atc_command_validate (caffe);
  g_assert_cmpuint (problems->len, ==, 0);
  argv = sl_atc_command_dup_argv (caffe, NULL);
  text = join (argv);
  g_assert_cmpstr (text, ==, "atc --framework=0 --model=resnet50.prototxt --weight=resnet50.caffemodel "
                   "--output=resnet50 --input_shape=data:1,3,224,224;im_info:-1,3;x:0:1~8,3 "
                   "--soc_version=Ascend310P3 --precision_mode=allow_mix_precision");

  /* A wrong suffix is only a warning. */
  sl_atc_command_set_model (caffe, "resnet50.onnx");
  g_clear_pointer (&problems, g_ptr_array_unref);
  problems = sl_atc_command_validate (caffe);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpint (sl_problem_get_severity (g_ptr_array_index (problems, 0)), ==, SL_SEVERITY_WARNING);

  g_assert_true (sl_atc_framework_from_name ("onnx", &framework) && framework == SL_ATC_FRAMEWORK_ONNX);
  g_assert_true (sl_atc_framework_from_name ("TensorFlow", &framework) && framework == SL_ATC_FRAMEWORK_TENSORFLOW);
  g_assert_true (sl_atc_framework_from_name ("0", &framework) && framework == SL_ATC_FRAMEWORK_CAFFE);
  g_assert_false (sl_atc_framework_from_name ("2", &framework));
  g_assert_false (sl_atc_framework_from_name ("pytorch", &framework));
}

static const char atc_failed_log[] =
  "ATC start working now, please wait for a moment.\n"
  "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n"
  "E10007: [--framework] is required. The value must be [0(Caffe) or 1(MindSpore) or 3(TensorFlow) or 5(Onnx)].\n"
  "E19010: No parser is registered for Op [Conv_0, optype [ai.onnx::18::Conv]].\n"
  "        Solution: Check the version of the installation package and reinstall the package.\n"
  "        TraceBack (most recent call last):\n"
  "        Failed to parse the model.\n"
  "EZ3003: No supported Ops kernel and engine are found for [GridSample], optype [GridSample].\n"
  "        Possible Cause: The operator is not supported by the system.\n"
  "E10001: Value [1,3,x] for parameter [input_shape] is invalid.\n"
  "EC0010: Failed to import Python module [No module named 'tbe'].\n"
  "EX9999: Something new.\n";

static void
test_atc_log (void)
{
  SlAtcOutcome outcome = SL_ATC_OUTCOME_UNKNOWN;
  g_autoptr(GPtrArray) problems = sl_atc_log_parse (atc_failed_log, strlen (atc_failed_log),
                                                    "/srv/job/log", 1, &outcome);
  const char *plogs[] = { "/home/u/ascend/log/debug/plog/plog-123_1.log", NULL };
  const char *copies[] = { "/cache/plog-123_1.log", NULL };
  SlProblem *p;

  g_assert_cmpint (outcome, ==, SL_ATC_OUTCOME_FAILED);
  g_assert_cmpuint (problems->len, ==, 6);

  p = g_ptr_array_index (problems, 0);
  g_assert_cmpstr (sl_problem_get_code (p), ==, "E10007");
  g_assert_cmpstr (sl_problem_get_subject (p), ==, "--framework");
  g_assert_cmpstr (sl_problem_get_path (p), ==, "/srv/job/log");
  g_assert_cmpuint (sl_problem_get_line (p), ==, 3);
  g_assert_true (g_str_has_prefix (sl_problem_get_message (p), "[--framework] is required."));
  g_assert_nonnull (strstr (sl_problem_get_hint (p), "Add the option"));

  p = g_ptr_array_index (problems, 1);
  g_assert_cmpstr (sl_problem_get_code (p), ==, "E19010");
  g_assert_cmpstr (sl_problem_get_subject (p), ==, "--model");
  g_assert_cmpuint (sl_problem_get_line (p), ==, 4);
  /* ATC's own solution wins over ours; the traceback is not the message. */
  g_assert_cmpstr (sl_problem_get_hint (p), ==, "Check the version of the installation package and reinstall the package.");
  g_assert_null (strstr (sl_problem_get_message (p), "TraceBack"));

  p = g_ptr_array_index (problems, 2);
  g_assert_cmpstr (sl_problem_get_code (p), ==, "EZ3003");
  g_assert_cmpstr (sl_problem_get_subject (p), ==, "--soc_version");
  g_assert_nonnull (strstr (sl_problem_get_message (p), "Possible Cause: The operator is not supported"));

  p = g_ptr_array_index (problems, 3);
  g_assert_cmpstr (sl_problem_get_code (p), ==, "E10001");
  g_assert_cmpstr (sl_problem_get_subject (p), ==, "--input_shape");

  p = g_ptr_array_index (problems, 4);
  g_assert_cmpstr (sl_problem_get_code (p), ==, "EC0010");
  g_assert_nonnull (strstr (sl_problem_get_hint (p), "Python"));

  p = g_ptr_array_index (problems, 5);
  g_assert_cmpstr (sl_problem_get_code (p), ==, "EX9999");
  g_assert_nonnull (strstr (sl_problem_get_hint (p), "Look up EX9999"));

  sl_atc_log_add_plogs (problems, plogs, copies);
  g_assert_nonnull (strstr (sl_problem_get_hint (g_ptr_array_index (problems, 0)),
                            "/home/u/ascend/log/debug/plog/plog-123_1.log (copied to /cache/plog-123_1.log)"));
}

static void
test_atc_log_outcomes (void)
{
  static const char success[] = "ATC start working now, please wait for a moment.\r\nATC run success, welcome to the next use.\r\n";
  static const char no_code[] = "ATC start working now, please wait for a moment.\nATC run failed, Please check the detail log\n";
  static const char killed[] = "ATC start working now, please wait for a moment.\n";
  static const char damaged[] = "E1000\nE10007\nE1000X: x\n\xff\xfe E1\n";
  SlAtcOutcome outcome;
  g_autoptr(GPtrArray) a = sl_atc_log_parse (success, strlen (success), "log", 0, &outcome);
  g_autoptr(GPtrArray) b = NULL;
  g_autoptr(GPtrArray) c = NULL;
  g_autoptr(GPtrArray) d = NULL;
  g_autoptr(GPtrArray) e = NULL;

  g_assert_cmpint (outcome, ==, SL_ATC_OUTCOME_SUCCESS);
  g_assert_cmpuint (a->len, ==, 0);

  b = sl_atc_log_parse (no_code, strlen (no_code), "log", 255, &outcome);
  g_assert_cmpint (outcome, ==, SL_ATC_OUTCOME_FAILED);
  g_assert_cmpuint (b->len, ==, 1);
  g_assert_cmpuint (sl_problem_get_line (g_ptr_array_index (b, 0)), ==, 2);

  c = sl_atc_log_parse (killed, strlen (killed), "log", 137, &outcome);
  g_assert_cmpint (outcome, ==, SL_ATC_OUTCOME_UNKNOWN);
  g_assert_cmpuint (c->len, ==, 1);
  g_assert_nonnull (strstr (sl_problem_get_message (g_ptr_array_index (c, 0)), "137"));

  d = sl_atc_log_parse ("", 0, "log", 127, &outcome);
  g_assert_cmpuint (d->len, ==, 1);
  g_assert_nonnull (strstr (sl_problem_get_hint (g_ptr_array_index (d, 0)), "set_env.sh"));

  /* Truncated codes are not codes; damage does not stop the parse. */
  e = sl_atc_log_parse (damaged, sizeof damaged - 1, "log", 0, &outcome);
  g_assert_cmpuint (e->len, ==, 0);
}

/* MindX */

static void
test_mindx_env_through_shell (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *setup = sl_mindx_dup_env_setup ("/opt/mx sdk", NULL, &error);
  g_autofree char *script = NULL;
  g_autofree char *out = NULL;
  int status = -1;
  const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "LD_LIBRARY_PATH", "/old", TRUE);
  g_auto(GStrv) app = NULL;

  g_assert_no_error (error);
  env = g_environ_unsetenv (env, "PYTHONPATH");
  script = g_strconcat (setup, "printf '%s\\n' \"$MX_SDK_HOME\" \"$LD_LIBRARY_PATH\" \"$GST_PLUGIN_SCANNER\" "
                        "\"$GST_PLUGIN_PATH\" \"$PYTHONPATH\"", NULL);
  argv[2] = script;
  g_assert_true (g_spawn_sync (NULL, (char **)argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==,
                   "/opt/mx sdk\n"
                   "/opt/mx sdk/lib:/opt/mx sdk/opensource/lib:/opt/mx sdk/opensource/lib64:"
                   "/usr/local/Ascend/ascend-toolkit/latest/acllib/lib64:/old\n"
                   "/opt/mx sdk/opensource/libexec/gstreamer-1.0/gst-plugin-scanner\n"
                   "/opt/mx sdk/opensource/lib/gstreamer-1.0:/opt/mx sdk/lib/plugins\n"
                   "/opt/mx sdk/python\n");

  g_assert_null (sl_mindx_dup_env_setup ("/opt/$(id)", NULL, NULL));
  g_assert_null (sl_mindx_dup_env_setup ("", NULL, NULL));

  app = sl_mindx_dup_argv ("main.py", (const char *[]) { "--pipeline", "x.pipeline", NULL }, NULL);
  g_assert_cmpstr (app[0], ==, "python3");
  g_assert_cmpstr (app[1], ==, "main.py");
  g_assert_cmpstr (app[3], ==, "x.pipeline");
  g_assert_null (sl_mindx_dup_argv ("main.py", (const char *[]) { "a;b", NULL }, NULL));
}

static void
test_mindx_errors (void)
{
  static const char log[] =
    "Begin to initialize Log.\n"
    "E1202 10:01:02.123 stream_manager.cpp:120] Failed to create Stream. (Code = 6005, Message = \"stream invalid config\")\n"
    "Failed to create Stream, ret=6014\n"
    "processed 1000 images, ret = 0, took 6005 ms\n"
    "GetResult error. errorCode=1016\n";
  g_autoptr(GPtrArray) problems = sl_mindx_log_parse (log, strlen (log), "/srv/app/log");
  const char *hint = NULL;

  g_assert_cmpuint (problems->len, ==, 3);
  g_assert_cmpstr (sl_problem_get_code (g_ptr_array_index (problems, 0)), ==, "6005");
  g_assert_cmpuint (sl_problem_get_line (g_ptr_array_index (problems, 0)), ==, 2);
  g_assert_true (g_str_has_prefix (sl_problem_get_message (g_ptr_array_index (problems, 0)),
                                   "The stream’s configuration is invalid: "));
  g_assert_cmpstr (sl_problem_get_code (g_ptr_array_index (problems, 1)), ==, "6014");
  g_assert_cmpuint (sl_problem_get_line (g_ptr_array_index (problems, 1)), ==, 3);
  g_assert_cmpstr (sl_problem_get_code (g_ptr_array_index (problems, 2)), ==, "1016");
  g_assert_cmpstr (sl_problem_get_path (g_ptr_array_index (problems, 2)), ==, "/srv/app/log");

  g_assert_nonnull (sl_mindx_error_explain (6002, &hint));
  g_assert_nonnull (hint);
  g_assert_null (sl_mindx_error_explain (6999, NULL));
}

/* Preflight */

static const char npu_smi_busy[] =
  "+------------------------------------------------------------------------------------------------+\n"
  "| npu-smi 23.0.rc2                 Version: 23.0.rc2                                             |\n"
  "+---------------------------+---------------+----------------------------------------------------+\n"
  "| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n"
  "| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |\n"
  "+===========================+===============+====================================================+\n"
  "| 0     910B1               | OK            | 93.3        40                0    / 0             |\n"
  "| 0                         | 0000:C1:00.0  | 0           0    / 0          3381 / 65536         |\n"
  "+===========================+===============+====================================================+\n"
  "| 1     910B1               | Warning       | 93.3        40                0    / 0             |\n"
  "| 0                         | 0000:C2:00.0  | 0           0    / 0          3381 / 65536         |\n"
  "+===========================+===============+====================================================+\n"
  "| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |\n"
  "+===========================+===============+====================================================+\n"
  "| 0       0                 | 4242          | python                   | 3000                    |\n"
  "| No running processes found in NPU 1                                                            |\n"
  "+===========================+===============+====================================================+\n";

static char *
prefixed (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_string_append_printf (out, "sl-npu %s\n", lines[i]);
  return g_string_free (out, FALSE);
}

static guint
count_subject (GPtrArray  *problems,
               const char *subject,
               SlSeverity  severity)
{
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      if (g_strcmp0 (sl_problem_get_subject (problem), subject) == 0 && sl_problem_get_severity (problem) == severity)
        n++;
    }
  return n;
}

static void
test_preflight_parse (void)
{
  SlPreflightSpec spec = { "msprof", "/usr/local/Ascend/ascend-toolkit/set_env.sh", "/data/out", 1024 * 1024, 0, TRUE };
  g_autofree char *npu = prefixed (npu_smi_busy);
  g_autofree char *good = g_strdup_printf ("sl-preflight env-script ok\nsl-preflight tool /usr/bin/msprof\n"
                                           "sl-preflight toolkit /usr/local/Ascend\nsl-preflight python 3.9.2\n"
                                           "sl-preflight free 99999999\n%ssl-preflight npu-smi 0\n", npu);
  g_autofree char *bad = g_strdup_printf ("sl-preflight env-script missing\nsl-preflight tool-missing\n"
                                          "sl-preflight toolkit \nsl-preflight python 2.7.18\n"
                                          "sl-preflight free 1000\n%ssl-preflight npu-smi 0\n", npu);
  g_autoptr(GPtrArray) ok = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) device1 = NULL;
  g_autoptr(GPtrArray) device7 = NULL;
  g_autoptr(GPtrArray) nothing = NULL;

  ok = sl_preflight_parse (&spec, good);
  /* Device 0 is held by python 4242. */
  g_assert_cmpuint (ok->len, ==, 1);
  g_assert_nonnull (strstr (sl_problem_get_message (g_ptr_array_index (ok, 0)), "4242 (python)"));

  problems = sl_preflight_parse (&spec, bad);
  g_assert_cmpuint (count_subject (problems, "env-script", SL_SEVERITY_ERROR), ==, 1);
  g_assert_cmpuint (count_subject (problems, "msprof", SL_SEVERITY_ERROR), ==, 1);
  g_assert_cmpuint (count_subject (problems, "python", SL_SEVERITY_ERROR), ==, 1);
  g_assert_cmpuint (count_subject (problems, "disk", SL_SEVERITY_ERROR), ==, 1);
  for (guint i = 0; i < problems->len; i++)
    g_assert_nonnull (sl_problem_get_hint (g_ptr_array_index (problems, i)));

  spec.device_id = 1;
  device1 = sl_preflight_parse (&spec, good);
  g_assert_cmpuint (device1->len, ==, 1);
  g_assert_cmpuint (count_subject (device1, "device", SL_SEVERITY_WARNING), ==, 1);

  spec.device_id = 7;
  device7 = sl_preflight_parse (&spec, good);
  g_assert_cmpuint (count_subject (device7, "device", SL_SEVERITY_ERROR), ==, 1);

  /* A script that printed nothing (the shell failed) reports the tool
   * missing rather than passing. */
  nothing = sl_preflight_parse (&spec, "");
  g_assert_cmpuint (count_subject (nothing, "msprof", SL_SEVERITY_ERROR), ==, 1);
}

static void
write_tool (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

static void
test_preflight_script_through_shell (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-preflight-XXXXXX", NULL);
  g_autofree char *bin = g_build_filename (tmp, "b in", NULL);
  g_autofree char *env_script = g_build_filename (tmp, "set env.sh", NULL);
  g_autofree char *out_dir = g_build_filename (tmp, "out $(x)", NULL);
  g_autofree char *env_text = NULL;
  g_autofree char *npu_text = NULL;
  g_autofree char *script = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  SlPreflightSpec spec = { "msprof", NULL, NULL, 1, 0, TRUE };
  const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
  int status = -1;

  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  env_text = g_strdup_printf ("export PATH='%s':/usr/bin:/bin\nexport ASCEND_TOOLKIT_HOME=/opt/toolkit\necho noise\n", bin);
  g_assert_true (g_file_set_contents (env_script, env_text, -1, NULL));
  write_tool (bin, "msprof", "#!/bin/sh\nexit 0\n");
  write_tool (bin, "python", "#!/bin/sh\necho 'Python 2.7.18' >&2\necho 2.7.18\n");
  npu_text = g_strdup_printf ("#!/bin/sh\ncat <<'EOF'\n%sEOF\n", npu_smi_busy);
  write_tool (bin, "npu-smi", npu_text);

  spec.env_script = env_script;
  spec.output_dir = out_dir;
  script = sl_preflight_dup_script (&spec);
  argv[2] = script;
  g_assert_true (g_spawn_sync (tmp, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (out_dir, G_FILE_TEST_IS_DIR));
  g_assert_null (strstr (out, "noise"));

  problems = sl_preflight_parse (&spec, out);
  /* Python 2 and the held device; msprof, the script and the disk pass. */
  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_cmpuint (count_subject (problems, "python", SL_SEVERITY_ERROR), ==, 1);
  g_assert_cmpuint (count_subject (problems, "device", SL_SEVERITY_ERROR), ==, 1);

  g_assert_cmpint (g_remove (env_script), ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&problems, g_ptr_array_unref);
  g_assert_true (g_spawn_sync (tmp, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
  problems = sl_preflight_parse (&spec, out);
  g_assert_cmpuint (count_subject (problems, "env-script", SL_SEVERITY_ERROR), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/workflows/msprof/every-option", test_msprof_every_option);
  g_test_add_func ("/workflows/msprof/defaults-left-out", test_msprof_defaults_left_out);
  g_test_add_func ("/workflows/msprof/refusals", test_msprof_refusals);
  g_test_add_func ("/workflows/msprof/bad-values", test_msprof_bad_values);
  g_test_add_func ("/workflows/msprof/export", test_msprof_export);
  g_test_add_func ("/workflows/msprof/frameworks", test_framework_profilers);
  g_test_add_func ("/workflows/atc/walkthrough", test_atc_walkthrough);
  g_test_add_func ("/workflows/atc/fields", test_atc_fields);
  g_test_add_func ("/workflows/atc/caffe-and-shapes", test_atc_caffe_and_shapes);
  g_test_add_func ("/workflows/atc/log", test_atc_log);
  g_test_add_func ("/workflows/atc/log-outcomes", test_atc_log_outcomes);
  g_test_add_func ("/workflows/mindx/env-through-shell", test_mindx_env_through_shell);
  g_test_add_func ("/workflows/mindx/errors", test_mindx_errors);
  g_test_add_func ("/workflows/preflight/parse", test_preflight_parse);
  g_test_add_func ("/workflows/preflight/script-through-shell", test_preflight_script_through_shell);

  return g_test_run ();
}
