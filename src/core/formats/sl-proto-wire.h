/* sl-proto-wire.h: walking protobuf wire format by hand, bounds-checked
 *
 * For readers that decode a schema without generated code (ONNX today;
 * AIR, OM, MindIR and SavedModel are protobuf too): a message is a slice
 * of the input that knows its offset in the whole file, so that damage is
 * reported at the byte where it is. Nothing here recurses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const guint8 *data;
  gsize         len;
  gsize         base;   /* offset of data[0] in the whole input */
  gboolean      cut;    /* the input ends inside this message: a field
                         * that runs past its end is given as far as it
                         * goes, with cut set, instead of being damage */
} SlProtoSlice;

typedef struct {
  guint         field;
  guint         wire_type;  /* 0 varint, 1 fixed64, 2 bytes, 5 fixed32 */
  guint64       value;      /* varint, fixed32 or fixed64 */
  SlProtoSlice  bytes;      /* wire type 2 */
  gsize         at;         /* offset of the tag in the whole input */
} SlProtoField;

/* Where and why bytes are malformed; reason is NULL when they are not.
 * Reasons are untranslated (N_), for the caller's _(). */
typedef struct {
  gsize       offset;
  const char *reason;
} SlProtoDamage;

extern const char * const sl_proto_reason_tag;
extern const char * const sl_proto_reason_length;
extern const char * const sl_proto_reason_wire_type;
extern const char * const sl_proto_reason_packed;
extern const char * const sl_proto_reason_nesting;

gboolean sl_proto_read_varint  (const guint8       *data,
                                gsize               len,
                                gsize              *pos,
                                guint64            *value);
gboolean sl_proto_next_field   (const SlProtoSlice *message,
                                gsize              *pos,
                                SlProtoField       *field,
                                SlProtoDamage      *damage);
gboolean sl_proto_expect_wire  (const SlProtoField *field,
                                guint               wire_type,
                                SlProtoDamage      *damage);
gboolean sl_proto_packed_next  (const SlProtoField *field,
                                guint               width,
                                gsize              *pos,
                                guint64            *value,
                                SlProtoDamage      *damage);
char    *sl_proto_dup_text     (const SlProtoSlice *bytes);

/* Every field of @message, from the first: the loop ends at the end of
 * the message (damage->reason NULL) or at malformed bytes (set). */
#define SL_PROTO_FOR_FIELDS(message, pos, field, damage) \
  for (gsize pos = 0; sl_proto_next_field ((message), &pos, (field), (damage));)

G_END_DECLS
