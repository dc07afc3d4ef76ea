/* sl-tensor-frame.h: one step of a tensor seen through a slice, analysed
 *
 * Everything a tensor view draws, computed once (in a worker for large
 * tensors) and then only read: the values, the slice, the statistics of
 * the whole tensor and of the view, the histogram of the view and the
 * heatmap colours of its cells.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-tensor-slice.h"
#include "sl-tensor-stats.h"

G_BEGIN_DECLS

/* Beyond this many cells a side, the heatmap image samples the view. */
#define SL_TENSOR_FRAME_MAX_IMAGE_SIDE 4096

typedef enum {
  SL_TENSOR_PALETTE_SEQUENTIAL,  /* values of one sign: dark to light */
  SL_TENSOR_PALETTE_DIVERGING,   /* both signs: blue, white at 0, red */
} SlTensorPalette;

typedef enum {
  SL_TENSOR_SPECIAL_NAN,
  SL_TENSOR_SPECIAL_POS_INF,
  SL_TENSOR_SPECIAL_NEG_INF,
} SlTensorSpecial;

typedef struct {
  /*< private >*/
  gatomicrefcount    ref_count;
  /*< public >*/
  gint64             step;
  int                dtype;
  guint              n_dims;
  gint64             dims[SL_TENSOR_MAX_DIMS];
  GBytes            *values;       /* doubles, row-major */
  SlTensorSlice     *slice;
  gboolean           computed;
  SlTensorStats      full;
  SlTensorStats      view;
  SlTensorHistogram *histogram;
  SlTensorPalette    palette;
  double             color_lo;     /* the value drawn with the first colour */
  double             color_hi;
  guint              image_width;
  guint              image_height;
  guint32           *image;        /* opaque 0xAARRGGBB, image_width × image_height */
} SlTensorFrame;

SlTensorFrame *sl_tensor_frame_new          (gint64               step,
                                             int                  dtype,
                                             const gint64        *dims,
                                             guint                n_dims,
                                             GBytes              *values,
                                             const SlTensorSlice *slice);
SlTensorFrame *sl_tensor_frame_ref          (SlTensorFrame       *self);
void           sl_tensor_frame_unref        (SlTensorFrame       *self);
gboolean       sl_tensor_frame_compute      (SlTensorFrame       *self,
                                             const SlTensorStats *full,
                                             GCancellable        *cancellable);
const double  *sl_tensor_frame_get_values   (SlTensorFrame       *self,
                                             gsize               *n_values);
double         sl_tensor_frame_get_cell     (SlTensorFrame       *self,
                                             gint64               row,
                                             gint64               col);
void           sl_tensor_palette_color      (SlTensorPalette      palette,
                                             double               t,
                                             double              *rgb);
void           sl_tensor_special_color      (SlTensorSpecial      special,
                                             double              *rgb);
guint32        sl_tensor_frame_color_of     (SlTensorFrame       *self,
                                             double               value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlTensorFrame, sl_tensor_frame_unref)

G_END_DECLS
