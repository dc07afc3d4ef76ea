/* sl-folder-puller.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-folder-puller.h"
#include "sl-shell-quote.h"

void
sl_pull_result_free (SlPullResult *result)
{
  if (result == NULL)
    return;
  g_ptr_array_unref (result->changed);
  g_ptr_array_unref (result->refused);
  g_free (result);
}

typedef struct {
  char    *relative;
  char    *remote_path;
  guint64  size;
  guint64  mtime;
} PullEntry;

static void
pull_entry_free (gpointer data)
{
  PullEntry *entry = data;

  g_free (entry->relative);
  g_free (entry->remote_path);
  g_free (entry);
}

static gboolean
walk_remote (SlTargetShell  *shell,
             const char     *remote_dir,
             const char     *relative,
             const char     *local_dir,
             GPtrArray      *entries,
             SlPullResult   *result,
             GCancellable   *cancellable,
             GError        **error)
{
  g_autoptr(GPtrArray) infos = NULL;
  g_autofree char *local_path = NULL;

  infos = sl_target_shell_list_dir (shell, remote_dir, cancellable, error);
  if (infos == NULL)
    return FALSE;

  local_path = relative[0] != '\0' ? sl_transfer_join_checked (local_dir, relative, error) : g_strdup (local_dir);
  if (local_path == NULL || g_mkdir_with_parents (local_path, 0755) != 0)
    {
      if (local_path != NULL)
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                     _("Could not create the folder %s: %s"), local_path, g_strerror (errno));
      return FALSE;
    }

  for (guint i = 0; i < infos->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (infos, i);
      const char *name = g_file_info_get_name (info);
      g_autoptr(GError) name_error = NULL;
      g_autofree char *child_relative = NULL;
      g_autofree char *child_remote = NULL;

      if (!sl_shell_check_name (name, (gsize)-1, &name_error))
        {
          g_ptr_array_add (result->refused, g_strdup (name_error->message));
          continue;
        }
      /* Leftovers of our own transfers. */
      if (name[0] == '.' && strstr (name, ".sl-part") != NULL)
        continue;

      child_relative = relative[0] != '\0' ? g_strconcat (relative, "/", name, NULL) : g_strdup (name);
      child_remote = g_build_path ("/", remote_dir, name, NULL);

      switch (g_file_info_get_file_type (info))
        {
        case G_FILE_TYPE_DIRECTORY:
          if (!walk_remote (shell, child_remote, child_relative, local_dir, entries, result, cancellable, error))
            return FALSE;
          break;

        case G_FILE_TYPE_REGULAR:
          {
            PullEntry *entry = g_new0 (PullEntry, 1);

            entry->relative = g_steal_pointer (&child_relative);
            entry->remote_path = g_steal_pointer (&child_remote);
            entry->size = g_file_info_get_size (info);
            entry->mtime = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
            g_ptr_array_add (entries, entry);
          }
          break;

        case G_FILE_TYPE_SYMBOLIC_LINK:
          /* It could point anywhere on the server. */
          g_ptr_array_add (result->refused,
                           g_strdup_printf (_("%s is a symbolic link on the server and was not followed"), child_relative));
          break;

        default:
          g_ptr_array_add (result->refused,
                           g_strdup_printf (_("%s is not a regular file or folder and was left out"), child_relative));
          break;
        }
    }
  return TRUE;
}

static gboolean
set_mtime (GFile         *file,
           guint64        mtime,
           GError       **error)
{
  return g_file_set_attribute_uint64 (file, G_FILE_ATTRIBUTE_TIME_MODIFIED, mtime,
                                      G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, error);
}

/* The last bytes of the local copy still match the server's. */
static gboolean
prefix_unchanged (SlTargetShell  *shell,
                  PullEntry      *entry,
                  GFile          *local,
                  guint64         local_size,
                  GCancellable   *cancellable)
{
  guint64 length = MIN (local_size, SL_PULL_PREFIX_CHECK_BYTES);
  guint64 offset = local_size - length;
  g_autoptr(GBytes) remote = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autofree guint8 *buf = g_malloc (length);
  gsize got = 0;

  remote = sl_target_shell_read (shell, entry->remote_path, offset, length, cancellable, NULL);
  if (remote == NULL || g_bytes_get_size (remote) != length)
    return FALSE;

  in = g_file_read (local, cancellable, NULL);
  if (in == NULL ||
      !g_seekable_seek (G_SEEKABLE (in), (goffset)offset, G_SEEK_SET, cancellable, NULL) ||
      !g_input_stream_read_all (G_INPUT_STREAM (in), buf, length, &got, cancellable, NULL) ||
      got != length)
    return FALSE;

  return memcmp (buf, g_bytes_get_data (remote, NULL), length) == 0;
}

static gboolean
pull_entry (SlTargetShell  *shell,
            PullEntry      *entry,
            const char     *local_dir,
            SlPullResult   *result,
            GCancellable   *cancellable,
            GError        **error)
{
  g_autofree char *local_path = sl_transfer_join_checked (local_dir, entry->relative, error);
  g_autoptr(GFile) local = NULL;
  g_autoptr(GFileInfo) info = NULL;
  gboolean exists = FALSE;
  guint64 local_size = 0, local_mtime = 0;
  SlPullAction action;

  if (local_path == NULL)
    return FALSE;

  local = g_file_new_for_path (local_path);
  info = g_file_query_info (local, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                            G_FILE_ATTRIBUTE_TIME_MODIFIED, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  if (info != NULL)
    {
      if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
        {
          /* Something else took the name here (a link, a folder): the
           * file is never written through it. */
          g_ptr_array_add (result->refused,
                           g_strdup_printf (_("%s is not a regular file in the local copy and was left alone"), local_path));
          return TRUE;
        }
      exists = TRUE;
      local_size = g_file_info_get_size (info);
      local_mtime = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
    }

  action = sl_transfer_decide_pull (exists, local_size, local_mtime, entry->size, entry->mtime);
  if (action == SL_PULL_APPEND && !prefix_unchanged (shell, entry, local, local_size, cancellable))
    action = SL_PULL_FULL;

  switch (action)
    {
    case SL_PULL_SKIP:
      result->files_unchanged++;
      return TRUE;

    case SL_PULL_APPEND:
      if (!sl_target_shell_continue_download (shell, entry->remote_path, local, cancellable, error))
        return FALSE;
      result->files_appended++;
      break;

    case SL_PULL_FULL:
    default:
      {
        g_autoptr(GFile) parent = g_file_get_parent (local);
        g_autofree char *base = g_file_get_basename (local);
        g_autofree char *partial_name = g_strdup_printf (".%s.sl-part", base);
        g_autoptr(GFile) partial = g_file_get_child (parent, partial_name);

        /* A leftover of an earlier run may be of another version. */
        g_file_delete (partial, NULL, NULL);
        if (!sl_target_shell_continue_download (shell, entry->remote_path, partial, cancellable, error) ||
            !g_file_move (partial, local, G_FILE_COPY_OVERWRITE | G_FILE_COPY_NOFOLLOW_SYMLINKS,
                          cancellable, NULL, NULL, error))
          {
            g_file_delete (partial, NULL, NULL);
            return FALSE;
          }
        result->files_full++;
      }
      break;
    }

  {
    g_autoptr(GFileInfo) after = g_file_query_info (local, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                    G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
    guint64 new_size = after != NULL ? (guint64)g_file_info_get_size (after) : 0;

    result->bytes += new_size > local_size && action == SL_PULL_APPEND ? new_size - local_size : new_size;
    /* The time is only taken over when the size is the one listed, so a
     * file that grew meanwhile is looked at again next time. */
    if (new_size == entry->size && !set_mtime (local, entry->mtime, error))
      return FALSE;
  }

  g_ptr_array_add (result->changed, g_strdup (entry->relative));
  return TRUE;
}

/**
 * sl_folder_pull:
 * @remote_dir: a folder on the target ("~/…" allowed)
 * @local_dir: where it is mirrored, see sl_transfer_dup_cache_dir()
 *
 * Returns: (transfer full): what changed and what was left out, or %NULL
 *   with @error set
 */
SlPullResult *
sl_folder_pull (SlTargetShell           *shell,
                const char              *remote_dir,
                const char              *local_dir,
                SlTransferProgressFunc   progress_func,
                gpointer                 progress_data,
                GCancellable            *cancellable,
                GError                 **error)
{
  g_autoptr(SlPullResult) result = g_new0 (SlPullResult, 1);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (pull_entry_free);
  SlTransferMeter meter;
  guint64 bytes_total = 0;

  g_return_val_if_fail (SL_IS_TARGET_SHELL (shell), NULL);
  g_return_val_if_fail (remote_dir != NULL, NULL);
  g_return_val_if_fail (local_dir != NULL, NULL);

  result->changed = g_ptr_array_new_with_free_func (g_free);
  result->refused = g_ptr_array_new_with_free_func (g_free);

  if (!walk_remote (shell, remote_dir, "", local_dir, entries, result, cancellable, error))
    {
      sl_target_shell_explain_error (shell, _("Could not list the folder to pull"), remote_dir, error);
      return NULL;
    }

  for (guint i = 0; i < entries->len; i++)
    bytes_total += ((PullEntry *)g_ptr_array_index (entries, i))->size;
  sl_transfer_meter_start (&meter, entries->len, bytes_total);

  for (guint i = 0; i < entries->len; i++)
    {
      PullEntry *entry = g_ptr_array_index (entries, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      meter.progress.current = entry->relative;
      sl_transfer_meter_report (&meter, FALSE, progress_func, progress_data);

      if (!pull_entry (shell, entry, local_dir, result, cancellable, error))
        {
          sl_target_shell_explain_error (shell, _("Could not pull a file"), entry->remote_path, error);
          return NULL;
        }
      meter.progress.files_done++;
      meter.progress.bytes_done += entry->size;
    }

  meter.progress.current = NULL;
  sl_transfer_meter_report (&meter, TRUE, progress_func, progress_data);
  return g_steal_pointer (&result);
}

/* Pulling again and again */

struct _SlFolderPuller
{
  GObject        parent_instance;

  SlTargetShell *shell;
  char          *remote_dir;
  char          *local_dir;
  guint          interval_ms;
  GMainContext  *context;
  GThread       *thread;
  GCancellable  *cancellable;
  guint          n_pulls;
};

G_DEFINE_FINAL_TYPE (SlFolderPuller, sl_folder_puller, G_TYPE_OBJECT)

enum {
  CHANGED,
  FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  SlFolderPuller *self;
  GStrv           changed;
  char           *message;
} PullReport;

static void
pull_report_free (gpointer data)
{
  PullReport *report = data;

  g_object_unref (report->self);
  g_strfreev (report->changed);
  g_free (report->message);
  g_free (report);
}

static gboolean
report_in_owner (gpointer data)
{
  PullReport *report = data;

  if (g_cancellable_is_cancelled (report->self->cancellable))
    return G_SOURCE_REMOVE;
  if (report->changed != NULL)
    g_signal_emit (report->self, signals[CHANGED], 0, report->changed);
  else
    g_signal_emit (report->self, signals[FAILED], 0, report->message);
  return G_SOURCE_REMOVE;
}

static void
send_report (SlFolderPuller *self,
             PullReport     *report)
{
  GSource *source = g_idle_source_new ();

  report->self = g_object_ref (self);
  g_source_set_callback (source, report_in_owner, report, pull_report_free);
  g_source_set_static_name (source, "[sightline] folder puller");
  g_source_attach (source, self->context);
  g_source_unref (source);
}

static gpointer
puller_main (gpointer data)
{
  SlFolderPuller *self = data;

  while (!g_cancellable_is_cancelled (self->cancellable))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SlPullResult) result = NULL;
      PullReport *report = g_new0 (PullReport, 1);

      result = sl_folder_pull (self->shell, self->remote_dir, self->local_dir, NULL, NULL,
                               self->cancellable, &error);
      g_atomic_int_inc (&self->n_pulls);
      if (result != NULL && result->changed->len > 0)
        {
          g_ptr_array_add (result->changed, NULL);
          report->changed = (GStrv)g_ptr_array_steal (result->changed, NULL);
          send_report (self, report);
        }
      else if (result == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          report->message = g_strdup (error->message);
          send_report (self, report);
        }
      else
        g_free (report);

      for (guint waited = 0; waited < self->interval_ms && !g_cancellable_is_cancelled (self->cancellable); waited += 50)
        g_usleep (50 * G_TIME_SPAN_MILLISECOND);
    }

  g_object_unref (self);
  return NULL;
}

static void
sl_folder_puller_dispose (GObject *object)
{
  sl_folder_puller_stop (SL_FOLDER_PULLER (object));

  G_OBJECT_CLASS (sl_folder_puller_parent_class)->dispose (object);
}

static void
sl_folder_puller_finalize (GObject *object)
{
  SlFolderPuller *self = (SlFolderPuller *)object;

  g_clear_object (&self->shell);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_free (self->remote_dir);
  g_free (self->local_dir);

  G_OBJECT_CLASS (sl_folder_puller_parent_class)->finalize (object);
}

static void
sl_folder_puller_class_init (SlFolderPullerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_folder_puller_dispose;
  object_class->finalize = sl_folder_puller_finalize;

  /**
   * SlFolderPuller::changed:
   * @paths: the relative paths written by the latest pull
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRV);
  /**
   * SlFolderPuller::failed:
   * @message: why the latest pull failed; the next one is tried anyway
   */
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
sl_folder_puller_init (SlFolderPuller *self)
{
}

/**
 * sl_folder_puller_new:
 * @interval_ms: the pause between pulls
 *
 * Signals are emitted in the thread-default main context of the caller.
 *
 * Returns: (transfer full): a puller, not started
 */
SlFolderPuller *
sl_folder_puller_new (SlTargetShell *shell,
                      const char    *remote_dir,
                      const char    *local_dir,
                      guint          interval_ms)
{
  SlFolderPuller *self;

  g_return_val_if_fail (SL_IS_TARGET_SHELL (shell), NULL);
  g_return_val_if_fail (remote_dir != NULL && local_dir != NULL, NULL);

  self = g_object_new (SL_TYPE_FOLDER_PULLER, NULL);
  self->shell = g_object_ref (shell);
  self->remote_dir = g_strdup (remote_dir);
  self->local_dir = g_strdup (local_dir);
  self->interval_ms = MAX (interval_ms, 100);
  self->context = g_main_context_ref_thread_default ();
  return self;
}

void
sl_folder_puller_start (SlFolderPuller *self)
{
  g_return_if_fail (SL_IS_FOLDER_PULLER (self));

  if (self->thread != NULL)
    return;

  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->thread = g_thread_new ("sl-folder-puller", puller_main, g_object_ref (self));
}

/**
 * sl_folder_puller_stop:
 *
 * Stops pulling and waits for the pull under way to wind down.
 */
void
sl_folder_puller_stop (SlFolderPuller *self)
{
  g_return_if_fail (SL_IS_FOLDER_PULLER (self));

  if (self->thread == NULL)
    return;

  g_cancellable_cancel (self->cancellable);
  g_thread_join (g_steal_pointer (&self->thread));
}

guint
sl_folder_puller_get_n_pulls (SlFolderPuller *self)
{
  g_return_val_if_fail (SL_IS_FOLDER_PULLER (self), 0);
  return g_atomic_int_get (&self->n_pulls);
}
