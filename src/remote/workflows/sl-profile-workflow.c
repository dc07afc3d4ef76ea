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

#include "sl-cache.h"
#include "sl-folder-puller.h"
#include "sl-job-controller.h"
#include "sl-problem.h"
#include "sl-profile-workflow.h"
#include "sl-remote-run.h"
#include "sl-shell-quote.h"
#include "sl-transfer.h"
#include "sl-workflow-job.h"
#include "sl-workflow-preflight.h"
#include "sl-workflow-thread.h"
#include "sl-workspace.h"

#define DEFAULT_OUTPUT "sightline-profile"
#define MIN_FREE_KB (512 * 1024)

struct _SlProfileWorkflow
{
  GObject          parent_instance;

  SlTarget        *target;
  SlMsprofCommand *command;
  SlTargetShell   *shell;
  char            *project_dir;
  char            *env_script;
  char            *remote_dir;
  char            *store_path;
  int              device_id;

  GMainContext    *notify_context;  /* where "stage" is notified when run in a thread */
  SlProfileStage   notified_stage;  /* read on the notify context, written only there */
  GPtrArray       *problems;
  GString         *log;
  char            *profile;
  char            *remote;
  char            *log_path;
  char            *local_log;
  int              exit_code;
};

G_DEFINE_FINAL_TYPE (SlProfileWorkflow, sl_profile_workflow, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  LOG,
  MESSAGE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  SlProfileWorkflow *self;
  SlProfileStage     stage;
} StageNote;

static void
stage_note_free (gpointer data)
{
  StageNote *note = data;

  g_object_unref (note->self);
  g_free (note);
}

/* Each change carries its own stage, so a quick run still reports every
 * stage it went through, in order, on the notify context. */
static gboolean
notify_stage_cb (gpointer data)
{
  StageNote *note = data;

  note->self->notified_stage = note->stage;
  g_object_notify_by_pspec (G_OBJECT (note->self), properties[PROP_STAGE]);
  return G_SOURCE_REMOVE;
}

static void
set_stage (SlProfileWorkflow *self,
           SlProfileStage     stage)
{
  if (self->notify_context != NULL)
    {
      StageNote *note = g_new0 (StageNote, 1);

      note->self = g_object_ref (self);
      note->stage = stage;
      g_main_context_invoke_full (self->notify_context, G_PRIORITY_DEFAULT, notify_stage_cb, note,
                                  stage_note_free);
    }
  else
    {
      self->notified_stage = stage;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STAGE]);
    }
}

static void
add_problem (SlProfileWorkflow *self,
             SlProblem         *problem,
             const char        *hint)
{
  if (hint != NULL)
    sl_problem_set_hint (problem, hint);
  g_ptr_array_add (self->problems, problem);
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

  if (self->env_script != NULL)
    {
      g_autofree char *quoted = sl_shell_quote_remote_path (self->env_script);

      g_string_append_printf (out, ". %s\n", quoted);
    }
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
  SlRemoteRun *run;

  if (!(*tool_argv = sl_msprof_command_dup_argv (self->command, error)))
    return NULL;
  env_setup = dup_env_setup (self);
  run = sl_remote_run_new (self->target, self->project_dir, (const char * const *)*tool_argv);
  sl_remote_run_set_remote_dir (run, self->remote_dir);
  sl_remote_run_set_env_setup (run, env_setup);
  sl_remote_run_set_store_path (run, self->store_path);
  return run;
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
  spec->env_script = self->env_script;
  spec->output_dir = output_dir;
  spec->min_free_kb = MIN_FREE_KB;
  spec->device_id = self->device_id;
  spec->needs_python = kind != SL_PROFILER_MSPROF || g_str_has_suffix (first, ".py") || g_str_has_prefix (first, "python");
}

/* Runs the preflight; its problems are kept. FALSE when one is an error. */
static gboolean
run_preflight (SlProfileWorkflow     *self,
               const SlPreflightSpec *spec,
               GCancellable          *cancellable)
{
  g_autofree char *script = sl_preflight_dup_script (spec);
  g_autofree char *out = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;
  int status = -1;

  if (!sl_target_shell_run (self->shell, script, &out, NULL, &status, cancellable, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "preflight", NULL, -1, error->message), NULL);
      return FALSE;
    }
  found = sl_preflight_parse (spec, out);
  for (guint i = 0; i < found->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (found, i);

      ok = ok && sl_problem_get_severity (problem) != SL_SEVERITY_ERROR;
      g_ptr_array_add (self->problems, g_object_ref (problem));
    }
  return ok;
}

static void
log_cb (SlRemoteRun       *run,
        GBytes            *data,
        SlProfileWorkflow *self)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (self->log, bytes, size);
  g_signal_emit (self, signals[LOG], 0, data);
}

static void
message_cb (SlRemoteRun       *run,
            const char        *text,
            SlProfileWorkflow *self)
{
  g_signal_emit (self, signals[MESSAGE], 0, text);
}

static void
job_started_cb (SlRemoteRun       *run,
                gint64             job_id,
                const char        *remote_dir,
                const char        *log_path,
                SlProfileWorkflow *self)
{
  set_stage (self, SL_PROFILE_STAGE_RUNNING);
}

static gboolean
run_job (SlProfileWorkflow  *self,
         SlRemoteRun        *run,
         const char * const *tool_argv,
         GCancellable       *cancellable,
         GError            **error)
{
  g_signal_connect (run, "message", G_CALLBACK (message_cb), self);
  g_signal_connect (run, "log", G_CALLBACK (log_cb), self);
  g_signal_connect (run, "job-started", G_CALLBACK (job_started_cb), self);
  return sl_workflow_run_job (run, self->store_path, tool_argv, cancellable, &self->exit_code, error);
}

static void
add_exit_problem (SlProfileWorkflow *self,
                  SlRemoteRun       *run)
{
  const char *why = sl_remote_run_explain_exit (self->exit_code);
  g_autofree char *lost = sl_remote_run_dup_lost_reason (run);
  g_autofree char *message = self->exit_code >= 0
    ? g_strdup_printf (_("The profiled program exited with %d%s%s"), self->exit_code, why ? ": " : "", why ? why : "")
    : g_strdup_printf (_("The profiled program ended without an exit code (%s)"), lost);

  add_problem (self, sl_problem_new_at_line (SL_SEVERITY_ERROR, "msprof", self->log_path, MAX (sl_workflow_count_lines (self->log), 1), message),
               _("The job’s log shows the program’s and msprof’s own messages."));
}

static void
add_no_result_problem (SlProfileWorkflow *self,
                       const char        *output_dir)
{
  g_autofree char *message = g_strdup_printf (_("No PROF_* or *_ascend_pt folder came out in %s"), output_dir);

  add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "msprof", self->log_path, -1, message),
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

  set_stage (self, SL_PROFILE_STAGE_EXPORTING);
  g_signal_emit (self, signals[MESSAGE], 0, notice);
  if (!sl_target_shell_run (self->shell, command, &out, NULL, &status, cancellable, &error) || status != 0)
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
  g_autofree char *local = sl_workflow_dup_cache_path (self->target, self->remote, error);
  g_autoptr(SlPullResult) pulled = NULL;
  g_autoptr(GError) pull_error = NULL;

  if (local == NULL)
    return FALSE;
  set_stage (self, SL_PROFILE_STAGE_PULLING);
  pulled = sl_folder_pull (self->shell, self->remote, local, NULL, NULL, cancellable, &pull_error);
  if (pulled == NULL && g_error_matches (pull_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return TRUE;
  if (pulled == NULL)
    add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "pull", self->remote, -1, pull_error->message), NULL);
  else
    self->profile = g_steal_pointer (&local);
  return TRUE;
}

static void
reset_outcome (SlProfileWorkflow *self)
{
  g_ptr_array_set_size (self->problems, 0);
  g_string_truncate (self->log, 0);
  g_clear_pointer (&self->profile, g_free);
  g_clear_pointer (&self->remote, g_free);
  g_clear_pointer (&self->log_path, g_free);
  g_clear_pointer (&self->local_log, g_free);
  self->exit_code = -1;
}

static gboolean
run_stages (SlProfileWorkflow  *self,
            GCancellable       *cancellable,
            GError            **error)
{
  g_auto(GStrv) tool_argv = NULL;
  g_autoptr(SlRemoteRun) run = create_run (self, &tool_argv, error);
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GError) job_error = NULL;
  g_autofree char *output_dir = NULL;
  g_autofree char *existing = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *env_setup = NULL;
  SlPreflightSpec spec = { 0 };

  if (run == NULL)
    return FALSE;
  if (self->shell == NULL)
    self->shell = sl_target_shell_new_for_target (self->target);
  output_dir = dup_output_dir (self, run);
  fill_spec (self, output_dir, &spec);

  set_stage (self, SL_PROFILE_STAGE_PREFLIGHT);
  if (!run_preflight (self, &spec, cancellable) || g_cancellable_is_cancelled (cancellable))
    return !sl_workflow_set_error_if_interrupted_before (cancellable, self->target, error);

  existing = sl_target_shell_resolve_dir (self->shell, output_dir, FALSE, NULL, NULL);
  before = list_results (self->shell, existing);
  set_stage (self, SL_PROFILE_STAGE_UPLOADING);
  if (!run_job (self, run, (const char * const *)tool_argv, cancellable, &job_error))
    {
      self->exit_code = -1;
      if (g_cancellable_is_cancelled (cancellable))
        {
          /* What became of the job, as seen: a stopped job's partial
           * data is not worth exporting or pulling. */
          g_propagate_error (error, g_steal_pointer (&job_error));
          return FALSE;
        }
      add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "job", NULL, -1, job_error->message), NULL);
      return TRUE;
    }
  self->log_path = g_strdup (sl_remote_run_get_log_path (run));
  self->local_log = sl_workflow_save_log (self->target, self->log_path, self->log);
  if (sl_workflow_set_error_if_interrupted_after (cancellable, self->target, self->exit_code, NULL, error))
    return FALSE;

  resolved = sl_target_shell_resolve_dir (self->shell, output_dir, FALSE, NULL, NULL);
  self->remote = resolved ? find_result (self->shell, resolved, before) : NULL;
  if (self->exit_code != 0)
    add_exit_problem (self, run);
  if (self->remote == NULL)
    {
      add_no_result_problem (self, output_dir);
      return TRUE;
    }

  env_setup = dup_env_setup (self);
  if (needs_export (self->shell, self->remote) && !export_result (self, env_setup, cancellable))
    return !sl_workflow_set_error_if_interrupted_after (cancellable, self->target, self->exit_code, self->remote, error);
  if (sl_workflow_set_error_if_interrupted_after (cancellable, self->target, self->exit_code, self->remote, error))
    return FALSE;
  if (!pull_result (self, cancellable, error))
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_clear_error (error);
          sl_workflow_set_error_if_interrupted_after (cancellable, self->target, self->exit_code, self->remote, error);
        }
      return FALSE;
    }
  return !sl_workflow_set_error_if_interrupted_after (cancellable, self->target, self->exit_code, self->remote, error);
}

gboolean
sl_profile_workflow_run (SlProfileWorkflow  *self,
                         GCancellable       *cancellable,
                         GError            **error)
{
  gboolean ok;

  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reset_outcome (self);
  ok = run_stages (self, cancellable, error);
  set_stage (self, SL_PROFILE_STAGE_DONE);
  return ok;
}

static gboolean
run_in_thread (gpointer       workflow,
               GCancellable  *cancellable,
               GError       **error)
{
  return sl_profile_workflow_run (workflow, cancellable, error);
}

void
sl_profile_workflow_run_async (SlProfileWorkflow  *self,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (self));

  g_clear_pointer (&self->notify_context, g_main_context_unref);
  self->notify_context = g_main_context_ref_thread_default ();
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_profile_workflow_run_async);
  sl_workflow_thread_run (task, "sl-profile-workflow", run_in_thread);
}

gboolean
sl_profile_workflow_run_finish (SlProfileWorkflow  *self,
                                GAsyncResult       *result,
                                GError            **error)
{
  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
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
  return self->notified_stage;
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

#define DEFINE_STRING_GETTER(field) \
  const char * \
  sl_profile_workflow_get_##field (SlProfileWorkflow *self) \
  { \
    g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), NULL); \
    return self->field; \
  }

DEFINE_STRING_GETTER (profile)
DEFINE_STRING_GETTER (remote)
DEFINE_STRING_GETTER (log_path)
DEFINE_STRING_GETTER (local_log)

int
sl_profile_workflow_get_exit_code (SlProfileWorkflow *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), -1);
  return self->exit_code;
}

GPtrArray *
sl_profile_workflow_get_problems (SlProfileWorkflow *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), NULL);
  return self->problems;
}

gboolean
sl_profile_workflow_succeeded (SlProfileWorkflow *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_WORKFLOW (self), FALSE);

  if (self->profile == NULL)
    return FALSE;
  for (guint i = 0; i < self->problems->len; i++)
    if (sl_problem_get_severity (g_ptr_array_index (self->problems, i)) == SL_SEVERITY_ERROR)
      return FALSE;
  return TRUE;
}

void
sl_profile_workflow_set_env_script (SlProfileWorkflow *self,
                                    const char        *env_script)
{
  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (self));
  g_free (self->env_script);
  self->env_script = g_strdup (env_script);
}

void
sl_profile_workflow_set_remote_dir (SlProfileWorkflow *self,
                                    const char        *remote_dir)
{
  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (self));
  g_free (self->remote_dir);
  self->remote_dir = g_strdup (remote_dir);
}

void
sl_profile_workflow_set_device (SlProfileWorkflow *self,
                                int                device_id)
{
  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (self));
  self->device_id = device_id;
}

void
sl_profile_workflow_set_store_path (SlProfileWorkflow *self,
                                    const char        *store_path)
{
  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (self));
  g_free (self->store_path);
  self->store_path = g_strdup (store_path);
}

void
sl_profile_workflow_set_shell (SlProfileWorkflow *self,
                               SlTargetShell     *shell)
{
  g_return_if_fail (SL_IS_PROFILE_WORKFLOW (self));
  g_set_object (&self->shell, shell);
}

static void
sl_profile_workflow_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SlProfileWorkflow *self = SL_PROFILE_WORKFLOW (object);

  switch (prop_id)
    {
    case PROP_STAGE:
      g_value_set_int (value, sl_profile_workflow_get_stage (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_profile_workflow_finalize (GObject *object)
{
  SlProfileWorkflow *self = SL_PROFILE_WORKFLOW (object);

  g_clear_object (&self->target);
  g_clear_object (&self->command);
  g_clear_object (&self->shell);
  g_clear_pointer (&self->notify_context, g_main_context_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_string_free (self->log, TRUE);
  g_free (self->project_dir);
  g_free (self->env_script);
  g_free (self->remote_dir);
  g_free (self->store_path);
  g_free (self->profile);
  g_free (self->remote);
  g_free (self->log_path);
  g_free (self->local_log);

  G_OBJECT_CLASS (sl_profile_workflow_parent_class)->finalize (object);
}

static void
sl_profile_workflow_class_init (SlProfileWorkflowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_profile_workflow_get_property;
  object_class->finalize = sl_profile_workflow_finalize;

  /* An SlProfileStage; notified in the context run_async was called from. */
  properties[PROP_STAGE] =
    g_param_spec_int ("stage", NULL, NULL, SL_PROFILE_STAGE_IDLE, SL_PROFILE_STAGE_DONE, SL_PROFILE_STAGE_IDLE,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The job's log as it streams, in the thread that runs the workflow. */
  signals[LOG] = g_signal_new ("log", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                               G_TYPE_NONE, 1, G_TYPE_BYTES);
  /* A line about what is being done, in the thread that runs the workflow. */
  signals[MESSAGE] = g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
sl_profile_workflow_init (SlProfileWorkflow *self)
{
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
  self->log = g_string_new (NULL);
  self->exit_code = -1;
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

  self = g_object_new (SL_TYPE_PROFILE_WORKFLOW, NULL);
  self->target = g_object_ref (target);
  self->command = g_object_ref (command);
  self->project_dir = g_strdup (project_dir);
  return self;
}
