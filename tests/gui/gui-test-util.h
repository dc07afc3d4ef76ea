/* gui-test-util.h: helpers shared by the in-process GUI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "sl-application.h"
#include "sl-window.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

typedef gboolean (*Condition) (gpointer data);

/* Translations as the program binds them (src/main.c), for a test run in
 * another language: with SIGHTLINE_LOCALEDIR naming the build's po folder
 * and LANGUAGE and LANG a language of po/LINGUAS. Returns FALSE where such
 * a language was asked for and the interface is not in it, as on a
 * machine without its locale: the caller skips. Without
 * SIGHTLINE_LOCALEDIR the tests run in English, as always. */
static inline gboolean
bind_translations (void)
{
  const char *localedir = g_getenv ("SIGHTLINE_LOCALEDIR");
  const char *language = g_getenv ("LANGUAGE");

  if (localedir == NULL)
    return TRUE;
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* a message every translation has */
  return language == NULL || g_str_has_prefix (language, "en") || strcmp (_("Workspace"), "Workspace") != 0;
}

/* GUI tests skip (exit 77) without a display, as the other suites run
 * anywhere; build-aux/dev.sh test starts Xvfb for them. */
static inline gboolean
skip_without_display (void)
{
  if (g_getenv ("DISPLAY") != NULL || g_getenv ("WAYLAND_DISPLAY") != NULL)
    return FALSE;
  g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
  return TRUE;
}

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

/* A rendering of a window, as on screen: 4 bytes a pixel in Cairo order
 * (B G R A on little endian), rows of width × 4 bytes. */
typedef struct {
  int     width;
  int     height;
  guchar *pixels;
  guint   coloured;   /* pixels clearly coloured, not grey */
} Capture;

static inline void
capture_free (Capture *capture)
{
  g_free (capture->pixels);
  g_free (capture);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Capture, capture_free)

/* Renders @window as it is on screen into @dir/@name (a PNG) and keeps
 * its pixels for the test to look at. */
static inline Capture *
capture_window (GtkWidget  *window,
                const char *dir,
                const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  Capture *capture = g_new0 (Capture, 1);
  int w, h;

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

  capture->width = w;
  capture->height = h;
  capture->pixels = g_malloc ((gsize)w * h * 4);
  gdk_texture_download (texture, capture->pixels, w * 4);
  for (int i = 0; i < w * h; i++)
    {
      /* Cairo order on little endian: B G R A */
      int b = capture->pixels[i * 4], g = capture->pixels[i * 4 + 1], r = capture->pixels[i * 4 + 2];

      if (MAX (r, MAX (g, b)) - MIN (r, MIN (g, b)) > 60)
        capture->coloured++;
    }
  return capture;
}

/* Renders @window into @dir/@name and returns how many pixels are clearly
 * coloured (not grey), so a test can tell a drawn chart from an empty
 * frame. */
static inline guint
save_window_screenshot (GtkWidget  *window,
                        const char *dir,
                        const char *name)
{
  g_autoptr(Capture) capture = capture_window (window, dir, name);

  return capture->coloured;
}

/* Luminance (Rec. 601, 0–255) of the pixel at (@x, @y). */
static inline double
capture_luma (const Capture *capture,
              int            x,
              int            y)
{
  const guchar *p;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, capture->width);
  g_assert_cmpint (y, <, capture->height);
  p = capture->pixels + ((gsize)y * capture->width + x) * 4;
  return 0.299 * p[2] + 0.587 * p[1] + 0.114 * p[0];
}

static inline int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *)a, db = *(const double *)b;

  return da < db ? -1 : da > db;
}

/* Luminance statistics of the @w × @h box at (@x, @y) of @capture. */
typedef struct {
  double min;
  double max;
  double median;
} LumaStats;

static inline LumaStats
capture_luma_stats (const Capture *capture,
                    int            x,
                    int            y,
                    int            w,
                    int            h)
{
  g_autofree double *values = NULL;
  LumaStats stats = { G_MAXDOUBLE, -G_MAXDOUBLE, 0 };
  gsize n = 0;

  g_assert_cmpint (w, >, 0);
  g_assert_cmpint (h, >, 0);
  values = g_new (double, (gsize)MAX (w, 1) * (gsize)MAX (h, 1));
  for (int j = y; j < y + h; j++)
    for (int i = x; i < x + w; i++)
      {
        double v = capture_luma (capture, i, j);

        values[n++] = v;
        stats.min = MIN (stats.min, v);
        stats.max = MAX (stats.max, v);
      }
  qsort (values, n, sizeof (double), compare_doubles);
  stats.median = values[n / 2];
  return stats;
}

/* In the @w × @h box at (@x, @y): how many pixels are more than @margin
 * darker in @a than in @b, and how many more than @margin lighter. */
static inline void
capture_compare (const Capture *a,
                 const Capture *b,
                 int            x,
                 int            y,
                 int            w,
                 int            h,
                 double         margin,
                 guint         *darker,
                 guint         *lighter)
{
  *darker = *lighter = 0;
  for (int j = y; j < y + h; j++)
    for (int i = x; i < x + w; i++)
      {
        double d = capture_luma (a, i, j) - capture_luma (b, i, j);

        if (d < -margin)
          (*darker)++;
        else if (d > margin)
          (*lighter)++;
      }
}

/* Where @widget's top left corner is in @window, in whole pixels. */
static inline void
widget_origin_in (GtkWidget *widget,
                  GtkWidget *window,
                  int       *x,
                  int       *y)
{
  graphene_point_t point;

  g_assert_true (gtk_widget_compute_point (widget, window, &GRAPHENE_POINT_INIT (0, 0), &point));
  *x = (int)round (point.x);
  *y = (int)round (point.y);
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

static inline gboolean
window_is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data));
}

/* Writes every log message as usual, and aborts the test on a warning or
 * critical of GObject itself (a weak ref or signal handler it cannot
 * find, a property it does not know), or on GTK's warning that a widget
 * was finalized with children left: those stay silent in the test's
 * result otherwise. */
static inline GLogWriterOutput
gobject_warning_writer (GLogLevelFlags   log_level,
                        const GLogField *fields,
                        gsize            n_fields,
                        gpointer         user_data)
{
  GLogWriterOutput output = g_log_writer_default (log_level, fields, n_fields, user_data);

  if ((log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)) == 0)
    return output;
  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].value != NULL
        && (fields[i].length < 0
            ? g_strcmp0 (fields[i].value, "GLib-GObject") == 0
            : (fields[i].length == (gssize) strlen ("GLib-GObject")
               && memcmp (fields[i].value, "GLib-GObject", fields[i].length) == 0)))
      {
        g_printerr ("Bail out! GObject warned: the test fails on it\n");
        abort ();
      }
    /* a widget finalized with children still parented to it (its
     * dispose forgot to unparent them) */
    else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].value != NULL && fields[i].length < 0
             && strstr (fields[i].value, "still has children left") != NULL)
      {
        g_printerr ("Bail out! A widget was finalized with children left: the test fails on it\n");
        abort ();
      }
  return output;
}

/* Makes GObject's warnings fatal for the rest of the test program. */
static inline void
fail_on_gobject_warnings (void)
{
  g_log_set_writer_func (gobject_warning_writer, NULL, NULL);
}

/* Starts Sightline in this process with its window shown, as the GUI
 * tests need it: another Sightline on the same bus must not take the
 * window, and criticals stay fatal (warnings are not: a bare test display
 * without a session bus makes GTK warn once). */
static inline SlWindow *
start_application (SlApplication **app)
{
  g_autoptr(GError) error = NULL;
  SlWindow *window;

  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  *app = sl_application_new ();
  g_application_set_flags (G_APPLICATION (*app), g_application_get_flags (G_APPLICATION (*app)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (*app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);
  g_application_activate (G_APPLICATION (*app));
  window = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (*app)));
  g_assert_nonnull (window);
  g_assert_true (wait_until (window_is_mapped, window, 30000));
  return window;
}

/* A fresh home for the test's data and settings (in memory), so it
 * neither reads nor leaves the user's; returns the folder. */
static inline char *
make_test_home (const char *template)
{
  char *root = g_dir_make_tmp (template, NULL);
  g_autofree char *data_home = g_build_filename (root, "data-home", NULL);
  g_autofree char *config_home = g_build_filename (root, "config-home", NULL);

  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  return root;
}

/* Keeps an async call's result for wait_for_result(): pass it as the
 * callback with the address of a NULL GAsyncResult pointer. */
static inline void
store_result (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Runs the main loop until the call finished; returns its result, owned
 * by the caller through @slot. */
static inline GAsyncResult *
wait_for_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

G_END_DECLS
