/* sl-air-reader.c: Ascend GE IR models (AIR, ge.proto.ModelDef) into the
 * graph model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An .air file is a serialized ge.proto.ModelDef, the model `atc
 * --framework=1` reads; an OM file's model-definition partition is one
 * too (sl-om-reader.c). Field numbers are listed in sl-ge-ir-values.c;
 * the bytes are walked by hand (sl-proto-wire.h), so every problem has
 * its byte offset.
 *
 * The mapping, as Netron shows a model:
 * - The first GraphDef of the ModelDef is the top level. Each OpDef is an
 *   op; its name's '/'-separated folders are its scope (GE keeps the
 *   scopes of the framework it came from). An unnamed op is shown as
 *   "Type-op<N>". An op whose path is also a scope (of other ops, or of
 *   its own subgraphs) goes inside it as "(name)".
 * - Inputs are "op:index" strings: index -1 is a control edge, any other
 *   a data edge from that op, looked up in the op's graph first, then in
 *   the graphs around it. Empty inputs are skipped.
 * - Const (and Constant) ops are parameters, labelled by the last part of
 *   their names, with the dtype and shape of their tensor as their output; the weights are sized, never read: held
 *   inline (AIR) or at an offset in the OM's weights partition.
 * - Every attribute becomes text (sl-ge-ir-values.c), as do the op's id,
 *   stream id, input and output descriptors (dtype, shape, layout); the
 *   output descriptors are also the op's outputs.
 * - A graph's input and output lists become graph inputs (feeding the op
 *   they name) and graph outputs (fed by it).
 * - Subgraphs are scopes: a GraphDef in an attribute (g, or a list of
 *   them) is read in "<op path>/<attribute>", a ModelDef graph an op
 *   names in subgraph_name in "<op path>/<graph name>", nested up to
 *   SL_AIR_MAX_NESTING; ModelDef graphs no op names are scopes of their
 *   own at the top level.
 * - The ModelDef's name, version, custom version and attributes are the
 *   graph's metadata.
 *
 * Hostile bytes: every length is checked against what holds it. An op or
 * attribute whose own bytes are malformed is skipped with a problem;
 * where a graph's framing breaks, reading stops, keeping what came
 * before. A model cut off by the end of the file is read as far as it
 * goes, with a problem at the field that runs past the end.
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sl-air-reader.h"
#include "sl-ge-ir-values.h"
#include "sl-graph-builder.h"
#include "sl-proto-graph.h"
#include "sl-proto-shape.h"
#include "sl-proto-wire.h"

typedef SlProtoSlice Slice;
typedef SlProtoField Field;
typedef SlProtoDamage Damage;
typedef SlProtoGraphScope Scope;

typedef struct {
  SlGraphBuilder *builder;
  const char     *path;
  guint           n_damaged;
  Damage          first;
  GArray         *graphs;      /* Slice: the ModelDef's graphs */
  GPtrArray      *names;       /* char *: their names */
  GHashTable     *by_name;     /* name → index + 1 of the first graph after the top one so named */
  GArray         *placed;      /* gboolean: read already */
  gboolean        too_deep;    /* a subgraph was left out for its nesting */
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

/* An OpDef, its framing checked. */
typedef struct {
  char      *name;
  char      *type;
  GPtrArray *inputs;       /* char * */
  GArray    *attrs;        /* Slice of map entries */
  GArray    *input_desc;   /* Slice */
  GArray    *output_desc;  /* Slice */
  GPtrArray *subgraphs;    /* char *: subgraph_name */
  gboolean   has_id, has_stream;
  gint64     id, stream_id;
  char      *path;
  char      *scope;
} Op;

static void
op_free (gpointer data)
{
  Op *op = data;

  g_free (op->name);
  g_free (op->type);
  g_ptr_array_unref (op->inputs);
  g_array_unref (op->attrs);
  g_array_unref (op->input_desc);
  g_array_unref (op->output_desc);
  g_ptr_array_unref (op->subgraphs);
  g_free (op->path);
  g_free (op->scope);
  g_free (op);
}

static Op *
parse_op (const Slice *bytes,
          Damage      *damage)
{
  Op *op = g_new0 (Op, 1);
  Field f;

  op->inputs = g_ptr_array_new_with_free_func (g_free);
  op->subgraphs = g_ptr_array_new_with_free_func (g_free);
  op->attrs = g_array_new (FALSE, FALSE, sizeof (Slice));
  op->input_desc = g_array_new (FALSE, FALSE, sizeof (Slice));
  op->output_desc = g_array_new (FALSE, FALSE, sizeof (Slice));
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      gboolean varint = f.field == 21 || f.field == 22;

      if (f.field != 1 && f.field != 2 && f.field != 5 && f.field != 10 && !varint && f.field != 33 &&
          f.field != 34 && f.field != 35)
        continue;
      if (!sl_proto_expect_wire (&f, varint ? 0 : 2, damage))
        break;
      /* A field cut off by the end of the input is left out. */
      if (f.bytes.cut)
        continue;
      switch (f.field)
        {
        case 1:
        case 2:
          {
            char **to = f.field == 1 ? &op->name : &op->type;

            g_free (*to);
            *to = sl_proto_dup_text (&f.bytes);
          }
          break;
        case 5: g_ptr_array_add (op->inputs, sl_proto_dup_text (&f.bytes)); break;
        case 35: g_ptr_array_add (op->subgraphs, sl_proto_dup_text (&f.bytes)); break;
        case 10: g_array_append_val (op->attrs, f.bytes); break;
        case 33: g_array_append_val (op->input_desc, f.bytes); break;
        case 34: g_array_append_val (op->output_desc, f.bytes); break;
        case 21:
          op->has_id = TRUE;
          op->id = (gint64) f.value;
          break;
        case 22:
          op->has_stream = TRUE;
          op->stream_id = (gint64) f.value;
          break;
        default:
          break;
        }
    }
  if (damage->reason != NULL)
    {
      op_free (op);
      return NULL;
    }
  if (op->name == NULL)
    op->name = g_strdup ("");
  if (op->type == NULL)
    op->type = g_strdup ("");
  return op;
}

static gboolean
is_const (const Op *op)
{
  return g_str_equal (op->type, "Const") || g_str_equal (op->type, "Constant");
}

/* "name:index" → name; *control when the index is -1. */
static char *
split_input (const char *input,
             gboolean   *control)
{
  const char *colon = strrchr (input, ':');

  *control = colon != NULL && g_str_equal (colon + 1, "-1");
  return colon != NULL ? g_strndup (input, colon - input) : g_strdup (input);
}

static gboolean
op_has_subgraphs (const Op *op)
{
  if (op->subgraphs->len > 0)
    return TRUE;
  for (guint i = 0; i < op->attrs->len; i++)
    {
      g_autofree char *key = NULL;
      Slice value;
      Field f;

      if (!sl_ge_read_map_entry (&g_array_index (op->attrs, Slice, i), &key, &value, NULL))
        continue;
      SL_PROTO_FOR_FIELDS (&value, pos, &f, NULL)
        if (f.field == 13 && f.wire_type == 2)
          return TRUE;
        else if (f.field == 1 && f.wire_type == 2)
          {
            Field g;

            SL_PROTO_FOR_FIELDS (&f.bytes, inner, &g, NULL)
              if (g.field == 10 && g.wire_type == 2)
                return TRUE;
          }
    }
  return FALSE;
}

/* The output of an op or a graph input: @desc's dtype and shape. */
static void
add_desc_output (Reader      *reader,
                 const Slice *bytes)
{
  g_auto(SlGeTensorDesc) desc = { 0 };
  Damage damage = { 0 };

  if (!sl_ge_read_tensor_desc (bytes, &desc, &damage))
    {
      report (reader, &damage);
      sl_graph_builder_add_output (reader->builder, 0, NULL, 0);
      return;
    }
  sl_graph_builder_add_output (reader->builder, sl_ge_model_dtype (desc.dtype),
                               (const gint64 *) (gpointer) desc.dims->data, desc.dims->len);
}

static void
add_desc_attribute (Reader      *reader,
                    const char  *label,
                    guint        index,
                    const Slice *bytes)
{
  g_auto(SlGeTensorDesc) desc = { 0 };
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *key = g_strdup_printf ("%s[%u]", label, index);
  Damage damage = { 0 };

  if (!sl_ge_read_tensor_desc (bytes, &desc, &damage))
    {
      report (reader, &damage);
      return;
    }
  sl_ge_append_tensor_desc (text, &desc);
  if (desc.name != NULL && desc.name[0] != '\0')
    g_string_append_printf (text, " %s", desc.name);
  sl_graph_builder_add_attribute (reader->builder, key, text->str);
}

/* A subgraph to read once the graph it is in has been read. */
typedef struct {
  Slice  bytes;
  char  *prefix;
  guint  model_graph;   /* its index in the ModelDef, or G_MAXUINT */
} Pending;

static void
pending_free (gpointer data)
{
  Pending *p = data;

  g_free (p->prefix);
  g_free (p);
}

static void
queue_subgraph (GPtrArray   *pending,
                const Slice *bytes,
                char        *prefix,
                guint        model_graph)
{
  Pending *p = g_new0 (Pending, 1);

  p->bytes = *bytes;
  p->prefix = prefix;
  p->model_graph = model_graph;
  g_ptr_array_add (pending, p);
}

/* The const's tensor: its dtype and shape as the output, where its
 * weights are as an attribute. */
static void
add_const_tensor (Reader   *reader,
                  const Op *op)
{
  for (guint i = 0; i < op->attrs->len; i++)
    {
      g_autofree char *key = NULL;
      g_auto(SlGeTensorDesc) desc = { 0 };
      Damage damage = { 0 };
      Slice value, tensor;
      gsize inline_size;

      if (!sl_ge_read_map_entry (&g_array_index (op->attrs, Slice, i), &key, &value, NULL) ||
          !g_str_equal (key, "value") || !sl_ge_attr_tensor (&value, &tensor))
        continue;
      if (!sl_ge_read_tensor_def (&tensor, &desc, &inline_size, &damage))
        {
          report (reader, &damage);
          break;
        }
      sl_graph_builder_add_output (reader->builder, sl_ge_model_dtype (desc.dtype),
                                   (const gint64 *) (gpointer) desc.dims->data, desc.dims->len);
      if (inline_size == 0 && (desc.weight_size >= 0 || desc.data_offset >= 0))
        {
          g_autofree char *where = g_strdup_printf ("%" G_GINT64_FORMAT " bytes at offset %" G_GINT64_FORMAT,
                                                    MAX (desc.weight_size, 0), MAX (desc.data_offset, 0));

          sl_graph_builder_add_attribute (reader->builder, "weights", where);
        }
      return;
    }
  if (op->output_desc->len > 0)
    add_desc_output (reader, &g_array_index (op->output_desc, Slice, 0));
}

static void
add_op (Reader    *reader,
        Scope     *scope,
        const Op  *op,
        GHashTable *graph_inputs,
        GPtrArray *pending)
{
  gboolean constant = is_const (op);

  if (constant)
    {
      sl_graph_builder_begin_parameter (reader->builder, op->name[0] != '\0' ? op->name : op->path);
      /* Shown by its last part inside the scope it goes in. */
      if (strchr (op->name, '/') != NULL)
        sl_graph_builder_split_name (reader->builder);
      sl_graph_builder_add_attribute (reader->builder, "type", op->type);
    }
  else
    {
      g_autofree char *display = sl_proto_graph_node_display (op->path, op->scope);

      sl_graph_builder_begin_op (reader->builder, op->name, op->type, op->scope[0] != '\0' ? op->scope : NULL,
                                 display, NULL, NULL);
    }
  if (op->name[0] != '\0' && g_hash_table_contains (graph_inputs, op->name))
    sl_graph_builder_add_input_element (reader->builder,
                                        GPOINTER_TO_UINT (g_hash_table_lookup (graph_inputs, op->name)) - 1,
                                        op->name, SL_GRAPH_EDGE_DATA);
  for (guint i = 0; i < op->inputs->len; i++)
    {
      const char *input = g_ptr_array_index (op->inputs, i);
      g_autofree char *source = NULL;
      gboolean control;

      if (input[0] == '\0')
        continue;
      source = split_input (input, &control);
      sl_graph_builder_add_input_element (reader->builder, sl_proto_graph_scope_resolve (scope, source), input,
                                          control ? SL_GRAPH_EDGE_CONTROL : SL_GRAPH_EDGE_DATA);
    }
  if (op->has_id)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, op->id);

      sl_graph_builder_add_attribute (reader->builder, "id", text);
    }
  if (op->has_stream)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, op->stream_id);

      sl_graph_builder_add_attribute (reader->builder, "stream_id", text);
    }
  for (guint i = 0; i < op->attrs->len; i++)
    {
      g_autofree char *key = NULL;
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(GArray) graphs = g_array_new (FALSE, FALSE, sizeof (Slice));
      Damage damage = { 0 };
      Slice value;

      if (!sl_ge_read_map_entry (&g_array_index (op->attrs, Slice, i), &key, &value, &damage) ||
          !sl_ge_append_attr (text, &value, graphs, &damage))
        {
          report (reader, &damage);
          continue;
        }
      sl_graph_builder_add_attribute (reader->builder, key, text->str);
      for (guint k = 0; k < graphs->len; k++)
        queue_subgraph (pending, &g_array_index (graphs, Slice, k),
                        sl_proto_graph_subgraph_path (op->path, key, k, graphs->len), G_MAXUINT);
    }
  for (guint i = 0; i < op->input_desc->len; i++)
    add_desc_attribute (reader, "input_desc", i, &g_array_index (op->input_desc, Slice, i));
  for (guint i = 0; i < op->output_desc->len; i++)
    add_desc_attribute (reader, "output_desc", i, &g_array_index (op->output_desc, Slice, i));
  if (op->subgraphs->len > 0)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < op->subgraphs->len; i++)
        {
          const char *name = g_ptr_array_index (op->subgraphs, i);
          guint found = GPOINTER_TO_UINT (g_hash_table_lookup (reader->by_name, name));

          g_string_append_printf (names, "%s\"%s\"", i > 0 ? ", " : "", name);
          if (found-- > 0 && !g_array_index (reader->placed, gboolean, found))
            {
              g_array_index (reader->placed, gboolean, found) = TRUE;
              queue_subgraph (pending, &g_array_index (reader->graphs, Slice, found),
                              sl_proto_graph_subgraph_path (op->path, name, 0, 1), found);
            }
        }
      sl_graph_builder_add_attribute (reader->builder, "subgraph_name", names->str);
    }

  if (constant)
    add_const_tensor (reader, op);
  else
    for (guint i = 0; i < op->output_desc->len; i++)
      add_desc_output (reader, &g_array_index (op->output_desc, Slice, i));
}

typedef struct {
  char      *name;
  GPtrArray *inputs;   /* char * */
  GPtrArray *outputs;  /* char * */
  GPtrArray *ops;      /* Slice * */
  GArray    *attrs;    /* Slice of map entries */
} GraphFields;

static void
graph_fields_clear (GraphFields *g)
{
  g_clear_pointer (&g->name, g_free);
  g_clear_pointer (&g->inputs, g_ptr_array_unref);
  g_clear_pointer (&g->outputs, g_ptr_array_unref);
  g_clear_pointer (&g->ops, g_ptr_array_unref);
  g_clear_pointer (&g->attrs, g_array_unref);
}

/* The GraphDef's fields, while its framing holds. */
static void
collect_graph (Reader      *reader,
               const Slice *graph,
               GraphFields *g)
{
  Damage damage = { 0 };
  Field f;

  g->inputs = g_ptr_array_new_with_free_func (g_free);
  g->outputs = g_ptr_array_new_with_free_func (g_free);
  g->ops = g_ptr_array_new_with_free_func (g_free);
  g->attrs = g_array_new (FALSE, FALSE, sizeof (Slice));
  SL_PROTO_FOR_FIELDS (graph, pos, &f, &damage)
    {
      if (f.field != 1 && f.field != 4 && f.field != 5 && f.field != 6 && f.field != 11)
        continue;
      if (f.wire_type != 2)
        {
          report (reader, &(Damage) { f.at, sl_proto_reason_wire_type });
          continue;
        }
      /* Cut by the end of the input: an op is read as far as it goes,
       * anything else is dropped. */
      if (f.bytes.cut && f.field != 6)
        continue;
      switch (f.field)
        {
        case 1:
          g_free (g->name);
          g->name = sl_proto_dup_text (&f.bytes);
          break;
        case 4: g_ptr_array_add (g->inputs, sl_proto_dup_text (&f.bytes)); break;
        case 5: g_ptr_array_add (g->outputs, sl_proto_dup_text (&f.bytes)); break;
        case 6: g_ptr_array_add (g->ops, g_memdup2 (&f.bytes, sizeof f.bytes)); break;
        case 11: g_array_append_val (g->attrs, f.bytes); break;
        default: break;
        }
    }
  if (damage.reason != NULL)
    report (reader, &damage);
  if (g->name == NULL)
    g->name = g_strdup ("");
}

static void
add_graph_attrs (Reader            *reader,
                 const GraphFields *g)
{
  for (guint i = 0; i < g->attrs->len; i++)
    {
      g_autofree char *key = NULL, *label = NULL;
      g_autoptr(GString) text = g_string_new (NULL);
      Damage damage = { 0 };
      Slice value;

      if (!sl_ge_read_map_entry (&g_array_index (g->attrs, Slice, i), &key, &value, &damage) ||
          !sl_ge_append_attr (text, &value, NULL, &damage))
        {
          report (reader, &damage);
          continue;
        }
      label = g_strconcat ("graph.attr.", key, NULL);
      sl_graph_builder_add_metadata (reader->builder, label, text->str);
    }
}

static void
read_graph (Reader      *reader,
            const Slice *graph,
            const char  *prefix,
            Scope       *outer,
            guint        depth,
            char       **name_out)
{
  GraphFields g = { 0 };
  g_autoptr(GPtrArray) ops = g_ptr_array_new_with_free_func (op_free);
  g_autoptr(GPtrArray) pending = g_ptr_array_new_with_free_func (pending_free);
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);    /* op name → Op */
  g_autoptr(GHashTable) graph_inputs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Scope scope = { outer, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), NULL };
  guint base;

  collect_graph (reader, graph, &g);
  if (depth == 0 && prefix[0] == '\0')
    add_graph_attrs (reader, &g);

  /* Ops: parsed and placed before anything is added. */
  for (guint i = 0; i < g.ops->len; i++)
    {
      const Slice *bytes = g_ptr_array_index (g.ops, i);
      Damage damage = { 0 };
      Op *op = parse_op (bytes, &damage);

      if (op == NULL)
        {
          report (reader, &damage);
          continue;
        }
      op->path = sl_proto_graph_node_path (prefix, op->name, op->type, i);
      if (!is_const (op))
        sl_proto_graph_add_folders (folders, op->path);
      if (op_has_subgraphs (op))
        g_hash_table_add (folders, g_strdup (op->path));
      if (op->name[0] != '\0' && !g_hash_table_contains (by_name, op->name))
        g_hash_table_insert (by_name, op->name, op);
      g_ptr_array_add (ops, op);
    }

  /* Graph inputs, each feeding the op it names. */
  for (guint i = 0; i < g.inputs->len; i++)
    {
      const char *input = g_ptr_array_index (g.inputs, i);
      g_autofree char *name = NULL;
      gboolean control;
      Op *op;

      if (input[0] == '\0')
        continue;
      name = split_input (input, &control);
      op = g_hash_table_lookup (by_name, name);
      if (!g_hash_table_contains (graph_inputs, name))
        g_hash_table_insert (graph_inputs, g_strdup (name),
                             GUINT_TO_POINTER (sl_graph_builder_get_n_elements (reader->builder) + 1));
      sl_graph_builder_begin_graph_input (reader->builder, input, prefix);
      if (op != NULL && op->output_desc->len > 0)
        add_desc_output (reader, &g_array_index (op->output_desc, Slice, 0));
      else
        sl_graph_builder_add_output (reader->builder, 0, NULL, 0);
    }

  base = sl_graph_builder_get_n_elements (reader->builder);
  for (guint i = 0; i < ops->len; i++)
    {
      Op *op = g_ptr_array_index (ops, i);

      op->scope = sl_proto_graph_node_scope (folders, op->path);
      sl_proto_graph_scope_define (&scope, op->name, base + i);
    }
  for (guint i = 0; i < ops->len; i++)
    add_op (reader, &scope, g_ptr_array_index (ops, i), graph_inputs, pending);

  for (guint i = 0; i < g.outputs->len; i++)
    {
      const char *output = g_ptr_array_index (g.outputs, i);
      g_autofree char *name = NULL;
      gboolean control;
      Op *op;

      if (output[0] == '\0')
        continue;
      name = split_input (output, &control);
      op = g_hash_table_lookup (by_name, name);
      sl_graph_builder_begin_graph_output (reader->builder, output, prefix);
      sl_graph_builder_add_input_element (reader->builder, sl_proto_graph_scope_resolve (&scope, name), output,
                                          SL_GRAPH_EDGE_DATA);
      if (op != NULL && op->output_desc->len > 0)
        add_desc_output (reader, &g_array_index (op->output_desc, Slice, 0));
    }

  /* Subgraphs after every element of this graph, in their own scopes. */
  for (guint i = 0; i < pending->len; i++)
    {
      Pending *p = g_ptr_array_index (pending, i);

      if (depth + 1 > SL_AIR_MAX_NESTING)
        {
          report (reader, &(Damage) { p->bytes.base, sl_proto_reason_nesting });
          reader->too_deep = TRUE;
          continue;
        }
      read_graph (reader, &p->bytes, p->prefix, &scope, depth + 1, NULL);
    }

  g_hash_table_unref (scope.values);
  if (name_out != NULL)
    *name_out = g_steal_pointer (&g.name);
  graph_fields_clear (&g);
}

/* A ModelDef graph's name, or "". */
static char *
graph_name (const Slice *graph)
{
  Field f;

  SL_PROTO_FOR_FIELDS (graph, pos, &f, NULL)
    if (f.field == 1 && f.wire_type == 2 && !f.bytes.cut)
      return sl_proto_dup_text (&f.bytes);
  return g_strdup ("");
}

/* The names ops of any ModelDef graph give in subgraph_name. */
static GHashTable *
referenced_graphs (Reader *reader)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < reader->graphs->len; i++)
    {
      Field f, g;

      SL_PROTO_FOR_FIELDS (&g_array_index (reader->graphs, Slice, i), pos, &f, NULL)
        if (f.field == 6 && f.wire_type == 2)
          SL_PROTO_FOR_FIELDS (&f.bytes, inner, &g, NULL)
            if (g.field == 35 && g.wire_type == 2)
              g_hash_table_add (names, sl_proto_dup_text (&g.bytes));
    }
  return names;
}

static void
add_model_attr (Reader      *reader,
                const Slice *entry)
{
  g_autofree char *key = NULL, *label = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  Damage damage = { 0 };
  Slice value;

  if (!sl_ge_read_map_entry (entry, &key, &value, &damage) || !sl_ge_append_attr (text, &value, NULL, &damage))
    {
      report (reader, &damage);
      return;
    }
  label = g_strconcat ("attr.", key, NULL);
  sl_graph_builder_add_metadata (reader->builder, label, text->str);
}

/* ModelDef: scalars and attributes as metadata, then the graphs. A field
 * cut off by the end of the bytes is reported; a graph so cut is read as
 * far as it goes. Returns: the model's name, or the first graph's. */
static char *
read_model (Reader      *reader,
            const Slice *bytes)
{
  Slice model = *bytes;
  g_autofree char *name = NULL;
  g_autofree char *first_name = NULL;
  g_autoptr(GArray) attrs = g_array_new (FALSE, FALSE, sizeof (Slice));
  g_autoptr(GHashTable) referenced = NULL;
  Damage damage = { 0 };
  Field f;

  /* Read as far as it goes; what runs past the end is reported below. */
  model.cut = TRUE;
  SL_PROTO_FOR_FIELDS (&model, pos, &f, &damage)
    {
      gboolean varint = f.field == 2;

      if (f.field != 1 && f.field != 2 && f.field != 3 && f.field != 7 && f.field != 11)
        continue;
      if (f.wire_type != (varint ? 0u : 2u))
        {
          report (reader, &(Damage) { f.at, sl_proto_reason_wire_type });
          continue;
        }
      if (f.bytes.cut)
        {
          report (reader, &(Damage) { f.at, sl_proto_reason_length });
          if (f.field != 7)
            continue;
        }
      switch (f.field)
        {
        case 1:
          g_free (name);
          name = sl_proto_dup_text (&f.bytes);
          sl_graph_builder_add_metadata (reader->builder, "name", name);
          break;
        case 2:
          {
            g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, f.value);

            sl_graph_builder_add_metadata (reader->builder, "version", text);
          }
          break;
        case 3:
          {
            g_autofree char *text = sl_proto_dup_text (&f.bytes);

            sl_graph_builder_add_metadata (reader->builder, "custom_version", text);
          }
          break;
        case 7:
          {
            gboolean no = FALSE;

            char *own = graph_name (&f.bytes);

            if (reader->graphs->len > 0 && !g_hash_table_contains (reader->by_name, own))
              g_hash_table_insert (reader->by_name, own, GUINT_TO_POINTER (reader->graphs->len + 1));
            g_array_append_val (reader->graphs, f.bytes);
            g_ptr_array_add (reader->names, own);
            g_array_append_val (reader->placed, no);
          }
          break;
        case 11: g_array_append_val (attrs, f.bytes); break;
        default: break;
        }
    }
  if (damage.reason != NULL)
    report (reader, &damage);
  for (guint i = 0; i < attrs->len; i++)
    add_model_attr (reader, &g_array_index (attrs, Slice, i));
  if (reader->graphs->len > 1)
    {
      g_autofree char *count = g_strdup_printf ("%u", reader->graphs->len);

      sl_graph_builder_add_metadata (reader->builder, "graphs", count);
    }

  /* The first graph is the top level, then the graphs no op names, each
   * a scope; then those named only where nothing reached them (a cycle),
   * unless they were left out for their nesting. */
  referenced = referenced_graphs (reader);
  for (guint i = 0; i < 2 * reader->graphs->len; i++)
    {
      guint k = i % reader->graphs->len;
      g_autofree char *prefix = NULL;

      if (g_array_index (reader->placed, gboolean, k))
        continue;
      if (k > 0 && g_hash_table_contains (referenced, g_ptr_array_index (reader->names, k)) &&
          (i < reader->graphs->len || reader->too_deep))
        continue;
      g_array_index (reader->placed, gboolean, k) = TRUE;
      if (k > 0)
        {
          const char *own = g_ptr_array_index (reader->names, k);

          prefix = g_strdelimit (own[0] != '\0' ? g_strdup (own) : g_strdup_printf ("graph.%u", k), "/", '_');
        }
      read_graph (reader, &g_array_index (reader->graphs, Slice, k), prefix != NULL ? prefix : "", NULL,
                  k > 0 ? 1 : 0, k == 0 ? &first_name : NULL);
    }
  if (name != NULL && name[0] != '\0')
    return g_steal_pointer (&name);
  return g_steal_pointer (&first_name);
}

/**
 * sl_air_read_model_def:
 * @builder: (transfer full): holds what the caller read before (an OM
 *   file's header as metadata, problems); freed here
 * @model: the ModelDef's bytes, with their offset in the file; cut when
 *   the file ends inside them
 * @format: (nullable): the "format" metadata ("AIR"), unless the caller
 *   gave it
 *
 * Returns: (transfer full) (nullable): the graph, with problems for any
 *   damage; %NULL with @error when nothing at all could be read
 */
SlGraph *
sl_air_read_model_def (SlGraphBuilder      *builder,
                       const SlProtoSlice  *model,
                       const char          *path,
                       const char          *format,
                       GError             **error)
{
  Reader reader = { builder, path != NULL ? path : "", 0, { 0, NULL }, NULL, NULL, NULL, NULL, FALSE };
  g_autofree char *name = NULL;
  SlGraph *result = NULL;

  reader.graphs = g_array_new (FALSE, FALSE, sizeof (Slice));
  reader.names = g_ptr_array_new_with_free_func (g_free);
  reader.by_name = g_hash_table_new (g_str_hash, g_str_equal);
  reader.placed = g_array_new (FALSE, FALSE, sizeof (gboolean));
  sl_graph_builder_set_path (builder, reader.path);
  if (format != NULL)
    sl_graph_builder_add_metadata (builder, "format", format);
  name = read_model (&reader, model);
  if (name == NULL || name[0] == '\0')
    {
      g_free (name);
      name = path != NULL ? g_path_get_basename (path) : g_strdup ("");
    }
  if (sl_graph_builder_get_n_elements (builder) == 0 && reader.n_damaged > 0)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("“%s” holds no GE IR model that can be read: it is damaged at byte %llu (%s)."), reader.path,
                 (unsigned long long) reader.first.offset, _(reader.first.reason));
  else if (reader.graphs->len == 0)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” holds no GE IR model that can be read."),
                 reader.path);
  else
    {
      sl_graph_builder_set_name (builder, name, NULL);
      result = sl_graph_builder_finish (builder);
    }
  sl_graph_builder_free (builder);
  g_array_unref (reader.graphs);
  g_hash_table_unref (reader.by_name);
  g_ptr_array_unref (reader.names);
  g_array_unref (reader.placed);
  return result;
}

/**
 * sl_air_decode:
 * @path: the file the bytes came from, for problems and the graph's name
 *   when the model gives none
 *
 * Decodes a serialized ge.proto.ModelDef (see the file comment for the
 * mapping).
 *
 * Returns: (transfer full) (nullable): the graph, with problems for any
 *   damage; %NULL with @error when nothing at all could be read
 */
SlGraph *
sl_air_decode (const guint8  *data,
               gsize          size,
               const char    *path,
               GError       **error)
{
  Slice model = { data != NULL ? data : (const guint8 *) "", size, 0, FALSE };

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return sl_air_read_model_def (sl_graph_builder_new (), &model, path, "AIR", error);
}

/**
 * sl_air_sniff:
 * @data: the whole file or its first bytes
 *
 * Whether @data starts like a GE ModelDef (see
 * sl_proto_shape_is_ge_model()).
 */
gboolean
sl_air_sniff (const guint8 *data,
              gsize         size)
{
  return sl_proto_shape_is_ge_model (data, size, FALSE);
}
