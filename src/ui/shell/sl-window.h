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
#include "sl-document.h"
#include "sl-session.h"

G_BEGIN_DECLS

#define SL_TYPE_WINDOW (sl_window_get_type ())
G_DECLARE_FINAL_TYPE (SlWindow, sl_window, SL, WINDOW, AdwApplicationWindow)

SlWindow    *sl_window_new                (GtkApplication     *application,
                                           SlSession          *session);
SlWorkspace *sl_window_get_workspace      (SlWindow           *self);
SlSession   *sl_window_get_session        (SlWindow           *self);
SlFolder    *sl_window_open_path          (SlWindow           *self,
                                           const char         *path);
SlDocument  *sl_window_open_document      (SlWindow           *self,
                                           const char         *kind_id,
                                           const char         *path,
                                           GObject            *item);
SlDocument  *sl_window_open_address       (SlWindow           *self,
                                           const char         *kind_id,
                                           SlDocumentAddress  *address,
                                           GObject            *item);
void         sl_window_open_item          (SlWindow           *self,
                                           GObject            *item);
gboolean     sl_window_open_finding       (SlWindow           *self,
                                           const char         *kind_id,
                                           const char         *path);
void         sl_window_remove_folder      (SlWindow           *self,
                                           const char         *path);
void         sl_window_show_job_log       (SlWindow           *self,
                                           SlJobRecord        *job);
void         sl_window_run_command        (SlWindow           *self,
                                           const char         *command_line,
                                           const char         *working_dir);
void         sl_window_run_argv           (SlWindow           *self,
                                           const char * const *argv,
                                           const char         *working_dir);
void         sl_window_show_console       (SlWindow           *self);
void         sl_window_show_request       (SlWindow           *self,
                                           const char         *kind,
                                           SlDocumentAddress  *address,
                                           GVariant           *target);
gboolean     sl_window_is_busy            (SlWindow           *self);
PanelWidget *sl_window_find_panel         (SlWindow           *self,
                                           const char         *id);
PanelWidget *sl_window_find_document      (SlWindow           *self,
                                           const char         *id);
guint        sl_window_get_n_documents    (SlWindow           *self);
void         sl_window_save_state         (SlWindow           *self);
void         sl_window_reset_layout       (SlWindow           *self);
gboolean     sl_window_move_panel         (SlWindow           *self,
                                           const char         *panel_id,
                                           const char         *area_id);
char        *sl_window_describe_layout    (SlWindow           *self);
void         sl_window_show_toast         (SlWindow           *self,
                                           const char         *message);
void         sl_window_add_problem        (SlWindow           *self,
                                           SlProblem          *problem);

G_END_DECLS
