/* bench-peer-window.c: the floor for start-up benchmarks
 *
 * The smallest libadwaita program: a window with a header bar and a label.
 * It reports its first frame exactly as `sightline --quit-after-first-frame`
 * does, so the difference is what Sightline itself costs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "sl-platform.h"

static gint64 start_time;

static void
after_paint_cb (GdkFrameClock  *clock,
                GtkApplication *app)
{
  g_signal_handlers_disconnect_by_func (clock, after_paint_cb, app);
  g_print ("first-frame-ms=%.1f rss-kb=%" G_GUINT64_FORMAT "\n",
           (g_get_monotonic_time () - start_time) / 1000.0,
           sl_platform_get_resident_bytes () / 1024);
  g_application_quit (G_APPLICATION (app));
}

static void
map_cb (GtkWidget      *window,
        GtkApplication *app)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (after_paint_cb), app);
}

static void
activate_cb (GtkApplication *app)
{
  GtkWidget *window = adw_application_window_new (app);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), gtk_label_new ("Hello"));
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_signal_connect (window, "map", G_CALLBACK (map_cb), app);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(AdwApplication) app = NULL;

  start_time = g_get_monotonic_time ();
  app = adw_application_new ("io.github.sightline.BenchPeer", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);

  /* Takes no options; the one the benchmark passes is what it always does. */
  return g_application_run (G_APPLICATION (app), 1, argv);
}
