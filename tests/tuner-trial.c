/* tuner-trial.c: a trial program for the tuner's tests and bench
 *
 * Reads MINDINSIGHT_HYPER_CONFIG as a training script would, evaluates a
 * test function at its params and writes the value as lineage into its
 * summary_dir: the evaluation metric {"value": v} and the train lineage's
 * loss v. FUNCTION is branin (x1, x2), hartmann6 (x1 … x6) or bowl (x,
 * and optionally n and kind). With --fail-above T it exits with 3 when x
 * is above T, a trial that fails.
 *
 * Usage: tuner-trial FUNCTION [--fail-above T]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "sl-summary-writer.h"

static double
param (JsonObject *params,
       const char *name,
       double      fallback)
{
  JsonNode *node = json_object_get_member (params, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return (double)strlen (json_node_get_string (node));
  return json_node_get_value_type (node) == G_TYPE_INT64 ? (double)json_node_get_int (node)
                                                         : json_node_get_double (node);
}

static double
branin (JsonObject *params)
{
  double x1 = param (params, "x1", NAN), x2 = param (params, "x2", NAN);
  double b = 5.1 / (4 * G_PI * G_PI), c = 5 / G_PI, t = 1 / (8 * G_PI);

  return pow (x2 - b * x1 * x1 + c * x1 - 6, 2) + 10 * (1 - t) * cos (x1) + 10;
}

static double
hartmann6 (JsonObject *params)
{
  static const double alpha[4] = { 1.0, 1.2, 3.0, 3.2 };
  static const double a[4][6] = {
    { 10, 3, 17, 3.5, 1.7, 8 }, { 0.05, 10, 17, 0.1, 8, 14 },
    { 3, 3.5, 1.7, 10, 17, 8 }, { 17, 8, 0.05, 10, 0.1, 14 },
  };
  static const double p[4][6] = {
    { 0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886 }, { 0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991 },
    { 0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650 }, { 0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381 },
  };
  double x[6], sum = 0;

  for (guint k = 0; k < 6; k++)
    {
      char name[4] = { 'x', (char)('1' + k), 0 };

      x[k] = param (params, name, NAN);
    }
  for (guint i = 0; i < 4; i++)
    {
      double inner = 0;

      for (guint k = 0; k < 6; k++)
        inner += a[i][k] * (x[k] - p[i][k]) * (x[k] - p[i][k]);
      sum += alpha[i] * exp (-inner);
    }
  return -sum;
}

static double
bowl (JsonObject *params)
{
  double x = param (params, "x", 0);

  return (x - 0.3) * (x - 0.3) + 0.01 * fabs (param (params, "n", 3) - 3) + 0.01 * param (params, "kind", 0);
}

int
main (int    argc,
      char **argv)
{
  const char *text = g_getenv ("MINDINSIGHT_HYPER_CONFIG");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *metric = NULL;
  JsonObject *root, *params;
  const char *summary_dir;
  double value;

  if (argc < 2 || text == NULL || !json_parser_load_from_data (parser, text, -1, &error) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      fprintf (stderr, "tuner-trial: needs FUNCTION and MINDINSIGHT_HYPER_CONFIG\n");
      return 2;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  params = json_object_get_object_member (root, "params");
  summary_dir = json_object_get_string_member (root, "summary_dir");

  if (argc >= 4 && g_str_equal (argv[2], "--fail-above") && param (params, "x", 0) > g_ascii_strtod (argv[3], NULL))
    {
      fprintf (stderr, "tuner-trial: x = %g is too large for this trial\n", param (params, "x", 0));
      return 3;
    }

  if (g_str_equal (argv[1], "branin"))
    value = branin (params);
  else if (g_str_equal (argv[1], "hartmann6"))
    value = hartmann6 (params);
  else
    value = bowl (params);

  metric = g_strdup_printf ("{\"value\": %.17g}", value);
  if (g_mkdir_with_parents (summary_dir, 0755) != 0 ||
      !(writer = sl_summary_writer_new (summary_dir, g_get_real_time () / G_USEC_PER_SEC, "trial", &error)) ||
      !sl_summary_writer_add_train_lineage (writer, g_get_real_time () / 1e6, "None", 0, "None", 1, 1, argv[1],
                                            value, &error) ||
      !sl_summary_writer_add_eval_lineage (writer, g_get_real_time () / 1e6, metric, argv[1], 1, &error) ||
      !sl_summary_writer_close (writer, &error))
    {
      fprintf (stderr, "tuner-trial: %s\n", error != NULL ? error->message : summary_dir);
      return 1;
    }
  printf ("%s = %.9g\n", argv[1], value);
  return 0;
}
