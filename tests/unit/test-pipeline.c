/* test-pipeline.c: the MindX SDK pipeline reader, model and check
 *
 * Each rule of the check on a generated pipeline with exactly the problem
 * it must give (severity, element, line, column); the model's ranges,
 * props, links and repeats; damage and truncation at every byte offset.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-pipeline-check.h"
#include "sl-pipeline-reader.h"

typedef struct {
  const char *id;
  const char *text;
  SlSeverity  severity;
  const char *element;
  guint       line;
  guint       column;
  const char *message;
} RuleCase;

/* Columns were counted on the text as written here, one element a line. */
static const RuleCase rule_cases[] = {
  { "next-target",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"nosuch\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 46, "is not an element of stream" },
  { "next-port-target",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"nosuch:0\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 46, "is not an element of stream" },
  { "bad-port",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0:x\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 46, "port number" },
  { "next-meta-target",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\", \"nextMeta\": [\"appsink0\", \"gone\"]},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 83, "is not an element of stream" },
  { "same-destination",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsrc1\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc1", 5, 46, "linked twice" },
  { "ports-gap",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"mxpi_tensorinfer0:0\"},\n"
    "    \"appsrc1\": {\"factory\": \"appsrc\", \"next\": \"mxpi_tensorinfer0:2\"},\n"
    "    \"mxpi_tensorinfer0\": {\"factory\": \"mxpi_tensorinfer\", \"props\": {\"modelPath\": \"m.om\"}, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc1", 5, 46, "ports count from 0" },
  { "duplicate-element",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"queue0\"},\n"
    "    \"queue0\": {\"factory\": \"queue\", \"next\": \"appsink0\"},\n"
    "    \"queue0\": {\"factory\": \"queue\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "queue0", 6, 5, "A second element named" },
  { "duplicate-stream",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  },\n"
    "  \"s\": {\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, NULL, 7, 3, "A second stream named" },
  { "loop",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"},\n"
    "    \"q0\": {\"factory\": \"queue\", \"next\": \"q1\"},\n"
    "    \"q1\": {\"factory\": \"queue\", \"next\": \"q0\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "q1", 7, 40, "closes a loop: q0 → q1 → q0" },
  { "unlinked-input",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"},\n"
    "    \"q0\": {\"factory\": \"queue\", \"next\": \"appsink1\"},\n"
    "    \"appsink1\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "q0", 6, 5, "input pad is unlinked" },
  { "unlinked-output",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"q0\"},\n"
    "    \"q0\": {\"factory\": \"queue\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "q0", 5, 5, "output pad is unlinked" },
  { "sink-with-next",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\", \"next\": \"fakesink0\"},\n"
    "    \"fakesink0\": {\"factory\": \"fakesink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsink0", 5, 5, "no output pad" },
  { "element-key",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\", \"former\": \"x\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 58, "is not an element key" },
  { "repeated-key",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 58, "appears twice" },
  { "missing-factory",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 5, "has no factory" },
  { "factory-not-string",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": 5, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 28, "not a string naming a plugin" },
  { "unknown-plugin",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"my0\"},\n"
    "    \"my0\": {\"factory\": \"myplugin\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_WARNING, "my0", 5, 24, "not a plugin of the SDK" },
  { "required-modelPath-mxpi_tensorinfer",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"t0\"},\n"
    "    \"t0\": {\"factory\": \"mxpi_tensorinfer\", \"props\": {\"dataSource\": \"appsrc0\"}, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "t0", 5, 5, "mxpi_tensorinfer needs the property modelPath" },
  { "required-dataSource-mxpi_modelinfer",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"m0\"},\n"
    "    \"m0\": {\"factory\": \"mxpi_modelinfer\", \"props\": {\"modelPath\": \"m.om\"}, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "m0", 5, 5, "mxpi_modelinfer needs the property dataSource" },
  { "required-outputDataKeys-mxpi_dataserialize",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"d0\"},\n"
    "    \"d0\": {\"factory\": \"mxpi_dataserialize\", \"props\": {}, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "d0", 5, 5, "mxpi_dataserialize needs the property outputDataKeys" },
  { "required-location",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"f0\"},\n"
    "    \"f0\": {\"factory\": \"filesink\", \"props\": {\"blocksize\": \"4096\"}}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "f0", 5, 5, "filesink needs the property location" },
  { "required-rtspUrl",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"mxpi_rtspsrc0\": {\"factory\": \"mxpi_rtspsrc\", \"props\": {\"channelId\": \"0\"}, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "mxpi_rtspsrc0", 4, 5, "mxpi_rtspsrc needs the property rtspUrl" },
  { "appsink-name",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"out\"},\n"
    "    \"out\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "out", 5, 5, "must be named appsink" },
  { "device-id",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"x\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, NULL, 3, 35, "deviceId \"x\" is not a device number" },
  { "device-id-number",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": 0},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, NULL, 3, 35, "deviceId 0 is not a device number" },
  { "model-path",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"t0\"},\n"
    "    \"t0\": {\"factory\": \"mxpi_tensorinfer\", \"props\": {\"modelPath\": \"models/none.om\"}, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_WARNING, "t0", 5, 66, "modelPath “models/none.om” is not in the project folder" },
  { "config-path",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"p0\"},\n"
    "    \"p0\": {\"factory\": \"mxpi_objectpostprocessor\", \"props\": {\"postProcessConfigPath\": \"m.om\", \"labelPath\": \"../x.names\", \"postProcessLibPath\": \"libyolo.so\"}, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_WARNING, "p0", 5, 107, "labelPath “../x.names” is not in the project folder" },
  { "props-not-object",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"props\": [], \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 47, "props is not an object" },
  { "next-not-string",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": 1}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 46, "next must be an element name" },
  { "link-not-string",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": [\"appsink0\", {}]},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 59, "must be the name of an element" },
  { "repeated-prop",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"props\": {\"blocksize\": \"1\", \"blocksize\": \"2\"}, \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"}\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "appsrc0", 4, 66, "appears twice" },
  { "element-not-object",
    "{\n"
    "  \"s\": {\n"
    "    \"stream_config\": {\"deviceId\": \"0\"},\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": \"appsink\"},\n"
    "    \"junk\": 3\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, "junk", 6, 13, "is not an object with factory" },
  { "empty-stream",
    "{\n"
    "  \"s\": {\n"
    "  }\n"
    "}\n",
    SL_SEVERITY_ERROR, NULL, 2, 3, "has no elements" },
};

static const char valid_pipeline[] =
  "{\n"
  "  \"detection\": {\n"
  "    \"stream_config\": {\"deviceId\": \"0\"},\n"
  "    \"appsrc0\": {\"factory\": \"appsrc\", \"props\": {\"blocksize\": \"409600\"}, \"next\": \"mxpi_tensorinfer0:0\"},\n"
  "    \"appsrc1\": {\"factory\": \"appsrc\", \"next\": \"mxpi_tensorinfer0:1\"},\n"
  "    \"mxpi_tensorinfer0\": {\n"
  "      \"factory\": \"mxpi_tensorinfer\",\n"
  "      \"props\": {\"modelPath\": \"m.om\", \"waitingTime\": 50, \"sync\": true, \"extra\": null,\n"
  "                \"filter\": {\"Type\": \"Area\", \"TopN\": [1, 2]}, \"name\": \"\\u4e2d\\\"x\\\\\"},\n"
  "      \"next\": [\"tee0\"], \"nextMeta\": \"appsink1\"\n"
  "    },\n"
  "    \"tee0\": {\"factory\": \"tee\", \"next\": [\"queue0\", \"queue1\"]},\n"
  "    \"queue0\": {\"factory\": \"queue\", \"next\": \"appsink0\"},\n"
  "    \"queue1\": {\"factory\": \"queue\", \"next\": \"fakesink0\"},\n"
  "    \"fakesink0\": {\"factory\": \"fakesink\"},\n"
  "    \"appsink0\": {\"factory\": \"appsink\"},\n"
  "    \"appsink1\": {\"factory\": \"appsink\"}\n"
  "  }\n"
  "}\n";

static char *project_dir;

static char *
pipeline_path (void)
{
  return g_build_filename (project_dir, "pipeline", "test.pipeline", NULL);
}

static GPtrArray *
check_text (const char  *text,
            SlPipeline **out)
{
  g_autofree char *path = pipeline_path ();
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data (path, (const guint8 *) text, strlen (text));
  GPtrArray *problems = sl_pipeline_check (pipeline, NULL, NULL);

  if (out != NULL)
    *out = g_steal_pointer (&pipeline);
  return problems;
}

static void
dump_problems (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *p = g_ptr_array_index (problems, i);

      g_printerr ("  %u:%u %s %s: %s\n", sl_problem_get_line (p), sl_problem_get_column (p),
                  sl_severity_to_string (sl_problem_get_severity (p)),
                  sl_problem_get_subject (p) ? sl_problem_get_subject (p) : "-", sl_problem_get_message (p));
    }
}

static void
test_rule (gconstpointer data)
{
  const RuleCase *c = data;
  g_autoptr(GPtrArray) problems = check_text (c->text, NULL);
  SlProblem *problem;

  if (problems->len != 1)
    dump_problems (problems);
  g_assert_cmpuint (problems->len, ==, 1);
  problem = g_ptr_array_index (problems, 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, c->severity);
  g_assert_cmpstr (sl_problem_get_subject (problem), ==, c->element);
  g_assert_cmpuint (sl_problem_get_line (problem), ==, c->line);
  g_assert_cmpuint (sl_problem_get_column (problem), ==, c->column);
  if (strstr (sl_problem_get_message (problem), c->message) == NULL)
    g_error ("“%s” does not hold “%s”", sl_problem_get_message (problem), c->message);
}

static void
test_valid (void)
{
  g_autoptr(GPtrArray) problems = check_text (valid_pipeline, NULL);

  dump_problems (problems);
  g_assert_cmpuint (problems->len, ==, 0);
}

static void
test_too_many_elements (void)
{
  g_autoptr(GString) text = g_string_new ("{\n  \"s\": {\n    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"q1\"},\n");
  g_autoptr(GPtrArray) problems = NULL;
  SlProblem *problem;

  for (guint i = 1; i < SL_PIPELINE_MAX_ELEMENTS; i++)
    g_string_append_printf (text, "    \"q%u\": {\"factory\": \"queue\", \"next\": \"q%u\"},\n", i, i + 1);
  g_string_append_printf (text, "    \"q%u\": {\"factory\": \"queue\", \"next\": \"appsink0\"},\n", SL_PIPELINE_MAX_ELEMENTS);
  g_string_append (text, "    \"appsink0\": {\"factory\": \"appsink\"}\n  }\n}\n");

  problems = check_text (text->str, NULL);
  g_assert_cmpuint (problems->len, ==, 1);
  problem = g_ptr_array_index (problems, 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
  g_assert_null (sl_problem_get_subject (problem));
  g_assert_cmpuint (sl_problem_get_line (problem), ==, 2);
  g_assert_cmpuint (sl_problem_get_column (problem), ==, 3);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "5122 elements"));
}

static char *
span_text (SlPipeline           *pipeline,
           const SlPipelineSpan *span)
{
  const char *data = g_bytes_get_data (sl_pipeline_get_contents (pipeline), NULL);

  return g_strndup (data + span->start, span->end - span->start);
}

static void
assert_span (SlPipeline           *pipeline,
             const SlPipelineSpan *span,
             const char           *text,
             guint                 line,
             guint                 column)
{
  g_autofree char *got = span_text (pipeline, span);

  g_assert_cmpstr (got, ==, text);
  g_assert_cmpuint (span->line, ==, line);
  g_assert_cmpuint (span->column, ==, column);
}

static void
test_model (void)
{
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(GPtrArray) problems = check_text (valid_pipeline, &pipeline);
  const SlPipelineStream *stream;
  const SlPipelineElement *infer, *tee;
  const SlPipelineMember *prop;
  const SlPipelineLink *link;
  static const char *const prop_keys[] = { "modelPath", "waitingTime", "sync", "extra", "filter", "name" };
  static const SlPipelineValueType prop_types[] = {
    SL_PIPELINE_VALUE_STRING, SL_PIPELINE_VALUE_NUMBER, SL_PIPELINE_VALUE_BOOLEAN,
    SL_PIPELINE_VALUE_NULL, SL_PIPELINE_VALUE_OBJECT, SL_PIPELINE_VALUE_STRING,
  };

  g_assert_true (sl_pipeline_is_complete (pipeline));
  g_assert_cmpuint (sl_pipeline_get_n_streams (pipeline), ==, 1);
  stream = sl_pipeline_get_stream (pipeline, 0);
  g_assert_true (stream == sl_pipeline_lookup_stream (pipeline, "detection"));
  assert_span (pipeline, &stream->key_span, "\"detection\"", 2, 3);
  g_assert_cmpuint (stream->config->len, ==, 1);
  g_assert_cmpstr (((SlPipelineMember *) g_ptr_array_index (stream->config, 0))->text, ==, "0");
  g_assert_cmpuint (sl_pipeline_stream_get_n_elements (stream), ==, 9);
  g_assert_cmpuint (sl_pipeline_stream_count_runnable (stream), ==, 9);

  infer = sl_pipeline_stream_get_element (stream, sl_pipeline_stream_lookup_element (stream, "mxpi_tensorinfer0"));
  g_assert_cmpstr (sl_pipeline_element_get_factory (infer), ==, "mxpi_tensorinfer");
  assert_span (pipeline, &infer->key_span, "\"mxpi_tensorinfer0\"", 6, 5);
  g_assert_cmpuint (infer->span.line, ==, 6);
  g_assert_cmpuint (infer->span.column, ==, 26);
  assert_span (pipeline, &infer->factory->value_span, "\"mxpi_tensorinfer\"", 7, 18);

  g_assert_cmpuint (infer->props->len, ==, G_N_ELEMENTS (prop_keys));
  for (guint i = 0; i < infer->props->len; i++)
    {
      prop = g_ptr_array_index (infer->props, i);
      g_assert_cmpstr (prop->key, ==, prop_keys[i]);
      g_assert_cmpint (prop->type, ==, prop_types[i]);
    }
  prop = sl_pipeline_element_lookup_prop (infer, "waitingTime");
  g_assert_cmpstr (prop->text, ==, "50");
  assert_span (pipeline, &prop->key_span, "\"waitingTime\"", 8, 38);
  assert_span (pipeline, &prop->value_span, "50", 8, 53);
  prop = sl_pipeline_element_lookup_prop (infer, "filter");
  g_assert_cmpstr (prop->text, ==, "{\"Type\": \"Area\", \"TopN\": [1, 2]}");
  assert_span (pipeline, &prop->value_span, "{\"Type\": \"Area\", \"TopN\": [1, 2]}", 9, 27);
  prop = sl_pipeline_element_lookup_prop (infer, "name");
  /* decoded, and its range still covers the escapes; the column counts
   * characters */
  g_assert_cmpstr (prop->text, ==, "中\"x\\");
  assert_span (pipeline, &prop->value_span, "\"\\u4e2d\\\"x\\\\\"", 9, 69);
  g_assert_cmpstr (sl_pipeline_element_lookup_prop (infer, "sync")->text, ==, "true");
  g_assert_cmpstr (sl_pipeline_element_lookup_prop (infer, "extra")->text, ==, "null");

  g_assert_cmpuint (infer->links->len, ==, 2);
  link = g_ptr_array_index (infer->links, 0);
  g_assert_cmpint (link->kind, ==, SL_PIPELINE_LINK_NEXT);
  g_assert_cmpstr (link->target, ==, "tee0");
  g_assert_cmpuint (link->to, ==, sl_pipeline_stream_lookup_element (stream, "tee0"));
  assert_span (pipeline, &link->span, "\"tee0\"", 10, 16);
  link = g_ptr_array_index (infer->links, 1);
  g_assert_cmpint (link->kind, ==, SL_PIPELINE_LINK_NEXT_META);
  g_assert_cmpuint (link->to, ==, sl_pipeline_stream_lookup_element (stream, "appsink1"));

  link = g_ptr_array_index (sl_pipeline_stream_get_element (stream, 1)->links, 0);
  g_assert_cmpstr (link->target_name, ==, "mxpi_tensorinfer0");
  g_assert_cmpint (link->port, ==, 1);
  g_assert_true (link->port_valid);
  g_assert_cmpuint (link->from, ==, 1);

  tee = sl_pipeline_stream_get_element (stream, 3);
  g_assert_cmpuint (tee->links->len, ==, 2);
  g_assert_cmpstr (((SlPipelineLink *) g_ptr_array_index (tee->links, 1))->target, ==, "queue1");
}

/* An editor rewrites one value through its range: the rest stays byte
 * for byte, and reads back with the new value. */
static void
test_rewrite_value (void)
{
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(SlPipeline) again = NULL;
  g_autoptr(GPtrArray) problems = check_text (valid_pipeline, &pipeline);
  const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, 0);
  const SlPipelineElement *infer = sl_pipeline_stream_get_element (stream, 2);
  const SlPipelineMember *prop = sl_pipeline_element_lookup_prop (infer, "modelPath");
  g_autoptr(GString) edited = g_string_new (NULL);

  g_string_append_len (edited, valid_pipeline, prop->value_span.start);
  g_string_append (edited, "\"models/other.om\"");
  g_string_append (edited, valid_pipeline + prop->value_span.end);

  again = sl_pipeline_reader_read_data ("edited", (const guint8 *) edited->str, edited->len);
  stream = sl_pipeline_get_stream (again, 0);
  infer = sl_pipeline_stream_get_element (stream, 2);
  g_assert_cmpstr (sl_pipeline_element_lookup_prop (infer, "modelPath")->text, ==, "models/other.om");
  g_assert_cmpstr (sl_pipeline_element_lookup_prop (infer, "waitingTime")->text, ==, "50");
}

static void
test_repeats_kept (void)
{
  static const char text[] =
    "{\"s\": {\"a\": {\"factory\": \"appsrc\", \"next\": \"b\", \"next\": \"c\"},\n"
    "        \"a\": {\"factory\": \"appsrc\", \"props\": {\"k\": \"1\"}, \"props\": {\"k\": \"2\"}, \"next\": \"c\"},\n"
    "        \"c\": {\"factory\": \"fakesink\"}}, \"s\": {}}";
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("r", (const guint8 *) text, strlen (text));
  const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, 0);
  const SlPipelineElement *first = sl_pipeline_stream_get_element (stream, 0);
  const SlPipelineElement *second = sl_pipeline_stream_get_element (stream, 1);

  g_assert_cmpuint (sl_pipeline_get_n_streams (pipeline), ==, 2);
  g_assert_true (sl_pipeline_lookup_stream (pipeline, "s") == sl_pipeline_get_stream (pipeline, 1));
  g_assert_cmpuint (stream->elements->len, ==, 3);
  g_assert_cmpuint (sl_pipeline_stream_lookup_element (stream, "a"), ==, 1);
  g_assert_cmpuint (sl_pipeline_stream_count_runnable (stream), ==, 2);
  /* every key is seen; the SDK's view (the last) is what links and props hold */
  g_assert_cmpuint (first->members->len, ==, 3);
  g_assert_cmpuint (first->links->len, ==, 1);
  g_assert_cmpstr (((SlPipelineLink *) g_ptr_array_index (first->links, 0))->target, ==, "c");
  g_assert_cmpstr (sl_pipeline_element_lookup_prop (second, "k")->text, ==, "2");
  g_assert_cmpuint (second->members->len, ==, 4);
}

static void
assert_damage_problem (SlPipeline *pipeline,
                       gsize       length)
{
  GListModel *problems = sl_pipeline_get_problems (pipeline);
  g_autoptr(SlProblem) problem = NULL;

  g_assert_false (sl_pipeline_is_complete (pipeline));
  g_assert_cmpuint (g_list_model_get_n_items (problems), >=, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
  g_assert_cmpuint (sl_problem_get_line (problem), >=, 1);
  g_assert_cmpuint (sl_problem_get_column (problem), >=, 1);
  g_assert_cmpint (sl_problem_get_offset (problem), >=, 0);
  g_assert_cmpint (sl_problem_get_offset (problem), <=, (gint64) length);
}

static void
test_damage_position (void)
{
  static const char text[] =
    "{\n"
    "  \"s\": {\n"
    "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"},\n"
    "    \"appsink0\": {\"factory\": }\n"
    "  }\n"
    "}\n";
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(GPtrArray) problems = check_text (text, &pipeline);
  const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, 0);
  g_autoptr(SlProblem) problem = g_list_model_get_item (sl_pipeline_get_problems (pipeline), 0);

  assert_damage_problem (pipeline, strlen (text));
  /* at the brace where a value should be */
  g_assert_cmpuint (sl_problem_get_line (problem), ==, 4);
  g_assert_cmpuint (sl_problem_get_column (problem), ==, 29);
  g_assert_true (g_ptr_array_find (problems, problem, NULL));
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "damaged"));
  /* what came before is kept */
  g_assert_cmpuint (stream->elements->len, ==, 2);
  g_assert_cmpstr (sl_pipeline_element_get_factory (sl_pipeline_stream_get_element (stream, 0)), ==, "appsrc");
  g_assert_cmpuint (((SlPipelineLink *) g_ptr_array_index (sl_pipeline_stream_get_element (stream, 0)->links, 0))->to, ==, 1);
}

/* Cut at every byte: never a crash, always a positioned problem, and the
 * elements whose closing brace came before the cut are all there. */
static void
test_truncation_everywhere (void)
{
  gsize length = strlen (valid_pipeline);

  for (gsize cut = 0; cut < length - 1; cut++)
    {
      g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("cut", (const guint8 *) valid_pipeline, cut);
      g_autoptr(GPtrArray) problems = sl_pipeline_check (pipeline, project_dir, NULL);
      const char *queue0 = strstr (valid_pipeline, "\"queue0\": {");

      assert_damage_problem (pipeline, cut);
      if (cut > (gsize) (strchr (queue0, '}') - valid_pipeline))
        {
          const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, 0);

          g_assert_cmpuint (sl_pipeline_stream_lookup_element (stream, "queue0"), ==, 4);
        }
    }
}

/* Every byte replaced by characters that break JSON in different ways. */
static void
test_damage_everywhere (void)
{
  static const char replacements[] = { '}', ']', '"', ',', ':', '\\', '\0', '\xff', 'x', '{', '[' };
  gsize length = strlen (valid_pipeline);

  for (gsize at = 0; at < length; at++)
    {
      for (guint r = 0; r < G_N_ELEMENTS (replacements); r++)
        {
          g_autofree char *copy = g_memdup2 (valid_pipeline, length);
          g_autoptr(SlPipeline) pipeline = NULL;
          g_autoptr(GPtrArray) problems = NULL;

          copy[at] = replacements[r];
          pipeline = sl_pipeline_reader_read_data ("damaged", (const guint8 *) copy, length);
          problems = sl_pipeline_check (pipeline, project_dir, NULL);
          if (!sl_pipeline_is_complete (pipeline))
            assert_damage_problem (pipeline, length);
          for (guint i = 0; i < problems->len; i++)
            g_assert_cmpuint (sl_problem_get_line (g_ptr_array_index (problems, i)), <=, 20);
        }
    }
}

static void
test_not_a_pipeline (void)
{
  static const char *const texts[] = { "", "[1, 2]", "42", "\"x\"", "{\"s\": 3}", "\xef\xbb\xbf", "{} {}", "{\"a\":/*c*/1}" };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("x", (const guint8 *) texts[i], strlen (texts[i]));
      g_autoptr(GPtrArray) problems = sl_pipeline_check (pipeline, project_dir, NULL);

      g_assert_cmpuint (problems->len, >=, 1);
      g_assert_cmpint (sl_problem_get_severity (g_ptr_array_index (problems, 0)), ==, SL_SEVERITY_ERROR);
      g_assert_cmpuint (sl_problem_get_line (g_ptr_array_index (problems, 0)), ==, 1);
    }
}

static void
test_deep_nesting (void)
{
  g_autoptr(GString) text = g_string_new ("{\"s\": {\"a\": {\"props\": {\"k\": ");
  g_autoptr(SlPipeline) pipeline = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (text, '[');
  pipeline = sl_pipeline_reader_read_data ("deep", (const guint8 *) text->str, text->len);
  assert_damage_problem (pipeline, text->len);
  g_assert_cmpuint (sl_pipeline_stream_get_n_elements (sl_pipeline_get_stream (pipeline, 0)), ==, 1);
}

static void
test_plugins (void)
{
  g_autoptr(GHashTable) names = sl_pipeline_check_parse_plugins ("# mine\nmxpi_alphaposepreprocess\n  fairmot # tracker\n\n");
  static const char text[] = "{\"s\": {\"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"f0\"}, \"f0\": {\"factory\": \"fairmot\", \"next\": \"appsink0\"}, \"appsink0\": {\"factory\": \"appsink\"}}}";
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("p", (const guint8 *) text, strlen (text));
  g_autoptr(GPtrArray) with = sl_pipeline_check (pipeline, project_dir, names);
  g_autoptr(GPtrArray) without = sl_pipeline_check (pipeline, project_dir, NULL);
  g_autofree char *guess = NULL;
  g_autofree char *guess_plain = NULL;

  g_assert_cmpuint (g_hash_table_size (names), ==, 2);
  g_assert_true (g_hash_table_contains (names, "fairmot"));
  g_assert_true (sl_pipeline_check_is_sdk_plugin ("mxpi_datatransfer"));
  g_assert_false (sl_pipeline_check_is_sdk_plugin ("fairmot"));
  g_assert_cmpuint (with->len, ==, 0);
  g_assert_cmpuint (without->len, ==, 1);

  guess = sl_pipeline_check_guess_project_dir ("/p/app/pipeline/x.pipeline");
  g_assert_cmpstr (guess, ==, "/p/app");
  guess_plain = sl_pipeline_check_guess_project_dir ("/p/app/conf/x.pipeline");
  g_assert_cmpstr (guess_plain, ==, "/p/app/conf");
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *model = NULL;
  g_autofree char *pipeline_dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  project_dir = g_dir_make_tmp ("sl-pipeline-XXXXXX", NULL);
  g_assert_nonnull (project_dir);
  pipeline_dir = g_build_filename (project_dir, "pipeline", NULL);
  g_mkdir (pipeline_dir, 0755);
  model = g_build_filename (project_dir, "m.om", NULL);
  g_assert_true (g_file_set_contents (model, "om", -1, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (rule_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/pipeline/rule/%s", rule_cases[i].id);

      g_test_add_data_func (name, &rule_cases[i], test_rule);
    }
  g_test_add_func ("/pipeline/valid", test_valid);
  g_test_add_func ("/pipeline/rule/too-many-elements", test_too_many_elements);
  g_test_add_func ("/pipeline/model", test_model);
  g_test_add_func ("/pipeline/rewrite-value", test_rewrite_value);
  g_test_add_func ("/pipeline/repeats-kept", test_repeats_kept);
  g_test_add_func ("/pipeline/damage-position", test_damage_position);
  g_test_add_func ("/pipeline/truncation-everywhere", test_truncation_everywhere);
  g_test_add_func ("/pipeline/damage-everywhere", test_damage_everywhere);
  g_test_add_func ("/pipeline/not-a-pipeline", test_not_a_pipeline);
  g_test_add_func ("/pipeline/deep-nesting", test_deep_nesting);
  g_test_add_func ("/pipeline/plugins", test_plugins);

  status = g_test_run ();

  g_unlink (model);
  g_rmdir (pipeline_dir);
  g_rmdir (project_dir);
  g_free (project_dir);
  return status;
}
