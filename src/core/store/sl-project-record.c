/* sl-project-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-project-record.h"

#include "sl-record-fields.h"

struct _SlProjectRecord
{
  GObject     parent_instance;
  gint64      id;
  gint64      target_id;
  char       *name;
  char       *local_folder;
  char       *remote_folder;
  char      **upload_excludes;
  GPtrArray  *run_configs;
};

G_DEFINE_FINAL_TYPE (SlProjectRecord, sl_project_record, G_TYPE_OBJECT)

static void
sl_project_record_finalize (GObject *object)
{
  SlProjectRecord *self = (SlProjectRecord *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->local_folder, g_free);
  g_clear_pointer (&self->remote_folder, g_free);
  g_clear_pointer (&self->upload_excludes, g_strfreev);
  g_clear_pointer (&self->run_configs, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_project_record_parent_class)->finalize (object);
}

static void
sl_project_record_class_init (SlProjectRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_project_record_finalize;
}

static void
sl_project_record_init (SlProjectRecord *self)
{
  self->upload_excludes = g_new0 (char *, 1);
  self->run_configs = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * sl_project_record_new:
 * @name: the name shown to the user, unique in a workspace
 * @local_folder: the project's folder on this computer
 *
 * Returns: (transfer full): a project that is not stored yet
 */
SlProjectRecord *
sl_project_record_new (const char *name,
                       const char *local_folder)
{
  SlProjectRecord *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (local_folder != NULL, NULL);

  self = g_object_new (SL_TYPE_PROJECT_RECORD, NULL);
  self->name = g_strdup (name);
  self->local_folder = g_strdup (local_folder);

  return self;
}

gint64
sl_project_record_get_id (SlProjectRecord *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (self), 0);
  return self->id;
}

void
sl_project_record_set_id (SlProjectRecord *self,
                          gint64           id)
{
  g_return_if_fail (SL_IS_PROJECT_RECORD (self));
  self->id = id;
}

const char *
sl_project_record_get_name (SlProjectRecord *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (self), NULL);
  return self->name;
}

void
sl_project_record_set_name (SlProjectRecord *self,
                            const char      *name)
{
  g_return_if_fail (SL_IS_PROJECT_RECORD (self));
  g_return_if_fail (name != NULL);
  sl_record_replace_string (&self->name, name);
}

const char *
sl_project_record_get_local_folder (SlProjectRecord *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (self), NULL);
  return self->local_folder;
}

void
sl_project_record_set_local_folder (SlProjectRecord *self,
                                    const char      *folder)
{
  g_return_if_fail (SL_IS_PROJECT_RECORD (self));
  g_return_if_fail (folder != NULL);
  sl_record_replace_string (&self->local_folder, folder);
}

/**
 * sl_project_record_get_target_id:
 *
 * Returns: the id of the target the project runs on, or 0 for none
 */
gint64
sl_project_record_get_target_id (SlProjectRecord *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (self), 0);
  return self->target_id;
}

void
sl_project_record_set_target_id (SlProjectRecord *self,
                                 gint64           target_id)
{
  g_return_if_fail (SL_IS_PROJECT_RECORD (self));
  g_return_if_fail (target_id >= 0);
  self->target_id = target_id;
}

const char *
sl_project_record_get_remote_folder (SlProjectRecord *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (self), NULL);
  return self->remote_folder;
}

void
sl_project_record_set_remote_folder (SlProjectRecord *self,
                                     const char      *folder)
{
  g_return_if_fail (SL_IS_PROJECT_RECORD (self));
  sl_record_replace_string (&self->remote_folder, folder);
}

/**
 * sl_project_record_get_upload_excludes:
 *
 * Returns: (transfer none): glob patterns left out of uploads, never %NULL
 */
const char * const *
sl_project_record_get_upload_excludes (SlProjectRecord *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (self), NULL);
  return (const char * const *)self->upload_excludes;
}

void
sl_project_record_set_upload_excludes (SlProjectRecord    *self,
                                       const char * const *patterns)
{
  g_return_if_fail (SL_IS_PROJECT_RECORD (self));

  sl_record_replace_strv (&self->upload_excludes, patterns);
}

guint
sl_project_record_get_n_run_configs (SlProjectRecord *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (self), 0);
  return self->run_configs->len;
}

/**
 * sl_project_record_get_run_config:
 *
 * Returns: (transfer none): the run configuration at @index
 */
SlRunConfigRecord *
sl_project_record_get_run_config (SlProjectRecord *self,
                                  guint            index)
{
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (self), NULL);
  g_return_val_if_fail (index < self->run_configs->len, NULL);
  return g_ptr_array_index (self->run_configs, index);
}

/**
 * sl_project_record_add_run_config:
 *
 * Appends @config; the order is kept when the project is stored.
 */
void
sl_project_record_add_run_config (SlProjectRecord   *self,
                                  SlRunConfigRecord *config)
{
  g_return_if_fail (SL_IS_PROJECT_RECORD (self));
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (config));
  g_ptr_array_add (self->run_configs, g_object_ref (config));
}
