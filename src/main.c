/* main.c: the entry point of the sightline GUI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "sl-application.h"
#include "sl-platform.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(SlApplication) app = NULL;

  setlocale (LC_ALL, "");
  /* SIGHTLINE_LOCALEDIR lets an uninstalled build find its translations. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("SIGHTLINE_LOCALEDIR") ? g_getenv ("SIGHTLINE_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* With no GPU, GL would run on a software rasterizer: cairo draws this
   * interface faster and in far less memory. GSK_RENDERER still wins. */
  if (g_getenv ("GSK_RENDERER") == NULL && !sl_platform_has_gpu_render_node ())
    g_setenv ("GSK_RENDERER", "cairo", FALSE);

  app = sl_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
