/* test-communication.c: the communication reader on generated files of
 * every format (communication.json, communication_matrix.json, hccl_raw,
 * msprof-analyze's cluster files), with exact values and offsets, and on
 * damaged ones: cut JSON, numbers as strings, negative and NaN sizes,
 * empty steps, a root that is no object, a damaged CSV cell; and the
 * profile loader attaching the data to its ranks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "sl-communication-reader.h"
#include "sl-profile-loader.h"

static const char *ops_json =
  "{\"step3\": {\"p2p\": {}, \"collective\": {\n"
  "  \"hcom_allReduce__1_0_1@9\": {\"Communication Time Info\": {\"Start Timestamp(us)\": 1736408883732241.5,"
  " \"Elapse Time(ms)\": 4.5, \"Transit Time(ms)\": \"1.25\", \"Wait Time(ms)\": 2, \"Synchronization Time(ms)\": 0.5,"
  " \"Idle Time(ms)\": 0.75},\n"
  "   \"Communication Bandwidth Info\": {\"HCCS\": {\"Transit Size(MB)\": 40.0, \"Transit Time(ms)\": 2.5,"
  " \"Bandwidth(GB/s)\": 16.0, \"Large Packet Ratio\": 0.0, \"Size Distribution\": {\"2.0\": [12, 1.5], \"16.0\": [1, 0.8]}},"
  " \"RDMA\": {\"Transit Size(MB)\": 0, \"Transit Time(ms)\": 0, \"Bandwidth(GB/s)\": 0, \"Size Distribution\": {}}}},\n"
  "  \"Total Op Info\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 4.5}}}}}\n";

static const char *matrix_json =
  "{\"step3\": {\"p2p\": {}, \"collective\": {\"allreduce-total@9\": {\n"
  "  \"0-0\": {\"Transport Type\": \"LOCAL\", \"Transit Size(MB)\": 4, \"Transit Time(ms)\": 0.01, \"Bandwidth(GB/s)\": 400},\n"
  "  \"0-1\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": 60, \"Transit Time(ms)\": 4, \"Bandwidth(GB/s)\": 15,"
  " \"Op Name\": \"hcom_allReduce__1_0_1\"}}}}}\n";

static SlCommunication *
read_text (const char   *path,
           SlCommFormat  format,
           const char   *text,
           GPtrArray   **problems)
{
  SlCommunication *comm = sl_communication_new ();

  *problems = g_ptr_array_new_with_free_func (g_object_unref);
  sl_communication_read_data (comm, path, format, text, strlen (text), *problems);
  return comm;
}

static void
test_ops (void)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(SlCommunication) comm = read_text ("/p/communication.json", SL_COMM_FORMAT_OPS, ops_json, &problems);
  const SlCommOp *op;
  const SlCommBandwidth *hccs;
  const SlCommPackets *packets;

  g_assert_cmpuint (problems->len, ==, 0);
  /* "Total Op Info" is the file's own sum and is not an op. */
  g_assert_cmpuint (sl_communication_get_n_ops (comm), ==, 1);
  op = sl_communication_get_op (comm, 0);
  g_assert_cmpstr (op->step, ==, "step3");
  g_assert_cmpstr (op->group, ==, "collective");
  g_assert_cmpstr (op->name, ==, "hcom_allReduce__1_0_1@9");
  g_assert_cmpint (op->offset, ==, strstr (ops_json, "\"hcom") - ops_json);
  g_assert_cmpint (op->rank_id, ==, -1);
  g_assert_cmpfloat (op->start_us, ==, 1736408883732241.5);
  g_assert_cmpfloat (op->elapse_ms, ==, 4.5);
  g_assert_cmpfloat (op->transit_ms, ==, 1.25);   /* written as a string */
  g_assert_cmpfloat (op->wait_ms, ==, 2);
  g_assert_cmpfloat (op->idle_ms, ==, 0.75);
  g_assert_cmpuint (op->bandwidths->len, ==, 2);
  hccs = g_ptr_array_index (op->bandwidths, 0);
  g_assert_cmpstr (hccs->transport, ==, "HCCS");
  g_assert_cmpfloat (hccs->size_mb, ==, 40);
  g_assert_cmpfloat (hccs->time_ms, ==, 2.5);
  g_assert_cmpfloat (hccs->bandwidth_gbps, ==, 16);
  g_assert_cmpuint (hccs->packets->len, ==, 2);
  packets = &g_array_index (hccs->packets, SlCommPackets, 0);
  g_assert_cmpfloat (packets->size_mb, ==, 2);
  g_assert_cmpfloat (packets->count, ==, 12);
  g_assert_cmpfloat (packets->time_ms, ==, 1.5);
  g_assert_cmpuint (((SlCommBandwidth *)g_ptr_array_index (op->bandwidths, 1))->packets->len, ==, 0);
}

static void
test_matrix (void)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(SlCommunication) comm = read_text ("/p/communication_matrix.json", SL_COMM_FORMAT_MATRIX, matrix_json, &problems);
  const SlCommLink *link;

  g_assert_cmpuint (problems->len, ==, 0);
  g_assert_cmpuint (sl_communication_get_n_links (comm), ==, 2);
  link = sl_communication_get_link (comm, 1);
  g_assert_cmpstr (link->key, ==, "0-1");
  g_assert_cmpint (link->src, ==, 0);
  g_assert_cmpint (link->dst, ==, 1);
  g_assert_cmpstr (link->op, ==, "allreduce-total@9");
  g_assert_true (sl_communication_is_total_name (link->op));
  g_assert_false (sl_communication_is_total_name ("allreduce-top1@9"));
  g_assert_cmpstr (link->transport, ==, "HCCS");
  g_assert_cmpstr (link->op_name, ==, "hcom_allReduce__1_0_1");
  g_assert_cmpfloat (link->size_mb, ==, 60);
  g_assert_cmpfloat (link->time_ms, ==, 4);
  g_assert_cmpfloat (link->bandwidth_gbps, ==, 15);
  g_assert_false (link->cluster);
  g_assert_cmpint (link->offset, ==, strstr (matrix_json, "\"0-1\"") - matrix_json);
  g_assert_cmpstr (link->path, ==, "/p/communication_matrix.json");
}

static void
test_cluster (void)
{
  const char *ops = "{\"(0, 1)\": {\"step\": {\"hcom_allReduce__1_0_1@9\": {"
                    "\"0\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 3}},"
                    " \"1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 5}, \"Communication Bandwidth Info\":"
                    " {\"RDMA\": {\"Transit Size(MB)\": 8, \"Transit Time(ms)\": 1, \"Size Distribution\": {\"0.5\": [4, 0.5]}}}}}}}}";
  const char *matrix = "{\"(0, 1)\": {\"step\": {\"allreduce-total@9\": {\"1-0\": {\"Transport Type\": \"RDMA\","
                       " \"Transit Size(MB)\": 8, \"Transit Time(ms)\": 1, \"Bandwidth(GB/s)\": 8}}}}}";
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) more = NULL;
  g_autoptr(SlCommunication) comm = read_text ("/c/cluster_communication.json", SL_COMM_FORMAT_CLUSTER_OPS, ops, &problems);
  g_autoptr(SlCommunication) links = read_text ("/c/cluster_communication_matrix.json", SL_COMM_FORMAT_CLUSTER_MATRIX,
                                                matrix, &more);
  const SlCommOp *op;
  const SlCommLink *link;

  g_assert_cmpuint (problems->len + more->len, ==, 0);
  g_assert_cmpuint (sl_communication_get_n_ops (comm), ==, 2);
  op = sl_communication_get_op (comm, 1);
  g_assert_cmpint (op->rank_id, ==, 1);
  g_assert_cmpstr (op->group, ==, "(0, 1)");
  g_assert_cmpstr (op->step, ==, "step");
  g_assert_cmpfloat (op->elapse_ms, ==, 5);
  g_assert_cmpuint (((SlCommBandwidth *)g_ptr_array_index (op->bandwidths, 0))->packets->len, ==, 1);
  g_assert_true (sl_comm_op_is_for_rank (op, 1));
  g_assert_false (sl_comm_op_is_for_rank (op, 0));

  link = sl_communication_get_link (links, 0);
  g_assert_true (link->cluster);
  g_assert_true (sl_comm_link_is_for_rank (link, 1));
  g_assert_false (sl_comm_link_is_for_rank (link, 0));
}

static void
test_hccl_raw (void)
{
  const char *csv =
    "step_num,communication_cost,wait_cost,link_info,communication_operator_cost\n"
    "1,7.9,2000.8,\"{\"\"1-0\"\": {\"\"SDMA\"\": [5.0, 95000.0, 99.0]}, \"\"0-0\"\": {\"\"SDMA\"\": [2.5, 50000.0, 1.0]}}\","
    "\"{\"\"stream_27_1_AllReduce-op17643\"\": [\"\"1\"\", 0.0033, 0.029, {\"\"1-0\"\": {\"\"SDMA\"\": [0.0025, 4.096, 1.0]}}]}\"\n"
    "2,1.0,1.0,not json,\"{\"\"op\"\": [\"\"2\"\", 1, 1, {\"\"1-0\"\": {\"\"SDMA\"\": [\"\"x\"\", 1]}}]}\"\n"
    "-,1.0,1.0,\"{\"\"1-0\"\": {\"\"SDMA\"\": [1, 1, 1]}}\",\"{}\"\n";
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(SlCommunication) comm = read_text ("/m/hccl_raw_2.csv", SL_COMM_FORMAT_HCCL_RAW, csv, &problems);
  const SlCommLink *link;
  const SlCommOp *op;
  const SlCommBandwidth *sdma;

  /* Step 1's two links; step 2's cell is no JSON; the "-" row averages. */
  g_assert_cmpuint (sl_communication_get_n_links (comm), ==, 2);
  link = sl_communication_get_link (comm, 0);
  g_assert_cmpstr (link->key, ==, "1-0");
  g_assert_cmpstr (link->step, ==, "1");
  g_assert_cmpstr (link->transport, ==, "SDMA");
  g_assert_cmpfloat (link->time_ms, ==, 5.0);
  /* KB → MB, and the bandwidth from size and time, not the file's sum. */
  g_assert_cmpfloat_with_epsilon (link->size_mb, 95.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (link->bandwidth_gbps, 19.0, 1e-9);
  g_assert_cmpuint (link->line, ==, 2);

  g_assert_cmpuint (sl_communication_get_n_ops (comm), ==, 2);
  op = sl_communication_get_op (comm, 0);
  g_assert_cmpstr (op->name, ==, "stream_27_1_AllReduce-op17643");
  g_assert_cmpfloat (op->elapse_ms, ==, 0.0033);
  g_assert_cmpfloat (op->wait_ms, ==, 0.029);
  sdma = g_ptr_array_index (op->bandwidths, 0);
  g_assert_cmpuint (sdma->packets->len, ==, 1);
  g_assert_cmpfloat_with_epsilon (g_array_index (sdma->packets, SlCommPackets, 0).size_mb, 0.004096, 1e-12);
  /* The op of step 2 has a cost that is not [time, size, ...]. */
  g_assert_cmpuint (sl_communication_get_op (comm, 1)->bandwidths->len, ==, 0);
  /* "not json" in link_info, and the bad cost entry. */
  g_assert_cmpuint (problems->len, ==, 2);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), ==, strstr (csv, "\n2,") + 1 - csv);
}

/* A cut file keeps the op before the cut and says where it ended. */
static void
test_truncated (void)
{
  g_autofree char *cut = g_strndup (ops_json, strstr (ops_json, "\"RDMA\"") - ops_json + 10);
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(SlCommunication) comm = read_text ("/p/communication.json", SL_COMM_FORMAT_OPS, cut, &problems);
  const SlCommOp *op;

  g_assert_cmpuint (sl_communication_get_n_ops (comm), ==, 1);
  op = sl_communication_get_op (comm, 0);
  g_assert_cmpfloat (op->elapse_ms, ==, 4.5);
  g_assert_cmpuint (((SlCommBandwidth *)g_ptr_array_index (op->bandwidths, 0))->packets->len, ==, 2);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), ==, strlen (cut));
  g_assert_cmpint (sl_problem_get_severity (g_ptr_array_index (problems, 0)), ==, SL_SEVERITY_ERROR);
}

/* Negative, NaN and unparsable values are unknown and reported where
 * their key is; a damaged byte stops the reading there. */
static void
test_bad_values (void)
{
  const char *bad = "{\"step\": {\"collective\": {\"allreduce-total@1\": {\"0-1\": {\"Transport Type\": \"HCCS\", \"Transit Size(MB)\": -3,"
                    " \"Transit Time(ms)\": \"NaN\", \"Bandwidth(GB/s)\": \"fast\"}, \"0-2\": {\"Transport Type\": 7,"
                    " \"Transit Size(MB)\": 1e400}}}}}";
  const char *bad_ops = "{\"step\": {\"collective\": {\"op@1\": {\"Communication Bandwidth Info\": {\"SDMA\": {"
                        "\"Size Distribution\": {\"-1\": [1, 1], \"2\": [\"x\", 1], \"3\": [2], \"4\": [1, 0.5]}}}}}}}";
  const char *damaged = "{\"step\": {\"collective\": {\"op@1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 1}}, "
                        "\"op@2\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 2 3}}}}}";
  g_autoptr(GPtrArray) problems = NULL, op_problems = NULL, damage = NULL;
  g_autoptr(SlCommunication) comm = read_text ("/p/m.json", SL_COMM_FORMAT_MATRIX, bad, &problems);
  g_autoptr(SlCommunication) ops = read_text ("/p/c.json", SL_COMM_FORMAT_OPS, bad_ops, &op_problems);
  g_autoptr(SlCommunication) cut = read_text ("/p/d.json", SL_COMM_FORMAT_OPS, damaged, &damage);
  const SlCommLink *link = sl_communication_get_link (comm, 0);
  const SlCommBandwidth *sdma;

  g_assert_cmpuint (sl_communication_get_n_links (comm), ==, 2);
  g_assert_true (isnan (link->size_mb));
  g_assert_true (isnan (link->time_ms));
  g_assert_true (isnan (link->bandwidth_gbps));
  g_assert_cmpstr (link->transport, ==, "HCCS");
  g_assert_null (sl_communication_get_link (comm, 1)->transport);
  g_assert_true (isnan (sl_communication_get_link (comm, 1)->size_mb));
  g_assert_cmpuint (problems->len, ==, 4);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (problems, 0)), ==, strstr (bad, "\"Transit Size") - bad);

  /* Only the size 4 entry is whole. */
  sdma = g_ptr_array_index (sl_communication_get_op (ops, 0)->bandwidths, 0);
  g_assert_cmpuint (sdma->packets->len, ==, 1);
  g_assert_cmpfloat (g_array_index (sdma->packets, SlCommPackets, 0).size_mb, ==, 4);
  g_assert_cmpuint (op_problems->len, ==, 2);

  g_assert_cmpuint (sl_communication_get_n_ops (cut), ==, 2);
  g_assert_cmpfloat (sl_communication_get_op (cut, 0)->elapse_ms, ==, 1);
  g_assert_true (isnan (sl_communication_get_op (cut, 1)->elapse_ms) ||
                 sl_communication_get_op (cut, 1)->elapse_ms == 2);
  g_assert_cmpuint (damage->len, ==, 1);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (damage, 0)), >=, strstr (damaged, " 3}") - damaged);
}

/* Plain decimals are read without strtod; every form must still give
 * exactly what strtod gives, and what is not a plain decimal falls back
 * to it. */
static void
test_numbers (void)
{
  static const char *const values[] = {
    "0", "16", "0.5", "0.1", "1.2345", "123456789012345", "12345678901234.5", "0.000000000000001",
    "1234567890123456", "9007199254740993", "1e3", "2.5E-2", "0.30000000000000004", "\"7.25\"", "\" 3.5\"",
  };
  g_autoptr(GString) json = g_string_new ("{\"step1\": {\"collective\": {");

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_string_append_printf (json, "%s\"op%u@1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": %s}}", i ? ", " : "",
                            i, values[i]);
  g_string_append (json, "}}}");
  {
    g_autoptr(GPtrArray) problems = NULL;
    g_autoptr(SlCommunication) comm = read_text ("/p/n.json", SL_COMM_FORMAT_OPS, json->str, &problems);

    g_assert_cmpuint (problems->len, ==, 0);
    g_assert_cmpuint (sl_communication_get_n_ops (comm), ==, G_N_ELEMENTS (values));
    for (guint i = 0; i < G_N_ELEMENTS (values); i++)
      {
        g_autofree char *bare = g_strstrip (g_strdelimit (g_strdup (values[i]), "\"", ' '));

        g_assert_cmpfloat (sl_communication_get_op (comm, i)->elapse_ms, ==, g_ascii_strtod (bare, NULL));
      }
  }

  /* Not numbers, or negative: unknown and reported, as before. */
  {
    const char *bad = "{\"step1\": {\"collective\": {\"a@1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": \"1.\"}},"
                      " \"b@1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": -2}},"
                      " \"c@1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": \"1..2\"}}}}}";
    g_autoptr(GPtrArray) problems = NULL;
    g_autoptr(SlCommunication) comm = read_text ("/p/b.json", SL_COMM_FORMAT_OPS, bad, &problems);

    /* "1." is a number to strtod, as it always was. */
    g_assert_cmpfloat (sl_communication_get_op (comm, 0)->elapse_ms, ==, 1);
    g_assert_true (isnan (sl_communication_get_op (comm, 1)->elapse_ms));
    g_assert_true (isnan (sl_communication_get_op (comm, 2)->elapse_ms));
    g_assert_cmpuint (problems->len, ==, 2);
  }
}

static void
test_empty (void)
{
  const char *cases[] = { "{}", "{\"step1\": {}, \"step2\": {\"p2p\": {}, \"collective\": {}}}", "[1, 2]", "42", "" };
  guint expected_problems[] = { 0, 0, 1, 1, 1 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) problems = NULL;
      g_autoptr(SlCommunication) comm = read_text ("/p/communication.json", SL_COMM_FORMAT_OPS, cases[i], &problems);

      g_assert_true (sl_communication_is_empty (comm));
      g_assert_cmpuint (problems->len, ==, expected_problems[i]);
    }
  g_assert_cmpint (sl_communication_format_for_path ("/x/cluster_communication_matrix.json"), ==, SL_COMM_FORMAT_CLUSTER_MATRIX);
  g_assert_cmpint (sl_communication_format_for_path ("/x/hccl_raw_12.csv"), ==, SL_COMM_FORMAT_HCCL_RAW);
  g_assert_cmpint (sl_communication_format_for_path ("/x/other.json"), ==, SL_COMM_FORMAT_NONE);
}

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

/* The loader puts a rank's two files into one object, and gives msprof-
 * analyze's cluster files to the ranks they are about. */
static void
test_loader (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-communication-XXXXXX", &error);
  g_autofree char *output = g_build_filename (dir, "rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT", NULL);
  g_autofree char *cluster = g_build_filename (dir, "cluster_analysis_output", NULL);
  g_autoptr(SlProfile) profile = NULL;
  guint n_comm = 0, n_cluster = 0;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (output, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (cluster, 0755), ==, 0);
  write_file (output, "communication.json", ops_json);
  write_file (output, "communication_matrix.json", matrix_json);
  write_file (cluster, "cluster_communication_matrix.json",
              "{\"(0, 1)\": {\"step\": {\"allreduce-total@9\": {\"1-0\": {\"Transport Type\": \"RDMA\","
              " \"Transit Size(MB)\": 8, \"Transit Time(ms)\": 1}}}}}");
  profile = sl_profile_load (dir, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (profile, i);

      if (rank->communication == NULL)
        continue;
      n_comm++;
      if (rank->layout == SL_PROFILE_LAYOUT_CLUSTER)
        {
          n_cluster++;
          g_assert_cmpint (rank->rank_id, ==, 1);
          g_assert_cmpstr (rank->label, ==, "rank 1");
          g_assert_cmpuint (sl_communication_get_n_links (rank->communication), ==, 1);
        }
      else
        {
          g_assert_cmpuint (sl_communication_get_n_ops (rank->communication), ==, 1);
          g_assert_cmpuint (sl_communication_get_n_links (rank->communication), ==, 2);
          g_assert_cmpuint (sl_communication_get_files (rank->communication)->len, ==, 2);
        }
    }
  g_assert_cmpuint (n_comm, ==, 2);
  g_assert_cmpuint (n_cluster, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/communication/ops", test_ops);
  g_test_add_func ("/communication/matrix", test_matrix);
  g_test_add_func ("/communication/cluster", test_cluster);
  g_test_add_func ("/communication/hccl-raw", test_hccl_raw);
  g_test_add_func ("/communication/truncated", test_truncated);
  g_test_add_func ("/communication/bad-values", test_bad_values);
  g_test_add_func ("/communication/numbers", test_numbers);
  g_test_add_func ("/communication/empty", test_empty);
  g_test_add_func ("/communication/loader", test_loader);

  return g_test_run ();
}
