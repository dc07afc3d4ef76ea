/* sl-scalar-card.c
 *
 * A card draws its tag, and the tags chosen in Draw With Tag, for every
 * run in the order the page gives: run r of tag t gets palette colour
 * r + t × runs, so with one tag a run has the same colour in every card.
 * The card keeps its tags, its highlight and its chart's zoom for as long
 * as it lives; the page only adds cards and hands them new runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-scalar-card.h"
#include "sl-summary-run.h"

struct _SlScalarCard
{
  GtkBox            parent_instance;

  char             *tag;
  GListModel       *all_tags;     /* GtkStringObject: the page's scalar tags */
  char             *title;
  GStrv             extra_tags;   /* drawn with tag */
  GPtrArray        *runs;         /* SlSummaryRun, in the page's order */
  GHashTable       *hidden_runs;  /* names of runs not drawn */
  GArray           *run_of_series;/* for each series of the chart, its run's index */
  GPtrArray        *series;       /* SlScalarSeries drawn */
  SlChartThreshold  threshold_mode;
  double            threshold_value;

  SlScalarChart    *chart;
  GtkLabel         *notice_label;
  GtkDropDown      *threshold_mode_dropdown;
  GtkSpinButton    *threshold_value_spin;
  GMenu            *tags_section;
};

G_DEFINE_FINAL_TYPE (SlScalarCard, sl_scalar_card, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_TAG,
  PROP_ALL_TAGS,
  PROP_TITLE,
  PROP_EXTRA_TAGS,
  PROP_THRESHOLD_MODE,
  PROP_THRESHOLD_VALUE,
  PROP_CHART,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char * const threshold_names[] = { "off", "above", "below" };

static char *dup_run_display_name (SlSummaryRun *run);

/* A restarted job writes steps again: the points it had written before,
 * from the step it went back to on, were dropped, and the points written
 * after the restart kept, as TensorBoard does. Say so for each run, as
 * TensorBoard users otherwise wonder where the earlier points went. */
static void
update_restart_notice (SlScalarCard *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->series->len; i++)
    {
      SlScalarSeries *series = g_ptr_array_index (self->series, i);
      SlSummaryRun *run = g_ptr_array_index (self->runs, g_array_index (self->run_of_series, guint, i));
      g_autofree char *run_name = NULL;
      g_autofree char *n_dropped = NULL;
      guint dropped = sl_scalar_series_get_n_dropped (series);
      gint64 from, to;

      if (!sl_scalar_series_get_last_restart (series, &from, &to))
        continue;
      run_name = dup_run_display_name (run);
      n_dropped = sl_count_format (dropped);
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append_printf (text,
                              /* Translators: a run's steps went back (a restarted job); the run, its tag, the
                               * last step before the restart, the step written again, how many points were
                               * dropped and that step again */
                              g_dngettext (GETTEXT_PACKAGE,
                                           "Run “%s” (%s) went back from step %lld to step %lld, a restarted job: "
                                           "%s point written before the restart, from step %lld on, was dropped; "
                                           "the points written after it are shown",
                                           "Run “%s” (%s) went back from step %lld to step %lld, a restarted job: "
                                           "%s points written before the restart, from step %lld on, were dropped; "
                                           "the points written after it are shown",
                                           dropped),
                              run_name, sl_scalar_series_get_tag (series), (long long)from, (long long)to, n_dropped,
                              (long long)to);
    }

  gtk_label_set_label (self->notice_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->notice_label), text->len > 0);
}

static char *
dup_run_display_name (SlSummaryRun *run)
{
  const char *name = sl_summary_run_get_name (run);

  /* The reader calls the opened folder "."; people know it by its name. */
  if (g_strcmp0 (name, ".") == 0)
    return g_path_get_basename (sl_summary_run_get_path (run));
  return g_strdup (name);
}

/* How many series the card would draw now: a run may gain one of its
 * tags later than the others. */
static guint
count_series (SlScalarCard *self)
{
  guint n = 0;

  for (guint r = 0; self->runs != NULL && r < self->runs->len; r++)
    {
      n += sl_summary_run_find_tag (g_ptr_array_index (self->runs, r), SL_SUMMARY_TAG_SCALAR, self->tag) >= 0;
      for (guint t = 0; self->extra_tags[t] != NULL; t++)
        n += sl_summary_run_find_tag (g_ptr_array_index (self->runs, r), SL_SUMMARY_TAG_SCALAR,
                                      self->extra_tags[t]) >= 0;
    }
  return n;
}

static void
fill_chart (SlScalarCard *self)
{
  SlScalarChartRenderer *renderer = sl_scalar_chart_get_renderer (self->chart);
  guint n_tags = 1 + g_strv_length (self->extra_tags);
  guint n_runs = self->runs ? self->runs->len : 0;

  sl_scalar_chart_renderer_clear (renderer);
  g_array_set_size (self->run_of_series, 0);
  g_ptr_array_set_size (self->series, 0);

  for (guint t = 0; t < n_tags; t++)
    {
      const char *tag = t == 0 ? self->tag : self->extra_tags[t - 1];

      for (guint r = 0; r < n_runs; r++)
        {
          SlSummaryRun *run = g_ptr_array_index (self->runs, r);
          gint index = sl_summary_run_find_tag (run, SL_SUMMARY_TAG_SCALAR, tag);
          g_autofree char *run_name = NULL;
          g_autofree char *name = NULL;
          SlScalarSeries *series;
          guint position;

          if (index < 0)
            continue;

          series = sl_summary_run_get_tag_series (run, index);
          run_name = dup_run_display_name (run);
          name = n_tags > 1 ? g_strdup_printf ("%s · %s", run_name, tag) : g_steal_pointer (&run_name);
          position = sl_scalar_chart_add_series (self->chart, series, name);
          sl_scalar_chart_renderer_set_series_palette_index (renderer, position, r + t * n_runs);
          if (g_hash_table_contains (self->hidden_runs, sl_summary_run_get_name (run)))
            sl_scalar_chart_set_series_visible (self->chart, position, FALSE);
          g_array_append_val (self->run_of_series, r);
          g_ptr_array_add (self->series, series);
        }
    }

  sl_scalar_chart_set_threshold (self->chart, self->threshold_mode, self->threshold_value);
  update_restart_notice (self);
}

/* "Draw with": every other scalar tag of the page, to compare curves of
 * different tags (train and eval loss, say) in one chart. */
static void
update_tags_menu (SlScalarCard *self)
{
  guint n = self->all_tags ? g_list_model_get_n_items (self->all_tags) : 0;

  g_menu_remove_all (self->tags_section);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (self->all_tags, i);
      const char *other = gtk_string_object_get_string (item);
      g_autoptr(GMenuItem) menu_item = NULL;

      if (g_strcmp0 (other, self->tag) == 0)
        continue;

      menu_item = g_menu_item_new (other, NULL);
      g_menu_item_set_action_and_target (menu_item, "card.toggle-tag", "s", other);
      g_menu_append_item (self->tags_section, menu_item);
    }
}

static void
all_tags_changed_cb (SlScalarCard *self)
{
  update_tags_menu (self);
}

static SlChartImageFormat
image_format (const char *format)
{
  return g_str_equal (format, "png") ? SL_CHART_IMAGE_PNG :
         g_str_equal (format, "svg") ? SL_CHART_IMAGE_SVG : SL_CHART_IMAGE_PDF;
}

static gboolean
is_known_format (const char *format)
{
  static const char * const formats[] = { "png", "svg", "pdf", "csv", "json", NULL };

  return format != NULL && g_strv_contains (formats, format);
}

static void
report_error (SlScalarCard *self,
              GError       *error)
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (self)));

  if (GTK_IS_WIDGET (root))
    gtk_widget_activate_action (root, "win.toast", "s", error->message);
  else
    g_warning ("%s", error->message);
}

static void
export_data_done_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(SlScalarCard) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!sl_scalar_chart_export_data_finish (SL_SCALAR_CHART (source), result, &error))
    report_error (self, error);
}

/* The data goes to the file on a worker; the picture is drawn here. */
static void
export_to_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  SlScalarCard *self = SL_SCALAR_CARD (widget);
  g_autoptr(GError) error = NULL;
  const char *format, *path;

  g_variant_get (param, "(&s&s)", &format, &path);
  if (g_str_equal (format, "csv") || g_str_equal (format, "json"))
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);

      sl_scalar_chart_export_data_async (self->chart, file,
                                         g_str_equal (format, "csv") ? SL_CHART_DATA_CSV : SL_CHART_DATA_JSON,
                                         NULL, export_data_done_cb, g_object_ref (self));
    }
  else if (!sl_scalar_card_export (self, format, path, &error))
    report_error (self, error);
}

typedef struct {
  SlScalarCard *card;
  char         *format;
} ExportRequest;

static void
export_request_free (gpointer data,
                     GClosure *closure)
{
  ExportRequest *request = data;

  g_object_unref (request->card);
  g_free (request->format);
  g_free (request);
}

static void
export_chosen_cb (GtkNativeDialog *dialog,
                  int              response,
                  ExportRequest   *request)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        gtk_widget_activate_action (GTK_WIDGET (request->card), "card.export-to", "(ss)", request->format, path);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlScalarCard *self = SL_SCALAR_CARD (widget);
  const char *format = g_variant_get_string (param, NULL);
  g_autofree char *safe = g_strdelimit (g_strdup (self->tag), "/\\:*?\"<>| ", '_');
  g_autofree char *name = g_strdup_printf ("%s.%s", safe, format);
  GtkFileChooserNative *dialog;
  ExportRequest *request;

  if (!is_known_format (format))
    return;

  dialog = gtk_file_chooser_native_new (_("Export Chart"), GTK_WINDOW (gtk_widget_get_root (widget)),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  request = g_new0 (ExportRequest, 1);
  request->card = g_object_ref (self);
  request->format = g_strdup (format);
  g_signal_connect_data (dialog, "response", G_CALLBACK (export_chosen_cb), request, export_request_free, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
toggle_tag_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  sl_scalar_card_toggle_tag (SL_SCALAR_CARD (widget), g_variant_get_string (param, NULL));
}

static void
clear_tags_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  sl_scalar_card_toggle_tag (SL_SCALAR_CARD (widget), NULL);
}

static void
threshold_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  const char *mode;
  double value;

  g_variant_get (param, "(&sd)", &mode, &value);
  for (guint i = 0; i < G_N_ELEMENTS (threshold_names); i++)
    {
      if (g_str_equal (mode, threshold_names[i]))
        sl_scalar_card_set_threshold (SL_SCALAR_CARD (widget), i, value);
    }
}

static void
update_title (SlScalarCard *self)
{
  g_autofree char *extra = g_strjoinv (" + ", self->extra_tags);

  g_free (self->title);
  self->title = extra[0] ? g_strconcat (self->tag, " + ", extra, NULL) : g_strdup (self->tag);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
sl_scalar_card_constructed (GObject *object)
{
  SlScalarCard *self = (SlScalarCard *)object;

  G_OBJECT_CLASS (sl_scalar_card_parent_class)->constructed (object);

  if (self->all_tags != NULL)
    g_signal_connect_object (self->all_tags, "items-changed", G_CALLBACK (all_tags_changed_cb), self, G_CONNECT_SWAPPED);
  update_title (self);
  update_tags_menu (self);
}

static void
sl_scalar_card_dispose (GObject *object)
{
  SlScalarCard *self = (SlScalarCard *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_SCALAR_CARD);
  g_clear_object (&self->all_tags);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->series, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_scalar_card_parent_class)->dispose (object);
}

static void
sl_scalar_card_finalize (GObject *object)
{
  SlScalarCard *self = (SlScalarCard *)object;

  g_clear_pointer (&self->tag, g_free);
  g_clear_pointer (&self->extra_tags, g_strfreev);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->hidden_runs, g_hash_table_unref);
  g_clear_pointer (&self->run_of_series, g_array_unref);

  G_OBJECT_CLASS (sl_scalar_card_parent_class)->finalize (object);
}

static void
sl_scalar_card_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SlScalarCard *self = SL_SCALAR_CARD (object);

  switch (prop_id)
    {
    case PROP_TAG:
      g_value_set_string (value, self->tag);
      break;
    case PROP_ALL_TAGS:
      g_value_set_object (value, self->all_tags);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_EXTRA_TAGS:
      g_value_set_boxed (value, self->extra_tags);
      break;
    case PROP_THRESHOLD_MODE:
      g_value_set_uint (value, self->threshold_mode);
      break;
    case PROP_THRESHOLD_VALUE:
      g_value_set_double (value, self->threshold_value);
      break;
    case PROP_CHART:
      g_value_set_object (value, self->chart);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_scalar_card_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  SlScalarCard *self = SL_SCALAR_CARD (object);

  switch (prop_id)
    {
    case PROP_TAG:
      self->tag = g_value_dup_string (value);
      break;
    case PROP_ALL_TAGS:
      self->all_tags = g_value_dup_object (value);
      break;
    case PROP_EXTRA_TAGS:
      sl_scalar_card_set_extra_tags (self, g_value_get_boxed (value));
      break;
    case PROP_THRESHOLD_MODE:
      sl_scalar_card_set_threshold (self, g_value_get_uint (value), self->threshold_value);
      break;
    case PROP_THRESHOLD_VALUE:
      sl_scalar_card_set_threshold (self, self->threshold_mode, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_scalar_card_class_init (SlScalarCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = sl_scalar_card_constructed;
  object_class->dispose = sl_scalar_card_dispose;
  object_class->finalize = sl_scalar_card_finalize;
  object_class->get_property = sl_scalar_card_get_property;
  object_class->set_property = sl_scalar_card_set_property;

  properties[PROP_TAG] =
    g_param_spec_string ("tag", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * SlScalarCard:all-tags:
   *
   * The scalar tags that Draw With Tag offers (#GtkStringObject); the
   * menu follows the model as tags appear.
   */
  properties[PROP_ALL_TAGS] =
    g_param_spec_object ("all-tags", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_EXTRA_TAGS] =
    g_param_spec_boxed ("extra-tags", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlScalarCard:threshold-mode:
   *
   * An #SlChartThreshold: points above or below #SlScalarCard:threshold-value
   * drawn in the highlight colour.
   */
  properties[PROP_THRESHOLD_MODE] =
    g_param_spec_uint ("threshold-mode", NULL, NULL, SL_CHART_THRESHOLD_NONE, SL_CHART_THRESHOLD_BELOW,
                       SL_CHART_THRESHOLD_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_THRESHOLD_VALUE] =
    g_param_spec_double ("threshold-value", NULL, NULL, -1e12, 1e12, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CHART] =
    g_param_spec_object ("chart", NULL, NULL, SL_TYPE_SCALAR_CHART,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-scalar-card.ui");
  gtk_widget_class_bind_template_child (widget_class, SlScalarCard, chart);
  gtk_widget_class_bind_template_child (widget_class, SlScalarCard, notice_label);
  gtk_widget_class_bind_template_child (widget_class, SlScalarCard, threshold_mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlScalarCard, threshold_value_spin);
  gtk_widget_class_bind_template_child (widget_class, SlScalarCard, tags_section);

  /**
   * SlScalarCard|card.export:
   * @format: "png", "svg", "pdf", "csv" or "json"
   *
   * Asks where to save, then as card.export-to.
   */
  gtk_widget_class_install_action (widget_class, "card.export", "s", export_action);
  /**
   * SlScalarCard|card.export-to:
   *
   * Writes the chart (png, svg, pdf) or the data it draws (csv, json) to
   * a path; a failure is shown as a toast.
   */
  gtk_widget_class_install_action (widget_class, "card.export-to", "(ss)", export_to_action);
  /**
   * SlScalarCard|card.toggle-tag:
   *
   * Draws another tag in this chart, or stops drawing it.
   */
  gtk_widget_class_install_action (widget_class, "card.toggle-tag", "s", toggle_tag_action);
  gtk_widget_class_install_action (widget_class, "card.clear-tags", NULL, clear_tags_action);
  /**
   * SlScalarCard|card.threshold:
   * @mode: "off", "above" or "below"
   * @value: the threshold
   */
  gtk_widget_class_install_action (widget_class, "card.threshold", "(sd)", threshold_action);

  g_type_ensure (SL_TYPE_SCALAR_CHART);
}

static void
sl_scalar_card_init (SlScalarCard *self)
{
  self->extra_tags = g_new0 (char *, 1);
  self->hidden_runs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->run_of_series = g_array_new (FALSE, FALSE, sizeof (guint));
  self->series = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  g_object_bind_property (self, "threshold-mode", self->threshold_mode_dropdown, "selected",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "threshold-value", gtk_spin_button_get_adjustment (self->threshold_value_spin), "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

/**
 * sl_scalar_card_new:
 * @tag: the scalar tag the card is for
 * @all_tags: (nullable): the tags Draw With Tag offers, #GtkStringObject
 *
 * Returns: (transfer floating): a card drawing nothing until
 *   sl_scalar_card_set_runs()
 */
GtkWidget *
sl_scalar_card_new (const char *tag,
                    GListModel *all_tags)
{
  g_return_val_if_fail (tag != NULL, NULL);
  g_return_val_if_fail (all_tags == NULL || G_IS_LIST_MODEL (all_tags), NULL);

  return g_object_new (SL_TYPE_SCALAR_CARD, "tag", tag, "all-tags", all_tags, NULL);
}

const char *
sl_scalar_card_get_tag (SlScalarCard *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CARD (self), NULL);
  return self->tag;
}

/**
 * sl_scalar_card_get_title:
 *
 * Returns: the tags drawn, "loss + eval/loss"
 */
const char *
sl_scalar_card_get_title (SlScalarCard *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CARD (self), NULL);
  return self->title;
}

/**
 * sl_scalar_card_get_chart:
 *
 * Returns: (transfer none): the chart
 */
SlScalarChart *
sl_scalar_card_get_chart (SlScalarCard *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CARD (self), NULL);
  return self->chart;
}

/**
 * sl_scalar_card_set_runs:
 * @runs: (element-type SlSummaryRun): the runs to draw, in the order
 *   that gives them their colours
 *
 * Draws the card's tags of @runs again; tags, highlight and zoom stay.
 */
void
sl_scalar_card_set_runs (SlScalarCard *self,
                         GPtrArray    *runs)
{
  g_return_if_fail (SL_IS_SCALAR_CARD (self));
  g_return_if_fail (runs != NULL);

  if (runs != self->runs)
    {
      g_clear_pointer (&self->runs, g_ptr_array_unref);
      self->runs = g_ptr_array_ref (runs);
    }
  fill_chart (self);
}

void
sl_scalar_card_set_run_visible (SlScalarCard *self,
                                const char   *run_name,
                                gboolean      visible)
{
  g_return_if_fail (SL_IS_SCALAR_CARD (self));
  g_return_if_fail (run_name != NULL);

  if (visible)
    g_hash_table_remove (self->hidden_runs, run_name);
  else
    g_hash_table_add (self->hidden_runs, g_strdup (run_name));

  for (guint i = 0; i < self->run_of_series->len; i++)
    {
      SlSummaryRun *run = g_ptr_array_index (self->runs, g_array_index (self->run_of_series, guint, i));

      if (g_str_equal (sl_summary_run_get_name (run), run_name))
        sl_scalar_chart_set_series_visible (self->chart, i, visible);
    }
}

/**
 * sl_scalar_card_refresh:
 *
 * After the runs gained points: takes in a series that a run did not have
 * before, and says whether a restart dropped points.
 *
 * Returns: whether the chart was filled again
 */
gboolean
sl_scalar_card_refresh (SlScalarCard *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CARD (self), FALSE);

  if (count_series (self) != self->series->len)
    {
      fill_chart (self);
      return TRUE;
    }

  update_restart_notice (self);
  return FALSE;
}

/**
 * sl_scalar_card_get_extra_tags:
 *
 * Returns: (transfer none): the tags drawn with the card's own
 */
const char * const *
sl_scalar_card_get_extra_tags (SlScalarCard *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CARD (self), NULL);
  return (const char * const *)self->extra_tags;
}

void
sl_scalar_card_set_extra_tags (SlScalarCard       *self,
                               const char * const *tags)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autoptr(GHashTable) seen = NULL;

  g_return_if_fail (SL_IS_SCALAR_CARD (self));

  builder = g_strv_builder_new ();
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_add (seen, self->tag);
  for (guint i = 0; tags != NULL && tags[i] != NULL; i++)
    {
      if (g_hash_table_add (seen, (gpointer)tags[i]))
        g_strv_builder_add (builder, tags[i]);
    }
  g_strfreev (self->extra_tags);
  self->extra_tags = g_strv_builder_end (builder);

  if (self->runs != NULL)
    fill_chart (self);
  update_title (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXTRA_TAGS]);
}

/**
 * sl_scalar_card_toggle_tag:
 * @tag: (nullable): a tag to draw in this card too, or to stop drawing if
 *   it already is; %NULL to draw the card's own tag alone again
 */
void
sl_scalar_card_toggle_tag (SlScalarCard *self,
                           const char   *tag)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) tags = NULL;
  gboolean found = FALSE;

  g_return_if_fail (SL_IS_SCALAR_CARD (self));

  builder = g_strv_builder_new ();
  for (guint i = 0; tag != NULL && self->extra_tags[i] != NULL; i++)
    {
      const char *extra = self->extra_tags[i];

      if (g_str_equal (extra, tag))
        found = TRUE;
      else
        g_strv_builder_add (builder, extra);
    }
  if (tag != NULL && !found)
    g_strv_builder_add (builder, tag);

  tags = g_strv_builder_end (builder);
  sl_scalar_card_set_extra_tags (self, (const char * const *)tags);
}

SlChartThreshold
sl_scalar_card_get_threshold_mode (SlScalarCard *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CARD (self), SL_CHART_THRESHOLD_NONE);
  return self->threshold_mode;
}

double
sl_scalar_card_get_threshold_value (SlScalarCard *self)
{
  g_return_val_if_fail (SL_IS_SCALAR_CARD (self), 0);
  return self->threshold_value;
}

/**
 * sl_scalar_card_set_threshold:
 *
 * Points above or below @value drawn in the highlight colour, with the
 * value as a line: "where did the loss spike over 2?"
 */
void
sl_scalar_card_set_threshold (SlScalarCard     *self,
                              SlChartThreshold  mode,
                              double            value)
{
  g_return_if_fail (SL_IS_SCALAR_CARD (self));
  g_return_if_fail (mode <= SL_CHART_THRESHOLD_BELOW);

  value = CLAMP (value, -1e12, 1e12);
  if (mode == self->threshold_mode && value == self->threshold_value)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (mode != self->threshold_mode)
    {
      self->threshold_mode = mode;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THRESHOLD_MODE]);
    }
  if (value != self->threshold_value)
    {
      self->threshold_value = value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THRESHOLD_VALUE]);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->threshold_value_spin), mode != SL_CHART_THRESHOLD_NONE);
  sl_scalar_chart_set_threshold (self->chart, mode, value);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * sl_scalar_card_export:
 * @format: "png", "svg" or "pdf"
 *
 * Draws the chart into @path. The data the chart draws goes out through
 * the card.export-to action, on a worker.
 *
 * Returns: whether @path was written
 */
gboolean
sl_scalar_card_export (SlScalarCard  *self,
                       const char    *format,
                       const char    *path,
                       GError       **error)
{
  g_return_val_if_fail (SL_IS_SCALAR_CARD (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!is_known_format (format) || g_str_equal (format, "csv") || g_str_equal (format, "json"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Charts cannot be exported as “%s”"), format);
      return FALSE;
    }

  return sl_scalar_chart_export (self->chart, path, image_format (format), error);
}
