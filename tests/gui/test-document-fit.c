/* test-document-fit.c: every kind of document, opened as `sightline
 * --document KIND PATH` opens it, fits a 1024 × 640 window
 *
 * Each kind is opened on real files of the datasets (a tuner
 * configuration, which they lack, is written here) in a window of
 * 1024 × 640 once it has loaded: the window asks for no more than that,
 * is given no more than that, nothing of it (its toolbars) is drawn past
 * its edge, and nothing of the document lies past the document's sides,
 * where its dock would cut it off. Every name `--document` takes is
 * covered, each page of a profile included. Skipped without the datasets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>

#include "gui-test-util.h"
#include "sl-document-target.h"
#include "sl-profile-page.h"
#include "sl-tuner-config.h"
#include "sl-window-report.h"

#define WIDTH 1024
#define HEIGHT 640

static SlApplication *app;
static char *tmp_root;
static const char *datasets;

#define MINDINSIGHT "mindspore-ai__mindinsight/tests/utils/resource/"
#define WRITERS "generated__mindinsight-writers/"
#define DUMPS "Ascend__msprobe/test/msprobe_test/mindspore_ut/compare/dump_file/"
#define TORCH_TEXT "Ascend__msinsight/test/data/pytorch/text/level1/rank0_ascend_pt"

typedef struct {
  const char *name;
  const char *paths[2];   /* below the datasets; "" for the tuner fixture, "@NAME" for a model written here */
} Case;

static const Case cases[] = {
  { "scalars", { WRITERS "run_small" } },
  { "histograms", { WRITERS "run_small" } },
  { "images", { WRITERS "run_small" } },
  { "tensors", { WRITERS "run_small" } },
  { "timeline", { "catapult-project__catapult/tracing/test_data/big_trace.json" } },
  { "profile", { MINDINSIGHT "profiler" } },
  { "advisor", { MINDINSIGHT "profiler" } },
  /* A torch_npu profile with API statistics: their page's toolbar wraps. */
  { "profile", { "Ascend__msinsight/test/data/pytorch/db/level0/rank0_ascend_pt" } },
  /* Each page of a level-1 torch_npu profile, which has them all. */
  { "operators", { TORCH_TEXT } },
  { "apis", { TORCH_TEXT } },
  { "steps", { TORCH_TEXT } },
  { "memory", { TORCH_TEXT } },
  { "communication", { TORCH_TEXT } },
  { "pipeline", { "Ascend__ascend_community_projects/Video-ReID/pipeline/video.pipeline" } },
  { "graph", { MINDINSIGHT "graph_pb/lenet.pb" } },
  { "dataset-graph", { WRITERS "run_lineage" } },
  { "lineage", { WRITERS "run_lineage" } },
  { "compare", { MINDINSIGHT "profiler", MINDINSIGHT "run_2/normal_run/profiler" } },
  { "compare-profiles", { MINDINSIGHT "profiler", MINDINSIGHT "run_2/normal_run/profiler" } },
  { "tensor-compare", { DUMPS "mindspore_data", DUMPS "pytorch_data" } },
  { "tuner", { "" } },
  { "cluster", { MINDINSIGHT "profiler" } },
  { "conversion", { "@model.pbtxt", "@model_om.pbtxt" } },
};

/* A source model and the model ATC made of it, as GraphDef text: a
 * fused op with GE's original op names and an inserted TransData. */
static char *
write_model (const char *name)
{
  char *path = g_build_filename (tmp_root, name, NULL);
  const char *text = g_str_equal (name, "model.pbtxt")
    ? "node { name: \"x\" op: \"Placeholder\" }\n"
      "node { name: \"conv\" op: \"Conv2D\" input: \"x\" }\n"
      "node { name: \"relu\" op: \"Relu\" input: \"conv\" }\n"
    : "node { name: \"x\" op: \"Data\" }\n"
      "node { name: \"trans_TransData_0\" op: \"TransData\" input: \"x\" }\n"
      "node { name: \"conv_relu\" op: \"Conv2D\" input: \"trans_TransData_0\"\n"
      "  attr { key: \"_datadump_original_op_names\" value { list { s: \"conv\" s: \"relu\" } } } }\n";

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* A study of three parameters, as the tuner page writes one. */
static char *
write_tuner_config (void)
{
  g_autoptr(SlTunerConfig) config = sl_tuner_config_new ();
  g_autofree char *yaml = NULL;
  char *path = g_build_filename (tmp_root, "tune.yaml", NULL);
  const char * const kinds[] = { "sgd", "adam", NULL };

  sl_tuner_config_set_command (config, "python train.py");
  sl_tuner_config_set_summary_base_dir (config, "summaries");
  sl_tuner_config_set_method (config, SL_TUNER_METHOD_EI);
  sl_tuner_config_set_target (config, SL_TUNER_GROUP_METRIC, "accuracy", SL_TUNER_GOAL_MAXIMIZE);
  sl_tuner_config_add_bounds (config, "learning_rate", SL_TUNER_PARAM_FLOAT, 0.0001, 0.01, 4);
  sl_tuner_config_add_bounds (config, "batch_size", SL_TUNER_PARAM_INT, 16, 256, -1);
  sl_tuner_config_add_choices (config, "optimizer", SL_TUNER_PARAM_STRING, NULL, kinds, 2);
  yaml = sl_tuner_config_to_yaml (config);
  g_assert_true (g_file_set_contents (path, yaml, -1, NULL));
  return path;
}

static gboolean
document_loaded (gpointer data)
{
  SlDocument *document = data;

  return gtk_widget_get_mapped (GTK_WIDGET (document)) && sl_document_get_state (document) != SL_DOCUMENT_LOADING;
}

/* What scrolls sideways in the document shows its scrollbar: wide cards,
 * grids and matrices are not cut off at an edge that looks like their end.
 * Column views are left to the shared table's own scrolling. */
static void
assert_wide_scrolls_visibly (const char *name,
                             GtkWidget  *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_SCROLLED_WINDOW (widget))
    {
      GtkAdjustment *h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (widget));
      GtkPolicyType policy;

      gtk_scrolled_window_get_policy (GTK_SCROLLED_WINDOW (widget), &policy, NULL);
      if (policy != GTK_POLICY_NEVER && policy != GTK_POLICY_EXTERNAL &&
          !GTK_IS_COLUMN_VIEW (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (widget))) &&
          gtk_adjustment_get_upper (h) - gtk_adjustment_get_lower (h) > gtk_adjustment_get_page_size (h) + 1 &&
          gtk_scrolled_window_get_overlay_scrolling (GTK_SCROLLED_WINDOW (widget)))
        g_error ("%s: a %s in a %s, %.0f px wide, scrolls in %.0f px without a visible scrollbar", name,
                 G_OBJECT_TYPE_NAME (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (widget))),
                 G_OBJECT_TYPE_NAME (gtk_widget_get_parent (widget)),
                 gtk_adjustment_get_upper (h), gtk_adjustment_get_page_size (h));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    assert_wide_scrolls_visibly (name, child);
}

/* The outermost widgets of the document that lie past its left or right
 * edge, where the dock cuts them off: a box allocated wider than the
 * document asks at its height, say, is centred and loses both ends.
 * What a scrolled window holds scrolls into view, so it is not looked
 * into. */
static void
append_outside (GtkWidget *widget,
                GtkWidget *document,
                GString   *out)
{
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (widget))
    return;
  if (widget != document && gtk_widget_compute_bounds (widget, document, &bounds) &&
      (bounds.origin.x < -1 || bounds.origin.x + bounds.size.width > gtk_widget_get_width (document) + 1))
    {
      g_string_append_printf (out, " %s at x %.0f, %.0f px wide;", G_OBJECT_TYPE_NAME (widget), bounds.origin.x,
                              bounds.size.width);
      return;
    }
  if (GTK_IS_SCROLLED_WINDOW (widget))
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    append_outside (child, document, out);
}

static void
test_fits (gconstpointer data)
{
  const Case *test = data;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SlDocumentTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  g_autofree char *png = NULL;
  JsonObject *report, *document_report;
  SlDocument *document;
  SlWindow *window;
  int min_width, min_height;

  if (datasets == NULL)
    {
      g_test_skip ("SL_DATASETS_DIR does not name the datasets");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (test->paths) && test->paths[i] != NULL; i++)
    g_ptr_array_add (paths, test->paths[i][0] == '\0' ? write_tuner_config ()
                            : test->paths[i][0] == '@' ? write_model (test->paths[i] + 1)
                                                      : g_build_filename (datasets, test->paths[i], NULL));

  target = sl_document_target_resolve (test->name, (const char * const *) paths->pdata, paths->len, &error);
  g_assert_no_error (error);

  window = sl_window_new (GTK_APPLICATION (app), sl_application_get_session (app));
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  document = sl_window_open_address (window, target->kind->id, target->address, G_OBJECT (target->finding));
  g_assert_nonnull (document);
  if (target->page != NULL)
    target->kind->show_page (document, target->page);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (document_loaded, document, 60000));
  g_assert_cmpint (sl_document_get_state (document), !=, SL_DOCUMENT_FAILED);
  /* A profile's page is the one named. */
  if (target->page != NULL && SL_IS_PROFILE_PAGE (document))
    g_assert_cmpstr (sl_profile_page_get_view (SL_PROFILE_PAGE (document)), ==, target->page);
  wait_for_frames (GTK_WIDGET (window));

  png = g_strdup_printf ("fit-%s.png", test->name);
  save_window_screenshot (GTK_WIDGET (window), SCREENSHOT_DIR, png);

  /* What the window asks for, and what it was given. */
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, -1, &min_height, NULL, NULL, NULL);
  g_test_message ("%s: minimum %d × %d, allocated %d × %d", test->name, min_width, min_height,
                  gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)));
  g_assert_cmpint (min_width, <=, WIDTH);
  g_assert_cmpint (min_height, <=, HEIGHT);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, WIDTH);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, HEIGHT);

  /* The report says the same, names the document, and finds nothing
   * drawn past the window's edge. */
  json = sl_window_report_to_json (window);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  report = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (report, "min_width"), ==, min_width);
  g_assert_cmpint (json_object_get_int_member (report, "min_height"), ==, min_height);
  g_assert_cmpint (json_object_get_int_member (report, "width"), <=, WIDTH);
  document_report = json_object_get_object_member (report, "document");
  g_assert_nonnull (document_report);
  g_assert_cmpstr (json_object_get_string_member (document_report, "kind"), ==, target->kind->id);
  g_assert_cmpstr (json_object_get_string_member (document_report, "state"), !=, "loading");
  if (json_array_get_length (json_object_get_array_member (report, "overflowing")) > 0)
    g_error ("%s: drawn past the window's edge: %s", test->name, json);

  assert_wide_scrolls_visibly (test->name, GTK_WIDGET (document));

  /* The document is given at least the width it asks for at its
   * height, and nothing of it lies past its sides, where the dock would
   * cut it off. */
  {
    g_autoptr(GString) outside = g_string_new (NULL);
    int document_min = 0;

    append_outside (GTK_WIDGET (document), GTK_WIDGET (document), outside);
    if (outside->len > 0)
      g_error ("%s: cut off at the document's sides (%d px wide):%s", test->name,
               gtk_widget_get_width (GTK_WIDGET (document)), outside->str);
    gtk_widget_measure (GTK_WIDGET (document), GTK_ORIENTATION_HORIZONTAL, gtk_widget_get_height (GTK_WIDGET (document)),
                        &document_min, NULL, NULL, NULL);
    g_assert_cmpint (document_min, <=, gtk_widget_get_width (GTK_WIDGET (document)));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A kind added to the registry gets a case here. */
static void
test_every_name_covered (void)
{
  g_autoptr(GPtrArray) names = NULL;

  sl_document_registry_ensure_builtin ();
  names = sl_document_registry_list_names ();
  g_assert_cmpuint (names->len, >=, 15);
  for (guint i = 0; i < names->len; i++)
    {
      gboolean covered = FALSE;

      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        covered |= g_str_equal (cases[c].name, names->pdata[i]);
      if (!covered)
        g_error ("--document %s has no case", (const char *) names->pdata[i]);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_home = NULL;
  g_autofree char *cache_home = NULL;
  int status;

  tmp_root = g_dir_make_tmp ("sl-document-fit-XXXXXX", NULL);
  data_home = g_build_filename (tmp_root, "data-home", NULL);
  cache_home = g_build_filename (tmp_root, "cache-home", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  if (skip_without_display ())
    return 77;

  g_test_init (&argc, &argv, NULL);
  if (!bind_translations ())
    {
      g_printerr ("skipped: the interface is not in %s (its locale is missing, or SIGHTLINE_LOCALEDIR has no translation)\n",
                  g_getenv ("LANGUAGE"));
      return 77;
    }
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  datasets = g_getenv ("SL_DATASETS_DIR");
  if (datasets != NULL && !g_file_test (datasets, G_FILE_TEST_IS_DIR))
    datasets = NULL;

  app = sl_application_new ();
  g_application_set_flags (G_APPLICATION (app), g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);

  g_test_add_func ("/document-fit/every-name-covered", test_every_name_covered);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint earlier = 0;
      g_autofree char *path = NULL;

      /* a kind tried on a second input is named with its number */
      for (guint j = 0; j < i; j++)
        earlier += g_str_equal (cases[j].name, cases[i].name);
      path = earlier == 0 ? g_strdup_printf ("/document-fit/%s", cases[i].name)
                          : g_strdup_printf ("/document-fit/%s-%u", cases[i].name, earlier + 1);
      g_test_add_data_func (path, &cases[i], test_fits);
    }

  status = g_test_run ();

  g_clear_object (&app);
  g_free (tmp_root);
  return status;
}
