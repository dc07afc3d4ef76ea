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

#include "sl-mindx-env.h"
#include "sl-mindx-errors.h"
#include "sl-mindx-workflow.h"
#include "sl-pipeline-check.h"
#include "sl-pipeline-reader.h"
#include "sl-problem.h"
#include "sl-shell-quote.h"
#include "sl-workflow-private.h"

#define SOURCE "mindx"
#define SHELL_NAME_CHARACTERS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

struct _SlMindxWorkflow
{
  SlWorkflow       parent_instance;

  SlMindxSettings *settings;
  char           **args;
  char           **environment;
  char           **pull_dirs;
  char           **excludes;

  char           **pulled;
};

G_DEFINE_FINAL_TYPE (SlMindxWorkflow, sl_mindx_workflow, SL_TYPE_WORKFLOW)
SL_WORKFLOW_DEFINE_CALLS (SlMindxWorkflow, sl_mindx_workflow, SL_IS_MINDX_WORKFLOW)

#define WORKFLOW(self) SL_WORKFLOW (self)

static void
add_problem (SlMindxWorkflow *self,
             SlProblem       *problem,
             const char      *hint)
{
  sl_workflow_add_problem (WORKFLOW (self), problem, hint);
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
  g_autofree char *source = NULL;
  GString *setup;

  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);

  if (!sl_mindx_settings_check_sdk_home (self->settings->sdk_home, error) ||
      !(exports = sl_mindx_dup_env_setup (self->settings->sdk_home, self->settings->toolkit, error)))
    return NULL;
  setup = g_string_new (NULL);
  if ((source = sl_workflow_dup_source_line (WORKFLOW (self))) != NULL)
    g_string_append_printf (setup, "%s\n", source);
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
  run = sl_workflow_create_run (WORKFLOW (self), (const char * const *)*argv, setup);
  sl_remote_run_set_pull_dirs (run, (const char * const *)self->pull_dirs);
  sl_remote_run_set_excludes (run, (const char * const *)self->excludes);
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
  const char *project_dir;

  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), FALSE);

  project_dir = sl_workflow_get_project_dir (WORKFLOW (self));
  if (!(path = sl_mindx_settings_dup_pipeline_path (self->settings, project_dir)))
    return TRUE;
  file = g_file_new_for_path (path);
  if (!(pipeline = sl_pipeline_reader_read_file (file, NULL, &error)))
    {
      add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, SOURCE, path, -1, error->message),
                   _("The pipeline file is read from the project on this computer before it is uploaded."));
      return FALSE;
    }
  plugins = sl_pipeline_check_load_user_plugins (NULL);
  found = sl_pipeline_check (pipeline, project_dir, plugins);
  return sl_workflow_add_problems (WORKFLOW (self), found);
}

/* The SDK's codes in the log; the local copy is named when there is one,
 * so a Problem opens at its line. */
static void
add_log_problems (SlMindxWorkflow *self)
{
  SlWorkflow *workflow = WORKFLOW (self);
  GString *text = sl_workflow_get_log (workflow);
  const char *log_path = sl_workflow_get_log_path (workflow);
  const char *local_log = sl_workflow_get_local_log (workflow);
  const char *log = local_log ? local_log : log_path;
  int exit_code = sl_workflow_get_exit_code (workflow);
  g_autoptr(GPtrArray) found = sl_mindx_log_parse (text->str, text->len, log);

  sl_workflow_add_problems (workflow, found);
  if (exit_code != 0 && found->len == 0)
    {
      const char *why = sl_remote_run_explain_exit (exit_code);
      g_autofree char *message = exit_code >= 0
        ? g_strdup_printf (_("The MindX app exited with %d%s%s"), exit_code, why ? ": " : "", why ? why : "")
        : g_strdup (_("The MindX app ended without an exit code (killed, or the target restarted)"));
      g_autofree char *hint = g_strdup_printf (_("The job’s log (%s) holds the app’s output; the SDK’s own logs are under $MX_SDK_HOME/logs on the target."),
                                               log_path ? log_path : "?");

      add_problem (self, sl_problem_new_at_line (SL_SEVERITY_ERROR, SOURCE, log, MAX (sl_workflow_count_log_lines (workflow), 1), message),
                   hint);
    }
}

/* The samples print the SDK's code and exit with 0: the job history
 * records the run as failed, as the Console and Problems say it, with why. */
static void
record_outcome (SlMindxWorkflow *self)
{
  SlWorkflow *workflow = WORKFLOW (self);
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  guint errors = sl_workflow_count_errors (workflow);

  if (sl_workflow_get_exit_code (workflow) != 0 || errors == 0 || sl_workflow_get_job_id (workflow) <= 0)
    return;

  reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "exit 0, but the log holds %u SDK error",
                                         "exit 0, but the log holds %u SDK errors", errors), errors);
  if (!sl_workflow_record_failure (workflow, reason, &error))
    add_problem (self, sl_problem_new (SL_SEVERITY_WARNING, "job", sl_workflow_get_store_path (workflow), -1, error->message),
                 _("The job history may show this run as succeeded; Problems holds its errors."));
}

static void
sl_mindx_workflow_reset (SlWorkflow *workflow)
{
  g_clear_pointer (&SL_MINDX_WORKFLOW (workflow)->pulled, g_strfreev);
}

static gboolean
sl_mindx_workflow_run_stages (SlWorkflow    *workflow,
                              GCancellable  *cancellable,
                              GError       **error)
{
  SlMindxWorkflow *self = SL_MINDX_WORKFLOW (workflow);
  g_auto(GStrv) argv = NULL;
  g_autoptr(SlRemoteRun) run = create_run (self, &argv, error);
  g_autoptr(GError) job_error = NULL;

  if (run == NULL)
    return FALSE;

  sl_workflow_set_stage (workflow, SL_MINDX_STAGE_CHECKING);
  if (!sl_mindx_workflow_check_pipeline (self))
    return TRUE;
  if (sl_workflow_set_error_if_interrupted_before (workflow, cancellable, error))
    return FALSE;

  sl_workflow_set_stage (workflow, SL_MINDX_STAGE_RUNNING);
  switch (sl_workflow_run_job (workflow, run, (const char * const *)argv, cancellable, &job_error))
    {
    case SL_WORKFLOW_JOB_INTERRUPTED:
      g_propagate_error (error, g_steal_pointer (&job_error));
      return FALSE;
    case SL_WORKFLOW_JOB_NOT_RUN:
      sl_workflow_keep_log (workflow, run, FALSE);
      add_problem (self, sl_problem_new (SL_SEVERITY_ERROR, "job", sl_workflow_get_log_path (workflow), -1, job_error->message),
                   NULL);
      return TRUE;
    case SL_WORKFLOW_JOB_ENDED:
    default:
      break;
    }
  sl_workflow_keep_log (workflow, run, FALSE);
  self->pulled = sl_remote_run_dup_local_pull_dirs (run);
  add_log_problems (self);
  record_outcome (self);
  return TRUE;
}

SlMindxStage
sl_mindx_workflow_get_stage (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), SL_MINDX_STAGE_IDLE);
  return sl_workflow_get_stage (WORKFLOW (self));
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

static const char *
sl_mindx_workflow_stage_label (SlWorkflow *workflow,
                               int         stage)
{
  return sl_mindx_stage_to_label (stage);
}

const char * const *
sl_mindx_workflow_get_pulled (SlMindxWorkflow *self)
{
  g_return_val_if_fail (SL_IS_MINDX_WORKFLOW (self), NULL);
  return (const char * const *)self->pulled;
}

static gboolean
sl_mindx_workflow_real_succeeded (SlWorkflow *workflow)
{
  return sl_workflow_get_exit_code (workflow) == 0 && sl_workflow_count_errors (workflow) == 0;
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

static void
sl_mindx_workflow_finalize (GObject *object)
{
  SlMindxWorkflow *self = SL_MINDX_WORKFLOW (object);

  g_clear_pointer (&self->settings, sl_mindx_settings_free);
  g_strfreev (self->args);
  g_strfreev (self->environment);
  g_strfreev (self->pull_dirs);
  g_strfreev (self->excludes);
  g_strfreev (self->pulled);

  G_OBJECT_CLASS (sl_mindx_workflow_parent_class)->finalize (object);
}

static void
sl_mindx_workflow_class_init (SlMindxWorkflowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  SlWorkflowClass *workflow_class = SL_WORKFLOW_CLASS (klass);

  object_class->finalize = sl_mindx_workflow_finalize;

  /* "stage" is an SlMindxStage. */
  workflow_class->done_stage = SL_MINDX_STAGE_DONE;
  workflow_class->run_stages = sl_mindx_workflow_run_stages;
  workflow_class->reset = sl_mindx_workflow_reset;
  workflow_class->succeeded = sl_mindx_workflow_real_succeeded;
  workflow_class->stage_label = sl_mindx_workflow_stage_label;
}

static void
sl_mindx_workflow_init (SlMindxWorkflow *self)
{
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

  self = g_object_new (SL_TYPE_MINDX_WORKFLOW, "target", target, "project-dir", project_dir, NULL);
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
