/* sl-timeline-renderer.c
 *
 * The tracks area is drawn in tiles: columns TILE_WIDTH pixels wide on a
 * grid of whole pixels counted from the trace's start at the current zoom.
 * A tile asks the level of detail for the spans of each visible row (at
 * most about two per pixel), batches the boxes by colour and writes them
 * straight into an image that holds the tiles in view and one more on each
 * side, with the grid and the counters. While few flows are in view, a
 * tile they pass through is also kept with them drawn over it in a second
 * image, which frames show it from; else the selected slice's flows are
 * drawn over the tiles, so that selecting keeps them. Panning blits the kept
 * tiles and draws only those it uncovers; a first frame draws every tile
 * the same way, so both give the same pixels. The view's left edge is put
 * on a whole pixel of that grid, which keeps the blit exact. Names depend
 * on where the view's edges fall and are drawn over the tiles each frame,
 * from shaped layouts kept between frames and the wide slices each tile
 * noted, so no frame asks the level of detail again for them; so are the
 * outlines, the selected flow's arrowhead and the ruler. A vertical
 * scroll by whole pixels moves the kept tiles and the gutter, draws only
 * the rows it uncovers, and draws the flows through a tile again over a
 * copy of it (they join rows on screen only). The gutter is
 * kept in an image of its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "sl-frame-worker.h"
#include "sl-image-reserve.h"
#include "sl-pixel-line.h"
#include "sl-timeline-renderer.h"

#define ROW_HEIGHT 20
#define COUNTER_HEIGHT 44
#define PROCESS_HEIGHT 24
#define TRACK_GAP 4
#define MIN_LABEL_WIDTH 40
#define LABEL_PADDING 4
#define TEXT_CACHE_LIMIT 8192
#define TICK_SPACING 110
#define MAX_FLOWS_DRAWN 64
#define TILE_WIDTH 256
#define NO_TILE G_MININT64

/* Okabe–Ito without black, each at three lightnesses: names get one of 21
 * colours that stay apart for every colour vision. */
static const double base_palette[][3] = {
  { 0x00 / 255., 0x72 / 255., 0xB2 / 255. },
  { 0xE6 / 255., 0x9F / 255., 0x00 / 255. },
  { 0x00 / 255., 0x9E / 255., 0x73 / 255. },
  { 0xCC / 255., 0x79 / 255., 0xA7 / 255. },
  { 0x56 / 255., 0xB4 / 255., 0xE9 / 255. },
  { 0xD5 / 255., 0x5E / 255., 0x00 / 255. },
  { 0xF0 / 255., 0xE4 / 255., 0x42 / 255. },
};
#define N_BASE G_N_ELEMENTS (base_palette)
#define N_SHADES 3
#define N_COLORS (N_BASE * N_SHADES)
/* Slices that do not match a search are drawn in this extra colour */
#define DIM_COLOR N_COLORS
/* Then green, yellow and red for the duration palette */
#define DURATION_COLOR (N_COLORS + 1)
#define N_SLOTS (DURATION_COLOR + 3)

/* GNOME's green 5, yellow 3 and red 3: apart in lightness as well as in
 * hue, so the three stay distinct without telling red from green. */
static const double duration_palette[3][3] = {
  { 0x26 / 255., 0xA2 / 255., 0x69 / 255. },
  { 0xF6 / 255., 0xD3 / 255., 0x2D / 255. },
  { 0xE0 / 255., 0x1B / 255., 0x24 / 255. },
};

typedef enum {
  ROW_PROCESS,
  ROW_SLICES,
  ROW_COUNTER,
} RowKind;

typedef struct {
  RowKind  kind;
  guint    process;
  guint    track;
  guint    depth;
  double   y;      /* within its band */
  double   h;
  gboolean pinned;
} Row;

typedef struct {
  float x, y, w, h;
} Rect;

typedef struct {
  float   x, y, w;
  guint32 name_id;
  guint8  color;
} Label;

/* A slice wide enough for its name, met while drawing a tile: where it is
 * on the zoom's pixel grid, so a frame places its name without a query. */
typedef struct {
  double  gx0;
  double  gx1;
  guint32 row;
  guint32 name_id;
  guint8  color;
} TileLabel;

/* One column of the tile image: which tile it holds, and its names */
typedef struct {
  gint64   tile;      /* index on the pixel grid, or NO_TILE */
  GArray  *labels;    /* TileLabel */
  gboolean flows;     /* the flow image holds it with its flows */
  gboolean copied;    /* put_tile_end wrote it into the flow image too */
  GArray  *under;     /* SlPixelUnder: the tile image's pixels under the flows blended into it there */
} TileSlot;

/* A tile written straight into the tile image's memory: what the frame's
 * thread works out for it first (put_tile_begin), for put_tile_pixels,
 * which may run on the frame worker, and put_tile_end. */
typedef struct {
  gint64   tile;
  guint    s;           /* its slot */
  guchar  *flow_data;   /* the flow image's memory where the tile goes there too, or NULL */
  guint8  *covered;     /* per pixel row: written by put_tile_band */
  guint32  grid_line[TILE_WIDTH * 4];   /* the background with the grid lines */
  guint32  bg_line[TILE_WIDTH * 4];     /* the background alone */
} TileJob;

/* What the tiles of one frame share while they are put */
typedef struct {
  SlTimelineRenderer       *self;
  const SlTimelineViewport *vp;
  guchar                   *data;   /* the tile image's memory */
  int                       stride;
  int                       scale;
  int                       height; /* pixel rows of the view in the image */
  guint32                   pixels[N_SLOTS];
  guint                     n_spans[2];   /* per thread */
} TilePass;

struct _SlTimelineRenderer
{
  SlTraceLod           *lod;
  SlTrace              *trace;
  gint64                origin_ns;            /* the trace's start: time 0 of the pixel grid */
  gboolean              dark;
  gboolean              naive;
  PangoFontDescription *font;
  SlTimelineColorMode   color_mode;
  double                yellow_percent;
  double                red_percent;
  double                yellow_ns;     /* the thresholds on this trace's span */
  double                red_ns;

  guint8               *name_color;   /* per string id */
  gboolean             *hidden;       /* per track */
  gboolean             *pinned;       /* per track */
  gboolean             *collapsed;    /* per process */
  GArray               *rows;         /* Row: pinned band first, then the scrolled band */
  guint                 n_pinned_rows;
  int                  *track_row;    /* first row of each track, or -1 */
  double                pinned_height;
  double                content_height;

  gboolean              has_selected;
  guint                 selected_track;
  guint32               selected_slice;
  gboolean              has_hovered;
  guint                 hovered_track;
  guint32               hovered_slice;
  gboolean              has_range;
  gint64                range_start;
  gint64                range_end;
  double                box_x0;
  double                box_x1;

  /* Per-frame scratch, kept to avoid allocating */
  GArray               *spans;
  GArray               *rects[N_SLOTS];
  GArray               *labels;
  guint32               flows_in_view[MAX_FLOWS_DRAWN + 1];
  GArray               *scanned_flows;  /* the naive peer's: guint32 */
  SlTraceLodColumn     *columns;
  guint                 n_columns;
  guint                 last_n_spans;
  GHashTable           *text_cache;   /* (name id, width class) → PangoLayout */
  PangoLayout          *scratch_layout;

  /* The tile image: slot i holds a tile in columns [i, i + 1) × TILE_WIDTH */
  cairo_surface_t      *tiles;
  TileSlot             *slots;
  guint                 n_slots;
  double                tiles_ns_per_pixel;   /* what the kept tiles were drawn for */
  double                tiles_scroll_y;
  int                   tiles_height;         /* of the view they were drawn for */
  int                   tiles_image_height;   /* allocated, with room to grow */
  double                tiles_scale;
  gboolean              tiles_selected_flows; /* only the selected slice's flows */
  cairo_surface_t      *flow_tiles;           /* the tiles with flows through them, and those flows */
  GArray               *tile_flows;           /* guint32, scratch */
  guint8               *covered;              /* per pixel row of each job: written by put_tile_band */
  guint                 n_covered;
  TileJob              *jobs;                 /* the tiles being put at once */
  guint                 n_jobs;
  SlFrameWorker        *worker;               /* shares the tiles of a frame out, made when first needed */
  SlTimelineTileThreads tile_threads;
  GArray               *worker_spans;         /* the worker's scratch, as spans */
  guint                 last_n_worker_tiles;
  /* The images made ready on workers for a view of this size (0: none
   * asked for), taken by the first frames that need them */
  int                   reserve_width;
  int                   reserve_height;
  int                   reserve_scale;
  SlImageReserve       *tiles_reserve;
  SlImageReserve       *flows_reserve;
  SlImageReserve       *gutter_reserve;
  guint                 n_images_taken;       /* made ready by a reserve */
  /* The gutter and process headers, kept while nothing they show changes */
  cairo_surface_t      *gutter;
  gboolean              gutter_valid;
  double                gutter_scroll_y;
  int                   gutter_width;
  int                   gutter_height;
  int                   gutter_image_width;   /* allocated, with room to grow */
  int                   gutter_image_height;
  double                gutter_scale;
  guint                 last_n_tiles;
  int                   screen_scale;         /* pixels a unit where a recording ends up */
  guint                 labels_held_first;    /* rows whose names the tiles hold: a strip */
  guint                 labels_held_end;      /* drawn by a scroll adds none for them */
  gint64                view_px;              /* this frame's left edge on the pixel grid */
  gboolean              snapped;              /* FALSE: the grid is too far out for doubles */

  double                color[N_SLOTS][3];
  guint8               *highlight;     /* per string id: matches the search; NULL: no search */
  double                bg[3];
  double                fg[3];
  double                band_top;      /* of the band being drawn */
  double                band_bottom;
};

static void
compute_palette (SlTimelineRenderer *self)
{
  static const double mix[N_SHADES] = { 0.0, 0.32, -0.25 };

  for (guint i = 0; i < N_COLORS; i++)
    {
      const double *base = base_palette[i % N_BASE];
      double m = mix[i / N_BASE];

      for (guint c = 0; c < 3; c++)
        {
          double v = m >= 0 ? base[c] + (1 - base[c]) * m : base[c] * (1 + m);

          /* Slightly muted on a dark background, so text and outlines stand out. */
          self->color[i][c] = self->dark ? v * 0.82 : v;
        }
    }

  for (guint c = 0; c < 3; c++)
    self->color[DIM_COLOR][c] = self->dark ? 0.30 : 0.84;
  for (guint i = 0; i < 3; i++)
    for (guint c = 0; c < 3; c++)
      self->color[DURATION_COLOR + i][c] = self->dark ? duration_palette[i][c] * 0.82 : duration_palette[i][c];

  if (self->dark)
    {
      self->bg[0] = self->bg[1] = self->bg[2] = 0.14;
      self->fg[0] = self->fg[1] = self->fg[2] = 0.92;
    }
  else
    {
      self->bg[0] = self->bg[1] = self->bg[2] = 0.98;
      self->fg[0] = self->fg[1] = self->fg[2] = 0.13;
    }
}

static guint
color_index_for_name (const char *name)
{
  /* djb2 over the bytes: stable between runs and machines. */
  guint32 h = 5381;

  for (const guchar *p = (const guchar *)name; *p; p++)
    h = h * 33 + *p;
  return h % N_COLORS;
}

/**
 * sl_timeline_color_for_name:
 * @rgb: (out caller-allocates) (array fixed-size=3): the colour
 *
 * The colour a slice called @name has everywhere.
 */
void
sl_timeline_color_for_name (const char *name,
                            gboolean    dark,
                            double      rgb[3])
{
  SlTimelineRenderer tmp = { .dark = dark };

  compute_palette (&tmp);
  memcpy (rgb, tmp.color[color_index_for_name (name ? name : "")], sizeof (double) * 3);
}

/**
 * sl_timeline_color_for_duration:
 * @rgb: (out caller-allocates) (array fixed-size=3): the colour
 *
 * The colour of a slice of @duration_class in the duration palette, as
 * the legend shows it.
 */
void
sl_timeline_color_for_duration (SlTimelineDurationClass duration_class,
                                gboolean                dark,
                                double                  rgb[3])
{
  SlTimelineRenderer tmp = { .dark = dark };

  g_return_if_fail (duration_class <= SL_TIMELINE_DURATION_LONG);

  compute_palette (&tmp);
  memcpy (rgb, tmp.color[DURATION_COLOR + duration_class], sizeof (double) * 3);
}

/* Percentages of the trace's span turned into nanoseconds once, so a
 * frame compares each slice's precomputed duration with two numbers. */
static void
compute_duration_thresholds (SlTimelineRenderer *self)
{
  double span = self->trace != NULL ? (double)(sl_trace_get_end_ns (self->trace) - sl_trace_get_start_ns (self->trace)) : 0;

  self->yellow_ns = span * self->yellow_percent / 100.0;
  self->red_ns = span * self->red_percent / 100.0;
}

static inline SlTimelineDurationClass
duration_class (const SlTimelineRenderer *self,
                gint64                    dur_ns)
{
  if (dur_ns <= self->yellow_ns)
    return SL_TIMELINE_DURATION_SHORT;
  if (dur_ns >= self->red_ns)
    return SL_TIMELINE_DURATION_LONG;
  return SL_TIMELINE_DURATION_MEDIUM;
}

/* The colour slot of @slice in the current mode: two comparisons and no
 * allocation, as it runs for every span of a frame. */
static inline guint8
slice_color (const SlTimelineRenderer *self,
             const SlTraceSlices      *s,
             guint32                   slice)
{
  guint32 name = sl_trace_slices_name_id (s, slice);

  if (self->highlight && !self->highlight[name])
    return DIM_COLOR;
  if (self->color_mode == SL_TIMELINE_COLOR_BY_DURATION)
    return DURATION_COLOR + duration_class (self, sl_trace_slices_dur_ns (s, slice));
  return self->name_color[name];
}

/* Everything a tile shows changed: colours, layout, the search. */
/* What the slices look like changed (colours, the search), not the
 * tracks: the gutter stays, so a change of palette draws no track name
 * again. The first frame after one at 8 M slices, 1920 × 1080 (CPU
 * medians, the best of five runs each, before and after in the same run,
 * busy machine): 7.4 → 6.2 ms at the full view, 7.6 → 6.2 ms at 10 %. */
static void
invalidate_slice_tiles (SlTimelineRenderer *self)
{
  for (guint i = 0; i < self->n_slots; i++)
    {
      self->slots[i].tile = NO_TILE;
      self->slots[i].flows = FALSE;
    }
}

static void
invalidate_tiles (SlTimelineRenderer *self)
{
  invalidate_slice_tiles (self);
  self->gutter_valid = FALSE;
}

static void
clear_reserves (SlTimelineRenderer *self)
{
  g_clear_pointer (&self->tiles_reserve, sl_image_reserve_free);
  g_clear_pointer (&self->flows_reserve, sl_image_reserve_free);
  g_clear_pointer (&self->gutter_reserve, sl_image_reserve_free);
}

static void
free_tiles (SlTimelineRenderer *self)
{
  for (guint i = 0; i < self->n_slots; i++)
    {
      g_array_unref (self->slots[i].labels);
      g_array_unref (self->slots[i].under);
    }
  g_clear_pointer (&self->slots, g_free);
  self->n_slots = 0;
  g_clear_pointer (&self->tiles, cairo_surface_destroy);
  g_clear_pointer (&self->flow_tiles, cairo_surface_destroy);
}

SlTimelineRenderer *
sl_timeline_renderer_new (void)
{
  SlTimelineRenderer *self = g_new0 (SlTimelineRenderer, 1);

  self->font = pango_font_description_from_string ("Sans 8.5");
  self->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  self->spans = g_array_new (FALSE, FALSE, sizeof (SlTraceLodSpan));
  self->worker_spans = g_array_new (FALSE, FALSE, sizeof (SlTraceLodSpan));
  self->labels = g_array_new (FALSE, FALSE, sizeof (Label));
  self->scanned_flows = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->tile_flows = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < N_SLOTS; i++)
    self->rects[i] = g_array_new (FALSE, FALSE, sizeof (Rect));
  self->text_cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_object_unref);
  self->yellow_percent = SL_TIMELINE_DEFAULT_YELLOW_PERCENT;
  self->red_percent = SL_TIMELINE_DEFAULT_RED_PERCENT;
  self->screen_scale = 1;
  compute_palette (self);

  return self;
}

static void
clear_trace (SlTimelineRenderer *self)
{
  g_clear_pointer (&self->lod, sl_trace_lod_free);
  self->trace = NULL;
  g_clear_pointer (&self->name_color, g_free);
  g_clear_pointer (&self->highlight, g_free);
  g_clear_pointer (&self->hidden, g_free);
  g_clear_pointer (&self->pinned, g_free);
  g_clear_pointer (&self->collapsed, g_free);
  g_clear_pointer (&self->track_row, g_free);
  g_array_set_size (self->rows, 0);
  g_hash_table_remove_all (self->text_cache);
  self->has_selected = self->has_hovered = self->has_range = FALSE;
  invalidate_tiles (self);
}

void
sl_timeline_renderer_free (SlTimelineRenderer *self)
{
  if (self == NULL)
    return;

  clear_trace (self);
  g_clear_pointer (&self->font, pango_font_description_free);
  g_array_unref (self->rows);
  g_array_unref (self->spans);
  g_array_unref (self->labels);
  g_array_unref (self->scanned_flows);
  g_array_unref (self->tile_flows);
  for (guint i = 0; i < N_SLOTS; i++)
    g_array_unref (self->rects[i]);
  g_hash_table_unref (self->text_cache);
  g_clear_object (&self->scratch_layout);
  free_tiles (self);
  g_clear_pointer (&self->gutter, cairo_surface_destroy);
  clear_reserves (self);
  g_free (self->columns);
  g_free (self->covered);
  g_free (self->jobs);
  g_clear_pointer (&self->worker, sl_frame_worker_free);
  g_array_unref (self->worker_spans);
  g_free (self);
}

static void
relayout (SlTimelineRenderer *self)
{
  guint n_tracks;
  double y = 0;
  guint last_process = G_MAXUINT;

  g_array_set_size (self->rows, 0);
  self->n_pinned_rows = 0;
  self->pinned_height = self->content_height = 0;
  invalidate_tiles (self);
  if (self->trace == NULL)
    return;

  n_tracks = sl_trace_get_n_tracks (self->trace);
  for (guint t = 0; t < n_tracks; t++)
    self->track_row[t] = -1;

  /* Two passes: the pinned band, then everything else by process. */
  for (guint pass = 0; pass < 2; pass++)
    {
      y = 0;
      last_process = G_MAXUINT;
      for (guint t = 0; t < n_tracks; t++)
        {
          guint process = sl_trace_get_track_process (self->trace, t);
          SlTraceTrackKind kind = sl_trace_get_track_kind (self->trace, t);
          gboolean pinned = pass == 0;

          if (self->hidden[t] || self->pinned[t] != pinned)
            continue;

          if (!pinned && process != last_process)
            {
              Row header = { ROW_PROCESS, process, t, 0, y, PROCESS_HEIGHT, FALSE };

              g_array_append_val (self->rows, header);
              y += PROCESS_HEIGHT;
              last_process = process;
            }
          if (!pinned && self->collapsed[process])
            continue;

          self->track_row[t] = self->rows->len;
          if (kind == SL_TRACE_TRACK_COUNTER)
            {
              Row row = { ROW_COUNTER, process, t, 0, y, COUNTER_HEIGHT, pinned };

              g_array_append_val (self->rows, row);
              y += COUNTER_HEIGHT;
            }
          else
            {
              guint n_depths = MAX (sl_trace_lod_get_n_depths (self->lod, t), 1);

              for (guint d = 0; d < n_depths; d++)
                {
                  Row row = { ROW_SLICES, process, t, d, y, ROW_HEIGHT, pinned };

                  g_array_append_val (self->rows, row);
                  y += ROW_HEIGHT;
                }
            }
          y += TRACK_GAP;
        }

      if (pass == 0)
        {
          self->n_pinned_rows = self->rows->len;
          self->pinned_height = y > 0 ? y + TRACK_GAP : 0;
        }
      else
        self->content_height = y;
    }
}

/**
 * sl_timeline_renderer_set_lod:
 * @lod: (transfer full) (nullable): the index of the trace to draw
 */
static void reserve_flow_image (SlTimelineRenderer *self);

void
sl_timeline_renderer_set_lod (SlTimelineRenderer *self,
                              SlTraceLod         *lod)
{
  guint n_strings, n_tracks, n_processes;

  g_return_if_fail (self != NULL);

  clear_trace (self);
  if (lod == NULL)
    return;

  self->lod = lod;
  self->trace = sl_trace_lod_get_trace (lod);
  self->origin_ns = sl_trace_get_start_ns (self->trace);
  n_strings = sl_trace_get_n_strings (self->trace);
  n_tracks = sl_trace_get_n_tracks (self->trace);
  n_processes = sl_trace_get_n_processes (self->trace);

  self->name_color = g_new (guint8, MAX (n_strings, 1));
  for (guint i = 0; i < n_strings; i++)
    self->name_color[i] = color_index_for_name (sl_trace_get_string (self->trace, i));
  self->hidden = g_new0 (gboolean, MAX (n_tracks, 1));
  self->pinned = g_new0 (gboolean, MAX (n_tracks, 1));
  self->track_row = g_new (int, MAX (n_tracks, 1));
  self->collapsed = g_new0 (gboolean, MAX (n_processes, 1));
  compute_duration_thresholds (self);
  relayout (self);
  reserve_flow_image (self);
}

SlTraceLod *
sl_timeline_renderer_get_lod (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->lod;
}

SlTrace *
sl_timeline_renderer_get_trace (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->trace;
}

void
sl_timeline_renderer_set_dark (SlTimelineRenderer *self,
                               gboolean            dark)
{
  g_return_if_fail (self != NULL);

  self->dark = !!dark;
  compute_palette (self);
  invalidate_tiles (self);
}

void
sl_timeline_renderer_set_font (SlTimelineRenderer         *self,
                               const PangoFontDescription *font)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (font != NULL);

  g_clear_pointer (&self->font, pango_font_description_free);
  self->font = pango_font_description_copy (font);
  g_hash_table_remove_all (self->text_cache);
  g_clear_object (&self->scratch_layout);
  invalidate_tiles (self);
}

/* The benchmark's peer: every slice in view drawn on its own and every
 * flow read to find those to draw, as a simple timeline does. */
void
sl_timeline_renderer_set_naive (SlTimelineRenderer *self,
                                gboolean            naive)
{
  g_return_if_fail (self != NULL);

  self->naive = !!naive;
}

void
sl_timeline_renderer_set_color_mode (SlTimelineRenderer  *self,
                                     SlTimelineColorMode  mode)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (mode <= SL_TIMELINE_COLOR_BY_DURATION);

  if (self->color_mode != mode)
    invalidate_slice_tiles (self);
  self->color_mode = mode;
}

SlTimelineColorMode
sl_timeline_renderer_get_color_mode (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, SL_TIMELINE_COLOR_BY_NAME);

  return self->color_mode;
}

/**
 * sl_timeline_renderer_set_duration_thresholds:
 * @yellow_percent: a slice longer than this share of the trace's span is
 *   yellow
 * @red_percent: a slice at least this long is red; a value below
 *   @yellow_percent is taken as @yellow_percent
 *
 * As MindStudio's palette: green ≤ yellow_percent < yellow < red_percent
 * ≤ red, in percent of the profiled time.
 */
void
sl_timeline_renderer_set_duration_thresholds (SlTimelineRenderer *self,
                                              double              yellow_percent,
                                              double              red_percent)
{
  g_return_if_fail (self != NULL);

  /* NaN and out-of-range values from a hand-edited setting end up in 0–100. */
  self->yellow_percent = yellow_percent >= 0 ? MIN (yellow_percent, 100.0) : 0;
  self->red_percent = red_percent >= self->yellow_percent ? MIN (red_percent, 100.0) : self->yellow_percent;
  compute_duration_thresholds (self);
  invalidate_slice_tiles (self);
}

/**
 * sl_timeline_renderer_get_duration_thresholds:
 * @yellow_ns: (out) (optional): the first threshold on this trace
 * @red_ns: (out) (optional): the second
 */
void
sl_timeline_renderer_get_duration_thresholds (SlTimelineRenderer *self,
                                              double             *yellow_ns,
                                              double             *red_ns)
{
  g_return_if_fail (self != NULL);

  if (yellow_ns != NULL)
    *yellow_ns = self->yellow_ns;
  if (red_ns != NULL)
    *red_ns = self->red_ns;
}

SlTimelineDurationClass
sl_timeline_renderer_classify_slice (SlTimelineRenderer *self,
                                     guint               track,
                                     guint32             slice)
{
  const SlTraceSlices *s;

  g_return_val_if_fail (self != NULL && self->trace != NULL, SL_TIMELINE_DURATION_SHORT);

  s = track < sl_trace_get_n_tracks (self->trace) ? sl_trace_get_slices (self->trace, track) : NULL;
  g_return_val_if_fail (s != NULL && slice < s->n_slices, SL_TIMELINE_DURATION_SHORT);

  return duration_class (self, sl_trace_slices_dur_ns (s, slice));
}

/**
 * sl_timeline_renderer_get_slice_color:
 * @rgb: (out caller-allocates) (array fixed-size=3): the colour
 *
 * The colour @slice is filled with in the current mode and style.
 *
 * Returns: %FALSE when there is no such slice
 */
gboolean
sl_timeline_renderer_get_slice_color (SlTimelineRenderer *self,
                                      guint               track,
                                      guint32             slice,
                                      double              rgb[3])
{
  const SlTraceSlices *s;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->trace == NULL || track >= sl_trace_get_n_tracks (self->trace) ||
      (s = sl_trace_get_slices (self->trace, track)) == NULL || slice >= s->n_slices)
    return FALSE;
  memcpy (rgb, self->color[slice_color (self, s, slice)], sizeof (double) * 3);
  return TRUE;
}

void
sl_timeline_renderer_set_track_hidden (SlTimelineRenderer *self,
                                       guint               track,
                                       gboolean            hidden)
{
  g_return_if_fail (self != NULL && self->trace != NULL);
  g_return_if_fail (track < sl_trace_get_n_tracks (self->trace));

  self->hidden[track] = !!hidden;
  relayout (self);
}

gboolean
sl_timeline_renderer_get_track_hidden (SlTimelineRenderer *self,
                                       guint               track)
{
  g_return_val_if_fail (self != NULL && self->trace != NULL, FALSE);
  g_return_val_if_fail (track < sl_trace_get_n_tracks (self->trace), FALSE);

  return self->hidden[track];
}

void
sl_timeline_renderer_set_track_pinned (SlTimelineRenderer *self,
                                       guint               track,
                                       gboolean            pinned)
{
  g_return_if_fail (self != NULL && self->trace != NULL);
  g_return_if_fail (track < sl_trace_get_n_tracks (self->trace));

  self->pinned[track] = !!pinned;
  relayout (self);
}

gboolean
sl_timeline_renderer_get_track_pinned (SlTimelineRenderer *self,
                                       guint               track)
{
  g_return_val_if_fail (self != NULL && self->trace != NULL, FALSE);
  g_return_val_if_fail (track < sl_trace_get_n_tracks (self->trace), FALSE);

  return self->pinned[track];
}

void
sl_timeline_renderer_set_process_collapsed (SlTimelineRenderer *self,
                                            guint               process,
                                            gboolean            collapsed)
{
  g_return_if_fail (self != NULL && self->trace != NULL);
  g_return_if_fail (process < sl_trace_get_n_processes (self->trace));

  self->collapsed[process] = !!collapsed;
  relayout (self);
}

gboolean
sl_timeline_renderer_get_process_collapsed (SlTimelineRenderer *self,
                                            guint               process)
{
  g_return_val_if_fail (self != NULL && self->trace != NULL, FALSE);
  g_return_val_if_fail (process < sl_trace_get_n_processes (self->trace), FALSE);

  return self->collapsed[process];
}

double
sl_timeline_renderer_get_content_height (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->content_height;
}

double
sl_timeline_renderer_get_pinned_height (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->pinned_height;
}

static const Row *
slice_row (SlTimelineRenderer *self,
           guint               track,
           guint32             slice)
{
  const SlTraceSlices *s;
  int first;
  guint index;

  if (self->trace == NULL || track >= sl_trace_get_n_tracks (self->trace))
    return NULL;
  first = self->track_row[track];
  s = sl_trace_get_slices (self->trace, track);
  if (first < 0 || s == NULL || slice >= s->n_slices)
    return NULL;
  index = first + sl_trace_slices_depth (s, slice);
  if (index >= self->rows->len)
    return NULL;
  return &g_array_index (self->rows, Row, index);
}

/**
 * sl_timeline_renderer_get_slice_y:
 * @y: (out): top of the slice's row in the content (scrolled band), or in
 *   the pinned band when the track is pinned
 *
 * Returns: whether the slice's row is laid out (track shown, process open)
 */
gboolean
sl_timeline_renderer_get_slice_y (SlTimelineRenderer *self,
                                  guint               track,
                                  guint32             slice,
                                  double             *y)
{
  const Row *row;

  g_return_val_if_fail (self != NULL, FALSE);

  row = slice_row (self, track, slice);
  if (row == NULL)
    return FALSE;
  if (y != NULL)
    *y = row->y;
  return TRUE;
}

void
sl_timeline_renderer_set_selected (SlTimelineRenderer *self,
                                   guint               track,
                                   guint32             slice)
{
  g_return_if_fail (self != NULL);

  /* The selection, and the selected slice's flows when there are too
   * many in view for all, are drawn over the kept tiles: they stay. */
  self->has_selected = track != G_MAXUINT;
  self->selected_track = track;
  self->selected_slice = slice;
}

gboolean
sl_timeline_renderer_get_selected (SlTimelineRenderer *self,
                                   guint              *track,
                                   guint32            *slice)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (track != NULL)
    *track = self->selected_track;
  if (slice != NULL)
    *slice = self->selected_slice;
  return self->has_selected;
}

void
sl_timeline_renderer_set_hovered (SlTimelineRenderer *self,
                                  guint               track,
                                  guint32             slice)
{
  g_return_if_fail (self != NULL);

  self->has_hovered = track != G_MAXUINT;
  self->hovered_track = track;
  self->hovered_slice = slice;
}

/* start_ns == end_ns clears the range. */
void
sl_timeline_renderer_set_range (SlTimelineRenderer *self,
                                gint64              start_ns,
                                gint64              end_ns)
{
  g_return_if_fail (self != NULL);

  self->has_range = start_ns != end_ns;
  self->range_start = MIN (start_ns, end_ns);
  self->range_end = MAX (start_ns, end_ns);
}

gboolean
sl_timeline_renderer_get_range (SlTimelineRenderer *self,
                                gint64             *start_ns,
                                gint64             *end_ns)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (start_ns != NULL)
    *start_ns = self->range_start;
  if (end_ns != NULL)
    *end_ns = self->range_end;
  return self->has_range;
}

/* The rubber band of a box zoom, in widget x; x0 == x1 hides it. */
void
sl_timeline_renderer_set_box (SlTimelineRenderer *self,
                              double              x0,
                              double              x1)
{
  g_return_if_fail (self != NULL);

  self->box_x0 = MIN (x0, x1);
  self->box_x1 = MAX (x0, x1);
}

/* How the tiles a frame draws are shared out between threads: with a
 * second thread where the machine has the processors for it (the
 * default), on the drawing thread alone, or every other one on the
 * second thread whatever the machine (for tests). */
void
sl_timeline_renderer_set_tile_threads (SlTimelineRenderer    *self,
                                       SlTimelineTileThreads  threads)
{
  g_return_if_fail (self != NULL);

  self->tile_threads = threads;
  if (self->worker != NULL)
    sl_frame_worker_set_alternate (self->worker, threads == SL_TIMELINE_TILES_ALTERNATE);
}

/* How many of the last frame's tiles the second thread drew */
guint
sl_timeline_renderer_get_last_n_worker_tiles (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->last_n_worker_tiles;
}

/* Spans (and counter boxes) drawn by the last frame: only those of the
 * tiles it drew. */
guint
sl_timeline_renderer_get_last_n_spans (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->last_n_spans;
}

/**
 * sl_timeline_renderer_drop_images:
 *
 * Frees the images kept between frames (the tiles and the gutter), as
 * when the view is hidden; the next frame draws everything again.
 */
void
sl_timeline_renderer_drop_images (SlTimelineRenderer *self)
{
  g_return_if_fail (self != NULL);

  free_tiles (self);
  g_clear_pointer (&self->gutter, cairo_surface_destroy);
  self->gutter_valid = FALSE;
  clear_reserves (self);
  self->reserve_width = self->reserve_height = 0;
}

/* The tile image's size in units for a view of @width × @height: a slot
 * for each tile in view, two more for those a pan brings in, and one
 * more (see ensure_tiles); rows up to a multiple of 128, so that a
 * window being resized does not allocate an image every frame. */
static void
tiles_image_size (int  width,
                  int  height,
                  int *image_width,
                  int *image_height)
{
  guint n_slots = (guint)((MAX (width - SL_TIMELINE_GUTTER_WIDTH, 0) + TILE_WIDTH - 1) / TILE_WIDTH) + 2;

  *image_width = (int)(n_slots + 1) * TILE_WIDTH;
  *image_height = (MAX (height, 1) + 127) / 128 * 128;
}

/* The same for the gutter's image, which also holds the process headers
 * across the view */
static void
gutter_image_size (int  width,
                   int  height,
                   int *image_width,
                   int *image_height)
{
  *image_width = (MAX (width, 1) + 255) / 256 * 256;
  *image_height = (MAX (height, 1) + 127) / 128 * 128;
}

/* The flow image is asked for once the trace is known to have flows. */
static void
reserve_flow_image (SlTimelineRenderer *self)
{
  int width, height;

  if (self->reserve_width <= 0 || self->trace == NULL || sl_trace_get_n_flows (self->trace) == 0
      || self->flow_tiles != NULL || self->flows_reserve != NULL)
    return;
  tiles_image_size (self->reserve_width, self->reserve_height, &width, &height);
  self->flows_reserve = sl_image_reserve_new (width, height, self->reserve_scale);
}

/**
 * sl_timeline_renderer_reserve_images:
 * @width: the view's width, or more, in units
 * @height: its height, or more
 * @scale: device pixels a unit of the screen the view is on
 *
 * Has the images a view of @width × @height keeps between frames (the
 * tiles, the gutter, and the flows once a trace with flows is set) made
 * on worker threads, their memory written once, for a view that knows its
 * size before it has anything to draw (while the trace loads). The first
 * frames take them instead of waiting on the system for every page: at
 * 1920 × 1080 the tiles' image alone took 5 to 6 ms of page faults.
 */
void
sl_timeline_renderer_reserve_images (SlTimelineRenderer *self,
                                     int                 width,
                                     int                 height,
                                     int                 scale)
{
  int image_width, image_height;

  g_return_if_fail (self != NULL);

  if (width <= SL_TIMELINE_GUTTER_WIDTH || height <= 0)
    return;
  scale = CLAMP (scale, 1, 16);
  /* Images asked for a view as big serve a smaller one: a window being
   * resized while the trace loads asks again only as it grows. */
  if (width <= self->reserve_width && height <= self->reserve_height && scale == self->reserve_scale)
    return;
  clear_reserves (self);
  self->reserve_width = width;
  self->reserve_height = height;
  self->reserve_scale = scale;
  if (self->tiles == NULL)
    {
      tiles_image_size (width, height, &image_width, &image_height);
      self->tiles_reserve = sl_image_reserve_new (image_width, image_height, scale);
    }
  if (self->gutter == NULL)
    {
      gutter_image_size (width, height, &image_width, &image_height);
      self->gutter_reserve = sl_image_reserve_new (image_width, image_height, scale);
    }
  reserve_flow_image (self);
}

/* How many of the images kept between frames came made from a reserve:
 * for tests and benchmarks */
guint
sl_timeline_renderer_get_n_images_taken (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_images_taken;
}

/* Whether every image asked for is made (or could not be): for tests */
gboolean
sl_timeline_renderer_get_images_ready (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return (self->tiles_reserve == NULL || sl_image_reserve_is_ready (self->tiles_reserve))
         && (self->flows_reserve == NULL || sl_image_reserve_is_ready (self->flows_reserve))
         && (self->gutter_reserve == NULL || sl_image_reserve_is_ready (self->gutter_reserve));
}

/* An image of @pixel_width × @pixel_height at @scale: the one in
 * @reserve when it is ready and big enough, else a new one. The reserve
 * is let go of either way: the image it makes is this one's. */
static cairo_surface_t *
new_kept_image (SlTimelineRenderer *self,
                SlImageReserve    **reserve,
                int                 pixel_width,
                int                 pixel_height,
                double              scale)
{
  cairo_surface_t *image = NULL;

  if (*reserve != NULL)
    {
      image = sl_image_reserve_take (*reserve, pixel_width, pixel_height, scale);
      g_clear_pointer (reserve, sl_image_reserve_free);
      if (image != NULL)
        self->n_images_taken++;
    }
  if (image == NULL)
    {
      image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, pixel_width, pixel_height);
      cairo_surface_set_device_scale (image, scale, scale);
    }
  return image;
}

/**
 * sl_timeline_renderer_set_scale:
 * @scale: device pixels per unit of the screen the drawing ends up on
 *
 * A recording (GTK's cairo nodes) has no pixels of its own and says a
 * scale of one: the kept images are made at @scale instead, so that on a
 * scaled screen they are as sharp as boxes drawn straight. An image
 * target's own device scale is used as it is.
 */
void
sl_timeline_renderer_set_scale (SlTimelineRenderer *self,
                                int                 scale)
{
  g_return_if_fail (self != NULL);

  self->screen_scale = CLAMP (scale, 1, 16);
}

/* The scale the kept images are made at for drawing into @cr */
static double
image_scale (SlTimelineRenderer *self,
             cairo_t            *cr)
{
  cairo_surface_t *target = cairo_get_target (cr);
  double scale_x = 1, scale_y = 1;

  cairo_surface_get_device_scale (target, &scale_x, &scale_y);
  if (cairo_surface_get_type (target) == CAIRO_SURFACE_TYPE_RECORDING)
    scale_x = MAX (scale_x, self->screen_scale);
  return scale_x;
}

/* Tiles the last frame drew; the others came from the tile image. */
guint
sl_timeline_renderer_get_last_n_tiles (SlTimelineRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->last_n_tiles;
}

/**
 * sl_timeline_renderer_set_highlight:
 * @highlight: (transfer full) (nullable): one byte per string id of the
 *   trace, non-zero for names that match a search; %NULL draws all as usual
 *
 * Slices whose names do not match are drawn greyed out.
 */
void
sl_timeline_renderer_set_highlight (SlTimelineRenderer *self,
                                    guint8             *highlight)
{
  g_return_if_fail (self != NULL);

  g_free (self->highlight);
  self->highlight = highlight;
  invalidate_slice_tiles (self);
}

/* Time formatting */

typedef struct {
  gint64      ns;
  const char *unit;
} Unit;

static const Unit units[] = {
  { 1000000000, "s" },
  { 1000000, "ms" },
  { 1000, "µs" },
  { 1, "ns" },
};

/**
 * sl_timeline_format_duration:
 *
 * Returns: (transfer full): @ns with three significant digits and a unit
 */
char *
sl_timeline_format_duration (gint64 ns)
{
  gint64 mag = ns < 0 ? -ns : ns;

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      if (mag >= units[i].ns || i == G_N_ELEMENTS (units) - 1)
        {
          double v = (double)ns / units[i].ns;
          int digits = units[i].ns == 1 ? 0 : fabs (v) >= 100 ? 1 : fabs (v) >= 10 ? 2 : 3;

          return g_strdup_printf ("%.*f %s", digits, v, units[i].unit);
        }
    }
  g_assert_not_reached ();
}

/**
 * sl_timeline_format_time:
 * @step_ns: the precision wanted (a ruler's tick step)
 *
 * Returns: (transfer full): @ns in the largest unit that still shows @step_ns
 */
char *
sl_timeline_format_time (gint64 ns,
                         gint64 step_ns)
{
  const Unit *unit = &units[G_N_ELEMENTS (units) - 1];
  int digits = 0;

  step_ns = MAX (step_ns, 1);
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      /* Whole seconds with a millisecond step read better as "1.250 s";
       * zero takes the unit of the step. */
      if (step_ns >= units[i].ns / 1000 && (llabs (ns) >= units[i].ns || (ns == 0 && step_ns >= units[i].ns)))
        {
          unit = &units[i];
          break;
        }
    }
  for (gint64 s = unit->ns; s > step_ns && digits < 9; s /= 10)
    digits++;

  return g_strdup_printf ("%.*f %s", digits, (double)ns / unit->ns, unit->unit);
}

/**
 * sl_timeline_format_instant:
 *
 * Returns: (transfer full): @ns to the nanosecond, or to the microsecond
 *   when that is all it has (Chrome traces count in microseconds)
 */
char *
sl_timeline_format_instant (gint64 ns)
{
  return sl_timeline_format_time (ns, ns % 1000 == 0 ? 1000 : 1);
}

static gint64
nice_step (double raw)
{
  gint64 step = 1;

  while (TRUE)
    {
      if (step >= raw)
        return step;
      if (step * 2 >= raw)
        return step * 2;
      if (step * 5 >= raw)
        return step * 5;
      if (step > G_MAXINT64 / 20)
        return step;
      step *= 10;
    }
}

/* Drawing */

static PangoLayout *
ensure_scratch_layout (SlTimelineRenderer *self,
                       cairo_t            *cr)
{
  if (self->scratch_layout == NULL)
    {
      self->scratch_layout = pango_cairo_create_layout (cr);
      pango_layout_set_font_description (self->scratch_layout, self->font);
    }
  else
    pango_cairo_update_layout (cr, self->scratch_layout);
  return self->scratch_layout;
}

/* A name shaped and ellipsized for a width class of 8 pixels, so panning
 * reuses the layouts of the previous frames. */
static PangoLayout *
get_label_layout (SlTimelineRenderer *self,
                  cairo_t            *cr,
                  guint32             name_id,
                  double              width)
{
  guint width_class = (guint)MIN (width / 8, 255);
  gint64 key = ((gint64)name_id << 8) | width_class;
  PangoLayout *layout = g_hash_table_lookup (self->text_cache, &key);

  if (layout == NULL)
    {
      if (g_hash_table_size (self->text_cache) > TEXT_CACHE_LIMIT)
        g_hash_table_remove_all (self->text_cache);

      layout = pango_cairo_create_layout (cr);
      pango_layout_set_font_description (layout, self->font);
      pango_layout_set_text (layout, sl_trace_get_string (self->trace, name_id), -1);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_width (layout, width_class * 8 * PANGO_SCALE);
      pango_layout_set_single_paragraph_mode (layout, TRUE);
      g_hash_table_insert (self->text_cache, g_memdup2 (&key, sizeof key), layout);
    }

  return layout;
}

/* Where @t is on the zoom's grid of pixels counted from the trace's start */
static inline double
grid_x (const SlTimelineRenderer *self,
        const SlTimelineViewport *vp,
        gint64                    t)
{
  return (double)(t - self->origin_ns) / vp->ns_per_pixel;
}

/* The view's left edge put on the nearest pixel of that grid */
static gint64
view_grid_px (const SlTimelineRenderer *self,
              const SlTimelineViewport *vp)
{
  return (gint64)floor (grid_x (self, vp, vp->t0) + 0.5);
}

static inline double
time_to_x (const SlTimelineRenderer *self,
           const SlTimelineViewport *vp,
           gint64                    t)
{
  if (!self->snapped)
    return SL_TIMELINE_GUTTER_WIDTH + (double)(t - vp->t0) / vp->ns_per_pixel;
  return SL_TIMELINE_GUTTER_WIDTH + (grid_x (self, vp, t) - (double)self->view_px);
}

/* Whether the view's left edge is near enough the trace's start, in
 * pixels, for whole pixels of the grid to be exact in a double. */
static gboolean
view_on_grid (const SlTimelineRenderer *self,
              const SlTimelineViewport *vp)
{
  double x = grid_x (self, vp, vp->t0);

  return isfinite (x) && fabs (x) < (double)(G_GINT64_CONSTANT (1) << 50);
}

/* [x0, x1) in whole pixels, cut to the band by hand: cairo fills unclipped
 * whole-pixel boxes several times faster. */
static void
add_rect (SlTimelineRenderer *self,
          guint               color,
          double              x0,
          double              x1,
          double              y,
          double              h)
{
  Rect r;
  double y1 = MIN (y + h, self->band_bottom);

  y = MAX (y, self->band_top);
  if (y1 <= y || x1 <= x0)
    return;
  r = (Rect) { x0, y, x1 - x0, y1 - y };
  g_array_append_val (self->rects[color], r);
}

/* An opaque colour as cairo stores it in an ARGB32 pixel */
static guint32
opaque_pixel (const double rgb[3])
{
  guint32 pixel = 0xff000000u;

  for (guint c = 0; c < 3; c++)
    pixel |= (((guint32)(CLAMP (rgb[c], 0, 1) * 65535.0 + 0.5)) >> 8) << (16 - 8 * c);
  return pixel;
}

/* Fills the boxes colour by colour. In the tile image, boxes on whole
 * pixels are written straight into its memory: they are opaque, so that
 * is what cairo would do, without a path and a call per box. Others (a
 * scroll by a fraction of a pixel) go through cairo. */
static void
flush_rects (SlTimelineRenderer *self,
             cairo_t            *cr)
{
  cairo_surface_t *target = cairo_get_target (cr);
  int scale = (int)self->tiles_scale;
  gboolean direct = target == self->tiles && scale >= 1 && self->tiles_scale == scale;
  guchar *data = NULL;
  int stride = 0, width = 0, height = 0;

  if (direct)
    {
      cairo_surface_flush (target);
      data = cairo_image_surface_get_data (target);
      stride = cairo_image_surface_get_stride (target);
      width = cairo_image_surface_get_width (target);
      height = cairo_image_surface_get_height (target);
    }

  for (guint c = 0; c < N_SLOTS; c++)
    {
      GArray *rects = self->rects[c];
      guint32 pixel = opaque_pixel (self->color[c]);
      gboolean any_path = FALSE;

      if (rects->len == 0)
        continue;
      for (guint i = 0; i < rects->len; i++)
        {
          const Rect *r = &g_array_index (rects, Rect, i);

          if (direct && r->y == floorf (r->y) && r->h == floorf (r->h))
            {
              int x0 = MAX ((int)r->x * scale, 0), x1 = MIN ((int)(r->x + r->w) * scale, width);
              int y0 = MAX ((int)r->y * scale, 0), y1 = MIN ((int)(r->y + r->h) * scale, height);

              for (int y = y0; y < y1; y++)
                {
                  guint32 *row = (guint32 *)(gpointer)(data + (gsize)y * stride);

                  for (int x = x0; x < x1; x++)
                    row[x] = pixel;
                }
              continue;
            }
          cairo_rectangle (cr, r->x, r->y, r->w, r->h);
          any_path = TRUE;
        }
      if (any_path)
        {
          cairo_set_source_rgb (cr, self->color[c][0], self->color[c][1], self->color[c][2]);
          cairo_fill (cr);
        }
      g_array_set_size (rects, 0);
    }

  if (direct)
    cairo_surface_mark_dirty (target);
}

static void
flush_labels (SlTimelineRenderer *self,
              cairo_t            *cr)
{
  for (guint i = 0; i < self->labels->len; i++)
    {
      const Label *l = &g_array_index (self->labels, Label, i);
      PangoLayout *layout = get_label_layout (self, cr, l->name_id, l->w);
      const double *c = self->color[l->color];
      double lum = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
      int lw, lh;

      pango_layout_get_pixel_size (layout, &lw, &lh);
      if (lw <= 0)
        continue;
      if (lum > 0.5)
        cairo_set_source_rgb (cr, 0.08, 0.08, 0.08);
      else
        cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_move_to (cr, l->x, l->y + (ROW_HEIGHT - lh) / 2.0);
      pango_cairo_show_layout (cr, layout);
    }
  g_array_set_size (self->labels, 0);
}

static void
draw_slice_row_naive (SlTimelineRenderer       *self,
                      cairo_t                  *cr,
                      const Row                *row,
                      double                    y,
                      const SlTimelineViewport *vp,
                      gint64                    t1)
{
  const SlTraceSlices *s = sl_trace_get_slices (self->trace, row->track);
  guint n = sl_trace_lod_get_depth_n_slices (self->lod, row->track, row->depth);
  guint lo = 0, hi = n;

  /* Only the binary search to the view's left edge; then every slice. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint32 i = sl_trace_lod_get_depth_slice (self->lod, row->track, row->depth, mid);

      if (sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i) < vp->t0)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (guint k = lo;
       k < n && sl_trace_slices_start_ns (s, sl_trace_lod_get_depth_slice (self->lod, row->track, row->depth, k)) <= t1;
       k++)
    {
      guint32 i = sl_trace_lod_get_depth_slice (self->lod, row->track, row->depth, k);
      guint8 color = slice_color (self, s, i);
      const double *c = self->color[color];
      double x0 = MAX (time_to_x (self, vp, sl_trace_slices_start_ns (s, i)), SL_TIMELINE_GUTTER_WIDTH - 1);
      double x1 = MIN (time_to_x (self, vp, sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i)), vp->width + 1);

      cairo_set_source_rgb (cr, c[0], c[1], c[2]);
      cairo_rectangle (cr, x0, y + 1, MAX (x1 - x0, 1), ROW_HEIGHT - 2);
      cairo_fill (cr);
      self->last_n_spans++;

      if (x1 - x0 >= MIN_LABEL_WIDTH)
        {
          Label l = { MAX (x0, SL_TIMELINE_GUTTER_WIDTH) + LABEL_PADDING, y, x1 - MAX (x0, SL_TIMELINE_GUTTER_WIDTH) - 2 * LABEL_PADDING,
                      sl_trace_slices_name_id (s, i), color };

          g_array_append_val (self->labels, l);
        }
    }
}

static void
draw_slice_row (SlTimelineRenderer       *self,
                cairo_t                  *cr,
                const Row                *row,
                double                    y,
                const SlTimelineViewport *vp,
                gint64                    t1)
{
  if (sl_trace_get_slices (self->trace, row->track) == NULL)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, 0, self->band_top, vp->width, self->band_bottom - self->band_top);
  cairo_clip (cr);
  draw_slice_row_naive (self, cr, row, y, vp, t1);
  cairo_restore (cr);
}

/* Where @cr draws into the tile image on whole pixels of its own, with
 * the band on whole pixels too: the image's memory, else NULL. */
static guchar *
direct_pixels (SlTimelineRenderer *self,
               cairo_t            *cr,
               int                *stride,
               int                *width,
               int                *height,
               int                *scale)
{
  cairo_surface_t *target = cairo_get_target (cr);
  double x = 0, y = 0;

  *scale = (int)self->tiles_scale;
  if (target != self->tiles || *scale < 1 || self->tiles_scale != *scale
      || self->band_top != floor (self->band_top) || self->band_bottom != floor (self->band_bottom))
    return NULL;
  /* Only while nothing moves the user space off the image's */
  cairo_user_to_device (cr, &x, &y);
  if (x != 0 || y != 0)
    return NULL;
  cairo_surface_flush (target);
  *stride = cairo_image_surface_get_stride (target);
  *width = cairo_image_surface_get_width (target);
  *height = cairo_image_surface_get_height (target);
  return cairo_image_surface_get_data (target);
}

/* A box [x0, x1) × [y0, y1) of whole units, cut to the band, written in
 * @pixel at @alpha (of 255) over what is there: as cairo fills an opaque
 * image, without a path per box. */
static void
put_box (SlTimelineRenderer *self,
         guchar             *data,
         int                 stride,
         int                 width,
         int                 height,
         int                 scale,
         int                 x0,
         int                 x1,
         int                 y0,
         int                 y1,
         guint32             pixel,
         guint               alpha)
{
  y0 = MAX (y0, (int)self->band_top);
  y1 = MIN (y1, (int)self->band_bottom);
  x0 = MAX (x0 * scale, 0);
  x1 = MIN (x1 * scale, width);
  y0 = MAX (y0 * scale, 0);
  y1 = MIN (y1 * scale, height);
  for (int y = y0; y < y1; y++)
    {
      guint32 *row = (guint32 *)(gpointer)(data + (gsize)y * stride);

      for (int x = x0; x < x1; x++)
        {
          guint32 d = row[x], out = 0xff000000u;

          if (alpha == 255)
            {
              row[x] = pixel;
              continue;
            }
          for (guint shift = 0; shift < 24; shift += 8)
            {
              guint sc = (pixel >> shift) & 0xff, dc = (d >> shift) & 0xff;

              out |= ((sc * alpha + dc * (255 - alpha) + 127) / 255) << shift;
            }
          row[x] = out;
        }
    }
}

/* The pixel row of a counter's @value in a row from @top to @bottom */
static inline double
counter_y (double value,
           double lo,
           double hi,
           double top,
           double bottom)
{
  return round (bottom - (value - lo) / (hi - lo) * (bottom - top));
}

/* The bar from column @x: how many columns from it (defined, of the same
 * height: neighbours of one height are one box) with its top in @top_y;
 * 0 when column @x has no value. */
static guint
counter_bar (SlTimelineRenderer *self,
             guint               x,
             guint               width,
             double              lo,
             double              hi,
             double              top,
             double              bottom,
             double             *top_y)
{
  guint run = 1;

  if (!self->columns[x].defined)
    return 0;
  *top_y = counter_y (self->columns[x].max, lo, hi, top, bottom);
  while (x + run < width && self->columns[x + run].defined
         && counter_y (self->columns[x + run].max, lo, hi, top, bottom) == *top_y)
    run++;
  return run;
}

/* The columns of [t0, t1] as @width pixels from @left */
static void
draw_counter_row (SlTimelineRenderer       *self,
                  cairo_t                  *cr,
                  const Row                *row,
                  double                    y,
                  gint64                    t0,
                  gint64                    t1,
                  double                    left,
                  guint                     width)
{
  const SlTraceCounter *c = sl_trace_get_counter (self->trace, row->track);
  double lo, hi, top = y + 4, bottom = y + row->h - 2;
  const double *color;
  guchar *data;
  int stride, image_width, image_height, scale;

  if (c == NULL || width == 0)
    return;
  if (self->n_columns < width)
    {
      self->columns = g_renew (SlTraceLodColumn, self->columns, width);
      self->n_columns = width;
    }
  sl_trace_lod_query_counter (self->lod, row->track, t0, t1, width, self->columns);

  lo = MIN (c->min_value, 0);
  hi = MAX (c->max_value, 0);
  if (!(hi > lo))
    hi = lo + 1;
  color = self->color[color_index_for_name (sl_trace_get_track_name (self->trace, row->track))];

  /* Into the tile image on whole pixels: the same boxes, written straight
   * into its memory (half-covered pixels blended at half). */
  if (y == floor (y) && left == floor (left)
      && (data = direct_pixels (self, cr, &stride, &image_width, &image_height, &scale)) != NULL)
    {
      guint32 pixel = opaque_pixel (color);

      for (guint x = 0, run; x < width; x += run)
        {
          double top_y;

          if ((run = counter_bar (self, x, width, lo, hi, top, bottom, &top_y)) == 0)
            {
              run = 1;
              continue;
            }
          put_box (self, data, stride, image_width, image_height, scale, (int)left + x, (int)left + x + run,
                   (int)top_y, (int)bottom, pixel, 128);
          self->last_n_spans++;
        }
      for (guint x = 0; x < width; x++)
        {
          const SlTraceLodColumn *col = &self->columns[x];
          int y_max, y_min;

          if (!col->defined)
            continue;
          y_max = (int)counter_y (col->max, lo, hi, top, bottom);
          y_min = (int)counter_y (col->min, lo, hi, top, bottom);
          put_box (self, data, stride, image_width, image_height, scale, (int)left + x, (int)left + x + 1, y_max - 1,
                   y_max + MAX (y_min - y_max, 0), pixel, 255);
          put_box (self, data, stride, image_width, image_height, scale, (int)left + x, (int)left + x + 1,
                   y_max + MAX (y_min - y_max, 0), y_max + MAX (y_min - y_max, 0) + 1, pixel, 128);
        }
      cairo_surface_mark_dirty (cairo_get_target (cr));
      return;
    }

  /* Each column a bar from zero to its highest value, and a darker pixel
   * on top: whole-pixel boxes, filled in two calls. */
  for (guint x = 0, run; x < width; x += run)
    {
      double top_y;

      if ((run = counter_bar (self, x, width, lo, hi, top, bottom, &top_y)) == 0)
        {
          run = 1;
          continue;
        }
      cairo_rectangle (cr, left + x, top_y, run, bottom - top_y);
      self->last_n_spans++;
    }
  cairo_set_source_rgba (cr, color[0], color[1], color[2], 0.5);
  cairo_fill (cr);
  for (guint x = 0; x < width; x++)
    {
      const SlTraceLodColumn *col = &self->columns[x];
      double y_max, y_min;

      if (!col->defined)
        continue;
      y_max = counter_y (col->max, lo, hi, top, bottom);
      y_min = counter_y (col->min, lo, hi, top, bottom);
      cairo_rectangle (cr, left + x, y_max - 1, 1, MAX (y_min - y_max, 0) + 1.5);
    }
  cairo_set_source_rgb (cr, color[0], color[1], color[2]);
  cairo_fill (cr);
}

/* A process header's band across [x, x + width) */
static void
draw_process_row (SlTimelineRenderer       *self,
                  cairo_t                  *cr,
                  const Row                *row,
                  double                    y,
                  double                    x,
                  double                    width)
{
  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.07);
  cairo_rectangle (cr, x, y, width, row->h);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.15);
  cairo_rectangle (cr, x, y + row->h - 1, width, 1);
  cairo_fill (cr);
}

/* Index of the first row of [first, end) whose bottom is below @y. */
static guint
first_row_below (SlTimelineRenderer *self,
                 guint               first,
                 guint               end,
                 double              y)
{
  while (first < end)
    {
      guint mid = first + (end - first) / 2;
      const Row *row = &g_array_index (self->rows, Row, mid);

      if (row->y + row->h <= y)
        first = mid + 1;
      else
        end = mid;
    }
  return first;
}

/* The peer's rows: every slice in view, straight into @cr. */
static void
draw_rows (SlTimelineRenderer       *self,
           cairo_t                  *cr,
           const SlTimelineViewport *vp,
           guint                     first,
           guint                     end,
           double                    band_top,
           double                    band_height,
           double                    scroll)
{
  gint64 t1 = vp->t0 + (gint64)ceil ((vp->width - SL_TIMELINE_GUTTER_WIDTH) * vp->ns_per_pixel);

  self->band_top = band_top;
  self->band_bottom = band_top + band_height;

  for (guint i = first_row_below (self, first, end, scroll); i < end; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = band_top + row->y - scroll;

      if (y > band_top + band_height)
        break;

      if (row->kind == ROW_SLICES)
        {
          draw_slice_row (self, cr, row, y, vp, t1);
          continue;
        }

      cairo_save (cr);
      cairo_rectangle (cr, 0, band_top, vp->width, band_height);
      cairo_clip (cr);
      if (row->kind == ROW_PROCESS)
        draw_process_row (self, cr, row, y, 0, vp->width);
      else
        draw_counter_row (self, cr, row, y, vp->t0, t1, SL_TIMELINE_GUTTER_WIDTH, MAX (vp->width - SL_TIMELINE_GUTTER_WIDTH, 0));
      cairo_restore (cr);
    }

  cairo_save (cr);
  cairo_rectangle (cr, SL_TIMELINE_GUTTER_WIDTH, band_top, vp->width - SL_TIMELINE_GUTTER_WIDTH, band_height);
  cairo_clip (cr);
  flush_labels (self, cr);
  cairo_restore (cr);
}

/* Tiles */

static gboolean flow_point           (SlTimelineRenderer       *self,
                                      const SlTimelineViewport *vp,
                                      guint                     track,
                                      guint32                   slice,
                                      gint64                    at,
                                      double                   *x,
                                      double                   *y);
static gboolean flow_in_view         (const SlTraceFlow        *f,
                                      gint64                    t0,
                                      gint64                    t1);
static int      compare_flow_indices (const void               *a,
                                      const void               *b);

static inline gint64
floor_div (gint64 a,
           gint64 b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static inline guint
tile_slot (SlTimelineRenderer *self,
           gint64              tile)
{
  gint64 n = self->n_slots;

  return (guint)(((tile % n) + n) % n);
}

/* One row of slices in the tile whose left edge is grid pixel @base,
 * drawn at @left in @cr; [ta, tb] reaches a pixel past both edges. */
static void
draw_tile_slices (SlTimelineRenderer       *self,
                  const SlTimelineViewport *vp,
                  guint                     row_index,
                  double                    y,
                  gint64                    ta,
                  gint64                    tb,
                  gint64                    base,
                  double                    left,
                  TileSlot                 *slot,
                  guint8                   *line,
                  GArray                   *spans,
                  guint                    *n_spans)
{
  const Row *row = &g_array_index (self->rows, Row, row_index);
  const SlTraceSlices *s = sl_trace_get_slices (self->trace, row->track);
  double tile_x0 = (double)base, tile_x1 = (double)(base + TILE_WIDTH);

  if (s == NULL)
    return;

  g_array_set_size (spans, 0);
  sl_trace_lod_query (self->lod, row->track, row->depth, ta, tb, vp->ns_per_pixel, spans);
  *n_spans += spans->len;

  for (guint k = 0; k < spans->len; k++)
    {
      const SlTraceLodSpan *span = &g_array_index (spans, SlTraceLodSpan, k);
      double gx0 = grid_x (self, vp, span->start_ns);
      double gx1 = grid_x (self, vp, span->end_ns);
      /* Whole pixels of the grid, at least one: the same for every tile
       * and every frame, so tiles meet without a seam. */
      double p0 = floor (gx0), p1 = MAX (ceil (gx1), p0 + 1);
      guint8 color;

      if (p1 <= tile_x0 || p0 >= tile_x1)
        continue;
      color = slice_color (self, s, span->slice);
      if (line != NULL)
        {
          /* Where boxes share a pixel the higher colour slot wins, as
           * flush_rects fills the slots in order. */
          for (int x = (int)(MAX (p0, tile_x0) - tile_x0), x1 = (int)(MIN (p1, tile_x1) - tile_x0); x < x1; x++)
            line[x] = MAX (line[x], color + 1);
        }
      else
        add_rect (self, color, left + (MAX (p0, tile_x0) - tile_x0), left + (MIN (p1, tile_x1) - tile_x0),
                  y + 1, ROW_HEIGHT - 2);

      if (span->n_slices == 1 && gx1 - gx0 >= MIN_LABEL_WIDTH
          && (row_index < self->labels_held_first || row_index >= self->labels_held_end))
        {
          TileLabel l = { gx0, gx1, row_index, sl_trace_slices_name_id (s, span->slice), color };

          g_array_append_val (slot->labels, l);
        }
    }
}

static void
draw_tile_rows (SlTimelineRenderer       *self,
                cairo_t                  *cr,
                const SlTimelineViewport *vp,
                gint64                    base,
                double                    left,
                TileSlot                 *slot,
                guint                     first,
                guint                     end,
                double                    band_top,
                double                    band_height,
                double                    scroll)
{
  gint64 origin = sl_trace_get_start_ns (self->trace);
  double p = vp->ns_per_pixel;
  gint64 ta = origin + (gint64)floor ((double)(base - 1) * p);
  gint64 tb = origin + (gint64)ceil ((double)(base + TILE_WIDTH + 1) * p);

  self->band_top = band_top;
  self->band_bottom = band_top + band_height;

  for (guint i = first_row_below (self, first, end, scroll); i < end; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = band_top + row->y - scroll;

      if (y > band_top + band_height)
        break;

      if (row->kind == ROW_SLICES)
        {
          draw_tile_slices (self, vp, i, y, ta, tb, base, left, slot, NULL, self->spans, &self->last_n_spans);
          continue;
        }

      cairo_save (cr);
      cairo_rectangle (cr, left, band_top, TILE_WIDTH, band_height);
      cairo_clip (cr);
      if (row->kind == ROW_PROCESS)
        draw_process_row (self, cr, row, y, left, TILE_WIDTH);
      else
        draw_counter_row (self, cr, row, y, origin + (gint64)floor ((double)base * p),
                          origin + (gint64)floor ((double)(base + TILE_WIDTH) * p), left, TILE_WIDTH);
      cairo_restore (cr);
    }

  flush_rects (self, cr);
}

/* Grid lines on the ruler's ticks that fall in the tile */
static void
draw_tile_grid (SlTimelineRenderer       *self,
                cairo_t                  *cr,
                const SlTimelineViewport *vp,
                gint64                    base,
                double                    left)
{
  gint64 origin = sl_trace_get_start_ns (self->trace);
  gint64 step = nice_step (TICK_SPACING * vp->ns_per_pixel);
  double p = vp->ns_per_pixel;
  gint64 m0 = (gint64)floor ((double)(base - 1) * p / step);
  gint64 m1 = (gint64)ceil ((double)(base + TILE_WIDTH + 1) * p / step);

  for (gint64 m = m0; m <= m1; m++)
    {
      double x = round (grid_x (self, vp, origin + m * step));

      if (x >= base && x < base + TILE_WIDTH)
        cairo_rectangle (cr, left + (x - base), SL_TIMELINE_RULER_HEIGHT, 1, vp->height - SL_TIMELINE_RULER_HEIGHT);
    }
  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.06);
  cairo_fill (cr);
}

/* The time range a tile's flows are looked up in */
static void
tile_flow_range (SlTimelineRenderer       *self,
                 const SlTimelineViewport *vp,
                 gint64                    base,
                 gint64                   *ta,
                 gint64                   *tb)
{
  gint64 origin = sl_trace_get_start_ns (self->trace);
  double p = vp->ns_per_pixel;

  *ta = origin + (gint64)floor ((double)(base - 2) * p);
  *tb = origin + (gint64)ceil ((double)(base + TILE_WIDTH + 2) * p);
}

/* Puts in tile_flows, in order, the flows through grid pixels [base, base
 * + TILE_WIDTH) while the view holds few enough; else none (the selected
 * slice's are drawn over the tiles, so that selecting another keeps
 * them). Returns how many. */
static guint
find_tile_flows (SlTimelineRenderer       *self,
                 const SlTimelineViewport *vp,
                 gint64                    base)
{
  gint64 ta, tb;
  guint n = 0;
  guint cap = 256;

  if (self->tiles_selected_flows)
    return 0;
  tile_flow_range (self, vp, base, &ta, &tb);
  /* Every flow through the tile, however many. */
  while (TRUE)
    {
      g_array_set_size (self->tile_flows, cap);
      n = sl_trace_find_flows_in_range (self->trace, ta, tb, (guint32 *)(gpointer)self->tile_flows->data, cap);
      if (n < cap)
        break;
      cap *= 2;
    }
  qsort (self->tile_flows->data, n, sizeof (guint32), compare_flow_indices);
  return n;
}

/* Whether stroke_tile_flows blends every one of the @n flows
 * find_tile_flows found for the tile at grid pixel @base straight into
 * the tile image's pixels (none is a curve, the image's scale is whole):
 * then they are drawn there, over the tile, keeping the pixels they
 * cover, instead of into a copy of the tile in the flow image. */
static gboolean
tile_flows_blend (SlTimelineRenderer       *self,
                  const SlTimelineViewport *vp,
                  gint64                    base,
                  guint                     n)
{
  const guint32 *flows = (const guint32 *)(gconstpointer)self->tile_flows->data;
  gint64 ta, tb;

  if (self->tiles == NULL || self->tiles_scale != floor (self->tiles_scale) || self->tiles_scale < 1)
    return FALSE;
  tile_flow_range (self, vp, base, &ta, &tb);
  for (guint k = 0; k < n; k++)
    {
      const SlTraceFlow *f = sl_trace_get_flow (self->trace, flows[k]);

      if (flow_in_view (f, ta, tb) && !(fabs (grid_x (self, vp, f->to_ns) - grid_x (self, vp, f->from_ns)) < 16))
        return FALSE;
    }
  return TRUE;
}

/* The @n flows find_tile_flows found for the tile at grid pixel @base,
 * drawn at @left in @cr. When @image is the image @cr draws into (at a
 * whole device scale), the straight ones are blended into its pixels
 * straight away (stroking them took a fifth of a zoomed frame) and only
 * the curves are stroked. */
static void
stroke_tile_flows (SlTimelineRenderer       *self,
                   cairo_t                  *cr,
                   cairo_surface_t          *image,
                   const SlTimelineViewport *vp,
                   gint64                    base,
                   double                    left,
                   guint                     n,
                   GArray                   *under)
{
  const guint32 *flows = (const guint32 *)(gconstpointer)self->tile_flows->data;
  gint64 ta, tb;
  guint n_drawn = 0;
  guchar *data = NULL;
  int stride = 0, scale = 1, clip_bottom = 0;
  guint32 colour = 0;

  if (image != NULL)
    {
      double sx, sy;

      cairo_surface_get_device_scale (image, &sx, &sy);
      scale = (int)sx;
      if (sx != sy || sx != scale || scale < 1)
        image = NULL;
    }
  if (image != NULL)
    {
      cairo_surface_flush (image);
      data = cairo_image_surface_get_data (image);
      stride = cairo_image_surface_get_stride (image);
      clip_bottom = MIN (vp->height * scale, cairo_image_surface_get_height (image));
      colour = sl_pixel_colour (self->fg[0], self->fg[1], self->fg[2], 0.45);
    }

  tile_flow_range (self, vp, base, &ta, &tb);
  cairo_save (cr);
  cairo_rectangle (cr, left, SL_TIMELINE_RULER_HEIGHT, TILE_WIDTH, vp->height - SL_TIMELINE_RULER_HEIGHT);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1);
  cairo_set_tolerance (cr, 0.5);
  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.45);
  for (guint k = 0; k < n; k++)
    {
      const SlTraceFlow *f = sl_trace_get_flow (self->trace, flows[k]);
      double x0, y0, x1, y1, dx;

      if (!flow_in_view (f, ta, tb)
          || !flow_point (self, vp, f->from_track, f->from_slice, f->from_ns, &x0, &y0)
          || !flow_point (self, vp, f->to_track, f->to_slice, f->to_ns, &x1, &y1))
        continue;
      /* Where the grid puts the ends, in the tile */
      x0 = grid_x (self, vp, f->from_ns) - (double)base;
      x1 = grid_x (self, vp, f->to_ns) - (double)base;
      if (fabs (x1 - x0) < 16 && data != NULL)
        {
          /* in the tile's own pixels, so a tile's flows are the same
           * pixels in whichever slot it is kept */
          SlPixelClip clip = { (int)left * scale, TILE_WIDTH * scale, SL_TIMELINE_RULER_HEIGHT * scale, clip_bottom };

          sl_pixel_line_blend (data, stride, &clip, x0 * scale, y0 * scale, x1 * scale, y1 * scale, scale, colour, under);
          continue;
        }
      x0 += left;
      x1 += left;
      cairo_move_to (cr, x0, y0);
      if (fabs (x1 - x0) < 16)
        cairo_line_to (cr, x1, y1);
      else
        {
          dx = fabs (x1 - x0) / 2;
          cairo_curve_to (cr, x0 + dx, y0, x1 - dx, y1, x1, y1);
        }
      if (++n_drawn % 256 == 0)
        cairo_stroke (cr);
    }
  if (data != NULL)
    cairo_surface_mark_dirty (image);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* The image the tiles with flows are shown from, as big as the tile
 * image; FALSE when there can be none. */
static gboolean
ensure_flow_image (SlTimelineRenderer *self)
{
  if (self->flow_tiles != NULL)
    return TRUE;
  /* the same pixels as the tile image, which put_tile_pixels writes both of */
  self->flow_tiles = new_kept_image (self, &self->flows_reserve, cairo_image_surface_get_width (self->tiles),
                                     cairo_image_surface_get_height (self->tiles), self->tiles_scale);
  if (cairo_surface_status (self->flow_tiles) != CAIRO_STATUS_SUCCESS
      || cairo_image_surface_get_width (self->flow_tiles) != cairo_image_surface_get_width (self->tiles)
      || cairo_image_surface_get_height (self->flow_tiles) != cairo_image_surface_get_height (self->tiles))
    {
      g_clear_pointer (&self->flow_tiles, cairo_surface_destroy);
      return FALSE;
    }
  return TRUE;
}

/* The pixels of one row of the tile image in @line from colour slots + 1
 * in @slots (0: none, @under's pixel shows), @scale pixels a unit. */
static void
compose_line (const guint8       *slots,
              const guint32      *under,
              const guint32      *pixels,
              int                 scale,
              guint32            *line)
{
  for (int x = 0; x < TILE_WIDTH; x++)
    {
      guint32 pixel;

      if (slots[x] == 0)
        {
          for (int k = 0; k < scale; k++)
            line[x * scale + k] = under[x * scale + k];
          continue;
        }
      pixel = pixels[slots[x] - 1];
      for (int k = 0; k < scale; k++)
        line[x * scale + k] = pixel;
    }
}

/* The rows of a band in the tile at grid pixel @base, slot @s, written
 * straight into the tile image @data: each row of slices is put together
 * once as one line of pixels over @under (the band's background) and
 * copied to its pixel rows, which @covered marks. Other rows are drawn
 * through @cr later, by draw_tile_rows_through. */
static void
put_tile_band (SlTimelineRenderer       *self,
               const SlTimelineViewport *vp,
               gint64                    base,
               guint                     s,
               guint                     first,
               guint                     end,
               double                    band_top,
               double                    band_height,
               double                    scroll,
               guchar                   *data,
               guchar                   *flow_data,
               int                       stride,
               int                       scale,
               const guint32            *under,
               const guint32            *pixels,
               guint8                   *covered,
               GArray                   *spans,
               guint                    *n_spans)
{
  TileSlot *slot = &self->slots[s];
  gint64 origin = sl_trace_get_start_ns (self->trace);
  double p = vp->ns_per_pixel;
  gint64 ta = origin + (gint64)floor ((double)(base - 1) * p);
  gint64 tb = origin + (gint64)ceil ((double)(base + TILE_WIDTH + 1) * p);
  guint8 slots[TILE_WIDTH];
  guint32 line[TILE_WIDTH * 4];
  gsize offset = (gsize)s * TILE_WIDTH * scale * 4;

  for (guint i = first_row_below (self, first, end, scroll); i < end; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = band_top + row->y - scroll;
      int y0, y1;

      if (y > band_top + band_height)
        break;
      if (row->kind != ROW_SLICES || sl_trace_get_slices (self->trace, row->track) == NULL)
        continue;
      memset (slots, 0, sizeof slots);
      draw_tile_slices (self, vp, i, y, ta, tb, base, (double)s * TILE_WIDTH, slot, slots, spans, n_spans);
      y0 = (int)MAX (y + 1, band_top) * scale;
      y1 = (int)MIN (y + ROW_HEIGHT - 1, band_top + band_height) * scale;
      if (y1 <= y0)
        continue;
      compose_line (slots, under, pixels, scale, line);
      for (int py = y0; py < y1; py++)
        {
          memcpy (data + (gsize)py * stride + offset, line, (gsize)TILE_WIDTH * scale * 4);
          if (flow_data != NULL)
            memcpy (flow_data + (gsize)py * stride + offset, line, (gsize)TILE_WIDTH * scale * 4);
          covered[py] = TRUE;
        }
    }
}

/* Counters and process headers of a band, drawn through @cr over the
 * background put_tile_band left them. */
static void
draw_tile_rows_through (SlTimelineRenderer       *self,
                        cairo_t                  *cr,
                        const SlTimelineViewport *vp,
                        gint64                    base,
                        double                    left,
                        guint                     first,
                        guint                     end,
                        double                    band_top,
                        double                    band_height,
                        double                    scroll)
{
  gint64 origin = sl_trace_get_start_ns (self->trace);
  double p = vp->ns_per_pixel;

  self->band_top = band_top;
  self->band_bottom = band_top + band_height;
  for (guint i = first_row_below (self, first, end, scroll); i < end; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = band_top + row->y - scroll;

      if (y > band_top + band_height)
        break;
      if (row->kind == ROW_SLICES)
        continue;
      cairo_save (cr);
      cairo_rectangle (cr, left, band_top, TILE_WIDTH, band_height);
      cairo_clip (cr);
      if (row->kind == ROW_PROCESS)
        draw_process_row (self, cr, row, y, left, TILE_WIDTH);
      else
        draw_counter_row (self, cr, row, y, origin + (gint64)floor ((double)base * p),
                          origin + (gint64)floor ((double)(base + TILE_WIDTH) * p), left, TILE_WIDTH);
      cairo_restore (cr);
    }
}

/* A tile is written straight into the tile image's memory when @cr draws
 * there on whole pixels: every pixel of the tile is written once (the
 * rows of slices a line each, copied down their height; the background
 * and grid lines, put together once in a line, under and between them),
 * instead of a fill of the whole column and boxes over it row by row.
 * Counters and process headers still go through cairo. Frames at a new
 * zoom each at 8 M slices, 1920 × 1080 (CPU medians, the best of five
 * runs each, before and after in the same run, busy machine): full view
 * 9.2 → 6.6 ms, 10 % 13.1 → 11.1 ms, 1 % 7.5 → 5.6 ms.
 * This is what is worked out for @tile on the frame's thread before its
 * pixels, into @job: whether the memory can be written (FALSE when it
 * cannot: draw_tile then draws it), the background and grid lines, and
 * whether the tile goes into the flow image too. */
static gboolean
put_tile_begin (SlTimelineRenderer       *self,
                cairo_t                  *cr,
                const SlTimelineViewport *vp,
                gint64                    tile,
                TileJob                  *job)
{
  cairo_surface_t *target = cairo_get_target (cr);
  guint s = tile_slot (self, tile);
  gint64 base = tile * TILE_WIDTH;
  double left = (double)s * TILE_WIDTH;
  double scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;
  int scale = (int)self->tiles_scale;
  cairo_surface_t *line_image;
  cairo_t *lcr;
  double x = 0, y = 0;
  guint n_flows;

  if (target != self->tiles || scale < 1 || scale > 4 || self->tiles_scale != scale
      || scroll_top != floor (scroll_top) || vp->scroll_y != floor (vp->scroll_y))
    return FALSE;
  cairo_user_to_device (cr, &x, &y);
  if (x != 0 || y != 0)
    return FALSE;

  job->tile = tile;
  job->s = s;
  /* The background line, and the same with the grid lines as
   * draw_tile_grid draws them, from cairo into a line of pixels. */
  line_image = cairo_image_surface_create_for_data ((guchar *)job->grid_line, CAIRO_FORMAT_ARGB32, TILE_WIDTH * scale, 1,
                                                    TILE_WIDTH * scale * 4);
  cairo_surface_set_device_scale (line_image, scale, scale);
  lcr = cairo_create (line_image);
  cairo_set_source_rgb (lcr, self->bg[0], self->bg[1], self->bg[2]);
  cairo_paint (lcr);
  cairo_surface_flush (line_image);
  memcpy (job->bg_line, job->grid_line, (gsize)TILE_WIDTH * scale * 4);
  cairo_translate (lcr, -left, -SL_TIMELINE_RULER_HEIGHT);
  draw_tile_grid (self, lcr, vp, base, left);
  cairo_destroy (lcr);
  cairo_surface_finish (line_image);
  cairo_surface_destroy (line_image);

  g_array_set_size (self->slots[s].labels, 0);
  /* A tile with flows through it goes into the flow image as it is
   * written, instead of being copied there after: frames at a new zoom
   * each at 8 M slices (CPU medians, the best of four runs each, before
   * and after in the same run): 10 % 9.5 → 9.2 ms, 1 % 5.1 → 4.8 ms. */
  self->slots[s].copied = FALSE;
  job->flow_data = NULL;
  n_flows = find_tile_flows (self, vp, base);
  if (n_flows > 0 && !tile_flows_blend (self, vp, base, n_flows) && ensure_flow_image (self)
      && cairo_image_surface_get_stride (self->flow_tiles) == cairo_image_surface_get_stride (target)
      && cairo_image_surface_get_height (self->flow_tiles) == cairo_image_surface_get_height (target))
    {
      cairo_surface_flush (self->flow_tiles);
      job->flow_data = cairo_image_surface_get_data (self->flow_tiles);
    }
  cairo_surface_flush (target);
  return TRUE;
}

/* The pixels of tile @index of the frame (see SlFrameWorker), set up by
 * put_tile_begin: the rows of slices of both bands, and the background
 * and grid lines between them. It reads the trace and writes only the
 * tile's own columns, its names and its job, and takes the scratch of
 * @thread, so two tiles can be put on two threads at once. */
static void
put_tile_pixels (guint    index,
                 guint    thread,
                 gpointer data)
{
  TilePass *pass = data;
  SlTimelineRenderer *self = pass->self;
  const SlTimelineViewport *vp = pass->vp;
  TileJob *job = &self->jobs[index];
  GArray *spans = thread == 0 ? self->spans : self->worker_spans;
  guint *n_spans = &pass->n_spans[thread];
  double scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;
  gint64 base = job->tile * TILE_WIDTH;
  gsize offset = (gsize)job->s * TILE_WIDTH * pass->scale * 4;

  memset (job->covered, 0, pass->height);
  put_tile_band (self, vp, base, job->s, self->n_pinned_rows, self->rows->len, scroll_top, vp->height - scroll_top,
                 vp->scroll_y, pass->data, job->flow_data, pass->stride, pass->scale, job->grid_line, pass->pixels,
                 job->covered, spans, n_spans);
  if (self->n_pinned_rows > 0)
    put_tile_band (self, vp, base, job->s, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT, self->pinned_height, 0,
                   pass->data, job->flow_data, pass->stride, pass->scale, job->bg_line, pass->pixels, job->covered,
                   spans, n_spans);

  /* The ruler's strip and the pinned band have no grid lines. */
  for (int py = 0; py < pass->height; py++)
    if (!job->covered[py])
      memcpy (pass->data + (gsize)py * pass->stride + offset, py < (int)scroll_top * pass->scale ? job->bg_line : job->grid_line,
              (gsize)TILE_WIDTH * pass->scale * 4);
}

/* What put_tile_pixels left of the tile, drawn through @cr after it: the
 * counters and process headers; then the tile's pixels go into the flow
 * image too where put_tile_begin chose it. */
static void
put_tile_end (const TilePass *pass,
              cairo_t        *cr,
              TileJob        *job)
{
  SlTimelineRenderer *self = pass->self;
  const SlTimelineViewport *vp = pass->vp;
  cairo_surface_t *target = cairo_get_target (cr);
  double scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;
  gint64 base = job->tile * TILE_WIDTH;
  double left = (double)job->s * TILE_WIDTH;
  gsize offset = (gsize)job->s * TILE_WIDTH * pass->scale * 4;

  cairo_surface_mark_dirty (target);
  draw_tile_rows_through (self, cr, vp, base, left, self->n_pinned_rows, self->rows->len, scroll_top,
                          vp->height - scroll_top, vp->scroll_y);
  if (self->n_pinned_rows > 0)
    draw_tile_rows_through (self, cr, vp, base, left, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT,
                            self->pinned_height, 0);
  if (job->flow_data != NULL)
    {
      /* The rows cairo drew (and the background ones) as they are now */
      cairo_surface_flush (target);
      cairo_surface_flush (self->flow_tiles);
      for (int py = 0; py < pass->height; py++)
        if (!job->covered[py])
          memcpy (job->flow_data + (gsize)py * pass->stride + offset, pass->data + (gsize)py * pass->stride + offset,
                  (gsize)TILE_WIDTH * pass->scale * 4);
      cairo_surface_mark_dirty (self->flow_tiles);
      self->slots[job->s].copied = TRUE;
    }
  self->slots[job->s].tile = job->tile;
  self->slots[job->s].flows = FALSE;
}

/* What every tile of a pass shares: the tile image's memory and the
 * colours' pixels. */
static void
tile_pass_init (SlTimelineRenderer       *self,
                cairo_t                  *cr,
                const SlTimelineViewport *vp,
                TilePass                 *pass)
{
  cairo_surface_t *target = cairo_get_target (cr);

  pass->self = self;
  pass->vp = vp;
  pass->scale = (int)self->tiles_scale;
  pass->data = cairo_image_surface_get_data (target);
  pass->stride = cairo_image_surface_get_stride (target);
  pass->height = MIN (vp->height * pass->scale, cairo_image_surface_get_height (target));
  for (guint c = 0; c < N_SLOTS; c++)
    pass->pixels[c] = opaque_pixel (self->color[c]);
  pass->n_spans[0] = pass->n_spans[1] = 0;
  if (self->n_covered < (guint)pass->height * MAX (1, self->n_jobs))
    {
      self->n_covered = (guint)pass->height * MAX (1, self->n_jobs);
      self->covered = g_renew (guint8, self->covered, self->n_covered);
    }
  for (guint j = 0; j < self->n_jobs; j++)
    self->jobs[j].covered = self->covered + (gsize)j * pass->height;
}

/* Room for @n tiles' jobs */
static void
ensure_jobs (SlTimelineRenderer *self,
             guint               n)
{
  if (self->n_jobs >= n)
    return;
  self->jobs = g_renew (TileJob, self->jobs, n);
  self->n_jobs = n;
}

/* Everything under the names in grid pixels [base, base + TILE_WIDTH):
 * the background, the grid, and the rows of both bands, through cairo:
 * for targets whose memory put_tile_begin cannot write. */
static void
draw_tile (SlTimelineRenderer       *self,
           cairo_t                  *cr,
           const SlTimelineViewport *vp,
           gint64                    tile)
{
  guint s = tile_slot (self, tile);
  TileSlot *slot = &self->slots[s];
  gint64 base = tile * TILE_WIDTH;
  double left = (double)s * TILE_WIDTH;
  double scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;

  /* the tile's column is written whole: what was under flows is gone */
  g_array_set_size (slot->under, 0);
  g_array_set_size (slot->labels, 0);
  cairo_set_source_rgb (cr, self->bg[0], self->bg[1], self->bg[2]);
  cairo_rectangle (cr, left, 0, TILE_WIDTH, vp->height);
  cairo_fill (cr);
  draw_tile_grid (self, cr, vp, base, left);

  draw_tile_rows (self, cr, vp, base, left, slot, self->n_pinned_rows, self->rows->len, scroll_top,
                  vp->height - scroll_top, vp->scroll_y);
  if (self->n_pinned_rows > 0)
    {
      cairo_set_source_rgb (cr, self->bg[0], self->bg[1], self->bg[2]);
      cairo_rectangle (cr, left, SL_TIMELINE_RULER_HEIGHT, TILE_WIDTH, self->pinned_height);
      cairo_fill (cr);
      draw_tile_rows (self, cr, vp, base, left, slot, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT,
                      self->pinned_height, 0);
    }
  slot->tile = tile;
  slot->flows = FALSE;
}

/* Images are kept for image targets and GTK's recordings; a vector target
 * (an SVG or PDF export) gets the tiles drawn into it, as boxes. */
static gboolean
keeps_images (cairo_t *cr)
{
  cairo_surface_type_t type = cairo_surface_get_type (cairo_get_target (cr));

  return type == CAIRO_SURFACE_TYPE_IMAGE || type == CAIRO_SURFACE_TYPE_RECORDING;
}

static void
ensure_slots (SlTimelineRenderer *self,
              guint               n_slots)
{
  if (self->slots != NULL && self->n_slots >= n_slots)
    return;
  free_tiles (self);
  self->n_slots = n_slots;
  self->slots = g_new (TileSlot, n_slots);
  for (guint i = 0; i < n_slots; i++)
    {
      self->slots[i].tile = NO_TILE;
      self->slots[i].flows = self->slots[i].copied = FALSE;
      self->slots[i].labels = g_array_new (FALSE, FALSE, sizeof (TileLabel));
      self->slots[i].under = g_array_new (FALSE, FALSE, sizeof (SlPixelUnder));
    }
}

static void
set_tiles_key (SlTimelineRenderer       *self,
               const SlTimelineViewport *vp,
               gboolean                  selected_flows)
{
  if (vp->ns_per_pixel != self->tiles_ns_per_pixel || vp->scroll_y != self->tiles_scroll_y
      || selected_flows != self->tiles_selected_flows)
    {
      /* The gutter shows no time: a zoom keeps it. */
      invalidate_slice_tiles (self);
      self->tiles_ns_per_pixel = vp->ns_per_pixel;
      self->tiles_scroll_y = vp->scroll_y;
      self->tiles_selected_flows = selected_flows;
    }
}

/* Tiles [first, end) drawn straight into @cr at their place, none kept */
static void
draw_tiles_into (SlTimelineRenderer       *self,
                 cairo_t                  *cr,
                 const SlTimelineViewport *vp,
                 gint64                    first,
                 gint64                    end,
                 gboolean                  selected_flows)
{
  ensure_slots (self, (guint)(end - first));
  set_tiles_key (self, vp, selected_flows);
  invalidate_tiles (self);
  for (gint64 t = first; t < end; t++)
    {
      guint s = tile_slot (self, t);
      guint n_flows;

      cairo_save (cr);
      cairo_rectangle (cr, SL_TIMELINE_GUTTER_WIDTH, SL_TIMELINE_RULER_HEIGHT, vp->width - SL_TIMELINE_GUTTER_WIDTH,
                       vp->height - SL_TIMELINE_RULER_HEIGHT);
      cairo_clip (cr);
      cairo_translate (cr, SL_TIMELINE_GUTTER_WIDTH + (double)(t * TILE_WIDTH - self->view_px) - (double)s * TILE_WIDTH, 0);
      draw_tile (self, cr, vp, t);
      n_flows = find_tile_flows (self, vp, t * TILE_WIDTH);
      if (n_flows > 0)
        stroke_tile_flows (self, cr, NULL, vp, t * TILE_WIDTH, (double)s * TILE_WIDTH, n_flows, NULL);
      cairo_restore (cr);
      self->last_n_tiles++;
    }
  /* Their names stay for this frame; the next draws them again. */
  for (guint i = 0; i < self->n_slots; i++)
    self->slots[i].tile = NO_TILE;
}

/* Takes the flows blended into the tile image's slot @s off it. */
static void
restore_tile (SlTimelineRenderer *self,
              guint               s)
{
  if (self->slots[s].under->len == 0)
    return;
  cairo_surface_flush (self->tiles);
  sl_pixel_restore (cairo_image_surface_get_data (self->tiles), self->slots[s].under);
  cairo_surface_mark_dirty (self->tiles);
}

/* The flows through the kept tile in slot @s. When they are all straight
 * (tile_flows_blend), they are blended into the tile image over the tile,
 * keeping the pixels they cover, so that a scroll takes them off before
 * it moves the rows and draws them again (a flow is drawn only between
 * rows on screen). Otherwise the flow image gets the tile and the flows
 * over it, and the frames show the tile from there, the tile image
 * keeping the tile without them. At 10 % of 8 M and 32 M slices, where
 * every tile has a few straight flows, frames at a new zoom each wrote
 * each tile twice, into both images, and took 13 % and 11 % longer (in
 * turn in one run, 512 frames each: 7.20 against 6.26 ms and 8.35
 * against 7.40 ms). */
static void
keep_tile_flows (SlTimelineRenderer       *self,
                 const SlTimelineViewport *vp,
                 guint                     s)
{
  TileSlot *slot = &self->slots[s];
  double left = (double)s * TILE_WIDTH;
  int scale = (int)self->tiles_scale;
  gboolean copied;
  guint n;
  cairo_t *cr;

  /* Only right after put_tile_end wrote it */
  copied = slot->copied;
  slot->copied = FALSE;
  slot->flows = FALSE;
  restore_tile (self, s);
  if (slot->tile == NO_TILE)
    return;
  n = find_tile_flows (self, vp, slot->tile * TILE_WIDTH);
  if (n == 0)
    return;
  if (!copied && tile_flows_blend (self, vp, slot->tile * TILE_WIDTH, n))
    {
      cr = cairo_create (self->tiles);
      stroke_tile_flows (self, cr, self->tiles, vp, slot->tile * TILE_WIDTH, left, n, slot->under);
      cairo_destroy (cr);
      cairo_surface_mark_dirty (self->tiles);
      return;
    }
  if (!ensure_flow_image (self))
    return;

  cairo_surface_flush (self->tiles);
  cairo_surface_flush (self->flow_tiles);
  if (copied)
    /* put_tile_pixels wrote the tile there already */
    cr = cairo_create (self->flow_tiles);
  else if (scale >= 1 && self->tiles_scale == scale)
    {
      /* The tile's columns, row by row */
      const guchar *src = cairo_image_surface_get_data (self->tiles);
      guchar *dst = cairo_image_surface_get_data (self->flow_tiles);
      int stride = cairo_image_surface_get_stride (self->tiles);
      gsize offset = (gsize)s * TILE_WIDTH * scale * 4, bytes = (gsize)TILE_WIDTH * scale * 4;
      int height = MIN (vp->height * scale, cairo_image_surface_get_height (self->tiles));

      for (int y = 0; y < height; y++)
        memcpy (dst + (gsize)y * stride + offset, src + (gsize)y * stride + offset, bytes);
      cairo_surface_mark_dirty (self->flow_tiles);
      cr = cairo_create (self->flow_tiles);
    }
  else
    {
      cr = cairo_create (self->flow_tiles);
      cairo_save (cr);
      cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
      cairo_set_source_surface (cr, self->tiles, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
      cairo_rectangle (cr, left, 0, TILE_WIDTH, vp->height);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  stroke_tile_flows (self, cr, self->flow_tiles, vp, slot->tile * TILE_WIDTH, left, n, NULL);
  cairo_destroy (cr);
  cairo_surface_mark_dirty (self->flow_tiles);
  slot->flows = TRUE;
}

/* The rows of the scrolled band on screen at @scroll: those a tile draws */
static void
rows_on_screen (SlTimelineRenderer       *self,
                const SlTimelineViewport *vp,
                double                    scroll,
                guint                    *first,
                guint                    *end)
{
  double scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;

  *first = *end = first_row_below (self, self->n_pinned_rows, self->rows->len, scroll);
  while (*end < self->rows->len
         && scroll_top + g_array_index (self->rows, Row, *end).y - scroll <= (double)vp->height)
    (*end)++;
}

/* Moves the rows [@top, @bottom) of @image by @d whole pixels (up when
 * @d > 0, as the tracks scroll down), leaving the uncovered strip for the
 * caller to draw. */
static void
scroll_image_rows (cairo_surface_t *image,
                   int              top,
                   int              bottom,
                   double           d)
{
  guchar *data;
  int stride, shift = (int)fabs (d);

  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);
  if (d > 0)
    memmove (data + (gsize)top * stride, data + (gsize)(top + shift) * stride, (gsize)(bottom - top - shift) * stride);
  else
    memmove (data + (gsize)(top + shift) * stride, data + (gsize)top * stride, (gsize)(bottom - top - shift) * stride);
  cairo_surface_mark_dirty (image);
}

/* Vertical scroll by whole pixels with the zoom and the size unchanged:
 * the scrolled band of every kept tile moves by as many rows of pixels
 * and only the strip it uncovers is drawn; the flows through a tile are
 * drawn again over it in the flow image. The names of rows that left the
 * screen go; those of rows that came in are added. Returns FALSE when the
 * tiles must be drawn again instead. */
static gboolean
scroll_tiles (SlTimelineRenderer       *self,
              const SlTimelineViewport *vp)
{
  double scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;
  double band_height = vp->height - scroll_top;
  double d = vp->scroll_y - self->tiles_scroll_y;
  int scale = (int)self->tiles_scale;
  guint old_first, old_end, new_first, new_end;
  double strip_top, strip_height;
  cairo_t *cr;

  if (self->tiles == NULL || vp->ns_per_pixel != self->tiles_ns_per_pixel || vp->height != self->tiles_height
      || d == 0 || d != floor (d) || fabs (d) >= band_height || scale < 1 || self->tiles_scale != scale
      || scroll_top != floor (scroll_top))
    return FALSE;

  /* the rows move, and the flows' ends with them: they are drawn again */
  for (guint s = 0; s < self->n_slots; s++)
    restore_tile (self, s);
  scroll_image_rows (self->tiles, (int)scroll_top * scale, vp->height * scale, d * scale);

  rows_on_screen (self, vp, self->tiles_scroll_y, &old_first, &old_end);
  rows_on_screen (self, vp, vp->scroll_y, &new_first, &new_end);
  self->tiles_scroll_y = vp->scroll_y;
  strip_height = fabs (d);
  strip_top = d > 0 ? vp->height - strip_height : scroll_top;

  cr = cairo_create (self->tiles);
  self->labels_held_first = old_first;
  self->labels_held_end = old_end;
  for (guint s = 0; s < self->n_slots; s++)
    {
      TileSlot *slot = &self->slots[s];
      double left = (double)s * TILE_WIDTH;
      guint kept = 0;
      gint64 base;

      if (slot->tile == NO_TILE)
        continue;
      base = slot->tile * TILE_WIDTH;
      /* Names of rows still on screen (and of the pinned band) stay. */
      for (guint i = 0; i < slot->labels->len; i++)
        {
          const TileLabel *tl = &g_array_index (slot->labels, TileLabel, i);

          if (tl->row < self->n_pinned_rows || (tl->row >= new_first && tl->row < new_end))
            g_array_index (slot->labels, TileLabel, kept++) = *tl;
        }
      g_array_set_size (slot->labels, kept);

      cairo_save (cr);
      cairo_rectangle (cr, left, strip_top, TILE_WIDTH, strip_height);
      cairo_clip (cr);
      cairo_set_source_rgb (cr, self->bg[0], self->bg[1], self->bg[2]);
      cairo_paint (cr);
      draw_tile_grid (self, cr, vp, base, left);
      cairo_restore (cr);
      draw_tile_rows (self, cr, vp, base, left, slot, self->n_pinned_rows, self->rows->len, strip_top, strip_height,
                      vp->scroll_y + (strip_top - scroll_top));
    }
  self->labels_held_first = self->labels_held_end = 0;
  cairo_destroy (cr);
  cairo_surface_mark_dirty (self->tiles);
  for (guint s = 0; s < self->n_slots; s++)
    keep_tile_flows (self, vp, s);
  return TRUE;
}

/* Makes the tile image hold tiles [first, end), drawing those it lacks.
 * Returns FALSE when there can be no such image (cairo's size limit). */
static gboolean
ensure_tiles (SlTimelineRenderer       *self,
              cairo_t                  *cr,
              const SlTimelineViewport *vp,
              gint64                    first,
              gint64                    end,
              gboolean                  selected_flows)
{
  guint n_slots = (guint)((vp->width - SL_TIMELINE_GUTTER_WIDTH + TILE_WIDTH - 1) / TILE_WIDTH) + 2;
  /* Crisp at the screen's scale: the image has its pixels. */
  double scale_x = image_scale (self, cr);
  cairo_t *tcr = NULL;
  int image_width, image_height;
  guint n_jobs = 0;

  /* A window being resized does not allocate an image every frame. */
  tiles_image_size (vp->width, vp->height, &image_width, &image_height);
  if (self->tiles == NULL || n_slots > self->n_slots || vp->height > self->tiles_image_height
      || scale_x != self->tiles_scale)
    {
      free_tiles (self);
      ensure_slots (self, n_slots + 1);
      self->tiles = new_kept_image (self, &self->tiles_reserve,
                                   (int)ceil (MAX (image_width, (int)self->n_slots * TILE_WIDTH) * scale_x),
                                   (int)ceil (image_height * scale_x), scale_x);
      if (cairo_surface_status (self->tiles) != CAIRO_STATUS_SUCCESS)
        {
          free_tiles (self);
          return FALSE;
        }
      self->tiles_image_height = image_height;
      self->tiles_scale = scale_x;
    }
  if (vp->height != self->tiles_height)
    {
      invalidate_tiles (self);
      self->tiles_height = vp->height;
    }
  if (vp->scroll_y != self->tiles_scroll_y && selected_flows == self->tiles_selected_flows)
    scroll_tiles (self, vp);
  set_tiles_key (self, vp, selected_flows);

  self->last_n_tiles = 0;
  self->last_n_worker_tiles = 0;
  ensure_jobs (self, (guint)MAX (end - first, 1));
  for (gint64 t = first; t < end; t++)
    {
      guint s = tile_slot (self, t);

      if (self->slots[s].tile == t)
        continue;
      if (tcr == NULL)
        tcr = cairo_create (self->tiles);
      /* the tile's column is written whole: what was under flows is gone */
      g_array_set_size (self->slots[s].under, 0);
      if (put_tile_begin (self, tcr, vp, t, &self->jobs[n_jobs]))
        n_jobs++;
      else
        {
          draw_tile (self, tcr, vp, t);
          keep_tile_flows (self, vp, s);
        }
      self->last_n_tiles++;
    }
  if (n_jobs > 0)
    {
      /* The tiles' pixels, shared out between this thread and the frame
       * worker; then what goes through cairo, here. */
      TilePass pass;

      tile_pass_init (self, tcr, vp, &pass);
      if (self->worker == NULL && n_jobs > 1 && self->tile_threads != SL_TIMELINE_TILES_ONE_THREAD)
        {
          self->worker = sl_frame_worker_new ();
          sl_frame_worker_set_alternate (self->worker, self->tile_threads == SL_TIMELINE_TILES_ALTERNATE);
        }
      if (self->worker != NULL && self->tile_threads != SL_TIMELINE_TILES_ONE_THREAD)
        self->last_n_worker_tiles = sl_frame_worker_run (self->worker, n_jobs, put_tile_pixels, &pass);
      else
        for (guint j = 0; j < n_jobs; j++)
          put_tile_pixels (j, 0, &pass);
      self->last_n_spans += pass.n_spans[0] + pass.n_spans[1];
      for (guint j = 0; j < n_jobs; j++)
        {
          put_tile_end (&pass, tcr, &self->jobs[j]);
          keep_tile_flows (self, vp, self->jobs[j].s);
        }
    }
  if (tcr != NULL)
    {
      cairo_destroy (tcr);
      cairo_surface_mark_dirty (self->tiles);
    }
  return TRUE;
}

/* Copies tiles [first, end) to their place on screen; neighbouring slots
 * go in one copy. */
static void
blit_tiles (SlTimelineRenderer       *self,
            cairo_t                  *cr,
            const SlTimelineViewport *vp,
            gint64                    first,
            gint64                    end)
{
  cairo_save (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  for (gint64 t = first; t < end;)
    {
      guint s = tile_slot (self, t);
      gint64 run = 1;
      double dx = SL_TIMELINE_GUTTER_WIDTH + (double)(t * TILE_WIDTH - self->view_px);
      double x0, x1;
      /* A tile with flows through it is shown from the flow image */
      gboolean flows = self->slots[s].flows;

      while (t + run < end && tile_slot (self, t + run) == s + run && self->slots[s + run].flows == flows)
        run++;
      x0 = MAX (dx, SL_TIMELINE_GUTTER_WIDTH);
      x1 = MIN (dx + run * TILE_WIDTH, vp->width);
      t += run;
      if (x1 <= x0)
        continue;
      cairo_set_source_surface (cr, flows ? self->flow_tiles : self->tiles, dx - (double)s * TILE_WIDTH, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
      cairo_rectangle (cr, x0, SL_TIMELINE_RULER_HEIGHT, x1 - x0, vp->height - SL_TIMELINE_RULER_HEIGHT);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

/* The names of the slices the tiles [first, end) keep, in rows [row_first,
 * row_end) of a band: each once, from the first tile it is in, placed
 * where the view's edges leave room. */
static void
draw_tile_labels (SlTimelineRenderer       *self,
                  cairo_t                  *cr,
                  const SlTimelineViewport *vp,
                  gint64                    first,
                  gint64                    end,
                  guint                     row_first,
                  guint                     row_end,
                  double                    band_top,
                  double                    band_height,
                  double                    scroll)
{
  for (gint64 t = first; t < end; t++)
    {
      const TileSlot *slot = &self->slots[tile_slot (self, t)];

      for (guint i = 0; i < slot->labels->len; i++)
        {
          const TileLabel *tl = &g_array_index (slot->labels, TileLabel, i);
          const Row *row;
          double y, lx0, lx1;

          if (tl->row < row_first || tl->row >= row_end || (t > first && floor (tl->gx0) < (double)(t * TILE_WIDTH)))
            continue;
          row = &g_array_index (self->rows, Row, tl->row);
          y = band_top + row->y - scroll;
          if (y + row->h <= band_top || y > band_top + band_height)
            continue;
          lx0 = MAX (SL_TIMELINE_GUTTER_WIDTH + (tl->gx0 - (double)self->view_px), SL_TIMELINE_GUTTER_WIDTH);
          lx1 = MIN (SL_TIMELINE_GUTTER_WIDTH + (tl->gx1 - (double)self->view_px), vp->width);
          if (lx1 - lx0 >= MIN_LABEL_WIDTH)
            {
              Label l = { lx0 + LABEL_PADDING, y, lx1 - lx0 - 2 * LABEL_PADDING, tl->name_id, tl->color };

              g_array_append_val (self->labels, l);
            }
        }
    }

  cairo_save (cr);
  cairo_rectangle (cr, SL_TIMELINE_GUTTER_WIDTH, band_top, vp->width - SL_TIMELINE_GUTTER_WIDTH, band_height);
  cairo_clip (cr);
  flush_labels (self, cr);
  cairo_restore (cr);
}

/* Adds to @cr's path the rectangle @x, @y, @width, @height grown to
 * whole device pixels. */
static void
add_whole_pixels (cairo_t *cr,
                  double   x,
                  double   y,
                  double   width,
                  double   height)
{
  double x0 = x, y0 = y, x1 = x + width, y1 = y + height;

  cairo_user_to_device (cr, &x0, &y0);
  cairo_user_to_device (cr, &x1, &y1);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  cairo_rectangle (cr, floor (MIN (x0, x1)), floor (MIN (y0, y1)), ceil (MAX (x0, x1)) - floor (MIN (x0, x1)),
                   ceil (MAX (y0, y1)) - floor (MIN (y0, y1)));
  cairo_restore (cr);
}

/* Adds to @cr's path the part of a band the gutter image shows: the
 * gutter and the process rows across, as they are, or grown to whole
 * pixels (to clear them in the image whatever the clip's edges blend). */
static void
add_gutter_area (SlTimelineRenderer       *self,
                 cairo_t                  *cr,
                 const SlTimelineViewport *vp,
                 guint                     first,
                 guint                     end,
                 double                    band_top,
                 double                    band_height,
                 double                    scroll,
                 gboolean                  whole_pixels)
{
  void (*add) (cairo_t *, double, double, double, double) = whole_pixels ? add_whole_pixels : cairo_rectangle;

  add (cr, 0, band_top, SL_TIMELINE_GUTTER_WIDTH, band_height);
  for (guint i = first_row_below (self, first, end, scroll); i < end; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = band_top + row->y - scroll;
      double top = MAX (y, band_top), bottom = MIN (y + row->h, band_top + band_height);

      if (y > band_top + band_height)
        break;
      if (row->kind == ROW_PROCESS && bottom > top)
        add (cr, SL_TIMELINE_GUTTER_WIDTH, top, vp->width - SL_TIMELINE_GUTTER_WIDTH, bottom - top);
    }
}

/* Clips to what the gutter covers in a band: the gutter, and process
 * headers across the whole width (their names, often a file and a pid,
 * need the room). */
static void
clip_gutter (SlTimelineRenderer       *self,
             cairo_t                  *cr,
             const SlTimelineViewport *vp,
             guint                     first,
             guint                     end,
             double                    band_top,
             double                    band_height,
             double                    scroll)
{
  cairo_rectangle (cr, 0, band_top, vp->width, band_height);
  cairo_clip (cr);
  add_gutter_area (self, cr, vp, first, end, band_top, band_height, scroll, FALSE);
  cairo_clip (cr);
}

static void
draw_gutter (SlTimelineRenderer       *self,
             cairo_t                  *cr,
             const SlTimelineViewport *vp,
             guint                     first,
             guint                     end,
             double                    band_top,
             double                    band_height,
             double                    scroll)
{
  PangoLayout *layout = ensure_scratch_layout (self, cr);

  cairo_save (cr);
  clip_gutter (self, cr, vp, first, end, band_top, band_height, scroll);
  cairo_set_source_rgb (cr, self->bg[0], self->bg[1], self->bg[2]);
  cairo_paint (cr);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);

  for (guint i = first_row_below (self, first, end, scroll); i < end; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      double y = band_top + row->y - scroll;
      g_autofree char *text = NULL;
      double indent;
      int lw, lh;

      if (y > band_top + band_height)
        break;
      if (row->kind == ROW_SLICES && row->depth > 0)
        continue;

      if (row->kind == ROW_PROCESS)
        {
          const char *name = sl_trace_get_process_name (self->trace, row->process);
          const char *pid = sl_trace_get_process_pid (self->trace, row->process);

          draw_process_row (self, cr, row, y, 0, vp->width);
          /* A disclosure triangle: pointing right when collapsed. */
          cairo_set_source_rgb (cr, self->fg[0], self->fg[1], self->fg[2]);
          if (self->collapsed[row->process])
            {
              cairo_move_to (cr, 8, y + 7);
              cairo_line_to (cr, 14, y + 12);
              cairo_line_to (cr, 8, y + 17);
            }
          else
            {
              cairo_move_to (cr, 6, y + 9);
              cairo_line_to (cr, 16, y + 9);
              cairo_line_to (cr, 11, y + 15);
            }
          cairo_close_path (cr);
          cairo_fill (cr);
          if (name != NULL && name[0] != '\0')
            text = g_strdup_printf ("%s (%s)", name, pid);
          else
            /* Translators: a process in a timeline; %s is its id. */
            text = g_strdup_printf (_("Process %s"), pid);
          indent = 22;
        }
      else
        {
          const char *name = sl_trace_get_track_name (self->trace, row->track);

          if (row->pinned)
            {
              const char *process_name = sl_trace_get_process_name (self->trace, row->process);

              text = g_strdup_printf ("%s · %s",
                                      process_name && process_name[0] ? process_name
                                      : sl_trace_get_process_pid (self->trace, row->process),
                                      name);
            }
          else
            text = g_strdup (name);
          indent = 22;
        }

      pango_layout_set_text (layout, text, -1);
      pango_layout_set_width (layout, ((row->kind == ROW_PROCESS ? vp->width : SL_TIMELINE_GUTTER_WIDTH) - indent - 6) * PANGO_SCALE);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], row->kind == ROW_PROCESS ? 1 : 0.8);
      cairo_move_to (cr, indent, y + ((row->kind == ROW_PROCESS ? PROCESS_HEIGHT : ROW_HEIGHT) - lh) / 2.0);
      pango_cairo_show_layout (cr, layout);
    }

  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  cairo_restore (cr);

  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.2);
  cairo_rectangle (cr, SL_TIMELINE_GUTTER_WIDTH - 1, band_top, 1, band_height);
  cairo_fill (cr);
}

/* Vertical scroll by whole pixels with nothing else changed: the kept
 * gutter's scrolled band moves and only the strip it uncovers is drawn.
 * Returns FALSE when it must be drawn again instead. */
static gboolean
scroll_gutter (SlTimelineRenderer       *self,
               const SlTimelineViewport *vp)
{
  double scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;
  double band_height = vp->height - scroll_top;
  double d = vp->scroll_y - self->gutter_scroll_y;
  int scale = (int)self->gutter_scale;
  double strip_top, strip_height;
  cairo_t *gcr;

  if (!self->gutter_valid || vp->width != self->gutter_width || vp->height != self->gutter_height
      || d == 0 || d != floor (d) || fabs (d) >= band_height || scale < 1 || self->gutter_scale != scale
      || scroll_top != floor (scroll_top))
    return FALSE;

  scroll_image_rows (self->gutter, (int)scroll_top * scale, vp->height * scale, d * scale);

  strip_height = fabs (d);
  strip_top = d > 0 ? vp->height - strip_height : scroll_top;
  gcr = cairo_create (self->gutter);
  cairo_rectangle (gcr, 0, strip_top, vp->width, strip_height);
  cairo_clip (gcr);
  cairo_set_operator (gcr, CAIRO_OPERATOR_CLEAR);
  cairo_paint (gcr);
  cairo_set_operator (gcr, CAIRO_OPERATOR_OVER);
  draw_gutter (self, gcr, vp, self->n_pinned_rows, self->rows->len, strip_top, strip_height,
               vp->scroll_y + (strip_top - scroll_top));
  cairo_destroy (gcr);
  self->gutter_scroll_y = vp->scroll_y;
  return TRUE;
}

/* The gutters of both bands from the image kept of them, drawn again
 * only when what they show changed. */
static void
draw_gutters_kept (SlTimelineRenderer       *self,
                   cairo_t                  *cr,
                   const SlTimelineViewport *vp)
{
  double scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;
  double scale_x = image_scale (self, cr);

  if (self->gutter == NULL || vp->width > self->gutter_image_width || vp->height > self->gutter_image_height
      || scale_x != self->gutter_scale)
    {
      int image_width, image_height;

      gutter_image_size (vp->width, vp->height, &image_width, &image_height);
      g_clear_pointer (&self->gutter, cairo_surface_destroy);
      self->gutter = new_kept_image (self, &self->gutter_reserve, (int)ceil (image_width * scale_x),
                                     (int)ceil (image_height * scale_x), scale_x);
      if (cairo_surface_status (self->gutter) != CAIRO_STATUS_SUCCESS)
        {
          g_clear_pointer (&self->gutter, cairo_surface_destroy);
          draw_gutter (self, cr, vp, self->n_pinned_rows, self->rows->len, scroll_top, vp->height - scroll_top,
                       vp->scroll_y);
          if (self->n_pinned_rows > 0)
            draw_gutter (self, cr, vp, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT, self->pinned_height, 0);
          return;
        }
      self->gutter_image_width = image_width;
      self->gutter_image_height = image_height;
      self->gutter_scale = scale_x;
      self->gutter_valid = FALSE;
    }
  if (vp->scroll_y != self->gutter_scroll_y)
    scroll_gutter (self, vp);
  if (!self->gutter_valid || vp->scroll_y != self->gutter_scroll_y || vp->width != self->gutter_width
      || vp->height != self->gutter_height)
    {
      cairo_t *gcr = cairo_create (self->gutter);

      /* Only what the frames show of the image, the gutter and the
       * process rows across, in whole pixels: clearing all of it wrote
       * as many bytes as the view has pixels, and the first frame touched
       * every page of it. */
      cairo_set_operator (gcr, CAIRO_OPERATOR_CLEAR);
      add_gutter_area (self, gcr, vp, self->n_pinned_rows, self->rows->len, scroll_top, vp->height - scroll_top,
                       vp->scroll_y, TRUE);
      if (self->n_pinned_rows > 0)
        add_gutter_area (self, gcr, vp, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT, self->pinned_height, 0,
                         TRUE);
      cairo_fill (gcr);
      cairo_set_operator (gcr, CAIRO_OPERATOR_OVER);
      draw_gutter (self, gcr, vp, self->n_pinned_rows, self->rows->len, scroll_top, vp->height - scroll_top,
                   vp->scroll_y);
      if (self->n_pinned_rows > 0)
        draw_gutter (self, gcr, vp, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT, self->pinned_height, 0);
      cairo_destroy (gcr);
      self->gutter_valid = TRUE;
      self->gutter_scroll_y = vp->scroll_y;
      self->gutter_width = vp->width;
      self->gutter_height = vp->height;
    }

  for (guint band = 0; band < (self->n_pinned_rows > 0 ? 2u : 1u); band++)
    {
      cairo_save (cr);
      if (band == 0)
        clip_gutter (self, cr, vp, self->n_pinned_rows, self->rows->len, scroll_top, vp->height - scroll_top,
                     vp->scroll_y);
      else
        clip_gutter (self, cr, vp, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT, self->pinned_height, 0);
      cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
      cairo_set_source_surface (cr, self->gutter, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
      cairo_paint (cr);
      cairo_restore (cr);
    }
}

static void
draw_ruler (SlTimelineRenderer       *self,
            cairo_t                  *cr,
            const SlTimelineViewport *vp,
            gint64                   *out_step,
            gint64                   *out_first)
{
  PangoLayout *layout = ensure_scratch_layout (self, cr);
  gint64 origin = sl_trace_get_start_ns (self->trace);
  gint64 step = nice_step (TICK_SPACING * vp->ns_per_pixel);
  gint64 rel0 = vp->t0 - origin;
  gint64 first = (rel0 >= 0 ? (rel0 + step - 1) / step : -((-rel0) / step)) * step;
  double t_width = vp->width - SL_TIMELINE_GUTTER_WIDTH;
  gint64 base = first;
  gboolean relative;
  int lw, lh;

  cairo_set_source_rgb (cr, self->bg[0], self->bg[1], self->bg[2]);
  cairo_rectangle (cr, 0, 0, vp->width, SL_TIMELINE_RULER_HEIGHT);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.25);
  cairo_rectangle (cr, 0, SL_TIMELINE_RULER_HEIGHT - 1, vp->width, 1);
  cairo_fill (cr);

  /* Deep into a long trace, full times would not fit between ticks:
   * label ticks from the first one, named at the left. */
  relative = first / step > 100000;
  if (relative)
    {
      g_autofree char *text = sl_timeline_format_time (base, step);

      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      cairo_set_source_rgb (cr, self->fg[0], self->fg[1], self->fg[2]);
      cairo_move_to (cr, SL_TIMELINE_GUTTER_WIDTH - 8 - lw, (SL_TIMELINE_RULER_HEIGHT - lh) / 2.0);
      pango_cairo_show_layout (cr, layout);
    }

  cairo_save (cr);
  cairo_rectangle (cr, SL_TIMELINE_GUTTER_WIDTH, 0, t_width, SL_TIMELINE_RULER_HEIGHT);
  cairo_clip (cr);
  for (gint64 t = first; ; t += step)
    {
      /* On the pixel of its grid line */
      double x = self->snapped ? SL_TIMELINE_GUTTER_WIDTH + (round (grid_x (self, vp, origin + t)) - (double)self->view_px)
                               : round (time_to_x (self, vp, origin + t));
      g_autofree char *text = NULL;

      if (x > vp->width)
        break;

      cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.45);
      cairo_rectangle (cr, round (x), SL_TIMELINE_RULER_HEIGHT - 7, 1, 6);
      cairo_fill (cr);

      if (relative)
        {
          g_autofree char *offset = sl_timeline_format_time (t - base, step);

          text = g_strdup_printf ("+%s", offset);
        }
      else
        text = sl_timeline_format_time (t, step);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      cairo_set_source_rgb (cr, self->fg[0], self->fg[1], self->fg[2]);
      cairo_move_to (cr, round (x) + 3, (SL_TIMELINE_RULER_HEIGHT - 6 - lh) / 2.0);
      pango_cairo_show_layout (cr, layout);
    }
  cairo_restore (cr);

  *out_step = step;
  *out_first = first;
}

static void
draw_grid (SlTimelineRenderer       *self,
           cairo_t                  *cr,
           const SlTimelineViewport *vp,
           gint64                    step,
           gint64                    first)
{
  gint64 origin = sl_trace_get_start_ns (self->trace);

  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.06);
  for (gint64 t = first; ; t += step)
    {
      double x = time_to_x (self, vp, origin + t);

      if (x > vp->width)
        break;
      cairo_rectangle (cr, round (x), SL_TIMELINE_RULER_HEIGHT, 1, vp->height - SL_TIMELINE_RULER_HEIGHT);
    }
  cairo_fill (cr);
}

static gboolean
row_screen_y (SlTimelineRenderer       *self,
              const SlTimelineViewport *vp,
              const Row                *row,
              double                   *y)
{
  if (row->pinned)
    *y = SL_TIMELINE_RULER_HEIGHT + row->y;
  else
    {
      *y = SL_TIMELINE_RULER_HEIGHT + self->pinned_height + row->y - vp->scroll_y;
      if (*y + row->h < SL_TIMELINE_RULER_HEIGHT + self->pinned_height)
        return FALSE;
    }
  return *y < vp->height;
}

static void
outline_slice (SlTimelineRenderer       *self,
               cairo_t                  *cr,
               const SlTimelineViewport *vp,
               guint                     track,
               guint32                   slice,
               double                    width,
               double                    alpha)
{
  const Row *row = slice_row (self, track, slice);
  const SlTraceSlices *s = sl_trace_get_slices (self->trace, track);
  double y, x0, x1;

  if (row == NULL || !row_screen_y (self, vp, row, &y))
    return;

  x0 = MAX (time_to_x (self, vp, sl_trace_slices_start_ns (s, slice)), SL_TIMELINE_GUTTER_WIDTH - 4);
  x1 = MIN (time_to_x (self, vp, sl_trace_slices_start_ns (s, slice) + sl_trace_slices_dur_ns (s, slice)), vp->width + 4);
  if (x1 < SL_TIMELINE_GUTTER_WIDTH || x0 > vp->width)
    return;
  if (x1 - x0 < 3)
    {
      x0 -= 1.5;
      x1 += 1.5;
    }
  cairo_rectangle (cr, x0 + width / 2, y + width / 2, x1 - x0 - width, ROW_HEIGHT - width);
  cairo_set_line_width (cr, width);
  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], alpha);
  cairo_stroke (cr);
}

static gboolean
flow_point (SlTimelineRenderer       *self,
            const SlTimelineViewport *vp,
            guint                     track,
            guint32                   slice,
            gint64                    at,
            double                   *x,
            double                   *y)
{
  const Row *row;
  int first;

  if (slice != SL_TRACE_NO_PARENT)
    row = slice_row (self, track, slice);
  else
    {
      first = track < sl_trace_get_n_tracks (self->trace) ? self->track_row[track] : -1;
      row = first >= 0 ? &g_array_index (self->rows, Row, first) : NULL;
    }
  if (row == NULL || !row_screen_y (self, vp, row, y))
    return FALSE;
  *y += ROW_HEIGHT / 2.0;
  *x = time_to_x (self, vp, at);
  return TRUE;
}

static gboolean
flow_in_view (const SlTraceFlow *f,
              gint64             t0,
              gint64             t1)
{
  return MAX (f->from_ns, f->to_ns) >= t0 && MIN (f->from_ns, f->to_ns) <= t1;
}

static gboolean
flow_ends_at (const SlTraceFlow *f,
              guint              track,
              guint32            slice)
{
  return (f->from_track == track && f->from_slice == slice) || (f->to_track == track && f->to_slice == slice);
}

static int
compare_flow_indices (const void *a,
                      const void *b)
{
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

  return (x > y) - (x < y);
}

/* The naive peer's choice of flows, made by reading every flow. */
static const guint32 *
scan_flows_to_draw (SlTimelineRenderer       *self,
                    const SlTimelineViewport *vp,
                    gint64                    t1,
                    guint                    *n)
{
  guint n_flows = sl_trace_get_n_flows (self->trace);
  guint n_in_view = 0;
  gboolean only_selected = FALSE;

  for (guint i = 0; i < n_flows && !only_selected; i++)
    if (flow_in_view (sl_trace_get_flow (self->trace, i), vp->t0, t1) && ++n_in_view > MAX_FLOWS_DRAWN)
      only_selected = TRUE;

  g_array_set_size (self->scanned_flows, 0);
  for (guint32 i = 0; i < n_flows && (self->has_selected || !only_selected); i++)
    {
      const SlTraceFlow *f = sl_trace_get_flow (self->trace, i);

      if (only_selected ? flow_ends_at (f, self->selected_track, self->selected_slice)
                        : flow_in_view (f, vp->t0, t1))
        g_array_append_val (self->scanned_flows, i);
    }
  *n = self->scanned_flows->len;
  return (const guint32 *) (gpointer) self->scanned_flows->data;
}

/* The flows in view, or when there are more than MAX_FLOWS_DRAWN (arrows
 * would hide the slices) only the selected slice's, as in Perfetto. Both
 * come from the trace's flow index: no frame reads every flow. In flow
 * order either way, so the arrowhead goes to the same flow. */
static const guint32 *
flows_to_draw (SlTimelineRenderer       *self,
               const SlTimelineViewport *vp,
               gint64                    t1,
               guint                    *n)
{
  guint n_in_view;

  if (self->naive)
    return scan_flows_to_draw (self, vp, t1, n);

  n_in_view = sl_trace_find_flows_in_range (self->trace, vp->t0, t1, self->flows_in_view,
                                            G_N_ELEMENTS (self->flows_in_view));
  if (n_in_view <= MAX_FLOWS_DRAWN)
    {
      qsort (self->flows_in_view, n_in_view, sizeof (guint32), compare_flow_indices);
      *n = n_in_view;
      return self->flows_in_view;
    }
  *n = 0;
  if (!self->has_selected || self->selected_track >= sl_trace_get_n_tracks (self->trace))
    return NULL;
  return sl_trace_get_slice_flows (self->trace, self->selected_track, self->selected_slice, n);
}

/* The flows and the arrowhead of the selected slice's; with @strokes
 * FALSE only the arrowhead, the tiles having drawn the flows. */
static void
draw_flows (SlTimelineRenderer       *self,
            cairo_t                  *cr,
            const SlTimelineViewport *vp,
            gint64                    t1,
            gboolean                  strokes)
{
  const guint32 *flows;
  guint n = 0;
  gboolean has_selected = FALSE;
  double sx = 0, sy = 0;
  guint n_drawn = 0;

  flows = flows_to_draw (self, vp, t1, &n);
  if (n == 0)
    return;

  cairo_save (cr);
  cairo_rectangle (cr, SL_TIMELINE_GUTTER_WIDTH, SL_TIMELINE_RULER_HEIGHT,
                   vp->width - SL_TIMELINE_GUTTER_WIDTH, vp->height - SL_TIMELINE_RULER_HEIGHT);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1);
  cairo_set_tolerance (cr, 0.5);

  for (guint k = 0; k < n; k++)
    {
      const SlTraceFlow *f = sl_trace_get_flow (self->trace, flows[k]);
      gboolean selected = self->has_selected && flow_ends_at (f, self->selected_track, self->selected_slice);
      double x0, y0, x1, y1, dx;

      if (!flow_in_view (f, vp->t0, t1))
        continue;
      if (!flow_point (self, vp, f->from_track, f->from_slice, f->from_ns, &x0, &y0)
          || !flow_point (self, vp, f->to_track, f->to_slice, f->to_ns, &x1, &y1))
        continue;

      if (strokes)
        {
          cairo_move_to (cr, x0, y0);
          /* Zoomed out a flow is a near vertical line: no curve to flatten. */
          if (fabs (x1 - x0) < 16)
            cairo_line_to (cr, x1, y1);
          else
            {
              dx = fabs (x1 - x0) / 2;
              cairo_curve_to (cr, x0 + dx, y0, x1 - dx, y1, x1, y1);
            }
        }
      n_drawn++;
      if (selected)
        {
          has_selected = TRUE;
          sx = x1;
          sy = y1;
        }
      if (strokes && n_drawn % 256 == 0)
        {
          cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.45);
          cairo_stroke (cr);
        }
    }
  /* One stroke for all: a flow's look does not need its own. */
  cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.45);
  if (strokes)
    cairo_stroke (cr);
  if (has_selected)
    {
      cairo_move_to (cr, sx, sy);
      cairo_line_to (cr, sx - 7, sy - 4);
      cairo_line_to (cr, sx - 7, sy + 4);
      cairo_close_path (cr);
      cairo_set_source_rgb (cr, self->fg[0], self->fg[1], self->fg[2]);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

static void
draw_range (SlTimelineRenderer       *self,
            cairo_t                  *cr,
            const SlTimelineViewport *vp)
{
  if (self->has_range)
    {
      double x0 = MAX (time_to_x (self, vp, self->range_start), SL_TIMELINE_GUTTER_WIDTH);
      double x1 = MIN (time_to_x (self, vp, self->range_end), vp->width);

      if (x1 > x0)
        {
          g_autofree char *text = sl_timeline_format_duration (self->range_end - self->range_start);
          PangoLayout *layout = ensure_scratch_layout (self, cr);
          int lw, lh;

          cairo_set_source_rgba (cr, 0.0, 0.45, 0.70, 0.16);
          cairo_rectangle (cr, x0, SL_TIMELINE_RULER_HEIGHT, x1 - x0, vp->height - SL_TIMELINE_RULER_HEIGHT);
          cairo_fill (cr);
          cairo_set_source_rgba (cr, 0.0, 0.45, 0.70, 0.9);
          cairo_rectangle (cr, x0, 0, 1, vp->height);
          cairo_rectangle (cr, x1 - 1, 0, 1, vp->height);
          cairo_fill (cr);

          pango_layout_set_text (layout, text, -1);
          pango_layout_get_pixel_size (layout, &lw, &lh);
          cairo_set_source_rgba (cr, 0.0, 0.45, 0.70, 1);
          cairo_rectangle (cr, (x0 + x1 - lw) / 2 - 4, 2, lw + 8, lh + 2);
          cairo_fill (cr);
          cairo_set_source_rgb (cr, 1, 1, 1);
          cairo_move_to (cr, (x0 + x1 - lw) / 2, 3);
          pango_cairo_show_layout (cr, layout);
        }
    }

  if (self->box_x1 > self->box_x0)
    {
      cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.12);
      cairo_rectangle (cr, self->box_x0, SL_TIMELINE_RULER_HEIGHT, self->box_x1 - self->box_x0,
                       vp->height - SL_TIMELINE_RULER_HEIGHT);
      cairo_fill (cr);
    }
}

/**
 * sl_timeline_renderer_draw:
 *
 * Draws the ruler, the gutter with track names and the tracks for
 * @viewport; reads only the level of detail and the layout.
 */
void
sl_timeline_renderer_draw (SlTimelineRenderer       *self,
                           cairo_t                  *cr,
                           const SlTimelineViewport *vp)
{
  guint n_rows;
  double scroll_top;
  gint64 step = 1, first = 0;
  gint64 t1;
  gboolean tiled;
  gboolean selected_flows = FALSE;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (vp != NULL);

  self->last_n_spans = 0;
  self->last_n_worker_tiles = 0;
  self->last_n_tiles = 0;
  if (self->trace == NULL || vp->width <= SL_TIMELINE_GUTTER_WIDTH || vp->height <= 0
      || !(vp->ns_per_pixel > 0) || !isfinite (vp->ns_per_pixel))
    {
      cairo_set_source_rgb (cr, self->bg[0], self->bg[1], self->bg[2]);
      cairo_paint (cr);
      return;
    }

  /* Far from the trace at a deep zoom the grid does not fit in a double:
   * then every slice in view is drawn on its own (they are few there). */
  self->snapped = view_on_grid (self, vp);
  self->view_px = self->snapped ? view_grid_px (self, vp) : 0;
  tiled = !self->naive && self->snapped;
  t1 = vp->t0 + (gint64)ceil ((vp->width - SL_TIMELINE_GUTTER_WIDTH) * vp->ns_per_pixel);
  n_rows = self->rows->len;
  scroll_top = SL_TIMELINE_RULER_HEIGHT + self->pinned_height;

  if (!tiled)
    {
      cairo_set_source_rgb (cr, self->bg[0], self->bg[1], self->bg[2]);
      cairo_paint (cr);
      draw_ruler (self, cr, vp, &step, &first);
      draw_grid (self, cr, vp, step, first);
      draw_rows (self, cr, vp, self->n_pinned_rows, n_rows, scroll_top, vp->height - scroll_top, vp->scroll_y);
      if (self->n_pinned_rows > 0)
        {
          cairo_set_source_rgb (cr, self->bg[0], self->bg[1], self->bg[2]);
          cairo_rectangle (cr, 0, SL_TIMELINE_RULER_HEIGHT, vp->width, self->pinned_height);
          cairo_fill (cr);
          draw_rows (self, cr, vp, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT, self->pinned_height, 0);
        }
    }
  else
    {
      /* The ruler, the gutter and the tiles cover the whole target. */
      gint64 first_tile = floor_div (self->view_px, TILE_WIDTH);
      gint64 end_tile = floor_div (self->view_px + (vp->width - SL_TIMELINE_GUTTER_WIDTH) - 1, TILE_WIDTH) + 1;

      /* More flows in view than arrows can show: only the selected slice's. */
      selected_flows = sl_trace_find_flows_in_range (self->trace, vp->t0, t1, self->flows_in_view,
                                                              G_N_ELEMENTS (self->flows_in_view)) > MAX_FLOWS_DRAWN;

      if (keeps_images (cr) && ensure_tiles (self, cr, vp, first_tile, end_tile, selected_flows))
        blit_tiles (self, cr, vp, first_tile, end_tile);
      else
        draw_tiles_into (self, cr, vp, first_tile, end_tile, selected_flows);
      draw_tile_labels (self, cr, vp, first_tile, end_tile, self->n_pinned_rows, n_rows, scroll_top,
                        vp->height - scroll_top, vp->scroll_y);
      if (self->n_pinned_rows > 0)
        draw_tile_labels (self, cr, vp, first_tile, end_tile, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT,
                          self->pinned_height, 0);
    }
  if (self->n_pinned_rows > 0)
    {
      cairo_set_source_rgba (cr, self->fg[0], self->fg[1], self->fg[2], 0.3);
      cairo_rectangle (cr, 0, scroll_top - 2, vp->width, 2);
      cairo_fill (cr);
    }

  /* The selected slice's flows over the tiles when only they are shown */
  draw_flows (self, cr, vp, t1, !tiled || selected_flows);
  if (self->has_hovered)
    outline_slice (self, cr, vp, self->hovered_track, self->hovered_slice, 1, 0.6);
  if (self->has_selected)
    outline_slice (self, cr, vp, self->selected_track, self->selected_slice, 2, 1);

  if (!tiled || !keeps_images (cr))
    {
      draw_gutter (self, cr, vp, self->n_pinned_rows, n_rows, scroll_top, vp->height - scroll_top, vp->scroll_y);
      if (self->n_pinned_rows > 0)
        draw_gutter (self, cr, vp, 0, self->n_pinned_rows, SL_TIMELINE_RULER_HEIGHT, self->pinned_height, 0);
    }
  else
    draw_gutters_kept (self, cr, vp);
  draw_ruler (self, cr, vp, &step, &first);
  draw_range (self, cr, vp);
}

/**
 * sl_timeline_renderer_hit:
 * @hit: (out caller-allocates): what is at (@x, @y)
 */
void
sl_timeline_renderer_hit (SlTimelineRenderer       *self,
                          const SlTimelineViewport *vp,
                          double                    x,
                          double                    y,
                          SlTimelineHit            *hit)
{
  guint first, end, i;
  double band_y;
  const Row *row;

  g_return_if_fail (self != NULL);
  g_return_if_fail (hit != NULL);

  memset (hit, 0, sizeof *hit);
  hit->kind = SL_TIMELINE_HIT_NONE;
  hit->at_ns = vp->t0 + (gint64)((x - SL_TIMELINE_GUTTER_WIDTH) * vp->ns_per_pixel);
  if (self->trace == NULL)
    return;
  /* Frames put the view's left edge on a whole pixel: so does the hit. */
  if (vp->ns_per_pixel > 0 && view_on_grid (self, vp))
    hit->at_ns = sl_trace_get_start_ns (self->trace)
                 + (gint64)floor (((double)view_grid_px (self, vp) + x - SL_TIMELINE_GUTTER_WIDTH) * vp->ns_per_pixel);

  if (y < SL_TIMELINE_RULER_HEIGHT)
    {
      hit->kind = SL_TIMELINE_HIT_RULER;
      return;
    }
  if (y < SL_TIMELINE_RULER_HEIGHT + self->pinned_height)
    {
      first = 0;
      end = self->n_pinned_rows;
      band_y = y - SL_TIMELINE_RULER_HEIGHT;
    }
  else
    {
      first = self->n_pinned_rows;
      end = self->rows->len;
      band_y = y - SL_TIMELINE_RULER_HEIGHT - self->pinned_height + vp->scroll_y;
    }

  i = first_row_below (self, first, end, band_y);
  if (i >= end)
    return;
  row = &g_array_index (self->rows, Row, i);
  if (band_y < row->y)
    return;

  hit->process = row->process;
  hit->track = row->track;
  hit->depth = row->depth;
  if (row->kind == ROW_PROCESS)
    {
      hit->kind = SL_TIMELINE_HIT_PROCESS;
      return;
    }

  hit->kind = SL_TIMELINE_HIT_TRACK;
  if (row->kind == ROW_SLICES && x >= SL_TIMELINE_GUTTER_WIDTH)
    {
      guint32 slice;

      /* Slices narrower than a pixel are drawn a pixel wide: accept 2 px. */
      if (sl_trace_lod_hit (self->lod, row->track, row->depth, hit->at_ns, (gint64)ceil (2 * vp->ns_per_pixel), &slice))
        {
          hit->kind = SL_TIMELINE_HIT_SLICE;
          hit->slice = slice;
        }
    }
}
