/* sl-comm-matrix-view.c
 *
 * Square cells, rows the source rank and columns the destination, as
 * MindStudio Insight draws its communication matrix. A cell's strength
 * is its bandwidth against the op's fastest link; an empty cell is only
 * outlined. Cells are at most 40 px, so an 8-rank matrix stays small.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-comm-matrix-view.h"
#include "sl-widget-style.h"
#include "sl-tooltip.h"

#define LABEL_SPACE 36
#define MAX_CELL    40
#define MIN_CELL    4
/* Past this many ranks empty cells stay blank: outlining a cluster's
 * quarter million of them costs more than it tells. */
#define MAX_OUTLINED 64

struct _SlCommMatrixView
{
  GtkWidget        parent_instance;
  SlCommunication *comm;
  SlCommMatrix    *matrix;
  gint64           highlight_src;  /* the cell outlined (a slow link), -1 for none */
  gint64           highlight_dst;
};

G_DEFINE_FINAL_TYPE (SlCommMatrixView, sl_comm_matrix_view, GTK_TYPE_WIDGET)

static guint
n_ranks (SlCommMatrixView *self)
{
  return self->matrix != NULL ? sl_comm_matrix_get_n_ranks (self->matrix) : 0;
}

static double
cell_size (SlCommMatrixView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self)), height = gtk_widget_get_height (GTK_WIDGET (self));
  guint n = MAX (n_ranks (self), 1);

  return CLAMP (MIN (width - LABEL_SPACE, height - LABEL_SPACE) / (double)n, MIN_CELL, MAX_CELL);
}

static void
draw_text (cairo_t     *cr,
           PangoLayout *layout,
           const char  *text,
           double       cx,
           double       cy)
{
  int tw, th;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, cx - tw / 2.0, cy - th / 2.0);
  pango_cairo_show_layout (cr, layout);
}

static gint
rank_position (SlCommMatrixView *self,
               gint64            rank)
{
  for (guint i = 0; i < n_ranks (self); i++)
    if (sl_comm_matrix_get_rank (self->matrix, i) == rank)
      return (gint)i;
  return -1;
}

/* Red and thick enough to find among hundreds of small cells. */
static void
draw_highlight (SlCommMatrixView *self,
                cairo_t          *cr,
                double            size)
{
  gint row = rank_position (self, self->highlight_src), column = rank_position (self, self->highlight_dst);
  GdkRGBA red;

  if (row < 0 || column < 0)
    return;
  gdk_rgba_parse (&red, "#e01b24");
  gdk_cairo_set_source_rgba (cr, &red);
  cairo_set_line_width (cr, MAX (2, size / 8));
  cairo_rectangle (cr, LABEL_SPACE + column * size - 1, LABEL_SPACE + row * size - 1, size + 2, size + 2);
  cairo_stroke (cr);
  cairo_set_line_width (cr, 1);
}

static void
sl_comm_matrix_view_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  SlCommMatrixView *self = SL_COMM_MATRIX_VIEW (widget);
  guint n = n_ranks (self);
  double size = cell_size (self);
  double max_bw;
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA fg, strong;
  cairo_t *cr;

  if (n == 0)
    return;

  max_bw = sl_comm_matrix_get_max_bandwidth (self->matrix);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  sl_widget_get_foreground (widget, &fg);
  gdk_rgba_parse (&strong, "#3584e4");
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                gtk_widget_get_height (widget)));
  cairo_set_line_width (cr, 1);
  for (guint r = 0; r < n; r++)
    {
      g_autofree char *label = g_strdup_printf ("%lld", (long long)sl_comm_matrix_get_rank (self->matrix, r));

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      if (size >= 14)
        {
          draw_text (cr, layout, label, LABEL_SPACE / 2.0, LABEL_SPACE + (r + 0.5) * size);
          draw_text (cr, layout, label, LABEL_SPACE + (r + 0.5) * size, LABEL_SPACE / 2.0);
        }
      for (guint c = 0; c < n; c++)
        {
          const SlCommLink *link = sl_comm_matrix_get_cell (self->matrix, r, c);
          double x = LABEL_SPACE + c * size, y = LABEL_SPACE + r * size;

          if (link != NULL && !isnan (link->bandwidth_gbps) && max_bw > 0)
            {
              /* A faint floor, so the slowest link still reads as a link. */
              double share = 0.15 + 0.85 * CLAMP (link->bandwidth_gbps / max_bw, 0, 1);

              cairo_set_source_rgba (cr, strong.red, strong.green, strong.blue, share);
              cairo_rectangle (cr, x + 1, y + 1, size - 2, size - 2);
              cairo_fill (cr);
            }
          else if (link != NULL || n <= MAX_OUTLINED)
            {
              cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, link != NULL ? 0.35 : 0.12);
              cairo_rectangle (cr, x + 1.5, y + 1.5, size - 3, size - 3);
              cairo_stroke (cr);
            }
        }
    }
  draw_highlight (self, cr, size);
  cairo_destroy (cr);
}

static gboolean
cell_at (SlCommMatrixView *self,
         double            x,
         double            y,
         guint            *row,
         guint            *column)
{
  double size = cell_size (self);
  double c = (x - LABEL_SPACE) / size, r = (y - LABEL_SPACE) / size;

  if (c < 0 || r < 0 || c >= n_ranks (self) || r >= n_ranks (self))
    return FALSE;
  *row = (guint)r;
  *column = (guint)c;
  return TRUE;
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  SlCommMatrixView *self = SL_COMM_MATRIX_VIEW (widget);
  g_autofree char *text = NULL;
  guint row, column;

  if (!cell_at (self, x, y, &row, &column) || (text = sl_comm_matrix_view_describe_cell (self, row, column)) == NULL)
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
sl_comm_matrix_view_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  guint n = n_ranks (SL_COMM_MATRIX_VIEW (widget));

  *minimum = LABEL_SPACE + MIN_CELL * MAX (n, 1);
  *natural = LABEL_SPACE + MAX_CELL * MAX (n, 1);
}

static void
sl_comm_matrix_view_dispose (GObject *object)
{
  SlCommMatrixView *self = SL_COMM_MATRIX_VIEW (object);

  g_clear_pointer (&self->matrix, sl_comm_matrix_free);
  g_clear_object (&self->comm);
  G_OBJECT_CLASS (sl_comm_matrix_view_parent_class)->dispose (object);
}

static void
sl_comm_matrix_view_class_init (SlCommMatrixViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sl_comm_matrix_view_dispose;
  widget_class->snapshot = sl_comm_matrix_view_snapshot;
  widget_class->measure = sl_comm_matrix_view_measure;
  gtk_widget_class_set_css_name (widget_class, "sl-comm-matrix");
}

static void
sl_comm_matrix_view_init (SlCommMatrixView *self)
{
  self->highlight_src = self->highlight_dst = -1;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}

GtkWidget *
sl_comm_matrix_view_new (void)
{
  return g_object_new (SL_TYPE_COMM_MATRIX_VIEW, NULL);
}

void
sl_comm_matrix_view_set_matrix (SlCommMatrixView *self,
                                SlCommunication  *comm,
                                SlCommMatrix     *matrix)
{
  g_return_if_fail (SL_IS_COMM_MATRIX_VIEW (self));

  g_clear_pointer (&self->matrix, sl_comm_matrix_free);
  g_set_object (&self->comm, comm);
  self->matrix = matrix;
  self->highlight_src = self->highlight_dst = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
sl_comm_matrix_view_set_highlight (SlCommMatrixView *self,
                                   gint64            src,
                                   gint64            dst)
{
  g_return_if_fail (SL_IS_COMM_MATRIX_VIEW (self));

  self->highlight_src = src;
  self->highlight_dst = dst;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

SlCommMatrix *
sl_comm_matrix_view_get_matrix (SlCommMatrixView *self)
{
  g_return_val_if_fail (SL_IS_COMM_MATRIX_VIEW (self), NULL);
  return self->matrix;
}

char *
sl_comm_matrix_view_describe_cell (SlCommMatrixView *self,
                                   guint             row,
                                   guint             column)
{
  const SlCommLink *link;
  GString *text;

  g_return_val_if_fail (SL_IS_COMM_MATRIX_VIEW (self), NULL);

  if (row >= n_ranks (self) || column >= n_ranks (self) ||
      (link = sl_comm_matrix_get_cell (self->matrix, row, column)) == NULL)
    return NULL;

  text = g_string_new (NULL);
  /* TRANSLATORS: a link from one rank to another, "0 → 7" */
  g_string_append_printf (text, _("%lld → %lld"), (long long)link->src, (long long)link->dst);
  if (link->transport != NULL)
    g_string_append_printf (text, "\n%s", link->transport);
  if (!isnan (link->size_mb))
    g_string_append_printf (text, _("\nSize: %.6g MB"), link->size_mb);
  if (!isnan (link->time_ms))
    g_string_append_printf (text, _("\nTime: %.6g ms"), link->time_ms);
  if (!isnan (link->bandwidth_gbps))
    g_string_append_printf (text, _("\nBandwidth: %.6g GB/s"), link->bandwidth_gbps);
  if (link->op_name != NULL)
    g_string_append_printf (text, "\n%s", link->op_name);
  return g_string_free (text, FALSE);
}

gboolean
sl_comm_matrix_view_get_cell_center (SlCommMatrixView *self,
                                     guint             row,
                                     guint             column,
                                     double           *x,
                                     double           *y)
{
  double size;

  g_return_val_if_fail (SL_IS_COMM_MATRIX_VIEW (self), FALSE);

  if (row >= n_ranks (self) || column >= n_ranks (self))
    return FALSE;
  size = cell_size (self);
  *x = LABEL_SPACE + (column + 0.5) * size;
  *y = LABEL_SPACE + (row + 0.5) * size;
  return TRUE;
}
