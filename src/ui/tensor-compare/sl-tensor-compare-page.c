/* sl-tensor-compare-page.c
 *
 * The document's address names both sides, NPU then BENCH (an
 * #SlDocumentAddress of two paths), so the folder page's button and
 * win.open-paths need no request and the same pair raises the same tab. The report loads in its own workers; the table lists it through a
 * filter and the column view's sorter, so with no column sorted the pairs
 * stay in execution order. New thresholds judge the loaded rows again
 * without reading any tensor.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-data-table.h"
#include "sl-tensor-compare-page.h"
#include "sl-replace-stream.h"
#include "sl-tensor-stats.h"
#include "sl-tooltip.h"

typedef enum {
  COL_ORDER,
  COL_NAME,
  COL_API,
  COL_NPU_DTYPE,
  COL_NPU_SHAPE,
  COL_BENCH_DTYPE,
  COL_BENCH_SHAPE,
  COL_VERDICT,
  COL_FIRST_METRIC,
} Column;

/* The metric columns, in msprobe's order. */
static const struct {
  const char *title;
  const char *tooltip;
  gsize       offset;
} metrics[] = {
  /* Translators: columns of the tensor comparison; short, the tooltip explains */
  { N_("Cosine"), N_("Cosine similarity"), G_STRUCT_OFFSET (SlTensorComparison, cosine) },
  { N_("Euclidean"), N_("Euclidean distance"), G_STRUCT_OFFSET (SlTensorComparison, euclidean_distance) },
  { N_("Rel. Euclidean"), N_("Relative Euclidean distance"), G_STRUCT_OFFSET (SlTensorComparison, relative_euclidean_distance) },
  { N_("Max Abs"), N_("Maximum absolute error"), G_STRUCT_OFFSET (SlTensorComparison, max_abs_error) },
  { N_("Mean Abs"), N_("Mean absolute error"), G_STRUCT_OFFSET (SlTensorComparison, mean_abs_error) },
  { N_("RMSE"), N_("Root mean square error"), G_STRUCT_OFFSET (SlTensorComparison, rmse) },
  { N_("Max Rel"), N_("Maximum relative error"), G_STRUCT_OFFSET (SlTensorComparison, max_relative_error) },
  { N_("Mean Rel"), N_("Mean relative error"), G_STRUCT_OFFSET (SlTensorComparison, mean_relative_error) },
  { N_("Acc. Rel"), N_("Accumulated relative error"), G_STRUCT_OFFSET (SlTensorComparison, accumulated_relative_error) },
  { N_("1‰ Ratio"), N_("Share of elements whose relative error exceeds one thousandth"), G_STRUCT_OFFSET (SlTensorComparison, one_thousandth_err_ratio) },
  { N_("5‰ Ratio"), N_("Share of elements whose relative error exceeds five thousandths"), G_STRUCT_OFFSET (SlTensorComparison, five_thousandth_err_ratio) },
  { N_("KL"), N_("Kullback–Leibler divergence"), G_STRUCT_OFFSET (SlTensorComparison, kl_divergence) },
  { N_("NPU Mean"), N_("Mean of the NPU tensor"), G_STRUCT_OFFSET (SlTensorComparison, npu_mean) },
  { N_("NPU Std"), N_("Standard deviation of the NPU tensor"), G_STRUCT_OFFSET (SlTensorComparison, npu_std) },
  { N_("Bench Mean"), N_("Mean of the benchmark tensor"), G_STRUCT_OFFSET (SlTensorComparison, bench_mean) },
  { N_("Bench Std"), N_("Standard deviation of the benchmark tensor"), G_STRUCT_OFFSET (SlTensorComparison, bench_std) },
};

/* The thresholds popover's rows. */
static const struct {
  const char *label;
  gsize       offset;
  double      max;
  guint       digits;
} threshold_fields[] = {
  /* Translators: thresholds of msprobe's verdict rules */
  { N_("Cosine below which a large error fails"), G_STRUCT_OFFSET (SlTensorCompareThresholds, cosine_low), 1, 4 },
  { N_("Maximum absolute error that fails with it"), G_STRUCT_OFFSET (SlTensorCompareThresholds, max_abs_low), 1e6, 4 },
  { N_("Cosine below which a pair always fails"), G_STRUCT_OFFSET (SlTensorCompareThresholds, cosine_min), 1, 4 },
  { N_("Maximum absolute error that always fails"), G_STRUCT_OFFSET (SlTensorCompareThresholds, max_abs_max), 1e9, 2 },
  { N_("Relative Euclidean distance for a warning"), G_STRUCT_OFFSET (SlTensorCompareThresholds, relative_euclidean_max), 1e6, 6 },
  { N_("KL divergence for a warning"), G_STRUCT_OFFSET (SlTensorCompareThresholds, kl_divergence_max), 1e6, 6 },
  { N_("RMSE for a warning"), G_STRUCT_OFFSET (SlTensorCompareThresholds, rmse_max), 1e6, 6 },
  { N_("Mean relative error for a warning"), G_STRUCT_OFFSET (SlTensorCompareThresholds, mean_relative_error_max), 1e6, 6 },
};

struct _SlTensorComparePage
{
  SlDocument              parent_instance;

  char                   *npu_path;
  char                   *bench_path;
  SlTensorCompareReport  *report;
  GCancellable           *cancellable;
  gulong                  progress_handler;
  gboolean                busy;
  GPtrArray              *apis;           /* the API dropdown's values; index 0 (all) is NULL */
  SlTensorCompareShow     show;
  char                   *module_text;    /* casefolded, or NULL */
  char                   *search_text;

  GListStore             *empty;
  GtkCustomFilter        *filter;       /* the table's extra filter */
  GListModel             *sorted;       /* the table's rows, unowned */
  GtkSingleSelection     *selection;    /* the table's, unowned */
  GtkSpinButton          *threshold_spins[G_N_ELEMENTS (threshold_fields)];

  GtkStack               *stack;
  GtkLabel               *loading_label;
  GtkProgressBar         *progress_bar;
  AdwStatusPage          *failed_page;
  GtkLabel               *npu_label;
  GtkLabel               *bench_label;
  GtkLabel               *pass_label;
  GtkLabel               *warning_label;
  GtkLabel               *error_label;
  GtkGrid                *thresholds_grid;
  GtkSwitch              *dtype_aware_switch;
  GtkMenuButton          *thresholds_button;
  GtkToggleButton        *fuzzy_toggle;
  GtkWidget              *divergence_box;
  GtkImage               *divergence_icon;
  GtkLabel               *divergence_title;
  GtkLabel               *divergence_module;
  GtkExpander            *divergence_stack_expander;
  GtkLabel               *divergence_stack;
  GtkWidget              *divergence_button;
  GtkDropDown            *verdict_dropdown;
  GtkDropDown            *api_dropdown;
  GtkEntry               *module_entry;
  GtkSearchEntry         *search_entry;
  GtkLabel               *rows_label;
  SlDataTable            *pairs_view;
  GtkExpander            *unmatched_expander;
  GtkListBox             *unmatched_list;
  SlTensorPairPane       *pair_pane;
};

G_DEFINE_FINAL_TYPE (SlTensorComparePage, sl_tensor_compare_page, SL_TYPE_DOCUMENT)

/* The report is read and shown (not loading, not failed). */
static gboolean
loaded (SlTensorComparePage *self)
{
  SlDocumentState state = sl_document_get_state (SL_DOCUMENT (self));

  return self->report != NULL && (state == SL_DOCUMENT_READY || state == SL_DOCUMENT_EMPTY);
}

/* Cells */

static double
metric_value (SlTensorCompareRow *row,
              guint               metric)
{
  const SlTensorComparison *m = sl_tensor_compare_row_get_metrics (row);

  if (m == NULL || !m->computed)
    return NAN;
  return G_STRUCT_MEMBER (double, m, metrics[metric].offset);
}

static char *
format_metric (double value)
{
  char text[32];

  if (isnan (value))
    return g_strdup ("—");
  sl_tensor_format_value (text, sizeof text, value, SL_TENSOR_DTYPE_FLOAT64, 6);
  return g_strdup (text);
}

static const char *
verdict_label (SlTensorVerdict verdict)
{
  switch (verdict)
    {
    /* Translators: verdicts of a tensor pair, in a badge */
    case SL_TENSOR_VERDICT_PASS: return _("Pass");
    case SL_TENSOR_VERDICT_WARNING: return _("Warning");
    case SL_TENSOR_VERDICT_ERROR: return _("Error");
    default: return "";
    }
}

static const char *
verdict_class (SlTensorVerdict verdict)
{
  return verdict == SL_TENSOR_VERDICT_ERROR ? "error" : verdict == SL_TENSOR_VERDICT_WARNING ? "warning" : "pass";
}

static char *
or_dash (const char *text)
{
  return g_strdup (text != NULL && text[0] != '\0' ? text : "—");
}

static char *
cell_text (SlTensorCompareRow *row,
           Column              column)
{
  switch (column)
    {
    case COL_ORDER:
      return g_strdup_printf ("%u", sl_tensor_compare_row_get_order (row));
    case COL_NAME:
      return g_strdup (sl_tensor_compare_row_get_name (row));
    case COL_API:
      return or_dash (sl_tensor_compare_row_get_api (row));
    case COL_NPU_DTYPE:
      return or_dash (sl_tensor_compare_row_get_npu_dtype (row));
    case COL_BENCH_DTYPE:
      return or_dash (sl_tensor_compare_row_get_bench_dtype (row));
    case COL_NPU_SHAPE:
      return sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_NPU);
    case COL_BENCH_SHAPE:
      return sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_BENCH);
    case COL_VERDICT:
      return g_strdup (verdict_label (sl_tensor_compare_row_get_verdict (row)));
    case COL_FIRST_METRIC:
    default:
      return format_metric (metric_value (row, column - COL_FIRST_METRIC));
    }
}

static char *
name_tooltip (SlTensorCompareRow *row)
{
  const char *module = sl_tensor_compare_row_get_module_path (row);

  if (module == NULL || module[0] == '\0')
    return g_strdup (sl_tensor_compare_row_get_name (row));
  /* Translators: a pair's tooltip: its full name, then its module path */
  return g_strdup_printf (_("%s\nModule: %s"), sl_tensor_compare_row_get_name (row), module);
}

static char *
table_cell_text (gpointer item,
                 gpointer data)
{
  return cell_text (item, GPOINTER_TO_UINT (data));
}

static char *
table_cell_tooltip (gpointer item,
                    gpointer data)
{
  Column column = GPOINTER_TO_UINT (data);
  SlTensorCompareRow *row = item;

  if (column == COL_NAME)
    return name_tooltip (row);
  if (column == COL_VERDICT)
    {
      const char *reason = sl_tensor_compare_row_get_reason (row);

      return g_strdup (reason != NULL && reason[0] != '\0' ? reason : _("Every metric is within its threshold."));
    }
  if (column >= COL_FIRST_METRIC)
    {
      g_autofree char *text = cell_text (row, column);

      /* The short column titles, spelt out: "Cosine similarity: 0.99" */
      return g_strdup_printf ("%s: %s", _(metrics[column - COL_FIRST_METRIC].tooltip), text);
    }
  return NULL;
}

static const char *
table_cell_style (gpointer item,
                  gpointer data)
{
  return verdict_class (sl_tensor_compare_row_get_verdict (item));
}

static double
table_cell_number (gpointer item,
                   gpointer data)
{
  Column column = GPOINTER_TO_UINT (data);
  SlTensorCompareRow *row = item;

  switch (column)
    {
    case COL_ORDER:
      return sl_tensor_compare_row_get_order (row);
    case COL_VERDICT:
      return sl_tensor_compare_row_get_verdict (row);
    default:
      return metric_value (row, column - COL_FIRST_METRIC);
    }
}

/* Only the name is cut short, in its middle where msprobe keys differ
 * least; the other columns are short and take the width they need. The
 * verdict is a pill sorted by severity. */
static void
add_column (SlTensorComparePage *self,
            const char          *id,
            const char          *title,
            Column               column)
{
  gboolean numeric = column == COL_ORDER || column >= COL_FIRST_METRIC;
  SlDataColumn def = {
    .id = id,
    .title = title,
    .text = table_cell_text,
    .number = numeric || column == COL_VERDICT ? table_cell_number : NULL,
    .tooltip = table_cell_tooltip,
  };

  if (numeric)
    def.flags = SL_DATA_COLUMN_NUMERIC;
  else if (column == COL_NAME)
    def.flags = SL_DATA_COLUMN_ELLIPSIZE_MIDDLE;
  else if (column == COL_VERDICT)
    {
      def.flags = SL_DATA_COLUMN_BADGE;
      def.css_class = "sl-verdict";
      def.style = table_cell_style;
    }
  sl_data_table_append_column (self->pairs_view, &def, GUINT_TO_POINTER (column), NULL);
}

static void
add_columns (SlTensorComparePage *self)
{
  /* Translators: columns of the tensor comparison */
  add_column (self, "order", _("#"), COL_ORDER);
  add_column (self, "name", _("Name"), COL_NAME);
  add_column (self, "api", _("API"), COL_API);
  add_column (self, "verdict", _("Verdict"), COL_VERDICT);
  add_column (self, "npu-dtype", _("NPU Dtype"), COL_NPU_DTYPE);
  add_column (self, "npu-shape", _("NPU Shape"), COL_NPU_SHAPE);
  add_column (self, "bench-dtype", _("Bench Dtype"), COL_BENCH_DTYPE);
  add_column (self, "bench-shape", _("Bench Shape"), COL_BENCH_SHAPE);
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    add_column (self, metrics[i].title, _(metrics[i].title), COL_FIRST_METRIC + i);
}

/* Filtering */

static gboolean
contains_folded (const char *text,
                 const char *folded_needle)
{
  g_autofree char *folded = NULL;

  if (folded_needle == NULL)
    return TRUE;
  if (text == NULL)
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  return strstr (folded, folded_needle) != NULL;
}

static const char *
chosen_api (SlTensorComparePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->api_dropdown);

  if (self->apis == NULL || selected == GTK_INVALID_LIST_POSITION || selected >= self->apis->len)
    return NULL;
  return g_ptr_array_index (self->apis, selected);
}

static gboolean
row_matches (gpointer item,
             gpointer data)
{
  SlTensorComparePage *self = data;
  SlTensorCompareRow *row = item;
  SlTensorVerdict verdict = sl_tensor_compare_row_get_verdict (row);
  const char *api = chosen_api (self);

  if (self->show == SL_TENSOR_COMPARE_SHOW_FAILURES && verdict == SL_TENSOR_VERDICT_PASS)
    return FALSE;
  if (self->show == SL_TENSOR_COMPARE_SHOW_ERRORS && verdict != SL_TENSOR_VERDICT_ERROR)
    return FALSE;
  if (api != NULL && g_strcmp0 (api, sl_tensor_compare_row_get_api (row)) != 0)
    return FALSE;
  return contains_folded (sl_tensor_compare_row_get_module_path (row), self->module_text) &&
         contains_folded (sl_tensor_compare_row_get_name (row), self->search_text);
}

static void
update_rows_label (SlTensorComparePage *self)
{
  guint shown = g_list_model_get_n_items (self->sorted);
  guint total = self->report != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->report)) : 0;
  g_autofree char *shown_text = sl_count_format (shown);
  g_autofree char *total_text = sl_count_format (total);
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s pair", "%s pairs", total), total_text);
  else
    /* Translators: pairs shown by the filters, of all pairs */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s pair", "%s of %s pairs", total),
                            shown_text, total_text);
  gtk_label_set_text (self->rows_label, text);
}

static char *
fold_or_null (const char *text)
{
  return text != NULL && text[0] != '\0' ? g_utf8_casefold (text, -1) : NULL;
}

static void
filter_changed_cb (SlTensorComparePage *self)
{
  guint show = gtk_drop_down_get_selected (self->verdict_dropdown);

  self->show = show <= SL_TENSOR_COMPARE_SHOW_ERRORS ? (SlTensorCompareShow)show : SL_TENSOR_COMPARE_SHOW_ALL;
  g_free (self->module_text);
  self->module_text = fold_or_null (gtk_editable_get_text (GTK_EDITABLE (self->module_entry)));
  g_free (self->search_text);
  self->search_text = fold_or_null (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_rows_label (self);
}

/* Filling */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

static void
fill_apis (SlTensorComparePage *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  GListModel *rows = G_LIST_MODEL (self->report);

  g_clear_pointer (&self->apis, g_ptr_array_unref);
  self->apis = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SlTensorCompareRow) row = g_list_model_get_item (rows, i);
      const char *api = sl_tensor_compare_row_get_api (row);

      if (api != NULL && api[0] != '\0' && g_hash_table_add (seen, (gpointer)api))
        g_ptr_array_add (self->apis, g_strdup (api));
    }
  g_ptr_array_sort (self->apis, compare_strings);
  g_ptr_array_insert (self->apis, 0, NULL);

  gtk_string_list_append (labels, _("All APIs"));
  for (guint i = 1; i < self->apis->len; i++)
    gtk_string_list_append (labels, g_ptr_array_index (self->apis, i));
  gtk_drop_down_set_model (self->api_dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (self->api_dropdown, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->api_dropdown), self->apis->len > 1);
}

static void
fill_counts (SlTensorComparePage *self)
{
  guint pass = sl_tensor_compare_report_count_verdict (self->report, SL_TENSOR_VERDICT_PASS);
  guint warning = sl_tensor_compare_report_count_verdict (self->report, SL_TENSOR_VERDICT_WARNING);
  guint error = sl_tensor_compare_report_count_verdict (self->report, SL_TENSOR_VERDICT_ERROR);
  g_autofree char *pass_count = sl_count_format (pass);
  g_autofree char *warning_count = sl_count_format (warning);
  g_autofree char *error_count = sl_count_format (error);
  g_autofree char *pass_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s pass", "%s pass", pass), pass_count);
  g_autofree char *warning_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s warning", "%s warnings", warning),
                                                   warning_count);
  g_autofree char *error_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s error", "%s errors", error),
                                                 error_count);

  gtk_label_set_text (self->pass_label, pass_text);
  gtk_label_set_text (self->warning_label, warning_text);
  gtk_label_set_text (self->error_label, error_text);
}

static void
fill_divergence (SlTensorComparePage *self)
{
  SlTensorCompareRow *row = sl_tensor_compare_report_get_first_divergence (self->report);
  const char *module, *stack, *reason;
  g_autofree char *title = NULL;
  g_autofree char *module_text = NULL;

  gtk_widget_set_visible (self->divergence_button,
                          row != NULL || sl_tensor_compare_report_get_first_warning (self->report) != NULL);
  if (row == NULL)
    {
      gboolean any = g_list_model_get_n_items (G_LIST_MODEL (self->report)) > 0;
      SlTensorCompareRow *warning = sl_tensor_compare_report_get_first_warning (self->report);
      gboolean partial = sl_tensor_compare_report_get_n_unmatched (self->report) > 0;
      g_autofree char *headline = sl_tensor_compare_report_dup_verdict (self->report);
      g_autofree char *coverage = sl_tensor_compare_report_dup_coverage (self->report);
      const char *warning_reason = warning != NULL ? sl_tensor_compare_row_get_reason (warning) : NULL;
      /* Translators: what was compared, then why the first warning warns */
      g_autofree char *why = !any ? g_strdup ("")
                             : warning_reason != NULL ? g_strdup_printf (_("%s — %s"), coverage, warning_reason)
                                              : g_strdup (coverage);

      /* A pass is a pass only of what was compared: a warning or an
       * unmatched tensor keeps the banner from looking all clear. */
      gtk_image_set_from_icon_name (self->divergence_icon, !any ? "dialog-information-symbolic"
                                                           : warning != NULL || partial ? "dialog-warning-symbolic"
                                                                                         : "emblem-ok-symbolic");
      gtk_widget_remove_css_class (self->divergence_box, "failing");
      gtk_label_set_text (self->divergence_title, headline);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->divergence_title), headline);
      gtk_label_set_text (self->divergence_module, why);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->divergence_module), why);
      gtk_widget_set_visible (GTK_WIDGET (self->divergence_module), why[0] != '\0');
      gtk_widget_set_visible (GTK_WIDGET (self->divergence_stack_expander), FALSE);
      return;
    }

  gtk_image_set_from_icon_name (self->divergence_icon, "dialog-warning-symbolic");
  gtk_widget_add_css_class (self->divergence_box, "failing");
  title = sl_tensor_compare_report_dup_verdict (self->report);
  gtk_label_set_text (self->divergence_title, title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->divergence_title), sl_tensor_compare_row_get_name (row));

  module = sl_tensor_compare_row_get_module_path (row);
  reason = sl_tensor_compare_row_get_reason (row);
  if (module != NULL && module[0] != '\0')
    /* Translators: the module path of the first divergence, then why it fails */
    module_text = g_strdup_printf (_("In %s — %s"), module, reason != NULL ? reason : "");
  else
    module_text = g_strdup (reason != NULL ? reason : "");
  gtk_label_set_text (self->divergence_module, module_text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->divergence_module), module_text);
  gtk_widget_set_visible (GTK_WIDGET (self->divergence_module), module_text[0] != '\0');

  stack = sl_tensor_compare_row_get_stack (row);
  gtk_label_set_text (self->divergence_stack, stack != NULL ? stack : "");
  gtk_widget_set_visible (GTK_WIDGET (self->divergence_stack_expander), stack != NULL && stack[0] != '\0');
}

static const char *
unmatched_side_label (SlTensorSide side)
{
  /* Translators: which side an unmatched tensor is of */
  return side == SL_TENSOR_SIDE_NPU ? _("NPU only") : _("Benchmark only");
}

static void
fill_unmatched (SlTensorComparePage *self)
{
  guint n = sl_tensor_compare_report_get_n_unmatched (self->report);
  guint per_side[2] = { 0, 0 };
  g_autofree char *title = NULL;
  g_autofree char *npu = NULL;
  g_autofree char *bench = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->unmatched_list))) != NULL)
    gtk_list_box_remove (self->unmatched_list, child);

  for (guint i = 0; i < n; i++)
    {
      const SlTensorCompareUnmatched *unmatched = sl_tensor_compare_report_get_unmatched (self->report, i);
      g_autofree char *escaped = g_markup_escape_text (unmatched->name, -1);
      g_autofree char *subtitle = NULL;
      GtkWidget *row = adw_action_row_new ();

      per_side[unmatched->side == SL_TENSOR_SIDE_BENCH]++;
      subtitle = g_markup_printf_escaped ("%s — %s", unmatched_side_label (unmatched->side),
                                          unmatched->reason_text != NULL ? unmatched->reason_text : "");
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_tooltip_text (row, unmatched->name);
      gtk_list_box_append (self->unmatched_list, row);
    }

  /* Translators: the heading of the list of tensors without a partner;
   * the counts of both sides */
  npu = sl_count_format (per_side[0]);
  bench = sl_count_format (per_side[1]);
  title = g_strdup_printf (_("Unmatched: %s NPU, %s benchmark"), npu, bench);
  gtk_expander_set_label (self->unmatched_expander, title);
  gtk_widget_set_visible (GTK_WIDGET (self->unmatched_expander), n > 0);
}

static void
fill_problems (SlTensorComparePage *self)
{
  GPtrArray *problems = sl_tensor_compare_report_get_problems (self->report);

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    sl_document_add_problem (SL_DOCUMENT (self), g_ptr_array_index (problems, i));
}

static void
fill (SlTensorComparePage *self)
{
  fill_apis (self);
  fill_counts (self);
  fill_divergence (self);
  fill_unmatched (self);
  fill_problems (self);
  sl_data_table_set_model (self->pairs_view, G_LIST_MODEL (self->report));
  update_rows_label (self);
}

/* Thresholds */

static void
show_thresholds (SlTensorComparePage             *self,
                 const SlTensorCompareThresholds *thresholds,
                 gboolean                         dtype_aware)
{
  for (guint i = 0; i < G_N_ELEMENTS (threshold_fields); i++)
    gtk_spin_button_set_value (self->threshold_spins[i],
                               G_STRUCT_MEMBER (double, thresholds, threshold_fields[i].offset));
  gtk_switch_set_active (self->dtype_aware_switch, dtype_aware);
}

static void
build_threshold_rows (SlTensorComparePage *self)
{
  SlTensorCompareOptions defaults;

  for (guint i = 0; i < G_N_ELEMENTS (threshold_fields); i++)
    {
      GtkWidget *label = gtk_label_new (_(threshold_fields[i].label));
      GtkAdjustment *adjustment = gtk_adjustment_new (0, 0, threshold_fields[i].max, 0.001, 0.1, 0);
      GtkWidget *spin = gtk_spin_button_new (adjustment, 0.001, threshold_fields[i].digits);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
      gtk_widget_add_css_class (spin, "numeric");
      gtk_editable_set_width_chars (GTK_EDITABLE (spin), 10);
      gtk_grid_attach (self->thresholds_grid, label, 0, i, 1, 1);
      gtk_grid_attach (self->thresholds_grid, spin, 1, i, 1, 1);
      self->threshold_spins[i] = GTK_SPIN_BUTTON (spin);
    }
  sl_tensor_compare_options_init (&defaults);
  show_thresholds (self, &defaults.thresholds, defaults.dtype_aware);
}

static void
after_judging (SlTensorComparePage *self)
{
  fill_counts (self);
  fill_divergence (self);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_rows_label (self);
  sl_document_details_changed (SL_DOCUMENT (self));
}

static void
read_thresholds (SlTensorComparePage       *self,
                 SlTensorCompareThresholds *thresholds)
{
  for (guint i = 0; i < G_N_ELEMENTS (threshold_fields); i++)
    G_STRUCT_MEMBER (double, thresholds, threshold_fields[i].offset) = gtk_spin_button_get_value (self->threshold_spins[i]);
}

static void
apply_thresholds_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  SlTensorComparePage *self = SL_TENSOR_COMPARE_PAGE (widget);
  SlTensorCompareThresholds thresholds;

  read_thresholds (self, &thresholds);
  sl_tensor_compare_page_set_thresholds (self, &thresholds, gtk_switch_get_active (self->dtype_aware_switch));
  gtk_menu_button_popdown (self->thresholds_button);
}

static void
reset_thresholds_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  SlTensorComparePage *self = SL_TENSOR_COMPARE_PAGE (widget);
  SlTensorCompareOptions defaults;

  sl_tensor_compare_options_init (&defaults);
  show_thresholds (self, &defaults.thresholds, defaults.dtype_aware);
}

/* Selection */

static void
selection_changed_cb (SlTensorComparePage *self)
{
  sl_tensor_pair_pane_set_row (self->pair_pane, gtk_single_selection_get_selected_item (self->selection));
  sl_document_details_changed (SL_DOCUMENT (self));
}

/* GTK 4.8 has no gtk_column_view_scroll_to(); its list view scrolls
 * through the list actions. */
static void
scroll_to_position (SlTensorComparePage *self,
                    guint                position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (sl_data_table_get_column_view (self->pairs_view)));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      {
        gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
        return;
      }
}

static guint
find_position (GListModel         *model,
               SlTensorCompareRow *row)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SlTensorCompareRow) item = g_list_model_get_item (model, i);

      if (item == row)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

static void
clear_filters (SlTensorComparePage *self)
{
  gtk_drop_down_set_selected (self->verdict_dropdown, SL_TENSOR_COMPARE_SHOW_ALL);
  gtk_drop_down_set_selected (self->api_dropdown, 0);
  gtk_editable_set_text (GTK_EDITABLE (self->module_entry), "");
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  filter_changed_cb (self);
}

static void
show_first_divergence_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *param)
{
  sl_tensor_compare_page_show_first_divergence (SL_TENSOR_COMPARE_PAGE (widget));
}

/* Export */

static void
export_chosen_cb (GtkNativeDialog     *dialog,
                  int                  response,
                  SlTensorComparePage *self)
{
  SlTensorCompareExport format = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "sl-format"));
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) != NULL &&
      (path = g_file_get_path (file)) != NULL &&
      !sl_tensor_compare_page_export (self, format, path, &error))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", error->message);

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlTensorComparePage *self = SL_TENSOR_COMPARE_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  gboolean json = g_strcmp0 (g_variant_get_string (param, NULL), "json") == 0;
  GtkFileChooserNative *dialog;

  if (!loaded (self))
    return;
  /* GtkFileDialog is GTK 4.10; Debian 12 has 4.8. */
  dialog = gtk_file_chooser_native_new (_("Export the Tensor Comparison"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), json ? "tensor-comparison.json" : "tensor-comparison.csv");
  g_object_set_data (G_OBJECT (dialog), "sl-format",
                     GUINT_TO_POINTER (json ? SL_TENSOR_COMPARE_EXPORT_JSON : SL_TENSOR_COMPARE_EXPORT_CSV));
  g_signal_connect_object (dialog, "response", G_CALLBACK (export_chosen_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Offers the verdicts to every open graph, which colours its ops. */
static void
colour_graphs_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  SlTensorComparePage *self = SL_TENSOR_COMPARE_PAGE (widget);
  SlWorkspace *workspace = sl_document_get_workspace (SL_DOCUMENT (self));

  if (!loaded (self) || workspace == NULL)
    return;
  sl_workspace_publish_tensor_verdicts (workspace, G_LIST_MODEL (self->report));
}

/* Loading */

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlTensorComparePage *self = SL_TENSOR_COMPARE_PAGE (widget);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
progress_cb (SlTensorComparePage *self)
{
  double progress;

  if (self->report == NULL)
    return;
  progress = sl_tensor_compare_report_get_progress (self->report);
  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (progress, 0, 1));
  sl_document_set_progress (SL_DOCUMENT (self), CLAMP (progress, 0, 1));
}

static void
set_busy (SlTensorComparePage *self,
          gboolean             busy)
{
  if (busy && !self->busy)
    panel_widget_mark_busy (PANEL_WIDGET (self));
  else if (!busy && self->busy)
    panel_widget_unmark_busy (PANEL_WIDGET (self));
  self->busy = busy;
}

static void
fail (SlTensorComparePage *self,
      const char          *message)
{
  adw_status_page_set_description (self->failed_page, message);
  gtk_stack_set_visible_child_name (self->stack, "failed");
  sl_document_fail (SL_DOCUMENT (self), message);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlTensorComparePage) self = user_data;
  SlTensorCompareReport *report = SL_TENSOR_COMPARE_REPORT (object);
  g_autoptr(GError) error = NULL;

  if (!sl_tensor_compare_report_load_finish (report, result, &error))
    {
      if (report != self->report)
        return;
      set_busy (self, FALSE);
      g_clear_signal_handler (&self->progress_handler, self->report);
      g_clear_object (&self->report);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail (self, _("The comparison was cancelled. Open it again from the folder to compare the tensors."));
      else
        fail (self, error->message);
      return;
    }
  if (report != self->report)
    return;
  set_busy (self, FALSE);
  fill (self);
  gtk_stack_set_visible_child_name (self->stack, "report");
  sl_document_set_state (SL_DOCUMENT (self),
                         g_list_model_get_n_items (G_LIST_MODEL (report)) > 0 ||
                         sl_tensor_compare_report_get_n_unmatched (report) > 0 ? SL_DOCUMENT_READY : SL_DOCUMENT_EMPTY);
  sl_document_details_changed (SL_DOCUMENT (self));
}

/* What tells the two sides apart: their paths after the folders they
 * share, "npu" and "bench" for /data/run/npu and /data/run/bench. */
static void
distinct_names (const char  *a,
                const char  *b,
                char       **name_a,
                char       **name_b)
{
  g_auto(GStrv) pa = g_strsplit (a, G_DIR_SEPARATOR_S, -1);
  g_auto(GStrv) pb = g_strsplit (b, G_DIR_SEPARATOR_S, -1);
  guint na = g_strv_length (pa), nb = g_strv_length (pb);
  guint common = 0;

  while (common + 1 < na && common + 1 < nb && g_strcmp0 (pa[common], pb[common]) == 0)
    common++;
  *name_a = g_build_filenamev (pa + common);
  *name_b = g_build_filenamev (pb + common);
}

static char *
first_component (const char *path)
{
  const char *slash = strchr (path, G_DIR_SEPARATOR);

  return slash != NULL && slash != path ? g_strndup (path, slash - path) : g_strdup (path);
}

static void
start_loading (SlTensorComparePage *self)
{
  g_autofree char *npu_name = NULL;
  g_autofree char *bench_name = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *sides = NULL;
  SlTensorCompareOptions options;

  distinct_names (self->npu_path, self->bench_path, &npu_name, &bench_name);
  name = first_component (npu_name);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (self->report != NULL)
    g_clear_signal_handler (&self->progress_handler, self->report);
  g_clear_object (&self->report);
  sl_tensor_pair_pane_set_row (self->pair_pane, NULL);
  sl_data_table_set_model (self->pairs_view, G_LIST_MODEL (self->empty));
  sl_document_clear_problems (SL_DOCUMENT (self));
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_LOADING);
  set_busy (self, TRUE);

  /* Translators: the title of a document tab; %s is the NPU side's folder or file name */
  title = g_strdup_printf (_("Tensors: %s"), name);
  panel_widget_set_title (PANEL_WIDGET (self), title);
  /* Translators: the two sides compared: the NPU run and its benchmark */
  sides = g_strdup_printf (_("%s against %s"), npu_name, bench_name);
  gtk_label_set_text (self->loading_label, sides);
  gtk_label_set_text (self->npu_label, npu_name);
  gtk_label_set_text (self->bench_label, bench_name);
  sl_widget_set_long_tooltip (GTK_WIDGET (self->npu_label), self->npu_path);
  sl_widget_set_long_tooltip (GTK_WIDGET (self->bench_label), self->bench_path);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_stack_set_visible_child_name (self->stack, "loading");

  sl_tensor_compare_options_init (&options);
  read_thresholds (self, &options.thresholds);
  options.dtype_aware = gtk_switch_get_active (self->dtype_aware_switch);
  self->report = sl_tensor_compare_report_new (self->npu_path, self->bench_path, &options,
                                               gtk_toggle_button_get_active (self->fuzzy_toggle) ? SL_TENSOR_PAIRING_FUZZY
                                                                                                : SL_TENSOR_PAIRING_EXACT,
                                               NULL);
  self->progress_handler = g_signal_connect_object (self->report, "notify::progress", G_CALLBACK (progress_cb), self,
                                                    G_CONNECT_SWAPPED);
  sl_tensor_compare_report_load_async (self->report, self->cancellable, load_cb, g_object_ref (self));
}

/* Pairing is the report's, so another pairing reads both sides again,
 * judged with the thresholds shown. */
static void
fuzzy_toggled_cb (SlTensorComparePage *self)
{
  if (self->npu_path != NULL)
    start_loading (self);
}

static void
sl_tensor_compare_page_load (SlDocument *document)
{
  SlTensorComparePage *self = SL_TENSOR_COMPARE_PAGE (document);
  SlDocumentAddress *address = sl_document_get_address (document);

  if (self->npu_path != NULL || address == NULL)
    return;
  if (sl_document_address_get_n_paths (address) != 2)
    {
      fail (self, _("A tensor comparison needs two sides: an NPU dump and its benchmark."));
      return;
    }
  self->npu_path = g_strdup (sl_document_address_get_path (address, 0));
  self->bench_path = g_strdup (sl_document_address_get_path (address, 1));
  start_loading (self);
}

static gboolean
sl_tensor_compare_page_show_details (SlDocument     *document,
                                     SlDescription  *details)
{
  SlTensorComparePage *self = SL_TENSOR_COMPARE_PAGE (document);
  SlTensorCompareRow *row = sl_tensor_compare_page_get_selected (self);
  g_autofree char *npu_shape = NULL;
  g_autofree char *bench_shape = NULL;
  const char *reason;

  if (row == NULL)
    return FALSE;
  npu_shape = sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_NPU);
  bench_shape = sl_tensor_compare_row_dup_shape_text (row, SL_TENSOR_SIDE_BENCH);
  reason = sl_tensor_compare_row_get_reason (row);
  {
    const char *rows[] = {
      _("API"), sl_tensor_compare_row_get_api (row) != NULL ? sl_tensor_compare_row_get_api (row) : "—",
      _("Module"), sl_tensor_compare_row_get_module_path (row) != NULL ? sl_tensor_compare_row_get_module_path (row) : "—",
      _("Verdict"), verdict_label (sl_tensor_compare_row_get_verdict (row)),
      _("Reason"), reason != NULL && reason[0] != '\0' ? reason : "—",
      _("NPU shape"), npu_shape != NULL ? npu_shape : "—",
      _("Benchmark shape"), bench_shape != NULL ? bench_shape : "—",
      _("NPU file"), sl_tensor_compare_row_get_npu_file (row) != NULL ? sl_tensor_compare_row_get_npu_file (row) : "—",
      _("Benchmark file"), sl_tensor_compare_row_get_bench_file (row) != NULL ? sl_tensor_compare_row_get_bench_file (row) : "—",
      NULL
    };

    sl_description_show_rows (details, NULL, "sl-tensor-symbolic", sl_tensor_compare_row_get_name (row), rows);
  }
  return TRUE;
}

/* Life */

static void
sl_tensor_compare_page_dispose (GObject *object)
{
  SlTensorComparePage *self = SL_TENSOR_COMPARE_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->report != NULL)
    g_clear_signal_handler (&self->progress_handler, self->report);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TENSOR_COMPARE_PAGE);
  g_clear_object (&self->cancellable);
  self->selection = NULL;
  self->sorted = NULL;
  g_clear_object (&self->filter);
  g_clear_object (&self->empty);
  g_clear_object (&self->report);
  g_clear_pointer (&self->apis, g_ptr_array_unref);
  g_clear_pointer (&self->module_text, g_free);
  g_clear_pointer (&self->search_text, g_free);
  g_clear_pointer (&self->npu_path, g_free);
  g_clear_pointer (&self->bench_path, g_free);

  G_OBJECT_CLASS (sl_tensor_compare_page_parent_class)->dispose (object);
}

static void
sl_tensor_compare_page_class_init (SlTensorComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_tensor_compare_page_dispose;
  SL_DOCUMENT_CLASS (klass)->load = sl_tensor_compare_page_load;
  SL_DOCUMENT_CLASS (klass)->describe = sl_tensor_compare_page_show_details;

  g_type_ensure (SL_TYPE_TENSOR_PAIR_PANE);
  g_type_ensure (SL_TYPE_DATA_TABLE);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-tensor-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, stack);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, loading_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, npu_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, bench_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, pass_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, warning_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, error_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, thresholds_grid);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, dtype_aware_switch);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, thresholds_button);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, fuzzy_toggle);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, divergence_box);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, divergence_icon);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, divergence_title);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, divergence_module);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, divergence_stack_expander);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, divergence_stack);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, divergence_button);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, verdict_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, api_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, module_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, rows_label);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, pairs_view);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, unmatched_expander);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, unmatched_list);
  gtk_widget_class_bind_template_child (widget_class, SlTensorComparePage, pair_pane);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, fuzzy_toggled_cb);

  gtk_widget_class_install_action (widget_class, "tensor-compare.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "tensor-compare.export", "s", export_action);
  gtk_widget_class_install_action (widget_class, "tensor-compare.colour-graphs", NULL, colour_graphs_action);
  gtk_widget_class_install_action (widget_class, "tensor-compare.show-first-divergence", NULL,
                                   show_first_divergence_action);
  gtk_widget_class_install_action (widget_class, "tensor-compare.apply-thresholds", NULL, apply_thresholds_action);
  gtk_widget_class_install_action (widget_class, "tensor-compare.reset-thresholds", NULL, reset_thresholds_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "tensor-compare.cancel", NULL);
}

static void
sl_tensor_compare_page_init (SlTensorComparePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  add_columns (self);
  build_threshold_rows (self);
  self->empty = g_list_store_new (SL_TYPE_TENSOR_COMPARE_ROW);
  self->filter = gtk_custom_filter_new (row_matches, self, NULL);
  sl_data_table_set_extra_filter (self->pairs_view, GTK_FILTER (self->filter));
  sl_data_table_set_model (self->pairs_view, G_LIST_MODEL (self->empty));
  self->sorted = sl_data_table_get_rows (self->pairs_view);
  self->selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (sl_data_table_get_column_view (self->pairs_view)));
  g_signal_connect_object (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

/* API */

const char *
sl_tensor_compare_page_get_npu_path (SlTensorComparePage *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self), NULL);
  return self->npu_path;
}

const char *
sl_tensor_compare_page_get_bench_path (SlTensorComparePage *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self), NULL);
  return self->bench_path;
}

SlTensorCompareReport *
sl_tensor_compare_page_get_report (SlTensorComparePage *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self), NULL);
  return loaded (self) ? self->report : NULL;
}

GListModel *
sl_tensor_compare_page_get_rows (SlTensorComparePage *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self), NULL);
  return self->sorted;
}

void
sl_tensor_compare_page_set_show (SlTensorComparePage *self,
                                 SlTensorCompareShow  show)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self));
  g_return_if_fail (show <= SL_TENSOR_COMPARE_SHOW_ERRORS);
  gtk_drop_down_set_selected (self->verdict_dropdown, show);
}

void
sl_tensor_compare_page_set_api (SlTensorComparePage *self,
                                const char          *api)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self));

  for (guint i = 0; self->apis != NULL && i < self->apis->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->apis, i), api) == 0)
      {
        gtk_drop_down_set_selected (self->api_dropdown, i);
        return;
      }
  gtk_drop_down_set_selected (self->api_dropdown, 0);
}

void
sl_tensor_compare_page_set_module_filter (SlTensorComparePage *self,
                                          const char          *text)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self));
  gtk_editable_set_text (GTK_EDITABLE (self->module_entry), text != NULL ? text : "");
}

void
sl_tensor_compare_page_set_search (SlTensorComparePage *self,
                                   const char          *text)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  /* The search entry reports changes after a delay; the filter follows now. */
  filter_changed_cb (self);
}

gboolean
sl_tensor_compare_page_show_first_divergence (SlTensorComparePage *self)
{
  SlTensorCompareRow *row;
  guint position;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self), FALSE);

  if (!loaded (self))
    return FALSE;
  /* Without an error, the first warning is where to look. */
  if ((row = sl_tensor_compare_report_get_first_divergence (self->report)) == NULL &&
      (row = sl_tensor_compare_report_get_first_warning (self->report)) == NULL)
    return FALSE;
  position = find_position (self->sorted, row);
  if (position == GTK_INVALID_LIST_POSITION)
    {
      clear_filters (self);
      position = find_position (self->sorted, row);
    }
  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  gtk_single_selection_set_selected (self->selection, position);
  scroll_to_position (self, position);
  return TRUE;
}

SlTensorCompareRow *
sl_tensor_compare_page_get_selected (SlTensorComparePage *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self), NULL);
  return gtk_single_selection_get_selected_item (self->selection);
}

void
sl_tensor_compare_page_select (SlTensorComparePage *self,
                               guint                position)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self));
  gtk_single_selection_set_selected (self->selection, position);
  scroll_to_position (self, position);
}

SlTensorPairPane *
sl_tensor_compare_page_get_pair_pane (SlTensorComparePage *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self), NULL);
  return self->pair_pane;
}

void
sl_tensor_compare_page_set_thresholds (SlTensorComparePage             *self,
                                       const SlTensorCompareThresholds *thresholds,
                                       gboolean                         dtype_aware)
{
  g_autoptr(SlTensorCompareRow) selected = NULL;
  guint position;

  g_return_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self));
  g_return_if_fail (thresholds != NULL);

  show_thresholds (self, thresholds, dtype_aware);
  if (!loaded (self))
    return;
  /* The report replaces every row in its model: the selection follows
   * the pair it was on. */
  selected = sl_tensor_compare_page_get_selected (self);
  if (selected != NULL)
    g_object_ref (selected);
  sl_tensor_compare_report_set_thresholds (self->report, thresholds, dtype_aware);
  after_judging (self);
  if (selected != NULL && (position = find_position (self->sorted, selected)) != GTK_INVALID_LIST_POSITION)
    gtk_single_selection_set_selected (self->selection, position);
}

/**
 * sl_tensor_compare_page_export:
 *
 * Writes the whole report, as `sightline-cli compare-tensors` writes it
 * with --csv or --json.
 */
gboolean
sl_tensor_compare_page_export (SlTensorComparePage    *self,
                               SlTensorCompareExport   format,
                               const char             *path,
                               GError                **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(SlReplaceStream) out = NULL;
  gboolean ok;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!loaded (self))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("The comparison is not loaded yet."));
      return FALSE;
    }
  file = g_file_new_for_path (path);
  /* The previous file stays until the whole report is written. */
  out = sl_replace_stream_new (file, NULL, error);
  if (out == NULL)
    return FALSE;
  if (format == SL_TENSOR_COMPARE_EXPORT_JSON)
    ok = sl_tensor_compare_report_write_json (self->report, G_OUTPUT_STREAM (out), NULL, error);
  else
    ok = sl_tensor_compare_report_write_csv (self->report, G_OUTPUT_STREAM (out), NULL, error);
  return ok && sl_replace_stream_commit (out, NULL, error);
}
