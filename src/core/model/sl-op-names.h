/* sl-op-names.h: the ops a link names, matched as the profiler's files
 * name them
 *
 * A link from one view to another names ops exactly (an Operators row,
 * a graph node, an advisor finding's ops), never by a piece of text.
 * MindSpore writes an op's full name ("Default/net/dense1-Dense/MatMul-op4")
 * in the op tables and the graph, but only its last part ("MatMul-op4") on
 * the timeline: a name in the set matches itself, and a name without a
 * scope matches a scoped name ending in it, both ways. Case counts; no
 * character is special.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlOpNames SlOpNames;

SlOpNames  *sl_op_names_new      (const char * const *names);
void        sl_op_names_free     (SlOpNames          *self);
guint       sl_op_names_get_size (SlOpNames          *self);
gboolean    sl_op_names_contains (SlOpNames          *self,
                                  const char         *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlOpNames, sl_op_names_free)

G_END_DECLS
