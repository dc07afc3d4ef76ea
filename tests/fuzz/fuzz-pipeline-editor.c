/* fuzz-pipeline-editor.c: libFuzzer harness for the pipeline editor
 *
 * The first two bytes pick an element and one of its props (or a new
 * one), the rest is a pipeline file. It is read, the prop is set, and the
 * editor either refuses with an error or returns bytes that read back
 * complete, with the same streams, elements, factories and links, the
 * prop set to the value, and the file unchanged outside one cut.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sl-pipeline-editor.h"
#include "sl-pipeline-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static const char * const values[] = {
  "models/yolo.om", "", "quote \" and \\ back", "line\nbreak\ttab", "\x01 control", "编辑",
};

static void
check_same (SlPipeline *a,
            SlPipeline *b)
{
  g_assert (sl_pipeline_is_complete (b));
  g_assert (sl_pipeline_get_n_streams (a) == sl_pipeline_get_n_streams (b));
  for (guint s = 0; s < sl_pipeline_get_n_streams (a); s++)
    {
      const SlPipelineStream *x = sl_pipeline_get_stream (a, s);
      const SlPipelineStream *y = sl_pipeline_get_stream (b, s);

      g_assert (g_strcmp0 (x->name, y->name) == 0);
      g_assert (x->elements->len == y->elements->len);
      for (guint e = 0; e < x->elements->len; e++)
        {
          const SlPipelineElement *p = g_ptr_array_index (x->elements, e);
          const SlPipelineElement *q = g_ptr_array_index (y->elements, e);

          g_assert (g_strcmp0 (p->name, q->name) == 0);
          g_assert (g_strcmp0 (sl_pipeline_element_get_factory (p), sl_pipeline_element_get_factory (q)) == 0);
          g_assert (p->links->len == q->links->len);
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(SlPipeline) again = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GError) error = NULL;
  const SlPipelineStream *stream;
  const SlPipelineElement *element;
  const SlPipelineMember *set;
  const char *key, *value;
  guint s = 0, e = 0, n_elements = 0;
  gsize length, head = 0, tail = 0;
  const guint8 *bytes;

  if (size < 2)
    return 0;
  pipeline = sl_pipeline_reader_read_data ("fuzz.pipeline", data + 2, size - 2);

  /* The n-th element over all streams; out of range is a refusal too. */
  for (guint i = 0; i < sl_pipeline_get_n_streams (pipeline); i++)
    n_elements += sl_pipeline_get_stream (pipeline, i)->elements->len;
  if (n_elements == 0)
    {
      edited = sl_pipeline_editor_set_prop (pipeline, 0, 0, "k", "v", &error);
      g_assert (edited == NULL && error != NULL);
      return 0;
    }
  for (guint n = data[0] % n_elements;; s++)
    {
      stream = sl_pipeline_get_stream (pipeline, s);
      if (n < stream->elements->len)
        {
          e = n;
          break;
        }
      n -= stream->elements->len;
    }
  element = g_ptr_array_index (stream->elements, e);
  if (element->props != NULL && data[1] % 8 < element->props->len)
    key = ((SlPipelineMember *) g_ptr_array_index (element->props, data[1] % 8))->key;
  else
    key = data[1] % 2 ? "fuzzKey" : "factory";
  value = values[(data[1] >> 3) % G_N_ELEMENTS (values)];

  edited = sl_pipeline_editor_set_prop (pipeline, s, e, key, value, &error);
  if (edited == NULL)
    {
      g_assert (error != NULL && error->message != NULL);
      return 0;
    }
  g_assert (error == NULL);

  bytes = g_bytes_get_data (edited, &length);
  again = sl_pipeline_reader_read_data ("fuzz.pipeline", bytes, length);
  check_same (pipeline, again);
  set = sl_pipeline_element_lookup_prop (sl_pipeline_stream_get_element (sl_pipeline_get_stream (again, s), e), key);
  g_assert (set != NULL && set->type == SL_PIPELINE_VALUE_STRING && g_strcmp0 (set->text, value) == 0);

  /* One cut: what is common at both ends covers the original. */
  while (head < size - 2 && head < length && bytes[head] == data[2 + head])
    head++;
  while (tail < size - 2 - head && tail < length - head && bytes[length - 1 - tail] == data[size - 1 - tail])
    tail++;
  g_assert (length >= head + tail);
  return 0;
}
