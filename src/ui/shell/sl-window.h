/* sl-window.h: the main window: header bar, dock, documents and panels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-job-record.h"

#include <adwaita.h>

#include <libpanel.h>

#include "sl-folder.h"
#include "sl-problem.h"
#include "sl-application.h"

G_BEGIN_DECLS

#define SL_TYPE_WINDOW (sl_window_get_type ())
G_DECLARE_FINAL_TYPE (SlWindow, sl_window, SL, WINDOW, AdwApplicationWindow)

SlWindow    *sl_window_new                (SlApplication *app);
SlFolder    *sl_window_open_path          (SlWindow      *self,
                                           const char    *path);
GListModel  *sl_window_get_folders        (SlWindow      *self);
void         sl_window_restore_folders    (SlWindow      *self);
void         sl_window_show_job_log       (SlWindow      *self,
                                           SlJobRecord   *job);
gboolean     sl_window_run_on_target      (SlWindow           *self,
                                           gint64              target_id,
                                           const char         *command_line,
                                           const char         *project_dir,
                                           const char         *pull_dirs,
                                           const char         *remote_dir,
                                           const char * const *excludes,
                                           GError            **error);
void         sl_window_open_profile       (SlWindow      *self,
                                           const char    *path);
void         sl_window_show_in_timeline   (SlWindow      *self,
                                           const char    *path,
                                           const char    *search,
                                           gint64         start_ns,
                                           gint64         end_ns,
                                           gint64         origin_ns);
void         sl_window_remove_folder      (SlWindow      *self,
                                           const char    *path);
guint        sl_window_get_n_scanning     (SlWindow      *self);
gboolean     sl_window_is_busy            (SlWindow      *self);
PanelWidget *sl_window_find_panel         (SlWindow      *self,
                                           const char    *id);
PanelWidget *sl_window_find_document      (SlWindow      *self,
                                           const char    *id);
guint        sl_window_get_n_documents    (SlWindow      *self);
void         sl_window_save_state         (SlWindow      *self);
void         sl_window_reset_layout       (SlWindow      *self);
gboolean     sl_window_move_panel         (SlWindow      *self,
                                           const char    *panel_id,
                                           const char    *area_id);
void         sl_window_open_scalars       (SlWindow      *self,
                                           const char    *path);
void         sl_window_open_timeline      (SlWindow      *self,
                                           const char    *path);
char        *sl_window_describe_layout    (SlWindow      *self);
void         sl_window_show_toast         (SlWindow      *self,
                                           const char    *message);
void         sl_window_add_problem        (SlWindow      *self,
                                           SlProblem     *problem);
void         sl_window_run_command        (SlWindow      *self,
                                           const char    *command_line,
                                           const char    *working_dir);
void         sl_window_run_argv           (SlWindow           *self,
                                           const char * const *argv,
                                           const char         *working_dir);

G_END_DECLS
