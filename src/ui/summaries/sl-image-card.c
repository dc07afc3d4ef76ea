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
  char           *run_name;
  guint           index;
  guint           n_known;      /* steps of the series the scale covers */
  double          brightness;   /* -1 … 1, added */
  double          contrast;     /* 0 … 3, multiplied around the middle */
  gboolean        actual_size;
  GdkTexture     *original;
  GdkTexture     *shown;
  char           *error;

  GtkPicture     *picture;
  GtkLabel       *step_label;
  GtkScale       *step_scale;
  GtkAdjustment  *step_adjustment;
  GtkAdjustment  *brightness_adjustment;
  GtkAdjustment  *contrast_adjustment;
};

G_DEFINE_FINAL_TYPE (SlImageCard, sl_image_card, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_SERIES,
  PROP_RUN_NAME,
  PROP_TAG,
  PROP_STEP_INDEX,
  PROP_BRIGHTNESS,
  PROP_CONTRAST,
  PROP_ACTUAL_SIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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

static gboolean
invert_boolean (gpointer instance,
                gboolean value)
{
  return !value;
}

static void
update_step_range (SlImageCard *self)
{
  guint n = self->n_known;

  /* A scale needs a range even for a single step; it is insensitive then. */
  gtk_adjustment_set_upper (self->step_adjustment, MAX (2, n) - 1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->step_scale), n > 1);
}

static void
sl_image_card_constructed (GObject *object)
{
  SlImageCard *self = (SlImageCard *)object;
  guint n;

  G_OBJECT_CLASS (sl_image_card_parent_class)->constructed (object);

  n = sl_image_series_get_n_points (self->series);
  self->index = n ? n - 1 : 0;
  self->n_known = n;
  update_step_range (self);
  gtk_adjustment_set_value (self->step_adjustment, self->index);

  g_object_bind_property (self, "step-index", self->step_adjustment, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "brightness", self->brightness_adjustment, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "contrast", self->contrast_adjustment, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);

  load_step (self);
  /* The template bound the tag before the series was set. */
  g_object_notify_by_pspec (object, properties[PROP_TAG]);
}

static void
sl_image_card_dispose (GObject *object)
{
  SlImageCard *self = (SlImageCard *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_IMAGE_CARD);
  g_clear_object (&self->series);
  g_clear_object (&self->original);
  g_clear_object (&self->shown);
  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (sl_image_card_parent_class)->dispose (object);
}

static void
sl_image_card_finalize (GObject *object)
{
  SlImageCard *self = (SlImageCard *)object;

  g_clear_pointer (&self->run_name, g_free);

  G_OBJECT_CLASS (sl_image_card_parent_class)->finalize (object);
}

static void
sl_image_card_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SlImageCard *self = SL_IMAGE_CARD (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      g_value_set_object (value, self->series);
      break;
    case PROP_RUN_NAME:
      g_value_set_string (value, self->run_name);
      break;
    case PROP_TAG:
      g_value_set_string (value, self->series ? sl_image_series_get_tag (self->series) : NULL);
      break;
    case PROP_STEP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_BRIGHTNESS:
      g_value_set_double (value, self->brightness);
      break;
    case PROP_CONTRAST:
      g_value_set_double (value, self->contrast);
      break;
    case PROP_ACTUAL_SIZE:
      g_value_set_boolean (value, self->actual_size);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_image_card_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  SlImageCard *self = SL_IMAGE_CARD (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      self->series = g_value_dup_object (value);
      break;
    case PROP_RUN_NAME:
      self->run_name = g_value_dup_string (value);
      break;
    case PROP_STEP_INDEX:
      sl_image_card_set_step_index (self, g_value_get_uint (value));
      break;
    case PROP_BRIGHTNESS:
      sl_image_card_set_adjustment (self, g_value_get_double (value), self->contrast);
      break;
    case PROP_CONTRAST:
      sl_image_card_set_adjustment (self, self->brightness, g_value_get_double (value));
      break;
    case PROP_ACTUAL_SIZE:
      if (self->actual_size != g_value_get_boolean (value))
        {
          self->actual_size = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_image_card_class_init (SlImageCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = sl_image_card_constructed;
  object_class->dispose = sl_image_card_dispose;
  object_class->finalize = sl_image_card_finalize;
  object_class->get_property = sl_image_card_get_property;
  object_class->set_property = sl_image_card_set_property;

  properties[PROP_SERIES] =
    g_param_spec_object ("series", NULL, NULL, SL_TYPE_IMAGE_SERIES,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUN_NAME] =
    g_param_spec_string ("run-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TAG] =
    g_param_spec_string ("tag", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STEP_INDEX] =
    g_param_spec_uint ("step-index", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BRIGHTNESS] =
    g_param_spec_double ("brightness", NULL, NULL, -1, 1, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONTRAST] =
    g_param_spec_double ("contrast", NULL, NULL, 0, 3, 1,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlImageCard:actual-size:
   *
   * Whether the image is shown pixel for pixel instead of fitted.
   */
  properties[PROP_ACTUAL_SIZE] =
    g_param_spec_boolean ("actual-size", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-image-card.ui");
  gtk_widget_class_bind_template_child (widget_class, SlImageCard, picture);
  gtk_widget_class_bind_template_child (widget_class, SlImageCard, step_label);
  gtk_widget_class_bind_template_child (widget_class, SlImageCard, step_scale);
  gtk_widget_class_bind_template_child (widget_class, SlImageCard, step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SlImageCard, brightness_adjustment);
  gtk_widget_class_bind_template_child (widget_class, SlImageCard, contrast_adjustment);
  gtk_widget_class_bind_template_callback (widget_class, invert_boolean);

  /**
   * SlImageCard|card.actual-size:
   *
   * Toggles #SlImageCard:actual-size.
   */
  gtk_widget_class_install_property_action (widget_class, "card.actual-size", "actual-size");
}

static void
sl_image_card_init (SlImageCard *self)
{
  self->contrast = 1;
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
sl_image_card_new (SlImageSeries *series,
                   const char    *run_name)
{
  g_return_val_if_fail (SL_IS_IMAGE_SERIES (series), NULL);

  return g_object_new (SL_TYPE_IMAGE_CARD, "series", series, "run-name", run_name, NULL);
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP_INDEX]);
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

  brightness = CLAMP (brightness, -1, 1);
  contrast = CLAMP (contrast, 0, 3);
  if (brightness == self->brightness && contrast == self->contrast)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (brightness != self->brightness)
    {
      self->brightness = brightness;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BRIGHTNESS]);
    }
  if (contrast != self->contrast)
    {
      self->contrast = contrast;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTRAST]);
    }
  update_shown (self);
  g_object_thaw_notify (G_OBJECT (self));
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
  update_step_range (self);
  if (was_newest && n > 0)
    sl_image_card_set_step_index (self, n - 1);

  return TRUE;
}

guint
sl_image_card_get_step_index (SlImageCard *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_CARD (self), 0);
  return self->index;
}
