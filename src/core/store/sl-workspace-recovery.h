/* sl-workspace-recovery.h: what was done to a workspace database that
 * could not be used as it was, and what of it was kept
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum {
  /* The file was damaged: it was moved aside with its journal files and
   * what could be read of it was copied into a new database. */
  SL_WORKSPACE_RECOVERY_DAMAGED,
  /* A write-ahead log beside the file did not belong to it: the log was
   * moved aside unapplied and the file itself kept. */
  SL_WORKSPACE_RECOVERY_FOREIGN_WAL,
} SlWorkspaceRecoveryKind;

#define SL_TYPE_WORKSPACE_RECOVERY (sl_workspace_recovery_get_type ())
G_DECLARE_FINAL_TYPE (SlWorkspaceRecovery, sl_workspace_recovery, SL, WORKSPACE_RECOVERY, GObject)

SlWorkspaceRecovery     *sl_workspace_recovery_new             (SlWorkspaceRecoveryKind  kind,
                                                                const char              *db_path,
                                                                const char              *reason);
SlWorkspaceRecovery     *sl_workspace_recovery_new_from_json   (const char              *json,
                                                                GError                 **error);
char                    *sl_workspace_recovery_to_json         (SlWorkspaceRecovery     *self);
void                     sl_workspace_recovery_build_json      (SlWorkspaceRecovery     *self,
                                                                JsonBuilder             *builder);

SlWorkspaceRecoveryKind  sl_workspace_recovery_get_kind        (SlWorkspaceRecovery     *self);
const char              *sl_workspace_recovery_get_db_path     (SlWorkspaceRecovery     *self);
const char              *sl_workspace_recovery_get_reason      (SlWorkspaceRecovery     *self);
gint64                   sl_workspace_recovery_get_when        (SlWorkspaceRecovery     *self);
void                     sl_workspace_recovery_add_moved_aside (SlWorkspaceRecovery     *self,
                                                                const char              *path);
const char * const      *sl_workspace_recovery_get_moved_aside (SlWorkspaceRecovery     *self);

/* Rows of each table: @lost is how many are known to be lost, or -1
 * when the table could not be read to its end and nobody knows. */
void                     sl_workspace_recovery_set_table       (SlWorkspaceRecovery     *self,
                                                                const char              *table,
                                                                guint64                  recovered,
                                                                gint64                   lost);
gboolean                 sl_workspace_recovery_lookup_table    (SlWorkspaceRecovery     *self,
                                                                const char              *table,
                                                                guint64                 *recovered,
                                                                gint64                  *lost);
char                    *sl_workspace_recovery_dup_message     (SlWorkspaceRecovery     *self);

G_END_DECLS
