/* sl-ssh-target.h: a server reached over SSH as a target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-target.h"
#include "sl-target-record.h"
#include "sl-ssh-session.h"

G_BEGIN_DECLS

#define SL_TYPE_SSH_TARGET (sl_ssh_target_get_type ())
G_DECLARE_FINAL_TYPE (SlSshTarget, sl_ssh_target, SL, SSH_TARGET, SlTarget)

SlTarget       *sl_ssh_target_new                   (const char      *name,
                                                     const char      *host);
SlTarget       *sl_ssh_target_new_from_record       (SlTargetRecord  *record,
                                                     GError         **error);
SlTargetRecord *sl_ssh_target_to_record             (SlSshTarget     *self);
gboolean        sl_ssh_target_update_record         (SlSshTarget     *self,
                                                     SlTargetRecord  *record,
                                                     GError         **error);
const char     *sl_ssh_target_get_host              (SlSshTarget     *self);
void            sl_ssh_target_set_host              (SlSshTarget     *self,
                                                     const char      *host);
guint           sl_ssh_target_get_port              (SlSshTarget     *self);
void            sl_ssh_target_set_port              (SlSshTarget     *self,
                                                     guint            port);
const char     *sl_ssh_target_get_user              (SlSshTarget     *self);
void            sl_ssh_target_set_user              (SlSshTarget     *self,
                                                     const char      *user);
const char     *sl_ssh_target_get_identity_file     (SlSshTarget     *self);
void            sl_ssh_target_set_identity_file     (SlSshTarget     *self,
                                                     const char      *path);
const char     *sl_ssh_target_get_known_hosts_file  (SlSshTarget     *self);
void            sl_ssh_target_set_known_hosts_file  (SlSshTarget     *self,
                                                     const char      *path);
const char     *sl_ssh_target_get_base_dir          (SlSshTarget     *self);
void            sl_ssh_target_set_base_dir          (SlSshTarget     *self,
                                                     const char      *base_dir);
const char     *sl_ssh_target_get_env_setup         (SlSshTarget     *self);
void            sl_ssh_target_set_env_setup         (SlSshTarget     *self,
                                                     const char      *command);
SlSshSession   *sl_ssh_target_create_session       (SlSshTarget     *self);
char           *sl_ssh_target_dup_command_line      (SlSshTarget     *self,
                                                     const char * const *argv,
                                                     const char      *working_dir,
                                                     const char * const *env,
                                                     GError         **error);

G_END_DECLS
