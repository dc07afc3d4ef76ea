/* sl-timeline-range-table.c
 *
 * The range table: every slice name in a time range with its count,
 * total, self, average, shortest and longest time, summed up on a worker
 * from the trace's partial sums (built by the first range) and shown
 * sorted by any column.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-timeline-item.h"
#include "sl-timeline-range-table.h"
#include "sl-timeline-renderer.h"
#include "sl-tooltip.h"
#include "sl-trace-aggregate.h"

typedef enum {
  COLUMN_NAME,
  COLUMN_COUNT,
  COLUMN_TOTAL,
  COLUMN_SELF,
  COLUMN_AVERAGE,
  COLUMN_MIN,
  COLUMN_MAX,
  N_COLUMNS
} Column;

struct _SlTimelineRangeTable
{
  GObject           parent_instance;

  SlTrace          *trace;   /* of the rows */
  GListStore       *rows;    /* SlTimelineItem */
  GtkSortListModel *sorted;
};

G_DEFINE_FINAL_TYPE (SlTimelineRangeTable, sl_timeline_range_table, G_TYPE_OBJECT)

static char *
format_column (const SlTraceAggregateRow *row,
               SlTrace                   *trace,
               Column                     column)
{
  switch (column)
    {
    case COLUMN_NAME:
      return g_strdup (sl_trace_get_string (trace, row->name_id));
    case COLUMN_COUNT:
      return sl_count_format (row->count);
    case COLUMN_TOTAL:
      return sl_timeline_format_duration (row->total_ns);
    case COLUMN_SELF:
      return sl_timeline_format_duration (row->self_ns);
    case COLUMN_AVERAGE:
      return sl_timeline_format_duration ((gint64)sl_trace_aggregate_row_average (row));
    case COLUMN_MIN:
      return sl_timeline_format_duration (row->min_ns);
    case COLUMN_MAX:
      return sl_timeline_format_duration (row->max_ns);
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static void
setup_label_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  Column column = GPOINTER_TO_UINT (user_data);

  gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_NAME ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), column == COLUMN_NAME ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  if (column != COLUMN_NAME)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_label_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  SlTimelineRangeTable *self = g_object_get_data (G_OBJECT (factory), "sl-table");
  SlTimelineItem *row = gtk_list_item_get_item (item);
  g_autofree char *text = format_column (&sl_timeline_item_get_data (row)->row, self->trace,
                                         GPOINTER_TO_UINT (user_data));

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (item)), text);
  if (GPOINTER_TO_UINT (user_data) == COLUMN_NAME)
    sl_widget_set_long_tooltip (gtk_list_item_get_child (item), text);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SlTraceAggregateRow *x = &sl_timeline_item_get_data ((SlTimelineItem *)a)->row;
  const SlTraceAggregateRow *y = &sl_timeline_item_get_data ((SlTimelineItem *)b)->row;
  SlTimelineRangeTable *self = g_object_get_data (G_OBJECT (user_data), "sl-table");
  Column column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (user_data), "sl-column"));
  double u = 0, v = 0;

  switch (column)
    {
    case COLUMN_NAME:
      return g_utf8_collate (sl_trace_get_string (self->trace, x->name_id), sl_trace_get_string (self->trace, y->name_id));
    case COLUMN_COUNT:
      u = x->count, v = y->count;
      break;
    case COLUMN_TOTAL:
      u = x->total_ns, v = y->total_ns;
      break;
    case COLUMN_SELF:
      u = x->self_ns, v = y->self_ns;
      break;
    case COLUMN_AVERAGE:
      u = sl_trace_aggregate_row_average (x), v = sl_trace_aggregate_row_average (y);
      break;
    case COLUMN_MIN:
      u = x->min_ns, v = y->min_ns;
      break;
    case COLUMN_MAX:
      u = x->max_ns, v = y->max_ns;
      break;
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
  return (u > v) - (u < v);
}

/**
 * sl_timeline_range_table_attach:
 *
 * Shows the rows in @view, a column per figure, sorted by total time
 * until the user sorts by another.
 */
void
sl_timeline_range_table_attach (SlTimelineRangeTable *self,
                                GtkColumnView        *view)
{
  static const char *titles[N_COLUMNS] = {
    N_("Name"), N_("Count"), N_("Total"), N_("Self"), N_("Average"), N_("Min"), N_("Max"),
  };
  GtkSorter *sorter;

  g_return_if_fail (SL_IS_TIMELINE_RANGE_TABLE (self));
  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      GtkCustomSorter *column_sorter;

      g_object_set_data (G_OBJECT (factory), "sl-table", self);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_label_cb), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_label_cb), GUINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(titles[c]), factory);
      column_sorter = gtk_custom_sorter_new (NULL, NULL, NULL);
      g_object_set_data (G_OBJECT (column_sorter), "sl-table", self);
      g_object_set_data (G_OBJECT (column_sorter), "sl-column", GUINT_TO_POINTER (c));
      gtk_custom_sorter_set_sort_func (column_sorter, compare_rows, column_sorter, NULL);
      gtk_column_view_column_set_sorter (column, GTK_SORTER (column_sorter));
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == COLUMN_NAME);
      gtk_column_view_append_column (view, column);
      if (c == COLUMN_TOTAL)
        gtk_column_view_sort_by_column (view, column, GTK_SORT_DESCENDING);
      g_object_unref (column_sorter);
      g_object_unref (column);
    }

  sorter = gtk_column_view_get_sorter (view);
  gtk_sort_list_model_set_sorter (self->sorted, sorter);
  gtk_column_view_set_model (view,
                             GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)))));
}

static void
aggregate_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  SlTrace *trace = g_object_get_data (G_OBJECT (task), "sl-trace");
  gint64 *range = task_data;
  GArray *rows = sl_trace_aggregate_indexed (trace, range[0], range[1], NULL, 0, cancellable);

  if (rows == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
  else
    g_task_return_pointer (task, rows, (GDestroyNotify)g_array_unref);
}

/**
 * sl_timeline_range_table_sum_async:
 *
 * Sums up the slices of @trace in [@start_ns, @end_ns) on a worker; the
 * rows change in sl_timeline_range_table_sum_finish().
 */
void
sl_timeline_range_table_sum_async (SlTimelineRangeTable *self,
                                   SlTrace              *trace,
                                   gint64                start_ns,
                                   gint64                end_ns,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  gint64 *range;

  g_return_if_fail (SL_IS_TIMELINE_RANGE_TABLE (self));
  g_return_if_fail (SL_IS_TRACE (trace));

  range = g_new (gint64, 2);
  range[0] = start_ns;
  range[1] = end_ns;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_timeline_range_table_sum_async);
  g_task_set_task_data (task, range, g_free);
  g_object_set_data_full (G_OBJECT (task), "sl-trace", g_object_ref (trace), g_object_unref);
  g_task_run_in_thread (task, aggregate_thread);
}

/**
 * sl_timeline_range_table_sum_finish:
 * @n_slices: (out) (optional): the slices summed up
 *
 * Returns: %TRUE when the rows are the range's, %FALSE when cancelled
 */
gboolean
sl_timeline_range_table_sum_finish (SlTimelineRangeTable  *self,
                                    GAsyncResult          *result,
                                    guint64               *n_slices,
                                    GError               **error)
{
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GPtrArray) items = NULL;
  guint64 total = 0;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  rows = g_task_propagate_pointer (G_TASK (result), error);
  if (rows == NULL)
    return FALSE;

  g_set_object (&self->trace, g_object_get_data (G_OBJECT (result), "sl-trace"));
  items = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < rows->len; i++)
    {
      SlTimelineItemData data = { SL_TIMELINE_ITEM_AGGREGATE, 0, 0, 0, g_array_index (rows, SlTraceAggregateRow, i), NULL };

      g_ptr_array_add (items, sl_timeline_item_new (&data));
      total += data.row.count;
    }
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       items->pdata, items->len);
  if (n_slices != NULL)
    *n_slices = total;
  return TRUE;
}

void
sl_timeline_range_table_clear (SlTimelineRangeTable *self)
{
  g_return_if_fail (SL_IS_TIMELINE_RANGE_TABLE (self));

  g_list_store_remove_all (self->rows);
}

/**
 * sl_timeline_range_table_get_model:
 *
 * Returns: (transfer none): the rows (SlTimelineItem) as sorted on screen
 */
GListModel *
sl_timeline_range_table_get_model (SlTimelineRangeTable *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_RANGE_TABLE (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

/**
 * sl_timeline_range_table_dup_tsv:
 *
 * Returns: (transfer full): the rows as tab-separated values, with a
 *   header line and durations in nanoseconds, in the order shown
 */
char *
sl_timeline_range_table_dup_tsv (SlTimelineRangeTable *self)
{
  GString *tsv;
  GListModel *model;

  g_return_val_if_fail (SL_IS_TIMELINE_RANGE_TABLE (self), NULL);

  tsv = g_string_new ("name\tcount\ttotal_ns\tself_ns\taverage_ns\tmin_ns\tmax_ns\n");
  model = G_LIST_MODEL (self->sorted);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlTimelineItem) item = g_list_model_get_item (model, i);
      const SlTraceAggregateRow *r = &sl_timeline_item_get_data (item)->row;
      g_autofree char *name = g_strdup (sl_trace_get_string (self->trace, r->name_id));

      g_strdelimit (name, "\t\n\r", ' ');
      g_string_append_printf (tsv, "%s\t%llu\t%lld\t%lld\t%.0f\t%lld\t%lld\n", name, (unsigned long long)r->count,
                              (long long)r->total_ns, (long long)r->self_ns, sl_trace_aggregate_row_average (r),
                              (long long)r->min_ns, (long long)r->max_ns);
    }
  return g_string_free (tsv, FALSE);
}

static void
sl_timeline_range_table_finalize (GObject *object)
{
  SlTimelineRangeTable *self = SL_TIMELINE_RANGE_TABLE (object);

  g_clear_object (&self->trace);
  g_clear_object (&self->rows);
  g_clear_object (&self->sorted);

  G_OBJECT_CLASS (sl_timeline_range_table_parent_class)->finalize (object);
}

static void
sl_timeline_range_table_class_init (SlTimelineRangeTableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_timeline_range_table_finalize;
}

static void
sl_timeline_range_table_init (SlTimelineRangeTable *self)
{
  self->rows = g_list_store_new (SL_TYPE_TIMELINE_ITEM);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)), NULL);
}

SlTimelineRangeTable *
sl_timeline_range_table_new (void)
{
  return g_object_new (SL_TYPE_TIMELINE_RANGE_TABLE, NULL);
}
