/* sl-detector-summaries.c: MindSpore summary and TensorBoard runs, and
 * the first records of their event files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-detector-private.h"

/* MindInsight's rule: any name matching summary\.(\d+) */
static gboolean
summary_file_number (const char *name,
                     guint64    *number)
{
  for (const char *p = strstr (name, "summary."); p != NULL; p = strstr (p + 1, "summary."))
    {
      const char *digits = p + strlen ("summary.");
      guint64 value = 0;

      if (!g_ascii_isdigit (*digits))
        continue;
      while (g_ascii_isdigit (*digits) && value < G_MAXUINT64 / 10)
        value = value * 10 + (*digits++ - '0');
      *number = value;
      return TRUE;
    }

  return FALSE;
}

gboolean
sl_detector_is_summary_file (const char *name)
{
  guint64 number;

  return summary_file_number (name, &number);
}

gboolean
sl_detector_is_tensorboard_file (const char *name)
{
  return g_str_has_prefix (name, "events.out.tfevents.");
}

static void
report_record_scan (SlDetectorWalk *walk,
                    GFile          *file,
                    SlRecordScan   *scan)
{
  for (guint i = 0; i < MIN (scan->n_bad_payloads, G_N_ELEMENTS (scan->bad_payload_offsets)); i++)
    sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, scan->bad_payload_offsets[i],
                             _("The data checksum of this record does not match: the record is damaged and will be skipped."));

  if (scan->bad_header_offset == 0)
    {
      sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, 0,
                               _("The checksum of the first record’s length does not match: the file is damaged or is not a summary file."));
    }
  else if (scan->bad_header_offset > 0)
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The length of record %u is damaged (its checksum does not match); the records after it cannot be read."),
                                 scan->bad_header_index);
      sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, scan->bad_header_offset, message);
    }

  if (scan->partial_offset >= 0)
    sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, scan->partial_offset,
                             _("The file ends in the middle of a record: it is still being written, or it was cut off."));
}

/* Attaches one event file to its run and checks its first records.
 * Returns: (transfer full) (nullable): the version string of its first
 * event */
static char *
check_event_file (SlDetectorWalk *walk,
                  SlFinding      *run,
                  GFile          *file,
                  GFileInfo      *info,
                  gboolean       *has_graph)
{
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GError) error = NULL;
  SlRecordScan scan;
  const guint8 *data;
  gsize len;
  char *version;

  sl_detector_finding_add_gfile (run, file, info);

  if (g_file_info_get_size (info) == 0)
    {
      sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, 0,
                               _("The file is empty: the training job may not have written its first record yet."));
      return NULL;
    }

  head = sl_sniffer_read_head (file, SL_SNIFFER_RECORDS_SIZE, walk->cancellable, &error);
  if (head == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        sl_detector_add_read_problem (walk, file, error);
      return NULL;
    }

  data = g_bytes_get_data (head, &len);
  sl_sniffer_scan_records (data, len, g_file_info_get_size (info), &scan);
  report_record_scan (walk, file, &scan);

  version = g_steal_pointer (&scan.version);
  if (has_graph != NULL)
    *has_graph |= scan.has_graph;
  sl_record_scan_clear (&scan);

  return version;
}

typedef struct {
  GFileInfo *info;
  guint64    number;
} SummaryEntry;

static int
compare_summary_entries (gconstpointer a,
                         gconstpointer b)
{
  const SummaryEntry *entry_a = a;
  const SummaryEntry *entry_b = b;

  if (entry_a->number != entry_b->number)
    return entry_a->number < entry_b->number ? -1 : 1;
  return strcmp (g_file_info_get_name (entry_a->info), g_file_info_get_name (entry_b->info));
}

/* Returns: (transfer full): the summary, lineage and explain files of
 * @files in MindInsight's order (by the number after "summary.") */
static GArray *
sort_summary_files (GPtrArray *files)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (SummaryEntry));

  for (guint i = 0; i < files->len; i++)
    {
      SummaryEntry entry = { g_ptr_array_index (files, i), 0 };

      summary_file_number (g_file_info_get_name (entry.info), &entry.number);
      g_array_append_val (entries, entry);
    }

  g_array_sort (entries, compare_summary_entries);
  return entries;
}

/* The run path is its folder; an opened single file is its own run. */
static SlFinding *
run_finding_new (SlDetectorWalk *walk,
                 SlFindingKind   kind,
                 GFile          *folder,
                 GFile          *single_file)
{
  return sl_detector_finding_new_for_file (walk, kind, single_file != NULL ? single_file : folder);
}

gboolean
sl_detector_detect_summary_run (SlDetectorWalk *walk,
                                GFile          *folder,
                                GPtrArray      *summary_files,
                                GPtrArray      *graph_files,
                                GFile          *single_file)
{
  g_autoptr(SlFinding) run = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autofree char *version = NULL;
  guint n_summary = 0, n_lineage = 0, n_explain = 0;

  run = run_finding_new (walk, SL_FINDING_SUMMARY_RUN, folder, single_file);
  entries = sort_summary_files (summary_files);

  for (guint i = 0; i < entries->len; i++)
    {
      GFileInfo *info = g_array_index (entries, SummaryEntry, i).info;
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) file = g_file_get_child (folder, name);
      g_autofree char *file_version = NULL;

      if (sl_detector_walk_cancelled (walk))
        return FALSE;

      file_version = check_event_file (walk, run, file, info, NULL);

      if (g_str_has_suffix (name, "_lineage"))
        n_lineage++;
      else if (g_str_has_suffix (name, "_explain"))
        n_explain++;
      else
        {
          n_summary++;
          if (version == NULL)
            version = g_steal_pointer (&file_version);
        }
    }

  /* MindInsight loads *.pb next to the summaries as the job's graphs. */
  for (guint i = 0; i < graph_files->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (graph_files, i);
      g_autoptr(GFile) file = g_file_get_child (folder, g_file_info_get_name (info));

      sl_detector_finding_add_gfile (run, file, info);
    }

  sl_detector_add_uint_detail (run, "summary_files", n_summary);
  sl_detector_add_uint_detail (run, "lineage_files", n_lineage);
  if (n_explain > 0)
    sl_detector_add_uint_detail (run, "explain_files", n_explain);
  if (graph_files->len > 0)
    sl_detector_add_uint_detail (run, "graph_files", graph_files->len);
  sl_finding_add_boolean_detail (run, SL_FINDING_DETAIL_HAS_LINEAGE, n_lineage > 0);
  if (version != NULL)
    sl_finding_add_detail (run, "version", version);

  sl_detection_add_finding (walk->detection, run);
  return TRUE;
}

gboolean
sl_detector_detect_tensorboard_run (SlDetectorWalk *walk,
                                    GFile          *folder,
                                    GPtrArray      *event_files,
                                    GFile          *single_file)
{
  g_autoptr(SlFinding) run = NULL;
  g_autofree char *version = NULL;
  gboolean has_graph = FALSE;

  run = run_finding_new (walk, SL_FINDING_TENSORBOARD_RUN, folder, single_file);

  for (guint i = 0; i < event_files->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (event_files, i);
      g_autoptr(GFile) file = g_file_get_child (folder, g_file_info_get_name (info));
      g_autofree char *file_version = NULL;

      if (sl_detector_walk_cancelled (walk))
        return FALSE;

      file_version = check_event_file (walk, run, file, info, &has_graph);
      if (version == NULL)
        version = g_steal_pointer (&file_version);
    }

  sl_detector_add_uint_detail (run, "event_files", event_files->len);
  /* From the records in each file's head: a graph written later is not seen. */
  sl_finding_add_boolean_detail (run, SL_FINDING_DETAIL_GRAPH, has_graph);
  if (version != NULL)
    sl_finding_add_detail (run, "version", version);

  sl_detection_add_finding (walk->detection, run);
  return TRUE;
}
