/* sl-advisor-private.h: what the engine hands each rule
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-advisor.h"
#include "sl-advisor-texts.h"

G_BEGIN_DECLS

#define SL_ADVISOR_TOP_EVIDENCE 10

typedef struct _SlAdvisorTraceIndex SlAdvisorTraceIndex;

typedef struct {
  SlAdvisorRuleBook   *book;
  SlAdvisorReport     *report;
  SlProfile           *profile;
  const SlProfileRank *rank;        /* NULL for rules over the whole profile */
  const char          *rule;
  GCancellable        *cancellable;
  GPtrArray           *instances;   /* SlOpRow of the rank, longest first */
  GPtrArray           *types;
  guint                n_steps;     /* 1 when the rank has no step trace */
  gint64               step_ns;     /* mean step time, -1 unknown */
  gboolean             have_steps;
  SlAdvisorTraceIndex *trace;       /* the rank's timeline events, NULL when no rule needs them */
} SlAdvisorContext;

typedef void (*SlAdvisorRuleFunc) (SlAdvisorContext *ctx);

typedef struct {
  const char        *id;
  SlAdvisorRuleFunc  func;
  gboolean           per_rank;
} SlAdvisorRule;

/* sl-advisor-rules.c */
const SlAdvisorRule *sl_advisor_rules_lookup (const char *id);

/* sl-advisor-trace-rules.c: the rank's timeline, read once for all the
 * rules that need "trace-events" */
void sl_advisor_trace_open                (SlAdvisorContext *ctx);
void sl_advisor_trace_close               (SlAdvisorContext *ctx);
/* memory-ops without API statistics */
void sl_advisor_memory_ops_from_trace     (SlAdvisorContext *ctx);
void sl_advisor_rule_task_wait            (SlAdvisorContext *ctx);
void sl_advisor_rule_gc                   (SlAdvisorContext *ctx);
void sl_advisor_rule_conjectured_gc       (SlAdvisorContext *ctx);
void sl_advisor_rule_syncbatchnorm        (SlAdvisorContext *ctx);
void sl_advisor_rule_synchronize_stream   (SlAdvisorContext *ctx);
void sl_advisor_rule_dataloader           (SlAdvisorContext *ctx);
void sl_advisor_rule_fusible_ops          (SlAdvisorContext *ctx);
/* sl-advisor-comm-rules.c */
void sl_advisor_rule_slow_link   (SlAdvisorContext *ctx);
void sl_advisor_rule_packet_size (SlAdvisorContext *ctx);

/* sl-advisor.c: helpers for the rules */
double            sl_advisor_threshold      (SlAdvisorContext  *ctx,
                                             const char        *name);
SlAdvisorFinding *sl_advisor_finding_begin  (SlAdvisorContext  *ctx);
/* @total_ns and @saving_total_ns are over the whole profile; the finding
 * gets them per step. @values fill the templates. */
void              sl_advisor_finding_end    (SlAdvisorContext  *ctx,
                                             SlAdvisorFinding  *finding,
                                             gint64             total_ns,
                                             gint64             saving_total_ns,
                                             GHashTable        *values);
void              sl_advisor_not_run        (SlAdvisorContext  *ctx,
                                             const char        *reason,
                                             const char *const *patterns);
GHashTable       *sl_advisor_values_new     (void);
void              sl_advisor_values_set     (GHashTable        *values,
                                             const char        *name,
                                             char              *value);
char             *sl_advisor_format_time    (gint64             ns);
char             *sl_advisor_format_percent (double             percent);
void              sl_advisor_add_op_evidence (SlAdvisorFinding *finding,
                                              SlOpRow          *row,
                                              const char       *value);
gboolean          sl_advisor_cancelled      (SlAdvisorContext  *ctx,
                                             guint              i);

G_END_DECLS
