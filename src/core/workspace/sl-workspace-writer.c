/* sl-workspace-writer.c: the writer thread that owns the database
 * connection, and its queue
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-private.h"

typedef struct {
  SlWorkspaceFunc func;
  gpointer        data;
  GDestroyNotify  data_destroy;
  GDestroyNotify  result_destroy;
} Op;

static void
op_free (gpointer data)
{
  Op *op = data;

  if (op->data_destroy != NULL && op->data != NULL)
    op->data_destroy (op->data);
  g_free (op);
}

static gboolean
ensure_store (SlWorkspace  *self,
              GError      **error)
{
  if (!self->store_tried)
    {
      self->store_tried = TRUE;
      self->store = sl_workspace_store_new_for_path (self->db_path, &self->store_error);
    }

  if (self->store == NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->store_error);
      return FALSE;
    }

  return TRUE;
}

void
sl_workspace_writer_func (gpointer data,
                          gpointer pool_data)
{
  g_autoptr(GTask) task = data;
  SlWorkspace *self = pool_data;
  Op *op = g_task_get_task_data (task);
  GError *error = NULL;
  gpointer result;

  self->writer_thread = g_thread_self ();

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!ensure_store (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  result = op->func (self->store, op->data, g_task_get_cancellable (task), &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, op->result_destroy);
}

/**
 * sl_workspace_run_async:
 * @func: the work, run on the writer thread with the database
 * @result_destroy: (nullable): frees @func's result if nobody takes it
 *
 * Queues @func after everything queued before it. @callback runs in the
 * thread-default main context of the caller.
 */
void
sl_workspace_run_async (SlWorkspace         *self,
                        SlWorkspaceFunc      func,
                        gpointer             data,
                        GDestroyNotify       data_destroy,
                        GDestroyNotify       result_destroy,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Op *op;

  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (func != NULL);

  op = g_new0 (Op, 1);
  op->func = func;
  op->data = data;
  op->data_destroy = data_destroy;
  op->result_destroy = result_destroy;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_workspace_run_async);
  g_task_set_task_data (task, op, op_free);
  g_thread_pool_push (self->writer, g_steal_pointer (&task), NULL);
}

gpointer
sl_workspace_run_finish (SlWorkspace   *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct {
  gboolean  done;
  gpointer  result;
  GError   *error;
} SyncWait;

static void
sync_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  SyncWait *wait = user_data;

  wait->result = sl_workspace_run_finish (SL_WORKSPACE (object), result, &wait->error);
  wait->done = TRUE;
}

/**
 * sl_workspace_run_sync:
 *
 * Runs @func on the writer and waits for it, for programs without a main
 * loop (sightline-cli). Never call it from the main thread of the window.
 *
 * Returns: (transfer full) (nullable): what @func returned
 */
gpointer
sl_workspace_run_sync (SlWorkspace      *self,
                       SlWorkspaceFunc   func,
                       gpointer          data,
                       GError          **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  SyncWait wait = { 0 };

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);

  /* The answer comes in a context of its own, so nothing else queued in
   * the caller's runs meanwhile. */
  g_main_context_push_thread_default (context);
  sl_workspace_run_async (self, func, data, NULL, NULL, NULL, sync_done_cb, &wait);
  while (!wait.done)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  if (wait.error != NULL)
    g_propagate_error (error, wait.error);
  return wait.result;
}

static gpointer
noop_func (SlWorkspaceStore  *store,
           gpointer           data,
           GCancellable      *cancellable,
           GError           **error)
{
  return NULL;
}

/**
 * sl_workspace_flush:
 *
 * Waits until every queued database change is written, when quitting.
 */
void
sl_workspace_flush (SlWorkspace *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (SL_IS_WORKSPACE (self));

  sl_workspace_run_sync (self, noop_func, NULL, &error);
}

/* Writes that need no answer */

void
sl_workspace_write_done_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;
  const char *what = user_data;

  sl_workspace_run_finish (self, result, &error);
  if (error != NULL)
    sl_workspace_warn_unless_cancelled (self, what, error);
}
