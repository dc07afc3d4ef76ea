/* sl-memory-chart.c
 *
 * Curves are drawn from a level of detail built when the memory is set
 * (one min/max column per pixel, as the scalar chart does), lifetimes
 * from the spans the memory profile joined for the zoom, so a frame
 * costs the width and the lanes, never the number of samples or
 * allocations. Times on the axis are relative to the first sample.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-chart-axis.h"
#include "sl-memory-chart.h"
#include "sl-scalar-chart-renderer.h"
#include "sl-series-lod.h"
#include "sl-widget-style.h"
#include "sl-tooltip.h"

#define MARGIN_LEFT    64
#define MARGIN_RIGHT   16
#define MARGIN_TOP     26
#define MARGIN_BOTTOM  24
#define LANES_GAP      18
#define MAX_LANE       10
#define MIN_SPAN_NS    1000
#define ZOOM_STEP      1.25

typedef struct {
  const SlMemoryCurve *curve;
  gboolean             reserved;  /* the curve has no allocated total: draw its reserved one */
  double              *x;         /* ns from the memory's start */
  SlSeriesLod         *lod;
} Line;

struct _SlMemoryChart
{
  GtkWidget        parent_instance;

  SlMemoryProfile *memory;
  GArray          *lines;       /* Line */
  gint64           origin_ns;
  gint64           data_end_ns;
  gint64           view_start_ns;
  gint64           view_end_ns;
  double           y_max_mb;
  guint            n_bars_drawn;
};

G_DEFINE_FINAL_TYPE (SlMemoryChart, sl_memory_chart, GTK_TYPE_WIDGET)

enum {
  TIME_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
line_clear (Line *line)
{
  g_free (line->x);
  g_clear_pointer (&line->lod, sl_series_lod_free);
}

typedef struct {
  double x, y, width, height;
} Box;

static gboolean
has_lanes (SlMemoryChart *self)
{
  return self->memory != NULL && sl_memory_profile_get_n_lanes (self->memory) > 0;
}

/* The curves above, the lanes below, sharing the plot's width. */
static void
get_boxes (SlMemoryChart *self,
           int            width,
           int            height,
           Box           *curves,
           Box           *lanes)
{
  double plot_height = MAX (0, height - MARGIN_TOP - MARGIN_BOTTOM);
  double lanes_height = 0;

  if (has_lanes (self))
    lanes_height = MIN (plot_height * 0.4, sl_memory_profile_get_n_lanes (self->memory) * MAX_LANE + LANES_GAP);

  *curves = (Box) { MARGIN_LEFT, MARGIN_TOP, MAX (0, width - MARGIN_LEFT - MARGIN_RIGHT), plot_height - lanes_height };
  *lanes = (Box) { MARGIN_LEFT, MARGIN_TOP + curves->height + LANES_GAP, curves->width, MAX (0, lanes_height - LANES_GAP) };
}

static double
time_to_x (SlMemoryChart *self,
           const Box     *box,
           gint64         ns)
{
  double span = MAX (1, self->view_end_ns - self->view_start_ns);

  return box->x + (double)(ns - self->view_start_ns) / span * box->width;
}

static void
set_source (cairo_t       *cr,
            const GdkRGBA *color,
            double         alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

static void
draw_text (cairo_t     *cr,
           PangoLayout *layout,
           const char  *text,
           double       x,
           double       y,
           double       xalign)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - w * xalign, y - h / 2.0);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_axes (SlMemoryChart *self,
           cairo_t       *cr,
           PangoLayout   *layout,
           const Box     *curves,
           int            height,
           const GdkRGBA *fg)
{
  g_autoptr(GArray) x_ticks = NULL;
  g_autoptr(GArray) y_ticks = NULL;

  /* Milliseconds from the first sample: a step is a few of them. */
  x_ticks = sl_chart_ticks_linear ((self->view_start_ns - self->origin_ns) / 1e6,
                                   (self->view_end_ns - self->origin_ns) / 1e6, MAX (2, curves->width / 90));
  y_ticks = sl_chart_ticks_linear (0, self->y_max_mb, MAX (2, curves->height / 40));

  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < y_ticks->len; i++)
    {
      const SlChartTick *tick = &g_array_index (y_ticks, SlChartTick, i);
      double y = curves->y + curves->height * (1 - tick->value / self->y_max_mb);
      g_autofree char *label = g_strdup_printf (_("%s MB"), tick->label);

      set_source (cr, fg, 0.12);
      cairo_move_to (cr, curves->x, round (y) + 0.5);
      cairo_line_to (cr, curves->x + curves->width, round (y) + 0.5);
      cairo_stroke (cr);
      set_source (cr, fg, 0.7);
      draw_text (cr, layout, label, curves->x - 6, y, 1);
    }
  for (guint i = 0; i < x_ticks->len; i++)
    {
      const SlChartTick *tick = &g_array_index (x_ticks, SlChartTick, i);
      double x = time_to_x (self, curves, self->origin_ns + (gint64)(tick->value * 1e6));
      /* Translators: a time on the memory chart's axis, in milliseconds */
      g_autofree char *label = g_strdup_printf (_("%s ms"), tick->label);

      set_source (cr, fg, 0.7);
      draw_text (cr, layout, label, x, height - MARGIN_BOTTOM / 2.0, 0.5);
    }
}

static void
draw_line (SlMemoryChart *self,
           cairo_t       *cr,
           const Line    *line,
           const Box     *box,
           guint          index)
{
  guint width = (guint)MAX (1, box->width);
  g_autofree SlLodColumn *columns = g_new0 (SlLodColumn, width);
  double rgb[3];
  gboolean started = FALSE;

  sl_scalar_chart_renderer_get_palette_color (index, rgb);
  sl_series_lod_query (line->lod, line->x, self->view_start_ns - self->origin_ns,
                       self->view_end_ns - self->origin_ns, width, FALSE, columns);

  cairo_save (cr);
  cairo_rectangle (cr, box->x, box->y - 1, box->width, box->height + 2);
  cairo_clip (cr);
  for (guint c = 0; c < width; c++)
    {
      const SlLodColumn *column = &columns[c];
      double x = box->x + c + 0.5;

#define Y(v) (box->y + box->height * (1 - (v) / self->y_max_mb))
      if (column->n == 0)
        continue;
      if (!started)
        cairo_move_to (cr, x, Y (column->first));
      else
        cairo_line_to (cr, x, Y (column->first));
      started = TRUE;
      if (column->n > 1)
        {
          cairo_line_to (cr, x, Y (column->min));
          cairo_line_to (cr, x, Y (column->max));
          cairo_line_to (cr, x, Y (column->last));
        }
#undef Y
    }
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  /* A component sampled once (APP often is) is a dot, not nothing. */
  if (line->curve->ts_ns->len == 1 && cairo_has_current_point (cr))
    {
      double px, py;

      cairo_get_current_point (cr, &px, &py);
      cairo_new_path (cr);
      cairo_arc (cr, px, py, 3, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  cairo_set_line_width (cr, 1.5);
  if (line->reserved)
    cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_peak (SlMemoryChart *self,
           cairo_t       *cr,
           PangoLayout   *layout,
           const Box     *curves,
           const Box     *lanes)
{
  const SlMemoryPeak *peak = sl_memory_profile_get_peak (self->memory);
  g_autofree char *label = NULL;
  double x, y;

  if (!peak->found || peak->time_ns < self->view_start_ns || peak->time_ns > self->view_end_ns)
    return;

  x = round (time_to_x (self, curves, peak->time_ns)) + 0.5;
  y = curves->y + curves->height * (1 - peak->allocated_mb / self->y_max_mb);
  cairo_set_source_rgba (cr, 0.88, 0.11, 0.14, 0.9);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, (double[]) { 3, 3 }, 2, 0);
  cairo_move_to (cr, x, curves->y);
  cairo_line_to (cr, x, lanes->height > 0 ? lanes->y + lanes->height : curves->y + curves->height);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_arc (cr, x, y, 4, 0, 2 * G_PI);
  cairo_fill (cr);

  /* Translators: the peak of memory on the chart, in MB */
  label = g_strdup_printf (_("Peak %.1f MB"), peak->allocated_mb);
  draw_text (cr, layout, label, x + (x > curves->x + curves->width * 0.8 ? -6 : 6), curves->y + 8,
             x > curves->x + curves->width * 0.8 ? 1 : 0);
}

static void
draw_lanes (SlMemoryChart *self,
            cairo_t       *cr,
            PangoLayout   *layout,
            const Box     *box,
            const GdkRGBA *fg)
{
  guint n_lanes = sl_memory_profile_get_n_lanes (self->memory);
  double lane_height = box->height / MAX (1, n_lanes);
  double ns_per_pixel = (double)(self->view_end_ns - self->view_start_ns) / MAX (1, box->width);

  set_source (cr, fg, 0.7);
  draw_text (cr, layout, _("Operator allocations"), box->x, box->y - LANES_GAP / 2.0, 0);

  cairo_save (cr);
  cairo_rectangle (cr, box->x, box->y, box->width, box->height);
  cairo_clip (cr);
  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.75);
  for (guint lane = 0; lane < n_lanes; lane++)
    {
      guint n, lo = 0, hi;
      const SlMemorySpan *spans = sl_memory_profile_get_spans (self->memory, lane, ns_per_pixel, &n);
      double y = box->y + lane * lane_height;

      /* Spans of a lane never overlap, so their ends are sorted too. */
      hi = n;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (spans[mid].end_ns < self->view_start_ns)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint i = lo; i < n && spans[i].start_ns <= self->view_end_ns; i++)
        {
          double x0 = time_to_x (self, box, spans[i].start_ns);
          double x1 = time_to_x (self, box, spans[i].end_ns);

          cairo_rectangle (cr, x0, y + 1, MAX (1, x1 - x0), MAX (1, lane_height - 2));
          self->n_bars_drawn++;
        }
    }
  cairo_fill (cr);
  cairo_restore (cr);
}

static void
draw_legend (SlMemoryChart *self,
             cairo_t       *cr,
             PangoLayout   *layout,
             const GdkRGBA *fg)
{
  double x = MARGIN_LEFT;

  for (guint i = 0; i < self->lines->len; i++)
    {
      const Line *line = &g_array_index (self->lines, Line, i);
      g_autofree char *text = line->reserved ? g_strdup_printf (_("%s (reserved)"), line->curve->name)
                                             : g_strdup (line->curve->name);
      double rgb[3];
      int w, h;

      sl_scalar_chart_renderer_get_palette_color (i, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, x, MARGIN_TOP / 2.0 - 4, 14, 8);
      cairo_fill (cr);
      set_source (cr, fg, 0.85);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      cairo_move_to (cr, x + 18, MARGIN_TOP / 2.0 - h / 2.0);
      pango_cairo_show_layout (cr, layout);
      x += 18 + w + 16;
    }
}

/**
 * sl_memory_chart_draw:
 *
 * Draws a frame of @width × @height; the widget and the tests both draw
 * through it.
 */
void
sl_memory_chart_draw (SlMemoryChart *self,
                      cairo_t       *cr,
                      int            width,
                      int            height)
{
  g_autoptr(PangoLayout) layout = NULL;
  Box curves, lanes;
  GdkRGBA fg;

  g_return_if_fail (SL_IS_MEMORY_CHART (self));

  self->n_bars_drawn = 0;
  if (self->memory == NULL || self->view_end_ns <= self->view_start_ns)
    return;

  sl_widget_get_foreground (GTK_WIDGET (self), &fg);
  layout = pango_cairo_create_layout (cr);
  {
    PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));

    pango_layout_set_font_description (layout, pango_context_get_font_description (context));
  }
  get_boxes (self, width, height, &curves, &lanes);

  draw_axes (self, cr, layout, &curves, height, &fg);
  for (guint i = 0; i < self->lines->len; i++)
    draw_line (self, cr, &g_array_index (self->lines, Line, i), &curves, i);
  if (lanes.height > 0)
    draw_lanes (self, cr, layout, &lanes, &fg);
  draw_peak (self, cr, layout, &curves, &lanes);
  draw_legend (self, cr, layout, &fg);
}

static void
sl_memory_chart_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  sl_memory_chart_draw (SL_MEMORY_CHART (widget), cr, width, height);
  cairo_destroy (cr);
}

/* ------------------------------------------------------------------ */
/* Data */

static void
add_line (SlMemoryChart       *self,
          const SlMemoryCurve *curve,
          gboolean             reserved)
{
  GArray *values = reserved ? curve->reserved_mb : curve->allocated_mb;
  Line line = { curve, reserved, g_new (double, curve->ts_ns->len), sl_series_lod_new () };

  for (guint i = 0; i < curve->ts_ns->len; i++)
    {
      double value = g_array_index (values, double, i);

      line.x[i] = (double)(g_array_index (curve->ts_ns, gint64, i) - self->origin_ns);
      self->y_max_mb = MAX (self->y_max_mb, isfinite (value) ? value : 0);
    }
  sl_series_lod_append (line.lod, (const double *)(gpointer)values->data, values->len);
  g_array_append_val (self->lines, line);
}

void
sl_memory_chart_set_memory (SlMemoryChart   *self,
                            SlMemoryProfile *memory)
{
  g_return_if_fail (SL_IS_MEMORY_CHART (self));
  g_return_if_fail (memory == NULL || SL_IS_MEMORY_PROFILE (memory));

  g_array_set_size (self->lines, 0);
  g_set_object (&self->memory, memory);
  self->y_max_mb = 0;
  self->origin_ns = self->data_end_ns = self->view_start_ns = self->view_end_ns = 0;

  if (memory != NULL && sl_memory_profile_get_time_range (memory, &self->origin_ns, &self->data_end_ns))
    {
      for (guint i = 0; i < sl_memory_profile_get_n_curves (memory); i++)
        {
          const SlMemoryCurve *curve = sl_memory_profile_get_curve (memory, i);

          if (!isnan (curve->max_allocated_mb))
            add_line (self, curve, FALSE);
          else if (!isnan (curve->max_reserved_mb))
            add_line (self, curve, TRUE);
        }
      self->y_max_mb = self->y_max_mb > 0 ? self->y_max_mb * 1.08 : 1;
      self->data_end_ns = MAX (self->data_end_ns, self->origin_ns + MIN_SPAN_NS);
      self->view_start_ns = self->origin_ns;
      self->view_end_ns = self->data_end_ns;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_memory_chart_set_view (SlMemoryChart *self,
                          gint64         start_ns,
                          gint64         end_ns)
{
  g_return_if_fail (SL_IS_MEMORY_CHART (self));

  if (self->memory == NULL)
    return;
  if (end_ns - start_ns < MIN_SPAN_NS)
    {
      gint64 middle = start_ns + (end_ns - start_ns) / 2;

      start_ns = middle - MIN_SPAN_NS / 2;
      end_ns = start_ns + MIN_SPAN_NS;
    }
  /* Not past the data on either side, keeping the span. */
  if (end_ns - start_ns >= self->data_end_ns - self->origin_ns)
    {
      start_ns = self->origin_ns;
      end_ns = self->data_end_ns;
    }
  else if (start_ns < self->origin_ns)
    {
      end_ns += self->origin_ns - start_ns;
      start_ns = self->origin_ns;
    }
  else if (end_ns > self->data_end_ns)
    {
      start_ns -= end_ns - self->data_end_ns;
      end_ns = self->data_end_ns;
    }
  self->view_start_ns = start_ns;
  self->view_end_ns = end_ns;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_memory_chart_get_view (SlMemoryChart *self,
                          gint64        *start_ns,
                          gint64        *end_ns)
{
  g_return_if_fail (SL_IS_MEMORY_CHART (self));

  if (start_ns != NULL)
    *start_ns = self->view_start_ns;
  if (end_ns != NULL)
    *end_ns = self->view_end_ns;
}

static Box
plot_box (SlMemoryChart *self)
{
  Box curves, lanes;

  get_boxes (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)),
             &curves, &lanes);
  return curves;
}

gint64
sl_memory_chart_time_at (SlMemoryChart *self,
                         double         x)
{
  Box box;

  g_return_val_if_fail (SL_IS_MEMORY_CHART (self), -1);

  box = plot_box (self);
  if (self->memory == NULL || box.width <= 0 || x < box.x || x > box.x + box.width)
    return -1;
  /* Nearest, not truncated: a time turned into x and back stays itself. */
  return self->view_start_ns + (gint64)llround ((x - box.x) / box.width * (double)(self->view_end_ns - self->view_start_ns));
}

double
sl_memory_chart_x_for_time (SlMemoryChart *self,
                            gint64         ns)
{
  Box box;

  g_return_val_if_fail (SL_IS_MEMORY_CHART (self), 0);

  box = plot_box (self);
  return time_to_x (self, &box, ns);
}

void
sl_memory_chart_zoom_at (SlMemoryChart *self,
                         double         x,
                         double         factor)
{
  gint64 at = sl_memory_chart_time_at (self, x);
  double start, end;

  g_return_if_fail (SL_IS_MEMORY_CHART (self));

  if (at < 0 || factor <= 0)
    return;
  start = at - (at - self->view_start_ns) / factor;
  end = at + (self->view_end_ns - at) / factor;
  sl_memory_chart_set_view (self, (gint64)start, (gint64)end);
}

void
sl_memory_chart_activate_at (SlMemoryChart *self,
                             double         x)
{
  gint64 at;

  g_return_if_fail (SL_IS_MEMORY_CHART (self));

  if ((at = sl_memory_chart_time_at (self, x)) >= 0)
    g_signal_emit (self, signals[TIME_ACTIVATED], 0, at);
}

/* The last sample of each line at or before @ns. */
static void
describe_lines (SlMemoryChart *self,
                GString       *str,
                gint64         ns)
{
  for (guint i = 0; i < self->lines->len; i++)
    {
      const Line *line = &g_array_index (self->lines, Line, i);
      GArray *values = line->reserved ? line->curve->reserved_mb : line->curve->allocated_mb;
      guint at = sl_lod_lower_bound (line->x, line->curve->ts_ns->len, (double)(ns - self->origin_ns) + 0.5);
      double value;

      if (at == 0)
        continue;
      value = g_array_index (values, double, at - 1);
      if (isfinite (value))
        g_string_append_printf (str, "\n%s: %.2f MB", line->curve->name, value);
    }
}

char *
sl_memory_chart_describe_at (SlMemoryChart *self,
                             double         x,
                             double         y)
{
  g_autofree char *when = NULL;
  GString *str;
  gint64 ns;

  g_return_val_if_fail (SL_IS_MEMORY_CHART (self), NULL);

  if ((ns = sl_memory_chart_time_at (self, x)) < 0)
    return NULL;
  when = sl_chart_format_duration ((ns - self->origin_ns) / 1e9);
  str = g_string_new (NULL);
  /* Translators: a time from the start of the memory record */
  g_string_append_printf (str, _("At %s"), when);
  describe_lines (self, str, ns);
  g_string_append_printf (str, "\n%s", _("Click to show this time on the timeline"));
  return g_string_free (str, FALSE);
}

guint
sl_memory_chart_get_n_bars_drawn (SlMemoryChart *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_CHART (self), 0);
  return self->n_bars_drawn;
}

/* ------------------------------------------------------------------ */
/* Input */

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SlMemoryChart            *self)
{
  double x = 0, y = 0;
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));

  if (event == NULL || !gdk_event_get_position (event, &x, &y) || dy == 0)
    return FALSE;
  sl_memory_chart_zoom_at (self, x, dy < 0 ? ZOOM_STEP : 1 / ZOOM_STEP);
  return TRUE;
}

static void
released_cb (GtkGestureClick *gesture,
             int              n_press,
             double           x,
             double           y,
             SlMemoryChart   *self)
{
  if (n_press == 2)
    sl_memory_chart_set_view (self, self->origin_ns, self->data_end_ns);
  else if (n_press == 1)
    sl_memory_chart_activate_at (self, x);
}

static gboolean
query_tooltip_cb (GtkWidget     *widget,
                  int            x,
                  int            y,
                  gboolean       keyboard,
                  GtkTooltip    *tooltip,
                  SlMemoryChart *self)
{
  g_autofree char *text = sl_memory_chart_describe_at (self, x, y);

  if (text == NULL)
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
sl_memory_chart_dispose (GObject *object)
{
  SlMemoryChart *self = SL_MEMORY_CHART (object);

  g_clear_pointer (&self->lines, g_array_unref);
  g_clear_object (&self->memory);
  G_OBJECT_CLASS (sl_memory_chart_parent_class)->dispose (object);
}

static void
sl_memory_chart_class_init (SlMemoryChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_memory_chart_dispose;
  widget_class->snapshot = sl_memory_chart_snapshot;

  /**
   * SlMemoryChart::time-activated:
   * @time_ns: the Unix time clicked, in ns
   */
  signals[TIME_ACTIVATED] = g_signal_new ("time-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  gtk_widget_class_set_css_name (widget_class, "memory-chart");
}

static void
sl_memory_chart_init (SlMemoryChart *self)
{
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkGesture *click = gtk_gesture_click_new ();

  self->lines = g_array_new (FALSE, TRUE, sizeof (Line));
  g_array_set_clear_func (self->lines, (GDestroyNotify)line_clear);

  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  g_signal_connect (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
  /* At 1024 × 640 with problems listed, the bottom panels take 176 px:
   * a taller minimum made the window taller than the screen. */
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 100);
}

GtkWidget *
sl_memory_chart_new (void)
{
  return g_object_new (SL_TYPE_MEMORY_CHART, NULL);
}
