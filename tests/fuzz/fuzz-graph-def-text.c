/* fuzz-graph-def-text.c: libFuzzer harness for the GraphDef text reader
 * and the graph model
 *
 * Each input is decoded as it is, and inside "node { attr { key: "k"
 * value { ... } } }" so that the tokenizer's value paths are reached at
 * once. The sniff runs on it too. Every graph that comes back is walked
 * whole with its invariants checked (fuzz-graph-walk.h); a NULL result
 * must come with an error.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-graph-walk.h"
#include "sl-graph-def-text.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
decode (const guint8 *data,
        gsize         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = sl_graph_def_text_decode (data, size, "fuzz.pbtxt", &error);

  if (graph == NULL)
    {
      if (error == NULL)
        abort ();
      return;
    }
  fuzz_walk_graph (graph, size + 64);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char head[] = "node { name: \"n\" op: \"Op\" attr { key: \"k\" value { ";
  static const char tail[] = " } } }";
  GByteArray *wrapped = g_byte_array_new ();

  (void) sl_graph_def_text_sniff (data, size);
  decode (data, size);

  g_byte_array_append (wrapped, (const guint8 *) head, sizeof head - 1);
  g_byte_array_append (wrapped, data, size);
  g_byte_array_append (wrapped, (const guint8 *) tail, sizeof tail - 1);
  decode (wrapped->data, wrapped->len);
  g_byte_array_unref (wrapped);
  return 0;
}
