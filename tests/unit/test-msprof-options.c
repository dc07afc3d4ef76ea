/* test-msprof-options.c: msprof's options by name, as profile-run and the Profile dialog set them
 *
 * Every option of the table taken by its name, given back by
 * sl_msprof_command_dup_options() and giving the same msprof command line
 * again; bad values refused with the option named; and the stand-in
 * msprof of tests/integration/workflow-tools accepting every option the
 * builder writes, refusing unknown ones and bad values as msprof does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <gio/gio.h>

#include "sl-msprof-command.h"

static const char * const program[] = { "python3", "main.py", NULL };

/* A value each kind of option takes. */
static const char *
valid_value (const SlMsprofOption *option)
{
  switch (option->kind)
    {
    case SL_MSPROF_VALUE_SWITCH:
      return "on";
    case SL_MSPROF_VALUE_HZ:
      return "5";
    case SL_MSPROF_VALUE_CHOICE:
      return g_str_equal (option->name, "aic-mode") ? "sample-based" : "MemoryUB";
    case SL_MSPROF_VALUE_LIST:
    default:
      return "cpu,mem,osrt";
    }
}

static SlMsprofCommand *
new_command (void)
{
  SlMsprofCommand *command = sl_msprof_command_new ();

  sl_msprof_command_set_program (command, program);
  sl_msprof_command_set_output (command, "out");
  return command;
}

static char *
dup_command_line (SlMsprofCommand *command)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = sl_msprof_command_dup_argv (command, &error);

  g_assert_no_error (error);
  return g_strjoinv (" ", argv);
}

/* Every option set at once: each one reaches the command line, and the
 * options given back build the same command line again. */
static void
test_every_option_round_trips (void)
{
  g_autoptr(SlMsprofCommand) command = new_command ();
  g_autoptr(SlMsprofCommand) again = new_command ();
  g_autofree char *line = NULL;
  g_autofree char *line_again = NULL;
  g_auto(GStrv) given_back = NULL;
  guint n = 0;
  const SlMsprofOption *options = sl_msprof_options (&n);

  g_assert_cmpuint (n, >=, 25);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (sl_msprof_command_apply_option (command, options[i].name, valid_value (&options[i]), &error));
      g_assert_no_error (error);
    }

  line = dup_command_line (command);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *option = g_strdup_printf (" --%s=%s ", options[i].name, valid_value (&options[i]));

      g_assert_nonnull (strstr (line, option));
    }

  given_back = sl_msprof_command_dup_options (command);
  g_assert_cmpuint (g_strv_length (given_back), ==, n);
  for (guint i = 0; given_back[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (given_back[i] + 2, strcspn (given_back[i] + 2, "="));
      const char *value = strchr (given_back[i], '=') + 1;

      g_assert_true (g_str_has_prefix (given_back[i], "--"));
      g_assert_true (sl_msprof_command_apply_option (again, name, value, NULL));
    }
  line_again = dup_command_line (again);
  g_assert_cmpstr (line_again, ==, line);
}

/* Switches off and samplers on at msprof's default rate come back as set. */
static void
test_partial_settings_round_trip (void)
{
  g_autoptr(SlMsprofCommand) command = new_command ();
  g_autoptr(SlMsprofCommand) again = new_command ();
  g_auto(GStrv) given_back = NULL;
  g_autofree char *line = NULL;
  g_autofree char *line_again = NULL;
  g_autofree char *joined = NULL;

  sl_msprof_command_set_switch (command, SL_MSPROF_TASK_TIME, 0);
  sl_msprof_command_set_sampler_full (command, SL_MSPROF_SYS_IO, 1, 0);
  sl_msprof_command_set_sampler_full (command, SL_MSPROF_DVPP, 0, 0);
  sl_msprof_command_set_sampler (command, SL_MSPROF_SYS_INTERCONNECTION, 50);
  line = dup_command_line (command);
  g_assert_cmpstr (line, ==,
                   "msprof --output=out --task-time=off --sys-io-profiling=on "
                   "--sys-interconnection-profiling=on --sys-interconnection-freq=50 --dvpp-profiling=off "
                   "python3 main.py");

  given_back = sl_msprof_command_dup_options (command);
  joined = g_strjoinv (" ", given_back);
  g_assert_cmpstr (joined, ==, "--task-time=off --sys-io-profiling=on --sys-interconnection-profiling=on "
                               "--sys-interconnection-freq=50 --dvpp-profiling=off");
  for (guint i = 0; given_back[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (given_back[i] + 2, strcspn (given_back[i] + 2, "="));

      g_assert_true (sl_msprof_command_apply_option (again, name, strchr (given_back[i], '=') + 1, NULL));
    }
  line_again = dup_command_line (again);
  g_assert_cmpstr (line_again, ==, line);

  /* The copy the window runs has the same settings. */
  {
    g_autoptr(SlMsprofCommand) copy = sl_msprof_command_copy (command);
    g_autofree char *line_copy = dup_command_line (copy);

    g_assert_cmpstr (line_copy, ==, line);
  }
}

typedef struct {
  const char *name;
  const char *value;
  const char *says;  /* in the error */
} BadOption;

static void
test_bad_values_refused (void)
{
  const BadOption bad[] = {
    { "task-time", "yes", "--task-time takes on or off, not “yes”" },
    { "sys-hardware-mem", "1", "--sys-hardware-mem takes on or off" },
    { "sys-cpu-freq", "51", "--sys-cpu-freq takes 1 to 50 Hz, not “51”" },
    { "sys-sampling-freq", "0", "1 to 10 Hz" },
    { "sys-io-sampling-freq", "-5", "1 to 100 Hz" },
    { "aic-freq", "12Hz", "--aic-freq takes 1 to 100 Hz" },
    { "aic-freq", "", "--aic-freq takes" },
    { "dvpp-freq", "99999999999999999999999", "--dvpp-freq takes" },
    { "aic-mode", "fast", "“task-based” or “sample-based”, not “fast”" },
    { "aic-metrics", "pipeutilization", "is not an AI Core metric set" },
    { "host-sys", "cpu,,mem", "is not a host metric" },
    { "host-sys", "gpu", "“gpu” is not a host metric" },
    { "sys-devices", "0", "msprof has no option --sys-devices" },
    { "output", "x", "msprof has no option --output" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(SlMsprofCommand) command = new_command ();
      g_autoptr(GError) error = NULL;
      g_autofree char *line = NULL;

      g_assert_false (sl_msprof_command_apply_option (command, bad[i].name, bad[i].value, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, bad[i].says));
      /* Nothing of the refused value was kept. */
      line = dup_command_line (command);
      g_assert_cmpstr (line, ==, "msprof --output=out python3 main.py");
    }
}

/* Options that fit alone but not together: caught when the command is built. */
static void
test_combinations_refused (void)
{
  struct { const char *options[3][2]; const char *says; } cases[] = {
    { { { "sys-cpu-profiling", "off" }, { "sys-cpu-freq", "10" }, { NULL, NULL } }, "--sys-cpu-freq needs --sys-cpu-profiling=on" },
    { { { "ai-core", "off" }, { "aic-metrics", "Memory" }, { NULL, NULL } }, "need --ai-core=on" },
    { { { "aic-mode", "task-based" }, { "aic-freq", "50" }, { NULL, NULL } }, "only applies to the sample-based mode" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SlMsprofCommand) command = new_command ();
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = NULL;

      for (guint j = 0; cases[i].options[j][0] != NULL; j++)
        g_assert_true (sl_msprof_command_apply_option (command, cases[i].options[j][0], cases[i].options[j][1], NULL));
      argv = sl_msprof_command_dup_argv (command, &error);
      g_assert_null (argv);
      g_assert_nonnull (strstr (error->message, cases[i].says));
    }

  /* A framework's profiler has no system samplers. */
  {
    g_autoptr(SlMsprofCommand) command = new_command ();
    g_autoptr(GError) error = NULL;

    sl_msprof_command_set_kind (command, SL_PROFILER_MINDSPORE);
    g_assert_true (sl_msprof_command_apply_option (command, "sys-io-profiling", "on", NULL));
    g_assert_false (sl_msprof_command_validate (command, &error));
    g_assert_nonnull (strstr (error->message, "--sys-io-profiling is an msprof option"));
  }
}

/* The stand-in msprof with @args in @dir: its exit status and stderr. */
static int
run_stand_in (const char * const *args,
              const char         *dir,
              char              **err)
{
  const char *root = g_getenv ("SL_SOURCE_ROOT");
  g_autofree char *msprof = g_build_filename (root ? root : ".", "tests", "integration", "workflow-tools", "msprof", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_ptr_array_add (argv, (gpointer)"python3");
  g_ptr_array_add (argv, msprof);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (dir, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, err, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* What the builder writes the stand-in takes; what msprof refuses it
 * refuses, with msprof's exit code. */
static void
test_stand_in_checks_options (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-msprof-options-XXXXXX", NULL);
  g_autoptr(SlMsprofCommand) command = new_command ();
  const char *true_program[] = { "true", NULL };
  g_auto(GStrv) argv = NULL;
  g_autofree char *err = NULL;
  guint n = 0;
  const SlMsprofOption *options = sl_msprof_options (&n);

  for (guint i = 0; i < n; i++)
    g_assert_true (sl_msprof_command_apply_option (command, options[i].name, valid_value (&options[i]), NULL));
  sl_msprof_command_set_program (command, true_program);
  argv = sl_msprof_command_dup_argv (command, NULL);
  g_assert_cmpint (run_stand_in ((const char * const *)argv + 1, dir, &err), ==, 0);
  g_clear_pointer (&err, g_free);

  {
    const char *unknown[] = { "--sys-hardware-memory=on", "true", NULL };
    const char *bad_freq[] = { "--sys-cpu-profiling=on", "--sys-cpu-freq=51", "true", NULL };
    const char *bad_switch[] = { "--hccl=yes", "true", NULL };
    const char *bad_metrics[] = { "--aic-metrics=Cache", "true", NULL };
    const char *freq_task_based[] = { "--ai-core=on", "--aic-freq=50", "true", NULL };
    const char *metrics_core_off[] = { "--ai-core=off", "--aic-metrics=Memory", "true", NULL };

    g_assert_cmpint (run_stand_in (unknown, dir, &err), ==, 1);
    g_assert_nonnull (strstr (err, "--sys-hardware-memory"));
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run_stand_in (bad_freq, dir, &err), ==, 1);
    g_assert_nonnull (strstr (err, "--sys-cpu-freq=51 is invalid"));
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run_stand_in (bad_switch, dir, &err), ==, 1);
    g_assert_nonnull (strstr (err, "--hccl=yes is invalid"));
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run_stand_in (bad_metrics, dir, &err), ==, 1);
    g_assert_nonnull (strstr (err, "--aic-metrics=Cache is invalid"));
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run_stand_in (freq_task_based, dir, &err), ==, 1);
    g_assert_nonnull (strstr (err, "--aic-freq is invalid"));
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run_stand_in (metrics_core_off, dir, &err), ==, 1);
    g_assert_nonnull (strstr (err, "needs --ai-core=on"));
  }

  {
    g_autofree char *command_line = g_strdup_printf ("rm -rf '%s'", dir);

    g_spawn_command_line_sync (command_line, NULL, NULL, NULL, NULL);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/msprof-options/every-option-round-trips", test_every_option_round_trips);
  g_test_add_func ("/msprof-options/partial-settings-round-trip", test_partial_settings_round_trip);
  g_test_add_func ("/msprof-options/bad-values-refused", test_bad_values_refused);
  g_test_add_func ("/msprof-options/combinations-refused", test_combinations_refused);
  g_test_add_func ("/msprof-options/stand-in-checks-options", test_stand_in_checks_options);
  return g_test_run ();
}
