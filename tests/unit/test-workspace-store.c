/* test-workspace-store.c: the workspace database
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "sl-workspace-schema.h"
#include "sl-workspace-store.h"

typedef struct {
  char *dir;
  char *db_path;
} Fixture;

static void
remove_recursively (GFile *file)
{
  g_autoptr(GFileEnumerator) children = NULL;

  children = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  if (children != NULL)
    {
      GFileInfo *info;

      while ((info = g_file_enumerator_next_file (children, NULL, NULL)) != NULL)
        {
          g_autoptr(GFileInfo) owned = info;
          g_autoptr(GFile) child = g_file_get_child (file, g_file_info_get_name (owned));

          remove_recursively (child);
        }
    }

  g_file_delete (file, NULL, NULL);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("sl-workspace-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "workspace.db", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GFile) dir = g_file_new_for_path (fixture->dir);

  remove_recursively (dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->db_path, g_free);
}

static SlWorkspaceStore *
open_store (const char *path)
{
  g_autoptr(GError) error = NULL;
  SlWorkspaceStore *store;

  store = sl_workspace_store_new_for_path (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);

  return store;
}

/* Direct SQLite access, to check what is on disk rather than what the
 * store says. */
static sqlite3 *
open_raw (const char *path)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  return db;
}

static char *
query_raw_text (sqlite3    *db,
                const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  char *value = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);

  return value;
}

static void
exec_raw (sqlite3    *db,
          const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static GBytes *
read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, length);
}

static void
write_file (const char   *path,
            const void   *data,
            gsize         length)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, (gssize)length, &error);
  g_assert_no_error (error);
}

/* Returns the one file of @dir whose name starts with @prefix. */
static char *
find_file_with_prefix (const char *dir,
                       const char *prefix,
                       const char *suffix)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  char *found = NULL;
  const char *name;

  g_assert_nonnull (handle);
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      if (!g_str_has_prefix (name, prefix))
        continue;
      if (suffix != NULL ? !g_str_has_suffix (name, suffix) : (g_str_has_suffix (name, "-wal") || g_str_has_suffix (name, "-shm")))
        continue;

      g_assert_null (found);
      found = g_build_filename (dir, name, NULL);
    }

  return found;
}

static void
test_fresh_database (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *nested = g_build_filename (fixture->dir, "a", "b", "workspace.db", NULL);
  g_autoptr(SlWorkspaceStore) store = open_store (nested);
  g_autoptr(GPtrArray) targets = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *version = NULL;
  g_autofree char *expected_version = NULL;
  g_autofree char *journal_mode = NULL;
  SlTargetRecord *local;
  sqlite3 *db;

  g_assert_cmpuint (sl_workspace_store_get_latest_schema_version (), >=, 1);
  g_assert_cmpuint (sl_workspace_store_get_schema_version (store), ==,
                    sl_workspace_store_get_latest_schema_version ());
  g_assert_null (sl_workspace_store_get_recovery_message (store));
  g_assert_cmpstr (sl_workspace_store_get_path (store), ==, nested);

  db = open_raw (nested);
  version = query_raw_text (db, "PRAGMA user_version");
  expected_version = g_strdup_printf ("%u", sl_workspace_store_get_latest_schema_version ());
  g_assert_cmpstr (version, ==, expected_version);
  journal_mode = query_raw_text (db, "PRAGMA journal_mode");
  g_assert_cmpstr (journal_mode, ==, "wal");
  sqlite3_close (db);

  targets = sl_workspace_store_list_targets (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (targets->len, ==, 1);
  local = g_ptr_array_index (targets, 0);
  g_assert_cmpstr (sl_target_record_get_name (local), ==, "Local");
  g_assert_cmpint (sl_target_record_get_kind (local), ==, SL_TARGET_KIND_LOCAL);
  g_assert_cmpint (sl_target_record_get_id (local), >, 0);
}

static void
test_default_path (void)
{
  g_autofree char *path = sl_workspace_store_dup_default_path ();
  g_autofree char *expected = g_build_filename (g_get_user_data_dir (), "sightline", "workspace.db", NULL);

  g_assert_cmpstr (path, ==, expected);
}

static SlTargetRecord *
new_ssh_target (const char *name)
{
  SlTargetRecord *target = sl_target_record_new (SL_TARGET_KIND_SSH, name);

  sl_target_record_set_host (target, "ascend-01.example.org");
  sl_target_record_set_port (target, 2222);
  sl_target_record_set_user (target, "trainer");
  sl_target_record_set_auth (target, SL_TARGET_AUTH_KEY);
  sl_target_record_set_identity_file (target, "~/.ssh/id_ed25519");
  sl_target_record_set_known_hosts_file (target, "~/.ssh/known_hosts");
  sl_target_record_set_remote_base_folder (target, "/home/trainer/sightline");
  sl_target_record_set_setup_command (target, "source /usr/local/Ascend/ascend-toolkit/set_env.sh");

  return target;
}

static SlTargetRecord *
find_target (GPtrArray  *targets,
             const char *name)
{
  for (guint i = 0; i < targets->len; i++)
    {
      SlTargetRecord *target = g_ptr_array_index (targets, i);

      if (g_str_equal (sl_target_record_get_name (target), name))
        return target;
    }

  return NULL;
}

static void
test_targets (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlTargetRecord) target = new_ssh_target ("a800");
  g_autoptr(SlTargetRecord) duplicate = new_ssh_target ("a800");
  g_autoptr(SlTargetRecord) no_host = sl_target_record_new (SL_TARGET_KIND_SSH, "nowhere");
  g_autoptr(SlTargetRecord) pasted_key = new_ssh_target ("pasted");
  g_autoptr(SlTargetRecord) found = NULL;
  g_autoptr(GPtrArray) targets = NULL;
  g_autoptr(GError) error = NULL;
  SlTargetRecord *stored;
  SlTargetRecord *local;

  g_assert_true (sl_workspace_store_add_target (store, target, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sl_target_record_get_id (target), >, 0);

  targets = sl_workspace_store_list_targets (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (targets->len, ==, 2);
  g_assert_cmpint (sl_target_record_get_kind (g_ptr_array_index (targets, 0)), ==, SL_TARGET_KIND_LOCAL);
  stored = find_target (targets, "a800");
  g_assert_nonnull (stored);
  g_assert_cmpint (sl_target_record_get_id (stored), ==, sl_target_record_get_id (target));
  g_assert_cmpint (sl_target_record_get_kind (stored), ==, SL_TARGET_KIND_SSH);
  g_assert_cmpstr (sl_target_record_get_host (stored), ==, "ascend-01.example.org");
  g_assert_cmpuint (sl_target_record_get_port (stored), ==, 2222);
  g_assert_cmpstr (sl_target_record_get_user (stored), ==, "trainer");
  g_assert_cmpint (sl_target_record_get_auth (stored), ==, SL_TARGET_AUTH_KEY);
  g_assert_cmpstr (sl_target_record_get_identity_file (stored), ==, "~/.ssh/id_ed25519");
  g_assert_cmpstr (sl_target_record_get_known_hosts_file (stored), ==, "~/.ssh/known_hosts");
  g_assert_cmpstr (sl_target_record_get_remote_base_folder (stored), ==, "/home/trainer/sightline");
  g_assert_cmpstr (sl_target_record_get_setup_command (stored), ==,
                   "source /usr/local/Ascend/ascend-toolkit/set_env.sh");

  /* Names are unique. */
  g_assert_false (sl_workspace_store_add_target (store, duplicate, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_EXISTS);
  g_assert_true (strstr (error->message, "a800") != NULL);
  g_assert_cmpint (sl_target_record_get_id (duplicate), ==, 0);
  g_clear_error (&error);

  g_assert_false (sl_workspace_store_add_target (store, no_host, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID);
  g_clear_error (&error);

  /* A key pasted where its path belongs is refused, not stored. */
  sl_target_record_set_identity_file (pasted_key, "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n");
  g_assert_false (sl_workspace_store_add_target (store, pasted_key, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID);
  g_clear_error (&error);

  /* Update, including a rename onto a taken name. */
  sl_target_record_set_name (target, "a800-renamed");
  sl_target_record_set_port (target, 22);
  sl_target_record_set_auth (target, SL_TARGET_AUTH_KEYBOARD_INTERACTIVE);
  sl_target_record_set_identity_file (target, NULL);
  g_assert_true (sl_workspace_store_update_target (store, target, &error));
  g_assert_no_error (error);

  found = sl_workspace_store_lookup_target (store, sl_target_record_get_id (target), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_target_record_get_name (found), ==, "a800-renamed");
  g_assert_cmpuint (sl_target_record_get_port (found), ==, 22);
  g_assert_cmpint (sl_target_record_get_auth (found), ==, SL_TARGET_AUTH_KEYBOARD_INTERACTIVE);
  g_assert_null (sl_target_record_get_identity_file (found));

  sl_target_record_set_name (target, "Local");
  g_assert_false (sl_workspace_store_update_target (store, target, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_EXISTS);
  g_clear_error (&error);

  /* The Local target stays. */
  local = g_ptr_array_index (targets, 0);
  g_assert_false (sl_workspace_store_remove_target (store, sl_target_record_get_id (local), &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_true (sl_workspace_store_remove_target (store, sl_target_record_get_id (target), &error));
  g_assert_no_error (error);
  g_assert_false (sl_workspace_store_remove_target (store, sl_target_record_get_id (target), &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_false (sl_workspace_store_update_target (store, target, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_clear_pointer (&targets, g_ptr_array_unref);
  targets = sl_workspace_store_list_targets (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (targets->len, ==, 1);
}

static SlProjectRecord *
new_project (const char *name,
             gint64      target_id)
{
  static const char * const excludes[] = { ".git", "*.ckpt", "__pycache__", NULL };
  static const char * const arguments[] = { "train.py", "--epochs", "3", NULL };
  static const char * const environment[] = { "ASCEND_RT_VISIBLE_DEVICES=0,1", "GLOG_v=2", NULL };
  static const char * const pull_folders[] = { "summary", "profiler_output", NULL };
  SlProjectRecord *project = sl_project_record_new (name, "/home/me/src/resnet");
  g_autoptr(SlRunConfigRecord) train = sl_run_config_record_new (SL_RUN_CONFIG_KIND_TRAIN, "Train", "python3");
  g_autoptr(SlRunConfigRecord) profile = sl_run_config_record_new (SL_RUN_CONFIG_KIND_PROFILE, "Profile", "msprof");

  sl_project_record_set_target_id (project, target_id);
  sl_project_record_set_remote_folder (project, "/home/trainer/resnet");
  sl_project_record_set_upload_excludes (project, excludes);

  sl_run_config_record_set_arguments (train, arguments);
  sl_run_config_record_set_environment (train, environment);
  sl_run_config_record_set_working_folder (train, "src");
  sl_run_config_record_set_pull_folders (train, pull_folders);
  sl_project_record_add_run_config (project, train);
  sl_project_record_add_run_config (project, profile);

  return project;
}

static void
assert_strv_equal (const char * const *a,
                   const char * const *b)
{
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_true (g_strv_equal ((const char **)a, (const char **)b));
}

static void
test_projects (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlTargetRecord) target = new_ssh_target ("a800");
  g_autoptr(SlProjectRecord) project = NULL;
  g_autoptr(SlProjectRecord) duplicate = NULL;
  g_autoptr(SlProjectRecord) lost_target = NULL;
  g_autoptr(SlProjectRecord) same_configs = NULL;
  g_autoptr(SlRunConfigRecord) infer = NULL;
  g_autoptr(GPtrArray) projects = NULL;
  g_autoptr(GError) error = NULL;
  SlProjectRecord *stored;
  SlRunConfigRecord *config;

  g_assert_true (sl_workspace_store_add_target (store, target, &error));
  g_assert_no_error (error);

  project = new_project ("resnet", sl_target_record_get_id (target));
  g_assert_true (sl_workspace_store_add_project (store, project, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sl_project_record_get_id (project), >, 0);
  g_assert_cmpint (sl_run_config_record_get_id (sl_project_record_get_run_config (project, 0)), >, 0);

  projects = sl_workspace_store_list_projects (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (projects->len, ==, 1);
  stored = g_ptr_array_index (projects, 0);
  g_assert_cmpint (sl_project_record_get_id (stored), ==, sl_project_record_get_id (project));
  g_assert_cmpstr (sl_project_record_get_name (stored), ==, "resnet");
  g_assert_cmpstr (sl_project_record_get_local_folder (stored), ==, "/home/me/src/resnet");
  g_assert_cmpint (sl_project_record_get_target_id (stored), ==, sl_target_record_get_id (target));
  g_assert_cmpstr (sl_project_record_get_remote_folder (stored), ==, "/home/trainer/resnet");
  assert_strv_equal (sl_project_record_get_upload_excludes (stored), sl_project_record_get_upload_excludes (project));
  g_assert_cmpuint (sl_project_record_get_n_run_configs (stored), ==, 2);

  config = sl_project_record_get_run_config (stored, 0);
  g_assert_cmpstr (sl_run_config_record_get_name (config), ==, "Train");
  g_assert_cmpint (sl_run_config_record_get_kind (config), ==, SL_RUN_CONFIG_KIND_TRAIN);
  g_assert_cmpstr (sl_run_config_record_get_command (config), ==, "python3");
  assert_strv_equal (sl_run_config_record_get_arguments (config),
                     sl_run_config_record_get_arguments (sl_project_record_get_run_config (project, 0)));
  assert_strv_equal (sl_run_config_record_get_environment (config),
                     sl_run_config_record_get_environment (sl_project_record_get_run_config (project, 0)));
  assert_strv_equal (sl_run_config_record_get_pull_folders (config),
                     sl_run_config_record_get_pull_folders (sl_project_record_get_run_config (project, 0)));
  g_assert_cmpstr (sl_run_config_record_get_working_folder (config), ==, "src");

  config = sl_project_record_get_run_config (stored, 1);
  g_assert_cmpstr (sl_run_config_record_get_name (config), ==, "Profile");
  g_assert_cmpint (sl_run_config_record_get_kind (config), ==, SL_RUN_CONFIG_KIND_PROFILE);
  g_assert_cmpstr (sl_run_config_record_get_arguments (config)[0], ==, NULL);
  g_assert_null (sl_run_config_record_get_working_folder (config));

  /* Errors: a taken name, two run configurations of one name, a target
   * that does not exist. */
  duplicate = new_project ("resnet", 0);
  g_assert_false (sl_workspace_store_add_project (store, duplicate, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_EXISTS);
  g_assert_cmpint (sl_project_record_get_id (duplicate), ==, 0);
  g_assert_cmpint (sl_run_config_record_get_id (sl_project_record_get_run_config (duplicate, 0)), ==, 0);
  g_clear_error (&error);

  same_configs = new_project ("twice", 0);
  sl_project_record_add_run_config (same_configs, sl_project_record_get_run_config (same_configs, 0));
  g_assert_false (sl_workspace_store_add_project (store, same_configs, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_EXISTS);
  g_clear_error (&error);

  lost_target = new_project ("lost", 4242);
  g_assert_false (sl_workspace_store_add_project (store, lost_target, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Update replaces the run configurations. */
  infer = sl_run_config_record_new (SL_RUN_CONFIG_KIND_INFER, "Infer", "python3");
  sl_project_record_add_run_config (stored, infer);
  sl_project_record_set_remote_folder (stored, "/data/resnet");
  g_assert_true (sl_workspace_store_update_project (store, stored, &error));
  g_assert_no_error (error);

  g_clear_pointer (&projects, g_ptr_array_unref);
  projects = sl_workspace_store_list_projects (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (projects->len, ==, 1);
  stored = g_ptr_array_index (projects, 0);
  g_assert_cmpstr (sl_project_record_get_remote_folder (stored), ==, "/data/resnet");
  g_assert_cmpuint (sl_project_record_get_n_run_configs (stored), ==, 3);
  g_assert_cmpstr (sl_run_config_record_get_name (sl_project_record_get_run_config (stored, 2)), ==, "Infer");

  /* A removed target leaves its projects without one. */
  g_assert_true (sl_workspace_store_remove_target (store, sl_target_record_get_id (target), &error));
  g_assert_no_error (error);
  g_clear_pointer (&projects, g_ptr_array_unref);
  projects = sl_workspace_store_list_projects (store, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sl_project_record_get_target_id (g_ptr_array_index (projects, 0)), ==, 0);

  g_assert_true (sl_workspace_store_remove_project (store, sl_project_record_get_id (project), &error));
  g_assert_no_error (error);
  g_assert_false (sl_workspace_store_remove_project (store, sl_project_record_get_id (project), &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_clear_pointer (&projects, g_ptr_array_unref);
  projects = sl_workspace_store_list_projects (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (projects->len, ==, 0);
}

static void
note_folder (SlWorkspaceStore *store,
             const char       *path)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_workspace_store_note_recent_folder (store, path, &error));
  g_assert_no_error (error);
}

static GPtrArray *
list_recent (SlWorkspaceStore *store)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *folders = sl_workspace_store_list_recent_folders (store, &error);

  g_assert_no_error (error);
  return folders;
}

static const char *
recent_path (GPtrArray *folders,
             guint      index)
{
  return sl_recent_folder_record_get_path (g_ptr_array_index (folders, index));
}

static void
test_recent_folders (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GPtrArray) folders = NULL;
  g_autoptr(GError) error = NULL;

  note_folder (store, "/runs/a");
  note_folder (store, "/runs/b");
  note_folder (store, "/runs/c");

  folders = list_recent (store);
  g_assert_cmpuint (folders->len, ==, 3);
  g_assert_cmpstr (recent_path (folders, 0), ==, "/runs/c");
  g_assert_cmpstr (recent_path (folders, 1), ==, "/runs/b");
  g_assert_cmpstr (recent_path (folders, 2), ==, "/runs/a");
  g_assert_cmpint (sl_recent_folder_record_get_opened_at (g_ptr_array_index (folders, 0)), >,
                   sl_recent_folder_record_get_opened_at (g_ptr_array_index (folders, 1)));

  /* Opening again moves a folder to the front without a second entry,
   * however its path is spelled. */
  note_folder (store, "/runs/x/../a/");
  g_clear_pointer (&folders, g_ptr_array_unref);
  folders = list_recent (store);
  g_assert_cmpuint (folders->len, ==, 3);
  g_assert_cmpstr (recent_path (folders, 0), ==, "/runs/a");
  g_assert_cmpstr (recent_path (folders, 1), ==, "/runs/c");
  g_assert_cmpstr (recent_path (folders, 2), ==, "/runs/b");

  g_assert_true (sl_workspace_store_remove_recent_folder (store, "/runs/c", &error));
  g_assert_no_error (error);
  g_assert_true (sl_workspace_store_remove_recent_folder (store, "/runs/never-opened", &error));
  g_assert_no_error (error);
  g_clear_pointer (&folders, g_ptr_array_unref);
  folders = list_recent (store);
  g_assert_cmpuint (folders->len, ==, 2);
  g_assert_cmpstr (recent_path (folders, 0), ==, "/runs/a");
  g_assert_cmpstr (recent_path (folders, 1), ==, "/runs/b");

  /* Only the newest are kept. */
  for (guint i = 0; i < SL_WORKSPACE_STORE_MAX_RECENT_FOLDERS + 10; i++)
    {
      g_autofree char *path = g_strdup_printf ("/runs/many/%02u", i);

      note_folder (store, path);
    }

  g_clear_pointer (&folders, g_ptr_array_unref);
  folders = list_recent (store);
  g_assert_cmpuint (folders->len, ==, SL_WORKSPACE_STORE_MAX_RECENT_FOLDERS);
  g_assert_cmpstr (recent_path (folders, 0), ==, "/runs/many/59");
  g_assert_cmpstr (recent_path (folders, SL_WORKSPACE_STORE_MAX_RECENT_FOLDERS - 1), ==, "/runs/many/10");
}

static void
test_runs (Fixture       *fixture,
           gconstpointer  data)
{
  static const char * const tags[] = { "baseline", "fp16", NULL };
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlRunRecord) run = sl_run_record_new ("/data/exp", "summary-run", "lenet/run1", "/data/exp/lenet/run1");
  g_autoptr(SlRunRecord) other = sl_run_record_new ("/data/exp", "msprof", "PROF_000001", "/data/exp/PROF_000001");
  g_autoptr(SlRunRecord) elsewhere = sl_run_record_new ("/data/other", "trace", "trace.json", "/data/other/trace.json");
  g_autoptr(SlRunRecord) again = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GError) error = NULL;
  SlRunRecord *stored;
  const char *path = NULL;
  guint64 size = 0;
  guint64 offset = 0;
  gint64 first_id;

  sl_run_record_set_tags (run, tags);
  sl_run_record_set_last_seen (run, 1000);
  sl_run_record_set_file (run, "events.summary.1", 4096, 1024);
  sl_run_record_set_file (run, "events.summary.1_lineage", 512, 512);
  sl_run_record_set_last_seen (other, 1000);
  sl_run_record_set_last_seen (elsewhere, 1000);

  g_assert_true (sl_workspace_store_upsert_run (store, run, &error));
  g_assert_no_error (error);
  g_assert_true (sl_workspace_store_upsert_run (store, other, &error));
  g_assert_no_error (error);
  g_assert_true (sl_workspace_store_upsert_run (store, elsewhere, &error));
  g_assert_no_error (error);
  first_id = sl_run_record_get_id (run);
  g_assert_cmpint (first_id, >, 0);

  runs = sl_workspace_store_list_runs (store, "/data/exp", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 2);
  stored = g_ptr_array_index (runs, 1);
  g_assert_cmpstr (sl_run_record_get_relative_name (stored), ==, "lenet/run1");
  g_assert_cmpstr (sl_run_record_get_kind_id (stored), ==, "summary-run");
  g_assert_cmpstr (sl_run_record_get_path (stored), ==, "/data/exp/lenet/run1");
  g_assert_cmpstr (sl_run_record_get_root_folder (stored), ==, "/data/exp");
  g_assert_cmpint (sl_run_record_get_last_seen (stored), ==, 1000);
  assert_strv_equal (sl_run_record_get_tags (stored), tags);
  g_assert_cmpuint (sl_run_record_get_n_files (stored), ==, 2);
  g_assert_true (sl_run_record_get_file (stored, 0, &path, &size, &offset));
  g_assert_cmpstr (path, ==, "events.summary.1");
  g_assert_cmpuint (size, ==, 4096);
  g_assert_cmpuint (offset, ==, 1024);
  g_assert_true (sl_run_record_lookup_file (stored, "events.summary.1_lineage", &size, &offset));
  g_assert_cmpuint (offset, ==, 512);

  /* The same run found again replaces what was known, under the same id. */
  again = sl_run_record_new ("/data/exp", "summary-run", "lenet/run1", "/data/exp/lenet/run1");
  sl_run_record_set_last_seen (again, 2000);
  sl_run_record_set_file (again, "events.summary.1", 8192, 8192);
  g_assert_true (sl_workspace_store_upsert_run (store, again, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sl_run_record_get_id (again), ==, first_id);

  g_clear_pointer (&runs, g_ptr_array_unref);
  runs = sl_workspace_store_list_runs (store, "/data/exp", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 2);
  stored = g_ptr_array_index (runs, 1);
  g_assert_cmpint (sl_run_record_get_id (stored), ==, first_id);
  g_assert_cmpuint (sl_run_record_get_n_files (stored), ==, 1);
  g_assert_true (sl_run_record_lookup_file (stored, "events.summary.1", &size, &offset));
  g_assert_cmpuint (size, ==, 8192);
  g_assert_cmpuint (offset, ==, 8192);
  g_assert_cmpstr (sl_run_record_get_tags (stored)[0], ==, NULL);

  /* A rescan that no longer finds PROF_000001 drops it. */
  g_assert_true (sl_workspace_store_prune_runs (store, "/data/exp", 1500, &error));
  g_assert_no_error (error);
  g_clear_pointer (&runs, g_ptr_array_unref);
  runs = sl_workspace_store_list_runs (store, "/data/exp", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_assert_cmpstr (sl_run_record_get_relative_name (g_ptr_array_index (runs, 0)), ==, "lenet/run1");

  g_clear_pointer (&runs, g_ptr_array_unref);
  runs = sl_workspace_store_list_runs (store, "/data/other", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
}

static void
test_run_reading_progress (Fixture       *fixture,
                           gconstpointer  data)
{
  static const char * const details[] = { "summary_files", "2", "has_lineage", "yes", NULL };
  static const char * const read_tags[] = { "loss", "accuracy", NULL };
  static const char * const read_files[] = { "/data/exp/run1/events.summary.1", "/data/exp/run1/unknown", NULL };
  static const guint64 read_offsets[] = { 2048, 99 };
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlRunRecord) run = sl_run_record_new ("/data/exp", "summary-run", "run1", "/data/exp/run1");
  g_autoptr(SlRunRecord) same_elsewhere = sl_run_record_new ("/data", "summary-run", "exp/run1", "/data/exp/run1");
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GError) error = NULL;
  SlRunRecord *stored;
  guint64 size = 0;
  guint64 offset = 0;

  sl_run_record_set_details (run, details);
  sl_run_record_set_last_seen (run, 10);
  sl_run_record_set_file (run, read_files[0], 4096, 0);
  sl_run_record_set_last_seen (same_elsewhere, 10);
  sl_run_record_set_file (same_elsewhere, read_files[0], 4096, 0);
  g_assert_true (sl_workspace_store_upsert_run (store, run, &error));
  g_assert_true (sl_workspace_store_upsert_run (store, same_elsewhere, &error));
  g_assert_no_error (error);

  /* A view read the run: tags and offsets land in every folder holding it;
   * a file the index does not list is ignored. */
  g_assert_true (sl_workspace_store_note_run_read (store, "/data/exp/run1", read_tags, read_files,
                                                   read_offsets, 2, &error));
  g_assert_no_error (error);

  runs = sl_workspace_store_list_runs (store, "/data/exp", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  stored = g_ptr_array_index (runs, 0);
  assert_strv_equal (sl_run_record_get_details (stored), details);
  assert_strv_equal (sl_run_record_get_tags (stored), read_tags);
  g_assert_cmpuint (sl_run_record_get_n_files (stored), ==, 1);
  g_assert_true (sl_run_record_lookup_file (stored, read_files[0], &size, &offset));
  g_assert_cmpuint (size, ==, 4096);
  g_assert_cmpuint (offset, ==, 2048);

  g_clear_pointer (&runs, g_ptr_array_unref);
  runs = sl_workspace_store_list_runs (store, "/data", &error);
  g_assert_no_error (error);
  assert_strv_equal (sl_run_record_get_tags (g_ptr_array_index (runs, 0)), read_tags);

  /* NULL tags keep the known ones. */
  g_assert_true (sl_workspace_store_note_run_read (store, "/data/exp/run1", NULL, NULL, NULL, 0, &error));
  g_clear_pointer (&runs, g_ptr_array_unref);
  runs = sl_workspace_store_list_runs (store, "/data/exp", &error);
  assert_strv_equal (sl_run_record_get_tags (g_ptr_array_index (runs, 0)), read_tags);

  /* A key without a value is dropped rather than shifting the pairs. */
  sl_run_record_set_details (run, (const char * const[]) { "a", "1", "dangling", NULL });
  g_assert_cmpuint (g_strv_length ((char **)sl_run_record_get_details (run)), ==, 2);
}

static void
test_open_folders (Fixture       *fixture,
                   gconstpointer  data)
{
  static const char * const folders[] = { "/data/b", "/data/a", "/data/with space/ü", NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) listed = NULL;

  {
    g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);

    listed = sl_workspace_store_list_open_folders (store, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_strv_length (listed), ==, 0);
    g_clear_pointer (&listed, g_strfreev);

    g_assert_true (sl_workspace_store_set_open_folders (store, folders, &error));
    g_assert_no_error (error);
  }

  /* Kept in order across a restart, and replaced as a whole. */
  {
    g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);

    listed = sl_workspace_store_list_open_folders (store, &error);
    g_assert_no_error (error);
    assert_strv_equal ((const char * const *)listed, folders);
    g_clear_pointer (&listed, g_strfreev);

    g_assert_true (sl_workspace_store_set_open_folders (store, &folders[2], &error));
    listed = sl_workspace_store_list_open_folders (store, &error);
    g_assert_cmpuint (g_strv_length (listed), ==, 1);
    g_assert_cmpstr (listed[0], ==, folders[2]);
    g_clear_pointer (&listed, g_strfreev);

    g_assert_true (sl_workspace_store_set_open_folders (store, NULL, &error));
    listed = sl_workspace_store_list_open_folders (store, &error);
    g_assert_cmpuint (g_strv_length (listed), ==, 0);
  }
}

/* A database written by the first release gains the new table and column
 * and keeps its runs. */
static void
test_migrates_version_1 (Fixture       *fixture,
                         gconstpointer  data)
{
  const char * const *steps = sl_workspace_schema_get_steps (1);
  sqlite3 *db = open_raw (fixture->db_path);
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) listed = NULL;

  for (guint i = 0; steps[i] != NULL; i++)
    exec_raw (db, steps[i]);
  exec_raw (db, "INSERT INTO runs (root_folder, kind, relative_name, path, tags, last_seen) "
                "VALUES ('/old', 'summary-run', 'r', '/old/r', '[\"loss\"]', 5)");
  exec_raw (db, "PRAGMA user_version = 1");
  sqlite3_close (db);

  store = open_store (fixture->db_path);
  g_assert_cmpuint (sl_workspace_store_get_schema_version (store), ==,
                    sl_workspace_store_get_latest_schema_version ());
  runs = sl_workspace_store_list_runs (store, "/old", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_assert_cmpstr (sl_run_record_get_tags (g_ptr_array_index (runs, 0))[0], ==, "loss");
  g_assert_null (sl_run_record_get_details (g_ptr_array_index (runs, 0))[0]);
  listed = sl_workspace_store_list_open_folders (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (listed), ==, 0);
}

static SlJobRecord *
add_job (SlWorkspaceStore *store,
         const char       *command,
         gint64            target_id,
         gint64            started_at)
{
  g_autoptr(GError) error = NULL;
  SlJobRecord *job = sl_job_record_new (command, target_id);

  sl_job_record_set_started_at (job, started_at);
  sl_job_record_set_log_path (job, "/tmp/job.log");
  sl_job_record_set_remote_folder (job, "/home/trainer/.sightline/jobs/1");
  g_assert_true (sl_workspace_store_add_job (store, job, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sl_job_record_get_id (job), >, 0);

  return job;
}

static void
test_jobs (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlTargetRecord) target = new_ssh_target ("a800");
  g_autoptr(SlProjectRecord) project = NULL;
  g_autoptr(SlJobRecord) first = NULL;
  g_autoptr(SlJobRecord) second = NULL;
  g_autoptr(SlJobRecord) third = NULL;
  g_autoptr(SlJobRecord) lost = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  SlJobRecord *stored;

  g_assert_true (sl_workspace_store_add_target (store, target, &error));
  g_assert_no_error (error);
  project = new_project ("resnet", sl_target_record_get_id (target));
  g_assert_true (sl_workspace_store_add_project (store, project, &error));
  g_assert_no_error (error);

  first = add_job (store, "python3 train.py", sl_target_record_get_id (target), 1000000);
  g_assert_cmpstr (sl_job_record_get_target_name (first), ==, "a800");
  g_assert_null (sl_job_record_get_project_name (first));

  second = sl_job_record_new ("msprof --application=./run.sh", sl_target_record_get_id (target));
  sl_job_record_set_project_id (second, sl_project_record_get_id (project));
  sl_job_record_set_started_at (second, 3000000);
  g_assert_true (sl_workspace_store_add_job (store, second, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sl_job_record_get_project_name (second), ==, "resnet");

  third = add_job (store, "python3 infer.py", sl_target_record_get_id (target), 2000000);

  /* Finishing saves state, exit code and end time. */
  sl_job_record_set_state (first, SL_JOB_STATE_FAILED);
  sl_job_record_set_exit_code (first, 137);
  sl_job_record_set_finished_at (first, 1500000);
  g_assert_true (sl_workspace_store_finish_job (store, first, &error));
  g_assert_no_error (error);

  sl_job_record_set_state (second, SL_JOB_STATE_SUCCEEDED);
  sl_job_record_set_exit_code (second, 0);
  g_assert_true (sl_workspace_store_finish_job (store, second, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sl_job_record_get_finished_at (second), >, 0);

  g_assert_false (sl_workspace_store_finish_job (store, third, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_INVALID);
  g_clear_error (&error);

  lost = sl_job_record_new ("true", 4242);
  g_assert_false (sl_workspace_store_add_job (store, lost, &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* The history outlives its target and keeps its name. */
  g_assert_true (sl_workspace_store_remove_target (store, sl_target_record_get_id (target), &error));
  g_assert_no_error (error);

  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 3);
  g_assert_cmpstr (sl_job_record_get_command (g_ptr_array_index (jobs, 0)), ==, "msprof --application=./run.sh");
  g_assert_cmpstr (sl_job_record_get_command (g_ptr_array_index (jobs, 1)), ==, "python3 infer.py");
  g_assert_cmpstr (sl_job_record_get_command (g_ptr_array_index (jobs, 2)), ==, "python3 train.py");

  stored = g_ptr_array_index (jobs, 2);
  g_assert_cmpint (sl_job_record_get_id (stored), ==, sl_job_record_get_id (first));
  g_assert_cmpint (sl_job_record_get_state (stored), ==, SL_JOB_STATE_FAILED);
  g_assert_true (sl_job_record_has_exit_code (stored));
  g_assert_cmpint (sl_job_record_get_exit_code (stored), ==, 137);
  g_assert_cmpint (sl_job_record_get_started_at (stored), ==, 1000000);
  g_assert_cmpint (sl_job_record_get_finished_at (stored), ==, 1500000);
  g_assert_cmpint (sl_job_record_get_target_id (stored), ==, 0);
  g_assert_cmpstr (sl_job_record_get_target_name (stored), ==, "a800");
  g_assert_cmpstr (sl_job_record_get_log_path (stored), ==, "/tmp/job.log");
  g_assert_cmpstr (sl_job_record_get_remote_folder (stored), ==, "/home/trainer/.sightline/jobs/1");

  stored = g_ptr_array_index (jobs, 1);
  g_assert_cmpint (sl_job_record_get_state (stored), ==, SL_JOB_STATE_RUNNING);
  g_assert_false (sl_job_record_has_exit_code (stored));
  g_assert_cmpint (sl_job_record_get_finished_at (stored), ==, 0);

  stored = g_ptr_array_index (jobs, 0);
  g_assert_cmpstr (sl_job_record_get_project_name (stored), ==, "resnet");
  g_assert_cmpint (sl_job_record_get_project_id (stored), ==, sl_project_record_get_id (project));
  g_assert_cmpint (sl_job_record_get_exit_code (stored), ==, 0);

  g_clear_pointer (&jobs, g_ptr_array_unref);
  jobs = sl_workspace_store_list_jobs (store, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 2);
}

/* A workflow's verdict on a finished job: a version 7 database gains the
 * column with its jobs as they were; a job that exited 0 is recorded
 * failed with the reason, and lists say failed, not the scheduler's word;
 * a job without an exit code keeps its state. */
static void
test_job_outcome (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlJobRecord) running = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  SlJobRecord *stored;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (fixture->db_path, &db), ==, SQLITE_OK);
  for (guint version = 1; version <= 7; version++)
    for (const char * const *steps = sl_workspace_schema_get_steps (version); *steps != NULL; steps++)
      exec_raw (db, *steps);
  exec_raw (db, "INSERT INTO jobs (id, command, target_id, target_name, started_at, finished_at, exit_code, state,"
                "                  backend, backend_job_id, backend_state)"
                " VALUES (5, 'python3 main.py', NULL, 'a800', 1000000, 2000000, 0, 'succeeded',"
                "         'slurm', '77', 'COMPLETED')");
  exec_raw (db, "PRAGMA user_version = 7");
  sqlite3_close (db);

  store = open_store (fixture->db_path);
  g_assert_cmpuint (sl_workspace_store_get_schema_version (store), ==, sl_workspace_store_get_latest_schema_version ());
  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 1);
  stored = g_ptr_array_index (jobs, 0);
  g_assert_cmpint (sl_job_record_get_state (stored), ==, SL_JOB_STATE_SUCCEEDED);
  g_assert_null (sl_job_record_get_outcome_reason (stored));
  g_assert_cmpstr (sl_job_record_get_state_word (stored), ==, "COMPLETED");
  g_clear_pointer (&jobs, g_ptr_array_unref);

  g_assert_true (sl_workspace_store_set_job_outcome (store, 5, SL_JOB_STATE_FAILED,
                                                     "exit 0, but the log holds 3 SDK errors", &error));
  g_assert_no_error (error);
  g_clear_object (&store);

  store = open_store (fixture->db_path);
  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  g_assert_no_error (error);
  stored = g_ptr_array_index (jobs, 0);
  g_assert_cmpint (sl_job_record_get_state (stored), ==, SL_JOB_STATE_FAILED);
  g_assert_cmpint (sl_job_record_get_exit_code (stored), ==, 0);
  g_assert_cmpstr (sl_job_record_get_outcome_reason (stored), ==, "exit 0, but the log holds 3 SDK errors");
  g_assert_cmpstr (sl_job_record_get_state_word (stored), ==, "failed");
  g_clear_pointer (&jobs, g_ptr_array_unref);

  running = add_job (store, "python3 other.py", 0, 3000000);
  g_assert_false (sl_workspace_store_set_job_outcome (store, sl_job_record_get_id (running), SL_JOB_STATE_FAILED,
                                                      "no", &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (sl_workspace_store_set_job_outcome (store, 4242, SL_JOB_STATE_FAILED, "no", &error));
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  stored = g_ptr_array_index (jobs, 0);
  g_assert_cmpint (sl_job_record_get_id (stored), ==, sl_job_record_get_id (running));
  g_assert_cmpint (sl_job_record_get_state (stored), ==, SL_JOB_STATE_RUNNING);
  g_assert_null (sl_job_record_get_outcome_reason (stored));
}

static const char *
remote_folder_of (GPtrArray  *projects,
                  const char *name)
{
  for (guint i = 0; i < projects->len; i++)
    if (g_str_equal (sl_project_record_get_name (g_ptr_array_index (projects, i)), name))
      return sl_project_record_get_remote_folder (g_ptr_array_index (projects, i));
  g_assert_not_reached ();
}

/* Projects uploaded before a project went straight into the target's
 * folder for projects keep the folder they were uploaded into, written
 * out; a folder given, a target without its own folder for projects
 * (whose default did not change) and this computer are left alone. */
static void
test_project_folders_migrate (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) projects = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (fixture->db_path, &db), ==, SQLITE_OK);
  for (guint version = 1; version <= 8; version++)
    for (const char * const *steps = sl_workspace_schema_get_steps (version); *steps != NULL; steps++)
      exec_raw (db, *steps);
  exec_raw (db, "INSERT INTO targets (id, name, kind, host, remote_base_folder) VALUES"
                " (10, 'gpu', 'ssh', 'gpu.example', '~/sightline'),"
                " (11, 'scratch', 'ssh', 'hpc.example', '/scratch/me/'),"
                " (12, 'plain', 'ssh', 'plain.example', NULL)");
  exec_raw (db, "INSERT INTO projects (name, local_folder, target_id, remote_folder) VALUES"
                " ('unet', '/home/me/code/unet', 10, NULL),"
                " ('spaced', '/home/me/my project/', 11, ''),"
                " ('given', '/home/me/given', 10, '~/elsewhere/given'),"
                " ('plain', '/home/me/plain', 12, NULL),"
                " ('here', '/home/me/here', 1, NULL),"
                " ('none', '/home/me/none', NULL, NULL)");
  exec_raw (db, "PRAGMA user_version = 8");
  sqlite3_close (db);

  store = open_store (fixture->db_path);
  g_assert_cmpuint (sl_workspace_store_get_schema_version (store), ==, sl_workspace_store_get_latest_schema_version ());
  projects = sl_workspace_store_list_projects (store, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (remote_folder_of (projects, "unet"), ==, "~/sightline/sightline/unet");
  g_assert_cmpstr (remote_folder_of (projects, "spaced"), ==, "/scratch/me/sightline/my project");
  g_assert_cmpstr (remote_folder_of (projects, "given"), ==, "~/elsewhere/given");
  g_assert_null (remote_folder_of (projects, "plain"));
  g_assert_null (remote_folder_of (projects, "here"));
  g_assert_null (remote_folder_of (projects, "none"));
}

/* A comparison's "BASE\nCOMPARISON" address stored among the recent
 * folders by an older Sightline becomes its two folders, each opened when
 * the pair was; a folder already recent keeps its own entry. */
static void
test_joined_recent_folders_migrate (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) folders = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (fixture->db_path, &db), ==, SQLITE_OK);
  for (guint version = 1; version <= 9; version++)
    for (const char * const *steps = sl_workspace_schema_get_steps (version); *steps != NULL; steps++)
      exec_raw (db, *steps);
  exec_raw (db, "INSERT INTO recent_folders (path, opened_at) VALUES"
                " ('/runs/base' || char (10) || '/runs/new', 300),"
                " ('/dumps/npu' || char (10) || '/runs/plain', 200),"
                " ('/runs/plain', 100)");
  exec_raw (db, "PRAGMA user_version = 9");
  sqlite3_close (db);

  store = open_store (fixture->db_path);
  g_assert_cmpuint (sl_workspace_store_get_schema_version (store), ==, sl_workspace_store_get_latest_schema_version ());
  folders = sl_workspace_store_list_recent_folders (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (folders->len, ==, 4);
  for (guint i = 0; i < folders->len; i++)
    g_assert_null (strchr (sl_recent_folder_record_get_path (g_ptr_array_index (folders, i)), '\n'));
  /* Most recent first: the pair opened at 300, then the one at 200 less
   * the folder that was already there, which keeps its time. */
  g_assert_cmpint (sl_recent_folder_record_get_opened_at (g_ptr_array_index (folders, 0)), ==, 300);
  g_assert_cmpint (sl_recent_folder_record_get_opened_at (g_ptr_array_index (folders, 1)), ==, 300);
  g_assert_cmpstr (sl_recent_folder_record_get_path (g_ptr_array_index (folders, 2)), ==, "/dumps/npu");
  g_assert_cmpint (sl_recent_folder_record_get_opened_at (g_ptr_array_index (folders, 2)), ==, 200);
  g_assert_cmpstr (sl_recent_folder_record_get_path (g_ptr_array_index (folders, 3)), ==, "/runs/plain");
  g_assert_cmpint (sl_recent_folder_record_get_opened_at (g_ptr_array_index (folders, 3)), ==, 100);
  {
    const char *first = sl_recent_folder_record_get_path (g_ptr_array_index (folders, 0));
    const char *second = sl_recent_folder_record_get_path (g_ptr_array_index (folders, 1));

    g_assert_true ((g_str_equal (first, "/runs/base") && g_str_equal (second, "/runs/new")) ||
                   (g_str_equal (first, "/runs/new") && g_str_equal (second, "/runs/base")));
  }
}

/* A batch job keeps its backend, Slurm's id and the last state word and
 * reason through updates and its end; a version 2 database gains the
 * columns with its old jobs marked as started directly. */
static void
test_slurm_jobs (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlJobRecord) job = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  SlJobRecord *stored;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (fixture->db_path, &db), ==, SQLITE_OK);
  for (guint version = 1; version <= 2; version++)
    for (const char * const *steps = sl_workspace_schema_get_steps (version); *steps != NULL; steps++)
      exec_raw (db, *steps);
  exec_raw (db, "INSERT INTO jobs (command, target_id, started_at, state) VALUES ('old', 1, 5, 'succeeded')");
  exec_raw (db, "PRAGMA user_version = 2");
  sqlite3_close (db);

  store = open_store (fixture->db_path);
  job = sl_job_record_new ("srun python3 train.py", 1);
  sl_job_record_set_backend (job, SL_JOB_BACKEND_SLURM);
  sl_job_record_set_state (job, SL_JOB_STATE_QUEUED);
  sl_job_record_set_started_at (job, 10);
  g_assert_true (sl_workspace_store_add_job (store, job, &error));
  g_assert_no_error (error);

  sl_job_record_set_backend_job_id (job, "4242");
  sl_job_record_set_backend_state (job, "PENDING", "Resources");
  g_assert_true (sl_workspace_store_update_job (store, job, &error));
  g_assert_no_error (error);

  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  g_assert_cmpuint (jobs->len, ==, 2);
  stored = g_ptr_array_index (jobs, 0);
  g_assert_true (sl_job_record_is_slurm (stored));
  g_assert_cmpstr (sl_job_record_get_backend_job_id (stored), ==, "4242");
  g_assert_cmpstr (sl_job_record_get_state_word (stored), ==, "PENDING");
  g_assert_cmpstr (sl_job_record_get_backend_reason (stored), ==, "Resources");
  g_assert_cmpint (sl_job_record_get_state (stored), ==, SL_JOB_STATE_QUEUED);
  stored = g_ptr_array_index (jobs, 1);
  g_assert_cmpstr (sl_job_record_get_backend (stored), ==, SL_JOB_BACKEND_DIRECT);
  g_assert_false (sl_job_record_is_slurm (stored));
  g_assert_cmpstr (sl_job_record_get_state_word (stored), ==, "succeeded");
  g_clear_pointer (&jobs, g_ptr_array_unref);

  sl_job_record_set_state (job, SL_JOB_STATE_FAILED);
  sl_job_record_set_backend_state (job, "TIMEOUT", NULL);
  sl_job_record_set_exit_code (job, 143);
  g_assert_true (sl_workspace_store_finish_job (store, job, &error));
  g_assert_no_error (error);

  /* An update after the end changes nothing. */
  sl_job_record_set_state (job, SL_JOB_STATE_RUNNING);
  sl_job_record_set_backend_state (job, "RUNNING", NULL);
  g_assert_true (sl_workspace_store_update_job (store, job, &error));

  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  stored = g_ptr_array_index (jobs, 0);
  g_assert_cmpstr (sl_job_record_get_state_word (stored), ==, "TIMEOUT");
  g_assert_null (sl_job_record_get_backend_reason (stored));
  g_assert_cmpint (sl_job_record_get_state (stored), ==, SL_JOB_STATE_FAILED);
  g_assert_cmpint (sl_job_record_get_exit_code (stored), ==, 143);
}

/* A run configuration's options are groups kept apart: replacing one
 * keeps the others, removing one leaves the rest, text that does not
 * parse is kept as it is until a group is set. */
static void
test_run_config_option_groups (void)
{
  g_autoptr(SlRunConfigRecord) config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_MINDX, "App", "python3");
  g_autoptr(JsonObject) slurm = json_object_new ();
  g_autoptr(JsonObject) mindx = json_object_new ();
  g_autoptr(JsonObject) read = NULL;

  g_assert_cmpstr (sl_run_config_record_get_options (config), ==, "{}");
  g_assert_null (sl_run_config_record_dup_option_group (config, "slurm"));

  json_object_set_int_member (slurm, "nodes", 4);
  json_object_set_string_member (slurm, "partition", "ascend");
  sl_run_config_record_set_option_group (config, "slurm", slurm);
  json_object_set_string_member (mindx, "sdk_home", "/opt/mxVision");
  sl_run_config_record_set_option_group (config, "mindx", mindx);

  read = sl_run_config_record_dup_option_group (config, "slurm");
  g_assert_nonnull (read);
  g_assert_cmpint (json_object_get_int_member (read, "nodes"), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (read, "partition"), ==, "ascend");
  g_clear_pointer (&read, json_object_unref);

  sl_run_config_record_set_option_group (config, "slurm", NULL);
  g_assert_null (sl_run_config_record_dup_option_group (config, "slurm"));
  read = sl_run_config_record_dup_option_group (config, "mindx");
  g_assert_cmpstr (json_object_get_string_member (read, "sdk_home"), ==, "/opt/mxVision");
  g_clear_pointer (&read, json_object_unref);

  /* A group that is not an object, and text that is not JSON. */
  sl_run_config_record_set_options (config, "{\"slurm\": 3}");
  g_assert_null (sl_run_config_record_dup_option_group (config, "slurm"));
  sl_run_config_record_set_options (config, "{not json");
  g_assert_cmpstr (sl_run_config_record_get_options (config), ==, "{not json");
  g_assert_null (sl_run_config_record_dup_option_group (config, "mindx"));
  sl_run_config_record_set_option_group (config, "mindx", mindx);
  read = sl_run_config_record_dup_option_group (config, "mindx");
  g_assert_nonnull (read);
  sl_run_config_record_set_options (config, NULL);
  g_assert_cmpstr (sl_run_config_record_get_options (config), ==, "{}");
}

/* A version 5 database's run configurations survive the rebuild of their
 * table with no options; afterwards a MindX configuration and its options
 * are stored and read back. */
static void
test_run_config_options_migrate (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlProjectRecord) project = NULL;
  g_autoptr(SlRunConfigRecord) app = NULL;
  g_autoptr(JsonObject) mindx = json_object_new ();
  g_autoptr(JsonObject) read = NULL;
  g_autoptr(GPtrArray) projects = NULL;
  g_autoptr(GError) error = NULL;
  SlProjectRecord *stored;
  SlRunConfigRecord *config;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (fixture->db_path, &db), ==, SQLITE_OK);
  for (guint version = 1; version <= 5; version++)
    for (const char * const *steps = sl_workspace_schema_get_steps (version); *steps != NULL; steps++)
      exec_raw (db, *steps);
  exec_raw (db, "INSERT INTO projects (id, name, local_folder) VALUES (7, 'resnet', '/src/resnet')");
  exec_raw (db, "INSERT INTO run_configs (project_id, name, kind, command, arguments, pull_folders)"
                " VALUES (7, 'Train', 'train', 'python3', '[\"train.py\"]', '[\"summary\"]')");
  exec_raw (db, "PRAGMA user_version = 5");
  sqlite3_close (db);

  store = open_store (fixture->db_path);
  projects = sl_workspace_store_list_projects (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (projects->len, ==, 1);
  stored = g_ptr_array_index (projects, 0);
  g_assert_cmpuint (sl_project_record_get_n_run_configs (stored), ==, 1);
  config = sl_project_record_get_run_config (stored, 0);
  g_assert_cmpstr (sl_run_config_record_get_name (config), ==, "Train");
  g_assert_cmpstr (sl_run_config_record_get_arguments (config)[0], ==, "train.py");
  g_assert_cmpstr (sl_run_config_record_get_pull_folders (config)[0], ==, "summary");
  g_assert_cmpstr (sl_run_config_record_get_options (config), ==, "{}");

  project = g_object_ref (stored);
  app = sl_run_config_record_new (SL_RUN_CONFIG_KIND_MINDX, "Detect", "python3");
  json_object_set_string_member (mindx, "pipeline", "pipeline/detect.pipeline");
  sl_run_config_record_set_option_group (app, "mindx", mindx);
  sl_project_record_add_run_config (project, app);
  g_assert_true (sl_workspace_store_update_project (store, project, &error));
  g_assert_no_error (error);
  g_clear_pointer (&projects, g_ptr_array_unref);
  g_clear_object (&store);

  store = open_store (fixture->db_path);
  projects = sl_workspace_store_list_projects (store, &error);
  stored = g_ptr_array_index (projects, 0);
  g_assert_cmpuint (sl_project_record_get_n_run_configs (stored), ==, 2);
  config = sl_project_record_get_run_config (stored, 1);
  g_assert_cmpint (sl_run_config_record_get_kind (config), ==, SL_RUN_CONFIG_KIND_MINDX);
  read = sl_run_config_record_dup_option_group (config, "mindx");
  g_assert_nonnull (read);
  g_assert_cmpstr (json_object_get_string_member (read, "pipeline"), ==, "pipeline/detect.pipeline");
}

static void
test_reopen_keeps_data (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlTargetRecord) target = new_ssh_target ("a800");
  g_autoptr(GPtrArray) targets = NULL;
  g_autoptr(GPtrArray) folders = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_workspace_store_add_target (store, target, &error));
  g_assert_no_error (error);
  note_folder (store, "/runs/a");
  g_clear_object (&store);

  /* Opening runs the migrations again only where needed: twice more and
   * the Local target is still there once. */
  for (guint i = 0; i < 2; i++)
    {
      store = open_store (fixture->db_path);
      g_assert_null (sl_workspace_store_get_recovery_message (store));
      g_assert_cmpuint (sl_workspace_store_get_schema_version (store), ==,
                        sl_workspace_store_get_latest_schema_version ());

      targets = sl_workspace_store_list_targets (store, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (targets->len, ==, 2);
      g_assert_nonnull (find_target (targets, "Local"));
      g_assert_cmpstr (sl_target_record_get_host (find_target (targets, "a800")), ==, "ascend-01.example.org");

      folders = list_recent (store);
      g_assert_cmpuint (folders->len, ==, 1);

      g_clear_pointer (&targets, g_ptr_array_unref);
      g_clear_pointer (&folders, g_ptr_array_unref);
      g_clear_object (&store);
    }
}

static void
test_empty_file_is_migrated (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = NULL;

  write_file (fixture->db_path, "", 0);
  store = open_store (fixture->db_path);
  g_assert_null (sl_workspace_store_get_recovery_message (store));
  g_assert_cmpuint (sl_workspace_store_get_schema_version (store), ==,
                    sl_workspace_store_get_latest_schema_version ());
}

static void
assert_recovered (Fixture *fixture,
                  GBytes  *original)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GPtrArray) targets = NULL;
  g_autoptr(GBytes) moved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *aside = NULL;
  g_autofree char *message_copy = NULL;
  const char *message;

  message = sl_workspace_store_get_recovery_message (store);
  g_assert_nonnull (message);
  message_copy = g_strdup (message);
  g_assert_cmpint (sl_workspace_recovery_get_kind (sl_workspace_store_get_recovery (store)), ==,
                   SL_WORKSPACE_RECOVERY_DAMAGED);

  aside = find_file_with_prefix (fixture->dir, "workspace.db.corrupt-", NULL);
  g_assert_nonnull (aside);
  g_assert_true (strstr (message, aside) != NULL);

  moved = read_file (aside);
  g_assert_true (g_bytes_equal (moved, original));

  /* The new database works. */
  targets = sl_workspace_store_list_targets (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (targets->len, ==, 1);
  note_folder (store, "/runs/after-recovery");
  g_clear_object (&store);

  /* And it is a healthy one: no second recovery, but the report of the
   * first stays until it is dismissed. */
  store = open_store (fixture->db_path);
  g_assert_cmpstr (sl_workspace_store_get_recovery_message (store), ==, message_copy);
  g_assert_true (sl_workspace_store_dismiss_recovery (store, &error));
  g_assert_no_error (error);
  g_assert_null (sl_workspace_store_get_recovery_message (store));
  g_clear_object (&store);

  store = open_store (fixture->db_path);
  g_assert_null (sl_workspace_store_get_recovery_message (store));
  g_assert_null (find_file_with_prefix (fixture->dir, "workspace.db.stale-", NULL));
}

static void
test_garbage_is_moved_aside (Fixture       *fixture,
                             gconstpointer  data)
{
  static const char garbage[] = "this is not a database";
  static const char garbage_wal[] = "nor is this a write-ahead log";
  g_autoptr(GBytes) original = g_bytes_new_static (garbage, sizeof garbage - 1);
  g_autofree char *wal = g_strconcat (fixture->db_path, "-wal", NULL);

  /* A stale log beside the file must not leak into the new database. */
  write_file (fixture->db_path, garbage, sizeof garbage - 1);
  write_file (wal, garbage_wal, sizeof garbage_wal - 1);

  assert_recovered (fixture, original);
}

static void
test_truncated_database_is_moved_aside (Fixture       *fixture,
                                        gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GBytes) truncated = NULL;
  g_autoptr(GError) error = NULL;

  /* Enough rows for several pages. */
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *path = g_strdup_printf ("/data/exp/run-%03u-with-a-rather-long-name-to-fill-pages", i);
      g_autoptr(SlRunRecord) run = sl_run_record_new ("/data/exp", "summary-run", path + 10, path);

      sl_run_record_set_file (run, "events.summary.1", 100000, 5000);
      g_assert_true (sl_workspace_store_upsert_run (store, run, &error));
      g_assert_no_error (error);
    }
  g_clear_object (&store);

  whole = read_file (fixture->db_path);
  g_assert_cmpuint (g_bytes_get_size (whole), >, 8 * 4096);
  truncated = g_bytes_new_from_bytes (whole, 0, g_bytes_get_size (whole) / 2 + 100);
  write_file (fixture->db_path, g_bytes_get_data (truncated, NULL), g_bytes_get_size (truncated));

  assert_recovered (fixture, truncated);
}

/* A database in WAL mode whose log is kept: returns the log's bytes. */
static GBytes *
make_foreign_wal (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "other.db", NULL);
  g_autofree char *wal_path = g_strconcat (path, "-wal", NULL);
  GBytes *wal;
  sqlite3 *db = open_raw (path);

  exec_raw (db, "PRAGMA journal_mode = WAL");
  exec_raw (db, "PRAGMA wal_autocheckpoint = 0");
  exec_raw (db, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)");
  for (guint i = 0; i < 200; i++)
    exec_raw (db, "INSERT INTO notes (text) VALUES ('another program wrote this row, which is long enough to fill pages')");

  /* Read while the other database is still open: closing it would
   * checkpoint the log into its file. */
  wal = read_file (wal_path);
  g_assert_cmpuint (g_bytes_get_size (wal), >, 4096);
  sqlite3_db_config (db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
  sqlite3_close (db);

  return wal;
}

static void
test_foreign_wal_is_set_aside (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlTargetRecord) target = new_ssh_target ("a800");
  g_autofree char *wal_path = g_strconcat (fixture->db_path, "-wal", NULL);
  g_autofree char *aside = NULL;
  g_autoptr(GBytes) foreign = NULL;
  g_autoptr(GBytes) kept = NULL;
  g_autoptr(GPtrArray) targets = NULL;
  g_autoptr(GError) error = NULL;
  SlWorkspaceRecovery *recovery;
  const char *message;

  g_assert_true (sl_workspace_store_add_target (store, target, &error));
  g_assert_no_error (error);
  g_clear_object (&store);
  g_assert_false (g_file_test (wal_path, G_FILE_TEST_EXISTS));

  /* Another database's log lies beside the workspace. */
  foreign = make_foreign_wal (fixture->dir);
  write_file (wal_path, g_bytes_get_data (foreign, NULL), g_bytes_get_size (foreign));

  store = open_store (fixture->db_path);
  targets = sl_workspace_store_list_targets (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (targets->len, ==, 2);
  g_assert_nonnull (find_target (targets, "a800"));

  recovery = sl_workspace_store_get_recovery (store);
  g_assert_nonnull (recovery);
  g_assert_cmpint (sl_workspace_recovery_get_kind (recovery), ==, SL_WORKSPACE_RECOVERY_FOREIGN_WAL);

  /* The log is kept as it was, and the message says where. */
  aside = find_file_with_prefix (fixture->dir, "workspace.db.stale-", "-wal");
  g_assert_nonnull (aside);
  kept = read_file (aside);
  g_assert_true (g_bytes_equal (kept, foreign));
  g_assert_cmpstr (sl_workspace_recovery_get_moved_aside (recovery)[0], ==, aside);
  message = sl_workspace_store_get_recovery_message (store);
  g_assert_nonnull (strstr (message, aside));
  g_assert_null (find_file_with_prefix (fixture->dir, "workspace.db.corrupt-", NULL));
  g_clear_object (&store);

  /* Nothing of it reached the file. */
  store = open_store (fixture->db_path);
  g_clear_pointer (&targets, g_ptr_array_unref);
  targets = sl_workspace_store_list_targets (store, &error);
  g_assert_cmpuint (targets->len, ==, 2);
}

/* A log that is not a log at all is kept aside too: SQLite would write
 * over it. */
static void
test_garbage_wal_is_set_aside (Fixture       *fixture,
                               gconstpointer  data)
{
  static const char garbage[] = "not a write-ahead log, but somebody's bytes";
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autofree char *wal_path = g_strconcat (fixture->db_path, "-wal", NULL);
  g_autofree char *aside = NULL;
  g_autoptr(GBytes) kept = NULL;

  g_clear_object (&store);
  write_file (wal_path, garbage, sizeof garbage - 1);

  store = open_store (fixture->db_path);
  g_assert_nonnull (sl_workspace_store_get_recovery (store));
  aside = find_file_with_prefix (fixture->dir, "workspace.db.stale-", "-wal");
  g_assert_nonnull (aside);
  kept = read_file (aside);
  g_assert_cmpmem (g_bytes_get_data (kept, NULL), g_bytes_get_size (kept), garbage, sizeof garbage - 1);
}

static guint64
read_varint (const guint8 *bytes,
             guint        *length)
{
  guint64 value = 0;

  for (guint i = 0; i < 9; i++)
    {
      if (i == 8)
        {
          *length = 9;
          return (value << 8) | bytes[i];
        }
      value = (value << 7) | (bytes[i] & 0x7f);
      if ((bytes[i] & 0x80) == 0)
        {
          *length = i + 1;
          return value;
        }
    }
  g_assert_not_reached ();
}

static void
test_damaged_page_is_salvaged (Fixture       *fixture,
                               gconstpointer  data)
{
  const guint n_jobs = 400;
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GPtrArray) targets = NULL;
  g_autoptr(GPtrArray) projects = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GPtrArray) folders = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (25);
  g_autofree char *wal_path = g_strconcat (fixture->db_path, "-wal", NULL);
  g_autofree char *rootpage = NULL;
  g_autofree char *page_size_text = NULL;
  g_autofree guint8 *bytes = NULL;
  SlWorkspaceRecovery *recovery;
  guint page_size, root, child, header, n_cells, first_cell, second_cell, length;
  guint64 first_key, second_key, recovered = 0, expected_lost;
  gint64 lost = -2, target_id = 0;
  gsize size;
  sqlite3 *db;

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("a800-%u", i);
      g_autoptr(SlTargetRecord) target = new_ssh_target (name);

      g_assert_true (sl_workspace_store_add_target (store, target, &error));
      g_assert_no_error (error);
      target_id = sl_target_record_get_id (target);
    }
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *name = g_strdup_printf ("resnet-%u", i);
      g_autoptr(SlProjectRecord) project = new_project (name, target_id);

      g_assert_true (sl_workspace_store_add_project (store, project, &error));
      g_assert_no_error (error);
    }
  note_folder (store, "/runs/a");
  note_folder (store, "/runs/b");
  note_folder (store, "/runs/c");
  for (guint i = 0; i < n_jobs; i++)
    {
      g_autofree char *command = g_strdup_printf ("python3 train.py --run %u --a-long-argument-to-fill-the-pages-of-the-table", i);
      g_autoptr(SlJobRecord) job = add_job (store, command, target_id, 1000000 + i);
    }
  g_clear_object (&store);

  /* Find the second leaf of the jobs table under its root, an interior
   * page whose cells hold a child page and the child's largest rowid. */
  db = open_raw (fixture->db_path);
  rootpage = query_raw_text (db, "SELECT rootpage FROM sqlite_master WHERE name = 'jobs'");
  page_size_text = query_raw_text (db, "PRAGMA page_size");
  sqlite3_close (db);
  g_assert_false (g_file_test (wal_path, G_FILE_TEST_EXISTS));

  g_file_get_contents (fixture->db_path, (char **)&bytes, &size, &error);
  g_assert_no_error (error);
  page_size = (guint)g_ascii_strtoull (page_size_text, NULL, 10);
  root = (guint)g_ascii_strtoull (rootpage, NULL, 10);
  header = (root - 1) * page_size;
  g_assert_cmpuint (bytes[header], ==, 0x05);
  n_cells = (bytes[header + 3] << 8) | bytes[header + 4];
  g_assert_cmpuint (n_cells, >=, 3);
  first_cell = header + ((bytes[header + 12] << 8) | bytes[header + 13]);
  second_cell = header + ((bytes[header + 14] << 8) | bytes[header + 15]);
  first_key = read_varint (bytes + first_cell + 4, &length);
  second_key = read_varint (bytes + second_cell + 4, &length);
  child = ((guint)bytes[second_cell] << 24) | (bytes[second_cell + 1] << 16) |
          (bytes[second_cell + 2] << 8) | bytes[second_cell + 3];
  /* Rowids are 1, 2, 3…: the second leaf holds those after the first
   * leaf's largest up to its own. */
  expected_lost = second_key - first_key;
  g_assert_cmpuint (expected_lost, >, 0);

  for (guint i = 0; i < page_size; i++)
    bytes[(child - 1) * page_size + i] = (guint8)g_rand_int_range (rand, 0, 256);
  write_file (fixture->db_path, bytes, size);

  store = open_store (fixture->db_path);
  recovery = sl_workspace_store_get_recovery (store);
  g_assert_nonnull (recovery);
  g_assert_cmpint (sl_workspace_recovery_get_kind (recovery), ==, SL_WORKSPACE_RECOVERY_DAMAGED);

  /* Every row of the other tables, every job but those of the page. */
  g_assert_true (sl_workspace_recovery_lookup_table (recovery, "jobs", &recovered, &lost));
  g_assert_cmpint (lost, ==, (gint64)expected_lost);
  g_assert_cmpuint (recovered, ==, n_jobs - expected_lost);
  g_assert_true (sl_workspace_recovery_lookup_table (recovery, "targets", &recovered, &lost));
  g_assert_cmpuint (recovered, ==, 5);
  g_assert_cmpint (lost, ==, 0);
  g_assert_true (sl_workspace_recovery_lookup_table (recovery, "projects", &recovered, &lost));
  g_assert_cmpuint (recovered, ==, 2);
  g_assert_true (sl_workspace_recovery_lookup_table (recovery, "run_configs", &recovered, &lost));
  g_assert_cmpuint (recovered, ==, 4);
  g_assert_true (sl_workspace_recovery_lookup_table (recovery, "recent_folders", &recovered, &lost));
  g_assert_cmpuint (recovered, ==, 3);

  targets = sl_workspace_store_list_targets (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (targets->len, ==, 5);
  g_assert_nonnull (find_target (targets, "Local"));
  g_assert_cmpstr (sl_target_record_get_host (find_target (targets, "a800-3")), ==, "ascend-01.example.org");
  projects = sl_workspace_store_list_projects (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (projects->len, ==, 2);
  g_assert_cmpuint (sl_project_record_get_n_run_configs (g_ptr_array_index (projects, 0)), ==, 2);
  jobs = sl_workspace_store_list_jobs (store, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, n_jobs - expected_lost);
  g_assert_cmpstr (sl_job_record_get_target_name (g_ptr_array_index (jobs, 0)), ==, "a800-3");
  folders = list_recent (store);
  g_assert_cmpuint (folders->len, ==, 3);

  /* The message says what was kept, recovered and lost. */
  g_assert_nonnull (strstr (sl_workspace_store_get_recovery_message (store), "jobs"));
  g_assert_nonnull (strstr (sl_workspace_store_get_recovery_message (store), ".corrupt-"));
}

static void
assert_refused_and_untouched (Fixture *fixture,
                              int      error_code)
{
  g_autoptr(GBytes) before = read_file (fixture->db_path);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *aside = NULL;

  store = sl_workspace_store_new_for_path (fixture->db_path, &error);
  g_assert_null (store);
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, error_code);
  g_assert_true (strstr (error->message, fixture->db_path) != NULL);

  after = read_file (fixture->db_path);
  g_assert_true (g_bytes_equal (before, after));

  aside = find_file_with_prefix (fixture->dir, "workspace.db.corrupt-", NULL);
  g_assert_null (aside);
}

static void
test_newer_version_is_refused (Fixture       *fixture,
                               gconstpointer  data)
{
  sqlite3 *db = open_raw (fixture->db_path);

  exec_raw (db, "CREATE TABLE future (x); INSERT INTO future VALUES (1); PRAGMA user_version = 999");
  sqlite3_close (db);

  assert_refused_and_untouched (fixture, SL_WORKSPACE_STORE_ERROR_NEWER_VERSION);
}

static void
test_other_database_is_refused (Fixture       *fixture,
                                gconstpointer  data)
{
  sqlite3 *db = open_raw (fixture->db_path);

  exec_raw (db, "CREATE TABLE notes (text); INSERT INTO notes VALUES ('keep me')");
  sqlite3_close (db);

  assert_refused_and_untouched (fixture, SL_WORKSPACE_STORE_ERROR_NOT_A_WORKSPACE);
}

/* No table may have a place for a secret. */
static void
test_schema_has_no_secrets (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GRegex) forbidden = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *tables = NULL;
  sqlite3 *db = open_raw (fixture->db_path);
  guint n_tables = 0;
  guint n_columns = 0;

  forbidden = g_regex_new ("password|passphrase|secret|private", G_REGEX_CASELESS, 0, &error);
  g_assert_no_error (error);

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &tables, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (tables) == SQLITE_ROW)
    {
      const char *table = (const char *)sqlite3_column_text (tables, 0);
      sqlite3_stmt *columns = NULL;

      g_assert_false (g_regex_match (forbidden, table, 0, NULL));
      n_tables++;

      g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT name FROM pragma_table_info (?1)", -1, &columns, NULL),
                       ==, SQLITE_OK);
      sqlite3_bind_text (columns, 1, table, -1, SQLITE_TRANSIENT);
      while (sqlite3_step (columns) == SQLITE_ROW)
        {
          const char *column = (const char *)sqlite3_column_text (columns, 0);

          if (g_regex_match (forbidden, column, 0, NULL))
            g_error ("Column %s.%s looks like it holds a secret", table, column);
          n_columns++;
        }
      sqlite3_finalize (columns);
    }
  sqlite3_finalize (tables);
  sqlite3_close (db);

  g_assert_cmpuint (n_tables, >=, 7);
  g_assert_cmpuint (n_columns, >, 30);
}

static void
test_id_round_trips (void)
{
  for (guint i = SL_TARGET_AUTH_AGENT; i <= SL_TARGET_AUTH_KEYBOARD_INTERACTIVE; i++)
    {
      SlTargetAuth auth = SL_TARGET_AUTH_AGENT;

      g_assert_true (sl_target_auth_from_id (sl_target_auth_to_id ((SlTargetAuth)i), &auth));
      g_assert_cmpint (auth, ==, i);
    }

  for (guint i = SL_RUN_CONFIG_KIND_TRAIN; i <= SL_RUN_CONFIG_KIND_LAST; i++)
    {
      SlRunConfigKind kind = SL_RUN_CONFIG_KIND_TRAIN;

      g_assert_true (sl_run_config_kind_from_id (sl_run_config_kind_to_id ((SlRunConfigKind)i), &kind));
      g_assert_cmpint (kind, ==, i);
    }

  for (guint i = SL_JOB_STATE_QUEUED; i <= SL_JOB_STATE_LOST; i++)
    {
      SlJobState state = SL_JOB_STATE_QUEUED;

      g_assert_true (sl_job_state_from_id (sl_job_state_to_id ((SlJobState)i), &state));
      g_assert_cmpint (state, ==, i);
    }

  g_assert_false (sl_target_auth_from_id ("telepathy", &(SlTargetAuth) { 0 }));
}

/* A record's setter given the value it holds keeps it, and a list set
 * to nothing is an empty list, never NULL. */
static void
test_records_keep_own_values (void)
{
  const char * const args[] = { "train.py", "--epochs", "3", NULL };
  g_autoptr(SlTargetRecord) target = sl_target_record_new (SL_TARGET_KIND_SSH, "a800");
  g_autoptr(SlJobRecord) job = sl_job_record_new ("python3 train.py", 1);
  g_autoptr(SlProjectRecord) project = sl_project_record_new ("resnet", "/src/resnet");
  g_autoptr(SlRunConfigRecord) config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_TRAIN, "Train", "python3");
  g_autoptr(SlRunRecord) run = sl_run_record_new ("/runs", "mindspore-summary", "r1", "/runs/r1");

  sl_target_record_set_host (target, "ascend-01");
  sl_target_record_set_host (target, sl_target_record_get_host (target));
  g_assert_cmpstr (sl_target_record_get_host (target), ==, "ascend-01");
  sl_target_record_set_name (target, sl_target_record_get_name (target));
  g_assert_cmpstr (sl_target_record_get_name (target), ==, "a800");

  sl_job_record_set_log_path (job, "/logs/1.log");
  sl_job_record_set_log_path (job, sl_job_record_get_log_path (job));
  g_assert_cmpstr (sl_job_record_get_log_path (job), ==, "/logs/1.log");
  sl_job_record_set_log_path (job, NULL);
  g_assert_null (sl_job_record_get_log_path (job));

  sl_project_record_set_remote_folder (project, "/home/trainer/resnet");
  sl_project_record_set_remote_folder (project, sl_project_record_get_remote_folder (project));
  g_assert_cmpstr (sl_project_record_get_remote_folder (project), ==, "/home/trainer/resnet");
  sl_project_record_set_upload_excludes (project, args);
  sl_project_record_set_upload_excludes (project, sl_project_record_get_upload_excludes (project));
  g_assert_cmpstrv (sl_project_record_get_upload_excludes (project), args);
  sl_project_record_set_upload_excludes (project, NULL);
  g_assert_nonnull (sl_project_record_get_upload_excludes (project));
  g_assert_null (sl_project_record_get_upload_excludes (project)[0]);

  sl_run_config_record_set_arguments (config, args);
  sl_run_config_record_set_arguments (config, sl_run_config_record_get_arguments (config));
  g_assert_cmpstrv (sl_run_config_record_get_arguments (config), args);
  sl_run_config_record_set_arguments (config, NULL);
  g_assert_nonnull (sl_run_config_record_get_arguments (config));
  g_assert_null (sl_run_config_record_get_arguments (config)[0]);
  sl_run_config_record_set_working_folder (config, "wd");
  sl_run_config_record_set_working_folder (config, sl_run_config_record_get_working_folder (config));
  g_assert_cmpstr (sl_run_config_record_get_working_folder (config), ==, "wd");

  sl_run_record_set_tags (run, args);
  sl_run_record_set_tags (run, sl_run_record_get_tags (run));
  g_assert_cmpstrv (sl_run_record_get_tags (run), args);
  sl_run_record_set_tags (run, NULL);
  g_assert_nonnull (sl_run_record_get_tags (run));
  g_assert_null (sl_run_record_get_tags (run)[0]);
}

static void
set_note (SlWorkspaceStore   *store,
          const char         *path,
          const char         *text,
          const char * const *tags,
          gint64              at)
{
  g_autoptr(SlRunNoteRecord) note = sl_run_note_record_new (path, text, tags, at);
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_workspace_store_set_run_note (store, note, &error));
  g_assert_no_error (error);
}

/* Notes and tags per run: listed below a folder (not beside it), an
 * update replaces, an empty note forgets; tags are trimmed and unique. */
static void
test_run_notes (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GPtrArray) notes = NULL;
  g_autoptr(GError) error = NULL;
  const char *tags[] = { " best ", "lr", "best", "", NULL };
  const char *none[] = { NULL };
  const char * const *kept;

  set_note (store, "/runs/a_1/run_01", "first try", tags, 10);
  set_note (store, "/runs/a_1/run_02", "", tags, 11);
  set_note (store, "/runs/a_10/run_01", "beside", NULL, 12);
  g_assert_no_error (error);

  notes = sl_workspace_store_list_run_notes (store, "/runs/a_1", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (notes->len, ==, 2);
  g_assert_cmpstr (sl_run_note_record_get_path (g_ptr_array_index (notes, 0)), ==, "/runs/a_1/run_01");
  g_assert_cmpstr (sl_run_note_record_get_note (g_ptr_array_index (notes, 0)), ==, "first try");
  kept = sl_run_note_record_get_tags (g_ptr_array_index (notes, 0));
  g_assert_cmpuint (g_strv_length ((GStrv) kept), ==, 2);
  g_assert_cmpstr (kept[0], ==, "best");
  g_assert_cmpstr (kept[1], ==, "lr");
  g_assert_cmpint (sl_run_note_record_get_updated_at (g_ptr_array_index (notes, 0)), ==, 10);
  g_clear_pointer (&notes, g_ptr_array_unref);

  set_note (store, "/runs/a_1/run_01", "second", none, 20);
  set_note (store, "/runs/a_1/run_02", NULL, none, 21);
  notes = sl_workspace_store_list_run_notes (store, "/runs/a_1/", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (notes->len, ==, 1);
  g_assert_cmpstr (sl_run_note_record_get_note (g_ptr_array_index (notes, 0)), ==, "second");
  g_assert_null (sl_run_note_record_get_tags (g_ptr_array_index (notes, 0))[0]);
  g_clear_pointer (&notes, g_ptr_array_unref);

  notes = sl_workspace_store_list_run_notes (store, "/runs/a_1/run_01", &error);
  g_assert_cmpuint (notes->len, ==, 1);
}

/* Other programs at the same time */

/* This program, run again as a writer of the database. */
static const char *test_program;

/* Whether the temporary folder is this run's own. */
static gboolean own_tmp_dir;

/* The copies the store judges a log on are removed. */
static void
assert_no_copies_left (void)
{
  g_autoptr(GDir) tmp = NULL;
  const char *name;

  if (!own_tmp_dir)
    {
      g_test_message ("The temporary folder is shared: copies left in it are not counted");
      return;
    }

  tmp = g_dir_open (g_get_tmp_dir (), 0, NULL);
  g_assert_nonnull (tmp);
  while ((name = g_dir_read_name (tmp)) != NULL)
    g_assert_false (g_str_has_prefix (name, "sightline-workspace-"));
}

#define WRITER_ROOT "/data/exp"

static char *
writer_run_path (guint round,
                 guint n)
{
  return g_strdup_printf (WRITER_ROOT "/round-%02u/run-%05u-with-a-name-long-enough-to-fill-pages", round, n);
}

/* Writes runs one transaction at a time, forever, as the command line
 * does while it tunes: one store stays open and writes, and every fourth
 * run is written by a second store it opens and closes meanwhile, as
 * each trial does. After each commit it prints how many runs it wrote. */
static int
run_writer (const char *path,
            const char *round_text)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GError) error = NULL;
  guint round = (guint)g_ascii_strtoull (round_text, NULL, 10);

  store = sl_workspace_store_new_for_path (path, &error);
  if (store == NULL || sl_workspace_store_get_recovery (store) != NULL)
    {
      g_printerr ("writer: %s\n", error != NULL ? error->message : sl_workspace_store_get_recovery_message (store));
      return 1;
    }

  for (guint n = 0; ; n++)
    {
      g_autofree char *run_path = writer_run_path (round, n);
      g_autoptr(SlRunRecord) run = sl_run_record_new (WRITER_ROOT, "summary-run", run_path + strlen (WRITER_ROOT) + 1, run_path);
      g_autoptr(SlWorkspaceStore) second = NULL;

      sl_run_record_set_file (run, "events.summary.1", 100000 + n, 5000);
      if (n % 4 == 3 && (second = sl_workspace_store_new_for_path (path, &error)) == NULL)
        {
          g_printerr ("writer: %s\n", error->message);
          return 1;
        }
      if (!sl_workspace_store_upsert_run (second != NULL ? second : store, run, &error))
        {
          g_printerr ("writer: %s\n", error->message);
          return 1;
        }
      g_clear_object (&second);
      g_print ("%u\n", n + 1);
      fflush (stdout);
    }
}

static GSubprocess *
start_writer (const char *path,
              guint       round)
{
  g_autofree char *round_text = g_strdup_printf ("%u", round);
  g_autoptr(GError) error = NULL;
  GSubprocess *writer;

  writer = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                             test_program, "--writer", path, round_text, NULL);
  g_assert_no_error (error);
  return writer;
}

/* How many runs the writer says it has committed, after its next line. */
static guint
read_writer_count (GDataInputStream *lines)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line (lines, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (line);   /* the writer ended: its error is above */
  return (guint)g_ascii_strtoull (line, NULL, 10);
}

static void
stop_writer (GSubprocess *writer)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_force_exit (writer);
  g_subprocess_wait (writer, NULL, &error);
  g_assert_no_error (error);
}

/* What the test itself reads of the database while the writer runs, the
 * way a script would: an ordinary connection, opened and closed. */
static void
peek_raw (const char *path)
{
  sqlite3 *db = open_raw (path);
  g_autofree char *count = NULL;

  sqlite3_busy_timeout (db, 5000);
  count = query_raw_text (db, "SELECT count(*) FROM runs");
  g_assert_nonnull (count);
  sqlite3_close (db);
}

/* Opens the store as the next program would and checks that it was not
 * recovered, that nothing was moved aside, and that every run each round
 * committed is there. */
static void
assert_opens_with_runs (Fixture     *fixture,
                        const guint *committed,
                        guint        n_rounds)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GHashTable) paths = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;

  g_assert_null (sl_workspace_store_get_recovery_message (store));
  g_assert_null (find_file_with_prefix (fixture->dir, "workspace.db.corrupt-", NULL));
  g_assert_null (find_file_with_prefix (fixture->dir, "workspace.db.stale-", "-wal"));

  runs = sl_workspace_store_list_runs (store, WRITER_ROOT, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < runs->len; i++)
    g_hash_table_add (paths, (gpointer)sl_run_record_get_path (g_ptr_array_index (runs, i)));

  for (guint round = 0; round < n_rounds; round++)
    for (guint n = 0; n < committed[round]; n++)
      {
        g_autofree char *run_path = writer_run_path (round, n);

        if (!g_hash_table_contains (paths, run_path))
          g_error ("Run %u of round %u was committed but is gone (%u runs there)", n, round, runs->len);
      }
}

/* A program writing the database is killed in the middle of its work,
 * again and again, while the database is read beside it: the log it
 * leaves is the database's own and the next program replays it. */
static void
test_killed_writer_leaves_its_log (Fixture       *fixture,
                                   gconstpointer  data)
{
  const guint n_rounds = 50;
  g_autoptr(GRand) rand = g_rand_new_with_seed (522);
  g_autofree guint *committed = g_new0 (guint, n_rounds);
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);

  g_clear_object (&store);
  for (guint round = 0; round < n_rounds; round++)
    {
      g_autoptr(GSubprocess) writer = start_writer (fixture->db_path, round);
      g_autoptr(GDataInputStream) lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (writer));
      guint wanted = (guint)g_rand_int_range (rand, 1, 24);

      while (committed[round] < wanted)
        {
          committed[round] = read_writer_count (lines);
          peek_raw (fixture->db_path);
        }
      stop_writer (writer);

      assert_opens_with_runs (fixture, committed, round + 1);
      assert_no_copies_left ();
    }
}

typedef struct {
  GDataInputStream *lines;
  guint             committed;   /* atomic */
} WriterLines;

static gpointer
follow_writer (gpointer data)
{
  WriterLines *follow = data;
  char *line;

  while ((line = g_data_input_stream_read_line (follow->lines, NULL, NULL, NULL)) != NULL)
    {
      g_atomic_int_set (&follow->committed, (guint)g_ascii_strtoull (line, NULL, 10));
      g_free (line);
    }
  return NULL;
}

/* While one program keeps the database open and writes, another opens
 * it again and again: it is never judged, never recovered, never moved. */
static void
test_open_beside_a_writer (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GSubprocess) writer = NULL;
  WriterLines follow = { 0 };
  GThread *thread;
  guint committed;

  g_clear_object (&store);
  writer = start_writer (fixture->db_path, 0);
  follow.lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (writer));
  committed = read_writer_count (follow.lines);
  g_atomic_int_set (&follow.committed, committed);
  thread = g_thread_new ("follow-writer", follow_writer, &follow);

  for (guint i = 0; i < 50; i++)
    {
      committed = (guint)g_atomic_int_get (&follow.committed);
      assert_opens_with_runs (fixture, &committed, 1);
      g_assert_nonnull (g_subprocess_get_identifier (writer));   /* still writing */
    }

  stop_writer (writer);
  g_thread_join (thread);
  g_object_unref (follow.lines);
  committed = (guint)g_atomic_int_get (&follow.committed);
  assert_opens_with_runs (fixture, &committed, 1);
  assert_no_copies_left ();
}

/* Keeps the database's write lock (a transaction begun IMMEDIATE and
 * never committed) until its input ends, as a program in the middle of
 * its writes does. */
static int
run_write_holder (const char *path)
{
  sqlite3 *db = NULL;
  int c;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
      sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    {
      g_printerr ("write holder: %s\n", sqlite3_errmsg (db));
      return 1;
    }
  g_print ("writing\n");
  fflush (stdout);

  while ((c = getchar ()) != EOF)
    ;
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_close (db);
  return 0;
}

/* A store opened while another program holds the write lock (between
 * two commits of a long series, as a tuning run's) opens at once and
 * reads: opening the database a version opened before writes nothing.
 * It used to wait for the lock and, when the other program kept taking
 * it, failed after the busy timeout with "database is locked". */
static void
test_open_while_another_writes (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlRunRecord) run = sl_run_record_new (WRITER_ROOT, "summary-run", "before", WRITER_ROOT "/before");
  g_autoptr(GSubprocess) holder = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  g_assert_true (sl_workspace_store_upsert_run (store, run, &error));
  g_assert_no_error (error);
  g_clear_object (&store);

  holder = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                             test_program, "--hold-write", fixture->db_path, NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (holder));
  line = g_data_input_stream_read_line (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "writing");

  store = open_store (fixture->db_path);
  g_assert_null (sl_workspace_store_get_recovery_message (store));
  runs = sl_workspace_store_list_runs (store, WRITER_ROOT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_clear_object (&store);

  g_output_stream_close (g_subprocess_get_stdin_pipe (holder), NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (holder, NULL, &error);
  g_assert_no_error (error);
}

/* Keeps the database open with an ordinary connection until its input
 * ends, as another program would. */
static int
run_holder (const char *path)
{
  sqlite3 *db = NULL;
  int c;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
      sqlite3_exec (db, "PRAGMA user_version", NULL, NULL, NULL) != SQLITE_OK)
    {
      g_printerr ("holder: %s\n", sqlite3_errmsg (db));
      return 1;
    }
  g_print ("open\n");
  fflush (stdout);

  while ((c = getchar ()) != EOF)
    ;
  sqlite3_close (db);
  return 0;
}

/* A damaged database another program has open is not moved from under
 * it: opening fails and says why, and once it is closed the database is
 * recovered as usual. */
static void
test_damaged_in_use_is_left (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(GSubprocess) holder = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autoptr(GBytes) whole = NULL;
  g_autoptr(GBytes) damaged = NULL;
  g_autofree char *aside = NULL;
  g_autoptr(GBytes) kept = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *rootpage = NULL;
  g_autofree char *page_size_text = NULL;
  g_autofree guint8 *bytes = NULL;
  gsize page_size, offset;
  sqlite3 *db;

  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *path = g_strdup_printf ("/data/exp/run-%03u-with-a-rather-long-name-to-fill-pages", i);
      g_autoptr(SlRunRecord) run = sl_run_record_new ("/data/exp", "summary-run", path + 10, path);

      g_assert_true (sl_workspace_store_upsert_run (store, run, &error));
      g_assert_no_error (error);
    }
  g_clear_object (&store);

  /* The root page of the runs is overwritten; the schema stays readable. */
  db = open_raw (fixture->db_path);
  rootpage = query_raw_text (db, "SELECT rootpage FROM sqlite_master WHERE name = 'runs'");
  page_size_text = query_raw_text (db, "PRAGMA page_size");
  sqlite3_close (db);
  page_size = (gsize)g_ascii_strtoull (page_size_text, NULL, 10);
  offset = ((gsize)g_ascii_strtoull (rootpage, NULL, 10) - 1) * page_size;
  whole = read_file (fixture->db_path);
  bytes = g_memdup2 (g_bytes_get_data (whole, NULL), g_bytes_get_size (whole));
  g_assert_cmpuint (offset + page_size, <=, g_bytes_get_size (whole));
  for (gsize i = 0; i < page_size; i++)
    bytes[offset + i] = (guint8)g_rand_int_range (rand, 0, 256);
  damaged = g_bytes_new_take (g_steal_pointer (&bytes), g_bytes_get_size (whole));
  write_file (fixture->db_path, g_bytes_get_data (damaged, NULL), g_bytes_get_size (damaged));

  holder = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                             test_program, "--hold", fixture->db_path, NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (holder));
  line = g_data_input_stream_read_line (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "open");

  store = sl_workspace_store_new_for_path (fixture->db_path, &error);
  g_assert_null (store);
  g_assert_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "has it open"));
  g_clear_error (&error);
  g_assert_null (find_file_with_prefix (fixture->dir, "workspace.db.corrupt-", NULL));
  kept = read_file (fixture->db_path);
  g_assert_true (g_bytes_equal (kept, damaged));

  g_output_stream_close (g_subprocess_get_stdin_pipe (holder), NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (holder, NULL, &error);
  g_assert_no_error (error);

  store = open_store (fixture->db_path);
  g_assert_nonnull (sl_workspace_store_get_recovery (store));
  g_assert_cmpint (sl_workspace_recovery_get_kind (sl_workspace_store_get_recovery (store)), ==,
                   SL_WORKSPACE_RECOVERY_DAMAGED);
  aside = find_file_with_prefix (fixture->dir, "workspace.db.corrupt-", NULL);
  g_assert_nonnull (aside);
}

/* Prints how many runs the database holds, read by an ordinary
 * connection of another program. */
static int
run_counter (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, "SELECT count(*) FROM runs", -1, &stmt, NULL) != SQLITE_OK ||
      sqlite3_step (stmt) != SQLITE_ROW)
    {
      g_printerr ("counter: %s\n", sqlite3_errmsg (db));
      return 1;
    }
  g_print ("%lld\n", (long long)sqlite3_column_int64 (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return 0;
}

static goffset
file_size_of (const char *path)
{
  GStatBuf buf;

  return g_stat (path, &buf) == 0 ? (goffset)buf.st_size : -1;
}

static guint
count_runs_elsewhere (const char *path)
{
  g_autoptr(GSubprocess) counter = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;

  counter = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, test_program, "--count", path, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (counter, NULL, NULL, &output, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (counter));
  return (guint)g_ascii_strtoull (output, NULL, 10);
}

static void
add_run (SlWorkspaceStore *store,
         const char       *path)
{
  g_autoptr(SlRunRecord) run = sl_run_record_new ("/data/exp", "summary-run", path + 10, path);
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_workspace_store_upsert_run (store, run, &error));
  g_assert_no_error (error);
}

/* A second store of the same program, opened under another name of the
 * same file while the first writes, does not look at the files: that
 * would take the first one's locks away, and the next program to close
 * the database would delete the log the first one still writes to. */
static void
test_other_name_of_an_open_database (Fixture       *fixture,
                                     gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = open_store (fixture->db_path);
  g_autoptr(SlWorkspaceStore) second = NULL;
  g_autofree char *alias = g_build_filename (fixture->dir, "alias", NULL);
  g_autofree char *alias_path = g_build_filename (alias, "workspace.db", NULL);
  g_autofree char *wal_path = g_strconcat (fixture->db_path, "-wal", NULL);
  g_autoptr(GFile) link = g_file_new_for_path (alias);
  g_autoptr(GError) error = NULL;

  if (!g_file_make_symbolic_link (link, fixture->dir, NULL, &error))
    {
      g_test_skip (error->message);
      return;
    }

  add_run (store, "/data/exp/run-1");
  g_assert_cmpint (file_size_of (wal_path), >, 0);

  second = open_store (alias_path);
  g_assert_null (sl_workspace_store_get_recovery (second));
  add_run (second, "/data/exp/run-2");
  g_clear_object (&second);

  /* Another program reads and closes; the first store writes on. */
  g_assert_cmpuint (count_runs_elsewhere (fixture->db_path), ==, 2);
  add_run (store, "/data/exp/run-3");
  g_assert_cmpuint (count_runs_elsewhere (fixture->db_path), ==, 3);
  g_clear_object (&store);
  g_assert_cmpuint (count_runs_elsewhere (fixture->db_path), ==, 3);
}

#define ADD_TEST(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int    argc,
      char **argv)
{
  g_autofree char *tmp = NULL;
  int result;

  if (argc == 4 && strcmp (argv[1], "--writer") == 0)
    return run_writer (argv[2], argv[3]);
  if (argc == 3 && strcmp (argv[1], "--hold") == 0)
    return run_holder (argv[2]);
  if (argc == 3 && strcmp (argv[1], "--hold-write") == 0)
    return run_write_holder (argv[2]);
  if (argc == 3 && strcmp (argv[1], "--count") == 0)
    return run_counter (argv[2]);
  test_program = argv[0];

  /* A temporary folder of this run's own, in which the store's copies
   * can be counted. */
  if (g_getenv ("G_TEST_BUILDDIR") != NULL)
    {
      tmp = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "test-workspace-store-XXXXXX", NULL);
      g_assert_nonnull (g_mkdtemp (tmp));
      g_setenv ("TMPDIR", tmp, TRUE);
      own_tmp_dir = TRUE;
    }

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/workspace-store/default-path", test_default_path);
  g_test_add_func ("/workspace-store/id-round-trips", test_id_round_trips);
  g_test_add_func ("/workspace-store/records-keep-own-values", test_records_keep_own_values);
  g_test_add_func ("/workspace-store/run-config-option-groups", test_run_config_option_groups);
  ADD_TEST ("/workspace-store/fresh", test_fresh_database);
  ADD_TEST ("/workspace-store/targets", test_targets);
  ADD_TEST ("/workspace-store/projects", test_projects);
  ADD_TEST ("/workspace-store/recent-folders", test_recent_folders);
  ADD_TEST ("/workspace-store/runs", test_runs);
  ADD_TEST ("/workspace-store/runs/reading-progress", test_run_reading_progress);
  ADD_TEST ("/workspace-store/open-folders", test_open_folders);
  ADD_TEST ("/workspace-store/migrates-version-1", test_migrates_version_1);
  ADD_TEST ("/workspace-store/run-config-options-migrate", test_run_config_options_migrate);
  ADD_TEST ("/workspace-store/jobs", test_jobs);
  ADD_TEST ("/workspace-store/jobs/slurm", test_slurm_jobs);
  ADD_TEST ("/workspace-store/jobs/outcome", test_job_outcome);
  ADD_TEST ("/workspace-store/project-folders-migrate", test_project_folders_migrate);
  ADD_TEST ("/workspace-store/joined-recent-folders-migrate", test_joined_recent_folders_migrate);
  ADD_TEST ("/workspace-store/reopen", test_reopen_keeps_data);
  ADD_TEST ("/workspace-store/empty-file", test_empty_file_is_migrated);
  ADD_TEST ("/workspace-store/recovery/garbage", test_garbage_is_moved_aside);
  ADD_TEST ("/workspace-store/recovery/truncated", test_truncated_database_is_moved_aside);
  ADD_TEST ("/workspace-store/recovery/foreign-wal", test_foreign_wal_is_set_aside);
  ADD_TEST ("/workspace-store/recovery/garbage-wal", test_garbage_wal_is_set_aside);
  ADD_TEST ("/workspace-store/recovery/damaged-page", test_damaged_page_is_salvaged);
  ADD_TEST ("/workspace-store/recovery/killed-writer", test_killed_writer_leaves_its_log);
  ADD_TEST ("/workspace-store/recovery/beside-a-writer", test_open_beside_a_writer);
  ADD_TEST ("/workspace-store/recovery/while-another-writes", test_open_while_another_writes);
  ADD_TEST ("/workspace-store/recovery/damaged-in-use", test_damaged_in_use_is_left);
  ADD_TEST ("/workspace-store/recovery/other-name", test_other_name_of_an_open_database);
  ADD_TEST ("/workspace-store/newer-version", test_newer_version_is_refused);
  ADD_TEST ("/workspace-store/other-database", test_other_database_is_refused);
  ADD_TEST ("/workspace-store/no-secrets", test_schema_has_no_secrets);
  ADD_TEST ("/workspace-store/run-notes", test_run_notes);

  result = g_test_run ();
  if (tmp != NULL)
    g_rmdir (tmp);
  return result;
}
