/* sl-pipeline-check.h: what the MindX SDK's stream manager would reject
 *
 * The rules are those of FORMATS.md §7: element keys, factories and
 * plugin names, required properties, links (targets, ports, repeated
 * destinations, loops, unlinked pads), repeated names, appsink names, the
 * element limit, deviceId, and model and config paths missing from the
 * project. Each problem names its element and points at the key or value
 * (line and column). A plugin the SDK does not ship and a path missing
 * here are warnings (apps register their own plugins; files may exist only
 * on the target); everything else is an error.
 *
 * The SDK's plugin names are a static table here, so a checkout and an
 * installed build agree without a data file to find. Users add the names
 * of their own plugins, one a line ('#' starts a comment), in
 * $XDG_CONFIG_HOME/sightline/mindx-plugins.txt.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-pipeline.h"

G_BEGIN_DECLS

#define SL_PIPELINE_MAX_ELEMENTS 5120

/* Whether @name is a plugin the SDK ships. */
gboolean    sl_pipeline_check_is_sdk_plugin     (const char  *name);
/* Names from a plugin list file's text: one a line, '#' comments. */
GHashTable *sl_pipeline_check_parse_plugins     (const char  *text);
/* The user's own plugin names ($XDG_CONFIG_HOME/sightline/mindx-plugins.txt);
 * an empty set when the file does not exist. */
GHashTable *sl_pipeline_check_load_user_plugins (GError     **error);
/* The folder relative paths in a pipeline start from: the folder above
 * the pipeline's when that is called pipeline or pipelines (the SDK
 * samples' layout), else the pipeline's own. */
char       *sl_pipeline_check_guess_project_dir (const char  *pipeline_path);

/* Returns the pipeline's reading problems followed by what the check
 * finds, ordered by position in the file. @project_dir (or %NULL for the
 * guess above) is where model and config paths are looked up;
 * @extra_plugins (or %NULL) holds plugin names to accept besides the SDK's.
 * Looks at the disk, so never on the main thread. */
GPtrArray  *sl_pipeline_check                   (SlPipeline  *pipeline,
                                                 const char  *project_dir,
                                                 GHashTable  *extra_plugins);

G_END_DECLS
