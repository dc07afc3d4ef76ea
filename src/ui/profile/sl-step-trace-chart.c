/* sl-step-trace-chart.c
 *
 * A stacked bar per step of the phases its step trace declares, named as
 * the source names them (MindSpore's and msprof's data wait, FP+BP and
 * tail; torch_npu's Computing, Communication(Not Overlapped) and Free),
 * with the average step as a dashed line. Reduce streams, when the profile
 * has them, are marks inside the bar at the height of their duration. The
 * scale and the averages are computed when the steps are set; a frame only
 * draws.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-widget-style.h"
#include "sl-chart-axis.h"
#include "sl-scalar-chart-renderer.h"
#include "sl-step-trace-chart.h"
#include "sl-tooltip.h"

#define MARGIN_LEFT 76
#define MARGIN_RIGHT 16
#define MARGIN_TOP 34
#define MAX_BAR_WIDTH 90
#define LEGEND_LINE 20
#define MARGIN_BOTTOM 30

struct _SlStepTraceChart
{
  GtkWidget    parent_instance;

  SlStepTrace *steps;
  SlStep       average;
  GArray      *phase_averages; /* gint64 per phase, ≥ 0 */
  gint64       y_max_ns;
  gboolean     has_phases;
  int          hover;
  SlTimeUnit   unit;
  double       top;          /* of the plot, below the legend's lines at the last draw */
  GtkWidget   *menu;         /* the context menu of a step */
};

G_DEFINE_FINAL_TYPE (SlStepTraceChart, sl_step_trace_chart, GTK_TYPE_WIDGET)

enum {
  STEP_ACTIVATED,
  EXPORT_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static guint
n_phases (SlStepTraceChart *self)
{
  return self->steps != NULL ? sl_step_trace_get_n_phases (self->steps) : 0;
}

static gint64
phase_ns (SlStepTraceChart *self,
          guint             index,
          guint             phase)
{
  gint64 value = sl_step_trace_get_phase (self->steps, index, phase);

  return value == SL_STEP_NO_TIME ? 0 : MAX (0, value);
}

static gint64
step_height_ns (SlStepTraceChart *self,
                guint             index)
{
  const SlStep *step = sl_step_trace_get_step (self->steps, index);
  gint64 sum = 0;

  for (guint p = 0; p < n_phases (self); p++)
    sum += phase_ns (self, index, p);
  if (step->total_ns != SL_STEP_NO_TIME)
    return MAX (sum, step->total_ns);
  return sum;
}

static gint64
average_height_ns (SlStepTraceChart *self)
{
  gint64 sum = 0;

  for (guint p = 0; p < self->phase_averages->len; p++)
    sum += g_array_index (self->phase_averages, gint64, p);
  if (self->average.total_ns != SL_STEP_NO_TIME)
    return MAX (sum, self->average.total_ns);
  return sum;
}

/* Extra column @c is a reduce stream's duration: MindSpore's stream
 * columns (not their start and end points) and msprof's Reduce Duration.
 * torch_npu's other columns are not marked in the bar. */
static gboolean
is_reduce_duration (SlStepTrace *steps,
                    guint        c)
{
  const char *name = sl_step_trace_get_extra_name (steps, c);

  switch (sl_step_trace_get_source (steps))
    {
    case SL_STEP_SOURCE_MINDSPORE:
      return !g_str_has_suffix (name, "_start_point") && !g_str_has_suffix (name, "_end_point");
    case SL_STEP_SOURCE_MSPROF:
      return g_str_equal (name, "Reduce Duration");
    case SL_STEP_SOURCE_ASCEND_PT:
    case SL_STEP_SOURCE_CLUSTER:
    case SL_STEP_SOURCE_DATABASE:
    default:
      return FALSE;
    }
}

static gboolean
has_reduce_streams (SlStepTrace *steps)
{
  for (guint c = 0; steps != NULL && c < sl_step_trace_get_n_extra_columns (steps); c++)
    if (is_reduce_duration (steps, c))
      return TRUE;
  return FALSE;
}

static double
y_to_px (SlStepTraceChart *self,
         gint64            ns,
         int               height)
{
  double plot = height - self->top - MARGIN_BOTTOM;

  return height - MARGIN_BOTTOM - (self->y_max_ns > 0 ? (double)ns / self->y_max_ns * plot : 0);
}

static void
bar_extent (SlStepTraceChart *self,
            guint             index,
            int               width,
            double           *x,
            double           *w)
{
  guint n = sl_step_trace_get_n_steps (self->steps);
  double slot = (double)(width - MARGIN_LEFT - MARGIN_RIGHT) / MAX (1, n);

  *x = MARGIN_LEFT + index * slot;
  /* A few steps stay bars, not walls. */
  *w = slot > 4 ? MIN (slot * 0.8, MAX_BAR_WIDTH) : MAX (1, slot);
  if (slot > 4)
    *x += (slot - *w) / 2;
}

/* The y axis's ticks, all labelled in one unit (the chosen one, or the
 * one that suits the highest tick): "0 ms", "50 ms", never "0 ns". */
static GPtrArray *
axis_ticks (SlStepTraceChart *self,
            GArray          **values)
{
  double tick = sl_chart_nice_step (self->y_max_ns / 5.0);
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  SlTimeUnit unit = self->unit;
  double top = 0;

  *values = g_array_new (FALSE, FALSE, sizeof (double));
  for (double v = 0; tick > 0 && v <= self->y_max_ns; v += tick)
    {
      g_array_append_val (*values, v);
      top = v;
    }
  if (unit == SL_TIME_UNIT_AUTO)
    unit = sl_time_unit_for_ns ((gint64)top);
  for (guint i = 0; i < (*values)->len; i++)
    g_ptr_array_add (labels, g_strdup_printf ("%.4g %s",
                                              g_array_index (*values, double, i) / sl_time_unit_scale (unit),
                                              sl_time_unit_symbol (unit)));
  return labels;
}

/**
 * sl_step_trace_chart_get_axis_labels:
 *
 * Returns: (transfer full): the y axis's tick labels, from the bottom
 */
GStrv
sl_step_trace_chart_get_axis_labels (SlStepTraceChart *self)
{
  g_autoptr(GArray) values = NULL;
  g_autoptr(GPtrArray) labels = axis_ticks (self, &values);

  g_ptr_array_add (labels, NULL);
  g_ptr_array_set_free_func (labels, NULL);
  return (GStrv)g_ptr_array_free (g_steal_pointer (&labels), FALSE);
}

static void
draw_axis (SlStepTraceChart *self,
           cairo_t          *cr,
           PangoLayout      *layout,
           int               width,
           int               height,
           const GdkRGBA    *fg)
{
  g_autoptr(GArray) values = NULL;
  g_autoptr(GPtrArray) labels = axis_ticks (self, &values);

  for (guint i = 0; i < values->len; i++)
    {
      double y = round (y_to_px (self, (gint64)g_array_index (values, double, i), height)) + 0.5;
      const char *label = g_ptr_array_index (labels, i);
      int tw, th;

      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.12);
      cairo_move_to (cr, MARGIN_LEFT, y);
      cairo_line_to (cr, width - MARGIN_RIGHT, y);
      cairo_stroke (cr);

      pango_layout_set_text (layout, label, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      cairo_move_to (cr, MARGIN_LEFT - 6 - tw, y - th / 2.0);
      pango_cairo_show_layout (cr, layout);
    }
}

static void
draw_step_labels (SlStepTraceChart *self,
                  cairo_t          *cr,
                  PangoLayout      *layout,
                  int               width,
                  int               height,
                  const GdkRGBA    *fg)
{
  guint n = sl_step_trace_get_n_steps (self->steps);
  double last_end = -G_MAXDOUBLE;

  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = g_strdup_printf ("%lld", (long long)sl_step_trace_get_step (self->steps, i)->step);
      double x, w;
      int tw, th;

      bar_extent (self, i, width, &x, &w);
      pango_layout_set_text (layout, label, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      /* Label only the steps there is room for. */
      if (x + w / 2 - tw / 2.0 < last_end + 8)
        continue;
      cairo_move_to (cr, x + w / 2 - tw / 2.0, height - MARGIN_BOTTOM + 6);
      pango_cairo_show_layout (cr, layout);
      last_end = x + w / 2 + tw / 2.0;
    }
}

/* Entries flow onto more lines when the chart is narrow; with @cr NULL it
 * only measures. Returns where the legend ends. */
static double
draw_legend (SlStepTraceChart *self,
             cairo_t          *cr,
             PangoLayout      *layout,
             const GdkRGBA    *fg,
             int               width)
{
  guint n_stacked = self->has_phases ? n_phases (self) : 0;
  guint n_entries = n_stacked + has_reduce_streams (self->steps);
  double x = MARGIN_LEFT, y = 10;

  for (guint e = 0; e < n_entries; e++)
    {
      gboolean reduce = e == n_stacked;
      g_autofree char *average = reduce ? NULL : sl_time_format_ns (g_array_index (self->phase_averages, gint64, e),
                                                                    self->unit);
      /* TRANSLATORS: a legend entry: a phase of a step and its average duration */
      g_autofree char *label = reduce ? g_strdup (_("Reduce streams (their durations)"))
                                      : g_strdup_printf (_("%s (average %s)"),
                                                         sl_step_trace_get_phase_label (self->steps, e), average);
      double rgb[3];
      int tw, th;

      pango_layout_set_text (layout, label, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      if (x > MARGIN_LEFT && x + 16 + tw > width - MARGIN_RIGHT)
        {
          x = MARGIN_LEFT;
          y += LEGEND_LINE;
        }

      if (cr != NULL)
        {
          if (reduce)
            {
              gdk_cairo_set_source_rgba (cr, fg);
              cairo_move_to (cr, x, y + 6.5);
              cairo_line_to (cr, x + 12, y + 6.5);
              cairo_stroke (cr);
            }
          else
            {
              sl_scalar_chart_renderer_get_palette_color (e, rgb);
              cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
              cairo_rectangle (cr, x, y, 12, 12);
              cairo_fill (cr);
            }
          gdk_cairo_set_source_rgba (cr, fg);
          cairo_move_to (cr, x + 16, y + 6 - th / 2.0);
          pango_cairo_show_layout (cr, layout);
        }
      x += 16 + tw + 18;
    }

  return y + LEGEND_LINE;
}

/**
 * sl_step_trace_chart_draw:
 *
 * Draws the chart into @cr; used by the widget and by image export.
 */
void
sl_step_trace_chart_draw (SlStepTraceChart *self,
                          cairo_t          *cr,
                          int               width,
                          int               height)
{
  g_autoptr(PangoLayout) layout = NULL;
  guint n, n_extra;
  GdkRGBA fg;

  g_return_if_fail (SL_IS_STEP_TRACE_CHART (self));

  if (self->steps == NULL || (n = sl_step_trace_get_n_steps (self->steps)) == 0 ||
      width <= MARGIN_LEFT + MARGIN_RIGHT || height <= MARGIN_TOP + MARGIN_BOTTOM)
    return;

  sl_widget_get_foreground (GTK_WIDGET (self), &fg);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  self->top = MAX (MARGIN_TOP, draw_legend (self, NULL, layout, &fg, width) + 4);
  cairo_set_line_width (cr, 1);
  draw_axis (self, cr, layout, width, height, &fg);
  n_extra = sl_step_trace_get_n_extra_columns (self->steps);

  for (guint i = 0; i < n; i++)
    {
      gint64 height_ns = step_height_ns (self, i);
      gint64 base = 0;
      double x, w;

      bar_extent (self, i, width, &x, &w);
      if (!self->has_phases)
        {
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.5);
          cairo_rectangle (cr, x, y_to_px (self, height_ns, height), w,
                           y_to_px (self, 0, height) - y_to_px (self, height_ns, height));
          cairo_fill (cr);
        }

      for (guint p = 0; p < n_phases (self) && self->has_phases; p++)
        {
          gint64 value = phase_ns (self, i, p);
          double rgb[3];
          double top = y_to_px (self, base + value, height);
          double bottom = y_to_px (self, base, height);

          sl_scalar_chart_renderer_get_palette_color (p, rgb);
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], (int)i == self->hover ? 1.0 : 0.85);
          cairo_rectangle (cr, x, top, w, bottom - top);
          cairo_fill (cr);
          base += value;
        }

      /* Reduce streams overlap the tail: a mark at their duration. */
      for (guint c = 0; c < n_extra && w >= 3; c++)
        {
          gint64 value = sl_step_trace_get_extra (self->steps, i, c);
          double y;

          if (value == SL_STEP_NO_TIME || value <= 0 || !is_reduce_duration (self->steps, c))
            continue;
          y = round (y_to_px (self, value, height)) + 0.5;
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.9);
          cairo_move_to (cr, x, y);
          cairo_line_to (cr, x + w, y);
          cairo_stroke (cr);
        }

      if ((int)i == self->hover)
        {
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.9);
          cairo_rectangle (cr, x - 0.5, y_to_px (self, height_ns, height) - 0.5, w + 1,
                           y_to_px (self, 0, height) - y_to_px (self, height_ns, height) + 1);
          cairo_stroke (cr);
        }
    }

  /* The average step, dashed across. */
  {
    double y = round (y_to_px (self, average_height_ns (self), height)) + 0.5;
    g_autofree char *average = sl_time_format_ns (average_height_ns (self), self->unit);
    /* TRANSLATORS: the label of the average step line */
    g_autofree char *label = g_strdup_printf (_("average %s"), average);
    const double dash[] = { 5, 4 };
    int tw, th;

    cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
    cairo_set_dash (cr, dash, 2, 0);
    cairo_move_to (cr, MARGIN_LEFT, y);
    cairo_line_to (cr, width - MARGIN_RIGHT, y);
    cairo_stroke (cr);
    cairo_set_dash (cr, NULL, 0, 0);
    pango_layout_set_text (layout, label, -1);
    pango_layout_get_pixel_size (layout, &tw, &th);
    cairo_move_to (cr, width - MARGIN_RIGHT - tw - 4, y - th - 2);
    pango_cairo_show_layout (cr, layout);
  }

  draw_step_labels (self, cr, layout, width, height, &fg);
  draw_legend (self, cr, layout, &fg, width);
}

static void
sl_step_trace_chart_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  sl_step_trace_chart_draw (SL_STEP_TRACE_CHART (widget), cr, width, height);
  cairo_destroy (cr);
}

/**
 * sl_step_trace_chart_step_at:
 *
 * Returns: the index of the step whose bar is under (@x, @y), or -1
 */
int
sl_step_trace_chart_step_at (SlStepTraceChart *self,
                             double            x,
                             double            y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  guint n;
  double slot;
  int index;

  g_return_val_if_fail (SL_IS_STEP_TRACE_CHART (self), -1);

  if (self->steps == NULL || (n = sl_step_trace_get_n_steps (self->steps)) == 0 ||
      x < MARGIN_LEFT || x >= width - MARGIN_RIGHT || y < self->top || y > height - MARGIN_BOTTOM)
    return -1;

  slot = (double)(width - MARGIN_LEFT - MARGIN_RIGHT) / n;
  index = (int)((x - MARGIN_LEFT) / slot);
  return index >= 0 && (guint)index < n ? index : -1;
}

static void
append_share (GString    *str,
              const char *name,
              gint64      value,
              gint64      total,
              SlTimeUnit  unit)
{
  g_autofree char *text = sl_time_format_ns (value, unit);

  if (total > 0)
    g_string_append_printf (str, "\n%s: %s (%.1f%%)", name, text, 100.0 * value / total);
  else
    g_string_append_printf (str, "\n%s: %s", name, text);
}

/**
 * sl_step_trace_chart_describe_step:
 *
 * Returns: (transfer full) (nullable): the step's number, total and each
 *   phase with its share, and the reduce streams
 */
char *
sl_step_trace_chart_describe_step (SlStepTraceChart *self,
                                   guint             index)
{
  const SlStep *step;
  GString *str;
  gint64 total;

  g_return_val_if_fail (SL_IS_STEP_TRACE_CHART (self), NULL);

  if (self->steps == NULL || index >= sl_step_trace_get_n_steps (self->steps))
    return NULL;

  step = sl_step_trace_get_step (self->steps, index);
  total = step_height_ns (self, index);
  str = g_string_new (NULL);
  g_string_append_printf (str, _("Step %lld"), (long long)step->step);
  append_share (str, _("Total"), total, 0, self->unit);
  for (guint p = 0; p < n_phases (self) && self->has_phases; p++)
    append_share (str, sl_step_trace_get_phase_label (self->steps, p), phase_ns (self, index, p), total, self->unit);
  for (guint c = 0; c < sl_step_trace_get_n_extra_columns (self->steps); c++)
    {
      gint64 value = sl_step_trace_get_extra (self->steps, index, c);

      if (value != SL_STEP_NO_TIME)
        append_share (str, sl_step_trace_get_extra_name (self->steps, c), value, total, self->unit);
    }
  g_string_append_printf (str, "\n%s", _("Click to show this step on the timeline"));

  return g_string_free (str, FALSE);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  SlStepTraceChart *self = SL_STEP_TRACE_CHART (widget);
  int index = sl_step_trace_chart_step_at (self, x, y);
  g_autofree char *text = index >= 0 ? sl_step_trace_chart_describe_step (self, index) : NULL;

  if (text == NULL)
    return FALSE;

  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           SlStepTraceChart         *self)
{
  int hover = sl_step_trace_chart_step_at (self, x, y);

  if (hover != self->hover)
    {
      self->hover = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (GtkEventControllerMotion *motion,
          SlStepTraceChart         *self)
{
  self->hover = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
pressed_cb (GtkGestureClick  *gesture,
            int               n_press,
            double            x,
            double            y,
            SlStepTraceChart *self)
{
  int index = sl_step_trace_chart_step_at (self, x, y);

  if (index >= 0)
    g_signal_emit (self, signals[STEP_ACTIVATED], 0, (guint)index);
}

/* A right click on a step: what can be done with it, for that step. */
static void
secondary_pressed_cb (GtkGestureClick  *gesture,
                      int               n_press,
                      double            x,
                      double            y,
                      SlStepTraceChart *self)
{
  int index = sl_step_trace_chart_step_at (self, x, y);
  g_autoptr(GMenu) menu = NULL;
  g_autoptr(GMenuItem) show = NULL;
  g_autoptr(GMenuItem) export = NULL;

  if (index < 0)
    return;

  menu = g_menu_new ();
  show = g_menu_item_new (_("_Show on Timeline"), NULL);
  g_menu_item_set_action_and_target_value (show, "steps.show-on-timeline", g_variant_new_uint32 (index));
  g_menu_append_item (menu, show);
  export = g_menu_item_new (_("_Export This Step’s Timeline…"), NULL);
  g_menu_item_set_action_and_target_value (export, "steps.export-timeline", g_variant_new_uint32 (index));
  g_menu_append_item (menu, export);

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle) { (int)x, (int)y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
step_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlStepTraceChart *self = SL_STEP_TRACE_CHART (widget);
  guint index = g_variant_get_uint32 (param);

  if (self->steps == NULL || index >= sl_step_trace_get_n_steps (self->steps))
    return;
  g_signal_emit (self, signals[g_str_equal (action_name, "steps.export-timeline") ? EXPORT_REQUESTED : STEP_ACTIVATED],
                 0, index);
}

/**
 * sl_step_trace_chart_get_menu:
 *
 * Returns: (transfer none): the context menu, with the items of the step
 *   last right-clicked
 */
GtkPopover *
sl_step_trace_chart_get_menu (SlStepTraceChart *self)
{
  g_return_val_if_fail (SL_IS_STEP_TRACE_CHART (self), NULL);

  return GTK_POPOVER (self->menu);
}

static void
sl_step_trace_chart_size_allocate (GtkWidget *widget,
                                   int        width,
                                   int        height,
                                   int        baseline)
{
  gtk_popover_present (GTK_POPOVER (SL_STEP_TRACE_CHART (widget)->menu));
}

static void
sl_step_trace_chart_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 240 : 180;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 720 : 320;
}

static void
sl_step_trace_chart_dispose (GObject *object)
{
  SlStepTraceChart *self = SL_STEP_TRACE_CHART (object);

  g_clear_pointer (&self->steps, sl_step_trace_unref);
  g_clear_pointer (&self->phase_averages, g_array_unref);
  g_clear_pointer (&self->menu, gtk_widget_unparent);

  G_OBJECT_CLASS (sl_step_trace_chart_parent_class)->dispose (object);
}

static void
sl_step_trace_chart_class_init (SlStepTraceChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_step_trace_chart_dispose;
  widget_class->snapshot = sl_step_trace_chart_snapshot;
  widget_class->measure = sl_step_trace_chart_measure;
  widget_class->size_allocate = sl_step_trace_chart_size_allocate;

  /**
   * SlStepTraceChart::step-activated:
   * @index: the step clicked
   */
  signals[STEP_ACTIVATED] =
    g_signal_new ("step-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  /**
   * SlStepTraceChart::export-requested:
   * @index: the step whose part of the timeline to export
   */
  signals[EXPORT_REQUESTED] =
    g_signal_new ("export-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "steps.show-on-timeline", "u", step_action);
  gtk_widget_class_install_action (widget_class, "steps.export-timeline", "u", step_action);
  gtk_widget_class_set_css_name (widget_class, "steptrace");
}

static void
sl_step_trace_chart_init (SlStepTraceChart *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *secondary = gtk_gesture_click_new ();

  self->hover = -1;
  self->top = MARGIN_TOP;
  self->phase_averages = g_array_new (FALSE, TRUE, sizeof (gint64));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
  g_signal_connect (secondary, "pressed", G_CALLBACK (secondary_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (secondary));

  self->menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
  gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
}

GtkWidget *
sl_step_trace_chart_new (void)
{
  return g_object_new (SL_TYPE_STEP_TRACE_CHART, NULL);
}

/**
 * sl_step_trace_chart_set_steps:
 * @steps: (nullable): the steps of one profile (or rank)
 */
void
sl_step_trace_chart_set_steps (SlStepTraceChart *self,
                               SlStepTrace      *steps)
{
  guint n;

  g_return_if_fail (SL_IS_STEP_TRACE_CHART (self));

  g_clear_pointer (&self->steps, sl_step_trace_unref);
  self->steps = steps ? sl_step_trace_ref (steps) : NULL;
  self->y_max_ns = 0;
  self->has_phases = FALSE;
  self->hover = -1;
  memset (&self->average, 0, sizeof self->average);

  g_array_set_size (self->phase_averages, 0);

  n = steps ? sl_step_trace_get_n_steps (steps) : 0;
  for (guint i = 0; i < n; i++)
    {
      self->y_max_ns = MAX (self->y_max_ns, step_height_ns (self, i));
      for (guint p = 0; p < n_phases (self); p++)
        self->has_phases |= phase_ns (self, i, p) > 0;
    }
  if (n > 0)
    {
      sl_step_trace_compute_average (steps, &self->average);
      for (guint p = 0; p < n_phases (self); p++)
        {
          gint64 average = sl_step_trace_get_phase_average (steps, p);

          average = average == SL_STEP_NO_TIME ? 0 : MAX (0, average);
          g_array_append_val (self->phase_averages, average);
        }
    }
  self->y_max_ns = (gint64)(self->y_max_ns * 1.08);

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_step_trace_chart_set_time_unit (SlStepTraceChart *self,
                                   SlTimeUnit        unit)
{
  g_return_if_fail (SL_IS_STEP_TRACE_CHART (self));

  self->unit = unit;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
