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

#include "sl-mindir-reader.h"

/* ModelProto { ir_version: "1" } */
#define IR_VERSION "\x0a\x01" "1"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
walk (SlGraph *graph,
      gsize    limit)
{
  GPtrArray *problems = sl_graph_get_problems (graph);
  guint n_children = 0;

  for (guint e = 0; e < sl_graph_get_n_elements (graph); e++)
    {
      g_autofree char *name = sl_graph_element_dup_name (graph, e);
      g_autofree char *scope = sl_graph_element_dup_scope (graph, e);

      if (!g_utf8_validate (name, -1, NULL))
        abort ();
      for (guint i = 0; i < sl_graph_element_get_n_inputs (graph, e); i++)
        {
          const char *input_name = NULL;
          guint source = sl_graph_element_get_input (graph, e, i, NULL, &input_name);

          if ((source != SL_GRAPH_NONE && source >= sl_graph_get_n_elements (graph)) || input_name == NULL)
            abort ();
        }
      for (guint i = 0; i < sl_graph_element_get_n_attributes (graph, e); i++)
        {
          const char *value = NULL;

          if (!g_utf8_validate (sl_graph_element_get_attribute (graph, e, i, &value), -1, NULL) ||
              value == NULL || !g_utf8_validate (value, -1, NULL))
            abort ();
        }
      for (guint i = 0; i < sl_graph_element_get_n_outputs (graph, e); i++)
        {
          const gint64 *dims;
          guint n_dims;

          (void) sl_graph_dtype_to_string (sl_graph_element_get_output (graph, e, i, &dims, &n_dims));
          for (guint d = 0; d < n_dims; d++)
            (void) dims[d];
        }
      if (sl_graph_element_get_item (graph, e) >= sl_graph_get_n_items (graph))
        abort ();
    }
  for (guint i = 0; i < sl_graph_get_n_metadata (graph); i++)
    {
      const char *value = NULL;

      if (!g_utf8_validate (sl_graph_get_metadata (graph, i, &value), -1, NULL) || !g_utf8_validate (value, -1, NULL))
        abort ();
    }
  for (guint item = 0; item < sl_graph_get_n_items (graph); item++)
    {
      guint n = sl_graph_item_get_n_children (graph, item);

      n_children += n;
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
    }
  if (n_children + 1 != sl_graph_get_n_items (graph))
    abort ();
  for (guint i = 0; i < problems->len; i++)
    {
      gint64 offset = sl_problem_get_offset (g_ptr_array_index (problems, i));

      if (offset < -1 || offset > (gint64) limit)
        abort ();
    }
}

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
  walk (graph, size);
}

static void
append_varint (GByteArray *out,
               guint64     value)
{
  do
    {
      guint8 byte = (value & 0x7f) | (value >= 0x80 ? 0x80 : 0);

      g_byte_array_append (out, &byte, 1);
      value >>= 7;
    }
  while (value != 0);
}

static void
append_field (GByteArray   *out,
              guint         field,
              const guint8 *data,
              gsize         size)
{
  append_varint (out, (field << 3) | 2);
  append_varint (out, size);
  g_byte_array_append (out, data, size);
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

  append_field (node, 2, (const guint8 *) "v", 1);
  append_field (node, 3, (const guint8 *) "n", 1);
  append_field (node, 4, (const guint8 *) "Switch", 6);
  append_field (node, 5, attr, attr_size);
  append_field (graph, 1, node->data, node->len);
  g_byte_array_append (model, (const guint8 *) IR_VERSION, 3);
  append_field (model, 7, graph->data, graph->len);
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
  append_field (model, 7, data, size);
  decode (model->data, model->len);

  /* ... and a function: <input> */
  append_field (model, 8, data, size);
  decode (model->data, model->len);

  /* An attribute { name "body", g: <input> } of a node. */
  append_field (attr, 1, (const guint8 *) "body", 4);
  append_field (attr, 7, data, size);
  decode_with_attribute (attr->data, attr->len);

  /* The input as the attribute itself. */
  decode_with_attribute (data, size);

  g_byte_array_unref (attr);
  g_byte_array_unref (model);
  return 0;
}
