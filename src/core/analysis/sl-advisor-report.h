/* sl-advisor-report.h: what one run of the advisor found, and did not run
 *
 * Findings, most severe first; the rules that could not run on a rank with
 * the reason, the paths looked in and what to enable in the profiler; the
 * rule book's version and the thresholds the user overrode.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-advisor-finding.h"
#include "sl-advisor-rule-book.h"
#include "sl-performance-report.h"

G_BEGIN_DECLS

typedef struct {
  char  *rule;
  char  *rank_label;
  char  *reason;
  char  *enable;       /* what to turn on in the profiler; may be empty */
  char **looked_in;    /* paths (or path patterns) searched */
} SlAdvisorSkip;

#define SL_TYPE_ADVISOR_REPORT (sl_advisor_report_get_type ())
G_DECLARE_FINAL_TYPE (SlAdvisorReport, sl_advisor_report, SL, ADVISOR_REPORT, GObject)

SlAdvisorReport     *sl_advisor_report_new           (const char        *path,
                                                      SlAdvisorRuleBook *book);
const char          *sl_advisor_report_get_path      (SlAdvisorReport   *self);
SlAdvisorRuleBook   *sl_advisor_report_get_rule_book (SlAdvisorReport   *self);
/* SlAdvisorFinding */
GListModel          *sl_advisor_report_get_findings  (SlAdvisorReport   *self);
guint                sl_advisor_report_get_n_not_run (SlAdvisorReport   *self);
const SlAdvisorSkip *sl_advisor_report_get_not_run   (SlAdvisorReport   *self,
                                                      guint              index);
SlPerformanceReport *sl_advisor_report_get_performance (SlAdvisorReport *self);

/* Building (the advisor) */
void                 sl_advisor_report_add_finding   (SlAdvisorReport   *self,
                                                      SlAdvisorFinding  *finding);
void                 sl_advisor_report_add_not_run   (SlAdvisorReport   *self,
                                                      const char        *rule,
                                                      const char        *rank_label,
                                                      const char        *reason,
                                                      const char        *enable,
                                                      const char *const *looked_in);
/* Sorts findings by severity, then by saving. */
void                 sl_advisor_report_finish        (SlAdvisorReport   *self);

G_END_DECLS
