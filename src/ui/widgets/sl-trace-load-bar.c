/* sl-trace-load-bar.c
 *
 * The bar changes when the load's properties do: the part of the file
 * read ("12 MB of 80 MB"), then "Indexing…". A file of unknown size
 * pulses with every chunk read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-trace-load-bar.h"

#define FOLLOWED "sl-trace-load-bar-load"

static void
update (SlTraceLoad    *load,
        GParamSpec     *pspec,
        GtkProgressBar *bar)
{
  guint64 read = sl_trace_load_get_bytes_read (load);
  guint64 total = sl_trace_load_get_total_bytes (load);

  switch (sl_trace_load_get_state (load))
    {
    case SL_TRACE_LOAD_INDEXING:
      if (pspec == NULL || g_str_equal (pspec->name, "state"))
        {
          gtk_progress_bar_set_text (bar, _("Indexing…"));
          gtk_progress_bar_pulse (bar);
        }
      break;
    case SL_TRACE_LOAD_READING:
      if (total > 0)
        {
          g_autofree char *done = g_format_size (read);
          g_autofree char *all = g_format_size (total);
          g_autofree char *text = g_strdup_printf (_("%s of %s"), done, all);

          gtk_progress_bar_set_fraction (bar, sl_trace_load_get_progress (load));
          gtk_progress_bar_set_text (bar, text);
        }
      else if (read > 0)
        gtk_progress_bar_pulse (bar);
      break;
    case SL_TRACE_LOAD_WAITING:
    case SL_TRACE_LOAD_DONE:
    case SL_TRACE_LOAD_FAILED:
    case SL_TRACE_LOAD_CANCELLED:
    default:
      break;
    }
}

/**
 * sl_trace_load_bar_follow:
 * @load: (nullable): the load to show, or %NULL to stop following one
 *
 * Shows @load's progress in @bar from now on, instead of the load it
 * followed before.
 */
void
sl_trace_load_bar_follow (GtkProgressBar *bar,
                          SlTraceLoad    *load)
{
  SlTraceLoad *old;

  g_return_if_fail (GTK_IS_PROGRESS_BAR (bar));
  g_return_if_fail (load == NULL || SL_IS_TRACE_LOAD (load));

  old = g_object_get_data (G_OBJECT (bar), FOLLOWED);
  if (old != NULL)
    g_signal_handlers_disconnect_by_func (old, update, bar);
  g_object_set_data_full (G_OBJECT (bar), FOLLOWED, load != NULL ? g_object_ref (load) : NULL, g_object_unref);

  gtk_progress_bar_set_fraction (bar, 0);
  gtk_progress_bar_set_text (bar, NULL);
  if (load == NULL)
    return;
  g_signal_connect_object (load, "notify::state", G_CALLBACK (update), bar, 0);
  g_signal_connect_object (load, "notify::progress", G_CALLBACK (update), bar, 0);
  g_signal_connect_object (load, "notify::bytes-read", G_CALLBACK (update), bar, 0);
  update (load, NULL, bar);
}
