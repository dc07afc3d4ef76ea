/* sl-profile-settings.c
 *
 * The options are kept as msprof names them, so a configuration reads
 * the same as the profile-run command line it stands for, and an option
 * the builder learns later needs no new key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-profile-settings.h"
#include "sl-shell-quote.h"

static const char * const profiler_ids[] = {
  [SL_PROFILER_MSPROF] = "msprof",
  [SL_PROFILER_MINDSPORE] = "mindspore",
  [SL_PROFILER_TORCH_NPU] = "torch_npu",
};

const char *
sl_profiler_kind_to_id (SlProfilerKind kind)
{
  g_return_val_if_fail ((guint)kind < G_N_ELEMENTS (profiler_ids), NULL);
  return profiler_ids[kind];
}

gboolean
sl_profiler_kind_from_id (const char     *id,
                          SlProfilerKind *kind)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (profiler_ids); i++)
    if (g_str_equal (profiler_ids[i], id))
      {
        *kind = (SlProfilerKind)i;
        return TRUE;
      }
  return FALSE;
}

static gboolean
is_blank (const char *text)
{
  while (text != NULL && g_ascii_isspace (*text))
    text++;
  return text == NULL || *text == '\0';
}

/* The command is a command line of its own ("python train.py"), as the
 * Run dialog runs it; one that does not parse is taken as one word. */
static void
add_command_words (GStrvBuilder *builder,
                   const char   *command)
{
  g_auto(GStrv) words = NULL;

  if (g_shell_parse_argv (command, NULL, &words, NULL))
    g_strv_builder_addv (builder, (const char **)words);
  else
    g_strv_builder_add (builder, command);
}

GStrv
sl_profile_settings_dup_program (SlRunConfigRecord *config)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  const char *command;
  const char * const *env;
  const char * const *args;

  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), NULL);

  command = sl_run_config_record_get_command (config);
  if (is_blank (command))
    return NULL;
  env = sl_run_config_record_get_environment (config);
  args = sl_run_config_record_get_arguments (config);
  builder = g_strv_builder_new ();
  if (env != NULL && env[0] != NULL)
    {
      g_strv_builder_add (builder, "env");
      g_strv_builder_addv (builder, (const char **)env);
    }
  add_command_words (builder, command);
  if (args != NULL)
    g_strv_builder_addv (builder, (const char **)args);
  return g_strv_builder_end (builder);
}

/* NAME=VALUE with NAME as a shell variable is named. */
static gboolean
is_assignment (const char *word)
{
  const char *c = word;

  if (!g_ascii_isalpha (*c) && *c != '_')
    return FALSE;
  while (g_ascii_isalnum (*c) || *c == '_')
    c++;
  return *c == '=';
}

/* The command as a command line of one word; quoted only when it needs
 * to be, so it reads as typed. */
static char *
dup_command_word (const char *word)
{
  for (const char *c = word; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && strchr ("_./:=+@%,-", *c) == NULL)
      return sl_shell_quote (word);
  return g_strdup (word);
}

/**
 * sl_profile_settings_join_argv:
 *
 * Returns: @argv as one command line, each word quoted only when the
 *   shell would otherwise split or change it
 */
char *
sl_profile_settings_join_argv (const char * const *argv)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    {
      g_autofree char *word = argv[i][0] != '\0' ? dup_command_word (argv[i]) : g_strdup ("''");

      if (i > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, word);
    }
  return g_string_free (line, FALSE);
}

void
sl_profile_settings_set_program (SlRunConfigRecord  *config,
                                 const char * const *argv)
{
  g_autoptr(GStrvBuilder) env = g_strv_builder_new ();
  g_auto(GStrv) environment = NULL;
  g_autofree char *command = NULL;
  guint i = 0;

  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (config));

  if (argv != NULL && argv[0] != NULL && g_str_equal (argv[0], "env"))
    for (i = 1; argv[i] != NULL && is_assignment (argv[i]); i++)
      g_strv_builder_add (env, argv[i]);
  /* "env" with nothing after its settings is the program itself. */
  if (argv == NULL || argv[i] == NULL)
    i = 0;
  environment = i > 0 ? g_strv_builder_end (env) : NULL;
  command = argv != NULL && argv[i] != NULL ? dup_command_word (argv[i]) : g_strdup ("");
  sl_run_config_record_set_environment (config, (const char * const *)environment);
  sl_run_config_record_set_command (config, command);
  sl_run_config_record_set_arguments (config, argv != NULL && argv[i] != NULL ? argv + i + 1 : NULL);
}

/* A member's text, or NULL when it is missing, empty or not a string. */
static const char *
get_string_member (JsonObject *group,
                   const char *name)
{
  JsonNode *node = group ? json_object_get_member (group, name) : NULL;
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  text = json_node_get_string (node);
  return text != NULL && text[0] != '\0' ? text : NULL;
}

static void
add_problem (GPtrArray  **problems,
             char        *text)
{
  if (problems == NULL)
    {
      g_free (text);
      return;
    }
  if (*problems == NULL)
    *problems = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (*problems, text);
}

/* Each option on its own, so one that msprof would refuse leaves the
 * others as they were saved. */
static void
apply_options (SlMsprofCommand  *command,
               JsonObject       *options,
               GPtrArray       **problems)
{
  g_autoptr(GList) names = json_object_get_members (options);

  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      const char *value = get_string_member (options, name);
      g_autoptr(GError) error = NULL;

      if (value == NULL)
        add_problem (problems, g_strdup_printf (_("The profile option “%s” has no text value; it was left out"), name));
      else if (!sl_msprof_command_apply_option (command, name, value, &error))
        /* TRANSLATORS: %s says what is wrong with the option */
        add_problem (problems, g_strdup_printf (_("%s; the option was left out"), error->message));
    }
}

SlMsprofCommand *
sl_profile_settings_load (SlRunConfigRecord  *config,
                          char              **env_script,
                          GPtrArray         **problems)
{
  g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
  g_autoptr(JsonObject) group = NULL;
  g_auto(GStrv) program = NULL;
  JsonNode *options;
  const char *framework;
  SlProfilerKind kind = SL_PROFILER_MSPROF;

  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), NULL);

  program = sl_profile_settings_dup_program (config);
  sl_msprof_command_set_program (command, (const char * const *)program);
  group = sl_run_config_record_dup_option_group (config, SL_PROFILE_OPTION_GROUP);
  framework = get_string_member (group, "framework");
  if (framework != NULL && !sl_profiler_kind_from_id (framework, &kind))
    add_problem (problems, g_strdup_printf (_("The profiler “%s” is not known; msprof is used"), framework));
  sl_msprof_command_set_kind (command, kind);
  sl_msprof_command_set_output (command, get_string_member (group, "output"));
  options = group ? json_object_get_member (group, "options") : NULL;
  if (options != NULL && JSON_NODE_HOLDS_OBJECT (options))
    apply_options (command, json_node_get_object (options), problems);
  else if (options != NULL)
    add_problem (problems, g_strdup (_("The profile options are not a JSON object; msprof’s defaults are used")));
  if (env_script != NULL)
    *env_script = g_strdup (get_string_member (group, "env-script"));
  return g_steal_pointer (&command);
}

void
sl_profile_settings_store (SlMsprofCommand   *command,
                           const char        *env_script,
                           SlRunConfigRecord *config)
{
  g_autoptr(JsonObject) group = json_object_new ();
  JsonObject *options = json_object_new ();
  g_auto(GStrv) set = NULL;
  const char *output;

  g_return_if_fail (SL_IS_MSPROF_COMMAND (command));
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (config));

  json_object_set_string_member (group, "framework", sl_profiler_kind_to_id (sl_msprof_command_get_kind (command)));
  if (env_script != NULL && env_script[0] != '\0')
    json_object_set_string_member (group, "env-script", env_script);
  if ((output = sl_msprof_command_get_output (command)) != NULL)
    json_object_set_string_member (group, "output", output);
  set = sl_msprof_command_dup_options (command);
  for (guint i = 0; set[i] != NULL; i++)
    {
      /* "--NAME=VALUE", as dup_options gives them. */
      const char *name = set[i] + 2;
      const char *equals = strchr (name, '=');
      g_autofree char *key = equals ? g_strndup (name, (gsize)(equals - name)) : NULL;

      if (key != NULL)
        json_object_set_string_member (options, key, equals + 1);
    }
  json_object_set_object_member (group, "options", options);
  sl_run_config_record_set_option_group (config, SL_PROFILE_OPTION_GROUP, group);
}
