/* test-workflows-async.c: the workflows' async paths against a real sshd
 *
 * Run through sshd_fixture.py. The window runs SlProfileWorkflow and
 * SlConvertWorkflow with their run_async calls: the workflow on a worker
 * thread, the job followed on that thread's own context, the stages
 * brought back to the main loop. Each runs several times in a row against
 * the fixture server, with the stand-in msprof and atc (workflow-tools/),
 * and the caller lets go of the workflow in its callback, as a dialog
 * does: the run must have succeeded, and the workflow (with the SSH
 * session of its shell) must end right there on the caller's thread, never
 * on the worker after the caller heard the run was over.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-atc-command.h"
#include "sl-convert-workflow.h"
#include "sl-mindx-workflow.h"
#include "sl-msprof-command.h"
#include "sl-problem.h"
#include "sl-profile-workflow.h"
#include "sl-ssh-target.h"
#include "sl-target-shell.h"

#define N_RUNS 4

static char *tmp_root;
static char *project_dir;
static char *remote_dir;
static char *tools_dir;
static char *db_path;

static SlTarget *
new_target (void)
{
  const char *host = g_getenv ("SL_SSH_HOST");
  const char *port = g_getenv ("SL_SSH_PORT");
  g_autofree char *known_hosts = g_build_filename (tmp_root, "known_hosts", NULL);
  g_autofree char *host_key = NULL;
  g_autofree char *line = NULL;
  g_auto(GStrv) parts = NULL;
  g_autofree char *base = g_build_filename (tmp_root, "server", NULL);
  SlTarget *target;

  /* The fixture's host key, known beforehand as after a first accept. */
  g_assert_true (g_file_get_contents (g_getenv ("SL_SSH_HOST_KEY_PUB"), &host_key, NULL, NULL));
  parts = g_strsplit (g_strstrip (host_key), " ", -1);
  g_assert_cmpuint (g_strv_length (parts), >=, 2);
  line = g_strdup_printf ("[%s]:%s %s %s\n", host, port, parts[0], parts[1]);
  g_assert_true (g_file_set_contents (known_hosts, line, -1, NULL));

  g_assert_cmpint (g_mkdir_with_parents (base, 0755), ==, 0);
  target = sl_ssh_target_new ("fixture", host);
  sl_ssh_target_set_port (SL_SSH_TARGET (target), atoi (port));
  sl_ssh_target_set_user (SL_SSH_TARGET (target), g_getenv ("SL_SSH_USER"));
  sl_ssh_target_set_identity_file (SL_SSH_TARGET (target), g_getenv ("SL_SSH_KEY"));
  sl_ssh_target_set_known_hosts_file (SL_SSH_TARGET (target), known_hosts);
  sl_ssh_target_set_base_dir (SL_SSH_TARGET (target), base);
  return target;
}

/* The toolkit's set_env.sh, as far as the stand-ins need it. */
static char *
write_env_script (void)
{
  g_autofree char *path = g_build_filename (tmp_root, "set_env.sh", NULL);
  g_autofree char *text = g_strdup_printf ("export PATH=%s:/usr/bin:/bin\n"
                                           "export ASCEND_TOOLKIT_HOME=%s\n"
                                           "export ASCEND_PROCESS_LOG_PATH=%s/plog\n",
                                           tools_dir, tmp_root, tmp_root);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_steal_pointer (&path);
}

static void
install_tool (const char *name)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "integration", "workflow-tools", name, NULL);
  g_autofree char *dest = g_build_filename (tools_dir, name, NULL);
  g_autofree char *text = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (source, &text, &length, NULL));
  g_assert_true (g_file_set_contents (dest, text, length, NULL));
  g_assert_cmpint (g_chmod (dest, 0755), ==, 0);
}

/* A Python 3 "python", as the toolkit's environment has. */
static void
link_python (void)
{
  g_autofree char *python3 = g_find_program_in_path ("python3");
  g_autofree char *link = g_build_filename (tools_dir, "python", NULL);

  g_assert_nonnull (python3);
  g_assert_cmpint (symlink (python3, link), ==, 0);
}

static void
write_project_file (const char *name,
                    const char *text)
{
  g_autofree char *path = g_build_filename (project_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

typedef struct {
  GMainLoop *loop;
  GThread   *main_thread;
  GPtrArray *stages;
  gpointer   workflow;    /* the caller's reference, dropped when it ends */
  gboolean   finalized;
  gboolean   finalized_on_main;
  gboolean   ok;
  gboolean   succeeded;
  GError    *error;
} Waiter;

static void
note_finalized (gpointer  data,
                GObject  *where_the_object_was)
{
  Waiter *waiter = data;

  waiter->finalized = TRUE;
  waiter->finalized_on_main = g_thread_self () == waiter->main_thread;
}

/* The workflow is the waiter's from now on, as a window's dialog holds
 * it until the run ends. */
static void
waiter_init (Waiter   *waiter,
             gpointer  workflow)
{
  waiter->loop = g_main_loop_new (NULL, FALSE);
  waiter->main_thread = g_thread_self ();
  waiter->stages = g_ptr_array_new ();
  waiter->workflow = workflow;
  g_object_weak_ref (workflow, note_finalized, waiter);
}

/* Lets what the worker and the sessions still send arrive, so that
 * anything touched after the end happens while the test still looks. */
static void
drain_main_context (void)
{
  gint64 until = g_get_monotonic_time () + 300 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10 * G_TIME_SPAN_MILLISECOND);
}

/* The caller let go of the workflow in its callback: the workflow, and
 * the SSH session its shell holds, must end on the caller's thread, not
 * on the worker after the run was reported done. */
static void
waiter_finish (Waiter *waiter)
{
  g_main_loop_run (waiter->loop);
  drain_main_context ();

  g_assert_no_error (waiter->error);
  g_assert_true (waiter->ok);
  g_assert_true (waiter->succeeded);
  g_assert_null (waiter->workflow);
  g_assert_true (waiter->finalized);
  g_assert_true (waiter->finalized_on_main);
}

static void
waiter_clear (Waiter *waiter)
{
  g_main_loop_unref (waiter->loop);
  g_ptr_array_unref (waiter->stages);
}

static void
profile_stage_cb (SlProfileWorkflow *workflow,
                  GParamSpec        *pspec,
                  Waiter            *waiter)
{
  g_assert_true (g_thread_self () == waiter->main_thread);
  g_ptr_array_add (waiter->stages, GINT_TO_POINTER (sl_profile_workflow_get_stage (workflow)));
}

static void
profile_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  SlProfileWorkflow *workflow = SL_PROFILE_WORKFLOW (source);
  Waiter *waiter = data;

  g_assert_true (g_thread_self () == waiter->main_thread);
  waiter->ok = sl_profile_workflow_run_finish (workflow, result, &waiter->error);
  for (guint i = 0; i < sl_profile_workflow_get_problems (workflow)->len; i++)
    g_test_message ("problem: %s", sl_problem_get_message (g_ptr_array_index (sl_profile_workflow_get_problems (workflow), i)));
  waiter->succeeded = sl_profile_workflow_succeeded (workflow) && sl_profile_workflow_get_exit_code (workflow) == 0 &&
                      g_file_test (sl_profile_workflow_get_profile (workflow), G_FILE_TEST_IS_DIR);
  g_signal_handlers_disconnect_by_data (workflow, waiter);
  g_clear_object (&waiter->workflow);
  g_main_loop_quit (waiter->loop);
}

static void
test_profile_async (void)
{
  g_autoptr(SlTarget) target = new_target ();
  g_autofree char *env_script = write_env_script ();
  const char *program[] = { "python3", "main.py", NULL };

  for (guint i = 0; i < N_RUNS; i++)
    {
      g_autoptr(SlMsprofCommand) command = sl_msprof_command_new ();
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      SlProfileWorkflow *workflow;
      Waiter waiter = { 0 };

      sl_msprof_command_set_program (command, program);
      sl_msprof_command_set_output (command, "sightline-profile");
      workflow = sl_profile_workflow_new (target, project_dir, command);
      sl_profile_workflow_set_env_script (workflow, env_script);
      sl_profile_workflow_set_remote_dir (workflow, remote_dir);
      sl_profile_workflow_set_store_path (workflow, db_path);
      /* Every other run with a shell made here, as the command line does. */
      if (i % 2 == 1)
        {
          g_autoptr(SlTargetShell) shell = sl_target_shell_new_for_target (target);

          sl_profile_workflow_set_shell (workflow, shell);
        }
      waiter_init (&waiter, workflow);
      g_signal_connect (workflow, "notify::stage", G_CALLBACK (profile_stage_cb), &waiter);

      sl_profile_workflow_run_async (workflow, cancellable, profile_done_cb, &waiter);
      waiter_finish (&waiter);

      g_assert_cmpuint (waiter.stages->len, >=, 3);
      g_assert_cmpint (GPOINTER_TO_INT (g_ptr_array_index (waiter.stages, 0)), ==, SL_PROFILE_STAGE_PREFLIGHT);
      g_assert_cmpint (GPOINTER_TO_INT (g_ptr_array_index (waiter.stages, waiter.stages->len - 1)), ==,
                       SL_PROFILE_STAGE_DONE);
      waiter_clear (&waiter);
    }
}

static void
convert_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  SlConvertWorkflow *workflow = SL_CONVERT_WORKFLOW (source);
  Waiter *waiter = data;
  g_autofree char *om = g_build_filename (remote_dir, "unet_hw960_bs1.om", NULL);

  g_assert_true (g_thread_self () == waiter->main_thread);
  waiter->ok = sl_convert_workflow_run_finish (workflow, result, &waiter->error);
  waiter->succeeded = sl_convert_workflow_succeeded (workflow) &&
                      sl_convert_workflow_get_stage (workflow) == SL_CONVERT_STAGE_DONE &&
                      g_strcmp0 (sl_convert_workflow_get_output (workflow), om) == 0 &&
                      g_file_test (om, G_FILE_TEST_IS_REGULAR);
  g_clear_object (&waiter->workflow);
  g_main_loop_quit (waiter->loop);
}

static void
test_convert_async (void)
{
  g_autoptr(SlTarget) target = new_target ();
  g_autofree char *env_script = write_env_script ();

  for (guint i = 0; i < N_RUNS; i++)
    {
      g_autoptr(SlAtcCommand) command = sl_atc_command_new ();
      SlConvertWorkflow *workflow;
      Waiter waiter = { 0 };

      sl_atc_command_set_framework (command, SL_ATC_FRAMEWORK_MINDSPORE);
      sl_atc_command_set_model (command, "unet_hw960_bs1.air");
      sl_atc_command_set_output (command, "unet_hw960_bs1");
      sl_atc_command_set_soc_version (command, "Ascend310");
      workflow = sl_convert_workflow_new (target, project_dir, command);
      sl_convert_workflow_set_env_script (workflow, env_script);
      sl_convert_workflow_set_remote_dir (workflow, remote_dir);
      sl_convert_workflow_set_store_path (workflow, db_path);
      waiter_init (&waiter, workflow);

      sl_convert_workflow_run_async (workflow, NULL, convert_done_cb, &waiter);
      waiter_finish (&waiter);
      waiter_clear (&waiter);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cache = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("SL_SSH_HOST") == NULL)
    {
      g_test_skip ("run through sshd_fixture.py");
      return 77;
    }

  tmp_root = g_dir_make_tmp ("sightline-workflows-async-XXXXXX", NULL);
  g_assert_nonnull (tmp_root);
  project_dir = g_build_filename (tmp_root, "project", NULL);
  remote_dir = g_build_filename (tmp_root, "server", "project", NULL);
  tools_dir = g_build_filename (tmp_root, "toolkit", "bin", NULL);
  db_path = g_build_filename (tmp_root, "workspace.db", NULL);
  cache = g_build_filename (tmp_root, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_assert_cmpint (g_mkdir_with_parents (project_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (tools_dir, 0755), ==, 0);
  install_tool ("msprof");
  install_tool ("atc");
  install_tool ("npu-smi");
  link_python ();
  write_project_file ("main.py", "print('inference done')\n");
  write_project_file ("unet_hw960_bs1.air", "air");

  g_test_add_func ("/workflows-async/profile", test_profile_async);
  g_test_add_func ("/workflows-async/convert", test_convert_async);
  status = g_test_run ();

  g_free (tmp_root);
  g_free (project_dir);
  g_free (remote_dir);
  g_free (tools_dir);
  g_free (db_path);
  return status;
}
