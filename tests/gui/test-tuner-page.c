/* test-tuner-page.c: the Tuner document running a study of the bowl
 * (tests/tuner-trial.c) on this computer, and its form
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "gui-test-util.h"
#include "sl-tuner-page.h"

static gboolean
page_settled (gpointer data)
{
  SlDocumentState state = sl_document_get_state (data);

  return state == SL_DOCUMENT_READY || state == SL_DOCUMENT_FAILED;
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
  SlTunerPage *fresh;
  SlWindow *window;
  FileWait wait;

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

  /* A study of 8 trials, 2 at once, on this computer. */
  g_assert_true (sl_tuner_page_start (page, "local", 8, 2, &error));
  g_assert_no_error (error);
  g_assert_true (sl_tuner_page_is_running (page));
  g_assert_true (wait_until (study_ended, page, 150000));
  g_assert_cmpuint (sl_tuner_page_get_n_trials (page), ==, 8);
  g_assert_true (wait_until (curves_drawn, page, 30000));
  g_assert_cmpuint (sl_tuner_page_get_n_bands (page), ==, 3);

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
  sl_tuner_page_save_form (fresh);
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
