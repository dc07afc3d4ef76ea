/* sl-target.h: a machine that runs jobs (this computer, or a server over SSH)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_TYPE_TARGET (sl_target_get_type ())
G_DECLARE_DERIVABLE_TYPE (SlTarget, sl_target, SL, TARGET, GObject)

struct _SlTargetClass
{
  GObjectClass parent_class;

  const char  *(*get_kind)        (SlTarget             *self);
  char        *(*dup_location)    (SlTarget             *self);
  GSubprocess *(*spawn)           (SlTarget             *self,
                                   const char * const   *argv,
                                   const char           *working_dir,
                                   const char * const   *env,
                                   GError              **error);

  /*< private >*/
  gpointer _reserved[8];
};

gint64       sl_target_get_id           (SlTarget            *self);
void         sl_target_set_id           (SlTarget            *self,
                                         gint64               id);
const char  *sl_target_get_name         (SlTarget            *self);
void         sl_target_set_name         (SlTarget            *self,
                                         const char          *name);
const char  *sl_target_get_kind         (SlTarget            *self);
char        *sl_target_dup_location     (SlTarget            *self);
GSubprocess *sl_target_spawn            (SlTarget            *self,
                                         const char * const  *argv,
                                         const char          *working_dir,
                                         const char * const  *env,
                                         GError             **error);

G_END_DECLS
