/* test-ssh-target.c: SSH targets to and from workspace records, and the
 * command lines they build, run through a real /bin/sh
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sl-ssh-target.h"
#include "sl-workspace-store.h"

static void
test_record_round_trip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-ssh-target-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTarget) target = sl_ssh_target_new ("a800", "ascend-01");
  g_autoptr(SlTargetRecord) record = NULL;
  g_autoptr(SlTargetRecord) loaded = NULL;
  g_autoptr(SlTarget) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *location = NULL;
  SlSshTarget *ssh;

  sl_ssh_target_set_port (SL_SSH_TARGET (target), 2222);
  sl_ssh_target_set_user (SL_SSH_TARGET (target), "trainer");
  sl_ssh_target_set_identity_file (SL_SSH_TARGET (target), "/keys/id_ed25519");
  sl_ssh_target_set_known_hosts_file (SL_SSH_TARGET (target), "/keys/known_hosts");
  sl_ssh_target_set_base_dir (SL_SSH_TARGET (target), "~/runs");
  sl_ssh_target_set_env_setup (SL_SSH_TARGET (target), "source /usr/local/Ascend/ascend-toolkit/set_env.sh");

  g_assert_cmpstr (sl_target_get_kind (target), ==, "ssh");
  location = sl_target_dup_location (target);
  g_assert_cmpstr (location, ==, "trainer@ascend-01:2222");

  store = sl_workspace_store_new_for_path (db, &error);
  g_assert_no_error (error);
  record = sl_ssh_target_to_record (SL_SSH_TARGET (target));
  g_assert_cmpint (sl_target_record_get_auth (record), ==, SL_TARGET_AUTH_KEY);
  g_assert_true (sl_workspace_store_add_target (store, record, &error));
  g_assert_no_error (error);

  loaded = sl_workspace_store_lookup_target (store, sl_target_record_get_id (record), &error);
  g_assert_no_error (error);
  back = sl_ssh_target_new_from_record (loaded, &error);
  g_assert_no_error (error);
  ssh = SL_SSH_TARGET (back);
  g_assert_cmpint (sl_target_get_id (back), ==, sl_target_record_get_id (record));
  g_assert_cmpstr (sl_target_get_name (back), ==, "a800");
  g_assert_cmpstr (sl_ssh_target_get_host (ssh), ==, "ascend-01");
  g_assert_cmpuint (sl_ssh_target_get_port (ssh), ==, 2222);
  g_assert_cmpstr (sl_ssh_target_get_user (ssh), ==, "trainer");
  g_assert_cmpstr (sl_ssh_target_get_identity_file (ssh), ==, "/keys/id_ed25519");
  g_assert_cmpstr (sl_ssh_target_get_known_hosts_file (ssh), ==, "/keys/known_hosts");
  g_assert_cmpstr (sl_ssh_target_get_base_dir (ssh), ==, "~/runs");
  g_assert_cmpstr (sl_ssh_target_get_env_setup (ssh), ==, "source /usr/local/Ascend/ascend-toolkit/set_env.sh");

  /* Changes go back into the stored record. */
  sl_ssh_target_set_identity_file (ssh, NULL);
  g_assert_true (sl_ssh_target_update_record (ssh, loaded, &error));
  g_assert_true (sl_workspace_store_update_target (store, loaded, &error));
  g_assert_no_error (error);
  g_clear_object (&loaded);
  loaded = sl_workspace_store_lookup_target (store, sl_target_record_get_id (record), &error);
  g_assert_null (sl_target_record_get_identity_file (loaded));
  g_assert_cmpint (sl_target_record_get_auth (loaded), ==, SL_TARGET_AUTH_AGENT);

  g_clear_object (&store);
  g_unlink (db);
  {
    g_autofree char *wal = g_strconcat (db, "-wal", NULL);
    g_autofree char *shm = g_strconcat (db, "-shm", NULL);

    g_unlink (wal);
    g_unlink (shm);
  }
  g_rmdir (dir);
}

static void
test_local_record_refused (void)
{
  g_autoptr(SlTargetRecord) local = sl_target_record_new (SL_TARGET_KIND_LOCAL, "Local");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTarget) target = sl_ssh_target_new_from_record (local, &error);

  g_assert_null (target);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
test_command_line (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-ssh-cmd it's $(x)-XXXXXX", NULL);
  g_autoptr(SlTarget) target = sl_ssh_target_new ("t", "h");
  const char *argv[] = { "sh", "-c", "pwd; printf '%s|' \"$SL_A\" \"$SL_B\" \"$SL_SETUP\" \"$0\" \"$1\"",
                         "it's $(echo pwned)", "a;b\nc", NULL };
  const char *env[] = { "SL_A=x y", "SL_B=$(id)'\"", NULL };
  const char *bad_env[] = { "1A=x", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *out = NULL;
  g_autofree char *expected = NULL;
  int status = -1;

  sl_ssh_target_set_base_dir (SL_SSH_TARGET (target), dir);
  sl_ssh_target_set_env_setup (SL_SSH_TARGET (target), "export SL_SETUP=ready # a comment");
  line = sl_ssh_target_dup_command_line (SL_SSH_TARGET (target), argv, NULL, env, &error);
  g_assert_no_error (error);

  if (!g_file_test ("/bin/sh", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no /bin/sh");
    }
  else
    {
      const char *sh[] = { "/bin/sh", "-c", line, NULL };

      g_assert_true (g_spawn_sync ("/", (char **)sh, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      expected = g_strdup_printf ("%s\nx y|$(id)'\"|ready|it's $(echo pwned)|a;b\nc|", dir);
      g_assert_cmpstr (out, ==, expected);
    }

  g_assert_null (sl_ssh_target_dup_command_line (SL_SSH_TARGET (target), argv, NULL, bad_env, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ssh-target/record-round-trip", test_record_round_trip);
  g_test_add_func ("/ssh-target/local-record-refused", test_local_record_refused);
  g_test_add_func ("/ssh-target/command-line", test_command_line);

  return g_test_run ();
}
