/* sl-progress.c
 *
 * A worker reports as often as it likes; what it reports is kept under a
 * lock and handed to the context the object was made in by one queued
 * source at a time, so a reader's every chunk costs no trip to the main
 * loop and the properties change, and notify, only there. The fraction
 * never goes back: a job ends at 1.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"
#include "sl-progress.h"

struct _SlProgress
{
  GObject       parent_instance;

  GMainContext *context;
  /* Shown, in the context */
  double        fraction;
  guint64       done;
  guint64       total;
  /* Reported, under the lock */
  GMutex        mutex;
  double        reported_fraction;
  guint64       reported_done;
  guint64       reported_total;
  gboolean      queued;
};

G_DEFINE_FINAL_TYPE (SlProgress, sl_progress, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FRACTION,
  PROP_DONE,
  PROP_TOTAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* In the context: the last report becomes the properties. */
static gboolean
apply (SlProgress *self)
{
  double fraction;
  guint64 done, total;

  g_mutex_lock (&self->mutex);
  fraction = self->reported_fraction;
  done = self->reported_done;
  total = self->reported_total;
  self->queued = FALSE;
  g_mutex_unlock (&self->mutex);

  g_object_freeze_notify (G_OBJECT (self));
  if (done != self->done)
    {
      self->done = done;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DONE]);
    }
  if (total != self->total)
    {
      self->total = total;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL]);
    }
  if (fraction > self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
  g_object_thaw_notify (G_OBJECT (self));
  return G_SOURCE_REMOVE;
}

static void
queue_apply (SlProgress *self,
             gboolean    queue)
{
  /* Reported in the context itself (the end of a job, told in its
   * callback): shown at once. */
  if (g_main_context_is_owner (self->context))
    apply (self);
  else if (queue)
    sl_main_context_dispatch (self->context, (GSourceFunc)apply, g_object_ref (self), g_object_unref);
}

/**
 * sl_progress_report:
 * @done: how much is done, of @total (0 when not known)
 *
 * Callable from any thread; the fraction becomes @done / @total when
 * @total is known and more than what was shown.
 */
void
sl_progress_report (SlProgress *self,
                    guint64     done,
                    guint64     total)
{
  gboolean queue;

  g_return_if_fail (SL_IS_PROGRESS (self));

  g_mutex_lock (&self->mutex);
  self->reported_done = done;
  self->reported_total = total;
  if (total > 0)
    self->reported_fraction = MAX (self->reported_fraction, MIN ((double)done / total, 1.0));
  queue = !self->queued;
  self->queued = TRUE;
  g_mutex_unlock (&self->mutex);
  queue_apply (self, queue);
}

/**
 * sl_progress_report_fraction:
 * @fraction: from 0 to 1
 *
 * Callable from any thread, for jobs that count in no unit.
 */
void
sl_progress_report_fraction (SlProgress *self,
                             double      fraction)
{
  gboolean queue;

  g_return_if_fail (SL_IS_PROGRESS (self));

  if (!(fraction >= 0))   /* NaN too */
    fraction = 0;
  g_mutex_lock (&self->mutex);
  self->reported_fraction = MAX (self->reported_fraction, MIN (fraction, 1.0));
  queue = !self->queued;
  self->queued = TRUE;
  g_mutex_unlock (&self->mutex);
  queue_apply (self, queue);
}

double
sl_progress_get_fraction (SlProgress *self)
{
  g_return_val_if_fail (SL_IS_PROGRESS (self), 0);
  return self->fraction;
}

guint64
sl_progress_get_done (SlProgress *self)
{
  g_return_val_if_fail (SL_IS_PROGRESS (self), 0);
  return self->done;
}

guint64
sl_progress_get_total (SlProgress *self)
{
  g_return_val_if_fail (SL_IS_PROGRESS (self), 0);
  return self->total;
}

static void
sl_progress_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SlProgress *self = SL_PROGRESS (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    case PROP_DONE:
      g_value_set_uint64 (value, self->done);
      break;
    case PROP_TOTAL:
      g_value_set_uint64 (value, self->total);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_progress_finalize (GObject *object)
{
  SlProgress *self = SL_PROGRESS (object);

  g_mutex_clear (&self->mutex);
  g_main_context_unref (self->context);

  G_OBJECT_CLASS (sl_progress_parent_class)->finalize (object);
}

static void
sl_progress_class_init (SlProgressClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_progress_get_property;
  object_class->finalize = sl_progress_finalize;

  /**
   * SlProgress:fraction:
   *
   * How much is done, from 0 to 1; it never goes back.
   */
  properties[PROP_FRACTION] = g_param_spec_double ("fraction", NULL, NULL, 0, 1, 0,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlProgress:done:
   *
   * How much is done, in the job's unit (bytes, rows, folders), of
   * #SlProgress:total.
   */
  properties[PROP_DONE] = g_param_spec_uint64 ("done", NULL, NULL, 0, G_MAXUINT64, 0,
                                               G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlProgress:total:
   *
   * All there is to do, in the job's unit; 0 when not known.
   */
  properties[PROP_TOTAL] = g_param_spec_uint64 ("total", NULL, NULL, 0, G_MAXUINT64, 0,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_progress_init (SlProgress *self)
{
  g_mutex_init (&self->mutex);
  self->context = g_main_context_ref_thread_default ();
}

/**
 * sl_progress_new:
 *
 * Returns: (transfer full): a progress at 0 that changes and notifies in
 *   the calling thread's default main context
 */
SlProgress *
sl_progress_new (void)
{
  return g_object_new (SL_TYPE_PROGRESS, NULL);
}
