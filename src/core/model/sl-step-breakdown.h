/* sl-step-breakdown.h: a rank's mean step split into where the time went
 *
 * torch_npu's and msprof-analyze's overlap analysis give computing,
 * communication not overlapped by computing, and free time (plus the
 * overlapped part, the pipeline bubble and the stage time), read from the
 * trace's phases by key; MindSpore's and msprof's step traces put their
 * forward and backward, tail and data wait in those three slots, and
 * sl_step_phase_to_label() names them so (overlap FALSE).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-step-trace.h"

G_BEGIN_DECLS

typedef enum {
  SL_STEP_PHASE_COMPUTING,
  SL_STEP_PHASE_COMMUNICATION,   /* not overlapped */
  SL_STEP_PHASE_FREE,
  SL_STEP_PHASE_OVERLAPPED,
  SL_STEP_PHASE_BUBBLE,
  SL_STEP_PHASE_STAGE,
  SL_STEP_PHASE_N
} SlStepPhase;

typedef struct {
  guint    n_steps;
  gint64   step_ns;                   /* mean step time, -1 unknown */
  gint64   phases[SL_STEP_PHASE_N];   /* means, -1 unknown */
  gboolean overlap;                   /* from an overlap analysis, not mapped phases */
} SlStepBreakdown;

/* Means over the steps whose value is a real duration. */
void        sl_step_breakdown_compute (SlStepTrace     *trace,
                                       SlStepBreakdown *breakdown);
/* "computing", "communication_not_overlapped", "free", "overlapped",
 * "bubble", "stage": stable, for JSON */
const char *sl_step_phase_to_id       (SlStepPhase      phase);
const char *sl_step_phase_to_source_id (SlStepPhase     phase,
                                        gboolean        overlap);
/* Translated */
const char *sl_step_phase_to_label    (SlStepPhase      phase,
                                       gboolean         overlap);

G_END_DECLS
