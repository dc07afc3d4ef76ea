/* sl-window-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "sl-document.h"
#include "sl-problems-panel.h"
#include "sl-window-private.h"
#include "sl-window-report.h"

/* Idle this long (no scan, job or document loading, the window shown)
 * before the next frame is saved, so what is drawn is final. */
#define SETTLE_MS 400
#define GIVE_UP_SECONDS 60

/* Waits for the window to be idle by observing it: the session's `busy`,
 * each document's `state` and the window's mapping say when to look
 * again; nothing polls. */
typedef struct {
  SlWindow      *window;
  char          *png_path;
  char          *json_path;
  /* Holds the handlers on the session, the window and the documents:
   * they go with it. */
  GObject       *token;
  guint          serial;      /* marks the documents watched */
  guint          settle_id;
  guint          give_up_id;
  /* Once settled: the frame clock whose next paint is saved. */
  GdkFrameClock *clock;
  gulong         after_paint_id;
} PendingReport;

/**
 * sl_window_report_save_png:
 *
 * Renders the window with its own renderer, as it is on screen: what its
 * last frame drew. Fails with %G_IO_ERROR_NOT_INITIALIZED while there is
 * no such frame: before the first one, and from the moment a widget asks
 * to be drawn again until the next one. Call it from the frame clock's
 * #GdkFrameClock::after-paint to have one.
 */
gboolean
sl_window_report_save_png (SlWindow    *window,
                           const char  *path,
                           GError     **error)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  int scale;

  g_return_val_if_fail (SL_IS_WINDOW (window), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  if (renderer == NULL || width <= 0 || height <= 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "The window is not shown yet");
      return FALSE;
    }

  paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "The window drew nothing");
      return FALSE;
    }

  /* On a scaled screen, its pixels: what the window shows there. */
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (window));
  if (scale > 1)
    {
      g_autoptr(GskTransform) transform = gsk_transform_scale (NULL, scale, scale);
      GskRenderNode *scaled = gsk_transform_node_new (node, transform);

      gsk_render_node_unref (node);
      node = scaled;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width * scale, height * scale));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not write %s", path);
      return FALSE;
    }

  return TRUE;
}

static void
add_panels (JsonBuilder *builder,
            SlWindow    *window)
{
  g_autofree char *layout = sl_window_describe_layout (window);
  g_auto(GStrv) tokens = g_strsplit (layout, " ", -1);

  json_builder_set_member_name (builder, "panels");
  json_builder_begin_array (builder);
  for (guint i = 0; tokens[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (tokens[i], ":", 3);
      PanelWidget *panel;

      if (g_strv_length (parts) != 3)
        continue;

      panel = sl_window_find_panel (window, parts[0]);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, parts[0]);
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, panel ? panel_widget_get_title (panel) : "");
      json_builder_set_member_name (builder, "area");
      json_builder_add_string_value (builder, parts[1]);
      json_builder_set_member_name (builder, "frame");
      json_builder_add_int_value (builder, g_ascii_strtoll (parts[2], NULL, 10));
      json_builder_set_member_name (builder, "mapped");
      json_builder_add_boolean_value (builder, panel && gtk_widget_get_mapped (GTK_WIDGET (panel)));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_folders (JsonBuilder *builder,
             SlWindow    *window)
{
  GListModel *folders = sl_workspace_get_folders (sl_window_get_workspace (window));
  static const char *states[] = { "scanning", "ready", "failed" };

  json_builder_set_member_name (builder, "folders");
  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (folders); i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (folders, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, sl_folder_get_path (folder));
      json_builder_set_member_name (builder, "state");
      json_builder_add_string_value (builder, states[sl_folder_get_state (folder)]);
      json_builder_set_member_name (builder, "findings");
      json_builder_add_int_value (builder, g_list_model_get_n_items (sl_folder_get_findings (folder)));
      json_builder_set_member_name (builder, "problems");
      json_builder_add_int_value (builder, g_list_model_get_n_items (sl_folder_get_problems (folder)));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_frame_document_ids (PanelFrame *frame,
                        gpointer    user_data)
{
  JsonBuilder *builder = user_data;

  for (guint i = 0; i < panel_frame_get_n_pages (frame); i++)
    {
      const char *id = panel_widget_get_id (panel_frame_get_page (frame, i));

      json_builder_add_string_value (builder, id != NULL ? id : "");
    }
}

/* Which documents are open, and in how many windows, so a test can tell
 * a request that reached this window from one that opened another. */
static void
add_documents (JsonBuilder *builder,
               SlWindow    *window)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));

  json_builder_set_member_name (builder, "document_ids");
  json_builder_begin_array (builder);
  panel_grid_foreach_frame (window->grid, add_frame_document_ids, builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "windows");
  json_builder_add_int_value (builder, app != NULL ? g_list_length (gtk_application_get_windows (app)) : 1);
}

static void
add_visible_document (PanelFrame *frame,
                      gpointer    user_data)
{
  PanelWidget **visible = user_data;
  PanelWidget *page = panel_frame_get_visible_child (frame);

  if (*visible == NULL && page != NULL && SL_IS_DOCUMENT (page))
    *visible = page;
}

static void
add_paths (JsonBuilder       *builder,
           SlDocumentAddress *address)
{
  json_builder_set_member_name (builder, "paths");
  json_builder_begin_array (builder);
  for (guint i = 0; address != NULL && i < sl_document_address_get_n_paths (address); i++)
    json_builder_add_string_value (builder, sl_document_address_get_path (address, i));
  json_builder_end_array (builder);
}

/* The document in front: its kind (the id up to ":"), id, paths (a
 * comparison's sides in order) and state. */
static void
add_document (JsonBuilder *builder,
              SlWindow    *window)
{
  PanelWidget *visible = NULL;
  g_autoptr(GEnumClass) states = g_type_class_ref (SL_TYPE_DOCUMENT_STATE);

  panel_grid_foreach_frame (window->grid, add_visible_document, &visible);
  json_builder_set_member_name (builder, "document");
  if (visible == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }

  {
    const char *id = panel_widget_get_id (visible);
    const char *colon = id != NULL ? strchr (id, ':') : NULL;
    g_autofree char *kind = colon != NULL ? g_strndup (id, colon - id) : g_strdup (id != NULL ? id : "");
    GEnumValue *state = g_enum_get_value (states, sl_document_get_state (SL_DOCUMENT (visible)));
    int min_width, min_height;

    gtk_widget_measure (GTK_WIDGET (visible), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
    gtk_widget_measure (GTK_WIDGET (visible), GTK_ORIENTATION_VERTICAL, -1, &min_height, NULL, NULL, NULL);
    json_builder_begin_object (builder);
    json_builder_set_member_name (builder, "kind");
    json_builder_add_string_value (builder, kind);
    json_builder_set_member_name (builder, "id");
    json_builder_add_string_value (builder, id != NULL ? id : "");
    add_paths (builder, sl_document_get_address (SL_DOCUMENT (visible)));
    json_builder_set_member_name (builder, "state");
    json_builder_add_string_value (builder, state != NULL ? state->value_nick : "");
    json_builder_set_member_name (builder, "width");
    json_builder_add_int_value (builder, gtk_widget_get_width (GTK_WIDGET (visible)));
    json_builder_set_member_name (builder, "height");
    json_builder_add_int_value (builder, gtk_widget_get_height (GTK_WIDGET (visible)));
    json_builder_set_member_name (builder, "min_width");
    json_builder_add_int_value (builder, min_width);
    json_builder_set_member_name (builder, "min_height");
    json_builder_add_int_value (builder, min_height);
    json_builder_end_object (builder);
  }
}

static gboolean
scrolls (GtkWidget *widget)
{
  return GTK_IS_SCROLLED_WINDOW (widget) || GTK_IS_VIEWPORT (widget);
}

/* Widgets drawn past the window's right or bottom edge, outside anything
 * that scrolls: what a too small window cuts off. */
static void
add_overflowing (JsonBuilder *builder,
                 GtkWidget   *window,
                 GtkWidget   *widget)
{
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (widget) || scrolls (widget) || GTK_IS_POPOVER (widget))
    return;
  if (widget != window && gtk_widget_compute_bounds (widget, window, &bounds) &&
      (bounds.origin.x + bounds.size.width > gtk_widget_get_width (window) + 2 ||
       bounds.origin.y + bounds.size.height > gtk_widget_get_height (window) + 2))
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, G_OBJECT_TYPE_NAME (widget));
      json_builder_set_member_name (builder, "x");
      json_builder_add_int_value (builder, (int) bounds.origin.x);
      json_builder_set_member_name (builder, "width");
      json_builder_add_int_value (builder, (int) bounds.size.width);
      json_builder_end_object (builder);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    add_overflowing (builder, window, child);
}

/* From the window down, the child asking for the most width (height) at
 * each level: where the window's minimum size comes from. */
static void
add_widest_path (JsonBuilder    *builder,
                 const char     *name,
                 GtkOrientation  orientation,
                 GtkWidget      *widget)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  while (widget != NULL)
    {
      GtkWidget *widest = NULL;
      g_autofree char *entry = NULL;
      int widest_min = -1;
      int min;

      gtk_widget_measure (widget, orientation, -1, &min, NULL, NULL, NULL);
      entry = g_strdup_printf ("%s %d", G_OBJECT_TYPE_NAME (widget), min);
      json_builder_add_string_value (builder, entry);
      for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
        {
          int child_min;

          if (!gtk_widget_get_visible (child))
            continue;
          gtk_widget_measure (child, orientation, -1, &child_min, NULL, NULL, NULL);
          if (child_min > widest_min)
            {
              widest = child;
              widest_min = child_min;
            }
        }
      widget = widest;
    }
  json_builder_end_array (builder);
}

static void
add_sizes (JsonBuilder *builder,
           SlWindow    *window)
{
  GtkWidget *widget = GTK_WIDGET (window);
  int min_width, min_height;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, -1, &min_height, NULL, NULL, NULL);
  json_builder_set_member_name (builder, "min_width");
  json_builder_add_int_value (builder, min_width);
  json_builder_set_member_name (builder, "min_height");
  json_builder_add_int_value (builder, min_height);
  json_builder_set_member_name (builder, "overflowing");
  json_builder_begin_array (builder);
  add_overflowing (builder, widget, widget);
  json_builder_end_array (builder);
  add_widest_path (builder, "widest", GTK_ORIENTATION_HORIZONTAL, widget);
  add_widest_path (builder, "tallest", GTK_ORIENTATION_VERTICAL, widget);
}

/**
 * sl_window_report_to_json:
 *
 * Returns: (transfer full): the window's size and minimum size, the
 *   document in front, panels and where they are, open documents,
 *   folders with their finding and problem counts
 */
char *
sl_window_report_to_json (SlWindow *window)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  SlProblemsPanel *problems = SL_PROBLEMS_PANEL (sl_window_find_panel (window, "problems"));

  g_return_val_if_fail (SL_IS_WINDOW (window), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "width");
  json_builder_add_int_value (builder, gtk_widget_get_width (GTK_WIDGET (window)));
  json_builder_set_member_name (builder, "height");
  json_builder_add_int_value (builder, gtk_widget_get_height (GTK_WIDGET (window)));
  add_sizes (builder, window);
  add_document (builder, window);
  json_builder_set_member_name (builder, "documents");
  json_builder_add_int_value (builder, sl_window_get_n_documents (window));
  json_builder_set_member_name (builder, "problems");
  json_builder_add_int_value (builder, problems ? g_list_model_get_n_items (sl_problems_panel_get_model (problems)) : 0);
  add_panels (builder, window);
  add_folders (builder, window);
  add_documents (builder, window);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static void window_gone_cb (gpointer  data,
                            GObject  *where_the_window_was);

static void
pending_report_free (PendingReport *report)
{
  if (report->clock != NULL)
    g_clear_signal_handler (&report->after_paint_id, report->clock);
  g_clear_object (&report->clock);
  g_clear_handle_id (&report->settle_id, g_source_remove);
  g_clear_handle_id (&report->give_up_id, g_source_remove);
  if (report->window != NULL)
    g_object_weak_unref (G_OBJECT (report->window), window_gone_cb, report);
  report->window = NULL;
  g_clear_object (&report->token);
  g_free (report->png_path);
  g_free (report->json_path);
  g_free (report);
}

/* A window closed before it was idle reports nothing. */
static void
window_gone_cb (gpointer  data,
                GObject  *where_the_window_was)
{
  PendingReport *report = data;

  report->window = NULL;
  pending_report_free (report);
}

static void
write_json (PendingReport *report)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  if (report->json_path == NULL)
    return;

  json = sl_window_report_to_json (report->window);
  if (!g_file_set_contents (report->json_path, json, -1, &error))
    g_printerr ("sightline: report failed: %s\n", error->message);
}

static gboolean
quit_cb (gpointer user_data)
{
  g_application_quit (g_application_get_default ());
  return G_SOURCE_REMOVE;
}

/* SIGHTLINE_REPORT_LINGER_MS keeps the window up after the report, so a
 * test can also take a screenshot of the whole display from outside. */
static void
quit_after_linger (void)
{
  const char *linger = g_getenv ("SIGHTLINE_REPORT_LINGER_MS");
  guint ms = linger ? (guint)g_ascii_strtoull (linger, NULL, 10) : 0;

  g_timeout_add (MIN (ms, 60000), quit_cb, NULL);
}

/* Writes the JSON after the PNG, so whoever waits for the JSON finds both;
 * quits and frees @report. */
static void
finish (PendingReport *report)
{
  write_json (report);
  quit_after_linger ();
  pending_report_free (report);
}

/* The frame just painted is final: the window's drawing is complete until
 * the main loop runs again, when a blinking cursor or a redrawn chart may
 * ask for the next frame and drop it. */
static void
after_paint_cb (GdkFrameClock *clock,
                PendingReport *report)
{
  g_autoptr(GError) error = NULL;

  if (report->png_path != NULL && !sl_window_report_save_png (report->window, report->png_path, &error))
    {
      /* This paint drew nothing (the surface waits for the compositor,
       * say): the next one will. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED))
        {
          gtk_widget_queue_draw (GTK_WIDGET (report->window));
          return;
        }
      g_printerr ("sightline: screenshot failed: %s\n", error->message);
    }

  finish (report);
}

/* Saves the PNG at the end of the next frame. */
static void
save_on_next_frame (PendingReport *report)
{
  g_clear_handle_id (&report->settle_id, g_source_remove);
  report->clock = g_object_ref (gtk_widget_get_frame_clock (GTK_WIDGET (report->window)));
  report->after_paint_id = g_signal_connect (report->clock, "after-paint", G_CALLBACK (after_paint_cb), report);
  gtk_widget_queue_draw (GTK_WIDGET (report->window));
}

static void check_idle (PendingReport *report);

static void
document_state_cb (GObject    *token,
                   GParamSpec *pspec,
                   SlDocument *document)
{
  check_idle (g_object_get_data (token, "sl-report"));
}

typedef struct {
  PendingReport *report;
  gboolean       loading;
} FindLoading;

/* Watches the state of every document not yet watched, and tells
 * whether one is loading. */
static void
watch_documents (PanelFrame *frame,
                 gpointer    user_data)
{
  FindLoading *find = user_data;

  for (guint i = 0; i < panel_frame_get_n_pages (frame); i++)
    {
      PanelWidget *page = panel_frame_get_page (frame, i);

      if (!SL_IS_DOCUMENT (page))
        continue;
      if (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (page), "sl-report-serial")) != find->report->serial)
        {
          g_object_set_data (G_OBJECT (page), "sl-report-serial", GUINT_TO_POINTER (find->report->serial));
          g_signal_connect_object (page, "notify::state", G_CALLBACK (document_state_cb), find->report->token,
                                   G_CONNECT_SWAPPED);
        }
      find->loading |= sl_document_get_state (SL_DOCUMENT (page)) == SL_DOCUMENT_LOADING;
    }
}

static gboolean
is_idle (PendingReport *report)
{
  FindLoading find = { report, FALSE };

  panel_grid_foreach_frame (report->window->grid, watch_documents, &find);
  return gtk_widget_get_mapped (GTK_WIDGET (report->window)) && !sl_window_is_busy (report->window) &&
         !find.loading;
}

static gboolean
settle_cb (gpointer user_data)
{
  PendingReport *report = user_data;

  report->settle_id = 0;
  /* A document opened meanwhile is loading: its state says when. */
  if (is_idle (report))
    save_on_next_frame (report);
  return G_SOURCE_REMOVE;
}

/* Something the report waits for changed: idle now, the frame after a
 * short settling is saved; busy again, the settling starts over later. */
static void
check_idle (PendingReport *report)
{
  if (report->clock != NULL)
    return;   /* waiting for the frame to save */

  if (!is_idle (report))
    g_clear_handle_id (&report->settle_id, g_source_remove);
  else if (report->settle_id == 0)
    report->settle_id = g_timeout_add_full (G_PRIORITY_LOW, SETTLE_MS, settle_cb, report, NULL);
}

static void
changed_cb (GObject *token)
{
  check_idle (g_object_get_data (token, "sl-report"));
}

static gboolean
give_up_cb (gpointer user_data)
{
  PendingReport *report = user_data;
  g_autoptr(GError) error = NULL;

  report->give_up_id = 0;
  if (report->clock == NULL)
    g_printerr ("sightline: still busy after %d s; reporting what is there\n", GIVE_UP_SECONDS);
  if (report->png_path != NULL && !sl_window_report_save_png (report->window, report->png_path, &error))
    g_printerr ("sightline: screenshot failed: %s\n", error->message);
  finish (report);
  return G_SOURCE_REMOVE;
}

/**
 * sl_window_report_when_idle:
 * @png_path: (nullable): where to save a screenshot
 * @json_path: (nullable): where to save the description
 *
 * Once the window is shown, every scan and job has finished and every
 * document has loaded (or failed), writes the report and quits the
 * application. The screenshot is the first frame painted after that; the
 * description is written after it. The window's mapping, the session's
 * `busy` and each document's `state` are observed, not polled.
 */
void
sl_window_report_when_idle (SlWindow   *window,
                            const char *png_path,
                            const char *json_path)
{
  static guint serial;
  PendingReport *report;

  g_return_if_fail (SL_IS_WINDOW (window));

  report = g_new0 (PendingReport, 1);
  report->window = window;
  g_object_weak_ref (G_OBJECT (window), window_gone_cb, report);
  report->png_path = g_strdup (png_path);
  report->json_path = g_strdup (json_path);
  report->serial = ++serial;
  report->token = g_object_new (G_TYPE_OBJECT, NULL);
  g_object_set_data (report->token, "sl-report", report);

  g_signal_connect_object (window, "map", G_CALLBACK (changed_cb), report->token, G_CONNECT_SWAPPED);
  g_signal_connect_object (sl_window_get_session (window), "notify::busy", G_CALLBACK (changed_cb), report->token,
                           G_CONNECT_SWAPPED);
  report->give_up_id = g_timeout_add_seconds (GIVE_UP_SECONDS, give_up_cb, report);
  check_idle (report);
}
