/* sl-api-stats-view.c
 *
 * The whole run's rows are the rank's API table as read. A step's rows are
 * summed from the rank's calls (only the SQLite export keeps them) in a
 * worker: an export can hold millions of calls. Shares are worked out
 * here rather than stored, as they depend on the level and step chosen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "sl-column-factory.h"
#include "sl-api-levels.h"
#include "sl-api-stats-view.h"
#include "sl-time-format.h"

typedef enum {
  COLUMN_TEXT,
  COLUMN_COUNT,
  COLUMN_TIME,
  COLUMN_LEVEL_SHARE,
  COLUMN_STEP_SHARE,
} ColumnKind;

typedef struct {
  const char *id;
  const char *title;
  ColumnKind  kind;
  gint64    (*number) (SlOpRow *row);
} ApiColumn;

static gint64 row_count (SlOpRow *row) { return (gint64)MIN (sl_op_row_get_count (row), (guint64)G_MAXINT64); }

static const ApiColumn columns[] = {
  { "level", N_("Level"), COLUMN_TEXT, NULL },
  { "name", N_("Name"), COLUMN_TEXT, NULL },
  { "count", N_("Count"), COLUMN_COUNT, row_count },
  { "total", N_("Total"), COLUMN_TIME, sl_op_row_get_total_ns },
  { "average", N_("Average"), COLUMN_TIME, sl_op_row_get_avg_ns },
  { "min", N_("Min"), COLUMN_TIME, sl_op_row_get_min_ns },
  { "max", N_("Max"), COLUMN_TIME, sl_op_row_get_max_ns },
  /* Translators: a column: the API's share of its level's total time */
  { "level-share", N_("Of Level"), COLUMN_LEVEL_SHARE, NULL },
  /* Translators: a column: the API's time as a share of the step's time */
  { "step-share", N_("Of Step"), COLUMN_STEP_SHARE, NULL },
};

struct _SlApiStatsView
{
  GtkBox              parent_instance;

  SlOpTable          *all;          /* the rank's table */
  SlOpTable          *shown_table;  /* all, or the chosen step's */
  SlApiCalls         *calls;        /* nullable */
  SlStepTrace        *steps;        /* nullable */
  char               *dir;
  char               *empty_text;
  GPtrArray          *levels;       /* SlApiLevel of shown_table */
  GPtrArray          *level_ids;    /* char *, the dropdown's entries after "All Levels" */
  char               *level;        /* nullable filter */
  char               *filter_text;  /* casefolded */
  char               *levels_text;
  guint               step;
  gint64              step_ns;      /* -1 unknown */
  GCancellable       *cancellable;
  GtkFilterListModel *filtered;
  GtkSortListModel   *sorted;
  GtkCustomFilter    *filter;
  GtkSingleSelection *selection;
  GSettings          *settings;
  SlTimeUnit          unit;
  GPtrArray          *shown;        /* const ApiColumn * */

  GtkDropDown        *level_dropdown;
  GtkDropDown        *step_dropdown;
  GtkSearchEntry     *filter_entry;
  GtkLabel           *count_label;
  GtkLabel           *levels_label;
  GtkWidget          *toolbar;
  GtkColumnView      *column_view;
  GtkStack           *content_stack;
  AdwStatusPage      *empty_page;
};

G_DEFINE_FINAL_TYPE (SlApiStatsView, sl_api_stats_view, GTK_TYPE_BOX)

enum {
  SHOW_CALLS,
  API_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  SlApiStatsView  *view;
  const ApiColumn *column;
} ColumnRef;

static const SlStep *
chosen_step (SlApiStatsView *self)
{
  if (self->steps == NULL || self->step == SL_API_STATS_ALL_STEPS || self->step >= sl_step_trace_get_n_steps (self->steps))
    return NULL;
  return sl_step_trace_get_step (self->steps, self->step);
}

static gint64
step_duration (const SlStep *step)
{
  if (step->total_ns != SL_STEP_NO_TIME && step->total_ns > 0)
    return step->total_ns;
  if (step->start_ns != SL_STEP_NO_TIME && step->end_ns != SL_STEP_NO_TIME && step->end_ns > step->start_ns)
    return step->end_ns - step->start_ns;
  return -1;
}

/* The time the shares of a step are of: the chosen step's, or every
 * step's together for the whole run. */
static gint64
compute_step_ns (SlApiStatsView *self)
{
  const SlStep *step = chosen_step (self);
  gint64 sum = 0;

  if (step != NULL)
    return step_duration (step);
  if (self->steps == NULL || sl_step_trace_get_n_steps (self->steps) == 0)
    return -1;
  for (guint i = 0; i < sl_step_trace_get_n_steps (self->steps); i++)
    {
      gint64 ns = step_duration (sl_step_trace_get_step (self->steps, i));

      if (ns < 0)
        return -1;
      sum += ns;
    }
  return sum;
}

double
sl_api_stats_view_get_level_share (SlApiStatsView *self,
                                   SlOpRow        *row)
{
  const SlApiLevel *level;

  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), -1);
  g_return_val_if_fail (SL_IS_OP_ROW (row), -1);

  level = self->levels ? sl_api_levels_find (self->levels, sl_op_row_get_core_type (row) ? sl_op_row_get_core_type (row) : "")
                       : NULL;
  if (level == NULL || level->total_ns <= 0)
    return -1;
  return 100.0 * MAX (sl_op_row_get_total_ns (row), 0) / level->total_ns;
}

double
sl_api_stats_view_get_step_share (SlApiStatsView *self,
                                  SlOpRow        *row)
{
  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), -1);
  g_return_val_if_fail (SL_IS_OP_ROW (row), -1);

  if (self->step_ns <= 0)
    return -1;
  return 100.0 * MAX (sl_op_row_get_total_ns (row), 0) / self->step_ns;
}

static double
share_of (SlApiStatsView  *self,
          const ApiColumn *column,
          SlOpRow         *row)
{
  return column->kind == COLUMN_LEVEL_SHARE ? sl_api_stats_view_get_level_share (self, row)
                                            : sl_api_stats_view_get_step_share (self, row);
}

static const char *
row_level (SlOpRow *row)
{
  return sl_op_row_get_core_type (row) != NULL ? sl_op_row_get_core_type (row) : "";
}

static char *
format_cell (SlApiStatsView  *self,
             const ApiColumn *column,
             SlOpRow         *row)
{
  gint64 value;
  double share;

  switch (column->kind)
    {
    case COLUMN_TEXT:
      return g_strdup (g_str_equal (column->id, "level") ? sl_api_level_label (row_level (row))
                                                         : sl_op_row_get_op_type (row));
    case COLUMN_LEVEL_SHARE:
    case COLUMN_STEP_SHARE:
      share = share_of (self, column, row);
      return share < 0 ? g_strdup ("—") : g_strdup_printf ("%.2f%%", share);
    case COLUMN_COUNT:
      return g_strdup_printf ("%lld", (long long)column->number (row));
    case COLUMN_TIME:
    default:
      value = column->number (row);
      return value < 0 ? g_strdup ("—") : sl_time_format_ns (value, self->unit);
    }
}

static const ApiColumn *
column_by_id (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      if (g_str_equal (columns[i].id, id))
        return &columns[i];
    }
  return NULL;
}

/**
 * sl_api_stats_view_dup_cell:
 * @column_id: "level", "name", "count", "total", ..., "step-share"
 *
 * Returns: (transfer full) (nullable): what the cell shows
 */
char *
sl_api_stats_view_dup_cell (SlApiStatsView *self,
                            SlOpRow        *row,
                            const char     *column_id)
{
  const ApiColumn *column;

  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), NULL);
  g_return_val_if_fail (SL_IS_OP_ROW (row), NULL);

  column = column_by_id (column_id);
  return column != NULL ? format_cell (self, column, row) : NULL;
}

/**
 * sl_api_stats_view_dup_tooltip:
 *
 * Returns: (transfer full): the API's full name and level, its figures
 *   and shares, and where it was read
 */
char *
sl_api_stats_view_dup_tooltip (SlApiStatsView *self,
                               SlOpRow        *row)
{
  GString *str;
  g_autofree char *total = NULL, *average = NULL, *min = NULL, *max = NULL;
  double level_share, step_share;
  const char *level;

  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), NULL);
  g_return_val_if_fail (SL_IS_OP_ROW (row), NULL);

  level = row_level (row);
  str = g_string_new (sl_op_row_get_op_type (row));
  if (level[0] != '\0' && g_strcmp0 (sl_api_level_label (level), level) != 0)
    g_string_append_printf (str, _("\nLevel: %s (%s)"), sl_api_level_label (level), level);
  else
    g_string_append_printf (str, _("\nLevel: %s"), sl_api_level_label (level));

  total = sl_time_format_ns (MAX (sl_op_row_get_total_ns (row), 0), self->unit);
  average = sl_time_format_ns (MAX (sl_op_row_get_avg_ns (row), 0), self->unit);
  g_string_append_printf (str, _("\n%llu calls, %s in all, %s on average"),
                          (unsigned long long)sl_op_row_get_count (row), total, average);
  if (sl_op_row_get_min_ns (row) >= 0 && sl_op_row_get_max_ns (row) >= 0)
    {
      min = sl_time_format_ns (sl_op_row_get_min_ns (row), self->unit);
      max = sl_time_format_ns (sl_op_row_get_max_ns (row), self->unit);
      g_string_append_printf (str, _("\nShortest %s, longest %s"), min, max);
    }

  level_share = sl_api_stats_view_get_level_share (self, row);
  if (level_share >= 0)
    g_string_append_printf (str, _("\n%.2f%% of the level's API time"), level_share);
  step_share = sl_api_stats_view_get_step_share (self, row);
  if (step_share >= 0)
    /* Calls on several host threads overlap, so this can pass 100%. */
    g_string_append_printf (str, chosen_step (self) ? _("\n%.2f%% of the step's time")
                                                    : _("\n%.2f%% of the steps' time"), step_share);
  if (g_str_equal (level, "framework"))
    g_string_append (str, _("\nFramework ops nest (a module's time holds its ops'), so their shares add up to more than 100%"));
  if (sl_op_row_get_source_path (row) != NULL)
    g_string_append_printf (str, _("\nFrom %s, line %u"), sl_op_row_get_source_path (row),
                            sl_op_row_get_source_line (row));
  return g_string_free (str, FALSE);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               ColumnRef                *ref)
{
  gboolean text = ref->column->kind == COLUMN_TEXT;

  gtk_list_item_set_child (list_item, sl_column_cell_label_new (!text, text ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_END));
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              ColumnRef                *ref)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);
  SlOpRow *row = gtk_list_item_get_item (list_item);
  g_autofree char *text = format_cell (ref->view, ref->column, row);
  g_autofree char *tooltip = sl_api_stats_view_dup_tooltip (ref->view, row);

  gtk_label_set_text (GTK_LABEL (label), text ? text : "");
  gtk_widget_set_tooltip_text (label, tooltip);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  ColumnRef *ref = user_data;
  SlOpRow *ra = (SlOpRow *)a, *rb = (SlOpRow *)b;
  double da, db;
  gint64 ia, ib;

  switch (ref->column->kind)
    {
    case COLUMN_TEXT:
      if (g_str_equal (ref->column->id, "level"))
        return g_strcmp0 (sl_api_level_label (row_level (ra)), sl_api_level_label (row_level (rb)));
      return g_strcmp0 (sl_op_row_get_op_type (ra), sl_op_row_get_op_type (rb));
    case COLUMN_LEVEL_SHARE:
    case COLUMN_STEP_SHARE:
      da = share_of (ref->view, ref->column, ra);
      db = share_of (ref->view, ref->column, rb);
      return da < db ? -1 : da > db;
    default:
      ia = ref->column->number (ra);
      ib = ref->column->number (rb);
      return ia < ib ? -1 : ia > ib;
    }
}

static GtkColumnViewColumn *
create_column (SlApiStatsView  *self,
               const ApiColumn *def)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  ColumnRef *ref = g_new0 (ColumnRef, 1);
  GtkColumnViewColumn *column;
  GtkSorter *sorter;

  ref->view = self;
  ref->column = def;
  g_object_set_data_full (G_OBJECT (factory), "sl-column-ref", ref, g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), ref);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), ref);

  column = gtk_column_view_column_new (_(def->title), factory);
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, ref, NULL));
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  /* The name takes what is left; a level's name is short but must not
   * be cut ("AscendCL"). */
  gtk_column_view_column_set_expand (column, g_str_equal (def->id, "name"));
  if (g_str_equal (def->id, "level"))
    gtk_column_view_column_set_fixed_width (column, 100);
  g_object_set_data (G_OBJECT (column), "sl-column-id", (gpointer)def->id);
  return column;
}

static GtkColumnViewColumn *
find_column (SlApiStatsView *self,
             const char     *id)
{
  GListModel *existing = gtk_column_view_get_columns (self->column_view);

  for (guint i = 0; i < g_list_model_get_n_items (existing); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (existing, i);

      if (g_strcmp0 (g_object_get_data (G_OBJECT (column), "sl-column-id"), id) == 0)
        return column;
    }
  return NULL;
}

/* Columns are made once; the step share is shown only when the profile
 * has step times to take a share of. */
static void
ensure_columns (SlApiStatsView *self)
{
  if (self->shown->len > 0)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = create_column (self, &columns[i]);

      gtk_column_view_append_column (self->column_view, column);
      g_ptr_array_add (self->shown, (gpointer)&columns[i]);
    }
}

static void
update_step_share_column (SlApiStatsView *self)
{
  GtkColumnViewColumn *column = find_column (self, "step-share");

  if (column != NULL)
    gtk_column_view_column_set_visible (column, self->step_ns > 0);
}

static gboolean
row_matches (gpointer item,
             gpointer user_data)
{
  SlApiStatsView *self = user_data;
  SlOpRow *row = item;
  g_autofree char *name = NULL, *label = NULL;

  if (self->level != NULL && g_strcmp0 (row_level (row), self->level) != 0)
    return FALSE;
  if (self->filter_text == NULL)
    return TRUE;
  name = g_utf8_casefold (sl_op_row_get_op_type (row), -1);
  label = g_utf8_casefold (sl_api_level_label (row_level (row)), -1);
  return strstr (name, self->filter_text) != NULL || strstr (label, self->filter_text) != NULL;
}

static void
update_count (SlApiStatsView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  guint all = self->shown_table ? g_list_model_get_n_items (sl_op_table_get_types (self->shown_table)) : 0;
  g_autofree char *text = NULL;

  if (shown == all)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u API", "%u APIs", all), all);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u API", "%u of %u APIs", all), shown, all);
  gtk_label_set_label (self->count_label, text);
}

/* "AscendCL 14.9 ms in 518 calls · Node 2.38 ms in 191 calls": the level
 * subtotals of what is shown, longest first. */
static void
update_levels_text (SlApiStatsView *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; self->levels != NULL && i < self->levels->len; i++)
    {
      const SlApiLevel *level = g_ptr_array_index (self->levels, i);
      g_autofree char *total = sl_time_format_ns (level->total_ns, self->unit);

      if (text->len > 0)
        g_string_append (text, " · ");
      /* Translators: a level's subtotal: its name, its time, its number of calls */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s %s in %llu call", "%s %s in %llu calls",
                                                 level->count),
                              sl_api_level_label (level->level), total, (unsigned long long)level->count);
    }
  g_free (self->levels_text);
  self->levels_text = g_string_free (g_steal_pointer (&text), FALSE);
  gtk_label_set_label (self->levels_label, self->levels_text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->levels_label), self->levels_text);
}

static void
refilter (SlApiStatsView *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

/* Shows @table (the run's or a step's): levels, subtotals, shares. */
static void
show_table (SlApiStatsView *self,
            SlOpTable      *table)
{
  g_set_object (&self->shown_table, table);
  g_clear_pointer (&self->levels, g_ptr_array_unref);
  if (table != NULL)
    self->levels = sl_api_levels_compute (sl_op_table_get_types (table));
  self->step_ns = compute_step_ns (self);
  ensure_columns (self);
  update_step_share_column (self);
  update_levels_text (self);
  gtk_filter_list_model_set_model (self->filtered, table ? sl_op_table_get_types (table) : NULL);
  /* Shares changed with the step: sorted columns must sort again. */
  gtk_sorter_changed (gtk_column_view_get_sorter (self->column_view), GTK_SORTER_CHANGE_DIFFERENT);
  refilter (self);
}

static void
fill_level_dropdown (SlApiStatsView *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GPtrArray) levels = self->all ? sl_api_levels_compute (sl_op_table_get_types (self->all)) : NULL;

  g_ptr_array_set_size (self->level_ids, 0);
  gtk_string_list_append (names, _("All Levels"));
  for (guint i = 0; levels != NULL && i < levels->len; i++)
    {
      const SlApiLevel *level = g_ptr_array_index (levels, i);

      g_ptr_array_add (self->level_ids, g_strdup (level->level));
      gtk_string_list_append (names, sl_api_level_label (level->level));
    }
  gtk_drop_down_set_model (self->level_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->level_dropdown, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->level_dropdown), self->level_ids->len > 1);
}

gboolean
sl_api_stats_view_has_steps (SlApiStatsView *self)
{
  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), FALSE);

  if (self->calls == NULL || self->steps == NULL || sl_step_trace_get_n_steps (self->steps) == 0)
    return FALSE;
  /* Calls are placed in steps by time. */
  for (guint i = 0; i < sl_step_trace_get_n_steps (self->steps); i++)
    {
      const SlStep *step = sl_step_trace_get_step (self->steps, i);

      if (step->start_ns == SL_STEP_NO_TIME || step->end_ns == SL_STEP_NO_TIME)
        return FALSE;
    }
  return TRUE;
}

static void
fill_step_dropdown (SlApiStatsView *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  gboolean has_steps = sl_api_stats_view_has_steps (self);

  gtk_string_list_append (names, _("All Steps"));
  for (guint i = 0; has_steps && i < sl_step_trace_get_n_steps (self->steps); i++)
    {
      g_autofree char *name = g_strdup_printf (_("Step %lld"), (long long)sl_step_trace_get_step (self->steps, i)->step);

      gtk_string_list_append (names, name);
    }
  gtk_drop_down_set_model (self->step_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->step_dropdown, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->step_dropdown), has_steps);
}

static void
set_empty_text (SlApiStatsView *self)
{
  g_free (self->empty_text);
  self->empty_text = g_strdup_printf (_("No host API statistics were found in %s. They are read from api_statistic*.csv "
                                        "(in mindstudio_profiler_output of an msprof PROF_ folder, or "
                                        "ASCEND_PROFILER_OUTPUT of the Ascend PyTorch and MindSpore profilers) or from "
                                        "the CANN_API table of a SQLite export (msprof_*.db, ascend_pytorch_profiler_*.db). "
                                        "In a cluster, another rank in the header may have them."),
                                      self->dir ? self->dir : "");
  adw_status_page_set_description (self->empty_page, self->empty_text);
}

/**
 * sl_api_stats_view_set_rank:
 * @rank: (nullable): the rank shown; its tables must outlive the view's
 *   use of them (they are referenced)
 */
void
sl_api_stats_view_set_rank (SlApiStatsView      *self,
                            const SlProfileRank *rank)
{
  g_return_if_fail (SL_IS_API_STATS_VIEW (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->all);
  g_clear_object (&self->calls);
  if (rank != NULL)
    {
      self->all = g_object_ref (rank->apis);
      self->calls = rank->api_calls != NULL ? g_object_ref (rank->api_calls) : NULL;
    }
  g_clear_pointer (&self->steps, sl_step_trace_unref);
  if (rank != NULL && rank->steps != NULL)
    self->steps = sl_step_trace_ref (rank->steps);
  g_free (self->dir);
  self->dir = g_strdup (rank ? rank->dir : NULL);
  g_clear_pointer (&self->level, g_free);
  self->step = SL_API_STATS_ALL_STEPS;

  set_empty_text (self);
  gtk_stack_set_visible_child_name (self->content_stack, sl_api_stats_view_is_empty (self) ? "empty" : "table");
  /* Nothing to filter or show: the page says what it needs instead. */
  gtk_widget_set_visible (self->toolbar, !sl_api_stats_view_is_empty (self));
  gtk_widget_set_visible (GTK_WIDGET (self->levels_label), !sl_api_stats_view_is_empty (self));
  fill_level_dropdown (self);
  fill_step_dropdown (self);
  show_table (self, self->all);
}

gboolean
sl_api_stats_view_is_empty (SlApiStatsView *self)
{
  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), TRUE);
  return self->all == NULL || sl_op_table_is_empty (self->all);
}

/**
 * sl_api_stats_view_get_empty_text:
 *
 * Returns: what the view says when the rank has no API statistics: the
 *   files it reads and the folder it looked in
 */
const char *
sl_api_stats_view_get_empty_text (SlApiStatsView *self)
{
  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), NULL);
  return self->empty_text;
}

gboolean
sl_api_stats_view_is_busy (SlApiStatsView *self)
{
  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), FALSE);
  return self->cancellable != NULL;
}

void
sl_api_stats_view_set_level (SlApiStatsView *self,
                             const char     *level)
{
  guint position = 0;

  g_return_if_fail (SL_IS_API_STATS_VIEW (self));

  for (guint i = 0; level != NULL && i < self->level_ids->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (self->level_ids, i), level))
        position = i + 1;
    }
  gtk_drop_down_set_selected (self->level_dropdown, position);
}

guint
sl_api_stats_view_get_n_levels (SlApiStatsView *self)
{
  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), 0);
  return self->levels ? self->levels->len : 0;
}

const char *
sl_api_stats_view_get_levels_text (SlApiStatsView *self)
{
  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), NULL);
  return self->levels_text;
}

static void
level_changed_cb (SlApiStatsView *self)
{
  guint selected = gtk_drop_down_get_selected (self->level_dropdown);

  g_clear_pointer (&self->level, g_free);
  if (selected != GTK_INVALID_LIST_POSITION && selected > 0 && selected <= self->level_ids->len)
    self->level = g_strdup (g_ptr_array_index (self->level_ids, selected - 1));
  refilter (self);
}

typedef struct {
  SlApiCalls *calls;
  gint64      start_ns;
  gint64      end_ns;
} Aggregate;

static void
aggregate_free (Aggregate *aggregate)
{
  g_object_unref (aggregate->calls);
  g_free (aggregate);
}

static void
aggregate_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  Aggregate *aggregate = task_data;
  SlOpTable *table = sl_api_calls_aggregate (aggregate->calls, aggregate->start_ns, aggregate->end_ns, cancellable);

  if (table == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, table, g_object_unref);
}

static void
aggregate_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SlApiStatsView) self = user_data;
  g_autoptr(SlOpTable) table = g_task_propagate_pointer (G_TASK (result), NULL);

  /* Cancelled: another step (or rank) was chosen since. */
  if (table == NULL || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->column_view), TRUE);
  show_table (self, table);
}

void
sl_api_stats_view_set_step (SlApiStatsView *self,
                            guint           index)
{
  g_return_if_fail (SL_IS_API_STATS_VIEW (self));
  g_return_if_fail (index == SL_API_STATS_ALL_STEPS || sl_api_stats_view_has_steps (self));

  gtk_drop_down_set_selected (self->step_dropdown, index == SL_API_STATS_ALL_STEPS ? 0 : index + 1);
}

static void
step_changed_cb (SlApiStatsView *self)
{
  guint selected = gtk_drop_down_get_selected (self->step_dropdown);
  g_autoptr(GTask) task = NULL;
  Aggregate *aggregate;
  const SlStep *step;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->column_view), TRUE);
  self->step = selected == GTK_INVALID_LIST_POSITION || selected == 0 ? SL_API_STATS_ALL_STEPS : selected - 1;
  if ((step = chosen_step (self)) == NULL || self->calls == NULL)
    {
      self->step = SL_API_STATS_ALL_STEPS;
      show_table (self, self->all);
      return;
    }

  aggregate = g_new0 (Aggregate, 1);
  aggregate->calls = g_object_ref (self->calls);
  aggregate->start_ns = step->start_ns;
  aggregate->end_ns = step->end_ns;
  self->cancellable = g_cancellable_new ();
  gtk_widget_set_sensitive (GTK_WIDGET (self->column_view), FALSE);
  task = g_task_new (NULL, self->cancellable, aggregate_cb, g_object_ref (self));
  g_task_set_source_tag (task, step_changed_cb);
  g_task_set_task_data (task, aggregate, (GDestroyNotify)aggregate_free);
  g_task_run_in_thread (task, aggregate_thread);
}

void
sl_api_stats_view_set_filter (SlApiStatsView *self,
                              const char     *text)
{
  g_return_if_fail (SL_IS_API_STATS_VIEW (self));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), text ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text ? text : "");
  g_clear_pointer (&self->filter_text, g_free);
  if (text != NULL && text[0] != '\0')
    self->filter_text = g_utf8_casefold (text, -1);
  refilter (self);
}

static void
filter_changed_cb (SlApiStatsView *self)
{
  sl_api_stats_view_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

/**
 * sl_api_stats_view_get_rows:
 *
 * Returns: (transfer none): the rows as shown: filtered and sorted
 */
GListModel *
sl_api_stats_view_get_rows (SlApiStatsView *self)
{
  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

guint
sl_api_stats_view_get_n_columns (SlApiStatsView *self)
{
  GListModel *existing;
  guint n = 0;

  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), 0);

  existing = gtk_column_view_get_columns (self->column_view);
  for (guint i = 0; i < g_list_model_get_n_items (existing); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (existing, i);

      n += gtk_column_view_column_get_visible (column);
    }
  return n;
}

const char *
sl_api_stats_view_get_column_title (SlApiStatsView *self,
                                    guint           index)
{
  GListModel *existing;

  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), NULL);

  existing = gtk_column_view_get_columns (self->column_view);
  for (guint i = 0; i < g_list_model_get_n_items (existing); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (existing, i);

      if (gtk_column_view_column_get_visible (column) && index-- == 0)
        return gtk_column_view_column_get_title (column);
    }
  g_return_val_if_reached (NULL);
}

void
sl_api_stats_view_sort_by (SlApiStatsView *self,
                           const char     *column_id,
                           gboolean        descending)
{
  GtkColumnViewColumn *column;

  g_return_if_fail (SL_IS_API_STATS_VIEW (self));

  if ((column = find_column (self, column_id)) != NULL)
    gtk_column_view_sort_by_column (self->column_view, column, descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

void
sl_api_stats_view_select (SlApiStatsView *self,
                          guint           position)
{
  g_return_if_fail (SL_IS_API_STATS_VIEW (self));
  gtk_single_selection_set_selected (self->selection, position);
}

static SlOpRow *
selected_row (SlApiStatsView *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);

  return position != GTK_INVALID_LIST_POSITION ? g_list_model_get_item (G_LIST_MODEL (self->selection), position) : NULL;
}

static void
emit_show_calls (SlApiStatsView *self,
                 SlOpRow        *row)
{
  const SlStep *step = chosen_step (self);

  g_signal_emit (self, signals[SHOW_CALLS], 0, sl_op_row_get_op_type (row), row_level (row),
                 step ? step->start_ns : (gint64)-1, step ? step->end_ns : (gint64)-1);
}

static void
row_activated_cb (SlApiStatsView *self,
                  guint           position)
{
  g_autoptr(SlOpRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (row != NULL)
    emit_show_calls (self, row);
}

static void
selection_changed_cb (SlApiStatsView *self)
{
  g_autoptr(SlOpRow) row = selected_row (self);

  if (row != NULL)
    g_signal_emit (self, signals[API_SELECTED], 0, sl_op_row_get_op_type (row), row_level (row));
}

static void
show_on_timeline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  SlApiStatsView *self = SL_API_STATS_VIEW (widget);
  g_autoptr(SlOpRow) row = selected_row (self);

  if (row == NULL)
    {
      gtk_widget_activate_action (widget, "win.toast", "s", _("Select an API in the list to show its calls on the timeline"));
      return;
    }
  emit_show_calls (self, row);
}

static void
focus_filter_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  gtk_widget_grab_focus (GTK_WIDGET (SL_API_STATS_VIEW (widget)->filter_entry));
}

static void
time_unit_changed_cb (SlApiStatsView *self)
{
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  update_levels_text (self);
  /* Rebinds every cell with the new unit. */
  gtk_filter_list_model_set_model (self->filtered, NULL);
  gtk_filter_list_model_set_model (self->filtered, self->shown_table ? sl_op_table_get_types (self->shown_table) : NULL);
  update_count (self);
}

static void
sl_api_stats_view_dispose (GObject *object)
{
  SlApiStatsView *self = SL_API_STATS_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_API_STATS_VIEW);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->all);
  g_clear_object (&self->shown_table);
  g_clear_object (&self->calls);
  g_clear_pointer (&self->steps, sl_step_trace_unref);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->levels, g_ptr_array_unref);
  g_clear_pointer (&self->level_ids, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->dir, g_free);
  g_clear_pointer (&self->empty_text, g_free);
  g_clear_pointer (&self->level, g_free);
  g_clear_pointer (&self->filter_text, g_free);
  g_clear_pointer (&self->levels_text, g_free);

  G_OBJECT_CLASS (sl_api_stats_view_parent_class)->dispose (object);
}

static void
sl_api_stats_view_class_init (SlApiStatsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_api_stats_view_dispose;

  /**
   * SlApiStatsView::show-calls:
   * @name: the API's name
   * @level: its level, as the file writes it
   * @start_ns: the chosen step's start, or -1 for the whole run
   * @end_ns: its end, or -1
   *
   * A row was activated, or Show Calls on the Timeline was chosen.
   */
  signals[SHOW_CALLS] =
    g_signal_new ("show-calls", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_INT64);

  /**
   * SlApiStatsView::api-selected:
   * @name: the API's name
   * @level: its level
   */
  signals[API_SELECTED] =
    g_signal_new ("api-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-api-stats-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, level_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, step_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, count_label);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, levels_label);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, toolbar);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, column_view);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, level_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_install_action (widget_class, "apis.show-on-timeline", NULL, show_on_timeline_action);
  gtk_widget_class_install_action (widget_class, "apis.focus-filter", NULL, focus_filter_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "apis.focus-filter", NULL);
}

static void
sl_api_stats_view_init (SlApiStatsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->shown = g_ptr_array_new ();
  self->level_ids = g_ptr_array_new_with_free_func (g_free);
  self->step = SL_API_STATS_ALL_STEPS;
  self->step_ns = -1;
  self->filter = gtk_custom_filter_new (row_matches, self, NULL);
  self->filtered = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self,
                           G_CONNECT_SWAPPED);

  self->settings = g_settings_new (APP_ID);
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  g_signal_connect_object (self->settings, "changed::time-unit", G_CALLBACK (time_unit_changed_cb), self,
                           G_CONNECT_SWAPPED);
  ensure_columns (self);
  set_empty_text (self);
}

GtkWidget *
sl_api_stats_view_new (void)
{
  return g_object_new (SL_TYPE_API_STATS_VIEW, NULL);
}
