/* test-tuner-page.c: the Tuner document running a study of the bowl
 * (tests/tuner-trial.c) on this computer, and its form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gui-test-util.h"
#include "sl-tuner-page.h"
#include "sl-tuner-trial-item.h"

static gboolean
page_settled (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  return state == SL_DOCUMENT_READY || state == SL_DOCUMENT_FAILED;
}

/* The session's jobs that are trials: each trial is one, started and ended. */
typedef struct {
  guint started;
  guint finished;
  GHashTable *trials;
} TrialJobs;

static void
trial_job_started_cb (SlSession  *session,
                      guint       job,
                      const char *title,
                      const char *command_line,
                      TrialJobs  *jobs)
{
  if (g_str_has_prefix (title, "Tuner trial "))
    {
      jobs->started++;
      g_hash_table_add (jobs->trials, GUINT_TO_POINTER (job));
    }
}

static void
trial_job_finished_cb (SlSession  *session,
                       guint       job,
                       int         exit_code,
                       const char *reason,
                       TrialJobs  *jobs)
{
  if (g_hash_table_remove (jobs->trials, GUINT_TO_POINTER (job)))
    jobs->finished++;
}

static gboolean
trial_jobs_finished (gpointer data)
{
  TrialJobs *jobs = data;

  return jobs->finished == jobs->started;
}

static gboolean
study_ended (gpointer data)
{
  return !sl_tuner_page_is_running (data);
}

/* The model's curves come from a worker, after the table. */
static gboolean
curves_drawn (gpointer data)
{
  return !sl_tuner_page_is_refitting (data);
}

typedef struct {
  const char *path;
  const char *expected;
} FileWait;

static gboolean
file_holds (gpointer data)
{
  FileWait *wait = data;
  g_autofree char *text = NULL;

  return g_file_get_contents (wait->path, &text, NULL, NULL) && strstr (text, wait->expected) != NULL;
}


static void
text_read (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(char **)user_data = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
}

static gboolean
text_ready (gpointer data)
{
  return *(char **)data != NULL;
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkDropDown *
find_target_dropdown (GtkWidget *widget)
{
  if (GTK_IS_DROP_DOWN (widget)
      && g_strcmp0 (gtk_widget_get_tooltip_text (widget), "The target the trials run on") == 0)
    return GTK_DROP_DOWN (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkDropDown *found = find_target_dropdown (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

typedef struct {
  guint numbers;     /* number cells shown */
  guint cut;         /* of them, cut or narrower than their text */
  guint buttons;     /* Scalars buttons shown */
  GtkWidget *button; /* one of them */
} CellCount;

static void
count_cells (GtkWidget *widget,
             CellCount *count)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "numeric") &&
      gtk_label_get_text (GTK_LABEL (widget))[0] != '\0')
    {
      int natural = 0;

      gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      count->numbers++;
      if (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))) ||
          gtk_widget_get_width (widget) < natural)
        count->cut++;
    }
  if (GTK_IS_BUTTON (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "win.open-document") == 0)
    {
      count->buttons++;
      count->button = widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    count_cells (child, count);
}

static gboolean
cells_shown (gpointer data)
{
  SlDataTable *table = data;
  CellCount count = { 0 };

  count_cells (GTK_WIDGET (sl_data_table_get_column_view (table)), &count);
  return count.numbers > 0 && count.buttons > 0;
}

/* The trials in the shared table: numbers whole, sorted by value, a row
 * copied, the table exported, a Scalars button per finished trial. */
static void
check_trials_table (SlWindow    *window,
                    SlTunerPage *page,
                    const char  *project,
                    guint        n_trials)
{
  SlDataTable *table = sl_tuner_page_get_table (page);
  GListModel *rows = sl_data_table_get_rows (table);
  g_autofree char *csv_path = g_build_filename (project, "trials.csv", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv_path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *row_text = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) fields = NULL;
  CellCount count = { 0 };
  double previous = -INFINITY;
  guint with_value = 0;

  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_trials);
  g_assert_cmpstr (sl_data_table_get_column_title (table, 0), ==, "#");
  g_assert_cmpstr (sl_data_table_get_column_title (table, 1), ==, "x");
  g_assert_cmpstr (sl_data_table_get_column_title (table, 4), ==, "value");

  /* Sorted by the value, as numbers; trials without one go last. */
  sl_data_table_sort_by (table, "value", GTK_SORT_ASCENDING);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlTunerTrialItem) item = g_list_model_get_item (rows, i);
      const SlTunerTrial *trial = sl_tuner_trial_item_get_trial (item);

      if (!trial->has_value)
        {
          previous = INFINITY;
          continue;
        }
      g_assert_cmpfloat (previous, !=, INFINITY);
      g_assert_cmpfloat (trial->value, >=, previous);
      previous = trial->value;
      with_value++;
    }
  g_assert_cmpuint (with_value, >, 1);

  /* Every number shown is whole. */
  g_assert_true (wait_until (cells_shown, table, 30000));
  wait_for_frames (GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (table))));
  count_cells (GTK_WIDGET (sl_data_table_get_column_view (table)), &count);
  g_assert_cmpuint (count.numbers, >=, 5);
  g_assert_cmpuint (count.cut, ==, 0);
  /* The button opens the trial's summaries in Scalars. */
  g_assert_cmpuint (count.buttons, >, 0);
  {
    GVariant *target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (count.button));
    const char *kind = NULL, *path = NULL;

    g_assert_true (g_variant_is_of_type (target, G_VARIANT_TYPE ("(ssv)")));
    g_variant_get (target, "(&s&sv)", &kind, &path, NULL);
    g_assert_cmpstr (kind, ==, "scalars");
    g_assert_true (g_str_has_prefix (path, project));
    {
      g_autofree char *id = g_strdup_printf ("scalars:%s", path);

      g_signal_emit_by_name (count.button, "clicked");
      g_assert_nonnull (sl_window_find_document (window, id));
      panel_widget_raise (PANEL_WIDGET (page));
    }
  }

  /* The first row copied: its cells by tabs, what the button opens as
   * the summaries' folder. */
  sl_data_table_select (table, 0);
  row_text = sl_data_table_dup_row_text (table, 0);
  fields = g_strsplit (row_text, "\t", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, sl_data_table_get_n_columns (table));
  {
    g_autoptr(SlTunerTrialItem) first = g_list_model_get_item (rows, 0);
    const SlTunerTrial *trial = sl_tuner_trial_item_get_trial (first);
    g_autofree char *number = g_strdup_printf ("%u", trial->number);
    g_autofree char *value = g_strdup_printf ("%.6g", trial->value);

    g_assert_cmpstr (fields[0], ==, number);
    g_assert_cmpstr (fields[4], ==, value);
    g_assert_cmpstr (fields[8], ==, trial->summary_dir);
  }
  g_assert_true (sl_data_table_copy_row (table));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (table)), NULL, text_read, &copied);
  g_assert_true (wait_until (text_ready, &copied, 10000));
  g_assert_cmpstr (copied, ==, row_text);

  /* The CSV: a header, then a line per trial in the order shown. */
  sl_data_table_export_csv_async (table, csv_file, NULL, store_result, &result);
  g_assert_true (sl_data_table_export_csv_finish (table, wait_for_result (&result), &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (csv, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "#,x,n,kind,value,State,Target,Time (s),Summaries,Reason"));
  g_assert_cmpuint (g_strv_length (lines), >=, n_trials + 1);
  g_assert_true (g_str_has_prefix (lines[1], fields[0]));
  g_assert_nonnull (strstr (csv, project));
}

static char *
write_config (const char *project)
{
  g_autoptr(SlTunerConfig) config = sl_tuner_config_new ();
  g_autofree char *command = g_strdup_printf ("'%s' bowl", TUNER_TRIAL_PATH);
  g_autofree char *yaml = NULL;
  char *path = g_build_filename (project, "tune.yaml", NULL);
  const char * const kinds[] = { "plain", "odd", NULL };

  sl_tuner_config_set_command (config, command);
  sl_tuner_config_set_summary_base_dir (config, "summaries");
  sl_tuner_config_set_method (config, SL_TUNER_METHOD_EI);
  sl_tuner_config_set_target (config, SL_TUNER_GROUP_METRIC, "value", SL_TUNER_GOAL_MINIMIZE);
  sl_tuner_config_add_bounds (config, "x", SL_TUNER_PARAM_FLOAT, 0, 1, 3);
  sl_tuner_config_add_bounds (config, "n", SL_TUNER_PARAM_INT, 1, 6, -1);
  sl_tuner_config_add_choices (config, "kind", SL_TUNER_PARAM_STRING, NULL, kinds, 2);
  yaml = sl_tuner_config_to_yaml (config);
  g_assert_true (g_file_set_contents (path, yaml, -1, NULL));
  return path;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *root = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *project = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *new_path = NULL;
  g_autofree char *yaml = NULL;
  g_autoptr(SlApplication) app = NULL;
  g_autoptr(SlTunerConfig) saved = NULL;
  g_autoptr(GError) error = NULL;
  AdwStyleManager *manager;
  SlTunerPage *page;
  GtkWidget *stop;
  GtkWidget *save;
  SlTunerPage *fresh;
  SlWindow *window;
  FileWait wait;
  TrialJobs trial_jobs = { 0 };

  if (skip_without_display ())
    return 77;
  root = make_test_home ("sightline-tuner-page-XXXXXX");
  cache = g_build_filename (root, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  gtk_init ();

  project = g_build_filename (root, "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project, 0755), ==, 0);
  config_path = write_config (project);
  window = start_application (&app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 980);

  page = SL_TUNER_PAGE (sl_window_open_document (window, "tuner", config_path, NULL));
  g_assert_nonnull (page);
  g_assert_true (wait_until (page_settled, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  g_assert_cmpstr (panel_widget_get_title (PANEL_WIDGET (page)), ==, "Tuner: tune.yaml");
  g_assert_nonnull (sl_tuner_page_get_config (page));
  g_assert_cmpuint (sl_tuner_page_get_n_slices (page), ==, 3);
  g_assert_cmpuint (sl_tuner_page_get_n_trials (page), ==, 0);

  /* Stop is red only while a study runs, never greyed out and red. */
  stop = find_button (GTK_WIDGET (page), "Stop");
  g_assert_nonnull (stop);
  g_assert_false (gtk_widget_get_sensitive (stop));
  g_assert_false (gtk_widget_has_css_class (stop, "destructive-action"));
  /* Start, Pause and Stop are the page's actions. */
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (stop)), ==, "tuner.stop");
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (find_button (GTK_WIDGET (page), "Start"))), ==, "tuner.start");
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (find_button (GTK_WIDGET (page), "Pause"))), ==, "tuner.pause");

  /* The targets are shown by their names, this computer first, not by
   * the id "local". */
  {
    GtkDropDown *targets = find_target_dropdown (GTK_WIDGET (page));
    GListModel *names;

    g_assert_nonnull (targets);
    names = gtk_drop_down_get_model (targets);
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), 0), ==, "This computer");
    for (guint i = 0; i < g_list_model_get_n_items (names); i++)
      g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), i), !=, "local");
    g_assert_cmpuint (gtk_drop_down_get_selected (targets), ==, 0);
  }

  /* A study of 8 trials, 2 at once, on this computer: each trial a job
   * of the session, in the Console and every Jobs list. */
  trial_jobs.trials = g_hash_table_new (NULL, NULL);
  g_signal_connect (sl_window_get_session (window), "job-started", G_CALLBACK (trial_job_started_cb), &trial_jobs);
  g_signal_connect (sl_window_get_session (window), "job-finished", G_CALLBACK (trial_job_finished_cb), &trial_jobs);
  g_assert_true (sl_tuner_page_start (page, "local", 8, 2, &error));
  g_assert_no_error (error);
  g_assert_true (sl_tuner_page_is_running (page));
  g_assert_true (gtk_widget_get_sensitive (stop));
  g_assert_true (gtk_widget_has_css_class (stop, "destructive-action"));
  g_assert_true (wait_until (study_ended, page, 150000));
  g_assert_true (wait_until (trial_jobs_finished, &trial_jobs, 30000));
  g_assert_cmpuint (trial_jobs.started, ==, 8);
  g_assert_cmpuint (trial_jobs.finished, ==, 8);
  g_signal_handlers_disconnect_by_data (sl_window_get_session (window), &trial_jobs);
  g_hash_table_unref (trial_jobs.trials);
  g_assert_false (gtk_widget_get_sensitive (stop));
  g_assert_false (gtk_widget_has_css_class (stop, "destructive-action"));
  g_assert_cmpuint (sl_tuner_page_get_n_trials (page), ==, 8);
  g_assert_true (wait_until (curves_drawn, page, 30000));
  g_assert_cmpuint (sl_tuner_page_get_n_bands (page), ==, 3);
  check_trials_table (window, page, project, 8);

  manager = adw_style_manager_get_default ();
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "tuner-page.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  wait_for_frames (GTK_WIDGET (window));
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, "tuner-page-dark.png");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);

  /* The same study, opened again, shows its trials from the database. */
  panel_widget_close (PANEL_WIDGET (page));
  page = SL_TUNER_PAGE (sl_window_open_document (window, "tuner", config_path, NULL));
  g_assert_true (wait_until (page_settled, page, 30000));
  g_assert_cmpuint (sl_tuner_page_get_n_trials (page), ==, 8);
  g_assert_true (wait_until (curves_drawn, page, 30000));
  g_assert_cmpuint (sl_tuner_page_get_n_bands (page), ==, 3);

  /* The form: a mistake is told by line and column, not written. */
  sl_tuner_page_set_form_parameters (page, "x: {bounds: [0, 1]}\ny: {bounds: [2, 1]}\n");
  yaml = sl_tuner_page_dup_form_yaml (page, &error);
  g_assert_null (yaml);
  g_assert_nonnull (strstr (error->message, "Parameters, line 2, column 13: "));
  g_assert_nonnull (strstr (error->message, "lower bound below the upper one"));
  g_clear_error (&error);

  /* A new file, written by the form. */
  new_path = g_build_filename (project, "new.yaml", NULL);
  fresh = SL_TUNER_PAGE (sl_window_open_document (window, "tuner", new_path, NULL));
  g_assert_true (wait_until (page_settled, fresh, 30000));
  g_assert_null (sl_tuner_page_get_config (fresh));
  sl_tuner_page_set_form_parameters (fresh, "learning_rate: {bounds: [0.0001, 0.1]}\nbatch_size: {choice: [16, 32]}\n");
  g_assert_null (sl_tuner_page_dup_form_yaml (fresh, &error));   /* no command yet */
  g_assert_nonnull (strstr (error->message, "command"));
  g_clear_error (&error);

  sl_tuner_page_set_form_fields (fresh, "python3 train.py", "summaries", "Accuracy");
  yaml = sl_tuner_page_dup_form_yaml (fresh, &error);
  g_assert_no_error (error);
  /* Saved by the button, which is the page's action. */
  save = find_button (GTK_WIDGET (fresh), "Save Configuration");
  g_assert_nonnull (save);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (save)), ==, "tuner.save-configuration");
  g_assert_true (gtk_widget_activate_action (save, "tuner.save-configuration", NULL));
  wait.path = new_path;
  wait.expected = "batch_size";
  g_assert_true (wait_until (file_holds, &wait, 10000));
  saved = sl_tuner_config_new_from_file (new_path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sl_tuner_config_get_command (saved), ==, "python3 train.py");
  g_assert_cmpstr (sl_tuner_config_get_target_name (saved), ==, "Accuracy");
  g_assert_cmpuint (sl_tuner_config_get_n_parameters (saved), ==, 2);
  g_assert_cmpint (sl_tuner_config_get_parameter (saved, 1)->type, ==, SL_TUNER_PARAM_INT);
  /* Saved, the document reads the file back and can start. */
  g_assert_true (wait_until (page_settled, fresh, 10000));

  /* Closed while its study runs: the trials stop, the page goes quietly,
   * and the study resumes when the file is opened and started again. */
  g_assert_true (sl_tuner_page_start (page, "local", 12, 2, &error));
  g_assert_no_error (error);
  g_object_ref (page);
  panel_widget_close (PANEL_WIDGET (page));
  g_assert_true (wait_until (study_ended, page, 60000));
  g_object_unref (page);
  page = SL_TUNER_PAGE (sl_window_open_document (window, "tuner", config_path, NULL));
  g_assert_true (wait_until (page_settled, page, 30000));
  g_assert_cmpuint (sl_tuner_page_get_n_trials (page), >=, 8);
  g_assert_true (sl_tuner_page_start (page, "local", 12, 2, &error));
  g_assert_true (wait_until (study_ended, page, 150000));
  g_assert_cmpuint (sl_tuner_page_get_n_trials (page), ==, 12);
  g_assert_true (wait_until (curves_drawn, page, 30000));
  g_assert_cmpuint (sl_tuner_page_get_n_bands (page), ==, 3);

  return 0;
}
