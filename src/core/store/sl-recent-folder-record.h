/* sl-recent-folder-record.h: a folder opened before, for the start page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_RECENT_FOLDER_RECORD (sl_recent_folder_record_get_type ())
G_DECLARE_FINAL_TYPE (SlRecentFolderRecord, sl_recent_folder_record, SL, RECENT_FOLDER_RECORD, GObject)

SlRecentFolderRecord *sl_recent_folder_record_new           (const char           *path,
                                                             gint64                opened_at);
const char           *sl_recent_folder_record_get_path      (SlRecentFolderRecord *self);
gint64                sl_recent_folder_record_get_opened_at (SlRecentFolderRecord *self);

G_END_DECLS
