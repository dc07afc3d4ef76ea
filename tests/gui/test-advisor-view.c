/* test-advisor-view.c: the Advisor tab of the profile document on a
 * generated Ascend PyTorch profiler folder with known problems: an AI
 * CPU op of 35 µs (medium), Cast at 7.5 % of the op time (high), a
 * DOUBLE AI CPU op (low) and no pipe ratios (two rules that cannot run)
 * on its first rank, a second rank with none of them; a threshold
 * overridden in the settings file. The rank dropdown changes the report. The tab's sections and
 * counts against sl_advisor_run() on the same folder, Details of a
 * finding, "Show All Ops in Operators", the rules that could not run with
 * the paths they looked in; a screenshot.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>

#include "gui-test-util.h"
#include "sl-details-panel.h"
#include "sl-advisor.h"
#include "sl-performance-tile.h"
#include "sl-profile-loader.h"
#include "sl-profile-page.h"

static char *tmp_root;
static char *profile_dir;
static SlApplication *app;
static SlWindow *window;

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

/* One step of 1000 µs. Op time 803 µs: Cast 60 µs is 7.5 % of it and 6 %
 * of the step (high); NonZero1 35 µs on the AI CPU, 3.5 % (medium, the
 * overridden 30 µs still below it); Index1 8 µs with DOUBLE input (low). */
static char *
make_profile (void)
{
  char *dir = g_build_filename (tmp_root, "profile", NULL);
  g_autofree char *output = g_build_filename (dir, "rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);

  write_file (output, "kernel_details.csv",
              "Step Id,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Data Types\n"
              "1,NonZero1,NonZero,static,AI_CPU,1.0,35,0,1,INT64\n"
              "1,Cast1,Cast,static,AI_CORE,40.0,60,0,8,FLOAT16\n"
              "1,MatMul1,MatMul,static,AI_CORE,100.0,700,0,32,FLOAT16\n"
              "1,Index1,Index,static,AI_CPU,810.0,8,0,1,DOUBLE\n");
  write_file (output, "step_trace_time.csv",
              "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
              "Communication(Not Overlapped and Exclude Receive),Preparing\n"
              "1,900,0,0,0,100,0,0,0,0\n");

  /* A second rank with nothing wrong but a little Cast. */
  g_free (output);
  output = g_build_filename (dir, "rank1_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  /* With pipe ratios and core times for the model performance report:
   * pipeline utilisation (0.9 x 800 + 0.2 x 10) / 810 = 89.1 %.
   * MatMul1's main memory traffic (0.01 GB/s for 700 µs, 14 KB) is 300
   * times smaller than its tensors (4 MB): suspect data, never graded. */
  write_file (output, "kernel_details.csv",
              "Step Id,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Input Data Types,"
              "aicore_time(us),aic_mac_ratio,aic_vec_ratio,aic_mte2_ratio,Input Shapes,Output Shapes,Output Data Types,"
              "aic_main_mem_read_bw(GB/s),aic_main_mem_write_bw(GB/s)\n"
              "1,Cast1,Cast,static,AI_CORE,40.0,10,0,8,FLOAT16,10,0,0.2,0.1,\"8\",\"8\",FLOAT,2,2\n"
              "1,MatMul1,MatMul,static,AI_CORE,100.0,800,0,32,FLOAT16,700,0.9,0,0.3,\"1024,1024\",\"1024,1024\",FLOAT16,"
              "0.01,0.01\n");
  write_file (output, "step_trace_time.csv",
              "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
              "Communication(Not Overlapped and Exclude Receive),Preparing\n"
              "1,900,0,0,0,100,0,0,0,0\n");
  return dir;
}

/* What the engine says of the same folder with the same settings, in a
 * thread of its own as the page does (the loader refuses the main one). */
static gpointer
expected_report_thread (gpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlAdvisorRuleBook) book = sl_advisor_rule_book_new_default (&error);
  g_autofree char *settings = sl_advisor_rule_book_dup_user_path ();
  g_autoptr(SlProfile) profile = NULL;
  SlAdvisorReport *report;

  g_assert_no_error (error);
  g_assert_true (sl_advisor_rule_book_load_overrides (book, settings, &error));
  g_assert_no_error (error);
  profile = sl_profile_load (profile_dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  report = sl_advisor_run (profile, book, NULL, &error);
  g_assert_no_error (error);
  return report;
}

static SlAdvisorReport *
expected_report (void)
{
  return g_thread_join (g_thread_new ("expected-report", expected_report_thread, NULL));
}

/* A rank's own findings and those over the whole profile. */
static gboolean
on_rank (const char *label,
         const char *rank)
{
  return label == NULL || label[0] == '\0' || g_strcmp0 (label, rank) == 0;
}

static guint
count_severity (SlAdvisorReport   *report,
                SlAdvisorSeverity  severity,
                const char        *rank)
{
  GListModel *findings = sl_advisor_report_get_findings (report);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);

      n += sl_advisor_finding_get_severity (finding) == severity &&
           on_rank (sl_advisor_finding_get_rank_label (finding), rank);
    }
  return n;
}

static guint
count_not_run (SlAdvisorReport *report,
               const char      *rank)
{
  guint n = 0;

  for (guint i = 0; i < sl_advisor_report_get_n_not_run (report); i++)
    n += on_rank (sl_advisor_report_get_not_run (report, i)->rank_label, rank);
  return n;
}

static void
assert_counts (SlAdvisorView   *view,
               SlAdvisorReport *expected,
               const char      *rank)
{
  g_assert_cmpuint (sl_advisor_view_get_n_shown (view, SL_ADVISOR_SEVERITY_HIGH), ==,
                    count_severity (expected, SL_ADVISOR_SEVERITY_HIGH, rank));
  g_assert_cmpuint (sl_advisor_view_get_n_shown (view, SL_ADVISOR_SEVERITY_MEDIUM), ==,
                    count_severity (expected, SL_ADVISOR_SEVERITY_MEDIUM, rank));
  g_assert_cmpuint (sl_advisor_view_get_n_shown (view, SL_ADVISOR_SEVERITY_LOW), ==,
                    count_severity (expected, SL_ADVISOR_SEVERITY_LOW, rank));
  g_assert_cmpuint (sl_advisor_view_get_n_not_run_shown (view), ==, count_not_run (expected, rank));
}

static SlAdvisorFinding *
find_finding (SlAdvisorReport *report,
              const char      *rule)
{
  GListModel *findings = sl_advisor_report_get_findings (report);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);

      if (g_str_equal (sl_advisor_finding_get_rule (finding), rule))
        return finding;
    }
  return NULL;
}

typedef gboolean (*WidgetTest) (GtkWidget *widget, gconstpointer data);

static GtkWidget *
find_widget (GtkWidget     *root,
             WidgetTest     test,
             gconstpointer  data)
{
  if (test (root, data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, test, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_label_with_text (GtkWidget     *widget,
                    gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), data) == 0;
}

static gboolean
is_label_containing (GtkWidget     *widget,
                     gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_label (GTK_LABEL (widget)), data) != NULL;
}

static gboolean
is_named (GtkWidget     *widget,
          gconstpointer  data)
{
  return g_strcmp0 (gtk_widget_get_name (widget), data) == 0;
}

static gboolean
is_editable_with_text (GtkWidget     *widget,
                       gconstpointer  data)
{
  return GTK_IS_SEARCH_ENTRY (widget) && g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (widget)), data) == 0;
}

static gboolean
is_expander_titled (GtkWidget     *widget,
                    gconstpointer  data)
{
  return ADW_IS_EXPANDER_ROW (widget) &&
         g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), data) == 0;
}

static gboolean
is_button_for (GtkWidget     *widget,
               gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0;
}

static gboolean
idle_for_a_moment (gpointer data)
{
  return g_get_monotonic_time () > *(gint64 *)data;
}

/* Lets the dock finish its maximize animation before a screenshot. */
static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 800 * G_TIME_SPAN_MILLISECOND;

  wait_until (idle_for_a_moment, &until, 2000);
}

static gboolean
page_loaded (gpointer data)
{
  return sl_document_get_state (SL_DOCUMENT (data)) != SL_DOCUMENT_LOADING;
}

static gboolean
report_shown (gpointer data)
{
  return sl_advisor_view_get_state (data) != SL_DOCUMENT_LOADING;
}

static void
test_advisor_view (void)
{
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  g_autoptr(SlAdvisorReport) expected = expected_report ();
  SlAdvisorFinding *cast = find_finding (expected, "cast-transdata");
  const SlAdvisorSkip *skip = NULL;
  SlAdvisorView *view;
  SlProfilePage *page;
  SlOpStatsView *ops;
  GtkWidget *row, *label, *button;
  PanelDock *dock;
  const char *rank0, *rank1;
  g_autofree char *high = NULL;

  g_assert_nonnull (cast);
  g_assert_cmpint (sl_advisor_finding_get_severity (cast), ==, SL_ADVISOR_SEVERITY_HIGH);
  g_assert_nonnull (find_finding (expected, "aicpu-ops"));
  g_assert_nonnull (find_finding (expected, "aicpu-double"));
  for (guint i = 0; i < sl_advisor_report_get_n_not_run (expected); i++)
    if (g_str_equal (sl_advisor_report_get_not_run (expected, i)->rule, "no-bound") &&
        g_str_has_prefix (sl_advisor_report_get_not_run (expected, i)->looked_in[0], profile_dir) &&
        strstr (sl_advisor_report_get_not_run (expected, i)->looked_in[0], "rank0") != NULL)
      skip = sl_advisor_report_get_not_run (expected, i);
  g_assert_nonnull (skip);
  g_assert_nonnull (skip->looked_in[0]);

  page = SL_PROFILE_PAGE (sl_window_open_document (window, "profile", profile_dir, NULL));
  g_assert_nonnull (page);
  g_assert_true (wait_until (page_loaded, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  view = sl_profile_page_get_advisor_view (page);

  sl_profile_page_show_view (page, "advisor");
  g_assert_true (wait_until (report_shown, view, 30000));
  g_assert_cmpint (sl_advisor_view_get_state (view), ==, SL_DOCUMENT_READY);

  /* Sections and counts as the engine has them, for the rank shown. */
  g_assert_cmpuint (sl_profile_get_n_ranks (sl_profile_page_get_profile (page)), ==, 2);
  rank0 = sl_profile_get_rank (sl_profile_page_get_profile (page), 0)->label;
  rank1 = sl_profile_get_rank (sl_profile_page_get_profile (page), 1)->label;
  g_assert_cmpstr (rank0, ==, sl_advisor_finding_get_rank_label (cast));
  assert_counts (view, expected, rank0);
  g_assert_cmpuint (sl_advisor_view_get_n_shown (view, SL_ADVISOR_SEVERITY_HIGH), >=, 1);
  g_assert_cmpuint (sl_advisor_view_get_n_shown (view, SL_ADVISOR_SEVERITY_MEDIUM), >=, 1);
  g_assert_cmpuint (sl_advisor_view_get_n_shown (view, SL_ADVISOR_SEVERITY_LOW), >=, 1);

  /* The rank dropdown: the second rank has fewer, then back. */
  sl_profile_page_set_rank (page, 1);
  assert_counts (view, expected, rank1);
  /* The second rank measured its pipes: the performance report's tile
   * with its value, its colour and how it is computed on hover. */
  {
    GtkWidget *tile = find_widget (GTK_WIDGET (view), is_named, "pipeline_utilization_percent");

    g_assert_nonnull (tile);
    g_assert_true (gtk_widget_is_visible (tile));
    label = find_widget (tile, is_label_with_text, "89.1 %");
    g_assert_nonnull (label);
    g_assert_true (gtk_widget_has_css_class (label, "success"));
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (tile), "busiest pipe"));
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (tile), "kernel_details.csv"));
    /* The tile's labels are bound to its properties: a new value is shown. */
    g_assert_true (SL_IS_PERFORMANCE_TILE (tile));
    g_assert_cmpstr (sl_performance_tile_get_value (SL_PERFORMANCE_TILE (tile)), ==, "89.1 %");
    g_object_set (tile, "value", "90.0 %", NULL);
    g_assert_true (find_widget (tile, is_label_with_text, "90.0 %") == label);
    g_object_set (tile, "value", "89.1 %", NULL);
    g_assert_true (find_widget (tile, is_label_with_text, "89.1 %") == label);
    g_assert_nonnull (find_widget (tile, is_label_with_text, sl_performance_tile_get_label (SL_PERFORMANCE_TILE (tile))));
    g_assert_nonnull (find_widget (GTK_WIDGET (view), is_named, "aicore_task_percent"));
    /* What it cannot give is said once, with the metric set to collect. */
    g_assert_null (find_widget (GTK_WIDGET (view), is_named, "cube_throughput_gops"));
    /* Traffic that cannot be physical is no tile, and is said with its row. */
    g_assert_null (find_widget (GTK_WIDGET (view), is_named, "memory_redundancy_percent"));
    g_assert_null (find_widget (GTK_WIDGET (view), is_named, "memory_read_gb"));
    label = find_widget (GTK_WIDGET (view), is_label_containing, "Not graded, suspect data: Tiling: memory redundancy, "
                                                                 "Memory read, Memory written.");
    g_assert_nonnull (label);
    g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (label)), "kernel_details.csv:3 (MatMul1)"));
    settle ();
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "advisor-suspect-data.png");
  }
  g_assert_cmpuint (sl_advisor_view_get_n_shown (view, SL_ADVISOR_SEVERITY_HIGH) +
                    sl_advisor_view_get_n_shown (view, SL_ADVISOR_SEVERITY_MEDIUM), <,
                    count_severity (expected, SL_ADVISOR_SEVERITY_HIGH, rank0) +
                    count_severity (expected, SL_ADVISOR_SEVERITY_MEDIUM, rank0));
  sl_profile_page_set_rank (page, 0);
  assert_counts (view, expected, rank0);
  /* The first rank has no metrics: no tiles for them. */
  g_assert_null (find_widget (GTK_WIDGET (view), is_named, "pipeline_utilization_percent"));

  high = g_strdup_printf ("%u", count_severity (expected, SL_ADVISOR_SEVERITY_HIGH, rank0));
  g_assert_nonnull (find_widget (GTK_WIDGET (view), is_label_with_text, high));
  /* The override from the settings file, with both values. */
  g_assert_nonnull (find_widget (GTK_WIDGET (view), is_label_with_text,
                                 "Threshold min_duration_us of rule aicpu-ops is 30 here, 20 by default"));

  /* The rule that could not run, with where it looked. */
  g_assert_nonnull (find_widget (GTK_WIDGET (view), is_label_with_text, skip->reason));
  label = find_widget (GTK_WIDGET (view), is_label_with_text, skip->looked_in[0]);
  g_assert_nonnull (label);
  g_assert_true (g_str_has_suffix (skip->looked_in[0], "kernel_details.csv"));

  /* Expanding a finding fills it and Details. */
  row = find_widget (GTK_WIDGET (view), is_expander_titled, sl_advisor_finding_get_title (cast));
  g_assert_nonnull (row);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
  g_assert_nonnull (sl_advisor_view_get_selected (view));
  g_assert_cmpstr (sl_advisor_finding_get_rule (sl_advisor_view_get_selected (view)), ==, "cast-transdata");
  g_assert_true (sl_details_panel_get_item (details) == G_OBJECT (sl_advisor_view_get_selected (view)));
  g_assert_cmpstr (sl_details_panel_lookup (details, "Rule"), ==, "cast-transdata");
  g_assert_cmpstr (sl_details_panel_lookup (details, "Severity"), ==, "High");
  g_assert_nonnull (find_widget (row, is_label_with_text, sl_advisor_finding_get_message (cast)));
  g_assert_nonnull (find_widget (row, is_label_with_text, "kernel_details.csv:3"));

  {
    GtkWidget *not_run = find_widget (GTK_WIDGET (view), is_expander_titled, "Ops bound by no unit");

    if (not_run != NULL)
      adw_expander_row_set_expanded (ADW_EXPANDER_ROW (not_run), TRUE);
  }
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "advisor-details.png");
  /* The report beside Details, the workspace and problems out of the way. */
  dock = PANEL_DOCK (gtk_widget_get_ancestor (GTK_WIDGET (page), PANEL_TYPE_DOCK));
  g_assert_nonnull (dock);
  panel_dock_set_reveal_start (dock, FALSE);
  panel_dock_set_reveal_bottom (dock, FALSE);
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "advisor-report.png");
  {
    GtkWidget *scrolled = gtk_widget_get_ancestor (row, GTK_TYPE_SCROLLED_WINDOW);
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
    graphene_point_t point;

    /* The expanded finding at the top: its texts, evidence, ops and links. */
    g_assert_true (gtk_widget_compute_point (row, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)),
                                             &GRAPHENE_POINT_INIT (0, 0), &point));
    gtk_adjustment_set_value (adjustment, point.y);
    settle ();
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "advisor-finding.png");
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    settle ();
    save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "advisor-not-run.png");
  }
  panel_dock_set_reveal_start (dock, TRUE);
  panel_dock_set_reveal_bottom (dock, TRUE);

  /* The Operators button lists exactly the finding's ops, by op. */
  button = find_widget (row, is_button_for, "advisor.show-ops");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (sl_profile_page_get_view (page), ==, "ops");
  ops = sl_profile_page_get_ops_view (page);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_stats_view_get_rows (ops)), ==,
                    sl_advisor_finding_get_ops (cast)->len);
  {
    g_autoptr(SlOpRow) op = g_list_model_get_item (sl_op_stats_view_get_rows (ops), 0);
    g_autofree char *shown = g_strdup_printf ("1 op of “%s”", sl_advisor_finding_get_title (cast));

    g_assert_cmpstr (sl_op_row_get_name (op), ==, "Cast1");
    /* The filter is in the entry, where it can be seen and cleared. */
    g_assert_nonnull (find_widget (GTK_WIDGET (ops), is_editable_with_text, shown));
  }
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "advisor-show-ops.png");
}

static void
shown_name_cb (SlAdvisorView *view,
               const char    *name,
               char         **out)
{
  g_free (*out);
  *out = g_strdup (name);
}

static gboolean
is_op_link (GtkWidget     *widget,
            gconstpointer  data)
{
  GVariant *target;

  if (!GTK_IS_BUTTON (widget) || g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), ((const char **)data)[0]) != 0)
    return FALSE;
  target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (widget));
  return target != NULL && g_strcmp0 (g_variant_get_string (target, NULL), ((const char **)data)[1]) == 0;
}

/* "Show All Ops in Operators" lists the finding's ops and no other, even
 * where a text filter would take in more (AI_CPU also names Index1, an
 * op too short for the rule); the ops named in the evidence are links to
 * their Operators rows and to the timeline, in the report and Details. */
static void
test_links (void)
{
  SlDetailsPanel *details = SL_DETAILS_PANEL (sl_window_find_panel (window, "details"));
  g_autoptr(SlAdvisorReport) expected = expected_report ();
  SlAdvisorFinding *aicpu = find_finding (expected, "aicpu-ops");
  SlProfilePage *page = SL_PROFILE_PAGE (sl_window_open_document (window, "profile", profile_dir, NULL));
  SlAdvisorView *view = sl_profile_page_get_advisor_view (page);
  SlOpStatsView *ops = sl_profile_page_get_ops_view (page);
  const char *show_op[] = { "advisor.show-op", "NonZero1" };
  const char *on_timeline[] = { "advisor.show-op-on-timeline", "NonZero1" };
  g_autofree char *shown = NULL;
  GtkWidget *row, *button;

  g_assert_nonnull (aicpu);
  g_assert_cmpuint (sl_advisor_finding_get_ops (aicpu)->len, ==, 1);
  g_assert_cmpstr (sl_advisor_finding_get_filter_text (aicpu), ==, "AI_CPU");
  sl_profile_page_show_view (page, "advisor");
  g_assert_true (wait_until (report_shown, view, 30000));
  row = find_widget (GTK_WIDGET (view), is_expander_titled, sl_advisor_finding_get_title (aicpu));
  g_assert_nonnull (row);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);

  button = find_widget (row, is_button_for, "advisor.show-ops");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (sl_profile_page_get_view (page), ==, "ops");
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_stats_view_get_rows (ops)), ==, 1);
  {
    g_autoptr(SlOpRow) op = g_list_model_get_item (sl_op_stats_view_get_rows (ops), 0);

    g_assert_cmpstr (sl_op_row_get_name (op), ==, "NonZero1");
  }
  /* Typing in the entry filters by text again */
  sl_op_stats_view_set_filter (ops, "AI_CPU");
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_stats_view_get_rows (ops)), ==, 2);
  sl_op_stats_view_set_filter (ops, "");

  /* The evidence's op: its row in Operators, selected */
  sl_profile_page_show_view (page, "advisor");
  button = find_widget (row, is_op_link, show_op);
  g_assert_nonnull (button);
  sl_op_stats_view_set_filter (ops, "Cast");
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (sl_profile_page_get_view (page), ==, "ops");
  g_assert_nonnull (sl_op_stats_view_get_selected (ops));
  g_assert_cmpstr (sl_op_row_get_name (sl_op_stats_view_get_selected (ops)), ==, "NonZero1");
  settle ();
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "advisor-op-link.png");

  /* ... and its slices on the timeline */
  sl_profile_page_show_view (page, "advisor");
  g_signal_connect (view, "show-op-on-timeline", G_CALLBACK (shown_name_cb), &shown);
  button = find_widget (row, is_op_link, on_timeline);
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (shown, ==, "NonZero1");
  g_signal_handlers_disconnect_by_func (view, shown_name_cb, &shown);

  /* Details lists the same evidence as a link */
  g_assert_true (sl_details_panel_get_item (details) == G_OBJECT (sl_advisor_view_get_selected (view)));
  g_assert_nonnull (sl_details_panel_lookup (details, "NonZero1"));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "advisor-evidence-links.png");
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *settings_dir = NULL;
  int status;

  tmp_root = make_test_home ("sl-advisor-view-XXXXXX");

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  settings_dir = g_build_filename (g_getenv ("XDG_CONFIG_HOME"), "sightline", NULL);
  write_file (settings_dir, "advisor.json", "{\"rules\": {\"aicpu-ops\": {\"min_duration_us\": 30}}}");
  profile_dir = make_profile ();

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/advisor-view/report", test_advisor_view);
  g_test_add_func ("/advisor-view/links", test_links);
  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  g_free (profile_dir);
  return status;
}
