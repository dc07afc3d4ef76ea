/* sl-proto-nesting.c
 *
 * One frame per open message: its descriptor and where its bytes end.
 * Every length is checked against the frame that holds it, so frames
 * always end inside their parents and the walk reads each byte once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-proto-nesting.h"

typedef struct {
  const ProtobufCMessageDescriptor *descriptor;
  gsize                             end;
} Frame;

static gboolean
read_varint (const guint8 *data,
             gsize         end,
             gsize        *pos,
             guint64      *value)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 64 && *pos < end; shift += 7)
    {
      guint8 byte = data[(*pos)++];

      v |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = v;
          return TRUE;
        }
    }
  return FALSE;
}

static SlProtoNesting
stop (SlProtoNesting  result,
      gsize           at,
      gsize          *offset)
{
  if (offset != NULL)
    *offset = at;
  return result;
}

SlProtoNesting
sl_proto_check_nesting (const ProtobufCMessageDescriptor *descriptor,
                        const guint8                     *data,
                        gsize                             length,
                        guint                             max_depth,
                        gsize                            *offset)
{
  Frame stack[SL_PROTO_NESTING_MAX + 1];
  guint depth = 0;
  gsize pos = 0;

  g_return_val_if_fail (descriptor != NULL, SL_PROTO_NESTING_MALFORMED);
  g_return_val_if_fail (data != NULL || length == 0, SL_PROTO_NESTING_MALFORMED);
  g_return_val_if_fail (max_depth <= SL_PROTO_NESTING_MAX, SL_PROTO_NESTING_MALFORMED);

  stack[0].descriptor = descriptor;
  stack[0].end = length;

  for (;;)
    {
      Frame *frame;
      gsize start = pos;
      guint64 tag, value;
      const ProtobufCFieldDescriptor *field;

      while (pos == stack[depth].end)
        {
          if (depth == 0)
            return SL_PROTO_NESTING_OK;
          depth--;
        }
      frame = &stack[depth];

      if (!read_varint (data, frame->end, &pos, &tag) || (tag >> 3) == 0 || (tag >> 3) > G_MAXUINT32)
        return stop (SL_PROTO_NESTING_MALFORMED, start, offset);

      switch (tag & 7)
        {
        case PROTOBUF_C_WIRE_TYPE_VARINT:
          if (!read_varint (data, frame->end, &pos, &value))
            return stop (SL_PROTO_NESTING_MALFORMED, start, offset);
          break;
        case PROTOBUF_C_WIRE_TYPE_64BIT:
          if (frame->end - pos < 8)
            return stop (SL_PROTO_NESTING_MALFORMED, start, offset);
          pos += 8;
          break;
        case PROTOBUF_C_WIRE_TYPE_32BIT:
          if (frame->end - pos < 4)
            return stop (SL_PROTO_NESTING_MALFORMED, start, offset);
          pos += 4;
          break;
        case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
          if (!read_varint (data, frame->end, &pos, &value) || value > frame->end - pos)
            return stop (SL_PROTO_NESTING_MALFORMED, start, offset);
          field = protobuf_c_message_descriptor_get_field (frame->descriptor, (unsigned) (tag >> 3));
          if (field != NULL && field->type == PROTOBUF_C_TYPE_MESSAGE && field->descriptor != NULL)
            {
              if (depth + 1 > max_depth)
                return stop (SL_PROTO_NESTING_TOO_DEEP, start, offset);
              depth++;
              stack[depth].descriptor = field->descriptor;
              stack[depth].end = pos + (gsize) value;
            }
          else
            {
              pos += (gsize) value;
            }
          break;
        default:
          /* Groups, which protobuf-c does not read either. */
          return stop (SL_PROTO_NESTING_MALFORMED, start, offset);
        }
    }
}
