/* sl-data-table-private.h: what the files of SlDataTable share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-data-table.h"
#include "sl-progress.h"

G_BEGIN_DECLS

/* A column as the table keeps it: an atomic reference-counted box, held
 * by its column view column and by every export of it. */
typedef struct {
  char              *id;
  char              *title;      /* with the unit */
  char              *csv_title;
  char              *unit;
  SlDataColumnFlags  flags;
  char              *property;
  SlDataTextFunc     text;
  SlDataNumberFunc   number;
  SlDataTextFunc     tooltip;
  SlDataTextFunc     csv;
  SlDataStyleFunc    style;
  char              *css_class;
  char              *action;
  SlDataTargetFunc   action_target;
  int                max_width;
  gpointer           user_data;
  GDestroyNotify     destroy;
  SlDataTable       *table;      /* unowned, read on the main thread only */
  GtkColumnViewColumn *column;   /* unowned */
} Column;

struct _SlDataTable
{
  GtkWidget           parent_instance;

  GListModel         *model;
  GtkFilterListModel *filtered;
  GtkSortListModel   *sorted;
  GListStore         *parts;         /* sorted, then the footer if any */
  GtkFlattenListModel *rows;
  GtkSelectionModel  *selection;     /* single, or multiple when asked */
  SlDataRowFunc       emphasis;      /* TRUE for rows in bold */
  gpointer            emphasis_data;
  GtkCustomFilter    *filter;
  GtkFilter          *extra_filter;
  GtkEveryFilter     *filters;
  char               *filter_text;   /* casefolded */
  GPtrArray          *columns;       /* Column (atomic rc boxes) */
  guint               resize_idle;
  gboolean            fit_rows;      /* as tall as the rows, see set_content_height */
  int                 fit_min;
  int                 fit_max;
  guint               fit_tick;
  guint               fit_frames;

  char               *export_title;
  char               *export_file_name;
  GCancellable       *export_cancellable;
  SlProgress         *export_rows;   /* rows written, of all */
  GtkPopover         *menu;

  GtkScrolledWindow  *scroller;
  GtkColumnView      *column_view;
  GtkRevealer        *export_bar;
  GtkLabel           *export_label;
  GtkProgressBar     *export_progress;
};

void       sl_data_table_column_release    (gpointer      column);
char      *sl_data_table_column_dup_csv    (const Column *column,
                                            gpointer      item);
GPtrArray *sl_data_table_dup_shown_columns (SlDataTable  *self);

G_END_DECLS
