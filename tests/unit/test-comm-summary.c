/* test-comm-summary.c: what the Communication view and the CLI compute
 * from the communication model, checked against values worked out by
 * hand: wait and synchronisation ratios (with zero and unknown parts),
 * the timeline name of an op, the totals row (sums, bandwidth from the
 * summed bytes and time, packet sizes merged, unknown values left out,
 * msprof's own aggregates skipped) and the src × dst matrix of an op
 * (rank order, cells, bad keys and repeated pairs, a cluster file's
 * links of other ranks).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-comm-matrix.h"
#include "sl-comm-totals.h"
#include "sl-communication-reader.h"

static SlCommOp *
add_op (SlCommunication *comm,
        const char      *name,
        double           elapse,
        double           transit,
        double           wait,
        double           sync)
{
  SlCommOp *op = sl_communication_add_op (comm, "/p/communication.json", "step1", "collective", name);

  op->elapse_ms = elapse;
  op->transit_ms = transit;
  op->wait_ms = wait;
  op->sync_ms = sync;
  return op;
}

static void
test_ratios (void)
{
  g_autoptr(SlCommunication) comm = sl_communication_new ();
  SlCommOp *op = add_op (comm, "hcom_allReduce__586_0_1@17522688603477080586", 10, 1.25, 2, 0.5);
  SlCommOp *idle = add_op (comm, "hcom_broadcast_1", 1, 0, 0, 0);
  SlCommOp *unknown = add_op (comm, "hcom_send_2@", 1, NAN, 3, 0);
  g_autofree char *short_name = sl_comm_op_dup_short_name (op);
  g_autofree char *plain = sl_comm_op_dup_short_name (idle);
  g_autofree char *trailing = sl_comm_op_dup_short_name (unknown);

  /* 2 / (2 + 1.25) and 0.5 / (0.5 + 1.25) */
  g_assert_cmpfloat_with_epsilon (sl_comm_op_get_wait_ratio (op), 2 / 3.25, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_comm_op_get_sync_ratio (op), 0.5 / 1.75, 1e-12);
  g_assert_cmpfloat (sl_comm_op_get_wait_ratio (idle), ==, 0);
  g_assert_true (isnan (sl_comm_op_get_wait_ratio (unknown)));
  g_assert_cmpstr (short_name, ==, "hcom_allReduce__586_0_1");
  g_assert_cmpstr (plain, ==, "hcom_broadcast_1");
  g_assert_cmpstr (trailing, ==, "hcom_send_2");
}

/* The real file's first op: Wait Time Ratio 0.9594 as torch_npu wrote it. */
static void
test_ratio_as_written (void)
{
  g_autoptr(SlCommunication) comm = sl_communication_new ();
  SlCommOp *op = add_op (comm, "hcom_allReduce__586_0_1@1", 79.08952021875, 0.23918478124999998,
                         5.64663284375, 5.61569221875);

  g_assert_cmpfloat_with_epsilon (sl_comm_op_get_wait_ratio (op), 0.9594, 0.00005);
  g_assert_cmpfloat_with_epsilon (sl_comm_op_get_sync_ratio (op), 0.9591, 0.00005);
}

static void
test_totals (void)
{
  g_autoptr(SlCommunication) comm = sl_communication_new ();
  g_autoptr(SlCommTotals) totals = sl_comm_totals_new ();
  SlCommOp *a = add_op (comm, "a", 4, 1, 2, 0.5);
  SlCommOp *b = add_op (comm, "b", 6, 3, NAN, 1.5);
  SlCommOp *aggregate = add_op (comm, "Total Op Info", 100, 100, 100, 100);
  SlCommBandwidth *bw;
  const SlCommOp *sum;
  const SlCommBandwidth *hccs, *rdma;

  bw = sl_comm_op_add_bandwidth (a, "HCCS");
  bw->size_mb = 40;
  bw->time_ms = 2.5;
  bw->bandwidth_gbps = 16;
  sl_comm_bandwidth_add_packets (bw, 2.0, 12, 1.5);
  sl_comm_bandwidth_add_packets (bw, 16.0, 1, 0.8);
  bw = sl_comm_op_add_bandwidth (b, "HCCS");
  bw->size_mb = 20;
  bw->time_ms = 3.5;
  bw->bandwidth_gbps = 5.7;
  sl_comm_bandwidth_add_packets (bw, 2.0, 3, 0.5);
  bw = sl_comm_op_add_bandwidth (b, "RDMA");
  bw->size_mb = 0;
  bw->time_ms = 0;

  g_assert_true (sl_comm_totals_add_op (totals, a));
  g_assert_true (sl_comm_totals_add_op (totals, b));
  g_assert_false (sl_comm_totals_add_op (totals, aggregate));
  g_assert_cmpuint (sl_comm_totals_get_n_ops (totals), ==, 2);

  sum = sl_comm_totals_get_op (totals);
  g_assert_cmpfloat (sum->elapse_ms, ==, 10);
  g_assert_cmpfloat (sum->transit_ms, ==, 4);
  /* b's wait is unknown: the sum is a's alone. */
  g_assert_cmpfloat (sum->wait_ms, ==, 2);
  g_assert_cmpfloat (sum->sync_ms, ==, 2);
  g_assert_true (isnan (sum->idle_ms));
  g_assert_cmpfloat_with_epsilon (sl_comm_op_get_wait_ratio (sum), 2.0 / 6.0, 1e-12);

  g_assert_cmpuint (sum->bandwidths->len, ==, 2);
  hccs = g_ptr_array_index (sum->bandwidths, 0);
  g_assert_cmpstr (hccs->transport, ==, "HCCS");
  g_assert_cmpfloat (hccs->size_mb, ==, 60);
  g_assert_cmpfloat (hccs->time_ms, ==, 6);
  /* 60 MB in 6 ms, not the mean of 16 and 5.7 */
  g_assert_cmpfloat (hccs->bandwidth_gbps, ==, 10);
  g_assert_cmpuint (hccs->packets->len, ==, 2);
  g_assert_cmpfloat (g_array_index (hccs->packets, SlCommPackets, 0).size_mb, ==, 2.0);
  g_assert_cmpfloat (g_array_index (hccs->packets, SlCommPackets, 0).count, ==, 15);
  g_assert_cmpfloat (g_array_index (hccs->packets, SlCommPackets, 0).time_ms, ==, 2.0);
  g_assert_cmpfloat (g_array_index (hccs->packets, SlCommPackets, 1).count, ==, 1);
  rdma = g_ptr_array_index (sum->bandwidths, 1);
  g_assert_cmpfloat (rdma->bandwidth_gbps, ==, 0);

  sl_comm_totals_clear (totals);
  g_assert_cmpuint (sl_comm_totals_get_n_ops (totals), ==, 0);
  g_assert_true (isnan (sl_comm_totals_get_op (totals)->elapse_ms));
  g_assert_cmpuint (sl_comm_totals_get_op (totals)->bandwidths->len, ==, 0);
}

static const char *matrix_json =
  "{\"step3\": {\"p2p\": {}, \"collective\": {\n"
  " \"allreduce-top1@9\": {\n"
  "  \"0-0\": {\"Transport Type\": \"LOCAL\", \"Transit Size(MB)\": 4, \"Transit Time(ms)\": 0.01, \"Bandwidth(GB/s)\": 400},\n"
  "  \"0-7\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 60, \"Transit Time(ms)\": 4, \"Bandwidth(GB/s)\": 15},\n"
  "  \"0-1\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 30, \"Transit Time(ms)\": 2, \"Bandwidth(GB/s)\": 14},\n"
  "  \"0-x\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 1, \"Transit Time(ms)\": 1, \"Bandwidth(GB/s)\": 999}},\n"
  " \"allreduce-total@9\": {\n"
  "  \"0-1\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 90, \"Transit Time(ms)\": 6, \"Bandwidth(GB/s)\": 15}}}}}\n";

static void
test_matrix (void)
{
  g_autoptr(SlCommunication) comm = sl_communication_new ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) ops = NULL;
  g_autoptr(SlCommMatrix) matrix = NULL;
  const SlCommLink *cell;

  sl_communication_read_data (comm, "/p/communication_matrix.json", SL_COMM_FORMAT_MATRIX, matrix_json,
                              strlen (matrix_json), problems);
  ops = sl_comm_matrix_list_ops (comm, 0);
  g_assert_cmpuint (ops->len, ==, 2);
  g_assert_cmpstr (((const SlCommLink *)g_ptr_array_index (ops, 0))->op, ==, "allreduce-top1@9");
  g_assert_cmpstr (((const SlCommLink *)g_ptr_array_index (ops, 1))->op, ==, "allreduce-total@9");

  matrix = sl_comm_matrix_new (comm, 0, g_ptr_array_index (ops, 0));
  /* "0-x" names no rank and is left out; ranks come in order. */
  g_assert_cmpuint (sl_comm_matrix_get_n_ranks (matrix), ==, 3);
  g_assert_cmpint (sl_comm_matrix_get_rank (matrix, 0), ==, 0);
  g_assert_cmpint (sl_comm_matrix_get_rank (matrix, 1), ==, 1);
  g_assert_cmpint (sl_comm_matrix_get_rank (matrix, 2), ==, 7);
  cell = sl_comm_matrix_get_cell (matrix, 0, 2);
  g_assert_nonnull (cell);
  g_assert_cmpstr (cell->transport, ==, "HCCS");
  g_assert_cmpfloat (cell->size_mb, ==, 60);
  g_assert_cmpfloat (cell->bandwidth_gbps, ==, 15);
  g_assert_cmpstr (sl_comm_matrix_get_cell (matrix, 0, 0)->transport, ==, "LOCAL");
  g_assert_null (sl_comm_matrix_get_cell (matrix, 1, 0));
  g_assert_null (sl_comm_matrix_get_cell (matrix, 2, 2));
  g_assert_cmpfloat (sl_comm_matrix_get_max_bandwidth (matrix), ==, 400);
}

/* A cluster file's links belong to their source rank. */
static void
test_matrix_cluster (void)
{
  g_autoptr(SlCommunication) comm = sl_communication_new ();
  g_autoptr(GPtrArray) ops = NULL;
  g_autoptr(SlCommMatrix) matrix = NULL;
  SlCommLink *link;

  link = sl_communication_add_link (comm, "/c/cluster_communication_matrix.json", "step1", "(0,1)", "allreduce@1", "0-1");
  link->cluster = TRUE;
  link->bandwidth_gbps = 10;
  link = sl_communication_add_link (comm, "/c/cluster_communication_matrix.json", "step1", "(0,1)", "allreduce@1", "1-0");
  link->cluster = TRUE;
  link->bandwidth_gbps = 20;
  link = sl_communication_add_link (comm, "/c/cluster_communication_matrix.json", "step1", "(0,1)", "allreduce@1", "0-1");
  link->cluster = TRUE;
  link->bandwidth_gbps = 30;

  ops = sl_comm_matrix_list_ops (comm, 1);
  g_assert_cmpuint (ops->len, ==, 1);
  matrix = sl_comm_matrix_new (comm, 1, g_ptr_array_index (ops, 0));
  g_assert_cmpuint (sl_comm_matrix_get_n_ranks (matrix), ==, 2);
  g_assert_null (sl_comm_matrix_get_cell (matrix, 0, 1));
  g_assert_cmpfloat (sl_comm_matrix_get_cell (matrix, 1, 0)->bandwidth_gbps, ==, 20);
  g_clear_pointer (&matrix, sl_comm_matrix_free);

  /* Rank 0's view: the repeated 0-1 pair keeps its first link. */
  matrix = sl_comm_matrix_new (comm, 0, g_ptr_array_index (ops, 0));
  g_assert_cmpfloat (sl_comm_matrix_get_cell (matrix, 0, 1)->bandwidth_gbps, ==, 10);
  g_assert_null (sl_comm_matrix_get_cell (matrix, 1, 0));
  g_assert_cmpfloat (sl_comm_matrix_get_max_bandwidth (matrix), ==, 10);
  g_clear_pointer (&ops, g_ptr_array_unref);

  ops = sl_comm_matrix_list_ops (comm, 5);
  g_assert_cmpuint (ops->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/comm-summary/ratios", test_ratios);
  g_test_add_func ("/comm-summary/ratio-as-written", test_ratio_as_written);
  g_test_add_func ("/comm-summary/totals", test_totals);
  g_test_add_func ("/comm-summary/matrix", test_matrix);
  g_test_add_func ("/comm-summary/matrix-cluster", test_matrix_cluster);
  return g_test_run ();
}
