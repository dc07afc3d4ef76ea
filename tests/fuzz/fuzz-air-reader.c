/* fuzz-air-reader.c: libFuzzer harness for the AIR and OM readers and
 * the graph model
 *
 * Each input is decoded five times: as a whole AIR ModelDef; as the graph
 * of a ModelDef (field 7 after its name), so that damage inside the graph
 * is reached at once; as the GraphDef in a g attribute of an op of such a
 * graph, read as a subgraph in the scope of its op; as a whole OM file;
 * and as the model-definition partition of an OM file written around it
 * (its header, a partition table of the model definition and a weights
 * partition). The sniffs run on it too. Every graph that comes back is
 * walked whole (fuzz-graph-walk.h), with its invariants checked: sources
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
#include "sl-air-reader.h"
#include "sl-om-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
check (SlGraph *graph,
       GError  *error,
       gsize    size)
{
  if (graph == NULL)
    {
      if (error == NULL)
        abort ();
      return;
    }
  fuzz_walk_graph (graph, size);
}

static void
decode_air (const guint8 *data,
            gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_air_decode (data, size, "fuzz.air", &error);

  check (graph, error, size);
}

static void
decode_om (const guint8 *data,
           gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_om_decode (data, size, "fuzz.om", &error);

  check (graph, error, size);
}

static void
append_u32 (GByteArray *out,
            guint32     value)
{
  guint32 le = GUINT32_TO_LE (value);

  g_byte_array_append (out, (const guint8 *) &le, 4);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GByteArray *model = g_byte_array_new ();
  GByteArray *attr = g_byte_array_new ();
  GByteArray *entry = g_byte_array_new ();
  GByteArray *op = g_byte_array_new ();
  GByteArray *graph = g_byte_array_new ();
  GByteArray *om = g_byte_array_new ();
  guint8 header[SL_OM_HEADER_SIZE] = { 0 };

  (void) sl_air_sniff (data, size);
  (void) sl_om_sniff (data, size);
  decode_air (data, size);
  decode_om (data, size);

  /* ModelDef { name: "m", graph: <input> } */
  fuzz_append_field (model, 1, (const guint8 *) "m", 1);
  fuzz_append_field (model, 7, data, size);
  decode_air (model->data, model->len);

  /* ... graph { op { name "if", type "If", input "x:0",
   * attr { key "then_branch", value { g: <input> } } }, op { name "x" } } */
  fuzz_append_field (attr, 13, data, size);
  fuzz_append_field (entry, 1, (const guint8 *) "then_branch", 11);
  fuzz_append_field (entry, 2, attr->data, attr->len);
  fuzz_append_field (op, 1, (const guint8 *) "if", 2);
  fuzz_append_field (op, 2, (const guint8 *) "If", 2);
  fuzz_append_field (op, 5, (const guint8 *) "x:0", 3);
  fuzz_append_field (op, 10, entry->data, entry->len);
  fuzz_append_field (graph, 6, op->data, op->len);
  g_byte_array_set_size (op, 0);
  fuzz_append_field (op, 1, (const guint8 *) "x", 1);
  fuzz_append_field (graph, 6, op->data, op->len);
  g_byte_array_set_size (model, 0);
  fuzz_append_field (model, 7, graph->data, graph->len);
  decode_air (model->data, model->len);

  /* An OM: header, two partitions (the input as the model definition,
   * 16 bytes of weights), then their data. */
  memcpy (header, "IMOD", 4);
  header[4] = 0x00;
  header[5] = 0x01;
  g_byte_array_append (om, header, sizeof header);
  append_u32 (om, 2);
  append_u32 (om, 0);
  append_u32 (om, 0);
  append_u32 (om, (guint32) MIN (size, G_MAXUINT32));
  append_u32 (om, 1);
  append_u32 (om, (guint32) MIN (size, G_MAXUINT32));
  append_u32 (om, 16);
  g_byte_array_append (om, data, size);
  g_byte_array_append (om, header + 64, 16);
  decode_om (om->data, om->len);

  g_byte_array_unref (om);
  g_byte_array_unref (graph);
  g_byte_array_unref (op);
  g_byte_array_unref (entry);
  g_byte_array_unref (attr);
  g_byte_array_unref (model);
  return 0;
}
