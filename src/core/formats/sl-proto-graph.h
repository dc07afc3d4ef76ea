/* sl-proto-graph.h: what the ONNX, MindIR and AIR readers share
 *
 * Both schemas descend from onnx.proto: nodes name their inputs by value,
 * their names are '/'-separated paths, graph inputs and outputs are
 * ValueInfoProto { name 1, type or tensor 2 }. The pieces of reading such
 * a graph that do not depend on which schema it is are here. The AIR
 * reader (GE IR, whose ops name their inputs by op) uses the scopes of
 * names, node paths and the scopes of subgraphs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-proto-wire.h"

G_BEGIN_DECLS

/* The values a graph defines, inside those of the graphs around it. */
typedef struct _SlProtoGraphScope SlProtoGraphScope;
struct _SlProtoGraphScope
{
  SlProtoGraphScope *outer;
  GHashTable        *values;   /* value name → builder element index + 1 */
  GHashTable        *types;    /* value name → SlProtoSlice * of its type, or NULL */
};

/* Which schema a NodeProto is of. */
typedef enum {
  SL_PROTO_GRAPH_ONNX,
  SL_PROTO_GRAPH_MINDIR,
} SlProtoGraphSchema;

/* A NodeProto, its framing checked. */
typedef struct {
  char               *name;
  char               *op_type;
  char               *domain;
  GPtrArray          *inputs;     /* char * */
  GPtrArray          *outputs;    /* char * */
  GArray             *attrs;      /* SlProtoSlice */
  gsize               at;
  char               *path;       /* where it is shown */
  char               *scope;
  /* MindIR: the op type shown (a primitive's, a function's name), and
   * the PrimitiveProto its "REF::" op type names. */
  char               *type;
  const SlProtoSlice *primitive;
} SlProtoNode;

/* A ValueInfoProto: its name and its type (ONNX) or tensor (MindIR). */
typedef struct {
  char         *name;
  SlProtoSlice  type;
  gsize         at;
} SlProtoValueInfo;

guint             sl_proto_graph_scope_resolve (const SlProtoGraphScope *scope,
                                                const char              *value);
void              sl_proto_graph_scope_define  (SlProtoGraphScope       *scope,
                                                const char              *value,
                                                guint                    element);

char             *sl_proto_graph_join_path     (const char              *prefix,
                                                const char              *name);
void              sl_proto_graph_add_folders   (GHashTable              *folders,
                                                const char              *path);
char             *sl_proto_graph_node_path     (const char              *prefix,
                                                const char              *name,
                                                const char              *op_type,
                                                guint                    index);
char             *sl_proto_graph_node_scope    (GHashTable              *folders,
                                                const char              *path);
char             *sl_proto_graph_node_display  (const char              *path,
                                                const char              *scope);
char             *sl_proto_graph_subgraph_path (const char              *node_path,
                                                const char              *label,
                                                guint                    index,
                                                guint                    count);

SlProtoSlice      sl_proto_graph_shown         (const SlProtoSlice      *bytes,
                                                gsize                    max_bytes);
void              sl_proto_graph_append_summary (GString                *out,
                                                 const SlProtoSlice     *graph,
                                                 guint                   node_field,
                                                 guint                   name_field,
                                                 const char             *node_noun,
                                                 const char             *nodes_noun);

SlProtoNode      *sl_proto_node_parse          (const SlProtoSlice      *bytes,
                                                SlProtoGraphSchema       schema,
                                                SlProtoDamage           *damage);
void              sl_proto_node_free           (gpointer                 node);

SlProtoValueInfo *sl_proto_value_info_parse    (const SlProtoSlice      *bytes,
                                                gboolean                 first_type,
                                                SlProtoDamage           *damage);
void              sl_proto_value_info_free     (gpointer                 value_info);

G_END_DECLS
