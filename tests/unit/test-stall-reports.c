/* test-stall-reports.c: main-loop stall reports only when asked for
 *
 * A dispatch that sleeps ten times the threshold is reported with
 * SIGHTLINE_DEBUG_STALLS=1 and never without it, so a user's terminal
 * stays quiet.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

static guint n_stall_reports;

static GLogWriterOutput
count_stalls (GLogLevelFlags   log_level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0 &&
          g_str_has_prefix (fields[i].value, "Main loop stalled"))
        n_stall_reports++;
    }
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

static gboolean
stall_then_quit (gpointer data)
{
  GMainLoop *loop = data;

  /* 200 ms against a 20 ms threshold: always a stall */
  g_usleep (200 * 1000);
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* Runs one stalled dispatch and the poll after it, which reports it. */
static void
run_stalled_loop (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  g_log_set_writer_func (count_stalls, NULL, NULL);
  sl_main_thread_watch_stalls (20);
  g_idle_add (stall_then_quit, loop);
  g_main_loop_run (loop);
  g_main_context_iteration (NULL, FALSE);
}

static void
test_quiet_by_default (void)
{
  if (g_test_subprocess ())
    {
      g_unsetenv ("SIGHTLINE_DEBUG_STALLS");
      run_stalled_loop ();
      g_assert_cmpuint (n_stall_reports, ==, 0);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr_unmatched ("*Main loop stalled*");
}

static void
test_reported_when_asked (void)
{
  if (g_test_subprocess ())
    {
      g_setenv ("SIGHTLINE_DEBUG_STALLS", "1", TRUE);
      run_stalled_loop ();
      g_assert_cmpuint (n_stall_reports, >=, 1);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stall-reports/quiet-by-default", test_quiet_by_default);
  g_test_add_func ("/stall-reports/reported-when-asked", test_reported_when_asked);

  return g_test_run ();
}
