/* sl-project-upload.h: sending a project folder to a target
 *
 * Incremental: a file whose size and modification time match the copy
 * on the target is not sent again (and, when asked, neither is one whose
 * content hash matches). Each file is written under a temporary name
 * and renamed, so the target never sees half a file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-target-shell.h"
#include "sl-transfer.h"

G_BEGIN_DECLS

typedef struct {
  guint    files_sent;
  guint    files_unchanged;
  guint    files_excluded;
  guint64  bytes_sent;
} SlUploadStats;

gboolean sl_project_upload (SlTargetShell           *shell,
                            const char              *local_dir,
                            const char              *remote_dir,
                            const char * const      *excludes,
                            gboolean                 compare_content,
                            SlTransferProgressFunc   progress_func,
                            gpointer                 progress_data,
                            SlUploadStats           *stats,
                            GCancellable            *cancellable,
                            GError                 **error);

G_END_DECLS
