/* sl-ssh-session.c: lifecycle, the worker thread and its dispatch
 *
 * The worker thread pops GTasks from a queue and runs them one by one;
 * only that thread touches the libssh session, its channels and SFTP.
 * libssh runs in blocking mode with the session timeout, so a step that
 * waits on the server ends within that time; the worker checks for
 * cancellation between steps and every 100 ms while a command runs, and
 * a cancelled task is completed for its caller right away.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <glib/gi18n-lib.h>

#include "sl-ssh-session-private.h"

G_DEFINE_FINAL_TYPE (SlSshSession, sl_ssh_session, G_TYPE_OBJECT)
G_DEFINE_QUARK (sl-ssh-error-quark, sl_ssh_error)

gboolean
_sl_ssh_op_is_delivered (GTask *task)
{
  SlSshOp *op = g_task_get_task_data (task);

  return op->delivered;
}

/* Pushed by finalize to end the worker thread. */
static char quit_marker;

/* Steps and output reach the caller's main context in order. */

typedef struct {
  GTask           *task;
  SlSshStepFunc    func;
  gpointer         data;
  SlSshStep        step;
  SlSshStepStatus  status;
  char            *detail;
  char            *hint;
} StepCall;

static gboolean
step_in_caller (gpointer data)
{
  StepCall *call = data;

  if (!_sl_ssh_op_is_delivered (call->task))
    call->func (call->step, call->status, call->detail, call->hint, call->data);
  return G_SOURCE_REMOVE;
}

static void
step_call_free (gpointer data)
{
  StepCall *call = data;

  g_object_unref (call->task);
  g_free (call->detail);
  g_free (call->hint);
  g_free (call);
}


void
_sl_ssh_report_step (GTask               *task,
                     const SlSshStepSink *sink,
                     SlSshStep            step,
                     SlSshStepStatus      status,
                     const char          *detail,
                     const char          *hint)
{
  StepCall *call;

  g_debug ("%s: %s", sl_ssh_step_get_title (step), detail);

  if (sink == NULL || sink->func == NULL)
    return;

  call = g_new0 (StepCall, 1);
  call->task = g_object_ref (task);
  call->func = sink->func;
  call->data = sink->data;
  call->step = step;
  call->status = status;
  call->detail = g_strdup (detail);
  call->hint = g_strdup (hint);
  sl_main_context_dispatch (g_task_get_context (task), step_in_caller, call, step_call_free);
}

void
_sl_ssh_report_step_error (GTask               *task,
                           const SlSshStepSink *sink,
                           SlSshStep            step,
                           const GError        *error,
                           const char          *hint)
{
  _sl_ssh_report_step (task, sink, step, SL_SSH_STEP_FAILED, error->message, hint);
}

/**
 * sl_ssh_step_get_title:
 *
 * Returns: the translated name of a connection step
 */
const char *
sl_ssh_step_get_title (SlSshStep step)
{
  switch (step)
    {
    case SL_SSH_STEP_RESOLVE:  return _("Name resolution");
    case SL_SSH_STEP_CONNECT:  return _("Connection");
    case SL_SSH_STEP_HOST_KEY: return _("Host key");
    case SL_SSH_STEP_AUTH:     return _("Authentication");
    case SL_SSH_STEP_SHELL:    return _("Remote shell");
    case SL_SSH_STEP_DISK:     return _("Free disk space");
    case SL_SSH_STEP_PYTHON:   return _("Python 3");
    case SL_SSH_STEP_NPU_SMI:  return _("npu-smi");
    case SL_SSH_N_STEPS:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* The worker */

/* The worker never returns a GTask nor drops one: the result is stored
 * in the SlSshOp and given to the task in the caller's main context, so the
 * session is always finalized there, never on its own worker thread. */
void
_sl_ssh_op_return_boolean (GTask    *task,
                           gboolean  value)
{
  SlSshOp *op = g_task_get_task_data (task);

  op->boolean = value;
}

void
_sl_ssh_op_return_pointer (GTask          *task,
                           gpointer        pointer,
                           GDestroyNotify  pointer_free)
{
  SlSshOp *op = g_task_get_task_data (task);

  op->pointer = pointer;
  op->pointer_free = pointer_free;
}

void
_sl_ssh_op_return_error (GTask  *task,
                         GError *error)
{
  SlSshOp *op = g_task_get_task_data (task);

  g_clear_error (&op->error);
  op->error = error;
}

gboolean
_sl_ssh_op_return_error_if_cancelled (GTask *task)
{
  GError *error = NULL;

  if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &error))
    return FALSE;
  _sl_ssh_op_return_error (task, error);
  return TRUE;
}

static gboolean
complete_in_caller (gpointer data)
{
  GTask *task = data;
  SlSshOp *op = g_task_get_task_data (task);

  op->delivered = TRUE;
  if (op->error != NULL)
    g_task_return_error (task, g_steal_pointer (&op->error));
  else if (op->pointer != NULL)
    g_task_return_pointer (task, g_steal_pointer (&op->pointer), op->pointer_free);
  else
    g_task_return_boolean (task, op->boolean);

  return G_SOURCE_REMOVE;
}

static gboolean
complete_cancelled_in_caller (gpointer data)
{
  GTask *task = data;
  SlSshOp *op = g_task_get_task_data (task);
  GError *error = NULL;

  op->delivered = TRUE;
  if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &error))
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  g_task_return_error (task, error);

  return G_SOURCE_REMOVE;
}

static gboolean
release_in_caller (gpointer data)
{
  SlSshOp *op = g_task_get_task_data (data);

  op->released = TRUE;
  return G_SOURCE_REMOVE;
}

/* Any thread: the caller hears of the cancellation at once. */
static void
on_op_cancelled (GCancellable *cancellable,
                 gpointer      data)
{
  GTask *task = data;
  SlSshOp *op = g_task_get_task_data (task);

  if (g_atomic_int_compare_and_exchange (&op->completed, 0, 1))
    sl_main_context_dispatch (g_task_get_context (task), complete_cancelled_in_caller, task, g_object_unref);
}

/* The queue holds two references to each task: one for completing it,
 * one for the worker. Both are dropped in the caller's main context, so
 * the session is always finalized there, never on its own worker. */
static gpointer
worker_main (gpointer data)
{
  GAsyncQueue *queue = data;

  for (;;)
    {
      gpointer item = g_async_queue_pop (queue);
      GCancellable *cancellable;
      GMainContext *context;
      GTask *task;
      SlSshOp *op;
      SlSshSession *self;

      if (item == &quit_marker)
        break;

      task = item;
      op = g_task_get_task_data (task);
      self = g_task_get_source_object (task);
      cancellable = g_task_get_cancellable (task);
      context = g_task_get_context (task);
      self->current_task = task;

      if (!g_atomic_int_get (&op->completed) && !_sl_ssh_op_return_error_if_cancelled (task))
        op->func (self, task, op->data, cancellable);

      self->current_task = NULL;
      if (op->cancelled_id != 0)
        g_cancellable_disconnect (cancellable, op->cancelled_id);
      if (g_atomic_int_compare_and_exchange (&op->completed, 0, 1))
        sl_main_context_dispatch (context, complete_in_caller, task, g_object_unref);
      sl_main_context_dispatch (context, release_in_caller, task, g_object_unref);
    }

  g_async_queue_unref (queue);
  return NULL;
}

static void
op_free (gpointer data)
{
  SlSshOp *op = data;

  if (op->free != NULL && op->data != NULL)
    op->free (op->data);
  if (op->pointer != NULL && op->pointer_free != NULL)
    op->pointer_free (op->pointer);
  g_clear_error (&op->error);
  g_free (op);
}

void
_sl_ssh_session_queue (SlSshSession        *self,
                       gpointer             source_tag,
                       SlSshOpFunc          func,
                       gpointer             data,
                       GDestroyNotify       free_func,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  SlSshOp *op = g_new0 (SlSshOp, 1);

  op->func = func;
  op->data = data;
  op->free = free_func;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, op_free);

  g_object_ref (task);
  if (cancellable != NULL)
    op->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_op_cancelled), task, NULL);
  g_async_queue_push (self->queue, task);
}

/* Sync variants: see SlSshSyncCall. */

void
_sl_ssh_sync_call_init (SlSshSyncCall *call)
{
  call->context = g_main_context_new ();
  call->result = NULL;
  g_main_context_push_thread_default (call->context);
}

void
_sl_ssh_sync_call_done (GObject      *object,
                        GAsyncResult *result,
                        gpointer      data)
{
  SlSshSyncCall *call = data;

  call->result = g_object_ref (result);
}

/* Waits for the result and for the worker to let go of the task: what
 * the worker sends afterwards must not go to a context nobody runs. */
GAsyncResult *
_sl_ssh_sync_call_wait (SlSshSyncCall *call)
{
  while (call->result == NULL ||
         !((SlSshOp *)g_task_get_task_data (G_TASK (call->result)))->released)
    g_main_context_iteration (call->context, TRUE);

  g_main_context_pop_thread_default (call->context);
  g_main_context_unref (call->context);
  return call->result;
}

/* Errors */

void
_sl_ssh_session_set_error (GError      **error,
                           SlSshSession *self,
                           SlSshError    code,
                           const char   *what)
{
  const char *reason = self->ssh != NULL ? ssh_get_error (self->ssh) : NULL;

  if (reason != NULL && reason[0] != '\0')
    g_set_error (error, SL_SSH_ERROR, code, "%s: %s", what, reason);
  else
    g_set_error_literal (error, SL_SSH_ERROR, code, what);
}

/* GObject */

static void
sl_ssh_session_finalize (GObject *object)
{
  SlSshSession *self = (SlSshSession *)object;

  /* No task holds a reference any more, so the worker is idle (or about
   * to be) and never touches the session again. */
  g_async_queue_push (self->queue, &quit_marker);
  g_thread_join (self->thread);
  g_async_queue_unref (self->queue);
  _sl_ssh_session_close (self);

  if (self->prompt_destroy != NULL)
    self->prompt_destroy (self->prompt_data);

  g_free (self->host);
  g_free (self->user);
  g_free (self->identity_file);
  g_free (self->known_hosts_file);
  g_free (self->config_file);
  g_free (self->seen_key_type);
  g_free (self->seen_fingerprint);
  g_free (self->accepted_fingerprint);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (sl_ssh_session_parent_class)->finalize (object);
}

static void
sl_ssh_session_class_init (SlSshSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_ssh_session_finalize;

  ssh_init ();
}

static void
sl_ssh_session_init (SlSshSession *self)
{
  g_mutex_init (&self->mutex);
  self->timeout = SL_SSH_DEFAULT_TIMEOUT_SECONDS;
  self->queue = g_async_queue_new ();
  self->thread = g_thread_new ("sl-ssh-session", worker_main, g_async_queue_ref (self->queue));
}

/**
 * sl_ssh_session_new:
 * @host: a host name, an address, or a Host alias of ~/.ssh/config
 * @port: the port, or 0 or 22 for the configured one (22 by default)
 * @user: (nullable): the user to log in as; %NULL for the configured one
 *
 * Nothing happens on the network until an operation is queued.
 *
 * Returns: (transfer full): a new session
 */
SlSshSession *
sl_ssh_session_new (const char *host,
                    guint       port,
                    const char *user)
{
  SlSshSession *self;

  g_return_val_if_fail (host != NULL && host[0] != '\0', NULL);
  g_return_val_if_fail (port <= 65535, NULL);

  self = g_object_new (SL_TYPE_SSH_SESSION, NULL);
  self->host = g_strdup (host);
  self->port = port;
  self->user = user != NULL && user[0] != '\0' ? g_strdup (user) : NULL;
  return self;
}

static void
set_locked_string (SlSshSession  *self,
                   char         **field,
                   const char    *value)
{
  g_mutex_lock (&self->mutex);
  g_free (*field);
  *field = value != NULL && value[0] != '\0' ? g_strdup (value) : NULL;
  g_mutex_unlock (&self->mutex);
}

/**
 * sl_ssh_session_set_identity_file:
 * @path: (nullable): a private key file; %NULL for ssh-agent and the
 *   default keys
 */
void
sl_ssh_session_set_identity_file (SlSshSession *self,
                                  const char   *path)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  set_locked_string (self, &self->identity_file, path);
}

/**
 * sl_ssh_session_set_auth:
 * @auth: how the user chose to log in; with an identity file it is
 *   %SL_SSH_AUTH_KEY whatever is set here
 *
 * Says which way of logging in a refusal is explained against, and
 * what to do about it.
 */
void
sl_ssh_session_set_auth (SlSshSession *self,
                         SlSshAuth     auth)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (auth <= SL_SSH_AUTH_KEYBOARD_INTERACTIVE);

  g_mutex_lock (&self->mutex);
  self->auth = auth;
  g_mutex_unlock (&self->mutex);
}

/**
 * sl_ssh_session_set_known_hosts_file:
 * @path: (nullable): where host keys are checked and remembered; %NULL
 *   for ~/.ssh/known_hosts of g_get_home_dir(), see sl_known_hosts_dup_path()
 */
void
sl_ssh_session_set_known_hosts_file (SlSshSession *self,
                                     const char   *path)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  set_locked_string (self, &self->known_hosts_file, path);
}

/**
 * sl_ssh_session_set_config_file:
 * @path: (nullable): an ssh_config file; %NULL for ~/.ssh/config and the
 *   system one
 */
void
sl_ssh_session_set_config_file (SlSshSession *self,
                                const char   *path)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  set_locked_string (self, &self->config_file, path);
}

/**
 * sl_ssh_session_set_timeout:
 * @seconds: how long to wait for the server at each step; 0 for the
 *   default of %SL_SSH_DEFAULT_TIMEOUT_SECONDS
 */
void
sl_ssh_session_set_timeout (SlSshSession *self,
                            guint         seconds)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));

  g_mutex_lock (&self->mutex);
  self->timeout = seconds > 0 ? seconds : SL_SSH_DEFAULT_TIMEOUT_SECONDS;
  g_mutex_unlock (&self->mutex);
}

gboolean
sl_ssh_session_is_connected (SlSshSession *self)
{
  gboolean connected;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  g_mutex_lock (&self->mutex);
  connected = self->connected;
  g_mutex_unlock (&self->mutex);
  return connected;
}
