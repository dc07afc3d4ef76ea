/* sl-workspace-problems.c: what went wrong with the database, for the
 * Problems panel: opening it, a damaged file recovered, a failed write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-private.h"

void
sl_workspace_add_problem (SlWorkspace *self,
                          SlSeverity   severity,
                          const char  *path,
                          const char  *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Workspace"), path, -1, message);

  g_list_store_append (self->problems, problem);
}

void
sl_workspace_warn_unless_cancelled (SlWorkspace *self,
                                    const char  *what,
                                    GError      *error)
{
  g_autofree char *message = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || !self->has_store)
    return;

  /* Translators: "%s: %s" is what failed, then why. */
  message = g_strdup_printf (_("%s: %s"), what, error->message);
  sl_workspace_add_problem (self, SL_SEVERITY_WARNING, self->db_path, message);
}

void
sl_workspace_report_open_failed (SlWorkspace *self,
                                 GError      *error)
{
  g_autofree char *message = g_strdup_printf (_("The workspace database could not be opened, so targets, recent folders and job history are not kept this time: %s"),
                                              error->message);
  sl_workspace_add_problem (self, SL_SEVERITY_ERROR, self->db_path, message);
}

/* A damaged database was recovered: every start says it, until the
 * report is dismissed. */
void
sl_workspace_report_recovery (SlWorkspace *self,
                              const char  *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Workspace"), self->db_path, -1,
                                                 message);

  sl_problem_set_hint (problem, _("Once you have read this, run “sightline-cli workspace --dismiss-recovery” and it is not shown again. The original files stay where the message says until you delete them."));
  g_list_store_append (self->problems, problem);
}

/**
 * sl_workspace_get_problems:
 *
 * Returns: (transfer none): a #GListModel of #SlProblem: what went wrong
 *   with the database (opening it, a damaged file moved aside, a failed
 *   write), for the Problems panel
 */
GListModel *
sl_workspace_get_problems (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->problems);
}
