/* sl-image-series.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-image-series.h"

typedef struct {
  int width;
  int height;
  int colorspace;
} ImageInfo;

struct _SlImageSeries
{
  GObject    parent_instance;
  char      *tag;
  GArray    *steps;
  GArray    *wall_times;
  GArray    *infos;
  GPtrArray *encoded;
  guint      n_restarts;
  gint64     first_step;   /* of the first append, dropped or not */
  gboolean   appended;
};

G_DEFINE_FINAL_TYPE (SlImageSeries, sl_image_series, G_TYPE_OBJECT)

static void
sl_image_series_finalize (GObject *object)
{
  SlImageSeries *self = (SlImageSeries *)object;

  g_clear_pointer (&self->tag, g_free);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->wall_times, g_array_unref);
  g_clear_pointer (&self->infos, g_array_unref);
  g_clear_pointer (&self->encoded, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_image_series_parent_class)->finalize (object);
}

static void
sl_image_series_class_init (SlImageSeriesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_image_series_finalize;
}

static void
sl_image_series_init (SlImageSeries *self)
{
  self->steps = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->wall_times = g_array_new (FALSE, FALSE, sizeof (double));
  self->infos = g_array_new (FALSE, FALSE, sizeof (ImageInfo));
  self->encoded = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
}

SlImageSeries *
sl_image_series_new (const char *tag)
{
  SlImageSeries *self;

  g_return_val_if_fail (tag != NULL, NULL);

  self = g_object_new (SL_TYPE_IMAGE_SERIES, NULL);
  self->tag = g_strdup (tag);

  return self;
}

const char *
sl_image_series_get_tag (SlImageSeries *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_SERIES (self), NULL);
  return self->tag;
}

guint
sl_image_series_get_n_points (SlImageSeries *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_SERIES (self), 0);
  return self->steps->len;
}

const gint64 *
sl_image_series_get_steps (SlImageSeries *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_SERIES (self), NULL);
  return (const gint64 *) (gpointer) self->steps->data;
}

const double *
sl_image_series_get_wall_times (SlImageSeries *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_SERIES (self), NULL);
  return (const double *) (gpointer) self->wall_times->data;
}

/**
 * sl_image_series_get_image:
 * @width: (out) (optional):
 * @height: (out) (optional):
 * @colorspace: (out) (optional):
 * @encoded: (out) (optional) (transfer none): the PNG bytes
 */
void
sl_image_series_get_image (SlImageSeries  *self,
                           guint           index,
                           int            *width,
                           int            *height,
                           int            *colorspace,
                           GBytes        **encoded)
{
  const ImageInfo *info;

  g_return_if_fail (SL_IS_IMAGE_SERIES (self));
  g_return_if_fail (index < self->steps->len);

  info = &g_array_index (self->infos, ImageInfo, index);
  if (width != NULL)
    *width = info->width;
  if (height != NULL)
    *height = info->height;
  if (colorspace != NULL)
    *colorspace = info->colorspace;
  if (encoded != NULL)
    *encoded = g_ptr_array_index (self->encoded, index);
}

void
sl_image_series_append (SlImageSeries *self,
                        gint64         step,
                        double         wall_time,
                        int            width,
                        int            height,
                        int            colorspace,
                        GBytes        *encoded)
{
  ImageInfo info = { width, height, colorspace };

  g_return_if_fail (SL_IS_IMAGE_SERIES (self));
  g_return_if_fail (encoded != NULL);

  if (!self->appended)
    {
      self->appended = TRUE;
      self->first_step = step;
    }

  /* A restarted job: its points replace the old ones from that step on. */
  if (self->steps->len > 0 &&
      step <= g_array_index (self->steps, gint64, self->steps->len - 1))
    {
      guint keep = self->steps->len;

      while (keep > 0 && g_array_index (self->steps, gint64, keep - 1) >= step)
        keep--;
      g_array_set_size (self->steps, keep);
      g_array_set_size (self->wall_times, keep);
      g_array_set_size (self->infos, keep);
      g_ptr_array_set_size (self->encoded, keep);
      self->n_restarts++;
    }

  g_array_append_val (self->steps, step);
  g_array_append_val (self->wall_times, wall_time);
  g_array_append_val (self->infos, info);
  g_ptr_array_add (self->encoded, g_bytes_ref (encoded));
}

guint
sl_image_series_get_n_restarts (SlImageSeries *self)
{
  g_return_val_if_fail (SL_IS_IMAGE_SERIES (self), 0);
  return self->n_restarts;
}

/**
 * sl_image_series_absorb:
 * @delta: points read after those of @self, into a series of their own
 *
 * Appends the points of @delta as if they had been appended to @self one
 * by one in the order they were read: a step going backwards, within
 * @delta or against @self, counts as one restart either way.
 */
void
sl_image_series_absorb (SlImageSeries *self,
                        SlImageSeries *delta)
{
  guint restarts;

  g_return_if_fail (SL_IS_IMAGE_SERIES (self));
  g_return_if_fail (SL_IS_IMAGE_SERIES (delta));

  if (delta->steps->len == 0)
    return;

  /* Appending what @delta kept can restart only at its first point; what
   * really happened is its own restarts, plus one if the first step read
   * was not after the last step of @self. */
  restarts = self->n_restarts + delta->n_restarts +
             (self->steps->len > 0 && delta->first_step <= g_array_index (self->steps, gint64, self->steps->len - 1));
  for (guint i = 0; i < delta->steps->len; i++)
    {
      ImageInfo *info = &g_array_index (delta->infos, ImageInfo, i);

      sl_image_series_append (self, g_array_index (delta->steps, gint64, i), g_array_index (delta->wall_times, double, i),
                              info->width, info->height, info->colorspace, g_ptr_array_index (delta->encoded, i));
    }
  self->n_restarts = restarts;
}
