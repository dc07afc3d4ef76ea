/* sl-step-breakdown.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-step-breakdown.h"

/* The overlap analysis' columns as the loader keeps them: the stacked
 * phases by key, the others as extras by name. */
static const char *const phase_keys[SL_STEP_PHASE_N] = {
  [SL_STEP_PHASE_COMPUTING] = "computing",
  [SL_STEP_PHASE_COMMUNICATION] = "communication_not_overlapped",
  [SL_STEP_PHASE_FREE] = "free",
};
static const char *const extra_names[SL_STEP_PHASE_N] = {
  [SL_STEP_PHASE_OVERLAPPED] = "Overlapped",
  [SL_STEP_PHASE_BUBBLE] = "Bubble",
  [SL_STEP_PHASE_STAGE] = "Stage",
};

typedef struct {
  gint64 sum;
  guint  n;
} Mean;

static void
mean_add (Mean   *mean,
          gint64  value)
{
  if (value == SL_STEP_NO_TIME || value < 0)
    return;
  mean->sum += value;
  mean->n++;
}

static gint64
mean_get (const Mean *mean)
{
  return mean->n > 0 ? mean->sum / mean->n : -1;
}

static gboolean
is_overlap_source (SlStepTrace *trace)
{
  SlStepSource source = sl_step_trace_get_source (trace);

  return source == SL_STEP_SOURCE_ASCEND_PT || source == SL_STEP_SOURCE_CLUSTER;
}

static int
find_extra (SlStepTrace *trace,
            const char  *name)
{
  for (guint c = 0; name != NULL && c < sl_step_trace_get_n_extra_columns (trace); c++)
    if (g_str_equal (sl_step_trace_get_extra_name (trace, c), name))
      return (int)c;
  return -1;
}

void
sl_step_breakdown_compute (SlStepTrace     *trace,
                           SlStepBreakdown *breakdown)
{
  Mean total = { 0 }, phases[SL_STEP_PHASE_N] = { { 0 } };
  int extras[SL_STEP_PHASE_N];
  int keyed[SL_STEP_PHASE_N];

  g_return_if_fail (breakdown != NULL);

  *breakdown = (SlStepBreakdown) { 0, -1, { -1, -1, -1, -1, -1, -1 }, FALSE };
  if (trace == NULL)
    return;

  breakdown->overlap = is_overlap_source (trace);
  for (guint p = 0; p < SL_STEP_PHASE_N; p++)
    {
      extras[p] = breakdown->overlap ? find_extra (trace, extra_names[p]) : -1;
      keyed[p] = breakdown->overlap && phase_keys[p] != NULL ? sl_step_trace_find_phase (trace, phase_keys[p]) : -1;
    }

  for (guint i = 0; i < sl_step_trace_get_n_steps (trace); i++)
    {
      const SlStep *step = sl_step_trace_get_step (trace, i);

      mean_add (&total, step->total_ns);
      if (!breakdown->overlap)
        {
          mean_add (&phases[SL_STEP_PHASE_COMPUTING], step->fp_bp_ns);
          mean_add (&phases[SL_STEP_PHASE_COMMUNICATION], step->tail_ns);
          mean_add (&phases[SL_STEP_PHASE_FREE], step->data_wait_ns);
        }
      for (guint p = 0; p < SL_STEP_PHASE_N; p++)
        {
          if (keyed[p] >= 0)
            mean_add (&phases[p], sl_step_trace_get_phase (trace, i, keyed[p]));
          else if (extras[p] >= 0)
            mean_add (&phases[p], sl_step_trace_get_extra (trace, i, extras[p]));
        }
    }

  breakdown->n_steps = total.n;
  breakdown->step_ns = mean_get (&total);
  for (guint p = 0; p < SL_STEP_PHASE_N; p++)
    breakdown->phases[p] = mean_get (&phases[p]);
}

const char *
sl_step_phase_to_id (SlStepPhase phase)
{
  static const char *const ids[SL_STEP_PHASE_N] = {
    "computing", "communication_not_overlapped", "free", "overlapped", "bubble", "stage",
  };

  g_return_val_if_fail (phase < SL_STEP_PHASE_N, NULL);
  return ids[phase];
}

/**
 * sl_step_phase_to_source_id:
 * @overlap: whether the phases are torch_npu's overlap analysis
 *
 * The id the source's own step table gives the phase: without the overlap
 * analysis (MindSpore's step trace), "fp_bp", "tail" and "data_wait", as
 * the profile command names them.
 */
const char *
sl_step_phase_to_source_id (SlStepPhase phase,
                            gboolean    overlap)
{
  g_return_val_if_fail (phase < SL_STEP_PHASE_N, NULL);

  if (!overlap)
    switch (phase)
      {
      case SL_STEP_PHASE_COMPUTING: return "fp_bp";
      case SL_STEP_PHASE_COMMUNICATION: return "tail";
      case SL_STEP_PHASE_FREE: return "data_wait";
      default: break;
      }
  return sl_step_phase_to_id (phase);
}

const char *
sl_step_phase_to_label (SlStepPhase phase,
                        gboolean    overlap)
{
  g_return_val_if_fail (phase < SL_STEP_PHASE_N, NULL);

  switch (phase)
    {
    case SL_STEP_PHASE_COMPUTING: return overlap ? _("computing") : _("forward and backward");
    case SL_STEP_PHASE_COMMUNICATION: return overlap ? _("communication not overlapped") : _("tail");
    case SL_STEP_PHASE_FREE: return overlap ? _("free time") : _("data wait");
    case SL_STEP_PHASE_OVERLAPPED: return _("overlapped");
    case SL_STEP_PHASE_BUBBLE: return _("bubble");
    case SL_STEP_PHASE_STAGE: return _("stage");
    default: g_return_val_if_reached (NULL);
    }
}
