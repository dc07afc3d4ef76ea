/* sl-graph-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-graph-export.h"

typedef struct {
  PanelWidget   *page;
  SlGraphCanvas *canvas;
  GCancellable  *cancellable;
} Ask;

typedef struct {
  PanelWidget *self;
  char        *name;
} Export;

static void
toast (PanelWidget *page,
       const char  *message)
{
  gtk_widget_activate_action (GTK_WIDGET (page), "win.toast", "s", message);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autofree Export *export = user_data;
  g_autoptr(PanelWidget) self = export->self;
  g_autofree char *name = export->name;
  g_autoptr(GError) error = NULL;

  panel_widget_unmark_busy (PANEL_WIDGET (self));
  if (!sl_graph_canvas_export_finish (SL_GRAPH_CANVAS (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        toast (self, error->message);
    }
  else
    {
      /* Translators: %s is a file name */
      g_autofree char *message = g_strdup_printf (_("The graph was written to %s"), name);

      toast (self, message);
    }
}

static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    Ask             *ask)
{
  PanelWidget *self = ask->page;
  g_autoptr(GFile) file = NULL;
  g_autofree char *name = NULL;
  SlGraphExportFormat format;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      name = g_file_get_basename (file);
      if (!sl_graph_export_format_from_name (name, &format))
        {
          g_autofree char *with_png = g_strconcat (g_file_peek_path (file), ".png", NULL);

          g_object_unref (file);
          file = g_file_new_for_path (with_png);
          format = SL_GRAPH_EXPORT_PNG;
        }
      Export *export = g_new0 (Export, 1);

      export->self = g_object_ref (self);
      export->name = g_file_get_basename (file);
      panel_widget_mark_busy (PANEL_WIDGET (self));
      sl_graph_canvas_export_async (ask->canvas, file, format, TRUE, ask->cancellable, export_done_cb, export);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (ask->page);
  g_object_unref (ask->canvas);
  g_clear_object (&ask->cancellable);
  g_free (ask);
}

void
sl_graph_export_ask (PanelWidget   *page,
                     SlGraphCanvas *canvas,
                     const char    *graph_name,
                     GCancellable  *cancellable)
{
  GtkWidget *widget = GTK_WIDGET (page);
  GtkFileChooserNative *dialog;
  Ask *ask;
  g_autofree char *suggested = NULL;
  const char *patterns[][2] = {
    { N_("PNG image"), "*.png" },
    { N_("SVG drawing"), "*.svg" },
    { N_("PDF document"), "*.pdf" },
  };

  g_return_if_fail (PANEL_IS_WIDGET (page));
  g_return_if_fail (SL_IS_GRAPH_CANVAS (canvas));

  dialog = gtk_file_chooser_native_new (_("Export the Graph"), GTK_WINDOW (gtk_widget_get_root (widget)),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      GtkFileFilter *filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _(patterns[i][0]));
      gtk_file_filter_add_pattern (filter, patterns[i][1]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
      g_object_unref (filter);
    }
  suggested = g_strdup_printf ("%s.png", graph_name);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), suggested);
  ask = g_new0 (Ask, 1);
  ask->page = g_object_ref (page);
  ask->canvas = g_object_ref (canvas);
  ask->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), ask);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}
