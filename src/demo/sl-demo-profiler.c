/* sl-demo-profiler.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sl-demo-ops.h"
#include "sl-demo-profiler.h"

#define N_KINDS       (SL_DEMO_OP_APPLY_MOMENTUM + 1)
#define N_OPS         (N_KINDS * SL_DEMO_MLP_N_LAYERS)
#define OP_GET_NEXT   N_OPS           /* loading a batch, on the AI CPU */
#define TICK_NS       10              /* MindSpore's system counter */
#define DEVICE_PID    0
#define AICPU_PID     9000
#define STEP_PID      2

typedef struct {
  gint64 start_ns;
  gint64 dur_ns;
  guint  op;
  guint  step;
} Event;

typedef struct {
  gint64 start_ns;
  gint64 fp_ns;
  gint64 bp_ns;
  gint64 end_ns;
} Step;

struct _SlDemoProfiler
{
  guint   batch;
  guint   n_in[SL_DEMO_MLP_N_LAYERS];
  guint   n_out[SL_DEMO_MLP_N_LAYERS];
  GArray *events;   /* Event */
  GArray *steps;    /* Step */
  gint64  open_start[N_OPS + 1];
  gint64  origin_ns;
};

static const char *kind_types[N_KINDS] = {
  "MatMul", "Tanh", "SoftmaxCrossEntropyWithLogits", "MatMul", "BiasAddGrad", "MatMul", "TanhGrad", "ApplyMomentum",
};

/* ISO C's clock: nanoseconds where the system has them, on every platform. */
static gint64
now_ns (void)
{
  struct timespec ts;

  if (timespec_get (&ts, TIME_UTC) != TIME_UTC)
    return g_get_real_time () * 1000;
  return (gint64)ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

SlDemoProfiler *
sl_demo_profiler_new (const SlDemoMlp *mlp,
                      guint            batch_size)
{
  SlDemoProfiler *self = g_new0 (SlDemoProfiler, 1);

  for (guint l = 0; l < SL_DEMO_MLP_N_LAYERS; l++)
    {
      self->n_in[l] = mlp->layers[l].n_in;
      self->n_out[l] = mlp->layers[l].n_out;
    }
  self->batch = batch_size;
  self->events = g_array_new (FALSE, FALSE, sizeof (Event));
  self->steps = g_array_new (FALSE, FALSE, sizeof (Step));
  return self;
}

void
sl_demo_profiler_free (SlDemoProfiler *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->events);
  g_array_unref (self->steps);
  g_free (self);
}

static Step *
current_step (SlDemoProfiler *self)
{
  return &g_array_index (self->steps, Step, self->steps->len - 1);
}

/* A step starts where the previous one ended, as in MindSpore's step
 * trace: the gap (summaries, logging, loading data) is the data wait. */
void
sl_demo_profiler_begin_step (SlDemoProfiler *self)
{
  Step step = { 0, -1, -1, -1 };

  step.start_ns = self->steps->len > 0 ? current_step (self)->end_ns : now_ns ();
  if (self->steps->len == 0)
    self->origin_ns = step.start_ns;
  g_array_append_val (self->steps, step);
}

static void
record (SlDemoProfiler *self,
        guint           op,
        gboolean        begin)
{
  gint64 t = now_ns ();
  Event event;

  if (begin)
    {
      self->open_start[op] = t;
      return;
    }

  event.start_ns = self->open_start[op];
  event.dur_ns = MAX (t - event.start_ns, 0);
  event.op = op;
  event.step = self->steps->len;
  g_array_append_val (self->events, event);
}

void
sl_demo_profiler_begin_data (SlDemoProfiler *self)
{
  record (self, OP_GET_NEXT, TRUE);
}

void
sl_demo_profiler_end_data (SlDemoProfiler *self)
{
  record (self, OP_GET_NEXT, FALSE);
}

void
sl_demo_profiler_op (SlDemoOpKind kind,
                     guint        layer,
                     gboolean     begin,
                     gpointer     user_data)
{
  SlDemoProfiler *self = user_data;
  guint op = kind * SL_DEMO_MLP_N_LAYERS + layer;
  SlDemoPhase phase = sl_demo_op_kind_get_phase (kind);
  Step *step = current_step (self);

  record (self, op, begin);

  /* fp_point: the first forward op starts; bp_point: the last backward op ends. */
  if (begin && phase == SL_DEMO_PHASE_FORWARD && step->fp_ns < 0)
    step->fp_ns = self->open_start[op];
  if (!begin && phase == SL_DEMO_PHASE_BACKWARD)
    step->bp_ns = g_array_index (self->events, Event, self->events->len - 1).start_ns +
                  g_array_index (self->events, Event, self->events->len - 1).dur_ns;
}

void
sl_demo_profiler_end_step (SlDemoProfiler *self)
{
  Step *step = current_step (self);

  step->end_ns = now_ns ();
  if (step->fp_ns < 0)
    step->fp_ns = step->start_ns;
  if (step->bp_ns < 0)
    step->bp_ns = step->fp_ns;
}

guint
sl_demo_profiler_get_n_steps (SlDemoProfiler *self)
{
  return self->steps->len;
}

/* ------------------------------------------------------------------ */
/* Names, shapes, streams */

/* The graph's names for the same ops (sl-demo-ops.c); NULL for a kind
 * the network never runs on that layer. */
static const SlDemoOp *
demo_op (guint op)
{
  return op == OP_GET_NEXT ? NULL : sl_demo_ops_lookup (op / SL_DEMO_MLP_N_LAYERS, op % SL_DEMO_MLP_N_LAYERS);
}

static char *
op_full_name (guint op)
{
  if (op == OP_GET_NEXT)
    return g_strdup ("GetNext");
  g_return_val_if_fail (demo_op (op) != NULL, NULL);
  return sl_demo_op_dup_full_name (demo_op (op));
}

static const char *
op_type (guint op)
{
  return op == OP_GET_NEXT ? "GetNext" : kind_types[op / SL_DEMO_MLP_N_LAYERS];
}

static char *
op_short_name (guint op)
{
  if (op == OP_GET_NEXT)
    return g_strdup ("GetNext");
  g_return_val_if_fail (demo_op (op) != NULL, NULL);
  return sl_demo_op_dup_name (demo_op (op));
}

/* Parameter updates run on a stream of their own, as MindSpore does. */
static guint
op_stream (guint op)
{
  return op / SL_DEMO_MLP_N_LAYERS == SL_DEMO_OP_APPLY_MOMENTUM ? 1 : 0;
}

static void
append_io (GString    *json,
           const char *name,
           const char *dtype,
           const char *shape)
{
  if (json->len > 1)
    g_string_append (json, ", ");
  g_string_append_printf (json, "\"%s\": {\"format\": \"DefaultFormat\", \"data_type\": \"%s\", \"shape\": \"%s\"}",
                          name, dtype, shape);
}

static char *
op_info (SlDemoProfiler *self,
         guint           op)
{
  SlDemoOpKind kind = op / SL_DEMO_MLP_N_LAYERS;
  guint l = op % SL_DEMO_MLP_N_LAYERS;
  guint b = self->batch, in = self->n_in[l], out = self->n_out[l];
  g_autofree char *bi = g_strdup_printf ("%u,%u", b, in);
  g_autofree char *bo = g_strdup_printf ("%u,%u", b, out);
  g_autofree char *w = g_strdup_printf ("%u,%u", out, in);
  g_autofree char *o = g_strdup_printf ("%u", out);
  g_autofree char *bn = g_strdup_printf ("%u", b);
  const char *f32 = "NUMBER_TYPE_FLOAT32";
  GString *json = g_string_new ("{");

  switch (kind)
    {
    case SL_DEMO_OP_MATMUL:
      append_io (json, "input_0", f32, bi);
      append_io (json, "input_1", f32, w);
      append_io (json, "output_0", f32, bo);
      break;
    case SL_DEMO_OP_TANH:
    case SL_DEMO_OP_TANH_GRAD:
      append_io (json, "input_0", f32, bo);
      append_io (json, "output_0", f32, bo);
      break;
    case SL_DEMO_OP_LOSS:
      append_io (json, "input_0", f32, bo);
      append_io (json, "input_1", "NUMBER_TYPE_UINT8", bn);
      append_io (json, "output_0", f32, bn);
      break;
    case SL_DEMO_OP_MATMUL_GRAD_W:
      append_io (json, "input_0", f32, bo);
      append_io (json, "input_1", f32, bi);
      append_io (json, "output_0", f32, w);
      break;
    case SL_DEMO_OP_BIAS_ADD_GRAD:
      append_io (json, "input_0", f32, bo);
      append_io (json, "output_0", f32, o);
      break;
    case SL_DEMO_OP_MATMUL_GRAD_X:
      append_io (json, "input_0", f32, bo);
      append_io (json, "input_1", f32, w);
      append_io (json, "output_0", f32, bi);
      break;
    case SL_DEMO_OP_APPLY_MOMENTUM:
    default:
      append_io (json, "input_0", f32, w);
      append_io (json, "input_1", f32, w);
      append_io (json, "input_2", f32, "1");
      append_io (json, "input_3", f32, w);
      append_io (json, "input_4", f32, "1");
      append_io (json, "output_0", f32, w);
      break;
    }

  g_string_append_c (json, '}');
  return g_string_free (json, FALSE);
}

/* CSV quoting: the field in quotes, inner quotes doubled. */
static void
append_csv_quoted (GString    *csv,
                   const char *text)
{
  g_string_append_c (csv, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (csv, '"');
      g_string_append_c (csv, *p);
    }
  g_string_append_c (csv, '"');
}

/* ------------------------------------------------------------------ */
/* Writers */

static double
rel_us (SlDemoProfiler *self,
        gint64          ns)
{
  return (ns - self->origin_ns) / 1000.0;
}

static void
append_metadata (GString    *json,
                 const char *what,
                 int         pid,
                 int         tid,
                 const char *name)
{
  if (tid < 0)
    g_string_append_printf (json, "{\"name\": \"%s\", \"ph\": \"M\", \"pid\": %d, \"args\": {\"name\": \"%s\"}},\n",
                            what, pid, name);
  else
    g_string_append_printf (json, "{\"name\": \"%s\", \"ph\": \"M\", \"pid\": %d, \"tid\": %d, \"args\": {\"name\": \"%s\"}},\n",
                            what, pid, tid, name);
}

static char *
timeline_json (SlDemoProfiler *self)
{
  GString *json = g_string_new ("[\n");
  char *names[N_OPS + 1] = { NULL };

  append_metadata (json, "process_name", DEVICE_PID, -1, "Ascend Op");
  append_metadata (json, "thread_name", DEVICE_PID, 0, "Stream 0");
  append_metadata (json, "thread_name", DEVICE_PID, 1, "Stream 1");
  append_metadata (json, "process_name", AICPU_PID, -1, "AI CPU");
  append_metadata (json, "thread_name", AICPU_PID, 0, "Data");
  append_metadata (json, "process_name", STEP_PID, -1, "Step Trace");
  append_metadata (json, "thread_name", STEP_PID, 0, "Steps");

  for (guint i = 0; i <= N_OPS; i++)
    if (i == OP_GET_NEXT || demo_op (i) != NULL)
      names[i] = op_full_name (i);

  for (guint i = 0; i < self->steps->len; i++)
    {
      const Step *step = &g_array_index (self->steps, Step, i);

      g_string_append_printf (json,
                              "{\"name\": \"Step %u\", \"ph\": \"X\", \"pid\": %d, \"tid\": 0, \"ts\": %.3f, \"dur\": %.3f, "
                              "\"args\": {\"iteration_interval\": %.3f, \"fp_and_bp\": %.3f, \"tail\": %.3f}},\n",
                              i + 1, STEP_PID, rel_us (self, step->start_ns), (step->end_ns - step->start_ns) / 1000.0,
                              (step->fp_ns - step->start_ns) / 1000.0, (step->bp_ns - step->fp_ns) / 1000.0,
                              (step->end_ns - step->bp_ns) / 1000.0);
    }

  for (guint i = 0; i < self->events->len; i++)
    {
      const Event *event = &g_array_index (self->events, Event, i);
      g_autofree char *short_name = op_short_name (event->op);
      gboolean data = event->op == OP_GET_NEXT;

      g_string_append_printf (json,
                              "{\"name\": \"%s\", \"ph\": \"X\", \"pid\": %d, \"tid\": %u, \"ts\": %.3f, \"dur\": %.3f, "
                              "\"args\": {\"type\": \"%s\", \"fullname\": \"%s\", \"step\": %u}}%s\n",
                              short_name, data ? AICPU_PID : DEVICE_PID, data ? 0 : op_stream (event->op),
                              rel_us (self, event->start_ns), event->dur_ns / 1000.0,
                              op_type (event->op), names[event->op], event->step,
                              i + 1 < self->events->len ? "," : "");
    }

  for (guint i = 0; i <= N_OPS; i++)
    g_clear_pointer (&names[i], g_free);

  g_string_append (json, "]\n");
  return g_string_free (json, FALSE);
}

static gint64
ticks (gint64 ns)
{
  return ns / TICK_NS;
}

static char *
step_trace_csv (SlDemoProfiler *self)
{
  GString *csv = g_string_new ("step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n");
  gint64 sums[4] = { 0 };
  gint64 point_sums[5] = { 0 };
  guint n = self->steps->len;

  for (guint i = 0; i < n; i++)
    {
      const Step *step = &g_array_index (self->steps, Step, i);
      gint64 start = ticks (step->start_ns), fp = ticks (step->fp_ns);
      gint64 bp = ticks (step->bp_ns), end = ticks (step->end_ns);

      g_string_append_printf (csv, "%u,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n", i + 1,
                              (long long)start, (long long)end, (long long)(end - start), (long long)fp,
                              (long long)bp, (long long)(fp - start), (long long)(bp - fp), (long long)(end - bp));
      sums[0] += end - start;
      sums[1] += fp - start;
      sums[2] += bp - fp;
      sums[3] += end - bp;
      /* Relative to the first start: absolute tick sums would overflow. */
      point_sums[0] += start - ticks (self->origin_ns);
      point_sums[1] += end - ticks (self->origin_ns);
      point_sums[2] += fp - ticks (self->origin_ns);
      point_sums[3] += bp - ticks (self->origin_ns);
    }

  /* MindSpore's last row: "-" and the mean of every column. */
  if (n > 0)
    g_string_append_printf (csv, "-,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n",
                            (long long)(ticks (self->origin_ns) + point_sums[0] / n),
                            (long long)(ticks (self->origin_ns) + point_sums[1] / n), (long long)(sums[0] / n),
                            (long long)(ticks (self->origin_ns) + point_sums[2] / n),
                            (long long)(ticks (self->origin_ns) + point_sums[3] / n), (long long)(sums[1] / n),
                            (long long)(sums[2] / n), (long long)(sums[3] / n));
  return g_string_free (csv, FALSE);
}

typedef struct {
  guint64 count;
  gint64  total_ns;
} Totals;

static void
op_totals (SlDemoProfiler *self,
           Totals         *totals)
{
  for (guint i = 0; i < self->events->len; i++)
    {
      const Event *event = &g_array_index (self->events, Event, i);

      totals[event->op].count++;
      totals[event->op].total_ns += event->dur_ns;
    }
}

static char *
aicore_type_csv (SlDemoProfiler *self,
                 const Totals   *totals)
{
  GString *csv = g_string_new ("kernel_type,total_time,execution_frequency,percent\n");
  gint64 all_ns = 0;

  for (guint op = 0; op < N_OPS; op++)
    all_ns += totals[op].total_ns;

  for (guint kind = 0; kind < N_KINDS; kind++)
    {
      gboolean seen = FALSE;
      gint64 total_ns = 0;
      guint64 count = 0;

      for (guint k = 0; k < kind; k++)
        seen |= g_str_equal (kind_types[k], kind_types[kind]);
      if (seen)
        continue;

      for (guint op = 0; op < N_OPS; op++)
        {
          if (g_str_equal (op_type (op), kind_types[kind]))
            {
              total_ns += totals[op].total_ns;
              count += totals[op].count;
            }
        }
      if (count == 0)
        continue;
      g_string_append_printf (csv, "%s,%.6f,%llu,%.2f\n", kind_types[kind], total_ns / 1e6,
                              (unsigned long long)count, all_ns > 0 ? 100.0 * total_ns / all_ns : 0.0);
    }
  return g_string_free (csv, FALSE);
}

static char *
aicore_detail_csv (const Totals *totals)
{
  GString *csv = g_string_new ("full_kernel_name,execution_time,execution_frequency\n");

  for (guint op = 0; op < N_OPS; op++)
    {
      g_autofree char *name = NULL;

      if (totals[op].count == 0 || demo_op (op) == NULL)
        continue;
      name = op_full_name (op);
      /* The average per execution, in ms. */
      g_string_append_printf (csv, "%s,%.6f,%llu\n", name, totals[op].total_ns / 1e6 / totals[op].count,
                              (unsigned long long)totals[op].count);
    }
  return g_string_free (csv, FALSE);
}

static char *
framework_csv (SlDemoProfiler *self)
{
  GString *csv = g_string_new ("task_id,stream_id,block_dim,full_kernel_name,op_name,kernel_name,kernel_type,subgraph,op_info\n");

  for (guint op = 0; op < N_OPS; op++)
    {
      g_autofree char *name = NULL;
      g_autofree char *short_name = NULL;
      g_autofree char *info = NULL;

      if (demo_op (op) == NULL)
        continue;
      name = op_full_name (op);
      short_name = op_short_name (op);
      info = op_info (self, op);
      g_string_append_printf (csv, "%u,%u,1,%s,%s,%s,%s,Default,", demo_op (op)->id, op_stream (op), name, name,
                              short_name, op_type (op));
      append_csv_quoted (csv, info);
      g_string_append_c (csv, '\n');
    }
  return g_string_free (csv, FALSE);
}

static char *
timeline_summary_json (SlDemoProfiler *self,
                       const Totals   *totals)
{
  gint64 total_ns = 0;
  guint n_ops = 0;

  for (guint op = 0; op < N_OPS; op++)
    {
      total_ns += totals[op].total_ns;
      n_ops += totals[op].count > 0;
    }
  return g_strdup_printf ("{\"total_time\": %.3f, \"num_of_streams\": 2, \"num_of_ops\": %u, \"op_exe_times\": %u}\n",
                          total_ns / 1000.0, n_ops, self->events->len);
}

static gboolean
write_file (const char  *dir,
            const char  *name,
            char        *contents,   /* taken */
            GError     **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *owned = contents;

  return g_file_set_contents (path, owned, -1, error);
}

gboolean
sl_demo_profiler_write (SlDemoProfiler  *self,
                        const char      *dir,
                        GError         **error)
{
  Totals totals[N_OPS + 1] = { { 0, 0 } };
  g_autofree char *info = NULL;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), _("Cannot create the profiler folder %s: %s"),
                   dir, g_strerror (errsv));
      return FALSE;
    }

  op_totals (self, totals);
  info = g_strdup_printf ("{\"context_mode\": \"GRAPH_MODE\", \"rank_id\": 0, \"rank_size\": 1, "
                          "\"parallel_mode\": \"stand_alone\", \"stage_num\": 1, \"graph_ids\": [1], "
                          "\"ms_version\": \"sightline-demo-%s\", \"diff_time\": 0, \"batch_size\": %u, "
                          "\"steps\": %u}\n", PACKAGE_VERSION, self->batch, self->steps->len);

  return write_file (dir, "ascend_timeline_display_0.json", timeline_json (self), error) &&
         write_file (dir, "ascend_timeline_summary_0.json", timeline_summary_json (self, totals), error) &&
         write_file (dir, "step_trace_raw_0_detail_time.csv", step_trace_csv (self), error) &&
         write_file (dir, "aicore_intermediate_0_type.csv", aicore_type_csv (self, totals), error) &&
         write_file (dir, "aicore_intermediate_0_detail.csv", aicore_detail_csv (totals), error) &&
         write_file (dir, "framework_raw_0.csv", framework_csv (self), error) &&
         write_file (dir, "profiler_info_0.json", g_steal_pointer (&info), error);
}
