/* sl-workflow-preflight.h: what a workflow needs on the target, checked before it starts
 *
 * A small POSIX script run on the target prints one "sl-preflight KEY
 * VALUE" line a check (the environment script, the tool on PATH, the
 * toolkit, which Python `python` is, free disk in the output folder,
 * npu-smi's view of the device); the parser turns that into Problems,
 * each with what to do about it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *tool;          /* "msprof", "atc", or NULL */
  const char *env_script;    /* sourced first, or NULL */
  const char *output_dir;    /* whose free space counts, or NULL */
  guint64     min_free_kb;
  int         device_id;     /* checked with npu-smi info, or -1 */
  gboolean    needs_python;  /* the program runs with `python` */
  gboolean    python_note;   /* the tool does not run `python`: its version is only a note */
} SlPreflightSpec;

char      *sl_preflight_dup_script (const SlPreflightSpec *spec);
/* Problems in the order of the checks; empty when all is well. */
GPtrArray *sl_preflight_parse      (const SlPreflightSpec *spec,
                                    const char            *output);

G_END_DECLS
