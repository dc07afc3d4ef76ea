/* test-window-report.c: the window's PNG and JSON report, as --screenshot
 * and --report write them
 *
 * A widget of the window asks to be drawn again as soon as each frame is
 * painted, as a blinking cursor or a live chart does now and then: the
 * screenshot is still the window as drawn, at its size and not blank, and
 * it is on disk before the JSON that a caller waits for. A report without
 * a screenshot is written too. A document still loading holds the report
 * back, however many frames are painted, until its state says it is
 * ready.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"
#include "sl-document-registry.h"
#include "sl-window-report.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

typedef struct {
  GtkWidget *widget;
  guint      idle_id;
  guint      frames;
} Redrawer;

static gboolean
redraw_cb (gpointer data)
{
  Redrawer *redrawer = data;

  redrawer->idle_id = 0;
  gtk_widget_queue_draw (redrawer->widget);
  return G_SOURCE_REMOVE;
}

/* Before anything of lower priority runs, the frame just painted is
 * already out of date. */
static void
after_paint_cb (GdkFrameClock *clock,
                Redrawer      *redrawer)
{
  redrawer->frames++;
  if (redrawer->idle_id == 0)
    redrawer->idle_id = g_idle_add_full (G_PRIORITY_DEFAULT, redraw_cb, redrawer, NULL);
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

static void
test_screenshot_while_redrawing (void)
{
  g_autofree char *png = g_build_filename (tmp_root, "window.png", NULL);
  g_autofree char *json = g_build_filename (tmp_root, "window.json", NULL);
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guchar *pixels = NULL;
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  Redrawer redrawer = { gtk_window_get_child (GTK_WINDOW (window)), 0, 0 };
  gulong handler;
  int width, height;
  guint differing = 0;

  g_assert_nonnull (clock);
  g_assert_nonnull (redrawer.widget);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &redrawer);
  gtk_widget_queue_draw (redrawer.widget);

  sl_window_report_when_idle (window, png, json);
  g_assert_true (wait_until (file_exists, json, 60000));

  g_signal_handler_disconnect (clock, handler);
  g_clear_handle_id (&redrawer.idle_id, g_source_remove);
  /* The widget was redrawn all along, not only once. */
  g_assert_cmpuint (redrawer.frames, >, 3);

  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  g_assert_cmpint (width, ==, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpint (height, ==, gtk_widget_get_height (GTK_WIDGET (window)));

  pixels = g_malloc ((gsize)width * height * 4);
  gdk_texture_download (texture, pixels, (gsize)width * 4);
  for (int i = 1; i < width * height; i++)
    differing += memcmp (pixels + i * 4, pixels, 4) != 0;
  /* Panels, text and icons: far from one flat colour. */
  g_assert_cmpuint (differing, >, (guint)(width * height / 10));
}

/* A document that loads until the test says it is ready. */
#define TEST_TYPE_SLOW_DOCUMENT (test_slow_document_get_type ())
G_DECLARE_FINAL_TYPE (TestSlowDocument, test_slow_document, TEST, SLOW_DOCUMENT, SlDocument)

struct _TestSlowDocument
{
  SlDocument parent_instance;
};

G_DEFINE_FINAL_TYPE (TestSlowDocument, test_slow_document, SL_TYPE_DOCUMENT)

static void
test_slow_document_load (SlDocument *document)
{
}

static void
test_slow_document_class_init (TestSlowDocumentClass *klass)
{
  SL_DOCUMENT_CLASS (klass)->load = test_slow_document_load;
}

static void
test_slow_document_init (TestSlowDocument *self)
{
  panel_widget_set_child (PANEL_WIDGET (self), gtk_label_new ("loading"));
}

static const SlDocumentKind slow_kind = {
  "test-slow", test_slow_document_get_type, "Slow: %s", "sl-graph-symbolic", NULL, FALSE, NULL,
};

static void
test_report_waits_for_loading (void)
{
  g_autofree char *json = g_build_filename (tmp_root, "loaded.json", NULL);
  g_autofree char *contents = NULL;
  SlDocument *document;

  sl_document_registry_register (&slow_kind);
  document = sl_window_open_document (window, "test-slow", "/nowhere/slow", NULL);
  g_assert_nonnull (document);
  g_assert_cmpint (sl_document_get_state (document), ==, SL_DOCUMENT_LOADING);

  sl_window_report_when_idle (window, NULL, json);
  for (guint i = 0; i < 10; i++)
    wait_for_frames (GTK_WIDGET (window));
  g_assert_false (g_file_test (json, G_FILE_TEST_EXISTS));

  /* Its state says it is ready: that is what the report waited for. */
  sl_document_set_state (document, SL_DOCUMENT_READY);
  g_assert_true (wait_until (file_exists, json, 60000));
  g_assert_true (g_file_get_contents (json, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"kind\" : \"test-slow\""));
  g_assert_nonnull (strstr (contents, "\"state\" : \"ready\""));
  g_assert_nonnull (strstr (contents, "\"paths\" : [\n      \"/nowhere/slow\"\n    ]"));
  panel_widget_close (PANEL_WIDGET (document));
}

static void
test_report_without_screenshot (void)
{
  g_autofree char *json = g_build_filename (tmp_root, "only.json", NULL);
  g_autofree char *contents = NULL;

  sl_window_report_when_idle (window, NULL, json);
  g_assert_true (wait_until (file_exists, json, 60000));

  g_assert_true (g_file_get_contents (json, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"panels\""));
  g_assert_nonnull (strstr (contents, "\"workspace\""));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = NULL;
  g_autofree char *cache_home = NULL;
  int status;

  tmp_root = g_dir_make_tmp ("sl-window-report-XXXXXX", NULL);
  data_home = g_build_filename (tmp_root, "data-home", NULL);
  cache_home = g_build_filename (tmp_root, "cache-home", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_unsetenv ("SIGHTLINE_REPORT_LINGER_MS");

  if (skip_without_display ())
    return 77;

  g_test_init (&argc, &argv, NULL);
  /* Criticals stay fatal; warnings are not, since a bare test display
   * without a session bus makes GTK warn once about it. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  app = sl_application_new ();
  /* Another Sightline on the same session bus must not take the window. */
  g_application_set_flags (G_APPLICATION (app), g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);
  g_application_activate (G_APPLICATION (app));
  window = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (window);
  g_assert_true (wait_until (window_mapped, window, 30000));

  g_test_add_func ("/window-report/screenshot-while-redrawing", test_screenshot_while_redrawing);
  g_test_add_func ("/window-report/report-without-screenshot", test_report_without_screenshot);
  g_test_add_func ("/window-report/report-waits-for-loading", test_report_waits_for_loading);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  g_free (tmp_root);
  return status;
}
