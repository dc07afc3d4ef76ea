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
/* Labels shrink with the zoom down to this share of their size. */
#define MIN_TEXT_SCALE 0.6
#define TEXT_CACHE_LIMIT 6144
/* Edges whose extent on screen is below this are inside a blob of boxes. */
#define MIN_EDGE_PX 6.0
/* Paths are cut this far (pixels) outside the view: beyond any stroke,
 * join or arrowhead that could reach into it. */
#define FRAME_MARGIN 8.0
#define EDGE_MARGIN 16.0
/* Frames larger than this on screen (pixels²) are filled only where
 * the frames inside them leave them showing. */
#define LARGE_FRAME_AREA 40000.0
/* Zoomed in, edges up to this wide (pixels) go through the coverage
 * mask; thicker ones need cairo's round joins. */
#define RASTER_MAX_WIDTH 2.6
#define HEAT_STEPS 16
#define MINIMAP_PADDING 6.0
#define MAX_DEPTH_COLORS 8
/* Boxes (not frames) lower or narrower than this are plain rects. */
#define SMALL_HEIGHT_PX 8.0
#define SMALL_WIDTH_PX 14.0

enum {
  C_CONTAINER,
  C_COLLAPSED,
  C_OP,
  C_PARAMETER,
  C_CONST,
  C_PROXY,
  C_BOOKKEEPING,
  C_MARKED,
  C_PASS,       /* comparison verdicts of an op's outputs */
  C_WARNING,
  C_ERROR,
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
  PangoLayout *layout;       /* the whole text */
  int          width;
  int          height;
  PangoLayout *cut;          /* ellipsized to cut_class × WIDTH_CLASS, or NULL */
  guint        cut_class;
  int          cut_width;
  int          cut_height;
} CachedText;

struct _SlGraphRenderer
{
  SlGraphScene         *scene;
  gboolean              dark;
  gboolean              naive;
  gboolean              cache_text;
  double                text_scale;   /* of labels below zoom 1, for this frame */

  PangoContext         *pango;
  PangoFontDescription *fonts[N_TEXT_KINDS];
  int                   line_height[N_TEXT_KINDS];
  GHashTable           *text_cache;   /* (box, kind, width class) → CachedText */
  PangoLayout          *scratch;      /* the naive peer's */

  guint8               *box_class;    /* per box */
  float                *text_height;  /* per box: the height its text may use, above its chips */
  guint32              *inner_start;  /* per box + 1: into inner_frames */
  guint32              *inner_frames; /* the frames directly inside each box */
  guint8               *box_state;    /* per box: STATE_* */
  guint32              *stamp;        /* per box: the frame that hid it */
  guint32               frame;
  GHashTable           *marked_ids;   /* id set */
  GHashTable           *verdict_ids;  /* id -> verdict + 1 */
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
  double                frame_fill[MAX_DEPTH_COLORS][3];
  double                frame_header[MAX_DEPTH_COLORS][3];
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

/* Fill, outline and text of an op by its outputs' verdict: not compared
 * (the plain op colours), pass, warning, error; light then dark. Legends
 * take theirs from here too. */
static const guint32 verdict_palette[2][4][3] = {
  { { 0xdde8f7, 0x5b7db3, 0x1c2433 }, { 0xd4f2dc, 0x2ec27e, 0x0f2e19 },
    { 0xfbe7b5, 0xc88800, 0x3a2a00 }, { 0xf8d0d0, 0xe01b24, 0x3d0a0c } },
  { { 0x28374f, 0x6f90c8, 0xe6ecf5 }, { 0x1f4a2c, 0x57e389, 0xe2f6e8 },
    { 0x5a4210, 0xf0b43c, 0xfff3dc }, { 0x6a1f22, 0xff6b6b, 0xffe5e5 } },
};

static void
set_verdict_classes (SlGraphRenderer *self,
                     gboolean         dark)
{
  static const guint classes[] = { C_OP, C_PASS, C_WARNING, C_ERROR };

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    set_class (self, classes[i], verdict_palette[dark][i][0], 1, verdict_palette[dark][i][1],
               verdict_palette[dark][i][2]);
}

void
sl_graph_renderer_get_verdict_colors (gboolean dark,
                                      int      verdict,
                                      double   fill[3],
                                      double   stroke[3])
{
  guint i = verdict >= 0 && verdict <= 2 ? (guint) verdict + 1 : 0;

  g_return_if_fail (fill != NULL && stroke != NULL);

  hex (fill, verdict_palette[dark != FALSE][i][0]);
  hex (stroke, verdict_palette[dark != FALSE][i][1]);
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
      set_verdict_classes (self, TRUE);
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
      set_verdict_classes (self, FALSE);
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
        c->stroke[k] = self->dark ? MIN (c->fill[k] * 1.5, 1) : c->fill[k] * 0.55;
      if (luminance (c->fill) > 0.45)
        hex (c->text, 0x1c1c1c);
      else
        hex (c->text, 0xf4f4f4);
    }
  for (guint d = 0; d < MAX_DEPTH_COLORS; d++)
    for (guint k = 0; k < 3; k++)
      {
        const double *tint = self->colors[C_CONTAINER].fill;
        double below = d == 0 ? self->bg[k] : self->frame_fill[d - 1][k];

        self->frame_fill[d][k] = below * (1 - tint[3]) + tint[k] * tint[3];
        self->frame_header[d][k] = self->frame_fill[d][k] * (1 - self->header[3]) + self->header[k] * self->header[3];
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
  g_clear_object (&t->cut);
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

  self->cache_text = TRUE;
  self->marked_ids = g_hash_table_new (NULL, NULL);
  self->verdict_ids = g_hash_table_new (NULL, NULL);
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
  g_hash_table_unref (self->verdict_ids);
  g_free (self->box_class);
  g_free (self->text_height);
  g_free (self->inner_start);
  g_free (self->inner_frames);
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
      if (b->shape != SL_GRAPH_SHAPE_CONTAINER && b->shape != SL_GRAPH_SHAPE_PROXY)
        {
          guint v = GPOINTER_TO_UINT (g_hash_table_lookup (self->verdict_ids, GUINT_TO_POINTER (b->id)));

          /* A verdict outranks heat: it is what was asked for last. */
          if (v > 0 && v <= 3)
            c = C_PASS + v - 1;
        }
      self->box_class[i] = c;
    }
}

/* Constants sit as chips along the bottom of their op: its text is
 * centred in what is above the first row of them. */
static void
compute_text_heights (SlGraphRenderer *self)
{
  const SlGraphSceneBox *boxes;
  guint n = 0;

  if (self->scene == NULL)
    return;
  boxes = sl_graph_scene_get_boxes (self->scene, &n);
  for (guint i = 0; i < n; i++)
    self->text_height[i] = boxes[i].height;
  for (guint i = 0; i < n; i++)
    {
      const SlGraphSceneBox *b = &boxes[i];

      if (b->shape == SL_GRAPH_SHAPE_CONST && b->parent != SL_GRAPH_SCENE_NONE
          && boxes[b->parent].shape != SL_GRAPH_SHAPE_CONTAINER)
        {
          double top = b->y - boxes[b->parent].y;

          if (top > 0 && top < self->text_height[b->parent])
            self->text_height[b->parent] = top;
        }
    }
}

/* Which frames lie directly inside each frame: a frame is filled only
 * where they do not cover it. */
static void
compute_inner_frames (SlGraphRenderer *self)
{
  const SlGraphSceneBox *boxes;
  guint n = 0, total = 0;
  guint32 *fill;

  self->inner_frames = NULL;
  if (self->scene == NULL)
    return;
  boxes = sl_graph_scene_get_boxes (self->scene, &n);
  for (guint i = 0; i < n; i++)
    if (boxes[i].shape == SL_GRAPH_SHAPE_CONTAINER && boxes[i].parent != SL_GRAPH_SCENE_NONE)
      {
        self->inner_start[boxes[i].parent + 1]++;
        total++;
      }
  for (guint i = 0; i < n; i++)
    self->inner_start[i + 1] += self->inner_start[i];
  self->inner_frames = g_new (guint32, MAX (total, 1));
  fill = g_memdup2 (self->inner_start, (n + 1) * sizeof (guint32));
  for (guint i = 0; i < n; i++)
    if (boxes[i].shape == SL_GRAPH_SHAPE_CONTAINER && boxes[i].parent != SL_GRAPH_SCENE_NONE)
      self->inner_frames[fill[boxes[i].parent]++] = i;
  g_free (fill);
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
  g_free (self->text_height);
  g_free (self->inner_start);
  g_free (self->inner_frames);
  g_free (self->box_state);
  g_free (self->stamp);
  self->box_class = g_new0 (guint8, MAX (n, 1));
  self->text_height = g_new (float, MAX (n, 1));
  compute_text_heights (self);
  self->inner_start = g_new0 (guint32, n + 1);
  compute_inner_frames (self);
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
sl_graph_renderer_set_cache_text (SlGraphRenderer *self,
                                  gboolean         cache)
{
  g_return_if_fail (self != NULL);

  self->cache_text = !!cache;
  clear_text_cache (self);
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

void
sl_graph_renderer_set_verdicts (SlGraphRenderer *self,
                                const guint32   *ids,
                                const guint8    *verdicts,
                                guint            n_ids)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail ((ids != NULL && verdicts != NULL) || n_ids == 0);

  g_hash_table_remove_all (self->verdict_ids);
  for (guint i = 0; i < n_ids; i++)
    if (verdicts[i] <= 2)
      g_hash_table_insert (self->verdict_ids, GUINT_TO_POINTER (ids[i]), GUINT_TO_POINTER (verdicts[i] + 1u));
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
  if (self->box_class[box] == C_CONTAINER)
    {
      guint depth = MIN (sl_graph_scene_get_boxes (self->scene, NULL)[box].depth, MAX_DEPTH_COLORS - 1);

      memcpy (rgb, self->frame_fill[depth], sizeof self->frame_fill[depth]);
      return;
    }
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
  double k;

  r = MIN (r, MIN (w, h) / 2);
  if (r < 0.5)
    {
      cairo_rectangle (cr, x, y, w, h);
      return;
    }
  /* One Bézier a corner: several times cheaper than cairo_arc's. */
  k = r * 0.4477;
  cairo_move_to (cr, x + r, y);
  cairo_line_to (cr, x + w - r, y);
  cairo_curve_to (cr, x + w - k, y, x + w, y + k, x + w, y + r);
  cairo_line_to (cr, x + w, y + h - r);
  cairo_curve_to (cr, x + w, y + h - k, x + w - k, y + h, x + w - r, y + h);
  cairo_line_to (cr, x + r, y + h);
  cairo_curve_to (cr, x + k, y + h, x, y + h - k, x, y + h - r);
  cairo_line_to (cr, x, y + r);
  cairo_curve_to (cr, x, y + k, x + k, y, x + r, y);
  cairo_close_path (cr);
}

/* A rect with its top corners rounded: a frame's header band. */
static void
top_rounded_rect (cairo_t *cr,
                  double   x,
                  double   y,
                  double   w,
                  double   h,
                  double   r)
{
  double k;

  r = MIN (r, MIN (w / 2, h));
  k = r * 0.4477;
  cairo_move_to (cr, x + r, y);
  cairo_line_to (cr, x + w - r, y);
  cairo_curve_to (cr, x + w - k, y, x + w, y + k, x + w, y + r);
  cairo_line_to (cr, x + w, y + h);
  cairo_line_to (cr, x, y + h);
  cairo_line_to (cr, x, y + r);
  cairo_curve_to (cr, x, y + k, x + k, y, x + r, y);
  cairo_close_path (cr);
}

static void
ellipse (cairo_t *cr,
         double   x,
         double   y,
         double   w,
         double   h)
{
  double cx = x + w / 2, cy = y + h / 2, kx = w / 2 * 0.5523, ky = h / 2 * 0.5523;

  cairo_move_to (cr, x + w, cy);
  cairo_curve_to (cr, x + w, cy + ky, cx + kx, y + h, cx, y + h);
  cairo_curve_to (cr, cx - kx, y + h, x, cy + ky, x, cy);
  cairo_curve_to (cr, x, cy - ky, cx - kx, y, cx, y);
  cairo_curve_to (cr, cx + kx, y, x + w, cy - ky, x + w, cy);
  cairo_close_path (cr);
}

static inline void
set_rgb (cairo_t      *cr,
         const double  rgb[3])
{
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

/* The label of a box, shaped once: a layout of the whole text and its
 * width, and one ellipsized for the last width class a frame needed.
 * Cut at the start: in "Default/network/layers.17/attention/MatMul-op1234"
 * the end tells the boxes of a frame apart, the frame tells the start.
 * Text that fits whole is drawn whole at any zoom, so zooming and
 * panning reshape only the labels that must be cut, and only when their
 * width class changes. */
static PangoLayout *
new_text_layout (SlGraphRenderer *self,
                 guint            kind,
                 const char      *text)
{
  PangoLayout *layout = pango_layout_new (self->pango);

  pango_layout_set_font_description (layout, self->fonts[kind]);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

/* How a label is cut to @width: whole if it fits, else ellipsized to
 * the width class below. The cache and uncached drawing share it. */
static PangoLayout *
shape_text (SlGraphRenderer *self,
            guint            kind,
            const char      *text,
            double           width,
            int             *tw,
            int             *th)
{
  PangoLayout *layout = new_text_layout (self, kind, text);

  pango_layout_get_pixel_size (layout, tw, th);
  if (*tw > width)
    {
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_START);
      pango_layout_set_width (layout, (int) ((guint) (width / WIDTH_CLASS) * WIDTH_CLASS * PANGO_SCALE));
      pango_layout_get_pixel_size (layout, tw, th);
    }
  return layout;
}

static PangoLayout *
get_text (SlGraphRenderer *self,
          guint            box,
          guint            kind,
          const char      *text,
          double           width,
          int             *tw,
          int             *th)
{
  gint64 key = ((gint64) box << 2) | kind;
  CachedText *t = g_hash_table_lookup (self->text_cache, &key);
  guint width_class;

  if (t == NULL)
    {
      if (g_hash_table_size (self->text_cache) > TEXT_CACHE_LIMIT)
        g_hash_table_remove_all (self->text_cache);

      t = g_new0 (CachedText, 1);
      t->layout = new_text_layout (self, kind, text);
      pango_layout_get_pixel_size (t->layout, &t->width, &t->height);
      g_hash_table_insert (self->text_cache, g_memdup2 (&key, sizeof key), t);
    }
  if (t->width <= width)
    {
      *tw = t->width;
      *th = t->height;
      return t->layout;
    }

  width_class = (guint) (width / WIDTH_CLASS);
  if (t->cut == NULL || t->cut_class != width_class)
    {
      if (t->cut == NULL)
        {
          t->cut = new_text_layout (self, kind, text);
          pango_layout_set_ellipsize (t->cut, PANGO_ELLIPSIZE_START);
        }
      pango_layout_set_width (t->cut, (int) (width_class * WIDTH_CLASS * PANGO_SCALE));
      pango_layout_get_pixel_size (t->cut, &t->cut_width, &t->cut_height);
      t->cut_class = width_class;
    }
  *tw = t->cut_width;
  *th = t->cut_height;
  return t->cut;
}

/* Writes @text centred at (@x, @cy), or from @x when @x_is_left, if a
 * line fits in @avail_w × @avail_h. (A centre may be left of the view:
 * the box's label is then partly in view, where it belongs.) */
static gboolean
draw_text (SlGraphRenderer *self,
           cairo_t         *cr,
           guint            box,
           guint            kind,
           const char      *text,
           gboolean         x_is_left,
           double           x,
           double           cy,
           double           avail_w,
           double           avail_h,
           const double     rgb[3])
{
  int tw, th;
  PangoLayout *layout;
  /* Zoomed out, text shrinks with the boxes (down to a readable size),
   * so a box keeps the words it shows at zoom 1 instead of "…taset". */
  double scale = self->text_scale > 0 ? self->text_scale : 1.0;

  if (text == NULL || text[0] == '\0' || avail_w < WIDTH_CLASS * 2 || avail_h < self->line_height[kind] * scale)
    return FALSE;
  avail_w /= scale;

  if (self->naive)
    {
      /* What a simple viewer does: lay out each label every frame. */
      if (self->scratch == NULL)
        self->scratch = pango_layout_new (self->pango);
      layout = self->scratch;
      pango_layout_set_font_description (layout, self->fonts[kind]);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_START);
      pango_layout_set_width (layout, (int)(avail_w * PANGO_SCALE));
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
    }
  else if (!self->cache_text)
    {
      g_clear_object (&self->scratch);
      self->scratch = shape_text (self, kind, text, avail_w, &tw, &th);
      layout = self->scratch;
    }
  else
    {
      layout = get_text (self, box, kind, text, avail_w, &tw, &th);
    }

  set_rgb (cr, rgb);
  if (scale < 1.0)
    {
      cairo_save (cr);
      cairo_translate (cr, x_is_left ? x : x - tw * scale / 2.0, cy - th * scale / 2.0);
      cairo_scale (cr, scale, scale);
      cairo_move_to (cr, 0, 0);
      pango_cairo_show_layout (cr, layout);
      cairo_restore (cr);
    }
  else
    {
      cairo_move_to (cr, x_is_left ? round (x) : round (x - tw / 2.0), round (cy - th / 2.0));
      pango_cairo_show_layout (cr, layout);
    }
  self->last_n_labels++;
  return TRUE;
}

/* A frame's outline cut to the view and a margin wider than any stroke:
 * the corners that are cut away are square, the cut sides lie outside
 * the view. With @bottom_rounded FALSE, a header band's. FALSE when none
 * of it is in view. */
static gboolean
frame_path (cairo_t               *cr,
            const SlGraphViewport *vp,
            double                 x,
            double                 y,
            double                 w,
            double                 h,
            double                 radius,
            gboolean               bottom_rounded)
{
  double x0 = MAX (x, -FRAME_MARGIN), y0 = MAX (y, -FRAME_MARGIN);
  double x1 = MIN (x + w, vp->width + FRAME_MARGIN), y1 = MIN (y + h, vp->height + FRAME_MARGIN);
  gboolean left = x0 == x, top = y0 == y, right = x1 == x + w, bottom = y1 == y + h;
  double r = MIN (radius, MIN (w / 2, bottom_rounded ? h / 2 : h)), k = r * 0.4477;
  double tl, tr, br, bl;

  if (x1 <= x0 || y1 <= y0)
    return FALSE;
  if (r < 0.5)
    r = 0;
  tl = left && top ? r : 0;
  tr = right && top ? r : 0;
  br = right && bottom && bottom_rounded ? r : 0;
  bl = left && bottom && bottom_rounded ? r : 0;

  /* One Bézier a corner, as rounded_rect() */
  cairo_move_to (cr, x0 + tl, y0);
  cairo_line_to (cr, x1 - tr, y0);
  if (tr > 0)
    cairo_curve_to (cr, x1 - k, y0, x1, y0 + k, x1, y0 + tr);
  cairo_line_to (cr, x1, y1 - br);
  if (br > 0)
    cairo_curve_to (cr, x1, y1 - k, x1 - k, y1, x1 - br, y1);
  cairo_line_to (cr, x0 + bl, y1);
  if (bl > 0)
    cairo_curve_to (cr, x0 + k, y1, x0, y1 - k, x0, y1 - bl);
  cairo_line_to (cr, x0, y0 + tl);
  if (tl > 0)
    cairo_curve_to (cr, x0, y0 + k, x0 + k, y0, x0 + tl, y0);
  cairo_close_path (cr);
  return TRUE;
}

static gboolean
is_bitmap_target (cairo_t *cr)
{
  cairo_surface_type_t type = cairo_surface_get_type (cairo_get_target (cr));

  return type == CAIRO_SURFACE_TYPE_IMAGE || type == CAIRO_SURFACE_TYPE_RECORDING;
}

/* Whole pixels inside a frame's rounded outline (@x, @y, @w, @h): a
 * cross that leaves out the corners. */
static void
frame_cross (double                 x,
             double                 y,
             double                 w,
             double                 h,
             double                 radius,
             cairo_rectangle_int_t  rects[3],
             int                   *corner)
{
  int x0 = (int) ceil (x), y0 = (int) ceil (y), x1 = (int) floor (x + w), y1 = (int) floor (y + h);
  int r = (int) ceil (MIN (radius, MIN (w, h) / 2));

  rects[0] = (cairo_rectangle_int_t) { x0, y0 + r, MAX (x1 - x0, 0), MAX (y1 - y0 - 2 * r, 0) };
  rects[1] = (cairo_rectangle_int_t) { x0 + r, y0, MAX (x1 - x0 - 2 * r, 0), MIN (r, MAX (y1 - y0, 0)) };
  rects[2] = (cairo_rectangle_int_t) { x0 + r, MAX (y1 - r, y0), MAX (x1 - x0 - 2 * r, 0), MIN (r, MAX (y1 - y0, 0)) };
  *corner = r;
}

/* Fills a large frame only where the frames inside it leave it showing,
 * as whole-pixel rectangles (cairo's fastest fill) and its four corners.
 * The view inside a layer lies under half a dozen nested frames, and
 * filling each whole was most of a frame's time at zoom 0.5 (4.6 of
 * 6.4 ms for the frames). Pixels the fill leaves out at the outline's
 * edge lie under the outline's stroke. FALSE on a vector target, which
 * gets the path. */
static gboolean
fill_frame_uncovered (SlGraphRenderer       *self,
                      cairo_t               *cr,
                      const SlGraphViewport *vp,
                      guint                  index,
                      double                 x,
                      double                 y,
                      double                 w,
                      double                 h,
                      double                 radius)
{
  const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (self->scene, NULL);
  cairo_rectangle_int_t view = { -1, -1, vp->width + 2, vp->height + 2 }, rects[3];
  cairo_region_t *region;
  double r = MIN (radius, MIN (w, h) / 2), k = r * 0.4477;
  int n, R;

  if (!is_bitmap_target (cr))
    return FALSE;

  frame_cross (x, y, w, h, radius, rects, &R);
  region = cairo_region_create_rectangles (rects, 3);
  cairo_region_intersect_rectangle (region, &view);
  for (guint32 i = self->inner_start[index]; i < self->inner_start[index + 1] && !cairo_region_is_empty (region); i++)
    {
      Rect c = to_screen (vp, &boxes[self->inner_frames[i]]);
      int inner_r;

      frame_cross (c.x + 0.5, c.y + 0.5, c.w - 1, c.h - 1, CLAMP (6 * vp->zoom, 1, 6), rects, &inner_r);
      for (guint j = 0; j < 3; j++)
        cairo_region_subtract_rectangle (region, &rects[j]);
    }
  n = cairo_region_num_rectangles (region);
  cairo_new_path (cr);
  for (int i = 0; i < n; i++)
    {
      cairo_rectangle_int_t rect;

      cairo_region_get_rectangle (region, i, &rect);
      cairo_rectangle (cr, rect.x, rect.y, rect.width, rect.height);
    }
  cairo_fill (cr);
  cairo_region_destroy (region);

  /* The corners, each the part of its square inside the outline. */
  if (R > 0)
    {
      int x0 = (int) ceil (x), y0 = (int) ceil (y), x1 = (int) floor (x + w), y1 = (int) floor (y + h);

      for (guint bottom = 0; bottom < 2; bottom++)
        {
          double cy = bottom ? y + h : y, sy = bottom ? -1 : 1;
          int inner_y = bottom ? y1 - R : y0 + R;

          if ((bottom ? inner_y : y) > vp->height + 1 || (bottom ? y + h : inner_y) < -1)
            continue;
          if (x < vp->width + 1 && x0 + R > -1)
            {
              cairo_move_to (cr, x0 + R, inner_y);
              cairo_line_to (cr, x0 + R, cy);
              cairo_line_to (cr, x + r, cy);
              cairo_curve_to (cr, x + k, cy, x, cy + sy * k, x, cy + sy * r);
              cairo_line_to (cr, x, inner_y);
              cairo_close_path (cr);
            }
          if (x1 - R < vp->width + 1 && x + w > -1)
            {
              cairo_move_to (cr, x1 - R, inner_y);
              cairo_line_to (cr, x1 - R, cy);
              cairo_line_to (cr, x + w - r, cy);
              cairo_curve_to (cr, x + w - k, cy, x + w, cy + sy * k, x + w, cy + sy * r);
              cairo_line_to (cr, x + w, inner_y);
              cairo_close_path (cr);
            }
          cairo_fill (cr);
        }
    }
  return TRUE;
}

/* A one-pixel outline around (@x, @y, @w, @h), which lie on pixel
 * centres: the sides as whole-pixel rectangles, cut to the view, and
 * the rounded corners stroked. FALSE when too small for that. */
static gboolean
outline_on_pixels (cairo_t               *cr,
                   const SlGraphViewport *vp,
                   double                 x,
                   double                 y,
                   double                 w,
                   double                 h,
                   double                 radius)
{
  double r = MIN (radius, MIN (w, h) / 2), k;
  int R = (int) ceil (r);
  double left = -FRAME_MARGIN, top = -FRAME_MARGIN, right = vp->width + FRAME_MARGIN, bottom = vp->height + FRAME_MARGIN;
  int x0 = (int) (x - 0.5), y0 = (int) (y - 0.5), x1 = (int) (x + w - 0.5), y1 = (int) (y + h - 0.5);
  double hx0 = MAX (x0 + R, left), hx1 = MIN (x1 + 1 - R, right);
  double vy0 = MAX (y0 + R, top), vy1 = MIN (y1 + 1 - R, bottom);

  if (w < 2 * R + 2 || h < 2 * R + 2)
    return FALSE;
  r = R;
  k = r * 0.4477;

  /* Sides */
  if (hx1 > hx0)
    {
      if (y0 >= top && y0 < bottom)
        cairo_rectangle (cr, hx0, y0, hx1 - hx0, 1);
      if (y1 >= top && y1 < bottom)
        cairo_rectangle (cr, hx0, y1, hx1 - hx0, 1);
    }
  if (vy1 > vy0)
    {
      if (x0 >= left && x0 < right)
        cairo_rectangle (cr, x0, vy0, 1, vy1 - vy0);
      if (x1 >= left && x1 < right)
        cairo_rectangle (cr, x1, vy0, 1, vy1 - vy0);
    }
  cairo_fill (cr);

  /* Corners in view, top pair and bottom pair apart so cairo does not
   * scan the rows between them. */
  for (guint bottom_pair = 0; bottom_pair < 2; bottom_pair++)
    {
      double cy = bottom_pair ? y + h : y, sy = bottom_pair ? -1 : 1;
      gboolean any = FALSE;

      if (cy + R < top || cy - R > bottom)
        continue;
      if (x + R > left && x - R < right)
        {
          cairo_move_to (cr, x + r, cy);
          cairo_curve_to (cr, x + k, cy, x, cy + sy * k, x, cy + sy * r);
          any = TRUE;
        }
      if (x + w + R > left && x + w - R < right)
        {
          cairo_move_to (cr, x + w - r, cy);
          cairo_curve_to (cr, x + w - k, cy, x + w, cy + sy * k, x + w, cy + sy * r);
          any = TRUE;
        }
      if (any)
        cairo_stroke (cr);
    }
  return TRUE;
}

static void
set_frame_stroke (SlGraphRenderer       *self,
                  cairo_t               *cr,
                  const SlGraphSceneBox *b,
                  guint8                 state)
{
  cairo_set_line_width (cr, 1);
  if (b->flags & SL_GRAPH_BOX_ERROR)
    set_rgb (cr, self->error), cairo_set_line_width (cr, 2);
  else if (b->flags & SL_GRAPH_BOX_WARNING)
    set_rgb (cr, self->warning), cairo_set_line_width (cr, 2);
  else if (state & STATE_MARKED)
    set_rgb (cr, self->marker), cairo_set_line_width (cr, 2.5);
  else
    set_rgb (cr, self->colors[C_CONTAINER].stroke);
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

  guint depth = MIN (b->depth, MAX_DEPTH_COLORS - 1);
  double x = r.x + 0.5, y = r.y + 0.5, w = r.w - 1, h = r.h - 1;

  if (self->naive)
    {
      /* The peer fills and strokes every frame whole. */
      rounded_rect (cr, x, y, w, h, radius);
      set_rgb (cr, self->frame_fill[depth]);
      cairo_fill (cr);
      if (band >= 4)
        {
          top_rounded_rect (cr, x, y, w, band, radius);
          set_rgb (cr, self->frame_header[depth]);
          cairo_fill (cr);
        }
      rounded_rect (cr, x, y, w, h, radius);
      set_frame_stroke (self, cr, b, state);
      cairo_stroke (cr);
      if (band >= 4)
        draw_text (self, cr, index, TEXT_HEADER, b->label, TRUE, r.x + LABEL_PADDING, r.y + band / 2,
                   r.w - 2 * LABEL_PADDING, band + 2, c->text);
      return;
    }

  /* On whole pixels, so a plain outline is four one-pixel rectangles and
   * four corners instead of an antialiased stroke around the frame
   * (frame outlines were the largest cost in the zoomed-in views), and
   * crisp. */
  x = round (r.x) + 0.5, y = round (r.y) + 0.5;
  w = round (r.x + r.w) - round (r.x) - 1, h = round (r.y + r.h) - round (r.y) - 1;
  band = round (band);
  radius = MAX (round (radius), 1);

  /* Opaque, one shade deeper a level: as cheap to fill as it gets. Only
   * what is in view is filled and outlined: at zoom 1 the gradients'
   * frame is 200,000 pixels tall, and a path that size costs cairo
   * milliseconds to clip. */
  if (w <= 0 || h <= 0 || !frame_path (cr, vp, x, y, w, h, radius, TRUE))
    return;
  set_rgb (cr, self->frame_fill[depth]);
  if (w * h >= LARGE_FRAME_AREA && fill_frame_uncovered (self, cr, vp, index, x, y, w, h, radius))
    cairo_new_path (cr);
  else
    cairo_fill (cr);
  if (band >= 4 && frame_path (cr, vp, x, y, w, band, radius, FALSE))
    {
      set_rgb (cr, self->frame_header[depth]);
      cairo_fill (cr);
    }
  set_frame_stroke (self, cr, b, state);
  if ((b->flags & (SL_GRAPH_BOX_ERROR | SL_GRAPH_BOX_WARNING)) || (state & STATE_MARKED)
      || !outline_on_pixels (cr, vp, x, y, w, h, radius))
    {
      frame_path (cr, vp, x, y, w, h, radius, TRUE);
      cairo_stroke (cr);
    }

  /* The name stays in view as long as part of the band is: a frame
   * wider than the view shows it at the view's left edge. */
  if (band >= 4)
    {
      double left = MAX (r.x, 0) + LABEL_PADDING, right = MIN (r.x + r.w, vp->width) - LABEL_PADDING;

      draw_text (self, cr, index, TEXT_HEADER, b->label, TRUE, left, r.y + band / 2, right - left, band + 2, c->text);
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

static gboolean
is_batched (const SlGraphSceneBox *b)
{
  return b->shape == SL_GRAPH_SHAPE_OP || b->shape == SL_GRAPH_SHAPE_PARAMETER || b->shape == SL_GRAPH_SHAPE_CONST;
}

static void
path_batched (const SlGraphViewport *vp,
              cairo_t               *cr,
              const SlGraphSceneBox *b)
{
  Rect r = to_screen (vp, b);

  if (b->shape == SL_GRAPH_SHAPE_PARAMETER)
    ellipse (cr, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
  else if (b->shape == SL_GRAPH_SHAPE_CONST)
    rounded_rect (cr, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1, r.h / 2);
  else
    rounded_rect (cr, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1, CLAMP (5 * vp->zoom, 1, 6));
}

/* Ops, parameters and consts of one colour in one path: one fill and one
 * stroke a colour instead of two a box. */
static void
draw_batched_shapes (SlGraphRenderer       *self,
                     cairo_t               *cr,
                     const SlGraphViewport *vp,
                     const SlGraphSceneBox *boxes)
{
  guint32 used[2] = { 0, 0 };

  for (guint i = 0; i < self->nodes->len; i++)
    {
      guint32 index = g_array_index (self->nodes, guint32, i);

      if (is_batched (&boxes[index]))
        used[boxes[index].shape == SL_GRAPH_SHAPE_CONST] |= 1u << self->box_class[index];
    }
  cairo_set_line_width (cr, 1);
  /* Constants' chips after the rest: they sit inside their ops. */
  for (guint chips = 0; chips < 2; chips++)
    for (guint c = 0; c < N_CLASSES; c++)
      {
        const ClassColors *colors = &self->colors[c];

        if (!(used[chips] & (1u << c)))
          continue;
        for (guint i = 0; i < self->nodes->len; i++)
          {
            guint32 index = g_array_index (self->nodes, guint32, i);

            if (self->box_class[index] == c && is_batched (&boxes[index])
                && (boxes[index].shape == SL_GRAPH_SHAPE_CONST) == chips)
              path_batched (vp, cr, &boxes[index]);
          }
        cairo_set_source_rgba (cr, colors->fill[0], colors->fill[1], colors->fill[2], colors->fill[3]);
        cairo_fill_preserve (cr);
        set_rgb (cr, colors->stroke);
        cairo_stroke (cr);
      }
}

static void
draw_node (SlGraphRenderer       *self,
           cairo_t               *cr,
           const SlGraphViewport *vp,
           guint                  index,
           const SlGraphSceneBox *b,
           gboolean               shape_drawn)
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
  if (shape_drawn && is_batched (b))
    {
      /* Only the outline of a flag over the batched one. */
      if (stroke_w > 1)
        {
          path_batched (vp, cr, b);
          set_rgb (cr, stroke);
          cairo_stroke (cr);
        }
      if (b->shape == SL_GRAPH_SHAPE_CONST)
        {
          draw_text (self, cr, index, TEXT_CHIP, b->label, FALSE, r.x + r.w / 2, r.y + r.h / 2,
                     r.w - r.h, r.h + 2, c->text);
          draw_outline (self, cr, b, index, r, r.h / 2, c);
          return;
        }
      if (b->shape == SL_GRAPH_SHAPE_PARAMETER)
        text_x = r.x + r.w * 0.14, text_w = r.w * 0.72;
    }
  else switch (b->shape)
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
      draw_text (self, cr, index, TEXT_CHIP, b->label, FALSE, r.x + r.w / 2, r.y + r.h / 2,
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
    double h = b->shape == SL_GRAPH_SHAPE_COLLAPSED ? r.h - CLAMP (4 * vp->zoom, 1.5, 4) : self->text_height[index] * vp->zoom;
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
        draw_text (self, cr, index, TEXT_LABEL, b->label, FALSE, text_x + text_w / 2,
                   top + self->line_height[TEXT_LABEL] / 2.0, avail, h, c->text);
        draw_text (self, cr, index, TEXT_DETAIL, b->detail, FALSE, text_x + text_w / 2,
                   top + self->line_height[TEXT_LABEL] + self->line_height[TEXT_DETAIL] / 2.0, avail, h, detail_rgb);
      }
    else
      draw_text (self, cr, index, TEXT_LABEL, b->label, FALSE, text_x + text_w / 2, r.y + h / 2, avail, h, c->text);
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

static gboolean clip_segment (double  x0,
                              double  y0,
                              double  x1,
                              double  y1,
                              double  left,
                              double  top,
                              double  right,
                              double  bottom,
                              double *t0,
                              double *t1);

/* Adds polyline segments to the path; with @clip, only their parts near
 * the view: at zoom 1 an edge from a broadcast node runs for 100,000
 * pixels, and cairo strokes all of it before clipping. The cut ends lie
 * outside the view, beyond any join. */
typedef struct {
  cairo_t               *cr;
  const SlGraphViewport *vp;
  gboolean               clip;
  gboolean               down;
} Pen;

static void
pen_segment (Pen    *pen,
             double  x0,
             double  y0,
             double  x1,
             double  y1)
{
  double t0 = 0, t1 = 1;

  if (pen->clip
      && !clip_segment (x0, y0, x1, y1, -EDGE_MARGIN, -EDGE_MARGIN, pen->vp->width + EDGE_MARGIN,
                        pen->vp->height + EDGE_MARGIN, &t0, &t1))
    {
      pen->down = FALSE;
      return;
    }
  if (!pen->down || t0 > 0)
    cairo_move_to (pen->cr, x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0);
  cairo_line_to (pen->cr, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1);
  pen->down = t1 >= 1;
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
           GArray                  *heads,
           gboolean                 clip)
{
  const SlGraphScenePoint *p = points + e->first_point;
  double lx = (p[0].x - vp->x) * vp->zoom, ly = (p[0].y - vp->y) * vp->zoom;
  double ex = (p[e->n_points - 1].x - vp->x) * vp->zoom, ey = (p[e->n_points - 1].y - vp->y) * vp->zoom;
  Pen pen = { cr, vp, clip, FALSE };

  for (guint i = 1; i + 1 < e->n_points; i++)
    {
      double x = (p[i].x - vp->x) * vp->zoom, y = (p[i].y - vp->y) * vp->zoom;

      if (fabs (x - lx) + fabs (y - ly) < 1)
        continue;
      pen_segment (&pen, lx, ly, x, y);
      lx = x;
      ly = y;
    }
  if (arrow > 0 && heads != NULL)
    {
      double dx = ex - lx, dy = ey - ly, len = hypot (dx, dy);

      if (len > arrow * 0.8)
        {
          double ux = dx / len, uy = dy / len;
          double bx = ex - ux * arrow, by = ey - uy * arrow;
          double half = arrow * 0.42 + line_w * 0.3;
          double tri[6] = { ex, ey, bx - uy * half, by + ux * half, bx + uy * half, by - ux * half };

          if (!clip || (ex > -EDGE_MARGIN && ey > -EDGE_MARGIN && ex < vp->width + EDGE_MARGIN
                        && ey < vp->height + EDGE_MARGIN))
            g_array_append_vals (heads, tri, 6);
          pen_segment (&pen, lx, ly, ex - ux * arrow * 0.7, ey - uy * arrow * 0.7);
          return;
        }
    }
  pen_segment (&pen, lx, ly, ex, ey);
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

/* Clips a segment to a rectangle (Liang–Barsky); FALSE when outside. */
static gboolean
clip_segment (double  x0,
              double  y0,
              double  x1,
              double  y1,
              double  left,
              double  top,
              double  right,
              double  bottom,
              double *t0,
              double *t1)
{
  double p[4] = { x0 - x1, x1 - x0, y0 - y1, y1 - y0 };
  double q[4] = { x0 - left, right - x0, y0 - top, bottom - y0 };

  *t0 = 0, *t1 = 1;
  for (guint i = 0; i < 4; i++)
    {
      if (p[i] == 0)
        {
          if (q[i] < 0)
            return FALSE;
          continue;
        }
      if (p[i] < 0)
        *t0 = MAX (*t0, q[i] / p[i]);
      else
        *t1 = MIN (*t1, q[i] / p[i]);
    }
  return *t0 <= *t1;
}

/* Strokes the current path dashed, only where it is in view: cairo's
 * dasher makes every dash of a path, and a trunk from a broadcast node
 * runs for 100,000 pixels at zoom 1. The dash offset follows the length
 * from the start, so the dashes do not crawl when the view pans. */
static void
stroke_dashed_in_view (cairo_t               *cr,
                       const SlGraphViewport *vp)
{
  cairo_path_t *path = cairo_copy_path (cr);
  static const double dash[] = { 5, 3.5 };
  double left = -16, top = -16, right = vp->width + 16, bottom = vp->height + 16;
  double lx = 0, ly = 0, along = 0;
  gboolean in_run = FALSE;

  cairo_new_path (cr);
  for (int i = 0; i < path->num_data; i += path->data[i].header.length)
    {
      cairo_path_data_t *d = &path->data[i];
      double x, y, len, t0, t1;

      if (d->header.type == CAIRO_PATH_MOVE_TO)
        {
          if (in_run)
            cairo_stroke (cr), in_run = FALSE;
          lx = d[1].point.x, ly = d[1].point.y;
          along = 0;
          continue;
        }
      if (d->header.type != CAIRO_PATH_LINE_TO)
        continue;
      x = d[1].point.x, y = d[1].point.y;
      len = hypot (x - lx, y - ly);
      if (clip_segment (lx, ly, x, y, left, top, right, bottom, &t0, &t1))
        {
          if (!in_run || t0 > 0)
            {
              if (in_run)
                cairo_stroke (cr);
              cairo_set_dash (cr, dash, 2, along + t0 * len);
              cairo_move_to (cr, lx + (x - lx) * t0, ly + (y - ly) * t0);
              in_run = TRUE;
            }
          cairo_line_to (cr, lx + (x - lx) * t1, ly + (y - ly) * t1);
          if (t1 < 1)
            cairo_stroke (cr), in_run = FALSE;
        }
      else if (in_run)
        cairo_stroke (cr), in_run = FALSE;
      along += len;
      lx = x, ly = y;
    }
  if (in_run)
    cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_path_destroy (path);
}

/* A back edge of a cycle: a ring where it leaves its source. */
static void
draw_rings (SlGraphRenderer       *self,
            cairo_t               *cr,
            const SlGraphViewport *vp,
            GArray                *list,
            double                 line_w,
            const double           rgb[3],
            double                 alpha,
            gboolean               arrows)
{
  const SlGraphSceneEdge *edges = sl_graph_scene_get_edges (self->scene, NULL);
  const SlGraphScenePoint *points = sl_graph_scene_get_points (self->scene, NULL);
  double radius = CLAMP (3.2 * vp->zoom, 1.5, 3.2) + line_w * 0.5;
  gboolean any = FALSE;

  if (!arrows && vp->zoom < 0.3)
    return;
  for (guint i = 0; i < list->len; i++)
    {
      const SlGraphSceneEdge *e = &edges[g_array_index (list, guint32, i)];
      const SlGraphScenePoint *p = points + e->first_point;

      if (!e->reversed)
        continue;
      cairo_new_sub_path (cr);
      cairo_arc (cr, (p[0].x - vp->x) * vp->zoom, (p[0].y - vp->y) * vp->zoom, radius, 0, 2 * G_PI);
      any = TRUE;
    }
  if (!any)
    return;
  set_rgb (cr, self->bg);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
  cairo_set_line_width (cr, 1.4);
  cairo_stroke (cr);
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
  for (guint i = 0; i < list->len; i++)
    {
      const SlGraphSceneEdge *e = &edges[g_array_index (list, guint32, i)];

      path_edge (self, cr, vp, e, points, arrow, line_w, heads, kind != SL_GRAPH_SCENE_EDGE_CONTROL);
      if (kind == SL_GRAPH_SCENE_EDGE_CONTROL)
        stroke_dashed_in_view (cr, vp);
      any_reversed |= e->reversed;
    }
  if (kind != SL_GRAPH_SCENE_EDGE_CONTROL)
    cairo_stroke (cr);
  if (heads->len > 0)
    fill_heads (cr, heads);

  if (any_reversed)
    draw_rings (self, cr, vp, list, line_w, rgb, alpha, arrows);
}

/* One segment of a thin line into an 8-bit coverage mask, taking the
 * larger coverage where lines meet: what filling the lines as one path
 * gives. A column (or a row, for a steep segment) gets the overlap of
 * the line's extent across it with each pixel, and the share of the
 * column the segment spans at an end with a cap; a segment joined to
 * another covers its end column whole, so joins show no notch. */
static inline void
cover_pixel (guint8 *pixel,
             float   cover)
{
  guint value = (guint) (cover * 255 + 0.5f);

  /* Union of coverages, as if independent: lines meeting in a pixel add
   * up without moiré where a fan of them converges, and one line drawn
   * twice stays close to once. */
  *pixel = (guint8) (*pixel + value - (*pixel * value + 127) / 255);
}

static void
raster_segment (guint8 *mask,
                int     stride,
                int     mw,
                int     mh,
                double  x0,
                double  y0,
                double  x1,
                double  y1,
                double  half_width,
                gboolean cap0,
                gboolean cap1)
{
  gboolean steep = fabs (y1 - y0) > fabs (x1 - x0);
  double u0 = steep ? y0 : x0, v0 = steep ? x0 : y0, u1 = steep ? y1 : x1, v1 = steep ? x1 : y1;
  int n_u = steep ? mh : mw, n_v = steep ? mw : mh;
  int step_u = steep ? stride : 1, step_v = steep ? 1 : stride;
  float slope, half_v, vc;
  int ua, ub;

  if (u1 < u0)
    {
      double t;
      gboolean c;

      t = u0, u0 = u1, u1 = t;
      t = v0, v0 = v1, v1 = t;
      c = cap0, cap0 = cap1, cap1 = c;
    }
  if (u1 - u0 < 1e-6)
    {
      u0 -= 0.5, u1 += 0.5;
      slope = 0;
    }
  else
    slope = (v1 - v0) / (u1 - u0);
  half_v = half_width * sqrtf (1 + slope * slope);
  /* Coordinates are clipped to a little more than the view: above -4,
   * so truncating after adding 4 is floor. */
  ua = MAX ((int) (u0 + 4) - 4, 0);
  ub = MIN ((int) ceil (u1), n_u);
  vc = v0 + (ua + 0.5 - u0) * slope;
  for (int u = ua; u < ub; u++, vc += slope)
    {
      float span = 1, lo, hi, c = vc;
      int va, vb;
      guint8 *column = mask + (gsize) u * step_u;

      if (u == ua || u + 1 >= ub)
        {
          /* The ends: where the segment is, and the share of it a cap
           * leaves out. */
          c = v0 + (CLAMP (u + 0.5, u0, u1) - u0) * slope;
          if (cap0 && u < u0)
            span -= u0 - u;
          if (cap1 && u + 1 > u1)
            span -= u + 1 - u1;
        }
      lo = c - half_v, hi = c + half_v;
      va = (int) (lo + 4) - 4;
      vb = MIN ((int) (hi + 4) - 4 + 1, n_v);
      if (va < 0)
        va = 0;
      if (vb - va == 1 && hi <= va + 1 && lo >= va)
        {
          /* A thin line inside one pixel: the usual case. */
          cover_pixel (column + (gsize) va * step_v, (hi - lo) * span);
          continue;
        }
      for (int v = va; v < vb; v++)
        {
          float cover = (MIN (v + 1, hi) - MAX (v, lo)) * span;

          if (cover > 0)
            cover_pixel (column + (gsize) v * step_v, MIN (cover, 1));
        }
    }
}

/* Thin edges are written into an 8-bit coverage mask of the part of
 * the view they cross and painted through it at once. Zoomed out, the
 * fitted LLM graph draws 1,400 edges, 285,000 pixels of line, much of it
 * fans of a thousand edges into one op: cairo strokes that in about
 * 25 ms, the mask takes a few. Zoomed in, fans of TupleGetItem outputs
 * cross the view the same way. Lines up to @max_width pixels go this
 * way (their joins need no rounding to look joined); arrowheads are
 * filled by cairo as stroke_edges() does, rings drawn alike. The
 * batches of @kind taken are emptied, thicker ones left for cairo. */
static void
raster_edges (SlGraphRenderer       *self,
              cairo_t               *cr,
              const SlGraphViewport *vp,
              guint                  kind,
              double                 alpha,
              gboolean               arrows,
              double                 max_width)
{
  const SlGraphSceneEdge *edges = sl_graph_scene_get_edges (self->scene, NULL);
  const SlGraphScenePoint *points = sl_graph_scene_get_points (self->scene, NULL);
  g_autoptr(GArray) pts = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (double));
  cairo_surface_t *mask;
  guint8 *data;
  int stride, ox, oy, mw, mh;
  double ex0 = G_MAXDOUBLE, ey0 = G_MAXDOUBLE, ex1 = -G_MAXDOUBLE, ey1 = -G_MAXDOUBLE;
  gboolean taken[4] = { FALSE, FALSE, FALSE, FALSE };

  if (vp->width <= 0 || vp->height <= 0)
    return;

  /* The lines on screen: runs of (first point, n points, width class) */
  for (guint w = 0; w < 4; w++)
    {
      GArray *batch = self->edge_batch[kind][w];
      double line_w = edge_width (vp, w), arrow = arrows ? arrow_size (vp) + line_w : 0;

      if (batch->len == 0 || line_w > max_width)
        continue;
      taken[w] = TRUE;
      for (guint i = 0; i < batch->len; i++)
        {
          const SlGraphSceneEdge *e = &edges[g_array_index (batch, guint32, i)];
          const SlGraphScenePoint *p = points + e->first_point;
          guint32 run[3] = { pts->len / 2, 0, w };
          double x, y, lx = 0, ly = 0;

          for (guint k = 0; k < e->n_points; k++)
            {
              x = (p[k].x - vp->x) * vp->zoom, y = (p[k].y - vp->y) * vp->zoom;
              if (k == e->n_points - 1 && arrow > 0 && run[1] > 0)
                {
                  double dx = x - lx, dy = y - ly, len = hypot (dx, dy);

                  if (len > arrow * 0.8)
                    {
                      double ux = dx / len, uy = dy / len;
                      double bx = x - ux * arrow, by = y - uy * arrow;
                      double half = arrow * 0.42 + line_w * 0.3;
                      double tri[6] = { x, y, bx - uy * half, by + ux * half, bx + uy * half, by - ux * half };

                      if (x > -EDGE_MARGIN && y > -EDGE_MARGIN && x < vp->width + EDGE_MARGIN && y < vp->height + EDGE_MARGIN)
                        g_array_append_vals (heads, tri, 6);
                      x -= ux * arrow * 0.7, y -= uy * arrow * 0.7;
                    }
                }
              g_array_append_val (pts, x);
              g_array_append_val (pts, y);
              run[1]++;
              if (k > 0)
                {
                  double t0, t1;

                  if (clip_segment (lx, ly, x, y, -2, -2, vp->width + 2, vp->height + 2, &t0, &t1))
                    {
                      double ax = lx + (x - lx) * t0, ay = ly + (y - ly) * t0;
                      double bx = lx + (x - lx) * t1, by = ly + (y - ly) * t1;
                      double pad = line_w / 2 + 2;

                      ex0 = MIN (ex0, MIN (ax, bx) - pad), ex1 = MAX (ex1, MAX (ax, bx) + pad);
                      ey0 = MIN (ey0, MIN (ay, by) - pad), ey1 = MAX (ey1, MAX (ay, by) + pad);
                    }
                }
              lx = x, ly = y;
            }
          g_array_append_vals (runs, run, 3);
        }
      self->last_n_edges += batch->len;
    }

  /* The mask covers what the lines cover: at 10 % the layers' column is a
   * fifth of the view, and clearing and painting the whole view through
   * the mask took longer than the lines. */
  ox = (int) MAX (floor (ex0), 0), oy = (int) MAX (floor (ey0), 0);
  mw = (int) MIN (ceil (ex1), vp->width) - ox, mh = (int) MIN (ceil (ey1), vp->height) - oy;
  if (mw > 0 && mh > 0)
    {
      const double *xy = (const double *) pts->data;

      mask = cairo_image_surface_create (CAIRO_FORMAT_A8, mw, mh);
      data = cairo_image_surface_get_data (mask);
      stride = cairo_image_surface_get_stride (mask);
      for (guint r = 0; r < runs->len; r += 3)
        {
          guint32 first = g_array_index (runs, guint32, r), n = g_array_index (runs, guint32, r + 1);
          double half = edge_width (vp, g_array_index (runs, guint32, r + 2)) / 2;

          for (guint k = 1; k < n; k++)
            {
              double lx = xy[2 * (first + k - 1)], ly = xy[2 * (first + k - 1) + 1];
              double x = xy[2 * (first + k)], y = xy[2 * (first + k) + 1];
              double t0, t1;

              /* Only the part in view (and a pixel around it). */
              if (clip_segment (lx, ly, x, y, -2, -2, vp->width + 2, vp->height + 2, &t0, &t1))
                raster_segment (data, stride, mw, mh,
                                lx + (x - lx) * t0 - ox, ly + (y - ly) * t0 - oy,
                                lx + (x - lx) * t1 - ox, ly + (y - ly) * t1 - oy,
                                half, k == 1 && t0 == 0, k + 1 == n && t1 == 1);
            }
        }
      cairo_surface_mark_dirty (mask);
      cairo_set_source_rgba (cr, self->edge_color[kind][0], self->edge_color[kind][1], self->edge_color[kind][2], alpha);
      cairo_mask_surface (cr, mask, ox, oy);
      cairo_surface_destroy (mask);
    }
  if (heads->len > 0)
    {
      cairo_set_source_rgba (cr, self->edge_color[kind][0], self->edge_color[kind][1], self->edge_color[kind][2], alpha);
      fill_heads (cr, heads);
    }

  /* Rings at the sources of back edges, as stroke_edges() draws them. */
  for (guint w = 0; w < 4; w++)
    {
      GArray *batch = self->edge_batch[kind][w];
      guint n_reversed = 0;

      if (!taken[w])
        continue;
      for (guint i = 0; i < batch->len; i++)
        {
          guint32 index = g_array_index (batch, guint32, i);

          if (edges[index].reversed)
            g_array_index (batch, guint32, n_reversed++) = index;
        }
      g_array_set_size (batch, n_reversed);
      draw_rings (self, cr, vp, batch, edge_width (vp, w), self->edge_color[kind], alpha, arrows);
      g_array_set_size (batch, 0);
    }
}

static void tiny_color (SlGraphRenderer *self,
                        guint            c,
                        double           rgb[3],
                        double          *alpha);

static void
fill_tiny (SlGraphRenderer *self,
           cairo_t         *cr,
           guint            c)
{
  GArray *rects = self->tiny[c];
  double rgb[3], alpha;

  if (rects->len == 0)
    return;
  tiny_color (self, c, rgb, &alpha);
  for (guint i = 0; i < rects->len; i++)
    {
      const Rect *r = &g_array_index (rects, Rect, i);

      cairo_rectangle (cr, r->x, r->y, r->w, r->h);
    }
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
  cairo_fill (cr);
  g_array_set_size (rects, 0);
}

static guint32
premultiplied (const double rgb[3],
               double       alpha)
{
  guint32 a = (guint32) (alpha * 255 + 0.5);

  return (a << 24) | ((guint32) (rgb[0] * alpha * 255 + 0.5) << 16)
         | ((guint32) (rgb[1] * alpha * 255 + 0.5) << 8) | (guint32) (rgb[2] * alpha * 255 + 0.5);
}

static void
tiny_color (SlGraphRenderer *self,
            guint            c,
            double           rgb[3],
            double          *alpha)
{
  const ClassColors *colors = &self->colors[c];

  if (c == C_CONTAINER)
    {
      /* Between the frame's stroke and the background. */
      for (guint k = 0; k < 3; k++)
        rgb[k] = (colors->stroke[k] + self->bg[k]) / 2;
      *alpha = 1;
      return;
    }
  /* Pale fills vanish at a pixel: small boxes show their stroke colour. */
  memcpy (rgb, (c >= C_MARKED) ? colors->fill : colors->stroke, 3 * sizeof (double));
  *alpha = 1;
}

/* The tiny and small boxes, snapped to pixels. On an image or a
 * recording (the widget's frames) they are written straight into a
 * bitmap of their extent and painted at once: tens of thousands of
 * overlapping rectangles in one cairo path cost tens of milliseconds to
 * rasterize, the bitmap a fraction of one. Vector exports get paths. */
static void
fill_tiny_layer (SlGraphRenderer       *self,
                 cairo_t               *cr,
                 const SlGraphViewport *vp,
                 gboolean               containers)
{
  cairo_surface_type_t type = cairo_surface_get_type (cairo_get_target (cr));
  guint c0 = containers ? C_CONTAINER : C_CONTAINER + 1, c1 = containers ? C_CONTAINER + 1 : N_CLASSES;
  int x0 = G_MAXINT, y0 = G_MAXINT, x1 = G_MININT, y1 = G_MININT;
  cairo_surface_t *bitmap;
  guint32 *pixels;
  int stride;

  if (type != CAIRO_SURFACE_TYPE_IMAGE && type != CAIRO_SURFACE_TYPE_RECORDING)
    {
      for (guint c = c0; c < c1; c++)
        fill_tiny (self, cr, c);
      return;
    }

  for (guint c = c0; c < c1; c++)
    for (guint i = 0; i < self->tiny[c]->len; i++)
      {
        const Rect *r = &g_array_index (self->tiny[c], Rect, i);

        x0 = MIN (x0, (int) r->x);
        y0 = MIN (y0, (int) r->y);
        x1 = MAX (x1, (int) (r->x + r->w));
        y1 = MAX (y1, (int) (r->y + r->h));
      }
  x0 = MAX (x0, 0);
  y0 = MAX (y0, 0);
  x1 = MIN (x1, vp->width);
  y1 = MIN (y1, vp->height);
  if (x1 <= x0 || y1 <= y0)
    {
      for (guint c = c0; c < c1; c++)
        g_array_set_size (self->tiny[c], 0);
      return;
    }

  bitmap = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, x1 - x0, y1 - y0);
  pixels = (guint32 *) cairo_image_surface_get_data (bitmap);
  stride = cairo_image_surface_get_stride (bitmap) / 4;
  for (guint c = c0; c < c1; c++)
    {
      double rgb[3], alpha;
      guint32 value;

      if (self->tiny[c]->len == 0)
        continue;
      tiny_color (self, c, rgb, &alpha);
      value = premultiplied (rgb, alpha);
      for (guint i = 0; i < self->tiny[c]->len; i++)
        {
          const Rect *r = &g_array_index (self->tiny[c], Rect, i);
          int rx0 = MAX ((int) r->x, x0) - x0, ry0 = MAX ((int) r->y, y0) - y0;
          int rx1 = MIN ((int) (r->x + r->w), x1) - x0, ry1 = MIN ((int) (r->y + r->h), y1) - y0;

          for (int y = ry0; y < ry1; y++)
            for (int x = rx0; x < rx1; x++)
              pixels[y * stride + x] = value;
        }
      g_array_set_size (self->tiny[c], 0);
    }
  cairo_surface_mark_dirty (bitmap);
  cairo_set_source_surface (cr, bitmap, x0, y0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
  cairo_fill (cr);
  cairo_surface_destroy (bitmap);
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
        draw_node (self, cr, vp, i, &boxes[i], FALSE);
    }
  for (guint i = 0; i < n_edges; i++)
    {
      double w = edge_width (vp, width_class_of_count (edges[i].count));

      set_rgb (cr, self->edge_color[edges[i].kind ? 1 : 0]);
      cairo_set_line_width (cr, w);
      path_edge (self, cr, vp, &edges[i], points, arrow_size (vp) + w, w, heads, FALSE);
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
  guint first_frame;

  g_return_if_fail (self != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail (vp != NULL && vp->zoom > 0);

  self->last_n_labels = self->last_n_boxes = self->last_n_edges = 0;
  self->text_scale = CLAMP (vp->zoom, MIN_TEXT_SCALE, 1.0);
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
  else if ((view_w + 2 * margin) * (view_h + 2 * margin) > 0.2 * bw * bh)
    {
      /* Much of it in view: a pass over all is cheaper than sorting the
       * grid's answer. */
      double qx0 = vp->x - margin, qy0 = vp->y - margin, qx1 = vp->x + view_w + margin, qy1 = vp->y + view_h + margin;

      for (guint32 i = 0; i < n_boxes; i++)
        {
          const SlGraphSceneBox *b = &boxes[i];

          if (b->x <= qx1 && b->x + b->width >= qx0 && b->y <= qy1 && b->y + b->height >= qy0)
            g_array_append_val (self->query_boxes, i);
        }
      for (guint32 i = 0; i < n_edges; i++)
        {
          const SlGraphScenePoint *p = points + edges[i].first_point;
          double ex0 = p[0].x, ey0 = p[0].y, ex1 = p[0].x, ey1 = p[0].y;

          for (guint k = 1; k < edges[i].n_points; k++)
            {
              ex0 = MIN (ex0, p[k].x), ex1 = MAX (ex1, p[k].x);
              ey0 = MIN (ey0, p[k].y), ey1 = MAX (ey1, p[k].y);
            }
          if (ex0 <= qx1 && ex1 >= qx0 && ey0 <= qy1 && ey1 >= qy0)
            g_array_append_val (self->query_edges, i);
        }
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
      if (index != self->selected
          && (MAX (r.w, r.h) < TINY_PX
              || (b->shape != SL_GRAPH_SHAPE_CONTAINER && (r.h < SMALL_HEIGHT_PX || r.w < SMALL_WIDTH_PX))))
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

  /* Pass 1: frames, outer before inner, then the tiny ones inside them.
   * Zoomed in, the view lies inside a dozen nested frames: the innermost
   * that covers all of it hides every frame before it, so drawing starts
   * there instead of filling the view a dozen times. */
  first_frame = 0;
  for (guint i = 0; i < self->frames->len; i++)
    {
      Rect r = to_screen (vp, &boxes[g_array_index (self->frames, guint32, i)]);

      if (r.x + 0.5 <= -FRAME_MARGIN && r.y + 0.5 <= -FRAME_MARGIN
          && r.x + r.w - 0.5 >= vp->width + FRAME_MARGIN && r.y + r.h - 0.5 >= vp->height + FRAME_MARGIN)
        first_frame = i;
    }
  for (guint i = first_frame; i < self->frames->len; i++)
    {
      guint32 index = g_array_index (self->frames, guint32, i);

      draw_frame (self, cr, vp, index, &boxes[index]);
    }
  fill_tiny_layer (self, cr, vp, TRUE);
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
  /* Zoomed far out, a little see-through, so crossings stay legible. */
  if (is_bitmap_target (cr))
    raster_edges (self, cr, vp, SL_GRAPH_SCENE_EDGE_DATA, arrows ? 1 : 0.7, arrows, arrows ? RASTER_MAX_WIDTH : G_MAXDOUBLE);
  for (guint k = 0; k < 2; k++)
    for (guint w = 0; w < 4; w++)
      {
        GArray *batch = self->edge_batch[k][w];

        self->last_n_edges += batch->len;
        stroke_edges (self, cr, vp, batch, k, edge_width (vp, w), self->edge_color[k], arrows ? 1 : 0.7, arrows);
        g_array_set_size (batch, 0);
      }
  if (self->sel_edges->len > 0)
    {
      /* Control edges stay dashed when highlighted. */
      for (guint i = 0; i < self->sel_edges->len; i++)
        {
          guint32 index = g_array_index (self->sel_edges, guint32, i);

          g_array_append_val (self->edge_batch[edges[index].kind ? 1 : 0][0], index);
        }
      for (guint k = 0; k < 2; k++)
        {
          stroke_edges (self, cr, vp, self->edge_batch[k][0], k, MAX (edge_width (vp, 0) * 1.6, 1.5),
                        self->accent, 1, TRUE);
          g_array_set_size (self->edge_batch[k][0], 0);
        }
      self->last_n_edges += self->sel_edges->len;
    }

  /* Pass 3: boxes, tiny ones batched by colour. */
  fill_tiny_layer (self, cr, vp, FALSE);
  draw_batched_shapes (self, cr, vp, boxes);
  for (guint i = 0; i < self->nodes->len; i++)
    {
      guint32 index = g_array_index (self->nodes, guint32, i);

      draw_node (self, cr, vp, index, &boxes[index], TRUE);
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
      if (self->box_class[i] >= C_MARKED)
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
