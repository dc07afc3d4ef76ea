/* sl-run-config-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-run-config-record.h"

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
};

G_DEFINE_FINAL_TYPE (SlRunConfigRecord, sl_run_config_record, G_TYPE_OBJECT)

/* The ids are what the database stores; they never change once released. */
static const char * const kind_ids[] = {
  [SL_RUN_CONFIG_KIND_TRAIN] = "train",
  [SL_RUN_CONFIG_KIND_PROFILE] = "profile",
  [SL_RUN_CONFIG_KIND_INFER] = "infer",
  [SL_RUN_CONFIG_KIND_CONVERT] = "convert",
};

static void
replace_string (char       **field,
                const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
}

/* Lists are never NULL, so callers can walk them without a check. */
static void
replace_strv (char               ***field,
              const char * const   *value)
{
  char **copy = value != NULL ? g_strdupv ((char **)value) : g_new0 (char *, 1);

  g_strfreev (*field);
  *field = copy;
}

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

  g_return_val_if_fail (kind <= SL_RUN_CONFIG_KIND_CONVERT, NULL);
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
  g_return_if_fail (kind <= SL_RUN_CONFIG_KIND_CONVERT);
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
  replace_string (&self->name, name);
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
  replace_string (&self->command, command);
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
  replace_strv (&self->arguments, arguments);
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
  replace_strv (&self->environment, environment);
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
  replace_string (&self->working_folder, folder);
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
  replace_strv (&self->pull_folders, folders);
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
