/* sl-profile-info-reader.h: the JSON files of a profiler folder
 *
 * profiler_info_<id>.json, msprof's info.json.N and torch_npu's
 * profiler_metadata.json describe the rank; MindSpore's
 * timeline_summary_<id>.json and flops_summary_<id>.json sum it up. Each
 * is flattened into the rank's info ("DeviceInfo.0.id"); the rank and
 * device ids and the stream count are taken from it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-profile.h"

G_BEGIN_DECLS

void sl_profile_read_info         (SlProfile     *profile,
                                   SlProfileRank *rank,
                                   const char    *path);
/* Kept as info under @prefix ("timeline", "flops"). */
void sl_profile_read_json_summary (SlProfile     *profile,
                                   SlProfileRank *rank,
                                   const char    *path,
                                   const char    *prefix);

G_END_DECLS
