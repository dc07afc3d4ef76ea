/* test-timeline-tiles.c: frames drawn from kept tiles against whole frames
 *
 * The timeline keeps the tiles it drew and, when the view pans, draws only
 * the tiles it uncovers. On a generated trace (nested slices, counters,
 * flows, a pinned track, a scrolled view) one renderer pans through every
 * zoom (by three pixels, by a fraction of a pixel, back, by a jump, before
 * the trace's start) while a second draws each frame whole: the pixels
 * must be the same, and the first must have drawn fewer tiles. Then each
 * change of what the tiles show (selection, hover, range, palette,
 * thresholds, dark style, search, hidden, pinned and collapsed tracks,
 * scroll, size) is made on both and the next frame compared again; a
 * change the tiles or the kept gutter missed would leave old pixels. The same at a device
 * scale of two, and through a recording (as GTK draws) told the screen's
 * scale of two. The same again with the images made on workers before
 * the first frame (as while a trace loads), for a view as big, bigger or
 * smaller. Viewports that make no sense, a view far beyond the trace
 * at the deepest zoom, a vector target and a target wider than an image
 * can be are drawn without harm. The kept renderer draws every other new
 * tile of a frame on its second thread while it draws the others; one
 * more pan through every zoom shares them out as the timeline does, to
 * whichever thread is free first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <cairo-svg.h>
#include <glib.h>

#include "sl-frame-worker.h"
#include "sl-image-reserve.h"
#include "sl-pixel-line.h"
#include "sl-timeline-renderer.h"
#include "../trace-fixture.h"

#define WIDTH 900
#define HEIGHT 640

static SlTrace *trace;

typedef struct {
  SlTimelineRenderer *kept;    /* pans with its tiles */
  SlTimelineRenderer *whole;   /* every frame drawn whole */
  cairo_surface_t    *kept_surface;
  cairo_surface_t    *whole_surface;
  double              scale;
} Pair;

/* The kept renderer draws every other tile of a frame on its second
 * thread, at the same time as the first draws the others; the whole one
 * draws them all on one: so every comparison also holds tiles drawn on
 * two threads at once against tiles drawn on one. */
static SlTimelineTileThreads kept_threads = SL_TIMELINE_TILES_ALTERNATE;

static void
pair_share_tiles (Pair *pair)
{
  sl_timeline_renderer_set_tile_threads (pair->kept, kept_threads);
  sl_timeline_renderer_set_tile_threads (pair->whole, SL_TIMELINE_TILES_ONE_THREAD);
}

static void
pair_init (Pair  *pair,
           double scale)
{
  pair->scale = scale;
  pair->kept = sl_timeline_renderer_new ();
  pair->whole = sl_timeline_renderer_new ();
  pair_share_tiles (pair);
  sl_timeline_renderer_set_lod (pair->kept, sl_trace_lod_new (trace, NULL));
  sl_timeline_renderer_set_lod (pair->whole, sl_trace_lod_new (trace, NULL));
  pair->kept_surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH * scale, HEIGHT * scale);
  pair->whole_surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH * scale, HEIGHT * scale);
  cairo_surface_set_device_scale (pair->kept_surface, scale, scale);
  cairo_surface_set_device_scale (pair->whole_surface, scale, scale);
}

static void
pair_clear (Pair *pair)
{
  sl_timeline_renderer_free (pair->kept);
  sl_timeline_renderer_free (pair->whole);
  cairo_surface_destroy (pair->kept_surface);
  cairo_surface_destroy (pair->whole_surface);
}

static void
draw (SlTimelineRenderer       *renderer,
      cairo_surface_t          *surface,
      const SlTimelineViewport *vp)
{
  cairo_t *cr = cairo_create (surface);

  /* Nothing left from the last frame: what is not drawn stays clear. */
  cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
  sl_timeline_renderer_draw (renderer, cr, vp);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
}

static guint
visible_tiles (const SlTimelineViewport *vp)
{
  /* At most this many; a view that starts on a tile's edge needs one less. */
  return (vp->width - SL_TIMELINE_GUTTER_WIDTH + 255) / 256 + 1;
}

static void
assert_same_pixels (cairo_surface_t *a,
                    cairo_surface_t *b,
                    const char      *what)
{
  int stride = cairo_image_surface_get_stride (a);
  int height = cairo_image_surface_get_height (a);
  const guchar *pa = cairo_image_surface_get_data (a);
  const guchar *pb = cairo_image_surface_get_data (b);

  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  for (int y = 0; y < height; y++)
    if (memcmp (pa + (gsize)y * stride, pb + (gsize)y * stride, stride) != 0)
      {
        const guint32 *ra = (const guint32 *)(gconstpointer)(pa + (gsize)y * stride);
        const guint32 *rb = (const guint32 *)(gconstpointer)(pb + (gsize)y * stride);
        int x = 0;

        while (ra[x] == rb[x])
          x++;
        g_error ("%s: pixel (%d, %d) is %08x from kept tiles, %08x drawn whole", what, x, y, ra[x], rb[x]);
      }
}

/* The same within @tolerance levels a channel: a recording replayed
 * blends the edges of strokes (flows, outlines) a level or two away from
 * drawing them straight; an image scaled up is tens of levels away. */
static void
assert_close_pixels (cairo_surface_t *a,
                     cairo_surface_t *b,
                     int              tolerance,
                     const char      *what)
{
  int stride = cairo_image_surface_get_stride (a);
  int height = cairo_image_surface_get_height (a);
  int width = cairo_image_surface_get_width (a);
  const guchar *pa = cairo_image_surface_get_data (a);
  const guchar *pb = cairo_image_surface_get_data (b);

  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width * 4; x++)
      if (ABS ((int)pa[(gsize)y * stride + x] - (int)pb[(gsize)y * stride + x]) > tolerance)
        g_error ("%s: pixel (%d, %d) channel %d is %u from kept tiles, %u drawn whole", what, x / 4, y, x % 4,
                 pa[(gsize)y * stride + x], pb[(gsize)y * stride + x]);
}

/* The next frame from kept tiles against the same frame drawn whole.
 * Returns how many tiles the kept renderer drew. */
static guint
compare_frame (Pair                     *pair,
               const SlTimelineViewport *vp,
               const char               *what)
{
  guint kept_tiles;

  draw (pair->kept, pair->kept_surface, vp);
  kept_tiles = sl_timeline_renderer_get_last_n_tiles (pair->kept);

  /* Nothing kept from its last frame: every tile and the gutter drawn. */
  sl_timeline_renderer_drop_images (pair->whole);
  draw (pair->whole, pair->whole_surface, vp);
  g_assert_cmpuint (sl_timeline_renderer_get_last_n_tiles (pair->whole), >=, visible_tiles (vp) - 1);

  assert_same_pixels (pair->kept_surface, pair->whole_surface, what);
  return kept_tiles;
}

static void
both_selected (Pair   *pair,
               guint   track,
               guint32 slice)
{
  sl_timeline_renderer_set_selected (pair->kept, track, slice);
  sl_timeline_renderer_set_selected (pair->whole, track, slice);
}

static guint
first_thread_track (void)
{
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    if (sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_COUNTER && sl_trace_get_slices (trace, t)->n_slices > 0)
      return t;
  g_assert_not_reached ();
}

static void
viewport_at (SlTimelineViewport *vp,
             double              fraction,
             double              at)
{
  gint64 start = sl_trace_get_start_ns (trace), end = sl_trace_get_end_ns (trace);
  gint64 span = fraction > 0 ? (gint64)((end - start) * fraction) : 10000;

  memset (vp, 0, sizeof *vp);
  vp->width = WIDTH;
  vp->height = HEIGHT;
  vp->scroll_y = 37;
  vp->ns_per_pixel = (double)span / (WIDTH - SL_TIMELINE_GUTTER_WIDTH);
  vp->t0 = start + (gint64)((end - start - span) * at);
}

/* Waits for @renderer's reserved images to be made */
static void
wait_for_images (SlTimelineRenderer *renderer)
{
  for (guint i = 0; i < 2000 && !sl_timeline_renderer_get_images_ready (renderer); i++)
    g_usleep (5000);
  g_assert_true (sl_timeline_renderer_get_images_ready (renderer));
}

/* @reserve_width × @reserve_height: the kept renderer's images are asked
 * for a view of that size first (0: they are not) */
static void
pan_through_zooms_reserved (double scale,
                            int    reserve_width,
                            int    reserve_height)
{
  static const double fractions[] = { 1.0, 0.1, 0.01, 0.0001, 0 };
  Pair pair;
  guint track = first_thread_track ();

  pair.scale = scale;
  pair.kept = sl_timeline_renderer_new ();
  if (reserve_width > 0)
    sl_timeline_renderer_reserve_images (pair.kept, reserve_width, reserve_height, (int)scale);
  pair.whole = sl_timeline_renderer_new ();
  pair_share_tiles (&pair);
  sl_timeline_renderer_set_lod (pair.kept, sl_trace_lod_new (trace, NULL));
  sl_timeline_renderer_set_lod (pair.whole, sl_trace_lod_new (trace, NULL));
  pair.kept_surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH * scale, HEIGHT * scale);
  pair.whole_surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH * scale, HEIGHT * scale);
  cairo_surface_set_device_scale (pair.kept_surface, scale, scale);
  cairo_surface_set_device_scale (pair.whole_surface, scale, scale);
  if (reserve_width > 0)
    wait_for_images (pair.kept);
  /* Overlays on top of the tiles: a pinned track, a selection with its
   * flows, a hovered slice and a range. */
  for (guint i = 0; i < 2; i++)
    {
      SlTimelineRenderer *r = i == 0 ? pair.kept : pair.whole;

      sl_timeline_renderer_set_track_pinned (r, track, TRUE);
      sl_timeline_renderer_set_hovered (r, track, 3);
      sl_timeline_renderer_set_range (r, sl_trace_get_start_ns (trace) + 1000000, sl_trace_get_start_ns (trace) + 9000000);
    }
  both_selected (&pair, track, 0);

  for (guint z = 0; z < G_N_ELEMENTS (fractions); z++)
    {
      SlTimelineViewport vp;
      guint total_kept = 0;
      g_autofree char *what = NULL;

      viewport_at (&vp, fractions[z], 0.37);
      what = g_strdup_printf ("zoom %u, first frame", z);
      compare_frame (&pair, &vp, what);
      /* every other tile of the frame, on the second thread */
      if (kept_threads == SL_TIMELINE_TILES_ALTERNATE)
        g_assert_cmpuint (sl_timeline_renderer_get_last_n_worker_tiles (pair.kept), ==,
                          sl_timeline_renderer_get_last_n_tiles (pair.kept) / 2);
      g_assert_cmpuint (sl_timeline_renderer_get_last_n_worker_tiles (pair.whole), ==, 0);
      for (guint f = 0; f < 12; f++)
        {
          g_autofree char *pan = g_strdup_printf ("zoom %u, pan %u", z, f);

          /* Three pixels a frame, then a fraction of a pixel, then back. */
          if (f < 8)
            vp.t0 += (gint64)(3 * vp.ns_per_pixel);
          else if (f < 10)
            vp.t0 += (gint64)(1.4 * vp.ns_per_pixel);
          else
            vp.t0 -= (gint64)(5 * vp.ns_per_pixel);
          total_kept += compare_frame (&pair, &vp, pan);
        }
      /* Twelve small pans draw far fewer tiles than twelve whole frames. */
      g_assert_cmpuint (total_kept, <, 4);

      /* A jump of most of a view: the tiles still in view are kept
       * (unless it brings in too many flows, which redraws them all). */
      vp.t0 += (gint64)((WIDTH - SL_TIMELINE_GUTTER_WIDTH) * 0.75 * vp.ns_per_pixel);
      compare_frame (&pair, &vp, "jump");

      /* Before the trace's start: tiles left of its first pixel. */
      vp.t0 = sl_trace_get_start_ns (trace) - (gint64)(200 * vp.ns_per_pixel);
      compare_frame (&pair, &vp, "before the start");
      vp.t0 += (gint64)(3 * vp.ns_per_pixel);
      compare_frame (&pair, &vp, "before the start, panned");
    }
  /* Images big enough for the view are taken: the tiles, the gutter and
   * (the trace having flows) the flows; smaller ones are not. */
  if (reserve_width >= WIDTH && reserve_height >= HEIGHT)
    g_assert_cmpuint (sl_timeline_renderer_get_n_images_taken (pair.kept), ==, 3);
  else
    g_assert_cmpuint (sl_timeline_renderer_get_n_images_taken (pair.kept), ==, 0);
  pair_clear (&pair);
}

static void
pan_through_zooms (double scale)
{
  pan_through_zooms_reserved (scale, 0, 0);
}

static void
test_pan (void)
{
  pan_through_zooms (1);
}

/* The same with the tiles shared out as the timeline shares them, to
 * whichever thread is free first (where the machine has two processors) */
static void
test_pan_shared (void)
{
  kept_threads = SL_TIMELINE_TILES_SHARED;
  pan_through_zooms (1);
  pan_through_zooms (2);
  kept_threads = SL_TIMELINE_TILES_ALTERNATE;
}

/* The images made on workers while the trace loads, for a view as big as
 * the one drawn, bigger (the page around it) or smaller (the window made
 * larger since): every frame the same as one drawn whole, at both scales. */
static void
test_reserved_images (void)
{
  g_assert_cmpuint (sl_trace_get_n_flows (trace), >, 0);
  pan_through_zooms_reserved (1, WIDTH, HEIGHT);
  pan_through_zooms_reserved (1, WIDTH + 333, HEIGHT + 77);
  pan_through_zooms_reserved (2, WIDTH + 10, HEIGHT + 200);
  pan_through_zooms_reserved (1, WIDTH - 300, HEIGHT);
  pan_through_zooms_reserved (1, WIDTH, HEIGHT - 200);
}

/* An image reserve: the image at the size and scale asked for, all zeros,
 * taken once, and only by a caller it is big enough for; reserves let go
 * of at once, or never taken, and a renderer freed or told to drop its
 * images before its reserves are made, leak nothing (the sanitizer build
 * checks). */
static void
test_image_reserve (void)
{
  SlImageReserve *reserve = sl_image_reserve_new (300, 200, 2);
  cairo_surface_t *image;
  double sx = 0, sy = 0;

  for (guint i = 0; i < 2000 && !sl_image_reserve_is_ready (reserve); i++)
    g_usleep (5000);
  g_assert_true (sl_image_reserve_is_ready (reserve));
  g_assert_null (sl_image_reserve_take (reserve, 601, 400, 2));
  g_assert_null (sl_image_reserve_take (reserve, 600, 401, 2));
  g_assert_null (sl_image_reserve_take (reserve, 600, 400, 1));
  image = sl_image_reserve_take (reserve, 600, 400, 2);
  g_assert_nonnull (image);
  g_assert_null (sl_image_reserve_take (reserve, 600, 400, 2));
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 600);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 400);
  cairo_surface_get_device_scale (image, &sx, &sy);
  g_assert_cmpfloat (sx, ==, 2);
  g_assert_cmpfloat (sy, ==, 2);
  cairo_surface_flush (image);
  for (int y = 0; y < 400; y++)
    {
      const guchar *row = cairo_image_surface_get_data (image) + (gsize)y * cairo_image_surface_get_stride (image);

      for (int x = 0; x < 600 * 4; x++)
        g_assert_cmpuint (row[x], ==, 0);
    }
  cairo_surface_destroy (image);
  sl_image_reserve_free (reserve);

  /* let go of before it is made, and made but never taken */
  for (guint i = 0; i < 20; i++)
    sl_image_reserve_free (sl_image_reserve_new (500 + i, 300, 1));
  reserve = sl_image_reserve_new (64, 64, 1);
  for (guint i = 0; i < 2000 && !sl_image_reserve_is_ready (reserve); i++)
    g_usleep (5000);
  sl_image_reserve_free (reserve);
  /* bigger than an image can be: never an image, and no harm */
  reserve = sl_image_reserve_new (40000, 100, 1);
  for (guint k = 0; k < 2000 && !sl_image_reserve_is_ready (reserve); k++)
    g_usleep (5000);
  g_assert_null (sl_image_reserve_take (reserve, 1, 1, 1));
  sl_image_reserve_free (reserve);
  reserve = sl_image_reserve_new (30000, 30000, 2);
  for (guint k = 0; k < 2000 && !sl_image_reserve_is_ready (reserve); k++)
    g_usleep (5000);
  g_assert_null (sl_image_reserve_take (reserve, 1, 1, 2));
  sl_image_reserve_free (reserve);
  /* sizes that make no sense are made as the smallest image */
  for (guint i = 0; i < 2; i++)
    {
      reserve = sl_image_reserve_new (i == 0 ? 0 : -5, -1, i == 0 ? 0 : 1e9);
      for (guint k = 0; k < 2000 && !sl_image_reserve_is_ready (reserve); k++)
        g_usleep (5000);
      sl_image_reserve_free (reserve);
    }

  /* A window made smaller while the trace loads keeps the images asked
   * for the bigger one, which its view takes. */
  {
    SlTimelineRenderer *renderer = sl_timeline_renderer_new ();
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
    SlTimelineViewport vp;

    sl_timeline_renderer_reserve_images (renderer, WIDTH + 300, HEIGHT + 160, 1);
    sl_timeline_renderer_reserve_images (renderer, WIDTH - 300, HEIGHT - 240, 1);
    sl_timeline_renderer_set_lod (renderer, sl_trace_lod_new (trace, NULL));
    wait_for_images (renderer);
    viewport_at (&vp, 0.01, 0.37);
    draw (renderer, surface, &vp);
    g_assert_cmpuint (sl_timeline_renderer_get_n_images_taken (renderer), >=, 2);
    cairo_surface_destroy (surface);
    sl_timeline_renderer_free (renderer);
  }

  for (guint i = 0; i < 2; i++)
    {
      SlTimelineRenderer *renderer = sl_timeline_renderer_new ();

      sl_timeline_renderer_reserve_images (renderer, 1000, 700, 1);
      sl_timeline_renderer_set_lod (renderer, sl_trace_lod_new (trace, NULL));
      if (i == 1)
        sl_timeline_renderer_drop_images (renderer);
      sl_timeline_renderer_free (renderer);
    }
}

static void
test_pan_scaled (void)
{
  pan_through_zooms (2);
}

/* @renderer's frame into a recording, as GTK's cairo node takes it,
 * replayed onto @surface at the surface's device scale. */
static void
draw_recorded (SlTimelineRenderer       *renderer,
               cairo_surface_t          *surface,
               const SlTimelineViewport *vp)
{
  cairo_surface_t *recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA,
                                                               &(cairo_rectangle_t) { 0, 0, vp->width, vp->height });
  cairo_t *cr = cairo_create (recording);

  sl_timeline_renderer_draw (renderer, cr, vp);
  cairo_destroy (cr);

  cr = cairo_create (surface);
  cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
  cairo_set_source_surface (cr, recording, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (recording);
  cairo_surface_flush (surface);
}

/* A scaled screen under GTK: the renderer draws into a recording, which
 * says nothing of the screen's scale, and is told the scale. Its kept
 * tiles and gutter must have the screen's pixels: the frames, first and
 * panned, at every zoom, are the same as frames drawn whole straight
 * into an image of device scale two (within what replaying strokes
 * changes). Tiles kept at one pixel a unit and scaled up would differ on
 * every slice's edge and every name in the gutter. */
static void
test_recorded_scaled (void)
{
  static const double fractions[] = { 1.0, 0.01, 0 };
  Pair pair;
  guint track = first_thread_track ();

  pair_init (&pair, 2);
  sl_timeline_renderer_set_scale (pair.kept, 2);
  sl_timeline_renderer_set_track_pinned (pair.kept, track, TRUE);
  sl_timeline_renderer_set_track_pinned (pair.whole, track, TRUE);
  for (guint z = 0; z < G_N_ELEMENTS (fractions); z++)
    {
      SlTimelineViewport vp;

      viewport_at (&vp, fractions[z], 0.37);
      for (guint f = 0; f < 4; f++)
        {
          g_autofree char *what = g_strdup_printf ("recorded at scale 2, zoom %u, frame %u", z, f);

          draw_recorded (pair.kept, pair.kept_surface, &vp);
          if (f > 0)
            g_assert_cmpuint (sl_timeline_renderer_get_last_n_tiles (pair.kept), <=, 1);
          sl_timeline_renderer_drop_images (pair.whole);
          draw (pair.whole, pair.whole_surface, &vp);
          assert_close_pixels (pair.kept_surface, pair.whole_surface, 3, what);
          vp.t0 += (gint64)(7 * vp.ns_per_pixel);
        }
    }
  /* Back on a screen of scale one: the images are made again at it. */
  {
    cairo_surface_t *kept1 = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
    cairo_surface_t *whole1 = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
    SlTimelineViewport vp;

    viewport_at (&vp, 0.01, 0.37);
    sl_timeline_renderer_set_scale (pair.kept, 1);
    draw_recorded (pair.kept, kept1, &vp);
    sl_timeline_renderer_drop_images (pair.whole);
    draw (pair.whole, whole1, &vp);
    assert_close_pixels (kept1, whole1, 3, "recorded at scale 1 after scale 2");
    cairo_surface_destroy (kept1);
    cairo_surface_destroy (whole1);
  }
  pair_clear (&pair);
}

/* Selecting slices, with flows or none, zoomed out (more flows in view
 * than are drawn: only the selected slice's) and in (all of them): the
 * selection and its flows are drawn over the kept tiles, so no tile is
 * drawn again, and the frames are the whole ones. */
static void
test_select_keeps_tiles (void)
{
  static const double fractions[] = { 1.0, 0.01 };
  Pair pair;
  guint track = first_thread_track ();

  g_assert_cmpuint (sl_trace_get_n_flows (trace), >, 100);
  pair_init (&pair, 1);
  for (guint z = 0; z < G_N_ELEMENTS (fractions); z++)
    {
      SlTimelineViewport vp;

      viewport_at (&vp, fractions[z], 0.37);
      compare_frame (&pair, &vp, "before selecting");
      for (guint k = 0; k < 8; k++)
        {
          const SlTraceFlow *f = sl_trace_get_flow (trace, k * sl_trace_get_n_flows (trace) / 8);
          g_autofree char *what = g_strdup_printf ("zoom %u, selection %u", z, k);

          if (k == 7)
            both_selected (&pair, G_MAXUINT, 0);
          else if (k % 2 == 0 && f->from_slice != SL_TRACE_NO_PARENT)
            both_selected (&pair, f->from_track, f->from_slice);
          else
            both_selected (&pair, track, k * 5);
          g_assert_cmpuint (compare_frame (&pair, &vp, what), ==, 0);
        }
    }
  pair_clear (&pair);
}

/* Whether the kept tiles hold no flow at @vp: more in view than are
 * drawn (then only the selected slice's, over the tiles), or none near. */
static gboolean
tiles_without_flows (const SlTimelineViewport *vp)
{
  guint32 found[65];
  gint64 t1 = vp->t0 + (gint64)((vp->width - SL_TIMELINE_GUTTER_WIDTH) * vp->ns_per_pixel);
  gint64 margin = (gint64)(3 * 256 * vp->ns_per_pixel);

  return sl_trace_find_flows_in_range (trace, vp->t0, t1, found, G_N_ELEMENTS (found)) > 64
         || sl_trace_find_flows_in_range (trace, vp->t0 - margin, t1 + margin, found, G_N_ELEMENTS (found)) == 0;
}

/* Scrolling the tracks: by whole pixels the kept tiles move and only the
 * strip uncovered is drawn, down and up, by a row, by a pixel, by most of
 * the view, from a scroll of half a pixel, with a pinned track and names
 * coming in and leaving, at a device scale of one and two; the frames are
 * the whole ones, with flows through the tiles too (drawn again over the
 * moved tiles, as only those between rows on screen are drawn). By a
 * fraction of a pixel, or by more than the view, the tiles are drawn
 * again. */
static void
scroll_at_scale (double scale)
{
  static const double steps[] = { 20, 20, 1, 7, -3, -20, -45, 300, -250, 20, 0.5, 20, -20, 2000, -1990, 5 };
  /* at 10 %, a few straight flows through each tile (blended into the
   * tile image, and taken off it before the rows move); at 1 %, curves */
  static const double fractions[] = { 1.0, 0.1, 0.01, 0.0001, 0 };
  guint track = first_thread_track ();
  guint n_moved = 0, n_with_flows = 0;
  Pair pair;

  pair_init (&pair, scale);
  sl_timeline_renderer_set_track_pinned (pair.kept, track, TRUE);
  sl_timeline_renderer_set_track_pinned (pair.whole, track, TRUE);
  for (guint z = 0; z < G_N_ELEMENTS (fractions); z++)
    {
      SlTimelineViewport vp;

      viewport_at (&vp, fractions[z], 0.37);
      vp.scroll_y = 0;
      compare_frame (&pair, &vp, "before scrolling");
      for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
        {
          g_autofree char *what = g_strdup_printf ("scale %g, zoom %u, scroll %u by %g", scale, z, k, steps[k]);
          double band = HEIGHT - SL_TIMELINE_RULER_HEIGHT - sl_timeline_renderer_get_pinned_height (pair.kept);
          double from = vp.scroll_y;
          guint n_tiles;

          vp.scroll_y = MAX (vp.scroll_y + steps[k], 0);
          n_tiles = compare_frame (&pair, &vp, what);
          if (vp.scroll_y - from != floor (vp.scroll_y - from) || fabs (vp.scroll_y - from) >= band)
            g_assert_cmpuint (n_tiles, >=, visible_tiles (&vp) - 1);
          else
            {
              g_assert_cmpuint (n_tiles, ==, 0);
              n_moved++;
              if (!tiles_without_flows (&vp))
                n_with_flows++;
            }
        }
      /* Then a pan over the scrolled tiles */
      vp.t0 += (gint64)(3 * vp.ns_per_pixel);
      compare_frame (&pair, &vp, "pan after scrolling");
    }
  /* Every zoom moved, with flows through the tiles at some. */
  g_assert_cmpuint (n_moved, >=, 5 * 12);
  g_assert_cmpuint (n_with_flows, >=, 12);
  pair_clear (&pair);
}

static void
test_scroll (void)
{
  scroll_at_scale (1);
  scroll_at_scale (2);
}

/* Each change of what is shown, made on both, then a pan: the kept
 * renderer's next frame must be the whole one. At 1 % the tiles' flows
 * are curves, at 10 % straight lines blended into the tiles. */
static void
changes_at (double fraction)
{
  Pair pair;
  SlTimelineViewport vp;
  guint track = first_thread_track ();
  guint n_strings = sl_trace_get_n_strings (trace);
  guint process = sl_trace_get_track_process (trace, track);
  gsize size;

  pair_init (&pair, 1);
  size = (gsize)cairo_image_surface_get_stride (pair.kept_surface) * HEIGHT;
  viewport_at (&vp, fraction, 0.5);
  compare_frame (&pair, &vp, "first frame");
  vp.t0 += (gint64)(3 * vp.ns_per_pixel);
  g_assert_cmpuint (compare_frame (&pair, &vp, "pan"), <, visible_tiles (&vp) - 1);

  for (guint step = 0; step < 15; step++)
    {
      g_autofree guchar *before = g_memdup2 (cairo_image_surface_get_data (pair.kept_surface), size);
      const char *what = NULL;

      for (guint i = 0; i < 2; i++)
        {
          SlTimelineRenderer *r = i == 0 ? pair.kept : pair.whole;

          switch (step)
            {
            case 0:
              what = "selection";
              sl_timeline_renderer_set_selected (r, track, 7);
              break;
            case 1:
              what = "hover";
              sl_timeline_renderer_set_hovered (r, track, 2);
              break;
            case 2:
              what = "range";
              sl_timeline_renderer_set_range (r, vp.t0 + 100, vp.t0 + (gint64)(300 * vp.ns_per_pixel));
              break;
            case 3:
              what = "duration palette";
              sl_timeline_renderer_set_color_mode (r, SL_TIMELINE_COLOR_BY_DURATION);
              break;
            case 4:
              what = "thresholds";
              sl_timeline_renderer_set_duration_thresholds (r, 0.001, 0.01);
              break;
            case 5:
              what = "names palette";
              sl_timeline_renderer_set_color_mode (r, SL_TIMELINE_COLOR_BY_NAME);
              break;
            case 6:
              what = "dark style";
              sl_timeline_renderer_set_dark (r, TRUE);
              break;
            case 7:
              {
                guint8 *highlight = g_new0 (guint8, MAX (n_strings, 1));

                what = "search";
                for (guint s = 0; s < n_strings; s += 3)
                  highlight[s] = 1;
                sl_timeline_renderer_set_highlight (r, highlight);
              }
              break;
            case 8:
              what = "search cleared";
              sl_timeline_renderer_set_highlight (r, NULL);
              break;
            case 9:
              what = "hidden track";
              sl_timeline_renderer_set_track_hidden (r, track, TRUE);
              break;
            case 10:
              what = "pinned track";
              sl_timeline_renderer_set_track_hidden (r, track, FALSE);
              sl_timeline_renderer_set_track_pinned (r, track, TRUE);
              break;
            case 11:
              what = "collapsed process";
              sl_timeline_renderer_set_process_collapsed (r, process, TRUE);
              break;
            case 12:
              what = "scrolled";
              sl_timeline_renderer_set_process_collapsed (r, process, FALSE);
              break;
            case 13:
              what = "resized";
              break;
            default:
              what = "wider only";
              break;
            }
        }
      /* Half a pixel: boxes off whole pixels, drawn with their edges blended */
      if (step == 12)
        vp.scroll_y += 20.5;
      else if (step == 13)
        {
          vp.width = WIDTH - 100;
          vp.height = HEIGHT - 40;
        }
      else if (step == 14)
        vp.width = WIDTH - 40;
      compare_frame (&pair, &vp, what);
      /* Colours changed where the tiles were kept: the comparison sees it. */
      if (step >= 3 && step != 8)
        g_assert_true (memcmp (before, cairo_image_surface_get_data (pair.kept_surface), size) != 0);
      vp.t0 += (gint64)(3 * vp.ns_per_pixel);
      compare_frame (&pair, &vp, what);
    }
  pair_clear (&pair);
}

static void
test_changes (void)
{
  changes_at (0.01);
  changes_at (0.1);
}

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  const guchar *data = cairo_image_surface_get_data (surface);

  return *(const guint32 *)(gconstpointer)(data + (gsize)y * cairo_image_surface_get_stride (surface) + 4 * x);
}

static cairo_status_t
append_to_string (void                *closure,
                  const unsigned char *data,
                  unsigned int         length)
{
  g_string_append_len (closure, (const char *)data, length);
  return CAIRO_STATUS_SUCCESS;
}

static void
test_odd_viewports (void)
{
  static const double bad_zooms[] = { 0, -5, NAN, INFINITY };
  g_autoptr(SlTimelineRenderer) renderer = sl_timeline_renderer_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  guint32 background;
  SlTimelineViewport vp;
  SlTimelineHit hit;

  sl_timeline_renderer_set_lod (renderer, sl_trace_lod_new (trace, NULL));

  /* The background where the tracks would be, for each zoom that is none */
  viewport_at (&vp, 0.01, 0.5);
  vp.scroll_y = 0;
  for (guint i = 0; i < G_N_ELEMENTS (bad_zooms); i++)
    {
      vp.ns_per_pixel = bad_zooms[i];
      draw (renderer, surface, &vp);
      if (i == 0)
        background = pixel_at (surface, 600, 400);
      g_assert_cmphex (pixel_at (surface, 600, 400), ==, background);
      g_assert_cmphex (pixel_at (surface, 600, 40), ==, background);
    }

  /* No room for tracks, or no height at all */
  viewport_at (&vp, 0.01, 0.5);
  vp.width = SL_TIMELINE_GUTTER_WIDTH - 10;
  draw (renderer, surface, &vp);
  g_assert_cmpuint (sl_timeline_renderer_get_last_n_tiles (renderer), ==, 0);
  viewport_at (&vp, 0.01, 0.5);
  vp.height = 0;
  draw (renderer, surface, &vp);
  g_assert_cmpuint (sl_timeline_renderer_get_last_n_tiles (renderer), ==, 0);

  /* At the deepest zoom a century past the trace the grid of pixels does
   * not fit in a double: nothing is there, and the frame says so. */
  viewport_at (&vp, 0.01, 0.5);
  vp.scroll_y = 0;
  vp.ns_per_pixel = 0.01;
  vp.t0 = sl_trace_get_start_ns (trace) + G_GINT64_CONSTANT (3000000000000000000);
  draw (renderer, surface, &vp);
  g_assert_cmpuint (sl_timeline_renderer_get_last_n_tiles (renderer), ==, 0);
  g_assert_cmphex (pixel_at (surface, 600, 100), ==, background);
  sl_timeline_renderer_hit (renderer, &vp, 600, 100, &hit);
  g_assert_cmpint (hit.at_ns, >=, vp.t0);
  g_assert_cmpint (hit.at_ns, <=, vp.t0 + 1000);
  g_assert_true (hit.kind != SL_TIMELINE_HIT_SLICE);

  cairo_surface_destroy (surface);
}

/* Lines blended into pixels (the timeline's straight flows) against the
 * same lines stroked by cairo: random lines of every slope and length,
 * one and two pixels wide, light on dark and dark on light, must be
 * within a few levels of the stroke in every pixel (8 at most when this
 * was written; a line missing, moved or of another colour is tens to a
 * hundred levels away); a line split over clips that meet must give the
 * same pixels as whole; nothing outside the clip may change, whatever the
 * line. */
static void
test_pixel_lines (void)
{
  const int size = 96, margin = 8;
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261206);
  cairo_surface_t *blended = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, size, size);
  cairo_surface_t *stroked = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, size, size);
  cairo_surface_t *split = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, size, size);
  int stride = cairo_image_surface_get_stride (blended);
  SlPixelClip clip = { margin, size - 2 * margin, margin, size - margin };
  int worst = 0;

  for (guint k = 0; k < 2000; k++)
    {
      gboolean dark = k % 2;
      double fg = dark ? 0.92 : 0.13, bg = dark ? 0.12 : 0.98;
      double width = k % 4 < 2 ? 1 : 2;
      double length = k % 3 == 0 ? g_rand_double_range (rand, 0.3, 6) : g_rand_double_range (rand, 6, 120);
      double angle = g_rand_double_range (rand, 0, 2 * G_PI);
      double x0 = g_rand_double_range (rand, -10, size - 2 * margin + 10);
      double y0 = g_rand_double_range (rand, -10, size + 10);
      double x1 = x0 + length * cos (angle), y1 = y0 + length * sin (angle);
      guint32 colour = sl_pixel_colour (fg, fg, fg, 0.45);
      cairo_surface_t *images[] = { blended, stroked, split };
      cairo_t *cr;

      if (k % 5 == 0)
        /* near vertical, as most flows are */
        x1 = x0 + g_rand_double_range (rand, -0.2, 0.2) * fabs (y1 - y0);
      for (guint i = 0; i < G_N_ELEMENTS (images); i++)
        {
          cr = cairo_create (images[i]);
          cairo_set_source_rgb (cr, bg, bg, bg);
          cairo_paint (cr);
          cairo_destroy (cr);
          cairo_surface_flush (images[i]);
        }

      sl_pixel_line_blend (cairo_image_surface_get_data (blended), stride, &clip, x0, y0, x1, y1, width, colour, NULL);
      cairo_surface_mark_dirty (blended);

      /* the same clip in two parts, split at a column */
      {
        int cut = (int)g_rand_int_range (rand, 1, clip.width);
        SlPixelClip left = { clip.origin, cut, clip.top, clip.bottom };
        SlPixelClip right = { clip.origin + cut, clip.width - cut, clip.top, clip.bottom };

        sl_pixel_line_blend (cairo_image_surface_get_data (split), stride, &left, x0, y0, x1, y1, width, colour, NULL);
        sl_pixel_line_blend (cairo_image_surface_get_data (split), stride, &right, x0 - cut, y0, x1 - cut, y1, width,
                             colour, NULL);
        cairo_surface_mark_dirty (split);
      }

      cr = cairo_create (stroked);
      cairo_rectangle (cr, clip.origin, clip.top, clip.width, clip.bottom - clip.top);
      cairo_clip (cr);
      cairo_set_line_width (cr, width);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
      cairo_set_source_rgba (cr, fg, fg, fg, 0.45);
      cairo_move_to (cr, clip.origin + x0, y0);
      cairo_line_to (cr, clip.origin + x1, y1);
      cairo_stroke (cr);
      cairo_destroy (cr);
      cairo_surface_flush (stroked);

      for (int y = 0; y < size; y++)
        {
          const guchar *b = cairo_image_surface_get_data (blended) + (gsize)y * stride;
          const guchar *s = cairo_image_surface_get_data (stroked) + (gsize)y * stride;
          const guchar *p = cairo_image_surface_get_data (split) + (gsize)y * stride;

          if (memcmp (b, p, (gsize)size * 4) != 0)
            g_error ("line %u (%g, %g)-(%g, %g): split over two clips, row %d differs", k, x0, y0, x1, y1, y);
          for (int x = 0; x < size * 4; x++)
            {
              int d = ABS ((int)b[x] - (int)s[x]);

              worst = MAX (worst, d);
              if (d > 12)
                g_error ("line %u (%g, %g)-(%g, %g) width %g: pixel (%d, %d) channel %d is %u blended, %u stroked", k,
                         x0, y0, x1, y1, width, x / 4, y, x % 4, b[x], s[x]);
            }
        }
    }
  g_test_message ("largest difference from a stroke: %d levels", worst);

  /* Lines that make no sense change nothing; lines far outside the clip
   * or through it at the size of a trace's rows change nothing outside. */
  {
    static const double odd[][5] = {
      { NAN, 3, 40, 50, 1 }, { 3, INFINITY, 40, 50, 1 }, { 3, 3, 3, 3, 1 }, { 3, 3, 40, 50, 0 },
      { 3, 3, 40, 50, -1 }, { 3, 3, 40, 50, NAN }, { 3, 3, 40, 50, 1e6 }, { -1e12, -1e12, 1e12, 1e12, 1 },
      { 20, -1e9, 21, 1e9, 2 }, { -1e9, 30, 1e9, 31, 2 }, { 1e300, 1, -1e300, 2, 1 },
    };
    guint32 colour = sl_pixel_colour (0, 0, 0, 1);
    cairo_t *cr = cairo_create (blended);

    cairo_set_source_rgb (cr, 1, 1, 1);
    cairo_paint (cr);
    cairo_destroy (cr);
    cairo_surface_flush (blended);
    for (guint i = 0; i < G_N_ELEMENTS (odd); i++)
      sl_pixel_line_blend (cairo_image_surface_get_data (blended), stride, &clip, odd[i][0], odd[i][1], odd[i][2],
                           odd[i][3], odd[i][4], colour, NULL);
    for (int y = 0; y < size; y++)
      for (int x = 0; x < size; x++)
        {
          guint32 pixel = ((const guint32 *)(gconstpointer)(cairo_image_surface_get_data (blended) + (gsize)y * stride))[x];
          gboolean inside = x >= clip.origin && x < clip.origin + clip.width && y >= clip.top && y < clip.bottom;

          if (!inside)
            g_assert_cmphex (pixel, ==, 0xffffffff);
        }
  }

  /* Lines blended keeping what they cover, over each other and over a
   * picture of random pixels, are the same pixels as without keeping;
   * taken off, last first, they leave the picture as it was. */
  {
    gsize bytes = (gsize)stride * size;
    g_autofree guchar *picture = g_malloc (bytes);
    g_autoptr(GArray) under = g_array_new (FALSE, FALSE, sizeof (SlPixelUnder));
    guchar *kept = cairo_image_surface_get_data (split), *plain = cairo_image_surface_get_data (blended);

    for (gsize i = 0; i < bytes; i += 4)
      *(guint32 *)(gpointer)(picture + i) = g_rand_int (rand) | 0xff000000;
    for (guint round = 0; round < 20; round++)
      {
        memcpy (kept, picture, bytes);
        memcpy (plain, picture, bytes);
        for (guint k = 0; k < 30; k++)
          {
            double x0 = g_rand_double_range (rand, -10, size + 10), y0 = g_rand_double_range (rand, -10, size + 10);
            double x1 = x0 + g_rand_double_range (rand, -16, 16), y1 = g_rand_double_range (rand, -10, size + 10);
            double width = k % 2 ? 1 : 2;
            guint32 colour = sl_pixel_colour (g_rand_double (rand), g_rand_double (rand), g_rand_double (rand), 0.45);

            sl_pixel_line_blend (kept, stride, &clip, x0, y0, x1, y1, width, colour, under);
            sl_pixel_line_blend (plain, stride, &clip, x0, y0, x1, y1, width, colour, NULL);
          }
        g_assert_cmpuint (under->len, >, 0);
        g_assert_true (memcmp (kept, plain, bytes) == 0);
        g_assert_true (memcmp (kept, picture, bytes) != 0);
        sl_pixel_restore (kept, under);
        g_assert_cmpuint (under->len, ==, 0);
        g_assert_true (memcmp (kept, picture, bytes) == 0);
      }
  }

  cairo_surface_destroy (split);
  cairo_surface_destroy (stroked);
  cairo_surface_destroy (blended);
}

/* A run's pieces, and which thread did each */
typedef struct {
  gint done[64];
  gint by_thread[2];
} Pieces;

static void
count_piece (guint    index,
             guint    thread,
             gpointer data)
{
  Pieces *pieces = data;

  /* some pieces take a while, so that both threads take some */
  if (index % 3 == 0)
    g_usleep (100);
  g_assert_cmpuint (thread, <, 2);
  g_atomic_int_inc (&pieces->done[index]);
  g_atomic_int_inc (&pieces->by_thread[thread]);
}

/* Every piece of a run is done once, and done when the run returns,
 * whether the worker shares them out (never left out, so that every run
 * goes through the hand-out and the taking back; then left out after runs
 * it did not share), gives the worker every other one or is off; the
 * worker's count is the pieces it did. */
static void
test_frame_worker (void)
{
  static const guint sizes[] = { 0, 1, 2, 3, 7, 64 };

  for (guint mode = 0; mode < 4; mode++)
    {
      g_autoptr(SlFrameWorker) worker = sl_frame_worker_new ();
      guint worker_total = 0;

      sl_frame_worker_set_enabled (worker, mode != 2);
      sl_frame_worker_set_alternate (worker, mode == 1);
      sl_frame_worker_set_adaptive (worker, mode == 3);
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        for (guint round = 0; round < 60; round++)
          {
            Pieces pieces = { { 0 }, { 0 } };
            guint n = sizes[k], by_worker;

            by_worker = sl_frame_worker_run (worker, n, count_piece, &pieces);
            for (guint i = 0; i < n; i++)
              g_assert_cmpint (g_atomic_int_get (&pieces.done[i]), ==, 1);
            g_assert_cmpint (g_atomic_int_get (&pieces.by_thread[1]), ==, (gint)by_worker);
            g_assert_cmpint (g_atomic_int_get (&pieces.by_thread[0]) + (gint)by_worker, ==, (gint)n);
            if (mode == 1 && n >= 2)
              g_assert_cmpuint (by_worker, ==, n / 2);
            if (mode == 2 || n < 2)
              g_assert_cmpuint (by_worker, ==, 0);
            worker_total += by_worker;
          }
      if (mode == 1)
        g_assert_cmpuint (worker_total, >, 0);
    }
}

/* An SVG export stays boxes and text: the tiles are drawn into it, no
 * image of them is kept or embedded. */
static void
test_vector_target (void)
{
  g_autoptr(SlTimelineRenderer) renderer = sl_timeline_renderer_new ();
  g_autoptr(GString) svg = g_string_new (NULL);
  cairo_surface_t *surface = cairo_svg_surface_create_for_stream (append_to_string, svg, WIDTH, HEIGHT);
  SlTimelineViewport vp;
  cairo_t *cr;

  sl_timeline_renderer_set_lod (renderer, sl_trace_lod_new (trace, NULL));
  viewport_at (&vp, 0.01, 0.5);
  cr = cairo_create (surface);
  sl_timeline_renderer_draw (renderer, cr, &vp);
  g_assert_cmpuint (sl_timeline_renderer_get_last_n_tiles (renderer), >=, visible_tiles (&vp) - 1);
  g_assert_cmpuint (sl_timeline_renderer_get_last_n_spans (renderer), >, 100);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  cairo_surface_destroy (surface);

  g_assert_null (strstr (svg->str, "<image"));
  g_assert_nonnull (strstr (svg->str, "<path"));
}

/* Wider than cairo lets an image be: the tiles go straight into the
 * target instead of into a kept image. */
static void
test_too_wide (void)
{
  g_autoptr(SlTimelineRenderer) renderer = sl_timeline_renderer_new ();
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  SlTimelineViewport vp;
  double x, y, w, h;
  cairo_t *cr;

  sl_timeline_renderer_set_lod (renderer, sl_trace_lod_new (trace, NULL));
  viewport_at (&vp, 0.01, 0.5);
  vp.width = 40000;
  cr = cairo_create (surface);
  sl_timeline_renderer_draw (renderer, cr, &vp);
  g_assert_cmpuint (sl_timeline_renderer_get_last_n_tiles (renderer), >=, visible_tiles (&vp) - 1);
  cairo_destroy (cr);
  cairo_recording_surface_ink_extents (surface, &x, &y, &w, &h);
  g_assert_cmpfloat (w, >=, 40000 - 1);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  trace = fixture_build_trace (120000, 8, 20261206);

  g_test_add_func ("/timeline-tiles/pan", test_pan);
  g_test_add_func ("/timeline-tiles/pan-shared", test_pan_shared);
  g_test_add_func ("/timeline-tiles/pan-scaled", test_pan_scaled);
  g_test_add_func ("/timeline-tiles/reserved-images", test_reserved_images);
  g_test_add_func ("/timeline-tiles/image-reserve", test_image_reserve);
  g_test_add_func ("/timeline-tiles/recorded-scaled", test_recorded_scaled);
  g_test_add_func ("/timeline-tiles/select-keeps-tiles", test_select_keeps_tiles);
  g_test_add_func ("/timeline-tiles/scroll", test_scroll);
  g_test_add_func ("/timeline-tiles/changes", test_changes);
  g_test_add_func ("/timeline-tiles/odd-viewports", test_odd_viewports);
  g_test_add_func ("/timeline-tiles/pixel-lines", test_pixel_lines);
  g_test_add_func ("/timeline-tiles/frame-worker", test_frame_worker);
  g_test_add_func ("/timeline-tiles/vector-target", test_vector_target);
  g_test_add_func ("/timeline-tiles/too-wide", test_too_wide);

  ret = g_test_run ();
  g_object_unref (trace);
  return ret;
}
