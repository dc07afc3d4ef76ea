/* graph-query.h: looking things up in a read SlGraph, for the model
 * readers' tests (ONNX, MindIR, AIR/OM, SavedModel)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-graph.h"

/* The element whose name in the file is @name. */
G_GNUC_UNUSED static guint
graph_query_by_proto_name (SlGraph    *graph,
                           const char *name)
{
  for (guint e = 0; e < sl_graph_get_n_elements (graph); e++)
    if (g_strcmp0 (sl_graph_element_get_proto_name (graph, e), name) == 0)
      return e;
  return SL_GRAPH_NONE;
}

/* The element shown as @name (its name inside its scope). */
G_GNUC_UNUSED static guint
graph_query_by_shown_name (SlGraph    *graph,
                           const char *name)
{
  for (guint e = 0; e < sl_graph_get_n_elements (graph); e++)
    {
      g_autofree char *shown = sl_graph_element_dup_name (graph, e);

      if (g_strcmp0 (shown, name) == 0)
        return e;
    }
  return SL_GRAPH_NONE;
}

G_GNUC_UNUSED static const char *
graph_query_attribute (SlGraph    *graph,
                       guint       element,
                       const char *name)
{
  for (guint i = 0; i < sl_graph_element_get_n_attributes (graph, element); i++)
    {
      const char *value = NULL;

      if (g_strcmp0 (sl_graph_element_get_attribute (graph, element, i, &value), name) == 0)
        return value;
    }
  return NULL;
}

G_GNUC_UNUSED static const char *
graph_query_metadata (SlGraph    *graph,
                      const char *key)
{
  for (guint i = 0; i < sl_graph_get_n_metadata (graph); i++)
    {
      const char *value = NULL;

      if (g_strcmp0 (sl_graph_get_metadata (graph, i, &value), key) == 0)
        return value;
    }
  return NULL;
}

/* "float32[1,3,224,224]" for output @index of @element ("float32." for
 * a scalar). */
G_GNUC_UNUSED static char *
graph_query_output_text (SlGraph *graph,
                         guint    element,
                         guint    index)
{
  const gint64 *dims;
  guint n_dims;
  int dtype = sl_graph_element_get_output (graph, element, index, &dims, &n_dims);
  GString *text = g_string_new (sl_graph_dtype_to_string (dtype));

  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (text, "%c%" G_GINT64_FORMAT, i == 0 ? '[' : ',', dims[i]);
  g_string_append_c (text, n_dims > 0 ? ']' : '.');
  return g_string_free (text, FALSE);
}

/* The element input @index of @element comes from: its name in the file
 * (@shown FALSE) or as shown (@shown TRUE); "-" when none. */
G_GNUC_UNUSED static char *
graph_query_input_source (SlGraph  *graph,
                          guint     element,
                          guint     index,
                          gboolean  shown)
{
  guint source = sl_graph_element_get_input (graph, element, index, NULL, NULL);

  if (source == SL_GRAPH_NONE)
    return g_strdup ("-");
  return shown ? sl_graph_element_dup_name (graph, source) : g_strdup (sl_graph_element_get_proto_name (graph, source));
}
