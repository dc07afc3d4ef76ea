/* sl-shell-quote.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "sl-shell-quote.h"

static void
append_quoted (GString    *out,
               const char *text)
{
  /* Inside single quotes nothing is special except the closing quote,
   * so a quote becomes: close, escaped quote, reopen. */
  g_string_append_c (out, '\'');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\'')
        g_string_append (out, "'\\''");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '\'');
}

/**
 * sl_shell_quote:
 * @text: any string, possibly empty
 *
 * Quotes @text for a POSIX shell so that it reaches the program as one
 * argument, byte for byte: spaces, quotes, `$(…)`, `;`, newlines and the
 * empty string included.
 *
 * Returns: (transfer full): the quoted word
 */
char *
sl_shell_quote (const char *text)
{
  GString *out;

  g_return_val_if_fail (text != NULL, NULL);

  out = g_string_sized_new (strlen (text) + 2);
  append_quoted (out, text);
  return g_string_free (out, FALSE);
}

/**
 * sl_shell_quote_remote_path:
 * @path: a path on the server; "~" or "~/…" means the home folder
 *
 * Like sl_shell_quote(), but a leading "~" still means the home folder:
 * it becomes "$HOME", which quoting would otherwise turn into a folder
 * literally named "~".
 *
 * Returns: (transfer full): the quoted path
 */
char *
sl_shell_quote_remote_path (const char *path)
{
  GString *out;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_str_equal (path, "~"))
    return g_strdup ("\"$HOME\"");

  if (!g_str_has_prefix (path, "~/"))
    return sl_shell_quote (path);

  out = g_string_new ("\"$HOME\"/");
  if (path[2] != '\0')
    append_quoted (out, path + 2);
  return g_string_free (out, FALSE);
}

/**
 * sl_shell_quote_argv:
 * @argv: a program and its arguments
 *
 * Returns: (transfer full): one command line, each element quoted and
 *   separated by a space
 */
char *
sl_shell_quote_argv (const char * const *argv)
{
  GString *out;

  g_return_val_if_fail (argv != NULL, NULL);

  out = g_string_new (NULL);
  for (guint i = 0; argv[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      append_quoted (out, argv[i]);
    }
  return g_string_free (out, FALSE);
}

/**
 * sl_shell_check_name:
 * @name: a file name as a server sent it, not necessarily NUL-terminated
 * @length: its length in bytes, or -1 when @name is NUL-terminated
 *
 * A name from a server is joined to a folder path, so it must be one
 * path component that stays inside that folder: not empty, not "." or
 * "..", without "/" and without a NUL byte.
 *
 * Returns: %TRUE when @name is safe to join to a folder
 */
gboolean
sl_shell_check_name (const char  *name,
                     gsize        length,
                     GError     **error)
{
  g_autofree char *shown = NULL;

  if (name == NULL || length == 0 || (length == (gsize)-1 && name[0] == '\0'))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                           _("The server sent an empty file name"));
      return FALSE;
    }

  if (length == (gsize)-1)
    length = strlen (name);

  if (memchr (name, '\0', length) != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                           _("The server sent a file name containing a NUL byte"));
      return FALSE;
    }

  shown = g_utf8_make_valid (name, length);

  if ((length == 1 && name[0] == '.') || (length == 2 && name[0] == '.' && name[1] == '.'))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("The server sent the file name “%s”, which would leave the folder"), shown);
      return FALSE;
    }

  if (memchr (name, '/', length) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("The server sent the file name “%s”, which contains “/”"), shown);
      return FALSE;
    }

  return TRUE;
}
