/* sl-project-upload.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-project-upload.h"
#include "sl-shell-quote.h"

#define MKDIR_BATCH 200

typedef struct {
  char    *relative;
  guint64  size;
  guint64  mtime;
} LocalFile;

static void
local_file_free (gpointer data)
{
  LocalFile *file = data;

  g_free (file->relative);
  g_free (file);
}

typedef struct {
  guint64 size;
  guint64 mtime;
} RemoteFile;

static gboolean
walk_local (GFile               *dir,
            const char          *relative,
            const char * const  *excludes,
            GPtrArray           *dirs,
            GPtrArray           *files,
            guint               *n_excluded,
            GCancellable        *cancellable,
            GError             **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;

  enumerator = g_file_enumerate_children (dir,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, error);
  if (enumerator == NULL)
    return FALSE;

  for (;;)
    {
      GFileInfo *info = NULL;
      GFile *child = NULL;
      g_autofree char *child_relative = NULL;

      if (!g_file_enumerator_iterate (enumerator, &info, &child, cancellable, error))
        return FALSE;
      if (info == NULL)
        break;

      child_relative = relative[0] != '\0'
                       ? g_strconcat (relative, "/", g_file_info_get_name (info), NULL)
                       : g_strdup (g_file_info_get_name (info));

      if (sl_transfer_is_excluded (excludes, child_relative))
        {
          (*n_excluded)++;
          continue;
        }

      switch (g_file_info_get_file_type (info))
        {
        case G_FILE_TYPE_DIRECTORY:
          g_ptr_array_add (dirs, g_strdup (child_relative));
          if (!walk_local (child, child_relative, excludes, dirs, files, n_excluded, cancellable, error))
            return FALSE;
          break;

        case G_FILE_TYPE_REGULAR:
          {
            LocalFile *file = g_new0 (LocalFile, 1);

            file->relative = g_steal_pointer (&child_relative);
            file->size = g_file_info_get_size (info);
            file->mtime = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
            g_ptr_array_add (files, file);
          }
          break;

        default:
          /* Links and special files are not sent: a link could point
           * anywhere on this computer. */
          g_debug ("Not uploading %s: not a regular file", child_relative);
          break;
        }
    }
  return TRUE;
}

/* What the target already has, for the folders the project has. A
 * folder missing on the target is simply empty. */
static gboolean
list_remote (SlTargetShell  *shell,
             const char     *remote_dir,
             GPtrArray      *dirs,
             GHashTable     *remote_files,
             GCancellable   *cancellable,
             GError        **error)
{
  for (guint i = 0; i <= dirs->len; i++)
    {
      const char *relative = i == 0 ? "" : g_ptr_array_index (dirs, i - 1);
      g_autofree char *path = relative[0] != '\0' ? g_build_path ("/", remote_dir, relative, NULL)
                                                  : g_strdup (remote_dir);
      g_autoptr(GPtrArray) entries = NULL;
      g_autoptr(GError) local_error = NULL;

      entries = sl_target_shell_list_dir (shell, path, cancellable, &local_error);
      if (entries == NULL)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            continue;
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }

      for (guint e = 0; e < entries->len; e++)
        {
          GFileInfo *info = g_ptr_array_index (entries, e);
          RemoteFile *file;

          if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
            continue;
          file = g_new0 (RemoteFile, 1);
          file->size = g_file_info_get_size (info);
          file->mtime = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
          g_hash_table_insert (remote_files,
                               relative[0] != '\0' ? g_strconcat (relative, "/", g_file_info_get_name (info), NULL)
                                                   : g_strdup (g_file_info_get_name (info)),
                               file);
        }
    }
  return TRUE;
}

static gboolean
make_remote_dirs (SlTargetShell  *shell,
                  const char     *remote_dir,
                  GPtrArray      *dirs,
                  GCancellable   *cancellable,
                  GError        **error)
{
  for (guint start = 0; start < dirs->len; start += MKDIR_BATCH)
    {
      g_autoptr(GString) command = g_string_new ("mkdir -p --");
      g_autofree char *err = NULL;
      int status = -1;

      for (guint i = start; i < MIN (dirs->len, start + MKDIR_BATCH); i++)
        {
          g_autofree char *path = g_build_path ("/", remote_dir, (char *)g_ptr_array_index (dirs, i), NULL);
          g_autofree char *quoted = sl_shell_quote (path);

          g_string_append_printf (command, " %s", quoted);
        }

      if (!sl_target_shell_run (shell, command->str, NULL, &err, &status, cancellable, error))
        return FALSE;
      if (status != 0)
        {
          int code = strstr (err, "ermission denied") != NULL ? G_IO_ERROR_PERMISSION_DENIED
                   : strstr (err, "o space left") != NULL ? G_IO_ERROR_NO_SPACE : G_IO_ERROR_FAILED;

          g_set_error (error, G_IO_ERROR, code, "%s", g_strstrip (err));
          sl_target_shell_explain_error (shell, _("Could not create the project’s folders"), remote_dir, error);
          return FALSE;
        }
    }
  return TRUE;
}

static char *
dup_local_checksum (const char *path)
{
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, NULL);

  if (mapped == NULL)
    return NULL;
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *)g_mapped_file_get_contents (mapped),
                                      g_mapped_file_get_length (mapped));
}

/* Files whose size matches but whose time does not are compared by
 * SHA-256 on both sides; equal ones are not sent. */
static void
drop_equal_content (SlTargetShell  *shell,
                    const char     *local_dir,
                    const char     *remote_dir,
                    GPtrArray      *candidates,
                    GHashTable     *remote_files,
                    guint          *n_unchanged,
                    GCancellable   *cancellable)
{
  g_autoptr(GString) command = g_string_new ("sha256sum --");
  g_autoptr(GHashTable) remote_sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;
  int status = -1;

  for (guint i = 0; i < candidates->len; i++)
    {
      LocalFile *file = g_ptr_array_index (candidates, i);
      RemoteFile *remote = g_hash_table_lookup (remote_files, file->relative);

      if (remote != NULL && remote->size == file->size)
        {
          g_autofree char *path = g_build_path ("/", remote_dir, file->relative, NULL);
          g_autofree char *quoted = sl_shell_quote (path);

          g_string_append_printf (command, " %s", quoted);
          n++;
        }
    }
  if (n == 0 ||
      !sl_target_shell_run (shell, command->str, &out, NULL, &status, cancellable, NULL))
    return;

  /* "HASH  PATH" per line; names with a newline are escaped by
   * sha256sum and simply do not match, so they are sent. */
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strlen (lines[i]) > 66 && lines[i][64] == ' ')
      g_hash_table_insert (remote_sums, g_strdup (lines[i] + 66), g_strndup (lines[i], 64));

  for (guint i = candidates->len; i > 0; i--)
    {
      LocalFile *file = g_ptr_array_index (candidates, i - 1);
      g_autofree char *remote_path = g_build_path ("/", remote_dir, file->relative, NULL);
      const char *remote_sum = g_hash_table_lookup (remote_sums, remote_path);
      g_autofree char *local_path = NULL;
      g_autofree char *local_sum = NULL;

      if (remote_sum == NULL)
        continue;
      local_path = g_build_filename (local_dir, file->relative, NULL);
      local_sum = dup_local_checksum (local_path);
      if (g_strcmp0 (local_sum, remote_sum) == 0)
        {
          g_ptr_array_remove_index (candidates, i - 1);
          (*n_unchanged)++;
        }
    }
}

/* An upload cut by a broken connection leaves its temporary file behind
 * (it could not be removed without the connection). */
static void
remove_partials (SlTargetShell *shell,
                 const char    *remote_path,
                 GCancellable  *cancellable)
{
  g_autofree char *dir = g_path_get_dirname (remote_path);
  g_autofree char *base = g_path_get_basename (remote_path);
  g_autofree char *prefix = g_strdup_printf (".%s.sl-part-", base);
  g_autofree char *quoted_dir = sl_shell_quote (dir);
  g_autofree char *quoted_prefix = sl_shell_quote (prefix);
  g_autofree char *command = g_strdup_printf ("rm -f -- %s/%s*", quoted_dir, quoted_prefix);

  sl_target_shell_run (shell, command, NULL, NULL, NULL, cancellable, NULL);
}

/**
 * sl_project_upload:
 * @local_dir: the project folder on this computer
 * @remote_dir: where it goes on the target ("~/…" allowed); made when
 *   missing
 * @excludes: (nullable): glob patterns left out, see
 *   sl_transfer_is_excluded(); sl_transfer_default_excludes() when %NULL
 * @compare_content: also compare SHA-256 hashes of files whose size
 *   matches but whose time does not
 * @progress_func: (nullable): told about files, bytes, rate and time left
 * @stats: (out) (optional): what was sent
 *
 * Sends what changed in @local_dir to @remote_dir. Cancelling stops
 * between files (a file being sent is not left half-written).
 */
gboolean
sl_project_upload (SlTargetShell           *shell,
                   const char              *local_dir,
                   const char              *remote_dir,
                   const char * const      *excludes,
                   gboolean                 compare_content,
                   SlTransferProgressFunc   progress_func,
                   gpointer                 progress_data,
                   SlUploadStats           *stats,
                   GCancellable            *cancellable,
                   GError                 **error)
{
  g_autoptr(GFile) root = NULL;
  g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (local_file_free);
  g_autoptr(GPtrArray) to_send = g_ptr_array_new ();
  g_autoptr(GHashTable) remote_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *resolved = NULL;
  SlUploadStats local_stats = { 0 };
  SlTransferMeter meter;
  guint64 bytes_total = 0;
  guint n_reconnects;

  g_return_val_if_fail (SL_IS_TARGET_SHELL (shell), FALSE);
  g_return_val_if_fail (local_dir != NULL, FALSE);
  g_return_val_if_fail (remote_dir != NULL, FALSE);

  if (excludes == NULL)
    excludes = sl_transfer_default_excludes ();

  root = g_file_new_for_path (local_dir);
  if (!walk_local (root, "", excludes, dirs, files, &local_stats.files_excluded, cancellable, error))
    {
      g_prefix_error (error, _("Could not read the project folder %s: "), local_dir);
      return FALSE;
    }

  resolved = sl_target_shell_resolve_dir (shell, remote_dir, TRUE, cancellable, error);
  if (resolved == NULL)
    return FALSE;

  if (!list_remote (shell, resolved, dirs, remote_files, cancellable, error) ||
      !make_remote_dirs (shell, resolved, dirs, cancellable, error))
    return FALSE;

  for (guint i = 0; i < files->len; i++)
    {
      LocalFile *file = g_ptr_array_index (files, i);
      RemoteFile *remote = g_hash_table_lookup (remote_files, file->relative);

      if (remote != NULL && sl_transfer_is_unchanged (file->size, file->mtime, remote->size, remote->mtime))
        local_stats.files_unchanged++;
      else
        g_ptr_array_add (to_send, file);
    }

  if (compare_content)
    drop_equal_content (shell, local_dir, resolved, to_send, remote_files, &local_stats.files_unchanged, cancellable);

  for (guint i = 0; i < to_send->len; i++)
    bytes_total += ((LocalFile *)g_ptr_array_index (to_send, i))->size;

  sl_transfer_meter_start (&meter, to_send->len, bytes_total);
  sl_transfer_meter_report (&meter, TRUE, progress_func, progress_data);

  for (guint i = 0; i < to_send->len; i++)
    {
      LocalFile *file = g_ptr_array_index (to_send, i);
      g_autofree char *local_path = g_build_filename (local_dir, file->relative, NULL);
      g_autofree char *remote_path = g_build_path ("/", resolved, file->relative, NULL);
      g_autoptr(GFile) local = g_file_new_for_path (local_path);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      meter.progress.current = file->relative;
      sl_transfer_meter_report (&meter, FALSE, progress_func, progress_data);

      n_reconnects = sl_target_shell_get_n_reconnects (shell);
      if (!sl_target_shell_upload (shell, local, remote_path, cancellable, error))
        {
          sl_target_shell_explain_error (shell, _("Could not upload a file"), remote_path, error);
          return FALSE;
        }
      if (sl_target_shell_get_n_reconnects (shell) != n_reconnects)
        remove_partials (shell, remote_path, cancellable);

      local_stats.files_sent++;
      local_stats.bytes_sent += file->size;
      meter.progress.files_done++;
      meter.progress.bytes_done += file->size;
    }

  meter.progress.current = NULL;
  sl_transfer_meter_report (&meter, TRUE, progress_func, progress_data);

  if (stats != NULL)
    *stats = local_stats;
  return TRUE;
}
