/* sl-lineage-table.h: the lineage of every run below a folder, as columns
 *
 * The table reads a folder's _lineage files and TensorBoard HParams
 * sessions into one SlLineageRun a run, finds the columns (every key of
 * every group any run has), types them as numbers or categories, filters
 * runs by ranges and values, and ranks the columns by how strongly they
 * go with a chosen target.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-lineage-run.h"
#include "sl-problem.h"

G_BEGIN_DECLS

/* Below this many runs with both values a correlation says little: the
 * importance is computed but marked as not enough to go on. */
#define SL_LINEAGE_MIN_RUNS_FOR_IMPORTANCE 5

typedef enum {
  SL_LINEAGE_COLUMN_NUMERIC,
  SL_LINEAGE_COLUMN_CATEGORICAL,
} SlLineageColumnType;

typedef struct {
  SlLineageGroup       group;
  char                *key;
  char                *id;          /* "group/key", stable */
  SlLineageColumnType  type;
  guint                n_values;    /* runs that have one */
  double               min;         /* numeric columns */
  double               max;
  GPtrArray           *categories;  /* distinct values, sorted */
} SlLineageColumn;

typedef struct {
  guint    column;
  guint    n_runs;      /* runs with both values */
  double   pearson;     /* absolute; NaN when a side is constant */
  double   spearman;    /* absolute, on average ranks; NaN likewise */
  gboolean enough;      /* n_runs >= SL_LINEAGE_MIN_RUNS_FOR_IMPORTANCE */
} SlLineageImportance;

#define SL_TYPE_LINEAGE_TABLE (sl_lineage_table_get_type ())
G_DECLARE_FINAL_TYPE (SlLineageTable, sl_lineage_table, SL, LINEAGE_TABLE, GObject)

SlLineageTable        *sl_lineage_table_new                (void);
SlLineageTable        *sl_lineage_table_load               (const char           *path,
                                                            GCancellable         *cancellable,
                                                            GError              **error);
void                   sl_lineage_table_add_run            (SlLineageTable       *self,
                                                            SlLineageRun         *run);
void                   sl_lineage_table_add_problem        (SlLineageTable       *self,
                                                            SlProblem            *problem);
void                   sl_lineage_table_update_columns     (SlLineageTable       *self);

guint                  sl_lineage_table_get_n_runs         (SlLineageTable       *self);
SlLineageRun          *sl_lineage_table_get_run            (SlLineageTable       *self,
                                                            guint                 index);
gint                   sl_lineage_table_find_run           (SlLineageTable       *self,
                                                            const char           *name);
guint                  sl_lineage_table_get_n_columns      (SlLineageTable       *self);
const SlLineageColumn *sl_lineage_table_get_column         (SlLineageTable       *self,
                                                            guint                 index);
gint                   sl_lineage_table_find_column        (SlLineageTable       *self,
                                                            const char           *id);
GPtrArray             *sl_lineage_table_get_problems       (SlLineageTable       *self);

const char            *sl_lineage_table_get_text           (SlLineageTable       *self,
                                                            guint                 run,
                                                            guint                 column);
gboolean               sl_lineage_table_get_number         (SlLineageTable       *self,
                                                            guint                 run,
                                                            guint                 column,
                                                            double               *value);
int                    sl_lineage_table_compare_runs       (SlLineageTable       *self,
                                                            guint                 column,
                                                            guint                 a,
                                                            guint                 b);

void                   sl_lineage_table_set_range_filter   (SlLineageTable       *self,
                                                            guint                 column,
                                                            double                min,
                                                            double                max);
void                   sl_lineage_table_set_value_filter   (SlLineageTable       *self,
                                                            guint                 column,
                                                            const char * const   *values);
void                   sl_lineage_table_clear_filter       (SlLineageTable       *self,
                                                            guint                 column);
void                   sl_lineage_table_clear_filters      (SlLineageTable       *self);
gboolean               sl_lineage_table_has_filter         (SlLineageTable       *self,
                                                            guint                 column);
gboolean               sl_lineage_table_get_range_filter   (SlLineageTable       *self,
                                                            guint                 column,
                                                            double               *min,
                                                            double               *max);
gboolean               sl_lineage_table_run_passes         (SlLineageTable       *self,
                                                            guint                 run);
guint                  sl_lineage_table_count_passing      (SlLineageTable       *self);

GArray                *sl_lineage_table_compute_importance (SlLineageTable       *self,
                                                            guint                 target,
                                                            gboolean              passing_only);

double                 sl_lineage_pearson                  (const double         *x,
                                                            const double         *y,
                                                            guint                 n);
double                 sl_lineage_spearman                 (const double         *x,
                                                            const double         *y,
                                                            guint                 n);

G_END_DECLS
