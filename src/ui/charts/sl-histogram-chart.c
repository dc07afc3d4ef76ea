/* sl-histogram-chart.c
 *
 * Shows at most MAX_DRAWN steps, evenly chosen and always the last one:
 * more ridges than that only blur into each other. The choice, the x range
 * and the scale are computed once per series, not per frame.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-widget-style.h"
#include "sl-chart-axis.h"
#include "sl-histogram-chart.h"
#include "sl-scalar-chart-renderer.h"
#include "sl-tooltip.h"

#define MAX_DRAWN 40
#define MARGIN_LEFT 12
#define MARGIN_RIGHT 76  /* step labels, then the step axis's name along the edge */
#define MARGIN_TOP 12
#define MARGIN_BOTTOM 28
#define STEP_LABEL_GAP 14  /* a step label's line, at 11 px text */
#define RIDGE_FRACTION 0.35  /* a ridge's height, as a share of the plot */

struct _SlHistogramChart
{
  GtkWidget          parent_instance;

  SlHistogramSeries *series;
  guint              palette_index;
  SlHistogramMode    mode;
  guint              step_index;
  guint              n_prepared; /* steps of the series at the last prepare () */

  GArray            *drawn;      /* guint: series indices drawn, oldest first */
  double             x_min;
  double             x_max;
  double             max_density;
};

G_DEFINE_FINAL_TYPE (SlHistogramChart, sl_histogram_chart, GTK_TYPE_WIDGET)

static double
density (double count,
         double width)
{
  return width > 0 ? count / width : 0;
}

/* Picks the steps to draw and the ranges every frame uses. */
static void
prepare (SlHistogramChart *self)
{
  guint n = sl_histogram_series_get_n_points (self->series);
  guint last_added = G_MAXUINT;

  self->n_prepared = n;
  g_array_set_size (self->drawn, 0);
  self->x_min = INFINITY;
  self->x_max = -INFINITY;
  self->max_density = 0;

  for (guint k = 0; k < MIN (n, MAX_DRAWN); k++)
    {
      guint index = n <= MAX_DRAWN ? k : (guint)((guint64)k * (n - 1) / (MAX_DRAWN - 1));

      if (index != last_added)
        g_array_append_val (self->drawn, index);
      last_added = index;
    }

  for (guint i = 0; i < self->drawn->len; i++)
    {
      const double *lefts, *widths, *counts;
      guint n_buckets = sl_histogram_series_get_buckets (self->series, g_array_index (self->drawn, guint, i),
                                                         &lefts, &widths, &counts);

      for (guint b = 0; b < n_buckets; b++)
        {
          if (!isfinite (lefts[b]) || !isfinite (widths[b]))
            continue;
          self->x_min = MIN (self->x_min, lefts[b]);
          self->x_max = MAX (self->x_max, lefts[b] + widths[b]);
          self->max_density = MAX (self->max_density, density (counts[b], widths[b]));
        }
    }

  if (!(self->x_max > self->x_min))
    {
      self->x_min = isfinite (self->x_min) ? self->x_min - 0.5 : 0;
      self->x_max = self->x_min + 1;
    }
  if (!(self->max_density > 0))
    self->max_density = 1;
}

static double
x_to_px (SlHistogramChart *self,
         double            x,
         int               width)
{
  return MARGIN_LEFT + (x - self->x_min) / (self->x_max - self->x_min) * (width - MARGIN_LEFT - MARGIN_RIGHT);
}

/* Where the baseline of drawn ridge @k is, and how tall a ridge may be. */
static void
ridge_geometry (SlHistogramChart *self,
                guint             k,
                int               height,
                double           *baseline,
                double           *ridge_height)
{
  double plot = height - MARGIN_TOP - MARGIN_BOTTOM;
  guint n = self->drawn->len;

  if (self->mode == SL_HISTOGRAM_OVERLAY || n <= 1)
    {
      *baseline = height - MARGIN_BOTTOM;
      *ridge_height = plot;
      return;
    }

  *ridge_height = plot * RIDGE_FRACTION;
  *baseline = MARGIN_TOP + *ridge_height + (plot - *ridge_height) * k / (double)(n - 1);
}

static void
draw_ridge (SlHistogramChart *self,
            cairo_t          *cr,
            guint             index,
            double            baseline,
            double            ridge_height,
            int               width,
            double            alpha,
            gboolean          fill)
{
  const double *lefts, *widths, *counts;
  guint n_buckets = sl_histogram_series_get_buckets (self->series, index, &lefts, &widths, &counts);
  gboolean started = FALSE;
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  double color[3];

  for (guint b = 0; b < n_buckets; b++)
    {
      double x0, x1, y;

      if (!isfinite (lefts[b]) || !isfinite (widths[b]))
        continue;

      x0 = x_to_px (self, lefts[b], width);
      x1 = x_to_px (self, lefts[b] + widths[b], width);
      y = baseline - density (counts[b], widths[b]) / self->max_density * ridge_height;

      if (!started)
        {
          cairo_move_to (cr, x0, baseline);
          started = TRUE;
        }
      cairo_line_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
    }

  if (!started)
    return;

  {
    double cx, cy;

    cairo_get_current_point (cr, &cx, &cy);
    cairo_line_to (cr, cx, baseline);
  }

  /* The run's colour in the style shown, as its legend swatch. */
  sl_scalar_chart_renderer_get_theme_palette_color (self->palette_index, dark, color);
  if (fill)
    {
      /* Opaque first, in the card's colour: a ridge hides the older ones
       * behind it, which is what makes a ridgeline readable. */
      if (dark)
        cairo_set_source_rgb (cr, 0x30 / 255., 0x30 / 255., 0x30 / 255.);
      else
        cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, color[0], color[1], color[2], alpha * 0.35);
      cairo_fill_preserve (cr);
    }
  cairo_set_source_rgba (cr, color[0], color[1], color[2], alpha);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
}

/* The ridges' axis: its name and unit read upwards along the right edge,
 * beside the step numbers; the short name when the plot is too low. */
static void
draw_step_axis_name (cairo_t       *cr,
                     const GdkRGBA *fg,
                     int            width,
                     int            height)
{
  /* Translators: the name and unit of a histogram's step axis. */
  const char *name = _("Step (training iterations)");
  double plot_height = height - MARGIN_TOP - MARGIN_BOTTOM;
  cairo_text_extents_t extents;

  cairo_text_extents (cr, name, &extents);
  if (extents.x_advance > plot_height)
    {
      /* Translators: a histogram's step axis, short. */
      name = _("Step");
      cairo_text_extents (cr, name, &extents);
      if (extents.x_advance > plot_height)
        return;
    }

  cairo_save (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  cairo_move_to (cr, width - 4, MARGIN_TOP + (plot_height + extents.x_advance) / 2);
  cairo_rotate (cr, -G_PI / 2);
  cairo_show_text (cr, name);
  cairo_restore (cr);
}

/* Whether drawn ridge @k's step is labelled: the first, the last and about
 * six between, each at least a line of text from the last label and from
 * the one before it, so no two labels overlap. */
static gboolean
step_label_shown (SlHistogramChart *self,
                  guint             k,
                  int               height)
{
  guint n = self->drawn->len;
  guint every = MAX (1, n / 6);
  double previous = -G_MAXDOUBLE, last, baseline, ridge_height;

  if (n == 0 || k >= n)
    return FALSE;
  if (k == 0 || k == n - 1)
    return TRUE;
  if (k % every != 0)
    return FALSE;
  ridge_geometry (self, n - 1, height, &last, &ridge_height);
  ridge_geometry (self, k, height, &baseline, &ridge_height);
  if (last - baseline < STEP_LABEL_GAP)
    return FALSE;
  /* The labelled ridge before this one. */
  for (guint j = k; j-- > 0;)
    if (j == 0 || j % every == 0)
      {
        if (step_label_shown (self, j, height))
          {
            ridge_geometry (self, j, height, &previous, &ridge_height);
            break;
          }
      }
  return baseline - previous >= STEP_LABEL_GAP;
}

/**
 * sl_histogram_chart_get_step_labels:
 * @baselines: (out) (optional): where each label's baseline is
 *
 * Returns: (transfer full): the steps labelled along the right edge, from
 *   the top, when the chart is drawn @height pixels high
 */
GStrv
sl_histogram_chart_get_step_labels (SlHistogramChart *self,
                                    int               height,
                                    GArray          **baselines)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const gint64 *steps = sl_histogram_series_get_steps (self->series);

  if (baselines != NULL)
    *baselines = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint k = 0; self->mode == SL_HISTOGRAM_OFFSET && k < self->drawn->len; k++)
    if (step_label_shown (self, k, height))
      {
        g_autofree char *label = g_strdup_printf ("%lld", (long long)steps[g_array_index (self->drawn, guint, k)]);
        double baseline, ridge_height;

        ridge_geometry (self, k, height, &baseline, &ridge_height);
        g_strv_builder_add (builder, label);
        if (baselines != NULL)
          g_array_append_val (*baselines, baseline);
      }
  return g_strv_builder_end (builder);
}

/**
 * sl_histogram_chart_draw:
 *
 * Draws into @cr; the widget, tests and exports share it.
 */
void
sl_histogram_chart_draw (SlHistogramChart *self,
                         cairo_t          *cr,
                         int               width,
                         int               height)
{
  g_autoptr(GArray) ticks = NULL;
  const gint64 *steps;
  GdkRGBA fg;
  guint n;

  g_return_if_fail (SL_IS_HISTOGRAM_CHART (self));

  sl_widget_get_foreground (GTK_WIDGET (self), &fg);
  n = self->drawn->len;
  steps = sl_histogram_series_get_steps (self->series);

  /* x axis */
  ticks = sl_chart_ticks_linear (self->x_min, self->x_max, MAX (2, width / 90));
  cairo_set_font_size (cr, 11);
  for (guint i = 0; i < ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (ticks, SlChartTick, i);
      double px = x_to_px (self, tick->value, width);
      cairo_text_extents_t extents;

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.12);
      cairo_move_to (cr, px + 0.5, MARGIN_TOP);
      cairo_line_to (cr, px + 0.5, height - MARGIN_BOTTOM);
      cairo_stroke (cr);

      cairo_text_extents (cr, tick->label, &extents);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      cairo_move_to (cr, px - extents.width / 2, height - MARGIN_BOTTOM + 16);
      cairo_show_text (cr, tick->label);
    }

  for (guint k = 0; k < n; k++)
    {
      guint index = g_array_index (self->drawn, guint, k);
      double baseline, ridge_height;
      gboolean chosen = self->mode == SL_HISTOGRAM_OVERLAY && index == self->step_index;

      ridge_geometry (self, k, height, &baseline, &ridge_height);

      if (self->mode == SL_HISTOGRAM_OFFSET)
        {
          /* Older steps fainter and behind, the newest in front. */
          draw_ridge (self, cr, index, baseline, ridge_height, width, 0.35 + 0.65 * (k + 1) / n, TRUE);
          if (step_label_shown (self, k, height))
            {
              g_autofree char *label = g_strdup_printf ("%lld", (long long)steps[index]);

              cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
              cairo_move_to (cr, width - MARGIN_RIGHT + 6, baseline);
              cairo_show_text (cr, label);
            }
        }
      else if (!chosen)
        {
          draw_ridge (self, cr, index, baseline, ridge_height, width, 0.18, FALSE);
        }
    }

  if (self->mode == SL_HISTOGRAM_OFFSET && n > 0)
    draw_step_axis_name (cr, &fg, width, height);

  if (self->mode == SL_HISTOGRAM_OVERLAY && self->step_index < sl_histogram_series_get_n_points (self->series))
    {
      g_autofree char *label = g_strdup_printf (_("step %lld"), (long long)steps[self->step_index]);

      draw_ridge (self, cr, self->step_index, height - MARGIN_BOTTOM, height - MARGIN_TOP - MARGIN_BOTTOM,
                  width, 1.0, TRUE);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
      cairo_move_to (cr, width - MARGIN_RIGHT + 6, MARGIN_TOP + 12);
      cairo_show_text (cr, label);
    }
}

static void
sl_histogram_chart_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  SlHistogramChart *self = SL_HISTOGRAM_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= MARGIN_LEFT + MARGIN_RIGHT || height <= MARGIN_TOP + MARGIN_BOTTOM)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  sl_histogram_chart_draw (self, cr, width, height);
  cairo_destroy (cr);
}

/**
 * sl_histogram_chart_describe_at:
 *
 * Returns: (transfer full) (nullable): the step and the bucket under
 *   (@x, @y): its range and count
 */
char *
sl_histogram_chart_describe_at (SlHistogramChart *self,
                                double            x,
                                double            y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  const double *lefts, *widths, *counts;
  guint index = G_MAXUINT, n_buckets;
  double value;

  g_return_val_if_fail (SL_IS_HISTOGRAM_CHART (self), NULL);

  if (self->drawn->len == 0 || width <= MARGIN_LEFT + MARGIN_RIGHT)
    return NULL;

  if (self->mode == SL_HISTOGRAM_OVERLAY)
    index = self->step_index;
  else
    {
      double best = INFINITY;

      /* The ridge whose baseline is nearest below the pointer. */
      for (guint k = 0; k < self->drawn->len; k++)
        {
          double baseline, ridge_height;

          ridge_geometry (self, k, height, &baseline, &ridge_height);
          if (baseline >= y && baseline - y < best)
            {
              best = baseline - y;
              index = g_array_index (self->drawn, guint, k);
            }
        }
    }

  if (index >= sl_histogram_series_get_n_points (self->series))
    return NULL;

  value = self->x_min + (x - MARGIN_LEFT) / (width - MARGIN_LEFT - MARGIN_RIGHT) * (self->x_max - self->x_min);
  n_buckets = sl_histogram_series_get_buckets (self->series, index, &lefts, &widths, &counts);
  for (guint b = 0; b < n_buckets; b++)
    {
      if (value >= lefts[b] && value <= lefts[b] + widths[b])
        {
          g_autofree char *left = sl_chart_format_value (lefts[b]);
          g_autofree char *right = sl_chart_format_value (lefts[b] + widths[b]);
          g_autofree char *count = sl_chart_format_value (counts[b]);

          /* Translators: a histogram bucket: the step, its value range and how many values fell in it. */
          return g_strdup_printf (_("step %lld\n[%s, %s): %s"), (long long)sl_histogram_series_get_steps (self->series)[index],
                                  left, right, count);
        }
    }

  return NULL;
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  g_autofree char *text = sl_histogram_chart_describe_at (SL_HISTOGRAM_CHART (widget), x, y);

  if (text == NULL)
    return FALSE;

  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
sl_histogram_chart_dispose (GObject *object)
{
  SlHistogramChart *self = (SlHistogramChart *)object;

  g_clear_object (&self->series);
  g_clear_pointer (&self->drawn, g_array_unref);

  G_OBJECT_CLASS (sl_histogram_chart_parent_class)->dispose (object);
}

static void
sl_histogram_chart_class_init (SlHistogramChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_histogram_chart_dispose;
  widget_class->snapshot = sl_histogram_chart_snapshot;
}

static void
sl_histogram_chart_init (SlHistogramChart *self)
{
  self->drawn = g_array_new (FALSE, FALSE, sizeof (guint));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

/**
 * sl_histogram_chart_new:
 * @palette_index: the run's colour, as in the scalar charts
 */
GtkWidget *
sl_histogram_chart_new (SlHistogramSeries *series,
                        guint              palette_index)
{
  SlHistogramChart *self;

  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (series), NULL);

  self = g_object_new (SL_TYPE_HISTOGRAM_CHART, NULL);
  self->series = g_object_ref (series);
  self->palette_index = palette_index;
  self->step_index = sl_histogram_series_get_n_points (series) ? sl_histogram_series_get_n_points (series) - 1 : 0;
  prepare (self);

  return GTK_WIDGET (self);
}

void
sl_histogram_chart_set_mode (SlHistogramChart *self,
                             SlHistogramMode   mode)
{
  g_return_if_fail (SL_IS_HISTOGRAM_CHART (self));

  self->mode = mode;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_histogram_chart_set_step_index (SlHistogramChart *self,
                                   guint             index)
{
  g_return_if_fail (SL_IS_HISTOGRAM_CHART (self));

  self->step_index = MIN (index, MAX (1, sl_histogram_series_get_n_points (self->series)) - 1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
sl_histogram_chart_get_n_drawn (SlHistogramChart *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_CHART (self), 0);
  return self->drawn->len;
}

/**
 * sl_histogram_chart_refresh:
 *
 * Takes in the steps the series gained since the chart was made (training
 * is still writing). The step shown follows the newest one if it was the
 * newest before.
 *
 * Returns: whether there were new steps
 */
gboolean
sl_histogram_chart_refresh (SlHistogramChart *self)
{
  guint n;
  gboolean was_newest;

  g_return_val_if_fail (SL_IS_HISTOGRAM_CHART (self), FALSE);

  n = sl_histogram_series_get_n_points (self->series);
  if (n == self->n_prepared)
    return FALSE;

  was_newest = self->step_index + 1 >= self->n_prepared;
  prepare (self);
  if (was_newest && n > 0)
    self->step_index = n - 1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

guint
sl_histogram_chart_get_step_index (SlHistogramChart *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_CHART (self), 0);
  return self->step_index;
}

guint
sl_histogram_chart_get_n_steps (SlHistogramChart *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_CHART (self), 0);
  return self->n_prepared;
}
