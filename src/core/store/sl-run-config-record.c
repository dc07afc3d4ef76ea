/* sl-run-config-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-run-config-record.h"

#include "sl-record-fields.h"

struct _SlRunConfigRecord
{
  GObject          parent_instance;
  gint64           id;
  SlRunConfigKind  kind;
  char            *name;
  char            *command;
  char           **arguments;
  char           **environment;
  char            *working_folder;
  char           **pull_folders;
  char            *options;        /* a JSON object's text, never NULL */
};

G_DEFINE_FINAL_TYPE (SlRunConfigRecord, sl_run_config_record, G_TYPE_OBJECT)

/* The ids are what the database stores; they never change once released. */
static const char * const kind_ids[] = {
  [SL_RUN_CONFIG_KIND_TRAIN] = "train",
  [SL_RUN_CONFIG_KIND_PROFILE] = "profile",
  [SL_RUN_CONFIG_KIND_INFER] = "infer",
  [SL_RUN_CONFIG_KIND_CONVERT] = "convert",
  [SL_RUN_CONFIG_KIND_MINDX] = "mindx",
};

static void
sl_run_config_record_finalize (GObject *object)
{
  SlRunConfigRecord *self = (SlRunConfigRecord *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->arguments, g_strfreev);
  g_clear_pointer (&self->environment, g_strfreev);
  g_clear_pointer (&self->working_folder, g_free);
  g_clear_pointer (&self->pull_folders, g_strfreev);
  g_clear_pointer (&self->options, g_free);

  G_OBJECT_CLASS (sl_run_config_record_parent_class)->finalize (object);
}

static void
sl_run_config_record_class_init (SlRunConfigRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_run_config_record_finalize;
}

static void
sl_run_config_record_init (SlRunConfigRecord *self)
{
  self->arguments = g_new0 (char *, 1);
  self->environment = g_new0 (char *, 1);
  self->pull_folders = g_new0 (char *, 1);
  self->options = g_strdup ("{}");
}

/**
 * sl_run_config_record_new:
 * @command: the program to run, such as `python3` or `msprof`
 *
 * Returns: (transfer full): a run configuration that is not stored yet
 */
SlRunConfigRecord *
sl_run_config_record_new (SlRunConfigKind  kind,
                          const char      *name,
                          const char      *command)
{
  SlRunConfigRecord *self;

  g_return_val_if_fail (kind <= SL_RUN_CONFIG_KIND_LAST, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (command != NULL, NULL);

  self = g_object_new (SL_TYPE_RUN_CONFIG_RECORD, NULL);
  self->kind = kind;
  self->name = g_strdup (name);
  self->command = g_strdup (command);

  return self;
}

gint64
sl_run_config_record_get_id (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), 0);
  return self->id;
}

void
sl_run_config_record_set_id (SlRunConfigRecord *self,
                             gint64             id)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  self->id = id;
}

SlRunConfigKind
sl_run_config_record_get_kind (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), SL_RUN_CONFIG_KIND_TRAIN);
  return self->kind;
}

void
sl_run_config_record_set_kind (SlRunConfigRecord *self,
                               SlRunConfigKind    kind)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  g_return_if_fail (kind <= SL_RUN_CONFIG_KIND_LAST);
  self->kind = kind;
}

const char *
sl_run_config_record_get_name (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), NULL);
  return self->name;
}

void
sl_run_config_record_set_name (SlRunConfigRecord *self,
                               const char        *name)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  g_return_if_fail (name != NULL);
  sl_record_replace_string (&self->name, name);
}

const char *
sl_run_config_record_get_command (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), NULL);
  return self->command;
}

void
sl_run_config_record_set_command (SlRunConfigRecord *self,
                                  const char        *command)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  g_return_if_fail (command != NULL);
  sl_record_replace_string (&self->command, command);
}

/**
 * sl_run_config_record_get_arguments:
 *
 * Returns: (transfer none): the arguments after the command, never %NULL
 */
const char * const *
sl_run_config_record_get_arguments (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), NULL);
  return (const char * const *)self->arguments;
}

void
sl_run_config_record_set_arguments (SlRunConfigRecord  *self,
                                    const char * const *arguments)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  sl_record_replace_strv (&self->arguments, arguments);
}

/**
 * sl_run_config_record_get_environment:
 *
 * Returns: (transfer none): `NAME=value` entries, never %NULL
 */
const char * const *
sl_run_config_record_get_environment (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), NULL);
  return (const char * const *)self->environment;
}

void
sl_run_config_record_set_environment (SlRunConfigRecord  *self,
                                      const char * const *environment)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  sl_record_replace_strv (&self->environment, environment);
}

const char *
sl_run_config_record_get_working_folder (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), NULL);
  return self->working_folder;
}

/**
 * sl_run_config_record_set_working_folder:
 * @folder: (nullable): relative to the project's remote folder, or %NULL
 *   for the remote folder itself
 */
void
sl_run_config_record_set_working_folder (SlRunConfigRecord *self,
                                         const char        *folder)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  sl_record_replace_string (&self->working_folder, folder);
}

/**
 * sl_run_config_record_get_pull_folders:
 *
 * Returns: (transfer none): output folders copied back after a run,
 *   never %NULL
 */
const char * const *
sl_run_config_record_get_pull_folders (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), NULL);
  return (const char * const *)self->pull_folders;
}

void
sl_run_config_record_set_pull_folders (SlRunConfigRecord  *self,
                                       const char * const *folders)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  sl_record_replace_strv (&self->pull_folders, folders);
}

/**
 * sl_run_config_record_get_options:
 *
 * Returns: (transfer none): the options as the text of a JSON object,
 *   `{}` when there are none; never %NULL
 */
const char *
sl_run_config_record_get_options (SlRunConfigRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), NULL);
  return self->options;
}

/**
 * sl_run_config_record_set_options:
 * @options: (nullable): the text of a JSON object, or %NULL for none
 *
 * The text is kept as it is, even when it does not parse, so a database
 * written by a newer version keeps its settings when this one saves it.
 */
void
sl_run_config_record_set_options (SlRunConfigRecord *self,
                                  const char        *options)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  sl_record_replace_string (&self->options, options != NULL && options[0] != '\0' ? options : "{}");
}

static JsonObject *
parse_options (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, -1, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  return json_object_ref (json_node_get_object (root));
}

/**
 * sl_run_config_record_dup_option_group:
 * @group: the group's name, such as `slurm`
 *
 * Returns: (transfer full) (nullable): a copy of the group's object, or
 *   %NULL when the configuration has no such group (or its options do not
 *   parse)
 */
JsonObject *
sl_run_config_record_dup_option_group (SlRunConfigRecord *self,
                                       const char        *group)
{
  g_autoptr(JsonObject) options = NULL;
  JsonNode *node;

  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (self), NULL);
  g_return_val_if_fail (group != NULL, NULL);

  if ((options = parse_options (self->options)) == NULL)
    return NULL;
  node = json_object_get_member (options, group);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_ref (json_node_get_object (node));
}

/**
 * sl_run_config_record_set_option_group:
 * @group: the group's name, such as `slurm`
 * @values: (nullable): the group's settings, or %NULL to remove the group
 *
 * Replaces one group and keeps the others. When the options held text
 * that does not parse, it is replaced: the caller is saving settings the
 * user chose just now.
 */
void
sl_run_config_record_set_option_group (SlRunConfigRecord *self,
                                       const char        *group,
                                       JsonObject        *values)
{
  g_autoptr(JsonObject) options = NULL;
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (self));
  g_return_if_fail (group != NULL);

  if ((options = parse_options (self->options)) == NULL)
    options = json_object_new ();
  if (values != NULL)
    json_object_set_object_member (options, group, json_object_ref (values));
  else if (json_object_has_member (options, group))
    json_object_remove_member (options, group);

  json_node_set_object (root, options);
  json_generator_set_root (generator, root);
  g_free (self->options);
  self->options = json_generator_to_data (generator, NULL);
}

const char *
sl_run_config_kind_to_id (SlRunConfigKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (kind_ids), NULL);
  return kind_ids[kind];
}

gboolean
sl_run_config_kind_from_id (const char      *id,
                            SlRunConfigKind *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (kind_ids); i++)
    {
      if (g_str_equal (id, kind_ids[i]))
        {
          *kind = (SlRunConfigKind)i;
          return TRUE;
        }
    }

  return FALSE;
}
