/* sl-hparams-plugin.h: TensorBoard's HParams plugin data, into a run's lineage
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-summary-run.h"

G_BEGIN_DECLS

/* The plugin name TensorBoard gives the summaries that carry HParams data. */
#define SL_HPARAMS_PLUGIN_NAME "hparams"

gboolean sl_hparams_plugin_read (SlSummaryRun  *run,
                                 const guint8  *content,
                                 gsize          len);

G_END_DECLS
