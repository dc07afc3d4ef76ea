/* sl-scalars-page.h: the Scalars document, a chart card per tag with the
 * runs of a folder overlaid
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"

#include "sl-scalar-series.h"
#include "sl-scalar-chart.h"
#include "sl-summary-reader.h"

G_BEGIN_DECLS

#define SL_TYPE_SCALARS_PAGE (sl_scalars_page_get_type ())
G_DECLARE_FINAL_TYPE (SlScalarsPage, sl_scalars_page, SL, SCALARS_PAGE, SlDocument)

GtkWidget  *sl_scalars_page_new            (const char    *path,
                                            const char    *title);
const char *sl_scalars_page_get_path       (SlScalarsPage *self);
guint       sl_scalars_page_get_n_cards    (SlScalarsPage *self);
guint       sl_scalars_page_get_n_visible_cards (SlScalarsPage *self);
guint       sl_scalars_page_get_n_histogram_cards (SlScalarsPage *self);
guint       sl_scalars_page_get_n_image_cards (SlScalarsPage *self);
guint       sl_scalars_page_get_n_tensor_views (SlScalarsPage *self);
GtkWidget  *sl_scalars_page_get_tensor_view (SlScalarsPage *self,
                                             const char    *run,
                                             const char    *tag);
GtkWidget  *sl_scalars_page_get_image_card (SlScalarsPage *self,
                                            guint          index);
void        sl_scalars_page_show_view      (SlScalarsPage *self,
                                            const char    *view);
void        sl_scalars_page_show_histograms (SlScalarsPage *self,
                                             guint          mode);
guint       sl_scalars_page_get_n_runs     (SlScalarsPage *self);
SlScalarSeries *sl_scalars_page_lookup_series (SlScalarsPage *self,
                                               const char    *run,
                                               const char    *tag);
void        sl_scalars_page_set_filter     (SlScalarsPage *self,
                                            const char    *regex);
SlSummaryReader *sl_scalars_page_get_reader (SlScalarsPage *self);
SlScalarChart *sl_scalars_page_get_chart   (SlScalarsPage *self,
                                            const char    *tag);
GtkWidget  *sl_scalars_page_get_card       (SlScalarsPage *self,
                                            const char    *tag);
GtkWidget  *sl_scalars_page_get_histogram_card (SlScalarsPage *self,
                                                guint          index);
void        sl_scalars_page_toggle_tag_in_chart (SlScalarsPage *self,
                                                 const char    *tag,
                                                 const char    *other_tag);
void        sl_scalars_page_set_threshold  (SlScalarsPage    *self,
                                            const char       *tag,
                                            SlChartThreshold  mode,
                                            double            value);

G_END_DECLS
