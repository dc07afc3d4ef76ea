/* sl-trace-slices.c: the escape tables of packed slice columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-trace-slices.h"

guint64
sl_trace_slices_escape_lookup (const SlTraceSlicesEscapes *escapes,
                               guint                       index)
{
  guint lo = 0, hi = escapes->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (escapes->items[mid].index < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < escapes->n && escapes->items[lo].index == index)
    return escapes->items[lo].value;
  return 0;
}
