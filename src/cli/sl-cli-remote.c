/* sl-cli-remote.c: what the job and pull commands share
 *
 * Opening the workspace database, finding a target by name or id and
 * reaching it through a shell that reconnects, saying so on stderr.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-local-target.h"
#include "sl-remote-run.h"
#include "sl-ssh-target.h"

/**
 * sl_cli_open_store:
 * @db_path: (nullable): the database, or %NULL for the default one
 *
 * Opens the workspace database for every command. While the report of a
 * recovery of the database is not dismissed, says so on stderr, once per
 * command.
 */
SlWorkspaceStore *
sl_cli_open_store (const char  *db_path,
                   GError     **error)
{
  static gboolean noted;
  g_autofree char *path = db_path != NULL ? g_strdup (db_path) : sl_workspace_store_dup_default_path ();
  SlWorkspaceStore *store = sl_workspace_store_new_for_path (path, error);

  if (store != NULL && sl_workspace_store_get_recovery_message (store) != NULL && !noted)
    {
      noted = TRUE;
      g_printerr (_("sightline-cli: note: %s\n"), sl_workspace_store_get_recovery_message (store));
      g_printerr (_("sightline-cli: note: run “sightline-cli workspace --dismiss-recovery” once you have read this, and it is not shown again.\n"));
    }

  return store;
}

SlTarget *
sl_cli_find_target (SlWorkspaceStore  *store,
                    const char        *name,
                    gint64             target_id,
                    GError           **error)
{
  g_autoptr(GPtrArray) targets = sl_workspace_store_list_targets (store, error);

  if (targets == NULL)
    return NULL;

  for (guint i = 0; i < targets->len; i++)
    {
      SlTargetRecord *record = g_ptr_array_index (targets, i);

      if (name != NULL ? g_str_equal (sl_target_record_get_name (record), name)
                       : sl_target_record_get_id (record) == target_id)
        return sl_target_new_from_record (record, error);
    }

  if (name == NULL && target_id <= 0)
    return sl_local_target_new ();
  if (name != NULL && g_str_equal (name, "local"))
    return sl_local_target_new ();

  if (name != NULL)
    g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                 _("There is no target named “%s”; “sightline-cli target list” shows them"), name);
  else
    g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
                 _("The job’s target is no longer in the workspace"));
  return NULL;
}

void
sl_cli_print_connection_state (SlTargetShellState  state,
                               const char         *detail,
                               gpointer            user_data)
{
  switch (state)
    {
    case SL_TARGET_SHELL_RECONNECTING:
      g_printerr (_("sightline-cli: connection lost (%s); reconnecting…\n"), detail);
      break;
    case SL_TARGET_SHELL_CONNECTED:
      g_printerr (_("sightline-cli: connected again\n"));
      break;
    case SL_TARGET_SHELL_DISCONNECTED:
    default:
      g_printerr (_("sightline-cli: gave up reconnecting: %s\n"), detail);
      break;
    }
}

/**
 * sl_cli_create_shell:
 *
 * Returns: (transfer full): a shell on @target that reports reconnections
 *   on stderr
 */
SlTargetShell *
sl_cli_create_shell (SlTarget *target)
{
  SlTargetShell *shell = sl_target_shell_new_for_target (target);
  const char *limit = g_getenv ("SIGHTLINE_RECONNECT_SECONDS");

  sl_target_shell_set_state_func (shell, sl_cli_print_connection_state, NULL);
  if (limit != NULL)
    sl_target_shell_set_reconnect_limit (shell, (guint)g_ascii_strtoull (limit, NULL, 10));
  return shell;
}


/**
 * sl_cli_print_progress:
 *
 * An SlTransferProgressFunc that prints one line, rewritten in place,
 * on stderr when it is a terminal.
 */
void
sl_cli_print_progress (const SlTransferProgress *progress,
                       gpointer                  user_data)
{
  g_autofree char *done = NULL;
  g_autofree char *total = NULL;
  g_autofree char *rate = NULL;

  /* Only on a terminal: the line is rewritten in place. */
  if (!g_log_writer_supports_color (fileno (stderr)))
    return;

  done = g_format_size (progress->bytes_done);
  total = g_format_size (progress->bytes_total);
  rate = g_format_size ((guint64)progress->bytes_per_second);
  g_printerr ("\r\033[K");
  if (progress->seconds_left >= 0)
    g_printerr (_("%llu/%llu files, %s of %s, %s/s, %d s left"),
                (unsigned long long)progress->files_done, (unsigned long long)progress->files_total,
                done, total, rate, (int)(progress->seconds_left + 0.5));
  else
    g_printerr (_("%llu/%llu files, %s of %s"),
                (unsigned long long)progress->files_done, (unsigned long long)progress->files_total,
                done, total);
  if (progress->current == NULL)
    g_printerr ("\n");
}
