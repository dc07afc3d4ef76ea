/* sl-dataset-graph.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-dataset-graph.h"

struct _SlDatasetGraph
{
  GObject     parent_instance;
  char       *path;
  GPtrArray  *nodes;      /* SlDatasetNode */
  GListStore *problems;
};

G_DEFINE_FINAL_TYPE (SlDatasetGraph, sl_dataset_graph, G_TYPE_OBJECT)

SlDatasetParameter *
sl_dataset_parameter_new (const char         *key,
                          SlDatasetValueType  type,
                          const char         *text)
{
  SlDatasetParameter *parameter = g_new0 (SlDatasetParameter, 1);

  parameter->key = g_strdup (key != NULL ? key : "");
  /* MindSpore writes "None" for a parameter it leaves unset. */
  if (type == SL_DATASET_VALUE_STRING && g_strcmp0 (text, "None") == 0)
    type = SL_DATASET_VALUE_NULL;
  parameter->type = type;
  parameter->text = type == SL_DATASET_VALUE_NULL ? NULL : g_strdup (text != NULL ? text : "");
  return parameter;
}

void
sl_dataset_parameter_free (SlDatasetParameter *parameter)
{
  if (parameter == NULL)
    return;
  g_free (parameter->key);
  g_free (parameter->text);
  g_strfreev (parameter->list);
  g_free (parameter);
}

static void
parameter_free (gpointer data)
{
  sl_dataset_parameter_free (data);
}

static void
operation_free (gpointer data)
{
  SlDatasetOperation *operation = data;

  g_free (operation->name);
  g_ptr_array_unref (operation->parameters);
  g_free (operation);
}

static void
node_free (gpointer data)
{
  SlDatasetNode *node = data;

  g_free (node->op_type);
  g_free (node->module);
  g_ptr_array_unref (node->parameters);
  g_ptr_array_unref (node->operations);
  g_array_unref (node->children);
  g_free (node);
}

static void
sl_dataset_graph_finalize (GObject *object)
{
  SlDatasetGraph *self = SL_DATASET_GRAPH (object);

  g_free (self->path);
  g_ptr_array_unref (self->nodes);
  g_object_unref (self->problems);

  G_OBJECT_CLASS (sl_dataset_graph_parent_class)->finalize (object);
}

static void
sl_dataset_graph_class_init (SlDatasetGraphClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_dataset_graph_finalize;
}

static void
sl_dataset_graph_init (SlDatasetGraph *self)
{
  self->nodes = g_ptr_array_new_with_free_func (node_free);
  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
}

SlDatasetGraph *
sl_dataset_graph_new (const char *path)
{
  SlDatasetGraph *self = g_object_new (SL_TYPE_DATASET_GRAPH, NULL);

  self->path = g_strdup (path);
  return self;
}

const char *
sl_dataset_graph_get_path (SlDatasetGraph *self)
{
  g_return_val_if_fail (SL_IS_DATASET_GRAPH (self), NULL);
  return self->path;
}

guint
sl_dataset_graph_get_n_nodes (SlDatasetGraph *self)
{
  g_return_val_if_fail (SL_IS_DATASET_GRAPH (self), 0);
  return self->nodes->len;
}

const SlDatasetNode *
sl_dataset_graph_get_node (SlDatasetGraph *self,
                           guint           index)
{
  g_return_val_if_fail (SL_IS_DATASET_GRAPH (self), NULL);
  g_return_val_if_fail (index < self->nodes->len, NULL);
  return g_ptr_array_index (self->nodes, index);
}

const char *
sl_dataset_node_get_label (const SlDatasetNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);

  if (node->op_type != NULL && node->op_type[0] != '\0')
    return node->op_type;
  return node->kind == SL_DATASET_NODE_SAMPLER ? "Sampler" : "Dataset";
}

const SlDatasetParameter *
sl_dataset_node_lookup_parameter (const SlDatasetNode *node,
                                  const char          *key)
{
  g_return_val_if_fail (node != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < node->parameters->len; i++)
    {
      const SlDatasetParameter *parameter = g_ptr_array_index (node->parameters, i);

      if (g_str_equal (parameter->key, key))
        return parameter;
    }
  return NULL;
}

GListModel *
sl_dataset_graph_get_problems (SlDatasetGraph *self)
{
  g_return_val_if_fail (SL_IS_DATASET_GRAPH (self), NULL);
  return G_LIST_MODEL (self->problems);
}

const char *
sl_dataset_value_type_to_string (SlDatasetValueType type)
{
  switch (type)
    {
    case SL_DATASET_VALUE_NULL:        return "null";
    case SL_DATASET_VALUE_STRING:      return "string";
    case SL_DATASET_VALUE_STRING_LIST: return "string-list";
    case SL_DATASET_VALUE_BOOLEAN:     return "boolean";
    case SL_DATASET_VALUE_INTEGER:     return "integer";
    case SL_DATASET_VALUE_DOUBLE:      return "double";
    case SL_DATASET_VALUE_NUMBERS:     return "numbers";
    default:                           return "unknown";
    }
}

/* ------------------------------------------------------------------ */

char *
sl_dataset_graph_dup_node_path (SlDatasetGraph *self,
                                guint           index)
{
  g_autoptr(GPtrArray) parts = NULL;
  GString *path;

  g_return_val_if_fail (SL_IS_DATASET_GRAPH (self), NULL);
  g_return_val_if_fail (index < self->nodes->len, NULL);

  /* Iterative: a hostile tree may be as deep as it has nodes. */
  parts = g_ptr_array_new_with_free_func (g_free);
  for (guint i = index; i != SL_DATASET_NO_NODE;)
    {
      const SlDatasetNode *node = g_ptr_array_index (self->nodes, i);
      guint position = 0;

      if (node->parent != SL_DATASET_NO_NODE)
        {
          const SlDatasetNode *parent = g_ptr_array_index (self->nodes, node->parent);

          for (guint c = 0; c < parent->children->len; c++)
            if (g_array_index (parent->children, guint, c) == i)
              position = c;
        }
      g_ptr_array_add (parts, position > 0 ? g_strdup_printf ("%s#%u", sl_dataset_node_get_label (node), position)
                                           : g_strdup (sl_dataset_node_get_label (node)));
      i = node->parent;
    }

  path = g_string_new (NULL);
  for (guint i = parts->len; i > 0; i--)
    {
      if (path->len > 0)
        g_string_append_c (path, '/');
      g_string_append (path, g_ptr_array_index (parts, i - 1));
    }
  return g_string_free (path, FALSE);
}

/* The node of @other at the place of node @index of @self: the same
 * label and child position at every step from the root, which is what
 * equal paths (sl_dataset_graph_dup_node_path()) mean. Walked down the
 * chain instead of comparing every path of @other: O(depth), where paths
 * made the comparison of two deep graphs cubic in their size. */
static guint
lookup_same_place (SlDatasetGraph *self,
                   guint           index,
                   SlDatasetGraph *other)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint));
  guint match;

  if (other->nodes->len == 0)
    return SL_DATASET_NO_NODE;
  for (guint i = index; i != SL_DATASET_NO_NODE;)
    {
      g_array_append_val (chain, i);
      i = ((const SlDatasetNode *) g_ptr_array_index (self->nodes, i))->parent;
    }

  match = 0;
  for (guint step = chain->len; step > 0; step--)
    {
      guint mine = g_array_index (chain, guint, step - 1);
      const SlDatasetNode *node = g_ptr_array_index (self->nodes, mine);
      const SlDatasetNode *theirs;

      if (step < chain->len)
        {
          const SlDatasetNode *parent = g_ptr_array_index (self->nodes, node->parent);
          const SlDatasetNode *their_parent = g_ptr_array_index (other->nodes, match);
          guint position = 0;

          for (guint c = 0; c < parent->children->len; c++)
            if (g_array_index (parent->children, guint, c) == mine)
              position = c;
          if (position >= their_parent->children->len)
            return SL_DATASET_NO_NODE;
          match = g_array_index (their_parent->children, guint, position);
        }
      theirs = g_ptr_array_index (other->nodes, match);
      if (!g_str_equal (sl_dataset_node_get_label (node), sl_dataset_node_get_label (theirs)))
        return SL_DATASET_NO_NODE;
    }
  return match;
}

static gboolean
parameters_equal (const SlDatasetParameter *a,
                  const SlDatasetParameter *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return a->type == b->type && g_strcmp0 (a->text, b->text) == 0;
}

static gboolean
operations_equal (const SlDatasetNode *a,
                  const SlDatasetNode *b)
{
  if (a->operations->len != b->operations->len)
    return FALSE;
  for (guint i = 0; i < a->operations->len; i++)
    {
      const SlDatasetOperation *x = g_ptr_array_index (a->operations, i);
      const SlDatasetOperation *y = g_ptr_array_index (b->operations, i);

      if (g_strcmp0 (x->name, y->name) != 0 || x->parameters->len != y->parameters->len)
        return FALSE;
      for (guint p = 0; p < x->parameters->len; p++)
        if (!parameters_equal (g_ptr_array_index (x->parameters, p), g_ptr_array_index (y->parameters, p)) ||
            g_strcmp0 (((SlDatasetParameter *)g_ptr_array_index (x->parameters, p))->key,
                       ((SlDatasetParameter *)g_ptr_array_index (y->parameters, p))->key) != 0)
          return FALSE;
    }
  return TRUE;
}

static void
add_key (GPtrArray  *keys,
         const char *key)
{
  for (guint i = 0; i < keys->len; i++)
    if (g_str_equal (g_ptr_array_index (keys, i), key))
      return;
  g_ptr_array_add (keys, g_strdup (key));
}

GPtrArray *
sl_dataset_graph_dup_differences (SlDatasetGraph  *self,
                                  guint            index,
                                  SlDatasetGraph **others,
                                  guint            n_others)
{
  const SlDatasetNode *node;
  GPtrArray *keys;

  g_return_val_if_fail (SL_IS_DATASET_GRAPH (self), NULL);
  g_return_val_if_fail (index < self->nodes->len, NULL);
  g_return_val_if_fail (others != NULL || n_others == 0, NULL);

  keys = g_ptr_array_new_with_free_func (g_free);
  node = g_ptr_array_index (self->nodes, index);

  for (guint o = 0; o < n_others; o++)
    {
      const SlDatasetNode *other;
      guint match;

      if (others[o] == self)
        continue;
      if ((match = lookup_same_place (self, index, others[o])) == SL_DATASET_NO_NODE)
        {
          for (guint p = 0; p < node->parameters->len; p++)
            add_key (keys, ((SlDatasetParameter *)g_ptr_array_index (node->parameters, p))->key);
          if (node->operations->len > 0)
            add_key (keys, "operations");
          continue;
        }
      other = g_ptr_array_index (others[o]->nodes, match);
      for (guint p = 0; p < node->parameters->len; p++)
        {
          const SlDatasetParameter *mine = g_ptr_array_index (node->parameters, p);

          if (!parameters_equal (mine, sl_dataset_node_lookup_parameter (other, mine->key)))
            add_key (keys, mine->key);
        }
      for (guint p = 0; p < other->parameters->len; p++)
        {
          const SlDatasetParameter *theirs = g_ptr_array_index (other->parameters, p);

          if (sl_dataset_node_lookup_parameter (node, theirs->key) == NULL)
            add_key (keys, theirs->key);
        }
      if (!operations_equal (node, other))
        add_key (keys, "operations");
    }

  return keys;
}

/* ------------------------------------------------------------------ */

guint
sl_dataset_graph_add_node (SlDatasetGraph    *self,
                           SlDatasetNodeKind  kind,
                           guint              parent)
{
  SlDatasetNode *node;

  g_return_val_if_fail (SL_IS_DATASET_GRAPH (self), SL_DATASET_NO_NODE);
  g_return_val_if_fail (parent == SL_DATASET_NO_NODE || parent < self->nodes->len, SL_DATASET_NO_NODE);

  node = g_new0 (SlDatasetNode, 1);
  node->kind = kind;
  node->parameters = g_ptr_array_new_with_free_func (parameter_free);
  node->operations = g_ptr_array_new_with_free_func (operation_free);
  node->children = g_array_new (FALSE, FALSE, sizeof (guint));
  node->parent = parent;
  g_ptr_array_add (self->nodes, node);

  if (parent != SL_DATASET_NO_NODE)
    {
      SlDatasetNode *up = g_ptr_array_index (self->nodes, parent);
      guint index = self->nodes->len - 1;

      node->depth = up->depth + 1;
      g_array_append_val (up->children, index);
    }
  return self->nodes->len - 1;
}

void
sl_dataset_graph_add_parameter (SlDatasetGraph     *self,
                                guint               node,
                                SlDatasetParameter *parameter)
{
  g_return_if_fail (SL_IS_DATASET_GRAPH (self));
  g_return_if_fail (node < self->nodes->len);
  g_return_if_fail (parameter != NULL);

  g_ptr_array_add (((SlDatasetNode *)g_ptr_array_index (self->nodes, node))->parameters, parameter);
}

SlDatasetOperation *
sl_dataset_graph_add_operation (SlDatasetGraph *self,
                                guint           node)
{
  SlDatasetOperation *operation;

  g_return_val_if_fail (SL_IS_DATASET_GRAPH (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  operation = g_new0 (SlDatasetOperation, 1);
  operation->parameters = g_ptr_array_new_with_free_func (parameter_free);
  g_ptr_array_add (((SlDatasetNode *)g_ptr_array_index (self->nodes, node))->operations, operation);
  return operation;
}

void
sl_dataset_graph_add_problem (SlDatasetGraph *self,
                              SlProblem      *problem)
{
  g_return_if_fail (SL_IS_DATASET_GRAPH (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_list_store_append (self->problems, problem);
}

static int
compare_parameters (gconstpointer a,
                    gconstpointer b)
{
  const SlDatasetParameter *x = *(SlDatasetParameter * const *)a;
  const SlDatasetParameter *y = *(SlDatasetParameter * const *)b;

  return strcmp (x->key, y->key);
}

/* The last value of a key wins, as in a protobuf map. The set holds the
 * keys of the parameters kept: g_hash_table_add() would replace a stored
 * key with the repeat's, which is then freed. Repeats are dropped in one
 * pass, not one removal each, as a hostile map may repeat one key for
 * most of its entries. */
static void
sort_unique (GPtrArray *parameters)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint kept = 0;

  for (guint i = parameters->len; i > 0; i--)
    {
      SlDatasetParameter *parameter = g_ptr_array_index (parameters, i - 1);

      if (g_hash_table_contains (seen, parameter->key))
        {
          sl_dataset_parameter_free (parameter);
          parameters->pdata[i - 1] = NULL;
        }
      else
        g_hash_table_add (seen, parameter->key);
    }
  for (guint i = 0; i < parameters->len; i++)
    if (parameters->pdata[i] != NULL)
      parameters->pdata[kept++] = parameters->pdata[i];
  for (guint i = kept; i < parameters->len; i++)
    parameters->pdata[i] = NULL;
  g_ptr_array_set_size (parameters, kept);
  g_ptr_array_sort (parameters, compare_parameters);
}

static char *
dup_string_parameter (const SlDatasetNode *node,
                      const char          *key)
{
  const SlDatasetParameter *parameter = sl_dataset_node_lookup_parameter (node, key);

  return parameter != NULL && parameter->type == SL_DATASET_VALUE_STRING ? g_strdup (parameter->text) : NULL;
}

void
sl_dataset_graph_finish (SlDatasetGraph *self)
{
  g_return_if_fail (SL_IS_DATASET_GRAPH (self));

  for (guint i = 0; i < self->nodes->len; i++)
    {
      SlDatasetNode *node = g_ptr_array_index (self->nodes, i);
      gboolean sampler = node->kind == SL_DATASET_NODE_SAMPLER;

      sort_unique (node->parameters);
      for (guint o = 0; o < node->operations->len; o++)
        {
          SlDatasetOperation *operation = g_ptr_array_index (node->operations, o);
          const SlDatasetParameter *name;

          sort_unique (operation->parameters);
          for (guint p = 0; p < operation->parameters->len; p++)
            {
              name = g_ptr_array_index (operation->parameters, p);
              if (g_str_equal (name->key, "tensor_op_name") && name->type == SL_DATASET_VALUE_STRING)
                {
                  g_free (operation->name);
                  operation->name = g_strdup (name->text);
                }
            }
        }
      g_free (node->op_type);
      g_free (node->module);
      node->op_type = dup_string_parameter (node, sampler ? "sampler_name" : "op_type");
      node->module = dup_string_parameter (node, sampler ? "sampler_module" : "op_module");
    }
}
