/* sl-demo-data.h: the demo training job's generated two-spiral dataset
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint   n;
  float  *x;      /* n rows of 2 features, row-major */
  guint8 *label;  /* 0 or 1 */
} SlDemoData;

SlDemoData *sl_demo_data_new_spirals (guint       n,
                                      float       noise,
                                      guint32     seed);
void        sl_demo_data_free        (SlDemoData *data);
void        sl_demo_data_shuffle     (SlDemoData *data,
                                      GRand      *rand);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlDemoData, sl_demo_data_free)

G_END_DECLS
