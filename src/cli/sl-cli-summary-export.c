/* sl-cli-summary-export.c: `sightline-cli summary-export PATH --run RUN --tag TAG --format csv|json`
 *
 * Prints the points of one scalar series. Exit status: 0 on success, 1
 * when PATH, the run or the tag is missing, 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-summary-reader.h"

static void
print_number (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    fputs ("NaN", stdout);
  else if (isinf (value))
    fputs (value > 0 ? "Infinity" : "-Infinity", stdout);
  else
    fputs (g_ascii_dtostr (buf, sizeof buf, value), stdout);
}

static void
print_json_number (double value)
{
  /* JSON has no NaN or infinity. */
  if (!isfinite (value))
    fputs ("null", stdout);
  else
    print_number (value);
}

int
sl_cli_summary_export (int    argc,
                       char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *run_name = NULL;
  g_autofree char *tag = NULL;
  g_autofree char *format = NULL;
  SlSummaryRun *run;
  SlScalarSeries *series;
  const gint64 *steps;
  const double *wall_times;
  const double *values;
  gint index;
  guint n;
  const GOptionEntry entries[] = {
    { "run", 0, 0, G_OPTION_ARG_STRING, &run_name, N_("The run, as listed by “summary”"), N_("RUN") },
    { "tag", 0, 0, G_OPTION_ARG_STRING, &tag, N_("The scalar tag"), N_("TAG") },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("csv or json"), N_("FORMAT") },
    { NULL }
  };

  context = g_option_context_new (_("PATH — print the points of one scalar series"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 2;
    }

  if (argc != 2 || run_name == NULL || tag == NULL)
    {
      sl_cli_print_error ("%s", _("summary-export needs a PATH, --run and --tag"));
      return 2;
    }
  if (format == NULL)
    format = g_strdup ("csv");
  if (!g_str_equal (format, "csv") && !g_str_equal (format, "json"))
    {
      sl_cli_print_error (_("unknown format “%s”: use csv or json"), format);
      return 2;
    }

  reader = sl_summary_reader_new (argv[1]);
  if (!sl_summary_reader_update (reader, NULL, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  run = sl_summary_reader_lookup_run (reader, run_name);
  if (run == NULL)
    {
      sl_cli_print_error (_("no run “%s” in “%s”"), run_name, argv[1]);
      return 1;
    }
  index = sl_summary_run_find_tag (run, SL_SUMMARY_TAG_SCALAR, tag);
  if (index < 0)
    {
      sl_cli_print_error (_("no scalar tag “%s” in run “%s”"), tag, run_name);
      return 1;
    }

  series = sl_summary_run_get_tag_series (run, index);
  n = sl_scalar_series_get_n_points (series);
  steps = sl_scalar_series_get_steps (series);
  wall_times = sl_scalar_series_get_wall_times (series);
  values = sl_scalar_series_get_values (series);

  if (g_str_equal (format, "csv"))
    {
      fputs ("step,wall_time,value\n", stdout);
      for (guint i = 0; i < n; i++)
        {
          printf ("%lld,", (long long) steps[i]);
          print_number (wall_times[i]);
          putchar (',');
          print_number (values[i]);
          putchar ('\n');
        }
    }
  else
    {
      g_autofree char *run_json = g_strescape (run_name, NULL);
      g_autofree char *tag_json = g_strescape (tag, NULL);

      printf ("{\"run\": \"%s\", \"tag\": \"%s\", \"points\": [", run_json, tag_json);
      for (guint i = 0; i < n; i++)
        {
          printf ("%s\n  {\"step\": %lld, \"wall_time\": ", i == 0 ? "" : ",", (long long) steps[i]);
          print_json_number (wall_times[i]);
          fputs (", \"value\": ", stdout);
          print_json_number (values[i]);
          putchar ('}');
        }
      fputs ("\n]}\n", stdout);
    }

  return 0;
}
