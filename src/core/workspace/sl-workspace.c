/* sl-workspace.c: the GObject: its models, properties and signals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-private.h"

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

/* Shows in @store what the database holds. */
void
sl_workspace_replace_all (GListStore *store,
                          GPtrArray  *items)
{
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       items ? items->pdata : NULL, items ? items->len : 0);
}

void
sl_workspace_notify_loaded (SlWorkspace *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
}

void
sl_workspace_notify_n_scanning (SlWorkspace *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SCANNING]);
}

void
sl_workspace_emit_folder_scanned (SlWorkspace *self,
                                  SlFolder    *folder,
                                  GError      *error)
{
  g_signal_emit (self, signals[FOLDER_SCANNED], 0, folder, error);
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
  sl_workspace_stop_watching (self);

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
  self->writer = g_thread_pool_new (sl_workspace_writer_func, self, 1, TRUE, NULL);
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
