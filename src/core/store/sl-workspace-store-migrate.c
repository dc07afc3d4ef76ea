/* sl-workspace-store-migrate.c: bringing the workspace database up to the latest schema
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-schema.h"

#include "sl-workspace-store-private.h"

static gboolean
apply_migrations (SlWorkspaceStore  *self,
                  guint              from_version,
                  guint              to_version,
                  GError           **error)
{
  const char *what = _("Cannot bring the workspace database up to date");
  g_autofree char *set_version = NULL;

  for (guint version = from_version + 1; version <= to_version; version++)
    {
      const char * const *steps = sl_workspace_schema_get_steps (version);

      for (guint i = 0; steps[i] != NULL; i++)
        {
          if (!exec_sql (self, steps[i], what, error))
            return FALSE;
        }
    }

  /* PRAGMA takes no bound parameters; the number is this build's own. */
  set_version = g_strdup_printf ("PRAGMA user_version = %u", to_version);
  return exec_sql (self, set_version, what, error);
}

gboolean
sl_workspace_store_migrate (SlWorkspaceStore  *self,
                            GError           **error)
{
  guint latest = sl_workspace_schema_get_latest_version ();
  gint64 version = 0;

  if (!begin_transaction (self, error))
    return FALSE;

  /* Read again under the write lock: another process may have migrated
   * the file since it was opened. */
  if (!query_int (self, "PRAGMA user_version", &version, error) ||
      (version < latest && !apply_migrations (self, (guint)version, latest, error)))
    {
      rollback_transaction (self);
      return FALSE;
    }

  return commit_transaction (self, error);
}
