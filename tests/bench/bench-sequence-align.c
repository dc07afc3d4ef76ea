/* bench-sequence-align.c: aligning two op streams, against difflib
 *
 * Builds the op stream of a 24-layer transformer's training steps, keyed
 * the way the baseline comparison keys ops ("name|type|input shape",
 * interned to ids; about 300 distinct keys, the same layer pattern over
 * and over), 1,000,000 ops of it, and a comparison run that differs in 1%
 * of its places (ops inserted, deleted or replaced by others of the
 * vocabulary). Times sl_sequence_align_compute on the pair (median of
 * RUNS) with its peak memory, then the Python peer (difflib's
 * SequenceMatcher, which msprof-analyze's compare tool uses, with
 * autojunk off and on) on the same pair, and says whether the peer found
 * as many matches as the exact LCS. The same on 20,000 ops, where the
 * peer finishes. Then two unrelated 1,000,000-op streams: ours within its
 * budget, and which method it fell back to.
 *
 * The peer stops after SL_BENCH_PEER_TIMEOUT seconds (60 by default); its
 * time is then a lower bound. SL_PEER_PYTHON picks its interpreter.
 * A benchmark prints figures; it never passes or fails.
 *
 * Goal (from the comparison issue): 1,000,000 ops 1% apart aligned
 * exactly in at most 2 s and 200 MB.
 *
 * Usage: bench-sequence-align [RUNS]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-platform.h"
#include "sl-sequence-align.h"

#define N_OPS        1000000
#define N_SMALL_OPS  20000
#define N_LAYERS     24
#define EDIT_RATE    0.01
#define GOAL_SECONDS 2.0
#define GOAL_MB      200.0

typedef struct {
  double   seconds;
  gboolean timed_out;
  gint64   matched;
  double   peak_mb;
} PeerResult;

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  if (values->len % 2)
    return g_array_index (values, double, values->len / 2);
  return (g_array_index (values, double, values->len / 2 - 1) +
          g_array_index (values, double, values->len / 2)) / 2;
}

/* A small deterministic generator, so the streams are the same everywhere. */
static guint32
next_random (guint32 *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

typedef struct {
  GHashTable *ids;     /* key string → id + 1 */
  GPtrArray  *names;
} Vocabulary;

static guint32
intern (Vocabulary *vocabulary,
        const char *name,
        const char *type,
        const char *shape)
{
  g_autofree char *key = g_strdup_printf ("%s|%s|%s", name, type, shape);
  gpointer found = g_hash_table_lookup (vocabulary->ids, key);

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_ptr_array_add (vocabulary->names, g_strdup (key));
  g_hash_table_insert (vocabulary->ids, g_steal_pointer (&key), GUINT_TO_POINTER (vocabulary->names->len));
  return vocabulary->names->len - 1;
}

/* One layer's forward or backward ops. Dense and mixture-of-experts
 * layers alternate; every key depends on the layer kind's shapes, never
 * on the layer's index, as in a real profile. */
static void
append_layer (Vocabulary *v,
              GArray     *ops,
              gboolean    moe,
              gboolean    backward)
{
  static const char * const attention[][2] = {
    { "input_layernorm", "LayerNorm" }, { "q_proj", "MatMul" }, { "k_proj", "MatMul" },
    { "v_proj", "MatMul" }, { "q_reshape", "Reshape" }, { "k_reshape", "Reshape" },
    { "v_reshape", "Reshape" }, { "q_transpose", "Transpose" }, { "k_transpose", "Transpose" },
    { "v_transpose", "Transpose" }, { "rotary", "RotaryMul" }, { "rotary", "RotaryMul" },
    { "scores", "BatchMatMul" }, { "scale", "Mul" }, { "mask", "Add" }, { "softmax", "Softmax" },
    { "attn_dropout", "DropOutDoMask" }, { "context", "BatchMatMul" }, { "o_transpose", "Transpose" },
    { "o_reshape", "Reshape" }, { "o_proj", "MatMul" }, { "attn_residual", "Add" },
    { "cast", "Cast" }, { "post_layernorm", "LayerNorm" },
  };
  static const char * const mlp[][2] = {
    { "gate_proj", "MatMul" }, { "up_proj", "MatMul" }, { "act", "FastGelu" }, { "mul", "Mul" },
    { "down_proj", "MatMul" }, { "mlp_residual", "Add" }, { "cast", "Cast" },
  };
  static const char * const moe_ops[][2] = {
    { "router", "MatMul" }, { "router_softmax", "Softmax" }, { "topk", "TopK" },
    { "dispatch", "AlltoAll" }, { "expert_gate", "GroupedMatmul" }, { "expert_up", "GroupedMatmul" },
    { "expert_act", "FastGelu" }, { "expert_down", "GroupedMatmul" }, { "combine", "AlltoAll" },
    { "moe_residual", "Add" }, { "cast", "Cast" },
  };
  const char *shape = moe ? "[4,4096,5120]" : "[4,4096,4096]";
  const char *pass = backward ? "Grad" : "";
  guint n_mlp = moe ? G_N_ELEMENTS (moe_ops) : G_N_ELEMENTS (mlp);

  for (guint r = 0; r < (backward ? 2u : 1u); r++)
    {
      /* Backward runs each op's gradient twice (data and weight), in
       * reverse order. */
      for (guint k = 0; k < G_N_ELEMENTS (attention); k++)
        {
          guint i = backward ? G_N_ELEMENTS (attention) - 1 - k : k;
          g_autofree char *type = g_strconcat (attention[i][1], pass, r ? "Weight" : "", NULL);
          guint32 id = intern (v, attention[i][0], type, shape);

          g_array_append_val (ops, id);
        }
      for (guint k = 0; k < n_mlp; k++)
        {
          guint i = backward ? n_mlp - 1 - k : k;
          const char * const *op = moe ? moe_ops[i] : mlp[i];
          g_autofree char *type = g_strconcat (op[1], pass, r ? "Weight" : "", NULL);
          guint32 id = intern (v, op[0], type, shape);

          g_array_append_val (ops, id);
        }
    }
}

static void
append_named (Vocabulary *v,
              GArray     *ops,
              const char *name,
              const char *type,
              const char *shape)
{
  guint32 id = intern (v, name, type, shape);

  g_array_append_val (ops, id);
}

/* Training steps until @n ops: embedding, the layers, the head and loss,
 * the layers backward, gradient all-reduce and the optimizer. */
static GArray *
training_stream (Vocabulary *v,
                 guint       n)
{
  GArray *ops = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n + 4096);

  while (ops->len < n)
    {
      append_named (v, ops, "embedding", "Gather", "[4,4096]");
      append_named (v, ops, "embedding", "Cast", "[4,4096,4096]");
      for (guint l = 0; l < N_LAYERS; l++)
        append_layer (v, ops, l % 2, FALSE);
      append_named (v, ops, "final_layernorm", "LayerNorm", "[4,4096,4096]");
      append_named (v, ops, "lm_head", "MatMul", "[4,4096,4096]");
      append_named (v, ops, "loss", "SoftmaxCrossEntropyWithLogits", "[16384,32000]");
      append_named (v, ops, "loss", "ReduceMean", "[16384]");
      append_named (v, ops, "loss", "SoftmaxCrossEntropyWithLogitsGrad", "[16384,32000]");
      append_named (v, ops, "lm_head", "MatMulGrad", "[4,4096,4096]");
      for (guint l = N_LAYERS; l > 0; l--)
        append_layer (v, ops, (l - 1) % 2, TRUE);
      append_named (v, ops, "embedding", "GatherGrad", "[4,4096]");
      for (guint b = 0; b < 8; b++)
        {
          g_autofree char *shape = g_strdup_printf ("[%u]", 100000000u + b * 1000);

          append_named (v, ops, "grad_bucket", "HcomAllReduce", shape);
        }
      for (guint p = 0; p < 40; p++)
        {
          g_autofree char *shape = g_strdup_printf ("[%u,%u]", 4096u + (p % 10) * 1024, 4096u + (p / 10) * 512);

          append_named (v, ops, "optimizer", p % 2 ? "AdamWeightDecay" : "Assign", shape);
        }
    }
  g_array_set_size (ops, n);
  return ops;
}

/* The comparison run: the same stream with ops inserted, deleted or
 * replaced (by ops of the vocabulary) in @rate of the places. */
static GArray *
edited_stream (const GArray *base,
               guint         n_keys,
               double        rate,
               guint32       seed,
               guint        *n_deleted,
               guint        *n_replaced)
{
  GArray *ops = g_array_sized_new (FALSE, FALSE, sizeof (guint32), base->len + base->len / 50);
  guint32 state = seed;
  guint32 threshold = (guint32)(rate * G_MAXUINT32);

  *n_deleted = *n_replaced = 0;
  for (guint i = 0; i < base->len; i++)
    {
      guint32 key = g_array_index (base, guint32, i);

      if (next_random (&state) < threshold)
        {
          guint32 other = next_random (&state) % n_keys;

          switch (next_random (&state) % 3)
            {
            case 0:
              g_array_append_val (ops, other);
              g_array_append_val (ops, key);
              break;
            case 1:
              (*n_deleted)++;
              break;
            default:
              g_array_append_val (ops, other);
              (*n_replaced)++;
              break;
            }
        }
      else
        g_array_append_val (ops, key);
    }
  return ops;
}

static GArray *
unrelated_stream (guint   n,
                  guint   n_keys,
                  guint32 seed)
{
  GArray *ops = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  guint32 state = seed;

  for (guint i = 0; i < n; i++)
    {
      guint32 key = next_random (&state) % n_keys;

      g_array_append_val (ops, key);
    }
  return ops;
}

static char *
write_keys (const char   *folder,
            const char   *name,
            const GArray *ops)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (folder, name, NULL);

  /* Little-endian, as the peer reads them. */
  G_STATIC_ASSERT (G_BYTE_ORDER == G_LITTLE_ENDIAN || G_BYTE_ORDER == G_BIG_ENDIAN);
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    for (guint i = 0; i < ops->len; i++)
      g_array_index (ops, guint32, i) = GUINT32_TO_LE (g_array_index (ops, guint32, i));
  if (!g_file_set_contents (path, ops->data, (gssize)ops->len * sizeof (guint32), &error))
    g_error ("cannot write %s: %s", path, error->message);
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    for (guint i = 0; i < ops->len; i++)
      g_array_index (ops, guint32, i) = GUINT32_FROM_LE (g_array_index (ops, guint32, i));
  return path;
}

static PeerResult
run_peer (const char *folder,
          GArray     *base,
          GArray     *comparison,
          gboolean    autojunk,
          double      timeout)
{
  const char *python = g_getenv ("SL_PEER_PYTHON") ? g_getenv ("SL_PEER_PYTHON") : "python3";
  g_autofree char *base_path = write_keys (folder, "base.u32", base);
  g_autofree char *comparison_path = write_keys (folder, "comparison.u32", comparison);
  g_autofree char *timeout_text = g_strdup_printf ("%g", timeout);
  const char * const argv[] = { python, SL_PEER_SCRIPT, base_path, comparison_path,
                                autojunk ? "1" : "0", timeout_text, NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  JsonObject *result;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  if (process == NULL || !g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error))
    g_error ("cannot run the peer: %s", error->message);
  if (!json_parser_load_from_data (parser, out, -1, NULL))
    g_error ("the peer printed no JSON: %s %s", out, err);
  result = json_node_get_object (json_parser_get_root (parser));
  g_unlink (base_path);
  g_unlink (comparison_path);

  return (PeerResult) {
    .seconds = json_object_get_double_member (result, "seconds"),
    .timed_out = json_object_get_boolean_member (result, "timed_out"),
    .matched = json_object_get_int_member (result, "matched"),
    .peak_mb = json_object_get_int_member (result, "peak_rss_bytes") / 1e6,
  };
}

/* Wall time, and the processor time of the process over the same span:
 * on a loaded machine the first is the one that varies. */
static SlSequenceAlign *
align_timed (GArray  *base,
             GArray  *comparison,
             double  *seconds,
             double  *cpu_seconds)
{
  SlSequenceAlignInput input = {
    (const guint32 *)(gpointer)base->data, base->len,
    (const guint32 *)(gpointer)comparison->data, comparison->len,
    0,
  };
  g_autoptr(GError) error = NULL;
  clock_t cpu_start = clock ();
  gint64 start = g_get_monotonic_time ();
  SlSequenceAlign *result = sl_sequence_align_compute (&input, NULL, NULL, NULL, &error);

  *seconds = (g_get_monotonic_time () - start) / 1e6;
  *cpu_seconds = (double)(clock () - cpu_start) / CLOCKS_PER_SEC;
  if (result == NULL)
    g_error ("alignment failed: %s", error->message);
  return result;
}

/* What the alignment itself keeps: two diagonal arrays, the pairs
 * reserved for the shorter side (touched only as written), the hunks. */
static double
working_mb (SlSequenceAlign *result,
            guint            n,
            guint            m)
{
  return (2.0 * (n + m + 3) * sizeof (gint32) +
          result->n_pairs * sizeof (SlSequenceAlignPair) +
          result->n_hunks * sizeof (SlSequenceAlignHunk)) / 1e6;
}

static void
print_peer (const char *label,
            PeerResult *peer,
            double      ours_s,
            guint64     exact)
{
  if (peer->timed_out)
    printf ("  difflib %s: > %.1f s (cut off), ratio > %.0f ×\n", label, peer->seconds, peer->seconds / ours_s);
  else
    printf ("  difflib %s: %.3f s, peak RSS %.1f MB, ratio %.1f ×, %" G_GINT64_FORMAT
            " matched, %s the exact LCS (%" G_GUINT64_FORMAT ")%s\n",
            label, peer->seconds, peer->peak_mb, peer->seconds / ours_s, peer->matched,
            (guint64)peer->matched == exact ? "equal to" : "NOT equal to", exact,
            (guint64)peer->matched == exact ? "" : ", not exact");
}

static void
bench_one_percent (const char *folder,
                   Vocabulary *v,
                   guint       n,
                   int         runs,
                   double      timeout,
                   gboolean    with_goal)
{
  g_autoptr(GArray) base = training_stream (v, n);
  g_autoptr(GArray) comparison = NULL;
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(SlSequenceAlign) result = NULL;
  guint n_deleted, n_replaced;
  guint64 rss_before = sl_platform_get_peak_resident_bytes ();
  double ours_s, peak_mb;
  PeerResult peer;

  comparison = edited_stream (base, v->names->len, EDIT_RATE, 20240611u + n, &n_deleted, &n_replaced);
  for (int r = 0; r < runs; r++)
    {
      double seconds, cpu_seconds;

      g_clear_pointer (&result, sl_sequence_align_free);
      result = align_timed (base, comparison, &seconds, &cpu_seconds);
      g_array_append_val (times, seconds);
      g_array_append_val (cpu_times, cpu_seconds);
    }
  if (result == NULL)
    g_error ("no run");
  ours_s = median (times);
  peak_mb = sl_platform_get_peak_resident_bytes () / 1e6;

  printf ("%u vs %u ops, 1%% apart (%u keys; %u deleted, %u replaced, the rest inserted):\n",
          base->len, comparison->len, v->names->len, n_deleted, n_replaced);
  printf ("  ours: median %.3f s (min %.3f, max %.3f, %d runs; processor %.3f s), %s, %" G_GUINT64_FORMAT
          " matched (at least %u), D = %" G_GUINT64_FORMAT ", %.0f M cells\n",
          ours_s, g_array_index (times, double, 0), g_array_index (times, double, times->len - 1), runs,
          median (cpu_times),
          sl_sequence_align_method_to_string (result->method), result->matched, n - n_deleted - n_replaced,
          result->distance, result->work / 1e6);
  printf ("  ours memory: %.1f MB working set, peak RSS %.1f MB (%.1f MB before, the inputs %.1f MB)\n",
          working_mb (result, base->len, comparison->len), peak_mb, rss_before / 1e6,
          (base->len + comparison->len) * 4 / 1e6);
  if (with_goal)
    printf ("  goal ≤ %.0f s and ≤ %.0f MB, exact: %s\n", GOAL_SECONDS, GOAL_MB,
            ours_s <= GOAL_SECONDS && peak_mb <= GOAL_MB && result->method == SL_SEQUENCE_ALIGN_EXACT ? "met" : "MISSED");

  peer = run_peer (folder, base, comparison, FALSE, timeout);
  print_peer ("autojunk=False", &peer, ours_s, result->matched);
  peer = run_peer (folder, base, comparison, TRUE, timeout);
  print_peer ("autojunk=True (its default)", &peer, ours_s, result->matched);
}

static void
bench_unrelated (const char *folder,
                 Vocabulary *v,
                 double      timeout)
{
  g_autoptr(GArray) base = training_stream (v, N_OPS);
  g_autoptr(GArray) comparison = unrelated_stream (N_OPS, v->names->len, 7);
  g_autoptr(SlSequenceAlign) result = NULL;
  double ours_s, cpu_s;
  PeerResult peer;

  result = align_timed (base, comparison, &ours_s, &cpu_s);
  printf ("%u vs %u unrelated ops (the same vocabulary drawn at random):\n", base->len, comparison->len);
  printf ("  ours: %.3f s (processor %.3f s), %s (budget %.0f M cells: %.0f M spent on the exact search, %.0f M in all), %" G_GUINT64_FORMAT " matched\n",
          ours_s, cpu_s, sl_sequence_align_method_to_string (result->method),
          SL_SEQUENCE_ALIGN_DEFAULT_WORK / 1e6, result->exact_work / 1e6, result->work / 1e6, result->matched);
  peer = run_peer (folder, base, comparison, FALSE, timeout);
  print_peer ("autojunk=False", &peer, ours_s, result->matched);
  peer = run_peer (folder, base, comparison, TRUE, timeout);
  print_peer ("autojunk=True (its default)", &peer, ours_s, result->matched);
}

int
main (int    argc,
      char **argv)
{
  int runs = argc > 1 ? MAX (atoi (argv[1]), 1) : 5;
  double timeout = g_getenv ("SL_BENCH_PEER_TIMEOUT") ? g_ascii_strtod (g_getenv ("SL_BENCH_PEER_TIMEOUT"), NULL) : 60;
  g_autofree char *folder = g_dir_make_tmp ("sightline-bench-align-XXXXXX", NULL);
  Vocabulary v = {
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    g_ptr_array_new_with_free_func (g_free),
  };

  if (folder == NULL)
    g_error ("cannot make a temporary folder");
  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("peer timeout: %.0f s (SL_BENCH_PEER_TIMEOUT)\n", timeout);

  bench_one_percent (folder, &v, N_OPS, runs, timeout, TRUE);
  bench_one_percent (folder, &v, N_SMALL_OPS, runs, timeout, FALSE);
  bench_unrelated (folder, &v, timeout);

  g_rmdir (folder);
  g_hash_table_unref (v.ids);
  g_ptr_array_unref (v.names);
  return 0;
}
