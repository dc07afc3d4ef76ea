/* sl-mindx-settings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-mindx-settings.h"
#include "sl-pipeline-reader.h"
#include "sl-problem.h"
#include "sl-workflow-path.h"

SlMindxSettings *
sl_mindx_settings_new (void)
{
  return g_new0 (SlMindxSettings, 1);
}

void
sl_mindx_settings_free (SlMindxSettings *self)
{
  if (self == NULL)
    return;
  g_free (self->sdk_home);
  g_free (self->toolkit);
  g_free (self->pipeline);
  g_free (self->entry);
  g_free (self);
}

SlMindxSettings *
sl_mindx_settings_copy (const SlMindxSettings *self)
{
  SlMindxSettings *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = sl_mindx_settings_new ();
  copy->sdk_home = g_strdup (self->sdk_home);
  copy->toolkit = g_strdup (self->toolkit);
  copy->pipeline = g_strdup (self->pipeline);
  copy->entry = g_strdup (self->entry);
  return copy;
}

/* A member's text, or NULL when it is missing, empty or not a string. */
static char *
dup_member (JsonObject *group,
            const char *name)
{
  JsonNode *node = group ? json_object_get_member (group, name) : NULL;
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  text = json_node_get_string (node);
  return text != NULL && text[0] != '\0' ? g_strdup (text) : NULL;
}

SlMindxSettings *
sl_mindx_settings_from_config (SlRunConfigRecord *config)
{
  g_autoptr(JsonObject) group = NULL;
  SlMindxSettings *self;
  const char *command;

  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), NULL);

  group = sl_run_config_record_dup_option_group (config, SL_MINDX_OPTION_GROUP);
  self = sl_mindx_settings_new ();
  self->sdk_home = dup_member (group, "sdk_home");
  self->toolkit = dup_member (group, "toolkit");
  self->pipeline = dup_member (group, "pipeline");
  self->entry = dup_member (group, "entry");
  command = sl_run_config_record_get_command (config);
  if (self->entry == NULL && command != NULL && command[0] != '\0')
    self->entry = g_strdup (command);
  return self;
}

static void
set_member (JsonObject *group,
            const char *name,
            const char *value)
{
  if (value != NULL && value[0] != '\0')
    json_object_set_string_member (group, name, value);
}

void
sl_mindx_settings_store (const SlMindxSettings *self,
                         SlRunConfigRecord     *config)
{
  g_autoptr(JsonObject) group = json_object_new ();

  g_return_if_fail (self != NULL);
  g_return_if_fail (SL_IS_RUN_CONFIG_RECORD (config));

  set_member (group, "sdk_home", self->sdk_home);
  set_member (group, "toolkit", self->toolkit);
  set_member (group, "pipeline", self->pipeline);
  set_member (group, "entry", self->entry);
  sl_run_config_record_set_option_group (config, SL_MINDX_OPTION_GROUP, group);
  sl_run_config_record_set_command (config, self->entry ? self->entry : "");
}

gboolean
sl_mindx_settings_check_sdk_home (const char  *sdk_home,
                                  GError     **error)
{
  if (sdk_home == NULL || sdk_home[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Type the SDK home on the target, such as /usr/local/sdk_home/mxVision"));
      return FALSE;
    }
  if (!sl_workflow_path_check (sdk_home, _("The SDK home"), error))
    return FALSE;
  /* run.sh exports it for processes that start elsewhere. */
  if (sdk_home[0] != '/')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The SDK home must be an absolute path on the target, not “%s”"), sdk_home);
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_mindx_settings_check_entry (const char  *entry,
                               GError     **error)
{
  if (entry == NULL || entry[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Type the app’s entry script, such as main.py"));
      return FALSE;
    }
  return sl_workflow_path_check (entry, _("The entry script"), error);
}

char *
sl_mindx_settings_dup_pipeline_path (const SlMindxSettings *self,
                                     const char            *project_dir)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->pipeline == NULL)
    return NULL;
  if (g_path_is_absolute (self->pipeline) || project_dir == NULL)
    return g_strdup (self->pipeline);
  return g_build_filename (project_dir, self->pipeline, NULL);
}

/* The reader keeps what it could; its first error says what broke. */
static SlProblem *
first_error (SlPipeline *pipeline)
{
  GListModel *problems = sl_pipeline_get_problems (pipeline);

  for (guint i = 0; problems != NULL && i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (sl_problem_get_severity (problem) == SL_SEVERITY_ERROR)
        return g_steal_pointer (&problem);
    }
  return NULL;
}

gboolean
sl_mindx_settings_check_pipeline_path (const char  *project_dir,
                                       const char  *pipeline,
                                       GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) project = NULL;

  if (pipeline == NULL || pipeline[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Type the app’s pipeline file, relative to the project, such as pipeline/app.pipeline"));
      return FALSE;
    }
  if (!sl_workflow_path_check (pipeline, _("The pipeline file"), error))
    return FALSE;
  if (project_dir == NULL || g_path_is_absolute (pipeline))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The pipeline file must be relative to the project folder, not “%s”"), pipeline);
      return FALSE;
    }

  path = g_build_filename (project_dir, pipeline, NULL);
  file = g_file_new_for_path (path);
  project = g_file_new_for_path (project_dir);
  /* The project is what is uploaded: a pipeline outside it never arrives. */
  if (!g_file_has_prefix (file, project))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The pipeline file %s is outside the project folder"), pipeline);
      return FALSE;
    }
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no pipeline file %s in the project"), pipeline);
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_mindx_settings_check_pipeline (const char  *project_dir,
                                  const char  *pipeline,
                                  GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(SlPipeline) read = NULL;
  g_autoptr(SlProblem) damage = NULL;
  g_autoptr(GError) read_error = NULL;

  if (!sl_mindx_settings_check_pipeline_path (project_dir, pipeline, error))
    return FALSE;
  path = g_build_filename (project_dir, pipeline, NULL);
  file = g_file_new_for_path (path);
  if ((read = sl_pipeline_reader_read_file (file, NULL, &read_error)) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The pipeline file %s cannot be read: %s"), pipeline,
                   read_error->message);
      return FALSE;
    }
  if ((damage = first_error (read)) != NULL)
    {
      /* TRANSLATORS: the pipeline file, the line in it, and what is wrong there */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The pipeline file %s does not parse (line %u): %s"),
                   pipeline, sl_problem_get_line (damage), sl_problem_get_message (damage));
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  char *project_dir;
  char *pipeline;
} PipelineCheck;

static void
pipeline_check_free (gpointer data)
{
  PipelineCheck *check = data;

  g_free (check->project_dir);
  g_free (check->pipeline);
  g_free (check);
}

static void
check_pipeline_in_thread (GTask        *task,
                          gpointer      source,
                          gpointer      task_data,
                          GCancellable *cancellable)
{
  PipelineCheck *check = task_data;
  GError *error = NULL;

  if (sl_mindx_settings_check_pipeline (check->project_dir, check->pipeline, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
sl_mindx_settings_check_pipeline_async (const char          *project_dir,
                                        const char          *pipeline,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  PipelineCheck *check = g_new0 (PipelineCheck, 1);

  check->project_dir = g_strdup (project_dir);
  check->pipeline = g_strdup (pipeline);
  g_task_set_source_tag (task, sl_mindx_settings_check_pipeline_async);
  g_task_set_task_data (task, check, pipeline_check_free);
  g_task_run_in_thread (task, check_pipeline_in_thread);
}

gboolean
sl_mindx_settings_check_pipeline_finish (GAsyncResult  *result,
                                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_mindx_settings_validate (const SlMindxSettings *self,
                            const char            *project_dir,
                            GError               **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!sl_mindx_settings_check_sdk_home (self->sdk_home, error))
    return FALSE;
  if (self->toolkit != NULL && !sl_workflow_path_check (self->toolkit, _("The toolkit folder"), error))
    return FALSE;
  if (!sl_mindx_settings_check_entry (self->entry, error))
    return FALSE;
  return sl_mindx_settings_check_pipeline (project_dir, self->pipeline, error);
}
