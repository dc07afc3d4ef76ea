/* sl-intern-table.h: the interned strings of a trace
 *
 * Open addressing keyed by length + bytes, so the importers look strings
 * up without copying them first. Ids are dense from 0 in insertion order.
 * Once a trace is built, sl_intern_table_freeze() drops the lookup slots:
 * the strings stay readable by id.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlInternTable SlInternTable;

SlInternTable *sl_intern_table_new             (void);
void           sl_intern_table_free            (SlInternTable *table);
guint32        sl_intern_table_intern          (SlInternTable *table,
                                                const char    *str,
                                                gsize          len);
/* The id of @str, or G_MAXUINT32 when it was never interned; not once frozen. */
guint32        sl_intern_table_lookup          (SlInternTable *table,
                                                const char    *str,
                                                gsize          len);
/* Valid UTF-8 (a repaired copy for bytes that were not); "" for an unknown id. */
const char    *sl_intern_table_get             (SlInternTable *table,
                                                guint32        id);
guint          sl_intern_table_get_n_strings   (SlInternTable *table);
void           sl_intern_table_freeze          (SlInternTable *table);
gsize          sl_intern_table_get_memory_size (SlInternTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlInternTable, sl_intern_table_free)

G_END_DECLS
