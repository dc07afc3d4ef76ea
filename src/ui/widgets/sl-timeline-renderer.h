/* sl-timeline-renderer.h: draws a trace's tracks into any cairo context
 *
 * Holds the row layout (processes, their thread, async and counter tracks,
 * pinned tracks first in a band that does not scroll) and what is selected,
 * hovered and found. Drawing reads the level of detail only, so the widget,
 * screenshots and the frame benchmark share this code.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "sl-trace.h"
#include "sl-trace-lod.h"

G_BEGIN_DECLS

#define SL_TIMELINE_RULER_HEIGHT 26
#define SL_TIMELINE_GUTTER_WIDTH 170

/* What is shown: t0 at the left edge of the tracks area, ns_per_pixel the
 * zoom, scroll_y the vertical offset of the scrolled tracks. */
typedef struct {
  gint64 t0;
  double ns_per_pixel;
  double scroll_y;
  int    width;
  int    height;
} SlTimelineViewport;

typedef enum {
  SL_TIMELINE_HIT_NONE,
  SL_TIMELINE_HIT_SLICE,
  SL_TIMELINE_HIT_PROCESS,   /* a process header: collapses */
  SL_TIMELINE_HIT_TRACK,     /* a track name or an empty place in a track */
  SL_TIMELINE_HIT_RULER,
} SlTimelineHitKind;

typedef struct {
  SlTimelineHitKind kind;
  guint             process;
  guint             track;
  guint             depth;
  guint32           slice;
  gint64            at_ns;
} SlTimelineHit;

/* What a slice's colour says: its name (the same name has the same colour
 * everywhere), or how long it ran against two thresholds. */
typedef enum {
  SL_TIMELINE_COLOR_BY_NAME,
  SL_TIMELINE_COLOR_BY_DURATION,
} SlTimelineColorMode;

/* How the tiles of a frame are shared out: see
 * sl_timeline_renderer_set_tile_threads */
typedef enum {
  SL_TIMELINE_TILES_SHARED,
  SL_TIMELINE_TILES_ONE_THREAD,
  SL_TIMELINE_TILES_ALTERNATE,
} SlTimelineTileThreads;

typedef enum {
  SL_TIMELINE_DURATION_SHORT,    /* green: at most the first threshold */
  SL_TIMELINE_DURATION_MEDIUM,   /* yellow: between the two */
  SL_TIMELINE_DURATION_LONG,     /* red: at least the second */
} SlTimelineDurationClass;

/* MindStudio's defaults: a slice is yellow above 5 % of the profiled
 * time, red from 10 %. */
#define SL_TIMELINE_DEFAULT_YELLOW_PERCENT 5.0
#define SL_TIMELINE_DEFAULT_RED_PERCENT 10.0

typedef struct _SlTimelineRenderer SlTimelineRenderer;

SlTimelineRenderer *sl_timeline_renderer_new             (void);
void                sl_timeline_renderer_free            (SlTimelineRenderer *self);
void                sl_timeline_renderer_set_lod         (SlTimelineRenderer *self,
                                                          SlTraceLod         *lod);
SlTraceLod         *sl_timeline_renderer_get_lod         (SlTimelineRenderer *self);
SlTrace            *sl_timeline_renderer_get_trace       (SlTimelineRenderer *self);
void                sl_timeline_renderer_set_dark        (SlTimelineRenderer *self,
                                                          gboolean            dark);
void                sl_timeline_renderer_set_font        (SlTimelineRenderer *self,
                                                          const PangoFontDescription *font);
void                sl_timeline_renderer_set_naive       (SlTimelineRenderer *self,
                                                          gboolean            naive);
void                sl_timeline_renderer_set_color_mode  (SlTimelineRenderer *self,
                                                          SlTimelineColorMode mode);
SlTimelineColorMode sl_timeline_renderer_get_color_mode  (SlTimelineRenderer *self);
void                sl_timeline_renderer_set_duration_thresholds (SlTimelineRenderer *self,
                                                                  double              yellow_percent,
                                                                  double              red_percent);
void                sl_timeline_renderer_get_duration_thresholds (SlTimelineRenderer *self,
                                                                  double             *yellow_ns,
                                                                  double             *red_ns);
SlTimelineDurationClass sl_timeline_renderer_classify_slice (SlTimelineRenderer *self,
                                                             guint               track,
                                                             guint32             slice);
gboolean            sl_timeline_renderer_get_slice_color (SlTimelineRenderer *self,
                                                          guint               track,
                                                          guint32             slice,
                                                          double              rgb[3]);

void                sl_timeline_renderer_set_track_hidden (SlTimelineRenderer *self,
                                                           guint               track,
                                                           gboolean            hidden);
gboolean            sl_timeline_renderer_get_track_hidden (SlTimelineRenderer *self,
                                                           guint               track);
void                sl_timeline_renderer_set_track_pinned (SlTimelineRenderer *self,
                                                           guint               track,
                                                           gboolean            pinned);
gboolean            sl_timeline_renderer_get_track_pinned (SlTimelineRenderer *self,
                                                           guint               track);
void                sl_timeline_renderer_set_process_collapsed (SlTimelineRenderer *self,
                                                                guint               process,
                                                                gboolean            collapsed);
gboolean            sl_timeline_renderer_get_process_collapsed (SlTimelineRenderer *self,
                                                                guint               process);
double              sl_timeline_renderer_get_content_height (SlTimelineRenderer *self);
double              sl_timeline_renderer_get_pinned_height  (SlTimelineRenderer *self);
gboolean            sl_timeline_renderer_get_slice_y     (SlTimelineRenderer       *self,
                                                          guint                     track,
                                                          guint32                   slice,
                                                          double                   *y);

void                sl_timeline_renderer_set_selected    (SlTimelineRenderer *self,
                                                          guint               track,
                                                          guint32             slice);
gboolean            sl_timeline_renderer_get_selected    (SlTimelineRenderer *self,
                                                          guint              *track,
                                                          guint32            *slice);
void                sl_timeline_renderer_set_hovered     (SlTimelineRenderer *self,
                                                          guint               track,
                                                          guint32             slice);
void                sl_timeline_renderer_set_range       (SlTimelineRenderer *self,
                                                          gint64              start_ns,
                                                          gint64              end_ns);
gboolean            sl_timeline_renderer_get_range       (SlTimelineRenderer *self,
                                                          gint64             *start_ns,
                                                          gint64             *end_ns);
void                sl_timeline_renderer_set_highlight   (SlTimelineRenderer *self,
                                                          guint8             *highlight);
void                sl_timeline_renderer_set_box         (SlTimelineRenderer *self,
                                                          double              x0,
                                                          double              x1);

void                sl_timeline_renderer_draw            (SlTimelineRenderer       *self,
                                                          cairo_t                  *cr,
                                                          const SlTimelineViewport *viewport);
guint               sl_timeline_renderer_get_last_n_spans (SlTimelineRenderer *self);
guint               sl_timeline_renderer_get_last_n_tiles (SlTimelineRenderer *self);
guint               sl_timeline_renderer_get_last_n_worker_tiles (SlTimelineRenderer *self);
void                sl_timeline_renderer_set_tile_threads (SlTimelineRenderer    *self,
                                                           SlTimelineTileThreads  threads);
void                sl_timeline_renderer_drop_images     (SlTimelineRenderer *self);
void                sl_timeline_renderer_reserve_images  (SlTimelineRenderer *self,
                                                          int                 width,
                                                          int                 height,
                                                          int                 scale);
gboolean            sl_timeline_renderer_get_images_ready (SlTimelineRenderer *self);
guint               sl_timeline_renderer_get_n_images_taken (SlTimelineRenderer *self);
void                sl_timeline_renderer_set_scale       (SlTimelineRenderer *self,
                                                          int                 scale);
void                sl_timeline_renderer_hit             (SlTimelineRenderer       *self,
                                                          const SlTimelineViewport *viewport,
                                                          double                    x,
                                                          double                    y,
                                                          SlTimelineHit            *hit);

void                sl_timeline_color_for_name           (const char *name,
                                                          gboolean    dark,
                                                          double      rgb[3]);
void                sl_timeline_color_for_duration       (SlTimelineDurationClass duration_class,
                                                          gboolean                dark,
                                                          double                  rgb[3]);
char               *sl_timeline_format_duration          (gint64      ns);
char               *sl_timeline_format_time              (gint64      ns,
                                                          gint64      step_ns);
char               *sl_timeline_format_instant           (gint64      ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTimelineRenderer, sl_timeline_renderer_free)

G_END_DECLS
