/* test-slurm-refresher.c: Slurm jobs nobody follows are refreshed with
 * one squeue and one sacct call, against fake commands on the PATH; the
 * batched command and the parsing of what it prints
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-slurm-refresher.h"

static void
write_script (const char *dir,
              const char *name,
              const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

static void
test_command_and_parse (void)
{
  const char * const ids[] = { "101", "102", NULL };
  const char * const hostile[] = { "1; rm -rf ~", NULL };
  g_autofree char *command = sl_slurm_refresher_dup_command (ids);
  g_autoptr(GHashTable) infos = NULL;
  SlSlurmJobInfo *info;

  g_assert_nonnull (strstr (command, "ids=101,102;"));
  g_assert_nonnull (strstr (command, "squeue -h -j \"$ids\" -o 'squeue %i %T %r'"));
  g_assert_nonnull (strstr (command, "sacct -n -P -X -j \"$ids\" -o JobID,State,ExitCode"));

  g_test_expect_message ("Sightline-Remote", G_LOG_LEVEL_CRITICAL, "*is_job_id*");
  g_assert_null (sl_slurm_refresher_dup_command (hostile));
  g_test_assert_expected_messages ();

  infos = sl_slurm_refresher_parse ("squeue 101 PENDING Resources\n"
                                    "sacct 101|PENDING|0:0\n"
                                    "sacct 102|CANCELLED by 1000|0:15\n"
                                    "squeue 103\n"                /* no state */
                                    "sacct 104\n"                 /* no fields */
                                    "squeue x;y RUNNING None\n"   /* not an id */
                                    "garbage\n"
                                    "squeue 105 RUNNING None\n"
                                    "end\n");
  g_assert_cmpuint (g_hash_table_size (infos), ==, 3);
  info = g_hash_table_lookup (infos, "101");
  g_assert_cmpstr (info->state, ==, "PENDING");
  g_assert_cmpstr (info->reason, ==, "Resources");
  info = g_hash_table_lookup (infos, "102");
  g_assert_cmpstr (info->state, ==, "CANCELLED");
  g_assert_cmpint (sl_slurm_job_info_get_exit (info), ==, 143);
  info = g_hash_table_lookup (infos, "105");
  g_assert_cmpstr (info->state, ==, "RUNNING");
  g_assert_null (info->reason);
}

static SlJobRecord *
add_job (SlWorkspaceStore *store,
         const char       *slurm_id,
         const char       *state,
         const char       *reason,
         SlJobState        history_state)
{
  g_autoptr(GError) error = NULL;
  SlJobRecord *record = sl_job_record_new ("srun python3 train.py", 1);

  sl_job_record_set_backend (record, SL_JOB_BACKEND_SLURM);
  sl_job_record_set_backend_job_id (record, slurm_id);
  sl_job_record_set_backend_state (record, state, reason);
  sl_job_record_set_state (record, history_state);
  sl_job_record_set_log_path (record, "/nonexistent/log");
  g_assert_true (sl_workspace_store_add_job (store, record, &error));
  g_assert_no_error (error);
  return record;
}

static SlJobRecord *
find_job (SlWorkspace *workspace,
          gint64       id)
{
  GListModel *jobs = sl_workspace_get_jobs (workspace);

  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(SlJobRecord) job = g_list_model_get_item (jobs, i);

      if (sl_job_record_get_id (job) == id)
        return g_steal_pointer (&job);
    }
  g_assert_not_reached ();
}

static void
refreshed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  guint *changed = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (sl_slurm_refresher_refresh_finish (SL_SLURM_REFRESHER (object), result, changed, &error));
  g_assert_no_error (error);
}

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           gpointer    user_data)
{
  (*(guint *)user_data)++;
}

static void
test_refresh (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-refresher-XXXXXX", NULL);
  g_autofree char *db = g_build_filename (dir, "workspace.db", NULL);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *calls_path = g_build_filename (dir, "calls", NULL);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = NULL;
  g_autofree char *calls = NULL;
  g_autoptr(SlWorkspace) workspace = NULL;
  g_autoptr(SlSlurmRefresher) refresher = NULL;
  g_autoptr(SlJobRecord) pending = NULL, running = NULL, waiting = NULL, followed = NULL, ended = NULL;
  g_autoptr(SlJobRecord) job = NULL;
  g_autoptr(GError) error = NULL;
  guint changed = G_MAXUINT;
  guint notified = 0;

  g_assert_cmpint (g_mkdir_with_parents (bin, 0755), ==, 0);
  write_script (bin, "squeue", "#!/bin/sh\necho \"squeue $*\" >> \"$FAKE_SLURM/calls\"\n"
                               "echo 'squeue 101 RUNNING None'\necho 'squeue 103 PENDING Resources'\n");
  write_script (bin, "sacct", "#!/bin/sh\necho \"sacct $*\" >> \"$FAKE_SLURM/calls\"\n"
                              "echo '101|RUNNING|0:0'\necho '102|COMPLETED|0:0'\necho '103|PENDING|0:0'\n");
  path = g_strdup_printf ("%s:%s", bin, old_path);
  g_setenv ("PATH", path, TRUE);
  g_setenv ("FAKE_SLURM", dir, TRUE);

  {
    g_autoptr(SlWorkspaceStore) store = sl_workspace_store_new_for_path (db, &error);

    g_assert_no_error (error);
    pending = add_job (store, "101", "PENDING", "Priority", SL_JOB_STATE_QUEUED);
    running = add_job (store, "102", "RUNNING", NULL, SL_JOB_STATE_RUNNING);
    waiting = add_job (store, "103", "PENDING", "Priority", SL_JOB_STATE_QUEUED);
    followed = add_job (store, "104", "RUNNING", NULL, SL_JOB_STATE_RUNNING);
    ended = add_job (store, "105", "COMPLETED", NULL, SL_JOB_STATE_SUCCEEDED);
  }

  workspace = sl_workspace_new (db);
  sl_workspace_load_async (workspace, NULL, NULL, NULL);
  while (!sl_workspace_is_loaded (workspace))
    g_main_context_iteration (NULL, TRUE);

  refresher = sl_slurm_refresher_new (workspace);
  sl_slurm_refresher_set_followed_job (refresher, sl_job_record_get_id (followed));
  g_assert_cmpuint (sl_slurm_refresher_count_unfollowed (refresher), ==, 3);
  g_signal_connect (refresher, "notify::refreshing", G_CALLBACK (notify_cb), &notified);
  sl_slurm_refresher_refresh_async (refresher, NULL, refreshed_cb, &changed);
  g_assert_true (sl_slurm_refresher_get_refreshing (refresher));
  while (changed == G_MAXUINT)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (changed, ==, 3);
  g_assert_cmpuint (notified, ==, 2);
  /* Each save reloads the history; let them all land. */
  for (guint round = 0; round < 3; round++)
    {
      sl_workspace_flush (workspace);
      while (g_main_context_iteration (NULL, FALSE));
    }

  /* One call of each for all the jobs of the target, newest first. */
  g_assert_true (g_file_get_contents (calls_path, &calls, NULL, NULL));
  g_assert_cmpstr (calls, ==, "squeue -h -j 103,102,101 -o squeue %i %T %r\n"
                              "sacct -n -P -X -j 103,102,101 -o JobID,State,ExitCode\n");

  job = find_job (workspace, sl_job_record_get_id (pending));
  g_assert_cmpstr (sl_job_record_get_backend_state (job), ==, "RUNNING");
  g_assert_cmpint (sl_job_record_get_state (job), ==, SL_JOB_STATE_RUNNING);
  g_clear_object (&job);
  job = find_job (workspace, sl_job_record_get_id (running));
  g_assert_cmpstr (sl_job_record_get_backend_state (job), ==, "COMPLETED");
  g_assert_cmpint (sl_job_record_get_state (job), ==, SL_JOB_STATE_SUCCEEDED);
  g_assert_cmpint (sl_job_record_get_exit_code (job), ==, 0);
  g_clear_object (&job);
  job = find_job (workspace, sl_job_record_get_id (waiting));
  g_assert_cmpstr (sl_job_record_get_backend_reason (job), ==, "Resources");
  g_assert_cmpint (sl_job_record_get_state (job), ==, SL_JOB_STATE_QUEUED);
  g_clear_object (&job);
  job = find_job (workspace, sl_job_record_get_id (followed));
  g_assert_cmpstr (sl_job_record_get_backend_state (job), ==, "RUNNING");
  g_clear_object (&job);

  /* Asked again, nothing changed: nothing is written. */
  changed = G_MAXUINT;
  sl_slurm_refresher_refresh_async (refresher, NULL, refreshed_cb, &changed);
  while (changed == G_MAXUINT)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (changed, ==, 0);
  g_assert_cmpuint (sl_slurm_refresher_count_unfollowed (refresher), ==, 2);

  g_setenv ("PATH", old_path, TRUE);
  g_unsetenv ("FAKE_SLURM");
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/slurm-refresher/command-and-parse", test_command_and_parse);
  g_test_add_func ("/slurm-refresher/refresh", test_refresh);
  return g_test_run ();
}
