/* sl-api-calls.h: every host API call of a profile, by start time
 *
 * The SQLite export keeps each CANN_API call with its times, so the
 * statistics of any stretch of the run (one step) can be made from them;
 * the CSV summaries only have totals. Built by the profile readers in a
 * worker, read-only (and safe to read from any thread) once finished.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-op-table.h"

G_BEGIN_DECLS

#define SL_TYPE_API_CALLS (sl_api_calls_get_type ())
G_DECLARE_FINAL_TYPE (SlApiCalls, sl_api_calls, SL, API_CALLS, GObject)

SlApiCalls *sl_api_calls_new          (void);
void        sl_api_calls_add          (SlApiCalls   *self,
                                       const char   *level,
                                       const char   *name,
                                       gint64        start_ns,
                                       gint64        duration_ns);
void        sl_api_calls_finish       (SlApiCalls   *self);

guint       sl_api_calls_get_n_calls  (SlApiCalls   *self);
gboolean    sl_api_calls_get_span     (SlApiCalls   *self,
                                       gint64       *start_ns,
                                       gint64       *end_ns);
/* The calls that start in [@start_ns, @end_ns), one type row per level
 * and name (op type = the API's name, core type = its level), finished;
 * NULL when cancelled. */
SlOpTable  *sl_api_calls_aggregate    (SlApiCalls   *self,
                                       gint64        start_ns,
                                       gint64        end_ns,
                                       GCancellable *cancellable);

G_END_DECLS
