/* sl-workflow-thread.h: runs a workflow on a thread of its own for its async call
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A workflow's blocking run: FALSE with @error when it failed. */
typedef gboolean (*SlWorkflowRunFunc) (gpointer       workflow,
                                       GCancellable  *cancellable,
                                       GError       **error);

void sl_workflow_thread_run (GTask             *task,
                             const char        *thread_name,
                             SlWorkflowRunFunc  func);

G_END_DECLS
