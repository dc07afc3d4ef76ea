/* sl-platform.h: the one place for operating-system specific code
 *
 * Everything else in Sightline goes through GLib and GIO. Code that needs
 * POSIX or Win32 calls directly lives in sl-platform.c, behind these
 * functions, so a port only has one file to look at.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint64  sl_platform_get_resident_bytes       (void);
guint64  sl_platform_get_peak_resident_bytes  (void);
gboolean sl_platform_is_windows               (void);
guint    sl_platform_get_n_cpus               (void);
gboolean sl_platform_has_gpu_render_node      (void);
gpointer sl_platform_alloc_huge_pages         (gsize size);
void     sl_platform_free_huge_pages          (gpointer memory);
gboolean sl_platform_read_small_file          (const char  *path,
                                               gsize        max_size,
                                               guint8     **data,
                                               gsize       *length,
                                               guint64     *stat_size);

G_END_DECLS
