/* sl-conversion-row.h: one row of the conversion table: a converted op, or
 * a source op no converted op stands for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-conversion-match.h"

G_BEGIN_DECLS

/* The row's status: a converted op's, or removed. */
typedef enum {
  SL_CONVERSION_ROW_KEPT = SL_CONVERSION_KEPT,
  SL_CONVERSION_ROW_FUSED = SL_CONVERSION_FUSED,
  SL_CONVERSION_ROW_INSERTED = SL_CONVERSION_INSERTED,
  SL_CONVERSION_ROW_REMOVED,
} SlConversionRowStatus;

#define SL_TYPE_CONVERSION_ROW (sl_conversion_row_get_type ())
G_DECLARE_FINAL_TYPE (SlConversionRow, sl_conversion_row, SL, CONVERSION_ROW, GObject)

/* Every converted op of @match, then every removed source op. */
GListModel            *sl_conversion_row_list_new        (SlConversionMatch *match);

SlConversionRowStatus  sl_conversion_row_get_status      (SlConversionRow   *self);
/* The converted op's name; "" for a removed op. */
const char            *sl_conversion_row_get_name        (SlConversionRow   *self);
const char            *sl_conversion_row_get_op_type     (SlConversionRow   *self);
guint                  sl_conversion_row_get_n_sources   (SlConversionRow   *self);
/* @found: (out) (optional): whether the source model holds it */
const char            *sl_conversion_row_get_source      (SlConversionRow   *self,
                                                          guint              index,
                                                          gboolean          *found);
char                  *sl_conversion_row_dup_sources     (SlConversionRow   *self);
const char            *sl_conversion_row_status_to_label (SlConversionRowStatus status);

G_END_DECLS
