/* trace-fixture.h: deterministic generated traces for the timeline tests
 * and the frame benchmark
 *
 * Threads of nested slices (up to five deep, durations spread over four
 * orders of magnitude, so a full view holds thousands of slices per pixel)
 * in two processes, a counter per process and flows between threads
 * (200, or as many more as asked for, each from a top-level slice to the
 * next slice on the next thread). Times are epoch nanoseconds as
 * torch_npu writes them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-trace.h"

#define FIXTURE_T0 G_GINT64_CONSTANT (1700000000000000000)

static const char *fixture_names[] = {
  "MatMul", "Conv2D", "BatchNorm", "ReLU", "Softmax", "LayerNorm", "Add", "Mul", "Transpose",
  "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "HcclAllReduce", "Cast",
  "GatherV2", "ReduceSum", "DropOutDoMask", "AdamApplyOneWithDecay", "Memcpy", "Notify_Wait",
  "aten::linear", "aten::addmm", "Optimizer.step#AdamW.step", "ProfilerStep#12", "forward", "backward",
};

typedef struct {
  SlTraceBuilder *builder;
  GRand          *rand;
  guint32         names[G_N_ELEMENTS (fixture_names)];
  guint32         category;
  guint64         budget;
} FixtureGen;

typedef struct {
  guint  thread;
  gint64 at;       /* the middle of a top-level slice */
} FixtureFlowStart;

static void
fixture_children (FixtureGen *gen,
                  guint       track,
                  gint64      start,
                  gint64      dur,
                  guint       depth)
{
  guint n;
  gint64 t, end;

  if (depth >= 5 || dur < 400 || gen->budget == 0)
    return;

  n = g_rand_int_range (gen->rand, 0, 5);
  t = start + dur / 16;
  end = start + dur - dur / 16;
  for (guint i = 0; i < n && gen->budget > 0; i++)
    {
      gint64 room = end - t;
      gint64 d = room / (n - i) * g_rand_int_range (gen->rand, 300, 1000) / 1000;
      guint32 name = gen->names[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (fixture_names))];

      if (d < 50)
        break;
      sl_trace_builder_add_slice (gen->builder, track, t, d, name, gen->category, 0, SL_TRACE_NO_ARGS, 0);
      gen->budget--;
      fixture_children (gen, track, t, d, depth + 1);
      t += d + room / (n - i) / 20;
    }
}

/* About @n_events slices (plus counter points and 200 + @n_more_flows
 * flows) on @n_threads threads. Returns the finished trace. */
static SlTrace *
fixture_build_trace_with_flows (guint64 n_events,
                                guint   n_threads,
                                guint32 seed,
                                guint   n_more_flows)
{
  FixtureGen gen = { 0 };
  guint64 per_thread = n_events / n_threads;
  guint processes[2];
  guint counters[2];
  guint *threads = g_new (guint, n_threads);
  SlTrace *trace;
  gint64 last = FIXTURE_T0 + 1000000;
  GArray *flow_starts = g_array_new (FALSE, FALSE, sizeof (FixtureFlowStart));

  gen.builder = sl_trace_builder_new ("generated.json");
  gen.rand = g_rand_new_with_seed (seed);
  for (guint i = 0; i < G_N_ELEMENTS (fixture_names); i++)
    gen.names[i] = sl_trace_builder_intern (gen.builder, fixture_names[i], -1);
  gen.category = sl_trace_builder_intern (gen.builder, "op", -1);

  for (guint p = 0; p < 2; p++)
    {
      g_autofree char *pid = g_strdup_printf ("%u", 1000 + p);
      g_autofree char *name = g_strdup_printf ("Rank %u", p);

      processes[p] = sl_trace_builder_get_process (gen.builder, pid);
      sl_trace_builder_set_process_name (gen.builder, processes[p], name);
      sl_trace_builder_set_process_sort_index (gen.builder, processes[p], p);
      counters[p] = sl_trace_builder_get_counter_track (gen.builder, processes[p],
                                                        sl_trace_builder_intern (gen.builder, "HBM used", -1),
                                                        sl_trace_builder_intern (gen.builder, "bytes", -1));
    }

  for (guint th = 0; th < n_threads; th++)
    {
      g_autofree char *tid = g_strdup_printf ("%u", 2000 + th);
      g_autofree char *name = g_strdup_printf (th % 4 == 0 ? "Python thread %u" : "Stream %u", th);
      gint64 t = FIXTURE_T0 + g_rand_int_range (gen.rand, 0, 5000);

      threads[th] = sl_trace_builder_get_thread_track (gen.builder, processes[th % 2], tid);
      sl_trace_builder_set_track_name (gen.builder, threads[th], name);
      sl_trace_builder_set_track_sort_index (gen.builder, threads[th], th);

      gen.budget = per_thread;
      while (gen.budget > 0)
        {
          /* Mostly short tops, now and then a long step with deep nesting. */
          gint64 d = g_rand_int_range (gen.rand, 0, 100) < 3 ? g_rand_int_range (gen.rand, 200000, 3000000)
                                                             : g_rand_int_range (gen.rand, 300, 40000);
          guint32 name_id = gen.names[g_rand_int_range (gen.rand, 0, G_N_ELEMENTS (fixture_names))];

          sl_trace_builder_add_slice (gen.builder, threads[th], t, d, name_id, gen.category, 0, SL_TRACE_NO_ARGS, 0);
          gen.budget--;
          if (n_more_flows > 0)
            g_array_append_val (flow_starts, ((FixtureFlowStart) { th, t + d / 2 }));
          fixture_children (&gen, threads[th], t, d, 1);
          t += d + g_rand_int_range (gen.rand, 100, 20000);
        }
      last = MAX (last, t);
    }

  for (guint p = 0; p < 2; p++)
    {
      double v = 1e9;

      for (guint i = 0; i < 20000; i++)
        {
          v = MAX (0, v + g_rand_double_range (gen.rand, -4e7, 4.1e7));
          sl_trace_builder_add_counter (gen.builder, counters[p], FIXTURE_T0 + (last - FIXTURE_T0) / 20000 * i, v);
        }
    }

  for (guint i = 0; i < 200; i++)
    {
      gint64 at = FIXTURE_T0 + (last - FIXTURE_T0) / 201 * i + 1000;
      guint32 name = sl_trace_builder_intern (gen.builder, "launch", -1);

      sl_trace_builder_add_flow_point (gen.builder, 's', i + 1, name, gen.category, threads[0], at, TRUE);
      sl_trace_builder_add_flow_point (gen.builder, 'f', i + 1, name, gen.category, threads[1 % n_threads],
                                       at + (last - FIXTURE_T0) / 2000, TRUE);
    }

  /* Spread over the top-level slices (of every thread, all through the
   * trace); ids after those above. */
  for (guint i = 0; i < n_more_flows && flow_starts->len > 0; i++)
    {
      const FixtureFlowStart *from =
        &g_array_index (flow_starts, FixtureFlowStart, (guint)((guint64)i * flow_starts->len / n_more_flows));
      guint32 name = sl_trace_builder_intern (gen.builder, "record", -1);

      sl_trace_builder_add_flow_point (gen.builder, 's', 1000 + i, name, gen.category, threads[from->thread],
                                       from->at, TRUE);
      sl_trace_builder_add_flow_point (gen.builder, 'f', 1000 + i, name, gen.category,
                                       threads[(from->thread + 1) % n_threads], from->at + 2000, FALSE);
    }

  trace = sl_trace_builder_finish (gen.builder, NULL);
  g_array_unref (flow_starts);
  g_rand_free (gen.rand);
  g_free (threads);
  return trace;
}

static SlTrace *
fixture_build_trace (guint64 n_events,
                     guint   n_threads,
                     guint32 seed)
{
  return fixture_build_trace_with_flows (n_events, n_threads, seed, 0);
}
