/* sl-ge-ir-values.c: GE IR (ge.proto) tensors and attributes as text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The messages of GE's ge_ir.proto (package ge.proto) that AIR files and
 * the model-definition partition of OM files hold, by field number:
 *
 *   ModelDef          name 1, version 2 (varint), custom_version 3,
 *                     graph 7 (GraphDef, repeated), attr 11 (map)
 *   GraphDef          name 1, input 4 and output 5 (strings "op:index"),
 *                     op 6 (OpDef, repeated), attr 11 (map)
 *   OpDef             name 1, type 2, input 5 ("op:index", index -1 a
 *                     control edge), attr 10 (map), id 21, stream_id 22,
 *                     input_desc 33, output_desc 34 (TensorDescriptor),
 *                     subgraph_name 35 (names of ModelDef graphs)
 *   AttrDef (one of)  list 1, s 2, i 3, f 4 (float), b 5, bt 7 (bytes),
 *                     func 10 (NamedAttrs), td 11, t 12 (TensorDef),
 *                     g 13 (GraphDef), list_list_int 14, dt 15,
 *                     list_list_float 16
 *   ListValue         s 2, i 3, f 4, b 5, bt 7, td 8, t 9, g 10, na 11,
 *                     dt 12, val_type 20
 *   ListListInt       list_list_i 1 { list_i 1 }; ListListFloat the same
 *   NamedAttrs        name 1, attr 2 (map)
 *   TensorDescriptor  name 1, dtype 2, shape 3 (ShapeDef { dim 1 }),
 *                     layout 4, attr 5 (map), size 10, weight_size 11,
 *                     data_offset 18
 *   TensorDef         desc 1, data 2
 *   map<string, AttrDef> entries: key 1, value 2
 *
 * Texts follow the ONNX reader's: strings quoted and escaped, lists in
 * brackets, tensors as "float16[1, 3, 224, 224] NCHW". Lists of strings
 * are shown whole (up to MAX_SHOWN_STRINGS), since names such as
 * _datadump_original_op_names are what an op is matched by; other lists
 * up to MAX_SHOWN_VALUES values. Attributes nest (func, lists of named
 * attributes) up to MAX_ATTR_DEPTH levels. Every field is bounds-checked;
 * on malformed bytes a function returns FALSE with the damage.
 */
#include "config.h"

#include <string.h>

#include "sl-ge-ir-values.h"
#include "sl-graph.h"
#include "sl-proto-graph.h"

#define MAX_SHOWN_VALUES 64
#define MAX_SHOWN_STRINGS 1024
#define MAX_SHOWN_BYTES 256
#define MAX_ATTR_DEPTH 8

typedef SlProtoSlice Slice;
typedef SlProtoField Field;
typedef SlProtoDamage Damage;

static const char * const ge_type_names[] = {
  "undefined", "float32", "float16", "int8", "uint8", "int16", "uint16", "int32", "int64", "uint32",
  "uint64", "bool", "float64", "string", "dual_sub_int8", "dual_sub_uint8", "complex64", "complex128",
  "qint8", "qint16", "qint32", "quint8", "quint16", "resource", "string_ref", "dual", "variant",
  "bfloat16", "int4", "uint1", "int2", "uint2",
};

/* ge.proto.DataType as the graph model's DataType (0 where it has none). */
int
sl_ge_model_dtype (guint64 dtype)
{
  static const int to_model[] = {
    0, 11, 10, 2, 6, 3, 7, 4, 5, 8, 9, 1, 12, 13, 0, 0, SL_GRAPH_DTYPE_COMPLEX64, SL_GRAPH_DTYPE_COMPLEX128,
    0, 0, 0, 0, 0, 0, 0, 0, 0, SL_GRAPH_DTYPE_BFLOAT16, SL_GRAPH_DTYPE_INT4,
  };

  return dtype < G_N_ELEMENTS (to_model) ? to_model[dtype] : 0;
}

/* Returns: a short name ("float16"), or NULL for a value GE does not define */
const char *
sl_ge_dtype_name (guint64 dtype)
{
  return dtype < G_N_ELEMENTS (ge_type_names) ? ge_type_names[dtype] : NULL;
}

static void
append_dtype (GString *out,
              guint64  dtype)
{
  const char *name = sl_ge_dtype_name (dtype);

  if (name != NULL)
    g_string_append (out, name);
  else
    g_string_append_printf (out, "type%" G_GUINT64_FORMAT, dtype);
}

static void
append_separator (GString *out,
                  guint    index)
{
  if (index > 0)
    g_string_append (out, ", ");
}

/* Bytes as a quoted, escaped string, cut at MAX_SHOWN_BYTES. */
static void
append_quoted (GString     *out,
               const Slice *bytes)
{
  gsize len = sl_proto_graph_shown (bytes, MAX_SHOWN_BYTES).len;
  g_autofree char *raw = g_strndup ((const char *) bytes->data, len);
  g_autofree char *valid = g_utf8_make_valid (raw, -1);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\%03o", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, '"');
  if (len < bytes->len)
    g_string_append (out, "…");
}

static void
append_float (GString *out,
              guint64  bits)
{
  guint32 word = (guint32) bits;
  float f;

  memcpy (&f, &word, 4);
  g_string_append_printf (out, "%g", (double) f);
}

/* TensorDescriptor: name, dtype, shape, layout, sizes. */
gboolean
sl_ge_read_tensor_desc (const Slice    *bytes,
                        SlGeTensorDesc *desc,
                        Damage         *damage)
{
  Field f, g;

  desc->dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  desc->weight_size = -1;
  desc->data_offset = -1;
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      switch (f.field)
        {
        case 1:
        case 4:
          {
            char **to = f.field == 1 ? &desc->name : &desc->layout;

            if (!sl_proto_expect_wire (&f, 2, damage))
              return FALSE;
            g_free (*to);
            *to = sl_proto_dup_text (&f.bytes);
          }
          break;
        case 2:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          desc->dtype = f.value;
          break;
        case 3:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          desc->has_shape = TRUE;
          g_array_set_size (desc->dims, 0);
          SL_PROTO_FOR_FIELDS (&f.bytes, inner, &g, damage)
            if (g.field == 1)
              {
                guint64 value;
                gsize at = 0;

                while (sl_proto_packed_next (&g, 0, &at, &value, damage))
                  {
                    gint64 dim = (gint64) value;

                    g_array_append_val (desc->dims, dim);
                  }
                if (damage->reason != NULL)
                  return FALSE;
              }
          if (damage->reason != NULL)
            return FALSE;
          break;
        case 11:
        case 18:
          if (!sl_proto_expect_wire (&f, 0, damage))
            return FALSE;
          if (f.field == 11)
            desc->weight_size = (gint64) f.value;
          else
            desc->data_offset = (gint64) f.value;
          break;
        default:
          break;
        }
    }
  return damage->reason == NULL;
}

/* "float16[1, 3, 224, 224] NCHW" */
void
sl_ge_append_tensor_desc (GString              *out,
                          const SlGeTensorDesc *desc)
{
  append_dtype (out, desc->dtype);
  g_string_append_c (out, '[');
  for (guint i = 0; desc->dims != NULL && i < desc->dims->len; i++)
    {
      append_separator (out, i);
      g_string_append_printf (out, "%" G_GINT64_FORMAT, g_array_index (desc->dims, gint64, i));
    }
  g_string_append_c (out, ']');
  if (desc->layout != NULL && desc->layout[0] != '\0')
    g_string_append_printf (out, " %s", desc->layout);
}

void
sl_ge_tensor_desc_clear (SlGeTensorDesc *desc)
{
  g_clear_pointer (&desc->name, g_free);
  g_clear_pointer (&desc->layout, g_free);
  g_clear_pointer (&desc->dims, g_array_unref);
}

/* TensorDef { desc 1, data 2 }: the descriptor and the size of the data
 * held inline (weights of an OM are in its weights partition instead). */
gboolean
sl_ge_read_tensor_def (const Slice    *bytes,
                       SlGeTensorDesc *desc,
                       gsize          *data_size,
                       Damage         *damage)
{
  gboolean have_desc = FALSE;
  Field f;

  *data_size = 0;
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      if (f.field != 1 && f.field != 2)
        continue;
      if (!sl_proto_expect_wire (&f, 2, damage))
        return FALSE;
      if (f.field == 2)
        *data_size = f.bytes.len;
      else
        {
          if (have_desc)
            sl_ge_tensor_desc_clear (desc);
          if (!sl_ge_read_tensor_desc (&f.bytes, desc, damage))
            return FALSE;
          have_desc = TRUE;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  if (!have_desc)
    {
      desc->dims = g_array_new (FALSE, FALSE, sizeof (gint64));
      desc->weight_size = -1;
      desc->data_offset = -1;
    }
  return TRUE;
}

static gboolean
append_tensor_def (GString     *out,
                   const Slice *bytes,
                   Damage      *damage)
{
  g_auto(SlGeTensorDesc) desc = { 0 };
  gsize size;

  if (!sl_ge_read_tensor_def (bytes, &desc, &size, damage))
    return FALSE;
  sl_ge_append_tensor_desc (out, &desc);
  if (size > 0)
    g_string_append_printf (out, " (%" G_GSIZE_FORMAT " bytes)", size);
  return TRUE;
}

/* A map entry { key 1 (string), value 2 (message) }. */
gboolean
sl_ge_read_map_entry (const Slice  *entry,
                      char        **key,
                      Slice        *value,
                      Damage       *damage)
{
  Damage local = { 0 };
  Field f;

  if (damage == NULL)
    damage = &local;
  *key = NULL;
  *value = (Slice) { entry->data, 0, entry->base, FALSE };
  SL_PROTO_FOR_FIELDS (entry, pos, &f, damage)
    {
      if (f.field != 1 && f.field != 2)
        continue;
      if (!sl_proto_expect_wire (&f, 2, damage))
        {
          g_clear_pointer (key, g_free);
          return FALSE;
        }
      if (f.field == 1)
        {
          g_free (*key);
          *key = sl_proto_dup_text (&f.bytes);
        }
      else
        *value = f.bytes;
    }
  if (damage->reason != NULL)
    {
      g_clear_pointer (key, g_free);
      return FALSE;
    }
  if (*key == NULL)
    *key = g_strdup ("");
  return TRUE;
}

static gboolean append_attr (GString *out, const Slice *attr, guint depth, GArray *graphs, Damage *damage);

/* NamedAttrs { name 1, attr 2 }: "name {key: value, ...}" */
static gboolean
append_named_attrs (GString     *out,
                    const Slice *named,
                    guint        depth,
                    Damage      *damage)
{
  g_autoptr(GString) attrs = g_string_new (NULL);
  g_autofree char *name = NULL;
  guint n = 0;
  Field f;

  SL_PROTO_FOR_FIELDS (named, pos, &f, damage)
    {
      if (f.field != 1 && f.field != 2)
        continue;
      if (!sl_proto_expect_wire (&f, 2, damage))
        return FALSE;
      if (f.field == 1)
        {
          g_free (name);
          name = sl_proto_dup_text (&f.bytes);
        }
      else
        {
          g_autofree char *key = NULL;
          Slice value;

          if (!sl_ge_read_map_entry (&f.bytes, &key, &value, damage))
            return FALSE;
          append_separator (attrs, n++);
          g_string_append_printf (attrs, "%s: ", key);
          if (!append_attr (attrs, &value, depth + 1, NULL, damage))
            return FALSE;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  g_string_append_printf (out, "%s {%s}", name != NULL ? name : "", attrs->str);
  return TRUE;
}

/* ListListInt / ListListFloat: "[[1, 2], [3]]" */
static gboolean
append_list_list (GString     *out,
                  const Slice *bytes,
                  gboolean     floats,
                  Damage      *damage)
{
  guint n = 0;
  Field f, g;

  g_string_append_c (out, '[');
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      guint m = 0;

      if (f.field != 1)
        continue;
      if (!sl_proto_expect_wire (&f, 2, damage))
        return FALSE;
      if (n++ >= MAX_SHOWN_VALUES)
        continue;
      append_separator (out, n - 1);
      g_string_append_c (out, '[');
      SL_PROTO_FOR_FIELDS (&f.bytes, inner, &g, damage)
        {
          guint64 value;
          gsize at = 0;

          if (g.field != 1)
            continue;
          while (sl_proto_packed_next (&g, floats ? 4 : 0, &at, &value, damage))
            if (m++ < MAX_SHOWN_VALUES)
              {
                append_separator (out, m - 1);
                if (floats)
                  append_float (out, value);
                else
                  g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) value);
              }
          if (damage->reason != NULL)
            return FALSE;
        }
      if (damage->reason != NULL)
        return FALSE;
      g_string_append (out, m > MAX_SHOWN_VALUES ? ", …]" : "]");
    }
  if (damage->reason != NULL)
    return FALSE;
  g_string_append (out, n > MAX_SHOWN_VALUES ? ", …]" : "]");
  return TRUE;
}

/* ListValue: whichever lists it holds, in one bracket. */
static gboolean
append_list (GString     *out,
             const Slice *list,
             guint        depth,
             GArray      *graphs,
             Damage      *damage)
{
  guint shown = 0, n_strings = 0, n_values = 0, hidden = 0;
  Field f;

  g_string_append_c (out, '[');
  SL_PROTO_FOR_FIELDS (list, pos, &f, damage)
    {
      switch (f.field)
        {
        case 2:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          if (n_strings++ >= MAX_SHOWN_STRINGS)
            {
              hidden++;
              break;
            }
          append_separator (out, shown++);
          append_quoted (out, &f.bytes);
          break;
        case 3:
        case 4:
        case 5:
        case 12:
          {
            guint64 value;
            gsize at = 0;

            while (sl_proto_packed_next (&f, f.field == 4 ? 4 : 0, &at, &value, damage))
              {
                if (n_values++ >= MAX_SHOWN_VALUES)
                  {
                    hidden++;
                    continue;
                  }
                append_separator (out, shown++);
                if (f.field == 3)
                  g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) value);
                else if (f.field == 4)
                  append_float (out, value);
                else if (f.field == 5)
                  g_string_append (out, value != 0 ? "true" : "false");
                else
                  append_dtype (out, value);
              }
            if (damage->reason != NULL)
              return FALSE;
          }
          break;
        case 7:
        case 8:
        case 9:
        case 10:
        case 11:
          if (!sl_proto_expect_wire (&f, 2, damage))
            return FALSE;
          if (f.field == 10 && graphs != NULL)
            g_array_append_val (graphs, f.bytes);
          if (n_values++ >= MAX_SHOWN_VALUES)
            {
              hidden++;
              break;
            }
          append_separator (out, shown++);
          if (f.field == 7)
            g_string_append_printf (out, "%" G_GSIZE_FORMAT " bytes", f.bytes.len);
          else if (f.field == 8)
            {
              g_auto(SlGeTensorDesc) desc = { 0 };

              if (!sl_ge_read_tensor_desc (&f.bytes, &desc, damage))
                return FALSE;
              sl_ge_append_tensor_desc (out, &desc);
            }
          else if (f.field == 9)
            {
              if (!append_tensor_def (out, &f.bytes, damage))
                return FALSE;
            }
          else if (f.field == 10)
            sl_proto_graph_append_summary (out, &f.bytes, 6, 1, "op", "ops");
          else if (depth + 1 >= MAX_ATTR_DEPTH)
            g_string_append (out, "…");
          else if (!append_named_attrs (out, &f.bytes, depth + 1, damage))
            return FALSE;
          break;
        default:
          break;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  if (hidden > 0)
    g_string_append (out, shown > 0 ? ", …" : "…");
  g_string_append_c (out, ']');
  return TRUE;
}

static gboolean
append_attr (GString     *out,
             const Slice *attr,
             guint        depth,
             GArray      *graphs,
             Damage      *damage)
{
  g_autoptr(GString) value = g_string_new (NULL);
  Field f;

  SL_PROTO_FOR_FIELDS (attr, pos, &f, damage)
    {
      guint wire = f.field == 4 ? 5 : (f.field == 3 || f.field == 5 || f.field == 15) ? 0 : 2;

      if (f.field > 16 || f.field == 6 || f.field == 8 || f.field == 9)
        continue;
      if (!sl_proto_expect_wire (&f, wire, damage))
        return FALSE;
      /* A oneof: the last member given is the value. */
      g_string_truncate (value, 0);
      switch (f.field)
        {
        case 1:
          if (depth >= MAX_ATTR_DEPTH)
            g_string_append (value, "[…]");
          else if (!append_list (value, &f.bytes, depth, graphs, damage))
            return FALSE;
          break;
        case 2: append_quoted (value, &f.bytes); break;
        case 3: g_string_append_printf (value, "%" G_GINT64_FORMAT, (gint64) f.value); break;
        case 4: append_float (value, f.value); break;
        case 5: g_string_append (value, f.value != 0 ? "true" : "false"); break;
        case 7: g_string_append_printf (value, "%" G_GSIZE_FORMAT " bytes", f.bytes.len); break;
        case 10:
          if (depth >= MAX_ATTR_DEPTH)
            g_string_append (value, "…");
          else if (!append_named_attrs (value, &f.bytes, depth, damage))
            return FALSE;
          break;
        case 11:
          {
            g_auto(SlGeTensorDesc) desc = { 0 };

            if (!sl_ge_read_tensor_desc (&f.bytes, &desc, damage))
              return FALSE;
            sl_ge_append_tensor_desc (value, &desc);
          }
          break;
        case 12:
          if (!append_tensor_def (value, &f.bytes, damage))
            return FALSE;
          break;
        case 13:
          if (graphs != NULL)
            g_array_append_val (graphs, f.bytes);
          sl_proto_graph_append_summary (value, &f.bytes, 6, 1, "op", "ops");
          break;
        case 14:
        case 16:
          if (!append_list_list (value, &f.bytes, f.field == 16, damage))
            return FALSE;
          break;
        case 15: append_dtype (value, f.value); break;
        default: break;
        }
    }
  if (damage->reason != NULL)
    return FALSE;
  g_string_append (out, value->str);
  return TRUE;
}

/**
 * sl_ge_append_attr:
 * @graphs: (nullable): receives the SlProtoSlice of every GraphDef the
 *   attribute holds (g, or a list's g), for the reader to expand
 *
 * An AttrDef's value as text.
 */
gboolean
sl_ge_append_attr (GString     *out,
                   const Slice *attr,
                   GArray      *graphs,
                   Damage      *damage)
{
  return append_attr (out, attr, 0, graphs, damage);
}

/* The TensorDef of an AttrDef that holds one (t, 12). */
gboolean
sl_ge_attr_tensor (const Slice *attr,
                   Slice       *tensor)
{
  gboolean found = FALSE;
  Field f;

  SL_PROTO_FOR_FIELDS (attr, pos, &f, NULL)
    if (f.field == 12 && f.wire_type == 2)
      {
        *tensor = f.bytes;
        found = TRUE;
      }
  return found;
}
