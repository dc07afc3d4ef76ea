/* sl-pipeline-reader.h: reads MindX SDK stream pipelines (*.pipeline)
 *
 * yajl calls back for every key and value, so repeated keys are seen and
 * every one gets its byte range, line and column. Damaged JSON keeps what
 * was read before the damage and becomes an SlProblem with its position.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-pipeline.h"

G_BEGIN_DECLS

/* Pipelines are written by hand; anything larger is not one. */
#define SL_PIPELINE_READER_MAX_SIZE (64 * 1024 * 1024)

/* Reads a whole file. Returns %NULL only when it cannot be read at all;
 * damage is in the pipeline's problems. */
SlPipeline *sl_pipeline_reader_read_file (GFile         *file,
                                          GCancellable  *cancellable,
                                          GError       **error);
/* The same from memory (tests, fuzzing, the detector); @path names the
 * data in problems. */
SlPipeline *sl_pipeline_reader_read_data (const char    *path,
                                          const guint8  *data,
                                          gsize          length);

G_END_DECLS
