/* sl-known-hosts.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sl-known-hosts.h"

/**
 * sl_known_hosts_dup_ssh_dir:
 *
 * The home folder is GLib's: $HOME where it is set (under sandboxes and
 * test runners it often differs from the account's entry), the profile
 * folder on Windows. The SSH configuration, the default keys and the
 * known hosts file are all looked up there, so what is read, written and
 * named to the user is one file.
 *
 * Returns: (transfer full): the .ssh folder of the home folder
 */
char *
sl_known_hosts_dup_ssh_dir (void)
{
  return g_build_filename (g_get_home_dir (), ".ssh", NULL);
}

/**
 * sl_known_hosts_dup_path:
 * @path: (nullable): the known hosts file a target names, or %NULL
 *
 * Returns: (transfer full): the file a target's host keys are checked
 *   against and added to: @path with a leading "~/" expanded, or
 *   known_hosts in sl_known_hosts_dup_ssh_dir() when @path is empty
 */
char *
sl_known_hosts_dup_path (const char *path)
{
  g_autofree char *ssh_dir = NULL;

  if (path != NULL && g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  if (path != NULL && path[0] != '\0')
    return g_strdup (path);
  ssh_dir = sl_known_hosts_dup_ssh_dir ();
  return g_build_filename (ssh_dir, "known_hosts", NULL);
}

/**
 * sl_known_hosts_has_host:
 *
 * Returns: %TRUE when @path holds a key for @host on @port; a file that
 *   cannot be read holds none
 */
gboolean
sl_known_hosts_has_host (const char *path,
                         const char *host,
                         guint       port)
{
  g_autofree char *contents = NULL;
  g_autofree char *pattern = NULL;
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (host != NULL, FALSE);

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  pattern = sl_known_hosts_dup_host_pattern (host, port);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (sl_known_hosts_line_matches (lines[i], pattern))
        return TRUE;
    }
  return FALSE;
}

/**
 * sl_known_hosts_dup_host_pattern:
 *
 * Returns: (transfer full): the host as OpenSSH writes it in a known
 *   hosts file: the name alone on port 22, "[name]:port" otherwise
 */
char *
sl_known_hosts_dup_host_pattern (const char *host,
                                 guint       port)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (host != NULL, NULL);

  /* OpenSSH writes names in lower case. */
  name = g_ascii_strdown (host, -1);
  if (port == 0 || port == 22)
    return g_steal_pointer (&name);
  return g_strdup_printf ("[%s]:%u", name, port);
}

/* "|1|base64(salt)|base64(HMAC-SHA1(salt, host))" */
static gboolean
hashed_name_matches (const char *entry,
                     gsize       length,
                     const char *host_pattern)
{
  g_autofree char *copy = g_strndup (entry, length);
  g_auto(GStrv) parts = g_strsplit (copy, "|", -1);
  g_autofree guchar *salt = NULL;
  g_autofree guchar *hash = NULL;
  g_autoptr(GHmac) hmac = NULL;
  guint8 digest[20];
  gsize salt_len = 0, hash_len = 0, digest_len = sizeof digest;

  /* "", "1", salt, hash */
  if (g_strv_length (parts) != 4 || strcmp (parts[1], "1") != 0)
    return FALSE;

  salt = g_base64_decode (parts[2], &salt_len);
  hash = g_base64_decode (parts[3], &hash_len);
  if (salt_len == 0 || hash_len != sizeof digest)
    return FALSE;

  hmac = g_hmac_new (G_CHECKSUM_SHA1, salt, salt_len);
  g_hmac_update (hmac, (const guchar *)host_pattern, -1);
  g_hmac_get_digest (hmac, digest, &digest_len);

  return digest_len == hash_len && memcmp (digest, hash, hash_len) == 0;
}

/**
 * sl_known_hosts_line_matches:
 * @line: one line of a known hosts file, without its end of line
 * @host_pattern: from sl_known_hosts_dup_host_pattern()
 *
 * Returns: %TRUE when the line holds a key for @host_pattern. Comments,
 *   blank lines, revoked keys and certificate authorities never match:
 *   those are not a key that was remembered for one host.
 */
gboolean
sl_known_hosts_line_matches (const char *line,
                             const char *host_pattern)
{
  const char *p = line;
  const char *end;

  g_return_val_if_fail (line != NULL, FALSE);
  g_return_val_if_fail (host_pattern != NULL, FALSE);

  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '\0' || *p == '#' || *p == '@')
    return FALSE;

  end = p;
  while (*end != '\0' && *end != ' ' && *end != '\t')
    end++;

  /* The first field is a comma-separated list of names. */
  while (p < end)
    {
      const char *comma = memchr (p, ',', end - p);
      const char *stop = comma != NULL ? comma : end;
      gsize length = stop - p;

      if (length > 0 && p[0] == '|')
        {
          if (hashed_name_matches (p, length, host_pattern))
            return TRUE;
        }
      else if (length == strlen (host_pattern) && g_ascii_strncasecmp (p, host_pattern, length) == 0)
        {
          return TRUE;
        }

      p = stop + 1;
    }

  return FALSE;
}

/**
 * sl_known_hosts_remove_host:
 * @path: the known hosts file
 * @n_removed: (out) (optional): how many lines went
 *
 * Removes every key remembered for @host on @port from @path. The file
 * as it was is kept next to it as "@path.old", as ssh-keygen -R does,
 * and the new one replaces it at once, so a failure leaves it whole.
 * A missing file has nothing to remove and is not an error.
 *
 * Returns: %TRUE on success
 */
gboolean
sl_known_hosts_remove_host (const char  *path,
                            const char  *host,
                            guint        port,
                            guint       *n_removed,
                            GError     **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *pattern = NULL;
  g_autofree char *backup = NULL;
  g_autoptr(GString) kept = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length = 0;
  guint removed = 0;
  char *line;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (host != NULL, FALSE);

  if (n_removed != NULL)
    *n_removed = 0;

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_set_error (error, local_error->domain, local_error->code,
                   _("Cannot read the known hosts file %s: %s"), path, local_error->message);
      return FALSE;
    }

  pattern = sl_known_hosts_dup_host_pattern (host, port);
  kept = g_string_sized_new (length);
  line = contents;
  while (line < contents + length)
    {
      char *newline = memchr (line, '\n', contents + length - line);
      char *next = newline != NULL ? newline + 1 : contents + length;
      g_autofree char *text = g_strndup (line, (newline != NULL ? newline : contents + length) - line);

      if (text[0] != '\0' && text[strlen (text) - 1] == '\r')
        text[strlen (text) - 1] = '\0';

      if (sl_known_hosts_line_matches (text, pattern))
        removed++;
      else
        g_string_append_len (kept, line, next - line);
      line = next;
    }

  if (removed > 0)
    {
      backup = g_strconcat (path, ".old", NULL);
      if (!g_file_set_contents_full (backup, contents, length, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local_error) ||
          !g_file_set_contents_full (path, kept->str, kept->len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local_error))
        {
          g_set_error (error, local_error->domain, local_error->code,
                       _("Cannot change the known hosts file %s: %s"), path, local_error->message);
          return FALSE;
        }
    }

  if (n_removed != NULL)
    *n_removed = removed;
  return TRUE;
}
