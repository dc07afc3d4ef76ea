/* sl-graph-reader.h: MindSpore and TensorFlow graphs from .pb files and summaries
 *
 * A standalone .pb holds a bare GraphProto or a ModelProto with one in
 * field 4; a summary's graph_def event holds a GraphProto. The reader
 * reads the bytes both ways and keeps the reading that yields more nodes
 * (a tie goes to the one without damage, then to GraphProto). The two
 * never both succeed on real files: a GraphProto starts with nodes
 * (field 1, length-delimited), a ModelProto with ir_version (field 1,
 * varint), and each is a wire type error for the other.
 *
 * TensorFlow's GraphDef (TensorBoard's graph_def and meta_graph_def
 * events, a .pb written by tf.io.write_graph) goes to the GraphDef reader
 * instead, when sl_graph_def_sniff() tells it from the two by the shapes
 * of its first fields (see sl-graph-def-reader.c).
 *
 * Damaged bytes keep what was good: a bounds-checked walker checks every
 * field against the schema before protobuf-c sees it (so hostile nesting
 * cannot exhaust the stack), and when the whole message does not decode
 * it unpacks nodes, parameters and constants one at a time, skipping the
 * broken ones and stopping where the framing breaks, with a problem that
 * gives the byte offset and the reason.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph.h"

G_BEGIN_DECLS

/* Messages nested deeper than this are damage (ValueProto, TypeProto and
 * GraphProto can nest each other without end). */
#define SL_GRAPH_READER_MAX_NESTING 64

SlGraph   *sl_graph_reader_decode (GBytes        *bytes,
                                   const char    *path,
                                   GError       **error);
SlGraph   *sl_graph_reader_decode_data (const guint8 *data,
                                   gsize          size,
                                   const char    *path,
                                   GError       **error);
GPtrArray *sl_graph_reader_load   (const char    *path,
                                   GCancellable  *cancellable,
                                   GError       **error);
GPtrArray *sl_graph_reader_load_full (const char    *path,
                                      GPtrArray     *problems,
                                      GCancellable  *cancellable,
                                      GError       **error);

G_END_DECLS
