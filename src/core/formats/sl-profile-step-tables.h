/* sl-profile-step-tables.h: the column specs of the step tables
 *
 * msprof's step_trace_*.csv, torch_npu's step_trace_time.csv,
 * msprof-analyze's cluster_step_trace_time.csv and MindSpore's
 * step_trace_raw_<id>_detail_time.csv (whose averages row and
 * communication columns make it a reader of its own).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-profile-table-reader.h"

G_BEGIN_DECLS

extern const SlProfileTableSpec sl_profile_ms_step_table;
extern const SlProfileTableSpec sl_profile_msprof_step_table;
extern const SlProfileTableSpec sl_profile_pt_step_table;
extern const SlProfileTableSpec sl_profile_cluster_step_table;

/* A step with no number and no times. */
void sl_profile_step_init (SlStep *step);

G_END_DECLS
