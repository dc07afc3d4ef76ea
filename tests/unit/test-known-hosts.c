/* test-known-hosts.c: which known hosts file a target uses (that of
 * $HOME, not of the account's entry), and finding and removing a host's
 * keys in it, with plain and hashed names (the hashed lines were written
 * by ssh-keygen -H)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "sl-known-hosts.h"

#define KEY "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEaTa+xGhbN4MgP2EJKKRGSBlTB1gzkAAMzek9Gbyv/Z"
/* ssh-keygen -H of "[127.0.0.1]:2222" and "example.org" */
#define HASHED_LOCAL_2222 "|1|iXZHvYAFHhNQg7A3S34T/yQ23xA=|MNlV4uBuhcMChLGgU9xa1r40hsM= " KEY
#define HASHED_EXAMPLE "|1|BBmvv3FNvdsr1yqYqdcsfqZEYTc=|Gm02zMu8RqKjFKxfDcrVGIzIViM= " KEY

static void
test_host_pattern (void)
{
  g_autofree char *plain = sl_known_hosts_dup_host_pattern ("Ascend-01", 22);
  g_autofree char *with_port = sl_known_hosts_dup_host_pattern ("127.0.0.1", 2222);

  g_assert_cmpstr (plain, ==, "ascend-01");
  g_assert_cmpstr (with_port, ==, "[127.0.0.1]:2222");
}

static void
test_line_matches (void)
{
  g_assert_true (sl_known_hosts_line_matches ("ascend-01 " KEY, "ascend-01"));
  g_assert_true (sl_known_hosts_line_matches ("other,ASCEND-01,10.0.0.5 " KEY, "ascend-01"));
  g_assert_true (sl_known_hosts_line_matches ("  [127.0.0.1]:2222 " KEY, "[127.0.0.1]:2222"));
  g_assert_true (sl_known_hosts_line_matches (HASHED_LOCAL_2222, "[127.0.0.1]:2222"));
  g_assert_true (sl_known_hosts_line_matches (HASHED_EXAMPLE, "example.org"));

  g_assert_false (sl_known_hosts_line_matches (HASHED_EXAMPLE, "example.com"));
  g_assert_false (sl_known_hosts_line_matches (HASHED_LOCAL_2222, "127.0.0.1"));
  g_assert_false (sl_known_hosts_line_matches ("ascend-010 " KEY, "ascend-01"));
  g_assert_false (sl_known_hosts_line_matches ("127.0.0.1 " KEY, "[127.0.0.1]:2222"));
  g_assert_false (sl_known_hosts_line_matches ("# ascend-01 " KEY, "ascend-01"));
  g_assert_false (sl_known_hosts_line_matches ("@revoked ascend-01 " KEY, "ascend-01"));
  g_assert_false (sl_known_hosts_line_matches ("", "ascend-01"));
  /* Damaged hashes are not a match, and do not crash. */
  g_assert_false (sl_known_hosts_line_matches ("|1|!!|?? " KEY, "example.org"));
  g_assert_false (sl_known_hosts_line_matches ("|1|| " KEY, "example.org"));
  g_assert_false (sl_known_hosts_line_matches ("|2|aGVsbG8=|aGVsbG8= " KEY, "example.org"));
}

static void
test_remove_host (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-known-hosts-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "known_hosts", NULL);
  g_autofree char *backup = g_strconcat (path, ".old", NULL);
  g_autofree char *after = NULL;
  g_autofree char *old = NULL;
  g_autoptr(GError) error = NULL;
  const char *before =
    "# kept comment\n"
    "ascend-01 " KEY "\n"
    HASHED_LOCAL_2222 "\n"
    "[127.0.0.1]:2222 " KEY "\r\n"
    "127.0.0.1 " KEY "\n"
    "@cert-authority [127.0.0.1]:2222 " KEY "\n"
    HASHED_EXAMPLE;
  guint removed = 99;

  g_assert_true (g_file_set_contents (path, before, -1, NULL));
  g_assert_true (sl_known_hosts_remove_host (path, "127.0.0.1", 2222, &removed, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (removed, ==, 2);

  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==,
                   "# kept comment\n"
                   "ascend-01 " KEY "\n"
                   "127.0.0.1 " KEY "\n"
                   "@cert-authority [127.0.0.1]:2222 " KEY "\n"
                   HASHED_EXAMPLE);
  g_assert_true (g_file_get_contents (backup, &old, NULL, NULL));
  g_assert_cmpstr (old, ==, before);

  /* The last line, without an end of line. */
  g_assert_true (sl_known_hosts_remove_host (path, "example.org", 22, &removed, &error));
  g_assert_cmpuint (removed, ==, 1);
  g_clear_pointer (&after, g_free);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_null (strstr (after, "|1|"));

  /* Nothing left for the host: the file stays as it is. */
  g_assert_true (sl_known_hosts_remove_host (path, "example.org", 22, &removed, &error));
  g_assert_cmpuint (removed, ==, 0);

  g_unlink (path);
  g_unlink (backup);
  g_rmdir (dir);
}

static void
test_missing_and_unreadable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-known-hosts-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "none", NULL);
  g_autoptr(GError) error = NULL;
  guint removed = 99;

  g_assert_true (sl_known_hosts_remove_host (missing, "ascend-01", 22, &removed, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (removed, ==, 0);

  /* A folder where the file should be. */
  g_assert_false (sl_known_hosts_remove_host (dir, "ascend-01", 22, &removed, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, dir));

  g_rmdir (dir);
}

/* HOME is set by main() to a folder of the test's, before anything
 * reads it. */
static void
test_path (void)
{
  const char *home = g_get_home_dir ();
  g_autofree char *expected_default = g_build_filename (home, ".ssh", "known_hosts", NULL);
  g_autofree char *expected_dir = g_build_filename (home, ".ssh", NULL);
  g_autofree char *expected_tilde = g_build_filename (home, "hosts", "mine", NULL);
  g_autofree char *ssh_dir = sl_known_hosts_dup_ssh_dir ();
  g_autofree char *default_path = sl_known_hosts_dup_path (NULL);
  g_autofree char *empty = sl_known_hosts_dup_path ("");
  g_autofree char *tilde = sl_known_hosts_dup_path ("~/hosts/mine");
  g_autofree char *absolute = sl_known_hosts_dup_path ("/srv/known_hosts");

  g_assert_cmpstr (home, ==, g_getenv ("HOME"));
  g_assert_cmpstr (ssh_dir, ==, expected_dir);
  g_assert_cmpstr (default_path, ==, expected_default);
  g_assert_cmpstr (empty, ==, expected_default);
  g_assert_cmpstr (tilde, ==, expected_tilde);
  g_assert_cmpstr (absolute, ==, "/srv/known_hosts");
}

static void
test_has_host (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-known-hosts-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "known_hosts", NULL);
  g_autoptr(GError) error = NULL;
  const char *contents =
    "# a comment about ascend-01\r\n"
    "@cert-authority *.example.org " KEY "\n"
    "other,ASCEND-01 " KEY "\r\n"
    HASHED_LOCAL_2222;

  g_assert_false (sl_known_hosts_has_host (path, "ascend-01", 22));

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_true (sl_known_hosts_has_host (path, "ascend-01", 22));
  g_assert_true (sl_known_hosts_has_host (path, "Ascend-01", 0));
  g_assert_true (sl_known_hosts_has_host (path, "127.0.0.1", 2222));
  g_assert_false (sl_known_hosts_has_host (path, "127.0.0.1", 22));
  g_assert_false (sl_known_hosts_has_host (path, "ascend-01", 2222));
  g_assert_false (sl_known_hosts_has_host (path, "www.example.org", 22));
  g_assert_false (sl_known_hosts_has_host (dir, "ascend-01", 22));

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *home = g_dir_make_tmp ("sl-known-hosts-home-XXXXXX", NULL);
  int result;

  g_setenv ("HOME", home, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/known-hosts/path", test_path);
  g_test_add_func ("/known-hosts/has-host", test_has_host);

  g_test_add_func ("/known-hosts/host-pattern", test_host_pattern);
  g_test_add_func ("/known-hosts/line-matches", test_line_matches);
  g_test_add_func ("/known-hosts/remove-host", test_remove_host);
  g_test_add_func ("/known-hosts/missing-and-unreadable", test_missing_and_unreadable);

  result = g_test_run ();
  g_rmdir (home);
  return result;
}
