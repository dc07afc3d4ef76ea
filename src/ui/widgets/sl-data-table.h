/* sl-data-table.h: the one table of Sightline's views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SL_TYPE_DATA_TABLE (sl_data_table_get_type ())
G_DECLARE_FINAL_TYPE (SlDataTable, sl_data_table, SL, DATA_TABLE, GtkWidget)

/* The text of a cell for @item, newly allocated or NULL. */
typedef char   *(*SlDataTextFunc)   (gpointer item,
                                     gpointer user_data);
/* The value of a number cell, what the column sorts by. */
typedef double  (*SlDataNumberFunc) (gpointer item,
                                     gpointer user_data);

/* A CSS class for a cell (a static string), or NULL. */
typedef const char *(*SlDataStyleFunc) (gpointer item,
                                        gpointer user_data);
/* Whether @item is one of the rows the function picks. */
typedef gboolean (*SlDataRowFunc)  (gpointer item,
                                    gpointer user_data);
/* The target of a button cell's action (floating or new), or NULL for a
 * row without the button. */
typedef GVariant *(*SlDataTargetFunc) (gpointer item,
                                       gpointer user_data);

typedef enum {
  SL_DATA_COLUMN_NUMERIC         = 1 << 0,  /* right-aligned, tabular figures, never cut */
  SL_DATA_COLUMN_SEARCHABLE      = 1 << 1,  /* the filter looks at it (every text column when none is) */
  SL_DATA_COLUMN_EXPAND          = 1 << 2,  /* takes the width left over */
  SL_DATA_COLUMN_ELLIPSIZE_START = 1 << 3,  /* text cut at the start (paths); the end by default */
  SL_DATA_COLUMN_ELLIPSIZE_MIDDLE = 1 << 4, /* text cut in the middle (scoped names) */
  SL_DATA_COLUMN_BADGE           = 1 << 5,  /* a short word as wide as itself, never cut (a verdict pill) */
  SL_DATA_COLUMN_BUTTON          = 1 << 6,  /* a flat button labelled with the text, activating @action */
} SlDataColumnFlags;

/* One column as a view defines it. The strings are copied; the functions
 * run on the main thread and, while a CSV export is written, on a worker
 * thread: they may read only @item and @user_data, which the column keeps
 * (with the destroy notify given) while it or an export of it lives. */
typedef struct {
  const char        *id;
  const char        *title;      /* translated */
  const char        *unit;       /* nullable: the header reads "Total (ms)" */
  SlDataColumnFlags  flags;
  const char        *property;   /* nullable: a property of the item gives text and number */
  SlDataTextFunc     text;       /* the cell's text, unless @property */
  SlDataNumberFunc   number;     /* the sort key of a numeric column, unless @property */
  SlDataTextFunc     tooltip;    /* nullable: the whole text for text cells */
  SlDataTextFunc     csv;        /* nullable: the CSV field; the cell's text when NULL */
  const char        *csv_title;  /* nullable: the CSV header; "title (unit)" when NULL */
  SlDataStyleFunc    style;      /* nullable: a CSS class of the cell ("error", "success") */
  const char        *css_class;  /* nullable: a CSS class of every cell of the column */
  const char        *action;     /* with BUTTON: the action the button activates ("win.open-document") */
  SlDataTargetFunc   action_target; /* with BUTTON: the action's target for a row; NULL hides the button */
  int                max_width;  /* a text column's widest first size in pixels (0: the table's); an EXPAND
                                  * column still takes the width left over */
} SlDataColumn;

GtkWidget    *sl_data_table_new                (void);
void          sl_data_table_append_column      (SlDataTable         *self,
                                                const SlDataColumn  *column,
                                                gpointer             user_data,
                                                GDestroyNotify       destroy);
void          sl_data_table_remove_columns     (SlDataTable         *self);
guint         sl_data_table_get_n_columns      (SlDataTable         *self);
const char   *sl_data_table_get_column_id      (SlDataTable         *self,
                                                guint                index);
const char   *sl_data_table_get_column_title   (SlDataTable         *self,
                                                guint                index);
GtkColumnViewColumn *sl_data_table_get_column  (SlDataTable         *self,
                                                const char          *id);
void          sl_data_table_set_column_title   (SlDataTable         *self,
                                                const char          *id,
                                                const char          *title);
void          sl_data_table_set_model          (SlDataTable         *self,
                                                GListModel          *model);
GListModel   *sl_data_table_get_model          (SlDataTable         *self);
GListModel   *sl_data_table_get_rows           (SlDataTable         *self);
void          sl_data_table_set_filter_text    (SlDataTable         *self,
                                                const char          *text);
void          sl_data_table_set_extra_filter   (SlDataTable         *self,
                                                GtkFilter           *filter);
void          sl_data_table_set_footer         (SlDataTable         *self,
                                                GListModel          *footer);
void          sl_data_table_set_emphasis_func  (SlDataTable         *self,
                                                SlDataRowFunc        func,
                                                gpointer             user_data);
void          sl_data_table_sort_by            (SlDataTable         *self,
                                                const char          *id,
                                                GtkSortType          order);
gpointer      sl_data_table_dup_selected       (SlDataTable         *self);
guint         sl_data_table_get_selected_position (SlDataTable      *self);
void          sl_data_table_select             (SlDataTable         *self,
                                                guint                position);
void          sl_data_table_scroll_to          (SlDataTable         *self,
                                                guint                position);
void          sl_data_table_set_multiple       (SlDataTable         *self,
                                                gboolean             multiple);
void          sl_data_table_set_content_height (SlDataTable         *self,
                                                int                  min,
                                                int                  max);
GtkColumnView *sl_data_table_get_column_view   (SlDataTable         *self);

char         *sl_data_table_dup_row_text       (SlDataTable         *self,
                                                guint                position);
char         *sl_data_table_dup_column_text    (SlDataTable         *self,
                                                const char          *id);
gboolean      sl_data_table_copy_row           (SlDataTable         *self);
gboolean      sl_data_table_copy_column        (SlDataTable         *self,
                                                const char          *id);

void          sl_data_table_set_export_title   (SlDataTable         *self,
                                                const char          *title,
                                                const char          *file_name);
void          sl_data_table_export_csv_async   (SlDataTable         *self,
                                                GFile               *file,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean      sl_data_table_export_csv_finish  (SlDataTable         *self,
                                                GAsyncResult        *result,
                                                GError             **error);
double        sl_data_table_get_export_fraction (SlDataTable        *self);
void          sl_data_table_save_csv           (SlDataTable         *self,
                                                GFile               *file);
void          sl_data_table_choose_csv_file    (SlDataTable         *self);
gboolean      sl_data_table_is_exporting       (SlDataTable         *self);
void          sl_data_table_cancel_export      (SlDataTable         *self);

G_END_DECLS
