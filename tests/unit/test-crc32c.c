/* test-crc32c.c: known answers for CRC-32C and the TFRecord mask
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib.h>

#include "sl-crc32c.h"

static void
test_check_value (void)
{
  g_assert_cmphex (sl_crc32c ("123456789", 9), ==, 0xE3069283);
  g_assert_cmphex (sl_crc32c ("", 0), ==, 0);
}

/* RFC 3720 (iSCSI), appendix B.4 */
static void
test_rfc3720_vectors (void)
{
  guint8 buf[32];

  memset (buf, 0x00, sizeof buf);
  g_assert_cmphex (sl_crc32c (buf, sizeof buf), ==, 0x8A9136AA);

  memset (buf, 0xFF, sizeof buf);
  g_assert_cmphex (sl_crc32c (buf, sizeof buf), ==, 0x62A8AB43);

  for (guint i = 0; i < sizeof buf; i++)
    buf[i] = i;
  g_assert_cmphex (sl_crc32c (buf, sizeof buf), ==, 0x46DD794E);

  for (guint i = 0; i < sizeof buf; i++)
    buf[i] = 31 - i;
  g_assert_cmphex (sl_crc32c (buf, sizeof buf), ==, 0x113FDB5C);
}

/* The slicing-by-8 path must agree with the byte path for every split
 * and every alignment. */
static void
test_extend_and_alignment (void)
{
  const char *text = "The quick brown fox jumps over the lazy dog, twice over.";
  gsize len = strlen (text);
  guint32 whole = sl_crc32c (text, len);
  g_autofree char *shifted = g_malloc (len + 8);

  for (gsize split = 0; split <= len; split++)
    {
      guint32 crc = sl_crc32c (text, split);

      crc = sl_crc32c_extend (crc, text + split, len - split);
      g_assert_cmphex (crc, ==, whole);
    }

  for (guint offset = 0; offset < 8; offset++)
    {
      memcpy (shifted + offset, text, len);
      g_assert_cmphex (sl_crc32c (shifted + offset, len), ==, whole);
    }
}

static void
test_mask (void)
{
  /* The length field of a 26-byte record, as MindInsight's writer framed it */
  const guint8 length_26[8] = { 0x1a, 0, 0, 0, 0, 0, 0, 0 };

  g_assert_cmphex (sl_crc32c_mask (0xE3069283), ==, 0xC78AB0E5);
  g_assert_cmphex (sl_crc32c_unmask (0xC78AB0E5), ==, 0xE3069283);
  g_assert_cmphex (sl_crc32c_mask (sl_crc32c (length_26, 8)), ==, 0x2DD89B12);

  for (guint32 crc = 1; crc != 0 && crc < 0xF0000000u; crc = crc * 3 + 7)
    g_assert_cmphex (sl_crc32c_unmask (sl_crc32c_mask (crc)), ==, crc);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/crc32c/check-value", test_check_value);
  g_test_add_func ("/crc32c/rfc3720", test_rfc3720_vectors);
  g_test_add_func ("/crc32c/extend-and-alignment", test_extend_and_alignment);
  g_test_add_func ("/crc32c/mask", test_mask);

  return g_test_run ();
}
