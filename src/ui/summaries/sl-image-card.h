/* sl-image-card.h: the images of one tag of one run, step by step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-image-series.h"

G_BEGIN_DECLS

#define SL_TYPE_IMAGE_CARD (sl_image_card_get_type ())
G_DECLARE_FINAL_TYPE (SlImageCard, sl_image_card, SL, IMAGE_CARD, GtkBox)

GtkWidget  *sl_image_card_new            (SlImageSeries *series,
                                          const char    *run_name);
const char *sl_image_card_get_tag        (SlImageCard   *self);
void        sl_image_card_set_step_index (SlImageCard   *self,
                                          guint          index);
void        sl_image_card_set_adjustment (SlImageCard   *self,
                                          double         brightness,
                                          double         contrast);
GdkTexture *sl_image_card_get_texture    (SlImageCard   *self);
const char *sl_image_card_get_error      (SlImageCard   *self);

gboolean       sl_image_card_refresh        (SlImageCard   *self);
guint          sl_image_card_get_step_index (SlImageCard   *self);

G_END_DECLS
