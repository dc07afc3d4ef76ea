/* test-datasets-summary.c: the summary reader on real files
 *
 * The folder comes from SL_DATASETS_DIR; every test is skipped when it is
 * absent. Expected values were established independently of this reader,
 * by walking the framing and the protobuf wire format of each file with a
 * separate script (see generated__mindinsight-writers/README.md for what
 * the files hold).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-summary-reader.h"

#define MI "generated__mindinsight-writers"
#define TB "janosh__tensorboard-reducer/tests/runs"

typedef struct {
  const char       *tag;
  SlSummaryTagKind  kind;
  guint             n_points;
  gint64            first_step;
  gint64            last_step;
} ExpectedTag;

/* Returns: (transfer full) (nullable): a reader that has read @relative,
 * or %NULL when the test was skipped */
static SlSummaryReader *
read_dataset (const char *relative)
{
  const char *dir = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *path = NULL;
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GError) error = NULL;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return NULL;
    }
  path = g_build_filename (dir, relative, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *message = g_strdup_printf ("%s is not in the datasets folder", relative);
      g_test_skip (message);
      return NULL;
    }

  reader = sl_summary_reader_new (path);
  g_assert_true (sl_summary_reader_update (reader, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&reader);
}

static void
assert_tags (SlSummaryRun      *run,
             const ExpectedTag *expected,
             guint              n_expected)
{
  g_assert_cmpuint (sl_summary_run_get_n_tags (run), ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    {
      gint64 first, last;

      g_assert_cmpstr (sl_summary_run_get_tag_name (run, i), ==, expected[i].tag);
      g_assert_cmpint (sl_summary_run_get_tag_kind (run, i), ==, expected[i].kind);
      g_assert_cmpuint (sl_summary_run_get_tag_info (run, i, &first, &last), ==, expected[i].n_points);
      g_assert_cmpint (first, ==, expected[i].first_step);
      g_assert_cmpint (last, ==, expected[i].last_step);
    }
}

/* The serialized graph holds NUL bytes, so no string search. */
static gboolean
contains (const char *data,
          gsize       len,
          const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (data + i, needle, n) == 0)
      return TRUE;
  return FALSE;
}

static SlSummaryRun *
only_run (SlSummaryReader *reader)
{
  GPtrArray *runs = sl_summary_reader_get_runs (reader);

  g_assert_cmpuint (runs->len, ==, 1);
  return g_ptr_array_index (runs, 0);
}

static void
test_run_small (void)
{
  g_autoptr(SlSummaryReader) reader = read_dataset (MI "/run_small");
  static const ExpectedTag expected[] = {
    { "input_image", SL_SUMMARY_TAG_IMAGE, 5, 40, 200 },
    { "feature_map", SL_SUMMARY_TAG_IMAGE, 5, 40, 200 },
    { "loss", SL_SUMMARY_TAG_SCALAR, 200, 1, 200 },
    { "accuracy", SL_SUMMARY_TAG_SCALAR, 200, 1, 200 },
    { "learning_rate", SL_SUMMARY_TAG_SCALAR, 200, 1, 200 },
    { "conv1.weight", SL_SUMMARY_TAG_HISTOGRAM, 50, 4, 200 },
    { "fc3.bias", SL_SUMMARY_TAG_HISTOGRAM, 50, 4, 200 },
    { "logits", SL_SUMMARY_TAG_TENSOR, 5, 40, 200 },
  };
  static const gint64 logits_dims[5][4] = {
    { 1, 2, 6, 2 }, { 1, 4, 8, 4 }, { 3, 3, 7, 6 }, { 8, 6, 3, 8 }, { 9, 9, 2, 7 },
  };
  SlSummaryRun *run;
  SlSummaryFile *file;
  SlScalarSeries *loss;
  SlImageSeries *images;
  SlHistogramSeries *histograms;
  SlTensorSeries *tensors;
  SlSummaryBlob *graph;
  int width, height, colorspace;
  GBytes *png;
  gsize graph_len;
  const char *graph_data;

  if (reader == NULL)
    return;

  run = only_run (reader);
  g_assert_cmpstr (sl_summary_run_get_name (run), ==, ".");
  g_assert_cmpuint (sl_summary_run_get_n_files (run), ==, 1);
  file = sl_summary_run_get_file (run, 0);
  g_assert_cmpuint (file->n_records, ==, 716);
  g_assert_cmpuint (file->offset, ==, 72392);
  g_assert_cmpuint (file->n_bad, ==, 0);
  g_assert_cmpuint (file->n_undecodable, ==, 0);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);
  assert_tags (run, expected, G_N_ELEMENTS (expected));

  loss = sl_summary_run_get_tag_series (run, 2);
  g_assert_cmpfloat_with_epsilon (sl_scalar_series_get_values (loss)[0], 0.4045199751853943, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_scalar_series_get_values (loss)[199], 0.890561580657959, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_scalar_series_get_wall_times (loss)[0], 1796008984.4097884, 1e-6);

  images = sl_summary_run_get_tag_series (run, 0);
  sl_image_series_get_image (images, 0, &width, &height, &colorspace, &png);
  g_assert_cmpint (width, ==, 5);
  g_assert_cmpint (height, ==, 5);
  g_assert_cmpint (colorspace, ==, 3);
  g_assert_cmpuint (g_bytes_get_size (png), ==, 110);
  g_assert_cmpmem (g_bytes_get_data (png, NULL), 4, "\x89PNG", 4);

  histograms = sl_summary_run_get_tag_series (run, 5);
  for (guint i = 0; i < 50; i++)
    g_assert_cmpuint (sl_histogram_series_get_buckets (histograms, i, NULL, NULL, NULL), ==, 10);

  tensors = sl_summary_run_get_tag_series (run, 7);
  for (guint i = 0; i < 5; i++)
    {
      const gint64 *dims;
      gsize n_values = 1;

      g_assert_cmpuint (sl_tensor_series_get_dims (tensors, i, &dims), ==, 4);
      for (guint d = 0; d < 4; d++)
        {
          g_assert_cmpint (dims[d], ==, logits_dims[i][d]);
          n_values *= dims[d];
        }
      g_assert_cmpuint (sl_tensor_series_get_values (tensors, i, NULL), ==, n_values);
      g_assert_cmpint (sl_tensor_series_get_dtype (tensors, i), ==, 11);
    }

  g_assert_cmpuint (sl_summary_run_get_graphs (run)->len, ==, 1);
  graph = g_ptr_array_index (sl_summary_run_get_graphs (run), 0);
  graph_data = g_bytes_get_data (graph->bytes, &graph_len);
  g_assert_true (contains (graph_data, graph_len, "849_848_847_424_1_construct"));
}

static void
test_run_large (void)
{
  g_autoptr(SlSummaryReader) reader = read_dataset (MI "/run_large");
  static const ExpectedTag expected[] = {
    { "loss", SL_SUMMARY_TAG_SCALAR, 250000, 1, 250000 },
    { "accuracy", SL_SUMMARY_TAG_SCALAR, 250000, 1, 250000 },
    { "learning_rate", SL_SUMMARY_TAG_SCALAR, 250000, 1, 250000 },
    { "grad_norm", SL_SUMMARY_TAG_SCALAR, 250000, 1, 250000 },
  };
  SlSummaryRun *run;
  SlScalarSeries *grad_norm;

  if (reader == NULL)
    return;

  run = only_run (reader);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_records, ==, 1000000);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->offset, ==, 48433960);
  g_assert_cmpuint (sl_summary_run_get_n_bad_records (run), ==, 0);
  assert_tags (run, expected, G_N_ELEMENTS (expected));
  grad_norm = sl_summary_run_get_tag_series (run, 3);
  g_assert_cmpfloat_with_epsilon (sl_scalar_series_get_values (grad_norm)[0], 0.14483144879341125, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_scalar_series_get_values (grad_norm)[249999], 0.7642244100570679, 1e-12);
}

static void
test_graphs_and_landscape (void)
{
  g_autoptr(SlSummaryReader) graphs = read_dataset (MI "/run_graphs");
  g_autoptr(SlSummaryReader) landscape = NULL;
  static const ExpectedTag expected[] = {
    { "loss_landscape", SL_SUMMARY_TAG_LOSS_LANDSCAPE, 1, 3, 3 },
  };
  GPtrArray *runs;

  if (graphs == NULL)
    return;

  runs = sl_summary_reader_get_runs (graphs);
  g_assert_cmpuint (runs->len, ==, 2);
  g_assert_cmpstr (sl_summary_run_get_name (g_ptr_array_index (runs, 0)), ==, "cyclic");
  g_assert_cmpstr (sl_summary_run_get_name (g_ptr_array_index (runs, 1)), ==, "high_degree");
  for (guint i = 0; i < runs->len; i++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, i);

      g_assert_cmpuint (sl_summary_run_get_n_tags (run), ==, 0);
      g_assert_cmpuint (sl_summary_run_get_graphs (run)->len, ==, 1);
      g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);
    }

  landscape = read_dataset (MI "/run_landscape");
  assert_tags (only_run (landscape), expected, G_N_ELEMENTS (expected));
}

static void
test_robustness (void)
{
  g_autoptr(SlSummaryReader) intact = read_dataset (MI "/robustness/events.out.events.summary.1796008984.vm_MS");
  g_autoptr(SlSummaryReader) corrupt = NULL;
  g_autoptr(SlSummaryReader) truncated = NULL;
  static const ExpectedTag expected_intact[] = {
    { "loss", SL_SUMMARY_TAG_SCALAR, 100, 1, 100 },
    { "accuracy", SL_SUMMARY_TAG_SCALAR, 100, 1, 100 },
  };
  static const ExpectedTag expected_corrupt[] = {
    { "loss", SL_SUMMARY_TAG_SCALAR, 100, 1, 100 },
    { "accuracy", SL_SUMMARY_TAG_SCALAR, 99, 2, 100 },
  };
  static const ExpectedTag expected_truncated[] = {
    { "loss", SL_SUMMARY_TAG_SCALAR, 100, 1, 100 },
    { "accuracy", SL_SUMMARY_TAG_SCALAR, 50, 1, 50 },
  };
  SlSummaryRun *run;
  SlSummaryFile *file;
  SlProblem *problem;

  if (intact == NULL)
    return;

  run = only_run (intact);
  assert_tags (run, expected_intact, G_N_ELEMENTS (expected_intact));
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_records, ==, 200);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);

  /* One flipped payload byte: that record alone is skipped and reported. */
  corrupt = read_dataset (MI "/robustness/events.out.events.summary.1796008984.vm_MS.corrupt");
  run = only_run (corrupt);
  assert_tags (run, expected_corrupt, G_N_ELEMENTS (expected_corrupt));
  file = sl_summary_run_get_file (run, 0);
  g_assert_cmpuint (file->n_records, ==, 199);
  g_assert_cmpuint (file->n_bad, ==, 1);
  g_assert_cmpuint (file->offset, ==, 8800);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 1);
  problem = g_ptr_array_index (sl_summary_run_get_problems (run), 0);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, 4200);
  g_assert_true (g_str_has_suffix (sl_problem_get_path (problem), ".corrupt"));

  /* Cut inside record 150: whole records are read, the tail is left for
   * later and not called damage while the file might still grow. */
  truncated = read_dataset (MI "/robustness/events.out.events.summary.1796008984.vm_MS.truncated");
  run = only_run (truncated);
  assert_tags (run, expected_truncated, G_N_ELEMENTS (expected_truncated));
  file = sl_summary_run_get_file (run, 0);
  g_assert_cmpuint (file->n_records, ==, 150);
  g_assert_cmpuint (file->offset, ==, 6500);
  g_assert_cmpuint (file->tail_bytes, ==, 27);
  g_assert_cmpuint (file->n_bad, ==, 0);
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 0);

  /* Read again without growth: now it is an incomplete file. */
  g_assert_true (sl_summary_reader_update (truncated, NULL, NULL));
  g_assert_cmpuint (sl_summary_run_get_problems (run)->len, ==, 1);
  problem = g_ptr_array_index (sl_summary_run_get_problems (run), 0);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, 6500);

  /* The folder as a run: three files in name order. */
  {
    g_autoptr(SlSummaryReader) folder = read_dataset (MI "/robustness");

    run = only_run (folder);
    g_assert_cmpstr (sl_summary_run_get_name (run), ==, ".");
    g_assert_cmpuint (sl_summary_run_get_n_files (run), ==, 3);
    g_assert_true (g_str_has_suffix (sl_summary_run_get_file (run, 1)->name, ".corrupt"));
    g_assert_cmpuint (sl_summary_run_get_n_bad_records (run), ==, 1);
  }
}

static void
test_lineage (void)
{
  g_autoptr(SlSummaryReader) reader = read_dataset (MI "/run_lineage");
  GPtrArray *runs;
  SlSummaryRun *run;

  if (reader == NULL)
    return;

  runs = sl_summary_reader_get_runs (reader);
  g_assert_cmpuint (runs->len, >=, 6);
  for (guint i = 0; i < runs->len; i++)
    {
      SlSummaryRun *r = g_ptr_array_index (runs, i);

      g_assert_true (g_str_has_prefix (sl_summary_run_get_name (r), "run_0"));
      g_assert_cmpint (sl_summary_run_get_file (r, 0)->kind, ==, SL_SUMMARY_FILE_LINEAGE);
      g_assert_cmpuint (sl_summary_run_get_n_bad_records (r), ==, 0);
      g_assert_cmpuint (sl_summary_run_get_problems (r)->len, ==, 0);
    }

  run = sl_summary_reader_lookup_run (reader, "run_01");
  g_assert_nonnull (run);
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_records, ==, 5);
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "optimizer"), ==, "Momentum");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "learning_rate"), ==, "0.001");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "loss_function"), ==, "SoftmaxCrossEntropyWithLogits");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "epoch"), ==, "10");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "batch_size"), ==, "32");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "device_num"), ==, "1");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "train_dataset_path"), ==, "/home/data/mnist/train");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "train_dataset_size"), ==, "60000");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "network"), ==, "LeNet5");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "loss"), ==, "0.2841");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "model_path"), ==, "/home/ckpt/run_01/lenet-10_1875.ckpt");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_TRAIN, "model_size"), ==, "398458880");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_EVAL, "metric"), ==, "{\"Accuracy\": 0.9132, \"Loss\": 0.2841}");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_EVAL, "valid_dataset_path"), ==, "/home/data/mnist/test");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_EVAL, "valid_dataset_size"), ==, "10000");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "search_id"), ==, "grid_2024");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "eval_note"), ==, "run_01 final eval");
  g_assert_cmpstr (sl_summary_run_get_lineage (run, SL_LINEAGE_USER, "trial"), ==, "run_01");
  g_assert_nonnull (sl_summary_run_get_dataset_graph (run));
}

static void
test_tensorboard (void)
{
  g_autoptr(SlSummaryReader) reader = read_dataset (TB);
  static const ExpectedTag dup[] = {
    { "dup_steps/foo", SL_SUMMARY_TAG_SCALAR, 200, 0, 199 },
    { "dup_steps/bar", SL_SUMMARY_TAG_SCALAR, 200, 0, 199 },
  };
  static const ExpectedTag lax[] = {
    { "lax/foo", SL_SUMMARY_TAG_SCALAR, 110, 0, 109 },
    { "lax/bar_1", SL_SUMMARY_TAG_SCALAR, 110, 0, 109 },
    { "lax/bar_2", SL_SUMMARY_TAG_SCALAR, 110, 0, 109 },
  };
  static const ExpectedTag strict[] = {
    { "strict/foo", SL_SUMMARY_TAG_SCALAR, 100, 0, 495 },
  };
  GPtrArray *runs;
  SlSummaryRun *run;
  SlScalarSeries *series;

  if (reader == NULL)
    return;

  runs = sl_summary_reader_get_runs (reader);
  g_assert_cmpuint (runs->len, ==, 4);
  /* Steps 0–99, then 90–199 after a restart: 90–99 are replaced. */
  run = sl_summary_reader_lookup_run (reader, "duplicate_steps/run_1");
  g_assert_nonnull (run);
  assert_tags (run, dup, G_N_ELEMENTS (dup));
  g_assert_cmpuint (sl_summary_run_get_file (run, 0)->n_records, ==, 421);
  run = sl_summary_reader_lookup_run (reader, "lax/run_1");
  assert_tags (run, lax, G_N_ELEMENTS (lax));
  run = sl_summary_reader_lookup_run (reader, "strict/run_1");
  assert_tags (run, strict, G_N_ELEMENTS (strict));
  series = sl_summary_run_get_tag_series (run, 0);
  g_assert_cmpfloat_with_epsilon (sl_scalar_series_get_values (series)[0], 1.4962565898895264, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_scalar_series_get_values (series)[99], 1.212090253829956, 1e-12);
  run = sl_summary_reader_lookup_run (reader, "strict/run_2");
  assert_tags (run, strict, G_N_ELEMENTS (strict));
  for (guint i = 0; i < runs->len; i++)
    g_assert_cmpuint (sl_summary_run_get_problems (g_ptr_array_index (runs, i))->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/datasets/summary/run-small", test_run_small);
  g_test_add_func ("/datasets/summary/run-large", test_run_large);
  g_test_add_func ("/datasets/summary/graphs-and-landscape", test_graphs_and_landscape);
  g_test_add_func ("/datasets/summary/robustness", test_robustness);
  g_test_add_func ("/datasets/summary/lineage", test_lineage);
  g_test_add_func ("/datasets/summary/tensorboard", test_tensorboard);

  return g_test_run ();
}
