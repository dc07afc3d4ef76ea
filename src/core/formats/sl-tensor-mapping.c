/* sl-tensor-mapping.c: msprobe's data mapping file, JSON or plain YAML
 *
 * Only the flat "key: value" form msprobe documents is read; a YAML
 * library would accept far more than a mapping file needs to hold.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-input-file.h"
#include "sl-tensor-mapping.h"

struct _SlTensorMapping
{
  GObject     parent_instance;
  GHashTable *names;   /* NPU name -> benchmark name */
};

G_DEFINE_FINAL_TYPE (SlTensorMapping, sl_tensor_mapping, G_TYPE_OBJECT)

static void
sl_tensor_mapping_finalize (GObject *object)
{
  SlTensorMapping *self = SL_TENSOR_MAPPING (object);

  g_hash_table_unref (self->names);
  G_OBJECT_CLASS (sl_tensor_mapping_parent_class)->finalize (object);
}

static void
sl_tensor_mapping_class_init (SlTensorMappingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_tensor_mapping_finalize;
}

static void
sl_tensor_mapping_init (SlTensorMapping *self)
{
  self->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

SlTensorMapping *
sl_tensor_mapping_new (void)
{
  return g_object_new (SL_TYPE_TENSOR_MAPPING, NULL);
}

void
sl_tensor_mapping_add (SlTensorMapping *self,
                       const char      *npu_name,
                       const char      *bench_name)
{
  g_return_if_fail (SL_IS_TENSOR_MAPPING (self));
  g_return_if_fail (npu_name != NULL && bench_name != NULL);

  g_hash_table_replace (self->names, g_strdup (npu_name), g_strdup (bench_name));
}

guint
sl_tensor_mapping_get_size (SlTensorMapping *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_MAPPING (self), 0);
  return g_hash_table_size (self->names);
}

const char *
sl_tensor_mapping_lookup (SlTensorMapping *self,
                          const char      *name)
{
  g_return_val_if_fail (SL_IS_TENSOR_MAPPING (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  return g_hash_table_lookup (self->names, name);
}

static gboolean
read_json (SlTensorMapping  *self,
           const char       *text,
           gsize             length,
           GError          **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;
  g_autoptr(GList) names = NULL;

  if (!json_parser_load_from_data (parser, text, (gssize) length, error))
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The mapping is not a JSON object"));
      return FALSE;
    }
  object = json_node_get_object (json_parser_get_root (parser));
  names = json_object_get_members (object);
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The mapping of %s is not a name"), (const char *) l->data);
          return FALSE;
        }
      sl_tensor_mapping_add (self, l->data, json_node_get_string (value));
    }
  return TRUE;
}

/* Strips blanks and one pair of matching quotes. */
static char *
yaml_scalar (const char *text)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  gsize len = strlen (stripped);

  if (len >= 2 && (stripped[0] == '"' || stripped[0] == '\'') && stripped[len - 1] == stripped[0])
    return g_strndup (stripped + 1, len - 2);
  return g_steal_pointer (&stripped);
}

static gboolean
read_yaml (SlTensorMapping  *self,
           const char       *text,
           GError          **error)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = g_strstrip (g_strdup (lines[i]));
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;
      /* Names hold dots but never ": ", so the first one separates. */
      char *colon = strstr (line, ": ");

      if (*line == '\0' || *line == '#' || g_str_equal (line, "---"))
        continue;
      if (colon == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Line %u of the mapping is not \"name: name\""), i + 1);
          return FALSE;
        }
      *colon = '\0';
      key = yaml_scalar (line);
      value = yaml_scalar (colon + 2);
      if (*key == '\0' || *value == '\0')
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Line %u of the mapping is not \"name: name\""), i + 1);
          return FALSE;
        }
      sl_tensor_mapping_add (self, key, value);
    }
  return TRUE;
}

SlTensorMapping *
sl_tensor_mapping_new_from_data (const char  *text,
                                 gsize        length,
                                 GError     **error)
{
  g_autoptr(SlTensorMapping) self = sl_tensor_mapping_new ();
  g_autofree char *copy = NULL;
  const char *start;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (length > SL_TENSOR_MAPPING_MAX_SIZE || memchr (text, '\0', length) != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The mapping is not a text file"));
      return NULL;
    }
  copy = g_strndup (text, length);
  for (start = copy; g_ascii_isspace (*start); start++)
    ;
  if (*start == '{' ? !read_json (self, copy, length, error) : !read_yaml (self, copy, error))
    return NULL;
  return g_steal_pointer (&self);
}

SlTensorMapping *
sl_tensor_mapping_new_from_file (const char  *path,
                                 GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  /* Checked before reading, so a huge file is never loaded. */
  if (!sl_input_file_check (path, error))
    return NULL;
  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_size (info) > SL_TENSOR_MAPPING_MAX_SIZE)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The mapping is larger than 16 MiB"));
      return NULL;
    }
  if (!sl_input_file_get_contents (path, &text, &length, error))
    return NULL;
  return sl_tensor_mapping_new_from_data (text, length, error);
}
