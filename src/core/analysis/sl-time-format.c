/* sl-time-format.c
 *
 * Profiles mix nanosecond kernels with second-long steps; "auto" picks the
 * unit that keeps each value readable, a fixed unit lines up columns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-time-format.h"

/**
 * sl_time_unit_for_ns:
 *
 * Returns: the largest unit in which @ns is at least 1
 */
SlTimeUnit
sl_time_unit_for_ns (gint64 ns)
{
  guint64 a = ns < 0 ? (guint64)(-(ns + 1)) + 1 : (guint64)ns;

  if (a >= G_GUINT64_CONSTANT (1000000000))
    return SL_TIME_UNIT_SEC;
  if (a >= 1000000)
    return SL_TIME_UNIT_MS;
  if (a >= 1000)
    return SL_TIME_UNIT_US;
  return SL_TIME_UNIT_NS;
}

/**
 * sl_time_unit_scale:
 *
 * Returns: nanoseconds per @unit (1 for %SL_TIME_UNIT_AUTO)
 */
double
sl_time_unit_scale (SlTimeUnit unit)
{
  switch (unit)
    {
    case SL_TIME_UNIT_SEC: return 1e9;
    case SL_TIME_UNIT_MS: return 1e6;
    case SL_TIME_UNIT_US: return 1e3;
    case SL_TIME_UNIT_NS:
    case SL_TIME_UNIT_AUTO:
    default: return 1;
    }
}

const char *
sl_time_unit_symbol (SlTimeUnit unit)
{
  switch (unit)
    {
    /* TRANSLATORS: the symbol of seconds */
    case SL_TIME_UNIT_SEC: return _("s");
    /* TRANSLATORS: the symbol of milliseconds */
    case SL_TIME_UNIT_MS: return _("ms");
    /* TRANSLATORS: the symbol of microseconds */
    case SL_TIME_UNIT_US: return _("µs");
    case SL_TIME_UNIT_NS:
    case SL_TIME_UNIT_AUTO:
    default:
      /* TRANSLATORS: the symbol of nanoseconds */
      return _("ns");
    }
}

/**
 * sl_time_format_ns:
 * @unit: a unit, or %SL_TIME_UNIT_AUTO for the one that suits @ns
 *
 * Returns: @ns as "12.3 ms": up to four significant figures in auto mode,
 *   three decimals in a fixed unit (whole nanoseconds stay whole)
 */
char *
sl_time_format_ns (gint64     ns,
                   SlTimeUnit unit)
{
  gboolean automatic = unit == SL_TIME_UNIT_AUTO;
  double value;

  if (automatic)
    unit = sl_time_unit_for_ns (ns);
  if (unit == SL_TIME_UNIT_NS)
    return g_strdup_printf ("%lld %s", (long long)ns, sl_time_unit_symbol (unit));

  value = (double)ns / sl_time_unit_scale (unit);
  if (automatic)
    return g_strdup_printf ("%.4g %s", value, sl_time_unit_symbol (unit));
  return g_strdup_printf ("%.3f %s", value, sl_time_unit_symbol (unit));
}
