/* test-datasets-pipeline.c: the pipeline reader and check on every real
 * *.pipeline of the datasets folder
 *
 * Every file reads completely and checks without a crash, with every
 * problem positioned; two files are compared with what was read off them
 * by hand: their streams, elements, links, props and problems. Every
 * stream of every file is laid out as a scene, a box per element and an
 * edge per link, and every prop of every element is edited: the bytes
 * change only in that value's span and read back the same.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-pipeline-check.h"
#include "sl-pipeline-editor.h"
#include "sl-pipeline-reader.h"
#include "sl-pipeline-scene.h"

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

static GPtrArray *
every_pipeline (void)
{
  g_autofree char *root = dataset_path ("");
  GPtrArray *found = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  if (root == NULL)
    return found;
  find_pipelines (root, paths);
  g_assert_cmpuint (paths->len, >=, 6);
  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (g_ptr_array_index (paths, i));
      g_autoptr(GError) error = NULL;
      SlPipeline *pipeline = sl_pipeline_reader_read_file (file, NULL, &error);

      g_assert_no_error (error);
      g_ptr_array_add (found, pipeline);
    }
  return found;
}

/* Every element is a box labelled with its name and factory, and every
 * resolved link an edge between the boxes of its ends; repeated links
 * are one edge counting them. */
static void
test_every_scene (void)
{
  g_autoptr(GPtrArray) pipelines = every_pipeline ();
  guint n_scenes = 0;

  for (guint f = 0; f < pipelines->len; f++)
    {
      SlPipeline *pipeline = g_ptr_array_index (pipelines, f);
      g_autoptr(GPtrArray) problems = sl_pipeline_check (pipeline, NULL, NULL);

      for (guint s = 0; s < sl_pipeline_get_n_streams (pipeline); s++)
        {
          const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, s);
          g_autoptr(GError) error = NULL;
          g_autoptr(SlGraphScene) scene = sl_pipeline_scene_build (stream, problems, NULL, &error);
          g_autoptr(GHashTable) pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          const SlGraphSceneBox *boxes;
          const SlGraphSceneEdge *edges;
          guint n_boxes, n_edges, n_links = 0, n_counted = 0;

          g_assert_no_error (error);
          g_assert_true (sl_graph_scene_is_finished (scene));
          boxes = sl_graph_scene_get_boxes (scene, &n_boxes);
          edges = sl_graph_scene_get_edges (scene, &n_edges);
          g_assert_cmpuint (n_boxes, ==, stream->elements->len);

          for (guint e = 0; e < stream->elements->len; e++)
            {
              const SlPipelineElement *element = sl_pipeline_stream_get_element (stream, e);
              guint box = sl_graph_scene_lookup_id (scene, e);

              g_assert_cmpuint (box, <, n_boxes);
              g_assert_cmpstr (boxes[box].label, ==, element->name);
              g_assert_cmpstr (boxes[box].detail, ==, sl_pipeline_element_get_factory (element));
              g_assert_cmpfloat (boxes[box].width, >, 0);
              g_assert_cmpfloat (boxes[box].height, >, 0);
              for (guint l = 0; l < element->links->len; l++)
                {
                  const SlPipelineLink *link = g_ptr_array_index (element->links, l);

                  if (link->to == SL_PIPELINE_NO_ELEMENT)
                    continue;
                  n_links++;
                  g_hash_table_add (pairs, g_strdup_printf ("%u %u %d", e, link->to, link->kind == SL_PIPELINE_LINK_NEXT_META));
                }
            }

          g_assert_cmpuint (n_edges, ==, g_hash_table_size (pairs));
          for (guint e = 0; e < n_edges; e++)
            {
              g_autofree char *key = g_strdup_printf ("%u %u %d", boxes[edges[e].from].id, boxes[edges[e].to].id,
                                                      edges[e].kind == SL_GRAPH_SCENE_EDGE_CONTROL);

              g_assert_true (g_hash_table_contains (pairs, key));
              g_assert_cmpuint (edges[e].n_points, >=, 2);
              n_counted += edges[e].count;
            }
          g_assert_cmpuint (n_counted, ==, n_links);
          n_scenes++;
        }
    }
  if (pipelines->len > 0)
    g_assert_cmpuint (n_scenes, >=, 6);
}

/* The streams, elements, factories and links of @a and @b are the same. */
static void
assert_same_shape (SlPipeline *a,
                   SlPipeline *b)
{
  g_assert_true (sl_pipeline_is_complete (b));
  g_assert_cmpuint (sl_pipeline_get_n_streams (a), ==, sl_pipeline_get_n_streams (b));
  for (guint s = 0; s < sl_pipeline_get_n_streams (a); s++)
    {
      const SlPipelineStream *x = sl_pipeline_get_stream (a, s);
      const SlPipelineStream *y = sl_pipeline_get_stream (b, s);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->elements->len, ==, y->elements->len);
      for (guint e = 0; e < x->elements->len; e++)
        {
          const SlPipelineElement *p = sl_pipeline_stream_get_element (x, e);
          const SlPipelineElement *q = sl_pipeline_stream_get_element (y, e);

          g_assert_cmpstr (p->name, ==, q->name);
          g_assert_cmpstr (sl_pipeline_element_get_factory (p), ==, sl_pipeline_element_get_factory (q));
          g_assert_cmpuint (p->links->len, ==, q->links->len);
          for (guint l = 0; l < p->links->len; l++)
            g_assert_cmpuint (((SlPipelineLink *) g_ptr_array_index (p->links, l))->to, ==,
                              ((SlPipelineLink *) g_ptr_array_index (q->links, l))->to);
        }
    }
}

/* Every prop of every element set to a new value: the bytes before and
 * after the value's span are the file's, the span holds the new value
 * quoted, and the edit reads back with the same shape and the prop set.
 * A new prop on every element is one insertion. */
static void
test_every_edit (void)
{
  g_autoptr(GPtrArray) pipelines = every_pipeline ();
  guint n_edits = 0, n_added = 0;

  for (guint f = 0; f < pipelines->len; f++)
    {
      SlPipeline *pipeline = g_ptr_array_index (pipelines, f);
      gsize length;
      const guint8 *data = g_bytes_get_data (sl_pipeline_get_contents (pipeline), &length);

      for (guint s = 0; s < sl_pipeline_get_n_streams (pipeline); s++)
        {
          const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, s);

          for (guint e = 0; e < stream->elements->len; e++)
            {
              const SlPipelineElement *element = sl_pipeline_stream_get_element (stream, e);

              if (element->type != SL_PIPELINE_VALUE_OBJECT)
                continue;
              for (guint p = 0; p <= element->props->len; p++)
                {
                  const SlPipelineMember *prop = p < element->props->len ? g_ptr_array_index (element->props, p) : NULL;
                  const char *key = prop != NULL ? prop->key : "sightlineAdded";
                  const char *value = "edited \"value\" \\ 编辑";
                  g_autofree char *quoted = sl_pipeline_editor_quote (value);
                  g_autoptr(GError) error = NULL;
                  g_autoptr(GBytes) edited = NULL;
                  g_autoptr(SlPipeline) again = NULL;
                  const SlPipelineMember *set;
                  gsize new_length;
                  const guint8 *new_data;

                  /* A repeated key: the editor changes the one lookup finds. */
                  if (prop != NULL && sl_pipeline_element_lookup_prop (element, key) != prop)
                    continue;
                  edited = sl_pipeline_editor_set_prop (pipeline, s, e, key, value, &error);
                  g_assert_no_error (error);
                  g_assert_nonnull (edited);
                  new_data = g_bytes_get_data (edited, &new_length);

                  if (prop != NULL)
                    {
                      gsize start = prop->value_span.start, end = prop->value_span.end;

                      g_assert_cmpuint (new_length, ==, length - (end - start) + strlen (quoted));
                      g_assert_cmpmem (new_data, start, data, start);
                      g_assert_cmpmem (new_data + start, strlen (quoted), quoted, strlen (quoted));
                      g_assert_cmpmem (new_data + start + strlen (quoted), length - end, data + end, length - end);
                      n_edits++;
                    }
                  else
                    {
                      gsize head = 0, tail = 0;

                      /* One insertion: what is common at both ends covers the file. */
                      g_assert_cmpuint (new_length, >, length);
                      while (head < length && new_data[head] == data[head])
                        head++;
                      while (tail < length - head && new_data[new_length - 1 - tail] == data[length - 1 - tail])
                        tail++;
                      g_assert_cmpuint (head + tail, ==, length);
                      n_added++;
                    }

                  again = sl_pipeline_reader_read_data (sl_pipeline_get_path (pipeline), new_data, new_length);
                  assert_same_shape (pipeline, again);
                  set = sl_pipeline_element_lookup_prop (sl_pipeline_stream_get_element (sl_pipeline_get_stream (again, s), e), key);
                  g_assert_nonnull (set);
                  g_assert_cmpint (set->type, ==, SL_PIPELINE_VALUE_STRING);
                  g_assert_cmpstr (set->text, ==, value);
                }
            }
        }
    }
  if (pipelines->len > 0)
    {
      g_assert_cmpuint (n_edits, >=, 20);
      g_assert_cmpuint (n_added, >=, 30);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/datasets/pipeline/every-file", test_every_pipeline);
  g_test_add_func ("/datasets/pipeline/pointpillars", test_pointpillars);
  g_test_add_func ("/datasets/pipeline/deepsort", test_deepsort);
  g_test_add_func ("/datasets/pipeline/scene", test_every_scene);
  g_test_add_func ("/datasets/pipeline/edit", test_every_edit);

  return g_test_run ();
}
