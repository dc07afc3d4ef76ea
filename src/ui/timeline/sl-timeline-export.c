/* sl-timeline-export.c
 *
 * A timeline exported as the user sees it: the selected range (or the part
 * shown) as a Chrome trace or CSV of its slices without the hidden tracks,
 * or the view as drawn as PNG, SVG or PDF. Files are written whole or not
 * at all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-chrome-trace-writer.h"
#include "sl-image-file.h"
#include "sl-replace-stream.h"
#include "sl-timeline-export.h"

/* The selected range, else the part of the trace shown. */
static void
export_range (SlTimelineView *view,
              gint64         *from_ns,
              gint64         *to_ns)
{
  if (!sl_timeline_renderer_get_range (sl_timeline_view_get_renderer (view), from_ns, to_ns) ||
      *to_ns <= *from_ns)
    sl_timeline_view_get_window (view, from_ns, to_ns);
}

/* Hidden tracks are left out; with none hidden, every track goes. */
static GArray *
export_tracks (SlTimelineView *view)
{
  SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (view);
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n = sl_trace_get_n_tracks (sl_timeline_view_get_trace (view));

  for (guint t = 0; t < n; t++)
    {
      if (!sl_timeline_renderer_get_track_hidden (renderer, t))
        g_array_append_val (tracks, t);
    }
  if (tracks->len == n)
    g_array_set_size (tracks, 0);
  return tracks;
}

static void
draw_image (cairo_t  *cr,
            gpointer  user_data)
{
  SlTimelineView *view = user_data;
  SlTimelineViewport viewport;

  sl_timeline_view_get_viewport (view, &viewport);
  sl_timeline_renderer_draw (sl_timeline_view_get_renderer (view), cr, &viewport);
}

static gboolean
export_image (SlTimelineView  *view,
              const char      *format,
              const char      *path,
              GError         **error)
{
  g_autoptr(GFile) file = NULL;
  SlTimelineViewport viewport;

  sl_timeline_view_get_viewport (view, &viewport);
  if (viewport.width <= 0 || viewport.height <= 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("The timeline is not shown yet"));
      return FALSE;
    }

  /* The previous file stays until the whole image is written. */
  file = g_file_new_for_path (path);
  return sl_image_file_write (file, format, viewport.width, viewport.height, draw_image, view, error);
}

/**
 * sl_timeline_export_write:
 * @view: a view showing a trace
 * @format: "json" (Chrome trace of the selected range, or of the part
 *   shown, without hidden tracks), "csv" (its slices), or "png", "svg" or
 *   "pdf" (the view as drawn)
 * @n_items: (out) (optional): events or rows written, for json and csv
 *
 * Returns: %TRUE on success
 */
gboolean
sl_timeline_export_write (SlTimelineView  *view,
                          const char      *format,
                          const char      *path,
                          guint64         *n_items,
                          GError         **error)
{
  SlTrace *trace;
  g_autoptr(GFile) file = NULL;
  g_autoptr(SlReplaceStream) out = NULL;
  g_autoptr(GArray) tracks = NULL;
  const guint *selected;
  gint64 from_ns, to_ns;
  guint64 n = 0;
  gboolean ok;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (view), FALSE);
  g_return_val_if_fail (format != NULL && path != NULL, FALSE);

  trace = sl_timeline_view_get_trace (view);
  g_return_val_if_fail (trace != NULL, FALSE);

  if (g_str_equal (format, "png") || g_str_equal (format, "svg") || g_str_equal (format, "pdf"))
    return export_image (view, format, path, error);

  export_range (view, &from_ns, &to_ns);
  tracks = export_tracks (view);
  file = g_file_new_for_path (path);
  /* Written to a temporary file and renamed when complete. */
  if (!(out = sl_replace_stream_new (file, NULL, error)))
    return FALSE;

  selected = tracks->len > 0 ? (const guint *)(gpointer)tracks->data : NULL;
  if (g_str_equal (format, "csv"))
    ok = sl_trace_write_slices_csv (trace, from_ns, to_ns, selected, tracks->len,
                                    G_OUTPUT_STREAM (out), &n, NULL, error);
  else
    ok = sl_chrome_trace_write_range (trace, from_ns, to_ns, selected, tracks->len,
                                      G_OUTPUT_STREAM (out), &n, NULL, error);

  if (!ok || !sl_replace_stream_commit (out, NULL, error))
    return FALSE;

  if (n_items != NULL)
    *n_items = n;
  return TRUE;
}

static void
export_chosen_cb (GtkNativeDialog *dialog,
                  int              response,
                  GtkWidget       *source)
{
  SlTimelineView *view = g_object_get_data (G_OBJECT (dialog), "sl-view");
  const char *format = g_object_get_data (G_OBJECT (dialog), "sl-format");
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  guint64 n = 0;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) != NULL &&
      (path = g_file_get_path (file)) != NULL)
    {
      if (!sl_timeline_export_write (view, format, path, &n, &error))
        gtk_widget_activate_action (source, "win.toast", "s", error->message);
      else if (g_str_equal (format, "json") || g_str_equal (format, "csv"))
        {
          g_autofree char *count = sl_count_format (n);
          g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event written to %s",
                                                                   "%s events written to %s", n),
                                                      count, path);

          gtk_widget_activate_action (source, "win.toast", "s", message);
        }
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/**
 * sl_timeline_export_choose:
 * @source: the widget that asked, where the outcome is told (win.toast)
 * @trace_path: (nullable): the trace's file, to name the export after
 * @format: as for sl_timeline_export_write()
 *
 * Asks where to write, then writes.
 */
void
sl_timeline_export_choose (GtkWidget      *source,
                           SlTimelineView *view,
                           const char     *trace_path,
                           const char     *format)
{
  GtkRoot *root = gtk_widget_get_root (source);
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  GtkFileChooserNative *dialog;

  g_return_if_fail (GTK_IS_WIDGET (source));
  g_return_if_fail (SL_IS_TIMELINE_VIEW (view));

  base = g_path_get_basename (trace_path ? trace_path : "trace");
  if (g_str_has_suffix (base, ".gz"))
    base[strlen (base) - 3] = '\0';
  if (g_str_has_suffix (base, ".json"))
    base[strlen (base) - 5] = '\0';
  name = g_strdup_printf ("%s-range.%s", base, format);

  dialog = gtk_file_chooser_native_new (_("Export Timeline"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_object_set_data_full (G_OBJECT (dialog), "sl-format", g_strdup (format), g_free);
  g_object_set_data_full (G_OBJECT (dialog), "sl-view", g_object_ref (view), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (export_chosen_cb), source, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}
