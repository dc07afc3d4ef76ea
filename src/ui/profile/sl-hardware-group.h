/* sl-hardware-group.h: the Summary's host, devices and versions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-profile.h"

G_BEGIN_DECLS

#define SL_TYPE_HARDWARE_GROUP (sl_hardware_group_get_type ())
G_DECLARE_FINAL_TYPE (SlHardwareGroup, sl_hardware_group, SL, HARDWARE_GROUP, AdwPreferencesGroup)

GtkWidget  *sl_hardware_group_new            (void);
void        sl_hardware_group_set_rank       (SlHardwareGroup     *self,
                                              const SlProfileRank *rank);
/* What the row titled @title shows (device rows: "Device N: title"),
 * NULL when that row is hidden. */
const char *sl_hardware_group_get_value      (SlHardwareGroup     *self,
                                              const char          *title);
guint       sl_hardware_group_get_n_shown    (SlHardwareGroup     *self);

G_END_DECLS
