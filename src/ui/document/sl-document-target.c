/* sl-document-target.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "sl-detector.h"
#include "sl-document-target.h"

/**
 * sl_document_target_dup_names:
 *
 * Returns: (transfer full): the kind names `--document` takes, separated
 *   by commas
 */
char *
sl_document_target_dup_names (void)
{
  g_autoptr(GPtrArray) names = NULL;

  sl_document_registry_ensure_builtin ();
  names = sl_document_registry_list_names ();
  g_ptr_array_add (names, NULL);
  return g_strjoinv (", ", (char **) names->pdata);
}

static void
detect_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;
  SlDetection *detection = sl_detector_run (SL_DETECTOR (source), cancellable, &error);

  if (detection == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, detection, g_object_unref);
}

/* The first finding in @path that @kind shows, found as a scan of the
 * Workspace would find it. */
static SlFinding *
find_held (const SlDocumentKind  *kind,
           const char            *name,
           const char            *path,
           GError               **error)
{
  g_autoptr(SlDetector) detector = sl_detector_new (path);
  g_autoptr(GTask) task = g_task_new (detector, NULL, NULL, NULL);
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GString) found = g_string_new (NULL);
  GListModel *findings;

  /* The disk is read in a worker, as the main thread never does; the
   * command line waits for the answer, which says whether it opens. */
  g_task_run_in_thread_sync (task, detect_thread);
  if (!(detection = g_task_propagate_pointer (task, error)))
    return NULL;

  findings = sl_detection_get_findings (detection);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
      const char *id = sl_finding_kind_to_id (sl_finding_get_kind (finding));

      if (sl_document_registry_kind_holds (kind, finding))
        return g_steal_pointer (&finding);
      if (strstr (found->str, id) == NULL)
        g_string_append_printf (found, "%s%s", found->len > 0 ? ", " : "", id);
    }

  if (found->len == 0)
    /* Translators: the first %s is a path, the second a kind of document
     * ("profile", "scalars") as typed after --document. */
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s holds nothing Sightline reads, so no %s"),
                 path, name);
  else
    /* Translators: the first %s is a path, the second a kind of document
     * ("profile"), the third what was found there ("trace, graph"). */
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s holds no %s: found %s"), path, name,
                 found->str);
  return NULL;
}

/**
 * sl_document_target_resolve:
 * @name: a kind of document or an alias of one of its pages
 * @paths: (array length=n_paths): the paths given
 *
 * Checks that @paths hold what a document of @name shows: a kind that
 * exists, as many paths as it compares, paths that exist and hold it.
 *
 * Returns: (transfer full) (nullable): the document to open, or %NULL
 *   with @error set
 */
SlDocumentTarget *
sl_document_target_resolve (const char          *name,
                            const char * const  *paths,
                            guint                n_paths,
                            GError             **error)
{
  g_autoptr(SlDocumentTarget) target = g_new0 (SlDocumentTarget, 1);
  g_autoptr(GPtrArray) opened = g_ptr_array_new_with_free_func (g_free);
  guint wanted;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (paths != NULL || n_paths == 0, NULL);

  sl_document_registry_ensure_builtin ();
  if (!(target->kind = sl_document_registry_lookup_name (name, &target->page)))
    {
      g_autofree char *names = sl_document_target_dup_names ();

      /* Translators: %s is what was typed after --document, then the list
       * of kinds known. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("“%s” is not a kind of document; the kinds are: %s"),
                   name, names);
      return NULL;
    }

  wanted = MAX (target->kind->n_paths, 1);
  if (n_paths != wanted)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   g_dngettext (GETTEXT_PACKAGE, "--document %s takes %u path, not %u",
                                "--document %s takes %u paths, not %u", wanted),
                   name, wanted, n_paths);
      return NULL;
    }

  for (guint i = 0; i < n_paths; i++)
    {
      g_autoptr(SlFinding) finding = NULL;

      if (!g_file_test (paths[i], G_FILE_TEST_EXISTS))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: no such file or folder"), paths[i]);
          return NULL;
        }
      if (!(finding = find_held (target->kind, name, paths[i], error)))
        return NULL;

      g_ptr_array_add (opened, g_strdup (target->kind->keeps_path ? paths[i] : sl_finding_get_path (finding)));
      if (n_paths == 1)
        target->finding = g_steal_pointer (&finding);
    }

  g_ptr_array_add (opened, NULL);
  target->address = sl_document_address_new ((const char * const *) opened->pdata);
  return g_steal_pointer (&target);
}

void
sl_document_target_free (SlDocumentTarget *target)
{
  if (target == NULL)
    return;
  g_clear_pointer (&target->address, sl_document_address_unref);
  g_clear_object (&target->finding);
  g_free (target);
}
