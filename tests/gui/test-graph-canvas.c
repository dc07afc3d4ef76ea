/* test-graph-canvas.c: the graph canvas on a real display
 *
 * A hand-built scene (a frame with three boxes, one far away) in a
 * window: fitting shows its bounds at the computed zoom, Ctrl+zoom keeps
 * the scene point under the pointer, a new scene keeps the anchor box on
 * the same pixel, a click at a box's place selects it and a double click
 * or Enter activates it, Tab walks, the Menu key asks for a menu,
 * revealing a far box brings it into view, exports are real PNG, SVG and
 * PDF files. The renderer alone: a box's fill where the box is and the
 * background outside, no text laid out when zoomed far out, another
 * palette in dark style; the label cache draws what shaping anew draws,
 * byte for byte; the bitmap shortcuts (frames filled where uncovered,
 * far-out edges in a coverage mask) agree with plain cairo paths; a
 * frame's name stays in view. Screenshots go to the build folder's screenshots/.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "sl-graph-canvas.h"

#define WIN_W 1000
#define WIN_H 700

static GtkWidget *window;
static SlGraphCanvas *canvas;
static char *tmp_root;

/* Box indices of the test scene */
enum { FRAME, OP_A, OP_B, PARAM, FAR, N_TEST_BOXES };

static SlGraphScene *
build_scene (double a_x,
             double a_y)
{
  SlGraphScene *scene = sl_graph_scene_new ();
  SlGraphSceneBox frame = { 0, 0, 600, 400, 100, SL_GRAPH_SCENE_NONE, 0, SL_GRAPH_SHAPE_CONTAINER, 0, -1,
                            "Default/network", "3 nodes" };
  SlGraphSceneBox a = { a_x, a_y, 160, 40, 1, FRAME, 1, SL_GRAPH_SHAPE_OP, 0, -1,
                        "Default/network/MatMul-op1", "MatMul" };
  SlGraphSceneBox b = { 40, 200, 160, 40, 2, FRAME, 1, SL_GRAPH_SHAPE_OP, SL_GRAPH_BOX_ERROR, -1,
                        "Default/network/Add-op2", "Add" };
  SlGraphSceneBox p = { 300, 60, 160, 40, 3, FRAME, 1, SL_GRAPH_SHAPE_PARAMETER, 0, -1,
                        "Default/network/weight", "Parameter" };
  SlGraphSceneBox far = { 3000, 2000, 160, 40, 4, SL_GRAPH_SCENE_NONE, 0, SL_GRAPH_SHAPE_OP, 0, 0.9f,
                          "Default/far/Softmax-op4", "Softmax" };
  SlGraphScenePoint ab[] = { { a_x + 80, a_y + 40 }, { 120, 200 } };
  SlGraphScenePoint pa[] = { { 380, 100 }, { 380, 130 }, { a_x + 120, 130 }, { a_x + 120, a_y + 40 } };

  g_assert_cmpuint (sl_graph_scene_add_box (scene, &frame), ==, FRAME);
  g_assert_cmpuint (sl_graph_scene_add_box (scene, &a), ==, OP_A);
  g_assert_cmpuint (sl_graph_scene_add_box (scene, &b), ==, OP_B);
  g_assert_cmpuint (sl_graph_scene_add_box (scene, &p), ==, PARAM);
  g_assert_cmpuint (sl_graph_scene_add_box (scene, &far), ==, FAR);
  sl_graph_scene_add_edge (scene, OP_A, OP_B, SL_GRAPH_SCENE_EDGE_DATA, FALSE, 3, ab, G_N_ELEMENTS (ab));
  sl_graph_scene_add_edge (scene, PARAM, OP_A, SL_GRAPH_SCENE_EDGE_CONTROL, TRUE, 1, pa, G_N_ELEMENTS (pa));
  sl_graph_scene_finish (scene);
  return scene;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 100 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static gboolean
canvas_has_size (gpointer data)
{
  return gtk_widget_get_width (data) > 100 && gtk_widget_get_height (data) > 100;
}

static void
box_center (SlGraphScene *scene,
            guint         index,
            double       *x,
            double       *y)
{
  const SlGraphSceneBox *b = &sl_graph_scene_get_boxes (scene, NULL)[index];

  sl_graph_canvas_scene_to_widget (canvas, b->x + b->width / 2, b->y + b->height / 2, x, y);
}

static void
emit_on (GType       type,
         const char *signal,
         ...)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (canvas));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        {
          va_list args;

          va_start (args, signal);
          g_signal_emit_valist (controller, g_signal_lookup (signal, type), 0, args);
          va_end (args);
          return;
        }
    }
  g_assert_not_reached ();
}

static void
click (double x,
       double y,
       int    n_press)
{
  emit_on (GTK_TYPE_GESTURE_CLICK, "pressed", n_press, x, y);
}

static gboolean
press_key (guint           keyval,
           GdkModifierType state)
{
  gboolean handled = FALSE;

  emit_on (GTK_TYPE_EVENT_CONTROLLER_KEY, "key-pressed", keyval, 0, state, &handled);
  return handled;
}

static void
test_fit (void)
{
  g_autoptr(SlGraphScene) scene = build_scene (40, 60);
  double bx, by, bw, bh, x0, y0, x1, y1, expected;
  int w, h;

  sl_graph_canvas_set_scene (canvas, scene, SL_GRAPH_SCENE_NONE);
  g_assert_true (wait_until (canvas_has_size, canvas, 5000));
  settle ();
  g_assert_true (sl_graph_canvas_get_scene (canvas) == scene);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, SL_GRAPH_SCENE_NONE);

  /* The first scene is fitted: padding 24 on the tighter side, but no
   * smaller than its names can be read; then it starts at the top left,
   * the rest a scroll away. */
  w = gtk_widget_get_width (GTK_WIDGET (canvas));
  h = gtk_widget_get_height (GTK_WIDGET (canvas));
  sl_graph_scene_get_bounds (scene, &bx, &by, &bw, &bh);
  g_assert_cmpfloat (bw, ==, 3160);
  g_assert_cmpfloat (bh, ==, 2040);
  expected = MIN ((w - 48.0) / bw, (h - 48.0) / bh);
  g_assert_cmpfloat (expected, <, SL_GRAPH_CANVAS_MIN_FIT_ZOOM);
  expected = SL_GRAPH_CANVAS_MIN_FIT_ZOOM;
  g_assert_cmpfloat_with_epsilon (sl_graph_canvas_get_zoom (canvas), expected, 1e-9);
  sl_graph_canvas_scene_to_widget (canvas, bx, by, &x0, &y0);
  sl_graph_canvas_scene_to_widget (canvas, bx + bw, by + bh, &x1, &y1);
  g_assert_cmpfloat_with_epsilon (x0, 24, 1e-6);
  g_assert_cmpfloat_with_epsilon (y0, 24, 1e-6);
  g_assert_cmpfloat (x1, >, w);
  g_assert_cmpfloat (y1, >, h);
  /* Not all of it in view: the minimap shows where the view is. */
  g_assert_true (sl_graph_canvas_get_minimap_area (canvas, NULL));

  /* A scene that fits at a readable zoom is shown whole, centred. */
  {
    g_autoptr(SlGraphScene) small = sl_graph_scene_new ();
    SlGraphSceneBox op = { 0, 0, 160, 40, 1, SL_GRAPH_SCENE_NONE, 0, SL_GRAPH_SHAPE_OP, 0, -1, "MatMul-op1", "MatMul" };
    double sx, sy, sw, sh;

    sl_graph_scene_add_box (small, &op);
    sl_graph_scene_finish (small);

    sl_graph_canvas_set_scene (canvas, small, SL_GRAPH_SCENE_NONE);
    sl_graph_canvas_fit (canvas);
    sl_graph_scene_get_bounds (small, &sx, &sy, &sw, &sh);
    g_assert_cmpfloat (sl_graph_canvas_get_zoom (canvas), >=, SL_GRAPH_CANVAS_MIN_FIT_ZOOM);
    sl_graph_canvas_scene_to_widget (canvas, sx, sy, &x0, &y0);
    sl_graph_canvas_scene_to_widget (canvas, sx + sw, sy + sh, &x1, &y1);
    g_assert_cmpfloat (x0, >=, 23.999);
    g_assert_cmpfloat (y0, >=, 23.999);
    g_assert_cmpfloat_with_epsilon (x0, w - x1, 1e-6);
    g_assert_cmpfloat_with_epsilon (y0, h - y1, 1e-6);
    g_assert_false (sl_graph_canvas_get_minimap_area (canvas, NULL));
    sl_graph_canvas_set_scene (canvas, scene, SL_GRAPH_SCENE_NONE);
    sl_graph_canvas_fit (canvas);
  }

  /* 0 and graph.fit come back to the same view after zooming. */
  gtk_widget_activate_action (GTK_WIDGET (canvas), "graph.zoom-in", NULL);
  g_assert_cmpfloat_with_epsilon (sl_graph_canvas_get_zoom (canvas), expected * 1.25, 1e-9);
  g_assert_true (sl_graph_canvas_get_minimap_area (canvas, NULL));
  gtk_widget_activate_action (GTK_WIDGET (canvas), "graph.fit", NULL);
  g_assert_cmpfloat_with_epsilon (sl_graph_canvas_get_zoom (canvas), expected, 1e-9);
}

/* A narrow chain taller than a narrow view, as a run's dataset pipeline
 * in the dataset graph: fitted, it starts at the top and scrolls down,
 * and the minimap that then shows in the bottom right corner covers none
 * of its boxes (centred in the view, the widest did run under it). */
static void
test_fit_beside_minimap (void)
{
  g_autoptr(SlGraphScene) chain = sl_graph_scene_new ();
  GtkWidget *narrow_window = gtk_window_new ();
  SlGraphCanvas *narrow = SL_GRAPH_CANVAS (sl_graph_canvas_new ());
  const SlGraphSceneBox *boxes;
  graphene_rect_t area;
  guint n_boxes;

  for (guint i = 0; i < 10; i++)
    {
      double width = i % 3 == 2 ? 300 : 120;
      SlGraphSceneBox box = { (300 - width) / 2, i * 72, width, 34, i + 1, SL_GRAPH_SCENE_NONE, 0,
                              SL_GRAPH_SHAPE_OP, 0, -1, "MapDataset", "MapDataset" };

      sl_graph_scene_add_box (chain, &box);
    }
  sl_graph_scene_finish (chain);

  gtk_window_set_child (GTK_WINDOW (narrow_window), GTK_WIDGET (narrow));
  gtk_window_set_default_size (GTK_WINDOW (narrow_window), 380, 420);
  gtk_window_present (GTK_WINDOW (narrow_window));
  g_assert_true (wait_until (canvas_has_size, narrow, 5000));
  sl_graph_canvas_set_scene (narrow, chain, SL_GRAPH_SCENE_NONE);
  sl_graph_canvas_fit (narrow);
  settle ();

  g_assert_true (sl_graph_canvas_get_minimap_area (narrow, &area));
  boxes = sl_graph_scene_get_boxes (chain, &n_boxes);
  for (guint i = 0; i < n_boxes; i++)
    {
      double x0, y0, x1, y1;

      sl_graph_canvas_scene_to_widget (narrow, boxes[i].x, boxes[i].y, &x0, &y0);
      sl_graph_canvas_scene_to_widget (narrow, boxes[i].x + boxes[i].width, boxes[i].y + boxes[i].height, &x1, &y1);
      g_assert_cmpfloat (x0, >=, 23.999);
      if (y1 > area.origin.y && y0 < area.origin.y + area.size.height)
        g_assert_cmpfloat (x1, <=, area.origin.x);
    }
  gtk_window_destroy (GTK_WINDOW (narrow_window));
}

static guint zoom_notifies;

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *counter)
{
  (*counter)++;
}

static void
test_zoom_at_pointer (void)
{
  double sx, sy, ax, ay, x = 311, y = 207;
  gulong id = g_signal_connect (canvas, "notify::zoom", G_CALLBACK (count_notify_cb), &zoom_notifies);
  double before = sl_graph_canvas_get_zoom (canvas);

  sl_graph_canvas_widget_to_scene (canvas, x, y, &sx, &sy);
  sl_graph_canvas_zoom_at (canvas, x, y, 1.7);
  g_assert_cmpfloat_with_epsilon (sl_graph_canvas_get_zoom (canvas), before * 1.7, 1e-9);
  sl_graph_canvas_scene_to_widget (canvas, sx, sy, &ax, &ay);
  g_assert_cmpfloat_with_epsilon (ax, x, 1e-9);
  g_assert_cmpfloat_with_epsilon (ay, y, 1e-9);
  g_assert_cmpuint (zoom_notifies, ==, 1);

  /* And back out, same point */
  sl_graph_canvas_zoom_at (canvas, x, y, 1 / 1.7);
  sl_graph_canvas_scene_to_widget (canvas, sx, sy, &ax, &ay);
  g_assert_cmpfloat_with_epsilon (ax, x, 1e-9);
  g_assert_cmpfloat_with_epsilon (ay, y, 1e-9);
  g_signal_handler_disconnect (canvas, id);

  /* Zoom 1 on the frame for what follows */
  sl_graph_canvas_set_zoom (canvas, 1);
  sl_graph_canvas_set_origin (canvas, -50, -40);
  g_assert_cmpfloat (sl_graph_canvas_get_zoom (canvas), ==, 1);
}

static guint32 activated_id;
static guint n_activated;
static guint32 menu_id;
static double menu_x, menu_y;
static guint n_menus;

static void
activated_cb (SlGraphCanvas *c,
              guint          id)
{
  activated_id = id;
  n_activated++;
}

static void
context_menu_cb (SlGraphCanvas *c,
                 guint          id,
                 double         x,
                 double         y)
{
  menu_id = id;
  menu_x = x;
  menu_y = y;
  n_menus++;
}

static void
test_click_select_activate (void)
{
  SlGraphScene *scene = sl_graph_canvas_get_scene (canvas);
  guint selected_notifies = 0;
  gulong id = g_signal_connect (canvas, "notify::selected-id", G_CALLBACK (count_notify_cb), &selected_notifies);
  double x, y;

  g_signal_connect (canvas, "activated", G_CALLBACK (activated_cb), NULL);
  g_signal_connect (canvas, "context-menu", G_CALLBACK (context_menu_cb), NULL);

  box_center (scene, OP_B, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, 40 + 80 + 50, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, 200 + 20 + 40, 1e-9);
  click (x, y, 1);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, 2);
  g_assert_cmpuint (selected_notifies, ==, 1);
  g_assert_cmpuint (n_activated, ==, 0);

  /* Inside the frame but on no box: the frame */
  click (550 + 50, 350 + 40, 1);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, 100);
  /* On the background: none */
  click (800, 600, 1);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, SL_GRAPH_SCENE_NONE);

  box_center (scene, OP_A, &x, &y);
  click (x, y, 1);
  click (x, y, 2);
  g_assert_cmpuint (n_activated, ==, 1);
  g_assert_cmpuint (activated_id, ==, 1);
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, 1);

  /* Enter activates the selected box, Menu asks for its menu at its centre */
  g_assert_true (press_key (GDK_KEY_Return, 0));
  g_assert_cmpuint (n_activated, ==, 2);
  g_assert_true (press_key (GDK_KEY_Menu, 0));
  g_assert_cmpuint (n_menus, ==, 1);
  g_assert_cmpuint (menu_id, ==, 1);
  g_assert_cmpfloat_with_epsilon (menu_x, x, 1e-9);
  g_assert_cmpfloat_with_epsilon (menu_y, y, 1e-9);
  g_assert_true (press_key (GDK_KEY_F10, GDK_SHIFT_MASK));
  g_assert_cmpuint (n_menus, ==, 2);

  /* Tab walks the boxes in drawing order, Shift+Tab back */
  g_assert_true (press_key (GDK_KEY_Tab, 0));
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, 2);
  g_assert_true (press_key (GDK_KEY_Tab, 0));
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, 3);
  g_assert_true (press_key (GDK_KEY_ISO_Left_Tab, GDK_SHIFT_MASK));
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, 2);

  /* The renderer highlights the selection's neighbours */
  g_assert_cmpuint (sl_graph_renderer_get_selected (sl_graph_canvas_get_renderer (canvas)), ==, OP_B);
  sl_graph_canvas_set_selected_id (canvas, 1);
  g_signal_handler_disconnect (canvas, id);

  {
    g_autofree char *dir = g_build_filename (SCREENSHOT_DIR, NULL);
    guint32 marked[] = { 3 };

    sl_graph_canvas_set_marked_ids (canvas, marked, 1);
    g_assert_true (sl_graph_renderer_is_marked (sl_graph_canvas_get_renderer (canvas), PARAM));
    g_assert_cmpuint (save_window_screenshot (window, dir, "graph-canvas-light.png"), >, 0);
  }
}

static void
test_anchor (void)
{
  g_autoptr(SlGraphScene) moved = build_scene (250, 300);
  SlGraphScene *scene = sl_graph_canvas_get_scene (canvas);
  const SlGraphSceneBox *before = &sl_graph_scene_get_boxes (scene, NULL)[OP_A];
  const SlGraphSceneBox *after = &sl_graph_scene_get_boxes (moved, NULL)[OP_A];
  double x0, y0, x1, y1, zoom = sl_graph_canvas_get_zoom (canvas);

  sl_graph_canvas_zoom_at (canvas, 200, 100, 1.3);
  zoom = sl_graph_canvas_get_zoom (canvas);
  sl_graph_canvas_scene_to_widget (canvas, before->x, before->y, &x0, &y0);
  sl_graph_canvas_set_scene (canvas, moved, 1);
  sl_graph_canvas_scene_to_widget (canvas, after->x, after->y, &x1, &y1);
  g_assert_cmpfloat (after->x, !=, before->x);
  /* The same pixel, up to rounding of doubles */
  g_assert_cmpfloat_with_epsilon (x1, x0, 1e-9);
  g_assert_cmpfloat_with_epsilon (y1, y0, 1e-9);
  g_assert_cmpfloat (sl_graph_canvas_get_zoom (canvas), ==, zoom);
  /* The selection is kept by id */
  g_assert_cmpuint (sl_graph_canvas_get_selected_id (canvas), ==, 1);
  g_assert_cmpuint (sl_graph_renderer_get_selected (sl_graph_canvas_get_renderer (canvas)), ==, OP_A);

  /* Without an anchor the view stays */
  {
    g_autoptr(SlGraphScene) again = build_scene (40, 60);
    SlGraphViewport vp0, vp1;

    sl_graph_canvas_get_viewport (canvas, &vp0);
    sl_graph_canvas_set_scene (canvas, again, SL_GRAPH_SCENE_NONE);
    sl_graph_canvas_get_viewport (canvas, &vp1);
    g_assert_cmpfloat (vp0.x, ==, vp1.x);
    g_assert_cmpfloat (vp0.y, ==, vp1.y);
    g_assert_cmpfloat (vp0.zoom, ==, vp1.zoom);
  }
}

static void
test_reveal (void)
{
  SlGraphScene *scene = sl_graph_canvas_get_scene (canvas);
  const SlGraphSceneBox *far = &sl_graph_scene_get_boxes (scene, NULL)[FAR];
  double x0, y0, x1, y1;
  int w = gtk_widget_get_width (GTK_WIDGET (canvas)), h = gtk_widget_get_height (GTK_WIDGET (canvas));

  sl_graph_canvas_set_zoom (canvas, 0.5);
  sl_graph_canvas_set_origin (canvas, 0, 0);
  sl_graph_canvas_scene_to_widget (canvas, far->x, far->y, &x0, &y0);
  g_assert_true (x0 > w || y0 > h);

  g_assert_false (sl_graph_canvas_reveal_id (canvas, 12345));
  g_assert_true (sl_graph_canvas_reveal_id (canvas, 4));
  /* Zoomed to read it (40 units tall at 0.5 is 20 pixels) and centred */
  g_assert_cmpfloat (sl_graph_canvas_get_zoom (canvas), ==, 1);
  sl_graph_canvas_scene_to_widget (canvas, far->x, far->y, &x0, &y0);
  sl_graph_canvas_scene_to_widget (canvas, far->x + far->width, far->y + far->height, &x1, &y1);
  g_assert_cmpfloat (x0, >=, 0);
  g_assert_cmpfloat (y0, >=, 0);
  g_assert_cmpfloat (x1, <=, w);
  g_assert_cmpfloat (y1, <=, h);
  g_assert_cmpfloat_with_epsilon ((x0 + x1) / 2, w / 2.0, 1e-6);
}

static void
export_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
result_arrived (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

static void
test_export (void)
{
  g_autofree char *png = g_build_filename (tmp_root, "graph.png", NULL);
  g_autofree char *view_png = g_build_filename (tmp_root, "view.png", NULL);
  g_autofree char *svg = g_build_filename (tmp_root, "graph.svg", NULL);
  g_autofree char *pdf = g_build_filename (tmp_root, "graph.pdf", NULL);
  g_autoptr(GFile) png_file = g_file_new_for_path (png);
  g_autoptr(GFile) view_file = g_file_new_for_path (view_png);
  g_autoptr(GFile) svg_file = g_file_new_for_path (svg);
  g_autoptr(GFile) pdf_file = g_file_new_for_path (pdf);
  g_autoptr(GFile) bad_file = g_file_new_for_path ("/nonexistent-folder/graph.png");
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  SlGraphExportFormat format;
  cairo_surface_t *image;
  gsize length;

  g_assert_true (sl_graph_export_format_from_name ("a/b.PNG", &format));
  g_assert_cmpint (format, ==, SL_GRAPH_EXPORT_PNG);
  g_assert_true (sl_graph_export_format_from_name ("x.svg", &format));
  g_assert_cmpint (format, ==, SL_GRAPH_EXPORT_SVG);
  g_assert_true (sl_graph_export_format_from_name ("x.pdf", &format));
  g_assert_cmpint (format, ==, SL_GRAPH_EXPORT_PDF);
  g_assert_false (sl_graph_export_format_from_name ("x.jpeg", &format));
  g_assert_false (sl_graph_export_format_from_name ("png", &format));

  /* The whole scene at zoom 1 with a 24-unit margin */
  g_assert_true (sl_graph_canvas_export (canvas, png_file, SL_GRAPH_EXPORT_PNG, TRUE, &error));
  g_assert_no_error (error);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, 3160 + 48);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 2040 + 48);
  cairo_surface_destroy (image);

  g_assert_true (sl_graph_canvas_export (canvas, view_file, SL_GRAPH_EXPORT_PNG, FALSE, &error));
  image = cairo_image_surface_create_from_png (view_png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image), ==, gtk_widget_get_width (GTK_WIDGET (canvas)));
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, gtk_widget_get_height (GTK_WIDGET (canvas)));
  cairo_surface_destroy (image);

  g_assert_true (sl_graph_canvas_export (canvas, svg_file, SL_GRAPH_EXPORT_SVG, TRUE, &error));
  g_assert_true (g_file_get_contents (svg, &contents, &length, NULL));
  g_assert_true (g_str_has_prefix (contents, "<?xml"));
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_nonnull (strstr (contents, "3208"));
  g_clear_pointer (&contents, g_free);

  g_assert_true (sl_graph_canvas_export (canvas, pdf_file, SL_GRAPH_EXPORT_PDF, FALSE, &error));
  g_assert_true (g_file_get_contents (pdf, &contents, &length, NULL));
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  g_assert_cmpuint (length, >, 500);

  /* A file that cannot be written: an error naming it */
  g_assert_false (sl_graph_canvas_export (canvas, bad_file, SL_GRAPH_EXPORT_PNG, TRUE, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent-folder/graph.png"));
  g_clear_error (&error);

  /* On a worker: the same bytes as the export on this thread. */
  {
    g_autofree char *async_png = g_build_filename (tmp_root, "graph-async.png", NULL);
    g_autoptr(GFile) async_file = g_file_new_for_path (async_png);
    g_autofree char *sync_bytes = NULL;
    g_autofree char *async_bytes = NULL;
    gsize sync_length, async_length;
    GAsyncResult *result = NULL;

    sl_graph_canvas_export_async (canvas, async_file, SL_GRAPH_EXPORT_PNG, TRUE, NULL, export_done, &result);
    g_assert_true (wait_until (result_arrived, &result, 20000));
    g_assert_true (sl_graph_canvas_export_finish (canvas, result, &error));
    g_assert_no_error (error);
    g_clear_object (&result);
    g_assert_true (g_file_get_contents (png, &sync_bytes, &sync_length, NULL));
    g_assert_true (g_file_get_contents (async_png, &async_bytes, &async_length, NULL));
    g_assert_cmpmem (sync_bytes, sync_length, async_bytes, async_length);

    sl_graph_canvas_export_async (canvas, bad_file, SL_GRAPH_EXPORT_PNG, TRUE, NULL, export_done, &result);
    g_assert_true (wait_until (result_arrived, &result, 20000));
    g_assert_false (sl_graph_canvas_export_finish (canvas, result, &error));
    g_assert_nonnull (strstr (error->message, "/nonexistent-folder/graph.png"));
    g_clear_object (&result);
  }
}

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  const guchar *data = cairo_image_surface_get_data (surface);

  return ((const guint32 *) (data + y * cairo_image_surface_get_stride (surface)))[x];
}

static void
assert_pixel_is (cairo_surface_t *surface,
                 int              x,
                 int              y,
                 const double     rgb[3])
{
  guint32 p = pixel_at (surface, x, y);
  int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

  g_assert_cmpint (abs (r - (int) round (rgb[0] * 255)), <=, 1);
  g_assert_cmpint (abs (g - (int) round (rgb[1] * 255)), <=, 1);
  g_assert_cmpint (abs (b - (int) round (rgb[2] * 255)), <=, 1);
}

static void
test_renderer_pixels (void)
{
  g_autoptr(SlGraphScene) scene = build_scene (40, 60);
  g_autoptr(SlGraphRenderer) renderer = sl_graph_renderer_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 700, 450);
  cairo_t *cr = cairo_create (surface);
  SlGraphViewport vp = { 0, 0, 1, 700, 450 };
  double op[3], frame[3], bg[3], far[3], dark_bg[3], dark_op[3];

  sl_graph_renderer_set_scene (renderer, scene);
  sl_graph_renderer_draw (renderer, cr, &vp);
  cairo_surface_flush (surface);
  sl_graph_renderer_get_box_color (renderer, OP_A, op);
  sl_graph_renderer_get_box_color (renderer, FRAME, frame);
  sl_graph_renderer_get_box_color (renderer, FAR, far);
  sl_graph_renderer_get_background (renderer, bg);

  /* Inside box A above its text, inside the frame on no box, outside all */
  assert_pixel_is (surface, 120, 62, op);
  assert_pixel_is (surface, 45, 63, op);
  assert_pixel_is (surface, 500, 300, frame);
  assert_pixel_is (surface, 650, 100, bg);
  assert_pixel_is (surface, 650, 440, bg);
  /* The frame's fill is not the background, the hot box not an op's */
  g_assert_true (fabs (frame[0] - bg[0]) + fabs (frame[1] - bg[1]) + fabs (frame[2] - bg[2]) > 0.02);
  g_assert_true (fabs (far[0] - op[0]) + fabs (far[1] - op[1]) + fabs (far[2] - op[2]) > 0.2);
  /* Labels: the frame's, A, B and the parameter with their details */
  g_assert_cmpuint (sl_graph_renderer_get_last_n_labels (renderer), ==, 7);
  g_assert_cmpuint (sl_graph_renderer_get_last_n_boxes (renderer), ==, 4);
  g_assert_cmpuint (sl_graph_renderer_get_last_n_edges (renderer), ==, 2);

  /* Far out: boxes are plain rects, no text is laid out */
  vp.zoom = 0.005;
  vp.x = -1000;
  vp.y = -1000;
  sl_graph_renderer_draw (renderer, cr, &vp);
  g_assert_cmpuint (sl_graph_renderer_get_last_n_labels (renderer), ==, 0);
  g_assert_cmpuint (sl_graph_renderer_get_last_n_boxes (renderer), ==, 2);   /* the frame hides its boxes */
  g_assert_cmpuint (sl_graph_renderer_get_last_n_edges (renderer), ==, 0);

  /* Dark: another background and fills, drawn as it says */
  sl_graph_renderer_set_dark (renderer, TRUE);
  g_assert_true (sl_graph_renderer_get_dark (renderer));
  sl_graph_renderer_get_background (renderer, dark_bg);
  sl_graph_renderer_get_box_color (renderer, OP_A, dark_op);
  g_assert_cmpfloat (dark_bg[0] + dark_bg[1] + dark_bg[2], <, 1);
  g_assert_cmpfloat (bg[0] + bg[1] + bg[2], >, 2.5);
  g_assert_true (fabs (dark_op[0] - op[0]) + fabs (dark_op[1] - op[1]) + fabs (dark_op[2] - op[2]) > 0.5);
  vp = (SlGraphViewport) { 0, 0, 1, 700, 450 };
  sl_graph_renderer_draw (renderer, cr, &vp);
  cairo_surface_flush (surface);
  assert_pixel_is (surface, 120, 62, dark_op);
  assert_pixel_is (surface, 650, 100, dark_bg);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}


/* A scene whose labels are cut at some zooms and whole at others, with
 * frames wider than the view, chips under an op's text and long edges:
 * what the label cache, the frame fills and the edge mask meet. */
static SlGraphScene *
build_busy_scene (void)
{
  SlGraphScene *scene = sl_graph_scene_new ();
  SlGraphSceneBox outer = { -400, 0, 2400, 900, 100, SL_GRAPH_SCENE_NONE, 0, SL_GRAPH_SHAPE_CONTAINER, 0, -1,
                            "Default/network-TrainOneStepCell/network-WithLossCell", "40 ops" };
  SlGraphSceneBox inner = { -300, 60, 1200, 500, 101, 0, 1, SL_GRAPH_SHAPE_CONTAINER, 0, -1,
                            "layers-CellList/0-LLamaDecodeLayer/attention-LLamaAttention", "30 ops" };
  guint first = 0;

  g_assert_cmpuint (sl_graph_scene_add_box (scene, &outer), ==, 0);
  g_assert_cmpuint (sl_graph_scene_add_box (scene, &inner), ==, 1);
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *label = g_strdup_printf ("%s-op%u", i % 3 ? "BatchMatMul" : "Add", 1000 + i * 37);
      SlGraphSceneBox op = { -280 + (i % 10) * 118, 110 + (i / 10) * 140, 100 + (i % 4) * 10, i % 5 == 0 ? 60 : 40,
                             i, 1, 2, i % 7 == 3 ? SL_GRAPH_SHAPE_PARAMETER : SL_GRAPH_SHAPE_OP, 0,
                             i % 4 == 0 ? 0.1f * (i % 10) : -1, label, "float32[8,4096]" };
      guint index = sl_graph_scene_add_box (scene, &op);

      if (i == 0)
        first = index;
      if (i % 5 == 0)
        {
          SlGraphSceneBox chip = { op.x + 8, op.y + 36, 60, 16, 500 + i, index, 3, SL_GRAPH_SHAPE_CONST, 0, -1,
                                   "cst_shape", NULL };

          sl_graph_scene_add_box (scene, &chip);
        }
    }
  {
    const SlGraphSceneBox *boxes = sl_graph_scene_get_boxes (scene, NULL);
    guint n;

    sl_graph_scene_get_boxes (scene, &n);
    for (guint i = first; i + 1 < n; i++)
      {
        const SlGraphSceneBox *a = &boxes[i], *b = &boxes[(i * 7 + 3) % (n - first) + first];
        SlGraphScenePoint p[] = { { a->x + a->width / 2, a->y + a->height },
                                  { a->x + a->width / 2, a->y + a->height + 20 },
                                  { b->x + b->width / 2, b->y - 20 }, { b->x + b->width / 2, b->y } };

        if (a->shape == SL_GRAPH_SHAPE_CONST || b->shape == SL_GRAPH_SHAPE_CONST || a == b)
          continue;
        sl_graph_scene_add_edge (scene, i, b - boxes, i % 6 == 0 ? SL_GRAPH_SCENE_EDGE_CONTROL : SL_GRAPH_SCENE_EDGE_DATA,
                                 i % 11 == 0, 1 + i % 5, p, G_N_ELEMENTS (p));
      }
  }
  sl_graph_scene_finish (scene);
  return scene;
}

/* The label cache draws what shaping every label anew draws, byte for
 * byte, however the zoom went before: whole where a label fits, cut
 * where it does not, in light and dark. */
static void
test_label_cache (void)
{
  g_autoptr(SlGraphScene) scene = build_busy_scene ();
  g_autoptr(SlGraphRenderer) cached = sl_graph_renderer_new ();
  g_autoptr(SlGraphRenderer) uncached = sl_graph_renderer_new ();
  static const double zooms[] = { 1, 0.8, 0.55, 1.3, 0.8, 2, 1, 0.62, 1 };
  cairo_surface_t *a = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 600);
  cairo_surface_t *b = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 600);
  cairo_t *cr_a = cairo_create (a), *cr_b = cairo_create (b);
  guint total_labels = 0;

  sl_graph_renderer_set_scene (cached, scene);
  sl_graph_renderer_set_scene (uncached, scene);
  sl_graph_renderer_set_cache_text (uncached, FALSE);
  for (guint dark = 0; dark < 2; dark++)
    {
      sl_graph_renderer_set_dark (cached, dark);
      sl_graph_renderer_set_dark (uncached, dark);
      for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
        {
          SlGraphViewport vp = { -250 + i * 13, 40 + i * 7, zooms[i], 900, 600 };

          sl_graph_renderer_draw (cached, cr_a, &vp);
          sl_graph_renderer_draw (uncached, cr_b, &vp);
          cairo_surface_flush (a);
          cairo_surface_flush (b);
          g_assert_cmpuint (sl_graph_renderer_get_last_n_labels (cached), ==,
                            sl_graph_renderer_get_last_n_labels (uncached));
          g_assert_true (memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                                 (gsize) cairo_image_surface_get_stride (a) * 600) == 0);
          total_labels += sl_graph_renderer_get_last_n_labels (cached);
        }
    }
  g_assert_cmpuint (total_labels, >, 200);

  /* Another font empties the cache; still the same pixels. */
  {
    g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("Sans 11");
    SlGraphViewport vp = { -250, 40, 0.8, 900, 600 };

    sl_graph_renderer_set_font (cached, font);
    sl_graph_renderer_set_font (uncached, font);
    sl_graph_renderer_draw (cached, cr_a, &vp);
    sl_graph_renderer_draw (uncached, cr_b, &vp);
    cairo_surface_flush (a);
    cairo_surface_flush (b);
    g_assert_true (memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                           (gsize) cairo_image_surface_get_stride (a) * 600) == 0);
  }

  cairo_destroy (cr_a);
  cairo_destroy (cr_b);
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
}

/* Bitmaps get frames filled only where no inner frame covers them and
 * far-out edges written into a coverage mask; other targets get plain
 * cairo paths. Drawn both ways (a subsurface of an image is not an
 * image to the renderer) the two agree: frames to the pixel away from
 * their outlines, edges within a little antialiasing. */
static void
test_bitmap_paths_agree (void)
{
  g_autoptr(SlGraphScene) scene = build_busy_scene ();
  g_autoptr(SlGraphRenderer) renderer = sl_graph_renderer_new ();
  static const double zooms[] = { 1, 0.3, 0.12 };

  sl_graph_renderer_set_scene (renderer, scene);
  for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
    {
      cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 600);
      cairo_surface_t *target = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 600);
      cairo_surface_t *sub = cairo_surface_create_for_rectangle (target, 0, 0, 900, 600);
      cairo_t *cr = cairo_create (image);
      cairo_t *cr_sub = cairo_create (sub);
      SlGraphViewport vp = { -320, -20, zooms[i], 900, 600 };
      guint64 sum = 0, n_far = 0;
      int stride = cairo_image_surface_get_stride (image) / 4;
      const guint32 *p, *q;

      sl_graph_renderer_draw (renderer, cr, &vp);
      sl_graph_renderer_draw (renderer, cr_sub, &vp);
      cairo_surface_flush (image);
      cairo_surface_flush (target);
      p = (const guint32 *) cairo_image_surface_get_data (image);
      q = (const guint32 *) cairo_image_surface_get_data (target);
      for (int y = 0; y < 600; y++)
        for (int x = 0; x < 900; x++)
          {
            guint32 u = p[y * stride + x], v = q[y * stride + x];
            int d = 0;

            for (int k = 0; k < 24; k += 8)
              d = MAX (d, abs ((int) ((u >> k) & 0xff) - (int) ((v >> k) & 0xff)));
            sum += d;
            n_far += d > 48;
          }
      /* Mostly identical; differences at outlines and along edges. */
      g_assert_cmpfloat ((double) sum / (900 * 600), <, 1.5);
      g_assert_cmpuint (n_far, <, 900 * 600 / 200);

      cairo_destroy (cr);
      cairo_destroy (cr_sub);
      cairo_surface_destroy (sub);
      cairo_surface_destroy (image);
      cairo_surface_destroy (target);
    }
}

/* A frame wider than the view keeps its name at the view's left edge;
 * an op's text sits above its chips. */
static void
test_header_in_view (void)
{
  g_autoptr(SlGraphScene) scene = build_busy_scene ();
  g_autoptr(SlGraphRenderer) renderer = sl_graph_renderer_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 400);
  cairo_t *cr = cairo_create (surface);
  /* The outer frame starts 200 units left of the view */
  SlGraphViewport vp = { -200, -10, 1, 600, 400 };
  guint n_text = 0;
  double frame[3];

  sl_graph_renderer_set_scene (renderer, scene);
  sl_graph_renderer_draw (renderer, cr, &vp);
  cairo_surface_flush (surface);
  sl_graph_renderer_get_box_color (renderer, 0, frame);
  /* Text in the outer frame's band (y 10..34), left of the inner frame */
  for (int y = 12; y < 32; y++)
    for (int x = 4; x < 90; x++)
      {
        guint32 p = pixel_at (surface, x, y);
        int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

        n_text += abs (r - (int) (frame[0] * 255)) + abs (g - (int) (frame[1] * 255)) + abs (b - (int) (frame[2] * 255)) > 80;
      }
  g_assert_cmpuint (n_text, >, 20);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_dark_style (void)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autofree char *dir = g_build_filename (SCREENSHOT_DIR, NULL);

  g_assert_false (sl_graph_renderer_get_dark (sl_graph_canvas_get_renderer (canvas)));
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  g_assert_true (sl_graph_renderer_get_dark (sl_graph_canvas_get_renderer (canvas)));
  sl_graph_canvas_set_origin (canvas, -50, -40);
  g_assert_cmpuint (save_window_screenshot (window, dir, "graph-canvas-dark.png"), >, 0);
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  g_assert_false (sl_graph_renderer_get_dark (sl_graph_canvas_get_renderer (canvas)));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  tmp_root = g_dir_make_tmp ("sl-graph-canvas-XXXXXX", NULL);
  adw_init ();
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), WIN_W, WIN_H);
  canvas = SL_GRAPH_CANVAS (sl_graph_canvas_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (canvas));
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/graph-canvas/fit", test_fit);
  g_test_add_func ("/graph-canvas/fit-beside-minimap", test_fit_beside_minimap);
  g_test_add_func ("/graph-canvas/zoom-at-pointer", test_zoom_at_pointer);
  g_test_add_func ("/graph-canvas/click-select-activate", test_click_select_activate);
  g_test_add_func ("/graph-canvas/anchor", test_anchor);
  g_test_add_func ("/graph-canvas/reveal", test_reveal);
  g_test_add_func ("/graph-canvas/export", test_export);
  g_test_add_func ("/graph-canvas/renderer-pixels", test_renderer_pixels);
  g_test_add_func ("/graph-canvas/label-cache", test_label_cache);
  g_test_add_func ("/graph-canvas/bitmap-paths-agree", test_bitmap_paths_agree);
  g_test_add_func ("/graph-canvas/header-in-view", test_header_in_view);
  g_test_add_func ("/graph-canvas/dark-style", test_dark_style);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  {
    g_autoptr(GFile) root = g_file_new_for_path (tmp_root);
    const char *names[] = { "graph.png", "view.png", "graph.svg", "graph.pdf" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *path = g_build_filename (tmp_root, names[i], NULL);

        g_unlink (path);
      }
    g_rmdir (tmp_root);
  }
  g_free (tmp_root);
  return status;
}
