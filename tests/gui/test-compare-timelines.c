/* test-compare-timelines.c: the comparison document's Timelines view on
 * generated Ascend PyTorch profiles (step tables without times, step
 * slices in trace_view.json): loading on first show, aligning at a step,
 * moving together and apart, and a side without a timeline, a damaged
 * timeline and unequal step counts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "sl-compare-page.h"
#include "sl-compare-timelines.h"

#define US 1000

static const char kernel_header[] =
  "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Shapes\n";
static const char step_header[] =
  "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
  "Communication(Not Overlapped and Exclude Receive),Preparing\n";

typedef enum {
  TRACE_GOOD,
  TRACE_NONE,
  TRACE_DAMAGED,
} TraceKind;

/* Step k (1-based) starts at @first_us + (k − 1) × @step_us and lasts
 * @step_us − 100 µs, with a MatMul on the device 50 µs into it. */
static char *
write_profile (const char *root,
               const char *name,
               int         n_steps,
               int         first_us,
               int         step_us,
               TraceKind   trace_kind)
{
  g_autofree char *unit = g_build_filename (root, name, NULL);
  g_autofree char *output = g_build_filename (unit, "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *kernel_path = g_build_filename (output, "kernel_details.csv", NULL);
  g_autofree char *step_path = g_build_filename (output, "step_trace_time.csv", NULL);
  g_autofree char *trace_path = g_build_filename (output, "trace_view.json", NULL);
  g_autoptr(GString) kernels = g_string_new (kernel_header);
  g_autoptr(GString) steps = g_string_new (step_header);
  g_autoptr(GString) trace = g_string_new ("[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Python\"}},\n"
                                           "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"Ascend Hardware\"}}");

  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  for (int step = 1; step <= n_steps; step++)
    {
      int start = first_us + (step - 1) * step_us;

      g_string_append_printf (kernels, "%d,MatMul%d,MatMul,AI_CORE,%d,40,0,20,\"2,3;3,4\"\n", step, step, start + 50);
      g_string_append_printf (steps, "%d,40,0,0,0,%d,0,0,0,0\n", step, step_us - 140);
      g_string_append_printf (trace, ",\n{\"ph\":\"X\",\"name\":\"ProfilerStep#%d\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d}",
                              step, start, step_us - 100);
      g_string_append_printf (trace, ",\n{\"ph\":\"X\",\"name\":\"MatMul%d\",\"pid\":2,\"tid\":7,\"ts\":%d,\"dur\":40}",
                              step, start + 50);
    }
  g_string_append (trace, "]\n");
  g_assert_true (g_file_set_contents (kernel_path, kernels->str, -1, NULL));
  g_assert_true (g_file_set_contents (step_path, steps->str, -1, NULL));
  if (trace_kind == TRACE_GOOD)
    g_assert_true (g_file_set_contents (trace_path, trace->str, -1, NULL));
  else if (trace_kind == TRACE_DAMAGED)
    /* Cut inside the first event's name: nothing after it can be read. */
    g_assert_true (g_file_set_contents (trace_path, "[{\"ph\":\"X\",\"name\":\"Profil", -1, NULL));
  return g_steal_pointer (&unit);
}

static gboolean
page_settled (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  return state == SL_DOCUMENT_READY || state == SL_DOCUMENT_FAILED;
}

static gboolean
panes_settled (gpointer data)
{
  for (guint side = 0; side < 2; side++)
    {
      SlTimelinePaneState state = sl_timeline_pane_get_state (sl_compare_timelines_get_pane (data, side));

      if (state == SL_TIMELINE_PANE_EMPTY || state == SL_TIMELINE_PANE_LOADING)
        return FALSE;
    }
  return TRUE;
}

static SlTimelineView *
view_of (SlCompareTimelines *timelines,
         guint               side)
{
  return sl_timeline_pane_get_view (sl_compare_timelines_get_pane (timelines, side));
}

static gint64
window_start (SlCompareTimelines *timelines,
              guint               side)
{
  gint64 start;

  sl_timeline_view_get_window (view_of (timelines, side), &start, NULL);
  return start;
}

static gint64
window_end (SlCompareTimelines *timelines,
            guint               side)
{
  gint64 end;

  sl_timeline_view_get_window (view_of (timelines, side), NULL, &end);
  return end;
}

/* Opens the comparison, waits for it, shows the Timelines view and waits
 * for both timelines. */
static SlCompareTimelines *
open_timelines (SlWindow   *window,
                const char *base,
                const char *comparison)
{
  g_autoptr(SlDocumentAddress) address = sl_document_address_new_pair (base, comparison);
  SlComparePage *page = SL_COMPARE_PAGE (sl_window_open_address (window, "compare", address, NULL));
  AdwViewStack *stack;
  SlCompareTimelines *timelines;

  g_assert_nonnull (page);
  g_assert_true (wait_until (page_settled, page, 60000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  stack = ADW_VIEW_STACK (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_COMPARE_PAGE, "view_stack"));
  timelines = SL_COMPARE_TIMELINES (gtk_widget_get_template_child (GTK_WIDGET (page), SL_TYPE_COMPARE_PAGE, "timelines"));

  /* Nothing is read before the view is shown. */
  g_assert_cmpint (sl_timeline_pane_get_state (sl_compare_timelines_get_pane (timelines, 0)), ==, SL_TIMELINE_PANE_EMPTY);
  g_assert_cmpint (sl_timeline_pane_get_state (sl_compare_timelines_get_pane (timelines, 1)), ==, SL_TIMELINE_PANE_EMPTY);

  adw_view_stack_set_visible_child_name (stack, "timelines");
  g_assert_true (wait_until (panes_settled, timelines, 60000));
  wait_for_frames (GTK_WIDGET (timelines));
  return timelines;
}

static const char *
step_label (SlCompareTimelines *timelines,
            guint               index)
{
  return gtk_string_list_get_string (GTK_STRING_LIST (sl_compare_timelines_get_steps (timelines)), index);
}

/* The other view's window is this one's moved by the offset, both ends. */
static void
assert_follows (SlCompareTimelines *timelines,
                gint64              offset)
{
  g_assert_cmpint (window_start (timelines, 1), ==, window_start (timelines, 0) + offset);
  g_assert_cmpint (ABS (window_end (timelines, 1) - (window_end (timelines, 0) + offset)), <=, 1);
}

static void
check_aligned_and_linked (SlWindow   *window,
                          const char *base,
                          const char *comparison)
{
  SlCompareTimelines *timelines = open_timelines (window, base, comparison);
  SlTimelineLink *link = sl_compare_timelines_get_link (timelines);
  SlTimelineView *base_view = view_of (timelines, 0);
  SlTimelineView *comparison_view = view_of (timelines, 1);
  gint64 before[2], offset, delta;
  double middle;

  g_assert_cmpint (sl_timeline_pane_get_state (sl_compare_timelines_get_pane (timelines, 0)), ==, SL_TIMELINE_PANE_READY);
  g_assert_cmpint (sl_timeline_pane_get_state (sl_compare_timelines_get_pane (timelines, 1)), ==, SL_TIMELINE_PANE_READY);
  g_assert_cmpuint (g_list_model_get_n_items (sl_compare_timelines_get_steps (timelines)), ==, 3);
  g_assert_cmpstr (step_label (timelines, 1), ==, "Step 2");

  /* Step 2: base at 1000 + 1000 µs, comparison at 5000 + 1200 µs; the
   * window is the longer step, 1100 µs. */
  sl_compare_timelines_choose_step (timelines, 1);
  wait_for_frames (GTK_WIDGET (timelines));
  g_assert_cmpint (window_start (timelines, 0), ==, 2000 * US);
  g_assert_cmpint (window_start (timelines, 1), ==, 6200 * US);
  g_assert_cmpint (ABS (window_end (timelines, 0) - 3100 * US), <=, 1);
  g_assert_cmpint (ABS (window_end (timelines, 1) - 7300 * US), <=, 1);
  offset = sl_timeline_link_get_offset (link);
  g_assert_cmpint (offset, ==, 4200 * US);

  /* Panning the base moves the comparison by the same time. */
  before[0] = window_start (timelines, 0);
  before[1] = window_start (timelines, 1);
  sl_timeline_view_pan (base_view, 120);
  delta = window_start (timelines, 0) - before[0];
  g_assert_cmpint (delta, >, 0);
  g_assert_cmpint (window_start (timelines, 1) - before[1], ==, delta);
  assert_follows (timelines, offset);

  /* Zooming the comparison zooms the base, around the same times. */
  middle = gtk_widget_get_width (GTK_WIDGET (comparison_view)) / 2.0;
  sl_timeline_view_zoom_at (comparison_view, middle, 2.0);
  g_assert_cmpint (window_end (timelines, 1) - window_start (timelines, 1), <, 600 * US);
  assert_follows (timelines, offset);

  /* Ctrl+L's action unlinks: the comparison stays where it is. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timelines), "timelines.link", NULL));
  g_assert_false (sl_timeline_link_get_linked (link));
  before[1] = window_start (timelines, 1);
  sl_timeline_view_pan (base_view, -300);
  g_assert_cmpint (window_start (timelines, 1), ==, before[1]);
  g_assert_cmpint (window_start (timelines, 0) + offset, !=, before[1]);

  /* Linked again, the comparison comes back to the base. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timelines), "timelines.link", NULL));
  g_assert_true (sl_timeline_link_get_linked (link));
  assert_follows (timelines, offset);

  /* Step 3 realigns: both views at their own step 3. */
  sl_compare_timelines_choose_step (timelines, 2);
  g_assert_cmpint (window_start (timelines, 0), ==, 3000 * US);
  g_assert_cmpint (window_start (timelines, 1), ==, 7400 * US);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "compare-timelines.png");
}

static void
check_missing_timeline (SlWindow   *window,
                        const char *base,
                        const char *without)
{
  SlCompareTimelines *timelines = open_timelines (window, base, without);
  SlTimelinePane *pane = sl_compare_timelines_get_pane (timelines, 1);
  const char *message = sl_timeline_pane_get_message (pane);

  g_assert_cmpint (sl_timeline_pane_get_state (sl_compare_timelines_get_pane (timelines, 0)), ==, SL_TIMELINE_PANE_READY);
  g_assert_cmpint (sl_timeline_pane_get_state (pane), ==, SL_TIMELINE_PANE_FAILED);
  /* The folder and the files looked for. */
  g_assert_nonnull (strstr (message, without));
  g_assert_nonnull (strstr (message, "trace_view.json"));
  /* The base alone still goes from step to step. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_compare_timelines_get_steps (timelines)), ==, 3);
  sl_compare_timelines_choose_step (timelines, 2);
  g_assert_cmpint (window_start (timelines, 0), ==, 3000 * US);
}

static void
check_damaged_timeline (SlWindow   *window,
                        const char *base,
                        const char *damaged)
{
  SlCompareTimelines *timelines = open_timelines (window, base, damaged);
  SlTimelinePane *pane = sl_compare_timelines_get_pane (timelines, 1);
  g_autofree char *trace_path = g_build_filename (damaged, "ASCEND_PROFILER_OUTPUT", "trace_view.json", NULL);
  const char *message = sl_timeline_pane_get_message (pane);

  SlDocument *page = SL_DOCUMENT (gtk_widget_get_ancestor (GTK_WIDGET (timelines), SL_TYPE_COMPARE_PAGE));
  GListModel *problems = sl_document_get_problems (page);
  g_autofree char *text = NULL;
  gsize length;
  guint n_trace = 0;

  g_assert_nonnull (message);
  g_test_message ("damaged: %s", message);
  g_assert_nonnull (strstr (message, trace_path));

  /* The cut is in the Problems panel too, once, with its file and byte */
  g_assert_true (g_file_get_contents (trace_path, &text, &length, NULL));
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (g_strcmp0 (sl_problem_get_path (problem), trace_path) != 0)
        continue;
      n_trace++;
      g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64) length);
      g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
      g_assert_nonnull (strstr (sl_problem_get_message (problem), "ends before"));
    }
  g_assert_cmpuint (n_trace, ==, 1);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "compare-timelines-damaged.png");
}

static void
check_unequal_steps (SlWindow   *window,
                     const char *base,
                     const char *shorter)
{
  SlCompareTimelines *timelines = open_timelines (window, base, shorter);
  const char *note = sl_compare_timelines_get_note (timelines);

  /* Paired by position: two pairs, and the note says why. */
  g_assert_cmpuint (g_list_model_get_n_items (sl_compare_timelines_get_steps (timelines)), ==, 2);
  g_assert_nonnull (note);
  g_assert_nonnull (strstr (note, "3 steps"));
  g_assert_nonnull (strstr (note, "comparison 2"));
  sl_compare_timelines_choose_step (timelines, 1);
  g_assert_cmpint (window_start (timelines, 0), ==, 2000 * US);
  g_assert_cmpint (window_start (timelines, 1), ==, 800 * US);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *root = make_test_home ("sightline-compare-timelines-XXXXXX");
  g_autofree char *base = NULL;
  g_autofree char *comparison = NULL;
  g_autofree char *without = NULL;
  g_autofree char *damaged = NULL;
  g_autofree char *shorter = NULL;
  g_autoptr(SlApplication) app = NULL;
  SlWindow *window;

  if (skip_without_display ())
    return 77;
  gtk_init ();

  base = write_profile (root, "run1_ascend_pt", 3, 1000, 1000, TRACE_GOOD);
  comparison = write_profile (root, "run2_ascend_pt", 3, 5000, 1200, TRACE_GOOD);
  without = write_profile (root, "run3_ascend_pt", 3, 1000, 1000, TRACE_NONE);
  damaged = write_profile (root, "run4_ascend_pt", 3, 1000, 1000, TRACE_DAMAGED);
  shorter = write_profile (root, "run5_ascend_pt", 2, 200, 600, TRACE_GOOD);
  window = start_application (&app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);

  check_aligned_and_linked (window, base, comparison);
  check_missing_timeline (window, base, without);
  check_damaged_timeline (window, base, damaged);
  check_unequal_steps (window, base, shorter);

  g_clear_object (&app);
  return 0;
}
