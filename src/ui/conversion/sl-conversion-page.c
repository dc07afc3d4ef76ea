/* sl-conversion-page.c
 *
 * The document's address names both models, the source then the
 * converted one, so the same pair raises the same tab.
 * Both models are read and matched in a worker; the table lists every
 * converted op, then the source ops that vanished, filtered by status.
 * An op's name opens the converted model's graph at it, Show opens the
 * source model's graph at its first source op, and Details links every
 * source op. The request "(s)" "graphs" (sl_conversion_page_new_open_request())
 * opens both graphs beside the table once it is ready, as the Convert
 * dialog's and the folder page's buttons ask.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-conversion-page.h"
#include "sl-conversion-row.h"
#include "sl-data-table.h"
#include "sl-tooltip.h"

/* Details links: the row's position in the store, and which of its ops. */
#define LINK_CONVERTED 0xfffffu
#define LINK_SHIFT 20

struct _SlConversionPage
{
  SlDocument         parent_instance;

  GtkStack          *stack;
  GtkLabel          *loading_label;
  AdwStatusPage     *failed_page;
  GtkLabel          *sides_label;
  GtkLabel          *counts_label;
  GtkDropDown       *status_dropdown;
  GtkLabel          *rows_label;
  SlDataTable       *table;

  GListStore        *empty;
  GListModel        *rows;          /* SlConversionRow, every one */
  GtkCustomFilter   *filter;
  GtkSingleSelection *selection;
  int                status_filter;  /* -1 for all */
  SlConversionMatch *match;
  char              *source_path;
  char              *converted_path;
  GCancellable      *cancellable;
};

G_DEFINE_FINAL_TYPE (SlConversionPage, sl_conversion_page, SL_TYPE_DOCUMENT)

/* ------------------------------------------------------------------ */
/* Links                                                              */

static void
open_graph (SlConversionPage *self,
            const char       *path,
            const char       *op)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-document", "(ssv)", "graph", path,
                              op != NULL ? g_variant_new ("(s)", op) : g_variant_new ("()"));
}

static void
open_graphs (SlConversionPage *self)
{
  if (self->source_path == NULL)
    return;
  open_graph (self, self->source_path, NULL);
  open_graph (self, self->converted_path, NULL);
  /* The table stays in front; the graphs are a tab away. */
  panel_widget_raise (PANEL_WIDGET (self));
}

static void
open_graphs_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  open_graphs (SL_CONVERSION_PAGE (widget));
}

/* ------------------------------------------------------------------ */
/* Columns                                                            */

static char *
name_text (gpointer item,
           gpointer data)
{
  return g_strdup (sl_conversion_row_get_name (item));
}

static char *
type_text (gpointer item,
           gpointer data)
{
  return g_strdup (sl_conversion_row_get_op_type (item));
}

static char *
status_text (gpointer item,
             gpointer data)
{
  return g_strdup (sl_conversion_row_status_to_label (sl_conversion_row_get_status (item)));
}

static char *
status_csv (gpointer item,
            gpointer data)
{
  SlConversionRowStatus status = sl_conversion_row_get_status (item);

  return g_strdup (status == SL_CONVERSION_ROW_REMOVED ? "removed" : sl_conversion_status_to_string ((SlConversionStatus) status));
}

static const char *
status_style (gpointer item,
              gpointer data)
{
  switch (sl_conversion_row_get_status (item))
    {
    case SL_CONVERSION_ROW_FUSED: return "accent";
    case SL_CONVERSION_ROW_INSERTED: return "warning";
    case SL_CONVERSION_ROW_REMOVED: return "error";
    case SL_CONVERSION_ROW_KEPT:
    default: return NULL;
    }
}

static char *
sources_text (gpointer item,
              gpointer data)
{
  return sl_conversion_row_dup_sources (item);
}

/* The sources one a line, those the source model does not hold marked. */
static char *
sources_tooltip (gpointer item,
                 gpointer data)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < sl_conversion_row_get_n_sources (item); i++)
    {
      gboolean found = TRUE;
      const char *name = sl_conversion_row_get_source (item, i, &found);

      if (out->len > 0)
        g_string_append_c (out, '\n');
      if (found)
        g_string_append (out, name);
      else
        /* Translators: %s is an op name the converted model gives but
         * the source model does not hold */
        g_string_append_printf (out, _("%s (not in the source model)"), name);
    }
  return out->len > 0 ? g_string_free (out, FALSE) : (g_string_free (out, TRUE), NULL);
}

static GVariant *
converted_target (gpointer item,
                  gpointer data)
{
  SlConversionPage *self = data;
  const char *name = sl_conversion_row_get_name (item);

  if (name[0] == '\0' || self->converted_path == NULL)
    return NULL;
  return g_variant_new ("(ssv)", "graph", self->converted_path, g_variant_new ("(s)", name));
}

/* The first source op the source model holds. */
static const char *
first_found_source (SlConversionRow *row)
{
  for (guint i = 0; i < sl_conversion_row_get_n_sources (row); i++)
    {
      gboolean found = FALSE;
      const char *name = sl_conversion_row_get_source (row, i, &found);

      if (found)
        return name;
    }
  return NULL;
}

static char *
show_text (gpointer item,
           gpointer data)
{
  /* Translators: a button in a table row, opening the source model's graph at the op */
  return g_strdup (_("Show"));
}

static char *
show_tooltip (gpointer item,
              gpointer data)
{
  const char *name = first_found_source (item);

  /* Translators: %s is an op of the source model */
  return name != NULL ? g_strdup_printf (_("Show %s in the source model’s graph"), name) : NULL;
}

static GVariant *
source_target (gpointer item,
               gpointer data)
{
  SlConversionPage *self = data;
  const char *name = first_found_source (item);

  if (name == NULL || self->source_path == NULL)
    return NULL;
  return g_variant_new ("(ssv)", "graph", self->source_path, g_variant_new ("(s)", name));
}

static void
add_columns (SlConversionPage *self)
{
  const SlDataColumn columns[] = {
    { .id = "op", .title = _("Op"), .flags = SL_DATA_COLUMN_BUTTON | SL_DATA_COLUMN_SEARCHABLE | SL_DATA_COLUMN_ELLIPSIZE_MIDDLE,
      .text = name_text, .action = "win.open-document", .action_target = converted_target, .max_width = 220 },
    { .id = "type", .title = _("Type"), .flags = SL_DATA_COLUMN_SEARCHABLE, .text = type_text, .max_width = 120 },
    { .id = "status", .title = _("Status"), .flags = SL_DATA_COLUMN_BADGE, .text = status_text, .csv = status_csv,
      .style = status_style },
    { .id = "sources", .title = _("Source Ops"),
      .flags = SL_DATA_COLUMN_SEARCHABLE | SL_DATA_COLUMN_EXPAND | SL_DATA_COLUMN_ELLIPSIZE_MIDDLE,
      .text = sources_text, .tooltip = sources_tooltip },
    { .id = "show", .title = _("In Source"), .flags = SL_DATA_COLUMN_BUTTON, .text = show_text,
      .tooltip = show_tooltip, .action = "win.open-document", .action_target = source_target, .csv = sources_text },
  };

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    sl_data_table_append_column (self->table, &columns[i], self, NULL);
}

/* ------------------------------------------------------------------ */
/* Filter                                                             */

static gboolean
row_matches (gpointer item,
             gpointer data)
{
  SlConversionPage *self = data;

  return self->status_filter < 0 || (int) sl_conversion_row_get_status (item) == self->status_filter;
}

static void
update_rows_label (SlConversionPage *self)
{
  GListModel *shown = sl_data_table_get_rows (self->table);
  guint n = shown != NULL ? g_list_model_get_n_items (shown) : 0;
  g_autofree char *count = sl_count_format (n);
  g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s row", "%s rows", n), count);

  gtk_label_set_text (self->rows_label, text);
}

static void
status_changed_cb (SlConversionPage *self)
{
  guint selected = gtk_drop_down_get_selected (self->status_dropdown);

  self->status_filter = selected == 0 || selected == GTK_INVALID_LIST_POSITION ? -1 : (int) selected - 1;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_rows_label (self);
}

/* ------------------------------------------------------------------ */
/* Loading                                                            */

static void
fail (SlConversionPage *self,
      const char       *message)
{
  adw_status_page_set_description (self->failed_page, message);
  gtk_stack_set_visible_child_name (self->stack, "failed");
  sl_document_fail (SL_DOCUMENT (self), message);
}

static void
fill (SlConversionPage *self)
{
  g_autofree char *counts = NULL;
  g_autofree char *source_name = g_path_get_basename (self->source_path);
  g_autofree char *converted_name = g_path_get_basename (self->converted_path);
  g_autofree char *sides = NULL;
  g_autofree char *paths = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *fused = NULL;
  g_autofree char *inserted = NULL;
  g_autofree char *removed = NULL;

  g_clear_object (&self->rows);
  self->rows = sl_conversion_row_list_new (self->match);
  sl_data_table_set_model (self->table, self->rows);

  /* Translators: the converted model's file name, then the source model's */
  sides = g_strdup_printf (_("%s from %s"), converted_name, source_name);
  gtk_label_set_text (self->sides_label, sides);
  paths = g_strconcat (self->converted_path, "\n", self->source_path, NULL);
  sl_widget_set_long_tooltip (GTK_WIDGET (self->sides_label), paths);
  /* Translators: the counts of a conversion's ops by status */
  kept = sl_count_format (sl_conversion_match_count (self->match, SL_CONVERSION_KEPT));
  fused = sl_count_format (sl_conversion_match_count (self->match, SL_CONVERSION_FUSED));
  inserted = sl_count_format (sl_conversion_match_count (self->match, SL_CONVERSION_INSERTED));
  removed = sl_count_format (sl_conversion_match_get_n_removed (self->match));
  counts = g_strdup_printf (_("%s kept · %s fused · %s inserted · %s removed"), kept, fused, inserted, removed);
  gtk_label_set_text (self->counts_label, counts);
  update_rows_label (self);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SlConversionPage *self = source;
  GError *error = NULL;
  SlConversionMatch *match = sl_conversion_match_load (self->source_path, self->converted_path, cancellable, &error);

  if (match == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, match, g_object_unref);
}

/* What the graph readers met in either model (a cut file, a field past
 * its end), each naming the file and byte: in the Problems panel with the
 * document's. */
static void
add_graph_problems (SlConversionPage *self)
{
  GPtrArray *sides[] = { sl_conversion_match_get_source (self->match), sl_conversion_match_get_converted (self->match) };

  sl_document_clear_problems (SL_DOCUMENT (self));
  for (guint s = 0; s < G_N_ELEMENTS (sides); s++)
    for (guint g = 0; g < sides[s]->len; g++)
      {
        GPtrArray *problems = sl_graph_get_problems (g_ptr_array_index (sides[s], g));

        for (guint p = 0; p < problems->len; p++)
          sl_document_add_problem (SL_DOCUMENT (self), g_ptr_array_index (problems, p));
      }
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  SlConversionPage *self = SL_CONVERSION_PAGE (object);
  g_autoptr(GError) error = NULL;
  SlConversionMatch *match = g_task_propagate_pointer (G_TASK (result), &error);

  if (match == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail (self, error->message);
      return;
    }
  g_clear_object (&self->match);
  self->match = match;
  add_graph_problems (self);
  fill (self);
  gtk_stack_set_visible_child_name (self->stack, "table");
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
}

static void
sl_conversion_page_load (SlDocument *document)
{
  SlConversionPage *self = SL_CONVERSION_PAGE (document);
  SlDocumentAddress *address = sl_document_get_address (document);
  g_autoptr(GTask) task = NULL;
  g_autofree char *source_name = NULL;
  g_autofree char *converted_name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *loading = NULL;

  if (self->source_path != NULL || address == NULL)
    return;
  if (sl_document_address_get_n_paths (address) != 2)
    {
      fail (self, _("A conversion needs two models: the source model and the model ATC wrote."));
      return;
    }
  self->source_path = g_strdup (sl_document_address_get_path (address, 0));
  self->converted_path = g_strdup (sl_document_address_get_path (address, 1));
  source_name = g_path_get_basename (self->source_path);
  converted_name = g_path_get_basename (self->converted_path);
  /* Translators: the title of a document tab; %s is the converted model's file name */
  title = g_strdup_printf (_("Conversion: %s"), converted_name);
  panel_widget_set_title (PANEL_WIDGET (self), title);
  /* Translators: the converted model's file name, then the source model's */
  loading = g_strdup_printf (_("Reading %s and %s"), converted_name, source_name);
  gtk_label_set_text (self->loading_label, loading);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  sl_document_set_state (document, SL_DOCUMENT_LOADING);

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, load_cb, NULL);
  g_task_set_source_tag (task, sl_conversion_page_load);
  g_task_run_in_thread (task, load_thread);
}

static void
sl_conversion_page_handle_request (SlDocument *document,
                                   GVariant   *request)
{
  SlConversionPage *self = SL_CONVERSION_PAGE (document);
  const char *what = NULL;

  if (!g_variant_is_of_type (request, G_VARIANT_TYPE ("(s)")))
    return;
  g_variant_get (request, "(&s)", &what);
  if (g_str_equal (what, "graphs"))
    open_graphs (self);
}

/* ------------------------------------------------------------------ */
/* Details                                                            */

static void
link_cb (GObject *object,
         guint64  target)
{
  SlConversionPage *self = SL_CONVERSION_PAGE (object);
  guint position = (guint) (target >> LINK_SHIFT);
  guint source = (guint) (target & LINK_CONVERTED);
  g_autoptr(SlConversionRow) row = NULL;

  if (self->rows == NULL || position >= g_list_model_get_n_items (self->rows))
    return;
  row = g_list_model_get_item (self->rows, position);
  if (source == LINK_CONVERTED)
    open_graph (self, self->converted_path, sl_conversion_row_get_name (row));
  else if (source < sl_conversion_row_get_n_sources (row))
    open_graph (self, self->source_path, sl_conversion_row_get_source (row, source, NULL));
}

static guint
store_position (SlConversionPage *self,
                SlConversionRow  *row)
{
  guint position = 0;

  if (!g_list_store_find (G_LIST_STORE (self->rows), row, &position))
    return G_MAXUINT;
  return position;
}

static const char *
evidence_label (SlConversionEvidence evidence)
{
  switch (evidence)
    {
    case SL_CONVERSION_BY_ATTRIBUTE: return _("By the original op names ATC recorded");
    case SL_CONVERSION_BY_NAME: return _("By name");
    case SL_CONVERSION_BY_STRIPPED_NAME: return _("By name, without ATC’s suffix");
    case SL_CONVERSION_UNMATCHED:
    default: return _("No source op has its name");
    }
}

static gboolean
sl_conversion_page_describe (SlDocument    *document,
                             SlDescription *details)
{
  SlConversionPage *self = SL_CONVERSION_PAGE (document);
  g_autoptr(SlConversionRow) row = self->selection ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  SlConversionRowStatus status;
  guint position;

  if (row == NULL)
    return FALSE;
  g_object_ref (row);
  position = store_position (self, row);
  status = sl_conversion_row_get_status (row);
  {
    const char *rows[] = {
      _("Type"), sl_conversion_row_get_op_type (row),
      _("Status"), sl_conversion_row_status_to_label (status),
      NULL, NULL, NULL
    };
    const char *title = status == SL_CONVERSION_ROW_REMOVED ? sl_conversion_row_get_source (row, 0, NULL)
                                                           : sl_conversion_row_get_name (row);
    guint index = 0;

    if (status != SL_CONVERSION_ROW_REMOVED)
      {
        guint op = G_MAXUINT;

        /* The converted ops come first in the store, in the match's order. */
        if (position < sl_conversion_match_get_n_ops (self->match))
          op = position;
        if (op != G_MAXUINT)
          {
            rows[4] = _("Matched");
            rows[5] = evidence_label (sl_conversion_match_get_op_evidence (self->match, op));
          }
      }
    sl_description_show_rows (details, G_OBJECT (row), "sl-graph-symbolic", title, rows);
    if (position == G_MAXUINT)
      return TRUE;
    if (status != SL_CONVERSION_ROW_REMOVED)
      sl_description_add_object_link (details, _("Converted op"), sl_conversion_row_get_name (row), G_OBJECT (self),
                                      link_cb, ((guint64) position << LINK_SHIFT) | LINK_CONVERTED);
    for (index = 0; index < sl_conversion_row_get_n_sources (row) && index < LINK_CONVERTED; index++)
      {
        gboolean found = FALSE;
        const char *name = sl_conversion_row_get_source (row, index, &found);

        if (found)
          sl_description_add_object_link (details, _("Source op"), name, G_OBJECT (self), link_cb,
                                          ((guint64) position << LINK_SHIFT) | index);
        else
          {
            const char *text_row[] = { _("Source op"), name, NULL };

            sl_description_add_rows (details, text_row);
          }
      }
  }
  return TRUE;
}

static void
selection_changed_cb (SlConversionPage *self)
{
  sl_document_details_changed (SL_DOCUMENT (self));
}

/* ------------------------------------------------------------------ */
/* Life                                                               */

static void
sl_conversion_page_dispose (GObject *object)
{
  SlConversionPage *self = SL_CONVERSION_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_CONVERSION_PAGE);
  self->selection = NULL;
  g_clear_object (&self->cancellable);
  g_clear_object (&self->filter);
  g_clear_object (&self->empty);
  g_clear_object (&self->rows);
  g_clear_object (&self->match);
  g_clear_pointer (&self->source_path, g_free);
  g_clear_pointer (&self->converted_path, g_free);
  G_OBJECT_CLASS (sl_conversion_page_parent_class)->dispose (object);
}

static void
sl_conversion_page_class_init (SlConversionPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_conversion_page_dispose;
  SL_DOCUMENT_CLASS (klass)->load = sl_conversion_page_load;
  SL_DOCUMENT_CLASS (klass)->describe = sl_conversion_page_describe;
  SL_DOCUMENT_CLASS (klass)->handle_request = sl_conversion_page_handle_request;

  g_type_ensure (SL_TYPE_DATA_TABLE);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-conversion-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlConversionPage, stack);
  gtk_widget_class_bind_template_child (widget_class, SlConversionPage, loading_label);
  gtk_widget_class_bind_template_child (widget_class, SlConversionPage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlConversionPage, sides_label);
  gtk_widget_class_bind_template_child (widget_class, SlConversionPage, counts_label);
  gtk_widget_class_bind_template_child (widget_class, SlConversionPage, status_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlConversionPage, rows_label);
  gtk_widget_class_bind_template_child (widget_class, SlConversionPage, table);
  gtk_widget_class_bind_template_callback (widget_class, status_changed_cb);
  gtk_widget_class_install_action (widget_class, "conversion.open-graphs", NULL, open_graphs_action);
}

static void
sl_conversion_page_init (SlConversionPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->status_filter = -1;
  add_columns (self);
  sl_data_table_set_export_title (self->table, _("Export Conversion"), "conversion.csv");
  self->empty = g_list_store_new (SL_TYPE_CONVERSION_ROW);
  self->filter = gtk_custom_filter_new (row_matches, self, NULL);
  sl_data_table_set_extra_filter (self->table, GTK_FILTER (self->filter));
  sl_data_table_set_model (self->table, G_LIST_MODEL (self->empty));
  self->selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (sl_data_table_get_column_view (self->table)));
  g_signal_connect_object (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

/* ------------------------------------------------------------------ */
/* API                                                                */

/**
 * sl_conversion_page_new_open_request:
 *
 * Returns: (transfer floating): the request "(s)" "graphs"
 */
GVariant *
sl_conversion_page_new_open_request (void)
{
  return g_variant_new ("(s)", "graphs");
}

SlConversionMatch *
sl_conversion_page_get_match (SlConversionPage *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_PAGE (self), NULL);
  return self->match;
}

GListModel *
sl_conversion_page_get_rows (SlConversionPage *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_PAGE (self), NULL);
  return sl_data_table_get_rows (self->table);
}

void
sl_conversion_page_set_status_filter (SlConversionPage *self,
                                      int               status)
{
  g_return_if_fail (SL_IS_CONVERSION_PAGE (self));
  g_return_if_fail (status >= -1 && status <= SL_CONVERSION_ROW_REMOVED);
  gtk_drop_down_set_selected (self->status_dropdown, (guint) (status + 1));
}

void
sl_conversion_page_select (SlConversionPage *self,
                           guint             position)
{
  g_return_if_fail (SL_IS_CONVERSION_PAGE (self));
  sl_data_table_select (self->table, position);
}
