/* sl-mindspore-dump-name.c: MindSpore dump file names and their pairing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-mindspore-dump-name.h"

/* Names longer than a file system allows are not dump names. */
#define MAX_NAME 4096

void
sl_mindspore_dump_name_free (SlMindsporeDumpName *self)
{
  if (self == NULL)
    return;
  g_free (self->file_name);
  g_free (self->op_type);
  g_free (self->op_name);
  g_free (self->scope);
  g_free (self->format);
  g_free (self->dtype);
  g_free (self->key);
  g_free (self);
}

static gboolean
parse_number (const char *token,
              guint64    *value)
{
  if (*token == '\0' || strlen (token) > 20)
    return FALSE;
  for (const char *p = token; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return g_ascii_string_to_unsigned (token, 10, 0, G_MAXUINT64, value, NULL);
}

static gboolean
is_io (const char *token)
{
  return g_str_equal (token, "input") || g_str_equal (token, "output");
}

/* The position of input|output: the last one followed by an index and a
 * format, with the three numbers and op type and name before it. */
static int
find_io (char **tokens,
         guint  n)
{
  guint64 number;

  for (guint i = n; i-- > 5;)
    if (is_io (tokens[i]) && i + 2 < n && i + 4 >= n && parse_number (tokens[i + 1], &number))
      return (int) i;
  return -1;
}

SlMindsporeDumpName *
sl_mindspore_dump_name_parse (const char *file_name)
{
  g_autoptr(SlMindsporeDumpName) self = NULL;
  g_autofree char *stem = NULL;
  g_auto(GStrv) tokens = NULL;
  g_autofree char **name_parts = NULL;
  guint n;
  int io;
  guint64 index;

  g_return_val_if_fail (file_name != NULL, NULL);

  if (strlen (file_name) > MAX_NAME || !g_str_has_suffix (file_name, ".npy") || strchr (file_name, '/') != NULL)
    return NULL;
  stem = g_strndup (file_name, strlen (file_name) - 4);
  tokens = g_strsplit (stem, ".", -1);
  n = g_strv_length (tokens);
  io = find_io (tokens, n);
  if (io < 0)
    return NULL;

  self = g_new0 (SlMindsporeDumpName, 1);
  if (!parse_number (tokens[io - 3], &self->task_id) ||
      !parse_number (tokens[io - 2], &self->stream_id) ||
      !parse_number (tokens[io - 1], &self->timestamp) ||
      !parse_number (tokens[io + 1], &index) || index > G_MAXUINT ||
      *tokens[0] == '\0' || *tokens[io + 2] == '\0')
    return NULL;
  self->file_name = g_strdup (file_name);
  self->op_type = g_strdup (tokens[0]);
  name_parts = g_new0 (char *, io - 3);
  for (int i = 1; i < io - 3; i++)
    name_parts[i - 1] = tokens[i];
  self->op_name = g_strjoinv (".", name_parts);
  if (*self->op_name == '\0')
    return NULL;
  {
    g_auto(GStrv) scope = g_strsplit (self->op_name, "--", -1);

    self->scope = g_strjoinv ("/", scope);
  }
  self->output = g_str_equal (tokens[io], "output");
  self->index = (guint) index;
  self->format = g_strdup (tokens[io + 2]);
  self->dtype = (guint) io + 3 < n ? g_strdup (tokens[io + 3]) : NULL;
  self->key = g_strdup_printf ("%s.%s.%u", self->op_name, tokens[io], self->index);
  return g_steal_pointer (&self);
}

static int
compare_by_time (gconstpointer a,
                 gconstpointer b)
{
  const SlMindsporeDumpName *x = *(const SlMindsporeDumpName * const *) a;
  const SlMindsporeDumpName *y = *(const SlMindsporeDumpName * const *) b;

  if (x->timestamp != y->timestamp)
    return x->timestamp < y->timestamp ? -1 : 1;
  return g_strcmp0 (x->file_name, y->file_name);
}

GArray *
sl_mindspore_dump_names_pair (GPtrArray *npu,
                              GPtrArray *bench)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                        (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GHashTable) next = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) used = g_hash_table_new (NULL, NULL);
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (SlMindsporeDumpPair));

  g_return_val_if_fail (npu != NULL && bench != NULL, pairs);

  for (guint i = 0; i < bench->len; i++)
    {
      const SlMindsporeDumpName *name = g_ptr_array_index (bench, i);
      GPtrArray *list = g_hash_table_lookup (by_key, name->key);

      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (by_key, name->key, list);
        }
      g_ptr_array_add (list, (gpointer) name);
    }
  {
    GHashTableIter iter;
    gpointer list;

    g_hash_table_iter_init (&iter, by_key);
    while (g_hash_table_iter_next (&iter, NULL, &list))
      g_ptr_array_sort (list, compare_by_time);
  }

  /* The NPU files of a key also pair in time order: the k-th earliest
   * with the k-th earliest. */
  {
    /* Not g_ptr_array_copy (): it would take the free function too. */
    g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new (npu->len);
    g_autoptr(GHashTable) partner = g_hash_table_new (NULL, NULL);

    for (guint i = 0; i < npu->len; i++)
      g_ptr_array_add (sorted, g_ptr_array_index (npu, i));
    g_ptr_array_sort (sorted, compare_by_time);
    for (guint i = 0; i < sorted->len; i++)
      {
        const SlMindsporeDumpName *name = g_ptr_array_index (sorted, i);
        GPtrArray *list = g_hash_table_lookup (by_key, name->key);
        guint k = GPOINTER_TO_UINT (g_hash_table_lookup (next, name->key));

        if (list != NULL && k < list->len)
          {
            g_hash_table_insert (partner, (gpointer) name, g_ptr_array_index (list, k));
            g_hash_table_add (used, g_ptr_array_index (list, k));
            g_hash_table_insert (next, name->key, GUINT_TO_POINTER (k + 1));
          }
      }
    for (guint i = 0; i < npu->len; i++)
      {
        SlMindsporeDumpPair pair = { g_ptr_array_index (npu, i), NULL };

        pair.bench = g_hash_table_lookup (partner, pair.npu);
        g_array_append_val (pairs, pair);
      }
  }
  for (guint i = 0; i < bench->len; i++)
    if (!g_hash_table_contains (used, g_ptr_array_index (bench, i)))
      {
        SlMindsporeDumpPair pair = { NULL, g_ptr_array_index (bench, i) };

        g_array_append_val (pairs, pair);
      }
  return pairs;
}
