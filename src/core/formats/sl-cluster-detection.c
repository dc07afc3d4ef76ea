/* sl-cluster-detection.c
 *
 * Runs after the walk, over its findings: the ranks' folders were already
 * recognised, so nothing is read again. A cluster's finding lists the
 * files of its ranks' findings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-cluster-detection.h"

typedef struct {
  char      *path;
  guint      n_ranks;
  gboolean   analysis;
  GPtrArray *members;   /* SlFinding */
} Candidate;

static void
candidate_free (Candidate *candidate)
{
  g_free (candidate->path);
  g_ptr_array_unref (candidate->members);
  g_free (candidate);
}

static Candidate *
ensure_candidate (GHashTable *by_path,
                  GPtrArray  *order,
                  const char *path)
{
  Candidate *candidate = g_hash_table_lookup (by_path, path);

  if (candidate != NULL)
    return candidate;
  candidate = g_new0 (Candidate, 1);
  candidate->path = g_strdup (path);
  candidate->members = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (order, candidate);
  g_hash_table_insert (by_path, candidate->path, candidate);
  return candidate;
}

/* PROF_ folders side by side are as often one device's runs, and one
 * PROF_ folder may hold several devices: only torch_npu's and MindSpore's
 * per-rank folders count. */
static gboolean
is_rank_folder_kind (SlFindingKind kind)
{
  return kind == SL_FINDING_ASCEND_PROFILER;
}

/* "0,1,10" → 3 */
static guint
count_ids (const char *ids)
{
  guint n = 0;

  if (ids == NULL || ids[0] == '\0')
    return 0;
  for (const char *p = ids; *p != '\0'; p++)
    n += *p == ',';
  return n + 1;
}

static char *
relative_name (const char *root,
               const char *path)
{
  gsize length = strlen (root);

  if (g_str_equal (root, path))
    return g_strdup (".");
  if (g_str_has_prefix (path, root) && path[length] == G_DIR_SEPARATOR)
    return g_strdup (path + length + 1);
  return g_strdup (path);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char **)a, *(const char **)b);
}

/* msprof-analyze's files, listed (not read) so the finding says what it holds. */
static void
add_analysis_files (SlFinding  *finding,
                    const char *parent)
{
  g_autofree char *dir = g_build_filename (parent, "cluster_analysis_output", NULL);
  g_autoptr(GDir) gdir = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (gdir != NULL && (name = g_dir_read_name (gdir)) != NULL && names->len < 1000)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      GStatBuf buf;

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR) && g_stat (path, &buf) == 0)
        sl_finding_add_file (finding, path, (guint64)buf.st_size);
    }
}

static SlFinding *
candidate_finding (const Candidate *candidate,
                   const char      *root)
{
  g_autofree char *name = relative_name (root, candidate->path);
  g_autofree char *ranks = g_strdup_printf ("%u", candidate->n_ranks);
  SlFinding *finding = sl_finding_new (SL_FINDING_CLUSTER, candidate->path, name);

  for (guint m = 0; m < candidate->members->len; m++)
    {
      SlFinding *member = g_ptr_array_index (candidate->members, m);

      /* Findings keep their total size, not each file's: the total rides
       * on the first file, so the cluster's size is the ranks' sum. */
      for (guint f = 0; f < sl_finding_get_n_files (member); f++)
        sl_finding_add_file (finding, sl_finding_get_file (member, f), f == 0 ? sl_finding_get_size (member) : 0);
    }
  if (candidate->analysis)
    add_analysis_files (finding, candidate->path);
  if (candidate->n_ranks > 0)
    sl_finding_add_detail (finding, "rank_folders", ranks);
  sl_finding_add_boolean_detail (finding, SL_FINDING_DETAIL_CLUSTER_ANALYSIS, candidate->analysis);
  return finding;
}

void
sl_cluster_detection_add_findings (SlDetection *detection,
                                   const char  *root,
                                   GPtrArray   *analysis_parents)
{
  g_autoptr(GHashTable) by_path = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func ((GDestroyNotify)candidate_free);
  GListModel *findings;
  guint n;

  g_return_if_fail (SL_IS_DETECTION (detection));
  g_return_if_fail (root != NULL);

  findings = sl_detection_get_findings (detection);
  n = g_list_model_get_n_items (findings);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
      SlFindingKind kind = sl_finding_get_kind (finding);
      Candidate *candidate;

      if (is_rank_folder_kind (kind))
        {
          g_autofree char *parent = g_path_get_dirname (sl_finding_get_path (finding));

          candidate = ensure_candidate (by_path, order, parent);
          candidate->n_ranks++;
          g_ptr_array_add (candidate->members, g_object_ref (finding));
        }
      else if (kind == SL_FINDING_MINDSPORE_PROFILER &&
               count_ids (sl_finding_lookup_detail (finding, "ranks")) >= 2)
        {
          candidate = ensure_candidate (by_path, order, sl_finding_get_path (finding));
          candidate->n_ranks += count_ids (sl_finding_lookup_detail (finding, "ranks"));
          g_ptr_array_add (candidate->members, g_object_ref (finding));
        }
    }
  for (guint i = 0; analysis_parents != NULL && i < analysis_parents->len; i++)
    ensure_candidate (by_path, order, g_ptr_array_index (analysis_parents, i))->analysis = TRUE;

  for (guint i = 0; i < order->len; i++)
    {
      const Candidate *candidate = g_ptr_array_index (order, i);
      g_autoptr(SlFinding) finding = NULL;

      if (candidate->n_ranks < 2 && !candidate->analysis)
        continue;
      finding = candidate_finding (candidate, root);
      sl_detection_add_finding (detection, finding);
    }
}
