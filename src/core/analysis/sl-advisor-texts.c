/* sl-advisor-texts.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-advisor-texts.h"

/* A message and its plural, picked by the finding's {count}. */
#define NP_(singular, plural) singular, plural

#define PIPE_METRICS_HINT N_("Collect the pipe utilisation metrics: msprof --aic-metrics=PipeUtilization; torch_npu _ExperimentalConfig(aic_metrics=AiCMetrics.PipeUtilization); MindSpore Profiler(aic_metrics=AicoreMetrics.PipeUtilization).")
#define CANN_API_HINT N_("Collect the CANN API events on the timeline: the Ascend PyTorch profiler at ProfilerLevel.Level1 (or above) with ProfilerActivity.CPU and ProfilerActivity.NPU writes them to trace_view.json; msprof --ascendcl=on to msprof_*.json. with_stack and record_shapes add no such events.")
#define FRAMEWORK_HINT N_("Collect the framework's ops on the timeline: the Ascend PyTorch profiler with ProfilerActivity.CPU writes them to trace_view.json (Level0 is enough); MindSpore's profiler writes its own to its timeline. with_stack and record_shapes only add details to those events.")
#define COMMUNICATION_HINT N_("Communication data needs a run on several devices profiled at Level1 or above: torch_npu _ExperimentalConfig(profiler_level=ProfilerLevel.Level1) writes communication.json and communication_matrix.json; MindSpore Profiler(profiler_level=ProfilerLevel.Level1) or, in older versions, profile_communication=True writes them or hccl_raw_*.csv; msprof-analyze cluster adds cluster_communication*.json.")
#define OP_SUMMARY_HINT N_("Collect the device's task data: msprof --task-time=on (op_summary_*.csv), or the Ascend PyTorch profiler with ProfilerActivity.NPU (kernel_details.csv).")

static const SlAdvisorTexts texts[] = {
  {
    "aicpu-ops",
    N_("AI CPU ops"),
    NP_("{count} op ran on the AI CPU for longer than {threshold} µs; it takes {time} per step ({percent} of the step): {top}.",
        "{count} ops ran on the AI CPU for longer than {threshold} µs each; together they take {time} per step ({percent} of the step). The longest is {top}."),
    N_("Avoid these ops or replace them with AI Core ones (index, nonzero and similar ops often have AI Core variants); check that their input data types are supported on the AI Core."),
    N_("Assumes an AI Core implementation removes {fraction} of these ops' time."),
    OP_SUMMARY_HINT,
  },
  {
    "aicpu-double",
    N_("AI CPU ops with DOUBLE inputs"),
    NP_("{count} AI CPU op takes DOUBLE (float64) inputs, {time} per step ({percent} of the step). The AI Core has no float64 units, so it cannot move there: {top}.",
        "{count} AI CPU ops take DOUBLE (float64) inputs, {time} per step ({percent} of the step). The AI Core has no float64 units, so these ops cannot move there. The longest is {top}."),
    N_("Cast the inputs to float32 (or float16) before these ops, or keep the tensors float32 from the start."),
    N_("Assumes float32 inputs let {fraction} of these ops' time move to the AI Core."),
    OP_SUMMARY_HINT,
  },
  {
    "cast-transdata",
    N_("Cast and TransData ops"),
    NP_("Cast and TransData ops take {time} per step, {share} of the op time ({percent} of the step), in {count} execution.",
        "Cast and TransData ops take {time} per step, {share} of the op time ({percent} of the step), in {count} executions."),
    N_("Remove redundant casts (mixed precision lists, inputs already in the right type) and format changes (keep tensors in the device's private format between ops)."),
    N_("Assumes half of these conversions are redundant and can be removed ({fraction} of their time)."),
    OP_SUMMARY_HINT,
  },
  {
    "block-dim",
    N_("Block dim not a multiple of the core count"),
    NP_("{count} op longer than {threshold} µs uses a block dim that is not a multiple of the {cores} cores, so its last wave leaves cores idle; it takes {time} per step ({percent} of the step): {top}.",
        "{count} ops longer than {threshold} µs use a block dim that is not a multiple of the {cores} cores, so their last wave leaves cores idle; they take {time} per step ({percent} of the step). The largest loss is in {top}."),
    N_("Tune the tiling so the block dim is a multiple of the core count, e.g. with AOE (Ascend Optimization Engine) operator tuning."),
    N_("Assumes the work splits evenly over blocks, so a retiled op needs block dim ÷ cores waves instead of rounding up."),
    N_("Collect the device info (info.json of msprof, NPU_INFO of the database export) or set ai_core_count and vector_core_count for this rule in the advisor settings file."),
  },
  {
    "no-bound",
    N_("Ops bound by no unit"),
    NP_("{count} op longer than {threshold} µs keeps no pipe busier than {ratio} of its cycles: it is latency bound. It takes {time} per step ({percent} of the step): {top}.",
        "{count} ops longer than {threshold} µs keep no pipe busier than {ratio} of their cycles: they are latency bound. They take {time} per step ({percent} of the step). The largest is {top}."),
    N_("Improve the tiling (bigger tiles, double buffering) or fuse these small ops with their neighbours so each pipe has enough work."),
    N_("Assumes a better tiling brings the busiest pipe to {ratio} of the cycles, shrinking each op in proportion."),
    PIPE_METRICS_HINT,
  },
  {
    "unit-bound",
    N_("Ops bound by one unit"),
    NP_("{count} op keeps the {unit} pipe busy for at least {ratio} of its cycles; it takes {time} per step ({percent} of the step): {top}.",
        "{count} ops keep the {unit} pipe busy for at least {ratio} of their cycles; they take {time} per step ({percent} of the step). The largest is {top}."),
    N_("The {unit} pipe is the bottleneck of these ops: for MTE2 move less data (fuse ops to keep data on chip, avoid format changes); for cube or vector use a cheaper algorithm or lower precision."),
    N_("No saving is estimated: a saturated unit only gets faster with less work."),
    PIPE_METRICS_HINT,
  },
  {
    "vector-throughput",
    N_("Vector ops moving data slowly"),
    NP_("{count} vector op longer than {threshold} µs moves its inputs and outputs at less than {yellow} GB/s ({slow} under {red} GB/s); it takes {time} per step ({percent} of the step): {top}.",
        "{count} vector ops longer than {threshold} µs move their inputs and outputs at less than {yellow} GB/s ({slow} of them under {red} GB/s); they take {time} per step ({percent} of the step). The slowest is {top}."),
    N_("Fuse these ops with their neighbours so the data stays on chip, or give them a friendlier format (an aligned last dimension, fewer TransData around them)."),
    N_("Assumes these ops could move their data at {yellow} GB/s."),
    OP_SUMMARY_HINT,
  },
  {
    "aicore-vs-task",
    N_("AI Core time well below the task time"),
    NP_("{count} op keeps the cores busy for less than {ratio} of its task's duration; the idle part is {time} per step ({percent} of the step): {top}.",
        "{count} ops keep the cores busy for less than {ratio} of their task's duration; the idle part is {time} per step ({percent} of the step). The largest is {top}."),
    N_("The tasks wait while the cores are idle: look for MTE2 and memory stalls, synchronisation with other streams, or the host not feeding the device."),
    N_("Assumes the time the cores sit idle inside these tasks can be hidden."),
    N_("Collect the AI Core time: msprof --aic-metrics (any metric set adds aicore_time), or the Ascend PyTorch profiler with aic_metrics set."),
  },
  {
    "data-wait",
    N_("Waiting for data"),
    N_("Steps wait {time} for data on average ({percent} of the step), more than {threshold} ms; the longest wait is in step {top}."), NULL,
    N_("Feed the device faster: prefetch, more data loader workers, pinned memory, a dataset sink mode, or move preprocessing to the device."),
    N_("Assumes prefetching hides the whole wait."),
    N_("Collect the step trace: MindSpore's profiler (step_trace_raw_*_detail_time.csv) or msprof with --training-trace=on (step_trace_*.csv)."),
  },
  {
    "free-time",
    N_("Device idle within the step"),
    N_("The device is free (neither computing nor communicating) for {time} per step, {percent} of the step, more than {threshold}; the most in step {top}."), NULL,
    N_("The host is the bottleneck: reduce Python overhead and op launches (graph mode, fused ops, larger batches), and check for synchronisations that stall the launch queue."),
    N_("Assumes the idle time can be filled by launching ahead."),
    N_("Collect the step breakdown: the Ascend PyTorch or MindSpore profiler writes step_trace_time.csv with a Free column."),
  },
  {
    "dynamic-shape",
    N_("Dynamic shapes and op compilation"),
    N_("{detail}"), NULL,
    N_("Use static shapes where possible and turn off just-in-time compilation: torch_npu.npu.set_compile_mode(jit_compile=False)."),
    N_("No saving is estimated: compile time is host time that the profile does not split out."),
    N_("Collect the API statistics (msprof --ascendcl=on, or the Ascend PyTorch profiler at Level1) or op summaries with the OP State column."),
  },
  {
    "environment",
    N_("Environment variable"),
    N_("{name} is set to “{value}”: {effect}"), NULL,
    N_("{advice}"),
    N_("No saving is estimated for a setting."),
    N_("The Ascend PyTorch and MindSpore profilers write profiler_metadata.json with the environment; older profilers do not."),
  },
  {
    "memory-ops",
    N_("Memory allocation and free calls"),
    NP_("Allocating and freeing device memory takes {time} in {count} call ({percent} of the step), more than {threshold} ms: {top}.",
        "Allocating and freeing device memory takes {time} in {count} calls ({percent} of the step), more than {threshold} ms; the largest is {top}."),
    N_("Let the caching allocator reuse memory instead of returning it: PYTORCH_NPU_ALLOC_CONF=expandable_segments:True, and avoid emptying the cache inside the training loop."),
    N_("Assumes a caching allocator avoids {fraction} of these calls' time."),
    N_("Collect the API statistics or the CANN API events: msprof --ascendcl=on, or the Ascend PyTorch profiler at Level1 (api_statistic.csv and trace_view.json)."),
  },
  {
    "task-wait",
    N_("Ops that wait long before they start"),
    NP_("{count} op waits longer before it starts than the others, more than {threshold} per execution while the median op waits {median}; its waits add up to {time} per step ({percent} of the step): {top}.",
        "{count} ops wait longer before they start than the others, more than {threshold} per execution while the median op waits {median}; their waits add up to {time} per step ({percent} of the step). The longest wait is before {top}."),
    N_("A task waits when its stream has nothing to run: check how fast the host launches these ops (Python overhead, synchronisations, compilation) and what they depend on (events from other streams, communication)."),
    N_("Assumes each of these ops could wait as little as the median op."),
    OP_SUMMARY_HINT,
  },
  {
    "gc",
    N_("Python garbage collection"),
    NP_("{count} garbage collection of {threshold} ms or more stopped the Python process for {time} per step ({percent} of the step); it took {longest}.",
        "{count} garbage collections of {threshold} ms or more stopped the Python process for {time} per step ({percent} of the step); the longest took {longest}."),
    N_("Call gc.freeze() once the model, optimizer and data loader are built, so the objects that live for the whole run are not scanned again, and raise the thresholds with gc.set_threshold() (or collect by hand between steps with gc.collect())."),
    N_("Assumes freezing and higher thresholds avoid {fraction} of the collection time."),
    N_("Turn on GC detection in the Ascend PyTorch profiler: torch_npu.profiler._ExperimentalConfig(gc_detect_threshold=1) records every Python garbage collection of 1 ms or more in trace_view.json (with_stack and record_shapes do not)."),
  },
  {
    "conjectured-gc",
    N_("Pauses that may be garbage collection (conjectured)"),
    NP_("The device sat idle once for longer than {threshold} ms while the host made almost no CANN API calls (under {api_percent} of the gap busy and {api_rate} calls per ms); that is {time} per step ({percent} of the step), a gap of {longest}. This is a conjecture: the timeline has no GC events, and a host stalled for another reason looks the same.",
        "The device sat idle {count} times for longer than {threshold} ms while the host made almost no CANN API calls (under {api_percent} of the gap busy and {api_rate} calls per ms); that is {time} per step ({percent} of the step), the longest gap {longest}. This is a conjecture: the timeline has no GC events, and a host stalled for another reason looks the same."),
    N_("Profile again with GC detection on (torch_npu.profiler._ExperimentalConfig(gc_detect_threshold=1)) to confirm it. If it is garbage collection, call gc.freeze() once the model is built and raise gc.set_threshold()."),
    N_("Assumes the whole of each gap is a host pause that can be avoided."),
    CANN_API_HINT,
  },
  {
    "syncbatchnorm",
    N_("SyncBatchNorm"),
    NP_("SyncBatchNorm ran {count} time ({threshold} or more fire this rule), {time} per step ({percent} of the step); every call exchanges its batch statistics with the other ranks and waits for them.",
        "SyncBatchNorm ran {count} times ({threshold} or more fire this rule), {time} per step ({percent} of the step); every call exchanges its batch statistics with the other ranks and waits for them."),
    N_("Use plain BatchNorm where the batch on each rank is large enough for stable statistics, and keep SyncBatchNorm only for the layers whose accuracy needs it."),
    N_("No saving is estimated: what plain BatchNorm saves depends on how long each call waits for the other ranks."),
    FRAMEWORK_HINT,
  },
  {
    "synchronize-stream",
    N_("Stream synchronisation after kernel launches"),
    N_("{co} of {launches} kernel launches ({ratio}, more than {threshold}) are followed at once by a stream synchronisation; the {syncs} synchronisations take {time} per step ({percent} of the step). The host waits for each kernel before launching the next."), NULL,
    N_("Unset ASCEND_LAUNCH_BLOCKING (or set it to 0): it makes every launch wait for its kernel. Avoid host synchronisations in the training loop, such as tensor.item(), tensor.cpu(), printing tensors or torch.npu.synchronize()."),
    N_("Assumes the host could launch ahead without the synchronisations, hiding their time."),
    CANN_API_HINT,
  },
  {
    "dataloader",
    N_("Slow data loading"),
    NP_("{count} data loader call took {threshold} ms or more, {time} per step ({percent} of the step): {top}, {longest}.",
        "{count} data loader calls took {threshold} ms or more each, {time} per step ({percent} of the step); the longest, {top}, took {longest}."),
    N_("Feed the device faster: more DataLoader workers (num_workers), pin_memory=True, prefetching (prefetch_factor, persistent_workers=True), lighter preprocessing or preprocessing on the device; in MindSpore, more parallel workers in the dataset pipeline and dataset sink mode."),
    N_("Assumes prefetching hides the whole time of these calls."),
    FRAMEWORK_HINT,
  },
  {
    "fusible-ops",
    N_("Kernel sequence that could be fused"),
    NP_("The {length} kernels {pattern} run one after another {count} time on {stream}, {time} per step ({percent} of the step).",
        "The {length} kernels {pattern} run one after another {count} times on {stream}, {time} per step ({percent} of the step)."),
    N_("{advice}"),
    N_("Assumes a fused operator saves {fraction} of the sequence's time: the launches and the memory traffic between its kernels."),
    N_("Collect the device's kernels on the timeline: the Ascend PyTorch profiler with ProfilerActivity.NPU writes them to trace_view.json (Level0 is enough); msprof --task-time=on to msprof_*.json."),
  },
  {
    "slow-rank",
    N_("Slow rank"),
    N_("Step times differ by {spread} between ranks (more than {threshold} of the mean {mean}); {top} is the slowest at {slowest}, most of the difference in its {phase}."), NULL,
    N_("Look at what {top} does differently in its {phase}: an uneven data split, a slower host or device, or a straggling link."),
    N_("Assumes the other ranks wait for the slowest, so bringing it to the fastest rank's time shortens every step by the difference."),
    N_("Profile every rank: put each rank's profiler output in one folder, or run msprof-analyze cluster to write cluster_step_trace_time.csv."),
  },
  {
    "slow-link",
    N_("Slow link"),
    NP_("The {count} {transport} link differs in bandwidth by {spread} (more than {threshold} of the mean {mean} GB/s); {link} is the slowest at {bandwidth} GB/s, taking {time} per step ({percent} of the step).",
        "The {count} {transport} links differ in bandwidth by {spread} (more than {threshold} of the mean {mean} GB/s); {link} is the slowest at {bandwidth} GB/s, taking {time} per step ({percent} of the step)."),
    N_("Check link {link}: its cable, optical module or port, the network configuration (RoCE, PFC, ECN) and whether other jobs share it; a link much slower than its peers holds every collective back."),
    N_("Assumes the slow link could move its data at the mean bandwidth of its peers; the saving is the transit time it loses against them."),
    COMMUNICATION_HINT,
  },
  {
    "packet-size",
    N_("Small communication transfers"),
    NP_("{small} of {count} {class} transfer ({share}, more than {threshold}) is smaller than {size} MB; it takes {time} per step ({percent} of the step). The op with the most time in it is {top}.",
        "{small} of {count} {class} transfers ({share}, more than {threshold}) are smaller than {size} MB; they take {time} per step ({percent} of the step). The op with the most time in them is {top}."),
    N_("Send fewer, bigger transfers: larger gradient buckets (torch DDP bucket_cap_mb, e.g. 100 or more), or fuse the all-reduces (MindSpore set_auto_parallel_context(all_reduce_fusion_config=[...]) or comm_fusion)."),
    N_("Assumes the small transfers, merged, would move at the bandwidth the large ones reached ({large} GB/s); with no large transfers no saving is estimated."),
    COMMUNICATION_HINT,
  },
};

const SlAdvisorTexts *
sl_advisor_texts_lookup (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    if (g_str_equal (texts[i].id, id))
      return &texts[i];
  return NULL;
}

static char *
format_translated (const char *p,
                   GHashTable *values)
{
  g_autoptr(GString) out = g_string_new (NULL);

  while (*p != '\0')
    {
      const char *open = strchr (p, '{');
      const char *close = open != NULL ? strchr (open, '}') : NULL;
      g_autofree char *name = NULL;
      const char *value;

      if (open == NULL || close == NULL)
        {
          g_string_append (out, p);
          break;
        }
      g_string_append_len (out, p, open - p);
      name = g_strndup (open + 1, close - open - 1);
      value = values != NULL ? g_hash_table_lookup (values, name) : NULL;
      if (value != NULL)
        g_string_append (out, value);
      else
        g_string_append_len (out, open, close - open + 1);
      p = close + 1;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
sl_advisor_texts_format (const char *template,
                         GHashTable *values)
{
  if (template == NULL)
    return g_strdup ("");
  return format_translated (_(template), values);
}

char *
sl_advisor_texts_format_message (const SlAdvisorTexts *texts,
                                 GHashTable           *values)
{
  const char *count_text;
  guint64 count = 0;
  g_autofree char *chosen = NULL;

  if (texts == NULL || texts->message == NULL)
    return g_strdup ("");
  if (texts->message_plural == NULL)
    return sl_advisor_texts_format (texts->message, values);

  count_text = values != NULL ? g_hash_table_lookup (values, "count") : NULL;
  if (count_text == NULL || !g_ascii_string_to_unsigned (count_text, 10, 0, G_MAXUINT64, &count, NULL))
    count = 2;
  /* ngettext has already translated it: format must not look it up again. */
  chosen = g_strdup (g_dngettext (GETTEXT_PACKAGE, texts->message, texts->message_plural, (gulong)MIN (count, G_MAXULONG)));
  return format_translated (chosen, values);
}
