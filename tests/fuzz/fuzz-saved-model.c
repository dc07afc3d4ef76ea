/* fuzz-saved-model.c: libFuzzer harness for the SavedModel reader and the
 * graph model
 *
 * Each input is decoded three times: as a whole SavedModel; as the
 * GraphDef of a SavedModel's only meta-graph, so that damage in nodes and
 * the function library is reached at once; and as a FunctionDef in that
 * GraphDef's library. The sniff runs on it too. Every graph that comes
 * back is walked whole with its invariants checked (fuzz-graph-walk.h);
 * a NULL result must come with an error.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-graph-walk.h"
#include "sl-saved-model-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
decode (const guint8 *data,
        gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) graphs = sl_saved_model_decode_graphs (data, size, "saved_model.pb", &error);

  if (graphs == NULL)
    {
      if (error == NULL)
        abort ();
      return;
    }
  if (graphs->len == 0)
    abort ();
  for (guint i = 0; i < graphs->len; i++)
    fuzz_walk_graph (g_ptr_array_index (graphs, i), size);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GByteArray *model = g_byte_array_new ();
  GByteArray *meta = g_byte_array_new ();
  GByteArray *library = g_byte_array_new ();
  GByteArray *graph = g_byte_array_new ();

  (void) sl_saved_model_sniff (data, size);
  decode (data, size);

  /* SavedModel { schema 1, meta_graphs { graph_def: <input> } } */
  g_byte_array_append (model, (const guint8 *) "\x08\x01", 2);
  fuzz_append_field (meta, 2, data, size);
  fuzz_append_field (model, 2, meta->data, meta->len);
  decode (model->data, model->len);

  /* ... graph_def { library { function: <input> } } */
  fuzz_append_field (library, 1, data, size);
  fuzz_append_field (graph, 2, library->data, library->len);
  g_byte_array_set_size (meta, 0);
  fuzz_append_field (meta, 2, graph->data, graph->len);
  g_byte_array_set_size (model, 2);
  fuzz_append_field (model, 2, meta->data, meta->len);
  decode (model->data, model->len);

  g_byte_array_unref (graph);
  g_byte_array_unref (library);
  g_byte_array_unref (meta);
  g_byte_array_unref (model);
  return 0;
}
