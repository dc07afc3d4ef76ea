/* test-timeline.c: the timeline page on a real display
 *
 * A Chrome trace written to a temporary file is read through the page's
 * own loading path (progress, worker, index): hovering a slice names it in
 * full with its args, hovering the counter gives its value, clicking fills
 * the details, search finds and steps through matches. A generated trace of
 * 400,000 slices is then zoomed and panned with the keys, summed up over a
 * selected range, folded, pinned and drawn in light and dark style. A
 * missing file and a cancelled read end in a message. While a big file is
 * read (held, in the test) its preview shows with the part read, can be
 * zoomed and selected in, and gives way to the full trace keeping the time
 * window and the selected slice; a cancel keeps it. Last, in the
 * application: the window opens the timeline (also for a trace found in an
 * opened folder), a click fills the Details panel and its flow link jumps
 * to the other end. Screenshots go to the build folder's screenshots/.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"

#include <math.h>
#include <glib/gstdio.h>
#include <adwaita.h>
#include <libpanel.h>

#include "sl-application.h"
#include "sl-tooltip.h"
#include "sl-details-panel.h"
#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-timeline-details.h"
#include "sl-chrome-trace-reader.h"
#include "sl-timeline-item.h"
#include "sl-timeline-page.h"
#include "sl-trace-aggregate-index.h"
#include "sl-trace-builder.h"
#include "sl-trace-search.h"
#include "sl-window.h"
#include "../trace-fixture.h"

#define LONG_NAME "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore_GradV2"
#define N_STEPS 40

static GtkWidget *window;
static SlTimelinePage *page;
static char *tmp_root;
static char *trace_path;
static guint n_selected_signals;

static gboolean
page_ready (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  if (sl_timeline_page_is_busy (data))
    return FALSE;
  return state == SL_DOCUMENT_FAILED || state == SL_DOCUMENT_EMPTY
         || (state == SL_DOCUMENT_READY && gtk_widget_get_width (GTK_WIDGET (sl_timeline_page_get_view (data))) > 0);
}

static gboolean
page_idle (gpointer data)
{
  return !sl_timeline_page_is_busy (data);
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

/* Steps with a kernel each (long name, args), a counter and flows. */
static char *
write_trace (void)
{
  GString *json = g_string_new ("{\"traceEvents\":[\n");
  char *path = g_build_filename (tmp_root, "trace.json", NULL);
  g_autoptr(GError) error = NULL;

  g_string_append (json, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":7,\"args\":{\"name\":\"Trainer\"}},\n");
  g_string_append (json, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":7,\"tid\":1,\"args\":{\"name\":\"Python\"}},\n");
  g_string_append (json, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":7,\"tid\":2,\"args\":{\"name\":\"Stream 7\"}},\n");
  for (guint i = 0; i < N_STEPS; i++)
    {
      guint t = i * 1000;

      g_string_append_printf (json, "{\"name\":\"ProfilerStep#%u\",\"ph\":\"X\",\"cat\":\"step\",\"pid\":7,\"tid\":1,"
                              "\"ts\":%u,\"dur\":900,\"args\":{\"step\":%u}},\n", i, t, i);
      g_string_append_printf (json, "{\"name\":\"aten::matmul\",\"ph\":\"X\",\"cat\":\"cpu_op\",\"pid\":7,\"tid\":1,"
                              "\"ts\":%u,\"dur\":300,\"args\":{\"Input Dims\":\"[[8, 16], [16, 4]]\"}},\n", t + 50);
      g_string_append_printf (json, "{\"name\":\"" LONG_NAME "\",\"ph\":\"X\",\"cat\":\"kernel\",\"pid\":7,\"tid\":2,"
                              "\"ts\":%u,\"dur\":400,\"args\":{\"stream\":7,\"grid\":\"[128, 1, 1]\",\"correlation\":%u}},\n",
                              t + 400, i);
      g_string_append_printf (json, "{\"name\":\"launch\",\"ph\":\"s\",\"cat\":\"ac2g\",\"id\":%u,\"pid\":7,\"tid\":1,\"ts\":%u},\n",
                              i + 1, t + 60);
      g_string_append_printf (json, "{\"name\":\"launch\",\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"id\":%u,\"pid\":7,\"tid\":2,\"ts\":%u},\n",
                              i + 1, t + 410);
      g_string_append_printf (json, "{\"name\":\"Memory\",\"ph\":\"C\",\"pid\":7,\"ts\":%u,\"args\":{\"allocated\":%u}},\n",
                              t, 1000 + (i * 37) % 500);
    }
  g_string_append (json, "{\"name\":\"end\",\"ph\":\"i\",\"s\":\"t\",\"pid\":7,\"tid\":1,\"ts\":40000}\n]}\n");
  g_assert_true (g_file_set_contents (path, json->str, json->len, &error));
  g_string_free (json, TRUE);
  return path;
}

static gboolean
find_slice (SlTrace    *trace,
            const char *name,
            guint       nth,
            guint      *track,
            guint32    *slice)
{
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || s == NULL)
        continue;
      for (guint32 i = 0; i < s->n_slices; i++)
        if (g_strcmp0 (sl_trace_get_string (trace, sl_trace_slices_name_id (s, i)), name) == 0 && nth-- == 0)
          {
            *track = t;
            *slice = i;
            return TRUE;
          }
    }
  return FALSE;
}

/* Where a slice is drawn, in view coordinates. */
static void
slice_point (SlTimelineView *view,
             guint           track,
             guint32         slice,
             double         *x,
             double         *y)
{
  SlTrace *trace = sl_timeline_view_get_trace (view);
  const SlTraceSlices *s = sl_trace_get_slices (trace, track);
  SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (view);
  SlTimelineViewport vp;
  double row_y;

  sl_timeline_view_get_viewport (view, &vp);
  g_assert_true (sl_timeline_renderer_get_slice_y (renderer, track, slice, &row_y));
  *x = SL_TIMELINE_GUTTER_WIDTH + ((double)(sl_trace_slices_start_ns (s, slice) - vp.t0) + sl_trace_slices_dur_ns (s, slice) / 2.0) / vp.ns_per_pixel;
  *y = SL_TIMELINE_RULER_HEIGHT + sl_timeline_renderer_get_pinned_height (renderer) + row_y - vp.scroll_y + 10;
}

/* Pages stay in a stack: a dock widget expects to leave through its dock. */
static void
show_page (GtkWidget *widget)
{
  GtkWidget *stack = gtk_overlay_get_child (GTK_OVERLAY (gtk_window_get_child (GTK_WINDOW (window))));

  page = SL_TIMELINE_PAGE (widget);
  gtk_stack_add_child (GTK_STACK (stack), widget);
  gtk_stack_set_visible_child (GTK_STACK (stack), widget);
  g_assert_true (wait_until (page_ready, page, 60000));
  settle ();
}

static gboolean
press_key (SlTimelineView *view,
           guint           keyval,
           GdkModifierType state)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, state, &handled);
    }
  return handled;
}

static void
count_selected_cb (SlTimelinePage *p,
                   guint           track,
                   guint           slice)
{
  n_selected_signals++;
}

static void
test_reads_file (void)
{
  SlTimelineView *view;
  SlTrace *trace;
  guint n_slices = 0;

  show_page (sl_timeline_page_new (trace_path, "Timeline: trace.json"));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  view = sl_timeline_page_get_view (page);
  trace = sl_timeline_view_get_trace (view);
  g_assert_nonnull (trace);

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    if (sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_COUNTER)
      n_slices += sl_trace_get_slices (trace, t)->n_slices;
  /* 3 slices a step and the final instant */
  g_assert_cmpuint (n_slices, ==, 3 * N_STEPS + 1);
  g_assert_cmpuint (sl_trace_get_n_flows (trace), ==, N_STEPS);
  g_assert_nonnull (strstr (sl_timeline_page_get_status (page), "121"));

  /* The track tree: one process with its threads and counter */
  g_assert_cmpuint (g_list_model_get_n_items (sl_timeline_page_get_tracks_model (page)), ==, 1 + sl_trace_get_n_tracks (trace));
  g_signal_connect (page, "slice-selected", G_CALLBACK (count_selected_cb), NULL);
}

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The status line keeps the visible range whole at any width: only the load
 * statistics beside it give way, and the tooltip holds the whole line. */
static void
test_status_keeps_range (void)
{
  const int widths[] = { 1400, 1024, 700 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      GtkWidget *range, *stats;
      int natural = 0;

      gtk_window_set_default_size (GTK_WINDOW (window), widths[i], 860);
      wait_for_frames (window);
      settle ();
      range = find_named (GTK_WIDGET (page), "status-range");
      stats = find_named (GTK_WIDGET (page), "status-stats");
      g_assert_nonnull (range);
      g_assert_nonnull (stats);
      g_assert_true (gtk_widget_get_mapped (range));
      g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (range)), ==, PANGO_ELLIPSIZE_NONE);
      g_assert_true (g_str_has_prefix (gtk_label_get_label (GTK_LABEL (range)), "showing "));
      g_assert_true (g_str_has_suffix (gtk_label_get_label (GTK_LABEL (range)), "s)"));
      g_assert_null (strstr (gtk_label_get_label (GTK_LABEL (stats)), "showing"));
      g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (stats)), "indexed in"));
      gtk_widget_measure (range, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_assert_cmpint (gtk_widget_get_width (range), >=, natural);
      g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (range))));
      g_assert_cmpstr (sl_widget_get_long_tooltip (range), ==, sl_timeline_page_get_status (page));
      g_assert_cmpstr (sl_widget_get_long_tooltip (stats), ==, sl_timeline_page_get_status (page));
      g_assert_nonnull (strstr (sl_timeline_page_get_status (page), gtk_label_get_label (GTK_LABEL (range))));
    }
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  wait_for_frames (window);
  settle ();
}

static void
test_hover_and_click (void)
{
  SlTimelineView *view = sl_timeline_page_get_view (page);
  SlTrace *trace = sl_timeline_view_get_trace (view);
  SlTimelineViewport vp;
  SlTimelineHit hit;
  guint track = 0;
  guint32 slice = 0;
  double x, y;
  g_autofree char *markup = NULL;
  g_autoptr(GPtrArray) details = NULL;
  gboolean has_arg = FALSE, has_flow = FALSE, has_parent = FALSE;

  g_assert_true (find_slice (trace, LONG_NAME, 3, &track, &slice));
  sl_timeline_view_reveal (view, track, slice);
  settle ();

  /* What is under the pointer where the slice is drawn */
  slice_point (view, track, slice, &x, &y);
  sl_timeline_view_get_viewport (view, &vp);
  sl_timeline_renderer_hit (sl_timeline_view_get_renderer (view), &vp, x, y, &hit);
  g_assert_cmpint (hit.kind, ==, SL_TIMELINE_HIT_SLICE);
  g_assert_cmpuint (hit.track, ==, track);
  g_assert_cmpuint (hit.slice, ==, slice);

  markup = sl_timeline_view_dup_tooltip_at (view, x, y);
  g_assert_nonnull (strstr (markup, LONG_NAME));
  g_assert_nonnull (strstr (markup, "kernel"));
  g_assert_nonnull (strstr (markup, "400.0 µs"));
  g_assert_nonnull (strstr (markup, "3.400 ms"));
  g_assert_nonnull (strstr (markup, "grid: [128, 1, 1]"));

  /* Over the counter, the track below Stream 7 (a 20 px row and a 4 px
   * gap down from the kernel's row): its value at that time */
  {
    g_autofree char *counter = sl_timeline_view_dup_tooltip_at (view, x, y + 36);

    g_assert_nonnull (counter);
    g_assert_nonnull (strstr (counter, "Memory allocated"));
    g_assert_nonnull (strstr (counter, "since"));
  }

  /* A click selects and the page says so, with all args in the details */
  n_selected_signals = 0;
  sl_timeline_view_select (view, hit.track, hit.slice);
  g_assert_cmpuint (n_selected_signals, ==, 1);
  details = sl_timeline_page_describe_selection (page);
  g_assert_nonnull (details);
  g_assert_cmpstr (((SlTimelineDetail *)g_ptr_array_index (details, 0))->value, ==, LONG_NAME);
  for (guint i = 0; i < details->len; i++)
    {
      SlTimelineDetail *d = g_ptr_array_index (details, i);

      has_arg |= g_str_equal (d->label, "correlation") && g_str_equal (d->value, "3");
      has_flow |= d->target.track != G_MAXUINT && strstr (d->value, "aten::matmul") != NULL;
      has_parent |= g_str_equal (d->value, "ProfilerStep#3");
    }
  g_assert_true (has_arg);
  g_assert_true (has_flow);
  g_assert_false (has_parent);  /* the kernel runs on its own stream */

  save_window_screenshot (window, SCREENSHOT_DIR, "timeline-selected.png");

  /* The tooltip as it shows on screen, over the slice. A real tooltip is
   * a window of its own, so the screenshot shows the same text in an
   * overlay styled like one. */
  {
    GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (view), GTK_TYPE_WINDOW);
    GtkWidget *frame = gtk_frame_new (NULL);
    GtkWidget *label = gtk_label_new (NULL);
    graphene_point_t at;

    overlay = gtk_window_get_child (GTK_WINDOW (overlay));
    g_assert_true (GTK_IS_OVERLAY (overlay));
    g_assert_true (gtk_widget_compute_point (GTK_WIDGET (view), overlay, &GRAPHENE_POINT_INIT (x, y), &at));
    gtk_label_set_markup (GTK_LABEL (label), markup);
    gtk_label_set_wrap (GTK_LABEL (label), TRUE);
    gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_max_width_chars (GTK_LABEL (label), 50);
    gtk_widget_set_margin_start (label, 8);
    gtk_widget_set_margin_end (label, 8);
    gtk_widget_set_margin_top (label, 6);
    gtk_widget_set_margin_bottom (label, 6);
    gtk_frame_set_child (GTK_FRAME (frame), label);
    gtk_widget_add_css_class (frame, "osd");
    gtk_widget_set_halign (frame, GTK_ALIGN_START);
    gtk_widget_set_valign (frame, GTK_ALIGN_START);
    gtk_widget_set_margin_start (frame, (int)at.x + 8);
    gtk_widget_set_margin_top (frame, (int)at.y + 16);
    gtk_overlay_add_overlay (GTK_OVERLAY (overlay), frame);
    settle ();
    save_window_screenshot (window, SCREENSHOT_DIR, "timeline-tooltip.png");
    gtk_overlay_remove_overlay (GTK_OVERLAY (overlay), frame);
  }
}

static void
test_search (void)
{
  SlTimelineView *view = sl_timeline_page_get_view (page);
  SlTrace *trace = sl_timeline_view_get_trace (view);
  guint track = 0, first_track = 0;
  guint32 slice = 0, first_slice = 0;

  sl_timeline_view_fit (view);
  sl_timeline_page_search (page, "flashattention", FALSE);
  g_assert_true (wait_until (page_idle, page, 10000));
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, N_STEPS);

  g_assert_true (sl_timeline_page_next_match (page, FALSE));
  g_assert_true (sl_timeline_view_get_selected (view, &first_track, &first_slice));
  g_assert_true (sl_timeline_page_next_match (page, FALSE));
  g_assert_true (sl_timeline_view_get_selected (view, &track, &slice));
  g_assert_true (sl_trace_slices_start_ns (sl_trace_get_slices (trace, track), slice) > sl_trace_slices_start_ns (sl_trace_get_slices (trace, first_track), first_slice));
  g_assert_true (sl_timeline_page_next_match (page, TRUE));
  g_assert_true (sl_timeline_view_get_selected (view, &track, &slice));
  g_assert_cmpuint (slice, ==, first_slice);
  settle ();
  /* The entry's delayed change signal does not start the search over */
  g_assert_true (wait_until (page_idle, page, 10000));
  g_assert_true (sl_timeline_view_get_selected (view, &track, &slice));
  g_assert_cmpuint (slice, ==, first_slice);
  save_window_screenshot (window, SCREENSHOT_DIR, "timeline-search.png");

  /* A regular expression: the steps 10 to 19 */
  sl_timeline_page_search (page, "^ProfilerStep#1[0-9]$", TRUE);
  g_assert_true (wait_until (page_idle, page, 10000));
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 10);

  /* A broken one keeps the old results and says what is wrong */
  sl_timeline_page_search (page, "([", TRUE);
  g_assert_true (wait_until (page_idle, page, 10000));
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 10);
  sl_timeline_page_search (page, "", FALSE);
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 0);
}

static void
test_keys_zoom_and_pan (void)
{
  SlTimelineView *view;
  gint64 s0, e0, s1, e1, s2, e2;
  g_autoptr(SlTrace) trace = fixture_build_trace (400000, 8, 11);

  show_page (sl_timeline_page_new_for_trace (trace, "Timeline: generated"));
  view = sl_timeline_page_get_view (page);
  gtk_widget_grab_focus (GTK_WIDGET (view));
  sl_timeline_view_get_window (view, &s0, &e0);
  g_assert_cmpint (s0, <=, sl_trace_get_start_ns (trace));
  g_assert_cmpint (e0, >=, sl_trace_get_end_ns (trace));
  save_window_screenshot (window, SCREENSHOT_DIR, "timeline.png");

  /* W zooms in around the middle */
  g_assert_true (press_key (view, GDK_KEY_w, 0));
  sl_timeline_view_get_window (view, &s1, &e1);
  g_assert_cmpfloat (fabs ((double)(e1 - s1) * 1.25 - (e0 - s0)), <, (e0 - s0) * 0.001);
  g_assert_cmpint (llabs ((s1 + e1) / 2 - (s0 + e0) / 2), <, (e0 - s0) / 1000);
  for (guint i = 0; i < 20; i++)
    press_key (view, GDK_KEY_w, 0);
  sl_timeline_view_get_window (view, &s1, &e1);
  g_assert_cmpint (e1 - s1, <, (e0 - s0) / 50);

  /* D pans right by a tenth, A back */
  g_assert_true (press_key (view, GDK_KEY_d, 0));
  sl_timeline_view_get_window (view, &s2, &e2);
  g_assert_cmpint (llabs ((s2 - s1) - (e1 - s1) / 10), <, (e1 - s1) / 100);
  g_assert_true (press_key (view, GDK_KEY_a, 0));
  g_assert_true (press_key (view, GDK_KEY_Right, 0));
  g_assert_true (press_key (view, GDK_KEY_Left, 0));
  sl_timeline_view_get_window (view, &s2, &e2);
  g_assert_cmpint (llabs (s2 - s1), <, (e1 - s1) / 100);

  /* S zooms out; Backspace and Ctrl+Z go back through the zooms */
  g_assert_true (press_key (view, GDK_KEY_s, 0));
  sl_timeline_view_get_window (view, &s2, &e2);
  g_assert_cmpint (e2 - s2, >, e1 - s1);
  g_assert_true (press_key (view, GDK_KEY_BackSpace, 0));
  sl_timeline_view_get_window (view, &s2, &e2);
  g_assert_cmpint (llabs ((e2 - s2) - (e1 - s1)), <, (e1 - s1) / 100);
  g_assert_true (press_key (view, GDK_KEY_z, GDK_CONTROL_MASK));
  settle ();
  save_window_screenshot (window, SCREENSHOT_DIR, "timeline-zoomed.png");

  /* Ctrl+wheel zooms at the pointer: the time under it stays put */
  {
    double x = SL_TIMELINE_GUTTER_WIDTH + 100;
    SlTimelineViewport vp;
    gint64 before, after;

    sl_timeline_view_get_viewport (view, &vp);
    before = vp.t0 + (gint64)(100 * vp.ns_per_pixel);
    sl_timeline_view_zoom_at (view, x, 2);
    sl_timeline_view_get_viewport (view, &vp);
    after = vp.t0 + (gint64)(100 * vp.ns_per_pixel);
    g_assert_cmpint (llabs (after - before), <=, (gint64)ceil (vp.ns_per_pixel) + 1);
  }

  /* F shows everything again */
  g_assert_true (press_key (view, GDK_KEY_f, 0));
  sl_timeline_view_get_window (view, &s2, &e2);
  g_assert_cmpint (s2, <=, sl_trace_get_start_ns (trace));
  g_assert_cmpint (e2, >=, sl_trace_get_end_ns (trace));
}

static gboolean
range_index_built (gpointer data)
{
  return sl_trace_aggregate_index_peek (data) != NULL;
}

static gboolean
search_index_built (gpointer data)
{
  return sl_trace_search_peek (data) != NULL;
}

/* The range index is built on a worker as soon as the whole trace shows,
 * before anything is summed; the search index (a third of the slices'
 * memory) when the search field is entered, before anything is typed,
 * and not at all for a trace only looked at. The first search and range
 * use them instead of building their own. */
static void
test_indexes_ahead (void)
{
  g_autoptr(SlTrace) trace = fixture_build_trace (200000, 6, 5);
  SlTimelineView *view;
  SlTraceSearch *search_index;
  SlTraceAggregateIndex *range_index;
  GtkWidget *entry;
  gint64 start, end;

  g_assert_null (sl_trace_search_peek (trace));
  g_assert_null (sl_trace_aggregate_index_peek (trace));
  show_page (sl_timeline_page_new_for_trace (trace, "Timeline: indexed ahead"));
  view = sl_timeline_page_get_view (page);
  g_assert_true (sl_timeline_view_get_trace (view) == trace);
  g_assert_true (wait_until (range_index_built, trace, 60000));
  range_index = sl_trace_aggregate_index_peek (trace);
  /* the range index is built; the search index was never asked for */
  g_assert_true (wait_until (page_idle, page, 30000));
  g_assert_null (sl_trace_search_peek (trace));

  entry = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TIMELINE_PAGE, "search_entry"));
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_grab_focus (entry));
  g_assert_true (wait_until (search_index_built, trace, 60000));
  search_index = sl_trace_search_peek (trace);

  sl_timeline_page_search (page, "matmul", FALSE);
  g_assert_true (wait_until (page_idle, page, 30000));
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), >, 0);
  start = sl_trace_get_start_ns (trace);
  end = sl_trace_get_end_ns (trace);
  sl_timeline_view_set_range (view, start + (end - start) / 3, start + (end - start) / 2);
  g_assert_true (wait_until (page_idle, page, 30000));
  g_assert_cmpuint (g_list_model_get_n_items (sl_timeline_page_get_aggregate_model (page)), >, 0);
  g_assert_true (sl_trace_search_peek (trace) == search_index);
  g_assert_true (sl_trace_aggregate_index_peek (trace) == range_index);
}

/* A search typed before the search bar was entered waits for the name
 * index: the label says so at once, and the matches replace it. */
static void
test_search_waits_for_index (void)
{
  g_autoptr(SlTrace) trace = fixture_build_trace (200000, 6, 5);
  GtkLabel *label;

  show_page (sl_timeline_page_new_for_trace (trace, "Timeline: search before its index"));
  g_assert_true (wait_until (range_index_built, trace, 60000));
  g_assert_true (wait_until (page_idle, page, 30000));
  g_assert_null (sl_trace_search_peek (trace));
  label = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TIMELINE_PAGE, "search_label"));
  g_assert_nonnull (label);

  sl_timeline_page_search (page, "matmul", FALSE);
  g_assert_cmpstr (gtk_label_get_label (label), ==, "Indexing names…");
  g_assert_true (wait_until (page_idle, page, 30000));
  g_assert_nonnull (sl_trace_search_peek (trace));
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), >, 0);
  g_assert_true (g_str_has_suffix (gtk_label_get_label (label), "matches"));
  /* a long count gives way in a narrow window, whole on hover */
  g_assert_cmpint (gtk_label_get_ellipsize (label), ==, PANGO_ELLIPSIZE_END);
  g_assert_cmpstr (sl_widget_get_long_tooltip (GTK_WIDGET (label)), ==, gtk_label_get_label (label));

  /* once the index is there, a search never says it */
  sl_timeline_page_search (page, "memcpy", FALSE);
  g_assert_cmpstr (gtk_label_get_label (label), !=, "Indexing names…");
  g_assert_true (wait_until (page_idle, page, 30000));

  /* nor after a first search that fails */
  {
    g_autoptr(SlTrace) other = fixture_build_trace (20000, 3, 7);

    show_page (sl_timeline_page_new_for_trace (other, "Timeline: bad expression before its index"));
    g_assert_true (wait_until (range_index_built, other, 60000));
    g_assert_true (wait_until (page_idle, page, 30000));
    label = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_TIMELINE_PAGE, "search_label"));
    sl_timeline_page_search (page, "(unclosed", TRUE);
    g_assert_cmpstr (gtk_label_get_label (label), ==, "Indexing names…");
    g_assert_true (wait_until (page_idle, page, 30000));
    g_assert_cmpstr (gtk_label_get_label (label), !=, "Indexing names…");
  }
}

static void
test_range_table (void)
{
  SlTimelineView *view = sl_timeline_page_get_view (page);
  SlTrace *trace = sl_timeline_view_get_trace (view);
  gint64 start = sl_trace_get_start_ns (trace), end = sl_trace_get_end_ns (trace);
  gint64 from = start + (end - start) / 3, to = from + (end - start) / 50;
  GListModel *model;
  guint64 expected = 0, listed = 0;
  guint32 matmul = 0;
  g_autofree char *tsv = NULL;

  sl_timeline_view_set_range (view, from, to);
  g_assert_true (wait_until (page_idle, page, 30000));
  model = sl_timeline_page_get_aggregate_model (page);
  g_assert_cmpuint (g_list_model_get_n_items (model), >, 5);

  /* Sorted by total, longest first, as shown */
  for (guint i = 0; i + 1 < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlTimelineItem) a = g_list_model_get_item (model, i);
      g_autoptr(SlTimelineItem) b = g_list_model_get_item (model, i + 1);

      g_assert_cmpint (sl_timeline_item_get_data (a)->row.total_ns, >=, sl_timeline_item_get_data (b)->row.total_ns);
    }

  /* MatMul's count is the slices that overlap the range */
  for (guint i = 0; i < sl_trace_get_n_strings (trace); i++)
    if (g_strcmp0 (sl_trace_get_string (trace, i), "MatMul") == 0)
      matmul = i;
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER)
        continue;
      for (guint32 i = 0; i < s->n_slices; i++)
        if (sl_trace_slices_name_id (s, i) == matmul && sl_trace_slices_start_ns (s, i) <= to && sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i) >= from)
          expected++;
    }
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlTimelineItem) item = g_list_model_get_item (model, i);

      if (sl_timeline_item_get_data (item)->row.name_id == matmul)
        listed = sl_timeline_item_get_data (item)->row.count;
    }
  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (listed, ==, expected);

  tsv = sl_timeline_page_dup_aggregate_tsv (page);
  g_assert_true (g_str_has_prefix (tsv, "name\tcount\ttotal_ns\tself_ns\taverage_ns\tmin_ns\tmax_ns\n"));
  g_assert_nonnull (strstr (tsv, "\nMatMul\t"));
  settle ();
  save_window_screenshot (window, SCREENSHOT_DIR, "timeline-range.png");
}

static guint64
count_overlapping_slices (SlTrace *trace,
                          gint64   from,
                          gint64   to)
{
  guint64 n = 0;

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER)
        continue;
      for (guint32 i = 0; i < s->n_slices; i++)
        n += sl_trace_slices_start_ns (s, i) <= to && sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i) >= from;
    }
  return n;
}

static void
assert_file_starts_with (const char *path,
                         const char *magic,
                         gsize       length)
{
  g_autofree char *contents = NULL;
  gsize size = 0;

  g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
  g_assert_cmpuint (size, >, length);
  g_assert_cmpmem (contents, length, magic, length);
}

/* The range selected in the previous test, exported as a trace that reads
 * back to the same slices, as CSV, and the view as images. */
static void
test_export (void)
{
  SlTimelineView *view = sl_timeline_page_get_view (page);
  SlTrace *trace = sl_timeline_view_get_trace (view);
  g_autofree char *json = g_build_filename (tmp_root, "range.json", NULL);
  g_autofree char *csv = g_build_filename (tmp_root, "range.csv", NULL);
  g_autoptr(SlTrace) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv_text = NULL;
  g_auto(GStrv) csv_lines = NULL;
  gint64 from = 0, to = 0;
  guint64 n = 0, expected;
  const char *images[] = { "png", "\x89PNG", "svg", "<?xml", "pdf", "%PDF" };

  g_assert_true (sl_timeline_renderer_get_range (sl_timeline_view_get_renderer (view), &from, &to));
  expected = count_overlapping_slices (trace, from, to);
  g_assert_cmpuint (expected, >, 0);

  g_assert_true (sl_timeline_page_export (page, "json", json, &n, &error));
  g_assert_no_error (error);
  again = sl_chrome_trace_load (json, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_overlapping_slices (again, G_MININT64, G_MAXINT64), ==, expected);

  g_assert_true (sl_timeline_page_export (page, "csv", csv, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, expected);
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, NULL));
  csv_lines = g_strsplit (g_strchomp (csv_text), "\n", -1);
  g_assert_cmpuint (g_strv_length (csv_lines), ==, expected + 1);

  for (guint i = 0; i < G_N_ELEMENTS (images); i += 2)
    {
      g_autofree char *name = g_strdup_printf ("timeline-export.%s", images[i]);
      g_autofree char *path = g_build_filename (SCREENSHOT_DIR, name, NULL);

      g_mkdir_with_parents (SCREENSHOT_DIR, 0755);
      g_assert_true (sl_timeline_page_export (page, images[i], path, NULL, &error));
      g_assert_no_error (error);
      assert_file_starts_with (path, images[i + 1], strlen (images[i + 1]));
    }

  /* A folder that cannot be written says so. */
  g_assert_false (sl_timeline_page_export (page, "json", "/nonexistent-folder/range.json", NULL, &error));
  g_assert_nonnull (error);
}

static void
test_tracks_hide_pin_collapse (void)
{
  SlTimelineView *view = sl_timeline_page_get_view (page);
  SlTimelineRenderer *renderer = sl_timeline_view_get_renderer (view);
  double full = sl_timeline_renderer_get_content_height (renderer);

  sl_timeline_renderer_set_track_hidden (renderer, 0, TRUE);
  g_assert_cmpfloat (sl_timeline_renderer_get_content_height (renderer), <, full);
  sl_timeline_renderer_set_track_hidden (renderer, 0, FALSE);
  g_assert_cmpfloat (sl_timeline_renderer_get_content_height (renderer), ==, full);

  /* A click on the first process header folds it, on the canvas and in
   * the track list */
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));
    guint n_rows = g_list_model_get_n_items (sl_timeline_page_get_tracks_model (page));

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

        if (GTK_IS_GESTURE_CLICK (controller))
          g_signal_emit_by_name (controller, "pressed", 1, 60.0, SL_TIMELINE_RULER_HEIGHT + 10.0);
      }
    g_assert_true (sl_timeline_renderer_get_process_collapsed (renderer, 0));
    g_assert_cmpfloat (sl_timeline_renderer_get_content_height (renderer), <, full * 0.6);
    g_assert_cmpuint (g_list_model_get_n_items (sl_timeline_page_get_tracks_model (page)), <, n_rows);
  }
  sl_timeline_renderer_set_track_pinned (renderer, 3, TRUE);
  g_assert_cmpfloat (sl_timeline_renderer_get_pinned_height (renderer), >, 0);
  sl_timeline_view_relayout (view);
  settle ();
  save_window_screenshot (window, SCREENSHOT_DIR, "timeline-pinned-collapsed.png");
  sl_timeline_renderer_set_process_collapsed (renderer, 0, FALSE);
  sl_timeline_renderer_set_track_pinned (renderer, 3, FALSE);
  sl_timeline_view_relayout (view);
}

/* The timeline paints its own background and text: grey 98% and 13% in
 * light style, 14% and 92% in dark (sl-timeline-renderer.c). */
#define LIGHT_BG (0.98 * 255)
#define LIGHT_FG (0.13 * 255)
#define DARK_BG  (0.14 * 255)
#define DARK_FG  (0.92 * 255)

/* The same view in light and in dark style, compared: the ruler's
 * background and its bottom line are the style's, the time labels are dark
 * on light and light on dark, and the dark picture is darker nearly
 * everywhere. */
static void
test_dark_style (void)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkWidget *view = GTK_WIDGET (sl_timeline_page_get_view (page));
  g_autoptr(Capture) light = NULL;
  g_autoptr(Capture) dark = NULL;
  int vx, vy, vw, vh, rx, rw;
  LumaStats light_ruler, dark_ruler, light_line, dark_line;
  guint light_text = 0, dark_text = 0;
  guint darker, lighter;

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  settle ();
  g_assert_false (adw_style_manager_get_dark (manager));
  light = capture_window (window, SCREENSHOT_DIR, "timeline-light.png");

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  settle ();
  g_assert_true (adw_style_manager_get_dark (manager));
  dark = capture_window (window, SCREENSHOT_DIR, "timeline-dark.png");
  g_assert_cmpuint (dark->coloured, >, 20000);

  g_assert_cmpint (light->width, ==, dark->width);
  g_assert_cmpint (light->height, ==, dark->height);
  widget_origin_in (view, window, &vx, &vy);
  vw = gtk_widget_get_width (view);
  vh = gtk_widget_get_height (view);
  g_assert_cmpint (vw, >, SL_TIMELINE_GUTTER_WIDTH + 600);
  g_assert_cmpint (vh, >, 400);
  /* The ruler right of the gutter: time labels and ticks on the
   * background, above a line in the text colour at 25%. The range the
   * range test selected has a badge there: the wider side of it is
   * looked at. */
  rx = vx + SL_TIMELINE_GUTTER_WIDTH + 1;
  rw = vw - SL_TIMELINE_GUTTER_WIDTH - 2;
  {
    SlTimelineViewport vp;
    gint64 range_start, range_end;

    sl_timeline_view_get_viewport (SL_TIMELINE_VIEW (view), &vp);
    if (sl_timeline_renderer_get_range (sl_timeline_view_get_renderer (SL_TIMELINE_VIEW (view)), &range_start, &range_end))
      {
        int left = vx + SL_TIMELINE_GUTTER_WIDTH + (int)floor ((range_start - vp.t0) / vp.ns_per_pixel) - 80;
        int right = vx + SL_TIMELINE_GUTTER_WIDTH + (int)ceil ((range_end - vp.t0) / vp.ns_per_pixel) + 80;

        if (left - rx >= rx + rw - right)
          rw = MIN (left, rx + rw) - rx;
        else
          {
            rw = rx + rw - MAX (right, rx);
            rx = MAX (right, rx);
          }
      }
    g_assert_cmpint (rw, >, 250);
  }

  light_ruler = capture_luma_stats (light, rx, vy, rw, SL_TIMELINE_RULER_HEIGHT - 1);
  dark_ruler = capture_luma_stats (dark, rx, vy, rw, SL_TIMELINE_RULER_HEIGHT - 1);
  g_assert_cmpfloat_with_epsilon (light_ruler.median, LIGHT_BG, 2.5);
  g_assert_cmpfloat_with_epsilon (dark_ruler.median, DARK_BG, 2.5);
  g_assert_cmpfloat (dark_ruler.median, <, 60);
  g_assert_cmpfloat (dark_ruler.median, <, light_ruler.median - 150);

  light_line = capture_luma_stats (light, rx, vy + SL_TIMELINE_RULER_HEIGHT - 1, rw, 1);
  dark_line = capture_luma_stats (dark, rx, vy + SL_TIMELINE_RULER_HEIGHT - 1, rw, 1);
  g_assert_cmpfloat_with_epsilon (light_line.median, 0.75 * LIGHT_BG + 0.25 * LIGHT_FG, 5);
  g_assert_cmpfloat_with_epsilon (dark_line.median, 0.75 * DARK_BG + 0.25 * DARK_FG, 5);

  /* Labels: nothing in the dark ruler is darker than its background and
   * the glyphs reach the light text colour; the other way round in
   * light style. */
  g_assert_cmpfloat (dark_ruler.min, >=, dark_ruler.median - 2);
  g_assert_cmpfloat (dark_ruler.max, >, DARK_FG - 40);
  g_assert_cmpfloat (light_ruler.max, <=, light_ruler.median + 2);
  g_assert_cmpfloat (light_ruler.min, <, LIGHT_FG + 40);
  for (int y = vy; y < vy + SL_TIMELINE_RULER_HEIGHT - 1; y++)
    for (int x = rx; x < rx + rw; x++)
      {
        light_text += capture_luma (light, x, y) < light_ruler.median - 60;
        dark_text += capture_luma (dark, x, y) > dark_ruler.median + 60;
      }
  /* The same labels in both: about as many glyph pixels. */
  g_assert_cmpuint (light_text, >, 100);
  g_assert_cmpuint (dark_text, >, 100);
  g_assert_cmpfloat ((double)dark_text / light_text, >, 0.6);
  g_assert_cmpfloat ((double)dark_text / light_text, <, 1.6);

  g_test_message ("ruler light/dark: background %.1f/%.1f, line %.1f/%.1f, labels %.1f–%.1f/%.1f–%.1f, "
                  "%u/%u glyph pixels", light_ruler.median, dark_ruler.median, light_line.median, dark_line.median,
                  light_ruler.min, light_ruler.max, dark_ruler.min, dark_ruler.max, light_text, dark_text);

  /* Pixel by pixel: background, slices (muted) and headers are darker in
   * dark style; only text and outlines are lighter. */
  capture_compare (dark, light, vx, vy, vw, vh, 20, &darker, &lighter);
  g_test_message ("%u pixels darker in dark style, %u lighter", darker, lighter);
  g_assert_cmpfloat ((double)darker / ((double)vw * vh), >, 0.8);
  g_assert_cmpfloat ((double)lighter / ((double)vw * vh), <, 0.05);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  settle ();
}

static void
test_cancel_reading (void)
{
  g_autofree char *missing = g_build_filename (tmp_root, "missing.json", NULL);
  g_autofree char *big = g_build_filename (tmp_root, "big.json", NULL);
  GString *json = g_string_new ("[");
  GtkWidget *widget;

  /* A file that is not there: the page says so instead of staying busy */
  show_page (sl_timeline_page_new (missing, "Timeline: missing"));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_FAILED);

  /* Cancel while a 20 MB file is read: the page stops and says so */
  for (guint i = 0; i < 200000; i++)
    g_string_append_printf (json, "%s{\"name\":\"op%u\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":1,\"args\":{\"n\":%u}}",
                            i ? ",\n" : "", i % 97, i * 2, i);
  g_string_append (json, "]\n");
  g_assert_true (g_file_set_contents (big, json->str, json->len, NULL));
  g_string_free (json, TRUE);
  widget = sl_timeline_page_new (big, "Timeline: big");
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (widget)), ==, SL_DOCUMENT_LOADING);
  sl_timeline_page_cancel (SL_TIMELINE_PAGE (widget));
  show_page (widget);
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_FAILED);
  g_unlink (big);
}

/* Previews */

static gboolean
find_label_prefix (GtkWidget  *widget,
                   const char *prefix)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
      && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (find_label_prefix (child, prefix))
      return TRUE;
  return FALSE;
}

/* The page draws the load's last preview (of 128 KiB). */
static gboolean
last_preview_shown (gpointer data)
{
  SlTraceLoad *load = data;
  SlTimelineView *view = sl_timeline_page_get_view (page);

  return sl_trace_load_get_preview (load) != NULL && sl_trace_load_get_preview_bytes (load) == 128 << 10
         && sl_timeline_view_get_trace (view) == sl_trace_load_get_preview (load)
         && gtk_widget_get_mapped (GTK_WIDGET (view)) && gtk_widget_get_width (GTK_WIDGET (view)) > 0;
}

static char *
write_preview_trace (void)
{
  GString *json = g_string_new ("{\"traceEvents\":[\n");
  char *path = g_build_filename (tmp_root, "preview.json", NULL);

  for (guint i = 0; i < 60000; i++)
    g_string_append_printf (json, "%s{\"name\":\"op%u\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%u,\"dur\":8,"
                                  "\"args\":{\"n\":%u}}\n",
                            i ? "," : "", i % 29, i % 3, i * 10, i);
  g_string_append (json, "]}\n");
  g_assert_true (g_file_set_contents (path, json->str, json->len, NULL));
  g_string_free (json, TRUE);
  return path;
}

static SlTraceLoad *
held_load (const char *path)
{
  SlTraceLoad *load = sl_trace_load_new (path);

  sl_trace_load_set_preview_sizes (load, 32 << 10, 128 << 10);
  sl_trace_load_hold_reading (load, TRUE);
  return load;
}

static void
show_preview (GtkWidget   *widget,
              SlTraceLoad *load)
{
  GtkWidget *stack = gtk_overlay_get_child (GTK_OVERLAY (gtk_window_get_child (GTK_WINDOW (window))));

  page = SL_TIMELINE_PAGE (widget);
  gtk_stack_add_child (GTK_STACK (stack), widget);
  gtk_stack_set_visible_child (GTK_STACK (stack), widget);
  g_assert_true (wait_until (last_preview_shown, load, 60000));
  settle ();
}

static void
test_preview (void)
{
  g_autofree char *path = write_preview_trace ();
  g_autoptr(SlTraceLoad) load = held_load (path);
  SlTimelineView *view;
  g_autoptr(SlTrace) preview = NULL;
  SlTrace *full;
  const SlTraceSlices *slices;
  gint64 start, end, window_start, window_end, selected_start;
  guint track;
  guint32 slice;
  g_autofree char *selected_name = NULL;

  show_preview (sl_timeline_page_new_for_load (load, "Timeline: preview.json"), load);
  view = sl_timeline_page_get_view (page);
  preview = g_object_ref (sl_timeline_view_get_trace (view));

  /* Still loading (links wait), but the timeline shows what was read */
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_LOADING);
  g_assert_true (sl_timeline_page_is_busy (page));
  g_assert_true (find_label_prefix (GTK_WIDGET (page), "Reading… 0 % (showing the first "));
  wait_for_frames (GTK_WIDGET (view));
  save_window_screenshot (window, SCREENSHOT_DIR, "timeline-preview.png");

  /* Zoomed into the part read, a slice in it selected */
  start = sl_trace_get_start_ns (preview);
  end = sl_trace_get_end_ns (preview);
  sl_timeline_view_set_window (view, start + (end - start) / 4, start + (end - start) / 2);
  sl_timeline_view_get_window (view, &window_start, &window_end);
  slices = sl_trace_get_slices (preview, 0);
  g_assert_nonnull (slices);
  g_assert_cmpuint (slices->n_slices, >, 100);
  sl_timeline_view_select (view, 0, slices->n_slices / 3);
  selected_start = sl_trace_slices_start_ns (slices, slices->n_slices / 3);
  selected_name = g_strdup (sl_trace_get_string (preview, sl_trace_slices_name_id (slices, slices->n_slices / 3)));
  settle ();

  /* The rest is read: the full trace replaces the preview */
  sl_trace_load_hold_reading (load, FALSE);
  g_assert_true (wait_until (page_ready, page, 60000));
  settle ();
  full = sl_timeline_view_get_trace (view);
  g_assert_true (full != preview);
  g_assert_true (full == sl_trace_load_get_trace (load));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_false (find_label_prefix (GTK_WIDGET (page), "Reading… "));
  /* The same time window, the same slice selected */
  sl_timeline_view_get_window (view, &start, &end);
  g_assert_cmpint (start, ==, window_start);
  g_assert_cmpint (end, ==, window_end);
  g_assert_true (sl_timeline_view_get_selected (view, &track, &slice));
  g_assert_cmpint (sl_trace_slices_start_ns (sl_trace_get_slices (full, track), slice), ==, selected_start);
  g_assert_cmpstr (sl_trace_get_string (full, sl_trace_slices_name_id (sl_trace_get_slices (full, track), slice)), ==, selected_name);
  g_assert_cmpuint (sl_trace_get_end_ns (full), >, sl_trace_get_end_ns (preview));
  g_assert_true (g_str_has_prefix (sl_timeline_page_get_status (page), "60,000 slices on 3 tracks · read in"));
  /* both times with a unit, none finer than a microsecond */
  g_assert_true (g_regex_match_simple ("read in (\\d+ µs|\\d+\\.\\d{1,3} (ms|s)), "
                                       "indexed in (under 1 µs|\\d+ µs|\\d+\\.\\d{1,3} (ms|s)) · ",
                                       sl_timeline_page_get_status (page), 0, 0));
  /* The preview stopped at a cut; the file does not: no problem */
  g_assert_cmpuint (g_list_model_get_n_items (sl_document_get_problems (SL_DOCUMENT (page))), ==, 0);
  save_window_screenshot (window, SCREENSHOT_DIR, "timeline-preview-replaced.png");
  g_unlink (path);
}

/* A trace cut off while it was written: what was read shows, and the
 * Problems panel says which file ends where. Another damaged in the
 * middle names the byte. A whole one has none, and a preview's cut never
 * becomes one (see /timeline/preview). */
static void
test_problems (void)
{
  g_autofree char *whole = write_preview_trace ();
  g_autofree char *cut = g_build_filename (tmp_root, "cut.json", NULL);
  g_autofree char *damaged = g_build_filename (tmp_root, "damaged.json", NULL);
  g_autofree char *text = NULL;
  gsize length;
  GListModel *problems;
  g_autoptr(SlProblem) problem = NULL;

  g_assert_true (g_file_get_contents (whole, &text, &length, NULL));
  g_assert_true (g_file_set_contents (cut, text, length / 2, NULL));
  memcpy (text + length / 3, "\x01\x02garbage", 9);
  g_assert_true (g_file_set_contents (damaged, text, length, NULL));

  show_page (sl_timeline_page_new (whole, "Timeline: whole"));
  g_assert_cmpuint (g_list_model_get_n_items (sl_document_get_problems (SL_DOCUMENT (page))), ==, 0);

  show_page (sl_timeline_page_new (cut, "Timeline: cut"));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_nonnull (sl_timeline_view_get_trace (sl_timeline_page_get_view (page)));
  problems = sl_document_get_problems (SL_DOCUMENT (page));
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, cut);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64)(length / 2));
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "ends before"));
  g_clear_object (&problem);

  show_page (sl_timeline_page_new (damaged, "Timeline: damaged"));
  problems = sl_document_get_problems (SL_DOCUMENT (page));
  g_assert_cmpuint (g_list_model_get_n_items (problems), >=, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, damaged);
  g_assert_cmpint (sl_problem_get_offset (problem), >=, (gint64)(length / 3));
  g_assert_cmpint (sl_problem_get_offset (problem), <=, (gint64)(length / 3) + 9);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);

  g_unlink (whole);
  g_unlink (cut);
  g_unlink (damaged);
}

/* A trace with nothing read with a time says so, and what it holds,
 * instead of a view of a few nanoseconds around nothing; its problems
 * stay listed. A single counter point, instant, async slice or flow is
 * something to draw. */
static void
test_nothing_to_draw (void)
{
  const struct {
    const char *name;
    const char *text;
    const char *description;  /* NULL: drawn */
    guint       n_problems;
  } cases[] = {
    { "empty-array.json", "[]", "empty-array.json holds no trace events.", 0 },
    { "empty-object.json", "{\"traceEvents\": []}", "empty-object.json holds no trace events.", 0 },
    { "metadata-only.json", "[{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"p\"}}]",
      "The 1 event in metadata-only.json is not drawn: it is not a slice, instant, counter value or flow with a time.", 0 },
    { "no-times.json", "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1}, {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": \"soon\"}]",
      "None of the 2 events in no-times.json is drawn: none is a slice, instant, counter value or flow with a time.", 1 },
    { "one-point.json", "[{\"ph\": \"C\", \"name\": \"c\", \"pid\": 1, \"ts\": 5, \"args\": {\"v\": 1}}]", NULL, 0 },
    { "one-instant.json", "[{\"ph\": \"i\", \"name\": \"i\", \"pid\": 1, \"tid\": 1, \"ts\": 5}]", NULL, 0 },
    { "one-async.json", "[{\"ph\": \"b\", \"name\": \"a\", \"cat\": \"c\", \"id\": 1, \"pid\": 1, \"tid\": 1, \"ts\": 5},"
                        " {\"ph\": \"e\", \"name\": \"a\", \"cat\": \"c\", \"id\": 1, \"pid\": 1, \"tid\": 1, \"ts\": 9}]", NULL, 0 },
    { "flow-only.json", "[{\"ph\": \"s\", \"name\": \"f\", \"cat\": \"c\", \"id\": 1, \"pid\": 1, \"tid\": 1, \"ts\": 5},"
                        " {\"ph\": \"f\", \"name\": \"f\", \"cat\": \"c\", \"id\": 1, \"pid\": 1, \"tid\": 2, \"ts\": 9, \"bp\": \"e\"}]", NULL, -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (tmp_root, cases[i].name, NULL);
      GtkWidget *range;

      g_test_message ("%s", cases[i].name);
      g_assert_true (g_file_set_contents (path, cases[i].text, -1, NULL));
      show_page (sl_timeline_page_new (path, cases[i].name));
      range = find_named (GTK_WIDGET (page), "status-range");
      g_assert_nonnull (range);
      if (cases[i].n_problems != (guint) -1)
        g_assert_cmpuint (g_list_model_get_n_items (sl_document_get_problems (SL_DOCUMENT (page))), ==, cases[i].n_problems);
      if (cases[i].description != NULL)
        {
          g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_EMPTY);
          g_assert_true (find_label_prefix (GTK_WIDGET (page), "Nothing to Draw"));
          g_assert_true (find_label_prefix (GTK_WIDGET (page), cases[i].description));
          /* the status line, in its tooltip, speaks of no range either */
          g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (range)), ==, "nothing to show: nothing read has a time");
          g_assert_null (strstr (sl_timeline_page_get_status (page), "showing"));
        }
      else
        {
          g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
          g_assert_false (find_label_prefix (GTK_WIDGET (page), "Nothing to Draw"));
          g_assert_true (g_str_has_prefix (gtk_label_get_label (GTK_LABEL (range)), "showing "));
        }
      g_unlink (path);
    }

  /* A trace put together from a profile's files, with no file of its own */
  for (guint n_events = 0; n_events <= 3; n_events += 3)
    {
      SlTraceBuilder *builder = sl_trace_builder_new (NULL);
      g_autoptr(SlTrace) trace = NULL;

      if (n_events > 0)
        sl_trace_builder_add_phase_count (builder, "M", n_events);
      trace = sl_trace_builder_finish (builder, NULL);
      show_page (sl_timeline_page_new_for_trace (trace, "Timeline: profile"));
      g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_EMPTY);
      g_assert_true (find_label_prefix (GTK_WIDGET (page),
                                        n_events == 0 ? "The trace holds no events."
                                                      : "None of the trace's 3 events is drawn: none is a slice, instant, counter value or flow with a time."));
    }
}

/* A preview left as it was fitted: the full trace shows whole. */
static void
test_preview_fitted (void)
{
  g_autofree char *path = write_preview_trace ();
  g_autoptr(SlTraceLoad) load = held_load (path);
  SlTimelineView *view;
  g_autoptr(SlTrace) preview = NULL;
  SlTrace *full;
  gint64 start, end;

  show_preview (sl_timeline_page_new_for_load (load, "Timeline: preview.json"), load);
  view = sl_timeline_page_get_view (page);
  preview = g_object_ref (sl_timeline_view_get_trace (view));
  wait_for_frames (GTK_WIDGET (view));
  sl_timeline_view_get_window (view, &start, &end);
  g_assert_cmpint (start, <=, sl_trace_get_start_ns (preview));
  g_assert_cmpint (end, >=, sl_trace_get_end_ns (preview));

  sl_trace_load_hold_reading (load, FALSE);
  g_assert_true (wait_until (page_ready, page, 60000));
  settle ();
  full = sl_timeline_view_get_trace (view);
  g_assert_true (full == sl_trace_load_get_trace (load));
  g_assert_cmpuint (sl_trace_get_end_ns (full), >, sl_trace_get_end_ns (preview));
  sl_timeline_view_get_window (view, &start, &end);
  g_assert_cmpint (start, <=, sl_trace_get_start_ns (full));
  g_assert_cmpint (end, >=, sl_trace_get_end_ns (full));
  g_unlink (path);
}

/* Stopped while the preview shows: it stays, saying so. */
static void
test_preview_cancelled (void)
{
  g_autofree char *path = write_preview_trace ();
  g_autoptr(SlTraceLoad) load = held_load (path);
  SlTrace *preview;

  show_preview (sl_timeline_page_new_for_load (load, "Timeline: preview.json"), load);
  preview = sl_timeline_view_get_trace (sl_timeline_page_get_view (page));
  sl_timeline_page_cancel (page);
  g_assert_true (wait_until (page_ready, page, 60000));
  settle ();
  g_assert_cmpint (sl_trace_load_get_state (load), ==, SL_TRACE_LOAD_CANCELLED);
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_true (sl_timeline_view_get_trace (sl_timeline_page_get_view (page)) == preview);
  g_assert_true (find_label_prefix (GTK_WIDGET (page), "Reading stopped at 0 %: showing the first "));
  g_assert_nonnull (strstr (sl_timeline_page_get_status (page), "slices on 3 tracks read so far"));
  g_unlink (path);
}

static GtkWidget *
find_link_label (GtkWidget  *widget,
                 const char *text)
{
  if (GTK_IS_LABEL (widget) && g_object_get_data (G_OBJECT (widget), "sl-link-func") != NULL
      && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_link_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
window_scans_done (gpointer data)
{
  return sl_workspace_get_n_scanning (sl_window_get_workspace (data)) == 0;
}

static gboolean
widget_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* A trace for links: 40 streams of idle time, an op on stream 35 three
 * times (a longer name containing it earlier on stream 2), an op in 1000
 * slices and names with regular expression characters. */
static char *
write_link_trace (void)
{
  GString *json = g_string_new ("{\"traceEvents\":[\n");
  char *path = g_build_filename (tmp_root, "links.json", NULL);
  static const guint op_times[] = { 5000, 12000, 30000 };

  g_string_append (json, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"Device\"}}");
  for (guint t = 0; t < 40; t++)
    g_string_append_printf (json, ",\n{\"name\":\"Idle\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":0,\"dur\":40000}", t);
  for (guint i = 0; i < G_N_ELEMENTS (op_times); i++)
    g_string_append_printf (json, ",\n{\"name\":\"MatMul-op4\",\"ph\":\"X\",\"pid\":1,\"tid\":35,\"ts\":%u,\"dur\":10}",
                            op_times[i]);
  g_string_append (json, ",\n{\"name\":\"MatMul-op41\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":100,\"dur\":10}");
  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (json, ",\n{\"name\":\"Busy\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":20}", 200 + i * 30);
  g_string_append (json, ",\n{\"name\":\"a.*b[0]\",\"ph\":\"X\",\"pid\":1,\"tid\":3,\"ts\":20000,\"dur\":10}");
  g_string_append (json, ",\n{\"name\":\"aXb0\",\"ph\":\"X\",\"pid\":1,\"tid\":3,\"ts\":10000,\"dur\":10}");
  g_string_append (json, "\n]}\n");
  g_assert_true (g_file_set_contents (path, json->str, json->len, NULL));
  g_string_free (json, TRUE);
  return path;
}

static gboolean
find_label_text (GtkWidget  *widget,
                 const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
      && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (find_label_text (child, text))
      return TRUE;
  return FALSE;
}

static GtkWidget *
find_search_entry (GtkWidget *widget)
{
  if (GTK_IS_SEARCH_ENTRY (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_search_entry (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GVariant *
names_request (const char * const *names,
               gint64              start,
               gint64              end)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "names", "^as", names);
  if (start >= 0)
    {
      g_variant_dict_insert (&dict, "start", "x", start);
      g_variant_dict_insert (&dict, "end", "x", end);
    }
  return g_variant_dict_end (&dict);
}

/* The selected slice: its name, and that it lies in the window and its
 * row in the tracks' scrolled area. */
static const char *
assert_selected_in_view (SlTimelineView *view,
                         gint64         *start_ns)
{
  SlTrace *trace = sl_timeline_view_get_trace (view);
  GtkAdjustment *vadj = sl_timeline_view_get_vadjustment (view);
  const SlTraceSlices *s;
  gint64 window_start, window_end;
  guint track;
  guint32 slice;
  double y;

  g_assert_true (sl_timeline_view_get_selected (view, &track, &slice));
  s = sl_trace_get_slices (trace, track);
  sl_timeline_view_get_window (view, &window_start, &window_end);
  g_assert_cmpint (sl_trace_slices_start_ns (s, slice), >=, window_start);
  g_assert_cmpint (sl_trace_slices_start_ns (s, slice) + sl_trace_slices_dur_ns (s, slice), <=, window_end);
  /* Framed: the slice is a good part of the window, not a pixel of it */
  g_assert_cmpint ((window_end - window_start) / MAX (sl_trace_slices_dur_ns (s, slice), 1), <=, 10);
  g_assert_true (sl_timeline_renderer_get_slice_y (sl_timeline_view_get_renderer (view), track, slice, &y));
  g_assert_cmpfloat (y, >=, gtk_adjustment_get_value (vadj));
  g_assert_cmpfloat (y + 20, <=, gtk_adjustment_get_value (vadj) + gtk_adjustment_get_page_size (vadj));
  if (start_ns != NULL)
    *start_ns = sl_trace_slices_start_ns (s, slice);
  return sl_trace_get_string (trace, sl_trace_slices_name_id (s, slice));
}

/* A link names ops exactly and lands on the first: zoomed to, selected,
 * its row scrolled to, "1 of 3" counted, next and previous through the
 * rest. Asked before the page has read its trace or been shown. */
static void
test_links_land (void)
{
  g_autofree char *path = write_link_trace ();
  GtkWidget *widget = sl_timeline_page_new (path, "Timeline: links.json");
  const char *op4[] = { "Default/net/dense2-Dense/MatMul-op4", NULL };
  const char *busy[] = { "Busy", NULL };
  const char *special[] = { "a.*b[0]", NULL };
  const char *missing[] = { "NoSuchOp-op99", NULL };
  SlTimelineView *view;
  gint64 first, second, start;

  sl_document_request (SL_DOCUMENT (widget), names_request (op4, -1, -1));
  show_page (widget);
  view = sl_timeline_page_get_view (page);
  g_assert_true (wait_until (page_idle, page, 10000));
  settle ();

  /* The short name of the full name, not "MatMul-op41" */
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 3);
  g_assert_cmpstr (assert_selected_in_view (view, &first), ==, "MatMul-op4");
  g_assert_cmpint (first, ==, 5000 * 1000);
  g_assert_true (find_label_text (GTK_WIDGET (page), "1 of 3"));
  /* Stream 35 lies below the first screenful: the view scrolled to it */
  g_assert_cmpfloat (gtk_adjustment_get_value (sl_timeline_view_get_vadjustment (view)), >, 0);
  save_window_screenshot (window, SCREENSHOT_DIR, "timeline-link-landed.png");

  g_assert_true (sl_timeline_page_next_match (page, FALSE));
  g_assert_cmpstr (assert_selected_in_view (view, &second), ==, "MatMul-op4");
  g_assert_cmpint (second, ==, 12000 * 1000);
  g_assert_true (find_label_text (GTK_WIDGET (page), "2 of 3"));
  g_assert_true (sl_timeline_page_next_match (page, TRUE));
  assert_selected_in_view (view, &start);
  g_assert_cmpint (start, ==, first);

  /* A range keeps the link in it: the first match from there on */
  sl_document_request (SL_DOCUMENT (page), names_request (op4, 20000 * 1000, 35000 * 1000));
  g_assert_true (wait_until (page_idle, page, 10000));
  settle ();
  g_assert_cmpstr (assert_selected_in_view (view, &start), ==, "MatMul-op4");
  g_assert_cmpint (start, ==, 30000 * 1000);
  g_assert_true (find_label_text (GTK_WIDGET (page), "3 of 3"));

  /* A range none of them lies in: the range is shown, the matches are
   * counted for the arrows, none is chosen */
  {
    gint64 window_start, window_end;

    sl_document_request (SL_DOCUMENT (page), names_request (op4, 100 * 1000, 2000 * 1000));
    g_assert_true (wait_until (page_idle, page, 10000));
    settle ();
    sl_timeline_view_get_window (view, &window_start, &window_end);
    g_assert_cmpint (window_start, ==, 100 * 1000);
    g_assert_cmpint (window_end, ==, 2000 * 1000);
    g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 3);
    g_assert_true (find_label_text (GTK_WIDGET (page), "3 matches"));
  }

  /* A name in 1000 slices: the first of them */
  sl_document_request (SL_DOCUMENT (page), names_request (busy, -1, -1));
  g_assert_true (wait_until (page_idle, page, 10000));
  settle ();
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 1000);
  g_assert_cmpstr (assert_selected_in_view (view, &start), ==, "Busy");
  g_assert_cmpint (start, ==, 200 * 1000);
  g_assert_true (find_label_text (GTK_WIDGET (page), "1 of 1,000"));

  /* Regular expression characters are only characters */
  sl_document_request (SL_DOCUMENT (page), names_request (special, -1, -1));
  g_assert_true (wait_until (page_idle, page, 10000));
  settle ();
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 1);
  g_assert_cmpstr (assert_selected_in_view (view, NULL), ==, "a.*b[0]");

  /* Many names: all are found, the entry shows the first few */
  {
    g_autoptr(GPtrArray) many = g_ptr_array_new_with_free_func (g_free);
    GtkWidget *entry;

    for (guint i = 0; i < 500; i++)
      g_ptr_array_add (many, g_strdup_printf ("Unknown-op%u", i));
    g_ptr_array_add (many, g_strdup ("MatMul-op4"));
    g_ptr_array_add (many, NULL);
    sl_document_request (SL_DOCUMENT (page), names_request ((const char * const *)many->pdata, -1, -1));
    g_assert_true (wait_until (page_idle, page, 10000));
    settle ();
    g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 3);
    g_assert_cmpstr (assert_selected_in_view (view, NULL), ==, "MatMul-op4");
    entry = find_search_entry (GTK_WIDGET (page));
    g_assert_nonnull (entry);
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==,
                     "Unknown-op0 | Unknown-op1 | Unknown-op2 | … (501 names)");
    g_assert_true (find_label_text (GTK_WIDGET (page), "1 of 3"));
  }

  /* A name the trace does not have: nothing selected, "No matches" */
  sl_document_request (SL_DOCUMENT (page), names_request (missing, -1, -1));
  g_assert_true (wait_until (page_idle, page, 10000));
  settle ();
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 0);
  g_assert_true (find_label_text (GTK_WIDGET (page), "No matches"));

  /* A text link (the older request) lands too */
  sl_document_request (SL_DOCUMENT (page), g_variant_new ("(sxxx)", "MatMul-op4", (gint64)-1, (gint64)-1, (gint64)-1));
  g_assert_true (wait_until (page_idle, page, 10000));
  settle ();
  g_assert_cmpuint (sl_timeline_page_get_n_matches (page), ==, 4);
  g_assert_cmpstr (assert_selected_in_view (view, &start), ==, "MatMul-op41");
  g_assert_true (find_label_text (GTK_WIDGET (page), "1 of 4"));
  g_unlink (path);
}

/* In the application: opening a trace shows its timeline as a document,
 * and a click on a slice fills the Details panel. */
static void
test_window_details (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlApplication) app = sl_application_new ();
  SlWindow *main_window;
  SlDetailsPanel *details;
  PanelWidget *document;
  g_autofree char *id = g_strdup_printf ("timeline:%s", trace_path);
  SlTimelineView *view;
  guint track = 0;
  guint32 slice = 0;

  g_application_set_flags (G_APPLICATION (app), g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_application_activate (G_APPLICATION (app));
  main_window = SL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (main_window);
  g_assert_true (wait_until (widget_mapped, main_window, 30000));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (main_window), "win.open-document", "(ssv)", "timeline",
                                             trace_path, g_variant_new ("(sxxx)", "", (gint64)-1, (gint64)-1,
                                                                        (gint64)-1)));
  document = sl_window_find_document (main_window, id);
  g_assert_true (SL_IS_TIMELINE_PAGE (document));
  g_assert_true (wait_until (page_ready, document, 30000));
  g_assert_cmpstr (panel_widget_get_title (document), ==, "Timeline: trace.json");

  view = sl_timeline_page_get_view (SL_TIMELINE_PAGE (document));
  g_assert_true (find_slice (sl_timeline_view_get_trace (view), "aten::matmul", 5, &track, &slice));
  sl_timeline_view_reveal (view, track, slice);
  details = SL_DETAILS_PANEL (sl_window_find_panel (main_window, "details"));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Name"), ==, "aten::matmul");
  g_assert_cmpstr (sl_details_panel_lookup (details, "Parent"), ==, "ProfilerStep#5");
  g_assert_cmpstr (sl_details_panel_lookup (details, "Input Dims"), ==, "[[8, 16], [16, 4]]");
  g_assert_nonnull (strstr (sl_details_panel_lookup (details, "Flow to"), LONG_NAME));

  /* The flow's other end is a link: following it selects the kernel */
  {
    GtkWidget *link = find_link_label (GTK_WIDGET (details), sl_details_panel_lookup (details, "Flow to"));
    gboolean handled = FALSE;
    guint new_track;
    guint32 new_slice;

    g_assert_nonnull (link);
    g_signal_emit_by_name (link, "activate-link", "#", &handled);
    g_assert_true (handled);
    g_assert_true (sl_timeline_view_get_selected (view, &new_track, &new_slice));
    g_assert_cmpstr (sl_trace_get_string (sl_timeline_view_get_trace (view),
                                          sl_trace_slices_name_id (sl_trace_get_slices (sl_timeline_view_get_trace (view), new_track), new_slice)),
                     ==, LONG_NAME);
    g_assert_cmpstr (sl_details_panel_lookup (details, "Name"), ==, LONG_NAME);
  }

  /* Details follows the document in front: another document with nothing
   * selected clears it (no slice of a tab behind it), and the timeline in
   * front again shows its own selection. */
  {
    g_autofree char *other = g_build_filename (tmp_root, "other.json", NULL);
    g_autofree char *contents = NULL;
    gsize length;
    SlDocument *second;

    g_assert_true (g_file_get_contents (trace_path, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (other, contents, length, NULL));
    second = sl_window_open_document (main_window, "timeline", other, NULL);
    g_assert_true (wait_until (page_ready, second, 30000));
    settle ();
    g_assert_null (sl_details_panel_lookup (details, "Name"));
    g_assert_null (sl_details_panel_get_item (details));
    panel_widget_raise (document);
    settle ();
    g_assert_cmpstr (sl_details_panel_lookup (details, "Name"), ==, LONG_NAME);
    g_unlink (other);
  }

  /* Opening it again raises the same document */
  sl_window_open_document (main_window, "timeline", trace_path, NULL);
  g_assert_true (sl_window_find_document (main_window, id) == document);

  /* A trace found in an opened folder opens as a timeline */
  {
    g_autofree char *folder_path = g_build_filename (tmp_root, "traces", NULL);
    g_autofree char *copy = g_build_filename (folder_path, "run.json", NULL);
    g_autofree char *contents = NULL;
    g_autofree char *folder_id = NULL;
    g_autofree char *copy_id = g_strdup_printf ("timeline:%s", copy);
    gsize length;
    SlFolder *folder;
    SlFinding *trace_finding = NULL;
    PanelWidget *folder_page;

    g_assert_cmpint (g_mkdir_with_parents (folder_path, 0755), ==, 0);
    g_assert_true (g_file_get_contents (trace_path, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (copy, contents, length, NULL));
    folder = sl_window_open_path (main_window, folder_path);
    g_assert_true (wait_until (window_scans_done, main_window, 30000));
    for (guint i = 0; i < g_list_model_get_n_items (sl_folder_get_findings (folder)); i++)
      {
        g_autoptr(SlFinding) finding = g_list_model_get_item (sl_folder_get_findings (folder), i);

        if (sl_finding_get_kind (finding) == SL_FINDING_TRACE)
          trace_finding = finding;
      }
    g_assert_nonnull (trace_finding);
    folder_id = g_strdup_printf ("folder:%s", sl_folder_get_path (folder));
    folder_page = sl_window_find_document (main_window, folder_id);
    g_assert_nonnull (folder_page);
    g_signal_emit_by_name (folder_page, "finding-activated", trace_finding);
    g_assert_true (SL_IS_TIMELINE_PAGE (sl_window_find_document (main_window, copy_id)));
    g_assert_true (wait_until (page_ready, sl_window_find_document (main_window, copy_id), 30000));
    g_unlink (copy);
    g_rmdir (folder_path);
  }
  settle ();
  save_window_screenshot (GTK_WIDGET (main_window), SCREENSHOT_DIR, "timeline-window.png");
  gtk_window_destroy (GTK_WINDOW (main_window));
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
  tmp_root = g_dir_make_tmp ("sl-timeline-XXXXXX", NULL);
  {
    g_autofree char *data_home = g_build_filename (tmp_root, "data-home", NULL);
    g_autofree char *cache_home = g_build_filename (tmp_root, "cache-home", NULL);

    g_setenv ("XDG_DATA_HOME", data_home, TRUE);
    g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  }
  adw_init ();
  panel_init ();

  trace_path = write_trace ();
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  {
    GtkWidget *overlay = gtk_overlay_new ();

    gtk_overlay_set_child (GTK_OVERLAY (overlay), gtk_stack_new ());
    gtk_window_set_child (GTK_WINDOW (window), overlay);
  }
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/timeline/reads-file", test_reads_file);
  g_test_add_func ("/timeline/status-keeps-range", test_status_keeps_range);
  g_test_add_func ("/timeline/hover-and-click", test_hover_and_click);
  g_test_add_func ("/timeline/search", test_search);
  g_test_add_func ("/timeline/keys-zoom-and-pan", test_keys_zoom_and_pan);
  g_test_add_func ("/timeline/range-table", test_range_table);
  g_test_add_func ("/timeline/export", test_export);
  g_test_add_func ("/timeline/tracks-hide-pin-collapse", test_tracks_hide_pin_collapse);
  g_test_add_func ("/timeline/dark-style", test_dark_style);
  g_test_add_func ("/timeline/missing-and-cancelled", test_cancel_reading);
  g_test_add_func ("/timeline/preview", test_preview);
  g_test_add_func ("/timeline/preview-fitted", test_preview_fitted);
  g_test_add_func ("/timeline/problems", test_problems);
  g_test_add_func ("/timeline/preview-cancelled", test_preview_cancelled);
  g_test_add_func ("/timeline/links-land", test_links_land);
  g_test_add_func ("/timeline/window-details", test_window_details);
  g_test_add_func ("/timeline/indexes-ahead", test_indexes_ahead);
  g_test_add_func ("/timeline/search-waits-for-index", test_search_waits_for_index);
  g_test_add_func ("/timeline/nothing-to-draw", test_nothing_to_draw);

  status = g_test_run ();

  g_unlink (trace_path);
  return status;
}
