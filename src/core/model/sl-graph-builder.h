/* sl-graph-builder.h: collects the elements of a graph, then builds it
 *
 * Readers add one element at a time: begin it, then add its inputs,
 * attributes and outputs. Inputs are names, resolved in finish() once
 * every element is known (so a graph may refer forward, have cycles or
 * name nothing); a reader that resolves names itself (ONNX, whose inputs
 * name values, not nodes) gives the source element's index instead, as
 * counted by sl_graph_builder_get_n_elements() before it began. finish()
 * also builds the hierarchy (see sl-graph.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-graph.h"

G_BEGIN_DECLS

typedef struct _SlGraphBuilder SlGraphBuilder;

SlGraphBuilder *sl_graph_builder_new             (void);
void            sl_graph_builder_free            (SlGraphBuilder  *self);
void            sl_graph_builder_set_name        (SlGraphBuilder  *self,
                                                  const char      *name,
                                                  const char      *root_name);
void            sl_graph_builder_begin_op        (SlGraphBuilder  *self,
                                                  const char      *name,
                                                  const char      *op_type,
                                                  const char      *scope,
                                                  const char      *full_name,
                                                  const char      *instance_name,
                                                  const char      *source_address);
void            sl_graph_builder_begin_parameter (SlGraphBuilder  *self,
                                                  const char      *name);
void            sl_graph_builder_begin_const     (SlGraphBuilder  *self,
                                                  const char      *key,
                                                  const char      *value);
void            sl_graph_builder_begin_graph_input  (SlGraphBuilder *self,
                                                  const char      *name,
                                                  const char      *scope);
void            sl_graph_builder_begin_graph_output (SlGraphBuilder *self,
                                                  const char      *name,
                                                  const char      *scope);
void            sl_graph_builder_split_name      (SlGraphBuilder  *self);
void            sl_graph_builder_add_input       (SlGraphBuilder  *self,
                                                  const char      *name,
                                                  SlGraphEdgeKind  kind);
void            sl_graph_builder_add_input_element (SlGraphBuilder *self,
                                                  guint            source,
                                                  const char      *name,
                                                  SlGraphEdgeKind  kind);
void            sl_graph_builder_add_attribute   (SlGraphBuilder  *self,
                                                  const char      *name,
                                                  const char      *value);
void            sl_graph_builder_add_output      (SlGraphBuilder  *self,
                                                  int              dtype,
                                                  const gint64    *dims,
                                                  guint            n_dims);
void            sl_graph_builder_add_metadata    (SlGraphBuilder  *self,
                                                  const char      *key,
                                                  const char      *value);
void            sl_graph_builder_set_path        (SlGraphBuilder  *self,
                                                  const char      *path);
void            sl_graph_builder_add_problem     (SlGraphBuilder  *self,
                                                  SlProblem       *problem);
guint           sl_graph_builder_get_n_elements  (SlGraphBuilder  *self);
SlGraph        *sl_graph_builder_finish          (SlGraphBuilder  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlGraphBuilder, sl_graph_builder_free)

G_END_DECLS
