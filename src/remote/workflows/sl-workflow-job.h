/* sl-workflow-job.h: what every workflow does around its job
 *
 * Running the tool as a job recorded in the history, and keeping the
 * job's log, as it streamed, in the cache beside the pulled results so a
 * Problem can name a file on this computer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-remote-run.h"
#include "sl-target.h"

G_BEGIN_DECLS

/* Runs @run as the job @argv, in the history at @store_path; a cancel
 * of @cancellable stops the job and waits for its end, and @error then
 * says what became of it (%G_IO_ERROR_CANCELLED: nothing is left
 * running). @exit_code is -1 unless the job exited. */
gboolean  sl_workflow_run_job        (SlRemoteRun         *run,
                                      const char          *store_path,
                                      const char * const  *argv,
                                      GCancellable        *cancellable,
                                      int                 *exit_code,
                                      GError             **error);
/* Records the workflow's verdict on the job @job_id of the history at
 * @store_path (the default one when %NULL): failed with @reason when the
 * job exited 0 but its output says it failed. */
gboolean  sl_workflow_record_outcome (const char          *store_path,
                                      gint64               job_id,
                                      gboolean             succeeded,
                                      const char          *reason,
                                      GError             **error);
/* Where a file of @target goes in the cache. */
char     *sl_workflow_dup_cache_path (SlTarget            *target,
                                      const char          *remote_path,
                                      GError             **error);
/* Writes @log into the cache at the place of @remote_log; %NULL when
 * there is no log or it cannot be written. */
char     *sl_workflow_save_log       (SlTarget            *target,
                                      const char          *remote_log,
                                      GString             *log);
guint     sl_workflow_count_lines    (GString             *text);
/* A cancel before the job started, or after it ended, in words. */
gboolean  sl_workflow_set_error_if_interrupted_before (GCancellable  *cancellable,
                                                       SlTarget      *target,
                                                       GError       **error);
gboolean  sl_workflow_set_error_if_interrupted_after  (GCancellable  *cancellable,
                                                       SlTarget      *target,
                                                       int            exit_code,
                                                       const char    *left,
                                                       GError       **error);

G_END_DECLS
