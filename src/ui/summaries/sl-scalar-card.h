/* sl-scalar-card.h: the chart of one scalar tag, the runs overlaid, with
 * its title, highlight and menu
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-scalar-chart.h"

G_BEGIN_DECLS

#define SL_TYPE_SCALAR_CARD (sl_scalar_card_get_type ())
G_DECLARE_FINAL_TYPE (SlScalarCard, sl_scalar_card, SL, SCALAR_CARD, GtkBox)

GtkWidget          *sl_scalar_card_new                 (const char        *tag,
                                                        GListModel        *all_tags);
const char         *sl_scalar_card_get_tag             (SlScalarCard      *self);
const char         *sl_scalar_card_get_title           (SlScalarCard      *self);
SlScalarChart      *sl_scalar_card_get_chart           (SlScalarCard      *self);
void                sl_scalar_card_set_runs            (SlScalarCard      *self,
                                                        GPtrArray         *runs);
void                sl_scalar_card_set_run_visible     (SlScalarCard      *self,
                                                        const char        *run_name,
                                                        gboolean           visible);
gboolean            sl_scalar_card_refresh             (SlScalarCard      *self);
const char * const *sl_scalar_card_get_extra_tags      (SlScalarCard      *self);
void                sl_scalar_card_set_extra_tags      (SlScalarCard      *self,
                                                        const char * const *tags);
void                sl_scalar_card_toggle_tag          (SlScalarCard      *self,
                                                        const char        *tag);
SlChartThreshold    sl_scalar_card_get_threshold_mode  (SlScalarCard      *self);
double              sl_scalar_card_get_threshold_value (SlScalarCard      *self);
void                sl_scalar_card_set_threshold       (SlScalarCard      *self,
                                                        SlChartThreshold   mode,
                                                        double             value);
gboolean            sl_scalar_card_export              (SlScalarCard      *self,
                                                        const char        *format,
                                                        const char        *path,
                                                        GError           **error);

G_END_DECLS
