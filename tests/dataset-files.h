/* dataset-files.h: the JSON files (plain or gzipped) below a datasets
 * folder, for the data suite's trace checks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

/* Adds to @paths every .json and .json.gz file below @dir, following no
 * symbolic link to a folder. */
G_GNUC_UNUSED static void
dataset_files_collect_json (const char *dir,
                            GPtrArray  *paths)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        dataset_files_collect_json (path, paths);
      else if (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".json.gz"))
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
}
