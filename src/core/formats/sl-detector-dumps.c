/* sl-detector-dumps.c: msprobe dumps and .npy tensors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-detector-private.h"

/* Reads the digits at @p; TRUE when there is at least one and what
 * follows is @terminators or the end. */
static gboolean
parse_id (const char *p,
          const char *terminators,
          guint64    *id)
{
  const char *end = p;
  guint64 value = 0;

  while (g_ascii_isdigit (*end) && end - p < 18)
    value = value * 10 + (*end++ - '0');

  if (end == p || (*end != '\0' && strchr (terminators, *end) == NULL))
    return FALSE;

  *id = value;
  return TRUE;
}

static gboolean
is_numbered (const char *name,
             const char *prefix,
             guint64    *id)
{
  return g_str_has_prefix (name, prefix) && parse_id (name + strlen (prefix), "", id);
}

/* Returns: (transfer full) (nullable): the sniffed dump.json of an msprobe
 * dump folder */
SlSniffResult *
sl_detector_sniff_msprobe_dump (SlDetectorWalk *walk,
                                GFile          *folder,
                                GPtrArray      *children)
{
  GFileInfo *info = sl_detector_find_child (children, "dump.json");
  g_autoptr(GFile) file = NULL;
  g_autoptr(SlSniffResult) result = NULL;

  if (info == NULL || !sl_detector_is_regular (info))
    return NULL;

  file = g_file_get_child (folder, "dump.json");
  result = sl_sniffer_sniff_file (file, walk->cancellable, NULL);
  if (result == NULL || result->json_root != SL_JSON_ROOT_OBJECT)
    return NULL;

  if (!sl_sniff_result_has_json_key (result, "task") ||
      !sl_sniff_result_has_json_key (result, "level") ||
      !sl_sniff_result_has_json_key (result, "framework") ||
      !sl_sniff_result_has_json_key (result, "data"))
    return NULL;

  return g_steal_pointer (&result);
}

void
sl_detector_add_msprobe_details (SlFinding     *finding,
                                 GFile         *folder,
                                 SlSniffResult *dump)
{
  static const char * const keys[] = { "task", "level", "framework" };
  g_autofree char *name = g_file_get_basename (folder);
  g_autoptr(GFile) parent = g_file_get_parent (folder);
  guint64 id;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *value = sl_sniff_result_lookup_json (dump, keys[i]);

      if (value != NULL)
        sl_finding_add_detail (finding, keys[i], value);
    }

  /* dump_path/step<N>/rank<N>/dump.json */
  if (is_numbered (name, "rank", &id))
    sl_detector_add_uint_detail (finding, "rank", id);

  if (parent != NULL)
    {
      g_autofree char *parent_name = g_file_get_basename (parent);

      if (parent_name != NULL && is_numbered (parent_name, "step", &id))
        sl_detector_add_uint_detail (finding, "step", id);
    }
}

void
sl_detector_detect_tensor (SlDetectorWalk *walk,
                           GFile          *file,
                           GFileInfo      *info)
{
  g_autoptr(SlSniffResult) result = sl_detector_sniff_or_report (walk, file);
  g_autofree char *shape = NULL;
  SlFinding *finding;
  guint64 data_size;
  guint64 file_size = MAX (g_file_info_get_size (info), 0);

  if (result == NULL)
    return;

  if (result->kind != SL_SNIFF_NPY)
    {
      sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, 0,
                               result->kind == SL_SNIFF_EMPTY ? _("The .npy file is empty.")
                                                              : _("The file is named .npy but does not start with the NumPy magic string."));
      return;
    }

  if (result->npy == NULL)
    {
      sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, result->error_offset, result->error_message);
      return;
    }

  sl_detector_add_single_file_finding (walk, SL_FINDING_TENSOR, file, info, &finding);

  shape = sl_npy_header_dup_shape (result->npy);
  sl_finding_add_detail (finding, "dtype", result->npy->descr);
  sl_finding_add_detail (finding, "shape", shape);
  sl_finding_add_boolean_detail (finding, SL_FINDING_DETAIL_FORTRAN_ORDER, result->npy->fortran_order);

  if (sl_npy_header_get_data_size (result->npy, &data_size) &&
      file_size - MIN (file_size, result->npy->data_offset) < data_size)
    {
      g_autofree char *have = g_format_size (file_size - MIN (file_size, result->npy->data_offset));
      g_autofree char *need = g_format_size (data_size);
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The file holds %s of array data but its shape needs %s: it was cut off."), have, need);
      sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, result->npy->data_offset, message);
    }
}

void
sl_detector_detect_msprobe_file (SlDetectorWalk *walk,
                                 GFile          *file,
                                 GFileInfo      *info)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GPtrArray) children = g_ptr_array_new ();
  g_autoptr(SlSniffResult) dump = NULL;
  SlFinding *finding;

  g_ptr_array_add (children, info);
  dump = sl_detector_sniff_msprobe_dump (walk, parent, children);
  if (dump == NULL)
    {
      sl_detector_detect_trace (walk, file, info);
      return;
    }

  sl_detector_add_single_file_finding (walk, SL_FINDING_MSPROBE_DUMP, file, info, &finding);
  sl_detector_add_msprobe_details (finding, parent, dump);
}
