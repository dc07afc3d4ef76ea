/* sl-problems-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "sl-column-factory.h"
#include "sl-folder.h"
#include "sl-path-names.h"
#include "sl-problems-panel.h"
#include "sl-tooltip.h"

struct _SlProblemsPanel
{
  PanelWidget        parent_instance;

  GListStore        *problems;
  GListModel        *folders;        /* SlFolder: what file paths are shown relative to */
  GtkCustomFilter   *filter;
  guint              counts[SL_SEVERITY_ERROR + 1];

  GtkColumnView     *column_view;
  GtkStack          *stack;
  GtkToggleButton   *show_errors;
  GtkToggleButton   *show_warnings;
  GtkToggleButton   *show_infos;
  AdwButtonContent  *errors_content;
  AdwButtonContent  *warnings_content;
  AdwButtonContent  *infos_content;
  GtkSearchEntry    *search_entry;
};

G_DEFINE_FINAL_TYPE (SlProblemsPanel, sl_problems_panel, PANEL_TYPE_WIDGET)

enum {
  PROBLEM_ACTIVATED,
  SELECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/**
 * sl_problems_panel_severity_icon_name:
 *
 * The icon the Problems panel and Details use for @severity.
 */
const char *
sl_problems_panel_severity_icon_name (SlSeverity severity)
{
  switch (severity)
    {
    case SL_SEVERITY_ERROR:
      return "dialog-error-symbolic";
    case SL_SEVERITY_WARNING:
      return "dialog-warning-symbolic";
    case SL_SEVERITY_INFO:
    default:
      return "dialog-information-symbolic";
    }
}

const char *
sl_problems_panel_severity_label (SlSeverity severity)
{
  switch (severity)
    {
    case SL_SEVERITY_ERROR:
      return _("Error");
    case SL_SEVERITY_WARNING:
      return _("Warning");
    case SL_SEVERITY_INFO:
    default:
      return _("Message");
    }
}

static char *
problem_icon (gpointer item)
{
  return g_strdup (sl_problems_panel_severity_icon_name (sl_problem_get_severity (item)));
}

static char *
problem_severity (gpointer item)
{
  return g_strdup (sl_problems_panel_severity_label (sl_problem_get_severity (item)));
}

static char *
problem_message (gpointer item)
{
  return g_strdup (sl_problem_get_message (item));
}

/**
 * sl_problems_panel_set_folders:
 * @folders: (nullable): the workspace's folders (SlFolder)
 *
 * The File column shows a path relative to the folder it was found in.
 */
void
sl_problems_panel_set_folders (SlProblemsPanel *self,
                               GListModel      *folders)
{
  g_return_if_fail (SL_IS_PROBLEMS_PANEL (self));

  g_set_object (&self->folders, folders);
}

/**
 * sl_problems_panel_dup_file_label:
 *
 * Returns: (transfer full) (nullable): what the File column shows for
 *   @problem: its path relative to the deepest workspace folder holding
 *   it (the run folder and the file name, not the folder all share), or
 *   the whole path when no folder holds it
 */
char *
sl_problems_panel_dup_file_label (SlProblemsPanel *self,
                                  SlProblem       *problem)
{
  const char *path;
  g_autofree char *best = NULL;

  g_return_val_if_fail (SL_IS_PROBLEMS_PANEL (self), NULL);
  g_return_val_if_fail (SL_IS_PROBLEM (problem), NULL);

  path = sl_problem_get_path (problem);
  if (path == NULL || path[0] == '\0')
    return NULL;
  for (guint i = 0; self->folders != NULL && i < g_list_model_get_n_items (self->folders); i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (self->folders, i);
      g_autofree char *relative = NULL;

      if (sl_folder_get_path (folder) == NULL)
        continue;
      relative = sl_path_names_relative (path, sl_folder_get_path (folder));
      if (g_path_is_absolute (relative))
        continue;
      /* A file opened by itself is its own folder: its name, then. */
      if (g_str_equal (relative, "."))
        {
          g_free (relative);
          relative = g_path_get_basename (path);
        }
      if (best == NULL || strlen (relative) < strlen (best))
        {
          g_free (best);
          best = g_steal_pointer (&relative);
        }
    }
  return best != NULL ? g_steal_pointer (&best) : g_strdup (path);
}

static void
setup_file_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  /* The middle goes: the run folder in front and the file's own name at
   * the end are what tell the rows apart. */
  gtk_list_item_set_child (item, sl_column_cell_label_new (FALSE, PANGO_ELLIPSIZE_MIDDLE));
}

static void
bind_file_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              SlProblemsPanel          *self)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  SlProblem *problem = gtk_list_item_get_item (item);
  g_autofree char *text = sl_problems_panel_dup_file_label (self, problem);

  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  sl_widget_set_long_tooltip (label, sl_problem_get_path (problem));
}

static char *
problem_path (gpointer item)
{
  return g_strdup (sl_problem_get_path (item));
}

static char *
problem_location (gpointer item)
{
  return sl_problem_dup_location (item);
}

static char *
problem_source (gpointer item)
{
  return g_strdup (sl_problem_get_source (item));
}

static gboolean
contains_folded (const char *haystack,
                 const char *folded_needle)
{
  g_autofree char *folded = NULL;

  if (haystack == NULL)
    return FALSE;

  folded = g_utf8_casefold (haystack, -1);
  return strstr (folded, folded_needle) != NULL;
}

static gboolean
problem_matches (gpointer item,
                 gpointer user_data)
{
  SlProblemsPanel *self = user_data;
  SlProblem *problem = item;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *needle = NULL;
  GtkToggleButton *toggle;

  switch (sl_problem_get_severity (problem))
    {
    case SL_SEVERITY_ERROR:
      toggle = self->show_errors;
      break;
    case SL_SEVERITY_WARNING:
      toggle = self->show_warnings;
      break;
    case SL_SEVERITY_INFO:
    default:
      toggle = self->show_infos;
      break;
    }

  if (!gtk_toggle_button_get_active (toggle))
    return FALSE;

  if (text == NULL || text[0] == '\0')
    return TRUE;

  needle = g_utf8_casefold (text, -1);
  return contains_folded (sl_problem_get_message (problem), needle) ||
         contains_folded (sl_problem_get_path (problem), needle);
}

static void
filter_changed_cb (SlProblemsPanel *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
update_counts (SlProblemsPanel *self)
{
  char buf[16];

  g_snprintf (buf, sizeof buf, "%u", self->counts[SL_SEVERITY_ERROR]);
  adw_button_content_set_label (self->errors_content, buf);
  g_snprintf (buf, sizeof buf, "%u", self->counts[SL_SEVERITY_WARNING]);
  adw_button_content_set_label (self->warnings_content, buf);
  g_snprintf (buf, sizeof buf, "%u", self->counts[SL_SEVERITY_INFO]);
  adw_button_content_set_label (self->infos_content, buf);

  gtk_stack_set_visible_child_name (self->stack,
                                    g_list_model_get_n_items (G_LIST_MODEL (self->problems)) ? "list" : "empty");
  panel_widget_set_needs_attention (PANEL_WIDGET (self), self->counts[SL_SEVERITY_ERROR] > 0);
}

static void
row_activated_cb (SlProblemsPanel *self,
                  guint            position)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (self->column_view));
  g_autoptr(SlProblem) problem = g_list_model_get_item (model, position);

  if (problem != NULL)
    g_signal_emit (self, signals[PROBLEM_ACTIVATED], 0, problem);
}

static void
selection_changed_cb (SlProblemsPanel   *self,
                      guint              position,
                      guint              n_items,
                      GtkSelectionModel *selection)
{
  GObject *item = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));

  if (item != NULL)
    g_signal_emit (self, signals[SELECTION_CHANGED], 0, item);
}

static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  sl_problems_panel_clear (SL_PROBLEMS_PANEL (widget));
}

static void
sl_problems_panel_dispose (GObject *object)
{
  SlProblemsPanel *self = (SlProblemsPanel *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_PROBLEMS_PANEL);
  g_clear_object (&self->problems);
  g_clear_object (&self->filter);
  g_clear_object (&self->folders);

  G_OBJECT_CLASS (sl_problems_panel_parent_class)->dispose (object);
}

static void
sl_problems_panel_class_init (SlProblemsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_problems_panel_dispose;

  /**
   * SlProblemsPanel::problem-activated:
   *
   * A problem was double-clicked or activated with Enter: reveal it.
   */
  signals[PROBLEM_ACTIVATED] =
    g_signal_new ("problem-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, SL_TYPE_PROBLEM);
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, SL_TYPE_PROBLEM);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-problems-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, column_view);
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, show_errors);
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, show_warnings);
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, show_infos);
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, errors_content);
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, warnings_content);
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, infos_content);
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, search_entry);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_install_action (widget_class, "problems.clear", NULL, clear_action);
}

static GtkColumnViewColumn *
append_column (SlProblemsPanel    *self,
               const char         *title,
               GtkListItemFactory *factory,
               SlColumnTextFunc    sort_key,
               gboolean            expand,
               int                 fixed_width)
{
  g_autoptr(GtkColumnViewColumn) column = gtk_column_view_column_new (title, factory);

  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, expand);
  if (fixed_width > 0)
    gtk_column_view_column_set_fixed_width (column, fixed_width);

  if (sort_key != NULL)
    {
      g_autoptr(GtkExpression) expression =
        gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL, G_CALLBACK (sort_key), NULL, NULL);
      GtkSorter *sorter = GTK_SORTER (gtk_string_sorter_new (g_steal_pointer (&expression)));

      gtk_column_view_column_set_sorter (column, sorter);
      g_object_unref (sorter);
    }

  gtk_column_view_append_column (self->column_view, column);
  return column;
}

static char *
severity_sort_key (gpointer item)
{
  /* Errors first when sorted ascending. */
  return g_strdup_printf ("%d", SL_SEVERITY_ERROR - (int)sl_problem_get_severity (item));
}

static void
sl_problems_panel_init (SlProblemsPanel *self)
{
  g_autoptr(GtkFilterListModel) filtered = NULL;
  g_autoptr(GtkSortListModel) sorted = NULL;
  g_autoptr(GtkSingleSelection) selection = NULL;
  GtkColumnViewColumn *severity_column;
  GtkListItemFactory *file_factory;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
  self->filter = gtk_custom_filter_new (problem_matches, self, NULL);

  filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->problems)),
                                        g_object_ref (GTK_FILTER (self->filter)));
  severity_column = append_column (self, _("Severity"),
                                   sl_column_factory_new_icon (problem_icon, problem_severity),
                                   severity_sort_key, FALSE, 70);
  append_column (self, _("Message"), sl_column_factory_new_label (problem_message, NULL, FALSE),
                 problem_message, TRUE, 0);
  file_factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (file_factory, "setup", G_CALLBACK (setup_file_cb), NULL);
  g_signal_connect (file_factory, "bind", G_CALLBACK (bind_file_cb), self);
  append_column (self, _("File"), file_factory, problem_path, FALSE, 260);
  append_column (self, _("Position"), sl_column_factory_new_label (problem_location, NULL, TRUE),
                 NULL, FALSE, 90);
  append_column (self, _("Source"), sl_column_factory_new_label (problem_source, NULL, FALSE),
                 problem_source, FALSE, 90);

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_steal_pointer (&filtered)),
                                    g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = gtk_single_selection_new (G_LIST_MODEL (g_steal_pointer (&sorted)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  g_signal_connect_object (selection, "selection-changed", G_CALLBACK (selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  gtk_column_view_sort_by_column (self->column_view, severity_column, GTK_SORT_ASCENDING);

  update_counts (self);
}

GtkWidget *
sl_problems_panel_new (void)
{
  return g_object_new (SL_TYPE_PROBLEMS_PANEL, NULL);
}

void
sl_problems_panel_add (SlProblemsPanel *self,
                       SlProblem       *problem)
{
  g_return_if_fail (SL_IS_PROBLEMS_PANEL (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  self->counts[sl_problem_get_severity (problem)]++;
  g_list_store_append (self->problems, problem);
  update_counts (self);
}

/**
 * sl_problems_panel_remove:
 *
 * Takes @problem off the list, when its document dropped it.
 */
void
sl_problems_panel_remove (SlProblemsPanel *self,
                          SlProblem       *problem)
{
  guint position;

  g_return_if_fail (SL_IS_PROBLEMS_PANEL (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  if (!g_list_store_find (self->problems, problem, &position))
    return;
  self->counts[sl_problem_get_severity (problem)]--;
  g_list_store_remove (self->problems, position);
  update_counts (self);
}

void
sl_problems_panel_add_all (SlProblemsPanel *self,
                           GListModel      *problems)
{
  guint n;
  g_autoptr(GPtrArray) items = NULL;

  g_return_if_fail (SL_IS_PROBLEMS_PANEL (self));
  g_return_if_fail (G_IS_LIST_MODEL (problems));

  n = g_list_model_get_n_items (problems);
  items = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      SlProblem *problem = g_list_model_get_item (problems, i);

      self->counts[sl_problem_get_severity (problem)]++;
      g_ptr_array_add (items, problem);
    }

  g_list_store_splice (self->problems, g_list_model_get_n_items (G_LIST_MODEL (self->problems)), 0,
                       items->pdata, items->len);
  update_counts (self);
}

void
sl_problems_panel_clear (SlProblemsPanel *self)
{
  g_return_if_fail (SL_IS_PROBLEMS_PANEL (self));

  memset (self->counts, 0, sizeof self->counts);
  g_list_store_remove_all (self->problems);
  update_counts (self);
}

/**
 * sl_problems_panel_get_model:
 *
 * Returns: (transfer none): every problem, unfiltered
 */
GListModel *
sl_problems_panel_get_model (SlProblemsPanel *self)
{
  g_return_val_if_fail (SL_IS_PROBLEMS_PANEL (self), NULL);

  return G_LIST_MODEL (self->problems);
}

guint
sl_problems_panel_count (SlProblemsPanel *self,
                         SlSeverity       severity)
{
  g_return_val_if_fail (SL_IS_PROBLEMS_PANEL (self), 0);
  g_return_val_if_fail (severity <= SL_SEVERITY_ERROR, 0);

  return self->counts[severity];
}
