/* sl-preferences-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SL_TYPE_PREFERENCES_WINDOW (sl_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (SlPreferencesWindow, sl_preferences_window, SL, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget *sl_preferences_window_new (void);

G_END_DECLS
