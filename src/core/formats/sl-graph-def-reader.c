/* sl-graph-def-reader.c: TensorFlow GraphDef graphs into the graph model
 *
 * The mapping:
 * - Each NodeDef becomes an op named by its node name (which inputs name),
 *   shown under that name, in the scope up to its last '/'. A node whose
 *   name is also the scope of other nodes ("dense/kernel" next to
 *   "dense/kernel/read") goes inside that scope as "(kernel)", as
 *   TensorBoard does, so that an op and a scope never share a label.
 * - Inputs: "node:1" names node (the output index is dropped), "^node" is
 *   a control edge.
 * - Const nodes without inputs that something consumes become constants,
 *   drawn inside their consumers; a Const with control inputs or without
 *   consumers stays an op in its scope.
 * - Placeholder, VariableV2 and VarHandleOp stay ops: as parameters they
 *   would sit in the lowest common scope of their consumers, which for a
 *   graph with a Saver is the root (save/SaveV2 reads every variable), and
 *   they would lose their op type.
 * - Attributes become text ("T: float32", "strides: [1, 2, 2, 1]",
 *   "padding: \"SAME\"", "value: tensor float32[3,3]"); a non-empty device
 *   comes first as "device". "_output_shapes" gives the outputs (with the
 *   dtype of "T" or "dtype") instead of an attribute; without it, a
 *   constant's tensor or a "shape" attribute gives the one output.
 *
 * Hostile bytes: every field is bounds-checked as it is read. A node whose
 * own bytes are malformed is skipped with a problem; where the GraphDef's
 * framing breaks, reading stops, keeping the nodes before. Problems give
 * the byte offset and the reason. Nothing recurses on the input's nesting
 * beyond MAX_DEPTH.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sl-graph-builder.h"
#include "sl-graph-def-reader.h"

/* Lists and tensors are shown up to this many values; strings up to this
 * many bytes. */
#define MAX_SHOWN_VALUES 64
#define MAX_SHOWN_TENSOR_VALUES 8
#define MAX_SHOWN_BYTES 256
/* A func attribute's NameAttrList nests AttrValues: they are not followed. */
#define MAX_DEPTH 8
/* The sniff looks at this many top-level fields and nodes. */
#define SNIFF_FIELDS 16
#define SNIFF_NODES 4

static const char * const reason_tag = N_("a field tag is cut off or malformed");
static const char * const reason_length = N_("a field runs past the end of its message");
static const char * const reason_wire_type = N_("a field has the wrong wire type");
static const char * const reason_packed = N_("a packed list is malformed");

typedef struct {
  const guint8 *data;
  gsize         len;
  gsize         base;   /* offset of data[0] in the whole input */
} Slice;

typedef struct {
  guint        field;
  guint        wire_type;
  guint64      value;   /* varint, fixed32 or fixed64 */
  Slice        bytes;   /* wire type 2 */
  gsize        at;      /* offset of the tag in the whole input */
} Field;

typedef struct {
  gsize       offset;
  const char *reason;
} Damage;

static gboolean
read_varint (const guint8 *buf,
             gsize         len,
             gsize        *pos,
             guint64      *value)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 70 && *pos < len; shift += 7)
    {
      guint8 byte = buf[(*pos)++];

      v |= (guint64) (byte & 0x7f) << MIN (shift, 63);
      if ((byte & 0x80) == 0)
        {
          *value = v;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
damaged (Damage     *damage,
         gsize       offset,
         const char *reason)
{
  if (damage != NULL)
    {
      damage->offset = offset;
      damage->reason = reason;
    }
  return FALSE;
}

/* The next field of @msg from *@pos. FALSE at the end (damage->reason
 * NULL) or on malformed bytes (damage set). */
static gboolean
next_field (const Slice *msg,
            gsize       *pos,
            Field       *out,
            Damage      *damage)
{
  guint64 tag, length;
  gsize start = *pos;

  if (damage != NULL)
    damage->reason = NULL;
  if (*pos >= msg->len)
    return FALSE;
  out->at = msg->base + start;
  if (!read_varint (msg->data, msg->len, pos, &tag) || (tag >> 3) == 0 || (tag >> 3) > G_MAXINT32)
    return damaged (damage, msg->base + start, reason_tag);
  out->field = tag >> 3;
  out->wire_type = tag & 7;
  out->value = 0;
  out->bytes.data = msg->data + *pos;
  out->bytes.len = 0;
  out->bytes.base = msg->base + *pos;
  switch (out->wire_type)
    {
    case 0:
      if (!read_varint (msg->data, msg->len, pos, &out->value))
        return damaged (damage, msg->base + start, reason_length);
      return TRUE;
    case 1:
    case 5:
      {
        gsize width = out->wire_type == 1 ? 8 : 4;

        if (msg->len - *pos < width)
          return damaged (damage, msg->base + start, reason_length);
        memcpy (&out->value, msg->data + *pos, width);
        out->value = GUINT64_FROM_LE (out->value);
        *pos += width;
        return TRUE;
      }
    case 2:
      if (!read_varint (msg->data, msg->len, pos, &length) || length > msg->len - *pos)
        return damaged (damage, msg->base + start, reason_length);
      out->bytes.data = msg->data + *pos;
      out->bytes.len = length;
      out->bytes.base = msg->base + *pos;
      *pos += length;
      return TRUE;
    default:
      return damaged (damage, msg->base + start, reason_wire_type);
    }
}

/* Every field of @msg, checked for framing only. */
#define FOR_FIELDS(msg, pos, f, damage) \
  for (gsize pos = 0; next_field ((msg), &pos, (f), (damage));)

/* Wire type @want, else damage. */
static gboolean
expect_wire (const Field *f,
             guint        want,
             Damage      *damage)
{
  if (f->wire_type == want)
    return TRUE;
  return damaged (damage, f->at, reason_wire_type);
}

/* TensorFlow's DataType */

static const char * const tf_type_names[] = {
  "invalid", "float32", "float64", "int32", "uint8", "int16", "int8", "string", "complex64",
  "int64", "bool", "qint8", "quint8", "qint32", "bfloat16", "qint16", "quint16", "uint16",
  "complex128", "float16", "resource", "variant", "uint32", "uint64",
};

static void
append_type (GString *out,
             guint64  type)
{
  gboolean ref = type > 100 && type - 100 < G_N_ELEMENTS (tf_type_names);
  guint64 base = ref ? type - 100 : type;

  if (base < G_N_ELEMENTS (tf_type_names))
    g_string_append_printf (out, "%s%s", tf_type_names[base], ref ? "_ref" : "");
  else
    g_string_append_printf (out, "type%" G_GUINT64_FORMAT, type);
}

/* The MindSpore DataType the model stores for a TensorFlow one (ref types
 * as their base type), or 0 where MindSpore has none. */
static int
model_dtype (guint64 type)
{
  static const guint8 to_model[] = {
    [1] = 11, [2] = 12, [3] = 4, [4] = 6, [5] = 3, [6] = 2, [7] = 13, [9] = 5, [10] = 1,
    [17] = 7, [19] = 10, [22] = 8, [23] = 9,
  };

  if (type > 100)
    type -= 100;
  return type < G_N_ELEMENTS (to_model) ? to_model[type] : 0;
}

/* Values as text */

static void
append_bytes (GString     *out,
              const Slice *bytes)
{
  static char high[129];
  gsize len = MIN (bytes->len, MAX_SHOWN_BYTES);
  g_autofree char *raw = NULL, *escaped = NULL;

  if (high[0] == '\0')
    for (guint i = 0; i < 128; i++)
      high[i] = (char) (0x80 + i);

  /* Cut at a character boundary when the text is UTF-8. */
  while (len > 0 && len < bytes->len && (bytes->data[len] & 0xc0) == 0x80)
    len--;
  raw = g_strndup ((const char *) bytes->data, len);
  escaped = g_strescape (raw, g_utf8_validate (raw, -1, NULL) ? high : NULL);
  g_string_append_printf (out, "\"%s\"%s", escaped, len < bytes->len ? "…" : "");
}

static void
append_separator (GString *out,
                  guint    index)
{
  if (index > 0)
    g_string_append (out, ", ");
}

typedef enum { NUM_INT = 1, NUM_UINT, NUM_BOOL, NUM_TYPE, NUM_F32, NUM_F64 } NumberKind;

static void
append_number (GString    *out,
               NumberKind  kind,
               guint64     value)
{
  guint32 bits = (guint32) value;
  float f;
  double d;

  switch (kind)
    {
    case NUM_INT: g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) value); break;
    case NUM_UINT: g_string_append_printf (out, "%" G_GUINT64_FORMAT, value); break;
    case NUM_BOOL: g_string_append (out, value ? "true" : "false"); break;
    case NUM_TYPE: append_type (out, value); break;
    case NUM_F32: memcpy (&f, &bits, 4); g_string_append_printf (out, "%g", (double) f); break;
    case NUM_F64: memcpy (&d, &value, 8); g_string_append_printf (out, "%g", d); break;
    default: break;
    }
}

/* The numbers of a repeated scalar field, packed or not, counted in
 * *@count and shown up to @max. */
static gboolean
append_numbers (GString     *out,
                const Field *f,
                NumberKind   kind,
                guint       *count,
                guint        max,
                Damage      *damage)
{
  guint width = kind == NUM_F32 ? 4 : kind == NUM_F64 ? 8 : 0;
  guint wire = width == 4 ? 5 : width == 8 ? 1 : 0;

  if (f->wire_type == wire)
    {
      if ((*count)++ < max)
        {
          append_separator (out, *count - 1);
          append_number (out, kind, f->value);
        }
      return TRUE;
    }
  if (f->wire_type != 2)
    return damaged (damage, f->at, reason_wire_type);
  if (width > 0 && f->bytes.len % width != 0)
    return damaged (damage, f->at, reason_packed);
  for (gsize pos = 0; pos < f->bytes.len;)
    {
      guint64 value = 0;

      if (width > 0)
        {
          memcpy (&value, f->bytes.data + pos, width);
          value = GUINT64_FROM_LE (value);
          pos += width;
        }
      else if (!read_varint (f->bytes.data, f->bytes.len, &pos, &value))
        return damaged (damage, f->at, reason_packed);
      if ((*count)++ < max)
        {
          append_separator (out, *count - 1);
          append_number (out, kind, value);
        }
    }
  return TRUE;
}

/* TensorShapeProto: "[3,3]", "?" for an unknown size, "<unknown>" for an
 * unknown rank. The sizes go to @dims when it is not NULL. */
static gboolean
format_shape (GString     *out,
              const Slice *shape,
              GArray      *dims,
              gboolean    *unknown_rank,
              Damage      *damage)
{
  Field f, g;
  guint n = 0;
  gboolean unknown = FALSE;
  g_autoptr(GString) text = g_string_new ("[");

  FOR_FIELDS (shape, pos, &f, damage)
    {
      gint64 size = -1;

      if (f.field == 3 && f.wire_type == 0)
        unknown = f.value != 0;
      if (f.field != 2)
        continue;
      if (!expect_wire (&f, 2, damage))
        return FALSE;
      size = 0;
      FOR_FIELDS (&f.bytes, inner, &g, damage)
        if (g.field == 1)
          {
            if (!expect_wire (&g, 0, damage))
              return FALSE;
            size = (gint64) g.value;
          }
      if (damage->reason != NULL)
        return FALSE;
      if (n++ > 0)
        g_string_append_c (text, ',');
      if (size < 0)
        g_string_append_c (text, '?');
      else
        g_string_append_printf (text, "%" G_GINT64_FORMAT, size);
      if (dims != NULL)
        g_array_append_val (dims, size);
    }
  if (damage->reason != NULL)
    return FALSE;
  g_string_append_c (text, ']');
  if (unknown_rank != NULL)
    *unknown_rank = unknown;
  g_string_append (out, unknown ? "<unknown>" : text->str);
  return TRUE;
}

static gsize
content_width (guint64 dtype)
{
  switch (dtype)
    {
    case 1: case 3: return 4;   /* float32, int32 */
    case 2: case 9: return 8;   /* float64, int64 */
    default: return 0;
    }
}

static void
append_content (GString     *out,
                const Slice *content,
                guint64      dtype,
                guint       *count)
{
  gsize width = content_width (dtype);

  for (gsize i = 0; width > 0 && i * width + width <= content->len; i++)
    {
      guint64 value = 0;

      memcpy (&value, content->data + i * width, width);
      value = GUINT64_FROM_LE (value);
      if ((*count)++ < MAX_SHOWN_TENSOR_VALUES)
        {
          NumberKind kind = dtype == 1 ? NUM_F32 : dtype == 2 ? NUM_F64 : NUM_INT;

          if (dtype == 3)
            value = (guint64) (gint64) (gint32) (guint32) value;
          append_separator (out, *count - 1);
          append_number (out, kind, value);
        }
    }
}

/* TensorProto: "tensor float32[3,3]", with the first values when the
 * tensor lists them (" = 1" for one, " = [1, 2, …]" for more). */
static gboolean
format_tensor (GString     *out,
               const Slice *tensor,
               guint64     *dtype_out,
               GArray      *dims,
               Damage      *damage)
{
  g_autoptr(GString) shape = g_string_new ("[]");
  g_autoptr(GString) values = g_string_new (NULL);
  Slice content = { NULL, 0, 0 };
  guint64 dtype = 0;
  guint count = 0;
  Field f;

  FOR_FIELDS (tensor, pos, &f, damage)
    {
      /* The value lists; half_val (13) holds the bits of float16s. */
      static const guint8 kinds[] = { [5] = NUM_F32, [6] = NUM_F64, [7] = NUM_INT, [10] = NUM_INT,
                                      [11] = NUM_BOOL, [13] = NUM_UINT, [16] = NUM_UINT, [17] = NUM_UINT };

      switch (f.field)
        {
        case 1:
          if (!expect_wire (&f, 0, damage))
            return FALSE;
          dtype = f.value;
          break;
        case 2:
          if (!expect_wire (&f, 2, damage))
            return FALSE;
          g_string_truncate (shape, 0);
          if (dims != NULL)
            g_array_set_size (dims, 0);
          if (!format_shape (shape, &f.bytes, dims, NULL, damage))
            return FALSE;
          break;
        case 4:
          if (!expect_wire (&f, 2, damage))
            return FALSE;
          content = f.bytes;
          break;
        case 8:
          if (!expect_wire (&f, 2, damage))
            return FALSE;
          if (count++ < MAX_SHOWN_TENSOR_VALUES)
            {
              append_separator (values, count - 1);
              append_bytes (values, &f.bytes);
            }
          break;
        default:
          if (f.field < G_N_ELEMENTS (kinds) && kinds[f.field] != 0 &&
              !append_numbers (values, &f, (NumberKind) kinds[f.field], &count, MAX_SHOWN_TENSOR_VALUES, damage))
            return FALSE;
          break;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  if (count == 0 && content.data != NULL)
    append_content (values, &content, dtype, &count);

  g_string_append (out, "tensor ");
  append_type (out, dtype);
  g_string_append (out, shape->str);
  if (count == 1)
    g_string_append_printf (out, " = %s", values->str);
  else if (count > 1)
    g_string_append_printf (out, " = [%s%s]", values->str, count > MAX_SHOWN_TENSOR_VALUES ? ", …" : "");
  if (dtype_out != NULL)
    *dtype_out = dtype;
  return TRUE;
}

/* NameAttrList: its name; its attributes are not shown. */
static gboolean
format_func (GString     *out,
             const Slice *func,
             Damage      *damage)
{
  Field f;
  Slice name = { (const guint8 *) "", 0, 0 };

  FOR_FIELDS (func, pos, &f, damage)
    if (f.field == 1)
      {
        if (!expect_wire (&f, 2, damage))
          return FALSE;
        name = f.bytes;
      }
  if (damage->reason != NULL)
    return FALSE;
  g_string_append (out, "func ");
  append_bytes (out, &name);
  return TRUE;
}

/* ListValue: "[1, 2, 2, 1]", whatever the members' kind. */
static gboolean
format_list (GString     *out,
             const Slice *list,
             Damage      *damage)
{
  Field f;
  guint count = 0;

  g_string_append_c (out, '[');
  FOR_FIELDS (list, pos, &f, damage)
    {
      static const NumberKind kinds[] = { [3] = NUM_INT, [4] = NUM_F32, [5] = NUM_BOOL, [6] = NUM_TYPE };

      if (f.field >= 3 && f.field <= 6)
        {
          if (!append_numbers (out, &f, kinds[f.field], &count, MAX_SHOWN_VALUES, damage))
            return FALSE;
          continue;
        }
      if (f.field < 2 || f.field > 9)
        continue;
      if (!expect_wire (&f, 2, damage))
        return FALSE;
      if (count++ >= MAX_SHOWN_VALUES)
        continue;
      append_separator (out, count - 1);
      if (f.field == 2)
        append_bytes (out, &f.bytes);
      else if (f.field == 7 && !format_shape (out, &f.bytes, NULL, NULL, damage))
        return FALSE;
      else if (f.field == 8 && !format_tensor (out, &f.bytes, NULL, NULL, damage))
        return FALSE;
      else if (f.field == 9 && !format_func (out, &f.bytes, damage))
        return FALSE;
    }
  if (damage->reason != NULL)
    return FALSE;
  if (count > MAX_SHOWN_VALUES)
    g_string_append (out, ", …");
  g_string_append_c (out, ']');
  return TRUE;
}

/* AttrValue: the member set last, as protobuf reads a oneof. */
static gboolean
format_attr_value (GString     *out,
                   const Slice *value,
                   Damage      *damage)
{
  Field f, last = { 0 };
  guint count = 0;

  FOR_FIELDS (value, pos, &f, damage)
    if (f.field >= 1 && f.field <= 10)
      last = f;
  if (damage->reason != NULL)
    return FALSE;

  switch (last.field)
    {
    case 0:
      return TRUE;
    case 1:
      return expect_wire (&last, 2, damage) && format_list (out, &last.bytes, damage);
    case 2:
      if (!expect_wire (&last, 2, damage))
        return FALSE;
      append_bytes (out, &last.bytes);
      return TRUE;
    case 3:
      return expect_wire (&last, 0, damage) && append_numbers (out, &last, NUM_INT, &count, 1, damage);
    case 4:
      return expect_wire (&last, 5, damage) && append_numbers (out, &last, NUM_F32, &count, 1, damage);
    case 5:
      return expect_wire (&last, 0, damage) && append_numbers (out, &last, NUM_BOOL, &count, 1, damage);
    case 6:
      return expect_wire (&last, 0, damage) && append_numbers (out, &last, NUM_TYPE, &count, 1, damage);
    case 7:
      return expect_wire (&last, 2, damage) && format_shape (out, &last.bytes, NULL, NULL, damage);
    case 8:
      return expect_wire (&last, 2, damage) && format_tensor (out, &last.bytes, NULL, NULL, damage);
    case 9:
      if (!expect_wire (&last, 2, damage))
        return FALSE;
      g_string_append_c (out, '$');
      g_string_append_len (out, (const char *) last.bytes.data, MIN (last.bytes.len, MAX_SHOWN_BYTES));
      return TRUE;
    case 10:
    default:
      return expect_wire (&last, 2, damage) && format_func (out, &last.bytes, damage);
    }
}

/* The last member @field of an AttrValue with wire type 2, or NULL data. */
static Slice
attr_member (const Slice *value,
             guint        field)
{
  Slice found = { NULL, 0, 0 };
  Field f;

  FOR_FIELDS (value, pos, &f, NULL)
    if (f.field == field && f.wire_type == 2)
      found = f.bytes;
  return found;
}

static gboolean
attr_type (const Slice *value,
           guint64     *type)
{
  Field f;
  gboolean found = FALSE;

  FOR_FIELDS (value, pos, &f, NULL)
    if (f.field == 6 && f.wire_type == 0)
      {
        *type = f.value;
        found = TRUE;
      }
  return found;
}

/* One NodeDef, its framing checked */

typedef struct {
  Slice  key;
  Slice  value;
  char  *text;
} Attr;

typedef struct {
  Slice  name;
  Slice  op;
  Slice  device;
  guint  input_first, n_inputs;
  guint  attr_first, n_attrs;
} Node;

typedef struct {
  SlGraphBuilder *builder;
  const char     *path;
  GArray         *nodes;   /* Node */
  GArray         *inputs;  /* Slice */
  GArray         *attrs;   /* Attr */
  guint           n_damaged;
  const char     *prefix;  /* "" or "scope/", put before every name */
  gboolean        function; /* inputs are "node:out:k" (a FunctionDef's body) */
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
  reader->n_damaged++;
}

static gboolean
parse_attr (Reader      *reader,
            const Slice *entry,
            Damage      *damage)
{
  Attr attr = { { (const guint8 *) "", 0, entry->base }, { (const guint8 *) "", 0, entry->base }, NULL };
  GString *text;
  Field f;

  FOR_FIELDS (entry, pos, &f, damage)
    if (f.field == 1 || f.field == 2)
      {
        if (!expect_wire (&f, 2, damage))
          return FALSE;
        if (f.field == 1)
          attr.key = f.bytes;
        else
          attr.value = f.bytes;
      }
  if (damage->reason != NULL)
    return FALSE;

  text = g_string_new (NULL);
  if (!format_attr_value (text, &attr.value, damage))
    {
      g_string_free (text, TRUE);
      return FALSE;
    }
  attr.text = g_utf8_make_valid (text->str, text->len);
  g_string_free (text, TRUE);
  g_array_append_val (reader->attrs, attr);
  return TRUE;
}

static gboolean
parse_node (Reader      *reader,
            const Slice *bytes,
            Damage      *damage)
{
  Node node = { { (const guint8 *) "", 0, 0 }, { (const guint8 *) "", 0, 0 }, { (const guint8 *) "", 0, 0 },
                reader->inputs->len, 0, reader->attrs->len, 0 };
  Field f;

  FOR_FIELDS (bytes, pos, &f, damage)
    {
      if (f.field < 1 || f.field > 5)
        continue;
      if (!expect_wire (&f, 2, damage))
        goto fail;
      if (f.field == 1)
        node.name = f.bytes;
      else if (f.field == 2)
        node.op = f.bytes;
      else if (f.field == 3)
        g_array_append_val (reader->inputs, f.bytes);
      else if (f.field == 4)
        node.device = f.bytes;
      else if (!parse_attr (reader, &f.bytes, damage))
        goto fail;
    }
  if (damage->reason != NULL)
    goto fail;
  node.n_inputs = reader->inputs->len - node.input_first;
  node.n_attrs = reader->attrs->len - node.attr_first;
  g_array_append_val (reader->nodes, node);
  return TRUE;

fail:
  g_array_set_size (reader->inputs, node.input_first);
  for (guint i = node.attr_first; i < reader->attrs->len; i++)
    g_free (g_array_index (reader->attrs, Attr, i).text);
  g_array_set_size (reader->attrs, node.attr_first);
  return FALSE;
}

/* The GraphDef's fields: nodes are kept while the framing holds. */
static void
parse_graph_def (Reader      *reader,
                 const Slice *graph,
                 guint        node_field)
{
  Damage damage = { 0 };
  Field f;
  gsize pos = 0;

  while (next_field (graph, &pos, &f, &damage))
    {
      if (f.field != node_field)
        continue;
      if (f.wire_type != 2)
        {
          report (reader, &(Damage) { f.at, reason_wire_type });
          continue;
        }
      if (!parse_node (reader, &f.bytes, &damage))
        report (reader, &damage);
      damage.reason = NULL;
    }
  if (damage.reason != NULL)
    report (reader, &damage);
}

/* Into the builder */

static char *
dup_slice (const Slice *s)
{
  return g_strndup ((const char *) s->data, s->len);
}

/* @prefix then @len bytes of @data (which need not end in a NUL). */
static char *
prefixed (const char   *prefix,
          const guint8 *data,
          gsize         len)
{
  GString *out = g_string_new (prefix);

  g_string_append_len (out, (const char *) data, len);
  return g_string_free (out, FALSE);
}

/* "node:1" → "node", "^node" → "node" (control); in a function body
 * "node:out:0" → "node" too. With the reader's prefix in front. */
static char *
input_source (const Reader *reader,
              const Slice  *input,
              gboolean     *control)
{
  gsize start = 0, end = input->len;

  *control = input->len > 0 && input->data[0] == '^';
  if (*control)
    start = 1;
  if (reader->function)
    {
      const guint8 *colon = memchr (input->data + start, ':', end - start);

      if (colon != NULL)
        end = colon - input->data;
      return prefixed (reader->prefix, input->data + start, end - start);
    }
  for (gsize i = end; i > start; i--)
    {
      if (input->data[i - 1] == ':')
        {
          if (i < end)
            end = i - 1;
          break;
        }
      if (!g_ascii_isdigit (input->data[i - 1]))
        break;
    }
  return prefixed (reader->prefix, input->data + start, end - start);
}

static gboolean
slice_is (const Slice *s,
          const char  *text)
{
  gsize len = strlen (text);

  return s->len == len && memcmp (s->data, text, len) == 0;
}

/* Every scope of every node name ("a", "a/b" for "a/b/c"), each added once. */
static void
add_scopes (GHashTable *scopes,
            const char *name)
{
  for (const char *slash = strrchr (name, '/'); slash != NULL && slash > name;)
    {
      char *scope = g_strndup (name, slash - name);

      if (g_hash_table_contains (scopes, scope))
        {
          g_free (scope);
          return;
        }
      g_hash_table_add (scopes, scope);
      slash = g_strrstr_len (name, slash - name, "/");
    }
}

static void
add_outputs (SlGraphBuilder *builder,
             const Reader   *reader,
             const Node     *node)
{
  g_autoptr(GArray) dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GString) ignored = g_string_new (NULL);
  Slice shapes = { NULL, 0, 0 }, shape = { NULL, 0, 0 }, tensor = { NULL, 0, 0 };
  guint64 dtype = 0;
  gboolean have_type = FALSE;
  Damage damage = { 0 };
  Field f;

  for (guint i = 0; i < node->n_attrs; i++)
    {
      const Attr *attr = &g_array_index (reader->attrs, Attr, node->attr_first + i);

      if (slice_is (&attr->key, "_output_shapes"))
        shapes = attr_member (&attr->value, 1);
      else if (slice_is (&attr->key, "shape"))
        shape = attr_member (&attr->value, 7);
      else if (slice_is (&attr->key, "value"))
        tensor = attr_member (&attr->value, 8);
      else if (slice_is (&attr->key, "T") && attr_type (&attr->value, &dtype))
        have_type = TRUE;
      else if (slice_is (&attr->key, "dtype") && !have_type && attr_type (&attr->value, &dtype))
        have_type = TRUE;
    }

  if (shapes.data != NULL)
    {
      FOR_FIELDS (&shapes, pos, &f, NULL)
        if (f.field == 7 && f.wire_type == 2)
          {
            gboolean unknown_rank = FALSE;

            g_array_set_size (dims, 0);
            if (format_shape (ignored, &f.bytes, dims, &unknown_rank, &damage))
              sl_graph_builder_add_output (builder, model_dtype (dtype), (const gint64 *) (gpointer) dims->data,
                                           unknown_rank ? 0 : dims->len);
          }
      return;
    }
  if (tensor.data != NULL && format_tensor (ignored, &tensor, &dtype, dims, &damage))
    sl_graph_builder_add_output (builder, model_dtype (dtype), (const gint64 *) (gpointer) dims->data, dims->len);
  else if (shape.data != NULL && format_shape (ignored, &shape, dims, NULL, &damage))
    sl_graph_builder_add_output (builder, model_dtype (dtype), (const gint64 *) (gpointer) dims->data, dims->len);
}

static void
add_attributes (SlGraphBuilder *builder,
                const Reader   *reader,
                const Node     *node,
                gboolean        skip_value)
{
  for (guint i = 0; i < node->n_attrs; i++)
    {
      const Attr *attr = &g_array_index (reader->attrs, Attr, node->attr_first + i);
      g_autofree char *raw = NULL, *key = NULL;

      if (slice_is (&attr->key, "_output_shapes") || (skip_value && slice_is (&attr->key, "value")))
        continue;
      raw = dup_slice (&attr->key);
      key = g_utf8_make_valid (raw, -1);
      sl_graph_builder_add_attribute (builder, key, attr->text);
    }
}

static const char *
find_value_text (const Reader *reader,
                 const Node   *node)
{
  for (guint i = 0; i < node->n_attrs; i++)
    {
      const Attr *attr = &g_array_index (reader->attrs, Attr, node->attr_first + i);

      if (slice_is (&attr->key, "value"))
        return attr->text;
    }
  return NULL;
}

static void
build (Reader *reader)
{
  g_autoptr(GHashTable) scopes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) consumed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint n = 0; n < reader->nodes->len; n++)
    {
      const Node *node = &g_array_index (reader->nodes, Node, n);
      char *name = prefixed (reader->prefix, node->name.data, node->name.len);

      add_scopes (scopes, name);
      g_ptr_array_add (names, name);
      for (guint i = 0; i < node->n_inputs; i++)
        {
          gboolean control;

          g_hash_table_add (consumed, input_source (reader, &g_array_index (reader->inputs, Slice, node->input_first + i),
                                                    &control));
        }
    }

  for (guint n = 0; n < reader->nodes->len; n++)
    {
      const Node *node = &g_array_index (reader->nodes, Node, n);
      const char *name = g_ptr_array_index (names, n);
      g_autofree char *op = dup_slice (&node->op);
      g_autofree char *scope = NULL, *display = NULL;
      const char *slash;

      if (strcmp (op, "Const") == 0 && node->n_inputs == 0 && g_hash_table_contains (consumed, name))
        {
          sl_graph_builder_begin_const (reader->builder, name, find_value_text (reader, node));
          sl_graph_builder_split_name (reader->builder);
          add_attributes (reader->builder, reader, node, TRUE);
          add_outputs (reader->builder, reader, node);
          continue;
        }

      slash = strrchr (name, '/');
      if (g_hash_table_contains (scopes, name))
        {
          scope = g_strdup (name);
          display = g_strdup_printf ("%s/(%s)", name, slash != NULL ? slash + 1 : name);
        }
      else
        {
          scope = slash != NULL ? g_strndup (name, slash - name) : g_strdup ("");
          display = g_strdup (name);
        }
      sl_graph_builder_begin_op (reader->builder, name, op, scope, display, NULL, NULL);
      if (node->device.len > 0)
        {
          g_autofree char *raw = dup_slice (&node->device);
          g_autofree char *device = g_utf8_make_valid (raw, -1);

          sl_graph_builder_add_attribute (reader->builder, "device", device);
        }
      for (guint i = 0; i < node->n_inputs; i++)
        {
          gboolean control;
          g_autofree char *source = input_source (reader, &g_array_index (reader->inputs, Slice, node->input_first + i),
                                                  &control);

          sl_graph_builder_add_input (reader->builder, source, control ? SL_GRAPH_EDGE_CONTROL : SL_GRAPH_EDGE_DATA);
        }
      add_attributes (reader->builder, reader, node, FALSE);
      add_outputs (reader->builder, reader, node);
    }
}

/**
 * sl_graph_def_decode:
 * @path: the file the bytes came from, for problems
 *
 * Decodes a serialized GraphDef (see the file comment for the mapping).
 *
 * Returns: (transfer full) (nullable): the graph, with problems for any
 *   damage; %NULL when nothing at all could be read
 */
SlGraph *
sl_graph_def_decode (const guint8  *data,
                     gsize          size,
                     const char    *path,
                     GError       **error)
{
  g_autoptr(SlGraphBuilder) builder = sl_graph_builder_new ();
  guint n_damaged;

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  sl_graph_builder_set_path (builder, path != NULL ? path : "");
  n_damaged = sl_graph_def_add_nodes (builder, data, size, 0, 1, "", FALSE, path);
  if (n_damaged > 0 && sl_graph_builder_get_n_elements (builder) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” holds no TensorFlow graph that can be read."), path != NULL ? path : "");
      return NULL;
    }
  return sl_graph_builder_finish (builder);
}

/**
 * sl_graph_def_add_nodes:
 * @data: a GraphDef, or a FunctionDef, at offset @base in the file
 * @node_field: the field that holds the NodeDefs (1 in a GraphDef, 3 in
 *   a FunctionDef)
 * @prefix: "" or "scope/": put before every node name and input, so that
 *   the nodes sit in that scope
 * @function: the inputs are in a FunctionDef body's "node:out:k" form
 *
 * Adds the nodes to @builder (see the file comment for the mapping), with
 * a problem for each piece of damage.
 *
 * Returns: the number of problems added
 */
guint
sl_graph_def_add_nodes (SlGraphBuilder *builder,
                        const guint8   *data,
                        gsize           size,
                        gsize           base,
                        guint           node_field,
                        const char     *prefix,
                        gboolean        function,
                        const char     *path)
{
  Reader reader = { builder, path != NULL ? path : "",
                    g_array_new (FALSE, FALSE, sizeof (Node)), g_array_new (FALSE, FALSE, sizeof (Slice)),
                    g_array_new (FALSE, FALSE, sizeof (Attr)), 0, prefix != NULL ? prefix : "", function };
  Slice graph = { data != NULL ? data : (const guint8 *) "", data != NULL ? size : 0, base };

  parse_graph_def (&reader, &graph, node_field);
  build (&reader);
  for (guint i = 0; i < reader.attrs->len; i++)
    g_free (g_array_index (reader.attrs, Attr, i).text);
  g_array_unref (reader.attrs);
  g_array_unref (reader.inputs);
  g_array_unref (reader.nodes);
  return reader.n_damaged;
}

/**
 * sl_graph_def_append_tensor_type:
 * @shape: a TensorShapeProto, or %NULL
 *
 * Appends "float32[?,3]" for a DataType and a shape.
 */
void
sl_graph_def_append_tensor_type (GString      *out,
                                 guint64       dtype,
                                 const guint8 *shape,
                                 gsize         shape_size)
{
  Slice s = { shape, shape_size, 0 };
  Damage damage = { 0 };

  append_type (out, dtype);
  if (shape != NULL)
    (void) format_shape (out, &s, NULL, NULL, &damage);
}

/* The sniff */

/* A NodeDef's first field is its name, a string of printable ASCII; a
 * MindSpore NodeProto's is an InputProto (a message, starting 0x0a) and
 * it has varint and higher-numbered fields (output_i 7, full_name 8). */
static int
node_vote (const Slice *node)
{
  Field f;
  gboolean named = FALSE;
  guint n = 0;

  FOR_FIELDS (node, pos, &f, NULL)
    {
      if (n++ == SNIFF_FIELDS)
        break;
      /* NodeDef has no varint field; 7 is its experimental_type. */
      if (f.wire_type != 2 || f.field > 7)
        return -1;
      if (f.field == 1)
        {
          if (f.bytes.len == 0 || f.bytes.data[0] <= 0x20 || f.bytes.data[0] >= 0x7f)
            return -1;
          named = TRUE;
        }
    }
  return named ? 1 : -1;
}

/**
 * sl_graph_def_sniff:
 *
 * Whether @data looks like a GraphDef rather than a MindSpore GraphProto
 * or ModelProto, from the shapes of its first fields: the first nodes'
 * fields (see node_vote()), GraphDef's version (field 3, a varint, where
 * GraphProto has parameters, a message) and versions (field 4, a
 * VersionDef starting with a varint, where GraphProto has outputs, which
 * start with a string); fields 5 and 6 exist only in GraphProto, a varint
 * field 1 only in ModelProto. A tie is not a GraphDef.
 */
gboolean
sl_graph_def_sniff (const guint8 *data,
                    gsize         size)
{
  Slice graph = { data, size, 0 };
  Field f;
  int votes = 0;
  guint n = 0, n_nodes = 0;

  if (data == NULL)
    return FALSE;
  FOR_FIELDS (&graph, pos, &f, NULL)
    {
      if (n++ == SNIFF_FIELDS)
        break;
      if (f.field == 1 && f.wire_type == 0)
        return FALSE;
      if (f.field == 1 && f.wire_type == 2 && n_nodes++ < SNIFF_NODES)
        votes += node_vote (&f.bytes);
      else if (f.field == 3)
        votes += f.wire_type == 0 ? 1 : -1;
      else if (f.field == 4 && f.wire_type == 2 && f.bytes.len > 0)
        votes += f.bytes.data[0] == 0x08 || f.bytes.data[0] == 0x10 ? 1 : -1;
      else if (f.field == 5 || f.field == 6)
        votes--;
    }
  return votes > 0;
}
