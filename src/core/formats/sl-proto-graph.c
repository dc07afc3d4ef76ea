/* sl-proto-graph.c: what the ONNX and MindIR readers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-graph.h"
#include "sl-proto-graph.h"

/* The element that defines @value, in @scope or the scopes around it;
 * SL_GRAPH_NONE when none does. */
guint
sl_proto_graph_scope_resolve (const SlProtoGraphScope *scope,
                              const char              *value)
{
  for (; scope != NULL; scope = scope->outer)
    {
      gpointer found = g_hash_table_lookup (scope->values, value);

      if (found != NULL)
        return GPOINTER_TO_UINT (found) - 1;
    }
  return SL_GRAPH_NONE;
}

void
sl_proto_graph_scope_define (SlProtoGraphScope *scope,
                             const char        *value,
                             guint              element)
{
  /* The first definition in a graph wins, as in a valid model there is one. */
  if (value[0] != '\0' && !g_hash_table_contains (scope->values, value))
    g_hash_table_insert (scope->values, g_strdup (value), GUINT_TO_POINTER (element + 1));
}

/* "a//b/" → "a/b", joined under @prefix. */
char *
sl_proto_graph_join_path (const char *prefix,
                          const char *name)
{
  g_auto(GStrv) parts = g_strsplit (name, "/", -1);
  GString *path = g_string_new (prefix);

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      {
        if (path->len > 0)
          g_string_append_c (path, '/');
        g_string_append (path, parts[i]);
      }
  return g_string_free (path, FALSE);
}

/* Every folder of every path ("a", "a/b" for "a/b/c"). */
void
sl_proto_graph_add_folders (GHashTable *folders,
                            const char *path)
{
  for (const char *slash = strrchr (path, '/'); slash != NULL && slash > path;
       slash = g_strrstr_len (path, slash - path, "/"))
    {
      char *folder = g_strndup (path, slash - path);

      if (g_hash_table_contains (folders, folder))
        {
          g_free (folder);
          return;
        }
      g_hash_table_add (folders, folder);
    }
}

/* Where the @index-th node of a graph is shown: @name (a path) under
 * @prefix, or "OpType-op<N>" as MindInsight names ops when @name places
 * it nowhere below @prefix. */
char *
sl_proto_graph_node_path (const char *prefix,
                          const char *name,
                          const char *op_type,
                          guint       index)
{
  g_autofree char *path = NULL;
  g_autofree char *own = NULL;

  if (name[0] != '\0')
    path = sl_proto_graph_join_path (prefix, name);
  if (path != NULL && path[0] != '\0' && g_strcmp0 (path, prefix) != 0)
    return g_steal_pointer (&path);

  own = g_strdup_printf ("%s-op%u", op_type[0] != '\0' ? op_type : "Node", index);
  return sl_proto_graph_join_path (prefix, own);
}

/* The scope of the node at @path: the path itself when it is also a
 * folder (of other nodes, or of its own graphs), else its parent. */
char *
sl_proto_graph_node_scope (GHashTable *folders,
                           const char *path)
{
  const char *slash = strrchr (path, '/');

  if (g_hash_table_contains (folders, path))
    return g_strdup (path);
  return slash != NULL ? g_strndup (path, slash - path) : g_strdup ("");
}

/* How the node at @path (in @scope) is shown: inside its own scope, when
 * its path is also one, as "path/(name)". */
char *
sl_proto_graph_node_display (const char *path,
                             const char *scope)
{
  const char *slash = strrchr (path, '/');

  if (scope[0] != '\0' && g_strcmp0 (scope, path) == 0)
    return g_strdup_printf ("%s/(%s)", path, slash != NULL ? slash + 1 : path);
  return g_strdup (path);
}

/* The scope a subgraph of the node at @node_path is read in:
 * "<node path>/<label>", "<label>.<index>" when the label holds @count
 * graphs, "graph" for an empty label; a '/' in the label is no folder. */
char *
sl_proto_graph_subgraph_path (const char *node_path,
                              const char *label,
                              guint       index,
                              guint       count)
{
  g_autofree char *own = count > 1 ? g_strdup_printf ("%s.%u", label, index)
                                    : g_strdup (label[0] != '\0' ? label : "graph");

  g_strdelimit (own, "/", '_');
  return g_strconcat (node_path, "/", own, NULL);
}

/* @bytes cut at @max_bytes, on a character boundary. */
SlProtoSlice
sl_proto_graph_shown (const SlProtoSlice *bytes,
                      gsize               max_bytes)
{
  SlProtoSlice shown = *bytes;

  shown.len = MIN (shown.len, max_bytes);
  while (shown.len > 0 && shown.len < bytes->len && (shown.data[shown.len] & 0xc0) == 0x80)
    shown.len--;
  return shown;
}

void
sl_proto_node_free (gpointer data)
{
  SlProtoNode *node = data;

  g_free (node->name);
  g_free (node->op_type);
  g_free (node->domain);
  g_ptr_array_unref (node->inputs);
  g_ptr_array_unref (node->outputs);
  g_array_unref (node->attrs);
  g_free (node->type);
  g_free (node->path);
  g_free (node->scope);
  g_free (node);
}

/* NodeProto { input 1, output 2, name 3, op_type 4, attribute 5,
 * doc_string 6, domain 7 }; MindIR adds node_attr 8 and primal_attr 9,
 * attributes too.
 * Returns: (nullable): the node, %NULL with @damage set or for a node cut
 *   before its op type */
SlProtoNode *
sl_proto_node_parse (const SlProtoSlice *bytes,
                     SlProtoGraphSchema  schema,
                     SlProtoDamage      *damage)
{
  gboolean mindir = schema == SL_PROTO_GRAPH_MINDIR;
  SlProtoNode *node = g_new0 (SlProtoNode, 1);
  SlProtoField f;

  node->inputs = g_ptr_array_new_with_free_func (g_free);
  node->outputs = g_ptr_array_new_with_free_func (g_free);
  node->attrs = g_array_new (FALSE, FALSE, sizeof (SlProtoSlice));
  node->at = bytes->base;
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    {
      if (f.field > (mindir ? 9u : 7u) || f.field == 6 || (mindir && f.field == 0))
        continue;
      if (!sl_proto_expect_wire (&f, 2, damage))
        break;
      /* Cut by the end of the input: only an ONNX attribute (a subgraph)
       * is worth reading as far as it goes, a name cut short is wrong. */
      if (f.bytes.cut && (mindir || f.field != 5))
        continue;
      switch (f.field)
        {
        case 1: g_ptr_array_add (node->inputs, sl_proto_dup_text (&f.bytes)); break;
        case 2: g_ptr_array_add (node->outputs, sl_proto_dup_text (&f.bytes)); break;
        case 3: g_free (node->name); node->name = sl_proto_dup_text (&f.bytes); break;
        case 4: g_free (node->op_type); node->op_type = sl_proto_dup_text (&f.bytes); break;
        case 5: case 8: case 9: g_array_append_val (node->attrs, f.bytes); break;
        case 7: g_free (node->domain); node->domain = sl_proto_dup_text (&f.bytes); break;
        default: break;
        }
    }
  /* A node cut before its op type says too little to show. */
  if (damage->reason != NULL || (bytes->cut && node->op_type == NULL))
    {
      sl_proto_node_free (node);
      return NULL;
    }
  if (node->name == NULL)
    node->name = g_strdup ("");
  if (node->op_type == NULL)
    node->op_type = g_strdup ("");
  return node;
}

void
sl_proto_value_info_free (gpointer data)
{
  SlProtoValueInfo *v = data;

  g_free (v->name);
  g_free (v);
}

/* ValueInfoProto { name 1, type 2 } (MindIR: tensor 2). With
 * @first_type, the first non-empty field 2 is the type, else the last.
 * Returns: (nullable): the value, %NULL with @damage set */
SlProtoValueInfo *
sl_proto_value_info_parse (const SlProtoSlice *bytes,
                           gboolean            first_type,
                           SlProtoDamage      *damage)
{
  SlProtoValueInfo *v = g_new0 (SlProtoValueInfo, 1);
  SlProtoField f;

  v->at = bytes->base;
  v->type = (SlProtoSlice) { (const guint8 *) "", 0, bytes->base, FALSE };
  SL_PROTO_FOR_FIELDS (bytes, pos, &f, damage)
    if (f.field == 1 || f.field == 2)
      {
        if (!sl_proto_expect_wire (&f, 2, damage))
          break;
        if (f.field == 1)
          {
            g_free (v->name);
            v->name = sl_proto_dup_text (&f.bytes);
          }
        else if (!first_type || v->type.len == 0)
          v->type = f.bytes;
      }
  if (damage->reason != NULL)
    {
      sl_proto_value_info_free (v);
      return NULL;
    }
  if (v->name == NULL)
    v->name = g_strdup ("");
  return v;
}

/**
 * sl_proto_graph_append_summary:
 * @graph: a graph message (ONNX GraphProto, GE GraphDef, …)
 * @node_field: the field number of its repeated nodes
 * @name_field: the field number of its name
 *
 * Appends "graph NAME (N nodes)", a subgraph attribute's text, with
 * @node_noun or @nodes_noun after the count. Like the other attribute
 * texts it is not translated: it is the file's.
 */
void
sl_proto_graph_append_summary (GString            *out,
                               const SlProtoSlice *graph,
                               guint               node_field,
                               guint               name_field,
                               const char         *node_noun,
                               const char         *nodes_noun)
{
  g_autofree char *name = NULL;
  guint n = 0;
  SlProtoField f;

  SL_PROTO_FOR_FIELDS (graph, pos, &f, NULL)
    {
      if (f.field == node_field)
        n++;
      else if (f.field == name_field && f.wire_type == 2)
        {
          g_free (name);
          name = sl_proto_dup_text (&f.bytes);
        }
    }
  g_string_append_printf (out, "graph %s (%u %s)", name != NULL ? name : "", n, n == 1 ? node_noun : nodes_noun);
}
