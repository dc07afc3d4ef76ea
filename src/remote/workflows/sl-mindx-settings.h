/* sl-mindx-settings.h: a MindX SDK app's settings, as a run configuration keeps them
 *
 * They live in the configuration's "mindx" option group: the SDK home on
 * the target (MX_SDK_HOME), the toolkit (optional), the pipeline file
 * relative to the project and the app's entry script. The entry's
 * arguments are the configuration's own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-run-config-record.h"

G_BEGIN_DECLS

#define SL_MINDX_OPTION_GROUP "mindx"

typedef struct {
  char *sdk_home;   /* absolute, on the target */
  char *toolkit;    /* nullable: the default toolkit */
  char *pipeline;   /* nullable: relative to the project folder */
  char *entry;      /* such as main.py, relative to the remote project folder */
} SlMindxSettings;

SlMindxSettings *sl_mindx_settings_new         (void);
void             sl_mindx_settings_free        (SlMindxSettings          *self);
SlMindxSettings *sl_mindx_settings_copy        (const SlMindxSettings    *self);
/* The "mindx" group of @config; the entry falls back to its command. */
SlMindxSettings *sl_mindx_settings_from_config (SlRunConfigRecord        *config);
/* Replaces the "mindx" group of @config (the other groups are kept) and
 * makes the entry the configuration's command. */
void             sl_mindx_settings_store       (const SlMindxSettings    *self,
                                                SlRunConfigRecord        *config);
/* Each check names the field it is about. */
gboolean         sl_mindx_settings_check_sdk_home (const char            *sdk_home,
                                                   GError               **error);
gboolean         sl_mindx_settings_check_entry (const char               *entry,
                                                GError                  **error);
/* The pipeline's path on this computer: @pipeline under @project_dir. */
char            *sl_mindx_settings_dup_pipeline_path (const SlMindxSettings *self,
                                                      const char            *project_dir);
/* The pipeline is named, relative, inside the project and there: cheap
 * enough for every keystroke. */
gboolean         sl_mindx_settings_check_pipeline_path (const char       *project_dir,
                                                        const char       *pipeline,
                                                        GError          **error);
/* The above, and the pipeline reads as JSON. Reads the file, so never on
 * the main thread; the async form runs it in a worker. */
gboolean         sl_mindx_settings_check_pipeline (const char            *project_dir,
                                                   const char            *pipeline,
                                                   GError               **error);
void             sl_mindx_settings_check_pipeline_async  (const char          *project_dir,
                                                          const char          *pipeline,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean         sl_mindx_settings_check_pipeline_finish (GAsyncResult        *result,
                                                          GError             **error);
/* All of the above; the first failure in @error. Reads the pipeline. */
gboolean         sl_mindx_settings_validate    (const SlMindxSettings    *self,
                                                const char               *project_dir,
                                                GError                  **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlMindxSettings, sl_mindx_settings_free)

G_END_DECLS
