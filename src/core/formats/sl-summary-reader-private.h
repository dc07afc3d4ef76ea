/* sl-summary-reader-private.h: the state of SlSummaryReader, shared by
 * its decoders (MindSpore, TensorBoard, lineage), discovery and follow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <protobuf-c/protobuf-c.h>

#include "sl-summary-reader.h"

G_BEGIN_DECLS

/* Recently used scalar tags remembered to skip the hash lookup. */
#define TAG_CACHE_SIZE     8
#define TAG_CACHE_MAX_LEN  64

typedef struct {
  SlSummaryRun   *run;
  SlScalarSeries *series;
  gsize           len;
  char            tag[TAG_CACHE_MAX_LEN];
} SlSummaryTagCacheEntry;

/* What became of a record's payload. */
typedef enum {
  SL_SUMMARY_DECODED,
  SL_SUMMARY_UNDECODABLE,
  SL_SUMMARY_TOO_DEEP,
} SlSummaryDecoded;

typedef struct {
  guint8    *block;
  gsize      used;
  GPtrArray *extra;
} SlSummaryArena;

struct _SlSummaryReader
{
  GObject                 parent_instance;
  char                   *path;
  GPtrArray              *runs;
  SlSummaryArena          arena;
  ProtobufCAllocator      allocator;
  GArray                 *scratch_a;
  GArray                 *scratch_b;
  GArray                 *scratch_c;
  GArray                 *scratch_dims;
  /* TensorBoard writes a tag's plugin only with its first value. */
  GHashTable             *tb_plugins;
  SlSummaryTagCacheEntry  tag_cache[TAG_CACHE_SIZE];
  guint                   tag_cache_next;
  /* Where, in the payload, the last SL_SUMMARY_TOO_DEEP record went too deep. */
  gsize                   deep_at;
};

/* The decoders, one a file kind (sl-summary-mindspore.c,
 * sl-summary-tensorboard.c, sl-summary-lineage.c). */
SlSummaryDecoded sl_summary_decode_mindspore   (SlSummaryReader *self,
                                                SlSummaryRun    *run,
                                                const guint8    *payload,
                                                gsize            len);
SlSummaryDecoded sl_summary_decode_tensorboard (SlSummaryReader *self,
                                                SlSummaryRun    *run,
                                                const guint8    *payload,
                                                gsize            len);
SlSummaryDecoded sl_summary_decode_lineage     (SlSummaryReader *self,
                                                SlSummaryRun    *run,
                                                const guint8    *payload,
                                                gsize            len);

/* What the decoders share (sl-summary-decoding.c). */
double           sl_summary_half_to_double        (guint16                           h);
gboolean         sl_summary_raw_to_doubles        (int                               dtype,
                                                   const guint8                     *data,
                                                   gsize                             len,
                                                   GArray                           *out);
GBytes          *sl_summary_pack_message          (const ProtobufCMessage           *message);
gboolean         sl_summary_read_varint           (const guint8                    **p,
                                                   const guint8                     *end,
                                                   guint64                          *value);
gboolean         sl_summary_read_length_delimited (const guint8                    **p,
                                                   const guint8                     *end,
                                                   const guint8                    **data,
                                                   gsize                            *len);
SlSummaryDecoded sl_summary_check_nesting         (SlSummaryReader                  *self,
                                                   const ProtobufCMessageDescriptor *descriptor,
                                                   const guint8                     *payload,
                                                   gsize                             len);

/* The worker of an update or a follow (sl-summary-reader.c). */
void             sl_summary_reader_update_thread  (GTask            *task,
                                                   gpointer          source_object,
                                                   gpointer          task_data,
                                                   GCancellable     *cancellable);

/* Discovery (sl-summary-discovery.c). */
gboolean         sl_summary_reader_discover       (SlSummaryReader  *self,
                                                   GCancellable     *cancellable,
                                                   GError          **error);
int              sl_summary_reader_compare_runs   (gconstpointer     a,
                                                   gconstpointer     b);

G_END_DECLS
