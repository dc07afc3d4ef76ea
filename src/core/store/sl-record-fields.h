/* sl-record-fields.h: setting the fields of the store's records
 *
 * For the record types of this folder only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Replaces *@field with a copy of @value, which may be *@field itself. */
static inline void
sl_record_replace_string (char       **field,
                          const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
}

/* Replaces *@field with a copy of @value, which may be *@field itself;
 * lists are never %NULL, so callers can walk them without a check. */
static inline void
sl_record_replace_strv (char               ***field,
                        const char * const   *value)
{
  char **copy = value != NULL ? g_strdupv ((char **)value) : g_new0 (char *, 1);

  g_strfreev (*field);
  *field = copy;
}

G_END_DECLS
