/* sl-tensor-grid.c
 *
 * A GtkScrollable drawing the cells in view from the frame's values on
 * each snapshot: the work is proportional to the window, not to the
 * tensor. A GtkColumnView would need a column object per tensor column.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-widget-style.h"
#include "sl-tensor-grid.h"
#include "sl-tooltip.h"

#define CELL_PAD 8

struct _SlTensorGrid
{
  GtkWidget      parent_instance;

  SlTensorFrame *frame;
  guint          digits;

  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  guint          hscroll_policy : 1;
  guint          vscroll_policy : 1;

  PangoLayout   *layout;
  int            cell_width;
  int            cell_height;
  int            header_width;
  int            header_height;
  gint64         hover_row;
  gint64         hover_col;
  guint          n_drawn_cells;
};

enum {
  PROP_0,
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

G_DEFINE_FINAL_TYPE_WITH_CODE (SlTensorGrid, sl_tensor_grid, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static int
text_width (SlTensorGrid *self,
            const char   *text)
{
  int width;

  pango_layout_set_text (self->layout, text, -1);
  pango_layout_get_pixel_size (self->layout, &width, NULL);
  return width;
}

static gint64
n_rows (SlTensorGrid *self)
{
  return self->frame ? self->frame->slice->n_rows : 0;
}

static gint64
n_cols (SlTensorGrid *self)
{
  return self->frame ? self->frame->slice->n_cols : 0;
}

/* Cells as wide as the widest value the precision can print, so columns
 * do not jump while scrolling. */
static void
measure (SlTensorGrid *self)
{
  char sample[64];
  char last_row[32];
  int height;

  if (self->frame != NULL && sl_tensor_dtype_is_integer (self->frame->dtype))
    {
      double extent = MAX (fabs (self->frame->view.min), fabs (self->frame->view.max));

      g_snprintf (sample, sizeof sample, "-%.0f", isfinite (extent) ? extent : 0);
      if (self->frame->dtype == 1)
        g_strlcpy (sample, "False", sizeof sample);
    }
  else
    {
      GString *str = g_string_new ("-8.");

      for (guint i = 1; i < self->digits; i++)
        g_string_append_c (str, '8');
      g_string_append (str, "e-88");
      g_strlcpy (sample, str->str, sizeof sample);
      g_string_free (str, TRUE);
    }

  self->cell_width = MAX (text_width (self, sample), text_width (self, "-inf")) + 2 * CELL_PAD;
  pango_layout_get_pixel_size (self->layout, NULL, &height);
  self->cell_height = height + 6;
  self->header_height = height + 8;

  g_snprintf (last_row, sizeof last_row, "%lld",
              (long long)(self->frame ? MAX (self->frame->slice->dims[MAX (self->frame->slice->row_axis, 0)], 1) : 1));
  self->header_width = text_width (self, last_row) + 2 * CELL_PAD;
  self->cell_width = MAX (self->cell_width, text_width (self, last_row) + 2 * CELL_PAD);
}

static void
configure_adjustments (SlTensorGrid *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self)) - self->header_width;
  int height = gtk_widget_get_height (GTK_WIDGET (self)) - self->header_height;
  double content_width = (double)n_cols (self) * self->cell_width;
  double content_height = (double)n_rows (self) * self->cell_height;

  width = MAX (width, 0);
  height = MAX (height, 0);

  if (self->hadjustment != NULL)
    gtk_adjustment_configure (self->hadjustment,
                              CLAMP (gtk_adjustment_get_value (self->hadjustment), 0, MAX (content_width - width, 0)),
                              0, MAX (content_width, width), self->cell_width, width * 0.9, width);
  if (self->vadjustment != NULL)
    gtk_adjustment_configure (self->vadjustment,
                              CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, MAX (content_height - height, 0)),
                              0, MAX (content_height, height), self->cell_height, height * 0.9, height);
}

static double
adjustment_value (GtkAdjustment *adjustment)
{
  return adjustment ? floor (gtk_adjustment_get_value (adjustment)) : 0;
}

static void
append_text (SlTensorGrid   *self,
             GtkSnapshot    *snapshot,
             const char     *text,
             double          x,
             double          y,
             double          width,
             gboolean        right_align,
             const GdkRGBA  *color)
{
  int text_w, text_h;

  pango_layout_set_text (self->layout, text, -1);
  pango_layout_get_pixel_size (self->layout, &text_w, &text_h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (right_align ? x + width - CELL_PAD - text_w
                                                                      : x + (width - text_w) / 2,
                                                          y + (self->cell_height - text_h) / 2.0));
  gtk_snapshot_append_layout (snapshot, self->layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
special_rgba (double   value,
              GdkRGBA *color)
{
  double rgb[3];

  sl_tensor_special_color (isnan (value) ? SL_TENSOR_SPECIAL_NAN :
                           value > 0 ? SL_TENSOR_SPECIAL_POS_INF : SL_TENSOR_SPECIAL_NEG_INF, rgb);
  /* Darkened a little: the special colours are bright for a heatmap. */
  *color = (GdkRGBA) { rgb[0] * 0.8, rgb[1] * 0.8, rgb[2] * 0.8, 1 };
}

static void
sl_tensor_grid_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  SlTensorGrid *self = SL_TENSOR_GRID (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double x0 = adjustment_value (self->hadjustment);
  double y0 = adjustment_value (self->vadjustment);
  const SlTensorSlice *slice;
  const double *values;
  gint64 first_row, last_row, first_col, last_col;
  GdkRGBA fg, dim, stripe, header_bg, accent = { 0.21, 0.52, 0.89, 0.22 };
  char text[64];

  self->n_drawn_cells = 0;
  if (self->frame == NULL || width <= self->header_width || height <= self->header_height)
    return;

  slice = self->frame->slice;
  values = sl_tensor_frame_get_values (self->frame, NULL);
  sl_widget_get_foreground (widget, &fg);
  dim = (GdkRGBA) { fg.red, fg.green, fg.blue, 0.6 };
  stripe = (GdkRGBA) { fg.red, fg.green, fg.blue, 0.035 };
  header_bg = (GdkRGBA) { fg.red, fg.green, fg.blue, 0.07 };

  first_row = (gint64)(y0 / self->cell_height);
  last_row = MIN (n_rows (self), (gint64)((y0 + height - self->header_height) / self->cell_height) + 1);
  first_col = (gint64)(x0 / self->cell_width);
  last_col = MIN (n_cols (self), (gint64)((x0 + width - self->header_width) / self->cell_width) + 1);

  /* Cells */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (self->header_width, self->header_height,
                                                         width - self->header_width, height - self->header_height));
  for (gint64 r = first_row; r < last_row; r++)
    {
      double y = self->header_height + r * self->cell_height - y0;

      if (r % 2 == 1)
        gtk_snapshot_append_color (snapshot, &stripe, &GRAPHENE_RECT_INIT (self->header_width, y, width, self->cell_height));

      for (gint64 c = first_col; c < last_col; c++)
        {
          double x = self->header_width + c * self->cell_width - x0;
          double value = values[sl_tensor_slice_offset (slice, r, c)];
          GdkRGBA special;

          if (r == self->hover_row && c == self->hover_col)
            gtk_snapshot_append_color (snapshot, &accent, &GRAPHENE_RECT_INIT (x, y, self->cell_width, self->cell_height));

          sl_tensor_format_value (text, sizeof text, value, self->frame->dtype, self->digits);
          if (!isfinite (value))
            special_rgba (value, &special);
          append_text (self, snapshot, text, x, y, self->cell_width, TRUE, isfinite (value) ? &fg : &special);
          self->n_drawn_cells++;
        }
    }
  gtk_snapshot_pop (snapshot);

  /* Column header, fixed at the top */
  gtk_snapshot_append_color (snapshot, &header_bg, &GRAPHENE_RECT_INIT (0, 0, width, self->header_height));
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (self->header_width, 0, width - self->header_width, self->header_height));
  for (gint64 c = first_col; c < last_col && slice->col_axis >= 0; c++)
    {
      double x = self->header_width + c * self->cell_width - x0;

      g_snprintf (text, sizeof text, "%lld", (long long)sl_tensor_slice_col_position (slice, c));
      append_text (self, snapshot, text, x, 1, self->cell_width, TRUE, c == self->hover_col ? &fg : &dim);
    }
  gtk_snapshot_pop (snapshot);

  /* Row header, fixed at the left */
  gtk_snapshot_append_color (snapshot, &header_bg, &GRAPHENE_RECT_INIT (0, self->header_height, self->header_width,
                                                                        height - self->header_height));
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, self->header_height, self->header_width, height - self->header_height));
  for (gint64 r = first_row; r < last_row && slice->row_axis >= 0; r++)
    {
      double y = self->header_height + r * self->cell_height - y0;

      g_snprintf (text, sizeof text, "%lld", (long long)sl_tensor_slice_row_position (slice, r));
      append_text (self, snapshot, text, 0, y, self->header_width, TRUE, r == self->hover_row ? &fg : &dim);
    }
  gtk_snapshot_pop (snapshot);
}

static void
sl_tensor_grid_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  configure_adjustments (SL_TENSOR_GRID (widget));
}

static void
sl_tensor_grid_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  SlTensorGrid *self = SL_TENSOR_GRID (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = self->header_width + self->cell_width;
      *natural = self->header_width + (int)CLAMP (n_cols (self), 1, 12) * self->cell_width;
    }
  else
    {
      *minimum = self->header_height + self->cell_height;
      *natural = self->header_height + (int)CLAMP (n_rows (self), 1, 20) * self->cell_height;
    }
}

static gboolean
cell_at (SlTensorGrid *self,
         double        x,
         double        y,
         gint64       *row,
         gint64       *col)
{
  if (self->frame == NULL || x < self->header_width || y < self->header_height)
    return FALSE;

  *col = (gint64)((x - self->header_width + adjustment_value (self->hadjustment)) / self->cell_width);
  *row = (gint64)((y - self->header_height + adjustment_value (self->vadjustment)) / self->cell_height);
  return *row < n_rows (self) && *col < n_cols (self);
}

/**
 * sl_tensor_grid_describe_at:
 *
 * Returns: (transfer full) (nullable): the tensor index and the value, in
 *   full precision, of the cell under (@x, @y)
 */
char *
sl_tensor_grid_describe_at (SlTensorGrid *self,
                            double        x,
                            double        y)
{
  g_autofree char *index = NULL;
  gint64 row, col;
  char value[64];

  g_return_val_if_fail (SL_IS_TENSOR_GRID (self), NULL);

  if (!cell_at (self, x, y, &row, &col))
    return NULL;

  index = sl_tensor_slice_format_index (self->frame->slice, row, col);
  sl_tensor_format_value (value, sizeof value, sl_tensor_frame_get_cell (self->frame, row, col), self->frame->dtype, 17);
  return g_strdup_printf ("%s = %s", index, value);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  g_autofree char *text = sl_tensor_grid_describe_at (SL_TENSOR_GRID (widget), x, y);

  if (text == NULL)
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SlTensorGrid             *self)
{
  gint64 row = -1, col = -1;

  if (!cell_at (self, x, y, &row, &col))
    row = col = -1;
  if (row != self->hover_row || col != self->hover_col)
    {
      self->hover_row = row;
      self->hover_col = col;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (GtkEventControllerMotion *controller,
          SlTensorGrid             *self)
{
  self->hover_row = self->hover_col = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (SlTensorGrid   *self,
                GtkAdjustment **slot,
                GtkAdjustment  *adjustment)
{
  if (*slot == adjustment)
    return;
  if (*slot != NULL)
    g_signal_handlers_disconnect_by_func (*slot, gtk_widget_queue_draw, self);
  g_set_object (slot, adjustment);
  if (adjustment != NULL)
    g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
  configure_adjustments (self);
}

static void
sl_tensor_grid_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SlTensorGrid *self = SL_TENSOR_GRID (object);

  switch (prop_id)
    {
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_tensor_grid_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  SlTensorGrid *self = SL_TENSOR_GRID (object);

  switch (prop_id)
    {
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_tensor_grid_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  SlTensorGrid *self = SL_TENSOR_GRID (widget);

  GTK_WIDGET_CLASS (sl_tensor_grid_parent_class)->css_changed (widget, change);

  /* The font may have changed: lay out again with it. */
  g_clear_object (&self->layout);
  self->layout = gtk_widget_create_pango_layout (widget, NULL);
  measure (self);
  gtk_widget_queue_resize (widget);
}

static void
sl_tensor_grid_dispose (GObject *object)
{
  SlTensorGrid *self = (SlTensorGrid *)object;

  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);
  g_clear_pointer (&self->frame, sl_tensor_frame_unref);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (sl_tensor_grid_parent_class)->dispose (object);
}

static void
sl_tensor_grid_class_init (SlTensorGridClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_tensor_grid_dispose;
  object_class->get_property = sl_tensor_grid_get_property;
  object_class->set_property = sl_tensor_grid_set_property;
  widget_class->snapshot = sl_tensor_grid_snapshot;
  widget_class->size_allocate = sl_tensor_grid_size_allocate;
  widget_class->measure = sl_tensor_grid_measure;
  widget_class->css_changed = sl_tensor_grid_css_changed;

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  gtk_widget_class_set_css_name (widget_class, "tensorgrid");
}

static void
sl_tensor_grid_init (SlTensorGrid *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->digits = 4;
  self->hover_row = self->hover_col = -1;
  self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");
  /* Focus inside the scrolled window lets the keyboard scroll it. */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  measure (self);
}

GtkWidget *
sl_tensor_grid_new (void)
{
  return g_object_new (SL_TYPE_TENSOR_GRID, NULL);
}

/**
 * sl_tensor_grid_set_frame:
 * @frame: (nullable): a computed frame
 */
void
sl_tensor_grid_set_frame (SlTensorGrid  *self,
                          SlTensorFrame *frame)
{
  g_return_if_fail (SL_IS_TENSOR_GRID (self));

  if (frame == self->frame)
    return;
  g_clear_pointer (&self->frame, sl_tensor_frame_unref);
  self->frame = frame ? sl_tensor_frame_ref (frame) : NULL;
  self->hover_row = self->hover_col = -1;
  measure (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  configure_adjustments (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_tensor_grid_set_precision (SlTensorGrid *self,
                              guint         digits)
{
  g_return_if_fail (SL_IS_TENSOR_GRID (self));

  self->digits = CLAMP (digits, 1, 17);
  measure (self);
  configure_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* Cells laid out by the last snapshot: the ones in view, not all. */
guint
sl_tensor_grid_get_n_drawn_cells (SlTensorGrid *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_GRID (self), 0);
  return self->n_drawn_cells;
}

void
sl_tensor_grid_scroll_to (SlTensorGrid *self,
                          gint64        row,
                          gint64        col)
{
  g_return_if_fail (SL_IS_TENSOR_GRID (self));

  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, (double)col * self->cell_width);
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, (double)row * self->cell_height);
}
