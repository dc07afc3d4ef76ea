/* sl-scalar-chart.c
 *
 * The widget only handles input and keeps the renderer's frame current:
 * every change of size or view prepares a frame (level-of-detail columns
 * from the pyramid, well under a millisecond for a million points), and
 * snapshot just draws it. Smoothing a long series runs in a worker; the
 * previous curve stays on screen meanwhile.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-widget-style.h"
#include "sl-replace-stream.h"
#include "sl-scalar-chart.h"
#include "sl-tooltip.h"

/* Series longer than this are smoothed in a worker. */
#define SMOOTH_IN_WORKER 100000u

typedef enum {
  DRAG_NONE,
  DRAG_PAN,
  DRAG_BOX,
} DragMode;

struct _SlScalarChart
{
  GtkWidget              parent_instance;
  SlScalarChartRenderer *renderer;
  GCancellable          *smooth_cancellable;
  guint                  smooth_pending;
  DragMode               drag_mode;
  double                 drag_x;
  double                 drag_y;
  double                 drag_view[4];
  gboolean               drag_y_fixed;
  double                 pointer_x;
  double                 pointer_y;
  gboolean               y_fixed;
};

G_DEFINE_FINAL_TYPE (SlScalarChart, sl_scalar_chart, GTK_TYPE_WIDGET)

static void
update_frame (SlScalarChart *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  if (width > 0 && height > 0)
    sl_scalar_chart_renderer_prepare (self->renderer, width, height);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_style (SlScalarChart *self)
{
  GdkRGBA color;
  double fg[3];
  const PangoFontDescription *font;

  sl_widget_get_foreground (GTK_WIDGET (self), &color);
  fg[0] = color.red;
  fg[1] = color.green;
  fg[2] = color.blue;
  /* A light text colour means a dark style. */
  sl_scalar_chart_renderer_set_dark (self->renderer, 0.299 * fg[0] + 0.587 * fg[1] + 0.114 * fg[2] > 0.5, fg);

  font = pango_context_get_font_description (gtk_widget_get_pango_context (GTK_WIDGET (self)));
  if (font != NULL)
    sl_scalar_chart_renderer_set_font (self->renderer, font);
}

static void
sl_scalar_chart_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  SlScalarChart *self = SL_SCALAR_CHART (widget);

  GTK_WIDGET_CLASS (sl_scalar_chart_parent_class)->css_changed (widget, change);
  update_style (self);
  gtk_widget_queue_draw (widget);
}

static void
sl_scalar_chart_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  sl_scalar_chart_renderer_prepare (SL_SCALAR_CHART (widget)->renderer, width, height);
}

static void
sl_scalar_chart_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 240 : 180;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 340;
}

static void
sl_scalar_chart_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  SlScalarChart *self = SL_SCALAR_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  sl_scalar_chart_renderer_draw (self->renderer, cr);
  cairo_destroy (cr);
}

static void
sl_scalar_chart_dispose (GObject *object)
{
  SlScalarChart *self = (SlScalarChart *)object;

  g_cancellable_cancel (self->smooth_cancellable);
  g_clear_object (&self->smooth_cancellable);
  if (self->renderer != NULL)
    g_signal_handlers_disconnect_by_data (self->renderer, self);
  g_clear_object (&self->renderer);

  G_OBJECT_CLASS (sl_scalar_chart_parent_class)->dispose (object);
}

static void
sl_scalar_chart_class_init (SlScalarChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_scalar_chart_dispose;
  widget_class->css_changed = sl_scalar_chart_css_changed;
  widget_class->size_allocate = sl_scalar_chart_size_allocate;
  widget_class->measure = sl_scalar_chart_measure;
  widget_class->snapshot = sl_scalar_chart_snapshot;

  gtk_widget_class_set_css_name (widget_class, "scalarchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
renderer_changed_cb (SlScalarChartRenderer *renderer,
                     SlScalarChart         *self)
{
  update_frame (self);
}

static gboolean
inside_plot (SlScalarChart *self,
             double         x,
             double         y)
{
  cairo_rectangle_t plot;

  sl_scalar_chart_renderer_get_plot_area (self->renderer, &plot);
  return x >= plot.x && x <= plot.x + plot.width && y >= plot.y && y <= plot.y + plot.height;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               SlScalarChart  *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (!inside_plot (self, x, y))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      self->drag_mode = DRAG_NONE;
      return;
    }

  self->drag_x = x;
  self->drag_y = y;
  sl_scalar_chart_renderer_get_view (self->renderer, &self->drag_view[0], &self->drag_view[1],
                                     &self->drag_view[2], &self->drag_view[3]);
  self->drag_y_fixed = self->y_fixed;
  self->drag_mode = (button == GDK_BUTTON_SECONDARY || (state & GDK_SHIFT_MASK)) ? DRAG_BOX : DRAG_PAN;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          ox,
                double          oy,
                SlScalarChart  *self)
{
  cairo_rectangle_t plot;

  sl_scalar_chart_renderer_get_plot_area (self->renderer, &plot);

  if (self->drag_mode == DRAG_PAN)
    {
      double dx = -ox / plot.width * (self->drag_view[1] - self->drag_view[0]);

      sl_scalar_chart_renderer_set_x_view (self->renderer, self->drag_view[0] + dx, self->drag_view[1] + dx);
      if (self->drag_y_fixed)
        {
          double f = oy / plot.height;

          if (sl_scalar_chart_renderer_get_log_y (self->renderer))
            {
              double span = log10 (self->drag_view[3]) - log10 (self->drag_view[2]);

              sl_scalar_chart_renderer_set_y_view (self->renderer,
                                                   self->drag_view[2] * pow (10, f * span),
                                                   self->drag_view[3] * pow (10, f * span));
            }
          else
            {
              double dy = f * (self->drag_view[3] - self->drag_view[2]);

              sl_scalar_chart_renderer_set_y_view (self->renderer, self->drag_view[2] + dy, self->drag_view[3] + dy);
            }
        }
      update_frame (self);
    }
  else if (self->drag_mode == DRAG_BOX)
    {
      double x0 = CLAMP (self->drag_x, plot.x, plot.x + plot.width);
      double y0 = CLAMP (self->drag_y, plot.y, plot.y + plot.height);
      double x1 = CLAMP (self->drag_x + ox, plot.x, plot.x + plot.width);
      double y1 = CLAMP (self->drag_y + oy, plot.y, plot.y + plot.height);
      cairo_rectangle_t box = { MIN (x0, x1), MIN (y0, y1), fabs (x1 - x0), fabs (y1 - y0) };

      sl_scalar_chart_renderer_set_selection (self->renderer, &box);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          ox,
             double          oy,
             SlScalarChart  *self)
{
  if (self->drag_mode == DRAG_BOX && fabs (ox) > 4 && fabs (oy) > 4)
    {
      double xa = sl_scalar_chart_renderer_pixel_to_x (self->renderer, self->drag_x);
      double xb = sl_scalar_chart_renderer_pixel_to_x (self->renderer, self->drag_x + ox);
      double ya = sl_scalar_chart_renderer_pixel_to_y (self->renderer, self->drag_y);
      double yb = sl_scalar_chart_renderer_pixel_to_y (self->renderer, self->drag_y + oy);

      sl_scalar_chart_zoom_to (self, MIN (xa, xb), MAX (xa, xb), MIN (ya, yb), MAX (ya, yb));
    }
  else if (self->drag_mode == DRAG_PAN && self->drag_y_fixed)
    self->y_fixed = TRUE;

  sl_scalar_chart_renderer_set_selection (self->renderer, NULL);
  self->drag_mode = DRAG_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  SlScalarChart   *self)
{
  int hit = sl_scalar_chart_renderer_legend_hit (self->renderer, x, y);

  if (hit >= 0 && n_press == 1)
    {
      sl_scalar_chart_set_series_visible (self, hit, !sl_scalar_chart_renderer_get_series_visible (self->renderer, hit));
      return;
    }
  if (n_press == 2 && inside_plot (self, x, y))
    sl_scalar_chart_reset_view (self);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SlScalarChart            *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  /* Charts sit in scrolled pages of cards: the plain wheel scrolls the
   * page, Ctrl+wheel zooms. */
  if (!(state & GDK_CONTROL_MASK) || !inside_plot (self, self->pointer_x, self->pointer_y) || dy == 0)
    return FALSE;
  sl_scalar_chart_zoom_at (self, self->pointer_x, pow (1.2, dy));
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SlScalarChart            *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  sl_scalar_chart_renderer_set_hover (self->renderer,
                                      inside_plot (self, x, y) ? sl_scalar_chart_renderer_pixel_to_x (self->renderer, x) : NAN);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *controller,
          SlScalarChart            *self)
{
  sl_scalar_chart_renderer_set_hover (self->renderer, NAN);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
query_tooltip_cb (GtkWidget     *widget,
                  int            x,
                  int            y,
                  gboolean       keyboard,
                  GtkTooltip    *tooltip,
                  SlScalarChart *self)
{
  g_autofree char *text = NULL;

  if (keyboard || self->drag_mode != DRAG_NONE || !inside_plot (self, x, y))
    return FALSE;
  text = sl_scalar_chart_get_tooltip_at (self, sl_scalar_chart_renderer_pixel_to_x (self->renderer, x));
  if (text == NULL)
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
sl_scalar_chart_init (SlScalarChart *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->renderer = sl_scalar_chart_renderer_new ();
  self->pointer_x = self->pointer_y = -1;
  g_signal_connect (self->renderer, "changed", G_CALLBACK (renderer_changed_cb), self);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (click, "pressed", G_CALLBACK (click_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scalar chart"),
                                  -1);
}

GtkWidget *
sl_scalar_chart_new (void)
{
  return g_object_new (SL_TYPE_SCALAR_CHART, NULL);
}

/**
 * sl_scalar_chart_get_renderer:
 *
 * Returns: (transfer none): the renderer that draws the chart
 */
SlScalarChartRenderer *
sl_scalar_chart_get_renderer (SlScalarChart *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART (self), NULL);
  return self->renderer;
}

/**
 * sl_scalar_chart_add_series:
 * @name: the legend entry, e.g. "run / tag"
 *
 * Returns: the index of the series
 */
guint
sl_scalar_chart_add_series (SlScalarChart  *self,
                            SlScalarSeries *series,
                            const char     *name)
{
  guint index;

  g_return_val_if_fail (SL_IS_SCALAR_CHART (self), 0);
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (series), 0);

  index = sl_scalar_chart_renderer_add_series (self->renderer, series, name);
  update_frame (self);
  return index;
}

void
sl_scalar_chart_set_series_visible (SlScalarChart *self,
                                    guint          index,
                                    gboolean       visible)
{
  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  sl_scalar_chart_renderer_set_series_visible (self->renderer, index, visible);
  update_frame (self);
}

void
sl_scalar_chart_set_x_mode (SlScalarChart *self,
                            SlChartXMode   mode)
{
  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  sl_scalar_chart_renderer_set_x_mode (self->renderer, mode);
  update_frame (self);
}

typedef struct {
  guint             index;
  SlSeriesSmoother  state;
  double           *values;
  guint             n;
} SmoothJob;

static void
smooth_job_free (gpointer data)
{
  SmoothJob *job = data;

  g_free (job->values);
  g_free (job);
}

static void
smooth_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SmoothJob *job = task_data;

  /* In place: the copy becomes the smoothed values. */
  sl_series_smoother_feed (&job->state, job->values, job->n, job->values);
  g_task_return_boolean (task, !g_cancellable_is_cancelled (cancellable));
}

static void
smooth_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  SlScalarChart *self = SL_SCALAR_CHART (source);
  SmoothJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;

  sl_scalar_chart_renderer_install_smoothed (self->renderer, job->index, &job->state, job->values, job->n);
  self->smooth_pending--;
  update_frame (self);
}

/**
 * sl_scalar_chart_set_smoothing:
 * @weight: 0 (raw) to 0.999
 *
 * Long series are smoothed in a worker; the chart shows the previous
 * smoothing until it is done (see sl_scalar_chart_is_smoothing_busy()).
 */
void
sl_scalar_chart_set_smoothing (SlScalarChart *self,
                               double         weight)
{
  guint n_series;
  guint longest = 0;

  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  g_cancellable_cancel (self->smooth_cancellable);
  g_clear_object (&self->smooth_cancellable);
  self->smooth_pending = 0;

  n_series = sl_scalar_chart_renderer_get_n_series (self->renderer);
  weight = CLAMP (weight, 0.0, 0.999);
  if (weight == 0)
    {
      sl_scalar_chart_renderer_set_smoothing (self->renderer, 0);
      update_frame (self);
      return;
    }

  self->smooth_cancellable = g_cancellable_new ();
  for (guint i = 0; i < n_series; i++)
    {
      SlScalarSeries *series = sl_scalar_chart_renderer_get_series (self->renderer, i);
      guint n = sl_scalar_series_get_n_points (series);

      longest = MAX (longest, n);
    }
  /* A worker only pays off for long series. */
  if (longest <= SMOOTH_IN_WORKER)
    {
      sl_scalar_chart_renderer_set_smoothing (self->renderer, weight);
      update_frame (self);
      return;
    }

  for (guint i = 0; i < n_series; i++)
    {
      SlScalarSeries *series = sl_scalar_chart_renderer_get_series (self->renderer, i);
      g_autoptr(GTask) task = g_task_new (self, self->smooth_cancellable, smooth_done_cb, NULL);
      SmoothJob *job = g_new0 (SmoothJob, 1);

      job->index = i;
      job->n = sl_scalar_series_get_n_points (series);
      job->values = g_memdup2 (sl_scalar_series_get_values (series), MAX (job->n, 1) * sizeof (double));
      sl_series_smoother_init (&job->state, weight);
      g_task_set_task_data (task, job, smooth_job_free);
      g_task_set_source_tag (task, sl_scalar_chart_set_smoothing);
      self->smooth_pending++;
      g_task_run_in_thread (task, smooth_thread);
    }
}

/**
 * sl_scalar_chart_is_smoothing_busy:
 *
 * Returns: %TRUE while a worker is still smoothing
 */
gboolean
sl_scalar_chart_is_smoothing_busy (SlScalarChart *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART (self), FALSE);
  return self->smooth_pending > 0;
}

void
sl_scalar_chart_set_log_y (SlScalarChart *self,
                           gboolean       log_y)
{
  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  sl_scalar_chart_renderer_set_log_y (self->renderer, log_y);
  self->y_fixed = FALSE;
  update_frame (self);
}

void
sl_scalar_chart_set_ignore_outliers (SlScalarChart *self,
                                     gboolean       ignore)
{
  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  sl_scalar_chart_renderer_set_ignore_outliers (self->renderer, ignore);
  self->y_fixed = FALSE;
  update_frame (self);
}

void
sl_scalar_chart_set_threshold (SlScalarChart    *self,
                               SlChartThreshold  mode,
                               double            value)
{
  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  sl_scalar_chart_renderer_set_threshold (self->renderer, mode, value);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sl_scalar_chart_zoom_to:
 *
 * Shows [@x_min, @x_max] × [@y_min, @y_max]; a NaN y bound keeps the y
 * range automatic.
 */
void
sl_scalar_chart_zoom_to (SlScalarChart *self,
                         double         x_min,
                         double         x_max,
                         double         y_min,
                         double         y_max)
{
  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  sl_scalar_chart_renderer_set_x_view (self->renderer, x_min, x_max);
  if (isfinite (y_min) && isfinite (y_max) && y_max > y_min)
    {
      sl_scalar_chart_renderer_set_y_view (self->renderer, y_min, y_max);
      self->y_fixed = TRUE;
    }
  update_frame (self);
}

/**
 * sl_scalar_chart_zoom_at:
 * @px: the widget x that stays in place
 * @factor: below 1 zooms in
 */
void
sl_scalar_chart_zoom_at (SlScalarChart *self,
                         double         px,
                         double         factor)
{
  double x_min, x_max, at;

  g_return_if_fail (SL_IS_SCALAR_CHART (self));
  g_return_if_fail (factor > 0);

  sl_scalar_chart_renderer_get_view (self->renderer, &x_min, &x_max, NULL, NULL);
  at = sl_scalar_chart_renderer_pixel_to_x (self->renderer, px);
  if (!isfinite (at))
    return;
  sl_scalar_chart_renderer_set_x_view (self->renderer, at - (at - x_min) * factor, at + (x_max - at) * factor);
  update_frame (self);
}

/**
 * sl_scalar_chart_pan:
 *
 * Moves the view by (@dx, @dy) pixels, as a drag does.
 */
void
sl_scalar_chart_pan (SlScalarChart *self,
                     double         dx,
                     double         dy)
{
  cairo_rectangle_t plot;
  double v[4];

  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  sl_scalar_chart_renderer_get_plot_area (self->renderer, &plot);
  sl_scalar_chart_renderer_get_view (self->renderer, &v[0], &v[1], &v[2], &v[3]);
  if (plot.width <= 0)
    return;
  dx = -dx / plot.width * (v[1] - v[0]);
  sl_scalar_chart_renderer_set_x_view (self->renderer, v[0] + dx, v[1] + dx);
  if (self->y_fixed && !sl_scalar_chart_renderer_get_log_y (self->renderer))
    {
      dy = dy / plot.height * (v[3] - v[2]);
      sl_scalar_chart_renderer_set_y_view (self->renderer, v[2] + dy, v[3] + dy);
    }
  update_frame (self);
}

void
sl_scalar_chart_reset_view (SlScalarChart *self)
{
  g_return_if_fail (SL_IS_SCALAR_CHART (self));

  sl_scalar_chart_renderer_reset_view (self->renderer);
  self->y_fixed = FALSE;
  update_frame (self);
}

void
sl_scalar_chart_get_view (SlScalarChart *self,
                          double        *x_min,
                          double        *x_max,
                          double        *y_min,
                          double        *y_max)
{
  g_return_if_fail (SL_IS_SCALAR_CHART (self));
  sl_scalar_chart_renderer_get_view (self->renderer, x_min, x_max, y_min, y_max);
}

/**
 * sl_scalar_chart_get_tooltip_at:
 * @x: a data x (step or seconds, as the x mode)
 *
 * Returns: (transfer full) (nullable): the tooltip text for @x
 */
char *
sl_scalar_chart_get_tooltip_at (SlScalarChart *self,
                                double         x)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART (self), NULL);
  return sl_scalar_chart_renderer_describe_at (self->renderer, x);
}

/**
 * sl_scalar_chart_export:
 *
 * Writes the chart as shown, at the widget's size (or 1200 × 500 when it
 * is not shown), as PNG, SVG or PDF.
 */
gboolean
sl_scalar_chart_export (SlScalarChart       *self,
                        const char          *path,
                        SlChartImageFormat   format,
                        GError             **error)
{
  int width, height;
  gboolean ok;

  g_return_val_if_fail (SL_IS_SCALAR_CHART (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (width <= 0 || height <= 0)
    width = 1200, height = 500;

  ok = sl_scalar_chart_renderer_export_image (self->renderer, path, format, width, height, error);
  update_frame (self);
  return ok;
}

/**
 * sl_scalar_chart_export_data_async:
 *
 * Writes the points of the visible series as they are now to @file as CSV
 * or JSON, on a worker thread; @file is replaced only when all of them
 * are written.
 */
void
sl_scalar_chart_export_data_async (SlScalarChart       *self,
                                   GFile               *file,
                                   SlChartDataFormat    format,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GBytes) data = NULL;

  g_return_if_fail (SL_IS_SCALAR_CHART (self));
  g_return_if_fail (G_IS_FILE (file));

  data = sl_scalar_chart_renderer_format_data (self->renderer, format);
  sl_replace_file_contents_async (file, data, self, cancellable, callback, user_data);
}

/**
 * sl_scalar_chart_export_data_finish:
 *
 * Returns: %TRUE when the file was written, else an error naming it
 */
gboolean
sl_scalar_chart_export_data_finish (SlScalarChart  *self,
                                    GAsyncResult   *result,
                                    GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return sl_replace_file_contents_finish (result, error);
}
