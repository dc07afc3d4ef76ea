/* sl-finding-page.h: the overview document of one finding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"

#include "sl-finding.h"

G_BEGIN_DECLS

#define SL_TYPE_FINDING_PAGE (sl_finding_page_get_type ())
G_DECLARE_FINAL_TYPE (SlFindingPage, sl_finding_page, SL, FINDING_PAGE, SlDocument)

SlFinding *sl_finding_page_get_finding (SlFindingPage *self);
void       sl_finding_page_set_finding (SlFindingPage *self,
                                        SlFinding     *finding);

G_END_DECLS
