/* sl-tensor-compare-button.h: the folder page's Compare Tensors button
 *
 * A folder holding two tensor dumps or more (msprobe dumps, folders of
 * .npy files) offers to compare two of them; a popover chooses which is
 * the NPU run and which its benchmark.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-finding.h"

G_BEGIN_DECLS

/* The sides @findings offer, sorted: each msprobe dump's folder and each
 * folder holding .npy tensors. */
GPtrArray *sl_tensor_compare_list_sides (GListModel *findings);
/* The side a benchmark most likely is (named bench, gpu, cpu, golden,
 * ...); 1 when none is. */
guint      sl_tensor_compare_guess_bench (GPtrArray *sides);
/* (nullable): a menu button, when @findings offer two sides or more;
 * *group is the kind of finding whose group shows it. */
GtkWidget *sl_tensor_compare_button_new (GListModel    *findings,
                                         const char    *root,
                                         SlFindingKind *group);

G_END_DECLS
