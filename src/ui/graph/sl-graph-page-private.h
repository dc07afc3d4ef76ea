/* sl-graph-page-private.h: what the graph page's files share
 *
 * sl-graph-page.c holds the page (its template, actions, properties and
 * the scenes it hosts), sl-graph-page-search.c the search entry and its
 * results, sl-graph-page-verdicts.c the tint of a tensor comparison and
 * its legend, sl-graph-page-times.c the colouring by measured time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "sl-graph-finder.h"
#include "sl-graph-links.h"
#include "sl-graph-load.h"
#include "sl-graph-node-menu.h"
#include "sl-graph-page.h"
#include "sl-graph-scene-builder.h"

G_BEGIN_DECLS

struct _SlGraphPage
{
  SlDocument      parent_instance;

  char           *path;
  GCancellable   *cancellable;        /* the page's life */
  SlGraphSceneBuilder *builder;
  SlGraphLoad    *load;
  SlGraphLinks   *links;
  GPtrArray      *graphs;             /* the load's: SlGraph */
  guint           graph_index;
  SlGraphLayout  *layout;
  SlGraphScene   *scene;
  guint32         selected;           /* item, or SL_GRAPH_SCENE_NONE */
  guint32         reveal_after_build;
  SlGraphFinder  *finder;
  GArray         *results;            /* the finder's: guint32 items */
  gboolean        hide_bookkeeping;
  gboolean        colour_by_time;
  gboolean        times_loaded;
  char           *times_source;

  GtkStack       *stack;
  AdwStatusPage  *failed_page;
  GtkDropDown    *graph_dropdown;
  GtkSearchEntry *search_entry;
  GtkToggleButton *regex_button;
  GtkLabel       *status_label;
  SlGraphCanvas  *canvas;
  GtkRevealer    *results_revealer;
  GtkLabel       *results_label;
  GtkListView    *results_view;
  GtkSingleSelection *results_selection;
  GtkProgressBar *progress_bar;
  SlGraphVerdictLegend *verdict_legend;  /* shown while ops are tinted by verdict */
  GtkPopoverMenu *node_popover;
  SlGraphNodeMenu *menu;
};

SlGraph *_sl_graph_page_current_graph     (SlGraphPage    *self);
void     _sl_graph_page_toast             (SlGraphPage    *self,
                                           const char     *message);
void     _sl_graph_page_rebuild           (SlGraphPage    *self,
                                           guint32         anchor);

/* sl-graph-page-search.c */
void     _sl_graph_page_class_init_search (GtkWidgetClass *widget_class);
void     _sl_graph_page_init_search       (SlGraphPage    *self);
void     _sl_graph_page_mark_results      (SlGraphPage    *self);

/* sl-graph-page-verdicts.c */
void     _sl_graph_page_class_init_verdicts (GtkWidgetClass *widget_class);

/* sl-graph-page-times.c */
void     _sl_graph_page_load_times        (SlGraphPage    *self);

G_END_DECLS
