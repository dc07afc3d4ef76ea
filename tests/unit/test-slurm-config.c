/* test-slurm-config.c: a run configuration's "slurm" group: written and
 * read back, other groups kept, damaged members left out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-slurm-config.h"

static SlRunConfigRecord *
new_config (const char *options)
{
  SlRunConfigRecord *config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_TRAIN, "train", "python3");

  sl_run_config_record_set_options (config, options);
  return config;
}

static void
test_round_trip (void)
{
  g_autoptr(SlRunConfigRecord) config = new_config ("{\"profile\":{\"level\":\"l1\"}}");
  g_autoptr(SlSlurmOptions) options = sl_slurm_options_new ();
  g_autoptr(SlSlurmOptions) read = NULL;
  g_autoptr(JsonObject) profile = NULL;
  gboolean enabled = FALSE;

  g_assert_null (sl_slurm_config_read (config, &enabled));
  g_assert_false (enabled);

  options->nodes = 2;
  options->ntasks = 16;
  options->ntasks_per_node = 8;
  options->devices_per_node = 8;
  options->device_gres = g_strdup ("npu");
  options->partition = g_strdup ("ascend");
  options->time_limit = g_strdup ("2:00:00");
  options->account = g_strdup ("team-a");
  options->launcher = SL_SLURM_LAUNCHER_MSRUN;
  options->per_task_logs = TRUE;
  g_assert_true (sl_slurm_config_write (config, options, TRUE));
  /* The same choices again change nothing, so nothing needs saving. */
  g_assert_false (sl_slurm_config_write (config, options, TRUE));

  read = sl_slurm_config_read (config, &enabled);
  g_assert_nonnull (read);
  g_assert_true (enabled);
  g_assert_cmpuint (read->nodes, ==, 2);
  g_assert_cmpuint (read->ntasks, ==, 16);
  g_assert_cmpuint (read->ntasks_per_node, ==, 8);
  g_assert_cmpuint (read->devices_per_node, ==, 8);
  g_assert_cmpstr (read->device_gres, ==, "npu");
  g_assert_null (read->device_env);
  g_assert_cmpstr (read->partition, ==, "ascend");
  g_assert_cmpstr (read->time_limit, ==, "2:00:00");
  g_assert_cmpstr (read->account, ==, "team-a");
  g_assert_cmpint (read->launcher, ==, SL_SLURM_LAUNCHER_MSRUN);
  g_assert_true (read->per_task_logs);

  /* The Profile dialog's group is someone else's: it stays. */
  profile = sl_run_config_record_dup_option_group (config, "profile");
  g_assert_nonnull (profile);
  g_assert_cmpstr (json_object_get_string_member (profile, "level"), ==, "l1");
}

/* Started directly with fields that did not parse: the options saved
 * stay, only "enabled" changes. */
static void
test_disable_keeps_options (void)
{
  g_autoptr(SlRunConfigRecord) config = new_config ("{\"slurm\":{\"enabled\":true,\"nodes\":4,\"partition\":\"gpu\"}}");
  g_autoptr(SlSlurmOptions) read = NULL;
  gboolean enabled = TRUE;

  g_assert_true (sl_slurm_config_write (config, NULL, FALSE));
  read = sl_slurm_config_read (config, &enabled);
  g_assert_false (enabled);
  g_assert_cmpuint (read->nodes, ==, 4);
  g_assert_cmpstr (read->partition, ==, "gpu");
}

/* Written by hand or by a newer version: members of the wrong type, out
 * of range or unknown are left out, the good ones kept. */
static void
test_damaged_group (void)
{
  g_autoptr(SlRunConfigRecord) config =
    new_config ("{\"slurm\":{\"enabled\":\"yes\",\"nodes\":-3,\"ntasks\":1e9,\"ntasks_per_node\":\"8\","
                "\"devices_per_node\":99999999999,\"partition\":[\"a\"],\"time\":\"30\",\"account\":\"\","
                "\"launcher\":\"mpirun\",\"per_task_logs\":1,\"future\":{\"x\":1}}}");
  g_autoptr(SlRunConfigRecord) not_object = new_config ("{\"slurm\":[1,2]}");
  g_autoptr(SlRunConfigRecord) broken = new_config ("{\"slurm\":{\"nodes\":2");
  g_autoptr(SlSlurmOptions) read = NULL;
  gboolean enabled = TRUE;

  read = sl_slurm_config_read (config, &enabled);
  g_assert_nonnull (read);
  g_assert_false (enabled);
  g_assert_cmpuint (read->nodes, ==, 0);
  g_assert_cmpuint (read->ntasks, ==, 0);
  g_assert_cmpuint (read->ntasks_per_node, ==, 0);
  g_assert_cmpuint (read->devices_per_node, ==, 0);
  g_assert_null (read->partition);
  g_assert_cmpstr (read->time_limit, ==, "30");
  g_assert_null (read->account);
  g_assert_cmpint (read->launcher, ==, SL_SLURM_LAUNCHER_SRUN);
  g_assert_false (read->per_task_logs);

  g_assert_null (sl_slurm_config_read (not_object, &enabled));
  g_assert_null (sl_slurm_config_read (broken, &enabled));
  g_assert_false (enabled);
}

static void
test_summary (void)
{
  g_autoptr(SlSlurmOptions) options = sl_slurm_options_new ();
  g_autofree char *direct = sl_slurm_config_dup_summary (options, FALSE);
  g_autofree char *some = NULL;
  g_autofree char *one = NULL;

  g_assert_cmpstr (direct, ==, "Started directly");
  one = sl_slurm_config_dup_summary (options, TRUE);
  g_assert_cmpstr (one, ==, "Through Slurm: srun");
  options->nodes = 2;
  options->ntasks = 1;
  options->partition = g_strdup ("ascend");
  options->time_limit = g_strdup ("30");
  options->launcher = SL_SLURM_LAUNCHER_TORCHRUN;
  options->per_task_logs = TRUE;
  some = sl_slurm_config_dup_summary (options, TRUE);
  g_assert_cmpstr (some, ==, "Through Slurm: 2 nodes, 1 task, partition ascend, 30, torchrun, a log per task");
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/slurm-config/round-trip", test_round_trip);
  g_test_add_func ("/slurm-config/disable-keeps-options", test_disable_keeps_options);
  g_test_add_func ("/slurm-config/damaged", test_damaged_group);
  g_test_add_func ("/slurm-config/summary", test_summary);
  return g_test_run ();
}
