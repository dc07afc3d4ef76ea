/* sl-target-record.h: a machine that runs jobs, as the workspace stores it
 *
 * A target record says how to reach a machine, never how to prove who
 * you are: there is no field for a password, a passphrase or a private
 * key. Those are asked for when a connection needs them; a key stays in
 * its file and only the path of that file is kept here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_TARGET_KIND_LOCAL,
  SL_TARGET_KIND_SSH,
} SlTargetKind;

typedef enum {
  SL_TARGET_AUTH_AGENT,
  SL_TARGET_AUTH_KEY,
  SL_TARGET_AUTH_PASSWORD,
  SL_TARGET_AUTH_KEYBOARD_INTERACTIVE,
} SlTargetAuth;

#define SL_TARGET_DEFAULT_PORT 22

#define SL_TYPE_TARGET_RECORD (sl_target_record_get_type ())
G_DECLARE_FINAL_TYPE (SlTargetRecord, sl_target_record, SL, TARGET_RECORD, GObject)

SlTargetRecord *sl_target_record_new                    (SlTargetKind    kind,
                                                         const char     *name);
gint64          sl_target_record_get_id                 (SlTargetRecord *self);
void            sl_target_record_set_id                 (SlTargetRecord *self,
                                                         gint64          id);
SlTargetKind    sl_target_record_get_kind               (SlTargetRecord *self);
const char     *sl_target_record_get_name               (SlTargetRecord *self);
void            sl_target_record_set_name               (SlTargetRecord *self,
                                                         const char     *name);
const char     *sl_target_record_get_host               (SlTargetRecord *self);
void            sl_target_record_set_host               (SlTargetRecord *self,
                                                         const char     *host);
guint           sl_target_record_get_port               (SlTargetRecord *self);
void            sl_target_record_set_port               (SlTargetRecord *self,
                                                         guint           port);
const char     *sl_target_record_get_user               (SlTargetRecord *self);
void            sl_target_record_set_user               (SlTargetRecord *self,
                                                         const char     *user);
SlTargetAuth    sl_target_record_get_auth               (SlTargetRecord *self);
void            sl_target_record_set_auth               (SlTargetRecord *self,
                                                         SlTargetAuth    auth);
const char     *sl_target_record_get_identity_file      (SlTargetRecord *self);
void            sl_target_record_set_identity_file      (SlTargetRecord *self,
                                                         const char     *path);
const char     *sl_target_record_get_known_hosts_file   (SlTargetRecord *self);
void            sl_target_record_set_known_hosts_file   (SlTargetRecord *self,
                                                         const char     *path);
const char     *sl_target_record_get_remote_base_folder (SlTargetRecord *self);
void            sl_target_record_set_remote_base_folder (SlTargetRecord *self,
                                                         const char     *folder);
const char     *sl_target_record_get_setup_command      (SlTargetRecord *self);
void            sl_target_record_set_setup_command      (SlTargetRecord *self,
                                                         const char     *command);

const char     *sl_target_kind_to_id                    (SlTargetKind    kind);
gboolean        sl_target_kind_from_id                  (const char     *id,
                                                         SlTargetKind   *kind);
const char     *sl_target_auth_to_id                    (SlTargetAuth    auth);
gboolean        sl_target_auth_from_id                  (const char     *id,
                                                         SlTargetAuth   *auth);

G_END_DECLS
