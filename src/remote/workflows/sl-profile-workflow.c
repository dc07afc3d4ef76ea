/* sl-profile-workflow.c: profiles a program on a target, from the preflight to the pulled folder
 *
 * The preflight, the program run under msprof (or MindSpore's or
 * torch_npu's profiler) as a job, then the newest PROF_* (or *_ascend_pt,
 * *_ascend_ms) folder of the output folder exported on the target when
 * only raw data came out, and pulled into the cache. What went wrong is
 * kept as Problems with hints, never as a bare error, so the CLI and the
 * window show the same.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-folder-puller.h"
#include "sl-problem.h"
#include "sl-profile-workflow.h"
#include "sl-shell-quote.h"
#include "sl-workflow-private.h"

#define DEFAULT_OUTPUT "sightline-profile"
#define MIN_FREE_KB (512 * 1024)

struct _SlProfileWorkflow
{
  SlWorkflow       parent_instance;

  SlMsprofCommand *command;
  int              device_id;

  char            *profile;
  char            *remote;
};

G_DEFINE_FINAL_TYPE (SlProfileWorkflow, sl_profile_workflow, SL_TYPE_WORKFLOW)
SL_WORKFLOW_DEFINE_CALLS (SlProfileWorkflow, sl_profile_workflow, SL_IS_PROFILE_WORKFLOW)

#define WORKFLOW(self) SL_WORKFLOW (self)

static void
add_problem (SlProfileWorkflow *self,
             SlProblem         *problem,
             const char        *hint)
{
  sl_workflow_add_problem (WORKFLOW (self), problem, hint);
}

static gboolean
is_result_name (const char *name)
{
  return g_str_has_prefix (name, "PROF_") || g_str_has_suffix (name, "_ascend_pt") || g_str_has_suffix (name, "_ascend_ms");
}

static guint64
get_mtime (GFileInfo *info)
{
  return g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
}

/* Result folders in @dir by name, with their modification times + 1. */
static GHashTable *
list_results (SlTargetShell *shell,
              const char    *dir)
{
  g_autoptr(GPtrArray) entries = dir ? sl_target_shell_list_dir (shell, dir, NULL, NULL) : NULL;
  GHashTable *results = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (entries, i);

      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY && is_result_name (g_file_info_get_name (info)))
        g_hash_table_insert (results, g_strdup (g_file_info_get_name (info)), GSIZE_TO_POINTER (get_mtime (info) + 1));
    }
  return results;
}

static gboolean
is_newer (GFileInfo *info,
          GFileInfo *than)
{
  return than == NULL || get_mtime (info) > get_mtime (than) ||
         (get_mtime (info) == get_mtime (than) && g_strcmp0 (g_file_info_get_name (info), g_file_info_get_name (than)) > 0);
}

/* The newest result folder in @dir that was not there, as it was, in
 * @before: an older run's result is never taken for this one's. */
static char *
find_result (SlTargetShell *shell,
             const char    *dir,
             GHashTable    *before)
{
  g_autoptr(GPtrArray) entries = sl_target_shell_list_dir (shell, dir, NULL, NULL);
  GFileInfo *newest = NULL;

  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (entries, i);
      gpointer old = g_hash_table_lookup (before, g_file_info_get_name (info));

      if (g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY || !is_result_name (g_file_info_get_name (info)))
        continue;
      if (old != NULL && GPOINTER_TO_SIZE (old) == get_mtime (info) + 1)
        continue;
      if (is_newer (info, newest))
        newest = info;
    }
  return newest ? g_build_path ("/", dir, g_file_info_get_name (newest), NULL) : NULL;
}

/* msprof leaves raw data only when its parse step did not run: no
 * mindstudio_profiler_output and no device_N/timeline. */
static gboolean
needs_export (SlTargetShell *shell,
              const char    *prof_dir)
{
  g_autofree char *dir = sl_shell_quote_remote_path (prof_dir);
  g_autofree char *command = g_strdup_printf ("cd -- %s && ls -d mindstudio_profiler_output device_*/timeline 2>/dev/null | head -n 1", dir);
  g_autofree char *name = g_path_get_basename (prof_dir);
  g_autofree char *out = NULL;
  int status = -1;

  if (!g_str_has_prefix (name, "PROF_"))
    return FALSE;
  if (!sl_target_shell_run (shell, command, &out, NULL, &status, NULL, NULL))
    return FALSE;
  return g_strstrip (out)[0] == '\0';
}

/* Sourcing the environment script, then exports, as the job's set-up. */
static char *
dup_env_setup (SlProfileWorkflow *self)
{
  g_auto(GStrv) environment = sl_msprof_command_dup_environment (self->command);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *source = sl_workflow_dup_source_line (WORKFLOW (self));

  if (source != NULL)
    g_string_append_printf (out, "%s\n", source);
  for (guint i = 0; environment != NULL && environment[i] != NULL; i++)
    {
      const char *equals = strchr (environment[i], '=');
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (equals == NULL)
        continue;
      name = g_strndup (environment[i], equals - environment[i]);
      value = sl_shell_quote (equals + 1);
      g_string_append_printf (out, "export %s=%s\n", name, value);
    }
  /* The job wrapper ends each set-up line itself. */
  if (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

static SlRemoteRun *
create_run (SlProfileWorkflow  *self,
            GStrv              *tool_argv,
            GError            **error)
{
  g_autofree char *env_setup = NULL;

  if (!(*tool_argv = sl_msprof_command_dup_argv (self->command, error)))
    return NULL;
  env_setup = dup_env_setup (self);
  return sl_workflow_create_run (WORKFLOW (self), (const char * const *)*tool_argv, env_setup);
}

static char *
dup_output_dir (SlProfileWorkflow *self,
                SlRemoteRun       *run)
{
  const char *output = sl_msprof_command_get_output (self->command);

  if (output == NULL || output[0] == '\0')
    output = DEFAULT_OUTPUT;
  return g_path_is_absolute (output) ? g_strdup (output)
                                     : g_build_path ("/", sl_remote_run_get_remote_dir (run), output, NULL);
}

static void
fill_spec (SlProfileWorkflow *self,
           const char        *output_dir,
           SlPreflightSpec   *spec)
{
  SlProfilerKind kind = sl_msprof_command_get_kind (self->command);
  const char * const *program = sl_msprof_command_get_program (self->command);
  const char *first = program && program[0] ? program[0] : "";

  spec->tool = kind == SL_PROFILER_MSPROF ? "msprof" : NULL;
  spec->env_script = sl_workflow_get_env_script (WORKFLOW (self));
  spec->output_dir = output_dir;
  spec->min_free_kb = MIN_FREE_KB;
  spec->device_id = self->device_id;
  spec->needs_python = kind != SL_PROFILER_MSPROF || g_str_has_suffix (first, ".py") || g_str_has_prefix (first, "python");
}

static void
job_started_cb (SlRemoteRun       *run,
                gint64             job_id,
                const char        *remote_dir,
                const char        *log_path,
                SlProfileWorkflow *self)
{
  sl_workflow_set_stage (WORKFLOW (self), SL_PROFILE_STAGE_RUNNING);
}

static void
add_exit_problem (SlProfileWorkflow *self,
                  SlRemoteRun       *run)
{
  int exit_code = sl_workflow_get_exit_code (WORKFLOW (self));
  const char *why = sl_remote_run_explain_exit (exit_code);
  g_autofree char *lost = sl_remote_run_dup_lost_reason (run);
  g_autofree char *message = exit_code >= 0
    ? g_strdup_printf (_("The profiled program exited with %d%s%s"), exit_code, why ? ": " : "", why ? why : "")
    : g_strdup_printf (_("The profiled program ended without an exit code (%s)"), lost);

  add_problem (self, sl_problem_new_at_line (SL_SEVERITY_ERROR, "msprof", sl_workflow_get_log_path (WORKFLOW (self)),
                                             MAX (sl_workflow_count_log_lines (WORKFLOW (self)), 1), message),
               _("The job’s log shows the program’s and msprof’s own messages."));
}

static void
add_no_result_problem (SlProfileWorkflow *self,
                       const char        *output_dir)
{
  g_autofree char *message = g_strdup_printf (_("No PROF_* or *_ascend_pt folder came out in %s"), output_dir);

  add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "msprof", sl_workflow_get_log_path (WORKFLOW (self)), -1, message),
               _("The profiler did not start or wrote elsewhere; the job’s log says why."));
}

static gboolean
export_result (SlProfileWorkflow *self,
               const char        *env_setup,
               GCancellable      *cancellable)
{
  g_auto(GStrv) argv = sl_msprof_dup_export_argv (self->remote);
  g_autofree char *quoted = sl_shell_quote_argv ((const char * const *)argv);
  g_autofree char *command = g_strdup_printf ("%s%s%s 2>&1", env_setup ? env_setup : "", env_setup ? "\n" : "", quoted);
  g_autofree char *notice = g_strdup_printf (_("only raw data came out; exporting it on the target: %s"), quoted);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  sl_workflow_set_stage (WORKFLOW (self), SL_PROFILE_STAGE_EXPORTING);
  sl_workflow_emit_message (WORKFLOW (self), notice);
  if (!sl_target_shell_run (sl_workflow_ensure_shell (WORKFLOW (self)), command, &out, NULL, &status, cancellable, &error) || status != 0)
    {
      g_autofree char *message = NULL;

      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      message = g_strdup_printf (_("msprof --export failed (exit code %d): %s"), status,
                                 error ? error->message : g_strstrip (out));
      add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "msprof", self->remote, -1, message),
                   _("Run the same msprof --export command on the target to see the whole output; the raw data is kept."));
      return FALSE;
    }
  return TRUE;
}

static gboolean
pull_result (SlProfileWorkflow  *self,
             GCancellable       *cancellable,
             GError            **error)
{
  g_autofree char *local = sl_workflow_dup_cache_path (WORKFLOW (self), self->remote, error);
  g_autoptr(SlPullResult) pulled = NULL;
  g_autoptr(GError) pull_error = NULL;

  if (local == NULL)
    return FALSE;
  sl_workflow_set_stage (WORKFLOW (self), SL_PROFILE_STAGE_PULLING);
  pulled = sl_folder_pull (sl_workflow_ensure_shell (WORKFLOW (self)), self->remote, local, NULL, NULL, cancellable, &pull_error);
  if (pulled == NULL && g_error_matches (pull_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return TRUE;
  if (pulled == NULL)
    add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "pull", self->remote, -1, pull_error->message), NULL);
  else
    self->profile = g_steal_pointer (&local);
  return TRUE;
}

static void
sl_profile_workflow_reset (SlWorkflow *workflow)
{
  SlProfileWorkflow *self = SL_PROFILE_WORKFLOW (workflow);

  g_clear_pointer (&self->profile, g_free);
  g_clear_pointer (&self->remote, g_free);
}

static gboolean
sl_profile_workflow_run_stages (SlWorkflow    *workflow,
                                GCancellable  *cancellable,
                                GError       **error)
{
  SlProfileWorkflow *self = SL_PROFILE_WORKFLOW (workflow);
  g_auto(GStrv) tool_argv = NULL;
  g_autoptr(SlRemoteRun) run = create_run (self, &tool_argv, error);
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GError) job_error = NULL;
  g_autofree char *output_dir = NULL;
  g_autofree char *existing = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *env_setup = NULL;
  SlTargetShell *shell;
  SlPreflightSpec spec = { 0 };
  SlWorkflowJobOutcome outcome;
  gulong started_id;

  if (run == NULL)
    return FALSE;
  shell = sl_workflow_ensure_shell (workflow);
  output_dir = dup_output_dir (self, run);
  fill_spec (self, output_dir, &spec);

  sl_workflow_set_stage (workflow, SL_PROFILE_STAGE_PREFLIGHT);
  if (!sl_workflow_run_preflight (workflow, &spec, cancellable) || g_cancellable_is_cancelled (cancellable))
    return !sl_workflow_set_error_if_interrupted_before (workflow, cancellable, error);

  existing = sl_target_shell_resolve_dir (shell, output_dir, FALSE, NULL, NULL);
  before = list_results (shell, existing);
  sl_workflow_set_stage (workflow, SL_PROFILE_STAGE_UPLOADING);
  started_id = g_signal_connect (run, "job-started", G_CALLBACK (job_started_cb), self);
  outcome = sl_workflow_run_job (workflow, run, (const char * const *)tool_argv, cancellable, &job_error);
  g_signal_handler_disconnect (run, started_id);
  switch (outcome)
    {
    case SL_WORKFLOW_JOB_INTERRUPTED:
      /* What became of the job, as seen: a stopped job's partial data
       * is not worth exporting or pulling. */
      g_propagate_error (error, g_steal_pointer (&job_error));
      return FALSE;
    case SL_WORKFLOW_JOB_NOT_RUN:
      add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "job", NULL, -1, job_error->message), NULL);
      return TRUE;
    case SL_WORKFLOW_JOB_ENDED:
    default:
      break;
    }
  sl_workflow_keep_log (workflow, run, TRUE);
  if (sl_workflow_set_error_if_interrupted_after (workflow, cancellable, NULL, error))
    return FALSE;

  resolved = sl_target_shell_resolve_dir (shell, output_dir, FALSE, NULL, NULL);
  self->remote = resolved ? find_result (shell, resolved, before) : NULL;
  if (sl_workflow_get_exit_code (workflow) != 0)
    add_exit_problem (self, run);
  if (self->remote == NULL)
    {
      add_no_result_problem (self, output_dir);
      return TRUE;
    }

  env_setup = dup_env_setup (self);
  if (needs_export (shell, self->remote) && !export_result (self, env_setup, cancellable))
    return !sl_workflow_set_error_if_interrupted_after (workflow, cancellable, self->remote, error);
  if (sl_workflow_set_error_if_interrupted_after (workflow, cancellable, self->remote, error))
    return FALSE;
  if (!pull_result (self, cancellable, error))
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_clear_error (error);
          sl_workflow_set_error_if_interrupted_after (workflow, cancellable, self->remote, error);
        }
      return FALSE;
    }
  return !sl_workflow_set_error_if_interrupted_after (workflow, cancellable, self->remote, error);
}

char *
sl_profile_workflow_dup_dry_run (SlProfileWorkflow  *self,
                                 GError            **error)
{
  g_auto(GStrv) tool_argv = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  g_autofree char *output_dir = NULL;
  g_autofree char *preflight = NULL;
  g_autofree char *launch = NULL;
  g_auto(GStrv) export_argv = sl_msprof_dup_export_argv ("PROF_…");
  g_autofree char *export_line = sl_shell_quote_argv ((const char * const *)export_argv);
  SlPreflightSpec spec = { 0 };
  GString *out;

  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), NULL);

  if (!(run = create_run (self, &tool_argv, error)) || !(launch = sl_remote_run_dup_launch_command (run, error)))
    return NULL;
  output_dir = dup_output_dir (self, run);
  fill_spec (self, output_dir, &spec);
  preflight = sl_preflight_dup_script (&spec);
  out = g_string_new (NULL);
  g_string_append_printf (out, "# %s\n%s", _("Preflight"), preflight);
  g_string_append_printf (out, "# %s\n%s\n", _("Profile"), launch);
  if (sl_msprof_command_get_kind (self->command) == SL_PROFILER_MSPROF)
    g_string_append_printf (out, "# %s\n%s\n", _("Export, when only raw data came out"), export_line);
  return g_string_free (out, FALSE);
}

SlProfileStage
sl_profile_workflow_get_stage (SlProfileWorkflow *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), SL_PROFILE_STAGE_IDLE);
  return sl_workflow_get_stage (WORKFLOW (self));
}

const char *
sl_profile_stage_to_label (SlProfileStage stage)
{
  switch (stage)
    {
    case SL_PROFILE_STAGE_PREFLIGHT:
      return _("Checking the target");
    case SL_PROFILE_STAGE_UPLOADING:
      return _("Uploading the project and starting the job");
    case SL_PROFILE_STAGE_RUNNING:
      return _("Profiling");
    case SL_PROFILE_STAGE_EXPORTING:
      return _("Exporting the raw data");
    case SL_PROFILE_STAGE_PULLING:
      return _("Pulling the profile");
    case SL_PROFILE_STAGE_DONE:
      return _("Done");
    case SL_PROFILE_STAGE_IDLE:
    default:
      return "";
    }
}

static const char *
sl_profile_workflow_stage_label (SlWorkflow *workflow,
                                 int         stage)
{
  return sl_profile_stage_to_label (stage);
}

const char *
sl_profile_workflow_get_profile (SlProfileWorkflow *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), NULL);
  return self->profile;
}

const char *
sl_profile_workflow_get_remote (SlProfileWorkflow *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), NULL);
  return self->remote;
}

static gboolean
sl_profile_workflow_real_succeeded (SlWorkflow *workflow)
{
  return SL_PROFILE_WORKFLOW (workflow)->profile != NULL && sl_workflow_count_errors (workflow) == 0;
}

void
sl_profile_workflow_set_device (SlProfileWorkflow *self,
                                int                device_id)
{
  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (self));
  self->device_id = device_id;
}

void
sl_profile_workflow_set_shell (SlProfileWorkflow *self,
                               SlTargetShell     *shell)
{
  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (self));
  sl_workflow_set_shell (WORKFLOW (self), shell);
}

static void
sl_profile_workflow_finalize (GObject *object)
{
  SlProfileWorkflow *self = SL_PROFILE_WORKFLOW (object);

  g_clear_object (&self->command);
  g_free (self->profile);
  g_free (self->remote);

  G_OBJECT_CLASS (sl_profile_workflow_parent_class)->finalize (object);
}

static void
sl_profile_workflow_class_init (SlProfileWorkflowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  SlWorkflowClass *workflow_class = SL_WORKFLOW_CLASS (klass);

  object_class->finalize = sl_profile_workflow_finalize;

  /* "stage" is an SlProfileStage. */
  workflow_class->done_stage = SL_PROFILE_STAGE_DONE;
  workflow_class->run_stages = sl_profile_workflow_run_stages;
  workflow_class->reset = sl_profile_workflow_reset;
  workflow_class->succeeded = sl_profile_workflow_real_succeeded;
  workflow_class->stage_label = sl_profile_workflow_stage_label;
}

static void
sl_profile_workflow_init (SlProfileWorkflow *self)
{
}

SlProfileWorkflow *
sl_profile_workflow_new (SlTarget        *target,
                         const char      *project_dir,
                         SlMsprofCommand *command)
{
  SlProfileWorkflow *self;

  g_return_val_if_fail (SL_IS_TARGET (target), NULL);
  g_return_val_if_fail (project_dir != NULL, NULL);
  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (command), NULL);

  self = g_object_new (SL_TYPE_PROFILE_WORKFLOW, "target", target, "project-dir", project_dir, NULL);
  self->command = g_object_ref (command);
  return self;
}
