/* test-project-folder.c: where a project is uploaded on a target
 *
 * Into "<target's folder for projects>/<the local folder's name>", the
 * target's folder being ~/sightline when it has none; a remote folder
 * given is used as it is; on this computer a project runs where it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-local-target.h"
#include "sl-remote-run.h"
#include "sl-ssh-target.h"

static char *
remote_dir_of (SlTarget   *target,
               const char *project_dir,
               const char *remote_dir)
{
  const char * const argv[] = { "python3", "train.py", NULL };
  g_autoptr(SlRemoteRun) run = sl_remote_run_new (target, project_dir, argv);

  sl_remote_run_set_remote_dir (run, remote_dir);
  return g_strdup (sl_remote_run_get_remote_dir (run));
}

static void
test_ssh_target (void)
{
  g_autoptr(SlTarget) target = sl_ssh_target_new ("gpu", "gpu.example");
  g_autofree char *unset = NULL;
  g_autofree char *base = NULL;
  g_autofree char *slash = NULL;
  g_autofree char *given = NULL;
  g_autofree char *project_base = NULL;

  unset = remote_dir_of (target, "/home/me/code/proj", NULL);
  g_assert_cmpstr (unset, ==, "~/sightline/proj");

  /* The target dialog's default folder for projects is not doubled. */
  sl_ssh_target_set_base_dir (SL_SSH_TARGET (target), "~/sightline");
  base = remote_dir_of (target, "/home/me/code/proj", NULL);
  g_assert_cmpstr (base, ==, "~/sightline/proj");
  project_base = sl_target_dup_project_base_dir (target);
  g_assert_cmpstr (project_base, ==, "~/sightline");

  sl_ssh_target_set_base_dir (SL_SSH_TARGET (target), "/scratch/me/");
  slash = remote_dir_of (target, "/home/me/code/proj/", NULL);
  g_assert_cmpstr (slash, ==, "/scratch/me/proj");

  given = remote_dir_of (target, "/home/me/code/proj", "~/elsewhere/p");
  g_assert_cmpstr (given, ==, "~/elsewhere/p");
}

static void
test_local_target (void)
{
  g_autoptr(SlTarget) target = sl_local_target_new ();
  g_autofree char *dir = remote_dir_of (target, "/home/me/code/proj", NULL);

  g_assert_cmpstr (dir, ==, "/home/me/code/proj");
  g_assert_null (sl_target_dup_project_base_dir (target));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/project-folder/ssh-target", test_ssh_target);
  g_test_add_func ("/project-folder/local-target", test_local_target);
  return g_test_run ();
}
