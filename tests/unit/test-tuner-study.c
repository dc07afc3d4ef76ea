/* test-tuner-study.c: tuner studies run as local jobs, kept in the
 * workspace database, resumed after a restart
 *
 * Trials are tests/tuner-trial.c: it reads MINDINSIGHT_HYPER_CONFIG and
 * writes the bowl (x − 0.3)² + 0.01 |n − 3| + 0.01 kind as lineage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-job-controller.h"
#include "sl-local-target.h"
#include "sl-remote-run.h"
#include "sl-summary-writer.h"
#include "sl-tuner-study.h"
#include "sl-workspace-store-tuner.h"

typedef struct {
  char *dir;
  char *project;
  char *db;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("sl-tuner-study-XXXXXX", NULL);
  fixture->project = g_build_filename (fixture->dir, "project", NULL);
  fixture->db = g_build_filename (fixture->dir, "workspace.db", NULL);
  g_mkdir_with_parents (fixture->project, 0755);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", fixture->dir);

  g_assert_cmpint (system (command), ==, 0);
  g_free (fixture->dir);
  g_free (fixture->project);
  g_free (fixture->db);
}

static SlTunerConfig *
bowl_config (const char  *extra_args,
             SlTunerGoal  goal,
             SlTunerGroup group)
{
  SlTunerConfig *config = sl_tuner_config_new ();
  g_autofree char *trial = g_test_build_filename (G_TEST_BUILT, "unit", "tuner-trial", NULL);
  g_autofree char *command = g_strdup_printf ("'%s' bowl %s", trial, extra_args);
  const char * const kinds[] = { "plain", "odd", NULL };
  const double kind_values[] = { 0, 3 };

  sl_tuner_config_set_command (config, command);
  sl_tuner_config_set_summary_base_dir (config, "summaries");
  sl_tuner_config_set_method (config, SL_TUNER_METHOD_EI);
  sl_tuner_config_set_target (config, group, group == SL_TUNER_GROUP_METRIC ? "value" : "loss", goal);
  sl_tuner_config_add_bounds (config, "x", SL_TUNER_PARAM_FLOAT, 0, 1, -1);
  sl_tuner_config_add_bounds (config, "n", SL_TUNER_PARAM_INT, 1, 6, -1);
  /* Text choices reach the trial as text; it scores their length. */
  sl_tuner_config_add_choices (config, "kind", SL_TUNER_PARAM_STRING, kind_values, kinds, 2);
  return config;
}

static SlTunerStudy *
new_study (Fixture       *fixture,
           SlTunerConfig *config,
           guint          max_trials,
           guint          parallel)
{
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autofree char *config_path = g_build_filename (fixture->project, "tune.yaml", NULL);
  SlTunerStudy *study = sl_tuner_study_new (config, config_path, target, fixture->project, fixture->db);

  sl_tuner_study_set_max_trials (study, max_trials);
  sl_tuner_study_set_parallel (study, parallel);
  sl_tuner_study_set_n_initial (study, 3);
  return study;
}

static double
expected_bowl (const char *params)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;

  g_assert_true (json_parser_load_from_data (parser, params, -1, NULL));
  object = json_node_get_object (json_parser_get_root (parser));
  return pow (json_object_get_double_member (object, "x") - 0.3, 2) +
         0.01 * fabs ((double)json_object_get_int_member (object, "n") - 3) +
         0.01 * strlen (json_object_get_string_member (object, "kind"));
}

static void
assert_lineage_written (Fixture            *fixture,
                        const SlTunerTrial *trial)
{
  g_autofree char *dir = g_build_filename (fixture->project, "summaries", trial->name, NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  gboolean found = FALSE;
  const char *name;

  g_assert_nonnull (listing);
  g_assert_cmpstr (trial->summary_dir, ==, dir);
  while ((name = g_dir_read_name (listing)) != NULL)
    found = found || g_str_has_suffix (name, "_lineage");
  g_assert_true (found);
}

static void
test_study_runs_trials (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(SlTunerConfig) config = bowl_config ("", SL_TUNER_GOAL_MINIMIZE, SL_TUNER_GROUP_METRIC);
  g_autoptr(SlTunerStudy) study = new_study (fixture, config, 8, 2);
  g_autoptr(GPtrArray) trials = NULL;
  g_autoptr(GError) error = NULL;
  const SlTunerTrial *best;

  g_assert_true (sl_tuner_study_run (study, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (sl_tuner_study_get_resumed (study));

  trials = sl_tuner_study_dup_trials (study);
  g_assert_cmpuint (trials->len, ==, 8);
  for (guint i = 0; i < trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (trials, i);

      g_assert_cmpuint (trial->number, ==, i + 1);
      g_assert_cmpint (trial->state, ==, SL_TUNER_TRIAL_SUCCEEDED);
      g_assert_true (g_str_has_prefix (trial->name, "train_"));
      g_assert_true (trial->has_value);
      g_assert_cmpfloat_with_epsilon (trial->value, expected_bowl (trial->params), 1e-12);
      g_assert_cmpint (trial->job_id, >, 0);
      g_assert_cmpint (trial->finished_at, >=, trial->started_at);
      g_assert_true (g_str_has_prefix (trial->point, "["));
      assert_lineage_written (fixture, trial);
    }

  best = sl_tuner_trials_find_best (trials, SL_TUNER_GOAL_MINIMIZE);
  for (guint i = 0; i < trials->len; i++)
    g_assert_cmpfloat (best->value, <=, ((const SlTunerTrial *)g_ptr_array_index (trials, i))->value);
}

/* The target read from the train lineage's loss instead of the metric. */
static void
test_system_defined_target (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(SlTunerConfig) config = bowl_config ("", SL_TUNER_GOAL_MAXIMIZE, SL_TUNER_GROUP_SYSTEM_DEFINED);
  g_autoptr(SlTunerStudy) study = new_study (fixture, config, 3, 1);
  g_autoptr(GPtrArray) trials = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_tuner_study_run (study, NULL, &error));
  trials = sl_tuner_study_dup_trials (study);
  for (guint i = 0; i < trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (trials, i);

      g_assert_cmpint (trial->state, ==, SL_TUNER_TRIAL_SUCCEEDED);
      /* The train lineage keeps loss as a 32-bit float. */
      g_assert_cmpfloat_with_epsilon (trial->value, expected_bowl (trial->params), 1e-6);
    }
}

static void
test_failing_trials (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(SlTunerConfig) config = bowl_config ("--fail-above 0.5", SL_TUNER_GOAL_MINIMIZE, SL_TUNER_GROUP_METRIC);
  g_autoptr(SlTunerStudy) study = new_study (fixture, config, 8, 3);
  g_autoptr(GPtrArray) trials = NULL;
  g_autoptr(GError) error = NULL;
  guint failed = 0, succeeded = 0;

  g_assert_true (sl_tuner_study_run (study, NULL, &error));
  trials = sl_tuner_study_dup_trials (study);
  g_assert_cmpuint (trials->len, ==, 8);
  for (guint i = 0; i < trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (trials, i);
      g_autoptr(JsonParser) parser = json_parser_new ();
      double x;

      g_assert_true (json_parser_load_from_data (parser, trial->params, -1, NULL));
      x = json_object_get_double_member (json_node_get_object (json_parser_get_root (parser)), "x");
      if (x > 0.5)
        {
          failed++;
          g_assert_cmpint (trial->state, ==, SL_TUNER_TRIAL_FAILED);
          g_assert_false (trial->has_value);
          g_assert_nonnull (strstr (trial->reason, "Exited with 3"));
          g_assert_nonnull (strstr (trial->reason, "too large for this trial"));
        }
      else
        {
          succeeded++;
          g_assert_cmpint (trial->state, ==, SL_TUNER_TRIAL_SUCCEEDED);
        }
    }
  g_assert_cmpuint (failed, >=, 1);
  g_assert_cmpuint (succeeded, >=, 4);
}

/* A trial without lineage fails with a reason that says what was missing. */
static void
test_no_lineage (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(SlTunerConfig) config = bowl_config ("", SL_TUNER_GOAL_MINIMIZE, SL_TUNER_GROUP_METRIC);
  g_autoptr(SlTunerStudy) study = NULL;
  g_autoptr(GPtrArray) trials = NULL;
  g_autoptr(GError) error = NULL;

  sl_tuner_config_set_command (config, "true");
  study = new_study (fixture, config, 2, 1);
  g_assert_true (sl_tuner_study_run (study, NULL, &error));
  trials = sl_tuner_study_dup_trials (study);
  g_assert_cmpuint (trials->len, ==, 2);
  g_assert_cmpint (((SlTunerTrial *)trials->pdata[0])->state, ==, SL_TUNER_TRIAL_FAILED);
  g_assert_nonnull (strstr (((SlTunerTrial *)trials->pdata[0])->reason, "wrote no summary folder"));
}

/* A study started again continues: its trials come from the database, a
 * trial left running by a crash runs again, and it goes on to the new
 * number of trials. */
static void
test_resume_after_restart (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(SlTunerConfig) config = bowl_config ("", SL_TUNER_GOAL_MINIMIZE, SL_TUNER_GROUP_METRIC);
  g_autoptr(SlTunerStudy) first = new_study (fixture, config, 4, 1);
  g_autoptr(SlTunerStudy) second = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GError) error = NULL;
  SlTunerTrial *crashed;

  g_assert_true (sl_tuner_study_run (first, NULL, &error));
  before = sl_tuner_study_dup_trials (first);
  g_assert_cmpuint (before->len, ==, 4);

  /* As if Sightline had died while trial 4 ran. */
  store = sl_workspace_store_new_for_path (fixture->db, &error);
  g_assert_no_error (error);
  crashed = sl_tuner_trial_copy (g_ptr_array_index (before, 3));
  crashed->state = SL_TUNER_TRIAL_RUNNING;
  crashed->has_value = FALSE;
  g_assert_true (sl_workspace_store_save_tuner_trial (store, crashed, &error));
  sl_tuner_trial_free (crashed);
  g_clear_object (&store);

  second = new_study (fixture, config, 7, 2);
  g_assert_true (sl_tuner_study_run (second, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (sl_tuner_study_get_resumed (second));
  g_assert_cmpint (sl_tuner_study_get_id (second), ==, sl_tuner_study_get_id (first));

  after = sl_tuner_study_dup_trials (second);
  g_assert_cmpuint (after->len, ==, 7);
  for (guint i = 0; i < 4; i++)
    {
      const SlTunerTrial *was = g_ptr_array_index (before, i);
      const SlTunerTrial *is = g_ptr_array_index (after, i);

      g_assert_cmpstr (is->name, ==, was->name);
      g_assert_cmpstr (is->params, ==, was->params);
      g_assert_cmpint (is->state, ==, SL_TUNER_TRIAL_SUCCEEDED);
    }
  /* Trial 4 ran again: a new job. */
  g_assert_cmpint (((SlTunerTrial *)after->pdata[3])->job_id, !=, ((SlTunerTrial *)before->pdata[3])->job_id);
  /* New suggestions, not a replay of the first run's random numbers. */
  for (guint i = 4; i < 7; i++)
    for (guint j = 0; j < 4; j++)
      g_assert_cmpstr (((SlTunerTrial *)after->pdata[i])->params, !=, ((SlTunerTrial *)before->pdata[j])->params);
}

static guint
count_lineage (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint count = 0;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    count += g_str_has_suffix (name, "_lineage");
  return count;
}

/* A trial left running when Sightline was killed runs again; whatever its
 * killed attempt wrote into the trial's folder (here a lineage with a
 * value no trial gives) is moved aside first, kept next to it, so the
 * folder and the value read are the new attempt's alone. */
static void
test_resume_sets_earlier_output_aside (Fixture       *fixture,
                                       gconstpointer  data)
{
  g_autoptr(SlTunerConfig) config = bowl_config ("", SL_TUNER_GOAL_MINIMIZE, SL_TUNER_GROUP_METRIC);
  g_autoptr(SlTunerStudy) first = new_study (fixture, config, 2, 1);
  g_autoptr(SlTunerStudy) second = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) summaries = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *summaries_dir = g_build_filename (fixture->project, "summaries", NULL);
  g_autofree char *leftover_name = NULL;
  g_autofree char *aside = NULL;
  SlTunerTrial *crashed;
  const SlTunerTrial *again;
  const char *name;

  g_assert_true (sl_tuner_study_run (first, NULL, &error));
  g_assert_no_error (error);
  before = sl_tuner_study_dup_trials (first);
  g_assert_cmpuint (before->len, ==, 2);

  /* As if Sightline had been killed while trial 2 ran, its attempt
   * having written lineage of its own. */
  crashed = sl_tuner_trial_copy (g_ptr_array_index (before, 1));
  folder = g_build_filename (summaries_dir, crashed->name, NULL);
  writer = sl_summary_writer_new (folder, 1, "killed", &error);
  g_assert_no_error (error);
  g_assert_true (sl_summary_writer_add_eval_lineage (writer, 1, "{\"value\": 1000}", "bowl", 1, &error));
  g_assert_true (sl_summary_writer_flush (writer, &error));
  g_assert_no_error (error);
  leftover_name = g_path_get_basename (sl_summary_writer_get_lineage_path (writer));
  g_clear_object (&writer);
  g_assert_cmpuint (count_lineage (folder), ==, 2);

  store = sl_workspace_store_new_for_path (fixture->db, &error);
  g_assert_no_error (error);
  crashed->state = SL_TUNER_TRIAL_RUNNING;
  crashed->has_value = FALSE;
  g_assert_true (sl_workspace_store_save_tuner_trial (store, crashed, &error));
  sl_tuner_trial_free (crashed);
  g_clear_object (&store);

  second = new_study (fixture, config, 2, 1);
  g_assert_true (sl_tuner_study_run (second, NULL, &error));
  g_assert_no_error (error);
  after = sl_tuner_study_dup_trials (second);
  g_assert_cmpuint (after->len, ==, 2);
  again = g_ptr_array_index (after, 1);
  g_assert_cmpstr (again->name, ==, ((SlTunerTrial *)before->pdata[1])->name);
  g_assert_cmpint (again->state, ==, SL_TUNER_TRIAL_SUCCEEDED);
  g_assert_cmpfloat_with_epsilon (again->value, expected_bowl (again->params), 1e-12);
  g_assert_cmpstr (again->summary_dir, ==, folder);
  g_assert_cmpuint (count_lineage (folder), ==, 1);

  /* Nothing was deleted: the earlier output is beside the trial's folder. */
  summaries = g_dir_open (summaries_dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (summaries)) != NULL)
    if (g_str_has_prefix (name, again->name) && strstr (name, ".earlier-") != NULL)
      {
        g_assert_null (aside);
        aside = g_build_filename (summaries_dir, name, NULL);
      }
  g_assert_nonnull (aside);
  g_assert_cmpuint (count_lineage (aside), ==, 2);
  {
    g_autofree char *kept = g_build_filename (aside, leftover_name, NULL);

    g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
  }
}

/* The job of a killed attempt goes on without Sightline and would write
 * into the trial's folder while the trial runs again: it is stopped, and
 * seen to end, before that, even when Sightline was killed before the
 * trial learnt its job (found by the trial's folder in its command). */
static void
test_resume_stops_earlier_job (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(SlTunerConfig) config = bowl_config ("", SL_TUNER_GOAL_MINIMIZE, SL_TUNER_GROUP_METRIC);
  g_autoptr(SlTunerStudy) first = new_study (fixture, config, 1, 1);
  g_autoptr(SlTunerStudy) second = NULL;
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autoptr(SlRemoteRun) orphan = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder_env = NULL;
  SlJobStatus status = SL_JOB_STATUS_LOST;
  SlTunerTrial *crashed;
  gint64 orphan_id;
  gboolean seen = FALSE;

  g_assert_true (sl_tuner_study_run (first, NULL, &error));
  g_assert_no_error (error);
  before = sl_tuner_study_dup_trials (first);

  /* The killed attempt's job, still running. */
  folder_env = g_strdup_printf ("SUMMARY_DIR=summaries/%s", ((SlTunerTrial *)before->pdata[0])->name);
  orphan = sl_remote_run_new (target, fixture->project, (const char * const []) { "env", folder_env, "sleep", "300", NULL });
  sl_remote_run_set_store_path (orphan, fixture->db);
  sl_remote_run_set_detach (orphan, TRUE);
  g_assert_true (sl_remote_run_execute (orphan, &status, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, SL_JOB_STATUS_RUNNING);
  orphan_id = sl_remote_run_get_job_id (orphan);
  g_assert_cmpint (orphan_id, >, 0);

  store = sl_workspace_store_new_for_path (fixture->db, &error);
  g_assert_no_error (error);
  crashed = sl_tuner_trial_copy (g_ptr_array_index (before, 0));
  crashed->state = SL_TUNER_TRIAL_RUNNING;
  crashed->has_value = FALSE;
  g_assert_true (sl_workspace_store_save_tuner_trial (store, crashed, &error));
  sl_tuner_trial_free (crashed);

  second = new_study (fixture, config, 1, 1);
  g_assert_true (sl_tuner_study_run (second, NULL, &error));
  g_assert_no_error (error);
  after = sl_tuner_study_dup_trials (second);
  g_assert_cmpint (((SlTunerTrial *)after->pdata[0])->state, ==, SL_TUNER_TRIAL_SUCCEEDED);
  g_assert_cmpint (((SlTunerTrial *)after->pdata[0])->job_id, !=, orphan_id);

  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < jobs->len; i++)
    if (sl_job_record_get_id (g_ptr_array_index (jobs, i)) == orphan_id)
      {
        g_assert_true (sl_job_state_is_finished (sl_job_record_get_state (g_ptr_array_index (jobs, i))));
        seen = TRUE;
      }
  g_assert_true (seen);
}

static void
test_store_round_trip (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (fixture->db, NULL);
  g_autoptr(SlTunerStudyRow) row = g_new0 (SlTunerStudyRow, 1);
  g_autoptr(SlTunerStudyRow) found = NULL;
  g_autoptr(SlTunerTrial) trial = sl_tuner_trial_new ();
  g_autoptr(GPtrArray) trials = NULL;
  g_autoptr(GError) error = NULL;
  const SlTunerTrial *back;

  g_assert_cmpuint (sl_workspace_store_get_schema_version (store), >=, 3);
  row->config_path = g_strdup ("/p/tune.yaml");
  row->config_text = g_strdup ("command: x\n");
  row->target_name = g_strdup ("gpu-box");
  row->project_folder = g_strdup ("/p");
  row->seed = 42;
  row->max_trials = 9;
  row->parallel = 3;
  g_assert_true (sl_workspace_store_add_tuner_study (store, row, &error));
  g_assert_cmpint (row->id, >, 0);

  found = sl_workspace_store_find_tuner_study (store, "/p/tune.yaml", "command: x\n", "gpu-box", &error);
  g_assert_nonnull (found);
  g_assert_cmpint (found->id, ==, row->id);
  g_assert_cmpuint (found->seed, ==, 42);
  g_assert_cmpstr (found->state, ==, "running");
  g_clear_pointer (&found, sl_tuner_study_row_free);
  /* Another text is another study. */
  found = sl_workspace_store_find_tuner_study (store, "/p/tune.yaml", "command: y\n", "gpu-box", &error);
  g_assert_null (found);
  g_assert_no_error (error);

  trial->study_id = row->id;
  trial->number = 1;
  trial->name = g_strdup ("train_1");
  g_free (trial->params);
  trial->params = g_strdup ("{\"x\": 0.5}");
  trial->state = SL_TUNER_TRIAL_FAILED;
  trial->reason = g_strdup ("Exited with 1 — ’quotes’ and \"these\"");
  trial->job_id = 12345;   /* no such job: kept as none */
  g_assert_true (sl_workspace_store_save_tuner_trial (store, trial, &error));
  g_assert_no_error (error);

  trials = sl_workspace_store_list_tuner_trials (store, row->id, &error);
  g_assert_cmpuint (trials->len, ==, 1);
  back = g_ptr_array_index (trials, 0);
  g_assert_cmpstr (back->params, ==, "{\"x\": 0.5}");
  g_assert_cmpint (back->state, ==, SL_TUNER_TRIAL_FAILED);
  g_assert_cmpstr (back->reason, ==, trial->reason);
  g_assert_false (back->has_value);
  g_assert_cmpint (back->job_id, ==, 0);
}

typedef struct {
  GHashTable *titles;    /* job → title */
  GHashTable *reasons;   /* job → reason ("" for none) */
  GHashTable *codes;     /* job → exit code + 1 */
} ControllerJobs;

static void
controller_started_cb (SlJobController *jobs,
                       guint            job,
                       const char      *title,
                       const char      *command_line,
                       ControllerJobs  *seen)
{
  g_assert_false (g_hash_table_contains (seen->titles, GUINT_TO_POINTER (job)));
  g_assert_nonnull (strstr (command_line, "MINDINSIGHT_HYPER_CONFIG"));
  g_hash_table_insert (seen->titles, GUINT_TO_POINTER (job), g_strdup (title));
}

static void
controller_finished_cb (SlJobController *jobs,
                        guint            job,
                        int              exit_code,
                        const char      *reason,
                        ControllerJobs  *seen)
{
  g_assert_true (g_hash_table_contains (seen->titles, GUINT_TO_POINTER (job)));
  g_assert_false (g_hash_table_contains (seen->reasons, GUINT_TO_POINTER (job)));
  g_hash_table_insert (seen->reasons, GUINT_TO_POINTER (job), g_strdup (reason ? reason : ""));
  g_hash_table_insert (seen->codes, GUINT_TO_POINTER (job), GINT_TO_POINTER (exit_code + 1));
}

static void
study_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  *(GAsyncResult **)data = g_object_ref (result);
}

/* With a job controller (the session's), each trial's job is one of its
 * jobs: it starts and ends in the controller's signals, called by the
 * trial's number, and ends with the trial's verdict, a failed trial's
 * reason with it; the history keeps each with its start and end. */
static void
test_trials_followed_by_controller (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autoptr(SlTunerConfig) config = bowl_config ("--fail-above 0.5", SL_TUNER_GOAL_MINIMIZE, SL_TUNER_GROUP_METRIC);
  g_autoptr(SlTunerStudy) study = new_study (fixture, config, 6, 2);
  g_autoptr(SlWorkspace) workspace = sl_workspace_new (fixture->db);
  g_autoptr(SlJobController) jobs = sl_job_controller_new (workspace);
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) trials = NULL;
  g_autoptr(GPtrArray) history = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  ControllerJobs seen = {
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new_full (NULL, NULL, NULL, g_free),
    g_hash_table_new (NULL, NULL),
  };

  g_signal_connect (jobs, "started", G_CALLBACK (controller_started_cb), &seen);
  g_signal_connect (jobs, "finished", G_CALLBACK (controller_finished_cb), &seen);
  sl_tuner_study_set_job_controller (study, jobs);
  sl_tuner_study_run_async (study, NULL, study_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (sl_tuner_study_run_finish (study, result, &error));
  g_assert_no_error (error);
  /* The jobs' ends come in this context, queued before the study's. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  trials = sl_tuner_study_dup_trials (study);
  g_assert_cmpuint (trials->len, ==, 6);
  g_assert_cmpuint (g_hash_table_size (seen.titles), ==, 6);
  g_assert_cmpuint (g_hash_table_size (seen.reasons), ==, 6);
  for (guint i = 0; i < trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (trials, i);
      g_autofree char *title = g_strdup_printf ("Tuner trial %u", trial->number);
      GHashTableIter iter;
      gpointer job = NULL, value;
      gboolean found = FALSE;

      g_hash_table_iter_init (&iter, seen.titles);
      while (!found && g_hash_table_iter_next (&iter, &job, &value))
        found = g_str_equal (value, title);
      g_assert_true (found);
      if (trial->state == SL_TUNER_TRIAL_SUCCEEDED)
        {
          g_assert_cmpstr (g_hash_table_lookup (seen.reasons, job), ==, "");
          g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (seen.codes, job)) - 1, ==, 0);
        }
      else
        {
          g_assert_cmpint (trial->state, ==, SL_TUNER_TRIAL_FAILED);
          g_assert_cmpstr (g_hash_table_lookup (seen.reasons, job), ==, trial->reason);
          g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (seen.codes, job)) - 1, ==, -1);
        }
      g_assert_cmpint (trial->job_id, >, 0);
    }

  sl_workspace_flush (workspace);
  store = sl_workspace_store_new_for_path (fixture->db, &error);
  g_assert_no_error (error);
  history = sl_workspace_store_list_jobs (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (history->len, ==, 6);
  for (guint i = 0; i < history->len; i++)
    {
      SlJobRecord *record = g_ptr_array_index (history, i);

      g_assert_cmpint (sl_job_record_get_started_at (record), >, 0);
      g_assert_cmpint (sl_job_record_get_finished_at (record), >=, sl_job_record_get_started_at (record));
    }

  g_hash_table_unref (seen.titles);
  g_hash_table_unref (seen.reasons);
  g_hash_table_unref (seen.codes);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("sl-tuner-cache-XXXXXX", NULL);

  /* Local jobs keep their folders under the cache. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/tuner-study/store", Fixture, NULL, fixture_set_up, test_store_round_trip, fixture_tear_down);
  g_test_add ("/tuner-study/runs-trials", Fixture, NULL, fixture_set_up, test_study_runs_trials, fixture_tear_down);
  g_test_add ("/tuner-study/system-defined", Fixture, NULL, fixture_set_up, test_system_defined_target, fixture_tear_down);
  g_test_add ("/tuner-study/failing-trials", Fixture, NULL, fixture_set_up, test_failing_trials, fixture_tear_down);
  g_test_add ("/tuner-study/trials-followed-by-controller", Fixture, NULL, fixture_set_up,
              test_trials_followed_by_controller, fixture_tear_down);
  g_test_add ("/tuner-study/no-lineage", Fixture, NULL, fixture_set_up, test_no_lineage, fixture_tear_down);
  g_test_add ("/tuner-study/resume", Fixture, NULL, fixture_set_up, test_resume_after_restart, fixture_tear_down);
  g_test_add ("/tuner-study/resume-sets-earlier-output-aside", Fixture, NULL, fixture_set_up,
              test_resume_sets_earlier_output_aside, fixture_tear_down);
  g_test_add ("/tuner-study/resume-stops-earlier-job", Fixture, NULL, fixture_set_up,
              test_resume_stops_earlier_job, fixture_tear_down);
  return g_test_run ();
}
