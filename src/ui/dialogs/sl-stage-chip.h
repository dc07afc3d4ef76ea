/* sl-stage-chip.h: one stage of a run as the Profile dialog's progress row
 * shows it, its title beside an icon for its state or a spinner while it runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum {
  SL_STAGE_CHIP_PENDING,
  SL_STAGE_CHIP_ACTIVE,
  SL_STAGE_CHIP_DONE,
  SL_STAGE_CHIP_SKIPPED,
  SL_STAGE_CHIP_FAILED,
  SL_STAGE_CHIP_CANCELLED,
} SlStageChipState;

#define SL_TYPE_STAGE_CHIP_STATE (sl_stage_chip_state_get_type ())
GType sl_stage_chip_state_get_type (void);

#define SL_TYPE_STAGE_CHIP (sl_stage_chip_get_type ())
G_DECLARE_FINAL_TYPE (SlStageChip, sl_stage_chip, SL, STAGE_CHIP, GtkBox)

GtkWidget        *sl_stage_chip_new       (const char       *title);
const char       *sl_stage_chip_get_title (SlStageChip      *self);
SlStageChipState  sl_stage_chip_get_state (SlStageChip      *self);
void              sl_stage_chip_set_state (SlStageChip      *self,
                                           SlStageChipState  state);

G_END_DECLS
