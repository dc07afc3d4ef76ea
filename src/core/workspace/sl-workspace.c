/* sl-workspace.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-finding.h"
#include "sl-main-thread.h"
#include "sl-problem.h"
#include "sl-recent-folder-record.h"
#include "sl-run-record.h"
#include "sl-workspace.h"

#define JOBS_SHOWN 50

/* How often the database is asked whether another program (the command
 * line, another window) changed it: one PRAGMA on the writer, which reads
 * nothing from disk unless something changed. */
#define WATCH_INTERVAL_SECONDS 2

/*
 * The workspace lives in the main thread: its models change there only.
 * Everything that reads or writes the database is queued, in order, on
 * one writer thread that owns the connection, and its result comes back
 * to the main context. Nothing here waits for the disk on the caller's
 * thread, except sl_workspace_run_sync() and sl_workspace_flush(), which
 * are for programs without a main loop and for quitting.
 */
struct _SlWorkspace
{
  GObject           parent_instance;

  char             *db_path;
  GMainContext     *context;
  GThreadPool      *writer;
  GThread          *writer_thread;   /* set by the writer itself */

  /* Writer thread only */
  SlWorkspaceStore *store;
  GError           *store_error;
  gboolean          store_tried;

  GListStore       *folders;
  GListStore       *targets;
  GListStore       *projects;
  GListStore       *recent_folders;
  GListStore       *jobs;
  GListStore       *problems;
  GCancellable     *scan_cancellable;
  GSource          *watch_source;
  guint             n_scanning;
  guint             has_store : 1;
  guint             loaded : 1;
  guint             watch_pending : 1;
};

G_DEFINE_FINAL_TYPE (SlWorkspace, sl_workspace, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LOADED,
  PROP_N_SCANNING,
  N_PROPS
};

enum {
  FOLDER_SCANNED,
  TENSOR_VERDICTS,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

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

/* The writer thread */

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

static void
writer_func (gpointer data,
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

/* Problems */

static void
add_problem (SlWorkspace *self,
             SlSeverity   severity,
             const char  *path,
             const char  *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Workspace"), path, -1, message);

  g_list_store_append (self->problems, problem);
}

static void
warn_unless_cancelled (SlWorkspace *self,
                       const char  *what,
                       GError      *error)
{
  g_autofree char *message = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || !self->has_store)
    return;

  /* Translators: "%s: %s" is what failed, then why. */
  message = g_strdup_printf (_("%s: %s"), what, error->message);
  add_problem (self, SL_SEVERITY_WARNING, self->db_path, message);
}

static void
replace_all (GListStore *store,
             GPtrArray  *items)
{
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       items ? items->pdata : NULL, items ? items->len : 0);
}

/* Loading */

typedef struct {
  char      *recovery_message;
  GPtrArray *targets;
  GPtrArray *projects;
  GPtrArray *jobs;
  GPtrArray *recent_folders;   /* of GFile */
  char     **open_folders;
  GPtrArray *open_findings;    /* a GPtrArray of SlFinding per open folder */
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_free (loaded->recovery_message);
  g_clear_pointer (&loaded->targets, g_ptr_array_unref);
  g_clear_pointer (&loaded->projects, g_ptr_array_unref);
  g_clear_pointer (&loaded->jobs, g_ptr_array_unref);
  g_clear_pointer (&loaded->recent_folders, g_ptr_array_unref);
  g_clear_pointer (&loaded->open_folders, g_strfreev);
  g_clear_pointer (&loaded->open_findings, g_ptr_array_unref);
  g_free (loaded);
}

static GPtrArray *
list_recent_files (SlWorkspaceStore  *store,
                   GError           **error)
{
  g_autoptr(GPtrArray) records = sl_workspace_store_list_recent_folders (store, error);
  GPtrArray *files;

  if (records == NULL)
    return NULL;

  files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (files, g_file_new_for_path (sl_recent_folder_record_get_path (g_ptr_array_index (records, i))));

  return files;
}

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

static GPtrArray *
indexed_findings (SlWorkspaceStore *store,
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

static gpointer
load_func (SlWorkspaceStore  *store,
           gpointer           data,
           GCancellable      *cancellable,
           GError           **error)
{
  Loaded *loaded = g_new0 (Loaded, 1);

  /* What other programs change from now on shows in the models. */
  sl_workspace_store_poll_changes (store, NULL);

  loaded->recovery_message = g_strdup (sl_workspace_store_get_recovery_message (store));
  if (!(loaded->targets = sl_workspace_store_list_targets (store, error)) ||
      !(loaded->projects = sl_workspace_store_list_projects (store, error)) ||
      !(loaded->jobs = sl_workspace_store_list_jobs (store, JOBS_SHOWN, error)) ||
      !(loaded->recent_folders = list_recent_files (store, error)) ||
      !(loaded->open_folders = sl_workspace_store_list_open_folders (store, error)))
    {
      loaded_free (loaded);
      return NULL;
    }

  loaded->open_findings = g_ptr_array_new_with_free_func ((GDestroyNotify)g_ptr_array_unref);
  for (guint i = 0; loaded->open_folders[i] != NULL; i++)
    g_ptr_array_add (loaded->open_findings, indexed_findings (store, loaded->open_folders[i]));

  return loaded;
}

static void start_scan (SlWorkspace *self,
                        SlFolder    *folder);

static void start_watching (SlWorkspace *self);

static void
save_open_folders (SlWorkspace *self);

static void
folders_changed_cb (SlWorkspace *self,
                    guint        position,
                    guint        removed,
                    guint        added,
                    GListModel  *folders)
{
  save_open_folders (self);
}

static void
restore_folders (SlWorkspace *self,
                 Loaded      *loaded)
{
  for (guint i = 0; loaded->open_folders[i] != NULL; i++)
    {
      g_autoptr(SlFolder) folder = NULL;

      if (sl_workspace_lookup_folder (self, loaded->open_folders[i]) != NULL)
        continue;

      folder = sl_folder_new (loaded->open_folders[i]);
      sl_folder_restore_findings (folder, g_ptr_array_index (loaded->open_findings, i));
      g_list_store_append (self->folders, folder);
      start_scan (self, folder);
    }
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;
  Loaded *loaded = sl_workspace_run_finish (self, result, &error);

  if (loaded == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The workspace database could not be opened, so targets, recent folders and job history are not kept this time: %s"),
                                                  error->message);
      add_problem (self, SL_SEVERITY_ERROR, self->db_path, message);
    }
  else
    {
      self->has_store = TRUE;
      /* Every start says it, until the report is dismissed. */
      if (loaded->recovery_message != NULL)
        {
          g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Workspace"), self->db_path, -1,
                                                         loaded->recovery_message);

          sl_problem_set_hint (problem, _("Once you have read this, run “sightline-cli workspace --dismiss-recovery” and it is not shown again. The original files stay where the message says until you delete them."));
          g_list_store_append (self->problems, problem);
        }
      replace_all (self->targets, loaded->targets);
      replace_all (self->projects, loaded->projects);
      replace_all (self->jobs, loaded->jobs);
      replace_all (self->recent_folders, loaded->recent_folders);
      restore_folders (self, loaded);
      loaded_free (loaded);
      start_watching (self);
    }

  /* From now on the Workspace's folders are remembered as they change;
   * what was opened while loading is remembered at once. */
  self->loaded = TRUE;
  g_signal_connect_object (self->folders, "items-changed", G_CALLBACK (folders_changed_cb), self,
                           G_CONNECT_SWAPPED);
  save_open_folders (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);

  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * sl_workspace_load_async:
 *
 * Opens the database on the writer and fills the models: targets,
 * projects, jobs, recent folders, and the folders open last time with
 * what the run index remembers of them, which are then scanned again.
 * When the database cannot be opened the workspace still works, without
 * keeping anything, and a problem says why.
 */
void
sl_workspace_load_async (SlWorkspace         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (!self->loaded);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_workspace_load_async);
  sl_workspace_run_async (self, load_func, NULL, NULL, loaded_free, NULL, load_cb, task);
}

gboolean
sl_workspace_load_finish (SlWorkspace   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sl_workspace_is_loaded (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), FALSE);
  return self->loaded;
}

/**
 * sl_workspace_has_store:
 *
 * Returns: whether the database is open (known once loaded)
 */
gboolean
sl_workspace_has_store (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), FALSE);
  return self->has_store;
}

/* Writes that need no answer */

static void
write_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;
  const char *what = user_data;

  sl_workspace_run_finish (self, result, &error);
  if (error != NULL)
    warn_unless_cancelled (self, what, error);
}

static gpointer
save_open_folders_func (SlWorkspaceStore  *store,
                        gpointer           data,
                        GCancellable      *cancellable,
                        GError           **error)
{
  sl_workspace_store_set_open_folders (store, (const char * const *)data, error);
  return NULL;
}

static void
save_open_folders (SlWorkspace *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  GPtrArray *paths = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);

      g_ptr_array_add (paths, g_strdup (sl_folder_get_path (folder)));
    }
  g_ptr_array_add (paths, NULL);

  sl_workspace_run_async (self, save_open_folders_func, g_ptr_array_free (paths, FALSE), (GDestroyNotify)g_strfreev,
                          NULL, NULL, write_done_cb, (gpointer)_("The folders of the Workspace could not be remembered"));
}

/* Changes by other programs */

typedef struct {
  SlWorkspaceStoreLists  changed;
  GPtrArray             *targets;
  GPtrArray             *projects;
  GPtrArray             *recent_folders;   /* of GFile */
  GPtrArray             *jobs;
} Watched;

static void
watched_free (gpointer data)
{
  Watched *watched = data;

  g_clear_pointer (&watched->targets, g_ptr_array_unref);
  g_clear_pointer (&watched->projects, g_ptr_array_unref);
  g_clear_pointer (&watched->recent_folders, g_ptr_array_unref);
  g_clear_pointer (&watched->jobs, g_ptr_array_unref);
  g_free (watched);
}

/* Reads again only the lists another connection changed; NULL when none
 * did. */
static gpointer
watch_func (SlWorkspaceStore  *store,
            gpointer           data,
            GCancellable      *cancellable,
            GError           **error)
{
  SlWorkspaceStoreLists changed = sl_workspace_store_poll_changes (store, error);
  Watched *watched;

  if (changed == 0)
    return NULL;

  watched = g_new0 (Watched, 1);
  watched->changed = changed;
  if (((changed & SL_WORKSPACE_STORE_LIST_TARGETS) &&
       !(watched->targets = sl_workspace_store_list_targets (store, error))) ||
      ((changed & SL_WORKSPACE_STORE_LIST_PROJECTS) &&
       !(watched->projects = sl_workspace_store_list_projects (store, error))) ||
      ((changed & SL_WORKSPACE_STORE_LIST_RECENT_FOLDERS) &&
       !(watched->recent_folders = list_recent_files (store, error))) ||
      ((changed & SL_WORKSPACE_STORE_LIST_JOBS) &&
       !(watched->jobs = sl_workspace_store_list_jobs (store, JOBS_SHOWN, error))))
    {
      watched_free (watched);
      return NULL;
    }

  return watched;
}

static void
watched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;
  Watched *watched = sl_workspace_run_finish (self, result, &error);

  self->watch_pending = FALSE;

  /* A failed look is tried again at the next tick; a failing database
   * says so when it is written. */
  if (error != NULL)
    g_debug ("Cannot look for changes of the workspace database: %s", error->message);
  if (watched == NULL)
    return;

  if (watched->targets != NULL)
    replace_all (self->targets, watched->targets);
  if (watched->projects != NULL)
    replace_all (self->projects, watched->projects);
  if (watched->recent_folders != NULL)
    replace_all (self->recent_folders, watched->recent_folders);
  if (watched->jobs != NULL)
    replace_all (self->jobs, watched->jobs);
  watched_free (watched);
}

static gboolean
watch_tick_cb (gpointer user_data)
{
  SlWorkspace *self = user_data;

  /* One look at a time: a slow disk does not pile them up. */
  if (!self->watch_pending)
    {
      self->watch_pending = TRUE;
      sl_workspace_run_async (self, watch_func, NULL, NULL, watched_free, NULL, watched_cb, NULL);
    }

  return G_SOURCE_CONTINUE;
}

/* Targets, projects, recent folders and jobs that another program adds,
 * changes or removes show in the models: the writer looks every few
 * seconds whether the database changed. */
static void
start_watching (SlWorkspace *self)
{
  if (self->watch_source != NULL)
    return;

  self->watch_source = g_timeout_source_new_seconds (WATCH_INTERVAL_SECONDS);
  g_source_set_callback (self->watch_source, watch_tick_cb, self, NULL);
  g_source_set_static_name (self->watch_source, "[sightline] workspace watch");
  g_source_attach (self->watch_source, self->context);
}

/* Folders and scans */

GListModel *
sl_workspace_get_folders (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->folders);
}

/* How many leading folders two paths share. */
static guint
common_folders (const char *a,
                const char *b)
{
  guint shared = 0, i = 0;

  for (; a[i] != '\0' && a[i] == b[i]; i++)
    if (a[i] == G_DIR_SEPARATOR)
      shared++;
  /* A path that ends where the other continues with a separator is a
   * whole folder in common too. */
  if ((a[i] == '\0' && (b[i] == G_DIR_SEPARATOR || b[i] == '\0')) ||
      (b[i] == '\0' && a[i] == G_DIR_SEPARATOR))
    shared++;
  return shared;
}

static gboolean
kind_listed (SlFindingKind        kind,
             const SlFindingKind *kinds)
{
  for (guint i = 0; kinds[i] != SL_FINDING_N_KINDS; i++)
    if (kinds[i] == kind)
      return TRUE;
  return FALSE;
}

/**
 * sl_workspace_find_nearest_finding:
 *
 * Returns: (transfer none) (nullable): the nearest finding
 */
SlFinding *
sl_workspace_find_nearest_finding (SlWorkspace         *self,
                                   const char          *path,
                                   const SlFindingKind *kinds)
{
  g_autofree char *parent = NULL;
  g_autofree char *grandparent = NULL;
  SlFinding *best = NULL;
  guint best_shared, n_folders;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (kinds != NULL, NULL);

  /* At least the folder holding @path's folder: siblings in one job. */
  parent = g_path_get_dirname (path);
  grandparent = g_path_get_dirname (parent);
  best_shared = MAX (common_folders (path, grandparent), 1) - 1;
  n_folders = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  for (guint f = 0; f < n_folders; f++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), f);
      GListModel *findings = sl_folder_get_findings (folder);
      guint n = g_list_model_get_n_items (findings);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
          guint shared;

          if (!kind_listed (sl_finding_get_kind (finding), kinds))
            continue;
          shared = common_folders (path, sl_finding_get_path (finding));
          if (shared > best_shared || (best != NULL && shared == best_shared &&
                                       strlen (sl_finding_get_path (finding)) < strlen (sl_finding_get_path (best))))
            {
              best = finding;
              best_shared = shared;
            }
        }
    }
  return best;
}

/**
 * sl_workspace_lookup_folder:
 *
 * Returns: (transfer none) (nullable): the opened folder at @path
 */
SlFolder *
sl_workspace_lookup_folder (SlWorkspace *self,
                            const char  *path)
{
  guint n;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);

      if (g_strcmp0 (sl_folder_get_path (folder), path) == 0)
        return folder;
    }

  return NULL;
}

guint
sl_workspace_get_n_scanning (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), 0);
  return self->n_scanning;
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

static void scan_done (SlWorkspace *self);

/* A scan counts until what it found is indexed and annotated. */
static void
emit_scanned (SlWorkspace *self,
              SlFolder    *folder,
              GError      *error)
{
  scan_done (self);
  g_signal_emit (self, signals[FOLDER_SCANNED], 0, folder, error);
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
    warn_unless_cancelled (op->self, _("The run index could not be updated"), error);

  emit_scanned (op->self, op->folder, NULL);
  folder_op_free (op);
}

static void
index_folder (SlWorkspace *self,
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

static void
scan_done (SlWorkspace *self)
{
  g_assert (self->n_scanning > 0);

  self->n_scanning--;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SCANNING]);
}

static void
scan_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlWorkspace) self = user_data;
  SlFolder *folder = SL_FOLDER (object);
  g_autoptr(GError) error = NULL;

  if (!sl_folder_scan_finish (folder, result, &error))
    {
      emit_scanned (self, folder, error);
      return;
    }

  if (self->has_store)
    index_folder (self, folder);
  else
    emit_scanned (self, folder, NULL);
}

static void
start_scan (SlWorkspace *self,
            SlFolder    *folder)
{
  self->n_scanning++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SCANNING]);
  sl_folder_scan_async (folder, self->scan_cancellable, scan_cb, g_object_ref (self));
}

/**
 * sl_workspace_rescan:
 *
 * Scans @folder again unless a scan of it is running.
 */
void
sl_workspace_rescan (SlWorkspace *self,
                     SlFolder    *folder)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_FOLDER (folder));

  if (sl_folder_get_state (folder) != SL_FOLDER_SCANNING)
    start_scan (self, folder);
}

static gboolean
path_contains (const char *parent,
               const char *child)
{
  gsize len = strlen (parent);

  return g_str_equal (parent, child) ||
         (g_str_has_prefix (child, parent) && G_IS_DIR_SEPARATOR (child[len]));
}

/**
 * sl_workspace_rescan_around:
 * @path: where a job ran
 *
 * Scans again the opened folders that contain @path or lie inside it, so
 * a job's output appears when it ends.
 */
void
sl_workspace_rescan_around (SlWorkspace *self,
                            const char  *path)
{
  guint n;

  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (path != NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);
      const char *folder_path = sl_folder_get_path (folder);

      if (path_contains (folder_path, path) || path_contains (path, folder_path))
        sl_workspace_rescan (self, folder);
    }
}

static gpointer
note_recent_func (SlWorkspaceStore  *store,
                  gpointer           data,
                  GCancellable      *cancellable,
                  GError           **error)
{
  if (!sl_workspace_store_note_recent_folder (store, data, error))
    return NULL;

  return list_recent_files (store, error);
}

static void
recent_noted_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = sl_workspace_run_finish (self, result, &error);

  if (files != NULL)
    replace_all (self->recent_folders, files);
  else if (error != NULL)
    warn_unless_cancelled (self, _("The folder could not be remembered as a recent folder"), error);
}

/**
 * sl_workspace_open_path:
 * @path: a folder or a file
 *
 * Adds @path to the Workspace (or finds it there), scans it in a worker,
 * remembers it among the recent folders and, once scanned, records what
 * it holds in the run index. #SlWorkspace::folder-scanned reports the end.
 *
 * Returns: (transfer none): the folder
 */
SlFolder *
sl_workspace_open_path (SlWorkspace *self,
                        const char  *path)
{
  g_autoptr(SlFolder) created = NULL;
  SlFolder *folder;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  created = sl_folder_new (path);
  folder = sl_workspace_lookup_folder (self, sl_folder_get_path (created));
  if (folder == NULL)
    {
      /* A new folder starts out "scanning": start that scan. */
      folder = created;
      g_list_store_append (self->folders, folder);
      start_scan (self, folder);
    }
  else
    sl_workspace_rescan (self, folder);

  sl_workspace_run_async (self, note_recent_func, g_strdup (sl_folder_get_path (folder)), g_free,
                          (GDestroyNotify)g_ptr_array_unref, NULL, recent_noted_cb, NULL);
  return folder;
}

/**
 * sl_workspace_remove_folder:
 *
 * Takes @path out of the Workspace; the files are not touched.
 *
 * Returns: whether it was there
 */
gboolean
sl_workspace_remove_folder (SlWorkspace *self,
                            const char  *path)
{
  SlFolder *folder;
  guint position;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  folder = sl_workspace_lookup_folder (self, path);
  if (folder == NULL || !g_list_store_find (self->folders, folder, &position))
    return FALSE;

  g_list_store_remove (self->folders, position);
  return TRUE;
}

void
sl_workspace_cancel_scans (SlWorkspace *self)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));

  g_cancellable_cancel (self->scan_cancellable);
  g_clear_object (&self->scan_cancellable);
  self->scan_cancellable = g_cancellable_new ();
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

  sl_workspace_run_async (self, note_run_read_func, read, run_read_free, NULL, NULL, write_done_cb,
                          (gpointer)_("The run index could not be updated"));
}

/* Targets, projects and jobs */

GListModel *
sl_workspace_get_targets (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->targets);
}

GListModel *
sl_workspace_get_projects (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->projects);
}

GListModel *
sl_workspace_get_recent_folders (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->recent_folders);
}

GListModel *
sl_workspace_get_jobs (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->jobs);
}

/**
 * sl_workspace_get_problems:
 *
 * Returns: (transfer none): a #GListModel of #SlProblem: what went wrong
 *   with the database (opening it, a damaged file moved aside, a failed
 *   write), for the Problems panel
 */
GListModel *
sl_workspace_get_problems (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return G_LIST_MODEL (self->problems);
}

/**
 * sl_workspace_lookup_target:
 *
 * Returns: (transfer none) (nullable): the target with @target_id
 */
SlTargetRecord *
sl_workspace_lookup_target (SlWorkspace *self,
                            gint64       target_id)
{
  guint n;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->targets));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (G_LIST_MODEL (self->targets), i);

      if (sl_target_record_get_id (target) == target_id)
        return target;
    }

  return NULL;
}

/**
 * sl_workspace_get_local_target_id:
 *
 * Returns: the id of "this computer" in the targets, or -1
 */
gint64
sl_workspace_get_local_target_id (SlWorkspace *self)
{
  guint n;

  g_return_val_if_fail (SL_IS_WORKSPACE (self), -1);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->targets));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (G_LIST_MODEL (self->targets), i);

      if (sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL)
        return sl_target_record_get_id (target);
    }

  return -1;
}

typedef enum {
  CHANGE_SAVE_TARGET,
  CHANGE_REMOVE_TARGET,
  CHANGE_SAVE_PROJECT,
  CHANGE_REMOVE_PROJECT,
  CHANGE_ADD_JOB,
  CHANGE_FINISH_JOB,
  CHANGE_RELOAD_JOBS,
} ChangeKind;

typedef struct {
  ChangeKind  kind;
  GObject    *record;
  gint64      id;
} Change;

static void
change_free (gpointer data)
{
  Change *change = data;

  g_clear_object (&change->record);
  g_free (change);
}

/* A job started before the workspace was loaded knows no target yet: a
 * job with none ran here. */
static gint64
local_target_id (SlWorkspaceStore *store)
{
  g_autoptr(GPtrArray) targets = sl_workspace_store_list_targets (store, NULL);

  for (guint i = 0; targets != NULL && i < targets->len; i++)
    {
      if (sl_target_record_get_kind (g_ptr_array_index (targets, i)) == SL_TARGET_KIND_LOCAL)
        return sl_target_record_get_id (g_ptr_array_index (targets, i));
    }

  return 0;
}

/* A change answers the list it changed, read again, so the model shows
 * what the database holds. */
static gpointer
change_func (SlWorkspaceStore  *store,
             gpointer           data,
             GCancellable      *cancellable,
             GError           **error)
{
  Change *change = data;
  gboolean ok = TRUE;

  switch (change->kind)
    {
    case CHANGE_SAVE_TARGET:
      if (sl_target_record_get_id (SL_TARGET_RECORD (change->record)) > 0)
        ok = sl_workspace_store_update_target (store, SL_TARGET_RECORD (change->record), error);
      else
        ok = sl_workspace_store_add_target (store, SL_TARGET_RECORD (change->record), error);
      return ok ? sl_workspace_store_list_targets (store, error) : NULL;

    case CHANGE_REMOVE_TARGET:
      ok = sl_workspace_store_remove_target (store, change->id, error);
      return ok ? sl_workspace_store_list_targets (store, error) : NULL;

    case CHANGE_SAVE_PROJECT:
      if (sl_project_record_get_id (SL_PROJECT_RECORD (change->record)) > 0)
        ok = sl_workspace_store_update_project (store, SL_PROJECT_RECORD (change->record), error);
      else
        ok = sl_workspace_store_add_project (store, SL_PROJECT_RECORD (change->record), error);
      return ok ? sl_workspace_store_list_projects (store, error) : NULL;

    case CHANGE_REMOVE_PROJECT:
      ok = sl_workspace_store_remove_project (store, change->id, error);
      return ok ? sl_workspace_store_list_projects (store, error) : NULL;

    case CHANGE_ADD_JOB:
      if (sl_job_record_get_target_id (SL_JOB_RECORD (change->record)) <= 0)
        sl_job_record_set_target_id (SL_JOB_RECORD (change->record), local_target_id (store));
      ok = sl_workspace_store_add_job (store, SL_JOB_RECORD (change->record), error);
      return ok ? sl_workspace_store_list_jobs (store, JOBS_SHOWN, error) : NULL;

    case CHANGE_FINISH_JOB:
      ok = sl_workspace_store_finish_job (store, SL_JOB_RECORD (change->record), error);
      return ok ? sl_workspace_store_list_jobs (store, JOBS_SHOWN, error) : NULL;

    case CHANGE_RELOAD_JOBS:
      return sl_workspace_store_list_jobs (store, JOBS_SHOWN, error);

    default:
      g_assert_not_reached ();
    }
}

static GListStore *
model_of_change (SlWorkspace *self,
                 ChangeKind   kind)
{
  switch (kind)
    {
    case CHANGE_SAVE_TARGET:
    case CHANGE_REMOVE_TARGET:
      return self->targets;
    case CHANGE_SAVE_PROJECT:
    case CHANGE_REMOVE_PROJECT:
      return self->projects;
    default:
      return self->jobs;
    }
}

static void
change_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SlWorkspace *self = SL_WORKSPACE (object);
  Change *change = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = sl_workspace_run_finish (self, result, &error);

  if (records == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  replace_all (model_of_change (self, change->kind), records);
  g_task_return_boolean (task, TRUE);
}

static void
queue_change (SlWorkspace         *self,
              ChangeKind           kind,
              GObject             *record,
              gint64               id,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Change *change = g_new0 (Change, 1);
  Change *copy = g_new0 (Change, 1);

  change->kind = copy->kind = kind;
  change->id = copy->id = id;
  g_set_object (&change->record, record);
  g_set_object (&copy->record, record);
  g_task_set_source_tag (task, sl_workspace_change_finish);
  g_task_set_task_data (task, change, change_free);
  sl_workspace_run_async (self, change_func, copy, change_free, (GDestroyNotify)g_ptr_array_unref,
                          cancellable, change_done_cb, task);
}

/**
 * sl_workspace_save_target_async:
 * @target: a new target (id 0) or a changed one
 *
 * Adds or updates @target; the targets model follows once it is written.
 * On success @target has its id. Finish with sl_workspace_change_finish().
 */
void
sl_workspace_save_target_async (SlWorkspace         *self,
                                SlTargetRecord      *target,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_TARGET_RECORD (target));

  queue_change (self, CHANGE_SAVE_TARGET, G_OBJECT (target), 0, cancellable, callback, user_data);
}

void
sl_workspace_remove_target_async (SlWorkspace         *self,
                                  gint64               target_id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));

  queue_change (self, CHANGE_REMOVE_TARGET, NULL, target_id, cancellable, callback, user_data);
}

void
sl_workspace_save_project_async (SlWorkspace         *self,
                                 SlProjectRecord     *project,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_PROJECT_RECORD (project));

  queue_change (self, CHANGE_SAVE_PROJECT, G_OBJECT (project), 0, cancellable, callback, user_data);
}

void
sl_workspace_remove_project_async (SlWorkspace         *self,
                                   gint64               project_id,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));

  queue_change (self, CHANGE_REMOVE_PROJECT, NULL, project_id, cancellable, callback, user_data);
}

/**
 * sl_workspace_add_job_async:
 * @job: a job that started; it gets its id once written
 */
void
sl_workspace_add_job_async (SlWorkspace         *self,
                            SlJobRecord         *job,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  queue_change (self, CHANGE_ADD_JOB, G_OBJECT (job), 0, cancellable, callback, user_data);
}

static void
change_logged_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SlWorkspace *self = SL_WORKSPACE (object);
  g_autoptr(GError) error = NULL;

  if (!sl_workspace_change_finish (self, result, &error))
    warn_unless_cancelled (self, _("The job history could not be updated"), error);
}

/**
 * sl_workspace_finish_job:
 * @job: a job of the history whose end, state and exit code are set
 *
 * Writes the end of @job (after its addition, which is queued first).
 */
void
sl_workspace_finish_job (SlWorkspace *self,
                         SlJobRecord *job)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  queue_change (self, CHANGE_FINISH_JOB, G_OBJECT (job), 0, NULL, change_logged_cb, NULL);
}

/**
 * sl_workspace_reload_jobs:
 *
 * Reads the job history again, after another connection changed it (a
 * remote run records its job itself).
 */
void
sl_workspace_reload_jobs (SlWorkspace *self)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));

  queue_change (self, CHANGE_RELOAD_JOBS, NULL, 0, NULL, change_logged_cb, NULL);
}

gboolean
sl_workspace_change_finish (SlWorkspace   *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

const char *
sl_workspace_get_db_path (SlWorkspace *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE (self), NULL);
  return self->db_path;
}

/* GObject */

static void
sl_workspace_dispose (GObject *object)
{
  SlWorkspace *self = (SlWorkspace *)object;

  g_cancellable_cancel (self->scan_cancellable);
  if (self->watch_source != NULL)
    {
      g_source_destroy (self->watch_source);
      g_clear_pointer (&self->watch_source, g_source_unref);
    }

  G_OBJECT_CLASS (sl_workspace_parent_class)->dispose (object);
}

static void
sl_workspace_finalize (GObject *object)
{
  SlWorkspace *self = (SlWorkspace *)object;

  /* The last reference can be a task's, dropped on the writer itself:
   * it must not wait for itself. */
  g_thread_pool_free (self->writer, FALSE, self->writer_thread != g_thread_self ());
  g_clear_object (&self->store);
  g_clear_error (&self->store_error);
  g_clear_object (&self->scan_cancellable);
  g_clear_object (&self->folders);
  g_clear_object (&self->targets);
  g_clear_object (&self->projects);
  g_clear_object (&self->recent_folders);
  g_clear_object (&self->jobs);
  g_clear_object (&self->problems);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_free (self->db_path);

  G_OBJECT_CLASS (sl_workspace_parent_class)->finalize (object);
}

static void
sl_workspace_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SlWorkspace *self = SL_WORKSPACE (object);

  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;
    case PROP_N_SCANNING:
      g_value_set_uint (value, self->n_scanning);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_workspace_class_init (SlWorkspaceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_workspace_dispose;
  object_class->finalize = sl_workspace_finalize;
  object_class->get_property = sl_workspace_get_property;

  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_SCANNING] =
    g_param_spec_uint ("n-scanning", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlWorkspace::folder-scanned:
   * @folder: the folder
   * @error: (nullable): why the scan failed, or %NULL
   *
   * A scan ended, and what it found is in the run index.
   */
  signals[FOLDER_SCANNED] =
    g_signal_new ("folder-scanned", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, SL_TYPE_FOLDER, G_TYPE_ERROR);

  /**
   * SlWorkspace::tensor-verdicts:
   * @rows: (nullable): the rows of a tensor comparison
   *   (#SlTensorCompareRow), or %NULL to forget the last ones
   *
   * A tensor comparison offers its verdicts to whichever documents can
   * show them (a graph colours its ops), so views need not know each
   * other.
   */
  signals[TENSOR_VERDICTS] =
    g_signal_new ("tensor-verdicts", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_LIST_MODEL);
}

static void
sl_workspace_init (SlWorkspace *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->writer = g_thread_pool_new (writer_func, self, 1, TRUE, NULL);
  self->folders = g_list_store_new (SL_TYPE_FOLDER);
  self->targets = g_list_store_new (SL_TYPE_TARGET_RECORD);
  self->projects = g_list_store_new (SL_TYPE_PROJECT_RECORD);
  self->recent_folders = g_list_store_new (G_TYPE_FILE);
  self->jobs = g_list_store_new (SL_TYPE_JOB_RECORD);
  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
  self->scan_cancellable = g_cancellable_new ();
}

/**
 * sl_workspace_new:
 * @db_path: (nullable): the workspace database, or %NULL for the default
 *   one in the user's data folder
 *
 * Returns: (transfer full): a workspace; call sl_workspace_load_async()
 */
SlWorkspace *
sl_workspace_new (const char *db_path)
{
  SlWorkspace *self = g_object_new (SL_TYPE_WORKSPACE, NULL);

  self->db_path = db_path != NULL ? g_strdup (db_path) : sl_workspace_store_dup_default_path ();
  return self;
}

/**
 * sl_workspace_publish_tensor_verdicts:
 * @rows: (nullable): the rows of a tensor comparison, or %NULL
 *
 * Emits #SlWorkspace::tensor-verdicts.
 */
void
sl_workspace_publish_tensor_verdicts (SlWorkspace *self,
                                      GListModel  *rows)
{
  g_return_if_fail (SL_IS_WORKSPACE (self));
  g_return_if_fail (rows == NULL || G_IS_LIST_MODEL (rows));

  g_signal_emit (self, signals[TENSOR_VERDICTS], 0, rows);
}
