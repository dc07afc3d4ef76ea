/* sl-convert-workflow.c: converts a model with ATC on a target, from the preflight to the located .om
 *
 * The preflight (the environment script, atc found once it is sourced,
 * the Python ATC runs on, free disk, and the model, weight and AIPP files
 * present), then ATC run as a job in the project folder on the target
 * (uploaded first), its log kept here, the plog files the run wrote
 * pulled into the cache, and every coded error of the log made a Problem
 * with its option, the log's path on the target and its copy here. What
 * went wrong is kept as Problems with hints, never as a bare error, so
 * the CLI and the window show the same.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-atc-log.h"
#include "sl-convert-workflow.h"
#include "sl-problem.h"
#include "sl-shell-quote.h"
#include "sl-workflow-path.h"
#include "sl-workflow-private.h"
#include "sl-workspace-store-outputs.h"

#define MIN_FREE_KB (256 * 1024)
#define MAX_PLOGS 4
#define INPUT_PREFIX "sl-input "

struct _SlConvertWorkflow
{
  SlWorkflow      parent_instance;

  SlAtcCommand   *command;

  char           *output;
  char           *local_output;
  GStrv           plogs;
  GStrv           local_plogs;
};

G_DEFINE_FINAL_TYPE (SlConvertWorkflow, sl_convert_workflow, SL_TYPE_WORKFLOW)
SL_WORKFLOW_DEFINE_CALLS (SlConvertWorkflow, sl_convert_workflow, SL_IS_CONVERT_WORKFLOW)

#define WORKFLOW(self) SL_WORKFLOW (self)

static void
add_problem (SlConvertWorkflow *self,
             SlProblem         *problem,
             const char        *hint)
{
  sl_workflow_add_problem (WORKFLOW (self), problem, hint);
}

static SlRemoteRun *
create_run (SlConvertWorkflow  *self,
            GStrv              *atc_argv,
            GError            **error)
{
  const char *env_script = sl_workflow_get_env_script (WORKFLOW (self));
  g_autofree char *env_setup = NULL;

  if (!(*atc_argv = sl_atc_command_dup_argv (self->command, error)))
    return NULL;
  if (env_script != NULL && !sl_workflow_path_check (env_script, _("The environment script"), error))
    return NULL;
  env_setup = sl_workflow_dup_source_line (WORKFLOW (self));
  return sl_workflow_create_run (WORKFLOW (self), (const char * const *)*atc_argv, env_setup);
}

/* ATC runs on the operator compiler's Python, so `python` counts. */
static void
fill_spec (SlConvertWorkflow *self,
           SlRemoteRun       *run,
           SlPreflightSpec   *spec)
{
  spec->tool = "atc";
  spec->env_script = sl_workflow_get_env_script (WORKFLOW (self));
  spec->output_dir = sl_remote_run_get_remote_dir (run);
  spec->min_free_kb = MIN_FREE_KB;
  spec->device_id = -1;
  /* ATC does not run `python`: a Python 2 there is a note, not a refusal. */
  spec->python_note = TRUE;
}

typedef struct {
  const char *option;
  const char *path;
} InputFile;

static void
add_missing_input (SlConvertWorkflow *self,
                   const InputFile   *input,
                   gboolean           on_target)
{
  g_autofree char *message = on_target
    ? g_strdup_printf (_("%s is not on the target"), input->path)
    : g_strdup_printf (_("%s is not in the project folder %s"), input->path,
                      sl_workflow_get_project_dir (WORKFLOW (self)));

  add_problem (self, sl_problem_new_at_position (SL_SEVERITY_ERROR, "preflight", NULL, -1, 0, 0, input->option, message),
               on_target ? _("Check the path on the target, or give a path relative to the project folder so the file is uploaded with it.")
                         : _("Put the file in the project folder (it is uploaded with it), or give its absolute path on the target."));
}

/* A relative path is in the project folder here and goes up with it; an
 * absolute one must already be on the target. FALSE when one is missing. */
static gboolean
check_inputs (SlConvertWorkflow *self,
              GCancellable      *cancellable)
{
  SlTargetShell *shell = sl_workflow_ensure_shell (WORKFLOW (self));
  const InputFile inputs[] = {
    { "--model", sl_atc_command_get_model (self->command) },
    { "--weight", sl_atc_command_get_weight (self->command) },
    { "--insert_op_conf", sl_atc_command_get_insert_op_conf (self->command) },
  };
  g_autoptr(GString) script = g_string_new (NULL);
  g_autofree char *out = NULL;
  gboolean ok = TRUE;
  int status = -1;

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autofree char *local = NULL;
      g_autofree char *quoted = NULL;

      if (inputs[i].path == NULL)
        continue;
      if (g_path_is_absolute (inputs[i].path))
        {
          quoted = sl_shell_quote (inputs[i].path);
          g_string_append_printf (script, "[ -r %s ] || echo '" INPUT_PREFIX "%u'\n", quoted, i);
          continue;
        }
      local = g_build_filename (sl_workflow_get_project_dir (WORKFLOW (self)), inputs[i].path, NULL);
      if (!g_file_test (local, G_FILE_TEST_IS_REGULAR))
        {
          add_missing_input (self, &inputs[i], FALSE);
          ok = FALSE;
        }
    }
  if (script->len == 0 || !sl_target_shell_run (shell, script->str, &out, NULL, &status, cancellable, NULL))
    return ok;

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autofree char *line = g_strdup_printf (INPUT_PREFIX "%u\n", i);

      if (strstr (out, line) != NULL)
        {
          add_missing_input (self, &inputs[i], TRUE);
          ok = FALSE;
        }
    }
  return ok;
}

/* The plog files written since the job started: find's -newer compares
 * with the job's cmd file, written when it was launched. The environment
 * script may move the logs (ASCEND_PROCESS_LOG_PATH), so it is sourced. */
static GStrv
find_plogs (SlConvertWorkflow *self,
            GCancellable      *cancellable)
{
  g_autofree char *env_setup = sl_workflow_dup_source_line (WORKFLOW (self));
  g_autofree char *job_dir = g_path_get_dirname (sl_workflow_get_log_path (WORKFLOW (self)));
  g_autofree char *cmd = g_build_path ("/", job_dir, "cmd", NULL);
  g_autofree char *quoted = sl_shell_quote_remote_path (cmd);
  g_autofree char *command = g_strdup_printf ("%s%sfind \"${ASCEND_PROCESS_LOG_PATH:-$HOME/ascend/log}\" -name 'plog-*.log' "
                                              "-newer %s 2>/dev/null | sort | head -n %d",
                                              env_setup ? env_setup : "", env_setup ? " >/dev/null 2>&1\n" : "",
                                              quoted, MAX_PLOGS);
  g_autofree char *out = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) lines = NULL;
  int status = -1;

  if (sl_target_shell_run (sl_workflow_ensure_shell (WORKFLOW (self)), command, &out, NULL, &status, cancellable, NULL))
    {
      lines = g_strsplit (out, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        if (g_path_is_absolute (g_strstrip (lines[i])))
          g_strv_builder_add (builder, lines[i]);
    }
  return g_strv_builder_end (builder);
}

/* A copy that failed is "": the path on the target still names it. */
static GStrv
pull_files (SlConvertWorkflow  *self,
            const char * const *remote,
            GCancellable       *cancellable)
{
  g_autoptr(GStrvBuilder) local = g_strv_builder_new ();

  for (guint i = 0; remote[i] != NULL; i++)
    {
      g_autofree char *path = sl_workflow_dup_cache_path (WORKFLOW (self), remote[i], NULL);
      g_autofree char *dir = path ? g_path_get_dirname (path) : NULL;
      g_autoptr(GFile) file = path ? g_file_new_for_path (path) : NULL;

      if (file == NULL || g_mkdir_with_parents (dir, 0700) != 0 ||
          !sl_target_shell_continue_download (sl_workflow_ensure_shell (WORKFLOW (self)), remote[i], file, cancellable, NULL))
        g_strv_builder_add (local, "");
      else
        g_strv_builder_add (local, path);
    }
  return g_strv_builder_end (local);
}

/* sl_atc_log_add_plogs() takes NULL for a copy that failed. */
static const char **
dup_copies_or_null (GStrv copies)
{
  guint n = copies ? g_strv_length (copies) : 0;
  const char **out = g_new0 (const char *, n + 1);

  for (guint i = 0; i < n; i++)
    out[i] = copies[i][0] != '\0' ? copies[i] : NULL;
  return out;
}

static void
read_log (SlConvertWorkflow *self,
          GCancellable      *cancellable)
{
  SlWorkflow *workflow = WORKFLOW (self);
  GString *log = sl_workflow_get_log (workflow);
  const char *log_path = sl_workflow_get_log_path (workflow);
  const char *local_log = sl_workflow_get_local_log (workflow);
  int exit_code = sl_workflow_get_exit_code (workflow);
  g_autoptr(GPtrArray) found = NULL;
  g_autofree const char **copies = NULL;
  SlAtcOutcome outcome = SL_ATC_OUTCOME_UNKNOWN;

  found = sl_atc_log_parse (log->str, log->len, log_path, exit_code, &outcome);
  sl_workflow_set_stage (workflow, SL_CONVERT_STAGE_PULLING_LOGS);
  self->plogs = find_plogs (self, cancellable);
  self->local_plogs = pull_files (self, (const char * const *)self->plogs, cancellable);
  copies = dup_copies_or_null (self->local_plogs);
  sl_atc_log_add_plogs (found, (const char * const *)self->plogs, copies);
  for (guint i = 0; i < found->len; i++)
    sl_problem_set_local_copy (g_ptr_array_index (found, i), local_log);
  sl_workflow_add_problems (workflow, found);
  if (outcome == SL_ATC_OUTCOME_SUCCESS && exit_code != 0)
    {
      g_autofree char *message = g_strdup_printf (_("ATC said it succeeded but exited with %d"), exit_code);
      SlProblem *problem = sl_problem_new (SL_SEVERITY_ERROR, "atc", log_path, -1, message);

      sl_problem_set_local_copy (problem, local_log);
      add_problem (self, problem, _("The end of the job’s log shows what happened after the conversion."));
    }
}

/* ATC writes OUTPUT.om relative to the folder it runs in. */
static char *
dup_om_path (SlConvertWorkflow *self,
             SlRemoteRun       *run)
{
  g_autofree char *name = sl_atc_command_dup_om_path (self->command);
  g_autofree char *resolved = NULL;

  if (name == NULL || g_path_is_absolute (name))
    return g_steal_pointer (&name);
  resolved = sl_target_shell_resolve_dir (sl_workflow_ensure_shell (WORKFLOW (self)), sl_remote_run_get_remote_dir (run),
                                          FALSE, NULL, NULL);
  return g_build_path ("/", resolved ? resolved : sl_remote_run_get_remote_dir (run), name, NULL);
}

static void
locate_output (SlConvertWorkflow *self,
               SlRemoteRun       *run,
               GCancellable      *cancellable)
{
  SlTargetShell *shell = sl_workflow_ensure_shell (WORKFLOW (self));
  g_autofree char *om = dup_om_path (self, run);
  g_autoptr(GFileInfo) info = om ? sl_target_shell_stat (shell, om, cancellable, NULL) : NULL;
  g_autofree char *message = NULL;

  if (info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR)
    {
      self->output = g_steal_pointer (&om);
      if (sl_target_shell_is_local (shell))
        self->local_output = g_strdup (self->output);
      return;
    }
  message = g_strdup_printf (_("ATC said it succeeded, but %s is not there"), om ? om : "");
  add_problem (self, sl_problem_new_at_position (SL_SEVERITY_ERROR, "atc", sl_workflow_get_log_path (WORKFLOW (self)), -1,
                                                 0, 0, "--output", message),
               _("The output name may point into a folder ATC could not write; check --output and the job’s log."));
}

/* The project keeps its converted models, so the window can offer them
 * to its pipelines later; a database that cannot be written is a warning,
 * the model is there all the same. */
static void
register_output (SlConvertWorkflow *self)
{
  const char *store_path = sl_workflow_get_store_path (WORKFLOW (self));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GError) error = NULL;
  SlProjectOutputRow row = { 0 };

  if (store_path == NULL || self->output == NULL)
    return;
  row.project_folder = (char *)sl_workflow_get_project_dir (WORKFLOW (self));
  row.target_name = (char *)sl_target_get_name (sl_workflow_get_target (WORKFLOW (self)));
  row.kind = (char *)"om";
  row.path = self->output;
  row.source = (char *)sl_atc_command_get_model (self->command);
  if (!(store = sl_workspace_store_new_for_path (store_path, &error)) ||
      !sl_workspace_store_add_project_output (store, &row, &error))
    add_problem (self, sl_problem_new (SL_SEVERITY_WARNING, "workspace", store_path, -1, error->message),
                 _("The model was converted; only the project’s list of outputs misses it."));
}

static void
sl_convert_workflow_reset (SlWorkflow *workflow)
{
  SlConvertWorkflow *self = SL_CONVERT_WORKFLOW (workflow);

  g_clear_pointer (&self->output, g_free);
  g_clear_pointer (&self->local_output, g_free);
  g_clear_pointer (&self->plogs, g_strfreev);
  g_clear_pointer (&self->local_plogs, g_strfreev);
}

static gboolean
sl_convert_workflow_run_stages (SlWorkflow    *workflow,
                                GCancellable  *cancellable,
                                GError       **error)
{
  SlConvertWorkflow *self = SL_CONVERT_WORKFLOW (workflow);
  g_auto(GStrv) atc_argv = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  g_autoptr(GError) job_error = NULL;
  SlPreflightSpec spec = { 0 };
  gboolean ready;

  if (!(run = create_run (self, &atc_argv, error)))
    {
      /* The fields are reported as problems; nothing else was tried. */
      if (atc_argv == NULL)
        {
          g_autoptr(GPtrArray) found = sl_atc_command_validate (self->command);

          g_clear_error (error);
          sl_workflow_add_problems (workflow, found);
          return TRUE;
        }
      return FALSE;
    }
  fill_spec (self, run, &spec);

  sl_workflow_set_stage (workflow, SL_CONVERT_STAGE_PREFLIGHT);
  /* Both run, so one go names every missing thing. */
  ready = sl_workflow_run_preflight (workflow, &spec, cancellable);
  ready = check_inputs (self, cancellable) && ready;
  if (!ready)
    return !sl_workflow_set_error_if_interrupted_before (workflow, cancellable, error);
  if (sl_workflow_set_error_if_interrupted_before (workflow, cancellable, error))
    return FALSE;

  sl_workflow_set_stage (workflow, SL_CONVERT_STAGE_CONVERTING);
  switch (sl_workflow_run_job (workflow, run, (const char * const *)atc_argv, cancellable, &job_error))
    {
    case SL_WORKFLOW_JOB_INTERRUPTED:
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

  read_log (self, cancellable);
  if (sl_workflow_count_errors (workflow) == 0)
    locate_output (self, run, cancellable);
  register_output (self);
  return TRUE;
}

char *
sl_convert_workflow_dup_dry_run (SlConvertWorkflow  *self,
                                 GError            **error)
{
  g_auto(GStrv) atc_argv = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  g_autofree char *preflight = NULL;
  g_autofree char *launch = NULL;
  SlPreflightSpec spec = { 0 };

  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), NULL);

  if (!(run = create_run (self, &atc_argv, error)) || !(launch = sl_remote_run_dup_launch_command (run, error)))
    return NULL;
  fill_spec (self, run, &spec);
  preflight = sl_preflight_dup_script (&spec);
  return g_strdup_printf ("# %s\n%s# %s\n%s\n", _("Preflight"), preflight, _("Convert"), launch);
}

SlConvertStage
sl_convert_workflow_get_stage (SlConvertWorkflow *self)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), SL_CONVERT_STAGE_IDLE);
  return sl_workflow_get_stage (WORKFLOW (self));
}

const char *
sl_convert_stage_to_label (SlConvertStage stage)
{
  switch (stage)
    {
    case SL_CONVERT_STAGE_PREFLIGHT:
      return _("Checking the target");
    case SL_CONVERT_STAGE_CONVERTING:
      return _("Uploading and converting");
    case SL_CONVERT_STAGE_PULLING_LOGS:
      return _("Pulling ATC’s logs");
    case SL_CONVERT_STAGE_DONE:
      return _("Done");
    case SL_CONVERT_STAGE_IDLE:
    default:
      return "";
    }
}

static const char *
sl_convert_workflow_stage_label (SlWorkflow *workflow,
                                 int         stage)
{
  return sl_convert_stage_to_label (stage);
}

const char *
sl_convert_workflow_get_output (SlConvertWorkflow *self)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), NULL);
  return self->output;
}

const char *
sl_convert_workflow_get_local_output (SlConvertWorkflow *self)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), NULL);
  return self->local_output;
}

/**
 * sl_convert_workflow_dup_local_source:
 *
 * Where the model ATC read is on this computer: a relative --model in the
 * project folder here (it went up with it), an absolute one when the
 * target is this computer (known once the output was found there).
 * Whether the file is still there is not checked.
 *
 * Returns: (transfer full) (nullable): the path, or %NULL when the model
 *   is not on this computer or no model was given
 */
char *
sl_convert_workflow_dup_local_source (SlConvertWorkflow *self)
{
  const char *model;

  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), NULL);

  model = sl_atc_command_get_model (self->command);
  if (model == NULL || model[0] == '\0')
    return NULL;
  if (!g_path_is_absolute (model))
    return g_build_filename (sl_workflow_get_project_dir (WORKFLOW (self)), model, NULL);
  return self->local_output != NULL ? g_strdup (model) : NULL;
}

const char * const *
sl_convert_workflow_get_plogs (SlConvertWorkflow *self)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), NULL);
  return (const char * const *)self->plogs;
}

const char * const *
sl_convert_workflow_get_local_plogs (SlConvertWorkflow *self)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), NULL);
  return (const char * const *)self->local_plogs;
}

static gboolean
sl_convert_workflow_real_succeeded (SlWorkflow *workflow)
{
  return SL_CONVERT_WORKFLOW (workflow)->output != NULL && sl_workflow_count_errors (workflow) == 0;
}

void
sl_convert_workflow_set_shell (SlConvertWorkflow *self,
                               SlTargetShell     *shell)
{
  g_return_if_fail (SL_IS_CONVERT_WORKFLOW (self));
  sl_workflow_set_shell (WORKFLOW (self), shell);
}

static void
sl_convert_workflow_finalize (GObject *object)
{
  SlConvertWorkflow *self = SL_CONVERT_WORKFLOW (object);

  g_clear_object (&self->command);
  g_free (self->output);
  g_free (self->local_output);
  g_strfreev (self->plogs);
  g_strfreev (self->local_plogs);

  G_OBJECT_CLASS (sl_convert_workflow_parent_class)->finalize (object);
}

static void
sl_convert_workflow_class_init (SlConvertWorkflowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  SlWorkflowClass *workflow_class = SL_WORKFLOW_CLASS (klass);

  object_class->finalize = sl_convert_workflow_finalize;

  /* "stage" is an SlConvertStage. */
  workflow_class->done_stage = SL_CONVERT_STAGE_DONE;
  workflow_class->run_stages = sl_convert_workflow_run_stages;
  workflow_class->reset = sl_convert_workflow_reset;
  workflow_class->succeeded = sl_convert_workflow_real_succeeded;
  workflow_class->stage_label = sl_convert_workflow_stage_label;
}

static void
sl_convert_workflow_init (SlConvertWorkflow *self)
{
}

SlConvertWorkflow *
sl_convert_workflow_new (SlTarget     *target,
                         const char   *project_dir,
                         SlAtcCommand *command)
{
  SlConvertWorkflow *self;

  g_return_val_if_fail (SL_IS_TARGET (target), NULL);
  g_return_val_if_fail (project_dir != NULL, NULL);
  g_return_val_if_fail (SL_IS_ATC_COMMAND (command), NULL);

  self = g_object_new (SL_TYPE_CONVERT_WORKFLOW, "target", target, "project-dir", project_dir, NULL);
  self->command = g_object_ref (command);
  return self;
}
