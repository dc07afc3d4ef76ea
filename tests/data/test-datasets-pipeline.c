/* test-datasets-pipeline.c: the pipeline reader and check on every real
 * *.pipeline of the datasets folder
 *
 * Every file reads completely and checks without a crash, with every
 * problem positioned; two files are compared with what was read off them
 * by hand: their streams, elements, links, props and problems.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-pipeline-check.h"
#include "sl-pipeline-reader.h"

static char *
dataset_path (const char *relative)
{
  const char *dir = g_getenv ("SL_DATASETS_DIR");

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return NULL;
    }
  return g_build_filename (dir, relative, NULL);
}

static void
find_pipelines (const char *dir,
                GPtrArray  *found)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  if (listing == NULL)
    return;
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        find_pipelines (path, found);
      else if (g_str_has_suffix (name, ".pipeline"))
        g_ptr_array_add (found, g_steal_pointer (&path));
    }
}

static SlPipeline *
read_dataset (const char  *relative,
              GPtrArray  **problems)
{
  g_autofree char *path = dataset_path (relative);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  SlPipeline *pipeline;

  if (path == NULL)
    return NULL;
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *message = g_strdup_printf ("%s is not in the datasets folder", relative);

      g_test_skip (message);
      return NULL;
    }
  file = g_file_new_for_path (path);
  pipeline = sl_pipeline_reader_read_file (file, NULL, &error);
  g_assert_no_error (error);
  *problems = sl_pipeline_check (pipeline, NULL, NULL);
  return pipeline;
}

static void
test_every_pipeline (void)
{
  g_autofree char *root = dataset_path ("");
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);

  if (root == NULL)
    return;
  find_pipelines (root, found);
  g_assert_cmpuint (found->len, >=, 6);

  for (guint i = 0; i < found->len; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (g_ptr_array_index (found, i));
      g_autoptr(GError) error = NULL;
      g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_file (file, NULL, &error);
      g_autoptr(GPtrArray) problems = NULL;

      g_assert_no_error (error);
      g_assert_true (sl_pipeline_is_complete (pipeline));
      g_assert_cmpuint (sl_pipeline_get_n_streams (pipeline), >=, 1);
      problems = sl_pipeline_check (pipeline, NULL, NULL);
      for (guint p = 0; p < problems->len; p++)
        {
          SlProblem *problem = g_ptr_array_index (problems, p);

          g_assert_cmpuint (sl_problem_get_line (problem), >=, 1);
          g_assert_cmpuint (sl_problem_get_column (problem), >=, 1);
        }
    }
}

static void
assert_problem (GPtrArray  *problems,
                guint       index,
                SlSeverity  severity,
                const char *element,
                guint       line,
                guint       column)
{
  SlProblem *problem;

  g_assert_cmpuint (index, <, problems->len);
  problem = g_ptr_array_index (problems, index);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, severity);
  g_assert_cmpstr (sl_problem_get_subject (problem), ==, element);
  g_assert_cmpuint (sl_problem_get_line (problem), ==, line);
  g_assert_cmpuint (sl_problem_get_column (problem), ==, column);
}

/* Eight appsrc elements feed ports 0 to 7 of one mxpi_tensorinfer. */
static void
test_pointpillars (void)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(SlPipeline) pipeline = read_dataset ("Ascend__ascend_community_projects/PointPillars/pipeline/pfe.pipeline", &problems);
  const SlPipelineStream *stream;
  const SlPipelineElement *infer;
  guint infer_index;

  if (pipeline == NULL)
    return;

  g_assert_cmpuint (sl_pipeline_get_n_streams (pipeline), ==, 1);
  stream = sl_pipeline_get_stream (pipeline, 0);
  g_assert_cmpstr (stream->name, ==, "pfe");
  g_assert_cmpuint (stream->elements->len, ==, 10);
  g_assert_cmpstr (((SlPipelineMember *) g_ptr_array_index (stream->config, 0))->text, ==, "0");

  infer_index = sl_pipeline_stream_lookup_element (stream, "mxpi_tensorinfer0");
  g_assert_cmpuint (infer_index, ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      const SlPipelineElement *src = sl_pipeline_stream_get_element (stream, i);
      const SlPipelineLink *link = g_ptr_array_index (src->links, 0);
      g_autofree char *name = g_strdup_printf ("appsrc%u", i);

      g_assert_cmpstr (src->name, ==, name);
      g_assert_cmpstr (sl_pipeline_element_get_factory (src), ==, "appsrc");
      g_assert_cmpuint (src->links->len, ==, 1);
      g_assert_cmpuint (link->to, ==, infer_index);
      g_assert_cmpint (link->port, ==, (gint) i);
      /* "appsrc0": { opens line 6, each element takes 7 lines */
      g_assert_cmpuint (src->key_span.line, ==, 6 + 7 * i);
      g_assert_cmpuint (src->key_span.column, ==, 9);
    }
  g_assert_cmpstr (sl_pipeline_element_lookup_prop (sl_pipeline_stream_get_element (stream, 4), "blocksize")->text, ==, "12000");

  infer = sl_pipeline_stream_get_element (stream, infer_index);
  g_assert_cmpuint (infer->props->len, ==, 2);
  g_assert_cmpstr (((SlPipelineMember *) g_ptr_array_index (infer->props, 0))->key, ==, "dataSource");
  g_assert_cmpstr (((SlPipelineMember *) g_ptr_array_index (infer->props, 1))->text, ==, "../models/model_om/pfe.om");
  g_assert_cmpuint (((SlPipelineLink *) g_ptr_array_index (infer->links, 0))->to, ==, 9);

  /* the model is not in the datasets: only that is said */
  g_assert_cmpuint (problems->len, ==, 1);
  assert_problem (problems, 0, SL_SEVERITY_WARNING, "mxpi_tensorinfer0", 65, 30);
}

/* Two tees, osd ports 0 and 1, app plugins, and an appsink with a key the
 * SDK does not take ("former"). */
static void
test_deepsort (void)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(SlPipeline) pipeline = read_dataset ("Ascend__ascend_community_projects/deepsort/pipeline/deepsort.pipeline", &problems);
  const SlPipelineStream *stream;
  const SlPipelineElement *tee, *osd;
  guint osd_index;

  if (pipeline == NULL)
    return;

  stream = sl_pipeline_get_stream (pipeline, 0);
  g_assert_cmpstr (stream->name, ==, "encoder");
  g_assert_cmpstr (((SlPipelineMember *) g_ptr_array_index (stream->config, 0))->text, ==, "2");
  g_assert_cmpuint (stream->elements->len, ==, 20);
  g_assert_cmpuint (sl_pipeline_stream_count_runnable (stream), ==, 20);

  tee = sl_pipeline_stream_get_element (stream, sl_pipeline_stream_lookup_element (stream, "tee0"));
  g_assert_cmpuint (tee->links->len, ==, 2);
  g_assert_cmpstr (((SlPipelineLink *) g_ptr_array_index (tee->links, 0))->target, ==, "queue1");
  g_assert_cmpstr (((SlPipelineLink *) g_ptr_array_index (tee->links, 1))->target, ==, "queue2");
  g_assert_cmpuint (((SlPipelineLink *) g_ptr_array_index (tee->links, 1))->span.line, ==, 34);

  osd_index = sl_pipeline_stream_lookup_element (stream, "mxpi_opencvosd0");
  osd = sl_pipeline_stream_get_element (stream, osd_index);
  g_assert_cmpuint (osd->props->len, ==, 0);
  g_assert_cmpint (((SlPipelineLink *) g_ptr_array_index (sl_pipeline_stream_get_element (stream, 5)->links, 0))->port, ==, 0);

  assert_problem (problems, 0, SL_SEVERITY_WARNING, "mxpi_tensorinfer0", 72, 30);
  assert_problem (problems, 1, SL_SEVERITY_WARNING, "fairmotpostprocess0", 82, 24);
  assert_problem (problems, 2, SL_SEVERITY_WARNING, "deepsort0", 91, 24);
  assert_problem (problems, 3, SL_SEVERITY_WARNING, "mxpi_trackidreplaceclassname0", 100, 24);
  assert_problem (problems, 4, SL_SEVERITY_ERROR, "appsink0", 161, 13);
  g_assert_cmpuint (problems->len, ==, 5);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/datasets/pipeline/every-file", test_every_pipeline);
  g_test_add_func ("/datasets/pipeline/pointpillars", test_pointpillars);
  g_test_add_func ("/datasets/pipeline/deepsort", test_deepsort);

  return g_test_run ();
}
