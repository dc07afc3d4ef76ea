/* sl-op-stats-view.c
 *
 * Columns come from the data: a column the profile has no values for
 * (block dim of a GPU trace, wait time of an old msprof) is left out
 * rather than shown empty. Every cell's tooltip gives the op's full name,
 * type, shapes, data types and formats, so nothing cut off by a narrow
 * column is out of reach.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "sl-count-format.h"
#include "sl-data-table.h"
#include "sl-op-names.h"
#include "sl-op-stats-view.h"
#include "sl-op-type-bars.h"
#include "sl-time-format.h"

typedef enum {
  COLUMN_TEXT,
  COLUMN_COUNT,
  COLUMN_TIME,
  COLUMN_RATIO,
  COLUMN_INT,
  COLUMN_REAL,
} ColumnKind;

enum {
  FOR_TYPES     = 1 << 0,
  FOR_INSTANCES = 1 << 1,
  ALWAYS        = 1 << 2,  /* shown even when every value is zero */
};

typedef struct {
  const char  *id;
  const char  *title;
  ColumnKind   kind;
  guint        flags;
  const char *(*text)   (SlOpRow *row);
  gint64      (*number) (SlOpRow *row);
  double      (*real)   (SlOpRow *row);
} OpColumn;

static gint64 row_count (SlOpRow *row) { return (gint64)MIN (sl_op_row_get_count (row), (guint64)G_MAXINT64); }

static const OpColumn columns[] = {
  { "name", N_("Name"), COLUMN_TEXT, FOR_INSTANCES | ALWAYS, sl_op_row_get_name, NULL },
  { "type", N_("Type"), COLUMN_TEXT, FOR_TYPES | FOR_INSTANCES | ALWAYS, sl_op_row_get_op_type, NULL },
  { "core-type", N_("Core Type"), COLUMN_TEXT, FOR_TYPES | FOR_INSTANCES, sl_op_row_get_core_type, NULL },
  { "count", N_("Count"), COLUMN_COUNT, FOR_TYPES | FOR_INSTANCES | ALWAYS, NULL, row_count },
  { "total", N_("Total"), COLUMN_TIME, FOR_TYPES | FOR_INSTANCES | ALWAYS, NULL, sl_op_row_get_total_ns },
  { "average", N_("Average"), COLUMN_TIME, FOR_TYPES | FOR_INSTANCES | ALWAYS, NULL, sl_op_row_get_avg_ns },
  { "min", N_("Min"), COLUMN_TIME, FOR_TYPES | FOR_INSTANCES, NULL, sl_op_row_get_min_ns },
  { "max", N_("Max"), COLUMN_TIME, FOR_TYPES | FOR_INSTANCES, NULL, sl_op_row_get_max_ns },
  { "ratio", N_("Ratio"), COLUMN_RATIO, FOR_TYPES | FOR_INSTANCES | ALWAYS, NULL, NULL },
  { "aicore", N_("AI Core Time"), COLUMN_TIME, FOR_TYPES | FOR_INSTANCES, NULL, sl_op_row_get_aicore_ns },
  { "wait", N_("Wait Time"), COLUMN_TIME, FOR_TYPES | FOR_INSTANCES, NULL, sl_op_row_get_wait_ns },
  { "block-dim", N_("Block Dim"), COLUMN_INT, FOR_INSTANCES, NULL, sl_op_row_get_block_dim },
  { "stream", N_("Stream"), COLUMN_INT, FOR_INSTANCES, NULL, sl_op_row_get_stream_id },
  { "mflops", N_("MFLOPs"), COLUMN_REAL, FOR_INSTANCES, NULL, NULL, sl_op_row_get_mflops },
  { "gflops", N_("GFLOPS"), COLUMN_REAL, FOR_INSTANCES, NULL, NULL, sl_op_row_get_gflops_rate },
  { "input-shapes", N_("Input Shapes"), COLUMN_TEXT, FOR_INSTANCES, sl_op_row_get_input_shapes, NULL },
  { "input-dtypes", N_("Input Data Types"), COLUMN_TEXT, FOR_INSTANCES, sl_op_row_get_input_dtypes, NULL },
  { "input-formats", N_("Input Formats"), COLUMN_TEXT, FOR_INSTANCES, sl_op_row_get_input_formats, NULL },
  { "output-shapes", N_("Output Shapes"), COLUMN_TEXT, FOR_INSTANCES, sl_op_row_get_output_shapes, NULL },
  { "output-dtypes", N_("Output Data Types"), COLUMN_TEXT, FOR_INSTANCES, sl_op_row_get_output_dtypes, NULL },
  { "output-formats", N_("Output Formats"), COLUMN_TEXT, FOR_INSTANCES, sl_op_row_get_output_formats, NULL },
};

struct _SlOpStatsView
{
  GtkBox              parent_instance;

  SlOpTable          *table;
  SlOpNames          *name_set;       /* a link's ops, instead of text */
  char               *name_set_label; /* what the entry shows for them */
  GtkCustomFilter    *name_filter;
  GSettings          *settings;
  SlTimeUnit          unit;

  GtkToggleButton    *by_type_button;
  GtkToggleButton    *by_instance_button;
  GtkSearchEntry     *filter_entry;
  GtkLabel           *count_label;
  SlOpTypeBars       *bars;
  SlDataTable        *data_table;
  GtkStack           *content_stack;
  GtkWidget          *bars_scroller;
};

G_DEFINE_FINAL_TYPE (SlOpStatsView, sl_op_stats_view, GTK_TYPE_BOX)

enum {
  OP_ACTIVATED,
  SHOW_IN_GRAPH,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* What a column's functions need, kept by the column (and by an export
 * of it) rather than read from the view. */
typedef struct {
  const OpColumn *column;
  SlTimeUnit      unit;
  SlOpShareBasis  basis;   /* what the ratio is a share of */
} ColumnRef;

static gboolean
by_instance (SlOpStatsView *self)
{
  return gtk_toggle_button_get_active (self->by_instance_button);
}

/* What the ratio column is a share of: the types' as their file says, the
 * instances' always of the table. */
static SlOpShareBasis
share_basis (SlOpStatsView *self)
{
  if (self->table == NULL || by_instance (self))
    return SL_OP_SHARE_OF_TABLE;
  return sl_op_table_get_type_share_basis (self->table);
}

static double
row_ratio (SlOpRow *row)
{
  return sl_op_row_get_ratio (row);
}

static gboolean
is_missing (const OpColumn *column,
            SlOpRow        *row)
{
  switch (column->kind)
    {
    case COLUMN_TEXT:
    case COLUMN_RATIO:
      return FALSE;
    case COLUMN_REAL:
      return column->real (row) < 0;
    default:
      return column->number (row) < 0;
    }
}

static double
cell_number (gpointer item,
             gpointer user_data)
{
  const OpColumn *column = ((ColumnRef *)user_data)->column;
  SlOpRow *row = item;

  switch (column->kind)
    {
    case COLUMN_RATIO:
      return row_ratio (row);
    case COLUMN_REAL:
      return column->real (row);
    default:
      return (double)column->number (row);
    }
}

/* A time in a fixed unit has the unit in its header; in the automatic
 * unit each value carries its own. Numbers are never cut. */
static char *
cell_text (gpointer item,
           gpointer user_data)
{
  ColumnRef *ref = user_data;
  const OpColumn *column = ref->column;
  SlOpRow *row = item;

  if (column->kind == COLUMN_TEXT)
    return g_strdup (column->text (row));
  if (is_missing (column, row))
    return g_strdup ("—");

  switch (column->kind)
    {
    case COLUMN_RATIO:
      return g_strdup_printf ("%.2f%%", row_ratio (row));
    case COLUMN_REAL:
      return g_strdup_printf ("%.6g", column->real (row));
    case COLUMN_COUNT:
    case COLUMN_INT:
      return g_strdup_printf ("%lld", (long long)column->number (row));
    case COLUMN_TIME:
    default:
      if (ref->unit == SL_TIME_UNIT_AUTO)
        return sl_time_format_ns (column->number (row), ref->unit);
      if (ref->unit == SL_TIME_UNIT_NS)
        return g_strdup_printf ("%lld", (long long)column->number (row));
      return g_strdup_printf ("%.3f", column->number (row) / sl_time_unit_scale (ref->unit));
    }
}

/* Times are in microseconds whatever the display unit, so spreadsheets
 * can sum them; a missing value is an empty field. */
static char *
cell_csv (gpointer item,
          gpointer user_data)
{
  const OpColumn *column = ((ColumnRef *)user_data)->column;
  SlOpRow *row = item;

  if (column->kind == COLUMN_TEXT)
    return g_strdup (column->text (row));
  if (is_missing (column, row))
    return NULL;

  switch (column->kind)
    {
    case COLUMN_RATIO:
      return g_strdup_printf ("%.4f", row_ratio (row));
    case COLUMN_REAL:
      return g_strdup_printf ("%.9g", column->real (row));
    case COLUMN_TIME:
      return g_strdup_printf ("%.3f", column->number (row) / 1000.0);
    default:
      return g_strdup_printf ("%lld", (long long)column->number (row));
    }
}

static void
append_text_line (GString    *str,
                  const char *label,
                  const char *value)
{
  if (value != NULL && value[0] != '\0')
    g_string_append_printf (str, "\n%s: %s", label, value);
}

static char *format_tooltip (SlOpRow        *row,
                             SlTimeUnit      unit,
                             SlOpShareBasis  basis);

/**
 * sl_op_stats_view_dup_tooltip:
 *
 * Returns: (transfer full): what a row's tooltip says: the full name and
 *   type, the time figures and every shape, data type and format known
 */
char *
sl_op_stats_view_dup_tooltip (SlOpStatsView *self,
                              SlOpRow       *row)
{
  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), NULL);
  g_return_val_if_fail (SL_IS_OP_ROW (row), NULL);

  return format_tooltip (row, self->unit, share_basis (self));
}

static char *
format_tooltip (SlOpRow        *row,
                SlTimeUnit      unit,
                SlOpShareBasis  basis)
{
  GString *str = g_string_new (NULL);
  g_autofree char *total = NULL;
  g_autofree char *average = NULL;
  g_autofree char *calls = NULL;

  total = sl_time_format_ns (sl_op_row_get_total_ns (row), unit);
  average = sl_time_format_ns (sl_op_row_get_avg_ns (row), unit);

  if (sl_op_row_get_name (row) != NULL && sl_op_row_get_name (row)[0] != '\0')
    {
      g_string_append (str, sl_op_row_get_name (row));
      append_text_line (str, _("Type"), sl_op_row_get_op_type (row));
    }
  else
    {
      g_string_append (str, sl_op_row_get_op_type (row));
    }
  append_text_line (str, _("Core Type"), sl_op_row_get_core_type (row));
  calls = sl_count_format (sl_op_row_get_count (row));
  g_string_append_printf (str, _("\n%s calls, %s in all, %s on average"), calls, total, average);
  if (sl_op_row_get_ratio (row) >= 0)
    /* Translators: what an op's ratio is a share of, the ratio, and how the file defines it */
    g_string_append_printf (str, _("\n%s: %.2f — %s"), sl_op_share_basis_title (basis), sl_op_row_get_ratio (row),
                            sl_op_share_basis_description (basis));
  if (sl_op_row_get_mflops (row) >= 0)
    g_string_append_printf (str, _("\n%.6g million floating point operations, %.6g GFLOPS"),
                            sl_op_row_get_mflops (row), MAX (sl_op_row_get_gflops_rate (row), 0));
  append_text_line (str, _("Input Shapes"), sl_op_row_get_input_shapes (row));
  append_text_line (str, _("Input Data Types"), sl_op_row_get_input_dtypes (row));
  append_text_line (str, _("Input Formats"), sl_op_row_get_input_formats (row));
  append_text_line (str, _("Output Shapes"), sl_op_row_get_output_shapes (row));
  append_text_line (str, _("Output Data Types"), sl_op_row_get_output_dtypes (row));
  append_text_line (str, _("Output Formats"), sl_op_row_get_output_formats (row));

  return g_string_free (str, FALSE);
}

/* Every cell of a row tells all about its op. */
static char *
cell_tooltip (gpointer item,
              gpointer user_data)
{
  return format_tooltip (item, ((ColumnRef *)user_data)->unit, ((ColumnRef *)user_data)->basis);
}

static gboolean
column_has_values (const OpColumn *column,
                   GListModel     *rows)
{
  guint n = g_list_model_get_n_items (rows);

  if (column->flags & ALWAYS)
    return TRUE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (rows, i);

      if (column->kind == COLUMN_TEXT)
        {
          const char *text = column->text (row);

          if (text != NULL && text[0] != '\0')
            return TRUE;
        }
      else if (column->kind == COLUMN_RATIO ? row_ratio (row) > 0 :
               column->kind == COLUMN_REAL ? column->real (row) > 0 : column->number (row) > 0)
        {
          return TRUE;
        }
    }

  return FALSE;
}

static void
append_column (SlOpStatsView  *self,
               const OpColumn *def)
{
  ColumnRef *ref = g_atomic_rc_box_new0 (ColumnRef);
  gboolean text = def->kind == COLUMN_TEXT;
  gboolean fixed_time = def->kind == COLUMN_TIME && self->unit != SL_TIME_UNIT_AUTO;
  g_autofree char *csv_title = def->kind == COLUMN_TIME ? g_strdup_printf ("%s (us)", def->id) : g_strdup (def->id);
  SlDataColumn column = {
    .id = def->id,
    .title = g_str_equal (def->id, "ratio") ? sl_op_share_basis_title (share_basis (self)) : _(def->title),
    .unit = fixed_time ? sl_time_unit_symbol (self->unit) : NULL,
    .text = cell_text,
    .number = text ? NULL : cell_number,
    .tooltip = cell_tooltip,
    .csv = cell_csv,
    .csv_title = csv_title,
  };

  ref->column = def;
  ref->unit = self->unit;
  ref->basis = share_basis (self);
  if (text)
    {
      column.flags = SL_DATA_COLUMN_ELLIPSIZE_MIDDLE;
      if (g_str_equal (def->id, "name") || g_str_equal (def->id, "type") || g_str_equal (def->id, "core-type"))
        column.flags |= SL_DATA_COLUMN_SEARCHABLE;
      if (g_str_equal (def->id, "name") || (g_str_equal (def->id, "type") && !by_instance (self)))
        column.flags |= SL_DATA_COLUMN_EXPAND;
    }
  else
    {
      column.flags = SL_DATA_COLUMN_NUMERIC;
    }
  sl_data_table_append_column (self->data_table, &column, ref, (GDestroyNotify)g_atomic_rc_box_release);
}

static void
update_count (SlOpStatsView *self)
{
  guint shown = g_list_model_get_n_items (sl_data_table_get_rows (self->data_table));
  guint all = self->table ? g_list_model_get_n_items (by_instance (self) ? sl_op_table_get_instances (self->table)
                                                                           : sl_op_table_get_types (self->table))
                          : 0;
  g_autofree char *shown_text = sl_count_format (shown);
  g_autofree char *all_text = sl_count_format (all);
  g_autofree char *text = NULL;

  if (shown == all)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s row", "%s rows", all), all_text);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s row", "%s of %s rows", all), shown_text, all_text);
  gtk_label_set_label (self->count_label, text);
}

static void
rebuild (SlOpStatsView *self)
{
  GListModel *rows;
  guint mode = by_instance (self) ? FOR_INSTANCES : FOR_TYPES;

  sl_data_table_remove_columns (self->data_table);
  sl_data_table_set_export_title (self->data_table, _("Export Op Statistics"),
                                  by_instance (self) ? "ops.csv" : "op-types.csv");
  gtk_stack_set_visible_child_name (self->content_stack,
                                    self->table && !sl_op_table_is_empty (self->table) ? "table" : "empty");
  if (self->table == NULL)
    {
      sl_data_table_set_model (self->data_table, NULL);
      update_count (self);
      return;
    }

  rows = by_instance (self) ? sl_op_table_get_instances (self->table) : sl_op_table_get_types (self->table);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      if ((columns[i].flags & mode) && column_has_values (&columns[i], rows))
        append_column (self, &columns[i]);
    }

  sl_data_table_set_model (self->data_table, rows);
  sl_data_table_sort_by (self->data_table, "total", GTK_SORT_DESCENDING);
  update_count (self);
}

static void
filter_changed_cb (SlOpStatsView *self)
{
  sl_op_stats_view_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

static void
grouping_toggled_cb (SlOpStatsView *self)
{
  /* A link's ops are instances: by type, the entry's text filters again. */
  if (self->name_set != NULL && !gtk_toggle_button_get_active (self->by_instance_button))
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), "");
  rebuild (self);
}

static void
type_bar_activated_cb (SlOpStatsView *self,
                       const char    *op_type)
{
  /* The bars name a type: list its ops. */
  sl_op_stats_view_set_by_instance (self, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), op_type);
}

static void
row_activated_cb (SlOpStatsView *self,
                  guint          position)
{
  g_autoptr(SlOpRow) row = g_list_model_get_item (sl_data_table_get_rows (self->data_table), position);

  if (row != NULL)
    g_signal_emit (self, signals[OP_ACTIVATED], 0, sl_op_row_get_name (row), sl_op_row_get_op_type (row));
}

/* The selected op instance, for the graph: types have no node. */
static void
show_in_graph_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlOpStatsView *self = SL_OP_STATS_VIEW (widget);
  g_autoptr(SlOpRow) row = sl_data_table_dup_selected (self->data_table);
  const char *name;

  name = row != NULL ? sl_op_row_get_name (row) : NULL;
  if (name == NULL || name[0] == '\0')
    {
      gtk_widget_activate_action (widget, "win.toast", "s",
                                  _("Select an op in the list by op (not by type) to show it in the graph"));
      return;
    }
  g_signal_emit (self, signals[SHOW_IN_GRAPH], 0, name);
}

static void
time_unit_changed_cb (SlOpStatsView *self)
{
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  sl_op_type_bars_set_time_unit (self->bars, self->unit);
  rebuild (self);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  sl_data_table_choose_csv_file (SL_OP_STATS_VIEW (widget)->data_table);
}

static void
focus_filter_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  gtk_widget_grab_focus (GTK_WIDGET (SL_OP_STATS_VIEW (widget)->filter_entry));
}

static void
sl_op_stats_view_dispose (GObject *object)
{
  SlOpStatsView *self = SL_OP_STATS_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_OP_STATS_VIEW);
  g_clear_object (&self->table);
  g_clear_object (&self->settings);
  g_clear_object (&self->name_filter);
  g_clear_pointer (&self->name_set, sl_op_names_free);
  g_clear_pointer (&self->name_set_label, g_free);

  G_OBJECT_CLASS (sl_op_stats_view_parent_class)->dispose (object);
}

static void
sl_op_stats_view_class_init (SlOpStatsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_op_stats_view_dispose;

  /**
   * SlOpStatsView::op-activated:
   * @name: (nullable): the op's name, for a row of an op instance
   * @op_type: its type
   *
   * A row was double-clicked or activated with Enter: show the op on the
   * timeline.
   */
  signals[OP_ACTIVATED] =
    g_signal_new ("op-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * SlOpStatsView::show-in-graph:
   * @name: the selected op's full name
   */
  signals[SHOW_IN_GRAPH] =
    g_signal_new ("show-in-graph", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-op-stats-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, by_type_button);
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, by_instance_button);
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, count_label);
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, bars);
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, data_table);
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, bars_scroller);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, grouping_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, type_bar_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_install_action (widget_class, "ops.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "ops.focus-filter", NULL, focus_filter_action);
  gtk_widget_class_install_action (widget_class, "ops.show-in-graph", NULL, show_in_graph_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "ops.show-in-graph", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "ops.focus-filter", NULL);

  g_type_ensure (SL_TYPE_OP_TYPE_BARS);
  g_type_ensure (SL_TYPE_DATA_TABLE);
}

/* With a link's ops, exactly those; otherwise every row (the table's
 * text filter does the rest). */
static gboolean
in_name_set (gpointer item,
             gpointer user_data)
{
  SlOpStatsView *self = user_data;

  return self->name_set == NULL || sl_op_names_contains (self->name_set, sl_op_row_get_name (item));
}

static void
sl_op_stats_view_init (SlOpStatsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->name_filter = gtk_custom_filter_new (in_name_set, self, NULL);
  sl_data_table_set_extra_filter (self->data_table, GTK_FILTER (self->name_filter));

  self->settings = g_settings_new (APP_ID);
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  sl_op_type_bars_set_time_unit (self->bars, self->unit);
  g_signal_connect_object (self->settings, "changed::time-unit", G_CALLBACK (time_unit_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

GtkWidget *
sl_op_stats_view_new (void)
{
  return g_object_new (SL_TYPE_OP_STATS_VIEW, NULL);
}

/**
 * sl_op_stats_view_set_table:
 * @table: (nullable): the ops of one profile (or rank)
 */
void
sl_op_stats_view_set_table (SlOpStatsView *self,
                            SlOpTable     *table)
{
  g_return_if_fail (SL_IS_OP_STATS_VIEW (self));

  if (!g_set_object (&self->table, table))
    return;

  sl_op_type_bars_set_types (self->bars, table ? sl_op_table_get_types (table) : NULL);
  gtk_widget_set_visible (self->bars_scroller, sl_op_type_bars_get_n_bars (self->bars) > 0);
  rebuild (self);
}

void
sl_op_stats_view_set_by_instance (SlOpStatsView *self,
                                  gboolean       instances)
{
  g_return_if_fail (SL_IS_OP_STATS_VIEW (self));

  gtk_toggle_button_set_active (instances ? self->by_instance_button : self->by_type_button, TRUE);
}

/**
 * sl_op_stats_view_set_filter:
 * @text: (nullable): a piece of an op's name, type or core type
 */
void
sl_op_stats_view_set_filter (SlOpStatsView *self,
                             const char    *text)
{
  g_return_if_fail (SL_IS_OP_STATS_VIEW (self));

  /* A filter set by a link (the graph, the advisor) shows in the entry,
   * where it can be read and cleared; the entry's own change comes back
   * here with the same text and stops. */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), text ? text : "") != 0)
    {
      /* Replacing the text empties the entry first, which it reports at once */
      g_signal_handlers_block_by_func (self->filter_entry, filter_changed_cb, self);
      gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text ? text : "");
      g_signal_handlers_unblock_by_func (self->filter_entry, filter_changed_cb, self);
    }

  /* Editing what a link's ops show in the entry filters by text again. */
  if (self->name_set != NULL && g_strcmp0 (text, self->name_set_label) != 0)
    {
      g_clear_pointer (&self->name_set, sl_op_names_free);
      g_clear_pointer (&self->name_set_label, g_free);
      gtk_filter_changed (GTK_FILTER (self->name_filter), GTK_FILTER_CHANGE_LESS_STRICT);
    }
  sl_data_table_set_filter_text (self->data_table, self->name_set == NULL ? text : NULL);
  update_count (self);
}

/**
 * sl_op_stats_view_get_rows:
 *
 * Returns: (transfer none): the rows as shown: filtered and sorted
 */
GListModel *
sl_op_stats_view_get_rows (SlOpStatsView *self)
{
  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), NULL);
  return sl_data_table_get_rows (self->data_table);
}

guint
sl_op_stats_view_get_n_columns (SlOpStatsView *self)
{
  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), 0);
  return sl_data_table_get_n_columns (self->data_table);
}

const char *
sl_op_stats_view_get_column_title (SlOpStatsView *self,
                                   guint          index)
{
  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), NULL);

  return sl_data_table_get_column_title (self->data_table, index);
}

/**
 * sl_op_stats_view_sort_by:
 * @column_id: "name", "type", "count", "total", "average", ...
 */
void
sl_op_stats_view_sort_by (SlOpStatsView *self,
                          const char    *column_id,
                          gboolean       descending)
{
  g_return_if_fail (SL_IS_OP_STATS_VIEW (self));

  sl_data_table_sort_by (self->data_table, column_id, descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

/**
 * sl_op_stats_view_export_csv_async:
 *
 * Writes the table as shown now to @file as CSV, on a worker thread;
 * @file is replaced only when the whole table is written.
 */
void
sl_op_stats_view_export_csv_async (SlOpStatsView       *self,
                                   GFile               *file,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (SL_IS_OP_STATS_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));

  sl_data_table_export_csv_async (self->data_table, file, cancellable, callback, user_data);
}

/**
 * sl_op_stats_view_export_csv_finish:
 *
 * Returns: %TRUE when the file was written, else an error naming it
 */
gboolean
sl_op_stats_view_export_csv_finish (SlOpStatsView  *self,
                                    GAsyncResult   *result,
                                    GError        **error)
{
  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), FALSE);

  return sl_data_table_export_csv_finish (self->data_table, result, error);
}

/**
 * sl_op_stats_view_show_ops:
 * @names: (array zero-terminated=1): op names, as a link names them
 * @label: what the filter entry shows for them; editing it filters by
 *   text again
 *
 * Lists exactly those ops (by instance), whatever their names have in
 * common or not.
 */
void
sl_op_stats_view_show_ops (SlOpStatsView      *self,
                           const char * const *names,
                           const char         *label)
{
  g_return_if_fail (SL_IS_OP_STATS_VIEW (self));
  g_return_if_fail (label != NULL);

  sl_op_stats_view_set_by_instance (self, TRUE);
  g_clear_pointer (&self->name_set, sl_op_names_free);
  g_free (self->name_set_label);
  self->name_set = sl_op_names_new (names);
  self->name_set_label = g_strdup (label);
  gtk_filter_changed (GTK_FILTER (self->name_filter), GTK_FILTER_CHANGE_DIFFERENT);
  sl_op_stats_view_set_filter (self, label);
}

static guint
find_op (SlOpStatsView *self,
         SlOpNames     *names)
{
  GListModel *rows = sl_data_table_get_rows (self->data_table);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (rows, i);

      if (sl_op_names_contains (names, sl_op_row_get_name (row)))
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/**
 * sl_op_stats_view_select_op:
 * @name: an op's name, as a link names it
 *
 * Selects the op's row (by instance) and scrolls to it, clearing a filter
 * that hides it.
 *
 * Returns: whether the table has the op
 */
gboolean
sl_op_stats_view_select_op (SlOpStatsView *self,
                            const char    *name)
{
  const char *names[] = { name, NULL };
  g_autoptr(SlOpNames) set = sl_op_names_new (names);
  guint position;

  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), FALSE);

  sl_op_stats_view_set_by_instance (self, TRUE);
  if ((position = find_op (self, set)) == GTK_INVALID_LIST_POSITION)
    {
      sl_op_stats_view_set_filter (self, NULL);
      position = find_op (self, set);
    }
  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  sl_data_table_select (self->data_table, position);
  sl_data_table_scroll_to (self->data_table, position);
  return TRUE;
}

/**
 * sl_op_stats_view_get_selected:
 *
 * Returns: (transfer none) (nullable): the selected row
 */
SlOpRow *
sl_op_stats_view_get_selected (SlOpStatsView *self)
{
  SlOpRow *row;

  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), NULL);

  /* The table's model holds it while it is selected. */
  row = sl_data_table_dup_selected (self->data_table);
  if (row != NULL)
    g_object_unref (row);
  return row;
}
