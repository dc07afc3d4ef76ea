/* sl-replace-stream.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#ifdef G_OS_UNIX
# include <unistd.h>
#endif

#include "sl-main-thread.h"
#include "sl-replace-stream.h"

/* Symbolic links followed to the file they name before giving up. */
#define MAX_LINKS 16
/* Bytes of the target's name kept in the temporary file's name. */
#define MAX_NAME_IN_TEMP 64

struct _SlReplaceStream
{
  GOutputStream  parent_instance;

  GFile         *target;   /* the file replaced, its symbolic links followed */
  GFile         *temp;     /* NULL when the target is a pipe or a device, written directly */
  GOutputStream *out;
  char          *name;     /* the target as the user named it, for messages */
  guint32        mode;     /* the permissions of the file replaced, 0 for a new one */
  gboolean       committed;
};

G_DEFINE_FINAL_TYPE (SlReplaceStream, sl_replace_stream, G_TYPE_OUTPUT_STREAM)

/* "Cannot write “NAME”: " before @error's message. */
static void
prefix_error (SlReplaceStream  *self,
              GError          **error)
{
  g_prefix_error (error, _("Cannot write “%s”: "), self->name);
}

/* An error of the temporary file said of the target: the temporary
 * file's name means nothing to the user. */
static void
set_temp_error (GError     **error,
                const char  *name,
                GError      *temp_error)
{
  const char *reason;

  switch (temp_error->code)
    {
    case G_IO_ERROR_NOT_FOUND:
      reason = _("its folder does not exist");
      break;
    case G_IO_ERROR_PERMISSION_DENIED:
      reason = _("its folder may not be written to");
      break;
    case G_IO_ERROR_READ_ONLY:
      reason = _("its folder is on a read-only file system");
      break;
    case G_IO_ERROR_NO_SPACE:
      reason = _("the disk is full");
      break;
    case G_IO_ERROR_NOT_DIRECTORY:
      reason = _("a part of its path is not a folder");
      break;
    default:
      reason = temp_error->message;
      break;
    }
  g_set_error (error, temp_error->domain, temp_error->code, _("Cannot write “%s”: %s"), name, reason);
}

static void
discard (SlReplaceStream *self)
{
  if (self->out != NULL)
    g_output_stream_close (self->out, NULL, NULL);
  if (self->temp != NULL)
    g_file_delete (self->temp, NULL, NULL);
  g_clear_object (&self->temp);
}

static gssize
sl_replace_stream_write_fn (GOutputStream  *stream,
                            const void     *buffer,
                            gsize           count,
                            GCancellable   *cancellable,
                            GError        **error)
{
  SlReplaceStream *self = SL_REPLACE_STREAM (stream);
  gssize n = g_output_stream_write (self->out, buffer, count, cancellable, error);

  if (n < 0)
    prefix_error (self, error);
  return n;
}

static gboolean
sl_replace_stream_flush (GOutputStream  *stream,
                         GCancellable   *cancellable,
                         GError        **error)
{
  SlReplaceStream *self = SL_REPLACE_STREAM (stream);

  /* closing flushes first, also after a commit or a failed start */
  if (self->out == NULL || g_output_stream_is_closed (self->out))
    return TRUE;
  if (!g_output_stream_flush (self->out, cancellable, error))
    {
      prefix_error (self, error);
      return FALSE;
    }
  return TRUE;
}

/* Closing without a commit leaves the target as it was. */
static gboolean
sl_replace_stream_close_fn (GOutputStream  *stream,
                            GCancellable   *cancellable,
                            GError        **error)
{
  SlReplaceStream *self = SL_REPLACE_STREAM (stream);

  if (!self->committed)
    discard (self);
  return TRUE;
}

static void
sl_replace_stream_finalize (GObject *object)
{
  SlReplaceStream *self = SL_REPLACE_STREAM (object);

  /* GOutputStream's dispose closed it: the temporary file is gone. */
  g_clear_object (&self->out);
  g_clear_object (&self->temp);
  g_clear_object (&self->target);
  g_free (self->name);

  G_OBJECT_CLASS (sl_replace_stream_parent_class)->finalize (object);
}

static void
sl_replace_stream_class_init (SlReplaceStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GOutputStreamClass *stream_class = G_OUTPUT_STREAM_CLASS (klass);

  object_class->finalize = sl_replace_stream_finalize;
  stream_class->write_fn = sl_replace_stream_write_fn;
  stream_class->flush = sl_replace_stream_flush;
  stream_class->close_fn = sl_replace_stream_close_fn;
}

static void
sl_replace_stream_init (SlReplaceStream *self)
{
}

/* The file @target names once its symbolic links are followed, with its
 * type (G_FILE_TYPE_UNKNOWN when it does not exist yet). */
static GFile *
follow_links (GFile         *target,
              const char    *name,
              GFileType     *type,
              guint32       *mode,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GFile) file = g_object_ref (target);

  for (guint i = 0; i < MAX_LINKS; i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(GFileInfo) info = g_file_query_info (file,
                                                     G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                                     G_FILE_ATTRIBUTE_STANDARD_SYMLINK_TARGET ","
                                                     G_FILE_ATTRIBUTE_UNIX_MODE,
                                                     G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, &local_error);
      g_autoptr(GFile) parent = NULL;
      const char *link;

      if (info == NULL)
        {
          if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            {
              set_temp_error (error, name, local_error);
              return NULL;
            }
          *type = G_FILE_TYPE_UNKNOWN;
          return g_steal_pointer (&file);
        }

      *type = g_file_info_get_file_type (info);
      if (g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_UNIX_MODE))
        *mode = g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_UNIX_MODE) & 07777;
      if (*type != G_FILE_TYPE_SYMBOLIC_LINK || (link = g_file_info_get_symlink_target (info)) == NULL)
        return g_steal_pointer (&file);

      parent = g_file_get_parent (file);
      g_object_unref (file);
      file = parent != NULL ? g_file_resolve_relative_path (parent, link) : g_file_new_for_path (link);
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS,
               _("Cannot write “%s”: it is a symbolic link that leads to another more than %d times"), name, MAX_LINKS);
  return NULL;
}

/* ".NAME.XXXXXX.part" beside @target, created here and now. */
static GFileOutputStream *
create_temp (GFile         *target,
             GFile        **temp,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GFile) parent = g_file_get_parent (target);
  g_autofree char *base = g_file_get_basename (target);

  if (parent == NULL || base == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME, _("it is not a file name"));
      return NULL;
    }
  if (strlen (base) > MAX_NAME_IN_TEMP)
    {
      /* cut at a character's start when the name is UTF-8 */
      char *end = base + MAX_NAME_IN_TEMP;

      if (g_utf8_validate (base, -1, NULL))
        end = g_utf8_find_prev_char (base, end + 1);
      *end = '\0';
    }

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autofree char *name = g_strdup_printf (".%s.%06x.part", base, g_random_int () & 0xffffff);
      g_autoptr(GFile) file = g_file_get_child (parent, name);
      GFileOutputStream *out = g_file_create (file, G_FILE_CREATE_NONE, cancellable, &local_error);

      if (out != NULL)
        {
          *temp = g_steal_pointer (&file);
          return out;
        }
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS) || attempt == 100)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }
}

/**
 * sl_replace_stream_new:
 * @target: the file to write; symbolic links are followed and replaced
 *   files keep their permissions. A pipe or a device is written directly.
 *
 * Creates the temporary file beside @target. Nothing happens to @target
 * until sl_replace_stream_commit().
 *
 * Returns: (transfer full): the stream, or %NULL with an error naming @target
 */
SlReplaceStream *
sl_replace_stream_new (GFile         *target,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(SlReplaceStream) self = NULL;
  g_autoptr(GError) local_error = NULL;
  GFileType type = G_FILE_TYPE_UNKNOWN;

  g_return_val_if_fail (G_IS_FILE (target), NULL);

  self = g_object_new (SL_TYPE_REPLACE_STREAM, NULL);
  self->name = g_file_get_parse_name (target);
  if (!(self->target = follow_links (target, self->name, &type, &self->mode, cancellable, error)))
    return NULL;

  switch (type)
    {
    case G_FILE_TYPE_DIRECTORY:
    case G_FILE_TYPE_MOUNTABLE:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("Cannot write “%s”: it is a folder"), self->name);
      return NULL;
    case G_FILE_TYPE_SPECIAL:
      /* A pipe or a device has no previous contents to keep. */
      if (!(self->out = G_OUTPUT_STREAM (g_file_append_to (self->target, G_FILE_CREATE_NONE, cancellable, &local_error))))
        {
          g_set_error (error, local_error->domain, local_error->code, _("Cannot write “%s”: %s"), self->name,
                       local_error->message);
          return NULL;
        }
      break;
    default:
      if (!(self->out = G_OUTPUT_STREAM (create_temp (self->target, &self->temp, cancellable, &local_error))))
        {
          set_temp_error (error, self->name, local_error);
          return NULL;
        }
      break;
    }

  return g_steal_pointer (&self);
}

/* The data of @file on the disk, not only in the page cache, before the
 * rename makes it the target: a crash then leaves the old file or the new
 * one, never an empty one. */
static gboolean
sync_to_disk (GFile   *file,
              GError **error)
{
#ifdef G_OS_UNIX
  g_autofree char *path = g_file_get_path (file);
  int fd;

  if (path == NULL)
    return TRUE; /* not a local file: its backend decides */
  if ((fd = g_open (path, O_RDONLY, 0)) < 0 || fsync (fd) != 0)
    {
      int saved = errno;

      if (fd >= 0)
        close (fd);
      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved), g_strerror (saved));
      return FALSE;
    }
  close (fd);
#endif
  return TRUE;
}

/**
 * sl_replace_stream_commit:
 *
 * Ends the writing: flushes, closes and syncs the temporary file and
 * renames it over the target. On any failure, and when @cancellable is
 * cancelled, the target is left as it was and the temporary file removed.
 * The stream is closed either way.
 *
 * Returns: %TRUE when the target holds exactly what was written
 */
gboolean
sl_replace_stream_commit (SlReplaceStream  *self,
                          GCancellable     *cancellable,
                          GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  GOutputStream *stream = G_OUTPUT_STREAM (self);

  g_return_val_if_fail (SL_IS_REPLACE_STREAM (self), FALSE);
  g_return_val_if_fail (!g_output_stream_is_closed (stream), FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, &local_error) ||
      !g_output_stream_flush (self->out, cancellable, &local_error) ||
      !g_output_stream_close (self->out, cancellable, &local_error) ||
      (self->temp != NULL && !sync_to_disk (self->temp, &local_error)))
    goto failed;

  if (self->temp != NULL)
    {
      if (self->mode != 0)
        g_file_set_attribute_uint32 (self->temp, G_FILE_ATTRIBUTE_UNIX_MODE, self->mode,
                                     G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
      if (!g_file_move (self->temp, self->target, G_FILE_COPY_OVERWRITE | G_FILE_COPY_NO_FALLBACK_FOR_MOVE,
                        cancellable, NULL, NULL, &local_error))
        goto failed;
      g_clear_object (&self->temp);
    }

  self->committed = TRUE;
  g_output_stream_close (stream, NULL, NULL);
  return TRUE;

failed:
  discard (self);
  g_output_stream_close (stream, NULL, NULL);
  g_set_error (error, local_error->domain, local_error->code, _("Cannot write “%s”: %s"), self->name,
               local_error->message);
  return FALSE;
}

/**
 * sl_replace_stream_get_target:
 *
 * Returns: (transfer none): the file replaced, its symbolic links followed
 */
GFile *
sl_replace_stream_get_target (SlReplaceStream *self)
{
  g_return_val_if_fail (SL_IS_REPLACE_STREAM (self), NULL);

  return self->target;
}

/**
 * sl_replace_file_contents:
 *
 * Replaces @target with @length bytes of @data, whole or not at all.
 *
 * Returns: %TRUE on success, else an error naming @target
 */
gboolean
sl_replace_file_contents (GFile         *target,
                          const void    *data,
                          gsize          length,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autoptr(SlReplaceStream) out = NULL;

  g_return_val_if_fail (G_IS_FILE (target), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  SL_ASSERT_OFF_MAIN_THREAD ();

  if (!(out = sl_replace_stream_new (target, cancellable, error)))
    return FALSE;
  if (length > 0 && !g_output_stream_write_all (G_OUTPUT_STREAM (out), data, length, NULL, cancellable, error))
    return FALSE;
  return sl_replace_stream_commit (out, cancellable, error);
}

typedef struct {
  GFile  *target;
  GBytes *contents;
} ContentsJob;

static void
contents_job_free (gpointer data)
{
  ContentsJob *job = data;

  g_object_unref (job->target);
  g_bytes_unref (job->contents);
  g_free (job);
}

static void
replace_contents_thread (GTask        *task,
                         gpointer      source_object,
                         gpointer      task_data,
                         GCancellable *cancellable)
{
  ContentsJob *job = task_data;
  GError *error = NULL;
  gsize length;
  const void *data = g_bytes_get_data (job->contents, &length);

  if (sl_replace_file_contents (job->target, data != NULL ? data : "", length, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * sl_replace_file_contents_async:
 * @contents: the bytes to write, taken on the caller's thread
 * @source_object: (nullable): the object the result is for
 *
 * sl_replace_file_contents() on a worker thread; @callback runs on the
 * caller's thread.
 */
void
sl_replace_file_contents_async (GFile               *target,
                                GBytes              *contents,
                                gpointer             source_object,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ContentsJob *job;

  g_return_if_fail (G_IS_FILE (target));
  g_return_if_fail (contents != NULL);

  job = g_new0 (ContentsJob, 1);
  job->target = g_object_ref (target);
  job->contents = g_bytes_ref (contents);
  task = g_task_new (source_object, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_replace_file_contents_async);
  g_task_set_task_data (task, job, contents_job_free);
  g_task_run_in_thread (task, replace_contents_thread);
}

gboolean
sl_replace_file_contents_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sl_replace_file_contents_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
