/* sl-dataset-graph-reader.h: decodes MindSpore's DatasetGraph message
 *
 * The bytes are a serialized DatasetGraph of the lineage schema
 * (FORMATS.md §1), as sl_summary_run_get_dataset_graph() keeps the last
 * one of a run. The wire format is read by hand, without recursion: a
 * tree as deep as its bytes allow costs heap, not stack. Damage (a bad
 * length, a truncated field, an unknown wire type) ends the node it is in
 * and becomes a problem with the byte offset; what was read stays, and
 * the other nodes are still read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-dataset-graph.h"

G_BEGIN_DECLS

/* More nodes than any pipeline has: the rest is left out, and said. */
#define SL_DATASET_GRAPH_MAX_NODES 10000

/* Never %NULL; @path (nullable) names the bytes' file in problems. */
SlDatasetGraph *sl_dataset_graph_reader_decode (const char   *path,
                                                const guint8 *data,
                                                gsize         length);
SlDatasetGraph *sl_dataset_graph_reader_decode_bytes (const char *path,
                                                      GBytes     *bytes);

G_END_DECLS
