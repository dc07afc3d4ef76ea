/* sl-direct-job-backend.h: jobs started as their own process group
 *
 * The job folder gets a wrapper script, run.sh, started with setsid and
 * nohup so it outlives the connection. The wrapper writes its process
 * group id to "pid", runs the command with stdout and stderr in "log",
 * and writes the command's exit status to "exit_code" when it ends.
 * Stopping sends SIGTERM to the process group, then SIGKILL after a
 * grace period. The same layout serves this computer and servers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-job-backend.h"
#include "sl-target-shell.h"

G_BEGIN_DECLS

#define SL_TYPE_DIRECT_JOB_BACKEND (sl_direct_job_backend_get_type ())
G_DECLARE_FINAL_TYPE (SlDirectJobBackend, sl_direct_job_backend, SL, DIRECT_JOB_BACKEND, GObject)

SlJobBackend *sl_direct_job_backend_new          (SlTargetShell *shell);
char         *sl_direct_job_backend_dup_wrapper  (SlJob         *job);
char         *sl_direct_job_backend_dup_launch_command (SlJob   *job);

G_END_DECLS
