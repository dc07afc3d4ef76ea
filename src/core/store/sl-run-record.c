/* sl-run-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-run-record.h"

#include "sl-record-fields.h"

typedef struct {
  char    *path;
  guint64  size;
  guint64  read_offset;
} RunFile;

struct _SlRunRecord
{
  GObject   parent_instance;
  gint64    id;
  gint64    last_seen;
  char     *root_folder;
  char     *kind_id;
  char     *relative_name;
  char     *path;
  char    **tags;
  char    **details;
  GArray   *files;
};

G_DEFINE_FINAL_TYPE (SlRunRecord, sl_run_record, G_TYPE_OBJECT)

static void
run_file_clear (gpointer data)
{
  RunFile *file = data;

  g_clear_pointer (&file->path, g_free);
}

static void
sl_run_record_finalize (GObject *object)
{
  SlRunRecord *self = (SlRunRecord *)object;

  g_clear_pointer (&self->root_folder, g_free);
  g_clear_pointer (&self->kind_id, g_free);
  g_clear_pointer (&self->relative_name, g_free);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->tags, g_strfreev);
  g_clear_pointer (&self->details, g_strfreev);
  g_clear_pointer (&self->files, g_array_unref);

  G_OBJECT_CLASS (sl_run_record_parent_class)->finalize (object);
}

static void
sl_run_record_class_init (SlRunRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_run_record_finalize;
}

static void
sl_run_record_init (SlRunRecord *self)
{
  self->tags = g_new0 (char *, 1);
  self->details = g_new0 (char *, 1);
  self->files = g_array_new (FALSE, FALSE, sizeof (RunFile));
  g_array_set_clear_func (self->files, run_file_clear);
  self->last_seen = g_get_real_time ();
}

/**
 * sl_run_record_new:
 * @root_folder: the opened folder the run was found in
 * @kind_id: what the run is, as sl_finding_kind_to_id() names it
 * @relative_name: the run's name relative to @root_folder, as the tree
 *   shows it
 * @path: the run's file or folder
 *
 * Returns: (transfer full): a run that is not stored yet, last seen now
 */
SlRunRecord *
sl_run_record_new (const char *root_folder,
                   const char *kind_id,
                   const char *relative_name,
                   const char *path)
{
  SlRunRecord *self;

  g_return_val_if_fail (root_folder != NULL, NULL);
  g_return_val_if_fail (kind_id != NULL, NULL);
  g_return_val_if_fail (relative_name != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_RUN_RECORD, NULL);
  self->root_folder = g_strdup (root_folder);
  self->kind_id = g_strdup (kind_id);
  self->relative_name = g_strdup (relative_name);
  self->path = g_strdup (path);

  return self;
}

gint64
sl_run_record_get_id (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), 0);
  return self->id;
}

void
sl_run_record_set_id (SlRunRecord *self,
                      gint64       id)
{
  g_return_if_fail (SL_IS_RUN_RECORD (self));
  self->id = id;
}

const char *
sl_run_record_get_root_folder (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), NULL);
  return self->root_folder;
}

const char *
sl_run_record_get_kind_id (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), NULL);
  return self->kind_id;
}

const char *
sl_run_record_get_relative_name (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), NULL);
  return self->relative_name;
}

const char *
sl_run_record_get_path (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), NULL);
  return self->path;
}

/**
 * sl_run_record_get_tags:
 *
 * Returns: (transfer none): the run's tags, never %NULL
 */
const char * const *
sl_run_record_get_tags (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), NULL);
  return (const char * const *)self->tags;
}

void
sl_run_record_set_tags (SlRunRecord        *self,
                        const char * const *tags)
{
  g_return_if_fail (SL_IS_RUN_RECORD (self));

  sl_record_replace_strv (&self->tags, tags);
}

/**
 * sl_run_record_get_last_seen:
 *
 * Returns: when the run was last found, in microseconds since the Unix
 *   epoch (as g_get_real_time())
 */
/**
 * sl_run_record_get_details:
 *
 * Returns: (transfer none): the finding's details as a flat
 *   [key, value, key, value, ...] list, never %NULL
 */
const char * const *
sl_run_record_get_details (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), NULL);

  return (const char * const *)self->details;
}

/**
 * sl_run_record_set_details:
 * @details: (nullable): a flat [key, value, ...] list; a key without a
 *   value is dropped
 */
void
sl_run_record_set_details (SlRunRecord        *self,
                           const char * const *details)
{
  GPtrArray *copy;

  g_return_if_fail (SL_IS_RUN_RECORD (self));

  copy = g_ptr_array_new ();
  for (guint i = 0; details != NULL && details[i] != NULL && details[i + 1] != NULL; i += 2)
    {
      g_ptr_array_add (copy, g_strdup (details[i]));
      g_ptr_array_add (copy, g_strdup (details[i + 1]));
    }
  g_ptr_array_add (copy, NULL);

  g_strfreev (self->details);
  self->details = (char **)g_ptr_array_free (copy, FALSE);
}

gint64
sl_run_record_get_last_seen (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), 0);
  return self->last_seen;
}

void
sl_run_record_set_last_seen (SlRunRecord *self,
                             gint64       last_seen)
{
  g_return_if_fail (SL_IS_RUN_RECORD (self));
  self->last_seen = last_seen;
}

static RunFile *
find_file (SlRunRecord *self,
           const char  *path)
{
  for (guint i = 0; i < self->files->len; i++)
    {
      RunFile *file = &g_array_index (self->files, RunFile, i);

      if (g_str_equal (file->path, path))
        return file;
    }

  return NULL;
}

/**
 * sl_run_record_set_file:
 * @path: a file of the run
 * @size: its size when it was last read
 * @read_offset: how many bytes of it were read so far
 *
 * Adds @path to the run, or updates it when the run has it already.
 */
void
sl_run_record_set_file (SlRunRecord *self,
                        const char  *path,
                        guint64      size,
                        guint64      read_offset)
{
  RunFile *file;

  g_return_if_fail (SL_IS_RUN_RECORD (self));
  g_return_if_fail (path != NULL);

  file = find_file (self, path);
  if (file == NULL)
    {
      RunFile new_file = { g_strdup (path), 0, 0 };

      g_array_append_val (self->files, new_file);
      file = &g_array_index (self->files, RunFile, self->files->len - 1);
    }

  file->size = size;
  file->read_offset = read_offset;
}

guint
sl_run_record_get_n_files (SlRunRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_RECORD (self), 0);
  return self->files->len;
}

/**
 * sl_run_record_get_file:
 * @path: (out) (optional) (transfer none):
 * @size: (out) (optional):
 * @read_offset: (out) (optional):
 *
 * Returns: %TRUE when @index is a file of the run
 */
gboolean
sl_run_record_get_file (SlRunRecord  *self,
                        guint         index,
                        const char  **path,
                        guint64      *size,
                        guint64      *read_offset)
{
  const RunFile *file;

  g_return_val_if_fail (SL_IS_RUN_RECORD (self), FALSE);

  if (index >= self->files->len)
    return FALSE;

  file = &g_array_index (self->files, RunFile, index);
  if (path != NULL)
    *path = file->path;
  if (size != NULL)
    *size = file->size;
  if (read_offset != NULL)
    *read_offset = file->read_offset;

  return TRUE;
}

/**
 * sl_run_record_lookup_file:
 * @size: (out) (optional):
 * @read_offset: (out) (optional):
 *
 * Returns: %TRUE when the run has @path
 */
gboolean
sl_run_record_lookup_file (SlRunRecord *self,
                           const char  *path,
                           guint64     *size,
                           guint64     *read_offset)
{
  const RunFile *file;

  g_return_val_if_fail (SL_IS_RUN_RECORD (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  file = find_file (self, path);
  if (file == NULL)
    return FALSE;

  if (size != NULL)
    *size = file->size;
  if (read_offset != NULL)
    *read_offset = file->read_offset;

  return TRUE;
}
