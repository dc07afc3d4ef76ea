/* sl-lineage-run.h: what one training run was given and what it achieved
 *
 * The values of a run's lineage grouped as the Lineage view and the CLI
 * show them: hyperparameters, metrics, user-defined values, the dataset
 * and the model. Values are kept as the text the source had; a column
 * of numbers is told apart by the table that holds the run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_LINEAGE_GROUP_HYPERPARAMETERS,
  SL_LINEAGE_GROUP_METRICS,
  SL_LINEAGE_GROUP_USER_DEFINED,
  SL_LINEAGE_GROUP_DATASET,
  SL_LINEAGE_GROUP_MODEL,
  SL_LINEAGE_N_GROUPS,
} SlLineageGroup;

#define SL_TYPE_LINEAGE_RUN (sl_lineage_run_get_type ())
G_DECLARE_FINAL_TYPE (SlLineageRun, sl_lineage_run, SL, LINEAGE_RUN, GObject)

SlLineageRun *sl_lineage_run_new               (const char      *name,
                                                const char      *path);
const char   *sl_lineage_run_get_name          (SlLineageRun    *self);
const char   *sl_lineage_run_get_path          (SlLineageRun    *self);
void          sl_lineage_run_set               (SlLineageRun    *self,
                                                SlLineageGroup   group,
                                                const char      *key,
                                                const char      *value);
const char   *sl_lineage_run_get               (SlLineageRun    *self,
                                                SlLineageGroup   group,
                                                const char      *key);
gboolean      sl_lineage_run_get_number        (SlLineageRun    *self,
                                                SlLineageGroup   group,
                                                const char      *key,
                                                double          *value);
/* The keys of @group in the order first set. */
guint         sl_lineage_run_get_n_keys        (SlLineageRun    *self,
                                                SlLineageGroup   group);
const char   *sl_lineage_run_get_key           (SlLineageRun    *self,
                                                SlLineageGroup   group,
                                                guint            index);
gboolean      sl_lineage_run_is_empty          (SlLineageRun    *self);
void          sl_lineage_run_set_dataset_graph (SlLineageRun    *self,
                                                GBytes          *bytes,
                                                const char      *source);
GBytes       *sl_lineage_run_get_dataset_graph (SlLineageRun    *self);
const char   *sl_lineage_run_get_dataset_graph_source (SlLineageRun *self);

const char   *sl_lineage_group_to_string       (SlLineageGroup   group);
const char   *sl_lineage_group_to_label        (SlLineageGroup   group);
gboolean      sl_lineage_parse_number          (const char      *text,
                                                double          *value);
const char   *sl_lineage_format_number         (double           value,
                                                char            *buf,
                                                gsize            size);

G_END_DECLS
