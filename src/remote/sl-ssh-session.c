/* sl-ssh-session.c
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

#include <fcntl.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <libssh/libssh.h>
#include <libssh/callbacks.h>
#include <libssh/sftp.h>

#include "sl-shell-quote.h"
#include "sl-ssh-session.h"

#define READ_CHUNK      (64 * 1024)
#define READS_IN_FLIGHT 32
#define POLL_MS         100
#define PREFERRED_CIPHERS "aes128-gcm@openssh.com,aes256-gcm@openssh.com,chacha20-poly1305@openssh.com," \
                          "aes128-ctr,aes192-ctr,aes256-ctr"

struct _SlSshPrompt
{
  gatomicrefcount  ref_count;
  SlSshPromptKind  kind;
  gboolean         echo;
  char            *message;
  GMutex           mutex;
  GCond            cond;
  gboolean         answered;
  char            *answer;
};

struct _SlSshSession
{
  GObject          parent_instance;

  GAsyncQueue     *queue;
  GThread         *thread;

  /* Only the worker thread touches these. */
  ssh_session      ssh;
  sftp_session     sftp;
  struct ssh_callbacks_struct callbacks;
  GTask           *current_task;
  gboolean         passphrase_unanswerable;

  /* Set by the caller, read by the worker, under the mutex. */
  GMutex           mutex;
  char            *host;
  guint            port;
  char            *user;
  char            *identity_file;
  char            *known_hosts_file;
  char            *config_file;
  guint            timeout;
  SlSshPromptFunc  prompt_func;
  gpointer         prompt_data;
  GDestroyNotify   prompt_destroy;
  char            *seen_key_type;
  char            *seen_fingerprint;
  char            *accepted_fingerprint;
  gboolean         accepted_remember;
  gboolean         connected;
};

G_DEFINE_FINAL_TYPE (SlSshSession, sl_ssh_session, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (SlSshPrompt, sl_ssh_prompt, sl_ssh_prompt_ref, sl_ssh_prompt_unref)
G_DEFINE_QUARK (sl-ssh-error-quark, sl_ssh_error)

typedef void (*OpFunc) (SlSshSession *self,
                        GTask        *task,
                        gpointer      data,
                        GCancellable *cancellable);

typedef struct {
  OpFunc          func;
  gpointer        data;
  GDestroyNotify  free;
  /* The result, handed to the GTask in the caller's thread. */
  gboolean        boolean;
  gpointer        pointer;
  GDestroyNotify  pointer_free;
  GError         *error;
  gulong          cancelled_id;
  /* Set once by whoever completes the task first: the worker, or a
   * cancellation, which completes it at once while the worker winds
   * down the step it is in. */
  gint            completed;
  /* Caller's thread only: the result was delivered, so prompts, steps
   * and output still on their way are dropped; the worker let go. */
  gboolean        delivered;
  gboolean        released;
} Op;

static gboolean
op_is_delivered (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  return op->delivered;
}

/* Pushed by finalize to end the worker thread. */
static char quit_marker;

static void close_session (SlSshSession *self);

/* Runs @func in @context, after what was dispatched there before. Not
 * g_main_context_invoke(): from a thread without a context of its own it
 * may run the function right there when the caller's context is the
 * global default one and happens to be free. */
static void
dispatch_to_caller (GMainContext   *context,
                    GSourceFunc     func,
                    gpointer        data,
                    GDestroyNotify  destroy)
{
  GSource *source = g_idle_source_new ();

  /* The source may run, and a sync caller drop its context, before
   * g_source_unref() here: the context must outlive this function. */
  context = g_main_context_ref (context != NULL ? context : g_main_context_default ());
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, destroy);
  g_source_set_static_name (source, "[sightline] ssh session");
  g_source_attach (source, context);
  g_source_unref (source);
  g_main_context_unref (context);
}

/* Prompts */

static SlSshPrompt *
sl_ssh_prompt_new (SlSshPromptKind  kind,
                   const char      *message,
                   gboolean         echo)
{
  SlSshPrompt *prompt = g_new0 (SlSshPrompt, 1);

  g_atomic_ref_count_init (&prompt->ref_count);
  prompt->kind = kind;
  prompt->echo = echo;
  prompt->message = g_strdup (message);
  g_mutex_init (&prompt->mutex);
  g_cond_init (&prompt->cond);
  return prompt;
}

static void
wipe_string (char *text)
{
  if (text != NULL)
    {
      memset (text, 0, strlen (text));
      g_free (text);
    }
}

SlSshPrompt *
sl_ssh_prompt_ref (SlSshPrompt *prompt)
{
  g_return_val_if_fail (prompt != NULL, NULL);
  g_atomic_ref_count_inc (&prompt->ref_count);
  return prompt;
}

void
sl_ssh_prompt_unref (SlSshPrompt *prompt)
{
  g_return_if_fail (prompt != NULL);

  if (g_atomic_ref_count_dec (&prompt->ref_count))
    {
      wipe_string (prompt->answer);
      g_free (prompt->message);
      g_mutex_clear (&prompt->mutex);
      g_cond_clear (&prompt->cond);
      g_free (prompt);
    }
}

SlSshPromptKind
sl_ssh_prompt_get_kind (SlSshPrompt *prompt)
{
  g_return_val_if_fail (prompt != NULL, SL_SSH_PROMPT_PASSWORD);
  return prompt->kind;
}

const char *
sl_ssh_prompt_get_message (SlSshPrompt *prompt)
{
  g_return_val_if_fail (prompt != NULL, NULL);
  return prompt->message;
}

/**
 * sl_ssh_prompt_get_echo:
 *
 * Returns: %TRUE when the answer may be shown as it is typed
 */
gboolean
sl_ssh_prompt_get_echo (SlSshPrompt *prompt)
{
  g_return_val_if_fail (prompt != NULL, FALSE);
  return prompt->echo;
}

/**
 * sl_ssh_prompt_answer:
 * @answer: (nullable): the answer, or %NULL to cancel
 *
 * The answer is copied, used once and wiped; it is never stored.
 */
void
sl_ssh_prompt_answer (SlSshPrompt *prompt,
                      const char  *answer)
{
  g_return_if_fail (prompt != NULL);

  g_mutex_lock (&prompt->mutex);
  if (!prompt->answered)
    {
      prompt->answered = TRUE;
      prompt->answer = g_strdup (answer);
      g_cond_signal (&prompt->cond);
    }
  g_mutex_unlock (&prompt->mutex);
}

typedef struct {
  GTask       *task;
  SlSshPrompt *prompt;
} PromptCall;

static gboolean
prompt_in_caller (gpointer data)
{
  PromptCall *call = data;
  SlSshSession *self = g_task_get_source_object (call->task);
  SlSshPromptFunc func;
  gpointer user_data;

  if (op_is_delivered (call->task))
    {
      sl_ssh_prompt_answer (call->prompt, NULL);
      return G_SOURCE_REMOVE;
    }

  g_mutex_lock (&self->mutex);
  func = self->prompt_func;
  user_data = self->prompt_data;
  g_mutex_unlock (&self->mutex);

  if (func != NULL)
    func (call->prompt, user_data);
  else
    sl_ssh_prompt_answer (call->prompt, NULL);

  return G_SOURCE_REMOVE;
}

static void
prompt_call_free (gpointer data)
{
  PromptCall *call = data;

  sl_ssh_prompt_unref (call->prompt);
  g_object_unref (call->task);
  g_free (call);
}

/* Worker side: asks in the caller's main context and waits for the
 * answer. Returns NULL when there is no prompt function, when the user
 * cancelled, or when the operation was cancelled. Wipe the result. */
static char *
ask (SlSshSession    *self,
     SlSshPromptKind  kind,
     const char      *message,
     gboolean         echo)
{
  g_autoptr(SlSshPrompt) prompt = NULL;
  GCancellable *cancellable = g_task_get_cancellable (self->current_task);
  PromptCall *call;
  char *answer = NULL;
  gboolean has_func;

  g_mutex_lock (&self->mutex);
  has_func = self->prompt_func != NULL;
  g_mutex_unlock (&self->mutex);
  if (!has_func)
    return NULL;

  prompt = sl_ssh_prompt_new (kind, message, echo);
  call = g_new0 (PromptCall, 1);
  call->task = g_object_ref (self->current_task);
  call->prompt = sl_ssh_prompt_ref (prompt);
  dispatch_to_caller (g_task_get_context (self->current_task), prompt_in_caller, call, prompt_call_free);

  g_mutex_lock (&prompt->mutex);
  while (!prompt->answered && !g_cancellable_is_cancelled (cancellable))
    g_cond_wait_until (&prompt->cond, &prompt->mutex,
                       g_get_monotonic_time () + POLL_MS * G_TIME_SPAN_MILLISECOND);
  if (prompt->answered)
    {
      answer = g_steal_pointer (&prompt->answer);
    }
  else
    {
      /* A late answer must find nobody waiting and be wiped. */
      prompt->answered = TRUE;
    }
  g_mutex_unlock (&prompt->mutex);

  return answer;
}

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

  if (!op_is_delivered (call->task))
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

typedef struct {
  SlSshStepFunc func;
  gpointer      data;
} StepSink;

static void
report_step (GTask           *task,
             const StepSink  *sink,
             SlSshStep        step,
             SlSshStepStatus  status,
             const char      *detail,
             const char      *hint)
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
  dispatch_to_caller (g_task_get_context (task), step_in_caller, call, step_call_free);
}

static void
report_step_error (GTask          *task,
                   const StepSink *sink,
                   SlSshStep       step,
                   const GError   *error,
                   const char     *hint)
{
  report_step (task, sink, step, SL_SSH_STEP_FAILED, error->message, hint);
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
 * in the Op and given to the task in the caller's main context, so the
 * session is always finalized there, never on its own worker thread. */
static void
op_return_boolean (GTask    *task,
                   gboolean  value)
{
  Op *op = g_task_get_task_data (task);

  op->boolean = value;
}

static void
op_return_pointer (GTask          *task,
                   gpointer        pointer,
                   GDestroyNotify  pointer_free)
{
  Op *op = g_task_get_task_data (task);

  op->pointer = pointer;
  op->pointer_free = pointer_free;
}

static void
op_return_error (GTask  *task,
                 GError *error)
{
  Op *op = g_task_get_task_data (task);

  g_clear_error (&op->error);
  op->error = error;
}

static gboolean
op_return_error_if_cancelled (GTask *task)
{
  GError *error = NULL;

  if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &error))
    return FALSE;
  op_return_error (task, error);
  return TRUE;
}

static gboolean
complete_in_caller (gpointer data)
{
  GTask *task = data;
  Op *op = g_task_get_task_data (task);

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
  Op *op = g_task_get_task_data (task);
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
  Op *op = g_task_get_task_data (data);

  op->released = TRUE;
  return G_SOURCE_REMOVE;
}

/* Any thread: the caller hears of the cancellation at once. */
static void
on_op_cancelled (GCancellable *cancellable,
                 gpointer      data)
{
  GTask *task = data;
  Op *op = g_task_get_task_data (task);

  if (g_atomic_int_compare_and_exchange (&op->completed, 0, 1))
    dispatch_to_caller (g_task_get_context (task), complete_cancelled_in_caller, task, g_object_unref);
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
      Op *op;
      SlSshSession *self;

      if (item == &quit_marker)
        break;

      task = item;
      op = g_task_get_task_data (task);
      self = g_task_get_source_object (task);
      cancellable = g_task_get_cancellable (task);
      context = g_task_get_context (task);
      self->current_task = task;

      if (!g_atomic_int_get (&op->completed) && !op_return_error_if_cancelled (task))
        op->func (self, task, op->data, cancellable);

      self->current_task = NULL;
      if (op->cancelled_id != 0)
        g_cancellable_disconnect (cancellable, op->cancelled_id);
      if (g_atomic_int_compare_and_exchange (&op->completed, 0, 1))
        dispatch_to_caller (context, complete_in_caller, task, g_object_unref);
      dispatch_to_caller (context, release_in_caller, task, g_object_unref);
    }

  g_async_queue_unref (queue);
  return NULL;
}

static void
op_free (gpointer data)
{
  Op *op = data;

  if (op->free != NULL && op->data != NULL)
    op->free (op->data);
  if (op->pointer != NULL && op->pointer_free != NULL)
    op->pointer_free (op->pointer);
  g_clear_error (&op->error);
  g_free (op);
}

static void
queue_op (SlSshSession        *self,
          gpointer             source_tag,
          OpFunc               func,
          gpointer             data,
          GDestroyNotify       free_func,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Op *op = g_new0 (Op, 1);

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

/* Sync variants iterate a private main context until the async call is
 * done, so prompts, steps and output reach the calling thread. */
typedef struct {
  GMainContext *context;
  GAsyncResult *result;
} SyncCall;

static void
sync_call_init (SyncCall *call)
{
  call->context = g_main_context_new ();
  call->result = NULL;
  g_main_context_push_thread_default (call->context);
}

static void
sync_call_done (GObject      *object,
                GAsyncResult *result,
                gpointer      data)
{
  SyncCall *call = data;

  call->result = g_object_ref (result);
}

/* Waits for the result and for the worker to let go of the task: what
 * the worker sends afterwards must not go to a context nobody runs. */
static GAsyncResult *
sync_call_wait (SyncCall *call)
{
  while (call->result == NULL ||
         !((Op *)g_task_get_task_data (G_TASK (call->result)))->released)
    g_main_context_iteration (call->context, TRUE);

  g_main_context_pop_thread_default (call->context);
  g_main_context_unref (call->context);
  return call->result;
}

/* Errors */

static void
set_ssh_error (GError      **error,
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

/* Connecting */

typedef struct {
  char    *host;
  guint    port;
  char    *user;
  char    *identity_file;
  char    *known_hosts_file;
  char    *config_file;
  guint    timeout;
} Params;

static void
params_clear (Params *params)
{
  g_free (params->host);
  g_free (params->user);
  g_free (params->identity_file);
  g_free (params->known_hosts_file);
  g_free (params->config_file);
}

/* Paths typed by people may start with "~/". */
static char *
dup_expanded_path (const char *path)
{
  if (path != NULL && g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  return g_strdup (path);
}

static void
copy_params (SlSshSession *self,
             Params       *params)
{
  g_mutex_lock (&self->mutex);
  params->host = g_strdup (self->host);
  params->port = self->port;
  params->user = g_strdup (self->user);
  params->identity_file = dup_expanded_path (self->identity_file);
  params->known_hosts_file = dup_expanded_path (self->known_hosts_file);
  params->config_file = dup_expanded_path (self->config_file);
  params->timeout = self->timeout;
  g_mutex_unlock (&self->mutex);
}

static char *
dup_known_hosts_path (const Params *params)
{
  if (params->known_hosts_file != NULL)
    return g_strdup (params->known_hosts_file);
  return g_build_filename (g_get_home_dir (), ".ssh", "known_hosts", NULL);
}

static int
passphrase_callback (const char *message,
                     char       *buf,
                     size_t      len,
                     int         echo,
                     int         verify,
                     void       *userdata)
{
  SlSshSession *self = userdata;
  g_autofree char *text = NULL;
  char *answer;
  gsize answer_len;

  g_mutex_lock (&self->mutex);
  text = g_strdup_printf (_("Passphrase for the key %s"), self->identity_file != NULL ? self->identity_file : "");
  self->passphrase_unanswerable = self->prompt_func == NULL;
  g_mutex_unlock (&self->mutex);
  answer = ask (self, SL_SSH_PROMPT_PASSPHRASE, text, FALSE);
  if (answer == NULL)
    return -1;

  answer_len = strlen (answer);
  if (answer_len + 1 > len)
    {
      wipe_string (answer);
      return -1;
    }
  memcpy (buf, answer, answer_len + 1);
  wipe_string (answer);
  return 0;
}

/* Sets up the libssh session: options, ~/.ssh/config, our overrides. */
static gboolean
configure_session (SlSshSession  *self,
                   const Params  *params,
                   char         **resolved_host,
                   guint         *resolved_port,
                   gboolean      *uses_proxy,
                   GError       **error)
{
  char *proxy = NULL;
  long timeout = params->timeout;
  int nodelay = 1;
  char *host = NULL;
  unsigned int port = 0;

  self->ssh = ssh_new ();
  if (self->ssh == NULL)
    {
      g_set_error_literal (error, SL_SSH_ERROR, SL_SSH_ERROR_FAILED, _("Could not create an SSH session"));
      return FALSE;
    }

  if (ssh_options_set (self->ssh, SSH_OPTIONS_HOST, params->host) < 0)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_FAILED, _("The host name is not valid"));
      return FALSE;
    }

  /* AES-GCM first: libssh computes ChaCha20-Poly1305 (the usual first
   * choice) itself, at a fraction of the speed of AES through OpenSSL, and
   * that limits every large transfer. The same set of ciphers as libssh's
   * default, so every server that worked still does; a Ciphers line of
   * the SSH configuration, read next, still wins. */
  ssh_options_set (self->ssh, SSH_OPTIONS_CIPHERS_C_S, PREFERRED_CIPHERS);
  ssh_options_set (self->ssh, SSH_OPTIONS_CIPHERS_S_C, PREFERRED_CIPHERS);

  /* Host aliases, HostName, Port and User from the SSH configuration;
   * what the target names itself wins. */
  if (ssh_options_parse_config (self->ssh, params->config_file) < 0)
    g_debug ("Could not read the SSH configuration: %s", ssh_get_error (self->ssh));

  if (params->port != 0 && params->port != 22)
    ssh_options_set (self->ssh, SSH_OPTIONS_PORT, &params->port);
  if (params->user != NULL && params->user[0] != '\0')
    ssh_options_set (self->ssh, SSH_OPTIONS_USER, params->user);
  if (params->known_hosts_file != NULL)
    ssh_options_set (self->ssh, SSH_OPTIONS_KNOWNHOSTS, params->known_hosts_file);
  ssh_options_set (self->ssh, SSH_OPTIONS_TIMEOUT, &timeout);
  /* Without it, each synchronous SFTP write waits for a delayed ACK. */
  ssh_options_set (self->ssh, SSH_OPTIONS_NODELAY, &nodelay);

  self->callbacks.size = 0;
  self->callbacks.userdata = self;
  self->callbacks.auth_function = passphrase_callback;
  ssh_callbacks_init (&self->callbacks);
  ssh_set_callbacks (self->ssh, &self->callbacks);

  if (ssh_options_get (self->ssh, SSH_OPTIONS_HOST, &host) == SSH_OK && host != NULL)
    {
      *resolved_host = g_strdup (host);
      ssh_string_free_char (host);
    }
  else
    {
      *resolved_host = g_strdup (params->host);
    }

  ssh_options_get_port (self->ssh, &port);
  *resolved_port = port != 0 ? port : 22;

  /* ProxyCommand or ProxyJump: libssh reaches the host, not us. */
  *uses_proxy = ssh_options_get (self->ssh, SSH_OPTIONS_PROXYCOMMAND, &proxy) == SSH_OK && proxy != NULL;
  if (proxy != NULL)
    ssh_string_free_char (proxy);
  return TRUE;
}

static gboolean
resolve_host (const char    *host,
              GInetAddress **address,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GResolver) resolver = g_resolver_get_default ();
  g_autoptr(GError) local_error = NULL;
  GList *addresses;

  addresses = g_resolver_lookup_by_name (resolver, host, cancellable, &local_error);
  if (addresses == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_RESOLVE,
                     _("Could not find the address of “%s”: %s"), host, local_error->message);
      return FALSE;
    }

  *address = g_object_ref (addresses->data);
  g_resolver_free_addresses (addresses);
  return TRUE;
}

/* A TCP connection of our own first: it fails fast and clearly, with a
 * timeout, before libssh makes the real one. */
static gboolean
probe_tcp (GInetAddress  *address,
           const char    *host,
           guint          port,
           guint          timeout,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketAddress) socket_address = g_inet_socket_address_new (address, port);
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) local_error = NULL;

  g_socket_client_set_timeout (client, timeout);
  connection = g_socket_client_connect (client, G_SOCKET_CONNECTABLE (socket_address), cancellable, &local_error);
  if (connection != NULL)
    {
      g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
      return TRUE;
    }

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_steal_pointer (&local_error));
  else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_TIMED_OUT,
                 _("No answer from %s port %u within %u seconds"), host, port, timeout);
  else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_CONNECT,
                 _("%s refused the connection on port %u"), host, port);
  else
    g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_CONNECT,
                 _("Could not connect to %s port %u: %s"), host, port, local_error->message);
  return FALSE;
}

static gboolean
check_host_key (SlSshSession  *self,
                const Params  *params,
                const char    *host,
                char         **detail,
                GError       **error)
{
  g_autofree char *known_hosts = dup_known_hosts_path (params);
  g_autofree char *fingerprint = NULL;
  g_autofree char *key_type = NULL;
  ssh_key key = NULL;
  unsigned char *hash = NULL;
  size_t hash_len = 0;
  enum ssh_known_hosts_e state;
  gboolean accepted, remember;

  if (ssh_get_server_publickey (self->ssh, &key) < 0)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_PROTOCOL, _("The server sent no host key"));
      return FALSE;
    }

  key_type = g_strdup (ssh_key_type_to_char (ssh_key_type (key)));
  if (ssh_get_publickey_hash (key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hash_len) == 0)
    {
      char *text = ssh_get_fingerprint_hash (SSH_PUBLICKEY_HASH_SHA256, hash, hash_len);

      fingerprint = g_strdup (text);
      ssh_string_free_char (text);
      ssh_clean_pubkey_hash (&hash);
    }
  ssh_key_free (key);

  if (fingerprint == NULL)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_PROTOCOL, _("Could not compute the fingerprint of the host key"));
      return FALSE;
    }

  g_mutex_lock (&self->mutex);
  g_free (self->seen_key_type);
  self->seen_key_type = g_strdup (key_type);
  g_free (self->seen_fingerprint);
  self->seen_fingerprint = g_strdup (fingerprint);
  accepted = g_strcmp0 (self->accepted_fingerprint, fingerprint) == 0;
  remember = self->accepted_remember;
  g_mutex_unlock (&self->mutex);

  state = ssh_session_is_known_server (self->ssh);
  switch (state)
    {
    case SSH_KNOWN_HOSTS_OK:
      *detail = g_strdup_printf (_("%s key %s matches %s"), key_type, fingerprint, known_hosts);
      return TRUE;

    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER:
      /* Never accepted from here, whatever the caller said: the old
       * key has to be removed from the file on purpose. */
      g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_CHANGED,
                   _("WARNING: the host key of %s has changed! Someone may be intercepting the connection "
                     "(a man-in-the-middle attack), or the server was reinstalled. It now presents another key "
                     "(%s, fingerprint %s) than the one remembered in %s. The connection was refused."),
                   host, key_type, fingerprint, known_hosts);
      return FALSE;

    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN:
      if (!accepted)
        {
          g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN,
                       _("The host key of %s is not known yet (%s, fingerprint %s). Compare the "
                         "fingerprint with the one the server's administrator gives you before trusting it."),
                       host, key_type, fingerprint);
          return FALSE;
        }

      if (remember)
        {
          g_autofree char *folder = g_path_get_dirname (known_hosts);

          g_mkdir_with_parents (folder, 0700);
          if (ssh_session_update_known_hosts (self->ssh) != SSH_OK)
            {
              g_autofree char *what = g_strdup_printf (_("Could not add the host key to %s"), known_hosts);

              set_ssh_error (error, self, SL_SSH_ERROR_FAILED, what);
              return FALSE;
            }
          *detail = g_strdup_printf (_("%s key %s accepted and added to %s"), key_type, fingerprint, known_hosts);
        }
      else
        {
          *detail = g_strdup_printf (_("%s key %s accepted for this connection only"), key_type, fingerprint);
        }
      return TRUE;

    case SSH_KNOWN_HOSTS_ERROR:
    default:
      {
        g_autofree char *what = g_strdup_printf (_("Could not check the host key against %s"), known_hosts);

        set_ssh_error (error, self, SL_SSH_ERROR_FAILED, what);
        return FALSE;
      }
    }
}

static const char *
auth_method_name (int method)
{
  switch (method)
    {
    case SSH_AUTH_METHOD_PUBLICKEY:   return "publickey";
    case SSH_AUTH_METHOD_PASSWORD:    return "password";
    case SSH_AUTH_METHOD_INTERACTIVE: return "keyboard-interactive";
    case SSH_AUTH_METHOD_HOSTBASED:   return "hostbased";
    case SSH_AUTH_METHOD_GSSAPI_MIC:  return "gssapi-with-mic";
    default:                          return NULL;
    }
}

static char *
dup_method_list (int methods)
{
  static const int all[] = {
    SSH_AUTH_METHOD_PUBLICKEY, SSH_AUTH_METHOD_PASSWORD, SSH_AUTH_METHOD_INTERACTIVE,
    SSH_AUTH_METHOD_HOSTBASED, SSH_AUTH_METHOD_GSSAPI_MIC,
  };
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      if (methods & all[i])
        {
          if (out->len > 0)
            g_string_append (out, ", ");
          g_string_append (out, auth_method_name (all[i]));
        }
    }

  if (out->len == 0)
    g_string_append (out, "—");
  return g_string_free (out, FALSE);
}

static void
note_tried (GString    *tried,
            const char *what)
{
  if (tried->len > 0)
    g_string_append (tried, "; ");
  g_string_append (tried, what);
}

/* Returns SSH_AUTH_SUCCESS, SSH_AUTH_DENIED or SSH_AUTH_ERROR with
 * @error set. */
static int
auth_with_identity_file (SlSshSession  *self,
                         const char    *path,
                         GString       *tried,
                         GError       **error)
{
  ssh_key key = NULL;
  g_autofree char *what = NULL;
  int rc;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH, _("The key file %s does not exist"), path);
      return SSH_AUTH_ERROR;
    }

  self->passphrase_unanswerable = FALSE;
  rc = ssh_pki_import_privkey_file (path, NULL, passphrase_callback, self, &key);
  if (rc != SSH_OK)
    {
      if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
        return SSH_AUTH_ERROR;
      if (self->passphrase_unanswerable)
        g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH,
                     _("The private key %s is protected by a passphrase and it cannot be asked for here; "
                       "add the key to ssh-agent (ssh-add) first"), path);
      else
        g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH,
                     _("Could not read the private key %s (a wrong passphrase, or not a key file)"), path);
      return SSH_AUTH_ERROR;
    }

  what = g_strdup_printf (_("the key %s"), path);
  note_tried (tried, what);
  rc = ssh_userauth_publickey (self->ssh, NULL, key);
  ssh_key_free (key);
  if (rc == SSH_AUTH_ERROR)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
      return SSH_AUTH_ERROR;
    }
  return rc;
}

static int
auth_keyboard_interactive (SlSshSession  *self,
                           GError       **error)
{
  int rc = ssh_userauth_kbdint (self->ssh, NULL, NULL);

  while (rc == SSH_AUTH_INFO)
    {
      const char *instruction = ssh_userauth_kbdint_getinstruction (self->ssh);
      int n_prompts = ssh_userauth_kbdint_getnprompts (self->ssh);

      for (int i = 0; i < n_prompts; i++)
        {
          char echo = 0;
          const char *text = ssh_userauth_kbdint_getprompt (self->ssh, i, &echo);
          g_autofree char *message = NULL;
          char *answer;

          if (instruction != NULL && instruction[0] != '\0')
            message = g_strdup_printf ("%s\n%s", instruction, text);
          else
            message = g_strdup (text);

          answer = ask (self, SL_SSH_PROMPT_KEYBOARD_INTERACTIVE, message, echo != 0);
          if (answer == NULL)
            {
              if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
                g_set_error_literal (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH, _("Logging in was cancelled"));
              return SSH_AUTH_ERROR;
            }
          rc = ssh_userauth_kbdint_setanswer (self->ssh, i, answer);
          wipe_string (answer);
          if (rc < 0)
            {
              set_ssh_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
              return SSH_AUTH_ERROR;
            }
        }
      rc = ssh_userauth_kbdint (self->ssh, NULL, NULL);
    }

  if (rc == SSH_AUTH_ERROR)
    set_ssh_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
  return rc;
}

static int
auth_password (SlSshSession  *self,
               const char    *user,
               const char    *host,
               GError       **error)
{
  g_autofree char *message = g_strdup_printf (_("Password for %s@%s"), user, host);
  char *answer = ask (self, SL_SSH_PROMPT_PASSWORD, message, FALSE);
  int rc;

  if (answer == NULL)
    {
      if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
        g_set_error_literal (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH, _("Logging in was cancelled"));
      return SSH_AUTH_ERROR;
    }

  rc = ssh_userauth_password (self->ssh, NULL, answer);
  wipe_string (answer);
  if (rc == SSH_AUTH_ERROR)
    set_ssh_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
  return rc;
}

static gboolean
authenticate (SlSshSession  *self,
              const Params  *params,
              const char    *host,
              char         **detail,
              GError       **error)
{
  g_autoptr(GString) tried = g_string_new (NULL);
  g_autofree char *offered = NULL;
  char *user = NULL;
  g_autofree char *user_name = NULL;
  gboolean has_prompt;
  int methods;
  int rc;

  if (ssh_options_get (self->ssh, SSH_OPTIONS_USER, &user) == SSH_OK && user != NULL)
    {
      user_name = g_strdup (user);
      ssh_string_free_char (user);
    }
  else
    {
      user_name = g_strdup (g_get_user_name ());
    }

  g_mutex_lock (&self->mutex);
  has_prompt = self->prompt_func != NULL;
  g_mutex_unlock (&self->mutex);

  rc = ssh_userauth_none (self->ssh, NULL);
  if (rc == SSH_AUTH_SUCCESS)
    {
      *detail = g_strdup_printf (_("Logged in as %s without credentials"), user_name);
      return TRUE;
    }
  if (rc == SSH_AUTH_ERROR)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_AUTH, _("Authentication failed"));
      return FALSE;
    }

  methods = ssh_userauth_list (self->ssh, NULL);
  offered = dup_method_list (methods);

  if (methods & SSH_AUTH_METHOD_PUBLICKEY)
    {
      if (g_getenv ("SSH_AUTH_SOCK") != NULL)
        {
          note_tried (tried, _("ssh-agent"));
          rc = ssh_userauth_agent (self->ssh, NULL);
          if (rc == SSH_AUTH_SUCCESS)
            {
              *detail = g_strdup_printf (_("Logged in as %s with a key from ssh-agent"), user_name);
              return TRUE;
            }
        }

      if (params->identity_file != NULL)
        {
          rc = auth_with_identity_file (self, params->identity_file, tried, error);
          if (rc == SSH_AUTH_ERROR)
            return FALSE;
          if (rc == SSH_AUTH_SUCCESS)
            {
              *detail = g_strdup_printf (_("Logged in as %s with the key %s"), user_name, params->identity_file);
              return TRUE;
            }
        }
      else
        {
          note_tried (tried, _("the default keys in ~/.ssh"));
          rc = ssh_userauth_publickey_auto (self->ssh, NULL, NULL);
          if (rc == SSH_AUTH_SUCCESS)
            {
              *detail = g_strdup_printf (_("Logged in as %s with a default key"), user_name);
              return TRUE;
            }
        }
    }

  if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->current_task), error))
    return FALSE;

  if ((methods & SSH_AUTH_METHOD_INTERACTIVE) && has_prompt)
    {
      note_tried (tried, "keyboard-interactive");
      rc = auth_keyboard_interactive (self, error);
      if (rc == SSH_AUTH_ERROR)
        return FALSE;
      if (rc == SSH_AUTH_SUCCESS)
        {
          *detail = g_strdup_printf (_("Logged in as %s with keyboard-interactive authentication"), user_name);
          return TRUE;
        }
    }

  if ((methods & SSH_AUTH_METHOD_PASSWORD) && has_prompt)
    {
      note_tried (tried, _("a password"));
      rc = auth_password (self, user_name, host, error);
      if (rc == SSH_AUTH_ERROR)
        return FALSE;
      if (rc == SSH_AUTH_SUCCESS)
        {
          *detail = g_strdup_printf (_("Logged in as %s with a password"), user_name);
          return TRUE;
        }
    }

  g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH,
               _("The server refused to let %s log in (tried: %s; the server accepts: %s)"),
               user_name, tried->len > 0 ? tried->str : "—", offered);
  return FALSE;
}

static const char *
hint_for_error (const GError *error)
{
  if (error->domain != SL_SSH_ERROR)
    return NULL;

  switch ((SlSshError)error->code)
    {
    case SL_SSH_ERROR_RESOLVE:
      return _("Check the host name, or the network and DNS settings of this computer.");
    case SL_SSH_ERROR_CONNECT:
      return _("Check that the server is on, that an SSH server runs there and that the port is right.");
    case SL_SSH_ERROR_TIMED_OUT:
      return _("Check the address and port, and whether a firewall or VPN is in the way.");
    case SL_SSH_ERROR_HOST_KEY_UNKNOWN:
      return _("If the fingerprint is the server's, accept the key once or accept and remember it.");
    case SL_SSH_ERROR_HOST_KEY_CHANGED:
      return _("Ask the server's administrator whether the key changed. Only if it did, remove the old key "
               "from the known hosts file (ssh-keygen -R HOST -f FILE) and connect again.");
    case SL_SSH_ERROR_AUTH:
      return _("Check the user name and the key file, and that the public key is in ~/.ssh/authorized_keys on the server.");
    case SL_SSH_ERROR_PROTOCOL:
      return _("Check that the port leads to an SSH server.");
    case SL_SSH_ERROR_FAILED:
    case SL_SSH_ERROR_NOT_CONNECTED:
    case SL_SSH_ERROR_CHANNEL:
    case SL_SSH_ERROR_SFTP:
    default:
      return NULL;
    }
}

static void
fail_step (SlSshSession   *self,
           GTask          *task,
           const StepSink *sink,
           SlSshStep       step,
           GError         *error)
{
  report_step_error (task, sink, step, error, hint_for_error (error));
  close_session (self);
}

static gboolean
do_connect (SlSshSession    *self,
            GTask           *task,
            const StepSink  *sink,
            GCancellable    *cancellable,
            GError         **error)
{
  Params params = { 0 };
  g_autoptr(GInetAddress) address = NULL;
  g_autofree char *host = NULL;
  g_autofree char *address_text = NULL;
  g_autofree char *detail = NULL;
  const char *banner;
  guint port = 22;
  gboolean uses_proxy = FALSE;
  gboolean ok = FALSE;

  if (self->ssh != NULL && ssh_is_connected (self->ssh))
    return TRUE;
  close_session (self);

  copy_params (self, &params);

  if (!configure_session (self, &params, &host, &port, &uses_proxy, error))
    {
      fail_step (self, task, sink, SL_SSH_STEP_RESOLVE, *error);
      goto out;
    }

  if (uses_proxy)
    {
      address_text = g_strdup (host);
      detail = g_strdup_printf (_("%s is reached through the proxy of the SSH configuration"), host);
      report_step (task, sink, SL_SSH_STEP_RESOLVE, SL_SSH_STEP_OK, detail, NULL);
      g_clear_pointer (&detail, g_free);
    }
  else
    {
      if (!resolve_host (host, &address, cancellable, error))
        {
          fail_step (self, task, sink, SL_SSH_STEP_RESOLVE, *error);
          goto out;
        }
      address_text = g_inet_address_to_string (address);
      detail = g_strdup_printf (_("%s is %s"), host, address_text);
      report_step (task, sink, SL_SSH_STEP_RESOLVE, SL_SSH_STEP_OK, detail, NULL);
      g_clear_pointer (&detail, g_free);

      if (!probe_tcp (address, host, port, params.timeout, cancellable, error))
        {
          fail_step (self, task, sink, SL_SSH_STEP_CONNECT, *error);
          goto out;
        }
    }

  if (ssh_connect (self->ssh) != SSH_OK)
    {
      const char *reason = ssh_get_error (self->ssh);

      if (reason != NULL && strstr (reason, "imeout") != NULL)
        g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_TIMED_OUT,
                     _("%s port %u accepted the connection but sent no SSH greeting within %u seconds"),
                     host, port, params.timeout);
      else
        set_ssh_error (error, self, SL_SSH_ERROR_PROTOCOL, _("The SSH handshake failed"));
      fail_step (self, task, sink, SL_SSH_STEP_CONNECT, *error);
      goto out;
    }
  banner = ssh_get_serverbanner (self->ssh);
  detail = g_strdup_printf (_("Connected to %s port %u (%s)"), address_text, port, banner != NULL ? banner : "SSH");
  report_step (task, sink, SL_SSH_STEP_CONNECT, SL_SSH_STEP_OK, detail, NULL);
  g_clear_pointer (&detail, g_free);

  if (!check_host_key (self, &params, host, &detail, error))
    {
      fail_step (self, task, sink, SL_SSH_STEP_HOST_KEY, *error);
      goto out;
    }
  report_step (task, sink, SL_SSH_STEP_HOST_KEY, SL_SSH_STEP_OK, detail, NULL);
  g_clear_pointer (&detail, g_free);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      close_session (self);
      goto out;
    }

  if (!authenticate (self, &params, host, &detail, error))
    {
      fail_step (self, task, sink, SL_SSH_STEP_AUTH, *error);
      goto out;
    }
  report_step (task, sink, SL_SSH_STEP_AUTH, SL_SSH_STEP_OK, detail, NULL);

  g_mutex_lock (&self->mutex);
  self->connected = TRUE;
  g_mutex_unlock (&self->mutex);
  ok = TRUE;

out:
  params_clear (&params);
  return ok;
}

static void
close_session (SlSshSession *self)
{
  g_clear_pointer (&self->sftp, sftp_free);
  if (self->ssh != NULL)
    {
      if (ssh_is_connected (self->ssh))
        ssh_disconnect (self->ssh);
      ssh_free (self->ssh);
      self->ssh = NULL;
    }

  g_mutex_lock (&self->mutex);
  self->connected = FALSE;
  g_mutex_unlock (&self->mutex);
}

static gboolean
ensure_connected (SlSshSession  *self,
                  GTask         *task,
                  GCancellable  *cancellable,
                  GError       **error)
{
  if (self->ssh != NULL && ssh_is_connected (self->ssh))
    return TRUE;
  return do_connect (self, task, NULL, cancellable, error);
}

static void
connect_op (SlSshSession *self,
            GTask        *task,
            gpointer      data,
            GCancellable *cancellable)
{
  GError *error = NULL;

  if (do_connect (self, task, data, cancellable, &error))
    op_return_boolean (task, TRUE);
  else
    op_return_error (task, error);
}

/* Running commands */

typedef struct {
  GTask           *task;
  SlSshOutputFunc  func;
  gpointer         data;
  SlSshStream      stream;
  GBytes          *bytes;
} OutputCall;

static gboolean
output_in_caller (gpointer data)
{
  OutputCall *call = data;

  if (!op_is_delivered (call->task))
    call->func (call->stream, call->bytes, call->data);
  return G_SOURCE_REMOVE;
}

static void
output_call_free (gpointer data)
{
  OutputCall *call = data;

  g_object_unref (call->task);
  g_bytes_unref (call->bytes);
  g_free (call);
}

typedef struct {
  char            *command;
  GBytes          *input;
  SlSshOutputFunc  output_func;
  gpointer         output_data;
  /* For the sync run() helper, which collects instead of streaming. */
  GString         *out;
  GString         *err;
  int              exit_status;
} ExecData;

static void
exec_data_free (gpointer data)
{
  ExecData *exec = data;

  g_free (exec->command);
  g_clear_pointer (&exec->input, g_bytes_unref);
  g_free (exec);
}

static void
deliver_output (GTask       *task,
                ExecData    *exec,
                SlSshStream  stream,
                const char  *buf,
                int          len)
{
  OutputCall *call;

  if (exec->out != NULL)
    g_string_append_len (stream == SL_SSH_STREAM_STDOUT ? exec->out : exec->err, buf, len);

  if (exec->output_func == NULL)
    return;

  call = g_new0 (OutputCall, 1);
  call->task = g_object_ref (task);
  call->func = exec->output_func;
  call->data = exec->output_data;
  call->stream = stream;
  call->bytes = g_bytes_new (buf, len);
  dispatch_to_caller (g_task_get_context (task), output_in_caller, call, output_call_free);
}

/* Runs @exec->command on the worker thread. */
static gboolean
run_command (SlSshSession  *self,
             GTask         *task,
             ExecData      *exec,
             GCancellable  *cancellable,
             GError       **error)
{
  ssh_channel channel;
  char buf[16 * 1024];
  gboolean ok = FALSE;

  if (!ensure_connected (self, task, cancellable, error))
    return FALSE;

  channel = ssh_channel_new (self->ssh);
  if (channel == NULL || ssh_channel_open_session (channel) != SSH_OK)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_CHANNEL, _("Could not open a channel to the server"));
      if (channel != NULL)
        ssh_channel_free (channel);
      if (!ssh_is_connected (self->ssh))
        close_session (self);
      return FALSE;
    }

  if (ssh_channel_request_exec (channel, exec->command) != SSH_OK)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_CHANNEL, _("The server did not start the command"));
      goto out;
    }

  if (exec->input != NULL)
    {
      gsize size = 0;
      const char *data = g_bytes_get_data (exec->input, &size);

      while (size > 0)
        {
          int n = ssh_channel_write (channel, data, MIN (size, (gsize)G_MAXINT32));

          if (n <= 0)
            {
              set_ssh_error (error, self, SL_SSH_ERROR_CHANNEL, _("Could not send input to the command"));
              goto out;
            }
          data += n;
          size -= n;
        }
    }
  ssh_channel_send_eof (channel);

  while (!ssh_channel_is_eof (channel))
    {
      int n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ssh_channel_request_send_signal (channel, "TERM");
          goto out;
        }

      n = ssh_channel_read_timeout (channel, buf, sizeof buf, 0, POLL_MS);
      if (n == SSH_ERROR)
        {
          set_ssh_error (error, self, SL_SSH_ERROR_CHANNEL, _("The connection broke while the command ran"));
          goto out;
        }
      if (n > 0)
        deliver_output (task, exec, SL_SSH_STREAM_STDOUT, buf, n);

      while ((n = ssh_channel_read_nonblocking (channel, buf, sizeof buf, 1)) > 0)
        deliver_output (task, exec, SL_SSH_STREAM_STDERR, buf, n);
      if (n == SSH_ERROR)
        {
          set_ssh_error (error, self, SL_SSH_ERROR_CHANNEL, _("The connection broke while the command ran"));
          goto out;
        }
    }

  exec->exit_status = ssh_channel_get_exit_status (channel);
  ok = TRUE;

out:
  ssh_channel_close (channel);
  ssh_channel_free (channel);
  if (!ssh_is_connected (self->ssh))
    close_session (self);
  return ok;
}

static void
exec_op (SlSshSession *self,
         GTask        *task,
         gpointer      data,
         GCancellable *cancellable)
{
  ExecData *exec = data;
  GError *error = NULL;

  if (run_command (self, task, exec, cancellable, &error))
    op_return_boolean (task, TRUE);
  else
    op_return_error (task, error);
}

/* Testing a connection */

typedef struct {
  StepSink  sink;
  char     *base_dir;
  char     *setup_command;
} TestData;

static void
test_data_free (gpointer data)
{
  TestData *test = data;

  g_free (test->base_dir);
  g_free (test->setup_command);
  g_free (test);
}

static gboolean
run_capture (SlSshSession  *self,
             GTask         *task,
             const char    *command,
             char         **out,
             int           *exit_status,
             GCancellable  *cancellable,
             GError       **error)
{
  ExecData exec = { 0 };
  g_autoptr(GString) out_text = g_string_new (NULL);
  g_autoptr(GString) err_text = g_string_new (NULL);

  exec.command = (char *)command;
  exec.out = out_text;
  exec.err = err_text;
  exec.exit_status = -1;

  if (!run_command (self, task, &exec, cancellable, error))
    return FALSE;

  *out = g_strdup (out_text->str);
  *exit_status = exec.exit_status;
  return TRUE;
}

static char *
with_setup (const char *setup_command,
            const char *command)
{
  if (setup_command == NULL || setup_command[0] == '\0')
    return g_strdup (command);
  /* The newline ends a comment the setup command may end with. */
  return g_strdup_printf ("{ %s\n} >/dev/null 2>&1\n%s", setup_command, command);
}

static gboolean
test_shell (SlSshSession   *self,
            GTask          *task,
            const StepSink *sink,
            GCancellable   *cancellable,
            GError        **error)
{
  g_autofree char *out = NULL;
  int status = -1;

  if (!run_capture (self, task, "echo ok", &out, &status, cancellable, error))
    {
      report_step_error (task, sink, SL_SSH_STEP_SHELL, *error, NULL);
      return FALSE;
    }

  if (status != 0 || g_strcmp0 (g_strstrip (out), "ok") != 0)
    {
      g_set_error (error, SL_SSH_ERROR, SL_SSH_ERROR_CHANNEL,
                   _("“echo ok” answered “%s” with exit status %d"), out, status);
      report_step_error (task, sink, SL_SSH_STEP_SHELL, *error,
                         _("Check the login shell of the user on the server and its start-up files."));
      return FALSE;
    }

  report_step (task, sink, SL_SSH_STEP_SHELL, SL_SSH_STEP_OK, _("“echo ok” answered “ok”"), NULL);
  return TRUE;
}

static void
test_disk (SlSshSession   *self,
           GTask          *task,
           const StepSink *sink,
           const char     *base_dir,
           GCancellable   *cancellable)
{
  g_autofree char *quoted = sl_shell_quote_remote_path (base_dir);
  g_autofree char *command = g_strdup_printf ("df -Pk -- %s", quoted);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) fields = NULL;
  guint n_lines;
  int status = -1;

  if (!run_capture (self, task, command, &out, &status, cancellable, &error))
    {
      report_step_error (task, sink, SL_SSH_STEP_DISK, error, NULL);
      return;
    }

  lines = g_strsplit (g_strstrip (out), "\n", -1);
  n_lines = g_strv_length (lines);
  if (n_lines >= 2)
    fields = g_strsplit_set (lines[n_lines - 1], " \t", -1);

  if (status == 0 && fields != NULL)
    {
      g_autoptr(GPtrArray) words = g_ptr_array_new ();

      for (guint i = 0; fields[i] != NULL; i++)
        if (fields[i][0] != '\0')
          g_ptr_array_add (words, fields[i]);

      if (words->len >= 4)
        {
          guint64 available_kib = g_ascii_strtoull (g_ptr_array_index (words, 3), NULL, 10);
          g_autofree char *size = g_format_size (available_kib * 1024);
          g_autofree char *detail = g_strdup_printf (_("%s free in %s"), size, base_dir);

          report_step (task, sink, SL_SSH_STEP_DISK,
                       available_kib < 1024 * 1024 ? SL_SSH_STEP_WARNING : SL_SSH_STEP_OK, detail,
                       available_kib < 1024 * 1024 ? _("Less than 1 GB is free: free some space or choose another base folder.") : NULL);
          return;
        }
    }

  {
    g_autofree char *detail = g_strdup_printf (_("Could not measure the free space in %s (does the folder exist?)"), base_dir);

    report_step (task, sink, SL_SSH_STEP_DISK, SL_SSH_STEP_WARNING, detail,
                 _("Create the base folder on the server or choose another one."));
  }
}

static void
test_program (SlSshSession   *self,
              GTask          *task,
              const StepSink *sink,
              SlSshStep       step,
              const char     *setup_command,
              const char     *check,
              const char     *missing,
              const char     *hint,
              GCancellable   *cancellable)
{
  g_autofree char *command = with_setup (setup_command, check);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  if (!run_capture (self, task, command, &out, &status, cancellable, &error))
    {
      report_step_error (task, sink, step, error, NULL);
      return;
    }

  g_strstrip (out);
  if (status == 0 && out[0] != '\0')
    {
      g_autofree char *detail = g_strdelimit (g_strdup (out), "\n", ' ');

      report_step (task, sink, step, SL_SSH_STEP_OK, detail, NULL);
    }
  else
    report_step (task, sink, step, SL_SSH_STEP_WARNING, missing, hint);
}

static void
test_op (SlSshSession *self,
         GTask        *task,
         gpointer      data,
         GCancellable *cancellable)
{
  TestData *test = data;
  GError *error = NULL;
  const char *base_dir = test->base_dir != NULL && test->base_dir[0] != '\0' ? test->base_dir : "~";

  if (!do_connect (self, task, &test->sink, cancellable, &error) ||
      !test_shell (self, task, &test->sink, cancellable, &error))
    {
      op_return_error (task, error);
      return;
    }

  test_disk (self, task, &test->sink, base_dir, cancellable);
  test_program (self, task, &test->sink, SL_SSH_STEP_PYTHON, test->setup_command,
                "command -v python3 && python3 --version 2>&1",
                _("python3 was not found on the server"),
                _("Install Python 3 there, or set an environment setup command that puts it on PATH."),
                cancellable);
  test_program (self, task, &test->sink, SL_SSH_STEP_NPU_SMI, test->setup_command,
                "command -v npu-smi || { test -x /usr/local/sbin/npu-smi && echo /usr/local/sbin/npu-smi; }",
                _("npu-smi was not found: no Ascend driver on PATH"),
                _("On an Ascend server, set the environment setup command, for example: source /usr/local/Ascend/ascend-toolkit/set_env.sh"),
                cancellable);

  if (op_return_error_if_cancelled (task))
    return;
  op_return_boolean (task, TRUE);
}

/* SFTP */

static void
set_sftp_error (GError       **error,
                SlSshSession  *self,
                const char    *what,
                const char    *path)
{
  int code = self->sftp != NULL ? sftp_get_error (self->sftp) : SSH_FX_FAILURE;

  switch (code)
    {
    case SSH_FX_NO_SUCH_FILE:
    case SSH_FX_NO_SUCH_PATH:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: %s does not exist on the server"), what, path);
      break;
    case SSH_FX_PERMISSION_DENIED:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, _("%s: permission denied for %s"), what, path);
      break;
    case SSH_FX_FILE_ALREADY_EXISTS:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("%s: %s already exists"), what, path);
      break;
    default:
      {
        g_autofree char *full = g_strdup_printf ("%s (%s)", what, path);

        set_ssh_error (error, self, SL_SSH_ERROR_SFTP, full);
      }
    }
}

static gboolean
ensure_sftp (SlSshSession  *self,
             GTask         *task,
             GCancellable  *cancellable,
             GError       **error)
{
  if (!ensure_connected (self, task, cancellable, error))
    return FALSE;

  if (self->sftp != NULL)
    return TRUE;

  self->sftp = sftp_new (self->ssh);
  if (self->sftp == NULL)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_SFTP, _("The server does not offer SFTP"));
      return FALSE;
    }

  if (sftp_init (self->sftp) != SSH_OK)
    {
      set_ssh_error (error, self, SL_SSH_ERROR_SFTP, _("The server does not offer SFTP"));
      g_clear_pointer (&self->sftp, sftp_free);
      return FALSE;
    }

  return TRUE;
}

static GFileInfo *
file_info_from_attributes (sftp_attributes attributes,
                           const char     *name)
{
  GFileInfo *info = g_file_info_new ();
  GFileType type;

  switch (attributes->type)
    {
    case SSH_FILEXFER_TYPE_REGULAR:   type = G_FILE_TYPE_REGULAR; break;
    case SSH_FILEXFER_TYPE_DIRECTORY: type = G_FILE_TYPE_DIRECTORY; break;
    case SSH_FILEXFER_TYPE_SYMLINK:   type = G_FILE_TYPE_SYMBOLIC_LINK; break;
    case SSH_FILEXFER_TYPE_SPECIAL:   type = G_FILE_TYPE_SPECIAL; break;
    default:                          type = G_FILE_TYPE_UNKNOWN; break;
    }

  g_file_info_set_name (info, name);
  g_file_info_set_display_name (info, name);
  g_file_info_set_file_type (info, type);
  g_file_info_set_size (info, (goffset)attributes->size);
  g_file_info_set_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED, attributes->mtime64 != 0 ? attributes->mtime64 : attributes->mtime);
  g_file_info_set_attribute_uint32 (info, G_FILE_ATTRIBUTE_UNIX_MODE, attributes->permissions);
  return info;
}

typedef struct {
  char    *path;
  GFile   *local;
  guint64  offset;
  guint64  length;
} FileData;

static void
file_data_free (gpointer data)
{
  FileData *file = data;

  g_free (file->path);
  g_clear_object (&file->local);
  g_free (file);
}

static void
stat_op (SlSshSession *self,
         GTask        *task,
         gpointer      data,
         GCancellable *cancellable)
{
  FileData *file = data;
  GError *error = NULL;
  sftp_attributes attributes;
  g_autofree char *name = NULL;

  if (!ensure_sftp (self, task, cancellable, &error))
    {
      op_return_error (task, error);
      return;
    }

  attributes = sftp_stat (self->sftp, file->path);
  if (attributes == NULL)
    {
      set_sftp_error (&error, self, _("Could not look at a file"), file->path);
      op_return_error (task, error);
      return;
    }

  name = g_path_get_basename (file->path);
  op_return_pointer (task, file_info_from_attributes (attributes, name), g_object_unref);
  sftp_attributes_free (attributes);
}

static void
list_dir_op (SlSshSession *self,
             GTask        *task,
             gpointer      data,
             GCancellable *cancellable)
{
  FileData *file = data;
  GError *error = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  sftp_attributes attributes;
  sftp_dir dir;

  if (!ensure_sftp (self, task, cancellable, &error))
    {
      op_return_error (task, error);
      return;
    }

  dir = sftp_opendir (self->sftp, file->path);
  if (dir == NULL)
    {
      set_sftp_error (&error, self, _("Could not list a folder"), file->path);
      op_return_error (task, error);
      return;
    }

  infos = g_ptr_array_new_with_free_func (g_object_unref);
  while ((attributes = sftp_readdir (self->sftp, dir)) != NULL)
    {
      g_autoptr(GError) name_error = NULL;
      const char *name = attributes->name;

      if (g_strcmp0 (name, ".") == 0 || g_strcmp0 (name, "..") == 0)
        ;
      else if (!sl_shell_check_name (name, (gsize)-1, &name_error))
        g_warning ("Skipped an entry of %s: %s", file->path, name_error->message);
      else
        g_ptr_array_add (infos, file_info_from_attributes (attributes, name));

      sftp_attributes_free (attributes);

      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        break;
    }

  if (error == NULL && !sftp_dir_eof (dir))
    set_sftp_error (&error, self, _("Could not list a folder"), file->path);
  sftp_closedir (dir);

  if (error != NULL)
    op_return_error (task, error);
  else
    op_return_pointer (task, g_steal_pointer (&infos), (GDestroyNotify)g_ptr_array_unref);
}

typedef struct {
  guint32 id;
  guint64 offset;
  guint32 length;
} ReadRequest;

/* Several read requests stay in flight so a download is not limited to
 * one round trip per chunk. */
static gboolean
download_to_stream (SlSshSession   *self,
                    sftp_file       remote,
                    const char     *path,
                    guint64         start_offset,
                    GOutputStream  *out,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autofree char *buf = g_malloc (READ_CHUNK);
  ReadRequest requests[READS_IN_FLIGHT];
  guint head = 0, n_pending = 0;
  guint64 next_offset = start_offset;
  guint64 size_at_open = G_MAXUINT64;
  gboolean eof = FALSE;
  gboolean ok = FALSE;
  sftp_attributes attributes;

  /* Reads are only queued up to the size the file has now (and one past
   * it, to see the end or growth): a small file costs one round trip. */
  attributes = sftp_fstat (remote);
  if (attributes != NULL)
    {
      size_at_open = attributes->size;
      sftp_attributes_free (attributes);
    }

  for (;;)
    {
      ReadRequest request;
      int n;

      while (!eof && n_pending < READS_IN_FLIGHT && (next_offset < size_at_open || n_pending == 0))
        {
          ReadRequest *slot = &requests[(head + n_pending) % READS_IN_FLIGHT];
          int id;

          sftp_seek64 (remote, next_offset);
          id = sftp_async_read_begin (remote, READ_CHUNK);
          if (id < 0)
            {
              set_sftp_error (error, self, _("Could not read a file"), path);
              goto out;
            }
          slot->id = (guint32)id;
          slot->offset = next_offset;
          slot->length = READ_CHUNK;
          next_offset += READ_CHUNK;
          n_pending++;
        }

      if (n_pending == 0)
        break;

      request = requests[head];
      head = (head + 1) % READS_IN_FLIGHT;
      n_pending--;

      /* libssh answers every read with 0 once it saw the end, without
       * taking the reply off its queue; the replies still in flight
       * must be collected, or the queue grows with every file. */
      remote->eof = 0;
      n = sftp_async_read (remote, buf, request.length, request.id);
      if (n < 0)
        {
          set_sftp_error (error, self, _("Could not read a file"), path);
          goto out;
        }

      if (eof || n == 0)
        {
          /* Replies past the end still have to be collected. */
          eof = TRUE;
          continue;
        }

      if (!g_output_stream_write_all (out, buf, n, NULL, cancellable, error))
        goto out;

      if ((guint32)n < request.length)
        {
          /* A short read before the end: fetch the rest of this chunk
           * synchronously so the file stays in order. */
          guint64 offset = request.offset + n;
          guint32 remaining = request.length - n;

          sftp_seek64 (remote, offset);
          while (remaining > 0)
            {
              ssize_t got = sftp_read (remote, buf, remaining);

              if (got < 0)
                {
                  set_sftp_error (error, self, _("Could not read a file"), path);
                  goto out;
                }
              if (got == 0)
                {
                  eof = TRUE;
                  break;
                }
              if (!g_output_stream_write_all (out, buf, got, NULL, cancellable, error))
                goto out;
              remaining -= got;
            }
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }

  ok = TRUE;

out:
  /* Collect what is still in flight so libssh frees the replies. */
  while (n_pending > 0)
    {
      remote->eof = 0;
      sftp_async_read (remote, buf, requests[head].length, requests[head].id);
      head = (head + 1) % READS_IN_FLIGHT;
      n_pending--;
    }
  return ok;
}

static GFile *
dup_partial_file (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);
  g_autofree char *partial = g_strdup_printf (".%s.sl-part", basename);
  g_autoptr(GFile) parent = g_file_get_parent (file);

  return g_file_get_child (parent, partial);
}

static void
download_op (SlSshSession *self,
             GTask        *task,
             gpointer      data,
             GCancellable *cancellable)
{
  FileData *file = data;
  GError *error = NULL;
  g_autoptr(GFile) partial = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  sftp_file remote;
  gboolean ok;

  if (!ensure_sftp (self, task, cancellable, &error))
    {
      op_return_error (task, error);
      return;
    }

  remote = sftp_open (self->sftp, file->path, O_RDONLY, 0);
  if (remote == NULL)
    {
      set_sftp_error (&error, self, _("Could not open a file"), file->path);
      op_return_error (task, error);
      return;
    }

  /* Written beside the destination and renamed when complete, so a
   * broken transfer never leaves a truncated file under the real name. */
  partial = dup_partial_file (file->local);
  out = g_file_replace (partial, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, cancellable, &error);
  ok = out != NULL &&
       download_to_stream (self, remote, file->path, 0, G_OUTPUT_STREAM (out), cancellable, &error) &&
       g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, &error) &&
       g_file_move (partial, file->local, G_FILE_COPY_OVERWRITE, cancellable, NULL, NULL, &error);
  sftp_close (remote);

  if (!ok)
    {
      if (out != NULL)
        g_output_stream_close (G_OUTPUT_STREAM (out), NULL, NULL);
      g_file_delete (partial, NULL, NULL);
      op_return_error (task, error);
      return;
    }

  op_return_boolean (task, TRUE);
}

static void
upload_op (SlSshSession *self,
           GTask        *task,
           gpointer      data,
           GCancellable *cancellable)
{
  FileData *file = data;
  GError *error = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *dir = g_path_get_dirname (file->path);
  g_autofree char *base = g_path_get_basename (file->path);
  g_autofree char *partial_name = g_strdup_printf (".%s.sl-part-%08x", base, g_random_int ());
  g_autofree char *partial = g_build_path ("/", dir, partial_name, NULL);
  g_autofree char *buf = g_malloc (READ_CHUNK);
  sftp_file remote;
  guint32 mode = 0644;
  gboolean ok = FALSE;

  in = g_file_read (file->local, cancellable, &error);
  if (in == NULL || !ensure_sftp (self, task, cancellable, &error))
    {
      op_return_error (task, error);
      return;
    }

  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_UNIX_MODE "," G_FILE_ATTRIBUTE_TIME_MODIFIED,
                                         cancellable, NULL);
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_UNIX_MODE))
    mode = g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_UNIX_MODE) & 0777;

  remote = sftp_open (self->sftp, partial, O_WRONLY | O_CREAT | O_TRUNC, mode);
  if (remote == NULL)
    {
      set_sftp_error (&error, self, _("Could not create a file"), partial);
      op_return_error (task, error);
      return;
    }

  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, READ_CHUNK, cancellable, &error);
      gssize written = 0;

      if (n < 0)
        break;
      if (n == 0)
        {
          ok = TRUE;
          break;
        }
      while (written < n)
        {
          ssize_t w = sftp_write (remote, buf + written, n - written);

          if (w <= 0)
            {
              set_sftp_error (&error, self, _("Could not write a file"), partial);
              break;
            }
          written += w;
        }
      if (error != NULL)
        break;
    }

  if (sftp_close (remote) != SSH_OK && ok)
    {
      set_sftp_error (&error, self, _("Could not write a file"), partial);
      ok = FALSE;
    }

  /* The modification time is kept so the next upload can tell the file
   * is unchanged from its size and time alone. */
  if (ok && info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_TIME_MODIFIED))
    {
      struct timeval times[2] = { { 0, 0 }, { 0, 0 } };

      times[0].tv_sec = times[1].tv_sec = (time_t)g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
      sftp_utimes (self->sftp, partial, times);
    }

  if (ok && sftp_rename (self->sftp, partial, file->path) != SSH_OK)
    {
      /* Plain SFTP renames refuse to replace an existing file. */
      sftp_unlink (self->sftp, file->path);
      if (sftp_rename (self->sftp, partial, file->path) != SSH_OK)
        {
          set_sftp_error (&error, self, _("Could not rename the uploaded file"), file->path);
          ok = FALSE;
        }
    }

  if (!ok)
    {
      sftp_unlink (self->sftp, partial);
      op_return_error (task, error);
      return;
    }

  op_return_boolean (task, TRUE);
}

/* Appends the bytes of a remote file from file->offset on to the local
 * file, cut to that length first: resumes a download, or fetches what a
 * growing file gained. */
static void
download_range_op (SlSshSession *self,
                   GTask        *task,
                   gpointer      data,
                   GCancellable *cancellable)
{
  FileData *file = data;
  GError *error = NULL;
  g_autoptr(GFileIOStream) io = NULL;
  sftp_file remote;
  gboolean ok;

  if (!ensure_sftp (self, task, cancellable, &error))
    {
      op_return_error (task, error);
      return;
    }

  remote = sftp_open (self->sftp, file->path, O_RDONLY, 0);
  if (remote == NULL)
    {
      set_sftp_error (&error, self, _("Could not open a file"), file->path);
      op_return_error (task, error);
      return;
    }

  io = g_file_open_readwrite (file->local, cancellable, NULL);
  if (io == NULL && file->offset == 0)
    io = g_file_create_readwrite (file->local, G_FILE_CREATE_NONE, cancellable, &error);
  else if (io == NULL)
    io = g_file_open_readwrite (file->local, cancellable, &error);

  ok = io != NULL &&
       g_seekable_truncate (G_SEEKABLE (io), (goffset)file->offset, cancellable, &error) &&
       g_seekable_seek (G_SEEKABLE (io), (goffset)file->offset, G_SEEK_SET, cancellable, &error) &&
       download_to_stream (self, remote, file->path, file->offset,
                           g_io_stream_get_output_stream (G_IO_STREAM (io)), cancellable, &error) &&
       g_io_stream_close (G_IO_STREAM (io), cancellable, &error);
  sftp_close (remote);

  if (!ok)
    {
      if (io != NULL)
        g_io_stream_close (G_IO_STREAM (io), NULL, NULL);
      if (!ssh_is_connected (self->ssh))
        close_session (self);
      op_return_error (task, error);
      return;
    }

  op_return_boolean (task, TRUE);
}

static void
read_op (SlSshSession *self,
         GTask        *task,
         gpointer      data,
         GCancellable *cancellable)
{
  FileData *file = data;
  GError *error = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autofree char *buf = g_malloc (READ_CHUNK);
  sftp_file remote;

  if (!ensure_sftp (self, task, cancellable, &error))
    {
      op_return_error (task, error);
      return;
    }

  remote = sftp_open (self->sftp, file->path, O_RDONLY, 0);
  if (remote == NULL)
    {
      set_sftp_error (&error, self, _("Could not open a file"), file->path);
      op_return_error (task, error);
      return;
    }

  sftp_seek64 (remote, file->offset);
  while (bytes->len < file->length)
    {
      ssize_t got = sftp_read (remote, buf, MIN ((guint64)READ_CHUNK, file->length - bytes->len));

      if (got < 0)
        {
          set_sftp_error (&error, self, _("Could not read a file"), file->path);
          break;
        }
      if (got == 0)
        break;
      g_byte_array_append (bytes, (const guint8 *)buf, got);
    }
  sftp_close (remote);

  if (error != NULL)
    {
      if (!ssh_is_connected (self->ssh))
        close_session (self);
      op_return_error (task, error);
      return;
    }

  op_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&bytes)), (GDestroyNotify)g_bytes_unref);
}

static void
disconnect_op (SlSshSession *self,
               GTask        *task,
               gpointer      data,
               GCancellable *cancellable)
{
  close_session (self);
  op_return_boolean (task, TRUE);
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
  close_session (self);

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
 * sl_ssh_session_set_known_hosts_file:
 * @path: (nullable): where host keys are checked and remembered; %NULL
 *   for ~/.ssh/known_hosts
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

/**
 * sl_ssh_session_set_prompt_func:
 * @func: (nullable): asks the user for passwords, passphrases and
 *   keyboard-interactive answers; without it only keys are tried
 */
void
sl_ssh_session_set_prompt_func (SlSshSession    *self,
                                SlSshPromptFunc  func,
                                gpointer         user_data,
                                GDestroyNotify   destroy)
{
  GDestroyNotify old_destroy;
  gpointer old_data;

  g_return_if_fail (SL_IS_SSH_SESSION (self));

  g_mutex_lock (&self->mutex);
  old_destroy = self->prompt_destroy;
  old_data = self->prompt_data;
  self->prompt_func = func;
  self->prompt_data = user_data;
  self->prompt_destroy = destroy;
  g_mutex_unlock (&self->mutex);

  if (old_destroy != NULL)
    old_destroy (old_data);
}

/**
 * sl_ssh_session_accept_host_key:
 * @fingerprint: the SHA256 fingerprint the user agreed to, as
 *   sl_ssh_session_dup_host_key() gave it
 * @remember: %TRUE to add the key to the known hosts file
 *
 * Trusts an unknown host key for the next connections of this session.
 * Only a key with exactly this fingerprint is accepted, and only while
 * the known hosts file has no other key for the host: a changed key is
 * always refused.
 */
void
sl_ssh_session_accept_host_key (SlSshSession *self,
                                const char   *fingerprint,
                                gboolean      remember)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (fingerprint != NULL);

  g_mutex_lock (&self->mutex);
  g_free (self->accepted_fingerprint);
  self->accepted_fingerprint = g_strdup (fingerprint);
  self->accepted_remember = remember;
  g_mutex_unlock (&self->mutex);
}

/**
 * sl_ssh_session_dup_host_key:
 * @key_type: (out) (optional): such as "ssh-ed25519"
 * @fingerprint: (out) (optional): "SHA256:" and the base64 hash
 *
 * The host key the server showed at the latest connection attempt, to
 * show the user after %SL_SSH_ERROR_HOST_KEY_UNKNOWN or
 * %SL_SSH_ERROR_HOST_KEY_CHANGED.
 *
 * Returns: %FALSE when no key was seen yet
 */
gboolean
sl_ssh_session_dup_host_key (SlSshSession  *self,
                             char         **key_type,
                             char         **fingerprint)
{
  gboolean seen;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  g_mutex_lock (&self->mutex);
  seen = self->seen_fingerprint != NULL;
  if (key_type != NULL)
    *key_type = g_strdup (self->seen_key_type);
  if (fingerprint != NULL)
    *fingerprint = g_strdup (self->seen_fingerprint);
  g_mutex_unlock (&self->mutex);

  return seen;
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

/**
 * sl_ssh_session_connect_async:
 * @step_func: (nullable): told about each step (resolution, connection,
 *   host key, authentication) in the caller's main context
 *
 * Connects and logs in, unless already connected. Other operations
 * connect by themselves when needed; this one reports the steps.
 */
void
sl_ssh_session_connect_async (SlSshSession        *self,
                              SlSshStepFunc        step_func,
                              gpointer             step_data,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  StepSink *sink;

  g_return_if_fail (SL_IS_SSH_SESSION (self));

  sink = g_new0 (StepSink, 1);
  sink->func = step_func;
  sink->data = step_data;
  queue_op (self, sl_ssh_session_connect_async, connect_op, sink, g_free,
            cancellable, callback, user_data);
}

gboolean
sl_ssh_session_connect_finish (SlSshSession  *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_connect (SlSshSession  *self,
                        SlSshStepFunc  step_func,
                        gpointer       step_data,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  sync_call_init (&call);
  sl_ssh_session_connect_async (self, step_func, step_data, cancellable, sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_connect_finish (self, result, error);
}

/**
 * sl_ssh_session_test_async:
 * @base_dir: (nullable): the folder whose free space is measured; "~"
 *   when %NULL
 * @setup_command: (nullable): run before looking for python3 and npu-smi
 * @step_func: (nullable): told about every step in the caller's main
 *   context, with what to do next when one does not pass
 *
 * Connects (when not connected yet) and checks that the server is
 * usable: a shell answers, the free space in @base_dir, python3 and
 * npu-smi. Fails only when a step needed to go on fails; a missing
 * python3 or npu-smi is a warning.
 */
void
sl_ssh_session_test_async (SlSshSession        *self,
                           const char          *base_dir,
                           const char          *setup_command,
                           SlSshStepFunc        step_func,
                           gpointer             step_data,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  TestData *test;

  g_return_if_fail (SL_IS_SSH_SESSION (self));

  test = g_new0 (TestData, 1);
  test->sink.func = step_func;
  test->sink.data = step_data;
  test->base_dir = g_strdup (base_dir);
  test->setup_command = g_strdup (setup_command);
  queue_op (self, sl_ssh_session_test_async, test_op, test, test_data_free,
            cancellable, callback, user_data);
}

gboolean
sl_ssh_session_test_finish (SlSshSession  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_test (SlSshSession  *self,
                     const char    *base_dir,
                     const char    *setup_command,
                     SlSshStepFunc  step_func,
                     gpointer       step_data,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  sync_call_init (&call);
  sl_ssh_session_test_async (self, base_dir, setup_command, step_func, step_data, cancellable,
                             sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_test_finish (self, result, error);
}

/**
 * sl_ssh_session_exec_async:
 * @command: a shell command line; quote every path and argument in it
 *   with sl_shell_quote()
 * @input: (nullable): sent to the command's standard input, then end of file
 * @output_func: (nullable): receives standard output and error as they
 *   arrive, in the caller's main context, before the callback
 *
 * Runs @command on the server. Cancelling sends SIGTERM to the command
 * and closes its channel.
 */
void
sl_ssh_session_exec_async (SlSshSession        *self,
                           const char          *command,
                           GBytes              *input,
                           SlSshOutputFunc      output_func,
                           gpointer             output_data,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  ExecData *exec;

  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (command != NULL);

  exec = g_new0 (ExecData, 1);
  exec->command = g_strdup (command);
  exec->input = input != NULL ? g_bytes_ref (input) : NULL;
  exec->output_func = output_func;
  exec->output_data = output_data;
  exec->exit_status = -1;
  queue_op (self, sl_ssh_session_exec_async, exec_op, exec, exec_data_free,
            cancellable, callback, user_data);
}

/**
 * sl_ssh_session_exec_finish:
 * @exit_status: (out) (optional): the command's exit status, or -1 when
 *   the server sent none (the command was killed by a signal)
 */
gboolean
sl_ssh_session_exec_finish (SlSshSession  *self,
                            GAsyncResult  *result,
                            int           *exit_status,
                            GError       **error)
{
  ExecData *exec;
  Op *op;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  op = g_task_get_task_data (G_TASK (result));
  exec = op->data;
  if (!g_task_propagate_boolean (G_TASK (result), error))
    {
      /* Cancelled early, the worker may still be writing the status. */
      if (exit_status != NULL)
        *exit_status = -1;
      return FALSE;
    }
  if (exit_status != NULL)
    *exit_status = exec->exit_status;
  return TRUE;
}

gboolean
sl_ssh_session_exec (SlSshSession     *self,
                     const char       *command,
                     GBytes           *input,
                     SlSshOutputFunc   output_func,
                     gpointer          output_data,
                     int              *exit_status,
                     GCancellable     *cancellable,
                     GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  sync_call_init (&call);
  sl_ssh_session_exec_async (self, command, input, output_func, output_data, cancellable,
                             sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_exec_finish (self, result, exit_status, error);
}

static void
collect_output (SlSshStream  stream,
                GBytes      *data,
                gpointer     user_data)
{
  GString **texts = user_data;
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_string_append_len (texts[stream], bytes, size);
}

/**
 * sl_ssh_session_run:
 * @standard_output: (out) (optional): everything the command wrote there
 * @standard_error: (out) (optional): everything it wrote there
 *
 * Runs @command and waits, collecting its output.
 */
gboolean
sl_ssh_session_run (SlSshSession  *self,
                    const char    *command,
                    char         **standard_output,
                    char         **standard_error,
                    int           *exit_status,
                    GCancellable  *cancellable,
                    GError       **error)
{
  GString *texts[2] = { g_string_new (NULL), g_string_new (NULL) };
  gboolean ok;

  ok = sl_ssh_session_exec (self, command, NULL, collect_output, texts, exit_status, cancellable, error);

  if (ok && standard_output != NULL)
    *standard_output = g_string_free (texts[0], FALSE);
  else
    g_string_free (texts[0], TRUE);
  if (ok && standard_error != NULL)
    *standard_error = g_string_free (texts[1], FALSE);
  else
    g_string_free (texts[1], TRUE);

  return ok;
}

static FileData *
file_data_new (const char *path,
               GFile      *local)
{
  FileData *file = g_new0 (FileData, 1);

  file->path = g_strdup (path);
  file->local = local != NULL ? g_object_ref (local) : NULL;
  return file;
}

/**
 * sl_ssh_session_stat_async:
 * @path: a path on the server (SFTP paths: "~" is not expanded, relative
 *   paths start in the home folder)
 */
void
sl_ssh_session_stat_async (SlSshSession        *self,
                           const char          *path,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (path != NULL);

  queue_op (self, sl_ssh_session_stat_async, stat_op, file_data_new (path, NULL), file_data_free,
            cancellable, callback, user_data);
}

/**
 * sl_ssh_session_stat_finish:
 *
 * Returns: (transfer full): name, type, size, modification time and
 *   unix mode
 */
GFileInfo *
sl_ssh_session_stat_finish (SlSshSession  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GFileInfo *
sl_ssh_session_stat (SlSshSession  *self,
                     const char    *path,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), NULL);

  sync_call_init (&call);
  sl_ssh_session_stat_async (self, path, cancellable, sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_stat_finish (self, result, error);
}

/**
 * sl_ssh_session_list_dir_async:
 *
 * Lists a folder on the server. "." and ".." are left out; a name that
 * could leave the folder ("/" in it, a NUL byte) is left out with a
 * warning in the log.
 */
void
sl_ssh_session_list_dir_async (SlSshSession        *self,
                               const char          *path,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (path != NULL);

  queue_op (self, sl_ssh_session_list_dir_async, list_dir_op, file_data_new (path, NULL), file_data_free,
            cancellable, callback, user_data);
}

/**
 * sl_ssh_session_list_dir_finish:
 *
 * Returns: (transfer full) (element-type GFileInfo): the entries
 */
GPtrArray *
sl_ssh_session_list_dir_finish (SlSshSession  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GPtrArray *
sl_ssh_session_list_dir (SlSshSession  *self,
                         const char    *path,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), NULL);

  sync_call_init (&call);
  sl_ssh_session_list_dir_async (self, path, cancellable, sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_list_dir_finish (self, result, error);
}

/**
 * sl_ssh_session_download_async:
 *
 * Copies a file from the server, with several reads in flight. The local
 * file appears under its name only once complete.
 */
void
sl_ssh_session_download_async (SlSshSession        *self,
                               const char          *remote_path,
                               GFile               *local_file,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (remote_path != NULL);
  g_return_if_fail (G_IS_FILE (local_file));

  queue_op (self, sl_ssh_session_download_async, download_op, file_data_new (remote_path, local_file),
            file_data_free, cancellable, callback, user_data);
}

gboolean
sl_ssh_session_download_finish (SlSshSession  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_download (SlSshSession  *self,
                         const char    *remote_path,
                         GFile         *local_file,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  sync_call_init (&call);
  sl_ssh_session_download_async (self, remote_path, local_file, cancellable, sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_download_finish (self, result, error);
}

/**
 * sl_ssh_session_upload_async:
 *
 * Copies a file to the server: written under a temporary name in the
 * same folder, then renamed over @remote_path, so nobody on the server
 * sees a half-written file.
 */
void
sl_ssh_session_upload_async (SlSshSession        *self,
                             GFile               *local_file,
                             const char          *remote_path,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (G_IS_FILE (local_file));
  g_return_if_fail (remote_path != NULL);

  queue_op (self, sl_ssh_session_upload_async, upload_op, file_data_new (remote_path, local_file),
            file_data_free, cancellable, callback, user_data);
}

gboolean
sl_ssh_session_upload_finish (SlSshSession  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_upload (SlSshSession  *self,
                       GFile         *local_file,
                       const char    *remote_path,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  sync_call_init (&call);
  sl_ssh_session_upload_async (self, local_file, remote_path, cancellable, sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_upload_finish (self, result, error);
}

/**
 * sl_ssh_session_disconnect:
 *
 * Closes the connection once the queued operations are done. A later
 * operation connects again.
 */
void
sl_ssh_session_disconnect (SlSshSession *self)
{
  g_return_if_fail (SL_IS_SSH_SESSION (self));

  queue_op (self, sl_ssh_session_disconnect, disconnect_op, NULL, NULL, NULL, NULL, NULL);
}

/**
 * sl_ssh_session_download_range_async:
 * @offset: where to start in the remote file; the local file is cut to
 *   this length first (created when @offset is 0 and it is missing)
 *
 * Appends the remote file's bytes from @offset to its end to @local_file,
 * with several reads in flight: resumes a broken download, or fetches
 * what a growing file gained since the last time.
 */
void
sl_ssh_session_download_range_async (SlSshSession        *self,
                                     const char          *remote_path,
                                     guint64              offset,
                                     GFile               *local_file,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  FileData *file;

  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (remote_path != NULL);
  g_return_if_fail (G_IS_FILE (local_file));

  file = file_data_new (remote_path, local_file);
  file->offset = offset;
  queue_op (self, sl_ssh_session_download_range_async, download_range_op, file,
            file_data_free, cancellable, callback, user_data);
}

gboolean
sl_ssh_session_download_range_finish (SlSshSession  *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_ssh_session_download_range (SlSshSession  *self,
                               const char    *remote_path,
                               guint64        offset,
                               GFile         *local_file,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), FALSE);

  sync_call_init (&call);
  sl_ssh_session_download_range_async (self, remote_path, offset, local_file, cancellable,
                                       sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_download_range_finish (self, result, error);
}

/**
 * sl_ssh_session_read_async:
 * @offset: where to start reading
 * @length: the most bytes to read
 *
 * Reads part of a remote file into memory: fewer bytes than @length at
 * the end of the file.
 */
void
sl_ssh_session_read_async (SlSshSession        *self,
                           const char          *remote_path,
                           guint64              offset,
                           guint64              length,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  FileData *file;

  g_return_if_fail (SL_IS_SSH_SESSION (self));
  g_return_if_fail (remote_path != NULL);

  file = file_data_new (remote_path, NULL);
  file->offset = offset;
  file->length = length;
  queue_op (self, sl_ssh_session_read_async, read_op, file, file_data_free,
            cancellable, callback, user_data);
}

/**
 * sl_ssh_session_read_finish:
 *
 * Returns: (transfer full): the bytes read
 */
GBytes *
sl_ssh_session_read_finish (SlSshSession  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GBytes *
sl_ssh_session_read (SlSshSession  *self,
                     const char    *remote_path,
                     guint64        offset,
                     guint64        length,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  SyncCall call;

  g_return_val_if_fail (SL_IS_SSH_SESSION (self), NULL);

  sync_call_init (&call);
  sl_ssh_session_read_async (self, remote_path, offset, length, cancellable, sync_call_done, &call);
  result = sync_call_wait (&call);
  return sl_ssh_session_read_finish (self, result, error);
}
