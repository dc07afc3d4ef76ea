/* sl-platform.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-platform.h"

#ifdef G_OS_WIN32
# include <windows.h>
# include <psapi.h>
#else
# include <errno.h>
# include <fcntl.h>
# include <sys/mman.h>
# include <sys/resource.h>
# include <sys/stat.h>
# include <unistd.h>
#endif

/* The size of a large page where the system has them (2 MB on x86-64
 * and most others). */
#define HUGE_PAGE_SIZE (2 * 1024 * 1024)

#ifndef G_OS_WIN32
/* Reads one "Key:   1234 kB" line of /proc/self/status. */
static guint64
read_proc_status_kb (const char *key)
{
  g_autofree char *contents = NULL;
  gsize key_len = strlen (key);

  if (!g_file_get_contents ("/proc/self/status", &contents, NULL, NULL))
    return 0;

  for (const char *line = contents; line != NULL && *line != '\0';)
    {
      const char *next = strchr (line, '\n');

      if (strncmp (line, key, key_len) == 0 && line[key_len] == ':')
        return g_ascii_strtoull (line + key_len + 1, NULL, 10);

      line = next ? next + 1 : NULL;
    }

  return 0;
}
#endif

/**
 * sl_platform_get_resident_bytes:
 *
 * Returns: the resident set size of this process, or 0 when unknown
 */
guint64
sl_platform_get_resident_bytes (void)
{
#ifdef G_OS_WIN32
  PROCESS_MEMORY_COUNTERS pmc;

  if (GetProcessMemoryInfo (GetCurrentProcess (), &pmc, sizeof pmc))
    return pmc.WorkingSetSize;
  return 0;
#else
  return read_proc_status_kb ("VmRSS") * 1024;
#endif
}

/**
 * sl_platform_get_peak_resident_bytes:
 *
 * Returns: the largest resident set size this process has had
 */
guint64
sl_platform_get_peak_resident_bytes (void)
{
#ifdef G_OS_WIN32
  PROCESS_MEMORY_COUNTERS pmc;

  if (GetProcessMemoryInfo (GetCurrentProcess (), &pmc, sizeof pmc))
    return pmc.PeakWorkingSetSize;
  return 0;
#else
  struct rusage usage;
  guint64 hwm = read_proc_status_kb ("VmHWM") * 1024;

  if (hwm > 0)
    return hwm;
  if (getrusage (RUSAGE_SELF, &usage) == 0)
    return (guint64)usage.ru_maxrss * 1024;
  return 0;
#endif
}

gboolean
sl_platform_is_windows (void)
{
#ifdef G_OS_WIN32
  return TRUE;
#else
  return FALSE;
#endif
}

guint
sl_platform_get_n_cpus (void)
{
  return MAX (1, g_get_num_processors ());
}

/**
 * sl_platform_has_gpu_render_node:
 *
 * Whether a GPU is there to render with. Without one, OpenGL falls back to
 * a software rasterizer that is slower than cairo for a 2D interface and
 * costs about 80 MB of memory for its JIT compiler.
 *
 * Returns: %FALSE only when it is certain that no GPU is available
 */
gboolean
sl_platform_has_gpu_render_node (void)
{
#ifdef G_OS_UNIX
  g_autoptr(GDir) dir = g_dir_open ("/dev/dri", 0, NULL);
  const char *name;

  if (dir == NULL)
    return FALSE;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_prefix (name, "renderD") || g_str_has_prefix (name, "card"))
        return TRUE;
    }

  return FALSE;
#else
  return TRUE;
#endif
}

/**
 * sl_platform_alloc_huge_pages:
 * @size: bytes wanted
 *
 * Memory in pages of 2 MB where the system gives them, else in ordinary
 * pages: for scratch memory that is written all over, so the processor
 * keeps the addresses of all of it at once.
 *
 * Returns: (transfer full): uninitialised memory of at least @size bytes,
 *   to free with sl_platform_free_huge_pages()
 */
gpointer
sl_platform_alloc_huge_pages (gsize size)
{
  gsize rounded = (MAX (size, 1) + HUGE_PAGE_SIZE - 1) / HUGE_PAGE_SIZE * HUGE_PAGE_SIZE;
  gpointer memory = g_aligned_alloc (rounded, 1, HUGE_PAGE_SIZE);

#if defined(G_OS_UNIX) && defined(MADV_HUGEPAGE)
  /* before it is first written, which is when the pages are chosen */
  madvise (memory, rounded, MADV_HUGEPAGE);
#endif
  return memory;
}

void
sl_platform_free_huge_pages (gpointer memory)
{
  g_aligned_free (memory);
}

/**
 * sl_platform_read_small_file:
 * @max_size: files larger than this are not read
 * @data: (out) (transfer full): the contents, with room for one more byte
 * @length: (out): their length
 * @stat_size: (out): the size the file had when it was opened
 *
 * Reads a regular file of at most @max_size bytes whole with an open, a
 * stat of what was opened, a read and a close, as g_file_get_contents()
 * does; a reader of small files that went through a GIO stream, its file
 * info and a seek made twice the system calls. The open does not block,
 * so a FIFO (which sl_input_file_check() refuses before opening) is
 * opened and closed at once, unread. The file is read to its end, should
 * it have grown since the stat.
 *
 * Returns: %FALSE, with nothing read, for a file that is not regular or
 *   is larger than @max_size, for any error, and where the system has no
 *   such calls: the caller then reads (or reports) the file as usual
 */
gboolean
sl_platform_read_small_file (const char  *path,
                             gsize        max_size,
                             guint8     **data,
                             gsize       *length,
                             guint64     *stat_size)
{
#ifdef G_OS_UNIX
  g_autofree guint8 *buffer = NULL;
  gsize done = 0, allocated;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);

  /* not blocking: opening a FIFO returns at once, and anything but a
   * regular file is closed unread */
  fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size < 0 || (guint64) st.st_size > max_size)
    {
      close (fd);
      return FALSE;
    }

  /* the size first, one byte more to see the end */
  allocated = (gsize) st.st_size + 1;
  buffer = g_malloc (allocated);
  for (;;)
    {
      gssize n = read (fd, buffer + done, allocated - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          close (fd);
          return FALSE;
        }
      done += n;
      /* a regular file reads whole up to its end: all the stat said */
      if (n == 0 || (done == (gsize) st.st_size && done < allocated))
        break;
      if (done == allocated)
        {
          allocated += MAX (allocated, 4096);
          buffer = g_realloc (buffer, allocated);
        }
    }
  close (fd);
  *data = g_steal_pointer (&buffer);
  *length = done;
  *stat_size = st.st_size;
  return TRUE;
#else
  return FALSE;
#endif
}
