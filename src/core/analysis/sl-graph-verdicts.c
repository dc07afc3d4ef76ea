/* sl-graph-verdicts.c: the verdicts of a tensor comparison on a graph's ops
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-graph-verdicts.h"
#include "sl-mindspore-dump-name.h"
#include "sl-tensor-compare-row.h"

struct _SlGraphVerdicts
{
  GObject     parent_instance;

  SlGraph    *graph;
  gint8      *verdicts;       /* per element */
  GHashTable *by_normal_name; /* normalised full name -> element + 1; 0 when ambiguous */
  GHashTable *by_type;        /* op type -> GArray of ops in execution order */
  GHashTable *by_normal_type; /* normalised op type -> GArray */
  guint       n_matched;
  guint       n_unmatched;
};

G_DEFINE_FINAL_TYPE (SlGraphVerdicts, sl_graph_verdicts, G_TYPE_OBJECT)

static void
sl_graph_verdicts_finalize (GObject *object)
{
  SlGraphVerdicts *self = SL_GRAPH_VERDICTS (object);

  g_clear_object (&self->graph);
  g_clear_pointer (&self->verdicts, g_free);
  g_clear_pointer (&self->by_normal_name, g_hash_table_unref);
  g_clear_pointer (&self->by_type, g_hash_table_unref);
  g_clear_pointer (&self->by_normal_type, g_hash_table_unref);

  G_OBJECT_CLASS (sl_graph_verdicts_parent_class)->finalize (object);
}

static void
sl_graph_verdicts_class_init (SlGraphVerdictsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_graph_verdicts_finalize;
}

static void
sl_graph_verdicts_init (SlGraphVerdicts *self)
{
  self->by_normal_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_type = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
  self->by_normal_type = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
}

/* Lower case without "_" and "-": "Conv2D" and "conv2d", "MatMul" and
 * "matmul", "Default--net" and "default/net" (after "--" became "/")
 * meet. */
static char *
normalise (const char *name)
{
  GString *out = g_string_sized_new (strlen (name));

  for (const char *p = name; *p != '\0'; p++)
    if (*p != '_' && *p != '-')
      g_string_append_c (out, g_ascii_tolower (*p));
  return g_string_free (out, FALSE);
}

static void
append_op (GHashTable *table,
           char       *key,   /* taken */
           guint       element)
{
  GArray *ops = g_hash_table_lookup (table, key);

  if (ops == NULL)
    {
      ops = g_array_new (FALSE, FALSE, sizeof (guint));
      g_hash_table_insert (table, g_strdup (key), ops);
    }
  g_array_append_val (ops, element);
  g_free (key);
}

static void
index_ops (SlGraphVerdicts *self)
{
  guint n_ops = sl_graph_get_n_ops (self->graph);

  for (guint e = 0; e < n_ops; e++)
    {
      g_autofree char *name = sl_graph_element_dup_name (self->graph, e);
      const char *op_type = sl_graph_element_get_op_type (self->graph, e);
      char *normal = normalise (name);

      /* Two ops with one normalised name: neither is matched that way. */
      if (g_hash_table_contains (self->by_normal_name, normal))
        g_hash_table_replace (self->by_normal_name, normal, GUINT_TO_POINTER (0));
      else
        g_hash_table_insert (self->by_normal_name, normal, GUINT_TO_POINTER (e + 1));
      if (op_type != NULL && *op_type != '\0')
        {
          append_op (self->by_type, g_strdup (op_type), e);
          append_op (self->by_normal_type, normalise (op_type), e);
        }
    }
}

SlGraphVerdicts *
sl_graph_verdicts_new (SlGraph *graph)
{
  SlGraphVerdicts *self;

  g_return_val_if_fail (SL_IS_GRAPH (graph), NULL);

  self = g_object_new (SL_TYPE_GRAPH_VERDICTS, NULL);
  self->graph = g_object_ref (graph);
  self->verdicts = g_new (gint8, MAX (sl_graph_get_n_elements (graph), 1));
  memset (self->verdicts, SL_GRAPH_VERDICT_NONE, MAX (sl_graph_get_n_elements (graph), 1));
  index_ops (self);
  return self;
}

static guint
lookup_full_name (SlGraphVerdicts *self,
                  const char      *full_name)
{
  guint element = sl_graph_lookup_op (self->graph, full_name);
  g_autofree char *normal = NULL;

  if (element != SL_GRAPH_NONE)
    return element;
  normal = normalise (full_name);
  element = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_normal_name, normal));
  return element > 0 ? element - 1 : SL_GRAPH_NONE;
}

static guint
lookup_call (SlGraphVerdicts *self,
             const char      *api,
             guint64          call)
{
  GArray *ops = g_hash_table_lookup (self->by_type, api);
  g_autofree char *normal = NULL;

  if (ops == NULL)
    {
      normal = normalise (api);
      ops = g_hash_table_lookup (self->by_normal_type, normal);
    }
  if (ops == NULL || call >= ops->len)
    return SL_GRAPH_NONE;
  return g_array_index (ops, guint, call);
}

/* {api_type}.{api}.{call}.forward.output.{n}[.{m}]; the api may hold dots. */
static guint
match_msprobe (SlGraphVerdicts *self,
               const char      *name)
{
  g_auto(GStrv) parts = g_strsplit (name, ".", -1);
  guint n = g_strv_length (parts);
  guint64 call;

  for (guint k = 3; k + 1 < n; k++)
    {
      g_autofree char *api = NULL;

      if (g_strcmp0 (parts[k], "forward") != 0 || g_strcmp0 (parts[k + 1], "output") != 0)
        continue;
      if (!g_ascii_string_to_unsigned (parts[k - 1], 10, 0, G_MAXUINT32, &call, NULL))
        return SL_GRAPH_NONE;
      /* parts[1 .. k-2] is the api. */
      {
        char *saved = parts[k - 1];

        parts[k - 1] = NULL;
        api = g_strjoinv (".", parts + 1);
        parts[k - 1] = saved;
      }
      return lookup_call (self, api, call);
    }
  return SL_GRAPH_NONE;
}

static guint
match_name (SlGraphVerdicts *self,
            const char      *name)
{
  g_autoptr(SlMindsporeDumpName) dump = NULL;
  const char *base = strrchr (name, '/');

  dump = sl_mindspore_dump_name_parse (base != NULL ? base + 1 : name);
  if (dump != NULL)
    return dump->output ? lookup_full_name (self, dump->scope) : SL_GRAPH_NONE;
  return match_msprobe (self, name);
}

/**
 * sl_graph_verdicts_add:
 * @name: a row's name: a MindSpore dump file name or an msprobe key
 *
 * Returns: TRUE when the tensor is an output of an op of the graph
 */
gboolean
sl_graph_verdicts_add (SlGraphVerdicts *self,
                       const char      *name,
                       SlTensorVerdict  verdict)
{
  guint element;

  g_return_val_if_fail (SL_IS_GRAPH_VERDICTS (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  element = match_name (self, name);
  if (element == SL_GRAPH_NONE)
    {
      self->n_unmatched++;
      return FALSE;
    }
  self->n_matched++;
  /* The verdicts are ordered pass < warning < error. */
  self->verdicts[element] = MAX (self->verdicts[element], (gint8)verdict);
  return TRUE;
}

void
sl_graph_verdicts_add_rows (SlGraphVerdicts *self,
                            GListModel      *rows)
{
  guint n;

  g_return_if_fail (SL_IS_GRAPH_VERDICTS (self));
  g_return_if_fail (G_IS_LIST_MODEL (rows));

  n = g_list_model_get_n_items (rows);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlTensorCompareRow) row = g_list_model_get_item (rows, i);

      if (SL_IS_TENSOR_COMPARE_ROW (row))
        sl_graph_verdicts_add (self, sl_tensor_compare_row_get_name (row), sl_tensor_compare_row_get_verdict (row));
    }
}

int
sl_graph_verdicts_get (SlGraphVerdicts *self,
                       guint            element)
{
  g_return_val_if_fail (SL_IS_GRAPH_VERDICTS (self), SL_GRAPH_VERDICT_NONE);

  if (element >= sl_graph_get_n_elements (self->graph))
    return SL_GRAPH_VERDICT_NONE;
  return self->verdicts[element];
}

guint
sl_graph_verdicts_get_n_matched (SlGraphVerdicts *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VERDICTS (self), 0);
  return self->n_matched;
}

guint
sl_graph_verdicts_get_n_unmatched (SlGraphVerdicts *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VERDICTS (self), 0);
  return self->n_unmatched;
}

SlGraph *
sl_graph_verdicts_get_graph (SlGraphVerdicts *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_VERDICTS (self), NULL);
  return self->graph;
}
