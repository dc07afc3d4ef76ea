/* sl-comm-view.c
 *
 * The table lists the rank's ops with their time split, the wait and
 * synchronisation ratios and one bandwidth column per link type the rank
 * used; the totals row of the ops shown (filtered) stays last whatever
 * the sort, because it sits after the sorted model in a flattened list.
 * Below it the selected op (or the totals) is broken down by link type
 * with its transfer sizes, and beside it communication_matrix.json's
 * src × dst grid of the op chosen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "sl-count-format.h"
#include "sl-comm-matrix.h"
#include "sl-comm-row.h"
#include "sl-comm-totals.h"
#include "sl-comm-view.h"
#include "sl-data-table.h"
#include "sl-time-format.h"

typedef enum {
  COLUMN_TEXT,
  COLUMN_TIME,
  COLUMN_RATIO,
  COLUMN_BANDWIDTH,
} ColumnKind;

typedef struct {
  char       *id;
  char       *title;
  ColumnKind  kind;
  guint       field;       /* Field, for text and time columns */
  char       *transport;   /* for bandwidth columns */
} Column;

typedef enum {
  FIELD_STEP, FIELD_GROUP, FIELD_NAME,
  FIELD_ELAPSE, FIELD_TRANSIT, FIELD_WAIT, FIELD_SYNC, FIELD_IDLE,
  FIELD_WAIT_RATIO, FIELD_SYNC_RATIO,
} Field;

static const struct {
  const char *id;
  const char *title;
  ColumnKind  kind;
  Field       field;
} fixed_columns[] = {
  { "step", N_("Step"), COLUMN_TEXT, FIELD_STEP },
  { "kind", N_("Kind"), COLUMN_TEXT, FIELD_GROUP },
  { "name", N_("Name"), COLUMN_TEXT, FIELD_NAME },
  { "elapse", N_("Elapse"), COLUMN_TIME, FIELD_ELAPSE },
  { "transit", N_("Transit"), COLUMN_TIME, FIELD_TRANSIT },
  { "wait", N_("Wait"), COLUMN_TIME, FIELD_WAIT },
  { "sync", N_("Synchronization"), COLUMN_TIME, FIELD_SYNC },
  { "idle", N_("Idle"), COLUMN_TIME, FIELD_IDLE },
  { "wait-ratio", N_("Wait Ratio"), COLUMN_RATIO, FIELD_WAIT_RATIO },
  { "sync-ratio", N_("Synchronization Ratio"), COLUMN_RATIO, FIELD_SYNC_RATIO },
};

struct _SlCommView
{
  GtkBox              parent_instance;

  SlCommunication    *comm;
  gint64              rank_id;
  GListStore         *ops;           /* SlCommRow */
  GListStore         *totals_store;  /* the one totals row, the table's footer */
  GPtrArray          *columns;       /* Column */
  GPtrArray          *matrix_keys;   /* const SlCommLink * */
  GSettings          *settings;
  SlTimeUnit          unit;

  GtkSearchEntry     *filter_entry;
  GtkLabel           *count_label;
  GtkStack           *content_stack;
  SlDataTable        *data_table;
  GtkLabel           *details_title;
  GtkGrid            *bandwidth_grid;
  SlCommPacketChart  *packet_chart;
  GtkDropDown        *matrix_dropdown;
  SlCommMatrixView   *matrix_view;
  GtkLabel           *matrix_empty_label;
  AdwStatusPage      *empty_page;
  gboolean            empty;
};

G_DEFINE_FINAL_TYPE (SlCommView, sl_comm_view, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_EMPTY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SHOW_ON_TIMELINE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
column_free (Column *column)
{
  g_free (column->id);
  g_free (column->title);
  g_free (column->transport);
  g_free (column);
}

static const char *
field_text (const SlCommOp *op,
            Field           field)
{
  switch (field)
    {
    case FIELD_STEP: return op->step;
    case FIELD_GROUP: return op->group;
    case FIELD_NAME: return op->name;
    default: return NULL;
    }
}

static double
field_value (const SlCommOp *op,
             Field           field)
{
  switch (field)
    {
    case FIELD_ELAPSE: return op->elapse_ms;
    case FIELD_TRANSIT: return op->transit_ms;
    case FIELD_WAIT: return op->wait_ms;
    case FIELD_SYNC: return op->sync_ms;
    case FIELD_IDLE: return op->idle_ms;
    case FIELD_WAIT_RATIO: return sl_comm_op_get_wait_ratio (op);
    case FIELD_SYNC_RATIO: return sl_comm_op_get_sync_ratio (op);
    default: return NAN;
    }
}

static double
column_value (const Column *column,
              SlCommRow    *row)
{
  if (column->kind == COLUMN_BANDWIDTH)
    return sl_comm_row_get_bandwidth (row, column->transport);
  return field_value (sl_comm_row_get_op (row), column->field);
}

static char *
format_ms (SlCommView *self,
           double      ms)
{
  return isnan (ms) ? g_strdup ("—") : sl_time_format_ns ((gint64)llround (ms * 1e6), self->unit);
}

/* A time cell: a fixed unit is in the column's header, the automatic
 * one beside each value. */
static char *
format_ms_cell (SlCommView *self,
                double      ms)
{
  gint64 ns = isnan (ms) ? 0 : (gint64)llround (ms * 1e6);

  if (isnan (ms))
    return g_strdup ("—");
  if (self->unit == SL_TIME_UNIT_AUTO)
    return sl_time_format_ns (ns, self->unit);
  if (self->unit == SL_TIME_UNIT_NS)
    return g_strdup_printf ("%lld", (long long)ns);
  return g_strdup_printf ("%.3f", ns / sl_time_unit_scale (self->unit));
}

static char *
format_cell (SlCommView   *self,
             const Column *column,
             SlCommRow    *row)
{
  const SlCommOp *op = sl_comm_row_get_op (row);
  double value;

  if (column->kind == COLUMN_TEXT)
    {
      /* The totals row names itself in the first column. */
      if (sl_comm_row_is_total (row))
        return g_strdup (column->field == FIELD_STEP ? _("Total") : "");
      return g_strdup (field_text (op, column->field));
    }
  value = column_value (column, row);
  if (isnan (value))
    return g_strdup ("—");
  switch (column->kind)
    {
    case COLUMN_TIME: return format_ms_cell (self, value);
    case COLUMN_RATIO: return g_strdup_printf ("%.4f", value);
    default: return g_strdup_printf ("%.4g", value);
    }
}

static char *
dup_tooltip (SlCommView *self,
             SlCommRow  *row)
{
  const SlCommOp *op = sl_comm_row_get_op (row);
  g_autofree char *elapse = format_ms (self, op->elapse_ms);
  g_autofree char *transit = format_ms (self, op->transit_ms);
  g_autofree char *wait = format_ms (self, op->wait_ms);
  GString *text = g_string_new (NULL);

  if (sl_comm_row_is_total (row))
    g_string_append_printf (text, _("Total of the ops shown"));
  else
    g_string_append_printf (text, "%s\n%s · %s", op->name, op->step, op->group);
  /* TRANSLATORS: an op's elapsed, transit and wait times */
  g_string_append_printf (text, _("\nElapse %s, transit %s, wait %s"), elapse, transit, wait);
  if (op->path != NULL && op->path[0] != '\0')
    g_string_append_printf (text, "\n%s", op->path);
  return g_string_free (text, FALSE);
}

typedef struct {
  SlCommView   *view;
  const Column *column;
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
  return column_value (((ColumnRef *)user_data)->column, item);
}

static char *
cell_tooltip (gpointer item,
              gpointer user_data)
{
  return dup_tooltip (((ColumnRef *)user_data)->view, item);
}

static gboolean
is_total (gpointer item,
          gpointer user_data)
{
  return sl_comm_row_is_total (item);
}

static gboolean
any_op_has (SlCommView *self,
            Field       field)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->ops)); i++)
    {
      g_autoptr(SlCommRow) row = g_list_model_get_item (G_LIST_MODEL (self->ops), i);

      if (!isnan (field_value (sl_comm_row_get_op (row), field)))
        return TRUE;
    }
  return FALSE;
}

/* Link types with bytes moved in some op, in the order first seen. */
static GPtrArray *
list_transports (SlCommView *self)
{
  GPtrArray *transports = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->ops)); i++)
    {
      g_autoptr(SlCommRow) row = g_list_model_get_item (G_LIST_MODEL (self->ops), i);
      const SlCommOp *op = sl_comm_row_get_op (row);

      for (guint b = 0; b < op->bandwidths->len; b++)
        {
          const SlCommBandwidth *bandwidth = g_ptr_array_index (op->bandwidths, b);

          if (bandwidth->size_mb > 0 &&
              !g_ptr_array_find_with_equal_func (transports, bandwidth->transport, g_str_equal, NULL))
            g_ptr_array_add (transports, g_strdup (bandwidth->transport));
        }
    }
  return transports;
}

/* Only the long op names give way; a number or a kind cut short is no
 * number at all. */
static void
add_column (SlCommView *self,
            Column     *def)
{
  ColumnRef *ref = g_new0 (ColumnRef, 1);
  gboolean text = def->kind == COLUMN_TEXT;
  SlDataColumn column = {
    .id = def->id,
    .title = def->title,
    .unit = def->kind == COLUMN_TIME && self->unit != SL_TIME_UNIT_AUTO ? sl_time_unit_symbol (self->unit) : NULL,
    .flags = text ? SL_DATA_COLUMN_SEARCHABLE : SL_DATA_COLUMN_NUMERIC,
    .text = cell_text,
    .number = text ? NULL : cell_number,
    .tooltip = cell_tooltip,
  };

  if (g_str_equal (def->id, "name"))
    column.flags |= SL_DATA_COLUMN_ELLIPSIZE_MIDDLE | SL_DATA_COLUMN_EXPAND;
  ref->view = self;
  ref->column = def;
  g_ptr_array_add (self->columns, def);
  sl_data_table_append_column (self->data_table, &column, ref, g_free);
}

static void
remove_columns (SlCommView *self)
{
  /* The table's columns first: they point at ours. */
  sl_data_table_remove_columns (self->data_table);
  g_ptr_array_set_size (self->columns, 0);
}

static void
build_columns (SlCommView *self)
{
  g_autoptr(GPtrArray) transports = list_transports (self);

  remove_columns (self);
  for (guint i = 0; i < G_N_ELEMENTS (fixed_columns); i++)
    {
      Column *def;

      /* hccl_raw has no transit, idle or synchronisation times. */
      if (fixed_columns[i].kind != COLUMN_TEXT && !any_op_has (self, fixed_columns[i].field))
        continue;
      def = g_new0 (Column, 1);
      def->id = g_strdup (fixed_columns[i].id);
      def->title = g_strdup (_(fixed_columns[i].title));
      def->kind = fixed_columns[i].kind;
      def->field = fixed_columns[i].field;
      add_column (self, def);
    }
  for (guint i = 0; i < transports->len; i++)
    {
      const char *transport = g_ptr_array_index (transports, i);
      Column *def = g_new0 (Column, 1);

      def->id = g_strdup_printf ("bandwidth-%s", transport);
      /* TRANSLATORS: a column of one link type's bandwidth, "HCCS (GB/s)" */
      def->title = g_strdup_printf (_("%s (GB/s)"), transport);
      def->kind = COLUMN_BANDWIDTH;
      def->transport = g_strdup (transport);
      add_column (self, def);
    }
}

static void
update_totals (SlCommView *self)
{
  GListModel *shown = sl_data_table_get_rows (self->data_table);
  SlCommTotals *totals = sl_comm_totals_new ();
  g_autoptr(SlCommRow) row = NULL;
  guint n = 0;
  guint all = g_list_model_get_n_items (G_LIST_MODEL (self->ops));
  g_autofree char *count = NULL;
  g_autofree char *n_text = NULL;
  g_autofree char *all_text = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(SlCommRow) op_row = g_list_model_get_item (shown, i);

      if (sl_comm_row_is_total (op_row))
        continue;
      sl_comm_totals_add_op (totals, sl_comm_row_get_op (op_row));
      n++;
    }
  row = sl_comm_row_new (sl_comm_totals_get_op (totals), TRUE, totals, (GDestroyNotify)sl_comm_totals_free);
  if (all > 0)
    g_list_store_splice (self->totals_store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->totals_store)),
                         (gpointer *)&row, 1);
  else
    g_list_store_remove_all (self->totals_store);

  n_text = sl_count_format (n);
  all_text = sl_count_format (all);
  if (n == all)
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s op", "%s ops", all), all_text);
  else
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s op", "%s of %s ops", all), n_text, all_text);
  gtk_label_set_label (self->count_label, count);
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static void
grid_label (GtkGrid    *grid,
            const char *text,
            int         column,
            int         row,
            gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  gtk_widget_add_css_class (label, heading ? "dim-label" : "numeric");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static SlCommRow *
shown_row (SlCommView *self)
{
  GListModel *rows = sl_data_table_get_rows (self->data_table);
  guint position = sl_data_table_get_selected_position (self->data_table);
  guint n = g_list_model_get_n_items (rows);

  /* Nothing selected: the totals row, the last one. */
  if (position == GTK_INVALID_LIST_POSITION)
    position = n > 0 ? n - 1 : GTK_INVALID_LIST_POSITION;
  return position != GTK_INVALID_LIST_POSITION ? g_list_model_get_item (rows, position) : NULL;
}

static void
update_details (SlCommView *self)
{
  g_autoptr(SlCommRow) row = shown_row (self);
  const SlCommOp *op = row != NULL ? sl_comm_row_get_op (row) : NULL;
  static const char *headings[] = { N_("Link Type"), N_("Size (MB)"), N_("Time"), N_("Bandwidth (GB/s)"),
                                    N_("Large Packets") };

  clear_grid (self->bandwidth_grid);
  sl_comm_packet_chart_set_op (self->packet_chart, op);
  if (op == NULL)
    {
      gtk_label_set_label (self->details_title, "");
      return;
    }
  gtk_label_set_label (self->details_title, sl_comm_row_is_total (row) ? _("Total of the Ops Shown") : op->name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->details_title), op->name);
  for (guint c = 0; c < G_N_ELEMENTS (headings); c++)
    grid_label (self->bandwidth_grid, _(headings[c]), c, 0, TRUE);
  for (guint b = 0; b < op->bandwidths->len; b++)
    {
      const SlCommBandwidth *bandwidth = g_ptr_array_index (op->bandwidths, b);
      g_autofree char *size = isnan (bandwidth->size_mb) ? g_strdup ("—") : g_strdup_printf ("%.6g", bandwidth->size_mb);
      g_autofree char *time = format_ms (self, bandwidth->time_ms);
      g_autofree char *bw = isnan (bandwidth->bandwidth_gbps) ? g_strdup ("—") : g_strdup_printf ("%.4g", bandwidth->bandwidth_gbps);
      g_autofree char *large = isnan (bandwidth->large_packet_ratio) ? g_strdup ("—")
                                                                     : g_strdup_printf ("%.4f", bandwidth->large_packet_ratio);

      grid_label (self->bandwidth_grid, bandwidth->transport, 0, b + 1, FALSE);
      grid_label (self->bandwidth_grid, size, 1, b + 1, FALSE);
      grid_label (self->bandwidth_grid, time, 2, b + 1, FALSE);
      grid_label (self->bandwidth_grid, bw, 3, b + 1, FALSE);
      grid_label (self->bandwidth_grid, large, 4, b + 1, FALSE);
    }
}

static void
selection_changed_cb (SlCommView *self)
{
  update_details (self);
}

static void
filter_changed_cb (SlCommView *self)
{
  sl_comm_view_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)));
}

static char *
matrix_key_label (const SlCommLink *key)
{
  if (key->step[0] != '\0')
    return g_strdup_printf ("%s · %s · %s", key->step, key->group, key->op);
  return g_strdup_printf ("%s · %s", key->group, key->op);
}

static void
matrix_changed_cb (SlCommView *self)
{
  guint selected = gtk_drop_down_get_selected (self->matrix_dropdown);

  if (self->comm == NULL || self->matrix_keys == NULL || selected >= self->matrix_keys->len)
    {
      sl_comm_matrix_view_set_matrix (self->matrix_view, NULL, NULL);
      return;
    }
  sl_comm_matrix_view_set_matrix (self->matrix_view, self->comm,
                                  sl_comm_matrix_new (self->comm, self->rank_id,
                                                      g_ptr_array_index (self->matrix_keys, selected)));
}

/* The whole op's matrix first: msprof writes it as "...-total@...". */
static guint
default_matrix_key (GPtrArray *keys)
{
  for (guint i = 0; i < keys->len; i++)
    if (sl_communication_is_total_name (((const SlCommLink *)g_ptr_array_index (keys, i))->op))
      return i;
  return 0;
}

static void
fill_matrix_keys (SlCommView *self)
{
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  gboolean any;

  g_clear_pointer (&self->matrix_keys, g_ptr_array_unref);
  self->matrix_keys = self->comm != NULL ? sl_comm_matrix_list_ops (self->comm, self->rank_id) : g_ptr_array_new ();
  for (guint i = 0; i < self->matrix_keys->len; i++)
    {
      g_autofree char *label = matrix_key_label (g_ptr_array_index (self->matrix_keys, i));

      gtk_string_list_append (labels, label);
    }
  any = self->matrix_keys->len > 0;
  g_signal_handlers_block_by_func (self->matrix_dropdown, matrix_changed_cb, self);
  gtk_drop_down_set_model (self->matrix_dropdown, G_LIST_MODEL (labels));
  if (any)
    gtk_drop_down_set_selected (self->matrix_dropdown, default_matrix_key (self->matrix_keys));
  g_signal_handlers_unblock_by_func (self->matrix_dropdown, matrix_changed_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->matrix_dropdown), any);
  gtk_widget_set_visible (GTK_WIDGET (self->matrix_view), any);
  gtk_widget_set_visible (GTK_WIDGET (self->matrix_empty_label), !any);
  gtk_label_set_label (self->matrix_empty_label,
                       _("No links between ranks: they are in communication_matrix.json (or a cluster's "
                         "cluster_communication_matrix.json), which this rank does not have."));
  matrix_changed_cb (self);
}

static void
emit_show_on_timeline (SlCommView *self,
                       SlCommRow  *row)
{
  const SlCommOp *op;
  g_autofree char *search = NULL;
  gint64 start = -1, end = -1;

  if (row == NULL || sl_comm_row_is_total (row))
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s",
                                  _("Select a communication op to show it on the timeline"));
      return;
    }
  op = sl_comm_row_get_op (row);
  search = sl_comm_op_dup_short_name (op);
  if (!isnan (op->start_us))
    {
      /* Epoch microseconds fit a double exactly, nanoseconds do not. */
      double whole = floor (op->start_us);

      start = (gint64)whole * 1000 + (gint64)llround ((op->start_us - whole) * 1000);
      end = isnan (op->elapse_ms) ? start : start + (gint64)llround (op->elapse_ms * 1e6);
    }
  g_signal_emit (self, signals[SHOW_ON_TIMELINE], 0, search, start, end);
}

static void
row_activated_cb (SlCommView *self,
                  guint       position)
{
  g_autoptr(SlCommRow) row = g_list_model_get_item (sl_data_table_get_rows (self->data_table), position);

  emit_show_on_timeline (self, row);
}

static void
show_on_timeline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  SlCommView *self = SL_COMM_VIEW (widget);
  g_autoptr(SlCommRow) row = sl_data_table_dup_selected (self->data_table);

  emit_show_on_timeline (self, row);
}

static void
time_unit_changed_cb (SlCommView *self)
{
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  build_columns (self);
  sl_data_table_sort_by (self->data_table, "elapse", GTK_SORT_DESCENDING);
  update_details (self);
}

static void
sl_comm_view_dispose (GObject *object)
{
  SlCommView *self = SL_COMM_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_COMM_VIEW);
  g_clear_object (&self->ops);
  g_clear_object (&self->totals_store);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->matrix_keys, g_ptr_array_unref);
  g_clear_pointer (&self->columns, g_ptr_array_unref);
  g_clear_object (&self->comm);

  G_OBJECT_CLASS (sl_comm_view_parent_class)->dispose (object);
}

static void
sl_comm_view_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_EMPTY:
      g_value_set_boolean (value, SL_COMM_VIEW (object)->empty);
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
  return g_strdup (empty ? "empty" : "table");
}

static void
sl_comm_view_class_init (SlCommViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sl_comm_view_dispose;
  G_OBJECT_CLASS (klass)->get_property = sl_comm_view_get_property;

  /**
   * SlCommView:empty:
   *
   * Whether the rank shown has no communication ops and no links.
   */
  properties[PROP_EMPTY] =
    g_param_spec_boolean ("empty", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (G_OBJECT_CLASS (klass), N_PROPS, properties);

  /**
   * SlCommView::show-on-timeline:
   * @name: the op's name as the timeline writes it
   * @start_ns: when it started (the profile's clock), or -1
   * @end_ns: when it ended, or -1
   */
  signals[SHOW_ON_TIMELINE] =
    g_signal_new ("show-on-timeline", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-comm-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SlCommView, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, count_label);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, content_stack);
  gtk_widget_class_bind_template_callback (widget_class, empty_child_name);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, data_table);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, details_title);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, bandwidth_grid);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, packet_chart);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, matrix_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, matrix_view);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, matrix_empty_label);
  gtk_widget_class_bind_template_child (widget_class, SlCommView, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, matrix_changed_cb);

  gtk_widget_class_install_action (widget_class, "comm.show-on-timeline", NULL, show_on_timeline_action);

  g_type_ensure (SL_TYPE_COMM_PACKET_CHART);
  g_type_ensure (SL_TYPE_COMM_MATRIX_VIEW);
}

static void
sl_comm_view_init (SlCommView *self)
{
  g_type_ensure (SL_TYPE_DATA_TABLE);
  g_type_ensure (SL_TYPE_COMM_PACKET_CHART);
  g_type_ensure (SL_TYPE_COMM_MATRIX_VIEW);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->rank_id = -1;
  self->columns = g_ptr_array_new_with_free_func ((GDestroyNotify)column_free);
  self->ops = g_list_store_new (SL_TYPE_COMM_ROW);
  self->totals_store = g_list_store_new (SL_TYPE_COMM_ROW);
  sl_data_table_set_model (self->data_table, G_LIST_MODEL (self->ops));
  sl_data_table_set_footer (self->data_table, G_LIST_MODEL (self->totals_store));
  sl_data_table_set_emphasis_func (self->data_table, is_total, NULL);
  g_signal_connect_object (gtk_column_view_get_model (sl_data_table_get_column_view (self->data_table)),
                           "notify::selected", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);

  self->settings = g_settings_new (APP_ID);
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  g_signal_connect_object (self->settings, "changed::time-unit", G_CALLBACK (time_unit_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

GtkWidget *
sl_comm_view_new (void)
{
  return g_object_new (SL_TYPE_COMM_VIEW, NULL);
}

static void
show_empty (SlCommView *self,
            const char *dir)
{
  /* TRANSLATORS: %s is a folder */
  g_autofree char *text = g_strdup_printf (_("This rank has no communication ops. They are read from "
                                             "communication.json and communication_matrix.json "
                                             "(torch_npu, MindSpore), hccl_raw_<id>.csv (MindSpore) or "
                                             "msprof-analyze's cluster_communication.json; looked in %s."),
                                           dir != NULL ? dir : "");

  g_autofree char *markup = g_markup_escape_text (text, -1);

  /* The status page reads its description as markup. */
  adw_status_page_set_description (self->empty_page, markup);
}

static void
set_empty (SlCommView *self,
           gboolean    empty)
{
  if (self->empty == empty)
    return;
  self->empty = empty;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMPTY]);
}

void
sl_comm_view_set_communication (SlCommView      *self,
                                SlCommunication *comm,
                                gint64           rank_id,
                                const char      *dir)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (SL_IS_COMM_VIEW (self));

  g_set_object (&self->comm, comm);
  self->rank_id = rank_id;
  for (guint i = 0; comm != NULL && i < sl_communication_get_n_ops (comm); i++)
    {
      const SlCommOp *op = sl_communication_get_op (comm, i);

      /* The totals row stands for the file's own aggregates. */
      if (sl_comm_op_is_for_rank (op, rank_id) && !sl_communication_is_total_name (op->name))
        g_ptr_array_add (rows, sl_comm_row_new (op, FALSE, g_object_ref (comm), g_object_unref));
    }
  g_list_store_splice (self->ops, 0, g_list_model_get_n_items (G_LIST_MODEL (self->ops)), rows->pdata, rows->len);
  build_columns (self);
  update_totals (self);
  sl_data_table_sort_by (self->data_table, "elapse", GTK_SORT_DESCENDING);
  sl_data_table_select (self->data_table, GTK_INVALID_LIST_POSITION);
  fill_matrix_keys (self);
  update_details (self);

  if (rows->len == 0 && (self->matrix_keys == NULL || self->matrix_keys->len == 0))
    show_empty (self, dir);
  set_empty (self, rows->len == 0 && (self->matrix_keys == NULL || self->matrix_keys->len == 0));
}

void
sl_comm_view_set_filter (SlCommView *self,
                         const char *text)
{
  g_return_if_fail (SL_IS_COMM_VIEW (self));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), text ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text ? text : "");
  sl_data_table_set_filter_text (self->data_table, text);
  update_totals (self);
  update_details (self);
}

GListModel *
sl_comm_view_get_rows (SlCommView *self)
{
  g_return_val_if_fail (SL_IS_COMM_VIEW (self), NULL);
  return sl_data_table_get_rows (self->data_table);
}

guint
sl_comm_view_get_n_columns (SlCommView *self)
{
  g_return_val_if_fail (SL_IS_COMM_VIEW (self), 0);
  return self->columns->len;
}

const char *
sl_comm_view_get_column_title (SlCommView *self,
                               guint       index)
{
  g_return_val_if_fail (SL_IS_COMM_VIEW (self), NULL);
  g_return_val_if_fail (index < self->columns->len, NULL);
  /* With its unit, as the header shows it. */
  return sl_data_table_get_column_title (self->data_table, index);
}

char *
sl_comm_view_dup_cell_text (SlCommView *self,
                            guint       position,
                            guint       column_index)
{
  g_autoptr(SlCommRow) row = NULL;

  g_return_val_if_fail (SL_IS_COMM_VIEW (self), NULL);
  g_return_val_if_fail (column_index < self->columns->len, NULL);

  if ((row = g_list_model_get_item (sl_data_table_get_rows (self->data_table), position)) == NULL)
    return NULL;
  return format_cell (self, g_ptr_array_index (self->columns, column_index), row);
}

void
sl_comm_view_sort_by (SlCommView *self,
                      const char *column_id,
                      gboolean    descending)
{
  g_return_if_fail (SL_IS_COMM_VIEW (self));
  sl_data_table_sort_by (self->data_table, column_id, descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

void
sl_comm_view_select (SlCommView *self,
                     guint       position)
{
  g_return_if_fail (SL_IS_COMM_VIEW (self));
  sl_data_table_select (self->data_table, position);
}

/**
 * sl_comm_view_get_empty:
 *
 * Returns: whether the rank shown has no communication ops and no links
 */
gboolean
sl_comm_view_get_empty (SlCommView *self)
{
  g_return_val_if_fail (SL_IS_COMM_VIEW (self), FALSE);
  return self->empty;
}

const char *
sl_comm_view_get_empty_text (SlCommView *self)
{
  g_return_val_if_fail (SL_IS_COMM_VIEW (self), NULL);
  return adw_status_page_get_description (self->empty_page);
}

SlCommPacketChart *
sl_comm_view_get_packet_chart (SlCommView *self)
{
  g_return_val_if_fail (SL_IS_COMM_VIEW (self), NULL);
  return self->packet_chart;
}

SlCommMatrixView *
sl_comm_view_get_matrix_view (SlCommView *self)
{
  g_return_val_if_fail (SL_IS_COMM_VIEW (self), NULL);
  return self->matrix_view;
}

char *
sl_comm_view_dup_bandwidth_text (SlCommView *self)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (SL_IS_COMM_VIEW (self), NULL);

  for (int row = 1; gtk_grid_get_child_at (self->bandwidth_grid, 0, row) != NULL; row++)
    {
      for (int column = 0; column < 5; column++)
        {
          GtkWidget *label = gtk_grid_get_child_at (self->bandwidth_grid, column, row);

          g_string_append_printf (text, column > 0 ? " %s" : "%s", gtk_label_get_label (GTK_LABEL (label)));
        }
      g_string_append_c (text, '\n');
    }
  return g_string_free (text, FALSE);
}
