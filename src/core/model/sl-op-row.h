/* sl-op-row.h: one row of an op table (an op type or an op instance)
 *
 * Small immutable objects with properties, so a GtkColumnView can show a
 * GListModel of them directly. Times are nanoseconds; -1 means the source
 * did not say. Built by SlOpTable in a worker thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_OP_ROW (sl_op_row_get_type ())
G_DECLARE_FINAL_TYPE (SlOpRow, sl_op_row, SL, OP_ROW, GObject)

SlOpRow    *sl_op_row_new                (const char *name,
                                          const char *op_type,
                                          const char *core_type);
const char *sl_op_row_get_name (SlOpRow *self);
const char *sl_op_row_get_op_type (SlOpRow *self);
const char *sl_op_row_get_core_type (SlOpRow *self);
guint64     sl_op_row_get_count (SlOpRow *self);
gint64      sl_op_row_get_total_ns (SlOpRow *self);
gint64      sl_op_row_get_avg_ns (SlOpRow *self);
gint64      sl_op_row_get_min_ns (SlOpRow *self);
gint64      sl_op_row_get_max_ns (SlOpRow *self);
double      sl_op_row_get_ratio (SlOpRow *self);
gint64      sl_op_row_get_wait_ns (SlOpRow *self);
gint64      sl_op_row_get_aicore_ns (SlOpRow *self);
gint64      sl_op_row_get_block_dim (SlOpRow *self);
gint64      sl_op_row_get_stream_id (SlOpRow *self);
const char *sl_op_row_get_input_shapes (SlOpRow *self);
const char *sl_op_row_get_input_dtypes (SlOpRow *self);
const char *sl_op_row_get_input_formats (SlOpRow *self);
const char *sl_op_row_get_output_shapes (SlOpRow *self);
const char *sl_op_row_get_output_dtypes (SlOpRow *self);
const char *sl_op_row_get_output_formats (SlOpRow *self);

/* For the builder (SlOpTable and the profile readers) only. */
typedef enum {
  SL_OP_ROW_INPUT_SHAPES,
  SL_OP_ROW_INPUT_DTYPES,
  SL_OP_ROW_INPUT_FORMATS,
  SL_OP_ROW_OUTPUT_SHAPES,
  SL_OP_ROW_OUTPUT_DTYPES,
  SL_OP_ROW_OUTPUT_FORMATS,
  SL_OP_ROW_OP_STATE,          /* "static" or "dynamic" (op_summary's OP State) */
  SL_OP_ROW_N_TEXTS
} SlOpRowText;

/* The pipes of an AI Core whose share of cycles msprof measures with
 * --aic-metrics=PipeUtilization (the *_ratio columns). */
typedef enum {
  SL_OP_PIPE_CUBE,     /* mac_ratio */
  SL_OP_PIPE_VECTOR,   /* vec_ratio */
  SL_OP_PIPE_SCALAR,
  SL_OP_PIPE_MTE1,
  SL_OP_PIPE_MTE2,
  SL_OP_PIPE_MTE3,
  SL_OP_N_PIPES
} SlOpPipe;

void        sl_op_row_add_execution      (SlOpRow    *self,
                                          gint64      duration_ns,
                                          gint64      wait_ns,
                                          gint64      aicore_ns);
void        sl_op_row_set_totals         (SlOpRow    *self,
                                          guint64     count,
                                          gint64      total_ns,
                                          gint64      min_ns,
                                          gint64      max_ns);
void        sl_op_row_set_ratio          (SlOpRow    *self,
                                          double      ratio);
void        sl_op_row_set_op_type        (SlOpRow    *self,
                                          const char *op_type);
void        sl_op_row_set_block_dim      (SlOpRow    *self,
                                          gint64      block_dim);
void        sl_op_row_set_stream_id      (SlOpRow    *self,
                                          gint64      stream_id);
void        sl_op_row_set_text           (SlOpRow    *self,
                                          SlOpRowText which,
                                          const char *text);

void        sl_op_row_set_flops          (SlOpRow    *self,
                                          double      mflops,
                                          double      gflops_rate);
double      sl_op_row_get_mflops         (SlOpRow    *self);
double      sl_op_row_get_gflops_rate    (SlOpRow    *self);

/* Where the row came from: the file and the 1-based line of its first
 * record, and the line of its longest execution (0 when unknown). */
void        sl_op_row_set_source         (SlOpRow    *self,
                                          const char *path,
                                          guint       line);
void        sl_op_row_set_longest_line   (SlOpRow    *self,
                                          guint       line);
const char *sl_op_row_get_source_path    (SlOpRow    *self);
guint       sl_op_row_get_source_line    (SlOpRow    *self);
guint       sl_op_row_get_longest_line   (SlOpRow    *self);

/* Data each execution moves (inputs and outputs), summed with the
 * duration of the executions whose sizes are known: bytes over time is
 * the op's rate. */
gint64      sl_op_row_tensor_bytes       (const char *shapes,
                                          const char *dtypes);
void        sl_op_row_add_moved_bytes    (SlOpRow    *self,
                                          gint64      bytes,
                                          gint64      duration_ns);
gint64      sl_op_row_get_moved_bytes    (SlOpRow    *self);
gint64      sl_op_row_get_moved_ns       (SlOpRow    *self);

/* Pipe ratios of one execution (each in [0, 1], negative or NaN when the
 * file had no such column), averaged over executions weighted by time. */
void        sl_op_row_add_pipe_ratios    (SlOpRow      *self,
                                          const double *ratios,
                                          gint64        duration_ns);
/* -1 when no execution had the ratio. */
double      sl_op_row_get_pipe_ratio     (SlOpRow    *self,
                                          SlOpPipe    pipe);
const char *sl_op_pipe_to_string         (SlOpPipe    pipe);
/* Time the cores were busy with the op (the larger of aicore_time and
 * aiv_time of each execution), summed; -1 unknown. */
void        sl_op_row_add_core_busy      (SlOpRow    *self,
                                          gint64      busy_ns);
gint64      sl_op_row_get_core_busy_ns   (SlOpRow    *self);
const char *sl_op_row_get_op_state       (SlOpRow    *self);

/* Sums over the executions of what msprof's other --aic-metrics sets
 * measure (ArithmeticUtilization: *_cube_fops, *_vector_fops; Memory:
 * *_main_mem_read_bw and _write_bw times the core time), each with the
 * core time of the executions that had it, so rates stay exact. */
typedef enum {
  SL_OP_COUNTER_CUBE_FOPS,         /* floating point operations on the cube unit */
  SL_OP_COUNTER_VECTOR_FOPS,
  SL_OP_COUNTER_MEMORY_READ,       /* bytes read from main memory */
  SL_OP_COUNTER_MEMORY_WRITE,      /* bytes written to main memory */
  SL_OP_COUNTER_MEMORY_IDEAL,      /* input + output tensor bytes of the executions with memory counters */
  SL_OP_N_COUNTERS
} SlOpCounter;

void        sl_op_row_add_counter        (SlOpRow     *self,
                                          SlOpCounter  counter,
                                          double       value,
                                          gint64       core_ns);
/* -1 when no execution had the counter. */
double      sl_op_row_get_counter        (SlOpRow     *self,
                                          SlOpCounter  counter);
/* The core time of the executions that had the counter, 0 when none. */
gint64      sl_op_row_get_counter_ns     (SlOpRow     *self,
                                          SlOpCounter  counter);

G_END_DECLS
