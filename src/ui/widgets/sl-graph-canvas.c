/* sl-graph-canvas.c
 *
 * A thin widget around SlGraphRenderer: the view is a scene point at the
 * top-left corner and a zoom; every frame is one cairo node drawn by the
 * renderer, then the minimap and the focus ring on top. Hit-testing and
 * culling are the scene's grid, so nothing here walks all boxes except
 * Tab at the end of the list.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-graph-canvas.h"
#include "sl-replace-stream.h"
#include "sl-tooltip.h"

#define MIN_ZOOM_FLOOR 0.002
#define MAX_ZOOM 4.0
#define MAX_FIT_ZOOM 1.25
#define FIT_PADDING 24.0
#define KEY_ZOOM 1.25
#define WHEEL_ZOOM 1.15
#define KEY_PAN_FRACTION 0.15
#define WHEEL_STEP 48.0
#define MINIMAP_SIZE 180.0
#define MINIMAP_MARGIN 12.0
/* Smaller than this on screen (pixels), a revealed box is zoomed to. */
#define READABLE_HEIGHT 22.0
#define EXPORT_MARGIN 24.0
/* An image export of a huge scene is scaled down to stay within these:
 * 16384 is the largest side most viewers open, 64 Mpx keeps it to 256 MB. */
#define EXPORT_MAX_SIDE 16384.0
#define EXPORT_MAX_PIXELS (64.0 * 1024 * 1024)
/* PDF viewers refuse pages larger than 200 inches. */
#define EXPORT_MAX_PDF_SIDE 14400.0

struct _SlGraphCanvas
{
  GtkWidget                 parent_instance;

  SlGraphRenderer          *renderer;
  SlGraphScene             *scene;
  double                    x;            /* scene point at the top-left corner */
  double                    y;
  double                    zoom;
  gboolean                  fit_pending;  /* first scene, before the view had a size */
  guint32                   selected_id;

  SlGraphCanvasTooltipFunc  tooltip_func;
  gpointer                  tooltip_data;
  GDestroyNotify            tooltip_destroy;

  gboolean                  drag_minimap;
  double                    drag_start_x;
  double                    drag_start_y;
  double                    drag_origin_x;
  double                    drag_origin_y;
  double                    pointer_x;
  double                    pointer_y;
  gboolean                  has_pointer;
  GArray                   *marked;       /* guint32 ids, as last set, for exports */
};

G_DEFINE_FINAL_TYPE (SlGraphCanvas, sl_graph_canvas, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SELECTED_ID,
  PROP_ZOOM,
  N_PROPS
};

enum {
  ACTIVATED,
  CONTEXT_MENU,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static double
view_width (SlGraphCanvas *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1);
}

static double
view_height (SlGraphCanvas *self)
{
  return MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1);
}

static gboolean
has_size (SlGraphCanvas *self)
{
  return gtk_widget_get_width (GTK_WIDGET (self)) > 1 && gtk_widget_get_height (GTK_WIDGET (self)) > 1;
}

static double
fit_zoom (SlGraphCanvas *self)
{
  double bw, bh;

  if (self->scene == NULL)
    return 1;
  sl_graph_scene_get_bounds (self->scene, NULL, NULL, &bw, &bh);
  return MIN (MAX (view_width (self) - 2 * FIT_PADDING, 1) / MAX (bw, 1),
              MAX (view_height (self) - 2 * FIT_PADDING, 1) / MAX (bh, 1));
}

/* The minimap's size: the scene's shape, at most MINIMAP_SIZE. */
static void
minimap_size (SlGraphCanvas *self,
              double        *w,
              double        *h)
{
  double bw, bh, aspect;

  sl_graph_scene_get_bounds (self->scene, NULL, NULL, &bw, &bh);
  aspect = MAX (bw, 1) / MAX (bh, 1);
  if (aspect >= 1)
    *w = MINIMAP_SIZE, *h = CLAMP (MINIMAP_SIZE / aspect, 48, MINIMAP_SIZE);
  else
    *h = MINIMAP_SIZE, *w = CLAMP (MINIMAP_SIZE * aspect, 64, MINIMAP_SIZE);
}

/* A view too small for a minimap shows none. */
static gboolean
minimap_fits (SlGraphCanvas *self,
              double         w,
              double         h)
{
  return view_width (self) >= w * 2.5 && view_height (self) >= h * 1.5;
}

static double
min_zoom (SlGraphCanvas *self)
{
  return MAX (MIN (fit_zoom (self) * 0.5, 0.1), MIN_ZOOM_FLOOR);
}

/* Keeps a piece of the scene in view, so one cannot get lost in the void. */
static void
clamp_origin (SlGraphCanvas *self)
{
  double bx, by, bw, bh, vw, vh, keep;

  if (self->scene == NULL)
    return;
  sl_graph_scene_get_bounds (self->scene, &bx, &by, &bw, &bh);
  vw = view_width (self) / self->zoom;
  vh = view_height (self) / self->zoom;
  keep = 48 / self->zoom;
  self->x = CLAMP (self->x, bx - vw + MIN (keep, bw), bx + bw - MIN (keep, bw));
  self->y = CLAMP (self->y, by - vh + MIN (keep, bh), by + bh - MIN (keep, bh));
}

static void
view_changed (SlGraphCanvas *self,
              double         old_zoom)
{
  clamp_origin (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (old_zoom != self->zoom)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

void
sl_graph_canvas_get_viewport (SlGraphCanvas   *self,
                              SlGraphViewport *vp)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));
  g_return_if_fail (vp != NULL);

  vp->x = self->x;
  vp->y = self->y;
  vp->zoom = self->zoom;
  vp->width = gtk_widget_get_width (GTK_WIDGET (self));
  vp->height = gtk_widget_get_height (GTK_WIDGET (self));
}

SlGraphRenderer *
sl_graph_canvas_get_renderer (SlGraphCanvas *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_CANVAS (self), NULL);

  return self->renderer;
}

void
sl_graph_canvas_scene_to_widget (SlGraphCanvas *self,
                                 double         scene_x,
                                 double         scene_y,
                                 double        *x,
                                 double        *y)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));

  *x = (scene_x - self->x) * self->zoom;
  *y = (scene_y - self->y) * self->zoom;
}

void
sl_graph_canvas_widget_to_scene (SlGraphCanvas *self,
                                 double         x,
                                 double         y,
                                 double        *scene_x,
                                 double        *scene_y)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));

  *scene_x = self->x + x / self->zoom;
  *scene_y = self->y + y / self->zoom;
}

void
sl_graph_canvas_set_origin (SlGraphCanvas *self,
                            double         x,
                            double         y)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));

  self->x = x;
  self->y = y;
  view_changed (self, self->zoom);
}

double
sl_graph_canvas_get_zoom (SlGraphCanvas *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_CANVAS (self), 1);

  return self->zoom;
}

void
sl_graph_canvas_zoom_at (SlGraphCanvas *self,
                         double         x,
                         double         y,
                         double         factor)
{
  double sx, sy, old = self->zoom;

  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));
  g_return_if_fail (factor > 0);

  sl_graph_canvas_widget_to_scene (self, x, y, &sx, &sy);
  self->zoom = CLAMP (self->zoom * factor, min_zoom (self), MAX_ZOOM);
  self->x = sx - x / self->zoom;
  self->y = sy - y / self->zoom;
  self->fit_pending = FALSE;
  view_changed (self, old);
}

void
sl_graph_canvas_set_zoom (SlGraphCanvas *self,
                          double         zoom)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));
  g_return_if_fail (zoom > 0);

  sl_graph_canvas_zoom_at (self, view_width (self) / 2, view_height (self) / 2, zoom / self->zoom);
}

void
sl_graph_canvas_zoom_in (SlGraphCanvas *self)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));

  sl_graph_canvas_zoom_at (self, view_width (self) / 2, view_height (self) / 2, KEY_ZOOM);
}

void
sl_graph_canvas_zoom_out (SlGraphCanvas *self)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));

  sl_graph_canvas_zoom_at (self, view_width (self) / 2, view_height (self) / 2, 1 / KEY_ZOOM);
}

void
sl_graph_canvas_fit (SlGraphCanvas *self)
{
  double bx, by, bw, bh, centre_x, centre_y, old = self->zoom;
  gboolean fits_across, fits_down;

  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));

  if (self->scene == NULL)
    return;
  if (!has_size (self))
    {
      self->fit_pending = TRUE;
      return;
    }
  sl_graph_scene_get_bounds (self->scene, &bx, &by, &bw, &bh);
  /* A small graph is shown at a readable size, not blown up; a large one
   * no smaller than its names can be read, from its start (top left),
   * the rest a scroll away. */
  self->zoom = CLAMP (fit_zoom (self), SL_GRAPH_CANVAS_MIN_FIT_ZOOM, MAX_FIT_ZOOM);
  fits_across = bw * self->zoom <= view_width (self) - 2 * FIT_PADDING;
  fits_down = bh * self->zoom <= view_height (self) - 2 * FIT_PADDING;
  centre_x = view_width (self) / 2;
  centre_y = view_height (self) / 2;
  /* Where the rest is a scroll away the minimap shows in the bottom right
   * corner: a graph narrow (or flat) enough is centred beside (or above)
   * it, not under it. */
  if (!fits_across || !fits_down)
    {
      double mw, mh, across, down;

      minimap_size (self, &mw, &mh);
      across = view_width (self) - 2 * FIT_PADDING - mw - MINIMAP_MARGIN;
      down = view_height (self) - 2 * FIT_PADDING - mh - MINIMAP_MARGIN;
      if (minimap_fits (self, mw, mh) && fits_across && bw * self->zoom <= across)
        centre_x = FIT_PADDING + across / 2;
      if (minimap_fits (self, mw, mh) && fits_down && bh * self->zoom <= down)
        centre_y = FIT_PADDING + down / 2;
    }
  if (fits_across)
    self->x = bx + bw / 2 - centre_x / self->zoom;
  else
    self->x = bx - FIT_PADDING / self->zoom;
  if (fits_down)
    self->y = by + bh / 2 - centre_y / self->zoom;
  else
    self->y = by - FIT_PADDING / self->zoom;
  self->fit_pending = FALSE;
  view_changed (self, old);
}

static const SlGraphSceneBox *
get_box (SlGraphCanvas *self,
         guint          index)
{
  guint n = 0;
  const SlGraphSceneBox *boxes;

  if (self->scene == NULL || index == SL_GRAPH_SCENE_NONE)
    return NULL;
  boxes = sl_graph_scene_get_boxes (self->scene, &n);
  return index < n ? &boxes[index] : NULL;
}

static const SlGraphSceneBox *
box_of_id (SlGraphScene *scene,
           guint32       id)
{
  guint index = sl_graph_scene_lookup_id (scene, id);

  if (index == SL_GRAPH_SCENE_NONE)
    return NULL;
  return &sl_graph_scene_get_boxes (scene, NULL)[index];
}

static guint
selected_index (SlGraphCanvas *self)
{
  if (self->scene == NULL || self->selected_id == SL_GRAPH_SCENE_NONE)
    return SL_GRAPH_SCENE_NONE;
  return sl_graph_scene_lookup_id (self->scene, self->selected_id);
}

void
sl_graph_canvas_set_scene (SlGraphCanvas *self,
                           SlGraphScene  *scene,
                           guint32        anchor_id)
{
  g_autoptr(SlGraphScene) old = NULL;
  const SlGraphSceneBox *before = NULL, *after;
  double old_zoom = self->zoom;
  guint selected;

  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));
  g_return_if_fail (scene == NULL || sl_graph_scene_is_finished (scene));

  if (scene == self->scene)
    return;
  old = g_steal_pointer (&self->scene);
  if (old != NULL && anchor_id != SL_GRAPH_SCENE_NONE)
    before = box_of_id (old, anchor_id);
  self->scene = scene != NULL ? g_object_ref (scene) : NULL;
  sl_graph_renderer_set_scene (self->renderer, scene);

  if (scene != NULL)
    {
      after = before != NULL ? box_of_id (scene, anchor_id) : NULL;
      if (after != NULL)
        {
          /* The anchor's top-left corner stays on the same pixel. */
          self->x = after->x - (before->x - self->x);
          self->y = after->y - (before->y - self->y);
          self->fit_pending = FALSE;
        }
      else if (old == NULL)
        sl_graph_canvas_fit (self);
    }

  selected = selected_index (self);
  sl_graph_renderer_set_selected (self->renderer, selected);
  if (selected == SL_GRAPH_SCENE_NONE && self->selected_id != SL_GRAPH_SCENE_NONE)
    {
      self->selected_id = SL_GRAPH_SCENE_NONE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ID]);
    }
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
  view_changed (self, old_zoom);
}

/**
 * sl_graph_canvas_get_scene:
 *
 * Returns: (transfer none) (nullable): the scene shown
 */
SlGraphScene *
sl_graph_canvas_get_scene (SlGraphCanvas *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_CANVAS (self), NULL);

  return self->scene;
}

void
sl_graph_canvas_set_selected_id (SlGraphCanvas *self,
                                 guint32        id)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));

  if (self->selected_id == id)
    return;
  self->selected_id = id;
  sl_graph_renderer_set_selected (self->renderer, selected_index (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ID]);
}

guint32
sl_graph_canvas_get_selected_id (SlGraphCanvas *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_CANVAS (self), SL_GRAPH_SCENE_NONE);

  return self->selected_id;
}

void
sl_graph_canvas_set_marked_ids (SlGraphCanvas *self,
                                const guint32 *ids,
                                guint          n_ids)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));
  g_return_if_fail (ids != NULL || n_ids == 0);

  sl_graph_renderer_set_marked_ids (self->renderer, ids, n_ids);
  g_array_set_size (self->marked, 0);
  g_array_append_vals (self->marked, ids, n_ids);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
sl_graph_canvas_reveal_id (SlGraphCanvas *self,
                           guint32        id)
{
  const SlGraphSceneBox *b;
  double vw, vh, old = self->zoom;

  g_return_val_if_fail (SL_IS_GRAPH_CANVAS (self), FALSE);

  if (self->scene == NULL || (b = get_box (self, sl_graph_scene_lookup_id (self->scene, id))) == NULL)
    return FALSE;

  if (b->height * self->zoom < READABLE_HEIGHT && b->height > 0)
    self->zoom = CLAMP (MAX (1.0, READABLE_HEIGHT / b->height), min_zoom (self), MAX_ZOOM);
  vw = view_width (self) / self->zoom;
  vh = view_height (self) / self->zoom;
  /* Only move when it is not wholly in view already (or was zoomed to). */
  if (old != self->zoom || b->x < self->x || b->y < self->y
      || b->x + b->width > self->x + vw || b->y + b->height > self->y + vh)
    {
      self->x = b->x + b->width / 2 - vw / 2;
      self->y = b->y + b->height / 2 - vh / 2;
    }
  self->fit_pending = FALSE;
  view_changed (self, old);
  return TRUE;
}

void
sl_graph_canvas_set_tooltip_func (SlGraphCanvas            *self,
                                  SlGraphCanvasTooltipFunc  func,
                                  gpointer                  user_data,
                                  GDestroyNotify            destroy)
{
  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));

  if (self->tooltip_destroy != NULL)
    self->tooltip_destroy (self->tooltip_data);
  self->tooltip_func = func;
  self->tooltip_data = user_data;
  self->tooltip_destroy = destroy;
}

/* Minimap */

static gboolean
whole_scene_in_view (SlGraphCanvas *self)
{
  double bx, by, bw, bh;

  sl_graph_scene_get_bounds (self->scene, &bx, &by, &bw, &bh);
  return self->x <= bx && self->y <= by
         && self->x + view_width (self) / self->zoom >= bx + bw
         && self->y + view_height (self) / self->zoom >= by + bh;
}

gboolean
sl_graph_canvas_get_minimap_area (SlGraphCanvas   *self,
                                  graphene_rect_t *area)
{
  double w, h;

  g_return_val_if_fail (SL_IS_GRAPH_CANVAS (self), FALSE);

  if (self->scene == NULL || !has_size (self) || whole_scene_in_view (self))
    return FALSE;
  minimap_size (self, &w, &h);
  if (!minimap_fits (self, w, h))
    return FALSE;
  if (area != NULL)
    graphene_rect_init (area, view_width (self) - w - MINIMAP_MARGIN, view_height (self) - h - MINIMAP_MARGIN,
                        (float) w, (float) h);
  return TRUE;
}

/* Centres the view on the scene point under a minimap point. */
static void
minimap_move (SlGraphCanvas         *self,
              const graphene_rect_t *area,
              double                 x,
              double                 y)
{
  double sx, sy;

  sl_graph_renderer_minimap_to_scene (self->renderer, (int) area->size.width, (int) area->size.height,
                                      x - area->origin.x, y - area->origin.y, &sx, &sy);
  self->x = sx - view_width (self) / 2 / self->zoom;
  self->y = sy - view_height (self) / 2 / self->zoom;
  view_changed (self, self->zoom);
}

/* Drawing */

static void
sl_graph_canvas_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  SlGraphCanvas *self = SL_GRAPH_CANVAS (widget);
  SlGraphViewport vp;
  graphene_rect_t area;
  cairo_t *cr;

  sl_graph_canvas_get_viewport (self, &vp);
  if (vp.width <= 0 || vp.height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, vp.width, vp.height));
  sl_graph_renderer_draw (self->renderer, cr, &vp);

  if (sl_graph_canvas_get_minimap_area (self, &area))
    {
      cairo_save (cr);
      cairo_translate (cr, area.origin.x, area.origin.y);
      sl_graph_renderer_draw_minimap (self->renderer, cr, (int) area.size.width, (int) area.size.height, &vp);
      cairo_restore (cr);
    }

  if (gtk_widget_has_visible_focus (widget))
    {
      /* The focus ring GTK draws around entries: the accent, inside. */
      cairo_rectangle (cr, 1, 1, vp.width - 2, vp.height - 2);
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.7);
      cairo_set_line_width (cr, 2);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

static void
sl_graph_canvas_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  SlGraphCanvas *self = SL_GRAPH_CANVAS (widget);

  if (self->fit_pending && width > 1 && height > 1)
    sl_graph_canvas_fit (self);
}

static void
sl_graph_canvas_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  *minimum = 48;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 480;
}

static void
style_changed_cb (SlGraphCanvas *self)
{
  sl_graph_renderer_set_dark (self->renderer, adw_style_manager_get_dark (adw_style_manager_get_default ()));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Input */

static guint
hit (SlGraphCanvas *self,
     double         x,
     double         y)
{
  double sx, sy;

  if (self->scene == NULL)
    return SL_GRAPH_SCENE_NONE;
  sl_graph_canvas_widget_to_scene (self, x, y, &sx, &sy);
  return sl_graph_scene_hit (self->scene, sx, sy);
}

static guint32
id_of (SlGraphCanvas *self,
       guint          index)
{
  const SlGraphSceneBox *b = get_box (self, index);

  return b != NULL ? b->id : SL_GRAPH_SCENE_NONE;
}

static void
select_index (SlGraphCanvas *self,
              guint          index,
              gboolean       reveal)
{
  guint32 id = id_of (self, index);

  sl_graph_canvas_set_selected_id (self, id);
  if (reveal && id != SL_GRAPH_SCENE_NONE)
    sl_graph_canvas_reveal_id (self, id);
}

static void
emit_context_menu (SlGraphCanvas *self)
{
  const SlGraphSceneBox *b = get_box (self, selected_index (self));
  double x = view_width (self) / 2, y = view_height (self) / 2;

  /* From the keyboard: at the selected box's centre when it is in view. */
  if (b != NULL)
    {
      double bx, by;

      sl_graph_canvas_scene_to_widget (self, b->x + b->width / 2, b->y + b->height / 2, &bx, &by);
      if (bx >= 0 && by >= 0 && bx < view_width (self) && by < view_height (self))
        x = bx, y = by;
    }
  g_signal_emit (self, signals[CONTEXT_MENU], 0, self->selected_id, x, y);
}

/* Tab walks the boxes in drawing order; at either end focus moves on. */
static gboolean
walk (SlGraphCanvas *self,
      gboolean       forward)
{
  guint n = 0, index = selected_index (self);

  if (self->scene == NULL)
    return FALSE;
  sl_graph_scene_get_boxes (self->scene, &n);
  if (n == 0)
    return FALSE;
  if (index == SL_GRAPH_SCENE_NONE)
    index = forward ? 0 : n - 1;
  else if (forward && index + 1 < n)
    index++;
  else if (!forward && index > 0)
    index--;
  else
    return FALSE;
  select_index (self, index, TRUE);
  return TRUE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                SlGraphCanvas         *self)
{
  GdkModifierType mods = state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK | GDK_ALT_MASK);
  double step_x = view_width (self) * KEY_PAN_FRACTION / self->zoom;
  double step_y = view_height (self) * KEY_PAN_FRACTION / self->zoom;

  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      if (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK))
        return FALSE;
      sl_graph_canvas_set_origin (self, self->x - step_x, self->y);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      if (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK))
        return FALSE;
      sl_graph_canvas_set_origin (self, self->x + step_x, self->y);
      return TRUE;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      if (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK))
        return FALSE;
      sl_graph_canvas_set_origin (self, self->x, self->y - step_y);
      return TRUE;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      if (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK))
        return FALSE;
      sl_graph_canvas_set_origin (self, self->x, self->y + step_y);
      return TRUE;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      if (mods != 0 || self->selected_id == SL_GRAPH_SCENE_NONE)
        return FALSE;
      g_signal_emit (self, signals[ACTIVATED], 0, self->selected_id);
      return TRUE;
    case GDK_KEY_Menu:
      emit_context_menu (self);
      return TRUE;
    case GDK_KEY_F10:
      if (mods != GDK_SHIFT_MASK)
        return FALSE;
      emit_context_menu (self);
      return TRUE;
    case GDK_KEY_Tab:
    case GDK_KEY_KP_Tab:
    case GDK_KEY_ISO_Left_Tab:
      if (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK))
        return FALSE;
      return walk (self, keyval != GDK_KEY_ISO_Left_Tab && !(mods & GDK_SHIFT_MASK));
    case GDK_KEY_Escape:
      if (self->selected_id == SL_GRAPH_SCENE_NONE)
        return FALSE;
      sl_graph_canvas_set_selected_id (self, SL_GRAPH_SCENE_NONE);
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SlGraphCanvas            *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));
  double x = self->has_pointer ? self->pointer_x : view_width (self) / 2;
  double y = self->has_pointer ? self->pointer_y : view_height (self) / 2;
  gboolean smooth = event != NULL && gdk_scroll_event_get_direction (event) == GDK_SCROLL_SMOOTH;

  if (state & GDK_CONTROL_MASK)
    {
      /* Touchpads send many small steps: the same zoom per distance. */
      sl_graph_canvas_zoom_at (self, x, y, pow (WHEEL_ZOOM, smooth ? -dy * 0.5 : -dy));
      return TRUE;
    }
  if (state & GDK_SHIFT_MASK)
    {
      dx = dx != 0 ? dx : dy;
      dy = 0;
    }
  sl_graph_canvas_set_origin (self, self->x + dx * WHEEL_STEP / self->zoom, self->y + dy * WHEEL_STEP / self->zoom);
  return TRUE;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               SlGraphCanvas  *self)
{
  graphene_rect_t area;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_start_x = x;
  self->drag_start_y = y;
  self->drag_origin_x = self->x;
  self->drag_origin_y = self->y;
  self->drag_minimap = sl_graph_canvas_get_minimap_area (self, &area)
                       && graphene_rect_contains_point (&area, &GRAPHENE_POINT_INIT (x, y));
  if (self->drag_minimap)
    minimap_move (self, &area, x, y);
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                SlGraphCanvas  *self)
{
  graphene_rect_t area;

  if (self->drag_minimap)
    {
      if (sl_graph_canvas_get_minimap_area (self, &area))
        minimap_move (self, &area, self->drag_start_x + dx, self->drag_start_y + dy);
      return;
    }
  if (fabs (dx) + fabs (dy) > 2)
    gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
  self->x = self->drag_origin_x - dx / self->zoom;
  self->y = self->drag_origin_y - dy / self->zoom;
  view_changed (self, self->zoom);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SlGraphCanvas  *self)
{
  self->drag_minimap = FALSE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "default");
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            SlGraphCanvas   *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  graphene_rect_t area;
  guint index;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (sl_graph_canvas_get_minimap_area (self, &area)
      && graphene_rect_contains_point (&area, &GRAPHENE_POINT_INIT (x, y)))
    return;

  index = hit (self, x, y);
  if (button == GDK_BUTTON_SECONDARY)
    {
      if (index != SL_GRAPH_SCENE_NONE)
        select_index (self, index, FALSE);
      g_signal_emit (self, signals[CONTEXT_MENU], 0, id_of (self, index), x, y);
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  if (button > GDK_BUTTON_PRIMARY)
    return;
  select_index (self, index, FALSE);
  if (n_press == 2 && index != SL_GRAPH_SCENE_NONE)
    g_signal_emit (self, signals[ACTIVATED], 0, id_of (self, index));
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SlGraphCanvas            *self)
{
  guint index = hit (self, x, y);

  self->pointer_x = x;
  self->pointer_y = y;
  self->has_pointer = TRUE;
  if (index != sl_graph_renderer_get_hovered (self->renderer))
    {
      sl_graph_renderer_set_hovered (self->renderer, index);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
leave_cb (GtkEventControllerMotion *controller,
          SlGraphCanvas            *self)
{
  self->has_pointer = FALSE;
  if (sl_graph_renderer_get_hovered (self->renderer) != SL_GRAPH_SCENE_NONE)
    {
      sl_graph_renderer_set_hovered (self->renderer, SL_GRAPH_SCENE_NONE);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static gboolean
sl_graph_canvas_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard,
                               GtkTooltip *tooltip)
{
  SlGraphCanvas *self = SL_GRAPH_CANVAS (widget);
  guint index = keyboard ? selected_index (self) : hit (self, x, y);
  const SlGraphSceneBox *b = get_box (self, index);
  g_autofree char *markup = NULL;
  double x0, y0;

  if (b == NULL)
    return FALSE;
  if (self->tooltip_func != NULL)
    markup = self->tooltip_func (b->id, self->tooltip_data);
  else if (b->detail != NULL)
    markup = g_markup_printf_escaped ("<b>%s</b>\n%s", b->label, b->detail);
  else
    markup = g_markup_printf_escaped ("<b>%s</b>", b->label);
  if (markup == NULL)
    return FALSE;

  sl_tooltip_set_markup (tooltip, markup);
  /* The box is the tip area, so moving within it keeps the tooltip. */
  sl_graph_canvas_scene_to_widget (self, b->x, b->y, &x0, &y0);
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) {
                              (int) floor (x0), (int) floor (y0),
                              (int) MAX (ceil (b->width * self->zoom), 1), (int) MAX (ceil (b->height * self->zoom), 1) });
  return TRUE;
}

static void
zoom_in_action (GtkWidget  *widget,
                const char *name,
                GVariant   *param)
{
  sl_graph_canvas_zoom_in (SL_GRAPH_CANVAS (widget));
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *name,
                 GVariant   *param)
{
  sl_graph_canvas_zoom_out (SL_GRAPH_CANVAS (widget));
}

static void
fit_action (GtkWidget  *widget,
            const char *name,
            GVariant   *param)
{
  sl_graph_canvas_fit (SL_GRAPH_CANVAS (widget));
}

/* Export */

static cairo_status_t
write_to_stream (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  GOutputStream *out = G_OUTPUT_STREAM (((gpointer *) closure)[0]);
  GError **error = ((gpointer *) closure)[1];

  if (*error != NULL)
    return CAIRO_STATUS_WRITE_ERROR;
  if (!g_output_stream_write_all (out, data, length, NULL, NULL, error))
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

gboolean
sl_graph_export_format_from_name (const char          *name,
                                  SlGraphExportFormat *format)
{
  const char *dot;

  g_return_val_if_fail (name != NULL, FALSE);

  dot = strrchr (name, '.');
  if (dot == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (dot, ".png") == 0)
    *format = SL_GRAPH_EXPORT_PNG;
  else if (g_ascii_strcasecmp (dot, ".svg") == 0)
    *format = SL_GRAPH_EXPORT_SVG;
  else if (g_ascii_strcasecmp (dot, ".pdf") == 0)
    *format = SL_GRAPH_EXPORT_PDF;
  else
    return FALSE;
  return TRUE;
}

/* What an export draws, taken from the canvas on its thread so the
 * drawing can run on another with a renderer of its own. */
typedef struct {
  SlGraphScene        *scene;
  gboolean             dark;
  guint                selected;
  GArray              *marked;
  GFile               *file;
  char                *name;
  SlGraphExportFormat  format;
  SlGraphViewport      vp;
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_clear_object (&job->scene);
  g_clear_pointer (&job->marked, g_array_unref);
  g_clear_object (&job->file);
  g_free (job->name);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExportJob, export_job_free)

static ExportJob *
export_job_new (SlGraphCanvas        *self,
                GFile                *file,
                SlGraphExportFormat   format,
                gboolean              whole,
                GError              **error)
{
  g_autoptr(ExportJob) job = g_new0 (ExportJob, 1);
  SlGraphViewport vp;

  job->name = g_file_get_parse_name (file);
  if (self->scene == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                   _("Could not write %s: there is no graph to export"), job->name);
      return NULL;
    }
  if (whole)
    {
      double bx, by, bw, bh, w, h, limit;

      sl_graph_scene_get_bounds (self->scene, &bx, &by, &bw, &bh);
      w = bw + 2 * EXPORT_MARGIN;
      h = bh + 2 * EXPORT_MARGIN;
      vp.zoom = 1;
      if (format == SL_GRAPH_EXPORT_PNG)
        {
          limit = MIN (EXPORT_MAX_SIDE / MAX (w, h), sqrt (EXPORT_MAX_PIXELS / (w * h)));
          vp.zoom = MIN (1, limit);
        }
      else if (format == SL_GRAPH_EXPORT_PDF)
        vp.zoom = MIN (1, EXPORT_MAX_PDF_SIDE / MAX (w, h));
      vp.x = bx - EXPORT_MARGIN;
      vp.y = by - EXPORT_MARGIN;
      vp.width = (int) MAX (ceil (w * vp.zoom), 1);
      vp.height = (int) MAX (ceil (h * vp.zoom), 1);
    }
  else
    {
      sl_graph_canvas_get_viewport (self, &vp);
      if (vp.width <= 0 || vp.height <= 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                       _("Could not write %s: the graph is not shown yet"), job->name);
          return NULL;
        }
    }
  job->scene = g_object_ref (self->scene);
  job->dark = sl_graph_renderer_get_dark (self->renderer);
  job->selected = selected_index (self);
  job->marked = g_array_copy (self->marked);
  job->file = g_object_ref (file);
  job->format = format;
  job->vp = vp;
  return g_steal_pointer (&job);
}

static gboolean
export_job_run (ExportJob  *job,
                GError    **error)
{
  g_autoptr(SlGraphRenderer) renderer = sl_graph_renderer_new ();
  g_autoptr(SlReplaceStream) out = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *name = job->name;
  SlGraphViewport vp = job->vp;
  SlGraphExportFormat format = job->format;
  gpointer closure[2];
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  sl_graph_renderer_set_scene (renderer, job->scene);
  sl_graph_renderer_set_dark (renderer, job->dark);
  sl_graph_renderer_set_selected (renderer, job->selected);
  sl_graph_renderer_set_marked_ids (renderer, (const guint32 *) job->marked->data, job->marked->len);

  /* The previous file stays until the whole image is written. */
  out = sl_replace_stream_new (job->file, NULL, &local_error);
  if (out == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code, _("Could not write %s: %s"), name,
                   local_error->message);
      return FALSE;
    }
  closure[0] = out;
  closure[1] = &local_error;

  switch (format)
    {
    case SL_GRAPH_EXPORT_SVG:
      surface = cairo_svg_surface_create_for_stream (write_to_stream, closure, vp.width, vp.height);
      break;
    case SL_GRAPH_EXPORT_PDF:
      surface = cairo_pdf_surface_create_for_stream (write_to_stream, closure, vp.width, vp.height);
      break;
    case SL_GRAPH_EXPORT_PNG:
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, vp.width, vp.height);
      break;
    }
  cr = cairo_create (surface);
  sl_graph_renderer_draw (renderer, cr, &vp);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS)
    {
      if (format == SL_GRAPH_EXPORT_PNG)
        status = cairo_surface_write_to_png_stream (surface, write_to_stream, closure);
      else
        {
          cairo_surface_finish (surface);
          status = cairo_surface_status (surface);
        }
    }
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS || local_error != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not write %s: %s"), name,
                   local_error != NULL ? local_error->message : cairo_status_to_string (status));
      return FALSE;
    }
  if (!sl_replace_stream_commit (out, NULL, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code, _("Could not write %s: %s"), name,
                   local_error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_graph_canvas_export (SlGraphCanvas        *self,
                        GFile                *file,
                        SlGraphExportFormat   format,
                        gboolean              whole,
                        GError              **error)
{
  g_autoptr(ExportJob) job = NULL;

  g_return_val_if_fail (SL_IS_GRAPH_CANVAS (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job = export_job_new (self, file, format, whole, error);
  return job != NULL && export_job_run (job, error);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;

  if (export_job_run (task_data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

/**
 * sl_graph_canvas_export_async:
 *
 * Like sl_graph_canvas_export(), with the drawing and the writing on a
 * worker: a whole graph as a 16,384-pixel PNG takes seconds. What is
 * shown (scene, selection, marks, palette) is taken when it starts.
 */
void
sl_graph_canvas_export_async (SlGraphCanvas        *self,
                              GFile                *file,
                              SlGraphExportFormat   format,
                              gboolean              whole,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  ExportJob *job;

  g_return_if_fail (SL_IS_GRAPH_CANVAS (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_graph_canvas_export_async);
  job = export_job_new (self, file, format, whole, &error);
  if (job == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_set_task_data (task, job, (GDestroyNotify) export_job_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
sl_graph_canvas_export_finish (SlGraphCanvas  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Object */

static void
sl_graph_canvas_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SlGraphCanvas *self = SL_GRAPH_CANVAS (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ID:
      g_value_set_uint (value, self->selected_id);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_graph_canvas_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SlGraphCanvas *self = SL_GRAPH_CANVAS (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ID:
      sl_graph_canvas_set_selected_id (self, g_value_get_uint (value));
      break;
    case PROP_ZOOM:
      sl_graph_canvas_set_zoom (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_graph_canvas_dispose (GObject *object)
{
  SlGraphCanvas *self = SL_GRAPH_CANVAS (object);

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  sl_graph_canvas_set_tooltip_func (self, NULL, NULL, NULL);
  g_clear_pointer (&self->renderer, sl_graph_renderer_free);
  g_clear_pointer (&self->marked, g_array_unref);
  g_clear_object (&self->scene);

  G_OBJECT_CLASS (sl_graph_canvas_parent_class)->dispose (object);
}

static void
sl_graph_canvas_class_init (SlGraphCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_graph_canvas_dispose;
  object_class->get_property = sl_graph_canvas_get_property;
  object_class->set_property = sl_graph_canvas_set_property;
  widget_class->snapshot = sl_graph_canvas_snapshot;
  widget_class->size_allocate = sl_graph_canvas_size_allocate;
  widget_class->measure = sl_graph_canvas_measure;
  widget_class->query_tooltip = sl_graph_canvas_query_tooltip;

  properties[PROP_SELECTED_ID] =
    g_param_spec_uint ("selected-id", NULL, NULL, 0, G_MAXUINT32, SL_GRAPH_SCENE_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, MIN_ZOOM_FLOOR, MAX_ZOOM, 1,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlGraphCanvas::activated:
   * @id: the layout id of the box double-clicked or with Enter pressed
   */
  signals[ACTIVATED] = g_signal_new ("activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * SlGraphCanvas::context-menu:
   * @id: the box's layout id, or SL_GRAPH_SCENE_NONE on the background
   * @x: where to show the menu, in widget coordinates
   * @y:
   */
  signals[CONTEXT_MENU] = g_signal_new ("context-menu", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                        G_TYPE_UINT, G_TYPE_DOUBLE, G_TYPE_DOUBLE);

  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "graph.fit", NULL, fit_action);
  for (guint i = 0; i < 2; i++)
    {
      GdkModifierType mods = i == 0 ? 0 : GDK_CONTROL_MASK;

      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, mods, "graph.zoom-in", NULL);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, mods, "graph.zoom-in", NULL);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, mods, "graph.zoom-in", NULL);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, mods, "graph.zoom-out", NULL);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, mods, "graph.zoom-out", NULL);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, mods, "graph.fit", NULL);
      gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, mods, "graph.fit", NULL);
    }

  gtk_widget_class_set_css_name (widget_class, "graphcanvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sl_graph_canvas_init (SlGraphCanvas *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->renderer = sl_graph_renderer_new ();
  self->marked = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->zoom = 1;
  self->selected_id = SL_GRAPH_SCENE_NONE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "default");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Graph"), -1);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (style_changed_cb), self);
  style_changed_cb (self);
}

GtkWidget *
sl_graph_canvas_new (void)
{
  return g_object_new (SL_TYPE_GRAPH_CANVAS, NULL);
}
