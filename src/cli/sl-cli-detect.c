/* sl-cli-detect.c: `sightline-cli detect PATH [--json]`
 *
 * Prints what the detector recognised in a folder or file, one line per
 * finding, and the problems it met on stderr. Exit status: 0 when the
 * detection ran (even with problems), 1 when the path is missing or
 * cannot be read, 2 on bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"
#include "sl-detector.h"

static void
print_findings (SlDetection *detection)
{
  GListModel *findings = sl_detection_get_findings (detection);
  guint n = g_list_model_get_n_items (findings);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
      g_autofree char *summary = sl_finding_dup_summary (finding);

      printf ("%-18s  %s  %s\n",
              sl_finding_kind_to_id (sl_finding_get_kind (finding)),
              sl_finding_get_name (finding),
              summary);
    }
}

static void
print_problems (SlDetection *detection)
{
  GListModel *problems = sl_detection_get_problems (detection);
  guint n = g_list_model_get_n_items (problems);

  if (n == 0)
    return;

  /* Keep the sections in order when both streams go to a terminal. */
  fflush (stdout);
  fprintf (stderr, "\n%s\n", _("Problems:"));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);
      g_autofree char *location = sl_problem_dup_location (problem);
      const char *path = sl_problem_get_path (problem);

      if (location != NULL)
        fprintf (stderr, "  %s: %s (%s): %s\n",
                 sl_severity_to_string (sl_problem_get_severity (problem)),
                 path ? path : "", location, sl_problem_get_message (problem));
      else
        fprintf (stderr, "  %s: %s: %s\n",
                 sl_severity_to_string (sl_problem_get_severity (problem)),
                 path ? path : "", sl_problem_get_message (problem));
    }
}

static void
print_text (SlDetection *detection)
{
  guint n_findings = g_list_model_get_n_items (sl_detection_get_findings (detection));
  guint n_problems = g_list_model_get_n_items (sl_detection_get_problems (detection));
  guint n_files = sl_detection_get_files_scanned (detection);

  print_findings (detection);

  /* Translators: the three numbers are findings, problems and files */
  printf (_("findings: %u, problems: %u, files scanned: %u\n"), n_findings, n_problems, n_files);

  print_problems (detection);
}

int
sl_cli_detect (int    argc,
               char **argv)
{
  g_autoptr(SlDetector) detector = NULL;
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GError) error = NULL;
  gboolean json = FALSE;
  const char *path = NULL;

  if (!sl_cli_parse_path_options (&argc, &argv, "detect", _("PATH — recognise what a folder or file holds"), &json, &path))
    return 2;

  detector = sl_detector_new (path);
  detection = sl_detector_run (detector, NULL, &error);
  if (detection == NULL)
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (json)
    {
      g_autofree char *text = sl_detection_to_json (detection);
      printf ("%s\n", text);
    }
  else
    {
      print_text (detection);
    }

  return 0;
}
