/* sl-lineage-page.c
 *
 * The folder is read on a worker into an SlLineageTable, with each run's
 * dataset graph decoded; the notes kept for its runs come from the
 * workspace database. The page (sl-lineage-page.ui) is a toolbar over a
 * stack of views:
 *
 * - Table: the shared SlDataTable, a row a run that passes the filters,
 *   a column a chosen column of the table plus the note and tags
 *   (sl-lineage-columns.c); sortable by any column, exported as CSV;
 *   activating a row opens the run's Scalars.
 * - Parallel coordinates: an axis a shown column, lines coloured by the
 *   target; brushing an axis marks the runs inside every brush, and the
 *   table shows them marked. The table's selection is drawn thick.
 * - Importance: each numeric column's absolute Pearson and Spearman
 *   correlation with the target, over the runs that pass the filters
 *   (sl-lineage-views.c).
 * - Scatter: any column against the target.
 * - Datasets: the runs' dataset pipelines side by side, node by node, the
 *   parameters that differ between runs marked (sl-lineage-views.c).
 *
 * The runs' names and a run's Details are in sl-lineage-describe.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-dataset-graph-reader.h"
#include "sl-lineage-column-item.h"
#include "sl-lineage-columns.h"
#include "sl-lineage-importance-item.h"
#include "sl-lineage-describe.h"
#include "sl-lineage-page.h"
#include "sl-lineage-row.h"
#include "sl-page-switcher.h"
#include "sl-lineage-scatter.h"
#include "sl-lineage-views.h"

typedef struct {
  SlLineageTable *table;
  GPtrArray      *graphs;   /* SlDatasetGraph or NULL, one a run */
} Loaded;

struct _SlLineagePage
{
  SlDocument         parent_instance;

  char              *path;
  GCancellable      *cancellable;
  SlLineageTable    *table;
  GPtrArray         *graphs;
  GHashTable        *notes;          /* canonical run path → SlRunNoteRecord */
  GArray            *marked;         /* gboolean, one a run */
  GPtrArray         *run_labels;     /* char *, one a run: what tells it from the others */
  GArray            *shown;          /* gboolean, one a table column */
  gint               target;
  gint               scatter_x;
  gint               selected;
  gboolean           syncing;

  GtkStack          *outer;
  AdwStatusPage     *failed_page;
  GtkStack          *views;
  GtkStackSwitcher  *switcher;
  GListStore        *runs;           /* SlLineageRow, one a run */
  GtkFilter         *filter;
  SlDataTable       *data_table;
  GtkDropDown       *target_menu;
  GArray            *target_columns; /* guint: the numeric columns, as listed */
  GtkDropDown       *scatter_menu;
  GtkDropDown       *filter_menu;
  GtkEntry          *filter_low;
  GtkEntry          *filter_high;
  GtkEntry          *filter_values;
  GtkLabel          *status;
  GtkEntry          *note_entry;
  GtkEntry          *tags_entry;
  GtkNoSelection    *columns_selection;
  GListStore        *column_items;   /* SlLineageColumnItem, one a table column */
  GtkLabel          *importance_note;
  GtkLabel          *importance_empty;
  GtkWidget         *importance_view;
  GtkNoSelection    *importance_selection;
  GListStore        *importance_items; /* SlLineageImportanceItem */
  GtkLabel          *datasets_empty;
  GtkLabel          *datasets_intro;
  GtkGrid           *datasets_grid;
  GtkButton         *datasets_open;
  GtkWidget         *parallel;
  GtkWidget         *scatter;
  guint              n_importance_rows;
};

G_DEFINE_FINAL_TYPE (SlLineagePage, sl_lineage_page, SL_TYPE_DOCUMENT)

/* A run without a dataset graph has NULL in its place. */
static void
unref_graph (gpointer data)
{
  if (data != NULL)
    g_object_unref (data);
}

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_clear_object (&loaded->table);
  g_clear_pointer (&loaded->graphs, g_ptr_array_unref);
  g_free (loaded);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;
  Loaded *loaded = g_new0 (Loaded, 1);

  if (!(loaded->table = sl_lineage_table_load (task_data, cancellable, &error)))
    {
      loaded_free (loaded);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  loaded->graphs = g_ptr_array_new_with_free_func (unref_graph);
  for (guint r = 0; r < sl_lineage_table_get_n_runs (loaded->table); r++)
    {
      SlLineageRun *run = sl_lineage_table_get_run (loaded->table, r);
      GBytes *bytes = sl_lineage_run_get_dataset_graph (run);

      g_ptr_array_add (loaded->graphs,
                       bytes != NULL ? sl_dataset_graph_reader_decode_bytes (sl_lineage_run_get_dataset_graph_source (run), bytes)
                                     : NULL);
    }
  g_task_return_pointer (task, loaded, loaded_free);
}

static SlRunNoteRecord *
lookup_note (SlLineagePage *self,
             guint          run)
{
  g_autofree char *canonical = NULL;

  canonical = g_canonicalize_filename (sl_lineage_run_get_path (sl_lineage_table_get_run (self->table, run)), NULL);
  return g_hash_table_lookup (self->notes, canonical);
}

static char *
dup_tags_text (SlRunNoteRecord *note)
{
  return note != NULL ? g_strjoinv (", ", (GStrv) sl_run_note_record_get_tags (note)) : g_strdup ("");
}

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

/**
 * sl_lineage_page_get_run_label:
 *
 * Returns: (nullable): the name the table shows for run @run: its folder
 *   relative to the folder opened, as MindInsight shows it
 */
const char *
sl_lineage_page_get_run_label (SlLineagePage *self,
                               guint          run)
{
  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), NULL);

  if (self->run_labels == NULL || run >= self->run_labels->len)
    return NULL;
  return g_ptr_array_index (self->run_labels, run);
}

static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  SlLineagePage *self = user_data;

  return self->table != NULL && sl_lineage_table_run_passes (self->table, sl_lineage_row_get_run (item));
}

static SlLineageRow *
create_row (SlLineagePage *self,
            guint          run)
{
  SlRunNoteRecord *note = lookup_note (self, run);
  g_autofree char *tags = dup_tags_text (note);

  return sl_lineage_row_new (self->table, run, sl_lineage_page_get_run_label (self, run),
                             note != NULL ? sl_run_note_record_get_note (note) : NULL, tags,
                             sl_lineage_page_is_run_marked (self, run));
}

/* Rows do not change: new ones show marks and notes. */
static void
refresh_rows (SlLineagePage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->runs));
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  gint selected = self->selected;

  for (guint r = 0; self->table != NULL && r < sl_lineage_table_get_n_runs (self->table); r++)
    g_ptr_array_add (items, create_row (self, r));
  self->syncing = TRUE;
  g_list_store_splice (self->runs, 0, n, items->pdata, items->len);
  self->syncing = FALSE;
  sl_lineage_page_select_run (self, selected);
}

static void
update_status (SlLineagePage *self)
{
  guint n_filters = 0, n_marked = 0;
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *filters = NULL;
  g_autofree char *brushed = NULL;
  g_autofree char *n_shown = NULL;
  g_autofree char *n_runs = NULL;
  g_autofree char *n_brushed = NULL;

  for (guint c = 0; c < sl_lineage_table_get_n_columns (self->table); c++)
    n_filters += sl_lineage_table_has_filter (self->table, c);
  for (guint r = 0; r < self->marked->len; r++)
    n_marked += g_array_index (self->marked, gboolean, r);
  n_shown = sl_count_format (sl_lineage_page_get_n_shown (self));
  n_runs = sl_count_format (sl_lineage_table_get_n_runs (self->table));
  n_brushed = sl_count_format (n_marked);
  /* Translators: how many runs the table shows, of how many */
  shown = g_strdup_printf (_("%s of %s runs"), n_shown, n_runs);
  /* Translators: the number of active filters */
  filters = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u filter", "%u filters", n_filters), n_filters);
  /* Translators: runs inside every brush of the parallel coordinates */
  brushed = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s brushed", "%s brushed", n_marked), n_brushed);
  text = g_strdup_printf ("%s · %s · %s", shown, filters, brushed);
  gtk_label_set_text (self->status, text);
}

/* ------------------------------------------------------------------ */
/* Charts                                                              */
/* ------------------------------------------------------------------ */

static GArray *
dup_shown_columns (SlLineagePage *self)
{
  GArray *axes = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint c = 0; c < self->shown->len; c++)
    if (g_array_index (self->shown, gboolean, c))
      g_array_append_val (axes, c);
  return axes;
}

/* The parameters' correlations with the target; a warning when too few
 * runs share values to say, a line when there is nothing to rank. */
static void
update_importance (SlLineagePage *self)
{
  guint fewest;

  self->n_importance_rows = sl_lineage_fill_importance (self->importance_items, self->table, self->target, &fewest);
  if (fewest < SL_LINEAGE_MIN_RUNS_FOR_IMPORTANCE)
    {
      g_autofree char *text =
        g_strdup_printf (_("Too few runs to say: some columns share a value with the target in only %u runs, and a correlation means little below %u."),
                         fewest, SL_LINEAGE_MIN_RUNS_FOR_IMPORTANCE);

      gtk_label_set_label (self->importance_note, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->importance_note), fewest < SL_LINEAGE_MIN_RUNS_FOR_IMPORTANCE);
  gtk_label_set_label (self->importance_empty, self->target < 0 ? _("No column of numbers to rank the others by.")
                                                                : _("No other column of numbers shares runs with the target."));
  gtk_widget_set_visible (GTK_WIDGET (self->importance_empty), self->n_importance_rows == 0);
  gtk_widget_set_visible (self->importance_view, self->n_importance_rows > 0);
}

static void
update_charts (SlLineagePage *self)
{
  g_autoptr(GArray) axes = dup_shown_columns (self);

  sl_parallel_coordinates_set_table (SL_PARALLEL_COORDINATES (self->parallel), self->table, axes, self->target);
  sl_lineage_scatter_set_columns (SL_LINEAGE_SCATTER (self->scatter), self->table, self->scatter_x, self->target);
  update_importance (self);
}

static void
brush_changed_cb (SlParallelCoordinates *parallel,
                  SlLineagePage         *self)
{
  if (self->table == NULL)
    return;
  g_array_set_size (self->marked, sl_lineage_table_get_n_runs (self->table));
  for (guint r = 0; r < self->marked->len; r++)
    g_array_index (self->marked, gboolean, r) = sl_parallel_coordinates_is_brushed (parallel, r);
  sl_lineage_scatter_set_marked (SL_LINEAGE_SCATTER (self->scatter), self->marked);
  refresh_rows (self);
  update_status (self);
}

static void
target_selected_cb (GtkDropDown   *menu,
                    GParamSpec    *pspec,
                    SlLineagePage *self)
{
  guint position = gtk_drop_down_get_selected (menu);

  if (self->syncing || position == GTK_INVALID_LIST_POSITION || position >= self->target_columns->len)
    return;
  self->target = g_array_index (self->target_columns, guint, position);
  update_charts (self);
}

static void
scatter_selected_cb (GtkDropDown   *menu,
                     GParamSpec    *pspec,
                     SlLineagePage *self)
{
  guint position = gtk_drop_down_get_selected (menu);

  if (self->syncing || position == GTK_INVALID_LIST_POSITION || self->table == NULL)
    return;
  self->scatter_x = position;
  sl_lineage_scatter_set_columns (SL_LINEAGE_SCATTER (self->scatter), self->table, self->scatter_x, self->target);
}

/* ------------------------------------------------------------------ */
/* Columns and filters                                                 */
/* ------------------------------------------------------------------ */

/* A check of the column chooser (sl-lineage-column-row.ui) */
static void
column_check_toggled_cb (GtkCheckButton *button,
                         GtkListItem    *list_item)
{
  SlLineageColumnItem *item = gtk_list_item_get_item (list_item);

  if (item != NULL)
    sl_lineage_column_item_set_shown (item, gtk_check_button_get_active (button));
}

/* The space above a group's heading, but the first's. */
static int
heading_margin (gpointer this_object,
                gboolean first)
{
  return first ? 0 : 8;
}

static void
column_item_shown_cb (SlLineageColumnItem *item,
                      GParamSpec          *pspec,
                      SlLineagePage       *self)
{
  guint column = sl_lineage_column_item_get_column (item);

  if (!self->syncing && self->shown != NULL && column < self->shown->len &&
      g_array_index (self->shown, gboolean, column) != sl_lineage_column_item_get_shown (item))
    sl_lineage_page_set_column_shown (self, column, sl_lineage_column_item_get_shown (item));
}

/* Paths are long and alike: hidden until asked for. */
static gboolean
shown_by_default (const SlLineageColumn *column)
{
  return !g_str_has_suffix (column->key, "path");
}

static void
fill_column_chooser (SlLineagePage *self)
{
  SlLineageGroup group = SL_LINEAGE_N_GROUPS;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint c = 0; c < sl_lineage_table_get_n_columns (self->table); c++)
    {
      const SlLineageColumn *column = sl_lineage_table_get_column (self->table, c);
      const char *heading = column->group != group ? sl_lineage_group_to_label (group = column->group) : NULL;
      SlLineageColumnItem *item = sl_lineage_column_item_new (c, column->key, heading,
                                                              g_array_index (self->shown, gboolean, c));

      g_signal_connect_object (item, "notify::shown", G_CALLBACK (column_item_shown_cb), self, 0);
      g_ptr_array_add (items, item);
    }
  g_list_store_splice (self->column_items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->column_items)),
                       items->pdata, items->len);
}

static void
filter_column_selected_cb (GtkDropDown   *menu,
                           GParamSpec    *pspec,
                           SlLineagePage *self)
{
  guint position = gtk_drop_down_get_selected (menu);
  const SlLineageColumn *column;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double low, high;

  if (self->table == NULL || position == GTK_INVALID_LIST_POSITION ||
      position >= sl_lineage_table_get_n_columns (self->table))
    return;
  column = sl_lineage_table_get_column (self->table, position);
  gtk_widget_set_visible (GTK_WIDGET (self->filter_low), column->type == SL_LINEAGE_COLUMN_NUMERIC);
  gtk_widget_set_visible (GTK_WIDGET (self->filter_high), column->type == SL_LINEAGE_COLUMN_NUMERIC);
  gtk_widget_set_visible (GTK_WIDGET (self->filter_values), column->type == SL_LINEAGE_COLUMN_CATEGORICAL);
  if (column->type == SL_LINEAGE_COLUMN_NUMERIC)
    {
      if (!sl_lineage_table_get_range_filter (self->table, position, &low, &high))
        {
          low = column->min;
          high = column->max;
        }
      gtk_editable_set_text (GTK_EDITABLE (self->filter_low), sl_lineage_format_number (low, buf, sizeof buf));
      gtk_editable_set_text (GTK_EDITABLE (self->filter_high), sl_lineage_format_number (high, buf, sizeof buf));
    }
  else
    {
      g_autofree char *all = NULL;

      g_ptr_array_add (column->categories, NULL);
      all = g_strjoinv (", ", (GStrv) column->categories->pdata);
      g_ptr_array_set_size (column->categories, column->categories->len - 1);
      gtk_editable_set_text (GTK_EDITABLE (self->filter_values), all);
    }
}

static void
apply_filter_cb (GtkButton     *button,
                 SlLineagePage *self)
{
  guint position = gtk_drop_down_get_selected (self->filter_menu);
  const SlLineageColumn *column;
  double low, high;

  if (self->table == NULL || position >= sl_lineage_table_get_n_columns (self->table))
    return;
  column = sl_lineage_table_get_column (self->table, position);
  if (column->type == SL_LINEAGE_COLUMN_NUMERIC)
    {
      if (!sl_lineage_parse_number (gtk_editable_get_text (GTK_EDITABLE (self->filter_low)), &low) ||
          !sl_lineage_parse_number (gtk_editable_get_text (GTK_EDITABLE (self->filter_high)), &high))
        {
          gtk_widget_add_css_class (GTK_WIDGET (self->filter_low), "error");
          return;
        }
      gtk_widget_remove_css_class (GTK_WIDGET (self->filter_low), "error");
      sl_lineage_table_set_range_filter (self->table, position, low, high);
    }
  else
    {
      g_auto(GStrv) values = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (self->filter_values)), ",", -1);

      for (guint i = 0; values[i] != NULL; i++)
        g_strstrip (values[i]);
      sl_lineage_table_set_value_filter (self->table, position, (const char * const *) values);
    }
  sl_lineage_page_filters_changed (self);
}

static void
clear_filter_cb (GtkButton     *button,
                 SlLineagePage *self)
{
  guint position = gtk_drop_down_get_selected (self->filter_menu);

  if (self->table == NULL || position >= sl_lineage_table_get_n_columns (self->table))
    return;
  sl_lineage_table_clear_filter (self->table, position);
  sl_lineage_page_filters_changed (self);
}

static void
clear_all_cb (GtkButton     *button,
              SlLineagePage *self)
{
  if (self->table == NULL)
    return;
  sl_lineage_table_clear_filters (self->table);
  sl_parallel_coordinates_clear_brushes (SL_PARALLEL_COORDINATES (self->parallel));
  sl_lineage_page_filters_changed (self);
}

/* ------------------------------------------------------------------ */
/* Selection, notes and opening runs                                   */
/* ------------------------------------------------------------------ */

static void
selection_changed_cb (SlLineagePage *self)
{
  g_autoptr(SlLineageRow) run = sl_data_table_dup_selected (self->data_table);
  SlRunNoteRecord *note;
  g_autofree char *tags = NULL;

  if (self->syncing)
    return;
  self->selected = run != NULL ? (gint) sl_lineage_row_get_run (run) : -1;
  sl_parallel_coordinates_set_selected (SL_PARALLEL_COORDINATES (self->parallel), self->selected);
  sl_lineage_scatter_set_selected (SL_LINEAGE_SCATTER (self->scatter), self->selected);
  note = self->selected >= 0 ? lookup_note (self, self->selected) : NULL;
  tags = dup_tags_text (note);
  gtk_editable_set_text (GTK_EDITABLE (self->note_entry), note != NULL ? sl_run_note_record_get_note (note) : "");
  gtk_editable_set_text (GTK_EDITABLE (self->tags_entry), tags);
  gtk_widget_set_sensitive (GTK_WIDGET (self->note_entry), run != NULL);
  sl_document_details_changed (SL_DOCUMENT (self));
}

static gpointer
save_note_func (SlWorkspaceStore  *store,
                gpointer           data,
                GCancellable      *cancellable,
                GError           **error)
{
  return sl_workspace_store_set_run_note (store, data, error) ? g_object_ref (data) : NULL;
}

static void
save_note_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SlLineagePage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlRunNoteRecord) saved = sl_workspace_run_finish (SL_WORKSPACE (source), result, &error);

  if (saved == NULL && error != NULL)
    g_warning ("%s", error->message);
}

static void
note_activated_cb (GtkEntry      *entry,
                   SlLineagePage *self)
{
  sl_lineage_page_set_note (self, gtk_editable_get_text (GTK_EDITABLE (self->note_entry)),
                            gtk_editable_get_text (GTK_EDITABLE (self->tags_entry)));
}

static void
open_run (SlLineagePage *self,
          guint          run)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-document", "(ssv)", "scalars",
                              sl_lineage_run_get_path (sl_lineage_table_get_run (self->table, run)),
                              g_variant_new ("()"));
}

static void
row_activated_cb (SlLineagePage *self,
                  guint          position)
{
  g_autoptr(SlLineageRow) run = g_list_model_get_item (sl_data_table_get_rows (self->data_table), position);

  if (run != NULL)
    open_run (self, sl_lineage_row_get_run (run));
}

static void
open_scalars_cb (GtkButton     *button,
                 SlLineagePage *self)
{
  sl_lineage_page_open_selected_run (self);
}

static gpointer
list_notes_func (SlWorkspaceStore  *store,
                 gpointer           data,
                 GCancellable      *cancellable,
                 GError           **error)
{
  return sl_workspace_store_list_run_notes (store, data, error);
}

static void
list_notes_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(SlLineagePage) self = user_data;
  g_autoptr(GPtrArray) notes = sl_workspace_run_finish (SL_WORKSPACE (source), result, NULL);

  if (self->notes == NULL)
    return;
  for (guint i = 0; notes != NULL && i < notes->len; i++)
    {
      SlRunNoteRecord *note = g_ptr_array_index (notes, i);

      g_hash_table_replace (self->notes, g_strdup (sl_run_note_record_get_path (note)), g_object_ref (note));
    }
  if (notes != NULL && notes->len > 0 && self->table != NULL)
    refresh_rows (self);
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */
/* ------------------------------------------------------------------ */

static void
fill_menus (SlLineagePage *self)
{
  g_autoptr(GtkStringList) targets = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) columns = gtk_string_list_new (NULL);
  gint preferred = -1;

  g_array_set_size (self->target_columns, 0);
  for (guint c = 0; c < sl_lineage_table_get_n_columns (self->table); c++)
    {
      const SlLineageColumn *column = sl_lineage_table_get_column (self->table, c);

      gtk_string_list_append (columns, column->id);
      if (column->type != SL_LINEAGE_COLUMN_NUMERIC)
        continue;
      /* The first metric that is not a loss is the likely target: the
       * train loss comes first in the table. */
      if (preferred < 0 && column->group == SL_LINEAGE_GROUP_METRICS &&
          g_ascii_strcasecmp (column->key, "loss") != 0)
        preferred = self->target_columns->len;
      g_array_append_val (self->target_columns, c);
      gtk_string_list_append (targets, column->id);
    }

  self->syncing = TRUE;
  gtk_drop_down_set_model (self->target_menu, G_LIST_MODEL (targets));
  gtk_drop_down_set_model (self->scatter_menu, G_LIST_MODEL (columns));
  gtk_drop_down_set_model (self->filter_menu, G_LIST_MODEL (columns));
  for (guint i = 0; preferred < 0 && i < self->target_columns->len; i++)
    if (sl_lineage_table_get_column (self->table, g_array_index (self->target_columns, guint, i))->group == SL_LINEAGE_GROUP_METRICS)
      preferred = i;
  if (preferred < 0 && self->target_columns->len > 0)
    preferred = self->target_columns->len - 1;
  self->target = preferred >= 0 ? (gint) g_array_index (self->target_columns, guint, preferred) : -1;
  if (preferred >= 0)
    gtk_drop_down_set_selected (self->target_menu, preferred);
  /* Against the target, the first hyperparameter of numbers. */
  self->scatter_x = self->target_columns->len > 0 ? (gint) g_array_index (self->target_columns, guint, 0) : 0;
  gtk_drop_down_set_selected (self->scatter_menu, self->scatter_x);
  self->syncing = FALSE;
  filter_column_selected_cb (self->filter_menu, NULL, self);
}

static void
fill_table (SlLineagePage *self)
{
  g_array_set_size (self->shown, sl_lineage_table_get_n_columns (self->table));
  g_array_set_size (self->marked, sl_lineage_table_get_n_runs (self->table));
  g_clear_pointer (&self->run_labels, g_ptr_array_unref);
  self->run_labels = sl_lineage_dup_run_labels (self->table, self->path);
  sl_lineage_columns_append (self->data_table, self->table);
  for (guint c = 0; c < sl_lineage_table_get_n_columns (self->table); c++)
    {
      const SlLineageColumn *info = sl_lineage_table_get_column (self->table, c);

      g_array_index (self->shown, gboolean, c) = shown_by_default (info);
      gtk_column_view_column_set_visible (sl_data_table_get_column (self->data_table, info->id),
                                          g_array_index (self->shown, gboolean, c));
    }
  refresh_rows (self);
}

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlLineagePage) self = user_data;
  g_autoptr(GError) error = NULL;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), &error);
  SlWorkspace *workspace = sl_document_get_workspace (SL_DOCUMENT (self));
  GPtrArray *problems;

  panel_widget_unmark_busy (PANEL_WIDGET (self));
  if (loaded == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      adw_status_page_set_description (self->failed_page, error->message);
      gtk_stack_set_visible_child_name (self->outer, "failed");
      sl_document_fail (SL_DOCUMENT (self), error->message);
      return;
    }

  self->table = g_steal_pointer (&loaded->table);
  self->graphs = g_steal_pointer (&loaded->graphs);
  loaded_free (loaded);
  problems = sl_lineage_table_get_problems (self->table);
  for (guint i = 0; i < problems->len; i++)
    sl_document_add_problem (SL_DOCUMENT (self), g_ptr_array_index (problems, i));

  if (sl_lineage_table_get_n_runs (self->table) == 0)
    {
      gtk_stack_set_visible_child_name (self->outer, "empty");
      sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_EMPTY);
      return;
    }

  fill_table (self);
  fill_menus (self);
  fill_column_chooser (self);
  {
    gboolean any = sl_lineage_fill_datasets (self->datasets_grid, self->table, self->graphs);

    gtk_widget_set_visible (GTK_WIDGET (self->datasets_empty), !any);
    gtk_widget_set_visible (GTK_WIDGET (self->datasets_intro), any);
    gtk_widget_set_visible (GTK_WIDGET (self->datasets_grid), any);
    gtk_widget_set_visible (GTK_WIDGET (self->datasets_open), any);
    /* The action takes a target: name it only once the target is set,
     * or GTK warns of a parameter type mismatch for the bare name. */
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->datasets_open),
                                            g_variant_new ("(ssv)", "dataset-graph", self->path, g_variant_new ("()")));
    gtk_actionable_set_action_name (GTK_ACTIONABLE (self->datasets_open), "win.open-document");
  }
  update_charts (self);
  update_status (self);
  gtk_stack_set_visible_child_name (self->outer, "lineage");
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);

  if (workspace != NULL && sl_workspace_has_store (workspace))
    sl_workspace_run_async (workspace, list_notes_func, g_strdup (self->path), g_free,
                            (GDestroyNotify) g_ptr_array_unref, self->cancellable, list_notes_cb, g_object_ref (self));
}

static void
sl_lineage_page_load (SlDocument *document)
{
  SlLineagePage *self = SL_LINEAGE_PAGE (document);
  g_autoptr(GTask) task = NULL;

  if (self->path != NULL || sl_document_get_path (document) == NULL)
    return;
  self->path = g_strdup (sl_document_get_path (document));
  panel_widget_mark_busy (PANEL_WIDGET (self));
  task = g_task_new (NULL, self->cancellable, load_cb, g_object_ref (self));
  g_task_set_task_data (task, g_strdup (self->path), g_free);
  g_task_run_in_thread (task, load_thread);
}

static gboolean
sl_lineage_page_show_details (SlDocument    *document,
                              SlDescription *details)
{
  SlLineagePage *self = SL_LINEAGE_PAGE (document);

  if (self->table == NULL || self->selected < 0)
    return FALSE;
  sl_lineage_describe_run (self->table, self->selected, details);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Building                                                            */
/* ------------------------------------------------------------------ */

/* The table's rows and filter; its columns come with the table. */
static void
setup_table (SlLineagePage *self)
{
  self->runs = g_list_store_new (SL_TYPE_LINEAGE_ROW);
  self->filter = GTK_FILTER (gtk_custom_filter_new (filter_cb, self, NULL));
  sl_data_table_set_model (self->data_table, G_LIST_MODEL (self->runs));
  sl_data_table_set_extra_filter (self->data_table, self->filter);
  sl_data_table_set_export_title (self->data_table, _("Export Runs"), "lineage-runs.csv");
  g_signal_connect_object (gtk_column_view_get_model (sl_data_table_get_column_view (self->data_table)),
                           "notify::selected", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
}

static void
sl_lineage_page_dispose (GObject *object)
{
  SlLineagePage *self = SL_LINEAGE_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  /* The rows and charts read the table: let them go first. */
  if (self->data_table != NULL)
    sl_data_table_set_model (self->data_table, NULL);
  /* The template's child is the panel's: hand it back before the
   * template lets go of it, or PanelWidget unparents it a second time. */
  panel_widget_set_child (PANEL_WIDGET (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_LINEAGE_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->table);
  g_clear_pointer (&self->graphs, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_hash_table_unref);
  g_clear_pointer (&self->marked, g_array_unref);
  g_clear_pointer (&self->run_labels, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_array_unref);
  g_clear_object (&self->column_items);
  g_clear_object (&self->importance_items);
  g_clear_pointer (&self->target_columns, g_array_unref);
  g_clear_object (&self->runs);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_lineage_page_parent_class)->dispose (object);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  sl_data_table_choose_csv_file (SL_LINEAGE_PAGE (widget)->data_table);
}

static void
sl_lineage_page_class_init (SlLineagePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sl_lineage_page_dispose;
  SL_DOCUMENT_CLASS (klass)->load = sl_lineage_page_load;
  SL_DOCUMENT_CLASS (klass)->describe = sl_lineage_page_show_details;

  g_type_ensure (SL_TYPE_DATA_TABLE);
  g_type_ensure (SL_TYPE_LINEAGE_COLUMN_ITEM);
  g_type_ensure (SL_TYPE_LINEAGE_IMPORTANCE_ITEM);
  g_type_ensure (SL_TYPE_LINEAGE_SCATTER);
  g_type_ensure (SL_TYPE_PARALLEL_COORDINATES);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-lineage-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, outer);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, views);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, switcher);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, data_table);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, target_menu);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, scatter_menu);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, filter_menu);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, filter_low);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, filter_high);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, filter_values);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, status);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, note_entry);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, tags_entry);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, columns_selection);
  gtk_widget_class_bind_template_callback (widget_class, column_check_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, heading_margin);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, importance_note);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, importance_empty);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, importance_view);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, importance_selection);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, datasets_empty);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, datasets_intro);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, datasets_grid);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, datasets_open);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, parallel);
  gtk_widget_class_bind_template_child (widget_class, SlLineagePage, scatter);
  gtk_widget_class_bind_template_callback (widget_class, filter_column_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, apply_filter_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_filter_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_all_cb);
  gtk_widget_class_bind_template_callback (widget_class, target_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_scalars_cb);
  gtk_widget_class_bind_template_callback (widget_class, note_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, brush_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, scatter_selected_cb);
  gtk_widget_class_install_action (widget_class, "lineage.export-csv", NULL, export_csv_action);
}

static void
sl_lineage_page_init (SlLineagePage *self)
{
  self->cancellable = g_cancellable_new ();
  self->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->marked = g_array_new (FALSE, TRUE, sizeof (gboolean));
  self->shown = g_array_new (FALSE, TRUE, sizeof (gboolean));
  self->target_columns = g_array_new (FALSE, FALSE, sizeof (guint));
  self->target = -1;
  self->selected = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->column_items = g_list_store_new (SL_TYPE_LINEAGE_COLUMN_ITEM);
  self->importance_items = g_list_store_new (SL_TYPE_LINEAGE_IMPORTANCE_ITEM);
  gtk_no_selection_set_model (self->importance_selection, G_LIST_MODEL (self->importance_items));
  gtk_no_selection_set_model (self->columns_selection, G_LIST_MODEL (self->column_items));
  {
    g_autoptr(GtkSelectionModel) pages = gtk_stack_get_pages (self->views);

    sl_page_switcher_squeeze (GTK_WIDGET (self->switcher), pages, GTK_TYPE_STACK_PAGE);
  }
  setup_table (self);
}

/* ------------------------------------------------------------------ */
/* Public                                                              */
/* ------------------------------------------------------------------ */

/* Returns: (transfer none) (nullable): the table, once loaded */
SlLineageTable *
sl_lineage_page_get_table (SlLineagePage *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), NULL);
  return self->table;
}

SlParallelCoordinates *
sl_lineage_page_get_parallel (SlLineagePage *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), NULL);
  return SL_PARALLEL_COORDINATES (self->parallel);
}

/* Returns: (transfer none): the table of runs */
SlDataTable *
sl_lineage_page_get_data_table (SlLineagePage *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), NULL);
  return self->data_table;
}

guint
sl_lineage_page_get_n_shown (SlLineagePage *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), 0);
  return g_list_model_get_n_items (sl_data_table_get_rows (self->data_table));
}

/* Selects @run (an index into the table) in the table, or nothing (-1). */
void
sl_lineage_page_select_run (SlLineagePage *self,
                            gint           run)
{
  GListModel *rows;
  guint n;

  g_return_if_fail (SL_IS_LINEAGE_PAGE (self));

  rows = sl_data_table_get_rows (self->data_table);
  n = g_list_model_get_n_items (rows);
  for (guint i = 0; i < n && run >= 0; i++)
    {
      g_autoptr(SlLineageRow) item = g_list_model_get_item (rows, i);

      if ((gint) sl_lineage_row_get_run (item) == run)
        {
          sl_data_table_select (self->data_table, i);
          selection_changed_cb (self);
          return;
        }
    }
  sl_data_table_select (self->data_table, GTK_INVALID_LIST_POSITION);
  selection_changed_cb (self);
}

gint
sl_lineage_page_get_selected_run (SlLineagePage *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), -1);
  return self->selected;
}

void
sl_lineage_page_set_target (SlLineagePage *self,
                            guint          column)
{
  guint position;

  g_return_if_fail (SL_IS_LINEAGE_PAGE (self));

  for (position = 0; position < self->target_columns->len; position++)
    if (g_array_index (self->target_columns, guint, position) == column)
      break;
  g_return_if_fail (position < self->target_columns->len);
  gtk_drop_down_set_selected (self->target_menu, position);
}

void
sl_lineage_page_set_column_shown (SlLineagePage *self,
                                  guint          column,
                                  gboolean       shown)
{
  g_return_if_fail (SL_IS_LINEAGE_PAGE (self));
  g_return_if_fail (column < self->shown->len);

  g_array_index (self->shown, gboolean, column) = shown;
  if (column < g_list_model_get_n_items (G_LIST_MODEL (self->column_items)))
    {
      g_autoptr(SlLineageColumnItem) item = g_list_model_get_item (G_LIST_MODEL (self->column_items), column);

      sl_lineage_column_item_set_shown (item, shown);
    }
  gtk_column_view_column_set_visible (sl_data_table_get_column (self->data_table,
                                                                sl_lineage_table_get_column (self->table, column)->id),
                                      shown);
  update_charts (self);
}

void
sl_lineage_page_sort_by (SlLineagePage *self,
                         guint          column,
                         gboolean       descending)
{
  g_return_if_fail (SL_IS_LINEAGE_PAGE (self));
  g_return_if_fail (self->table != NULL && column < sl_lineage_table_get_n_columns (self->table));

  sl_data_table_sort_by (self->data_table, sl_lineage_table_get_column (self->table, column)->id,
                         descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

void
sl_lineage_page_filters_changed (SlLineagePage *self)
{
  g_return_if_fail (SL_IS_LINEAGE_PAGE (self));

  gtk_filter_changed (self->filter, GTK_FILTER_CHANGE_DIFFERENT);
  sl_parallel_coordinates_refresh (SL_PARALLEL_COORDINATES (self->parallel));
  gtk_widget_queue_draw (self->scatter);
  update_importance (self);
  update_status (self);
}

void
sl_lineage_page_set_note (SlLineagePage *self,
                          const char    *note,
                          const char    *tags)
{
  g_auto(GStrv) tag_list = NULL;
  g_autoptr(SlRunNoteRecord) record = NULL;
  g_autofree char *canonical = NULL;
  SlWorkspace *workspace;

  g_return_if_fail (SL_IS_LINEAGE_PAGE (self));

  if (self->table == NULL || self->selected < 0)
    return;
  canonical = g_canonicalize_filename (sl_lineage_run_get_path (sl_lineage_table_get_run (self->table, self->selected)), NULL);
  tag_list = g_strsplit (tags != NULL ? tags : "", ",", -1);
  record = sl_run_note_record_new (canonical, note, (const char * const *) tag_list, g_get_real_time ());
  g_hash_table_replace (self->notes, g_strdup (canonical), g_object_ref (record));

  workspace = sl_document_get_workspace (SL_DOCUMENT (self));
  if (workspace != NULL && sl_workspace_has_store (workspace))
    sl_workspace_run_async (workspace, save_note_func, g_object_ref (record), g_object_unref, g_object_unref,
                            self->cancellable, save_note_cb, g_object_ref (self));
  refresh_rows (self);
}

/* Returns: (nullable): the note kept for @run */
const char *
sl_lineage_page_get_note (SlLineagePage *self,
                          guint          run)
{
  SlRunNoteRecord *note;

  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), NULL);
  g_return_val_if_fail (self->table != NULL && run < sl_lineage_table_get_n_runs (self->table), NULL);

  note = lookup_note (self, run);
  return note != NULL ? sl_run_note_record_get_note (note) : NULL;
}

void
sl_lineage_page_show_view (SlLineagePage *self,
                           const char    *name)
{
  g_return_if_fail (SL_IS_LINEAGE_PAGE (self));
  gtk_stack_set_visible_child_name (self->views, name);
}

guint
sl_lineage_page_get_n_importance_rows (SlLineagePage *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), 0);
  return self->n_importance_rows;
}

/* Returns: whether @run lies inside every brush of the parallel coordinates */
gboolean
sl_lineage_page_is_run_marked (SlLineagePage *self,
                               guint          run)
{
  g_return_val_if_fail (SL_IS_LINEAGE_PAGE (self), FALSE);
  return run < self->marked->len && g_array_index (self->marked, gboolean, run);
}

/* Opens the Scalars of the selected run. */
void
sl_lineage_page_open_selected_run (SlLineagePage *self)
{
  g_return_if_fail (SL_IS_LINEAGE_PAGE (self));

  if (self->table != NULL && self->selected >= 0)
    open_run (self, self->selected);
}
