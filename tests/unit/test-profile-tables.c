/* test-profile-tables.c: the profile loader's CSV column specs
 *
 * Walks every spec: a column found under each of its header names loads
 * the same value as under its first name (and a different one than with
 * the column left out), and a file missing a required column is one
 * error naming the file and the column, with nothing read from it. A
 * folder with one such file still loads its other files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-profile-loader.h"
#include "sl-profile-tables.h"

#define KEY_TEXT "Default/net/MatMul-op1"


/* ------------------------------------------------------------------ */
/* What a table put into the profile, as text */

static void
append_rows (GString    *out,
             const char *what,
             GListModel *rows)
{
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (rows, i);

      g_string_append_printf (out, "%s %s|%s|%s n=%" G_GUINT64_FORMAT " total=%" G_GINT64_FORMAT
                              " min=%" G_GINT64_FORMAT " max=%" G_GINT64_FORMAT " ratio=%g wait=%" G_GINT64_FORMAT
                              " aicore=%" G_GINT64_FORMAT " block=%" G_GINT64_FORMAT " stream=%" G_GINT64_FORMAT
                              " flops=%g/%g busy=%" G_GINT64_FORMAT " line=%u/%u",
                              what, sl_op_row_get_name (row), sl_op_row_get_op_type (row),
                              sl_op_row_get_core_type (row), sl_op_row_get_count (row),
                              sl_op_row_get_total_ns (row), sl_op_row_get_min_ns (row),
                              sl_op_row_get_max_ns (row), sl_op_row_get_ratio (row),
                              sl_op_row_get_wait_ns (row), sl_op_row_get_aicore_ns (row),
                              sl_op_row_get_block_dim (row), sl_op_row_get_stream_id (row),
                              sl_op_row_get_mflops (row), sl_op_row_get_gflops_rate (row),
                              sl_op_row_get_core_busy_ns (row), sl_op_row_get_source_line (row),
                              sl_op_row_get_longest_line (row));
      g_string_append_printf (out, " texts=%s;%s;%s;%s;%s;%s;%s", sl_op_row_get_input_shapes (row),
                              sl_op_row_get_input_dtypes (row), sl_op_row_get_input_formats (row),
                              sl_op_row_get_output_shapes (row), sl_op_row_get_output_dtypes (row),
                              sl_op_row_get_output_formats (row), sl_op_row_get_op_state (row));
      g_string_append_c (out, '\n');
    }
}

static void
append_steps (GString     *out,
              SlStepTrace *trace)
{
  if (trace == NULL)
    return;
  for (guint i = 0; i < sl_step_trace_get_n_steps (trace); i++)
    {
      const SlStep *step = sl_step_trace_get_step (trace, i);

      g_string_append_printf (out, "step %" G_GINT64_FORMAT " start=%" G_GINT64_FORMAT " end=%" G_GINT64_FORMAT
                              " total=%" G_GINT64_FORMAT " fp=%" G_GINT64_FORMAT " bp=%" G_GINT64_FORMAT
                              " wait=%" G_GINT64_FORMAT " fpbp=%" G_GINT64_FORMAT " tail=%" G_GINT64_FORMAT,
                              step->step, step->start_ns, step->end_ns, step->total_ns, step->fp_ns,
                              step->bp_ns, step->data_wait_ns, step->fp_bp_ns, step->tail_ns);
      for (guint p = 0; p < sl_step_trace_get_n_phases (trace); p++)
        g_string_append_printf (out, " %s=%" G_GINT64_FORMAT, sl_step_trace_get_phase_key (trace, p),
                                sl_step_trace_get_phase (trace, i, p));
      for (guint e = 0; e < sl_step_trace_get_n_extra_columns (trace); e++)
        g_string_append_printf (out, " [%s]=%" G_GINT64_FORMAT, sl_step_trace_get_extra_name (trace, e),
                                sl_step_trace_get_extra (trace, i, e));
      g_string_append_c (out, '\n');
    }
}

static char *
describe (SlProfile *profile)
{
  GString *out = g_string_new (NULL);
  GListModel *problems = sl_profile_get_problems (profile);

  for (guint r = 0; r < sl_profile_get_n_ranks (profile); r++)
    {
      SlProfileRank *rank = (SlProfileRank *)sl_profile_get_rank (profile, r);

      /* as the loader does once every file is read */
      sl_profile_rank_finish (rank);
      g_string_append_printf (out, "rank %s id=%" G_GINT64_FORMAT "\n", rank->label, rank->rank_id);
      append_steps (out, rank->steps);
      append_rows (out, "type", sl_op_table_get_types (rank->ops));
      append_rows (out, "instance", sl_op_table_get_instances (rank->ops));
      append_rows (out, "api", sl_op_table_get_types (rank->apis));
    }
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      g_string_append_printf (out, "problem %s\n", sl_problem_get_message (problem));
    }
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Tables written from a spec */

/* The alias a column's header has in the file; NULL leaves it out. */
typedef struct {
  guint       column;
  const char *header;
} Variant;

static char *
nth_alias (const char *aliases,
           guint       n)
{
  g_auto(GStrv) names = g_strsplit (aliases, "|", -1);

  return n < g_strv_length (names) ? g_strdup (names[n]) : NULL;
}

/* A name where the table wants one, else a number every unit takes. */
static const char *
cell_for (const SlProfileColumn *column)
{
  if ((column->flags & SL_PROFILE_COLUMN_KEY) ||
      ((column->flags & SL_PROFILE_COLUMN_REQUIRED) && !(column->flags & SL_PROFILE_COLUMN_VALUE) &&
       column->unit == SL_PROFILE_UNIT_NONE))
    return KEY_TEXT;
  return "3";
}

static char *
table_text (const SlProfileTableSpec *spec,
            const Variant            *variant)
{
  GString *text = g_string_new (NULL);
  gboolean first = TRUE;

  for (guint i = 0; i < spec->n_columns; i++)
    {
      g_autofree char *header = NULL;

      if (i == variant->column && variant->header == NULL)
        continue;
      header = i == variant->column ? g_strdup (variant->header) : nth_alias (spec->columns[i].aliases, 0);
      g_string_append_printf (text, "%s\"%s\"", first ? "" : ",", header);
      first = FALSE;
    }
  g_string_append_c (text, '\n');
  first = TRUE;
  for (guint i = 0; i < spec->n_columns; i++)
    {
      if (i == variant->column && variant->header == NULL)
        continue;
      g_string_append_printf (text, "%s%s", first ? "" : ",", cell_for (&spec->columns[i]));
      first = FALSE;
    }
  g_string_append_c (text, '\n');
  return g_string_free (text, FALSE);
}

/* Reads the table @variant makes of @spec into a new profile, described. */
static char *
read_variant (const SlProfileTableSpec *spec,
              const char               *path,
              const Variant            *variant)
{
  g_autofree char *text = table_text (spec, variant);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(SlProfile) profile = sl_profile_new (dir);
  g_autoptr(GError) error = NULL;
  SlProfileRank *rank = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);

  if (spec->kind != SL_PROFILE_FILE_CLUSTER_STEP)
    rank = sl_profile_add_rank (profile, dir, SL_PROFILE_LAYOUT_MSPROF);
  /* framework_raw and flops add to the instances the detail file listed. */
  if (spec->kind == SL_PROFILE_FILE_MS_FRAMEWORK || spec->kind == SL_PROFILE_FILE_MS_FLOPS)
    sl_op_table_add_instance (rank->ops, KEY_TEXT, "MatMul");

  sl_profile_table_read (spec, profile, rank, path, NULL);
  return describe (profile);
}

static void
test_aliases (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-tables-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "table.csv", NULL);
  guint n_specs;
  const SlProfileTableSpec *const *specs = sl_profile_tables (&n_specs);
  guint n_checked = 0;

  for (guint s = 0; s < n_specs; s++)
    {
      const SlProfileTableSpec *spec = specs[s];

      /* one spec for each kind of file */
      g_assert_true (sl_profile_table_for_kind (spec->kind) == spec);

      for (guint c = 0; c < spec->n_columns; c++)
        {
          g_autofree char *first = nth_alias (spec->columns[c].aliases, 0);
          Variant absent = { c, NULL };
          Variant named = { c, first };
          g_autofree char *without = NULL;
          g_autofree char *expected = NULL;
          g_autofree char *alias = NULL;

          if (strchr (spec->columns[c].aliases, '|') == NULL)
            continue;

          without = read_variant (spec, path, &absent);
          expected = read_variant (spec, path, &named);
          /* The column's value reaches the model, so the aliases below
           * would show if one of them were not found. */
          g_test_message ("%s: %s", spec->files, spec->columns[c].aliases);
          g_assert_cmpstr (expected, !=, without);
          g_assert_null (strstr (expected, "problem"));

          for (guint a = 1; (alias = nth_alias (spec->columns[c].aliases, a)) != NULL; a++)
            {
              Variant variant = { c, alias };
              g_autofree char *got = read_variant (spec, path, &variant);

              g_test_message ("  as %s", alias);
              g_assert_cmpstr (got, ==, expected);
              g_clear_pointer (&alias, g_free);
              n_checked++;
            }
        }
    }
  /* fp, Step Id, op_type, avg_execution_time, Name, Task Time(us) … */
  g_assert_cmpuint (n_checked, >=, 25);

  g_remove (path);
  g_rmdir (tmp);
}

static void
test_missing_required (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-tables-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "table.csv", NULL);
  guint n_specs;
  const SlProfileTableSpec *const *specs = sl_profile_tables (&n_specs);

  for (guint s = 0; s < n_specs; s++)
    {
      const SlProfileTableSpec *spec = specs[s];

      for (guint c = 0; c < spec->n_columns; c++)
        {
          Variant absent = { c, NULL };
          g_autofree char *text = NULL;
          g_autofree char *message = NULL;
          g_autofree char *dir = g_path_get_dirname (path);
          g_autoptr(SlProfile) profile = sl_profile_new (dir);
          g_autoptr(SlProblem) problem = NULL;
          SlProfileRank *rank = NULL;

          if (!(spec->columns[c].flags & SL_PROFILE_COLUMN_REQUIRED))
            continue;

          text = table_text (spec, &absent);
          g_assert_true (g_file_set_contents (path, text, -1, NULL));
          if (spec->kind != SL_PROFILE_FILE_CLUSTER_STEP)
            rank = sl_profile_add_rank (profile, dir, SL_PROFILE_LAYOUT_MSPROF);
          sl_profile_table_read (spec, profile, rank, path, NULL);

          g_test_message ("%s without %s", spec->files, spec->columns[c].required);
          g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 1);
          problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);
          message = g_strdup_printf ("The header has no column “%s”; the file is not read",
                                     spec->columns[c].required);
          g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
          g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
          g_assert_cmpint (sl_problem_get_offset (problem), ==, 0);
          g_assert_cmpstr (sl_problem_get_message (problem), ==, message);
          /* Nothing of the file was read. */
          g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, rank != NULL ? 1 : 0);
          if (rank != NULL)
            {
              g_assert_null (rank->steps);
              g_assert_true (sl_op_table_is_empty (rank->ops));
              g_assert_true (sl_op_table_is_empty (rank->apis));
            }
        }
    }

  g_remove (path);
  g_rmdir (tmp);
}

static void
write_file (const char *dir,
            const char *rel,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

/* op_summary without a duration column: reported, and the op types, API
 * statistics and steps beside it are still read. */
static void
test_missing_column_others_load (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-tables-XXXXXX", NULL);
  g_autofree char *summary = g_build_filename (tmp, "PROF_000001_1_A", "device_0", "summary", NULL);
  g_autofree char *op_summary = g_build_filename (summary, "op_summary_0_1.csv", NULL);
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProblem) problem = NULL;
  const SlProfileRank *rank;
  const char *files[] = { "op_summary_0_1.csv", "op_statistic_0_1.csv", "api_statistic_0_1.csv", "step_trace_0_1.csv" };

  write_file (summary, files[0], "Op Name,OP Type,Task Type,Task Start Time(us)\nMatMul1,MatMul,AI_CORE,10\n");
  write_file (summary, files[1], "OP Type,Core Type,Count,Total Time(us)\nMatMul,AI_CORE,2,51\n");
  write_file (summary, files[2], "Level,API Name,Time(us),Count\nacl,aclopCompile,100.5,2\n");
  write_file (summary, files[3], "Iteration ID,Iteration End(us),Iteration Time(us)\n1,300,250\n");

  profile = sl_profile_load (tmp, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);

  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 1);
  problem = g_list_model_get_item (sl_profile_get_problems (profile), 0);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_ERROR);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, op_summary);
  g_assert_cmpstr (sl_problem_get_message (problem), ==,
                   "The header has no column “Task Duration(us)|Duration(us)”; the file is not read");

  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_cmpuint (rank->files->len, ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_instances (rank->ops)), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->ops)), ==, 1);
  g_assert_cmpint (sl_op_table_get_total_ns (rank->ops), ==, 51000);
  g_assert_cmpuint (g_list_model_get_n_items (sl_op_table_get_types (rank->apis)), ==, 1);
  g_assert_nonnull (rank->steps);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 1);
  g_assert_cmpint (sl_step_trace_get_step (rank->steps, 0)->total_ns, ==, 250000);
  g_assert_cmpint (sl_step_trace_get_step (rank->steps, 0)->start_ns, ==, 50000);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (summary, files[i], NULL);

      g_remove (path);
    }
  g_rmdir (summary);
  {
    g_autofree char *device = g_path_get_dirname (summary);
    g_autofree char *prof = g_path_get_dirname (device);

    g_rmdir (device);
    g_rmdir (prof);
  }
  g_rmdir (tmp);
}

/* framework_raw with an empty op_info cell: the row's other columns are
 * taken and the empty cell is no JSON to read (it once raised a GLib
 * critical, fatal in tests). */
static void
test_empty_op_info (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-tables-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmp, "framework_raw_0.csv", NULL);
  g_autoptr(SlProfile) profile = sl_profile_new (tmp);
  SlProfileRank *rank = sl_profile_add_rank (profile, tmp, SL_PROFILE_LAYOUT_MINDSPORE);
  SlOpRow *row;

  g_assert_true (g_file_set_contents (path,
                                      "full_kernel_name,kernel_type,block_dim,stream_id,op_info\n"
                                      KEY_TEXT ",MatMulV2,8,2,\n"
                                      KEY_TEXT ",MatMulV2,8,2,\"\"\n",
                                      -1, NULL));
  sl_op_table_add_instance (rank->ops, KEY_TEXT, "MatMul");
  sl_profile_table_read (sl_profile_table_for_kind (SL_PROFILE_FILE_MS_FRAMEWORK), profile, rank, path, NULL);

  row = sl_op_table_lookup_instance (rank->ops, KEY_TEXT);
  g_assert_nonnull (row);
  g_assert_cmpstr (sl_op_row_get_op_type (row), ==, "MatMulV2");
  g_assert_cmpint (sl_op_row_get_block_dim (row), ==, 8);
  g_assert_cmpint (sl_op_row_get_stream_id (row), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 0);

  g_remove (path);
  g_rmdir (tmp);
}

/* Empty JSON info and summary files beside a step table: each is one
 * warning naming it, and the steps are read (they once raised a GLib
 * critical, fatal in tests, and said nothing). */
static void
test_empty_json (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-profile-tables-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (tmp, "profiler", NULL);
  const char *names[] = { "profiler_info_0.json", "step_trace_raw_0_detail_time.csv", "timeline_summary_0.json" };
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  const SlProfileRank *rank;

  write_file (dir, names[0], "");
  write_file (dir, names[1], "step_num,total\n1,5\n");
  write_file (dir, names[2], " \n");

  profile = sl_profile_load (tmp, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_profile_get_n_ranks (profile), ==, 1);
  rank = sl_profile_get_rank (profile, 0);
  g_assert_nonnull (rank->steps);
  g_assert_cmpuint (sl_step_trace_get_n_steps (rank->steps), ==, 1);
  g_assert_cmpint (sl_step_trace_get_step (rank->steps, 0)->total_ns, ==, 50);

  g_assert_cmpuint (g_list_model_get_n_items (sl_profile_get_problems (profile)), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (sl_profile_get_problems (profile), i);
      g_autofree char *path = g_build_filename (dir, names[i * 2], NULL);

      g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
      g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
      g_assert_cmpstr (sl_problem_get_message (problem), ==, "The file is empty");
    }

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);

      g_remove (path);
    }
  g_rmdir (dir);
  g_rmdir (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/profile-tables/aliases", test_aliases);
  g_test_add_func ("/profile-tables/missing-required", test_missing_required);
  g_test_add_func ("/profile-tables/missing-column-others-load", test_missing_column_others_load);
  g_test_add_func ("/profile-tables/empty-op-info", test_empty_op_info);
  g_test_add_func ("/profile-tables/empty-json", test_empty_json);

  return g_test_run ();
}
