/* sl-graph-details.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-graph-details.h"

/* Neighbours listed in Details before "and N more". */
#define MAX_LINKS 40

typedef struct {
  SlGraph               *graph;
  SlGraphLayout         *layout;
  guint                  selected;
  GObject               *owner;
  SlDescriptionLinkFunc  reveal;
} Describe;

static void
add_item_link (const Describe *self,
               SlDescription  *details,
               const char     *key,
               guint           item,
               const char     *suffix)
{
  SlGraph *graph = self->graph;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;

  /* A neighbour in the selected node's scope by its label; one elsewhere
   * by its whole path, so the user knows where the link leads. */
  if (self->selected < sl_graph_get_n_items (graph) &&
      sl_graph_item_get_parent (graph, item) == sl_graph_item_get_parent (graph, self->selected))
    path = g_strdup (sl_graph_item_get_label (graph, item));
  else
    path = sl_graph_item_dup_path (graph, item);
  text = suffix != NULL ? g_strdup_printf ("%s %s", path, suffix) : g_steal_pointer (&path);
  sl_description_add_object_link (details, key, text, self->owner, self->reveal, item);
}

static char *
dup_output_text (SlGraph *graph,
                 guint    element,
                 guint    index)
{
  const gint64 *dims;
  guint n_dims;
  int dtype = sl_graph_element_get_output (graph, element, index, &dims, &n_dims);
  GString *text = g_string_new (sl_graph_dtype_to_string (dtype));

  g_string_append_c (text, '[');
  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (text, i > 0 ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, dims[i]);
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

static void
add_element_rows (const Describe *self,
                  SlDescription  *details,
                  guint           element)
{
  SlGraph *graph = self->graph;
  guint n_inputs = sl_graph_element_get_n_inputs (graph, element);
  guint n_outputs = sl_graph_element_get_n_outputs (graph, element);
  guint n_consumers = sl_graph_element_get_n_consumers (graph, element);
  guint n_attributes = sl_graph_element_get_n_attributes (graph, element);

  for (guint i = 0; i < n_inputs && i < MAX_LINKS; i++)
    {
      SlGraphEdgeKind kind;
      const char *name;
      guint from = sl_graph_element_get_input (graph, element, i, &kind, &name);
      /* Translators: Details row of an op's input; %u is its position */
      g_autofree char *key = g_strdup_printf (_("Input %u"), i);

      if (from == SL_GRAPH_NONE)
        {
          /* Translators: an input naming no node of the graph */
          g_autofree char *missing = g_strdup_printf (_("%s (no such node)"), name);
          const char *rows[] = { key, missing, NULL };

          sl_description_add_rows (details, rows);
          continue;
        }
      add_item_link (self, details, key, sl_graph_element_get_item (graph, from),
                     kind == SL_GRAPH_EDGE_CONTROL ? _("(control)") : NULL);
    }
  for (guint i = 0; i < n_outputs; i++)
    {
      g_autofree char *key = g_strdup_printf (_("Output %u"), i);
      g_autofree char *text = dup_output_text (graph, element, i);
      const char *rows[] = { key, text, NULL };

      sl_description_add_rows (details, rows);
    }
  for (guint i = 0; i < n_consumers && i < MAX_LINKS; i++)
    add_item_link (self, details, _("Used by"), sl_graph_element_get_item (graph, sl_graph_element_get_consumer (graph, element, i)),
                   NULL);
  if (n_consumers > MAX_LINKS)
    {
      g_autofree char *count = sl_count_format (n_consumers - MAX_LINKS);
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %s more", "and %s more",
                                                            n_consumers - MAX_LINKS), count);
      const char *rows[] = { _("Used by"), more, NULL };

      sl_description_add_rows (details, rows);
    }
  for (guint i = 0; i < n_attributes; i++)
    {
      const char *value = NULL;
      const char *key = sl_graph_element_get_attribute (graph, element, i, &value);
      const char *rows[] = { key, value != NULL ? value : "", NULL };

      sl_description_add_rows (details, rows);
    }
}

gboolean
sl_graph_details_describe (SlDescription         *details,
                           SlGraph               *graph,
                           SlGraphLayout         *layout,
                           guint                  selected,
                           GObject               *owner,
                           SlDescriptionLinkFunc  reveal)
{
  const Describe describe = { graph, layout, selected, owner, reveal };
  const Describe *self = &describe;
  g_autofree char *path = NULL;
  g_autofree char *below = NULL;
  g_autofree char *time = NULL;
  guint item = self->selected;
  guint element;
  SlGraphItemKind kind;

  if (graph == NULL || layout == NULL)
    return FALSE;
  /* Nothing selected: the graph itself, with what its file says about it. */
  if (item == SL_GRAPH_SCENE_NONE || item >= sl_graph_get_n_items (graph))
    item = 0;

  kind = sl_graph_item_get_kind (graph, item);
  element = sl_graph_item_get_element (graph, item);
  path = sl_graph_item_dup_path (graph, item);
  below = sl_count_format (sl_graph_layout_get_n_ops_below (layout, item));
  if (sl_graph_layout_get_item_time (layout, item) > 0)
    time = g_strdup_printf (_("%.3f ms"), sl_graph_layout_get_item_time (layout, item) / 1e6);

  if (kind == SL_GRAPH_ITEM_OP || kind == SL_GRAPH_ITEM_PARAMETER || kind == SL_GRAPH_ITEM_CONST)
    {
      g_autofree char *name = sl_graph_element_dup_name (graph, element);
      g_autofree char *scope = sl_graph_element_dup_scope (graph, element);
      const char *source = sl_graph_element_get_source_address (graph, element);
      const char *instance = sl_graph_element_get_instance_name (graph, element);
      const char *rows[] = {
        _("Op type"), sl_graph_element_get_op_type (graph, element),
        _("Full name"), name,
        _("Scope"), scope != NULL && scope[0] != '\0' ? scope : _("(top level)"),
        _("Name in the file"), sl_graph_element_get_proto_name (graph, element),
        time != NULL ? _("Measured time") : NULL, time,
        NULL
      };

      sl_description_show_rows (details, owner, "sl-graph-symbolic", sl_graph_item_get_label (graph, item),
                                  rows);
      if (instance != NULL && instance[0] != '\0')
        {
          const char *more[] = { _("Instance"), instance, NULL };

          sl_description_add_rows (details, more);
        }
      if (source != NULL && source[0] != '\0')
        {
          const char *more[] = { _("Source"), source, NULL };

          sl_description_add_rows (details, more);
        }
      add_element_rows (self, details, element);
      return TRUE;
    }

  if (kind == SL_GRAPH_ITEM_PROXY)
    {
      const char *rows[] = { _("Stands for"), sl_graph_item_get_label (graph, item), NULL };

      sl_description_show_rows (details, owner, "sl-graph-symbolic", sl_graph_item_get_label (graph, item),
                                  rows);
      if (element != SL_GRAPH_NONE)
        add_item_link (self, details, _("Source"), sl_graph_element_get_item (graph, element), NULL);
      return TRUE;
    }

  {
    g_autofree char *children = sl_count_format (sl_graph_item_get_n_children (graph, item));
    const char *rows[] = {
      _("Kind"), kind == SL_GRAPH_ITEM_GROUP ? _("Group of one op type") :
                 kind == SL_GRAPH_ITEM_SECTION ? _("Section of a large scope") : _("Scope"),
      _("Path"), path[0] != '\0' ? path : _("(top level)"),
      C_("graph scope", "Children"), children,
      _("Ops inside"), below,
      time != NULL ? _("Measured time") : NULL, time,
      NULL
    };

    sl_description_show_rows (details, owner, "folder-symbolic",
                                item == 0 ? sl_graph_get_name (graph) : sl_graph_item_get_label (graph, item), rows);
  }
  for (guint i = 0; item == 0 && i < sl_graph_get_n_metadata (graph); i++)
    {
      const char *value = NULL;
      const char *key = sl_graph_get_metadata (graph, i, &value);
      const char *more[] = { sl_graph_metadata_key_to_label (key), value, NULL };

      sl_description_add_rows (details, more);
    }
  return TRUE;
}

char *
sl_graph_details_dup_tooltip (SlGraph       *graph,
                              SlGraphLayout *layout,
                              guint32        id)
{
  g_autofree char *path = NULL;
  g_autofree char *escaped = NULL;
  GString *markup;
  guint element;

  if (graph == NULL || layout == NULL || id >= sl_graph_get_n_items (graph))
    return NULL;
  path = sl_graph_item_dup_path (graph, id);
  escaped = g_markup_escape_text (path, -1);
  markup = g_string_new (NULL);
  g_string_append_printf (markup, "<b>%s</b>", escaped);
  element = sl_graph_item_get_element (graph, id);
  switch (sl_graph_item_get_kind (graph, id))
    {
    case SL_GRAPH_ITEM_OP:
    case SL_GRAPH_ITEM_PARAMETER:
    case SL_GRAPH_ITEM_CONST:
      {
        g_autofree char *type = g_markup_escape_text (sl_graph_element_get_op_type (graph, element), -1);

        g_string_append_printf (markup, "\n%s", type);
        for (guint i = 0; i < sl_graph_element_get_n_outputs (graph, element) && i < 8; i++)
          {
            g_autofree char *output = dup_output_text (graph, element, i);
            g_autofree char *escaped_output = g_markup_escape_text (output, -1);

            g_string_append_printf (markup, "\n→ %s", escaped_output);
          }
      }
      break;
    case SL_GRAPH_ITEM_PROXY:
      g_string_append_printf (markup, "\n%s", _("Stands for a node in another scope: double-click Source in Details"));
      break;
    default:
      g_string_append_printf (markup, "\n%s",
                              sl_graph_layout_get_expanded (layout, id) ? _("Double-click to collapse")
                                                                              : _("Double-click to expand"));
      break;
    }
  if (sl_graph_layout_get_item_time (layout, id) > 0)
    {
      /* Translators: a node's measured time in its tooltip */
      g_autofree char *time = g_strdup_printf (_("Measured: %.3f ms"), sl_graph_layout_get_item_time (layout, id) / 1e6);

      g_string_append_printf (markup, "\n%s", time);
    }
  return g_string_free (markup, FALSE);
}
