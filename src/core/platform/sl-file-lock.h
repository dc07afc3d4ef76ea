/* sl-file-lock.h: whether another process holds a lock on part of a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SL_FILE_LOCK_NONE,      /* no other process holds a lock there, or no file */
  SL_FILE_LOCK_HELD,      /* another process holds a lock there */
  SL_FILE_LOCK_UNKNOWN,   /* it cannot be told on this system or for this file */
} SlFileLockState;

SlFileLockState sl_file_lock_test (const char *path,
                                   gint64      start,
                                   gint64      length);

G_END_DECLS
