/* sl-onnx-reader.h: ONNX models (onnx.ModelProto) into the graph model
 *
 * See the .c file for how nodes, initializers, graph inputs and outputs
 * and the subgraphs of If, Loop and Scan map to the model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-graph.h"

G_BEGIN_DECLS

/* Subgraphs (If, Loop, Scan bodies) nested deeper than this are damage. */
#define SL_ONNX_MAX_NESTING 32

gboolean  sl_onnx_sniff   (const guint8  *data,
                           gsize          size);
SlGraph  *sl_onnx_decode  (const guint8  *data,
                           gsize          size,
                           const char    *path,
                           GError       **error);

G_END_DECLS
