/* sl-summary-decoding.c: what the MindSpore, TensorBoard and lineage
 * decoders share: tensor bytes as doubles, protobuf varints and
 * length-delimited fields, repacking a message, the nesting check
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mindspore_summary.pb-c.h"

#include "sl-proto-nesting.h"
#include "sl-summary-reader-private.h"

double
sl_summary_half_to_double (guint16 h)
{
  int exponent = (h >> 10) & 0x1f;
  int mantissa = h & 0x3ff;
  double value;

  if (exponent == 0)
    value = ldexp (mantissa, -24);
  else if (exponent == 31)
    value = mantissa == 0 ? INFINITY : NAN;
  else
    value = ldexp (mantissa + 1024, exponent - 25);

  return (h & 0x8000) ? -value : value;
}

/* Converts little-endian raw tensor bytes of a MindSpore DataType. */
gboolean
sl_summary_raw_to_doubles (int           dtype,
                           const guint8 *data,
                           gsize         len,
                           GArray       *out)
{
  gsize width;

  switch (dtype)
    {
    case MINDINSIGHT__DATA_TYPE__DT_BOOL:
    case MINDINSIGHT__DATA_TYPE__DT_INT8:
    case MINDINSIGHT__DATA_TYPE__DT_UINT8:
      width = 1;
      break;
    case MINDINSIGHT__DATA_TYPE__DT_INT16:
    case MINDINSIGHT__DATA_TYPE__DT_UINT16:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT16:
      width = 2;
      break;
    case MINDINSIGHT__DATA_TYPE__DT_INT32:
    case MINDINSIGHT__DATA_TYPE__DT_UINT32:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT32:
      width = 4;
      break;
    case MINDINSIGHT__DATA_TYPE__DT_INT64:
    case MINDINSIGHT__DATA_TYPE__DT_UINT64:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT64:
      width = 8;
      break;
    default:
      return FALSE;
    }

  for (gsize i = 0; i + width <= len; i += width)
    {
      guint64 bits = 0;
      double value;

      for (gsize b = 0; b < width; b++)
        bits |= (guint64) data[i + b] << (8 * b);

      switch (dtype)
        {
        case MINDINSIGHT__DATA_TYPE__DT_BOOL:
        case MINDINSIGHT__DATA_TYPE__DT_UINT8:
        case MINDINSIGHT__DATA_TYPE__DT_UINT16:
        case MINDINSIGHT__DATA_TYPE__DT_UINT32:
        case MINDINSIGHT__DATA_TYPE__DT_UINT64:
          value = (double) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_INT8:
          value = (gint8) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_INT16:
          value = (gint16) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_INT32:
          value = (gint32) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_INT64:
          value = (double) (gint64) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_FLOAT16:
          value = sl_summary_half_to_double (bits);
          break;
        case MINDINSIGHT__DATA_TYPE__DT_FLOAT32:
          {
            guint32 u = bits;
            float f;

            memcpy (&f, &u, sizeof f);
            value = f;
          }
          break;
        case MINDINSIGHT__DATA_TYPE__DT_FLOAT64:
        default:
          memcpy (&value, &bits, sizeof value);
          break;
        }
      g_array_append_val (out, value);
    }

  return TRUE;
}
GBytes *
sl_summary_pack_message (const ProtobufCMessage *message)
{
  gsize len = protobuf_c_message_get_packed_size (message);
  guint8 *data = g_malloc (MAX (len, 1));

  protobuf_c_message_pack (message, data);
  return g_bytes_new_take (data, len);
}

gboolean
sl_summary_read_varint (const guint8 **p,
                        const guint8  *end,
                        guint64       *value)
{
  guint64 result = 0;

  for (guint shift = 0; shift < 64 && *p < end; shift += 7)
    {
      guint8 byte = *(*p)++;

      result |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = result;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
sl_summary_read_length_delimited (const guint8 **p,
                                  const guint8  *end,
                                  const guint8 **data,
                                  gsize         *len)
{
  guint64 n;

  if (!sl_summary_read_varint (p, end, &n) || n > (guint64) (end - *p))
    return FALSE;
  *data = *p;
  *len = n;
  *p += n;
  return TRUE;
}

/* Whether protobuf-c may unpack @payload as @descriptor: its nesting is
 * checked first, without recursion. */
SlSummaryDecoded
sl_summary_check_nesting (SlSummaryReader                  *self,
                          const ProtobufCMessageDescriptor *descriptor,
                          const guint8                     *payload,
                          gsize                             len)
{
  switch (sl_proto_check_nesting (descriptor, payload, len, SL_SUMMARY_READER_MAX_NESTING, &self->deep_at))
    {
    case SL_PROTO_NESTING_OK:
      return SL_SUMMARY_DECODED;
    case SL_PROTO_NESTING_TOO_DEEP:
      return SL_SUMMARY_TOO_DEEP;
    case SL_PROTO_NESTING_MALFORMED:
    default:
      return SL_SUMMARY_UNDECODABLE;
    }
}
