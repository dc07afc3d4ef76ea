/* sl-scalars-page.c
 *
 * Reads every run below a folder in a worker, then shows one card per
 * scalar tag. Each card's chart overlays the runs in the same order, so a
 * run has the same colour everywhere and one switch in the run list shows
 * or hides it in every chart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sl-histogram-chart.h"
#include "sl-image-card.h"
#include "sl-scalar-chart.h"
#include "sl-scalars-page.h"
#include "sl-summary-reader.h"

#define CARD_WIDTH 320
#define CARD_HEIGHT 260
#define POLL_SECONDS 2
/* Up to this many new bytes are decoded on the main thread (about a
 * millisecond); more is read again from scratch in a worker. */
#define INLINE_UPDATE_BYTES (512 * 1024)

struct _SlScalarsPage
{
  PanelWidget         parent_instance;

  char               *path;
  SlSummaryReader    *reader;
  GCancellable       *cancellable;
  GPtrArray          *charts;     /* SlScalarChart, one per card */
  GPtrArray          *histogram_charts;
  GPtrArray          *card_tags;  /* the tag of each card */
  GPtrArray          *run_names;
  GRegex             *filter;
  guint               poll_source;
  gboolean            reloading;

  GtkStack           *stack;
  AdwStatusPage      *message_page;
  GtkListBox         *runs_list;
  GtkFlowBox         *cards;
  GtkFlowBox         *histogram_cards;
  GtkFlowBox         *image_cards;
  guint               n_image_cards;
  GtkStack           *view_stack;
  GtkDropDown        *histogram_mode_dropdown;
  GtkSearchEntry     *filter_entry;
  GtkDropDown        *x_axis_dropdown;
  GtkScale           *smoothing_scale;
  GtkToggleButton    *log_toggle;
  GtkToggleButton    *outliers_toggle;
};

G_DEFINE_FINAL_TYPE (SlScalarsPage, sl_scalars_page, PANEL_TYPE_WIDGET)

static gboolean poll_cb (gpointer user_data);

enum {
  SUMMARIES_READ,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
apply_options (SlScalarsPage *self,
               SlScalarChart *chart)
{
  sl_scalar_chart_set_x_mode (chart, gtk_drop_down_get_selected (self->x_axis_dropdown));
  sl_scalar_chart_set_smoothing (chart, gtk_range_get_value (GTK_RANGE (self->smoothing_scale)));
  sl_scalar_chart_set_log_y (chart, gtk_toggle_button_get_active (self->log_toggle));
  sl_scalar_chart_set_ignore_outliers (chart, gtk_toggle_button_get_active (self->outliers_toggle));
}

static void
options_changed_cb (SlScalarsPage *self)
{
  for (guint i = 0; i < self->charts->len; i++)
    apply_options (self, g_ptr_array_index (self->charts, i));
}

static void
histogram_mode_changed_cb (SlScalarsPage *self)
{
  SlHistogramMode mode = gtk_drop_down_get_selected (self->histogram_mode_dropdown);

  for (guint i = 0; i < self->histogram_charts->len; i++)
    {
      GtkWidget *chart = g_ptr_array_index (self->histogram_charts, i);
      GtkWidget *scale = g_object_get_data (G_OBJECT (chart), "sl-step-scale");

      sl_histogram_chart_set_mode (SL_HISTOGRAM_CHART (chart), mode);
      gtk_widget_set_visible (scale, mode == SL_HISTOGRAM_OVERLAY);
    }
}

/* Scalar controls only apply to scalars; the layout only to histograms. */
static void
view_changed_cb (SlScalarsPage *self)
{
  const char *view = gtk_stack_get_visible_child_name (self->view_stack);
  gboolean scalars = g_strcmp0 (view, "scalars") == 0;

  gtk_widget_set_visible (GTK_WIDGET (self->histogram_mode_dropdown), g_strcmp0 (view, "histograms") == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->x_axis_dropdown), scalars);
  gtk_widget_set_sensitive (GTK_WIDGET (self->smoothing_scale), scalars);
  gtk_widget_set_visible (GTK_WIDGET (self->log_toggle), scalars);
  gtk_widget_set_visible (GTK_WIDGET (self->outliers_toggle), scalars);
}

static gboolean
card_matches (GtkFlowBoxChild *child,
              gpointer         user_data)
{
  SlScalarsPage *self = user_data;
  const char *tag = g_object_get_data (G_OBJECT (child), "sl-tag");

  return self->filter == NULL || g_regex_match (self->filter, tag, 0, NULL);
}

static void
set_filter_regex (SlScalarsPage *self,
                  const char    *text)
{
  g_autoptr(GError) error = NULL;
  GRegex *regex = NULL;

  if (text != NULL && text[0] != '\0')
    regex = g_regex_new (text, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, &error);

  /* A pattern being typed is often invalid for a moment: keep the last
   * good one and say what is wrong, instead of hiding every card. */
  if (error != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->filter_entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->filter_entry), error->message);
      return;
    }

  gtk_widget_remove_css_class (GTK_WIDGET (self->filter_entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->filter_entry), NULL);
  g_clear_pointer (&self->filter, g_regex_unref);
  self->filter = regex;
  gtk_flow_box_invalidate_filter (self->cards);
  gtk_flow_box_invalidate_filter (self->histogram_cards);
  gtk_flow_box_invalidate_filter (self->image_cards);
}

static void
filter_changed_cb (SlScalarsPage *self)
{
  set_filter_regex (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

static void
run_toggled_cb (GtkCheckButton *check,
                SlScalarsPage  *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "sl-run-index"));
  gboolean active = gtk_check_button_get_active (check);

  for (guint i = 0; i < self->charts->len; i++)
    {
      SlScalarChart *chart = g_ptr_array_index (self->charts, i);
      GArray *indices = g_object_get_data (G_OBJECT (chart), "sl-series-of-run");

      /* Not every run has every tag: map the run to this chart's series. */
      if (indices != NULL && index < indices->len && g_array_index (indices, gint, index) >= 0)
        sl_scalar_chart_set_series_visible (chart, g_array_index (indices, gint, index), active);
    }
}

/* The run at the opened path itself is called "." by the reader; people
 * know it by its folder's name. */
static char *
dup_display_name (SlSummaryRun *run)
{
  const char *name = sl_summary_run_get_name (run);

  if (g_strcmp0 (name, ".") == 0)
    return g_path_get_basename (sl_summary_run_get_path (run));
  return g_strdup (name);
}

/* The run's health: files, damaged records, whether it is still growing. */
static char *
describe_run (SlSummaryRun *run)
{
  GString *str = g_string_new (sl_summary_run_get_path (run));
  guint n_files = sl_summary_run_get_n_files (run);
  gboolean growing = FALSE;
  gint64 last_update = 0;

  for (guint f = 0; f < n_files; f++)
    {
      SlSummaryFile *file = sl_summary_run_get_file (run, f);

      growing |= file->growing;
      last_update = MAX (last_update, file->last_update);
    }

  g_string_append_c (str, '\n');
  g_string_append_printf (str, g_dngettext (GETTEXT_PACKAGE, "%u file", "%u files", n_files), n_files);
  g_string_append (str, ", ");
  g_string_append_printf (str, g_dngettext (GETTEXT_PACKAGE, "%llu damaged record skipped", "%llu damaged records skipped",
                                            sl_summary_run_get_n_bad_records (run)),
                          (unsigned long long)sl_summary_run_get_n_bad_records (run));
  if (growing)
    g_string_append_printf (str, "\n%s", _("Still being written"));
  if (last_update > 0)
    {
      g_string_append_c (str, '\n');
      g_string_append_printf (str, _("Last read %.0f s ago"), (g_get_monotonic_time () - last_update) / (double)G_USEC_PER_SEC);
    }

  return g_string_free (str, FALSE);
}

static GtkWidget *
create_run_row (SlScalarsPage *self,
                SlSummaryRun  *run,
                guint          index)
{
  g_autofree char *name = dup_display_name (run);
  g_autofree char *health = describe_run (run);
  GtkWidget *check = gtk_check_button_new_with_label (name);
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_autofree char *css_class = g_strdup_printf ("series-%u", index % sl_scalar_chart_renderer_get_palette_size ());

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  gtk_widget_set_tooltip_text (check, health);
  g_object_set_data (G_OBJECT (check), "sl-run-index", GUINT_TO_POINTER (index));
  g_signal_connect_object (check, "toggled", G_CALLBACK (run_toggled_cb), self, 0);

  gtk_widget_set_size_request (swatch, 12, 12);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (swatch, "series-swatch");
  gtk_widget_add_css_class (swatch, css_class);

  gtk_box_append (GTK_BOX (box), swatch);
  gtk_box_append (GTK_BOX (box), check);

  if (sl_summary_run_get_n_bad_records (run) > 0)
    {
      GtkWidget *warning = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_set_tooltip_text (warning, health);
      gtk_box_append (GTK_BOX (box), warning);
    }

  return box;
}

typedef struct {
  const char *id;
  const char *extension;
  const char *label;
} ExportFormat;

static const ExportFormat export_formats[] = {
  { "png", "png", N_("Export Image as _PNG…") },
  { "svg", "svg", N_("Export Image as _SVG…") },
  { "pdf", "pdf", N_("Export Image as P_DF…") },
  { "csv", "csv", N_("Export Data as _CSV…") },
  { "json", "json", N_("Export Data as _JSON…") },
};

static void
export_chosen_cb (GtkNativeDialog *dialog,
                  int              response,
                  SlScalarChart   *chart)
{
  const char *format = g_object_get_data (G_OBJECT (dialog), "sl-format");
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (response != GTK_RESPONSE_ACCEPT)
    goto out;

  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  path = g_file_get_path (file);
  if (path == NULL)
    goto out;

  if (g_str_equal (format, "csv") || g_str_equal (format, "json"))
    ok = sl_scalar_chart_export_data (chart, path, g_str_equal (format, "csv") ? SL_CHART_DATA_CSV : SL_CHART_DATA_JSON,
                                      &error);
  else
    ok = sl_scalar_chart_export (chart, path,
                                 g_str_equal (format, "png") ? SL_CHART_IMAGE_PNG :
                                 g_str_equal (format, "svg") ? SL_CHART_IMAGE_SVG : SL_CHART_IMAGE_PDF,
                                 &error);

  if (!ok)
    {
      GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (chart)));

      if (GTK_IS_WIDGET (root))
        gtk_widget_activate_action (root, "win.toast", "s", error->message);
    }

out:
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_activated_cb (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  SlScalarChart *chart = user_data;
  const char *format = g_variant_get_string (param, NULL);
  const char *tag = g_object_get_data (G_OBJECT (chart), "sl-tag");
  g_autofree char *safe = g_strdelimit (g_strdup (tag), "/\\:*?\"<>| ", '_');
  g_autofree char *name = g_strdup_printf ("%s.%s", safe, format);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Export Chart"), GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (chart))),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_object_set_data_full (G_OBJECT (dialog), "sl-format", g_strdup (format), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (export_chosen_cb), chart, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static GtkWidget *
create_export_button (GtkWidget *card,
                      GtkWidget *chart)
{
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GSimpleAction) action = g_simple_action_new ("export", G_VARIANT_TYPE_STRING);
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkWidget *button = gtk_menu_button_new ();

  g_signal_connect_object (action, "activate", G_CALLBACK (export_activated_cb), chart, 0);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  gtk_widget_insert_action_group (card, "card", G_ACTION_GROUP (group));

  for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(export_formats[i].label), NULL);

      g_menu_item_set_action_and_target (item, "card.export", "s", export_formats[i].id);
      g_menu_append_item (menu, item);
    }

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (button, _("Export this chart or its data"));
  gtk_widget_add_css_class (button, "flat");
  return button;
}

/* A restarted job writes steps again; its later points were dropped.
 * Say so on the card, as TensorBoard users otherwise wonder where they went. */
static void
update_restart_notice (GtkWidget *chart)
{
  GtkLabel *notice = g_object_get_data (G_OBJECT (chart), "sl-restart-notice");
  GPtrArray *series = g_object_get_data (G_OBJECT (chart), "sl-series");
  guint restarts = 0, dropped = 0;

  for (guint i = 0; series != NULL && i < series->len; i++)
    {
      restarts += sl_scalar_series_get_n_restarts (g_ptr_array_index (series, i));
      dropped += sl_scalar_series_get_n_dropped (g_ptr_array_index (series, i));
    }

  if (restarts > 0)
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "A step went backwards (a restarted job): %u later point was dropped",
                                                            "A step went backwards (a restarted job): %u later points were dropped",
                                                            dropped),
                                               dropped);

      gtk_label_set_label (notice, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (notice), restarts > 0);
}

static GtkWidget *
create_card (SlScalarsPage *self,
             const char    *tag,
             GPtrArray     *runs)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (tag);
  GtkWidget *notice = gtk_label_new (NULL);
  GtkWidget *chart = sl_scalar_chart_new ();
  GArray *indices = g_array_new (FALSE, FALSE, sizeof (gint));
  GPtrArray *series_list = g_ptr_array_new ();

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_tooltip_text (title, tag);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_size_request (chart, CARD_WIDTH, CARD_HEIGHT);

  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);
      gint index = sl_summary_run_find_tag (run, SL_SUMMARY_TAG_SCALAR, tag);
      gint series = -1;

      if (index >= 0)
        {
          g_autofree char *name = dup_display_name (run);

          series = sl_scalar_chart_add_series (SL_SCALAR_CHART (chart), sl_summary_run_get_tag_series (run, index), name);
          sl_scalar_chart_renderer_set_series_palette_index (sl_scalar_chart_get_renderer (SL_SCALAR_CHART (chart)),
                                                             series, r);
          g_ptr_array_add (series_list, sl_summary_run_get_tag_series (run, index));
        }
      g_array_append_val (indices, series);
    }

  g_object_set_data_full (G_OBJECT (chart), "sl-series-of-run", indices, (GDestroyNotify)g_array_unref);
  g_object_set_data_full (G_OBJECT (chart), "sl-series", series_list, (GDestroyNotify)g_ptr_array_unref);
  g_object_set_data_full (G_OBJECT (chart), "sl-tag", g_strdup (tag), g_free);
  g_object_set_data (G_OBJECT (chart), "sl-restart-notice", notice);
  apply_options (self, SL_SCALAR_CHART (chart));
  g_ptr_array_add (self->charts, chart);
  g_ptr_array_add (self->card_tags, g_strdup (tag));

  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_xalign (GTK_LABEL (notice), 0);
  gtk_label_set_wrap (GTK_LABEL (notice), TRUE);
  gtk_widget_add_css_class (notice, "warning");
  gtk_widget_add_css_class (notice, "caption");
  update_restart_notice (chart);

  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (header), create_export_button (card, chart));
  gtk_box_append (GTK_BOX (card), header);
  gtk_box_append (GTK_BOX (card), notice);
  gtk_box_append (GTK_BOX (card), chart);
  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "chart-card");
  return card;
}

static void
step_scale_changed_cb (GtkRange         *range,
                       SlHistogramChart *chart)
{
  sl_histogram_chart_set_step_index (chart, (guint)gtk_range_get_value (range));
}

static GtkWidget *
create_histogram_card (SlScalarsPage     *self,
                       SlSummaryRun      *run,
                       guint              run_index,
                       SlHistogramSeries *series)
{
  g_autofree char *run_name = dup_display_name (run);
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title = gtk_label_new (sl_histogram_series_get_tag (series));
  GtkWidget *subtitle = gtk_label_new (run_name);
  GtkWidget *chart = sl_histogram_chart_new (series, run_index);
  guint n = sl_histogram_series_get_n_points (series);
  /* A scale needs a range even for a single step; it is insensitive then. */
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, MAX (2, n) - 1, 1);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_tooltip_text (title, sl_histogram_series_get_tag (series));
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_set_size_request (chart, CARD_WIDTH, CARD_HEIGHT);

  gtk_range_set_value (GTK_RANGE (scale), MAX (1, n) - 1);
  gtk_widget_set_sensitive (scale, n > 1);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
  gtk_widget_set_tooltip_text (scale, _("Step shown on top"));
  gtk_widget_set_visible (scale, FALSE);
  g_signal_connect_object (scale, "value-changed", G_CALLBACK (step_scale_changed_cb), chart, 0);
  g_object_set_data (G_OBJECT (chart), "sl-step-scale", scale);
  sl_histogram_chart_set_mode (SL_HISTOGRAM_CHART (chart), gtk_drop_down_get_selected (self->histogram_mode_dropdown));
  gtk_widget_set_visible (scale, gtk_drop_down_get_selected (self->histogram_mode_dropdown) == SL_HISTOGRAM_OVERLAY);
  g_ptr_array_add (self->histogram_charts, chart);

  gtk_box_append (GTK_BOX (card), title);
  gtk_box_append (GTK_BOX (card), subtitle);
  gtk_box_append (GTK_BOX (card), chart);
  gtk_box_append (GTK_BOX (card), scale);
  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "chart-card");
  return card;
}

static void
build_histograms (SlScalarsPage *self,
                  GPtrArray     *runs)
{
  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);

      for (guint t = 0; t < sl_summary_run_get_n_tags (run); t++)
        {
          SlHistogramSeries *series;
          GtkWidget *card;

          if (sl_summary_run_get_tag_kind (run, t) != SL_SUMMARY_TAG_HISTOGRAM)
            continue;

          series = sl_summary_run_get_tag_series (run, t);
          card = create_histogram_card (self, run, r, series);
          gtk_flow_box_append (self->histogram_cards, card);
          g_object_set_data_full (G_OBJECT (gtk_widget_get_parent (card)), "sl-tag",
                                  g_strdup (sl_histogram_series_get_tag (series)), g_free);
        }
    }
}

static void
build_images (SlScalarsPage *self,
              GPtrArray     *runs)
{
  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);
      g_autofree char *run_name = dup_display_name (run);

      for (guint t = 0; t < sl_summary_run_get_n_tags (run); t++)
        {
          GtkWidget *card;

          if (sl_summary_run_get_tag_kind (run, t) != SL_SUMMARY_TAG_IMAGE)
            continue;

          card = sl_image_card_new (sl_summary_run_get_tag_series (run, t), run_name);
          gtk_flow_box_append (self->image_cards, card);
          g_object_set_data_full (G_OBJECT (gtk_widget_get_parent (card)), "sl-tag",
                                  g_strdup (sl_summary_run_get_tag_name (run, t)), g_free);
          self->n_image_cards++;
        }
    }
}

/* Scalar tags in the order they first appear across the runs. */
static GPtrArray *
collect_scalar_tags (GPtrArray *runs)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *tags = g_ptr_array_new ();

  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);

      for (guint t = 0; t < sl_summary_run_get_n_tags (run); t++)
        {
          const char *tag = sl_summary_run_get_tag_name (run, t);

          if (sl_summary_run_get_tag_kind (run, t) == SL_SUMMARY_TAG_SCALAR && g_hash_table_add (seen, (gpointer)tag))
            g_ptr_array_add (tags, (gpointer)tag);
        }
    }

  return tags;
}

static void
show_message (SlScalarsPage *self,
              const char    *title,
              const char    *description)
{
  adw_status_page_set_title (self->message_page, title);
  adw_status_page_set_description (self->message_page, description);
  gtk_stack_set_visible_child_name (self->stack, "message");
}

static gboolean
run_has_curves (SlSummaryRun *run)
{
  for (guint t = 0; t < sl_summary_run_get_n_tags (run); t++)
    {
      SlSummaryTagKind kind = sl_summary_run_get_tag_kind (run, t);

      if (kind == SL_SUMMARY_TAG_SCALAR || kind == SL_SUMMARY_TAG_HISTOGRAM || kind == SL_SUMMARY_TAG_IMAGE)
        return TRUE;
    }
  return FALSE;
}

static void
build_charts (SlScalarsPage *self)
{
  GPtrArray *all_runs = sl_summary_reader_get_runs (self->reader);
  g_autoptr(GPtrArray) runs = g_ptr_array_new ();
  g_autoptr(GPtrArray) tags = NULL;

  /* Runs with only lineage or a graph have nothing to show here. */
  for (guint r = 0; r < all_runs->len; r++)
    {
      if (run_has_curves (g_ptr_array_index (all_runs, r)))
        g_ptr_array_add (runs, g_ptr_array_index (all_runs, r));
    }
  tags = collect_scalar_tags (runs);

  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);

      g_ptr_array_add (self->run_names, g_strdup (sl_summary_run_get_name (run)));
      gtk_list_box_append (self->runs_list, create_run_row (self, run, r));
    }

  for (guint i = 0; i < tags->len; i++)
    {
      GtkWidget *card = create_card (self, g_ptr_array_index (tags, i), runs);

      gtk_flow_box_append (self->cards, card);
      g_object_set_data_full (G_OBJECT (gtk_widget_get_parent (card)), "sl-tag",
                              g_strdup (g_ptr_array_index (tags, i)), g_free);
    }

  build_histograms (self, runs);
  build_images (self, runs);

  if (tags->len == 0 && self->histogram_charts->len == 0 && self->n_image_cards == 0)
    {
      g_autofree char *description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                   "%u run was read, but it has no scalar tags.",
                                                                   "%u runs were read, but they have no scalar tags.",
                                                                   all_runs->len),
                                                      all_runs->len);

      show_message (self, _("No Scalars"), description);
      return;
    }

  if (tags->len == 0)
    gtk_stack_set_visible_child_name (self->view_stack, self->histogram_charts->len ? "histograms" : "images");
  gtk_stack_set_visible_child_name (self->stack, "charts");
}

static void
update_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SlScalarsPage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!sl_summary_reader_update_finish (SL_SUMMARY_READER (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, _("The Summaries Could Not Be Read"), error->message);
      return;
    }

  panel_widget_unmark_busy (PANEL_WIDGET (self));
  build_charts (self);
  g_signal_emit (self, signals[SUMMARIES_READ], 0);

  /* Training keeps writing: follow it. Polling works on network file
   * systems too, where file monitors stay silent. */
  self->poll_source = g_timeout_add_seconds (POLL_SECONDS, poll_cb, self);
}

typedef struct {
  SlScalarSeries *series;
  guint           n_points;
  guint           n_restarts;
} SeriesMark;

/* How many bytes the files of every run have grown by since the last read,
 * and whether a new file appeared next to them. */
static guint64
pending_bytes (SlScalarsPage *self)
{
  GPtrArray *runs = sl_summary_reader_get_runs (self->reader);
  guint64 pending = 0;

  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);

      for (guint f = 0; f < sl_summary_run_get_n_files (run); f++)
        {
          SlSummaryFile *file = sl_summary_run_get_file (run, f);
          GStatBuf st;

          if (!file->stopped && g_stat (file->path, &st) == 0 && (guint64)st.st_size > file->offset + file->tail_bytes)
            pending += st.st_size - file->offset - file->tail_bytes;
        }
    }

  return pending;
}

static GArray *
mark_series (SlScalarsPage *self)
{
  GPtrArray *runs = sl_summary_reader_get_runs (self->reader);
  GArray *marks = g_array_new (FALSE, FALSE, sizeof (SeriesMark));

  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);

      for (guint t = 0; t < sl_summary_run_get_n_tags (run); t++)
        {
          if (sl_summary_run_get_tag_kind (run, t) == SL_SUMMARY_TAG_SCALAR)
            {
              SeriesMark mark = { sl_summary_run_get_tag_series (run, t), 0, 0 };

              mark.n_points = sl_scalar_series_get_n_points (mark.series);
              mark.n_restarts = sl_scalar_series_get_n_restarts (mark.series);
              g_array_append_val (marks, mark);
            }
        }
    }

  return marks;
}

static guint
count_scalar_tags (SlScalarsPage *self)
{
  g_autoptr(GArray) marks = mark_series (self);

  return marks->len;
}

/* Tells the charts what changed: they extend their level of detail from
 * the first new point rather than redoing a million points. */
static void
announce_changes (GArray *before)
{
  for (guint i = 0; i < before->len; i++)
    {
      SeriesMark *mark = &g_array_index (before, SeriesMark, i);
      guint n = sl_scalar_series_get_n_points (mark->series);

      if (sl_scalar_series_get_n_restarts (mark->series) != mark->n_restarts)
        g_signal_emit_by_name (mark->series, "changed", 0);
      else if (n != mark->n_points)
        g_signal_emit_by_name (mark->series, "changed", mark->n_points);
    }
}

static void
clear_charts (SlScalarsPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cards))))
    gtk_flow_box_remove (self->cards, child);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->runs_list))))
    gtk_list_box_remove (self->runs_list, child);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->histogram_cards))))
    gtk_flow_box_remove (self->histogram_cards, child);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->image_cards))))
    gtk_flow_box_remove (self->image_cards, child);
  self->n_image_cards = 0;
  g_ptr_array_set_size (self->histogram_charts, 0);

  g_ptr_array_set_size (self->charts, 0);
  g_ptr_array_set_size (self->card_tags, 0);
  g_ptr_array_set_size (self->run_names, 0);
}

static void
reload_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SlScalarsPage) self = user_data;
  g_autoptr(SlSummaryReader) reader = SL_SUMMARY_READER (object);
  g_autoptr(GError) error = NULL;

  if (!sl_summary_reader_update_finish (reader, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not read %s again: %s", self->path, error->message);
      self->reloading = FALSE;
      return;
    }

  /* The charts hold the old reader's series: swap both at once. */
  clear_charts (self);
  g_set_object (&self->reader, reader);
  build_charts (self);
  self->reloading = FALSE;
  g_signal_emit (self, signals[SUMMARIES_READ], 0);
}

static gboolean
poll_cb (gpointer user_data)
{
  SlScalarsPage *self = user_data;
  g_autoptr(GArray) marks = NULL;
  g_autoptr(GError) error = NULL;
  guint64 pending;
  guint n_tags;

  if (self->reloading || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return G_SOURCE_CONTINUE;

  pending = pending_bytes (self);

  /* A new file or a large burst: read everything again in a worker, off
   * the series the charts are drawing. */
  if (pending > INLINE_UPDATE_BYTES)
    {
      g_autoptr(SlSummaryReader) reader = sl_summary_reader_new (self->path);

      self->reloading = TRUE;
      sl_summary_reader_update_async (reader, self->cancellable, reload_cb, g_object_ref (self));
      return G_SOURCE_CONTINUE;
    }

  n_tags = count_scalar_tags (self);
  marks = mark_series (self);
  if (!sl_summary_reader_update (self->reader, self->cancellable, &error))
    {
      g_warning ("Could not read %s: %s", self->path, error->message);
      return G_SOURCE_CONTINUE;
    }

  if (count_scalar_tags (self) != n_tags)
    {
      clear_charts (self);
      build_charts (self);
      g_signal_emit (self, signals[SUMMARIES_READ], 0);
      return G_SOURCE_CONTINUE;
    }

  announce_changes (marks);
  for (guint i = 0; i < self->charts->len; i++)
    update_restart_notice (g_ptr_array_index (self->charts, i));
  return G_SOURCE_CONTINUE;
}

static void
sl_scalars_page_dispose (GObject *object)
{
  SlScalarsPage *self = (SlScalarsPage *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_SCALARS_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->reader);
  g_clear_pointer (&self->charts, g_ptr_array_unref);
  g_clear_pointer (&self->histogram_charts, g_ptr_array_unref);
  g_clear_pointer (&self->card_tags, g_ptr_array_unref);
  g_clear_pointer (&self->run_names, g_ptr_array_unref);
  g_clear_pointer (&self->filter, g_regex_unref);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_scalars_page_parent_class)->dispose (object);
}

static void
sl_scalars_page_class_init (SlScalarsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_scalars_page_dispose;

  /**
   * SlScalarsPage::summaries-read:
   *
   * Emitted after each read of the summaries (the first and every live
   * update), so the run index can remember tags and offsets.
   */
  signals[SUMMARIES_READ] =
    g_signal_new ("summaries-read", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-scalars-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, message_page);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, runs_list);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, cards);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, histogram_cards);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, image_cards);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, histogram_mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, x_axis_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, smoothing_scale);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, log_toggle);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, outliers_toggle);
  gtk_widget_class_bind_template_callback (widget_class, options_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, histogram_mode_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, view_changed_cb);

  g_type_ensure (SL_TYPE_SCALAR_CHART);
}

static void
sl_scalars_page_init (SlScalarsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->charts = g_ptr_array_new ();
  self->histogram_charts = g_ptr_array_new ();
  self->card_tags = g_ptr_array_new_with_free_func (g_free);
  self->run_names = g_ptr_array_new_with_free_func (g_free);
  self->cancellable = g_cancellable_new ();
  gtk_flow_box_set_filter_func (self->cards, card_matches, self, NULL);
  gtk_flow_box_set_filter_func (self->histogram_cards, card_matches, self, NULL);
  gtk_flow_box_set_filter_func (self->image_cards, card_matches, self, NULL);
}

/**
 * sl_scalars_page_new:
 * @path: a folder of runs, one run's folder, or one summary file
 *
 * Returns: (transfer full): a page that starts reading @path at once
 */
GtkWidget *
sl_scalars_page_new (const char *path,
                     const char *title)
{
  SlScalarsPage *self;
  g_autofree char *id = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  id = g_strdup_printf ("scalars:%s", path);
  self = g_object_new (SL_TYPE_SCALARS_PAGE, "id", id, "title", title, NULL);
  self->path = g_strdup (path);
  self->reader = sl_summary_reader_new (path);

  panel_widget_mark_busy (PANEL_WIDGET (self));
  sl_summary_reader_update_async (self->reader, self->cancellable, update_cb, g_object_ref (self));

  return GTK_WIDGET (self);
}

const char *
sl_scalars_page_get_path (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);
  return self->path;
}

/**
 * sl_scalars_page_get_state_name:
 *
 * Returns: "loading", "message" or "charts"
 */
const char *
sl_scalars_page_get_state_name (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

guint
sl_scalars_page_get_n_cards (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);
  return self->charts->len;
}

guint
sl_scalars_page_get_n_visible_cards (SlScalarsPage *self)
{
  guint n = 0;

  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);

  for (guint i = 0; i < self->card_tags->len; i++)
    n += self->filter == NULL || g_regex_match (self->filter, g_ptr_array_index (self->card_tags, i), 0, NULL);

  return n;
}

guint
sl_scalars_page_get_n_histogram_cards (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);
  return self->histogram_charts->len;
}

guint
sl_scalars_page_get_n_image_cards (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);
  return self->n_image_cards;
}

/**
 * sl_scalars_page_get_image_card:
 *
 * Returns: (transfer none) (nullable): image card @index
 */
GtkWidget *
sl_scalars_page_get_image_card (SlScalarsPage *self,
                                guint          index)
{
  GtkFlowBoxChild *child;

  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);

  child = gtk_flow_box_get_child_at_index (self->image_cards, index);
  return child ? gtk_flow_box_child_get_child (child) : NULL;
}

void
sl_scalars_page_show_view (SlScalarsPage *self,
                           const char    *view)
{
  g_return_if_fail (SL_IS_SCALARS_PAGE (self));

  gtk_stack_set_visible_child_name (self->view_stack, view);
}

/**
 * sl_scalars_page_show_histograms:
 * @mode: an #SlHistogramMode
 */
void
sl_scalars_page_show_histograms (SlScalarsPage *self,
                                 guint          mode)
{
  g_return_if_fail (SL_IS_SCALARS_PAGE (self));

  gtk_stack_set_visible_child_name (self->view_stack, "histograms");
  gtk_drop_down_set_selected (self->histogram_mode_dropdown, mode);
}

guint
sl_scalars_page_get_n_runs (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);
  return self->run_names->len;
}

/**
 * sl_scalars_page_lookup_series:
 *
 * Returns: (transfer none) (nullable): the series a chart shows for @tag
 *   of @run
 */
SlScalarSeries *
sl_scalars_page_lookup_series (SlScalarsPage *self,
                               const char    *run,
                               const char    *tag)
{
  SlSummaryRun *summary_run;
  gint index;

  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);

  summary_run = sl_summary_reader_lookup_run (self->reader, run);
  if (summary_run == NULL)
    return NULL;

  index = sl_summary_run_find_tag (summary_run, SL_SUMMARY_TAG_SCALAR, tag);
  return index >= 0 ? sl_summary_run_get_tag_series (summary_run, index) : NULL;
}

void
sl_scalars_page_set_filter (SlScalarsPage *self,
                            const char    *regex)
{
  g_return_if_fail (SL_IS_SCALARS_PAGE (self));

  /* Setting the text clears it first, and the entry reports the empty text
   * at once: apply the pattern once, directly. */
  g_signal_handlers_block_by_func (self->filter_entry, filter_changed_cb, self);
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), regex ? regex : "");
  g_signal_handlers_unblock_by_func (self->filter_entry, filter_changed_cb, self);
  set_filter_regex (self, regex);
}

/**
 * sl_scalars_page_get_reader:
 *
 * Returns: (transfer none) (nullable): the reader holding the runs shown,
 *   or %NULL before the first read
 */
SlSummaryReader *
sl_scalars_page_get_reader (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);

  return self->reader;
}
