/* fuzz-onnx-reader.c: libFuzzer harness for the ONNX reader and the graph
 * model
 *
 * Each input is decoded three times: as a whole ModelProto, as the graph
 * of a ModelProto (field 7 after ir_version), so that damage inside the
 * graph is reached at once, and as the then_branch of an If in such a
 * graph, so that it is read as a subgraph in the scope of its node with
 * the outer graph's values in reach. The sniff runs on it too. Every
 * graph that comes back is walked whole (fuzz-graph-walk.h), with its invariants checked:
 * sources are elements, attributes and metadata are UTF-8, every item
 * but the root is one item's child, one level deeper, edges join
 * children of their container, problems point inside the input.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-graph-walk.h"
#include "sl-onnx-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
decode (const guint8 *data,
        gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_onnx_decode (data, size, "fuzz.onnx", &error);

  if (graph == NULL)
    {
      if (error == NULL)
        abort ();
      return;
    }
  fuzz_walk_graph (graph, size);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GByteArray *model = g_byte_array_new ();
  GByteArray *attr = g_byte_array_new ();
  GByteArray *node = g_byte_array_new ();
  GByteArray *graph = g_byte_array_new ();

  (void) sl_onnx_sniff (data, size);
  decode (data, size);

  /* ModelProto { ir_version: 8, graph: <input> } */
  g_byte_array_append (model, (const guint8 *) "\x08\x08", 2);
  fuzz_append_field (model, 7, data, size);
  decode (model->data, model->len);

  /* ... graph { node { output "v", name "if", op_type "If",
   * attribute { name "then_branch", g: <input> } }, input "v" } */
  fuzz_append_field (attr, 1, (const guint8 *) "then_branch", 11);
  fuzz_append_field (attr, 6, data, size);
  fuzz_append_field (node, 2, (const guint8 *) "v", 1);
  fuzz_append_field (node, 3, (const guint8 *) "if", 2);
  fuzz_append_field (node, 4, (const guint8 *) "If", 2);
  fuzz_append_field (node, 5, attr->data, attr->len);
  fuzz_append_field (graph, 1, node->data, node->len);
  g_byte_array_set_size (model, 2);
  fuzz_append_field (model, 7, graph->data, graph->len);
  decode (model->data, model->len);

  g_byte_array_unref (graph);
  g_byte_array_unref (node);
  g_byte_array_unref (attr);
  g_byte_array_unref (model);
  return 0;
}
