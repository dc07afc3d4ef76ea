/* sl-histogram-card.h: the distributions of one tag of one run, step by step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-histogram-chart.h"

G_BEGIN_DECLS

#define SL_TYPE_HISTOGRAM_CARD (sl_histogram_card_get_type ())
G_DECLARE_FINAL_TYPE (SlHistogramCard, sl_histogram_card, SL, HISTOGRAM_CARD, GtkBox)

GtkWidget         *sl_histogram_card_new            (SlHistogramSeries *series,
                                                     const char        *run_name,
                                                     guint              palette_index);
const char        *sl_histogram_card_get_tag        (SlHistogramCard   *self);
SlHistogramChart  *sl_histogram_card_get_chart      (SlHistogramCard   *self);
SlHistogramMode    sl_histogram_card_get_mode       (SlHistogramCard   *self);
void               sl_histogram_card_set_mode       (SlHistogramCard   *self,
                                                     SlHistogramMode    mode);
guint              sl_histogram_card_get_step_index (SlHistogramCard   *self);
void               sl_histogram_card_set_step_index (SlHistogramCard   *self,
                                                     guint              index);
gboolean           sl_histogram_card_refresh        (SlHistogramCard   *self);

G_END_DECLS
