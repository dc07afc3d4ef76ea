/* sightline-demo-train.c: a small training job that writes real summaries
 *
 * Trains a multilayer perceptron on a generated two-spiral dataset with
 * plain C arithmetic, and writes genuine MindSpore-format summary files
 * through Sightline's own writer: loss, accuracy and learning-rate scalars,
 * weight and gradient histograms per layer, sample-input and
 * decision-boundary images, a weight tensor, the network graph with scopes,
 * and train/eval lineage. It honours MINDINSIGHT_HYPER_CONFIG as
 * MindInsight's HyperConfig does, so the tuner can drive it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "mindspore_anf_ir.pb-c.h"
#include "sl-demo-data.h"
#include "sl-demo-mlp.h"
#include "sl-demo-ops.h"
#include "sl-demo-plot.h"
#include "sl-demo-profiler.h"
#include "sl-summary-writer.h"

#define HYPER_CONFIG_MAX 100000
#define HISTOGRAM_BUCKETS 30
#define IMAGE_SIZE 160

typedef struct {
  int      epochs;
  double   learning_rate;
  int      batch_size;
  int      hidden;
  int      samples;
  char    *summary_dir;
  char    *profile_dir;
  gboolean slow;
  int      seed;
} Options;

static void
options_clear (Options *options)
{
  g_clear_pointer (&options->summary_dir, g_free);
  g_clear_pointer (&options->profile_dir, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* Applies MINDINSIGHT_HYPER_CONFIG: {"summary_dir": "...", "params": {...}}.
 * Like MindInsight's HyperConfig, the tuner's values win over the command
 * line; parameters this job does not know are reported, not fatal. */
static gboolean
apply_hyper_config (Options     *options,
                    const char  *text,
                    GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonObject *params = NULL;

  if (strlen (text) > HYPER_CONFIG_MAX)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("MINDINSIGHT_HYPER_CONFIG is longer than %d characters"), HYPER_CONFIG_MAX);
      return FALSE;
    }

  if (!json_parser_load_from_data (parser, text, -1, error))
    {
      g_prefix_error (error, _("MINDINSIGHT_HYPER_CONFIG is not valid JSON: "));
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("MINDINSIGHT_HYPER_CONFIG must be a JSON object with “summary_dir” and “params”"));
      return FALSE;
    }

  root = json_node_get_object (json_parser_get_root (parser));

  if (json_object_has_member (root, "summary_dir"))
    {
      JsonNode *node = json_object_get_member (root, "summary_dir");

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("“summary_dir” in MINDINSIGHT_HYPER_CONFIG must be a string"));
          return FALSE;
        }
      g_free (options->summary_dir);
      options->summary_dir = g_strdup (json_node_get_string (node));
    }

  if (json_object_has_member (root, "params"))
    {
      JsonNode *node = json_object_get_member (root, "params");

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("“params” in MINDINSIGHT_HYPER_CONFIG must be an object"));
          return FALSE;
        }
      params = json_node_get_object (node);
    }

  if (params != NULL)
    {
      g_autoptr(GList) names = json_object_get_members (params);

      for (const GList *l = names; l != NULL; l = l->next)
        {
          const char *name = l->data;
          JsonNode *value = json_object_get_member (params, name);
          double number;

          if (!JSON_NODE_HOLDS_VALUE (value) ||
              (json_node_get_value_type (value) != G_TYPE_DOUBLE && json_node_get_value_type (value) != G_TYPE_INT64))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("Parameter “%s” in MINDINSIGHT_HYPER_CONFIG must be a number"), name);
              return FALSE;
            }
          number = json_node_get_value_type (value) == G_TYPE_INT64 ? (double)json_node_get_int (value)
                                                                     : json_node_get_double (value);

          if (g_str_equal (name, "learning_rate"))
            options->learning_rate = number;
          else if (g_str_equal (name, "batch_size"))
            options->batch_size = (int)number;
          else if (g_str_equal (name, "epoch"))
            options->epochs = (int)number;
          else if (g_str_equal (name, "hidden"))
            options->hidden = (int)number;
          else
            g_printerr (_("Ignoring parameter “%s” from MINDINSIGHT_HYPER_CONFIG: this job has no such parameter\n"), name);
        }
    }

  return TRUE;
}

static gboolean
validate (Options  *options,
          GError  **error)
{
  if (options->epochs < 1 || options->epochs > 100000)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("The number of epochs must be from 1 to 100000"));
  else if (!(options->learning_rate > 0 && options->learning_rate <= 10))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("The learning rate must be above 0 and at most 10"));
  else if (options->batch_size < 1 || options->batch_size > options->samples)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 _("The batch size must be from 1 to the number of samples (%d)"), options->samples);
  else if (options->hidden < 2 || options->hidden > 256)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("The hidden layer width must be from 2 to 256"));
  else
    return TRUE;

  return FALSE;
}

/* Cosine decay: the learning-rate curve is worth looking at. */
static double
learning_rate_at (const Options *options,
                  gint64         step,
                  gint64         total_steps)
{
  return options->learning_rate * 0.5 * (1.0 + cos (G_PI * step / (double)total_steps));
}

static gboolean
write_histogram (SlSummaryWriter  *writer,
                 gint64            step,
                 double            wall_time,
                 const char       *tag,
                 const float      *values,
                 guint             n,
                 GError          **error)
{
  SlHistogramStats stats = { INFINITY, -INFINITY, 0, 0, 0, 0, 0 };
  double lefts[HISTOGRAM_BUCKETS], widths[HISTOGRAM_BUCKETS];
  gint64 counts[HISTOGRAM_BUCKETS] = { 0 };
  double width;

  for (guint i = 0; i < n; i++)
    {
      stats.count++;
      if (isnan (values[i]))
        stats.nan_count++;
      else if (isinf (values[i]))
        values[i] > 0 ? stats.pos_inf_count++ : stats.neg_inf_count++;
      else
        {
          stats.min = MIN (stats.min, values[i]);
          stats.max = MAX (stats.max, values[i]);
          stats.sum += values[i];
        }
    }

  width = (stats.max - stats.min) / HISTOGRAM_BUCKETS;
  if (!(width > 0))
    width = 1e-6;

  for (guint b = 0; b < HISTOGRAM_BUCKETS; b++)
    {
      lefts[b] = stats.min + b * width;
      widths[b] = width;
    }
  for (guint i = 0; i < n; i++)
    {
      if (isfinite (values[i]))
        counts[MIN ((guint)((values[i] - stats.min) / width), HISTOGRAM_BUCKETS - 1)]++;
    }

  return sl_summary_writer_add_histogram (writer, step, wall_time, tag, &stats, HISTOGRAM_BUCKETS,
                                          lefts, widths, counts, error);
}

static gboolean
write_layer_histograms (SlSummaryWriter  *writer,
                        SlDemoMlp        *mlp,
                        gint64            step,
                        double            wall_time,
                        GError          **error)
{
  for (guint l = 0; l < SL_DEMO_MLP_N_LAYERS; l++)
    {
      const SlDemoLayer *layer = &mlp->layers[l];
      const char *name = sl_demo_mlp_layer_name (l);
      guint n = layer->n_in * layer->n_out;
      g_autofree char *weight_tag = g_strdup_printf ("%s.weight", name);
      g_autofree char *bias_tag = g_strdup_printf ("%s.bias", name);
      g_autofree char *grad_tag = g_strdup_printf ("%s.weight/gradient", name);

      if (!write_histogram (writer, step, wall_time, weight_tag, layer->weight, n, error) ||
          !write_histogram (writer, step, wall_time, bias_tag, layer->bias, layer->n_out, error) ||
          !write_histogram (writer, step, wall_time, grad_tag, layer->grad_weight, n, error))
        return FALSE;
    }

  return TRUE;
}

static Mindinsight__NodeProto *
new_node (const char              *name,
          const char              *op_type,
          const char              *scope,
          Mindinsight__InputProto **inputs,
          gsize                     n_inputs)
{
  Mindinsight__NodeProto *node = g_new0 (Mindinsight__NodeProto, 1);

  mindinsight__node_proto__init (node);
  node->name = g_strdup (name);
  node->op_type = g_strdup (op_type);
  node->scope = g_strdup (scope);
  node->full_name = g_strdup_printf ("%s/%s-op%s", scope, op_type, name);
  node->input = inputs;
  node->n_input = n_inputs;
  return node;
}

static Mindinsight__InputProto **
new_inputs (guint n,
            ...)
{
  Mindinsight__InputProto **inputs = g_new0 (Mindinsight__InputProto *, n);
  va_list args;

  va_start (args, n);
  for (guint i = 0; i < n; i++)
    {
      inputs[i] = g_new0 (Mindinsight__InputProto, 1);
      mindinsight__input_proto__init (inputs[i]);
      inputs[i]->name = g_strdup (va_arg (args, const char *));
    }
  va_end (args);
  return inputs;
}

static void
free_graph (Mindinsight__GraphProto *graph)
{
  for (gsize i = 0; i < graph->n_node; i++)
    {
      Mindinsight__NodeProto *node = graph->node[i];

      for (gsize j = 0; j < node->n_input; j++)
        {
          g_free (node->input[j]->name);
          g_free (node->input[j]);
        }
      g_free (node->input);
      g_free (node->name);
      g_free (node->op_type);
      g_free (node->scope);
      g_free (node->full_name);
      g_free (node);
    }
  for (gsize i = 0; i < graph->n_parameters; i++)
    {
      g_free (graph->parameters[i]->name);
      g_free (graph->parameters[i]);
    }
  g_free (graph->parameters);
  g_free (graph->node);
}

/* The graph MindSpore would record for this network, with scopes, so the
 * graph view has namespaces to fold; its ops are named as the profiler
 * names them (sl-demo-ops.c). */
static GBytes *
build_graph (void)
{
  static const char *parameters[] = {
    "x", "label", "dense1.weight", "dense1.bias", "dense2.weight", "dense2.bias", "dense3.weight", "dense3.bias",
  };
  Mindinsight__GraphProto graph = MINDINSIGHT__GRAPH_PROTO__INIT;
  g_autofree guint8 *buffer = NULL;
  gsize size;

  graph.name = (char *)"mlp_construct";
  graph.node = g_new0 (Mindinsight__NodeProto *, sl_demo_ops_get_n ());
  for (guint i = 0; i < sl_demo_ops_get_n (); i++)
    {
      const SlDemoOp *op = sl_demo_ops_get (i);
      Mindinsight__InputProto **inputs;
      g_autofree char *id = NULL;

      if (op->in0 == NULL)
        continue;
      inputs = op->in1 ? new_inputs (2, op->in0, op->in1) : new_inputs (1, op->in0);
      id = g_strdup_printf ("%u", op->id);
      graph.node[graph.n_node++] = new_node (id, op->type, op->scope, inputs, op->in1 ? 2 : 1);
    }

  graph.n_parameters = G_N_ELEMENTS (parameters);
  graph.parameters = g_new0 (Mindinsight__ParameterProto *, graph.n_parameters);
  for (guint i = 0; i < G_N_ELEMENTS (parameters); i++)
    {
      graph.parameters[i] = g_new0 (Mindinsight__ParameterProto, 1);
      mindinsight__parameter_proto__init (graph.parameters[i]);
      graph.parameters[i]->name = g_strdup (parameters[i]);
    }

  size = mindinsight__graph_proto__get_packed_size (&graph);
  buffer = g_malloc (size);
  mindinsight__graph_proto__pack (&graph, buffer);
  free_graph (&graph);

  return g_bytes_new_take (g_steal_pointer (&buffer), size);
}

static gboolean
train (Options  *options,
       GError  **error)
{
  g_autoptr(SlDemoData) data = sl_demo_data_new_spirals (options->samples, 0.04f, options->seed);
  g_autoptr(SlDemoData) valid = sl_demo_data_new_spirals (options->samples / 4, 0.04f, options->seed + 1);
  g_autoptr(SlDemoMlp) mlp = sl_demo_mlp_new (options->hidden, 0.9f, options->seed + 2);
  g_autoptr(GRand) rand = g_rand_new_with_seed (options->seed + 3);
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GBytes) graph = build_graph ();
  g_autoptr(GBytes) samples = sl_demo_plot_samples (data, IMAGE_SIZE);
  guint batches = (data->n + options->batch_size - 1) / options->batch_size;
  gint64 total_steps = (gint64)batches * options->epochs;
  gint64 step = 0;
  double last_loss = 0, valid_accuracy = 0, valid_loss = 0;
  g_autofree char *metric = NULL;
  g_autoptr(SlDemoProfiler) profiler = NULL;
  g_autofree float *batch_x = NULL;
  g_autofree guint8 *batch_label = NULL;

  if (g_mkdir_with_parents (options->summary_dir, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot create the summary folder %s: %s"),
                   options->summary_dir, g_strerror (errno));
      return FALSE;
    }

  writer = sl_summary_writer_new (options->summary_dir, g_get_real_time () / G_USEC_PER_SEC, g_get_host_name (), error);
  if (writer == NULL ||
      !sl_summary_writer_add_graph (writer, 0, g_get_real_time () / 1e6, graph, error) ||
      !sl_summary_writer_add_image (writer, 0, g_get_real_time () / 1e6, "input_samples", IMAGE_SIZE, IMAGE_SIZE, 3,
                                    samples, error))
    return FALSE;

  g_print (_("Training an MLP (2-%d-%d-2) on %d samples for %d epochs, batch %d, learning rate %g\n"),
           options->hidden, options->hidden, options->samples, options->epochs, options->batch_size,
           options->learning_rate);
  g_print (_("Writing summaries to %s\n"), sl_summary_writer_get_path (writer));

  if (options->profile_dir != NULL)
    {
      profiler = sl_demo_profiler_new (mlp, options->batch_size);
      batch_x = g_new (float, 2 * options->batch_size);
      batch_label = g_new (guint8, options->batch_size);
    }

  for (int epoch = 1; epoch <= options->epochs; epoch++)
    {
      double wall_time;

      sl_demo_data_shuffle (data, rand);

      for (guint b = 0; b < batches; b++)
        {
          guint first = b * options->batch_size;
          guint n = MIN ((guint)options->batch_size, data->n - first);
          double lr = learning_rate_at (options, step, total_steps);
          guint correct = 0;

          step++;
          if (profiler != NULL)
            {
              /* Loading the batch is this job's data pipeline: the profile's data wait. */
              sl_demo_profiler_begin_step (profiler);
              sl_demo_profiler_begin_data (profiler);
              memcpy (batch_x, data->x + 2 * first, sizeof (float) * 2 * n);
              memcpy (batch_label, data->label + first, n);
              sl_demo_profiler_end_data (profiler);
              last_loss = sl_demo_mlp_train_batch_traced (mlp, batch_x, batch_label, n, lr, &correct,
                                                          sl_demo_profiler_op, profiler);
              sl_demo_profiler_end_step (profiler);
            }
          else
            last_loss = sl_demo_mlp_train_batch (mlp, data->x + 2 * first, data->label + first, n, lr, &correct);
          wall_time = g_get_real_time () / 1e6;

          if (!sl_summary_writer_add_scalar (writer, step, wall_time, "loss", last_loss, error) ||
              !sl_summary_writer_add_scalar (writer, step, wall_time, "accuracy", correct / (double)n, error) ||
              !sl_summary_writer_add_scalar (writer, step, wall_time, "learning_rate", lr, error))
            return FALSE;

          /* --slow spreads a run over minutes, for watching live updates. */
          if (options->slow)
            {
              if (!sl_summary_writer_flush (writer, error))
                return FALSE;
              g_usleep (150 * G_TIME_SPAN_MILLISECOND);
            }
        }

      wall_time = g_get_real_time () / 1e6;
      valid_loss = sl_demo_mlp_evaluate (mlp, valid->x, valid->label, valid->n, &valid_accuracy);

      if (!sl_summary_writer_add_scalar (writer, step, wall_time, "eval/loss", valid_loss, error) ||
          !sl_summary_writer_add_scalar (writer, step, wall_time, "eval/accuracy", valid_accuracy, error) ||
          !write_layer_histograms (writer, mlp, step, wall_time, error))
        return FALSE;

      if (epoch == 1 || epoch == options->epochs || epoch % 5 == 0)
        {
          g_autoptr(GBytes) boundary = sl_demo_plot_decision_boundary (mlp, valid, IMAGE_SIZE);
          const SlDemoLayer *last = &mlp->layers[SL_DEMO_MLP_N_LAYERS - 1];
          const gint64 dims[2] = { last->n_out, last->n_in };

          if (!sl_summary_writer_add_image (writer, step, wall_time, "decision_boundary", IMAGE_SIZE, IMAGE_SIZE, 3,
                                            boundary, error) ||
              !sl_summary_writer_add_tensor (writer, step, wall_time, "dense3.weight", 2, dims,
                                             last->n_out * last->n_in, last->weight, error))
            return FALSE;
        }

      if (!sl_summary_writer_flush (writer, error))
        return FALSE;

      g_print (_("epoch %d/%d: loss %.4f, validation loss %.4f, validation accuracy %.1f%%\n"),
               epoch, options->epochs, last_loss, valid_loss, 100 * valid_accuracy);
    }

  metric = g_strdup_printf ("{\"accuracy\": %.6f, \"loss\": %.6f}", valid_accuracy, valid_loss);
  if (!sl_summary_writer_add_train_lineage (writer, g_get_real_time () / 1e6, "Momentum", options->learning_rate,
                                            "SoftmaxCrossEntropyWithLogits", options->epochs, options->batch_size,
                                            "MLP", last_loss, error) ||
      !sl_summary_writer_add_eval_lineage (writer, g_get_real_time () / 1e6, metric, "generated:two-spirals",
                                           valid->n, error))
    return FALSE;

  if (!sl_summary_writer_close (writer, error))
    return FALSE;

  if (profiler != NULL)
    {
      if (!sl_demo_profiler_write (profiler, options->profile_dir, error))
        return FALSE;
      g_print (_("Wrote the profile of %u steps to %s\n"), sl_demo_profiler_get_n_steps (profiler),
               options->profile_dir);
    }

  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_auto(Options) options = { 30, 0.2, 32, 16, 1024, NULL, NULL, FALSE, 7 };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const char *hyper_config;
  const GOptionEntry entries[] = {
    { "epochs", 0, 0, G_OPTION_ARG_INT, &options.epochs, N_("Number of epochs (default 30)"), N_("N") },
    { "lr", 0, 0, G_OPTION_ARG_DOUBLE, &options.learning_rate, N_("Initial learning rate (default 0.2)"), N_("RATE") },
    { "batch-size", 0, 0, G_OPTION_ARG_INT, &options.batch_size, N_("Samples per batch (default 32)"), N_("N") },
    { "hidden", 0, 0, G_OPTION_ARG_INT, &options.hidden, N_("Width of the hidden layers (default 16)"), N_("N") },
    { "samples", 0, 0, G_OPTION_ARG_INT, &options.samples, N_("Training samples (default 1024)"), N_("N") },
    { "summary-dir", 0, 0, G_OPTION_ARG_FILENAME, &options.summary_dir, N_("Where to write summaries (default ./summary)"), N_("DIR") },
    { "profile", 0, 0, G_OPTION_ARG_FILENAME, &options.profile_dir, N_("Time every step and operation and write a MindSpore-style profiler folder to DIR"), N_("DIR") },
    { "slow", 0, 0, G_OPTION_ARG_NONE, &options.slow, N_("Pause between steps so a run lasts minutes, for live views"), NULL },
    { "seed", 0, 0, G_OPTION_ARG_INT, &options.seed, N_("Random seed (default 7)"), N_("N") },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("SIGHTLINE_LOCALEDIR") ? g_getenv ("SIGHTLINE_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Train a small network on generated data and write MindSpore summaries."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("sightline-demo-train: %s\n", error->message);
      return 2;
    }

  if (options.summary_dir == NULL)
    options.summary_dir = g_strdup ("summary");

  hyper_config = g_getenv ("MINDINSIGHT_HYPER_CONFIG");
  if (hyper_config != NULL && !apply_hyper_config (&options, hyper_config, &error))
    {
      g_printerr ("sightline-demo-train: %s\n", error->message);
      return 2;
    }

  if (!validate (&options, &error))
    {
      g_printerr ("sightline-demo-train: %s\n", error->message);
      return 2;
    }

  if (!train (&options, &error))
    {
      g_printerr ("sightline-demo-train: %s\n", error->message);
      return 1;
    }

  return 0;
}
