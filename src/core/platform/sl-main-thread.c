/* sl-main-thread.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#if defined(__GLIBC__) && defined(G_OS_UNIX)
# define HAVE_STALL_SAMPLES 1
# include <execinfo.h>
# include <pthread.h>
# include <signal.h>
#endif

static GThread *main_thread;

/**
 * sl_main_thread_mark:
 *
 * Declares the calling thread the one that draws: from then on, functions
 * that touch the disk or the database refuse to run on it (in debug and
 * test builds). The application calls this at start-up.
 */
void
sl_main_thread_mark (void)
{
  g_atomic_pointer_set (&main_thread, g_thread_self ());
}

void
sl_main_thread_unmark (void)
{
  g_atomic_pointer_set (&main_thread, NULL);
}

gboolean
sl_main_thread_is_current (void)
{
  GThread *thread = g_atomic_pointer_get (&main_thread);

  return thread != NULL && thread == g_thread_self ();
}

/**
 * sl_main_thread_check_off:
 * @function: the caller, for the message
 *
 * Complains (a critical) when called on the thread that draws. Use
 * SL_ASSERT_OFF_MAIN_THREAD(), which compiles to nothing in release builds.
 */
void
sl_main_thread_check_off (const char *function)
{
  if (G_UNLIKELY (sl_main_thread_is_current ()))
    g_critical ("%s touches the disk or the database and must not run on the main thread; "
                "run it in a worker", function);
}

/**
 * sl_main_context_dispatch:
 * @context: (nullable): where @func runs; %NULL for the default context
 *
 * Runs @func in @context after what was queued there before, even when
 * called from a worker. Unlike g_main_context_invoke(), it never runs @func
 * at once in the calling thread when @context happens to be free.
 */
void
sl_main_context_dispatch (GMainContext   *context,
                          GSourceFunc     func,
                          gpointer        data,
                          GDestroyNotify  destroy)
{
  GSource *source = g_idle_source_new ();

  /* The source may run, and its caller drop @context, before the unref
   * below: keep the context alive until then. */
  context = g_main_context_ref (context != NULL ? context : g_main_context_default ());
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, destroy);
  g_source_set_static_name (source, "[sightline] dispatch");
  g_source_attach (source, context);
  g_source_unref (source);
  g_main_context_unref (context);
}

/* Stall reports: how long one main-loop iteration spent dispatching, with
 * where the main thread was once it passed the threshold. For developers
 * and the test suites (SIGHTLINE_DEBUG_STALLS=1), never in a user's
 * terminal. */

#define MAX_FRAMES 24

static GPollFunc     default_poll;
/* Monotonic µs, 0 while polling. Read unlocked by the watchdog: a torn
 * read only mistimes one report. */
static volatile gint64 dispatch_started;
static guint         stall_threshold_us;
#ifdef HAVE_STALL_SAMPLES
static pthread_t     main_pthread;
static void         *sample_frames[MAX_FRAMES];
static volatile int  n_sample_frames;
static gint          sampled;           /* this dispatch was sampled */

static void
sample_signal_handler (int signum)
{
  n_sample_frames = backtrace (sample_frames, MAX_FRAMES);
}

static gpointer
stall_watchdog_thread (gpointer data)
{
  for (;;)
    {
      gint64 started;

      g_usleep (stall_threshold_us / 4);
      started = dispatch_started;
      if (started != 0 && g_get_monotonic_time () - started > stall_threshold_us &&
          g_atomic_int_compare_and_exchange (&sampled, 0, 1))
        pthread_kill (main_pthread, SIGURG);
    }

  return NULL;
}
#endif

static void
report_stall (gint64 elapsed_us)
{
  GString *where = g_string_new (NULL);

#ifdef HAVE_STALL_SAMPLES
  if (g_atomic_int_get (&sampled) && n_sample_frames > 0)
    {
      char **symbols = backtrace_symbols (sample_frames, n_sample_frames);

      /* The first frames are the signal handler's. */
      for (int i = 2; symbols != NULL && i < n_sample_frames; i++)
        g_string_append_printf (where, "\n  %s", symbols[i]);
      free (symbols);
    }
  n_sample_frames = 0;
  g_atomic_int_set (&sampled, 0);
#endif

  g_message ("Main loop stalled: one dispatch took %.1f ms%s%s", elapsed_us / 1000.0,
             where->len > 0 ? "; the main thread was in:" : "", where->str);
  g_string_free (where, TRUE);
}

static int
timing_poll (GPollFD *fds,
             guint    n_fds,
             int      timeout)
{
  gint64 started = dispatch_started;
  int ret;

  if (started != 0 && g_get_monotonic_time () - started > stall_threshold_us)
    report_stall (g_get_monotonic_time () - started);

  dispatch_started = 0;
  ret = default_poll (fds, n_fds, timeout);
  dispatch_started = g_get_monotonic_time ();

  return ret;
}

/**
 * sl_main_thread_watch_stalls:
 * @threshold_ms: report dispatches longer than this
 *
 * Logs every main-loop dispatch of the default context that takes longer
 * than @threshold_ms, with a backtrace of the main thread taken while it
 * was stuck where the platform allows. Only when the environment variable
 * SIGHTLINE_DEBUG_STALLS is 1 (the test suites set it): the reports are
 * for developers. Call from the main thread.
 */
void
sl_main_thread_watch_stalls (guint threshold_ms)
{
  GMainContext *context = g_main_context_default ();

  g_return_if_fail (threshold_ms > 0);

  if (g_strcmp0 (g_getenv ("SIGHTLINE_DEBUG_STALLS"), "1") != 0)
    return;

  if (default_poll != NULL)
    return;

  stall_threshold_us = threshold_ms * 1000;
  default_poll = g_main_context_get_poll_func (context);
  g_main_context_set_poll_func (context, timing_poll);

#ifdef HAVE_STALL_SAMPLES
  {
    struct sigaction action = { 0 };
    void *warm_up[1];

    /* backtrace() loads libgcc on first use: not from a signal handler. */
    backtrace (warm_up, 1);
    main_pthread = pthread_self ();
    action.sa_handler = sample_signal_handler;
    action.sa_flags = SA_RESTART;
    sigemptyset (&action.sa_mask);
    sigaction (SIGURG, &action, NULL);
    g_thread_unref (g_thread_new ("sl-stall-watchdog", stall_watchdog_thread, NULL));
  }
#endif
}
