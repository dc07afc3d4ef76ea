/* sl-folder-puller.h: mirroring folders of a target into the local cache
 *
 * A pull copies what changed in a remote folder into a local one: new
 * and rewritten files whole (under a temporary name, then renamed),
 * files that only grew (summaries, logs) by their new bytes. Names from
 * the server are checked before use, symbolic links on the server are
 * not followed, and nothing is written outside the local folder. Local
 * files are never deleted.
 *
 * SlFolderPuller repeats a pull every few seconds on a thread of its
 * own (while a job runs) and says what changed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-target-shell.h"
#include "sl-transfer.h"

G_BEGIN_DECLS

typedef struct {
  GPtrArray *changed;          /* (element-type utf8) relative paths written */
  GPtrArray *refused;          /* (element-type utf8) why an entry was left out */
  guint      files_full;
  guint      files_appended;
  guint      files_unchanged;
  guint64    bytes;
} SlPullResult;

void          sl_pull_result_free  (SlPullResult            *result);
SlPullResult *sl_folder_pull       (SlTargetShell           *shell,
                                    const char              *remote_dir,
                                    const char              *local_dir,
                                    SlTransferProgressFunc   progress_func,
                                    gpointer                 progress_data,
                                    GCancellable            *cancellable,
                                    GError                 **error);

#define SL_TYPE_FOLDER_PULLER (sl_folder_puller_get_type ())
G_DECLARE_FINAL_TYPE (SlFolderPuller, sl_folder_puller, SL, FOLDER_PULLER, GObject)

SlFolderPuller *sl_folder_puller_new        (SlTargetShell  *shell,
                                             const char     *remote_dir,
                                             const char     *local_dir,
                                             guint           interval_ms);
void            sl_folder_puller_start      (SlFolderPuller *self);
void            sl_folder_puller_stop       (SlFolderPuller *self);
guint           sl_folder_puller_get_n_pulls (SlFolderPuller *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlPullResult, sl_pull_result_free)

G_END_DECLS
