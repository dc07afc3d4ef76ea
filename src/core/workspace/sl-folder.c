/* sl-folder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-detector.h"
#include "sl-folder.h"

struct _SlFolder
{
  GObject        parent_instance;
  char          *path;
  char          *name;
  SlFolderState  state;
  GListStore    *findings;
  GListStore    *problems;
  char          *error_message;
  SlDetector    *detector;
  guint          files_scanned;
  gint64         scan_time;
  gboolean       restored;
};

G_DEFINE_FINAL_TYPE (SlFolder, sl_folder, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_NAME,
  PROP_STATE,
  PROP_FILES_SCANNED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_folder_finalize (GObject *object)
{
  SlFolder *self = (SlFolder *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_object (&self->findings);
  g_clear_object (&self->problems);
  g_clear_object (&self->detector);

  G_OBJECT_CLASS (sl_folder_parent_class)->finalize (object);
}

static void
sl_folder_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  SlFolder *self = SL_FOLDER (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;

    case PROP_FILES_SCANNED:
      g_value_set_uint (value, self->files_scanned);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_folder_class_init (SlFolderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_folder_finalize;
  object_class->get_property = sl_folder_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, SL_FOLDER_SCANNING, SL_FOLDER_FAILED, SL_FOLDER_SCANNING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILES_SCANNED] =
    g_param_spec_uint ("files-scanned", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_folder_init (SlFolder *self)
{
  self->findings = g_list_store_new (SL_TYPE_FINDING);
  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
}

/**
 * sl_folder_new:
 * @path: an absolute or relative path; it is made absolute
 *
 * Returns: (transfer full): a folder that has not been scanned yet
 */
SlFolder *
sl_folder_new (const char *path)
{
  g_autoptr(GFile) file = NULL;
  SlFolder *self;

  g_return_val_if_fail (path != NULL, NULL);

  file = g_file_new_for_commandline_arg (path);

  self = g_object_new (SL_TYPE_FOLDER, NULL);
  self->path = g_file_get_path (file);
  if (self->path == NULL)
    self->path = g_strdup (path);
  self->name = g_path_get_basename (self->path);

  return self;
}

const char *
sl_folder_get_path (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), NULL);
  return self->path;
}

const char *
sl_folder_get_name (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), NULL);
  return self->name;
}

SlFolderState
sl_folder_get_state (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), SL_FOLDER_FAILED);
  return self->state;
}

/**
 * sl_folder_get_findings:
 *
 * Returns: (transfer none): a #GListModel of #SlFinding, filled when the
 *   scan completes
 */
GListModel *
sl_folder_get_findings (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), NULL);
  return G_LIST_MODEL (self->findings);
}

/**
 * sl_folder_get_problems:
 *
 * Returns: (transfer none): a #GListModel of #SlProblem from the last scan
 */
GListModel *
sl_folder_get_problems (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), NULL);
  return G_LIST_MODEL (self->problems);
}

const char *
sl_folder_get_error_message (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), NULL);
  return self->error_message;
}

guint
sl_folder_get_files_scanned (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), 0);
  return self->files_scanned;
}

/**
 * sl_folder_get_scan_time:
 *
 * Returns: how long the detector worked on the last scan, in microseconds
 */
gint64
sl_folder_get_scan_time (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), 0);
  return self->scan_time;
}

/**
 * sl_folder_poll_progress:
 *
 * Reads the running detector's progress and notifies :files-scanned. The
 * GUI calls it from a timeout while the scan runs in a worker thread.
 *
 * Returns: the number of files looked at so far
 */
guint
sl_folder_poll_progress (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), 0);

  if (self->detector != NULL)
    {
      guint n = sl_detector_get_files_scanned (self->detector);

      if (n != self->files_scanned)
        {
          self->files_scanned = n;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_SCANNED]);
        }
    }

  return self->files_scanned;
}

static void
sl_folder_set_state (SlFolder      *self,
                     SlFolderState  state)
{
  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }
}

static void
copy_model (GListModel *from,
            GListStore *to)
{
  guint n = g_list_model_get_n_items (from);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (from, i));

  /* One splice, so views see a single items-changed. */
  g_list_store_splice (to, 0, g_list_model_get_n_items (G_LIST_MODEL (to)), items->pdata, items->len);
}

static void
sl_folder_scan_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  SlDetector *detector = (SlDetector *)object;
  g_autoptr(GTask) task = user_data;
  SlFolder *self = g_task_get_source_object (task);
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GError) error = NULL;

  detection = sl_detector_run_finish (detector, result, &error);
  sl_folder_poll_progress (self);
  g_clear_object (&self->detector);

  if (detection == NULL)
    {
      g_free (self->error_message);
      self->error_message = g_strdup (error->message);
      sl_folder_set_state (self, SL_FOLDER_FAILED);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->restored = FALSE;
  copy_model (sl_detection_get_problems (detection), self->problems);
  copy_model (sl_detection_get_findings (detection), self->findings);
  self->files_scanned = sl_detection_get_files_scanned (detection);
  self->scan_time = sl_detection_get_elapsed (detection);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_SCANNED]);
  sl_folder_set_state (self, SL_FOLDER_READY);
  g_task_return_boolean (task, TRUE);
}

/**
 * sl_folder_restore_findings:
 * @findings: (element-type SlFinding): what the last scan found, from the
 *   workspace database's run index
 *
 * Shows @findings at once, before the folder is scanned again; the next
 * scan replaces them.
 */
void
sl_folder_restore_findings (SlFolder  *self,
                            GPtrArray *findings)
{
  g_return_if_fail (SL_IS_FOLDER (self));
  g_return_if_fail (findings != NULL);
  g_return_if_fail (self->detector == NULL);

  self->restored = TRUE;
  g_list_store_splice (self->findings, 0, g_list_model_get_n_items (G_LIST_MODEL (self->findings)),
                       findings->pdata, findings->len);
  sl_folder_set_state (self, SL_FOLDER_READY);
}

/**
 * sl_folder_is_restored:
 *
 * Returns: whether the findings come from the run index and the folder
 *   was not scanned since
 */
gboolean
sl_folder_is_restored (SlFolder *self)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), FALSE);

  return self->restored;
}

/**
 * sl_folder_scan_async:
 *
 * Runs the detector over the folder in a worker thread. The findings and
 * problems models are replaced when it completes.
 */
void
sl_folder_scan_async (SlFolder            *self,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_FOLDER (self));
  g_return_if_fail (self->detector == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_folder_scan_async);

  g_clear_pointer (&self->error_message, g_free);
  self->files_scanned = 0;
  self->detector = sl_detector_new (self->path);
  sl_folder_set_state (self, SL_FOLDER_SCANNING);

  sl_detector_run_async (self->detector, cancellable, sl_folder_scan_cb, g_steal_pointer (&task));
}

gboolean
sl_folder_scan_finish (SlFolder      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (SL_IS_FOLDER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
