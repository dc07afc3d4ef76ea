/* sl-graph-reader.c: MindSpore graphs from .pb files and summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "mindspore_anf_ir.pb-c.h"
#include "sl-input-file.h"
#include "sl-graph-builder.h"
#include "sl-graph-def-reader.h"
#include "sl-graph-def-text.h"
#include "sl-graph-reader.h"
#include "sl-main-thread.h"
#include "sl-air-reader.h"
#include "sl-mindir-reader.h"
#include "sl-om-reader.h"
#include "sl-onnx-reader.h"
#include "sl-proto-shape.h"
#include "sl-saved-model-reader.h"
#include "sl-sniffer.h"
#include "sl-summary-reader.h"

/* Lists in attribute values are shown up to this many elements. */
#define MAX_SHOWN_VALUES 64
/* TypeProto sequences and ValueProto lists are flattened to this depth. */
#define MAX_FORMAT_DEPTH 16

/* The schema, as far as the walker needs it. */
typedef enum {
  M_GRAPH, M_NODE, M_INPUT, M_ATTR, M_VALUE, M_NAMED, M_TENSOR, M_SHAPE, M_DIM,
  M_TYPE, M_TYPE_TENSOR, M_TYPE_SEQ, M_PARAM, M_OUTPUT, M_MODEL, M_OPSET, M_OPERATOR,
  M_NONE,
} Message;

typedef enum {
  T_VARINT,   /* optional: wire type 0 */
  T_VARINTS,  /* repeated: 0, or 2 packed */
  T_F32,
  T_F32S,
  T_F64,
  T_F64S,
  T_BYTES,
  T_MSG,
  T_ANY,
} FieldType;

typedef struct {
  guint8 field;
  guint8 type;
  guint8 message;
} FieldSpec;

#define F(n, t) { n, t, M_NONE }
#define MSG(n, m) { n, T_MSG, m }

static const FieldSpec graph_fields[] = { MSG (1, M_NODE), F (2, T_BYTES), MSG (3, M_PARAM), MSG (4, M_OUTPUT), MSG (5, M_NAMED), F (6, T_BYTES) };
static const FieldSpec node_fields[] = { MSG (1, M_INPUT), F (2, T_BYTES), F (3, T_BYTES), F (4, T_BYTES), MSG (5, M_ATTR), MSG (6, M_TYPE), F (7, T_VARINT), F (8, T_BYTES), F (9, T_BYTES), F (10, T_BYTES) };
static const FieldSpec input_fields[] = { F (1, T_BYTES), F (2, T_VARINT) };
static const FieldSpec attr_fields[] = { F (1, T_BYTES), MSG (2, M_VALUE) };
static const FieldSpec value_fields[] = {
  F (1, T_VARINT), F (2, T_VARINT), F (3, T_VARINT), F (4, T_VARINT), F (5, T_F32), F (6, T_F64), F (7, T_BYTES),
  MSG (8, M_TENSOR), MSG (9, M_GRAPH), F (10, T_VARINTS), F (11, T_VARINTS), F (12, T_VARINTS), F (13, T_F32S),
  F (14, T_F64S), F (15, T_BYTES), MSG (16, M_TENSOR), MSG (17, M_GRAPH), MSG (18, M_VALUE), MSG (19, M_NAMED),
  MSG (20, M_TYPE),
};
static const FieldSpec named_fields[] = { F (1, T_BYTES), MSG (2, M_VALUE), F (3, T_BYTES) };
/* Fields 1, 3, 4 and 5 differ between the summary's and the debugger's
 * layouts: any wire type goes, the value formatter tells them apart. */
static const FieldSpec tensor_fields[] = { F (1, T_ANY), F (2, T_VARINT), F (3, T_ANY), F (4, T_ANY), F (5, T_ANY), F (6, T_F64S), F (7, T_VARINTS), F (8, T_BYTES) };
static const FieldSpec shape_fields[] = { MSG (1, M_DIM) };
static const FieldSpec dim_fields[] = { F (1, T_VARINT), F (2, T_BYTES) };
static const FieldSpec type_fields[] = { F (1, T_VARINT), MSG (2, M_TYPE_TENSOR), MSG (3, M_TYPE_SEQ) };
static const FieldSpec type_tensor_fields[] = { F (1, T_VARINT), MSG (2, M_SHAPE) };
static const FieldSpec type_seq_fields[] = { MSG (1, M_TYPE) };
static const FieldSpec param_fields[] = { F (1, T_BYTES), MSG (2, M_TYPE), MSG (3, M_VALUE) };
static const FieldSpec output_fields[] = { F (1, T_BYTES), MSG (2, M_TYPE) };
static const FieldSpec model_fields[] = { F (1, T_VARINT), F (2, T_BYTES), F (3, T_VARINT), MSG (4, M_GRAPH), MSG (5, M_OPSET) };
static const FieldSpec opset_fields[] = { MSG (1, M_OPERATOR), F (2, T_BYTES) };
static const FieldSpec operator_fields[] = { F (1, T_BYTES), F (2, T_BYTES), F (3, T_BYTES) };

#define SPEC(a) { a, G_N_ELEMENTS (a) }
static const struct { const FieldSpec *fields; guint n; } schema[] = {
  [M_GRAPH] = SPEC (graph_fields), [M_NODE] = SPEC (node_fields), [M_INPUT] = SPEC (input_fields),
  [M_ATTR] = SPEC (attr_fields), [M_VALUE] = SPEC (value_fields), [M_NAMED] = SPEC (named_fields),
  [M_TENSOR] = SPEC (tensor_fields), [M_SHAPE] = SPEC (shape_fields), [M_DIM] = SPEC (dim_fields),
  [M_TYPE] = SPEC (type_fields), [M_TYPE_TENSOR] = SPEC (type_tensor_fields),
  [M_TYPE_SEQ] = SPEC (type_seq_fields), [M_PARAM] = SPEC (param_fields),
  [M_OUTPUT] = SPEC (output_fields), [M_MODEL] = SPEC (model_fields), [M_OPSET] = SPEC (opset_fields),
  [M_OPERATOR] = SPEC (operator_fields),
};

/* Reasons, translated where a problem is made. */
static const char * const reason_tag = N_("a field tag is cut off or malformed");
static const char * const reason_length = N_("a field runs past the end of its message");
static const char * const reason_wire_type = N_("a field has the wrong wire type");
static const char * const reason_packed = N_("a packed list is malformed");
static const char * const reason_nesting = N_("messages are nested too deeply");
static const char * const reason_unpack = N_("the element does not decode");

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

static const FieldSpec *
find_field (Message message,
            guint64 field)
{
  for (guint i = 0; i < schema[message].n; i++)
    if (schema[message].fields[i].field == field)
      return &schema[message].fields[i];
  return NULL;
}

static gboolean
skip_scalar (const guint8 *buf,
             gsize         len,
             gsize        *pos,
             guint         wire_type)
{
  guint64 ignored;

  switch (wire_type)
    {
    case 0:
      return read_varint (buf, len, pos, &ignored);
    case 1:
      if (len - *pos < 8)
        return FALSE;
      *pos += 8;
      return TRUE;
    case 5:
      if (len - *pos < 4)
        return FALSE;
      *pos += 4;
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
packed_ok (const guint8 *buf,
           gsize         len,
           FieldType     type)
{
  gsize pos = 0;
  guint64 ignored;

  if (type == T_F32S)
    return len % 4 == 0;
  if (type == T_F64S)
    return len % 8 == 0;
  while (pos < len)
    if (!read_varint (buf, len, &pos, &ignored))
      return FALSE;
  return TRUE;
}

static gboolean
wire_type_fits (FieldType type,
                guint     wire_type)
{
  switch (type)
    {
    case T_VARINT: return wire_type == 0;
    case T_VARINTS: return wire_type == 0 || wire_type == 2;
    case T_F32: return wire_type == 5;
    case T_F32S: return wire_type == 5 || wire_type == 2;
    case T_F64: return wire_type == 1;
    case T_F64S: return wire_type == 1 || wire_type == 2;
    case T_ANY: return wire_type == 0 || wire_type == 1 || wire_type == 2 || wire_type == 5;
    case T_BYTES:
    case T_MSG:
    default:
      return wire_type == 2;
    }
}

static gboolean
damaged (Damage     *damage,
         gsize       offset,
         const char *reason)
{
  damage->offset = offset;
  damage->reason = reason;
  return FALSE;
}

/* Checks @buf as @message, recursively: TRUE when protobuf-c may see it.
 * Recursion is bounded by SL_GRAPH_READER_MAX_NESTING. */
static gboolean
walk (const guint8 *buf,
      gsize         len,
      Message       message,
      guint         depth,
      gsize         base,
      Damage       *damage)
{
  gsize pos = 0;

  if (depth > SL_GRAPH_READER_MAX_NESTING)
    return damaged (damage, base, reason_nesting);

  while (pos < len)
    {
      gsize start = pos;
      guint64 tag, length;
      guint wire_type;
      const FieldSpec *spec;

      if (!read_varint (buf, len, &pos, &tag) || (tag >> 3) == 0 || (tag >> 3) > G_MAXINT32)
        return damaged (damage, base + start, reason_tag);
      wire_type = tag & 7;
      spec = find_field (message, tag >> 3);
      if (spec != NULL && !wire_type_fits (spec->type, wire_type))
        return damaged (damage, base + start, reason_wire_type);
      if (wire_type != 2)
        {
          if (!skip_scalar (buf, len, &pos, wire_type))
            return damaged (damage, base + start, wire_type == 0 || wire_type == 1 || wire_type == 5 ? reason_length : reason_wire_type);
          continue;
        }
      if (!read_varint (buf, len, &pos, &length) || length > len - pos)
        return damaged (damage, base + start, reason_length);
      if (spec != NULL && spec->type == T_MSG &&
          !walk (buf + pos, length, spec->message, depth + 1, base + pos, damage))
        return FALSE;
      if (spec != NULL && spec->type != T_MSG && spec->type != T_BYTES && spec->type != T_ANY &&
          !packed_ok (buf + pos, length, spec->type))
        return damaged (damage, base + start, reason_packed);
      pos += length;
    }
  return TRUE;
}

/* Values as text, from their bytes
 *
 * ValueProto is formatted from the wire, not through protobuf-c: the
 * debugger writes a TensorProto whose fields 3-5 have other types than
 * the summary's, and only the bytes tell which one a tensor is. */

typedef struct {
  const guint8 *data;
  gsize         len;
} Slice;

/* One field of a message: its number, wire type, and its varint or bytes. */
typedef struct {
  guint   field;
  guint   wire_type;
  guint64 value;
  Slice   bytes;
} WireField;

static gboolean
next_field (const guint8 *buf,
            gsize         len,
            gsize        *pos,
            WireField    *out)
{
  guint64 tag, length;

  if (*pos >= len || !read_varint (buf, len, pos, &tag) || (tag >> 3) == 0 || (tag >> 3) > G_MAXINT32)
    return FALSE;
  out->field = tag >> 3;
  out->wire_type = tag & 7;
  out->bytes.data = buf + *pos;
  out->bytes.len = 0;
  switch (out->wire_type)
    {
    case 0:
      return read_varint (buf, len, pos, &out->value);
    case 1:
    case 5:
      out->bytes.len = out->wire_type == 1 ? 8 : 4;
      if (len - *pos < out->bytes.len)
        return FALSE;
      out->value = 0;
      memcpy (&out->value, buf + *pos, out->bytes.len);
      *pos += out->bytes.len;
      return TRUE;
    case 2:
      if (!read_varint (buf, len, pos, &length) || length > len - *pos)
        return FALSE;
      out->bytes.data = buf + *pos;
      out->bytes.len = length;
      *pos += length;
      return TRUE;
    default:
      return FALSE;
    }
}

static float
half_to_float (guint16 h)
{
  guint32 sign = (guint32) (h & 0x8000) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  guint32 bits;
  float f;

  if (exponent == 0)
    return (sign ? -1.f : 1.f) * (float) mantissa / (1 << 24);
  if (exponent == 31)
    bits = sign | 0x7f800000 | (mantissa << 13);
  else
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  memcpy (&f, &bits, 4);
  return f;
}

static void
append_separator (GString *out,
                  guint    index)
{
  if (index > 0)
    g_string_append (out, ", ");
}

/* One scalar of a list, by how the list stores it. */
static void
append_scalar (GString *out,
               guint    field,
               guint64  value)
{
  float f;
  double d;
  guint32 bits = (guint32) value;

  switch (field)
    {
    case 10:
      g_string_append (out, value ? "True" : "False");
      break;
    case 11:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) value);
      break;
    case 13:
      memcpy (&f, &bits, 4);
      g_string_append_printf (out, "%g", (double) f);
      break;
    case 14:
      memcpy (&d, &value, 8);
      g_string_append_printf (out, "%g", d);
      break;
    case 12:
    default:
      g_string_append_printf (out, "%" G_GUINT64_FORMAT, value);
      break;
    }
}

/* The numbers of a repeated scalar field, packed or not; TRUE to go on. */
static gboolean
append_numbers (GString         *out,
                const WireField *field,
                guint           *count)
{
  gsize width = field->field == 13 ? 4 : field->field == 14 ? 8 : 0;

  if (field->wire_type != 2)
    {
      if ((*count)++ < MAX_SHOWN_VALUES)
        {
          append_separator (out, *count - 1);
          append_scalar (out, field->field, field->value);
        }
      return TRUE;
    }
  for (gsize pos = 0; pos < field->bytes.len;)
    {
      guint64 value = 0;

      if (width > 0)
        {
          if (field->bytes.len - pos < width)
            return FALSE;
          memcpy (&value, field->bytes.data + pos, width);
          pos += width;
        }
      else if (!read_varint (field->bytes.data, field->bytes.len, &pos, &value))
        return FALSE;
      if ((*count)++ < MAX_SHOWN_VALUES)
        {
          append_separator (out, *count - 1);
          append_scalar (out, field->field, value);
        }
    }
  return TRUE;
}

/* Element i of a debugger tensor's content, by its dtype. */
static gboolean
append_element (GString      *out,
                const guint8 *p,
                int           dtype)
{
  gint64 i = 0;
  guint64 u = 0;
  float f;
  double d;
  guint16 h;

  switch (dtype)
    {
    case MINDINSIGHT__DATA_TYPE__DT_BOOL: g_string_append (out, p[0] ? "True" : "False"); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_INT8: g_string_append_printf (out, "%d", (gint8) p[0]); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_UINT8: g_string_append_printf (out, "%u", p[0]); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_INT16: memcpy (&h, p, 2); g_string_append_printf (out, "%d", (gint16) h); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_UINT16: memcpy (&h, p, 2); g_string_append_printf (out, "%u", h); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_INT32: memcpy (&i, p, 4); g_string_append_printf (out, "%d", (gint32) i); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_UINT32: memcpy (&u, p, 4); g_string_append_printf (out, "%u", (guint32) u); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_INT64: memcpy (&i, p, 8); g_string_append_printf (out, "%" G_GINT64_FORMAT, i); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_UINT64: memcpy (&u, p, 8); g_string_append_printf (out, "%" G_GUINT64_FORMAT, u); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT16: memcpy (&h, p, 2); g_string_append_printf (out, "%g", (double) half_to_float (h)); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT32: memcpy (&f, p, 4); g_string_append_printf (out, "%g", (double) f); return TRUE;
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT64: memcpy (&d, p, 8); g_string_append_printf (out, "%g", d); return TRUE;
    default: return FALSE;
    }
}

static gsize
dtype_width (int dtype)
{
  switch (dtype)
    {
    case MINDINSIGHT__DATA_TYPE__DT_BOOL:
    case MINDINSIGHT__DATA_TYPE__DT_INT8:
    case MINDINSIGHT__DATA_TYPE__DT_UINT8:
      return 1;
    case MINDINSIGHT__DATA_TYPE__DT_INT16:
    case MINDINSIGHT__DATA_TYPE__DT_UINT16:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT16:
      return 2;
    case MINDINSIGHT__DATA_TYPE__DT_INT32:
    case MINDINSIGHT__DATA_TYPE__DT_UINT32:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT32:
      return 4;
    case MINDINSIGHT__DATA_TYPE__DT_INT64:
    case MINDINSIGHT__DATA_TYPE__DT_UINT64:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT64:
      return 8;
    default:
      return 0;
    }
}

static void
append_content (GString     *out,
                const Slice *content,
                int          dtype)
{
  gsize width = dtype_width (dtype);

  if (width == 0)
    {
      g_string_append_printf (out, " (%" G_GSIZE_FORMAT " bytes)", content->len);
      return;
    }
  g_string_append (out, " = [");
  for (gsize i = 0; i * width + width <= content->len; i++)
    {
      if (i == MAX_SHOWN_VALUES)
        {
          g_string_append (out, ", …");
          break;
        }
      append_separator (out, i);
      append_element (out, content->data + i * width, dtype);
    }
  g_string_append_c (out, ']');
}

/* Both layouts: the summary's (dims 1, data_type 2, packed data 3-7,
 * raw_data 8) and the debugger's (tensor_content 3, dims 4, data_type 5
 * as a varint). A varint in field 5 says which: the summary's int64_data
 * is packed. */
static void
format_raw_tensor (GString      *out,
                   const guint8 *buf,
                   gsize         len)
{
  g_autoptr(GString) dims = g_string_new (NULL);
  g_autoptr(GString) values = g_string_new (NULL);
  WireField field;
  gsize pos = 0;
  gboolean debugger = FALSE;
  guint n_dims = 0, n_values = 0;
  int dtype = 0;
  Slice content = { NULL, 0 };
  guint dims_field;

  while (next_field (buf, len, &pos, &field))
    if (field.field == 5 && field.wire_type == 0)
      debugger = TRUE;
  dims_field = debugger ? 4 : 1;

  pos = 0;
  while (next_field (buf, len, &pos, &field))
    {
      WireField as_int = field;

      if (field.field == dims_field)
        {
          as_int.field = 11;
          append_numbers (dims, &as_int, &n_dims);
        }
      else if (debugger && field.field == 5)
        dtype = (int) field.value;
      else if (debugger && field.field == 3)
        content = field.bytes;
      else if (!debugger && field.field == 2)
        dtype = (int) field.value;
      else if (!debugger && field.field >= 3 && field.field <= 7 && n_values == 0)
        {
          static const guint as[] = { [3] = 13, [4] = 11, [5] = 11, [6] = 14, [7] = 12 };

          as_int.field = as[field.field];
          append_numbers (values, &as_int, &n_values);
        }
      else if (!debugger && field.field == 8)
        content = field.bytes;
    }

  g_string_append_printf (out, "Tensor(%s, [%s])", sl_graph_dtype_to_string (dtype), dims->str);
  if (n_values > 0)
    g_string_append_printf (out, " = [%s%s]", values->str, n_values > MAX_SHOWN_VALUES ? ", …" : "");
  else if (content.data != NULL)
    append_content (out, &content, dtype);
}

static void format_raw_value (GString *out, const guint8 *buf, gsize len, guint depth);

/* The string of field @wanted in a message, or "". */
static char *
dup_string_field (const Slice *message,
                  guint        wanted)
{
  WireField field;
  gsize pos = 0;

  while (next_field (message->data, message->len, &pos, &field))
    if (field.field == wanted && field.wire_type == 2)
      return g_strndup ((const char *) field.bytes.data, field.bytes.len);
  return g_strdup ("");
}

static void
format_dict_entry (GString     *out,
                   const Slice *entry,
                   guint        depth)
{
  g_autofree char *key = dup_string_field (entry, 1);
  WireField field;
  gsize pos = 0;

  g_string_append_printf (out, "%s: ", key);
  while (next_field (entry->data, entry->len, &pos, &field))
    if (field.field == 2 && field.wire_type == 2)
      format_raw_value (out, field.bytes.data, field.bytes.len, depth + 1);
}

/* Which member says what the value is: the nested ones first, then the
 * scalars, then the lists, whatever dtype claims. */
static guint
main_field (const guint8 *buf,
            gsize         len)
{
  static const guint8 rank[21] = { [18] = 1, [19] = 1, [2] = 2, [3] = 2, [4] = 2, [5] = 2, [6] = 2, [7] = 2,
                                   [8] = 2, [9] = 2, [10] = 3, [11] = 3, [12] = 3, [13] = 3, [14] = 3,
                                   [15] = 3, [16] = 3, [17] = 3, [20] = 4 };
  WireField field;
  gsize pos = 0;
  guint best = 0;

  while (next_field (buf, len, &pos, &field))
    if (field.field <= 20 && rank[field.field] != 0 && (best == 0 || rank[field.field] < rank[best]))
      best = field.field;
  return best;
}

static void
format_member (GString         *out,
               const WireField *field,
               guint           *count,
               guint            depth)
{
  float f;
  double d;
  guint32 bits = (guint32) field->value;

  switch (field->field)
    {
    case 2: g_string_append (out, field->value ? "True" : "False"); break;
    case 3: g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) field->value); break;
    case 4: g_string_append_printf (out, "%" G_GUINT64_FORMAT, field->value); break;
    case 5: memcpy (&f, &bits, 4); g_string_append_printf (out, "%g", (double) f); break;
    case 6: memcpy (&d, &field->value, 8); g_string_append_printf (out, "%g", d); break;
    case 7: g_string_append_len (out, (const char *) field->bytes.data, field->bytes.len); break;
    case 8: format_raw_tensor (out, field->bytes.data, field->bytes.len); break;
    case 9:
      {
        g_autofree char *name = dup_string_field (&field->bytes, 2);

        g_string_append_printf (out, "Graph(%s)", name);
        break;
      }
    case 10: case 11: case 12: case 13: case 14:
      append_numbers (out, field, count);
      break;
    case 15:
      if ((*count)++ < MAX_SHOWN_VALUES)
        {
          append_separator (out, *count - 1);
          g_string_append_len (out, (const char *) field->bytes.data, field->bytes.len);
        }
      break;
    case 16:
    case 17:
      if ((*count)++ < MAX_SHOWN_VALUES)
        {
          append_separator (out, *count - 1);
          format_member (out, &(WireField) { field->field - 8, 2, 0, field->bytes }, count, depth);
        }
      break;
    case 18:
      if ((*count)++ < MAX_SHOWN_VALUES)
        {
          append_separator (out, *count - 1);
          format_raw_value (out, field->bytes.data, field->bytes.len, depth + 1);
        }
      break;
    case 19:
      if ((*count)++ < MAX_SHOWN_VALUES)
        {
          append_separator (out, *count - 1);
          format_dict_entry (out, &field->bytes, depth);
        }
      break;
    case 20:
      {
        WireField inner;
        gsize pos = 0;
        guint64 type = 0;

        while (next_field (field->bytes.data, field->bytes.len, &pos, &inner))
          if (inner.field == 1 && inner.wire_type == 0)
            type = inner.value;
        g_string_append (out, sl_graph_dtype_to_string ((int) type));
        break;
      }
    default:
      break;
    }
}

static void
format_raw_value (GString      *out,
                  const guint8 *buf,
                  gsize         len,
                  guint         depth)
{
  WireField field;
  gsize pos = 0;
  guint64 dtype = 0;
  guint wanted, count = 0;
  gboolean list;
  const char *open, *close;

  if (depth >= MAX_FORMAT_DEPTH)
    {
      g_string_append (out, "…");
      return;
    }
  while (next_field (buf, len, &pos, &field))
    if (field.field == 1 && field.wire_type == 0)
      dtype = field.value;
  wanted = main_field (buf, len);
  if (wanted == 0)
    {
      g_string_append (out, dtype == MINDINSIGHT__DATA_TYPE__DT_NONE ? "None" : sl_graph_dtype_to_string ((int) dtype));
      return;
    }

  list = wanted >= 10 && wanted <= 19;
  open = wanted == 19 ? "{" : (wanted == 18 && dtype != MINDINSIGHT__DATA_TYPE__DT_LIST) ? "(" : "[";
  close = wanted == 19 ? "}" : (wanted == 18 && dtype != MINDINSIGHT__DATA_TYPE__DT_LIST) ? ")" : "]";
  if (list)
    g_string_append (out, open);
  pos = 0;
  while (next_field (buf, len, &pos, &field))
    {
      if (field.field != wanted)
        continue;
      format_member (out, &field, &count, depth);
      if (!list)
        break;
    }
  if (list && count > MAX_SHOWN_VALUES)
    g_string_append (out, ", …");
  if (list)
    g_string_append (out, close);
}

static char *
value_to_text (const ProtobufCBinaryData *value,
               gboolean                   present)
{
  GString *out = g_string_new (NULL);

  if (present)
    format_raw_value (out, value->data, value->len, 0);
  return g_string_free (out, FALSE);
}

/* The dtype and dims of a constant, from its value's bytes. */
static void
add_const_output (SlGraphBuilder            *builder,
                  const ProtobufCBinaryData *value)
{
  g_autoptr(GArray) dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  WireField field, inner;
  gsize pos = 0;
  guint64 dtype = 0, tensor_dtype = 0;
  gboolean tensor = FALSE;

  while (next_field (value->data, value->len, &pos, &field))
    {
      gsize at = 0;
      gboolean debugger = FALSE;

      if (field.field == 1 && field.wire_type == 0)
        dtype = field.value;
      if (field.field != 8 || field.wire_type != 2)
        continue;
      tensor = TRUE;
      while (next_field (field.bytes.data, field.bytes.len, &at, &inner))
        debugger |= inner.field == 5 && inner.wire_type == 0;
      at = 0;
      while (next_field (field.bytes.data, field.bytes.len, &at, &inner))
        {
          if (inner.field == (debugger ? 5u : 2u) && inner.wire_type == 0)
            tensor_dtype = inner.value;
          else if (inner.field == (debugger ? 4u : 1u) && inner.wire_type == 0)
            g_array_append_val (dims, (gint64) { (gint64) inner.value });
          else if (inner.field == (debugger ? 4u : 1u) && inner.wire_type == 2)
            for (gsize p = 0; p < inner.bytes.len;)
              {
                guint64 d;

                if (!read_varint (inner.bytes.data, inner.bytes.len, &p, &d))
                  break;
                g_array_append_val (dims, (gint64) { (gint64) d });
              }
        }
    }
  sl_graph_builder_add_output (builder, tensor ? (int) tensor_dtype : (int) MIN (dtype, G_MAXINT),
                               (const gint64 *) dims->data, dims->len);
}

/* Elements into the builder */

static void
add_type_outputs (SlGraphBuilder               *builder,
                  const Mindinsight__TypeProto *type,
                  guint                         depth)
{
  if (type == NULL)
    return;
  if (type->value_case == MINDINSIGHT__TYPE_PROTO__VALUE_TENSOR_TYPE && type->tensor_type != NULL)
    {
      const Mindinsight__TensorShapeProto *shape = type->tensor_type->shape;
      gsize n = shape != NULL ? shape->n_dim : 0;
      g_autofree gint64 *dims = g_new (gint64, MAX (n, 1));

      for (gsize i = 0; i < n; i++)
        dims[i] = shape->dim[i]->size;
      sl_graph_builder_add_output (builder, type->tensor_type->elem_type, dims, n);
      return;
    }
  if (type->value_case == MINDINSIGHT__TYPE_PROTO__VALUE_SEQUENCE_TYPE && type->sequence_type != NULL)
    {
      if (depth >= MAX_FORMAT_DEPTH)
        return;
      for (gsize i = 0; i < type->sequence_type->n_elem_types; i++)
        add_type_outputs (builder, type->sequence_type->elem_types[i], depth + 1);
      return;
    }
  sl_graph_builder_add_output (builder, type->data_type, NULL, 0);
}

static void
add_node (SlGraphBuilder                     *builder,
          const Mindinsight__ReaderNodeProto *node)
{
  sl_graph_builder_begin_op (builder, node->name, node->op_type, node->scope, node->full_name,
                             node->instance_name, node->source_address);
  for (gsize i = 0; i < node->n_input; i++)
    sl_graph_builder_add_input (builder, node->input[i]->name,
                                node->input[i]->type == MINDINSIGHT__INPUT_PROTO__EDGE_TYPE__CONTROL_EDGE ?
                                SL_GRAPH_EDGE_CONTROL : SL_GRAPH_EDGE_DATA);
  for (gsize i = 0; i < node->n_attribute; i++)
    {
      g_autofree char *text = value_to_text (&node->attribute[i]->value, node->attribute[i]->has_value);

      sl_graph_builder_add_attribute (builder, node->attribute[i]->name, text);
    }
  add_type_outputs (builder, node->output_type, 0);
}

static void
add_parameter (SlGraphBuilder                          *builder,
               const Mindinsight__ReaderParameterProto *parameter)
{
  sl_graph_builder_begin_parameter (builder, parameter->name);
  if (parameter->has_default_val)
    {
      g_autofree char *text = value_to_text (&parameter->default_val, TRUE);

      sl_graph_builder_add_attribute (builder, "default", text);
    }
  add_type_outputs (builder, parameter->type, 0);
}

static void
add_const (SlGraphBuilder                           *builder,
           const Mindinsight__ReaderNamedValueProto *named)
{
  g_autofree char *text = value_to_text (&named->value, named->has_value);

  sl_graph_builder_begin_const (builder, named->key, text);
  if (named->has_value)
    add_const_output (builder, &named->value);
}

static void
add_graph (SlGraphBuilder                      *builder,
           const Mindinsight__ReaderGraphProto *graph)
{
  sl_graph_builder_set_name (builder, graph->name, graph->root_name);
  for (gsize i = 0; i < graph->n_node; i++)
    add_node (builder, graph->node[i]);
  for (gsize i = 0; i < graph->n_parameters; i++)
    add_parameter (builder, graph->parameters[i]);
  for (gsize i = 0; i < graph->n_const_vals; i++)
    add_const (builder, graph->const_vals[i]);
}

/* One way of reading the bytes */

typedef struct {
  SlGraphBuilder *builder;
  const char     *path;
  guint           n_nodes;
  guint           n_damaged;
  gchar          *name;
  gchar          *root_name;
} Reading;

static void
reading_clear (Reading *reading)
{
  g_clear_pointer (&reading->builder, sl_graph_builder_free);
  g_clear_pointer (&reading->name, g_free);
  g_clear_pointer (&reading->root_name, g_free);
}

static void
report (Reading    *reading,
        gsize       offset,
        const char *reason)
{
  g_autofree char *message = g_strdup_printf (_("The graph is damaged at byte %llu: %s."),
                                              (unsigned long long) offset, _(reason));
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Graph reader"),
                                                 reading->path, offset, message);

  sl_graph_builder_add_problem (reading->builder, problem);
  reading->n_damaged++;
}

/* One element of a GraphProto, checked, then unpacked alone. */
static void
recover_element (Reading      *reading,
                 guint         field,
                 const guint8 *buf,
                 gsize         len,
                 gsize         base)
{
  static const Message messages[] = { [1] = M_NODE, [3] = M_PARAM, [4] = M_OUTPUT, [5] = M_NAMED };
  Damage damage = { 0 };
  ProtobufCMessage *unpacked = NULL;

  if (!walk (buf, len, messages[field], 1, base, &damage))
    {
      report (reading, damage.offset, damage.reason);
      return;
    }
  if (field == 1)
    unpacked = (ProtobufCMessage *) mindinsight__reader_node_proto__unpack (NULL, len, buf);
  else if (field == 3)
    unpacked = (ProtobufCMessage *) mindinsight__reader_parameter_proto__unpack (NULL, len, buf);
  else if (field == 5)
    unpacked = (ProtobufCMessage *) mindinsight__reader_named_value_proto__unpack (NULL, len, buf);
  else
    return;  /* outputs are not kept */

  if (unpacked == NULL)
    {
      report (reading, base, reason_unpack);
      return;
    }
  if (field == 1)
    {
      add_node (reading->builder, (Mindinsight__ReaderNodeProto *) unpacked);
      reading->n_nodes++;
    }
  else if (field == 3)
    add_parameter (reading->builder, (Mindinsight__ReaderParameterProto *) unpacked);
  else
    add_const (reading->builder, (Mindinsight__ReaderNamedValueProto *) unpacked);
  protobuf_c_message_free_unpacked (unpacked, NULL);
}

static char *
dup_bytes (const guint8 *buf,
           gsize         len)
{
  return g_strndup ((const char *) buf, len);
}

/* Field by field: broken elements are skipped while the framing holds;
 * where it breaks, the reading stops. */
static void
recover_graph (Reading      *reading,
               const guint8 *buf,
               gsize         len,
               gsize         base)
{
  gsize pos = 0;

  while (pos < len)
    {
      gsize start = pos;
      guint64 tag, length;
      guint field;

      if (!read_varint (buf, len, &pos, &tag) || (tag >> 3) == 0)
        {
          report (reading, base + start, reason_tag);
          return;
        }
      field = (tag >> 3) <= 6 ? (guint) (tag >> 3) : 0;
      if ((tag & 7) != 2)
        {
          if (!skip_scalar (buf, len, &pos, tag & 7))
            {
              report (reading, base + start, reason_length);
              return;
            }
          if (field != 0)
            report (reading, base + start, reason_wire_type);
          continue;
        }
      if (!read_varint (buf, len, &pos, &length) || length > len - pos)
        {
          report (reading, base + start, reason_length);
          return;
        }
      if (field == 2)
        {
          g_free (reading->name);
          reading->name = dup_bytes (buf + pos, length);
        }
      else if (field == 6)
        {
          g_free (reading->root_name);
          reading->root_name = dup_bytes (buf + pos, length);
        }
      else if (field != 0)
        recover_element (reading, field, buf + pos, length, base + pos);
      pos += length;
    }
}

static void
read_graph (Reading      *reading,
            const guint8 *buf,
            gsize         len,
            gsize         base)
{
  Damage damage = { 0 };
  Mindinsight__ReaderGraphProto *graph = NULL;

  if (walk (buf, len, M_GRAPH, 1, base, &damage))
    graph = mindinsight__reader_graph_proto__unpack (NULL, len, buf);
  if (graph != NULL)
    {
      add_graph (reading->builder, graph);
      reading->n_nodes += graph->n_node;
      mindinsight__reader_graph_proto__free_unpacked (graph, NULL);
      return;
    }
  recover_graph (reading, buf, len, base);
  sl_graph_builder_set_name (reading->builder, reading->name, reading->root_name);
}

/* A ModelProto: only its graph (field 4) matters. A graph cut off by the
 * end of the bytes is read as far as it goes. */
static void
read_model (Reading      *reading,
            const guint8 *buf,
            gsize         len)
{
  gsize pos = 0;

  while (pos < len)
    {
      gsize start = pos;
      guint64 tag, length;

      if (!read_varint (buf, len, &pos, &tag) || (tag >> 3) == 0)
        {
          report (reading, start, reason_tag);
          return;
        }
      if ((tag & 7) != 2)
        {
          if ((tag >> 3) == 4 || (tag >> 3) == 2 || (tag >> 3) == 5 ||
              !skip_scalar (buf, len, &pos, tag & 7))
            {
              report (reading, start, (tag >> 3) <= 5 ? reason_wire_type : reason_length);
              return;
            }
          continue;
        }
      if ((tag >> 3) == 1 || (tag >> 3) == 3)
        {
          report (reading, start, reason_wire_type);
          return;
        }
      if (!read_varint (buf, len, &pos, &length))
        {
          report (reading, start, reason_length);
          return;
        }
      if (length > len - pos)
        {
          report (reading, start, reason_length);
          if ((tag >> 3) == 4)
            read_graph (reading, buf + pos, len - pos, pos);
          return;
        }
      if ((tag >> 3) == 4)
        read_graph (reading, buf + pos, length, pos);
      pos += length;
    }
}

static gboolean
better (const Reading *a,
        const Reading *b)
{
  if (a->n_nodes != b->n_nodes)
    return a->n_nodes > b->n_nodes;
  return a->n_damaged < b->n_damaged;
}

/**
 * sl_graph_reader_decode_data:
 * @path: the file the bytes came from, for problems
 *
 * Decodes a GraphProto or ModelProto (see the file comment for which),
 * or a TensorFlow GraphDef when sl_graph_def_sniff() says it is one.
 *
 * Returns: (transfer full) (nullable): the graph, with problems for any
 *   damage; %NULL when nothing at all could be read
 */
SlGraph *
sl_graph_reader_decode_data (const guint8  *data,
                             gsize          size,
                             const char    *path,
                             GError       **error)
{
  Reading as_graph = { sl_graph_builder_new (), path ? path : "", 0, 0, NULL, NULL };
  Reading as_model = { sl_graph_builder_new (), path ? path : "", 0, 0, NULL, NULL };
  Reading *winner;
  SlGraph *graph = NULL;

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  sl_graph_builder_set_path (as_graph.builder, path);
  sl_graph_builder_set_path (as_model.builder, path);

  if (sl_graph_def_sniff (data, size))
    {
      reading_clear (&as_graph);
      reading_clear (&as_model);
      return sl_graph_def_decode (data, size, path, error);
    }

  read_graph (&as_graph, data, size, 0);
  read_model (&as_model, data, size);
  winner = better (&as_model, &as_graph) ? &as_model : &as_graph;

  if (winner->n_damaged > 0 && sl_graph_builder_get_n_elements (winner->builder) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” holds no MindSpore graph that can be read."), path ? path : "");
    }
  else
    {
      graph = sl_graph_builder_finish (winner->builder);
    }
  reading_clear (&as_graph);
  reading_clear (&as_model);
  return graph;
}

SlGraph *
sl_graph_reader_decode (GBytes      *bytes,
                        const char  *path,
                        GError     **error)
{
  gsize size;
  const guint8 *data;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &size);
  return sl_graph_reader_decode_data (data != NULL ? data : (const guint8 *) "", size, path, error);
}

/* Model formats with readers of their own, recognised by their file name
 * or their content, each with its sniff. */
typedef struct {
  const char *suffix;
  gboolean  (*sniff)  (const guint8 *data, gsize size);
  SlGraph  *(*decode) (const guint8 *data, gsize size, const char *path, GError **error);
  /* Instead of decode, for formats that hold several graphs */
  GPtrArray *(*decode_graphs) (const guint8 *data, gsize size, const char *path, GError **error);
} ModelFormat;

static const ModelFormat model_formats[] = {
  /* Sniffed in this order: OM by its magic, AIR before ONNX (see
   * sl-proto-shape.c). */
  { ".om", sl_om_sniff, sl_om_decode, NULL },
  { ".air", sl_air_sniff, sl_air_decode, NULL },
  { ".onnx", sl_onnx_sniff, sl_onnx_decode, NULL },
  { ".mindir", sl_mindir_sniff, sl_mindir_decode, NULL },
  { "saved_model.pb", sl_saved_model_sniff, NULL, sl_saved_model_decode_graphs },
  { ".pbtxt", sl_graph_def_text_sniff, sl_graph_def_text_decode, NULL },
};

static const ModelFormat *
find_model_format (const char   *path,
                   const guint8 *data,
                   gsize         size)
{
  for (guint i = 0; i < G_N_ELEMENTS (model_formats); i++)
    if (g_str_has_suffix (path, model_formats[i].suffix))
      return &model_formats[i];
  for (guint i = 0; data != NULL && i < G_N_ELEMENTS (model_formats); i++)
    if (model_formats[i].sniff (data, size))
      return &model_formats[i];
  return NULL;
}

static gboolean
is_model_file (const char *path)
{
  for (guint i = 0; i < G_N_ELEMENTS (model_formats); i++)
    if (g_str_has_suffix (path, model_formats[i].suffix))
      return TRUE;
  return FALSE;
}

/* A model file, or a .pb holding a model of one of those formats. */
static gboolean
load_model (const char  *path,
            GPtrArray   *graphs,
            GError     **error)
{
  g_autoptr(GMappedFile) file = sl_input_file_map (path, error);
  const ModelFormat *format;
  const guint8 *data;
  gsize size;
  SlGraph *graph;

  if (file == NULL)
    return FALSE;
  data = (const guint8 *) g_mapped_file_get_contents (file);
  size = g_mapped_file_get_length (file);
  format = find_model_format (path, data, size);
  if (format != NULL && format->decode_graphs != NULL)
    {
      g_autoptr(GPtrArray) found = format->decode_graphs (data != NULL ? data : (const guint8 *) "", size, path,
                                                          error);

      if (found == NULL)
        return FALSE;
      for (guint i = 0; i < found->len; i++)
        g_ptr_array_add (graphs, g_object_ref (g_ptr_array_index (found, i)));
      return TRUE;
    }
  if (format == NULL)
    {
      g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (file);

      /* The detector's verdict on the same head: what it does not list as
       * a graph is not opened as one; a graph cut off is read as far as it
       * goes. */
      if (sl_proto_shape_get_graph_format (g_bytes_get_data (bytes, NULL),
                                           MIN (g_bytes_get_size (bytes), SL_SNIFFER_HEAD_SIZE), FALSE) == NULL)
        {
          g_autofree char *formats = sl_proto_shape_dup_graph_formats ();

          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“%s” is not a model or graph Sightline reads. It reads these .pb formats: %s."),
                       path, formats);
          return FALSE;
        }
      graph = sl_graph_reader_decode (bytes, path, error);
    }
  else
    graph = format->decode (data != NULL ? data : (const guint8 *) "", size, path, error);
  if (graph == NULL)
    return FALSE;
  /* An empty graph would look like a model without ops: say there is none. */
  if (sl_graph_get_n_elements (graph) == 0)
    {
      g_object_unref (graph);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” holds no graph: it has no node."), path);
      return FALSE;
    }
  g_ptr_array_add (graphs, graph);
  return TRUE;
}

/* A file or graph that could not be read at all, beside others that
 * were: in @problems when asked for, else in the log as before. */
static void
report_unread (GPtrArray  *problems,
               const char *path,
               GError     *error)
{
  if (problems == NULL)
    {
      g_warning ("%s", error->message);
      return;
    }
  g_ptr_array_add (problems, sl_problem_new (SL_SEVERITY_ERROR, _("Graph reader"), path, -1, error->message));
}

static gboolean
load_summaries (const char    *path,
                GPtrArray     *graphs,
                GPtrArray     *problems,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(SlSummaryReader) reader = sl_summary_reader_new (path);
  GPtrArray *runs;

  if (!sl_summary_reader_update (reader, cancellable, error))
    return FALSE;
  runs = sl_summary_reader_get_runs (reader);
  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);
      GPtrArray *blobs = sl_summary_run_get_graphs (run);
      GPtrArray *read_problems = sl_summary_run_get_problems (run);

      /* Damaged records skipped may have held a graph: what the summary
       * reader met is kept, graph or not. */
      for (guint i = 0; problems != NULL && i < read_problems->len; i++)
        g_ptr_array_add (problems, g_object_ref (g_ptr_array_index (read_problems, i)));

      for (guint i = 0; i < blobs->len; i++)
        {
          SlSummaryBlob *blob = g_ptr_array_index (blobs, i);
          g_autoptr(GError) local_error = NULL;
          SlGraph *graph = sl_graph_reader_decode (blob->bytes, sl_summary_run_get_path (run), &local_error);

          if (graph != NULL)
            g_ptr_array_add (graphs, graph);
          else
            report_unread (problems, sl_summary_run_get_path (run), local_error);
        }
    }
  return TRUE;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* The .pb files directly in a folder, sorted by name. */
static gboolean
load_folder_pbs (const char  *path,
                 GPtrArray   *graphs,
                 GPtrArray   *problems,
                 GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".pb") || is_model_file (name))
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_paths);
  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(GError) local_error = NULL;

      if (!load_model (g_ptr_array_index (names, i), graphs, &local_error))
        report_unread (problems, g_ptr_array_index (names, i), local_error);
    }
  return TRUE;
}

/**
 * sl_graph_reader_load:
 * @path: a .pb file, a model file (.onnx, .air, .om, .mindir, saved_model.pb,
 *   .pbtxt), a summary file, a SavedModel folder or a folder of summaries
 *   (whose own .pb and model files are read too); a .pb that holds an ONNX,
 *   AIR, OM or MindIR model or a SavedModel is read as one
 *
 * Returns: (transfer container) (element-type SlGraph): the graphs in
 *   file order, or %NULL with @error when @path cannot be read at all
 */
GPtrArray *
sl_graph_reader_load (const char    *path,
                      GCancellable  *cancellable,
                      GError       **error)
{
  return sl_graph_reader_load_full (path, NULL, cancellable, error);
}

/**
 * sl_graph_reader_load_full:
 * @problems: (nullable) (element-type SlProblem): gets what the readers
 *   met outside the graphs returned, such as a summary record whose
 *   checksum fails, each with its file and byte, or a file of the folder
 *   that could not be read
 *
 * As sl_graph_reader_load(); a graph's own problems stay in the graph.
 */
GPtrArray *
sl_graph_reader_load_full (const char    *path,
                           GPtrArray     *problems,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autoptr(GPtrArray) graphs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) summary_error = NULL;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR) && (g_str_has_suffix (path, ".pb") || is_model_file (path)))
    return load_model (path, graphs, error) ? g_steal_pointer (&graphs) : NULL;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *saved_model = g_build_filename (path, "saved_model.pb", NULL);

      /* A SavedModel folder: its other .pb files (fingerprint.pb) are no graphs. */
      if (g_file_test (saved_model, G_FILE_TEST_IS_REGULAR))
        return load_model (saved_model, graphs, error) ? g_steal_pointer (&graphs) : NULL;
      if (!load_folder_pbs (path, graphs, problems, error))
        return NULL;
      /* A folder of .pb files alone holds no summary: not an error. */
      if (!load_summaries (path, graphs, problems, cancellable, &summary_error) && graphs->len == 0)
        {
          g_propagate_error (error, g_steal_pointer (&summary_error));
          return NULL;
        }
      return g_steal_pointer (&graphs);
    }

  if (!load_summaries (path, graphs, problems, cancellable, error))
    return NULL;
  return g_steal_pointer (&graphs);
}
