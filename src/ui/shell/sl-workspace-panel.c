/* sl-workspace-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-target-record.h"
#include "sl-workspace-panel.h"
#include "sl-slurm-state.h"
#include "sl-job-record.h"
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

typedef struct {
  GtkTreeExpander *expander;
  GtkImage        *icon;
  GtkLabel        *title;
  GtkLabel        *subtitle;
  GtkSpinner      *spinner;
  GtkListItem     *list_item;
  gulong           notify_id;
  GObject         *watched;
} RowWidgets;

static void
row_widgets_free (gpointer data)
{
  RowWidgets *row = data;

  if (row->watched != NULL)
    g_clear_signal_handler (&row->notify_id, row->watched);
  g_free (row);
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

static void
row_menu_pressed_cb (GtkGestureClick *click,
                     int              n_press,
                     double           x,
                     double           y,
                     RowWidgets      *row)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (click));
  SlWorkspacePanel *self = SL_WORKSPACE_PANEL (gtk_widget_get_ancestor (widget, SL_TYPE_WORKSPACE_PANEL));
  GtkTreeListRow *tree_row = gtk_list_item_get_item (row->list_item);
  GObject *item = tree_row ? gtk_tree_list_row_get_item (tree_row) : NULL;

  if (self != NULL && SL_IS_TARGET_RECORD (item) &&
      sl_target_record_get_kind (SL_TARGET_RECORD (item)) == SL_TARGET_KIND_SSH)
    {
      show_target_menu (self, SL_TARGET_RECORD (item), widget, x, y);
      gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
    }
  g_clear_object (&item);
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

static const char *
job_state_icon (SlJobState state)
{
  switch (state)
    {
    case SL_JOB_STATE_RUNNING:
    case SL_JOB_STATE_QUEUED:
      return "media-playback-start-symbolic";
    case SL_JOB_STATE_SUCCEEDED:
      return "object-select-symbolic";
    case SL_JOB_STATE_FAILED:
      return "dialog-error-symbolic";
    case SL_JOB_STATE_CANCELLED:
      return "process-stop-symbolic";
    case SL_JOB_STATE_LOST:
    default:
      return "dialog-question-symbolic";
    }
}

static const char *
job_state_label (SlJobState state)
{
  switch (state)
    {
    case SL_JOB_STATE_QUEUED: return _("queued");
    case SL_JOB_STATE_RUNNING: return _("running");
    case SL_JOB_STATE_SUCCEEDED: return _("succeeded");
    case SL_JOB_STATE_FAILED: return _("failed");
    case SL_JOB_STATE_CANCELLED: return _("stopped");
    case SL_JOB_STATE_LOST: default: return _("lost (no exit code)");
    }
}

static char *
format_epoch (gint64 seconds)
{
  g_autoptr(GDateTime) time = seconds > 0 ? g_date_time_new_from_unix_local (seconds) : NULL;

  return time ? g_date_time_format (time, "%Y-%m-%d %H:%M:%S") : g_strdup ("—");
}

/* Everything the history keeps of a job, for its tooltip. */
static char *
describe_job (SlJobRecord *job)
{
  g_autofree char *started = format_epoch (sl_job_record_get_started_at (job));
  g_autofree char *finished = format_epoch (sl_job_record_get_finished_at (job));
  GString *str = g_string_new (sl_job_record_get_command (job));

  g_string_append_printf (str, "\n%s: %s", _("Target"),
                          sl_job_record_get_target_name (job) ? sl_job_record_get_target_name (job) : _("this computer"));
  g_string_append_printf (str, "\n%s: %s", _("State"), job_state_label (sl_job_record_get_state (job)));
  if (sl_job_record_get_outcome_reason (job) != NULL)
    g_string_append_printf (str, " (%s)", sl_job_record_get_outcome_reason (job));
  if (sl_job_record_is_slurm (job))
    {
      g_autofree char *words = sl_slurm_describe_state (sl_job_record_get_backend_state (job),
                                                        sl_job_record_get_backend_reason (job));

      g_string_append_printf (str, "\n%s: %s", _("Slurm job"),
                              sl_job_record_get_backend_job_id (job) ? sl_job_record_get_backend_job_id (job) : "—");
      g_string_append_printf (str, "\n%s: %s", _("Slurm state"), words);
    }
  if (sl_job_record_get_state (job) == SL_JOB_STATE_SUCCEEDED || sl_job_record_get_state (job) == SL_JOB_STATE_FAILED)
    g_string_append_printf (str, "\n%s: %d", _("Exit code"), sl_job_record_get_exit_code (job));
  g_string_append_printf (str, "\n%s: %s", _("Started"), started);
  g_string_append_printf (str, "\n%s: %s", _("Ended"), finished);
  if (sl_job_record_get_remote_folder (job) != NULL)
    g_string_append_printf (str, "\n%s: %s", _("Folder"), sl_job_record_get_remote_folder (job));
  if (sl_job_record_get_log_path (job) != NULL)
    g_string_append_printf (str, "\n%s: %s", _("Log"), sl_job_record_get_log_path (job));
  g_string_append_printf (str, "\n%s", _("Activate to show its log in the Console"));
  return g_string_free (str, FALSE);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  RowWidgets *row = g_new0 (RowWidgets, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkGesture *click;

  row->expander = GTK_TREE_EXPANDER (gtk_tree_expander_new ());
  row->icon = GTK_IMAGE (gtk_image_new ());
  row->title = GTK_LABEL (gtk_label_new (NULL));
  row->subtitle = GTK_LABEL (gtk_label_new (NULL));
  row->spinner = GTK_SPINNER (gtk_spinner_new ());

  gtk_label_set_xalign (row->title, 0);
  gtk_label_set_ellipsize (row->title, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (GTK_WIDGET (row->title), TRUE);
  gtk_label_set_xalign (row->subtitle, 1);
  gtk_widget_add_css_class (GTK_WIDGET (row->subtitle), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (row->subtitle), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (row->subtitle), "numeric");

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->icon));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->title));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->spinner));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row->subtitle));
  gtk_tree_expander_set_child (row->expander, box);

  /* Right-click on a target row offers Edit… and Remove. */
  row->list_item = list_item;
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (row_menu_pressed_cb), row);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (click));

  g_object_set_data_full (G_OBJECT (list_item), "sl-row", row, row_widgets_free);
  gtk_list_item_set_child (list_item, GTK_WIDGET (row->expander));
}

static void
update_folder_row (RowWidgets *row,
                   SlFolder   *folder)
{
  SlFolderState state = sl_folder_get_state (folder);
  g_autofree char *subtitle = NULL;

  gtk_spinner_set_spinning (row->spinner, state == SL_FOLDER_SCANNING);
  gtk_widget_set_visible (GTK_WIDGET (row->spinner), state == SL_FOLDER_SCANNING);

  if (state == SL_FOLDER_FAILED)
    {
      gtk_image_set_from_icon_name (row->icon, "dialog-error-symbolic");
      subtitle = g_strdup (_("unreadable"));
    }
  else
    {
      gtk_image_set_from_icon_name (row->icon, "folder-symbolic");
      if (state == SL_FOLDER_READY)
        subtitle = g_strdup_printf ("%u", g_list_model_get_n_items (sl_folder_get_findings (folder)));
    }

  gtk_label_set_label (row->subtitle, subtitle ? subtitle : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->expander),
                               state == SL_FOLDER_FAILED ? sl_folder_get_error_message (folder)
                                                         : sl_folder_get_path (folder));
}

static void
update_section_count (RowWidgets *row,
                      GListModel *children)
{
  g_autofree char *count = g_strdup_printf ("%u", g_list_model_get_n_items (children));

  gtk_label_set_label (row->subtitle, count);
}

static void
section_items_changed_cb (GListModel *children,
                          guint       position,
                          guint       removed,
                          guint       added,
                          RowWidgets *row)
{
  update_section_count (row, children);
}

static void
folder_state_changed_cb (SlFolder   *folder,
                         GParamSpec *pspec,
                         RowWidgets *row)
{
  update_folder_row (row, folder);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  RowWidgets *row = g_object_get_data (G_OBJECT (list_item), "sl-row");
  GtkTreeListRow *tree_row = gtk_list_item_get_item (list_item);
  GObject *item = gtk_tree_list_row_get_item (tree_row);

  gtk_tree_expander_set_list_row (row->expander, tree_row);
  gtk_widget_set_visible (GTK_WIDGET (row->spinner), FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (row->title), "heading");
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->expander), NULL);
  gtk_label_set_label (row->subtitle, "");

  if (SL_IS_WORKSPACE_SECTION (item))
    {
      SlWorkspaceSection *section = SL_WORKSPACE_SECTION (item);
      GListModel *children = sl_workspace_section_get_children (section);

      gtk_image_set_from_icon_name (row->icon, sl_workspace_section_get_icon_name (section));
      gtk_label_set_label (row->title, sl_workspace_section_get_title (section));
      gtk_widget_add_css_class (GTK_WIDGET (row->title), "heading");
      update_section_count (row, children);
      row->watched = G_OBJECT (children);
      row->notify_id = g_signal_connect (children, "items-changed", G_CALLBACK (section_items_changed_cb), row);
    }
  else if (SL_IS_FOLDER (item))
    {
      gtk_label_set_label (row->title, sl_folder_get_name (SL_FOLDER (item)));
      update_folder_row (row, SL_FOLDER (item));
      row->watched = item;
      row->notify_id = g_signal_connect (item, "notify::state", G_CALLBACK (folder_state_changed_cb), row);
    }
  else if (SL_IS_FINDING (item))
    {
      SlFinding *finding = SL_FINDING (item);
      g_autofree char *summary = sl_finding_dup_summary (finding);
      g_autofree char *tooltip = g_strdup_printf ("%s\n%s\n%s", sl_finding_kind_to_label (sl_finding_get_kind (finding)),
                                                  sl_finding_get_path (finding), summary);

      gtk_image_set_from_icon_name (row->icon, sl_finding_kind_to_icon (sl_finding_get_kind (finding)));
      {
        g_autofree char *name = sl_finding_dup_display_name (finding);

        gtk_label_set_label (row->title, name);
      }
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->expander), tooltip);
    }
  else if (SL_IS_TARGET_RECORD (item))
    {
      SlTargetRecord *target = SL_TARGET_RECORD (item);
      gboolean local = sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL;
      g_autofree char *location = NULL;

      if (!local)
        location = g_strdup_printf ("%s%s%s:%u",
                                    sl_target_record_get_user (target) ? sl_target_record_get_user (target) : "",
                                    sl_target_record_get_user (target) ? "@" : "",
                                    sl_target_record_get_host (target), sl_target_record_get_port (target));

      gtk_image_set_from_icon_name (row->icon, local ? "computer-symbolic" : "sl-server-symbolic");
      gtk_label_set_label (row->title, sl_target_record_get_name (target));
      gtk_label_set_label (row->subtitle, local ? _("local") : "SSH");
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->expander), location ? location : _("Jobs run on this computer"));
    }
  else if (SL_IS_JOB_RECORD (item))
    {
      SlJobRecord *job = SL_JOB_RECORD (item);
      g_autofree char *tooltip = describe_job (job);

      gtk_image_set_from_icon_name (row->icon, job_state_icon (sl_job_record_get_state (job)));
      gtk_label_set_label (row->title, sl_job_record_get_command (job));
      const char *target = sl_job_record_get_target_name (job) ? sl_job_record_get_target_name (job) : "";
      g_autofree char *subtitle = NULL;

      /* A batch job shows Slurm's word beside its target: PENDING, RUNNING, TIMEOUT. */
      if (sl_job_record_is_slurm (job) && sl_job_record_get_backend_state (job) != NULL)
        subtitle = g_strdup_printf ("%s · %s", sl_job_record_get_backend_state (job), target);
      gtk_label_set_label (row->subtitle, subtitle ? subtitle : target);
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->expander), tooltip);
    }
  else if (G_IS_FILE (item))
    {
      g_autofree char *name = g_file_get_basename (G_FILE (item));
      g_autofree char *path = g_file_get_path (G_FILE (item));

      gtk_image_set_from_icon_name (row->icon, "document-open-recent-symbolic");
      gtk_label_set_label (row->title, name);
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->expander), path);
    }
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  RowWidgets *row = g_object_get_data (G_OBJECT (list_item), "sl-row");

  if (row->watched != NULL)
    {
      g_clear_signal_handler (&row->notify_id, row->watched);
      row->watched = NULL;
    }
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
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), NULL);
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
