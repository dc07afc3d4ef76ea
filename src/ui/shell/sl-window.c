/* sl-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window hosts: the dock and its panels, the documents the registry
 * makes, and the Console following the session's jobs. The work (jobs,
 * workflows, following Slurm) is the session's, which every window of
 * the application shows. It knows no view by name; links between
 * documents are actions (sl-window-actions.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <libpanel.h>

#include "sl-document-registry.h"
#include "sl-welcome-page.h"
#include "sl-window-private.h"

G_DEFINE_FINAL_TYPE (SlWindow, sl_window, ADW_TYPE_APPLICATION_WINDOW)

void
sl_window_show_toast (SlWindow   *self,
                      const char *message)
{
  g_return_if_fail (SL_IS_WINDOW (self));

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

void
sl_window_add_problem (SlWindow  *self,
                       SlProblem *problem)
{
  g_return_if_fail (SL_IS_WINDOW (self));

  sl_session_add_problem (self->session, problem);
}

static void
frame_front_changed_cb (PanelFrame *frame,
                        GParamSpec *pspec,
                        SlWindow   *self)
{
  /* Frames change their front page while the window takes them down. */
  if (self->disposing || self->details_panel == NULL)
    return;
  _sl_window_show_front_details (self, panel_frame_get_visible_child (frame));
}

static PanelFrame *
sl_window_create_frame_cb (SlWindow  *self,
                           PanelGrid *grid)
{
  PanelFrame *frame = PANEL_FRAME (panel_frame_new ());

  panel_frame_set_header (frame, PANEL_FRAME_HEADER (panel_frame_tab_bar_new ()));
  panel_frame_set_placeholder (frame, sl_welcome_page_new ());
  g_signal_connect_object (frame, "notify::visible-child", G_CALLBACK (frame_front_changed_cb), self, 0);

  return frame;
}

typedef struct {
  const char  *id;
  PanelWidget *found;
  guint        count;
} FindDocument;

static void
find_document_in_frame (PanelFrame *frame,
                        gpointer    user_data)
{
  FindDocument *find = user_data;
  guint n = panel_frame_get_n_pages (frame);

  for (guint i = 0; i < n; i++)
    {
      PanelWidget *page = panel_frame_get_page (frame, i);

      find->count++;
      if (find->id != NULL && find->found == NULL && g_strcmp0 (panel_widget_get_id (page), find->id) == 0)
        find->found = page;
    }
}

/**
 * sl_window_find_document:
 *
 * Returns: (transfer none) (nullable): the open document with @id
 */
PanelWidget *
sl_window_find_document (SlWindow   *self,
                         const char *id)
{
  FindDocument find = { id, NULL, 0 };

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  panel_grid_foreach_frame (self->grid, find_document_in_frame, &find);
  return find.found;
}

guint
sl_window_get_n_documents (SlWindow *self)
{
  FindDocument find = { NULL, NULL, 0 };

  g_return_val_if_fail (SL_IS_WINDOW (self), 0);

  panel_grid_foreach_frame (self->grid, find_document_in_frame, &find);
  return find.count;
}

/**
 * sl_window_find_panel:
 *
 * Returns: (transfer none) (nullable): the dock panel with @id
 */
PanelWidget *
sl_window_find_panel (SlWindow   *self,
                      const char *id)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  return sl_dock_layout_find_panel (self->layout, id);
}

static void
workspace_item_activated_cb (SlWindow *self,
                             GObject  *item)
{
  if (SL_IS_JOB_RECORD (item))
    sl_window_show_job_log (self, SL_JOB_RECORD (item));
  else
    sl_window_open_item (self, item);
}

static void
selection_changed_cb (SlWindow *self,
                      GObject  *item)
{
  if (item != NULL && !G_IS_FILE (item))
    _sl_window_details_show_item (self, item);
}

static void
problem_activated_cb (SlWindow  *self,
                      SlProblem *problem)
{
  _sl_window_details_show_item (self, G_OBJECT (problem));
  panel_dock_set_reveal_area (self->dock, PANEL_AREA_END, TRUE);
  panel_widget_raise (PANEL_WIDGET (self->details_panel));
}

/**
 * sl_window_describe_layout:
 *
 * Returns: (transfer full): one "id:area:frame" token per dock panel,
 *   space-separated, for tests and the window report
 */
char *
sl_window_describe_layout (SlWindow *self)
{
  static const char *ids[] = { "workspace", "problems", "console", "details" };
  GString *str = g_string_new (NULL);

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      PanelWidget *panel = sl_dock_layout_find_panel (self->layout, ids[i]);
      PanelArea area;
      guint frame;

      if (panel == NULL || !sl_dock_layout_get_placement (self->layout, panel, &area, &frame))
        continue;
      g_string_append_printf (str, "%s%s:%s:%u", str->len ? " " : "", ids[i],
                              sl_dock_layout_area_to_id (area), frame);
    }

  return g_string_free (str, FALSE);
}

void
sl_window_save_state (SlWindow *self)
{
  int width, height;

  g_return_if_fail (SL_IS_WINDOW (self));

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_set_value (self->settings, "layout", sl_dock_layout_save (self->layout));
}

static gboolean
sl_window_close_request (GtkWindow *window)
{
  SlWindow *self = SL_WINDOW (window);

  if (_sl_window_ask_before_closing (self))
    return TRUE;
  sl_window_save_state (self);

  return GTK_WINDOW_CLASS (sl_window_parent_class)->close_request (window);
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         SlWindow      *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  files = g_value_get_boxed (value);
  for (const GSList *l = files; l != NULL; l = l->next)
    {
      g_autofree char *path = g_file_get_path (l->data);

      if (path != NULL)
        sl_window_open_path (self, path);
    }

  return files != NULL;
}

static GMenuModel *
create_panel_menu (const char *panel_id)
{
  static const struct {
    const char *area;
    const char *label;
  } targets[] = {
    { "start", N_("Move to the _Left") },
    { "end", N_("Move to the _Right") },
    { "bottom", N_("Move to the _Bottom") },
    { "center", N_("Move to the _Documents") },
  };
  GMenu *menu = g_menu_new ();

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(targets[i].label), NULL);

      g_menu_item_set_action_and_target (item, "win.move-panel", "(ss)", panel_id, targets[i].area);
      g_menu_append_item (menu, item);
    }

  return G_MENU_MODEL (menu);
}

static void
add_panel (SlWindow    *self,
           PanelWidget *panel,
           PanelArea    area,
           guint        frame)
{
  g_autoptr(GMenuModel) menu = create_panel_menu (panel_widget_get_id (panel));

  panel_widget_set_menu_model (panel, menu);
  sl_dock_layout_add_panel (self->layout, panel, area, frame);
}

/* The bottom panels (Problems, Console) are this high while Problems is
 * empty, and grow to BOTTOM_HEIGHT when problems arrive, as long as the
 * user did not set their height. */
#define BOTTOM_EMPTY_HEIGHT 120
#define BOTTOM_HEIGHT 220

/* The bottom area's height follows the problems shown, in proportion to
 * a screen smaller than the window. */
static void
follow_problems (SlWindow *self,
                 int       scale,
                 int       of)
{
  sl_dock_layout_follow_contents (self->layout, PANEL_AREA_BOTTOM, sl_problems_panel_get_model (self->problems_panel),
                                  BOTTOM_EMPTY_HEIGHT * scale / of, BOTTOM_HEIGHT * scale / of);
}

/* Panels need the application's models, and "application" is set only
 * after construction, so this runs from sl_window_new(). */
/* The size saved last time, or the default, no larger than the screen:
 * a laptop's 1024 × 640 shows the whole window, not its top left. Called
 * after the dock's layout is restored. */
static void
set_default_size_within_monitor (SlWindow *self,
                                 int       width,
                                 int       height)
{
  GListModel *monitors = gdk_display_get_monitors (gtk_widget_get_display (GTK_WIDGET (self)));
  g_autoptr(GdkMonitor) monitor = g_list_model_get_n_items (monitors) > 0 ? g_list_model_get_item (monitors, 0) : NULL;

  if (monitor != NULL)
    {
      GdkRectangle geometry;

      gdk_monitor_get_geometry (monitor, &geometry);
      /* On a smaller screen the panels beside and below the documents
       * get narrower in proportion, so the documents keep their share. */
      if (geometry.width > 0 && geometry.width < width)
        {
          panel_dock_set_start_width (self->dock, 300 * geometry.width / width);
          panel_dock_set_end_width (self->dock, 320 * geometry.width / width);
          width = geometry.width;
        }
      if (geometry.height > 0 && geometry.height < height)
        {
          if (sl_dock_layout_get_user_sized (self->layout, PANEL_AREA_BOTTOM))
            panel_dock_set_bottom_height (self->dock, BOTTOM_HEIGHT * geometry.height / height);
          else
            follow_problems (self, geometry.height, height);
          height = geometry.height;
        }
    }
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
}

/* What the session asks to show, and what it says, goes to the window in
 * front: the first of the application's Sightline windows. */
static gboolean
is_front_window (SlWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  if (application == NULL)
    return FALSE;
  for (GList *l = gtk_application_get_windows (application); l != NULL; l = l->next)
    if (SL_IS_WINDOW (l->data))
      return l->data == (gpointer) self;
  return FALSE;
}

static void
session_open_requested_cb (SlWindow          *self,
                           const char        *kind,
                           SlDocumentAddress *address,
                           GVariant          *target,
                           SlSession         *session)
{
  if (is_front_window (self))
    sl_window_show_request (self, kind, address, target);
}

static void
session_notice_cb (SlWindow   *self,
                   const char *text,
                   SlSession  *session)
{
  if (is_front_window (self))
    sl_window_show_toast (self, text);
}

/* A notice with a button opening a document. */
static void
session_offer_cb (SlWindow    *self,
                  const char  *text,
                  const char  *label,
                  const char  *kind,
                  const char **paths,
                  GVariant    *request,
                  SlSession   *session)
{
  AdwToast *toast;

  if (!is_front_window (self))
    return;
  toast = adw_toast_new (text);
  adw_toast_set_button_label (toast, label);
  adw_toast_set_action_name (toast, "win.open-paths");
  adw_toast_set_action_target_value (toast, g_variant_new ("(s^asv)", kind, paths, request));
  adw_toast_set_timeout (toast, 10);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Windows still open when the application ends keep their layout. */
static void
application_shutdown_cb (SlWindow       *self,
                         GtkApplication *application)
{
  sl_window_save_state (self);
}

static void
create_panels (SlWindow  *self,
               SlSession *session)
{
  g_autoptr(GVariant) layout = NULL;

  self->session = g_object_ref (session);
  self->workspace = g_object_ref (sl_session_get_workspace (self->session));
  self->workspace_panel = SL_WORKSPACE_PANEL (sl_workspace_panel_new (sl_workspace_get_targets (self->workspace),
                                                                      sl_workspace_get_folders (self->workspace),
                                                                      sl_workspace_get_recent_folders (self->workspace),
                                                                      sl_workspace_get_jobs (self->workspace)));
  self->problems_panel = SL_PROBLEMS_PANEL (sl_problems_panel_new ());
  sl_problems_panel_set_folders (self->problems_panel, sl_workspace_get_folders (self->workspace));
  /* Every window shows the session's problems, and Clear clears them in all. */
  sl_problems_panel_set_problems (self->problems_panel, sl_session_get_problems (self->session));
  g_signal_connect_object (self->problems_panel, "clear-requested", G_CALLBACK (sl_session_clear_problems),
                           self->session, G_CONNECT_SWAPPED);
  self->console_panel = SL_CONSOLE_PANEL (sl_console_panel_new ());
  self->console_jobs = g_hash_table_new (NULL, NULL);
  self->details_panel = SL_DETAILS_PANEL (sl_details_panel_new ());

  g_signal_connect_object (self->workspace_panel, "item-activated", G_CALLBACK (workspace_item_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workspace_panel, "selection-changed", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->problems_panel, "selection-changed", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->problems_panel, "problem-activated", G_CALLBACK (problem_activated_cb),
                           self, G_CONNECT_SWAPPED);
  _sl_window_connect_jobs (self);
  _sl_window_connect_workspace (self);
  _sl_window_insert_session_actions (self);
  g_signal_connect_object (self->session, "open-requested", G_CALLBACK (session_open_requested_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notice", G_CALLBACK (session_notice_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "offer", G_CALLBACK (session_offer_cb), self, G_CONNECT_SWAPPED);

  self->layout = sl_dock_layout_new (self->dock, self->grid);
  sl_dock_layout_set_area (self->layout, PANEL_AREA_START, self->start_paned);
  sl_dock_layout_set_area (self->layout, PANEL_AREA_END, self->end_paned);
  sl_dock_layout_set_area (self->layout, PANEL_AREA_BOTTOM, self->bottom_paned);

  add_panel (self, PANEL_WIDGET (self->workspace_panel), PANEL_AREA_START, 0);
  add_panel (self, PANEL_WIDGET (self->problems_panel), PANEL_AREA_BOTTOM, 0);
  add_panel (self, PANEL_WIDGET (self->console_panel), PANEL_AREA_BOTTOM, 0);
  add_panel (self, PANEL_WIDGET (self->details_panel), PANEL_AREA_END, 0);
  panel_widget_raise (PANEL_WIDGET (self->problems_panel));

  panel_dock_set_start_width (self->dock, 300);
  panel_dock_set_end_width (self->dock, 320);
  panel_dock_set_bottom_height (self->dock, BOTTOM_HEIGHT);

  layout = g_settings_get_value (self->settings, "layout");
  sl_dock_layout_restore (self->layout, layout);
  follow_problems (self, 1, 1);

  set_default_size_within_monitor (self,
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

}

static void
sl_window_dispose (GObject *object)
{
  SlWindow *self = (SlWindow *)object;

  self->disposing = TRUE;
  g_clear_weak_pointer (&self->details_owner);
  /* A window kept alive a moment longer (a log being read) shows no more. */
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_WINDOW);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (sl_window_parent_class)->dispose (object);
}

static void
sl_window_finalize (GObject *object)
{
  SlWindow *self = (SlWindow *)object;

  g_clear_object (&self->workspace);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->opening_files, g_hash_table_unref);
  g_clear_pointer (&self->opening_folders, g_hash_table_unref);
  g_clear_pointer (&self->scanning_paths, g_hash_table_unref);
  g_clear_pointer (&self->console_jobs, g_hash_table_unref);

  G_OBJECT_CLASS (sl_window_parent_class)->finalize (object);
}

static void
sl_window_class_init (SlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = sl_window_dispose;
  object_class->finalize = sl_window_finalize;
  window_class->close_request = sl_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SlWindow, dock);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, grid);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, start_paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, end_paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, bottom_paned);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, scan_box);
  gtk_widget_class_bind_template_child (widget_class, SlWindow, scan_progress);
  gtk_widget_class_bind_template_callback (widget_class, sl_window_create_frame_cb);

  _sl_window_class_add_actions (widget_class);
  sl_document_registry_ensure_builtin ();

  g_type_ensure (PANEL_TYPE_DOCK);
  g_type_ensure (PANEL_TYPE_GRID);
  g_type_ensure (PANEL_TYPE_PANED);
  g_type_ensure (PANEL_TYPE_STATUSBAR);
  g_type_ensure (PANEL_TYPE_TOGGLE_BUTTON);
}

static void
sl_window_init (SlWindow *self)
{
  GtkDropTarget *drop;

  self->settings = g_settings_new (APP_ID);
  self->opening_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->opening_folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->scanning_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-scan", FALSE);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

#ifdef DEVELOPMENT_BUILD
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
}

/**
 * sl_window_get_session:
 *
 * Returns: (transfer none): the session the window shows, the
 *   application's
 */
SlSession *
sl_window_get_session (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  return self->session;
}

/**
 * sl_window_new:
 * @application: the application the window belongs to
 * @session: the session the window shows, the application's
 */
SlWindow *
sl_window_new (GtkApplication *application,
               SlSession      *session)
{
  SlWindow *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (SL_IS_SESSION (session), NULL);

  self = g_object_new (SL_TYPE_WINDOW, "application", application, NULL);
  create_panels (self, session);
  g_signal_connect_object (application, "shutdown", G_CALLBACK (application_shutdown_cb), self,
                           G_CONNECT_SWAPPED);

  return self;
}
