/* sl-transfer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-shell-quote.h"
#include "sl-transfer.h"

static const char * const default_excludes[] = {
  ".git",
  "__pycache__",
  "*.ckpt",
  "*.om",
  NULL
};

/**
 * sl_transfer_default_excludes:
 *
 * Returns: (transfer none): the patterns an upload leaves out unless told
 *   otherwise: version control, Python caches, checkpoints and offline
 *   models
 */
const char * const *
sl_transfer_default_excludes (void)
{
  return default_excludes;
}

/**
 * sl_transfer_is_excluded:
 * @patterns: (nullable): glob patterns ("*", "?"); one without "/"
 *   matches any single path component, one with "/" the whole relative
 *   path
 * @relative_path: a path under the project folder, "/"-separated
 *
 * Returns: %TRUE when @relative_path or a folder it is in matches
 */
gboolean
sl_transfer_is_excluded (const char * const *patterns,
                         const char         *relative_path)
{
  g_auto(GStrv) components = NULL;

  g_return_val_if_fail (relative_path != NULL, FALSE);

  if (patterns == NULL)
    return FALSE;

  components = g_strsplit (relative_path, "/", -1);
  for (guint i = 0; patterns[i] != NULL; i++)
    {
      const char *pattern = patterns[i];

      if (pattern[0] == '\0')
        continue;

      if (strchr (pattern, '/') != NULL)
        {
          const char *anchored = pattern[0] == '/' ? pattern + 1 : pattern;

          if (g_pattern_match_simple (anchored, relative_path))
            return TRUE;
          continue;
        }

      for (guint c = 0; components[c] != NULL; c++)
        if (components[c][0] != '\0' && g_pattern_match_simple (pattern, components[c]))
          return TRUE;
    }
  return FALSE;
}

/**
 * sl_transfer_is_unchanged:
 * @source_mtime: seconds since the epoch
 *
 * A copy is taken as current when it has the size and the modification
 * time (to the second: SFTP keeps no more) of its source.
 */
gboolean
sl_transfer_is_unchanged (guint64 source_size,
                          guint64 source_mtime,
                          guint64 destination_size,
                          guint64 destination_mtime)
{
  return source_size == destination_size && source_mtime == destination_mtime;
}

/**
 * sl_transfer_decide_pull:
 *
 * A file that only grew since the last pull (summary files, logs) is
 * appended to, once the caller has checked that the last
 * %SL_PULL_PREFIX_CHECK_BYTES bytes of the local copy are still what the
 * server has at that place; anything else changed is fetched again.
 */
SlPullAction
sl_transfer_decide_pull (gboolean local_exists,
                         guint64  local_size,
                         guint64  local_mtime,
                         guint64  remote_size,
                         guint64  remote_mtime)
{
  if (!local_exists)
    return SL_PULL_FULL;
  if (sl_transfer_is_unchanged (remote_size, remote_mtime, local_size, local_mtime))
    return SL_PULL_SKIP;
  if (local_size > 0 && remote_size > local_size)
    return SL_PULL_APPEND;
  return SL_PULL_FULL;
}

static char *
dup_safe_component (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    g_string_append_c (out, *p == '/' || *p == '\\' || (guchar)*p < 0x20 ? '_' : *p);
  if (out->len == 0 || g_str_equal (out->str, ".") || g_str_equal (out->str, ".."))
    g_string_prepend_c (out, '_');
  return g_string_free (out, FALSE);
}

/**
 * sl_transfer_dup_cache_dir:
 * @cache_dir: the cache folder (sl_cache_dup_dir())
 * @target_name: the target's name
 * @remote_path: an absolute path on the target, or relative to its home
 *   folder ("~/…")
 *
 * Where a remote folder is mirrored:
 * <cache>/targets/<target>/<path…>, each component of the remote path a
 * folder. ".." is refused, so the result is always inside the cache.
 *
 * Returns: (transfer full): the local folder, or %NULL with @error set
 */
char *
sl_transfer_dup_cache_dir (const char  *cache_dir,
                           const char  *target_name,
                           const char  *remote_path,
                           GError     **error)
{
  g_autofree char *target = NULL;
  g_auto(GStrv) parts = NULL;
  g_autoptr(GPtrArray) components = g_ptr_array_new ();
  const char *path = remote_path;

  g_return_val_if_fail (cache_dir != NULL, NULL);
  g_return_val_if_fail (target_name != NULL, NULL);
  g_return_val_if_fail (remote_path != NULL, NULL);

  target = dup_safe_component (target_name);
  g_ptr_array_add (components, (char *)cache_dir);
  g_ptr_array_add (components, (char *)"targets");
  g_ptr_array_add (components, target);

  if (g_str_equal (path, "~") || g_str_has_prefix (path, "~/"))
    {
      g_ptr_array_add (components, (char *)"~");
      path = path[1] == '\0' ? "" : path + 2;
    }

  parts = g_strsplit (path, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0' || g_str_equal (parts[i], "."))
        continue;
      if (!sl_shell_check_name (parts[i], (gsize)-1, error))
        return NULL;
      g_ptr_array_add (components, parts[i]);
    }
  g_ptr_array_add (components, NULL);

  return g_build_filenamev ((char **)components->pdata);
}

/**
 * sl_transfer_join_checked:
 * @relative_path: "/"-separated names, each checked with
 *   sl_shell_check_name()
 *
 * Returns: (transfer full): @relative_path under @folder, or %NULL with
 *   @error set when a name would leave the folder
 */
char *
sl_transfer_join_checked (const char  *folder,
                          const char  *relative_path,
                          GError     **error)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GPtrArray) components = g_ptr_array_new ();

  g_return_val_if_fail (folder != NULL, NULL);
  g_return_val_if_fail (relative_path != NULL, NULL);

  if (relative_path[0] == '\0')
    return sl_shell_check_name (relative_path, (gsize)-1, error) ? g_strdup (folder) : NULL;

  g_ptr_array_add (components, (char *)folder);
  parts = g_strsplit (relative_path, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (!sl_shell_check_name (parts[i], (gsize)-1, error))
        return NULL;
      g_ptr_array_add (components, parts[i]);
    }
  g_ptr_array_add (components, NULL);
  return g_build_filenamev ((char **)components->pdata);
}

void
sl_transfer_meter_start (SlTransferMeter *meter,
                         guint64          files_total,
                         guint64          bytes_total)
{
  g_return_if_fail (meter != NULL);

  memset (meter, 0, sizeof *meter);
  meter->progress.files_total = files_total;
  meter->progress.bytes_total = bytes_total;
  meter->progress.seconds_left = -1;
  meter->started = g_get_monotonic_time ();
}

/**
 * sl_transfer_meter_report:
 * @force: report even when the last report was less than 100 ms ago
 */
void
sl_transfer_meter_report (SlTransferMeter        *meter,
                          gboolean                force,
                          SlTransferProgressFunc  func,
                          gpointer                user_data)
{
  gint64 now = g_get_monotonic_time ();
  double elapsed;

  g_return_if_fail (meter != NULL);

  if (func == NULL || (!force && now - meter->last_report < 100 * G_TIME_SPAN_MILLISECOND))
    return;

  meter->last_report = now;
  elapsed = (now - meter->started) / (double)G_USEC_PER_SEC;
  meter->progress.bytes_per_second = elapsed > 0 ? meter->progress.bytes_done / elapsed : 0;
  if (meter->progress.bytes_per_second > 0 && meter->progress.bytes_total >= meter->progress.bytes_done)
    meter->progress.seconds_left = (meter->progress.bytes_total - meter->progress.bytes_done) /
                                   meter->progress.bytes_per_second;
  func (&meter->progress, user_data);
}
