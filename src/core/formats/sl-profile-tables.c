/* sl-profile-tables.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-profile-op-tables.h"
#include "sl-profile-step-tables.h"
#include "sl-profile-tables.h"

static const SlProfileTableSpec *const tables[] = {
  &sl_profile_ms_step_table,
  &sl_profile_msprof_step_table,
  &sl_profile_pt_step_table,
  &sl_profile_cluster_step_table,
  &sl_profile_ms_aicore_type_table,
  &sl_profile_op_statistic_table,
  &sl_profile_ms_aicore_detail_table,
  &sl_profile_ms_aicpu_table,
  &sl_profile_op_summary_table,
  &sl_profile_task_time_table,
  &sl_profile_ms_framework_table,
  &sl_profile_ms_flops_table,
  &sl_profile_api_statistic_table,
};

const SlProfileTableSpec *const *
sl_profile_tables (guint *n_tables)
{
  *n_tables = G_N_ELEMENTS (tables);
  return tables;
}

const SlProfileTableSpec *
sl_profile_table_for_kind (SlProfileFileKind kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (tables[i]->kind == kind)
      return tables[i];
  return NULL;
}
