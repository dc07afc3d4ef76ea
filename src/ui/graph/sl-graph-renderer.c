/* sl-graph-renderer.c
 *
 * A frame asks the scene's grid for what meets the view (or takes every
 * box when the whole scene is in view, which is cheaper than sorting the
 * answer), sorts the boxes into container frames, full boxes and tiny
 * ones, and draws in three passes: frames, edges, boxes. Tiny boxes are
 * snapped to whole pixels and batched by colour, so cairo fills each
 * colour once on its fast path for pixel-aligned rectangles; a tiny box
 * hides what it contains. Labels are shaped once per box and width class
 * and kept between frames.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

#include "sl-graph-renderer.h"

/* Below this size on screen (pixels, larger side) a box is a filled rect. */
#define TINY_PX 5.0
#define MIN_LABEL_WIDTH 28.0
#define LABEL_PADDING 6.0
#define WIDTH_CLASS 8.0
#define TEXT_CACHE_LIMIT 6144
/* Edges whose extent on screen is below this are inside a blob of boxes. */
#define MIN_EDGE_PX 6.0
#define HEAT_STEPS 16
#define MINIMAP_PADDING 6.0

enum {
  C_CONTAINER,
  C_COLLAPSED,
  C_OP,
  C_PARAMETER,
  C_CONST,
  C_PROXY,
  C_BOOKKEEPING,
  C_MARKED,
  C_HEAT0,
  N_CLASSES = C_HEAT0 + HEAT_STEPS,
};

enum {
  STATE_NEIGHBOUR = 1 << 0,
  STATE_MARKED    = 1 << 1,
};

enum {
  TEXT_LABEL,
  TEXT_HEADER,
  TEXT_DETAIL,
  TEXT_CHIP,
  N_TEXT_KINDS,
};

typedef struct {
  double fill[4];
  double stroke[3];
  double text[3];
} ClassColors;

typedef struct {
  double x, y, w, h;
} Rect;

typedef struct {
  PangoLayout *layout;
  int          width;
  int          height;
} CachedText;

struct _SlGraphRenderer
{
  SlGraphScene         *scene;
  gboolean              dark;
  gboolean              naive;

  PangoContext         *pango;
  PangoFontDescription *fonts[N_TEXT_KINDS];
  int                   line_height[N_TEXT_KINDS];
  GHashTable           *text_cache;   /* (box, kind, width class) → CachedText */
  PangoLayout          *scratch;      /* the naive peer's */

  guint8               *box_class;    /* per box */
  guint8               *box_state;    /* per box: STATE_* */
  guint32              *stamp;        /* per box: the frame that hid it */
  guint32               frame;
  GHashTable           *marked_ids;   /* id set */
  guint                 selected;
  guint                 hovered;

  /* Per-frame scratch, kept to avoid allocating */
  GArray               *query_boxes;
  GArray               *query_edges;
  GArray               *frames;       /* guint32 */
  GArray               *nodes;        /* guint32 */
  GArray               *tiny[N_CLASSES];  /* Rect */
  GArray               *edge_batch[2][4];  /* guint32, by kind and width class */
  GArray               *sel_edges;
  guint                 last_n_labels;
  guint                 last_n_boxes;
  guint                 last_n_edges;

  ClassColors           colors[N_CLASSES];
  double                bg[3];
  double                header[4];
  double                edge_color[2][3];
  double                accent[3];
  double                hover[3];
  double                error[3];
  double                warning[3];
  double                marker[3];

  cairo_surface_t      *minimap;
  int                   minimap_width;
  int                   minimap_height;
};

static void
hex (double      rgb[3],
     guint32     value)
{
  rgb[0] = ((value >> 16) & 0xff) / 255.;
  rgb[1] = ((value >> 8) & 0xff) / 255.;
  rgb[2] = (value & 0xff) / 255.;
}

static void
set_class (SlGraphRenderer *self,
           guint            c,
           guint32          fill,
           double           alpha,
           guint32          stroke,
           guint32          text)
{
  hex (self->colors[c].fill, fill);
  self->colors[c].fill[3] = alpha;
  hex (self->colors[c].stroke, stroke);
  hex (self->colors[c].text, text);
}

static double
luminance (const double rgb[3])
{
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

/* Cool to hot in five stops, pale blue through yellow to red, readable
 * for red–green colour blindness because lightness falls steadily. */
static void
heat_color (double  t,
            gboolean dark,
            double  rgb[3])
{
  static const guint32 stops[] = { 0xdcebf7, 0x9dc9e2, 0xfde38a, 0xf99a4a, 0xd7402b };
  double pos = CLAMP (t, 0, 1) * (G_N_ELEMENTS (stops) - 1);
  guint i = MIN ((guint) pos, G_N_ELEMENTS (stops) - 2);
  double f = pos - i, a[3], b[3];

  hex (a, stops[i]);
  hex (b, stops[i + 1]);
  for (guint c = 0; c < 3; c++)
    {
      rgb[c] = a[c] + (b[c] - a[c]) * f;
      /* Deeper on a dark background, so light text stays legible. */
      if (dark)
        rgb[c] = rgb[c] * 0.62 + 0.08;
    }
}

static void
compute_palette (SlGraphRenderer *self)
{
  if (self->dark)
    {
      hex (self->bg, 0x1e1f22);
      set_class (self, C_CONTAINER, 0xffffff, 0.035, 0x5a6070, 0xc8ccd4);
      set_class (self, C_COLLAPSED, 0x3b3454, 1, 0x9d8bd0, 0xeeeaf8);
      set_class (self, C_OP, 0x28374f, 1, 0x6f90c8, 0xe6ecf5);
      set_class (self, C_PARAMETER, 0x263f30, 1, 0x6aaa7e, 0xe2f0e6);
      set_class (self, C_CONST, 0x34363b, 1, 0x7d828c, 0xc8ccd4);
      set_class (self, C_PROXY, 0x1e1f22, 1, 0x8a8f99, 0xb8bcc4);
      set_class (self, C_BOOKKEEPING, 0x2a2b2f, 1, 0x4c4f57, 0x8a8e96);
      set_class (self, C_MARKED, 0x8a6d00, 1, 0xf5d547, 0xfffbe6);
      self->header[0] = self->header[1] = self->header[2] = 1;
      self->header[3] = 0.06;
      hex (self->edge_color[SL_GRAPH_SCENE_EDGE_DATA], 0x8d94a0);
      hex (self->edge_color[SL_GRAPH_SCENE_EDGE_CONTROL], 0xd59a4e);
      hex (self->accent, 0x78aeed);
      hex (self->hover, 0xa8c8f0);
      hex (self->error, 0xff6b6b);
      hex (self->warning, 0xf0b43c);
      hex (self->marker, 0xf5d547);
    }
  else
    {
      hex (self->bg, 0xfafafb);
      set_class (self, C_CONTAINER, 0x284878, 0.04, 0xa3adbd, 0x3d4452);
      set_class (self, C_COLLAPSED, 0xe6e0f5, 1, 0x7a67ab, 0x2e2545);
      set_class (self, C_OP, 0xdde8f7, 1, 0x5b7db3, 0x1c2433);
      set_class (self, C_PARAMETER, 0xe1f1e5, 1, 0x4f9466, 0x173322);
      set_class (self, C_CONST, 0xececee, 1, 0x9a9ea6, 0x40444c);
      set_class (self, C_PROXY, 0xfafafb, 1, 0x8a8f99, 0x4a4f58);
      set_class (self, C_BOOKKEEPING, 0xf0f0f2, 1, 0xc4c7cd, 0x868a92);
      set_class (self, C_MARKED, 0xffe766, 1, 0xb88a00, 0x2b2300);
      self->header[0] = 0.16, self->header[1] = 0.28, self->header[2] = 0.47;
      self->header[3] = 0.07;
      hex (self->edge_color[SL_GRAPH_SCENE_EDGE_DATA], 0x6a717d);
      hex (self->edge_color[SL_GRAPH_SCENE_EDGE_CONTROL], 0xb8651b);
      hex (self->accent, 0x1c71d8);
      hex (self->hover, 0x62a0ea);
      hex (self->error, 0xe01b24);
      hex (self->warning, 0xe5a50a);
      hex (self->marker, 0xb88a00);
    }

  for (guint i = 0; i < HEAT_STEPS; i++)
    {
      ClassColors *c = &self->colors[C_HEAT0 + i];

      heat_color ((i + 0.5) / HEAT_STEPS, self->dark, c->fill);
      c->fill[3] = 1;
      for (guint k = 0; k < 3; k++)
        c->stroke[k] = c->fill[k] * 0.55;
      if (luminance (c->fill) > 0.45)
        hex (c->text, 0x1c1c1c);
      else
        hex (c->text, 0xf4f4f4);
    }
  g_clear_pointer (&self->minimap, cairo_surface_destroy);
}

static void
clear_text_cache (SlGraphRenderer *self)
{
  g_hash_table_remove_all (self->text_cache);
}

static void
cached_text_free (gpointer data)
{
  CachedText *t = data;

  g_object_unref (t->layout);
  g_free (t);
}

static void
measure_fonts (SlGraphRenderer *self)
{
  g_autoptr(PangoLayout) layout = pango_layout_new (self->pango);

  pango_layout_set_text (layout, "Ag", -1);
  for (guint k = 0; k < N_TEXT_KINDS; k++)
    {
      pango_layout_set_font_description (layout, self->fonts[k]);
      pango_layout_get_pixel_size (layout, NULL, &self->line_height[k]);
    }
  g_clear_object (&self->scratch);
}

static void
make_fonts (SlGraphRenderer            *self,
            const PangoFontDescription *font)
{
  double size;

  for (guint k = 0; k < N_TEXT_KINDS; k++)
    {
      g_clear_pointer (&self->fonts[k], pango_font_description_free);
      self->fonts[k] = pango_font_description_copy (font);
    }
  size = pango_font_description_get_size (font);
  if (size <= 0)
    size = 9 * PANGO_SCALE;
  pango_font_description_set_weight (self->fonts[TEXT_HEADER], PANGO_WEIGHT_SEMIBOLD);
  pango_font_description_set_size (self->fonts[TEXT_HEADER], (int)(size * 0.92));
  pango_font_description_set_size (self->fonts[TEXT_DETAIL], (int)(size * 0.85));
  pango_font_description_set_size (self->fonts[TEXT_CHIP], (int)(size * 0.8));
  measure_fonts (self);
}

SlGraphRenderer *
sl_graph_renderer_new (void)
{
  SlGraphRenderer *self = g_new0 (SlGraphRenderer, 1);
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("Sans 9");
  cairo_font_options_t *options;

  /* Our own context, so layouts shaped once serve every cairo_t (the
   * widget's frames, an export, a test's image) at 96 dpi. */
  self->pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  pango_cairo_context_set_resolution (self->pango, 96);
  options = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (self->pango, options);
  cairo_font_options_destroy (options);
  self->text_cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, cached_text_free);
  make_fonts (self, font);

  self->marked_ids = g_hash_table_new (NULL, NULL);
  self->selected = SL_GRAPH_SCENE_NONE;
  self->hovered = SL_GRAPH_SCENE_NONE;
  self->query_boxes = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->query_edges = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->sel_edges = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < N_CLASSES; i++)
    self->tiny[i] = g_array_new (FALSE, FALSE, sizeof (Rect));
  for (guint k = 0; k < 2; k++)
    for (guint w = 0; w < 4; w++)
      self->edge_batch[k][w] = g_array_new (FALSE, FALSE, sizeof (guint32));
  compute_palette (self);
  return self;
}

void
sl_graph_renderer_free (SlGraphRenderer *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->scene);
  g_clear_object (&self->scratch);
  g_clear_object (&self->pango);
  for (guint k = 0; k < N_TEXT_KINDS; k++)
    g_clear_pointer (&self->fonts[k], pango_font_description_free);
  g_hash_table_unref (self->text_cache);
  g_hash_table_unref (self->marked_ids);
  g_free (self->box_class);
  g_free (self->box_state);
  g_free (self->stamp);
  g_array_unref (self->query_boxes);
  g_array_unref (self->query_edges);
  g_array_unref (self->frames);
  g_array_unref (self->nodes);
  g_array_unref (self->sel_edges);
  for (guint i = 0; i < N_CLASSES; i++)
    g_array_unref (self->tiny[i]);
  for (guint k = 0; k < 2; k++)
    for (guint w = 0; w < 4; w++)
      g_array_unref (self->edge_batch[k][w]);
  g_clear_pointer (&self->minimap, cairo_surface_destroy);
  g_free (self);
}

static guint
n_scene_boxes (SlGraphRenderer *self)
{
  guint n = 0;

  if (self->scene != NULL)
    sl_graph_scene_get_boxes (self->scene, &n);
  return n;
}

/* Each box's colour class, worked out once per scene or marking. */
static void
compute_classes (SlGraphRenderer *self)
{
  const SlGraphSceneBox *boxes;
  guint n = 0;

  if (self->scene == NULL)
    return;
  boxes = sl_graph_scene_get_boxes (self->scene, &n);
  for (guint i = 0; i < n; i++)
    {
      const SlGraphSceneBox *b = &boxes[i];
      guint8 c;

      self->box_state[i] &= ~STATE_MARKED;
      if (g_hash_table_size (self->marked_ids) > 0
          && g_hash_table_contains (self->marked_ids, GUINT_TO_POINTER (b->id)))
        {
          self->box_state[i] |= STATE_MARKED;
          /* A marked frame keeps its frame: only its outline shows it. */
          if (b->shape != SL_GRAPH_SHAPE_CONTAINER)
            {
              self->box_class[i] = C_MARKED;
              continue;
            }
        }
      switch (b->shape)
        {
        case SL_GRAPH_SHAPE_CONTAINER: c = C_CONTAINER; break;
        case SL_GRAPH_SHAPE_COLLAPSED: c = C_COLLAPSED; break;
        case SL_GRAPH_SHAPE_PARAMETER: c = C_PARAMETER; break;
        case SL_GRAPH_SHAPE_CONST:     c = C_CONST; break;
        case SL_GRAPH_SHAPE_PROXY:     c = C_PROXY; break;
        case SL_GRAPH_SHAPE_OP:
        default:                       c = C_OP; break;
        }
      if (b->flags & SL_GRAPH_BOX_BOOKKEEPING)
        c = C_BOOKKEEPING;
      else if (b->heat >= 0 && b->shape != SL_GRAPH_SHAPE_CONTAINER && b->shape != SL_GRAPH_SHAPE_PROXY)
        c = C_HEAT0 + MIN ((guint)(b->heat * HEAT_STEPS), HEAT_STEPS - 1);
      self->box_class[i] = c;
    }
}

static void
compute_neighbours (SlGraphRenderer *self)
{
  guint n = n_scene_boxes (self);

  for (guint i = 0; i < n; i++)
    self->box_state[i] &= ~STATE_NEIGHBOUR;
  if (self->selected < n)
    {
      const SlGraphSceneEdge *edges = sl_graph_scene_get_edges (self->scene, NULL);
      guint n_edges;
      const guint32 *list = sl_graph_scene_get_box_edges (self->scene, self->selected, &n_edges);

      for (guint i = 0; i < n_edges; i++)
        {
          const SlGraphSceneEdge *e = &edges[list[i]];

          self->box_state[e->from == self->selected ? e->to : e->from] |= STATE_NEIGHBOUR;
        }
    }
}

void
sl_graph_renderer_set_scene (SlGraphRenderer *self,
                             SlGraphScene    *scene)
{
  guint n;

  g_return_if_fail (self != NULL);
  g_return_if_fail (scene == NULL || sl_graph_scene_is_finished (scene));

  if (scene == self->scene)
    return;
  g_set_object (&self->scene, scene);
  n = n_scene_boxes (self);
  g_free (self->box_class);
  g_free (self->box_state);
  g_free (self->stamp);
  self->box_class = g_new0 (guint8, MAX (n, 1));
  self->box_state = g_new0 (guint8, MAX (n, 1));
  self->stamp = g_new0 (guint32, MAX (n, 1));
  self->frame = 0;
  self->selected = SL_GRAPH_SCENE_NONE;
  self->hovered = SL_GRAPH_SCENE_NONE;
  clear_text_cache (self);
  compute_classes (self);
  g_clear_pointer (&self->minimap, cairo_surface_destroy);
}

SlGraphScene *
sl_graph_renderer_get_scene (SlGraphRenderer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->scene;
}

void
sl_graph_renderer_set_dark (SlGraphRenderer *self,
                            gboolean         dark)
{
  g_return_if_fail (self != NULL);

  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  compute_palette (self);
}

gboolean
sl_graph_renderer_get_dark (SlGraphRenderer *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->dark;
}

void
sl_graph_renderer_set_font (SlGraphRenderer            *self,
                            const PangoFontDescription *font)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (font != NULL);

  make_fonts (self, font);
  clear_text_cache (self);
}

void
sl_graph_renderer_set_naive (SlGraphRenderer *self,
                             gboolean         naive)
{
  g_return_if_fail (self != NULL);

  self->naive = naive;
}

void
sl_graph_renderer_set_selected (SlGraphRenderer *self,
                                guint            box)
{
  g_return_if_fail (self != NULL);

  if (box >= n_scene_boxes (self))
    box = SL_GRAPH_SCENE_NONE;
  if (box == self->selected)
    return;
  self->selected = box;
  compute_neighbours (self);
}

guint
sl_graph_renderer_get_selected (SlGraphRenderer *self)
{
  g_return_val_if_fail (self != NULL, SL_GRAPH_SCENE_NONE);

  return self->selected;
}

void
sl_graph_renderer_set_hovered (SlGraphRenderer *self,
                               guint            box)
{
  g_return_if_fail (self != NULL);

  self->hovered = box < n_scene_boxes (self) ? box : SL_GRAPH_SCENE_NONE;
}

guint
sl_graph_renderer_get_hovered (SlGraphRenderer *self)
{
  g_return_val_if_fail (self != NULL, SL_GRAPH_SCENE_NONE);

  return self->hovered;
}

void
sl_graph_renderer_set_marked_ids (SlGraphRenderer *self,
                                  const guint32   *ids,
                                  guint            n_ids)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (ids != NULL || n_ids == 0);

  g_hash_table_remove_all (self->marked_ids);
  for (guint i = 0; i < n_ids; i++)
    g_hash_table_add (self->marked_ids, GUINT_TO_POINTER (ids[i]));
  compute_classes (self);
  g_clear_pointer (&self->minimap, cairo_surface_destroy);
}

gboolean
sl_graph_renderer_is_marked (SlGraphRenderer *self,
                             guint            box)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return box < n_scene_boxes (self) && (self->box_state[box] & STATE_MARKED) != 0;
}

void
sl_graph_renderer_get_background (SlGraphRenderer *self,
                                  double           rgb[3])
{
  g_return_if_fail (self != NULL);

  memcpy (rgb, self->bg, sizeof self->bg);
}

void
sl_graph_renderer_get_box_color (SlGraphRenderer *self,
                                 guint            box,
                                 double           rgb[3])
{
  const ClassColors *c;

  g_return_if_fail (self != NULL);
  g_return_if_fail (box < n_scene_boxes (self));

  c = &self->colors[self->box_class[box]];
  for (guint k = 0; k < 3; k++)
    rgb[k] = self->bg[k] * (1 - c->fill[3]) + c->fill[k] * c->fill[3];
}

guint
sl_graph_renderer_get_last_n_labels (SlGraphRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->last_n_labels;
}

guint
sl_graph_renderer_get_last_n_boxes (SlGraphRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->last_n_boxes;
}

guint
sl_graph_renderer_get_last_n_edges (SlGraphRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->last_n_edges;
}

/* Drawing */

static inline Rect
to_screen (const SlGraphViewport *vp,
           const SlGraphSceneBox *b)
{
  return (Rect) { (b->x - vp->x) * vp->zoom, (b->y - vp->y) * vp->zoom, b->width * vp->zoom, b->height * vp->zoom };
}

static void
rounded_rect (cairo_t *cr,
              double   x,
              double   y,
              double   w,
              double   h,
              double   r)
{
  r = MIN (r, MIN (w, h) / 2);
  if (r < 0.5)
    {
      cairo_rectangle (cr, x, y, w, h);
      return;
    }
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
ellipse (cairo_t *cr,
         double   x,
         double   y,
         double   w,
         double   h)
{
  cairo_save (cr);
  cairo_translate (cr, x + w / 2, y + h / 2);
  cairo_scale (cr, MAX (w / 2, 0.01), MAX (h / 2, 0.01));
  cairo_new_sub_path (cr);
  cairo_arc (cr, 0, 0, 1, 0, 2 * G_PI);
  cairo_restore (cr);
}

static inline void
set_rgb (cairo_t      *cr,
         const double  rgb[3])
{
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

/* The label of a box shaped and ellipsized (in the middle, so both a
 * scope's start and an op's own name stay) for a width class. */
static CachedText *
get_text (SlGraphRenderer *self,
          guint            box,
          guint            kind,
          const char      *text,
          double           width)
{
  guint width_class = (guint) MIN (width / WIDTH_CLASS, 1023);
  gint64 key = ((gint64) box << 12) | ((gint64) kind << 10) | width_class;
  CachedText *t = g_hash_table_lookup (self->text_cache, &key);

  if (t == NULL)
    {
      if (g_hash_table_size (self->text_cache) > TEXT_CACHE_LIMIT)
        g_hash_table_remove_all (self->text_cache);

      t = g_new0 (CachedText, 1);
      t->layout = pango_layout_new (self->pango);
      pango_layout_set_font_description (t->layout, self->fonts[kind]);
      pango_layout_set_single_paragraph_mode (t->layout, TRUE);
      pango_layout_set_ellipsize (t->layout, PANGO_ELLIPSIZE_MIDDLE);
      pango_layout_set_width (t->layout, (int)(width_class * WIDTH_CLASS * PANGO_SCALE));
      pango_layout_set_text (t->layout, text, -1);
      pango_layout_get_pixel_size (t->layout, &t->width, &t->height);
      g_hash_table_insert (self->text_cache, g_memdup2 (&key, sizeof key), t);
    }
  return t;
}

/* Writes @text centred at (@cx, @cy) (or from @x0 when @cx < 0) if a
 * line fits in @avail_w × @avail_h. */
static gboolean
draw_text (SlGraphRenderer *self,
           cairo_t         *cr,
           guint            box,
           guint            kind,
           const char      *text,
           double           x0,
           double           cx,
           double           cy,
           double           avail_w,
           double           avail_h,
           const double     rgb[3])
{
  int tw, th;
  PangoLayout *layout;

  if (text == NULL || text[0] == '\0' || avail_w < WIDTH_CLASS * 2 || avail_h < self->line_height[kind])
    return FALSE;

  if (self->naive)
    {
      /* What a simple viewer does: lay out each label every frame. */
      if (self->scratch == NULL)
        self->scratch = pango_layout_new (self->pango);
      layout = self->scratch;
      pango_layout_set_font_description (layout, self->fonts[kind]);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
      pango_layout_set_width (layout, (int)(avail_w * PANGO_SCALE));
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
    }
  else
    {
      CachedText *t = get_text (self, box, kind, text, avail_w);

      layout = t->layout;
      tw = t->width;
      th = t->height;
    }

  set_rgb (cr, rgb);
  cairo_move_to (cr, cx >= 0 ? round (cx - tw / 2.0) : round (x0), round (cy - th / 2.0));
  pango_cairo_show_layout (cr, layout);
  self->last_n_labels++;
  return TRUE;
}

static void
draw_frame (SlGraphRenderer       *self,
            cairo_t               *cr,
            const SlGraphViewport *vp,
            guint                  index,
            const SlGraphSceneBox *b)
{
  const ClassColors *c = &self->colors[C_CONTAINER];
  Rect r = to_screen (vp, b);
  double radius = CLAMP (6 * vp->zoom, 1, 6);
  double band = MIN (SL_GRAPH_RENDERER_HEADER_HEIGHT, b->height * 0.5) * vp->zoom;
  guint8 state = self->box_state[index];

  rounded_rect (cr, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1, radius);
  cairo_set_source_rgba (cr, c->fill[0], c->fill[1], c->fill[2], c->fill[3]);
  cairo_fill_preserve (cr);
  cairo_set_line_width (cr, 1);
  if (b->flags & SL_GRAPH_BOX_ERROR)
    set_rgb (cr, self->error), cairo_set_line_width (cr, 2);
  else if (b->flags & SL_GRAPH_BOX_WARNING)
    set_rgb (cr, self->warning), cairo_set_line_width (cr, 2);
  else if (state & STATE_MARKED)
    set_rgb (cr, self->marker), cairo_set_line_width (cr, 2.5);
  else
    set_rgb (cr, c->stroke);
  cairo_stroke (cr);

  if (band >= 4)
    {
      /* The header band: the frame's top corners, square below. */
      cairo_save (cr);
      rounded_rect (cr, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1, radius);
      cairo_clip (cr);
      cairo_rectangle (cr, r.x, r.y, r.w, band);
      cairo_set_source_rgba (cr, self->header[0], self->header[1], self->header[2], self->header[3]);
      cairo_fill (cr);
      cairo_restore (cr);
      draw_text (self, cr, index, TEXT_HEADER, b->label, r.x + LABEL_PADDING, -1, r.y + band / 2,
                 r.w - 2 * LABEL_PADDING, band + 2, c->text);
    }
}

/* Outlines that say more than the colour: selection, hover, flags. */
static void
draw_outline (SlGraphRenderer *self,
              cairo_t         *cr,
              const SlGraphSceneBox *b,
              guint            index,
              Rect             r,
              double           radius,
              const ClassColors *c)
{
  guint8 state = self->box_state[index];
  gboolean round_shape = b->shape == SL_GRAPH_SHAPE_PARAMETER || b->shape == SL_GRAPH_SHAPE_PROXY;
  double grow;

  if (index == self->selected)
    grow = 2.5, set_rgb (cr, self->accent), cairo_set_line_width (cr, 2.5);
  else if (index == self->hovered)
    grow = 1.5, set_rgb (cr, self->hover), cairo_set_line_width (cr, 1.5);
  else if (state & STATE_NEIGHBOUR)
    grow = 1.5, cairo_set_source_rgba (cr, self->accent[0], self->accent[1], self->accent[2], 0.65),
    cairo_set_line_width (cr, 1.5);
  else
    return;

  if (round_shape)
    ellipse (cr, r.x - grow, r.y - grow, r.w + 2 * grow, r.h + 2 * grow);
  else
    rounded_rect (cr, r.x - grow, r.y - grow, r.w + 2 * grow, r.h + 2 * grow, radius + grow);
  cairo_stroke (cr);
}

static void
draw_plus (cairo_t *cr,
           double   cx,
           double   cy,
           double   size)
{
  cairo_move_to (cr, cx - size, cy);
  cairo_line_to (cr, cx + size, cy);
  cairo_move_to (cr, cx, cy - size);
  cairo_line_to (cr, cx, cy + size);
}

static void
draw_node (SlGraphRenderer       *self,
           cairo_t               *cr,
           const SlGraphViewport *vp,
           guint                  index,
           const SlGraphSceneBox *b)
{
  const ClassColors *c = &self->colors[self->box_class[index]];
  Rect r = to_screen (vp, b);
  double radius = CLAMP (5 * vp->zoom, 1, 6);
  double stroke_w = 1;
  const double *stroke = c->stroke;
  double text_x = r.x, text_w = r.w;
  gboolean two_lines;

  if (b->flags & SL_GRAPH_BOX_ERROR)
    stroke = self->error, stroke_w = 2;
  else if (b->flags & SL_GRAPH_BOX_WARNING)
    stroke = self->warning, stroke_w = 2;
  else if (self->box_state[index] & STATE_MARKED)
    stroke_w = 2;

  cairo_set_line_width (cr, stroke_w);
  switch (b->shape)
    {
    case SL_GRAPH_SHAPE_COLLAPSED:
      {
        /* Two cards behind the front one: more inside. */
        double off = CLAMP (4 * vp->zoom, 1.5, 4);
        double w = r.w - 2 * off, h = r.h - 2 * off;

        for (int k = 2; k >= 1; k--)
          {
            rounded_rect (cr, r.x + k * off + 0.5, r.y + k * off + 0.5, w - 1, h - 1, radius);
            cairo_set_source_rgba (cr, c->fill[0], c->fill[1], c->fill[2], 1);
            cairo_fill_preserve (cr);
            set_rgb (cr, stroke);
            cairo_stroke (cr);
          }
        rounded_rect (cr, r.x + 0.5, r.y + 0.5, w - 1, h - 1, radius);
        cairo_set_source_rgba (cr, c->fill[0], c->fill[1], c->fill[2], 1);
        cairo_fill_preserve (cr);
        set_rgb (cr, stroke);
        cairo_stroke (cr);
        if (h >= 12 && w >= 24)
          {
            double s = MIN (h * 0.18, 4.5);

            draw_plus (cr, r.x + w - 6 - s, r.y + h / 2, s);
            set_rgb (cr, c->text);
            cairo_set_line_width (cr, 1.5);
            cairo_stroke (cr);
            text_w = w - 2 * s - 8;
          }
        else
          text_w = w;
        r.w = w + off, r.h = h + off;
        break;
      }
    case SL_GRAPH_SHAPE_PARAMETER:
    case SL_GRAPH_SHAPE_PROXY:
      ellipse (cr, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
      cairo_set_source_rgba (cr, c->fill[0], c->fill[1], c->fill[2], c->fill[3]);
      cairo_fill_preserve (cr);
      set_rgb (cr, stroke);
      if (b->shape == SL_GRAPH_SHAPE_PROXY)
        {
          double dash[] = { 4, 3 };

          cairo_set_dash (cr, dash, 2, 0);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
        }
      else
        cairo_stroke (cr);
      /* The widest line inside an ellipse at a line's height. */
      text_x = r.x + r.w * 0.14;
      text_w = r.w * 0.72;
      break;
    case SL_GRAPH_SHAPE_CONST:
      rounded_rect (cr, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1, r.h / 2);
      cairo_set_source_rgba (cr, c->fill[0], c->fill[1], c->fill[2], c->fill[3]);
      cairo_fill_preserve (cr);
      set_rgb (cr, stroke);
      cairo_stroke (cr);
      draw_text (self, cr, index, TEXT_CHIP, b->label, 0, r.x + r.w / 2, r.y + r.h / 2,
                 r.w - r.h, r.h + 2, c->text);
      draw_outline (self, cr, b, index, r, r.h / 2, c);
      return;
    case SL_GRAPH_SHAPE_OP:
    case SL_GRAPH_SHAPE_CONTAINER:
    default:
      rounded_rect (cr, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1, radius);
      cairo_set_source_rgba (cr, c->fill[0], c->fill[1], c->fill[2], c->fill[3]);
      cairo_fill_preserve (cr);
      set_rgb (cr, stroke);
      cairo_stroke (cr);
      break;
    }

  draw_outline (self, cr, b, index, r, radius, c);

  /* One line, or two with the detail when tall enough. */
  {
    double h = b->shape == SL_GRAPH_SHAPE_COLLAPSED ? r.h - CLAMP (4 * vp->zoom, 1.5, 4) : r.h;
    double avail = text_w - 2 * LABEL_PADDING;

    if (avail < MIN_LABEL_WIDTH - 2 * LABEL_PADDING || h < self->line_height[TEXT_LABEL] + 2)
      return;
    two_lines = b->detail != NULL && h >= self->line_height[TEXT_LABEL] + self->line_height[TEXT_DETAIL] + 6;
    if (two_lines)
      {
        double top = r.y + (h - self->line_height[TEXT_LABEL] - self->line_height[TEXT_DETAIL]) / 2;
        double detail_rgb[3];

        for (guint k = 0; k < 3; k++)
          detail_rgb[k] = c->text[k] * 0.7 + c->fill[k] * 0.3;
        draw_text (self, cr, index, TEXT_LABEL, b->label, 0, text_x + text_w / 2,
                   top + self->line_height[TEXT_LABEL] / 2.0, avail, h, c->text);
        draw_text (self, cr, index, TEXT_DETAIL, b->detail, 0, text_x + text_w / 2,
                   top + self->line_height[TEXT_LABEL] + self->line_height[TEXT_DETAIL] / 2.0, avail, h, detail_rgb);
      }
    else
      draw_text (self, cr, index, TEXT_LABEL, b->label, 0, text_x + text_w / 2, r.y + h / 2, avail, h, c->text);
  }
}

static guint
width_class_of_count (guint count)
{
  return count <= 1 ? 0 : count <= 3 ? 1 : count <= 15 ? 2 : 3;
}

static double
edge_width (const SlGraphViewport *vp,
            guint                  width_class)
{
  static const double factor[] = { 1, 1.8, 2.6, 3.6 };

  return CLAMP (1.3 * vp->zoom, 0.7, 1.4) * factor[width_class];
}

static double
arrow_size (const SlGraphViewport *vp)
{
  return CLAMP (8 * vp->zoom, 0, 8);
}

/* Appends the edge's polyline (points closer than a pixel dropped) and,
 * when @arrow, its arrowhead to @heads; the line stops at the head's
 * base so its end does not poke through the tip. */
static void
path_edge (SlGraphRenderer         *self,
           cairo_t                 *cr,
           const SlGraphViewport   *vp,
           const SlGraphSceneEdge  *e,
           const SlGraphScenePoint *points,
           double                   arrow,
           double                   line_w,
           GArray                  *heads)
{
  const SlGraphScenePoint *p = points + e->first_point;
  double lx = (p[0].x - vp->x) * vp->zoom, ly = (p[0].y - vp->y) * vp->zoom;
  double px = lx, py = ly;
  double ex = (p[e->n_points - 1].x - vp->x) * vp->zoom, ey = (p[e->n_points - 1].y - vp->y) * vp->zoom;

  cairo_move_to (cr, lx, ly);
  for (guint i = 1; i + 1 < e->n_points; i++)
    {
      double x = (p[i].x - vp->x) * vp->zoom, y = (p[i].y - vp->y) * vp->zoom;

      if (fabs (x - lx) + fabs (y - ly) < 1)
        continue;
      cairo_line_to (cr, x, y);
      px = lx = x;
      py = ly = y;
    }
  if (arrow > 0 && heads != NULL)
    {
      double dx = ex - px, dy = ey - py, len = hypot (dx, dy);

      if (len > arrow * 0.8)
        {
          double ux = dx / len, uy = dy / len;
          double bx = ex - ux * arrow, by = ey - uy * arrow;
          double half = arrow * 0.42 + line_w * 0.3;
          double tri[6] = { ex, ey, bx - uy * half, by + ux * half, bx + uy * half, by - ux * half };

          g_array_append_vals (heads, tri, 6);
          cairo_line_to (cr, ex - ux * arrow * 0.7, ey - uy * arrow * 0.7);
          return;
        }
    }
  cairo_line_to (cr, ex, ey);
}

static void
fill_heads (cairo_t *cr,
            GArray  *heads)
{
  const double *t = (const double *) heads->data;

  for (guint i = 0; i + 6 <= heads->len; i += 6)
    {
      cairo_move_to (cr, t[i], t[i + 1]);
      cairo_line_to (cr, t[i + 2], t[i + 3]);
      cairo_line_to (cr, t[i + 4], t[i + 5]);
      cairo_close_path (cr);
    }
  cairo_fill (cr);
  g_array_set_size (heads, 0);
}

static void
stroke_edges (SlGraphRenderer       *self,
              cairo_t               *cr,
              const SlGraphViewport *vp,
              GArray                *list,
              guint                  kind,
              double                 line_w,
              const double           rgb[3],
              double                 alpha,
              gboolean               arrows)
{
  const SlGraphSceneEdge *edges = sl_graph_scene_get_edges (self->scene, NULL);
  const SlGraphScenePoint *points = sl_graph_scene_get_points (self->scene, NULL);
  double arrow = arrows ? arrow_size (vp) + line_w : 0;
  g_autoptr(GArray) heads = NULL;
  gboolean any_reversed = FALSE;

  if (list->len == 0)
    return;
  heads = g_array_new (FALSE, FALSE, sizeof (double));
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
  cairo_set_line_width (cr, line_w);
  if (kind == SL_GRAPH_SCENE_EDGE_CONTROL)
    {
      double dash[] = { 5, 3.5 };

      cairo_set_dash (cr, dash, 2, 0);
    }
  for (guint i = 0; i < list->len; i++)
    {
      const SlGraphSceneEdge *e = &edges[g_array_index (list, guint32, i)];

      path_edge (self, cr, vp, e, points, arrow, line_w, heads);
      any_reversed |= e->reversed;
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  if (heads->len > 0)
    fill_heads (cr, heads);

  /* A back edge of a cycle: a ring where it leaves its source. */
  if (any_reversed && (arrows || vp->zoom >= 0.3))
    {
      double radius = CLAMP (3.2 * vp->zoom, 1.5, 3.2) + line_w * 0.5;

      for (guint i = 0; i < list->len; i++)
        {
          const SlGraphSceneEdge *e = &edges[g_array_index (list, guint32, i)];
          const SlGraphScenePoint *p = points + e->first_point;

          if (!e->reversed)
            continue;
          cairo_new_sub_path (cr);
          cairo_arc (cr, (p[0].x - vp->x) * vp->zoom, (p[0].y - vp->y) * vp->zoom, radius, 0, 2 * G_PI);
        }
      set_rgb (cr, self->bg);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
      cairo_set_line_width (cr, 1.4);
      cairo_stroke (cr);
    }
}

static void
fill_tiny (SlGraphRenderer *self,
           cairo_t         *cr,
           guint            c)
{
  GArray *rects = self->tiny[c];
  const ClassColors *colors = &self->colors[c];
  /* Edge colours are too pale to see at one pixel: tiny boxes show their stroke colour. */
  const double *rgb = (c == C_CONTAINER || c >= C_HEAT0 || c == C_MARKED) ? colors->fill : colors->stroke;
  double alpha = c == C_CONTAINER ? MIN (colors->fill[3] * 2.5, 1) : 1;

  if (rects->len == 0)
    return;
  for (guint i = 0; i < rects->len; i++)
    {
      const Rect *r = &g_array_index (rects, Rect, i);

      cairo_rectangle (cr, r->x, r->y, r->w, r->h);
    }
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
  cairo_fill (cr);
  g_array_set_size (rects, 0);
}

/* A tiny box snapped out to whole pixels, at least one, so cairo fills
 * it without antialiasing; a repeat of the previous one is dropped. */
static void
add_tiny (SlGraphRenderer *self,
          guint            c,
          Rect             r)
{
  GArray *rects = self->tiny[c];
  double x0 = floor (r.x), y0 = floor (r.y);
  double x1 = MAX (ceil (r.x + r.w), x0 + 1), y1 = MAX (ceil (r.y + r.h), y0 + 1);
  Rect s = { x0, y0, x1 - x0, y1 - y0 };

  if (rects->len > 0)
    {
      const Rect *last = &g_array_index (rects, Rect, rects->len - 1);

      if (last->x == s.x && last->y == s.y && last->w == s.w && last->h == s.h)
        return;
    }
  g_array_append_val (rects, s);
}

static void
draw_naive (SlGraphRenderer       *self,
            cairo_t               *cr,
            const SlGraphViewport *vp)
{
  const SlGraphSceneBox *boxes;
  const SlGraphSceneEdge *edges;
  const SlGraphScenePoint *points;
  guint n_boxes, n_edges;
  g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (double));

  boxes = sl_graph_scene_get_boxes (self->scene, &n_boxes);
  edges = sl_graph_scene_get_edges (self->scene, &n_edges);
  points = sl_graph_scene_get_points (self->scene, NULL);
  for (guint i = 0; i < n_boxes; i++)
    {
      if (boxes[i].shape == SL_GRAPH_SHAPE_CONTAINER)
        draw_frame (self, cr, vp, i, &boxes[i]);
      else
        draw_node (self, cr, vp, i, &boxes[i]);
    }
  for (guint i = 0; i < n_edges; i++)
    {
      double w = edge_width (vp, width_class_of_count (edges[i].count));

      set_rgb (cr, self->edge_color[edges[i].kind ? 1 : 0]);
      cairo_set_line_width (cr, w);
      path_edge (self, cr, vp, &edges[i], points, arrow_size (vp) + w, w, heads);
      cairo_stroke (cr);
      fill_heads (cr, heads);
    }
  self->last_n_boxes = n_boxes;
  self->last_n_edges = n_edges;
}

void
sl_graph_renderer_draw (SlGraphRenderer       *self,
                        cairo_t               *cr,
                        const SlGraphViewport *vp)
{
  const SlGraphSceneBox *boxes;
  const SlGraphSceneEdge *edges;
  const SlGraphScenePoint *points;
  guint n_boxes, n_edges;
  double view_w, view_h, margin;
  double bx, by, bw, bh;
  gboolean arrows;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (vp != NULL && vp->zoom > 0);

  self->last_n_labels = self->last_n_boxes = self->last_n_edges = 0;
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, vp->width, vp->height);
  cairo_clip (cr);
  set_rgb (cr, self->bg);
  cairo_paint (cr);
  if (self->scene == NULL)
    {
      cairo_restore (cr);
      return;
    }
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);

  if (self->naive)
    {
      draw_naive (self, cr, vp);
      cairo_restore (cr);
      return;
    }

  boxes = sl_graph_scene_get_boxes (self->scene, &n_boxes);
  edges = sl_graph_scene_get_edges (self->scene, &n_edges);
  points = sl_graph_scene_get_points (self->scene, NULL);
  self->frame++;
  if (self->frame == 0)
    {
      memset (self->stamp, 0, MAX (n_boxes, 1) * sizeof (guint32));
      self->frame = 1;
    }

  /* Outlines and arrowheads reach a few pixels beyond their box. */
  margin = 6 / vp->zoom;
  view_w = vp->width / vp->zoom;
  view_h = vp->height / vp->zoom;
  sl_graph_scene_get_bounds (self->scene, &bx, &by, &bw, &bh);
  g_array_set_size (self->query_boxes, 0);
  g_array_set_size (self->query_edges, 0);
  if (vp->x - margin <= bx && vp->y - margin <= by
      && vp->x + view_w + margin >= bx + bw && vp->y + view_h + margin >= by + bh)
    {
      /* All of it in view: every index in order, without sorting. */
      g_array_set_size (self->query_boxes, n_boxes);
      for (guint i = 0; i < n_boxes; i++)
        g_array_index (self->query_boxes, guint32, i) = i;
      g_array_set_size (self->query_edges, n_edges);
      for (guint i = 0; i < n_edges; i++)
        g_array_index (self->query_edges, guint32, i) = i;
    }
  else
    sl_graph_scene_query (self->scene, vp->x - margin, vp->y - margin, view_w + 2 * margin, view_h + 2 * margin,
                          self->query_boxes, self->query_edges);

  /* Sort the boxes: hidden inside a tiny one, tiny, frame or full box. */
  g_array_set_size (self->frames, 0);
  g_array_set_size (self->nodes, 0);
  for (guint i = 0; i < self->query_boxes->len; i++)
    {
      guint32 index = g_array_index (self->query_boxes, guint32, i);
      const SlGraphSceneBox *b = &boxes[index];
      Rect r;

      if (b->parent != SL_GRAPH_SCENE_NONE && self->stamp[b->parent] == self->frame)
        {
          self->stamp[index] = self->frame;
          continue;
        }
      r = to_screen (vp, b);
      if (MAX (r.w, r.h) < TINY_PX && index != self->selected)
        {
          add_tiny (self, self->box_class[index], r);
          self->stamp[index] = self->frame;
          self->last_n_boxes++;
        }
      else if (b->shape == SL_GRAPH_SHAPE_CONTAINER)
        g_array_append_val (self->frames, index);
      else
        g_array_append_val (self->nodes, index);
    }

  /* Pass 1: frames, the tiny frames first, outer before inner. */
  fill_tiny (self, cr, C_CONTAINER);
  for (guint i = 0; i < self->frames->len; i++)
    {
      guint32 index = g_array_index (self->frames, guint32, i);

      draw_frame (self, cr, vp, index, &boxes[index]);
    }
  self->last_n_boxes += self->frames->len;

  /* Pass 2: edges, batched by kind and thickness; those of the selected
   * box last, on top. */
  arrows = arrow_size (vp) >= 3;
  g_array_set_size (self->sel_edges, 0);
  for (guint i = 0; i < self->query_edges->len; i++)
    {
      guint32 index = g_array_index (self->query_edges, guint32, i);
      const SlGraphSceneEdge *e = &edges[index];

      if (self->selected != SL_GRAPH_SCENE_NONE && (e->from == self->selected || e->to == self->selected))
        {
          g_array_append_val (self->sel_edges, index);
          continue;
        }
      /* Hidden at both ends and too short to see: inside the blob. */
      if (!arrows)
        {
          const SlGraphScenePoint *p = points + e->first_point;
          const SlGraphScenePoint *q = p + e->n_points - 1;
          double extent = (fabs (q->x - p->x) + fabs (q->y - p->y)) * vp->zoom;

          if (extent < MIN_EDGE_PX
              || (extent < 4 * MIN_EDGE_PX && self->stamp[e->from] == self->frame && self->stamp[e->to] == self->frame))
            continue;
        }
      g_array_append_val (self->edge_batch[e->kind ? 1 : 0][width_class_of_count (e->count)], index);
    }
  for (guint k = 0; k < 2; k++)
    for (guint w = 0; w < 4; w++)
      {
        GArray *batch = self->edge_batch[k][w];

        self->last_n_edges += batch->len;
        /* Zoomed far out, a little see-through, so crossings stay legible. */
        stroke_edges (self, cr, vp, batch, k, edge_width (vp, w), self->edge_color[k], arrows ? 1 : 0.7, arrows);
        g_array_set_size (batch, 0);
      }
  if (self->sel_edges->len > 0)
    {
      stroke_edges (self, cr, vp, self->sel_edges, 0, MAX (edge_width (vp, 0) * 1.6, 1.5), self->accent, 1, TRUE);
      self->last_n_edges += self->sel_edges->len;
    }

  /* Pass 3: boxes, tiny ones batched by colour. */
  for (guint c = 0; c < N_CLASSES; c++)
    if (c != C_CONTAINER)
      fill_tiny (self, cr, c);
  for (guint i = 0; i < self->nodes->len; i++)
    {
      guint32 index = g_array_index (self->nodes, guint32, i);

      draw_node (self, cr, vp, index, &boxes[index]);
    }
  self->last_n_boxes += self->nodes->len;
  cairo_restore (cr);
}

/* Minimap */

static gboolean
minimap_transform (SlGraphRenderer *self,
                   int              width,
                   int              height,
                   double          *scale,
                   double          *ox,
                   double          *oy)
{
  double bx, by, bw, bh, inner_w = width - 2 * MINIMAP_PADDING, inner_h = height - 2 * MINIMAP_PADDING;

  if (self->scene == NULL || inner_w <= 0 || inner_h <= 0)
    return FALSE;
  sl_graph_scene_get_bounds (self->scene, &bx, &by, &bw, &bh);
  *scale = MIN (inner_w / MAX (bw, 1), inner_h / MAX (bh, 1));
  *ox = MINIMAP_PADDING + (inner_w - bw * *scale) / 2 - bx * *scale;
  *oy = MINIMAP_PADDING + (inner_h - bh * *scale) / 2 - by * *scale;
  return TRUE;
}

/* The scene drawn once per scene, size and palette, as small rects. */
static void
ensure_minimap (SlGraphRenderer *self,
                int              width,
                int              height)
{
  const SlGraphSceneBox *boxes;
  double scale, ox, oy;
  guint n;
  cairo_t *cr;

  if (self->minimap != NULL && self->minimap_width == width && self->minimap_height == height)
    return;
  g_clear_pointer (&self->minimap, cairo_surface_destroy);
  self->minimap = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  self->minimap_width = width;
  self->minimap_height = height;
  if (!minimap_transform (self, width, height, &scale, &ox, &oy))
    return;

  cr = cairo_create (self->minimap);
  boxes = sl_graph_scene_get_boxes (self->scene, &n);
  for (guint i = 0; i < n; i++)
    {
      const SlGraphSceneBox *b = &boxes[i];
      const ClassColors *c = &self->colors[self->box_class[i]];

      if (b->shape == SL_GRAPH_SHAPE_CONTAINER)
        {
          if (b->width * scale < 3)
            continue;
          cairo_rectangle (cr, b->x * scale + ox + 0.5, b->y * scale + oy + 0.5,
                           MAX (b->width * scale - 1, 0), MAX (b->height * scale - 1, 0));
          cairo_set_source_rgba (cr, c->stroke[0], c->stroke[1], c->stroke[2], 0.8);
          cairo_set_line_width (cr, 1);
          cairo_stroke (cr);
          continue;
        }
      cairo_rectangle (cr, b->x * scale + ox, b->y * scale + oy,
                       MAX (b->width * scale, 0.8), MAX (b->height * scale, 0.8));
      if (self->box_class[i] >= C_HEAT0 || self->box_class[i] == C_MARKED)
        set_rgb (cr, c->fill);
      else
        set_rgb (cr, c->stroke);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
}

void
sl_graph_renderer_draw_minimap (SlGraphRenderer       *self,
                                cairo_t               *cr,
                                int                    width,
                                int                    height,
                                const SlGraphViewport *view)
{
  double scale, ox, oy;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);

  if (width <= 0 || height <= 0)
    return;
  cairo_save (cr);
  rounded_rect (cr, 0.5, 0.5, width - 1, height - 1, 6);
  cairo_set_source_rgba (cr, self->bg[0], self->bg[1], self->bg[2], 0.94);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, self->colors[C_CONTAINER].stroke[0], self->colors[C_CONTAINER].stroke[1],
                         self->colors[C_CONTAINER].stroke[2], 1);
  cairo_set_line_width (cr, 1);
  cairo_stroke_preserve (cr);
  cairo_clip (cr);

  if (self->scene != NULL)
    {
      ensure_minimap (self, width, height);
      cairo_set_source_surface (cr, self->minimap, 0, 0);
      cairo_paint (cr);
    }
  if (view != NULL && minimap_transform (self, width, height, &scale, &ox, &oy))
    {
      double x = view->x * scale + ox, y = view->y * scale + oy;
      double w = view->width / view->zoom * scale, h = view->height / view->zoom * scale;

      cairo_rectangle (cr, x, y, MAX (w, 2), MAX (h, 2));
      cairo_set_source_rgba (cr, self->accent[0], self->accent[1], self->accent[2], 0.16);
      cairo_fill_preserve (cr);
      set_rgb (cr, self->accent);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

void
sl_graph_renderer_minimap_to_scene (SlGraphRenderer *self,
                                    int              width,
                                    int              height,
                                    double           mx,
                                    double           my,
                                    double          *x,
                                    double          *y)
{
  double scale = 1, ox = 0, oy = 0;

  g_return_if_fail (self != NULL);

  minimap_transform (self, width, height, &scale, &ox, &oy);
  *x = (mx - ox) / scale;
  *y = (my - oy) / scale;
}
