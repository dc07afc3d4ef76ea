/* sl-workspace-run-index.c: what scans found and what views read of each
 * run, kept in the database so the next start lists it at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-run-record.h"
#include "sl-workspace-private.h"

/* Tags are known once a view read the run; the run index keeps them. */
static void
add_tags_detail (SlFinding          *finding,
                 const char * const *tags)
{
  g_autofree char *joined = NULL;

  if (tags == NULL || tags[0] == NULL || sl_finding_lookup_detail (finding, "tags") != NULL)
    return;

  joined = g_strjoinv (", ", (char **)tags);
  sl_finding_add_detail (finding, "tags", joined);
}

static SlFinding *
finding_from_run_record (SlRunRecord *run)
{
  const char * const *details = sl_run_record_get_details (run);
  SlFindingKind kind;
  SlFinding *finding;

  if (!sl_finding_kind_from_id (sl_run_record_get_kind_id (run), &kind))
    return NULL;

  finding = sl_finding_new (kind, sl_run_record_get_path (run), sl_run_record_get_relative_name (run));
  for (guint i = 0; i < sl_run_record_get_n_files (run); i++)
    {
      const char *path = NULL;
      guint64 size = 0;

      sl_run_record_get_file (run, i, &path, &size, NULL);
      sl_finding_add_file (finding, path, size);
    }
  for (guint i = 0; details[i] != NULL && details[i + 1] != NULL; i += 2)
    sl_finding_add_detail (finding, details[i], details[i + 1]);
  add_tags_detail (finding, sl_run_record_get_tags (run));

  return finding;
}

/* What the run index remembers of the folder @root, on the writer. */
GPtrArray *
sl_workspace_indexed_findings (SlWorkspaceStore *store,
                               const char       *root)
{
  GPtrArray *findings = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) runs = sl_workspace_store_list_runs (store, root, NULL);

  for (guint i = 0; runs != NULL && i < runs->len; i++)
    {
      SlFinding *finding = finding_from_run_record (g_ptr_array_index (runs, i));

      if (finding != NULL)
        g_ptr_array_add (findings, finding);
    }

  return findings;
}

typedef struct {
  char      *root;
  GPtrArray *findings;
  gint64     scanned_at;
} IndexJob;

static void
index_job_free (gpointer data)
{
  IndexJob *job = data;

  g_free (job->root);
  g_ptr_array_unref (job->findings);
  g_free (job);
}

static char **
finding_details_to_strv (SlFinding *finding)
{
  GPtrArray *flat = g_ptr_array_new ();

  for (guint i = 0; i < sl_finding_get_n_details (finding); i++)
    {
      const char *key = NULL;
      const char *value = NULL;

      sl_finding_get_detail (finding, i, &key, &value);
      g_ptr_array_add (flat, g_strdup (key));
      g_ptr_array_add (flat, g_strdup (value));
    }
  g_ptr_array_add (flat, NULL);

  return (char **)g_ptr_array_free (flat, FALSE);
}

/* What readers learnt about a run (its tags, how far each file was read)
 * outlives a rescan, as long as the file did not shrink. */
static SlRunRecord *
run_record_for (const char  *root,
                SlFinding   *finding,
                gint64       scanned_at,
                SlRunRecord *previous)
{
  SlRunRecord *run = sl_run_record_new (root, sl_finding_kind_to_id (sl_finding_get_kind (finding)),
                                        sl_finding_get_name (finding), sl_finding_get_path (finding));
  g_auto(GStrv) details = finding_details_to_strv (finding);

  sl_run_record_set_last_seen (run, scanned_at);
  sl_run_record_set_details (run, (const char * const *)details);
  if (previous != NULL)
    sl_run_record_set_tags (run, sl_run_record_get_tags (previous));

  for (guint i = 0; i < sl_finding_get_n_files (finding); i++)
    {
      const char *path = sl_finding_get_file (finding, i);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                     G_FILE_QUERY_INFO_NONE, NULL, NULL);
      guint64 size = info ? (guint64)g_file_info_get_size (info) : 0;
      guint64 old_size = 0;
      guint64 read_offset = 0;

      if (previous == NULL || !sl_run_record_lookup_file (previous, path, &old_size, &read_offset) ||
          read_offset > size)
        read_offset = 0;

      sl_run_record_set_file (run, path, size, read_offset);
    }

  return run;
}

/* Records what a scan found in the run index, forgets runs no longer
 * there, and answers the tags the index knew of each run (by path). */
static gpointer
index_func (SlWorkspaceStore  *store,
            gpointer           data,
            GCancellable      *cancellable,
            GError           **error)
{
  IndexJob *job = data;
  g_autoptr(GPtrArray) previous = sl_workspace_store_list_runs (store, job->root, error);
  g_autoptr(GHashTable) by_path = NULL;
  GHashTable *tags;

  if (previous == NULL)
    return NULL;

  by_path = g_hash_table_new (g_str_hash, g_str_equal);
  tags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_strfreev);
  for (guint i = 0; i < previous->len; i++)
    {
      SlRunRecord *run = g_ptr_array_index (previous, i);

      g_hash_table_insert (by_path, (gpointer)sl_run_record_get_path (run), run);
      if (sl_run_record_get_tags (run) != NULL && sl_run_record_get_tags (run)[0] != NULL)
        g_hash_table_insert (tags, g_strdup (sl_run_record_get_path (run)),
                             g_strdupv ((char **)sl_run_record_get_tags (run)));
    }

  for (guint i = 0; i < job->findings->len; i++)
    {
      SlFinding *finding = g_ptr_array_index (job->findings, i);
      g_autoptr(SlRunRecord) run = run_record_for (job->root, finding, job->scanned_at,
                                                   g_hash_table_lookup (by_path, sl_finding_get_path (finding)));

      if (!sl_workspace_store_upsert_run (store, run, error))
        {
          g_hash_table_unref (tags);
          return NULL;
        }
    }

  if (!sl_workspace_store_prune_runs (store, job->root, job->scanned_at, error))
    {
      g_hash_table_unref (tags);
      return NULL;
    }

  return tags;
}

typedef struct {
  SlWorkspace *self;
  SlFolder    *folder;
} FolderOp;

static void
folder_op_free (FolderOp *op)
{
  g_object_unref (op->self);
  g_object_unref (op->folder);
  g_free (op);
}

static void
indexed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  FolderOp *op = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) tags = sl_workspace_run_finish (op->self, result, &error);

  if (tags != NULL)
    {
      GListModel *findings = sl_folder_get_findings (op->folder);

      for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
        {
          g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

          add_tags_detail (finding, g_hash_table_lookup (tags, sl_finding_get_path (finding)));
        }
    }
  else if (error != NULL)
    sl_workspace_warn_unless_cancelled (op->self, _("The run index could not be updated"), error);

  sl_workspace_scan_ended (op->self, op->folder, NULL);
  folder_op_free (op);
}

void
sl_workspace_index_folder (SlWorkspace *self,
                           SlFolder    *folder)
{
  GListModel *findings = sl_folder_get_findings (folder);
  IndexJob *job = g_new0 (IndexJob, 1);
  FolderOp *op = g_new0 (FolderOp, 1);

  job->root = g_strdup (sl_folder_get_path (folder));
  job->findings = g_ptr_array_new_with_free_func (g_object_unref);
  job->scanned_at = g_get_real_time ();
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    g_ptr_array_add (job->findings, g_list_model_get_item (findings, i));

  op->self = g_object_ref (self);
  op->folder = g_object_ref (folder);
  sl_workspace_run_async (self, index_func, job, index_job_free, (GDestroyNotify)g_hash_table_unref,
                          NULL, indexed_cb, op);
}

typedef struct {
  char     *run_path;
  char    **tags;
  char    **files;
  guint64  *offsets;
  guint     n_files;
} RunRead;

static void
run_read_free (gpointer data)
{
  RunRead *read = data;

  g_free (read->run_path);
  g_strfreev (read->tags);
  g_strfreev (read->files);
  g_free (read->offsets);
  g_free (read);
}

static gpointer
note_run_read_func (SlWorkspaceStore  *store,
                    gpointer           data,
                    GCancellable      *cancellable,
                    GError           **error)
{
  RunRead *read = data;

  sl_workspace_store_note_run_read (store, read->run_path, (const char * const *)read->tags,
                                    (const char * const *)read->files, read->offsets, read->n_files, error);
  return NULL;
}

/**
 * sl_workspace_note_run_read:
 * @run_path: a run's folder
 * @tags: (nullable): the tags read so far
 *
 * Remembers in the run index what a view read of a run, so the next start
 * lists its tags at once.
 */
void
sl_workspace_note_run_read (SlWorkspace        *self,
                            const char         *run_path,
                            const char * const *tags,
                            const char * const *files,
                            const guint64      *offsets,
                            guint               n_files)
{
  RunRead *read;

  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (run_path != NULL);

  read = g_new0 (RunRead, 1);
  read->run_path = g_strdup (run_path);
  read->tags = g_strdupv ((char **)tags);
  read->files = g_new0 (char *, n_files + 1);
  for (guint i = 0; i < n_files; i++)
    read->files[i] = g_strdup (files[i]);
  read->offsets = g_memdup2 (offsets, sizeof (guint64) * n_files);
  read->n_files = n_files;

  sl_workspace_run_async (self, note_run_read_func, read, run_read_free, NULL, NULL, sl_workspace_write_done_cb,
                          (gpointer)_("The run index could not be updated"));
}
