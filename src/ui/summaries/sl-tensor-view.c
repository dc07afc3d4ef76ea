/* sl-tensor-view.c
 *
 * Choosing a step copies its values once (the series may grow under a
 * worker); a new slice of the same step shares the copy and the
 * statistics of the whole tensor. Tensors of up to
 * SL_TENSOR_VIEW_INLINE_LIMIT values are analysed at once, larger ones in
 * a worker while the last picture stays up.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-tensor-grid.h"
#include "sl-tensor-plot.h"
#include "sl-tensor-view.h"

struct _SlTensorView
{
  GtkBox          parent_instance;

  SlTensorSeries *series;
  char           *run_name;

  /* The values of the step chosen, and what they were copied from. */
  GBytes         *values;
  guint           values_index;
  guint           values_restarts;

  SlTensorFrame  *frame;      /* shown */
  SlTensorFrame  *pending;    /* being computed */
  GCancellable   *cancellable;
  char           *slice_error;
  char           *shape_text;
  guint           digits;
  guint           last_n_points;
  guint           last_restarts;
  gboolean        updating_range;

  GtkLabel       *title_label;
  GtkLabel       *run_label;
  GtkSpinner     *busy_spinner;
  GtkAdjustment  *step_adjustment;
  GtkScale       *step_scale;
  GtkSpinButton  *step_spin;
  GtkEntry       *slice_entry;
  GtkSpinButton  *digits_spin;
  GtkLabel       *slice_error_label;
  GtkStack       *mode_stack;
  GtkDropDown    *mode_dropdown;
  SlTensorGrid   *grid;
  SlTensorPlot   *heatmap;
  SlTensorPlot   *histogram;
  GtkGrid        *stats_grid;
  GtkLabel       *shape_label;
  GtkLabel       *stat_labels[2][SL_TENSOR_STAT_COUNT];
};

G_DEFINE_FINAL_TYPE (SlTensorView, sl_tensor_view, GTK_TYPE_BOX)

static void request_frame (SlTensorView *self);

static guint
n_points (SlTensorView *self)
{
  /* Template signals can come before the series is set. */
  return self->series ? sl_tensor_series_get_n_points (self->series) : 0;
}

static guint
current_index (SlTensorView *self)
{
  guint n = n_points (self);

  return n ? MIN ((guint)gtk_adjustment_get_value (self->step_adjustment), n - 1) : 0;
}

static void
set_busy (SlTensorView *self,
          gboolean      busy)
{
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), busy);
  gtk_spinner_set_spinning (self->busy_spinner, busy);
}

static void
format_stat (SlTensorView        *self,
             const SlTensorStats *stats,
             SlTensorStat         stat,
             char                *text,
             gsize                size)
{
  int dtype = self->frame->dtype;
  guint64 count = 0;

  switch (stat)
    {
    case SL_TENSOR_STAT_MIN:
    case SL_TENSOR_STAT_MAX:
    case SL_TENSOR_STAT_MEAN:
    case SL_TENSOR_STAT_STD:
      if (stats->n_finite == 0)
        {
          g_strlcpy (text, "—", size);
          return;
        }
      if (stat == SL_TENSOR_STAT_MIN)
        sl_tensor_format_value (text, size, stats->min, dtype == 1 ? 4 : dtype, self->digits);
      else if (stat == SL_TENSOR_STAT_MAX)
        sl_tensor_format_value (text, size, stats->max, dtype == 1 ? 4 : dtype, self->digits);
      else if (stat == SL_TENSOR_STAT_MEAN)
        sl_tensor_format_value (text, size, stats->mean, 12, self->digits);
      else
        sl_tensor_format_value (text, size, sl_tensor_stats_get_std (stats), 12, self->digits);
      return;
    case SL_TENSOR_STAT_NAN:
      count = stats->n_nan;
      break;
    case SL_TENSOR_STAT_POS_INF:
      count = stats->n_pos_inf;
      break;
    case SL_TENSOR_STAT_NEG_INF:
      count = stats->n_neg_inf;
      break;
    case SL_TENSOR_STAT_ZERO:
      count = stats->n_zero;
      break;
    case SL_TENSOR_STAT_COUNT:
    default:
      g_assert_not_reached ();
    }

  g_snprintf (text, size, "%llu", (unsigned long long)count);
}

static void
update_stats (SlTensorView *self)
{
  g_autofree char *shape = NULL;
  g_autofree char *view_shape = NULL;
  gint64 view_dims[2];
  guint n_view_dims = 0;
  SlTensorSlice *slice;

  if (self->frame == NULL)
    return;

  slice = self->frame->slice;
  for (guint row = 0; row < 2; row++)
    {
      const SlTensorStats *stats = row == 0 ? &self->frame->full : &self->frame->view;

      for (guint s = 0; s < SL_TENSOR_STAT_COUNT; s++)
        {
          GtkLabel *label = self->stat_labels[row][s];
          char text[64];

          format_stat (self, stats, s, text, sizeof text);
          gtk_label_set_label (label, text);
          /* Non-finite values are what people look for: make them stand out. */
          if (s >= SL_TENSOR_STAT_NAN && s <= SL_TENSOR_STAT_NEG_INF && g_strcmp0 (text, "0") != 0)
            gtk_widget_add_css_class (GTK_WIDGET (label), "error");
          else
            gtk_widget_remove_css_class (GTK_WIDGET (label), "error");
        }
    }

  if (slice->row_axis >= 0)
    view_dims[n_view_dims++] = slice->n_rows;
  if (slice->col_axis >= 0)
    view_dims[n_view_dims++] = slice->n_cols;
  shape = sl_tensor_slice_format_shape (self->frame->dims, self->frame->n_dims);
  view_shape = sl_tensor_slice_format_shape (view_dims, n_view_dims);
  g_free (self->shape_text);
  /* Translators: the tensor's shape and data type, the step, then the shape of the part shown */
  self->shape_text = g_strdup_printf (_("Shape %s, %s, step %lld; view %s"), shape,
                                      sl_tensor_dtype_to_string (self->frame->dtype), (long long)self->frame->step,
                                      view_shape);
  if (slice->row_axis >= 0)
    {
      g_autofree char *axes = g_strdup_printf (_("rows along axis %d, columns along axis %d"), slice->row_axis, slice->col_axis);
      char *text = g_strconcat (self->shape_text, " · ", axes, NULL);

      g_free (self->shape_text);
      self->shape_text = text;
    }
  else if (slice->col_axis >= 0)
    {
      g_autofree char *axes = g_strdup_printf (_("along axis %d"), slice->col_axis);
      char *text = g_strconcat (self->shape_text, " · ", axes, NULL);

      g_free (self->shape_text);
      self->shape_text = text;
    }
  gtk_label_set_label (self->shape_label, self->shape_text);
}

static void
show_frame (SlTensorView  *self,
            SlTensorFrame *frame)
{
  if (self->frame != frame)
    {
      g_clear_pointer (&self->frame, sl_tensor_frame_unref);
      self->frame = sl_tensor_frame_ref (frame);
    }
  sl_tensor_grid_set_frame (self->grid, frame);
  sl_tensor_plot_set_frame (self->heatmap, frame);
  sl_tensor_plot_set_frame (self->histogram, frame);
  update_stats (self);
}

static void
set_slice_error (SlTensorView *self,
                 const char   *message,
                 gssize        position)
{
  g_autoptr(PangoAttrList) attrs = pango_attr_list_new ();

  g_free (self->slice_error);
  self->slice_error = g_strdup (message);
  gtk_label_set_label (self->slice_error_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->slice_error_label), message != NULL);

  if (message == NULL)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->slice_entry), "error");
      gtk_entry_set_attributes (self->slice_entry, attrs);
      return;
    }

  gtk_widget_add_css_class (GTK_WIDGET (self->slice_entry), "error");
  if (position >= 0)
    {
      /* Underline the character the message is about, or the end. */
      const char *text = gtk_editable_get_text (GTK_EDITABLE (self->slice_entry));
      glong n_chars = g_utf8_strlen (text, -1);
      PangoAttribute *underline = pango_attr_underline_new (PANGO_UNDERLINE_ERROR);

      if (position < n_chars)
        {
          const char *at = g_utf8_offset_to_pointer (text, position);

          underline->start_index = at - text;
          underline->end_index = g_utf8_next_char (at) - text;
          pango_attr_list_insert (attrs, underline);
        }
      else
        pango_attribute_destroy (underline);
    }
  gtk_entry_set_attributes (self->slice_entry, attrs);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  SlTensorFrame *frame = task_data;
  SlTensorStats *full = g_object_get_data (G_OBJECT (task), "sl-full-stats");

  g_task_return_boolean (task, sl_tensor_frame_compute (frame, full, cancellable));
}

static void
compute_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SlTensorView *self = SL_TENSOR_VIEW (object);
  SlTensorFrame *frame = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL) || frame != self->pending)
    return;

  g_clear_pointer (&self->pending, sl_tensor_frame_unref);
  set_busy (self, FALSE);
  show_frame (self, frame);
}

/* The values of step @index, copied once per step. */
static GBytes *
ensure_values (SlTensorView *self,
               guint         index)
{
  guint restarts = sl_tensor_series_get_n_restarts (self->series);
  const double *values;
  gsize n;

  if (self->values != NULL && self->values_index == index && self->values_restarts == restarts)
    return self->values;

  n = sl_tensor_series_get_values (self->series, index, &values);
  g_clear_pointer (&self->values, g_bytes_unref);
  self->values = g_bytes_new (values, n * sizeof (double));
  self->values_index = index;
  self->values_restarts = restarts;
  return self->values;
}

static gboolean
shape_holds (const gint64 *dims,
             guint         n_dims,
             gsize         n_values)
{
  guint64 product = 1;

  for (guint i = 0; i < n_dims; i++)
    {
      if (dims[i] < 0 || (dims[i] > 0 && product > G_MAXUINT64 / (guint64)dims[i]))
        return FALSE;
      product *= (guint64)dims[i];
    }
  return product == n_values;
}

static void
request_frame (SlTensorView *self)
{
  g_autoptr(SlTensorSlice) slice = NULL;
  g_autoptr(SlTensorFrame) frame = NULL;
  g_autoptr(GError) error = NULL;
  const SlTensorStats *full = NULL;
  const gint64 *dims;
  GBytes *values;
  guint index, n_dims;
  gsize n_values, position = 0;

  if (n_points (self) == 0)
    return;

  index = current_index (self);
  n_dims = sl_tensor_series_get_dims (self->series, index, &dims);
  n_values = sl_tensor_series_get_values (self->series, index, NULL);

  if (!shape_holds (dims, n_dims, n_values))
    {
      g_autofree char *shape = sl_tensor_slice_format_shape (dims, n_dims);
      g_autofree char *count = sl_count_format (n_values);
      g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "Step %lld holds %s value, which does not fill its shape %s",
                                                               "Step %lld holds %s values, which do not fill its shape %s",
                                                               n_values),
                                                  (long long)sl_tensor_series_get_steps (self->series)[index],
                                                  count, shape);
      set_slice_error (self, message, -1);
      return;
    }

  slice = sl_tensor_slice_parse (gtk_editable_get_text (GTK_EDITABLE (self->slice_entry)), dims, n_dims, &position, &error);
  if (slice == NULL)
    {
      set_slice_error (self, error->message, position);
      return;
    }
  set_slice_error (self, NULL, -1);

  values = ensure_values (self, index);
  if (self->frame != NULL && self->frame->values == values)
    full = &self->frame->full;

  frame = sl_tensor_frame_new (sl_tensor_series_get_steps (self->series)[index],
                               sl_tensor_series_get_dtype (self->series, index), dims, n_dims, values, slice);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->pending, sl_tensor_frame_unref);

  /* The view's cells cost about three passes (statistics, bins, colours). */
  if ((full ? 0 : n_values) + 3 * (gsize)sl_tensor_slice_get_n_elements (slice) <= SL_TENSOR_VIEW_INLINE_LIMIT)
    {
      sl_tensor_frame_compute (frame, full, NULL);
      set_busy (self, FALSE);
      show_frame (self, frame);
      return;
    }

  {
    g_autoptr(GTask) task = NULL;

    self->cancellable = g_cancellable_new ();
    self->pending = sl_tensor_frame_ref (frame);
    task = g_task_new (self, self->cancellable, compute_done_cb, NULL);
    g_task_set_source_tag (task, request_frame);
    g_task_set_task_data (task, sl_tensor_frame_ref (frame), (GDestroyNotify)sl_tensor_frame_unref);
    if (full != NULL)
      g_object_set_data_full (G_OBJECT (task), "sl-full-stats", g_memdup2 (full, sizeof *full), g_free);
    set_busy (self, TRUE);
    g_task_run_in_thread (task, compute_thread);
  }
}

static void
step_changed_cb (SlTensorView *self)
{
  if (!self->updating_range && self->series != NULL)
    request_frame (self);
}

/* The spin button counts indices but shows and takes step numbers. */
static gboolean
step_output_cb (SlTensorView  *self,
                GtkSpinButton *spin)
{
  g_autofree char *text = NULL;

  if (n_points (self) == 0)
    text = g_strdup ("—");
  else
    text = g_strdup_printf ("%lld", (long long)sl_tensor_series_get_steps (self->series)[current_index (self)]);

  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (spin))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

static int
step_input_cb (SlTensorView  *self,
               double        *new_value,
               GtkSpinButton *spin)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  const gint64 *steps = self->series ? sl_tensor_series_get_steps (self->series) : NULL;
  guint n = n_points (self), best = 0;
  char *end = NULL;
  gint64 wanted;

  if (n == 0)
    return GTK_INPUT_ERROR;
  wanted = g_ascii_strtoll (text, &end, 10);
  if (n == 0 || end == text)
    return GTK_INPUT_ERROR;

  for (guint i = 1; i < n; i++)
    if (ABS (steps[i] - wanted) < ABS (steps[best] - wanted))
      best = i;
  *new_value = best;
  return TRUE;
}

static void
slice_changed_cb (SlTensorView *self)
{
  if (self->series != NULL)
    request_frame (self);
}

static void
digits_changed_cb (SlTensorView *self)
{
  if (self->grid == NULL || self->updating_range)
    return;
  sl_tensor_view_set_precision (self, (guint)gtk_spin_button_get_value (self->digits_spin));
}

/* The drop-down's items, in order, as the mode stack names its pages. */
static const char *const mode_names[] = { "table", "heatmap", "histogram" };

static void
mode_selected_cb (SlTensorView *self)
{
  guint selected = gtk_drop_down_get_selected (self->mode_dropdown);

  if (selected < G_N_ELEMENTS (mode_names))
    gtk_stack_set_visible_child_name (self->mode_stack, mode_names[selected]);
}

static void
mode_changed_cb (SlTensorView *self)
{
  GtkWidget *child = gtk_stack_get_visible_child (self->mode_stack);
  const char *name = gtk_stack_get_visible_child_name (self->mode_stack);

  for (guint i = 0; self->mode_dropdown != NULL && i < G_N_ELEMENTS (mode_names); i++)
    if (g_strcmp0 (name, mode_names[i]) == 0)
      gtk_drop_down_set_selected (self->mode_dropdown, i);

  /* Nothing to recompute: every mode reads the same frame. */
  if (child != NULL)
    gtk_widget_queue_draw (child);
}

static void
build_stats_grid (SlTensorView *self)
{
  const char *headers[SL_TENSOR_STAT_COUNT] = {
    N_("Min"), N_("Max"), N_("Mean"), N_("Std"), N_("NaN"), N_("+Inf"), N_("−Inf"), N_("Zeros"),
  };
  const char *rows[2] = { N_("Tensor"), N_("View") };

  self->shape_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->shape_label, 0);
  gtk_label_set_selectable (self->shape_label, TRUE);
  gtk_label_set_ellipsize (self->shape_label, PANGO_ELLIPSIZE_END);
  gtk_grid_attach (self->stats_grid, GTK_WIDGET (self->shape_label), 0, 0, SL_TENSOR_STAT_COUNT + 1, 1);

  for (guint s = 0; s < SL_TENSOR_STAT_COUNT; s++)
    {
      GtkWidget *header = gtk_label_new (_(headers[s]));

      gtk_label_set_xalign (GTK_LABEL (header), 1);
      gtk_widget_add_css_class (header, "dim-label");
      gtk_grid_attach (self->stats_grid, header, s + 1, 1, 1, 1);
    }

  for (guint row = 0; row < 2; row++)
    {
      GtkWidget *name = gtk_label_new (_(rows[row]));

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_widget_add_css_class (name, "dim-label");
      gtk_widget_set_tooltip_text (name, row == 0 ? _("Every value of the step") : _("The values the slice selects"));
      gtk_grid_attach (self->stats_grid, name, 0, row + 2, 1, 1);

      for (guint s = 0; s < SL_TENSOR_STAT_COUNT; s++)
        {
          GtkWidget *label = gtk_label_new ("—");

          gtk_label_set_xalign (GTK_LABEL (label), 1);
          gtk_label_set_selectable (GTK_LABEL (label), TRUE);
          gtk_widget_set_size_request (label, s < SL_TENSOR_STAT_NAN ? 72 : 36, -1);
          gtk_grid_attach (self->stats_grid, label, s + 1, row + 2, 1, 1);
          self->stat_labels[row][s] = GTK_LABEL (label);
        }
    }
}

static void
sl_tensor_view_dispose (GObject *object)
{
  SlTensorView *self = (SlTensorView *)object;

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TENSOR_VIEW);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->series);
  g_clear_pointer (&self->values, g_bytes_unref);
  g_clear_pointer (&self->frame, sl_tensor_frame_unref);
  g_clear_pointer (&self->pending, sl_tensor_frame_unref);
  g_clear_pointer (&self->run_name, g_free);
  g_clear_pointer (&self->slice_error, g_free);
  g_clear_pointer (&self->shape_text, g_free);

  G_OBJECT_CLASS (sl_tensor_view_parent_class)->dispose (object);
}

static void
sl_tensor_view_class_init (SlTensorViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_tensor_view_dispose;

  g_type_ensure (SL_TYPE_TENSOR_GRID);
  g_type_ensure (SL_TYPE_TENSOR_PLOT);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-tensor-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, title_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, run_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, step_scale);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, step_spin);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, slice_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, digits_spin);
  gtk_widget_class_bind_template_child_full (widget_class, "slice_error", FALSE,
                                             G_STRUCT_OFFSET (SlTensorView, slice_error_label));
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, mode_stack);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, grid);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, heatmap);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, histogram);
  gtk_widget_class_bind_template_child (widget_class, SlTensorView, stats_grid);
  gtk_widget_class_bind_template_callback (widget_class, step_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_output_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_input_cb);
  gtk_widget_class_bind_template_callback (widget_class, slice_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, digits_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, mode_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, mode_selected_cb);
}

static void
sl_tensor_view_init (SlTensorView *self)
{
  self->digits = 4;
  self->updating_range = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->updating_range = FALSE;
  sl_tensor_plot_set_mode (self->histogram, SL_TENSOR_PLOT_HISTOGRAM);
  build_stats_grid (self);
}

/* Fits the step controls to the points, following the newest step when
 * it was shown. */
static void
update_step_range (SlTensorView *self)
{
  guint n = n_points (self);
  guint old_n = self->last_n_points;
  gboolean follow = old_n == 0 || current_index (self) + 1 >= old_n;

  self->updating_range = TRUE;
  gtk_adjustment_set_upper (self->step_adjustment, n ? n - 1 : 0);
  if (follow && n > 0)
    gtk_adjustment_set_value (self->step_adjustment, n - 1);
  self->updating_range = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->step_scale), n > 1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->step_spin), n > 1);
  /* The shown number may be the same index with a new step. */
  step_output_cb (self, self->step_spin);
  self->last_n_points = n;
  self->last_restarts = sl_tensor_series_get_n_restarts (self->series);
}

GtkWidget *
sl_tensor_view_new (SlTensorSeries *series,
                    const char     *run_name)
{
  SlTensorView *self;
  g_autofree char *text = NULL;

  g_return_val_if_fail (SL_IS_TENSOR_SERIES (series), NULL);

  self = g_object_new (SL_TYPE_TENSOR_VIEW, NULL);
  self->series = g_object_ref (series);
  self->run_name = g_strdup (run_name);
  gtk_label_set_label (self->title_label, sl_tensor_series_get_tag (series));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), sl_tensor_series_get_tag (series));
  gtk_label_set_label (self->run_label, run_name);

  update_step_range (self);
  if (n_points (self) > 0)
    {
      const gint64 *dims;
      guint n_dims = sl_tensor_series_get_dims (series, n_points (self) - 1, &dims);

      text = sl_tensor_slice_default_text (dims, n_dims);
    }

  sl_tensor_view_set_slice (self, text);

  return GTK_WIDGET (self);
}

SlTensorSeries *
sl_tensor_view_get_series (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  return self->series;
}

const char *
sl_tensor_view_get_tag (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  return sl_tensor_series_get_tag (self->series);
}

/**
 * sl_tensor_view_update:
 *
 * Takes in steps read since the last call: the newest one is shown when
 * the newest was shown before.
 */
void
sl_tensor_view_update (SlTensorView *self)
{
  guint shown;

  g_return_if_fail (SL_IS_TENSOR_VIEW (self));

  if (n_points (self) == self->last_n_points &&
      sl_tensor_series_get_n_restarts (self->series) == self->last_restarts)
    return;

  shown = current_index (self);
  update_step_range (self);
  if (current_index (self) != shown || self->values_restarts != self->last_restarts || self->frame == NULL)
    request_frame (self);
}

/**
 * sl_tensor_view_set_mode:
 * @mode: "table", "heatmap" or "histogram"
 */
void
sl_tensor_view_set_mode (SlTensorView *self,
                         const char   *mode)
{
  g_return_if_fail (SL_IS_TENSOR_VIEW (self));
  gtk_stack_set_visible_child_name (self->mode_stack, mode);
}

const char *
sl_tensor_view_get_mode (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->mode_stack);
}

void
sl_tensor_view_set_slice (SlTensorView *self,
                          const char   *text)
{
  g_return_if_fail (SL_IS_TENSOR_VIEW (self));

  /* Setting the text clears it first, and the entry reports the empty
   * text too: compute once, for the text given. */
  g_signal_handlers_block_by_func (self->slice_entry, slice_changed_cb, self);
  gtk_editable_set_text (GTK_EDITABLE (self->slice_entry), text ? text : "");
  g_signal_handlers_unblock_by_func (self->slice_entry, slice_changed_cb, self);
  request_frame (self);
}

/**
 * sl_tensor_view_get_slice_error:
 *
 * Returns: (nullable): what is wrong with the slice, as shown under it
 */
const char *
sl_tensor_view_get_slice_error (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  return self->slice_error;
}

void
sl_tensor_view_set_step_index (SlTensorView *self,
                               guint         index)
{
  g_return_if_fail (SL_IS_TENSOR_VIEW (self));
  gtk_adjustment_set_value (self->step_adjustment, index);
}

guint
sl_tensor_view_get_step_index (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), 0);
  return current_index (self);
}

void
sl_tensor_view_set_precision (SlTensorView *self,
                              guint         digits)
{
  g_return_if_fail (SL_IS_TENSOR_VIEW (self));

  self->digits = CLAMP (digits, 1, 17);
  if ((guint)gtk_spin_button_get_value (self->digits_spin) != self->digits)
    gtk_spin_button_set_value (self->digits_spin, self->digits);
  sl_tensor_grid_set_precision (self->grid, self->digits);
  sl_tensor_plot_set_precision (self->heatmap, self->digits);
  sl_tensor_plot_set_precision (self->histogram, self->digits);
  update_stats (self);
}

gboolean
sl_tensor_view_is_busy (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), FALSE);
  return self->pending != NULL;
}

/**
 * sl_tensor_view_get_frame:
 *
 * Returns: (transfer none) (nullable): the frame shown
 */
SlTensorFrame *
sl_tensor_view_get_frame (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  return self->frame;
}

/**
 * sl_tensor_view_get_stat_text:
 * @of_view: the statistics of the slice rather than of the whole tensor
 *
 * Returns: the text of a label of the statistics strip
 */
const char *
sl_tensor_view_get_stat_text (SlTensorView *self,
                              gboolean      of_view,
                              SlTensorStat  stat)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  g_return_val_if_fail (stat < SL_TENSOR_STAT_COUNT, NULL);
  return gtk_label_get_label (self->stat_labels[of_view ? 1 : 0][stat]);
}

const char *
sl_tensor_view_get_shape_text (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  return gtk_label_get_label (self->shape_label);
}

/**
 * sl_tensor_view_get_grid:
 *
 * Returns: (transfer none): the table
 */
GtkWidget *
sl_tensor_view_get_grid (SlTensorView *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  return GTK_WIDGET (self->grid);
}

/**
 * sl_tensor_view_get_plot:
 * @mode: "heatmap" or "histogram"
 *
 * Returns: (transfer none): the plot of that mode
 */
GtkWidget *
sl_tensor_view_get_plot (SlTensorView *self,
                         const char   *mode)
{
  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);
  return GTK_WIDGET (g_strcmp0 (mode, "histogram") == 0 ? self->histogram : self->heatmap);
}

#define STATE_TYPE "(ssuxb)"

/**
 * sl_tensor_view_save_state:
 *
 * What the user chose: slice, mode, digits, and the step shown or
 * whether the newest one is followed. The page keeps it across a reload.
 *
 * Returns: (transfer floating): a `(ssuxb)` variant
 */
GVariant *
sl_tensor_view_save_state (SlTensorView *self)
{
  guint n;
  gint64 step = 0;

  g_return_val_if_fail (SL_IS_TENSOR_VIEW (self), NULL);

  n = n_points (self);
  if (n > 0)
    step = sl_tensor_series_get_steps (self->series)[current_index (self)];

  return g_variant_new (STATE_TYPE, gtk_editable_get_text (GTK_EDITABLE (self->slice_entry)),
                        sl_tensor_view_get_mode (self), self->digits, (gint64)step,
                        n > 0 && current_index (self) + 1 == n);
}

void
sl_tensor_view_restore_state (SlTensorView *self,
                              GVariant     *state)
{
  const char *slice, *mode;
  guint digits;
  gint64 step;
  gboolean follow;
  guint n;

  g_return_if_fail (SL_IS_TENSOR_VIEW (self));
  g_return_if_fail (state != NULL);

  if (!g_variant_is_of_type (state, G_VARIANT_TYPE (STATE_TYPE)))
    return;

  g_variant_get (state, "(&s&suxb)", &slice, &mode, &digits, &step, &follow);
  n = n_points (self);
  if (!follow && n > 0)
    {
      const gint64 *steps = sl_tensor_series_get_steps (self->series);
      guint best = 0;

      for (guint i = 1; i < n; i++)
        if (ABS (steps[i] - step) < ABS (steps[best] - step))
          best = i;
      self->updating_range = TRUE;
      gtk_adjustment_set_value (self->step_adjustment, best);
      self->updating_range = FALSE;
      step_output_cb (self, self->step_spin);
    }

  sl_tensor_view_set_mode (self, mode);
  sl_tensor_view_set_precision (self, digits);
  sl_tensor_view_set_slice (self, slice);
}
