/* sl-advisor-skip-row.h: a rule of the Advisor that could not run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-advisor-report.h"

G_BEGIN_DECLS

#define SL_TYPE_ADVISOR_SKIP_ROW (sl_advisor_skip_row_get_type ())
G_DECLARE_FINAL_TYPE (SlAdvisorSkipRow, sl_advisor_skip_row, SL, ADVISOR_SKIP_ROW, AdwExpanderRow)

GtkWidget *sl_advisor_skip_row_new (const char          *title,
                                    const SlAdvisorSkip *skip);

G_END_DECLS
