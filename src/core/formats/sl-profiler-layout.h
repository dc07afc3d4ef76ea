/* sl-profiler-layout.h: what the folder and file names of profiler output mean
 *
 * One table says, for MindSpore's profiler* folders, msprof's PROF_ folders,
 * the Ascend PyTorch/MindSpore *_ascend_pt / *_ascend_ms folders and the
 * SQLite exports, which names are timelines, op tables, step traces and so
 * on. The detector and the profile loader both classify through it, so
 * they cannot disagree about a file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-profile.h"

G_BEGIN_DECLS

typedef enum {
  SL_PROFILER_ROLE_NONE,
  /* Folders */
  SL_PROFILER_ROLE_PROFILE_FOLDER,    /* written as a whole by one run: profiler*, PROF_*, *_ascend_pt */
  SL_PROFILER_ROLE_RAW_FOLDER,        /* JOB*: raw slices of older CANN */
  SL_PROFILER_ROLE_RAW_DATA_FOLDER,   /* data/ of a JOB* folder */
  SL_PROFILER_ROLE_OUTPUT_FOLDER,     /* parsed output: ASCEND_PROFILER_OUTPUT, mindstudio_profiler_output */
  SL_PROFILER_ROLE_DEVICE_FOLDER,     /* device_N, host */
  /* Files */
  SL_PROFILER_ROLE_TIMELINE,          /* Chrome trace JSON (plain or .gz) */
  SL_PROFILER_ROLE_TIMELINE_SUMMARY,
  SL_PROFILER_ROLE_OP_SUMMARY,        /* one row per op execution */
  SL_PROFILER_ROLE_OP_STATISTIC,      /* one row per op type */
  SL_PROFILER_ROLE_AICPU,
  SL_PROFILER_ROLE_TASK_TIME,
  SL_PROFILER_ROLE_API_STATISTIC,
  SL_PROFILER_ROLE_STEP_TRACE,
  SL_PROFILER_ROLE_STEP_TRACE_POINTS,
  SL_PROFILER_ROLE_FRAMEWORK,
  SL_PROFILER_ROLE_FLOPS,
  SL_PROFILER_ROLE_FLOPS_SUMMARY,
  SL_PROFILER_ROLE_MEMORY,
  SL_PROFILER_ROLE_COMMUNICATION,
  SL_PROFILER_ROLE_DATA_PREPARATION,
  SL_PROFILER_ROLE_INFO,
  SL_PROFILER_ROLE_DB,                /* SQLite export: its tasks are a timeline too */
  SL_PROFILER_ROLE_CLUSTER_STEP,
  SL_PROFILER_ROLE_RAW,               /* raw CANN slice */
  SL_PROFILER_ROLE_OTHER,             /* known profiler output that nothing reads */
} SlProfilerRole;

/* How the files of one rank or device are told apart. */
typedef enum {
  SL_PROFILER_RANK_NONE,     /* one of its kind per folder */
  SL_PROFILER_RANK_NAME,     /* the id in the name: the pattern's first group */
  SL_PROFILER_RANK_FOLDER,   /* the profile folder that holds it (one rank each) */
} SlProfilerRankBy;

typedef enum {
  SL_PROFILER_ENTRY_FOLDER = 1 << 0,  /* the pattern names a folder, not a file */
  SL_PROFILER_ENTRY_READ   = 1 << 1,  /* the profile loader reads it */
  SL_PROFILER_ENTRY_MARKER = 1 << 2,  /* makes the folder holding it profiler output (MindInsight's rule) */
} SlProfilerEntryFlags;

/* @pattern is a regular expression for the whole base name; one holding
 * a "/" is matched against the last components of the path instead. */
typedef struct {
  SlProfileLayout       layout;
  const char           *pattern;
  SlProfilerRole        role;
  SlProfilerRankBy      rank;
  SlProfilerEntryFlags  flags;
} SlProfilerEntry;

const SlProfilerEntry *sl_profiler_layout_get_entries     (guint          *n_entries);
const SlProfilerEntry *sl_profiler_layout_lookup_file     (const char     *relative_path,
                                                           gint64         *id);
SlProfilerRole         sl_profiler_layout_classify_file   (SlProfileLayout layout,
                                                           const char     *relative_path);
SlProfilerRole         sl_profiler_layout_classify_dir    (const char     *name,
                                                           SlProfileLayout *layout,
                                                           gint64         *id);
gboolean               sl_profiler_layout_is_marker       (const char     *name,
                                                           gint64         *id);
gboolean               sl_profiler_layout_skip_dir        (const char     *dir_name,
                                                           const char     *child_name,
                                                           gboolean        dir_has_output);
gboolean               sl_profiler_layout_is_timeline     (const char     *relative_path);
GPtrArray             *sl_profiler_layout_select_timelines (const char    *root,
                                                           GPtrArray      *paths);
const char            *sl_profiler_role_to_string         (SlProfilerRole  role);
GPtrArray             *sl_profiler_layout_list_missing_companions (const char *path);

G_END_DECLS
