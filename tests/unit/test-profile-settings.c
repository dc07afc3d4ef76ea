/* test-profile-settings.c: a profile run configuration's "profile" group
 *
 * The dialog's choices stored in a configuration and loaded back give the
 * same msprof command line; the program is the configuration's command,
 * arguments and environment both ways; damaged groups keep the good
 * options and say what was left out; other groups are kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>

#include "sl-profile-settings.h"

static SlRunConfigRecord *
new_config (void)
{
  static const char * const args[] = { "--epochs", "2 3", NULL };
  static const char * const env[] = { "ASCEND_RT_VISIBLE_DEVICES=0", NULL };
  SlRunConfigRecord *config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_PROFILE, "Profile", "python3 train.py");

  sl_run_config_record_set_arguments (config, args);
  sl_run_config_record_set_environment (config, env);
  return config;
}

static char *
joined_argv (SlMsprofCommand *command)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = sl_msprof_command_dup_argv (command, &error);

  g_assert_no_error (error);
  return g_strjoinv (" ", argv);
}

static void
test_program (void)
{
  g_autoptr(SlRunConfigRecord) config = new_config ();
  g_autoptr(SlRunConfigRecord) copy = sl_run_config_record_new (SL_RUN_CONFIG_KIND_PROFILE, "Copy", "x");
  g_auto(GStrv) program = sl_profile_settings_dup_program (config);
  g_auto(GStrv) again = NULL;
  static const char * const expected[] = { "env", "ASCEND_RT_VISIBLE_DEVICES=0", "python3", "train.py", "--epochs", "2 3", NULL };

  g_assert_true (g_strv_equal ((const char * const *)program, expected));

  /* The leading env settings become the environment again. */
  sl_profile_settings_set_program (copy, (const char * const *)program);
  g_assert_cmpstr (sl_run_config_record_get_command (copy), ==, "python3");
  g_assert_cmpstr (sl_run_config_record_get_environment (copy)[0], ==, "ASCEND_RT_VISIBLE_DEVICES=0");
  g_assert_cmpstr (sl_run_config_record_get_arguments (copy)[0], ==, "train.py");
  again = sl_profile_settings_dup_program (copy);
  g_assert_true (g_strv_equal ((const char * const *)again, expected));
}

static void
test_program_edges (void)
{
  g_autoptr(SlRunConfigRecord) config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_PROFILE, "Blank", "   ");
  g_auto(GStrv) program = sl_profile_settings_dup_program (config);
  g_auto(GStrv) unparsed = NULL;
  g_auto(GStrv) back = NULL;
  static const char * const only_env[] = { "env", "A=1", NULL };
  static const char * const not_a_name[] = { "env", "1A=2", "ls", NULL };
  static const char * const spaced[] = { "/opt/my app/run", "x", NULL };

  g_assert_null (program);

  /* A command that is no shell line is taken as one word. */
  sl_run_config_record_set_command (config, "python3 'train.py");
  unparsed = sl_profile_settings_dup_program (config);
  g_assert_cmpstr (unparsed[0], ==, "python3 'train.py");
  g_assert_null (unparsed[1]);

  /* "env" alone is the program; a word that is no NAME=VALUE ends the settings. */
  sl_profile_settings_set_program (config, only_env);
  g_assert_cmpstr (sl_run_config_record_get_command (config), ==, "env");
  g_assert_null (sl_run_config_record_get_environment (config)[0]);
  sl_profile_settings_set_program (config, not_a_name);
  g_assert_cmpstr (sl_run_config_record_get_command (config), ==, "1A=2");
  g_assert_cmpstr (sl_run_config_record_get_environment (config)[0], ==, NULL);

  /* Joined for the dialog's line: quoted only where the shell needs it,
   * and read back as the same words. */
  {
    static const char * const words[] = { "env", "A=1", "python3", "a b.py", "it's", "", "--lr=0.1", NULL };
    g_autofree char *line = sl_profile_settings_join_argv (words);
    g_auto(GStrv) parsed = NULL;

    g_assert_cmpstr (line, ==, "env A=1 python3 'a b.py' 'it'\\''s' '' --lr=0.1");
    g_assert_true (g_shell_parse_argv (line, NULL, &parsed, NULL));
    g_assert_true (g_strv_equal ((const char * const *)parsed, words));
  }

  /* A command with a space survives the trip through the command line. */
  sl_profile_settings_set_program (config, spaced);
  back = sl_profile_settings_dup_program (config);
  g_assert_true (g_strv_equal ((const char * const *)back, spaced));
}

static void
test_round_trip (void)
{
  g_autoptr(SlRunConfigRecord) config = new_config ();
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(SlMsprofCommand) loaded = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(JsonObject) slurm = json_object_new ();
  g_autoptr(JsonObject) group = NULL;
  g_autoptr(JsonObject) kept = NULL;
  g_auto(GStrv) program = sl_profile_settings_dup_program (config);
  g_autofree char *env_script = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;

  json_object_set_string_member (slurm, "partition", "ai");
  sl_run_config_record_set_option_group (config, "slurm", slurm);

  sl_msprof_command_set_program (command, (const char * const *)program);
  sl_msprof_command_set_output (command, "out/prof");
  g_assert_true (sl_msprof_command_apply_option (command, "task-time", "on", &error));
  g_assert_true (sl_msprof_command_apply_option (command, "aic-metrics", "MemoryUB", &error));
  g_assert_true (sl_msprof_command_apply_option (command, "hccl", "off", &error));
  g_assert_true (sl_msprof_command_apply_option (command, "sys-io-profiling", "on", &error));
  g_assert_true (sl_msprof_command_apply_option (command, "sys-io-sampling-freq", "20", &error));
  g_assert_true (sl_msprof_command_apply_option (command, "host-sys", "cpu,mem", &error));
  g_assert_no_error (error);
  sl_profile_settings_store (command, "/usr/local/Ascend/ascend-toolkit/set_env.sh", config);

  group = sl_run_config_record_dup_option_group (config, SL_PROFILE_OPTION_GROUP);
  g_assert_cmpstr (json_object_get_string_member (group, "framework"), ==, "msprof");
  g_assert_cmpstr (json_object_get_string_member (group, "output"), ==, "out/prof");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (group, "options"), "aic-metrics"),
                   ==, "MemoryUB");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (group, "options"), "hccl"), ==, "off");
  kept = sl_run_config_record_dup_option_group (config, "slurm");
  g_assert_cmpstr (json_object_get_string_member (kept, "partition"), ==, "ai");

  loaded = sl_profile_settings_load (config, &env_script, &problems);
  g_assert_null (problems);
  g_assert_cmpstr (env_script, ==, "/usr/local/Ascend/ascend-toolkit/set_env.sh");
  before = joined_argv (command);
  after = joined_argv (loaded);
  g_assert_cmpstr (after, ==, before);
  g_assert_nonnull (strstr (after, "--sys-io-sampling-freq=20"));
}

static void
test_framework (void)
{
  g_autoptr(SlRunConfigRecord) config = new_config ();
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(SlMsprofCommand) loaded = NULL;
  SlProfilerKind kind = SL_PROFILER_MSPROF;

  sl_msprof_command_set_kind (command, SL_PROFILER_TORCH_NPU);
  sl_profile_settings_store (command, NULL, config);
  loaded = sl_profile_settings_load (config, NULL, NULL);
  g_assert_cmpint (sl_msprof_command_get_kind (loaded), ==, SL_PROFILER_TORCH_NPU);
  g_assert_true (sl_profiler_kind_from_id ("mindspore", &kind));
  g_assert_cmpint (kind, ==, SL_PROFILER_MINDSPORE);
  g_assert_false (sl_profiler_kind_from_id ("tensorflow", &kind));
  g_assert_false (sl_profiler_kind_from_id (NULL, &kind));
}

/* Hand-edited or older groups: each bad choice is left out and named,
 * the good ones kept. */
static void
test_damaged_group (void)
{
  static const char * const damaged[] = {
    "{\"profile\": {\"framework\": \"caffe\", \"env-script\": 7, \"options\": "
    "{\"task-time\": \"on\", \"aicpu\": \"maybe\", \"no-such\": \"on\", \"hccl\": 1, \"sys-cpu-freq\": \"900\"}}}",
    "{\"profile\": {\"options\": [\"task-time\"]}}",
    "{\"profile\": 12}",
    "not json",
  };
  static const guint n_problems[] = { 5, 1, 0, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (damaged); i++)
    {
      g_autoptr(SlRunConfigRecord) config = new_config ();
      g_autoptr(SlMsprofCommand) loaded = NULL;
      g_autoptr(GPtrArray) problems = NULL;
      g_autofree char *env_script = NULL;

      sl_run_config_record_set_options (config, damaged[i]);
      loaded = sl_profile_settings_load (config, &env_script, &problems);
      g_assert_nonnull (loaded);
      g_assert_null (env_script);
      g_assert_cmpint (sl_msprof_command_get_kind (loaded), ==, SL_PROFILER_MSPROF);
      g_assert_cmpuint (problems ? problems->len : 0, ==, n_problems[i]);
      if (i == 0)
        {
          g_assert_cmpint (sl_msprof_command_get_switch (loaded, SL_MSPROF_TASK_TIME), ==, 1);
          g_assert_cmpint (sl_msprof_command_get_switch (loaded, SL_MSPROF_AICPU), ==, -1);
          g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "caffe"));
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile-settings/program", test_program);
  g_test_add_func ("/profile-settings/program-edges", test_program_edges);
  g_test_add_func ("/profile-settings/round-trip", test_round_trip);
  g_test_add_func ("/profile-settings/framework", test_framework);
  g_test_add_func ("/profile-settings/damaged-group", test_damaged_group);
  return g_test_run ();
}
