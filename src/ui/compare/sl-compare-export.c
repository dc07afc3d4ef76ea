/* sl-compare-export.c: a profile comparison's table written as CSV
 *
 * The entries shown are taken on the main thread (each keeps the
 * comparison it points into alive); their fields are formatted and written
 * on a worker thread by sl_csv_export_async(), into a file that replaces
 * the target only when whole, so a failure or a cancellation leaves no
 * file behind. Times are in microseconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-compare-entry.h"
#include "sl-compare-export.h"
#include "sl-csv-export.h"

static void
append_csv_ns (GString *out,
               gint64   ns)
{
  g_string_append_c (out, ',');
  if (ns >= 0)
    g_string_append_printf (out, "%.3f", ns / 1000.0);
}

static void
append_entry (GString        *out,
              SlCompareEntry *entry)
{
  const SlProfileCompareItem *item = sl_compare_entry_get_item (entry);
  const SlProfileCompareRow *row = sl_compare_entry_get_row (entry);
  double ratio = sl_compare_entry_get_ratio (entry);

  if (item != NULL)
    {
      g_string_append (out, sl_profile_compare_item_key (item->kind));
      append_csv_ns (out, item->base_ns);
      append_csv_ns (out, item->comparison_ns);
      g_string_append_printf (out, ",%.3f,", item->diff_ns / 1000.0);
      if (!isnan (ratio))
        g_string_append_printf (out, "%.4f", ratio);
      g_string_append_printf (out, ",%s\n", item->noise_checked ? (item->noise ? "yes" : "no") : "");
      return;
    }
  sl_csv_append_field (out, row->type);
  g_string_append_c (out, ',');
  sl_csv_append_field (out, row->input_shapes != NULL ? row->input_shapes : "");
  g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT, row->count[0], row->count[1]);
  append_csv_ns (out, row->present[0] ? row->total_ns[0] : -1);
  append_csv_ns (out, row->present[1] ? row->total_ns[1] : -1);
  g_string_append_printf (out, ",%.3f,", row->diff_ns / 1000.0);
  if (!isnan (ratio))
    g_string_append_printf (out, "%.4f", ratio);
  append_csv_ns (out, row->avg_ns[0]);
  append_csv_ns (out, row->avg_ns[1]);
  g_string_append_c (out, '\n');
}

/* One row of the table, on the worker. */
static void
append_row (GString  *out,
            guint     index,
            gpointer  data)
{
  append_entry (out, g_ptr_array_index ((GPtrArray *) data, index));
}

void
sl_compare_export_csv_async (gpointer             source_object,
                             GPtrArray           *entries,
                             gboolean             overview,
                             GFile               *file,
                             SlProgress          *progress,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  const char *header;

  g_return_if_fail (entries != NULL);
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (SL_IS_PROGRESS (progress));

  if (overview)
    header = "item,base_us,comparison_us,diff_us,ratio,noise\n";
  else
    header = "type,input_shapes,base_count,comparison_count,base_total_us,comparison_total_us,"
             "diff_us,ratio,base_avg_us,comparison_avg_us\n";
  sl_csv_export_async (source_object, file, header, entries->len, append_row, g_ptr_array_ref (entries),
                       (GDestroyNotify) g_ptr_array_unref, progress, cancellable, callback, user_data);
}

gboolean
sl_compare_export_csv_finish (GAsyncResult  *result,
                              GError       **error)
{
  return sl_csv_export_finish (result, error);
}
