/* fuzz-mindir-reader.c: libFuzzer harness for the MindIR reader and the
 * graph model
 *
 * Each input is decoded five times: as a whole ModelProto; as its graph
 * (field 7 after ir_version), so that damage inside the graph is reached
 * at once; as a function (field 8) beside a graph whose values it may
 * use; as the graph of an attribute of a node, read as a graph nested in
 * the scope of its node; and as an attribute of a node, so that values
 * nested in values are reached. The sniff runs on it too. Every graph
 * that comes back is walked whole, with its invariants checked: sources
 * are elements, attributes and metadata are UTF-8, every item but the
 * root is one item's child, one level deeper, edges join children of
 * their container, problems point inside the input.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-graph-walk.h"
#include "sl-mindir-reader.h"

/* ModelProto { ir_version: "1" } */
#define IR_VERSION "\x0a\x01" "1"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
decode (const guint8 *data,
        gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_mindir_decode (data, size, "fuzz.mindir", &error);

  if (graph == NULL)
    {
      if (error == NULL)
        abort ();
      return;
    }
  fuzz_walk_graph (graph, size);
}

/* ModelProto { ir_version "1", graph { node { output "v", name "n",
 * op_type "Switch", attribute <attr> } } } */
static void
decode_with_attribute (const guint8 *attr,
                       gsize         attr_size)
{
  GByteArray *model = g_byte_array_new ();
  GByteArray *node = g_byte_array_new ();
  GByteArray *graph = g_byte_array_new ();

  fuzz_append_field (node, 2, (const guint8 *) "v", 1);
  fuzz_append_field (node, 3, (const guint8 *) "n", 1);
  fuzz_append_field (node, 4, (const guint8 *) "Switch", 6);
  fuzz_append_field (node, 5, attr, attr_size);
  fuzz_append_field (graph, 1, node->data, node->len);
  g_byte_array_append (model, (const guint8 *) IR_VERSION, 3);
  fuzz_append_field (model, 7, graph->data, graph->len);
  decode (model->data, model->len);
  g_byte_array_unref (graph);
  g_byte_array_unref (node);
  g_byte_array_unref (model);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GByteArray *model = g_byte_array_new ();
  GByteArray *attr = g_byte_array_new ();

  (void) sl_mindir_sniff (data, size);
  decode (data, size);

  /* ModelProto { ir_version "1", graph: <input> } */
  g_byte_array_append (model, (const guint8 *) IR_VERSION, 3);
  fuzz_append_field (model, 7, data, size);
  decode (model->data, model->len);

  /* ... and a function: <input> */
  fuzz_append_field (model, 8, data, size);
  decode (model->data, model->len);

  /* An attribute { name "body", g: <input> } of a node. */
  fuzz_append_field (attr, 1, (const guint8 *) "body", 4);
  fuzz_append_field (attr, 7, data, size);
  decode_with_attribute (attr->data, attr->len);

  /* The input as the attribute itself. */
  decode_with_attribute (data, size);

  g_byte_array_unref (attr);
  g_byte_array_unref (model);
  return 0;
}
