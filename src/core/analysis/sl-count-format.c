/* sl-count-format.c
 *
 * A count of millions of slices reads at a glance only with its digits
 * grouped by thousands. The separator is the locale's (a period in German,
 * a space in French); a locale that has none, like C, gets a comma, as
 * English and Chinese write it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "sl-count-format.h"

/**
 * sl_count_format_with_separator:
 * @separator: UTF-8, put between groups
 *
 * Returns: (transfer full): @count in decimal, its digits grouped by three
 */
char *
sl_count_format_with_separator (guint64     count,
                                const char *separator)
{
  char digits[24];
  int n = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, count);
  GString *out = g_string_sized_new (n + (n / 3) * strlen (separator));

  for (int i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append (out, separator);
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

/**
 * sl_count_format:
 *
 * Returns: (transfer full): @count in decimal, its digits grouped by three
 *   with the locale's separator
 */
char *
sl_count_format (guint64 count)
{
  const struct lconv *conv = localeconv ();
  /* (a C runtime may give it in a code page of its own: then a comma) */
  const char *separator = conv != NULL && conv->thousands_sep != NULL && conv->thousands_sep[0] != '\0'
                          && g_utf8_validate (conv->thousands_sep, -1, NULL)
                          ? conv->thousands_sep : ",";

  return sl_count_format_with_separator (count, separator);
}
