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
#include "sl-cache.h"
#include "sl-convert-workflow.h"
#include "sl-job-controller.h"
#include "sl-problem.h"
#include "sl-remote-run.h"
#include "sl-shell-quote.h"
#include "sl-transfer.h"
#include "sl-workflow-job.h"
#include "sl-workflow-path.h"
#include "sl-workflow-preflight.h"
#include "sl-workflow-thread.h"
#include "sl-workspace.h"
#include "sl-workspace-store-outputs.h"

#define MIN_FREE_KB (256 * 1024)
#define MAX_PLOGS 4
#define INPUT_PREFIX "sl-input "

struct _SlConvertWorkflow
{
  GObject         parent_instance;

  SlTarget       *target;
  SlAtcCommand   *command;
  SlTargetShell  *shell;
  char           *project_dir;
  char           *env_script;
  char           *remote_dir;
  char           *store_path;

  GMainContext   *notify_context;  /* where "stage" is notified when run in a thread */
  SlConvertStage  notified_stage;  /* read on the notify context, written only there */
  GPtrArray      *problems;
  GString        *log;
  char           *output;
  char           *local_output;
  char           *log_path;
  char           *local_log;
  GStrv           plogs;
  GStrv           local_plogs;
  int             exit_code;
};

G_DEFINE_FINAL_TYPE (SlConvertWorkflow, sl_convert_workflow, G_TYPE_OBJECT)

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
  SlConvertWorkflow *self;
  SlConvertStage     stage;
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
set_stage (SlConvertWorkflow *self,
           SlConvertStage     stage)
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
add_problem (SlConvertWorkflow *self,
             SlProblem         *problem,
             const char        *hint)
{
  if (hint != NULL)
    sl_problem_set_hint (problem, hint);
  g_ptr_array_add (self->problems, problem);
}

/* Sourcing the environment script, as the job's set-up. */
static char *
dup_env_setup (SlConvertWorkflow *self)
{
  g_autofree char *quoted = NULL;

  if (self->env_script == NULL)
    return NULL;
  quoted = sl_shell_quote_remote_path (self->env_script);
  return g_strdup_printf (". %s", quoted);
}

static SlRemoteRun *
create_run (SlConvertWorkflow  *self,
            GStrv              *atc_argv,
            GError            **error)
{
  g_autofree char *env_setup = NULL;
  SlRemoteRun *run;

  if (!(*atc_argv = sl_atc_command_dup_argv (self->command, error)))
    return NULL;
  if (self->env_script != NULL && !sl_workflow_path_check (self->env_script, _("The environment script"), error))
    return NULL;
  env_setup = dup_env_setup (self);
  run = sl_remote_run_new (self->target, self->project_dir, (const char * const *)*atc_argv);
  sl_remote_run_set_remote_dir (run, self->remote_dir);
  sl_remote_run_set_env_setup (run, env_setup);
  sl_remote_run_set_store_path (run, self->store_path);
  return run;
}

/* ATC runs on the operator compiler's Python, so `python` counts. */
static void
fill_spec (SlConvertWorkflow *self,
           SlRemoteRun       *run,
           SlPreflightSpec   *spec)
{
  spec->tool = "atc";
  spec->env_script = self->env_script;
  spec->output_dir = sl_remote_run_get_remote_dir (run);
  spec->min_free_kb = MIN_FREE_KB;
  spec->device_id = -1;
  /* ATC does not run `python`: a Python 2 there is a note, not a refusal. */
  spec->python_note = TRUE;
}

/* Runs the preflight; its problems are kept. FALSE when one is an error. */
static gboolean
run_preflight (SlConvertWorkflow     *self,
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
    : g_strdup_printf (_("%s is not in the project folder %s"), input->path, self->project_dir);

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
      local = g_build_filename (self->project_dir, inputs[i].path, NULL);
      if (!g_file_test (local, G_FILE_TEST_IS_REGULAR))
        {
          add_missing_input (self, &inputs[i], FALSE);
          ok = FALSE;
        }
    }
  if (script->len == 0 || !sl_target_shell_run (self->shell, script->str, &out, NULL, &status, cancellable, NULL))
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

static void
log_cb (SlRemoteRun       *run,
        GBytes            *data,
        SlConvertWorkflow *self)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (self->log, bytes, size);
  g_signal_emit (self, signals[LOG], 0, data);
}

static void
message_cb (SlRemoteRun       *run,
            const char        *text,
            SlConvertWorkflow *self)
{
  g_signal_emit (self, signals[MESSAGE], 0, text);
}

/* The plog files written since the job started: find's -newer compares
 * with the job's cmd file, written when it was launched. The environment
 * script may move the logs (ASCEND_PROCESS_LOG_PATH), so it is sourced. */
static GStrv
find_plogs (SlConvertWorkflow *self,
            GCancellable      *cancellable)
{
  g_autofree char *env_setup = dup_env_setup (self);
  g_autofree char *job_dir = g_path_get_dirname (self->log_path);
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

  if (sl_target_shell_run (self->shell, command, &out, NULL, &status, cancellable, NULL))
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
      g_autofree char *path = sl_workflow_dup_cache_path (self->target, remote[i], NULL);
      g_autofree char *dir = path ? g_path_get_dirname (path) : NULL;
      g_autoptr(GFile) file = path ? g_file_new_for_path (path) : NULL;

      if (file == NULL || g_mkdir_with_parents (dir, 0700) != 0 ||
          !sl_target_shell_continue_download (self->shell, remote[i], file, cancellable, NULL))
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
  g_autoptr(GPtrArray) found = NULL;
  g_autofree const char **copies = NULL;
  SlAtcOutcome outcome = SL_ATC_OUTCOME_UNKNOWN;

  found = sl_atc_log_parse (self->log->str, self->log->len, self->log_path, self->exit_code, &outcome);
  set_stage (self, SL_CONVERT_STAGE_PULLING_LOGS);
  self->plogs = find_plogs (self, cancellable);
  self->local_plogs = pull_files (self, (const char * const *)self->plogs, cancellable);
  copies = dup_copies_or_null (self->local_plogs);
  sl_atc_log_add_plogs (found, (const char * const *)self->plogs, copies);
  for (guint i = 0; i < found->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (found, i);

      sl_problem_set_local_copy (problem, self->local_log);
      g_ptr_array_add (self->problems, g_object_ref (problem));
    }
  if (outcome == SL_ATC_OUTCOME_SUCCESS && self->exit_code != 0)
    {
      g_autofree char *message = g_strdup_printf (_("ATC said it succeeded but exited with %d"), self->exit_code);
      SlProblem *problem = sl_problem_new (SL_SEVERITY_ERROR, "atc", self->log_path, -1, message);

      sl_problem_set_local_copy (problem, self->local_log);
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
  resolved = sl_target_shell_resolve_dir (self->shell, sl_remote_run_get_remote_dir (run), FALSE, NULL, NULL);
  return g_build_path ("/", resolved ? resolved : sl_remote_run_get_remote_dir (run), name, NULL);
}

static void
locate_output (SlConvertWorkflow *self,
               SlRemoteRun       *run,
               GCancellable      *cancellable)
{
  g_autofree char *om = dup_om_path (self, run);
  g_autoptr(GFileInfo) info = om ? sl_target_shell_stat (self->shell, om, cancellable, NULL) : NULL;
  g_autofree char *message = NULL;

  if (info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR)
    {
      self->output = g_steal_pointer (&om);
      if (sl_target_shell_is_local (self->shell))
        self->local_output = g_strdup (self->output);
      return;
    }
  message = g_strdup_printf (_("ATC said it succeeded, but %s is not there"), om ? om : "");
  add_problem (self, sl_problem_new_at_position (SL_SEVERITY_ERROR, "atc", self->log_path, -1, 0, 0, "--output", message),
               _("The output name may point into a folder ATC could not write; check --output and the job’s log."));
}

/* The project keeps its converted models, so the window can offer them
 * to its pipelines later; a database that cannot be written is a warning,
 * the model is there all the same. */
static void
register_output (SlConvertWorkflow *self)
{
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GError) error = NULL;
  SlProjectOutputRow row = { 0 };

  if (self->store_path == NULL || self->output == NULL)
    return;
  row.project_folder = self->project_dir;
  row.target_name = (char *)sl_target_get_name (self->target);
  row.kind = (char *)"om";
  row.path = self->output;
  row.source = (char *)sl_atc_command_get_model (self->command);
  if (!(store = sl_workspace_store_new_for_path (self->store_path, &error)) ||
      !sl_workspace_store_add_project_output (store, &row, &error))
    add_problem (self, sl_problem_new (SL_SEVERITY_WARNING, "workspace", self->store_path, -1, error->message),
                 _("The model was converted; only the project’s list of outputs misses it."));
}

static gboolean
has_error (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    if (sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR)
      return TRUE;
  return FALSE;
}

static void
reset_outcome (SlConvertWorkflow *self)
{
  g_ptr_array_set_size (self->problems, 0);
  g_string_truncate (self->log, 0);
  g_clear_pointer (&self->output, g_free);
  g_clear_pointer (&self->local_output, g_free);
  g_clear_pointer (&self->log_path, g_free);
  g_clear_pointer (&self->local_log, g_free);
  g_clear_pointer (&self->plogs, g_strfreev);
  g_clear_pointer (&self->local_plogs, g_strfreev);
  self->exit_code = -1;
}

static void
add_validation_problems (SlConvertWorkflow *self)
{
  g_autoptr(GPtrArray) found = sl_atc_command_validate (self->command);

  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (self->problems, g_object_ref (g_ptr_array_index (found, i)));
}

static gboolean
run_stages (SlConvertWorkflow  *self,
            GCancellable       *cancellable,
            GError            **error)
{
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
          g_clear_error (error);
          add_validation_problems (self);
          return TRUE;
        }
      return FALSE;
    }
  if (self->shell == NULL)
    self->shell = sl_target_shell_new_for_target (self->target);
  fill_spec (self, run, &spec);

  set_stage (self, SL_CONVERT_STAGE_PREFLIGHT);
  /* Both run, so one go names every missing thing. */
  ready = run_preflight (self, &spec, cancellable);
  ready = check_inputs (self, cancellable) && ready;
  if (!ready)
    return !sl_workflow_set_error_if_interrupted_before (cancellable, self->target, error);
  if (sl_workflow_set_error_if_interrupted_before (cancellable, self->target, error))
    return FALSE;

  set_stage (self, SL_CONVERT_STAGE_CONVERTING);
  g_signal_connect (run, "message", G_CALLBACK (message_cb), self);
  g_signal_connect (run, "log", G_CALLBACK (log_cb), self);
  if (!sl_workflow_run_job (run, self->store_path, (const char * const *)atc_argv, cancellable,
                            &self->exit_code, &job_error))
    {
      self->exit_code = -1;
      if (g_cancellable_is_cancelled (cancellable))
        {
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

  read_log (self, cancellable);
  if (!has_error (self->problems))
    locate_output (self, run, cancellable);
  register_output (self);
  return TRUE;
}

gboolean
sl_convert_workflow_run (SlConvertWorkflow  *self,
                         GCancellable       *cancellable,
                         GError            **error)
{
  gboolean ok;

  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reset_outcome (self);
  ok = run_stages (self, cancellable, error);
  set_stage (self, SL_CONVERT_STAGE_DONE);
  return ok;
}

static gboolean
run_in_thread (gpointer       workflow,
               GCancellable  *cancellable,
               GError       **error)
{
  return sl_convert_workflow_run (workflow, cancellable, error);
}

void
sl_convert_workflow_run_async (SlConvertWorkflow  *self,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_CONVERT_WORKFLOW (self));

  g_clear_pointer (&self->notify_context, g_main_context_unref);
  self->notify_context = g_main_context_ref_thread_default ();
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_convert_workflow_run_async);
  /* The outcome is read after the callback, so a cancelled run still
   * returns once its job has stopped. */
  g_task_set_return_on_cancel (task, FALSE);
  sl_workflow_thread_run (task, "sl-convert-workflow", run_in_thread);
}

gboolean
sl_convert_workflow_run_finish (SlConvertWorkflow  *self,
                                GAsyncResult       *result,
                                GError            **error)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
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
  return self->notified_stage;
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

#define DEFINE_STRING_GETTER(field) \
  const char * \
  sl_convert_workflow_get_##field (SlConvertWorkflow *self) \
  { \
    g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), NULL); \
    return self->field; \
  }

DEFINE_STRING_GETTER (output)
DEFINE_STRING_GETTER (local_output)
DEFINE_STRING_GETTER (log_path)
DEFINE_STRING_GETTER (local_log)

#undef DEFINE_STRING_GETTER

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

int
sl_convert_workflow_get_exit_code (SlConvertWorkflow *self)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), -1);
  return self->exit_code;
}

GPtrArray *
sl_convert_workflow_get_problems (SlConvertWorkflow *self)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), NULL);
  return self->problems;
}

gboolean
sl_convert_workflow_succeeded (SlConvertWorkflow *self)
{
  g_return_val_if_fail (SL_IS_CONVERT_WORKFLOW (self), FALSE);
  return self->output != NULL && !has_error (self->problems);
}

void
sl_convert_workflow_set_env_script (SlConvertWorkflow *self,
                                    const char        *env_script)
{
  g_return_if_fail (SL_IS_CONVERT_WORKFLOW (self));
  g_free (self->env_script);
  self->env_script = env_script && env_script[0] ? g_strdup (env_script) : NULL;
}

void
sl_convert_workflow_set_remote_dir (SlConvertWorkflow *self,
                                    const char        *remote_dir)
{
  g_return_if_fail (SL_IS_CONVERT_WORKFLOW (self));
  g_free (self->remote_dir);
  self->remote_dir = g_strdup (remote_dir);
}

void
sl_convert_workflow_set_store_path (SlConvertWorkflow *self,
                                    const char        *store_path)
{
  g_return_if_fail (SL_IS_CONVERT_WORKFLOW (self));
  g_free (self->store_path);
  self->store_path = g_strdup (store_path);
}

void
sl_convert_workflow_set_shell (SlConvertWorkflow *self,
                               SlTargetShell     *shell)
{
  g_return_if_fail (SL_IS_CONVERT_WORKFLOW (self));
  g_set_object (&self->shell, shell);
}

static void
sl_convert_workflow_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SlConvertWorkflow *self = SL_CONVERT_WORKFLOW (object);

  switch (prop_id)
    {
    case PROP_STAGE:
      g_value_set_int (value, sl_convert_workflow_get_stage (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_convert_workflow_finalize (GObject *object)
{
  SlConvertWorkflow *self = SL_CONVERT_WORKFLOW (object);

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
  g_free (self->output);
  g_free (self->local_output);
  g_free (self->log_path);
  g_free (self->local_log);
  g_strfreev (self->plogs);
  g_strfreev (self->local_plogs);

  G_OBJECT_CLASS (sl_convert_workflow_parent_class)->finalize (object);
}

static void
sl_convert_workflow_class_init (SlConvertWorkflowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_convert_workflow_get_property;
  object_class->finalize = sl_convert_workflow_finalize;

  /* An SlConvertStage; notified in the context run_async was called from. */
  properties[PROP_STAGE] =
    g_param_spec_int ("stage", NULL, NULL, SL_CONVERT_STAGE_IDLE, SL_CONVERT_STAGE_DONE, SL_CONVERT_STAGE_IDLE,
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
sl_convert_workflow_init (SlConvertWorkflow *self)
{
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
  self->log = g_string_new (NULL);
  self->exit_code = -1;
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

  self = g_object_new (SL_TYPE_CONVERT_WORKFLOW, NULL);
  self->target = g_object_ref (target);
  self->command = g_object_ref (command);
  self->project_dir = g_strdup (project_dir);
  return self;
}
