/* sl-memory-view.c
 *
 * The chart and four tables of one rank's memory: who holds memory at
 * the peak, every operator allocation, the components at the peak, the
 * modules' reserved memory. Everything is computed by the loader's
 * worker; setting a rank only fills list stores. Times in the tables are
 * from the first memory sample, as on the chart's axis.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-data-table.h"
#include "sl-document.h"
#include "sl-memory-chart.h"
#include "sl-memory-row.h"
#include "sl-memory-view.h"
#include "sl-time-format.h"
#include "sl-tooltip.h"

/* Around a clicked time, so the timeline shows what ran then. */
#define CLICK_WINDOW_FRACTION 0.02

typedef struct {
  const char *title;
  gboolean    numeric;
  gboolean    expand;
} Column;

typedef struct {
  SlDataTable        *view;
  GListStore         *store;
} Table;

typedef enum {
  TABLE_HOLDERS,
  TABLE_ALLOCATIONS,
  TABLE_COMPONENTS,
  TABLE_MODULES,
  N_TABLES
} TableId;

struct _SlMemoryView
{
  GtkBox           parent_instance;

  SlMemoryProfile *memory;
  gboolean         empty;
  gint64           origin_ns;
  Table            tables[N_TABLES];

  GtkStack        *stack;
  GtkLabel        *peak_label;
  SlMemoryChart   *chart;
  GtkSearchEntry  *filter_entry;
  GtkLabel        *count_label;
  GtkStack        *tables_stack;
  GtkDropDown     *tables_dropdown;
  SlDataTable     *holders_view;
  SlDataTable     *allocations_view;
  SlDataTable     *components_view;
  SlDataTable     *modules_view;
  AdwStatusPage   *empty_page;
};

G_DEFINE_FINAL_TYPE (SlMemoryView, sl_memory_view, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_EMPTY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_empty (SlMemoryView *self,
           gboolean      empty)
{
  if (self->empty == empty)
    return;
  self->empty = empty;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMPTY]);
}

enum {
  SHOW_TIME,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const Column holder_columns[] = {
  { N_("Operator"), FALSE, TRUE },
  { N_("Size"), TRUE, FALSE },
  { N_("Share of Peak"), TRUE, FALSE },
  { N_("Allocated"), TRUE, FALSE },
  { N_("Released"), TRUE, FALSE },
  { N_("Stream"), FALSE, FALSE },
};

static const Column allocation_columns[] = {
  { N_("Operator"), FALSE, TRUE },
  { N_("Size"), TRUE, FALSE },
  { N_("Allocated"), TRUE, FALSE },
  { N_("Released"), TRUE, FALSE },
  { N_("Duration"), TRUE, FALSE },
  { N_("Allocated Total"), TRUE, FALSE },
  { N_("Stream"), FALSE, FALSE },
};

static const Column component_columns[] = {
  { N_("Component"), FALSE, TRUE },
  { N_("Allocated at Peak"), TRUE, FALSE },
  { N_("Share of Peak"), TRUE, FALSE },
  { N_("Reserved at Peak"), TRUE, FALSE },
  { N_("Max Allocated"), TRUE, FALSE },
  { N_("Max Reserved"), TRUE, FALSE },
};

static const Column module_columns[] = {
  { N_("Module"), FALSE, TRUE },
  { N_("Max Reserved"), TRUE, FALSE },
  { N_("Last Reserved"), TRUE, FALSE },
  { N_("Samples"), TRUE, FALSE },
};

/* ------------------------------------------------------------------ */
/* Tables */

/* A row holds the text and the sort key of each of its cells, made once:
 * the column's number is its column. */
static char *
cell_text (gpointer item,
           gpointer user_data)
{
  return g_strdup (sl_memory_row_get_text (item, GPOINTER_TO_UINT (user_data)));
}

static double
cell_key (gpointer item,
          gpointer user_data)
{
  return sl_memory_row_get_key (item, GPOINTER_TO_UINT (user_data));
}

/* An operator's link: the Operators page at its row. */
static char *
op_link_text (gpointer item,
              gpointer user_data)
{
  return g_strdup (_("Operators"));
}

static char *
op_link_tooltip (gpointer item,
                 gpointer user_data)
{
  /* Translators: an operator's link in the memory tables; %s is its name */
  return g_strdup_printf (_("Select “%s” in the Operators page"), sl_memory_row_get_name (item));
}

static char *
op_link_csv (gpointer item,
             gpointer user_data)
{
  return g_strdup (sl_memory_row_get_name (item));
}

static GVariant *
op_link_target (gpointer item,
                gpointer user_data)
{
  const char *name = sl_memory_row_get_name (item);

  return name != NULL && name[0] != '\0' ? g_variant_new_string (name) : NULL;
}

static void
add_op_link_column (SlDataTable *view)
{
  sl_data_table_append_column (view, &(SlDataColumn) {
    .id = "operators-link",
    /* Translators: a column of links from the memory tables to the Operators page */
    .title = _("Show in"),
    .flags = SL_DATA_COLUMN_BUTTON,
    .text = op_link_text,
    .tooltip = op_link_tooltip,
    .csv = op_link_csv,
    .csv_title = "operator",
    .action = "memory.show-op",
    .action_target = op_link_target,
  }, NULL, NULL);
}

static void
setup_table (Table        *table,
             SlDataTable  *view,
             const Column *columns,
             guint         n_columns,
             const char   *file_name)
{
  table->view = view;
  table->store = g_list_store_new (SL_TYPE_MEMORY_ROW);

  for (guint i = 0; i < n_columns; i++)
    {
      SlDataColumn column = {
        .id = columns[i].title,
        .title = _(columns[i].title),
        .text = cell_text,
        .number = columns[i].numeric ? cell_key : NULL,
      };

      /* The first column names the row: what the filter looks at, and
       * long C++ or scope names cut in the middle. */
      if (columns[i].numeric)
        column.flags = SL_DATA_COLUMN_NUMERIC;
      else if (i == 0)
        column.flags = SL_DATA_COLUMN_SEARCHABLE | SL_DATA_COLUMN_ELLIPSIZE_MIDDLE;
      if (columns[i].expand)
        column.flags |= SL_DATA_COLUMN_EXPAND;
      sl_data_table_append_column (view, &column, GUINT_TO_POINTER (i), NULL);
    }
  sl_data_table_set_model (view, G_LIST_MODEL (table->store));
  sl_data_table_set_export_title (view, _("Export Memory Table"), file_name);
}

static void
clear_table (Table *table)
{
  g_clear_object (&table->store);
}

static void
sort_by (Table       *table,
         guint        column,
         GtkSortType  order)
{
  sl_data_table_sort_by (table->view, sl_data_table_get_column_id (table->view, column), order);
}

/* ------------------------------------------------------------------ */
/* Cells */

static char *
format_mb (double mb)
{
  if (!isfinite (mb))
    return g_strdup ("–");
  /* Translators: a size in MB (2^20 bytes) */
  return g_strdup_printf (_("%.2f MB"), mb);
}

static char *
format_size_kb (double kb)
{
  if (!isfinite (kb))
    return g_strdup ("–");
  if (kb >= 1024)
    return format_mb (kb / 1024);
  /* Translators: a size in KB (2^10 bytes) */
  return g_strdup_printf (_("%.1f KB"), kb);
}

static char *
format_share (double share)
{
  if (!isfinite (share))
    return g_strdup ("–");
  return g_strdup_printf ("%.1f%%", 100 * share);
}

static char *
format_time (SlMemoryView *self,
             gint64        ns)
{
  if (ns < 0)
    return g_strdup (_("not released"));
  return sl_time_format_ns (ns - self->origin_ns, SL_TIME_UNIT_AUTO);
}

static double
time_key (SlMemoryView *self,
          gint64        ns)
{
  return ns < 0 ? NAN : (double)(ns - self->origin_ns);
}

static SlMemoryRow *
holder_row (SlMemoryView         *self,
            const SlMemoryHolder *holder)
{
  const SlMemoryAllocation *a = sl_memory_profile_get_allocation (self->memory, holder->allocation);
  SlMemoryRow *row = sl_memory_row_new (a->name, holder->allocation);

  sl_memory_row_set_cell (row, 0, g_strdup (a->name), NAN);
  sl_memory_row_set_cell (row, 1, format_size_kb (a->size_kb), a->size_kb);
  sl_memory_row_set_cell (row, 2, format_share (holder->share), holder->share);
  sl_memory_row_set_cell (row, 3, format_time (self, a->allocation_ns), time_key (self, a->allocation_ns));
  sl_memory_row_set_cell (row, 4, format_time (self, a->release_ns), time_key (self, a->release_ns));
  sl_memory_row_set_cell (row, 5, g_strdup (a->stream), NAN);
  return row;
}

static SlMemoryRow *
allocation_row (SlMemoryView *self,
                guint         index)
{
  const SlMemoryAllocation *a = sl_memory_profile_get_allocation (self->memory, index);
  SlMemoryRow *row = sl_memory_row_new (a->name, index);

  sl_memory_row_set_cell (row, 0, g_strdup (a->name), NAN);
  sl_memory_row_set_cell (row, 1, format_size_kb (a->size_kb), a->size_kb);
  sl_memory_row_set_cell (row, 2, format_time (self, a->allocation_ns), time_key (self, a->allocation_ns));
  sl_memory_row_set_cell (row, 3, format_time (self, a->release_ns), time_key (self, a->release_ns));
  sl_memory_row_set_cell (row, 4, a->duration_ns >= 0 ? sl_time_format_ns (a->duration_ns, SL_TIME_UNIT_AUTO)
                                                      : g_strdup ("–"),
                          a->duration_ns >= 0 ? (double)a->duration_ns : NAN);
  sl_memory_row_set_cell (row, 5, format_mb (a->allocation_allocated_mb), a->allocation_allocated_mb);
  sl_memory_row_set_cell (row, 6, g_strdup (a->stream), NAN);
  return row;
}

static SlMemoryRow *
component_row (SlMemoryView        *self,
               guint                index,
               const SlMemoryShare *share)
{
  const SlMemoryCurve *curve = sl_memory_profile_get_curve (self->memory, index);
  SlMemoryRow *row = sl_memory_row_new (curve->name, index);

  sl_memory_row_set_cell (row, 0, g_strdup (curve->name), NAN);
  sl_memory_row_set_cell (row, 1, format_mb (share ? share->allocated_mb : NAN), share ? share->allocated_mb : NAN);
  sl_memory_row_set_cell (row, 2, format_share (share ? share->share : NAN), share ? share->share : NAN);
  sl_memory_row_set_cell (row, 3, format_mb (share ? share->reserved_mb : NAN), share ? share->reserved_mb : NAN);
  sl_memory_row_set_cell (row, 4, format_mb (curve->max_allocated_mb), curve->max_allocated_mb);
  sl_memory_row_set_cell (row, 5, format_mb (curve->max_reserved_mb), curve->max_reserved_mb);
  return row;
}

static SlMemoryRow *
module_row (SlMemoryView *self,
            guint         index)
{
  const SlMemoryCurve *curve = sl_memory_profile_get_module (self->memory, index);
  SlMemoryRow *row = sl_memory_row_new (curve->name, index);
  guint n = curve->ts_ns->len;
  double last = n > 0 ? g_array_index (curve->reserved_mb, double, n - 1) : NAN;

  sl_memory_row_set_cell (row, 0, g_strdup (curve->name), NAN);
  sl_memory_row_set_cell (row, 1, format_mb (curve->max_reserved_mb), curve->max_reserved_mb);
  sl_memory_row_set_cell (row, 2, format_mb (last), last);
  sl_memory_row_set_cell (row, 3, g_strdup_printf ("%u", n), n);
  return row;
}

static void
fill_store (GListStore *store,
            GPtrArray  *rows)
{
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), rows->pdata, rows->len);
}

static void
fill_tables (SlMemoryView *self)
{
  const SlMemoryPeak *peak = sl_memory_profile_get_peak (self->memory);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; peak->found && i < peak->holders->len; i++)
    g_ptr_array_add (rows, holder_row (self, &g_array_index (peak->holders, SlMemoryHolder, i)));
  fill_store (self->tables[TABLE_HOLDERS].store, rows);

  g_ptr_array_set_size (rows, 0);
  for (guint i = 0; i < sl_memory_profile_get_n_allocations (self->memory); i++)
    g_ptr_array_add (rows, allocation_row (self, i));
  fill_store (self->tables[TABLE_ALLOCATIONS].store, rows);

  g_ptr_array_set_size (rows, 0);
  for (guint i = 0; i < sl_memory_profile_get_n_curves (self->memory); i++)
    g_ptr_array_add (rows, component_row (self, i, peak->found && i < peak->shares->len
                                                     ? &g_array_index (peak->shares, SlMemoryShare, i) : NULL));
  fill_store (self->tables[TABLE_COMPONENTS].store, rows);

  g_ptr_array_set_size (rows, 0);
  for (guint i = 0; i < sl_memory_profile_get_n_modules (self->memory); i++)
    g_ptr_array_add (rows, module_row (self, i));
  fill_store (self->tables[TABLE_MODULES].store, rows);
}

static void
clear_stores (SlMemoryView *self)
{
  for (guint i = 0; i < N_TABLES; i++)
    g_list_store_remove_all (self->tables[i].store);
}

/* ------------------------------------------------------------------ */
/* The rank */

static void
fill_peak_label (SlMemoryView *self)
{
  const SlMemoryPeak *peak = sl_memory_profile_get_peak (self->memory);
  g_autofree char *when = NULL;
  g_autofree char *holders = NULL;
  g_autofree char *text = NULL;

  if (!peak->found)
    {
      gtk_label_set_label (self->peak_label,
                           _("No allocated totals (memory_record.csv or MEMORY_RECORD): the peak cannot be told. "
                             "Operator allocations and modules are below."));
      sl_widget_set_long_tooltip (GTK_WIDGET (self->peak_label), gtk_label_get_label (self->peak_label));
      return;
    }
  when = sl_time_format_ns (peak->time_ns - self->origin_ns, SL_TIME_UNIT_AUTO);
  holders = sl_count_format (peak->holders->len);
  /* Translators: the peak's size, its component, its time from the start, then the operators holding memory there */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Peak: %.2f MB allocated by %s at %s. %s operator holds %.2f MB there.",
                                       "Peak: %.2f MB allocated by %s at %s. %s operators hold %.2f MB there.",
                                       peak->holders->len),
                          peak->allocated_mb, peak->component, when, holders, peak->held_mb);
  gtk_label_set_label (self->peak_label, text);
  sl_widget_set_long_tooltip (GTK_WIDGET (self->peak_label), text);
}

static void
show_empty (SlMemoryView *self,
            const char   *dir)
{
  g_autofree char *description = NULL;

  /* Translators: %s is the folder that was searched */
  description = g_strdup_printf (_("The memory view needs memory_record.csv, operator_memory.csv or npu_module_mem.csv "
                                   "in the ASCEND_PROFILER_OUTPUT folder of a torch_npu or MindSpore profile (written "
                                   "with profile_memory=True), or the MEMORY_RECORD, OP_MEMORY or NPU_MODULE_MEM "
                                   "tables of its SQLite export. Looked in %s."),
                                 dir != NULL ? dir : "");
  adw_status_page_set_description (self->empty_page, description);
  set_empty (self, TRUE);
}

static void update_count (SlMemoryView *self);

/**
 * sl_memory_view_set_memory:
 * @memory: (nullable): the rank's memory, finished
 * @dir: the folder the rank was read from, named when there is no memory
 */
void
sl_memory_view_set_memory (SlMemoryView    *self,
                           SlMemoryProfile *memory,
                           const char      *dir)
{
  g_return_if_fail (SL_IS_MEMORY_VIEW (self));
  g_return_if_fail (memory == NULL || SL_IS_MEMORY_PROFILE (memory));

  g_set_object (&self->memory, memory);
  clear_stores (self);
  sl_memory_chart_set_memory (self->chart, memory != NULL && !sl_memory_profile_is_empty (memory) ? memory : NULL);
  if (memory == NULL || sl_memory_profile_is_empty (memory))
    {
      show_empty (self, dir);
      return;
    }

  self->origin_ns = 0;
  sl_memory_profile_get_time_range (memory, &self->origin_ns, NULL);
  fill_peak_label (self);
  fill_tables (self);
  set_empty (self, FALSE);
  gtk_stack_set_visible_child_name (self->tables_stack,
                                    sl_memory_profile_get_peak (memory)->holders->len > 0 ? "holders"
                                    : sl_memory_profile_get_n_allocations (memory) > 0 ? "allocations"
                                    : sl_memory_profile_get_n_curves (memory) > 0 ? "components" : "modules");
  update_count (self);
}

/* ------------------------------------------------------------------ */
/* Callbacks */

static Table *
visible_table (SlMemoryView *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->tables_stack);
  static const char *names[N_TABLES] = { "holders", "allocations", "components", "modules" };

  for (guint i = 0; i < N_TABLES; i++)
    if (g_strcmp0 (name, names[i]) == 0)
      return &self->tables[i];
  return &self->tables[TABLE_HOLDERS];
}

static void
update_count (SlMemoryView *self)
{
  Table *table = visible_table (self);
  guint shown = g_list_model_get_n_items (sl_data_table_get_rows (table->view));
  guint all = g_list_model_get_n_items (G_LIST_MODEL (table->store));
  g_autofree char *shown_text = sl_count_format (shown);
  g_autofree char *all_text = sl_count_format (all);
  g_autofree char *text = NULL;

  /* The count says what each table's rows are, their digits grouped. */
  switch (table - self->tables)
    {
    case TABLE_HOLDERS:
      text = shown == all
        ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s operator", "%s operators", all), all_text)
        : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s operator", "%s of %s operators", all),
                           shown_text, all_text);
      break;
    case TABLE_ALLOCATIONS:
      text = shown == all
        ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s allocation", "%s allocations", all), all_text)
        : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s allocation", "%s of %s allocations", all),
                           shown_text, all_text);
      break;
    case TABLE_COMPONENTS:
      text = shown == all
        ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s component", "%s components", all), all_text)
        : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s component", "%s of %s components", all),
                           shown_text, all_text);
      break;
    default:
      text = shown == all
        ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s module", "%s modules", all), all_text)
        : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s module", "%s of %s modules", all),
                           shown_text, all_text);
      break;
    }
  gtk_label_set_label (self->count_label, text);
}

static void
filter_changed_cb (SlMemoryView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));

  for (guint i = 0; i < N_TABLES; i++)
    sl_data_table_set_filter_text (self->tables[i].view, text);
  update_count (self);
}

static void
show_time (SlMemoryView *self,
           gint64        start_ns,
           gint64        end_ns)
{
  g_signal_emit (self, signals[SHOW_TIME], 0, start_ns, end_ns);
}

static void
chart_time_activated_cb (SlMemoryView *self,
                         gint64        time_ns)
{
  gint64 start = 0, end = 0, half;

  sl_memory_profile_get_time_range (self->memory, &start, &end);
  half = MAX (1000, (gint64)((end - start) * CLICK_WINDOW_FRACTION / 2));
  show_time (self, time_ns - half, time_ns + half);
}

static void
show_allocation (SlMemoryView *self,
                 SlDataTable  *view,
                 guint         position)
{
  GListModel *model = sl_data_table_get_rows (view);
  g_autoptr(SlMemoryRow) row = g_list_model_get_item (model, position);
  const SlMemoryAllocation *a;

  if (row == NULL)
    return;
  a = sl_memory_profile_get_allocation (self->memory, sl_memory_row_get_index (row));
  show_time (self, a->allocation_ns, MAX (sl_memory_allocation_end_ns (self->memory, a), a->allocation_ns + 1000));
}

static void
holder_activated_cb (SlMemoryView *self,
                     guint         position)
{
  show_allocation (self, self->holders_view, position);
}

static void
allocation_activated_cb (SlMemoryView *self,
                         guint         position)
{
  show_allocation (self, self->allocations_view, position);
}

/**
 * sl_memory_view_show_op:
 * @name: an operator as the memory tables name it
 *
 * Asks the document the view is in to show @name as its Operators page
 * shows ops: the row selected and scrolled to (the ("op", name) request).
 *
 * Returns: whether the view is in a document to ask
 */
gboolean
sl_memory_view_show_op (SlMemoryView *self,
                        const char   *name)
{
  GtkWidget *document;

  g_return_val_if_fail (SL_IS_MEMORY_VIEW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if ((document = gtk_widget_get_ancestor (GTK_WIDGET (self), SL_TYPE_DOCUMENT)) == NULL)
    return FALSE;
  sl_document_request (SL_DOCUMENT (document), g_variant_new ("(ss)", "op", name));
  return TRUE;
}

static void
show_op_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  sl_memory_view_show_op (SL_MEMORY_VIEW (widget), g_variant_get_string (param, NULL));
}

/* ------------------------------------------------------------------ */
/* Type */

static void
sl_memory_view_dispose (GObject *object)
{
  SlMemoryView *self = SL_MEMORY_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_MEMORY_VIEW);
  for (guint i = 0; i < N_TABLES; i++)
    clear_table (&self->tables[i]);
  g_clear_object (&self->memory);
  G_OBJECT_CLASS (sl_memory_view_parent_class)->dispose (object);
}

static void
sl_memory_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_EMPTY:
      g_value_set_boolean (value, SL_MEMORY_VIEW (object)->empty);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The stack shows whether there is anything: nothing reads it back */
static char *
empty_child_name (gpointer instance,
                  gboolean empty)
{
  return g_strdup (empty ? "empty" : "data");
}

/* The drop-down a narrow document shows instead of the table switcher:
 * the tables' titles, the one shown selected. */
static void
tables_dropdown_selected_cb (SlMemoryView *self)
{
  g_autoptr(GtkSelectionModel) pages = gtk_stack_get_pages (self->tables_stack);
  guint selected = gtk_drop_down_get_selected (self->tables_dropdown);
  g_autoptr(GObject) page = NULL;

  if (selected == GTK_INVALID_LIST_POSITION || selected >= g_list_model_get_n_items (G_LIST_MODEL (pages)))
    return;
  page = g_list_model_get_item (G_LIST_MODEL (pages), selected);
  gtk_stack_set_visible_child (self->tables_stack, gtk_stack_page_get_child (GTK_STACK_PAGE (page)));
}

static void
tables_stack_changed_cb (SlMemoryView *self)
{
  g_autoptr(GtkSelectionModel) pages = gtk_stack_get_pages (self->tables_stack);
  GtkWidget *visible = gtk_stack_get_visible_child (self->tables_stack);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (pages)); i++)
    {
      g_autoptr(GObject) page = g_list_model_get_item (G_LIST_MODEL (pages), i);

      if (gtk_stack_page_get_child (GTK_STACK_PAGE (page)) == visible && gtk_drop_down_get_selected (self->tables_dropdown) != i)
        gtk_drop_down_set_selected (self->tables_dropdown, i);
    }
}

static void
setup_tables_dropdown (SlMemoryView *self)
{
  g_autoptr(GtkSelectionModel) pages = gtk_stack_get_pages (self->tables_stack);
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (pages)); i++)
    {
      g_autoptr(GObject) page = g_list_model_get_item (G_LIST_MODEL (pages), i);

      gtk_string_list_append (titles, gtk_stack_page_get_title (GTK_STACK_PAGE (page)));
    }
  gtk_drop_down_set_model (self->tables_dropdown, G_LIST_MODEL (titles));
  tables_stack_changed_cb (self);
  g_signal_connect_object (self->tables_dropdown, "notify::selected", G_CALLBACK (tables_dropdown_selected_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tables_stack, "notify::visible-child", G_CALLBACK (tables_stack_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

static void
sl_memory_view_class_init (SlMemoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_memory_view_dispose;
  object_class->get_property = sl_memory_view_get_property;

  /**
   * SlMemoryView:empty:
   *
   * Whether the profile has no memory records to show.
   */
  properties[PROP_EMPTY] =
    g_param_spec_boolean ("empty", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlMemoryView::show-time:
   * @start_ns: Unix time, ns
   * @end_ns: Unix time, ns
   *
   * A time of the chart or an allocation's lifetime was chosen, to be
   * shown on the timeline.
   */
  signals[SHOW_TIME] = g_signal_new ("show-time", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                     NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);

  g_type_ensure (SL_TYPE_MEMORY_CHART);
  g_type_ensure (SL_TYPE_DATA_TABLE);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-memory-view.ui");
  gtk_widget_class_bind_template_callback (widget_class, empty_child_name);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, stack);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, peak_label);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, chart);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, count_label);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, tables_stack);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, tables_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, holders_view);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, allocations_view);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, components_view);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, modules_view);
  gtk_widget_class_bind_template_child (widget_class, SlMemoryView, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, chart_time_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, update_count);
  gtk_widget_class_bind_template_callback (widget_class, holder_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, allocation_activated_cb);
  gtk_widget_class_install_action (widget_class, "memory.show-op", "s", show_op_action);
}

static void
sl_memory_view_init (SlMemoryView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  setup_tables_dropdown (self);

  setup_table (&self->tables[TABLE_HOLDERS], self->holders_view, holder_columns, G_N_ELEMENTS (holder_columns),
               "memory-at-peak.csv");
  setup_table (&self->tables[TABLE_ALLOCATIONS], self->allocations_view, allocation_columns,
               G_N_ELEMENTS (allocation_columns), "memory-allocations.csv");
  /* Operators link to their row in the Operators page. */
  add_op_link_column (self->holders_view);
  add_op_link_column (self->allocations_view);
  setup_table (&self->tables[TABLE_COMPONENTS], self->components_view, component_columns,
               G_N_ELEMENTS (component_columns), "memory-components.csv");
  setup_table (&self->tables[TABLE_MODULES], self->modules_view, module_columns, G_N_ELEMENTS (module_columns),
               "memory-modules.csv");
  sort_by (&self->tables[TABLE_ALLOCATIONS], 2, GTK_SORT_ASCENDING);
  sort_by (&self->tables[TABLE_MODULES], 1, GTK_SORT_DESCENDING);
}

GtkWidget *
sl_memory_view_new (void)
{
  return g_object_new (SL_TYPE_MEMORY_VIEW, NULL);
}

SlMemoryChart *
sl_memory_view_get_chart (SlMemoryView *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_VIEW (self), NULL);
  return self->chart;
}

/**
 * sl_memory_view_get_empty:
 *
 * Returns: whether the profile has no memory records to show
 */
gboolean
sl_memory_view_get_empty (SlMemoryView *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_VIEW (self), FALSE);
  return self->empty;
}

const char *
sl_memory_view_get_empty_description (SlMemoryView *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_VIEW (self), NULL);
  return adw_status_page_get_description (self->empty_page);
}

const char *
sl_memory_view_get_peak_text (SlMemoryView *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_VIEW (self), NULL);
  return gtk_label_get_label (self->peak_label);
}

/**
 * sl_memory_view_show_table:
 * @name: "holders", "allocations", "components" or "modules"
 */
void
sl_memory_view_show_table (SlMemoryView *self,
                           const char   *name)
{
  g_return_if_fail (SL_IS_MEMORY_VIEW (self));
  gtk_stack_set_visible_child_name (self->tables_stack, name);
}

/**
 * sl_memory_view_get_table:
 *
 * Returns: (transfer none): the rows of the table shown, filtered and
 *   sorted as on screen (SlMemoryRow)
 */
GListModel *
sl_memory_view_get_table (SlMemoryView *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_VIEW (self), NULL);
  return sl_data_table_get_rows (visible_table (self)->view);
}

GtkColumnView *
sl_memory_view_get_column_view (SlMemoryView *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_VIEW (self), NULL);
  return sl_data_table_get_column_view (visible_table (self)->view);
}

void
sl_memory_view_set_filter (SlMemoryView *self,
                           const char   *text)
{
  g_return_if_fail (SL_IS_MEMORY_VIEW (self));
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text != NULL ? text : "");
  /* The entry reports a change after a delay; tests and links want it now. */
  filter_changed_cb (self);
}

const char *
sl_memory_view_get_count_text (SlMemoryView *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_VIEW (self), NULL);
  return gtk_label_get_label (self->count_label);
}
