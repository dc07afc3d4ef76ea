/* fuzz-pipeline-reader.c: libFuzzer harness for the MindX SDK pipeline
 * reader and check
 *
 * The input is a pipeline file. It is read from memory, every span is
 * checked to lie inside the input with its line and column, every link
 * to point at an element of its stream, and the whole check runs on it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sl-pipeline-check.h"
#include "sl-pipeline-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
check_span (const SlPipelineSpan *span,
            size_t                size)
{
  g_assert (span->start <= span->end);
  g_assert (span->end <= size);
  g_assert (span->line >= 1 && span->column >= 1);
}

static void
check_members (GPtrArray *members,
               size_t     size)
{
  for (guint i = 0; members != NULL && i < members->len; i++)
    {
      const SlPipelineMember *member = g_ptr_array_index (members, i);

      check_span (&member->key_span, size);
      check_span (&member->value_span, size);
      g_assert (member->text != NULL);
    }
}

static void
walk (SlPipeline *pipeline,
      size_t      size)
{
  for (guint s = 0; s < sl_pipeline_get_n_streams (pipeline); s++)
    {
      const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, s);

      check_span (&stream->key_span, size);
      check_members (stream->config, size);
      for (guint e = 0; e < stream->elements->len; e++)
        {
          const SlPipelineElement *element = g_ptr_array_index (stream->elements, e);

          check_span (&element->key_span, size);
          check_members (element->members, size);
          check_members (element->props, size);
          for (guint l = 0; l < element->links->len; l++)
            {
              const SlPipelineLink *link = g_ptr_array_index (element->links, l);

              check_span (&link->span, size);
              g_assert (link->from == e);
              g_assert (link->to == SL_PIPELINE_NO_ELEMENT || link->to < stream->elements->len);
            }
        }
      (void) sl_pipeline_stream_count_runnable (stream);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("/nonexistent/pipeline/fuzz.pipeline", data, size);
  g_autoptr(GPtrArray) problems = NULL;

  walk (pipeline, size);
  problems = sl_pipeline_check (pipeline, NULL, NULL);
  for (guint i = 0; i < problems->len; i++)
    g_assert (sl_problem_get_message (g_ptr_array_index (problems, i)) != NULL);
  return 0;
}
