/* sl-demo-plot.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo.h>

#include "sl-demo-plot.h"

#define EXTENT 1.2  /* the plots show [-EXTENT, EXTENT] on both axes */

static cairo_status_t
append_to_byte_array (void                *closure,
                      const unsigned char *data,
                      unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static GBytes *
surface_to_png (cairo_surface_t *surface)
{
  GByteArray *png = g_byte_array_new ();

  if (cairo_surface_write_to_png_stream (surface, append_to_byte_array, png) != CAIRO_STATUS_SUCCESS)
    {
      g_byte_array_unref (png);
      return NULL;
    }

  return g_byte_array_free_to_bytes (png);
}

static double
to_pixel (double value,
          int    size)
{
  return (value + EXTENT) / (2 * EXTENT) * size;
}

static void
draw_points (cairo_t          *cr,
             const SlDemoData *data,
             int               size)
{
  /* Okabe–Ito orange and blue: tell apart with any colour vision. */
  static const double colours[2][3] = { { 0.90, 0.62, 0.00 }, { 0.00, 0.45, 0.70 } };

  for (guint i = 0; i < data->n; i++)
    {
      const double *c = colours[data->label[i]];

      cairo_arc (cr, to_pixel (data->x[2 * i], size), to_pixel (-data->x[2 * i + 1], size), 1.6, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, c[0], c[1], c[2]);
      cairo_fill (cr);
    }
}

/**
 * sl_demo_plot_samples:
 *
 * Returns: (transfer full): a PNG of the training inputs, by class
 */
GBytes *
sl_demo_plot_samples (const SlDemoData *data,
                      int               size)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  GBytes *png;

  g_return_val_if_fail (data != NULL && size > 0, NULL);

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, size, size);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  draw_points (cr, data, size);
  cairo_destroy (cr);

  png = surface_to_png (surface);
  cairo_surface_destroy (surface);
  return png;
}

/**
 * sl_demo_plot_decision_boundary:
 *
 * Returns: (transfer full): a PNG of the class-1 probability over the
 *   plane, with the inputs on top
 */
GBytes *
sl_demo_plot_decision_boundary (SlDemoMlp        *mlp,
                                const SlDemoData *data,
                                int               size)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  unsigned char *pixels;
  int stride;
  GBytes *png;

  g_return_val_if_fail (mlp != NULL && data != NULL && size > 0, NULL);

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, size, size);
  cairo_surface_flush (surface);
  pixels = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);

  for (int y = 0; y < size; y++)
    {
      guint32 *row = (guint32 *)(gpointer)(pixels + y * stride);
      float x1 = -((y + 0.5) / size * 2 * EXTENT - EXTENT);

      for (int x = 0; x < size; x++)
        {
          float x0 = (x + 0.5) / size * 2 * EXTENT - EXTENT;
          float p = sl_demo_mlp_predict (mlp, x0, x1);
          /* Pale orange for class 0, pale blue for class 1. */
          guint8 r = 255 - p * (255 - 200) - (1 - p) * (255 - 250);
          guint8 g = 255 - p * (255 - 225) - (1 - p) * (255 - 230);
          guint8 b = 255 - p * (255 - 245) - (1 - p) * (255 - 190);

          row[x] = ((guint32)r << 16) | ((guint32)g << 8) | b;
        }
    }

  cairo_surface_mark_dirty (surface);
  cr = cairo_create (surface);
  draw_points (cr, data, size);
  cairo_destroy (cr);

  png = surface_to_png (surface);
  cairo_surface_destroy (surface);
  return png;
}
