/* sl-pipeline-model-path.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-pipeline-check.h"
#include "sl-pipeline-editor.h"
#include "sl-pipeline-model-path.h"
#include "sl-pipeline-reader.h"

#define MODEL_PATH "modelPath"

static const char * const model_factories[] = { "mxpi_tensorinfer", "mxpi_modelinfer", NULL };

void
sl_model_path_slot_free (SlModelPathSlot *slot)
{
  if (slot == NULL)
    return;
  g_free (slot->stream_name);
  g_free (slot->element_name);
  g_free (slot->factory);
  g_free (slot->model_path);
  g_free (slot);
}

static void
find_in_dir (GFile     *dir,
             guint      depth,
             GPtrArray *found)
{
  g_autoptr(GFileEnumerator) children = NULL;
  GFileInfo *info;

  if (depth > SL_PIPELINE_MODEL_PATH_MAX_DEPTH)
    return;
  children = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  while (children != NULL && found->len < SL_PIPELINE_MODEL_PATH_MAX_FILES &&
         g_file_enumerator_iterate (children, &info, NULL, NULL, NULL) && info != NULL)
    {
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) child = g_file_get_child (dir, name);

      if (name[0] == '.')
        continue;
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        find_in_dir (child, depth + 1, found);
      else if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR && g_str_has_suffix (name, ".pipeline"))
        g_ptr_array_add (found, g_file_get_path (child));
    }
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

GPtrArray *
sl_pipeline_model_path_find_pipelines (const char *project_dir)
{
  g_autoptr(GFile) dir = NULL;
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (project_dir != NULL, found);

  dir = g_file_new_for_path (project_dir);
  find_in_dir (dir, 0, found);
  g_ptr_array_sort (found, compare_paths);
  return found;
}

GPtrArray *
sl_pipeline_model_path_list_slots (SlPipeline *pipeline)
{
  GPtrArray *slots = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_model_path_slot_free);

  g_return_val_if_fail (SL_IS_PIPELINE (pipeline), slots);

  for (guint s = 0; s < sl_pipeline_get_n_streams (pipeline); s++)
    {
      const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, s);

      for (guint e = 0; e < sl_pipeline_stream_get_n_elements (stream); e++)
        {
          const SlPipelineElement *element = sl_pipeline_stream_get_element (stream, e);
          const char *factory = sl_pipeline_element_get_factory (element);
          const SlPipelineMember *current;
          SlModelPathSlot *slot;

          if (factory == NULL || !g_strv_contains (model_factories, factory))
            continue;
          current = sl_pipeline_element_lookup_prop (element, MODEL_PATH);
          slot = g_new0 (SlModelPathSlot, 1);
          slot->stream = s;
          slot->element = e;
          slot->stream_name = g_strdup (stream->name);
          slot->element_name = g_strdup (element->name);
          slot->factory = g_strdup (factory);
          slot->model_path = current && current->type == SL_PIPELINE_VALUE_STRING ? g_strdup (current->text) : NULL;
          g_ptr_array_add (slots, slot);
        }
    }
  return slots;
}

char *
sl_pipeline_model_path_for_pipeline (const char *om_path)
{
  g_return_val_if_fail (om_path != NULL, NULL);

  /* ATC wrote it relative to the project folder the app runs from. */
  if (g_str_has_prefix (om_path, "./"))
    return g_strdup (om_path + 2);
  return g_strdup (om_path);
}

GPtrArray *
sl_pipeline_model_path_apply (const char    *path,
                              guint          stream,
                              guint          element,
                              const char    *model_path,
                              const char    *project_dir,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(SlPipeline) rewritten = NULL;
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GHashTable) plugins = NULL;

  g_return_val_if_fail (path != NULL && model_path != NULL, NULL);

  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_ETAG_VALUE, G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (info == NULL || !(pipeline = sl_pipeline_reader_read_file (file, cancellable, error)))
    return NULL;
  if (stream >= sl_pipeline_get_n_streams (pipeline) ||
      element >= sl_pipeline_stream_get_n_elements (sl_pipeline_get_stream (pipeline, stream)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s no longer has that element"), path);
      return NULL;
    }
  if (!(contents = sl_pipeline_editor_set_prop (pipeline, stream, element, MODEL_PATH, model_path, error)))
    return NULL;
  /* Refused when the file changed since it was read above. */
  if (!sl_pipeline_editor_save (file, contents, g_file_info_get_etag (info), NULL, cancellable, error))
    return NULL;

  if (!(rewritten = sl_pipeline_reader_read_file (file, cancellable, error)))
    return NULL;
  plugins = sl_pipeline_check_load_user_plugins (NULL);
  return sl_pipeline_check (rewritten, project_dir, plugins);
}
