/* bench-graph-frames.c: drawing time of the graph canvas
 *
 * A scene shaped like the fully expanded graph of a 40-layer LLM (about
 * 20,000 op boxes in layer, attention and MLP frames, a few hundred edges
 * per layer and two broadcast nodes with long edges into every layer; see
 * build_bench_scene()) is drawn at 1920 × 1080 into a cairo image surface
 * through the renderer the canvas uses: at the full view (fitted), at 10 ×
 * and 100 × that zoom ("10%", "1%" of the height in view) and at zoom 1,
 * panning a little every frame as a drag does. The peer, in the same run
 * on the same scene, draws every box and edge with its label each frame
 * (what a simple viewer does).
 *
 * Goal (from the graph view issue): at most 8 ms median at the full view,
 * and at every other zoom.
 *
 * Usage: bench-graph-frames [FRAMES] [PNG-PREFIX]
 * (BENCH_NO_PEER=1 leaves the peer out, for profiling)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <glib.h>

#include "sl-graph-renderer.h"

#define WIDTH 1920
#define HEIGHT 1080
#define GOAL_MEDIAN_MS 8.0
#define PEER_FRAMES 5

#define N_LAYERS 40
#define OP_W 150.0
#define OP_H 36.0
#define PITCH_X 190.0
#define PITCH_Y 72.0
#define PAD 16.0
#define HEADER SL_GRAPH_RENDERER_HEADER_HEIGHT
#define ATTN_COLS 20
#define ATTN_ROWS 15
#define MLP_COLS 16
#define MLP_ROWS 10
#define LAYER_ROW_OPS 20
#define TRUNK_X -160.0

typedef struct {
  const char *name;
  double      times_fit;   /* zoom as a multiple of the fitted zoom; 0: zoom 1 */
} Level;

static const Level levels[] = {
  { "full", 1 },
  { "10%", 10 },
  { "1%", 100 },
  { "zoom 1", 0 },
};

static const char *op_types[] = {
  "MatMul", "Add", "Mul", "Reshape", "Transpose", "Softmax", "Cast", "RmsNorm",
  "BatchMatMul", "Concat", "StridedSlice", "SiLU", "TupleGetItem", "Load",
};

typedef struct {
  SlGraphScene *scene;
  guint         n_ops;
  guint         op_serial;
  guint         rng;
} Builder;

static guint
next_random (Builder *b)
{
  b->rng = b->rng * 1103515245 + 12345;
  return (b->rng >> 8) & 0xffffff;
}

static guint
add_frame (Builder    *b,
           guint       parent,
           guint16     depth,
           double      x,
           double      y,
           double      w,
           double      h,
           const char *label,
           const char *detail)
{
  SlGraphSceneBox box = {
    .x = x, .y = y, .width = w, .height = h,
    .parent = parent, .depth = depth, .shape = SL_GRAPH_SHAPE_CONTAINER, .heat = -1,
    .label = label, .detail = detail,
  };
  guint n;

  sl_graph_scene_get_boxes (b->scene, &n);
  box.id = 1000000 + n;
  return sl_graph_scene_add_box (b->scene, &box);
}

/* A grid of ops inside @parent, its index range in @first and @last. */
static void
add_ops (Builder    *b,
         guint       parent,
         guint16     depth,
         const char *scope,
         double      x0,
         double      y0,
         guint       cols,
         guint       rows,
         guint      *first)
{
  *first = G_MAXUINT;
  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < cols; c++)
      {
        guint serial = b->op_serial++;
        guint t = next_random (b) % G_N_ELEMENTS (op_types);
        g_autofree char *label = NULL;
        SlGraphSceneBox box = {
          .x = x0 + c * PITCH_X, .y = y0 + r * PITCH_Y, .width = OP_W, .height = OP_H,
          .id = serial, .parent = parent, .depth = depth, .shape = SL_GRAPH_SHAPE_OP,
          .detail = op_types[t],
        };
        guint index;

        if (serial % 10 == 3)
          {
            box.shape = SL_GRAPH_SHAPE_PARAMETER;
            label = g_strdup_printf ("%s/weight-%u", scope, serial);
            box.detail = "Parameter";
          }
        else
          label = g_strdup_printf ("%s/%s-op%u", scope, op_types[t], serial);
        if (t >= 12)
          box.flags |= SL_GRAPH_BOX_BOOKKEEPING;
        if (serial % 997 == 5)
          box.flags |= SL_GRAPH_BOX_WARNING;
        if (serial % 4999 == 7)
          box.flags |= SL_GRAPH_BOX_ERROR;
        /* A profile's share of time: mostly small, matmuls hot. */
        box.heat = t == 0 || t == 8 ? 0.55 + (next_random (b) % 450) / 1000.0 : (next_random (b) % 350) / 1000.0;
        box.label = label;
        index = sl_graph_scene_add_box (b->scene, &box);
        if (*first == G_MAXUINT)
          *first = index;
        b->n_ops++;
      }
}

static void
add_line (Builder             *b,
          guint                from,
          guint                to,
          SlGraphSceneEdgeKind kind,
          gboolean             reversed,
          guint                count)
{
  const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (b->scene, NULL);
  const SlGraphSceneBox *f = &boxes[from], *t = &boxes[to];
  SlGraphScenePoint p[4];
  double fx = f->x + f->width / 2, tx = t->x + t->width / 2;

  p[0] = (SlGraphScenePoint) { fx, f->y + f->height };
  if (fx == tx)
    {
      p[1] = (SlGraphScenePoint) { tx, t->y };
      sl_graph_scene_add_edge (b->scene, from, to, kind, reversed, count, p, 2);
      return;
    }
  p[1] = (SlGraphScenePoint) { fx, f->y + f->height + (PITCH_Y - OP_H) / 2 };
  p[2] = (SlGraphScenePoint) { tx, f->y + f->height + (PITCH_Y - OP_H) / 2 };
  p[3] = (SlGraphScenePoint) { tx, t->y };
  sl_graph_scene_add_edge (b->scene, from, to, kind, reversed, count, p, 4);
}

/* Edges of a grid of ops: down a row, some across, a few control. */
static void
add_grid_edges (Builder *b,
                guint    first,
                guint    cols,
                guint    rows)
{
  for (guint r = 0; r + 1 < rows; r++)
    for (guint c = 0; c < cols; c++)
      {
        guint from = first + r * cols + c;

        add_line (b, from, from + cols, SL_GRAPH_SCENE_EDGE_DATA, FALSE, from % 7 == 0 ? 3 : 1);
        if (next_random (b) % 3 == 0 && c + 1 < cols)
          add_line (b, from, from + cols + 1, SL_GRAPH_SCENE_EDGE_DATA, FALSE, 1);
        if (from % 23 == 0 && r + 2 < rows)
          add_line (b, from, from + 2 * cols, SL_GRAPH_SCENE_EDGE_CONTROL, FALSE, 1);
      }
}

/* The bench scene: a synthetic, fully expanded 40-layer LLM graph laid
 * out top-down. To be replaced by the real layout of the generated graph. */
static SlGraphScene *
build_bench_scene (void)
{
  Builder b = { .scene = sl_graph_scene_new (), .rng = 20261130 };
  double attn_w = ATTN_COLS * PITCH_X + 2 * PAD, attn_h = HEADER + PAD + ATTN_ROWS * PITCH_Y;
  double mlp_w = MLP_COLS * PITCH_X + 2 * PAD, mlp_h = HEADER + PAD + MLP_ROWS * PITCH_Y;
  double layer_w = attn_w + 2 * PAD;
  double layer_h = HEADER + PAD + PITCH_Y + attn_h + PAD + PITCH_Y + mlp_h + PAD;
  double top = 200;
  guint net, bcast[2], prev_last = G_MAXUINT;

  net = add_frame (&b, SL_GRAPH_SCENE_NONE, 0, TRUNK_X - 200, 0, layer_w - TRUNK_X + 240,
                   top + N_LAYERS * (layer_h + 60) + 40, "Default/network", "40 layers");
  {
    SlGraphSceneBox box = { .x = TRUNK_X - 120, .y = 60, .width = OP_W, .height = OP_H, .id = 900000,
                            .parent = net, .depth = 1, .shape = SL_GRAPH_SHAPE_PARAMETER, .heat = -1,
                            .label = "Default/network/model/freqs_cis", .detail = "Parameter" };

    bcast[0] = sl_graph_scene_add_box (b.scene, &box);
    box.x += PITCH_X;
    box.id++;
    box.shape = SL_GRAPH_SHAPE_OP;
    box.label = "Default/network/model/attention_mask/Tile-op7";
    box.detail = "Tile";
    bcast[1] = sl_graph_scene_add_box (b.scene, &box);
  }

  for (guint l = 0; l < N_LAYERS; l++)
    {
      double ly = top + l * (layer_h + 60), lx = 0;
      g_autofree char *layer_name = g_strdup_printf ("Default/network/layers.%u", l);
      g_autofree char *attn_name = g_strdup_printf ("%s/attention", layer_name);
      g_autofree char *mlp_name = g_strdup_printf ("%s/feed_forward", layer_name);
      guint layer, attn, mlp, row1, row2, attn_first, mlp_first;
      double y;

      layer = add_frame (&b, net, 1, lx, ly, layer_w, layer_h, layer_name, "LlamaDecodeLayer");
      y = ly + HEADER + PAD;
      add_ops (&b, layer, 2, layer_name, lx + PAD + PAD, y, LAYER_ROW_OPS, 1, &row1);
      y += PITCH_Y;
      attn = add_frame (&b, layer, 2, lx + PAD, y, attn_w, attn_h, attn_name, "LlamaAttention");
      add_ops (&b, attn, 3, attn_name, lx + 2 * PAD, y + HEADER + PAD, ATTN_COLS, ATTN_ROWS, &attn_first);
      y += attn_h + PAD;
      add_ops (&b, layer, 2, layer_name, lx + PAD + PAD, y, LAYER_ROW_OPS, 1, &row2);
      y += PITCH_Y;
      mlp = add_frame (&b, layer, 2, lx + PAD, y, mlp_w, mlp_h, mlp_name, "LlamaFeedForward");
      add_ops (&b, mlp, 3, mlp_name, lx + 2 * PAD, y + HEADER + PAD, MLP_COLS, MLP_ROWS, &mlp_first);

      for (guint c = 0; c < LAYER_ROW_OPS; c++)
        add_line (&b, row1 + c, attn_first + c, SL_GRAPH_SCENE_EDGE_DATA, FALSE, 1);
      add_grid_edges (&b, attn_first, ATTN_COLS, ATTN_ROWS);
      for (guint c = 0; c < LAYER_ROW_OPS; c++)
        add_line (&b, attn_first + (ATTN_ROWS - 1) * ATTN_COLS + c, row2 + c, SL_GRAPH_SCENE_EDGE_DATA, FALSE, 1);
      for (guint c = 0; c < MLP_COLS; c++)
        add_line (&b, row2 + c, mlp_first + c, SL_GRAPH_SCENE_EDGE_DATA, FALSE, c % 4 == 0 ? 4 : 1);
      add_grid_edges (&b, mlp_first, MLP_COLS, MLP_ROWS);
      if (prev_last != G_MAXUINT)
        add_line (&b, prev_last, row1, SL_GRAPH_SCENE_EDGE_DATA, FALSE, 1);
      prev_last = mlp_first + (MLP_ROWS - 1) * MLP_COLS;

      /* A back edge of a cycle, going up along the right side. */
      {
        const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (b.scene, NULL);
        const SlGraphSceneBox *f = &boxes[mlp_first + MLP_COLS - 1], *t = &boxes[attn_first + ATTN_COLS - 1];
        double rx = lx + layer_w - PAD / 2;
        SlGraphScenePoint p[] = {
          { f->x + f->width, f->y + f->height / 2 }, { rx, f->y + f->height / 2 },
          { rx, t->y + t->height / 2 }, { t->x + t->width, t->y + t->height / 2 },
        };

        sl_graph_scene_add_edge (b.scene, mlp_first + MLP_COLS - 1, attn_first + ATTN_COLS - 1,
                                 SL_GRAPH_SCENE_EDGE_DATA, TRUE, 1, p, G_N_ELEMENTS (p));
      }

      /* The broadcast nodes feed every layer along two trunks. */
      for (guint k = 0; k < 2; k++)
        {
          const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (b.scene, NULL);
          const SlGraphSceneBox *f = &boxes[bcast[k]], *t = &boxes[attn_first + 2 + k];
          double trunk = TRUNK_X + k * 24, join = t->y - (PITCH_Y - OP_H) / 2;
          SlGraphScenePoint p[] = {
            { f->x + f->width / 2, f->y + f->height }, { f->x + f->width / 2, f->y + f->height + 20 + k * 8 },
            { trunk, f->y + f->height + 20 + k * 8 }, { trunk, join }, { t->x + t->width / 2, join },
            { t->x + t->width / 2, t->y },
          };

          sl_graph_scene_add_edge (b.scene, bcast[k], attn_first + 2 + k, k == 0 ? SL_GRAPH_SCENE_EDGE_DATA
                                   : SL_GRAPH_SCENE_EDGE_CONTROL, FALSE, 1, p, G_N_ELEMENTS (p));
        }
    }

  sl_graph_scene_finish (b.scene);
  return b.scene;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof (double), compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double
worst (const double *v,
       guint         n)
{
  double w = 0;

  for (guint i = 0; i < n; i++)
    w = MAX (w, v[i]);
  return w;
}

static SlGraphViewport
level_viewport (SlGraphScene *scene,
                const Level  *level)
{
  double bx, by, bw, bh, fit;
  SlGraphViewport vp = { .width = WIDTH, .height = HEIGHT };

  sl_graph_scene_get_bounds (scene, &bx, &by, &bw, &bh);
  fit = MIN ((WIDTH - 48.0) / bw, (HEIGHT - 48.0) / bh);
  vp.zoom = level->times_fit > 0 ? fit * level->times_fit : 1;
  if (level->times_fit == 1)
    {
      vp.x = bx + bw / 2 - WIDTH / 2.0 / vp.zoom;
      vp.y = by + bh / 2 - HEIGHT / 2.0 / vp.zoom;
    }
  else
    {
      /* A third of the way across the layers, 37 % down the graph. */
      vp.x = bx + bw * 0.3 - WIDTH / 2.0 / vp.zoom;
      vp.y = by + bh * 0.37 - HEIGHT / 2.0 / vp.zoom;
    }
  return vp;
}

/* Draws @n_frames frames at @level; returns the median, sets the worst. */
static double
run_frames (SlGraphRenderer *renderer,
            cairo_t         *cr,
            SlGraphScene    *scene,
            const Level     *level,
            guint            n_frames,
            double          *worst_ms,
            double          *first_ms,
            guint           *n_labels)
{
  g_autofree double *times = g_new (double, n_frames);
  SlGraphViewport vp = level_viewport (scene, level);
  double y0 = vp.y;
  gint64 t;

  /* The first frame at a zoom shapes the labels it shows: timed alone. */
  t = g_get_monotonic_time ();
  sl_graph_renderer_draw (renderer, cr, &vp);
  cairo_surface_flush (cairo_get_target (cr));
  *first_ms = (g_get_monotonic_time () - t) / 1000.0;

  for (guint f = 0; f < n_frames; f++)
    {
      /* Three pixels a frame, as a drag does. */
      vp.y = y0 + f * 3 / vp.zoom;
      t = g_get_monotonic_time ();
      sl_graph_renderer_draw (renderer, cr, &vp);
      cairo_surface_flush (cairo_get_target (cr));
      times[f] = (g_get_monotonic_time () - t) / 1000.0;
    }
  *n_labels = sl_graph_renderer_get_last_n_labels (renderer);
  *worst_ms = worst (times, n_frames);
  return median (times, n_frames);
}

static void
write_png (SlGraphRenderer *renderer,
           cairo_t         *cr,
           SlGraphScene    *scene,
           const Level     *level,
           const char      *path)
{
  SlGraphViewport vp = level_viewport (scene, level);

  sl_graph_renderer_draw (renderer, cr, &vp);
  cairo_surface_write_to_png (cairo_get_target (cr), path);
}

int
main (int   argc,
      char *argv[])
{
  guint n_frames = argc > 1 ? (guint) atoi (argv[1]) : 100;
  const char *png_prefix = argc > 2 ? argv[2] : NULL;
  g_autoptr(SlGraphScene) scene = NULL;
  g_autoptr(SlGraphRenderer) renderer = sl_graph_renderer_new ();
  g_autoptr(SlGraphRenderer) naive = sl_graph_renderer_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  guint n_boxes, n_edges;
  gboolean full_met = TRUE, all_met = TRUE;
  gint64 t;

  t = g_get_monotonic_time ();
  scene = build_bench_scene ();
  sl_graph_scene_get_boxes (scene, &n_boxes);
  sl_graph_scene_get_edges (scene, &n_edges);
  g_print ("scene: %u boxes, %u edges, built in %.0f ms, %.1f MB\n", n_boxes, n_edges,
           (g_get_monotonic_time () - t) / 1000.0, sl_graph_scene_get_memory_size (scene) / 1e6);

  sl_graph_renderer_set_scene (renderer, scene);
  sl_graph_renderer_set_scene (naive, scene);
  sl_graph_renderer_set_naive (naive, TRUE);

  g_print ("%-8s %10s %10s %10s %8s | %14s %14s %8s\n", "view", "median ms", "worst ms", "first ms", "labels",
           "naive median", "naive worst", "ratio");
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      double med, worst_ms, first_ms, naive_med, naive_worst, naive_first;
      guint n_labels, naive_labels;

      med = run_frames (renderer, cr, scene, &levels[l], n_frames, &worst_ms, &first_ms, &n_labels);
      if (l == 0)
        full_met = med <= GOAL_MEDIAN_MS;
      all_met &= med <= GOAL_MEDIAN_MS;
      if (g_getenv ("BENCH_NO_PEER") != NULL)
        {
          g_print ("%-8s %10.2f %10.2f %10.2f %8u\n", levels[l].name, med, worst_ms, first_ms, n_labels);
          continue;
        }
      naive_med = run_frames (naive, cr, scene, &levels[l], PEER_FRAMES, &naive_worst, &naive_first, &naive_labels);
      g_print ("%-8s %10.2f %10.2f %10.2f %8u | %14.2f %14.2f %7.1fx\n", levels[l].name, med, worst_ms, first_ms,
               n_labels, naive_med, naive_worst, naive_med / MAX (med, 1e-3));
    }
  g_print ("goal (%.0f ms median at full view): %s; at every zoom: %s\n", GOAL_MEDIAN_MS,
           full_met ? "met" : "NOT met", all_met ? "met" : "NOT met");

  if (png_prefix != NULL)
    {
      guint32 marked[] = { 5005, 5010, 5017 };

      /* A selection and search hits where the zoomed views look. */
      {
        SlGraphViewport vp = level_viewport (scene, &levels[3]);
        guint box = sl_graph_scene_hit (scene, vp.x + WIDTH / 2.0 / vp.zoom, vp.y + HEIGHT / 2.0 / vp.zoom);

        sl_graph_renderer_set_selected (renderer, box);
        if (box != SL_GRAPH_SCENE_NONE)
          {
            guint32 id = sl_graph_scene_get_boxes (scene, NULL)[box].id;

            marked[0] = id + 2, marked[1] = id + 41, marked[2] = id - 3;
          }
      }
      sl_graph_renderer_set_marked_ids (renderer, marked, G_N_ELEMENTS (marked));
      for (guint dark = 0; dark < 2; dark++)
        {
          sl_graph_renderer_set_dark (renderer, dark);
          for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
            {
              g_autofree char *path = g_strdup_printf ("%s-%u-%s.png", png_prefix, l, dark ? "dark" : "light");

              write_png (renderer, cr, scene, &levels[l], path);
            }
        }
    }

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}
