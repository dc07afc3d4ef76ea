/* sl-mindir-reader.h: MindSpore MindIR models (mind_ir.ModelProto) into the graph model
 *
 * See the .c file for how nodes, parameters, graph inputs and outputs,
 * functions and primitives map to the model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-graph.h"

G_BEGIN_DECLS

/* Graphs inside attributes, and attribute values inside values, nested
 * deeper than this are damage. */
#define SL_MINDIR_MAX_NESTING 32

gboolean  sl_mindir_sniff   (const guint8  *data,
                             gsize          size);
SlGraph  *sl_mindir_decode  (const guint8  *data,
                             gsize          size,
                             const char    *path,
                             GError       **error);

G_END_DECLS
