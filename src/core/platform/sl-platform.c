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
# include <sys/mman.h>
# include <sys/resource.h>
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
