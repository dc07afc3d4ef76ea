/* sl-cli-summary.c: `sightline-cli summary PATH [--json]`
 *
 * Reads every run below PATH (or the one file PATH) and prints, for each
 * run, its files and tags with kind, point count, first and last step
 * (and, for a scalar tag whose steps went back, the restart: which
 * points were dropped and that the later ones are kept), and the number
 * of bad records. Exit status: 0 when the runs were read
 * (even with bad records, which are listed), 1 when PATH is missing or
 * holds no summary, 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-platform.h"
#include "sl-summary-reader.h"

/* A scalar tag whose steps went back (a restarted job): which points were
 * dropped and which kept, as TensorBoard keeps them. */
static SlScalarSeries *
restarted_series (SlSummaryRun *run,
                  guint         index,
                  gint64       *from,
                  gint64       *to)
{
  SlScalarSeries *series;

  if (sl_summary_run_get_tag_kind (run, index) != SL_SUMMARY_TAG_SCALAR)
    return NULL;
  series = sl_summary_run_get_tag_series (run, index);
  if (series == NULL || !sl_scalar_series_get_last_restart (series, from, to))
    return NULL;
  return series;
}

/* Only for a tag that restarted: "restart": {from_step, to_step,
 * restarts, dropped_points, kept}. */
static void
add_restart (JsonBuilder  *builder,
             SlSummaryRun *run,
             guint         index)
{
  gint64 from, to;
  SlScalarSeries *series = restarted_series (run, index, &from, &to);

  if (series == NULL)
    return;
  json_builder_set_member_name (builder, "restart");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "from_step");
  json_builder_add_int_value (builder, from);
  json_builder_set_member_name (builder, "to_step");
  json_builder_add_int_value (builder, to);
  json_builder_set_member_name (builder, "restarts");
  json_builder_add_int_value (builder, sl_scalar_series_get_n_restarts (series));
  json_builder_set_member_name (builder, "dropped_points");
  json_builder_add_int_value (builder, sl_scalar_series_get_n_dropped (series));
  /* the points written after the restart */
  json_builder_set_member_name (builder, "kept");
  json_builder_add_string_value (builder, "later");
  json_builder_end_object (builder);
}

static void
add_lineage (JsonBuilder      *builder,
             SlSummaryRun     *run,
             const char       *name,
             SlLineageSection  section)
{
  g_auto(GStrv) keys = sl_summary_run_dup_lineage_keys (run, section);

  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      json_builder_set_member_name (builder, keys[i]);
      json_builder_add_string_value (builder, sl_summary_run_get_lineage (run, section, keys[i]));
    }
  json_builder_end_object (builder);
}

static char *
runs_to_json (GPtrArray *runs)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "runs");
  json_builder_begin_array (builder);
  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, sl_summary_run_get_name (run));
      json_builder_set_member_name (builder, "bad_records");
      json_builder_add_int_value (builder, sl_summary_run_get_n_bad_records (run));

      json_builder_set_member_name (builder, "files");
      json_builder_begin_array (builder);
      for (guint i = 0; i < sl_summary_run_get_n_files (run); i++)
        {
          SlSummaryFile *file = sl_summary_run_get_file (run, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, file->name);
          json_builder_set_member_name (builder, "kind");
          json_builder_add_string_value (builder, sl_summary_file_kind_to_string (file->kind));
          json_builder_set_member_name (builder, "size");
          json_builder_add_int_value (builder, file->size);
          json_builder_set_member_name (builder, "offset");
          json_builder_add_int_value (builder, file->offset);
          json_builder_set_member_name (builder, "records");
          json_builder_add_int_value (builder, file->n_records);
          json_builder_set_member_name (builder, "bad_records");
          json_builder_add_int_value (builder, file->n_bad);
          json_builder_set_member_name (builder, "undecodable_records");
          json_builder_add_int_value (builder, file->n_undecodable);
          json_builder_set_member_name (builder, "incomplete_tail_bytes");
          json_builder_add_int_value (builder, file->tail_bytes);
          json_builder_set_member_name (builder, "stopped");
          json_builder_add_boolean_value (builder, file->stopped);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);

      json_builder_set_member_name (builder, "tags");
      json_builder_begin_array (builder);
      for (guint i = 0; i < sl_summary_run_get_n_tags (run); i++)
        {
          gint64 first, last;
          guint n = sl_summary_run_get_tag_info (run, i, &first, &last);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "tag");
          json_builder_add_string_value (builder, sl_summary_run_get_tag_name (run, i));
          json_builder_set_member_name (builder, "kind");
          json_builder_add_string_value (builder, sl_summary_tag_kind_to_string (sl_summary_run_get_tag_kind (run, i)));
          json_builder_set_member_name (builder, "points");
          json_builder_add_int_value (builder, n);
          json_builder_set_member_name (builder, "first_step");
          json_builder_add_int_value (builder, first);
          json_builder_set_member_name (builder, "last_step");
          json_builder_add_int_value (builder, last);
          add_restart (builder, run, i);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);

      json_builder_set_member_name (builder, "graphs");
      json_builder_add_int_value (builder, sl_summary_run_get_graphs (run)->len);
      json_builder_set_member_name (builder, "lineage");
      json_builder_begin_object (builder);
      add_lineage (builder, run, "train", SL_LINEAGE_TRAIN);
      add_lineage (builder, run, "eval", SL_LINEAGE_EVAL);
      add_lineage (builder, run, "user", SL_LINEAGE_USER);
      json_builder_end_object (builder);
      sl_cli_json_add_problems (builder, sl_summary_run_get_problems (run), 0);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static void
print_text (GPtrArray *runs)
{
  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);
      GPtrArray *problems = sl_summary_run_get_problems (run);

      /* Translators: the run name, then its number of bad records */
      printf (_("run %s (bad records: %llu)\n"), sl_summary_run_get_name (run),
              (unsigned long long) sl_summary_run_get_n_bad_records (run));
      for (guint i = 0; i < sl_summary_run_get_n_files (run); i++)
        {
          SlSummaryFile *file = sl_summary_run_get_file (run, i);

          printf ("  %-9s %s  %llu/%llu\n", sl_summary_file_kind_to_string (file->kind), file->name,
                  (unsigned long long) file->offset, (unsigned long long) file->size);
        }
      for (guint i = 0; i < sl_summary_run_get_n_tags (run); i++)
        {
          gint64 first, last;
          guint n = sl_summary_run_get_tag_info (run, i, &first, &last);

          printf ("  %-14s %-32s %8u  %lld…%lld\n",
                  sl_summary_tag_kind_to_string (sl_summary_run_get_tag_kind (run, i)),
                  sl_summary_run_get_tag_name (run, i), n, (long long) first, (long long) last);
          {
            gint64 from, to;
            SlScalarSeries *series = restarted_series (run, i, &from, &to);
            guint dropped = series != NULL ? sl_scalar_series_get_n_dropped (series) : 0;

            if (series != NULL)
              /* Translators: a tag's steps went back (a restarted job): the last step before, the step
               * written again, how many earlier points were dropped, that step again */
              printf (g_dngettext (GETTEXT_PACKAGE,
                                   "    went back from step %lld to step %lld, a restarted job: %u point written "
                                   "before the restart, from step %lld on, was dropped; the later points are kept\n",
                                   "    went back from step %lld to step %lld, a restarted job: %u points written "
                                   "before the restart, from step %lld on, were dropped; the later points are kept\n",
                                   dropped),
                      (long long) from, (long long) to, dropped, (long long) to);
          }
        }
      for (guint i = 0; i < problems->len; i++)
        {
          SlProblem *problem = g_ptr_array_index (problems, i);

          fprintf (stderr, "  %s: %s: %s\n", sl_severity_to_string (sl_problem_get_severity (problem)),
                   sl_problem_get_path (problem), sl_problem_get_message (problem));
        }
    }
}

int
sl_cli_summary (int    argc,
                char **argv)
{
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *runs;
  gboolean json = FALSE;
  const char *path = NULL;

  if (!sl_cli_parse_path_options (&argc, &argv, "summary", _("PATH — list the runs, files and tags of training summaries"), &json, &path))
    return 2;

  reader = sl_summary_reader_new (path);
  if (!sl_summary_reader_update (reader, NULL, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  runs = sl_summary_reader_get_runs (reader);
  if (json)
    {
      g_autofree char *text = runs_to_json (runs);
      printf ("%s\n", text);
    }
  else
    {
      print_text (runs);
    }

  /* For the load benchmark: the peak memory of this process. */
  if (g_getenv ("SL_PRINT_PEAK_RSS") != NULL)
    fprintf (stderr, "peak_rss_bytes=%llu\n", (unsigned long long) sl_platform_get_peak_resident_bytes ());

  return 0;
}
