/* sl-profile-settings.h: a profile run configuration's choices, as the Profile dialog keeps them
 *
 * They live in the configuration's "profile" option group: the profiler
 * ("framework": msprof, mindspore or torch_npu), the environment script
 * on the target, the output folder and the msprof options by name
 * ("options": {"task-time": "on", "aic-metrics": "PipeUtilization"}).
 * The program is the configuration's own command, arguments and
 * environment, so a profile configuration wraps a program the way any
 * other configuration runs it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-msprof-command.h"
#include "sl-run-config-record.h"

G_BEGIN_DECLS

#define SL_PROFILE_OPTION_GROUP "profile"

/* "env NAME=VALUE … COMMAND ARGUMENTS…", or just the command and its
 * arguments; NULL when the configuration has no command. */
GStrv            sl_profile_settings_dup_program (SlRunConfigRecord  *config);
/* @argv as a line to read and edit: words quoted only where needed. */
char            *sl_profile_settings_join_argv   (const char * const *argv);
/* Makes @argv the configuration's command, arguments and environment: a
 * leading "env NAME=VALUE …" becomes the environment. */
void             sl_profile_settings_set_program (SlRunConfigRecord  *config,
                                                  const char * const *argv);
/* The command @config profiles with: its program and the "profile"
 * group's choices. A choice that cannot be taken is left at the default
 * and described in @problems (one translated line each). */
SlMsprofCommand *sl_profile_settings_load        (SlRunConfigRecord  *config,
                                                  char              **env_script,
                                                  GPtrArray         **problems);
/* Replaces the "profile" group of @config (the other groups are kept)
 * with @command's choices and @env_script. The program is not touched. */
void             sl_profile_settings_store       (SlMsprofCommand    *command,
                                                  const char         *env_script,
                                                  SlRunConfigRecord  *config);

const char      *sl_profiler_kind_to_id          (SlProfilerKind      kind);
gboolean         sl_profiler_kind_from_id        (const char         *id,
                                                  SlProfilerKind     *kind);

G_END_DECLS
