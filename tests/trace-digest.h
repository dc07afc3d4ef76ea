/* trace-digest.h: everything an imported trace holds, as text
 *
 * Two imports of one file are the same when their digests are: strings in
 * id order, processes, tracks with every slice and counter point, flows,
 * metadata events, phase counts and problems (severity, path, offset,
 * message). Tests compare the grammar-aware reader with a yajl-only read,
 * and reads fed in different pieces.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdlib.h>
#include <glib.h>

#include "sl-problem.h"
#include "sl-trace.h"

static int
trace_digest_compare_keys (gconstpointer a,
                           gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static inline char *
trace_digest (SlTrace *trace)
{
  GString *out = g_string_new (NULL);
  GListModel *problems = sl_trace_get_problems (trace);
  GHashTable *phases = sl_trace_get_phase_counts (trace);
  g_autofree gpointer *keys = NULL;
  guint n_keys = 0;

  g_string_append_printf (out, "events %" G_GUINT64_FORMAT " range %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n",
                          sl_trace_get_n_events (trace), sl_trace_get_start_ns (trace), sl_trace_get_end_ns (trace));
  for (guint i = 0; i < sl_trace_get_n_strings (trace); i++)
    g_string_append_printf (out, "string %u %s\n", i, sl_trace_get_string (trace, i));
  for (guint p = 0; p < sl_trace_get_n_processes (trace); p++)
    g_string_append_printf (out, "process %u %s %s %" G_GINT64_FORMAT "\n", p,
                            sl_trace_get_process_pid (trace, p), sl_trace_get_process_name (trace, p),
                            sl_trace_get_process_sort_index (trace, p));
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);
      const SlTraceCounter *c = sl_trace_get_counter (trace, t);
      guint32 name_id, category_id, series_id;

      sl_trace_get_track_ids (trace, t, &name_id, &category_id, &series_id);
      g_string_append_printf (out, "track %u kind %d process %u name %s tid %s ids %u %u %u depths %u\n", t,
                              sl_trace_get_track_kind (trace, t), sl_trace_get_track_process (trace, t),
                              sl_trace_get_track_name (trace, t), sl_trace_get_track_tid (trace, t),
                              name_id, category_id, series_id, sl_trace_get_track_n_depths (trace, t));
      for (guint i = 0; s != NULL && i < s->n_slices; i++)
        g_string_append_printf (out, " slice %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                " %u %u %u %u %u %" G_GUINT64_FORMAT " %u\n",
                                sl_trace_slices_start_ns (s, i), sl_trace_slices_dur_ns (s, i), sl_trace_slices_self_ns (s, i), sl_trace_slices_name_id (s, i), sl_trace_slices_category_id (s, i),
                                sl_trace_slices_parent (s, i), sl_trace_slices_depth (s, i), sl_trace_slices_flags (s, i), sl_trace_slices_args_offset (s, i), sl_trace_slices_args_length (s, i));
      for (guint i = 0; c != NULL && i < c->n_points; i++)
        g_string_append_printf (out, " point %" G_GINT64_FORMAT " %.17g\n", c->ts_ns[i], c->value[i]);
    }
  for (guint f = 0; f < sl_trace_get_n_flows (trace); f++)
    {
      const SlTraceFlow *flow = sl_trace_get_flow (trace, f);

      g_string_append_printf (out, "flow %" G_GUINT64_FORMAT " %u %u %u %u %" G_GINT64_FORMAT " %u %u %" G_GINT64_FORMAT " %d\n",
                              flow->id, flow->name_id, flow->category_id, flow->from_track, flow->from_slice,
                              flow->from_ns, flow->to_track, flow->to_slice, flow->to_ns, flow->to_enclosing);
    }
  for (guint m = 0; m < sl_trace_get_n_metadata_events (trace); m++)
    {
      guint64 offset;
      guint32 length;

      sl_trace_get_metadata_event (trace, m, &offset, &length);
      g_string_append_printf (out, "metadata %" G_GUINT64_FORMAT " %u\n", offset, length);
    }
  keys = g_hash_table_get_keys_as_array (phases, &n_keys);
  qsort (keys, n_keys, sizeof (gpointer), trace_digest_compare_keys);
  for (guint i = 0; i < n_keys; i++)
    g_string_append_printf (out, "phase %s %" G_GSIZE_FORMAT "\n", (const char *) keys[i],
                            GPOINTER_TO_SIZE (g_hash_table_lookup (phases, keys[i])));
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      g_string_append_printf (out, "problem %d %s %" G_GINT64_FORMAT " %s\n", sl_problem_get_severity (problem),
                              sl_problem_get_path (problem), sl_problem_get_offset (problem),
                              sl_problem_get_message (problem));
    }
  return g_string_free (out, FALSE);
}
