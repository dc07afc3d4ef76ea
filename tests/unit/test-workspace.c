/* test-workspace.c: the workspace object: its models, its one writer, the
 * next start, a database that cannot be opened, and the main-thread check
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "sl-finding.h"
#include "sl-main-thread.h"
#include "sl-problem.h"
#include "sl-run-record.h"
#include "sl-workspace.h"

#define TRACE_JSON "[{\"name\":\"step\",\"ph\":\"X\",\"ts\":0,\"dur\":5,\"pid\":1,\"tid\":1}]"

typedef struct {
  char *dir;
  char *db_path;
  char *runs;
} Fixture;

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *trace = NULL;

  fixture->dir = g_dir_make_tmp ("sl-workspace-XXXXXX", NULL);
  fixture->db_path = g_build_filename (fixture->dir, "workspace.db", NULL);
  fixture->runs = g_build_filename (fixture->dir, "runs", NULL);
  trace = g_build_filename (fixture->runs, "trace.json", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->runs, 0755), ==, 0);
  g_assert_true (g_file_set_contents (trace, TRACE_JSON, -1, NULL));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->db_path);
  g_free (fixture->runs);
}

typedef gboolean (*Condition) (gpointer data);

static void
iterate_until (Condition condition,
               gpointer  data)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!condition (data))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

static gboolean
is_loaded (gpointer workspace)
{
  return sl_workspace_is_loaded (workspace);
}

static gboolean
scans_done (gpointer workspace)
{
  return sl_workspace_get_n_scanning (workspace) == 0;
}

static gboolean
flag_set (gpointer flag)
{
  return *(gboolean *)flag;
}

static SlWorkspace *
load_workspace (const char *db_path)
{
  SlWorkspace *workspace = sl_workspace_new (db_path);

  sl_workspace_load_async (workspace, NULL, NULL, NULL);
  iterate_until (is_loaded, workspace);
  return workspace;
}

static void
count_scanned_cb (SlWorkspace *workspace,
                  SlFolder    *folder,
                  GError      *error,
                  guint       *count)
{
  g_assert_no_error (error);
  (*count)++;
}

static void
change_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (sl_workspace_change_finish (SL_WORKSPACE (object), result, NULL));
  *done = TRUE;
}

typedef struct {
  gboolean  done;
  GError   *error;
} Outcome;

static void
change_outcome_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Outcome *outcome = user_data;

  sl_workspace_change_finish (SL_WORKSPACE (object), result, &outcome->error);
  outcome->done = TRUE;
}

static gpointer
list_runs_func (SlWorkspaceStore  *store,
                gpointer           root,
                GCancellable      *cancellable,
                GError           **error)
{
  return sl_workspace_store_list_runs (store, root, error);
}

static gpointer
list_open_folders_func (SlWorkspaceStore  *store,
                        gpointer           data,
                        GCancellable      *cancellable,
                        GError           **error)
{
  return sl_workspace_store_list_open_folders (store, error);
}

static gpointer
count_calls_func (SlWorkspaceStore  *store,
                  gpointer           data,
                  GCancellable      *cancellable,
                  GError           **error)
{
  GArray *order = data;
  guint n = order->len;

  g_array_append_val (order, n);
  return NULL;
}

/* Everything the workspace holds is in its models once loaded; opening a
 * folder scans it, remembers it and indexes what it holds. */
static void
test_workspace_models (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(SlWorkspace) workspace = load_workspace (fixture->db_path);
  g_autoptr(SlTargetRecord) target = sl_target_record_new (SL_TARGET_KIND_SSH, "a800");
  g_autoptr(SlTargetRecord) twin = sl_target_record_new (SL_TARGET_KIND_SSH, "a800");
  g_autoptr(SlJobRecord) job = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlJobRecord) listed = NULL;
  Outcome outcome = { 0 };
  gboolean done = FALSE;
  guint scanned = 0;
  SlFolder *folder;

  g_assert_true (sl_workspace_has_store (workspace));
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_targets (workspace)), ==, 1);
  g_assert_cmpint (sl_workspace_get_local_target_id (workspace), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_folders (workspace)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_problems (workspace)), ==, 0);

  g_signal_connect (workspace, "folder-scanned", G_CALLBACK (count_scanned_cb), &scanned);
  folder = sl_workspace_open_path (workspace, fixture->runs);
  g_assert_cmpuint (sl_workspace_get_n_scanning (workspace), ==, 1);
  g_assert_true (sl_workspace_lookup_folder (workspace, fixture->runs) == folder);
  iterate_until (scans_done, workspace);
  while (scanned == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (scanned, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (sl_folder_get_findings (folder)), ==, 1);

  /* Opening it again scans again, without a second entry. */
  g_assert_true (sl_workspace_open_path (workspace, fixture->runs) == folder);
  iterate_until (scans_done, workspace);
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_folders (workspace)), ==, 1);

  /* The writer runs what is queued in order; by now it indexed the scan. */
  runs = sl_workspace_run_sync (workspace, list_runs_func, fixture->runs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_assert_cmpstr (sl_run_record_get_kind_id (g_ptr_array_index (runs, 0)), ==, "trace");
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_recent_folders (workspace)), ==, 1);

  /* Targets: the model follows the database; a taken name is refused and
   * the model keeps what it had. */
  sl_target_record_set_host (target, "ascend-01");
  sl_target_record_set_remote_base_folder (target, "~/sightline");
  sl_workspace_save_target_async (workspace, target, NULL, change_done_cb, &done);
  iterate_until (flag_set, &done);
  g_assert_cmpint (sl_target_record_get_id (target), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_targets (workspace)), ==, 2);
  g_assert_nonnull (sl_workspace_lookup_target (workspace, sl_target_record_get_id (target)));

  sl_target_record_set_host (twin, "ascend-02");
  sl_target_record_set_remote_base_folder (twin, "~/sightline");
  sl_workspace_save_target_async (workspace, twin, NULL, change_outcome_cb, &outcome);
  iterate_until (flag_set, &outcome.done);
  g_assert_nonnull (outcome.error);
  g_clear_error (&outcome.error);
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_targets (workspace)), ==, 2);

  /* Jobs: added, then finished, in that order even when queued at once. */
  job = sl_job_record_new ("python3 train.py", 0);
  sl_job_record_set_started_at (job, 1000);
  sl_job_record_set_state (job, SL_JOB_STATE_RUNNING);
  done = FALSE;
  sl_workspace_add_job_async (workspace, job, NULL, change_done_cb, &done);
  sl_job_record_set_exit_code (job, 0);
  sl_job_record_set_finished_at (job, 1010);
  sl_job_record_set_state (job, SL_JOB_STATE_SUCCEEDED);
  sl_workspace_finish_job (workspace, job);
  sl_workspace_flush (workspace);
  iterate_until (flag_set, &done);
  while (g_main_context_iteration (NULL, FALSE));
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_jobs (workspace)), ==, 1);
  listed = g_list_model_get_item (sl_workspace_get_jobs (workspace), 0);
  g_assert_cmpint (sl_job_record_get_state (listed), ==, SL_JOB_STATE_SUCCEEDED);
  g_assert_cmpint (sl_job_record_get_exit_code (listed), ==, 0);
  /* A job started before the workspace knew its targets ran here. */
  g_assert_cmpint (sl_job_record_get_target_id (listed), ==, sl_workspace_get_local_target_id (workspace));
}

/* One writer: what is queued runs in the order it was queued. */
static void
test_workspace_writer_order (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(SlWorkspace) workspace = load_workspace (fixture->db_path);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < 100; i++)
    sl_workspace_run_async (workspace, count_calls_func, order, NULL, NULL, NULL, NULL, NULL);
  sl_workspace_flush (workspace);

  g_assert_cmpuint (order->len, ==, 100);
  for (guint i = 0; i < order->len; i++)
    g_assert_cmpuint (g_array_index (order, guint, i), ==, i);
}

static void
note_restored_cb (SlWorkspace *workspace,
                  GParamSpec  *pspec,
                  guint       *restored_findings)
{
  g_autoptr(SlFolder) folder = g_list_model_get_item (sl_workspace_get_folders (workspace), 0);

  g_assert_nonnull (folder);
  g_assert_true (sl_folder_is_restored (folder));
  g_assert_cmpint (sl_folder_get_state (folder), ==, SL_FOLDER_SCANNING);
  *restored_findings = g_list_model_get_n_items (sl_folder_get_findings (folder));
}

/* The next start has the folders of the last one at once, from the run
 * index, then scans them again; removing one is remembered. */
static void
test_workspace_next_start (Fixture       *fixture,
                           gconstpointer  data)
{
  g_auto(GStrv) open = NULL;
  guint restored_findings = G_MAXUINT;

  {
    g_autoptr(SlWorkspace) first = load_workspace (fixture->db_path);

    sl_workspace_open_path (first, fixture->runs);
    iterate_until (scans_done, first);
    sl_workspace_flush (first);
    while (g_main_context_iteration (NULL, FALSE));
    sl_workspace_flush (first);
  }

  {
    g_autoptr(SlWorkspace) next = sl_workspace_new (fixture->db_path);
    SlFolder *folder;

    g_signal_connect (next, "notify::loaded", G_CALLBACK (note_restored_cb), &restored_findings);
    sl_workspace_load_async (next, NULL, NULL, NULL);
    iterate_until (is_loaded, next);
    g_assert_cmpuint (restored_findings, ==, 1);

    iterate_until (scans_done, next);
    folder = sl_workspace_lookup_folder (next, fixture->runs);
    g_assert_nonnull (folder);
    g_assert_false (sl_folder_is_restored (folder));

    g_assert_true (sl_workspace_remove_folder (next, fixture->runs));
    g_assert_false (sl_workspace_remove_folder (next, fixture->runs));
    open = sl_workspace_run_sync (next, list_open_folders_func, NULL, NULL);
    g_assert_cmpuint (g_strv_length (open), ==, 0);
  }
}

/* A database that cannot be opened: the workspace still opens folders,
 * keeps nothing, and says why in its problems. */
static void
test_workspace_without_database (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *blocked = g_build_filename (fixture->dir, "blocked", NULL);
  g_autofree char *db_path = g_build_filename (blocked, "workspace.db", NULL);
  g_autoptr(SlWorkspace) workspace = NULL;
  g_autoptr(SlProblem) problem = NULL;
  g_autoptr(SlTargetRecord) target = sl_target_record_new (SL_TARGET_KIND_SSH, "a800");
  Outcome outcome = { 0 };
  guint scanned = 0;

  /* A file where the database's folder should be. */
  g_assert_true (g_file_set_contents (blocked, "not a folder", -1, NULL));
  workspace = load_workspace (db_path);

  g_assert_false (sl_workspace_has_store (workspace));
  g_assert_cmpuint (g_list_model_get_n_items (sl_workspace_get_problems (workspace)), ==, 1);
  problem = g_list_model_get_item (sl_workspace_get_problems (workspace), 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, db_path);

  g_signal_connect (workspace, "folder-scanned", G_CALLBACK (count_scanned_cb), &scanned);
  sl_workspace_open_path (workspace, fixture->runs);
  iterate_until (scans_done, workspace);
  g_assert_cmpuint (scanned, ==, 1);

  sl_target_record_set_host (target, "ascend-01");
  sl_target_record_set_remote_base_folder (target, "~/sightline");
  sl_workspace_save_target_async (workspace, target, NULL, change_outcome_cb, &outcome);
  iterate_until (flag_set, &outcome.done);
  g_assert_nonnull (outcome.error);
  g_clear_error (&outcome.error);
}

typedef struct {
  GListModel *model;
  const char *name;
} Wanted;

static gboolean
has_target (gpointer data)
{
  Wanted *wanted = data;

  for (guint i = 0; i < g_list_model_get_n_items (wanted->model); i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (wanted->model, i);

      if (g_str_equal (sl_target_record_get_name (target), wanted->name))
        return TRUE;
    }
  return FALSE;
}

static gboolean
has_job (gpointer data)
{
  Wanted *wanted = data;

  for (guint i = 0; i < g_list_model_get_n_items (wanted->model); i++)
    {
      g_autoptr(SlJobRecord) job = g_list_model_get_item (wanted->model, i);

      if (g_str_equal (sl_job_record_get_command (job), wanted->name))
        return TRUE;
    }
  return FALSE;
}

static gboolean
has_recent_folder (gpointer data)
{
  Wanted *wanted = data;

  for (guint i = 0; i < g_list_model_get_n_items (wanted->model); i++)
    {
      g_autoptr(GFile) folder = g_list_model_get_item (wanted->model, i);

      if (g_str_equal (g_file_peek_path (folder), wanted->name))
        return TRUE;
    }
  return FALSE;
}

static void
count_changes_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  (*count)++;
}

/* Another connection, as another window has. */
static gpointer
add_job_and_folder_thread (gpointer db_path)
{
  g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (db_path, NULL);
  g_autoptr(SlJobRecord) job = sl_job_record_new ("python3 from-another-window.py", 0);

  g_assert_nonnull (store);
  sl_job_record_set_started_at (job, g_get_real_time ());
  g_assert_true (sl_workspace_store_add_job (store, job, NULL));
  g_assert_true (sl_workspace_store_note_recent_folder (store, "/runs/from-another-window", NULL));
  return NULL;
}

/* What another program writes to the database shows in the models of a
 * running workspace, and only the lists it changed are told. */
static void
test_workspace_watches_other_programs (Fixture       *fixture,
                                       gconstpointer  data)
{
  const char *cli = g_getenv ("SL_CLI");
  g_autoptr(SlWorkspace) workspace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GThread) thread = NULL;
  g_autofree char *standard_error = NULL;
  Wanted wanted = { 0 };
  guint target_changes = 0, project_changes = 0;
  int status = -1;

  if (cli == NULL)
    {
      g_test_skip ("SL_CLI is not set");
      return;
    }

  workspace = load_workspace (fixture->db_path);
  g_assert_true (sl_workspace_has_store (workspace));
  g_signal_connect (sl_workspace_get_targets (workspace), "items-changed", G_CALLBACK (count_changes_cb), &target_changes);
  g_signal_connect (sl_workspace_get_projects (workspace), "items-changed", G_CALLBACK (count_changes_cb), &project_changes);

  /* The command line adds a target while the workspace is open. */
  {
    const char *argv[] = { cli, "target", "add", "from-cli", "--host", "ascend-01", "--db", fixture->db_path, NULL };

    g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &standard_error,
                  &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }

  wanted.model = sl_workspace_get_targets (workspace);
  wanted.name = "from-cli";
  iterate_until (has_target, &wanted);
  g_assert_cmpuint (g_list_model_get_n_items (wanted.model), ==, 2);
  g_assert_cmpuint (target_changes, ==, 1);
  g_assert_cmpuint (project_changes, ==, 0);

  /* Another window records a job and opens a folder. */
  thread = g_thread_new ("other window", add_job_and_folder_thread, fixture->db_path);
  g_thread_join (g_steal_pointer (&thread));

  wanted.model = sl_workspace_get_jobs (workspace);
  wanted.name = "python3 from-another-window.py";
  iterate_until (has_job, &wanted);
  wanted.model = sl_workspace_get_recent_folders (workspace);
  wanted.name = "/runs/from-another-window";
  iterate_until (has_recent_folder, &wanted);
  g_assert_cmpuint (target_changes, ==, 1);
  g_assert_cmpuint (project_changes, ==, 0);
}

static gpointer
open_store_thread (gpointer data)
{
  g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (data, NULL);

  return GINT_TO_POINTER (store != NULL);
}

/* Run only as subprocesses of test_main_thread_check(). */
static void
store_on_main_thread (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(SlWorkspaceStore) store = NULL;

  if (!g_test_subprocess ())
    return;

  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  sl_main_thread_mark ();
  store = sl_workspace_store_new_for_path (fixture->db_path, NULL);
}

static void
store_off_main_thread (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GThread) thread = NULL;
  g_autoptr(SlWorkspace) workspace = NULL;

  if (!g_test_subprocess ())
    return;

  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  sl_main_thread_mark ();
  thread = g_thread_new ("store", open_store_thread, fixture->db_path);
  g_assert_true (GPOINTER_TO_INT (g_thread_join (g_steal_pointer (&thread))));
  /* The workspace's own writer is another thread too. */
  workspace = load_workspace (fixture->db_path);
  g_assert_true (sl_workspace_has_store (workspace));
}

/* In debug and test builds, the database refuses to be used from the
 * thread that draws, and is fine from any other. */
static void
test_main_thread_check (void)
{
#ifndef SL_ENABLE_THREAD_CHECKS
  g_test_skip ("thread checks are compiled out of release builds");
#else
  g_test_trap_subprocess ("/workspace/main-thread/store-on-main-thread", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*sl_workspace_store_new_for_path touches the disk or the database and must not run on the main thread*");

  g_test_trap_subprocess ("/workspace/main-thread/store-off-main-thread", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr_unmatched ("*must not run on the main thread*");
#endif
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/workspace/models", Fixture, NULL, fixture_set_up, test_workspace_models, fixture_tear_down);
  g_test_add ("/workspace/writer-order", Fixture, NULL, fixture_set_up, test_workspace_writer_order,
              fixture_tear_down);
  g_test_add ("/workspace/next-start", Fixture, NULL, fixture_set_up, test_workspace_next_start,
              fixture_tear_down);
  g_test_add ("/workspace/without-database", Fixture, NULL, fixture_set_up, test_workspace_without_database,
              fixture_tear_down);
  g_test_add ("/workspace/watches-other-programs", Fixture, NULL, fixture_set_up,
              test_workspace_watches_other_programs, fixture_tear_down);
  g_test_add_func ("/workspace/main-thread/check", test_main_thread_check);
  g_test_add ("/workspace/main-thread/store-on-main-thread", Fixture, NULL, fixture_set_up, store_on_main_thread,
              fixture_tear_down);
  g_test_add ("/workspace/main-thread/store-off-main-thread", Fixture, NULL, fixture_set_up, store_off_main_thread,
              fixture_tear_down);

  return g_test_run ();
}
