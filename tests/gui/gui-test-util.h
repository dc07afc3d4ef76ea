/* gui-test-util.h: helpers shared by the in-process GUI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-workspace.h"

G_BEGIN_DECLS

typedef gboolean (*Condition) (gpointer data);

/* Runs the main loop until @condition holds, then lets widgets catch up
 * with what the models say. Returns FALSE on timeout. */
static inline gboolean
wait_until (Condition condition,
            gpointer  data,
            guint     timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;

  while (!condition (data))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  for (guint i = 0; i < 50 && g_main_context_iteration (NULL, FALSE); i++)
    ;
  return TRUE;
}

static inline gboolean
count_frame_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  (*(guint *)data)++;
  return G_SOURCE_CONTINUE;
}

static inline gboolean
frames_counted (gpointer data)
{
  return *(guint *)data >= 3;
}

/* Lets @widget lay out and paint a few frames, so a screenshot shows what
 * the models say rather than the previous frame. */
static inline void
wait_for_frames (GtkWidget *widget)
{
  guint frames = 0;
  guint id = gtk_widget_add_tick_callback (widget, count_frame_cb, &frames, NULL);

  gtk_widget_queue_draw (widget);
  wait_until (frames_counted, &frames, 5000);
  gtk_widget_remove_tick_callback (widget, id);
}

/* Renders @window as it is on screen into @dir/@name (a PNG) and returns
 * how many pixels are clearly coloured (not grey), so a test can tell a
 * drawn chart from an empty frame. */
static inline guint
save_window_screenshot (GtkWidget  *window,
                        const char *dir,
                        const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  g_autofree guchar *pixels = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int w, h;
  guint coloured = 0;

  wait_for_frames (window);
  w = gtk_widget_get_width (window);
  h = gtk_widget_get_height (window);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_mkdir_with_parents (dir, 0755);
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));

  pixels = g_malloc ((gsize)w * h * 4);
  gdk_texture_download (texture, pixels, w * 4);
  for (int i = 0; i < w * h; i++)
    {
      /* Cairo order on little endian: B G R A */
      int b = pixels[i * 4], g = pixels[i * 4 + 1], r = pixels[i * 4 + 2];

      if (MAX (r, MAX (g, b)) - MIN (r, MIN (g, b)) > 60)
        coloured++;
    }
  return coloured;
}

/* Tests read the workspace database as the application does: on the
 * workspace's writer thread, never on the main thread. */
static inline gpointer
list_runs_func (SlWorkspaceStore  *store,
                gpointer           root,
                GCancellable      *cancellable,
                GError           **error)
{
  return sl_workspace_store_list_runs (store, root, error);
}

static inline gpointer
list_open_folders_func (SlWorkspaceStore  *store,
                        gpointer           data,
                        GCancellable      *cancellable,
                        GError           **error)
{
  return sl_workspace_store_list_open_folders (store, error);
}

static inline gpointer
list_last_job_func (SlWorkspaceStore  *store,
                    gpointer           data,
                    GCancellable      *cancellable,
                    GError           **error)
{
  return sl_workspace_store_list_jobs (store, 1, error);
}

static inline gpointer
list_targets_func (SlWorkspaceStore  *store,
                   gpointer           data,
                   GCancellable      *cancellable,
                   GError           **error)
{
  return sl_workspace_store_list_targets (store, error);
}

static inline gpointer
list_projects_func (SlWorkspaceStore  *store,
                    gpointer           data,
                    GCancellable      *cancellable,
                    GError           **error)
{
  return sl_workspace_store_list_projects (store, error);
}

static inline void
changed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (sl_workspace_change_finish (SL_WORKSPACE (object), result, NULL));
  *done = TRUE;
}

static inline gboolean
flag_set (gpointer data)
{
  return *(gboolean *)data;
}

G_END_DECLS
