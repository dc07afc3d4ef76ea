/* sl-graph-page-times.c: the graph page's colouring by time, from the op
 * statistics of the nearest profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-graph-page-private.h"
#include "sl-graph-times.h"

static void
times_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SlGraphPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree double *times = sl_graph_times_load_finish (result, &error);
  SlGraph *graph = _sl_graph_page_current_graph (self);

  panel_widget_unmark_busy (PANEL_WIDGET (self));
  if (times == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _sl_graph_page_toast (self, error->message);
      g_object_set (self, "colour-by-time", FALSE, NULL);
      return;
    }
  if (graph == NULL || !self->colour_by_time)
    return;
  self->times_loaded = TRUE;
  sl_graph_layout_set_times (self->layout, times, sl_graph_get_n_ops (graph));
  _sl_graph_page_rebuild (self, SL_GRAPH_SCENE_NONE);
}

void
_sl_graph_page_load_times (SlGraphPage *self)
{
  SlGraph *graph = _sl_graph_page_current_graph (self);
  SlFinding *finding;

  if (graph == NULL)
    return;
  finding = sl_graph_links_find (self->links, SL_GRAPH_LINK_PROFILE);
  if (finding == NULL)
    {
      _sl_graph_page_toast (self, _("No profile of this job is open: open the folder holding its profiler output"));
      g_object_set (self, "colour-by-time", FALSE, NULL);
      return;
    }
  g_free (self->times_source);
  self->times_source = g_strdup (sl_finding_get_path (finding));
  panel_widget_mark_busy (PANEL_WIDGET (self));
  sl_graph_times_load_async (self->times_source, graph, self->cancellable, times_cb, g_object_ref (self));
}
