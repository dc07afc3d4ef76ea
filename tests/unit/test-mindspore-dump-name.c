/* test-mindspore-dump-name.c: MindSpore dump file names read from both
 * ends, names that are not dump names, and two dumps paired by op name,
 * input or output and index in time order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-mindspore-dump-name.h"

static void
test_parse (void)
{
  g_autoptr(SlMindsporeDumpName) name =
    sl_mindspore_dump_name_parse ("Conv2D.Default--network-WithLossCell--_backbone-LeNet5--conv1-Conv2d--Conv2D-op12.2.7.1623124369613540.output.0.DefaultFormat.npy");
  g_autoptr(SlMindsporeDumpName) dotted =
    sl_mindspore_dump_name_parse ("MatMul.Default--fc.1--MatMul-op3.0.0.99.input.1.NC1HWC0.float16.npy");

  g_assert_nonnull (name);
  g_assert_cmpstr (name->op_type, ==, "Conv2D");
  g_assert_cmpstr (name->op_name, ==, "Default--network-WithLossCell--_backbone-LeNet5--conv1-Conv2d--Conv2D-op12");
  g_assert_cmpstr (name->scope, ==, "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op12");
  g_assert_cmpuint (name->task_id, ==, 2);
  g_assert_cmpuint (name->stream_id, ==, 7);
  g_assert_cmpuint (name->timestamp, ==, G_GUINT64_CONSTANT (1623124369613540));
  g_assert_true (name->output);
  g_assert_cmpuint (name->index, ==, 0);
  g_assert_cmpstr (name->format, ==, "DefaultFormat");
  g_assert_null (name->dtype);
  g_assert_cmpstr (name->key, ==, "Default--network-WithLossCell--_backbone-LeNet5--conv1-Conv2d--Conv2D-op12.output.0");

  /* A dot inside the op name, and the dtype of newer versions. */
  g_assert_nonnull (dotted);
  g_assert_cmpstr (dotted->op_name, ==, "Default--fc.1--MatMul-op3");
  g_assert_false (dotted->output);
  g_assert_cmpuint (dotted->index, ==, 1);
  g_assert_cmpstr (dotted->format, ==, "NC1HWC0");
  g_assert_cmpstr (dotted->dtype, ==, "float16");
}

static void
test_not_dump_names (void)
{
  const char *names[] = {
    "",
    ".npy",
    "weights.npy",
    "Add.op.1.2.3.output.0.DefaultFormat.txt",
    "Add.op.1.2.x.output.0.DefaultFormat.npy",
    "Add.op.1.2.3.output.-1.DefaultFormat.npy",
    "Add.op.1.2.3.output.0.npy",
    "Add.1.2.3.output.0.DefaultFormat.npy",
    ".op.1.2.3.output.0.DefaultFormat.npy",
    "Add.op.1.2.3.output.0..npy",
    "Add.op.1.2.3.output.99999999999.DefaultFormat.npy",
    "Add.op.1.2.3.output.0.DefaultFormat.float16.extra.npy",
    "../Add.op.1.2.3.output.0.DefaultFormat.npy",
    "Add.op.1.2.123456789012345678901234.output.0.DefaultFormat.npy",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(SlMindsporeDumpName) name = sl_mindspore_dump_name_parse (names[i]);

      if (name != NULL)
        g_error ("“%s” was read as a dump name", names[i]);
    }
}

static GPtrArray *
parse_all (const char * const *names,
           guint                n)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_mindspore_dump_name_free);

  for (guint i = 0; i < n; i++)
    {
      SlMindsporeDumpName *name = sl_mindspore_dump_name_parse (names[i]);

      g_assert_nonnull (name);
      g_ptr_array_add (out, name);
    }
  return out;
}

static void
test_pairing (void)
{
  /* Two iterations of Add's output on each side (listed out of time
   * order on the NPU side), an input only on the NPU, a Mul only on the
   * benchmark; task and stream ids and formats differ and do not matter. */
  const char *npu_names[] = {
    "Add.Default--Add-op1.5.0.300.output.0.NC1HWC0.npy",
    "Add.Default--Add-op1.5.0.100.output.0.NC1HWC0.npy",
    "Add.Default--Add-op1.5.0.100.input.1.NC1HWC0.npy",
  };
  const char *bench_names[] = {
    "Add.Default--Add-op1.1.1.20.output.0.DefaultFormat.npy",
    "Add.Default--Add-op1.1.1.40.output.0.DefaultFormat.npy",
    "Mul.Default--Mul-op2.1.1.50.output.0.DefaultFormat.npy",
  };
  g_autoptr(GPtrArray) npu = parse_all (npu_names, G_N_ELEMENTS (npu_names));
  g_autoptr(GPtrArray) bench = parse_all (bench_names, G_N_ELEMENTS (bench_names));
  g_autoptr(GArray) pairs = sl_mindspore_dump_names_pair (npu, bench);
  const SlMindsporeDumpPair *p;

  g_assert_cmpuint (pairs->len, ==, 4);
  p = &g_array_index (pairs, SlMindsporeDumpPair, 0);
  g_assert_cmpuint (p->npu->timestamp, ==, 300);
  g_assert_cmpuint (p->bench->timestamp, ==, 40);
  p = &g_array_index (pairs, SlMindsporeDumpPair, 1);
  g_assert_cmpuint (p->npu->timestamp, ==, 100);
  g_assert_cmpuint (p->bench->timestamp, ==, 20);
  p = &g_array_index (pairs, SlMindsporeDumpPair, 2);
  g_assert_false (p->npu->output);
  g_assert_null (p->bench);
  p = &g_array_index (pairs, SlMindsporeDumpPair, 3);
  g_assert_null (p->npu);
  g_assert_cmpstr (p->bench->op_type, ==, "Mul");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mindspore-dump-name/parse", test_parse);
  g_test_add_func ("/mindspore-dump-name/not-dump-names", test_not_dump_names);
  g_test_add_func ("/mindspore-dump-name/pairing", test_pairing);

  return g_test_run ();
}
