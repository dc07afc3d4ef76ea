/* sl-crc32c.c
 *
 * Slicing-by-8 CRC-32C with the reflected Castagnoli polynomial. Summary
 * files carry two checksums per record, and the large ones hold a million
 * records, so the per-byte loop matters.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-crc32c.h"

#define CRC32C_POLY       0x82F63B78u
#define CRC32C_MASK_DELTA 0xA282EAD8u

static guint32 crc_table[8][256];

static void
build_tables (void)
{
  for (guint i = 0; i < 256; i++)
    {
      guint32 crc = i;

      for (guint bit = 0; bit < 8; bit++)
        crc = (crc & 1) ? (crc >> 1) ^ CRC32C_POLY : crc >> 1;

      crc_table[0][i] = crc;
    }

  for (guint i = 0; i < 256; i++)
    {
      for (guint slice = 1; slice < 8; slice++)
        {
          guint32 prev = crc_table[slice - 1][i];

          crc_table[slice][i] = (prev >> 8) ^ crc_table[0][prev & 0xff];
        }
    }
}

static void
ensure_tables (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      build_tables ();
      g_once_init_leave (&initialized, 1);
    }
}

/* Reads eight bytes as two little-endian words without assuming the
 * buffer is aligned. */
static inline guint32
read_le32 (const guint8 *p)
{
  return (guint32)p[0] | ((guint32)p[1] << 8) | ((guint32)p[2] << 16) | ((guint32)p[3] << 24);
}

/**
 * sl_crc32c_extend:
 * @crc: the CRC of the bytes before @data, or 0 to start
 *
 * Returns: the CRC-32C of the earlier bytes followed by @data
 */
guint32
sl_crc32c_extend (guint32       crc,
                  gconstpointer data,
                  gsize         len)
{
  const guint8 *p = data;

  g_return_val_if_fail (data != NULL || len == 0, crc);

  ensure_tables ();

  crc = ~crc;

  while (len >= 8)
    {
      guint32 lo = read_le32 (p) ^ crc;
      guint32 hi = read_le32 (p + 4);

      crc = crc_table[7][lo & 0xff] ^
            crc_table[6][(lo >> 8) & 0xff] ^
            crc_table[5][(lo >> 16) & 0xff] ^
            crc_table[4][lo >> 24] ^
            crc_table[3][hi & 0xff] ^
            crc_table[2][(hi >> 8) & 0xff] ^
            crc_table[1][(hi >> 16) & 0xff] ^
            crc_table[0][hi >> 24];
      p += 8;
      len -= 8;
    }

  while (len-- > 0)
    crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];

  return ~crc;
}

guint32
sl_crc32c (gconstpointer data,
           gsize         len)
{
  return sl_crc32c_extend (0, data, len);
}

/* TFRecord stores CRCs rotated and offset, because a CRC of data that
 * itself contains CRCs is weak. */
guint32
sl_crc32c_mask (guint32 crc)
{
  return ((crc >> 15) | (crc << 17)) + CRC32C_MASK_DELTA;
}

guint32
sl_crc32c_unmask (guint32 masked_crc)
{
  guint32 rotated = masked_crc - CRC32C_MASK_DELTA;

  return (rotated >> 17) | (rotated << 15);
}
