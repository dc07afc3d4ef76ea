/* sl-graph-renderer.h: draws a graph scene into any cairo context
 *
 * Holds what is selected, hovered and marked, and the palette; drawing
 * reads the finished scene only, so the canvas, exports, tests and the
 * frame benchmark share this code.
 *
 * Level of detail: a box smaller than a few pixels is a plain filled
 * rectangle (and what it contains is not drawn), labels come only when a
 * box is tall enough for a line of text, edges too short to see are left
 * out, arrowheads only when they would be visible.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "sl-graph-scene.h"

G_BEGIN_DECLS

/* Layouts leave this much (scene units) at the top of a container for
 * the header band that holds its label. */
#define SL_GRAPH_RENDERER_HEADER_HEIGHT 24.0

/* What is shown: the scene point at the view's top-left corner, the zoom
 * (pixels per scene unit) and the size in pixels. */
typedef struct {
  double x;
  double y;
  double zoom;
  int    width;
  int    height;
} SlGraphViewport;

typedef struct _SlGraphRenderer SlGraphRenderer;

SlGraphRenderer *sl_graph_renderer_new              (void);
/* The fill and outline of an op with @verdict (0 pass, 1 warning, 2
 * error; anything else: not compared), as the renderer paints them. */
void             sl_graph_renderer_get_verdict_colors (gboolean                  dark,
                                                       int                       verdict,
                                                       double                    fill[3],
                                                       double                    stroke[3]);
void             sl_graph_renderer_free             (SlGraphRenderer            *self);

/* @scene must be finished; the renderer keeps a reference. */
void             sl_graph_renderer_set_scene        (SlGraphRenderer            *self,
                                                     SlGraphScene               *scene);
SlGraphScene    *sl_graph_renderer_get_scene        (SlGraphRenderer            *self);
void             sl_graph_renderer_set_dark         (SlGraphRenderer            *self,
                                                     gboolean                    dark);
gboolean         sl_graph_renderer_get_dark         (SlGraphRenderer            *self);
void             sl_graph_renderer_set_font         (SlGraphRenderer            *self,
                                                     const PangoFontDescription *font);
/* Draws every box and edge with its label, each frame anew: the peer of
 * the frame benchmark. */
void             sl_graph_renderer_set_naive        (SlGraphRenderer            *self,
                                                     gboolean                    naive);

/* With FALSE, every label is shaped anew each time it is drawn, cut by
 * the same rule: for tests that check the label cache changes nothing. */
void             sl_graph_renderer_set_cache_text   (SlGraphRenderer            *self,
                                                     gboolean                    cache);

/* Box indices of the scene; SL_GRAPH_SCENE_NONE for none. */
void             sl_graph_renderer_set_selected     (SlGraphRenderer            *self,
                                                     guint                       box);
guint            sl_graph_renderer_get_selected     (SlGraphRenderer            *self);
void             sl_graph_renderer_set_hovered      (SlGraphRenderer            *self,
                                                     guint                       box);
guint            sl_graph_renderer_get_hovered      (SlGraphRenderer            *self);
/* Layout ids (not box indices), kept across scenes. */
void             sl_graph_renderer_set_marked_ids   (SlGraphRenderer            *self,
                                                     const guint32              *ids,
                                                     guint                       n_ids);
/* Layout ids with a comparison verdict each (0 pass, 1 warning, 2
 * error): their boxes are tinted; kept across scenes. */
void             sl_graph_renderer_set_verdicts     (SlGraphRenderer            *self,
                                                     const guint32              *ids,
                                                     const guint8               *verdicts,
                                                     guint                       n_ids);
gboolean         sl_graph_renderer_is_marked        (SlGraphRenderer            *self,
                                                     guint                       box);

void             sl_graph_renderer_draw             (SlGraphRenderer            *self,
                                                     cairo_t                    *cr,
                                                     const SlGraphViewport      *viewport);
/* What the last frame drew: labels written, boxes and edges. */
guint            sl_graph_renderer_get_last_n_labels (SlGraphRenderer           *self);
guint            sl_graph_renderer_get_last_n_boxes  (SlGraphRenderer           *self);
guint            sl_graph_renderer_get_last_n_edges  (SlGraphRenderer           *self);
/* The fill of a box as drawn now (selection and hover change outlines
 * only; a marked box has the marker fill). */
void             sl_graph_renderer_get_box_color    (SlGraphRenderer            *self,
                                                     guint                       box,
                                                     double                      rgb[3]);
void             sl_graph_renderer_get_background   (SlGraphRenderer            *self,
                                                     double                      rgb[3]);

/* The whole scene in @width × @height with @view's rectangle on it. */
void             sl_graph_renderer_draw_minimap     (SlGraphRenderer            *self,
                                                     cairo_t                    *cr,
                                                     int                         width,
                                                     int                         height,
                                                     const SlGraphViewport      *view);
/* The scene point under (@mx, @my) of a minimap of that size. */
void             sl_graph_renderer_minimap_to_scene (SlGraphRenderer            *self,
                                                     int                         width,
                                                     int                         height,
                                                     double                      mx,
                                                     double                      my,
                                                     double                     *x,
                                                     double                     *y);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlGraphRenderer, sl_graph_renderer_free)

G_END_DECLS
