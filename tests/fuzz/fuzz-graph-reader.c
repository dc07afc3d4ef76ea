/* fuzz-graph-reader.c: libFuzzer harness for the graph reader and model
 *
 * Each input is decoded three times: as the bytes of a .pb (GraphProto,
 * ModelProto or, when sniffed as one, GraphDef), wrapped as field 4 of a
 * ModelProto, so that damage inside a nested graph is reached too, and
 * as a TensorFlow GraphDef whatever the sniff says. Every graph that comes back is
 * walked whole: elements, inputs, attributes, outputs, the hierarchy and
 * its lifted edges, with the invariants checked (parents and children
 * agree, depths grow by one, edges join children of their container,
 * problems point inside the input).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sl-graph-def-reader.h"
#include "sl-graph-reader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
walk_elements (SlGraph *graph)
{
  for (guint e = 0; e < sl_graph_get_n_elements (graph); e++)
    {
      g_autofree char *name = sl_graph_element_dup_name (graph, e);
      g_autofree char *scope = sl_graph_element_dup_scope (graph, e);

      if (!g_utf8_validate (scope, -1, NULL))
        abort ();
      if (sl_graph_element_get_kind (graph, e) == SL_GRAPH_ELEMENT_OP &&
          sl_graph_lookup_op (graph, name) == SL_GRAPH_NONE)
        abort ();
      for (guint i = 0; i < sl_graph_element_get_n_inputs (graph, e); i++)
        {
          const char *input_name = NULL;
          guint source = sl_graph_element_get_input (graph, e, i, NULL, &input_name);

          if (source != SL_GRAPH_NONE && source >= sl_graph_get_n_elements (graph))
            abort ();
          if (input_name == NULL)
            abort ();
        }
      for (guint i = 0; i < sl_graph_element_get_n_attributes (graph, e); i++)
        {
          const char *value = NULL;

          if (sl_graph_element_get_attribute (graph, e, i, &value) == NULL || value == NULL ||
              !g_utf8_validate (value, -1, NULL))
            abort ();
        }
      for (guint i = 0; i < sl_graph_element_get_n_outputs (graph, e); i++)
        {
          const gint64 *dims;
          guint n_dims;

          sl_graph_element_get_output (graph, e, i, &dims, &n_dims);
          for (guint d = 0; d < n_dims; d++)
            (void) dims[d];
        }
      if (sl_graph_element_get_item (graph, e) >= sl_graph_get_n_items (graph))
        abort ();
    }
}

static void
walk_items (SlGraph *graph)
{
  guint n_children = 0;

  for (guint item = 0; item < sl_graph_get_n_items (graph); item++)
    {
      guint n = sl_graph_item_get_n_children (graph, item);

      n_children += n;
      if (n > SL_GRAPH_SECTION_MAX_CHILDREN)
        abort ();
      for (guint i = 0; i < n; i++)
        {
          guint child = sl_graph_item_get_child (graph, item, i);

          if (sl_graph_item_get_parent (graph, child) != item ||
              sl_graph_item_get_depth (graph, child) != sl_graph_item_get_depth (graph, item) + 1)
            abort ();
        }
      for (guint i = 0; i < sl_graph_item_get_n_edges (graph, item); i++)
        {
          guint from, to, count;

          sl_graph_item_get_edge (graph, item, i, &from, &to, NULL, &count);
          if (sl_graph_item_get_parent (graph, from) != item || sl_graph_item_get_parent (graph, to) != item ||
              count == 0)
            abort ();
        }
      (void) sl_graph_item_get_op_type (graph, item);
      (void) sl_graph_item_get_label (graph, item);
    }
  /* Every item but the root is somebody's child, once. */
  if (n_children + 1 != sl_graph_get_n_items (graph))
    abort ();
}

static void
decode (const uint8_t *data,
        size_t         size,
        gsize          limit,
        gboolean       graph_def)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraph) graph = graph_def ? sl_graph_def_decode (data, size, "fuzz.pb", &error)
                                       : sl_graph_reader_decode_data (data, size, "fuzz.pb", &error);
  GPtrArray *problems;

  if (graph == NULL)
    {
      if (error == NULL)
        abort ();
      return;
    }
  walk_elements (graph);
  walk_items (graph);
  problems = sl_graph_get_problems (graph);
  for (guint i = 0; i < problems->len; i++)
    {
      gint64 offset = sl_problem_get_offset (g_ptr_array_index (problems, i));

      if (offset < -1 || offset > (gint64) limit)
        abort ();
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  GByteArray *model = g_byte_array_new ();
  guint8 header[12];
  gsize n = 0;
  guint64 len = size;

  decode (data, size, size, FALSE);
  decode (data, size, size, TRUE);

  /* ModelProto { ir_version: 1, graph: <input> } */
  header[n++] = 0x08;
  header[n++] = 0x01;
  header[n++] = 0x22;
  do
    {
      header[n++] = (len & 0x7f) | (len >= 0x80 ? 0x80 : 0);
      len >>= 7;
    }
  while (len != 0);
  g_byte_array_append (model, header, n);
  g_byte_array_append (model, data, size);
  decode (model->data, model->len, model->len, FALSE);
  g_byte_array_unref (model);
  return 0;
}
