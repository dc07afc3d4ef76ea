/* sl-cli.h: sub-commands of sightline-cli
 *
 * Each sub-command lives in its own sl-cli-<name>.c and is listed in the
 * table in sightline-cli.c. They are thin: they parse options, call the
 * core and print, as text or with --json.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "sl-memory-profile.h"
#include "sl-remote-run.h"
#include "sl-target-shell.h"
#include "sl-trace.h"
#include "sl-transfer.h"
#include "sl-workflow.h"
#include "sl-workflow-preflight.h"
#include "sl-workspace-store.h"

G_BEGIN_DECLS

/* job run --config NAME */
SlRunConfigRecord *sl_cli_find_run_config     (SlWorkspaceStore  *store,
                                               const char        *name,
                                               const char        *project_dir,
                                               SlProjectRecord  **project,
                                               GError           **error);
char             **sl_cli_dup_run_config_argv (SlRunConfigRecord *config);

typedef int (*SlCliCommandFunc) (int    argc,
                                 char **argv);

int  sl_cli_advise       (int argc, char **argv);
int  sl_cli_cluster      (int argc, char **argv);
int  sl_cli_compare_profiles (int argc, char **argv);
int  sl_cli_compare_tensors (int argc, char **argv);
int  sl_cli_conversion   (int argc, char **argv);
int  sl_cli_convert      (int argc, char **argv);
int  sl_cli_dataset_graph (int argc, char **argv);
int  sl_cli_detect       (int argc, char **argv);
int  sl_cli_graph        (int argc, char **argv);
int  sl_cli_job          (int argc, char **argv);
int  sl_cli_lineage      (int argc, char **argv);
int  sl_cli_pipeline_check (int argc, char **argv);
int  sl_cli_profile      (int argc, char **argv);
int  sl_cli_profile_run  (int argc, char **argv);
int  sl_cli_pull         (int argc, char **argv);
int  sl_cli_summary      (int argc, char **argv);
int  sl_cli_summary_export (int argc, char **argv);
int  sl_cli_target       (int argc, char **argv);
int  sl_cli_tensor_pairs (int argc, char **argv);
int  sl_cli_trace_slice  (int argc, char **argv);
int  sl_cli_trace_stats  (int argc, char **argv);
int  sl_cli_tune         (int argc, char **argv);
int  sl_cli_workspace    (int argc, char **argv);

gboolean sl_cli_parse_path_options (int           *argc,
                                    char        ***argv,
                                    const char    *command,
                                    const char    *summary,
                                    gboolean      *json,
                                    const char   **path);

/* sl-cli-trace-load.c: PATH to a trace, for every trace command */
SlTrace *sl_cli_load_trace       (const char  *path,
                                  GError     **error);
void     sl_cli_print_trace_problems (SlTrace *trace);
int      sl_cli_trace_exit_status    (SlTrace *trace);
gboolean sl_cli_parse_trace_time (const char  *text,
                                  gint64      *ns);

/* sl-cli-remote.c: targets, shells and progress for job and pull */
SlWorkspaceStore *sl_cli_open_store     (const char                *db_path,
                                         GError                   **error);
SlTarget         *sl_cli_find_target    (SlWorkspaceStore          *store,
                                         const char                *name,
                                         gint64                     target_id,
                                         GError                   **error);
SlTargetShell    *sl_cli_create_shell   (SlTarget                  *target);
void              sl_cli_print_connection_state (SlTargetShellState  state,
                                                 const char         *detail,
                                                 gpointer            user_data);
void              sl_cli_print_progress (const SlTransferProgress  *progress,
                                         gpointer                   user_data);

void sl_cli_json_print      (JsonBuilder *builder);
void sl_cli_json_add_string (JsonBuilder *builder,
                             const char  *name,
                             const char  *value);
void sl_cli_json_add_int    (JsonBuilder *builder,
                             const char  *name,
                             gint64       value);
void sl_cli_json_add_known_int (JsonBuilder *builder,
                                const char  *name,
                                gboolean     known,
                                gint64       value);
void sl_cli_json_add_double (JsonBuilder *builder,
                             const char  *name,
                             double       value);
void sl_cli_json_add_us     (JsonBuilder *builder,
                             const char  *name,
                             gint64       ns);

/* What a command's "problems" member says of each problem: severity,
 * path, offset (and with SL_CLI_PROBLEM_LINE its line) and message. */
typedef enum {
  SL_CLI_PROBLEM_LINE = 1 << 0,
} SlCliProblemFields;

/* The member "problems": an array of SlProblem objects. */
void sl_cli_json_add_problems     (JsonBuilder        *builder,
                                   GPtrArray          *problems,
                                   SlCliProblemFields  fields);
void sl_cli_json_add_problem_list (JsonBuilder        *builder,
                                   GListModel         *problems,
                                   SlCliProblemFields  fields);

void sl_cli_profile_add_memory   (JsonBuilder     *builder,
                                  SlMemoryProfile *memory);
void sl_cli_profile_print_memory (SlMemoryProfile *memory);

/* sl-cli-workflow.c: profile-run, convert and job run --kind mindx */
char     *sl_cli_workflow_dup_env_setup  (const char                *env_script,
                                          const char * const        *environment);
gboolean  sl_cli_workflow_preflight      (SlTargetShell             *shell,
                                          const SlPreflightSpec     *spec,
                                          GPtrArray                 *problems);
void      sl_cli_workflow_print_problems (GPtrArray                 *problems);
void      sl_cli_workflow_add_problems   (JsonBuilder               *builder,
                                          GPtrArray                 *problems);
gboolean  sl_cli_workflow_has_error      (GPtrArray                 *problems);
gboolean  sl_cli_workflow_run            (SlWorkflow                *workflow,
                                          GError                   **error);

/* sl-cli-interrupt.c: Ctrl+C as a cancel */
typedef struct {
  GCancellable *cancellable;
  guint         sigint_id;
  guint         sigterm_id;
} SlCliInterrupt;

void      sl_cli_interrupt_begin         (SlCliInterrupt            *self,
                                          GCancellable              *cancellable);
void      sl_cli_interrupt_end           (SlCliInterrupt            *self);
int       sl_cli_interrupted_exit_status (const GError              *error);

void sl_cli_print_error  (const char *format,
                          ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS
