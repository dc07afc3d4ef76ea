/* sl-step-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-chrome-trace-writer.h"
#include "sl-replace-stream.h"
#include "sl-step-export.h"

int
sl_step_export_find_step (SlStepTrace *steps,
                          gint64       step)
{
  g_return_val_if_fail (steps != NULL, -1);

  for (guint i = 0; i < sl_step_trace_get_n_steps (steps); i++)
    if (sl_step_trace_get_step (steps, i)->step == step)
      return (int)i;
  return -1;
}

gboolean
sl_step_export_get_range (SlTrace           *trace,
                          SlStepTrace       *steps,
                          guint              index,
                          gint64            *from_ns,
                          gint64            *to_ns,
                          SlStepSpansSource *source,
                          GError           **error)
{
  g_autoptr(SlStepSpans) spans = NULL;
  const SlStepSpan *span;

  g_return_val_if_fail (SL_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (steps != NULL, FALSE);

  if (index >= sl_step_trace_get_n_steps (steps))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The step trace has no step %u"), index);
      return FALSE;
    }

  spans = sl_step_spans_new (trace, steps);
  span = sl_step_spans_get_step (spans, index);
  if (span == NULL || span->start_ns < 0 || span->end_ns < span->start_ns)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Step %lld cannot be placed on the timeline: %s has no start and end times and the timeline "
                     "has no ProfilerStep#%lld or Iteration %lld slice"),
                   (long long)sl_step_trace_get_step (steps, index)->step, sl_step_trace_get_path (steps),
                   (long long)sl_step_trace_get_step (steps, index)->step,
                   (long long)sl_step_trace_get_step (steps, index)->step);
      return FALSE;
    }

  if (from_ns != NULL)
    *from_ns = span->start_ns;
  if (to_ns != NULL)
    *to_ns = span->end_ns;
  if (source != NULL)
    *source = sl_step_spans_get_source (spans);
  return TRUE;
}

gboolean
sl_step_export_write (SlTrace       *trace,
                      SlStepTrace   *steps,
                      guint          index,
                      GFile         *file,
                      guint64       *n_events,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(SlReplaceStream) out = NULL;
  gint64 from_ns, to_ns;
  guint64 n = 0;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!sl_step_export_get_range (trace, steps, index, &from_ns, &to_ns, NULL, error))
    return FALSE;
  /* Written beside the target and renamed over it when complete. */
  if (!(out = sl_replace_stream_new (file, cancellable, error)) ||
      !sl_chrome_trace_write_range (trace, from_ns, to_ns, NULL, 0, G_OUTPUT_STREAM (out), &n, cancellable, error) ||
      !sl_replace_stream_commit (out, cancellable, error))
    return FALSE;

  if (n_events != NULL)
    *n_events = n;
  return TRUE;
}
