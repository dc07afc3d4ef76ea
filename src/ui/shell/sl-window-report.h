/* sl-window-report.h: a PNG and a JSON description of a window, for
 * tests, benchmarks and documentation screenshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-window.h"

G_BEGIN_DECLS

gboolean sl_window_report_save_png  (SlWindow    *window,
                                     const char  *path,
                                     GError     **error);
char    *sl_window_report_to_json   (SlWindow    *window);
void     sl_window_report_when_idle (SlWindow    *window,
                                     const char  *png_path,
                                     const char  *json_path);

G_END_DECLS
