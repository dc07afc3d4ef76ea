/* sl-document-address.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-document-address.h"

struct _SlDocumentAddress
{
  GStrv paths;   /* at least one, none empty */
};

G_DEFINE_BOXED_TYPE (SlDocumentAddress, sl_document_address, sl_document_address_ref, sl_document_address_unref)

static void
address_clear (SlDocumentAddress *self)
{
  g_strfreev (self->paths);
}

/**
 * sl_document_address_new:
 * @paths: (array zero-terminated=1): one path or more, none empty
 *
 * Returns: (transfer full): the address of @paths, in their order
 */
SlDocumentAddress *
sl_document_address_new (const char * const *paths)
{
  SlDocumentAddress *self;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  for (guint i = 0; paths[i] != NULL; i++)
    g_return_val_if_fail (paths[i][0] != '\0', NULL);

  self = g_atomic_rc_box_new0 (SlDocumentAddress);
  self->paths = g_strdupv ((char **) paths);
  return self;
}

/**
 * sl_document_address_new_for_path:
 *
 * Returns: (transfer full): the address of a document of one path
 */
SlDocumentAddress *
sl_document_address_new_for_path (const char *path)
{
  const char *paths[] = { path, NULL };

  g_return_val_if_fail (path != NULL, NULL);
  return sl_document_address_new (paths);
}

/**
 * sl_document_address_new_pair:
 * @first: the first side: a profile comparison's baseline, a tensor
 *   comparison's NPU dump
 * @second: the other side
 *
 * Returns: (transfer full): the address of a comparison of two paths
 */
SlDocumentAddress *
sl_document_address_new_pair (const char *first,
                              const char *second)
{
  const char *paths[] = { first, second, NULL };

  g_return_val_if_fail (first != NULL && second != NULL, NULL);
  return sl_document_address_new (paths);
}

/**
 * sl_document_address_new_for_files:
 * @files: (array length=n_files): local files
 *
 * Returns: (transfer full) (nullable): their address, or %NULL when one
 *   of them has no local path
 */
SlDocumentAddress *
sl_document_address_new_for_files (GFile * const *files,
                                   guint          n_files)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (files != NULL && n_files > 0, NULL);

  for (guint i = 0; i < n_files; i++)
    {
      char *path = g_file_get_path (files[i]);

      if (path == NULL)
        return NULL;
      g_ptr_array_add (paths, path);
    }
  g_ptr_array_add (paths, NULL);
  return sl_document_address_new ((const char * const *) paths->pdata);
}

/**
 * sl_document_address_new_from_variant:
 * @variant: an `as` of one path or more (a `win.open-paths` parameter),
 *   or an `s` of one path
 *
 * Returns: (transfer full) (nullable): the address, or %NULL when
 *   @variant holds no path or an empty one
 */
SlDocumentAddress *
sl_document_address_new_from_variant (GVariant *variant)
{
  g_autofree const char **paths = NULL;

  g_return_val_if_fail (variant != NULL, NULL);

  if (g_variant_is_of_type (variant, G_VARIANT_TYPE_STRING))
    {
      const char *path = g_variant_get_string (variant, NULL);

      return path[0] != '\0' ? sl_document_address_new_for_path (path) : NULL;
    }
  if (!g_variant_is_of_type (variant, G_VARIANT_TYPE_STRING_ARRAY))
    return NULL;

  paths = g_variant_get_strv (variant, NULL);
  if (paths[0] == NULL)
    return NULL;
  for (guint i = 0; paths[i] != NULL; i++)
    if (paths[i][0] == '\0')
      return NULL;
  return sl_document_address_new (paths);
}

SlDocumentAddress *
sl_document_address_ref (SlDocumentAddress *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
sl_document_address_unref (SlDocumentAddress *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, (GDestroyNotify) address_clear);
}

guint
sl_document_address_get_n_paths (const SlDocumentAddress *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return g_strv_length (self->paths);
}

/**
 * sl_document_address_get_path:
 *
 * Returns: (nullable): path @index, or %NULL past the last
 */
const char *
sl_document_address_get_path (const SlDocumentAddress *self,
                              guint                    index)
{
  g_return_val_if_fail (self != NULL, NULL);
  return index < g_strv_length (self->paths) ? self->paths[index] : NULL;
}

/**
 * sl_document_address_get_paths:
 *
 * Returns: (transfer none) (array zero-terminated=1): the paths
 */
const char * const *
sl_document_address_get_paths (const SlDocumentAddress *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return (const char * const *) self->paths;
}

/**
 * sl_document_address_dup_file:
 *
 * Returns: (transfer full) (nullable): path @index as a file
 */
GFile *
sl_document_address_dup_file (const SlDocumentAddress *self,
                              guint                    index)
{
  const char *path = sl_document_address_get_path (self, index);

  return path != NULL ? g_file_new_for_path (path) : NULL;
}

/**
 * sl_document_address_to_variant:
 *
 * Returns: (transfer floating): the paths as an `as`
 */
GVariant *
sl_document_address_to_variant (const SlDocumentAddress *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_variant_new_strv ((const char * const *) self->paths, -1);
}

/**
 * sl_document_address_dup_key:
 *
 * Returns: (transfer full): a string naming the address and nothing
 *   else: the path itself for one path, the `as` in GVariant text
 *   format for more
 */
char *
sl_document_address_dup_key (const SlDocumentAddress *self)
{
  g_autoptr(GVariant) variant = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->paths[1] == NULL)
    return g_strdup (self->paths[0]);
  variant = g_variant_ref_sink (sl_document_address_to_variant (self));
  return g_variant_print (variant, FALSE);
}

gboolean
sl_document_address_equal (const SlDocumentAddress *a,
                           const SlDocumentAddress *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  return g_strv_equal ((const char * const *) a->paths, (const char * const *) b->paths);
}
