/* sl-workflow-path.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "sl-workflow-path.h"

#define REFUSED_CHARACTERS "'\"$;|&<>`\\\n\r"

gunichar
sl_workflow_path_find_refused (const char *text)
{
  g_return_val_if_fail (text != NULL, 0);

  for (const char *p = text; *p != '\0'; p++)
    if (strchr (REFUSED_CHARACTERS, *p) != NULL)
      return (gunichar)(guchar)*p;
  return 0;
}

gboolean
sl_workflow_path_check (const char  *text,
                        const char  *what,
                        GError     **error)
{
  gunichar bad;

  g_return_val_if_fail (what != NULL, FALSE);

  if (text == NULL || text[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s is empty"), what);
      return FALSE;
    }

  bad = sl_workflow_path_find_refused (text);
  if (bad == '\n' || bad == '\r')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s holds a line break, which the Ascend tools refuse"), what);
      return FALSE;
    }
  if (bad != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s holds “%c”, which the Ascend tools refuse in paths and arguments: rename it"),
                   what, (char)bad);
      return FALSE;
    }
  return TRUE;
}
