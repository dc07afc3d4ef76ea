/* sl-profile-discovery.h: finds the files of a profiler folder
 *
 * Walks a folder (or takes one file), keeps the files the profile loader
 * reads, says which reader each needs and which rank it belongs to (the
 * *_ascend_pt/_ascend_ms folder, the PROF_ folder, or the MindSpore
 * profiler folder plus the device id in the file name), and sorts them in
 * reading order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

/* The reader a file needs; also the reading order inside a rank. */
typedef enum {
  SL_PROFILE_FILE_INFO,
  SL_PROFILE_FILE_MS_STEP,
  SL_PROFILE_FILE_MSPROF_STEP,
  SL_PROFILE_FILE_PT_STEP,
  SL_PROFILE_FILE_MS_AICORE_TYPE,
  SL_PROFILE_FILE_OP_STATISTIC,
  SL_PROFILE_FILE_MS_AICORE_DETAIL,
  SL_PROFILE_FILE_MS_AICPU,
  SL_PROFILE_FILE_OP_SUMMARY,
  SL_PROFILE_FILE_TASK_TIME,
  SL_PROFILE_FILE_MS_FRAMEWORK,
  SL_PROFILE_FILE_MS_FLOPS,
  SL_PROFILE_FILE_API_STATISTIC,
  SL_PROFILE_FILE_MS_TIMELINE_SUMMARY,
  SL_PROFILE_FILE_MS_FLOPS_SUMMARY,
  SL_PROFILE_FILE_MEMORY,
  SL_PROFILE_FILE_COMMUNICATION,
  SL_PROFILE_FILE_CLUSTER_STEP,
  SL_PROFILE_FILE_CLUSTER_COMMUNICATION,
  SL_PROFILE_FILE_DATABASE,
} SlProfileFileKind;

typedef struct {
  char              *path;
  SlProfileFileKind  kind;
  char              *unit_dir;   /* the folder of the rank */
  SlProfileLayout    layout;
  gint64             id;         /* a MindSpore device id, or -1 */
} SlProfileFile;

void       sl_profile_file_free          (SlProfileFile *file);

/* The files the loader reads under @path (a folder, or one file), as
 * SlProfileFile, sorted by rank and reading order; with @summary_only,
 * only what a cluster's summary reads (info, steps, communication).
 * Stops early when @cancellable is cancelled. */
GPtrArray *sl_profile_discover           (const char    *path,
                                          gboolean       summary_only,
                                          GCancellable  *cancellable);

/* The timeline files under @path (char *), sorted by path; a file path
 * gives itself. */
GPtrArray *sl_profile_discover_timelines (const char    *path);

G_END_DECLS
