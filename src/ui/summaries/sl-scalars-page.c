/* sl-scalars-page.c
 *
 * Reads every run below a folder in a worker, then shows one card per
 * scalar tag. Each card's chart overlays the runs in the same order, so a
 * run has the same colour everywhere and one switch in the run list shows
 * or hides it in every chart.
 *
 * Training keeps writing: when a file monitor on a run's folder (or the
 * folder opened) says a file changed, the reader follows the files in a
 * worker and the page applies what was decoded; nothing polls. Runs keep the position they were first seen at, and
 * with it their colour; a tag or run seen for the first time gets new
 * cards, and the cards already shown keep their zoom, highlight and tags.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-histogram-card.h"
#include "sl-image-card.h"
#include "sl-scalar-card.h"
#include "sl-scalar-chart.h"
#include "sl-page-switcher.h"
#include "sl-scalars-page.h"
#include "sl-summary-reader.h"
#include "sl-tensor-view.h"
#include "sl-tooltip.h"

#define CARD_HEIGHT 260
/* A writer flushes many small records in a burst: a file's changes are
 * told at most this often. */
#define MONITOR_RATE_LIMIT_MS 250

struct _SlScalarsPage
{
  SlDocument          parent_instance;

  char               *path;
  SlSummaryReader    *reader;
  GCancellable       *cancellable;
  GPtrArray          *runs;           /* SlSummaryRun shown, in the order first seen */
  GHashTable         *hidden_runs;    /* run names unticked in the runs list */
  GtkStringList      *tags;           /* scalar tags, one card each, in card order */
  GPtrArray          *scalar_cards;   /* SlScalarCard, as tags */
  GPtrArray          *histogram_list; /* SlHistogramCard */
  GPtrArray          *image_list;     /* SlImageCard */
  GPtrArray          *tensor_views;   /* SlTensorView */
  GPtrArray          *tensor_runs;    /* the run name of each tensor view */
  GHashTable         *shown;          /* "kind\nrun\ntag" of every per-run card */
  GRegex             *filter;
  GPtrArray          *monitors;        /* GFileMonitor of each run's folder and of the one opened */
  gboolean            following;       /* a worker is reading */
  gboolean            stale;           /* files changed since the last read began */
  gboolean            charts_shown;

  GtkStack           *stack;
  AdwStatusPage      *message_page;
  GtkListBox         *runs_list;
  GtkFlowBox         *cards;
  GtkFlowBox         *histogram_cards;
  GtkFlowBox         *image_cards;
  GtkFlowBox         *tensor_cards;
  GtkStack           *view_stack;
  GtkWidget          *view_switcher;
  GtkDropDown        *histogram_mode_dropdown;
  GtkSearchEntry     *filter_entry;
  GtkDropDown        *x_axis_dropdown;
  GtkScale           *smoothing_scale;
  GtkToggleButton    *log_toggle;
  GtkToggleButton    *outliers_toggle;
};

G_DEFINE_FINAL_TYPE (SlScalarsPage, sl_scalars_page, SL_TYPE_DOCUMENT)

static void follow (SlScalarsPage *self);
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
  for (guint i = 0; i < self->scalar_cards->len; i++)
    apply_options (self, sl_scalar_card_get_chart (g_ptr_array_index (self->scalar_cards, i)));
}

static void
histogram_mode_changed_cb (SlScalarsPage *self)
{
  SlHistogramMode mode = gtk_drop_down_get_selected (self->histogram_mode_dropdown);

  for (guint i = 0; i < self->histogram_list->len; i++)
    sl_histogram_card_set_mode (g_ptr_array_index (self->histogram_list, i), mode);
}

/* A control of the toolbar, which wraps: its place goes with it. */
static void
set_tool_visible (gpointer control,
                  gboolean visible)
{
  GtkWidget *place = gtk_widget_get_parent (control);

  gtk_widget_set_visible (control, visible);
  if (GTK_IS_FLOW_BOX_CHILD (place))
    gtk_widget_set_visible (place, visible);
}

/* The tab names the view shown: a run's histograms are not its scalars. */
static void
update_title (SlScalarsPage *self,
              const char    *view)
{
  const char *path = sl_document_get_path (SL_DOCUMENT (self));
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  if (path == NULL || view == NULL)
    return;
  name = g_path_get_basename (path);
  if (g_strcmp0 (view, "histograms") == 0)
    /* Translators: the title of a document tab; %s is a folder name. */
    title = g_strdup_printf (_("Histograms: %s"), name);
  else if (g_strcmp0 (view, "images") == 0)
    /* Translators: the title of a document tab; %s is a folder name. */
    title = g_strdup_printf (_("Images: %s"), name);
  else if (g_strcmp0 (view, "tensors") == 0)
    title = g_strdup_printf (_("Tensors: %s"), name);
  else
    title = g_strdup_printf (_("Scalars: %s"), name);
  panel_widget_set_title (PANEL_WIDGET (self), title);
}

/* Scalar controls only apply to scalars; the layout only to histograms. */
static void
view_changed_cb (SlScalarsPage *self)
{
  const char *view = gtk_stack_get_visible_child_name (self->view_stack);
  gboolean scalars = g_strcmp0 (view, "scalars") == 0;

  update_title (self, view);

  set_tool_visible (self->histogram_mode_dropdown, g_strcmp0 (view, "histograms") == 0);
  set_tool_visible (self->x_axis_dropdown, scalars);
  /* Smoothing and its label go together; greyed out they only took room. */
  set_tool_visible (gtk_widget_get_parent (GTK_WIDGET (self->smoothing_scale)), scalars);
  set_tool_visible (self->log_toggle, scalars);
  set_tool_visible (self->outliers_toggle, scalars);
}

static gboolean
tag_matches (SlScalarsPage *self,
             const char    *tag)
{
  return self->filter == NULL || tag == NULL || g_regex_match (self->filter, tag, 0, NULL);
}

static const char *
card_tag (GtkWidget *card)
{
  if (SL_IS_SCALAR_CARD (card))
    return sl_scalar_card_get_tag (SL_SCALAR_CARD (card));
  if (SL_IS_HISTOGRAM_CARD (card))
    return sl_histogram_card_get_tag (SL_HISTOGRAM_CARD (card));
  if (SL_IS_IMAGE_CARD (card))
    return sl_image_card_get_tag (SL_IMAGE_CARD (card));
  if (SL_IS_TENSOR_VIEW (card))
    return sl_tensor_view_get_tag (SL_TENSOR_VIEW (card));
  return NULL;
}

static gboolean
card_matches (GtkFlowBoxChild *child,
              gpointer         user_data)
{
  return tag_matches (user_data, card_tag (gtk_flow_box_child_get_child (child)));
}

/* A tensor card shows one run: hidden with it in the runs list. */
static gboolean
tensor_card_matches (GtkFlowBoxChild *child,
                     gpointer         user_data)
{
  SlScalarsPage *self = user_data;
  GtkWidget *view = gtk_flow_box_child_get_child (child);
  guint index;

  /* Appending filters before the view is known. */
  if (view == NULL || !g_ptr_array_find (self->tensor_views, view, &index))
    return TRUE;
  return card_matches (child, user_data) &&
         !g_hash_table_contains (self->hidden_runs, g_ptr_array_index (self->tensor_runs, index));
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

static void
run_toggled_cb (GtkCheckButton *check,
                SlScalarsPage  *self)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (check), GTK_TYPE_LIST_BOX_ROW);
  gboolean active = gtk_check_button_get_active (check);
  const char *name;
  int index;

  /* Rows are appended as runs are first seen: a row's index is its run's. */
  index = row != NULL ? gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row)) : -1;
  if (index < 0 || (guint)index >= self->runs->len)
    return;

  name = sl_summary_run_get_name (g_ptr_array_index (self->runs, index));
  if (active)
    g_hash_table_remove (self->hidden_runs, name);
  else
    g_hash_table_add (self->hidden_runs, g_strdup (name));

  for (guint i = 0; i < self->scalar_cards->len; i++)
    sl_scalar_card_set_run_visible (g_ptr_array_index (self->scalar_cards, i), name, active);

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
  g_autofree char *n_files_text = NULL;
  g_autofree char *n_bad_text = NULL;
  gboolean growing = FALSE;
  gint64 last_update = 0;

  for (guint f = 0; f < n_files; f++)
    {
      SlSummaryFile *file = sl_summary_run_get_file (run, f);

      growing |= file->growing;
      last_update = MAX (last_update, file->last_update);
    }

  g_string_append_c (str, '\n');
  n_files_text = sl_count_format (n_files);
  n_bad_text = sl_count_format (sl_summary_run_get_n_bad_records (run));
  g_string_append_printf (str, g_dngettext (GETTEXT_PACKAGE, "%s file", "%s files", n_files), n_files_text);
  g_string_append (str, ", ");
  g_string_append_printf (str, g_dngettext (GETTEXT_PACKAGE, "%s damaged record skipped", "%s damaged records skipped",
                                            sl_summary_run_get_n_bad_records (run)),
                          n_bad_text);
  if (growing)
    g_string_append_printf (str, "\n%s", _("Still being written"));
  if (last_update > 0)
    {
      g_string_append_c (str, '\n');
      g_string_append_printf (str, _("Last read %.0f s ago"), (g_get_monotonic_time () - last_update) / (double)G_USEC_PER_SEC);
    }

  return g_string_free (str, FALSE);
}

/* A run's swatch, in the colour its lines are drawn in the style shown. */
static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  double rgb[3];

  sl_scalar_chart_renderer_get_palette_color (GPOINTER_TO_UINT (data), rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_arc (cr, 3, 3, 3, G_PI, 1.5 * G_PI);
  cairo_arc (cr, width - 3, 3, 3, 1.5 * G_PI, 2 * G_PI);
  cairo_arc (cr, width - 3, height - 3, 3, 0, 0.5 * G_PI);
  cairo_arc (cr, 3, height - 3, 3, 0.5 * G_PI, G_PI);
  cairo_fill (cr);
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
  sl_widget_set_long_tooltip (check, health);
  g_signal_connect_object (check, "toggled", G_CALLBACK (run_toggled_cb), self, 0);

  gtk_widget_set_size_request (swatch, 12, 12);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (swatch, "series-swatch");
  gtk_widget_add_css_class (swatch, css_class);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                  GUINT_TO_POINTER (index % sl_scalar_chart_renderer_get_palette_size ()), NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (gtk_widget_queue_draw),
                           swatch, G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (box), swatch);
  gtk_box_append (GTK_BOX (box), check);

  if (sl_summary_run_get_n_bad_records (run) > 0)
    {
      GtkWidget *warning = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      sl_widget_set_long_tooltip (warning, health);
      gtk_box_append (GTK_BOX (box), warning);
    }

  return box;
}

static void
show_message (SlScalarsPage *self,
              const char    *title,
              const char    *description)
{
  adw_status_page_set_title (self->message_page, title);
  adw_status_page_set_description (self->message_page, description);
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

static gboolean
has_tag (GtkStringList *tags,
         const char    *tag)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (tags));

  for (guint i = 0; i < n; i++)
    {
      if (g_str_equal (gtk_string_list_get_string (tags, i), tag))
        return TRUE;
    }
  return FALSE;
}

/* Runs with only lineage or a graph have nothing to show here; the others
 * keep the position they were first seen at. */
static gboolean
add_new_runs (SlScalarsPage *self)
{
  GPtrArray *all_runs = sl_summary_reader_get_runs (self->reader);
  gboolean added = FALSE;

  for (guint r = 0; r < all_runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (all_runs, r);

      if (g_ptr_array_find (self->runs, run, NULL) || !run_has_curves (run))
        continue;

      g_ptr_array_add (self->runs, g_object_ref (run));
      gtk_list_box_append (self->runs_list, create_run_row (self, run, self->runs->len - 1));
      added = TRUE;
    }

  return added;
}

/* Scalar tags in the order they first appear across the runs: new ones
 * get a card at the end. */
static guint
add_scalar_cards (SlScalarsPage *self)
{
  guint first = self->scalar_cards->len;

  for (guint r = 0; r < self->runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (self->runs, r);

      for (guint t = 0; t < sl_summary_run_get_n_tags (run); t++)
        {
          const char *tag = sl_summary_run_get_tag_name (run, t);

          if (sl_summary_run_get_tag_kind (run, t) == SL_SUMMARY_TAG_SCALAR && !has_tag (self->tags, tag))
            gtk_string_list_append (self->tags, tag);
        }
    }

  for (guint i = first; i < g_list_model_get_n_items (G_LIST_MODEL (self->tags)); i++)
    {
      GtkWidget *card = sl_scalar_card_new (gtk_string_list_get_string (self->tags, i), G_LIST_MODEL (self->tags));
      GHashTableIter iter;
      gpointer hidden;

      g_hash_table_iter_init (&iter, self->hidden_runs);
      while (g_hash_table_iter_next (&iter, &hidden, NULL))
        sl_scalar_card_set_run_visible (SL_SCALAR_CARD (card), hidden, FALSE);
      sl_scalar_card_set_runs (SL_SCALAR_CARD (card), self->runs);
      apply_options (self, sl_scalar_card_get_chart (SL_SCALAR_CARD (card)));
      g_ptr_array_add (self->scalar_cards, card);
      gtk_flow_box_append (self->cards, card);
    }

  return self->scalar_cards->len - first;
}

/* Histograms, images and tensors have a card per run and tag. */
static guint
add_run_cards (SlScalarsPage *self)
{
  guint added = 0;

  for (guint r = 0; r < self->runs->len; r++)
    {
      SlSummaryRun *run = g_ptr_array_index (self->runs, r);
      g_autofree char *run_name = dup_display_name (run);

      for (guint t = 0; t < sl_summary_run_get_n_tags (run); t++)
        {
          SlSummaryTagKind kind = sl_summary_run_get_tag_kind (run, t);
          gpointer series = sl_summary_run_get_tag_series (run, t);
          char *key;
          GtkWidget *card;

          if (kind != SL_SUMMARY_TAG_HISTOGRAM && kind != SL_SUMMARY_TAG_IMAGE && kind != SL_SUMMARY_TAG_TENSOR)
            continue;

          key = g_strdup_printf ("%s\n%s\n%s", sl_summary_tag_kind_to_string (kind), sl_summary_run_get_name (run),
                                 sl_summary_run_get_tag_name (run, t));
          if (!g_hash_table_add (self->shown, key))
            continue;

          switch (kind)
            {
            case SL_SUMMARY_TAG_HISTOGRAM:
              card = sl_histogram_card_new (series, run_name, r);
              sl_histogram_card_set_mode (SL_HISTOGRAM_CARD (card), gtk_drop_down_get_selected (self->histogram_mode_dropdown));
              g_ptr_array_add (self->histogram_list, card);
              gtk_flow_box_append (self->histogram_cards, card);
              break;
            case SL_SUMMARY_TAG_IMAGE:
              card = sl_image_card_new (series, run_name);
              g_ptr_array_add (self->image_list, card);
              gtk_flow_box_append (self->image_cards, card);
              break;
            case SL_SUMMARY_TAG_TENSOR:
            default:
              card = sl_tensor_view_new (series, run_name);
              /* As narrow as its controls let it (they wrap), so it fits
               * beside the Workspace and Details in a 1024 px window. */
              gtk_widget_set_size_request (card, -1, 2 * CARD_HEIGHT);
              gtk_widget_set_hexpand (card, TRUE);
              g_ptr_array_add (self->tensor_views, card);
              g_ptr_array_add (self->tensor_runs, g_strdup (sl_summary_run_get_name (run)));
              gtk_flow_box_append (self->tensor_cards, card);
              break;
            }
          added++;
        }
    }

  gtk_flow_box_invalidate_filter (self->tensor_cards);
  return added;
}

/* Adds what the runs gained since the last call: runs, scalar tags, and
 * histogram, image and tensor tags of a run. Cards already shown are
 * handed the new runs, never made again.
 *
 * Returns: whether anything was added */
static gboolean
add_new_cards (SlScalarsPage *self)
{
  gboolean new_runs = add_new_runs (self);
  guint n_old_cards = self->scalar_cards->len;
  guint added = add_scalar_cards (self);

  added += add_run_cards (self);

  for (guint i = 0; i < n_old_cards; i++)
    {
      SlScalarCard *card = g_ptr_array_index (self->scalar_cards, i);

      if (new_runs)
        sl_scalar_card_set_runs (card, self->runs);
      else
        sl_scalar_card_refresh (card);
    }

  return new_runs || added > 0;
}

static void
show_cards (SlScalarsPage *self)
{
  guint n_tags = self->scalar_cards->len;

  if (n_tags == 0 && self->histogram_list->len == 0 && self->image_list->len == 0 && self->tensor_views->len == 0)
    {
      guint n_runs = sl_summary_reader_get_runs (self->reader)->len;
      g_autofree char *description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                   "%u run was read, but it has no scalar tags.",
                                                                   "%u runs were read, but they have no scalar tags.",
                                                                   n_runs),
                                                      n_runs);

      show_message (self, _("No Scalars"), description);
      sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_EMPTY);
      return;
    }

  /* The first time there is something to show, show a view that has it. */
  if (!self->charts_shown && n_tags == 0)
    gtk_stack_set_visible_child_name (self->view_stack, self->histogram_list->len ? "histograms" :
                                                        self->image_list->len ? "images" : "tensors");
  self->charts_shown = TRUE;
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
}

/* What the reader met in every run's files (damaged records skipped, a
 * file that stopped growing in the middle of a record, one that could not
 * be read), each naming the file and byte: in the Problems panel with
 * the document's. A read that follows the files only adds to the runs'
 * lists: the panel is filled again from them when they grew. */
static void
sync_problems (SlScalarsPage *self)
{
  GPtrArray *runs = sl_summary_reader_get_runs (self->reader);
  guint n = 0;

  for (guint r = 0; r < runs->len; r++)
    n += sl_summary_run_get_problems (g_ptr_array_index (runs, r))->len;
  if (n == g_list_model_get_n_items (sl_document_get_problems (SL_DOCUMENT (self))))
    return;

  sl_document_clear_problems (SL_DOCUMENT (self));
  for (guint r = 0; r < runs->len; r++)
    {
      GPtrArray *problems = sl_summary_run_get_problems (g_ptr_array_index (runs, r));

      for (guint i = 0; i < problems->len; i++)
        sl_document_add_problem (SL_DOCUMENT (self), g_ptr_array_index (problems, i));
    }
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
  sync_problems (self);
  add_new_cards (self);
  show_cards (self);
  watch_run_folders (self);
  g_signal_emit (self, signals[SUMMARIES_READ], 0);

  /* Training keeps writing: the monitors tell. What was written between
   * the read and the monitors' start is read now. */
  follow (self);
}

typedef struct {
  SlScalarSeries *series;
  guint           n_points;
  guint           n_restarts;
} SeriesMark;

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

/* Histograms and images grow with training too: their cards take in the
 * new steps and keep following the newest one. */
static void
refresh_run_cards (SlScalarsPage *self)
{
  for (guint i = 0; i < self->histogram_list->len; i++)
    sl_histogram_card_refresh (g_ptr_array_index (self->histogram_list, i));
  for (guint i = 0; i < self->image_list->len; i++)
    sl_image_card_refresh (g_ptr_array_index (self->image_list, i));
  for (guint i = 0; i < self->tensor_views->len; i++)
    sl_tensor_view_update (g_ptr_array_index (self->tensor_views, i));
}

/* In the main thread, after the worker read and decoded what the files
 * gained: append it to the series the cards draw and tell them. */
static void
follow_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SlScalarsPage) self = user_data;
  g_autoptr(GArray) marks = NULL;
  g_autoptr(GError) error = NULL;

  /* Disposed meanwhile: the reader is no longer the page's. */
  if (self->reader != SL_SUMMARY_READER (object))
    return;

  self->following = FALSE;
  marks = mark_series (self);
  if (!sl_summary_reader_follow_finish (self->reader, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not read %s: %s", self->path, error->message);
      return;
    }

  announce_changes (marks);
  refresh_run_cards (self);
  sync_problems (self);
  if (add_new_cards (self))
    {
      show_cards (self);
      watch_run_folders (self);
      g_signal_emit (self, signals[SUMMARIES_READ], 0);
    }
  /* Written to while the worker read: read again. */
  if (self->stale)
    follow (self);
}

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

  follow (self);
}

static void
watch_folder (SlScalarsPage *self,
              const char    *path)
{
  g_autoptr(GFile) folder = g_file_new_for_path (path);
  GFileMonitor *monitor;

  for (guint i = 0; i < self->monitors->len; i++)
    if (g_file_equal (g_object_get_data (g_ptr_array_index (self->monitors, i), "sl-folder"), folder))
      return;
  if (!(monitor = g_file_monitor_directory (folder, G_FILE_MONITOR_NONE, self->cancellable, NULL)))
    return;
  g_file_monitor_set_rate_limit (monitor, MONITOR_RATE_LIMIT_MS);
  g_object_set_data_full (G_OBJECT (monitor), "sl-folder", g_steal_pointer (&folder), g_object_unref);
  g_signal_connect (monitor, "changed", G_CALLBACK (run_folder_changed_cb), self);
  g_ptr_array_add (self->monitors, monitor);
}

/* File monitors on each run's folder say when training writes, and the
 * one on the path opened (a folder of runs) when a new run starts in it. */
static void
watch_run_folders (SlScalarsPage *self)
{
  GPtrArray *runs = sl_summary_reader_get_runs (self->reader);

  for (guint i = 0; i < self->monitors->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->monitors, i), self);
  g_ptr_array_set_size (self->monitors, 0);

  watch_folder (self, self->path);
  for (guint r = 0; r < runs->len; r++)
    watch_folder (self, sl_summary_run_get_path (g_ptr_array_index (runs, r)));
}

/* Stats, reads and decodes in a worker; the main thread only appends
 * what was decoded (follow_cb). One read at a time: a change told while
 * one runs, or while the page is not shown, is read after it. */
static void
follow (SlScalarsPage *self)
{
  if (self->reader == NULL)
    return;
  if (self->following || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }

  self->following = TRUE;
  self->stale = FALSE;
  sl_summary_reader_follow_async (self->reader, self->cancellable, follow_cb, g_object_ref (self));
}

/* Shown again: what changed meanwhile is read now. */
static void
sl_scalars_page_map (GtkWidget *widget)
{
  SlScalarsPage *self = SL_SCALARS_PAGE (widget);

  GTK_WIDGET_CLASS (sl_scalars_page_parent_class)->map (widget);

  if (self->stale)
    follow (self);
}

static void
sl_scalars_page_dispose (GObject *object)
{
  SlScalarsPage *self = (SlScalarsPage *)object;

  g_cancellable_cancel (self->cancellable);
  if (self->monitors != NULL)
    {
      for (guint i = 0; i < self->monitors->len; i++)
        g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->monitors, i), self);
      g_clear_pointer (&self->monitors, g_ptr_array_unref);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_SCALARS_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->reader);
  g_clear_pointer (&self->scalar_cards, g_ptr_array_unref);
  g_clear_pointer (&self->histogram_list, g_ptr_array_unref);
  g_clear_pointer (&self->image_list, g_ptr_array_unref);
  g_clear_pointer (&self->tensor_views, g_ptr_array_unref);
  g_clear_pointer (&self->tensor_runs, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_hash_table_unref);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_object (&self->tags);
  g_clear_pointer (&self->hidden_runs, g_hash_table_unref);
  g_clear_pointer (&self->filter, g_regex_unref);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_scalars_page_parent_class)->dispose (object);
}

static void sl_scalars_page_load (SlDocument *document);
static void summaries_read_cb (SlScalarsPage *self);

/* The stack shows the document's state: nothing reads it back */
static char *
state_child_name (gpointer        instance,
                  SlDocumentState state)
{
  switch (state)
    {
    case SL_DOCUMENT_LOADING:
      return g_strdup ("loading");
    case SL_DOCUMENT_EMPTY:
      return g_strdup ("message");
    case SL_DOCUMENT_FAILED:
      return g_strdup ("message");
    case SL_DOCUMENT_READY:
    default:
      return g_strdup ("charts");
    }
}

static void
sl_scalars_page_class_init (SlScalarsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  SL_DOCUMENT_CLASS (klass)->load = sl_scalars_page_load;

  object_class->dispose = sl_scalars_page_dispose;
  widget_class->map = sl_scalars_page_map;

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
  gtk_widget_class_bind_template_callback (widget_class, state_child_name);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, message_page);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, runs_list);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, cards);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, histogram_cards);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, image_cards);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, tensor_cards);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, SlScalarsPage, view_switcher);
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

  g_type_ensure (SL_TYPE_SCALAR_CARD);
  g_type_ensure (SL_TYPE_HISTOGRAM_CARD);
  g_type_ensure (SL_TYPE_IMAGE_CARD);
}

static void
sl_scalars_page_init (SlScalarsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self, "summaries-read", G_CALLBACK (summaries_read_cb), NULL);
  {
    g_autoptr(GtkSelectionModel) pages = gtk_stack_get_pages (self->view_stack);

    sl_page_switcher_squeeze (self->view_switcher, pages, GTK_TYPE_STACK_PAGE);
  }

  self->runs = g_ptr_array_new_with_free_func (g_object_unref);
  self->tags = gtk_string_list_new (NULL);
  self->scalar_cards = g_ptr_array_new ();
  self->histogram_list = g_ptr_array_new ();
  self->image_list = g_ptr_array_new ();
  self->tensor_views = g_ptr_array_new ();
  self->tensor_runs = g_ptr_array_new_with_free_func (g_free);
  self->shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->monitors = g_ptr_array_new_with_free_func (g_object_unref);
  self->hidden_runs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
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
  GtkWidget *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_SCALARS_PAGE, "path", path, "title", title, NULL);
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
guint
sl_scalars_page_get_n_cards (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);
  return self->scalar_cards->len;
}

guint
sl_scalars_page_get_n_visible_cards (SlScalarsPage *self)
{
  guint n = 0;

  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);

  for (guint i = 0; i < self->scalar_cards->len; i++)
    n += tag_matches (self, sl_scalar_card_get_tag (g_ptr_array_index (self->scalar_cards, i)));

  return n;
}

guint
sl_scalars_page_get_n_histogram_cards (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);
  return self->histogram_list->len;
}

guint
sl_scalars_page_get_n_image_cards (SlScalarsPage *self)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), 0);
  return self->image_list->len;
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
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);

  return index < self->image_list->len ? g_ptr_array_index (self->image_list, index) : NULL;
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
  return self->runs->len;
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
 * sl_scalars_page_get_card:
 * @tag: a scalar tag
 *
 * Returns: (transfer none) (nullable): the #SlScalarCard made for @tag
 */
GtkWidget *
sl_scalars_page_get_card (SlScalarsPage *self,
                          const char    *tag)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);
  g_return_val_if_fail (tag != NULL, NULL);

  for (guint i = 0; i < self->scalar_cards->len; i++)
    {
      SlScalarCard *card = g_ptr_array_index (self->scalar_cards, i);

      if (g_str_equal (sl_scalar_card_get_tag (card), tag))
        return GTK_WIDGET (card);
    }

  return NULL;
}

/**
 * sl_scalars_page_get_histogram_card:
 *
 * Returns: (transfer none) (nullable): histogram card @index, an
 *   #SlHistogramCard
 */
GtkWidget *
sl_scalars_page_get_histogram_card (SlScalarsPage *self,
                                    guint          index)
{
  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);

  return index < self->histogram_list->len ? g_ptr_array_index (self->histogram_list, index) : NULL;
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
  GtkWidget *card;

  g_return_val_if_fail (SL_IS_SCALARS_PAGE (self), NULL);
  g_return_val_if_fail (tag != NULL, NULL);

  card = sl_scalars_page_get_card (self, tag);
  return card ? sl_scalar_card_get_chart (SL_SCALAR_CARD (card)) : NULL;
}

/**
 * sl_scalars_page_toggle_tag_in_chart:
 * @tag: the tag a card was made for
 * @other_tag: (nullable): a tag to draw in that card too, or to stop
 *   drawing there if it already is; %NULL to draw @tag alone again
 *
 * As the card menu's Draw With Tag; kept across live updates.
 */
void
sl_scalars_page_toggle_tag_in_chart (SlScalarsPage *self,
                                     const char    *tag,
                                     const char    *other_tag)
{
  GtkWidget *card;

  g_return_if_fail (SL_IS_SCALARS_PAGE (self));
  g_return_if_fail (tag != NULL);

  if ((card = sl_scalars_page_get_card (self, tag)) != NULL)
    sl_scalar_card_toggle_tag (SL_SCALAR_CARD (card), other_tag);
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
  GtkWidget *card;

  g_return_if_fail (SL_IS_SCALARS_PAGE (self));
  g_return_if_fail (tag != NULL);

  if ((card = sl_scalars_page_get_card (self, tag)) != NULL)
    sl_scalar_card_set_threshold (SL_SCALAR_CARD (card), mode, value);
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

      if (g_strcmp0 (g_ptr_array_index (self->tensor_runs, i), run) == 0 &&
          g_strcmp0 (sl_tensor_view_get_tag (SL_TENSOR_VIEW (view)), tag) == 0)
        return view;
    }
  return NULL;
}
