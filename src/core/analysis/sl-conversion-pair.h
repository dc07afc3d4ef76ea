/* sl-conversion-pair.h: which model of a folder ATC converted into which
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether @path is an offline model ATC wrote (.om). */
gboolean sl_conversion_pair_is_converted (const char         *path);
/* Of @paths (%NULL-terminated), the index of the first offline model
 * and of its source: the model with the same name but for the extension,
 * else the first model that is no offline model. FALSE when the paths
 * hold no such pair. */
gboolean sl_conversion_pair_pick         (const char * const *paths,
                                          guint              *source,
                                          guint              *converted);

G_END_DECLS
