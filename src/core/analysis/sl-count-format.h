/* sl-count-format.h: counts with their digits grouped ("7,578,927")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *sl_count_format                (guint64     count);
char *sl_count_format_with_separator (guint64     count,
                                      const char *separator);

G_END_DECLS
