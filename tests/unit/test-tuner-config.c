/* test-tuner-config.c: the tuner's YAML configuration, read and written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-tuner-config.h"

static const char seed_example[] =
  "command: python3 train.py          # the trial program\n"
  "summary_base_dir: /home/summaries\n"
  "tuner: {name: gp, args: {method: ucb}}\n"
  "target: {group: metric, name: Accuracy, goal: maximize}\n"
  "parameters:\n"
  "  learning_rate: {bounds: [0.00001, 0.001], type: float}\n"
  "  batch_size: {choice: [32, 64, 128, 256], type: int}\n"
  "  momentum: {source: user_defined, choice: [0.8, 0.9], type: float}\n";

static SlTunerConfig *
parse (const char  *text,
       GError     **error)
{
  return sl_tuner_config_new_from_data ("tune.yaml", text, strlen (text), error);
}

static void
test_seed_example (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTunerConfig) config = parse (seed_example, &error);
  const SlTunerParameter *p;

  g_assert_no_error (error);
  g_assert_cmpstr (sl_tuner_config_get_command (config), ==, "python3 train.py");
  g_assert_cmpstr (sl_tuner_config_get_summary_base_dir (config), ==, "/home/summaries");
  g_assert_cmpint (sl_tuner_config_get_method (config), ==, SL_TUNER_METHOD_UCB);
  g_assert_cmpfloat (sl_tuner_config_get_kappa (config), ==, 2.576);
  g_assert_cmpstr (sl_tuner_config_get_target_name (config), ==, "Accuracy");
  g_assert_cmpint (sl_tuner_config_get_target_group (config), ==, SL_TUNER_GROUP_METRIC);
  g_assert_cmpint (sl_tuner_config_get_goal (config), ==, SL_TUNER_GOAL_MAXIMIZE);
  g_assert_cmpuint (sl_tuner_config_get_n_parameters (config), ==, 3);

  p = sl_tuner_config_get_parameter (config, 0);
  g_assert_cmpstr (p->name, ==, "learning_rate");
  g_assert_true (p->has_bounds);
  g_assert_cmpfloat (p->low, ==, 0.00001);
  g_assert_cmpfloat (p->high, ==, 0.001);
  g_assert_cmpint (p->type, ==, SL_TUNER_PARAM_FLOAT);
  g_assert_cmpint (p->source, ==, SL_TUNER_SOURCE_SYSTEM_DEFINED);
  g_assert_cmpint (p->decimal, ==, -1);

  p = sl_tuner_config_get_parameter (config, 1);
  g_assert_cmpstr (p->name, ==, "batch_size");
  g_assert_false (p->has_bounds);
  g_assert_cmpuint (p->n_choices, ==, 4);
  g_assert_cmpfloat (p->choices[3], ==, 256);
  g_assert_cmpint (p->type, ==, SL_TUNER_PARAM_INT);

  p = sl_tuner_config_get_parameter (config, 2);
  g_assert_cmpstr (p->name, ==, "momentum");
  g_assert_cmpint (p->source, ==, SL_TUNER_SOURCE_USER_DEFINED);
  g_assert_cmpfloat (p->choices[0], ==, 0.8);
}

static void
test_every_field (void)
{
  static const char text[] =
    "command: ./train --fast\n"
    "summary_base_dir: summaries\n"
    "tuner:\n"
    "  name: gp\n"
    "  args:\n"
    "    method: log_ei\n"
    "    kappa: 1.5\n"
    "    xi: 0.01\n"
    "target:\n"
    "  group: system_defined\n"
    "  name: loss\n"
    "  goal: minimize\n"
    "parameters:\n"
    "  epoch: {bounds: [1, 20], type: int}\n"
    "  dropout: {bounds: [0, 0.5], decimal: 2}\n"
    "  optimizer: {choice: [sgd, adam, \"1\"]}\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTunerConfig) config = parse (text, &error);
  const SlTunerParameter *p;

  g_assert_no_error (error);
  g_assert_cmpint (sl_tuner_config_get_method (config), ==, SL_TUNER_METHOD_LOG_EI);
  g_assert_cmpfloat (sl_tuner_config_get_kappa (config), ==, 1.5);
  g_assert_cmpfloat (sl_tuner_config_get_xi (config), ==, 0.01);
  g_assert_cmpint (sl_tuner_config_get_target_group (config), ==, SL_TUNER_GROUP_SYSTEM_DEFINED);
  g_assert_cmpint (sl_tuner_config_get_goal (config), ==, SL_TUNER_GOAL_MINIMIZE);

  p = sl_tuner_config_get_parameter (config, 0);
  g_assert_cmpint (p->type, ==, SL_TUNER_PARAM_INT);
  g_assert_cmpint (p->source, ==, SL_TUNER_SOURCE_SYSTEM_DEFINED);
  p = sl_tuner_config_get_parameter (config, 1);
  g_assert_cmpint (p->type, ==, SL_TUNER_PARAM_FLOAT);
  g_assert_cmpint (p->decimal, ==, 2);
  p = sl_tuner_config_get_parameter (config, 2);
  g_assert_cmpint (p->type, ==, SL_TUNER_PARAM_STRING);
  g_assert_cmpuint (p->n_choices, ==, 3);
  g_assert_cmpstr (p->choice_labels[1], ==, "adam");
  g_assert_cmpstr (p->choice_labels[2], ==, "1");
}

/* Each bad file and the line:column and words its message must hold. */
static void
test_errors (void)
{
  static const struct {
    const char *text;
    const char *expected[3];
  } cases[] = {
    { "", { "tune.yaml:1:1: the file is empty", NULL } },
    { "- a\n- b\n", { "tune.yaml:1:1: expected a mapping for the configuration, found a list", NULL } },
    { "command: [a\n", { "tune.yaml:2:1:", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a}\n",
      { "tune.yaml:1:1: The configuration has no “parameters”", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a, goal: up}\nparameters: {a: {bounds: [0, 1]}}\n",
      { "tune.yaml:3:25: unknown goal “up”: expected maximize or minimize", NULL } },
    { "command: x\nsummary_base_dir: s\ntuner: {name: tpe, args: {method: qq}}\ntarget: {name: a}\n"
      "parameters: {a: {bounds: [0, 1]}}\n",
      { "tune.yaml:3:15: unknown tuner “tpe”: expected gp", "tune.yaml:3:35: unknown method “qq”", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a}\nparameters:\n  lr: {bounds: [1, 0.5]}\n",
      { "tune.yaml:5:16: expected the lower bound below the upper one", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a}\nparameters:\n  lr: {bounds: [a, 1]}\n",
      { "tune.yaml:5:17: expected a number for “bounds”, found “a”", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a}\nparameters:\n  lr: {bounds: [0, 1], choice: [1]}\n",
      { "tune.yaml:5:24: parameter “lr” has both “bounds” and “choice”", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a}\nparameters:\n  bs: {choice: [1, 2.5], type: int}\n",
      { "tune.yaml:5:32: parameter “bs” has type int: expected whole numbers", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a}\nparameters:\n  m: {choice: [1], source: system_defined}\n",
      { "tune.yaml:5:28: “m” is not recorded by MindSpore itself", NULL } },
    { "command: x\ncommand: y\nsummary_base_dir: s\ntarget: {name: a}\nparameters: {a: {bounds: [0, 1]}}\nextra: 1\n",
      { "tune.yaml:2:1: “command” appears twice", "tune.yaml:6:1: unknown key “extra”", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a}\nparameters: {a: {bounds: [0, 1], type: double}}\n",
      { "tune.yaml:4:40: unknown type “double”: expected int or float", NULL } },
    { "command: x\nsummary_base_dir: s\ntarget: {name: a}\nparameters: {a: {choice: []}}\n",
      { "tune.yaml:4:26: expected “choice” as a list of at least one value, found an empty list", NULL } },
    { "command: x\nsummary_base_dir: \"\"\ntarget: {group: metric}\nparameters: {}\n",
      { "tune.yaml:2:19: expected text for “summary_base_dir”, found an empty value",
        "tune.yaml:3:9: The target has no “name”", "tune.yaml:4:13: expected at least one parameter" } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SlTunerConfig) config = parse (cases[i].text, &error);

      g_test_message ("case %u: %s", i, error != NULL ? error->message : "(no error)");
      g_assert_null (config);
      g_assert_nonnull (error);
      for (guint j = 0; j < G_N_ELEMENTS (cases[i].expected) && cases[i].expected[j] != NULL; j++)
        g_assert_nonnull (strstr (error->message, cases[i].expected[j]));
    }
}

static void
test_round_trip (void)
{
  g_autoptr(SlTunerConfig) config = sl_tuner_config_new ();
  g_autoptr(SlTunerConfig) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *yaml = NULL;
  g_autofree char *again = NULL;
  const double sizes[] = { 16, 32 };
  const char * const labels[] = { "sgd", "two words: yes", "true", NULL };

  sl_tuner_config_set_command (config, "sh -c 'echo \"hi\"' # not a comment");
  sl_tuner_config_set_summary_base_dir (config, "./summaries");
  sl_tuner_config_set_method (config, SL_TUNER_METHOD_EI);
  sl_tuner_config_set_target (config, SL_TUNER_GROUP_METRIC, "Accuracy", SL_TUNER_GOAL_MINIMIZE);
  sl_tuner_config_add_bounds (config, "learning_rate", SL_TUNER_PARAM_FLOAT, 1e-5, 0.1, 6);
  sl_tuner_config_add_choices (config, "batch_size", SL_TUNER_PARAM_INT, sizes, NULL, 2);
  sl_tuner_config_add_choices (config, "optimizer", SL_TUNER_PARAM_STRING, NULL, labels, 3);
  g_assert_true (sl_tuner_config_validate (config, &error));
  g_assert_no_error (error);

  yaml = sl_tuner_config_to_yaml (config);
  back = parse (yaml, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_tuner_config_get_command (back), ==, sl_tuner_config_get_command (config));
  g_assert_cmpstr (sl_tuner_config_get_summary_base_dir (back), ==, "./summaries");
  g_assert_cmpint (sl_tuner_config_get_method (back), ==, SL_TUNER_METHOD_EI);
  g_assert_cmpint (sl_tuner_config_get_goal (back), ==, SL_TUNER_GOAL_MINIMIZE);
  g_assert_cmpuint (sl_tuner_config_get_n_parameters (back), ==, 3);
  g_assert_cmpfloat (sl_tuner_config_get_parameter (back, 0)->low, ==, 1e-5);
  g_assert_cmpint (sl_tuner_config_get_parameter (back, 0)->decimal, ==, 6);
  g_assert_cmpint (sl_tuner_config_get_parameter (back, 1)->type, ==, SL_TUNER_PARAM_INT);
  g_assert_cmpstr (sl_tuner_config_get_parameter (back, 2)->choice_labels[1], ==, "two words: yes");
  g_assert_cmpstr (sl_tuner_config_get_parameter (back, 2)->choice_labels[2], ==, "true");

  /* Writing what was read gives the same text. */
  again = sl_tuner_config_to_yaml (back);
  g_assert_cmpstr (again, ==, yaml);
}

static void
test_validate_refuses (void)
{
  g_autoptr(SlTunerConfig) config = sl_tuner_config_new ();
  g_autoptr(GError) error = NULL;

  sl_tuner_config_set_command (config, "train");
  sl_tuner_config_set_summary_base_dir (config, "s");
  sl_tuner_config_set_target (config, SL_TUNER_GROUP_METRIC, "acc", SL_TUNER_GOAL_MAXIMIZE);
  g_assert_false (sl_tuner_config_validate (config, &error));
  g_assert_error (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_INVALID);
  g_clear_error (&error);

  sl_tuner_config_add_bounds (config, "lr", SL_TUNER_PARAM_FLOAT, 1, 1, -1);
  g_assert_false (sl_tuner_config_validate (config, &error));
  g_assert_nonnull (strstr (error->message, "lower bound"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tuner-config/seed-example", test_seed_example);
  g_test_add_func ("/tuner-config/every-field", test_every_field);
  g_test_add_func ("/tuner-config/errors", test_errors);
  g_test_add_func ("/tuner-config/round-trip", test_round_trip);
  g_test_add_func ("/tuner-config/validate-refuses", test_validate_refuses);
  return g_test_run ();
}
