/* sl-lineage-scatter.c
 *
 * A point a run that passes the table's filters and has both values.
 * Numbers are placed by value with ticks; categories evenly, with their
 * names. Marked runs (brushed in the parallel coordinates) are drawn in
 * colour and the others faint when any is marked; the selected run gets
 * a ring.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-chart-axis.h"
#include "sl-lineage-scatter.h"
#include "sl-scalar-chart-renderer.h"
#include "sl-widget-style.h"

#define MARGIN_LEFT   72
#define MARGIN_RIGHT  24
#define MARGIN_TOP    20
#define MARGIN_BOTTOM 44
#define RADIUS        4.5

struct _SlLineageScatter
{
  GtkWidget       parent_instance;

  SlLineageTable *table;
  gint            x_column;
  gint            y_column;
  gint            selected;
  GArray         *marked;    /* gboolean, one a run */
};

G_DEFINE_FINAL_TYPE (SlLineageScatter, sl_lineage_scatter, GTK_TYPE_WIDGET)

/* From 0 to 1 along @column's axis; FALSE without a value. */
static gboolean
place (SlLineageScatter *self,
       gint              column,
       guint             run,
       double           *out)
{
  const SlLineageColumn *info = sl_lineage_table_get_column (self->table, column);
  const char *text = sl_lineage_table_get_text (self->table, run, column);
  double value;
  guint index;

  if (text == NULL)
    return FALSE;
  if (info->type == SL_LINEAGE_COLUMN_NUMERIC && sl_lineage_parse_number (text, &value))
    {
      *out = info->max > info->min ? (value - info->min) / (info->max - info->min) : 0.5;
      return TRUE;
    }
  if (!g_ptr_array_find_with_equal_func (info->categories, text, g_str_equal, &index))
    return FALSE;
  *out = (index + 0.5) / info->categories->len;
  return TRUE;
}

static gboolean
has_columns (SlLineageScatter *self)
{
  return self->table != NULL && self->x_column >= 0 && self->y_column >= 0 &&
         (guint) self->x_column < sl_lineage_table_get_n_columns (self->table) &&
         (guint) self->y_column < sl_lineage_table_get_n_columns (self->table);
}

static gboolean
point_of (SlLineageScatter *self,
          guint             run,
          double            width,
          double            height,
          double           *x,
          double           *y)
{
  double px, py;

  if (!sl_lineage_table_run_passes (self->table, run) ||
      !place (self, self->x_column, run, &px) || !place (self, self->y_column, run, &py))
    return FALSE;
  /* A little inset, so points at the ends are not cut by the frame. */
  *x = MARGIN_LEFT + (0.04 + 0.92 * px) * (width - MARGIN_LEFT - MARGIN_RIGHT);
  *y = MARGIN_TOP + (1 - (0.04 + 0.92 * py)) * (height - MARGIN_TOP - MARGIN_BOTTOM);
  return TRUE;
}

guint
sl_lineage_scatter_get_n_points (SlLineageScatter *self)
{
  guint n = 0;
  double x, y;

  g_return_val_if_fail (SL_IS_LINEAGE_SCATTER (self), 0);

  if (!has_columns (self))
    return 0;
  for (guint r = 0; r < sl_lineage_table_get_n_runs (self->table); r++)
    n += point_of (self, r, 100, 100, &x, &y);
  return n;
}

static void
show_text (cairo_t     *cr,
           PangoLayout *layout,
           const char  *text,
           double       x,
           double       y,
           double       max_width,
           double       align)   /* 0 left, 0.5 centre, 1 right of x */
{
  int width, height;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, x - width * align, y - height / 2.0);
  pango_cairo_show_layout (cr, layout);
}

/* Ticks along one axis: @horizontal for x. */
static void
draw_ticks (SlLineageScatter *self,
            cairo_t          *cr,
            PangoLayout      *layout,
            gint              column,
            gboolean          horizontal,
            double            width,
            double            height,
            const GdkRGBA    *fg)
{
  const SlLineageColumn *info = sl_lineage_table_get_column (self->table, column);
  double span = horizontal ? width - MARGIN_LEFT - MARGIN_RIGHT : height - MARGIN_TOP - MARGIN_BOTTOM;
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) places = g_array_new (FALSE, FALSE, sizeof (double));

  if (info->type == SL_LINEAGE_COLUMN_NUMERIC)
    {
      g_autoptr(GArray) ticks = sl_chart_ticks_linear (info->min, info->max, horizontal ? 6 : 5);

      for (guint i = 0; i < ticks->len; i++)
        {
          const SlChartTick *tick = &g_array_index (ticks, SlChartTick, i);
          double p = info->max > info->min ? (tick->value - info->min) / (info->max - info->min) : 0.5;

          if (p < -1e-9 || p > 1 + 1e-9)
            continue;
          p = 0.04 + 0.92 * p;
          g_array_append_val (places, p);
          g_ptr_array_add (labels, g_strdup (tick->label));
        }
    }
  else
    for (guint k = 0; k < info->categories->len; k++)
      {
        double p = 0.04 + 0.92 * (k + 0.5) / info->categories->len;

        g_array_append_val (places, p);
        g_ptr_array_add (labels, g_strdup (g_ptr_array_index (info->categories, k)));
      }

  for (guint i = 0; i < places->len; i++)
    {
      double p = g_array_index (places, double, i);

      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.12);
      if (horizontal)
        {
          double x = MARGIN_LEFT + p * span;

          cairo_move_to (cr, x + 0.5, MARGIN_TOP);
          cairo_line_to (cr, x + 0.5, height - MARGIN_BOTTOM);
          cairo_stroke (cr);
          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
          show_text (cr, layout, g_ptr_array_index (labels, i), x, height - MARGIN_BOTTOM + 10,
                     MAX (30, span / MAX (1, places->len)), 0.5);
        }
      else
        {
          double y = MARGIN_TOP + (1 - p) * span;

          cairo_move_to (cr, MARGIN_LEFT, y + 0.5);
          cairo_line_to (cr, width - MARGIN_RIGHT, y + 0.5);
          cairo_stroke (cr);
          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.7);
          show_text (cr, layout, g_ptr_array_index (labels, i), MARGIN_LEFT - 6, y, MARGIN_LEFT - 8, 1);
        }
    }
}

static gboolean
is_marked (SlLineageScatter *self,
           guint             run)
{
  return self->marked != NULL && run < self->marked->len && g_array_index (self->marked, gboolean, run);
}

static gboolean
any_marked (SlLineageScatter *self)
{
  for (guint i = 0; self->marked != NULL && i < self->marked->len; i++)
    if (g_array_index (self->marked, gboolean, i))
      return TRUE;
  return FALSE;
}

static void
draw_points (SlLineageScatter *self,
             cairo_t          *cr,
             double            width,
             double            height,
             const GdkRGBA    *fg)
{
  gboolean marking = any_marked (self);
  double rgb[3], x, y;

  sl_scalar_chart_renderer_get_palette_color (0, rgb);
  for (guint r = 0; r < sl_lineage_table_get_n_runs (self->table); r++)
    {
      if (!point_of (self, r, width, height, &x, &y))
        continue;
      cairo_arc (cr, x, y, RADIUS, 0, 2 * G_PI);
      if (!marking || is_marked (self, r))
        cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.9);
      else
        cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.2);
      cairo_fill (cr);
    }

  if (self->selected >= 0 && (guint) self->selected < sl_lineage_table_get_n_runs (self->table) &&
      point_of (self, self->selected, width, height, &x, &y))
    {
      gdk_cairo_set_source_rgba (cr, fg);
      cairo_set_line_width (cr, 2);
      cairo_arc (cr, x, y, RADIUS + 3.5, 0, 2 * G_PI);
      cairo_stroke (cr);
    }
}

static void
sl_lineage_scatter_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  SlLineageScatter *self = SL_LINEAGE_SCATTER (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = NULL;
  const SlLineageColumn *x_info, *y_info;
  GdkRGBA fg;
  cairo_t *cr;

  if (width <= MARGIN_LEFT + MARGIN_RIGHT || height <= MARGIN_TOP + MARGIN_BOTTOM || !has_columns (self))
    return;

  sl_widget_get_foreground (widget, &fg);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_line_width (cr, 1);
  draw_ticks (self, cr, layout, self->x_column, TRUE, width, height, &fg);
  draw_ticks (self, cr, layout, self->y_column, FALSE, width, height, &fg);

  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.5);
  cairo_rectangle (cr, MARGIN_LEFT + 0.5, MARGIN_TOP + 0.5, width - MARGIN_LEFT - MARGIN_RIGHT - 1,
                   height - MARGIN_TOP - MARGIN_BOTTOM - 1);
  cairo_stroke (cr);

  x_info = sl_lineage_table_get_column (self->table, self->x_column);
  y_info = sl_lineage_table_get_column (self->table, self->y_column);
  gdk_cairo_set_source_rgba (cr, &fg);
  show_text (cr, layout, x_info->key, (MARGIN_LEFT + width - MARGIN_RIGHT) / 2.0, height - 12, width / 2.0, 0.5);
  show_text (cr, layout, y_info->key, MARGIN_LEFT + 6, MARGIN_TOP + 10, width / 2.0, 0);

  draw_points (self, cr, width, height, &fg);
  cairo_destroy (cr);
}

static void
sl_lineage_scatter_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? MARGIN_LEFT + MARGIN_RIGHT + 120 : MARGIN_TOP + MARGIN_BOTTOM + 100;
  *natural = *minimum + 300;
}

static void
sl_lineage_scatter_dispose (GObject *object)
{
  SlLineageScatter *self = SL_LINEAGE_SCATTER (object);

  g_clear_object (&self->table);
  g_clear_pointer (&self->marked, g_array_unref);

  G_OBJECT_CLASS (sl_lineage_scatter_parent_class)->dispose (object);
}

static void
sl_lineage_scatter_class_init (SlLineageScatterClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sl_lineage_scatter_dispose;
  widget_class->snapshot = sl_lineage_scatter_snapshot;
  widget_class->measure = sl_lineage_scatter_measure;
  gtk_widget_class_set_css_name (widget_class, "lineage-scatter");
}

static void
sl_lineage_scatter_init (SlLineageScatter *self)
{
  self->x_column = self->y_column = self->selected = -1;
}

GtkWidget *
sl_lineage_scatter_new (void)
{
  return g_object_new (SL_TYPE_LINEAGE_SCATTER, NULL);
}

void
sl_lineage_scatter_set_columns (SlLineageScatter *self,
                                SlLineageTable   *table,
                                gint              x_column,
                                gint              y_column)
{
  g_return_if_fail (SL_IS_LINEAGE_SCATTER (self));
  g_return_if_fail (table == NULL || SL_IS_LINEAGE_TABLE (table));

  g_set_object (&self->table, table);
  self->x_column = x_column;
  self->y_column = y_column;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_lineage_scatter_set_selected (SlLineageScatter *self,
                                 gint              run)
{
  g_return_if_fail (SL_IS_LINEAGE_SCATTER (self));

  self->selected = run;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_lineage_scatter_set_marked (SlLineageScatter *self,
                               GArray           *marked)
{
  g_return_if_fail (SL_IS_LINEAGE_SCATTER (self));

  g_clear_pointer (&self->marked, g_array_unref);
  if (marked != NULL)
    self->marked = g_array_ref (marked);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
