/* sl-cluster-loader.h: reads the summary of every rank of a cluster profile
 *
 * A cluster folder holds several ranks' profiles (MindSpore profiler
 * folders, msprof PROF_ folders, torch_npu or MindSpore *_ascend_pt /
 * *_ascend_ms folders) and/or msprof-analyze's cluster_analysis_output.
 * Only what the summary needs is read: step traces and communication.
 * The ranks' folders are read in parallel on a small pool; when
 * cluster_analysis_output has every rank's steps, the ranks' own folders
 * are only matched to their rank ids, not read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-cluster-profile.h"

G_BEGIN_DECLS

/* Called from the reading threads as each rank's folder is read: how
 * many of the @n_total folders that need reading have been. */
typedef void (*SlClusterProgressFunc) (guint    n_read,
                                       guint    n_total,
                                       gpointer user_data);

/* Synchronous, for worker threads and the CLI. Fails only when @path is
 * missing, holds no rank at all, or on cancellation; ranks with missing
 * or damaged files become problems. */
SlClusterProfile *sl_cluster_load        (const char           *path,
                                          GCancellable         *cancellable,
                                          GError              **error);
SlClusterProfile *sl_cluster_load_with_progress (const char             *path,
                                                 GCancellable           *cancellable,
                                                 SlClusterProgressFunc   progress,
                                                 gpointer                progress_data,
                                                 GError                **error);
void              sl_cluster_load_async  (const char           *path,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
SlClusterProfile *sl_cluster_load_finish (GAsyncResult         *result,
                                          GError              **error);

G_END_DECLS
