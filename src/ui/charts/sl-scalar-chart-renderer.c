/* sl-scalar-chart-renderer.c
 *
 * Dense views are drawn one stroke per pixel column (from the column's
 * first value through its min and max to its last), read from the level
 * of detail; only views with few points draw every point. Either way the
 * cost of a frame depends on the width, not on the length of the series.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gio/gio.h>
#include <pango/pangocairo.h>
#include <adwaita.h>

#include "sl-image-file.h"
#include "sl-scalar-chart-renderer.h"
#include "sl-series-lod.h"
#include "sl-series-smoother.h"

/* Okabe–Ito, ordered so neighbours differ for every colour vision. */
/* Run colours, the Okabe–Ito order, in a shade for each style that stands
 * out at least 3:1 from the chart's background (white; #303030 in dark). */
#define RGB(hex) { ((hex) >> 16) / 255., (((hex) >> 8) & 0xff) / 255., ((hex) & 0xff) / 255. }
static const double palettes[2][7][3] = {
  { RGB (0x0072B2), RGB (0xB27300), RGB (0x00845F), RGB (0xB8518A), RGB (0x3E92CC), RGB (0xC25400), RGB (0x857A00) },
  { RGB (0x5AA9E6), RGB (0xE69F00), RGB (0x12B886), RGB (0xDB8FBB), RGB (0x8FD0F5), RGB (0xF07A2A), RGB (0xF0E442) },
};
#undef RGB
#define palette (palettes[0])

/* Fewer points than this per pixel: draw every point. */
#define SPARSE_FACTOR 2

#define MARGIN_LEFT   72
#define MARGIN_RIGHT  20
#define MARGIN_TOP    36
#define MARGIN_BOTTOM 46

typedef struct {
  SlScalarChartRenderer *renderer;
  SlScalarSeries *series;
  gulong          changed_id;
  char           *name;
  double          color[3];
  guint           palette_index;
  gboolean        visible;
  GArray         *x;            /* double, for the current x mode */
  SlSeriesLod    *raw;
  SlSeriesLod    *smooth;       /* NULL without smoothing */
  SlSeriesSmoother smoother;
  double          robust[2];    /* outlier-free y range, cached */
  gboolean        robust_valid;
  guint           robust_n;     /* points when it was computed */
  /* The prepared frame */
  SlLodColumn    *raw_cols;
  SlLodColumn    *smooth_cols;
  guint           n_cols;
  guint           sparse_start;
  guint           sparse_end;
  gboolean        sparse;
  guint           hover_index;
  double          legend_box[4];
} Trace;

struct _SlScalarChartRenderer
{
  GObject          parent_instance;
  GPtrArray       *traces;
  SlChartXMode     x_mode;
  double           smoothing;
  gboolean         log_y;
  gboolean         ignore_outliers;
  SlChartThreshold threshold_mode;
  double           threshold;
  gboolean         dark;
  double           fg[3];
  PangoFontDescription *font;
  gboolean         x_fixed;
  gboolean         y_fixed;
  double           view[4];     /* x_min, x_max, y_min, y_max */
  double           hover_x;
  gboolean         has_selection;
  cairo_rectangle_t selection;
  /* The prepared frame */
  int              width;
  int              height;
  cairo_rectangle_t plot;
  GArray          *x_ticks;
  GArray          *y_ticks;
};

G_DEFINE_FINAL_TYPE (SlScalarChartRenderer, sl_scalar_chart_renderer, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
trace_free (gpointer data)
{
  Trace *t = data;

  g_clear_signal_handler (&t->changed_id, t->series);
  g_clear_object (&t->series);
  g_free (t->name);
  g_array_unref (t->x);
  sl_series_lod_free (t->raw);
  sl_series_lod_free (t->smooth);
  g_free (t->raw_cols);
  g_free (t->smooth_cols);
  g_free (t);
}

static Trace *
get_trace (SlScalarChartRenderer *self,
           guint                  index)
{
  g_return_val_if_fail (index < self->traces->len, NULL);
  return g_ptr_array_index (self->traces, index);
}

static void
sl_scalar_chart_renderer_finalize (GObject *object)
{
  SlScalarChartRenderer *self = (SlScalarChartRenderer *)object;

  g_clear_pointer (&self->traces, g_ptr_array_unref);
  g_clear_pointer (&self->font, pango_font_description_free);
  g_clear_pointer (&self->x_ticks, g_array_unref);
  g_clear_pointer (&self->y_ticks, g_array_unref);

  G_OBJECT_CLASS (sl_scalar_chart_renderer_parent_class)->finalize (object);
}

static void
sl_scalar_chart_renderer_class_init (SlScalarChartRendererClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_scalar_chart_renderer_finalize;

  /**
   * SlScalarChartRenderer::changed:
   *
   * A series grew or shrank: prepare a new frame.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sl_scalar_chart_renderer_init (SlScalarChartRenderer *self)
{
  self->traces = g_ptr_array_new_with_free_func (trace_free);
  self->hover_x = NAN;
  self->threshold = NAN;
  self->font = pango_font_description_from_string ("Sans 9");
}

SlScalarChartRenderer *
sl_scalar_chart_renderer_new (void)
{
  return g_object_new (SL_TYPE_SCALAR_CHART_RENDERER, NULL);
}

static double
point_x (SlScalarSeries *series,
         SlChartXMode    mode,
         guint           i)
{
  switch (mode)
    {
    case SL_CHART_X_RELATIVE:
      return sl_scalar_series_get_wall_times (series)[i] - sl_scalar_series_get_wall_times (series)[0];
    case SL_CHART_X_WALL:
      return sl_scalar_series_get_wall_times (series)[i];
    case SL_CHART_X_STEP:
    default:
      return (double)sl_scalar_series_get_steps (series)[i];
    }
}

/* Brings the copies up to the series from index @first on. */
static void
trace_sync (SlScalarChartRenderer *self,
            Trace                 *t,
            guint                  first)
{
  guint n = sl_scalar_series_get_n_points (t->series);
  const double *values = sl_scalar_series_get_values (t->series);
  guint old = sl_series_lod_get_n_points (t->raw);

  first = MIN (first, old);
  if (first == 0)
    g_array_set_size (t->x, 0);
  else
    g_array_set_size (t->x, first);
  for (guint i = t->x->len; i < n; i++)
    {
      double x = point_x (t->series, self->x_mode, i);

      g_array_append_val (t->x, x);
    }

  sl_series_lod_truncate (t->raw, first);
  sl_series_lod_append (t->raw, values + first, n - first);
  /* The outlier range sorts a sample: redo it only after a restart or
   * once the series grew by a hundredth, not for every live batch. */
  if (first < t->robust_n || n > t->robust_n + t->robust_n / 100)
    t->robust_valid = FALSE;

  if (self->smoothing > 0)
    {
      g_autofree double *smoothed = NULL;

      if (t->smooth == NULL || first < sl_series_lod_get_n_points (t->smooth))
        {
          /* A restart rewrote points: smooth again from the start. */
          g_clear_pointer (&t->smooth, sl_series_lod_free);
          t->smooth = sl_series_lod_new ();
          sl_series_smoother_init (&t->smoother, self->smoothing);
          first = 0;
        }
      else
        first = sl_series_lod_get_n_points (t->smooth);
      smoothed = g_new (double, n - first + 1);
      sl_series_smoother_feed (&t->smoother, values + first, n - first, smoothed);
      sl_series_lod_append (t->smooth, smoothed, n - first);
    }
}

static void
series_changed_cb (SlScalarSeries *series,
                   guint           first,
                   Trace          *t)
{
  trace_sync (t->renderer, t, first);
  g_signal_emit (t->renderer, signals[CHANGED], 0);
}

/**
 * sl_scalar_chart_renderer_add_series:
 * @name: shown in the legend, e.g. "run / tag"
 *
 * Adds a series, drawn in the next palette colour and kept up to date as
 * it grows.
 *
 * Returns: its index
 */
guint
sl_scalar_chart_renderer_add_series (SlScalarChartRenderer *self,
                                     SlScalarSeries        *series,
                                     const char            *name)
{
  Trace *t;

  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), 0);
  g_return_val_if_fail (SL_IS_SCALAR_SERIES (series), 0);

  t = g_new0 (Trace, 1);
  t->renderer = self;
  t->series = g_object_ref (series);
  t->name = g_strdup (name ? name : sl_scalar_series_get_tag (series));
  t->palette_index = self->traces->len;
  sl_scalar_chart_renderer_get_theme_palette_color (t->palette_index, self->dark, t->color);
  t->visible = TRUE;
  t->x = g_array_new (FALSE, FALSE, sizeof (double));
  t->raw = sl_series_lod_new ();
  t->hover_index = G_MAXUINT;
  t->changed_id = g_signal_connect (series, "changed", G_CALLBACK (series_changed_cb), t);
  g_ptr_array_add (self->traces, t);
  trace_sync (self, t, 0);

  return self->traces->len - 1;
}

void
sl_scalar_chart_renderer_clear (SlScalarChartRenderer *self)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  g_ptr_array_set_size (self->traces, 0);
}

guint
sl_scalar_chart_renderer_get_n_series (SlScalarChartRenderer *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), 0);
  return self->traces->len;
}

/**
 * sl_scalar_chart_renderer_get_series:
 *
 * Returns: (transfer none): the series at @index
 */
SlScalarSeries *
sl_scalar_chart_renderer_get_series (SlScalarChartRenderer *self,
                                     guint                  index)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), NULL);
  g_return_val_if_fail (index < self->traces->len, NULL);
  return get_trace (self, index)->series;
}

const char *
sl_scalar_chart_renderer_get_series_name (SlScalarChartRenderer *self,
                                          guint                  index)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), NULL);
  g_return_val_if_fail (index < self->traces->len, NULL);
  return get_trace (self, index)->name;
}

/**
 * sl_scalar_chart_renderer_set_series_palette_index:
 * @palette_index: which palette colour to draw @index in
 *
 * Several charts that show the same runs give each run the same colour,
 * even when a run lacks a tag in one of them.
 */
void
sl_scalar_chart_renderer_set_series_palette_index (SlScalarChartRenderer *self,
                                                   guint                  index,
                                                   guint                  palette_index)
{
  Trace *t;

  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  g_return_if_fail (index < self->traces->len);

  t = g_ptr_array_index (self->traces, index);
  t->palette_index = palette_index;
  sl_scalar_chart_renderer_get_theme_palette_color (palette_index, self->dark, t->color);
}

guint
sl_scalar_chart_renderer_get_palette_size (void)
{
  return G_N_ELEMENTS (palette);
}

/**
 * sl_scalar_chart_renderer_get_palette_color:
 * @rgb: (out caller-allocates) (array fixed-size=3): red, green, blue in 0–1
 *
 * The colour of run @index, for other charts of the same runs.
 */
void
sl_scalar_chart_renderer_get_palette_color (guint  index,
                                            double rgb[3])
{
  sl_scalar_chart_renderer_get_theme_palette_color (index, adw_style_manager_get_dark (adw_style_manager_get_default ()),
                                                    rgb);
}

/**
 * sl_scalar_chart_renderer_get_theme_palette_color:
 * @dark: the colour for the dark style
 * @rgb: (out caller-allocates) (array fixed-size=3): red, green, blue in 0–1
 *
 * The colour of run @index in one style: the legend's swatches and every
 * chart of the runs take it from here.
 */
void
sl_scalar_chart_renderer_get_theme_palette_color (guint    index,
                                                  gboolean dark,
                                                  double   rgb[3])
{
  memcpy (rgb, palettes[dark ? 1 : 0][index % G_N_ELEMENTS (palette)], sizeof palettes[0][0]);
}

void
sl_scalar_chart_renderer_set_series_visible (SlScalarChartRenderer *self,
                                             guint                  index,
                                             gboolean               visible)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  g_return_if_fail (index < self->traces->len);
  get_trace (self, index)->visible = !!visible;
}

gboolean
sl_scalar_chart_renderer_get_series_visible (SlScalarChartRenderer *self,
                                             guint                  index)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), FALSE);
  g_return_val_if_fail (index < self->traces->len, FALSE);
  return get_trace (self, index)->visible;
}

/**
 * sl_scalar_chart_renderer_set_x_mode:
 *
 * Steps, seconds since the first point, or wall-clock time. The view
 * returns to the whole x range.
 */
void
sl_scalar_chart_renderer_set_x_mode (SlScalarChartRenderer *self,
                                     SlChartXMode           mode)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  if (self->x_mode == mode)
    return;
  self->x_mode = mode;
  self->x_fixed = FALSE;
  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);
      guint n = sl_scalar_series_get_n_points (t->series);

      g_array_set_size (t->x, n);
      for (guint j = 0; j < n; j++)
        g_array_index (t->x, double, j) = point_x (t->series, mode, j);
    }
}

SlChartXMode
sl_scalar_chart_renderer_get_x_mode (SlScalarChartRenderer *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), SL_CHART_X_STEP);
  return self->x_mode;
}

/**
 * sl_scalar_chart_renderer_set_smoothing:
 * @weight: 0 to 0.999
 *
 * Smooths every series now. The widget instead smooths long series in a
 * worker and hands the result to
 * sl_scalar_chart_renderer_install_smoothed().
 */
void
sl_scalar_chart_renderer_set_smoothing (SlScalarChartRenderer *self,
                                        double                 weight)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  self->smoothing = CLAMP (weight, 0.0, 0.999);
  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);

      g_clear_pointer (&t->smooth, sl_series_lod_free);
      if (self->smoothing > 0)
        trace_sync (self, t, sl_scalar_series_get_n_points (t->series));
    }
}

double
sl_scalar_chart_renderer_get_smoothing (SlScalarChartRenderer *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), 0);
  return self->smoothing;
}

/**
 * sl_scalar_chart_renderer_install_smoothed:
 * @state: the smoother after the first @n values
 * @smoothed: (transfer none): those @n values smoothed
 *
 * Takes values smoothed elsewhere (in a worker). Points the series gained
 * since are smoothed here, continuing from @state.
 */
void
sl_scalar_chart_renderer_install_smoothed (SlScalarChartRenderer  *self,
                                           guint                   index,
                                           const SlSeriesSmoother *state,
                                           const double           *smoothed,
                                           guint                   n)
{
  Trace *t;

  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  g_return_if_fail (index < self->traces->len);
  g_return_if_fail (state != NULL);

  t = get_trace (self, index);
  if (n > sl_scalar_series_get_n_points (t->series))
    return;

  self->smoothing = state->weight;
  g_clear_pointer (&t->smooth, sl_series_lod_free);
  if (self->smoothing == 0)
    return;
  t->smooth = sl_series_lod_new ();
  t->smoother = *state;
  sl_series_lod_append (t->smooth, smoothed, n);
  trace_sync (self, t, sl_series_lod_get_n_points (t->raw));
}

void
sl_scalar_chart_renderer_set_log_y (SlScalarChartRenderer *self,
                                    gboolean               log_y)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  if (self->log_y == !!log_y)
    return;
  self->log_y = !!log_y;
  self->y_fixed = FALSE;
  for (guint i = 0; i < self->traces->len; i++)
    get_trace (self, i)->robust_valid = FALSE;
}

gboolean
sl_scalar_chart_renderer_get_log_y (SlScalarChartRenderer *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), FALSE);
  return self->log_y;
}

void
sl_scalar_chart_renderer_set_ignore_outliers (SlScalarChartRenderer *self,
                                              gboolean               ignore)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  self->ignore_outliers = !!ignore;
  self->y_fixed = FALSE;
}

gboolean
sl_scalar_chart_renderer_get_ignore_outliers (SlScalarChartRenderer *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), FALSE);
  return self->ignore_outliers;
}

/**
 * sl_scalar_chart_renderer_set_threshold:
 *
 * Highlights the (smoothed) points above or below @value.
 */
void
sl_scalar_chart_renderer_set_threshold (SlScalarChartRenderer *self,
                                        SlChartThreshold       mode,
                                        double                 value)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  self->threshold_mode = mode;
  self->threshold = value;
}

/**
 * sl_scalar_chart_renderer_set_dark:
 * @foreground: the text colour of the style, red, green and blue in 0–1
 */
void
sl_scalar_chart_renderer_set_dark (SlScalarChartRenderer *self,
                                   gboolean               dark,
                                   const double           foreground[3])
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  self->dark = !!dark;
  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = g_ptr_array_index (self->traces, i);

      sl_scalar_chart_renderer_get_theme_palette_color (t->palette_index, self->dark, t->color);
    }
  if (foreground != NULL)
    memcpy (self->fg, foreground, sizeof self->fg);
  else
    self->fg[0] = self->fg[1] = self->fg[2] = dark ? 1.0 : 0.0;
}

void
sl_scalar_chart_renderer_set_font (SlScalarChartRenderer      *self,
                                   const PangoFontDescription *font)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  g_return_if_fail (font != NULL);

  g_clear_pointer (&self->font, pango_font_description_free);
  self->font = pango_font_description_copy (font);
}

void
sl_scalar_chart_renderer_set_x_view (SlScalarChartRenderer *self,
                                     double                 x_min,
                                     double                 x_max)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  if (!(x_max > x_min) || !isfinite (x_min) || !isfinite (x_max))
    return;
  self->view[0] = x_min;
  self->view[1] = x_max;
  self->x_fixed = TRUE;
}

void
sl_scalar_chart_renderer_set_y_view (SlScalarChartRenderer *self,
                                     double                 y_min,
                                     double                 y_max)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  if (!(y_max > y_min) || !isfinite (y_min) || !isfinite (y_max) || (self->log_y && y_min <= 0))
    return;
  self->view[2] = y_min;
  self->view[3] = y_max;
  self->y_fixed = TRUE;
}

void
sl_scalar_chart_renderer_reset_view (SlScalarChartRenderer *self)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  self->x_fixed = self->y_fixed = FALSE;
}

/**
 * sl_scalar_chart_renderer_get_view:
 *
 * The ranges of the last prepared frame.
 */
void
sl_scalar_chart_renderer_get_view (SlScalarChartRenderer *self,
                                   double                *x_min,
                                   double                *x_max,
                                   double                *y_min,
                                   double                *y_max)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  if (x_min) *x_min = self->view[0];
  if (x_max) *x_max = self->view[1];
  if (y_min) *y_min = self->view[2];
  if (y_max) *y_max = self->view[3];
}

/**
 * sl_scalar_chart_renderer_get_data_extent:
 *
 * The x range of the visible series.
 */
void
sl_scalar_chart_renderer_get_data_extent (SlScalarChartRenderer *self,
                                          double                *x_min,
                                          double                *x_max)
{
  double lo = INFINITY, hi = -INFINITY;

  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);

      if (!t->visible || t->x->len == 0)
        continue;
      lo = MIN (lo, g_array_index (t->x, double, 0));
      hi = MAX (hi, g_array_index (t->x, double, t->x->len - 1));
    }
  if (!isfinite (lo))
    lo = 0, hi = 1;
  if (hi <= lo)
    hi = lo + 1;
  if (x_min) *x_min = lo;
  if (x_max) *x_max = hi;
}

static SlSeriesLod *
shown_lod (Trace *t)
{
  return t->smooth ? t->smooth : t->raw;
}

/* The y range when the person did not choose one: the extent of the
 * points in view, within the cached outlier-free range when asked. */
static void
auto_y_range (SlScalarChartRenderer *self,
              double                *y_min,
              double                *y_max)
{
  double lo = INFINITY, hi = -INFINITY;

  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);
      const double *x = (const double *)(gpointer)t->x->data;
      guint n = t->x->len;
      guint start, end;
      SlLodColumn col;

      if (!t->visible || n == 0)
        continue;
      start = sl_lod_lower_bound (x, n, self->view[0]);
      end = sl_lod_lower_bound (x, n, self->view[1]);
      start = start > 0 ? start - 1 : 0;
      end = MIN (end + 1, n);
      sl_series_lod_range (t->raw, start, end, self->log_y, &col);
      if (col.n == 0)
        continue;
      if (self->ignore_outliers)
        {
          if (!t->robust_valid)
            {
              t->robust_valid = sl_chart_robust_range (sl_series_lod_get_values (t->raw), n,
                                                       self->log_y, &t->robust[0], &t->robust[1]);
              t->robust_n = n;
            }
          if (t->robust_valid)
            {
              col.min = MAX (col.min, t->robust[0]);
              col.max = MIN (col.max, t->robust[1]);
            }
        }
      lo = MIN (lo, col.min);
      hi = MAX (hi, col.max);
    }

  if (!isfinite (lo) || !isfinite (hi))
    {
      lo = self->log_y ? 0.1 : 0;
      hi = self->log_y ? 10 : 1;
    }
  if (self->log_y)
    {
      double l = log10 (lo), h = log10 (hi), m = MAX ((h - l) * 0.05, 0.05);

      lo = pow (10, l - m);
      hi = pow (10, h + m);
    }
  else
    {
      double m = (hi - lo) * 0.05;

      if (m == 0)
        m = MAX (fabs (lo) * 0.05, 0.5);
      lo -= m;
      hi += m;
    }
  *y_min = lo;
  *y_max = hi;
}

static inline double
x_to_px (SlScalarChartRenderer *self,
         double                 x)
{
  return self->plot.x + (x - self->view[0]) / (self->view[1] - self->view[0]) * self->plot.width;
}

static inline double
y_to_px (SlScalarChartRenderer *self,
         double                 y)
{
  double f;

  if (self->log_y)
    f = (log10 (y) - log10 (self->view[2])) / (log10 (self->view[3]) - log10 (self->view[2]));
  else
    f = (y - self->view[2]) / (self->view[3] - self->view[2]);
  /* Far outside values would overflow cairo's fixed point. */
  return CLAMP (self->plot.y + self->plot.height * (1 - f), -1e5, 1e5);
}

double
sl_scalar_chart_renderer_pixel_to_x (SlScalarChartRenderer *self,
                                     double                 px)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), NAN);
  if (self->plot.width <= 0)
    return NAN;
  return self->view[0] + (px - self->plot.x) / self->plot.width * (self->view[1] - self->view[0]);
}

double
sl_scalar_chart_renderer_pixel_to_y (SlScalarChartRenderer *self,
                                     double                 py)
{
  double f;

  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), NAN);
  if (self->plot.height <= 0)
    return NAN;
  f = 1 - (py - self->plot.y) / self->plot.height;
  if (self->log_y)
    return pow (10, log10 (self->view[2]) + f * (log10 (self->view[3]) - log10 (self->view[2])));
  return self->view[2] + f * (self->view[3] - self->view[2]);
}

void
sl_scalar_chart_renderer_get_plot_area (SlScalarChartRenderer *self,
                                        cairo_rectangle_t     *area)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  g_return_if_fail (area != NULL);
  *area = self->plot;
}

/**
 * sl_scalar_chart_renderer_prepare:
 *
 * Computes the frame for a @width × @height chart: ranges, ticks and the
 * pixel columns of every visible series.
 */
void
sl_scalar_chart_renderer_prepare (SlScalarChartRenderer *self,
                                  int                    width,
                                  int                    height)
{
  guint plot_w;

  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  self->width = MAX (width, 1);
  self->height = MAX (height, 1);
  self->plot.x = MARGIN_LEFT;
  self->plot.y = MARGIN_TOP;
  self->plot.width = MAX (1, self->width - MARGIN_LEFT - MARGIN_RIGHT);
  self->plot.height = MAX (1, self->height - MARGIN_TOP - MARGIN_BOTTOM);
  plot_w = (guint)self->plot.width;

  if (!self->x_fixed)
    sl_scalar_chart_renderer_get_data_extent (self, &self->view[0], &self->view[1]);
  if (!self->y_fixed)
    auto_y_range (self, &self->view[2], &self->view[3]);

  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);
      const double *x = (const double *)(gpointer)t->x->data;
      guint n = t->x->len;

      if (!t->visible)
        continue;
      t->sparse_start = sl_lod_lower_bound (x, n, self->view[0]);
      t->sparse_end = sl_lod_lower_bound (x, n, self->view[1]);
      t->sparse = (t->sparse_end - t->sparse_start) <= plot_w * SPARSE_FACTOR;
      if (t->sparse)
        {
          /* One point beyond each side, so lines reach the edges. */
          t->sparse_start = t->sparse_start > 0 ? t->sparse_start - 1 : 0;
          t->sparse_end = MIN (t->sparse_end + 1, n);
          continue;
        }
      if (t->n_cols != plot_w)
        {
          t->raw_cols = g_renew (SlLodColumn, t->raw_cols, plot_w);
          t->smooth_cols = g_renew (SlLodColumn, t->smooth_cols, plot_w);
          t->n_cols = plot_w;
        }
      sl_series_lod_query (t->raw, x, self->view[0], self->view[1], plot_w, self->log_y, t->raw_cols);
      if (t->smooth != NULL)
        sl_series_lod_query (t->smooth, x, self->view[0], self->view[1], plot_w, self->log_y, t->smooth_cols);
    }

  g_clear_pointer (&self->x_ticks, g_array_unref);
  g_clear_pointer (&self->y_ticks, g_array_unref);
  {
    guint nx = MAX (2, plot_w / 110), ny = MAX (2, (guint)self->plot.height / 48);

    switch (self->x_mode)
      {
      case SL_CHART_X_RELATIVE:
        self->x_ticks = sl_chart_ticks_duration (self->view[0], self->view[1], nx);
        break;
      case SL_CHART_X_WALL:
        self->x_ticks = sl_chart_ticks_wall (self->view[0], self->view[1], nx);
        break;
      case SL_CHART_X_STEP:
      default:
        self->x_ticks = sl_chart_ticks_linear (self->view[0], self->view[1], nx);
        break;
      }
    self->y_ticks = self->log_y ? sl_chart_ticks_log (self->view[2], self->view[3], ny)
                                : sl_chart_ticks_linear (self->view[2], self->view[3], ny);
  }
}

static void
set_fg (SlScalarChartRenderer *self,
        cairo_t               *cr,
        double                 alpha)
{
  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], alpha);
}

/* Text with its anchor at (x, y): xalign/yalign 0 = left/top, 1 = right/bottom. */
static void
draw_text (SlScalarChartRenderer *self,
           cairo_t               *cr,
           PangoLayout           *layout,
           const char            *text,
           double                 x,
           double                 y,
           double                 xalign,
           double                 yalign,
           double                *out_width)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, round (x - w * xalign), round (y - h * yalign));
  pango_cairo_show_layout (cr, layout);
  if (out_width != NULL)
    *out_width = w;
}

static gboolean
beyond_threshold (SlScalarChartRenderer *self,
                  double                 v)
{
  if (self->threshold_mode == SL_CHART_THRESHOLD_ABOVE)
    return v > self->threshold;
  if (self->threshold_mode == SL_CHART_THRESHOLD_BELOW)
    return v < self->threshold;
  return FALSE;
}

/* Taller columns than this (in pixels) are noise, not a line: drawn
 * without antialiasing. */
#define TALL_COLUMN 4.0

/* The vertical extent of a column: its min and max, and @join (the last
 * value of the column before), at least @thickness tall. */
static void
column_span (SlScalarChartRenderer *self,
             const SlLodColumn     *col,
             double                 join,
             double                 thickness,
             double                *top,
             double                *bottom)
{
  *top = y_to_px (self, col->max);
  *bottom = y_to_px (self, col->min);
  if (isfinite (join))
    {
      double j = y_to_px (self, join);

      *top = MIN (*top, j);
      *bottom = MAX (*bottom, j);
    }
  if (*bottom - *top < thickness)
    {
      double mid = (*top + *bottom) / 2;

      *top = mid - thickness / 2;
      *bottom = mid + thickness / 2;
    }
}

/* Each pixel column is one box covering its min and max and the last
 * value of the column before (which joins them). A union of boxes fills
 * far faster than stroking a path that zigzags within every column, and
 * overlapping boxes do not darken a translucent line. */
static void
draw_columns (SlScalarChartRenderer *self,
              cairo_t               *cr,
              const SlLodColumn     *cols,
              guint                  n_cols,
              double                 thickness)
{
  double prev_last = NAN;
  guint prev_c = G_MAXUINT;
  guint n_thin = 0;
  gboolean gaps = FALSE;

  for (guint c = 0; c < n_cols; c++)
    {
      const SlLodColumn *col = &cols[c];
      double top, bottom;

      if (col->n == 0)
        continue;
      if (prev_c != G_MAXUINT && prev_c + 1 != c)
        gaps = TRUE;
      column_span (self, col, prev_c != G_MAXUINT && prev_c + 1 == c ? prev_last : NAN,
                   thickness, &top, &bottom);
      if (bottom - top >= TALL_COLUMN)
        {
          /* Tall: whole pixels, which cairo fills on its fast path. */
          top = floor (top);
          bottom = ceil (bottom);
          cairo_rectangle (cr, self->plot.x + c, top, 1, bottom - top);
        }
      else
        {
          n_thin++;
        }
      prev_last = col->last;
      prev_c = c;
    }
  cairo_fill (cr);

  /* Thin columns (a calm curve): one antialiased polyline through their
   * middles, broken where a tall column or a gap is. */
  if (n_thin > 0)
    {
      gboolean drawing = FALSE;

      prev_c = G_MAXUINT;
      cairo_set_line_width (cr, thickness);
      for (guint c = 0; c < n_cols; c++)
        {
          const SlLodColumn *col = &cols[c];
          double top, bottom;

          if (col->n == 0)
            {
              drawing = FALSE;
              continue;
            }
          column_span (self, col, prev_c != G_MAXUINT && prev_c + 1 == c ? cols[prev_c].last : NAN,
                       thickness, &top, &bottom);
          prev_c = c;
          if (bottom - top >= TALL_COLUMN)
            {
              drawing = FALSE;
              continue;
            }
          if (drawing)
            cairo_line_to (cr, self->plot.x + c + 0.5, (top + bottom) / 2);
          else
            cairo_move_to (cr, self->plot.x + c + 0.5, (top + bottom) / 2);
          drawing = TRUE;
        }
      cairo_stroke (cr);
    }

  if (!gaps)
    return;

  /* Columns without points between two with points: join them with a
   * line, as the points would be. */
  cairo_set_line_width (cr, thickness);
  prev_c = G_MAXUINT;
  for (guint c = 0; c < n_cols; c++)
    {
      if (cols[c].n == 0)
        continue;
      if (prev_c != G_MAXUINT && prev_c + 1 < c)
        {
          cairo_move_to (cr, self->plot.x + prev_c + 0.5, y_to_px (self, cols[prev_c].last));
          cairo_line_to (cr, self->plot.x + c + 0.5, y_to_px (self, cols[c].first));
        }
      prev_c = c;
    }
  cairo_stroke (cr);
}

#define STROKE_PIECE 16

static void
draw_points (SlScalarChartRenderer *self,
             cairo_t               *cr,
             const double          *x,
             const double          *y,
             guint                  start,
             guint                  end)
{
  gboolean started = FALSE;
  guint n_segments = 0;

  for (guint i = start; i < end; i++)
    {
      if (!isfinite (y[i]) || (self->log_y && y[i] <= 0))
        continue;
      if (!started)
        cairo_move_to (cr, x_to_px (self, x[i]), y_to_px (self, y[i]));
      else
        cairo_line_to (cr, x_to_px (self, x[i]), y_to_px (self, y[i]));
      started = TRUE;
      /* Stroke in short pieces: the rasterizer's cost grows with the
       * edges crossing each scanline, and a noisy curve crosses them all. */
      if (++n_segments % STROKE_PIECE == 0)
        {
          double cx, cy;

          cairo_get_current_point (cr, &cx, &cy);
          cairo_stroke (cr);
          cairo_move_to (cr, cx, cy);
        }
    }
  cairo_stroke (cr);
}

static void
draw_threshold (SlScalarChartRenderer *self,
                cairo_t               *cr,
                Trace                 *t)
{
  SlSeriesLod *lod = shown_lod (t);
  const double *x = (const double *)(gpointer)t->x->data;
  const double *y = sl_series_lod_get_values (lod);
  double ty;

  if (self->threshold_mode == SL_CHART_THRESHOLD_NONE || !isfinite (self->threshold))
    return;

  cairo_set_source_rgb (cr, 0.86, 0.15, 0.15);
  if (t->sparse)
    {
      for (guint i = t->sparse_start; i < t->sparse_end; i++)
        if (isfinite (y[i]) && beyond_threshold (self, y[i]) && (!self->log_y || y[i] > 0))
          {
            cairo_new_sub_path (cr);
            cairo_arc (cr, x_to_px (self, x[i]), y_to_px (self, y[i]), 3, 0, 2 * G_PI);
          }
      cairo_fill (cr);
      return;
    }

  if (self->log_y && self->threshold <= 0)
    return;
  ty = y_to_px (self, self->threshold);
  cairo_set_line_width (cr, 3);
  for (guint c = 0; c < t->n_cols; c++)
    {
      const SlLodColumn *col = t->smooth ? &t->smooth_cols[c] : &t->raw_cols[c];
      double px = self->plot.x + c + 0.5;

      if (col->n == 0)
        continue;
      if (self->threshold_mode == SL_CHART_THRESHOLD_ABOVE && col->max > self->threshold)
        {
          cairo_move_to (cr, px, MIN (ty, y_to_px (self, col->min)));
          cairo_line_to (cr, px, y_to_px (self, col->max) - 1);
        }
      else if (self->threshold_mode == SL_CHART_THRESHOLD_BELOW && col->min < self->threshold)
        {
          cairo_move_to (cr, px, MAX (ty, y_to_px (self, col->max)));
          cairo_line_to (cr, px, y_to_px (self, col->min) + 1);
        }
    }
  cairo_stroke (cr);
}

static void
draw_trace (SlScalarChartRenderer *self,
            cairo_t               *cr,
            Trace                 *t)
{
  const double *x = (const double *)(gpointer)t->x->data;

  /* Bevel joins: round ones cost much more on a zigzag. */
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_BEVEL);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);

  /* The raw line, faint behind the smoothed one. */
  cairo_set_line_width (cr, t->smooth ? 1.0 : 1.5);
  cairo_set_source_rgba (cr, t->color[0], t->color[1], t->color[2], t->smooth ? 0.28 : 1.0);
  if (t->sparse)
    draw_points (self, cr, x, sl_series_lod_get_values (t->raw), t->sparse_start, t->sparse_end);
  else
    draw_columns (self, cr, t->raw_cols, t->n_cols, t->smooth ? 1.0 : 1.5);

  if (t->smooth != NULL)
    {
      cairo_set_line_width (cr, 1.75);
      cairo_set_source_rgb (cr, t->color[0], t->color[1], t->color[2]);
      if (t->sparse)
        draw_points (self, cr, x, sl_series_lod_get_values (t->smooth), t->sparse_start, t->sparse_end);
      else
        draw_columns (self, cr, t->smooth_cols, t->n_cols, 1.75);
    }

  draw_threshold (self, cr, t);
}

static void
draw_legend (SlScalarChartRenderer *self,
             cairo_t               *cr,
             PangoLayout           *layout)
{
  double x = self->plot.x;

  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);
      double w;

      if (x > self->width - 40)
        {
          t->legend_box[2] = 0;
          continue;
        }
      cairo_set_source_rgba (cr, t->color[0], t->color[1], t->color[2], t->visible ? 1 : 0.25);
      cairo_rectangle (cr, x, 14, 12, 12);
      if (t->visible)
        cairo_fill (cr);
      else
        {
          cairo_set_line_width (cr, 1.5);
          cairo_stroke (cr);
        }
      set_fg (self, cr, t->visible ? 0.85 : 0.4);
      draw_text (self, cr, layout, t->name, x + 18, 20, 0, 0.5, &w);
      t->legend_box[0] = x - 2;
      t->legend_box[1] = 10;
      t->legend_box[2] = w + 24;
      t->legend_box[3] = 20;
      x += w + 36;
    }
}

static const char *
x_title (SlScalarChartRenderer *self)
{
  switch (self->x_mode)
    {
    case SL_CHART_X_RELATIVE:
      return _("Relative time");
    case SL_CHART_X_WALL:
      return _("Wall time");
    case SL_CHART_X_STEP:
    default:
      return _("Step");
    }
}

static void
draw_hover (SlScalarChartRenderer *self,
            cairo_t               *cr)
{
  double px;

  if (!isfinite (self->hover_x) || self->hover_x < self->view[0] || self->hover_x > self->view[1])
    return;

  px = round (x_to_px (self, self->hover_x)) + 0.5;
  set_fg (self, cr, 0.35);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, px, self->plot.y);
  cairo_line_to (cr, px, self->plot.y + self->plot.height);
  cairo_stroke (cr);

  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);
      const double *y;
      double v;

      /* A restart may have dropped the point since the pointer moved. */
      if (!t->visible || t->hover_index >= sl_series_lod_get_n_points (shown_lod (t))
          || t->hover_index >= t->x->len)
        continue;
      y = sl_series_lod_get_values (shown_lod (t));
      v = y[t->hover_index];
      if (!isfinite (v) || (self->log_y && v <= 0))
        continue;
      cairo_arc (cr, x_to_px (self, g_array_index (t->x, double, t->hover_index)), y_to_px (self, v), 4, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, t->color[0], t->color[1], t->color[2]);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, self->dark ? 0.12 : 1, self->dark ? 0.12 : 1, self->dark ? 0.12 : 1);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
    }
}

/**
 * sl_scalar_chart_renderer_draw:
 *
 * Draws the prepared frame; reads only what prepare() computed.
 */
void
sl_scalar_chart_renderer_draw (SlScalarChartRenderer *self,
                               cairo_t               *cr)
{
  g_autoptr(PangoLayout) layout = NULL;
  const cairo_rectangle_t *p = &self->plot;

  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));
  g_return_if_fail (cr != NULL);

  if (self->x_ticks == NULL)
    return;

  layout = pango_cairo_create_layout (cr);
  pango_layout_set_font_description (layout, self->font);

  /* Grid and tick labels */
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < self->y_ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (self->y_ticks, SlChartTick, i);
      double py = round (y_to_px (self, tick->value)) + 0.5;

      set_fg (self, cr, 0.1);
      cairo_move_to (cr, p->x, py);
      cairo_line_to (cr, p->x + p->width, py);
      cairo_stroke (cr);
      set_fg (self, cr, 0.7);
      draw_text (self, cr, layout, tick->label, p->x - 8, py, 1, 0.5, NULL);
    }
  for (guint i = 0; i < self->x_ticks->len; i++)
    {
      SlChartTick *tick = &g_array_index (self->x_ticks, SlChartTick, i);
      double px = round (x_to_px (self, tick->value)) + 0.5;

      set_fg (self, cr, 0.1);
      cairo_move_to (cr, px, p->y);
      cairo_line_to (cr, px, p->y + p->height);
      cairo_stroke (cr);
      set_fg (self, cr, 0.7);
      draw_text (self, cr, layout, tick->label,
                 CLAMP (px, p->x + 12, self->width - 30), p->y + p->height + 6, 0.5, 0, NULL);
    }
  set_fg (self, cr, 0.3);
  cairo_rectangle (cr, p->x + 0.5, p->y + 0.5, p->width - 1, p->height - 1);
  cairo_stroke (cr);

  set_fg (self, cr, 0.85);
  draw_text (self, cr, layout, x_title (self), p->x + p->width / 2, self->height - 4, 0.5, 1, NULL);
  if (self->log_y)
    {
      set_fg (self, cr, 0.55);
      draw_text (self, cr, layout, _("log"), 6, p->y - 6, 0, 1, NULL);
    }

  draw_legend (self, cr, layout);

  /* Series, clipped to the plot */
  cairo_save (cr);
  cairo_rectangle (cr, p->x, p->y, p->width, p->height);
  cairo_clip (cr);
  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);

      if (t->visible && t->x->len > 0)
        draw_trace (self, cr, t);
    }
  if (self->threshold_mode != SL_CHART_THRESHOLD_NONE && isfinite (self->threshold)
      && (!self->log_y || self->threshold > 0))
    {
      double ty = round (y_to_px (self, self->threshold)) + 0.5;
      const double dash[] = { 4, 4 };

      cairo_set_source_rgba (cr, 0.86, 0.15, 0.15, 0.8);
      cairo_set_line_width (cr, 1);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_move_to (cr, p->x, ty);
      cairo_line_to (cr, p->x + p->width, ty);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  draw_hover (self, cr);
  if (self->has_selection)
    {
      cairo_rectangle (cr, self->selection.x, self->selection.y, self->selection.width, self->selection.height);
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.2);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.8);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

/**
 * sl_scalar_chart_renderer_legend_hit:
 *
 * Returns: the series whose legend entry is at (@px, @py), or -1
 */
int
sl_scalar_chart_renderer_legend_hit (SlScalarChartRenderer *self,
                                     double                 px,
                                     double                 py)
{
  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), -1);

  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);
      double *b = t->legend_box;

      if (b[2] > 0 && px >= b[0] && px < b[0] + b[2] && py >= b[1] && py < b[1] + b[3])
        return (int)i;
    }
  return -1;
}

/**
 * sl_scalar_chart_renderer_set_hover:
 * @x: the x under the pointer, or NaN
 *
 * Finds the point nearest to @x in every series, for the crosshair.
 */
void
sl_scalar_chart_renderer_set_hover (SlScalarChartRenderer *self,
                                    double                 x)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  self->hover_x = x;
  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);

      t->hover_index = isfinite (x) ? sl_chart_find_nearest ((const double *)(gpointer)t->x->data, t->x->len, x)
                                    : G_MAXUINT;
    }
}

void
sl_scalar_chart_renderer_set_selection (SlScalarChartRenderer   *self,
                                        const cairo_rectangle_t *box)
{
  g_return_if_fail (SL_IS_SCALAR_CHART_RENDERER (self));

  self->has_selection = box != NULL;
  if (box != NULL)
    self->selection = *box;
}

/**
 * sl_scalar_chart_renderer_describe_at:
 *
 * Returns: (transfer full): for every visible series, its name, smoothed
 *   and raw value, step, relative and wall time at the point nearest to
 *   @x, one line each; %NULL when no series has points
 */
char *
sl_scalar_chart_renderer_describe_at (SlScalarChartRenderer *self,
                                      double                 x)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), NULL);

  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);
      const double *wall = sl_scalar_series_get_wall_times (t->series);
      guint k;
      g_autofree char *smoothed = NULL;
      g_autofree char *raw = NULL;
      g_autofree char *relative = NULL;
      g_autofree char *when = NULL;

      if (!t->visible || t->x->len == 0)
        continue;
      k = sl_chart_find_nearest ((const double *)(gpointer)t->x->data, t->x->len, x);
      raw = sl_chart_format_value (sl_series_lod_get_values (t->raw)[k]);
      smoothed = sl_chart_format_value (sl_series_lod_get_values (shown_lod (t))[k]);
      relative = sl_chart_format_duration (wall[k] - wall[0]);
      when = sl_chart_format_wall (wall[k]);
      if (text->len > 0)
        g_string_append_c (text, '\n');
      /* TRANSLATORS: a chart tooltip line: series name, smoothed value,
       * raw value, step, time since the first point, date and time */
      g_string_append_printf (text, _("%s: smoothed %s, value %s, step %lld, %s, %s"),
                              t->name, smoothed, raw,
                              (long long)sl_scalar_series_get_steps (t->series)[k],
                              relative, when);
    }

  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

typedef struct {
  SlScalarChartRenderer *self;
  int                    width;
  int                    height;
} ImageDraw;

static void
draw_image (cairo_t  *cr,
            gpointer  user_data)
{
  ImageDraw *image = user_data;

  /* Files get an opaque background in the current style. */
  if (image->self->dark)
    cairo_set_source_rgb (cr, 0.14, 0.14, 0.14);
  else
    cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  sl_scalar_chart_renderer_prepare (image->self, image->width, image->height);
  sl_scalar_chart_renderer_draw (image->self, cr);
}

/**
 * sl_scalar_chart_renderer_export_image:
 *
 * Draws the chart at @width × @height into a PNG, SVG or PDF file, which
 * is replaced only when the whole image is written.
 */
gboolean
sl_scalar_chart_renderer_export_image (SlScalarChartRenderer *self,
                                       const char            *path,
                                       SlChartImageFormat     format,
                                       int                    width,
                                       int                    height,
                                       GError               **error)
{
  g_autoptr(GFile) file = NULL;
  ImageDraw image = { self, width, height };

  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  file = g_file_new_for_path (path);
  return sl_image_file_write (file,
                              format == SL_CHART_IMAGE_SVG ? "svg" : format == SL_CHART_IMAGE_PDF ? "pdf" : "png",
                              width, height, draw_image, &image, error);
}

static void
append_json_string (GString    *out,
                    const char *s)
{
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if ((guchar)*p < 0x20)
        g_string_append_printf (out, "\\u%04x", (guint)(guchar)*p);
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* JSON has no NaN: non-finite values are written as null. */
static void
append_number (GString *out,
               double   v,
               gboolean json)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v))
    g_string_append (out, json ? "null" : (isnan (v) ? "NaN" : v > 0 ? "Inf" : "-Inf"));
  else
    g_string_append (out, g_ascii_dtostr (buf, sizeof buf, v));
}

/**
 * sl_scalar_chart_renderer_format_data:
 *
 * Every point of the visible series: series, step, wall time, relative
 * time, value and smoothed value, as CSV or as JSON (an array of series
 * objects with one array per column).
 *
 * Returns: (transfer full): the text
 */
GBytes *
sl_scalar_chart_renderer_format_data (SlScalarChartRenderer *self,
                                      SlChartDataFormat      format)
{
  GString *out = NULL;
  gboolean json = format == SL_CHART_DATA_JSON;
  gboolean first_series = TRUE;

  g_return_val_if_fail (SL_IS_SCALAR_CHART_RENDERER (self), NULL);

  out = g_string_new (NULL);

  if (json)
    g_string_append (out, "[");
  else
    g_string_append (out, "series,step,wall_time,relative_time,value,smoothed\n");

  for (guint i = 0; i < self->traces->len; i++)
    {
      Trace *t = get_trace (self, i);
      guint n = sl_scalar_series_get_n_points (t->series);
      const gint64 *steps = sl_scalar_series_get_steps (t->series);
      const double *wall = sl_scalar_series_get_wall_times (t->series);
      const double *raw = sl_series_lod_get_values (t->raw);
      const double *smooth = sl_series_lod_get_values (shown_lod (t));
      const char *columns[] = { "step", "wall_time", "relative_time", "value", "smoothed" };

      if (!t->visible)
        continue;
      n = MIN (n, sl_series_lod_get_n_points (t->raw));

      if (!json)
        {
          g_autofree char *quoted = NULL;
          g_auto(GStrv) parts = g_strsplit (t->name, "\"", -1);
          g_autofree char *escaped = g_strjoinv ("\"\"", parts);

          quoted = g_strdup_printf ("\"%s\"", escaped);
          for (guint k = 0; k < n; k++)
            {
              g_string_append_printf (out, "%s,%" G_GINT64_FORMAT ",", quoted, steps[k]);
              append_number (out, wall[k], FALSE);
              g_string_append_c (out, ',');
              append_number (out, wall[k] - wall[0], FALSE);
              g_string_append_c (out, ',');
              append_number (out, raw[k], FALSE);
              g_string_append_c (out, ',');
              append_number (out, smooth[k], FALSE);
              g_string_append_c (out, '\n');
            }
          continue;
        }

      g_string_append (out, first_series ? "\n  {\"name\": " : ",\n  {\"name\": ");
      first_series = FALSE;
      append_json_string (out, t->name);
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        {
          g_string_append_printf (out, ",\n   \"%s\": [", columns[c]);
          for (guint k = 0; k < n; k++)
            {
              if (k > 0)
                g_string_append_c (out, ',');
              switch (c)
                {
                case 0: g_string_append_printf (out, "%" G_GINT64_FORMAT, steps[k]); break;
                case 1: append_number (out, wall[k], TRUE); break;
                case 2: append_number (out, wall[k] - wall[0], TRUE); break;
                case 3: append_number (out, raw[k], TRUE); break;
                default: append_number (out, smooth[k], TRUE); break;
                }
            }
          g_string_append_c (out, ']');
        }
      g_string_append (out, "}");
    }
  if (json)
    g_string_append (out, "\n]\n");

  return g_string_free_to_bytes (out);
}
