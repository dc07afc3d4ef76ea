/* sl-profile-db.h: the SQLite export of msprof and the Ascend profilers
 *
 * msprof_*.db and ascend_pytorch_profiler_<rank>.db: strings are ids into
 * STRING_IDS, times are Unix nanoseconds. Read-only and immutable, so a
 * file still being written or on a read-only mount opens the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

/* Reads info, steps (STEP_TIME), ops (TASK with COMPUTE_TASK_INFO, and
 * COMMUNICATION_OP) and API statistics (CANN_API) into @rank where it has
 * none yet, and builds @rank->trace: device streams, host threads and
 * communication ops. Missing tables or columns are skipped; errors are
 * added to @problems (SlProblem). Returns FALSE when the file could not be
 * opened as a database. */
gboolean sl_profile_db_read (const char    *path,
                             SlProfileRank *rank,
                             GCancellable  *cancellable,
                             GPtrArray     *problems);

G_END_DECLS
