/* sl-graph-links.h: a graph's links to the profile and the timeline of
 * the same job, and the links into it
 *
 * Profiles and traces name an op by its full name, the graph by its item:
 * this is where the two meet. Going out, an op opens in the op statistics
 * or on the timeline of the profile nearest the graph's file (through
 * win.open-document; a toast says when none is open). Coming in, a
 * request's op name (or hierarchy path) is looked up in each of the
 * document's graphs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"
#include "sl-graph.h"

G_BEGIN_DECLS

typedef enum {
  SL_GRAPH_LINK_PROFILE,          /* the op statistics of a profile */
  SL_GRAPH_LINK_TIMELINE,         /* a profile's or a trace's timeline */
} SlGraphLinkTarget;

#define SL_TYPE_GRAPH_LINKS (sl_graph_links_get_type ())
G_DECLARE_FINAL_TYPE (SlGraphLinks, sl_graph_links, SL, GRAPH_LINKS, GObject)

/* @document (unowned: it owns the links) is the graph's. */
SlGraphLinks *sl_graph_links_new          (SlDocument        *document);
/* The profile or trace nearest the graph's file, or NULL if none is open. */
SlFinding    *sl_graph_links_find         (SlGraphLinks      *self,
                                           SlGraphLinkTarget  target);
/* Opens the op named @name (as profiles write it) in @target. */
void          sl_graph_links_show_op      (SlGraphLinks      *self,
                                           SlGraphLinkTarget  target,
                                           const char        *name);
/* The name profiles give @item: its full name, or NULL if not an op. */
char         *sl_graph_links_dup_op_name  (SlGraph           *graph,
                                           guint              item);
/* Where the op named @name (or the item at that hierarchy path) is among
 * @graphs (SlGraph): FALSE if in none of them. */
gboolean      sl_graph_links_locate       (GPtrArray         *graphs,
                                           const char        *name,
                                           guint             *graph_index,
                                           guint             *item);

G_END_DECLS
