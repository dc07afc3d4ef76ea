/* sl-data-table.c
 *
 * A view hands the table its column definitions and a list model; the
 * table does the rest the same way everywhere:
 *
 * - Columns are as wide as their content: the header and a sample of the
 *   values (the first and last rows, the longest text, the largest and
 *   smallest number) are measured with the cells' own font. Numbers are
 *   never cut; text is, with the whole value in the cell's tooltip. A real
 *   horizontal scrollbar shows when the columns are wider than the view.
 * - Every column sorts, numbers by their value. The filter (one text, held
 *   in the table's own GtkFilter) looks at the searchable columns.
 * - Ctrl+C copies the selected row as tab-separated text; the context menu
 *   copies the row or the column under the pointer, or exports the table.
 * - The CSV export formats and writes the rows on a worker thread into a
 *   file replaced only when it is whole, with progress and Cancel under
 *   the table; a failure names the file (sl-data-table-export.c).
 *
 * Column widths are fixed once measured (the user can still drag them):
 * GTK 4.8 sizes a column from the cells it happens to show, so a number
 * further down could not fit, and a long text would push the others out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "sl-column-factory.h"
#include "sl-data-table-private.h"
#include "sl-tooltip.h"

/* Rows measured at each end of the table, and the most rows looked at for
 * the longest text: enough to size a column without reading a million. */
#define SAMPLE_ROWS   50
#define SCAN_ROWS     20000
/* Text columns are never sized wider than this at first (the user can
 * drag them wider; the tooltip has the rest). */
#define MAX_TEXT_WIDTH 420
/* What a cell and a header add around their text (padding, separator,
 * the sort arrow of a header). */
#define CELL_EXTRA    24
#define HEADER_EXTRA  40
/* What a flat button adds around its label. */
#define BUTTON_EXTRA  32

G_DEFINE_FINAL_TYPE (SlDataTable, sl_data_table, GTK_TYPE_WIDGET)

enum {
  ROW_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
column_clear (gpointer data)
{
  Column *column = data;

  g_free (column->id);
  g_free (column->title);
  g_free (column->csv_title);
  g_free (column->unit);
  g_free (column->css_class);
  g_free (column->action);
  g_free (column->property);
  if (column->destroy != NULL)
    column->destroy (column->user_data);
}

void
sl_data_table_column_release (gpointer data)
{
  g_atomic_rc_box_release_full (data, column_clear);
}

static gboolean
is_numeric (const Column *column)
{
  return (column->flags & SL_DATA_COLUMN_NUMERIC) != 0;
}

/* The text of @column for @item; any thread. */
static char *
column_dup_text (const Column *column,
                 gpointer      item)
{
  if (column->property != NULL)
    {
      g_auto(GValue) value = G_VALUE_INIT;
      g_auto(GValue) text = G_VALUE_INIT;
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (item), column->property);

      if (pspec == NULL)
        return NULL;
      g_value_init (&value, pspec->value_type);
      g_object_get_property (item, column->property, &value);
      if (G_VALUE_HOLDS_DOUBLE (&value))
        return g_strdup_printf ("%.6g", g_value_get_double (&value));
      if (G_VALUE_HOLDS_FLOAT (&value))
        return g_strdup_printf ("%.6g", g_value_get_float (&value));
      g_value_init (&text, G_TYPE_STRING);
      if (!g_value_transform (&value, &text))
        return NULL;
      return g_value_dup_string (&text);
    }

  return column->text != NULL ? column->text (item, column->user_data) : NULL;
}

static double
column_get_number (const Column *column,
                   gpointer      item)
{
  if (column->property != NULL)
    {
      g_auto(GValue) value = G_VALUE_INIT;
      g_auto(GValue) number = G_VALUE_INIT;
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (item), column->property);

      if (pspec == NULL)
        return NAN;
      g_value_init (&value, pspec->value_type);
      g_object_get_property (item, column->property, &value);
      g_value_init (&number, G_TYPE_DOUBLE);
      if (!g_value_transform (&value, &number))
        return NAN;
      return g_value_get_double (&number);
    }

  return column->number != NULL ? column->number (item, column->user_data) : NAN;
}

char *
sl_data_table_column_dup_csv (const Column *column,
                              gpointer      item)
{
  if (column->csv != NULL)
    return column->csv (item, column->user_data);
  return column_dup_text (column, item);
}

/* What a copy holds: the text shown, but a button's label is the same on
 * every row: its CSV field (what it opens) says more. */
static char *
column_dup_copy (const Column *column,
                 gpointer      item)
{
  if ((column->flags & SL_DATA_COLUMN_BUTTON) && column->csv != NULL)
    return column->csv (item, column->user_data);
  return column_dup_text (column, item);
}

/* Cells */

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               Column                   *column)
{
  PangoEllipsizeMode ellipsize = PANGO_ELLIPSIZE_END;
  GtkWidget *label;

  if (is_numeric (column) || (column->flags & SL_DATA_COLUMN_BADGE))
    ellipsize = PANGO_ELLIPSIZE_NONE;
  else if (column->flags & SL_DATA_COLUMN_ELLIPSIZE_START)
    ellipsize = PANGO_ELLIPSIZE_START;
  else if (column->flags & SL_DATA_COLUMN_ELLIPSIZE_MIDDLE)
    ellipsize = PANGO_ELLIPSIZE_MIDDLE;

  if (column->flags & SL_DATA_COLUMN_BUTTON)
    {
      /* A button as wide as its label, the label never cut. */
      GtkWidget *button = gtk_button_new ();

      label = gtk_label_new (NULL);
      gtk_button_set_child (GTK_BUTTON (button), label);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_add_css_class (button, "cell-button");
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      if (column->css_class != NULL)
        gtk_widget_add_css_class (button, column->css_class);
      g_object_set_data (G_OBJECT (button), "sl-data-table-column", column);
      gtk_list_item_set_child (list_item, button);
      return;
    }

  label = sl_column_cell_label_new (is_numeric (column), ellipsize);
  if (column->css_class != NULL)
    gtk_widget_add_css_class (label, column->css_class);
  if (column->flags & SL_DATA_COLUMN_BADGE)
    gtk_widget_set_halign (label, GTK_ALIGN_START);
  g_object_set_data (G_OBJECT (label), "sl-data-table-column", column);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_button (GtkWidget *button,
             Column    *column,
             gpointer   item)
{
  g_autofree char *text = column_dup_text (column, item);
  g_autofree char *tooltip = column->tooltip != NULL ? column->tooltip (item, column->user_data) : NULL;
  GVariant *target = column->action_target != NULL ? column->action_target (item, column->user_data) : NULL;

  gtk_label_set_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), text ? text : "");
  g_object_set_data (G_OBJECT (button), "sl-data-table-item", item);
  sl_widget_set_long_tooltip (button, tooltip);
  /* No target, no button: the row has nothing to open. */
  if (target == NULL || column->action == NULL)
    {
      if (target != NULL)
        g_variant_unref (g_variant_ref_sink (target));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), NULL);
      gtk_widget_set_visible (button, FALSE);
      return;
    }
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), target);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), column->action);
  gtk_widget_set_visible (button, TRUE);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              Column                   *column)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);
  gpointer item = gtk_list_item_get_item (list_item);
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;

  if (column->flags & SL_DATA_COLUMN_BUTTON)
    {
      bind_button (label, column, item);
      return;
    }
  text = column_dup_text (column, item);
  tooltip = column->tooltip != NULL ? column->tooltip (item, column->user_data) : NULL;
  gtk_label_set_text (GTK_LABEL (label), text ? text : "");
  /* A number is never cut; a text can be, so it always has its whole
   * value at hand. */
  if (tooltip == NULL && !is_numeric (column) && !(column->flags & SL_DATA_COLUMN_BADGE) &&
      text != NULL && text[0] != '\0')
    tooltip = g_strdup (text);
  sl_widget_set_long_tooltip (label, tooltip);
  g_object_set_data (G_OBJECT (label), "sl-data-table-item", item);
  if (column->style != NULL)
    {
      const char *style = column->style (item, column->user_data);
      const char *old = g_object_get_data (G_OBJECT (label), "sl-data-table-style");

      if (old != NULL)
        gtk_widget_remove_css_class (label, old);
      if (style != NULL)
        gtk_widget_add_css_class (label, style);
      g_object_set_data (G_OBJECT (label), "sl-data-table-style", (gpointer)style);
    }
  if (column->table->emphasis != NULL && column->table->emphasis (item, column->table->emphasis_data))
    gtk_widget_add_css_class (label, "emphasis");
  else
    gtk_widget_remove_css_class (label, "emphasis");
}

static void
unbind_cell_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                Column                   *column)
{
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (list_item)), "sl-data-table-item", NULL);
}

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const Column *column = user_data;
  g_autofree char *ta = NULL;
  g_autofree char *tb = NULL;

  /* A text column may sort by a key of its own (a verdict by severity). */
  if (is_numeric (column) || column->number != NULL)
    {
      double da = column_get_number (column, (gpointer)a);
      double db = column_get_number (column, (gpointer)b);

      /* Unknown values (NAN) go after the numbers, in the order of
       * their text. */
      if (isnan (da) != isnan (db))
        return isnan (da) ? 1 : -1;
      if (!isnan (da))
        return da < db ? -1 : da > db;
    }

  ta = column_dup_text (column, (gpointer)a);
  tb = column_dup_text (column, (gpointer)b);
  return g_strcmp0 (ta, tb);
}

/* Sizing */

/* @text as a cell draws it: tabular figures for numbers, bold for the
 * rows in bold (style.css: datatable label.emphasis). */
static int
measure_text (SlDataTable *self,
              const char  *text,
              gboolean     numeric,
              gboolean     bold)
{
  g_autoptr(PangoLayout) layout = NULL;
  int width = 0;

  if (text == NULL || text[0] == '\0')
    return 0;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->column_view), text);
  if (numeric || bold)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      if (numeric)
        pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum"));
      if (bold)
        pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
    }
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static int
measure_item (SlDataTable *self,
              Column      *column,
              gpointer     item)
{
  g_autofree char *text = column_dup_text (column, item);
  gboolean bold = (self->emphasis != NULL && self->emphasis (item, self->emphasis_data)) ||
                  (column->flags & SL_DATA_COLUMN_BADGE) != 0 ||
                  g_strcmp0 (column->css_class, "heading") == 0;  /* a bold column (names) */

  /* A badge is bold with its padding around (style.css: .sl-verdict); a
   * button has its own padding. */
  if (column->flags & SL_DATA_COLUMN_BUTTON)
    return measure_text (self, text, FALSE, FALSE) + BUTTON_EXTRA;
  return measure_text (self, text, is_numeric (column), bold) + (column->flags & SL_DATA_COLUMN_BADGE ? 16 : 0);
}

/* The rows measured: both ends, then for numbers the largest and smallest
 * value and for text the longest, over the first SCAN_ROWS rows. */
static int
measure_column (SlDataTable *self,
                Column      *column)
{
  GListModel *rows = self->model;
  guint n = rows ? g_list_model_get_n_items (rows) : 0;
  int width = measure_text (self, column->title, FALSE, TRUE) + HEADER_EXTRA - CELL_EXTRA;
  guint scan = MIN (n, SCAN_ROWS);
  guint longest = G_MAXUINT, largest = G_MAXUINT, smallest = G_MAXUINT;
  gsize longest_len = 0;
  double max = -INFINITY, min = INFINITY;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = NULL;

      if (i == SAMPLE_ROWS && n > 2 * SAMPLE_ROWS)
        i = n - SAMPLE_ROWS;
      item = g_list_model_get_item (rows, i);
      width = MAX (width, measure_item (self, column, item));
    }

  for (guint i = 0; i < scan; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, i);

      if (is_numeric (column))
        {
          double value = column_get_number (column, item);

          if (value > max)
            max = value, largest = i;
          if (value < min)
            min = value, smallest = i;
        }
      else
        {
          g_autofree char *text = column_dup_text (column, item);
          gsize len = text ? g_utf8_strlen (text, -1) : 0;

          if (len > longest_len)
            longest_len = len, longest = i;
        }
    }

  for (guint k = 0; k < 3; k++)
    {
      guint i = k == 0 ? longest : k == 1 ? largest : smallest;
      g_autoptr(GObject) item = NULL;

      if (i == G_MAXUINT)
        continue;
      item = g_list_model_get_item (rows, i);
      width = MAX (width, measure_item (self, column, item));
    }

  /* A footer (totals) is short and often holds the largest numbers. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->parts)) > 1)
    {
      g_autoptr(GListModel) footer = g_list_model_get_item (G_LIST_MODEL (self->parts), 1);

      for (guint i = 0; i < MIN (g_list_model_get_n_items (footer), SAMPLE_ROWS); i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (footer, i);

          width = MAX (width, measure_item (self, column, item));
        }
    }

  width += CELL_EXTRA;
  if (!is_numeric (column))
    width = MIN (width, (column->flags & (SL_DATA_COLUMN_BADGE | SL_DATA_COLUMN_BUTTON)) ? G_MAXINT
                        : column->max_width > 0 ? column->max_width : MAX_TEXT_WIDTH);
  return width;
}

static void
resize_columns (SlDataTable *self)
{
  for (guint i = 0; i < self->columns->len; i++)
    {
      Column *column = g_ptr_array_index (self->columns, i);

      gtk_column_view_column_set_fixed_width (column->column, measure_column (self, column));
    }
}

static gboolean
resize_idle_cb (gpointer data)
{
  SlDataTable *self = data;

  self->resize_idle = 0;
  resize_columns (self);
  return G_SOURCE_REMOVE;
}

static void
queue_resize_columns (SlDataTable *self)
{
  if (self->resize_idle == 0)
    self->resize_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, resize_idle_cb, self, NULL);
}

static void
model_items_changed_cb (SlDataTable *self)
{
  queue_resize_columns (self);
}

/* Filter */

static gboolean
has_searchable (SlDataTable *self)
{
  for (guint i = 0; i < self->columns->len; i++)
    if (((Column *)g_ptr_array_index (self->columns, i))->flags & SL_DATA_COLUMN_SEARCHABLE)
      return TRUE;
  return FALSE;
}

static gboolean
item_matches (gpointer item,
              gpointer user_data)
{
  SlDataTable *self = user_data;
  gboolean any = !has_searchable (self);

  if (self->filter_text == NULL)
    return TRUE;

  for (guint i = 0; i < self->columns->len; i++)
    {
      Column *column = g_ptr_array_index (self->columns, i);
      g_autofree char *text = NULL;
      g_autofree char *folded = NULL;

      if (any ? is_numeric (column) : !(column->flags & SL_DATA_COLUMN_SEARCHABLE))
        continue;
      if ((text = column_dup_text (column, item)) == NULL)
        continue;
      folded = g_utf8_casefold (text, -1);
      if (strstr (folded, self->filter_text) != NULL)
        return TRUE;
    }

  return FALSE;
}

/* Copy */

static void
append_clean (GString    *out,
              const char *text)
{
  /* A tab or a line break inside a value would split it. */
  for (const char *p = text ? text : ""; *p; p++)
    g_string_append_c (out, *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
}

static Column *
find_column (SlDataTable *self,
             const char  *id)
{
  for (guint i = 0; i < self->columns->len; i++)
    {
      Column *column = g_ptr_array_index (self->columns, i);

      if (g_strcmp0 (column->id, id) == 0)
        return column;
    }
  return NULL;
}

/* The columns in the order shown (the user may have dragged them). */
GPtrArray *
sl_data_table_dup_shown_columns (SlDataTable *self)
{
  GListModel *list = gtk_column_view_get_columns (self->column_view);
  GPtrArray *shown = g_ptr_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GtkColumnViewColumn) view_column = g_list_model_get_item (list, i);
      Column *column = g_object_get_data (G_OBJECT (view_column), "sl-data-table-column");

      if (column != NULL && gtk_column_view_column_get_visible (view_column))
        g_ptr_array_add (shown, column);
    }
  return shown;
}

/**
 * sl_data_table_dup_row_text:
 * @position: a row of sl_data_table_get_rows()
 *
 * Returns: (transfer full) (nullable): the row's cells as shown, separated
 *   by tabs
 */
char *
sl_data_table_dup_row_text (SlDataTable *self,
                            guint        position)
{
  g_autoptr(GPtrArray) shown = NULL;
  g_autoptr(GObject) item = NULL;
  GString *out;

  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);

  if ((item = g_list_model_get_item (G_LIST_MODEL (self->rows), position)) == NULL)
    return NULL;
  shown = sl_data_table_dup_shown_columns (self);
  out = g_string_new (NULL);
  for (guint c = 0; c < shown->len; c++)
    {
      g_autofree char *text = column_dup_copy (g_ptr_array_index (shown, c), item);

      if (c > 0)
        g_string_append_c (out, '\t');
      append_clean (out, text);
    }
  return g_string_free (out, FALSE);
}

/**
 * sl_data_table_dup_column_text:
 *
 * Returns: (transfer full) (nullable): the column's header, then its value
 *   in every row shown, one a line
 */
char *
sl_data_table_dup_column_text (SlDataTable *self,
                               const char  *id)
{
  GListModel *rows;
  Column *column;
  GString *out;

  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);

  if ((column = find_column (self, id)) == NULL)
    return NULL;
  out = g_string_new (column->title);
  rows = G_LIST_MODEL (self->rows);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, i);
      g_autofree char *text = column_dup_copy (column, item);

      g_string_append_c (out, '\n');
      append_clean (out, text);
    }
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/**
 * sl_data_table_copy_row:
 *
 * Puts the selected row on the clipboard as tab-separated text.
 *
 * Returns: %FALSE when no row is selected
 */
gboolean
sl_data_table_copy_row (SlDataTable *self)
{
  g_autoptr(GtkBitset) selected = NULL;
  g_autoptr(GString) text = NULL;
  GtkBitsetIter iter;
  guint position;

  g_return_val_if_fail (SL_IS_DATA_TABLE (self), FALSE);

  /* Several rows selected: one a line. */
  selected = gtk_selection_model_get_selection (self->selection);
  for (gboolean more = gtk_bitset_iter_init_first (&iter, selected, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autofree char *row = sl_data_table_dup_row_text (self, position);

      if (row == NULL)
        continue;
      if (text == NULL)
        text = g_string_new (row);
      else
        g_string_append_printf (text, "\n%s", row);
    }
  if (text == NULL)
    return FALSE;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text->str);
  return TRUE;
}

gboolean
sl_data_table_copy_column (SlDataTable *self,
                           const char  *id)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (SL_IS_DATA_TABLE (self), FALSE);

  if ((text = sl_data_table_dup_column_text (self, id)) == NULL)
    return FALSE;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  return TRUE;
}

static void
copy_row_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  sl_data_table_copy_row (SL_DATA_TABLE (widget));
}

static void
copy_column_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  sl_data_table_copy_column (SL_DATA_TABLE (widget), g_variant_get_string (param, NULL));
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  sl_data_table_choose_csv_file (SL_DATA_TABLE (widget));
}

/* The cell under (@x, @y) of the table, the row it shows selected. */
static Column *
pick_cell (SlDataTable *self,
           double       x,
           double       y)
{
  GtkWidget *widget = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
  GListModel *rows = G_LIST_MODEL (self->rows);

  for (; widget != NULL && widget != GTK_WIDGET (self); widget = gtk_widget_get_parent (widget))
    {
      Column *column = g_object_get_data (G_OBJECT (widget), "sl-data-table-column");
      gpointer item = g_object_get_data (G_OBJECT (widget), "sl-data-table-item");

      if (column == NULL)
        continue;
      for (guint i = 0; item != NULL && i < g_list_model_get_n_items (rows); i++)
        {
          g_autoptr(GObject) row = g_list_model_get_item (rows, i);

          /* The row under the pointer is what the menu copies, unless
           * it is one of several selected. */
          if ((gpointer)row == item)
            {
              if (!gtk_selection_model_is_selected (self->selection, i))
                gtk_selection_model_select_item (self->selection, i, TRUE);
              break;
            }
        }
      return column;
    }
  return NULL;
}

static void
context_menu_cb (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 SlDataTable     *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  Column *column = pick_cell (self, x, y);

  if (column == NULL)
    return;

  g_menu_append (menu, _("Copy Row"), "table.copy-row");
  {
    g_autofree char *label = g_strdup_printf (_("Copy Column “%s”"), column->title);
    g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

    g_menu_item_set_action_and_target (item, "table.copy-column", "s", column->id);
    g_menu_append_item (menu, item);
  }
  if (self->export_title != NULL)
    g_menu_append (menu, _("Export as CSV…"), "table.export-csv");

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (self->menu, &(GdkRectangle) { (int)x, (int)y, 1, 1 });
  gtk_popover_popup (self->menu);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
cancel_clicked_cb (SlDataTable *self)
{
  sl_data_table_cancel_export (self);
}

static void
activate_cb (SlDataTable *self,
             guint        position)
{
  g_signal_emit (self, signals[ROW_ACTIVATED], 0, position);
}

/* Columns and rows */

/**
 * sl_data_table_append_column:
 * @user_data: handed to the column's functions
 * @destroy: (nullable): frees @user_data when the column and every export
 *   of it are gone
 *
 * Adds a column after the others.
 */
void
sl_data_table_append_column (SlDataTable        *self,
                             const SlDataColumn *def,
                             gpointer            user_data,
                             GDestroyNotify      destroy)
{
  g_autoptr(GtkColumnViewColumn) view_column = NULL;
  g_autoptr(GtkSorter) sorter = NULL;
  GtkListItemFactory *factory;
  Column *column;

  g_return_if_fail (SL_IS_DATA_TABLE (self));
  g_return_if_fail (def != NULL && def->id != NULL && def->title != NULL);
  g_return_if_fail (def->property != NULL || def->text != NULL);
  g_return_if_fail (!(def->flags & SL_DATA_COLUMN_NUMERIC) || def->property != NULL || def->number != NULL);

  column = g_atomic_rc_box_new0 (Column);
  column->id = g_strdup (def->id);
  column->title = def->unit != NULL && def->unit[0] != '\0' ? g_strdup_printf ("%s (%s)", def->title, def->unit)
                                                            : g_strdup (def->title);
  column->csv_title = g_strdup (def->csv_title != NULL ? def->csv_title : column->title);
  column->unit = def->unit != NULL && def->unit[0] != '\0' ? g_strdup (def->unit) : NULL;
  column->flags = def->flags;
  column->property = g_strdup (def->property);
  column->text = def->text;
  column->number = def->number;
  column->tooltip = def->tooltip;
  column->csv = def->csv;
  column->style = def->style;
  column->css_class = g_strdup (def->css_class);
  column->action = g_strdup (def->action);
  column->action_target = def->action_target;
  column->max_width = def->max_width;
  column->user_data = user_data;
  column->destroy = destroy;
  column->table = self;

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), column);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), column);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell_cb), column);

  view_column = gtk_column_view_column_new (column->title, factory);
  column->column = view_column;
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_items, column, NULL));
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, (def->flags & SL_DATA_COLUMN_EXPAND) != 0);
  g_object_set_data (G_OBJECT (view_column), "sl-data-table-column", column);
  /* The column lives while the view column does (an export may hold it
   * longer). */
  g_object_set_data_full (G_OBJECT (view_column), "sl-data-table-column-ref", column, sl_data_table_column_release);

  g_ptr_array_add (self->columns, column);
  gtk_column_view_append_column (self->column_view, view_column);
  gtk_column_view_column_set_fixed_width (view_column, measure_column (self, column));
}

/**
 * sl_data_table_remove_columns:
 *
 * Removes every column, to define them again (a view showing other
 * columns for another grouping or unit).
 */
void
sl_data_table_remove_columns (SlDataTable *self)
{
  GListModel *existing;

  g_return_if_fail (SL_IS_DATA_TABLE (self));

  existing = gtk_column_view_get_columns (self->column_view);
  g_ptr_array_set_size (self->columns, 0);
  while (g_list_model_get_n_items (existing) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (existing, 0);

      gtk_column_view_remove_column (self->column_view, column);
    }
}

guint
sl_data_table_get_n_columns (SlDataTable *self)
{
  g_return_val_if_fail (SL_IS_DATA_TABLE (self), 0);
  return self->columns->len;
}

/**
 * sl_data_table_get_column_id:
 * @index: a column in the order the view appended them
 */
const char *
sl_data_table_get_column_id (SlDataTable *self,
                             guint        index)
{
  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);
  g_return_val_if_fail (index < self->columns->len, NULL);
  return ((Column *)g_ptr_array_index (self->columns, index))->id;
}

/**
 * sl_data_table_get_column_title:
 *
 * Returns: the header: the title with its unit
 */
const char *
sl_data_table_get_column_title (SlDataTable *self,
                                guint        index)
{
  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);
  g_return_val_if_fail (index < self->columns->len, NULL);
  return ((Column *)g_ptr_array_index (self->columns, index))->title;
}

/**
 * sl_data_table_get_column:
 *
 * Returns: (transfer none) (nullable): the column with @id
 */
GtkColumnViewColumn *
sl_data_table_get_column (SlDataTable *self,
                          const char  *id)
{
  Column *column;

  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);
  column = find_column (self, id);
  return column ? column->column : NULL;
}

/**
 * sl_data_table_set_column_title:
 * @title: the new title (translated), without the unit
 *
 * Renames a column (a name column that lists other things).
 */
void
sl_data_table_set_column_title (SlDataTable *self,
                                const char  *id,
                                const char  *title)
{
  Column *column;
  const char *unit;
  g_autofree char *old = NULL;
  g_autofree char *old_csv = NULL;

  g_return_if_fail (SL_IS_DATA_TABLE (self));
  g_return_if_fail (title != NULL);

  if ((column = find_column (self, id)) == NULL)
    return;
  /* The unit stays: "Old (ms)" becomes "New (ms)". */
  unit = column->unit;
  old = g_steal_pointer (&column->title);
  column->title = unit != NULL ? g_strdup_printf ("%s (%s)", title, unit) : g_strdup (title);
  if (g_strcmp0 (column->csv_title, old) == 0)
    {
      old_csv = g_steal_pointer (&column->csv_title);
      column->csv_title = g_strdup (column->title);
    }
  gtk_column_view_column_set_title (column->column, column->title);
  gtk_column_view_column_set_fixed_width (column->column, measure_column (self, column));
}

/**
 * sl_data_table_set_model:
 * @model: (nullable): the rows, unsorted and unfiltered
 */
void
sl_data_table_set_model (SlDataTable *self,
                         GListModel  *model)
{
  g_return_if_fail (SL_IS_DATA_TABLE (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, model_items_changed_cb, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    g_signal_connect_object (model, "items-changed", G_CALLBACK (model_items_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_filter_list_model_set_model (self->filtered, model);
  resize_columns (self);
}

/**
 * sl_data_table_get_model:
 *
 * Returns: (transfer none) (nullable): the model the view gave
 */
GListModel *
sl_data_table_get_model (SlDataTable *self)
{
  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);
  return self->model;
}

/**
 * sl_data_table_get_rows:
 *
 * Returns: (transfer none): the rows as shown: filtered and sorted
 */
GListModel *
sl_data_table_get_rows (SlDataTable *self)
{
  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);
  return G_LIST_MODEL (self->rows);
}

/**
 * sl_data_table_set_filter_text:
 * @text: (nullable): rows whose searchable columns hold it, in any case,
 *   are shown; all when %NULL or empty
 */
void
sl_data_table_set_filter_text (SlDataTable *self,
                               const char  *text)
{
  g_autofree char *folded = NULL;

  g_return_if_fail (SL_IS_DATA_TABLE (self));

  if (text != NULL && text[0] != '\0')
    folded = g_utf8_casefold (text, -1);
  if (g_strcmp0 (folded, self->filter_text) == 0)
    return;
  g_free (self->filter_text);
  self->filter_text = g_steal_pointer (&folded);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/**
 * sl_data_table_set_footer:
 * @footer: (nullable): rows shown after the others whatever the sort and
 *   the filter (a totals row)
 */
void
sl_data_table_set_footer (SlDataTable *self,
                          GListModel  *footer)
{
  g_return_if_fail (SL_IS_DATA_TABLE (self));

  if (g_list_model_get_n_items (G_LIST_MODEL (self->parts)) > 1)
    {
      g_autoptr(GListModel) old = g_list_model_get_item (G_LIST_MODEL (self->parts), 1);

      g_signal_handlers_disconnect_by_func (old, model_items_changed_cb, self);
      g_list_store_remove (self->parts, 1);
    }
  if (footer != NULL)
    {
      g_list_store_append (self->parts, footer);
      g_signal_connect_object (footer, "items-changed", G_CALLBACK (model_items_changed_cb), self, G_CONNECT_SWAPPED);
    }
  resize_columns (self);
}

/**
 * sl_data_table_set_emphasis_func:
 * @func: (nullable): %TRUE for the rows shown in bold (a totals row)
 */
void
sl_data_table_set_emphasis_func (SlDataTable   *self,
                                 SlDataRowFunc  func,
                                 gpointer       user_data)
{
  g_return_if_fail (SL_IS_DATA_TABLE (self));

  self->emphasis = func;
  self->emphasis_data = user_data;
  resize_columns (self);
}

/**
 * sl_data_table_set_extra_filter:
 * @filter: (nullable): a filter of the view's own (a toggle of its
 *   toolbar), applied with the text filter
 */
void
sl_data_table_set_extra_filter (SlDataTable *self,
                                GtkFilter   *filter)
{
  GListModel *filters;

  g_return_if_fail (SL_IS_DATA_TABLE (self));

  filters = G_LIST_MODEL (self->filters);
  if (self->extra_filter != NULL)
    {
      for (guint i = 0; i < g_list_model_get_n_items (filters); i++)
        {
          g_autoptr(GtkFilter) existing = g_list_model_get_item (filters, i);

          if (existing == self->extra_filter)
            {
              gtk_multi_filter_remove (GTK_MULTI_FILTER (self->filters), i);
              break;
            }
        }
    }
  g_set_object (&self->extra_filter, filter);
  if (filter != NULL)
    gtk_multi_filter_append (GTK_MULTI_FILTER (self->filters), g_object_ref (filter));
}

void
sl_data_table_sort_by (SlDataTable *self,
                       const char  *id,
                       GtkSortType  order)
{
  GtkColumnViewColumn *column;

  g_return_if_fail (SL_IS_DATA_TABLE (self));

  if ((column = sl_data_table_get_column (self, id)) != NULL)
    gtk_column_view_sort_by_column (self->column_view, column, order);
}

/**
 * sl_data_table_dup_selected:
 *
 * Returns: (transfer full) (nullable): the selected row's item
 */
gpointer
sl_data_table_dup_selected (SlDataTable *self)
{
  guint position;

  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);

  position = sl_data_table_get_selected_position (self);
  if (position == GTK_INVALID_LIST_POSITION)
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (self->rows), position);
}

/**
 * sl_data_table_get_selected_position:
 *
 * Returns: the selected row (the first one of several), or
 *   %GTK_INVALID_LIST_POSITION
 */
guint
sl_data_table_get_selected_position (SlDataTable *self)
{
  g_autoptr(GtkBitset) selected = NULL;

  g_return_val_if_fail (SL_IS_DATA_TABLE (self), GTK_INVALID_LIST_POSITION);

  selected = gtk_selection_model_get_selection (self->selection);
  return gtk_bitset_is_empty (selected) ? GTK_INVALID_LIST_POSITION : gtk_bitset_get_minimum (selected);
}

/**
 * sl_data_table_select:
 * @position: a row, or %GTK_INVALID_LIST_POSITION for none
 *
 * Selects that row alone.
 */
void
sl_data_table_select (SlDataTable *self,
                      guint        position)
{
  g_return_if_fail (SL_IS_DATA_TABLE (self));

  if (GTK_IS_SINGLE_SELECTION (self->selection))
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (self->selection), position);
  else if (position == GTK_INVALID_LIST_POSITION)
    gtk_selection_model_unselect_all (self->selection);
  else
    gtk_selection_model_select_item (self->selection, position, TRUE);
}

/* GTK 4.8 has no gtk_column_view_scroll_to(); its list view scrolls
 * through the list actions, once it has laid out the rows shown: at the
 * next frame, since the caller may have just changed the rows or the tab. */
static gboolean
scroll_tick_cb (GtkWidget     *column_view,
                GdkFrameClock *clock,
                gpointer       data)
{
  guint position = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (column_view), "sl-scroll-position"));

  for (GtkWidget *child = gtk_widget_get_first_child (column_view); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        /* A tab just shown has its first size in this frame's layout; a
         * view squeezed to nothing is not waited for long. */
        guint frames = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (column_view), "sl-scroll-frames"));

        if (gtk_widget_get_height (child) == 0 && gtk_widget_get_mapped (child) && frames < 10)
          {
            g_object_set_data (G_OBJECT (column_view), "sl-scroll-frames", GUINT_TO_POINTER (frames + 1));
            return G_SOURCE_CONTINUE;
          }
        g_object_set_data (G_OBJECT (column_view), "sl-scroll-frames", NULL);
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
      }
  g_object_set_data (G_OBJECT (column_view), "sl-scroll-tick", NULL);
  return G_SOURCE_REMOVE;
}

/**
 * sl_data_table_scroll_to:
 * @position: a row as shown
 *
 * Scrolls the rows so that @position is in view, at the next frame.
 */
void
sl_data_table_scroll_to (SlDataTable *self,
                         guint        position)
{
  GtkWidget *column_view;

  g_return_if_fail (SL_IS_DATA_TABLE (self));

  if (position == GTK_INVALID_LIST_POSITION)
    return;
  column_view = GTK_WIDGET (sl_data_table_get_column_view (self));
  g_object_set_data (G_OBJECT (column_view), "sl-scroll-position", GUINT_TO_POINTER (position));
  if (g_object_get_data (G_OBJECT (column_view), "sl-scroll-tick") == NULL)
    {
      gtk_widget_add_tick_callback (column_view, scroll_tick_cb, NULL, NULL);
      g_object_set_data (G_OBJECT (column_view), "sl-scroll-tick", GINT_TO_POINTER (TRUE));
    }
}

/* GTK 4.8's list view sizes itself from the rows it has made widgets for,
 * which are few or none until it is laid out, and the scrolled window
 * does not count a horizontal scrollbar that is only sometimes shown:
 * a table left to its natural height came out a row or two tall with a
 * scrollbar of its own. So once laid out, the rows shown give the height
 * of one, and the scrolled window is asked for the header, every row and
 * whatever it puts around them (that scrollbar, borders). */
static gboolean
fit_tick_cb (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       data)
{
  SlDataTable *self = SL_DATA_TABLE (widget);
  GtkWidget *view = GTK_WIDGET (self->column_view);
  GtkWidget *list = NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  int row_height = 0, content, outer;

  for (GtkWidget *child = gtk_widget_get_first_child (view); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      list = child;
  if (list != NULL)
    for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
      if (gtk_widget_get_child_visible (row))
        row_height = MAX (row_height, gtk_widget_get_height (row));

  /* Not laid out yet: wait a few frames, not for ever (an unmapped tab). */
  if (list == NULL || gtk_widget_get_height (view) == 0 || (n > 0 && row_height == 0))
    {
      if (++self->fit_frames < 10)
        return G_SOURCE_CONTINUE;
      self->fit_frames = 0;
      self->fit_tick = 0;
      return G_SOURCE_REMOVE;
    }

  content = gtk_widget_get_height (view) - gtk_widget_get_height (list) + (int)n * row_height;
  if (self->fit_max >= 0)
    content = MIN (content, self->fit_max);
  if (self->fit_min >= 0)
    content = MAX (content, self->fit_min);
  outer = content + gtk_widget_get_height (GTK_WIDGET (self->scroller)) - gtk_widget_get_height (view);

  self->fit_frames = 0;
  if (gtk_widget_get_height (view) != content)
    {
      int current;

      gtk_widget_get_size_request (GTK_WIDGET (self->scroller), NULL, &current);
      if (current != outer)
        {
          /* Checked again once laid out at that size: the horizontal
           * scrollbar may come or go with it. */
          gtk_widget_set_size_request (GTK_WIDGET (self->scroller), -1, outer);
          return G_SOURCE_CONTINUE;
        }
    }
  self->fit_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
fit_rows_later (SlDataTable *self)
{
  if (self->fit_rows && self->fit_tick == 0)
    self->fit_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), fit_tick_cb, NULL, NULL);
}

/**
 * sl_data_table_set_content_height:
 * @min: the least height of the rows' area, -1 for none
 * @max: the most, -1 for none
 *
 * For a table inside a scrolling page: as tall as its rows between @min
 * and @max, scrolling beyond.
 */
void
sl_data_table_set_content_height (SlDataTable *self,
                                  int          min,
                                  int          max)
{
  g_return_if_fail (SL_IS_DATA_TABLE (self));

  gtk_scrolled_window_set_min_content_height (self->scroller, min);
  gtk_scrolled_window_set_max_content_height (self->scroller, max);
  gtk_scrolled_window_set_propagate_natural_height (self->scroller, TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->scroller), FALSE);

  if (!self->fit_rows)
    {
      /* Rows added or removed, or a new width (a horizontal scrollbar
       * shown or gone): both change what the view scrolls. */
      g_signal_connect_object (self->rows, "items-changed", G_CALLBACK (fit_rows_later), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (gtk_scrolled_window_get_hadjustment (self->scroller), "changed",
                               G_CALLBACK (fit_rows_later), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (gtk_scrolled_window_get_vadjustment (self->scroller), "changed",
                               G_CALLBACK (fit_rows_later), self, G_CONNECT_SWAPPED);
      g_signal_connect (self, "map", G_CALLBACK (fit_rows_later), NULL);
    }
  self->fit_rows = TRUE;
  self->fit_min = min;
  self->fit_max = max;
  fit_rows_later (self);
}

/**
 * sl_data_table_set_multiple:
 *
 * Lets several rows be selected (two ranks to compare); call it before
 * anything connects to the selection (gtk_column_view_get_model()).
 */
void
sl_data_table_set_multiple (SlDataTable *self,
                            gboolean     multiple)
{
  g_return_if_fail (SL_IS_DATA_TABLE (self));

  g_clear_object (&self->selection);
  if (multiple)
    {
      self->selection = GTK_SELECTION_MODEL (gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->rows))));
    }
  else
    {
      GtkSingleSelection *single = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->rows)));

      gtk_single_selection_set_autoselect (single, FALSE);
      gtk_single_selection_set_can_unselect (single, TRUE);
      self->selection = GTK_SELECTION_MODEL (single);
    }
  gtk_column_view_set_model (self->column_view, self->selection);
}

/**
 * sl_data_table_get_column_view:
 *
 * Returns: (transfer none): the column view inside, for tests and for
 *   views that scroll to a row
 */
GtkColumnView *
sl_data_table_get_column_view (SlDataTable *self)
{
  g_return_val_if_fail (SL_IS_DATA_TABLE (self), NULL);
  return self->column_view;
}

GtkWidget *
sl_data_table_new (void)
{
  return g_object_new (SL_TYPE_DATA_TABLE, NULL);
}

static void
sl_data_table_dispose (GObject *object)
{
  SlDataTable *self = SL_DATA_TABLE (object);

  sl_data_table_cancel_export (self);
  if (self->export_rows != NULL)
    g_signal_handlers_disconnect_by_data (self->export_rows, self);
  g_clear_object (&self->export_rows);
  g_clear_handle_id (&self->resize_idle, g_source_remove);
  if (self->fit_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->fit_tick);
      self->fit_tick = 0;
    }
  self->fit_rows = FALSE;
  if (self->menu != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->menu));
      self->menu = NULL;
    }
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, model_items_changed_cb, self);
  if (self->column_view != NULL)
    {
      gtk_column_view_set_model (self->column_view, NULL);
      sl_data_table_remove_columns (self);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_DATA_TABLE);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->parts);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filters);
  g_clear_object (&self->filter);
  g_clear_object (&self->extra_filter);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (sl_data_table_parent_class)->dispose (object);
}

static void
sl_data_table_finalize (GObject *object)
{
  SlDataTable *self = SL_DATA_TABLE (object);

  g_clear_pointer (&self->columns, g_ptr_array_unref);
  g_free (self->filter_text);
  g_free (self->export_title);
  g_free (self->export_file_name);
  g_clear_object (&self->export_cancellable);

  G_OBJECT_CLASS (sl_data_table_parent_class)->finalize (object);
}

static void
sl_data_table_class_init (SlDataTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_data_table_dispose;
  object_class->finalize = sl_data_table_finalize;

  /**
   * SlDataTable::row-activated:
   * @position: the row in sl_data_table_get_rows()
   *
   * A row was double-clicked or activated with Enter.
   */
  signals[ROW_ACTIVATED] =
    g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-data-table.ui");
  gtk_widget_class_bind_template_child (widget_class, SlDataTable, scroller);
  gtk_widget_class_bind_template_child (widget_class, SlDataTable, column_view);
  gtk_widget_class_bind_template_child (widget_class, SlDataTable, export_bar);
  gtk_widget_class_bind_template_child (widget_class, SlDataTable, export_label);
  gtk_widget_class_bind_template_child (widget_class, SlDataTable, export_progress);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);

  gtk_widget_class_install_action (widget_class, "table.copy-row", NULL, copy_row_action);
  gtk_widget_class_install_action (widget_class, "table.copy-column", "s", copy_column_action);
  gtk_widget_class_install_action (widget_class, "table.export-csv", NULL, export_csv_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "table.copy-row", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "datatable");
}

static void
sl_data_table_init (SlDataTable *self)
{
  GtkGesture *click;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  self->columns = g_ptr_array_new ();
  self->filter = gtk_custom_filter_new (item_matches, self, NULL);
  self->filters = gtk_every_filter_new ();
  gtk_multi_filter_append (GTK_MULTI_FILTER (self->filters), g_object_ref (GTK_FILTER (self->filter)));
  self->filtered = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filters)));
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->parts = g_list_store_new (G_TYPE_LIST_MODEL);
  g_list_store_append (self->parts, self->sorted);
  self->rows = gtk_flatten_list_model_new (g_object_ref (G_LIST_MODEL (self->parts)));
  sl_data_table_set_multiple (self, FALSE);

  self->menu = GTK_POPOVER (gtk_popover_menu_new_from_model (NULL));
  gtk_popover_set_has_arrow (self->menu, FALSE);
  gtk_widget_set_halign (GTK_WIDGET (self->menu), GTK_ALIGN_START);
  gtk_widget_set_parent (GTK_WIDGET (self->menu), GTK_WIDGET (self));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (context_menu_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}
