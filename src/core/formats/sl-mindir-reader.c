/* sl-mindir-reader.c: MindSpore MindIR models (mind_ir.ModelProto) into the graph model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Field numbers are those of MindSpore's public mind_ir.proto; the bytes
 * are walked by hand (sl-proto-wire.h), so every problem has its offset.
 *
 * The mapping, as Netron shows a model:
 * - Each NodeProto is an op. MindSpore writes the node's full name with
 *   its scope ("Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/
 *   Conv2D-op5") in its domain; its '/'-separated folders are the op's
 *   scope, as for anf_ir graphs. A node without a scoped domain is placed
 *   by its name; an unnamed one is "OpType-op<N>", N its position.
 * - An op type "REF::<name>" refers to a primitive of the model
 *   (ModelProto.primitives: its op type and attributes are the node's) or
 *   to a function graph (the op type is the function's name).
 * - A "Constant" node is a const: named by its output, its value the
 *   text of its first attribute. An attribute whose ref_attr_name starts
 *   with "shape:" gives the node's output types (its tensors).
 * - Inputs name values: the output of a node, a parameter or a graph
 *   input of that name, in the node's graph first, then in the graphs
 *   around it (functions see the main graph's values).
 * - Parameters (TensorProto) are parameters with their dtype and shape;
 *   their raw data is sized and external data named, neither is loaded.
 * - Graph inputs and outputs (ValueInfoProto) are elements of their own
 *   kinds, typed by their first TensorProto.
 * - Attributes (attribute, node_attr, primal_attr) become text; tuples,
 *   lists and dictionaries of values nest up to SL_MINDIR_MAX_NESTING.
 * - Functions (ModelProto.functions) are read into the same model, each
 *   in the scope of its name, so they expand like folders; graphs held
 *   by attributes go in "<node path>/<attribute>".
 * - IR version, producer, domain, model version, documentation, byte
 *   order, MindIR version and the function names are the metadata.
 *
 * Hostile bytes: every length is checked against what holds it. A node,
 * parameter or value whose own bytes are malformed is skipped with a
 * problem; where a graph's framing breaks, reading stops, keeping what
 * came before. A graph cut off by the end of the file is read as far as
 * it goes. Problems give the byte offset and the reason.
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sl-graph-builder.h"
#include "sl-mindir-reader.h"
#include "sl-onnx-values.h"
#include "sl-proto-graph.h"
#include "sl-proto-shape.h"
#include "sl-proto-wire.h"

/* Texts shown (documentation, string attributes) are cut to this many bytes. */
#define MAX_SHOWN_BYTES 256
/* Values of a list shown before "…". */
#define MAX_SHOWN_VALUES 8
/* Dimensions written in a type's text. */
#define MAX_SHOWN_DIMS 64
/* Function names listed in the metadata. */
#define MAX_LISTED_FUNCTIONS 64

typedef SlProtoSlice Slice;
typedef SlProtoField Field;
typedef SlProtoDamage Damage;
typedef SlProtoGraphScope Scope;
typedef SlProtoValueInfo ValueInfo;
typedef SlProtoNode Node;

/* mind_ir TensorProto.DataType names */
static const char * const type_names[] = {
  "undefined", "float32", "uint8", "int8", "uint16", "int16", "int32", "int64", "string", "bool",
  "float16", "float64", "uint32", "uint64", "complex64", "complex128", "bfloat16", "float64",
};

typedef struct {
  SlGraphBuilder *builder;
  const char     *path;
  guint           n_damaged;
  Damage          first;
  gboolean        has_graph;
  GHashTable     *primitives;  /* name → Slice * of PrimitiveProto */
  GHashTable     *functions;   /* name → TRUE */
} Reader;

static void
report (Reader       *reader,
        const Damage *damage)
{
  g_autofree char *message = g_strdup_printf (_("The MindIR model is damaged at byte %llu: %s."),
                                              (unsigned long long) damage->offset, _(damage->reason));
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Graph reader"),
                                                 reader->path, damage->offset, message);

  sl_graph_builder_add_problem (reader->builder, problem);
  if (reader->n_damaged++ == 0)
    reader->first = *damage;
}

static int
model_dtype (guint64 type)
{
  /* 1 … 16 number types as ONNX does; FLOAT64 (17) is DOUBLE (11). */
  return sl_onnx_model_dtype (type == 17 ? 11 : type);
}

static void
append_type_name (GString *out,
                  guint64  type)
{
  if (type < G_N_ELEMENTS (type_names))
    g_string_append (out, type_names[type]);
  else
    g_string_append_printf (out, "type%" G_GUINT64_FORMAT, type);
}

/* Text cut at MAX_SHOWN_BYTES, on a character boundary. */
static char *
dup_shown (const Slice *bytes)
{
  Slice shown = sl_proto_graph_shown (bytes, MAX_SHOWN_BYTES);

  return sl_proto_dup_text (&shown);
}

/* Tensors */

typedef struct {
  char    *name;
  guint64  data_type;
  GArray  *dims;       /* gint64 */
  GString *values;     /* the first values, or "" */
  guint64  n_values;
  gsize    raw_size;
  gboolean has_raw;
  char    *location;   /* external_data */
  gint64   offset;
  gint64   length;
} Tensor;

static void
tensor_clear (Tensor *t)
{
  g_clear_pointer (&t->name, g_free);
  g_clear_pointer (&t->dims, g_array_unref);
  if (t->values != NULL)
    g_string_free (g_steal_pointer (&t->values), TRUE);
  g_clear_pointer (&t->location, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Tensor, tensor_clear)

static void
append_value (Tensor  *t,
              guint    field,
              guint64  value)
{
  if (t->n_values++ >= MAX_SHOWN_VALUES)
    {
      if (t->n_values == MAX_SHOWN_VALUES + 1)
        g_string_append (t->values, ", …");
      return;
    }
  if (t->values->len > 0)
    g_string_append (t->values, ", ");
  switch (field)
    {
    case 3:
      {
        guint32 bits = (guint32) value;
        float f;

        memcpy (&f, &bits, sizeof f);
        g_string_append_printf (t->values, "%g", (double) f);
      }
      break;
    case 10:
      {
        double d;

        memcpy (&d, &value, sizeof d);
        g_string_append_printf (t->values, "%g", d);
      }
      break;
    case 4: g_string_append_printf (t->values, "%d", (gint32) value); break;
    case 6: g_string_append_printf (t->values, "%" G_GINT64_FORMAT, (gint64) value); break;
    default: g_string_append_printf (t->values, "%" G_GUINT64_FORMAT, value); break;
    }
}

/* ExternalDataProto { location 1, offset 2, length 3, checksum 4 } */
static gboolean
read_external (const Slice *bytes,
               Tensor      *t,
               Damage      *damage)
{
  Field f;

  t->location = t->location != NULL ? t->location : g_strdup ("");
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      if (f.field == 1)
        {
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          g_free (t->location);
          t->location = dup_shown (&f.bytes);
        }
      else if (f.field == 2 || f.field == 3)
        {
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          *(f.field == 2 ? &t->offset : &t->length) = (gint64) f.value;
        }
    }
  return damage->reason == NULL;
}

static gboolean
read_tensor (const Slice *bytes,
             Tensor      *t,
             Damage      *damage)
{
  Field f;

  t->dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  t->values = g_string_new (NULL);
  t->length = -1;
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      guint64 value;
      gsize at = 0;

      switch (f.field)
        {
        case 1:
          while (sl_proto_packed_next (&f, 0, &at, &value, damage))
            g_array_append_val (t->dims, (gint64) { (gint64) value });
          break;
        case 2:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          t->data_type = f.value;
          break;
        case 3:
        case 4:
        case 6:
        case 10:
        case 11:
          while (sl_proto_packed_next (&f, f.field == 3 ? 4 : f.field == 10 ? 8 : 0, &at, &value, damage))
            append_value (t, f.field, value);
          break;
        case 5:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          t->n_values++;
          break;
        case 7:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          g_free (t->name);
          t->name = sl_proto_dup_text (&f.bytes);
          break;
        case 9:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          t->raw_size = f.bytes.len;
          t->has_raw = TRUE;
          break;
        case 12:
          if (!sl_proto_expect_wire (&f, 2, damage) || !read_external (&f.bytes, t, damage))
            return FALSE;
          break;
        default:
          break;
        }
      if (damage->reason != NULL)
        return FALSE;
    }
  if (damage->reason != NULL)
    return FALSE;
  if (t->name == NULL)
    t->name = g_strdup ("");
  return TRUE;
}

/* "float32[3,4]" */
static void
append_tensor_type (GString      *out,
                    const Tensor *t)
{
  append_type_name (out, t->data_type);
  g_string_append_c (out, '[');
  for (guint i = 0; i < MIN (t->dims->len, MAX_SHOWN_DIMS); i++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "", g_array_index (t->dims, gint64, i));
  g_string_append (out, t->dims->len > MAX_SHOWN_DIMS ? ",…]" : "]");
}

/* Where a tensor's values are: "<location> (offset N, M bytes)", "N bytes"
 * of raw data, or the first values. */
static char *
tensor_data_text (const Tensor *t)
{
  if (t->location != NULL)
    {
      if (t->length >= 0)
        return g_strdup_printf ("%s (offset %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT " bytes)", t->location,
                                t->offset, t->length);
      return g_strdup_printf ("%s (offset %" G_GINT64_FORMAT ")", t->location, t->offset);
    }
  if (t->has_raw)
    return g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", t->raw_size);
  if (t->values->len > 0)
    return g_strdup_printf ("[%s]", t->values->str);
  return NULL;
}

/* Attributes */

/* GraphProto.name (2), or "". */
static char *
graph_name (const Slice *graph)
{
  Field f;

  SL_PROTO_FOR_FIELDS (graph, pos, &f, NULL)
    if (f.field == 2 && f.wire_type == 2)
      return sl_proto_dup_text (&f.bytes);
  return g_strdup ("");
}


/* Whether the next item of a list is shown: the first MAX_SHOWN_VALUES
 * are, with their separators, then "…" once. Counts the item. */
static gboolean
list_item (GString *out,
           guint   *n)
{
  guint i = (*n)++;

  if (i == MAX_SHOWN_VALUES)
    g_string_append (out, ", …");
  if (i >= MAX_SHOWN_VALUES)
    return FALSE;
  if (i > 0)
    g_string_append (out, ", ");
  return TRUE;
}

/* One AttributeProto's value as text into @out; graphs (g 7, graphs 13)
 * into @graphs as Slice, with their attribute name. */
static gboolean
read_attribute (const Slice *bytes,
                char       **name,
                GString     *out,
                GArray      *graphs,
                guint        depth,
                Damage      *damage)
{
  g_autoptr(GString) list = g_string_new (NULL);
  guint64 type = 0, i = 0;
  gboolean has_i = FALSE, has_scalar = FALSE;
  guint n_list = 0;
  Field f;

  if (depth > SL_MINDIR_MAX_NESTING)
    {
      *damage = (Damage) { bytes->base, sl_proto_reason_nesting };
      return FALSE;
    }
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      guint64 value;
      gsize at = 0;

      switch (f.field)
        {
        case 1:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          if (name != NULL)
            {
              g_free (*name);
              *name = sl_proto_dup_text (&f.bytes);
            }
          break;
        case 2:
          if (!sl_proto_expect_wire (&f, 5, damage))
            return FALSE;
          {
            guint32 bits = (guint32) f.value;
            float v;

            memcpy (&v, &bits, sizeof v);
            g_string_append_printf (out, "%g", (double) v);
            has_scalar = TRUE;
          }
          break;
        case 3:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          i = f.value;
          has_i = TRUE;
          break;
        case 4:
          if (!sl_proto_expect_wire (&f, 1, damage))
            return FALSE;
          {
            double v;

            memcpy (&v, &f.value, sizeof v);
            g_string_append_printf (out, "%g", v);
            has_scalar = TRUE;
          }
          break;
        case 5:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          {
            g_autofree char *text = dup_shown (&f.bytes);

            g_string_append_printf (out, "\"%s\"", text);
            has_scalar = TRUE;
          }
          break;
        case 6:
        case 12:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          {
            g_auto(Tensor) t = { 0 };

            if (!read_tensor (&f.bytes, &t, damage))
              return FALSE;
            if (f.field == 6 || list_item (list, &n_list))
              append_tensor_type (f.field == 12 ? list : out, &t);
            has_scalar |= f.field == 6;
          }
          break;
        case 7:
        case 13:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          if (graphs != NULL)
            g_array_append_val (graphs, f.bytes);
          {
            g_autofree char *subgraph = graph_name (&f.bytes);
            GString *to = f.field == 13 ? list : out;

            if (f.field == 7 || list_item (list, &n_list))
              {
                g_string_append (to, "graph");
                if (subgraph[0] != '\0')
                  g_string_append_printf (to, " %s", subgraph);
              }
            has_scalar |= f.field == 7;
          }
          break;
        case 8:
        case 9:
        case 10:
          while (sl_proto_packed_next (&f, f.field == 8 ? 4 : f.field == 9 ? 8 : 0, &at, &value, damage))
            {
              if (!list_item (list, &n_list))
                continue;
              if (f.field == 10)
                g_string_append_printf (list, "%" G_GINT64_FORMAT, (gint64) value);
              else if (f.field == 9)
                {
                  double v;

                  memcpy (&v, &value, sizeof v);
                  g_string_append_printf (list, "%g", v);
                }
              else
                {
                  guint32 bits = (guint32) value;
                  float v;

                  memcpy (&v, &bits, sizeof v);
                  g_string_append_printf (list, "%g", (double) v);
                }
            }
          if (damage->reason != NULL)
            return FALSE;
          break;
        case 11:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          {
            g_autofree char *text = dup_shown (&f.bytes);

            if (list_item (list, &n_list))
              g_string_append_printf (list, "\"%s\"", text);
          }
          break;
        case 16:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          type = f.value;
          break;
        case 17:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          {
            g_autoptr(GString) item = g_string_new (NULL);
            g_autofree char *key = NULL;

            if (!read_attribute (&f.bytes, &key, item, graphs, depth + 1, damage))
              return FALSE;
            if (!list_item (list, &n_list))
              break;
            if (type == 22 && key != NULL && key[0] != '\0')
              g_string_append_printf (list, "%s: ", key);
            g_string_append (list, item->str);
          }
          break;
        default:
          break;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  if (has_i && !has_scalar)
    {
      if (type == 9)
        g_string_append (out, i != 0 ? "true" : "false");
      else
        g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) i);
    }
  else if (n_list > 0 || type == 20 || type == 21 || type == 22)
    {
      const char *open = type == 20 ? "(" : type == 22 ? "{" : "[";
      const char *close = type == 20 ? ")" : type == 22 ? "}" : "]";

      g_string_append_printf (out, "%s%s%s", open, list->str, close);
    }
  else if (out->len == 0 && type == 25)
    g_string_append (out, "None");
  return TRUE;
}

/* Nodes */

/* Whether an attribute holds a graph (g 7, graphs 13), itself or in its values (17). */
static gboolean
attr_has_graph (const Slice *attr,
                guint        depth)
{
  Field f;

  if (depth > SL_MINDIR_MAX_NESTING)
    return FALSE;
  SL_PROTO_FOR_FIELDS (attr, pos, &f, NULL)
    if (f.wire_type == 2 && (f.field == 7 || f.field == 13 || (f.field == 17 && attr_has_graph (&f.bytes, depth + 1))))
      return TRUE;
  return FALSE;
}

static gboolean
node_has_graphs (const Node *node)
{
  for (guint i = 0; i < node->attrs->len; i++)
    if (attr_has_graph (&g_array_index (node->attrs, Slice, i), 0))
      return TRUE;
  return FALSE;
}

static void
add_attributes (Reader      *reader,
                const Slice *attrs,
                guint        n_attrs,
                const char  *node_path,
                GPtrArray   *subgraphs)
{
  for (guint i = 0; i < n_attrs; i++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(GArray) graphs = g_array_new (FALSE, FALSE, sizeof (Slice));
      g_autofree char *name = NULL;
      Damage damage = { 0 };

      if (!read_attribute (&attrs[i], &name, text, graphs, 0, &damage))
        {
          report (reader, &damage);
          continue;
        }
      if (name == NULL)
        name = g_strdup ("");
      sl_graph_builder_add_attribute (reader->builder, name, text->str);
      for (guint k = 0; subgraphs != NULL && k < graphs->len; k++)
        {
          g_ptr_array_add (subgraphs, g_memdup2 (&g_array_index (graphs, Slice, k), sizeof (Slice)));
          g_ptr_array_add (subgraphs, sl_proto_graph_subgraph_path (node_path, name, k, graphs->len));
        }
    }
}

/* PrimitiveProto { name 1, op_type 2, attribute 3, instance_name 4 } */
static void
add_primitive (Reader      *reader,
               const Slice *primitive)
{
  g_autoptr(GArray) attrs = g_array_new (FALSE, FALSE, sizeof (Slice));
  Damage damage = { 0 };
  Field f;

  SL_PROTO_FOR_FIELDS (primitive, pos, &f, &damage)
    {
      if (f.wire_type != 2)
        continue;
      if (f.field == 3)
        g_array_append_val (attrs, f.bytes);
      else if (f.field == 4)
        {
          g_autofree char *instance = sl_proto_dup_text (&f.bytes);

          sl_graph_builder_add_attribute (reader->builder, "instance_name", instance);
        }
    }
  if (damage.reason != NULL)
    report (reader, &damage);
  add_attributes (reader, (const Slice *) (gpointer) attrs->data, attrs->len, "", NULL);
}

/* "REF::<name>": a primitive's op type, or the name of a function. */
static void
resolve_type (Reader *reader,
              Node   *node)
{
  const char *target = node->op_type + strlen ("REF::");

  node->type = g_strdup (node->op_type);
  if (!g_str_has_prefix (node->op_type, "REF::"))
    return;
  node->primitive = g_hash_table_lookup (reader->primitives, target);
  g_free (node->type);
  node->type = g_strdup (target);
  if (node->primitive != NULL)
    {
      Field f;

      SL_PROTO_FOR_FIELDS (node->primitive, pos, &f, NULL)
        if (f.field == 2 && f.wire_type == 2)
          {
            g_free (node->type);
            node->type = sl_proto_dup_text (&f.bytes);
          }
    }
}

/* MindSpore writes a node's output types as an attribute whose
 * ref_attr_name (15) starts with "shape:", one TensorProto (12) each. */
static void
add_shape_outputs (Reader     *reader,
                   const Node *node)
{
  for (guint i = 0; i < node->attrs->len; i++)
    {
      const Slice *attr = &g_array_index (node->attrs, Slice, i);
      gboolean shape = FALSE;
      Field f;

      SL_PROTO_FOR_FIELDS (attr, pos, &f, NULL)
        if (f.field == 15 && f.wire_type == 2)
          shape = f.bytes.len >= 6 && memcmp (f.bytes.data, "shape:", 6) == 0;
      if (!shape)
        continue;
      SL_PROTO_FOR_FIELDS (attr, pos, &f, NULL)
        if (f.field == 12 && f.wire_type == 2)
          {
            g_auto(Tensor) t = { 0 };
            Damage damage = { 0 };

            if (read_tensor (&f.bytes, &t, &damage))
              sl_graph_builder_add_output (reader->builder, model_dtype (t.data_type),
                                           (const gint64 *) (gpointer) t.dims->data, t.dims->len);
          }
      return;
    }
}

/* A "Constant" node is a value: a const named by its output, its first
 * attribute its value. */
static void
add_constant (Reader     *reader,
              const Node *node)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const char *key = node->outputs->len > 0 ? g_ptr_array_index (node->outputs, 0) : node->name;
  Damage damage = { 0 };

  if (node->attrs->len > 0 && !read_attribute (&g_array_index (node->attrs, Slice, 0), NULL, text, NULL, 0, &damage))
    report (reader, &damage);
  sl_graph_builder_begin_const (reader->builder, key[0] != '\0' ? key : node->path,
                                damage.reason == NULL && text->len > 0 ? text->str : NULL);
}

static void
add_node (Reader     *reader,
          Scope      *scope,
          const Node *node,
          GPtrArray  *subgraphs)
{
  g_autofree char *display = sl_proto_graph_node_display (node->path, node->scope);

  sl_graph_builder_begin_op (reader->builder, node->name, node->type, node->scope[0] != '\0' ? node->scope : NULL,
                             display, NULL, NULL);
  for (guint i = 0; i < node->inputs->len; i++)
    {
      const char *value = g_ptr_array_index (node->inputs, i);

      if (value[0] != '\0')
        sl_graph_builder_add_input_element (reader->builder, sl_proto_graph_scope_resolve (scope, value), value, SL_GRAPH_EDGE_DATA);
    }
  if (node->primitive != NULL)
    add_primitive (reader, node->primitive);
  else if (g_str_has_prefix (node->op_type, "REF::") && g_hash_table_contains (reader->functions, node->type))
    sl_graph_builder_add_attribute (reader->builder, "function", node->type);
  if (node->domain != NULL && node->domain[0] != '\0')
    sl_graph_builder_add_attribute (reader->builder, "domain", node->domain);
  add_attributes (reader, (const Slice *) (gpointer) node->attrs->data, node->attrs->len, node->path, subgraphs);
  add_shape_outputs (reader, node);
}

/* Graphs */

static void
add_value_type (Reader      *reader,
                const Slice *tensor)
{
  g_auto(Tensor) t = { 0 };
  Damage damage = { 0 };

  if (!read_tensor (tensor, &t, &damage))
    {
      report (reader, &damage);
      sl_graph_builder_add_output (reader->builder, 0, NULL, 0);
      return;
    }
  sl_graph_builder_add_output (reader->builder, model_dtype (t.data_type), (const gint64 *) (gpointer) t.dims->data,
                               t.dims->len);
  if (tensor->len > 0)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      append_tensor_type (text, &t);
      sl_graph_builder_add_attribute (reader->builder, "type", text->str);
    }
}

static void
add_parameter (Reader      *reader,
               Scope       *scope,
               const Slice *bytes,
               const char  *prefix)
{
  g_auto(Tensor) t = { 0 };
  g_autofree char *data = NULL;
  g_autoptr(GString) type = g_string_new (NULL);
  Damage damage = { 0 };

  if (!read_tensor (bytes, &t, &damage))
    {
      report (reader, &damage);
      return;
    }
  sl_proto_graph_scope_define (scope, t.name, sl_graph_builder_get_n_elements (reader->builder));
  sl_graph_builder_begin_parameter (reader->builder, t.name);
  sl_graph_builder_add_output (reader->builder, model_dtype (t.data_type), (const gint64 *) (gpointer) t.dims->data,
                               t.dims->len);
  append_tensor_type (type, &t);
  sl_graph_builder_add_attribute (reader->builder, "type", type->str);
  data = tensor_data_text (&t);
  if (data != NULL)
    sl_graph_builder_add_attribute (reader->builder, t.location != NULL ? "external data" : "data", data);
  if (prefix[0] != '\0')
    sl_graph_builder_add_attribute (reader->builder, "graph", prefix);
}

/* GraphProto { node 1, name 2, parameter 3, doc_string 4, input 5,
 * output 6, bprop_hash 7, attribute 8, bprop_filepath 9, map_parameter 10 };
 * returns its values, for the graphs read after it. */
static Scope *
read_graph (Reader      *reader,
            const Slice *graph,
            const char  *prefix,
            Scope       *outer,
            guint        depth)
{
  g_autoptr(GPtrArray) node_bytes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) parameters = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) inputs = g_ptr_array_new_with_free_func (sl_proto_value_info_free);
  g_autoptr(GPtrArray) outputs = g_ptr_array_new_with_free_func (sl_proto_value_info_free);
  g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func (sl_proto_node_free);
  g_autoptr(GPtrArray) subgraphs = g_ptr_array_new_with_free_func (g_free);  /* Slice *, path */
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Scope *scope = g_new0 (Scope, 1);
  Damage damage = { 0 };
  Field f;
  gsize pos = 0;
  guint base;

  scope->outer = outer;
  scope->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  while (sl_proto_next_field (graph, &pos, &f, &damage))
    {
      if (f.field != 1 && f.field != 3 && f.field != 5 && f.field != 6)
        continue;
      if (f.wire_type != 2)
        {
          report (reader, &(Damage) { f.at, sl_proto_reason_wire_type });
          continue;
        }
      if (f.bytes.cut && f.field != 1)
        continue;
      if (f.field == 1)
        g_ptr_array_add (node_bytes, g_memdup2 (&f.bytes, sizeof f.bytes));
      else if (f.field == 3)
        g_ptr_array_add (parameters, g_memdup2 (&f.bytes, sizeof f.bytes));
      else
        {
          Damage inner = { 0 };
          ValueInfo *v = sl_proto_value_info_parse (&f.bytes, TRUE, &inner);

          if (v == NULL)
            report (reader, &inner);
          else
            g_ptr_array_add (f.field == 5 ? inputs : outputs, v);
        }
    }
  if (damage.reason != NULL)
    report (reader, &damage);

  for (guint i = 0; i < parameters->len; i++)
    add_parameter (reader, scope, g_ptr_array_index (parameters, i), prefix);
  for (guint i = 0; i < inputs->len; i++)
    {
      ValueInfo *v = g_ptr_array_index (inputs, i);

      if (v->name[0] != '\0' && g_hash_table_contains (scope->values, v->name))
        continue;
      g_hash_table_replace (scope->values, g_strdup (v->name),
                            GUINT_TO_POINTER (sl_graph_builder_get_n_elements (reader->builder) + 1));
      sl_graph_builder_begin_graph_input (reader->builder, v->name, prefix[0] != '\0' ? prefix : NULL);
      add_value_type (reader, &v->type);
    }

  for (guint i = 0; i < node_bytes->len; i++)
    {
      Damage node_damage = { 0 };
      Node *node = sl_proto_node_parse (g_ptr_array_index (node_bytes, i), SL_PROTO_GRAPH_MINDIR, &node_damage);
      const char *full;

      if (node == NULL)
        {
          if (node_damage.reason != NULL)
            report (reader, &node_damage);
          continue;
        }
      resolve_type (reader, node);
      full = node->domain != NULL && strchr (node->domain, '/') != NULL ? node->domain : node->name;
      node->path = sl_proto_graph_node_path (prefix, full, node->type, i);
      if (strcmp (node->type, "Constant") != 0)
        sl_proto_graph_add_folders (folders, node->path);
      if (node_has_graphs (node))
        g_hash_table_add (folders, g_strdup (node->path));
      g_ptr_array_add (nodes, node);
    }
  base = sl_graph_builder_get_n_elements (reader->builder);
  for (guint i = 0; i < nodes->len; i++)
    {
      Node *node = g_ptr_array_index (nodes, i);

      node->scope = sl_proto_graph_node_scope (folders, node->path);
      for (guint k = 0; k < node->outputs->len; k++)
        sl_proto_graph_scope_define (scope, g_ptr_array_index (node->outputs, k), base + i);
      /* MindSpore refers to a node's value by the node's name too. */
      sl_proto_graph_scope_define (scope, node->name, base + i);
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      Node *node = g_ptr_array_index (nodes, i);

      if (strcmp (node->type, "Constant") == 0)
        add_constant (reader, node);
      else
        add_node (reader, scope, node, subgraphs);
    }

  for (guint i = 0; i < outputs->len; i++)
    {
      ValueInfo *v = g_ptr_array_index (outputs, i);

      sl_graph_builder_begin_graph_output (reader->builder, v->name, prefix[0] != '\0' ? prefix : NULL);
      if (v->name[0] != '\0')
        sl_graph_builder_add_input_element (reader->builder, sl_proto_graph_scope_resolve (scope, v->name), v->name, SL_GRAPH_EDGE_DATA);
      add_value_type (reader, &v->type);
    }

  for (guint i = 0; i + 1 < subgraphs->len; i += 2)
    {
      const Slice *sub = g_ptr_array_index (subgraphs, i);
      Scope *inner;

      if (depth + 1 > SL_MINDIR_MAX_NESTING)
        {
          report (reader, &(Damage) { sub->base, sl_proto_reason_nesting });
          continue;
        }
      inner = read_graph (reader, sub, g_ptr_array_index (subgraphs, i + 1), scope, depth + 1);
      g_hash_table_unref (inner->values);
      g_free (inner);
    }
  return scope;
}

/* The model */

static void
add_metadata_text (Reader      *reader,
                   const char  *key,
                   const Slice *bytes)
{
  g_autofree char *text = dup_shown (bytes);

  if (text[0] != '\0')
    sl_graph_builder_add_metadata (reader->builder, key, text);
}

static char *
primitive_name (const Slice *primitive)
{
  Field f;

  SL_PROTO_FOR_FIELDS (primitive, pos, &f, NULL)
    if (f.field == 1 && f.wire_type == 2)
      return sl_proto_dup_text (&f.bytes);
  return NULL;
}

/* ModelProto { ir_version 1, producer_name 2, producer_version 3, domain 4,
 * model_version 5, doc_string 6, graph 7, functions 8, preprocessor 9,
 * little_endian 10, parallel 11, primitives 12, mind_ir_version 13 } */
static void
read_model (Reader       *reader,
            const guint8 *data,
            gsize         size,
            char        **name)
{
  static const char * const text_keys[] = {
    NULL, "ir_version", "producer_name", "producer_version", "domain", "model_version", "doc_string",
  };
  Slice model = { data, size, 0, FALSE };
  Slice graph = { NULL, 0, 0, FALSE };
  g_autoptr(GPtrArray) functions = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) function_names = g_string_new (NULL);
  Damage damage = { 0 };
  Field f;
  gsize pos = 0;

  sl_graph_builder_add_metadata (reader->builder, "format", "MindIR");
  while (sl_proto_next_field (&model, &pos, &f, &damage))
    {
      gboolean varint = f.field == 10 || f.field == 13;

      if (f.field == 0 || f.field > 13)
        continue;
      if (f.wire_type != (varint ? 0u : 2u))
        {
          report (reader, &(Damage) { f.at, sl_proto_reason_wire_type });
          continue;
        }
      if (f.bytes.cut && f.field != 7 && f.field != 8)
        continue;
      switch (f.field)
        {
        case 1: case 2: case 3: case 4: case 5: case 6:
          add_metadata_text (reader, text_keys[f.field], &f.bytes);
          break;
        case 7:
          graph = f.bytes;
          reader->has_graph = TRUE;
          break;
        case 8:
          g_ptr_array_add (functions, g_memdup2 (&f.bytes, sizeof f.bytes));
          break;
        case 10:
          sl_graph_builder_add_metadata (reader->builder, "little_endian", f.value != 0 ? "true" : "false");
          break;
        case 12:
          {
            g_autofree char *key = primitive_name (&f.bytes);

            if (key != NULL && !g_hash_table_contains (reader->primitives, key))
              g_hash_table_insert (reader->primitives, g_steal_pointer (&key), g_memdup2 (&f.bytes, sizeof f.bytes));
          }
          break;
        case 13:
          {
            g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) f.value);

            sl_graph_builder_add_metadata (reader->builder, "mind_ir_version", text);
          }
          break;
        default:
          break;
        }
    }
  if (damage.reason != NULL)
    {
      gsize at = damage.offset;
      guint64 tag, length;

      report (reader, &damage);
      /* The tag and length of the graph or of a function were read, its
       * bytes run past the end: read what there is. */
      if (damage.reason == sl_proto_reason_length && sl_proto_read_varint (data, size, &at, &tag) &&
          (tag == ((7 << 3) | 2) || tag == ((8 << 3) | 2)) && sl_proto_read_varint (data, size, &at, &length))
        {
          Slice rest = { data + at, size - at, at, TRUE };

          if (tag >> 3 == 7 && !reader->has_graph)
            {
              graph = rest;
              reader->has_graph = TRUE;
            }
          else if (tag >> 3 == 8)
            g_ptr_array_add (functions, g_memdup2 (&rest, sizeof rest));
        }
    }

  for (guint i = 0; i < functions->len; i++)
    {
      g_autofree char *function = graph_name (g_ptr_array_index (functions, i));

      g_hash_table_add (reader->functions, g_strdup (function));
      if (i < MAX_LISTED_FUNCTIONS)
        g_string_append_printf (function_names, "%s%s", i > 0 ? ", " : "", function);
      else if (i == MAX_LISTED_FUNCTIONS)
        g_string_append_printf (function_names, ", … (%u in all)", functions->len);
    }
  if (function_names->len > 0)
    sl_graph_builder_add_metadata (reader->builder, "functions", function_names->str);

  {
    Scope *main_scope = NULL;

    if (reader->has_graph)
      {
        main_scope = read_graph (reader, &graph, "", NULL, 0);
        *name = graph_name (&graph);
      }
    for (guint i = 0; i < functions->len; i++)
      {
        const Slice *function = g_ptr_array_index (functions, i);
        g_autofree char *function_name = graph_name (function);
        g_autofree char *prefix = g_strdelimit (g_strdup (function_name[0] != '\0' ? function_name : "function"),
                                                "/", '_');
        Scope *scope = read_graph (reader, function, prefix, main_scope, 1);

        g_hash_table_unref (scope->values);
        g_free (scope);
      }
    if (main_scope != NULL)
      {
        g_hash_table_unref (main_scope->values);
        g_free (main_scope);
      }
  }
}

/**
 * sl_mindir_decode:
 * @path: the file the bytes came from, for problems and the graph's name
 *   when the model gives none
 *
 * Decodes a serialized mind_ir.ModelProto (see the file comment for the
 * mapping).
 *
 * Returns: (transfer full) (nullable): the graph, with problems for any
 *   damage; %NULL with @error when nothing at all could be read
 */
SlGraph *
sl_mindir_decode (const guint8  *data,
                  gsize          size,
                  const char    *path,
                  GError       **error)
{
  Reader reader = { sl_graph_builder_new (), path != NULL ? path : "", 0, { 0, NULL }, FALSE,
                    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
                    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };
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
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("“%s” holds no MindIR model that can be read: it is damaged at byte %llu (%s)."), reader.path,
                 (unsigned long long) reader.first.offset, _(reader.first.reason));
  else if (sl_graph_builder_get_n_elements (reader.builder) == 0 && !reader.has_graph)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("“%s” holds no MindIR model that can be read."), reader.path);
  else
    {
      sl_graph_builder_set_name (reader.builder, name, NULL);
      result = sl_graph_builder_finish (reader.builder);
    }
  sl_graph_builder_free (reader.builder);
  g_hash_table_unref (reader.primitives);
  g_hash_table_unref (reader.functions);
  return result;
}

/**
 * sl_mindir_sniff:
 * @data: the whole file or its first bytes
 *
 * Whether @data starts like a MindIR ModelProto (see
 * sl_proto_shape_is_mindir_model()).
 */
gboolean
sl_mindir_sniff (const guint8 *data,
                 gsize         size)
{
  return sl_proto_shape_is_mindir_model (data, size, FALSE);
}
