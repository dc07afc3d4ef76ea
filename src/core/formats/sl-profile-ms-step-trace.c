/* sl-profile-ms-step-trace.c: MindSpore's step_trace_raw_<id>_detail_time.csv
 *
 * Its columns are a spec like the other tables', but its rows are not:
 * the averages row, the extras after "tail" and the communication ops'
 * start and end points need a loop of their own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-profile-step-tables.h"

#define MS_TICK_NS 10

enum {
  MS_STEP, MS_START, MS_END, MS_TOTAL, MS_FP, MS_BP, MS_INTERVAL, MS_FPBP, MS_TAIL,
  N_MS_COLUMNS
};

static const SlProfileColumn ms_step_columns[] = {
  [MS_STEP] = { .aliases = "step_num", .name = "step_num", .required = "step_num",
                .flags = SL_PROFILE_COLUMN_REQUIRED | SL_PROFILE_COLUMN_VALUE },
  [MS_START] = { .aliases = "start_point", .unit = SL_PROFILE_UNIT_TICKS },
  [MS_END] = { .aliases = "end_point", .unit = SL_PROFILE_UNIT_TICKS },
  [MS_TOTAL] = { .aliases = "total", .required = "total", .unit = SL_PROFILE_UNIT_TICKS,
                 .flags = SL_PROFILE_COLUMN_REQUIRED },
  [MS_FP] = { .aliases = "fp_point|fp", .unit = SL_PROFILE_UNIT_TICKS },
  [MS_BP] = { .aliases = "bp_point", .unit = SL_PROFILE_UNIT_TICKS },
  [MS_INTERVAL] = { .aliases = "iteration_interval", .unit = SL_PROFILE_UNIT_TICKS },
  [MS_FPBP] = { .aliases = "fp_and_bp", .unit = SL_PROFILE_UNIT_TICKS },
  [MS_TAIL] = { .aliases = "tail", .unit = SL_PROFILE_UNIT_TICKS },
};

G_STATIC_ASSERT (G_N_ELEMENTS (ms_step_columns) == N_MS_COLUMNS);

static gboolean
is_dash (const char *text)
{
  if (text == NULL)
    return FALSE;
  while (*text == ' ' || *text == '\t')
    text++;
  return text[0] == '-' && !g_ascii_isdigit (text[1]);
}

static gint64
ticks (SlCsvReader *reader,
       int          column)
{
  gint64 value;

  G_STATIC_ASSERT (MS_TICK_NS == 10); /* a tick is one decimal place of ns */
  return sl_csv_reader_get_scaled (reader, column, 1, &value) ? value : SL_STEP_NO_TIME;
}

/* MindSpore's communication ops in a step trace: for each op (older
 * "stream_<s>_parallel_<n>", later "stream_<s>_<k>_<Op>-op<N>") a
 * duration column and its "_start_point" and "_end_point". Returns the
 * (start, end) column pairs, flattened. */
static GArray *
find_comm_columns (SlCsvReader *reader,
                   int          first_extra)
{
  static GRegex *op_name;
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (int));

  if (g_once_init_enter (&op_name))
    g_once_init_leave (&op_name, g_regex_new ("^stream_\\d+_(?:parallel_\\d+|\\d+_.+)_start_point$",
                                              G_REGEX_OPTIMIZE, 0, NULL));

  for (guint c = MAX (first_extra, 0); c < sl_csv_reader_get_n_columns (reader); c++)
    {
      const char *name = sl_csv_reader_get_column_name (reader, c);
      g_autofree char *base = NULL;
      g_autofree char *end_name = NULL;
      int end_column;

      if (name == NULL || !g_regex_match (op_name, name, 0, NULL))
        continue;
      base = g_strndup (name, strlen (name) - strlen ("_start_point"));
      end_name = g_strconcat (base, "_end_point", NULL);
      end_column = sl_csv_reader_find_column (reader, end_name);
      if (end_column < 0)
        continue;
      g_array_append_val (pairs, c);
      g_array_append_val (pairs, end_column);
    }
  return pairs;
}

static int
compare_intervals (gconstpointer a,
                   gconstpointer b)
{
  const gint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The time some communication op of the row runs, within the step: the
 * length of the union of the ops' [start, end] (ops on different streams
 * overlap). SL_STEP_NO_TIME when no op has both points. */
static gint64
comm_union (SlCsvReader  *reader,
            GArray       *pairs,
            const SlStep *step)
{
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  gint64 total = 0, covered_to = G_MININT64;

  for (guint i = 0; i + 1 < pairs->len; i += 2)
    {
      gint64 span[2] = {
        ticks (reader, g_array_index (pairs, int, i)),
        ticks (reader, g_array_index (pairs, int, i + 1)),
      };

      if (span[0] == SL_STEP_NO_TIME || span[1] == SL_STEP_NO_TIME || span[0] <= 0 || span[1] < span[0])
        continue;
      if (step->start_ns != SL_STEP_NO_TIME && step->end_ns != SL_STEP_NO_TIME && step->end_ns > step->start_ns)
        {
          span[0] = CLAMP (span[0], step->start_ns, step->end_ns);
          span[1] = CLAMP (span[1], step->start_ns, step->end_ns);
        }
      g_array_append_val (intervals, span);
    }
  if (intervals->len == 0)
    return SL_STEP_NO_TIME;

  g_array_sort (intervals, compare_intervals);
  for (guint i = 0; i < intervals->len; i++)
    {
      const gint64 *span = &g_array_index (intervals, gint64, 2 * i);

      if (span[1] <= covered_to)
        continue;
      total += span[1] - MAX (span[0], covered_to);
      covered_to = span[1];
    }
  return total;
}

/* MindSpore step_trace_raw_<id>_detail_time.csv: ticks of 10 ns; the last
 * row ("-", or all zeros in older versions) holds averages. Columns after
 * "tail" are reduce streams and communication ops, kept as extras; when
 * they carry start and end points, the time the step spends in
 * communication (their union) is the extra "Communication", which the
 * step breakdown takes as the step's communication. */
static void
read_ms_step_trace (const SlProfileTableSpec *spec,
                    SlProfile                *profile,
                    SlProfileRank            *rank,
                    const char               *path,
                    GCancellable             *cancellable)
{
  g_autoptr(SlStepTrace) trace = NULL;
  g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (SlStep));
  g_autoptr(GArray) extras = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) comm_pairs = NULL;
  g_autoptr(GArray) comm = g_array_new (FALSE, FALSE, sizeof (gint64));
  int columns[N_MS_COLUMNS];
  SlCsvReader *reader = sl_profile_table_open (spec, profile, path, columns);
  int comm_column = -1;
  int c_step = columns[MS_STEP], c_start = columns[MS_START], c_end = columns[MS_END];
  int c_total = columns[MS_TOTAL], c_fp = columns[MS_FP], c_bp = columns[MS_BP];
  int c_interval = columns[MS_INTERVAL], c_fpbp = columns[MS_FPBP], c_tail = columns[MS_TAIL];
  int first_extra;
  guint n_extra;
  SlStep average;
  gboolean have_average = FALSE;

  if (reader == NULL)
    return;

  first_extra = MAX (MAX (MAX (c_tail, c_fpbp), MAX (c_interval, c_bp)), MAX (c_total, c_fp)) + 1;
  n_extra = sl_csv_reader_get_n_columns (reader) > (guint)first_extra
          ? sl_csv_reader_get_n_columns (reader) - first_extra : 0;

  trace = sl_step_trace_new (path, SL_STEP_SOURCE_MINDSPORE);
  for (guint i = 0; i < n_extra; i++)
    sl_step_trace_add_extra_column (trace, sl_csv_reader_get_column_name (reader, first_extra + i));
  comm_pairs = find_comm_columns (reader, first_extra);
  if (comm_pairs->len > 0)
    comm_column = sl_step_trace_add_extra_column (trace, SL_STEP_EXTRA_COMMUNICATION);

  while (sl_csv_reader_next_row (reader))
    {
      const char *step_text = sl_csv_reader_get_field (reader, c_step);
      SlStep step;

      if (sl_profile_table_cancelled (reader, cancellable))
        break;

      sl_profile_step_init (&step);
      step.start_ns = ticks (reader, c_start);
      step.end_ns = ticks (reader, c_end);
      step.total_ns = ticks (reader, c_total);
      step.fp_ns = ticks (reader, c_fp);
      step.bp_ns = ticks (reader, c_bp);
      step.data_wait_ns = ticks (reader, c_interval);
      step.fp_bp_ns = ticks (reader, c_fpbp);
      step.tail_ns = ticks (reader, c_tail);

      if (is_dash (step_text))
        {
          average = step;
          have_average = TRUE;
          continue;
        }
      if (!sl_csv_reader_get_int64 (reader, c_step, &step.step))
        {
          sl_profile_table_report_bad (reader, c_step, spec->columns[MS_STEP].name);
          continue;
        }

      /* The first step has no step before it to wait from: MindSpore
       * writes its iteration interval as 0, starting it at the forward
       * pass. That 0 is not a measured wait, and is read as unknown. */
      if (steps->len == 0 && step.data_wait_ns == 0 && step.fp_ns == step.start_ns)
        step.data_wait_ns = SL_STEP_NO_TIME;

      g_array_append_val (steps, step);
      {
        guint line = sl_csv_reader_get_row_line (reader);

        g_array_append_val (lines, line);
      }
      for (guint i = 0; i < n_extra; i++)
        {
          gint64 value = ticks (reader, first_extra + i);

          g_array_append_val (extras, value);
        }
      if (comm_column >= 0)
        {
          gint64 value = comm_union (reader, comm_pairs, &step);

          g_array_append_val (comm, value);
        }
    }

  /* Older MindSpore ended with an averages row numbered 0 with no points. */
  if (!have_average && steps->len > 1)
    {
      SlStep *last = &g_array_index (steps, SlStep, steps->len - 1);

      if (last->step == 0 && last->start_ns == 0 && last->end_ns == 0)
        {
          average = *last;
          have_average = TRUE;
          g_array_set_size (steps, steps->len - 1);
        }
    }

  for (guint s = 0; s < steps->len; s++)
    {
      guint index = sl_step_trace_add_step (trace, &g_array_index (steps, SlStep, s));

      sl_step_trace_set_line (trace, index, g_array_index (lines, guint, s));

      for (guint i = 0; i < n_extra; i++)
        sl_step_trace_set_extra (trace, index, i, g_array_index (extras, gint64, s * n_extra + i));
      if (comm_column >= 0)
        sl_step_trace_set_extra (trace, index, comm_column, g_array_index (comm, gint64, s));
    }
  if (have_average)
    sl_step_trace_set_file_average (trace, &average);

  g_clear_pointer (&rank->steps, sl_step_trace_unref);
  rank->steps = g_steal_pointer (&trace);

  sl_profile_table_close (profile, reader);
}

const SlProfileTableSpec sl_profile_ms_step_table = {
  .kind = SL_PROFILE_FILE_MS_STEP,
  .files = "step_trace_raw_<id>_detail_time.csv",
  .columns = ms_step_columns,
  .n_columns = N_MS_COLUMNS,
  .read = read_ms_step_trace,
};
