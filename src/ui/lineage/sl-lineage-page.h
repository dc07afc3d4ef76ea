/* sl-lineage-page.h: every run of a folder compared: parameters and
 * results in a table, parallel coordinates, importance, scatter and the
 * runs' dataset pipelines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-data-table.h"
#include "sl-document.h"
#include "sl-lineage-table.h"
#include "sl-parallel-coordinates.h"

G_BEGIN_DECLS

#define SL_TYPE_LINEAGE_PAGE (sl_lineage_page_get_type ())
G_DECLARE_FINAL_TYPE (SlLineagePage, sl_lineage_page, SL, LINEAGE_PAGE, SlDocument)

SlLineageTable        *sl_lineage_page_get_table         (SlLineagePage *self);
SlParallelCoordinates *sl_lineage_page_get_parallel      (SlLineagePage *self);
/* The runs' table: its columns are the Run, the lineage table's by id,
 * the note and the tags. */
SlDataTable           *sl_lineage_page_get_data_table    (SlLineagePage *self);
/* The runs the table shows, in its order. */
guint                  sl_lineage_page_get_n_shown       (SlLineagePage *self);
void                   sl_lineage_page_select_run        (SlLineagePage *self,
                                                          gint           run);
gint                   sl_lineage_page_get_selected_run  (SlLineagePage *self);
void                   sl_lineage_page_set_target        (SlLineagePage *self,
                                                          guint          column);
void                   sl_lineage_page_set_column_shown  (SlLineagePage *self,
                                                          guint          column,
                                                          gboolean       shown);
void                   sl_lineage_page_sort_by           (SlLineagePage *self,
                                                          guint          column,
                                                          gboolean       descending);
/* After the table's filters changed. */
void                   sl_lineage_page_filters_changed   (SlLineagePage *self);
/* Keeps a note and tags for the selected run in the workspace database. */
void                   sl_lineage_page_set_note          (SlLineagePage *self,
                                                          const char    *note,
                                                          const char    *tags);
const char            *sl_lineage_page_get_note          (SlLineagePage *self,
                                                          guint          run);
/* Shows "table", "parallel", "importance", "scatter" or "datasets". */
void                   sl_lineage_page_show_view         (SlLineagePage *self,
                                                          const char    *name);
guint                  sl_lineage_page_get_n_importance_rows (SlLineagePage *self);
void                   sl_lineage_page_open_selected_run (SlLineagePage *self);
gboolean               sl_lineage_page_is_run_marked     (SlLineagePage *self,
                                                          guint          run);
const char            *sl_lineage_page_get_run_label     (SlLineagePage *self,
                                                          guint          run);

G_END_DECLS
