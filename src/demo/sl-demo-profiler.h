/* sl-demo-profiler.h: times the demo job's own work and writes it the way
 * the MindSpore profiler does
 *
 * Every operation of every step (the MLP's matmuls, activations, loss,
 * gradients and updates, plus loading the batch) is timed with a
 * nanosecond clock; sl_demo_profiler_write() then writes a MindSpore-style
 * profiler folder from those measurements: the timeline, the step trace
 * in 10 ns ticks, the AI Core op tables, framework_raw and profiler_info.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-demo-mlp.h"

G_BEGIN_DECLS

typedef struct _SlDemoProfiler SlDemoProfiler;

SlDemoProfiler *sl_demo_profiler_new        (const SlDemoMlp *mlp,
                                             guint            batch_size);
void            sl_demo_profiler_free       (SlDemoProfiler  *self);
void            sl_demo_profiler_begin_step (SlDemoProfiler  *self);
void            sl_demo_profiler_begin_data (SlDemoProfiler  *self);
void            sl_demo_profiler_end_data   (SlDemoProfiler  *self);
/* An SlDemoOpFunc: pass @self as its user data. */
void            sl_demo_profiler_op         (SlDemoOpKind     kind,
                                             guint            layer,
                                             gboolean         begin,
                                             gpointer         self);
void            sl_demo_profiler_end_step   (SlDemoProfiler  *self);
guint           sl_demo_profiler_get_n_steps (SlDemoProfiler *self);
gboolean        sl_demo_profiler_write      (SlDemoProfiler  *self,
                                             const char      *dir,
                                             GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlDemoProfiler, sl_demo_profiler_free)

G_END_DECLS
