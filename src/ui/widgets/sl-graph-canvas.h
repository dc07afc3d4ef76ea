/* sl-graph-canvas.h: a pannable, zoomable view of a graph scene
 *
 * Draws an SlGraphScene (see src/core/model/sl-graph-scene.h) through the
 * graph renderer, with a minimap. What a box means is the page's
 * business: the canvas only knows ids, and says which one was selected,
 * activated (double-click, Enter) or asked for a menu (right click,
 * Menu key, Shift+F10).
 *
 * Keys: arrows pan, +/− zoom, 0 fits; Ctrl+wheel zooms at the pointer,
 * the wheel scrolls, a drag on the background pans. Tab and Shift+Tab
 * move the selection along the drawn boxes, so a keyboard alone can walk
 * a graph.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-graph-scene.h"
#include "sl-graph-renderer.h"

G_BEGIN_DECLS

typedef enum {
  SL_GRAPH_EXPORT_PNG,
  SL_GRAPH_EXPORT_SVG,
  SL_GRAPH_EXPORT_PDF,
} SlGraphExportFormat;

/* Returns Pango markup for the tooltip of a box (newly allocated), or
 * NULL for none. */
typedef char *(*SlGraphCanvasTooltipFunc) (guint32  id,
                                           gpointer user_data);

#define SL_TYPE_GRAPH_CANVAS (sl_graph_canvas_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphCanvas, sl_graph_canvas, SL, GRAPH_CANVAS, GtkWidget)

GtkWidget     *sl_graph_canvas_new                 (void);

/* Shows @scene (finished). With @anchor_id a box of both the old and the
 * new scene, the view moves so that box stays where it was on screen (an
 * expanded or collapsed node does not jump); with SL_GRAPH_SCENE_NONE the
 * view is kept, or fitted when it is the first scene. */
void           sl_graph_canvas_set_scene           (SlGraphCanvas            *self,
                                                    SlGraphScene             *scene,
                                                    guint32                   anchor_id);
SlGraphScene  *sl_graph_canvas_get_scene           (SlGraphCanvas            *self);

/* Property "selected-id": SL_GRAPH_SCENE_NONE for none. A selected box's
 * edges and neighbours are highlighted. */
void           sl_graph_canvas_set_selected_id     (SlGraphCanvas            *self,
                                                    guint32                   id);
guint32        sl_graph_canvas_get_selected_id     (SlGraphCanvas            *self);

/* Search hits: drawn marked, others unchanged. The ids are copied. */
void           sl_graph_canvas_set_marked_ids      (SlGraphCanvas            *self,
                                                    const guint32            *ids,
                                                    guint                     n_ids);

/* Fit zooms out no further than this: the names are drawn in a 9 pt
 * (12 px) font, 9.6 px on screen at this zoom. */
#define SL_GRAPH_CANVAS_MIN_FIT_ZOOM 0.8

/* Property "zoom": 1.0 is one scene unit per pixel. */
double         sl_graph_canvas_get_zoom            (SlGraphCanvas            *self);
void           sl_graph_canvas_set_zoom            (SlGraphCanvas            *self,
                                                    double                    zoom);
void           sl_graph_canvas_zoom_in             (SlGraphCanvas            *self);
void           sl_graph_canvas_zoom_out            (SlGraphCanvas            *self);
void           sl_graph_canvas_fit                 (SlGraphCanvas            *self);
/* Scrolls (zooming in if the box would be too small to read) so the box
 * of @id is in view, and returns FALSE when the scene does not show it. */
gboolean       sl_graph_canvas_reveal_id           (SlGraphCanvas            *self,
                                                    guint32                   id);

void           sl_graph_canvas_set_tooltip_func    (SlGraphCanvas            *self,
                                                    SlGraphCanvasTooltipFunc  func,
                                                    gpointer                  user_data,
                                                    GDestroyNotify            destroy);

/* Writes the whole scene (@whole TRUE) or what is in view to @file. */
gboolean       sl_graph_canvas_export              (SlGraphCanvas            *self,
                                                    GFile                    *file,
                                                    SlGraphExportFormat       format,
                                                    gboolean                  whole,
                                                    GError                  **error);
/* The same on a worker, with what is shown when it starts. */
void           sl_graph_canvas_export_async        (SlGraphCanvas            *self,
                                                    GFile                    *file,
                                                    SlGraphExportFormat       format,
                                                    gboolean                  whole,
                                                    GCancellable             *cancellable,
                                                    GAsyncReadyCallback       callback,
                                                    gpointer                  user_data);
gboolean       sl_graph_canvas_export_finish       (SlGraphCanvas            *self,
                                                    GAsyncResult             *result,
                                                    GError                  **error);
/* From a file name's extension (.png, .svg, .pdf); FALSE for others. */
gboolean       sl_graph_export_format_from_name    (const char               *name,
                                                    SlGraphExportFormat      *format);

/* Added for pages and tests: the geometry of the view. */
SlGraphRenderer *sl_graph_canvas_get_renderer      (SlGraphCanvas            *self);
void           sl_graph_canvas_get_viewport        (SlGraphCanvas            *self,
                                                    SlGraphViewport          *viewport);
/* Puts scene point (@x, @y) at the view's top-left corner. */
void           sl_graph_canvas_set_origin          (SlGraphCanvas            *self,
                                                    double                    x,
                                                    double                    y);
/* Zooms by @factor (above 1: in) keeping the scene point under widget
 * point (@x, @y) where it is, as Ctrl+wheel does. */
void           sl_graph_canvas_zoom_at             (SlGraphCanvas            *self,
                                                    double                    x,
                                                    double                    y,
                                                    double                    factor);
void           sl_graph_canvas_scene_to_widget     (SlGraphCanvas            *self,
                                                    double                    scene_x,
                                                    double                    scene_y,
                                                    double                   *x,
                                                    double                   *y);
void           sl_graph_canvas_widget_to_scene     (SlGraphCanvas            *self,
                                                    double                    x,
                                                    double                    y,
                                                    double                   *scene_x,
                                                    double                   *scene_y);
/* Where the minimap is drawn, in widget coordinates; FALSE when hidden
 * (the whole graph is in view, or the canvas is too small). */
gboolean       sl_graph_canvas_get_minimap_area    (SlGraphCanvas            *self,
                                                    graphene_rect_t          *area);

G_END_DECLS
