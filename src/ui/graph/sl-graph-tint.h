/* sl-graph-tint.h: which drawn items a tensor comparison tints, and how
 *
 * Each item gets the worst verdict of the ops below it, so a collapsed
 * scope shows what is inside: sl_graph_tint_items() appends the tinted
 * items (not the root) to @ids and their verdicts to @values. The legend
 * counts the ops, not the scopes, so its numbers add up to the graph's
 * ops; @counts is added to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-graph-verdict-legend.h"
#include "sl-graph-verdicts.h"

G_BEGIN_DECLS

void sl_graph_tint_items     (SlGraph         *graph,
                              SlGraphVerdicts *verdicts,
                              GArray          *ids,
                              GByteArray      *values);
void sl_graph_tint_count_ops (SlGraph         *graph,
                              SlGraphVerdicts *verdicts,
                              guint            counts[SL_GRAPH_LEGEND_N_ROWS]);

G_END_DECLS
