/* sl-path-names.h: short names that still tell a set of paths apart
 *
 * A list of graph items, runs or files often shares a long prefix; what
 * tells the entries apart sits deeper (the layer index of a scope, the
 * run folder). These helpers keep that part and drop what all share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The ellipsis put where scopes were left out. */
#define SL_PATH_NAMES_ELLIPSIS "\u2026"

char **sl_path_names_distinguish (const char * const *paths,
                                  guint               n_paths);
char  *sl_path_names_relative     (const char *path,
                                   const char *base);
char **sl_path_names_run_names    (const char * const *paths,
                                   guint               n_paths);
char **sl_path_names_unique_tails (const char * const *paths,
                                   guint               n_paths);

G_END_DECLS
