/* test-datasets-layout.c: the detector and the profile loader agree on
 * every real profiler folder
 *
 * Both classify through the profiler layout table; on each folder of the
 * datasets this checks that the detector's finding owns every file the
 * loader reads, that the ranks have the layout the finding's kind says,
 * and that the finding's timeline files are exactly what the loader
 * lists (plus the SQLite export it reads). Skipped when the datasets
 * folder or a folder in it is absent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-detector.h"
#include "sl-profile-loader.h"
#include "sl-profiler-layout.h"

#define MI "mindspore-ai__mindinsight/tests/utils/resource/"
#define PT "Ascend__msinsight/test/data/pytorch/"

typedef struct {
  const char    *folder;
  SlFindingKind  kind;
  guint          n_timeline_files;
} Case;

/* The JOB folders hold raw slices only, which the loader cannot read. */
static const Case cases[] = {
  { MI "profiler", SL_FINDING_MINDSPORE_PROFILER, 7 },
  { MI "profiler/PROF_000001_20230818142704322_COJGGGCANRMICFBC", SL_FINDING_MSPROF, 5 },
  { MI "run_2/normal_run/profiler", SL_FINDING_MINDSPORE_PROFILER, 1 },
  { MI "cluster_propose", SL_FINDING_MINDSPORE_PROFILER, 0 },
  { MI "JOB1", SL_FINDING_MSPROF, 0 },
  { MI "JOB3", SL_FINDING_MSPROF, 0 },
  { PT "text/level1/rank0_ascend_pt", SL_FINDING_ASCEND_PROFILER, 1 },
  { PT "text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT", SL_FINDING_ASCEND_PROFILER, 1 },
  { PT "db/level0/rank0_ascend_pt", SL_FINDING_ASCEND_PROFILER, 1 },
};

static gboolean
layout_fits (SlFindingKind   kind,
             SlProfileLayout layout)
{
  switch (kind)
    {
    case SL_FINDING_MINDSPORE_PROFILER:
      /* MindSpore keeps msprof's PROF_ folder inside its own */
      return layout == SL_PROFILE_LAYOUT_MINDSPORE || layout == SL_PROFILE_LAYOUT_MSPROF;
    case SL_FINDING_MSPROF:
      return layout == SL_PROFILE_LAYOUT_MSPROF;
    case SL_FINDING_ASCEND_PROFILER:
      return layout == SL_PROFILE_LAYOUT_ASCEND_PT;
    default:
      return FALSE;
    }
}

static gboolean
finding_has_file (SlFinding  *finding,
                  const char *path)
{
  for (guint i = 0; i < sl_finding_get_n_files (finding); i++)
    {
      if (g_str_equal (sl_finding_get_file (finding, i), path))
        return TRUE;
    }
  return FALSE;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

/* Returns: (transfer full): what the loader takes a timeline from: the
 * traces it lists and the SQLite exports it reads */
static GPtrArray *
loader_timeline_files (const char *path,
                       SlFinding  *finding,
                       gboolean    raw)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = sl_profile_load (path, NULL, NULL, NULL, &error);
  GPtrArray *files = sl_profile_list_timeline_files (path);

  if (raw)
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
      return files;
    }
  g_assert_no_error (error);

  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (profile, i);

      g_assert_true (layout_fits (sl_finding_get_kind (finding), rank->layout));
      for (guint j = 0; j < rank->files->len; j++)
        {
          const char *file = g_ptr_array_index (rank->files, j);
          const SlProfilerEntry *entry = sl_profiler_layout_lookup_file (file, NULL);

          g_test_message ("read %s", file);
          g_assert_true (finding_has_file (finding, file));
          if (entry != NULL && entry->role == SL_PROFILER_ROLE_DB)
            g_ptr_array_add (files, g_strdup (file));
        }
    }

  g_ptr_array_sort (files, compare_paths);
  return files;
}

static void
test_agree (gconstpointer data)
{
  const Case *c = data;
  const char *dir = g_getenv ("SL_DATASETS_DIR");
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  g_autofree char *count = NULL;
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GPtrArray) detected = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(GError) error = NULL;
  SlFinding *finding;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("SL_DATASETS_DIR is not set or is not a folder; the data suite needs the datasets");
      return;
    }
  /* The detector names files as GFile does (no "..") */
  path = g_canonicalize_filename (c->folder, dir);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("the folder is not in the datasets folder");
      return;
    }

  detector = sl_detector_new (path);
  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  finding = sl_detection_lookup_finding (detection, c->kind, ".");
  g_assert_nonnull (finding);

  base = g_path_get_basename (path);
  loaded = loader_timeline_files (path, finding, g_str_has_prefix (base, "JOB"));
  detected = sl_finding_dup_timeline_files (finding);

  g_assert_cmpuint (detected->len, ==, c->n_timeline_files);
  g_assert_cmpuint (loaded->len, ==, detected->len);
  for (guint i = 0; i < detected->len; i++)
    g_assert_cmpstr (g_ptr_array_index (detected, i), ==, g_ptr_array_index (loaded, i));

  count = g_strdup_printf ("%u", detected->len);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, SL_FINDING_DETAIL_TIMELINE_FILES), ==, count);
  g_assert_true (sl_finding_has_timeline (finding) == (detected->len > 0));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/datasets/layout/agree/%s", cases[i].folder);

      g_test_add_data_func (name, &cases[i], test_agree);
    }

  return g_test_run ();
}
