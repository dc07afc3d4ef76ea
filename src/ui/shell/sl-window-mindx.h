/* sl-window-mindx.h: the window runs a MindX SDK app configuration
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-mindx-workflow.h"
#include "sl-project-record.h"
#include "sl-window.h"

G_BEGIN_DECLS

/* Starts the MindX workflow for @config on the target @target_id (0 for
 * this computer): its log streams into the Console, its problems go to
 * Problems. Returns (transfer full) the workflow, or %NULL with a toast
 * when the target cannot be made. */
SlMindxWorkflow *sl_window_run_mindx (SlWindow          *self,
                                      SlProjectRecord   *project,
                                      SlRunConfigRecord *config,
                                      gint64             target_id);

G_END_DECLS
