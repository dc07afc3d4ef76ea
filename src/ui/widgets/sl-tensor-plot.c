/* sl-tensor-plot.c
 *
 * The heatmap draws the frame's precomputed colour image, one pixel per
 * cell, scaled up without smoothing; the histogram draws the frame's bins.
 * What is under the pointer is written above the plot.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-widget-style.h"
#include "sl-chart-axis.h"
#include "sl-tensor-plot.h"
#include "sl-tooltip.h"

#define MARGIN_TOP 26
#define MARGIN_BOTTOM 26
#define MARGIN_RIGHT 16
#define LEGEND_WIDTH 96
#define BAR_WIDTH 14
#define MAX_CELL_ASPECT 2.0

struct _SlTensorPlot
{
  GtkWidget         parent_instance;

  SlTensorPlotMode  mode;
  SlTensorFrame    *frame;
  cairo_surface_t  *image;
  guint             digits;
  double            hover_x;
  double            hover_y;
  gboolean          hovering;
};

G_DEFINE_FINAL_TYPE (SlTensorPlot, sl_tensor_plot, GTK_TYPE_WIDGET)

typedef struct {
  double x, y;        /* top left of the cells */
  double cell_w;
  double cell_h;
  double left;        /* room for the row labels */
} HeatmapGeometry;

static gboolean
has_cells (SlTensorPlot *self)
{
  return self->frame != NULL && self->frame->computed && sl_tensor_slice_get_n_elements (self->frame->slice) > 0;
}

static double
left_margin (SlTensorPlot *self,
             cairo_t      *cr)
{
  char text[32];
  cairo_text_extents_t extents;
  gint64 widest;

  if (self->mode == SL_TENSOR_PLOT_HISTOGRAM)
    widest = self->frame && self->frame->histogram ? (gint64)self->frame->histogram->max_count : 0;
  else
    widest = self->frame ? self->frame->slice->dims[MAX (self->frame->slice->row_axis, 0)] : 0;

  g_snprintf (text, sizeof text, "%lld", (long long)widest);
  cairo_set_font_size (cr, 11);
  cairo_text_extents (cr, text, &extents);
  return ceil (extents.x_advance) + 14;
}

/* Cells fill the room, but never more than MAX_CELL_ASPECT times taller
 * than wide or the reverse, so a 2 × 64 weight stays a strip; cells of a
 * few pixels are square, so a large matrix keeps its proportions. */
static void
heatmap_geometry (SlTensorPlot    *self,
                  double           left,
                  int              width,
                  int              height,
                  HeatmapGeometry *geometry)
{
  const SlTensorSlice *slice = self->frame->slice;
  double area_w = MAX (width - left - LEGEND_WIDTH - MARGIN_RIGHT, 1);
  double area_h = MAX (height - MARGIN_TOP - MARGIN_BOTTOM, 1);
  double cw = area_w / MAX (slice->n_cols, 1);
  double ch = area_h / MAX (slice->n_rows, 1);

  if (cw < 4 && ch < 4)
    cw = ch = MIN (cw, ch);
  ch = MIN (ch, cw * MAX_CELL_ASPECT);
  cw = MIN (cw, ch * MAX_CELL_ASPECT);

  geometry->left = left;
  geometry->cell_w = cw;
  geometry->cell_h = ch;
  geometry->x = left;
  geometry->y = MARGIN_TOP;
}

static gboolean
heatmap_cell_at (SlTensorPlot *self,
                 double        x,
                 double        y,
                 gint64       *row,
                 gint64       *col)
{
  cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create (scratch);
  HeatmapGeometry g;

  heatmap_geometry (self, left_margin (self, cr), gtk_widget_get_width (GTK_WIDGET (self)),
                    gtk_widget_get_height (GTK_WIDGET (self)), &g);
  cairo_destroy (cr);
  cairo_surface_destroy (scratch);

  if (x < g.x || y < g.y)
    return FALSE;
  *col = (gint64)((x - g.x) / g.cell_w);
  *row = (gint64)((y - g.y) / g.cell_h);
  return *row < self->frame->slice->n_rows && *col < self->frame->slice->n_cols;
}

/* Integer label spacing of 1, 2 or 5 × 10ⁿ cells, at least @min_px apart. */
static gint64
label_every (double cell_px,
             double min_px)
{
  gint64 every = 1;

  while (every * cell_px < min_px)
    {
      if (every * 2 * cell_px >= min_px)
        return every * 2;
      if (every * 5 * cell_px >= min_px)
        return every * 5;
      every *= 10;
    }
  return every;
}

static void
show_text_at (cairo_t    *cr,
              const char *text,
              double      x,
              double      y,
              double      align)   /* 0 left, 0.5 centre, 1 right */
{
  cairo_text_extents_t extents;

  cairo_text_extents (cr, text, &extents);
  cairo_move_to (cr, x - extents.x_advance * align, y);
  cairo_show_text (cr, text);
}

static void
draw_legend (SlTensorPlot  *self,
             cairo_t       *cr,
             double         x,
             double         top,
             double         bottom,
             const GdkRGBA *fg)
{
  SlTensorFrame *frame = self->frame;
  g_autoptr(GArray) ticks = NULL;
  const struct { SlTensorSpecial kind; guint64 count; const char *label; } specials[] = {
    { SL_TENSOR_SPECIAL_NAN, frame->view.n_nan, "NaN" },
    { SL_TENSOR_SPECIAL_POS_INF, frame->view.n_pos_inf, "+Inf" },
    { SL_TENSOR_SPECIAL_NEG_INF, frame->view.n_neg_inf, "−Inf" },
  };
  guint n_special = 0;
  double bar_bottom;
  const int steps = 128;

  for (guint i = 0; i < G_N_ELEMENTS (specials); i++)
    n_special += specials[i].count > 0;
  bar_bottom = bottom - n_special * 18;
  if (bar_bottom - top < 40)
    bar_bottom = bottom;

  /* The bar, highest value on top */
  for (int i = 0; i < steps; i++)
    {
      double rgb[3];
      double y0 = bar_bottom - (bar_bottom - top) * (i + 1) / steps;

      sl_tensor_palette_color (frame->palette, (i + 0.5) / steps, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, x, floor (y0), BAR_WIDTH, ceil ((bar_bottom - top) / steps) + 1);
      cairo_fill (cr);
    }
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.3);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, x + 0.5, top + 0.5, BAR_WIDTH - 1, bar_bottom - top - 1);
  cairo_stroke (cr);

  ticks = sl_chart_ticks_linear (frame->color_lo, frame->color_hi, MAX (2, (guint)((bar_bottom - top) / 36)));
  cairo_set_font_size (cr, 11);
  for (guint i = 0; i < ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (ticks, SlChartTick, i);
      double y = bar_bottom - (tick->value - frame->color_lo) / (frame->color_hi - frame->color_lo) * (bar_bottom - top);

      if (y < top - 0.5 || y > bar_bottom + 0.5)
        continue;
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      cairo_move_to (cr, x + BAR_WIDTH, round (y) + 0.5);
      cairo_line_to (cr, x + BAR_WIDTH + 4, round (y) + 0.5);
      cairo_stroke (cr);
      show_text_at (cr, tick->label, x + BAR_WIDTH + 7, y + 4, 0);
    }

  /* NaN and infinities have colours of their own: say which. */
  if (bar_bottom < bottom)
    {
      double y = bar_bottom + 6;

      for (guint i = 0; i < G_N_ELEMENTS (specials); i++)
        {
          double rgb[3];

          if (specials[i].count == 0)
            continue;
          sl_tensor_special_color (specials[i].kind, rgb);
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
          cairo_rectangle (cr, x, y, BAR_WIDTH, 12);
          cairo_fill (cr);
          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.8);
          show_text_at (cr, specials[i].label, x + BAR_WIDTH + 7, y + 10, 0);
          y += 18;
        }
    }
}

static void
ensure_image (SlTensorPlot *self)
{
  if (self->image != NULL || self->frame == NULL || self->frame->image == NULL)
    return;

  self->image = cairo_image_surface_create_for_data ((unsigned char *)self->frame->image, CAIRO_FORMAT_RGB24,
                                                     self->frame->image_width, self->frame->image_height,
                                                     self->frame->image_width * 4);
}

static void
draw_cell_values (SlTensorPlot          *self,
                  cairo_t               *cr,
                  const HeatmapGeometry *g)
{
  SlTensorFrame *frame = self->frame;
  cairo_text_extents_t extents;
  char text[64];

  /* Only when every value fits in its cell. */
  sl_tensor_format_value (text, sizeof text, -8.88888888888888888, frame->dtype, MIN (self->digits, 4));
  cairo_set_font_size (cr, 10);
  cairo_text_extents (cr, text, &extents);
  if (g->cell_w < extents.x_advance + 6 || g->cell_h < 14 || frame->image_width != frame->slice->n_cols ||
      frame->image_height != frame->slice->n_rows)
    return;

  for (gint64 r = 0; r < frame->slice->n_rows; r++)
    for (gint64 c = 0; c < frame->slice->n_cols; c++)
      {
        guint32 color = frame->image[r * frame->image_width + c];
        double luminance = 0.2126 * ((color >> 16) & 0xff) + 0.7152 * ((color >> 8) & 0xff) + 0.0722 * (color & 0xff);

        sl_tensor_format_value (text, sizeof text, sl_tensor_frame_get_cell (frame, r, c), frame->dtype, MIN (self->digits, 4));
        if (luminance > 140)
          cairo_set_source_rgba (cr, 0, 0, 0, 0.85);
        else
          cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
        show_text_at (cr, text, g->x + (c + 0.5) * g->cell_w, g->y + (r + 0.5) * g->cell_h + 4, 0.5);
      }
}

static void
draw_heatmap (SlTensorPlot  *self,
              cairo_t       *cr,
              int            width,
              int            height,
              const GdkRGBA *fg)
{
  SlTensorFrame *frame = self->frame;
  const SlTensorSlice *slice = frame->slice;
  HeatmapGeometry g;
  cairo_pattern_t *pattern;
  double grid_w, grid_h;
  gint64 every;
  char text[32];

  heatmap_geometry (self, left_margin (self, cr), width, height, &g);
  grid_w = g.cell_w * slice->n_cols;
  grid_h = g.cell_h * slice->n_rows;

  ensure_image (self);
  cairo_save (cr);
  cairo_translate (cr, g.x, g.y);
  cairo_scale (cr, grid_w / frame->image_width, grid_h / frame->image_height);
  cairo_set_source_surface (cr, self->image, 0, 0);
  pattern = cairo_get_source (cr);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, 0, 0, frame->image_width, frame->image_height);
  cairo_fill (cr);
  cairo_restore (cr);

  draw_cell_values (self, cr, &g);

  /* Row labels on the left, column labels below: tensor positions. */
  cairo_set_font_size (cr, 11);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  every = label_every (g.cell_h, 16);
  for (gint64 r = 0; r < slice->n_rows && slice->row_axis >= 0; r += every)
    {
      g_snprintf (text, sizeof text, "%lld", (long long)sl_tensor_slice_row_position (slice, r));
      show_text_at (cr, text, g.x - 6, g.y + (r + 0.5) * g.cell_h + 4, 1);
    }
  every = label_every (g.cell_w, 44);
  for (gint64 c = 0; c < slice->n_cols && slice->col_axis >= 0; c += every)
    {
      g_snprintf (text, sizeof text, "%lld", (long long)sl_tensor_slice_col_position (slice, c));
      show_text_at (cr, text, g.x + (c + 0.5) * g.cell_w, g.y + grid_h + 16, 0.5);
    }

  if (self->hovering)
    {
      gint64 row, col;

      if (heatmap_cell_at (self, self->hover_x, self->hover_y, &row, &col))
        {
          cairo_set_line_width (cr, 2);
          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.9);
          cairo_rectangle (cr, g.x + col * g.cell_w, g.y + row * g.cell_h, MAX (g.cell_w, 2), MAX (g.cell_h, 2));
          cairo_stroke (cr);
        }
    }

  draw_legend (self, cr, g.x + grid_w + 16, g.y, MIN (g.y + MAX (grid_h, 120), height - MARGIN_BOTTOM), fg);
}

static double
histogram_x (SlTensorHistogram *h,
             double             value,
             double             left,
             double             right)
{
  return left + (value - h->lo) / (h->hi - h->lo) * (right - left);
}

static gint
histogram_bin_at (SlTensorPlot *self,
                  double        x,
                  double        left,
                  double        right)
{
  SlTensorHistogram *h = self->frame->histogram;
  gint bin;

  if (h->n_bins == 0 || x < left || x > right)
    return -1;
  bin = (gint)((x - left) / (right - left) * h->n_bins);
  return CLAMP (bin, 0, (gint)h->n_bins - 1);
}

static void
draw_histogram (SlTensorPlot  *self,
                cairo_t       *cr,
                int            width,
                int            height,
                const GdkRGBA *fg)
{
  SlTensorHistogram *h = self->frame->histogram;
  double left = left_margin (self, cr);
  double right = width - MARGIN_RIGHT;
  double top = MARGIN_TOP, bottom = height - MARGIN_BOTTOM;
  g_autoptr(GArray) x_ticks = NULL;
  g_autoptr(GArray) y_ticks = NULL;
  gint hover = self->hovering ? histogram_bin_at (self, self->hover_x, left, right) : -1;

  if (h == NULL || h->n_bins == 0 || right <= left || bottom <= top)
    {
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.6);
      cairo_set_font_size (cr, 13);
      show_text_at (cr, _("No finite values to count"), width / 2.0, height / 2.0, 0.5);
      return;
    }

  cairo_set_font_size (cr, 11);
  cairo_set_line_width (cr, 1);

  y_ticks = sl_chart_ticks_linear (0, h->max_count, MAX (2, (guint)((bottom - top) / 40)));
  for (guint i = 0; i < y_ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (y_ticks, SlChartTick, i);
      double y = round (bottom - tick->value / h->max_count * (bottom - top)) + 0.5;

      if (y < top - 0.5 || tick->value != floor (tick->value))
        continue;
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.1);
      cairo_move_to (cr, left, y);
      cairo_line_to (cr, right, y);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      show_text_at (cr, tick->label, left - 6, y + 4, 1);
    }

  for (guint b = 0; b < h->n_bins; b++)
    {
      double x0 = histogram_x (h, h->lo + b * sl_tensor_histogram_get_bin_width (h), left, right);
      double x1 = histogram_x (h, h->lo + (b + 1) * sl_tensor_histogram_get_bin_width (h), left, right);
      double y = bottom - (double)h->counts[b] / h->max_count * (bottom - top);

      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, (gint)b == hover ? 1.0 : 0.7);
      cairo_rectangle (cr, x0 + (x1 - x0 > 3 ? 0.5 : 0), y, MAX (x1 - x0 - (x1 - x0 > 3 ? 1 : 0), 1), bottom - y);
      cairo_fill (cr);
    }

  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.5);
  cairo_move_to (cr, left, round (bottom) + 0.5);
  cairo_line_to (cr, right, round (bottom) + 0.5);
  cairo_stroke (cr);

  x_ticks = sl_chart_ticks_linear (h->lo, h->hi, MAX (2, (guint)((right - left) / 90)));
  for (guint i = 0; i < x_ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (x_ticks, SlChartTick, i);
      double x = round (histogram_x (h, tick->value, left, right)) + 0.5;

      if (x < left - 0.5 || x > right + 0.5)
        continue;
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.5);
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, bottom + 4);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      show_text_at (cr, tick->label, x, bottom + 16, 0.5);
    }
}

static void
draw_hover_text (SlTensorPlot  *self,
                 cairo_t       *cr,
                 const GdkRGBA *fg)
{
  g_autofree char *text = NULL;

  if (self->hovering)
    text = sl_tensor_plot_describe_at (self, self->hover_x, self->hover_y);
  if (text == NULL && self->mode == SL_TENSOR_PLOT_HEATMAP)
    text = g_strdup (self->frame->palette == SL_TENSOR_PALETTE_DIVERGING ? _("Both signs: white is 0")
                                                                         : _("Values of one sign: dark is low"));
  else if (text == NULL && self->frame->histogram != NULL && self->frame->histogram->n_bins > 0)
    {
      const SlTensorStats *view = &self->frame->view;
      guint64 left_out = view->n_nan + view->n_pos_inf + view->n_neg_inf;
      GString *str = g_string_new (NULL);
      g_autofree char *n_finite = sl_count_format (view->n_finite);
      g_autofree char *n_left_out = sl_count_format (left_out);

      g_string_append_printf (str, g_dngettext (GETTEXT_PACKAGE, "%s finite value in %u bins",
                                                "%s finite values in %u bins", view->n_finite),
                              n_finite, self->frame->histogram->n_bins);
      if (left_out > 0)
        {
          g_string_append (str, "; ");
          g_string_append_printf (str, g_dngettext (GETTEXT_PACKAGE, "%s NaN or infinite value left out",
                                                    "%s NaN or infinite values left out", left_out),
                                  n_left_out);
        }
      text = g_string_free (str, FALSE);
    }
  if (text == NULL)
    return;

  cairo_set_font_size (cr, 12);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, self->hovering ? 0.95 : 0.55);
  show_text_at (cr, text, 8, 17, 0);
}

static void
sl_tensor_plot_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  SlTensorPlot *self = SL_TENSOR_PLOT (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;
  GdkRGBA fg;

  if (self->frame == NULL || !self->frame->computed || width < 80 || height < 80)
    return;

  sl_widget_get_foreground (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!has_cells (self))
    {
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
      cairo_set_font_size (cr, 13);
      show_text_at (cr, _("The slice selects no values"), width / 2.0, height / 2.0, 0.5);
      cairo_destroy (cr);
      return;
    }

  if (self->mode == SL_TENSOR_PLOT_HEATMAP)
    draw_heatmap (self, cr, width, height, &fg);
  else
    draw_histogram (self, cr, width, height, &fg);
  draw_hover_text (self, cr, &fg);
  cairo_destroy (cr);
}

/**
 * sl_tensor_plot_describe_at:
 *
 * Returns: (transfer full) (nullable): the cell (index and value) or the
 *   bin (range and count) under (@x, @y)
 */
char *
sl_tensor_plot_describe_at (SlTensorPlot *self,
                            double        x,
                            double        y)
{
  char value[64];

  g_return_val_if_fail (SL_IS_TENSOR_PLOT (self), NULL);

  if (!has_cells (self))
    return NULL;

  if (self->mode == SL_TENSOR_PLOT_HEATMAP)
    {
      g_autofree char *index = NULL;
      gint64 row, col;

      if (!heatmap_cell_at (self, x, y, &row, &col))
        return NULL;
      index = sl_tensor_slice_format_index (self->frame->slice, row, col);
      sl_tensor_format_value (value, sizeof value, sl_tensor_frame_get_cell (self->frame, row, col),
                              self->frame->dtype, MAX (self->digits, 6));
      return g_strdup_printf ("%s = %s", index, value);
    }
  else
    {
      SlTensorHistogram *h = self->frame->histogram;
      cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_A8, 1, 1);
      cairo_t *cr = cairo_create (scratch);
      double left = left_margin (self, cr);
      gint bin = histogram_bin_at (self, x, left, gtk_widget_get_width (GTK_WIDGET (self)) - MARGIN_RIGHT);
      char lo[64], hi[64];
      g_autofree char *count = NULL;

      cairo_destroy (cr);
      cairo_surface_destroy (scratch);
      if (bin < 0)
        return NULL;

      sl_tensor_format_value (lo, sizeof lo, h->lo + bin * sl_tensor_histogram_get_bin_width (h), 12, self->digits);
      sl_tensor_format_value (hi, sizeof hi, h->lo + (bin + 1) * sl_tensor_histogram_get_bin_width (h), 12, self->digits);
      count = sl_count_format (h->counts[bin]);
      /* Translators: a histogram bin: its value range (the last one closed) and how many values it holds, then their share */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "[%s, %s%s: %s value (%.1f%%)", "[%s, %s%s: %s values (%.1f%%)",
                                           h->counts[bin]),
                              lo, hi, bin == (gint)h->n_bins - 1 ? "]" : ")", count,
                              100.0 * h->counts[bin] / MAX (self->frame->view.n_finite, 1));
    }
}

void
sl_tensor_plot_set_hover (SlTensorPlot *self,
                          double        x,
                          double        y)
{
  g_return_if_fail (SL_IS_TENSOR_PLOT (self));

  self->hover_x = x;
  self->hover_y = y;
  self->hovering = x >= 0 && y >= 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  g_autofree char *text = sl_tensor_plot_describe_at (SL_TENSOR_PLOT (widget), x, y);

  if (text == NULL)
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SlTensorPlot             *self)
{
  sl_tensor_plot_set_hover (self, x, y);
}

static void
leave_cb (GtkEventControllerMotion *controller,
          SlTensorPlot             *self)
{
  sl_tensor_plot_set_hover (self, -1, -1);
}

static void
sl_tensor_plot_dispose (GObject *object)
{
  SlTensorPlot *self = (SlTensorPlot *)object;

  g_clear_pointer (&self->image, cairo_surface_destroy);
  g_clear_pointer (&self->frame, sl_tensor_frame_unref);

  G_OBJECT_CLASS (sl_tensor_plot_parent_class)->dispose (object);
}

static void
sl_tensor_plot_class_init (SlTensorPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_tensor_plot_dispose;
  widget_class->snapshot = sl_tensor_plot_snapshot;
}

static void
sl_tensor_plot_init (SlTensorPlot *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->digits = 4;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
}

GtkWidget *
sl_tensor_plot_new (SlTensorPlotMode mode)
{
  SlTensorPlot *self = g_object_new (SL_TYPE_TENSOR_PLOT, NULL);

  self->mode = mode;
  return GTK_WIDGET (self);
}

void
sl_tensor_plot_set_mode (SlTensorPlot     *self,
                         SlTensorPlotMode  mode)
{
  g_return_if_fail (SL_IS_TENSOR_PLOT (self));

  self->mode = mode;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sl_tensor_plot_set_frame:
 * @frame: (nullable): a computed frame
 */
void
sl_tensor_plot_set_frame (SlTensorPlot  *self,
                          SlTensorFrame *frame)
{
  g_return_if_fail (SL_IS_TENSOR_PLOT (self));

  if (frame == self->frame)
    return;
  g_clear_pointer (&self->image, cairo_surface_destroy);
  g_clear_pointer (&self->frame, sl_tensor_frame_unref);
  self->frame = frame ? sl_tensor_frame_ref (frame) : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_tensor_plot_set_precision (SlTensorPlot *self,
                              guint         digits)
{
  g_return_if_fail (SL_IS_TENSOR_PLOT (self));

  self->digits = CLAMP (digits, 1, 17);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
