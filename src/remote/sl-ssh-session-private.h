/* sl-ssh-session-private.h: what the files of SlSshSession share
 *
 * The session is split by concern: the worker and its ordered dispatch
 * (sl-ssh-session.c), connecting (-connect.c), host keys (-hostkey.c),
 * logging in (-auth.c), commands (-exec.c), the connection test
 * (-probe.c), SFTP file operations (-sftp.c) and whole-file transfers
 * (-transfer.c).
 *
 * Every operation is an SlSshOpFunc, queued with _sl_ssh_session_queue()
 * and run on the worker thread, the only thread that touches the libssh
 * session, its channels and SFTP. An operation reports through
 * _sl_ssh_op_return_*(), never by completing or dropping its GTask
 * itself: see sl-ssh-session.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libssh/libssh.h>
#include <libssh/callbacks.h>
#include <libssh/sftp.h>

#include "sl-ssh-prompt-private.h"
#include "sl-ssh-session.h"

G_BEGIN_DECLS

#define READ_CHUNK      (64 * 1024)
#define POLL_MS         100

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
  SlSshAuth        auth;
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

typedef void (*SlSshOpFunc) (SlSshSession *self,
                             GTask        *task,
                             gpointer      data,
                             GCancellable *cancellable);

/* The task data of every queued GTask. */
typedef struct {
  SlSshOpFunc     func;
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
} SlSshOp;

typedef struct {
  SlSshStepFunc func;
  gpointer      data;
} SlSshStepSink;

/* Sync variants iterate a private main context until the async call is
 * done, so prompts, steps and output reach the calling thread. */
typedef struct {
  GMainContext *context;
  GAsyncResult *result;
} SlSshSyncCall;

/* What a connection attempt uses, copied under the mutex at its start. */
typedef struct {
  char    *host;
  guint    port;
  char    *user;
  char    *identity_file;
  char    *known_hosts_file;   /* never NULL: see sl_known_hosts_dup_path() */
  char    *config_file;
  char    *ssh_dir;
  SlSshAuth auth;
  guint    timeout;
} SlSshParams;

typedef struct {
  char            *command;
  GBytes          *input;
  SlSshOutputFunc  output_func;
  gpointer         output_data;
  /* For the sync run() helper, which collects instead of streaming. */
  GString         *out;
  GString         *err;
  int              exit_status;
} SlSshExecData;

/* A remote path and what the file operations need besides. */
typedef struct {
  char    *path;
  GFile   *local;
  guint64  offset;
  guint64  length;
} SlSshFileData;

/* sl-ssh-session.c: the worker, dispatch to the caller, results */
void           _sl_ssh_session_queue                (SlSshSession         *self,
                                                     gpointer              source_tag,
                                                     SlSshOpFunc           func,
                                                     gpointer              data,
                                                     GDestroyNotify        free_func,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean       _sl_ssh_op_is_delivered              (GTask                *task);
void           _sl_ssh_op_return_boolean            (GTask                *task,
                                                     gboolean              value);
void           _sl_ssh_op_return_pointer            (GTask                *task,
                                                     gpointer              pointer,
                                                     GDestroyNotify        pointer_free);
void           _sl_ssh_op_return_error              (GTask                *task,
                                                     GError               *error);
gboolean       _sl_ssh_op_return_error_if_cancelled (GTask                *task);
void           _sl_ssh_report_step                  (GTask                *task,
                                                     const SlSshStepSink  *sink,
                                                     SlSshStep             step,
                                                     SlSshStepStatus       status,
                                                     const char           *detail,
                                                     const char           *hint);
void           _sl_ssh_report_step_error            (GTask                *task,
                                                     const SlSshStepSink  *sink,
                                                     SlSshStep             step,
                                                     const GError         *error,
                                                     const char           *hint);
void           _sl_ssh_sync_call_init               (SlSshSyncCall        *call);
void           _sl_ssh_sync_call_done               (GObject              *object,
                                                     GAsyncResult         *result,
                                                     gpointer              data);
GAsyncResult  *_sl_ssh_sync_call_wait               (SlSshSyncCall        *call);
void           _sl_ssh_session_set_error            (GError              **error,
                                                     SlSshSession         *self,
                                                     SlSshError            code,
                                                     const char           *what);

/* sl-ssh-session-connect.c */
gboolean       _sl_ssh_session_do_connect           (SlSshSession         *self,
                                                     GTask                *task,
                                                     const SlSshStepSink  *sink,
                                                     GCancellable         *cancellable,
                                                     GError              **error);
gboolean       _sl_ssh_session_ensure_connected     (SlSshSession         *self,
                                                     GTask                *task,
                                                     GCancellable         *cancellable,
                                                     GError              **error);
void           _sl_ssh_session_close                (SlSshSession         *self);

/* sl-ssh-session-hostkey.c */
gboolean       _sl_ssh_session_check_host_key       (SlSshSession         *self,
                                                     const SlSshParams    *params,
                                                     const char           *host,
                                                     guint                 port,
                                                     char                **detail,
                                                     GError              **error);

/* sl-ssh-session-auth.c */
gboolean       _sl_ssh_session_authenticate         (SlSshSession         *self,
                                                     const SlSshParams    *params,
                                                     const char           *host,
                                                     char                **detail,
                                                     char                **advice,
                                                     GError              **error);
int            _sl_ssh_session_passphrase_callback  (const char           *message,
                                                     char                 *buf,
                                                     size_t                len,
                                                     int                   echo,
                                                     int                   verify,
                                                     void                 *userdata);

/* sl-ssh-session-exec.c */
gboolean       _sl_ssh_session_run_command          (SlSshSession         *self,
                                                     GTask                *task,
                                                     SlSshExecData        *exec,
                                                     GCancellable         *cancellable,
                                                     GError              **error);

/* sl-ssh-session-sftp.c */
gboolean       _sl_ssh_session_ensure_sftp          (SlSshSession         *self,
                                                     GTask                *task,
                                                     GCancellable         *cancellable,
                                                     GError              **error);
void           _sl_ssh_session_set_sftp_error       (GError              **error,
                                                     SlSshSession         *self,
                                                     const char           *what,
                                                     const char           *path);
SlSshFileData *_sl_ssh_file_data_new                (const char           *path,
                                                     GFile                *local);
void           _sl_ssh_file_data_free               (gpointer              data);

G_END_DECLS
