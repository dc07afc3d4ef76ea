/* sl-window-private.h: what the window's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-console-panel.h"
#include "sl-details-panel.h"
#include "sl-dock-layout.h"
#include "sl-problems-panel.h"
#include "sl-session.h"
#include "sl-window.h"
#include "sl-workspace-panel.h"

G_BEGIN_DECLS

struct _SlWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  SlDockLayout         *layout;
  SlSession            *session;           /* what the window shows */
  SlWorkspace          *workspace;         /* the session's */
  GHashTable           *opening_files;   /* paths opened as single files, until scanned */
  GHashTable           *opening_folders; /* folders opened here, until scanned */
  GHashTable           *scanning_paths;  /* paths opened here whose scan has not ended */
  gboolean              close_confirmed;   /* the running job's fate was chosen */
  gboolean              close_after_stop;  /* closing once the stopped job ended */
  GHashTable           *console_jobs;      /* the session's job number → its log in the Console */

  SlWorkspacePanel     *workspace_panel;
  SlProblemsPanel      *problems_panel;
  SlConsolePanel       *console_panel;
  SlDetailsPanel       *details_panel;
  SlDocument           *details_owner;     /* weak: the document whose selection Details shows */
  gboolean              disposing;

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

void _sl_window_class_add_actions (GtkWidgetClass *widget_class);
void _sl_window_class_add_session_aliases (GtkWidgetClass *widget_class);
/* The "session" action group: Run, Profile, Convert and MindX. */
void _sl_window_insert_session_actions (SlWindow *self);
const char *_sl_window_current_folder_path (SlWindow *self);
void _sl_window_connect_workspace (SlWindow       *self);
void _sl_window_connect_jobs      (SlWindow       *self);
void _sl_window_show_front_details (SlWindow     *self,
                                    PanelWidget  *front);
void _sl_window_details_show_item (SlWindow      *self,
                                   GObject       *item);
void _sl_window_class_add_job_actions (GtkWidgetClass *widget_class);
/* Asks what becomes of a running job before the window closes; FALSE
 * when nothing runs and the window may close now. */
gboolean _sl_window_ask_before_closing (SlWindow *self);

G_END_DECLS
