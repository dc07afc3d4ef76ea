/* sl-problems-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sl-data-table.h"
#include "sl-folder.h"
#include "sl-path-names.h"
#include "sl-problems-panel.h"
#include "sl-tooltip.h"

struct _SlProblemsPanel
{
  PanelWidget        parent_instance;

  GListModel        *problems;       /* the shell's: scans, jobs, workflows (the session's) */
  SlDocument        *document;       /* weak: the document in front */
  GListStore        *sources;        /* of GListModel: problems, then the document's */
  GtkFlattenListModel *all;
  guint              document_counts[SL_SEVERITY_ERROR + 1];
  GListModel        *folders;        /* SlFolder: what file paths are shown relative to */
  GtkCustomFilter   *filter;
  guint              counts[SL_SEVERITY_ERROR + 1];

  SlDataTable       *table;
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
  PROP_0,
  PROP_DOCUMENT,
  PROP_PROBLEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  PROBLEM_ACTIVATED,
  SELECTION_CHANGED,
  CLEAR_REQUESTED,
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

/* The columns: the shared table (sl-data-table.c) does the rest. The
 * panel is often narrow: the message and the file start narrower than
 * the table's usual text column, and the position, a few characters,
 * comes before the file, so that in the bottom panel of a 1024 × 640
 * window (about 520 pixels) the position stays in view beside the
 * message and the file is cut in its middle, whole on hover and in
 * Details; the message takes any width left over. */
#define MESSAGE_WIDTH 240
#define FILE_WIDTH    220

static char *
severity_text (gpointer item,
               gpointer user_data)
{
  return g_strdup (sl_problems_panel_severity_label (sl_problem_get_severity (item)));
}

/* Errors first when sorted ascending. */
static double
severity_number (gpointer item,
                 gpointer user_data)
{
  return SL_SEVERITY_ERROR - (int)sl_problem_get_severity (item);
}

static const char *
severity_style (gpointer item,
                gpointer user_data)
{
  switch (sl_problem_get_severity (item))
    {
    case SL_SEVERITY_ERROR:
      return "error";
    case SL_SEVERITY_WARNING:
      return "warning";
    case SL_SEVERITY_INFO:
    default:
      return "dim-label";
    }
}

static char *
message_text (gpointer item,
              gpointer user_data)
{
  return g_strdup (sl_problem_get_message (item));
}

/* The middle of a path is cut: the run folder in front and the file's
 * own name at the end are what tell the rows apart. The panel's folders
 * are read on the main thread only: a CSV export writes the whole path. */
static char *
file_text (gpointer item,
           gpointer user_data)
{
  return sl_problems_panel_dup_file_label (user_data, item);
}

static char *
path_text (gpointer item,
           gpointer user_data)
{
  return g_strdup (sl_problem_get_path (item));
}

static char *
location_text (gpointer item,
               gpointer user_data)
{
  return sl_problem_dup_location (item);
}

/* By line and column, or by byte; problems without a position last. */
static double
location_number (gpointer item,
                 gpointer user_data)
{
  g_autofree char *location = sl_problem_dup_location (item);

  if (location == NULL)
    return NAN;
  if (sl_problem_get_line (item) > 0)
    return sl_problem_get_line (item) + sl_problem_get_column (item) / 1e6;
  return (double)sl_problem_get_offset (item);
}

static char *
source_text (gpointer item,
             gpointer user_data)
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

  g_snprintf (buf, sizeof buf, "%u", sl_problems_panel_count (self, SL_SEVERITY_ERROR));
  adw_button_content_set_label (self->errors_content, buf);
  g_snprintf (buf, sizeof buf, "%u", sl_problems_panel_count (self, SL_SEVERITY_WARNING));
  adw_button_content_set_label (self->warnings_content, buf);
  g_snprintf (buf, sizeof buf, "%u", sl_problems_panel_count (self, SL_SEVERITY_INFO));
  adw_button_content_set_label (self->infos_content, buf);

  gtk_stack_set_visible_child_name (self->stack,
                                    g_list_model_get_n_items (G_LIST_MODEL (self->all)) ? "list" : "empty");
  panel_widget_set_needs_attention (PANEL_WIDGET (self), sl_problems_panel_count (self, SL_SEVERITY_ERROR) > 0);
}

static void
row_activated_cb (SlProblemsPanel *self,
                  guint            position)
{
  g_autoptr(SlProblem) problem = g_list_model_get_item (sl_data_table_get_rows (self->table), position);

  if (problem != NULL)
    g_signal_emit (self, signals[PROBLEM_ACTIVATED], 0, problem);
}

static void
selection_changed_cb (SlProblemsPanel   *self,
                      guint              position,
                      guint              n_items,
                      GtkSelectionModel *selection)
{
  g_autoptr(GObject) item = sl_data_table_dup_selected (self->table);

  if (item != NULL)
    g_signal_emit (self, signals[SELECTION_CHANGED], 0, item);
}

/* The shell's problems belong to whoever keeps them: the panel asks. */
static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  g_signal_emit (widget, signals[CLEAR_REQUESTED], 0);
}

/* The shell's problems are many and mostly only added to: counted as
 * they come, and again from the start when some leave. */
static void
shell_problems_changed_cb (SlProblemsPanel *self,
                           guint            position,
                           guint            removed,
                           guint            added,
                           GListModel      *problems)
{
  if (removed > 0)
    {
      memset (self->counts, 0, sizeof self->counts);
      position = 0;
      added = g_list_model_get_n_items (problems);
    }
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      self->counts[sl_problem_get_severity (problem)]++;
    }
  update_counts (self);
}

/**
 * sl_problems_panel_set_problems:
 * @problems: (nullable): a #GListModel of #SlProblem: the shell's own
 *   problems (the session's), shown before the document's
 *
 * The panel shows @problems as they change; it adds and removes none.
 */
void
sl_problems_panel_set_problems (SlProblemsPanel *self,
                                GListModel      *problems)
{
  g_autoptr(GListModel) shown = NULL;

  g_return_if_fail (SL_IS_PROBLEMS_PANEL (self));
  g_return_if_fail (problems == NULL || G_IS_LIST_MODEL (problems));

  shown = problems != NULL ? g_object_ref (problems) : G_LIST_MODEL (g_list_store_new (SL_TYPE_PROBLEM));
  if (self->problems == problems && problems != NULL)
    return;
  if (self->problems != NULL)
    g_signal_handlers_disconnect_by_func (self->problems, shell_problems_changed_cb, self);
  g_set_object (&self->problems, shown);
  g_list_store_splice (self->sources, 0, 1, (gpointer *) &shown, 1);
  g_signal_connect_object (shown, "items-changed", G_CALLBACK (shell_problems_changed_cb), self,
                           G_CONNECT_SWAPPED);
  memset (self->counts, 0, sizeof self->counts);
  shell_problems_changed_cb (self, 0, 0, g_list_model_get_n_items (shown), shown);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEMS]);
}

/**
 * sl_problems_panel_get_problems:
 *
 * Returns: (transfer none): the shell's problems the panel shows
 */
GListModel *
sl_problems_panel_get_problems (SlProblemsPanel *self)
{
  g_return_val_if_fail (SL_IS_PROBLEMS_PANEL (self), NULL);
  return self->problems;
}

/* A document drops and adds problems as it reads its source again; its
 * lists are short, so they are counted again each time. */
static void
document_problems_changed_cb (SlProblemsPanel *self,
                              guint            position,
                              guint            removed,
                              guint            added,
                              GListModel      *problems)
{
  memset (self->document_counts, 0, sizeof self->document_counts);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      self->document_counts[sl_problem_get_severity (problem)]++;
    }
  update_counts (self);
}

static GListModel *
document_problems (SlProblemsPanel *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->sources)) > 1
    ? g_list_model_get_item (G_LIST_MODEL (self->sources), 1) : NULL;
}

static void
drop_document (SlProblemsPanel *self)
{
  g_autoptr(GListModel) problems = document_problems (self);

  if (problems != NULL)
    {
      g_signal_handlers_disconnect_by_func (problems, document_problems_changed_cb, self);
      g_list_store_remove (self->sources, 1);
    }
  memset (self->document_counts, 0, sizeof self->document_counts);
}

/* The document in front went away. */
static void
document_gone_cb (gpointer  data,
                  GObject  *where_the_object_was)
{
  SlProblemsPanel *self = data;

  self->document = NULL;
  drop_document (self);
  update_counts (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

/**
 * sl_problems_panel_set_document:
 * @document: (nullable): the document in front, held weakly
 *
 * Shows the problems of @document beside the window's own, following
 * its #SlDocument:problems model.
 */
void
sl_problems_panel_set_document (SlProblemsPanel *self,
                                SlDocument      *document)
{
  GListModel *problems;

  g_return_if_fail (SL_IS_PROBLEMS_PANEL (self));
  g_return_if_fail (document == NULL || SL_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_object_weak_unref (G_OBJECT (self->document), document_gone_cb, self);
  drop_document (self);
  self->document = document;
  if (document != NULL)
    {
      g_object_weak_ref (G_OBJECT (document), document_gone_cb, self);
      problems = sl_document_get_problems (document);
      g_list_store_append (self->sources, problems);
      g_signal_connect_object (problems, "items-changed", G_CALLBACK (document_problems_changed_cb), self,
                               G_CONNECT_SWAPPED);
      document_problems_changed_cb (self, 0, 0, 0, problems);
    }
  update_counts (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

/**
 * sl_problems_panel_get_document:
 *
 * Returns: (transfer none) (nullable): the document whose problems show
 */
SlDocument *
sl_problems_panel_get_document (SlProblemsPanel *self)
{
  g_return_val_if_fail (SL_IS_PROBLEMS_PANEL (self), NULL);
  return self->document;
}

static void
sl_problems_panel_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SlProblemsPanel *self = SL_PROBLEMS_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_PROBLEMS:
      g_value_set_object (value, self->problems);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_problems_panel_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  SlProblemsPanel *self = SL_PROBLEMS_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      sl_problems_panel_set_document (self, g_value_get_object (value));
      break;
    case PROP_PROBLEMS:
      sl_problems_panel_set_problems (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_problems_panel_dispose (GObject *object)
{
  SlProblemsPanel *self = (SlProblemsPanel *)object;

  if (self->document != NULL)
    g_object_weak_unref (G_OBJECT (self->document), document_gone_cb, self);
  self->document = NULL;
  if (self->sources != NULL)
    drop_document (self);
  if (self->problems != NULL)
    g_signal_handlers_disconnect_by_func (self->problems, shell_problems_changed_cb, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_PROBLEMS_PANEL);
  g_clear_object (&self->all);
  g_clear_object (&self->sources);
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
  object_class->get_property = sl_problems_panel_get_property;
  object_class->set_property = sl_problems_panel_set_property;

  /**
   * SlProblemsPanel:document:
   *
   * The document in front, whose problems show beside the window's own.
   */
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, SL_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlProblemsPanel:problems:
   *
   * The shell's own problems (the session's): scans, jobs, workflows.
   */
  properties[PROP_PROBLEMS] =
    g_param_spec_object ("problems", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

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
  /**
   * SlProblemsPanel::clear-requested:
   *
   * Clear was pressed: whoever keeps the shell's problems removes them.
   */
  signals[CLEAR_REQUESTED] =
    g_signal_new ("clear-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-problems-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SlProblemsPanel, table);
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

static void
sl_problems_panel_init (SlProblemsPanel *self)
{
  g_type_ensure (SL_TYPE_DATA_TABLE);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->problems = G_LIST_MODEL (g_list_store_new (SL_TYPE_PROBLEM));
  self->sources = g_list_store_new (G_TYPE_LIST_MODEL);
  g_list_store_append (self->sources, self->problems);
  self->all = gtk_flatten_list_model_new (G_LIST_MODEL (g_object_ref (self->sources)));
  self->filter = gtk_custom_filter_new (problem_matches, self, NULL);

  sl_data_table_append_column (self->table, &(SlDataColumn) {
    .id = "severity", .title = _("Severity"), .flags = SL_DATA_COLUMN_BADGE,
    .text = severity_text, .number = severity_number, .style = severity_style,
  }, NULL, NULL);
  sl_data_table_append_column (self->table, &(SlDataColumn) {
    .id = "message", .title = _("Message"), .flags = SL_DATA_COLUMN_EXPAND,
    .text = message_text, .max_width = MESSAGE_WIDTH,
  }, NULL, NULL);
  sl_data_table_append_column (self->table, &(SlDataColumn) {
    .id = "position", .title = _("Position"),
    .text = location_text, .number = location_number,
  }, NULL, NULL);
  sl_data_table_append_column (self->table, &(SlDataColumn) {
    .id = "file", .title = _("File"), .flags = SL_DATA_COLUMN_ELLIPSIZE_MIDDLE,
    .text = file_text, .tooltip = path_text, .csv = path_text, .max_width = FILE_WIDTH,
  }, self, NULL);
  sl_data_table_append_column (self->table, &(SlDataColumn) {
    .id = "source", .title = _("Source"), .text = source_text,
  }, NULL, NULL);
  /* The toggles and the search entry of the toolbar filter the rows. */
  sl_data_table_set_extra_filter (self->table, GTK_FILTER (self->filter));
  sl_data_table_set_model (self->table, G_LIST_MODEL (self->all));
  sl_data_table_set_export_title (self->table, _("Export Problems"), "problems.csv");
  g_signal_connect_object (gtk_column_view_get_model (sl_data_table_get_column_view (self->table)),
                           "selection-changed", G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  sl_data_table_sort_by (self->table, "severity", GTK_SORT_ASCENDING);

  update_counts (self);
}

/**
 * sl_problems_panel_get_table:
 *
 * Returns: (transfer none): the table of problems
 */
SlDataTable *
sl_problems_panel_get_table (SlProblemsPanel *self)
{
  g_return_val_if_fail (SL_IS_PROBLEMS_PANEL (self), NULL);
  return self->table;
}

GtkWidget *
sl_problems_panel_new (void)
{
  return g_object_new (SL_TYPE_PROBLEMS_PANEL, NULL);
}

/**
 * sl_problems_panel_get_model:
 *
 * Returns: (transfer none): every problem, unfiltered: the window's own,
 *   then those of the document in front
 */
GListModel *
sl_problems_panel_get_model (SlProblemsPanel *self)
{
  g_return_val_if_fail (SL_IS_PROBLEMS_PANEL (self), NULL);

  return G_LIST_MODEL (self->all);
}

guint
sl_problems_panel_count (SlProblemsPanel *self,
                         SlSeverity       severity)
{
  g_return_val_if_fail (SL_IS_PROBLEMS_PANEL (self), 0);
  g_return_val_if_fail (severity <= SL_SEVERITY_ERROR, 0);

  return self->counts[severity] + self->document_counts[severity];
}
