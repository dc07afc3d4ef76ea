/* sl-workspace-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-folder.h"
#include "sl-target-record.h"
#include "sl-workspace-panel.h"
#include "sl-workspace-row.h"
#include "sl-workspace-section.h"

struct _SlWorkspacePanel
{
  PanelWidget          parent_instance;

  GListStore          *sections;
  GtkTreeListModel    *tree;
  GtkSingleSelection  *selection;

  GtkListView         *list_view;
  GListModel          *targets;
  GtkWidget           *target_menu;
};

G_DEFINE_FINAL_TYPE (SlWorkspacePanel, sl_workspace_panel, PANEL_TYPE_WIDGET)

enum {
  ITEM_ACTIVATED,
  SELECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GListModel *
create_child_model (gpointer item,
                    gpointer user_data)
{
  if (SL_IS_WORKSPACE_SECTION (item))
    return g_object_ref (sl_workspace_section_get_children (item));
  if (SL_IS_FOLDER (item))
    return g_object_ref (sl_folder_get_findings (item));
  return NULL;
}

static SlTargetRecord *
find_target (SlWorkspacePanel *self,
             gint64            id)
{
  for (guint i = 0; self->targets != NULL && i < g_list_model_get_n_items (self->targets); i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (self->targets, i);

      if (sl_target_record_get_id (target) == id)
        return g_steal_pointer (&target);
    }
  return NULL;
}

static void
show_target_menu (SlWorkspacePanel *self,
                  SlTargetRecord   *target,
                  GtkWidget        *widget,
                  double            x,
                  double            y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) edit = g_menu_item_new (_("_Edit…"), NULL);
  g_autoptr(GMenuItem) remove = g_menu_item_new (_("_Remove"), NULL);
  gint64 id = sl_target_record_get_id (target);
  graphene_point_t point;

  g_menu_item_set_action_and_target (edit, "workspace.edit-target", "x", id);
  g_menu_item_set_action_and_target (remove, "workspace.remove-target", "x", id);
  g_menu_append_item (menu, edit);
  g_menu_append_item (menu, remove);

  if (!gtk_widget_compute_point (widget, GTK_WIDGET (self->list_view), &GRAPHENE_POINT_INIT (x, y), &point))
    point = GRAPHENE_POINT_INIT (0, 0);
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->target_menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->target_menu),
                               &(GdkRectangle) { (int)point.x, (int)point.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->target_menu));
}

/* The row template's right click: on a server, Edit… and Remove. */
static void
row_menu_pressed_cb (GtkGestureClick *click,
                     int              n_press,
                     double           x,
                     double           y)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (click));
  SlWorkspacePanel *self = SL_WORKSPACE_PANEL (gtk_widget_get_ancestor (widget, SL_TYPE_WORKSPACE_PANEL));
  GObject *item = SL_IS_WORKSPACE_ROW (widget) ? sl_workspace_row_get_item (SL_WORKSPACE_ROW (widget)) : NULL;

  if (self != NULL && SL_IS_TARGET_RECORD (item) &&
      sl_target_record_get_kind (SL_TARGET_RECORD (item)) == SL_TARGET_KIND_SSH)
    {
      show_target_menu (self, SL_TARGET_RECORD (item), widget, x, y);
      gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
    }
}

/* The window edits and removes targets: the panel only shows them. */
static void
edit_target_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlWorkspacePanel *self = SL_WORKSPACE_PANEL (widget);
  g_autoptr(SlTargetRecord) target = find_target (self, g_variant_get_int64 (param));

  if (target == NULL || sl_target_record_get_kind (target) != SL_TARGET_KIND_SSH)
    return;
  gtk_widget_activate_action (widget, "win.edit-target", "x", sl_target_record_get_id (target));
}

static void
remove_target_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlWorkspacePanel *self = SL_WORKSPACE_PANEL (widget);
  g_autoptr(SlTargetRecord) target = find_target (self, g_variant_get_int64 (param));

  if (target == NULL || sl_target_record_get_kind (target) != SL_TARGET_KIND_SSH)
    return;
  gtk_widget_activate_action (widget, "win.remove-target", "x", sl_target_record_get_id (target));
}

/* Delete on a selected server asks to remove it. */
static gboolean
remove_selected_cb (GtkWidget *widget,
                    GVariant  *args,
                    gpointer   user_data)
{
  SlWorkspacePanel *self = SL_WORKSPACE_PANEL (widget);
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr(GObject) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  if (!SL_IS_TARGET_RECORD (item) || sl_target_record_get_kind (SL_TARGET_RECORD (item)) != SL_TARGET_KIND_SSH)
    return FALSE;

  gtk_widget_activate_action (widget, "workspace.remove-target", "x", sl_target_record_get_id (SL_TARGET_RECORD (item)));
  return TRUE;
}

static GObject *
item_at (SlWorkspacePanel *self,
         guint             position)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), position);

  return row ? gtk_tree_list_row_get_item (row) : NULL;
}

static void
row_activated_cb (SlWorkspacePanel *self,
                  guint             position)
{
  g_autoptr(GObject) item = item_at (self, position);

  if (item != NULL)
    g_signal_emit (self, signals[ITEM_ACTIVATED], 0, item);

  /* Enter or a double click on a server opens its settings. */
  if (SL_IS_TARGET_RECORD (item) && sl_target_record_get_kind (SL_TARGET_RECORD (item)) == SL_TARGET_KIND_SSH)
    gtk_widget_activate_action (GTK_WIDGET (self), "workspace.edit-target", "x",
                                sl_target_record_get_id (SL_TARGET_RECORD (item)));
}

static void
selection_changed_cb (SlWorkspacePanel *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr(GObject) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  g_signal_emit (self, signals[SELECTION_CHANGED], 0, item);
}

static void
sl_workspace_panel_dispose (GObject *object)
{
  SlWorkspacePanel *self = (SlWorkspacePanel *)object;

  g_clear_pointer (&self->target_menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_WORKSPACE_PANEL);
  g_clear_object (&self->targets);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  g_clear_object (&self->sections);

  G_OBJECT_CLASS (sl_workspace_panel_parent_class)->dispose (object);
}

static void
sl_workspace_panel_class_init (SlWorkspacePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_workspace_panel_dispose;

  /**
   * SlWorkspacePanel::item-activated:
   * @item: a #SlFolder, #SlFinding, #SlTargetRecord or recent #GFile
   */
  signals[ITEM_ACTIVATED] =
    g_signal_new ("item-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_OBJECT);
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_OBJECT);

  g_type_ensure (SL_TYPE_WORKSPACE_ROW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-workspace-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SlWorkspacePanel, list_view);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_install_action (widget_class, "workspace.edit-target", "x", edit_target_action);
  gtk_widget_class_install_action (widget_class, "workspace.remove-target", "x", remove_target_action);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Delete, 0, remove_selected_cb, NULL);
}

static void
sl_workspace_panel_init (SlWorkspacePanel *self)
{
  g_autoptr(GtkBuilderScope) scope = gtk_builder_cscope_new ();
  g_autoptr(GtkListItemFactory) factory = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_builder_cscope_add_callback_symbol (GTK_BUILDER_CSCOPE (scope), "row_menu_pressed_cb",
                                          G_CALLBACK (row_menu_pressed_cb));
  factory = gtk_builder_list_item_factory_new_from_resource (scope, RESOURCE_PREFIX "/ui/sl-workspace-panel-row.ui");
  gtk_list_view_set_factory (self->list_view, factory);

  self->sections = g_list_store_new (SL_TYPE_WORKSPACE_SECTION);
  self->target_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->target_menu), FALSE);
  gtk_widget_set_halign (self->target_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->target_menu, GTK_WIDGET (self->list_view));
}

GtkWidget *
sl_workspace_panel_new (GListModel *targets,
                        GListModel *folders,
                        GListModel *recent,
                        GListModel *jobs)
{
  SlWorkspacePanel *self;
  g_autoptr(SlWorkspaceSection) targets_section = NULL;
  g_autoptr(SlWorkspaceSection) folders_section = NULL;
  g_autoptr(SlWorkspaceSection) recent_section = NULL;
  g_autoptr(SlWorkspaceSection) jobs_section = NULL;

  g_return_val_if_fail (G_IS_LIST_MODEL (targets), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (folders), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (recent), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (jobs), NULL);

  self = g_object_new (SL_TYPE_WORKSPACE_PANEL, NULL);
  self->targets = g_object_ref (targets);

  targets_section = sl_workspace_section_new ("targets", _("Targets"), "sl-server-symbolic", targets);
  folders_section = sl_workspace_section_new ("folders", _("Opened Folders"), "folder-symbolic", folders);
  recent_section = sl_workspace_section_new ("recent", _("Recent Folders"), "document-open-recent-symbolic", recent);
  g_list_store_append (self->sections, folders_section);
  g_list_store_append (self->sections, targets_section);
  g_list_store_append (self->sections, recent_section);
  jobs_section = sl_workspace_section_new ("jobs", _("Jobs"), "utilities-terminal-symbolic", jobs);
  g_list_store_append (self->sections, jobs_section);

  /* Sections open, folders open, findings are leaves. */
  self->tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->sections)),
                                        FALSE, TRUE, create_child_model, NULL, NULL);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_object (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  return GTK_WIDGET (self);
}

/**
 * sl_workspace_panel_select_item:
 *
 * Selects the row showing @item, if it is visible in the tree.
 *
 * Returns: %TRUE when a row was selected
 */
gboolean
sl_workspace_panel_select_item (SlWorkspacePanel *self,
                                GObject          *item)
{
  guint n;

  g_return_val_if_fail (SL_IS_WORKSPACE_PANEL (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) row_item = item_at (self, i);

      if (row_item == item)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return TRUE;
        }
    }

  return FALSE;
}

guint
sl_workspace_panel_get_n_rows (SlWorkspacePanel *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_PANEL (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->tree));
}

/**
 * sl_workspace_panel_get_row_item:
 *
 * Returns: (transfer full) (nullable): the item shown in @row
 */
GObject *
sl_workspace_panel_get_row_item (SlWorkspacePanel *self,
                                 guint             row)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_PANEL (self), NULL);

  return item_at (self, row);
}
