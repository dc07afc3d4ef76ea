/* sl-graph-links.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-graph-links.h"

struct _SlGraphLinks
{
  GObject     parent_instance;

  SlDocument *document;           /* unowned: it owns the links */
};

G_DEFINE_FINAL_TYPE (SlGraphLinks, sl_graph_links, G_TYPE_OBJECT)

static const SlFindingKind profile_kinds[] = {
  SL_FINDING_MINDSPORE_PROFILER, SL_FINDING_ASCEND_PROFILER, SL_FINDING_MSPROF, SL_FINDING_PROFILER_DB,
  SL_FINDING_N_KINDS
};
static const SlFindingKind timeline_kinds[] = {
  SL_FINDING_MINDSPORE_PROFILER, SL_FINDING_ASCEND_PROFILER, SL_FINDING_MSPROF, SL_FINDING_PROFILER_DB,
  SL_FINDING_TRACE, SL_FINDING_N_KINDS
};

SlFinding *
sl_graph_links_find (SlGraphLinks      *self,
                     SlGraphLinkTarget  target)
{
  SlWorkspace *workspace;
  const char *path;

  g_return_val_if_fail (SL_IS_GRAPH_LINKS (self), NULL);

  workspace = sl_document_get_workspace (self->document);
  path = sl_document_get_path (self->document);
  if (workspace == NULL || path == NULL)
    return NULL;
  return sl_workspace_find_nearest_finding (workspace, path,
                                            target == SL_GRAPH_LINK_TIMELINE ? timeline_kinds : profile_kinds);
}

void
sl_graph_links_show_op (SlGraphLinks      *self,
                        SlGraphLinkTarget  target,
                        const char        *name)
{
  GtkWidget *widget;
  SlFinding *finding;

  g_return_if_fail (SL_IS_GRAPH_LINKS (self));
  g_return_if_fail (name != NULL);

  widget = GTK_WIDGET (self->document);
  finding = sl_graph_links_find (self, target);
  if (finding == NULL)
    {
      gtk_widget_activate_action (widget, "win.toast", "s",
                                  _("No profile of this job is open: open the folder holding its profiler output"));
      return;
    }
  if (target == SL_GRAPH_LINK_TIMELINE)
    {
      /* Exactly this op: the timeline names it by the last part of its name */
      const char *names[] = { name, NULL };
      GVariantDict request;

      g_variant_dict_init (&request, NULL);
      g_variant_dict_insert (&request, "names", "^as", names);
      gtk_widget_activate_action (widget, "win.open-document", "(ssv)", "timeline",
                                  sl_finding_get_path (finding), g_variant_dict_end (&request));
    }
  else
    gtk_widget_activate_action (widget, "win.open-document", "(ssv)", "profile",
                                sl_finding_get_path (finding), g_variant_new ("(ss)", "op", name));
}

char *
sl_graph_links_dup_op_name (SlGraph *graph,
                            guint    item)
{
  if (graph == NULL || item >= sl_graph_get_n_items (graph) || sl_graph_item_get_kind (graph, item) != SL_GRAPH_ITEM_OP)
    return NULL;
  return sl_graph_element_dup_name (graph, sl_graph_item_get_element (graph, item));
}

gboolean
sl_graph_links_locate (GPtrArray  *graphs,
                       const char *name,
                       guint      *graph_index,
                       guint      *item)
{
  g_return_val_if_fail (name != NULL, FALSE);

  /* The graph holding the op: profiles name ops by full name. */
  for (guint i = 0; graphs != NULL && i < graphs->len; i++)
    {
      SlGraph *graph = g_ptr_array_index (graphs, i);
      guint element = sl_graph_lookup_op (graph, name);
      guint found = element != SL_GRAPH_NONE ? sl_graph_element_get_item (graph, element) : sl_graph_find_item (graph, name);

      if (found == SL_GRAPH_NONE)
        continue;
      *graph_index = i;
      *item = found;
      return TRUE;
    }
  return FALSE;
}

static void
sl_graph_links_class_init (SlGraphLinksClass *klass)
{
}

static void
sl_graph_links_init (SlGraphLinks *self)
{
}

SlGraphLinks *
sl_graph_links_new (SlDocument *document)
{
  SlGraphLinks *self;

  g_return_val_if_fail (SL_IS_DOCUMENT (document), NULL);

  self = g_object_new (SL_TYPE_GRAPH_LINKS, NULL);
  self->document = document;
  return self;
}
