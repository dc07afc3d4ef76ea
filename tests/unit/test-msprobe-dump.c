/* test-msprobe-dump.c: msprobe dump folders written here, read back and
 * paired exactly, fuzzily and through a mapping; statistics, CRC,
 * damaged dump.json and data_name values that lead out of the folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-msprobe-dump.h"
#include "sl-problem.h"
#include "sl-tensor-mapping.h"
#include "sl-tensor-pairing.h"

/* One tensor record in dump.json. */
static char *
record (const char *dtype,
        const char *shape,
        double      max,
        const char *extra)
{
  return g_strdup_printf ("{\"type\": \"torch.Tensor\", \"dtype\": \"%s\", \"shape\": %s, "
                          "\"Max\": %g, \"Min\": -1.0, \"Mean\": 0.5, \"Norm\": 2.0, "
                          "\"requires_grad\": false%s%s}",
                          dtype, shape, max, extra != NULL ? ", " : "", extra != NULL ? extra : "");
}

static char *
make_folder (void)
{
  g_autoptr(GError) error = NULL;
  char *folder = g_dir_make_tmp ("sl-msprobe-XXXXXX", &error);

  g_assert_no_error (error);
  return folder;
}

static void
write_file (const char *folder,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static SlMsprobeDump *
dump_from (const char *json)
{
  return sl_msprobe_dump_new_from_data ("dump.json", NULL, json, strlen (json));
}

/* relu's call 0 and 1 and a linear on the NPU side. */
static char *
npu_json (void)
{
  g_autofree char *a = record ("torch.float16", "[2, 3]", 1.0, NULL);
  g_autofree char *b = record ("torch.float16", "[2, 3]", 2.0, NULL);
  g_autofree char *w = record ("torch.float16", "[3, 3]", 3.0, NULL);

  return g_strdup_printf ("{\"task\": \"statistics\", \"level\": \"mix\", \"framework\": \"pytorch\", "
                          "\"dump_data_dir\": null, \"data\": {"
                          "\"Functional.relu.0.forward\": {\"input_args\": [%s], \"input_kwargs\": {}, \"output\": [%s]},"
                          "\"Functional.relu.1.forward\": {\"input_args\": [%s, {\"type\": \"int\", \"value\": 1}], \"output\": [%s]},"
                          "\"Module.fc.Linear.forward.0\": {\"input_args\": [[%s, %s]], \"input_kwargs\": {\"bias\": %s}, \"output\": [%s],"
                          " \"parameters\": {\"weight\": %s}}"
                          "}}",
                          a, b, b, a, a, b, a, b, w);
}

static void
test_keys_in_order (void)
{
  g_autofree char *json = npu_json ();
  g_autoptr(SlMsprobeDump) dump = dump_from (json);
  const char *expected[] = {
    "Functional.relu.0.forward.input.0",
    "Functional.relu.0.forward.output.0",
    "Functional.relu.1.forward.input.0",
    "Functional.relu.1.forward.output.0",
    "Module.fc.Linear.forward.0.input.0.0",
    "Module.fc.Linear.forward.0.input.0.1",
    "Module.fc.Linear.forward.0.input.bias",
    "Module.fc.Linear.forward.0.output.0",
    "Module.fc.Linear.forward.0.parameters.weight",
  };
  const SlMsprobeTensor *tensor;

  g_assert_cmpuint (sl_msprobe_dump_get_problems (dump)->len, ==, 0);
  g_assert_cmpstr (sl_msprobe_dump_get_task (dump), ==, "statistics");
  g_assert_cmpstr (sl_msprobe_dump_get_level (dump), ==, "mix");
  g_assert_cmpstr (sl_msprobe_dump_get_framework (dump), ==, "pytorch");
  g_assert_cmpuint (sl_msprobe_dump_get_n_tensors (dump), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      tensor = sl_msprobe_dump_get_tensor (dump, i);
      g_assert_cmpstr (tensor->key, ==, expected[i]);
      g_assert_cmpuint (tensor->order, ==, i);
    }

  tensor = sl_msprobe_dump_get_tensor (dump, 2);
  g_assert_cmpstr (tensor->api_type, ==, "Functional");
  g_assert_cmpstr (tensor->api, ==, "relu");
  g_assert_cmpint (tensor->call, ==, 1);
  g_assert_cmpstr (tensor->fuzzy_key, ==, "Functional.relu.forward.input.0");
  g_assert_cmpstr (tensor->dtype, ==, "torch.float16");
  g_assert_cmpuint (tensor->n_dims, ==, 2);
  g_assert_cmpint (tensor->shape[0], ==, 2);
  g_assert_cmpint (tensor->shape[1], ==, 3);
  g_assert_true (tensor->has_stats);
  g_assert_cmpfloat (tensor->max, ==, 2.0);
  g_assert_cmpfloat (tensor->min, ==, -1.0);
  g_assert_cmpint (tensor->requires_grad, ==, 0);

  tensor = sl_msprobe_dump_get_tensor (dump, 4);
  g_assert_cmpstr (tensor->api_type, ==, "Module");
  g_assert_cmpstr (tensor->api, ==, "fc.Linear");
  g_assert_cmpint (tensor->call, ==, 0);
  g_assert_cmpstr (tensor->fuzzy_key, ==, "Module.fc.Linear.forward.input.0.0");
}

static void
test_parse_entry (void)
{
  g_autofree char *type = NULL;
  g_autofree char *api = NULL;
  gint64 call = 0;
  gboolean backward = FALSE;

  g_assert_true (sl_msprobe_parse_entry ("Tensor.__add__.12.backward", &type, &api, &call, &backward));
  g_assert_cmpstr (type, ==, "Tensor");
  g_assert_cmpstr (api, ==, "__add__");
  g_assert_cmpint (call, ==, 12);
  g_assert_true (backward);
  g_assert_false (sl_msprobe_parse_entry ("Functional.relu.0", NULL, NULL, NULL, NULL));
  g_assert_false (sl_msprobe_parse_entry ("forward", NULL, NULL, NULL, NULL));
  g_assert_false (sl_msprobe_parse_entry ("Module.forward.x.y", NULL, NULL, NULL, NULL));
  g_assert_false (sl_msprobe_parse_entry ("", NULL, NULL, NULL, NULL));
}

/* The benchmark: the same calls, relu's second input with
 * @second_shape, and a gelu more. */
static char *
bench_json (const char *relu_name,
            const char *second_shape)
{
  g_autofree char *a = record ("torch.float32", "[2, 3]", 1.5, NULL);
  g_autofree char *b = record ("torch.float32", "[2, 3]", 2.0, NULL);
  g_autofree char *c = record ("torch.float32", second_shape, 2.0, NULL);
  g_autofree char *w = record ("torch.float32", "[3, 3]", 0.0, NULL);

  return g_strdup_printf ("{\"task\": \"statistics\", \"data\": {"
                          "\"Functional.%s.0.forward\": {\"input_args\": [%s], \"output\": [%s]},"
                          "\"Functional.%s.1.forward\": {\"input_args\": [%s], \"output\": [%s]},"
                          "\"Functional.gelu.0.forward\": {\"input_args\": [%s], \"output\": [%s]},"
                          "\"Module.fc.Linear.forward.0\": {\"input_args\": [[%s, %s]], \"input_kwargs\": {\"bias\": %s}, \"output\": [%s],"
                          " \"parameters\": {\"weight\": %s}}"
                          "}}",
                          relu_name, a, b, relu_name, c, a, a, a, a, b, a, b, w);
}

static const SlTensorUnmatched *
find_unmatched (SlTensorPairing *pairing,
                const char      *key,
                SlTensorSide     side)
{
  for (guint i = 0; i < sl_tensor_pairing_get_n_unmatched (pairing); i++)
    {
      const SlTensorUnmatched *unmatched = sl_tensor_pairing_get_unmatched (pairing, i);

      if (unmatched->side == side && g_str_equal (unmatched->tensor->key, key))
        return unmatched;
    }
  return NULL;
}

static void
test_exact_pairing (void)
{
  g_autofree char *npu_text = npu_json ();
  g_autofree char *bench_text = bench_json ("relu", "[3, 2]");
  g_autoptr(SlMsprobeDump) npu = dump_from (npu_text);
  g_autoptr(SlMsprobeDump) bench = dump_from (bench_text);
  g_autoptr(SlTensorPairing) pairing = sl_tensor_pairing_new (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  const SlTensorUnmatched *unmatched;
  const SlTensorPair *pair;
  SlStatsComparison stats;
  gboolean equal;

  /* relu.0 in and out, relu.1 out, fc's five; relu.1's input has
   * another shape. */
  g_assert_cmpuint (sl_tensor_pairing_get_n_pairs (pairing), ==, 8);
  pair = sl_tensor_pairing_get_pair (pairing, 0);
  g_assert_cmpstr (pair->npu->key, ==, "Functional.relu.0.forward.input.0");
  g_assert_cmpstr (pair->bench->key, ==, "Functional.relu.0.forward.input.0");
  pair = sl_tensor_pairing_get_pair (pairing, 2);
  g_assert_cmpstr (pair->npu->key, ==, "Functional.relu.1.forward.output.0");

  unmatched = find_unmatched (pairing, "Functional.relu.1.forward.input.0", SL_TENSOR_SIDE_NPU);
  g_assert_nonnull (unmatched);
  g_assert_cmpint (unmatched->reason, ==, SL_UNMATCHED_SHAPE);
  g_assert_nonnull (unmatched->other);
  g_assert_cmpint (find_unmatched (pairing, "Functional.relu.1.forward.input.0", SL_TENSOR_SIDE_BENCH)->reason,
                   ==, SL_UNMATCHED_SHAPE);
  g_assert_cmpint (find_unmatched (pairing, "Functional.gelu.0.forward.input.0", SL_TENSOR_SIDE_BENCH)->reason,
                   ==, SL_UNMATCHED_MISSING);
  g_assert_cmpint (find_unmatched (pairing, "Functional.gelu.0.forward.output.0", SL_TENSOR_SIDE_BENCH)->reason,
                   ==, SL_UNMATCHED_MISSING);
  g_assert_cmpuint (sl_tensor_pairing_get_n_unmatched (pairing), ==, 4);

  /* Statistics: max 1.0 against 1.5. */
  pair = sl_tensor_pairing_get_pair (pairing, 0);
  g_assert_true (sl_tensor_pair_compare_stats (pair, &stats));
  g_assert_cmpfloat (stats.max.diff, ==, -0.5);
  g_assert_cmpfloat_with_epsilon (stats.max.relative, 1.0 / 3.0, 1e-15);
  g_assert_cmpfloat (stats.min.diff, ==, 0.0);
  g_assert_cmpfloat (stats.min.relative, ==, 0.0);
  /* No CRC in a statistics dump. */
  g_assert_false (sl_tensor_pair_compare_crc (pair, &equal));
  /* The weight: max 3 against 0. */
  pair = sl_tensor_pairing_get_pair (pairing, 7);
  g_assert_cmpstr (pair->npu->key, ==, "Module.fc.Linear.forward.0.parameters.weight");
  g_assert_true (sl_tensor_pair_compare_stats (pair, &stats));
  g_assert_true (isnan (stats.max.relative));
}

static void
test_fuzzy_pairing (void)
{
  /* The NPU calls relu 5 and 9 times where the benchmark counts 0 and 1. */
  g_autofree char *a = record ("torch.float16", "[4]", 1.0, NULL);
  g_autofree char *b = record ("torch.float16", "[5]", 1.0, NULL);
  g_autofree char *npu_text = g_strdup_printf ("{\"data\": {"
                                               "\"Functional.relu.5.forward\": {\"output\": [%s]},"
                                               "\"Functional.relu.9.forward\": {\"output\": [%s]},"
                                               "\"Functional.relu.11.forward\": {\"output\": [%s]}}}",
                                               a, b, a);
  g_autofree char *bench_text = g_strdup_printf ("{\"data\": {"
                                                 "\"Functional.relu.0.forward\": {\"output\": [%s]},"
                                                 "\"Functional.relu.1.forward\": {\"output\": [%s]}}}",
                                                 a, b);
  g_autoptr(SlMsprobeDump) npu = dump_from (npu_text);
  g_autoptr(SlMsprobeDump) bench = dump_from (bench_text);
  g_autoptr(SlTensorPairing) exact = sl_tensor_pairing_new (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_autoptr(SlTensorPairing) fuzzy = sl_tensor_pairing_new (npu, bench, SL_TENSOR_PAIRING_FUZZY, NULL);
  const SlTensorPair *pair;

  g_assert_cmpuint (sl_tensor_pairing_get_n_pairs (exact), ==, 0);
  g_assert_cmpuint (sl_tensor_pairing_get_n_unmatched (exact), ==, 5);

  g_assert_cmpuint (sl_tensor_pairing_get_n_pairs (fuzzy), ==, 2);
  pair = sl_tensor_pairing_get_pair (fuzzy, 0);
  g_assert_cmpstr (pair->npu->key, ==, "Functional.relu.5.forward.output.0");
  g_assert_cmpstr (pair->bench->key, ==, "Functional.relu.0.forward.output.0");
  pair = sl_tensor_pairing_get_pair (fuzzy, 1);
  g_assert_cmpstr (pair->npu->key, ==, "Functional.relu.9.forward.output.0");
  g_assert_cmpstr (pair->bench->key, ==, "Functional.relu.1.forward.output.0");
  g_assert_cmpuint (sl_tensor_pairing_get_n_unmatched (fuzzy), ==, 1);
  g_assert_cmpstr (sl_tensor_pairing_get_unmatched (fuzzy, 0)->tensor->key, ==, "Functional.relu.11.forward.output.0");
  g_assert_cmpint (sl_tensor_pairing_get_unmatched (fuzzy, 0)->side, ==, SL_TENSOR_SIDE_NPU);
}

static void
test_mapping (void)
{
  g_autofree char *npu_text = npu_json ();
  g_autofree char *bench_text = bench_json ("fast_relu", "[2, 3]");
  g_autoptr(SlMsprobeDump) npu = dump_from (npu_text);
  g_autoptr(SlMsprobeDump) bench = dump_from (bench_text);
  const char *yaml = "# renamed in the benchmark\n"
                     "Functional.relu: Functional.fast_relu\n"
                     "'Functional.relu.1.forward.output.0': \"Functional.gelu.0.forward.output.0\"\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTensorMapping) mapping = sl_tensor_mapping_new_from_data (yaml, strlen (yaml), &error);
  g_autoptr(SlTensorMapping) json_mapping = NULL;
  g_autoptr(SlTensorPairing) without = NULL;
  g_autoptr(SlTensorPairing) with = NULL;
  g_autoptr(SlTensorPairing) fuzzy = NULL;
  const char *json = " {\"Functional.relu.0.forward\": \"Functional.fast_relu.1.forward\"}";

  g_assert_no_error (error);
  g_assert_cmpuint (sl_tensor_mapping_get_size (mapping), ==, 2);
  g_assert_cmpstr (sl_tensor_mapping_lookup (mapping, "Functional.relu.1.forward.output.0"),
                   ==, "Functional.gelu.0.forward.output.0");

  without = sl_tensor_pairing_new (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  g_assert_cmpuint (sl_tensor_pairing_get_n_pairs (without), ==, 5);

  with = sl_tensor_pairing_new (npu, bench, SL_TENSOR_PAIRING_EXACT, mapping);
  /* relu becomes fast_relu, and relu.1's output is gelu's by its key:
   * four pairs more, fast_relu.1's output and gelu's input left over. */
  g_assert_cmpuint (sl_tensor_pairing_get_n_pairs (with), ==, 9);
  g_assert_cmpstr (sl_tensor_pairing_get_pair (with, 0)->bench->key, ==, "Functional.fast_relu.0.forward.input.0");
  g_assert_cmpstr (sl_tensor_pairing_get_pair (with, 2)->bench->key, ==, "Functional.fast_relu.1.forward.input.0");
  g_assert_cmpstr (sl_tensor_pairing_get_pair (with, 3)->bench->key, ==, "Functional.gelu.0.forward.output.0");
  g_assert_cmpuint (sl_tensor_pairing_get_n_unmatched (with), ==, 2);
  g_assert_nonnull (find_unmatched (with, "Functional.fast_relu.1.forward.output.0", SL_TENSOR_SIDE_BENCH));
  g_assert_nonnull (find_unmatched (with, "Functional.gelu.0.forward.input.0", SL_TENSOR_SIDE_BENCH));

  /* Fuzzy pairing keeps the mapping of a whole key exact. */
  fuzzy = sl_tensor_pairing_new (npu, bench, SL_TENSOR_PAIRING_FUZZY, mapping);
  g_assert_cmpuint (sl_tensor_pairing_get_n_pairs (fuzzy), ==, 9);
  g_assert_cmpstr (sl_tensor_pairing_get_pair (fuzzy, 3)->bench->key, ==, "Functional.gelu.0.forward.output.0");

  json_mapping = sl_tensor_mapping_new_from_data (json, strlen (json), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_tensor_mapping_lookup (json_mapping, "Functional.relu.0.forward"), ==, "Functional.fast_relu.1.forward");

  /* Not a mapping: refused with the line. */
  g_assert_null (sl_tensor_mapping_new_from_data ("a: b\njust words\n", 16, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "2"));
  g_clear_error (&error);
  g_assert_null (sl_tensor_mapping_new_from_data ("{\"a\": 1}", 8, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_null (sl_tensor_mapping_new_from_data ("a: b\0c", 6, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void
test_dtype_kind_and_counts (void)
{
  g_autofree char *f = record ("torch.float32", "[2]", 1.0, NULL);
  g_autofree char *i = record ("Int32", "[2]", 1.0, NULL);
  g_autofree char *npu_text = g_strdup_printf ("{\"data\": {"
                                               "\"Tensor.add.0.forward\": {\"input_args\": [%s], \"output\": [%s]},"
                                               "\"Tensor.mul.0.forward\": {\"input_args\": [%s, %s]}}}",
                                               f, f, f, f);
  g_autofree char *bench_text = g_strdup_printf ("{\"data\": {"
                                                 "\"Tensor.add.0.forward\": {\"input_args\": [%s], \"output\": [%s]},"
                                                 "\"Tensor.mul.0.forward\": {\"input_args\": [%s]}}}",
                                                 f, i, f);
  g_autoptr(SlMsprobeDump) npu = dump_from (npu_text);
  g_autoptr(SlMsprobeDump) bench = dump_from (bench_text);
  g_autoptr(SlTensorPairing) pairing = sl_tensor_pairing_new (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);

  g_assert_cmpstr (sl_tensor_dtype_kind ("torch.bfloat16"), ==, "float");
  g_assert_cmpstr (sl_tensor_dtype_kind ("Float16"), ==, "float");
  g_assert_cmpstr (sl_tensor_dtype_kind ("torch.int64"), ==, "int");
  g_assert_cmpstr (sl_tensor_dtype_kind ("Bool"), ==, "bool");
  g_assert_null (sl_tensor_dtype_kind ("object"));
  /* float16 against float32 is the same kind: the pair stands. */
  g_assert_cmpuint (sl_tensor_pairing_get_n_pairs (pairing), ==, 1);
  g_assert_cmpint (find_unmatched (pairing, "Tensor.add.0.forward.output.0", SL_TENSOR_SIDE_NPU)->reason,
                   ==, SL_UNMATCHED_DTYPE_KIND);
  /* Two inputs against one: neither pairs. */
  g_assert_cmpint (find_unmatched (pairing, "Tensor.mul.0.forward.input.0", SL_TENSOR_SIDE_NPU)->reason,
                   ==, SL_UNMATCHED_ARGUMENT_COUNT);
  g_assert_cmpint (find_unmatched (pairing, "Tensor.mul.0.forward.input.1", SL_TENSOR_SIDE_NPU)->reason,
                   ==, SL_UNMATCHED_MISSING);
  g_assert_cmpint (find_unmatched (pairing, "Tensor.mul.0.forward.input.0", SL_TENSOR_SIDE_BENCH)->reason,
                   ==, SL_UNMATCHED_ARGUMENT_COUNT);
}

static void
test_crc (void)
{
  g_autofree char *a = record ("torch.float32", "[2]", 1.0, "\"md5\": \"1a2b3c4d\"");
  g_autofree char *b = record ("torch.float32", "[2]", 1.0, "\"md5\": \"1A2B3C4D\"");
  g_autofree char *c = record ("torch.float32", "[2]", 1.0, "\"md5\": \"ffffffff\"");
  g_autofree char *npu_text = g_strdup_printf ("{\"task\": \"statistics\", \"data\": {\"Tensor.add.0.forward\": {\"input_args\": [%s, %s]}}}", a, a);
  g_autofree char *bench_text = g_strdup_printf ("{\"data\": {\"Tensor.add.0.forward\": {\"input_args\": [%s, %s]}}}", b, c);
  g_autoptr(SlMsprobeDump) npu = dump_from (npu_text);
  g_autoptr(SlMsprobeDump) bench = dump_from (bench_text);
  g_autoptr(SlTensorPairing) pairing = sl_tensor_pairing_new (npu, bench, SL_TENSOR_PAIRING_EXACT, NULL);
  gboolean equal = FALSE;

  g_assert_cmpuint (sl_tensor_pairing_get_n_pairs (pairing), ==, 2);
  g_assert_cmpstr (sl_tensor_pairing_get_pair (pairing, 0)->npu->md5, ==, "1a2b3c4d");
  g_assert_true (sl_tensor_pair_compare_crc (sl_tensor_pairing_get_pair (pairing, 0), &equal));
  g_assert_true (equal);
  g_assert_true (sl_tensor_pair_compare_crc (sl_tensor_pairing_get_pair (pairing, 1), &equal));
  g_assert_false (equal);
}

static gboolean
has_problem (SlMsprobeDump *dump,
             const char    *part,
             gint64         offset)
{
  GPtrArray *problems = sl_msprobe_dump_get_problems (dump);

  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      if (strstr (sl_problem_get_message (problem), part) != NULL &&
          (offset < 0 || sl_problem_get_offset (problem) == offset))
        return TRUE;
    }
  return FALSE;
}

static void
test_damaged (void)
{
  g_autofree char *good = record ("torch.float32", "[2]", 1.0, NULL);
  g_autofree char *text = g_strdup_printf ("{\"data\": {"
                                           "\"Tensor.add.0.forward\": {\"input_args\": [%s]},"
                                           "\"Tensor.bad.0.forward\": {\"input_args\": [{\"dtype\": \"x\", \"shape\": [-1]}], \"output\": 7},"
                                           "\"nonsense\": {},"
                                           "\"Tensor.list.0.forward\": [],"
                                           "\"Tensor.mul.0.forward\": {\"output\": [%s, {\"dtype\": \"x\", \"shape\": \"2\"}]}}}",
                                           good, good);
  g_autoptr(SlMsprobeDump) dump = dump_from (text);
  gint64 bad_at = strstr (text, "\"Tensor.bad") - text;
  g_autofree char *deep = NULL;
  g_autoptr(SlMsprobeDump) deep_dump = NULL;
  g_autoptr(SlMsprobeDump) truncated = NULL;
  g_autoptr(SlMsprobeDump) empty = NULL;
  g_autoptr(GString) nested = g_string_new ("{\"data\": {\"Tensor.a.0.forward\": {\"input_args\": ");

  /* The good tensors stay; each bad one is reported at its entry. */
  g_assert_cmpuint (sl_msprobe_dump_get_n_tensors (dump), ==, 2);
  g_assert_cmpstr (sl_msprobe_dump_get_tensor (dump, 0)->key, ==, "Tensor.add.0.forward.input.0");
  g_assert_cmpstr (sl_msprobe_dump_get_tensor (dump, 1)->key, ==, "Tensor.mul.0.forward.output.0");
  g_assert_true (has_problem (dump, "Tensor.bad.0.forward.input.0", bad_at));
  g_assert_true (has_problem (dump, "output", bad_at));
  g_assert_true (has_problem (dump, "nonsense", strstr (text, "\"nonsense") - text));
  g_assert_true (has_problem (dump, "Tensor.list.0.forward", -1));
  g_assert_true (has_problem (dump, "Tensor.mul.0.forward.output.1", -1));

  /* Truncated and empty files are a problem, not a crash. */
  truncated = sl_msprobe_dump_new_from_data ("dump.json", NULL, text, strlen (text) / 2);
  g_assert_cmpuint (sl_msprobe_dump_get_n_tensors (truncated), ==, 0);
  g_assert_cmpuint (sl_msprobe_dump_get_problems (truncated)->len, ==, 1);
  empty = sl_msprobe_dump_new_from_data ("dump.json", NULL, "", 0);
  g_assert_cmpuint (sl_msprobe_dump_get_problems (empty)->len, ==, 1);

  /* Nesting deep enough to exhaust a recursive parser is refused first. */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (nested, '[');
  deep = g_string_free (g_steal_pointer (&nested), FALSE);
  deep_dump = dump_from (deep);
  g_assert_cmpuint (sl_msprobe_dump_get_n_tensors (deep_dump), ==, 0);
  g_assert_true (has_problem (deep_dump, "deep", -1));
}

static void
test_folder (void)
{
  g_autofree char *root = make_folder ();
  g_autofree char *rank = g_build_filename (root, "step0", "rank0", NULL);
  g_autofree char *data = g_build_filename (rank, "dump_tensor_data", NULL);
  g_autofree char *outside = g_build_filename (root, "secret.pt", NULL);
  g_autofree char *link = g_build_filename (data, "link.pt", NULL);
  g_autofree char *ok = record ("torch.float32", "[2]", 1.0, "\"data_name\": \"Functional.relu.0.forward.input.0.pt\"");
  g_autofree char *up = record ("torch.float32", "[2]", 1.0, "\"data_name\": \"../../secret.pt\"");
  g_autofree char *abs = record ("torch.float32", "[2]", 1.0, "\"data_name\": \"/etc/passwd\"");
  g_autofree char *sym = record ("torch.float32", "[2]", 1.0, "\"data_name\": \"link.pt\"");
  g_autofree char *json = g_strdup_printf ("{\"task\": \"tensor\", \"data\": {"
                                           "\"Functional.relu.0.forward\": {\"input_args\": [%s, %s, %s, %s]}}}",
                                           ok, up, abs, sym);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlMsprobeDump) dump = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *module_path = NULL;

  g_assert_cmpint (g_mkdir_with_parents (data, 0700), ==, 0);
  write_file (rank, "dump.json", json);
  write_file (rank, "construct.json",
              "{\"Functional.relu.0.forward\": \"Module.layer1.Block.forward.0\","
              " \"Module.layer1.Block.forward.0\": \"Module.model.Net.forward.0\","
              " \"Module.model.Net.forward.0\": null}");
  write_file (rank, "stack.json",
              "{\"0\": [[\"Functional.relu.0.forward\"], [\"File model.py, line 3, in forward, x = relu(x)\","
              " \"File train.py, line 9, in step, y = net(x)\"]]}");
  write_file (data, "Functional.relu.0.forward.input.0.pt", "x");
  write_file (root, "secret.pt", "x");
  {
    g_autoptr(GFile) link_file = g_file_new_for_path (link);

    g_file_make_symbolic_link (link_file, outside, NULL, &error);
    g_assert_no_error (error);
  }

  g_assert_null (sl_msprobe_dump_open (data, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* The dump root finds step0/rank0. */
  dump = sl_msprobe_dump_open (root, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_msprobe_dump_get_task (dump), ==, "tensor");
  g_assert_cmpuint (sl_msprobe_dump_get_n_tensors (dump), ==, 4);
  expected = g_build_filename (data, "Functional.relu.0.forward.input.0.pt", NULL);
  g_assert_cmpstr (sl_msprobe_dump_get_tensor (dump, 0)->data_path, ==, expected);
  for (guint i = 1; i < 4; i++)
    {
      g_assert_nonnull (sl_msprobe_dump_get_tensor (dump, i)->data_name);
      g_assert_null (sl_msprobe_dump_get_tensor (dump, i)->data_path);
    }
  g_assert_true (has_problem (dump, "out of the dump folder", -1));
  g_assert_true (has_problem (dump, "not a relative file name", -1));
  g_assert_true (has_problem (dump, "symbolic link", -1));
  g_assert_cmpuint (sl_msprobe_dump_get_problems (dump)->len, ==, 3);

  module_path = sl_msprobe_dump_dup_module_path (dump, "Functional.relu.0.forward");
  g_assert_cmpstr (module_path, ==, "Module.model.Net.forward.0 > Module.layer1.Block.forward.0");
  g_assert_cmpstr (sl_msprobe_dump_get_stack (dump, "Functional.relu.0.forward"), ==,
                   "File model.py, line 3, in forward, x = relu(x)\nFile train.py, line 9, in step, y = net(x)");
  g_assert_null (sl_msprobe_dump_get_stack (dump, "Functional.gelu.0.forward"));

  /* The older stack.json keyed by entry; a construct.json loop ends. */
  g_clear_object (&dump);
  write_file (rank, "stack.json", "{\"Functional.relu.0.forward\": [\"File a.py, line 1, in f\"]}");
  write_file (rank, "construct.json", "{\"Functional.relu.0.forward\": \"A\", \"A\": \"B\", \"B\": \"A\"}");
  dump = sl_msprobe_dump_open (rank, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_msprobe_dump_get_stack (dump, "Functional.relu.0.forward"), ==, "File a.py, line 1, in f");
  g_clear_pointer (&module_path, g_free);
  module_path = sl_msprobe_dump_dup_module_path (dump, "Functional.relu.0.forward");
  g_assert_nonnull (module_path);

  remove_tree (root);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/msprobe-dump/keys-in-order", test_keys_in_order);
  g_test_add_func ("/msprobe-dump/parse-entry", test_parse_entry);
  g_test_add_func ("/msprobe-dump/damaged", test_damaged);
  g_test_add_func ("/msprobe-dump/folder", test_folder);
  g_test_add_func ("/tensor-pairing/exact", test_exact_pairing);
  g_test_add_func ("/tensor-pairing/fuzzy", test_fuzzy_pairing);
  g_test_add_func ("/tensor-pairing/mapping", test_mapping);
  g_test_add_func ("/tensor-pairing/dtype-kind-and-counts", test_dtype_kind_and_counts);
  g_test_add_func ("/tensor-pairing/crc", test_crc);

  return g_test_run ();
}
