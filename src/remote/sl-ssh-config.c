/* sl-ssh-config.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sl-ssh-config.h"

/**
 * sl_ssh_config_dup_default_path:
 *
 * Returns: (transfer full): ~/.ssh/config
 */
char *
sl_ssh_config_dup_default_path (void)
{
  return g_build_filename (g_get_home_dir (), ".ssh", "config", NULL);
}

static gboolean
is_pattern (const char *name)
{
  return strpbrk (name, "*?!") != NULL;
}

/**
 * sl_ssh_config_list_host_aliases:
 * @path: an OpenSSH client configuration file
 *
 * The names of its Host blocks that are one host, not a pattern, in the
 * order they appear and each once: the names a user types to reach a
 * server. Include directives are not followed. A missing file has no
 * aliases and is not an error.
 *
 * Returns: (transfer full): the aliases, or %NULL with @error set when
 *   the file exists but cannot be read
 */
char **
sl_ssh_config_list_host_aliases (const char  *path,
                                 GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) aliases = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, NULL, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_new0 (char *, 1);
      g_set_error (error, local_error->domain, local_error->code,
                   _("Cannot read the SSH configuration %s: %s"), path, local_error->message);
      return NULL;
    }

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      g_auto(GStrv) words = NULL;
      guint first = 1;

      if (line[0] == '#' || g_ascii_strncasecmp (line, "host", 4) != 0 ||
          (line[4] != ' ' && line[4] != '\t' && line[4] != '='))
        continue;

      /* "Host a b", "Host=a b" and "Host = a b" */
      for (char *p = line; *p != '\0'; p++)
        {
          if (*p == '\t' || *p == '=')
            *p = ' ';
        }
      words = g_strsplit (line, " ", -1);
      for (guint j = first; words[j] != NULL; j++)
        {
          char *name = words[j];

          if (name[0] == '"')
            {
              name++;
              if (name[0] != '\0' && name[strlen (name) - 1] == '"')
                name[strlen (name) - 1] = '\0';
            }
          if (name[0] == '\0' || is_pattern (name) || g_hash_table_contains (seen, name))
            continue;

          g_ptr_array_add (aliases, g_strdup (name));
          g_hash_table_add (seen, g_ptr_array_index (aliases, aliases->len - 1));
        }
    }

  g_ptr_array_add (aliases, NULL);
  return (char **)g_ptr_array_steal (aliases, NULL);
}
