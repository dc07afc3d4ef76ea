/* sl-cluster-detection.h: which folders of a detection are cluster profiles
 *
 * A folder is a cluster profile when it holds msprof-analyze's
 * cluster_analysis_output, when two rank profile folders (*_ascend_pt,
 * *_ascend_ms) sit side by side in it, or when it is a MindSpore
 * profiler folder with the files of two devices or more. Each becomes an
 * SL_FINDING_CLUSTER finding beside the ranks' own findings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-detection.h"

G_BEGIN_DECLS

/* @analysis_parents: the folders seen holding a cluster_analysis_output,
 * as paths; @root: the folder the detection was run on. */
void sl_cluster_detection_add_findings (SlDetection *detection,
                                        const char  *root,
                                        GPtrArray   *analysis_parents);

G_END_DECLS
