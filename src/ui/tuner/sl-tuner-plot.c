/* sl-tuner-plot.c
 *
 * Drawn with cairo in snapshot: a few hundred points at most, redrawn
 * only when a trial ends, so nothing is cached.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <adwaita.h>

#include "sl-tuner-plot.h"
#include "sl-widget-style.h"

#define MARGIN_LEFT   62
#define MARGIN_RIGHT  10
#define MARGIN_TOP    22
#define MARGIN_BOTTOM 20

struct _SlTunerPlot
{
  GtkWidget  parent_instance;

  char      *title;
  GArray    *points;   /* x, y pairs */
  GArray    *line;
  GArray    *band;     /* x, mean, stddev triples */
  gboolean   log_x;
};

G_DEFINE_FINAL_TYPE (SlTunerPlot, sl_tuner_plot, GTK_TYPE_WIDGET)

static void
sl_tuner_plot_finalize (GObject *object)
{
  SlTunerPlot *self = SL_TUNER_PLOT (object);

  g_free (self->title);
  g_array_unref (self->points);
  g_array_unref (self->line);
  g_array_unref (self->band);

  G_OBJECT_CLASS (sl_tuner_plot_parent_class)->finalize (object);
}

static double
map_x (SlTunerPlot *self,
       double       x)
{
  return self->log_x && x > 0 ? log10 (x) : x;
}

static void
extend (double *low,
        double *high,
        double  value)
{
  if (!isfinite (value))
    return;
  *low = MIN (*low, value);
  *high = MAX (*high, value);
}

static void
data_range (SlTunerPlot *self,
            double      *x0,
            double      *x1,
            double      *y0,
            double      *y1)
{
  *x0 = *y0 = INFINITY;
  *x1 = *y1 = -INFINITY;
  for (guint i = 0; i + 1 < self->points->len; i += 2)
    {
      extend (x0, x1, map_x (self, g_array_index (self->points, double, i)));
      extend (y0, y1, g_array_index (self->points, double, i + 1));
    }
  for (guint i = 0; i + 1 < self->line->len; i += 2)
    {
      extend (x0, x1, map_x (self, g_array_index (self->line, double, i)));
      extend (y0, y1, g_array_index (self->line, double, i + 1));
    }
  for (guint i = 0; i + 2 < self->band->len; i += 3)
    {
      double mean = g_array_index (self->band, double, i + 1), sd = g_array_index (self->band, double, i + 2);

      extend (x0, x1, map_x (self, g_array_index (self->band, double, i)));
      extend (y0, y1, mean - 2 * sd);
      extend (y0, y1, mean + 2 * sd);
    }
  if (!(*x1 > *x0))
    {
      *x0 = isfinite (*x0) ? *x0 - 1 : 0;
      *x1 = *x0 + 2;
    }
  if (!(*y1 > *y0))
    {
      *y0 = isfinite (*y0) ? *y0 - 1 : 0;
      *y1 = *y0 + 2;
    }
  else
    {
      double pad = 0.06 * (*y1 - *y0);

      *y0 -= pad;
      *y1 += pad;
    }
}

static void
draw_text (cairo_t    *cr,
           GtkWidget  *widget,
           const char *text,
           double      x,
           double      y,
           double      align)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int width, height;

  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, x - align * width, y - height / 2.0);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
sl_tuner_plot_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  SlTunerPlot *self = SL_TUNER_PLOT (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double w = width - MARGIN_LEFT - MARGIN_RIGHT, h = height - MARGIN_TOP - MARGIN_BOTTOM;
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  double x0, x1, y0, y1;
  GdkRGBA fg;
  char label[64];
  cairo_t *cr;

  if (w < 10 || h < 10)
    return;
  sl_widget_get_foreground (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  data_range (self, &x0, &x1, &y0, &y1);

#define PX(v) (MARGIN_LEFT + ((map_x (self, (v)) - x0) / (x1 - x0)) * w)
#define PY(v) (MARGIN_TOP + (1 - ((v) - y0) / (y1 - y0)) * h)

  /* Frame, title and the range of y. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.25);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, MARGIN_LEFT + 0.5, MARGIN_TOP + 0.5, w, h);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.85);
  draw_text (cr, widget, self->title, MARGIN_LEFT, MARGIN_TOP / 2.0, 0);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
  g_snprintf (label, sizeof label, "%.3g", y1);
  draw_text (cr, widget, label, MARGIN_LEFT - 4, MARGIN_TOP + 6, 1);
  g_snprintf (label, sizeof label, "%.3g", y0);
  draw_text (cr, widget, label, MARGIN_LEFT - 4, MARGIN_TOP + h - 6, 1);
  g_snprintf (label, sizeof label, "%.4g", self->log_x ? pow (10, x0) : x0);
  draw_text (cr, widget, label, MARGIN_LEFT, height - MARGIN_BOTTOM / 2.0, 0);
  g_snprintf (label, sizeof label, "%.4g", self->log_x ? pow (10, x1) : x1);
  draw_text (cr, widget, label, MARGIN_LEFT + w, height - MARGIN_BOTTOM / 2.0, 1);

  /* The band and its mean. */
  if (self->band->len >= 6)
    {
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, dark ? 0.30 : 0.22);
      for (guint i = 0; i + 2 < self->band->len; i += 3)
        {
          double x = PX (g_array_index (self->band, double, i));
          double y = PY (g_array_index (self->band, double, i + 1) + 2 * g_array_index (self->band, double, i + 2));

          i == 0 ? cairo_move_to (cr, x, y) : cairo_line_to (cr, x, y);
        }
      for (guint i = self->band->len; i >= 3; i -= 3)
        cairo_line_to (cr, PX (g_array_index (self->band, double, i - 3)),
                       PY (g_array_index (self->band, double, i - 2) - 2 * g_array_index (self->band, double, i - 1)));
      cairo_close_path (cr);
      cairo_fill (cr);

      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 1);
      cairo_set_line_width (cr, 1.5);
      for (guint i = 0; i + 2 < self->band->len; i += 3)
        {
          double x = PX (g_array_index (self->band, double, i)), y = PY (g_array_index (self->band, double, i + 1));

          i == 0 ? cairo_move_to (cr, x, y) : cairo_line_to (cr, x, y);
        }
      cairo_stroke (cr);
    }

  if (self->line->len >= 4)
    {
      cairo_set_source_rgba (cr, dark ? 0.56 : 0.15, dark ? 0.86 : 0.64, dark ? 0.53 : 0.41, 1);
      cairo_set_line_width (cr, 2);
      for (guint i = 0; i + 1 < self->line->len; i += 2)
        {
          double x = PX (g_array_index (self->line, double, i)), y = PY (g_array_index (self->line, double, i + 1));

          if (i == 0)
            cairo_move_to (cr, x, y);
          else
            {
              /* A staircase: the best stays until a better trial. */
              double previous_y = PY (g_array_index (self->line, double, i - 1));

              cairo_line_to (cr, x, previous_y);
              cairo_line_to (cr, x, y);
            }
        }
      cairo_stroke (cr);
    }

  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.8);
  for (guint i = 0; i + 1 < self->points->len; i += 2)
    {
      double y = g_array_index (self->points, double, i + 1);

      if (!isfinite (y))
        continue;
      cairo_arc (cr, PX (g_array_index (self->points, double, i)), PY (y), 3, 0, 2 * G_PI);
      cairo_fill (cr);
    }
#undef PX
#undef PY
  cairo_destroy (cr);
}

static void
sl_tuner_plot_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 220 : 150;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 320 : 170;
}

static void
sl_tuner_plot_class_init (SlTunerPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = sl_tuner_plot_finalize;
  widget_class->snapshot = sl_tuner_plot_snapshot;
  widget_class->measure = sl_tuner_plot_measure;
}

static void
sl_tuner_plot_init (SlTunerPlot *self)
{
  self->points = g_array_new (FALSE, FALSE, sizeof (double));
  self->line = g_array_new (FALSE, FALSE, sizeof (double));
  self->band = g_array_new (FALSE, FALSE, sizeof (double));
}

GtkWidget *
sl_tuner_plot_new (const char *title)
{
  SlTunerPlot *self = g_object_new (SL_TYPE_TUNER_PLOT, NULL);

  self->title = g_strdup (title);
  return GTK_WIDGET (self);
}

static void
set_pairs (GArray       *array,
           const double *x,
           const double *y,
           guint         n)
{
  g_array_set_size (array, 0);
  for (guint i = 0; i < n; i++)
    {
      g_array_append_val (array, x[i]);
      g_array_append_val (array, y[i]);
    }
}

void
sl_tuner_plot_set_points (SlTunerPlot  *self,
                          const double *x,
                          const double *y,
                          guint         n)
{
  g_return_if_fail (SL_IS_TUNER_PLOT (self));
  set_pairs (self->points, x, y, n);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_tuner_plot_set_line (SlTunerPlot  *self,
                        const double *x,
                        const double *y,
                        guint         n)
{
  g_return_if_fail (SL_IS_TUNER_PLOT (self));
  set_pairs (self->line, x, y, n);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_tuner_plot_set_band (SlTunerPlot  *self,
                        const double *x,
                        const double *mean,
                        const double *stddev,
                        guint         n)
{
  g_return_if_fail (SL_IS_TUNER_PLOT (self));

  g_array_set_size (self->band, 0);
  for (guint i = 0; i < n; i++)
    {
      g_array_append_val (self->band, x[i]);
      g_array_append_val (self->band, mean[i]);
      g_array_append_val (self->band, stddev[i]);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_tuner_plot_set_log_x (SlTunerPlot *self,
                         gboolean     log_x)
{
  g_return_if_fail (SL_IS_TUNER_PLOT (self));
  self->log_x = log_x;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
sl_tuner_plot_get_n_points (SlTunerPlot *self)
{
  g_return_val_if_fail (SL_IS_TUNER_PLOT (self), 0);
  return self->points->len / 2;
}
