/* sl-graph-tint.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-graph-tint.h"

/* Each item gets the worst verdict of the ops below it, so a collapsed
 * scope shows what is inside. */
static GArray *
item_verdicts (SlGraph         *graph,
               SlGraphVerdicts *verdicts)
{
  guint n_items = sl_graph_get_n_items (graph), n_ops = sl_graph_get_n_ops (graph);
  GArray *worst = g_array_new (FALSE, FALSE, sizeof (gint8));

  g_array_set_size (worst, n_items);
  memset (worst->data, SL_GRAPH_VERDICT_NONE, n_items);
  for (guint e = 0; e < n_ops; e++)
    {
      int v = sl_graph_verdicts_get (verdicts, e);

      for (guint item = v != SL_GRAPH_VERDICT_NONE ? sl_graph_element_get_item (graph, e) : SL_GRAPH_NONE;
           item != SL_GRAPH_NONE && item < n_items && g_array_index (worst, gint8, item) < v;
           item = item == 0 ? SL_GRAPH_NONE : sl_graph_item_get_parent (graph, item))
        g_array_index (worst, gint8, item) = v;
    }
  return worst;
}

void
sl_graph_tint_items (SlGraph         *graph,
                     SlGraphVerdicts *verdicts,
                     GArray          *ids,
                     GByteArray      *values)
{
  g_autoptr(GArray) worst = item_verdicts (graph, verdicts);

  for (guint32 item = 1; item < worst->len; item++)
    if (g_array_index (worst, gint8, item) != SL_GRAPH_VERDICT_NONE)
      {
        guint8 v = (guint8) g_array_index (worst, gint8, item);

        g_array_append_val (ids, item);
        g_byte_array_append (values, &v, 1);
      }
}

/* Counts the ops, not the scopes, so the numbers add up to the graph's ops. */
void
sl_graph_tint_count_ops (SlGraph         *graph,
                         SlGraphVerdicts *verdicts,
                         guint            counts[SL_GRAPH_LEGEND_N_ROWS])
{
  for (guint e = 0; e < sl_graph_get_n_ops (graph); e++)
    {
      int v = sl_graph_verdicts_get (verdicts, e);

      counts[v >= 0 && v < SL_GRAPH_LEGEND_NOT_COMPARED ? v : SL_GRAPH_LEGEND_NOT_COMPARED]++;
    }
}
