/* test-path-names.c: short names that still tell a set of paths apart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-path-names.h"

/* The same ops in 32 layers: each keeps its layer index and op name. */
static void
test_layers (void)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) names = NULL;

  for (guint layer = 0; layer < 32; layer++)
    {
      g_ptr_array_add (paths, g_strdup_printf ("Default/network-Llama/model-LlamaModel/layers-CellList/%u-DecodeLayer/"
                                               "attention-Attention/wq-Dense/MatMul-op%u", layer, 13 + 40 * layer));
      g_ptr_array_add (paths, g_strdup_printf ("Default/network-Llama/model-LlamaModel/layers-CellList/%u-DecodeLayer/"
                                               "attention-Attention/wk-Dense/MatMul-op%u", layer, 15 + 40 * layer));
    }
  names = sl_path_names_distinguish ((const char * const *) paths->pdata, paths->len);
  g_assert_cmpuint (g_strv_length (names), ==, 64);
  g_assert_cmpstr (names[0], ==, "\u2026/0-DecodeLayer/attention-Attention/wq-Dense/MatMul-op13");
  g_assert_cmpstr (names[63], ==, "\u2026/31-DecodeLayer/attention-Attention/wk-Dense/MatMul-op1255");
  for (guint i = 0; i < paths->len; i++)
    for (guint j = i + 1; j < paths->len; j++)
      g_assert_cmpstr (names[i], !=, names[j]);

  /* One layer alone: its last scope is enough. */
  g_strfreev (names);
  names = sl_path_names_distinguish ((const char * const *) paths->pdata, 1);
  g_assert_cmpstr (names[0], ==, "\u2026/wq-Dense/MatMul-op13");
}

/* Short paths, paths in one scope, and paths one the end of another. */
static void
test_short_and_nested (void)
{
  const char *paths[] = {
    "a/b/Conv2D-op1", "a/b/Conv2D-op2", "Conv2D-op3", "x/y/z/b/Add-op4", "", "///", "\u5c42/\u5377\u79ef/\u7b97\u5b50",
  };
  g_auto(GStrv) names = sl_path_names_distinguish (paths, G_N_ELEMENTS (paths));

  /* "b" alone would not tell them from x/y/z/b: whole. */
  g_assert_cmpstr (names[0], ==, "a/b/Conv2D-op1");
  g_assert_cmpstr (names[1], ==, "a/b/Conv2D-op2");
  g_assert_cmpstr (names[2], ==, "Conv2D-op3");
  /* "b" alone would not tell it from a/b. */
  g_assert_cmpstr (names[3], ==, "\u2026/z/b/Add-op4");
  g_assert_cmpstr (names[4], ==, "");
  g_assert_cmpstr (names[5], ==, "///");
  g_assert_cmpstr (names[6], ==, "\u2026/\u5377\u79ef/\u7b97\u5b50");
}

static void
test_long_name (void)
{
  g_autofree char *scope = g_strnfill (10000, 's');
  g_autofree char *path = g_strdup_printf ("root/%s/mid/leaf/Op-op1", scope);
  const char *paths[] = { path };
  g_auto(GStrv) names = sl_path_names_distinguish (paths, 1);

  g_assert_cmpstr (names[0], ==, "\u2026/leaf/Op-op1");
  g_strfreev (sl_path_names_distinguish (NULL, 0));
}

static void
test_relative (void)
{
  g_autofree char *inside = sl_path_names_relative ("/data/ws/runs/a/events.out", "/data/ws");
  g_autofree char *same = sl_path_names_relative ("/data/ws/", "/data/ws");
  g_autofree char *outside = sl_path_names_relative ("/data/other/file", "/data/ws");
  g_autofree char *prefix_only = sl_path_names_relative ("/data/ws2/file", "/data/ws");
  g_autofree char *no_base = sl_path_names_relative ("/data/file", NULL);

  g_assert_cmpstr (inside, ==, "runs/a/events.out");
  g_assert_cmpstr (same, ==, ".");
  g_assert_cmpstr (outside, ==, "/data/other/file");
  g_assert_cmpstr (prefix_only, ==, "/data/ws2/file");
  g_assert_cmpstr (no_base, ==, "/data/file");
}

static void
test_run_names (void)
{
  const char *runs[] = { "/data/sweep/lr_0.1/run_1", "/data/sweep/lr_0.1/run_2", "/data/sweep/lr_0.01/run_1" };
  const char *siblings[] = { "/d/runs/run_01", "/d/runs/run_02" };
  const char *one[] = { "/d/runs/run_01" };
  const char *odd[] = { "", "/", "run_x" };
  g_auto(GStrv) names = sl_path_names_run_names (runs, 3);
  g_auto(GStrv) sibling_names = sl_path_names_run_names (siblings, 2);
  g_auto(GStrv) one_name = sl_path_names_run_names (one, 1);
  g_auto(GStrv) odd_names = sl_path_names_run_names (odd, 3);

  g_assert_cmpstr (names[0], ==, "./lr_0.1/run_1");
  g_assert_cmpstr (names[1], ==, "./lr_0.1/run_2");
  g_assert_cmpstr (names[2], ==, "./lr_0.01/run_1");
  g_assert_cmpstr (sibling_names[0], ==, "./run_01");
  g_assert_cmpstr (sibling_names[1], ==, "./run_02");
  g_assert_cmpstr (one_name[0], ==, "./run_01");
  for (guint i = 0; i < 3; i++)
    g_assert_nonnull (odd_names[i]);
}

/* Names alone where they differ; as many folders before them as tell two
 * apart; the same path twice named alike; a path that is the tail of
 * another given whole. */
static void
test_unique_tails (void)
{
  const char *paths[] = {
    "/data/level0/rank0_ascend_pt",
    "/data/level1/rank0_ascend_pt/",
    "/data/level0/other",
    "/runs/a/x/profiler",
    "/runs/b/x/profiler",
    "/data/level0/rank0_ascend_pt",
    "/x/profiler",
    "/",
    "",
    "/solo",
  };
  const char *expected[] = {
    "level0" G_DIR_SEPARATOR_S "rank0_ascend_pt",
    "level1" G_DIR_SEPARATOR_S "rank0_ascend_pt",
    "other",
    "a" G_DIR_SEPARATOR_S "x" G_DIR_SEPARATOR_S "profiler",
    "b" G_DIR_SEPARATOR_S "x" G_DIR_SEPARATOR_S "profiler",
    "level0" G_DIR_SEPARATOR_S "rank0_ascend_pt",
    "/x/profiler",
    "/",
    "",
    "solo",
  };
  g_auto(GStrv) names = sl_path_names_unique_tails (paths, G_N_ELEMENTS (paths));

  g_assert_cmpuint (g_strv_length (names), ==, G_N_ELEMENTS (paths));
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    g_assert_cmpstr (names[i], ==, expected[i]);

  {
    const char *one[] = { "/home/me/profiler" };
    g_auto(GStrv) alone = sl_path_names_unique_tails (one, 1);

    g_assert_cmpstr (alone[0], ==, "profiler");
  }
  {
    g_auto(GStrv) none = sl_path_names_unique_tails (NULL, 0);

    g_assert_cmpuint (g_strv_length (none), ==, 0);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/path-names/layers", test_layers);
  g_test_add_func ("/path-names/short-and-nested", test_short_and_nested);
  g_test_add_func ("/path-names/long-name", test_long_name);
  g_test_add_func ("/path-names/relative", test_relative);
  g_test_add_func ("/path-names/run-names", test_run_names);
  g_test_add_func ("/path-names/unique-tails", test_unique_tails);

  return g_test_run ();
}
