/* sl-detection.h: the result of running an SlDetector
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-finding.h"
#include "sl-problem.h"

G_BEGIN_DECLS

#define SL_TYPE_DETECTION (sl_detection_get_type ())
G_DECLARE_FINAL_TYPE (SlDetection, sl_detection, SL, DETECTION, GObject)

SlDetection *sl_detection_new               (const char  *root);
const char  *sl_detection_get_root          (SlDetection *self);
GListModel  *sl_detection_get_findings      (SlDetection *self);
GListModel  *sl_detection_get_problems      (SlDetection *self);
void         sl_detection_add_finding       (SlDetection *self,
                                             SlFinding   *finding);
void         sl_detection_add_problem       (SlDetection *self,
                                             SlProblem   *problem);
guint        sl_detection_get_files_scanned (SlDetection *self);
void         sl_detection_set_files_scanned (SlDetection *self,
                                             guint        n_files);
guint        sl_detection_count_kind        (SlDetection  *self,
                                             SlFindingKind kind);
SlFinding   *sl_detection_lookup_finding    (SlDetection  *self,
                                             SlFindingKind kind,
                                             const char   *name);
gint64       sl_detection_get_elapsed       (SlDetection *self);
void         sl_detection_set_elapsed       (SlDetection *self,
                                             gint64       usec);
char        *sl_detection_to_json           (SlDetection *self);

G_END_DECLS
