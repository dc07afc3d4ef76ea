/* test-intern-table.c: names interned once, and repaired where they are not
 * UTF-8
 *
 * Random strings of every kind a trace holds (ASCII, two- to four-byte
 * characters, bytes that are no UTF-8, a nul, cut characters), of every
 * length around the eight-byte steps the check takes, each at every
 * offset of a larger buffer: a string interned twice has one id, and what
 * the table gives back is the string itself exactly when glib calls it
 * valid UTF-8, else glib's repair of it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-intern-table.h"

static const char *const pieces[] = {
  "a", "Z", "_", "/", "0", " ", "é", "中", "€", "😀", "\xff", "\xc3", "\xe4\xb8", "\xed\xa0\x80", "\xc0\xaf",
  "\xf4\x90\x80\x80",
};

static void
test_validity (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261207);
  g_autoptr(SlInternTable) table = sl_intern_table_new ();
  g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  guint n_valid = 0, n_repaired = 0;

  for (guint k = 0; k < 20000; k++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint ascii = g_rand_int_range (rand, 0, 40);
      char buffer[128];
      guint offset = g_rand_int_range (rand, 0, 8);
      guint32 id;

      /* mostly ASCII, as names are, with something else now and then */
      for (guint i = 0; i < ascii; i++)
        g_string_append_c (text, (char)g_rand_int_range (rand, 0x20, 0x7f));
      if (k % 3 != 0)
        g_string_append (text, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
      if (k % 7 == 0)
        g_string_append_c (text, '\0');
      for (guint i = g_rand_int_range (rand, 0, 12); i > 0; i--)
        g_string_append_c (text, (char)g_rand_int_range (rand, 0x20, 0x7f));

      memset (buffer, 'x', sizeof buffer);
      memcpy (buffer + offset, text->str, text->len);
      id = sl_intern_table_intern (table, buffer + offset, text->len);
      g_assert_cmpuint (sl_intern_table_intern (table, text->str, text->len), ==, id);
      if (id == sl_intern_table_get_n_strings (table) - 1 && id == kept->len)
        g_ptr_array_add (kept, g_bytes_new (text->str, text->len));

      if (g_utf8_validate_len (text->str, text->len, NULL))
        {
          g_assert_cmpmem (sl_intern_table_get (table, id), strlen (sl_intern_table_get (table, id)), text->str,
                           text->len);
          n_valid++;
        }
      else
        {
          g_autofree char *repaired = g_utf8_make_valid (text->str, text->len);

          g_assert_cmpstr (sl_intern_table_get (table, id), ==, repaired);
          n_repaired++;
        }
    }
  g_assert_cmpuint (n_valid, >, 1000);
  g_assert_cmpuint (n_repaired, >, 1000);
  /* every distinct string once, in the order first met */
  for (guint id = 0; id < kept->len; id++)
    {
      gsize size;
      const char *data = g_bytes_get_data (g_ptr_array_index (kept, id), &size);

      /* an empty GBytes has no data */
      if (data == NULL)
        data = "";

      g_assert_cmpuint (sl_intern_table_lookup (table, data, size), ==, id);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/intern-table/validity", test_validity);
  return g_test_run ();
}
