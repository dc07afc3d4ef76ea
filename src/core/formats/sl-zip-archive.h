/* sl-zip-archive.h: the entries of a zip archive held in memory
 *
 * Enough of zip for PyTorch's .pt files: the central directory, stored
 * and deflated entries, no zip64 and no encryption. Every offset and size
 * is checked against the data before it is used.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_ZIP_MAX_ENTRIES 65536

typedef struct _SlZipArchive SlZipArchive;

/* @bytes stays referenced while the archive lives. */
SlZipArchive *sl_zip_archive_new        (GBytes        *bytes,
                                         GError       **error);
guint         sl_zip_archive_get_n_entries (SlZipArchive *self);
const char   *sl_zip_archive_get_name   (SlZipArchive  *self,
                                         guint          index);
/* The index of @name, or -1. */
int           sl_zip_archive_find       (SlZipArchive  *self,
                                         const char    *name);
/* The contents of an entry: a slice of the archive when it is stored,
 * inflated when it is deflated (up to @max_size bytes). */
GBytes       *sl_zip_archive_read       (SlZipArchive  *self,
                                         guint          index,
                                         gsize          max_size,
                                         GError       **error);
void          sl_zip_archive_free       (SlZipArchive  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlZipArchive, sl_zip_archive_free)

G_END_DECLS
