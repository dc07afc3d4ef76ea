/* sl-demo-workspace.c
 *
 * The demo workspace is a small folder written on demand: a MindSpore
 * summary run (through the same record framing the readers check), a
 * MindSpore-style profiler folder, a Chrome trace and a MindX pipeline,
 * so a first start shows every kind of finding. The numbers come from a
 * seeded generator, so every start writes the same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "sl-demo-workspace.h"
#include "sl-record-writer.h"

#define DEMO_VERSION "1"
#define DEMO_STEPS 400
#define DEMO_WALL_TIME 1764460800.0 /* 2025-11-30 00:00:00 UTC */

/* A minimal protobuf encoder: enough for the summary Event messages. */
static void
put_varint (GByteArray *out,
            guint64     value)
{
  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value != 0)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
  while (value != 0);
}

static void
put_tag (GByteArray *out,
         guint       field,
         guint       wire_type)
{
  put_varint (out, ((guint64)field << 3) | wire_type);
}

static void
put_double (GByteArray *out,
            guint       field,
            double      value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  bits = GUINT64_TO_LE (bits);
  put_tag (out, field, 1);
  g_byte_array_append (out, (const guint8 *)&bits, sizeof bits);
}

static void
put_float (GByteArray *out,
           guint       field,
           float       value)
{
  guint32 bits;

  memcpy (&bits, &value, sizeof bits);
  bits = GUINT32_TO_LE (bits);
  put_tag (out, field, 5);
  g_byte_array_append (out, (const guint8 *)&bits, sizeof bits);
}

static void
put_bytes (GByteArray   *out,
           guint         field,
           const guint8 *data,
           gsize         len)
{
  put_tag (out, field, 2);
  put_varint (out, len);
  g_byte_array_append (out, data, len);
}

static void
put_string (GByteArray *out,
            guint       field,
            const char *value)
{
  put_bytes (out, field, (const guint8 *)value, strlen (value));
}

static GByteArray *
scalar_event (double      wall_time,
              gint64      step,
              const char *tags[],
              const float values[],
              guint       n_values)
{
  g_autoptr(GByteArray) summary = g_byte_array_new ();
  GByteArray *event = g_byte_array_new ();

  for (guint i = 0; i < n_values; i++)
    {
      g_autoptr(GByteArray) value = g_byte_array_new ();

      put_string (value, 1, tags[i]);
      put_float (value, 3, values[i]);
      put_bytes (summary, 1, value->data, value->len);
    }

  put_double (event, 1, wall_time);
  put_tag (event, 2, 0);
  put_varint (event, (guint64)step);
  put_bytes (event, 5, summary->data, summary->len);

  return event;
}

static gboolean
write_summary (const char  *dir,
               GError     **error)
{
  static const char *tags[] = { "loss", "accuracy", "learning_rate" };
  g_autofree char *path = g_build_filename (dir, "events.out.events.summary.1764460800.demo_MS", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(SlRecordWriter) writer = NULL;
  g_autoptr(GByteArray) version = g_byte_array_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  if (stream == NULL)
    return FALSE;

  writer = sl_record_writer_new (G_OUTPUT_STREAM (stream));

  put_double (version, 1, DEMO_WALL_TIME);
  put_string (version, 3, "MindSpore.Event:1");
  if (!sl_record_writer_write (writer, version->data, version->len, NULL, error))
    return FALSE;

  for (guint step = 1; step <= DEMO_STEPS; step++)
    {
      g_autoptr(GByteArray) event = NULL;
      double progress = step / (double)DEMO_STEPS;
      float values[3];

      values[0] = 2.3 * exp (-4.0 * progress) + 0.08 + 0.05 * g_rand_double_range (rand, -1, 1);
      values[1] = 0.98 - 0.88 * exp (-5.0 * progress) + 0.01 * g_rand_double_range (rand, -1, 1);
      values[2] = 0.01 * 0.5 * (1.0 + cos (G_PI * progress));

      event = scalar_event (DEMO_WALL_TIME + step * 0.25, step, tags, values, G_N_ELEMENTS (values));
      if (!sl_record_writer_write (writer, event->data, event->len, NULL, error))
        return FALSE;
    }

  return g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, error);
}

static gboolean
write_text (const char  *dir,
            const char  *name,
            const char  *contents,
            GError     **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_file_set_contents (path, contents, -1, error);
}

typedef struct {
  const char *name;
  const char *type;
  double      duration_us;
} DemoOp;

static const DemoOp demo_ops[] = {
  { "Default/network-WithLossCell/_backbone-MLP/dense1-Dense/MatMul-op1", "MatMul", 182.4 },
  { "Default/network-WithLossCell/_backbone-MLP/dense1-Dense/BiasAdd-op2", "BiasAdd", 21.7 },
  { "Default/network-WithLossCell/_backbone-MLP/relu-ReLU/ReLU-op3", "ReLU", 12.9 },
  { "Default/network-WithLossCell/_backbone-MLP/dense2-Dense/MatMul-op4", "MatMul", 95.1 },
  { "Default/network-WithLossCell/_loss_fn-SoftmaxCrossEntropyWithLogits/SoftmaxCrossEntropyWithLogits-op5", "SoftmaxCrossEntropyWithLogits", 44.3 },
  { "Gradients/Default/network-WithLossCell/_backbone-MLP/dense2-Dense/gradMatMul/MatMul-op6", "MatMul", 101.8 },
  { "Gradients/Default/network-WithLossCell/_backbone-MLP/dense1-Dense/gradMatMul/MatMul-op7", "MatMul", 176.2 },
  { "Default/optimizer-Momentum/ApplyMomentum-op8", "ApplyMomentum", 33.5 },
};

#define DEMO_PROFILE_STEPS 20

static char *
demo_timeline (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  GString *json = g_string_new ("[\n");
  double ts = 1000.0;

  g_string_append (json, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": \"Ascend Op\"}},\n");
  g_string_append (json, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 0, \"args\": {\"name\": \"Stream 0\"}}");

  for (guint step = 0; step < DEMO_PROFILE_STEPS; step++)
    {
      ts += 40.0 + g_rand_double_range (rand, 0, 20); /* waiting for data */
      for (guint i = 0; i < G_N_ELEMENTS (demo_ops); i++)
        {
          double dur = demo_ops[i].duration_us * g_rand_double_range (rand, 0.9, 1.1);

          g_string_append_printf (json,
                                  ",\n{\"name\": \"%s\", \"ph\": \"X\", \"pid\": 0, \"tid\": 0, \"ts\": %.3f, \"dur\": %.3f, "
                                  "\"args\": {\"type\": \"%s\"}}",
                                  strrchr (demo_ops[i].name, '/') + 1, ts, dur, demo_ops[i].type);
          ts += dur + 2.0;
        }
    }

  g_string_append (json, "\n]\n");
  return g_string_free (json, FALSE);
}

static char *
demo_step_trace (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  GString *csv = g_string_new ("step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n");
  guint64 start = 168000000000ULL;
  guint64 sums[4] = { 0 };

  for (guint step = 1; step <= DEMO_PROFILE_STEPS; step++)
    {
      guint64 interval = step == 1 ? 0 : (guint64)g_rand_int_range (rand, 4000, 6000);
      guint64 fp_bp = (guint64)g_rand_int_range (rand, 65000, 70000);
      guint64 tail = (guint64)g_rand_int_range (rand, 3000, 4000);
      guint64 fp = start + interval;
      guint64 bp = fp + fp_bp;
      guint64 end = bp + tail;

      g_string_append_printf (csv, "%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                              ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n",
                              step, start, end, end - start, fp, bp, interval, fp_bp, tail);
      sums[0] += end - start;
      sums[1] += interval;
      sums[2] += fp_bp;
      sums[3] += tail;
      start = end;
    }

  g_string_append_printf (csv, "-,-,-,%.1f,-,-,%.1f,%.1f,%.1f\n",
                          sums[0] / (double)DEMO_PROFILE_STEPS, sums[1] / (double)DEMO_PROFILE_STEPS,
                          sums[2] / (double)DEMO_PROFILE_STEPS, sums[3] / (double)DEMO_PROFILE_STEPS);
  return g_string_free (csv, FALSE);
}

static gboolean
type_seen_before (guint index)
{
  for (guint j = 0; j < index; j++)
    {
      if (g_str_equal (demo_ops[j].type, demo_ops[index].type))
        return TRUE;
    }
  return FALSE;
}

static char *
demo_op_types (void)
{
  GString *csv = g_string_new ("kernel_type,total_time,execution_frequency,percent\n");
  double all_ms = 0;

  for (guint i = 0; i < G_N_ELEMENTS (demo_ops); i++)
    all_ms += demo_ops[i].duration_us * DEMO_PROFILE_STEPS / 1000.0;

  for (guint i = 0; i < G_N_ELEMENTS (demo_ops); i++)
    {
      double total_ms = 0;
      guint count = 0;

      if (type_seen_before (i))
        continue;

      for (guint j = i; j < G_N_ELEMENTS (demo_ops); j++)
        {
          if (g_str_equal (demo_ops[j].type, demo_ops[i].type))
            {
              total_ms += demo_ops[j].duration_us * DEMO_PROFILE_STEPS / 1000.0;
              count += DEMO_PROFILE_STEPS;
            }
        }

      g_string_append_printf (csv, "%s,%.3f,%u,%.2f\n", demo_ops[i].type, total_ms, count, 100.0 * total_ms / all_ms);
    }

  return g_string_free (csv, FALSE);
}

static char *
demo_op_details (void)
{
  GString *csv = g_string_new ("full_kernel_name,execution_time,execution_frequency\n");

  for (guint i = 0; i < G_N_ELEMENTS (demo_ops); i++)
    g_string_append_printf (csv, "%s,%.3f,%u\n", demo_ops[i].name, demo_ops[i].duration_us / 1000.0, DEMO_PROFILE_STEPS);

  return g_string_free (csv, FALSE);
}

static const char demo_pipeline[] =
  "{\n"
  "  \"detection\": {\n"
  "    \"stream_config\": { \"deviceId\": \"0\" },\n"
  "    \"appsrc0\": { \"factory\": \"appsrc\", \"props\": { \"blocksize\": \"409600\" }, \"next\": \"mxpi_imagedecoder0\" },\n"
  "    \"mxpi_imagedecoder0\": { \"factory\": \"mxpi_imagedecoder\", \"next\": \"mxpi_imageresize0\" },\n"
  "    \"mxpi_imageresize0\": { \"factory\": \"mxpi_imageresize\", \"props\": { \"resizeHeight\": \"416\", \"resizeWidth\": \"416\" }, \"next\": \"mxpi_tensorinfer0\" },\n"
  "    \"mxpi_tensorinfer0\": { \"factory\": \"mxpi_tensorinfer\", \"props\": { \"modelPath\": \"models/yolov3.om\" }, \"next\": \"mxpi_objectpostprocessor0\" },\n"
  "    \"mxpi_objectpostprocessor0\": { \"factory\": \"mxpi_objectpostprocessor\", \"next\": \"appsink0\" },\n"
  "    \"appsink0\": { \"factory\": \"appsink\" }\n"
  "  }\n"
  "}\n";

static gboolean
make_dirs (const char  *root,
           GError     **error)
{
  static const char *dirs[] = { "train/summary", "train/profiler", "pipelines" };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_build_filename (root, dirs[i], NULL);

      if (g_mkdir_with_parents (path, 0755) != 0)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "%s: %s", path, g_strerror (errsv));
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
is_current (const char *root)
{
  g_autofree char *stamp = g_build_filename (root, ".sightline-demo", NULL);
  g_autofree char *contents = NULL;

  return g_file_get_contents (stamp, &contents, NULL, NULL) && g_str_equal (contents, DEMO_VERSION);
}

/**
 * sl_demo_workspace_ensure:
 * @path: the folder to write; created when missing
 *
 * Writes the demo files unless @path already holds this version of them.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_demo_workspace_ensure (const char  *path,
                          GError     **error)
{
  g_autofree char *summary_dir = NULL;
  g_autofree char *profiler_dir = NULL;
  g_autofree char *pipelines_dir = NULL;
  g_autofree char *timeline = NULL;
  g_autofree char *step_trace = NULL;
  g_autofree char *op_types = NULL;
  g_autofree char *op_details = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  if (is_current (path))
    return TRUE;

  if (!make_dirs (path, error))
    return FALSE;

  summary_dir = g_build_filename (path, "train", "summary", NULL);
  profiler_dir = g_build_filename (path, "train", "profiler", NULL);
  pipelines_dir = g_build_filename (path, "pipelines", NULL);
  timeline = demo_timeline ();
  step_trace = demo_step_trace ();
  op_types = demo_op_types ();
  op_details = demo_op_details ();

  return write_summary (summary_dir, error) &&
         write_text (profiler_dir, "ascend_timeline_display_0.json", timeline, error) &&
         write_text (profiler_dir, "step_trace_raw_0_detail_time.csv", step_trace, error) &&
         write_text (profiler_dir, "aicore_intermediate_0_type.csv", op_types, error) &&
         write_text (profiler_dir, "aicore_intermediate_0_detail.csv", op_details, error) &&
         write_text (pipelines_dir, "detection.pipeline", demo_pipeline, error) &&
         write_text (path, ".sightline-demo", DEMO_VERSION, error);
}
