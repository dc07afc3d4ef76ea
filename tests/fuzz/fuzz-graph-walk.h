/* fuzz-graph-walk.h: walks a graph that a reader gave back, checking the
 * graph model's invariants, for the model readers' fuzz harnesses
 *
 * Sources are elements, attributes and metadata are UTF-8, every item
 * but the root is one item's child, one level deeper, edges join
 * children of their container, problems point inside the input (at most
 * @limit). A broken invariant aborts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdlib.h>
#include <glib.h>

#include "sl-graph.h"

G_GNUC_UNUSED static void
fuzz_walk_graph (SlGraph *graph,
                 gsize    limit)
{
  GPtrArray *problems = sl_graph_get_problems (graph);
  guint n_children = 0;

  for (guint e = 0; e < sl_graph_get_n_elements (graph); e++)
    {
      g_autofree char *name = sl_graph_element_dup_name (graph, e);
      g_autofree char *scope = sl_graph_element_dup_scope (graph, e);

      if (!g_utf8_validate (name, -1, NULL) || !g_utf8_validate (scope, -1, NULL))
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

/* Protobuf bytes for the harnesses that wrap an input in the messages
 * around it. */
G_GNUC_UNUSED static void
fuzz_append_varint (GByteArray *out,
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

/* A length-delimited field */
G_GNUC_UNUSED static void
fuzz_append_field (GByteArray   *out,
                   guint         field,
                   const guint8 *data,
                   gsize         size)
{
  fuzz_append_varint (out, (field << 3) | 2);
  fuzz_append_varint (out, size);
  g_byte_array_append (out, data, size);
}
