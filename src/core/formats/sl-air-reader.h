/* sl-air-reader.h: Ascend GE IR models (AIR, ge.proto.ModelDef) into the
 * graph model
 *
 * See the .c file for how graphs, ops, constants and subgraphs map to the
 * model. The OM reader decodes its model-definition partition with
 * sl_air_read_model_def().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-graph.h"
#include "sl-graph-builder.h"
#include "sl-proto-wire.h"

G_BEGIN_DECLS

/* Subgraphs (g attributes, subgraph_name) nested deeper than this are damage. */
#define SL_AIR_MAX_NESTING 32

gboolean  sl_air_sniff           (const guint8        *data,
                                  gsize                size);
SlGraph  *sl_air_decode          (const guint8        *data,
                                  gsize                size,
                                  const char          *path,
                                  GError             **error);
SlGraph  *sl_air_read_model_def  (SlGraphBuilder      *builder,
                                  const SlProtoSlice  *model,
                                  const char          *path,
                                  const char          *format,
                                  GError             **error);

G_END_DECLS
