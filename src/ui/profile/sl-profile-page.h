/* sl-profile-page.h: a profiler folder: summary, op statistics, steps,
 * the advisor's report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"

#include "sl-advisor-view.h"
#include "sl-comm-view.h"
#include "sl-hardware-group.h"
#include "sl-api-stats-view.h"
#include "sl-op-stats-view.h"
#include "sl-profile.h"
#include "sl-step-timeline-export.h"
#include "sl-step-trace-chart.h"

G_BEGIN_DECLS

#define SL_TYPE_PROFILE_PAGE (sl_profile_page_get_type ())
G_DECLARE_FINAL_TYPE (SlProfilePage, sl_profile_page, SL, PROFILE_PAGE, SlDocument)

GtkWidget        *sl_profile_page_new            (const char    *path,
                                                  const char    *title);
const char       *sl_profile_page_get_path       (SlProfilePage *self);
void              sl_profile_page_set_has_timeline (SlProfilePage *self,
                                                    gboolean       has_timeline);
SlProfile        *sl_profile_page_get_profile    (SlProfilePage *self);
void              sl_profile_page_show_view      (SlProfilePage *self,
                                                  const char    *view);
const char       *sl_profile_page_get_view       (SlProfilePage *self);
void              sl_profile_page_set_rank       (SlProfilePage *self,
                                                  guint          rank);
SlOpStatsView    *sl_profile_page_get_ops_view   (SlProfilePage *self);
SlApiStatsView   *sl_profile_page_get_apis_view  (SlProfilePage *self);
SlStepTraceChart *sl_profile_page_get_step_chart (SlProfilePage *self);
SlStepTimelineExport *sl_profile_page_get_step_export (SlProfilePage *self);
SlAdvisorView    *sl_profile_page_get_advisor_view (SlProfilePage *self);
guint             sl_profile_page_get_n_summary_rows (SlProfilePage *self);
SlCommView       *sl_profile_page_get_comm_view  (SlProfilePage *self);
/* Returns: (nullable): the Summary's hardware group, once a rank is shown */
SlHardwareGroup  *sl_profile_page_get_hardware_group (SlProfilePage *self);

G_END_DECLS
