/* sl-slurm-config.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-slurm-config.h"

static guint
read_count (JsonObject *group,
            const char *key)
{
  JsonNode *node = json_object_get_member (group, key);
  gint64 value;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return 0;
  value = json_node_get_int (node);
  return value >= 1 && value <= SL_SLURM_CONFIG_MAX_COUNT ? (guint)value : 0;
}

static char *
read_text (JsonObject *group,
           const char *key)
{
  JsonNode *node = json_object_get_member (group, key);
  const char *value;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  value = json_node_get_string (node);
  return value != NULL && value[0] != '\0' ? g_strdup (value) : NULL;
}

static gboolean
read_flag (JsonObject *group,
           const char *key)
{
  JsonNode *node = json_object_get_member (group, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return FALSE;
  return json_node_get_boolean (node);
}

/**
 * sl_slurm_config_read:
 * @enabled: (out) (optional): whether the configuration is submitted to
 *   Slurm; %FALSE without a group
 *
 * Returns: (transfer full) (nullable): the options saved in @config's
 *   "slurm" group, or %NULL when it has none. They are not validated: a
 *   partition saved by hand with a bad character comes back as it is, so
 *   whoever submits it says why it cannot be.
 */
SlSlurmOptions *
sl_slurm_config_read (SlRunConfigRecord *config,
                      gboolean          *enabled)
{
  g_autoptr(JsonObject) group = NULL;
  g_autofree char *launcher = NULL;
  SlSlurmOptions *options;

  if (enabled != NULL)
    *enabled = FALSE;
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), NULL);

  if ((group = sl_run_config_record_dup_option_group (config, SL_SLURM_CONFIG_GROUP)) == NULL)
    return NULL;

  options = sl_slurm_options_new ();
  options->nodes = read_count (group, "nodes");
  options->ntasks = read_count (group, "ntasks");
  options->ntasks_per_node = read_count (group, "ntasks_per_node");
  options->devices_per_node = read_count (group, "devices_per_node");
  options->device_gres = read_text (group, "gres");
  options->device_env = read_text (group, "device_env");
  options->partition = read_text (group, "partition");
  options->time_limit = read_text (group, "time");
  options->account = read_text (group, "account");
  options->per_task_logs = read_flag (group, "per_task_logs");
  launcher = read_text (group, "launcher");
  if (!sl_slurm_launcher_from_id (launcher, &options->launcher))
    options->launcher = SL_SLURM_LAUNCHER_SRUN;
  if (enabled != NULL)
    *enabled = read_flag (group, "enabled");
  return options;
}

static void
set_count (JsonObject *group,
           const char *key,
           guint       value)
{
  if (value > 0)
    json_object_set_int_member (group, key, value);
}

static void
set_text (JsonObject *group,
          const char *key,
          const char *value)
{
  if (value != NULL && value[0] != '\0')
    json_object_set_string_member (group, key, value);
}

static gboolean
same_group (JsonObject *a,
            JsonObject *b)
{
  g_autoptr(JsonNode) node_a = json_node_init_object (json_node_alloc (), a);
  g_autoptr(JsonNode) node_b = json_node_init_object (json_node_alloc (), b);

  return json_node_equal (node_a, node_b);
}

/**
 * sl_slurm_config_write:
 * @options: (nullable): the options to keep; %NULL keeps the ones saved
 *   (a job started directly with fields that did not parse)
 * @enabled: whether the next run starts through Slurm
 *
 * Replaces @config's "slurm" group, keeping its other groups.
 *
 * Returns: %TRUE when the group changed, so the configuration needs
 *   saving
 */
gboolean
sl_slurm_config_write (SlRunConfigRecord    *config,
                       const SlSlurmOptions *options,
                       gboolean              enabled)
{
  g_autoptr(JsonObject) old = NULL;
  g_autoptr(JsonObject) group = NULL;
  g_autoptr(SlSlurmOptions) kept = NULL;

  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), FALSE);

  old = sl_run_config_record_dup_option_group (config, SL_SLURM_CONFIG_GROUP);
  if (options == NULL)
    options = kept = sl_slurm_config_read (config, NULL);
  if (options == NULL)
    options = kept = sl_slurm_options_new ();

  group = json_object_new ();
  json_object_set_boolean_member (group, "enabled", enabled);
  set_count (group, "nodes", options->nodes);
  set_count (group, "ntasks", options->ntasks);
  set_count (group, "ntasks_per_node", options->ntasks_per_node);
  set_count (group, "devices_per_node", options->devices_per_node);
  set_text (group, "gres", options->device_gres);
  set_text (group, "device_env", options->device_env);
  set_text (group, "partition", options->partition);
  set_text (group, "time", options->time_limit);
  set_text (group, "account", options->account);
  if (options->launcher <= SL_SLURM_LAUNCHER_NONE)
    set_text (group, "launcher", sl_slurm_launcher_to_id (options->launcher));
  json_object_set_boolean_member (group, "per_task_logs", options->per_task_logs);

  if (old != NULL && same_group (old, group))
    return FALSE;
  sl_run_config_record_set_option_group (config, SL_SLURM_CONFIG_GROUP, group);
  return TRUE;
}

/**
 * sl_slurm_config_dup_summary:
 * @options: (nullable): the saved options
 *
 * Returns: (transfer full): one line for a list row, such as "Through
 *   Slurm: 2 nodes, 16 tasks, partition ascend, 2:00:00, msrun"
 */
char *
sl_slurm_config_dup_summary (const SlSlurmOptions *options,
                             gboolean              enabled)
{
  g_autoptr(GString) parts = g_string_new (NULL);

  if (!enabled || options == NULL)
    return g_strdup (_("Started directly"));

  if (options->nodes > 0)
    /* TRANSLATORS: a part of the Slurm summary of a run configuration */
    g_string_append_printf (parts, g_dngettext (GETTEXT_PACKAGE, "%u node", "%u nodes", options->nodes), options->nodes);
  if (options->ntasks > 0)
    {
      if (parts->len > 0)
        g_string_append (parts, ", ");
      g_string_append_printf (parts, g_dngettext (GETTEXT_PACKAGE, "%u task", "%u tasks", options->ntasks), options->ntasks);
    }
  if (options->ntasks_per_node > 0)
    {
      if (parts->len > 0)
        g_string_append (parts, ", ");
      g_string_append_printf (parts, _("%u per node"), options->ntasks_per_node);
    }
  if (options->partition != NULL)
    {
      if (parts->len > 0)
        g_string_append (parts, ", ");
      g_string_append_printf (parts, _("partition %s"), options->partition);
    }
  if (options->time_limit != NULL)
    g_string_append_printf (parts, "%s%s", parts->len > 0 ? ", " : "", options->time_limit);
  if (options->account != NULL)
    {
      if (parts->len > 0)
        g_string_append (parts, ", ");
      g_string_append_printf (parts, _("account %s"), options->account);
    }
  if (options->launcher <= SL_SLURM_LAUNCHER_NONE)
    g_string_append_printf (parts, "%s%s", parts->len > 0 ? ", " : "", sl_slurm_launcher_to_id (options->launcher));
  if (options->per_task_logs)
    g_string_append_printf (parts, ", %s", _("a log per task"));

  /* TRANSLATORS: %s lists the Slurm options, such as "2 nodes, 16 tasks, srun" */
  return g_strdup_printf (_("Through Slurm: %s"), parts->str);
}
