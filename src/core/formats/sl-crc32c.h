/* sl-crc32c.h: CRC-32C (Castagnoli) as used by TFRecord and summary files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint32 sl_crc32c         (gconstpointer data,
                           gsize         len);
guint32 sl_crc32c_extend  (guint32       crc,
                           gconstpointer data,
                           gsize         len);
guint32 sl_crc32c_mask    (guint32       crc);
guint32 sl_crc32c_unmask  (guint32       masked_crc);

G_END_DECLS
