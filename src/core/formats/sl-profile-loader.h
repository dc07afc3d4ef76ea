/* sl-profile-loader.h: reads the tables of a profiler output folder
 *
 * Given a folder (or a file inside one) it finds what MindSpore, msprof and
 * the Ascend PyTorch/MindSpore profilers wrote there, groups the files by
 * rank or device, and reads them into an SlProfile. A damaged file becomes
 * an SlProblem and the rest is still read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

typedef enum {
  SL_PROFILE_PARTS_ALL,
  /* Info, step traces and communication only: what a cluster's summary
   * reads of each rank. */
  SL_PROFILE_PARTS_SUMMARY,
} SlProfileParts;

/* @fraction is 0…1; @path is the file being read. */
typedef void (*SlProfileProgressFunc) (double      fraction,
                                       const char *path,
                                       gpointer    user_data);

/* Synchronous: for worker threads and the CLI. @progress is called in the
 * calling thread. Fails only when @path is missing, holds no profiler
 * output, or on cancellation. */
SlProfile *sl_profile_load                (const char             *path,
                                           GCancellable           *cancellable,
                                           SlProfileProgressFunc   progress,
                                           gpointer                progress_data,
                                           GError                **error);
SlProfile *sl_profile_load_parts          (const char             *path,
                                           SlProfileParts          parts,
                                           GCancellable           *cancellable,
                                           SlProfileProgressFunc   progress,
                                           gpointer                progress_data,
                                           GError                **error);
/* In a worker thread; @progress runs in the caller's thread-default main
 * context, @progress_data is released with @progress_destroy. */
void       sl_profile_load_async          (const char             *path,
                                           GCancellable           *cancellable,
                                           SlProfileProgressFunc   progress,
                                           gpointer                progress_data,
                                           GDestroyNotify          progress_destroy,
                                           GAsyncReadyCallback     callback,
                                           gpointer                user_data);
SlProfile *sl_profile_load_finish         (GAsyncResult           *result,
                                           GError                **error);

/* The Chrome-trace timeline files of a profiler folder, sorted by path:
 * the files sl-profiler-layout calls timelines (ascend/gpu
 * timeline_display_*.json, msprof*.json, trace_view.json and the JSON
 * files of device_N/timeline, also .json.gz). A file path gives itself.
 * SQLite exports are not listed; sl_finding_has_timeline() counts them. */
GPtrArray *sl_profile_list_timeline_files (const char             *path);

G_END_DECLS
