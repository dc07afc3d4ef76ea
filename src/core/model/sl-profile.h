/* sl-profile.h: one profiler output folder, as tables
 *
 * A folder may hold several ranks or devices (a cluster, or MindSpore
 * files suffixed with different device ids); each is an SlProfileRank
 * with its host/device info, step table, op tables, counters and, for
 * the SQLite export, a timeline. Built by sl-profile-loader in a worker
 * thread and immutable afterwards.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-api-calls.h"
#include "sl-communication.h"
#include "sl-memory-profile.h"
#include "sl-op-table.h"
#include "sl-problem.h"
#include "sl-step-trace.h"

G_BEGIN_DECLS

typedef enum {
  SL_PROFILE_LAYOUT_MINDSPORE,   /* profiler folders: *_<id>.csv and .json */
  SL_PROFILE_LAYOUT_MSPROF,      /* PROF_ folders: mindstudio_profiler_output, device_N */
  SL_PROFILE_LAYOUT_ASCEND_PT,   /* ASCEND_PROFILER_OUTPUT of *_ascend_pt and *_ascend_ms */
  SL_PROFILE_LAYOUT_DATABASE,    /* msprof_*.db, ascend_pytorch_profiler_*.db */
  SL_PROFILE_LAYOUT_CLUSTER,     /* cluster_step_trace_time.csv */
} SlProfileLayout;

/* A time series kept as it was sampled (memory_record.csv). */
typedef struct {
  char   *name;
  char   *unit;
  GArray *ts_ns;    /* gint64 */
  GArray *values;   /* double */
} SlProfileCounter;

typedef struct {
  gint64  total_ns;          /* sum of step totals, else the span of the ops; -1 unknown */
  guint64 n_op_executions;
  guint   n_op_types;
  guint   n_op_instances;
  guint   n_streams;
  gint64  task_ns;           /* sum of op (task) durations */
  /* AI Core time, one definition wherever it is shown (see
   * sl_profile_core_time_definition()): the measured busy time of the
   * cores, summed over the ops that have one, and those ops' task
   * duration; -1 when no op has a measured core time. */
  gint64  core_busy_ns;
  gint64  core_task_ns;
  /* Without a measured core time: the task duration of the ops that ran
   * on the AI Core (their core type), -1 unknown. Not a core time. */
  gint64  aicore_ops_ns;
} SlProfileSummary;

typedef struct {
  char             *label;      /* "rank 0", "device 0", or the folder name */
  char             *dir;        /* folder the files are in */
  SlProfileLayout   layout;
  gint64            rank_id;    /* -1 unknown */
  gint64            device_id;  /* -1 unknown */
  gboolean          aggregate;  /* a summary of several ranks (a pipeline stage's maxima), not one rank */
  GPtrArray        *info_keys;  /* host/device info, flattened "a.b" keys, file order */
  GHashTable       *info;
  SlStepTrace      *steps;      /* nullable */
  SlOpTable        *ops;
  SlOpTable        *apis;       /* host API statistics (api_statistic, CANN_API) */
  GPtrArray        *counters;   /* SlProfileCounter */
  GObject          *trace;      /* SlTrace from the SQLite export, nullable */
  SlCommunication  *communication; /* nullable; msprof-analyze's is shared by the cluster's ranks */
  SlMemoryProfile  *memory;     /* nullable: the memory files and tables, once finished */
  GPtrArray        *files;      /* paths read */
  SlProfileSummary  summary;
  SlApiCalls       *api_calls;  /* nullable: every API call, where the export has them */
} SlProfileRank;

#define SL_TYPE_PROFILE (sl_profile_get_type ())
G_DECLARE_FINAL_TYPE (SlProfile, sl_profile, SL, PROFILE, GObject)

SlProfile           *sl_profile_new              (const char      *path);
const char          *sl_profile_get_path         (SlProfile       *self);
guint                sl_profile_get_n_ranks      (SlProfile       *self);
const SlProfileRank *sl_profile_get_rank         (SlProfile       *self,
                                                  guint            index);
/* SlProblem, in the order found */
GListModel          *sl_profile_get_problems     (SlProfile       *self);
const char          *sl_profile_layout_to_string (SlProfileLayout  layout);
/* What "AI Core time" and its share of the task duration are, translated:
 * every view, the CLI and the Advisor's report say the same. */
const char          *sl_profile_core_time_definition  (void);
const char          *sl_profile_core_share_definition (void);
const char          *sl_profile_aicore_ops_definition (void);

/* Building (the loader) */
SlProfileRank       *sl_profile_add_rank         (SlProfile       *self,
                                                  const char      *dir,
                                                  SlProfileLayout  layout);
void                 sl_profile_rank_set_info    (SlProfileRank   *rank,
                                                  const char      *key,
                                                  const char      *value);
SlProfileCounter    *sl_profile_rank_get_counter (SlProfileRank   *rank,
                                                  const char      *name,
                                                  const char      *unit);
void                 sl_profile_rank_finish      (SlProfileRank   *rank);
void                 sl_profile_add_problem      (SlProfile       *self,
                                                  SlProblem       *problem);

G_END_DECLS
