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

#include "sl-api-levels.h"
#include "sl-api-stats-view.h"
#include "sl-count-format.h"
#include "sl-data-table.h"
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
  char               *levels_text;
  guint               step;
  gint64              step_ns;      /* -1 unknown */
  GCancellable       *cancellable;
  GtkCustomFilter    *level_filter;
  GSettings          *settings;
  SlTimeUnit          unit;

  GtkDropDown        *level_dropdown;
  GtkDropDown        *step_dropdown;
  GtkSearchEntry     *filter_entry;
  GtkLabel           *count_label;
  GtkLabel           *levels_label;
  GtkWidget          *toolbar;
  SlDataTable        *data_table;
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
      /* A fixed unit is in the header; the automatic one beside each value. */
      value = column->number (row);
      if (value < 0)
        return g_strdup ("—");
      if (self->unit == SL_TIME_UNIT_AUTO)
        return sl_time_format_ns (value, self->unit);
      if (self->unit == SL_TIME_UNIT_NS)
        return g_strdup_printf ("%lld", (long long)value);
      return g_strdup_printf ("%.3f", value / sl_time_unit_scale (self->unit));
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
  g_autofree char *total = NULL, *average = NULL, *min = NULL, *max = NULL, *calls = NULL;
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
  calls = sl_count_format (sl_op_row_get_count (row));
  g_string_append_printf (str, _("\n%s calls, %s in all, %s on average"), calls, total, average);
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

/* What a column's functions get: the view, whose table they are part of
 * (shares depend on the level and step chosen), and the column. */
typedef struct {
  SlApiStatsView  *view;
  const ApiColumn *column;
} ColumnRef;

static char *
cell_text (gpointer item,
           gpointer user_data)
{
  ColumnRef *ref = user_data;

  return format_cell (ref->view, ref->column, item);
}

static double
cell_number (gpointer item,
             gpointer user_data)
{
  ColumnRef *ref = user_data;

  if (ref->column->kind == COLUMN_LEVEL_SHARE || ref->column->kind == COLUMN_STEP_SHARE)
    return share_of (ref->view, ref->column, item);
  return (double)ref->column->number (item);
}

static char *
cell_tooltip (gpointer item,
              gpointer user_data)
{
  return sl_api_stats_view_dup_tooltip (((ColumnRef *)user_data)->view, item);
}

/* Shows or hides a tool of the wrapping toolbar with the place the
 * toolbar keeps for it, so a hidden tool leaves no gap. */
static void
set_tool_visible (GtkWidget *tool,
                  gboolean   visible)
{
  GtkWidget *place = gtk_widget_get_parent (tool);

  gtk_widget_set_visible (tool, visible);
  if (GTK_IS_FLOW_BOX_CHILD (place))
    gtk_widget_set_visible (place, visible);
}

/* Made again when the time unit changes, as a fixed unit is in the
 * headers; the step share is shown only when the profile has step times
 * to take a share of. */
static void
create_columns (SlApiStatsView *self)
{
  sl_data_table_remove_columns (self->data_table);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      const ApiColumn *def = &columns[i];
      gboolean text = def->kind == COLUMN_TEXT;
      ColumnRef *ref = g_new0 (ColumnRef, 1);
      SlDataColumn column = {
        .id = def->id,
        .title = _(def->title),
        .unit = def->kind == COLUMN_TIME && self->unit != SL_TIME_UNIT_AUTO ? sl_time_unit_symbol (self->unit) : NULL,
        .flags = text ? SL_DATA_COLUMN_SEARCHABLE | SL_DATA_COLUMN_ELLIPSIZE_MIDDLE : SL_DATA_COLUMN_NUMERIC,
        .text = cell_text,
        .number = text ? NULL : cell_number,
        .tooltip = cell_tooltip,
      };

      /* The name takes what is left. */
      if (g_str_equal (def->id, "name"))
        column.flags |= SL_DATA_COLUMN_EXPAND;
      ref->view = self;
      ref->column = def;
      sl_data_table_append_column (self->data_table, &column, ref, g_free);
    }
  sl_data_table_sort_by (self->data_table, "total", GTK_SORT_DESCENDING);
}

static void
update_step_share_column (SlApiStatsView *self)
{
  GtkColumnViewColumn *column = sl_data_table_get_column (self->data_table, "step-share");

  if (column != NULL)
    gtk_column_view_column_set_visible (column, self->step_ns > 0);
}

static gboolean
level_matches (gpointer item,
               gpointer user_data)
{
  SlApiStatsView *self = user_data;

  return self->level == NULL || g_strcmp0 (row_level (item), self->level) == 0;
}

static void
update_count (SlApiStatsView *self)
{
  guint shown = g_list_model_get_n_items (sl_data_table_get_rows (self->data_table));
  guint all = self->shown_table ? g_list_model_get_n_items (sl_op_table_get_types (self->shown_table)) : 0;
  g_autofree char *shown_text = sl_count_format (shown);
  g_autofree char *all_text = sl_count_format (all);
  g_autofree char *text = NULL;

  if (shown == all)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s API", "%s APIs", all), all_text);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s API", "%s of %s APIs", all), shown_text, all_text);
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
      g_autofree char *calls = sl_count_format (level->count);

      if (text->len > 0)
        g_string_append (text, " · ");
      /* Translators: a level's subtotal: its name, its time, its number of calls */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s %s in %s call", "%s %s in %s calls",
                                                 level->count),
                              sl_api_level_label (level->level), total, calls);
    }
  g_free (self->levels_text);
  self->levels_text = g_string_free (g_steal_pointer (&text), FALSE);
  gtk_label_set_label (self->levels_label, self->levels_text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->levels_label), self->levels_text);
}

static void
refilter (SlApiStatsView *self)
{
  gtk_filter_changed (GTK_FILTER (self->level_filter), GTK_FILTER_CHANGE_DIFFERENT);
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
  update_step_share_column (self);
  update_levels_text (self);
  sl_data_table_set_model (self->data_table, table ? sl_op_table_get_types (table) : NULL);
  /* Shares changed with the step: sorted columns must sort again. */
  gtk_sorter_changed (gtk_column_view_get_sorter (sl_data_table_get_column_view (self->data_table)),
                      GTK_SORTER_CHANGE_DIFFERENT);
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
  set_tool_visible (GTK_WIDGET (self->level_dropdown), self->level_ids->len > 1);
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
  set_tool_visible (GTK_WIDGET (self->step_dropdown), has_steps);
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
  gtk_widget_set_sensitive (GTK_WIDGET (self->data_table), TRUE);
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
  gtk_widget_set_sensitive (GTK_WIDGET (self->data_table), TRUE);
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
  gtk_widget_set_sensitive (GTK_WIDGET (self->data_table), FALSE);
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
  sl_data_table_set_filter_text (self->data_table, text);
  update_count (self);
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
  return sl_data_table_get_rows (self->data_table);
}

guint
sl_api_stats_view_get_n_columns (SlApiStatsView *self)
{
  GListModel *existing;
  guint n = 0;

  g_return_val_if_fail (SL_IS_API_STATS_VIEW (self), 0);

  existing = gtk_column_view_get_columns (sl_data_table_get_column_view (self->data_table));
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

  existing = gtk_column_view_get_columns (sl_data_table_get_column_view (self->data_table));
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
  g_return_if_fail (SL_IS_API_STATS_VIEW (self));

  sl_data_table_sort_by (self->data_table, column_id, descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

void
sl_api_stats_view_select (SlApiStatsView *self,
                          guint           position)
{
  g_return_if_fail (SL_IS_API_STATS_VIEW (self));
  sl_data_table_select (self->data_table, position);
}

static SlOpRow *
selected_row (SlApiStatsView *self)
{
  return sl_data_table_dup_selected (self->data_table);
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
  g_autoptr(SlOpRow) row = g_list_model_get_item (sl_data_table_get_rows (self->data_table), position);

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
  /* New headers, and every cell bound again with the new unit. */
  create_columns (self);
  update_step_share_column (self);
  sl_data_table_set_model (self->data_table, NULL);
  sl_data_table_set_model (self->data_table, self->shown_table ? sl_op_table_get_types (self->shown_table) : NULL);
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
  g_clear_object (&self->level_filter);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->levels, g_ptr_array_unref);
  g_clear_pointer (&self->level_ids, g_ptr_array_unref);
  g_clear_pointer (&self->dir, g_free);
  g_clear_pointer (&self->empty_text, g_free);
  g_clear_pointer (&self->level, g_free);
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
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, data_table);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, SlApiStatsView, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, level_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  g_type_ensure (SL_TYPE_DATA_TABLE);

  gtk_widget_class_install_action (widget_class, "apis.show-on-timeline", NULL, show_on_timeline_action);
  gtk_widget_class_install_action (widget_class, "apis.focus-filter", NULL, focus_filter_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "apis.focus-filter", NULL);
}

static void
sl_api_stats_view_init (SlApiStatsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->level_ids = g_ptr_array_new_with_free_func (g_free);
  self->step = SL_API_STATS_ALL_STEPS;
  self->step_ns = -1;
  self->level_filter = gtk_custom_filter_new (level_matches, self, NULL);
  sl_data_table_set_extra_filter (self->data_table, GTK_FILTER (self->level_filter));
  g_signal_connect_object (gtk_column_view_get_model (sl_data_table_get_column_view (self->data_table)),
                           "notify::selected", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);

  self->settings = g_settings_new (APP_ID);
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  g_signal_connect_object (self->settings, "changed::time-unit", G_CALLBACK (time_unit_changed_cb), self,
                           G_CONNECT_SWAPPED);
  create_columns (self);
  set_empty_text (self);
}

GtkWidget *
sl_api_stats_view_new (void)
{
  return g_object_new (SL_TYPE_API_STATS_VIEW, NULL);
}
