/* sl-trace-loader.c
 *
 * The GUI's timeline and `sightline-cli trace-stats` / `trace-slice` take
 * the same paths: a Chrome trace file (plain or gzip), a profiler folder
 * (its timeline files read into one trace, ranks kept apart by file), or
 * a profiler SQLite export (its task tables).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <glib/gi18n.h>

#include "sl-profile-loader.h"
#include "sl-trace-loader.h"

static SlTrace *
load_database (const char    *path,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(SlProfile) profile = sl_profile_load (path, cancellable, NULL, NULL, error);

  if (profile == NULL)
    return NULL;

  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (profile, i);

      if (rank->trace != NULL)
        return g_object_ref (SL_TRACE (rank->trace));
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("%s has no task tables to draw a timeline from"), path);
  return NULL;
}

static SlTrace *
load_files (const char          *path,
            GPtrArray           *files,
            SlTraceProgressFunc  progress,
            gpointer             user_data,
            GCancellable        *cancellable,
            GError             **error)
{
  SlTraceBuilder *builder = sl_trace_builder_new (g_ptr_array_index (files, 0));

  for (guint i = 0; i < files->len; i++)
    {
      const char *file_path = g_ptr_array_index (files, i);
      g_autoptr(GFile) file = g_file_new_for_path (file_path);
      g_autofree char *prefix = NULL;

      /* Ranks of a cluster often reuse pids: keep them apart by file. */
      if (files->len > 1)
        {
          g_autofree char *base = g_path_get_basename (file_path);

          prefix = g_strdup_printf ("%s:", base);
        }

      if (!sl_chrome_trace_reader_read_into (builder, file, prefix, progress, user_data, cancellable, error))
        {
          sl_trace_builder_free (builder);
          return NULL;
        }
    }

  return sl_trace_builder_finish (builder, cancellable);
}

/**
 * sl_trace_load_path:
 * @path: a Chrome trace file, a profiler folder or a profiler SQLite export
 * @progress: (nullable): called from this thread with bytes read of the
 *   file being read
 *
 * Reads in the calling thread; run it in a worker.
 *
 * Returns: (transfer full): the trace, or %NULL with @error set when
 *   nothing could be read (damage inside is in the trace's problems)
 */
SlTrace *
sl_trace_load_path (const char           *path,
                    SlTraceProgressFunc   progress,
                    gpointer              user_data,
                    GCancellable         *cancellable,
                    GError              **error)
{
  g_autoptr(GPtrArray) files = NULL;
  SlTrace *trace;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s does not exist"), path);
      return NULL;
    }

  if (g_str_has_suffix (path, ".db") && g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return load_database (path, cancellable, error);

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return sl_chrome_trace_load (path, progress, user_data, cancellable, error);

  files = sl_profile_list_timeline_files (path);
  if (files == NULL || files->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("No timeline files in %s (looked for ascend_timeline_display_*.json, msprof*.json, "
                     "trace_view.json and device_*/timeline/*.json)"),
                   path);
      return NULL;
    }

  trace = load_files (path, files, progress, user_data, cancellable, error);
  if (trace == NULL && error != NULL && *error == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading was cancelled"));
  return trace;
}
