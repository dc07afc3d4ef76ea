/* sl-graph-page.c
 *
 * Three kinds of work run on workers, each with its own cancellable and
 * generation counter so that a newer request overtakes an older one:
 * reading the graphs, building a scene (after an expand, a collapse or a
 * filter change; SlGraphLayout reuses every cached scope), and searching
 * (one per keystroke; the index is built by the first search). The canvas
 * keeps the clicked node where it was on screen across scenes.
 *
 * The reading is SlGraphLoad's, the searching SlGraphFinder's, the links
 * SlGraphLinks', the node menu SlGraphNodeMenu's; this file hosts them,
 * with the template, the actions and the properties.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-description.h"
#include "sl-graph-details.h"
#include "sl-graph-export.h"
#include "sl-graph-page-private.h"
#include "sl-tooltip.h"

G_DEFINE_FINAL_TYPE (SlGraphPage, sl_graph_page, SL_TYPE_DOCUMENT)

enum {
  PROP_0,
  PROP_HIDE_BOOKKEEPING,
  PROP_COLOUR_BY_TIME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

SlGraph *
_sl_graph_page_current_graph (SlGraphPage *self)
{
  if (self->graphs == NULL || self->graph_index >= self->graphs->len)
    return NULL;
  return g_ptr_array_index (self->graphs, self->graph_index);
}

void
_sl_graph_page_toast (SlGraphPage *self,
                      const char  *message)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
}

/* ------------------------------------------------------------------ */
/* Building scenes                                                    */

static void update_status (SlGraphPage *self);

static void
build_progress_cb (SlGraphPage *self,
                   double       fraction)
{
  if (self->progress_bar == NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
}

static void
build_ended_cb (SlGraphPage *self,
                gboolean     newest)
{
  panel_widget_unmark_busy (PANEL_WIDGET (self));
  if (newest && self->progress_bar != NULL)
    gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
}

static void
build_failed_cb (SlGraphPage *self,
                 const char  *message)
{
  _sl_graph_page_toast (self, message);
}

static void
built_cb (SlGraphPage  *self,
          SlGraphScene *scene,
          guint         anchor)
{
  g_set_object (&self->scene, scene);
  sl_graph_canvas_set_scene (self->canvas, scene, anchor);
  _sl_graph_page_mark_results (self);
  if (self->reveal_after_build != SL_GRAPH_SCENE_NONE)
    {
      guint32 item = self->reveal_after_build;

      self->reveal_after_build = SL_GRAPH_SCENE_NONE;
      sl_graph_canvas_set_selected_id (self->canvas, item);
      sl_graph_canvas_reveal_id (self->canvas, item);
    }
  else if (self->selected != SL_GRAPH_SCENE_NONE)
    sl_graph_canvas_set_selected_id (self->canvas, self->selected);
  update_status (self);
}

/* Lays out what changed and shows it, keeping @anchor in place. */
void
_sl_graph_page_rebuild (SlGraphPage *self,
                        guint32      anchor)
{
  if (self->layout == NULL)
    return;
  panel_widget_mark_busy (PANEL_WIDGET (self));
  sl_graph_scene_builder_build (self->builder, self->layout, anchor);
}

static void
show_graph (SlGraphPage *self,
            guint        index)
{
  SlGraph *graph;

  self->graph_index = index;
  graph = _sl_graph_page_current_graph (self);
  g_clear_object (&self->layout);
  g_clear_object (&self->scene);
  self->selected = SL_GRAPH_SCENE_NONE;
  sl_graph_finder_forget (self->finder);
  if (graph == NULL)
    return;
  self->layout = sl_graph_layout_new (graph);
  sl_graph_layout_set_hide_bookkeeping (self->layout, self->hide_bookkeeping);
  sl_graph_layout_expand_initial (self->layout);
  self->times_loaded = FALSE;
  if (self->colour_by_time)
    g_object_set (self, "colour-by-time", FALSE, NULL);
  _sl_graph_page_rebuild (self, SL_GRAPH_SCENE_NONE);
  sl_document_details_changed (SL_DOCUMENT (self));
  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] != '\0')
    sl_graph_page_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)),
                          gtk_toggle_button_get_active (self->regex_button));
}

static void
update_status (SlGraphPage *self)
{
  SlGraph *graph = _sl_graph_page_current_graph (self);
  g_autofree char *text = NULL;
  g_autofree char *ops = NULL;
  g_autofree char *params = NULL;
  g_autofree char *brief = NULL;
  g_autofree char *n_ops = NULL;
  g_autofree char *n_params = NULL;
  g_autofree char *n_drawn = NULL;
  guint n_boxes = 0;

  if (graph == NULL)
    return;
  if (self->scene != NULL)
    sl_graph_scene_get_boxes (self->scene, &n_boxes);
  n_ops = sl_count_format (sl_graph_get_n_ops (graph));
  n_params = sl_count_format (sl_graph_get_n_parameters (graph));
  n_drawn = sl_count_format (n_boxes);
  /* Translators: the graph page's status: ops in the graph, boxes drawn */
  text = g_strdup_printf (_("%s ops, %s parameters; %s boxes drawn"), n_ops, n_params, n_drawn);
  if (self->times_source != NULL && self->colour_by_time)
    {
      g_autofree char *name = g_path_get_basename (self->times_source);
      /* Translators: %s is the status, then the profile's folder name */
      g_autofree char *with = g_strdup_printf (_("%s; coloured by the time measured in %s"), text, name);

      g_free (text);
      text = g_steal_pointer (&with);
    }
  /* The toolbar shows a short form that never shortens further: the long
   * one is in its tooltip. */
  ops = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s op", "%s ops", sl_graph_get_n_ops (graph)), n_ops);
  params = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s param", "%s params", sl_graph_get_n_parameters (graph)),
                            n_params);
  /* Translators: the graph page's short status: "104 ops · 20 params" */
  brief = g_strdup_printf (_("%s · %s"), ops, params);
  gtk_label_set_label (self->status_label, brief);
  sl_widget_set_long_tooltip (GTK_WIDGET (self->status_label), text);
}

/* ------------------------------------------------------------------ */
/* Loading                                                            */

static void
loaded_cb (SlGraphPage *self,
           GPtrArray   *graphs)
{
  g_autoptr(GtkStringList) names = NULL;
  GPtrArray *read_problems = sl_graph_load_get_problems (self->load);

  panel_widget_unmark_busy (PANEL_WIDGET (self));
  self->graphs = graphs;
  sl_graph_finder_set_n_graphs (self->finder, self->graphs->len);
  /* What the readers met outside the graphs (a damaged summary record,
   * maybe the graph's), then each graph's own. */
  sl_document_clear_problems (SL_DOCUMENT (self));
  for (guint p = 0; read_problems != NULL && p < read_problems->len; p++)
    sl_document_add_problem (SL_DOCUMENT (self), g_ptr_array_index (read_problems, p));
  names = gtk_string_list_new (NULL);
  for (guint i = 0; i < self->graphs->len; i++)
    {
      SlGraph *graph = g_ptr_array_index (self->graphs, i);
      GPtrArray *problems = sl_graph_get_problems (graph);

      gtk_string_list_append (names, sl_graph_get_name (graph));
      for (guint p = 0; p < problems->len; p++)
        sl_document_add_problem (SL_DOCUMENT (self), g_ptr_array_index (problems, p));
    }
  gtk_drop_down_set_model (self->graph_dropdown, G_LIST_MODEL (names));
  gtk_widget_set_visible (GTK_WIDGET (self->graph_dropdown), self->graphs->len > 1);

  if (self->graphs->len == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_EMPTY);
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, "graph");
  show_graph (self, 0);
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
}

static void
load_failed_cb (SlGraphPage *self,
                const char  *message)
{
  panel_widget_unmark_busy (PANEL_WIDGET (self));
  adw_status_page_set_description (self->failed_page, message);
  gtk_stack_set_visible_child_name (self->stack, "failed");
  sl_document_fail (SL_DOCUMENT (self), message);
}

static void
sl_graph_page_load (SlDocument *document)
{
  SlGraphPage *self = SL_GRAPH_PAGE (document);

  if (self->path != NULL || sl_document_get_path (document) == NULL)
    return;
  self->path = g_strdup (sl_document_get_path (document));
  panel_widget_mark_busy (PANEL_WIDGET (self));
  sl_graph_load_start (self->load, self->path);
}

static void
graph_changed_cb (SlGraphPage *self)
{
  guint index = gtk_drop_down_get_selected (self->graph_dropdown);

  if (self->graphs != NULL && index != self->graph_index && index < self->graphs->len)
    show_graph (self, index);
}

/* ------------------------------------------------------------------ */
/* Expanding, selecting, revealing                                    */

void
sl_graph_page_toggle (SlGraphPage *self,
                      guint        item)
{
  g_return_if_fail (SL_IS_GRAPH_PAGE (self));

  if (self->layout == NULL || !sl_graph_layout_is_expandable (self->layout, item) || item == 0)
    return;
  sl_graph_layout_set_expanded (self->layout, item, !sl_graph_layout_get_expanded (self->layout, item));
  _sl_graph_page_rebuild (self, item);
}

void
sl_graph_page_reveal (SlGraphPage *self,
                      guint        item)
{
  SlGraph *graph;

  g_return_if_fail (SL_IS_GRAPH_PAGE (self));

  graph = _sl_graph_page_current_graph (self);
  if (graph == NULL || item >= sl_graph_get_n_items (graph))
    return;
  if (sl_graph_layout_get_hide_bookkeeping (self->layout) &&
      sl_graph_op_type_is_bookkeeping (sl_graph_item_get_op_type (graph, item)))
    g_object_set (self, "hide-bookkeeping", FALSE, NULL);
  self->selected = item;
  if (sl_graph_layout_expand_to (self->layout, item) || self->scene == NULL)
    {
      self->reveal_after_build = item;
      _sl_graph_page_rebuild (self, SL_GRAPH_SCENE_NONE);
    }
  else
    {
      sl_graph_canvas_set_selected_id (self->canvas, item);
      sl_graph_canvas_reveal_id (self->canvas, item);
    }
  sl_document_details_changed (SL_DOCUMENT (self));
}

static void
canvas_activated_cb (SlGraphPage *self,
                     guint        id)
{
  sl_graph_page_toggle (self, id);
}

static void
selected_id_changed_cb (SlGraphPage *self)
{
  guint32 id = sl_graph_canvas_get_selected_id (self->canvas);

  if (id == self->selected || (id == SL_GRAPH_SCENE_NONE && self->reveal_after_build != SL_GRAPH_SCENE_NONE))
    return;
  self->selected = id;
  sl_document_details_changed (SL_DOCUMENT (self));
}

/* ------------------------------------------------------------------ */
/* Details and tooltips                                               */

static void
item_link_cb (GObject *object,
              guint64  item)
{
  sl_graph_page_reveal (SL_GRAPH_PAGE (object), (guint) item);
}

static gboolean
sl_graph_page_show_details (SlDocument     *document,
                            SlDescription  *details)
{
  SlGraphPage *self = SL_GRAPH_PAGE (document);

  return sl_graph_details_describe (details, _sl_graph_page_current_graph (self), self->layout, self->selected,
                                    G_OBJECT (self), item_link_cb);
}

static char *
tooltip_cb (guint32  id,
            gpointer user_data)
{
  SlGraphPage *self = user_data;

  return sl_graph_details_dup_tooltip (_sl_graph_page_current_graph (self), self->layout, id);
}

/* ------------------------------------------------------------------ */
/* The node menu's actions and links to the profile                   */

static void
canvas_context_menu_cb (SlGraphPage *self,
                        guint        id,
                        double       x,
                        double       y)
{
  SlGraph *graph = _sl_graph_page_current_graph (self);

  if (graph == NULL || id == SL_GRAPH_SCENE_NONE)
    return;
  sl_graph_canvas_set_selected_id (self->canvas, id);
  sl_graph_node_menu_popup (self->menu, graph, self->layout, self->links, id, x, y);
}

/* The node the menu is open on, else the selection. */
static guint32
action_item (SlGraphPage *self)
{
  guint32 item = sl_graph_node_menu_get_item (self->menu);

  return item != SL_GRAPH_SCENE_NONE ? item : self->selected;
}

static void
toggle_node_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlGraphPage *self = SL_GRAPH_PAGE (widget);

  sl_graph_page_toggle (self, action_item (self));
}

static void
copy_name_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  SlGraphPage *self = SL_GRAPH_PAGE (widget);
  SlGraph *graph = _sl_graph_page_current_graph (self);
  guint32 item = action_item (self);
  g_autofree char *name = NULL;

  if (graph == NULL || item >= sl_graph_get_n_items (graph))
    return;
  name = sl_graph_links_dup_op_name (graph, item);
  if (name == NULL)
    name = sl_graph_item_dup_path (graph, item);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), name);
}

static void
show_in_action (SlGraphPage       *self,
                SlGraphLinkTarget  target)
{
  g_autofree char *name = sl_graph_links_dup_op_name (_sl_graph_page_current_graph (self), action_item (self));

  if (name != NULL)
    sl_graph_links_show_op (self->links, target, name);
}

static void
show_in_profile_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  show_in_action (SL_GRAPH_PAGE (widget), SL_GRAPH_LINK_PROFILE);
}

static void
show_on_timeline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  show_in_action (SL_GRAPH_PAGE (widget), SL_GRAPH_LINK_TIMELINE);
}

static void
collapse_all_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  SlGraphPage *self = SL_GRAPH_PAGE (widget);
  SlGraph *graph = _sl_graph_page_current_graph (self);

  if (graph == NULL)
    return;
  for (guint i = 1; i < sl_graph_get_n_items (graph); i++)
    sl_graph_layout_set_expanded (self->layout, i, FALSE);
  sl_graph_layout_expand_initial (self->layout);
  _sl_graph_page_rebuild (self, SL_GRAPH_SCENE_NONE);
  sl_graph_canvas_fit (self->canvas);
}

/* The canvas's own graph.fit is out of the toolbar's reach. */
static void
fit_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  sl_graph_canvas_fit (SL_GRAPH_PAGE (widget)->canvas);
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  gtk_widget_grab_focus (GTK_WIDGET (SL_GRAPH_PAGE (widget)->search_entry));
}

static void
set_colour_by_time (SlGraphPage *self,
                    gboolean     colour)
{
  if (self->colour_by_time == colour)
    return;
  self->colour_by_time = colour;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOUR_BY_TIME]);
  if (self->layout == NULL)
    return;
  if (!colour)
    {
      sl_graph_layout_set_times (self->layout, NULL, 0);
      self->times_loaded = FALSE;
      _sl_graph_page_rebuild (self, SL_GRAPH_SCENE_NONE);
    }
  else if (!self->times_loaded)
    _sl_graph_page_load_times (self);
}

static void
set_hide_bookkeeping (SlGraphPage *self,
                      gboolean     hide)
{
  if (self->hide_bookkeeping == hide)
    return;
  self->hide_bookkeeping = hide;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDE_BOOKKEEPING]);
  if (self->layout == NULL)
    return;
  sl_graph_layout_set_hide_bookkeeping (self->layout, hide);
  _sl_graph_page_rebuild (self, self->selected);
}

/* ------------------------------------------------------------------ */
/* Export                                                             */

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlGraphPage *self = SL_GRAPH_PAGE (widget);

  if (self->scene == NULL)
    return;
  sl_graph_export_ask (PANEL_WIDGET (self), self->canvas, sl_graph_get_name (_sl_graph_page_current_graph (self)), self->cancellable);
}

/* ------------------------------------------------------------------ */
/* Links from other documents                                         */

static void
sl_graph_page_handle_request (SlDocument *document,
                              GVariant   *request)
{
  SlGraphPage *self = SL_GRAPH_PAGE (document);
  const char *name = NULL;
  guint index, item;

  if (!g_variant_is_of_type (request, G_VARIANT_TYPE ("(s)")) || self->graphs == NULL)
    return;
  g_variant_get (request, "(&s)", &name);
  if (!sl_graph_links_locate (self->graphs, name, &index, &item))
    {
      /* Translators: %s is an op name */
      g_autofree char *message = g_strdup_printf (_("%s is not in this graph"), name);

      _sl_graph_page_toast (self, message);
      return;
    }
  if (index != self->graph_index)
    {
      gtk_drop_down_set_selected (self->graph_dropdown, index);
      show_graph (self, index);
    }
  sl_graph_page_reveal (self, item);
}

/* ------------------------------------------------------------------ */

static void
sl_graph_page_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SlGraphPage *self = SL_GRAPH_PAGE (object);

  switch (prop_id)
    {
    case PROP_HIDE_BOOKKEEPING:
      g_value_set_boolean (value, self->hide_bookkeeping);
      break;
    case PROP_COLOUR_BY_TIME:
      g_value_set_boolean (value, self->colour_by_time);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_graph_page_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  SlGraphPage *self = SL_GRAPH_PAGE (object);

  switch (prop_id)
    {
    case PROP_HIDE_BOOKKEEPING:
      set_hide_bookkeeping (self, g_value_get_boolean (value));
      break;
    case PROP_COLOUR_BY_TIME:
      set_colour_by_time (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tensor_verdicts_cb (SlGraphPage *self,
                    GListModel  *rows)
{
  sl_graph_page_set_node_verdicts (self, rows);
}

static void
sl_graph_page_constructed (GObject *object)
{
  SlGraphPage *self = SL_GRAPH_PAGE (object);
  SlWorkspace *workspace;

  G_OBJECT_CLASS (sl_graph_page_parent_class)->constructed (object);

  workspace = sl_document_get_workspace (SL_DOCUMENT (self));
  if (workspace != NULL)
    g_signal_connect_object (workspace, "tensor-verdicts", G_CALLBACK (tensor_verdicts_cb), self,
                             G_CONNECT_SWAPPED);
}

static void
sl_graph_page_dispose (GObject *object)
{
  SlGraphPage *self = SL_GRAPH_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  if (self->load != NULL)
    sl_graph_load_cancel (self->load);
  if (self->builder != NULL)
    sl_graph_scene_builder_cancel (self->builder);
  if (self->finder != NULL)
    sl_graph_finder_cancel (self->finder);
  if (self->menu != NULL)
    sl_graph_node_menu_destroy (self->menu);
  /* The template's child is the panel's: hand it back first. */
  panel_widget_set_child (PANEL_WIDGET (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_GRAPH_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->builder);
  g_clear_object (&self->layout);
  g_clear_object (&self->scene);
  self->graphs = NULL;
  g_clear_object (&self->load);
  g_clear_object (&self->links);
  g_clear_object (&self->menu);
  self->results = NULL;
  g_clear_object (&self->finder);
  g_clear_pointer (&self->times_source, g_free);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_graph_page_parent_class)->dispose (object);
}

static void
sl_graph_page_class_init (SlGraphPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SlDocumentClass *document_class = SL_DOCUMENT_CLASS (klass);

  object_class->constructed = sl_graph_page_constructed;
  object_class->dispose = sl_graph_page_dispose;
  object_class->get_property = sl_graph_page_get_property;
  object_class->set_property = sl_graph_page_set_property;
  document_class->load = sl_graph_page_load;
  document_class->describe = sl_graph_page_show_details;
  document_class->handle_request = sl_graph_page_handle_request;

  properties[PROP_HIDE_BOOKKEEPING] =
    g_param_spec_boolean ("hide-bookkeeping", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLOUR_BY_TIME] =
    g_param_spec_boolean ("colour-by-time", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-graph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, stack);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, graph_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, regex_button);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, canvas);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, results_revealer);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, results_label);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, results_view);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, results_selection);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, verdict_legend);
  gtk_widget_class_bind_template_child (widget_class, SlGraphPage, node_popover);
  gtk_widget_class_bind_template_callback (widget_class, graph_changed_cb);
  _sl_graph_page_class_init_search (widget_class);
  _sl_graph_page_class_init_verdicts (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, canvas_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, canvas_context_menu_cb);
  gtk_widget_class_bind_template_callback (widget_class, selected_id_changed_cb);

  gtk_widget_class_install_property_action (widget_class, "graph-page.hide-bookkeeping", "hide-bookkeeping");
  gtk_widget_class_install_property_action (widget_class, "graph-page.colour-by-time", "colour-by-time");
  gtk_widget_class_install_action (widget_class, "graph-page.toggle-node", NULL, toggle_node_action);
  gtk_widget_class_install_action (widget_class, "graph-page.copy-name", NULL, copy_name_action);
  gtk_widget_class_install_action (widget_class, "graph-page.show-in-profile", NULL, show_in_profile_action);
  gtk_widget_class_install_action (widget_class, "graph-page.show-on-timeline", NULL, show_on_timeline_action);
  gtk_widget_class_install_action (widget_class, "graph-page.collapse-all", NULL, collapse_all_action);
  gtk_widget_class_install_action (widget_class, "graph-page.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "graph-page.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "graph-page.fit", NULL, fit_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "graph-page.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, GDK_CONTROL_MASK, "graph-page.hide-bookkeeping", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "graph-page.export", NULL);

  g_type_ensure (SL_TYPE_GRAPH_CANVAS);
  g_type_ensure (SL_TYPE_GRAPH_VERDICT_LEGEND);
}

static void
sl_graph_page_init (SlGraphPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->selected = SL_GRAPH_SCENE_NONE;
  self->reveal_after_build = SL_GRAPH_SCENE_NONE;
  self->load = sl_graph_load_new ();
  self->links = sl_graph_links_new (SL_DOCUMENT (self));
  g_signal_connect_object (self->load, "loaded", G_CALLBACK (loaded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->load, "failed", G_CALLBACK (load_failed_cb), self, G_CONNECT_SWAPPED);
  self->builder = sl_graph_scene_builder_new ();
  g_signal_connect_object (self->builder, "progress", G_CALLBACK (build_progress_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->builder, "ended", G_CALLBACK (build_ended_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->builder, "failed", G_CALLBACK (build_failed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->builder, "built", G_CALLBACK (built_cb), self, G_CONNECT_SWAPPED);
  _sl_graph_page_init_search (self);
  sl_graph_canvas_set_tooltip_func (self->canvas, tooltip_cb, self, NULL);
  self->menu = sl_graph_node_menu_new (GTK_WIDGET (self), GTK_WIDGET (self->canvas), self->node_popover);
}

SlGraphCanvas *
sl_graph_page_get_canvas (SlGraphPage *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_PAGE (self), NULL);

  return self->canvas;
}

SlGraph *
sl_graph_page_get_graph (SlGraphPage *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_PAGE (self), NULL);

  return _sl_graph_page_current_graph (self);
}

SlGraphLayout *
sl_graph_page_get_layout (SlGraphPage *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_PAGE (self), NULL);

  return self->layout;
}
