/* sl-parallel-coordinates.c
 *
 * One vertical axis a column: numbers from the column's minimum at the
 * bottom to its maximum at the top, categories evenly spaced in sorted
 * order. A run is a line through its values, coloured from low to high
 * target; a run without a value on an axis breaks its line there. A drag
 * along an axis brushes the part it covers; a click on an axis clears its
 * brush. With brushes, the runs inside every one are drawn in colour and
 * the others faint; the selected run is drawn thick on top.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-chart-axis.h"
#include "sl-parallel-coordinates.h"
#include "sl-scalar-chart-renderer.h"
#include "sl-widget-style.h"
#include "sl-tooltip.h"

#define MARGIN_X     56
#define MARGIN_TOP   66
#define MARGIN_BOTTOM 42
#define LINE_HEIGHT  14
#define AXIS_GRAB    14
#define BRUSH_WIDTH  10

typedef struct {
  gboolean active;
  double   low;
  double   high;
} Brush;

struct _SlParallelCoordinates
{
  GtkWidget       parent_instance;

  SlLineageTable *table;
  GArray         *axes;      /* guint column */
  GArray         *brushes;   /* Brush, one an axis */
  gint            target;
  gint            selected;

  gint            drag_axis;
  double          drag_start;
};

G_DEFINE_FINAL_TYPE (SlParallelCoordinates, sl_parallel_coordinates, GTK_TYPE_WIDGET)

enum {
  SIGNAL_BRUSH_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static double
plot_height (SlParallelCoordinates *self)
{
  return MAX (1, gtk_widget_get_height (GTK_WIDGET (self)) - MARGIN_TOP - MARGIN_BOTTOM);
}

static double
axis_x (SlParallelCoordinates *self,
        guint                  axis)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * MARGIN_X;

  if (self->axes->len < 2)
    return MARGIN_X + width / 2;
  return MARGIN_X + width * axis / (self->axes->len - 1);
}

/* Where @run lies along @axis, from 0 to 1, or NaN without a value. */
static double
place_on_axis (SlParallelCoordinates *self,
               guint                  axis,
               guint                  run)
{
  guint column = g_array_index (self->axes, guint, axis);
  const SlLineageColumn *info = sl_lineage_table_get_column (self->table, column);
  const char *text = sl_lineage_table_get_text (self->table, run, column);
  double value;
  guint index;

  if (text == NULL)
    return NAN;
  if (info->type == SL_LINEAGE_COLUMN_NUMERIC && sl_lineage_parse_number (text, &value))
    return info->max > info->min ? (value - info->min) / (info->max - info->min) : 0.5;
  if (!g_ptr_array_find_with_equal_func (info->categories, text, g_str_equal, &index))
    return NAN;
  return info->categories->len > 1 ? (double) index / (info->categories->len - 1) : 0.5;
}

static double
place_to_y (SlParallelCoordinates *self,
            double                 place)
{
  return MARGIN_TOP + (1 - place) * plot_height (self);
}

static double
y_to_place (SlParallelCoordinates *self,
            double                 y)
{
  return CLAMP (1 - (y - MARGIN_TOP) / plot_height (self), 0, 1);
}

gboolean
sl_parallel_coordinates_has_brush (SlParallelCoordinates *self)
{
  g_return_val_if_fail (SL_IS_PARALLEL_COORDINATES (self), FALSE);

  for (guint i = 0; i < self->brushes->len; i++)
    if (g_array_index (self->brushes, Brush, i).active)
      return TRUE;
  return FALSE;
}

/**
 * sl_parallel_coordinates_is_brushed:
 *
 * Returns: whether there are brushes and @run lies inside every one
 */
gboolean
sl_parallel_coordinates_is_brushed (SlParallelCoordinates *self,
                                    guint                  run)
{
  g_return_val_if_fail (SL_IS_PARALLEL_COORDINATES (self), FALSE);

  if (self->table == NULL || !sl_parallel_coordinates_has_brush (self))
    return FALSE;
  for (guint i = 0; i < self->brushes->len; i++)
    {
      const Brush *brush = &g_array_index (self->brushes, Brush, i);
      double place;

      if (!brush->active)
        continue;
      place = place_on_axis (self, i, run);
      /* Half a pixel of slack, so a brush drawn to an end keeps it. */
      if (isnan (place) || place < brush->low - 1e-9 || place > brush->high + 1e-9)
        return FALSE;
    }
  return TRUE;
}

static void
target_color (SlParallelCoordinates *self,
              guint                  run,
              double                 rgb[3])
{
  double low[3], high[3], value, t = 0.5;

  sl_scalar_chart_renderer_get_palette_color (0, low);
  sl_scalar_chart_renderer_get_palette_color (1, high);
  if (self->target >= 0 && sl_lineage_table_get_number (self->table, run, self->target, &value))
    {
      const SlLineageColumn *info = sl_lineage_table_get_column (self->table, self->target);

      t = info->max > info->min ? (value - info->min) / (info->max - info->min) : 0.5;
    }
  for (guint i = 0; i < 3; i++)
    rgb[i] = low[i] + (high[i] - low[i]) * t;
}

static void
trace_run (SlParallelCoordinates *self,
           cairo_t               *cr,
           guint                  run)
{
  gboolean drawing = FALSE;

  for (guint a = 0; a < self->axes->len; a++)
    {
      double place = place_on_axis (self, a, run);

      if (isnan (place))
        {
          drawing = FALSE;
          continue;
        }
      if (drawing)
        cairo_line_to (cr, axis_x (self, a), place_to_y (self, place));
      else
        cairo_move_to (cr, axis_x (self, a), place_to_y (self, place));
      /* A lone point still shows. */
      if (!drawing)
        cairo_rel_line_to (cr, 0.01, 0);
      drawing = TRUE;
    }
}

static void
draw_runs (SlParallelCoordinates *self,
           cairo_t               *cr,
           const GdkRGBA         *fg)
{
  gboolean brushing = sl_parallel_coordinates_has_brush (self);

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);

  /* Faint runs first, so the brushed ones are never hidden under them. */
  for (int pass = 0; pass < 2; pass++)
    for (guint r = 0; r < sl_lineage_table_get_n_runs (self->table); r++)
      {
        gboolean in = !brushing || sl_parallel_coordinates_is_brushed (self, r);
        double rgb[3];

        if (!sl_lineage_table_run_passes (self->table, r) || (int) in != pass || (gint) r == self->selected)
          continue;
        trace_run (self, cr, r);
        if (in)
          {
            target_color (self, r, rgb);
            cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.85);
            cairo_set_line_width (cr, 1.6);
          }
        else
          {
            cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.15);
            cairo_set_line_width (cr, 1);
          }
        cairo_stroke (cr);
      }

  if (self->selected >= 0 && (guint) self->selected < sl_lineage_table_get_n_runs (self->table) &&
      sl_lineage_table_run_passes (self->table, self->selected))
    {
      trace_run (self, cr, self->selected);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.9);
      cairo_set_line_width (cr, 4);
      cairo_stroke_preserve (cr);
      {
        double rgb[3];

        target_color (self, self->selected, rgb);
        cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
        cairo_set_line_width (cr, 2);
        cairo_stroke (cr);
      }
    }
}

static void
show_text (cairo_t     *cr,
           PangoLayout *layout,
           const char  *text,
           double       x,
           double       y,
           double       max_width,
           gboolean     center)
{
  int width, height;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, center ? x - width / 2.0 : x, y - height / 2.0);
  pango_cairo_show_layout (cr, layout);
}

static char *
dup_axis_end_label (const SlLineageColumn *info,
                    gboolean               top)
{
  if (info->type == SL_LINEAGE_COLUMN_NUMERIC)
    return sl_chart_format_value (top ? info->max : info->min);
  if (info->categories->len == 0)
    return g_strdup ("");
  return g_strdup (g_ptr_array_index (info->categories, top ? info->categories->len - 1 : 0));
}

static void
draw_axes (SlParallelCoordinates *self,
           cairo_t               *cr,
           const GdkRGBA         *fg)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  double spacing = self->axes->len > 1 ? axis_x (self, 1) - axis_x (self, 0) : 2 * MARGIN_X;
  /* Close axes take turns at two heights, so each label gets the width
   * of two spacings. */
  gboolean stagger = spacing < 110;
  double label_width = MAX (40, (stagger ? 2 * spacing : spacing) - 8);
  double bottom = place_to_y (self, 0), top = place_to_y (self, 1);

  for (guint a = 0; a < self->axes->len; a++)
    {
      const SlLineageColumn *info = sl_lineage_table_get_column (self->table, g_array_index (self->axes, guint, a));
      const Brush *brush = &g_array_index (self->brushes, Brush, a);
      double x = axis_x (self, a);
      g_autofree char *high = dup_axis_end_label (info, TRUE);
      g_autofree char *low = dup_axis_end_label (info, FALSE);

      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.55);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x + 0.5, top);
      cairo_line_to (cr, x + 0.5, bottom);
      cairo_stroke (cr);

      /* Categories get a tick each. */
      if (info->type == SL_LINEAGE_COLUMN_CATEGORICAL)
        for (guint k = 0; k < info->categories->len; k++)
          {
            double y = place_to_y (self, info->categories->len > 1 ? (double) k / (info->categories->len - 1) : 0.5);

            cairo_move_to (cr, x - 3, y + 0.5);
            cairo_line_to (cr, x + 4, y + 0.5);
            cairo_stroke (cr);
          }

      if (brush->active)
        {
          double y0 = place_to_y (self, brush->high), y1 = place_to_y (self, brush->low);

          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.22);
          cairo_rectangle (cr, x - BRUSH_WIDTH / 2.0, y0, BRUSH_WIDTH, MAX (2, y1 - y0));
          cairo_fill_preserve (cr);
          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
          cairo_stroke (cr);
        }

      double shift = stagger && a % 2 == 1 ? LINE_HEIGHT : 0;

      gdk_cairo_set_source_rgba (cr, fg);
      show_text (cr, layout, info->key, x, 10 + shift, label_width, TRUE);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
      show_text (cr, layout, high, x, top - 9 - (stagger ? LINE_HEIGHT : 0) + shift, label_width, TRUE);
      show_text (cr, layout, low, x, bottom + 10 + shift, label_width, TRUE);
    }
}

static void
sl_parallel_coordinates_snapshot (GtkWidget   *widget,
                                  GtkSnapshot *snapshot)
{
  SlParallelCoordinates *self = SL_PARALLEL_COORDINATES (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkRGBA fg;
  cairo_t *cr;

  if (width <= 0 || height <= 0 || self->table == NULL || self->axes->len == 0)
    return;

  sl_widget_get_foreground (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_runs (self, cr, &fg);
  draw_axes (self, cr, &fg);
  cairo_destroy (cr);
}

static void
sl_parallel_coordinates_measure (GtkWidget      *widget,
                                 GtkOrientation  orientation,
                                 int             for_size,
                                 int            *minimum,
                                 int            *natural,
                                 int            *minimum_baseline,
                                 int            *natural_baseline)
{
  SlParallelCoordinates *self = SL_PARALLEL_COORDINATES (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 2 * MARGIN_X + 60;
      *natural = 2 * MARGIN_X + MAX (1, self->axes->len) * 110;
    }
  else
    {
      *minimum = MARGIN_TOP + MARGIN_BOTTOM + 40;
      *natural = MARGIN_TOP + MARGIN_BOTTOM + 260;
    }
}

static gint
axis_near (SlParallelCoordinates *self,
           double                 x)
{
  for (guint a = 0; a < self->axes->len; a++)
    if (fabs (axis_x (self, a) - x) <= AXIS_GRAB)
      return (gint) a;
  return -1;
}

static void
drag_begin_cb (GtkGestureDrag        *gesture,
               double                 x,
               double                 y,
               SlParallelCoordinates *self)
{
  self->drag_axis = self->table != NULL ? axis_near (self, x) : -1;
  self->drag_start = y;
  if (self->drag_axis < 0)
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
}

static void
drag_update_cb (GtkGestureDrag        *gesture,
                double                 dx,
                double                 dy,
                SlParallelCoordinates *self)
{
  double a, b;

  if (self->drag_axis < 0 || fabs (dy) < 3)
    return;
  a = y_to_place (self, self->drag_start);
  b = y_to_place (self, self->drag_start + dy);
  sl_parallel_coordinates_set_brush (self, self->drag_axis, MIN (a, b), MAX (a, b));
}

/* A click without a drag clears the axis's brush. */
static void
drag_end_cb (GtkGestureDrag        *gesture,
             double                 dx,
             double                 dy,
             SlParallelCoordinates *self)
{
  if (self->drag_axis >= 0 && fabs (dy) < 3 && g_array_index (self->brushes, Brush, self->drag_axis).active)
    {
      g_array_index (self->brushes, Brush, self->drag_axis).active = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      g_signal_emit (self, signals[SIGNAL_BRUSH_CHANGED], 0);
    }
  self->drag_axis = -1;
}

static gboolean
query_tooltip_cb (GtkWidget             *widget,
                  int                    x,
                  int                    y,
                  gboolean               keyboard,
                  GtkTooltip            *tooltip,
                  SlParallelCoordinates *self)
{
  gint axis = self->table != NULL ? axis_near (self, x) : -1;
  const SlLineageColumn *info;
  g_autofree char *text = NULL;

  if (axis < 0)
    return FALSE;
  info = sl_lineage_table_get_column (self->table, g_array_index (self->axes, guint, axis));
  text = g_strdup_printf (_("%s (%s)\nDrag along the axis to brush a range; click it to clear the brush."),
                          info->key, sl_lineage_group_to_label (info->group));
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
sl_parallel_coordinates_dispose (GObject *object)
{
  SlParallelCoordinates *self = SL_PARALLEL_COORDINATES (object);

  g_clear_object (&self->table);
  g_clear_pointer (&self->axes, g_array_unref);
  g_clear_pointer (&self->brushes, g_array_unref);

  G_OBJECT_CLASS (sl_parallel_coordinates_parent_class)->dispose (object);
}

static void
sl_parallel_coordinates_class_init (SlParallelCoordinatesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_parallel_coordinates_dispose;
  widget_class->snapshot = sl_parallel_coordinates_snapshot;
  widget_class->measure = sl_parallel_coordinates_measure;

  /**
   * SlParallelCoordinates::brush-changed:
   *
   * A brush was drawn, moved or cleared.
   */
  signals[SIGNAL_BRUSH_CHANGED] = g_signal_new ("brush-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "parallel-coordinates");
}

static void
sl_parallel_coordinates_init (SlParallelCoordinates *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->axes = g_array_new (FALSE, FALSE, sizeof (guint));
  self->brushes = g_array_new (FALSE, TRUE, sizeof (Brush));
  self->target = -1;
  self->selected = -1;
  self->drag_axis = -1;

  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
}

GtkWidget *
sl_parallel_coordinates_new (void)
{
  return g_object_new (SL_TYPE_PARALLEL_COORDINATES, NULL);
}

void
sl_parallel_coordinates_set_table (SlParallelCoordinates *self,
                                   SlLineageTable        *table,
                                   GArray                *axes,
                                   gint                   target)
{
  g_return_if_fail (SL_IS_PARALLEL_COORDINATES (self));
  g_return_if_fail (table == NULL || SL_IS_LINEAGE_TABLE (table));

  g_set_object (&self->table, table);
  g_array_set_size (self->axes, 0);
  if (axes != NULL)
    g_array_append_vals (self->axes, axes->data, axes->len);
  g_array_set_size (self->brushes, 0);
  g_array_set_size (self->brushes, self->axes->len);
  self->target = target;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_BRUSH_CHANGED], 0);
}

guint
sl_parallel_coordinates_get_n_axes (SlParallelCoordinates *self)
{
  g_return_val_if_fail (SL_IS_PARALLEL_COORDINATES (self), 0);
  return self->axes->len;
}

void
sl_parallel_coordinates_set_selected (SlParallelCoordinates *self,
                                      gint                   run)
{
  g_return_if_fail (SL_IS_PARALLEL_COORDINATES (self));

  if (self->selected == run)
    return;
  self->selected = run;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_parallel_coordinates_set_brush (SlParallelCoordinates *self,
                                   guint                  axis,
                                   double                 low,
                                   double                 high)
{
  Brush *brush;

  g_return_if_fail (SL_IS_PARALLEL_COORDINATES (self));
  g_return_if_fail (axis < self->brushes->len);

  brush = &g_array_index (self->brushes, Brush, axis);
  brush->active = TRUE;
  brush->low = CLAMP (MIN (low, high), 0, 1);
  brush->high = CLAMP (MAX (low, high), 0, 1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_BRUSH_CHANGED], 0);
}

void
sl_parallel_coordinates_clear_brushes (SlParallelCoordinates *self)
{
  g_return_if_fail (SL_IS_PARALLEL_COORDINATES (self));

  for (guint i = 0; i < self->brushes->len; i++)
    g_array_index (self->brushes, Brush, i).active = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_BRUSH_CHANGED], 0);
}

void
sl_parallel_coordinates_refresh (SlParallelCoordinates *self)
{
  g_return_if_fail (SL_IS_PARALLEL_COORDINATES (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
