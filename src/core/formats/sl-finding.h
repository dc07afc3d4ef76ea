/* sl-finding.h: one thing the detector recognised in an opened folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_FINDING_SUMMARY_RUN,       /* MindSpore summary files (and _lineage) */
  SL_FINDING_TENSORBOARD_RUN,   /* TensorBoard tfevents files */
  SL_FINDING_MINDSPORE_PROFILER,/* profiler* folder of MindSpore */
  SL_FINDING_MSPROF,            /* PROF_* folder of msprof (CANN) */
  SL_FINDING_ASCEND_PROFILER,   /* *_ascend_pt / *_ascend_ms folders */
  SL_FINDING_PROFILER_DB,       /* msprof / ascend_pytorch_profiler SQLite export */
  SL_FINDING_TRACE,             /* Chrome trace event JSON (plain or gzip) */
  SL_FINDING_GRAPH,             /* standalone graph (.pb GraphProto / ModelProto) */
  SL_FINDING_TENSOR,            /* .npy tensor */
  SL_FINDING_MSPROBE_DUMP,      /* msprobe dump folder (dump.json) */
  SL_FINDING_PIPELINE,          /* MindX SDK stream pipeline */
  SL_FINDING_TUNER_CONFIG,      /* hyperparameter tuner YAML (MindInsight's optimizer) */
  SL_FINDING_CLUSTER,           /* several ranks' profiles, or msprof-analyze's cluster_analysis_output */
  SL_FINDING_N_KINDS
} SlFindingKind;

/* Detail of every profiler finding (MindSpore, msprof, Ascend profiler
 * folders and SQLite exports): how many files a timeline can be read
 * from, the Chrome trace timelines plus the SQLite exports (whose tasks
 * are the timeline), as decimal digits. "0" means no timeline. */
#define SL_FINDING_DETAIL_TIMELINE_FILES "timeline_files"

/* Details that are booleans: set them with sl_finding_add_boolean_detail()
 * and read them with sl_finding_lookup_boolean_detail(). Their text form
 * (what is stored, printed and shown) is "yes" or "no". */
#define SL_FINDING_DETAIL_HAS_LINEAGE      "has_lineage"      /* summary run: lineage files */
#define SL_FINDING_DETAIL_GRAPH            "graph"            /* TensorBoard run: a graph */
#define SL_FINDING_DETAIL_FORTRAN_ORDER    "fortran_order"    /* .npy tensor */
#define SL_FINDING_DETAIL_CLUSTER_ANALYSIS "cluster_analysis" /* cluster: msprof-analyze output */

#define SL_TYPE_FINDING (sl_finding_get_type ())
G_DECLARE_FINAL_TYPE (SlFinding, sl_finding, SL, FINDING, GObject)

SlFinding     *sl_finding_new              (SlFindingKind  kind,
                                            const char    *path,
                                            const char    *name);
SlFindingKind  sl_finding_get_kind         (SlFinding     *self);
const char    *sl_finding_get_path         (SlFinding     *self);
const char    *sl_finding_get_name         (SlFinding     *self);
char          *sl_finding_dup_display_name (SlFinding     *self);
guint          sl_finding_get_n_files      (SlFinding     *self);
guint64        sl_finding_get_size         (SlFinding     *self);
void           sl_finding_add_file         (SlFinding     *self,
                                            const char    *path,
                                            guint64        size);
const char    *sl_finding_get_file         (SlFinding     *self,
                                            guint          index);
void           sl_finding_add_detail       (SlFinding     *self,
                                            const char    *key,
                                            const char    *value);
void           sl_finding_add_boolean_detail (SlFinding   *self,
                                            const char    *key,
                                            gboolean       value);
guint          sl_finding_get_n_details    (SlFinding     *self);
gboolean       sl_finding_get_detail       (SlFinding     *self,
                                            guint          index,
                                            const char   **key,
                                            const char   **value);
const char    *sl_finding_lookup_detail    (SlFinding     *self,
                                            const char    *key);
gboolean       sl_finding_detail_is_boolean (SlFinding    *self,
                                            guint          index);
gboolean       sl_finding_lookup_boolean_detail (SlFinding *self,
                                            const char    *key,
                                            gboolean      *value);
char          *sl_finding_dup_summary      (SlFinding     *self);
gboolean       sl_finding_has_timeline     (SlFinding     *self);
GPtrArray     *sl_finding_dup_timeline_files (SlFinding   *self);

char          *sl_finding_detail_dup_label (const char    *key);
char          *sl_finding_detail_dup_label_for_value (const char *key,
                                                      const char *value);
const char    *sl_finding_detail_value_label (const char  *value);
const char    *sl_finding_kind_to_id       (SlFindingKind  kind);
const char    *sl_finding_kind_to_label    (SlFindingKind  kind);
const char    *sl_finding_kind_to_short_label (SlFindingKind kind);
const char    *sl_finding_kind_to_icon     (SlFindingKind  kind);
gboolean       sl_finding_kind_from_id     (const char    *id,
                                            SlFindingKind *kind);

G_END_DECLS
