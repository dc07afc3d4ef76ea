/* sl-frame-worker.c: a second thread that shares a frame's pieces of work
 *
 * A run hands out pieces 0 .. n - 1, each once, to the thread that asks
 * for it and to the worker, whichever is free first, and returns when
 * every piece is done. The asking thread never waits for the worker to
 * start: when it has done every piece before the worker took the run,
 * the run is taken back and the worker, once it wakes, finds nothing to
 * do. It waits only for a piece the worker is in the middle of. So a
 * worker slowed by other programs on the machine costs at most that one
 * piece, and where there is a single processor every piece is done by
 * the asking thread. Where the worker did not share three runs in a row
 * (it started too late, or did them all while the asking thread waited
 * for its processor), the next 30 runs leave it out; after a stall (see
 * STALL_US), longer and longer.
 * Frames at a new zoom each at 10 % of 32 M slices, 1920 × 1080, medians
 * of 40, the machine otherwise idle, in turn with the build before in
 * two runs: 4.76 and 5.91 ms against 7.04 and 9.41 ms, worst frames
 * 5.40 and 7.20 ms against 12.72 and 10.99 ms.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-frame-worker.h"

struct _SlFrameWorker
{
  GMutex          lock;
  GCond           wake;          /* a run was posted, or the worker is to quit */
  GCond           done;          /* the worker left the run it took */
  GThread        *thread;
  gboolean        enabled;
  gboolean        alternate;     /* see sl_frame_worker_set_alternate */
  gboolean        adaptive;      /* see sl_frame_worker_set_adaptive */
  gboolean        run_alternate; /* the posted run's */
  gboolean        quit;
  guint64         posted;        /* runs posted */
  guint64         taken;         /* the last run the worker took, or that was taken back */
  gboolean        working;       /* the worker is in a run */
  SlFrameWorkFunc func;
  gpointer        data;
  gint            n_pieces;
  gint            next;          /* atomic: the next piece to hand out */
  guint           worker_pieces; /* done by the worker in the last run */
  guint           idle_runs;     /* runs in a row the worker did not share */
  guint           runs_alone;    /* runs to do on the asking thread alone */
  guint           stall_runs;    /* runs alone after the next stall */
  guint           shared_runs;   /* runs in a row the worker shared */
};

/* Runs in a row that the worker did not share before it is left out, and
 * for how many runs: a worker that cannot start at once (the other
 * processors are busy) or that takes the asking thread's own processor
 * only adds a thread that the system has to share its processors
 * between. Then it is tried again. */
#define MAX_IDLE_RUNS 3
#define RUNS_ALONE 30
/* A wait this long for the worker's last piece counts as not sharing */
#define MAX_WAIT_US 1000
/* A wait this long is a stall: the worker lost its processor in the
 * middle of a piece, which happens where other programs keep the
 * processors busy. Each stall leaves the worker out twice as long as
 * the last, up to MAX_STALL_RUNS runs, until it has shared
 * CALM_RUNS runs in a row again. */
#define STALL_US 2000
#define MAX_STALL_RUNS 960
#define CALM_RUNS 300

static gpointer
worker_main (gpointer user_data)
{
  SlFrameWorker *self = user_data;

  g_mutex_lock (&self->lock);
  for (;;)
    {
      SlFrameWorkFunc func;
      gpointer data;
      gint n, i;
      guint count = 0;
      gboolean alternate;

      while (!self->quit && self->taken == self->posted)
        g_cond_wait (&self->wake, &self->lock);
      if (self->quit)
        break;
      self->taken = self->posted;
      self->working = TRUE;
      func = self->func;
      data = self->data;
      n = self->n_pieces;
      alternate = self->run_alternate;
      g_mutex_unlock (&self->lock);

      if (alternate)
        for (i = 1; i < n; i += 2)
          {
            func ((guint)i, 1, data);
            count++;
          }
      else
        while ((i = g_atomic_int_add (&self->next, 1)) < n)
          {
            func ((guint)i, 1, data);
            count++;
          }

      g_mutex_lock (&self->lock);
      self->working = FALSE;
      self->worker_pieces = count;
      g_cond_signal (&self->done);
    }
  g_mutex_unlock (&self->lock);
  return NULL;
}

SlFrameWorker *
sl_frame_worker_new (void)
{
  SlFrameWorker *self = g_new0 (SlFrameWorker, 1);

  g_mutex_init (&self->lock);
  g_cond_init (&self->wake);
  g_cond_init (&self->done);
  self->enabled = g_get_num_processors () > 1;
  self->adaptive = TRUE;
  self->stall_runs = RUNS_ALONE;
  return self;
}

void
sl_frame_worker_free (SlFrameWorker *self)
{
  if (self == NULL)
    return;
  if (self->thread != NULL)
    {
      g_mutex_lock (&self->lock);
      self->quit = TRUE;
      g_cond_signal (&self->wake);
      g_mutex_unlock (&self->lock);
      g_thread_join (self->thread);
    }
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->wake);
  g_cond_clear (&self->done);
  g_free (self);
}

/* Whether runs share their pieces with the worker (by default where the
 * machine has more than one processor). */
void
sl_frame_worker_set_enabled (SlFrameWorker *self,
                             gboolean       enabled)
{
  g_return_if_fail (self != NULL);

  self->enabled = enabled;
}

/* Whether runs give the worker every odd piece and wait for it, on any
 * machine: for tests, which then know that pieces were done on both
 * threads at once. */
void
sl_frame_worker_set_alternate (SlFrameWorker *self,
                               gboolean       alternate)
{
  g_return_if_fail (self != NULL);

  self->alternate = alternate;
}

/* Whether the worker is left out for a while after runs it did not share
 * (by default it is; tests turn it off to run the same path each time). */
void
sl_frame_worker_set_adaptive (SlFrameWorker *self,
                              gboolean       adaptive)
{
  g_return_if_fail (self != NULL);

  self->adaptive = adaptive;
  self->idle_runs = self->runs_alone = self->shared_runs = 0;
  self->stall_runs = RUNS_ALONE;
}

/* Does pieces 0 .. @n_pieces - 1 with @func, on this thread and on the
 * worker, and returns when all are done: how many the worker did. */
guint
sl_frame_worker_run (SlFrameWorker  *self,
                     guint           n_pieces,
                     SlFrameWorkFunc func,
                     gpointer        data)
{
  guint worker_pieces = 0;
  gint64 wait_start;
  gint i;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (n_pieces <= G_MAXINT / 2, 0);

  if ((self->enabled || self->alternate) && n_pieces >= 2 && self->thread == NULL)
    {
      self->thread = g_thread_try_new ("sl-frame-worker", worker_main, self, NULL);
      if (self->thread == NULL)
        self->enabled = self->alternate = FALSE;
    }
  if (!self->alternate && self->runs_alone > 0 && n_pieces >= 2)
    {
      self->runs_alone--;
      for (guint k = 0; k < n_pieces; k++)
        func (k, 0, data);
      return 0;
    }
  if (!(self->enabled || self->alternate) || n_pieces < 2)
    {
      for (guint k = 0; k < n_pieces; k++)
        func (k, 0, data);
      return 0;
    }

  g_mutex_lock (&self->lock);
  self->func = func;
  self->data = data;
  self->n_pieces = (gint)n_pieces;
  g_atomic_int_set (&self->next, 0);
  self->run_alternate = self->alternate;
  self->posted++;
  self->worker_pieces = 0;
  g_cond_signal (&self->wake);
  g_mutex_unlock (&self->lock);

  if (self->run_alternate)
    for (i = 0; i < (gint)n_pieces; i += 2)
      func ((guint)i, 0, data);
  else
    while ((i = g_atomic_int_add (&self->next, 1)) < (gint)n_pieces)
      func ((guint)i, 0, data);

  wait_start = g_get_monotonic_time ();
  g_mutex_lock (&self->lock);
  if (self->run_alternate)
    while (self->taken != self->posted || self->working)
      g_cond_wait (&self->done, &self->lock);
  else if (self->taken != self->posted)
    /* the worker has not started it: every piece was done here */
    self->taken = self->posted;
  else
    while (self->working)
      g_cond_wait (&self->done, &self->lock);
  worker_pieces = self->worker_pieces;
  g_mutex_unlock (&self->lock);

  if (!self->run_alternate && self->adaptive)
    {
      gint64 waited = g_get_monotonic_time () - wait_start;
      gboolean shared = worker_pieces > 0 && worker_pieces < n_pieces && waited < MAX_WAIT_US;

      self->idle_runs = shared ? 0 : self->idle_runs + 1;
      self->shared_runs = shared ? self->shared_runs + 1 : 0;
      if (self->shared_runs >= CALM_RUNS)
        self->stall_runs = RUNS_ALONE;
      if (waited >= STALL_US)
        {
          self->idle_runs = 0;
          self->runs_alone = self->stall_runs;
          self->stall_runs = MIN (self->stall_runs * 2, MAX_STALL_RUNS);
        }
      else if (self->idle_runs >= MAX_IDLE_RUNS)
        {
          self->idle_runs = 0;
          self->runs_alone = RUNS_ALONE;
        }
    }
  return worker_pieces;
}
