/* sl-graph-def-reader.h: TensorFlow GraphDef graphs into the graph model
 *
 * TensorBoard's graph_def events, and .pb files that hold a GraphDef
 * instead of a MindSpore GraphProto or ModelProto, carry a GraphDef:
 * NodeDefs naming their inputs ("node", "node:1", "^node" for a control
 * input), their op type and attributes. See the .c file for how they map
 * to ops, constants and scopes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-graph.h"
#include "sl-graph-builder.h"

G_BEGIN_DECLS

gboolean  sl_graph_def_sniff       (const guint8  *data,
                                    gsize          size);
SlGraph  *sl_graph_def_decode      (const guint8  *data,
                                    gsize          size,
                                    const char    *path,
                                    GError       **error);

guint     sl_graph_def_add_nodes   (SlGraphBuilder *builder,
                                    const guint8   *data,
                                    gsize           size,
                                    gsize           base,
                                    guint           node_field,
                                    const char     *prefix,
                                    gboolean        function,
                                    const char     *path);
void      sl_graph_def_append_tensor_type (GString      *out,
                                    guint64       dtype,
                                    const guint8 *shape,
                                    gsize         shape_size);

G_END_DECLS
