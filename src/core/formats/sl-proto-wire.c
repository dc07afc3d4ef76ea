/* sl-proto-wire.c: walking protobuf wire format by hand, bounds-checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-proto-wire.h"

const char * const sl_proto_reason_tag = N_("a field tag is cut off or malformed");
const char * const sl_proto_reason_length = N_("a field runs past the end of its message");
const char * const sl_proto_reason_wire_type = N_("a field has the wrong wire type");
const char * const sl_proto_reason_packed = N_("a packed list is malformed");
const char * const sl_proto_reason_nesting = N_("messages are nested too deeply");

gboolean
sl_proto_read_varint (const guint8 *data,
                      gsize         len,
                      gsize        *pos,
                      guint64      *value)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 70 && *pos < len; shift += 7)
    {
      guint8 byte = data[(*pos)++];

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
damaged (SlProtoDamage *damage,
         gsize          offset,
         const char    *reason)
{
  if (damage != NULL)
    {
      damage->offset = offset;
      damage->reason = reason;
    }
  return FALSE;
}

/* The next field of @message from *@pos. FALSE at the end (damage->reason
 * NULL) or on malformed bytes (damage set). */
gboolean
sl_proto_next_field (const SlProtoSlice *message,
                     gsize              *pos,
                     SlProtoField       *out,
                     SlProtoDamage      *damage)
{
  guint64 tag, length;
  gsize start = *pos;

  if (damage != NULL)
    damage->reason = NULL;
  if (*pos >= message->len)
    return FALSE;
  out->at = message->base + start;
  if (!sl_proto_read_varint (message->data, message->len, pos, &tag) || (tag >> 3) == 0 || (tag >> 3) > G_MAXINT32)
    return damaged (damage, message->base + start, sl_proto_reason_tag);
  out->field = tag >> 3;
  out->wire_type = tag & 7;
  out->value = 0;
  out->bytes.data = message->data + *pos;
  out->bytes.len = 0;
  out->bytes.base = message->base + *pos;
  out->bytes.cut = FALSE;
  switch (out->wire_type)
    {
    case 0:
      if (!sl_proto_read_varint (message->data, message->len, pos, &out->value))
        return damaged (damage, message->base + start, sl_proto_reason_length);
      return TRUE;
    case 1:
    case 5:
      {
        gsize width = out->wire_type == 1 ? 8 : 4;

        if (message->len - *pos < width)
          return damaged (damage, message->base + start, sl_proto_reason_length);
        memcpy (&out->value, message->data + *pos, width);
        out->value = GUINT64_FROM_LE (out->value);
        *pos += width;
        return TRUE;
      }
    case 2:
      if (!sl_proto_read_varint (message->data, message->len, pos, &length))
        return damaged (damage, message->base + start, sl_proto_reason_length);
      if (length > message->len - *pos)
        {
          if (!message->cut)
            return damaged (damage, message->base + start, sl_proto_reason_length);
          length = message->len - *pos;
          out->bytes.cut = TRUE;
        }
      out->bytes.data = message->data + *pos;
      out->bytes.len = length;
      out->bytes.base = message->base + *pos;
      *pos += length;
      return TRUE;
    default:
      return damaged (damage, message->base + start, sl_proto_reason_wire_type);
    }
}

/* Wire type @wire_type, else damage at the field. */
gboolean
sl_proto_expect_wire (const SlProtoField *field,
                      guint               wire_type,
                      SlProtoDamage      *damage)
{
  if (field->wire_type == wire_type)
    return TRUE;
  return damaged (damage, field->at, sl_proto_reason_wire_type);
}

/**
 * sl_proto_packed_next:
 * @width: 0 for varints, 4 or 8 for fixed-width values
 * @pos: 0 before the first value
 *
 * The values of a repeated scalar field one at a time, whether the field
 * is packed (wire type 2) or one value (its own wire type).
 *
 * Returns: FALSE after the last value (damage->reason NULL) or on
 *   malformed bytes (damage set)
 */
gboolean
sl_proto_packed_next (const SlProtoField *field,
                      guint               width,
                      gsize              *pos,
                      guint64            *value,
                      SlProtoDamage      *damage)
{
  guint want = width == 4 ? 5 : width == 8 ? 1 : 0;

  if (damage != NULL)
    damage->reason = NULL;
  if (field->wire_type == want)
    {
      if (*pos > 0)
        return FALSE;
      *pos = 1;
      *value = field->value;
      return TRUE;
    }
  if (field->wire_type != 2)
    return damaged (damage, field->at, sl_proto_reason_wire_type);
  if (*pos >= field->bytes.len)
    return FALSE;
  if (width > 0)
    {
      if (field->bytes.len - *pos < width)
        return damaged (damage, field->at, sl_proto_reason_packed);
      *value = 0;
      memcpy (value, field->bytes.data + *pos, width);
      *value = GUINT64_FROM_LE (*value);
      *pos += width;
      return TRUE;
    }
  if (!sl_proto_read_varint (field->bytes.data, field->bytes.len, pos, value))
    return damaged (damage, field->at, sl_proto_reason_packed);
  return TRUE;
}

/* The bytes as valid UTF-8 text (invalid sequences replaced). */
char *
sl_proto_dup_text (const SlProtoSlice *bytes)
{
  return g_utf8_make_valid ((const char *) bytes->data, bytes->len);
}
