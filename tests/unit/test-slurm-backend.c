/* test-slurm-backend.c: the Slurm job backend against fake sbatch,
 * squeue, sacct, scontrol and scancel commands on the PATH, and the
 * parsing of what Slurm's commands print
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "sl-slurm-job-backend.h"
#include "sl-slurm-state.h"
#include "sl-slurm-task-logs.h"

/* The fake commands answer from files in $FAKE_SLURM: "squeue", "sacct"
 * and "scontrol" hold their output; "refuse" makes sbatch fail with its
 * text on stderr; every call is appended to "calls". */
static const char fake_sbatch[] =
  "#!/bin/sh\n"
  "echo \"sbatch $*\" >> \"$FAKE_SLURM/calls\"\n"
  "if [ -e \"$FAKE_SLURM/refuse\" ]; then cat \"$FAKE_SLURM/refuse\" >&2; exit 1; fi\n"
  "for a; do script=$a; done\n"
  "cp \"$script\" \"$FAKE_SLURM/submitted.sbatch\"\n"
  "echo '4242;cluster'\n";
static const char fake_answer[] =
  "#!/bin/sh\n"
  "echo \"$(basename \"$0\") $*\" >> \"$FAKE_SLURM/calls\"\n"
  "f=\"$FAKE_SLURM/$(basename \"$0\")\"\n"
  "[ -e \"$f\" ] && cat \"$f\"\n"
  "exit 0\n";
static const char fake_scancel[] =
  "#!/bin/sh\n"
  "echo \"scancel $*\" >> \"$FAKE_SLURM/calls\"\n"
  "rm -f \"$FAKE_SLURM/squeue\"\n"
  "echo 'CANCELLED by 0|0:15' > \"$FAKE_SLURM/sacct\"\n";

typedef struct {
  char          *dir;
  char          *bin;
  char          *old_path;
  SlTargetShell *shell;
} Fixture;

static void
write_file (const char *dir,
            const char *name,
            const char *text,
            int         mode)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static void
answer (Fixture    *fixture,
        const char *command,
        const char *text)
{
  g_autofree char *path = g_build_filename (fixture->dir, command, NULL);

  if (text == NULL)
    g_remove (path);
  else
    write_file (fixture->dir, command, text, 0644);
}

static char *
read_calls (Fixture *fixture)
{
  g_autofree char *path = g_build_filename (fixture->dir, "calls", NULL);
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_strdup ("");
  return text;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = NULL;

  fixture->dir = g_dir_make_tmp ("sl-slurm-XXXXXX", NULL);
  fixture->bin = g_build_filename (fixture->dir, "bin", NULL);
  g_assert_cmpint (g_mkdir (fixture->bin, 0755), ==, 0);
  write_file (fixture->bin, "sbatch", fake_sbatch, 0755);
  write_file (fixture->bin, "squeue", fake_answer, 0755);
  write_file (fixture->bin, "sacct", fake_answer, 0755);
  write_file (fixture->bin, "scontrol", fake_answer, 0755);
  write_file (fixture->bin, "scancel", fake_scancel, 0755);

  fixture->old_path = g_strdup (g_getenv ("PATH"));
  path = g_strdup_printf ("%s:%s", fixture->bin, fixture->old_path);
  g_setenv ("PATH", path, TRUE);
  g_setenv ("FAKE_SLURM", fixture->dir, TRUE);
  fixture->shell = sl_target_shell_new_local ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", fixture->dir);

  g_setenv ("PATH", fixture->old_path, TRUE);
  g_unsetenv ("FAKE_SLURM");
  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
  g_clear_object (&fixture->shell);
  g_free (fixture->old_path);
  g_free (fixture->bin);
  g_free (fixture->dir);
}

static SlSlurmOptions *
cluster_options (void)
{
  SlSlurmOptions *options = sl_slurm_options_new ();

  options->nodes = 2;
  options->ntasks = 4;
  options->ntasks_per_node = 2;
  options->devices_per_node = 8;
  options->device_gres = g_strdup ("npu");
  options->partition = g_strdup ("ascend");
  options->time_limit = g_strdup ("1:30:00");
  options->account = g_strdup ("team-a");
  options->per_task_logs = TRUE;
  return options;
}

static void
test_script (void)
{
  const char * const argv[] = { "python3", "train.py", "--name", "it's mine", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, "/srv/my project", "/srv");
  g_autoptr(SlSlurmOptions) options = cluster_options ();
  g_autofree char *script = NULL;
  g_autofree char *expected_head = NULL;
  g_autofree char *srun = NULL;

  sl_job_set_env_setup (job, "source /usr/local/Ascend/set_env.sh");
  script = sl_slurm_job_backend_dup_script (options, job);

  expected_head = g_strdup_printf ("#!/bin/sh\n"
                                   "#SBATCH --job-name=sightline-%s\n"
                                   "#SBATCH --nodes=2\n"
                                   "#SBATCH --ntasks=4\n"
                                   "#SBATCH --ntasks-per-node=2\n"
                                   "#SBATCH --gres=npu:8\n"
                                   "#SBATCH --partition=ascend\n"
                                   "#SBATCH --time=1:30:00\n"
                                   "#SBATCH --account=team-a\n",
                                   sl_job_get_id (job));
  g_assert_true (g_str_has_prefix (script, expected_head));
  g_assert_nonnull (strstr (script, "\ncd -- '/srv/my project' || finish 126\n"));
  g_assert_nonnull (strstr (script, "\nsource /usr/local/Ascend/set_env.sh\n"));
  g_assert_nonnull (strstr (script, "\"$jobdir/exit_code\""));
  /* Every task gets its rank; the command's words stay quoted. */
  srun = g_strdup_printf ("\nsrun --output='/srv/.sightline/jobs/%s/%%x-%%j-%%t.out' /bin/sh -c 'export RANK=$SLURM_PROCID "
                          "LOCAL_RANK=$SLURM_LOCALID WORLD_SIZE=$SLURM_NTASKS RANK_ID=$SLURM_PROCID RANK_SIZE=$SLURM_NTASKS "
                          "NODE_RANK=$SLURM_NODEID; exec \"$@\"' sightline-task 'python3' 'train.py' '--name' 'it'\\''s mine'\n"
                          "finish $?\n",
                          sl_job_get_id (job));
  g_assert_true (g_str_has_suffix (script, srun + 0));
  /* The GRES asks for the devices; no variable is set then. */
  g_assert_null (strstr (script, "VISIBLE_DEVICES"));
}

static void
test_script_launchers (void)
{
  const char * const argv[] = { "train.py", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, "/w", "/b");
  g_autoptr(SlSlurmOptions) options = sl_slurm_options_new ();
  g_autofree char *plain = NULL;
  g_autofree char *torch = NULL;
  g_autofree char *ms = NULL;
  g_autofree char *devices = NULL;

  options->launcher = SL_SLURM_LAUNCHER_NONE;
  plain = sl_slurm_job_backend_dup_script (options, job);
  g_assert_null (strstr (plain, "#SBATCH --nodes"));
  g_assert_null (strstr (plain, "srun"));
  g_assert_nonnull (strstr (plain, "\n'train.py'\nfinish $?\n"));

  options->launcher = SL_SLURM_LAUNCHER_TORCHRUN;
  options->ntasks_per_node = 8;
  torch = sl_slurm_job_backend_dup_script (options, job);
  g_assert_nonnull (strstr (torch, "exec torchrun --nnodes=\"$SLURM_JOB_NUM_NODES\" --nproc-per-node=8 "
                                   "--node-rank=\"$SLURM_NODEID\" --master-addr=\"$MASTER_ADDR\""));
  g_assert_nonnull (strstr (torch, "srun --ntasks-per-node=1 --ntasks=\"$SLURM_JOB_NUM_NODES\""));

  options->launcher = SL_SLURM_LAUNCHER_MSRUN;
  ms = sl_slurm_job_backend_dup_script (options, job);
  g_assert_nonnull (strstr (ms, "exec msrun --worker_num=$((SLURM_JOB_NUM_NODES * 8)) --local_worker_num=8 "));
  g_assert_nonnull (strstr (ms, "--node_rank=\"$SLURM_NODEID\""));

  /* Devices in a variable, for clusters without a GRES for them. */
  options->launcher = SL_SLURM_LAUNCHER_SRUN;
  options->devices_per_node = 4;
  options->device_env = g_strdup ("ASCEND_RT_VISIBLE_DEVICES");
  devices = sl_slurm_job_backend_dup_script (options, job);
  g_assert_nonnull (strstr (devices, "\nexport ASCEND_RT_VISIBLE_DEVICES=0,1,2,3\n"));
  g_assert_null (strstr (devices, "--gres"));
}

static void
test_options_validate (void)
{
  g_autoptr(SlSlurmOptions) options = cluster_options ();
  g_autoptr(GError) error = NULL;
  const char * const bad_partitions[] = { "a;rm -rf ~", "a b", "$(id)", "a\nb", "", NULL };

  g_assert_true (sl_slurm_options_validate (options, &error));
  g_assert_no_error (error);

  for (guint i = 0; bad_partitions[i] != NULL; i++)
    {
      g_autoptr(SlSlurmOptions) bad = cluster_options ();

      g_free (bad->partition);
      bad->partition = g_strdup (bad_partitions[i]);
      g_assert_false (sl_slurm_options_validate (bad, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
    }

  g_free (options->time_limit);
  options->time_limit = g_strdup ("-5");
  g_assert_false (sl_slurm_options_validate (options, &error));
  g_clear_error (&error);

  g_free (options->time_limit);
  options->time_limit = NULL;
  options->ntasks = 5;   /* 2 nodes x 2 per node */
  g_assert_false (sl_slurm_options_validate (options, &error));
  g_assert_nonnull (strstr (error->message, "5 tasks"));
  g_clear_error (&error);

  options->ntasks = 4;
  options->device_gres = (g_free (options->device_gres), NULL);
  options->device_env = g_strdup ("9DEVICES");
  g_assert_false (sl_slurm_options_validate (options, &error));
}

static void
test_submit (Fixture       *fixture,
             gconstpointer  data)
{
  const char * const argv[] = { "echo", "hello", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, fixture->dir, fixture->dir);
  g_autoptr(SlSlurmOptions) options = cluster_options ();
  g_autoptr(SlJobBackend) backend = sl_slurm_job_backend_new (fixture->shell, options);
  g_autoptr(GError) error = NULL;
  g_autofree char *command = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *submitted = NULL;
  g_autofree char *submitted_path = g_build_filename (fixture->dir, "submitted.sbatch", NULL);
  g_autofree char *script = sl_slurm_job_backend_dup_script (options, job);
  g_autofree char *log_path = sl_job_dup_log_path (job);

  command = sl_job_backend_dup_launch_command (backend, job, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (command, "sbatch --parsable --output="));

  g_assert_true (sl_job_backend_launch (backend, job, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sl_job_get_backend_id (job), ==, "4242");

  /* The script sbatch was given is the one shown. */
  g_assert_true (g_file_get_contents (submitted_path, &submitted, NULL, NULL));
  g_assert_cmpstr (submitted, ==, script);
  calls = read_calls (fixture);
  expected = g_strdup_printf ("sbatch --parsable --output=%s --chdir=%s job.sbatch\n", log_path, fixture->dir);
  g_assert_cmpstr (calls, ==, expected);

  /* Launching again (after a reconnection) does not submit again. */
  g_assert_true (sl_job_backend_launch (backend, job, NULL, &error));
  g_clear_pointer (&calls, g_free);
  calls = read_calls (fixture);
  g_assert_cmpstr (calls, ==, expected);
  g_assert_cmpstr (sl_job_get_backend_id (job), ==, "4242");
}

static void
test_refused (Fixture       *fixture,
              gconstpointer  data)
{
  const char * const argv[] = { "true", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, fixture->dir, fixture->dir);
  g_autoptr(SlSlurmOptions) options = cluster_options ();
  g_autoptr(SlJobBackend) backend = NULL;
  g_autoptr(GError) error = NULL;

  write_file (fixture->dir, "refuse", "sbatch: error: Batch job submission failed: Invalid partition name specified\n", 0644);
  backend = sl_slurm_job_backend_new (fixture->shell, options);
  g_assert_false (sl_job_backend_launch (backend, job, NULL, &error));
  g_assert_error (error, SL_SLURM_ERROR, SL_SLURM_ERROR_REFUSED);
  g_assert_cmpstr (error->message, ==, "Slurm refused the job: Batch job submission failed: Invalid partition name specified");
  g_assert_null (sl_job_get_backend_id (job));

  /* A hostile option never reaches sbatch. */
  g_clear_error (&error);
  g_clear_object (&backend);
  g_free (options->account);
  options->account = g_strdup ("x\n#SBATCH --uid=0");
  backend = sl_slurm_job_backend_new (fixture->shell, options);
  g_assert_false (sl_job_backend_launch (backend, job, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
test_no_sbatch (void)
{
  const char * const argv[] = { "true", NULL };
  g_autofree char *dir = g_dir_make_tmp ("sl-slurm-XXXXXX", NULL);
  g_autoptr(SlJob) job = sl_job_new (argv, dir, dir);
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_local ();
  g_autoptr(SlJobBackend) backend = sl_slurm_job_backend_new (shell, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", dir);
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *mkdir_link = g_build_filename (bin, "mkdir", NULL);
  g_autofree char *mkdir_path = g_find_program_in_path ("mkdir");

  /* A PATH with the basic tools but no Slurm, even where Slurm is installed. */
  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  g_assert_cmpint (symlink (mkdir_path, mkdir_link), ==, 0);
  g_setenv ("PATH", bin, TRUE);
  g_assert_false (sl_job_backend_launch (backend, job, NULL, &error));
  g_setenv ("PATH", old_path, TRUE);
  g_assert_error (error, SL_SLURM_ERROR, SL_SLURM_ERROR_NO_SLURM);
  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
}

typedef struct {
  const char  *squeue;
  const char  *sacct;
  const char  *scontrol;
  const char  *exit_code;   /* the script's file */
  SlJobStatus  status;
  const char  *state;
  const char  *reason;
  int          exit;
} PollCase;

static const PollCase poll_cases[] = {
  { "PENDING Resources\n", NULL, NULL, NULL, SL_JOB_STATUS_STARTING, "PENDING", "Resources", -1 },
  { "PENDING Priority\n", NULL, NULL, NULL, SL_JOB_STATUS_STARTING, "PENDING", "Priority", -1 },
  { "PENDING QOSMaxJobsPerUserLimit\n", NULL, NULL, NULL, SL_JOB_STATUS_STARTING, "PENDING", "QOSMaxJobsPerUserLimit", -1 },
  { "PENDING ReqNodeNotAvail, UnavailableNodes:n[1-2]\n", NULL, NULL, NULL, SL_JOB_STATUS_STARTING, "PENDING",
    "ReqNodeNotAvail, UnavailableNodes:n[1-2]", -1 },
  { "PENDING Dependency\n", NULL, NULL, NULL, SL_JOB_STATUS_STARTING, "PENDING", "Dependency", -1 },
  { "RUNNING None\n", NULL, NULL, NULL, SL_JOB_STATUS_RUNNING, "RUNNING", NULL, -1 },
  { "COMPLETING None\n", NULL, NULL, NULL, SL_JOB_STATUS_RUNNING, "COMPLETING", NULL, -1 },
  /* Ended, with accounting */
  { NULL, "COMPLETED|0:0\n", NULL, "0\n", SL_JOB_STATUS_EXITED, "COMPLETED", NULL, 0 },
  { "COMPLETED None\n", "COMPLETED|0:0\n", NULL, "0\n", SL_JOB_STATUS_EXITED, "COMPLETED", NULL, 0 },
  { NULL, "FAILED|3:0\n", NULL, "3\n", SL_JOB_STATUS_EXITED, "FAILED", NULL, 3 },
  { NULL, "CANCELLED by 0|0:15\n", NULL, NULL, SL_JOB_STATUS_EXITED, "CANCELLED", NULL, 143 },
  { NULL, "TIMEOUT|0:0\n", NULL, NULL, SL_JOB_STATUS_EXITED, "TIMEOUT", NULL, 1 },
  { NULL, "NODE_FAIL|0:0\n", NULL, NULL, SL_JOB_STATUS_EXITED, "NODE_FAIL", NULL, 1 },
  { NULL, "OUT_OF_MEMORY|0:125\n", NULL, NULL, SL_JOB_STATUS_EXITED, "OUT_OF_MEMORY", NULL, 253 },
  { NULL, "PREEMPTED|0:0\n", NULL, NULL, SL_JOB_STATUS_EXITED, "PREEMPTED", NULL, 1 },
  /* Without accounting: scontrol, until MinJobAge */
  { NULL, NULL, "JobId=4242 JobName=sightline-x UserId=me(1000) JobState=FAILED Reason=NonZeroExitCode "
    "Dependency=(null) Command=/srv/a b/job.sbatch ExitCode=2:0 RunTime=00:00:01\n", NULL,
    SL_JOB_STATUS_EXITED, "FAILED", "NonZeroExitCode", 2 },
  { NULL, NULL, "JobId=4242 JobState=TIMEOUT Reason=TimeLimit ExitCode=0:15\n", NULL,
    SL_JOB_STATUS_EXITED, "TIMEOUT", "TimeLimit", 143 },
  { NULL, NULL, "JobId=4242 JobState=PENDING Reason=ReqNodeNotAvail,_UnavailableNodes:n1 ExitCode=0:0\n", NULL,
    SL_JOB_STATUS_STARTING, "PENDING", "ReqNodeNotAvail, UnavailableNodes:n1", -1 },
  /* Accounting that says RUNNING for a job the controller ended */
  { NULL, "RUNNING|0:0\n", "JobId=4242 JobState=COMPLETED Reason=None ExitCode=0:0\n", "0\n",
    SL_JOB_STATUS_EXITED, "COMPLETED", NULL, 0 },
  /* After MinJobAge: only the script's exit code */
  { NULL, NULL, NULL, "7\n", SL_JOB_STATUS_EXITED, "FAILED", NULL, 7 },
  { NULL, NULL, NULL, "0\n", SL_JOB_STATUS_EXITED, "COMPLETED", NULL, 0 },
  /* Nothing at all, or nonsense */
  { NULL, NULL, NULL, NULL, SL_JOB_STATUS_LOST, NULL, NULL, -1 },
  { "garbage here\n", "x|y\n", "JobState=lower\n", "nope\n", SL_JOB_STATUS_LOST, NULL, NULL, -1 },
  { "\x01\x02\n", "COMPLETED|999:0\n", NULL, "300\n", SL_JOB_STATUS_LOST, NULL, NULL, -1 },
};

static void
test_poll_states (Fixture       *fixture,
                  gconstpointer  data)
{
  const char * const argv[] = { "true", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, fixture->dir, fixture->dir);
  g_autoptr(SlJobBackend) backend = sl_slurm_job_backend_new (fixture->shell, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *exit_path = NULL;

  /* Not submitted yet */
  g_assert_cmpint (sl_job_backend_poll (backend, job, NULL, NULL, &error), ==, SL_JOB_STATUS_LOST);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_true (sl_job_backend_launch (backend, job, NULL, &error));
  exit_path = sl_job_dup_file_path (job, "exit_code");

  for (guint i = 0; i < G_N_ELEMENTS (poll_cases); i++)
    {
      const PollCase *c = &poll_cases[i];
      int exit_code = -1;
      SlJobStatus status;

      g_test_message ("case %u: %s / %s / %s", i, c->squeue, c->sacct, c->scontrol);
      answer (fixture, "squeue", c->squeue);
      answer (fixture, "sacct", c->sacct);
      answer (fixture, "scontrol", c->scontrol);
      if (c->exit_code != NULL)
        g_assert_true (g_file_set_contents (exit_path, c->exit_code, -1, NULL));
      else
        g_remove (exit_path);

      status = sl_job_backend_poll (backend, job, &exit_code, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (status, ==, c->status);
      g_assert_cmpstr (sl_job_get_backend_state (job), ==, c->state);
      g_assert_cmpstr (sl_job_get_backend_reason (job), ==, c->reason);
      g_assert_cmpint (exit_code, ==, c->exit);
    }
}

static void
test_stop_and_log (Fixture       *fixture,
                   gconstpointer  data)
{
  const char * const argv[] = { "true", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, fixture->dir, fixture->dir);
  g_autoptr(SlJobBackend) backend = sl_slurm_job_backend_new (fixture->shell, NULL);
  g_autoptr(SlJob) found = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) log = NULL;
  g_autofree char *log_path = NULL;
  g_autofree char *calls = NULL;
  int exit_code = -1;

  g_assert_true (sl_job_backend_launch (backend, job, NULL, &error));
  answer (fixture, "squeue", "RUNNING None\n");

  /* No log before Slurm starts the job. */
  log = sl_job_backend_read_log (backend, job, 0, 1024, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (log), ==, 0);
  g_clear_pointer (&log, g_bytes_unref);

  log_path = sl_job_dup_log_path (job);
  g_assert_true (g_file_set_contents (log_path, "rank 0\nrank 1\n", -1, NULL));
  log = sl_job_backend_read_log (backend, job, 7, 1024, NULL, &error);
  g_assert_cmpstr (g_bytes_get_data (log, NULL), ==, "rank 1\n");

  /* A job found again from its folder is stopped with scancel. */
  found = sl_job_new_for_dir (sl_job_get_dir (job));
  g_assert_true (sl_job_backend_stop (backend, found, 5, NULL, &error));
  g_assert_no_error (error);
  calls = read_calls (fixture);
  g_assert_nonnull (strstr (calls, "scancel 4242\n"));
  g_assert_cmpint (sl_job_backend_poll (backend, found, &exit_code, NULL, &error), ==, SL_JOB_STATUS_EXITED);
  g_assert_cmpstr (sl_job_get_backend_state (found), ==, "CANCELLED");
  g_assert_cmpint (exit_code, ==, 143);
}

static void
test_parsers (void)
{
  g_auto(SlSlurmJobInfo) info = { NULL, NULL, -1, 0 };
  g_autofree char *long_line = g_strnfill (100000, 'A');
  g_autofree char *id = NULL;
  int code = -1, sig = -1;

  g_assert_true (sl_slurm_parse_exit_code ("0:15", &code, &sig));
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpint (sig, ==, 15);
  g_assert_false (sl_slurm_parse_exit_code ("256:0", &code, &sig));
  g_assert_false (sl_slurm_parse_exit_code ("1:", &code, &sig));
  g_assert_false (sl_slurm_parse_exit_code (":1", &code, &sig));
  g_assert_false (sl_slurm_parse_exit_code ("1:2x", &code, &sig));
  g_assert_false (sl_slurm_parse_exit_code ("-1:0", &code, &sig));
  g_assert_false (sl_slurm_parse_exit_code (NULL, &code, &sig));

  g_assert_false (sl_slurm_parse_squeue_line ("", &info));
  g_assert_false (sl_slurm_parse_squeue_line ("pending Resources", &info));
  g_assert_false (sl_slurm_parse_squeue_line (long_line, &info));
  g_assert_null (info.state);
  g_assert_true (sl_slurm_parse_squeue_line ("  RUNNING None", &info));
  g_assert_cmpstr (info.state, ==, "RUNNING");
  g_assert_null (info.reason);

  g_assert_false (sl_slurm_parse_sacct_line ("COMPLETED", &info));
  g_assert_false (sl_slurm_parse_sacct_line ("COMPLETED|", &info));
  g_assert_false (sl_slurm_parse_sacct_line ("|0:0", &info));
  g_assert_true (sl_slurm_parse_sacct_line ("CANCELLED by 1000|0:9", &info));
  g_assert_cmpstr (info.state, ==, "CANCELLED");
  g_assert_cmpint (sl_slurm_job_info_get_exit (&info), ==, 137);

  sl_slurm_job_info_clear (&info);
  g_assert_false (sl_slurm_parse_scontrol ("slurm_load_jobs error: Invalid job id specified", &info));
  g_assert_false (sl_slurm_parse_scontrol ("XJobState=RUNNING", &info));
  g_assert_false (sl_slurm_parse_scontrol ("JobState=", &info));
  g_assert_true (sl_slurm_parse_scontrol ("Name=JobState=x JobState=RUNNING Reason=None ExitCode=zz", &info));
  g_assert_cmpstr (info.state, ==, "RUNNING");
  g_assert_cmpint (info.exit_code, ==, -1);

  g_assert_cmpstr ((id = sl_slurm_parse_job_id ("12;clusterA\n")), ==, "12");
  g_clear_pointer (&id, g_free);
  g_assert_cmpstr ((id = sl_slurm_parse_job_id ("Submitted batch job 77\n")), ==, "77");
  g_clear_pointer (&id, g_free);
  g_assert_null (sl_slurm_parse_job_id ("abc"));
  g_assert_null (sl_slurm_parse_job_id ("12abc"));
  g_assert_null (sl_slurm_parse_job_id ("123456789012345678901234"));
  g_assert_null (sl_slurm_parse_job_id (""));
  g_assert_null (sl_slurm_parse_job_id (NULL));

  g_assert_cmpint (sl_slurm_state_to_status ("PENDING"), ==, SL_JOB_STATUS_STARTING);
  g_assert_cmpint (sl_slurm_state_to_status ("SOME_NEW_STATE"), ==, SL_JOB_STATUS_RUNNING);
  g_assert_cmpint (sl_slurm_state_to_status (NULL), ==, SL_JOB_STATUS_LOST);
}

static void
test_reasons (void)
{
  const char * const known[] = { "Resources", "Priority", "QOSMaxJobsPerUserLimit", "ReqNodeNotAvail, UnavailableNodes:n1",
                                 "Dependency", "BeginTime", "PartitionTimeLimit", "JobHeldUser", NULL };
  g_autofree char *pending = NULL;
  g_autofree char *unknown = NULL;
  g_autofree char *plain = NULL;

  for (guint i = 0; known[i] != NULL; i++)
    {
      const char *words = sl_slurm_describe_reason (known[i]);

      g_assert_nonnull (words);
      g_assert_cmpstr (words, !=, known[i]);
    }
  g_assert_null (sl_slurm_describe_reason ("SomethingNew"));
  g_assert_null (sl_slurm_describe_reason ("Res"));
  g_assert_null (sl_slurm_describe_reason (NULL));

  pending = sl_slurm_describe_state ("PENDING", "Resources");
  g_assert_cmpstr (pending, ==, "PENDING: waiting for the nodes it asked for to become free (Resources)");
  unknown = sl_slurm_describe_state ("PENDING", "SomethingNew");
  g_assert_cmpstr (unknown, ==, "PENDING (SomethingNew)");
  plain = sl_slurm_describe_state ("RUNNING", NULL);
  g_assert_cmpstr (plain, ==, "RUNNING");
  g_clear_pointer (&plain, g_free);
  /* Cancelled while waiting: why it waited no longer matters. */
  plain = sl_slurm_describe_state ("CANCELLED", "Resources");
  g_assert_cmpstr (plain, ==, "CANCELLED");
  g_clear_pointer (&plain, g_free);
  plain = sl_slurm_describe_state ("TIMEOUT", "TimeLimit");
  g_assert_cmpstr (plain, ==, "TIMEOUT: it reached its time limit (TimeLimit)");
}

/* Slurm's commands found only after the target's environment setup, as
 * with "module load slurm"; the setup's own output is not taken for
 * Slurm's. */
static void
test_env_setup (Fixture       *fixture,
                gconstpointer  data)
{
  const char * const argv[] = { "true", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, fixture->dir, fixture->dir);
  g_autoptr(SlJobBackend) backend = sl_slurm_job_backend_new (fixture->shell, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *setup = g_strdup_printf ("echo loading modules; export PATH='%s':\"$PATH\"", fixture->bin);
  g_autofree char *calls = NULL;

  g_setenv ("PATH", fixture->old_path, TRUE);
  sl_slurm_job_backend_set_env_setup (SL_SLURM_JOB_BACKEND (backend), setup);
  g_assert_true (sl_job_backend_launch (backend, job, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sl_job_get_backend_id (job), ==, "4242");

  answer (fixture, "squeue", "PENDING Priority\n");
  g_assert_cmpint (sl_job_backend_poll (backend, job, NULL, NULL, &error), ==, SL_JOB_STATUS_STARTING);
  g_assert_cmpstr (sl_job_get_backend_reason (job), ==, "Priority");
  g_assert_true (sl_job_backend_stop (backend, job, 0, NULL, &error));
  calls = read_calls (fixture);
  g_assert_nonnull (strstr (calls, "scancel 4242\n"));
}


static char *
take_all (SlSlurmTaskLogs *logs)
{
  g_autoptr(GBytes) bytes = sl_slurm_task_logs_take (logs, G_MAXSIZE);

  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

#define FEED(logs, task, text) \
  sl_slurm_task_logs_add_task ((logs), (task), (const guint8 *)(text), strlen (text))

/* Complete lines pass with their rank; a line being written waits for
 * its end, or for a round its file did not grow in. */
static void
test_task_logs_merge (void)
{
  g_autoptr(SlSlurmTaskLogs) logs = sl_slurm_task_logs_new ("rank");
  g_autoptr(SlSlurmTaskLogs) nodes = sl_slurm_task_logs_new ("node");
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *third = NULL;
  g_autofree char *node = NULL;
  g_autofree char *huge = g_strnfill (70 * 1024, 'x');
  g_autofree char *pieces = NULL;

  sl_slurm_task_logs_begin_round (logs);
  sl_slurm_task_logs_add_main (logs, (const guint8 *)"script says hi\n", 15);
  g_assert_true (FEED (logs, 0, "step 1\nstep 2\nhalf"));
  g_assert_true (FEED (logs, 1, "step 1\n"));
  g_assert_false (FEED (logs, 3, "skipped a number\n"));
  sl_slurm_task_logs_end_round (logs);
  first = take_all (logs);
  g_assert_cmpstr (first, ==, "script says hi\n[rank 0] step 1\n[rank 0] step 2\n[rank 1] step 1\n");
  g_assert_cmpuint (sl_slurm_task_logs_get_n_tasks (logs), ==, 2);
  g_assert_cmpuint (sl_slurm_task_logs_get_offset (logs, 0), ==, 18);
  g_assert_cmpuint (sl_slurm_task_logs_get_main_offset (logs), ==, 15);
  g_assert_false (sl_slurm_task_logs_has_pending (logs));

  sl_slurm_task_logs_begin_round (logs);
  g_assert_true (FEED (logs, 0, " a line\nend"));
  sl_slurm_task_logs_end_round (logs);
  second = take_all (logs);
  g_assert_cmpstr (second, ==, "[rank 0] half a line\n");

  /* Nothing more came: the task ended without a newline. */
  sl_slurm_task_logs_begin_round (logs);
  sl_slurm_task_logs_end_round (logs);
  third = take_all (logs);
  g_assert_cmpstr (third, ==, "[rank 0] end\n");

  /* Taken in pieces no larger than asked. */
  sl_slurm_task_logs_begin_round (logs);
  g_assert_true (FEED (logs, 1, "0123456789\n"));
  sl_slurm_task_logs_end_round (logs);
  {
    g_autoptr(GBytes) a = sl_slurm_task_logs_take (logs, 5);
    g_autoptr(GBytes) b = sl_slurm_task_logs_take (logs, 100);

    g_assert_cmpuint (g_bytes_get_size (a), ==, 5);
    g_assert_cmpuint (g_bytes_get_size (b), ==, strlen ("[rank 1] 0123456789\n") - 5);
  }

  /* A line without end is not held without bound. */
  sl_slurm_task_logs_begin_round (nodes);
  g_assert_true (FEED (nodes, 0, huge));
  sl_slurm_task_logs_end_round (nodes);
  pieces = take_all (nodes);
  g_assert_true (g_str_has_prefix (pieces, "[node 0] xxx"));
  g_assert_cmpuint (strlen (pieces), ==, strlen ("[node 0] \n") + 70 * 1024);
  g_assert_true (FEED (nodes, 0, "ok\n"));
  node = take_all (nodes);
  g_assert_cmpstr (node, ==, "[node 0] ok\n");
}

static void
collect_log (GBytes   *data,
             guint64   offset,
             gpointer  user_data)
{
  g_string_append_len (user_data, g_bytes_get_data (data, NULL), g_bytes_get_size (data));
}

/* A job with per-task logs is read as one stream, each task's lines
 * with its rank, as its files grow; a follower found from the folder
 * reads the same. */
static void
test_task_logs_backend (Fixture       *fixture,
                        gconstpointer  data)
{
  const char * const argv[] = { "true", NULL };
  g_autoptr(SlJob) job = sl_job_new (argv, fixture->dir, fixture->dir);
  g_autoptr(SlSlurmOptions) options = sl_slurm_options_new ();
  g_autoptr(SlJobBackend) backend = NULL;
  g_autoptr(SlJobBackend) other = sl_slurm_job_backend_new (fixture->shell, NULL);
  g_autoptr(SlJob) found = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GString) again = g_string_new (NULL);
  g_autofree char *task0 = NULL;
  g_autofree char *task1 = NULL;
  g_autofree char *name0 = NULL;
  g_autofree char *name1 = NULL;
  g_autofree char *log_path = NULL;
  guint64 offset = 0;
  guint64 found_offset = 0;
  int exit_code = -1;

  options->ntasks = 2;
  options->per_task_logs = TRUE;
  backend = sl_slurm_job_backend_new (fixture->shell, options);
  g_assert_true (sl_job_backend_launch (backend, job, NULL, &error));
  g_assert_no_error (error);
  answer (fixture, "squeue", "RUNNING None\n");

  name0 = g_strdup_printf ("sightline-%s-4242-0.out", sl_job_get_id (job));
  name1 = g_strdup_printf ("sightline-%s-4242-1.out", sl_job_get_id (job));
  task0 = sl_job_dup_file_path (job, name0);
  task1 = sl_job_dup_file_path (job, name1);
  log_path = sl_job_dup_log_path (job);

  g_assert_true (g_file_set_contents (task0, "hello from 0\n", -1, NULL));
  sl_job_backend_attach_log (backend, job, &offset, FALSE, collect_log, log, &exit_code, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (log->str, ==, "[rank 0] hello from 0\n");

  /* Task 1 starts later; task 0 goes on. */
  g_assert_true (g_file_set_contents (task0, "hello from 0\nstep 1 on 0\n", -1, NULL));
  g_assert_true (g_file_set_contents (task1, "hello from 1\n", -1, NULL));
  g_assert_true (g_file_set_contents (log_path, "srun: warning\n", -1, NULL));
  sl_job_backend_attach_log (backend, job, &offset, FALSE, collect_log, log, &exit_code, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (log->str, ==, "[rank 0] hello from 0\nsrun: warning\n[rank 0] step 1 on 0\n[rank 1] hello from 1\n");
  g_assert_cmpuint (offset, ==, log->len);

  /* Nothing new: nothing repeated. */
  sl_job_backend_attach_log (backend, job, &offset, FALSE, collect_log, log, &exit_code, NULL, &error);
  g_assert_cmpuint (offset, ==, log->len);

  /* Another follower, with the job found from its folder only. */
  found = sl_job_new_for_dir (sl_job_get_dir (job));
  sl_job_backend_attach_log (other, found, &found_offset, FALSE, collect_log, again, &exit_code, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->str, ==, "srun: warning\n[rank 0] hello from 0\n[rank 0] step 1 on 0\n[rank 1] hello from 1\n");
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/slurm/script", test_script);
  g_test_add_func ("/slurm/script-launchers", test_script_launchers);
  g_test_add_func ("/slurm/options-validate", test_options_validate);
  g_test_add_func ("/slurm/no-sbatch", test_no_sbatch);
  g_test_add_func ("/slurm/parsers", test_parsers);
  g_test_add_func ("/slurm/reasons", test_reasons);
  g_test_add_func ("/slurm/task-logs-merge", test_task_logs_merge);
  g_test_add ("/slurm/task-logs-backend", Fixture, NULL, fixture_set_up, test_task_logs_backend, fixture_tear_down);
  g_test_add ("/slurm/submit", Fixture, NULL, fixture_set_up, test_submit, fixture_tear_down);
  g_test_add ("/slurm/refused", Fixture, NULL, fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/slurm/poll-states", Fixture, NULL, fixture_set_up, test_poll_states, fixture_tear_down);
  g_test_add ("/slurm/stop-and-log", Fixture, NULL, fixture_set_up, test_stop_and_log, fixture_tear_down);
  g_test_add ("/slurm/env-setup", Fixture, NULL, fixture_set_up, test_env_setup, fixture_tear_down);

  return g_test_run ();
}
