/* sl-cli-pull.c: sightline-cli pull
 *
 * Mirrors a folder of a target into a local folder, fetching only what
 * changed, and the new bytes of files that grew.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-folder-puller.h"

int
sl_cli_pull (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("REMOTE_DIR LOCAL_DIR — mirror a folder of a target"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autoptr(SlPullResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *target_name = NULL;
  g_autofree char *local_dir = NULL;
  g_autofree char *size = NULL;
  const GOptionEntry entries[] = {
    { "target", 0, 0, G_OPTION_ARG_STRING, &target_name, N_("The target to pull from (“local” for this computer)"), N_("NAME") },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }

  if (target_name == NULL || argc != 3)
    {
      sl_cli_print_error (_("pull needs --target NAME, a REMOTE_DIR and a LOCAL_DIR"));
      return 2;
    }

  store = sl_cli_open_store (db_path, &error);
  if (store == NULL || (target = sl_cli_find_target (store, target_name, 0, &error)) == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  shell = sl_cli_create_shell (target);
  local_dir = g_canonicalize_filename (argv[2], NULL);
  result = sl_folder_pull (shell, argv[1], local_dir, sl_cli_print_progress, NULL, NULL, &error);
  if (result == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  for (guint i = 0; i < result->refused->len; i++)
    g_printerr (_("sightline-cli: left out: %s\n"), (const char *)g_ptr_array_index (result->refused, i));

  size = g_format_size (result->bytes);
  printf (_("%u new or changed, %u grown, %u unchanged; %s fetched into %s\n"),
          result->files_full, result->files_appended, result->files_unchanged, size, local_dir);
  return 0;
}
