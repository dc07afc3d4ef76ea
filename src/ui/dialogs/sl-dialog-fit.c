/* sl-dialog-fit.c
 *
 * A dialog's fields are in scrolled pages (AdwPreferencesPage), which ask
 * for the whole height of their content: a long form would open a dialog
 * taller than a 1024 × 640 screen. Their pages scroll instead, and the
 * dialog opens at most SL_DIALOG_MAX_HEIGHT tall.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "sl-dialog-fit.h"

/* The scrolled window a page is built on: it scrolls, and takes the
 * height the dialog has. */
static void
fit_pages (GtkWidget *widget)
{
  if (GTK_IS_POPOVER (widget))
    return;
  if (GTK_IS_SCROLLED_WINDOW (widget) && ADW_IS_PREFERENCES_PAGE (gtk_widget_get_parent (widget)))
    {
      gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (widget), FALSE);
      gtk_widget_set_vexpand (widget, TRUE);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    fit_pages (child);
}

/**
 * sl_dialog_fit_screen:
 *
 * Lets the pages of @dialog scroll rather than grow it, and opens it at most
 * %SL_DIALOG_MAX_HEIGHT tall. Call it once its template is built.
 */
void
sl_dialog_fit_screen (GtkWindow *dialog)
{
  int width = 0, height = 0;

  g_return_if_fail (GTK_IS_WINDOW (dialog));

  fit_pages (GTK_WIDGET (dialog));
  gtk_window_get_default_size (dialog, &width, &height);
  if (height <= 0 || height > SL_DIALOG_MAX_HEIGHT)
    gtk_window_set_default_size (dialog, width, SL_DIALOG_MAX_HEIGHT);
}
