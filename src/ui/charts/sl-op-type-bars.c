/* sl-op-type-bars.c
 *
 * The top op types by total time, one bar each with its share of all op
 * time. The rows are picked and sorted once when the table is set; a frame
 * only draws them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-widget-style.h"
#include "sl-op-row.h"
#include "sl-op-type-bars.h"
#include "sl-scalar-chart-renderer.h"
#include "sl-tooltip.h"

#define MAX_BARS 10
#define BAR_HEIGHT 18
#define BAR_GAP 4
#define LABEL_WIDTH 180
#define VALUE_WIDTH 150
#define PADDING 8

struct _SlOpTypeBars
{
  GtkWidget   parent_instance;

  GPtrArray  *rows;       /* SlOpRow, longest total first, at most MAX_BARS */
  gint64      all_ns;     /* total of every type, for shares */
  gint64      max_ns;
  SlTimeUnit  unit;
};

G_DEFINE_FINAL_TYPE (SlOpTypeBars, sl_op_type_bars, GTK_TYPE_WIDGET)

enum {
  TYPE_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static int
compare_total_desc (gconstpointer a,
                    gconstpointer b)
{
  gint64 ta = sl_op_row_get_total_ns (*(SlOpRow **)a);
  gint64 tb = sl_op_row_get_total_ns (*(SlOpRow **)b);

  return ta < tb ? 1 : ta > tb ? -1 : 0;
}

static int
row_at (SlOpTypeBars *self,
        double        y)
{
  int index = (int)floor ((y - PADDING) / (BAR_HEIGHT + BAR_GAP));

  if (y < PADDING || index < 0 || (guint)index >= self->rows->len)
    return -1;
  return index;
}

static void
show_text_fitting (cairo_t     *cr,
                   PangoLayout *layout,
                   const char  *text,
                   double       x,
                   double       y,
                   int          width,
                   PangoAlignment alignment)
{
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, width * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_alignment (layout, alignment);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

/**
 * sl_op_type_bars_draw:
 *
 * Draws the bars into @cr; used by the widget and by image export.
 */
void
sl_op_type_bars_draw (SlOpTypeBars *self,
                      cairo_t      *cr,
                      int           width,
                      int           height)
{
  g_autoptr(PangoLayout) layout = NULL;
  int bar_space = width - LABEL_WIDTH - VALUE_WIDTH - 4 * PADDING;
  GdkRGBA fg;

  g_return_if_fail (SL_IS_OP_TYPE_BARS (self));

  if (self->rows->len == 0 || bar_space <= 10)
    return;

  sl_widget_get_foreground (GTK_WIDGET (self), &fg);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);

  for (guint i = 0; i < self->rows->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (self->rows, i);
      double y = PADDING + i * (BAR_HEIGHT + BAR_GAP);
      double share = self->all_ns > 0 ? (double)sl_op_row_get_total_ns (row) / self->all_ns : 0;
      double length = self->max_ns > 0 ? (double)sl_op_row_get_total_ns (row) / self->max_ns * bar_space : 0;
      g_autofree char *total = sl_time_format_ns (sl_op_row_get_total_ns (row), self->unit);
      g_autofree char *value = g_strdup_printf ("%s  %.1f%%", total, share * 100);
      double rgb[3];
      int text_height;

      sl_scalar_chart_renderer_get_palette_color (i, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, LABEL_WIDTH + 2 * PADDING, y, MAX (1, length), BAR_HEIGHT);
      cairo_fill (cr);

      pango_layout_set_text (layout, "Ag", -1);
      pango_layout_get_pixel_size (layout, NULL, &text_height);
      gdk_cairo_set_source_rgba (cr, &fg);
      show_text_fitting (cr, layout, sl_op_row_get_op_type (row), PADDING, y + (BAR_HEIGHT - text_height) / 2.0,
                         LABEL_WIDTH, PANGO_ALIGN_RIGHT);
      show_text_fitting (cr, layout, value, LABEL_WIDTH + 3 * PADDING + length, y + (BAR_HEIGHT - text_height) / 2.0,
                         VALUE_WIDTH, PANGO_ALIGN_LEFT);
    }
}

static void
sl_op_type_bars_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  sl_op_type_bars_draw (SL_OP_TYPE_BARS (widget), cr, width, height);
  cairo_destroy (cr);
}

static void
sl_op_type_bars_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  SlOpTypeBars *self = SL_OP_TYPE_BARS (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = LABEL_WIDTH + VALUE_WIDTH + 4 * PADDING + 60;
      *natural = *minimum + 300;
    }
  else
    {
      *minimum = *natural = self->rows->len ? 2 * PADDING + self->rows->len * (BAR_HEIGHT + BAR_GAP) : 0;
    }
}

/**
 * sl_op_type_bars_describe_at:
 *
 * Returns: (transfer full) (nullable): the full name, count, total,
 *   average and share of the op type under (@x, @y)
 */
char *
sl_op_type_bars_describe_at (SlOpTypeBars *self,
                             double        x,
                             double        y)
{
  SlOpRow *row;
  int index;
  g_autofree char *total = NULL;
  g_autofree char *average = NULL;
  g_autofree char *calls = NULL;

  g_return_val_if_fail (SL_IS_OP_TYPE_BARS (self), NULL);

  if ((index = row_at (self, y)) < 0)
    return NULL;

  row = g_ptr_array_index (self->rows, index);
  total = sl_time_format_ns (sl_op_row_get_total_ns (row), self->unit);
  average = sl_time_format_ns (sl_op_row_get_avg_ns (row), self->unit);
  calls = sl_count_format (sl_op_row_get_count (row));
  return g_strdup_printf (_("%s\n%s calls, %s in all, %s on average, %.2f%% of op time"),
                          sl_op_row_get_op_type (row), calls, total, average,
                          self->all_ns > 0 ? 100.0 * sl_op_row_get_total_ns (row) / self->all_ns : 0.0);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  g_autofree char *text = sl_op_type_bars_describe_at (SL_OP_TYPE_BARS (widget), x, y);

  if (text == NULL)
    return FALSE;

  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            SlOpTypeBars    *self)
{
  int index = row_at (self, y);

  if (index >= 0)
    g_signal_emit (self, signals[TYPE_ACTIVATED], 0,
                   sl_op_row_get_op_type (g_ptr_array_index (self->rows, index)));
}

static void
sl_op_type_bars_dispose (GObject *object)
{
  SlOpTypeBars *self = SL_OP_TYPE_BARS (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_op_type_bars_parent_class)->dispose (object);
}

static void
sl_op_type_bars_class_init (SlOpTypeBarsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_op_type_bars_dispose;
  widget_class->snapshot = sl_op_type_bars_snapshot;
  widget_class->measure = sl_op_type_bars_measure;

  /**
   * SlOpTypeBars::type-activated:
   * @op_type: the op type clicked
   */
  signals[TYPE_ACTIVATED] =
    g_signal_new ("type-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "opbars");
}

static void
sl_op_type_bars_init (SlOpTypeBars *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "pointer");
}

GtkWidget *
sl_op_type_bars_new (void)
{
  return g_object_new (SL_TYPE_OP_TYPE_BARS, NULL);
}

/**
 * sl_op_type_bars_set_types:
 * @types: (nullable): a #GListModel of #SlOpRow, one per op type
 */
void
sl_op_type_bars_set_types (SlOpTypeBars *self,
                           GListModel   *types)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);
  guint n;

  g_return_if_fail (SL_IS_OP_TYPE_BARS (self));

  n = types ? g_list_model_get_n_items (types) : 0;
  self->all_ns = 0;
  for (guint i = 0; i < n; i++)
    {
      SlOpRow *row = g_list_model_get_item (types, i);

      self->all_ns += MAX (0, sl_op_row_get_total_ns (row));
      g_ptr_array_add (all, row);
    }
  g_ptr_array_sort (all, compare_total_desc);

  g_ptr_array_set_size (self->rows, 0);
  for (guint i = 0; i < MIN (all->len, MAX_BARS); i++)
    g_ptr_array_add (self->rows, g_object_ref (g_ptr_array_index (all, i)));
  self->max_ns = self->rows->len ? sl_op_row_get_total_ns (g_ptr_array_index (self->rows, 0)) : 0;

  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
sl_op_type_bars_set_time_unit (SlOpTypeBars *self,
                               SlTimeUnit    unit)
{
  g_return_if_fail (SL_IS_OP_TYPE_BARS (self));

  self->unit = unit;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
sl_op_type_bars_get_n_bars (SlOpTypeBars *self)
{
  g_return_val_if_fail (SL_IS_OP_TYPE_BARS (self), 0);
  return self->rows->len;
}
