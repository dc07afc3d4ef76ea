/* test-scalar-cards.c: the Scalars page follows a run that gains a tag
 *
 * A run with three scalar tags and a histogram shows three scalar cards
 * and one histogram card. One card is given a second tag, a highlight and
 * a zoom; then the summary file gains points and a new tag. Exactly one
 * card is added, every earlier card (and the histogram card, in the
 * layout chosen through its action) is the same widget with the same
 * state, and the card's export action writes the CSV the points give.
 * A screenshot goes to the build folder's screenshots/.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"

#include <adwaita.h>
#include <libpanel.h>
#include <glib/gstdio.h>

#include "sl-histogram-card.h"
#include "sl-scalar-card.h"
#include "sl-scalars-page.h"
#include "sl-summary-writer.h"

static char *tmp_root;
static GtkWidget *window;

static gboolean
page_loaded (gpointer data)
{
  return sl_document_get_state (SL_DOCUMENT (data)) != SL_DOCUMENT_LOADING;
}

static gboolean
widget_shown (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
page_has_four_cards (gpointer data)
{
  return sl_scalars_page_get_n_cards (data) == 4;
}

static void
settle (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* value = step / 4 and wall time = 1.7e9 + step: exact in a float and a
 * double, so the CSV can be compared as text. */
static void
write_scalars (SlSummaryWriter *writer,
               const char      *tag,
               gint64           first,
               gint64           last)
{
  for (gint64 step = first; step <= last; step++)
    g_assert_true (sl_summary_writer_add_scalar (writer, step, 1.7e9 + step, tag, step / 4.0, NULL));
}

static void
write_histogram (SlSummaryWriter *writer,
                 gint64           step)
{
  static const double lefts[] = { 0, 1 };
  static const double widths[] = { 1, 1 };
  static const gint64 counts[] = { 3, 5 };
  SlHistogramStats stats = { .min = 0, .max = 2, .sum = 8, .count = 8 };

  g_assert_true (sl_summary_writer_add_histogram (writer, step, 1.7e9 + step, "weights", &stats, 2, lefts, widths,
                                                  counts, NULL));
}

static void
test_new_tag_adds_one_card (void)
{
  g_autofree char *dir = g_build_filename (tmp_root, "run", NULL);
  g_autofree char *csv_path = g_build_filename (tmp_root, "lr.csv", NULL);
  g_autofree char *csv = NULL;
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) expected = g_string_new ("series,step,wall_time,relative_time,value,smoothed\n");
  static const char * const tags[] = { "loss", "accuracy", "lr" };
  GtkWidget *before[G_N_ELEMENTS (tags)];
  GtkWidget *histogram;
  SlScalarsPage *page;
  SlScalarCard *loss;
  SlScalarChart *chart;
  double view[4], view_after[4];

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  writer = sl_summary_writer_new (dir, 1700000000, "test", &error);
  g_assert_no_error (error);
  for (guint t = 0; t < G_N_ELEMENTS (tags); t++)
    write_scalars (writer, tags[t], 1, 10);
  write_histogram (writer, 1);
  g_assert_true (sl_summary_writer_flush (writer, NULL));

  page = SL_SCALARS_PAGE (sl_scalars_page_new (dir, "run"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  g_assert_true (wait_until (page_loaded, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);

  /* N tags, N cards, in the order the tags were written. */
  g_assert_cmpuint (sl_scalars_page_get_n_cards (page), ==, G_N_ELEMENTS (tags));
  g_assert_cmpuint (sl_scalars_page_get_n_histogram_cards (page), ==, 1);
  for (guint t = 0; t < G_N_ELEMENTS (tags); t++)
    {
      before[t] = sl_scalars_page_get_card (page, tags[t]);
      g_assert_true (SL_IS_SCALAR_CARD (before[t]));
      g_assert_cmpstr (sl_scalar_card_get_tag (SL_SCALAR_CARD (before[t])), ==, tags[t]);
    }
  histogram = sl_scalars_page_get_histogram_card (page, 0);
  g_assert_true (SL_IS_HISTOGRAM_CARD (histogram));
  g_assert_cmpstr (sl_histogram_card_get_tag (SL_HISTOGRAM_CARD (histogram)), ==, "weights");

  /* State of the loss card, set through the card's own actions. */
  loss = SL_SCALAR_CARD (before[0]);
  chart = sl_scalar_card_get_chart (loss);
  g_assert_true (chart == sl_scalars_page_get_chart (page, "loss"));
  g_assert_true (wait_until (widget_shown, chart, 10000));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (loss), "card.toggle-tag", "s", "accuracy"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (loss), "card.threshold", "(sd)", "above", 1.5));
  g_assert_cmpstr (sl_scalar_card_get_title (loss), ==, "loss + accuracy");
  g_assert_cmpuint (sl_scalar_chart_renderer_get_n_series (sl_scalar_chart_get_renderer (chart)), ==, 2);
  g_assert_cmpuint (sl_scalar_card_get_threshold_mode (loss), ==, SL_CHART_THRESHOLD_ABOVE);
  sl_scalar_chart_zoom_to (chart, 2, 8, 0.5, 2.5);
  sl_scalar_chart_get_view (chart, &view[0], &view[1], &view[2], &view[3]);
  /* And the histogram card's layout, through its action. */
  g_assert_true (gtk_widget_activate_action (histogram, "card.mode", "u", SL_HISTOGRAM_OVERLAY));
  g_assert_cmpuint (sl_histogram_card_get_mode (SL_HISTOGRAM_CARD (histogram)), ==, SL_HISTOGRAM_OVERLAY);

  /* Training goes on: more points and a tag never seen. */
  write_scalars (writer, "loss", 11, 12);
  write_scalars (writer, "eval/loss", 1, 5);
  write_histogram (writer, 2);
  g_assert_true (sl_summary_writer_flush (writer, NULL));
  g_assert_true (wait_until (page_has_four_cards, page, 15000));
  /* A poll later, still one card more, not a rebuilt set. */
  settle (2500);
  g_assert_cmpuint (sl_scalars_page_get_n_cards (page), ==, 4);
  g_assert_cmpuint (sl_scalars_page_get_n_histogram_cards (page), ==, 1);
  g_assert_true (sl_scalars_page_get_histogram_card (page, 0) == histogram);
  g_assert_cmpstr (sl_scalar_card_get_tag (SL_SCALAR_CARD (sl_scalars_page_get_card (page, "eval/loss"))), ==,
                   "eval/loss");

  for (guint t = 0; t < G_N_ELEMENTS (tags); t++)
    g_assert_true (sl_scalars_page_get_card (page, tags[t]) == before[t]);

  /* The loss card kept its tags, highlight and zoom, and drew the points
   * that came meanwhile. */
  g_assert_cmpstr (sl_scalar_card_get_title (loss), ==, "loss + accuracy");
  g_assert_cmpstrv (sl_scalar_card_get_extra_tags (loss), ((const char * const[]) { "accuracy", NULL }));
  g_assert_cmpuint (sl_scalar_card_get_threshold_mode (loss), ==, SL_CHART_THRESHOLD_ABOVE);
  g_assert_cmpfloat (sl_scalar_card_get_threshold_value (loss), ==, 1.5);
  sl_scalar_chart_get_view (chart, &view_after[0], &view_after[1], &view_after[2], &view_after[3]);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (view_after[i], ==, view[i]);
  g_assert_cmpuint (sl_scalar_chart_renderer_get_n_series (sl_scalar_chart_get_renderer (chart)), ==, 2);
  g_assert_cmpuint (sl_scalar_series_get_n_points (sl_scalars_page_lookup_series (page, ".", "loss")), ==, 12);
  g_assert_cmpuint (sl_histogram_chart_get_n_steps (sl_histogram_card_get_chart (SL_HISTOGRAM_CARD (histogram))), ==, 2);
  g_assert_cmpuint (sl_histogram_card_get_mode (SL_HISTOGRAM_CARD (histogram)), ==, SL_HISTOGRAM_OVERLAY);
  /* It was at the newest step, and follows it. */
  g_assert_cmpuint (sl_histogram_card_get_step_index (SL_HISTOGRAM_CARD (histogram)), ==, 1);

  /* Draw With Tag of an old card offers the new tag too. */
  {
    g_autoptr(GListModel) all_tags = NULL;

    g_object_get (loss, "all-tags", &all_tags, NULL);
    g_assert_cmpuint (g_list_model_get_n_items (all_tags), ==, 4);
  }

  sl_scalars_page_show_view (page, "scalars");
  g_assert_cmpuint (save_window_screenshot (window, SCREENSHOT_DIR, "scalar-cards-after-new-tag.png"), >, 500);

  /* The export action of the lr card: every point, unsmoothed here. */
  {
    SlScalarCard *lr = SL_SCALAR_CARD (before[2]);

    sl_scalar_chart_set_smoothing (sl_scalar_card_get_chart (lr), 0);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (lr), "card.export-to", "(ss)", "csv", csv_path));
  }
  /* written on a worker, renamed into place when complete */
  while (!g_file_test (csv_path, G_FILE_TEST_EXISTS))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, &error));
  g_assert_no_error (error);
  for (gint64 step = 1; step <= 10; step++)
    {
      char value[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_dtostr (value, sizeof value, step / 4.0);
      g_string_append_printf (expected, "\"run\",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%s,%s\n",
                              step, (gint64)1700000000 + step, step - 1, value, value);
    }
  g_assert_cmpstr (csv, ==, expected->str);

  g_assert_true (sl_summary_writer_close (writer, NULL));
  gtk_window_set_child (GTK_WINDOW (window), NULL);
}

/* The byte where record @index of a TFRecord file starts: each is an
 * 8-byte length, its 4-byte checksum, the payload and its checksum. */
static gsize
record_offset (const guint8 *data,
               gsize         length,
               guint         index)
{
  gsize offset = 0;

  for (guint i = 0; i < index; i++)
    {
      guint64 size;

      g_assert_cmpuint (offset + 12, <=, length);
      memcpy (&size, data + offset, sizeof size);
      offset += 12 + GUINT64_FROM_LE (size) + 4;
    }
  g_assert_cmpuint (offset + 12, <, length);
  return offset;
}

static gboolean
page_has_cards (gpointer data)
{
  return sl_scalars_page_get_n_cards (data) > 0;
}

/* A record whose checksum fails is skipped, and the Problems panel names
 * the file and the byte where that record starts; a whole file has no
 * problem. */
static void
test_damaged_record (void)
{
  g_autofree char *dir = g_build_filename (tmp_root, "damaged", NULL);
  g_autoptr(SlSummaryWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlProblem) problem = NULL;
  g_autofree char *data = NULL;
  g_autofree char *path = NULL;
  SlScalarsPage *page;
  GListModel *problems;
  gsize length, offset;

  g_assert_no_errno (g_mkdir_with_parents (dir, 0700));
  writer = sl_summary_writer_new (dir, 1700000000, "test", &error);
  g_assert_no_error (error);
  path = g_strdup (sl_summary_writer_get_path (writer));
  write_scalars (writer, "loss", 1, 20);
  g_assert_true (sl_summary_writer_close (writer, NULL));

  page = SL_SCALARS_PAGE (sl_scalars_page_new (dir, "whole"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  g_assert_true (wait_until (page_loaded, page, 30000));
  g_assert_true (wait_until (page_has_cards, page, 10000));
  g_assert_cmpuint (g_list_model_get_n_items (sl_document_get_problems (SL_DOCUMENT (page))), ==, 0);
  gtk_window_set_child (GTK_WINDOW (window), NULL);

  /* The payload of the fifth record changed: its checksum fails */
  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  offset = record_offset ((const guint8 *) data, length, 4);
  data[offset + 14] ^= 0x5a;
  g_assert_true (g_file_set_contents (path, data, length, NULL));

  page = SL_SCALARS_PAGE (sl_scalars_page_new (dir, "damaged"));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  g_assert_true (wait_until (page_loaded, page, 30000));
  g_assert_cmpint (sl_document_get_state (SL_DOCUMENT (page)), ==, SL_DOCUMENT_READY);
  problems = sl_document_get_problems (SL_DOCUMENT (page));
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = g_list_model_get_item (problems, 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, path);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, (gint64) offset);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), "checksum"));

  /* A second read of the same files adds nothing */
  settle (300);
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  gtk_window_set_child (GTK_WINDOW (window), NULL);
}

int
main (int    argc,
      char **argv)
{
  int status;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  adw_init ();
  panel_init ();

  {
    g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (provider, RESOURCE_PREFIX "/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }

  tmp_root = g_dir_make_tmp ("sl-cards-XXXXXX", NULL);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (widget_shown, window, 10000));

  g_test_add_func ("/scalar-cards/new-tag-adds-one-card", test_new_tag_adds_one_card);
  g_test_add_func ("/scalar-cards/damaged-record", test_damaged_record);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
