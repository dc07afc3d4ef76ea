/* sl-recent-folder-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-recent-folder-record.h"

struct _SlRecentFolderRecord
{
  GObject  parent_instance;
  char    *path;
  gint64   opened_at;
};

G_DEFINE_FINAL_TYPE (SlRecentFolderRecord, sl_recent_folder_record, G_TYPE_OBJECT)

static void
sl_recent_folder_record_finalize (GObject *object)
{
  SlRecentFolderRecord *self = (SlRecentFolderRecord *)object;

  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_recent_folder_record_parent_class)->finalize (object);
}

static void
sl_recent_folder_record_class_init (SlRecentFolderRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_recent_folder_record_finalize;
}

static void
sl_recent_folder_record_init (SlRecentFolderRecord *self)
{
}

/**
 * sl_recent_folder_record_new:
 * @opened_at: when the folder was last opened, in microseconds since the
 *   Unix epoch (as g_get_real_time())
 *
 * Returns: (transfer full): a new record
 */
SlRecentFolderRecord *
sl_recent_folder_record_new (const char *path,
                             gint64      opened_at)
{
  SlRecentFolderRecord *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_RECENT_FOLDER_RECORD, NULL);
  self->path = g_strdup (path);
  self->opened_at = opened_at;

  return self;
}

const char *
sl_recent_folder_record_get_path (SlRecentFolderRecord *self)
{
  g_return_val_if_fail (SL_IS_RECENT_FOLDER_RECORD (self), NULL);
  return self->path;
}

gint64
sl_recent_folder_record_get_opened_at (SlRecentFolderRecord *self)
{
  g_return_val_if_fail (SL_IS_RECENT_FOLDER_RECORD (self), 0);
  return self->opened_at;
}
