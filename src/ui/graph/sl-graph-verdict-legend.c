/* sl-graph-verdict-legend.c: what the colours of a graph tinted by a
 * tensor comparison mean
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-graph-renderer.h"
#include "sl-graph-verdict-legend.h"

struct _SlGraphVerdictLegend
{
  GtkWidget  parent_instance;

  GtkWidget *box;
  GtkWidget *swatches[SL_GRAPH_LEGEND_N_ROWS];
  GtkWidget *count_labels[SL_GRAPH_LEGEND_N_ROWS];
  guint      counts[SL_GRAPH_LEGEND_N_ROWS];
};

G_DEFINE_FINAL_TYPE (SlGraphVerdictLegend, sl_graph_verdict_legend, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CLEAR,
  SIGNAL_DISMISSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const row_names[SL_GRAPH_LEGEND_N_ROWS] = {
  N_("Pass"), N_("Warning"), N_("Error"), N_("Not compared"),
};

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

static GtkWidget *
flat_button (const char *icon_name,
             const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "circular");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  return button;
}

static GtkWidget *
build_header (SlGraphVerdictLegend *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *title = gtk_label_new (_("Verdicts"));
  GtkWidget *clear = gtk_button_new_with_mnemonic (_("C_lear"));
  GtkWidget *close = flat_button ("window-close-symbolic", _("Hide the Legend"));

  gtk_widget_set_tooltip_text (clear, _("Clear the Verdict Colours"));
  gtk_widget_add_css_class (clear, "flat");
  gtk_widget_set_valign (clear, GTK_ALIGN_CENTER);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_widget_add_css_class (title, "heading");
  g_signal_connect_swapped (clear, "clicked", G_CALLBACK (sl_graph_verdict_legend_clear), self);
  g_signal_connect_swapped (close, "clicked", G_CALLBACK (sl_graph_verdict_legend_dismiss), self);
  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (header), clear);
  gtk_box_append (GTK_BOX (header), close);
  return header;
}

static GtkWidget *
build_rows (SlGraphVerdictLegend *self)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  for (guint i = 0; i < SL_GRAPH_LEGEND_N_ROWS; i++)
    {
      GtkWidget *name = gtk_label_new (_(row_names[i]));

      self->swatches[i] = gtk_drawing_area_new ();
      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (self->swatches[i]), 16);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->swatches[i]), 12);
      gtk_widget_set_valign (self->swatches[i], GTK_ALIGN_CENTER);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->swatches[i]), draw_swatch, GINT_TO_POINTER (i), NULL);
      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_widget_set_hexpand (name, TRUE);
      self->count_labels[i] = gtk_label_new ("0");
      gtk_label_set_xalign (GTK_LABEL (self->count_labels[i]), 1);
      gtk_widget_add_css_class (self->count_labels[i], "numeric");
      gtk_widget_add_css_class (self->count_labels[i], "dim-label");
      gtk_grid_attach (GTK_GRID (grid), self->swatches[i], 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), name, 1, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), self->count_labels[i], 2, i, 1, 1);
    }
  return grid;
}

static void
sl_graph_verdict_legend_dispose (GObject *object)
{
  SlGraphVerdictLegend *self = SL_GRAPH_VERDICT_LEGEND (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
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
}

static void
sl_graph_verdict_legend_init (SlGraphVerdictLegend *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_add_css_class (self->box, "card");
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 12);
  gtk_box_append (GTK_BOX (self->box), build_header (self));
  gtk_box_append (GTK_BOX (self->box), build_rows (self));
  /* The card's padding, as a box has none of its own. */
  for (GtkWidget *child = gtk_widget_get_first_child (self->box); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      gtk_widget_set_margin_start (child, 10);
      gtk_widget_set_margin_end (child, child == gtk_widget_get_first_child (self->box) ? 4 : 10);
    }
  gtk_widget_set_margin_top (gtk_widget_get_first_child (self->box), 4);
  gtk_widget_set_margin_bottom (gtk_widget_get_last_child (self->box), 10);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
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
      g_autofree char *text = g_strdup_printf ("%u", counts[i]);

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
