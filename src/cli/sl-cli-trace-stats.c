/* sl-cli-trace-stats.c: `sightline-cli trace-stats PATH [--json]`
 *
 * Imports a trace and prints event counts by phase, slices, counters,
 * flows, processes, threads, the time span, the 20 names with the longest
 * total duration, and every problem. Exit status: 0 when the trace was
 * read (even with warnings, which are listed), 1 when PATH cannot be
 * read or reading it met an error (what was read before is printed),
 * 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-platform.h"
#include "sl-trace-aggregate.h"

#define TOP_NAMES 20

typedef struct {
  guint64 slices;
  guint64 instants;
  guint64 unfinished;
  guint64 overflow;
  guint64 counter_tracks;
  guint64 counter_points;
  guint64 thread_tracks;
  guint64 async_tracks;
} Totals;

static void
count_totals (SlTrace *trace,
              Totals  *totals)
{
  memset (totals, 0, sizeof *totals);
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, t);

      switch (sl_trace_get_track_kind (trace, t))
        {
        case SL_TRACE_TRACK_COUNTER:
          totals->counter_tracks++;
          totals->counter_points += sl_trace_get_counter (trace, t)->n_points;
          continue;
        case SL_TRACE_TRACK_THREAD:
          totals->thread_tracks++;
          break;
        case SL_TRACE_TRACK_ASYNC:
          totals->async_tracks++;
          break;
        default:
          break;
        }
      for (guint i = 0; i < s->n_slices; i++)
        {
          if (sl_trace_slices_flags (s, i) & SL_TRACE_SLICE_INSTANT)
            totals->instants++;
          else
            totals->slices++;
          if (sl_trace_slices_flags (s, i) & SL_TRACE_SLICE_UNFINISHED)
            totals->unfinished++;
          if (sl_trace_slices_flags (s, i) & SL_TRACE_SLICE_OVERFLOW)
            totals->overflow++;
        }
    }
}

/* end - start, saturated: a damaged file may span more than 64 bits hold */
static gint64
span_ns (SlTrace *trace)
{
  guint64 span = (guint64) sl_trace_get_end_ns (trace) - (guint64) sl_trace_get_start_ns (trace);

  return span > (guint64) G_MAXINT64 ? G_MAXINT64 : (gint64) span;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
sorted_phases (SlTrace *trace)
{
  GPtrArray *phases = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, sl_trace_get_phase_counts (trace));
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (phases, key);
  g_ptr_array_sort (phases, compare_strings);
  return phases;
}

static char *
stats_to_json (const char *path,
               SlTrace    *trace,
               GArray     *rows,
               gboolean  report_memory)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) phases = sorted_phases (trace);
  GHashTable *counts = sl_trace_get_phase_counts (trace);
  GListModel *problems = sl_trace_get_problems (trace);
  Totals totals;

  count_totals (trace, &totals);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "events");
  json_builder_add_int_value (builder, sl_trace_get_n_events (trace));
  json_builder_set_member_name (builder, "phases");
  json_builder_begin_object (builder);
  for (guint i = 0; i < phases->len; i++)
    {
      const char *phase = g_ptr_array_index (phases, i);

      json_builder_set_member_name (builder, phase);
      json_builder_add_int_value (builder, GPOINTER_TO_SIZE (g_hash_table_lookup (counts, phase)));
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "slices");
  json_builder_add_int_value (builder, totals.slices);
  json_builder_set_member_name (builder, "instants");
  json_builder_add_int_value (builder, totals.instants);
  json_builder_set_member_name (builder, "unfinished_slices");
  json_builder_add_int_value (builder, totals.unfinished);
  json_builder_set_member_name (builder, "overflow_slices");
  json_builder_add_int_value (builder, totals.overflow);
  json_builder_set_member_name (builder, "counter_tracks");
  json_builder_add_int_value (builder, totals.counter_tracks);
  json_builder_set_member_name (builder, "counter_points");
  json_builder_add_int_value (builder, totals.counter_points);
  json_builder_set_member_name (builder, "flows");
  json_builder_add_int_value (builder, sl_trace_get_n_flows (trace));
  json_builder_set_member_name (builder, "processes");
  json_builder_add_int_value (builder, sl_trace_get_n_processes (trace));
  json_builder_set_member_name (builder, "threads");
  json_builder_add_int_value (builder, totals.thread_tracks);
  json_builder_set_member_name (builder, "async_tracks");
  json_builder_add_int_value (builder, totals.async_tracks);
  json_builder_set_member_name (builder, "tracks");
  json_builder_add_int_value (builder, sl_trace_get_n_tracks (trace));
  /* null where nothing was read with a time: 0 would be a time */
  sl_cli_json_add_known_int (builder, "start_ns", sl_trace_has_times (trace), sl_trace_get_start_ns (trace));
  sl_cli_json_add_known_int (builder, "end_ns", sl_trace_has_times (trace), sl_trace_get_end_ns (trace));
  sl_cli_json_add_known_int (builder, "span_ns", sl_trace_has_times (trace), span_ns (trace));
  json_builder_set_member_name (builder, "memory_bytes");
  json_builder_add_int_value (builder, sl_trace_get_memory_size (trace));

  json_builder_set_member_name (builder, "top_names");
  json_builder_begin_array (builder);
  for (guint i = 0; i < MIN (rows->len, TOP_NAMES); i++)
    {
      const SlTraceAggregateRow *row = &g_array_index (rows, SlTraceAggregateRow, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, sl_trace_get_string (trace, row->name_id));
      json_builder_set_member_name (builder, "count");
      json_builder_add_int_value (builder, row->count);
      json_builder_set_member_name (builder, "total_ns");
      json_builder_add_int_value (builder, row->total_ns);
      json_builder_set_member_name (builder, "self_ns");
      json_builder_add_int_value (builder, row->self_ns);
      json_builder_set_member_name (builder, "average_ns");
      json_builder_add_double_value (builder, sl_trace_aggregate_row_average (row));
      json_builder_set_member_name (builder, "min_ns");
      json_builder_add_int_value (builder, row->min_ns);
      json_builder_set_member_name (builder, "max_ns");
      json_builder_add_int_value (builder, row->max_ns);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  sl_cli_json_add_problem_list (builder, problems, 0);

  if (report_memory)
    {
      json_builder_set_member_name (builder, "peak_rss_bytes");
      json_builder_add_int_value (builder, sl_platform_get_peak_resident_bytes ());
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static char *
format_ms (gint64 ns)
{
  return g_strdup_printf ("%.3f", ns / 1e6);
}

static void
print_text (const char *path,
            SlTrace    *trace,
            GArray     *rows)
{
  g_autoptr(GPtrArray) phases = sorted_phases (trace);
  GHashTable *counts = sl_trace_get_phase_counts (trace);
  g_autofree char *span = format_ms (span_ns (trace));
  Totals totals;

  count_totals (trace, &totals);

  printf (g_dngettext (GETTEXT_PACKAGE, "%s: %llu event\n", "%s: %llu events\n", sl_trace_get_n_events (trace)),
          path, (unsigned long long) sl_trace_get_n_events (trace));
  printf ("  %s", _("phases:"));
  for (guint i = 0; i < phases->len; i++)
    {
      const char *phase = g_ptr_array_index (phases, i);

      printf (" %s=%llu", phase, (unsigned long long) GPOINTER_TO_SIZE (g_hash_table_lookup (counts, phase)));
    }
  printf ("\n");
  printf (_("  slices: %llu (instants %llu, unfinished %llu, in overflow lanes %llu)\n"),
          (unsigned long long) totals.slices, (unsigned long long) totals.instants,
          (unsigned long long) totals.unfinished, (unsigned long long) totals.overflow);
  printf (_("  counters: %llu series, %llu points\n"),
          (unsigned long long) totals.counter_tracks, (unsigned long long) totals.counter_points);
  printf (_("  flows: %llu\n"), (unsigned long long) sl_trace_get_n_flows (trace));
  printf (_("  processes: %llu, threads: %llu, async tracks: %llu\n"),
          (unsigned long long) sl_trace_get_n_processes (trace),
          (unsigned long long) totals.thread_tracks, (unsigned long long) totals.async_tracks);
  if (sl_trace_has_times (trace))
    printf (_("  time span: %s ms (from %lld ns to %lld ns)\n"), span,
            (long long) sl_trace_get_start_ns (trace), (long long) sl_trace_get_end_ns (trace));
  else
    printf ("  %s\n", _("time span: none, nothing read has a time"));

  if (rows->len > 0)
    {
      printf ("\n%s\n", _("Names with the longest total duration (ms):"));
      /* Names last and whole: a long op name is what people look for. */
      printf ("  %10s %12s %12s %12s %12s %12s  %s\n", _("count"), _("total"),
              _("self"), _("average"), _("min"), _("max"), _("name"));
      for (guint i = 0; i < MIN (rows->len, TOP_NAMES); i++)
        {
          const SlTraceAggregateRow *row = &g_array_index (rows, SlTraceAggregateRow, i);

          printf ("  %10llu %12.3f %12.3f %12.3f %12.3f %12.3f  %s\n",
                  (unsigned long long) row->count,
                  row->total_ns / 1e6, row->self_ns / 1e6, sl_trace_aggregate_row_average (row) / 1e6,
                  row->min_ns / 1e6, row->max_ns / 1e6, sl_trace_get_string (trace, row->name_id));
        }
    }

  sl_cli_print_trace_problems (trace);
}

int
sl_cli_trace_stats (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("PATH — count the events of a Chrome trace"));
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(GArray) rows = NULL;
  gboolean json = FALSE, report_memory = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as JSON"), NULL },
    { "report-memory", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &report_memory, NULL, NULL },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (argc != 2)
    {
      if (argc < 2)
        sl_cli_print_error (_("%s needs a PATH"), "trace-stats");
      else
        sl_cli_print_error (_("%s takes a single PATH"), "trace-stats");
      return 2;
    }

  if (!(trace = sl_cli_load_trace (argv[1], &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  rows = sl_trace_aggregate (trace, G_MININT64, G_MAXINT64, NULL, 0, NULL);
  if (json)
    {
      g_autofree char *text = stats_to_json (argv[1], trace, rows, report_memory);
      printf ("%s\n", text);
    }
  else
    {
      print_text (argv[1], trace, rows);
      if (report_memory)
        printf ("peak_rss_bytes=%llu\n", (unsigned long long) sl_platform_get_peak_resident_bytes ());
    }

  return sl_cli_trace_exit_status (trace);
}
