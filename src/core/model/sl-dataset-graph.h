/* sl-dataset-graph.h: a MindSpore dataset pipeline, as lineage records it
 *
 * MindSpore writes the dataset a model was trained on as a tree: the
 * root is the last operation (a batch, say) and its children feed it, down
 * to the leaves that read files. Each node is one dataset operation with
 * its parameters (op_type and op_module among them); a map carries the
 * tensor operations it applies; a source's sampler is a node of its own,
 * a child of the source. Data flows from the leaves to the root.
 *
 * Parameters keep the key and the value as text; "None", which MindSpore
 * writes for an unset parameter, is a null value (text %NULL). Nodes are
 * in pre-order (a parent before its children, children in file order).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-problem.h"

G_BEGIN_DECLS

#define SL_DATASET_NO_NODE G_MAXUINT

typedef enum {
  SL_DATASET_VALUE_NULL,
  SL_DATASET_VALUE_STRING,
  SL_DATASET_VALUE_STRING_LIST,
  SL_DATASET_VALUE_BOOLEAN,
  SL_DATASET_VALUE_INTEGER,
  SL_DATASET_VALUE_DOUBLE,
  SL_DATASET_VALUE_NUMBERS,       /* an operation's size or weights */
} SlDatasetValueType;

typedef enum {
  SL_DATASET_NODE_OPERATION,      /* a dataset operation: a source, map, batch ... */
  SL_DATASET_NODE_SAMPLER,        /* the sampler of a source */
} SlDatasetNodeKind;

typedef struct {
  char               *key;
  SlDatasetValueType  type;
  char               *text;       /* NULL for a null value; a list as ["a", "b"] */
  GStrv               list;       /* the strings of a string list, else NULL */
} SlDatasetParameter;

/* A tensor operation of a map (RandomCrop, Rescale ...). */
typedef struct {
  char      *name;                /* its tensor_op_name, or NULL */
  GPtrArray *parameters;          /* SlDatasetParameter, sorted by key */
} SlDatasetOperation;

typedef struct {
  SlDatasetNodeKind  kind;
  char              *op_type;     /* op_type (sampler_name for a sampler), or NULL */
  char              *module;      /* op_module (sampler_module), or NULL */
  GPtrArray         *parameters;  /* SlDatasetParameter, sorted by key */
  GPtrArray         *operations;  /* SlDatasetOperation */
  GArray            *children;    /* guint node indices, sampler last */
  guint              parent;      /* SL_DATASET_NO_NODE for the root */
  guint              depth;       /* 0 at the root */
} SlDatasetNode;

#define SL_TYPE_DATASET_GRAPH (sl_dataset_graph_get_type ())
G_DECLARE_FINAL_TYPE (SlDatasetGraph, sl_dataset_graph, SL, DATASET_GRAPH, GObject)

SlDatasetGraph       *sl_dataset_graph_new                (const char           *path);
/* The file the graph was read from (names it in problems), or NULL. */
const char           *sl_dataset_graph_get_path           (SlDatasetGraph       *self);
guint                 sl_dataset_graph_get_n_nodes        (SlDatasetGraph       *self);
const SlDatasetNode  *sl_dataset_graph_get_node           (SlDatasetGraph       *self,
                                                           guint                 index);
/* What a node is called on screen: its op_type, or "Dataset". */
const char           *sl_dataset_node_get_label           (const SlDatasetNode  *node);
const SlDatasetParameter *sl_dataset_node_lookup_parameter (const SlDatasetNode *node,
                                                           const char           *key);
/* Where a node sits: op types from the root down, with the child index
 * where needed ("BatchDataset/ShuffleDataset/MapDataset#1"). Nodes of two
 * runs with the same path are compared with each other. */
char                 *sl_dataset_graph_dup_node_path      (SlDatasetGraph       *self,
                                                           guint                 index);
/* Keys of parameters (and "operations" when the tensor operations
 * differ) in which node @index differs from the node at the same path in
 * any of @others; every key when some of them lack the node. Empty when
 * it is the same everywhere. */
GPtrArray            *sl_dataset_graph_dup_differences    (SlDatasetGraph       *self,
                                                           guint                 index,
                                                           SlDatasetGraph      **others,
                                                           guint                 n_others);
/* Problems met while decoding (damage, limits). */
GListModel           *sl_dataset_graph_get_problems       (SlDatasetGraph       *self);
const char           *sl_dataset_value_type_to_string     (SlDatasetValueType    type);

/* Filling in, for the decoder. */
guint                 sl_dataset_graph_add_node           (SlDatasetGraph       *self,
                                                           SlDatasetNodeKind     kind,
                                                           guint                 parent);
/* Takes @parameter. */
void                  sl_dataset_graph_add_parameter      (SlDatasetGraph       *self,
                                                           guint                 node,
                                                           SlDatasetParameter   *parameter);
/* Adds an empty tensor operation to @node and returns it. */
SlDatasetOperation   *sl_dataset_graph_add_operation      (SlDatasetGraph       *self,
                                                           guint                 node);
void                  sl_dataset_graph_add_problem        (SlDatasetGraph       *self,
                                                           SlProblem            *problem);
/* Sorts parameters and sets op types from them; the graph is read-only
 * afterwards. */
void                  sl_dataset_graph_finish             (SlDatasetGraph       *self);

SlDatasetParameter   *sl_dataset_parameter_new            (const char           *key,
                                                           SlDatasetValueType    type,
                                                           const char           *text);
void                  sl_dataset_parameter_free           (SlDatasetParameter   *parameter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlDatasetParameter, sl_dataset_parameter_free)

G_END_DECLS
