/* sl-advisor-op-link.h: an op named in a finding, as two links
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_ADVISOR_OP_LINK (sl_advisor_op_link_get_type ())
G_DECLARE_FINAL_TYPE (SlAdvisorOpLink, sl_advisor_op_link, SL, ADVISOR_OP_LINK, GtkWidget)

GtkWidget  *sl_advisor_op_link_new         (const char      *op_name,
                                            gboolean         expand);
const char *sl_advisor_op_link_get_op_name (SlAdvisorOpLink *self);

G_END_DECLS
