/* sl-cli-tune.c: sightline-cli tune
 *
 * Runs a hyperparameter study of a tuner configuration on a target,
 * resuming the unfinished study of the same configuration and target,
 * and prints its trials and the best one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-session.h"

static void
print_message_cb (SlTunerStudy *study,
                  const char   *text,
                  gpointer      user_data)
{
  g_printerr ("sightline-cli: %s\n", text);
}

static gboolean
stop_on_signal_cb (gpointer data)
{
  sl_tuner_study_stop (data);
  return G_SOURCE_CONTINUE;
}

static void
add_params (JsonBuilder *builder,
            const char  *params)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  json_builder_set_member_name (builder, "params");
  if (json_parser_load_from_data (parser, params, -1, NULL))
    json_builder_add_value (builder, json_node_copy (json_parser_get_root (parser)));
  else
    json_builder_add_null_value (builder);
}

static void
add_trial (JsonBuilder        *builder,
           const SlTunerTrial *trial)
{
  json_builder_begin_object (builder);
  sl_cli_json_add_int (builder, "number", trial->number);
  sl_cli_json_add_string (builder, "name", trial->name);
  add_params (builder, trial->params);
  json_builder_set_member_name (builder, "value");
  if (trial->has_value)
    json_builder_add_double_value (builder, trial->value);
  else
    json_builder_add_null_value (builder);
  sl_cli_json_add_string (builder, "state", sl_tuner_trial_state_to_id (trial->state));
  sl_cli_json_add_string (builder, "reason", trial->reason);
  sl_cli_json_add_string (builder, "summary_dir", trial->summary_dir);
  json_builder_set_member_name (builder, "job_id");
  if (trial->job_id > 0)
    json_builder_add_int_value (builder, trial->job_id);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
}

static void
print_json (SlTunerStudy *study,
            GPtrArray    *trials)
{
  SlTunerConfig *config = sl_tuner_study_get_config (study);
  const SlTunerTrial *best = sl_tuner_trials_find_best (trials, sl_tuner_config_get_goal (config));
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  sl_cli_json_add_int (builder, "study", sl_tuner_study_get_id (study));
  sl_cli_json_add_string (builder, "target_name", sl_tuner_config_get_target_name (config));
  sl_cli_json_add_string (builder, "goal",
                          sl_tuner_config_get_goal (config) == SL_TUNER_GOAL_MAXIMIZE ? "maximize" : "minimize");
  json_builder_set_member_name (builder, "resumed");
  json_builder_add_boolean_value (builder, sl_tuner_study_get_resumed (study));
  json_builder_set_member_name (builder, "trials");
  json_builder_begin_array (builder);
  for (guint i = 0; i < trials->len; i++)
    add_trial (builder, g_ptr_array_index (trials, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "best");
  if (best != NULL)
    add_trial (builder, best);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  sl_cli_json_print (builder);
}

static void
print_text (SlTunerStudy *study,
            GPtrArray    *trials)
{
  SlTunerConfig *config = sl_tuner_study_get_config (study);
  const SlTunerTrial *best = sl_tuner_trials_find_best (trials, sl_tuner_config_get_goal (config));

  for (guint i = 0; i < trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (trials, i);
      g_autofree char *value = trial->has_value ? g_strdup_printf ("%.6g", trial->value) : g_strdup ("-");

      printf ("%-4u %-10s %-12s %s%s%s\n", trial->number, sl_tuner_trial_state_to_id (trial->state), value,
              trial->params, trial->reason != NULL ? "  " : "", trial->reason != NULL ? trial->reason : "");
    }
  if (best == NULL)
    printf (_("No trial gave a value.\n"));
  else
    printf (_("Best: trial %u, %s = %.6g, %s\n"), best->number, sl_tuner_config_get_target_name (config), best->value,
            best->params);
}

int
sl_cli_tune (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("CONFIG — search hyperparameters with a Gaussian process, running trials on a target"));
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTunerConfig) config = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlTunerStudy) study = NULL;
  g_autoptr(GPtrArray) trials = NULL;
  g_autofree char *target_name = NULL;
  g_autofree char *project = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *store_path = NULL;
  int iterations = 10, parallel = 1, seed = 1, initial = 0;
  gboolean json = FALSE, fresh = FALSE;
  guint sigint_id, sigterm_id;
  gboolean ok;
  const GOptionEntry entries[] = {
    { "target", 0, 0, G_OPTION_ARG_STRING, &target_name, N_("The target to run the trials on (“local” for this computer)"), N_("NAME") },
    { "iter", 0, 0, G_OPTION_ARG_INT, &iterations, N_("How many trials the study runs in all (default 10)"), N_("N") },
    { "parallel", 0, 0, G_OPTION_ARG_INT, &parallel, N_("How many trials run at once (default 1)"), N_("K") },
    { "project", 0, 0, G_OPTION_ARG_FILENAME, &project, N_("The folder uploaded and run in (default: the configuration’s folder)"), N_("DIR") },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, N_("Seed of the search’s random numbers (default 1)"), N_("N") },
    { "initial", 0, 0, G_OPTION_ARG_INT, &initial, N_("Random trials before the Gaussian process takes over"), N_("N") },
    { "new", 0, 0, G_OPTION_ARG_NONE, &fresh, N_("Start a new study instead of resuming an unfinished one"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (argc != 2 || target_name == NULL)
    {
      sl_cli_print_error (_("tune needs a CONFIG file and --target NAME"));
      return 2;
    }
  if (iterations < 1 || parallel < 1 || parallel > 64 || initial < 0)
    {
      sl_cli_print_error (_("--iter must be at least 1 and --parallel from 1 to 64"));
      return 2;
    }

  if (!(config = sl_tuner_config_new_from_file (argv[1], &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  store = sl_cli_open_store (db_path, &error);
  if (store == NULL || (target = sl_cli_find_target (store, target_name, 0, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  store_path = g_strdup (sl_workspace_store_get_path (store));
  g_clear_object (&store);

  if (project == NULL)
    project = g_path_get_dirname (argv[1]);

  study = sl_tuner_study_new (config, argv[1], target, project, store_path);
  sl_tuner_study_set_max_trials (study, iterations);
  sl_tuner_study_set_parallel (study, parallel);
  sl_tuner_study_set_seed (study, (guint32)seed);
  sl_tuner_study_set_fresh (study, fresh);
  if (initial > 0)
    sl_tuner_study_set_n_initial (study, initial);
  g_signal_connect (study, "message", G_CALLBACK (print_message_cb), NULL);

  /* Ctrl+C stops the trials and leaves a study that resumes. */
  sigint_id = g_unix_signal_add (SIGINT, stop_on_signal_cb, study);
  sigterm_id = g_unix_signal_add (SIGTERM, stop_on_signal_cb, study);
  {
    /* The trials are jobs of a session, as the Tuner page's are. */
    g_autoptr(SlWorkspace) workspace = sl_workspace_new (store_path);
    g_autoptr(SlSession) session = sl_session_new (workspace);

    ok = sl_session_run_study_sync (session, study, &error);
    sl_workspace_flush (workspace);
  }
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  if (!ok)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  trials = sl_tuner_study_dup_trials (study);
  if (json)
    print_json (study, trials);
  else
    print_text (study, trials);
  return 0;
}
