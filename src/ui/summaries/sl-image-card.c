/* sl-image-card.c
 *
 * Images in summaries are small (sample inputs, feature maps, decision
 * boundaries), so one is decoded when its step is chosen; brightness and
 * contrast are applied to a copy of its pixels, never to the stored bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-image-card.h"

struct _SlImageCard
{
  GtkBox          parent_instance;

  SlImageSeries  *series;
  guint           index;
  guint           n_known;      /* steps of the series the scale covers */
  double          brightness;   /* -1 … 1, added */
  double          contrast;     /* 0 … 3, multiplied around the middle */
  GdkTexture     *original;
  GdkTexture     *shown;
  char           *error;

  GtkPicture     *picture;
  GtkLabel       *step_label;
  GtkScale       *step_scale;
  GtkScale       *brightness_scale;
  GtkScale       *contrast_scale;
  GtkToggleButton *actual_size;
};

G_DEFINE_FINAL_TYPE (SlImageCard, sl_image_card, GTK_TYPE_BOX)

static guint8
adjust (guint8 value,
        double brightness,
        double contrast)
{
  double v = (value - 127.5) * contrast + 127.5 + brightness * 255.0;

  return (guint8)CLAMP (v, 0.0, 255.0);
}

static void
update_shown (SlImageCard *self)
{
  g_autofree guint8 *pixels = NULL;
  g_autoptr(GBytes) bytes = NULL;
  int width, height;
  gsize stride;

  g_clear_object (&self->shown);

  if (self->original == NULL)
    {
      gtk_picture_set_paintable (self->picture, NULL);
      return;
    }

  if (self->brightness == 0 && self->contrast == 1)
    {
      gtk_picture_set_paintable (self->picture, GDK_PAINTABLE (self->original));
      return;
    }

  width = gdk_texture_get_width (self->original);
  height = gdk_texture_get_height (self->original);
  stride = (gsize)width * 4;
  pixels = g_malloc (stride * height);
  gdk_texture_download (self->original, pixels, stride);

  /* GDK_MEMORY_DEFAULT is premultiplied BGRA: adjust colour, keep alpha. */
  for (gsize i = 0; i < stride * height; i += 4)
    {
      pixels[i] = adjust (pixels[i], self->brightness, self->contrast);
      pixels[i + 1] = adjust (pixels[i + 1], self->brightness, self->contrast);
      pixels[i + 2] = adjust (pixels[i + 2], self->brightness, self->contrast);
    }

  bytes = g_bytes_new_take (g_steal_pointer (&pixels), stride * height);
  self->shown = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes, stride);
  gtk_picture_set_paintable (self->picture, GDK_PAINTABLE (self->shown));
}

static void
load_step (SlImageCard *self)
{
  GBytes *encoded = NULL;  /* owned by the series */
  g_autoptr(GError) error = NULL;
  g_autofree char *label = NULL;
  int width = 0, height = 0, colorspace = 0;
  guint n = sl_image_series_get_n_points (self->series);

  g_clear_object (&self->original);
  g_clear_pointer (&self->error, g_free);

  if (n == 0)
    return;

  sl_image_series_get_image (self->series, self->index, &width, &height, &colorspace, &encoded);
  if (encoded != NULL)
    self->original = gdk_texture_new_from_bytes (encoded, &error);

  if (self->original == NULL)
    {
      /* Say why in the card instead of showing an empty frame. */
      self->error = g_strdup_printf (_("The image of step %lld could not be decoded: %s"),
                                     (long long)sl_image_series_get_steps (self->series)[self->index],
                                     error ? error->message : _("no image data"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->picture), self->error);
    }
  else
    {
      g_autofree char *tooltip = g_strdup_printf (_("%d × %d pixels"), width, height);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->picture), tooltip);
    }

  label = g_strdup_printf (_("step %lld"), (long long)sl_image_series_get_steps (self->series)[self->index]);
  gtk_label_set_label (self->step_label, self->error ? self->error : label);
  update_shown (self);
}

static void
step_changed_cb (SlImageCard *self)
{
  sl_image_card_set_step_index (self, (guint)gtk_range_get_value (GTK_RANGE (self->step_scale)));
}

static void
adjustment_changed_cb (SlImageCard *self)
{
  sl_image_card_set_adjustment (self, gtk_range_get_value (GTK_RANGE (self->brightness_scale)),
                                gtk_range_get_value (GTK_RANGE (self->contrast_scale)));
}

static void
actual_size_cb (SlImageCard *self)
{
  gboolean actual = gtk_toggle_button_get_active (self->actual_size);

  gtk_picture_set_can_shrink (self->picture, !actual);
}

static GtkScale *
labelled_scale (GtkBox     *box,
                const char *label,
                double      min,
                double      max,
                double      value)
{
  GtkWidget *name = gtk_label_new (label);
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, min, max, 0.05);

  gtk_range_set_value (GTK_RANGE (scale), value);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
  gtk_widget_set_hexpand (scale, TRUE);
  gtk_widget_add_css_class (name, "caption");
  gtk_box_append (box, name);
  gtk_box_append (box, scale);
  return GTK_SCALE (scale);
}

static void
sl_image_card_dispose (GObject *object)
{
  SlImageCard *self = (SlImageCard *)object;

  g_clear_object (&self->series);
  g_clear_object (&self->original);
  g_clear_object (&self->shown);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (sl_image_card_parent_class)->dispose (object);
}

static void
sl_image_card_class_init (SlImageCardClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sl_image_card_dispose;
}

static void
sl_image_card_init (SlImageCard *self)
{
  self->contrast = 1;
}

GtkWidget *
sl_image_card_new (SlImageSeries *series,
                   const char    *run_name)
{
  SlImageCard *self;
  GtkWidget *title, *subtitle, *row, *adjust_row;
  guint n;

  g_return_val_if_fail (SL_IS_IMAGE_SERIES (series), NULL);

  self = g_object_new (SL_TYPE_IMAGE_CARD, "orientation", GTK_ORIENTATION_VERTICAL, "spacing", 6, NULL);
  self->series = g_object_ref (series);
  n = sl_image_series_get_n_points (series);
  self->index = n ? n - 1 : 0;
  self->n_known = n;

  title = gtk_label_new (sl_image_series_get_tag (series));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_tooltip_text (title, sl_image_series_get_tag (series));
  gtk_widget_add_css_class (title, "heading");
  subtitle = gtk_label_new (run_name);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");

  self->picture = GTK_PICTURE (gtk_picture_new ());
  gtk_widget_set_size_request (GTK_WIDGET (self->picture), 240, 200);
  gtk_widget_set_vexpand (GTK_WIDGET (self->picture), TRUE);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->step_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->step_label), "numeric");
  self->step_scale = GTK_SCALE (gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, MAX (2, n) - 1, 1));
  gtk_range_set_value (GTK_RANGE (self->step_scale), self->index);
  gtk_scale_set_draw_value (self->step_scale, FALSE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->step_scale), TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->step_scale), n > 1);
  self->actual_size = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_("1:1")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->actual_size), _("Show at actual size"));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->step_label));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->step_scale));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->actual_size));

  adjust_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->brightness_scale = labelled_scale (GTK_BOX (adjust_row), _("Brightness"), -1, 1, 0);
  self->contrast_scale = labelled_scale (GTK_BOX (adjust_row), _("Contrast"), 0, 3, 1);

  gtk_box_append (GTK_BOX (self), title);
  gtk_box_append (GTK_BOX (self), subtitle);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->picture));
  gtk_box_append (GTK_BOX (self), row);
  gtk_box_append (GTK_BOX (self), adjust_row);
  gtk_widget_add_css_class (GTK_WIDGET (self), "card");
  gtk_widget_add_css_class (GTK_WIDGET (self), "chart-card");

  g_signal_connect_object (self->step_scale, "value-changed", G_CALLBACK (step_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->brightness_scale, "value-changed", G_CALLBACK (adjustment_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->contrast_scale, "value-changed", G_CALLBACK (adjustment_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->actual_size, "toggled", G_CALLBACK (actual_size_cb), self, G_CONNECT_SWAPPED);

  load_step (self);
  return GTK_WIDGET (self);
}

const char *
sl_image_card_get_tag (SlImageCard *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_CARD (self), NULL);
  return sl_image_series_get_tag (self->series);
}

void
sl_image_card_set_step_index (SlImageCard *self,
                              guint        index)
{
  guint n;

  g_return_if_fail (SL_IS_IMAGE_CARD (self));

  n = sl_image_series_get_n_points (self->series);
  if (n == 0)
    return;

  index = MIN (index, n - 1);
  if (index == self->index && self->original != NULL)
    return;

  self->index = index;
  load_step (self);
}

/**
 * sl_image_card_set_adjustment:
 * @brightness: added to every channel, from -1 to 1
 * @contrast: the slope around mid-grey, 1 leaves the image as it is
 */
void
sl_image_card_set_adjustment (SlImageCard *self,
                              double       brightness,
                              double       contrast)
{
  g_return_if_fail (SL_IS_IMAGE_CARD (self));

  self->brightness = CLAMP (brightness, -1, 1);
  self->contrast = CLAMP (contrast, 0, 3);
  update_shown (self);
}

/**
 * sl_image_card_get_texture:
 *
 * Returns: (transfer none) (nullable): what the card shows
 */
GdkTexture *
sl_image_card_get_texture (SlImageCard *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_CARD (self), NULL);
  return self->shown ? self->shown : self->original;
}

const char *
sl_image_card_get_error (SlImageCard *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_CARD (self), NULL);
  return self->error;
}

/**
 * sl_image_card_refresh:
 *
 * Takes in the steps the series gained since the card was made; the card
 * moves to the newest image if it showed the newest before.
 *
 * Returns: whether there were new steps
 */
gboolean
sl_image_card_refresh (SlImageCard *self)
{
  guint n;
  gboolean was_newest;

  g_return_val_if_fail (SL_IS_IMAGE_CARD (self), FALSE);

  n = sl_image_series_get_n_points (self->series);
  if (n == self->n_known)
    return FALSE;

  was_newest = self->n_known == 0 || self->index + 1 >= self->n_known;
  self->n_known = n;
  gtk_range_set_range (GTK_RANGE (self->step_scale), 0, MAX (2, n) - 1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->step_scale), n > 1);
  if (was_newest && n > 0)
    {
      gtk_range_set_value (GTK_RANGE (self->step_scale), n - 1);
      sl_image_card_set_step_index (self, n - 1);
    }

  return TRUE;
}

guint
sl_image_card_get_step_index (SlImageCard *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_CARD (self), 0);
  return self->index;
}
