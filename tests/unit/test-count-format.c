/* test-count-format.c: counts with their digits grouped
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>

#include "sl-count-format.h"

static void
check (guint64     count,
       const char *expected)
{
  g_autofree char *text = sl_count_format (count);

  g_assert_cmpstr (text, ==, expected);
}

/* The C locale names no separator: a comma, as English writes it. */
static void
test_c_locale (void)
{
  setlocale (LC_NUMERIC, "C");
  check (0, "0");
  check (7, "7");
  check (999, "999");
  check (1000, "1,000");
  check (14400, "14,400");
  check (100000, "100,000");
  check (1000000, "1,000,000");
  check (7578927, "7,578,927");
  check (G_MAXUINT64, "18,446,744,073,709,551,615");
}

/* Another locale's separator, of one byte or of several. */
static void
test_separators (void)
{
  g_autofree char *period = sl_count_format_with_separator (1234567, ".");
  g_autofree char *thin = sl_count_format_with_separator (1234567, "\u202f");
  g_autofree char *short_one = sl_count_format_with_separator (12, ".");

  g_assert_cmpstr (period, ==, "1.234.567");
  g_assert_cmpstr (thin, ==, "1\u202f234\u202f567");
  g_assert_cmpstr (short_one, ==, "12");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/count-format/c-locale", test_c_locale);
  g_test_add_func ("/count-format/separators", test_separators);
  return g_test_run ();
}
