/* sl-demo-workspace.c
 *
 * The demo workspace is a small folder written on demand: a MindSpore-style
 * profiler folder and a MindX pipeline, with an empty train/summary folder
 * that the demo training job (sightline-demo-train) fills with a genuine
 * run. The numbers come from a seeded generator, so every start writes the
 * same bytes. The job also profiles itself (--profile) into train/profiler,
 * replacing these generated profiler files with measured ones.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <glib/gstdio.h>

#include "sl-demo-workspace.h"

#define DEMO_VERSION "2"

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
  g_autofree char *legacy = NULL;

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

  /* Version 1 wrote a made-up summary file; the demo job replaces it. */
  legacy = g_build_filename (summary_dir, "events.out.events.summary.1764460800.demo_MS", NULL);
  g_remove (legacy);

  return write_text (profiler_dir, "ascend_timeline_display_0.json", timeline, error) &&
         write_text (profiler_dir, "step_trace_raw_0_detail_time.csv", step_trace, error) &&
         write_text (profiler_dir, "aicore_intermediate_0_type.csv", op_types, error) &&
         write_text (profiler_dir, "aicore_intermediate_0_detail.csv", op_details, error) &&
         write_text (pipelines_dir, "detection.pipeline", demo_pipeline, error) &&
         write_text (path, ".sightline-demo", DEMO_VERSION, error);
}
