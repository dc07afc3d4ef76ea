/* sl-window-actions.c: the window's actions and their shortcuts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-document-registry.h"
#include "sl-document-target.h"
#include "sl-project-dialog.h"
#include "sl-target-dialog.h"
#include "sl-window-private.h"
#include "sl-window-report.h"

static void
folder_chosen_cb (GtkNativeDialog *dialog,
                  int              response,
                  SlWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);
          g_autofree char *path = g_file_get_path (file);

          if (path != NULL)
            sl_window_open_path (self, path);
        }
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose_and_open (SlWindow             *self,
                 GtkFileChooserAction  action,
                 const char           *title)
{
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (folder_chosen_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_folder_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  choose_and_open (SL_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("Open Folder"));
}

static void
open_file_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  choose_and_open (SL_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN, _("Open File"));
}

static void
connect_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  GtkWindow *dialog = GTK_WINDOW (sl_target_dialog_new (self->workspace));

  gtk_window_set_transient_for (dialog, GTK_WINDOW (self));
  gtk_window_present (dialog);
}

static SlTargetRecord *
find_target (SlWindow *self,
             gint64    id)
{
  GListModel *targets = sl_workspace_get_targets (self->workspace);

  for (guint i = 0; i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (targets, i);

      if (sl_target_record_get_id (target) == id)
        return g_steal_pointer (&target);
    }
  return NULL;
}

/* "x": a server of the Workspace, edited in the Connect dialog. */
static void
edit_target_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  g_autoptr(SlTargetRecord) target = find_target (self, g_variant_get_int64 (param));
  GtkWindow *dialog;

  if (target == NULL || sl_target_record_get_kind (target) != SL_TARGET_KIND_SSH)
    return;
  dialog = GTK_WINDOW (sl_target_dialog_new_for_target (self->workspace, target));
  gtk_window_set_transient_for (dialog, GTK_WINDOW (self));
  gtk_window_present (dialog);
}

/* "x": a server of the Workspace, removed once confirmed. */
static void
remove_target_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  g_autoptr(SlTargetRecord) target = find_target (self, g_variant_get_int64 (param));

  if (target == NULL || sl_target_record_get_kind (target) != SL_TARGET_KIND_SSH)
    return;
  sl_target_dialog_confirm_remove (GTK_WINDOW (self), self->workspace, target);
}

static void
projects_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  GtkWindow *dialog = GTK_WINDOW (sl_project_dialog_new (self->workspace));

  gtk_window_set_transient_for (dialog, GTK_WINDOW (self));
  gtk_window_present (dialog);
}

static void
cancel_scan_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  sl_workspace_cancel_scans (SL_WINDOW (widget)->workspace);
}

void
sl_window_reset_layout (SlWindow *self)
{
  g_return_if_fail (SL_IS_WINDOW (self));

  sl_dock_layout_reset (self->layout);
  g_settings_reset (self->settings, "layout");
}

static void
reset_layout_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  sl_window_reset_layout (SL_WINDOW (widget));
}

static void
toggle_area (SlWindow  *self,
             PanelArea  area)
{
  panel_dock_set_reveal_area (self->dock, area, !panel_dock_get_reveal_area (self->dock, area));
}

static void
toggle_area_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);

  if (g_str_equal (action_name, "win.toggle-start"))
    toggle_area (self, PANEL_AREA_START);
  else if (g_str_equal (action_name, "win.toggle-end"))
    toggle_area (self, PANEL_AREA_END);
  else
    toggle_area (self, PANEL_AREA_BOTTOM);
}

static gboolean
area_from_id (const char *id,
              PanelArea  *area)
{
  static const PanelArea areas[] = { PANEL_AREA_START, PANEL_AREA_END, PANEL_AREA_BOTTOM, PANEL_AREA_CENTER };

  for (guint i = 0; i < G_N_ELEMENTS (areas); i++)
    {
      if (g_strcmp0 (sl_dock_layout_area_to_id (areas[i]), id) == 0)
        {
          *area = areas[i];
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * sl_window_move_panel:
 * @area_id: "start", "end", "bottom" or "center"
 *
 * Returns: %TRUE when the panel and the area exist
 */
gboolean
sl_window_move_panel (SlWindow   *self,
                      const char *panel_id,
                      const char *area_id)
{
  PanelWidget *panel;
  PanelArea area;

  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  panel = sl_dock_layout_find_panel (self->layout, panel_id);
  if (panel == NULL || !area_from_id (area_id, &area))
    return FALSE;

  sl_dock_layout_move_panel (self->layout, panel, area, 0);
  return TRUE;
}

static void
move_panel_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  const char *panel_id;
  const char *area_id;

  g_variant_get (param, "(&s&s)", &panel_id, &area_id);
  sl_window_move_panel (SL_WINDOW (widget), panel_id, area_id);
}

static void
show_panel_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  PanelWidget *panel = sl_dock_layout_find_panel (self->layout, g_variant_get_string (param, NULL));

  if (panel != NULL)
    sl_dock_layout_show_panel (self->layout, panel);
}

static void
remove_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  sl_window_remove_folder (SL_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
toast_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  sl_window_show_toast (SL_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
close_document_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  PanelFrame *frame = panel_grid_get_most_recent_frame (self->grid);
  PanelWidget *page = frame ? panel_frame_get_visible_child (frame) : NULL;

  if (page != NULL)
    panel_widget_close (page);
}

/* Links between documents: "(ssv)", a document kind, what it shows and
 * a request the kind understands (for a timeline, an op to find or a step
 * to zoom to). */
static void
open_document_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  const char *kind = NULL;
  const char *path = NULL;
  g_autoptr(GVariant) request = NULL;
  SlDocument *document;

  g_variant_get (param, "(&s&sv)", &kind, &path, &request);
  document = sl_window_open_document (SL_WINDOW (widget), kind, path, NULL);
  if (document != NULL)
    sl_document_request (document, g_steal_pointer (&request));
}

/* "(sasv)": open-document for a document of several paths (a
 * comparison: its sides in order, see #SlDocumentAddress). */
static void
open_paths_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  const char *kind = NULL;
  g_autoptr(GVariant) paths = NULL;
  g_autoptr(GVariant) request = NULL;
  g_autoptr(SlDocumentAddress) address = NULL;
  SlDocument *document;

  g_variant_get (param, "(&s@asv)", &kind, &paths, &request);
  if (!(address = sl_document_address_new_from_variant (paths)))
    return;
  document = sl_window_open_address (SL_WINDOW (widget), kind, address, NULL);
  if (document != NULL)
    sl_document_request (document, g_steal_pointer (&request));
}

/* "(ssv)" as open-document, for a document already open only: what is
 * selected in one document marks things in another without opening or
 * raising it. */
static void
request_document_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  const char *kind_id = NULL;
  const char *path = NULL;
  g_autoptr(GVariant) request = NULL;
  g_autofree char *id = NULL;
  const SlDocumentKind *kind;
  PanelWidget *page;

  g_variant_get (param, "(&s&sv)", &kind_id, &path, &request);
  if ((kind = sl_document_registry_lookup (kind_id)) == NULL)
    return;
  id = sl_document_registry_dup_id (kind, path);
  if ((page = sl_window_find_document (SL_WINDOW (widget), id)) != NULL && SL_IS_DOCUMENT (page))
    sl_document_request (SL_DOCUMENT (page), request);
}

/* "(ss)": a finding's kind and path, among the Workspace's findings. */
static void
open_finding_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  const char *kind = NULL;
  const char *path = NULL;

  g_variant_get (param, "(&s&s)", &kind, &path);
  sl_window_open_finding (SL_WINDOW (widget), kind, path);
}

/* "(saay)": `--document KIND PATH…`, a kind or alias and its paths,
 * already checked by the command line; a page of the document named by
 * an alias is shown. */
static void
open_target_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  const char *name = NULL;
  g_autofree const char **paths = NULL;
  g_autoptr(GVariant) path_list = NULL;
  g_autoptr(SlDocumentTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  SlDocument *document;
  gsize n_paths = 0;

  g_variant_get (param, "(&s@aay)", &name, &path_list);
  paths = g_variant_get_bytestring_array (path_list, &n_paths);
  target = sl_document_target_resolve (name, (const char * const *) paths, (guint) n_paths, &error);
  if (target == NULL)
    {
      sl_window_show_toast (SL_WINDOW (widget), error->message);
      return;
    }
  document = sl_window_open_address (SL_WINDOW (widget), target->kind->id, target->address,
                                     G_OBJECT (target->finding));
  if (document != NULL && target->page != NULL && target->kind->show_page != NULL)
    target->kind->show_page (document, target->page);
}

/* "(ayay)": where to write the window's PNG and its JSON description
 * once everything opened is scanned ("" for neither), then quit. */
static void
report_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  const char *png = NULL;
  const char *json = NULL;

  g_variant_get (param, "(^&ay^&ay)", &png, &json);
  sl_window_report_when_idle (SL_WINDOW (widget), png[0] != '\0' ? png : NULL, json[0] != '\0' ? json : NULL);
}

void
_sl_window_class_add_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-file", NULL, open_file_action);
  gtk_widget_class_install_action (widget_class, "win.connect", NULL, connect_action);
  gtk_widget_class_install_action (widget_class, "win.projects", NULL, projects_action);
  gtk_widget_class_install_action (widget_class, "win.edit-target", "x", edit_target_action);
  gtk_widget_class_install_action (widget_class, "win.remove-target", "x", remove_target_action);
  _sl_window_class_add_session_aliases (widget_class);
  _sl_window_class_add_job_actions (widget_class);
  gtk_widget_class_install_action (widget_class, "win.cancel-scan", NULL, cancel_scan_action);
  gtk_widget_class_install_action (widget_class, "win.reset-layout", NULL, reset_layout_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-start", NULL, toggle_area_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-end", NULL, toggle_area_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-bottom", NULL, toggle_area_action);
  gtk_widget_class_install_action (widget_class, "win.move-panel", "(ss)", move_panel_action);
  gtk_widget_class_install_action (widget_class, "win.close-document", NULL, close_document_action);
  gtk_widget_class_install_action (widget_class, "win.show-panel", "s", show_panel_action);
  gtk_widget_class_install_action (widget_class, "win.open-document", "(ssv)", open_document_action);
  gtk_widget_class_install_action (widget_class, "win.open-paths", "(sasv)", open_paths_action);
  gtk_widget_class_install_action (widget_class, "win.request-document", "(ssv)", request_document_action);
  gtk_widget_class_install_action (widget_class, "win.open-finding", "(ss)", open_finding_action);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);
  gtk_widget_class_install_action (widget_class, "win.remove-folder", "s", remove_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-target", "(saay)", open_target_action);
  gtk_widget_class_install_action (widget_class, "win.report", "(ayay)", report_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-folder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.open-file", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.connect", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.run", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-scan", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, GDK_SHIFT_MASK, "win.toggle-end", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_j, GDK_CONTROL_MASK, "win.toggle-bottom", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close-document", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.reset-layout", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.show-panel", "s", "workspace");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.show-panel", "s", "problems");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.show-panel", "s", "console");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_ALT_MASK, "win.show-panel", "s", "details");
}
