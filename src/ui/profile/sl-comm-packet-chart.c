/* sl-comm-packet-chart.c
 *
 * One bar per (size, link type), sizes in ascending order, the height
 * the number of transfers. An op has a handful of sizes, so bars are as
 * wide as the widget allows up to a limit and every size is labelled.
 * Colours are fixed per link type, so HCCS is the same colour in every
 * op and in both styles.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-comm-packet-chart.h"
#include "sl-widget-style.h"
#include "sl-tooltip.h"

#define MARGIN_LEFT   40
#define MARGIN_RIGHT  8
#define MARGIN_TOP    20
#define MARGIN_BOTTOM 22
#define MAX_BAR_WIDTH 28
#define MAX_BARS      256

typedef struct {
  char   *transport;
  double  size_mb;
  double  count;
  double  time_ms;
} Bar;

struct _SlCommPacketChart
{
  GtkWidget  parent_instance;
  GArray    *bars;     /* Bar, by size then transport */
  double     max_count;
};

G_DEFINE_FINAL_TYPE (SlCommPacketChart, sl_comm_packet_chart, GTK_TYPE_WIDGET)

static void
transport_color (const char *transport,
                 GdkRGBA    *color)
{
  static const struct { const char *name; const char *rgb; } palette[] = {
    { "HCCS", "#3584e4" }, { "SDMA", "#2ec27e" }, { "RDMA", "#e66100" },
    { "PCIE", "#9141ac" }, { "SIO", "#c64600" }, { "LOCAL", "#865e3c" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    if (g_ascii_strcasecmp (palette[i].name, transport) == 0)
      {
        gdk_rgba_parse (color, palette[i].rgb);
        return;
      }
  gdk_rgba_parse (color, "#1c71d8");
}

static void
bar_clear (Bar *bar)
{
  g_free (bar->transport);
}

static int
compare_bars (gconstpointer a,
              gconstpointer b)
{
  const Bar *ba = a, *bb = b;

  if (ba->size_mb != bb->size_mb)
    return ba->size_mb < bb->size_mb ? -1 : 1;
  return g_strcmp0 (ba->transport, bb->transport);
}

static gboolean
bar_box (SlCommPacketChart *self,
         guint              index,
         double            *x,
         double            *w)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  double slot = (width - MARGIN_LEFT - MARGIN_RIGHT) / (double)MAX (self->bars->len, 1);

  if (index >= self->bars->len || slot <= 0)
    return FALSE;
  *w = MIN (slot * 0.8, MAX_BAR_WIDTH);
  *x = MARGIN_LEFT + slot * index + (slot - *w) / 2;
  return TRUE;
}

static void
draw_label (cairo_t      *cr,
            PangoLayout  *layout,
            const char   *text,
            double        x,
            double        y,
            double        xalign)
{
  int tw, th;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, x - tw * xalign, y);
  pango_cairo_show_layout (cr, layout);
}

static void
sl_comm_packet_chart_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  SlCommPacketChart *self = SL_COMM_PACKET_CHART (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double plot_h = height - MARGIN_TOP - MARGIN_BOTTOM;
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  g_autofree char *top = NULL;
  GdkRGBA fg;
  cairo_t *cr;

  if (self->bars->len == 0 || plot_h <= 0)
    return;

  sl_widget_get_foreground (widget, &fg);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_line_width (cr, 1);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.25);
  cairo_move_to (cr, MARGIN_LEFT, MARGIN_TOP + plot_h + 0.5);
  cairo_line_to (cr, width - MARGIN_RIGHT, MARGIN_TOP + plot_h + 0.5);
  cairo_stroke (cr);

  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
  top = g_strdup_printf ("%.0f", self->max_count);
  draw_label (cr, layout, top, MARGIN_LEFT - 6, MARGIN_TOP - 8, 1);
  draw_label (cr, layout, "0", MARGIN_LEFT - 6, MARGIN_TOP + plot_h - 8, 1);

  for (guint i = 0; i < self->bars->len; i++)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i);
      double x, w, h = self->max_count > 0 ? plot_h * bar->count / self->max_count : 0;
      g_autofree char *size = g_strdup_printf ("%.3g", bar->size_mb);
      GdkRGBA color;

      if (!bar_box (self, i, &x, &w))
        continue;
      transport_color (bar->transport, &color);
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_rectangle (cr, x, MARGIN_TOP + plot_h - h, w, h);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      draw_label (cr, layout, size, x + w / 2, MARGIN_TOP + plot_h + 3, 0.5);
    }
  cairo_destroy (cr);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  g_autofree char *text = sl_comm_packet_chart_describe_at (SL_COMM_PACKET_CHART (widget), x, y);

  if (text == NULL)
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
sl_comm_packet_chart_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : 110;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 320 : 150;
}

static void
sl_comm_packet_chart_finalize (GObject *object)
{
  g_array_unref (SL_COMM_PACKET_CHART (object)->bars);
  G_OBJECT_CLASS (sl_comm_packet_chart_parent_class)->finalize (object);
}

static void
sl_comm_packet_chart_class_init (SlCommPacketChartClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = sl_comm_packet_chart_finalize;
  widget_class->snapshot = sl_comm_packet_chart_snapshot;
  widget_class->measure = sl_comm_packet_chart_measure;
  gtk_widget_class_set_css_name (widget_class, "sl-comm-packet-chart");
}

static void
sl_comm_packet_chart_init (SlCommPacketChart *self)
{
  self->bars = g_array_new (FALSE, TRUE, sizeof (Bar));
  g_array_set_clear_func (self->bars, (GDestroyNotify)bar_clear);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

GtkWidget *
sl_comm_packet_chart_new (void)
{
  return g_object_new (SL_TYPE_COMM_PACKET_CHART, NULL);
}

void
sl_comm_packet_chart_set_op (SlCommPacketChart *self,
                             const SlCommOp    *op)
{
  g_return_if_fail (SL_IS_COMM_PACKET_CHART (self));

  g_array_set_size (self->bars, 0);
  self->max_count = 0;
  for (guint b = 0; op != NULL && b < op->bandwidths->len; b++)
    {
      const SlCommBandwidth *bandwidth = g_ptr_array_index (op->bandwidths, b);

      for (guint p = 0; p < bandwidth->packets->len && self->bars->len < MAX_BARS; p++)
        {
          const SlCommPackets *packets = &g_array_index (bandwidth->packets, SlCommPackets, p);
          Bar bar = { g_strdup (bandwidth->transport), packets->size_mb, packets->count, packets->time_ms };

          if (isnan (bar.size_mb) || isnan (bar.count) || bar.count < 0)
            {
              bar_clear (&bar);
              continue;
            }
          g_array_append_val (self->bars, bar);
          self->max_count = MAX (self->max_count, bar.count);
        }
    }
  g_array_sort (self->bars, compare_bars);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
sl_comm_packet_chart_get_n_bars (SlCommPacketChart *self)
{
  g_return_val_if_fail (SL_IS_COMM_PACKET_CHART (self), 0);
  return self->bars->len;
}

char *
sl_comm_packet_chart_describe_at (SlCommPacketChart *self,
                                  double             x,
                                  double             y)
{
  g_return_val_if_fail (SL_IS_COMM_PACKET_CHART (self), NULL);

  for (guint i = 0; i < self->bars->len; i++)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i);
      double bx, bw;

      if (bar_box (self, i, &bx, &bw) && x >= bx && x < bx + bw)
        /* TRANSLATORS: link type, transfer count, transfer size, time they took */
        return g_strdup_printf (_("%s: %.0f transfers of %.6g MB, %.6g ms in all"),
                                bar->transport, bar->count, bar->size_mb, bar->time_ms);
    }
  return NULL;
}
