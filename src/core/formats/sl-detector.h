/* sl-detector.h: recognises what an opened folder or file holds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-detection.h"

G_BEGIN_DECLS

#define SL_TYPE_DETECTOR (sl_detector_get_type ())
G_DECLARE_FINAL_TYPE (SlDetector, sl_detector, SL, DETECTOR, GObject)

SlDetector  *sl_detector_new                (const char           *path);
const char  *sl_detector_get_path           (SlDetector           *self);
guint        sl_detector_get_files_scanned  (SlDetector           *self);
SlDetection *sl_detector_run                (SlDetector           *self,
                                             GCancellable         *cancellable,
                                             GError              **error);
void         sl_detector_run_async          (SlDetector           *self,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
SlDetection *sl_detector_run_finish         (SlDetector           *self,
                                             GAsyncResult         *result,
                                             GError              **error);

G_END_DECLS
