/* sl-ssh-session.h: one connection to an SSH server
 *
 * A session owns one libssh session, its channels and its SFTP
 * subsystem, all on one worker thread of its own: libssh sessions must
 * not be shared between threads. Callers queue operations with the
 * *_async() calls; results, prompts and streamed output reach the
 * caller's thread-default main context. The sync variants run the same
 * operations and wait, for the command line and worker threads.
 * Operations run one after another, in the order they were queued.
 *
 * Cancelling an async operation completes it at once with
 * G_IO_ERROR_CANCELLED; the worker winds down the step it is in (a
 * running command within 100 ms, a step waiting on the server within
 * the timeout), and later operations start after that. The sync
 * variants return once the worker is done.
 *
 * Nothing secret is kept: a password or passphrase is asked for through
 * the prompt function when it is needed, used, and wiped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-ssh-prompt.h"

G_BEGIN_DECLS

#define SL_SSH_ERROR (sl_ssh_error_quark ())

typedef enum {
  SL_SSH_ERROR_FAILED,
  SL_SSH_ERROR_RESOLVE,            /* the host name is not known */
  SL_SSH_ERROR_CONNECT,            /* no TCP connection (refused, unreachable) */
  SL_SSH_ERROR_TIMED_OUT,          /* the server did not answer in time */
  SL_SSH_ERROR_PROTOCOL,           /* the SSH handshake failed */
  SL_SSH_ERROR_HOST_KEY_UNKNOWN,   /* see sl_ssh_session_dup_host_key() */
  SL_SSH_ERROR_HOST_KEY_CHANGED,   /* the key differs from the remembered one */
  SL_SSH_ERROR_AUTH,               /* every way of logging in was refused */
  SL_SSH_ERROR_NOT_CONNECTED,
  SL_SSH_ERROR_CHANNEL,            /* a command could not be started */
  SL_SSH_ERROR_SFTP,               /* a file operation failed */
} SlSshError;

typedef enum {
  SL_SSH_STREAM_STDOUT,
  SL_SSH_STREAM_STDERR,
} SlSshStream;

typedef enum {
  SL_SSH_STEP_RESOLVE,
  SL_SSH_STEP_CONNECT,
  SL_SSH_STEP_HOST_KEY,
  SL_SSH_STEP_AUTH,
  SL_SSH_STEP_SHELL,
  SL_SSH_STEP_DISK,
  SL_SSH_STEP_PYTHON,
  SL_SSH_STEP_NPU_SMI,
  SL_SSH_N_STEPS
} SlSshStep;

typedef enum {
  SL_SSH_STEP_OK,
  SL_SSH_STEP_WARNING,   /* works, but something the user may need is missing */
  SL_SSH_STEP_FAILED,
} SlSshStepStatus;

#define SL_SSH_DEFAULT_TIMEOUT_SECONDS 10

/* How the user chose to log in: what a failure is explained against.
 * Keys (ssh-agent's, then the key file or the default keys) are offered
 * first whatever the choice, then keyboard-interactive and a password
 * when there is a prompt function. */
typedef enum {
  SL_SSH_AUTH_AGENT,
  SL_SSH_AUTH_KEY,
  SL_SSH_AUTH_PASSWORD,
  SL_SSH_AUTH_KEYBOARD_INTERACTIVE,
} SlSshAuth;

/**
 * SlSshPromptFunc:
 * @prompt: what is asked; answer it with sl_ssh_prompt_answer(), now or
 *   later (for example when a dialog closes), exactly once
 *
 * Called in the main context of the caller of the running operation.
 */
typedef void (*SlSshPromptFunc) (SlSshPrompt *prompt,
                                 gpointer     user_data);

/**
 * SlSshOutputFunc:
 * Output of a remote command as it arrives, in the caller's main context.
 */
typedef void (*SlSshOutputFunc) (SlSshStream  stream,
                                 GBytes      *data,
                                 gpointer     user_data);

/**
 * SlSshStepFunc:
 * @detail: what was found or what went wrong, for people
 * @hint: (nullable): what to do next when the step did not pass
 */
typedef void (*SlSshStepFunc) (SlSshStep        step,
                               SlSshStepStatus  status,
                               const char      *detail,
                               const char      *hint,
                               gpointer         user_data);

#define SL_TYPE_SSH_SESSION (sl_ssh_session_get_type ())
G_DECLARE_FINAL_TYPE (SlSshSession, sl_ssh_session, SL, SSH_SESSION, GObject)

GQuark        sl_ssh_error_quark                  (void);
const char   *sl_ssh_step_get_title               (SlSshStep        step);

SlSshSession *sl_ssh_session_new                  (const char      *host,
                                                   guint            port,
                                                   const char      *user);
void          sl_ssh_session_set_identity_file    (SlSshSession    *self,
                                                   const char      *path);
void          sl_ssh_session_set_auth             (SlSshSession    *self,
                                                   SlSshAuth        auth);
void          sl_ssh_session_set_known_hosts_file (SlSshSession    *self,
                                                   const char      *path);
void          sl_ssh_session_set_config_file      (SlSshSession    *self,
                                                   const char      *path);
void          sl_ssh_session_set_timeout          (SlSshSession    *self,
                                                   guint            seconds);
void          sl_ssh_session_set_prompt_func      (SlSshSession    *self,
                                                   SlSshPromptFunc  func,
                                                   gpointer         user_data,
                                                   GDestroyNotify   destroy);
void          sl_ssh_session_accept_host_key      (SlSshSession    *self,
                                                   const char      *fingerprint,
                                                   gboolean         remember);
gboolean      sl_ssh_session_dup_host_key         (SlSshSession    *self,
                                                   char           **key_type,
                                                   char           **fingerprint);
gboolean      sl_ssh_session_is_connected         (SlSshSession    *self);

void          sl_ssh_session_connect_async        (SlSshSession        *self,
                                                   SlSshStepFunc        step_func,
                                                   gpointer             step_data,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean      sl_ssh_session_connect_finish       (SlSshSession        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
gboolean      sl_ssh_session_connect              (SlSshSession        *self,
                                                   SlSshStepFunc        step_func,
                                                   gpointer             step_data,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_test_async           (SlSshSession        *self,
                                                   const char          *base_dir,
                                                   const char          *setup_command,
                                                   SlSshStepFunc        step_func,
                                                   gpointer             step_data,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean      sl_ssh_session_test_finish          (SlSshSession        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
gboolean      sl_ssh_session_test                 (SlSshSession        *self,
                                                   const char          *base_dir,
                                                   const char          *setup_command,
                                                   SlSshStepFunc        step_func,
                                                   gpointer             step_data,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_exec_async           (SlSshSession        *self,
                                                   const char          *command,
                                                   GBytes              *input,
                                                   SlSshOutputFunc      output_func,
                                                   gpointer             output_data,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean      sl_ssh_session_exec_finish          (SlSshSession        *self,
                                                   GAsyncResult        *result,
                                                   int                 *exit_status,
                                                   GError             **error);
gboolean      sl_ssh_session_exec                 (SlSshSession        *self,
                                                   const char          *command,
                                                   GBytes              *input,
                                                   SlSshOutputFunc      output_func,
                                                   gpointer             output_data,
                                                   int                 *exit_status,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
gboolean      sl_ssh_session_run                  (SlSshSession        *self,
                                                   const char          *command,
                                                   char               **standard_output,
                                                   char               **standard_error,
                                                   int                 *exit_status,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_stat_async           (SlSshSession        *self,
                                                   const char          *path,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
GFileInfo    *sl_ssh_session_stat_finish          (SlSshSession        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
GFileInfo    *sl_ssh_session_stat                 (SlSshSession        *self,
                                                   const char          *path,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_list_dir_async       (SlSshSession        *self,
                                                   const char          *path,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
GPtrArray    *sl_ssh_session_list_dir_finish      (SlSshSession        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
GPtrArray    *sl_ssh_session_list_dir             (SlSshSession        *self,
                                                   const char          *path,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_download_async       (SlSshSession        *self,
                                                   const char          *remote_path,
                                                   GFile               *local_file,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean      sl_ssh_session_download_finish      (SlSshSession        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
gboolean      sl_ssh_session_download             (SlSshSession        *self,
                                                   const char          *remote_path,
                                                   GFile               *local_file,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_upload_async         (SlSshSession        *self,
                                                   GFile               *local_file,
                                                   const char          *remote_path,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean      sl_ssh_session_upload_finish        (SlSshSession        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
gboolean      sl_ssh_session_upload               (SlSshSession        *self,
                                                   GFile               *local_file,
                                                   const char          *remote_path,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_download_range_async (SlSshSession        *self,
                                                   const char          *remote_path,
                                                   guint64              offset,
                                                   GFile               *local_file,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean      sl_ssh_session_download_range_finish (SlSshSession       *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
gboolean      sl_ssh_session_download_range       (SlSshSession        *self,
                                                   const char          *remote_path,
                                                   guint64              offset,
                                                   GFile               *local_file,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_read_async           (SlSshSession        *self,
                                                   const char          *remote_path,
                                                   guint64              offset,
                                                   guint64              length,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
GBytes       *sl_ssh_session_read_finish          (SlSshSession        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
GBytes       *sl_ssh_session_read                 (SlSshSession        *self,
                                                   const char          *remote_path,
                                                   guint64              offset,
                                                   guint64              length,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

void          sl_ssh_session_disconnect           (SlSshSession        *self);

G_END_DECLS
