/* sl-graph-verdict-legend.c: what the colours of a graph tinted by a
 * tensor comparison mean
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-graph-renderer.h"
#include "sl-graph-verdict-legend.h"

struct _SlGraphVerdictLegend
{
  GtkWidget  parent_instance;

  GtkWidget *swatches[SL_GRAPH_LEGEND_N_ROWS];
  GtkWidget *count_labels[SL_GRAPH_LEGEND_N_ROWS];
  guint      counts[SL_GRAPH_LEGEND_N_ROWS];

  /* Template children, in SlGraphLegendRow's order */
  GtkWidget *swatch_pass;
  GtkWidget *swatch_warning;
  GtkWidget *swatch_error;
  GtkWidget *swatch_not_compared;
  GtkLabel  *count_pass;
  GtkLabel  *count_warning;
  GtkLabel  *count_error;
  GtkLabel  *count_not_compared;
};

G_DEFINE_FINAL_TYPE (SlGraphVerdictLegend, sl_graph_verdict_legend, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CLEAR,
  SIGNAL_DISMISSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The same fill and outline an op of that verdict has on the canvas. */
static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  int row = GPOINTER_TO_INT (user_data);
  double fill[3], stroke[3];
  int verdict = row == SL_GRAPH_LEGEND_NOT_COMPARED ? -1 : row;

  sl_graph_renderer_get_verdict_colors (adw_style_manager_get_dark (adw_style_manager_get_default ()),
                                        verdict, fill, stroke);
  cairo_rectangle (cr, 1, 1, width - 2, height - 2);
  cairo_set_source_rgb (cr, fill[0], fill[1], fill[2]);
  cairo_fill_preserve (cr);
  cairo_set_line_width (cr, 1.5);
  cairo_set_source_rgb (cr, stroke[0], stroke[1], stroke[2]);
  cairo_stroke (cr);
}

static void
redraw_swatches (SlGraphVerdictLegend *self)
{
  for (guint i = 0; i < SL_GRAPH_LEGEND_N_ROWS; i++)
    gtk_widget_queue_draw (self->swatches[i]);
}

static void
sl_graph_verdict_legend_dispose (GObject *object)
{
  SlGraphVerdictLegend *self = SL_GRAPH_VERDICT_LEGEND (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_GRAPH_VERDICT_LEGEND);
  G_OBJECT_CLASS (sl_graph_verdict_legend_parent_class)->dispose (object);
}

static void
sl_graph_verdict_legend_class_init (SlGraphVerdictLegendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_graph_verdict_legend_dispose;

  /* The tint should go: the page clears it. */
  signals[SIGNAL_CLEAR] = g_signal_new ("clear", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Only the card should go; the tint stays. */
  signals[SIGNAL_DISMISSED] = g_signal_new ("dismissed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                            0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sl-graph-verdict-legend");
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-graph-verdict-legend.ui");
  gtk_widget_class_bind_template_child (widget_class, SlGraphVerdictLegend, swatch_pass);
  gtk_widget_class_bind_template_child (widget_class, SlGraphVerdictLegend, swatch_warning);
  gtk_widget_class_bind_template_child (widget_class, SlGraphVerdictLegend, swatch_error);
  gtk_widget_class_bind_template_child (widget_class, SlGraphVerdictLegend, swatch_not_compared);
  gtk_widget_class_bind_template_child (widget_class, SlGraphVerdictLegend, count_pass);
  gtk_widget_class_bind_template_child (widget_class, SlGraphVerdictLegend, count_warning);
  gtk_widget_class_bind_template_child (widget_class, SlGraphVerdictLegend, count_error);
  gtk_widget_class_bind_template_child (widget_class, SlGraphVerdictLegend, count_not_compared);
  gtk_widget_class_bind_template_callback (widget_class, sl_graph_verdict_legend_clear);
  gtk_widget_class_bind_template_callback (widget_class, sl_graph_verdict_legend_dismiss);
}

static void
sl_graph_verdict_legend_init (SlGraphVerdictLegend *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->swatches[SL_GRAPH_LEGEND_PASS] = self->swatch_pass;
  self->swatches[SL_GRAPH_LEGEND_WARNING] = self->swatch_warning;
  self->swatches[SL_GRAPH_LEGEND_ERROR] = self->swatch_error;
  self->swatches[SL_GRAPH_LEGEND_NOT_COMPARED] = self->swatch_not_compared;
  self->count_labels[SL_GRAPH_LEGEND_PASS] = GTK_WIDGET (self->count_pass);
  self->count_labels[SL_GRAPH_LEGEND_WARNING] = GTK_WIDGET (self->count_warning);
  self->count_labels[SL_GRAPH_LEGEND_ERROR] = GTK_WIDGET (self->count_error);
  self->count_labels[SL_GRAPH_LEGEND_NOT_COMPARED] = GTK_WIDGET (self->count_not_compared);
  /* The swatches are drawn: the renderer's colours, which follow the style. */
  for (guint i = 0; i < SL_GRAPH_LEGEND_N_ROWS; i++)
    gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->swatches[i]), draw_swatch, GINT_TO_POINTER (i), NULL);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (redraw_swatches), self);
}

GtkWidget *
sl_graph_verdict_legend_new (void)
{
  return g_object_new (SL_TYPE_GRAPH_VERDICT_LEGEND, NULL);
}

void
sl_graph_verdict_legend_set_counts (SlGraphVerdictLegend *self,
                                    const guint          *counts)
{
  g_return_if_fail (SL_IS_GRAPH_VERDICT_LEGEND (self));
  g_return_if_fail (counts != NULL);

  for (guint i = 0; i < SL_GRAPH_LEGEND_N_ROWS; i++)
    {
      g_autofree char *text = sl_count_format (counts[i]);

      self->counts[i] = counts[i];
      gtk_label_set_text (GTK_LABEL (self->count_labels[i]), text);
    }
}

guint
sl_graph_verdict_legend_get_count (SlGraphVerdictLegend *self,
                                   SlGraphLegendRow      row)
{
  g_return_val_if_fail (SL_IS_GRAPH_VERDICT_LEGEND (self), 0);
  g_return_val_if_fail (row < SL_GRAPH_LEGEND_N_ROWS, 0);
  return self->counts[row];
}

void
sl_graph_verdict_legend_clear (SlGraphVerdictLegend *self)
{
  g_return_if_fail (SL_IS_GRAPH_VERDICT_LEGEND (self));
  g_signal_emit (self, signals[SIGNAL_CLEAR], 0);
}

void
sl_graph_verdict_legend_dismiss (SlGraphVerdictLegend *self)
{
  g_return_if_fail (SL_IS_GRAPH_VERDICT_LEGEND (self));
  g_signal_emit (self, signals[SIGNAL_DISMISSED], 0);
}
