/* sl-api-levels.h: host API statistics summed per level (AscendCL,
 * Runtime, HCCL, Node, ...), and the levels' names as the tools show them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  char    *level;     /* as the file writes it: "acl", "runtime", "AscendCL" */
  guint    n_apis;
  guint64  count;
  gint64   total_ns;
} SlApiLevel;

/* SlApiLevel of the SlOpRow API rows (core type = level) of @rows,
 * longest total first. */
GPtrArray  *sl_api_levels_compute      (GListModel *rows);
const SlApiLevel *sl_api_levels_find   (GPtrArray  *levels,
                                        const char *level);
/* "AscendCL" for "acl", "Runtime" for "runtime", ...; an unknown level
 * as it is written, "" as "Other". */
const char *sl_api_level_label         (const char *level);
/* What a timeline names the API's calls: msprof and torch_npu write
 * "AscendCL@aclnnMm", the SQLite export "aclnnMm"; a case-insensitive
 * regular expression for both and nothing else. */
char       *sl_api_level_timeline_pattern (const char *name);

G_END_DECLS
