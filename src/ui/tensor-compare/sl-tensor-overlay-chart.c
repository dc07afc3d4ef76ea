/* sl-tensor-overlay-chart.c
 *
 * Both sides are drawn as translucent step areas with an outline, the
 * benchmark over the NPU side, so where they agree the colours mix and
 * where they part each shows alone. The colours are the scalar charts'
 * first two run colours, which read on light and dark backgrounds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-chart-axis.h"
#include "sl-scalar-chart-renderer.h"
#include "sl-tensor-overlay-chart.h"
#include "sl-widget-style.h"
#include "sl-tooltip.h"

#define MARGIN_RIGHT 14
#define MARGIN_TOP 28
#define MARGIN_BOTTOM 24
#define FONT_SIZE 11

struct _SlTensorOverlayChart
{
  GtkWidget              parent_instance;

  SlTensorPairHistogram  histogram;
  gboolean               has_data;
};

G_DEFINE_FINAL_TYPE (SlTensorOverlayChart, sl_tensor_overlay_chart, GTK_TYPE_WIDGET)

typedef struct {
  double left, top, width, height;
} Plot;

static void
side_color (SlTensorSide side,
            double      *rgb)
{
  sl_scalar_chart_renderer_get_palette_color (side == SL_TENSOR_SIDE_NPU ? 0 : 1, rgb);
}

static const char *
side_label (SlTensorSide side)
{
  /* Translators: the two sides of a tensor comparison, in a chart legend */
  return side == SL_TENSOR_SIDE_NPU ? _("NPU") : _("Benchmark");
}

static double
left_margin (SlTensorOverlayChart *self,
             cairo_t              *cr)
{
  g_autofree char *widest = sl_chart_format_value ((double)self->histogram.max_count);
  cairo_text_extents_t extents;

  cairo_set_font_size (cr, FONT_SIZE);
  cairo_text_extents (cr, widest, &extents);
  return ceil (extents.x_advance) + 12;
}

static void
plot_geometry (SlTensorOverlayChart *self,
               cairo_t              *cr,
               int                   width,
               int                   height,
               Plot                 *plot)
{
  plot->left = left_margin (self, cr);
  plot->top = MARGIN_TOP;
  plot->width = MAX (1, width - plot->left - MARGIN_RIGHT);
  plot->height = MAX (1, height - MARGIN_TOP - MARGIN_BOTTOM);
}

static double
count_to_y (SlTensorOverlayChart *self,
            const Plot           *plot,
            double                count)
{
  double top = MAX (1.0, (double)self->histogram.max_count);

  return plot->top + plot->height - count / top * plot->height;
}

static void
draw_axes (SlTensorOverlayChart *self,
           cairo_t              *cr,
           const Plot           *plot,
           const GdkRGBA        *fg)
{
  g_autoptr(GArray) x_ticks = sl_chart_ticks_linear (self->histogram.lo, self->histogram.hi,
                                                     MAX (2, (guint)(plot->width / 90)));
  g_autoptr(GArray) y_ticks = sl_chart_ticks_linear (0, MAX (1.0, (double)self->histogram.max_count),
                                                     MAX (2, (guint)(plot->height / 36)));
  double span = self->histogram.hi - self->histogram.lo;

  cairo_set_font_size (cr, FONT_SIZE);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < x_ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (x_ticks, SlChartTick, i);
      double px = plot->left + (tick->value - self->histogram.lo) / span * plot->width;
      cairo_text_extents_t extents;

      if (px < plot->left - 0.5 || px > plot->left + plot->width + 0.5)
        continue;
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.12);
      cairo_move_to (cr, round (px) + 0.5, plot->top);
      cairo_line_to (cr, round (px) + 0.5, plot->top + plot->height);
      cairo_stroke (cr);
      cairo_text_extents (cr, tick->label, &extents);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      cairo_move_to (cr, CLAMP (px - extents.width / 2, 0, plot->left + plot->width - extents.width),
                     plot->top + plot->height + 16);
      cairo_show_text (cr, tick->label);
    }
  for (guint i = 0; i < y_ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (y_ticks, SlChartTick, i);
      double py = count_to_y (self, plot, tick->value);
      cairo_text_extents_t extents;

      if (py < plot->top - 0.5)
        continue;
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.12);
      cairo_move_to (cr, plot->left, round (py) + 0.5);
      cairo_line_to (cr, plot->left + plot->width, round (py) + 0.5);
      cairo_stroke (cr);
      cairo_text_extents (cr, tick->label, &extents);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      cairo_move_to (cr, plot->left - extents.x_advance - 6, py + extents.height / 2);
      cairo_show_text (cr, tick->label);
    }
}

/* The outline of one side's bins as a closed step path. */
static void
trace_side (SlTensorOverlayChart *self,
            cairo_t              *cr,
            const Plot           *plot,
            SlTensorSide          side)
{
  const guint64 *counts = self->histogram.counts[side];
  double bin_width = plot->width / self->histogram.n_bins;
  double base = plot->top + plot->height;

  cairo_move_to (cr, plot->left, base);
  for (guint i = 0; i < self->histogram.n_bins; i++)
    {
      double y = count_to_y (self, plot, (double)counts[i]);

      cairo_line_to (cr, plot->left + i * bin_width, y);
      cairo_line_to (cr, plot->left + (i + 1) * bin_width, y);
    }
  cairo_line_to (cr, plot->left + plot->width, base);
}

static void
fill_side (SlTensorOverlayChart *self,
           cairo_t              *cr,
           const Plot           *plot,
           SlTensorSide          side)
{
  double rgb[3];

  side_color (side, rgb);
  trace_side (self, cr, plot, side);
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.30);
  cairo_fill (cr);
}

/* The NPU outline goes last and dashed, so it stays visible where both
 * sides agree and the benchmark's would hide it. */
static void
outline_side (SlTensorOverlayChart *self,
              cairo_t              *cr,
              const Plot           *plot,
              SlTensorSide          side)
{
  static const double dash[] = { 4, 3 };
  double rgb[3];

  side_color (side, rgb);
  trace_side (self, cr, plot, side);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, dash, side == SL_TENSOR_SIDE_NPU ? G_N_ELEMENTS (dash) : 0, 0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
draw_legend (SlTensorOverlayChart *self,
             cairo_t              *cr,
             const Plot           *plot,
             const GdkRGBA        *fg)
{
  double x = plot->left;

  cairo_set_font_size (cr, FONT_SIZE);
  for (guint side = 0; side < 2; side++)
    {
      g_autofree char *text = NULL;
      cairo_text_extents_t extents;
      double rgb[3];

      if (self->histogram.n_non_finite[side] > 0)
        {
          g_autofree char *count = sl_count_format (self->histogram.n_non_finite[side]);

          /* Translators: a chart legend entry: the side, and how many of
           * its values are NaN or infinite (not drawn) */
          text = g_strdup_printf (_("%s (%s not finite)"), side_label (side), count);
        }
      else
        text = g_strdup (side_label (side));

      side_color (side, rgb);
      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.45);
      cairo_rectangle (cr, x, 9, 12, 12);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.85);
      cairo_move_to (cr, x + 18, 19);
      cairo_show_text (cr, text);
      cairo_text_extents (cr, text, &extents);
      x += 18 + extents.x_advance + 20;
    }
}

/**
 * sl_tensor_overlay_chart_draw:
 *
 * Draws the chart as on screen; tests and exports draw without a window.
 */
void
sl_tensor_overlay_chart_draw (SlTensorOverlayChart *self,
                              cairo_t              *cr,
                              int                   width,
                              int                   height)
{
  GdkRGBA fg;
  Plot plot;

  g_return_if_fail (SL_IS_TENSOR_OVERLAY_CHART (self));

  sl_widget_get_foreground (GTK_WIDGET (self), &fg);
  if (!self->has_data)
    return;

  plot_geometry (self, cr, width, height, &plot);
  draw_axes (self, cr, &plot, &fg);
  fill_side (self, cr, &plot, SL_TENSOR_SIDE_NPU);
  fill_side (self, cr, &plot, SL_TENSOR_SIDE_BENCH);
  outline_side (self, cr, &plot, SL_TENSOR_SIDE_BENCH);
  outline_side (self, cr, &plot, SL_TENSOR_SIDE_NPU);
  draw_legend (self, cr, &plot, &fg);
}

static void
sl_tensor_overlay_chart_snapshot (GtkWidget   *widget,
                                  GtkSnapshot *snapshot)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 40 || height <= MARGIN_TOP + MARGIN_BOTTOM)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  sl_tensor_overlay_chart_draw (SL_TENSOR_OVERLAY_CHART (widget), cr, width, height);
  cairo_destroy (cr);
}

/**
 * sl_tensor_overlay_chart_describe_at:
 *
 * Returns: (transfer full) (nullable): the bin under (@x, @y): its range
 *   and both sides' counts
 */
char *
sl_tensor_overlay_chart_describe_at (SlTensorOverlayChart *self,
                                     double                x,
                                     double                y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autofree char *lo = NULL;
  g_autofree char *hi = NULL;
  g_autofree char *npu = NULL;
  g_autofree char *bench = NULL;
  double bin_width;
  gint64 bin;
  Plot plot;

  g_return_val_if_fail (SL_IS_TENSOR_OVERLAY_CHART (self), NULL);

  if (!self->has_data)
    return NULL;
  /* The margins depend on text widths, measured as when drawing. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  plot_geometry (self, cr, width, height, &plot);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  if (x < plot.left || x >= plot.left + plot.width || y < plot.top || y > plot.top + plot.height)
    return NULL;
  bin = (gint64)((x - plot.left) / plot.width * self->histogram.n_bins);
  bin = CLAMP (bin, 0, (gint64)self->histogram.n_bins - 1);
  bin_width = (self->histogram.hi - self->histogram.lo) / self->histogram.n_bins;
  lo = sl_chart_format_value (self->histogram.lo + bin * bin_width);
  hi = sl_chart_format_value (self->histogram.lo + (bin + 1) * bin_width);
  npu = sl_count_format (self->histogram.counts[SL_TENSOR_SIDE_NPU][bin]);
  bench = sl_count_format (self->histogram.counts[SL_TENSOR_SIDE_BENCH][bin]);
  /* Translators: a histogram bin: its value range, then how many NPU and
   * benchmark values fell in it */
  return g_strdup_printf (_("[%s, %s)\nNPU: %s\nBenchmark: %s"), lo, hi, npu, bench);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  g_autofree char *text = sl_tensor_overlay_chart_describe_at (SL_TENSOR_OVERLAY_CHART (widget), x, y);

  if (text == NULL)
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
clear_histogram (SlTensorOverlayChart *self)
{
  g_clear_pointer (&self->histogram.counts[0], g_free);
  g_clear_pointer (&self->histogram.counts[1], g_free);
  self->has_data = FALSE;
}

static void
sl_tensor_overlay_chart_finalize (GObject *object)
{
  clear_histogram (SL_TENSOR_OVERLAY_CHART (object));
  G_OBJECT_CLASS (sl_tensor_overlay_chart_parent_class)->finalize (object);
}

static void
sl_tensor_overlay_chart_class_init (SlTensorOverlayChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = sl_tensor_overlay_chart_finalize;
  widget_class->snapshot = sl_tensor_overlay_chart_snapshot;
  gtk_widget_class_set_css_name (widget_class, "sl-tensor-overlay-chart");
}

static void
sl_tensor_overlay_chart_init (SlTensorOverlayChart *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 240, 160);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

GtkWidget *
sl_tensor_overlay_chart_new (void)
{
  return g_object_new (SL_TYPE_TENSOR_OVERLAY_CHART, NULL);
}

void
sl_tensor_overlay_chart_set_histogram (SlTensorOverlayChart        *self,
                                       const SlTensorPairHistogram *histogram)
{
  g_return_if_fail (SL_IS_TENSOR_OVERLAY_CHART (self));

  clear_histogram (self);
  if (histogram != NULL && histogram->n_bins > 0)
    {
      self->histogram = *histogram;
      for (guint side = 0; side < 2; side++)
        self->histogram.counts[side] = g_memdup2 (histogram->counts[side], histogram->n_bins * sizeof (guint64));
      self->has_data = TRUE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
sl_tensor_overlay_chart_has_data (SlTensorOverlayChart *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_OVERLAY_CHART (self), FALSE);
  return self->has_data;
}
