/* test-timeline-palette.c: the timeline's duration palette on a real display
 *
 * A trace spanning exactly 10 ms holds slices of 100, 500, 700, 1000 and
 * 2000 µs, so the class of each is known against MindStudio's default
 * thresholds (5 % and 10 % of the span) and against others: the colour
 * the renderer picks for each slice, the pixels drawn where it is, the
 * legend's texts, and how changing the thresholds in GSettings (as the
 * popover does) changes the colours. Colour by name comes back when the
 * mode is switched back. Screenshots in light and dark style.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "sl-timeline-page.h"
#include "sl-timeline-palette.h"

typedef struct {
  const char             *name;
  guint                   start_us;
  guint                   dur_us;
  SlTimelineDurationClass by_default;   /* at 5 % and 10 % of 10 ms */
  SlTimelineDurationClass at_1_and_6;   /* at 1 % and 6 % */
} Known;

static const Known known[] = {
  { "tiny", 100, 100, SL_TIMELINE_DURATION_SHORT, SL_TIMELINE_DURATION_SHORT },        /* 1 %: on the first threshold */
  { "at-yellow", 1000, 500, SL_TIMELINE_DURATION_SHORT, SL_TIMELINE_DURATION_MEDIUM }, /* 5 % */
  { "between", 2000, 700, SL_TIMELINE_DURATION_MEDIUM, SL_TIMELINE_DURATION_LONG },    /* 7 % */
  { "at-red", 3000, 1000, SL_TIMELINE_DURATION_LONG, SL_TIMELINE_DURATION_LONG },      /* 10 % */
  { "long", 5000, 2000, SL_TIMELINE_DURATION_LONG, SL_TIMELINE_DURATION_LONG },        /* 20 % */
};

static GtkWidget *window;
static SlTimelinePage *page;
static SlTimelinePalette *palette;
static GSettings *settings;
static char *tmp_root;

static gboolean
page_ready (gpointer data)
{
  return !sl_timeline_page_is_busy (data) &&
         sl_document_get_state (SL_DOCUMENT (data)) == SL_DOCUMENT_READY &&
         gtk_widget_get_width (GTK_WIDGET (sl_timeline_page_get_view (data))) > 0;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 150 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* The known slices on one thread, and instants at 0 and 10 ms on another
 * so the span is exactly 10 ms. */
static char *
write_trace (void)
{
  GString *json = g_string_new ("{\"traceEvents\":[\n");
  char *path = g_build_filename (tmp_root, "palette.json", NULL);
  g_autoptr(GError) error = NULL;

  g_string_append (json, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":3,\"args\":{\"name\":\"Device\"}},\n");
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    g_string_append_printf (json, "{\"name\":\"%s\",\"ph\":\"X\",\"pid\":3,\"tid\":1,\"ts\":%u,\"dur\":%u},\n",
                            known[i].name, known[i].start_us, known[i].dur_us);
  g_string_append (json, "{\"name\":\"begin\",\"ph\":\"i\",\"s\":\"t\",\"pid\":3,\"tid\":2,\"ts\":0},\n");
  g_string_append (json, "{\"name\":\"finish\",\"ph\":\"i\",\"s\":\"t\",\"pid\":3,\"tid\":2,\"ts\":10000}\n]}\n");
  g_assert_true (g_file_set_contents (path, json->str, json->len, &error));
  g_string_free (json, TRUE);
  return path;
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
find_slice (const char *name,
            guint      *track,
            guint32    *slice)
{
  SlTrace *trace = sl_timeline_view_get_trace (sl_timeline_page_get_view (page));

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || s == NULL)
        continue;
      for (guint32 i = 0; i < s->n_slices; i++)
        if (g_strcmp0 (sl_trace_get_string (trace, sl_trace_slices_name_id (s, i)), name) == 0)
          {
            *track = t;
            *slice = i;
            return;
          }
    }
  g_assert_not_reached ();
}

static void
assert_rgb_equal (const double *a,
                  const double *b)
{
  for (guint c = 0; c < 3; c++)
    g_assert_cmpfloat_with_epsilon (a[c], b[c], 1e-9);
}

/* Each known slice is filled with the colour of its class. */
static void
assert_classes (gboolean second_thresholds)
{
  SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (sl_timeline_page_get_view (page));
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      SlTimelineDurationClass expected = second_thresholds ? known[i].at_1_and_6 : known[i].by_default;
      double picked[3], wanted[3];
      guint track;
      guint32 slice;

      find_slice (known[i].name, &track, &slice);
      g_assert_cmpint (sl_timeline_renderer_classify_slice (renderer, track, slice), ==, expected);
      g_assert_true (sl_timeline_renderer_get_slice_color (renderer, track, slice, picked));
      sl_timeline_color_for_duration (expected, dark, wanted);
      assert_rgb_equal (picked, wanted);
    }
}

/* Where a slice is drawn, in window pixels. */
static void
slice_pixel (const char *name,
             int        *x,
             int        *y)
{
  SlTimelineView *view = sl_timeline_page_get_view (page);
  SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (view);
  SlTrace *trace = sl_timeline_view_get_trace (view);
  SlTimelineViewport vp;
  const SlTraceSlices *s;
  double row_y;
  guint track;
  guint32 slice;
  int vx, vy;

  find_slice (name, &track, &slice);
  s = sl_trace_get_slices (trace, track);
  sl_timeline_view_get_viewport (view, &vp);
  g_assert_true (sl_timeline_renderer_get_slice_y (renderer, track, slice, &row_y));
  widget_origin_in (GTK_WIDGET (view), window, &vx, &vy);
  *x = vx + (int)(SL_TIMELINE_GUTTER_WIDTH + ((double)(sl_trace_slices_start_ns (s, slice) - vp.t0) + sl_trace_slices_dur_ns (s, slice) / 2.0) / vp.ns_per_pixel);
  /* Below the middle of the row: clear of the slice's label */
  *y = vy + (int)(SL_TIMELINE_RULER_HEIGHT + sl_timeline_renderer_get_pinned_height (renderer) + row_y - vp.scroll_y + 16);
}

/* The pixels on screen are the colours the renderer reports. */
static void
assert_drawn_classes (const Capture *capture,
                      gboolean       dark)
{
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      double wanted[3];
      const guchar *p;
      int x, y;

      slice_pixel (known[i].name, &x, &y);
      g_assert_cmpint (x, <, capture->width);
      g_assert_cmpint (y, <, capture->height);
      sl_timeline_color_for_duration (known[i].by_default, dark, wanted);
      p = capture->pixels + ((gsize)y * capture->width + x) * 4;
      g_assert_cmpint (ABS (p[2] - (int)round (wanted[0] * 255)), <=, 2);
      g_assert_cmpint (ABS (p[1] - (int)round (wanted[1] * 255)), <=, 2);
      g_assert_cmpint (ABS (p[0] - (int)round (wanted[2] * 255)), <=, 2);
    }
}

static void
test_opens (void)
{
  g_autofree char *path = write_trace ();
  GtkWidget *stack = gtk_window_get_child (GTK_WINDOW (window));
  SlTrace *trace;

  page = SL_TIMELINE_PAGE (sl_timeline_page_new (path, "palette"));
  gtk_stack_add_child (GTK_STACK (stack), GTK_WIDGET (page));
  gtk_stack_set_visible_child (GTK_STACK (stack), GTK_WIDGET (page));
  g_assert_true (wait_until (page_ready, page, 60000));
  settle ();

  trace = sl_timeline_view_get_trace (sl_timeline_page_get_view (page));
  g_assert_cmpint (sl_trace_get_end_ns (trace) - sl_trace_get_start_ns (trace), ==, 10000000);
  palette = SL_TIMELINE_PALETTE (find_descendant (GTK_WIDGET (page), SL_TYPE_TIMELINE_PALETTE));
  g_assert_nonnull (palette);
  g_assert_true (sl_timeline_palette_get_view (palette) == sl_timeline_page_get_view (page));
}

/* By default slices keep their name's colour and there is no legend. */
static void
test_by_name (void)
{
  SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (sl_timeline_page_get_view (page));
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  g_assert_cmpint (sl_timeline_renderer_get_color_mode (renderer), ==, SL_TIMELINE_COLOR_BY_NAME);
  g_assert_null (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_SHORT));
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      double picked[3], wanted[3];
      guint track;
      guint32 slice;

      find_slice (known[i].name, &track, &slice);
      g_assert_true (sl_timeline_renderer_get_slice_color (renderer, track, slice, picked));
      sl_timeline_color_for_name (known[i].name, dark, wanted);
      assert_rgb_equal (picked, wanted);
    }
}

static void
test_by_duration_defaults (void)
{
  SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (sl_timeline_page_get_view (page));
  double yellow_ns, red_ns;

  g_assert_cmpfloat (g_settings_get_double (settings, "timeline-yellow-percent"), ==, 5.0);
  g_assert_cmpfloat (g_settings_get_double (settings, "timeline-red-percent"), ==, 10.0);
  g_settings_set_enum (settings, "timeline-color-mode", SL_TIMELINE_COLOR_BY_DURATION);
  settle ();

  g_assert_cmpint (sl_timeline_renderer_get_color_mode (renderer), ==, SL_TIMELINE_COLOR_BY_DURATION);
  sl_timeline_renderer_get_duration_thresholds (renderer, &yellow_ns, &red_ns);
  g_assert_cmpfloat (yellow_ns, ==, 500000);
  g_assert_cmpfloat (red_ns, ==, 1000000);
  assert_classes (FALSE);

  g_assert_cmpstr (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_SHORT), ==, "≤ 5% (≤ 500.0 µs)");
  g_assert_cmpstr (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_MEDIUM), ==, "5–10%");
  g_assert_cmpstr (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_LONG), ==, "≥ 10% (≥ 1.000 ms)");
}

static void
test_screenshots (void)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  g_autoptr(Capture) light = NULL;
  g_autoptr(Capture) dark = NULL;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  light = capture_window (window, SCREENSHOT_DIR, "timeline-palette-light.png");
  assert_drawn_classes (light, FALSE);
  assert_classes (FALSE);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  dark = capture_window (window, SCREENSHOT_DIR, "timeline-palette-dark.png");
  assert_drawn_classes (dark, TRUE);
  assert_classes (FALSE);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
}

/* What the popover's spin buttons write, written here. */
static void
test_thresholds_from_settings (void)
{
  g_settings_set_double (settings, "timeline-yellow-percent", 1.0);
  g_settings_set_double (settings, "timeline-red-percent", 6.0);
  settle ();
  assert_classes (TRUE);
  g_assert_cmpstr (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_SHORT), ==, "≤ 1% (≤ 100.0 µs)");
  g_assert_cmpstr (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_MEDIUM), ==, "1–6%");
  g_assert_cmpstr (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_LONG), ==, "≥ 6% (≥ 600.0 µs)");

  /* Two decimals, as MindStudio takes them */
  g_settings_set_double (settings, "timeline-red-percent", 7.25);
  settle ();
  g_assert_cmpstr (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_LONG), ==, "≥ 7.25% (≥ 725.0 µs)");

  /* Yellow dragged past red takes red along */
  g_settings_set_double (settings, "timeline-yellow-percent", 15.0);
  settle ();
  g_assert_cmpfloat (g_settings_get_double (settings, "timeline-red-percent"), ==, 15.0);
  g_assert_cmpstr (sl_timeline_palette_get_legend_text (palette, SL_TIMELINE_DURATION_MEDIUM), ==, "15–15%");
  {
    SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (sl_timeline_page_get_view (page));
    guint track;
    guint32 slice;

    find_slice ("long", &track, &slice);
    g_assert_cmpint (sl_timeline_renderer_classify_slice (renderer, track, slice), ==, SL_TIMELINE_DURATION_LONG);
    find_slice ("at-red", &track, &slice);
    g_assert_cmpint (sl_timeline_renderer_classify_slice (renderer, track, slice), ==, SL_TIMELINE_DURATION_SHORT);
  }

  g_settings_reset (settings, "timeline-yellow-percent");
  g_settings_reset (settings, "timeline-red-percent");
  settle ();
  assert_classes (FALSE);
}

/* Out-of-range values straight into the renderer stay in 0–100 %, red
 * never below yellow. */
static void
test_renderer_clamps (void)
{
  g_autoptr(SlTimelineRenderer) renderer = sl_timeline_renderer_new ();
  SlTrace *trace = sl_timeline_view_get_trace (sl_timeline_page_get_view (page));
  double yellow_ns, red_ns;

  sl_timeline_renderer_set_lod (renderer, sl_trace_lod_new (trace, NULL));
  sl_timeline_renderer_set_duration_thresholds (renderer, -3, 250);
  sl_timeline_renderer_get_duration_thresholds (renderer, &yellow_ns, &red_ns);
  g_assert_cmpfloat (yellow_ns, ==, 0);
  g_assert_cmpfloat (red_ns, ==, 10000000);
  sl_timeline_renderer_set_duration_thresholds (renderer, 8, 2);
  sl_timeline_renderer_get_duration_thresholds (renderer, &yellow_ns, &red_ns);
  g_assert_cmpfloat (yellow_ns, ==, 800000);
  g_assert_cmpfloat (red_ns, ==, 800000);
  sl_timeline_renderer_set_duration_thresholds (renderer, NAN, NAN);
  sl_timeline_renderer_get_duration_thresholds (renderer, &yellow_ns, &red_ns);
  g_assert_cmpfloat (yellow_ns, ==, 0);
  g_assert_cmpfloat (red_ns, ==, 0);
}

static void
test_back_to_names (void)
{
  g_settings_set_enum (settings, "timeline-color-mode", SL_TIMELINE_COLOR_BY_NAME);
  settle ();
  test_by_name ();
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
  tmp_root = g_dir_make_tmp ("sl-palette-XXXXXX", NULL);
  adw_init ();
  settings = g_settings_new (APP_ID);

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 500);
  gtk_window_set_child (GTK_WINDOW (window), gtk_stack_new ());
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/timeline-palette/opens", test_opens);
  g_test_add_func ("/timeline-palette/by-name", test_by_name);
  g_test_add_func ("/timeline-palette/by-duration-defaults", test_by_duration_defaults);
  g_test_add_func ("/timeline-palette/screenshots", test_screenshots);
  g_test_add_func ("/timeline-palette/thresholds-from-settings", test_thresholds_from_settings);
  g_test_add_func ("/timeline-palette/renderer-clamps", test_renderer_clamps);
  g_test_add_func ("/timeline-palette/back-to-names", test_back_to_names);
  status = g_test_run ();

  /* The window stays: a dock widget leaves through its dock, not a stack. */
  g_clear_object (&settings);
  {
    g_autofree char *path = g_build_filename (tmp_root, "palette.json", NULL);

    g_unlink (path);
    g_rmdir (tmp_root);
  }
  g_free (tmp_root);
  return status;
}
