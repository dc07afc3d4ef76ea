/* sl-saved-model-reader.c: TensorFlow SavedModels (saved_model.pb) into the
 * graph model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Field numbers are those of TensorFlow's public saved_model.proto,
 * meta_graph.proto, graph.proto, function.proto and op_def.proto; the
 * bytes are walked with the bounds-checked decoder of sl-proto-wire.c.
 *
 * The mapping:
 * - Every MetaGraphDef becomes a graph of its own, named by its tags
 *   ("serve", "serve,gpu"; "meta-graph 2" without tags).
 * - Its GraphDef's nodes are read by the GraphDef reader (see
 *   sl-graph-def-reader.c for ops, constants and scopes).
 * - TF2 SavedModels keep most ops in the function library: each
 *   FunctionDef's nodes go into a scope named by the function, with an
 *   "_Arg" op for each input argument (which the body's inputs name) and
 *   a "_Retval" op for each output, fed by what the function returns.
 * - Signature defs go to the graph's metadata as "signature_def.KEY":
 *   the method and each input and output with its tensor, dtype and shape.
 *
 * Hostile bytes: every field is bounds-checked. Damage gives a problem
 * with the byte offset and the reason, and reading goes on with what is
 * left; a file cut short is read as far as it goes. A SavedModel with no
 * node at all in any meta-graph is an error naming the file, never an
 * empty graph.
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sl-graph-builder.h"
#include "sl-graph-def-reader.h"
#include "sl-proto-wire.h"
#include "sl-saved-model-reader.h"

/* SavedModel */
#define SAVED_MODEL_SCHEMA_VERSION 1
#define SAVED_MODEL_META_GRAPHS 2
/* MetaGraphDef */
#define META_INFO_DEF 1
#define META_GRAPH_DEF 2
#define META_SIGNATURE_DEF 5
/* MetaGraphDef.MetaInfoDef */
#define INFO_TAGS 4
#define INFO_TENSORFLOW_VERSION 5
/* GraphDef */
#define GRAPH_LIBRARY 2
/* FunctionDefLibrary */
#define LIBRARY_FUNCTION 1
/* FunctionDef */
#define FUNCTION_SIGNATURE 1
#define FUNCTION_NODE_DEF 3
#define FUNCTION_RET 4
/* OpDef and OpDef.ArgDef */
#define OP_NAME 1
#define OP_INPUT_ARG 2
#define OP_OUTPUT_ARG 3
#define ARG_NAME 1
#define ARG_TYPE 3
/* SignatureDef and TensorInfo */
#define SIGNATURE_INPUTS 1
#define SIGNATURE_OUTPUTS 2
#define SIGNATURE_METHOD 3
#define TENSOR_INFO_NAME 1
#define TENSOR_INFO_DTYPE 2
#define TENSOR_INFO_SHAPE 3

/* Names and texts are shown up to this many bytes; the list of functions
 * in the details up to this many names. */
#define MAX_SHOWN_BYTES 256
#define MAX_SHOWN_FUNCTIONS 64

typedef SlProtoSlice Slice;
typedef SlProtoField Field;
typedef SlProtoDamage Damage;

typedef struct {
  SlGraphBuilder *builder;
  const char     *path;
  guint           n_damaged;
} Reading;

static void
report (Reading      *reading,
        const Damage *damage)
{
  g_autofree char *message = g_strdup_printf (_("The SavedModel is damaged at byte %llu: %s."),
                                              (unsigned long long) damage->offset, _(damage->reason));
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Graph reader"),
                                                 reading->path, damage->offset, message);

  sl_graph_builder_add_problem (reading->builder, problem);
  reading->n_damaged++;
}

static void
report_cut (Reading *reading,
            gsize    size)
{
  g_autofree char *message = g_strdup_printf (_("The SavedModel ends at byte %llu, inside a meta-graph: "
                                                "what comes before is shown."),
                                              (unsigned long long) size);
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Graph reader"),
                                                 reading->path, size, message);

  sl_graph_builder_add_problem (reading->builder, problem);
  reading->n_damaged++;
}

/* The bytes as UTF-8 text, at most MAX_SHOWN_BYTES of them. */
static char *
dup_text (const Slice *bytes)
{
  Slice shown = *bytes;

  shown.len = MIN (shown.len, MAX_SHOWN_BYTES);
  while (shown.len > 0 && shown.len < bytes->len && (shown.data[shown.len] & 0xc0) == 0x80)
    shown.len--;
  return sl_proto_dup_text (&shown);
}

/* A map entry's key (1) and value (2), both length-delimited. */
static gboolean
map_entry (const Slice *entry,
           Slice       *key,
           Slice       *value,
           Damage      *damage)
{
  Field f;

  *key = (Slice) { (const guint8 *) "", 0, entry->base, FALSE };
  *value = (Slice) { (const guint8 *) "", 0, entry->base, FALSE };
  SL_PROTO_FOR_FIELDS (entry, pos, &f, damage)
    if (f.field == 1 || f.field == 2)
      {
        if (!sl_proto_expect_wire (&f, 2, damage))
          return FALSE;
        *(f.field == 1 ? key : value) = f.bytes;
      }
  return damage->reason == NULL;
}

/* TensorInfo: "x:0 float32[?,3]". */
static gboolean
append_tensor_info (GString     *out,
                    const Slice *info,
                    Damage      *damage)
{
  Slice name = { (const guint8 *) "", 0, 0, FALSE }, shape = { NULL, 0, 0, FALSE };
  guint64 dtype = 0;
  g_autofree char *text = NULL;
  Field f;

  SL_PROTO_FOR_FIELDS (info, pos, &f, damage)
    {
      if (f.field == TENSOR_INFO_DTYPE)
        {
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          dtype = f.value;
        }
      else if (f.field == TENSOR_INFO_NAME || f.field == TENSOR_INFO_SHAPE)
        {
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          *(f.field == TENSOR_INFO_NAME ? &name : &shape) = f.bytes;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  text = dup_text (&name);
  g_string_append_printf (out, "%s ", text[0] != '\0' ? text : "-");
  sl_graph_def_append_tensor_type (out, dtype, shape.data, shape.len);
  return TRUE;
}

/* SignatureDef: "method tensorflow/serving/predict; inputs: x = x:0
 * float32[?,3]; outputs: y = Identity:0 float32[?,1]". */
static gboolean
format_signature (GString     *out,
                  const Slice *signature,
                  Damage      *damage)
{
  g_autoptr(GString) inputs = g_string_new (NULL);
  g_autoptr(GString) outputs = g_string_new (NULL);
  g_autofree char *method = NULL;
  Field f;

  SL_PROTO_FOR_FIELDS (signature, pos, &f, damage)
    {
      GString *list;
      Slice key, value;
      g_autofree char *key_text = NULL;

      if (f.field != SIGNATURE_INPUTS && f.field != SIGNATURE_OUTPUTS && f.field != SIGNATURE_METHOD)
        continue;
      if (!sl_proto_expect_wire (&f, 2, damage))
        return FALSE;
      if (f.field == SIGNATURE_METHOD)
        {
          g_free (method);
          method = dup_text (&f.bytes);
          continue;
        }
      if (!map_entry (&f.bytes, &key, &value, damage))
        return FALSE;
      list = f.field == SIGNATURE_INPUTS ? inputs : outputs;
      if (list->len > 0)
        g_string_append (list, ", ");
      key_text = dup_text (&key);
      g_string_append_printf (list, "%s = ", key_text);
      if (!append_tensor_info (list, &value, damage))
        return FALSE;
    }
  if (damage->reason != NULL)
    return FALSE;
  if (method != NULL && method[0] != '\0')
    g_string_append_printf (out, "method %s; ", method);
  g_string_append_printf (out, "inputs: %s; outputs: %s", inputs->str, outputs->str);
  return TRUE;
}

static void
read_signature (Reading     *reading,
                const Slice *entry)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *key_text = NULL, *label = NULL;
  Damage damage = { 0 };
  Slice key, value;

  if (!map_entry (entry, &key, &value, &damage) || !format_signature (text, &value, &damage))
    {
      report (reading, &damage);
      return;
    }
  key_text = dup_text (&key);
  label = g_strconcat ("signature_def.", key_text, NULL);
  sl_graph_builder_add_metadata (reading->builder, label, text->str);
}

/* OpDef.ArgDef: its name and type. */
static gboolean
read_arg (const Slice *arg,
          Slice       *name,
          guint64     *type,
          Damage      *damage)
{
  Field f;

  *name = (Slice) { (const guint8 *) "", 0, arg->base, FALSE };
  *type = 0;
  SL_PROTO_FOR_FIELDS (arg, pos, &f, damage)
    if (f.field == ARG_NAME)
      {
        if (!sl_proto_expect_wire (&f, 2, damage))
          return FALSE;
        *name = f.bytes;
      }
    else if (f.field == ARG_TYPE)
      {
        if (!sl_proto_expect_wire (&f, 0, damage))
          return FALSE;
        *type = f.value;
      }
  return damage->reason == NULL;
}

/* An "_Arg" or "_Retval" op in the function's scope. */
static void
add_boundary_op (Reading     *reading,
                 const char  *function,
                 const char  *name,
                 const char  *op,
                 guint64      type,
                 const char  *input)
{
  g_autofree char *full = g_strdup_printf ("%s/%s", function, name);
  g_autoptr(GString) type_text = g_string_new (NULL);

  sl_graph_builder_begin_op (reading->builder, full, op, function, full, NULL, NULL);
  sl_graph_def_append_tensor_type (type_text, type, NULL, 0);
  sl_graph_builder_add_attribute (reading->builder, "T", type_text->str);
  if (input != NULL)
    sl_graph_builder_add_input (reading->builder, input, SL_GRAPH_EDGE_DATA);
}

/* A function's return value "node:out:0" as the node it names in the
 * function's scope. */
static char *
ret_source (const char  *function,
            const Slice *ret)
{
  const guint8 *colon = memchr (ret->data, ':', ret->len);
  gsize len = colon != NULL ? (gsize) (colon - ret->data) : ret->len;
  g_autoptr(GString) raw = g_string_new (function);

  g_string_append_c (raw, '/');
  g_string_append_len (raw, (const char *) ret->data, len);
  return g_utf8_make_valid (raw->str, raw->len);
}

/* FunctionDef: its arguments, body and return values in a scope named
 * by the function. */
static void
read_function (Reading     *reading,
               const Slice *function,
               GString     *names,
               guint        index)
{
  g_autoptr(GPtrArray) outputs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) output_types = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GPtrArray) rets = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *name = NULL, *prefix = NULL;
  Slice signature = { NULL, 0, 0, FALSE };
  Damage damage = { 0 };
  Field f;

  SL_PROTO_FOR_FIELDS (function, pos, &f, &damage)
    if (f.field == FUNCTION_SIGNATURE && f.wire_type == 2)
      signature = f.bytes;
  /* Damage after the signature is the body's, reported as it is read. */
  if (signature.data == NULL)
    {
      if (damage.reason == NULL)
        damage = (Damage) { function->base, N_("a function has no signature") };
      report (reading, &damage);
      return;
    }

  /* The name first: the arguments go in its scope. */
  SL_PROTO_FOR_FIELDS (&signature, pos, &f, &damage)
    if (f.field == OP_NAME && f.wire_type == 2)
      {
        g_free (name);
        name = dup_text (&f.bytes);
      }
  if (damage.reason != NULL)
    {
      report (reading, &damage);
      return;
    }
  if (name == NULL || name[0] == '\0')
    {
      g_free (name);
      name = g_strdup_printf ("function@%" G_GSIZE_FORMAT, function->base);
    }
  prefix = g_strconcat (name, "/", NULL);
  if (index < MAX_SHOWN_FUNCTIONS)
    g_string_append_printf (names, "%s%s", index > 0 ? ", " : "", name);
  else if (index == MAX_SHOWN_FUNCTIONS)
    g_string_append (names, ", …");

  SL_PROTO_FOR_FIELDS (&signature, pos, &f, &damage)
    {
      Slice arg_name;
      guint64 type;
      g_autofree char *arg_text = NULL;

      if (f.field != OP_INPUT_ARG && f.field != OP_OUTPUT_ARG)
        continue;
      if (!sl_proto_expect_wire (&f, 2, &damage) || !read_arg (&f.bytes, &arg_name, &type, &damage))
        break;
      arg_text = dup_text (&arg_name);
      if (f.field == OP_INPUT_ARG)
        add_boundary_op (reading, name, arg_text, "_Arg", type, NULL);
      else
        {
          g_ptr_array_add (outputs, g_steal_pointer (&arg_text));
          g_array_append_val (output_types, type);
        }
    }
  if (damage.reason != NULL)
    report (reading, &damage);

  reading->n_damaged += sl_graph_def_add_nodes (reading->builder, function->data, function->len, function->base,
                                                FUNCTION_NODE_DEF, prefix, TRUE, reading->path);

  /* ret: output argument → "node:out:k" */
  g_ptr_array_set_size (rets, outputs->len);
  SL_PROTO_FOR_FIELDS (function, pos, &f, &damage)
    {
      Slice key, value;
      g_autofree char *key_text = NULL;

      if (f.field != FUNCTION_RET)
        continue;
      if (!sl_proto_expect_wire (&f, 2, &damage) || !map_entry (&f.bytes, &key, &value, &damage))
        {
          report (reading, &damage);
          damage.reason = NULL;
          continue;
        }
      key_text = dup_text (&key);
      for (guint i = 0; i < outputs->len; i++)
        if (strcmp (g_ptr_array_index (outputs, i), key_text) == 0 && g_ptr_array_index (rets, i) == NULL)
          g_ptr_array_index (rets, i) = ret_source (name, &value);
    }
  for (guint i = 0; i < outputs->len; i++)
    {
      g_autofree char *retval = g_strconcat (g_ptr_array_index (outputs, i), "_retval", NULL);

      add_boundary_op (reading, name, retval, "_Retval", g_array_index (output_types, guint64, i),
                       g_ptr_array_index (rets, i));
    }
}

/* GraphDef: its nodes, then the functions of its library. */
static void
read_graph_def (Reading     *reading,
                const Slice *graph,
                GString     *functions)
{
  Damage damage = { 0 };
  guint n_functions = 0;
  Field f;

  reading->n_damaged += sl_graph_def_add_nodes (reading->builder, graph->data, graph->len, graph->base, 1, "",
                                                FALSE, reading->path);
  SL_PROTO_FOR_FIELDS (graph, pos, &f, &damage)
    {
      Field g;
      Damage inner = { 0 };

      if (f.field != GRAPH_LIBRARY)
        continue;
      if (!sl_proto_expect_wire (&f, 2, &damage))
        break;
      SL_PROTO_FOR_FIELDS (&f.bytes, lpos, &g, &inner)
        {
          if (g.field != LIBRARY_FUNCTION)
            continue;
          if (!sl_proto_expect_wire (&g, 2, &inner))
            break;
          read_function (reading, &g.bytes, functions, n_functions++);
        }
      if (inner.reason != NULL)
        report (reading, &inner);
    }
  /* Where the GraphDef's own framing breaks, its node reading said so. */
}

/* MetaInfoDef: the tags and the TensorFlow version. */
static void
read_meta_info (Reading     *reading,
                const Slice *info,
                GString     *tags)
{
  Damage damage = { 0 };
  Field f;

  SL_PROTO_FOR_FIELDS (info, pos, &f, &damage)
    {
      g_autofree char *text = NULL;

      if (f.field != INFO_TAGS && f.field != INFO_TENSORFLOW_VERSION)
        continue;
      if (!sl_proto_expect_wire (&f, 2, &damage))
        break;
      text = dup_text (&f.bytes);
      if (f.field == INFO_TENSORFLOW_VERSION)
        sl_graph_builder_add_metadata (reading->builder, "tensorflow_version", text);
      else
        {
          if (tags->len > 0)
            g_string_append_c (tags, ',');
          g_string_append (tags, text);
        }
    }
  if (damage.reason != NULL)
    report (reading, &damage);
}

/* One MetaGraphDef as one graph. */
static SlGraph *
read_meta_graph (const Slice  *meta,
                 guint         index,
                 guint64       schema_version,
                 const char   *path,
                 const Damage *after)
{
  Reading reading = { sl_graph_builder_new (), path, 0 };
  g_autoptr(GString) tags = g_string_new (NULL);
  g_autofree char *version = g_strdup_printf ("%" G_GUINT64_FORMAT, schema_version);
  g_autoptr(GString) functions = g_string_new (NULL);
  Damage damage = { 0 };
  SlGraph *graph;
  Field f;

  sl_graph_builder_set_path (reading.builder, path);
  sl_graph_builder_add_metadata (reading.builder, "format", "TensorFlow SavedModel");
  sl_graph_builder_add_metadata (reading.builder, "saved_model_schema_version", version);
  if (meta->cut)
    report_cut (&reading, meta->base + meta->len);
  if (after != NULL && after->reason != NULL)
    report (&reading, after);
  SL_PROTO_FOR_FIELDS (meta, pos, &f, &damage)
    {
      if (f.field != META_INFO_DEF && f.field != META_GRAPH_DEF && f.field != META_SIGNATURE_DEF)
        continue;
      if (!sl_proto_expect_wire (&f, 2, &damage))
        break;
      if (f.field == META_INFO_DEF)
        read_meta_info (&reading, &f.bytes, tags);
      else if (f.field == META_GRAPH_DEF)
        read_graph_def (&reading, &f.bytes, functions);
      else
        read_signature (&reading, &f.bytes);
    }
  if (damage.reason != NULL)
    report (&reading, &damage);

  if (tags->len > 0)
    sl_graph_builder_add_metadata (reading.builder, "tags", tags->str);
  if (functions->len > 0)
    sl_graph_builder_add_metadata (reading.builder, "functions", functions->str);
  if (tags->len == 0)
    g_string_printf (tags, _("meta-graph %u"), index + 1);
  sl_graph_builder_set_name (reading.builder, tags->str, tags->str);
  graph = sl_graph_builder_finish (reading.builder);
  sl_graph_builder_free (reading.builder);
  return graph;
}

/**
 * sl_saved_model_decode_graphs:
 * @path: the file the bytes came from, for problems
 *
 * Decodes a SavedModel (see the file comment for the mapping).
 *
 * Returns: (transfer container) (element-type SlGraph) (nullable): one
 *   graph per meta-graph, with problems for any damage; %NULL with @error
 *   when the file holds no node at all
 */
GPtrArray *
sl_saved_model_decode_graphs (const guint8  *data,
                              gsize          size,
                              const char    *path,
                              GError       **error)
{
  g_autoptr(GPtrArray) graphs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) metas = g_array_new (FALSE, FALSE, sizeof (Slice));
  Slice model = { data != NULL ? data : (const guint8 *) "", data != NULL ? size : 0, 0, TRUE };
  guint64 schema_version = 0;
  guint n_elements = 0;
  Damage damage = { 0 };
  Field f;
  gsize pos = 0;

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (path == NULL)
    path = "";
  /* The meta-graphs while the framing holds; damage goes to the last. */
  while (sl_proto_next_field (&model, &pos, &f, &damage))
    {
      if (f.field == SAVED_MODEL_SCHEMA_VERSION && f.wire_type == 0)
        schema_version = f.value;
      else if (f.field == SAVED_MODEL_META_GRAPHS && f.wire_type == 2)
        g_array_append_val (metas, f.bytes);
      else if (f.field <= SAVED_MODEL_META_GRAPHS)
        {
          damage = (Damage) { f.at, sl_proto_reason_wire_type };
          break;
        }
    }
  if (metas->len == 0)
    {
      if (damage.reason != NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("“%s” holds no TensorFlow SavedModel that can be read: it is damaged at byte %llu: %s."),
                     path, (unsigned long long) damage.offset, _(damage.reason));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("“%s” holds no meta-graph: it is not a TensorFlow SavedModel that can be read."), path);
      return NULL;
    }
  for (guint i = 0; i < metas->len; i++)
    {
      SlGraph *graph = read_meta_graph (&g_array_index (metas, Slice, i), i, schema_version, path,
                                        i + 1 == metas->len ? &damage : NULL);

      n_elements += sl_graph_get_n_elements (graph);
      g_ptr_array_add (graphs, graph);
    }
  if (n_elements == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” holds meta-graphs without a single node: there is no graph to show."), path);
      return NULL;
    }
  return g_steal_pointer (&graphs);
}

/**
 * sl_saved_model_sniff:
 *
 * Whether @data starts like a SavedModel: saved_model_schema_version
 * (field 1, a varint), then a meta-graph (field 2, length-delimited)
 * whose first field is its meta_info_def or graph_def (field 1 or 2,
 * length-delimited). An ONNX ModelProto (producer_name) and a MindSpore
 * ModelProto (domain), which also start with a varint field 1, have a
 * string in field 2, which does not start with those bytes.
 */
gboolean
sl_saved_model_sniff (const guint8 *data,
                      gsize         size)
{
  Slice model = { data, size, 0, TRUE };
  Field f;
  gsize pos = 0, inner = 0;
  guint64 tag;

  if (data == NULL)
    return FALSE;
  if (!sl_proto_next_field (&model, &pos, &f, NULL) || f.field != 1 || f.wire_type != 0)
    return FALSE;
  if (!sl_proto_next_field (&model, &pos, &f, NULL) || f.field != 2 || f.wire_type != 2)
    return FALSE;
  /* An empty meta-graph says nothing: a MindSpore ModelProto with an
   * empty domain (field 2) looks the same. */
  if (!sl_proto_read_varint (f.bytes.data, f.bytes.len, &inner, &tag))
    return FALSE;
  return tag == ((META_INFO_DEF << 3) | 2) || tag == ((META_GRAPH_DEF << 3) | 2);
}
