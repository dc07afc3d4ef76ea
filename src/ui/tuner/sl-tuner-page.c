/* sl-tuner-page.c
 *
 * The page reads its configuration file and the newest study of it from
 * the workspace database in a worker, then shows: the controls (target,
 * number of trials, how many at once, Start, Pause or Resume, Stop), the
 * trials table, the best value so far, the Gaussian process's mean and
 * uncertainty along each parameter with the others at the best trial,
 * and a form that writes the configuration file. A started study runs in
 * a worker (sl_tuner_study_run_async); each trial that changes redraws
 * the table and the charts from a copy of the trials. The widgets are the
 * template sl-tuner-page.ui; only the charts, whose number follows the
 * configuration's parameters, are built in code.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "sl-count-format.h"
#include "sl-bayes-optimizer.h"
#include "sl-local-target.h"
#include "sl-remote-run.h"
#include "sl-replace-stream.h"
#include "sl-session.h"
#include "sl-tuner-curves.h"
#include "sl-tuner-page.h"
#include "sl-tuner-plot.h"
#include "sl-tuner-study.h"
#include "sl-tuner-trial-item.h"
#include "sl-data-table.h"
#include "sl-workspace-store-tuner.h"

struct _SlTunerPage
{
  SlDocument     parent_instance;

  GCancellable  *cancellable;
  gboolean       closed;
  SlTunerConfig *config;
  GPtrArray     *trials;        /* SlTunerTrial */
  char          *study_target;  /* where the shown study ran */
  SlTunerStudy  *study;         /* while one runs */
  SlTarget      *target;

  GtkWidget     *status_label;
  GtkWidget     *target_dropdown;
  GtkStringList *target_names;
  GtkWidget     *trials_spin;
  GtkWidget     *parallel_spin;
  GtkWidget     *start_button;
  GtkWidget     *pause_button;
  GtkWidget     *stop_button;
  GtkWidget     *trials_table;
  GListStore    *trials_store;   /* SlTunerTrialItem */
  SlTunerConfig *columns_config; /* the configuration the columns show */
  GtkWidget     *best_plot;
  GtkWidget     *slices_box;
  GPtrArray     *slice_plots;
  GCancellable  *refit_cancellable;  /* while the model's curves are worked out */
  guint          n_bands;            /* charts showing the model's band */

  GtkWidget     *command_entry;
  GtkWidget     *base_entry;
  GtkWidget     *method_dropdown;
  GtkWidget     *target_name_entry;
  GtkWidget     *group_dropdown;
  GtkWidget     *goal_dropdown;
  GtkWidget     *parameters_view;
  GtkTextBuffer *parameters_buffer;
  GtkWidget     *form_label;
};

G_DEFINE_FINAL_TYPE (SlTunerPage, sl_tuner_page, SL_TYPE_DOCUMENT)

/* In the order of the Acquisition drop-down's items in sl-tuner-page.ui; the
 * Read from and Goal drop-downs list the groups and goals in their enums' order. */
static const char * const method_names[] = { "ucb", "ei", "pi", "log_ei", NULL };

/* Loading */

typedef struct {
  SlTunerConfig *config;
  char          *config_error;
  GPtrArray     *trials;
  char          *study_target;
  GPtrArray     *target_names;
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_clear_object (&loaded->config);
  g_free (loaded->config_error);
  g_clear_pointer (&loaded->trials, g_ptr_array_unref);
  g_free (loaded->study_target);
  g_clear_pointer (&loaded->target_names, g_ptr_array_unref);
  g_free (loaded);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *db_path = task_data;
  SlTunerPage *self = source_object;
  g_autofree char *path = g_canonicalize_filename (sl_document_get_path (SL_DOCUMENT (self)), NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlWorkspaceStore) store = NULL;
  Loaded *loaded = g_new0 (Loaded, 1);

  loaded->target_names = g_ptr_array_new_with_free_func (g_free);
  /* The first entry is this computer, shown by its name, run as "local". */
  g_ptr_array_add (loaded->target_names, g_strdup (_("This computer")));

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      loaded->config = sl_tuner_config_new_from_file (path, &error);
      if (loaded->config == NULL)
        loaded->config_error = g_strdup (error->message);
      g_clear_error (&error);
    }

  if (db_path != NULL && (store = sl_workspace_store_new_for_path (db_path, NULL)) != NULL)
    {
      g_autoptr(SlTunerStudyRow) row = sl_workspace_store_find_latest_tuner_study (store, path, NULL);
      g_autoptr(GPtrArray) targets = sl_workspace_store_list_targets (store, NULL);

      if (row != NULL)
        {
          loaded->trials = sl_workspace_store_list_tuner_trials (store, row->id, NULL);
          loaded->study_target = g_strdup (row->target_name);
        }
      for (guint i = 0; targets != NULL && i < targets->len; i++)
        g_ptr_array_add (loaded->target_names, g_strdup (sl_target_record_get_name (g_ptr_array_index (targets, i))));
    }

  g_task_return_pointer (task, loaded, loaded_free);
}

/* Reading the trials */

static gboolean
trial_values (SlBayesOptimizer   *optimizer,
              const SlTunerTrial *trial,
              double             *values)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  return json_parser_load_from_data (parser, trial->params, -1, NULL) &&
         JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) &&
         sl_bayes_optimizer_values_from_json (optimizer, json_node_get_object (json_parser_get_root (parser)),
                                              values, NULL);
}

static char *
format_value (const SlTunerParameter *parameter,
              double                  value)
{
  if (parameter->choice_labels != NULL)
    return g_strdup (parameter->choice_labels[(guint)CLAMP (value, 0, parameter->n_choices - 1)]);
  if (parameter->type == SL_TUNER_PARAM_INT)
    return g_strdup_printf ("%.0f", value);
  return g_strdup_printf ("%.4g", value);
}

/* The table: the shared table (sl-data-table.c) with the trials'
 * columns; the parameters' columns follow the configuration. */

static char *
number_text (gpointer item,
             gpointer user_data)
{
  return g_strdup_printf ("%u", sl_tuner_trial_item_get_trial (item)->number);
}

static double
number_number (gpointer item,
               gpointer user_data)
{
  return sl_tuner_trial_item_get_trial (item)->number;
}

static char *
parameter_text (gpointer item,
                gpointer user_data)
{
  const char *text = sl_tuner_trial_item_get_value_text (item, GPOINTER_TO_UINT (user_data));

  return g_strdup (text != NULL ? text : "?");
}

static double
parameter_number (gpointer item,
                  gpointer user_data)
{
  return sl_tuner_trial_item_get_value (item, GPOINTER_TO_UINT (user_data));
}

static char *
value_text (gpointer item,
            gpointer user_data)
{
  const SlTunerTrial *trial = sl_tuner_trial_item_get_trial (item);

  return trial->has_value ? g_strdup_printf ("%.6g", trial->value) : g_strdup ("—");
}

static double
value_number (gpointer item,
              gpointer user_data)
{
  const SlTunerTrial *trial = sl_tuner_trial_item_get_trial (item);

  return trial->has_value ? trial->value : NAN;
}

static char *
value_csv (gpointer item,
           gpointer user_data)
{
  const SlTunerTrial *trial = sl_tuner_trial_item_get_trial (item);

  char *text;

  /* Nothing for no value; else the fewest digits that read back as the
   * value (0.044096, not 0.044095999999999996). */
  if (!trial->has_value)
    return g_strdup ("");
  text = g_strdup_printf ("%.15g", trial->value);
  if (g_ascii_strtod (text, NULL) != trial->value)
    {
      g_free (text);
      text = g_strdup_printf ("%.17g", trial->value);
    }
  return text;
}

static const char *
value_style (gpointer item,
             gpointer user_data)
{
  return sl_tuner_trial_item_is_best (item) ? "success" : NULL;
}

static char *
state_text (gpointer item,
            gpointer user_data)
{
  return g_strdup (sl_tuner_trial_state_to_label (sl_tuner_trial_item_get_trial (item)->state));
}

static double
state_number (gpointer item,
              gpointer user_data)
{
  return sl_tuner_trial_item_get_trial (item)->state;
}

static const char *
state_style (gpointer item,
             gpointer user_data)
{
  return sl_tuner_trial_item_get_trial (item)->state == SL_TUNER_TRIAL_FAILED ? "error" : NULL;
}

static char *
reason_text (gpointer item,
             gpointer user_data)
{
  return g_strdup (sl_tuner_trial_item_get_trial (item)->reason);
}

static char *
target_text (gpointer item,
             gpointer user_data)
{
  const char *target = sl_tuner_trial_item_get_target (item);

  return g_strdup (target != NULL ? target : "—");
}

static double
time_number (gpointer item,
             gpointer user_data)
{
  const SlTunerTrial *trial = sl_tuner_trial_item_get_trial (item);
  gint64 end = trial->finished_at > 0 ? trial->finished_at : g_get_real_time ();

  if (trial->started_at <= 0)
    return NAN;
  return (end - trial->started_at) / (double)G_USEC_PER_SEC;
}

static char *
time_text (gpointer item,
           gpointer user_data)
{
  double seconds = time_number (item, user_data);

  return isnan (seconds) ? g_strdup ("—") : g_strdup_printf ("%.1f", seconds);
}

static gboolean
has_summaries (const SlTunerTrial *trial)
{
  return trial->summary_dir != NULL && trial->state == SL_TUNER_TRIAL_SUCCEEDED;
}

static char *
summaries_text (gpointer item,
                gpointer user_data)
{
  return has_summaries (sl_tuner_trial_item_get_trial (item)) ? g_strdup (_("Scalars")) : NULL;
}

static char *
summaries_path (gpointer item,
                gpointer user_data)
{
  return g_strdup (sl_tuner_trial_item_get_trial (item)->summary_dir);
}

/* The run's summaries open in Scalars. */
static GVariant *
summaries_target (gpointer item,
                  gpointer user_data)
{
  const SlTunerTrial *trial = sl_tuner_trial_item_get_trial (item);

  if (!has_summaries (trial))
    return NULL;
  return g_variant_new ("(ssv)", "scalars", trial->summary_dir, g_variant_new_string (""));
}

static void
define_columns (SlTunerPage *self)
{
  SlDataTable *table = SL_DATA_TABLE (self->trials_table);
  guint n_params = sl_tuner_config_get_n_parameters (self->config);
  const char *target_name = sl_tuner_config_get_target_name (self->config);

  sl_data_table_remove_columns (table);
  sl_data_table_append_column (table, &(SlDataColumn) {
    .id = "number", .title = "#", .flags = SL_DATA_COLUMN_NUMERIC,
    .text = number_text, .number = number_number,
  }, NULL, NULL);
  for (guint p = 0; p < n_params; p++)
    {
      const SlTunerParameter *parameter = sl_tuner_config_get_parameter (self->config, p);
      g_autofree char *id = g_strdup_printf ("parameter-%u", p);

      /* A choice is a word, ordered as the configuration lists them. */
      sl_data_table_append_column (table, &(SlDataColumn) {
        .id = id, .title = parameter->name,
        .flags = (parameter->choice_labels != NULL ? 0 : SL_DATA_COLUMN_NUMERIC) | SL_DATA_COLUMN_SEARCHABLE,
        .text = parameter_text, .number = parameter_number,
      }, GUINT_TO_POINTER (p), NULL);
    }
  sl_data_table_append_column (table, &(SlDataColumn) {
    .id = "value", .title = target_name != NULL && target_name[0] != '\0' ? target_name : _("Value"), .flags = SL_DATA_COLUMN_NUMERIC,
    .text = value_text, .number = value_number, .csv = value_csv, .style = value_style,
  }, NULL, NULL);
  sl_data_table_append_column (table, &(SlDataColumn) {
    .id = "state", .title = _("State"), .flags = SL_DATA_COLUMN_SEARCHABLE,
    .text = state_text, .number = state_number, .tooltip = reason_text, .style = state_style,
  }, NULL, NULL);
  sl_data_table_append_column (table, &(SlDataColumn) {
    .id = "target", .title = _("Target"), .flags = SL_DATA_COLUMN_SEARCHABLE, .text = target_text,
  }, NULL, NULL);
  sl_data_table_append_column (table, &(SlDataColumn) {
    .id = "time", .title = _("Time"), .unit = _("s"), .flags = SL_DATA_COLUMN_NUMERIC,
    .text = time_text, .number = time_number,
  }, NULL, NULL);
  sl_data_table_append_column (table, &(SlDataColumn) {
    .id = "summaries", .title = _("Summaries"), .flags = SL_DATA_COLUMN_BUTTON,
    .text = summaries_text, .tooltip = summaries_path, .csv = summaries_path,
    .action = "win.open-document", .action_target = summaries_target,
  }, NULL, NULL);
  sl_data_table_append_column (table, &(SlDataColumn) {
    .id = "reason", .title = _("Reason"), .flags = SL_DATA_COLUMN_EXPAND | SL_DATA_COLUMN_SEARCHABLE,
    .text = reason_text, .css_class = "dim-label",
  }, NULL, NULL);
  g_set_object (&self->columns_config, self->config);
}

static void
fill_table (SlTunerPage      *self,
            SlBayesOptimizer *optimizer,
            const SlTunerTrial *best)
{
  guint n_params = sl_tuner_config_get_n_parameters (self->config);
  const char *target = self->study != NULL ? sl_target_get_name (self->target) : self->study_target;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->columns_config != self->config)
    define_columns (self);

  for (guint i = 0; i < self->trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (self->trials, i);
      double *numbers = g_new0 (double, MAX (n_params, 1));
      char **values = NULL;

      if (trial_values (optimizer, trial, numbers))
        {
          values = g_new0 (char *, n_params + 1);
          for (guint p = 0; p < n_params; p++)
            values[p] = format_value (sl_tuner_config_get_parameter (self->config, p), numbers[p]);
        }
      else
        g_clear_pointer (&numbers, g_free);
      g_ptr_array_add (items, sl_tuner_trial_item_new (trial, target, trial == best, values, numbers, n_params));
    }
  g_list_store_splice (self->trials_store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->trials_store)),
                       items->pdata, items->len);
}

/* The charts */

static void
fill_best_curve (SlTunerPage *self)
{
  SlTunerGoal goal = sl_tuner_config_get_goal (self->config);
  g_autoptr(GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) y = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) best_y = g_array_new (FALSE, FALSE, sizeof (double));
  double best = NAN;

  for (guint i = 0; i < self->trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (self->trials, i);
      double number = trial->number;

      if (!trial->has_value)
        continue;
      if (isnan (best) || (goal == SL_TUNER_GOAL_MAXIMIZE ? trial->value > best : trial->value < best))
        best = trial->value;
      g_array_append_val (x, number);
      g_array_append_val (y, trial->value);
      g_array_append_val (best_y, best);
    }
  sl_tuner_plot_set_points (SL_TUNER_PLOT (self->best_plot), (double *)x->data, (double *)y->data, x->len);
  sl_tuner_plot_set_line (SL_TUNER_PLOT (self->best_plot), (double *)x->data, (double *)best_y->data, x->len);
}

/* The model's curves are worked out in a worker (sl-tuner-curves.c);
 * only the newest computation is drawn. */
static void
curves_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SlTunerPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTunerCurves) curves = sl_tuner_curves_compute_finish (result, &error);

  if (curves == NULL || self->closed)
    return;
  g_clear_object (&self->refit_cancellable);
  self->n_bands = 0;
  for (guint p = 0; p < sl_tuner_curves_get_n_slices (curves) && p < self->slice_plots->len; p++)
    {
      const SlTunerParameter *parameter = sl_tuner_config_get_parameter (self->config, p);
      SlTunerPlot *plot = g_ptr_array_index (self->slice_plots, p);
      const double *x, *mean, *stddev, *px, *py;
      guint n_band = sl_tuner_curves_get_band (curves, p, &x, &mean, &stddev);
      guint n_points = sl_tuner_curves_get_points (curves, p, &px, &py);

      sl_tuner_plot_set_log_x (plot, sl_tuner_parameter_is_log_scale (parameter));
      sl_tuner_plot_set_band (plot, x, mean, stddev, n_band);
      sl_tuner_plot_set_points (plot, px, py, n_points);
      self->n_bands += n_band > 0;
    }
}

/* Along each parameter, the others at the best trial's values. A newer
 * refit makes the one still running useless: it is cancelled. */
static void
start_refit (SlTunerPage        *self,
             const SlTunerTrial *best)
{
  if (self->refit_cancellable != NULL)
    g_cancellable_cancel (self->refit_cancellable);
  g_clear_object (&self->refit_cancellable);
  self->refit_cancellable = g_cancellable_new ();
  sl_tuner_curves_compute_async (self->config, self->trials, best != NULL ? best->number : 0, self->refit_cancellable,
                                 curves_done_cb, g_object_ref (self));
}

static void
rebuild_slices (SlTunerPage *self)
{
  GtkWidget *child;

  /* Curves for the charts about to go would never be drawn. */
  if (self->refit_cancellable != NULL)
    g_cancellable_cancel (self->refit_cancellable);
  g_clear_object (&self->refit_cancellable);
  self->n_bands = 0;
  while ((child = gtk_widget_get_first_child (self->slices_box)) != NULL)
    {
      if (gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child)) == self->best_plot)
        gtk_flow_box_child_set_child (GTK_FLOW_BOX_CHILD (child), NULL);
      gtk_flow_box_remove (GTK_FLOW_BOX (self->slices_box), child);
    }
  g_ptr_array_set_size (self->slice_plots, 0);
  gtk_flow_box_append (GTK_FLOW_BOX (self->slices_box), self->best_plot);
  for (guint p = 0; self->config != NULL && p < sl_tuner_config_get_n_parameters (self->config); p++)
    {
      const SlTunerParameter *parameter = sl_tuner_config_get_parameter (self->config, p);
      /* Translators: a chart's title; %s is a hyperparameter's name */
      g_autofree char *title = g_strdup_printf (_("Along %s (mean ± 2σ)"), parameter->name);
      GtkWidget *plot = sl_tuner_plot_new (title);

      g_ptr_array_add (self->slice_plots, plot);
      gtk_flow_box_append (GTK_FLOW_BOX (self->slices_box), plot);
    }
}

static void
update_status (SlTunerPage        *self,
               const SlTunerTrial *best)
{
  g_autofree char *text = NULL;
  guint finished = 0, running = 0;
  g_autofree char *finished_text = NULL;
  g_autofree char *running_text = NULL;

  for (guint i = 0; i < self->trials->len; i++)
    {
      const SlTunerTrial *trial = g_ptr_array_index (self->trials, i);

      if (sl_tuner_trial_is_finished (trial))
        finished++;
      else if (trial->state == SL_TUNER_TRIAL_RUNNING)
        running++;
    }
  finished_text = sl_count_format (finished);
  running_text = sl_count_format (running);
  if (best != NULL)
    /* Translators: the Tuner's status line */
    text = g_strdup_printf (_("%s trials done, %s running; best %s = %.6g (trial %u)"), finished_text, running_text,
                            sl_tuner_config_get_target_name (self->config), best->value, best->number);
  else if (self->trials->len > 0)
    text = g_strdup_printf (_("%s trials done, %s running; no value yet"), finished_text, running_text);
  else
    text = g_strdup (_("No trials yet: choose a target and start the study"));
  gtk_label_set_text (GTK_LABEL (self->status_label), text);

  gtk_widget_set_sensitive (self->start_button, self->study == NULL && self->config != NULL);
  gtk_widget_set_sensitive (self->pause_button, self->study != NULL);
  gtk_widget_set_sensitive (self->stop_button, self->study != NULL);
  /* Red only while there is something to stop. */
  if (self->study != NULL)
    gtk_widget_add_css_class (self->stop_button, "destructive-action");
  else
    gtk_widget_remove_css_class (self->stop_button, "destructive-action");
  gtk_button_set_label (GTK_BUTTON (self->pause_button),
                        self->study != NULL && sl_tuner_study_get_paused (self->study) ? _("Resume") : _("Pause"));
}

static void
refresh (SlTunerPage *self)
{
  g_autoptr(SlBayesOptimizer) optimizer = NULL;
  const SlTunerTrial *best;

  if (self->config == NULL || sl_tuner_config_get_n_parameters (self->config) == 0)
    return;
  if (self->study != NULL)
    {
      g_ptr_array_unref (self->trials);
      self->trials = sl_tuner_study_dup_trials (self->study);
    }

  /* Unfitted: it only reads the trials' parameters for the table. */
  optimizer = sl_bayes_optimizer_new (self->config, 1);
  best = sl_tuner_trials_find_best (self->trials, sl_tuner_config_get_goal (self->config));
  fill_table (self, optimizer, best);
  fill_best_curve (self);
  start_refit (self, best);
  update_status (self, best);
}

/* The form */

static void
select_string (GtkWidget          *dropdown,
               const char * const *names,
               const char         *name)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (names[i], name) == 0)
      gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), i);
}

/* The parameters as the lines of the YAML mapping, one per parameter. */
static char *
parameters_text (SlTunerConfig *config)
{
  g_autofree char *yaml = sl_tuner_config_to_yaml (config);
  const char *start = strstr (yaml, "\nparameters:\n");
  g_auto(GStrv) lines = NULL;
  GString *out = g_string_new (NULL);

  if (start == NULL)
    return g_string_free (out, FALSE);
  lines = g_strsplit (start + strlen ("\nparameters:\n"), "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "    "))
        g_string_append_printf (out, "%s%s", g_str_has_suffix (out->str, ": ") ? "{" : ", ", line + 4);
      else if (g_str_has_prefix (line, "  "))
        {
          if (out->len > 0)
            g_string_append (out, "}\n");
          g_string_append_printf (out, "%s ", line + 2);
        }
    }
  if (out->len > 0)
    g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

static void
fill_form (SlTunerPage *self)
{
  g_autofree char *parameters = NULL;

  if (self->config == NULL)
    return;
  gtk_editable_set_text (GTK_EDITABLE (self->command_entry), sl_tuner_config_get_command (self->config) ?: "");
  gtk_editable_set_text (GTK_EDITABLE (self->base_entry), sl_tuner_config_get_summary_base_dir (self->config) ?: "");
  gtk_editable_set_text (GTK_EDITABLE (self->target_name_entry), sl_tuner_config_get_target_name (self->config) ?: "");
  select_string (self->method_dropdown, method_names, sl_tuner_method_to_id (sl_tuner_config_get_method (self->config)));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->group_dropdown), sl_tuner_config_get_target_group (self->config));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->goal_dropdown), sl_tuner_config_get_goal (self->config));
  parameters = parameters_text (self->config);
  gtk_text_buffer_set_text (self->parameters_buffer, parameters, -1);
}

/* The form's mistakes name the line of the Parameters box (the reader
 * saw them below the lines the other fields made), and the field. */
static void
relate_to_parameters (GError     **error,
                      const char  *head)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  guint head_lines = 0;
  g_autofree char *prefix = g_strdup_printf ("%s:", _("the form"));

  if (error == NULL || *error == NULL)
    return;
  for (const char *p = head; *p != '\0'; p++)
    head_lines += *p == '\n';

  lines = g_strsplit ((*error)->message, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      unsigned long row = 0, column = 0;
      char *end = NULL;

      if (g_str_has_prefix (line, prefix))
        {
          row = strtoul (line + strlen (prefix), &end, 10);
          if (end != NULL && *end == ':')
            column = strtoul (end + 1, &end, 10);
        }
      if (out->len > 0)
        g_string_append_c (out, '\n');
      if (row > head_lines && end != NULL && *end == ':')
        /* Translators: where a mistake is in the form's Parameters box */
        g_string_append_printf (out, _("Parameters, line %lu, column %lu:%s"), row - head_lines,
                                column > 2 ? column - 2 : 1, end + 1);
      else
        g_string_append (out, line);
    }
  g_free ((*error)->message);
  (*error)->message = g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * sl_tuner_page_dup_form_yaml:
 *
 * Returns: (transfer full) (nullable): the form as the configuration
 *   file, checked by the reader; %NULL with its mistakes in @error
 */
char *
sl_tuner_page_dup_form_yaml (SlTunerPage  *self,
                             GError      **error)
{
  g_autoptr(SlTunerConfig) head = sl_tuner_config_new ();
  g_autoptr(SlTunerConfig) parsed = NULL;
  g_autoptr(GString) text = NULL;
  g_autofree char *yaml = NULL;
  g_autofree char *parameters = NULL;
  g_auto(GStrv) lines = NULL;
  GtkTextIter start, end;
  SlTunerMethod method = SL_TUNER_METHOD_UCB;

  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), NULL);

  sl_tuner_config_set_command (head, gtk_editable_get_text (GTK_EDITABLE (self->command_entry)));
  sl_tuner_config_set_summary_base_dir (head, gtk_editable_get_text (GTK_EDITABLE (self->base_entry)));
  sl_tuner_method_from_id (method_names[MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->method_dropdown)), 3)],
                           &method);
  sl_tuner_config_set_method (head, method);
  sl_tuner_config_set_target (head, MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->group_dropdown)), 1),
                              gtk_editable_get_text (GTK_EDITABLE (self->target_name_entry)),
                              MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->goal_dropdown)), 1));
  yaml = sl_tuner_config_to_yaml (head);
  text = g_string_new (yaml);

  gtk_text_buffer_get_bounds (self->parameters_buffer, &start, &end);
  parameters = gtk_text_buffer_get_text (self->parameters_buffer, &start, &end, FALSE);
  lines = g_strsplit (parameters, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*g_strstrip (lines[i]) != '\0')
      g_string_append_printf (text, "  %s\n", lines[i]);

  parsed = sl_tuner_config_new_from_data (_("the form"), text->str, text->len, error);
  if (parsed == NULL)
    {
      relate_to_parameters (error, yaml);
      return NULL;
    }
  return sl_tuner_config_to_yaml (parsed);
}

void
sl_tuner_page_set_form_parameters (SlTunerPage *self,
                                   const char  *text)
{
  g_return_if_fail (SL_IS_TUNER_PAGE (self));
  gtk_text_buffer_set_text (self->parameters_buffer, text, -1);
}

void
sl_tuner_page_set_form_fields (SlTunerPage *self,
                               const char  *command,
                               const char  *summary_base_dir,
                               const char  *target_name)
{
  g_return_if_fail (SL_IS_TUNER_PAGE (self));
  gtk_editable_set_text (GTK_EDITABLE (self->command_entry), command);
  gtk_editable_set_text (GTK_EDITABLE (self->base_entry), summary_base_dir);
  gtk_editable_set_text (GTK_EDITABLE (self->target_name_entry), target_name);
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SlTunerPage *self = source_object;
  g_autoptr(GFile) file = g_file_new_for_path (sl_document_get_path (SL_DOCUMENT (self)));
  GError *error = NULL;

  if (sl_replace_file_contents (file, task_data, strlen (task_data), cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void load_study (SlTunerPage *self);

static void
save_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  SlTunerPage *self = SL_TUNER_PAGE (source);
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (GTK_LABEL (self->form_label), error->message);
      return;
    }
  gtk_label_set_text (GTK_LABEL (self->form_label), _("Saved"));
  load_study (self);
}

/* Writes the form to the document's file, in a worker, and reloads. */
void
sl_tuner_page_save_form (SlTunerPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;
  char *yaml;

  g_return_if_fail (SL_IS_TUNER_PAGE (self));

  yaml = sl_tuner_page_dup_form_yaml (self, &error);
  if (yaml == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->form_label), error->message);
      return;
    }
  task = g_task_new (self, self->cancellable, save_done_cb, NULL);
  g_task_set_task_data (task, yaml, g_free);
  g_task_run_in_thread (task, save_thread);
}

/* Loading, again */

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  SlTunerPage *self = SL_TUNER_PAGE (source);
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), NULL);

  if (loaded == NULL)
    return;

  g_set_object (&self->config, loaded->config);
  if (self->study == NULL)
    {
      g_ptr_array_unref (self->trials);
      self->trials = loaded->trials != NULL ? g_ptr_array_ref (loaded->trials)
                                            : g_ptr_array_new_with_free_func ((GDestroyNotify)sl_tuner_trial_free);
      g_free (self->study_target);
      self->study_target = g_strdup (loaded->study_target);
    }

  g_ptr_array_add (loaded->target_names, NULL);
  gtk_string_list_splice (self->target_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->target_names)),
                          (const char * const *)loaded->target_names->pdata);
  for (guint i = 0; self->study_target != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->target_names)); i++)
    if (g_str_equal (gtk_string_list_get_string (self->target_names, i), self->study_target)
        || (i == 0 && g_str_equal (self->study_target, "local")))
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->target_dropdown), i);

  if (loaded->config_error != NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->form_label), loaded->config_error);
      gtk_label_set_text (GTK_LABEL (self->status_label), _("The configuration has mistakes: see the form below"));
    }
  else if (self->config == NULL)
    gtk_label_set_text (GTK_LABEL (self->status_label), _("No configuration yet: fill in the form and save it"));

  rebuild_slices (self);
  fill_form (self);
  refresh (self);
  update_status (self, self->config != NULL ? sl_tuner_trials_find_best (self->trials, sl_tuner_config_get_goal (self->config)) : NULL);
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
  loaded_free (loaded);
}

static void
load_study (SlTunerPage *self)
{
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, load_done_cb, NULL);
  SlWorkspace *workspace = sl_document_get_workspace (SL_DOCUMENT (self));

  g_task_set_task_data (task, g_strdup (workspace != NULL ? sl_workspace_get_db_path (workspace) : NULL), g_free);
  g_task_run_in_thread (task, load_thread);
}

static void
sl_tuner_page_load (SlDocument *document)
{
  load_study (SL_TUNER_PAGE (document));
}

/* Running */

static void
trial_changed_cb (SlTunerStudy *study,
                  guint         number,
                  SlTunerPage  *self)
{
  refresh (self);
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  SlTunerPage *self = user_data;
  g_autoptr(GError) error = NULL;

  /* Closed while it ran: the study was stopped and resumes next time. */
  if (self->closed)
    {
      g_signal_handlers_disconnect_by_data (self->study, self);
      g_clear_object (&self->study);
      g_object_unref (self);
      return;
    }

  if (!sl_tuner_study_run_finish (SL_TUNER_STUDY (source), result, &error))
    {
      g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_ERROR, _("Tuner"), sl_document_get_path (SL_DOCUMENT (self)),
                                                     -1, error->message);

      sl_document_add_problem (SL_DOCUMENT (self), problem);
    }
  refresh (self);
  g_signal_handlers_disconnect_by_data (self->study, self);
  g_clear_object (&self->study);
  g_free (self->study_target);
  self->study_target = g_strdup (sl_target_get_name (self->target));
  update_status (self, sl_tuner_trials_find_best (self->trials, sl_tuner_config_get_goal (self->config)));
  g_object_unref (self);
}

static SlTarget *
find_target (SlTunerPage  *self,
             const char   *name,
             GError      **error)
{
  SlWorkspace *workspace = sl_document_get_workspace (SL_DOCUMENT (self));
  GListModel *targets;

  if (g_strcmp0 (name, "local") == 0 || workspace == NULL)
    return sl_local_target_new ();
  targets = sl_workspace_get_targets (workspace);
  for (guint i = 0; i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) record = g_list_model_get_item (targets, i);

      if (g_strcmp0 (sl_target_record_get_name (record), name) == 0)
        return sl_target_new_from_record (record, error);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no target “%s”"), name);
  return NULL;
}

/**
 * sl_tuner_page_start:
 *
 * Starts, or resumes, the study of the document's configuration on the
 * target; the trials run in the project folder the file is in.
 */
gboolean
sl_tuner_page_start (SlTunerPage  *self,
                     const char   *target_name,
                     guint         n_trials,
                     guint         parallel,
                     GError      **error)
{
  SlWorkspace *workspace;
  g_autofree char *project = NULL;

  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), FALSE);

  if (self->study != NULL)
    return TRUE;
  if (self->config == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("Save a valid configuration first"));
      return FALSE;
    }
  workspace = sl_document_get_workspace (SL_DOCUMENT (self));
  g_clear_object (&self->target);
  if (workspace == NULL || !(self->target = find_target (self, target_name, error)))
    return FALSE;

  project = g_path_get_dirname (sl_document_get_path (SL_DOCUMENT (self)));
  self->study = sl_tuner_study_new (self->config, sl_document_get_path (SL_DOCUMENT (self)), self->target, project,
                                    sl_workspace_get_db_path (workspace));
  sl_tuner_study_set_max_trials (self->study, n_trials);
  sl_tuner_study_set_parallel (self->study, parallel);
  g_signal_connect (self->study, "trial-changed", G_CALLBACK (trial_changed_cb), self);
  /* The trials are jobs of the session, in every window's Jobs list and
   * Console, as the command line's are. */
  if (sl_session_find_for_workspace (workspace) != NULL)
    sl_session_run_study (sl_session_find_for_workspace (workspace), self->study, self->cancellable, run_done_cb,
                          g_object_ref (self));
  else
    sl_tuner_study_run_async (self->study, self->cancellable, run_done_cb, g_object_ref (self));
  update_status (self, NULL);
  return TRUE;
}

void
sl_tuner_page_pause (SlTunerPage *self)
{
  g_return_if_fail (SL_IS_TUNER_PAGE (self));
  if (self->study != NULL)
    sl_tuner_study_pause (self->study);
  refresh (self);
}

void
sl_tuner_page_resume (SlTunerPage *self)
{
  g_return_if_fail (SL_IS_TUNER_PAGE (self));
  if (self->study != NULL)
    sl_tuner_study_resume (self->study);
  refresh (self);
}

void
sl_tuner_page_stop (SlTunerPage *self)
{
  g_return_if_fail (SL_IS_TUNER_PAGE (self));
  if (self->study != NULL)
    sl_tuner_study_stop (self->study);
}

gboolean
sl_tuner_page_is_running (SlTunerPage *self)
{
  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), FALSE);
  return self->study != NULL;
}

/**
 * sl_tuner_page_get_table:
 *
 * Returns: (transfer none): the trials table
 */
SlDataTable *
sl_tuner_page_get_table (SlTunerPage *self)
{
  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), NULL);
  return SL_DATA_TABLE (self->trials_table);
}

guint
sl_tuner_page_get_n_trials (SlTunerPage *self)
{
  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), 0);
  return self->trials->len;
}

/* How many parameter charts there are. */
guint
sl_tuner_page_get_n_slices (SlTunerPage *self)
{
  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), 0);
  return self->slice_plots->len;
}

/* How many parameter charts show the model's band, as last drawn. */
guint
sl_tuner_page_get_n_bands (SlTunerPage *self)
{
  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), 0);
  return self->n_bands;
}

/* Whether the model's curves are being worked out for a newer state. */
gboolean
sl_tuner_page_is_refitting (SlTunerPage *self)
{
  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), FALSE);
  return self->refit_cancellable != NULL;
}

SlTunerConfig *
sl_tuner_page_get_config (SlTunerPage *self)
{
  g_return_val_if_fail (SL_IS_TUNER_PAGE (self), NULL);
  return self->config;
}

static void
start_clicked_cb (SlTunerPage *self)
{
  g_autoptr(GError) error = NULL;
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->target_dropdown));
  const char *name = selected != GTK_INVALID_LIST_POSITION && selected > 0
                     ? gtk_string_list_get_string (self->target_names, selected) : "local";

  if (!sl_tuner_page_start (self, name, (guint)gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->trials_spin)),
                            (guint)gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->parallel_spin)), &error))
    gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
}

static void
pause_clicked_cb (SlTunerPage *self)
{
  if (self->study != NULL && sl_tuner_study_get_paused (self->study))
    sl_tuner_page_resume (self);
  else
    sl_tuner_page_pause (self);
}

/* Building: the page's widgets are its template, sl-tuner-page.ui; only
 * the charts, one a parameter, are made here as the configuration says. */

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  start_clicked_cb (SL_TUNER_PAGE (widget));
}

static void
pause_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  pause_clicked_cb (SL_TUNER_PAGE (widget));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  sl_tuner_page_stop (SL_TUNER_PAGE (widget));
}

static void
save_configuration_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  sl_tuner_page_save_form (SL_TUNER_PAGE (widget));
}

static void
sl_tuner_page_init (SlTunerPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->trials = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_tuner_trial_free);
  self->slice_plots = g_ptr_array_new ();

  self->parameters_buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->parameters_view));
  self->trials_store = g_list_store_new (SL_TYPE_TUNER_TRIAL_ITEM);
  sl_data_table_set_model (SL_DATA_TABLE (self->trials_table), G_LIST_MODEL (self->trials_store));
  sl_data_table_set_content_height (SL_DATA_TABLE (self->trials_table), 230, 480);
  sl_data_table_set_export_title (SL_DATA_TABLE (self->trials_table), _("Export Trials"), "trials.csv");

  /* Translators: a chart's title */
  self->best_plot = g_object_ref_sink (sl_tuner_plot_new (_("Value of each trial, and the best so far")));
  update_status (self, NULL);
}

static void
sl_tuner_page_dispose (GObject *object)
{
  SlTunerPage *self = SL_TUNER_PAGE (object);

  self->closed = TRUE;
  g_cancellable_cancel (self->cancellable);
  if (self->refit_cancellable != NULL)
    g_cancellable_cancel (self->refit_cancellable);
  g_clear_object (&self->refit_cancellable);
  if (self->study != NULL)
    {
      /* Trials end with the window; the study resumes next time. */
      g_signal_handlers_disconnect_by_data (self->study, self);
      sl_tuner_study_stop (self->study);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TUNER_PAGE);
  panel_widget_set_child (PANEL_WIDGET (self), NULL);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->config);
  g_clear_object (&self->columns_config);
  g_clear_object (&self->trials_store);
  g_clear_object (&self->target);
  g_clear_pointer (&self->trials, g_ptr_array_unref);
  g_clear_pointer (&self->slice_plots, g_ptr_array_unref);
  g_clear_object (&self->best_plot);
  g_clear_pointer (&self->study_target, g_free);

  G_OBJECT_CLASS (sl_tuner_page_parent_class)->dispose (object);
}

static void
sl_tuner_page_class_init (SlTunerPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SlDocumentClass *document_class = SL_DOCUMENT_CLASS (klass);

  object_class->dispose = sl_tuner_page_dispose;
  document_class->load = sl_tuner_page_load;
  g_type_ensure (SL_TYPE_TUNER_PLOT);
  g_type_ensure (SL_TYPE_DATA_TABLE);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-tuner-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, target_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, target_names);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, trials_spin);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, parallel_spin);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, start_button);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, pause_button);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, stop_button);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, trials_table);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, slices_box);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, command_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, base_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, method_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, target_name_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, group_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, goal_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, parameters_view);
  gtk_widget_class_bind_template_child (widget_class, SlTunerPage, form_label);

  gtk_widget_class_install_action (widget_class, "tuner.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "tuner.pause", NULL, pause_action);
  gtk_widget_class_install_action (widget_class, "tuner.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "tuner.save-configuration", NULL, save_configuration_action);
}
