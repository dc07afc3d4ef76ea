/* sl-compare-page.c
 *
 * The document's address names both sides, BASE then COMPARISON (an
 * #SlDocumentAddress of two paths), so links (the folder page's Compare
 * Profiles button, win.open-paths) need no request and the same pair
 * raises the same tab. Both profiles are read and compared in one worker;
 * a generation counter drops the results of a pair no longer asked for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-compare-entry.h"
#include "sl-compare-export.h"
#include "sl-compare-page.h"
#include "sl-page-switcher.h"
#include "sl-compare-timelines.h"
#include "sl-data-table.h"
#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-op-row.h"
#include "sl-op-table.h"
#include "sl-profile-loader.h"
#include "sl-time-format.h"

typedef enum {
  COL_NAME,
  COL_BASE,
  COL_COMPARISON,
  COL_DIFF,
  COL_RATIO,
  COL_BASE_COUNT,
  COL_COMPARISON_COUNT,
} Column;

struct _SlComparePage
{
  SlDocument          parent_instance;

  char               *base;
  char               *comparison;
  guint               generation;
  GCancellable       *cancellable;
  SlProfileCompare  **result;
  SlTimeUnit          unit;
  GPtrArray          *choices;        /* profile paths in the dropdowns */
  gboolean            filling_choices;
  gboolean            filling_ranks;
  gboolean            busy;
  SlProfile          *profiles[2];    /* both sides as read, for another choice of ranks */
  GPtrArray          *alignment_rows;

  GListStore         *items;
  GListStore         *op_types;
  GListStore         *kernels;

  GtkStack           *stack;
  GtkLabel           *loading_label;
  AdwStatusPage      *failed_page;
  GtkDropDown        *base_dropdown;
  GtkDropDown        *comparison_dropdown;
  GtkDropDown        *base_rank_dropdown;
  GtkDropDown        *comparison_rank_dropdown;
  AdwViewStack       *view_stack;
  GtkWidget          *view_switcher;
  SlDataTable        *overview_view;
  GtkLabel           *headline_label;
  GtkLabel           *not_computed_label;
  GtkLabel           *notes_label;
  SlDataTable        *ops_view;
  GtkToggleButton    *kernels_toggle;
  GtkSearchEntry     *filter_entry;
  GtkLabel           *ops_count_label;
  AdwPreferencesGroup *alignment_group;
  SlCompareTimelines *timelines;
  GtkRevealer        *export_bar;
  GtkLabel           *export_label;
  GtkProgressBar     *export_progress;
  GCancellable       *export_cancellable;   /* of the export shown in the bar */
  SlProgress         *export_rows;          /* rows written, of all */
};

G_DEFINE_FINAL_TYPE (SlComparePage, sl_compare_page, SL_TYPE_DOCUMENT)

static const SlFindingKind profile_kinds[] = {
  SL_FINDING_MINDSPORE_PROFILER, SL_FINDING_MSPROF, SL_FINDING_ASCEND_PROFILER, SL_FINDING_PROFILER_DB,
};

static void start_loading (SlComparePage *self);

/* Formatting */

static char *
format_ns (SlComparePage *self,
           gint64         ns)
{
  if (ns < 0)
    return g_strdup ("—");
  return sl_time_format_ns (ns, self->unit);
}

static char *
format_diff (SlComparePage *self,
             gint64         diff_ns)
{
  g_autofree char *magnitude = sl_time_format_ns (diff_ns < 0 ? -diff_ns : diff_ns, self->unit);

  if (diff_ns == 0)
    return g_strdup (magnitude);
  return g_strconcat (diff_ns > 0 ? "+" : "−", magnitude, NULL);
}

static char *
format_ratio (double ratio)
{
  if (isnan (ratio) || isinf (ratio))
    return g_strdup ("—");
  /* Translators: how many times the baseline a value is, "1.250×" */
  return g_strdup_printf (_("%.3f×"), ratio);
}

static char *
short_name (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *parent = g_path_get_basename (dir);

  if (g_strcmp0 (parent, ".") == 0 || g_strcmp0 (parent, G_DIR_SEPARATOR_S) == 0)
    return g_steal_pointer (&name);
  return g_build_filename (parent, name, NULL);
}

/* Cells */

static char *
cell_text (SlComparePage  *self,
           SlCompareEntry *entry,
           Column          column,
           const char    **css_class)
{
  const SlProfileCompareItem *item = sl_compare_entry_get_item (entry);
  const SlProfileCompareRow *row = sl_compare_entry_get_row (entry);
  gint64 diff = sl_compare_entry_get_diff_ns (entry);
  gboolean noise = item != NULL && item->noise_checked && item->noise;
  /* A breakdown item whose step-to-step spread is unknown (too few
   * steps, or op table totals) cannot be told from noise. */
  gboolean unchecked = item != NULL && !item->noise_checked;

  *css_class = NULL;
  if (column == COL_DIFF || column == COL_RATIO)
    {
      /* A row one side lacks says what each side recorded, not a gain
       * or a regression: never coloured as one. */
      if (noise || unchecked || diff == 0 || (row != NULL && (!row->present[0] || !row->present[1])))
        *css_class = "dim-label";
      else if (diff > 0)
        *css_class = "error";
      else if (diff < 0)
        *css_class = "success";
    }

  switch (column)
    {
    case COL_NAME:
      return sl_compare_entry_dup_name (entry);
    case COL_BASE:
      return format_ns (self, sl_compare_entry_get_base_ns (entry));
    case COL_COMPARISON:
      return format_ns (self, sl_compare_entry_get_comparison_ns (entry));
    case COL_DIFF:
      {
        g_autofree char *text = format_diff (self, diff);

        if (noise)
          /* Translators: a difference smaller than the step-to-step spread */
          return g_strdup_printf (_("%s (within noise)"), text);
        return g_steal_pointer (&text);
      }
    case COL_RATIO:
      return format_ratio (sl_compare_entry_get_ratio (entry));
    case COL_BASE_COUNT:
      return row != NULL && row->present[0] ? g_strdup_printf ("%" G_GUINT64_FORMAT, row->count[0]) : g_strdup ("—");
    case COL_COMPARISON_COUNT:
      return row != NULL && row->present[1] ? g_strdup_printf ("%" G_GUINT64_FORMAT, row->count[1]) : g_strdup ("—");
    default:
      return NULL;
    }
}

static double
sort_value (SlCompareEntry *entry,
            Column          column)
{
  const SlProfileCompareRow *row = sl_compare_entry_get_row (entry);

  switch (column)
    {
    case COL_BASE:
      return sl_compare_entry_get_base_ns (entry);
    case COL_COMPARISON:
      return sl_compare_entry_get_comparison_ns (entry);
    case COL_DIFF:
      return sl_compare_entry_get_diff_ns (entry);
    case COL_RATIO:
      return isnan (sl_compare_entry_get_ratio (entry)) ? -1 : sl_compare_entry_get_ratio (entry);
    case COL_BASE_COUNT:
      return row != NULL ? (double)row->count[0] : 0;
    case COL_COMPARISON_COUNT:
      return row != NULL ? (double)row->count[1] : 0;
    case COL_NAME:
    default:
      return 0;
    }
}

/* Both tables are SlDataTables; their columns' functions get the page
 * (for the time unit) and the column. */
typedef struct {
  SlComparePage *page;
  Column         column;
} ColumnRef;

static char *
table_cell_text (gpointer item,
                 gpointer user_data)
{
  ColumnRef *ref = user_data;
  const char *css_class = NULL;

  return cell_text (ref->page, item, ref->column, &css_class);
}

static double
table_cell_number (gpointer item,
                   gpointer user_data)
{
  return sort_value (item, ((ColumnRef *)user_data)->column);
}

/* Why a breakdown item's difference is not coloured as a gain or a
 * regression; NULL when it is coloured, or is no breakdown item. */
static char *
item_diff_tooltip (gpointer item,
                   gpointer user_data)
{
  ColumnRef *ref = user_data;
  const SlProfileCompareItem *compare_item = sl_compare_entry_get_item (item);
  const SlProfileCompare *result = ref->page->result != NULL ? *ref->page->result : NULL;

  if (compare_item == NULL || result == NULL)
    return NULL;
  if (compare_item->not_comparable && compare_item->reason != NULL)
    return g_strdup (compare_item->reason);
  if (compare_item->noise_checked || compare_item->diff_ns == 0)
    return NULL;
  if (compare_item->source == SL_PROFILE_COMPARE_FROM_STEPS)
    {
      g_autofree char *base_steps = sl_count_format (result->base_steps);
      g_autofree char *comparison_steps = sl_count_format (result->comparison_steps);

      /* Translators: a tooltip; the steps of the baseline and of the
       * comparison, and the least number of steps on each side */
      return g_strdup_printf (_("Not coloured as a gain or a regression: the baseline has %s steps and the comparison "
                                "%s, and the step-to-step spread needs at least %d on each side, so this difference "
                                "cannot be told from noise."),
                              base_steps, comparison_steps, SL_PROFILE_COMPARE_MIN_NOISE_STEPS);
    }
  return g_strdup (_("Not coloured as a gain or a regression: this figure comes from op table totals, which are not "
                     "split by step, so its step-to-step spread is unknown and the difference cannot be told from "
                     "noise."));
}

/* Slower in red, faster in green, the same, within noise or of unknown
 * noise dimmed. */
static const char *
table_cell_style (gpointer item,
                  gpointer user_data)
{
  ColumnRef *ref = user_data;
  const char *css_class = NULL;
  g_autofree char *text = cell_text (ref->page, item, ref->column, &css_class);

  return css_class;
}

/* "(uss)": the side (0 the baseline), the op type and the kernel's input
 * shapes ("" for an op type); none where the side has no such op. */
static GVariant *
count_link_target (gpointer item,
                   gpointer user_data)
{
  ColumnRef *ref = user_data;
  const SlProfileCompareRow *row = sl_compare_entry_get_row (item);
  guint side = ref->column == COL_COMPARISON_COUNT;

  if (row == NULL || !row->present[side] || row->count[side] == 0)
    return NULL;
  return g_variant_new ("(uss)", side, row->type, row->input_shapes != NULL ? row->input_shapes : "");
}

static char *
count_link_tooltip (gpointer item,
                    gpointer user_data)
{
  ColumnRef *ref = user_data;
  const SlProfileCompareRow *row = sl_compare_entry_get_row (item);

  if (row == NULL || !row->present[ref->column == COL_COMPARISON_COUNT])
    return NULL;
  return g_strdup_printf (ref->column == COL_COMPARISON_COUNT
                          /* Translators: a count's link; %s is an op type */
                          ? _("Show the comparison's %s ops in its Operators page")
                          /* Translators: a count's link; %s is an op type */
                          : _("Show the baseline's %s ops in its Operators page"),
                          row->type);
}

static void
add_table_column (SlComparePage *self,
                  SlDataTable   *table,
                  const char    *id,
                  const char    *title,
                  Column         column)
{
  ColumnRef *ref = g_new0 (ColumnRef, 1);
  SlDataColumn def = {
    .id = id,
    .title = title,
    .flags = column == COL_NAME ? SL_DATA_COLUMN_SEARCHABLE | SL_DATA_COLUMN_EXPAND : SL_DATA_COLUMN_NUMERIC,
    .text = table_cell_text,
    .number = column == COL_NAME ? NULL : table_cell_number,
    .style = column == COL_DIFF || column == COL_RATIO ? table_cell_style : NULL,
  };

  ref->page = self;
  ref->column = column;
  if (column == COL_DIFF || column == COL_RATIO)
    def.tooltip = item_diff_tooltip;
  if (column == COL_BASE_COUNT || column == COL_COMPARISON_COUNT)
    {
      /* A side's count is a link to its ops of the row's type. */
      def.flags |= SL_DATA_COLUMN_BUTTON;
      def.tooltip = count_link_tooltip;
      def.action = "compare.show-ops";
      def.action_target = count_link_target;
    }
  sl_data_table_append_column (table, &def, ref, g_free);
}

/* Filling */

/* The tables of one comparison; the profiles stay for another choice of
 * ranks. */
static void
clear_tables (SlComparePage *self)
{
  g_list_store_remove_all (self->items);
  g_list_store_remove_all (self->op_types);
  g_list_store_remove_all (self->kernels);
  g_clear_pointer (&self->result, sl_compare_result_release);
  for (guint i = 0; i < self->alignment_rows->len; i++)
    adw_preferences_group_remove (self->alignment_group, g_ptr_array_index (self->alignment_rows, i));
  g_ptr_array_set_size (self->alignment_rows, 0);
}

static void
clear_result (SlComparePage *self)
{
  clear_tables (self);
  g_clear_object (&self->profiles[0]);
  g_clear_object (&self->profiles[1]);
  sl_compare_timelines_clear (self->timelines);
}

static void
add_alignment_row (SlComparePage *self,
                   const char    *title,
                   const char    *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 1.0f);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (self->alignment_group, row);
  g_ptr_array_add (self->alignment_rows, row);
}

static void
fill_alignment (SlComparePage                   *self,
                const SlProfileCompareAlignment *alignment)
{
  g_autofree char *matched = sl_count_format (alignment->matched);
  g_autofree char *only_base = sl_count_format (alignment->only_base);
  g_autofree char *only_comparison = sl_count_format (alignment->only_comparison);
  g_autofree char *streams = sl_count_format (alignment->n_streams);

  if (!alignment->computed)
    {
      adw_preferences_group_set_description (self->alignment_group,
                                             _("The executions of the two profiles were not aligned op by op."));
      add_alignment_row (self, _("Reason"), alignment->reason != NULL ? alignment->reason : _("Unknown"));
      return;
    }
  adw_preferences_group_set_description (self->alignment_group,
                                         _("The executions of one step, aligned op by op, stream by stream."));
  add_alignment_row (self, _("Matched"), matched);
  add_alignment_row (self, _("Only in the baseline"), only_base);
  add_alignment_row (self, _("Only in the comparison"), only_comparison);
  add_alignment_row (self, _("Method"), sl_sequence_align_method_to_string (alignment->method));
  add_alignment_row (self, _("Aligned"), alignment->scope != NULL ? alignment->scope : "");
  add_alignment_row (self, _("Streams"), streams);
}

static void
fill_overview (SlComparePage *self)
{
  SlProfileCompare *result = *self->result;
  const SlProfileCompareItem *e2e = &result->items[SL_PROFILE_COMPARE_E2E];
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autoptr(GString) notes = g_string_new (NULL);

  for (guint i = 0; i < SL_PROFILE_COMPARE_N_ITEMS; i++)
    {
      const SlProfileCompareItem *item = &result->items[i];

      if (item->source != SL_PROFILE_COMPARE_FROM_NONE)
        {
          g_autoptr(SlCompareEntry) entry = sl_compare_entry_new_item (self->result, i);

          g_list_store_append (self->items, entry);
        }
      else
        g_string_append_printf (missing, "%s• %s: %s", missing->len ? "\n" : "",
                                sl_profile_compare_item_label (item->kind),
                                item->reason != NULL ? item->reason : _("not computed"));
    }

  if (e2e->source != SL_PROFILE_COMPARE_FROM_NONE)
    {
      g_autofree char *diff = format_diff (self, e2e->diff_ns);
      g_autofree char *ratio = format_ratio (e2e->ratio);
      g_autofree char *base = format_ns (self, e2e->base_ns);
      g_autofree char *comparison = format_ns (self, e2e->comparison_ns);
      g_autofree char *text = NULL;
      /* Without the step-to-step spread, a difference is not told from
       * noise: the verdict says so. */
      const char *verdict = e2e->noise_checked && e2e->noise ? _("within noise")
                          : e2e->diff_ns > 0 ? (e2e->noise_checked ? _("slower") : _("slower; noise not checked"))
                          : e2e->diff_ns < 0 ? (e2e->noise_checked ? _("faster") : _("faster; noise not checked"))
                          : _("the same");

      /* Translators: the end-to-end step time of both sides; the
       * difference, the ratio and a word: slower, faster, within noise */
      text = g_strdup_printf (_("End to end per step: %s → %s, %s (%s, %s)"), base, comparison, diff, ratio, verdict);
      gtk_label_set_text (self->headline_label, text);
    }
  else
    gtk_label_set_text (self->headline_label, e2e->reason != NULL ? e2e->reason : _("No end-to-end time"));

  gtk_label_set_text (self->not_computed_label, missing->str);
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->not_computed_label)), missing->len > 0);

  for (guint i = 0; result->notes != NULL && i < result->notes->len; i++)
    g_string_append_printf (notes, "%s• %s", notes->len ? "\n" : "", (const char *)g_ptr_array_index (result->notes, i));
  gtk_label_set_text (self->notes_label, notes->str);
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->notes_label)), notes->len > 0);
}

static void
update_ops_count (SlComparePage *self)
{
  guint shown = g_list_model_get_n_items (sl_data_table_get_rows (self->ops_view));
  GListModel *all = sl_data_table_get_model (self->ops_view);
  guint total = all != NULL ? g_list_model_get_n_items (all) : 0;
  g_autofree char *shown_text = sl_count_format (shown);
  g_autofree char *total_text = sl_count_format (total);
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s row", "%s rows", total), total_text);
  else
    /* Translators: rows shown by the filter, of all rows */
    text = g_strdup_printf (_("%s of %s rows"), shown_text, total_text);
  gtk_label_set_text (self->ops_count_label, text);
}

static void
fill (SlComparePage *self)
{
  SlProfileCompare *result = *self->result;

  fill_overview (self);
  for (guint i = 0; i < result->op_types->len; i++)
    {
      g_autoptr(SlCompareEntry) entry = sl_compare_entry_new_row (self->result, g_ptr_array_index (result->op_types, i));
      g_list_store_append (self->op_types, entry);
    }
  for (guint i = 0; i < result->kernels->len; i++)
    {
      g_autoptr(SlCompareEntry) entry = sl_compare_entry_new_row (self->result, g_ptr_array_index (result->kernels, i));
      g_list_store_append (self->kernels, entry);
    }
  fill_alignment (self, &result->alignment);
  update_ops_count (self);
}

/* The dropdowns */

static void
add_choice (GPtrArray  *choices,
            const char *path)
{
  if (path == NULL)
    return;
  for (guint i = 0; i < choices->len; i++)
    if (g_strcmp0 (g_ptr_array_index (choices, i), path) == 0)
      return;
  g_ptr_array_add (choices, g_strdup (path));
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

static gboolean
is_profile_kind (SlFindingKind kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (profile_kinds); i++)
    if (profile_kinds[i] == kind)
      return TRUE;
  return FALSE;
}

static void
collect_workspace_profiles (SlComparePage *self,
                            GPtrArray     *choices)
{
  SlWorkspace *workspace = sl_document_get_workspace (SL_DOCUMENT (self));
  GListModel *folders = workspace != NULL ? sl_workspace_get_folders (workspace) : NULL;

  for (guint i = 0; folders != NULL && i < g_list_model_get_n_items (folders); i++)
    {
      g_autoptr(SlFolder) folder = g_list_model_get_item (folders, i);
      GListModel *findings = sl_folder_get_findings (folder);

      for (guint j = 0; j < g_list_model_get_n_items (findings); j++)
        {
          g_autoptr(SlFinding) finding = g_list_model_get_item (findings, j);

          if (is_profile_kind (sl_finding_get_kind (finding)))
            add_choice (choices, sl_finding_get_path (finding));
        }
    }
}

static guint
choice_index (SlComparePage *self,
              const char    *path)
{
  for (guint i = 0; i < self->choices->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->choices, i), path) == 0)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static void
fill_choices (SlComparePage *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  g_ptr_array_set_size (self->choices, 0);
  collect_workspace_profiles (self, self->choices);
  add_choice (self->choices, self->base);
  add_choice (self->choices, self->comparison);
  g_ptr_array_sort (self->choices, compare_paths);
  for (guint i = 0; i < self->choices->len; i++)
    {
      g_autofree char *name = short_name (g_ptr_array_index (self->choices, i));
      gtk_string_list_append (names, name);
    }

  self->filling_choices = TRUE;
  gtk_drop_down_set_model (self->base_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_model (self->comparison_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->base_dropdown, choice_index (self, self->base));
  gtk_drop_down_set_selected (self->comparison_dropdown, choice_index (self, self->comparison));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->base_dropdown), self->base);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->comparison_dropdown), self->comparison);
  self->filling_choices = FALSE;
}

static void
side_changed_cb (SlComparePage *self)
{
  guint base = gtk_drop_down_get_selected (self->base_dropdown);
  guint comparison = gtk_drop_down_get_selected (self->comparison_dropdown);

  if (self->filling_choices || base >= self->choices->len || comparison >= self->choices->len)
    return;
  sl_compare_page_set_profiles (self, g_ptr_array_index (self->choices, base),
                                g_ptr_array_index (self->choices, comparison));
}

/* Ranks: a profile of several ranks offers them; choosing one compares
 * again from the profiles already read. */

static void
fill_rank_choices (SlComparePage *self)
{
  GtkDropDown *dropdowns[2] = { self->base_rank_dropdown, self->comparison_rank_dropdown };

  self->filling_ranks = TRUE;
  for (guint side = 0; side < 2; side++)
    {
      g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
      guint n = self->profiles[side] != NULL ? sl_profile_get_n_ranks (self->profiles[side]) : 0;

      for (guint r = 0; r < n; r++)
        gtk_string_list_append (labels, sl_profile_get_rank (self->profiles[side], r)->label);
      gtk_drop_down_set_model (dropdowns[side], G_LIST_MODEL (labels));
      gtk_drop_down_set_selected (dropdowns[side], 0);
      gtk_widget_set_visible (GTK_WIDGET (dropdowns[side]), n > 1);
    }
  self->filling_ranks = FALSE;
}

typedef struct {
  SlProfile               *profiles[2];
  SlProfileCompareOptions  options;
  guint                    generation;
} ComputeData;

static void
compute_data_free (ComputeData *data)
{
  g_clear_object (&data->profiles[0]);
  g_clear_object (&data->profiles[1]);
  g_free (data);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ComputeData *data = task_data;
  GError *error = NULL;
  SlProfileCompare *result = sl_profile_compare_compute (data->profiles[0], data->profiles[1], &data->options,
                                                         cancellable, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify)sl_profile_compare_free);
}

static void
compute_cb (GObject      *object,
            GAsyncResult *res,
            gpointer      user_data)
{
  SlComparePage *self = SL_COMPARE_PAGE (object);
  ComputeData *data = g_task_get_task_data (G_TASK (res));
  g_autoptr(GError) error = NULL;
  SlProfileCompare *result = g_task_propagate_pointer (G_TASK (res), &error);

  if (data->generation != self->generation)
    {
      g_clear_pointer (&result, sl_profile_compare_free);
      return;
    }
  panel_widget_unmark_busy (PANEL_WIDGET (self));
  self->busy = FALSE;
  if (result == NULL)
    {
      adw_status_page_set_description (self->failed_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "failed");
      sl_document_fail (SL_DOCUMENT (self), error->message);
      return;
    }
  self->result = sl_compare_result_new (result);
  fill (self);
  /* The Timelines view lines up the same ranks' steps. */
  sl_compare_timelines_choose_rank (self->timelines, 0, data->options.base_rank);
  sl_compare_timelines_choose_rank (self->timelines, 1, data->options.comparison_rank);
  gtk_stack_set_visible_child_name (self->stack, "compare");
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
  sl_document_details_changed (SL_DOCUMENT (self));
}

static void
compare_ranks (SlComparePage *self,
               guint          base_rank,
               guint          comparison_rank)
{
  g_autoptr(GTask) task = NULL;
  ComputeData *data;

  g_return_if_fail (self->profiles[0] != NULL && self->profiles[1] != NULL);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (!self->busy)
    panel_widget_mark_busy (PANEL_WIDGET (self));
  self->busy = TRUE;
  clear_tables (self);
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_LOADING);

  data = g_new0 (ComputeData, 1);
  data->profiles[0] = g_object_ref (self->profiles[0]);
  data->profiles[1] = g_object_ref (self->profiles[1]);
  data->options.base_rank = base_rank;
  data->options.comparison_rank = comparison_rank;
  data->generation = ++self->generation;
  task = g_task_new (self, self->cancellable, compute_cb, NULL);
  g_task_set_task_data (task, data, (GDestroyNotify)compute_data_free);
  g_task_run_in_thread (task, compute_thread);
}

static void
rank_changed_cb (SlComparePage *self)
{
  guint base = gtk_drop_down_get_selected (self->base_rank_dropdown);
  guint comparison = gtk_drop_down_get_selected (self->comparison_rank_dropdown);

  if (self->filling_ranks || self->profiles[0] == NULL || self->profiles[1] == NULL ||
      base == GTK_INVALID_LIST_POSITION || comparison == GTK_INVALID_LIST_POSITION)
    return;
  compare_ranks (self, base, comparison);
}

/* Loading */

typedef struct {
  char *base;
  char *comparison;
  guint generation;
} LoadData;

/* The comparison, and both profiles for the step tables the Timelines
 * view lines up. */
typedef struct {
  SlProfileCompare *compare;
  SlProfile        *profiles[2];
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_clear_pointer (&loaded->compare, sl_profile_compare_free);
  g_clear_object (&loaded->profiles[0]);
  g_clear_object (&loaded->profiles[1]);
  g_free (loaded);
}

static void
load_data_free (LoadData *data)
{
  g_free (data->base);
  g_free (data->comparison);
  g_free (data);
}

static SlProfile *
load_side (const char   *path,
           GCancellable *cancellable,
           GError      **error)
{
  SlProfile *profile = sl_profile_load (path, cancellable, NULL, NULL, error);

  if (profile == NULL)
    g_prefix_error (error, "%s: ", path);
  return profile;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  g_autoptr(SlProfile) base = NULL;
  g_autoptr(SlProfile) comparison = NULL;
  SlProfileCompare *result;
  Loaded *loaded;
  GError *error = NULL;

  if ((base = load_side (data->base, cancellable, &error)) == NULL ||
      (comparison = load_side (data->comparison, cancellable, &error)) == NULL ||
      (result = sl_profile_compare_compute (base, comparison, NULL, cancellable, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  loaded = g_new0 (Loaded, 1);
  loaded->compare = result;
  loaded->profiles[0] = g_steal_pointer (&base);
  loaded->profiles[1] = g_steal_pointer (&comparison);
  g_task_return_pointer (task, loaded, (GDestroyNotify)loaded_free);
}

static void
add_problems (SlComparePage *self,
              GListModel    *problems)
{
  for (guint i = 0; problems != NULL && i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      sl_document_add_problem (SL_DOCUMENT (self), problem);
    }
}

/* What the readers met in either profile (a damaged file, a bad row) and
 * in either timeline once the Timelines view read it (a cut end, damage
 * read past), each naming its file and where: in the Problems panel with
 * the document's. */
static void
sync_problems (SlComparePage *self)
{
  sl_document_clear_problems (SL_DOCUMENT (self));
  for (guint side = 0; side < 2; side++)
    {
      if (self->profiles[side] != NULL)
        add_problems (self, sl_profile_get_problems (self->profiles[side]));
    }
  for (guint side = 0; side < 2; side++)
    add_problems (self, sl_timeline_pane_get_problems (sl_compare_timelines_get_pane (self->timelines, side)));
}

/* A timeline read, cleared or read again. */
static void
pane_state_cb (SlComparePage *self)
{
  sync_problems (self);
}

static void
load_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  SlComparePage *self = SL_COMPARE_PAGE (object);
  LoadData *data = g_task_get_task_data (G_TASK (res));
  g_autoptr(GError) error = NULL;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (res), &error);

  if (data->generation != self->generation)
    {
      g_clear_pointer (&loaded, loaded_free);
      return;
    }
  panel_widget_unmark_busy (PANEL_WIDGET (self));
  self->busy = FALSE;
  if (loaded == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        adw_status_page_set_description (self->failed_page, _("Reading was cancelled. Choose the profiles again to compare them."));
      else
        adw_status_page_set_description (self->failed_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "failed");
      sl_document_fail (SL_DOCUMENT (self), adw_status_page_get_description (self->failed_page));
      return;
    }

  self->result = sl_compare_result_new (g_steal_pointer (&loaded->compare));
  fill (self);
  sl_compare_timelines_set_profiles (self->timelines, data->base, loaded->profiles[0],
                                     data->comparison, loaded->profiles[1]);
  self->profiles[0] = g_steal_pointer (&loaded->profiles[0]);
  self->profiles[1] = g_steal_pointer (&loaded->profiles[1]);
  sync_problems (self);
  fill_rank_choices (self);
  loaded_free (loaded);
  gtk_stack_set_visible_child_name (self->stack, "compare");
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
  sl_document_details_changed (SL_DOCUMENT (self));
}

static void
start_loading (SlComparePage *self)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *title = NULL;
  g_autofree char *base_name = short_name (self->base);
  g_autofree char *comparison_name = short_name (self->comparison);
  g_autofree char *name = g_path_get_basename (self->comparison);
  LoadData *data = g_new0 (LoadData, 1);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (!self->busy)
    panel_widget_mark_busy (PANEL_WIDGET (self));
  self->busy = TRUE;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  clear_result (self);
  sl_document_clear_problems (SL_DOCUMENT (self));
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_LOADING);

  /* Translators: the title of a document tab; %s is a folder name. */
  title = g_strdup_printf (_("Comparison: %s"), name);
  panel_widget_set_title (PANEL_WIDGET (self), title);
  /* Translators: while reading; the baseline and the comparison */
  title = (g_free (title), g_strdup_printf (_("%s against %s"), comparison_name, base_name));
  gtk_label_set_text (self->loading_label, title);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  fill_choices (self);

  data->base = g_strdup (self->base);
  data->comparison = g_strdup (self->comparison);
  data->generation = ++self->generation;
  task = g_task_new (self, self->cancellable, load_cb, NULL);
  g_task_set_task_data (task, data, (GDestroyNotify)load_data_free);
  g_task_run_in_thread (task, load_thread);
}

static void
sl_compare_page_load (SlDocument *document)
{
  SlComparePage *self = SL_COMPARE_PAGE (document);
  SlDocumentAddress *address = sl_document_get_address (document);
  const char *path = sl_document_get_path (document);

  if (self->comparison != NULL || address == NULL)
    return;

  if (sl_document_address_get_n_paths (address) >= 2)
    {
      self->base = g_strdup (sl_document_address_get_path (address, 0));
      self->comparison = g_strdup (sl_document_address_get_path (address, 1));
    }
  else
    {
      g_autoptr(GPtrArray) choices = g_ptr_array_new_with_free_func (g_free);

      self->comparison = g_strdup (path);
      collect_workspace_profiles (self, choices);
      g_ptr_array_sort (choices, compare_paths);
      for (guint i = 0; i < choices->len && self->base == NULL; i++)
        if (g_strcmp0 (g_ptr_array_index (choices, i), path) != 0)
          self->base = g_strdup (g_ptr_array_index (choices, i));
      if (self->base == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("There is no other profile in the workspace to compare %s with. Add the folder of a baseline profile."), path);

          adw_status_page_set_description (self->failed_page, message);
          gtk_stack_set_visible_child_name (self->stack, "failed");
          sl_document_fail (document, message);
          return;
        }
    }
  start_loading (self);
}

/* Filtering, details, export */

static void
filter_changed_cb (SlComparePage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));

  sl_data_table_set_filter_text (self->ops_view, text);
  update_ops_count (self);
}

static void
kernels_toggled_cb (SlComparePage *self)
{
  gboolean kernels = gtk_toggle_button_get_active (self->kernels_toggle);

  sl_data_table_set_column_title (self->ops_view, "name", kernels ? _("Kernel") : _("Op Type"));
  sl_data_table_set_model (self->ops_view, G_LIST_MODEL (kernels ? self->kernels : self->op_types));
  update_ops_count (self);
  sl_document_details_changed (SL_DOCUMENT (self));
}

static void
details_source_changed_cb (SlComparePage *self)
{
  sl_document_details_changed (SL_DOCUMENT (self));
}

static char *
side_text (SlComparePage             *self,
           const SlProfileCompareRow *row,
           guint                      side)
{
  g_autofree char *total = NULL;
  g_autofree char *avg = NULL;
  g_autofree char *min = NULL;
  g_autofree char *max = NULL;
  g_autofree char *count = NULL;

  if (!row->present[side])
    return g_strdup (_("absent"));
  total = format_ns (self, row->total_ns[side]);
  avg = format_ns (self, row->avg_ns[side]);
  min = format_ns (self, row->min_ns[side]);
  max = format_ns (self, row->max_ns[side]);
  count = sl_count_format (row->count[side]);
  /* Translators: one side of an op type's statistics: the count, the
   * total, average, min and max times */
  return g_strdup_printf (_("%s×, total %s, average %s, min %s, max %s"), count, total, avg, min, max);
}

static gboolean
sl_compare_page_show_details (SlDocument     *document,
                              SlDescription  *details)
{
  SlComparePage *self = SL_COMPARE_PAGE (document);
  g_autoptr(SlCompareEntry) entry = NULL;
  const SlProfileCompareRow *row;
  g_autofree char *name = NULL;
  g_autofree char *base = NULL;
  g_autofree char *comparison = NULL;
  g_autofree char *diff = NULL;
  g_autofree char *ratio = NULL;

  if (self->result == NULL || g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "operators") != 0)
    return FALSE;
  entry = sl_data_table_dup_selected (self->ops_view);
  if (entry == NULL || (row = sl_compare_entry_get_row (entry)) == NULL)
    return FALSE;

  name = sl_compare_entry_dup_name (entry);
  base = side_text (self, row, 0);
  comparison = side_text (self, row, 1);
  diff = format_diff (self, row->diff_ns);
  ratio = format_ratio (row->ratio);
  {
    const char *rows[] = {
      _("Op type"), row->type,
      _("Input shapes"), row->input_shapes != NULL && row->input_shapes[0] ? row->input_shapes : "—",
      _("Core type"), row->core_type != NULL && row->core_type[0] ? row->core_type : "—",
      _("Baseline"), base,
      _("Comparison"), comparison,
      _("Difference"), diff,
      _("Comparison ÷ Baseline"), ratio,
      NULL
    };

    sl_description_show_rows (details, NULL, "sl-chart-symbolic", name, rows);
  }
  return TRUE;
}

static void
export_written_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SlProgress *progress = g_task_get_task_data (task);
  GError *error = NULL;

  if (sl_compare_export_csv_finish (result, &error))
    {
      /* Told here, the end shows at once (an empty table reports no row). */
      sl_progress_report_fraction (progress, 1.0);
      g_task_return_boolean (task, TRUE);
    }
  else
    g_task_return_error (task, error);
}

/* The table shown (the breakdown on Overview, else the op types or
 * kernels as filtered and sorted), taken now; written on a worker. */
static GPtrArray *
dup_shown_entries (SlComparePage *self,
                   gboolean      *overview)
{
  GListModel *model;
  GPtrArray *entries;

  *overview = g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "operators") != 0;
  model = *overview ? G_LIST_MODEL (self->items) : sl_data_table_get_rows (self->ops_view);
  entries = g_ptr_array_new_full (g_list_model_get_n_items (model), g_object_unref);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (entries, g_list_model_get_item (model, i));
  return entries;
}

static void
export_progress_cb (SlComparePage *self)
{
  gtk_progress_bar_set_fraction (self->export_progress, sl_progress_get_fraction (self->export_rows));
}

/**
 * sl_compare_page_export_csv_async:
 *
 * Writes the table shown now to @file as CSV: its rows are taken now,
 * formatted and written on a worker thread; @file is replaced only when
 * the whole table is written.
 */
void
sl_compare_page_export_csv_async (SlComparePage       *self,
                                  GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GTask) task = NULL;
  gboolean overview;

  g_return_if_fail (SL_IS_COMPARE_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  entries = dup_shown_entries (self, &overview);
  if (self->export_rows != NULL)
    g_signal_handlers_disconnect_by_data (self->export_rows, self);
  g_clear_object (&self->export_rows);
  self->export_rows = sl_progress_new ();
  g_signal_connect_swapped (self->export_rows, "notify::fraction", G_CALLBACK (export_progress_cb), self);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_compare_page_export_csv_async);
  g_task_set_task_data (task, g_object_ref (self->export_rows), g_object_unref);
  sl_compare_export_csv_async (self, entries, overview, file, self->export_rows, cancellable,
                               export_written_cb, g_steal_pointer (&task));
}

/**
 * sl_compare_page_export_csv_finish:
 *
 * Returns: %TRUE when the file was written, else an error naming it
 *   (%G_IO_ERROR_CANCELLED when cancelled)
 */
gboolean
sl_compare_page_export_csv_finish (SlComparePage  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sl_compare_page_export_csv_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * sl_compare_page_get_export_fraction:
 *
 * Returns: how much of the last export is written, from 0 to 1
 */
double
sl_compare_page_get_export_fraction (SlComparePage *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_PAGE (self), 0);

  return self->export_rows != NULL ? sl_progress_get_fraction (self->export_rows) : 0;
}

gboolean
sl_compare_page_is_exporting (SlComparePage *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_PAGE (self), FALSE);

  return self->export_cancellable != NULL;
}

/* Stops the export started by sl_compare_page_save_csv(): the file is
 * left as it was. */
void
sl_compare_page_cancel_export (SlComparePage *self)
{
  g_return_if_fail (SL_IS_COMPARE_PAGE (self));

  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
}

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  SlComparePage *self = SL_COMPARE_PAGE (source);
  g_autoptr(GCancellable) cancellable = user_data;
  g_autoptr(GFile) file = g_object_steal_data (G_OBJECT (cancellable), "sl-export-file");
  g_autoptr(GError) error = NULL;
  gboolean ok = sl_compare_page_export_csv_finish (self, result, &error);

  /* An export replaced by a newer one has nothing left to show. */
  if (cancellable != self->export_cancellable)
    return;
  g_clear_object (&self->export_cancellable);
  gtk_revealer_set_reveal_child (self->export_bar, FALSE);
  if (ok)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *text = g_strdup_printf (_("Exported to “%s”"), name);

      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", text);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", error->message);
}

/**
 * sl_compare_page_save_csv:
 *
 * Exports the table shown to @file with progress and Cancel under the
 * page's toolbar; the outcome is shown in a toast (an error names the
 * file). An export still running is cancelled first.
 */
void
sl_compare_page_save_csv (SlComparePage *self,
                          GFile         *file)
{
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (SL_IS_COMPARE_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  sl_compare_page_cancel_export (self);
  g_clear_object (&self->export_cancellable);
  self->export_cancellable = g_cancellable_new ();
  g_object_set_data_full (G_OBJECT (self->export_cancellable), "sl-export-file", g_object_ref (file), g_object_unref);
  name = g_file_get_basename (file);
  /* Translators: %s is the file a comparison is exported to. */
  text = g_strdup_printf (_("Exporting to “%s”…"), name);
  gtk_label_set_label (self->export_label, text);
  gtk_progress_bar_set_fraction (self->export_progress, 0);
  gtk_revealer_set_reveal_child (self->export_bar, TRUE);
  sl_compare_page_export_csv_async (self, file, self->export_cancellable, export_done_cb,
                                    g_object_ref (self->export_cancellable));
}

static void
export_cancel_clicked_cb (SlComparePage *self)
{
  sl_compare_page_cancel_export (self);
}

static void
export_chosen_cb (GtkNativeDialog *dialog,
                  int              response,
                  SlComparePage   *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) != NULL)
    sl_compare_page_save_csv (self, file);

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  SlComparePage *self = SL_COMPARE_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *dialog;
  gboolean overview = g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "operators") != 0;

  if (self->result == NULL)
    return;
  dialog = gtk_file_chooser_native_new (_("Export the Comparison"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog),
                                     overview ? "comparison-breakdown.csv"
                                     : gtk_toggle_button_get_active (self->kernels_toggle) ? "comparison-kernels.csv"
                                     : "comparison-op-types.csv");
  g_signal_connect_object (dialog, "response", G_CALLBACK (export_chosen_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Links */

/* The first op of @type (with @shapes when given and matched) in the
 * rank compared on @side, as its profile names it. */
static const char *
first_op_of_type (SlComparePage *self,
                  guint          side,
                  const char    *type,
                  const char    *shapes)
{
  const SlProfileCompare *result = sl_compare_page_get_result (self);
  const SlProfileRank *rank;
  GListModel *instances;
  const char *first_of_type = NULL;
  guint index;

  if (result == NULL || self->profiles[side] == NULL)
    return NULL;
  index = side == 0 ? result->base_rank : result->comparison_rank;
  if (index >= sl_profile_get_n_ranks (self->profiles[side]) ||
      (rank = sl_profile_get_rank (self->profiles[side], index)) == NULL || rank->ops == NULL)
    return NULL;

  instances = sl_op_table_get_instances (rank->ops);
  for (guint i = 0; i < g_list_model_get_n_items (instances); i++)
    {
      g_autoptr(SlOpRow) row = g_list_model_get_item (instances, i);
      const char *name = sl_op_row_get_name (row);

      if (name == NULL || name[0] == '\0' || g_strcmp0 (sl_op_row_get_op_type (row), type) != 0)
        continue;
      if (shapes == NULL || shapes[0] == '\0' || g_strcmp0 (sl_op_row_get_input_shapes (row), shapes) == 0)
        return name;   /* the instances list holds it as long as the profile */
      if (first_of_type == NULL)
        first_of_type = name;
    }
  return first_of_type;
}

/**
 * sl_compare_page_show_ops:
 * @side: 0 for the baseline, 1 for the comparison
 * @shapes: (nullable): a kernel's input shapes
 *
 * Opens the side's profile at its Operators page with the first op of
 * @type selected and scrolled to; toasts when the side lists none.
 *
 * Returns: whether there was an op to show
 */
gboolean
sl_compare_page_show_ops (SlComparePage *self,
                          guint          side,
                          const char    *type,
                          const char    *shapes)
{
  const char *name;

  g_return_val_if_fail (SL_IS_COMPARE_PAGE (self), FALSE);
  g_return_val_if_fail (side <= 1 && type != NULL, FALSE);

  if ((name = first_op_of_type (self, side, type, shapes)) == NULL)
    {
      g_autofree char *message = g_strdup_printf (side == 0
                                                  /* Translators: a link named an op type a side does not list */
                                                  ? _("The baseline lists no op of type “%s”")
                                                  /* Translators: a link named an op type a side does not list */
                                                  : _("The comparison lists no op of type “%s”"),
                                                  type);

      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
      return FALSE;
    }
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-document", "(ssv)", "profile",
                              sl_profile_get_path (self->profiles[side]), g_variant_new ("(ss)", "op", name));
  return TRUE;
}

static void
show_ops_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  const char *type = NULL, *shapes = NULL;
  guint side = 0;

  g_variant_get (param, "(u&s&s)", &side, &type, &shapes);
  sl_compare_page_show_ops (SL_COMPARE_PAGE (widget), MIN (side, 1), type, shapes);
}

/* A row activated: the comparison's ops of its type, else the baseline's. */
static void
ops_row_activated_cb (SlComparePage *self,
                      guint          position)
{
  g_autoptr(SlCompareEntry) entry = g_list_model_get_item (sl_data_table_get_rows (self->ops_view), position);
  const SlProfileCompareRow *row = entry != NULL ? sl_compare_entry_get_row (entry) : NULL;

  if (row != NULL)
    sl_compare_page_show_ops (self, row->present[1] ? 1 : 0, row->type, row->input_shapes);
}

static void
swap_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  sl_compare_page_swap (SL_COMPARE_PAGE (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlComparePage *self = SL_COMPARE_PAGE (widget);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/* Life */

static void
sl_compare_page_dispose (GObject *object)
{
  SlComparePage *self = SL_COMPARE_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->items != NULL)
    clear_result (self);
  sl_compare_page_cancel_export (self);
  g_clear_object (&self->export_cancellable);
  if (self->export_rows != NULL)
    g_signal_handlers_disconnect_by_data (self->export_rows, self);
  g_clear_object (&self->export_rows);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_COMPARE_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->items);
  g_clear_object (&self->op_types);
  g_clear_object (&self->kernels);
  g_clear_pointer (&self->choices, g_ptr_array_unref);
  g_clear_pointer (&self->alignment_rows, g_ptr_array_unref);
  g_clear_pointer (&self->base, g_free);
  g_clear_pointer (&self->comparison, g_free);

  G_OBJECT_CLASS (sl_compare_page_parent_class)->dispose (object);
}

static void
sl_compare_page_class_init (SlComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_compare_page_dispose;
  SL_DOCUMENT_CLASS (klass)->load = sl_compare_page_load;
  SL_DOCUMENT_CLASS (klass)->describe = sl_compare_page_show_details;

  g_type_ensure (SL_TYPE_COMPARE_TIMELINES);
  g_type_ensure (SL_TYPE_DATA_TABLE);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, stack);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, loading_label);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, base_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, comparison_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, base_rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, comparison_rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, overview_view);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, headline_label);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, not_computed_label);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, notes_label);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, ops_view);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, kernels_toggle);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, ops_count_label);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, alignment_group);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, timelines);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, export_bar);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, export_label);
  gtk_widget_class_bind_template_child (widget_class, SlComparePage, export_progress);
  gtk_widget_class_bind_template_callback (widget_class, side_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, rank_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kernels_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, details_source_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_cancel_clicked_cb);

  gtk_widget_class_install_action (widget_class, "compare.swap", NULL, swap_action);
  gtk_widget_class_install_action (widget_class, "compare.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "compare.show-ops", "(uss)", show_ops_action);
  gtk_widget_class_install_action (widget_class, "compare.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "compare.cancel", NULL);
}

static void
sl_compare_page_init (SlComparePage *self)
{
  g_autoptr(GSettings) settings = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint side = 0; side < 2; side++)
    g_signal_connect_object (sl_compare_timelines_get_pane (self->timelines, side), "notify::state",
                             G_CALLBACK (pane_state_cb), self, G_CONNECT_SWAPPED);
  {
    g_autoptr(GtkSelectionModel) pages = adw_view_stack_get_pages (self->view_stack);

    sl_page_switcher_squeeze (self->view_switcher, pages, ADW_TYPE_VIEW_STACK_PAGE);
  }

  settings = g_settings_new (APP_ID);
  self->unit = g_settings_get_enum (settings, "time-unit");
  self->choices = g_ptr_array_new_with_free_func (g_free);
  self->alignment_rows = g_ptr_array_new ();
  self->items = g_list_store_new (SL_TYPE_COMPARE_ENTRY);
  self->op_types = g_list_store_new (SL_TYPE_COMPARE_ENTRY);
  self->kernels = g_list_store_new (SL_TYPE_COMPARE_ENTRY);

  /* Translators: a column of the comparison's breakdown */
  add_table_column (self, self->overview_view, "item", _("Item"), COL_NAME);
  add_table_column (self, self->overview_view, "base", _("Baseline"), COL_BASE);
  add_table_column (self, self->overview_view, "comparison", _("Comparison"), COL_COMPARISON);
  add_table_column (self, self->overview_view, "diff", _("Difference"), COL_DIFF);
  /* Translators: the ratio of the two sides, never a share of a whole */
  add_table_column (self, self->overview_view, "ratio", _("Comparison ÷ Baseline"), COL_RATIO);
  sl_data_table_set_model (self->overview_view, G_LIST_MODEL (self->items));
  sl_data_table_set_content_height (self->overview_view, -1, -1);

  add_table_column (self, self->ops_view, "name", _("Op Type"), COL_NAME);
  /* Translators: columns of the op table: counts and totals of each side */
  add_table_column (self, self->ops_view, "base-count", _("Baseline Count"), COL_BASE_COUNT);
  add_table_column (self, self->ops_view, "comparison-count", _("Comparison Count"), COL_COMPARISON_COUNT);
  add_table_column (self, self->ops_view, "base", _("Baseline Total"), COL_BASE);
  add_table_column (self, self->ops_view, "comparison", _("Comparison Total"), COL_COMPARISON);
  add_table_column (self, self->ops_view, "diff", _("Difference"), COL_DIFF);
  add_table_column (self, self->ops_view, "ratio", _("Comparison ÷ Baseline"), COL_RATIO);
  sl_data_table_set_model (self->ops_view, G_LIST_MODEL (self->op_types));
  g_signal_connect_object (gtk_column_view_get_model (sl_data_table_get_column_view (self->ops_view)),
                           "notify::selected", G_CALLBACK (details_source_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->ops_view, "row-activated", G_CALLBACK (ops_row_activated_cb), self, G_CONNECT_SWAPPED);
}

/* API */

const char *
sl_compare_page_get_base (SlComparePage *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_PAGE (self), NULL);
  return self->base;
}

const char *
sl_compare_page_get_comparison (SlComparePage *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_PAGE (self), NULL);
  return self->comparison;
}

void
sl_compare_page_set_profiles (SlComparePage *self,
                              const char    *base,
                              const char    *comparison)
{
  g_return_if_fail (SL_IS_COMPARE_PAGE (self));
  g_return_if_fail (base != NULL && comparison != NULL);

  if (g_strcmp0 (base, self->base) == 0 && g_strcmp0 (comparison, self->comparison) == 0 &&
      self->result != NULL)
    return;
  g_free (self->base);
  g_free (self->comparison);
  self->base = g_strdup (base);
  self->comparison = g_strdup (comparison);
  start_loading (self);
}

void
sl_compare_page_swap (SlComparePage *self)
{
  g_autofree char *base = NULL;
  g_autofree char *comparison = NULL;

  g_return_if_fail (SL_IS_COMPARE_PAGE (self));
  if (self->base == NULL || self->comparison == NULL)
    return;
  base = g_strdup (self->comparison);
  comparison = g_strdup (self->base);
  sl_compare_page_set_profiles (self, base, comparison);
}

/**
 * sl_compare_page_choose_ranks:
 *
 * Compares rank @base_rank of the baseline with rank @comparison_rank of
 * the comparison, as the rank dropdowns do.
 */
void
sl_compare_page_choose_ranks (SlComparePage *self,
                              guint          base_rank,
                              guint          comparison_rank)
{
  g_return_if_fail (SL_IS_COMPARE_PAGE (self));
  g_return_if_fail (self->profiles[0] != NULL && self->profiles[1] != NULL);
  g_return_if_fail (base_rank < sl_profile_get_n_ranks (self->profiles[0]));
  g_return_if_fail (comparison_rank < sl_profile_get_n_ranks (self->profiles[1]));

  self->filling_ranks = TRUE;
  gtk_drop_down_set_selected (self->base_rank_dropdown, base_rank);
  gtk_drop_down_set_selected (self->comparison_rank_dropdown, comparison_rank);
  self->filling_ranks = FALSE;
  compare_ranks (self, base_rank, comparison_rank);
}

const SlProfileCompare *
sl_compare_page_get_result (SlComparePage *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_PAGE (self), NULL);
  return self->result != NULL ? *self->result : NULL;
}

GListModel *
sl_compare_page_get_ops_model (SlComparePage *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_PAGE (self), NULL);
  return sl_data_table_get_rows (self->ops_view);
}

void
sl_compare_page_show_kernels (SlComparePage *self,
                              gboolean       kernels)
{
  g_return_if_fail (SL_IS_COMPARE_PAGE (self));
  gtk_toggle_button_set_active (self->kernels_toggle, kernels);
}
