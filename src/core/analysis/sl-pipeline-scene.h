/* sl-pipeline-scene.h: one MindX SDK stream laid out as a graph scene
 *
 * Every element of the stream is a box whose id is its index in the
 * stream (repeats included, so a collapsed duplicate is still seen), its
 * name the label and its factory the detail. `next` links are data
 * edges, `nextMeta` links control edges; a link to an element that does
 * not exist has no edge (the check reports it). Elements nothing links to
 * are laid out like any other, and a loop keeps its back edge, drawn
 * going up. Boxes with an error or a warning of the check carry
 * SL_GRAPH_BOX_ERROR or SL_GRAPH_BOX_WARNING.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph-scene.h"
#include "sl-pipeline.h"

G_BEGIN_DECLS

/* Whether @problem (of the check, or of reading) is about element
 * @index of @stream: it names the element and points inside the stream,
 * at that element when its name is repeated. */
gboolean      sl_pipeline_scene_problem_is_about (const SlPipelineStream *stream,
                                                  guint                   index,
                                                  SlProblem              *problem);

/* Lays out @stream; @problems (SlProblem, or %NULL) set the boxes'
 * flags. Runs synchronously: call it on a worker. Returns %NULL with
 * G_IO_ERROR_CANCELLED when cancelled. */
SlGraphScene *sl_pipeline_scene_build            (const SlPipelineStream *stream,
                                                  GPtrArray              *problems,
                                                  GCancellable           *cancellable,
                                                  GError                **error);

G_END_DECLS
