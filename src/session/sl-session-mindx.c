/* sl-window-mindx.c: the window runs a MindX SDK app configuration
 *
 * The Run dialog hands a MindX configuration here; SlMindxWorkflow runs it
 * in a worker, as sightline-cli job run --config does. The log and the
 * workflow's messages are passed to the main thread for the Console, the
 * stages show as toasts, and the problems, with their hints, go to
 * Problems when the run ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-local-target.h"
#include "sl-problem.h"
#include "sl-remote-run.h"
#include "sl-window-mindx.h"
#include "sl-window-private.h"

typedef struct {
  SlWindow     *window;
  GCancellable *cancellable;
  gulong        stop_id;
} MindxRun;

static void
mindx_run_free (MindxRun *run)
{
  g_clear_signal_handler (&run->stop_id, run->window->console_panel);
  g_object_unref (run->window);
  g_object_unref (run->cancellable);
  g_free (run);
}

typedef struct {
  SlWindow *window;
  char     *text;
} ConsoleText;

static gboolean
append_console_cb (gpointer data)
{
  ConsoleText *text = data;

  sl_console_panel_append (text->window->console_panel, text->text, -1);
  return G_SOURCE_REMOVE;
}

static void
console_text_free (gpointer data)
{
  ConsoleText *text = data;

  g_object_unref (text->window);
  g_free (text->text);
  g_free (text);
}

/* The workflow speaks from its worker; the Console lives on the main thread. */
static void
append_from_worker (SlWindow   *self,
                    char       *owned_text)
{
  ConsoleText *text = g_new0 (ConsoleText, 1);

  text->window = g_object_ref (self);
  text->text = owned_text;
  g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, append_console_cb, text, console_text_free);
}

static void
log_cb (SlMindxWorkflow *workflow,
        GBytes          *data,
        SlWindow        *self)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  append_from_worker (self, g_utf8_make_valid (bytes, size));
}

static void
message_cb (SlMindxWorkflow *workflow,
            const char      *message,
            SlWindow        *self)
{
  append_from_worker (self, g_strdup_printf ("[sightline] %s\n", message));
}

static void
stage_cb (SlMindxWorkflow *workflow,
          GParamSpec      *pspec,
          SlWindow        *self)
{
  SlMindxStage stage = sl_mindx_workflow_get_stage (workflow);

  /* The Console shows the run; toasts would queue up behind its end. */
  if (stage != SL_MINDX_STAGE_IDLE && stage != SL_MINDX_STAGE_DONE)
    sl_console_panel_set_job_status (self->console_panel, sl_mindx_stage_to_label (stage));
}

static guint
count_errors (GPtrArray *problems)
{
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    n += sl_problem_get_severity (g_ptr_array_index (problems, i)) == SL_SEVERITY_ERROR;
  return n;
}

static void
show_outcome (SlWindow        *self,
              SlMindxWorkflow *workflow)
{
  GPtrArray *problems = sl_mindx_workflow_get_problems (workflow);
  guint errors = count_errors (problems);
  const char * const *pulled = sl_mindx_workflow_get_pulled (workflow);
  g_autofree char *text = NULL;

  if (errors > 0)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The MindX app failed: %u problem, in Problems",
                                         "The MindX app failed: %u problems, in Problems", errors), errors);
  else if (pulled != NULL && pulled[0] != NULL)
    text = g_strdup_printf (_("The MindX app ran; its output is in %s"), pulled[0]);
  else
    text = g_strdup (_("The MindX app ran"));
  sl_window_show_toast (self, text);
}

/* The samples print the SDK's code and exit with 0: the Console says
 * failed when Problems holds errors, whatever the exit code. */
static void
end_console_job (SlWindow        *self,
                 SlMindxWorkflow *workflow)
{
  guint errors = count_errors (sl_mindx_workflow_get_problems (workflow));
  int exit_code = sl_mindx_workflow_get_exit_code (workflow);
  g_autofree char *reason = NULL;

  if (errors == 0)
    {
      sl_console_panel_end_job (self->console_panel, exit_code, NULL);
      return;
    }
  if (exit_code >= 0)
    reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "exited with code %d; %u error in Problems",
                                           "exited with code %d; %u errors in Problems", errors), exit_code, errors);
  else
    reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "did not run to its end; %u error in Problems",
                                           "did not run to its end; %u errors in Problems", errors), errors);
  sl_console_panel_end_job (self->console_panel, -1, reason);
}

static void
done_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  SlMindxWorkflow *workflow = SL_MINDX_WORKFLOW (source);
  MindxRun *run = data;
  SlWindow *self = run->window;
  g_autoptr(GError) error = NULL;
  GPtrArray *problems;

  g_signal_handlers_disconnect_by_data (workflow, self);
  if (!sl_mindx_workflow_run_finish (workflow, result, &error))
    {
      sl_console_panel_end_job (self->console_panel, -1, error->message);
      sl_window_show_toast (self, error->message);
      mindx_run_free (run);
      return;
    }
  problems = sl_mindx_workflow_get_problems (workflow);
  for (guint i = 0; i < problems->len; i++)
    sl_window_add_problem (self, g_ptr_array_index (problems, i));
  end_console_job (self, workflow);
  /* The workflow recorded its verdict in the history itself. */
  sl_workspace_reload_jobs (self->workspace);
  if (count_errors (problems) > 0)
    panel_widget_raise (PANEL_WIDGET (self->problems_panel));
  show_outcome (self, workflow);
  mindx_run_free (run);
}

static SlTarget *
create_target (SlWindow  *self,
               gint64     target_id,
               GError   **error)
{
  GListModel *targets = sl_workspace_get_targets (self->workspace);

  for (guint i = 0; target_id > 0 && i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (targets, i);

      if (sl_target_record_get_id (record) == target_id)
        return sl_target_new_from_record (record, error);
    }
  return sl_local_target_new ();
}

SlMindxWorkflow *
sl_window_run_mindx (SlWindow          *self,
                     SlProjectRecord   *project,
                     SlRunConfigRecord *config,
                     gint64             target_id)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlMindxWorkflow) workflow = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  MindxRun *run;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (SL_IS_PROJECT_RECORD (project), NULL);
  g_return_val_if_fail (SL_IS_RUN_CONFIG_RECORD (config), NULL);

  if (!(target = create_target (self, target_id, &error)))
    {
      sl_window_show_toast (self, error->message);
      return NULL;
    }
  workflow = sl_mindx_workflow_new_for_config (target, sl_project_record_get_local_folder (project), config);
  sl_mindx_workflow_set_remote_dir (workflow, sl_project_record_get_remote_folder (project));
  sl_mindx_workflow_set_excludes (workflow, sl_project_record_get_upload_excludes (project));
  sl_mindx_workflow_set_store_path (workflow, sl_workspace_get_db_path (self->workspace));
  g_signal_connect_object (workflow, "notify::stage", G_CALLBACK (stage_cb), self, 0);
  g_signal_connect_object (workflow, "log", G_CALLBACK (log_cb), self, 0);
  g_signal_connect_object (workflow, "message", G_CALLBACK (message_cb), self, 0);

  run = g_new0 (MindxRun, 1);
  run->window = g_object_ref (self);
  run->cancellable = g_cancellable_new ();
  run->stop_id = g_signal_connect_swapped (self->console_panel, "stop-requested", G_CALLBACK (g_cancellable_cancel),
                                           run->cancellable);
  /* TRANSLATORS: %s is the name of a run configuration */
  title = g_strdup_printf (_("MindX app %s"), sl_run_config_record_get_name (config));
  sl_console_panel_begin_job (self->console_panel, title);
  sl_mindx_workflow_run_async (workflow, run->cancellable, done_cb, run);
  return g_steal_pointer (&workflow);
}
