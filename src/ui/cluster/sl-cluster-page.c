/* sl-cluster-page.c
 *
 * The cluster is read and summarised in a worker; the page then fills
 * its parts from the summary: the slow-rank banner, the sortable rank
 * table with a stacked bar per rank, the summed communication matrix
 * with the slow link outlined, each collective's time by rank with its
 * straggler outlined, and two ranks' timelines aligned in time
 * (SlCompareTimelines, the comparison page's view), read only when asked
 * for. The parts are the page's template, sl-cluster-page.ui; only the
 * rank table's columns are made in code.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-cluster-bars.h"
#include "sl-cluster-loader.h"
#include "sl-cluster-page.h"
#include "sl-cluster-rank-item.h"
#include "sl-comm-matrix-view.h"
#include "sl-compare-timelines.h"
#include "sl-data-table.h"
#include "sl-profile-loader.h"
#include "sl-progress.h"

struct _SlClusterPage
{
  SlDocument          parent_instance;

  GCancellable       *cancellable;
  SlClusterSummary   *summary;
  SlProgress         *progress;        /* folders read, of all */
  GListStore         *ranks;

  GtkWidget          *content;
  GtkWidget          *banner;
  GtkWidget          *banner_icon;
  GtkWidget          *banner_label;
  GtkWidget          *rank_table_box;
  GtkWidget          *rank_table;     /* the column view of rank_data */
  SlDataTable        *rank_data;
  GtkWidget          *bars;
  GtkWidget          *link_label;
  GtkWidget          *matrix;
  GtkWidget          *collective_dropdown;
  GtkWidget          *collective_label;
  GtkWidget          *collective_bars;
  GtkWidget          *first_dropdown;
  GtkWidget          *second_dropdown;
  GtkWidget          *timelines_note;
  GtkWidget          *timelines;
};

G_DEFINE_FINAL_TYPE (SlClusterPage, sl_cluster_page, SL_TYPE_DOCUMENT)

static const SlClusterRank *
rank_at (SlClusterPage *self,
         guint          index)
{
  return sl_cluster_profile_get_rank (self->summary->cluster, index);
}

static char *
format_ms (gint64 ns)
{
  return ns >= 0 ? g_strdup_printf ("%.3f", ns / 1e6) : g_strdup ("–");
}

/* ------------------------------------------------------------------ */
/* Rank table */

typedef enum {
  COLUMN_RANK,
  COLUMN_STEPS,
  COLUMN_STEP,
  COLUMN_COMPUTING,
  COLUMN_COMMUNICATION,
  COLUMN_FREE,
  COLUMN_OVERLAPPED,
  COLUMN_BUBBLE,
  COLUMN_STRAGGLER,
  N_COLUMNS
} Column;

static gint64
column_value (SlClusterRankItem *item,
              Column             column)
{
  const SlClusterRank *rank = sl_cluster_rank_item_get_rank (item);

  switch (column)
    {
    case COLUMN_RANK: return rank->rank_id;
    case COLUMN_STEPS: return rank->breakdown.n_steps;
    case COLUMN_STEP: return rank->breakdown.step_ns;
    case COLUMN_COMPUTING: return rank->breakdown.phases[SL_STEP_PHASE_COMPUTING];
    case COLUMN_COMMUNICATION: return rank->breakdown.phases[SL_STEP_PHASE_COMMUNICATION];
    case COLUMN_FREE: return rank->breakdown.phases[SL_STEP_PHASE_FREE];
    case COLUMN_OVERLAPPED: return rank->breakdown.phases[SL_STEP_PHASE_OVERLAPPED];
    case COLUMN_BUBBLE: return rank->breakdown.phases[SL_STEP_PHASE_BUBBLE];
    case COLUMN_STRAGGLER: return sl_cluster_rank_item_get_stragglers (item);
    case N_COLUMNS:
    default: g_return_val_if_reached (0);
    }
}

#define DEFINE_TEXT(name, column, format)                   \
  static char *                                             \
  name (gpointer item,                                      \
        gpointer user_data)                                 \
  {                                                         \
    gint64 value = column_value (item, column);             \
    return format;                                          \
  }

DEFINE_TEXT (rank_text, COLUMN_RANK, g_strdup_printf ("%lld", (long long)value))
DEFINE_TEXT (steps_text, COLUMN_STEPS, g_strdup_printf ("%lld", (long long)value))
DEFINE_TEXT (step_text, COLUMN_STEP, format_ms (value))
DEFINE_TEXT (computing_text, COLUMN_COMPUTING, format_ms (value))
DEFINE_TEXT (communication_text, COLUMN_COMMUNICATION, format_ms (value))
DEFINE_TEXT (free_text, COLUMN_FREE, format_ms (value))
DEFINE_TEXT (overlapped_text, COLUMN_OVERLAPPED, format_ms (value))
DEFINE_TEXT (bubble_text, COLUMN_BUBBLE, format_ms (value))
DEFINE_TEXT (straggler_text, COLUMN_STRAGGLER, g_strdup_printf ("%lld", (long long)value))

static char *
rank_tooltip (gpointer item,
              gpointer user_data)
{
  const SlClusterRank *rank = sl_cluster_rank_item_get_rank (item);

  return g_strdup (rank->dir != NULL ? rank->dir : _("Only the cluster's summary files name this rank"));
}

static double
column_number (gpointer item,
               gpointer user_data)
{
  return (double)column_value (item, GPOINTER_TO_UINT (user_data));
}

static void
add_column (SlDataTable    *table,
            const char     *title,
            SlDataTextFunc  text,
            SlDataTextFunc  tooltip,
            Column          column)
{
  static const char *ids[N_COLUMNS] = {
    "rank", "steps", "step", "computing", "communication", "free", "overlapped", "bubble", "straggler",
  };
  SlDataColumn def = {
    .id = ids[column],
    .title = title,
    .flags = SL_DATA_COLUMN_NUMERIC,
    .text = text,
    .number = column_number,
    .tooltip = tooltip,
  };

  sl_data_table_append_column (table, &def, GUINT_TO_POINTER (column), NULL);
}

static void
rank_activated_cb (GtkColumnView *view,
                   guint          position,
                   SlClusterPage *self)
{
  g_autoptr(SlClusterRankItem) item = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (view)), position);

  if (item != NULL)
    sl_cluster_page_open_rank (self, sl_cluster_rank_item_get_index (item));
}

/* Two rows selected in the table are the two ranks to compare. */
static void
ranks_selected_cb (GtkSelectionModel *selection,
                   guint              position,
                   guint              n_items,
                   SlClusterPage     *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (selection);
  g_autoptr(SlClusterRankItem) first = NULL;
  g_autoptr(SlClusterRankItem) second = NULL;

  if (gtk_bitset_get_size (selected) != 2)
    return;
  first = g_list_model_get_item (G_LIST_MODEL (selection), gtk_bitset_get_nth (selected, 0));
  second = g_list_model_get_item (G_LIST_MODEL (selection), gtk_bitset_get_nth (selected, 1));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->first_dropdown), sl_cluster_rank_item_get_index (first));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->second_dropdown), sl_cluster_rank_item_get_index (second));
}

/* The rank table: sized to its values, two rows selectable to compare;
 * the column view inside keeps its "activate" for a double-click. */
static GtkWidget *
create_rank_table (SlClusterPage *self)
{
  SlDataTable *table = SL_DATA_TABLE (sl_data_table_new ());
  GtkWidget *view = GTK_WIDGET (sl_data_table_get_column_view (table));

  add_column (table, _("Rank"), rank_text, rank_tooltip, COLUMN_RANK);
  add_column (table, _("Steps"), steps_text, NULL, COLUMN_STEPS);
  add_column (table, _("Step (ms)"), step_text, NULL, COLUMN_STEP);
  add_column (table, _("Computing (ms)"), computing_text, NULL, COLUMN_COMPUTING);
  add_column (table, _("Not overlapped comm. (ms)"), communication_text, NULL, COLUMN_COMMUNICATION);
  add_column (table, _("Free (ms)"), free_text, NULL, COLUMN_FREE);
  add_column (table, _("Overlapped (ms)"), overlapped_text, NULL, COLUMN_OVERLAPPED);
  add_column (table, _("Bubble (ms)"), bubble_text, NULL, COLUMN_BUBBLE);
  add_column (table, _("Last to arrive"), straggler_text, NULL, COLUMN_STRAGGLER);

  sl_data_table_set_multiple (table, TRUE);
  sl_data_table_set_model (table, G_LIST_MODEL (self->ranks));
  sl_data_table_set_content_height (table, 220, 440);
  sl_data_table_set_export_title (table, _("Export Ranks"), "cluster-ranks.csv");
  gtk_widget_add_css_class (GTK_WIDGET (table), "card");
  g_signal_connect_object (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)), "selection-changed",
                           G_CALLBACK (ranks_selected_cb), self, 0);
  gtk_column_view_set_single_click_activate (GTK_COLUMN_VIEW (view), FALSE);
  self->rank_data = table;
  gtk_widget_set_tooltip_text (view, _("Double-click a rank to open its profile"));
  g_signal_connect_object (view, "activate", G_CALLBACK (rank_activated_cb), self, 0);
  return GTK_WIDGET (table);
}

/* ------------------------------------------------------------------ */
/* Filling */

static void
fill_banner (SlClusterPage *self)
{
  const SlClusterSlowRank *slow = &self->summary->slow_rank;
  g_autoptr(GString) text = g_string_new (NULL);
  const SlClusterRank *rank, *fast;
  g_autofree char *escaped = NULL;
  g_autofree char *n_ranks = sl_count_format (slow->n_ranks);

  if (!slow->computed)
    {
      gtk_label_set_text (GTK_LABEL (self->banner_label),
                          _("Fewer than two ranks have step times: there is no slow rank to look for."));
      gtk_widget_remove_css_class (self->banner, "warning");
      return;
    }
  rank = rank_at (self, slow->slow_index);
  fast = rank_at (self, slow->fast_index);
  if (!slow->found)
    {
      g_string_printf (text, _("No slow rank: the %s ranks' mean step times spread %.1f %%, within the %.1f %% threshold."),
                       n_ranks, slow->spread.percent, self->summary->threshold);
      gtk_label_set_text (GTK_LABEL (self->banner_label), text->str);
      gtk_widget_remove_css_class (self->banner, "warning");
      return;
    }

  escaped = g_markup_escape_text (rank->label, -1);
  g_string_printf (text, _("<b>Slow rank: %s.</b> Its mean step takes %.3f ms against %.3f ms on average; the %s ranks' step "
                           "times spread %.1f %%, above the %.1f %% threshold."),
                   escaped, rank->breakdown.step_ns / 1e6, slow->spread.mean / 1e6, n_ranks, slow->spread.percent,
                   self->summary->threshold);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Against the fastest, %s (%.3f ms), most of the gap is %s: %.3f ms."), fast->label,
                          fast->breakdown.step_ns / 1e6, sl_step_phase_to_label (slow->phase, rank->breakdown.overlap),
                          slow->phase_gap_ns / 1e6);
  if (rank->steps != NULL)
    {
      g_autofree char *path = g_markup_escape_text (sl_step_trace_get_path (rank->steps), -1);

      g_string_append_c (text, '\n');
      /* Translators: where the evidence was read, a file and its line */
      g_string_append_printf (text, _("<small>From %s, line %u</small>"), path, sl_step_trace_get_line (rank->steps, 0));
    }
  gtk_label_set_markup (GTK_LABEL (self->banner_label), text->str);
  gtk_widget_add_css_class (self->banner, "warning");
  gtk_image_set_from_icon_name (GTK_IMAGE (self->banner_icon), "dialog-warning-symbolic");
  gtk_widget_add_css_class (self->banner_icon, "warning");
}

static void
fill_ranks (SlClusterPage *self)
{
  guint n = sl_cluster_profile_get_n_ranks (self->summary->cluster);
  g_autofree double *values = g_new0 (double, MAX (n * 3, 1));
  g_autofree char **labels = g_new0 (char *, n + 1);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);
  gboolean overlap = TRUE;
  const char *series[3];

  /* The parts are named as the ranks' step traces name them: computing,
   * communication not overlapped and free time from an overlap analysis;
   * MindSpore's and msprof's forward and backward, tail and data wait
   * otherwise (the first rank with steps tells). */
  for (guint i = 0; i < n; i++)
    {
      const SlClusterRank *rank = rank_at (self, i);

      if (rank->breakdown.n_steps > 0)
        {
          overlap = rank->breakdown.overlap;
          break;
        }
    }
  series[0] = sl_step_phase_to_label (SL_STEP_PHASE_COMPUTING, overlap);
  series[1] = sl_step_phase_to_label (SL_STEP_PHASE_COMMUNICATION, overlap);
  series[2] = sl_step_phase_to_label (SL_STEP_PHASE_FREE, overlap);
  /* The table's columns of the same parts, named the same way. */
  sl_data_table_set_column_title (self->rank_data, "computing",
                                  overlap ? _("Computing (ms)") : _("Forward and backward (ms)"));
  sl_data_table_set_column_title (self->rank_data, "communication",
                                  overlap ? _("Not overlapped comm. (ms)") : _("Tail (ms)"));
  sl_data_table_set_column_title (self->rank_data, "free", overlap ? _("Free (ms)") : _("Data wait (ms)"));

  for (guint i = 0; i < n; i++)
    {
      const SlClusterRank *rank = rank_at (self, i);

      g_ptr_array_add (items, sl_cluster_rank_item_new (self->summary->cluster, i,
                                                        sl_cluster_summary_count_straggling (self->summary, i)));
      values[i * 3] = rank->breakdown.phases[SL_STEP_PHASE_COMPUTING] / 1e6;
      values[i * 3 + 1] = rank->breakdown.phases[SL_STEP_PHASE_COMMUNICATION] / 1e6;
      values[i * 3 + 2] = rank->breakdown.phases[SL_STEP_PHASE_FREE] / 1e6;
      labels[i] = rank->label;
    }
  /* Filled while the table has no model: attached, every new item is a
   * change the sorted view and its rows take in one by one, seconds for
   * 512 ranks; reattached, the rows are made once. */
  sl_data_table_set_model (self->rank_data, NULL);
  g_list_store_splice (self->ranks, 0, g_list_model_get_n_items (G_LIST_MODEL (self->ranks)), items->pdata, items->len);
  sl_data_table_set_model (self->rank_data, G_LIST_MODEL (self->ranks));
  sl_cluster_bars_set_data (SL_CLUSTER_BARS (self->bars), n, 3, values, series, (const char *const *)labels);
  sl_cluster_bars_set_highlight (SL_CLUSTER_BARS (self->bars),
                                 self->summary->slow_rank.found ? (gint)self->summary->slow_rank.slow_index : -1);
}

static void
fill_matrix (SlClusterPage *self)
{
  SlCommunication *matrix = self->summary->matrix;
  const SlClusterSlowLink *slow = &self->summary->slow_link;
  g_autofree char *n_links = sl_count_format (slow->n_links);
  g_autofree char *text = NULL;

  if (sl_communication_get_n_links (matrix) == 0)
    {
      gtk_label_set_text (GTK_LABEL (self->link_label),
                          _("The ranks' files hold no links between ranks (communication_matrix.json, "
                            "cluster_communication_matrix.json or hccl_raw_<rank>.csv)."));
      gtk_widget_set_visible (self->matrix, FALSE);
      return;
    }
  sl_comm_matrix_view_set_matrix (SL_COMM_MATRIX_VIEW (self->matrix), matrix,
                                  sl_comm_matrix_new (matrix, -1, sl_communication_get_link (matrix, 0)));
  gtk_widget_set_visible (self->matrix, TRUE);
  if (slow->found)
    {
      text = g_strdup_printf (_("<b>Slow link: %s over %s</b>, %.2f GB/s against %.2f GB/s on average for its %s links; "
                                "the bandwidths spread %.1f %%, above the %.1f %% threshold. It is outlined below."),
                              slow->link->first->key, slow->transport, sl_comm_link_sum_get_bandwidth (slow->link),
                              slow->spread.mean, n_links, slow->spread.percent, self->summary->threshold);
      sl_comm_matrix_view_set_highlight (SL_COMM_MATRIX_VIEW (self->matrix), slow->link->src, slow->link->dst);
    }
  else if (slow->computed)
    text = g_strdup_printf (_("No slow link: the bandwidths of the %s %s links spread %.1f %%, within the %.1f %% "
                              "threshold."),
                            n_links, slow->transport, slow->spread.percent, self->summary->threshold);
  else
    text = g_strdup (_("No slow link: no transport type has two links between ranks to compare."));
  gtk_label_set_markup (GTK_LABEL (self->link_label), text);
}

static void
show_collective (SlClusterPage *self,
                 guint          index)
{
  const SlClusterCollective *collective;
  g_autofree double *values = NULL;
  g_autofree char **labels = NULL;
  const char *series[] = { _("communication time") };
  g_autofree char *text = NULL;

  if (index >= self->summary->collectives->len)
    return;
  collective = g_ptr_array_index (self->summary->collectives, index);
  values = g_new0 (double, MAX (collective->ranks->len, 1));
  labels = g_new0 (char *, collective->ranks->len + 1);
  for (guint r = 0; r < collective->ranks->len; r++)
    {
      const SlCollectiveRank *entry = &g_array_index (collective->ranks, SlCollectiveRank, r);

      values[r] = entry->elapse_ms;
      labels[r] = rank_at (self, entry->rank_index)->label;
    }
  sl_cluster_bars_set_data (SL_CLUSTER_BARS (self->collective_bars), collective->ranks->len, 1, values, series,
                            (const char *const *)labels);
  if (collective->straggler != G_MAXUINT)
    {
      const SlCollectiveRank *entry = &g_array_index (collective->ranks, SlCollectiveRank, collective->straggler);

      sl_cluster_bars_set_highlight (SL_CLUSTER_BARS (self->collective_bars), (gint)collective->straggler);
      text = g_strdup_printf (_("Straggler: %s, with the shortest time (%.3f ms): the others waited for it, up to "
                                "%.3f ms. It is outlined below."),
                              rank_at (self, entry->rank_index)->label, collective->min_ms, collective->max_ms);
    }
  else
    text = g_strdup (_("Only one rank took part: there is no straggler."));
  gtk_label_set_text (GTK_LABEL (self->collective_label), text);
}

static void
collective_selected_cb (GtkDropDown   *dropdown,
                        GParamSpec    *pspec,
                        SlClusterPage *self)
{
  show_collective (self, gtk_drop_down_get_selected (dropdown));
}

static void
fill_collectives (SlClusterPage *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  for (guint i = 0; i < self->summary->collectives->len; i++)
    {
      const SlClusterCollective *collective = g_ptr_array_index (self->summary->collectives, i);
      g_autofree char *name = collective->step[0] != '\0' ? g_strdup_printf ("%s · %s", collective->step, collective->name)
                                                          : g_strdup (collective->name);

      gtk_string_list_append (names, name);
    }
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->collective_dropdown), G_LIST_MODEL (names));
  gtk_widget_set_visible (self->collective_bars, self->summary->collectives->len > 0);
  gtk_widget_set_visible (self->collective_dropdown, self->summary->collectives->len > 0);
  if (self->summary->collectives->len == 0)
    gtk_label_set_text (GTK_LABEL (self->collective_label),
                        _("The ranks' files hold no collective operations (communication.json, "
                          "cluster_communication.json or hccl_raw_<rank>.csv)."));
  else
    show_collective (self, 0);
}

static void
fill_rank_choosers (SlClusterPage *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n = sl_cluster_profile_get_n_ranks (self->summary->cluster);

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (names, rank_at (self, i)->label);
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->first_dropdown), G_LIST_MODEL (names));
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->second_dropdown), G_LIST_MODEL (names));
  /* The slow rank beside the fastest says most. */
  if (self->summary->slow_rank.computed)
    {
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->first_dropdown), self->summary->slow_rank.fast_index);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->second_dropdown), self->summary->slow_rank.slow_index);
    }
  else if (n > 1)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->second_dropdown), 1);
}

static void
add_problems (SlClusterPage *self,
              GListModel    *problems)
{
  for (guint i = 0; problems != NULL && i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      sl_document_add_problem (SL_DOCUMENT (self), problem);
    }
}

/* What the readers met in the cluster's files, and in the two ranks'
 * timelines once they were read (a cut end, damage read past), each
 * naming its file and where: in the Problems panel with the document's. */
static void
sync_problems (SlClusterPage *self)
{
  sl_document_clear_problems (SL_DOCUMENT (self));
  if (self->summary != NULL)
    add_problems (self, sl_cluster_profile_get_problems (self->summary->cluster));
  for (guint side = 0; side < 2; side++)
    add_problems (self, sl_timeline_pane_get_problems (sl_compare_timelines_get_pane (SL_COMPARE_TIMELINES (self->timelines),
                                                                                      side)));
}

/* A rank's timeline read, cleared or read again. */
static void
pane_state_cb (SlClusterPage *self)
{
  sync_problems (self);
}

static void
fill (SlClusterPage *self)
{
  sync_problems (self);
  fill_banner (self);
  fill_ranks (self);
  fill_matrix (self);
  fill_collectives (self);
  fill_rank_choosers (self);
}

/* ------------------------------------------------------------------ */
/* Two ranks' timelines */

typedef struct {
  char      *paths[2];
  char      *labels[2];
  SlProfile *profiles[2];
} PairData;

static void
pair_data_free (PairData *data)
{
  for (guint i = 0; i < 2; i++)
    {
      g_free (data->paths[i]);
      g_free (data->labels[i]);
      g_clear_object (&data->profiles[i]);
    }
  g_free (data);
}

static void
load_pair_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  PairData *data = task_data;

  for (guint i = 0; i < 2; i++)
    {
      GError *error = NULL;

      /* The step tables place each timeline's steps; nothing else is needed. */
      data->profiles[i] = sl_profile_load_parts (data->paths[i], SL_PROFILE_PARTS_SUMMARY, cancellable, NULL, NULL, &error);
      if (data->profiles[i] == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }
  g_task_return_boolean (task, TRUE);
}

static void
pair_loaded_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  SlClusterPage *self = SL_CLUSTER_PAGE (source);
  PairData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (GTK_LABEL (self->timelines_note), error->message);
      return;
    }
  gtk_label_set_text (GTK_LABEL (self->timelines_note),
                      _("The two ranks' timelines scroll and zoom together, aligned at the start of the step chosen."));
  sl_compare_timelines_set_labels (SL_COMPARE_TIMELINES (self->timelines), data->labels[0], data->labels[1]);
  sl_compare_timelines_set_profiles (SL_COMPARE_TIMELINES (self->timelines), data->paths[0], data->profiles[0],
                                     data->paths[1], data->profiles[1]);
  gtk_widget_set_visible (self->timelines, TRUE);
}

void
sl_cluster_page_compare_ranks (SlClusterPage *self,
                               guint          first,
                               guint          second)
{
  g_autoptr(GTask) task = NULL;
  PairData *data;
  const SlClusterRank *ranks[2];

  g_return_if_fail (SL_IS_CLUSTER_PAGE (self));
  g_return_if_fail (self->summary != NULL);
  g_return_if_fail (first < sl_cluster_profile_get_n_ranks (self->summary->cluster));
  g_return_if_fail (second < sl_cluster_profile_get_n_ranks (self->summary->cluster));

  ranks[0] = rank_at (self, first);
  ranks[1] = rank_at (self, second);
  for (guint i = 0; i < 2; i++)
    if (ranks[i]->dir == NULL)
      {
        g_autofree char *text =
          g_strdup_printf (_("%s has no profile folder of its own here, so it has no timeline to show."), ranks[i]->label);

        gtk_label_set_text (GTK_LABEL (self->timelines_note), text);
        return;
      }

  gtk_label_set_text (GTK_LABEL (self->timelines_note), _("Reading the two ranks' step tables…"));
  data = g_new0 (PairData, 1);
  for (guint i = 0; i < 2; i++)
    {
      data->paths[i] = g_strdup (ranks[i]->dir);
      /* Translators: a timeline's heading, for a rank of a cluster */
      data->labels[i] = g_strdup_printf (_("Rank %lld"), (long long)ranks[i]->rank_id);
    }
  task = g_task_new (self, self->cancellable, pair_loaded_cb, NULL);
  g_task_set_task_data (task, data, (GDestroyNotify)pair_data_free);
  g_task_run_in_thread (task, load_pair_thread);
}

/**
 * sl_cluster_page_compare_selected:
 *
 * Shows the timelines of the two ranks picked above them, or of the two
 * rows selected in the rank table, which pick them: what "Compare
 * Timelines" does.
 */
void
sl_cluster_page_compare_selected (SlClusterPage *self)
{
  guint first, second;

  g_return_if_fail (SL_IS_CLUSTER_PAGE (self));

  first = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->first_dropdown));
  second = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->second_dropdown));
  if (self->summary != NULL && first != GTK_INVALID_LIST_POSITION && second != GTK_INVALID_LIST_POSITION)
    sl_cluster_page_compare_ranks (self, first, second);
}

static void
show_timelines_cb (GtkButton     *button,
                   SlClusterPage *self)
{
  sl_cluster_page_compare_selected (self);
}

void
sl_cluster_page_open_rank (SlClusterPage *self,
                           guint          index)
{
  const SlClusterRank *rank;
  const char *path;

  g_return_if_fail (SL_IS_CLUSTER_PAGE (self));
  g_return_if_fail (self->summary != NULL);
  g_return_if_fail (index < sl_cluster_profile_get_n_ranks (self->summary->cluster));

  rank = rank_at (self, index);
  /* A rank only msprof-analyze's output names is shown there, with the
   * others' rows; the cluster's whole folder would read every rank. */
  path = rank->dir != NULL ? rank->dir : sl_cluster_profile_get_analysis_dir (self->summary->cluster);
  if (path == NULL)
    path = sl_cluster_profile_get_path (self->summary->cluster);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-document", "(ssv)", "profile", path, g_variant_new ("()"));
}

static void
bar_activated_cb (SlClusterBars *bars,
                  guint          bar,
                  SlClusterPage *self)
{
  sl_cluster_page_open_rank (self, bar);
}

/* ------------------------------------------------------------------ */
/* Loading */

/* The reading threads only count; the progress tells the page the last
 * count once per turn of its main loop, so 512 ranks are not 512 trips. */
typedef struct {
  char       *path;
  SlProgress *progress;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_free (data->path);
  g_object_unref (data->progress);
  g_free (data);
}

static void
count_read (guint    n_read,
            guint    n_total,
            gpointer user_data)
{
  LoadData *data = user_data;

  sl_progress_report (data->progress, n_read, n_total);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  GError *error = NULL;
  g_autoptr(SlClusterProfile) cluster = sl_cluster_load_with_progress (data->path, cancellable, count_read, data, &error);

  if (cluster == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, sl_cluster_summary_new (cluster, SL_SPREAD_DEFAULT_THRESHOLD),
                         (GDestroyNotify)sl_cluster_summary_free);
}

static void
progress_cb (SlProgress    *progress,
             GParamSpec    *pspec,
             SlClusterPage *self)
{
  gint n_total = (gint)sl_progress_get_total (progress);
  gint n_read = (gint)sl_progress_get_done (progress);
  g_autofree char *text = NULL;

  if (progress != self->progress || n_total <= 0)
    return;
  sl_document_set_progress (SL_DOCUMENT (self), n_read / (double)n_total);
  /* Translators: while a cluster is read: ranks' folders read, of all */
  text = g_strdup_printf (_("Reading every rank's step trace and communication… %d of %d folders"), n_read, n_total);
  gtk_label_set_text (GTK_LABEL (self->banner_label), text);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  SlClusterPage *self = SL_CLUSTER_PAGE (source);
  g_autoptr(GError) error = NULL;
  SlClusterSummary *summary = g_task_propagate_pointer (G_TASK (result), &error);

  if (self->progress != NULL)
    g_signal_handlers_disconnect_by_data (self->progress, self);
  g_clear_object (&self->progress);
  if (summary == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        sl_document_fail (SL_DOCUMENT (self), error->message);
      return;
    }
  g_clear_pointer (&self->summary, sl_cluster_summary_free);
  self->summary = summary;
  fill (self);
  sl_document_set_progress (SL_DOCUMENT (self), 1.0);
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
}

static void
sl_cluster_page_load (SlDocument *document)
{
  SlClusterPage *self = SL_CLUSTER_PAGE (document);
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  if (sl_document_get_path (document) == NULL)
    return;
  sl_document_set_state (document, SL_DOCUMENT_LOADING);
  if (self->progress != NULL)
    g_signal_handlers_disconnect_by_data (self->progress, self);
  g_clear_object (&self->progress);
  self->progress = sl_progress_new ();
  g_signal_connect (self->progress, "notify::done", G_CALLBACK (progress_cb), self);
  g_signal_connect (self->progress, "notify::total", G_CALLBACK (progress_cb), self);
  data = g_new0 (LoadData, 1);
  data->path = g_strdup (sl_document_get_path (document));
  data->progress = g_object_ref (self->progress);
  task = g_task_new (self, self->cancellable, loaded_cb, NULL);
  g_task_set_task_data (task, data, (GDestroyNotify)load_data_free);
  g_task_run_in_thread (task, load_thread);
}

static void
sl_cluster_page_dispose (GObject *object)
{
  SlClusterPage *self = SL_CLUSTER_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  if (self->progress != NULL)
    g_signal_handlers_disconnect_by_data (self->progress, self);
  g_clear_object (&self->progress);
  /* The template's child is the panel's: hand it back before the
   * template lets go of it, or PanelWidget unparents it a second time. */
  panel_widget_set_child (PANEL_WIDGET (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_CLUSTER_PAGE);
  G_OBJECT_CLASS (sl_cluster_page_parent_class)->dispose (object);
}

static void
sl_cluster_page_finalize (GObject *object)
{
  SlClusterPage *self = SL_CLUSTER_PAGE (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->ranks);
  g_clear_pointer (&self->summary, sl_cluster_summary_free);
  G_OBJECT_CLASS (sl_cluster_page_parent_class)->finalize (object);
}

static void
sl_cluster_page_class_init (SlClusterPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SlDocumentClass *document_class = SL_DOCUMENT_CLASS (klass);

  object_class->dispose = sl_cluster_page_dispose;
  object_class->finalize = sl_cluster_page_finalize;
  document_class->load = sl_cluster_page_load;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-cluster-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, content);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, banner);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, banner_icon);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, banner_label);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, bars);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, rank_table_box);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, link_label);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, matrix);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, collective_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, collective_label);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, collective_bars);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, first_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, second_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, timelines_note);
  gtk_widget_class_bind_template_child (widget_class, SlClusterPage, timelines);
  gtk_widget_class_bind_template_callback (widget_class, bar_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, collective_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_timelines_cb);

  g_type_ensure (SL_TYPE_CLUSTER_BARS);
  g_type_ensure (SL_TYPE_COMM_MATRIX_VIEW);
  g_type_ensure (SL_TYPE_COMPARE_TIMELINES);
}

static void
sl_cluster_page_init (SlClusterPage *self)
{
  self->cancellable = g_cancellable_new ();
  self->ranks = g_list_store_new (SL_TYPE_CLUSTER_RANK_ITEM);
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint side = 0; side < 2; side++)
    g_signal_connect_object (sl_compare_timelines_get_pane (SL_COMPARE_TIMELINES (self->timelines), side), "notify::state",
                             G_CALLBACK (pane_state_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->rank_table_box), create_rank_table (self));
  self->rank_table = GTK_WIDGET (sl_data_table_get_column_view (self->rank_data));
}

SlClusterSummary *
sl_cluster_page_get_summary (SlClusterPage *self)
{
  g_return_val_if_fail (SL_IS_CLUSTER_PAGE (self), NULL);
  return self->summary;
}

#define DEFINE_GETTER(name, field)                       \
  GtkWidget *                                            \
  sl_cluster_page_get_##name (SlClusterPage *self)       \
  {                                                      \
    g_return_val_if_fail (SL_IS_CLUSTER_PAGE (self), NULL); \
    return self->field;                                  \
  }

DEFINE_GETTER (rank_table, rank_table)
DEFINE_GETTER (bars, bars)
DEFINE_GETTER (matrix, matrix)
DEFINE_GETTER (banner, banner)
DEFINE_GETTER (link_label, link_label)
DEFINE_GETTER (collective_bars, collective_bars)
DEFINE_GETTER (timelines, timelines)
