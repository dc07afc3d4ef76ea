/* sl-demo-plot.h: the demo job's images, drawn with cairo into PNG bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-demo-data.h"
#include "sl-demo-mlp.h"

G_BEGIN_DECLS

GBytes *sl_demo_plot_samples           (const SlDemoData *data,
                                        int               size);
GBytes *sl_demo_plot_decision_boundary (SlDemoMlp        *mlp,
                                        const SlDemoData *data,
                                        int               size);

G_END_DECLS
