/* sl-folder.h: a folder (or file) opened in the workspace, and what the
 * detector found in it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  SL_FOLDER_SCANNING,
  SL_FOLDER_READY,
  SL_FOLDER_FAILED,
} SlFolderState;

#define SL_TYPE_FOLDER (sl_folder_get_type ())
G_DECLARE_FINAL_TYPE (SlFolder, sl_folder, SL, FOLDER, GObject)

SlFolder      *sl_folder_new               (const char    *path);
const char    *sl_folder_get_path          (SlFolder      *self);
const char    *sl_folder_get_name          (SlFolder      *self);
SlFolderState  sl_folder_get_state         (SlFolder      *self);
GListModel    *sl_folder_get_findings      (SlFolder      *self);
GListModel    *sl_folder_get_problems      (SlFolder      *self);
const char    *sl_folder_get_error_message (SlFolder      *self);
guint          sl_folder_get_files_scanned (SlFolder      *self);
gint64         sl_folder_get_scan_time     (SlFolder      *self);
void           sl_folder_scan_async        (SlFolder      *self,
                                            GCancellable  *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer       user_data);
gboolean       sl_folder_scan_finish       (SlFolder      *self,
                                            GAsyncResult  *result,
                                            GError       **error);
guint          sl_folder_poll_progress     (SlFolder      *self);
void           sl_folder_restore_findings  (SlFolder      *self,
                                            GPtrArray     *findings);
gboolean       sl_folder_is_restored       (SlFolder      *self);

G_END_DECLS
