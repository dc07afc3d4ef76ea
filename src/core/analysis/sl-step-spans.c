/* sl-step-spans.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sl-step-spans.h"

struct _SlStepSpans
{
  SlStepSpansSource source;
  GArray           *steps;          /* SlStepSpan */
  gint64            first_device_ns;
};

static gboolean
is_device_process (const char *name)
{
  g_autofree char *folded = NULL;

  if (name == NULL || name[0] == '\0')
    return FALSE;
  folded = g_ascii_strdown (name, -1);
  return g_str_has_prefix (folded, "ascend hardware") || strstr (folded, "npu") != NULL
      || strstr (folded, "gpu") != NULL || strstr (folded, "device") != NULL;
}

static gboolean
is_device_track (SlTrace *trace,
                 guint    track)
{
  if (sl_trace_get_track_kind (trace, track) == SL_TRACE_TRACK_COUNTER)
    return FALSE;
  return is_device_process (sl_trace_get_process_name (trace, sl_trace_get_track_process (trace, track)))
      || g_str_has_prefix (sl_trace_get_track_name (trace, track), "Stream");
}

/* Slices of a track are sorted by start: its first is its earliest. */
static gint64
first_slice_start (SlTrace  *trace,
                   gboolean  device_only)
{
  gint64 first = G_MAXINT64;

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s;

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER
          || (device_only && !is_device_track (trace, t))
          || (s = sl_trace_get_slices (trace, t)) == NULL || s->n_slices == 0)
        continue;
      first = MIN (first, sl_trace_slices_start_ns (s, 0));
    }
  return first;
}

static gint64
find_first_device_ns (SlTrace *trace)
{
  gint64 first = first_slice_start (trace, TRUE);

  if (first == G_MAXINT64)
    first = first_slice_start (trace, FALSE);
  return first == G_MAXINT64 ? sl_trace_get_start_ns (trace) : first;
}

/* "ProfilerStep#12" (torch_npu) or "Iteration 12" (msprof's Step Trace). */
static gboolean
parse_step_name (const char *name,
                 gint64     *number)
{
  const char *digits;
  char *end = NULL;
  gint64 value;

  if (g_str_has_prefix (name, "ProfilerStep#"))
    digits = name + strlen ("ProfilerStep#");
  else if (g_str_has_prefix (name, "Iteration "))
    digits = name + strlen ("Iteration ");
  else
    return FALSE;
  if (!g_ascii_isdigit (digits[0]))
    return FALSE;
  value = g_ascii_strtoll (digits, &end, 10);
  if (end == NULL || *end != '\0' || value < 0)
    return FALSE;
  *number = value;
  return TRUE;
}

/* Step number → index in @spans of the earliest slice of that step (a
 * trace of several ranks has one per rank). */
static GHashTable *
find_step_slices (SlTrace *trace,
                  GArray  *spans)
{
  g_autoptr(GHashTable) ids = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  GHashTable *by_step = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint32 id = 1; id < sl_trace_get_n_strings (trace); id++)
    {
      gint64 number;

      if (parse_step_name (sl_trace_get_string (trace, id), &number))
        g_hash_table_insert (ids, GUINT_TO_POINTER (id), g_memdup2 (&number, sizeof number));
    }
  if (g_hash_table_size (ids) == 0)
    return by_step;

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || s == NULL)
        continue;
      for (guint32 i = 0; i < s->n_slices; i++)
        {
          gint64 *number = g_hash_table_lookup (ids, GUINT_TO_POINTER (sl_trace_slices_name_id (s, i)));
          gpointer index;
          SlStepSpan span;

          if (number == NULL)
            continue;
          if (g_hash_table_lookup_extended (by_step, number, NULL, &index))
            {
              SlStepSpan *known = &g_array_index (spans, SlStepSpan, GPOINTER_TO_UINT (index));

              if (sl_trace_slices_start_ns (s, i) < known->start_ns)
                {
                  known->start_ns = sl_trace_slices_start_ns (s, i);
                  known->end_ns = sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i);
                }
              continue;
            }
          span.step = *number;
          span.start_ns = sl_trace_slices_start_ns (s, i);
          span.end_ns = sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i);
          g_hash_table_insert (by_step, g_memdup2 (number, sizeof *number), GUINT_TO_POINTER (spans->len));
          g_array_append_val (spans, span);
        }
    }
  return by_step;
}

static gboolean
table_has_times (SlStepTrace *steps)
{
  for (guint i = 0; i < sl_step_trace_get_n_steps (steps); i++)
    {
      const SlStep *step = sl_step_trace_get_step (steps, i);

      if (step->start_ns != SL_STEP_NO_TIME && step->end_ns != SL_STEP_NO_TIME && step->end_ns >= step->start_ns)
        return TRUE;
    }
  return FALSE;
}

static void
place_from_table (SlStepSpans *self,
                  SlTrace     *trace,
                  SlStepTrace *steps)
{
  gint64 first_start = -1;
  gint64 shift = 0;

  for (guint i = 0; i < sl_step_trace_get_n_steps (steps); i++)
    {
      const SlStep *step = sl_step_trace_get_step (steps, i);
      SlStepSpan span = { step->step, -1, -1 };

      if (step->start_ns != SL_STEP_NO_TIME && step->end_ns != SL_STEP_NO_TIME && step->end_ns >= step->start_ns)
        {
          span.start_ns = step->start_ns;
          span.end_ns = step->end_ns;
          if (first_start < 0)
            first_start = step->start_ns;
        }
      g_array_append_val (self->steps, span);
    }

  self->source = SL_STEP_SPANS_FROM_TABLE;
  if (first_start < sl_trace_get_start_ns (trace) || first_start > sl_trace_get_end_ns (trace))
    {
      shift = self->first_device_ns - first_start;
      self->source = SL_STEP_SPANS_FROM_SHIFTED_TABLE;
    }
  for (guint i = 0; i < self->steps->len && shift != 0; i++)
    {
      SlStepSpan *span = &g_array_index (self->steps, SlStepSpan, i);

      if (span->start_ns >= 0)
        {
          span->start_ns += shift;
          span->end_ns += shift;
        }
    }
}

static void
place_from_timeline (SlStepSpans *self,
                     SlTrace     *trace,
                     SlStepTrace *steps)
{
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (SlStepSpan));
  g_autoptr(GHashTable) by_step = find_step_slices (trace, found);
  gboolean any = FALSE;

  for (guint i = 0; i < sl_step_trace_get_n_steps (steps); i++)
    {
      const SlStep *step = sl_step_trace_get_step (steps, i);
      SlStepSpan span = { step->step, -1, -1 };
      gpointer index;

      if (g_hash_table_lookup_extended (by_step, &step->step, NULL, &index))
        {
          span = g_array_index (found, SlStepSpan, GPOINTER_TO_UINT (index));
          any = TRUE;
        }
      g_array_append_val (self->steps, span);
    }
  self->source = any ? SL_STEP_SPANS_FROM_TIMELINE : SL_STEP_SPANS_NONE;
}

/**
 * sl_step_spans_new:
 * @trace: the timeline
 * @steps: (nullable): the step table of the same run
 *
 * Returns: (transfer full): the steps placed on @trace's clock
 */
SlStepSpans *
sl_step_spans_new (SlTrace     *trace,
                   SlStepTrace *steps)
{
  SlStepSpans *self;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  self = g_new0 (SlStepSpans, 1);
  self->steps = g_array_new (FALSE, FALSE, sizeof (SlStepSpan));
  self->first_device_ns = find_first_device_ns (trace);
  self->source = SL_STEP_SPANS_NONE;
  if (steps == NULL || sl_step_trace_get_n_steps (steps) == 0)
    return self;

  if (table_has_times (steps))
    place_from_table (self, trace, steps);
  else
    place_from_timeline (self, trace, steps);
  return self;
}

void
sl_step_spans_free (SlStepSpans *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->steps);
  g_free (self);
}

SlStepSpansSource
sl_step_spans_get_source (SlStepSpans *self)
{
  g_return_val_if_fail (self != NULL, SL_STEP_SPANS_NONE);
  return self->source;
}

guint
sl_step_spans_get_n_steps (SlStepSpans *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->steps->len;
}

const SlStepSpan *
sl_step_spans_get_step (SlStepSpans *self,
                        guint        index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->steps->len, NULL);
  return &g_array_index (self->steps, SlStepSpan, index);
}

gint64
sl_step_spans_get_first_device_ns (SlStepSpans *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->first_device_ns;
}
