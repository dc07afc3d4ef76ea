/* sl-proto-shape.c
 *
 * Tells graph files apart by the shape of their first fields: every
 * protobuf message is a run of (field number, wire type) pairs, and the
 * field numbers, wire types and string contents a message may hold are
 * fixed by its schema. Each check walks the head of the file against a
 * schema (MindSpore's anf_ir GraphProto and ModelProto, TensorFlow's
 * GraphDef and SavedModel, see FORMATS.md), descending into the first
 * messages a few levels deep. A field the schema does not know (below the
 * root, one numbered after the known ones is taken for a later addition),
 * a wrong wire type or a string with control characters fails the check;
 * so a profiler's XSpace (xplane.pb), whose first field is a message of
 * varints and nested messages, is none of them. Only the bytes at hand
 * are looked at: a field cut off by the end of a head is checked as far
 * as it goes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-proto-shape.h"
#include "sl-proto-wire.h"

#define MAX_FIELDS  256   /* fields checked per message */
#define MAX_LEVELS  6     /* messages below the root that are checked */
#define ONNX_SNIFF_FIELDS 32  /* fields of an ONNX ModelProto looked at for its graph */
#define MINDIR_MAX_IR_VERSION 32  /* bytes of a MindIR ModelProto's IR version string */

typedef enum {
  K_VARINT,
  K_FIXED64,
  K_FIXED32,
  K_STRING,     /* UTF-8 text without control characters */
  K_BYTES,      /* length-delimited, anything inside */
  K_MESSAGE,    /* checked against .shape when it has one */
  K_NUMBERS,    /* repeated varints: packed or not */
} Kind;

typedef struct _Shape Shape;

typedef struct {
  guint        field;
  Kind         kind;
  const Shape *shape;
} FieldShape;

struct _Shape {
  const FieldShape *fields;
  guint             n_fields;
};

#define SHAPE(name, ...) \
  static const FieldShape name##_fields[] = { __VA_ARGS__ }; \
  static const Shape name = { name##_fields, G_N_ELEMENTS (name##_fields) }

/* MindSpore anf_ir */
SHAPE (ms_input, { 1, K_STRING, NULL }, { 2, K_VARINT, NULL });
SHAPE (ms_attribute, { 1, K_STRING, NULL }, { 2, K_MESSAGE, NULL });
SHAPE (ms_node,
       { 1, K_MESSAGE, &ms_input }, { 2, K_STRING, NULL }, { 3, K_STRING, NULL },
       { 4, K_STRING, NULL }, { 5, K_MESSAGE, &ms_attribute }, { 6, K_MESSAGE, NULL },
       { 7, K_VARINT, NULL }, { 8, K_STRING, NULL }, { 9, K_STRING, NULL },
       { 10, K_STRING, NULL });
SHAPE (ms_parameter, { 1, K_STRING, NULL }, { 2, K_MESSAGE, NULL }, { 3, K_MESSAGE, NULL });
SHAPE (ms_output, { 1, K_STRING, NULL }, { 2, K_MESSAGE, NULL });
SHAPE (ms_named_value, { 1, K_STRING, NULL }, { 2, K_MESSAGE, NULL }, { 3, K_STRING, NULL });
SHAPE (ms_graph,
       { 1, K_MESSAGE, &ms_node }, { 2, K_STRING, NULL }, { 3, K_MESSAGE, &ms_parameter },
       { 4, K_MESSAGE, &ms_output }, { 5, K_MESSAGE, &ms_named_value }, { 6, K_STRING, NULL });
SHAPE (ms_operator_set, { 1, K_MESSAGE, NULL }, { 2, K_STRING, NULL });
SHAPE (ms_model,
       { 1, K_VARINT, NULL }, { 2, K_STRING, NULL }, { 3, K_VARINT, NULL },
       { 4, K_MESSAGE, &ms_graph }, { 5, K_MESSAGE, &ms_operator_set });

/* MindSpore MindIR (mind_ir.proto) */
SHAPE (mi_node,
       { 1, K_STRING, NULL }, { 2, K_STRING, NULL }, { 3, K_STRING, NULL },
       { 4, K_STRING, NULL }, { 5, K_MESSAGE, NULL }, { 6, K_STRING, NULL },
       { 7, K_STRING, NULL }, { 8, K_MESSAGE, NULL }, { 9, K_MESSAGE, NULL });
SHAPE (mi_value_info,
       { 1, K_STRING, NULL }, { 2, K_MESSAGE, NULL }, { 3, K_STRING, NULL },
       { 4, K_STRING, NULL }, { 5, K_MESSAGE, NULL });
SHAPE (mi_graph,
       { 1, K_MESSAGE, &mi_node }, { 2, K_STRING, NULL }, { 3, K_MESSAGE, NULL },
       { 4, K_STRING, NULL }, { 5, K_MESSAGE, &mi_value_info }, { 6, K_MESSAGE, &mi_value_info },
       { 7, K_STRING, NULL }, { 8, K_MESSAGE, NULL }, { 9, K_STRING, NULL },
       { 10, K_MESSAGE, NULL });
SHAPE (mi_model,
       { 1, K_STRING, NULL }, { 2, K_STRING, NULL }, { 3, K_STRING, NULL },
       { 4, K_STRING, NULL }, { 5, K_STRING, NULL }, { 6, K_STRING, NULL },
       { 7, K_MESSAGE, &mi_graph }, { 8, K_MESSAGE, &mi_graph }, { 9, K_MESSAGE, NULL },
       { 10, K_VARINT, NULL }, { 11, K_MESSAGE, NULL }, { 12, K_MESSAGE, NULL },
       { 13, K_VARINT, NULL });

/* TensorFlow */
SHAPE (tf_attr_entry, { 1, K_STRING, NULL }, { 2, K_MESSAGE, NULL });
SHAPE (tf_node_def,
       { 1, K_STRING, NULL }, { 2, K_STRING, NULL }, { 3, K_STRING, NULL },
       { 4, K_STRING, NULL }, { 5, K_MESSAGE, &tf_attr_entry }, { 6, K_MESSAGE, NULL },
       { 7, K_MESSAGE, NULL });
SHAPE (tf_version_def, { 1, K_VARINT, NULL }, { 2, K_VARINT, NULL }, { 3, K_NUMBERS, NULL });
SHAPE (tf_graph_def,
       { 1, K_MESSAGE, &tf_node_def }, { 2, K_MESSAGE, NULL }, { 3, K_VARINT, NULL },
       { 4, K_MESSAGE, &tf_version_def }, { 5, K_MESSAGE, NULL });
SHAPE (tf_meta_info_def,
       { 1, K_STRING, NULL }, { 2, K_MESSAGE, NULL }, { 3, K_MESSAGE, NULL },
       { 4, K_STRING, NULL }, { 5, K_STRING, NULL }, { 6, K_STRING, NULL },
       { 7, K_VARINT, NULL }, { 8, K_MESSAGE, NULL });
SHAPE (tf_meta_graph_def,
       { 1, K_MESSAGE, &tf_meta_info_def }, { 2, K_MESSAGE, &tf_graph_def }, { 3, K_MESSAGE, NULL },
       { 4, K_MESSAGE, NULL }, { 5, K_MESSAGE, NULL }, { 6, K_MESSAGE, NULL },
       { 7, K_MESSAGE, NULL });
SHAPE (tf_saved_model, { 1, K_VARINT, NULL }, { 2, K_MESSAGE, &tf_meta_graph_def });

/* Ascend GE IR (ge_ir.proto): AIR files, OM model definitions. Tensor
 * descriptors, whose fields GE versions have added to, are not looked into. */
SHAPE (ge_attr_entry, { 1, K_STRING, NULL }, { 2, K_MESSAGE, NULL });
SHAPE (ge_op,
       { 1, K_STRING, NULL }, { 2, K_STRING, NULL }, { 5, K_STRING, NULL },
       { 10, K_MESSAGE, &ge_attr_entry }, { 20, K_VARINT, NULL }, { 21, K_VARINT, NULL },
       { 22, K_VARINT, NULL }, { 23, K_STRING, NULL }, { 24, K_STRING, NULL },
       { 25, K_NUMBERS, NULL }, { 26, K_STRING, NULL }, { 27, K_NUMBERS, NULL },
       { 28, K_NUMBERS, NULL }, { 29, K_NUMBERS, NULL }, { 30, K_NUMBERS, NULL },
       { 31, K_NUMBERS, NULL }, { 32, K_NUMBERS, NULL }, { 33, K_MESSAGE, NULL },
       { 34, K_MESSAGE, NULL }, { 35, K_STRING, NULL });
SHAPE (ge_graph,
       { 1, K_STRING, NULL }, { 4, K_STRING, NULL }, { 5, K_STRING, NULL },
       { 6, K_MESSAGE, &ge_op }, { 11, K_MESSAGE, &ge_attr_entry });
SHAPE (ge_model,
       { 1, K_STRING, NULL }, { 2, K_VARINT, NULL }, { 3, K_STRING, NULL },
       { 7, K_MESSAGE, &ge_graph }, { 11, K_MESSAGE, &ge_attr_entry });

static const FieldShape *
lookup (const Shape *shape,
        guint64      field)
{
  for (guint i = 0; i < shape->n_fields; i++)
    {
      if (shape->fields[i].field == field)
        return &shape->fields[i];
    }
  return NULL;
}

static guint
max_field (const Shape *shape)
{
  guint max = 0;

  for (guint i = 0; i < shape->n_fields; i++)
    max = MAX (max, shape->fields[i].field);
  return max;
}

/* @cut: the text may end inside a character */
static gboolean
is_text (const guint8 *data,
         gsize         len,
         gboolean      cut)
{
  const char *end = NULL;

  for (gsize i = 0; i < len; i++)
    {
      if (data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r')
        return FALSE;
      if (data[i] == 0x7f)
        return FALSE;
    }
  if (g_utf8_validate ((const char *)data, len, &end))
    return TRUE;
  /* A character cut off by the end of the head */
  return cut && (const guint8 *)end + 4 > data + len &&
         g_utf8_get_char_validated (end, data + len - (const guint8 *)end) == (gunichar)-2;
}

/* Checks @data against @shape. @cut: @data stops at the end of the head,
 * not at the end of the message. An empty message is fine. */
static gboolean
check (const Shape  *shape,
       const guint8 *data,
       gsize         len,
       gboolean      cut,
       guint         level)
{
  gsize pos = 0;

  for (guint n = 0; n < MAX_FIELDS && pos < len; n++)
    {
      const FieldShape *field;
      guint64 tag, value;
      guint wire_type;
      gsize available;
      gboolean field_cut;

      if (!sl_proto_read_varint (data, len, &pos, &tag))
        return cut && pos >= len;
      wire_type = tag & 7;
      field = lookup (shape, tag >> 3);
      if (field == NULL)
        {
          /* Later versions add fields after the known ones; the root's
           * fields must all be known. */
          if (level == 0 || (tag >> 3) <= max_field (shape))
            return FALSE;
          switch (wire_type)
            {
            case 0:
              if (!sl_proto_read_varint (data, len, &pos, &value))
                return cut && pos >= len;
              continue;
            case 1:
            case 5:
              if (len - pos < (wire_type == 1 ? 8u : 4u))
                return cut;
              pos += wire_type == 1 ? 8 : 4;
              continue;
            case 2:
              if (!sl_proto_read_varint (data, len, &pos, &value))
                return cut && pos >= len;
              if (value > len - pos)
                return cut;
              pos += value;
              continue;
            default:
              return FALSE;
            }
        }

      switch (field->kind)
        {
        case K_VARINT:
          if (wire_type != 0)
            return FALSE;
          if (!sl_proto_read_varint (data, len, &pos, &value))
            return cut && pos >= len;
          continue;

        case K_FIXED64:
        case K_FIXED32:
          if (wire_type != (field->kind == K_FIXED64 ? 1u : 5u))
            return FALSE;
          available = len - pos;
          if (available < (field->kind == K_FIXED64 ? 8u : 4u))
            return cut;
          pos += field->kind == K_FIXED64 ? 8 : 4;
          continue;

        case K_NUMBERS:
          if (wire_type == 0)
            {
              if (!sl_proto_read_varint (data, len, &pos, &value))
                return cut && pos >= len;
              continue;
            }
          if (wire_type != 2)
            return FALSE;
          break;

        case K_STRING:
        case K_BYTES:
        case K_MESSAGE:
        default:
          if (wire_type != 2)
            return FALSE;
          break;
        }

      /* Length-delimited */
      if (!sl_proto_read_varint (data, len, &pos, &value))
        return cut && pos >= len;
      field_cut = value > len - pos;
      if (field_cut && !cut)
        return FALSE;
      available = field_cut ? len - pos : (gsize)value;

      if (field->kind == K_STRING && !is_text (data + pos, available, field_cut))
        return FALSE;
      if (field->kind == K_MESSAGE && field->shape != NULL && level < MAX_LEVELS &&
          !check (field->shape, data + pos, available, field_cut, level + 1))
        return FALSE;

      if (field_cut)
        return TRUE;
      pos += available;
    }

  return TRUE;
}

/* The root must hold at least one field of its schema. */
static gboolean
check_root (const Shape  *shape,
            const guint8 *data,
            gsize         len,
            gboolean      complete)
{
  if (data == NULL || len == 0)
    return FALSE;
  return check (shape, data, len, !complete, 0);
}

/* anf_ir GraphProto, the graph MindSpore's save_graphs and MindInsight's
 * graph .pb files hold */
gboolean
sl_proto_shape_is_mindspore_graph (const guint8 *data,
                                   gsize         len,
                                   gboolean      complete)
{
  return check_root (&ms_graph, data, len, complete);
}

/* anf_ir ModelProto: ir_version, domain, model_version, graph */
gboolean
sl_proto_shape_is_mindspore_model (const guint8 *data,
                                   gsize         len,
                                   gboolean      complete)
{
  return check_root (&ms_model, data, len, complete);
}

/* TensorFlow GraphDef: node, library, version, versions, debug_info */
gboolean
sl_proto_shape_is_graph_def (const guint8 *data,
                             gsize         len,
                             gboolean      complete)
{
  return check_root (&tf_graph_def, data, len, complete);
}

/* TensorFlow SavedModel: saved_model_schema_version, meta_graphs */
gboolean
sl_proto_shape_is_saved_model (const guint8 *data,
                               gsize         len,
                               gboolean      complete)
{
  return check_root (&tf_saved_model, data, len, complete);
}

/* ONNX ModelProto: its first fields have the wire types ModelProto gives
 * them (ir_version and model_version varints, the others messages or
 * strings) and it has a graph (field 7) whose first field is one
 * GraphProto has. A MindSpore anf_ir ModelProto has its graph in field 4;
 * a GraphProto starts with a node, a message. Fields may run past the end
 * of @data: only their tags are needed. */
gboolean
sl_proto_shape_is_onnx_model (const guint8 *data,
                              gsize         len,
                              gboolean      complete)
{
  static const gboolean graph_fields[17] = { [1] = TRUE, [2] = TRUE, [5] = TRUE, [10] = TRUE, [11] = TRUE,
                                             [12] = TRUE, [13] = TRUE, [14] = TRUE, [15] = TRUE, [16] = TRUE };
  gsize pos = 0;

  if (data == NULL)
    return FALSE;
  for (guint n = 0; n < ONNX_SNIFF_FIELDS && pos < len; n++)
    {
      guint64 tag, value;
      guint field, wire;

      if (!sl_proto_read_varint (data, len, &pos, &tag))
        return FALSE;
      field = tag >> 3;
      wire = tag & 7;
      if (field == 1 || field == 5)
        {
          if (wire != 0 || !sl_proto_read_varint (data, len, &pos, &value))
            return FALSE;
          continue;
        }
      if (wire != 2 || field == 0 || (field > 8 && field != 14 && field != 20 && field != 25))
        return FALSE;
      if (!sl_proto_read_varint (data, len, &pos, &value))
        return FALSE;
      if (field == 7)
        {
          guint64 first;
          gsize at = pos;

          if (value == 0)
            return TRUE;
          if (complete && value > len - pos)
            return FALSE;
          if (!sl_proto_read_varint (data, len, &at, &first))
            return pos >= len;
          return (first >> 3) < G_N_ELEMENTS (graph_fields) && graph_fields[first >> 3] && (first & 7) == 2;
        }
      if (value > len - pos)
        return FALSE;
      pos += value;
    }
  return FALSE;
}

/* MindIR ModelProto: every field of its head is one mind_ir.proto gives
 * ModelProto, with the wire type it gives; it starts with its IR version
 * (field 1, a short string: ONNX and anf_ir write a number there, a
 * GraphDef or anf_ir GraphProto a node, whose bytes are not text) and
 * holds a graph (field 7), unless the head ends before it. */
gboolean
sl_proto_shape_is_mindir_model (const guint8 *data,
                                gsize         len,
                                gboolean      complete)
{
  guint64 tag, value;
  gsize pos = 0;

  if (data == NULL || len < 2 || data[0] != ((1 << 3) | 2) || !check_root (&mi_model, data, len, complete))
    return FALSE;
  pos = 1;
  if (!sl_proto_read_varint (data, len, &pos, &value) || value == 0 || value > MINDIR_MAX_IR_VERSION)
    return FALSE;
  pos = 0;
  for (guint n = 0; n < MAX_FIELDS && pos < len; n++)
    {
      if (!sl_proto_read_varint (data, len, &pos, &tag))
        return !complete;
      if ((tag >> 3) == 7)
        return TRUE;
      switch (tag & 7)
        {
        case 0:
          if (!sl_proto_read_varint (data, len, &pos, &value))
            return !complete;
          break;
        case 2:
          if (!sl_proto_read_varint (data, len, &pos, &value))
            return !complete;
          if (value > len - pos)
            return !complete;
          pos += value;
          break;
        default:
          return FALSE;
        }
    }
  return !complete && pos >= len;
}

/* GE IR ModelDef (AIR): every field of its head is one ModelDef has,
 * with the wire type it gives, its graphs' and ops' names are text, and
 * it holds a graph (field 7), unless the head ends inside a field before
 * it: bytes that end after a name and a number without one (an ONNX
 * SequenceProto has that shape) are no model. ONNX and
 * anf_ir models start with a number, MindIR's second field is a string,
 * graphs of the other formats start with a node (a message, not text). */
gboolean
sl_proto_shape_is_ge_model (const guint8 *data,
                            gsize         len,
                            gboolean      complete)
{
  guint64 tag, value;
  gsize pos = 0;

  if (!check_root (&ge_model, data, len, complete))
    return FALSE;
  for (guint n = 0; n < MAX_FIELDS && pos < len; n++)
    {
      if (!sl_proto_read_varint (data, len, &pos, &tag))
        return !complete;
      if ((tag >> 3) == 7)
        return TRUE;
      if (!sl_proto_read_varint (data, len, &pos, &value))
        return !complete;
      if ((tag & 7) == 2)
        {
          if (value > len - pos)
            return !complete;
          pos += value;
        }
    }
  return FALSE;
}

/* An OM file: Ascend's offline model container, magic "IMOD". */
gboolean
sl_proto_shape_is_om (const guint8 *data,
                      gsize         len,
                      gboolean      complete)
{
  (void) complete;
  return data != NULL && len >= 4 && memcmp (data, "IMOD", 4) == 0;
}

/* The model and graph formats a .pb may hold that the graph reader
 * reads, told apart by the shapes of their first fields (see the checks
 * above). A format added here is recognised by the folder scan
 * (sl-detector-models.c), opened by the graph reader and named in the message about a .pb
 * that holds none of them. Where two match, the first wins. */
static const struct {
  const char *name;
  gboolean  (*matches) (const guint8 *data,
                        gsize         len,
                        gboolean      complete);
} pb_graph_formats[] = {
  { "OM", sl_proto_shape_is_om },
  /* Before ONNX: a ModelDef without name and version starts as an ONNX
   * ModelProto without ir_version may. */
  { "AIR", sl_proto_shape_is_ge_model },
  { "ONNX", sl_proto_shape_is_onnx_model },
  { "MindIR", sl_proto_shape_is_mindir_model },
  { "MindSpore GraphProto", sl_proto_shape_is_mindspore_graph },
  { "MindSpore ModelProto", sl_proto_shape_is_mindspore_model },
  { "TensorFlow GraphDef", sl_proto_shape_is_graph_def },
  { "TensorFlow SavedModel", sl_proto_shape_is_saved_model },
};

/**
 * sl_proto_shape_get_graph_format:
 * @data: the head of a .pb file (SL_SNIFFER_HEAD_SIZE bytes), or all of it
 * @complete: whether @data is the whole file
 *
 * Returns: the name of the model or graph format @data holds, or %NULL
 *   when it is none that Sightline reads
 */
const char *
sl_proto_shape_get_graph_format (const guint8 *data,
                                 gsize         len,
                                 gboolean      complete)
{
  g_return_val_if_fail (data != NULL || len == 0, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (pb_graph_formats); i++)
    {
      if (pb_graph_formats[i].matches (data, len, complete))
        return pb_graph_formats[i].name;
    }
  return NULL;
}

/**
 * sl_proto_shape_dup_graph_formats:
 *
 * Returns: (transfer full): the .pb formats Sightline reads, for messages
 */
char *
sl_proto_shape_dup_graph_formats (void)
{
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (pb_graph_formats); i++)
    {
      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append (names, pb_graph_formats[i].name);
    }
  return g_string_free (g_steal_pointer (&names), FALSE);
}
