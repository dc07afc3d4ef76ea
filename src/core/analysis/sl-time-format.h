/* sl-time-format.h: durations and timestamps in the unit the user chose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The values match the "time-unit" setting's enum. */
typedef enum {
  SL_TIME_UNIT_AUTO,
  SL_TIME_UNIT_NS,
  SL_TIME_UNIT_US,
  SL_TIME_UNIT_MS,
  SL_TIME_UNIT_SEC,
} SlTimeUnit;

char     *sl_time_format_ns     (gint64      ns,
                                 SlTimeUnit  unit);
double    sl_time_unit_scale    (SlTimeUnit  unit);
const char *sl_time_unit_symbol (SlTimeUnit  unit);
SlTimeUnit sl_time_unit_for_ns  (gint64      ns);

G_END_DECLS
