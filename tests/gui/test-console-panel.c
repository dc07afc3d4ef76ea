/* test-console-panel.c: the Console with one log a job, following the end
 *
 * Two jobs give two logs, the newest shown and the older still readable;
 * an old job's log opens in a view of its own that no job writes to;
 * output streamed in many pieces, with the main loop running between
 * them as a job's output comes, keeps the last line in sight; scrolling
 * up stops following, scrolling back to the end or Ctrl+End follows again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <libpanel.h>

#include "gui-test-util.h"
#include "sl-console-panel.h"

#define WAIT_MS 30000

static GtkWidget *window;
static SlConsolePanel *console;

/* Lets the view lay out and paint what it was given. */
static void
settle (void)
{
  wait_for_frames (window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
stream_lines (SlConsoleLog *log,
              guint         first,
              guint         n,
              guint         per_piece)
{
  for (guint i = first; i < first + n; i += per_piece)
    {
      g_autoptr(GString) piece = g_string_new (NULL);

      for (guint j = i; j < i + per_piece && j < first + n; j++)
        g_string_append_printf (piece, "line %u of the job's output\n", j);
      sl_console_log_append (log, piece->str, piece->len);
      /* The output comes while the window draws. */
      g_main_context_iteration (NULL, FALSE);
    }
}

/* The line the end iter is on lies within the part of the log on screen. */
static gboolean
end_is_visible (gpointer data)
{
  GtkTextView *view = sl_console_log_get_text_view (data);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GdkRectangle visible, end;
  GtkTextIter iter;

  gtk_text_buffer_get_end_iter (buffer, &iter);
  gtk_text_iter_backward_char (&iter);
  gtk_text_view_get_visible_rect (view, &visible);
  gtk_text_view_get_iter_location (view, &iter, &end);
  return end.y >= visible.y && end.y + end.height <= visible.y + visible.height;
}

static GtkAdjustment *
get_vadjustment (SlConsoleLog *log)
{
  return gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (sl_console_log_get_text_view (log)));
}

static gboolean
is_scrollable (gpointer data)
{
  GtkAdjustment *adj = get_vadjustment (data);

  return gtk_adjustment_get_upper (adj) > 2 * gtk_adjustment_get_page_size (adj) &&
         gtk_adjustment_get_page_size (adj) > 0;
}

static void
count_cb (guint *count)
{
  (*count)++;
}

static void
test_two_jobs_two_logs (void)
{
  g_autofree char *shown = NULL;
  g_autofree char *older = NULL;
  guint n = sl_console_panel_get_n_jobs (console);
  guint stops = 0;
  guint first, second;

  first = sl_console_panel_add_job (console, "first job");
  sl_console_panel_append (console, "output of the first job\n", -1);
  sl_console_panel_end_job (console, 0, NULL);
  g_assert_false (sl_console_panel_is_running (console));

  sl_console_panel_begin_job (console, "second job");
  second = sl_console_panel_get_shown_job (console);
  g_assert_cmpuint (second, !=, first);
  sl_console_panel_append (console, "output of the second job\n", -1);
  g_assert_true (sl_console_panel_is_running (console));
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (sl_console_panel_get_job_log (console, second))));
  g_assert_cmpuint (sl_console_panel_get_n_jobs (console), ==, n + 2);

  /* The newest is shown, and holds only its own output. */
  shown = sl_console_panel_dup_text (console);
  g_assert_nonnull (strstr (shown, "output of the second job"));
  g_assert_null (strstr (shown, "output of the first job"));

  /* The older job's log is still there, as it ended. */
  sl_console_panel_show_job (console, first);
  g_assert_cmpuint (sl_console_panel_get_shown_job (console), ==, first);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (sl_console_panel_get_job_log (console, first))));
  older = sl_console_panel_dup_text (console);
  g_assert_nonnull (strstr (older, "output of the first job"));
  g_assert_nonnull (strstr (older, "first job exited with code 0"));
  g_assert_null (strstr (older, "second job"));
  /* Stop is for the job shown: the first has ended, the second runs. */
  g_signal_connect_swapped (console, "stop-requested", G_CALLBACK (count_cb), &stops);
  gtk_widget_activate_action (GTK_WIDGET (console), "console.stop", NULL);
  g_assert_cmpuint (stops, ==, 0);
  sl_console_panel_show_job (console, second);
  gtk_widget_activate_action (GTK_WIDGET (console), "console.stop", NULL);
  g_assert_cmpuint (stops, ==, 1);
  g_signal_handlers_disconnect_by_func (console, count_cb, &stops);
  sl_console_panel_show_job (console, first);

  /* A job's output goes to its own log by id, even while another is shown. */
  sl_console_panel_append_to_job (console, second, "more of the second\n", -1);
  sl_console_panel_end_job_with_id (console, second, 3, NULL);
  g_clear_pointer (&older, g_free);
  older = sl_console_panel_dup_text (console);
  g_assert_null (strstr (older, "more of the second"));
  g_clear_pointer (&shown, g_free);
  shown = sl_console_log_dup_text (sl_console_panel_get_job_log (console, second));
  g_assert_nonnull (strstr (shown, "more of the second"));
  g_assert_nonnull (strstr (shown, "exited with code 3"));
  g_assert_false (sl_console_panel_is_running (console));
}

/* An old job's log opens in a view of its own that no job writes to:
 * output without a job id still goes to the running job's, Stop is not
 * offered for it, and the running job's view keeps only its own lines. */
static void
test_old_log_in_its_own_view (void)
{
  g_autofree char *old_text = NULL;
  g_autofree char *running_text = NULL;
  guint n = sl_console_panel_get_n_jobs (console);
  guint stops = 0;
  guint running, old;

  running = sl_console_panel_add_job (console, "running job");
  sl_console_panel_append (console, "line of the running job\n", -1);
  old = sl_console_panel_add_log (console, "old job");
  g_assert_cmpuint (old, !=, running);
  g_assert_cmpuint (sl_console_panel_get_n_jobs (console), ==, n + 2);
  g_assert_cmpuint (sl_console_panel_get_shown_job (console), ==, old);
  g_assert_false (sl_console_log_get_running (sl_console_panel_get_job_log (console, old)));
  g_assert_true (sl_console_log_get_running (sl_console_panel_get_job_log (console, running)));

  sl_console_panel_append_to_job (console, old, "line of the old log\n", -1);
  sl_console_panel_append (console, "more of the running job\n", -1);
  g_signal_connect_swapped (console, "stop-requested", G_CALLBACK (count_cb), &stops);
  gtk_widget_activate_action (GTK_WIDGET (console), "console.stop", NULL);
  g_assert_cmpuint (stops, ==, 0);
  g_signal_handlers_disconnect_by_func (console, count_cb, &stops);

  old_text = sl_console_panel_dup_text (console);
  g_assert_nonnull (strstr (old_text, "line of the old log"));
  g_assert_null (strstr (old_text, "running job"));
  running_text = sl_console_log_dup_text (sl_console_panel_get_job_log (console, running));
  g_assert_nonnull (strstr (running_text, "line of the running job\nmore of the running job\n"));
  g_assert_null (strstr (running_text, "old log"));
  sl_console_panel_end_job_with_id (console, running, 0, NULL);
}

/* Output that streams in while the window draws keeps its last line in
 * sight; scrolling up stops that, scrolling back to the end resumes it,
 * and so does Ctrl+End. */
static void
test_follows_the_end (void)
{
  guint job = sl_console_panel_add_job (console, "a long job");
  SlConsoleLog *log = sl_console_panel_get_job_log (console, job);
  GtkAdjustment *adj = get_vadjustment (log);
  double value;

  settle ();
  g_assert_true (sl_console_log_get_following (log));
  stream_lines (log, 0, 3000, 25);
  g_assert_true (wait_until (is_scrollable, log, WAIT_MS));
  g_assert_true (wait_until (end_is_visible, log, WAIT_MS));
  g_assert_true (sl_console_log_get_following (log));

  /* Scrolled up: the view stays where the user put it. */
  gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) / 2);
  g_assert_false (sl_console_log_get_following (log));
  settle ();
  value = gtk_adjustment_get_value (adj);
  stream_lines (log, 3000, 1000, 25);
  settle ();
  g_assert_false (sl_console_log_get_following (log));
  g_assert_false (end_is_visible (log));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, value);

  /* Back at the end: followed again, as new lines come. */
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
  g_assert_true (sl_console_log_get_following (log));
  stream_lines (log, 4000, 1000, 25);
  g_assert_true (wait_until (end_is_visible, log, WAIT_MS));
  g_assert_true (sl_console_log_get_following (log));

  /* Scrolled to the top, then Ctrl+End: the end, followed. */
  gtk_adjustment_set_value (adj, 0);
  g_assert_false (sl_console_log_get_following (log));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (log), "log.follow", NULL));
  g_assert_true (sl_console_log_get_following (log));
  stream_lines (log, 5000, 500, 25);
  g_assert_true (wait_until (end_is_visible, log, WAIT_MS));
  sl_console_panel_end_job_with_id (console, job, 0, NULL);
}

/* Ctrl+End in the log is the Console's, not the text view's. */
static void
test_ctrl_end_is_bound (void)
{
  guint job = sl_console_panel_add_job (console, "shortcuts");
  SlConsoleLog *log = sl_console_panel_get_job_log (console, job);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (log));
  gboolean found = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !found; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)) && !found; j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          found = GTK_IS_NAMED_ACTION (action) &&
                  g_strcmp0 (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), "log.follow") == 0 &&
                  strstr (trigger, "<Control>End") != NULL &&
                  gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)) == GTK_PHASE_CAPTURE;
        }
    }
  g_assert_true (found);
  sl_console_panel_end_job_with_id (console, job, 0, NULL);
}

/* Many jobs: the oldest logs that ended go, a running one stays. */
static void
test_old_logs_are_dropped (void)
{
  guint running = sl_console_panel_add_job (console, "still running");

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *title = g_strdup_printf ("job %u", i);
      guint job = sl_console_panel_add_job (console, title);

      sl_console_panel_end_job_with_id (console, job, 0, NULL);
    }
  g_assert_cmpuint (sl_console_panel_get_n_jobs (console), <=, 21);
  g_assert_nonnull (sl_console_panel_get_job_log (console, running));
  g_assert_true (sl_console_panel_is_running (console));
  sl_console_panel_end_job_with_id (console, running, 0, NULL);
  /* Unknown ids are ignored. */
  sl_console_panel_append_to_job (console, 1, "gone\n", -1);
  sl_console_panel_end_job_with_id (console, 99999, 0, NULL);
}

int
main (int    argc,
      char **argv)
{
  int status;

  if (skip_without_display ())
    return 77;

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  panel_init ();

  console = SL_CONSOLE_PANEL (sl_console_panel_new ());
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 700, 300);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (console));
  gtk_window_present (GTK_WINDOW (window));
  settle ();

  /* Before any job: output goes to a log of messages. */
  sl_console_panel_append (console, "before any job\n", -1);
  g_assert_cmpuint (sl_console_panel_get_n_jobs (console), ==, 1);
  g_assert_false (sl_console_panel_is_running (console));

  g_test_add_func ("/console/two-jobs-two-logs", test_two_jobs_two_logs);
  g_test_add_func ("/console/old-log-own-view", test_old_log_in_its_own_view);
  g_test_add_func ("/console/follows-the-end", test_follows_the_end);
  g_test_add_func ("/console/ctrl-end", test_ctrl_end_is_bound);
  g_test_add_func ("/console/old-logs-dropped", test_old_logs_are_dropped);
  status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
