/* sl-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <libpanel.h>

#include "sl-console-panel.h"
#include "sl-details-panel.h"
#include "sl-dock-layout.h"
#include "sl-finding-page.h"
#include "sl-folder-page.h"
#include "sl-local-target.h"
#include "sl-profile-loader.h"
#include "sl-problems-panel.h"
#include "sl-profile-page.h"
#include "sl-remote-run.h"
#include "sl-target-shell.h"
#include "sl-project-dialog.h"
#include "sl-run-dialog.h"
#include "sl-scalars-page.h"
#include "sl-target-dialog.h"
#include "sl-timeline-details.h"
#include "sl-timeline-page.h"
#include "sl-welcome-page.h"
#include "sl-window.h"
#include "sl-workspace-panel.h"

#define PROGRESS_INTERVAL_MS 100

struct _SlWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  SlDockLayout         *layout;
  GListStore           *folders;
  GCancellable         *scan_cancellable;
  guint                 progress_source;
  guint                 n_scanning;
  gboolean              remembering_folders;
  char                 *job_working_dir;
  SlRemoteRun          *remote_run;      /* the job on a target the Console follows */
  GCancellable         *remote_cancellable;
  gboolean              remote_job_started;

  SlWorkspacePanel     *workspace_panel;
  SlProblemsPanel      *problems_panel;
  SlConsolePanel       *console_panel;
  SlDetailsPanel       *details_panel;

  /* Template children */
  PanelDock            *dock;
  PanelGrid            *grid;
  PanelPaned           *start_paned;
  PanelPaned           *end_paned;
  PanelPaned           *bottom_paned;
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkLabel             *status_label;
  GtkWidget            *scan_box;
  GtkProgressBar       *scan_progress;
};

G_DEFINE_FINAL_TYPE (SlWindow, sl_window, ADW_TYPE_APPLICATION_WINDOW)

static SlApplication *
get_application (SlWindow *self)
{
  return SL_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
}

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

  sl_problems_panel_add (self->problems_panel, problem);
}

static PanelFrame *
sl_window_create_frame_cb (SlWindow  *self,
                           PanelGrid *grid)
{
  PanelFrame *frame = PANEL_FRAME (panel_frame_new ());

  panel_frame_set_header (frame, PANEL_FRAME_HEADER (panel_frame_tab_bar_new ()));
  panel_frame_set_placeholder (frame, sl_welcome_page_new ());

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
show_document (SlWindow    *self,
               PanelWidget *page)
{
  panel_grid_add (self->grid, page);
  panel_widget_raise (page);
}

static void
finding_activated_cb (SlWindow  *self,
                      SlFinding *finding);

static void
note_summary_run_read (SlApplication *app,
                       SlSummaryRun  *run)
{
  guint n_tags = sl_summary_run_get_n_tags (run);
  guint n_files = sl_summary_run_get_n_files (run);
  g_autoptr(GPtrArray) tags = g_ptr_array_new ();
  g_autoptr(GPtrArray) files = g_ptr_array_new ();
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i < n_tags; i++)
    g_ptr_array_add (tags, (gpointer)sl_summary_run_get_tag_name (run, i));
  g_ptr_array_add (tags, NULL);

  for (guint i = 0; i < n_files; i++)
    {
      SlSummaryFile *file = sl_summary_run_get_file (run, i);

      g_ptr_array_add (files, file->path);
      g_array_append_val (offsets, file->offset);
    }

  sl_application_note_run_read (app, sl_summary_run_get_path (run), (const char * const *)tags->pdata,
                                (const char * const *)files->pdata, (const guint64 *)(gpointer)offsets->data,
                                n_files);
}

/* The run index remembers each run's tags and how far its files were read,
 * so the Workspace can list tags on the next start before reading. */
static void
summaries_read_cb (SlWindow      *self,
                   SlScalarsPage *page)
{
  SlSummaryReader *reader = sl_scalars_page_get_reader (page);
  GPtrArray *runs;

  if (reader == NULL)
    return;

  runs = sl_summary_reader_get_runs (reader);
  for (guint i = 0; i < runs->len; i++)
    note_summary_run_read (get_application (self), g_ptr_array_index (runs, i));
}

/* Raises the document of @kind for @path if one is open. */
static gboolean
raise_document (SlWindow   *self,
                const char *kind,
                const char *path)
{
  g_autofree char *id = g_strdup_printf ("%s:%s", kind, path);
  PanelWidget *page = sl_window_find_document (self, id);

  if (page != NULL)
    panel_widget_raise (page);
  return page != NULL;
}

/**
 * sl_window_open_scalars:
 * @path: a folder of runs, a run's folder or a summary file
 *
 * Shows the training curves below @path, reading them in a worker.
 */
void
sl_window_open_scalars (SlWindow   *self,
                        const char *path)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  PanelWidget *page;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (raise_document (self, "scalars", path))
    return;

  name = g_path_get_basename (path);
  /* Translators: the title of a document tab; %s is a folder name. */
  title = g_strdup_printf (_("Scalars: %s"), name);
  page = PANEL_WIDGET (sl_scalars_page_new (path, title));
  g_signal_connect_object (page, "summaries-read", G_CALLBACK (summaries_read_cb), self, G_CONNECT_SWAPPED);
  show_document (self, page);
}

typedef struct {
  GWeakRef page;
  guint    track;
  guint32  slice;
} TimelineLink;

static void
timeline_link_free (gpointer data)
{
  TimelineLink *link = data;

  g_weak_ref_clear (&link->page);
  g_free (link);
}

/* A parent, child or flow end in Details: show it in its timeline. */
static void
timeline_link_cb (gpointer data)
{
  TimelineLink *link = data;
  g_autoptr(SlTimelinePage) page = g_weak_ref_get (&link->page);

  if (page != NULL)
    {
      panel_widget_raise (PANEL_WIDGET (page));
      sl_timeline_view_reveal (sl_timeline_page_get_view (page), link->track, link->slice);
    }
}

static void
timeline_slice_selected_cb (SlWindow       *self,
                            guint           track,
                            guint           slice,
                            SlTimelinePage *page)
{
  g_autoptr(GPtrArray) details = sl_timeline_page_describe_selection (page);
  static const char * const no_rows[] = { NULL };

  if (details == NULL || details->len == 0)
    return;

  sl_details_panel_show_rows (self->details_panel, NULL, "sl-timeline-symbolic",
                              ((SlTimelineDetail *)g_ptr_array_index (details, 0))->value, no_rows);
  for (guint i = 0; i < details->len; i++)
    {
      SlTimelineDetail *d = g_ptr_array_index (details, i);
      const char *row[] = { d->label, d->value, NULL };
      TimelineLink *link;

      if (d->target.track == G_MAXUINT)
        {
          sl_details_panel_add_rows (self->details_panel, row);
          continue;
        }
      link = g_new0 (TimelineLink, 1);
      g_weak_ref_init (&link->page, page);
      link->track = d->target.track;
      link->slice = d->target.slice;
      sl_details_panel_add_link_row (self->details_panel, d->label, d->value, timeline_link_cb, link, timeline_link_free);
    }
}

/**
 * sl_window_open_timeline:
 * @path: a Chrome trace file or a profiler folder with timeline files
 *
 * Shows the timeline of @path, reading it in a worker.
 */
void
sl_window_open_timeline (SlWindow   *self,
                         const char *path)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  PanelWidget *page;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (raise_document (self, "timeline", path))
    return;

  name = g_path_get_basename (path);
  /* Translators: the title of a document tab; %s is a file or folder name. */
  title = g_strdup_printf (_("Timeline: %s"), name);
  page = PANEL_WIDGET (sl_timeline_page_new (path, title));
  g_signal_connect_object (page, "slice-selected", G_CALLBACK (timeline_slice_selected_cb), self, G_CONNECT_SWAPPED);
  show_document (self, page);
}

typedef struct {
  SlWindow       *window;
  SlTimelinePage *page;
  char           *search;
  gint64          start_ns;
  gint64          end_ns;
  gint64          origin_ns;
  guint           tries;
} TimelineRequest;

static void
timeline_request_free (gpointer data)
{
  TimelineRequest *request = data;

  g_clear_weak_pointer (&request->page);
  g_clear_weak_pointer (&request->window);
  g_free (request->search);
  g_free (request);
}

static void
apply_timeline_request (TimelineRequest *request)
{
  SlTimelineView *view = sl_timeline_page_get_view (request->page);
  SlTrace *trace = sl_timeline_view_get_trace (view);

  if (request->search != NULL)
    sl_timeline_page_search (request->page, request->search, FALSE);

  if (request->start_ns >= 0 && request->end_ns > request->start_ns && trace != NULL)
    {
      gint64 start = request->start_ns, end = request->end_ns;
      gint64 trace_start = sl_trace_get_start_ns (trace), trace_end = sl_trace_get_end_ns (trace);

      /* Step traces and timelines are written by different parts of the
       * profiler, often against different origins: line the first step up
       * with the timeline's start, and say so. */
      if ((end < trace_start || start > trace_end) && request->origin_ns >= 0)
        {
          start = start - request->origin_ns + trace_start;
          end = end - request->origin_ns + trace_start;
          sl_window_show_toast (request->window,
                                _("The step trace and the timeline use different clocks: steps are placed from the timeline's start"));
        }

      if (end < trace_start || start > trace_end)
        sl_window_show_toast (request->window, _("That step lies outside the timeline's time span"));
      else
        sl_timeline_view_set_window (view, start, end);
    }
}

/* The timeline is read in a worker: act once it is there. */
static gboolean
timeline_request_cb (gpointer data)
{
  TimelineRequest *request = data;
  const char *state;

  if (request->page == NULL || request->window == NULL || ++request->tries > 6000)
    return G_SOURCE_REMOVE;

  state = sl_timeline_page_get_state_name (request->page);
  if (g_strcmp0 (state, "loading") == 0)
    return G_SOURCE_CONTINUE;

  if (g_strcmp0 (state, "timeline") == 0)
    apply_timeline_request (request);
  return G_SOURCE_REMOVE;
}

/**
 * sl_window_show_in_timeline:
 * @search: (nullable): text to find, an op name say
 * @start_ns: start of a range to zoom to, in the trace's own time, or -1
 * @origin_ns: where the first step of a step trace starts, or -1: when the
 *   range falls outside the trace, it is placed from the trace's start
 *
 * Opens (or raises) the timeline of @path and, once it is read, finds
 * @search and zooms to the range.
 */
void
sl_window_show_in_timeline (SlWindow   *self,
                            const char *path,
                            const char *search,
                            gint64      start_ns,
                            gint64      end_ns,
                            gint64      origin_ns)
{
  g_autofree char *id = NULL;
  TimelineRequest *request;
  PanelWidget *page;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  sl_window_open_timeline (self, path);
  id = g_strdup_printf ("timeline:%s", path);
  page = sl_window_find_document (self, id);
  if (!SL_IS_TIMELINE_PAGE (page) || (search == NULL && start_ns < 0))
    return;

  request = g_new0 (TimelineRequest, 1);
  g_set_weak_pointer (&request->window, self);
  g_set_weak_pointer (&request->page, SL_TIMELINE_PAGE (page));
  request->search = g_strdup (search);
  request->start_ns = start_ns;
  request->end_ns = end_ns;
  request->origin_ns = origin_ns;
  if (timeline_request_cb (request) == G_SOURCE_CONTINUE)
    g_timeout_add_full (G_PRIORITY_DEFAULT, 100, timeline_request_cb, request, timeline_request_free);
  else
    timeline_request_free (request);
}

/* Profiler folders have a timeline when they hold timeline files (or are
 * a SQLite export, whose tasks are the timeline). */
static gboolean
has_timeline (const char *path)
{
  g_autoptr(GPtrArray) files = sl_profile_list_timeline_files (path);

  return (files != NULL && files->len > 0) || g_str_has_suffix (path, ".db");
}

static void
profile_loaded_cb (SlWindow      *self,
                   SlProfilePage *page)
{
  SlProfile *profile = sl_profile_page_get_profile (page);
  GListModel *problems = sl_profile_get_problems (profile);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      sl_problems_panel_add (self->problems_panel, problem);
    }
}

static void
profile_show_on_timeline_cb (SlWindow      *self,
                             const char    *search,
                             gint64         start_ns,
                             gint64         end_ns,
                             gint64         origin_ns,
                             SlProfilePage *page)
{
  const char *path = sl_profile_page_get_path (page);

  if (!has_timeline (path))
    {
      sl_window_show_toast (self, _("This profile has no timeline files"));
      return;
    }

  sl_window_show_in_timeline (self, path, search, start_ns, end_ns, origin_ns);
}

/**
 * sl_window_open_profile:
 * @path: a profiler folder or its SQLite export
 *
 * Shows the profile's summary, op statistics and step trace, reading it
 * in a worker.
 */
void
sl_window_open_profile (SlWindow   *self,
                        const char *path)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  PanelWidget *page;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (raise_document (self, "profile", path))
    return;

  name = g_path_get_basename (path);
  /* Translators: the title of a document tab; %s is a folder name. */
  title = g_strdup_printf (_("Profile: %s"), name);
  page = PANEL_WIDGET (sl_profile_page_new (path, title));
  g_signal_connect_object (page, "loaded", G_CALLBACK (profile_loaded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "show-on-timeline", G_CALLBACK (profile_show_on_timeline_cb), self,
                           G_CONNECT_SWAPPED);
  show_document (self, page);
}

static void
open_finding_page (SlWindow  *self,
                   SlFinding *finding)
{
  g_autofree char *id = g_strdup_printf ("finding:%s:%s", sl_finding_kind_to_id (sl_finding_get_kind (finding)),
                                         sl_finding_get_path (finding));
  PanelWidget *page;

  switch (sl_finding_get_kind (finding))
    {
    case SL_FINDING_SUMMARY_RUN:
    case SL_FINDING_TENSORBOARD_RUN:
      sl_window_open_scalars (self, sl_finding_get_path (finding));
      return;

    case SL_FINDING_TRACE:
      sl_window_open_timeline (self, sl_finding_get_path (finding));
      return;

    case SL_FINDING_MINDSPORE_PROFILER:
    case SL_FINDING_MSPROF:
    case SL_FINDING_ASCEND_PROFILER:
    case SL_FINDING_PROFILER_DB:
      sl_window_open_profile (self, sl_finding_get_path (finding));
      return;

    default:
      break;
    }

  page = sl_window_find_document (self, id);
  if (page == NULL)
    show_document (self, PANEL_WIDGET (sl_finding_page_new (finding)));
  else
    panel_widget_raise (page);
}

static void
finding_activated_cb (SlWindow  *self,
                      SlFinding *finding)
{
  open_finding_page (self, finding);
  sl_details_panel_show (self->details_panel, G_OBJECT (finding));
}

static void
open_folder_page (SlWindow *self,
                  SlFolder *folder)
{
  g_autofree char *id = g_strdup_printf ("folder:%s", sl_folder_get_path (folder));
  PanelWidget *page = sl_window_find_document (self, id);

  if (page == NULL)
    {
      g_autoptr(GMenu) menu = g_menu_new ();
      g_autoptr(GMenuItem) remove = g_menu_item_new (_("Remove Folder from Workspace"), NULL);

      g_menu_item_set_action_and_target (remove, "win.remove-folder", "s", sl_folder_get_path (folder));
      g_menu_append_item (menu, remove);

      page = PANEL_WIDGET (sl_folder_page_new (folder));
      panel_widget_set_menu_model (page, G_MENU_MODEL (menu));
      g_signal_connect_object (page, "finding-activated", G_CALLBACK (finding_activated_cb), self,
                               G_CONNECT_SWAPPED);
      show_document (self, page);
    }
  else
    {
      panel_widget_raise (page);
    }
}

static void
update_scan_status (SlWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  guint files = 0;
  const char *name = NULL;
  g_autofree char *status = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);

      if (sl_folder_get_state (folder) == SL_FOLDER_SCANNING)
        {
          files += sl_folder_poll_progress (folder);
          name = sl_folder_get_name (folder);
        }
    }

  if (name != NULL)
    {
      status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Scanning %s: %u file looked at…",
                                             "Scanning %s: %u files looked at…", files),
                                name, files);
      gtk_label_set_label (self->status_label, status);
      gtk_progress_bar_pulse (self->scan_progress);
    }
}

static gboolean
progress_timeout_cb (gpointer user_data)
{
  update_scan_status (SL_WINDOW (user_data));
  return G_SOURCE_CONTINUE;
}

static void
scan_started (SlWindow *self)
{
  if (self->n_scanning++ == 0)
    {
      gtk_widget_set_visible (self->scan_box, TRUE);
      self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, progress_timeout_cb, self);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-scan", TRUE);
}

static void
scan_stopped (SlWindow *self)
{
  g_assert (self->n_scanning > 0);

  if (--self->n_scanning == 0)
    {
      gtk_widget_set_visible (self->scan_box, FALSE);
      g_clear_handle_id (&self->progress_source, g_source_remove);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-scan", FALSE);
    }
}

static void
report_scan (SlWindow *self,
             SlFolder *folder)
{
  guint n_findings = g_list_model_get_n_items (sl_folder_get_findings (folder));
  guint n_problems = g_list_model_get_n_items (sl_folder_get_problems (folder));
  g_autofree char *found = NULL;
  g_autofree char *problems = NULL;
  g_autofree char *status = NULL;

  /* Translators: "%s" is a folder name, then "3 found in 47 files (12 ms)" and "2 problems". */
  found = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u found in %u file (%.0f ms)",
                                        "%u found in %u files (%.0f ms)", sl_folder_get_files_scanned (folder)),
                           n_findings, sl_folder_get_files_scanned (folder), sl_folder_get_scan_time (folder) / 1000.0);
  problems = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u problem", "%u problems", n_problems), n_problems);
  status = g_strdup_printf (_("%s: %s, %s"), sl_folder_get_name (folder), found, problems);
  gtk_label_set_label (self->status_label, status);

  if (n_problems > 0)
    {
      g_autofree char *toast = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "%u problem while reading %s: see Problems",
                                                             "%u problems while reading %s: see Problems",
                                                             n_problems),
                                                n_problems, sl_folder_get_name (folder));
      sl_problems_panel_add_all (self->problems_panel, sl_folder_get_problems (folder));
      sl_window_show_toast (self, toast);
    }
}

static void
scan_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  SlFolder *folder = SL_FOLDER (object);
  g_autoptr(SlWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  scan_stopped (self);

  if (!sl_folder_scan_finish (folder, result, &error))
    {
      g_autoptr(SlProblem) problem = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_label_set_label (self->status_label, _("Scanning stopped"));
          return;
        }

      problem = sl_problem_new (SL_SEVERITY_ERROR, _("Workspace"), sl_folder_get_path (folder), -1, error->message);
      sl_problems_panel_add (self->problems_panel, problem);
      gtk_label_set_label (self->status_label, error->message);
      return;
    }

  sl_application_annotate_findings (get_application (self), folder);
  report_scan (self, folder);
  sl_application_index_folder (get_application (self), folder);

  if (sl_details_panel_get_item (self->details_panel) == G_OBJECT (folder))
    sl_details_panel_show (self->details_panel, G_OBJECT (folder));
}

static SlFolder *
find_folder (SlWindow   *self,
             const char *path)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);

      if (g_strcmp0 (sl_folder_get_path (folder), path) == 0)
        return folder;
    }

  return NULL;
}

static void
save_open_folders (SlWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);

      g_ptr_array_add (paths, g_strdup (sl_folder_get_path (folder)));
    }
  g_ptr_array_add (paths, NULL);

  sl_application_set_open_folders (get_application (self), (const char * const *)paths->pdata);
}

static void
folders_changed_cb (SlWindow   *self,
                    guint       position,
                    guint       removed,
                    guint       added,
                    GListModel *folders)
{
  save_open_folders (self);
}

/**
 * sl_window_restore_folders:
 *
 * Puts back the folders the Workspace held last time, showing what the run
 * index remembers of each at once, and scans them again in the background.
 * From then on the Workspace's folders are remembered as they change.
 */
void
sl_window_restore_folders (SlWindow *self)
{
  SlApplication *app;
  g_auto(GStrv) paths = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));

  app = get_application (self);
  paths = sl_application_dup_open_folders (app);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autoptr(SlFolder) folder = NULL;
      g_autoptr(GPtrArray) findings = NULL;

      if (find_folder (self, paths[i]) != NULL)
        continue;

      folder = sl_folder_new (paths[i]);
      findings = sl_application_dup_indexed_findings (app, sl_folder_get_path (folder));
      sl_folder_restore_findings (folder, findings);
      g_list_store_append (self->folders, folder);

      scan_started (self);
      sl_folder_scan_async (folder, self->scan_cancellable, scan_cb, g_object_ref (self));
    }

  if (!self->remembering_folders)
    {
      self->remembering_folders = TRUE;
      g_signal_connect_object (self->folders, "items-changed", G_CALLBACK (folders_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }
}

/**
 * sl_window_remove_folder:
 * @path: an opened folder
 *
 * Takes @path out of the Workspace and closes its document; the files are
 * not touched.
 */
void
sl_window_remove_folder (SlWindow   *self,
                         const char *path)
{
  g_autofree char *id = NULL;
  PanelWidget *page;
  SlFolder *folder;
  guint position;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  folder = find_folder (self, path);
  if (folder == NULL || !g_list_store_find (self->folders, folder, &position))
    return;

  id = g_strdup_printf ("folder:%s", sl_folder_get_path (folder));
  if ((page = sl_window_find_document (self, id)) != NULL)
    panel_widget_close (page);

  g_list_store_remove (self->folders, position);
}

/**
 * sl_window_open_path:
 * @path: a folder or a file
 *
 * Adds @path to the Workspace (or finds it there), scans it in a worker
 * thread and shows its document.
 *
 * Returns: (transfer none): the folder
 */
SlFolder *
sl_window_open_path (SlWindow   *self,
                     const char *path)
{
  g_autoptr(SlFolder) created = NULL;
  SlFolder *folder;

  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  created = sl_folder_new (path);
  folder = find_folder (self, sl_folder_get_path (created));
  if (folder == NULL)
    {
      folder = created;
      g_list_store_append (self->folders, folder);
    }

  if (sl_folder_get_state (folder) != SL_FOLDER_SCANNING || folder == created)
    {
      scan_started (self);
      sl_folder_scan_async (folder, self->scan_cancellable, scan_cb, g_object_ref (self));
    }

  sl_application_note_recent_folder (get_application (self), sl_folder_get_path (folder));
  adw_window_title_set_subtitle (self->window_title, sl_folder_get_path (folder));
  open_folder_page (self, folder);
  sl_workspace_panel_select_item (self->workspace_panel, G_OBJECT (folder));

  return folder;
}

GListModel *
sl_window_get_folders (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), NULL);

  return G_LIST_MODEL (self->folders);
}

guint
sl_window_get_n_scanning (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), 0);

  return self->n_scanning;
}

/**
 * sl_window_is_busy:
 *
 * Returns: whether a scan or a job is running
 */
gboolean
sl_window_is_busy (SlWindow *self)
{
  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  return self->n_scanning > 0 || sl_console_panel_is_running (self->console_panel);
}

#define JOB_LOG_TAIL_BYTES (4 * 1024 * 1024)

typedef struct {
  SlTarget *target;
  char     *log_path;
} JobLogRead;

static void
job_log_read_free (gpointer data)
{
  JobLogRead *read = data;

  g_clear_object (&read->target);
  g_free (read->log_path);
  g_free (read);
}

/* An old job's log, from this computer or from its server, in a worker. */
static void
read_job_log_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  JobLogRead *read = task_data;
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_for_target (read->target);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  guint64 size, offset;
  GBytes *bytes;

  /* The end of a long log is what people look for. */
  if (!(info = sl_target_shell_stat (shell, read->log_path, cancellable, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  size = (guint64)g_file_info_get_size (info);
  offset = size > JOB_LOG_TAIL_BYTES ? size - JOB_LOG_TAIL_BYTES : 0;
  bytes = sl_target_shell_read (shell, read->log_path, offset, size - offset, cancellable, &error);

  if (bytes == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify)g_bytes_unref);
}

static void
read_job_log_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SlWindow *self = SL_WINDOW (object);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const char *data;

  if (!(bytes = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      g_autofree char *line = g_strdup_printf (_("[The log could not be read: %s]\n"), error->message);

      sl_console_panel_append (self->console_panel, line, -1);
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size > 0)
    sl_console_panel_append (self->console_panel, data, size);
  sl_console_panel_append (self->console_panel, _("[end of the log]\n"), -1);
}

/**
 * sl_window_show_job_log:
 * @job: a job of the history
 *
 * Reads the job's log (on its server for a remote job) into the Console.
 */
void
sl_window_show_job_log (SlWindow    *self,
                        SlJobRecord *job)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *header = NULL;
  SlWorkspaceStore *store;
  JobLogRead *read;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (SL_IS_JOB_RECORD (job));

  header = g_strdup_printf (_("\n[Log of job %lld: %s]\n"), (long long)sl_job_record_get_id (job),
                            sl_job_record_get_command (job));
  sl_console_panel_append (self->console_panel, header, -1);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));

  if (sl_job_record_get_log_path (job) == NULL)
    {
      sl_console_panel_append (self->console_panel, _("[This job kept no log]\n"), -1);
      return;
    }

  read = g_new0 (JobLogRead, 1);
  read->log_path = g_strdup (sl_job_record_get_log_path (job));
  store = sl_application_get_store (get_application (self));
  if (store != NULL && sl_job_record_get_target_id (job) > 0)
    {
      g_autoptr(SlTargetRecord) record = sl_workspace_store_lookup_target (store, sl_job_record_get_target_id (job), NULL);

      if (record == NULL || !(read->target = sl_target_new_from_record (record, NULL)))
        {
          /* Reading a server's path here would only mislead. */
          sl_console_panel_append (self->console_panel, _("[The job's target is no longer in the workspace]\n"), -1);
          job_log_read_free (read);
          return;
        }
    }
  else
    read->target = sl_local_target_new ();

  task = g_task_new (self, NULL, read_job_log_cb, NULL);
  g_task_set_task_data (task, read, job_log_read_free);
  g_task_run_in_thread (task, read_job_log_thread);
}

static void
workspace_item_activated_cb (SlWindow *self,
                             GObject  *item)
{
  if (SL_IS_JOB_RECORD (item))
    {
      sl_window_show_job_log (self, SL_JOB_RECORD (item));
      return;
    }

  if (SL_IS_FOLDER (item))
    open_folder_page (self, SL_FOLDER (item));
  else if (SL_IS_FINDING (item))
    open_finding_page (self, SL_FINDING (item));
  else if (G_IS_FILE (item))
    {
      g_autofree char *path = g_file_get_path (G_FILE (item));

      if (path != NULL)
        sl_window_open_path (self, path);
    }

  sl_details_panel_show (self->details_panel, item);
}

static void
selection_changed_cb (SlWindow *self,
                      GObject  *item)
{
  if (item != NULL && !G_IS_FILE (item))
    sl_details_panel_show (self->details_panel, item);
}

static void
problem_activated_cb (SlWindow  *self,
                      SlProblem *problem)
{
  sl_details_panel_show (self->details_panel, G_OBJECT (problem));
  panel_dock_set_reveal_area (self->dock, PANEL_AREA_END, TRUE);
  panel_widget_raise (PANEL_WIDGET (self->details_panel));
}

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
cancel_scan_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);

  g_cancellable_cancel (self->scan_cancellable);
  g_clear_object (&self->scan_cancellable);
  self->scan_cancellable = g_cancellable_new ();
}

static void
connect_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  GtkWindow *dialog = GTK_WINDOW (sl_target_dialog_new (get_application (self)));

  gtk_window_set_transient_for (dialog, GTK_WINDOW (self));
  gtk_window_present (dialog);
}

static void
projects_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  GtkWindow *dialog = GTK_WINDOW (sl_project_dialog_new (get_application (self)));

  gtk_window_set_transient_for (dialog, GTK_WINDOW (self));
  gtk_window_present (dialog);
}

static const char *
current_folder_path (SlWindow *self)
{
  GObject *item = sl_details_panel_get_item (self->details_panel);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  g_autoptr(SlFolder) last = NULL;

  if (SL_IS_FOLDER (item))
    return sl_folder_get_path (SL_FOLDER (item));
  if (n == 0)
    return NULL;

  last = g_list_model_get_item (G_LIST_MODEL (self->folders), n - 1);
  return sl_folder_get_path (last);
}

static char *
quote_argv (const char * const *argv)
{
  GString *str = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      g_autofree char *quoted = NULL;
      gboolean plain = argv[i][0] != '\0';

      for (const char *p = argv[i]; *p && plain; p++)
        plain = g_ascii_isalnum (*p) || strchr ("-_./=:,+@%", *p) != NULL;

      quoted = plain ? g_strdup (argv[i]) : g_shell_quote (argv[i]);
      g_string_append_printf (str, "%s%s", i ? " " : "", quoted);
    }

  return g_string_free (str, FALSE);
}

static void
replace_string (char **slot,
                 char  *value)
{
  g_free (*slot);
  *slot = value;
}

static void
report_run_error (SlWindow   *self,
                  const char *working_dir,
                  const char *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_ERROR, _("Run"), working_dir, -1, message);

  sl_problems_panel_add (self->problems_panel, problem);
  sl_console_panel_append (self->console_panel, message, -1);
  sl_console_panel_append (self->console_panel, "\n", -1);
  sl_window_show_toast (self, message);
}

/**
 * sl_window_run_argv:
 * @working_dir: (nullable): where to run; folders opened in the workspace
 *   that contain it, or are inside it, are scanned again when the job ends
 *
 * Runs a program on this computer, its output streamed into the Console
 * and the job kept in the history.
 */
void
sl_window_run_argv (SlWindow           *self,
                    const char * const *argv,
                    const char         *working_dir)
{
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *command_line = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);

  panel_dock_set_reveal_area (self->dock, PANEL_AREA_BOTTOM, TRUE);
  panel_widget_raise (PANEL_WIDGET (self->console_panel));

  target = sl_local_target_new ();
  subprocess = sl_target_spawn (target, argv, working_dir, NULL, &error);
  if (subprocess == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("“%s” could not be started in %s: %s"),
                                                  argv[0], working_dir ? working_dir : ".", error->message);

      report_run_error (self, working_dir, message);
      return;
    }

  command_line = quote_argv (argv);
  title = g_path_get_basename (argv[0]);
  replace_string (&self->job_working_dir, g_strdup (working_dir));

  sl_console_panel_append (self->console_panel, "$ ", -1);
  sl_console_panel_append (self->console_panel, command_line, -1);
  sl_console_panel_append (self->console_panel, "\n", -1);
  sl_console_panel_attach (self->console_panel, subprocess, title);
  sl_application_record_job (get_application (self), subprocess, command_line, working_dir);
}

/**
 * sl_window_run_command:
 * @command_line: a command with arguments quoted as in a POSIX shell
 */
void
sl_window_run_command (SlWindow   *self,
                       const char *command_line,
                       const char *working_dir)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (SL_IS_WINDOW (self));
  g_return_if_fail (command_line != NULL);

  if (!g_shell_parse_argv (command_line, NULL, &argv, &error))
    {
      g_autofree char *message = g_strdup_printf (_("The command “%s” could not be read: %s"), command_line, error->message);

      report_run_error (self, working_dir, message);
      return;
    }

  sl_window_run_argv (self, (const char * const *)argv, working_dir);
}

static gboolean
path_contains (const char *parent,
               const char *child)
{
  gsize len = strlen (parent);

  return g_str_equal (parent, child) ||
         (g_str_has_prefix (child, parent) && G_IS_DIR_SEPARATOR (child[len]));
}

/* A job's outputs (summaries, profiles) appear in the workspace when it
 * ends: folders it ran in, or that it ran inside, are scanned again. */
static void
job_finished_cb (SlWindow       *self,
                 int             exit_code,
                 SlConsolePanel *console)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->folders));

  if (self->job_working_dir == NULL)
    return;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (G_LIST_MODEL (self->folders), i);
      const char *path = sl_folder_get_path (folder);

      if ((path_contains (path, self->job_working_dir) || path_contains (self->job_working_dir, path)) &&
          sl_folder_get_state (folder) != SL_FOLDER_SCANNING)
        {
          scan_started (self);
          sl_folder_scan_async (folder, self->scan_cancellable, scan_cb, g_object_ref (self));
        }
    }
}

static void
remote_message_cb (SlWindow    *self,
                   const char  *text,
                   SlRemoteRun *run)
{
  g_autofree char *line = g_strdup_printf ("[%s]\n", text);

  sl_console_panel_append (self->console_panel, line, -1);
}

static void
remote_log_cb (SlWindow    *self,
               GBytes      *data,
               SlRemoteRun *run)
{
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  if (size > 0)
    sl_console_panel_append (self->console_panel, bytes, size);
}

static void
remote_connection_cb (SlWindow    *self,
                      int          state,
                      const char  *detail,
                      SlRemoteRun *run)
{
  g_autofree char *line = NULL;

  switch (state)
    {
    case SL_TARGET_SHELL_RECONNECTING:
      line = g_strdup_printf (_("[The connection dropped (%s); reconnecting. The job goes on on the server.]\n"), detail);
      sl_console_panel_set_job_status (self->console_panel, _("reconnecting…"));
      break;
    case SL_TARGET_SHELL_CONNECTED:
      line = g_strdup (_("[Connected again; the log goes on from where it stopped.]\n"));
      sl_console_panel_set_job_status (self->console_panel, _("running"));
      break;
    default:
      line = g_strdup_printf (_("[Gave up reconnecting: %s]\n"), detail);
      break;
    }
  sl_console_panel_append (self->console_panel, line, -1);
}

/* Pulled output appears in the Workspace; later pulls that brought new
 * files rescan it (open views follow their files by themselves). */
static void
remote_pulled_cb (SlWindow    *self,
                  const char  *local_dir,
                  guint        n_changed,
                  SlRemoteRun *run)
{
  SlFolder *folder = find_folder (self, local_dir);

  if (folder == NULL)
    {
      if (g_file_test (local_dir, G_FILE_TEST_IS_DIR))
        sl_window_open_path (self, local_dir);
      return;
    }

  if (n_changed > 0 && sl_folder_get_state (folder) != SL_FOLDER_SCANNING)
    {
      scan_started (self);
      sl_folder_scan_async (folder, self->scan_cancellable, scan_cb, g_object_ref (self));
    }
}

static void
remote_job_started_cb (SlWindow    *self,
                       gint64       job_id,
                       const char  *remote_dir,
                       const char  *log_path,
                       SlRemoteRun *run)
{
  self->remote_job_started = TRUE;
  sl_console_panel_set_job_status (self->console_panel, _("running"));
  sl_application_reload_jobs (get_application (self));
}

static void
remote_progress_cb (SlWindow                 *self,
                    const SlTransferProgress *progress,
                    SlRemoteRun              *run)
{
  g_autofree char *done = g_format_size (progress->bytes_done);
  g_autofree char *total = g_format_size (progress->bytes_total);
  g_autofree char *rate = g_format_size ((guint64)progress->bytes_per_second);
  g_autofree char *status = NULL;

  if (progress->seconds_left >= 0)
    status = g_strdup_printf (_("uploading %llu of %llu files, %s of %s, %s/s, %d s left"),
                              (unsigned long long)progress->files_done, (unsigned long long)progress->files_total,
                              done, total, rate, (int)(progress->seconds_left + 0.5));
  else
    status = g_strdup_printf (_("uploading %llu of %llu files, %s of %s"),
                              (unsigned long long)progress->files_done, (unsigned long long)progress->files_total,
                              done, total);
  sl_console_panel_set_job_status (self->console_panel, status);
}

static void
remote_run_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(SlWindow) self = user_data;
  SlRemoteRun *run = SL_REMOTE_RUN (object);
  g_autoptr(GError) error = NULL;
  SlJobStatus status = SL_JOB_STATUS_LOST;
  int exit_code = -1;

  gboolean ok = sl_remote_run_execute_finish (run, result, &status, &exit_code, &error);

  /* The window went away meanwhile: nothing to show it in. */
  if (self->remote_run != run)
    return;

  if (!ok && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    sl_console_panel_end_job (self->console_panel, -1, _("stopped before the job started"));
  else if (!ok)
    {
      g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_ERROR, sl_target_get_name (sl_remote_run_get_target (run)),
                                                     sl_remote_run_get_remote_dir (run), -1, error->message);

      sl_problems_panel_add (self->problems_panel, problem);
      sl_console_panel_end_job (self->console_panel, -1, error->message);
    }
  else if (status != SL_JOB_STATUS_EXITED)
    sl_console_panel_end_job (self->console_panel, -1, _("ended without an exit code (killed, or the server restarted)"));
  else
    {
      const char *why = sl_remote_run_explain_exit (exit_code);

      if (why != NULL)
        {
          g_autofree char *line = g_strdup_printf ("[%s]\n", why);

          sl_console_panel_append (self->console_panel, line, -1);
        }
      sl_console_panel_end_job (self->console_panel, exit_code, NULL);
    }

  g_clear_object (&self->remote_run);
  g_clear_object (&self->remote_cancellable);
  sl_application_reload_jobs (get_application (self));
}

/* Before the job started, Stop cancels the upload; after, it stops the
 * job on the server (SIGTERM, then SIGKILL). */
static void
console_stop_requested_cb (SlWindow       *self,
                           SlConsolePanel *console)
{
  if (self->remote_run == NULL)
    return;
  if (self->remote_job_started)
    sl_remote_run_request_stop (self->remote_run);
  else
    g_cancellable_cancel (self->remote_cancellable);
}

/**
 * sl_window_run_on_target:
 * @target_id: an SSH target of the workspace database
 * @project_dir: the local folder uploaded and run in
 * @pull_dirs: (nullable): output folders under it, space-separated
 * @remote_dir: (nullable): where it goes on the target (default: under the
 *   target's base folder)
 * @excludes: (nullable): patterns not to upload, instead of the defaults
 *
 * Uploads @project_dir, starts @command_line there as a detached job,
 * streams its log into the Console, pulls the output folders into the
 * cache while it runs and opens them in the Workspace.
 *
 * Returns: %TRUE when the job was started
 */
gboolean
sl_window_run_on_target (SlWindow           *self,
                         gint64              target_id,
                         const char         *command_line,
                         const char         *project_dir,
                         const char         *pull_dirs,
                         const char         *remote_dir,
                         const char * const *excludes,
                         GError            **error)
{
  SlWorkspaceStore *store;
  g_autoptr(SlTargetRecord) record = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) pulls = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (SL_IS_WINDOW (self), FALSE);

  if (sl_console_panel_is_running (self->console_panel))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           _("The Console is following another job; stop it or wait for it to end"));
      return FALSE;
    }
  if (!g_shell_parse_argv (command_line, NULL, &argv, error))
    return FALSE;
  if (pull_dirs != NULL && pull_dirs[0] != '\0' && !g_shell_parse_argv (pull_dirs, NULL, &pulls, error))
    return FALSE;

  store = sl_application_get_store (get_application (self));
  if (store == NULL || !(record = sl_workspace_store_lookup_target (store, target_id, NULL)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("That target is no longer in the workspace"));
      return FALSE;
    }
  if (!(target = sl_target_new_from_record (record, error)))
    return FALSE;

  self->remote_run = sl_remote_run_new (target, project_dir, (const char * const *)argv);
  sl_remote_run_set_pull_dirs (self->remote_run, (const char * const *)pulls);
  sl_remote_run_set_remote_dir (self->remote_run, remote_dir);
  if (excludes != NULL && excludes[0] != NULL)
    sl_remote_run_set_excludes (self->remote_run, excludes);
  sl_remote_run_set_store_path (self->remote_run, sl_workspace_store_get_path (store));
  g_signal_connect_object (self->remote_run, "message", G_CALLBACK (remote_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->remote_run, "log", G_CALLBACK (remote_log_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->remote_run, "connection", G_CALLBACK (remote_connection_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->remote_run, "pulled", G_CALLBACK (remote_pulled_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->remote_run, "job-started", G_CALLBACK (remote_job_started_cb), self,
                           G_CONNECT_SWAPPED);

  /* TRANSLATORS: the Console's title for a job; the first %s is a command, the second a target */
  title = g_strdup_printf (_("%s on %s"), argv[0], sl_target_get_name (target));
  sl_console_panel_begin_job (self->console_panel, title);
  {
    g_autofree char *line = g_strdup_printf ("$ %s\n", command_line);

    sl_console_panel_append (self->console_panel, line, -1);
  }
  g_signal_connect_object (self->remote_run, "transfer-progress", G_CALLBACK (remote_progress_cb), self,
                           G_CONNECT_SWAPPED);
  self->remote_cancellable = g_cancellable_new ();
  self->remote_job_started = FALSE;
  sl_remote_run_execute_async (self->remote_run, self->remote_cancellable, remote_run_done_cb, g_object_ref (self));
  return TRUE;
}

static void
run_on_target_cb (SlWindow    *self,
                  gint64       target_id,
                  const char  *command_line,
                  const char  *project_dir,
                  const char  *pull_dirs,
                  SlRunDialog *dialog)
{
  SlProjectRecord *project = sl_run_dialog_get_project (dialog);
  g_autoptr(GError) error = NULL;

  if (!sl_window_run_on_target (self, target_id, command_line, project_dir, pull_dirs,
                                project ? sl_project_record_get_remote_folder (project) : NULL,
                                project ? sl_project_record_get_upload_excludes (project) : NULL, &error))
    sl_window_show_toast (self, error->message);
}

static void
run_dialog_response_cb (SlWindow    *self,
                        const char  *command_line,
                        const char  *working_dir,
                        SlRunDialog *dialog)
{
  sl_window_run_command (self, command_line, working_dir);
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  SlWindow *self = SL_WINDOW (widget);
  SlRunDialog *dialog = sl_run_dialog_new (current_folder_path (self));

  g_signal_connect_object (dialog, "run", G_CALLBACK (run_dialog_response_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "run-on-target", G_CALLBACK (run_on_target_cb), self, G_CONNECT_SWAPPED);
  sl_run_dialog_set_targets (dialog, sl_application_get_targets (get_application (self)), 0);
  if (sl_application_get_store (get_application (self)) != NULL)
    {
      g_autoptr(GPtrArray) projects = sl_workspace_store_list_projects (sl_application_get_store (get_application (self)), NULL);

      sl_run_dialog_set_projects (dialog, projects);
    }
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_present (GTK_WINDOW (dialog));
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
open_scalars_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  sl_window_open_scalars (SL_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
remove_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  sl_window_remove_folder (SL_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
open_timeline_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  sl_window_open_timeline (SL_WINDOW (widget), g_variant_get_string (param, NULL));
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

  sl_window_save_state (self);
  g_cancellable_cancel (self->scan_cancellable);

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

/* Panels need the application's models, and "application" is set only
 * after construction, so this runs from sl_window_new(). */
static void
create_panels (SlWindow      *self,
               SlApplication *app)
{
  g_autoptr(GVariant) layout = NULL;

  self->workspace_panel = SL_WORKSPACE_PANEL (sl_workspace_panel_new (sl_application_get_targets (app),
                                                                      G_LIST_MODEL (self->folders),
                                                                      sl_application_get_recent_folders (app),
                                                                      sl_application_get_jobs (app)));
  self->problems_panel = SL_PROBLEMS_PANEL (sl_problems_panel_new ());
  self->console_panel = SL_CONSOLE_PANEL (sl_console_panel_new ());
  self->details_panel = SL_DETAILS_PANEL (sl_details_panel_new ());

  g_signal_connect_object (self->workspace_panel, "item-activated", G_CALLBACK (workspace_item_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workspace_panel, "selection-changed", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->problems_panel, "selection-changed", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->problems_panel, "problem-activated", G_CALLBACK (problem_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->console_panel, "stop-requested", G_CALLBACK (console_stop_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->console_panel, "job-finished", G_CALLBACK (job_finished_cb),
                           self, G_CONNECT_SWAPPED);

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
  panel_dock_set_bottom_height (self->dock, 220);

  layout = g_settings_get_value (self->settings, "layout");
  sl_dock_layout_restore (self->layout, layout);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  sl_application_report_startup_problems (app, self);
}

static void
sl_window_dispose (GObject *object)
{
  SlWindow *self = (SlWindow *)object;

  g_cancellable_cancel (self->scan_cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  /* A job on a server goes on without us; only following it stops. */
  if (self->remote_cancellable != NULL)
    g_cancellable_cancel (self->remote_cancellable);
  g_clear_object (&self->remote_cancellable);
  g_clear_object (&self->remote_run);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_WINDOW);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (sl_window_parent_class)->dispose (object);
}

static void
sl_window_finalize (GObject *object)
{
  SlWindow *self = (SlWindow *)object;

  g_clear_object (&self->scan_cancellable);
  g_clear_object (&self->folders);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->job_working_dir, g_free);

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

  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-file", NULL, open_file_action);
  gtk_widget_class_install_action (widget_class, "win.connect", NULL, connect_action);
  gtk_widget_class_install_action (widget_class, "win.projects", NULL, projects_action);
  gtk_widget_class_install_action (widget_class, "win.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-scan", NULL, cancel_scan_action);
  gtk_widget_class_install_action (widget_class, "win.reset-layout", NULL, reset_layout_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-start", NULL, toggle_area_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-end", NULL, toggle_area_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-bottom", NULL, toggle_area_action);
  gtk_widget_class_install_action (widget_class, "win.move-panel", "(ss)", move_panel_action);
  gtk_widget_class_install_action (widget_class, "win.close-document", NULL, close_document_action);
  gtk_widget_class_install_action (widget_class, "win.show-panel", "s", show_panel_action);
  gtk_widget_class_install_action (widget_class, "win.open-scalars", "s", open_scalars_action);
  gtk_widget_class_install_action (widget_class, "win.open-timeline", "s", open_timeline_action);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_action);
  gtk_widget_class_install_action (widget_class, "win.remove-folder", "s", remove_folder_action);

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
  self->folders = g_list_store_new (SL_TYPE_FOLDER);
  self->scan_cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-scan", FALSE);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

#ifdef DEVELOPMENT_BUILD
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
}

SlWindow *
sl_window_new (SlApplication *app)
{
  SlWindow *self;

  g_return_val_if_fail (SL_IS_APPLICATION (app), NULL);

  self = g_object_new (SL_TYPE_WINDOW, "application", app, NULL);
  create_panels (self, app);

  return self;
}
