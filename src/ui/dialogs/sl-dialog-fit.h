/* sl-dialog-fit.h: dialogs that fit a laptop's screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The tallest a dialog opens or asks to be, for a 640 px high screen. */
#define SL_DIALOG_MAX_HEIGHT 560

void sl_dialog_fit_screen (GtkWindow *dialog);

G_END_DECLS
