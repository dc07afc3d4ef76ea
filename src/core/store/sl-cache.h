/* sl-cache.h: the local cache folder (pulled results, decoded data)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

char     *sl_cache_dup_dir      (const char    *configured);
gboolean  sl_cache_measure      (const char    *dir,
                                 guint64       *size,
                                 guint         *n_files,
                                 GCancellable  *cancellable,
                                 GError       **error);
gboolean  sl_cache_trim         (const char    *dir,
                                 guint64        limit,
                                 guint64       *freed,
                                 GCancellable  *cancellable,
                                 GError       **error);

G_END_DECLS
