/* sl-summary-reader.c
 *
 * Run discovery follows TensorBoard and MindInsight: every folder below
 * the opened one that holds summary or event files is a run, named by its
 * relative path ("." for the opened folder itself). Files of a run are
 * read in MindInsight's order (the number after "summary.", then the
 * name), each from the offset where the previous read stopped.
 *
 * Events are decoded with protobuf-c into an arena that is reset after
 * every record, so decoding allocates nothing per record once the arena
 * has grown to the size of the largest event.
 *
 * This file holds the reader, the arena and the reading of one file;
 * each format's decoder, discovery and following have files of their
 * own (sl-summary-mindspore.c, sl-summary-tensorboard.c,
 * sl-summary-lineage.c, sl-summary-discovery.c, sl-summary-follow.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-input-file.h"
#include "sl-main-thread.h"

#include <glib/gi18n-lib.h>

#include "sl-record-reader.h"
#include "sl-record-writer.h"
#include "sl-summary-reader-private.h"

#define ARENA_BLOCK_SIZE   (256 * 1024)
/* Beyond this many undecodable records per file, only the count grows. */
#define MAX_DECODE_PROBLEMS 20

G_DEFINE_FINAL_TYPE (SlSummaryReader, sl_summary_reader, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ */
/* Arena allocator for protobuf-c                                      */
/* ------------------------------------------------------------------ */

static void *
arena_alloc (void   *data,
             size_t  size)
{
  SlSummaryArena *arena = data;
  gpointer mem;

  size = (size + 15) & ~(gsize) 15;
  if (size == 0)
    size = 16;

  if (size > ARENA_BLOCK_SIZE - arena->used)
    {
      mem = g_try_malloc (size);
      if (mem != NULL)
        g_ptr_array_add (arena->extra, mem);
      return mem;
    }

  mem = arena->block + arena->used;
  arena->used += size;
  return mem;
}

static void
arena_free (void *data,
            void *pointer)
{
  /* Everything goes at once in arena_reset(). */
}

static void
arena_reset (SlSummaryArena *arena)
{
  arena->used = 0;
  if (arena->extra->len > 0)
    g_ptr_array_set_size (arena->extra, 0);
}

/* ------------------------------------------------------------------ */

static void
sl_summary_reader_finalize (GObject *object)
{
  SlSummaryReader *self = (SlSummaryReader *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->arena.block, g_free);
  g_clear_pointer (&self->arena.extra, g_ptr_array_unref);
  g_clear_pointer (&self->scratch_a, g_array_unref);
  g_clear_pointer (&self->scratch_b, g_array_unref);
  g_clear_pointer (&self->scratch_c, g_array_unref);
  g_clear_pointer (&self->scratch_dims, g_array_unref);
  g_clear_pointer (&self->tb_plugins, g_hash_table_unref);

  G_OBJECT_CLASS (sl_summary_reader_parent_class)->finalize (object);
}

static void
sl_summary_reader_class_init (SlSummaryReaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_summary_reader_finalize;
}

static void
sl_summary_reader_init (SlSummaryReader *self)
{
  self->runs = g_ptr_array_new_with_free_func (g_object_unref);
  self->arena.block = g_malloc (ARENA_BLOCK_SIZE);
  self->arena.extra = g_ptr_array_new_with_free_func (g_free);
  self->allocator.alloc = arena_alloc;
  self->allocator.free = arena_free;
  self->allocator.allocator_data = &self->arena;
  self->scratch_a = g_array_new (FALSE, FALSE, sizeof (double));
  self->scratch_b = g_array_new (FALSE, FALSE, sizeof (double));
  self->scratch_c = g_array_new (FALSE, FALSE, sizeof (double));
  self->scratch_dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->tb_plugins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/**
 * sl_summary_reader_new:
 * @path: a folder holding runs, or one summary or event file
 *
 * Returns: (transfer full): a reader; nothing is read before
 *   sl_summary_reader_update()
 */
SlSummaryReader *
sl_summary_reader_new (const char *path)
{
  SlSummaryReader *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_SUMMARY_READER, NULL);
  self->path = g_strdup (path);

  return self;
}

const char *
sl_summary_reader_get_path (SlSummaryReader *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), NULL);
  return self->path;
}

/**
 * sl_summary_reader_get_runs:
 *
 * Returns: (transfer none) (element-type SlSummaryRun): the runs, sorted
 *   by name
 */
GPtrArray *
sl_summary_reader_get_runs (SlSummaryReader *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), NULL);
  return self->runs;
}

/**
 * sl_summary_reader_lookup_run:
 *
 * Returns: (transfer none) (nullable): the run called @name
 */
SlSummaryRun *
sl_summary_reader_lookup_run (SlSummaryReader *self,
                              const char      *name)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSummaryRun *run = g_ptr_array_index (self->runs, i);

      if (g_str_equal (sl_summary_run_get_name (run), name))
        return run;
    }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* File names                                                          */
/* ------------------------------------------------------------------ */

/**
 * sl_summary_file_name_get_kind:
 * @kind: (out) (optional):
 * @number: (out) (optional): the number after "summary." (MindInsight's
 *   order), or 0
 *
 * MindInsight's rule: any name matching summary\.(\d+) is a summary file;
 * TensorBoard's: a name starting with events.out.tfevents.
 *
 * Returns: whether @name is a summary, lineage, explain or event file
 */
gboolean
sl_summary_file_name_get_kind (const char        *name,
                               SlSummaryFileKind *kind,
                               guint64           *number)
{
  SlSummaryFileKind found;
  guint64 value = 0;
  gboolean matched = FALSE;

  g_return_val_if_fail (name != NULL, FALSE);

  for (const char *p = strstr (name, "summary."); p != NULL; p = strstr (p + 1, "summary."))
    {
      const char *digits = p + strlen ("summary.");

      if (g_ascii_isdigit (*digits))
        {
          matched = TRUE;
          for (; g_ascii_isdigit (*digits); digits++)
            value = value > G_MAXUINT64 / 10 ? G_MAXUINT64 : value * 10 + (*digits - '0');
          break;
        }
    }

  if (g_str_has_prefix (name, "events.out.tfevents."))
    found = SL_SUMMARY_FILE_TENSORBOARD;
  else if (!matched)
    return FALSE;
  else if (g_str_has_suffix (name, "_lineage"))
    found = SL_SUMMARY_FILE_LINEAGE;
  else if (g_str_has_suffix (name, "_explain"))
    found = SL_SUMMARY_FILE_EXPLAIN;
  else
    found = SL_SUMMARY_FILE_MINDSPORE;

  if (kind != NULL)
    *kind = found;
  if (number != NULL)
    *number = value;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Reading files                                                       */
/* ------------------------------------------------------------------ */

static void
add_problem (SlSummaryRun  *run,
             SlSeverity     severity,
             SlSummaryFile *file,
             gint64         offset,
             const char    *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Summary reader"), file->path, offset, message);

  sl_summary_run_add_problem (run, problem);
}

/**
 * sl_summary_reader_read_file:
 * @file: a file of @run
 *
 * Reads @file from where the last read stopped and decodes what is new
 * into @run. Damage is counted in @file and reported as problems of @run.
 *
 * Returns: %FALSE only when the file cannot be opened or read
 */
gboolean
sl_summary_reader_read_file (SlSummaryReader  *self,
                             SlSummaryRun     *run,
                             SlSummaryFile    *file,
                             GCancellable     *cancellable,
                             GError          **error)
{
  g_autoptr(GFile) gfile = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(SlRecordReader) reader = NULL;
  guint64 size, previous_size;
  gboolean first_read;
  SlRecordStatus status;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), FALSE);
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (run), FALSE);
  g_return_val_if_fail (file != NULL, FALSE);

  gfile = g_file_new_for_path (file->path);
  stream = sl_input_file_read (gfile, cancellable, error);
  if (stream == NULL)
    return FALSE;
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, error);
  if (info == NULL)
    return FALSE;

  size = g_file_info_get_size (info);
  previous_size = file->size;
  first_read = file->last_update == 0;
  file->growing = !first_read && size != previous_size;
  file->size = size;
  file->last_update = g_get_monotonic_time ();

  if (file->stopped || file->kind == SL_SUMMARY_FILE_EXPLAIN)
    return TRUE;

  if (size < file->offset)
    {
      add_problem (run, SL_SEVERITY_ERROR, file, size,
                   _("The file became shorter than what was already read: it was replaced, and is not read further."));
      file->stopped = TRUE;
      return TRUE;
    }

  if (size == file->offset)
    {
      file->tail_bytes = 0;
      return TRUE;
    }

  if (file->offset > 0 &&
      !g_seekable_seek (G_SEEKABLE (stream), file->offset, G_SEEK_SET, cancellable, error))
    return FALSE;

  reader = sl_record_reader_new (G_INPUT_STREAM (stream), file->path, file->offset);
  for (;;)
    {
      const guint8 *payload;
      gsize len;
      SlSummaryDecoded decoded;

      status = sl_record_reader_next (reader, &payload, &len, cancellable, error);
      if (status == SL_RECORD_STATUS_ERROR)
        break;
      if (status == SL_RECORD_STATUS_END)
        break;
      if (status == SL_RECORD_STATUS_BAD_PAYLOAD || status == SL_RECORD_STATUS_STOPPED)
        {
          sl_summary_run_add_problem (run, sl_record_reader_get_problem (reader));
          if (status == SL_RECORD_STATUS_STOPPED)
            {
              file->stopped = TRUE;
              break;
            }
          continue;
        }

      switch (file->kind)
        {
        case SL_SUMMARY_FILE_LINEAGE:
          decoded = sl_summary_decode_lineage (self, run, payload, len);
          break;
        case SL_SUMMARY_FILE_TENSORBOARD:
          decoded = sl_summary_decode_tensorboard (self, run, payload, len);
          break;
        case SL_SUMMARY_FILE_MINDSPORE:
        case SL_SUMMARY_FILE_EXPLAIN:
        default:
          decoded = sl_summary_decode_mindspore (self, run, payload, len);
          break;
        }
      arena_reset (&self->arena);

      if (decoded != SL_SUMMARY_DECODED)
        {
          if (file->n_undecodable < MAX_DECODE_PROBLEMS)
            {
              guint64 offset = sl_record_reader_get_record_offset (reader);
              g_autofree char *message = NULL;

              if (decoded == SL_SUMMARY_TOO_DEEP)
                /* Translators: the first %llu is where the record starts, the second where,
                 * in the file, its nesting passes the limit of %u levels */
                message = g_strdup_printf (_("The record at byte %llu nests messages more than %u levels deep (at byte %llu): it is skipped."),
                                           (unsigned long long) offset, SL_SUMMARY_READER_MAX_NESTING,
                                           (unsigned long long) (offset + SL_RECORD_HEADER_SIZE + self->deep_at));
              else
                message = g_strdup_printf (_("The record at byte %llu has intact checksums but is not a valid event: it is skipped."),
                                           (unsigned long long) offset);
              add_problem (run, SL_SEVERITY_WARNING, file, offset, message);
            }
          file->n_undecodable++;
        }
    }

  file->offset = sl_record_reader_get_offset (reader);
  file->n_records += sl_record_reader_get_n_records (reader);
  file->n_bad += sl_record_reader_get_n_bad (reader);
  file->tail_bytes = status == SL_RECORD_STATUS_END ? sl_record_reader_get_tail_bytes (reader) : 0;

  /* A partial record is normal while training writes the file; only a
   * file that stopped growing with one is damaged. */
  if (file->tail_bytes > 0 && !first_read && size == previous_size && !file->tail_reported)
    {
      g_autofree char *message =
        g_strdup_printf (_("The file ends in an incomplete record of %llu bytes and has stopped growing."),
                         (unsigned long long) file->tail_bytes);

      add_problem (run, SL_SEVERITY_WARNING, file, file->offset, message);
      file->tail_reported = TRUE;
    }

  return status != SL_RECORD_STATUS_ERROR;
}

/**
 * sl_summary_reader_update:
 *
 * Finds runs and files that are new since the last update and reads what
 * every file gained. Runs in the calling thread; see
 * sl_summary_reader_update_async() for a worker.
 *
 * Returns: %FALSE when the opened path cannot be read
 */
gboolean
sl_summary_reader_update (SlSummaryReader  *self,
                          GCancellable     *cancellable,
                          GError          **error)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), FALSE);

  if (!sl_summary_reader_discover (self, cancellable, error))
    return FALSE;

  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSummaryRun *run = g_ptr_array_index (self->runs, i);

      for (guint j = 0; j < sl_summary_run_get_n_files (run); j++)
        {
          SlSummaryFile *file = sl_summary_run_get_file (run, j);
          g_autoptr(GError) file_error = NULL;

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;

          if (!sl_summary_reader_read_file (self, run, file, cancellable, &file_error))
            {
              if (g_error_matches (file_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_propagate_error (error, g_steal_pointer (&file_error));
                  return FALSE;
                }
              add_problem (run, SL_SEVERITY_ERROR, file, -1, file_error->message);
            }
        }
    }

  return TRUE;
}

/* Updates the task's data, a follow's continuation, or else the reader
 * the task is of. */
void
sl_summary_reader_update_thread (GTask        *task,
                                 gpointer      source_object,
                                 gpointer      task_data,
                                 GCancellable *cancellable)
{
  GError *error = NULL;

  if (sl_summary_reader_update (task_data != NULL ? task_data : source_object, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * sl_summary_reader_update_async:
 *
 * Runs sl_summary_reader_update() in a worker thread. The reader and its
 * runs must not be used until @callback runs.
 */
void
sl_summary_reader_update_async (SlSummaryReader     *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_SUMMARY_READER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_summary_reader_update_async);
  g_task_run_in_thread (task, sl_summary_reader_update_thread);
}

gboolean
sl_summary_reader_update_finish (SlSummaryReader  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
