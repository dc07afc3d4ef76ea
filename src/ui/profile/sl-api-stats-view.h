/* sl-api-stats-view.h: host API statistics (AscendCL, Runtime, HCCL, ...)
 * of one rank as a sortable, filterable table, per level and per step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-profile.h"

G_BEGIN_DECLS

#define SL_API_STATS_ALL_STEPS G_MAXUINT

#define SL_TYPE_API_STATS_VIEW (sl_api_stats_view_get_type ())
G_DECLARE_FINAL_TYPE (SlApiStatsView, sl_api_stats_view, SL, API_STATS_VIEW, GtkBox)

GtkWidget   *sl_api_stats_view_new              (void);
void         sl_api_stats_view_set_rank         (SlApiStatsView      *self,
                                                 const SlProfileRank *rank);
gboolean     sl_api_stats_view_is_empty         (SlApiStatsView      *self);
const char  *sl_api_stats_view_get_empty_text   (SlApiStatsView      *self);
gboolean     sl_api_stats_view_is_busy          (SlApiStatsView      *self);

/* @level: (nullable): as the file writes it ("acl"), NULL for every level */
void         sl_api_stats_view_set_level        (SlApiStatsView      *self,
                                                 const char          *level);
guint        sl_api_stats_view_get_n_levels     (SlApiStatsView      *self);
const char  *sl_api_stats_view_get_levels_text  (SlApiStatsView      *self);
/* Whether the rank's calls can be told apart by step (the SQLite export). */
gboolean     sl_api_stats_view_has_steps        (SlApiStatsView      *self);
void         sl_api_stats_view_set_step         (SlApiStatsView      *self,
                                                 guint                index);
void         sl_api_stats_view_set_filter       (SlApiStatsView      *self,
                                                 const char          *text);

GListModel  *sl_api_stats_view_get_rows         (SlApiStatsView      *self);
guint        sl_api_stats_view_get_n_columns    (SlApiStatsView      *self);
const char  *sl_api_stats_view_get_column_title (SlApiStatsView      *self,
                                                 guint                index);
void         sl_api_stats_view_sort_by          (SlApiStatsView      *self,
                                                 const char          *column_id,
                                                 gboolean             descending);
void         sl_api_stats_view_select           (SlApiStatsView      *self,
                                                 guint                position);
char        *sl_api_stats_view_dup_cell         (SlApiStatsView      *self,
                                                 SlOpRow             *row,
                                                 const char          *column_id);
char        *sl_api_stats_view_dup_tooltip      (SlApiStatsView      *self,
                                                 SlOpRow             *row);
/* Percent of the row's level, and of the step's time (-1 unknown). */
double       sl_api_stats_view_get_level_share  (SlApiStatsView      *self,
                                                 SlOpRow             *row);
double       sl_api_stats_view_get_step_share   (SlApiStatsView      *self,
                                                 SlOpRow             *row);

G_END_DECLS
