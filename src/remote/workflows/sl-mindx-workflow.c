/* sl-mindx-workflow.c: runs a MindX SDK app on a target, from the pipeline check to the pulled output
 *
 * The pipeline is checked here first, as the SDK's stream manager would
 * check it: its errors stop the run, as Problems naming the file and the
 * element. Then the project is uploaded and the app started as a job in
 * the environment the SDK's run.sh sets up, its log streamed, the output
 * folders pulled, and the SDK's error codes in the log turned into
 * Problems with their meaning, the log's line and what to try. The CLI
 * and the window both run this, so they report the same.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-cache.h"
#include "sl-job-controller.h"
#include "sl-local-target.h"
#include "sl-mindx-env.h"
#include "sl-mindx-errors.h"
#include "sl-mindx-workflow.h"
#include "sl-pipeline-check.h"
#include "sl-pipeline-reader.h"
#include "sl-problem.h"
#include "sl-remote-run.h"
#include "sl-shell-quote.h"
#include "sl-transfer.h"
#include "sl-workflow-job.h"
#include "sl-workflow-thread.h"
#include "sl-workspace.h"

#define SOURCE "mindx"
#define SHELL_NAME_CHARACTERS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

struct _SlMindxWorkflow
{
  GObject          parent_instance;

  SlTarget        *target;
  SlMindxSettings *settings;
  char            *project_dir;
  char           **args;
  char           **environment;
  char            *env_script;
  char            *remote_dir;
  char           **pull_dirs;
  char           **excludes;
  char            *store_path;

  GMainContext    *notify_context;  /* where "stage" is notified when run in a thread */
  SlMindxStage     notified_stage;  /* read on the notify context, written only there */
  GPtrArray       *problems;
  GString         *log;
  char            *log_path;
  char            *local_log;
  char           **pulled;
  int              exit_code;
};

G_DEFINE_FINAL_TYPE (SlMindxWorkflow, sl_mindx_workflow, G_TYPE_OBJECT)

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
  SlMindxWorkflow *self;
  SlMindxStage     stage;
} StageNote;

static void
stage_note_free (gpointer data)
{
  StageNote *note = data;

  g_object_unref (note->self);
  g_free (note);
}

static gboolean
notify_stage_cb (gpointer data)
{
  StageNote *note = data;

  note->self->notified_stage = note->stage;
  g_object_notify_by_pspec (G_OBJECT (note->self), properties[PROP_STAGE]);
  return G_SOURCE_REMOVE;
}

/* Each change carries its own stage, so a quick run still reports every
 * stage, in order, on the notify context. */
static void
set_stage (SlMindxWorkflow *self,
           SlMindxStage     stage)
{
  if (self->notify_context != NULL)
    {
      StageNote *note = g_new0 (StageNote, 1);

      note->self = g_object_ref (self);
      note->stage = stage;
      g_main_context_invoke_full (self->notify_context, G_PRIORITY_DEFAULT, notify_stage_cb, note, stage_note_free);
    }
  else
    {
      self->notified_stage = stage;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STAGE]);
    }
}

static void
add_problem (SlMindxWorkflow *self,
             SlProblem       *problem,
             const char      *hint)
{
  if (hint != NULL)
    sl_problem_set_hint (problem, hint);
  g_ptr_array_add (self->problems, problem);
}

GStrv
sl_mindx_workflow_dup_environment (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);
  return sl_mindx_dup_env (self->settings->sdk_home ? self->settings->sdk_home : "", self->settings->toolkit);
}

char *
sl_mindx_workflow_dup_env_setup (SlMindxWorkflow  *self,
                                 GError          **error)
{
  g_autofree char *exports = NULL;
  GString *setup;

  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);

  if (!sl_mindx_settings_check_sdk_home (self->settings->sdk_home, error) ||
      !(exports = sl_mindx_dup_env_setup (self->settings->sdk_home, self->settings->toolkit, error)))
    return NULL;
  setup = g_string_new (NULL);
  if (self->env_script != NULL)
    {
      g_autofree char *quoted = sl_shell_quote_remote_path (self->env_script);

      g_string_append_printf (setup, ". %s\n", quoted);
    }
  g_string_append (setup, exports);
  for (guint i = 0; self->environment != NULL && self->environment[i] != NULL; i++)
    {
      const char *equals = strchr (self->environment[i], '=');
      g_autofree char *name = equals ? g_strndup (self->environment[i], equals - self->environment[i]) : NULL;
      g_autofree char *value = equals ? sl_shell_quote (equals + 1) : NULL;

      /* The Project dialog checks names; anything else is not exported. */
      if (name != NULL && name[0] != '\0' && strspn (name, SHELL_NAME_CHARACTERS) == strlen (name) &&
          !g_ascii_isdigit (name[0]))
        g_string_append_printf (setup, "export %s=%s\n", name, value);
    }
  /* The job wrapper ends each set-up line itself. */
  while (setup->len > 0 && setup->str[setup->len - 1] == '\n')
    g_string_truncate (setup, setup->len - 1);
  return g_string_free (setup, FALSE);
}

GStrv
sl_mindx_workflow_dup_argv (SlMindxWorkflow  *self,
                            GError          **error)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);

  if (!sl_mindx_settings_check_entry (self->settings->entry, error))
    return NULL;
  return sl_mindx_dup_argv (self->settings->entry, (const char * const *)self->args, error);
}

static SlRemoteRun *
create_run (SlMindxWorkflow  *self,
            GStrv            *argv,
            GError          **error)
{
  g_autofree char *setup = NULL;
  SlRemoteRun *run;

  if (!(setup = sl_mindx_workflow_dup_env_setup (self, error)) || !(*argv = sl_mindx_workflow_dup_argv (self, error)))
    return NULL;
  run = sl_remote_run_new (self->target, self->project_dir, (const char * const *)*argv);
  sl_remote_run_set_remote_dir (run, self->remote_dir);
  sl_remote_run_set_pull_dirs (run, (const char * const *)self->pull_dirs);
  sl_remote_run_set_excludes (run, (const char * const *)self->excludes);
  sl_remote_run_set_env_setup (run, setup);
  sl_remote_run_set_store_path (run, self->store_path);
  return run;
}

char *
sl_mindx_workflow_dup_preview (SlMindxWorkflow  *self,
                               GError          **error)
{
  g_autofree char *setup = NULL;
  g_auto(GStrv) argv = NULL;
  g_autofree char *command = NULL;
  GString *out;

  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);

  if (!(setup = sl_mindx_workflow_dup_env_setup (self, error)) || !(argv = sl_mindx_workflow_dup_argv (self, error)))
    return NULL;
  command = sl_shell_quote_argv ((const char * const *)argv);
  out = g_string_new (NULL);
  g_string_append_printf (out, "# %s\n%s\n", _("The environment, as the SDK’s run.sh sets it"), setup);
  g_string_append_printf (out, "# %s\n%s\n", _("The app, in the remote project folder"), command);
  return g_string_free (out, FALSE);
}

char *
sl_mindx_workflow_dup_dry_run (SlMindxWorkflow  *self,
                               GError          **error)
{
  g_autofree char *preview = NULL;
  g_autofree char *launch = NULL;
  g_autoptr(SlRemoteRun) run = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);

  if (!(preview = sl_mindx_workflow_dup_preview (self, error)) || !(run = create_run (self, &argv, error)) ||
      !(launch = sl_remote_run_dup_launch_command (run, error)))
    return NULL;
  return g_strdup_printf ("%s# %s\n%s\n", preview, _("The command that starts the job"), launch);
}

gboolean
sl_mindx_workflow_check_pipeline (SlMindxWorkflow *self)
{
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(GHashTable) plugins = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), FALSE);

  if (!(path = sl_mindx_settings_dup_pipeline_path (self->settings, self->project_dir)))
    return TRUE;
  file = g_file_new_for_path (path);
  if (!(pipeline = sl_pipeline_reader_read_file (file, NULL, &error)))
    {
      add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, SOURCE, path, -1, error->message),
                   _("The pipeline file is read from the project on this computer before it is uploaded."));
      return FALSE;
    }
  plugins = sl_pipeline_check_load_user_plugins (NULL);
  found = sl_pipeline_check (pipeline, self->project_dir, plugins);
  for (guint i = 0; i < found->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (found, i);

      ok = ok && sl_problem_get_severity (problem) != SL_SEVERITY_ERROR;
      g_ptr_array_add (self->problems, g_object_ref (problem));
    }
  return ok;
}

static void
log_cb (SlRemoteRun     *run,
        GBytes          *data,
        SlMindxWorkflow *self)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (self->log, bytes, size);
  g_signal_emit (self, signals[LOG], 0, data);
}

static void
message_cb (SlRemoteRun     *run,
            const char      *text,
            SlMindxWorkflow *self)
{
  g_signal_emit (self, signals[MESSAGE], 0, text);
}

/* Writes the job's log, as it streamed, into the cache beside the pulled
 * folders, so "see the log" names a file on this computer too. */
static char *
save_log (SlTarget   *target,
          const char *remote_log,
          GString    *log)
{
  /* On this computer the job's log is already a local file. */
  if (remote_log != NULL && SL_IS_LOCAL_TARGET (target))
    return g_strdup (remote_log);
  return sl_workflow_save_log (target, remote_log, log);
}

/* The SDK's codes in the log; the local copy is named when there is one,
 * so a Problem opens at its line. */
static void
add_log_problems (SlMindxWorkflow *self)
{
  const char *log = self->local_log ? self->local_log : self->log_path;
  g_autoptr(GPtrArray) found = sl_mindx_log_parse (self->log->str, self->log->len, log);

  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (self->problems, g_object_ref (g_ptr_array_index (found, i)));

  if (self->exit_code != 0 && found->len == 0)
    {
      const char *why = sl_remote_run_explain_exit (self->exit_code);
      g_autofree char *message = self->exit_code >= 0
        ? g_strdup_printf (_("The MindX app exited with %d%s%s"), self->exit_code, why ? ": " : "", why ? why : "")
        : g_strdup (_("The MindX app ended without an exit code (killed, or the target restarted)"));
      g_autofree char *hint = g_strdup_printf (_("The job’s log (%s) holds the app’s output; the SDK’s own logs are under $MX_SDK_HOME/logs on the target."),
                                               self->log_path ? self->log_path : "?");

      add_problem (self, sl_problem_new_at_line (SL_SEVERITY_ERROR, SOURCE, log, MAX (sl_workflow_count_lines (self->log), 1), message),
                   hint);
    }
}

static guint
count_errors (GPtrArray *problems)
{
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    n += sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR;
  return n;
}

/* The samples print the SDK's code and exit with 0: the job history
 * records the run as failed, as the Console and Problems say it, with why. */
static void
record_outcome (SlMindxWorkflow *self,
                SlRemoteRun     *run)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  gint64 job_id = sl_remote_run_get_job_id (run);
  guint errors = count_errors (self->problems);

  if (self->exit_code != 0 || errors == 0 || job_id <= 0)
    return;

  reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "exit 0, but the log holds %u SDK error",
                                         "exit 0, but the log holds %u SDK errors", errors), errors);
  if (!sl_workflow_record_outcome (self->store_path, job_id, FALSE, reason, &error))
    add_problem (self, sl_problem_new (SL_SEVERITY_WARNING, "job", self->store_path, -1, error->message),
                 _("The job history may show this run as succeeded; Problems holds its errors."));
}

static void
keep_pulled (SlMindxWorkflow *self,
             SlRemoteRun     *run)
{
  g_strfreev (self->pulled);
  self->pulled = sl_remote_run_dup_local_pull_dirs (run);
}

static void
reset_outcome (SlMindxWorkflow *self)
{
  g_ptr_array_set_size (self->problems, 0);
  g_string_truncate (self->log, 0);
  g_clear_pointer (&self->log_path, g_free);
  g_clear_pointer (&self->local_log, g_free);
  g_clear_pointer (&self->pulled, g_strfreev);
  self->exit_code = -1;
}

static gboolean
run_stages (SlMindxWorkflow  *self,
            GCancellable     *cancellable,
            GError          **error)
{
  g_auto(GStrv) argv = NULL;
  g_autoptr(SlRemoteRun) run = create_run (self, &argv, error);
  g_autoptr(GError) job_error = NULL;

  if (run == NULL)
    return FALSE;

  set_stage (self, SL_MINDX_STAGE_CHECKING);
  if (!sl_mindx_workflow_check_pipeline (self))
    return TRUE;
  if (sl_workflow_set_error_if_interrupted_before (cancellable, self->target, error))
    return FALSE;

  set_stage (self, SL_MINDX_STAGE_RUNNING);
  g_signal_connect (run, "message", G_CALLBACK (message_cb), self);
  g_signal_connect (run, "log", G_CALLBACK (log_cb), self);
  if (!sl_workflow_run_job (run, self->store_path, (const char * const *)argv, cancellable,
                            &self->exit_code, &job_error))
    {
      self->exit_code = -1;
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_propagate_error (error, g_steal_pointer (&job_error));
          return FALSE;
        }
      self->log_path = g_strdup (sl_remote_run_get_log_path (run));
      add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "job", self->log_path, -1, job_error->message), NULL);
      return TRUE;
    }
  self->log_path = g_strdup (sl_remote_run_get_log_path (run));
  self->local_log = save_log (self->target, self->log_path, self->log);
  keep_pulled (self, run);
  add_log_problems (self);
  record_outcome (self, run);
  return TRUE;
}

gboolean
sl_mindx_workflow_run (SlMindxWorkflow  *self,
                       GCancellable     *cancellable,
                       GError          **error)
{
  gboolean ok;

  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reset_outcome (self);
  ok = run_stages (self, cancellable, error);
  set_stage (self, SL_MINDX_STAGE_DONE);
  return ok;
}

static gboolean
run_in_thread (gpointer       workflow,
               GCancellable  *cancellable,
               GError       **error)
{
  return sl_mindx_workflow_run (workflow, cancellable, error);
}

void
sl_mindx_workflow_run_async (SlMindxWorkflow     *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_MINDX_WORKFLOW (self));

  g_clear_pointer (&self->notify_context, g_main_context_unref);
  self->notify_context = g_main_context_ref_thread_default ();
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_mindx_workflow_run_async);
  sl_workflow_thread_run (task, "sl-mindx-workflow", run_in_thread);
}

gboolean
sl_mindx_workflow_run_finish (SlMindxWorkflow  *self,
                              GAsyncResult     *result,
                              GError          **error)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

SlMindxStage
sl_mindx_workflow_get_stage (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), SL_MINDX_STAGE_IDLE);
  return self->notified_stage;
}

const char *
sl_mindx_stage_to_label (SlMindxStage stage)
{
  switch (stage)
    {
    case SL_MINDX_STAGE_CHECKING:
      return _("Checking the pipeline");
    case SL_MINDX_STAGE_RUNNING:
      return _("Running the MindX app");
    case SL_MINDX_STAGE_DONE:
      return _("Done");
    case SL_MINDX_STAGE_IDLE:
    default:
      return "";
    }
}

const char *
sl_mindx_workflow_get_log_path (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);
  return self->log_path;
}

const char *
sl_mindx_workflow_get_local_log (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);
  return self->local_log;
}

const char * const *
sl_mindx_workflow_get_pulled (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);
  return (const char * const *)self->pulled;
}

int
sl_mindx_workflow_get_exit_code (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), -1);
  return self->exit_code;
}

GPtrArray *
sl_mindx_workflow_get_problems (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);
  return self->problems;
}

gboolean
sl_mindx_workflow_succeeded (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), FALSE);

  if (self->exit_code != 0)
    return FALSE;
  for (guint i = 0; i < self->problems->len; i++)
    if (sl_problem_get_severity (g_ptr_array_index (self->problems, i)) == SL_SEVERITY_ERROR)
      return FALSE;
  return TRUE;
}

static void
set_string (char       **field,
            const char  *value)
{
  g_free (*field);
  *field = value != NULL && value[0] != '\0' ? g_strdup (value) : NULL;
}

void
sl_mindx_workflow_set_env_script (SlMindxWorkflow *self,
                                  const char      *env_script)
{
  g_return_if_fail (SL_IS_MINDX_WORKFLOW (self));
  set_string (&self->env_script, env_script);
}

void
sl_mindx_workflow_set_environment (SlMindxWorkflow    *self,
                                   const char * const *environment)
{
  g_return_if_fail (SL_IS_MINDX_WORKFLOW (self));
  g_strfreev (self->environment);
  self->environment = g_strdupv ((char **)environment);
}

void
sl_mindx_workflow_set_remote_dir (SlMindxWorkflow *self,
                                  const char      *remote_dir)
{
  g_return_if_fail (SL_IS_MINDX_WORKFLOW (self));
  set_string (&self->remote_dir, remote_dir);
}

void
sl_mindx_workflow_set_pull_dirs (SlMindxWorkflow    *self,
                                 const char * const *pull_dirs)
{
  g_return_if_fail (SL_IS_MINDX_WORKFLOW (self));
  g_strfreev (self->pull_dirs);
  self->pull_dirs = g_strdupv ((char **)pull_dirs);
}

void
sl_mindx_workflow_set_excludes (SlMindxWorkflow    *self,
                                const char * const *excludes)
{
  g_return_if_fail (SL_IS_MINDX_WORKFLOW (self));
  g_strfreev (self->excludes);
  self->excludes = g_strdupv ((char **)excludes);
}

void
sl_mindx_workflow_set_store_path (SlMindxWorkflow *self,
                                  const char      *store_path)
{
  g_return_if_fail (SL_IS_MINDX_WORKFLOW (self));
  set_string (&self->store_path, store_path);
}

static void
sl_mindx_workflow_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SlMindxWorkflow *self = SL_MINDX_WORKFLOW (object);

  switch (prop_id)
    {
    case PROP_STAGE:
      g_value_set_int (value, sl_mindx_workflow_get_stage (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_mindx_workflow_finalize (GObject *object)
{
  SlMindxWorkflow *self = SL_MINDX_WORKFLOW (object);

  g_clear_object (&self->target);
  g_clear_pointer (&self->settings, sl_mindx_settings_free);
  g_clear_pointer (&self->notify_context, g_main_context_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_string_free (self->log, TRUE);
  g_free (self->project_dir);
  g_strfreev (self->args);
  g_strfreev (self->environment);
  g_free (self->env_script);
  g_free (self->remote_dir);
  g_strfreev (self->pull_dirs);
  g_strfreev (self->excludes);
  g_free (self->store_path);
  g_free (self->log_path);
  g_free (self->local_log);
  g_strfreev (self->pulled);

  G_OBJECT_CLASS (sl_mindx_workflow_parent_class)->finalize (object);
}

static void
sl_mindx_workflow_class_init (SlMindxWorkflowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_mindx_workflow_get_property;
  object_class->finalize = sl_mindx_workflow_finalize;

  /* An SlMindxStage; notified in the context run_async was called from. */
  properties[PROP_STAGE] =
    g_param_spec_int ("stage", NULL, NULL, SL_MINDX_STAGE_IDLE, SL_MINDX_STAGE_DONE, SL_MINDX_STAGE_IDLE,
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
sl_mindx_workflow_init (SlMindxWorkflow *self)
{
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
  self->log = g_string_new (NULL);
  self->exit_code = -1;
}

SlMindxWorkflow *
sl_mindx_workflow_new (SlTarget              *target,
                       const char            *project_dir,
                       const SlMindxSettings *settings,
                       const char * const    *args)
{
  SlMindxWorkflow *self;

  g_return_val_if_fail (SL_IS_TARGET (target), NULL);
  g_return_val_if_fail (project_dir != NULL, NULL);
  g_return_val_if_fail (settings != NULL, NULL);

  self = g_object_new (SL_TYPE_MINDX_WORKFLOW, NULL);
  self->target = g_object_ref (target);
  self->project_dir = g_strdup (project_dir);
  self->settings = sl_mindx_settings_copy (settings);
  self->args = g_strdupv ((char **)args);
  return self;
}

SlMindxWorkflow *
sl_mindx_workflow_new_for_config (SlTarget          *target,
                                  const char        *project_dir,
                                  SlRunConfigRecord *config)
{
  g_autoptr(SlMindxSettings) settings = NULL;
  SlMindxWorkflow *self;

  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), NULL);

  settings = sl_mindx_settings_from_config (config);
  self = sl_mindx_workflow_new (target, project_dir, settings, sl_run_config_record_get_arguments (config));
  sl_mindx_workflow_set_pull_dirs (self, sl_run_config_record_get_pull_folders (config));
  sl_mindx_workflow_set_environment (self, sl_run_config_record_get_environment (config));
  return self;
}
