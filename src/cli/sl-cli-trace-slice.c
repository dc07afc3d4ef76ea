/* sl-cli-trace-slice.c: `sightline-cli trace-slice PATH --from T0 --to T1
 *                         [--track NAME]... -o OUT [--format json|csv]`
 *                       `sightline-cli trace-slice PATH --step N [--rank R] ...`
 *
 * Writes the events of a time range (microseconds from the trace's start)
 * as Chrome trace JSON that chrome://tracing and Perfetto open, or the
 * slices as CSV. With --step the range is that step of the profile's step
 * trace (the step numbered N, of rank index R, else of the first rank
 * that has it), placed on the timeline as the Steps chart places it. --track keeps the tracks whose name or thread id is NAME,
 * or every track of a process of that name. Exit status: 0 when written,
 * 1 when PATH cannot be read or OUT cannot be written, or when reading
 * PATH met an error (the events read before it are written, the problems
 * listed), 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-chrome-trace-writer.h"
#include "sl-cli.h"
#include "sl-profile-loader.h"
#include "sl-replace-stream.h"
#include "sl-step-export.h"

static gboolean
select_tracks (SlTrace  *trace,
               char    **names,
               GArray   *tracks)
{
  for (guint n = 0; names != NULL && names[n] != NULL; n++)
    {
      gboolean found = FALSE;

      for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
        {
          const char *process_name = sl_trace_get_process_name (trace, sl_trace_get_track_process (trace, t));

          if (g_strcmp0 (sl_trace_get_track_name (trace, t), names[n]) == 0 ||
              g_strcmp0 (sl_trace_get_track_tid (trace, t), names[n]) == 0 ||
              g_strcmp0 (process_name, names[n]) == 0)
            {
              g_array_append_val (tracks, t);
              found = TRUE;
            }
        }
      if (!found)
        {
          sl_cli_print_error (_("no track or process is named “%s”"), names[n]);
          return FALSE;
        }
    }
  return TRUE;
}

/* start + offset, saturated at both ends */
static gint64
from_start (SlTrace *trace,
            gint64   offset_ns)
{
  gint64 start = sl_trace_get_start_ns (trace);

  if (offset_ns > 0 && start > G_MAXINT64 - offset_ns)
    return G_MAXINT64;
  if (offset_ns < 0 && start < G_MININT64 - offset_ns)
    return G_MININT64;
  return start + offset_ns;
}

/* The step table of rank @rank (or, when negative, of the first rank
 * that has step @step) and the index of the step in it. */
static SlStepTrace *
find_step (SlProfile *profile,
           int        rank,
           gint64     step,
           guint     *index)
{
  for (guint r = 0; r < sl_profile_get_n_ranks (profile); r++)
    {
      const SlProfileRank *info = sl_profile_get_rank (profile, r);
      int found;

      if ((rank >= 0 && (guint)rank != r) || info->steps == NULL)
        continue;
      if ((found = sl_step_export_find_step (info->steps, step)) >= 0)
        {
          *index = (guint)found;
          return info->steps;
        }
    }
  return NULL;
}

/* Sets the range to step @step_text of PATH's step trace. Returns the
 * exit status on failure, 0 on success. */
static int
range_of_step (const char *path,
               SlTrace    *trace,
               const char *step_text,
               int         rank,
               gint64     *from_ns,
               gint64     *to_ns)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProfile) profile = NULL;
  SlStepTrace *steps;
  gint64 step;
  guint index = 0;

  if (!g_ascii_string_to_signed (step_text, 10, G_MININT64, G_MAXINT64, &step, NULL))
    {
      sl_cli_print_error (_("--step takes a step number, like 3"));
      return 2;
    }
  if (!(profile = sl_profile_load (path, NULL, NULL, NULL, &error)))
    {
      sl_cli_print_error (_("--step needs a profiler folder with a step trace: %s"), error->message);
      return 1;
    }
  if (rank >= 0 && (guint)rank >= sl_profile_get_n_ranks (profile))
    {
      guint n = sl_profile_get_n_ranks (profile);

      /* TRANSLATORS: a profile's path, its number of ranks, the rank asked for */
      sl_cli_print_error (g_dngettext (GETTEXT_PACKAGE, "%s has %u rank: there is no rank %d",
                                       "%s has %u ranks: there is no rank %d", n), path, n, rank);
      return 1;
    }
  if (!(steps = find_step (profile, rank, step, &index)))
    {
      sl_cli_print_error (_("no step trace of %s has step %lld"), path, (long long)step);
      return 1;
    }
  if (!sl_step_export_get_range (trace, steps, index, from_ns, to_ns, NULL, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }
  return 0;
}

int
sl_cli_trace_slice (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("PATH — write a time range of a trace"));
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTrace) trace = NULL;
  g_autoptr(GArray) tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GFile) file = NULL;
  g_autoptr(SlReplaceStream) out = NULL;
  g_autofree char *from_text = NULL;
  g_autofree char *to_text = NULL;
  g_autofree char *output = NULL;
  g_autofree char *format = NULL;
  g_autofree char *step_text = NULL;
  g_auto(GStrv) track_names = NULL;
  int rank = -1;
  gint64 from_ns = 0, to_ns = 0;
  guint64 n_written = 0;
  g_autofree char *written = NULL;
  gboolean ok;
  const GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text, N_("Start of the range, in µs from the trace's start"), N_("T0") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_text, N_("End of the range, in µs from the trace's start"), N_("T1") },
    { "step", 0, 0, G_OPTION_ARG_STRING, &step_text, N_("The range of this step of the profile's step trace"), N_("N") },
    { "rank", 0, 0, G_OPTION_ARG_INT, &rank, N_("With --step: the index of the rank whose step trace to use"), N_("R") },
    { "track", 0, 0, G_OPTION_ARG_STRING_ARRAY, &track_names, N_("Keep only this track, thread id or process (repeatable)"), N_("NAME") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("File to write"), N_("OUT") },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("json (default) or csv"), N_("FORMAT") },
    { NULL }
  };

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }
  if (argc != 2)
    {
      if (argc < 2)
        sl_cli_print_error (_("%s needs a PATH"), "trace-slice");
      else
        sl_cli_print_error (_("%s takes a single PATH"), "trace-slice");
      return 2;
    }
  if (output == NULL)
    {
      sl_cli_print_error ("%s", _("trace-slice needs -o OUT"));
      return 2;
    }
  if (format != NULL && !g_str_equal (format, "json") && !g_str_equal (format, "csv"))
    {
      sl_cli_print_error (_("unknown format “%s”: use json or csv"), format);
      return 2;
    }
  if (step_text != NULL && (from_text != NULL || to_text != NULL))
    {
      sl_cli_print_error ("%s", _("--step takes the place of --from and --to"));
      return 2;
    }
  if (rank >= 0 && step_text == NULL)
    {
      sl_cli_print_error ("%s", _("--rank goes with --step"));
      return 2;
    }
  if ((from_text != NULL && !sl_cli_parse_trace_time (from_text, &from_ns)) ||
      (to_text != NULL && !sl_cli_parse_trace_time (to_text, &to_ns)))
    {
      sl_cli_print_error ("%s", _("--from and --to take microseconds, like 1500 or 12.25"));
      return 2;
    }

  if (!(trace = sl_cli_load_trace (argv[1], &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (step_text != NULL)
    {
      int status = range_of_step (argv[1], trace, step_text, rank, &from_ns, &to_ns);

      if (status != 0)
        return status;
    }
  else
    {
      /* relative to the trace's start; an open end runs to the trace's end */
      from_ns = from_text != NULL ? from_start (trace, from_ns) : G_MININT64;
      to_ns = to_text != NULL ? from_start (trace, to_ns) : G_MAXINT64;
    }
  if (from_ns > to_ns)
    {
      sl_cli_print_error ("%s", _("--from is after --to"));
      return 2;
    }
  if (!select_tracks (trace, track_names, tracks))
    return 2;

  /* OUT is replaced only once the whole range is written. */
  file = g_file_new_for_commandline_arg (output);
  if (!(out = sl_replace_stream_new (file, NULL, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (format != NULL && g_str_equal (format, "csv"))
    ok = sl_trace_write_slices_csv (trace, from_ns, to_ns,
                                    track_names != NULL ? (guint *) (gpointer) tracks->data : NULL, tracks->len,
                                    G_OUTPUT_STREAM (out), &n_written, NULL, &error);
  else
    ok = sl_chrome_trace_write_range (trace, from_ns, to_ns,
                                      track_names != NULL ? (guint *) (gpointer) tracks->data : NULL, tracks->len,
                                      G_OUTPUT_STREAM (out), &n_written, NULL, &error);
  if (!ok || !sl_replace_stream_commit (out, NULL, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  written = sl_count_format (n_written);
  /* Translators: a count of events (or CSV rows), then a file name */
  printf (g_dngettext (GETTEXT_PACKAGE, "wrote %s event to %s\n", "wrote %s events to %s\n", n_written),
          written, output);
  sl_cli_print_trace_problems (trace);
  return sl_cli_trace_exit_status (trace);
}
