/* sl-file-lock.c
 *
 * On Unix the advisory record locks of fcntl() are asked for without
 * taking any. Those locks belong to a process, not to a descriptor:
 * closing any descriptor of a file drops every lock this process holds
 * on it. The test opens and closes the file, so callers must only test a
 * file no connection of their own process has open.
 *
 * Elsewhere the answer is "unknown", which callers take as "in use".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-file-lock.h"

#ifdef G_OS_UNIX
# include <errno.h>
# include <fcntl.h>
# include <unistd.h>
# include <glib/gstdio.h>
#endif

/**
 * sl_file_lock_test:
 * @path: the file
 * @start: the first byte of the range
 * @length: how many bytes
 *
 * Looks whether another process holds a lock, shared or exclusive, on any
 * byte of the range, without taking one. Locks this process holds are not
 * seen.
 *
 * Returns: what was found; %SL_FILE_LOCK_NONE when @path does not exist
 */
SlFileLockState
sl_file_lock_test (const char *path,
                   gint64      start,
                   gint64      length)
{
#ifdef G_OS_UNIX
  struct flock lock = { 0 };
  int fd;
  int saved_errno;
  int rc;

  g_return_val_if_fail (path != NULL, SL_FILE_LOCK_UNKNOWN);
  g_return_val_if_fail (start >= 0 && length > 0, SL_FILE_LOCK_UNKNOWN);

  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
  if (fd < 0)
    return errno == ENOENT ? SL_FILE_LOCK_NONE : SL_FILE_LOCK_UNKNOWN;

  /* A write lock conflicts with every lock: F_GETLK describes one of
   * them, or says the range is free. */
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = (off_t)start;
  lock.l_len = (off_t)length;
  rc = fcntl (fd, F_GETLK, &lock);
  saved_errno = errno;
  g_close (fd, NULL);

  if (rc != 0)
    {
      g_debug ("Cannot look for locks on %s: %s", path, g_strerror (saved_errno));
      return SL_FILE_LOCK_UNKNOWN;
    }

  return lock.l_type == F_UNLCK ? SL_FILE_LOCK_NONE : SL_FILE_LOCK_HELD;
#else
  return SL_FILE_LOCK_UNKNOWN;
#endif
}
