/* test-ssh-config.c: the Host aliases of an OpenSSH client configuration
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sl-ssh-config.h"

static void
test_aliases (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-ssh-config-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "config", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) aliases = NULL;
  const char *config =
    "# Host commented-out\n"
    "Host *\n"
    "  ServerAliveInterval 30\n"
    "Host a800 a800-backup\n"
    "  HostName 10.0.0.8\n"
    "  User trainer\n"
    "\tHostName ignored\n"
    "host=lab-910b\n"
    "HOST = \"quoted\" *.internal !bastion\n"
    "Hostname not-a-block\n"
    "Host a800\n"
    "Match host foo\n"
    "Host\tgpu?\tdev-box\r\n"
    "Host";

  g_assert_true (g_file_set_contents (path, config, -1, NULL));
  aliases = sl_ssh_config_list_host_aliases (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (aliases);
  g_assert_cmpuint (g_strv_length (aliases), ==, 5);
  g_assert_cmpstr (aliases[0], ==, "a800");
  g_assert_cmpstr (aliases[1], ==, "a800-backup");
  g_assert_cmpstr (aliases[2], ==, "lab-910b");
  g_assert_cmpstr (aliases[3], ==, "quoted");
  g_assert_cmpstr (aliases[4], ==, "dev-box");

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_missing_and_unreadable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-ssh-config-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "none", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) none = NULL;
  g_auto(GStrv) failed = NULL;

  none = sl_ssh_config_list_host_aliases (missing, &error);
  g_assert_no_error (error);
  g_assert_nonnull (none);
  g_assert_cmpuint (g_strv_length (none), ==, 0);

  failed = sl_ssh_config_list_host_aliases (dir, &error);
  g_assert_null (failed);
  g_assert_nonnull (error);

  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ssh-config/aliases", test_aliases);
  g_test_add_func ("/ssh-config/missing-and-unreadable", test_missing_and_unreadable);

  return g_test_run ();
}
