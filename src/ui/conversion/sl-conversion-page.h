/* sl-conversion-page.h: the ops of a converted model against its source
 * model's: kept, fused, inserted and removed, each linked to its graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"
#include "sl-conversion-match.h"

G_BEGIN_DECLS

#define SL_TYPE_CONVERSION_PAGE (sl_conversion_page_get_type ())
G_DECLARE_FINAL_TYPE (SlConversionPage, sl_conversion_page, SL, CONVERSION_PAGE, SlDocument)

/* The document's address holds the source model, then the converted
 * model (see sl_document_address_new_pair()). */
/* The request that also opens both graphs once the table is ready. */
GVariant          *sl_conversion_page_new_open_request (void);
/* (nullable): the match, once loaded */
SlConversionMatch *sl_conversion_page_get_match        (SlConversionPage *self);
/* The rows as listed (filtered), of SlConversionRow. */
GListModel        *sl_conversion_page_get_rows         (SlConversionPage *self);
/* -1 for every row, or an SlConversionRowStatus. */
void               sl_conversion_page_set_status_filter (SlConversionPage *self,
                                                        int               status);
void               sl_conversion_page_select           (SlConversionPage *self,
                                                        guint             position);

G_END_DECLS
