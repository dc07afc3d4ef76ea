/* sl-tensor-pair-pane.c
 *
 * One worker job per selection: it maps both tensors, computes the
 * histograms and largest differences, and the error through the default
 * slice. A new slice reuses the mapped tensors and only recomputes the
 * error. A generation counter drops the results of a row no longer
 * selected, and selecting another row cancels the job under way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-tensor-overlay-chart.h"
#include "sl-tensor-pair-pane.h"
#include "sl-tensor-plot.h"
#include "sl-tensor-stats.h"

struct _SlTensorPairPane
{
  GtkBox              parent_instance;

  SlTensorCompareRow *row;
  guint               generation;
  GCancellable       *cancellable;
  gboolean            busy;
  /* The tensors as last read: their views point into @keep's mappings. */
  GObject            *keep;
  SlTensorData        npu;
  SlTensorData        bench;
  SlTensorPairDetail *detail;
  SlTensorFrame      *frame;
  char               *message;

  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkSpinner           *busy_spinner;
  GtkLabel             *message_label;
  GtkWidget            *charts_box;
  SlTensorOverlayChart *overlay_chart;
  GtkEntry             *slice_entry;
  GtkLabel             *error_note_label;
  SlTensorPlot         *error_plot;
  GtkGrid              *largest_grid;
  GtkGrid              *stats_grid;
};

G_DEFINE_FINAL_TYPE (SlTensorPairPane, sl_tensor_pair_pane, GTK_TYPE_BOX)

/* The worker */

typedef struct {
  SlTensorCompareRow *row;
  GObject            *keep;          /* in: the tensors already read, or NULL */
  SlTensorData        npu;
  SlTensorData        bench;
  char               *slice_text;    /* NULL: the default slice */
  gboolean            want_detail;
  guint               generation;
  /* out */
  SlTensorPairDetail *detail;
  SlTensorFrame      *frame;
  char               *slice_used;
  char               *frame_error;
  guint               row_step;
  guint               col_step;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->row);
  g_clear_object (&job->keep);
  g_free (job->slice_text);
  g_clear_pointer (&job->detail, sl_tensor_pair_detail_free);
  g_clear_pointer (&job->frame, sl_tensor_frame_unref);
  g_free (job->slice_used);
  g_free (job->frame_error);
  g_free (job);
}

static gboolean
compute_error_frame (Job           *job,
                     GCancellable  *cancellable,
                     GError       **error)
{
  gint64 dims[SL_TENSOR_MAX_DIMS];
  g_autoptr(SlTensorSlice) slice = NULL;
  g_autoptr(GError) local_error = NULL;

  if (job->npu.n_dims > SL_TENSOR_MAX_DIMS)
    {
      job->frame_error = g_strdup_printf (_("Tensors of more than %d axes cannot be sliced."), SL_TENSOR_MAX_DIMS);
      return TRUE;
    }
  for (guint i = 0; i < job->npu.n_dims; i++)
    dims[i] = (gint64)MIN (job->npu.shape[i], (guint64)G_MAXINT64);

  job->slice_used = job->slice_text != NULL ? g_strdup (job->slice_text)
                                            : sl_tensor_slice_default_text (dims, job->npu.n_dims);
  slice = sl_tensor_slice_parse (job->slice_used, dims, job->npu.n_dims, NULL, &local_error);
  if (slice != NULL)
    job->frame = sl_tensor_pair_error_frame_new (&job->npu, &job->bench, slice, &job->row_step, &job->col_step,
                                                 cancellable, &local_error);
  if (job->frame != NULL)
    return TRUE;
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  job->frame_error = g_strdup (local_error->message);
  return TRUE;
}

static void
job_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;

  if (job->keep == NULL &&
      !sl_tensor_compare_row_load_data (job->row, &job->npu, &job->bench, &job->keep, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (job->want_detail &&
      (job->detail = sl_tensor_pair_detail_compute (&job->npu, &job->bench, SL_TENSOR_PAIR_DETAIL_BINS,
                                                    SL_TENSOR_PAIR_DETAIL_TOP_K, cancellable, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (!compute_error_frame (job, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* Showing */

static void
set_busy (SlTensorPairPane *self,
          gboolean          busy)
{
  self->busy = busy;
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), busy);
  gtk_spinner_set_spinning (self->busy_spinner, busy);
}

static void
show_message (SlTensorPairPane *self,
              const char       *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_text (self->message_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
  gtk_widget_set_visible (self->charts_box, message == NULL && self->detail != NULL);
}

static void
clear_largest (SlTensorPairPane *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->largest_grid))) != NULL)
    gtk_grid_remove (self->largest_grid, child);
}

static void
attach_grid_cell (GtkGrid    *grid,
                  const char *text,
                  int         column,
                  int         row,
                  gboolean    header)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0.0f : 1.0f);
  gtk_label_set_selectable (GTK_LABEL (label), !header);
  gtk_widget_add_css_class (label, header ? "dim-label" : "numeric");
  if (header)
    gtk_widget_add_css_class (label, "caption-heading");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static void
attach_cell (SlTensorPairPane *self,
             const char       *text,
             int               column,
             int               row,
             gboolean          header)
{
  attach_grid_cell (self->largest_grid, text, column, row, header);
}

static void
clear_stats (SlTensorPairPane *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->stats_grid))) != NULL)
    gtk_grid_remove (self->stats_grid, child);
  gtk_widget_set_visible (GTK_WIDGET (self->stats_grid), FALSE);
}

static void
format_stat (char   *buffer,
             gsize   size,
             double  value)
{
  if (isnan (value))
    g_strlcpy (buffer, "—", size);
  else
    sl_tensor_format_value (buffer, size, value, SL_TENSOR_DTYPE_FLOAT64, 6);
}

/* A statistics-only pair: both sides' max, min, mean and L2 norm with
 * their differences, the table msprobe's summary CSV has. */
static void
fill_stats (SlTensorPairPane         *self,
            const SlStatsComparison  *stats)
{
  const SlStatDiff *rows[] = { &stats->max, &stats->min, &stats->mean, &stats->norm };
  const char *names[] = {
    /* Translators: rows of a statistics-only tensor pair, as msprobe's summary has them */
    N_("Max"), N_("Min"), N_("Mean"), N_("L2 norm"),
  };

  clear_stats (self);
  /* Translators: columns of the statistics of a tensor pair */
  attach_grid_cell (self->stats_grid, _("Statistic"), 0, 0, TRUE);
  attach_grid_cell (self->stats_grid, _("NPU"), 1, 0, TRUE);
  attach_grid_cell (self->stats_grid, _("Benchmark"), 2, 0, TRUE);
  attach_grid_cell (self->stats_grid, _("Difference"), 3, 0, TRUE);
  attach_grid_cell (self->stats_grid, _("Relative"), 4, 0, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      double values[4] = { rows[i]->npu, rows[i]->bench, rows[i]->diff, rows[i]->relative };
      char text[64];

      attach_grid_cell (self->stats_grid, _(names[i]), 0, i + 1, FALSE);
      for (guint c = 0; c < G_N_ELEMENTS (values); c++)
        {
          format_stat (text, sizeof text, values[c]);
          attach_grid_cell (self->stats_grid, text, c + 1, i + 1, FALSE);
        }
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->stats_grid),
                               _("Difference is NPU − benchmark; relative is |difference| ÷ |benchmark|, as in msprobe's summary"));
  gtk_widget_set_visible (GTK_WIDGET (self->stats_grid), TRUE);
}

static void
format_number (char        *buffer,
               gsize        size,
               double       value,
               SlTensorDtype dtype)
{
  sl_tensor_format_value (buffer, size, value, dtype, 6);
}

static void
fill_largest (SlTensorPairPane *self)
{
  const SlTensorPairDetail *detail = self->detail;

  clear_largest (self);
  if (!detail->comparable)
    {
      attach_cell (self, _("The two tensors do not hold the same elements, so their elements are not compared."), 0, 0, TRUE);
      return;
    }
  if (detail->largest->len == 0)
    {
      attach_cell (self, _("No element differs."), 0, 0, TRUE);
      return;
    }

  /* Translators: columns of the largest differences of a tensor pair */
  attach_cell (self, _("Index"), 0, 0, TRUE);
  attach_cell (self, _("NPU"), 1, 0, TRUE);
  attach_cell (self, _("Benchmark"), 2, 0, TRUE);
  attach_cell (self, _("Absolute"), 3, 0, TRUE);
  attach_cell (self, _("Relative"), 4, 0, TRUE);
  for (guint i = 0; i < detail->largest->len; i++)
    {
      const SlTensorDifference *d = &g_array_index (detail->largest, SlTensorDifference, i);
      g_autofree char *index = sl_tensor_pair_detail_format_index (detail, d->position);
      char text[64];

      attach_cell (self, index, 0, i + 1, FALSE);
      format_number (text, sizeof text, d->npu, self->npu.dtype);
      attach_cell (self, text, 1, i + 1, FALSE);
      format_number (text, sizeof text, d->bench, self->bench.dtype);
      attach_cell (self, text, 2, i + 1, FALSE);
      format_number (text, sizeof text, d->abs_error, SL_TENSOR_DTYPE_FLOAT64);
      attach_cell (self, text, 3, i + 1, FALSE);
      format_number (text, sizeof text, d->rel_error, SL_TENSOR_DTYPE_FLOAT64);
      attach_cell (self, text, 4, i + 1, FALSE);
    }
}

static void
show_frame (SlTensorPairPane *self,
            Job              *job)
{
  g_autofree char *note = NULL;

  g_clear_pointer (&self->frame, sl_tensor_frame_unref);
  self->frame = g_steal_pointer (&job->frame);
  sl_tensor_plot_set_frame (self->error_plot, self->frame);
  gtk_widget_set_visible (GTK_WIDGET (self->error_plot), self->frame != NULL);
  if (job->slice_used != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->slice_entry), job->slice_used);

  if (job->frame_error != NULL)
    note = g_strdup (job->frame_error);
  else if (job->row_step > 1 || job->col_step > 1)
    /* Translators: the error heatmap of a large slice shows every n-th row and column */
    note = g_strdup_printf (_("Sampled: one row in %u and one column in %u."), job->row_step, job->col_step);
  gtk_label_set_text (self->error_note_label, note != NULL ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_note_label), note != NULL);
  if (job->frame_error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->slice_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->slice_entry), "error");
}

static void
job_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  SlTensorPairPane *self = SL_TENSOR_PAIR_PANE (object);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (job->generation != self->generation)
    return;

  set_busy (self, FALSE);
  if (error != NULL)
    {
      show_message (self, error->message);
      return;
    }

  if (self->keep != job->keep)
    {
      g_clear_object (&self->keep);
      self->keep = g_object_ref (job->keep);
      self->npu = job->npu;
      self->bench = job->bench;
    }
  if (job->detail != NULL)
    {
      g_clear_pointer (&self->detail, sl_tensor_pair_detail_free);
      self->detail = g_steal_pointer (&job->detail);
      sl_tensor_overlay_chart_set_histogram (self->overlay_chart, &self->detail->histogram);
      fill_largest (self);
    }
  show_frame (self, job);
  show_message (self, NULL);
}

static void
start_job (SlTensorPairPane *self,
           const char       *slice_text,
           gboolean          want_detail)
{
  g_autoptr(GTask) task = NULL;
  Job *job = g_new0 (Job, 1);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  job->row = g_object_ref (self->row);
  if (self->keep != NULL && !want_detail)
    {
      job->keep = g_object_ref (self->keep);
      job->npu = self->npu;
      job->bench = self->bench;
    }
  job->slice_text = g_strdup (slice_text);
  job->want_detail = want_detail;
  job->generation = ++self->generation;
  set_busy (self, TRUE);

  task = g_task_new (self, self->cancellable, job_done_cb, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify)job_free);
  g_task_run_in_thread (task, job_thread);
}

static void
describe_row (SlTensorPairPane   *self,
              SlTensorCompareRow *row)
{
  g_autofree char *npu_shape = sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_NPU);
  g_autofree char *bench_shape = sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_BENCH);
  g_autofree char *subtitle = NULL;
  const char *npu_dtype = sl_tensor_compare_row_get_npu_dtype (row);
  const char *bench_dtype = sl_tensor_compare_row_get_bench_dtype (row);

  gtk_label_set_text (self->title_label, sl_tensor_compare_row_get_name (row));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), sl_tensor_compare_row_get_name (row));
  /* Translators: both sides of a tensor pair: dtype and shape of the NPU
   * side, then of the benchmark */
  subtitle = g_strdup_printf (_("NPU %s %s · Benchmark %s %s"), npu_dtype != NULL ? npu_dtype : "?",
                              npu_shape != NULL ? npu_shape : "?", bench_dtype != NULL ? bench_dtype : "?",
                              bench_shape != NULL ? bench_shape : "?");
  gtk_label_set_text (self->subtitle_label, subtitle);
}

static void
clear_shown (SlTensorPairPane *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->generation++;
  set_busy (self, FALSE);
  g_clear_object (&self->keep);
  memset (&self->npu, 0, sizeof self->npu);
  memset (&self->bench, 0, sizeof self->bench);
  g_clear_pointer (&self->detail, sl_tensor_pair_detail_free);
  g_clear_pointer (&self->frame, sl_tensor_frame_unref);
  sl_tensor_overlay_chart_set_histogram (self->overlay_chart, NULL);
  sl_tensor_plot_set_frame (self->error_plot, NULL);
  clear_largest (self);
  clear_stats (self);
  gtk_editable_set_text (GTK_EDITABLE (self->slice_entry), "");
}

static void
slice_activated_cb (SlTensorPairPane *self)
{
  sl_tensor_pair_pane_set_slice (self, gtk_editable_get_text (GTK_EDITABLE (self->slice_entry)));
}

/* Life */

static void
sl_tensor_pair_pane_dispose (GObject *object)
{
  SlTensorPairPane *self = SL_TENSOR_PAIR_PANE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->detail, sl_tensor_pair_detail_free);
  g_clear_pointer (&self->frame, sl_tensor_frame_unref);
  g_clear_object (&self->keep);
  g_clear_object (&self->row);
  g_clear_pointer (&self->message, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TENSOR_PAIR_PANE);

  G_OBJECT_CLASS (sl_tensor_pair_pane_parent_class)->dispose (object);
}

static void
sl_tensor_pair_pane_class_init (SlTensorPairPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_tensor_pair_pane_dispose;

  g_type_ensure (SL_TYPE_TENSOR_OVERLAY_CHART);
  g_type_ensure (SL_TYPE_TENSOR_PLOT);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-tensor-pair-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, title_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, message_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, charts_box);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, overlay_chart);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, slice_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, error_note_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, error_plot);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, largest_grid);
  gtk_widget_class_bind_template_child (widget_class, SlTensorPairPane, stats_grid);
  gtk_widget_class_bind_template_callback (widget_class, slice_activated_cb);
}

static void
show_placeholder (SlTensorPairPane *self)
{
  gtk_label_set_text (self->title_label, _("No pair selected"));
  gtk_label_set_text (self->subtitle_label, "");
  show_message (self, _("Select a pair to see both distributions, the error and the largest differences."));
}

static void
sl_tensor_pair_pane_init (SlTensorPairPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  show_placeholder (self);
}

/* API */

void
sl_tensor_pair_pane_set_row (SlTensorPairPane   *self,
                             SlTensorCompareRow *row)
{
  g_return_if_fail (SL_IS_TENSOR_PAIR_PANE (self));
  g_return_if_fail (row == NULL || SL_IS_TENSOR_COMPARE_ROW (row));

  if (row == self->row)
    return;
  clear_shown (self);
  g_set_object (&self->row, row);
  if (row == NULL)
    {
      show_placeholder (self);
      return;
    }

  describe_row (self, row);
  if (sl_tensor_compare_row_get_mode (row) != SL_TENSOR_COMPARE_MODE_DATA)
    {
      const SlStatsComparison *stats = sl_tensor_compare_row_get_stats (row);

      show_message (self, sl_tensor_compare_row_get_mode (row) != SL_TENSOR_COMPARE_MODE_STATS
                            ? _("This dump holds checksums only: there are no elements to show.")
                          : stats != NULL
                            ? _("This dump holds statistics only: they are compared below, there are no elements to show.")
                            : _("This dump holds statistics only, and one side has none for this tensor: there is nothing to show."));
      if (stats != NULL)
        fill_stats (self, stats);
      return;
    }
  show_message (self, NULL);
  start_job (self, NULL, TRUE);
}

SlTensorCompareRow *
sl_tensor_pair_pane_get_row (SlTensorPairPane *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIR_PANE (self), NULL);
  return self->row;
}

void
sl_tensor_pair_pane_set_slice (SlTensorPairPane *self,
                               const char       *text)
{
  g_return_if_fail (SL_IS_TENSOR_PAIR_PANE (self));
  g_return_if_fail (text != NULL);

  if (self->row == NULL || self->keep == NULL)
    return;
  start_job (self, text, FALSE);
}

gboolean
sl_tensor_pair_pane_is_busy (SlTensorPairPane *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIR_PANE (self), FALSE);
  return self->busy;
}

const SlTensorPairDetail *
sl_tensor_pair_pane_get_detail (SlTensorPairPane *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIR_PANE (self), NULL);
  return self->detail;
}

/**
 * sl_tensor_pair_pane_get_stats_grid:
 *
 * Returns: (transfer none): the grid of a statistics-only pair's max, min,
 *   mean and norm (hidden for other pairs)
 */
GtkGrid *
sl_tensor_pair_pane_get_stats_grid (SlTensorPairPane *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIR_PANE (self), NULL);
  return self->stats_grid;
}

SlTensorFrame *
sl_tensor_pair_pane_get_error_frame (SlTensorPairPane *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIR_PANE (self), NULL);
  return self->frame;
}

const char *
sl_tensor_pair_pane_get_message (SlTensorPairPane *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIR_PANE (self), NULL);
  return self->message;
}
