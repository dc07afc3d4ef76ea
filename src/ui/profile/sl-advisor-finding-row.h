/* sl-advisor-finding-row.h: a finding in the Advisor tab
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-advisor-finding-item.h"

G_BEGIN_DECLS

#define SL_TYPE_ADVISOR_FINDING_ROW (sl_advisor_finding_row_get_type ())
G_DECLARE_FINAL_TYPE (SlAdvisorFindingRow, sl_advisor_finding_row, SL, ADVISOR_FINDING_ROW, AdwExpanderRow)

GtkWidget            *sl_advisor_finding_row_new      (SlAdvisorFindingItem *item);
SlAdvisorFindingItem *sl_advisor_finding_row_get_item (SlAdvisorFindingRow  *self);

G_END_DECLS
