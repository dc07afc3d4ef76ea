/* graph-small.h: the small graph the graph search, finder and scene
 * builder tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "graph-fixture.h"
#include "sl-graph-reader.h"

/* net/enc: MatMul-op1..op5 (a group), Add-op6; net/dec: Mul-op7,
 * Mul-op8; the parameter w feeds the MatMuls. */
G_GNUC_UNUSED static SlGraph *
graph_fixture_small (void)
{
  GraphFixture *fx = graph_fixture_new ("g");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *w[] = { "w" };
  SlGraph *graph;

  for (guint i = 0; i < 5; i++)
    g_free (graph_fixture_node (fx, "MatMul", "net/enc", w, 1));
  {
    const char *in[] = { "1" };
    g_autofree char *add = graph_fixture_node (fx, "Add", "net/enc", in, 1);
    const char *in2[] = { add };
    g_autofree char *mul = graph_fixture_node (fx, "Mul", "net/dec", in2, 1);
    const char *in3[] = { mul };

    g_free (graph_fixture_node (fx, "Mul", "net/dec", in3, 1));
  }
  graph_fixture_parameter (fx, "w");
  bytes = graph_fixture_finish (fx, "g", NULL);
  graph_fixture_free (fx);
  graph = sl_graph_reader_decode (bytes, "g.pb", &error);
  g_assert_no_error (error);
  return graph;
}
