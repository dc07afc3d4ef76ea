/* sl-advisor-finding-item.h: a finding as the Advisor tab lists it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-advisor-finding.h"
#include "sl-time-format.h"

G_BEGIN_DECLS

#define SL_TYPE_ADVISOR_FINDING_ITEM (sl_advisor_finding_item_get_type ())
G_DECLARE_FINAL_TYPE (SlAdvisorFindingItem, sl_advisor_finding_item, SL, ADVISOR_FINDING_ITEM, GObject)

SlAdvisorFindingItem *sl_advisor_finding_item_new         (SlAdvisorFinding     *finding,
                                                           guint                 index,
                                                           SlTimeUnit            unit);
SlAdvisorFinding     *sl_advisor_finding_item_get_finding (SlAdvisorFindingItem *self);
guint                 sl_advisor_finding_item_get_index   (SlAdvisorFindingItem *self);
SlTimeUnit            sl_advisor_finding_item_get_unit    (SlAdvisorFindingItem *self);

/* The words and numbers the tab and Details share. */
const char           *sl_advisor_severity_label           (SlAdvisorSeverity     severity);
const char           *sl_advisor_severity_icon            (SlAdvisorSeverity     severity);
const char           *sl_advisor_severity_class           (SlAdvisorSeverity     severity);
char                 *sl_advisor_item_format_time         (gint64                ns,
                                                           SlTimeUnit            unit);
char                 *sl_advisor_item_format_percent      (double                percent);
char                 *sl_advisor_evidence_format_location (const SlAdvisorEvidence *evidence,
                                                           gboolean                 basename);

G_END_DECLS
