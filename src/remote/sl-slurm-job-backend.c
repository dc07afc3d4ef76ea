/* sl-slurm-job-backend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-shell-quote.h"
#include "sl-slurm-job-backend.h"
#include "sl-slurm-state.h"
#include "sl-slurm-task-logs.h"

#define STOP_POLL_PAUSE_US (250 * G_TIME_SPAN_MILLISECOND)

struct _SlSlurmJobBackend
{
  GObject         parent_instance;
  SlTargetShell  *shell;
  SlSlurmOptions *options;
  char           *env_setup;
  GMutex          lock;
  GHashTable     *task_logs;   /* job folder → TaskLogState */
};

/* How a job's log is read: found once from its batch script. */
typedef struct {
  gboolean         decided;
  SlSlurmTaskLogs *merged;     /* NULL: the script's log only */
  guint64          delivered;  /* merged bytes handed out */
} TaskLogState;

static void
task_log_state_free (gpointer data)
{
  TaskLogState *state = data;

  g_clear_pointer (&state->merged, sl_slurm_task_logs_free);
  g_free (state);
}

static void job_backend_iface_init (SlJobBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SlSlurmJobBackend, sl_slurm_job_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SL_TYPE_JOB_BACKEND, job_backend_iface_init))

G_DEFINE_QUARK (sl-slurm-error-quark, sl_slurm_error)

/* The rank environment every task sees, from what srun gives it. */
#define RANK_ENV \
  "export RANK=$SLURM_PROCID LOCAL_RANK=$SLURM_LOCALID WORLD_SIZE=$SLURM_NTASKS " \
  "RANK_ID=$SLURM_PROCID RANK_SIZE=$SLURM_NTASKS NODE_RANK=$SLURM_NODEID; "

static void
append_sbatch_lines (GString              *out,
                     const SlSlurmOptions *options,
                     SlJob                *job)
{
  g_string_append_printf (out, "#SBATCH --job-name=sightline-%s\n", sl_job_get_id (job));
  if (options->nodes > 0)
    g_string_append_printf (out, "#SBATCH --nodes=%u\n", options->nodes);
  if (options->ntasks > 0)
    g_string_append_printf (out, "#SBATCH --ntasks=%u\n", options->ntasks);
  if (options->ntasks_per_node > 0)
    g_string_append_printf (out, "#SBATCH --ntasks-per-node=%u\n", options->ntasks_per_node);
  if (options->devices_per_node > 0 && options->device_gres != NULL)
    g_string_append_printf (out, "#SBATCH --gres=%s:%u\n", options->device_gres, options->devices_per_node);
  if (options->partition != NULL)
    g_string_append_printf (out, "#SBATCH --partition=%s\n", options->partition);
  if (options->time_limit != NULL)
    g_string_append_printf (out, "#SBATCH --time=%s\n", options->time_limit);
  if (options->account != NULL)
    g_string_append_printf (out, "#SBATCH --account=%s\n", options->account);
}

/* "0,1,...,N-1": the devices of one node, for a variable such as
 * ASCEND_RT_VISIBLE_DEVICES on clusters without a GRES for them. */
static void
append_device_env (GString              *out,
                   const SlSlurmOptions *options)
{
  if (options->devices_per_node == 0 || options->device_gres != NULL || options->device_env == NULL)
    return;

  g_string_append_printf (out, "export %s=", options->device_env);
  for (guint i = 0; i < options->devices_per_node; i++)
    g_string_append_printf (out, "%s%u", i ? "," : "", i);
  g_string_append_c (out, '\n');
}

static char *
dup_task_output (const SlSlurmOptions *options,
                 SlJob                *job)
{
  g_autofree char *pattern = NULL;
  g_autofree char *quoted = NULL;

  if (!options->per_task_logs)
    return g_strdup ("");
  pattern = sl_job_dup_file_path (job, "%x-%j-%t.out");
  quoted = sl_shell_quote_remote_path (pattern);
  return g_strdup_printf ("--output=%s ", quoted);
}

static void
append_launch_line (GString              *out,
                    const SlSlurmOptions *options,
                    SlJob                *job)
{
  g_autofree char *command = sl_job_dup_command_line (job);
  g_autofree char *task_output = dup_task_output (options, job);
  guint per_node = sl_slurm_options_get_tasks_per_node (options);

  switch (options->launcher)
    {
    case SL_SLURM_LAUNCHER_SRUN:
      g_string_append_printf (out, "srun %s/bin/sh -c '" RANK_ENV "exec \"$@\"' sightline-task %s\n",
                              task_output, command);
      break;
    case SL_SLURM_LAUNCHER_TORCHRUN:
      /* One torchrun per node; it starts the node's workers and sets
       * RANK, LOCAL_RANK and WORLD_SIZE for each. */
      g_string_append_printf (out,
                              "srun %s--ntasks-per-node=1 --ntasks=\"$SLURM_JOB_NUM_NODES\" /bin/sh -c '"
                              "exec torchrun --nnodes=\"$SLURM_JOB_NUM_NODES\" --nproc-per-node=%u "
                              "--node-rank=\"$SLURM_NODEID\" --master-addr=\"$MASTER_ADDR\" "
                              "--master-port=\"$MASTER_PORT\" \"$@\"' sightline-node %s\n",
                              task_output, per_node, command);
      break;
    case SL_SLURM_LAUNCHER_MSRUN:
      /* One msrun per node, as MindSpore's dynamic cluster start wants. */
      g_string_append_printf (out,
                              "srun %s--ntasks-per-node=1 --ntasks=\"$SLURM_JOB_NUM_NODES\" /bin/sh -c '"
                              "exec msrun --worker_num=$((SLURM_JOB_NUM_NODES * %u)) --local_worker_num=%u "
                              "--master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" "
                              "--node_rank=\"$SLURM_NODEID\" --log_dir=msrun_log --join=True \"$@\"' sightline-node %s\n",
                              task_output, per_node, per_node, command);
      break;
    case SL_SLURM_LAUNCHER_NONE:
    default:
      g_string_append_printf (out, "%s\n", command);
      break;
    }
}

/**
 * sl_slurm_job_backend_dup_script:
 *
 * Returns: (transfer full): the text of job.sbatch for @job
 */
char *
sl_slurm_job_backend_dup_script (const SlSlurmOptions *options,
                                 SlJob                *job)
{
  g_autofree char *dir = NULL;
  g_autofree char *workdir = NULL;
  GString *out;

  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (job != NULL && sl_job_get_argv (job) != NULL, NULL);

  dir = sl_shell_quote_remote_path (sl_job_get_dir (job));
  workdir = sl_shell_quote_remote_path (sl_job_get_working_dir (job));

  out = g_string_new ("#!/bin/sh\n");
  append_sbatch_lines (out, options, job);
  g_string_append_printf (out,
                          "# Sightline batch script: runs the command in every task and records the exit status.\n"
                          "jobdir=%s\n"
                          "finish() {\n"
                          "  printf '%%s\\n' \"$1\" > \"$jobdir/exit_code.tmp\" && mv \"$jobdir/exit_code.tmp\" \"$jobdir/exit_code\"\n"
                          "  exit \"$1\"\n"
                          "}\n"
                          "cd -- %s || finish 126\n",
                          dir, workdir);
  if (sl_job_get_env_setup (job) != NULL)
    g_string_append_printf (out, "%s\n", sl_job_get_env_setup (job));
  append_device_env (out, options);
  g_string_append (out,
                   "MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" 2>/dev/null | head -n 1)\n"
                   "export MASTER_ADDR=${MASTER_ADDR:-$(hostname)}\n"
                   "export MASTER_PORT=${MASTER_PORT:-$((20000 + ${SLURM_JOB_ID:-0} % 20000))}\n");
  append_launch_line (out, options, job);
  g_string_append (out, "finish $?\n");
  return g_string_free (out, FALSE);
}

/**
 * sl_slurm_job_backend_dup_sbatch_command:
 *
 * Returns: (transfer full): the sbatch call that submits job.sbatch from
 *   the job folder, as the submit command makes it; shown beside the
 *   script instead of the whole submit command, which holds the script
 *   a second time
 */
char *
sl_slurm_job_backend_dup_sbatch_command (SlJob *job)
{
  g_autofree char *dir = NULL;
  g_autofree char *log_path = NULL;
  g_autofree char *log = NULL;
  g_autofree char *workdir = NULL;

  g_return_val_if_fail (job != NULL, NULL);

  dir = sl_shell_quote_remote_path (sl_job_get_dir (job));
  log_path = sl_job_dup_log_path (job);
  log = sl_shell_quote_remote_path (log_path);
  workdir = sl_shell_quote_remote_path (sl_job_get_working_dir (job));
  return g_strdup_printf ("cd -- %s && sbatch --parsable --output=%s --chdir=%s job.sbatch", dir, log, workdir);
}

/**
 * sl_slurm_job_backend_dup_submit_command:
 *
 * Returns: (transfer full): the shell command that writes job.sbatch into
 *   the job folder and submits it; it needs no connection, so a dialog
 *   can show it while the user types
 */
char *
sl_slurm_job_backend_dup_submit_command (const SlSlurmOptions *options,
                                         SlJob                *job)
{
  g_autofree char *dir = NULL;
  g_autofree char *sbatch = NULL;
  g_autofree char *command_line = NULL;
  g_autofree char *command = NULL;
  g_autofree char *script_text = NULL;
  g_autofree char *script = NULL;

  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (job != NULL && sl_job_get_argv (job) != NULL, NULL);

  dir = sl_shell_quote_remote_path (sl_job_get_dir (job));
  sbatch = sl_slurm_job_backend_dup_sbatch_command (job);
  command_line = sl_job_dup_command_line (job);
  command = sl_shell_quote (command_line);
  script_text = sl_slurm_job_backend_dup_script (options, job);
  script = sl_shell_quote (script_text);

  /* Repeating it (after a reconnection) does not submit twice: a job
   * folder with a slurm_id was submitted already. */
  return g_strdup_printf ("d=%s; mkdir -p -- \"$d\" && cd -- \"$d\" || exit 1; "
                          "command -v sbatch >/dev/null 2>&1 || { echo 'missing-command sbatch'; exit 127; }; "
                          "if [ ! -s slurm_id ]; then "
                          "printf '%%s\\n' %s > cmd && printf '%%s' %s > job.sbatch || exit 1; "
                          "out=$(%s) || exit 3; "
                          "printf '%%s\\n' \"${out%%%%;*}\" > slurm_id.tmp && mv slurm_id.tmp slurm_id || exit 1; fi; "
                          "cat slurm_id",
                          dir, command, script, sbatch);
}

/* Slurm's commands may only be on the PATH after the target's setup. */
static gboolean
run_slurm_command (SlSlurmJobBackend  *self,
                   const char         *command,
                   char              **out,
                   char              **err,
                   int                *status,
                   GCancellable       *cancellable,
                   GError            **error)
{
  g_autofree char *full = NULL;

  if (self->env_setup == NULL)
    return sl_target_shell_run (self->shell, command, out, err, status, cancellable, error);
  full = g_strdup_printf ("{ %s\n} </dev/null >/dev/null 2>&1; %s", self->env_setup, command);
  return sl_target_shell_run (self->shell, full, out, err, status, cancellable, error);
}

/**
 * sl_slurm_job_backend_set_env_setup:
 * @command: (nullable): the target's environment setup, the user's own
 *   shell text
 */
void
sl_slurm_job_backend_set_env_setup (SlSlurmJobBackend *self,
                                    const char        *command)
{
  g_return_if_fail (SL_IS_SLURM_JOB_BACKEND (self));
  g_free (self->env_setup);
  self->env_setup = command != NULL && command[0] != '\0' ? g_strdup (command) : NULL;
}

static char *
dup_launch_command (SlJobBackend  *backend,
                    SlJob         *job,
                    GError       **error)
{
  SlSlurmJobBackend *self = SL_SLURM_JOB_BACKEND (backend);

  if (!sl_slurm_options_validate (self->options, error))
    return NULL;
  return sl_slurm_job_backend_dup_submit_command (self->options, job);
}

/* sbatch's "sbatch: error: Batch job submission failed: Invalid
 * partition name specified", without the program name. */
static char *
dup_slurm_message (const char *err)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);
  GString *message = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);

      if (g_str_has_prefix (line, "sbatch: error: "))
        line += strlen ("sbatch: error: ");
      else if (g_str_has_prefix (line, "sbatch: "))
        line += strlen ("sbatch: ");
      if (line[0] == '\0')
        continue;
      g_string_append_printf (message, "%s%s", message->len ? "; " : "", line);
    }
  if (message->len == 0)
    g_string_append (message, _("sbatch gave no reason"));
  return g_string_free (message, FALSE);
}

static gboolean
launch (SlJobBackend  *backend,
        SlJob         *job,
        GCancellable  *cancellable,
        GError       **error)
{
  SlSlurmJobBackend *self = SL_SLURM_JOB_BACKEND (backend);
  g_autofree char *command = dup_launch_command (backend, job, error);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *id = NULL;
  int status = -1;

  if (command == NULL)
    return FALSE;

  if (!run_slurm_command (self, command, &out, &err, &status, cancellable, error))
    {
      sl_target_shell_explain_error (self->shell, _("Could not submit the job"), sl_job_get_dir (job), error);
      return FALSE;
    }

  g_strstrip (out);
  if (status == 127 && g_str_has_prefix (out, "missing-command "))
    {
      g_set_error_literal (error, SL_SLURM_ERROR, SL_SLURM_ERROR_NO_SLURM,
                           _("Could not submit the job: the target has no “sbatch” command. Is it a Slurm login node, with Slurm on the PATH of its environment setup?"));
      return FALSE;
    }
  if (status == 3)
    {
      g_autofree char *message = dup_slurm_message (err);

      g_set_error (error, SL_SLURM_ERROR, SL_SLURM_ERROR_REFUSED, _("Slurm refused the job: %s"), message);
      return FALSE;
    }
  if (status != 0 || (id = sl_slurm_parse_job_id (out)) == NULL)
    {
      g_strstrip (err);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not submit the job: %s"),
                   err[0] != '\0' ? err : _("sbatch printed no job id"));
      return FALSE;
    }

  sl_job_set_backend_id (job, id);
  sl_job_set_backend_state (job, "PENDING", NULL);
  return TRUE;
}

/* squeue while Slurm has the job, then sacct, then scontrol and the
 * exit_code file; one line each, with the first word naming the source. */
static char *
dup_poll_command (SlJob *job)
{
  g_autofree char *dir = sl_shell_quote_remote_path (sl_job_get_dir (job));

  return g_strdup_printf ("cd -- %s 2>/dev/null || { echo missing; exit 0; }; "
                          "[ -s slurm_id ] || { echo starting; exit 0; }; id=$(head -n 1 slurm_id); "
                          "q=$(squeue -h -j \"$id\" -o '%%T %%r' 2>/dev/null | head -n 1); "
                          "case \"$q\" in PENDING*|RUNNING*|CONFIGURING*|COMPLETING*|SUSPENDED*|REQUEUE*|RESIZING*|"
                          "STOPPED*|SIGNALING*|STAGE_OUT*) echo \"squeue $q\"; exit 0;; esac; "
                          "a=$(sacct -n -P -X -j \"$id\" -o State,ExitCode 2>/dev/null | head -n 1); "
                          "[ -n \"$a\" ] && echo \"sacct $a\"; "
                          "s=$(scontrol show job -o \"$id\" 2>/dev/null | head -n 1); "
                          "[ -n \"$s\" ] && echo \"scontrol $s\"; "
                          "[ -e exit_code ] && echo \"exit_code $(head -c 16 exit_code)\"; "
                          "echo end",
                          dir);
}

typedef struct {
  SlSlurmJobInfo queue;
  SlSlurmJobInfo accounting;
  SlSlurmJobInfo control;
  int            file_exit_code;
  gboolean       has_queue, has_accounting, has_control, has_file;
} PollReport;

static void
poll_report_clear (PollReport *report)
{
  sl_slurm_job_info_clear (&report->queue);
  sl_slurm_job_info_clear (&report->accounting);
  sl_slurm_job_info_clear (&report->control);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PollReport, poll_report_clear)

static void
parse_poll_report (const char *text,
                   PollReport *report)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", 64);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "squeue "))
        report->has_queue = sl_slurm_parse_squeue_line (line + 7, &report->queue);
      else if (g_str_has_prefix (line, "sacct "))
        report->has_accounting = sl_slurm_parse_sacct_line (line + 6, &report->accounting);
      else if (g_str_has_prefix (line, "scontrol "))
        report->has_control = sl_slurm_parse_scontrol (line + 9, &report->control);
      else if (g_str_has_prefix (line, "exit_code "))
        {
          const char *value = line + 10;
          char *end = NULL;
          gint64 code = g_ascii_strtoll (value, &end, 10);

          report->has_file = end != value && code >= 0 && code < 256;
          report->file_exit_code = (int)code;
        }
    }
}

/* The best of what the commands said: the queue while the job waits or
 * runs, else accounting, else scontrol; accounting that only knows a job
 * Slurm still runs is taken over by scontrol. */
static const SlSlurmJobInfo *
choose_info (PollReport *report)
{
  if (report->has_queue)
    return &report->queue;
  if (report->has_accounting && sl_slurm_state_to_status (report->accounting.state) == SL_JOB_STATUS_EXITED)
    return &report->accounting;
  if (report->has_control)
    return &report->control;
  if (report->has_accounting)
    return &report->accounting;
  return NULL;
}

static SlJobStatus
poll_job (SlJobBackend  *backend,
          SlJob         *job,
          int           *exit_code,
          GCancellable  *cancellable,
          GError       **error)
{
  SlSlurmJobBackend *self = SL_SLURM_JOB_BACKEND (backend);
  g_autofree char *command = dup_poll_command (job);
  g_autofree char *out = NULL;
  g_auto(PollReport) report = { { 0 } };
  const SlSlurmJobInfo *info;
  SlJobStatus status;
  int shell_status = -1;

  if (!run_slurm_command (self, command, &out, NULL, &shell_status, cancellable, error))
    return SL_JOB_STATUS_LOST;

  g_strstrip (out);
  if (g_str_equal (out, "starting"))
    return SL_JOB_STATUS_STARTING;
  if (g_str_equal (out, "missing"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The job folder %s is gone from the target"), sl_job_get_dir (job));
      return SL_JOB_STATUS_LOST;
    }

  report.queue.exit_code = report.accounting.exit_code = report.control.exit_code = -1;
  parse_poll_report (out, &report);
  info = choose_info (&report);

  if (info == NULL)
    {
      /* Slurm forgot the job (MinJobAge) and keeps no accounting: the
       * script's own exit code is all there is. */
      if (!report.has_file)
        {
          sl_job_set_backend_state (job, NULL, NULL);
          return SL_JOB_STATUS_LOST;
        }
      sl_job_set_backend_state (job, report.file_exit_code == 0 ? "COMPLETED" : "FAILED", NULL);
      if (exit_code != NULL)
        *exit_code = report.file_exit_code;
      return SL_JOB_STATUS_EXITED;
    }

  sl_job_set_backend_state (job, info->state, info->reason);
  status = sl_slurm_state_to_status (info->state);
  if (status == SL_JOB_STATUS_EXITED && exit_code != NULL)
    {
      /* A batch script that ran to its end wrote its status; Slurm's
       * ExitCode says the same, or 0:0 where accounting lost it. */
      if (report.has_file && (g_str_equal (info->state, "COMPLETED") || g_str_equal (info->state, "FAILED")))
        *exit_code = report.file_exit_code;
      else
        *exit_code = sl_slurm_job_info_get_exit (info);
    }
  return status;
}

static gboolean
stop_job (SlJobBackend  *backend,
          SlJob         *job,
          guint          grace_seconds,
          GCancellable  *cancellable,
          GError       **error)
{
  SlSlurmJobBackend *self = SL_SLURM_JOB_BACKEND (backend);
  g_autofree char *dir = sl_shell_quote_remote_path (sl_job_get_dir (job));
  g_autofree char *command = NULL;
  g_autofree char *err = NULL;
  gint64 deadline;
  int status = -1;

  /* Slurm sends SIGTERM and, after the cluster's KillWait, SIGKILL;
   * here we only wait up to the grace period for it to be over. */
  command = g_strdup_printf ("cd -- %s || exit 3; [ -s slurm_id ] || exit 4; scancel \"$(head -n 1 slurm_id)\"", dir);
  if (!run_slurm_command (self, command, NULL, &err, &status, cancellable, error))
    {
      sl_target_shell_explain_error (self->shell, _("Could not stop the job"), sl_job_get_dir (job), error);
      return FALSE;
    }
  if (status == 3 || status == 4)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("Could not stop the job: %s holds no Slurm job"), sl_job_get_dir (job));
      return FALSE;
    }
  if (status != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("scancel failed: %s"), g_strstrip (err));
      return FALSE;
    }

  deadline = g_get_monotonic_time () + (gint64)grace_seconds * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      SlJobStatus now = poll_job (backend, job, NULL, cancellable, NULL);

      if (now == SL_JOB_STATUS_EXITED || now == SL_JOB_STATUS_LOST)
        break;
      g_usleep (STOP_POLL_PAUSE_US);
    }
  return TRUE;
}

/* A file of the job folder from @offset; a file not there yet reads as
 * empty (Slurm opens the logs when the job starts), or %NULL with
 * @missing set when @missing is given. */
static GBytes *
read_job_file (SlSlurmJobBackend  *self,
               const char         *path,
               guint64             offset,
               guint64             max_length,
               gboolean           *missing,
               GCancellable       *cancellable,
               GError            **error)
{
  GError *local_error = NULL;
  GBytes *bytes;

  if (missing != NULL)
    *missing = FALSE;
  bytes = sl_target_shell_read (self->shell, path, offset, max_length, cancellable, &local_error);
  if (bytes == NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_error_free (local_error);
      if (missing != NULL)
        {
          *missing = TRUE;
          return NULL;
        }
      return g_bytes_new (NULL, 0);
    }
  if (bytes == NULL)
    g_propagate_error (error, local_error);
  return bytes;
}

/* The batch script says whether its tasks write their own logs, and
 * whether a task is a rank or a node's launcher. */
static gboolean
decide_task_logs (SlSlurmJobBackend  *self,
                  SlJob              *job,
                  TaskLogState       *state,
                  GCancellable       *cancellable,
                  GError            **error)
{
  g_autofree char *path = sl_job_dup_file_path (job, "job.sbatch");
  g_autoptr(GBytes) script = NULL;
  g_autofree char *text = NULL;
  gsize size = 0;
  const char *data;

  if ((script = read_job_file (self, path, 0, 64 * 1024, NULL, cancellable, error)) == NULL)
    return FALSE;
  data = g_bytes_get_data (script, &size);
  text = size > 0 ? g_strndup (data, size) : g_strdup ("");
  state->decided = TRUE;
  if (strstr (text, "-%t.out") != NULL)
    state->merged = sl_slurm_task_logs_new (strstr (text, "sightline-node") != NULL ? "node" : "rank");
  return TRUE;
}

/* One round: what the script's log and every task's log gained, the
 * next task's file included once it appears. */
static gboolean
read_task_round (SlSlurmJobBackend  *self,
                 SlJob              *job,
                 SlSlurmTaskLogs    *merged,
                 guint64             max_length,
                 GCancellable       *cancellable,
                 GError            **error)
{
  g_autofree char *log_path = sl_job_dup_log_path (job);
  g_autoptr(GBytes) main_log = NULL;
  g_autofree char *id_from_file = NULL;
  const char *slurm_id = sl_job_get_backend_id (job);
  gsize size = 0;
  const guint8 *data;

  /* A job found again from its folder knows its id from there. */
  if (slurm_id == NULL)
    {
      g_autofree char *id_path = sl_job_dup_file_path (job, "slurm_id");
      g_autoptr(GBytes) id_bytes = read_job_file (self, id_path, 0, 64, NULL, cancellable, NULL);

      if (id_bytes != NULL && g_bytes_get_size (id_bytes) > 0)
        {
          g_autofree char *text = g_strndup (g_bytes_get_data (id_bytes, NULL), g_bytes_get_size (id_bytes));

          slurm_id = id_from_file = sl_slurm_parse_job_id (text);
        }
    }

  sl_slurm_task_logs_begin_round (merged);
  if ((main_log = read_job_file (self, log_path, sl_slurm_task_logs_get_main_offset (merged), max_length, NULL,
                                 cancellable, error)) == NULL)
    return FALSE;
  data = g_bytes_get_data (main_log, &size);
  sl_slurm_task_logs_add_main (merged, data, size);

  for (guint task = 0; slurm_id != NULL; task++)
    {
      g_autofree char *name = g_strdup_printf ("sightline-%s-%s-%u.out", sl_job_get_id (job), slurm_id, task);
      g_autofree char *path = sl_job_dup_file_path (job, name);
      g_autoptr(GBytes) bytes = NULL;
      gboolean missing = FALSE;

      bytes = read_job_file (self, path, sl_slurm_task_logs_get_offset (merged, task), max_length, &missing,
                             cancellable, error);
      if (missing && task >= sl_slurm_task_logs_get_n_tasks (merged))
        break;
      if (missing)
        continue;
      if (bytes == NULL)
        return FALSE;
      data = g_bytes_get_data (bytes, &size);
      if (!sl_slurm_task_logs_add_task (merged, task, data, size))
        break;
    }
  sl_slurm_task_logs_end_round (merged);
  return TRUE;
}

/* With per-task logs, the log read is one stream merged from the
 * script's and every task's (SlSlurmTaskLogs); its offsets count that
 * stream, which is the same for one follower reading from 0 on. */
static GBytes *
read_merged_log (SlSlurmJobBackend  *self,
                 SlJob              *job,
                 guint64             offset,
                 guint64             max_length,
                 gboolean           *handled,
                 GCancellable       *cancellable,
                 GError            **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  TaskLogState *state = g_hash_table_lookup (self->task_logs, sl_job_get_dir (job));
  GBytes *bytes;

  *handled = FALSE;
  if (state == NULL || (offset == 0 && state->delivered > 0))
    {
      state = g_new0 (TaskLogState, 1);
      g_hash_table_replace (self->task_logs, g_strdup (sl_job_get_dir (job)), state);
    }
  if (!state->decided && !decide_task_logs (self, job, state, cancellable, error))
    {
      *handled = TRUE;
      return NULL;
    }
  if (state->merged == NULL)
    return NULL;

  *handled = TRUE;
  if (!sl_slurm_task_logs_has_pending (state->merged) &&
      !read_task_round (self, job, state->merged, max_length, cancellable, error))
    return NULL;
  bytes = sl_slurm_task_logs_take (state->merged, max_length);
  state->delivered += g_bytes_get_size (bytes);
  return bytes;
}

static GBytes *
read_log (SlJobBackend  *backend,
          SlJob         *job,
          guint64        offset,
          guint64        max_length,
          GCancellable  *cancellable,
          GError       **error)
{
  SlSlurmJobBackend *self = SL_SLURM_JOB_BACKEND (backend);
  g_autofree char *path = sl_job_dup_log_path (job);
  GError *local_error = NULL;
  gboolean handled = FALSE;
  GBytes *bytes;

  bytes = read_merged_log (self, job, offset, max_length, &handled, cancellable, error);
  if (handled)
    return bytes;

  bytes = sl_target_shell_read (self->shell, path, offset, max_length, cancellable, &local_error);
  if (bytes == NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      /* Slurm opens the log when the job starts. */
      g_error_free (local_error);
      return g_bytes_new (NULL, 0);
    }
  if (bytes == NULL)
    g_propagate_error (error, local_error);
  return bytes;
}

static void
job_backend_iface_init (SlJobBackendInterface *iface)
{
  iface->dup_launch_command = dup_launch_command;
  iface->launch = launch;
  iface->poll = poll_job;
  iface->stop = stop_job;
  iface->read_log = read_log;
}

static void
sl_slurm_job_backend_finalize (GObject *object)
{
  SlSlurmJobBackend *self = (SlSlurmJobBackend *)object;

  g_clear_object (&self->shell);
  g_clear_pointer (&self->options, sl_slurm_options_free);
  g_free (self->env_setup);
  g_clear_pointer (&self->task_logs, g_hash_table_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (sl_slurm_job_backend_parent_class)->finalize (object);
}

static void
sl_slurm_job_backend_class_init (SlSlurmJobBackendClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_slurm_job_backend_finalize;
}

static void
sl_slurm_job_backend_init (SlSlurmJobBackend *self)
{
  g_mutex_init (&self->lock);
  self->task_logs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, task_log_state_free);
}

/**
 * sl_slurm_job_backend_new:
 * @shell: the login node's shell
 * @options: (nullable): how jobs ask for nodes and tasks; %NULL for a
 *   backend that only follows and stops jobs submitted earlier
 *
 * Returns: (transfer full): a backend submitting jobs to Slurm
 */
SlJobBackend *
sl_slurm_job_backend_new (SlTargetShell        *shell,
                          const SlSlurmOptions *options)
{
  SlSlurmJobBackend *self;

  g_return_val_if_fail (SL_IS_TARGET_SHELL (shell), NULL);

  self = g_object_new (SL_TYPE_SLURM_JOB_BACKEND, NULL);
  self->shell = g_object_ref (shell);
  self->options = options != NULL ? sl_slurm_options_copy (options) : sl_slurm_options_new ();
  return SL_JOB_BACKEND (self);
}
