/* sl-run-config-row.h: a run configuration in the Project dialog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* The run configuration's texts, one entry row each. */
typedef enum {
  SL_RUN_CONFIG_FIELD_NAME,
  SL_RUN_CONFIG_FIELD_COMMAND,
  SL_RUN_CONFIG_FIELD_ARGUMENTS,
  SL_RUN_CONFIG_FIELD_ENVIRONMENT,
  SL_RUN_CONFIG_FIELD_FOLDER,
  SL_RUN_CONFIG_FIELD_PULL,
  SL_RUN_CONFIG_FIELD_MINDX_SDK_HOME,
  SL_RUN_CONFIG_FIELD_MINDX_TOOLKIT,
  SL_RUN_CONFIG_FIELD_MINDX_PIPELINE,
  SL_RUN_CONFIG_FIELD_MINDX_ENTRY,
  SL_RUN_CONFIG_N_FIELDS
} SlRunConfigField;

#define SL_TYPE_RUN_CONFIG_ROW (sl_run_config_row_get_type ())
G_DECLARE_FINAL_TYPE (SlRunConfigRow, sl_run_config_row, SL, RUN_CONFIG_ROW, AdwExpanderRow)

GtkWidget    *sl_run_config_row_new               (void);
AdwEntryRow  *sl_run_config_row_get_entry         (SlRunConfigRow   *self,
                                                   SlRunConfigField  field);
AdwComboRow  *sl_run_config_row_get_kind_row      (SlRunConfigRow   *self);
AdwActionRow *sl_run_config_row_get_error_row     (SlRunConfigRow   *self);
void          sl_run_config_row_set_slurm_summary (SlRunConfigRow   *self,
                                                   const char       *summary);

G_END_DECLS
