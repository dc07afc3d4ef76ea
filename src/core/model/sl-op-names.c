/* sl-op-names.c
 *
 * Two hash sets: the names as given, and the last parts of the scoped
 * ones. Looking a name up costs two hash lookups whatever the set's size,
 * so a trace's names can all be tried against hundreds of ops.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-op-names.h"

struct _SlOpNames
{
  GHashTable *names;   /* as given */
  GHashTable *leaves;  /* the part after the last '/' of scoped names */
};

/**
 * sl_op_names_new:
 * @names: (array zero-terminated=1) (nullable): op names; empty ones are
 *   left out
 *
 * Returns: (transfer full): the set
 */
SlOpNames *
sl_op_names_new (const char * const *names)
{
  SlOpNames *self = g_new0 (SlOpNames, 1);

  self->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->leaves = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      const char *slash = strrchr (names[i], '/');

      if (names[i][0] == '\0')
        continue;
      g_hash_table_add (self->names, g_strdup (names[i]));
      if (slash != NULL && slash[1] != '\0')
        g_hash_table_add (self->leaves, g_strdup (slash + 1));
    }
  return self;
}

void
sl_op_names_free (SlOpNames *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->names);
  g_hash_table_unref (self->leaves);
  g_free (self);
}

/* How many different names the set holds */
guint
sl_op_names_get_size (SlOpNames *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return g_hash_table_size (self->names);
}

gboolean
sl_op_names_contains (SlOpNames  *self,
                      const char *name)
{
  const char *slash;

  g_return_val_if_fail (self != NULL, FALSE);

  if (name == NULL || name[0] == '\0')
    return FALSE;
  if (g_hash_table_contains (self->names, name))
    return TRUE;
  slash = strrchr (name, '/');
  /* "MatMul-op4" for "Default/net/MatMul-op4", and the other way round */
  if (slash == NULL)
    return g_hash_table_contains (self->leaves, name);
  return slash[1] != '\0' && g_hash_table_contains (self->names, slash + 1);
}
