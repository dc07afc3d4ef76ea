/* sl-summary-discovery.c: finding the runs and files below the opened
 * path, in MindInsight's order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-input-file.h"
#include "sl-main-thread.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-summary-reader-private.h"

#define MAX_WALK_DEPTH     32

typedef struct {
  char              *path;
  char              *name;
  SlSummaryFileKind  kind;
  guint64            number;
} FoundFile;

static void
found_file_clear (FoundFile *found)
{
  g_free (found->path);
  g_free (found->name);
}

static int
compare_found (gconstpointer a,
               gconstpointer b)
{
  const FoundFile *fa = a;
  const FoundFile *fb = b;

  if (fa->number != fb->number)
    return fa->number < fb->number ? -1 : 1;
  return strcmp (fa->name, fb->name);
}

int
sl_summary_reader_compare_runs (gconstpointer a,
                                gconstpointer b)
{
  SlSummaryRun *ra = *(SlSummaryRun **) a;
  SlSummaryRun *rb = *(SlSummaryRun **) b;

  return strcmp (sl_summary_run_get_name (ra), sl_summary_run_get_name (rb));
}

static SlSummaryRun *
ensure_run (SlSummaryReader *self,
            const char      *name,
            const char      *path)
{
  SlSummaryRun *run = sl_summary_reader_lookup_run (self, name);

  if (run == NULL)
    {
      run = sl_summary_run_new (name, path);
      g_ptr_array_add (self->runs, run);
    }
  return run;
}

static void
add_found_files (SlSummaryReader *self,
                 const char      *name,
                 const char      *path,
                 GArray          *found)
{
  SlSummaryRun *run;

  if (found->len == 0)
    return;

  g_array_sort (found, compare_found);
  run = ensure_run (self, name, path);
  for (guint i = 0; i < found->len; i++)
    {
      FoundFile *f = &g_array_index (found, FoundFile, i);

      sl_summary_run_ensure_file (run, f->path, f->kind);
    }
}

static gboolean
walk_folder (SlSummaryReader  *self,
             GFile            *folder,
             const char       *name,
             guint             depth,
             GCancellable     *cancellable,
             GError          **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(GPtrArray) children = NULL;
  g_autofree char *path = g_file_get_path (folder);
  g_autoptr(GError) local_error = NULL;

  SL_ASSERT_OFF_MAIN_THREAD ();
  enumerator = g_file_enumerate_children (folder,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                          cancellable, &local_error);
  if (enumerator == NULL)
    {
      /* An unreadable folder below the opened one is skipped, not fatal. */
      if (depth == 0)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      return TRUE;
    }

  found = g_array_new (FALSE, FALSE, sizeof (FoundFile));
  g_array_set_clear_func (found, (GDestroyNotify) found_file_clear);
  children = g_ptr_array_new_with_free_func (g_free);

  for (;;)
    {
      GFileInfo *info;
      const char *child_name;

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, cancellable, error))
        return FALSE;
      if (info == NULL)
        break;

      child_name = g_file_info_get_name (info);
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          g_ptr_array_add (children, g_strdup (child_name));
        }
      else if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR)
        {
          FoundFile f = { 0 };

          if (sl_summary_file_name_get_kind (child_name, &f.kind, &f.number))
            {
              f.name = g_strdup (child_name);
              f.path = g_build_filename (path, child_name, NULL);
              g_array_append_val (found, f);
            }
        }
    }

  add_found_files (self, name, path, found);

  if (depth >= MAX_WALK_DEPTH)
    return TRUE;

  for (guint i = 0; i < children->len; i++)
    {
      const char *child_name = g_ptr_array_index (children, i);
      g_autoptr(GFile) child = g_file_get_child (folder, child_name);
      g_autofree char *child_run = depth == 0 ? g_strdup (child_name)
                                              : g_build_filename (name, child_name, NULL);

      if (!walk_folder (self, child, child_run, depth + 1, cancellable, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
sl_summary_reader_discover (SlSummaryReader  *self,
                            GCancellable     *cancellable,
                            GError          **error)
{
  g_autoptr(GFile) root = g_file_new_for_path (self->path);
  GFileType type = g_file_query_file_type (root, G_FILE_QUERY_INFO_NONE, cancellable);

  if (type == G_FILE_TYPE_DIRECTORY)
    {
      if (!walk_folder (self, root, ".", 0, cancellable, error))
        return FALSE;
    }
  else if (type == G_FILE_TYPE_REGULAR)
    {
      /* One file opened on its own is a run of its own, whatever its name. */
      g_autofree char *basename = g_file_get_basename (root);
      g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (FoundFile));
      FoundFile f = { 0 };

      g_array_set_clear_func (found, (GDestroyNotify) found_file_clear);
      if (!sl_summary_file_name_get_kind (basename, &f.kind, &f.number))
        f.kind = SL_SUMMARY_FILE_MINDSPORE;
      f.name = g_strdup (basename);
      f.path = g_strdup (self->path);
      g_array_append_val (found, f);
      add_found_files (self, ".", self->path, found);
    }
  else if (sl_input_file_check (self->path, error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("“%s” does not exist"), self->path);
      return FALSE;
    }
  else
    return FALSE;  /* a FIFO, a socket, a device */

  g_ptr_array_sort (self->runs, sl_summary_reader_compare_runs);
  return TRUE;
}
