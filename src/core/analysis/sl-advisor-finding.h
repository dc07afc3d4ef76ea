/* sl-advisor-finding.h: one thing the advisor found, with its evidence
 *
 * A finding says which rule fired on which rank, how serious it is (by
 * the share of the step its time takes), the numbers and where in the
 * profiler's files each came from, every op involved (longest first), an
 * estimated saving and the assumption behind it, the recommendation, and
 * where a view can jump to: an op filter, a time range, a graph node.
 * Built by the advisor in a worker, immutable afterwards.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-op-row.h"

G_BEGIN_DECLS

typedef enum {
  SL_ADVISOR_SEVERITY_LOW,
  SL_ADVISOR_SEVERITY_MEDIUM,
  SL_ADVISOR_SEVERITY_HIGH,
} SlAdvisorSeverity;

/* One number and its origin: @row is the 1-based line of a text file (0
 * when the origin is a byte @offset, -1 when neither is known). */
typedef struct {
  char   *label;
  char   *value;
  char   *file;
  guint   row;
  gint64  offset;
} SlAdvisorEvidence;

#define SL_TYPE_ADVISOR_FINDING (sl_advisor_finding_get_type ())
G_DECLARE_FINAL_TYPE (SlAdvisorFinding, sl_advisor_finding, SL, ADVISOR_FINDING, GObject)

SlAdvisorFinding        *sl_advisor_finding_new                (const char        *rule,
                                                                const char        *rank_label);
const char              *sl_advisor_finding_get_rule           (SlAdvisorFinding  *self);
const char              *sl_advisor_finding_get_rank_label     (SlAdvisorFinding  *self);
SlAdvisorSeverity        sl_advisor_finding_get_severity       (SlAdvisorFinding  *self);
const char              *sl_advisor_finding_get_title          (SlAdvisorFinding  *self);
const char              *sl_advisor_finding_get_message        (SlAdvisorFinding  *self);
const char              *sl_advisor_finding_get_recommendation (SlAdvisorFinding  *self);
const char              *sl_advisor_finding_get_assumption     (SlAdvisorFinding  *self);
/* The time per step and its share of the step (-1 unknown). */
gint64                   sl_advisor_finding_get_time_ns        (SlAdvisorFinding  *self);
double                   sl_advisor_finding_get_step_percent   (SlAdvisorFinding  *self);
gint64                   sl_advisor_finding_get_saving_ns      (SlAdvisorFinding  *self);
double                   sl_advisor_finding_get_saving_percent (SlAdvisorFinding  *self);
guint                    sl_advisor_finding_get_n_evidence     (SlAdvisorFinding  *self);
const SlAdvisorEvidence *sl_advisor_finding_get_evidence       (SlAdvisorFinding  *self,
                                                                guint              index);
/* SlOpRow, every op involved, longest first */
GPtrArray               *sl_advisor_finding_get_ops            (SlAdvisorFinding  *self);
/* Jump links: text for the op filter, a time range (-1 when none), an
 * op name for the graph (NULL when none). */
const char              *sl_advisor_finding_get_filter_text    (SlAdvisorFinding  *self);
gint64                   sl_advisor_finding_get_range_start_ns (SlAdvisorFinding  *self);
gint64                   sl_advisor_finding_get_range_end_ns   (SlAdvisorFinding  *self);
const char              *sl_advisor_finding_get_graph_op       (SlAdvisorFinding  *self);

/* Building (the advisor) */
void                     sl_advisor_finding_set_texts          (SlAdvisorFinding  *self,
                                                                const char        *title,
                                                                const char        *message,
                                                                const char        *recommendation,
                                                                const char        *assumption);
void                     sl_advisor_finding_set_time           (SlAdvisorFinding  *self,
                                                                SlAdvisorSeverity  severity,
                                                                gint64             time_ns,
                                                                double             step_percent,
                                                                gint64             saving_ns,
                                                                double             saving_percent);
void                     sl_advisor_finding_add_evidence       (SlAdvisorFinding  *self,
                                                                const char        *label,
                                                                const char        *value,
                                                                const char        *file,
                                                                guint              row,
                                                                gint64             offset);
void                     sl_advisor_finding_add_op             (SlAdvisorFinding  *self,
                                                                SlOpRow           *op);
void                     sl_advisor_finding_set_jump           (SlAdvisorFinding  *self,
                                                                const char        *filter_text,
                                                                gint64             range_start_ns,
                                                                gint64             range_end_ns,
                                                                const char        *graph_op);

const char              *sl_advisor_severity_to_string         (SlAdvisorSeverity  severity);

G_END_DECLS
