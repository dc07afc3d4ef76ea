/* sl-onnx-values.c: ONNX types, tensors and attributes as text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the graph view shows of them: "float32[N, 3, 224, 224]",
 * "sequence<float32[?]>", "tensor float32[3, 3] = [1, 2, …]",
 * "kernel_shape: [3, 3]", "mode: \"constant\"", "then_branch: graph then
 * (3 nodes)". Lists are shown up to MAX_SHOWN_VALUES values, strings up to
 * MAX_SHOWN_BYTES bytes; nested types to MAX_TYPE_DEPTH levels. Every
 * field is bounds-checked; on malformed bytes a function returns FALSE
 * with the damage.
 */
#include "config.h"

#include <string.h>
#include <glib.h>

#include "sl-graph.h"
#include "sl-onnx-values.h"
#include "sl-proto-graph.h"

#define MAX_SHOWN_VALUES 16
#define MAX_SHOWN_TENSOR_VALUES 8
#define MAX_SHOWN_BYTES 256
#define MAX_TYPE_DEPTH 8

typedef SlProtoSlice Slice;
typedef SlProtoField Field;
typedef SlProtoDamage Damage;

static void
append_separator (GString *out,
                  guint    index)
{
  if (index > 0)
    g_string_append (out, ", ");
}

static void
append_bytes (GString     *out,
              const Slice *bytes)
{
  gsize len = sl_proto_graph_shown (bytes, MAX_SHOWN_BYTES).len;
  g_autofree char *raw = NULL, *valid = NULL, *escaped = NULL;

  raw = g_strndup ((const char *) bytes->data, len);
  valid = g_utf8_make_valid (raw, -1);
  escaped = g_strescape (valid, "\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f"
                                "\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f"
                                "\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\xac\xad\xae\xaf"
                                "\xb0\xb1\xb2\xb3\xb4\xb5\xb6\xb7\xb8\xb9\xba\xbb\xbc\xbd\xbe\xbf"
                                "\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7\xc8\xc9\xca\xcb\xcc\xcd\xce\xcf"
                                "\xd0\xd1\xd2\xd3\xd4\xd5\xd6\xd7\xd8\xd9\xda\xdb\xdc\xdd\xde\xdf"
                                "\xe0\xe1\xe2\xe3\xe4\xe5\xe6\xe7\xe8\xe9\xea\xeb\xec\xed\xee\xef"
                                "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff");
  g_string_append_printf (out, "\"%s\"%s", escaped, len < bytes->len ? "…" : "");
}

/* ONNX's TensorProto.DataType: names, and the model's DataType. */
static const char * const onnx_type_names[] = {
  "undefined", "float32", "uint8", "int8", "uint16", "int16", "int32", "int64", "string", "bool",
  "float16", "float64", "uint32", "uint64", "complex64", "complex128", "bfloat16", "float8e4m3fn",
  "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4", "int4", "float4e2m1",
};

/* The graph model's DataType for an ONNX one (sl-graph.h), 0 if none. */
int
sl_onnx_model_dtype (guint64 type)
{
  static const guint8 to_model[] = {
    0, 11, 6, 2, 7, 3, 4, 5, 13, 1, 10, 12, 8, 9,
    SL_GRAPH_DTYPE_COMPLEX64, SL_GRAPH_DTYPE_COMPLEX128, SL_GRAPH_DTYPE_BFLOAT16,
    SL_GRAPH_DTYPE_FLOAT8E4M3FN, SL_GRAPH_DTYPE_FLOAT8E4M3FNUZ, SL_GRAPH_DTYPE_FLOAT8E5M2,
    SL_GRAPH_DTYPE_FLOAT8E5M2FNUZ, SL_GRAPH_DTYPE_UINT4, SL_GRAPH_DTYPE_INT4, SL_GRAPH_DTYPE_FLOAT4E2M1,
  };

  return type < G_N_ELEMENTS (to_model) ? to_model[type] : 0;
}

static void
append_type_name (GString *out,
                  guint64  type)
{
  if (type < G_N_ELEMENTS (onnx_type_names))
    g_string_append (out, onnx_type_names[type]);
  else
    g_string_append_printf (out, "type%" G_GUINT64_FORMAT, type);
}

typedef enum { NUM_INT = 1, NUM_F32, NUM_F64, NUM_UINT } NumberKind;

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
    case NUM_F32: memcpy (&f, &bits, 4); g_string_append_printf (out, "%g", (double) f); break;
    case NUM_F64: memcpy (&d, &value, 8); g_string_append_printf (out, "%g", d); break;
    default: break;
    }
}

/* The values of a repeated scalar field, counted in *@count and shown up
 * to @max. */
static gboolean
append_numbers (GString     *out,
                const Field *f,
                NumberKind   kind,
                guint       *count,
                guint        max,
                Damage      *damage)
{
  guint width = kind == NUM_F32 ? 4 : kind == NUM_F64 ? 8 : 0;
  guint64 value;
  gsize pos = 0;

  while (sl_proto_packed_next (f, width, &pos, &value, damage))
    if ((*count)++ < max)
      {
        append_separator (out, *count - 1);
        append_number (out, kind, value);
      }
  return damage->reason == NULL;
}

/* TensorShapeProto: dims into @dims (-1 when not a number) and as text
 * ("[N, 3, 224, 224]", "?" for a dimension without value or name). */
static gboolean
read_shape (const Slice *shape,
            GString     *text,
            GArray      *dims,
            Damage      *damage)
{
  Field f, g;
  guint n = 0;

  g_string_append_c (text, '[');
  SL_PROTO_FOR_FIELDS (shape, pos, &f, damage)
    {
      gint64 size = -1;
      g_autofree char *param = NULL;

      if (f.field != 1)
        continue;
      if (!sl_proto_expect_wire (&f, 2, damage))
        return FALSE;
      SL_PROTO_FOR_FIELDS (&f.bytes, inner, &g, damage)
        {
          if (g.field == 1)
            {
              if (!sl_proto_expect_wire (&g, 0, damage))
                return FALSE;
              size = (gint64) g.value;
            }
          else if (g.field == 2)
            {
              if (!sl_proto_expect_wire (&g, 2, damage))
                return FALSE;
              g_free (param);
              param = sl_proto_dup_text (&g.bytes);
            }
        }
      if (damage->reason != NULL)
        return FALSE;
      append_separator (text, n++);
      if (size >= 0)
        g_string_append_printf (text, "%" G_GINT64_FORMAT, size);
      else if (param != NULL && param[0] != '\0')
        g_string_append (text, param);
      else
        g_string_append_c (text, '?');
      if (dims != NULL)
        g_array_append_val (dims, size);
    }
  if (damage->reason != NULL)
    return FALSE;
  g_string_append_c (text, ']');
  return TRUE;
}

/* TypeProto as text ("float32[N, 3]", "sequence<float32[?]>", "map<int64,
 * float32[]>"); a tensor type's dtype and dims go to @dtype and @dims. */
gboolean
sl_onnx_read_type (const Slice *type,
                   GString     *text,
                   int         *dtype,
                   GArray      *dims,
                   guint        depth,
                   Damage      *damage)
{
  Field f, g;
  static const char * const wrappers[] = { [4] = "sequence", [5] = "map", [8] = "sparse ", [9] = "optional" };

  if (depth > MAX_TYPE_DEPTH)
    {
      g_string_append (text, "…");
      return TRUE;
    }
  SL_PROTO_FOR_FIELDS (type, pos, &f, damage)
    {
      if (f.field == 1 || f.field == 8)
        {
          guint64 elem = 0;
          g_autoptr(GString) shape = g_string_new (NULL);
          gboolean has_shape = FALSE;

          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          SL_PROTO_FOR_FIELDS (&f.bytes, inner, &g, damage)
            {
              if (g.field == 1)
                {
                  if (!sl_proto_expect_wire (&g, 0, damage))
                    return FALSE;
                  elem = g.value;
                }
              else if (g.field == 2)
                {
                  if (!sl_proto_expect_wire (&g, 2, damage))
                    return FALSE;
                  g_string_truncate (shape, 0);
                  if (dims != NULL && depth == 0)
                    g_array_set_size (dims, 0);
                  if (!read_shape (&g.bytes, shape, depth == 0 ? dims : NULL, damage))
                    return FALSE;
                  has_shape = TRUE;
                }
            }
          if (damage->reason != NULL)
            return FALSE;
          if (f.field == 8)
            g_string_append (text, wrappers[8]);
          append_type_name (text, elem);
          /* No shape at all: the rank is unknown. */
          g_string_append (text, has_shape ? shape->str : "[…]");
          if (dtype != NULL && depth == 0)
            *dtype = sl_onnx_model_dtype (elem);
        }
      else if (f.field == 4 || f.field == 5 || f.field == 9)
        {
          guint n = 0;

          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          g_string_append_printf (text, "%s<", wrappers[f.field]);
          SL_PROTO_FOR_FIELDS (&f.bytes, inner, &g, damage)
            {
              if (f.field == 5 && g.field == 1 && g.wire_type == 0)
                {
                  append_separator (text, n++);
                  append_type_name (text, g.value);
                }
              else if (g.field == (f.field == 5 ? 2u : 1u))
                {
                  if (!sl_proto_expect_wire (&g, 2, damage))
                    return FALSE;
                  append_separator (text, n++);
                  if (!sl_onnx_read_type (&g.bytes, text, NULL, NULL, depth + 1, damage))
                    return FALSE;
                }
            }
          if (damage->reason != NULL)
            return FALSE;
          g_string_append_c (text, '>');
        }
    }
  return damage->reason == NULL;
}

/* Frees what sl_onnx_read_tensor() filled in. */
void
sl_onnx_tensor_clear (SlOnnxTensor *t)
{
  g_clear_pointer (&t->dims, g_array_unref);
  if (t->values != NULL)
    g_string_free (g_steal_pointer (&t->values), TRUE);
  g_clear_pointer (&t->location, g_free);
  g_clear_pointer (&t->offset, g_free);
  g_clear_pointer (&t->length, g_free);
}


static gsize
raw_width (guint64 type)
{
  switch (type)
    {
    case 2: case 3: case 9: return 1;
    case 4: case 5: case 10: case 16: return 2;
    case 1: case 6: case 12: return 4;
    case 7: case 11: case 13: return 8;
    default: return 0;
    }
}

static float
half_to_float (guint16 h,
               gboolean bfloat)
{
  guint32 sign = (guint32) (h & 0x8000) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  guint32 bits;
  float f;

  if (bfloat)
    bits = (guint32) h << 16;
  else if (exponent == 0)
    return (sign ? -1.f : 1.f) * (float) mantissa / (1 << 24);
  else if (exponent == 31)
    bits = sign | 0x7f800000 | (mantissa << 13);
  else
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  memcpy (&f, &bits, 4);
  return f;
}

static void
append_raw_value (GString      *out,
                  const guint8 *p,
                  guint64       type)
{
  guint64 v = 0;
  gsize width = raw_width (type);

  memcpy (&v, p, width);
  v = GUINT64_FROM_LE (v);
  switch (type)
    {
    case 1: append_number (out, NUM_F32, v); break;
    case 11: append_number (out, NUM_F64, v); break;
    case 10: case 16: g_string_append_printf (out, "%g", (double) half_to_float ((guint16) v, type == 16)); break;
    case 9: g_string_append (out, v ? "true" : "false"); break;
    case 3: g_string_append_printf (out, "%d", (gint8) v); break;
    case 5: g_string_append_printf (out, "%d", (gint16) v); break;
    case 6: g_string_append_printf (out, "%d", (gint32) v); break;
    case 7: append_number (out, NUM_INT, v); break;
    default: append_number (out, NUM_UINT, v); break;
    }
}

/* A TensorProto: its name, dtype, dims, first values (from the typed
 * lists or raw_data) and where external data lies. */
gboolean
sl_onnx_read_tensor (const Slice  *bytes,
                     SlOnnxTensor *t,
                     Damage       *damage)
{
  Slice raw = { NULL, 0, 0 };
  Field f, g;

  t->dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  t->values = g_string_new (NULL);
  t->name = (Slice) { (const guint8 *) "", 0, bytes->base };
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      /* The typed value lists: float_data 4, int32_data 5, int64_data 7,
       * double_data 10, uint64_data 11. */
      static const guint8 kinds[] = { [4] = NUM_F32, [5] = NUM_INT, [7] = NUM_INT, [10] = NUM_F64, [11] = NUM_UINT };

      switch (f.field)
        {
        case 1:
          {
            guint64 value;
            gsize at = 0;

            while (sl_proto_packed_next (&f, 0, &at, &value, damage))
              {
                gint64 dim = (gint64) value;

                g_array_append_val (t->dims, dim);
              }
            if (damage->reason != NULL)
              return FALSE;
          }
          break;
        case 2:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          t->data_type = f.value;
          break;
        case 6:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          if (t->n_values++ < MAX_SHOWN_TENSOR_VALUES)
            {
              append_separator (t->values, t->n_values - 1);
              append_bytes (t->values, &f.bytes);
            }
          break;
        case 8:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          t->name = f.bytes;
          break;
        case 9:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          raw = f.bytes;
          break;
        case 13:
          {
            g_autofree char *key = NULL, *value = NULL;

            if (!sl_proto_expect_wire (&f, 2, damage))
              return FALSE;
            SL_PROTO_FOR_FIELDS (&f.bytes, inner, &g, damage)
              if (g.field == 1 || g.field == 2)
                {
                  char **to = g.field == 1 ? &key : &value;

                  if (!sl_proto_expect_wire (&g, 2, damage))
                    return FALSE;
                  g_free (*to);
                  *to = sl_proto_dup_text (&g.bytes);
                }
            if (damage->reason != NULL)
              return FALSE;
            {
              char **to = g_strcmp0 (key, "location") == 0 ? &t->location :
                          g_strcmp0 (key, "offset") == 0 ? &t->offset :
                          g_strcmp0 (key, "length") == 0 ? &t->length : NULL;

              if (to != NULL)
                {
                  g_free (*to);
                  *to = g_steal_pointer (&value);
                }
            }
          }
          break;
        case 14:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          t->external = f.value == 1;
          break;
        default:
          if (f.field < G_N_ELEMENTS (kinds) && kinds[f.field] != 0 &&
              !append_numbers (t->values, &f, (NumberKind) kinds[f.field], &t->n_values, MAX_SHOWN_TENSOR_VALUES,
                               damage))
            return FALSE;
          break;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  if (t->n_values == 0 && raw.data != NULL && raw_width (t->data_type) > 0)
    {
      gsize width = raw_width (t->data_type);

      for (gsize i = 0; i * width + width <= raw.len; i++)
        if (t->n_values++ < MAX_SHOWN_TENSOR_VALUES)
          {
            append_separator (t->values, t->n_values - 1);
            append_raw_value (t->values, raw.data + i * width, t->data_type);
          }
    }
  return TRUE;
}

/* "tensor float32[3, 3] = [1, 2, …]" */
void
sl_onnx_append_tensor (GString            *out,
                       const SlOnnxTensor *t)
{
  g_string_append (out, "tensor ");
  append_type_name (out, t->data_type);
  g_string_append_c (out, '[');
  for (guint i = 0; i < t->dims->len; i++)
    {
      append_separator (out, i);
      g_string_append_printf (out, "%" G_GINT64_FORMAT, g_array_index (t->dims, gint64, i));
    }
  g_string_append_c (out, ']');
  if (t->n_values == 1)
    g_string_append_printf (out, " = %s", t->values->str);
  else if (t->n_values > 1)
    g_string_append_printf (out, " = [%s%s]", t->values->str, t->n_values > MAX_SHOWN_TENSOR_VALUES ? ", …" : "");
}


/* Frees what sl_onnx_read_attribute() filled in. */
void
sl_onnx_attribute_clear (SlOnnxAttribute *a)
{
  g_clear_pointer (&a->name, g_free);
  if (a->text != NULL)
    g_string_free (g_steal_pointer (&a->text), TRUE);
  g_clear_pointer (&a->graphs, g_array_unref);
}


/* An AttributeProto: its name, its value as text (whichever member is
 * set, or the default its type implies) and its subgraphs. */
gboolean
sl_onnx_read_attribute (const Slice     *bytes,
                        SlOnnxAttribute *a,
                        Damage          *damage)
{
  g_autoptr(GString) list = g_string_new (NULL);
  g_autoptr(GString) scalar = g_string_new (NULL);
  guint64 type = 0;
  guint count = 0;
  gboolean is_list = FALSE, has_scalar = FALSE;
  Field f;

  a->text = g_string_new (NULL);
  a->graphs = g_array_new (FALSE, FALSE, sizeof (Slice));
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      if (f.bytes.cut && f.field != 6 && f.field != 11)
        continue;
      switch (f.field)
        {
        case 1:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          g_free (a->name);
          a->name = sl_proto_dup_text (&f.bytes);
          break;
        case 20:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          type = f.value;
          break;
        case 21:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          g_string_truncate (scalar, 0);
          g_string_append_c (scalar, '@');
          g_string_append_len (scalar, (const char *) f.bytes.data, f.bytes.len);
          has_scalar = TRUE;
          break;
        case 2:
          if (!sl_proto_expect_wire (&f, 5, damage))
            return FALSE;
          g_string_truncate (scalar, 0);
          append_number (scalar, NUM_F32, f.value);
          has_scalar = TRUE;
          break;
        case 3:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          g_string_truncate (scalar, 0);
          append_number (scalar, NUM_INT, f.value);
          has_scalar = TRUE;
          break;
        case 4:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          g_string_truncate (scalar, 0);
          append_bytes (scalar, &f.bytes);
          has_scalar = TRUE;
          break;
        case 5:
        case 10:
          {
            g_auto(SlOnnxTensor) t = { 0 };

            if (!sl_proto_expect_wire (&f, 2, damage) || !sl_onnx_read_tensor (&f.bytes, &t, damage))
              return FALSE;
            if (f.field == 5)
              {
                g_string_truncate (scalar, 0);
                sl_onnx_append_tensor (scalar, &t);
                has_scalar = TRUE;
              }
            else
              {
                is_list = TRUE;
                if (count++ < MAX_SHOWN_VALUES)
                  {
                    append_separator (list, count - 1);
                    sl_onnx_append_tensor (list, &t);
                  }
              }
          }
          break;
        case 6:
        case 11:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          g_array_append_val (a->graphs, f.bytes);
          if (f.field == 6)
            {
              g_string_truncate (scalar, 0);
              sl_proto_graph_append_summary (scalar, &f.bytes, 1, 2, "node", "nodes");
              has_scalar = TRUE;
            }
          else
            {
              is_list = TRUE;
              if (count++ < MAX_SHOWN_VALUES)
                {
                  append_separator (list, count - 1);
                  sl_proto_graph_append_summary (list, &f.bytes, 1, 2, "node", "nodes");
                }
            }
          break;
        case 7:
        case 8:
          is_list = TRUE;
          if (!append_numbers (list, &f, f.field == 7 ? NUM_F32 : NUM_INT, &count, MAX_SHOWN_VALUES, damage))
            return FALSE;
          break;
        case 9:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          is_list = TRUE;
          if (count++ < MAX_SHOWN_VALUES)
            {
              append_separator (list, count - 1);
              append_bytes (list, &f.bytes);
            }
          break;
        case 14:
        case 15:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          if (f.field == 14)
            {
              g_string_truncate (scalar, 0);
              if (!sl_onnx_read_type (&f.bytes, scalar, NULL, NULL, 0, damage))
                return FALSE;
              has_scalar = TRUE;
            }
          else
            {
              is_list = TRUE;
              if (count++ < MAX_SHOWN_VALUES)
                {
                  append_separator (list, count - 1);
                  if (!sl_onnx_read_type (&f.bytes, list, NULL, NULL, 0, damage))
                    return FALSE;
                }
            }
          break;
        case 22:
        case 23:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          if (f.field == 22)
            {
              g_string_truncate (scalar, 0);
              g_string_append (scalar, "sparse tensor");
              has_scalar = TRUE;
            }
          else
            {
              is_list = TRUE;
              count++;
            }
          break;
        default:
          break;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  if (a->name == NULL)
    a->name = g_strdup ("");

  /* An empty list (type says so) or a scalar left at its default. */
  if (is_list || (!has_scalar && type >= 6 && type != 11 && type != 13))
    g_string_append_printf (a->text, "[%s%s]", list->str, count > MAX_SHOWN_VALUES ? ", …" : "");
  else if (has_scalar)
    g_string_append (a->text, scalar->str);
  else if (type == 1 || type == 2)
    g_string_append_c (a->text, '0');
  else if (type == 3)
    g_string_append (a->text, "\"\"");
  return TRUE;
}

