/* sl-trace-text-reader.h: event texts of a trace, read from its sources
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-trace.h"

G_BEGIN_DECLS

/* Reads many event texts in one pass: ask in increasing offset order
 * (per source) and a gzip source is inflated only once. */
typedef struct _SlTraceTextReader SlTraceTextReader;
SlTraceTextReader *sl_trace_text_reader_new          (SlTrace           *trace);
char           *sl_trace_text_reader_read            (SlTraceTextReader *reader,
                                                      guint64            offset,
                                                      guint32            length,
                                                      GError           **error);
void            sl_trace_text_reader_free            (SlTraceTextReader *reader);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTraceTextReader, sl_trace_text_reader_free)

G_END_DECLS
