/* sl-tuner-page.h: the Tuner document, a hyperparameter study of one
 * configuration file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-data-table.h"
#include "sl-document.h"
#include "sl-tuner-config.h"

G_BEGIN_DECLS

#define SL_TYPE_TUNER_PAGE (sl_tuner_page_get_type ())
G_DECLARE_FINAL_TYPE (SlTunerPage, sl_tuner_page, SL, TUNER_PAGE, SlDocument)

SlTunerConfig *sl_tuner_page_get_config    (SlTunerPage  *self);
gboolean       sl_tuner_page_start         (SlTunerPage  *self,
                                            const char   *target_name,
                                            guint         n_trials,
                                            guint         parallel,
                                            GError      **error);
void           sl_tuner_page_pause         (SlTunerPage  *self);
void           sl_tuner_page_resume        (SlTunerPage  *self);
void           sl_tuner_page_stop          (SlTunerPage  *self);
gboolean       sl_tuner_page_is_running    (SlTunerPage  *self);
guint          sl_tuner_page_get_n_trials  (SlTunerPage  *self);
SlDataTable   *sl_tuner_page_get_table     (SlTunerPage  *self);
guint          sl_tuner_page_get_n_slices  (SlTunerPage  *self);
guint          sl_tuner_page_get_n_bands   (SlTunerPage  *self);
gboolean       sl_tuner_page_is_refitting  (SlTunerPage  *self);
char          *sl_tuner_page_dup_form_yaml (SlTunerPage  *self,
                                            GError      **error);
void           sl_tuner_page_set_form_parameters (SlTunerPage *self,
                                            const char   *text);
void           sl_tuner_page_set_form_fields (SlTunerPage *self,
                                            const char   *command,
                                            const char   *summary_base_dir,
                                            const char   *target_name);
void           sl_tuner_page_save_form     (SlTunerPage  *self);

G_END_DECLS
