/* sl-onnx-reader.c: ONNX models (onnx.ModelProto) into the graph model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Field numbers are those of the public onnx.proto; the bytes are walked
 * by hand (sl-proto-wire.h), so every problem has its byte offset.
 *
 * The mapping, as Netron shows a model:
 * - Each NodeProto is an op. Its name's '/'-separated folders are its
 *   scope (exporters such as PyTorch's write "/layer1/conv1/Conv"; leading
 *   and doubled slashes are dropped). An unnamed node is shown as
 *   "OpType-op<N>", N its position in its graph, as MindInsight names ops.
 *   A node whose path is also a scope (of other nodes, or of its own
 *   subgraphs) goes inside it as "(name)".
 * - Inputs name values, not nodes: each resolves to the node that outputs
 *   the value, the initializer or the graph input of that name, in the
 *   node's graph first, then in the graphs around it (a subgraph may use
 *   any value of its outer graphs). Empty names (omitted optional inputs)
 *   are skipped. Outputs get their type from the graph's value_info and
 *   outputs when they give one.
 * - Initializers (and sparse initializers) are parameters, with their
 *   dtype and shape as their output and the first values or the external
 *   file that holds them (named, never opened) as attributes.
 * - Graph inputs that are not initializers, and graph outputs, are
 *   elements of their own kinds (see sl-graph.h).
 * - Attributes become text (sl-onnx-values.c).
 * - The subgraphs of If, Loop, Scan (any graph or graphs attribute) are
 *   read into the same model, in the scope "<node path>/<attribute>"
 *   ("<attribute>.<i>" for a list), nested up to SL_ONNX_MAX_NESTING.
 * - The model's IR version, producer, domain, version, opset imports,
 *   documentation, metadata_props and function names are the graph's
 *   metadata.
 *
 * Hostile bytes: every length is checked against what holds it. A node,
 * initializer or value whose own bytes are malformed is skipped with a
 * problem; where a graph's framing breaks, reading stops, keeping what
 * came before. A graph cut off by the end of the file is read as far as
 * it goes. Problems give the byte offset and the reason.
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sl-graph-builder.h"
#include "sl-onnx-reader.h"
#include "sl-onnx-values.h"
#include "sl-proto-graph.h"
#include "sl-proto-shape.h"
#include "sl-proto-wire.h"

/* The model's description is shown up to this many bytes. */
#define MAX_SHOWN_BYTES 256
/* The sniff looks at this many top-level fields. */
#define SNIFF_FIELDS 32

typedef SlProtoSlice Slice;
typedef SlProtoField Field;
typedef SlProtoDamage Damage;
typedef SlProtoGraphScope Scope;
typedef SlProtoValueInfo ValueInfo;
typedef SlProtoNode Node;

/* The reading */

typedef struct {
  SlGraphBuilder *builder;
  const char     *path;
  guint           n_damaged;
  guint           n_nodes;
  Damage          first;     /* the first damage, for an error */
  gboolean        has_graph;
} Reader;

static void
report (Reader       *reader,
        const Damage *damage)
{
  g_autofree char *message = g_strdup_printf (_("The graph is damaged at byte %llu: %s."),
                                              (unsigned long long) damage->offset, _(damage->reason));
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Graph reader"),
                                                 reader->path, damage->offset, message);

  sl_graph_builder_add_problem (reader->builder, problem);
  if (reader->n_damaged++ == 0)
    reader->first = *damage;
}

/* The type of a value as the element's output, and as an attribute. */
static void
add_type (Reader      *reader,
          const Slice *type,
          gboolean     as_attribute)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GArray) dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  Damage damage = { 0 };
  int dtype = 0;

  if (!sl_onnx_read_type (type, text, &dtype, dims, 0, &damage))
    {
      report (reader, &damage);
      sl_graph_builder_add_output (reader->builder, 0, NULL, 0);
      return;
    }
  sl_graph_builder_add_output (reader->builder, dtype, (const gint64 *) (gpointer) dims->data, dims->len);
  if (as_attribute && text->len > 0)
    sl_graph_builder_add_attribute (reader->builder, "type", text->str);
}

typedef struct {
  GPtrArray *nodes;         /* Slice * of NodeProto */
  GPtrArray *initializers;  /* Slice * of TensorProto */
  GPtrArray *sparse;        /* Slice * of SparseTensorProto */
  GPtrArray *inputs;        /* ValueInfo */
  GPtrArray *outputs;       /* ValueInfo */
  GPtrArray *value_info;    /* ValueInfo */
  char      *name;
} GraphFields;

static void read_graph (Reader *reader, const Slice *graph, const char *prefix, Scope *outer, guint depth,
                        GraphFields *fields_out);

static void
graph_fields_clear (GraphFields *g)
{
  g_clear_pointer (&g->nodes, g_ptr_array_unref);
  g_clear_pointer (&g->initializers, g_ptr_array_unref);
  g_clear_pointer (&g->sparse, g_ptr_array_unref);
  g_clear_pointer (&g->inputs, g_ptr_array_unref);
  g_clear_pointer (&g->outputs, g_ptr_array_unref);
  g_clear_pointer (&g->value_info, g_ptr_array_unref);
  g_clear_pointer (&g->name, g_free);
}

/* The GraphProto's fields, while its framing holds. */
static void
collect_graph (Reader      *reader,
               const Slice *graph,
               GraphFields *g)
{
  Damage damage = { 0 };
  Field f;
  gsize pos = 0;

  g->nodes = g_ptr_array_new_with_free_func (g_free);
  g->initializers = g_ptr_array_new_with_free_func (g_free);
  g->sparse = g_ptr_array_new_with_free_func (g_free);
  g->inputs = g_ptr_array_new_with_free_func (sl_proto_value_info_free);
  g->outputs = g_ptr_array_new_with_free_func (sl_proto_value_info_free);
  g->value_info = g_ptr_array_new_with_free_func (sl_proto_value_info_free);
  while (sl_proto_next_field (graph, &pos, &f, &damage))
    {
      GPtrArray *to = NULL;

      switch (f.field)
        {
        case 1: to = g->nodes; break;
        case 5: to = g->initializers; break;
        case 15: to = g->sparse; break;
        case 2:
        case 11:
        case 12:
        case 13:
          break;
        default:
          continue;
        }
      if (f.wire_type != 2)
        {
          report (reader, &(Damage) { f.at, sl_proto_reason_wire_type });
          continue;
        }
      /* Cut by the end of the input: a node is read as far as it goes
       * (its subgraphs may hold much), anything else is dropped. */
      if (f.bytes.cut && f.field != 1)
        continue;
      if (to != NULL)
        g_ptr_array_add (to, g_memdup2 (&f.bytes, sizeof f.bytes));
      else if (f.field == 2)
        {
          g_free (g->name);
          g->name = sl_proto_dup_text (&f.bytes);
        }
      else
        {
          ValueInfo *v = sl_proto_value_info_parse (&f.bytes, FALSE, &damage);

          if (v == NULL)
            report (reader, &damage);
          else
            g_ptr_array_add (f.field == 11 ? g->inputs : f.field == 12 ? g->outputs : g->value_info, v);
          damage.reason = NULL;
        }
    }
  if (damage.reason != NULL)
    report (reader, &damage);
}

static void
add_initializer (Reader      *reader,
                 Scope       *scope,
                 const Slice *bytes,
                 gboolean     sparse)
{
  g_auto(SlOnnxTensor) t = { 0 };
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *name = NULL;
  Damage damage = { 0 };
  Slice values = *bytes;
  Field f;
  GArray *dims;
  g_autoptr(GArray) sparse_dims = g_array_new (FALSE, FALSE, sizeof (gint64));

  /* SparseTensorProto { values 1 (TensorProto, named), indices 2, dims 3 } */
  if (sparse)
    {
      values.len = 0;
      SL_PROTO_FOR_FIELDS (bytes, pos, &f, &damage)
        if (f.field == 1 && sl_proto_expect_wire (&f, 2, &damage))
          values = f.bytes;
        else if (f.field == 3)
          {
            guint64 value;
            gsize at = 0;

            while (sl_proto_packed_next (&f, 0, &at, &value, &damage))
              {
                gint64 dim = (gint64) value;

                g_array_append_val (sparse_dims, dim);
              }
            if (damage.reason != NULL)
              break;
          }
        else if (damage.reason != NULL)
          break;
      if (damage.reason != NULL)
        {
          report (reader, &damage);
          return;
        }
    }
  if (!sl_onnx_read_tensor (&values, &t, &damage))
    {
      report (reader, &damage);
      return;
    }
  name = sl_proto_dup_text (&t.name);
  sl_proto_graph_scope_define (scope, name, sl_graph_builder_get_n_elements (reader->builder));
  sl_graph_builder_begin_parameter (reader->builder, name);
  dims = sparse ? sparse_dims : t.dims;
  sl_graph_builder_add_output (reader->builder, sl_onnx_model_dtype (t.data_type), (const gint64 *) (gpointer) dims->data,
                               dims->len);
  if (sparse)
    {
      g_autofree char *stored = g_strdup_printf ("%u", t.dims->len > 0 ? (guint) g_array_index (t.dims, gint64, 0) : 0);

      sl_graph_builder_add_attribute (reader->builder, "sparse values", stored);
    }
  if (t.external || t.location != NULL)
    {
      g_string_append (text, t.location != NULL ? t.location : "");
      if (t.offset != NULL || t.length != NULL)
        g_string_append_printf (text, " (offset %s, %s bytes)", t.offset != NULL ? t.offset : "0",
                                t.length != NULL ? t.length : "?");
      sl_graph_builder_add_attribute (reader->builder, "external data", text->str);
    }
  else
    {
      sl_onnx_append_tensor (text, &t);
      sl_graph_builder_add_attribute (reader->builder, "value", text->str);
    }
}

static GHashTable *
index_types (const GraphFields *g)
{
  GHashTable *types = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *lists[] = { g->value_info, g->outputs, g->inputs };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        ValueInfo *v = g_ptr_array_index (lists[l], i);

        if (v->type.len > 0 && !g_hash_table_contains (types, v->name))
          g_hash_table_insert (types, v->name, &v->type);
      }
  return types;
}

static const Slice *
lookup_type (const Scope *scope,
             const char  *value)
{
  for (; scope != NULL; scope = scope->outer)
    {
      const Slice *type = g_hash_table_lookup (scope->types, value);

      if (type != NULL)
        return type;
    }
  return NULL;
}

static gboolean
attr_has_graph (const Slice *attr)
{
  Field f;

  SL_PROTO_FOR_FIELDS (attr, pos, &f, NULL)
    if ((f.field == 6 || f.field == 11) && f.wire_type == 2)
      return TRUE;
  return FALSE;
}

static gboolean
node_has_subgraphs (const Node *node)
{
  for (guint i = 0; i < node->attrs->len; i++)
    if (attr_has_graph (&g_array_index (node->attrs, Slice, i)))
      return TRUE;
  return FALSE;
}

static void
add_node (Reader      *reader,
          Scope       *scope,
          const Node  *node,
          GPtrArray   *subgraphs)
{
  g_autofree char *display = sl_proto_graph_node_display (node->path, node->scope);
  gboolean typed = FALSE;

  sl_graph_builder_begin_op (reader->builder, node->name, node->op_type, node->scope[0] != '\0' ? node->scope : NULL,
                             display, NULL, NULL);
  if (node->domain != NULL && node->domain[0] != '\0')
    sl_graph_builder_add_attribute (reader->builder, "domain", node->domain);
  for (guint i = 0; i < node->inputs->len; i++)
    {
      const char *value = g_ptr_array_index (node->inputs, i);

      if (value[0] != '\0')
        sl_graph_builder_add_input_element (reader->builder, sl_proto_graph_scope_resolve (scope, value), value, SL_GRAPH_EDGE_DATA);
    }
  for (guint i = 0; i < node->attrs->len; i++)
    {
      const Slice *bytes = &g_array_index (node->attrs, Slice, i);
      g_auto(SlOnnxAttribute) attr = { 0 };
      Damage damage = { 0 };

      if (!sl_onnx_read_attribute (bytes, &attr, &damage))
        {
          report (reader, &damage);
          continue;
        }
      sl_graph_builder_add_attribute (reader->builder, attr.name, attr.text->str);
      for (guint k = 0; k < attr.graphs->len; k++)
        {
          g_ptr_array_add (subgraphs, g_memdup2 (&g_array_index (attr.graphs, Slice, k), sizeof (Slice)));
          g_ptr_array_add (subgraphs, sl_proto_graph_subgraph_path (node->path, attr.name, k, attr.graphs->len));
        }
    }
  for (guint i = 0; i < node->outputs->len && !typed; i++)
    typed = lookup_type (scope, g_ptr_array_index (node->outputs, i)) != NULL;
  for (guint i = 0; i < node->outputs->len && typed; i++)
    {
      const Slice *type = lookup_type (scope, g_ptr_array_index (node->outputs, i));

      if (type != NULL)
        add_type (reader, type, FALSE);
      else
        sl_graph_builder_add_output (reader->builder, 0, NULL, 0);
    }
}

static void
read_graph (Reader      *reader,
            const Slice *graph,
            const char  *prefix,
            Scope       *outer,
            guint        depth,
            GraphFields *fields_out)
{
  GraphFields g = { 0 };
  g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func (sl_proto_node_free);
  g_autoptr(GPtrArray) subgraphs = g_ptr_array_new_with_free_func (g_free);  /* Slice *, path */
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) initializer_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Scope scope = { outer, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), NULL };
  guint base;

  collect_graph (reader, graph, &g);
  scope.types = index_types (&g);

  /* Initializers first: they are values graph inputs may shadow by name. */
  for (guint i = 0; i < g.initializers->len; i++)
    add_initializer (reader, &scope, g_ptr_array_index (g.initializers, i), FALSE);
  for (guint i = 0; i < g.sparse->len; i++)
    add_initializer (reader, &scope, g_ptr_array_index (g.sparse, i), TRUE);
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, scope.values);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_hash_table_add (initializer_names, g_strdup (key));
  }

  /* Graph inputs that are not weights. */
  for (guint i = 0; i < g.inputs->len; i++)
    {
      ValueInfo *v = g_ptr_array_index (g.inputs, i);

      if (g_hash_table_contains (initializer_names, v->name))
        continue;
      g_hash_table_replace (scope.values, g_strdup (v->name),
                            GUINT_TO_POINTER (sl_graph_builder_get_n_elements (reader->builder) + 1));
      sl_graph_builder_begin_graph_input (reader->builder, v->name, prefix);
      add_type (reader, &v->type, TRUE);
    }

  /* Nodes: parsed, placed, their outputs defined, then added in order. */
  for (guint i = 0; i < g.nodes->len; i++)
    {
      const Slice *bytes = g_ptr_array_index (g.nodes, i);
      Damage damage = { 0 };
      Node *node = sl_proto_node_parse (bytes, SL_PROTO_GRAPH_ONNX, &damage);

      if (node == NULL)
        {
          if (damage.reason != NULL)
            report (reader, &damage);
          continue;
        }
      node->path = sl_proto_graph_node_path (prefix, node->name, node->op_type, i);
      sl_proto_graph_add_folders (folders, node->path);
      if (node_has_subgraphs (node))
        g_hash_table_add (folders, g_strdup (node->path));
      g_ptr_array_add (nodes, node);
    }
  base = sl_graph_builder_get_n_elements (reader->builder);
  for (guint i = 0; i < nodes->len; i++)
    {
      Node *node = g_ptr_array_index (nodes, i);

      node->scope = sl_proto_graph_node_scope (folders, node->path);
      for (guint k = 0; k < node->outputs->len; k++)
        sl_proto_graph_scope_define (&scope, g_ptr_array_index (node->outputs, k), base + i);
    }
  for (guint i = 0; i < nodes->len; i++)
    add_node (reader, &scope, g_ptr_array_index (nodes, i), subgraphs);
  reader->n_nodes += nodes->len;

  for (guint i = 0; i < g.outputs->len; i++)
    {
      ValueInfo *v = g_ptr_array_index (g.outputs, i);

      sl_graph_builder_begin_graph_output (reader->builder, v->name, prefix);
      if (v->name[0] != '\0')
        sl_graph_builder_add_input_element (reader->builder, sl_proto_graph_scope_resolve (&scope, v->name), v->name, SL_GRAPH_EDGE_DATA);
      add_type (reader, &v->type, TRUE);
    }

  /* Subgraphs after every element of this graph, in their own scopes. */
  for (guint i = 0; i + 1 < subgraphs->len; i += 2)
    {
      const Slice *sub = g_ptr_array_index (subgraphs, i);

      if (depth + 1 > SL_ONNX_MAX_NESTING)
        {
          report (reader, &(Damage) { sub->base, sl_proto_reason_nesting });
          continue;
        }
      read_graph (reader, sub, g_ptr_array_index (subgraphs, i + 1), &scope, depth + 1, NULL);
    }

  g_hash_table_unref (scope.values);
  g_hash_table_unref (scope.types);
  if (fields_out != NULL)
    *fields_out = g;
  else
    graph_fields_clear (&g);
}

/* The model */

static void
add_metadata_text (Reader      *reader,
                   const char  *key,
                   const Slice *bytes)
{
  g_autofree char *text = sl_proto_dup_text (bytes);

  if (text[0] != '\0')
    sl_graph_builder_add_metadata (reader->builder, key, text);
}

/* OperatorSetIdProto { domain 1, version 2 } as "ai.onnx 17". */
static void
append_opset (GString     *out,
              const Slice *opset)
{
  g_autofree char *domain = NULL;
  guint64 version = 0;
  Field f;

  SL_PROTO_FOR_FIELDS (opset, pos, &f, NULL)
    {
      if (f.field == 1 && f.wire_type == 2)
        {
          g_free (domain);
          domain = sl_proto_dup_text (&f.bytes);
        }
      else if (f.field == 2 && f.wire_type == 0)
        version = f.value;
    }
  if (out->len > 0)
    g_string_append (out, ", ");
  g_string_append_printf (out, "%s %" G_GINT64_FORMAT, domain != NULL && domain[0] != '\0' ? domain : "ai.onnx",
                          (gint64) version);
}

static void
add_entry (Reader      *reader,
           const Slice *entry)
{
  g_autofree char *key = NULL, *value = NULL, *label = NULL;
  Field f;

  SL_PROTO_FOR_FIELDS (entry, pos, &f, NULL)
    if ((f.field == 1 || f.field == 2) && f.wire_type == 2)
      {
        char **to = f.field == 1 ? &key : &value;

        g_free (*to);
        *to = sl_proto_dup_text (&f.bytes);
      }
  label = g_strconcat ("metadata_props.", key != NULL ? key : "", NULL);
  sl_graph_builder_add_metadata (reader->builder, label, value != NULL ? value : "");
}

static char *
function_name (const Slice *function)
{
  Field f;

  SL_PROTO_FOR_FIELDS (function, pos, &f, NULL)
    if (f.field == 1 && f.wire_type == 2)
      return sl_proto_dup_text (&f.bytes);
  return g_strdup ("");
}

/* ModelProto: scalars as metadata, then the graph. A graph cut off by the
 * end of the bytes is read as far as it goes. */
static void
read_model (Reader       *reader,
            const guint8 *data,
            gsize         size,
            char        **graph_name)
{
  Slice model = { data, size, 0 };
  Slice graph = { NULL, 0, 0 };
  g_autoptr(GString) opsets = g_string_new (NULL);
  g_autoptr(GString) functions = g_string_new (NULL);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  Damage damage = { 0 };
  gboolean have_graph = FALSE;
  Field f;
  gsize pos = 0;

  sl_graph_builder_add_metadata (reader->builder, "format", "ONNX");
  while (sl_proto_next_field (&model, &pos, &f, &damage))
    {
      gboolean varint = f.field == 1 || f.field == 5;

      if ((varint && f.wire_type != 0) || (!varint && f.wire_type != 2 && f.field <= 25))
        {
          report (reader, &(Damage) { f.at, sl_proto_reason_wire_type });
          continue;
        }
      switch (f.field)
        {
        case 1:
        case 5:
          {
            g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) f.value);

            sl_graph_builder_add_metadata (reader->builder, f.field == 1 ? "ir_version" : "model_version", text);
          }
          break;
        case 2: add_metadata_text (reader, "producer_name", &f.bytes); break;
        case 3: add_metadata_text (reader, "producer_version", &f.bytes); break;
        case 4: add_metadata_text (reader, "domain", &f.bytes); break;
        case 6:
          {
            Slice doc = sl_proto_graph_shown (&f.bytes, MAX_SHOWN_BYTES);

            add_metadata_text (reader, "doc_string", &doc);
          }
          break;
        case 7:
          graph = f.bytes;
          have_graph = TRUE;
          break;
        case 8: append_opset (opsets, &f.bytes); break;
        case 14: g_ptr_array_add (entries, g_memdup2 (&f.bytes, sizeof f.bytes)); break;
        case 25:
          {
            g_autofree char *name = function_name (&f.bytes);

            if (functions->len > 0)
              g_string_append (functions, ", ");
            g_string_append (functions, name);
          }
          break;
        default:
          break;
        }
    }
  if (damage.reason != NULL)
    {
      report (reader, &damage);
      /* The graph's tag and length were read, its bytes run past the end:
       * read what there is. */
      if (!have_graph && damage.reason == sl_proto_reason_length)
        {
          gsize at = damage.offset;
          guint64 tag, length;

          if (sl_proto_read_varint (data, size, &at, &tag) && tag == ((7 << 3) | 2) &&
              sl_proto_read_varint (data, size, &at, &length))
            {
              graph = (Slice) { data + at, size - at, at, TRUE };
              have_graph = TRUE;
            }
        }
    }
  if (opsets->len > 0)
    sl_graph_builder_add_metadata (reader->builder, "opset_import", opsets->str);
  for (guint i = 0; i < entries->len; i++)
    add_entry (reader, g_ptr_array_index (entries, i));
  if (functions->len > 0)
    sl_graph_builder_add_metadata (reader->builder, "functions", functions->str);

  reader->has_graph = have_graph;
  if (have_graph)
    {
      GraphFields fields = { 0 };

      read_graph (reader, &graph, "", NULL, 0, &fields);
      *graph_name = g_steal_pointer (&fields.name);
      graph_fields_clear (&fields);
    }
}

/**
 * sl_onnx_decode:
 * @path: the file the bytes came from, for problems and the graph's name
 *   when the model gives none
 *
 * Decodes a serialized onnx.ModelProto (see the file comment for the
 * mapping).
 *
 * Returns: (transfer full) (nullable): the graph, with problems for any
 *   damage; %NULL with @error when nothing at all could be read
 */
SlGraph *
sl_onnx_decode (const guint8  *data,
                gsize          size,
                const char    *path,
                GError       **error)
{
  Reader reader = { sl_graph_builder_new (), path != NULL ? path : "", 0, 0, { 0, NULL }, FALSE };
  g_autofree char *name = NULL;
  SlGraph *result = NULL;

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  sl_graph_builder_set_path (reader.builder, reader.path);
  read_model (&reader, data != NULL ? data : (const guint8 *) "", size, &name);
  if (name == NULL || name[0] == '\0')
    {
      g_free (name);
      name = path != NULL ? g_path_get_basename (path) : g_strdup ("");
    }
  if (sl_graph_builder_get_n_elements (reader.builder) == 0 && reader.n_damaged > 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” holds no ONNX model that can be read: it is damaged at byte %llu (%s)."), reader.path,
                   (unsigned long long) reader.first.offset, _(reader.first.reason));
    }
  else if (sl_graph_builder_get_n_elements (reader.builder) == 0 && !reader.has_graph)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” holds no ONNX model that can be read."), reader.path);
    }
  else
    {
      sl_graph_builder_set_name (reader.builder, name, NULL);
      result = sl_graph_builder_finish (reader.builder);
    }
  sl_graph_builder_free (reader.builder);
  return result;
}

/**
 * sl_onnx_sniff:
 * @data: the whole file or its first bytes
 *
 * Whether @data starts like an ONNX ModelProto: its first fields have the
 * wire types ModelProto gives them (ir_version and model_version varints,
 * the others messages or strings) and it has a graph (field 7) whose
 * first field is one GraphProto has. A MindSpore anf_ir ModelProto has
 * its graph in field 4 and model_version (3) as a varint; a MindIR one
 * has ir_version as a string; a GraphProto starts with a node, a message.
 * Fields may run past the end of @data: only their tags are needed.
 */
gboolean
sl_onnx_sniff (const guint8 *data,
               gsize         size)
{
  return sl_proto_shape_is_onnx_model (data, size, FALSE);
}
