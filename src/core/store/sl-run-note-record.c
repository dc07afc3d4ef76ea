/* sl-run-note-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-run-note-record.h"

struct _SlRunNoteRecord
{
  GObject  parent_instance;
  char    *path;
  char    *note;
  GStrv    tags;
  gint64   updated_at;
};

G_DEFINE_FINAL_TYPE (SlRunNoteRecord, sl_run_note_record, G_TYPE_OBJECT)

static void
sl_run_note_record_finalize (GObject *object)
{
  SlRunNoteRecord *self = (SlRunNoteRecord *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->note, g_free);
  g_clear_pointer (&self->tags, g_strfreev);

  G_OBJECT_CLASS (sl_run_note_record_parent_class)->finalize (object);
}

static void
sl_run_note_record_class_init (SlRunNoteRecordClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_run_note_record_finalize;
}

static void
sl_run_note_record_init (SlRunNoteRecord *self)
{
}

/**
 * sl_run_note_record_new:
 * @path: the run's folder
 * @note: (nullable): free text
 * @tags: (nullable): short labels; blank ones and repeats are dropped
 * @updated_at: microseconds since the Unix epoch (as g_get_real_time())
 *
 * Returns: (transfer full): a new record
 */
SlRunNoteRecord *
sl_run_note_record_new (const char         *path,
                        const char         *note,
                        const char * const *tags,
                        gint64              updated_at)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  SlRunNoteRecord *self;

  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; tags != NULL && tags[i] != NULL; i++)
    {
      char *tag = g_strstrip (g_strdup (tags[i]));

      if (*tag == '\0' || g_ptr_array_find_with_equal_func (seen, tag, g_str_equal, NULL))
        {
          g_free (tag);
          continue;
        }
      g_strv_builder_add (builder, tag);
      g_ptr_array_add (seen, tag);
    }

  self = g_object_new (SL_TYPE_RUN_NOTE_RECORD, NULL);
  self->path = g_strdup (path);
  self->note = g_strdup (note != NULL ? note : "");
  self->tags = g_strv_builder_end (builder);
  self->updated_at = updated_at;

  return self;
}

const char *
sl_run_note_record_get_path (SlRunNoteRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_NOTE_RECORD (self), NULL);
  return self->path;
}

const char *
sl_run_note_record_get_note (SlRunNoteRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_NOTE_RECORD (self), NULL);
  return self->note;
}

const char * const *
sl_run_note_record_get_tags (SlRunNoteRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_NOTE_RECORD (self), NULL);
  return (const char * const *) self->tags;
}

gint64
sl_run_note_record_get_updated_at (SlRunNoteRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_NOTE_RECORD (self), 0);
  return self->updated_at;
}

/* Returns: whether there is neither a note nor a tag to keep */
gboolean
sl_run_note_record_is_empty (SlRunNoteRecord *self)
{
  g_return_val_if_fail (SL_IS_RUN_NOTE_RECORD (self), TRUE);
  return self->note[0] == '\0' && self->tags[0] == NULL;
}
