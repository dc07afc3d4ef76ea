/* sl-graph.c: one MindSpore computational graph and its scope hierarchy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-graph-private.h"

G_DEFINE_FINAL_TYPE (SlGraph, sl_graph, G_TYPE_OBJECT)

static void
sl_graph_finalize (GObject *object)
{
  SlGraph *self = SL_GRAPH (object);

  g_clear_pointer (&self->strings, sl_intern_table_free);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_free (self->metadata);
  g_free (self->kind);
  g_free (self->proto_name);
  g_free (self->name_dir);
  g_free (self->name_tail);
  g_free (self->op_type);
  g_free (self->scope);
  g_free (self->instance_name);
  g_free (self->source_address);
  g_free (self->attr_offsets);
  g_free (self->attr_name);
  g_free (self->attr_value);
  g_free (self->input_offsets);
  g_free (self->input_source);
  g_free (self->input_name);
  g_free (self->input_kind);
  g_free (self->consumer_offsets);
  g_free (self->consumers);
  g_free (self->output_offsets);
  g_free (self->output_dtype);
  g_free (self->dims_offsets);
  g_free (self->dims);
  g_free (self->element_item);
  g_free (self->lookup_key);
  g_free (self->lookup_op);
  g_free (self->item_kind);
  g_free (self->item_parent);
  g_free (self->item_depth);
  g_free (self->item_label);
  g_free (self->item_ref);
  g_free (self->child_offsets);
  g_free (self->children);
  g_free (self->edge_offsets);
  g_free (self->edge_from);
  g_free (self->edge_to);
  g_free (self->edge_count);
  g_free (self->edge_kind);

  G_OBJECT_CLASS (sl_graph_parent_class)->finalize (object);
}

static void
sl_graph_class_init (SlGraphClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_graph_finalize;
}

static void
sl_graph_init (SlGraph *self)
{
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
}

static const char *
str (SlGraph *self,
     guint32  id)
{
  return sl_intern_table_get (self->strings, id);
}

const char *
sl_graph_get_name (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), "");
  return str (self, self->name);
}

const char *
sl_graph_get_root_name (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), "");
  return str (self, self->root_name);
}

GPtrArray *
sl_graph_get_problems (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), NULL);
  return self->problems;
}

/* What a file says about the graph as a whole (ONNX: producer, opset
 * imports), in file order. */
guint
sl_graph_get_n_metadata (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_metadata;
}

/* Returns the key; @value gets the value. */
const char *
sl_graph_get_metadata (SlGraph     *self,
                       guint        index,
                       const char **value)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), "");
  g_return_val_if_fail (index < self->n_metadata, "");

  if (value != NULL)
    *value = str (self, self->metadata[2 * index + 1]);
  return str (self, self->metadata[2 * index]);
}

/**
 * sl_graph_metadata_key_to_label:
 *
 * What to call a metadata key where people read it: the keys readers
 * store are stable ("producer_name"), the labels translated ("Producer");
 * a model's own "metadata_props.KEY" is shown as KEY.
 *
 * Returns: the label, or @key itself when there is none
 */
const char *
sl_graph_metadata_key_to_label (const char *key)
{
  static const struct { const char *key; const char *label; } labels[] = {
    { "format", N_("Format") },
    { "ir_version", N_("IR version") },
    { "producer_name", N_("Producer") },
    { "producer_version", N_("Producer version") },
    { "domain", N_("Domain") },
    { "model_version", N_("Model version") },
    { "doc_string", N_("Description") },
    { "opset_import", N_("Opset imports") },
    { "functions", N_("Functions") },
    { "tags", N_("Tags") },
    { "tensorflow_version", N_("TensorFlow version") },
    { "saved_model_schema_version", N_("SavedModel schema version") },
    { "mind_ir_version", N_("MindIR version") },
    { "little_endian", N_("Little-endian") },
    /* GE IR (AIR) ModelDef and the OM header */
    { "name", N_("Name") },
    { "version", N_("Version") },
    { "custom_version", N_("Custom version") },
    { "graphs", N_("Graphs") },
    { "model_name", N_("Model name") },
    { "header_version", N_("OM header version") },
    { "platform_version", N_("Platform version") },
    { "platform_type", N_("Platform type") },
    { "op_count", N_("Ops (OM header)") },
    { "model_count", N_("Models") },
    { "model_type", N_("Model type") },
    { "mode", N_("Mode") },
    { "checksum", N_("Checksum") },
    { "partitions", N_("Partitions") },
    { "partition.model_def", N_("Partition: model definition") },
    { "partition.weights", N_("Partition: weights") },
    { "partition.task_info", N_("Partition: task info") },
    { "partition.tbe_kernels", N_("Partition: TBE kernels") },
    { "partition.cust_aicpu_kernels", N_("Partition: custom AI CPU kernels") },
    { "partition.device_config", N_("Partition: device config") },
  };

  g_return_val_if_fail (key != NULL, "");

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (strcmp (key, labels[i].key) == 0)
      return _(labels[i].label);
  if (g_str_has_prefix (key, "metadata_props."))
    return key + strlen ("metadata_props.");
  return key;
}

/* Bytes of the columns and strings, without allocator overhead. */
gsize
sl_graph_get_memory_size (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->memory_size;
}

guint
sl_graph_get_n_elements (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_elements;
}

guint
sl_graph_get_n_ops (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_ops;
}

guint
sl_graph_get_n_parameters (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_parameters;
}

guint
sl_graph_get_n_consts (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_consts;
}

guint
sl_graph_get_n_graph_inputs (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_graph_inputs;
}

guint
sl_graph_get_n_graph_outputs (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_graph_outputs;
}

/* Inputs that name an element, by kind; inputs naming none are dangling. */
guint
sl_graph_get_n_data_edges (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_data_edges;
}

guint
sl_graph_get_n_control_edges (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_control_edges;
}

guint
sl_graph_get_n_dangling_inputs (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_dangling;
}

/* Scope items below the root. */
guint
sl_graph_get_n_scopes (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_scopes;
}

#define CHECK_ELEMENT(self, e, val) \
  g_return_val_if_fail (SL_IS_GRAPH (self), val); \
  g_return_val_if_fail ((e) < (self)->n_elements, val)

SlGraphElementKind
sl_graph_element_get_kind (SlGraph *self,
                           guint    element)
{
  CHECK_ELEMENT (self, element, SL_GRAPH_ELEMENT_OP);
  return self->kind[element];
}

const char *
sl_graph_element_get_proto_name (SlGraph *self,
                                 guint    element)
{
  CHECK_ELEMENT (self, element, "");
  return str (self, self->proto_name[element]);
}

/**
 * sl_graph_element_dup_name:
 *
 * The name MindInsight shows: an op's full name or scope/OpType-op<name>,
 * a parameter's or constant's own name.
 *
 * Returns: (transfer full): the name
 */
char *
sl_graph_element_dup_name (SlGraph *self,
                           guint    element)
{
  CHECK_ELEMENT (self, element, g_strdup (""));
  if (self->name_dir[element] == 0)
    return g_strdup (str (self, self->name_tail[element]));
  return g_strconcat (str (self, self->name_dir[element]), "/", str (self, self->name_tail[element]), NULL);
}

const char *
sl_graph_element_get_op_type (SlGraph *self,
                              guint    element)
{
  CHECK_ELEMENT (self, element, "");
  return str (self, self->op_type[element]);
}

/**
 * sl_graph_element_dup_scope:
 *
 * An op's scope string; for any other element, the scope it sits in
 * (the scope segments above its item, without groups or sections).
 *
 * Returns: (transfer full): the scope, "" for the root
 */
char *
sl_graph_element_dup_scope (SlGraph *self,
                            guint    element)
{
  g_autoptr(GPtrArray) labels = NULL;
  GString *scope;

  CHECK_ELEMENT (self, element, g_strdup (""));
  if (self->kind[element] == SL_GRAPH_ELEMENT_OP)
    return g_strdup (str (self, self->scope[element]));

  labels = g_ptr_array_new ();
  for (guint32 up = self->item_parent[self->element_item[element]]; up != 0; up = self->item_parent[up])
    if (self->item_kind[up] == SL_GRAPH_ITEM_SCOPE)
      g_ptr_array_add (labels, (gpointer) str (self, self->item_label[up]));
  scope = g_string_new (NULL);
  for (guint i = labels->len; i-- > 0;)
    {
      g_string_append (scope, g_ptr_array_index (labels, i));
      if (i > 0)
        g_string_append_c (scope, '/');
    }
  return g_string_free (scope, FALSE);
}

const char *
sl_graph_element_get_instance_name (SlGraph *self,
                                    guint    element)
{
  CHECK_ELEMENT (self, element, "");
  return str (self, self->instance_name[element]);
}

/* The debugger variant's source stack (NodeProto field 9), or "". */
const char *
sl_graph_element_get_source_address (SlGraph *self,
                                     guint    element)
{
  CHECK_ELEMENT (self, element, "");
  return str (self, self->source_address[element]);
}

guint
sl_graph_element_get_n_attributes (SlGraph *self,
                                   guint    element)
{
  CHECK_ELEMENT (self, element, 0);
  return self->attr_offsets[element + 1] - self->attr_offsets[element];
}

/* Returns the attribute's name; @value gets its decoded value as text. */
const char *
sl_graph_element_get_attribute (SlGraph     *self,
                                guint        element,
                                guint        index,
                                const char **value)
{
  guint32 k;

  CHECK_ELEMENT (self, element, "");
  g_return_val_if_fail (index < sl_graph_element_get_n_attributes (self, element), "");

  k = self->attr_offsets[element] + index;
  if (value != NULL)
    *value = str (self, self->attr_value[k]);
  return str (self, self->attr_name[k]);
}

guint
sl_graph_element_get_n_inputs (SlGraph *self,
                               guint    element)
{
  CHECK_ELEMENT (self, element, 0);
  return self->input_offsets[element + 1] - self->input_offsets[element];
}

/* Returns the source element, or SL_GRAPH_NONE when the name names none. */
guint
sl_graph_element_get_input (SlGraph          *self,
                            guint             element,
                            guint             index,
                            SlGraphEdgeKind  *kind,
                            const char      **name)
{
  guint32 k;

  CHECK_ELEMENT (self, element, SL_GRAPH_NONE);
  g_return_val_if_fail (index < sl_graph_element_get_n_inputs (self, element), SL_GRAPH_NONE);

  k = self->input_offsets[element] + index;
  if (kind != NULL)
    *kind = self->input_kind[k];
  if (name != NULL)
    *name = str (self, self->input_name[k]);
  return self->input_source[k];
}

guint
sl_graph_element_get_n_consumers (SlGraph *self,
                                  guint    element)
{
  CHECK_ELEMENT (self, element, 0);
  return self->consumer_offsets[element + 1] - self->consumer_offsets[element];
}

guint
sl_graph_element_get_consumer (SlGraph *self,
                               guint    element,
                               guint    index)
{
  CHECK_ELEMENT (self, element, SL_GRAPH_NONE);
  g_return_val_if_fail (index < sl_graph_element_get_n_consumers (self, element), SL_GRAPH_NONE);
  return self->consumers[self->consumer_offsets[element] + index];
}

guint
sl_graph_element_get_n_outputs (SlGraph *self,
                                guint    element)
{
  CHECK_ELEMENT (self, element, 0);
  return self->output_offsets[element + 1] - self->output_offsets[element];
}

/* Returns the output's DataType; @dims gets its shape (-1: unknown). */
int
sl_graph_element_get_output (SlGraph       *self,
                             guint          element,
                             guint          index,
                             const gint64 **dims,
                             guint         *n_dims)
{
  guint32 k;

  CHECK_ELEMENT (self, element, 0);
  g_return_val_if_fail (index < sl_graph_element_get_n_outputs (self, element), 0);

  k = self->output_offsets[element] + index;
  if (dims != NULL)
    *dims = self->dims + self->dims_offsets[k];
  if (n_dims != NULL)
    *n_dims = self->dims_offsets[k + 1] - self->dims_offsets[k];
  return self->output_dtype[k];
}

/* The element's item; a constant has one per consumer, this is the first. */
guint
sl_graph_element_get_item (SlGraph *self,
                           guint    element)
{
  CHECK_ELEMENT (self, element, SL_GRAPH_NONE);
  return self->element_item[element];
}

static guint
lookup_pair (SlGraph *self,
             guint32  dir,
             guint32  tail)
{
  guint64 key = ((guint64) tail << 32) | dir;
  guint lo = 0, hi = self->n_ops;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->lookup_key[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->n_ops && self->lookup_key[lo] == key ? self->lookup_op[lo] : SL_GRAPH_NONE;
}

/**
 * sl_graph_lookup_op:
 * @op_name: an op name as profiles write it: the full scope, then
 *   "/OpType-op<N>"
 *
 * Finds the op with that display name, for links from op statistics and
 * timelines.
 *
 * Returns: the op's element, or %SL_GRAPH_NONE
 */
guint
sl_graph_lookup_op (SlGraph    *self,
                    const char *op_name)
{
  const char *slash;
  guint32 dir = 0, tail;

  g_return_val_if_fail (SL_IS_GRAPH (self), SL_GRAPH_NONE);
  g_return_val_if_fail (op_name != NULL, SL_GRAPH_NONE);

  slash = strrchr (op_name, '/');
  if (slash != NULL)
    {
      dir = sl_intern_table_lookup (self->strings, op_name, slash - op_name);
      op_name = slash + 1;
    }
  tail = sl_intern_table_lookup (self->strings, op_name, strlen (op_name));
  if (dir == G_MAXUINT32 || tail == G_MAXUINT32)
    return SL_GRAPH_NONE;
  return lookup_pair (self, dir, tail);
}

guint
sl_graph_get_n_items (SlGraph *self)
{
  g_return_val_if_fail (SL_IS_GRAPH (self), 0);
  return self->n_items;
}

#define CHECK_ITEM(self, item, val) \
  g_return_val_if_fail (SL_IS_GRAPH (self), val); \
  g_return_val_if_fail ((item) < (self)->n_items, val)

SlGraphItemKind
sl_graph_item_get_kind (SlGraph *self,
                        guint    item)
{
  CHECK_ITEM (self, item, SL_GRAPH_ITEM_SCOPE);
  return self->item_kind[item];
}

/* The root's parent is the root. */
guint
sl_graph_item_get_parent (SlGraph *self,
                          guint    item)
{
  CHECK_ITEM (self, item, 0);
  return self->item_parent[item];
}

guint
sl_graph_item_get_depth (SlGraph *self,
                         guint    item)
{
  CHECK_ITEM (self, item, 0);
  return self->item_depth[item];
}

/* A scope's last segment, an op's "OpType-op<N>", a group's
 * "OpType[count]", a section's "#n", an element's name. */
const char *
sl_graph_item_get_label (SlGraph *self,
                         guint    item)
{
  CHECK_ITEM (self, item, "");
  return str (self, self->item_label[item]);
}

/**
 * sl_graph_item_dup_path:
 *
 * The labels from below the root down to @item, joined by '/': for a
 * scope its scope string (when no section or group lies above it).
 *
 * Returns: (transfer full): the path, "" for the root
 */
char *
sl_graph_item_dup_path (SlGraph *self,
                        guint    item)
{
  g_autoptr(GPtrArray) labels = NULL;
  GString *path;

  CHECK_ITEM (self, item, g_strdup (""));

  labels = g_ptr_array_new ();
  path = g_string_new (NULL);

  for (guint32 up = item; up != 0; up = self->item_parent[up])
    g_ptr_array_add (labels, (gpointer) str (self, self->item_label[up]));
  for (guint i = labels->len; i-- > 0;)
    {
      g_string_append (path, g_ptr_array_index (labels, i));
      if (i > 0)
        g_string_append_c (path, '/');
    }
  return g_string_free (path, FALSE);
}

const char *
sl_graph_item_get_op_type (SlGraph *self,
                           guint    item)
{
  CHECK_ITEM (self, item, "");

  switch ((SlGraphItemKind) self->item_kind[item])
    {
    case SL_GRAPH_ITEM_GROUP:
      return str (self, self->item_ref[item]);
    case SL_GRAPH_ITEM_OP:
    case SL_GRAPH_ITEM_PARAMETER:
    case SL_GRAPH_ITEM_CONST:
    case SL_GRAPH_ITEM_PROXY:
      return str (self, self->op_type[self->item_ref[item]]);
    case SL_GRAPH_ITEM_SCOPE:
    case SL_GRAPH_ITEM_SECTION:
    default:
      return "";
    }
}

/* The element an op, parameter, constant or proxy item shows. */
guint
sl_graph_item_get_element (SlGraph *self,
                           guint    item)
{
  CHECK_ITEM (self, item, SL_GRAPH_NONE);

  switch ((SlGraphItemKind) self->item_kind[item])
    {
    case SL_GRAPH_ITEM_OP:
    case SL_GRAPH_ITEM_PARAMETER:
    case SL_GRAPH_ITEM_CONST:
    case SL_GRAPH_ITEM_PROXY:
      return self->item_ref[item];
    case SL_GRAPH_ITEM_SCOPE:
    case SL_GRAPH_ITEM_GROUP:
    case SL_GRAPH_ITEM_SECTION:
    default:
      return SL_GRAPH_NONE;
    }
}

guint
sl_graph_item_get_n_children (SlGraph *self,
                              guint    item)
{
  CHECK_ITEM (self, item, 0);
  return self->child_offsets[item + 1] - self->child_offsets[item];
}

guint
sl_graph_item_get_child (SlGraph *self,
                         guint    item,
                         guint    index)
{
  CHECK_ITEM (self, item, SL_GRAPH_NONE);
  g_return_val_if_fail (index < sl_graph_item_get_n_children (self, item), SL_GRAPH_NONE);
  return self->children[self->child_offsets[item] + index];
}

/* Lifted edges among the children of @item (a self-loop has from == to). */
guint
sl_graph_item_get_n_edges (SlGraph *self,
                           guint    item)
{
  CHECK_ITEM (self, item, 0);
  return self->edge_offsets[item + 1] - self->edge_offsets[item];
}

void
sl_graph_item_get_edge (SlGraph         *self,
                        guint            item,
                        guint            index,
                        guint           *from,
                        guint           *to,
                        SlGraphEdgeKind *kind,
                        guint           *count)
{
  guint32 k;

  g_return_if_fail (SL_IS_GRAPH (self));
  g_return_if_fail (item < self->n_items);
  g_return_if_fail (index < sl_graph_item_get_n_edges (self, item));

  k = self->edge_offsets[item] + index;
  if (from != NULL)
    *from = self->edge_from[k];
  if (to != NULL)
    *to = self->edge_to[k];
  if (kind != NULL)
    *kind = self->edge_kind[k];
  if (count != NULL)
    *count = self->edge_count[k];
}

/**
 * sl_graph_find_item:
 * @path: labels joined by '/', as sl_graph_item_dup_path() gives them;
 *   "" or "/" for the root
 *
 * Returns: the item, or %SL_GRAPH_NONE
 */
guint
sl_graph_find_item (SlGraph    *self,
                    const char *path)
{
  guint32 item = 0;

  g_return_val_if_fail (SL_IS_GRAPH (self), SL_GRAPH_NONE);
  g_return_val_if_fail (path != NULL, SL_GRAPH_NONE);

  if (path[0] == '/')
    path++;
  while (path[0] != '\0')
    {
      const char *slash = strchr (path, '/');
      gsize len = slash != NULL ? (gsize) (slash - path) : strlen (path);
      guint32 found = SL_GRAPH_NONE;

      for (guint32 k = self->child_offsets[item]; k < self->child_offsets[item + 1]; k++)
        {
          const char *label = str (self, self->item_label[self->children[k]]);

          if (strlen (label) == len && memcmp (label, path, len) == 0)
            {
              found = self->children[k];
              break;
            }
        }
      if (found == SL_GRAPH_NONE)
        return SL_GRAPH_NONE;
      item = found;
      path += len;
      if (path[0] == '/')
        path++;
    }
  return item;
}

const char *
sl_graph_item_kind_to_string (SlGraphItemKind kind)
{
  switch (kind)
    {
    case SL_GRAPH_ITEM_SCOPE: return "scope";
    case SL_GRAPH_ITEM_OP: return "op";
    case SL_GRAPH_ITEM_PARAMETER: return "parameter";
    case SL_GRAPH_ITEM_CONST: return "const";
    case SL_GRAPH_ITEM_GROUP: return "group";
    case SL_GRAPH_ITEM_PROXY: return "proxy";
    case SL_GRAPH_ITEM_SECTION: return "section";
    default: return "unknown";
    }
}

static const char * const extra_dtype_names[] = {
  "bfloat16", "complex64", "complex128", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
  "uint4", "int4", "float4e2m1",
};

static const char * const dtype_names[] = {
  "undefined", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
  "float16", "float32", "float64", "string", "tensor", "graph", "bools", "ints8", "ints16", "ints32",
  "ints64", "uints8", "uints16", "uints32", "uints64", "floats16", "floats32", "floats64", "strings",
  "tensors", "graphs", "tuple", "list", "dict", "none", "sym_inst", "base_int", "base_uint",
  "base_float", "type", "anything", "refkey", "ref",
};

/* MindSpore's DataType enum as short names ("float32"), and the types
 * past it (SL_GRAPH_DTYPE_BFLOAT16 ...); "undefined" for other values. */
const char *
sl_graph_dtype_to_string (int dtype)
{
  if (dtype >= SL_GRAPH_DTYPE_BFLOAT16 && dtype < SL_GRAPH_DTYPE_BFLOAT16 + (int) G_N_ELEMENTS (extra_dtype_names))
    return extra_dtype_names[dtype - SL_GRAPH_DTYPE_BFLOAT16];
  if (dtype < 0 || dtype >= (int) G_N_ELEMENTS (dtype_names))
    return "undefined";
  return dtype_names[dtype];
}
