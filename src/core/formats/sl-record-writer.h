/* sl-record-writer.h: writes TFRecord-framed records (summary, tfevents)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* uint64 length + uint32 masked CRC of the length */
#define SL_RECORD_HEADER_SIZE  12
/* uint32 masked CRC of the payload */
#define SL_RECORD_FOOTER_SIZE  4

#define SL_TYPE_RECORD_WRITER (sl_record_writer_get_type ())
G_DECLARE_FINAL_TYPE (SlRecordWriter, sl_record_writer, SL, RECORD_WRITER, GObject)

SlRecordWriter *sl_record_writer_new            (GOutputStream   *stream);
GOutputStream  *sl_record_writer_get_stream     (SlRecordWriter  *self);
guint64         sl_record_writer_get_n_records  (SlRecordWriter  *self);
guint64         sl_record_writer_get_offset     (SlRecordWriter  *self);
gboolean        sl_record_writer_write          (SlRecordWriter  *self,
                                                 gconstpointer    payload,
                                                 gsize            len,
                                                 GCancellable    *cancellable,
                                                 GError         **error);
GBytes         *sl_record_frame                 (gconstpointer    payload,
                                                 gsize            len);

G_END_DECLS
