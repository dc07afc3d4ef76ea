/* sl-proto-nesting.h: how deeply a protobuf message nests, read off its
 * wire format without recursion
 *
 * protobuf-c unpacks (and packs) one nested message per C stack frame and
 * sets no limit of its own, so a record a few hundred kilobytes long can
 * nest deep enough to overflow the stack. Bytes are checked here, with an
 * explicit stack, before protobuf-c sees them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

/* The deepest nesting that may be asked for. */
#define SL_PROTO_NESTING_MAX 256

typedef enum {
  SL_PROTO_NESTING_OK,
  SL_PROTO_NESTING_TOO_DEEP,
  SL_PROTO_NESTING_MALFORMED,
} SlProtoNesting;

/* Walks @data as a @descriptor message. TOO_DEEP when a message lies more
 * than @max_depth levels below the outer one, MALFORMED when a tag or a
 * length cannot be read or runs past what holds it; @offset (nullable)
 * then receives the byte, from the start of @data, of the field where
 * that was seen. Fields the descriptor does not know are skipped as
 * opaque, as protobuf-c keeps them. */
SlProtoNesting sl_proto_check_nesting (const ProtobufCMessageDescriptor *descriptor,
                                       const guint8                     *data,
                                       gsize                             length,
                                       guint                             max_depth,
                                       gsize                            *offset);

G_END_DECLS
