/* sl-graph-page-search.c: the graph page's search entry and results
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-graph-page-private.h"
#include "sl-graph-result.h"
#include "sl-tooltip.h"

/* Marks the drawn box standing for each hit: a hit inside a collapsed
 * scope marks the scope. */
void
_sl_graph_page_mark_results (SlGraphPage *self)
{
  g_autoptr(GArray) marked = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; self->layout != NULL && i < self->results->len; i++)
    {
      guint32 shown = sl_graph_layout_get_shown_item (self->layout, g_array_index (self->results, guint32, i));

      g_array_append_val (marked, shown);
    }
  sl_graph_canvas_set_marked_ids (self->canvas, (const guint32 *) marked->data, marked->len);
}

static void
results_found_cb (SlGraphPage *self,
                  guint        total)
{
  guint n = self->results->len;
  g_autofree char *n_text = sl_count_format (n);
  g_autofree char *total_text = sl_count_format (total);
  g_autofree char *label = NULL;

  if (total == 0)
    label = g_strdup (_("Nothing found"));
  else if (total > n)
    /* Translators: search results: the first N listed of M */
    label = g_strdup_printf (_("The first %s of %s found"), n_text, total_text);
  else
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s found", "%s found", total), total_text);
  gtk_label_set_label (self->results_label, label);
  gtk_revealer_set_reveal_child (self->results_revealer, TRUE);
  _sl_graph_page_mark_results (self);
}

static void
search_failed_cb (SlGraphPage *self,
                  const char  *message)
{
  gtk_label_set_label (self->results_label, message);
  gtk_revealer_set_reveal_child (self->results_revealer, TRUE);
}

/* A result's whole path, which its row binds as its tooltip, wrapped as
 * a long name's is. */
static gboolean
result_query_tooltip_cb (GtkWidget  *label,
                         int         x,
                         int         y,
                         gboolean    keyboard,
                         GtkTooltip *tooltip,
                         gpointer    user_data)
{
  const char *path = gtk_widget_get_tooltip_text (label);

  if (path == NULL || path[0] == '\0')
    return FALSE;
  sl_tooltip_set_text (tooltip, path);
  return TRUE;
}

/**
 * sl_graph_page_dup_result_label:
 *
 * Returns: (transfer full) (nullable): the name the results list shows
 *   for the @index-th result
 */
char *
sl_graph_page_dup_result_label (SlGraphPage *self,
                                guint        index)
{
  g_autoptr(SlGraphResult) row = NULL;

  g_return_val_if_fail (SL_IS_GRAPH_PAGE (self), NULL);

  row = g_list_model_get_item (sl_graph_finder_get_rows (self->finder), index);
  return row != NULL ? g_strdup (sl_graph_result_get_label (row)) : NULL;
}

static void search_changed_cb (SlGraphPage *self);

void
sl_graph_page_search (SlGraphPage *self,
                      const char  *query,
                      gboolean     regex)
{
  g_return_if_fail (SL_IS_GRAPH_PAGE (self));
  g_return_if_fail (query != NULL);

  /* A search from code shows in the entry as a typed one does. */
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), query) != 0 ||
      gtk_toggle_button_get_active (self->regex_button) != regex)
    {
      g_signal_handlers_block_by_func (self->search_entry, search_changed_cb, self);
      g_signal_handlers_block_by_func (self->regex_button, search_changed_cb, self);
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), query);
      gtk_toggle_button_set_active (self->regex_button, regex);
      g_signal_handlers_unblock_by_func (self->search_entry, search_changed_cb, self);
      g_signal_handlers_unblock_by_func (self->regex_button, search_changed_cb, self);
    }
  sl_graph_finder_find (self->finder, self->graph_index, _sl_graph_page_current_graph (self), query, regex);
  if (query[0] == '\0' || _sl_graph_page_current_graph (self) == NULL)
    {
      gtk_revealer_set_reveal_child (self->results_revealer, FALSE);
      _sl_graph_page_mark_results (self);
    }
}

GArray *
sl_graph_page_get_results (SlGraphPage *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_PAGE (self), NULL);

  return self->results;
}

static void
search_changed_cb (SlGraphPage *self)
{
  sl_graph_page_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)),
                        gtk_toggle_button_get_active (self->regex_button));
}

/* Enter in the entry goes to the first hit. */
static void
search_activate_cb (SlGraphPage *self)
{
  if (self->results->len > 0)
    sl_graph_page_reveal (self, g_array_index (self->results, guint32, 0));
}

static void
search_stop_cb (SlGraphPage *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

static void
result_activated_cb (SlGraphPage *self,
                     guint        position)
{
  if (position < self->results->len)
    sl_graph_page_reveal (self, g_array_index (self->results, guint32, position));
}

void
_sl_graph_page_class_init_search (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, result_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, result_query_tooltip_cb);
  g_type_ensure (SL_TYPE_GRAPH_RESULT);
}

void
_sl_graph_page_init_search (SlGraphPage *self)
{
  self->finder = sl_graph_finder_new ();
  self->results = sl_graph_finder_get_results (self->finder);
  g_signal_connect_object (self->finder, "finished", G_CALLBACK (results_found_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->finder, "failed", G_CALLBACK (search_failed_cb), self, G_CONNECT_SWAPPED);
  gtk_single_selection_set_model (self->results_selection, sl_graph_finder_get_rows (self->finder));
}
