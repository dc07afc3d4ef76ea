/* sl-advisor-view.h: the advisor's report on a profile, by severity
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-advisor-report.h"
#include "sl-description.h"
#include "sl-document.h"
#include "sl-time-format.h"

G_BEGIN_DECLS

#define SL_TYPE_ADVISOR_VIEW (sl_advisor_view_get_type ())
G_DECLARE_FINAL_TYPE (SlAdvisorView, sl_advisor_view, SL, ADVISOR_VIEW, GtkWidget)

GtkWidget        *sl_advisor_view_new                 (void);
void              sl_advisor_view_set_running         (SlAdvisorView    *self);
void              sl_advisor_view_set_error           (SlAdvisorView    *self,
                                                       const char       *message);
void              sl_advisor_view_set_report          (SlAdvisorView    *self,
                                                       SlAdvisorReport  *report);
SlAdvisorReport  *sl_advisor_view_get_report          (SlAdvisorView    *self);
void              sl_advisor_view_set_rank_label      (SlAdvisorView    *self,
                                                       const char       *rank_label);
void              sl_advisor_view_set_time_unit       (SlAdvisorView    *self,
                                                       SlTimeUnit        unit);
SlDocumentState   sl_advisor_view_get_state           (SlAdvisorView    *self);
guint             sl_advisor_view_get_n_shown         (SlAdvisorView    *self,
                                                       SlAdvisorSeverity severity);
guint             sl_advisor_view_get_n_not_run_shown (SlAdvisorView    *self);
SlAdvisorFinding *sl_advisor_view_get_selected        (SlAdvisorView    *self);
void              sl_advisor_view_select              (SlAdvisorView    *self,
                                                       SlAdvisorFinding *finding);
gboolean          sl_advisor_view_show_details        (SlAdvisorView    *self,
                                                       SlDescription    *details);

G_END_DECLS
