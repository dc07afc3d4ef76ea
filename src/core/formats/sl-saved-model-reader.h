/* sl-saved-model-reader.h: TensorFlow SavedModels (saved_model.pb) into the
 * graph model
 *
 * A SavedModel holds one or more meta-graphs; each becomes a graph of its
 * own, named by its tags. See the .c file for the mapping.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-graph.h"

G_BEGIN_DECLS

gboolean   sl_saved_model_sniff         (const guint8  *data,
                                         gsize          size);
GPtrArray *sl_saved_model_decode_graphs (const guint8  *data,
                                         gsize          size,
                                         const char    *path,
                                         GError       **error);

G_END_DECLS
