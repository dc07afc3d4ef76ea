/* sl-msprobe-dump.c: dump.json, construct.json and stack.json of msprobe
 *
 * The files are read whole with json-glib. Its parser recurses, so the
 * nesting is measured on the raw bytes first and deep input refused
 * before it is parsed. json-glib keeps no positions, so a damaged record
 * is reported at the offset of its entry's name in the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-input-file.h"
#include "sl-msprobe-dump.h"
#include "sl-problem.h"

/* Far deeper than msprobe writes (about six levels), shallow enough for
 * json-glib's recursion. */
#define MAX_JSON_NESTING 256

struct _SlMsprobeDump
{
  GObject     parent_instance;

  char       *path;
  char       *data_dir;      /* dump_tensor_data next to dump.json, or NULL */
  char       *task;
  char       *level;
  char       *framework;
  GPtrArray  *tensors;       /* SlMsprobeTensor */
  GHashTable *parents;       /* entry -> parent entry */
  GHashTable *stacks;        /* entry -> frames joined by newlines */
  GPtrArray  *problems;      /* SlProblem */
  const char *text;          /* dump.json while it is read */
  gsize       text_length;
};

G_DEFINE_FINAL_TYPE (SlMsprobeDump, sl_msprobe_dump, G_TYPE_OBJECT)

static void
tensor_free (gpointer data)
{
  SlMsprobeTensor *tensor = data;

  g_free (tensor->key);
  g_free (tensor->fuzzy_key);
  g_free (tensor->entry);
  g_free (tensor->api_type);
  g_free (tensor->api);
  g_free (tensor->index);
  g_free (tensor->dtype);
  g_free (tensor->shape);
  g_free (tensor->md5);
  g_free (tensor->data_name);
  g_free (tensor->data_path);
  g_free (tensor);
}

static void
sl_msprobe_dump_finalize (GObject *object)
{
  SlMsprobeDump *self = SL_MSPROBE_DUMP (object);

  g_free (self->path);
  g_free (self->data_dir);
  g_free (self->task);
  g_free (self->level);
  g_free (self->framework);
  g_ptr_array_unref (self->tensors);
  g_hash_table_unref (self->parents);
  g_hash_table_unref (self->stacks);
  g_ptr_array_unref (self->problems);

  G_OBJECT_CLASS (sl_msprobe_dump_parent_class)->finalize (object);
}

static void
sl_msprobe_dump_class_init (SlMsprobeDumpClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_msprobe_dump_finalize;
}

static void
sl_msprobe_dump_init (SlMsprobeDump *self)
{
  self->tensors = g_ptr_array_new_with_free_func (tensor_free);
  self->parents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
}

static void
report (SlMsprobeDump *self,
        const char    *path,
        gint64         offset,
        const char    *message)
{
  g_ptr_array_add (self->problems,
                   sl_problem_new (SL_SEVERITY_WARNING, _("msprobe dump"), path, offset, message));
}

/* Where "@entry" is named in dump.json, for reporting; -1 if not found. */
static gint64
entry_offset (SlMsprobeDump *self,
              const char    *entry)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", entry);
  const char *found;

  if (self->text == NULL)
    return -1;
  found = g_strstr_len (self->text, self->text_length, quoted);
  return found != NULL ? found - self->text : -1;
}

static void
report_entry (SlMsprobeDump *self,
              const char    *entry,
              const char    *message)
{
  g_autofree char *full = g_strdup_printf ("%s: %s", entry, message);

  report (self, self->path, entry_offset (self, entry), full);
}

/* The offset where nesting passes MAX_JSON_NESTING, or -1. */
static gint64
find_too_deep (const char *text,
               gsize       length)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > MAX_JSON_NESTING)
            return (gint64) i;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return -1;
}

/* Parses @text as JSON, reporting why it cannot be; %NULL then. */
static JsonNode *
parse_json (SlMsprobeDump *self,
            const char    *path,
            const char    *text,
            gsize          length)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  gint64 deep_at = find_too_deep (text, length);

  if (deep_at >= 0)
    {
      report (self, path, deep_at, _("The JSON nests too deeply"));
      return NULL;
    }
  if (length > G_MAXSSIZE || !json_parser_load_from_data (parser, text, (gssize) length, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Not valid JSON: %s"),
                                                  error != NULL ? error->message : "");

      report (self, path, -1, message);
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL)
    {
      report (self, path, 0, _("The file is empty"));
      return NULL;
    }
  return json_node_copy (json_parser_get_root (parser));
}

static gboolean
is_number_token (const char *token)
{
  if (*token == '\0')
    return FALSE;
  for (const char *p = token; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return strlen (token) <= 18;
}

/**
 * sl_msprobe_parse_entry:
 *
 * Splits "Functional.relu.0.forward" (call before the direction) or
 * "Module.conv2.Conv2d.forward.0" (a module: call after it).
 */
gboolean
sl_msprobe_parse_entry (const char  *entry,
                        char       **api_type,
                        char       **api,
                        gint64      *call,
                        gboolean    *backward)
{
  g_auto(GStrv) tokens = NULL;
  guint n, dir = G_MAXUINT, api_end;
  gint64 number = -1;

  g_return_val_if_fail (entry != NULL, FALSE);

  tokens = g_strsplit (entry, ".", -1);
  n = g_strv_length (tokens);
  for (guint i = n; i-- > 1;)
    if (g_str_equal (tokens[i], "forward") || g_str_equal (tokens[i], "backward"))
      {
        dir = i;
        break;
      }
  if (dir == G_MAXUINT || dir < 2 || dir + 2 < n)
    return FALSE;

  api_end = dir;
  if (dir + 1 == n - 1)
    {
      if (!is_number_token (tokens[dir + 1]))
        return FALSE;
      number = g_ascii_strtoll (tokens[dir + 1], NULL, 10);
    }
  else if (is_number_token (tokens[dir - 1]) && dir >= 3)
    {
      number = g_ascii_strtoll (tokens[dir - 1], NULL, 10);
      api_end = dir - 1;
    }

  if (api_type != NULL)
    *api_type = g_strdup (tokens[0]);
  if (api != NULL)
    {
      g_autofree char **middle = g_new0 (char *, api_end);

      for (guint i = 1; i < api_end; i++)
        middle[i - 1] = tokens[i];
      *api = g_strjoinv (".", middle);
    }
  if (call != NULL)
    *call = number;
  if (backward != NULL)
    *backward = g_str_equal (tokens[dir], "backward");
  return TRUE;
}

const char *
sl_msprobe_io_to_string (SlMsprobeIo io)
{
  switch (io)
    {
    case SL_MSPROBE_INPUT:
      return "input";
    case SL_MSPROBE_OUTPUT:
      return "output";
    case SL_MSPROBE_PARAMETER:
      return "parameters";
    default:
      return "unknown";
    }
}

/* A number member, or %FALSE when it is missing or not a number. */
static gboolean
get_double (JsonObject *object,
            const char *name,
            double     *value)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      *value = (double) json_node_get_int (node);
      return TRUE;
    case G_TYPE_DOUBLE:
      *value = json_node_get_double (node);
      return TRUE;
    case G_TYPE_STRING:
      /* msprobe writes "inf", "-inf" and "nan" as strings. */
      {
        const char *text = json_node_get_string (node);
        char *end = NULL;

        *value = g_ascii_strtod (text, &end);
        return end != text && *end == '\0';
      }
    default:
      return FALSE;
    }
}

static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
read_shape (JsonNode        *node,
            SlMsprobeTensor *tensor)
{
  JsonArray *array;
  guint n;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n > SL_MSPROBE_MAX_DIMS)
    return FALSE;
  tensor->n_dims = n;
  tensor->shape = g_new0 (gint64, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      JsonNode *dim = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (dim) || json_node_get_value_type (dim) != G_TYPE_INT64 ||
          json_node_get_int (dim) < 0)
        return FALSE;
      tensor->shape[i] = json_node_get_int (dim);
    }
  return TRUE;
}

/* The file a data_name names inside dump_tensor_data, or %NULL with
 * @reason set when it would lead elsewhere. */
static char *
resolve_data_name (SlMsprobeDump  *self,
                   const char     *data_name,
                   const char    **reason)
{
  g_autofree char *path = NULL;
  g_auto(GStrv) parts = NULL;

  if (*data_name == '\0' || g_path_is_absolute (data_name) || strchr (data_name, '\\') != NULL)
    {
      *reason = _("data_name is not a relative file name");
      return NULL;
    }
  parts = g_strsplit (data_name, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (g_str_equal (parts[i], ".."))
      {
        *reason = _("data_name leads out of the dump folder");
        return NULL;
      }
  if (self->data_dir == NULL)
    return NULL;

  path = g_build_filename (self->data_dir, data_name, NULL);
  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      /* A link may point anywhere; the dump never writes one. */
      *reason = _("data_name is a symbolic link");
      return NULL;
    }
  return g_steal_pointer (&path);
}

static void
add_tensor (SlMsprobeDump *self,
            const char    *entry,
            SlMsprobeIo    io,
            const char    *index,
            JsonObject    *record)
{
  g_autoptr(GString) key = g_string_new (NULL);
  SlMsprobeTensor *tensor = g_new0 (SlMsprobeTensor, 1);
  const char *data_name = get_string (record, "data_name");
  const char *md5 = get_string (record, "md5");
  const char *dtype = get_string (record, "dtype");
  JsonNode *grad = json_object_get_member (record, "requires_grad");

  tensor->entry = g_strdup (entry);
  sl_msprobe_parse_entry (entry, &tensor->api_type, &tensor->api, &tensor->call, &tensor->backward);
  tensor->io = io;
  tensor->index = g_strdup (index);
  tensor->order = self->tensors->len;
  tensor->key = g_strdup_printf ("%s.%s.%s", entry, sl_msprobe_io_to_string (io), index);
  tensor->fuzzy_key = g_strdup_printf ("%s.%s.%s.%s.%s", tensor->api_type, tensor->api,
                                       tensor->backward ? "backward" : "forward",
                                       sl_msprobe_io_to_string (io), index);
  tensor->dtype = g_strdup (dtype);
  tensor->requires_grad = -1;
  if (grad != NULL && JSON_NODE_HOLDS_VALUE (grad) && json_node_get_value_type (grad) == G_TYPE_BOOLEAN)
    tensor->requires_grad = json_node_get_boolean (grad);

  if (!read_shape (json_object_get_member (record, "shape"), tensor))
    {
      g_autofree char *message = g_strdup_printf (_("%s: the shape is not a list of sizes; the tensor is skipped"),
                                                  tensor->key);

      report (self, self->path, entry_offset (self, entry), message);
      tensor_free (tensor);
      return;
    }

  tensor->has_stats = get_double (record, "Max", &tensor->max) &&
                      get_double (record, "Min", &tensor->min) &&
                      get_double (record, "Mean", &tensor->mean) &&
                      get_double (record, "Norm", &tensor->norm);
  tensor->md5 = g_strdup (md5);
  if (data_name != NULL && !g_str_equal (data_name, "-1"))
    {
      const char *reason = NULL;

      tensor->data_name = g_strdup (data_name);
      tensor->data_path = resolve_data_name (self, data_name, &reason);
      if (reason != NULL)
        {
          g_autofree char *message = g_strdup_printf ("%s: %s", tensor->key, reason);

          report (self, self->path, entry_offset (self, entry), message);
        }
    }
  g_ptr_array_add (self->tensors, tensor);
}

/* A record is a tensor when it has a dtype and a shape; numbers, strings
 * and None arguments are left out as msprobe leaves them out of the
 * comparison of tensors. */
static gboolean
is_tensor_record (JsonObject *record)
{
  return json_object_has_member (record, "dtype") && json_object_has_member (record, "shape");
}

static void
read_argument (SlMsprobeDump *self,
               const char    *entry,
               SlMsprobeIo    io,
               const char    *index,
               JsonNode      *node,
               guint          depth)
{
  if (depth > SL_MSPROBE_MAX_DEPTH)
    {
      report_entry (self, entry, _("arguments nest too deeply; the rest is skipped"));
      return;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *record = json_node_get_object (node);

      if (is_tensor_record (record))
        add_tensor (self, entry, io, index, record);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      /* A tuple or list argument: its tensors are index.0, index.1, ... */
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *sub = g_strdup_printf ("%s.%u", index, i);

          read_argument (self, entry, io, sub, json_array_get_element (array, i), depth + 1);
        }
    }
}

static void
read_list (SlMsprobeDump *self,
           const char    *entry,
           SlMsprobeIo    io,
           JsonObject    *call,
           const char    *member)
{
  JsonNode *node = json_object_get_member (call, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          char index[16];

          g_snprintf (index, sizeof index, "%u", i);
          read_argument (self, entry, io, index, json_array_get_element (array, i), 1);
        }
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      /* input_kwargs and parameters are keyed by name. */
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) names = json_object_get_members (object);

      for (GList *l = names; l != NULL; l = l->next)
        read_argument (self, entry, io, l->data, json_object_get_member (object, l->data), 1);
    }
  else
    {
      g_autofree char *message = g_strdup_printf (_("%s is neither a list nor an object"), member);

      report_entry (self, entry, message);
    }
}

static void
read_call (SlMsprobeDump *self,
           const char    *entry,
           JsonNode      *node)
{
  JsonObject *call;

  if (!sl_msprobe_parse_entry (entry, NULL, NULL, NULL, NULL))
    {
      report_entry (self, entry, _("not an API or module name with forward or backward; skipped"));
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      report_entry (self, entry, _("the entry is not an object; skipped"));
      return;
    }
  call = json_node_get_object (node);
  /* Backward entries name their lists input and output. */
  read_list (self, entry, SL_MSPROBE_INPUT, call, "input");
  read_list (self, entry, SL_MSPROBE_INPUT, call, "input_args");
  read_list (self, entry, SL_MSPROBE_INPUT, call, "input_kwargs");
  read_list (self, entry, SL_MSPROBE_OUTPUT, call, "output");
  read_list (self, entry, SL_MSPROBE_PARAMETER, call, "parameters");
}

static void
read_dump_json (SlMsprobeDump *self,
                const char    *text,
                gsize          length)
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonNode *data;

  self->text = text;
  self->text_length = length;
  root = parse_json (self, self->path, text, length);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      if (root != NULL)
        report (self, self->path, 0, _("dump.json is not a JSON object"));
      goto out;
    }
  object = json_node_get_object (root);
  self->task = g_strdup (get_string (object, "task"));
  self->level = g_strdup (get_string (object, "level"));
  self->framework = g_strdup (get_string (object, "framework"));

  data = json_object_get_member (object, "data");
  if (data == NULL || !JSON_NODE_HOLDS_OBJECT (data))
    {
      report (self, self->path, 0, _("dump.json has no data object"));
      goto out;
    }
  {
    /* json-glib keeps members in the order of the file. */
    JsonObject *calls = json_node_get_object (data);
    g_autoptr(GList) names = json_object_get_members (calls);

    for (GList *l = names; l != NULL; l = l->next)
      read_call (self, l->data, json_object_get_member (calls, l->data));
  }

out:
  self->text = NULL;
  self->text_length = 0;
}

static void
read_construct (SlMsprobeDump *self,
                const char    *path,
                JsonNode      *root)
{
  JsonObject *object;
  g_autoptr(GList) names = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      report (self, path, 0, _("construct.json is not a JSON object"));
      return;
    }
  object = json_node_get_object (root);
  names = json_object_get_members (object);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *parent = get_string (object, l->data);

      if (parent != NULL)
        g_hash_table_replace (self->parents, g_strdup (l->data), g_strdup (parent));
    }
}

/* Frames as a list of strings, joined by newlines; %NULL otherwise. */
static char *
join_frames (JsonNode *node)
{
  g_autoptr(GString) text = NULL;
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  text = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *frame = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (frame) || json_node_get_value_type (frame) != G_TYPE_STRING)
        return NULL;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, json_node_get_string (frame));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* stack.json maps an entry to its frames, or (newer msprobe) a number to
 * [[entries...], [frames...]] shared by calls with the same stack. */
static void
read_stack (SlMsprobeDump *self,
            const char    *path,
            JsonNode      *root)
{
  JsonObject *object;
  g_autoptr(GList) names = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      report (self, path, 0, _("stack.json is not a JSON object"));
      return;
    }
  object = json_node_get_object (root);
  names = json_object_get_members (object);
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);
      char *frames = join_frames (value);
      JsonArray *pair;
      JsonNode *entries;

      if (frames != NULL)
        {
          g_hash_table_replace (self->stacks, g_strdup (l->data), frames);
          continue;
        }
      if (!JSON_NODE_HOLDS_ARRAY (value) || json_array_get_length (json_node_get_array (value)) != 2)
        continue;
      pair = json_node_get_array (value);
      entries = json_array_get_element (pair, 0);
      frames = join_frames (json_array_get_element (pair, 1));
      if (frames != NULL && JSON_NODE_HOLDS_ARRAY (entries))
        {
          JsonArray *list = json_node_get_array (entries);

          for (guint i = 0; i < json_array_get_length (list); i++)
            {
              JsonNode *name = json_array_get_element (list, i);

              if (JSON_NODE_HOLDS_VALUE (name) && json_node_get_value_type (name) == G_TYPE_STRING)
                g_hash_table_replace (self->stacks, g_strdup (json_node_get_string (name)), g_strdup (frames));
            }
        }
      g_free (frames);
    }
}

static char *
read_bounded (const char  *path,
              gsize        max_size,
              gsize       *length,
              GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  char *contents = NULL;

  if (!sl_input_file_check (path, error))
    return NULL;
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, error);
  if (info == NULL)
    return NULL;
  if ((guint64) g_file_info_get_size (info) > max_size)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("%s is larger than %u MiB"), path, (guint) (max_size / (1024 * 1024)));
      return NULL;
    }
  if (!sl_input_file_get_contents (path, &contents, length, error))
    return NULL;
  return contents;
}

static void
read_side_file (SlMsprobeDump *self,
                const char    *folder,
                const char    *name,
                void         (*read) (SlMsprobeDump *, const char *, JsonNode *))
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  gsize length = 0;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return;
  text = read_bounded (path, SL_MSPROBE_SIDE_MAX_SIZE, &length, &error);
  if (text == NULL)
    {
      report (self, path, -1, error->message);
      return;
    }
  root = parse_json (self, path, text, length);
  if (root != NULL)
    read (self, path, root);
}

SlMsprobeDump *
sl_msprobe_dump_new_from_data (const char *path,
                               const char *folder,
                               const char *data,
                               gsize       length)
{
  SlMsprobeDump *self;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);

  self = g_object_new (SL_TYPE_MSPROBE_DUMP, NULL);
  self->path = g_strdup (path);
  if (folder != NULL)
    self->data_dir = g_build_filename (folder, "dump_tensor_data", NULL);
  read_dump_json (self, data != NULL ? data : "", length);
  return self;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* dump.json itself, in @path, or in the first step<N>/rank<N> below it. */
static char *
find_dump_json (const char *path)
{
  g_autoptr(GDir) steps = NULL;
  g_autofree char *direct = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return g_strdup (path);
  direct = g_build_filename (path, "dump.json", NULL);
  if (g_file_test (direct, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&direct);

  /* A step or dump root: the first folder (in name order) that has one. */
  steps = g_dir_open (path, 0, NULL);
  if (steps == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (steps)) != NULL)
    if (g_str_has_prefix (name, "step") || g_str_has_prefix (name, "rank"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *sub = g_build_filename (path, g_ptr_array_index (names, i), NULL);
      g_autofree char *rank = g_build_filename (sub, "dump.json", NULL);
      g_autoptr(GDir) ranks = NULL;

      if (g_file_test (rank, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&rank);
      ranks = g_dir_open (sub, 0, NULL);
      while (ranks != NULL && (name = g_dir_read_name (ranks)) != NULL)
        {
          g_autofree char *candidate = g_build_filename (sub, name, "dump.json", NULL);

          if (g_str_has_prefix (name, "rank") && g_file_test (candidate, G_FILE_TEST_IS_REGULAR))
            return g_steal_pointer (&candidate);
        }
    }
  return NULL;
}

SlMsprobeDump *
sl_msprobe_dump_open (const char  *path,
                      GError     **error)
{
  g_autofree char *json_path = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *text = NULL;
  SlMsprobeDump *self;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  json_path = find_dump_json (path);
  if (json_path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No msprobe dump.json in %s"), path);
      return NULL;
    }
  text = read_bounded (json_path, SL_MSPROBE_DUMP_MAX_SIZE, &length, error);
  if (text == NULL)
    return NULL;
  folder = g_path_get_dirname (json_path);
  self = sl_msprobe_dump_new_from_data (json_path, folder, text, length);
  read_side_file (self, folder, "construct.json", read_construct);
  read_side_file (self, folder, "stack.json", read_stack);
  return self;
}

const char *
sl_msprobe_dump_get_path (SlMsprobeDump *self)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  return self->path;
}

const char *
sl_msprobe_dump_get_task (SlMsprobeDump *self)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  return self->task;
}

const char *
sl_msprobe_dump_get_level (SlMsprobeDump *self)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  return self->level;
}

const char *
sl_msprobe_dump_get_framework (SlMsprobeDump *self)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  return self->framework;
}

guint
sl_msprobe_dump_get_n_tensors (SlMsprobeDump *self)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), 0);
  return self->tensors->len;
}

const SlMsprobeTensor *
sl_msprobe_dump_get_tensor (SlMsprobeDump *self,
                            guint          index)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  g_return_val_if_fail (index < self->tensors->len, NULL);
  return g_ptr_array_index (self->tensors, index);
}

const char *
sl_msprobe_dump_get_parent (SlMsprobeDump *self,
                            const char    *entry)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  g_return_val_if_fail (entry != NULL, NULL);
  return g_hash_table_lookup (self->parents, entry);
}

char *
sl_msprobe_dump_dup_module_path (SlMsprobeDump *self,
                                 const char    *entry)
{
  g_autoptr(GPtrArray) chain = NULL;
  g_autoptr(GString) text = NULL;
  const char *parent;

  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  g_return_val_if_fail (entry != NULL, NULL);

  chain = g_ptr_array_new ();
  /* Bounded by the table's size, so a loop in construct.json ends. */
  for (parent = g_hash_table_lookup (self->parents, entry);
       parent != NULL && chain->len <= g_hash_table_size (self->parents);
       parent = g_hash_table_lookup (self->parents, parent))
    g_ptr_array_add (chain, (gpointer) parent);
  if (chain->len == 0)
    return NULL;
  text = g_string_new (NULL);
  for (guint i = chain->len; i-- > 0;)
    {
      g_string_append (text, g_ptr_array_index (chain, i));
      if (i > 0)
        g_string_append (text, " > ");
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

const char *
sl_msprobe_dump_get_stack (SlMsprobeDump *self,
                           const char    *entry)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  g_return_val_if_fail (entry != NULL, NULL);
  return g_hash_table_lookup (self->stacks, entry);
}

GPtrArray *
sl_msprobe_dump_get_problems (SlMsprobeDump *self)
{
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (self), NULL);
  return self->problems;
}
