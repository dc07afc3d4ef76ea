/* sl-cache.c
 *
 * The cache only holds copies: anything in it can be pulled or decoded
 * again, so trimming removes the least recently modified files first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-cache.h"

typedef struct {
  char    *path;
  guint64  size;
  guint64  mtime;
} CacheFile;

static void
cache_file_clear (gpointer data)
{
  CacheFile *file = data;

  g_free (file->path);
}

/**
 * sl_cache_dup_dir:
 * @configured: (nullable): the cache-dir setting; empty or %NULL for the
 *   default
 *
 * Returns: (transfer full): the cache folder
 */
char *
sl_cache_dup_dir (const char *configured)
{
  if (configured != NULL && configured[0] != '\0')
    return g_strdup (configured);

  return g_build_filename (g_get_user_cache_dir (), "sightline", NULL);
}

static gboolean
collect_files (GFile         *dir,
               GArray        *files,
               guint          depth,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GError) local_error = NULL;

  /* Symbolic links are never followed: the cache must not count, or
   * delete, anything outside itself. */
  enumerator = g_file_enumerate_children (dir,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                                          G_FILE_ATTRIBUTE_TIME_MODIFIED,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                          cancellable, &local_error);
  if (enumerator == NULL)
    {
      /* A cache that does not exist yet is an empty cache. */
      if (depth == 0 && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  for (;;)
    {
      GFileInfo *info;
      GFile *child;

      if (!g_file_enumerator_iterate (enumerator, &info, &child, cancellable, error))
        return FALSE;
      if (info == NULL)
        break;

      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          if (depth < 64 && !collect_files (child, files, depth + 1, cancellable, error))
            return FALSE;
        }
      else
        {
          CacheFile file = {
            g_file_get_path (child),
            g_file_info_get_size (info),
            g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED),
          };

          g_array_append_val (files, file);
        }
    }

  return TRUE;
}

static GArray *
list_files (const char    *dir,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GArray) files = g_array_new (FALSE, FALSE, sizeof (CacheFile));

  g_array_set_clear_func (files, cache_file_clear);
  if (!collect_files (file, files, 0, cancellable, error))
    return NULL;

  return g_steal_pointer (&files);
}

/**
 * sl_cache_measure:
 * @size: (out) (optional): bytes in the cache
 * @n_files: (out) (optional): files in the cache
 *
 * Blocking; call it from a worker thread.
 */
gboolean
sl_cache_measure (const char    *dir,
                  guint64       *size,
                  guint         *n_files,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(GArray) files = NULL;
  guint64 total = 0;

  g_return_val_if_fail (dir != NULL, FALSE);

  files = list_files (dir, cancellable, error);
  if (files == NULL)
    return FALSE;

  for (guint i = 0; i < files->len; i++)
    total += g_array_index (files, CacheFile, i).size;

  if (size != NULL)
    *size = total;
  if (n_files != NULL)
    *n_files = files->len;

  return TRUE;
}

static int
compare_oldest_first (gconstpointer a,
                      gconstpointer b)
{
  const CacheFile *fa = a;
  const CacheFile *fb = b;

  if (fa->mtime != fb->mtime)
    return fa->mtime < fb->mtime ? -1 : 1;
  return g_strcmp0 (fa->path, fb->path);
}

/**
 * sl_cache_trim:
 * @limit: the size to get under, in bytes; 0 empties the cache
 * @freed: (out) (optional): bytes removed
 *
 * Removes the least recently modified files until the cache holds at
 * most @limit bytes. Blocking; call it from a worker thread.
 */
gboolean
sl_cache_trim (const char    *dir,
               guint64        limit,
               guint64       *freed,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GArray) files = NULL;
  guint64 total = 0;
  guint64 removed = 0;

  g_return_val_if_fail (dir != NULL, FALSE);

  files = list_files (dir, cancellable, error);
  if (files == NULL)
    return FALSE;

  for (guint i = 0; i < files->len; i++)
    total += g_array_index (files, CacheFile, i).size;

  g_array_sort (files, compare_oldest_first);

  for (guint i = 0; i < files->len && total - removed > limit; i++)
    {
      CacheFile *file = &g_array_index (files, CacheFile, i);
      g_autoptr(GFile) gfile = g_file_new_for_path (file->path);

      if (!g_file_delete (gfile, cancellable, error))
        return FALSE;
      removed += file->size;
    }

  if (freed != NULL)
    *freed = removed;

  return TRUE;
}
