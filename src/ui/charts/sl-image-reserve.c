/* sl-image-reserve.c: an image made ready on a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-image-reserve.h"
#include "sl-platform.h"

/* Shared by the caller and the worker (a reference-counted box), freed
 * by the last to let go */
struct _SlImageReserve
{
  int              width;    /* in device pixels */
  int              height;
  double           scale;
  cairo_surface_t *image;    /* set by the worker before ready */
  gint             ready;    /* atomic */
};

static void
reserve_clear (gpointer data)
{
  SlImageReserve *r = data;

  g_clear_pointer (&r->image, cairo_surface_destroy);
}

/* Larger images are left to the caller, who may fail to make them
 * without harm: allocating here does not fail, it aborts. */
#define MAX_BYTES ((gsize)1 << 30)

static const cairo_user_data_key_t pixels_key;

static gpointer
make_image_thread (gpointer data)
{
  SlImageReserve *r = data;
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, r->width);
  cairo_surface_t *image = NULL;

  /* what cairo can make (its images are at most 32767 pixels a side),
   * and no more than a view's images need */
  if (stride > 0 && r->height <= 32767 && (gsize)stride * (gsize)r->height <= MAX_BYTES)
    {
      gsize size = (gsize)stride * (gsize)r->height;
      guchar *pixels = sl_platform_alloc_huge_pages (size);

      /* Written here, all of it: the system gives the memory now, in
       * pages of 2 MB where it can (fewer misses of the address cache
       * for a frame's column of rows, a page a row in pages of 4 kB),
       * however long it takes to find them. */
      memset (pixels, 0, size);
      image = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, r->width, r->height, stride);
      if (cairo_surface_status (image) == CAIRO_STATUS_SUCCESS)
        {
          cairo_surface_set_user_data (image, &pixels_key, pixels, sl_platform_free_huge_pages);
          cairo_surface_set_device_scale (image, r->scale, r->scale);
          r->image = image;
        }
      else
        {
          cairo_surface_destroy (image);
          sl_platform_free_huge_pages (pixels);
        }
    }
  /* the image is the caller's to take from now on */
  g_atomic_int_set (&r->ready, 1);
  g_atomic_rc_box_release_full (r, reserve_clear);
  return NULL;
}

/**
 * sl_image_reserve_new:
 * @width: (in units): the image's width
 * @height: its height
 * @scale: device pixels a unit
 *
 * Starts making an ARGB32 image of @width × @height units at @scale on a
 * worker thread, all its memory written once.
 *
 * Returns: (transfer full): the reserve, to take the image from
 */
SlImageReserve *
sl_image_reserve_new (int    width,
                      int    height,
                      double scale)
{
  SlImageReserve *self = g_atomic_rc_box_new0 (SlImageReserve);
  GThread *thread;

  scale = CLAMP (scale, 1, 16);
  self->width = (int)ceil (MAX (width, 1) * scale);
  self->height = (int)ceil (MAX (height, 1) * scale);
  self->scale = scale;

  thread = g_thread_try_new ("sl-image-reserve", make_image_thread, g_atomic_rc_box_acquire (self), NULL);
  if (thread != NULL)
    g_thread_unref (thread);
  else
    /* no worker: never ready, and the caller makes its own image */
    g_atomic_rc_box_release_full (self, reserve_clear);
  return self;
}

/* Whether the worker is done (with an image, or having failed to make it) */
gboolean
sl_image_reserve_is_ready (SlImageReserve *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return g_atomic_int_get (&self->ready) != 0;
}

/**
 * sl_image_reserve_take:
 * @min_width: device pixels the caller needs across
 * @min_height: and down
 * @scale: device pixels a unit the caller draws at
 *
 * Returns: (transfer full) (nullable): the image, when it is ready, at
 *   @scale and at least @min_width × @min_height device pixels; %NULL
 *   otherwise, or once taken
 */
cairo_surface_t *
sl_image_reserve_take (SlImageReserve *self,
                       int             min_width,
                       int             min_height,
                       double          scale)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (!g_atomic_int_get (&self->ready) || self->image == NULL || self->scale != scale
      || self->width < min_width || self->height < min_height)
    return NULL;
  return g_steal_pointer (&self->image);
}

/* Lets go of the reserve: an image not taken is freed, by the worker if
 * it is still making it. */
void
sl_image_reserve_free (SlImageReserve *self)
{
  if (self == NULL)
    return;
  g_atomic_rc_box_release_full (self, reserve_clear);
}
