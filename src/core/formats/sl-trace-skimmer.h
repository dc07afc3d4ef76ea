/* sl-trace-skimmer.h: tells a Chrome trace from other JSON by its structure
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How many bytes (after decompression) the skimmer reads at most before
 * it gives up: exporters may write megabytes of metadata before
 * "traceEvents". */
#define SL_TRACE_SKIMMER_BUDGET (64 * 1024 * 1024)

typedef enum {
  SL_TRACE_VERDICT_UNDECIDED,   /* more input is needed */
  SL_TRACE_VERDICT_TRACE,
  SL_TRACE_VERDICT_NOT_TRACE,
} SlTraceVerdict;

typedef struct _SlTraceSkimmer SlTraceSkimmer;

SlTraceSkimmer *sl_trace_skimmer_new          (guint64          budget);
SlTraceVerdict  sl_trace_skimmer_feed         (SlTraceSkimmer  *self,
                                               const guint8    *data,
                                               gsize            len);
SlTraceVerdict  sl_trace_skimmer_finish       (SlTraceSkimmer  *self);
SlTraceVerdict  sl_trace_skimmer_get_verdict  (SlTraceSkimmer  *self);
const char     *sl_trace_skimmer_get_key      (SlTraceSkimmer  *self);
guint64         sl_trace_skimmer_get_offset   (SlTraceSkimmer  *self);
gboolean        sl_trace_skimmer_is_array     (SlTraceSkimmer  *self);
gboolean        sl_trace_skimmer_is_out_of_budget (SlTraceSkimmer *self);
void            sl_trace_skimmer_free         (SlTraceSkimmer  *self);

gboolean        sl_trace_skimmer_is_trace_key (const char      *key);
SlTraceVerdict  sl_trace_skimmer_skim_stream  (GInputStream    *stream,
                                               guint64          budget,
                                               gboolean        *is_array,
                                               gboolean        *out_of_budget,
                                               GCancellable    *cancellable,
                                               GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTraceSkimmer, sl_trace_skimmer_free)

G_END_DECLS
