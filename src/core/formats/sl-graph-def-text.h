/* sl-graph-def-text.h: TensorFlow GraphDefs in protobuf text format (.pbtxt)
 *
 * The text (as tf.io.write_graph(as_text=True) writes it) is tokenized and
 * turned into the binary GraphDef it stands for, which the GraphDef reader
 * maps onto the graph model. See the .c file for what is understood.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-graph.h"

G_BEGIN_DECLS

/* Messages nested deeper than this are damage. */
#define SL_GRAPH_DEF_TEXT_MAX_NESTING 32

gboolean  sl_graph_def_text_sniff   (const guint8  *data,
                                     gsize          size);
SlGraph  *sl_graph_def_text_decode  (const guint8  *data,
                                     gsize          size,
                                     const char    *path,
                                     GError       **error);

G_END_DECLS
