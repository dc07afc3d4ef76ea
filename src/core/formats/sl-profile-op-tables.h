/* sl-profile-op-tables.h: the column specs of the op and API tables
 *
 * MindSpore's aicore_intermediate_<id>_type/_detail, aicpu_intermediate,
 * framework_raw and flops files; msprof's op_summary, op_statistic,
 * api_statistic and task_time; torch_npu's kernel_details, op_statistic
 * and api_statistic.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-profile-table-reader.h"

G_BEGIN_DECLS

extern const SlProfileTableSpec sl_profile_ms_aicore_type_table;
extern const SlProfileTableSpec sl_profile_ms_aicore_detail_table;
extern const SlProfileTableSpec sl_profile_ms_aicpu_table;
extern const SlProfileTableSpec sl_profile_ms_framework_table;
extern const SlProfileTableSpec sl_profile_ms_flops_table;
extern const SlProfileTableSpec sl_profile_op_summary_table;
extern const SlProfileTableSpec sl_profile_task_time_table;
extern const SlProfileTableSpec sl_profile_op_statistic_table;
extern const SlProfileTableSpec sl_profile_api_statistic_table;

G_END_DECLS
