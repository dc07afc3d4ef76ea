/* sl-dialog-memory.h: the values a dialog was last closed with, per project
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void sl_dialog_memory_attach (GtkWindow          *dialog,
                              const char         *dialog_name,
                              const char         *project_key,
                              const char * const *field_ids);
void sl_dialog_memory_save   (GtkWindow          *dialog);

G_END_DECLS
