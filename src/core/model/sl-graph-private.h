/* sl-graph-private.h: the columns of SlGraph, shared by its builder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-graph.h"
#include "sl-intern-table.h"

G_BEGIN_DECLS

struct _SlGraph
{
  GObject        parent_instance;

  SlInternTable *strings;          /* id 0 is "" */
  guint32        name;
  guint32        root_name;
  GPtrArray     *problems;
  guint          n_metadata;
  guint32       *metadata;         /* key, value pairs */

  /* Elements: ops, then parameters, constants, graph inputs and graph
   * outputs. */
  guint          n_elements;
  guint          n_ops;
  guint          n_parameters;
  guint          n_consts;
  guint          n_graph_inputs;
  guint          n_graph_outputs;
  guint8        *kind;             /* SlGraphElementKind */
  guint32       *proto_name;       /* the name inputs refer to */
  guint32       *name_dir;         /* display name = name_dir "/" name_tail */
  guint32       *name_tail;
  guint32       *op_type;
  guint32       *scope;            /* the scope string */
  guint32       *instance_name;
  guint32       *source_address;
  guint32       *attr_offsets;     /* n_elements + 1 */
  guint32       *attr_name;
  guint32       *attr_value;
  guint32       *input_offsets;    /* n_elements + 1 */
  guint32       *input_source;     /* element, or SL_GRAPH_NONE when it names none */
  guint32       *input_name;
  guint8        *input_kind;       /* SlGraphEdgeKind */
  guint32       *consumer_offsets; /* n_elements + 1 */
  guint32       *consumers;        /* distinct consuming elements, in element order */
  guint32       *output_offsets;   /* n_elements + 1 */
  guint8        *output_dtype;
  guint32       *dims_offsets;     /* n_outputs + 1 */
  gint64        *dims;
  guint32       *element_item;     /* the element's item (a constant: its first copy) */

  /* Op lookup: (name_tail << 32 | name_dir) sorted, with the op. */
  guint64       *lookup_key;
  guint32       *lookup_op;

  guint          n_data_edges;
  guint          n_control_edges;
  guint          n_dangling;
  guint          n_scopes;

  /* Items: item 0 is the root. */
  guint          n_items;
  guint8        *item_kind;        /* SlGraphItemKind */
  guint32       *item_parent;
  guint32       *item_depth;
  guint32       *item_label;
  guint32       *item_ref;         /* element, op type of a group, number of a section */
  guint32       *child_offsets;    /* n_items + 1 */
  guint32       *children;
  guint32       *edge_offsets;     /* n_items + 1, by container */
  guint32       *edge_from;
  guint32       *edge_to;
  guint32       *edge_count;
  guint8        *edge_kind;

  gsize          memory_size;
};

/* sl-graph-hierarchy.c: fills the item columns from the element ones. */
void sl_graph_build_hierarchy (SlGraph *graph);

G_END_DECLS
