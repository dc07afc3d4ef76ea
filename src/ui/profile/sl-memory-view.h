/* sl-memory-view.h: the Memory page of a profile
 *
 * The components' memory over time with the peak, the operators'
 * lifetimes, and tables of the holders at the peak, every allocation,
 * the components and the modules; says which files it needs and where it
 * looked when the rank has none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-memory-chart.h"
#include "sl-memory-profile.h"

G_BEGIN_DECLS

#define SL_TYPE_MEMORY_VIEW (sl_memory_view_get_type ())
G_DECLARE_FINAL_TYPE (SlMemoryView, sl_memory_view, SL, MEMORY_VIEW, GtkBox)

GtkWidget     *sl_memory_view_new                   (void);
void           sl_memory_view_set_memory            (SlMemoryView    *self,
                                                     SlMemoryProfile *memory,
                                                     const char      *dir);
SlMemoryChart *sl_memory_view_get_chart             (SlMemoryView    *self);
gboolean       sl_memory_view_get_empty             (SlMemoryView    *self);
const char    *sl_memory_view_get_empty_description (SlMemoryView    *self);
gboolean       sl_memory_view_show_op               (SlMemoryView    *self,
                                                     const char      *name);
const char    *sl_memory_view_get_peak_text         (SlMemoryView    *self);
void           sl_memory_view_show_table            (SlMemoryView    *self,
                                                     const char      *name);
GListModel    *sl_memory_view_get_table             (SlMemoryView    *self);
GtkColumnView *sl_memory_view_get_column_view       (SlMemoryView    *self);
void           sl_memory_view_set_filter            (SlMemoryView    *self,
                                                     const char      *text);
const char    *sl_memory_view_get_count_text        (SlMemoryView    *self);

G_END_DECLS
