/* sl-mindx-env.h: the environment a MindX SDK app runs in, as the SDK's run.sh sets it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SL_MINDX_DEFAULT_TOOLKIT "/usr/local/Ascend/ascend-toolkit/latest"

/* Shell lines exporting MX_SDK_HOME, LD_LIBRARY_PATH (the SDK's lib and
 * opensource lib folders, the toolkit's acllib), GST_PLUGIN_SCANNER,
 * GST_PLUGIN_PATH and PYTHONPATH; @toolkit_home may be %NULL for the
 * default. %NULL with @error when a path is unusable. */
char  *sl_mindx_dup_env_setup (const char          *sdk_home,
                               const char          *toolkit_home,
                               GError             **error);
/* The same as NAME=VALUE pairs, for this computer and for tests. */
GStrv  sl_mindx_dup_env       (const char          *sdk_home,
                               const char          *toolkit_home);
/* The app's command: python3 ENTRY [ARGS] (the SDK's samples' run.sh). */
GStrv  sl_mindx_dup_argv      (const char          *entry,
                               const char * const  *args,
                               GError             **error);

G_END_DECLS
