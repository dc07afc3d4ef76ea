/* sl-profile-op-counters.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-profile-op-counters.h"
#include "sl-profile-table-reader.h"

/* The pipe ratio columns of msprof's PipeUtilization metrics: the cube
 * side (aic_) and the vector side (aiv_) of a mixed op, or the older
 * unprefixed names. */
static const char *pipe_columns[SL_OP_N_PIPES][3] = {
  [SL_OP_PIPE_CUBE] = { "aic_mac_ratio", "aiv_mac_ratio", "mac_ratio" },
  [SL_OP_PIPE_VECTOR] = { "aiv_vec_ratio", "aic_vec_ratio", "vec_ratio" },
  [SL_OP_PIPE_SCALAR] = { "aic_scalar_ratio", "aiv_scalar_ratio", "scalar_ratio" },
  [SL_OP_PIPE_MTE1] = { "aic_mte1_ratio", "aiv_mte1_ratio", "mte1_ratio" },
  [SL_OP_PIPE_MTE2] = { "aic_mte2_ratio", "aiv_mte2_ratio", "mte2_ratio" },
  [SL_OP_PIPE_MTE3] = { "aic_mte3_ratio", "aiv_mte3_ratio", "mte3_ratio" },
};

static void
find_pipe_columns (SlCsvReader *reader,
                   int          columns[SL_OP_N_PIPES][3])
{
  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    for (guint i = 0; i < 3; i++)
      columns[p][i] = sl_profile_find_column_exact (reader, pipe_columns[p][i]);
}

/* Of a mixed op's two sides, the busier one bounds it. */
static void
read_pipe_ratios (SlCsvReader *reader,
                  const int    columns[SL_OP_N_PIPES][3],
                  double      *ratios)
{
  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    {
      ratios[p] = -1;
      for (guint i = 0; i < 3; i++)
        {
          double value;

          if (columns[p][i] != SL_CSV_NO_COLUMN &&
              sl_csv_reader_get_double (reader, columns[p][i], &value) &&
              value >= 0 && value <= 1)
            ratios[p] = MAX (ratios[p], value);
        }
    }
}

/* What the ArithmeticUtilization and Memory metric sets add. The cube
 * (aic_) and vector (aiv_) sides of a mixed op each do their own part of
 * the work, so their counts add up; a bandwidth is turned into bytes with
 * its own side's core time. */
static void
find_counter_columns (SlCsvReader        *reader,
                      SlOpCounterColumns *columns)
{
  static const char *const sides[3] = { "aic_", "aiv_", "" };

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *cube = g_strconcat (sides[i], "cube_fops", NULL);
      g_autofree char *vector = g_strconcat (sides[i], "vector_fops", NULL);
      g_autofree char *read = g_strconcat (sides[i], "main_mem_read_bw(GB/s)", NULL);
      g_autofree char *write = g_strconcat (sides[i], "main_mem_write_bw(GB/s)", NULL);

      columns->cube_fops[i] = sl_profile_find_column_exact (reader, cube);
      columns->vector_fops[i] = sl_profile_find_column_exact (reader, vector);
      columns->read_bw[i] = sl_profile_find_column_exact (reader, read);
      columns->write_bw[i] = sl_profile_find_column_exact (reader, write);
    }
}

/* The sum over the sides that have the column; -1 when none has it. */
static double
sum_sides (SlCsvReader  *reader,
           const int    *columns,
           const gint64 *side_ns)
{
  double sum = -1;

  for (guint i = 0; i < 3; i++)
    {
      double value;

      if (columns[i] == SL_CSV_NO_COLUMN ||
          !sl_csv_reader_get_double (reader, columns[i], &value) ||
          !isfinite (value) || value < 0)
        continue;
      /* GB/s over the side's µs is bytes: 1e9 B/s x 1e-9 s per ns. */
      if (side_ns != NULL)
        {
          if (side_ns[i] < 0)
            continue;
          value *= (double)side_ns[i];
        }
      sum = MAX (sum, 0) + value;
    }
  return sum;
}

/* The bytes of the row's input and output tensors, by its shapes and
 * dtypes; -1 when the file or the row does not say. */
static gint64
tensor_bytes (SlCsvReader *reader,
              const int   *c_texts)
{
  gint64 in, out;

  if (c_texts[SL_OP_ROW_INPUT_SHAPES] < 0 || c_texts[SL_OP_ROW_INPUT_DTYPES] < 0 ||
      c_texts[SL_OP_ROW_OUTPUT_SHAPES] < 0 || c_texts[SL_OP_ROW_OUTPUT_DTYPES] < 0)
    return -1;
  in = sl_op_row_tensor_bytes (sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_INPUT_SHAPES]),
                               sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_INPUT_DTYPES]));
  out = sl_op_row_tensor_bytes (sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_OUTPUT_SHAPES]),
                                sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_OUTPUT_DTYPES]));
  return in >= 0 && out >= 0 ? in + out : -1;
}

static void
read_counters (SlOpRow                  *row,
               SlCsvReader              *reader,
               const SlOpCounterColumns *columns,
               const int                *c_texts,
               const gint64              side_ns[3])
{
  gint64 busy_ns = side_ns[2];
  double cube = sum_sides (reader, columns->cube_fops, NULL);
  double vector = sum_sides (reader, columns->vector_fops, NULL);
  double read = sum_sides (reader, columns->read_bw, side_ns);
  double write = sum_sides (reader, columns->write_bw, side_ns);
  gint64 bytes;

  if (cube >= 0)
    sl_op_row_add_counter (row, SL_OP_COUNTER_CUBE_FOPS, cube, busy_ns);
  if (vector >= 0)
    sl_op_row_add_counter (row, SL_OP_COUNTER_VECTOR_FOPS, vector, busy_ns);
  if (read < 0 && write < 0)
    return;
  sl_op_row_add_counter (row, SL_OP_COUNTER_MEMORY_READ, MAX (read, 0), busy_ns);
  sl_op_row_add_counter (row, SL_OP_COUNTER_MEMORY_WRITE, MAX (write, 0), busy_ns);
  if ((bytes = tensor_bytes (reader, c_texts)) >= 0)
    sl_op_row_add_counter (row, SL_OP_COUNTER_MEMORY_IDEAL, (double)bytes, busy_ns);
}

/* This execution's own shapes: an op name runs with different shapes
 * (a pooling op at each resolution), so the first row's would be wrong. */
static void
add_moved_bytes (SlOpRow     *row,
                 SlCsvReader *reader,
                 const int   *c_texts,
                 gint64       dur_ns)
{
  gint64 bytes = tensor_bytes (reader, c_texts);

  if (bytes >= 0)
    sl_op_row_add_moved_bytes (row, bytes, dur_ns);
}

void
sl_op_counter_columns_find (SlOpCounterColumns *columns,
                            SlCsvReader        *reader)
{
  find_pipe_columns (reader, columns->pipes);
  find_counter_columns (reader, columns);
}

void
sl_op_counters_add (SlOpRow                  *row,
                    SlCsvReader              *reader,
                    const SlOpCounterColumns *columns,
                    const int                *c_texts,
                    gint64                    aicore_ns,
                    gint64                    aiv_ns,
                    gint64                    dur_ns)
{
  gint64 busy_ns = MAX (aicore_ns, aiv_ns) >= 0 ? MIN (MAX (aicore_ns, aiv_ns), dur_ns) : dur_ns;
  /* An unprefixed column belongs to whichever core ran the op. */
  gint64 side_ns[3] = { aicore_ns >= 0 ? MIN (aicore_ns, dur_ns) : -1, aiv_ns >= 0 ? MIN (aiv_ns, dur_ns) : -1, busy_ns };
  double ratios[SL_OP_N_PIPES];

  read_pipe_ratios (reader, columns->pipes, ratios);
  sl_op_row_add_pipe_ratios (row, ratios, dur_ns);
  add_moved_bytes (row, reader, c_texts, dur_ns);
  read_counters (row, reader, columns, c_texts, side_ns);
}
