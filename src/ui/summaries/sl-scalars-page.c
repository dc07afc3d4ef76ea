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
#include "sl-tensor-view.h"

#define CARD_WIDTH 320
#define CARD_HEIGHT 260
#define POLL_SECONDS 2
#define MONITOR_SETTLE_MS 250
/* Up to this many new bytes are decoded on the main thread (about a
 * millisecond); more is read again from scratch in a worker. */
#define INLINE_UPDATE_BYTES (512 * 1024)

struct _SlScalarsPage
{
  SlDocument          parent_instance;

  char               *path;
  SlSummaryReader    *reader;
  GCancellable       *cancellable;
  GPtrArray          *charts;     /* SlScalarChart, one per card */
  GPtrArray          *histogram_charts;
  GPtrArray          *card_tags;  /* the tag of each card */
  GPtrArray          *run_names;
  GHashTable         *hidden_runs;    /* run names unticked in the runs list */
  GHashTable         *card_extra_tags;/* card tag -> GPtrArray of tags drawn with it */
  GHashTable         *card_thresholds;/* card tag -> CardThreshold */
  GRegex             *filter;
  guint               poll_source;
  guint               monitor_source;  /* a read soon after a file monitor spoke */
  GPtrArray          *monitors;        /* GFileMonitor of each run's folder */
  gboolean            reloading;

  GtkStack           *stack;
  AdwStatusPage      *message_page;
  GtkListBox         *runs_list;
  GtkFlowBox         *cards;
  GtkFlowBox         *histogram_cards;
  GtkFlowBox         *image_cards;
  guint               n_image_cards;
  GtkFlowBox         *tensor_cards;
  GPtrArray          *tensor_views;  /* SlTensorView */
  GHashTable         *tensor_states; /* "run\ntag" -> what its view showed */
  GtkStack           *view_stack;
  GtkDropDown        *histogram_mode_dropdown;
  GtkSearchEntry     *filter_entry;
  GtkDropDown        *x_axis_dropdown;
  GtkScale           *smoothing_scale;
  GtkToggleButton    *log_toggle;
  GtkToggleButton    *outliers_toggle;
};

G_DEFINE_FINAL_TYPE (SlScalarsPage, sl_scalars_page, SL_TYPE_DOCUMENT)

static gboolean poll_cb (gpointer user_data);
static void watch_run_folders (SlScalarsPage *self);

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
  gtk_flow_box_invalidate_filter (self->tensor_cards);
}

static void
filter_changed_cb (SlScalarsPage *self)
{
  set_filter_regex (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

/* Which run each series of a chart belongs to: a chart can draw several
 * tags, so a run can have several series, and not every run every tag. */
typedef struct {
  guint run;
  guint series;
} RunSeries;

typedef struct {
  SlChartThreshold mode;
  double           value;
} CardThreshold;

static void
run_toggled_cb (GtkCheckButton *check,
                SlScalarsPage  *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "sl-run-index"));
  gboolean active = gtk_check_button_get_active (check);

  if (index < self->run_names->len)
    {
      if (active)
        g_hash_table_remove (self->hidden_runs, g_ptr_array_index (self->run_names, index));
      else
        g_hash_table_add (self->hidden_runs, g_strdup (g_ptr_array_index (self->run_names, index)));
    }

  for (guint i = 0; i < self->charts->len; i++)
    {
      SlScalarChart *chart = g_ptr_array_index (self->charts, i);
      GArray *pairs = g_object_get_data (G_OBJECT (chart), "sl-run-series");

      for (guint p = 0; pairs != NULL && p < pairs->len; p++)
        {
          RunSeries *pair = &g_array_index (pairs, RunSeries, p);

          if (pair->run == index)
            sl_scalar_chart_set_series_visible (chart, pair->series, active);
        }
    }

  gtk_flow_box_invalidate_filter (self->tensor_cards);
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
create_export_button (GActionMap *group,
                      GtkWidget  *chart)
{
  g_autoptr(GSimpleAction) action = g_simple_action_new ("export", G_VARIANT_TYPE_STRING);
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkWidget *button = gtk_menu_button_new ();

  g_signal_connect_object (action, "activate", G_CALLBACK (export_activated_cb), chart, 0);
  g_action_map_add_action (group, G_ACTION (action));

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

static GPtrArray *
card_tags_of (SlScalarsPage *self,
              const char    *tag)
{
  GPtrArray *extra = g_hash_table_lookup (self->card_extra_tags, tag);
  GPtrArray *tags = g_ptr_array_new ();

  g_ptr_array_add (tags, (gpointer)tag);
  for (guint i = 0; extra != NULL && i < extra->len; i++)
    g_ptr_array_add (tags, g_ptr_array_index (extra, i));

  return tags;
}

static char *
dup_card_title (GPtrArray *tags)
{
  g_autoptr(GPtrArray) strv = g_ptr_array_copy (tags, NULL, NULL);

  g_ptr_array_add (strv, NULL);
  return g_strjoinv (" + ", (char **)strv->pdata);
}

/* Fills @chart with every run's series of the card's tags: one colour per
 * run for a single tag; with several tags, one colour per (tag, run). */
static void
fill_chart (SlScalarsPage *self,
            SlScalarChart *chart,
            const char    *tag)
{
  SlScalarChartRenderer *renderer = sl_scalar_chart_get_renderer (chart);
  GPtrArray *runs = g_object_get_data (G_OBJECT (chart), "sl-runs");
  g_autoptr(GPtrArray) tags = card_tags_of (self, tag);
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (RunSeries));
  GPtrArray *series_list = g_ptr_array_new ();
  CardThreshold *threshold = g_hash_table_lookup (self->card_thresholds, tag);

  sl_scalar_chart_renderer_clear (renderer);

  for (guint t = 0; t < tags->len; t++)
    for (guint r = 0; r < runs->len; r++)
      {
        SlSummaryRun *run = g_ptr_array_index (runs, r);
        gint index = sl_summary_run_find_tag (run, SL_SUMMARY_TAG_SCALAR, g_ptr_array_index (tags, t));
        g_autofree char *run_name = NULL;
        g_autofree char *name = NULL;
        RunSeries pair = { r, 0 };

        if (index < 0)
          continue;

        run_name = dup_display_name (run);
        name = tags->len > 1 ? g_strdup_printf ("%s · %s", run_name, (char *)g_ptr_array_index (tags, t))
                             : g_steal_pointer (&run_name);
        pair.series = sl_scalar_chart_add_series (chart, sl_summary_run_get_tag_series (run, index), name);
        sl_scalar_chart_renderer_set_series_palette_index (renderer, pair.series, r + t * runs->len);
        if (g_hash_table_contains (self->hidden_runs, sl_summary_run_get_name (run)))
          sl_scalar_chart_set_series_visible (chart, pair.series, FALSE);
        g_array_append_val (pairs, pair);
        g_ptr_array_add (series_list, sl_summary_run_get_tag_series (run, index));
      }

  g_object_set_data_full (G_OBJECT (chart), "sl-run-series", pairs, (GDestroyNotify)g_array_unref);
  g_object_set_data_full (G_OBJECT (chart), "sl-series", series_list, (GDestroyNotify)g_ptr_array_unref);
  sl_scalar_chart_set_threshold (chart, threshold ? threshold->mode : SL_CHART_THRESHOLD_NONE,
                                 threshold ? threshold->value : NAN);
  apply_options (self, chart);
}

static void
refresh_card_title (SlScalarsPage *self,
                    GtkWidget     *chart)
{
  GtkLabel *title = g_object_get_data (G_OBJECT (chart), "sl-title");
  const char *tag = g_object_get_data (G_OBJECT (chart), "sl-tag");
  g_autoptr(GPtrArray) tags = card_tags_of (self, tag);
  g_autofree char *text = dup_card_title (tags);

  gtk_label_set_label (title, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (title), text);
}

static void
toggle_extra_tag (SlScalarsPage *self,
                  GtkWidget     *chart,
                  const char    *extra_tag)
{
  const char *tag = g_object_get_data (G_OBJECT (chart), "sl-tag");
  GPtrArray *extra = g_hash_table_lookup (self->card_extra_tags, tag);
  guint position;

  if (extra == NULL && extra_tag == NULL)
    return;

  if (extra == NULL)
    {
      extra = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (self->card_extra_tags, g_strdup (tag), extra);
    }

  if (extra_tag == NULL)
    g_ptr_array_set_size (extra, 0);
  else if (g_ptr_array_find_with_equal_func (extra, extra_tag, g_str_equal, &position))
    g_ptr_array_remove_index (extra, position);
  else if (g_strcmp0 (extra_tag, tag) != 0)
    g_ptr_array_add (extra, g_strdup (extra_tag));

  fill_chart (self, SL_SCALAR_CHART (chart), tag);
  refresh_card_title (self, chart);
  update_restart_notice (chart);
}

static void
add_tag_activated_cb (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  GtkWidget *chart = user_data;
  SlScalarsPage *self = SL_SCALARS_PAGE (gtk_widget_get_ancestor (chart, SL_TYPE_SCALARS_PAGE));

  if (self != NULL)
    toggle_extra_tag (self, chart, g_variant_get_string (param, NULL));
}

static void
clear_tags_activated_cb (GSimpleAction *action,
                         GVariant      *param,
                         gpointer       user_data)
{
  GtkWidget *chart = user_data;
  SlScalarsPage *self = SL_SCALARS_PAGE (gtk_widget_get_ancestor (chart, SL_TYPE_SCALARS_PAGE));

  if (self != NULL)
    toggle_extra_tag (self, chart, NULL);
}

/* "Draw with": every other scalar tag of the page, to compare curves of
 * different tags (train and eval loss, say) in one chart. */
static GMenu *
create_tags_menu (const char *tag,
                  GPtrArray  *all_tags)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) tags_menu = g_menu_new ();
  g_autoptr(GMenu) tags_section = g_menu_new ();
  g_autoptr(GMenu) clear_section = g_menu_new ();

  for (guint i = 0; i < all_tags->len; i++)
    {
      const char *other = g_ptr_array_index (all_tags, i);
      g_autoptr(GMenuItem) item = NULL;

      if (g_strcmp0 (other, tag) == 0)
        continue;

      item = g_menu_item_new (other, NULL);
      g_menu_item_set_action_and_target (item, "card.add-tag", "s", other);
      g_menu_append_item (tags_section, item);
    }
  g_menu_append_section (tags_menu, NULL, G_MENU_MODEL (tags_section));
  g_menu_append (clear_section, _("Show Only This Tag"), "card.clear-tags");
  g_menu_append_section (tags_menu, NULL, G_MENU_MODEL (clear_section));

  g_menu_append_submenu (menu, _("Draw _With Tag"), G_MENU_MODEL (tags_menu));
  return menu;
}

static void
threshold_changed_cb (GtkWidget *control,
                      GtkWidget *chart)
{
  GtkDropDown *mode = g_object_get_data (G_OBJECT (chart), "sl-threshold-mode");
  GtkSpinButton *value = g_object_get_data (G_OBJECT (chart), "sl-threshold-value");
  SlScalarsPage *self = SL_SCALARS_PAGE (gtk_widget_get_ancestor (chart, SL_TYPE_SCALARS_PAGE));
  CardThreshold *threshold;

  if (self == NULL)
    return;

  threshold = g_new0 (CardThreshold, 1);
  threshold->mode = gtk_drop_down_get_selected (mode);
  threshold->value = gtk_spin_button_get_value (value);
  gtk_widget_set_sensitive (GTK_WIDGET (value), threshold->mode != SL_CHART_THRESHOLD_NONE);
  sl_scalar_chart_set_threshold (SL_SCALAR_CHART (chart), threshold->mode, threshold->value);
  g_hash_table_insert (self->card_thresholds, g_strdup (g_object_get_data (G_OBJECT (chart), "sl-tag")), threshold);
}

static void
threshold_mode_notify_cb (GtkWidget  *dropdown,
                          GParamSpec *pspec,
                          GtkWidget  *chart)
{
  threshold_changed_cb (dropdown, chart);
}

/* Points above or below a value drawn in the highlight colour, with the
 * value as a line: "where did the loss spike over 2?" */
static GtkWidget *
create_threshold_button (SlScalarsPage *self,
                         GtkWidget     *chart,
                         const char    *tag)
{
  static const char * const modes[] = { N_("Off"), N_("Above"), N_("Below"), NULL };
  CardThreshold *threshold = g_hash_table_lookup (self->card_thresholds, tag);
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (_("Highlight points"));
  g_autoptr(GtkStringList) mode_names = gtk_string_list_new (NULL);
  GtkWidget *mode;
  GtkWidget *value;

  for (guint i = 0; modes[i] != NULL; i++)
    gtk_string_list_append (mode_names, _(modes[i]));
  mode = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (mode_names)), NULL);
  value = gtk_spin_button_new_with_range (-1e12, 1e12, 0.1);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (value), 4);
  gtk_editable_set_width_chars (GTK_EDITABLE (value), 10);
  gtk_widget_set_tooltip_text (value, _("Threshold value"));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (mode), threshold ? threshold->mode : SL_CHART_THRESHOLD_NONE);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (value), threshold ? threshold->value : 0);
  gtk_widget_set_sensitive (value, threshold != NULL && threshold->mode != SL_CHART_THRESHOLD_NONE);

  g_object_set_data (G_OBJECT (chart), "sl-threshold-mode", mode);
  g_object_set_data (G_OBJECT (chart), "sl-threshold-value", value);
  g_signal_connect_object (mode, "notify::selected", G_CALLBACK (threshold_mode_notify_cb), chart, 0);
  g_signal_connect_object (value, "value-changed", G_CALLBACK (threshold_changed_cb), chart, 0);

  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), mode);
  gtk_box_append (GTK_BOX (box), value);
  gtk_popover_set_child (GTK_POPOVER (popover), box);

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "sl-threshold-symbolic");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_widget_set_tooltip_text (button, _("Highlight points above or below a value"));
  gtk_widget_add_css_class (button, "flat");
  return button;
}

static GtkWidget *
create_card (SlScalarsPage *self,
             const char    *tag,
             GPtrArray     *runs,
             GPtrArray     *all_tags)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (tag);
  GtkWidget *notice = gtk_label_new (NULL);
  GtkWidget *chart = sl_scalar_chart_new ();
  GtkWidget *export_button;
  g_autoptr(GSimpleActionGroup) group = NULL;
  g_autoptr(GSimpleAction) add_tag = g_simple_action_new ("add-tag", G_VARIANT_TYPE_STRING);
  g_autoptr(GSimpleAction) clear_tags = g_simple_action_new ("clear-tags", NULL);
  g_autoptr(GMenu) tags_menu = create_tags_menu (tag, all_tags);
  GMenuModel *export_menu;

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_tooltip_text (title, tag);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_size_request (chart, CARD_WIDTH, CARD_HEIGHT);

  g_object_set_data_full (G_OBJECT (chart), "sl-runs", g_ptr_array_ref (runs), (GDestroyNotify)g_ptr_array_unref);
  g_object_set_data_full (G_OBJECT (chart), "sl-tag", g_strdup (tag), g_free);
  g_object_set_data (G_OBJECT (chart), "sl-restart-notice", notice);
  g_object_set_data (G_OBJECT (chart), "sl-title", title);
  fill_chart (self, SL_SCALAR_CHART (chart), tag);
  refresh_card_title (self, chart);
  g_ptr_array_add (self->charts, chart);
  g_ptr_array_add (self->card_tags, g_strdup (tag));

  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_xalign (GTK_LABEL (notice), 0);
  gtk_label_set_wrap (GTK_LABEL (notice), TRUE);
  gtk_widget_add_css_class (notice, "warning");
  gtk_widget_add_css_class (notice, "caption");
  update_restart_notice (chart);

  group = g_simple_action_group_new ();
  gtk_widget_insert_action_group (card, "card", G_ACTION_GROUP (group));
  export_button = create_export_button (G_ACTION_MAP (group), chart);
  g_signal_connect_object (add_tag, "activate", G_CALLBACK (add_tag_activated_cb), chart, 0);
  g_signal_connect_object (clear_tags, "activate", G_CALLBACK (clear_tags_activated_cb), chart, 0);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (add_tag));
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (clear_tags));
  export_menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (export_button));
  g_menu_prepend_section (G_MENU (export_menu), NULL, G_MENU_MODEL (tags_menu));
  gtk_widget_set_tooltip_text (export_button, _("Draw other tags in this chart, export it or its data"));

  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (header), create_threshold_button (self, chart, tag));
  gtk_box_append (GTK_BOX (header), export_button);
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

/* A tensor card shows one run: hidden with it in the runs list. */
static gboolean
tensor_card_matches (GtkFlowBoxChild *child,
                     gpointer         user_data)
{
  SlScalarsPage *self = user_data;
  const char *run = g_object_get_data (G_OBJECT (child), "sl-run");

  /* Appending filters before the card's tag and run are set. */
  if (run == NULL)
    return TRUE;
  return card_matches (child, user_data) && !g_hash_table_contains (self->hidden_runs, run);
}

static void
build_tensors (SlScalarsPage *self,
               GPtrArray     *runs)
{
  for (guint r = 0; r < runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (runs, r);
      g_autofree char *run_name = dup_display_name (run);

      for (guint t = 0; t < sl_summary_run_get_n_tags (run); t++)
        {
          GtkWidget *view, *child;

          if (sl_summary_run_get_tag_kind (run, t) != SL_SUMMARY_TAG_TENSOR)
            continue;

          g_autofree char *key = g_strdup_printf ("%s\n%s", sl_summary_run_get_name (run), sl_summary_run_get_tag_name (run, t));
          GVariant *state;

          view = sl_tensor_view_new (sl_summary_run_get_tag_series (run, t), run_name);
          /* A reload rebuilds the views: keep what the user chose. */
          if ((state = g_hash_table_lookup (self->tensor_states, key)) != NULL)
            sl_tensor_view_restore_state (SL_TENSOR_VIEW (view), state);
          gtk_widget_set_size_request (view, 2 * CARD_WIDTH, 2 * CARD_HEIGHT);
          gtk_widget_set_hexpand (view, TRUE);
          gtk_flow_box_append (self->tensor_cards, view);
          child = gtk_widget_get_parent (view);
          g_object_set_data_full (G_OBJECT (child), "sl-tag", g_strdup (sl_summary_run_get_tag_name (run, t)), g_free);
          g_object_set_data_full (G_OBJECT (child), "sl-run", g_strdup (sl_summary_run_get_name (run)), g_free);
          g_ptr_array_add (self->tensor_views, view);
        }
    }

  gtk_flow_box_invalidate_filter (self->tensor_cards);
}

static guint
count_tensor_tags (SlScalarsPage *self)
{
  GPtrArray *runs = sl_summary_reader_get_runs (self->reader);
  guint n = 0;

  for (guint r = 0; r < runs->len; r++)
    for (guint t = 0; t < sl_summary_run_get_n_tags (g_ptr_array_index (runs, r)); t++)
      n += sl_summary_run_get_tag_kind (g_ptr_array_index (runs, r), t) == SL_SUMMARY_TAG_TENSOR;

  return n;
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

      if (kind == SL_SUMMARY_TAG_SCALAR || kind == SL_SUMMARY_TAG_HISTOGRAM || kind == SL_SUMMARY_TAG_IMAGE ||
          kind == SL_SUMMARY_TAG_TENSOR)
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
      GtkWidget *card = create_card (self, g_ptr_array_index (tags, i), runs, tags);

      gtk_flow_box_append (self->cards, card);
      g_object_set_data_full (G_OBJECT (gtk_widget_get_parent (card)), "sl-tag",
                              g_strdup (g_ptr_array_index (tags, i)), g_free);
    }

  build_histograms (self, runs);
  build_images (self, runs);
  build_tensors (self, runs);

  if (tags->len == 0 && self->histogram_charts->len == 0 && self->n_image_cards == 0 && self->tensor_views->len == 0)
    {
      g_autofree char *description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                   "%u run was read, but it has no scalar tags.",
                                                                   "%u runs were read, but they have no scalar tags.",
                                                                   all_runs->len),
                                                      all_runs->len);

      show_message (self, _("No Scalars"), description);
      sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_EMPTY);
      return;
    }

  if (tags->len == 0)
    gtk_stack_set_visible_child_name (self->view_stack, self->histogram_charts->len ? "histograms" :
                                                        self->n_image_cards ? "images" : "tensors");
  gtk_stack_set_visible_child_name (self->stack, "charts");
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
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
        {
          show_message (self, _("The Summaries Could Not Be Read"), error->message);
          sl_document_fail (SL_DOCUMENT (self), error->message);
        }
      return;
    }

  panel_widget_unmark_busy (PANEL_WIDGET (self));
  build_charts (self);
  watch_run_folders (self);
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
  for (guint i = 0; i < self->tensor_views->len; i++)
    {
      GtkWidget *view = g_ptr_array_index (self->tensor_views, i);
      const char *run = g_object_get_data (G_OBJECT (gtk_widget_get_parent (view)), "sl-run");

      g_hash_table_replace (self->tensor_states,
                            g_strdup_printf ("%s\n%s", run, sl_tensor_view_get_tag (SL_TENSOR_VIEW (view))),
                            g_variant_ref_sink (sl_tensor_view_save_state (SL_TENSOR_VIEW (view))));
    }
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->tensor_cards))))
    gtk_flow_box_remove (self->tensor_cards, child);
  g_ptr_array_set_size (self->tensor_views, 0);
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
  watch_run_folders (self);
  self->reloading = FALSE;
  g_signal_emit (self, signals[SUMMARIES_READ], 0);
}

static gboolean
monitor_poll_cb (gpointer user_data)
{
  SlScalarsPage *self = user_data;

  self->monitor_source = 0;
  poll_cb (self);
  return G_SOURCE_REMOVE;
}

/* A writer flushes many small records in a burst: read once it settles. */
static void
run_folder_changed_cb (GFileMonitor      *monitor,
                       GFile             *file,
                       GFile             *other_file,
                       GFileMonitorEvent  event,
                       SlScalarsPage     *self)
{
  if (event != G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT && event != G_FILE_MONITOR_EVENT_CHANGED &&
      event != G_FILE_MONITOR_EVENT_CREATED)
    return;

  if (self->monitor_source == 0)
    self->monitor_source = g_timeout_add (MONITOR_SETTLE_MS, monitor_poll_cb, self);
}

/* File monitors make views follow training within a fraction of a second;
 * the poll every few seconds stays for network file systems, where
 * monitors are silent. */
static void
watch_run_folders (SlScalarsPage *self)
{
  GPtrArray *runs = sl_summary_reader_get_runs (self->reader);

  for (guint i = 0; i < self->monitors->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->monitors, i), self);
  g_ptr_array_set_size (self->monitors, 0);

  for (guint r = 0; r < runs->len; r++)
    {
      g_autoptr(GFile) folder = g_file_new_for_path (sl_summary_run_get_path (g_ptr_array_index (runs, r)));
      GFileMonitor *monitor = g_file_monitor_directory (folder, G_FILE_MONITOR_NONE, self->cancellable, NULL);

      if (monitor == NULL)
        continue;
      g_file_monitor_set_rate_limit (monitor, MONITOR_SETTLE_MS);
      g_signal_connect (monitor, "changed", G_CALLBACK (run_folder_changed_cb), self);
      g_ptr_array_add (self->monitors, monitor);
    }
}

/* Histograms and images grow with training too: their cards take in the
 * new steps and keep following the newest one. */
static void
refresh_histograms_and_images (SlScalarsPage *self)
{
  GtkFlowBoxChild *child;

  for (guint i = 0; i < self->histogram_charts->len; i++)
    {
      SlHistogramChart *chart = g_ptr_array_index (self->histogram_charts, i);
      GtkRange *scale = g_object_get_data (G_OBJECT (chart), "sl-step-scale");
      gboolean was_newest = gtk_range_get_value (scale) >= gtk_adjustment_get_upper (gtk_range_get_adjustment (scale));

      if (!sl_histogram_chart_refresh (chart))
        continue;

      gtk_range_set_range (scale, 0, MAX (2, sl_histogram_chart_get_n_steps (chart)) - 1);
      gtk_widget_set_sensitive (GTK_WIDGET (scale), sl_histogram_chart_get_n_steps (chart) > 1);
      if (was_newest)
        gtk_range_set_value (scale, sl_histogram_chart_get_step_index (chart));
    }

  for (guint i = 0; (child = gtk_flow_box_get_child_at_index (self->image_cards, i)) != NULL; i++)
    sl_image_card_refresh (SL_IMAGE_CARD (gtk_flow_box_child_get_child (child)));
}

static gboolean
poll_cb (gpointer user_data)
{
  SlScalarsPage *self = user_data;
  g_autoptr(GArray) marks = NULL;
  g_autoptr(GError) error = NULL;
  guint64 pending;
  guint n_tags, n_tensor_tags;

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
  n_tensor_tags = count_tensor_tags (self);
  marks = mark_series (self);
  if (!sl_summary_reader_update (self->reader, self->cancellable, &error))
    {
      g_warning ("Could not read %s: %s", self->path, error->message);
      return G_SOURCE_CONTINUE;
    }

  if (count_scalar_tags (self) != n_tags || count_tensor_tags (self) != n_tensor_tags)
    {
      clear_charts (self);
      build_charts (self);
      g_signal_emit (self, signals[SUMMARIES_READ], 0);
      return G_SOURCE_CONTINUE;
    }

  announce_changes (marks);
  for (guint i = 0; i < self->charts->len; i++)
    update_restart_notice (g_ptr_array_index (self->charts, i));
  for (guint i = 0; i < self->tensor_views->len; i++)
    sl_tensor_view_update (g_ptr_array_index (self->tensor_views, i));
  refresh_histograms_and_images (self);
  return G_SOURCE_CONTINUE;
}

static void
sl_scalars_page_dispose (GObject *object)
{
  SlScalarsPage *self = (SlScalarsPage *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_source, g_source_remove);
  g_clear_handle_id (&self->monitor_source, g_source_remove);
  if (self->monitors != NULL)
    {
      for (guint i = 0; i < self->monitors->len; i++)
        g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->monitors, i), self);
      g_clear_pointer (&self->monitors, g_ptr_array_unref);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_SCALARS_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->reader);
  g_clear_pointer (&self->charts, g_ptr_array_unref);
  g_clear_pointer (&self->histogram_charts, g_ptr_array_unref);
  g_clear_pointer (&self->tensor_views, g_ptr_array_unref);
  g_clear_pointer (&self->tensor_states, g_hash_table_unref);
  g_clear_pointer (&self->card_tags, g_ptr_array_unref);
  g_clear_pointer (&self->hidden_runs, g_hash_table_unref);
  g_clear_pointer (&self->card_extra_tags, g_hash_table_unref);
  g_clear_pointer (&self->card_thresholds, g_hash_table_unref);
  g_clear_pointer (&self->run_names, g_ptr_array_unref);
  g_clear_pointer (&self->filter, g_regex_unref);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_scalars_page_parent_class)->dispose (object);
}

static void sl_scalars_page_load (SlDocument *document);
static void summaries_read_cb (SlScalarsPage *self);

static void
sl_scalars_page_class_init (SlScalarsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  SL_DOCUMENT_CLASS (klass)->load = sl_scalars_page_load;

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
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, tensor_cards);
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
  g_signal_connect (self, "summaries-read", G_CALLBACK (summaries_read_cb), NULL);

  self->charts = g_ptr_array_new ();
  self->histogram_charts = g_ptr_array_new ();
  self->tensor_views = g_ptr_array_new ();
  self->tensor_states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_variant_unref);
  self->card_tags = g_ptr_array_new_with_free_func (g_free);
  self->monitors = g_ptr_array_new_with_free_func (g_object_unref);
  self->hidden_runs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->card_extra_tags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
  self->card_thresholds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->run_names = g_ptr_array_new_with_free_func (g_free);
  self->cancellable = g_cancellable_new ();
  gtk_flow_box_set_filter_func (self->cards, card_matches, self, NULL);
  gtk_flow_box_set_filter_func (self->histogram_cards, card_matches, self, NULL);
  gtk_flow_box_set_filter_func (self->image_cards, card_matches, self, NULL);
  gtk_flow_box_set_filter_func (self->tensor_cards, tensor_card_matches, self, NULL);
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
  g_autofree char *id = NULL;
  GtkWidget *self;

  g_return_val_if_fail (path != NULL, NULL);

  id = g_strdup_printf ("scalars:%s", path);
  self = g_object_new (SL_TYPE_SCALARS_PAGE, "id", id, "path", path, "title", title, NULL);
  sl_document_load (SL_DOCUMENT (self));

  return self;
}

static void
sl_scalars_page_load (SlDocument *document)
{
  SlScalarsPage *self = SL_SCALARS_PAGE (document);

  if (self->path != NULL || sl_document_get_path (document) == NULL)
    return;

  self->path = g_strdup (sl_document_get_path (document));
  self->reader = sl_summary_reader_new (self->path);

  panel_widget_mark_busy (PANEL_WIDGET (self));
  sl_summary_reader_update_async (self->reader, self->cancellable, update_cb, g_object_ref (self));
}

/* The run index remembers each run's tags and how far its files were
 * read, so the Workspace can list tags on the next start before reading. */
static void
note_run_read (SlWorkspace  *workspace,
               SlSummaryRun *run)
{
  guint n_tags = sl_summary_run_get_n_tags (run);
  guint n_files = sl_summary_run_get_n_files (run);
  g_autoptr(GPtrArray) tags = g_ptr_array_new ();
  g_autoptr(GPtrArray) files = g_ptr_array_new ();
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i < n_tags; i++)
    g_ptr_array_add (tags, (gpointer)sl_summary_run_get_tag_name (run, i));
  g_ptr_array_add (tags, NULL);

  for (guint i = 0; i < n_files; i++)
    {
      SlSummaryFile *file = sl_summary_run_get_file (run, i);

      g_ptr_array_add (files, file->path);
      g_array_append_val (offsets, file->offset);
    }

  sl_workspace_note_run_read (workspace, sl_summary_run_get_path (run), (const char * const *)tags->pdata,
                              (const char * const *)files->pdata, (const guint64 *)(gpointer)offsets->data,
                              n_files);
}

static void
summaries_read_cb (SlScalarsPage *self)
{
  SlWorkspace *workspace = sl_document_get_workspace (SL_DOCUMENT (self));
  GPtrArray *runs;

  if (workspace == NULL || self->reader == NULL)
    return;

  runs = sl_summary_reader_get_runs (self->reader);
  for (guint i = 0; i < runs->len; i++)
    note_run_read (workspace, g_ptr_array_index (runs, i));
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

/**
 * sl_scalars_page_get_chart:
 * @tag: the tag a card was made for
 *
 * Returns: (transfer none) (nullable): the chart of that card
 */
SlScalarChart *
sl_scalars_page_get_chart (SlScalarsPage *self,
                           const char    *tag)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);
  g_return_val_if_fail (tag != NULL, NULL);

  for (guint i = 0; i < self->card_tags->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (self->card_tags, i), tag))
        return g_ptr_array_index (self->charts, i);
    }

  return NULL;
}

/**
 * sl_scalars_page_toggle_tag_in_chart:
 * @tag: the tag a card was made for
 * @other_tag: (nullable): a tag to draw in that card too, or to stop
 *   drawing there if it already is; %NULL to draw @tag alone again
 *
 * As the card menu's Draw With Tag; kept across live reloads.
 */
void
sl_scalars_page_toggle_tag_in_chart (SlScalarsPage *self,
                                     const char    *tag,
                                     const char    *other_tag)
{
  SlScalarChart *chart;

  g_return_if_fail (SL_IS_SCALARS_PAGE (self));

  if ((chart = sl_scalars_page_get_chart (self, tag)) != NULL)
    toggle_extra_tag (self, GTK_WIDGET (chart), other_tag);
}

/**
 * sl_scalars_page_set_threshold:
 *
 * As the card's highlight popover: points of @tag's chart above or below
 * @value are highlighted.
 */
void
sl_scalars_page_set_threshold (SlScalarsPage    *self,
                               const char       *tag,
                               SlChartThreshold  mode,
                               double            value)
{
  SlScalarChart *chart;

  g_return_if_fail (SL_IS_SCALARS_PAGE (self));

  if ((chart = sl_scalars_page_get_chart (self, tag)) == NULL)
    return;

  gtk_spin_button_set_value (g_object_get_data (G_OBJECT (chart), "sl-threshold-value"), value);
  gtk_drop_down_set_selected (g_object_get_data (G_OBJECT (chart), "sl-threshold-mode"), mode);
  threshold_changed_cb (NULL, GTK_WIDGET (chart));
}

guint
sl_scalars_page_get_n_tensor_views (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);
  return self->tensor_views->len;
}

/**
 * sl_scalars_page_get_tensor_view:
 *
 * Returns: (transfer none) (nullable): the tensor view of @tag of run
 *   @run (its name in the reader, "." for the opened folder itself)
 */
GtkWidget *
sl_scalars_page_get_tensor_view (SlScalarsPage *self,
                                 const char    *run,
                                 const char    *tag)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);

  for (guint i = 0; i < self->tensor_views->len; i++)
    {
      GtkWidget *view = g_ptr_array_index (self->tensor_views, i);
      const char *view_run = g_object_get_data (G_OBJECT (gtk_widget_get_parent (view)), "sl-run");

      if (g_strcmp0 (view_run, run) == 0 && g_strcmp0 (sl_tensor_view_get_tag (SL_TENSOR_VIEW (view)), tag) == 0)
        return view;
    }
  return NULL;
}
