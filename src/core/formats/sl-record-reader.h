/* sl-record-reader.h: reads TFRecord-framed records (summary, tfevents)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-problem.h"

G_BEGIN_DECLS

/* Longer records are refused: no writer produces them and a damaged length
 * must not make us allocate gigabytes. */
#define SL_RECORD_MAX_LENGTH  (G_GUINT64_CONSTANT (512) * 1024 * 1024)

typedef enum {
  SL_RECORD_STATUS_OK,
  SL_RECORD_STATUS_END,
  SL_RECORD_STATUS_BAD_PAYLOAD,
  SL_RECORD_STATUS_STOPPED,
  SL_RECORD_STATUS_ERROR,
} SlRecordStatus;

#define SL_TYPE_RECORD_READER (sl_record_reader_get_type ())
G_DECLARE_FINAL_TYPE (SlRecordReader, sl_record_reader, SL, RECORD_READER, GObject)

SlRecordReader *sl_record_reader_new                (GInputStream     *stream,
                                                     const char       *path,
                                                     guint64           offset);
SlRecordStatus  sl_record_reader_next               (SlRecordReader   *self,
                                                     const guint8    **payload,
                                                     gsize            *len,
                                                     GCancellable     *cancellable,
                                                     GError          **error);
guint64         sl_record_reader_get_offset         (SlRecordReader   *self);
guint64         sl_record_reader_get_record_offset  (SlRecordReader   *self);
guint64         sl_record_reader_get_n_records      (SlRecordReader   *self);
guint64         sl_record_reader_get_n_bad          (SlRecordReader   *self);
guint64         sl_record_reader_get_tail_bytes     (SlRecordReader   *self);
SlProblem      *sl_record_reader_get_problem        (SlRecordReader   *self);

G_END_DECLS
