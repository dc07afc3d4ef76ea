/* sl-graph.h: one MindSpore computational graph and its scope hierarchy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A graph holds elements — ops (NodeProto), parameters and constants — in
 * columnar arrays: element e is an op for e < n_ops, then come the
 * parameters, then the constants, each in file order. Strings are
 * interned; inputs, attributes, outputs and consumers are arrays of
 * indices with per-element offsets, so a 20,000-op graph costs a few MB.
 *
 * On top of the elements sits the hierarchy a graph view shows: items
 * (scopes, ops, parameters, constants, groups, proxies, sections) in a
 * tree whose root is item 0. The rules, as MindInsight's graph dashboard
 * applies them where it has one:
 *
 * - Scopes come from the scope strings, split at '/'; an op without a
 *   scope sits at the root.
 * - SL_GRAPH_GROUP_MIN_SIBLINGS (5) or more ops of one op type that are
 *   children of one scope fold into a group item (label "OpType[N]"),
 *   which a view expands.
 * - A constant sits inside each op that consumes it (one item per
 *   consumer); edges from constants stay inside their consumer.
 * - A parameter sits in the lowest common scope of its consumers.
 * - A parameter or op that feeds SL_GRAPH_PROXY_MIN_CONSUMERS (16) or
 *   more ops lying in two or more different scopes is shown by a proxy
 *   item in each consuming scope other than its own: its edges start at
 *   the proxy, so no edge crosses the whole graph (attention masks,
 *   rotary tables, learning rate, optimizer state).
 * - A container with more than SL_GRAPH_SECTION_MAX_CHILDREN (1,000)
 *   children gets numbered sections ("#1", "#2", …) of at most that many,
 *   again and again until every container is small enough.
 * - Graph inputs and outputs (ONNX: the values a graph takes and gives,
 *   weights excepted) are elements of their own kinds, shown as parameter
 *   items at the top of the scope of the graph they belong to (the root,
 *   or a subgraph's scope); an output's one input is the value's producer.
 * - Nothing is refused: no depth, size or name length limit.
 *
 * Every edge between two elements is lifted to the children of the lowest
 * common ancestor of its two ends, so that a layout can place each
 * expanded container on its own: sl_graph_item_get_n_edges() lists the
 * edges among the children of one container, with the number of element
 * edges each stands for. Data and control edges are kept apart.
 */
#pragma once

#include <glib-object.h>

#include "sl-problem.h"

G_BEGIN_DECLS

#define SL_GRAPH_NONE G_MAXUINT32

#define SL_GRAPH_GROUP_MIN_SIBLINGS   5
#define SL_GRAPH_PROXY_MIN_CONSUMERS  16
#define SL_GRAPH_SECTION_MAX_CHILDREN 1000

typedef enum {
  SL_GRAPH_ELEMENT_OP,
  SL_GRAPH_ELEMENT_PARAMETER,
  SL_GRAPH_ELEMENT_CONST,
  SL_GRAPH_ELEMENT_INPUT,   /* a graph input */
  SL_GRAPH_ELEMENT_OUTPUT,  /* a graph output */
} SlGraphElementKind;

typedef enum {
  SL_GRAPH_EDGE_DATA,
  SL_GRAPH_EDGE_CONTROL,
} SlGraphEdgeKind;

typedef enum {
  SL_GRAPH_ITEM_SCOPE,      /* item 0, the root, is a scope with an empty label */
  SL_GRAPH_ITEM_OP,
  SL_GRAPH_ITEM_PARAMETER,
  SL_GRAPH_ITEM_CONST,
  SL_GRAPH_ITEM_GROUP,
  SL_GRAPH_ITEM_PROXY,
  SL_GRAPH_ITEM_SECTION,
} SlGraphItemKind;

/* Data types without a MindSpore DataType (ONNX has them), numbered
 * past MindSpore's enum. */
enum {
  SL_GRAPH_DTYPE_BFLOAT16 = 200,
  SL_GRAPH_DTYPE_COMPLEX64,
  SL_GRAPH_DTYPE_COMPLEX128,
  SL_GRAPH_DTYPE_FLOAT8E4M3FN,
  SL_GRAPH_DTYPE_FLOAT8E4M3FNUZ,
  SL_GRAPH_DTYPE_FLOAT8E5M2,
  SL_GRAPH_DTYPE_FLOAT8E5M2FNUZ,
  SL_GRAPH_DTYPE_UINT4,
  SL_GRAPH_DTYPE_INT4,
  SL_GRAPH_DTYPE_FLOAT4E2M1,
};

#define SL_TYPE_GRAPH (sl_graph_get_type ())
G_DECLARE_FINAL_TYPE (SlGraph, sl_graph, SL, GRAPH, GObject)

const char         *sl_graph_get_name               (SlGraph         *self);
const char         *sl_graph_get_root_name          (SlGraph         *self);
GPtrArray          *sl_graph_get_problems           (SlGraph         *self);
gsize               sl_graph_get_memory_size        (SlGraph         *self);
guint               sl_graph_get_n_metadata         (SlGraph         *self);
const char         *sl_graph_get_metadata           (SlGraph         *self,
                                                     guint            index,
                                                     const char     **value);
const char         *sl_graph_metadata_key_to_label  (const char      *key);

/* Elements */
guint               sl_graph_get_n_elements         (SlGraph         *self);
guint               sl_graph_get_n_ops              (SlGraph         *self);
guint               sl_graph_get_n_parameters       (SlGraph         *self);
guint               sl_graph_get_n_consts           (SlGraph         *self);
guint               sl_graph_get_n_graph_inputs     (SlGraph         *self);
guint               sl_graph_get_n_graph_outputs    (SlGraph         *self);
guint               sl_graph_get_n_data_edges       (SlGraph         *self);
guint               sl_graph_get_n_control_edges    (SlGraph         *self);
guint               sl_graph_get_n_dangling_inputs  (SlGraph         *self);
guint               sl_graph_get_n_scopes           (SlGraph         *self);

SlGraphElementKind  sl_graph_element_get_kind       (SlGraph         *self,
                                                     guint            element);
const char         *sl_graph_element_get_proto_name (SlGraph         *self,
                                                     guint            element);
char               *sl_graph_element_dup_name       (SlGraph         *self,
                                                     guint            element);
const char         *sl_graph_element_get_op_type    (SlGraph         *self,
                                                     guint            element);
char               *sl_graph_element_dup_scope      (SlGraph         *self,
                                                     guint            element);
const char         *sl_graph_element_get_instance_name (SlGraph      *self,
                                                     guint            element);
const char         *sl_graph_element_get_source_address (SlGraph     *self,
                                                     guint            element);
guint               sl_graph_element_get_n_attributes (SlGraph       *self,
                                                     guint            element);
const char         *sl_graph_element_get_attribute  (SlGraph         *self,
                                                     guint            element,
                                                     guint            index,
                                                     const char     **value);
guint               sl_graph_element_get_n_inputs   (SlGraph         *self,
                                                     guint            element);
guint               sl_graph_element_get_input      (SlGraph         *self,
                                                     guint            element,
                                                     guint            index,
                                                     SlGraphEdgeKind *kind,
                                                     const char     **name);
guint               sl_graph_element_get_n_consumers (SlGraph        *self,
                                                     guint            element);
guint               sl_graph_element_get_consumer   (SlGraph         *self,
                                                     guint            element,
                                                     guint            index);
guint               sl_graph_element_get_n_outputs  (SlGraph         *self,
                                                     guint            element);
int                 sl_graph_element_get_output     (SlGraph         *self,
                                                     guint            element,
                                                     guint            index,
                                                     const gint64   **dims,
                                                     guint           *n_dims);
guint               sl_graph_element_get_item       (SlGraph         *self,
                                                     guint            element);
guint               sl_graph_lookup_op              (SlGraph         *self,
                                                     const char      *op_name);

/* The hierarchy */
guint               sl_graph_get_n_items            (SlGraph         *self);
SlGraphItemKind     sl_graph_item_get_kind          (SlGraph         *self,
                                                     guint            item);
guint               sl_graph_item_get_parent        (SlGraph         *self,
                                                     guint            item);
guint               sl_graph_item_get_depth         (SlGraph         *self,
                                                     guint            item);
const char         *sl_graph_item_get_label         (SlGraph         *self,
                                                     guint            item);
char               *sl_graph_item_dup_path          (SlGraph         *self,
                                                     guint            item);
const char         *sl_graph_item_get_op_type       (SlGraph         *self,
                                                     guint            item);
guint               sl_graph_item_get_element       (SlGraph         *self,
                                                     guint            item);
guint               sl_graph_item_get_n_children    (SlGraph         *self,
                                                     guint            item);
guint               sl_graph_item_get_child         (SlGraph         *self,
                                                     guint            item,
                                                     guint            index);
guint               sl_graph_item_get_n_edges       (SlGraph         *self,
                                                     guint            item);
void                sl_graph_item_get_edge          (SlGraph         *self,
                                                     guint            item,
                                                     guint            index,
                                                     guint           *from,
                                                     guint           *to,
                                                     SlGraphEdgeKind *kind,
                                                     guint           *count);
guint               sl_graph_find_item              (SlGraph         *self,
                                                     const char      *path);

const char         *sl_graph_item_kind_to_string    (SlGraphItemKind  kind);
const char         *sl_graph_dtype_to_string        (int              dtype);

G_END_DECLS
