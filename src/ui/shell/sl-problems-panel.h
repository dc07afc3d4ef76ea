/* sl-problems-panel.h: every warning and error, with file and position
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

#include "sl-data-table.h"
#include "sl-document.h"
#include "sl-problem.h"

G_BEGIN_DECLS

#define SL_TYPE_PROBLEMS_PANEL (sl_problems_panel_get_type ())
G_DECLARE_FINAL_TYPE (SlProblemsPanel, sl_problems_panel, SL, PROBLEMS_PANEL, PanelWidget)

GtkWidget  *sl_problems_panel_new        (void);
/* The document whose problems show beside the window's own: the one in front. */
void        sl_problems_panel_set_document (SlProblemsPanel *self,
                                            SlDocument      *document);
SlDocument *sl_problems_panel_get_document (SlProblemsPanel *self);
/* The shell's own problems, shown before the document's: the session's. */
void        sl_problems_panel_set_problems (SlProblemsPanel *self,
                                            GListModel      *problems);
GListModel *sl_problems_panel_get_problems (SlProblemsPanel *self);
GListModel *sl_problems_panel_get_model  (SlProblemsPanel *self);
SlDataTable *sl_problems_panel_get_table (SlProblemsPanel *self);
void        sl_problems_panel_set_folders (SlProblemsPanel *self,
                                           GListModel      *folders);
char       *sl_problems_panel_dup_file_label (SlProblemsPanel *self,
                                              SlProblem       *problem);
guint       sl_problems_panel_count      (SlProblemsPanel *self,
                                          SlSeverity       severity);

const char *sl_problems_panel_severity_icon_name (SlSeverity       severity);
const char *sl_problems_panel_severity_label     (SlSeverity       severity);

G_END_DECLS
