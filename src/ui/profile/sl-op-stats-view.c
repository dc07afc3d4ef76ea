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

#include "sl-column-factory.h"
#include "sl-op-stats-view.h"
#include "sl-op-type-bars.h"
#include "sl-replace-stream.h"
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
  GtkFilterListModel *filtered;
  GtkSortListModel   *sorted;
  GtkCustomFilter    *filter;
  char               *filter_text;   /* casefolded */
  GPtrArray          *shown;         /* const OpColumn *, in column order */
  GSettings          *settings;
  SlTimeUnit          unit;

  GtkToggleButton    *by_type_button;
  GtkToggleButton    *by_instance_button;
  GtkSearchEntry     *filter_entry;
  GtkLabel           *count_label;
  SlOpTypeBars       *bars;
  GtkColumnView      *column_view;
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

typedef struct {
  SlOpStatsView  *view;
  const OpColumn *column;
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

static char *
format_cell (SlOpStatsView  *self,
             const OpColumn *column,
             SlOpRow        *row)
{
  gint64 value;

  switch (column->kind)
    {
    case COLUMN_TEXT:
      return g_strdup (column->text (row));
    case COLUMN_RATIO:
      return g_strdup_printf ("%.2f%%", row_ratio (row));
    case COLUMN_REAL:
      return column->real (row) < 0 ? g_strdup ("—") : g_strdup_printf ("%.6g", column->real (row));
    case COLUMN_COUNT:
    case COLUMN_INT:
      value = column->number (row);
      return value < 0 ? g_strdup ("—") : g_strdup_printf ("%lld", (long long)value);
    case COLUMN_TIME:
    default:
      value = column->number (row);
      return value < 0 ? g_strdup ("—") : sl_time_format_ns (value, self->unit);
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
  GString *str = g_string_new (NULL);
  g_autofree char *total = NULL;
  g_autofree char *average = NULL;

  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), NULL);
  g_return_val_if_fail (SL_IS_OP_ROW (row), NULL);

  total = sl_time_format_ns (sl_op_row_get_total_ns (row), self->unit);
  average = sl_time_format_ns (sl_op_row_get_avg_ns (row), self->unit);

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
  g_string_append_printf (str, _("\n%llu calls, %s in all, %s on average"),
                          (unsigned long long)sl_op_row_get_count (row), total, average);
  if (sl_op_row_get_ratio (row) >= 0)
    /* Translators: what an op's ratio is a share of, the ratio, and how the file defines it */
    g_string_append_printf (str, _("\n%s: %.2f — %s"), sl_op_share_basis_title (share_basis (self)), sl_op_row_get_ratio (row),
                            sl_op_share_basis_description (share_basis (self)));
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
  g_autofree char *tooltip = sl_op_stats_view_dup_tooltip (ref->view, row);

  gtk_label_set_text (GTK_LABEL (label), text ? text : "");
  gtk_widget_set_tooltip_text (label, tooltip);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const OpColumn *column = user_data;
  SlOpRow *ra = (SlOpRow *)a;
  SlOpRow *rb = (SlOpRow *)b;
  double da, db;
  gint64 ia, ib;

  switch (column->kind)
    {
    case COLUMN_TEXT:
      return g_strcmp0 (column->text (ra), column->text (rb));
    case COLUMN_RATIO:
      da = row_ratio (ra);
      db = row_ratio (rb);
      return da < db ? -1 : da > db;
    case COLUMN_REAL:
      da = column->real (ra);
      db = column->real (rb);
      return da < db ? -1 : da > db;
    default:
      ia = column->number (ra);
      ib = column->number (rb);
      return ia < ib ? -1 : ia > ib;
    }
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
remove_columns (SlOpStatsView *self)
{
  GListModel *existing = gtk_column_view_get_columns (self->column_view);

  while (g_list_model_get_n_items (existing) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (existing, 0);

      gtk_column_view_remove_column (self->column_view, column);
    }
  g_ptr_array_set_size (self->shown, 0);
}

static GtkColumnViewColumn *
create_column (SlOpStatsView  *self,
               const OpColumn *def)
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

  column = gtk_column_view_column_new (g_str_equal (def->id, "ratio") ? sl_op_share_basis_title (share_basis (self))
                                                                   : _(def->title), factory);
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, (gpointer)def, NULL));
  gtk_column_view_column_set_sorter (column, sorter);
  g_object_unref (sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  if (def->kind == COLUMN_TEXT)
    {
      gtk_column_view_column_set_expand (column, g_str_equal (def->id, "name") ||
                                                 (g_str_equal (def->id, "type") && !by_instance (self)));
      gtk_column_view_column_set_fixed_width (column, g_str_equal (def->id, "name") ? 320 : -1);
    }
  g_object_set_data (G_OBJECT (column), "sl-column-id", (gpointer)def->id);
  return column;
}

static GtkColumnViewColumn *
find_column (SlOpStatsView *self,
             const char    *id)
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

static void
update_count (SlOpStatsView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  guint all = self->table ? g_list_model_get_n_items (by_instance (self) ? sl_op_table_get_instances (self->table)
                                                                           : sl_op_table_get_types (self->table))
                          : 0;
  g_autofree char *text = NULL;

  if (shown == all)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row", "%u rows", all), all);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u row", "%u of %u rows", all), shown, all);
  gtk_label_set_label (self->count_label, text);
}

static void
rebuild (SlOpStatsView *self)
{
  GListModel *rows;
  guint mode = by_instance (self) ? FOR_INSTANCES : FOR_TYPES;

  remove_columns (self);
  gtk_stack_set_visible_child_name (self->content_stack,
                                    self->table && !sl_op_table_is_empty (self->table) ? "table" : "empty");
  if (self->table == NULL)
    {
      gtk_filter_list_model_set_model (self->filtered, NULL);
      update_count (self);
      return;
    }

  rows = by_instance (self) ? sl_op_table_get_instances (self->table) : sl_op_table_get_types (self->table);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = NULL;

      if (!(columns[i].flags & mode) || !column_has_values (&columns[i], rows))
        continue;

      column = create_column (self, &columns[i]);
      gtk_column_view_append_column (self->column_view, column);
      g_ptr_array_add (self->shown, (gpointer)&columns[i]);
    }

  gtk_filter_list_model_set_model (self->filtered, rows);
  gtk_column_view_sort_by_column (self->column_view, find_column (self, "total"), GTK_SORT_DESCENDING);
  update_count (self);
}

static gboolean
row_matches (gpointer item,
             gpointer user_data)
{
  SlOpStatsView *self = user_data;
  const char *fields[] = { sl_op_row_get_name (item), sl_op_row_get_op_type (item), sl_op_row_get_core_type (item) };

  if (self->filter_text == NULL)
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *folded = NULL;

      if (fields[i] == NULL)
        continue;
      folded = g_utf8_casefold (fields[i], -1);
      if (strstr (folded, self->filter_text) != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
filter_changed_cb (SlOpStatsView *self)
{
  sl_op_stats_view_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

static void
grouping_toggled_cb (SlOpStatsView *self)
{
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
  g_autoptr(SlOpRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

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
  GtkSelectionModel *selection = gtk_column_view_get_model (self->column_view);
  guint position = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (selection));
  g_autoptr(SlOpRow) row = NULL;
  const char *name;

  if (position != GTK_INVALID_LIST_POSITION)
    row = g_list_model_get_item (G_LIST_MODEL (selection), position);
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
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  SlOpStatsView *self = SL_OP_STATS_VIEW (source);
  g_autoptr(GError) error = NULL;

  if (!sl_op_stats_view_export_csv_finish (self, result, &error))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", error->message);
}

static void
export_chosen_cb (GtkNativeDialog *dialog,
                  int              response,
                  SlOpStatsView   *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) != NULL)
    sl_op_stats_view_export_csv_async (self, file, NULL, export_done_cb, NULL);

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  SlOpStatsView *self = SL_OP_STATS_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Export Op Statistics"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), by_instance (self) ? "ops.csv" : "op-types.csv");
  g_signal_connect_object (dialog, "response", G_CALLBACK (export_chosen_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
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
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->filter_text, g_free);
  g_clear_pointer (&self->shown, g_ptr_array_unref);

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
  gtk_widget_class_bind_template_child (widget_class, SlOpStatsView, column_view);
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
}

static void
sl_op_stats_view_init (SlOpStatsView *self)
{
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->shown = g_ptr_array_new ();
  self->filter = gtk_custom_filter_new (row_matches, self, NULL);
  self->filtered = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

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
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text ? text : "");

  g_clear_pointer (&self->filter_text, g_free);
  if (text != NULL && text[0] != '\0')
    self->filter_text = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
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
  return G_LIST_MODEL (self->sorted);
}

guint
sl_op_stats_view_get_n_columns (SlOpStatsView *self)
{
  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), 0);
  return self->shown->len;
}

const char *
sl_op_stats_view_get_column_title (SlOpStatsView *self,
                                   guint          index)
{
  g_return_val_if_fail (SL_IS_OP_STATS_VIEW (self), NULL);
  g_return_val_if_fail (index < self->shown->len, NULL);

  if (g_str_equal (((const OpColumn *)g_ptr_array_index (self->shown, index))->id, "ratio"))
    return sl_op_share_basis_title (share_basis (self));
  return _(((const OpColumn *)g_ptr_array_index (self->shown, index))->title);
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
  GtkColumnViewColumn *column;

  g_return_if_fail (SL_IS_OP_STATS_VIEW (self));

  if ((column = find_column (self, column_id)) != NULL)
    gtk_column_view_sort_by_column (self->column_view, column, descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

static void
append_csv_field (GString    *line,
                  const char *text)
{
  if (line->len > 0)
    g_string_append_c (line, ',');
  if (text == NULL)
    return;
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (line, text);
      return;
    }

  g_string_append_c (line, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (line, '"');
      g_string_append_c (line, *p);
    }
  g_string_append_c (line, '"');
}

/* The rows shown, in their order, with the columns shown. Times are in
 * microseconds whatever the display unit, so spreadsheets can sum them. */
static GBytes *
format_csv (SlOpStatsView *self)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GString) line = g_string_new (NULL);
  GListModel *rows;

  for (guint c = 0; c < self->shown->len; c++)
    {
      const OpColumn *column = g_ptr_array_index (self->shown, c);
      g_autofree char *title = column->kind == COLUMN_TIME ? g_strdup_printf ("%s (us)", column->id)
                                                           : g_strdup (column->id);

      append_csv_field (line, title);
    }
  g_string_append_printf (out, "%s\n", line->str);

  rows = G_LIST_MODEL (self->sorted);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (rows, i);

      g_string_truncate (line, 0);
      for (guint c = 0; c < self->shown->len; c++)
        {
          const OpColumn *column = g_ptr_array_index (self->shown, c);
          g_autofree char *text = NULL;
          gint64 value;

          switch (column->kind)
            {
            case COLUMN_TEXT:
              text = g_strdup (column->text (row));
              break;
            case COLUMN_RATIO:
              text = g_strdup_printf ("%.4f", row_ratio (row));
              break;
            case COLUMN_REAL:
              text = column->real (row) < 0 ? g_strdup ("") : g_strdup_printf ("%.9g", column->real (row));
              break;
            case COLUMN_TIME:
              value = column->number (row);
              text = value < 0 ? g_strdup ("") : g_strdup_printf ("%.3f", value / 1000.0);
              break;
            default:
              value = column->number (row);
              text = value < 0 ? g_strdup ("") : g_strdup_printf ("%lld", (long long)value);
              break;
            }
          /* Keep an empty first field visible as a field. */
          if (c == 0 && (text == NULL || text[0] == '\0'))
            g_string_append (line, "\"\"");
          else
            append_csv_field (line, text);
        }
      g_string_append_printf (out, "%s\n", line->str);
    }

  return g_string_free_to_bytes (out);
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
  g_autoptr(GBytes) csv = NULL;

  g_return_if_fail (SL_IS_OP_STATS_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));

  csv = format_csv (self);
  sl_replace_file_contents_async (file, csv, self, cancellable, callback, user_data);
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
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return sl_replace_file_contents_finish (result, error);
}
