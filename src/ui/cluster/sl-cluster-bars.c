/* sl-cluster-bars.c
 *
 * Bars share the width; with hundreds of ranks a bar is a pixel or two
 * wide and only every n-th rank is labelled. The colours are the ones
 * the step trace chart gives computing, communication and free time,
 * readable on light and dark backgrounds alike. Clicking a bar emits
 * "bar-activated".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-chart-axis.h"
#include "sl-cluster-bars.h"
#include "sl-widget-style.h"
#include "sl-tooltip.h"

#define LEFT      76
#define LEGEND_Y  8
#define LEGEND_ROW 18
#define BOTTOM    22
#define RIGHT     12
#define LABEL_GAP 12

static const char *const colors[SL_CLUSTER_BARS_MAX_SERIES] = { "#3584e4", "#e66100", "#9a9996", "#2ec27e" };

struct _SlClusterBars
{
  GtkWidget  parent_instance;
  guint      n_bars;
  guint      n_series;
  double    *values;
  GStrv      series;
  GStrv      labels;
  gint       highlight;
};

G_DEFINE_FINAL_TYPE (SlClusterBars, sl_cluster_bars, GTK_TYPE_WIDGET)

enum {
  BAR_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static double
value_at (SlClusterBars *self,
          guint          bar,
          guint          series)
{
  double value = self->values[bar * self->n_series + series];

  return isfinite (value) && value > 0 ? value : 0;
}

static double
stack_height (SlClusterBars *self,
              guint          bar)
{
  double sum = 0;

  for (guint s = 0; s < self->n_series; s++)
    sum += value_at (self, bar, s);
  return sum;
}

static double
max_stack (SlClusterBars *self)
{
  double max = 0;

  for (guint b = 0; b < self->n_bars; b++)
    max = MAX (max, stack_height (self, b));
  return max;
}

static double
bar_width (SlClusterBars *self)
{
  double plot = gtk_widget_get_width (GTK_WIDGET (self)) - LEFT - RIGHT;

  return self->n_bars > 0 ? MAX (plot, 1) / self->n_bars : 0;
}

/* Legend entries run from the plot's left edge; one that would pass the
 * right edge starts a new row, and one too wide for a row of its own is
 * ellipsized, so no entry is cut at the widget's end. Calls @func with
 * each entry's place and text width; returns where the plot starts. */
typedef void (*LegendFunc) (SlClusterBars *self, guint series, double x, double y, int text_width,
                            gpointer data);

static double
layout_legend (SlClusterBars *self,
               PangoLayout   *layout,
               LegendFunc     func,
               gpointer       data)
{
  double right = gtk_widget_get_width (GTK_WIDGET (self)) - RIGHT;
  double x = LEFT, y = LEGEND_Y;

  for (guint s = 0; s < self->n_series; s++)
    {
      int tw, th;

      pango_layout_set_text (layout, self->series[s], -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      if (x > LEFT && x + 14 + tw > right)
        {
          x = LEFT;
          y += LEGEND_ROW;
        }
      tw = (int) MIN (tw, MAX (right - x - 14, 1));
      func (self, s, x, y, tw, data);
      x += 14 + tw + 16;
    }
  return y + LEGEND_ROW + 2;
}

typedef struct {
  cairo_t       *cr;
  PangoLayout   *layout;
  const GdkRGBA *fg;
} DrawLegend;

static void
draw_legend_entry (SlClusterBars *self,
                   guint          series,
                   double         x,
                   double         y,
                   int            text_width,
                   gpointer       data)
{
  DrawLegend *draw = data;
  GdkRGBA color;
  int tw, th;

  gdk_rgba_parse (&color, colors[series]);
  gdk_cairo_set_source_rgba (draw->cr, &color);
  cairo_rectangle (draw->cr, x, y, 10, 10);
  cairo_fill (draw->cr);
  pango_layout_set_text (draw->layout, self->series[series], -1);
  pango_layout_set_width (draw->layout, text_width * PANGO_SCALE);
  pango_layout_set_ellipsize (draw->layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (draw->layout, &tw, &th);
  cairo_set_source_rgba (draw->cr, draw->fg->red, draw->fg->green, draw->fg->blue, 0.85);
  cairo_move_to (draw->cr, x + 14, y + 5 - th / 2.0);
  pango_cairo_show_layout (draw->cr, draw->layout);
  pango_layout_set_width (draw->layout, -1);
  pango_layout_set_ellipsize (draw->layout, PANGO_ELLIPSIZE_NONE);
}

static double
draw_legend (SlClusterBars *self,
             cairo_t       *cr,
             PangoLayout   *layout,
             const GdkRGBA *fg)
{
  DrawLegend draw = { cr, layout, fg };

  return layout_legend (self, layout, draw_legend_entry, &draw);
}

static void
ignore_legend_entry (SlClusterBars *self,
                     guint          series,
                     double         x,
                     double         y,
                     int            text_width,
                     gpointer       data)
{
}

/* Where the plot starts: below the legend's last row. */
static double
plot_top (SlClusterBars *self)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);

  return layout_legend (self, layout, ignore_legend_entry, NULL);
}

static void
draw_axis (SlClusterBars *self,
           cairo_t       *cr,
           PangoLayout   *layout,
           const GdkRGBA *fg,
           double         plot_top,
           double         top,
           double         step,
           double         plot_height)
{
  guint n_steps = (guint) MIN (round (top / step), 20);

  for (guint i = 0; i <= n_steps; i++)
    {
      /* Translators: an axis label, a duration in milliseconds */
      g_autofree char *text = g_strdup_printf (_("%.4g ms"), step * i);
      double y = plot_top + plot_height * (1 - (double) i / n_steps);
      int tw, th;

      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.12);
      cairo_move_to (cr, LEFT, y + 0.5);
      cairo_line_to (cr, gtk_widget_get_width (GTK_WIDGET (self)) - RIGHT, y + 0.5);
      cairo_stroke (cr);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      cairo_move_to (cr, LEFT - 6 - tw, y - th / 2.0);
      pango_cairo_show_layout (cr, layout);
    }
}

/* Where the label of bar @b starts: under its bar, but never past the
 * widget's ends, so the first and the last rank's names are whole. */
static double
label_x (SlClusterBars *self,
         guint          b,
         double         width,
         int            text_width)
{
  double x = LEFT + (b + 0.5) * width - text_width / 2.0;

  return CLAMP (x, 0, MAX (gtk_widget_get_width (GTK_WIDGET (self)) - text_width, 0));
}

/* Every n-th label, n such that the widest one fits between them; a
 * label pushed in from the end that would touch the one before is left
 * out. Calls @func with each label drawn and its extent. */
typedef void (*LabelFunc) (SlClusterBars *self, guint bar, double x, int text_width, gpointer data);

static void
layout_bar_labels (SlClusterBars *self,
                   PangoLayout   *layout,
                   double         width,
                   LabelFunc      func,
                   gpointer       data)
{
  int widest = 0;
  guint every;
  double end = -G_MAXDOUBLE;

  for (guint b = 0; b < self->n_bars; b++)
    {
      int tw, th;

      pango_layout_set_text (layout, self->labels[b], -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      widest = MAX (widest, tw);
    }
  every = (guint)MAX (1, ceil ((widest + LABEL_GAP) / MAX (width, 0.1)));

  for (guint b = 0; b < self->n_bars; b += every)
    {
      int tw, th;
      double x;

      pango_layout_set_text (layout, self->labels[b], -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      x = label_x (self, b, width, tw);
      if (x < end + LABEL_GAP / 2.0)
        continue;
      func (self, b, x, tw, data);
      end = x + tw;
    }
}

typedef struct {
  cairo_t     *cr;
  PangoLayout *layout;
  double       baseline;
} DrawLabel;

static void
draw_label (SlClusterBars *self,
            guint          bar,
            double         x,
            int            text_width,
            gpointer       data)
{
  DrawLabel *draw = data;

  pango_layout_set_text (draw->layout, self->labels[bar], -1);
  cairo_move_to (draw->cr, x, draw->baseline + 4);
  pango_cairo_show_layout (draw->cr, draw->layout);
}

static void
draw_bar_labels (SlClusterBars *self,
                 cairo_t       *cr,
                 PangoLayout   *layout,
                 const GdkRGBA *fg,
                 double         width,
                 double         baseline)
{
  DrawLabel draw = { cr, layout, baseline };

  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
  layout_bar_labels (self, layout, width, draw_label, &draw);
}

typedef struct {
  guint  bar;
  double x0;
  double x1;
} FindLabel;

static void
find_label (SlClusterBars *self,
            guint          bar,
            double         x,
            int            text_width,
            gpointer       data)
{
  FindLabel *found = data;

  if (bar == found->bar)
    {
      found->x0 = x;
      found->x1 = x + text_width;
    }
}

/**
 * sl_cluster_bars_get_label_extent:
 *
 * Returns: whether the label of @bar is drawn, and where it starts and
 *   ends (for tests)
 */
gboolean
sl_cluster_bars_get_label_extent (SlClusterBars *self,
                                  guint          bar,
                                  double        *x0,
                                  double        *x1)
{
  g_autoptr(PangoLayout) layout = NULL;
  FindLabel found = { bar, -1, -1 };

  g_return_val_if_fail (SL_IS_CLUSTER_BARS (self), FALSE);

  if (bar >= self->n_bars)
    return FALSE;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  layout_bar_labels (self, layout, bar_width (self), find_label, &found);
  *x0 = found.x0;
  *x1 = found.x1;
  return found.x1 >= 0;
}

static void
sl_cluster_bars_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  SlClusterBars *self = SL_CLUSTER_BARS (widget);
  double height = gtk_widget_get_height (widget);
  double top, plot_height;
  double width = bar_width (self), max = max_stack (self);
  /* The scale ends on a round tick (1, 2 or 5 times a power of ten), so
   * the axis reads 0, 0.5, 1, 1.5, 2 ms rather than the tallest bar's odd
   * value and its half. */
  double step = sl_chart_nice_step (max / 4);
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA fg;
  cairo_t *cr;

  if (self->n_bars == 0)
    return;

  layout = gtk_widget_create_pango_layout (widget, NULL);
  sl_widget_get_foreground (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget), height));
  cairo_set_line_width (cr, 1);
  top = draw_legend (self, cr, layout, &fg);
  plot_height = MAX (height - top - BOTTOM, 1);
  if (max > 0)
    max = ceil (max / step - 1e-9) * step;
  draw_axis (self, cr, layout, &fg, top, max > 0 ? max : step, step, plot_height);

  for (guint b = 0; b < self->n_bars && max > 0; b++)
    {
      double y = top + plot_height;
      double x = LEFT + b * width, w = MAX (width > 3 ? width - 1 : width, 1);

      for (guint s = 0; s < self->n_series; s++)
        {
          double h = plot_height * value_at (self, b, s) / max;
          GdkRGBA color;

          gdk_rgba_parse (&color, colors[s]);
          gdk_cairo_set_source_rgba (cr, &color);
          cairo_rectangle (cr, x, y - h, w, h);
          cairo_fill (cr);
          y -= h;
        }
      if ((gint)b == self->highlight)
        {
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.9);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, x - 1, y - 1, w + 2, top + plot_height - y + 2);
          cairo_stroke (cr);
          cairo_set_line_width (cr, 1);
        }
    }
  draw_bar_labels (self, cr, layout, &fg, width, top + plot_height);
  cairo_destroy (cr);
}

static gint
bar_at (SlClusterBars *self,
        double         x)
{
  double width = bar_width (self);
  double b = width > 0 ? (x - LEFT) / width : -1;

  return b >= 0 && b < self->n_bars ? (gint)b : -1;
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  SlClusterBars *self = SL_CLUSTER_BARS (widget);
  gint bar = bar_at (self, x);
  g_autofree char *text = NULL;

  if (bar < 0 || (text = sl_cluster_bars_describe_bar (self, (guint)bar)) == NULL)
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            SlClusterBars   *self)
{
  gint bar = bar_at (self, x);

  if (bar >= 0)
    g_signal_emit (self, signals[BAR_ACTIVATED], 0, (guint)bar);
}

static void
sl_cluster_bars_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? LEFT + RIGHT + 100 : LEGEND_Y + LEGEND_ROW + 2 + BOTTOM + 80;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 600 : 220;
}

static void
sl_cluster_bars_finalize (GObject *object)
{
  SlClusterBars *self = SL_CLUSTER_BARS (object);

  g_free (self->values);
  g_strfreev (self->series);
  g_strfreev (self->labels);
  G_OBJECT_CLASS (sl_cluster_bars_parent_class)->finalize (object);
}

static void
sl_cluster_bars_class_init (SlClusterBarsClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = sl_cluster_bars_finalize;
  widget_class->snapshot = sl_cluster_bars_snapshot;
  widget_class->measure = sl_cluster_bars_measure;
  gtk_widget_class_set_css_name (widget_class, "sl-cluster-bars");

  signals[BAR_ACTIVATED] = g_signal_new ("bar-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                         NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
sl_cluster_bars_init (SlClusterBars *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->highlight = -1;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "pointer");
}

GtkWidget *
sl_cluster_bars_new (void)
{
  return g_object_new (SL_TYPE_CLUSTER_BARS, NULL);
}

void
sl_cluster_bars_set_data (SlClusterBars     *self,
                          guint              n_bars,
                          guint              n_series,
                          const double      *values,
                          const char *const *series,
                          const char *const *labels)
{
  g_return_if_fail (SL_IS_CLUSTER_BARS (self));
  g_return_if_fail (n_series <= SL_CLUSTER_BARS_MAX_SERIES);
  g_return_if_fail (n_bars == 0 || (values != NULL && series != NULL && labels != NULL));

  g_clear_pointer (&self->values, g_free);
  g_clear_pointer (&self->series, g_strfreev);
  g_clear_pointer (&self->labels, g_strfreev);
  self->n_bars = n_bars;
  self->n_series = n_series;
  self->values = g_memdup2 (values, sizeof (double) * MAX (n_bars * n_series, 1));
  self->series = g_new0 (char *, n_series + 1);
  for (guint s = 0; s < n_series; s++)
    self->series[s] = g_strdup (series[s]);
  self->labels = g_new0 (char *, n_bars + 1);
  for (guint b = 0; b < n_bars; b++)
    self->labels[b] = g_strdup (labels[b]);
  self->highlight = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_cluster_bars_set_highlight (SlClusterBars *self,
                               gint           bar)
{
  g_return_if_fail (SL_IS_CLUSTER_BARS (self));

  self->highlight = bar;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
sl_cluster_bars_get_n_bars (SlClusterBars *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_BARS (self), 0);
  return self->n_bars;
}

char *
sl_cluster_bars_describe_bar (SlClusterBars *self,
                              guint          bar)
{
  GString *text;

  g_return_val_if_fail (SL_IS_CLUSTER_BARS (self), NULL);

  if (bar >= self->n_bars)
    return NULL;
  text = g_string_new (self->labels[bar]);
  for (guint s = 0; s < self->n_series; s++)
    {
      double value = self->values[bar * self->n_series + s];

      if (isfinite (value) && value >= 0)
        /* Translators: a part of a bar and its length, "computing: 80.31 ms" */
        g_string_append_printf (text, _("\n%s: %.6g ms"), self->series[s], value);
    }
  return g_string_free (text, FALSE);
}

gboolean
sl_cluster_bars_get_bar_center (SlClusterBars *self,
                                guint          bar,
                                double        *x,
                                double        *y)
{
  double top;

  g_return_val_if_fail (SL_IS_CLUSTER_BARS (self), FALSE);

  if (bar >= self->n_bars)
    return FALSE;
  top = plot_top (self);
  *x = LEFT + (bar + 0.5) * bar_width (self);
  *y = top + (gtk_widget_get_height (GTK_WIDGET (self)) - top - BOTTOM) / 2.0;
  return TRUE;
}

typedef struct {
  guint  series;
  double x0;
  double y0;
  double x1;
} FindLegend;

static void
find_legend_entry (SlClusterBars *self,
                   guint          series,
                   double         x,
                   double         y,
                   int            text_width,
                   gpointer       data)
{
  FindLegend *found = data;

  if (series == found->series)
    {
      found->x0 = x;
      found->y0 = y;
      found->x1 = x + 14 + text_width;
    }
}

/**
 * sl_cluster_bars_get_legend_extent:
 *
 * Returns: whether @series has a legend entry, where it starts and ends
 *   and the top of its row, and where the plot starts (for tests)
 */
gboolean
sl_cluster_bars_get_legend_extent (SlClusterBars *self,
                                   guint          series,
                                   double        *x0,
                                   double        *x1,
                                   double        *y,
                                   double        *plot_top_y)
{
  g_autoptr(PangoLayout) layout = NULL;
  FindLegend found = { series, -1, -1, -1 };

  g_return_val_if_fail (SL_IS_CLUSTER_BARS (self), FALSE);

  if (series >= self->n_series)
    return FALSE;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  *plot_top_y = layout_legend (self, layout, find_legend_entry, &found);
  *x0 = found.x0;
  *x1 = found.x1;
  *y = found.y0;
  return TRUE;
}
