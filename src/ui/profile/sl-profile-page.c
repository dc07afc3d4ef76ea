/* sl-profile-page.c
 *
 * The folder is read by the profile loader in a worker, with a progress
 * bar and Cancel; damaged files are reported and the rest is shown. A
 * cluster shows one rank at a time, chosen in the header.
 *
 * The advisor runs once the profile is read, in its own worker, over
 * every rank; the Advisor tab shows the rank chosen, and its badge counts
 * that rank's high findings so they are seen before the tab is opened.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-advisor-view.h"
#include "sl-advisor.h"
#include "sl-memory-view.h"
#include "sl-comm-view.h"
#include "sl-hardware-group.h"
#include "sl-api-levels.h"
#include "sl-api-stats-view.h"
#include "sl-op-stats-view.h"
#include "sl-profile-loader.h"
#include "sl-page-switcher.h"
#include "sl-profile-page.h"
#include "sl-tooltip.h"
#include "sl-step-timeline-export.h"
#include "sl-step-trace-chart.h"
#include "sl-time-format.h"

#define TOP_TYPES_IN_SUMMARY 5
#define MAX_INFO_ROWS 40

struct _SlProfilePage
{
  SlDocument        parent_instance;

  char             *path;
  gboolean          has_timeline;
  gboolean          timeline_known;
  SlProfile        *profile;
  GCancellable     *cancellable;
  GSettings        *settings;
  SlTimeUnit        unit;
  GPtrArray        *summary_groups;
  guint             n_summary_rows;
  guint             rank;

  GtkStack         *stack;
  GtkProgressBar   *progress_bar;
  GtkLabel         *progress_label;
  AdwStatusPage    *failed_page;
  GtkDropDown      *rank_dropdown;
  GtkLabel         *source_label;
  AdwViewStack     *view_stack;
  AdwSqueezer      *switcher_squeezer;
  AdwPreferencesPage *summary_page;
  SlOpStatsView    *ops_view;
  SlApiStatsView   *apis_view;
  GtkStack         *steps_stack;
  SlStepTraceChart *step_chart;
  SlStepTimelineExport *step_export;
  AdwViewStackPage *advisor_stack_page;
  SlAdvisorView    *advisor_view;
  SlMemoryView     *memory_view;
  SlCommView       *comm_view;
  SlHardwareGroup  *hardware_group;   /* in summary_groups */
};

G_DEFINE_FINAL_TYPE (SlProfilePage, sl_profile_page, SL_TYPE_DOCUMENT)

enum {
  LOADED,
  SHOW_ON_TIMELINE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const SlProfileRank *
current_rank (SlProfilePage *self)
{
  if (self->profile == NULL || self->rank >= sl_profile_get_n_ranks (self->profile))
    return NULL;
  return sl_profile_get_rank (self->profile, self->rank);
}

/* A value that is a list of figures (a rank's step and its phases)
 * wraps: cutting its middle would hide the figures themselves. */
static GtkWidget *
add_row_full (SlProfilePage       *self,
              AdwPreferencesGroup *group,
              const char          *title,
              const char          *value,
              gboolean             wrap)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (wrap)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
      /* Wide enough for two lines, not a narrow column of three. */
      gtk_label_set_width_chars (GTK_LABEL (label), 32);
    }
  else
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  /* A long path must not squeeze the row's title into wrapped syllables. */
  gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_set_tooltip_text (label, value);
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  /* A title that is a long folder name (PROF_…) wraps, never hyphenated. */
  sl_widget_set_no_hyphens (row);
  adw_preferences_group_add (group, row);
  self->n_summary_rows++;
  return row;
}

static GtkWidget *
add_row (SlProfilePage       *self,
         AdwPreferencesGroup *group,
         const char          *title,
         const char          *value)
{
  return add_row_full (self, group, title, value, FALSE);
}

static void
add_time_row (SlProfilePage       *self,
              AdwPreferencesGroup *group,
              const char          *title,
              gint64               ns)
{
  g_autofree char *text = NULL;

  if (ns < 0)
    return;
  text = sl_time_format_ns (ns, self->unit);
  add_row (self, group, title, text);
}

static void
add_count_row (SlProfilePage       *self,
               AdwPreferencesGroup *group,
               const char          *title,
               guint64              count)
{
  g_autofree char *text = sl_count_format (count);

  add_row (self, group, title, text);
}

static AdwPreferencesGroup *
new_group (SlProfilePage *self,
           const char    *title)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());

  adw_preferences_group_set_title (group, title);
  adw_preferences_page_add (self->summary_page, group);
  g_ptr_array_add (self->summary_groups, group);
  return group;
}

static void
clear_summary (SlProfilePage *self)
{
  for (guint i = 0; i < self->summary_groups->len; i++)
    adw_preferences_page_remove (self->summary_page, g_ptr_array_index (self->summary_groups, i));
  g_ptr_array_set_size (self->summary_groups, 0);
  self->n_summary_rows = 0;
  self->hardware_group = NULL;
}

static int
compare_total_desc (gconstpointer a,
                    gconstpointer b)
{
  gint64 ta = sl_op_row_get_total_ns (*(SlOpRow **)a);
  gint64 tb = sl_op_row_get_total_ns (*(SlOpRow **)b);

  return ta < tb ? 1 : ta > tb ? -1 : 0;
}

static void
fill_top_types (SlProfilePage       *self,
                const SlProfileRank *rank)
{
  GListModel *types = sl_op_table_get_types (rank->ops);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new_with_free_func (g_object_unref);
  AdwPreferencesGroup *group;
  gint64 all = 0;

  for (guint i = 0; i < g_list_model_get_n_items (types); i++)
    {
      SlOpRow *row = g_list_model_get_item (types, i);

      all += MAX (0, sl_op_row_get_total_ns (row));
      g_ptr_array_add (sorted, row);
    }
  if (sorted->len == 0)
    return;

  g_ptr_array_sort (sorted, compare_total_desc);
  group = new_group (self, _("Top Op Types"));
  for (guint i = 0; i < MIN (sorted->len, TOP_TYPES_IN_SUMMARY); i++)
    {
      SlOpRow *row = g_ptr_array_index (sorted, i);
      g_autofree char *total = sl_time_format_ns (sl_op_row_get_total_ns (row), self->unit);
      g_autofree char *calls = sl_count_format (sl_op_row_get_count (row));
      g_autofree char *text = g_strdup_printf (_("%s, %.1f%% of op time, %s calls"), total,
                                               all > 0 ? 100.0 * sl_op_row_get_total_ns (row) / all : 0.0,
                                               calls);

      add_row (self, group, sl_op_row_get_op_type (row), text);
    }
}

static void fill_cluster (SlProfilePage *self);

static const char *
layout_label (SlProfileLayout layout)
{
  switch (layout)
    {
    case SL_PROFILE_LAYOUT_MINDSPORE: return _("MindSpore profiler folder");
    case SL_PROFILE_LAYOUT_MSPROF: return _("msprof output (PROF_ folder)");
    case SL_PROFILE_LAYOUT_ASCEND_PT: return _("Ascend PyTorch or MindSpore profiler output");
    case SL_PROFILE_LAYOUT_DATABASE: return _("Profiler SQLite export");
    case SL_PROFILE_LAYOUT_CLUSTER: return _("Cluster step trace");
    default: return sl_profile_layout_to_string (layout);
    }
}

static void
fill_summary (SlProfilePage       *self,
              const SlProfileRank *rank)
{
  const SlProfileSummary *summary = &rank->summary;
  AdwPreferencesGroup *group;

  clear_summary (self);
  /* A cluster's first question: which rank holds the others up. */
  fill_cluster (self);

  group = new_group (self, _("Profile"));
  add_row (self, group, _("Layout"), layout_label (rank->layout));
  add_row (self, group, _("Folder"), rank->dir);
  if (rank->rank_id >= 0)
    add_count_row (self, group, _("Rank"), rank->rank_id);
  if (rank->device_id >= 0)
    add_count_row (self, group, _("Device"), rank->device_id);
  add_count_row (self, group, _("Files read"), rank->files->len);

  group = new_group (self, _("Time"));
  add_time_row (self, group, _("Total time"), summary->total_ns);
  if (rank->steps != NULL && sl_step_trace_get_n_steps (rank->steps) > 0)
    {
      SlStep average;

      add_count_row (self, group, _("Steps"), sl_step_trace_get_n_steps (rank->steps));
      sl_step_trace_compute_average (rank->steps, &average);
      if (average.total_ns != SL_STEP_NO_TIME)
        add_time_row (self, group, _("Average step"), average.total_ns);
    }
  add_count_row (self, group, _("Op executions"), summary->n_op_executions);
  add_count_row (self, group, _("Op types"), summary->n_op_types);
  add_count_row (self, group, _("Op instances"), summary->n_op_instances);
  if (summary->n_streams > 0)
    add_count_row (self, group, _("Streams"), summary->n_streams);
  add_time_row (self, group, _("Task duration"), summary->task_ns);
  /* One definition of the AI Core time, the Advisor's: its share is of
   * the same ops' task duration, never of every op's. */
  if (summary->core_busy_ns >= 0)
    {
      g_autofree char *aicore = sl_time_format_ns (summary->core_busy_ns, self->unit);
      g_autofree char *text = summary->core_task_ns > 0
        /* Translators: the AI Core time, then its share of the task duration of the ops measured */
        ? g_strdup_printf (_("%s (%.1f %% of those ops' task duration)"), aicore,
                           100.0 * summary->core_busy_ns / summary->core_task_ns)
        : g_strdup (aicore);
      g_autofree char *tooltip = g_strdup_printf ("%s\n%s", sl_profile_core_time_definition (),
                                                  sl_profile_core_share_definition ());

      gtk_widget_set_tooltip_text (add_row (self, group, _("AI Core time"), text), tooltip);
    }
  else if (summary->aicore_ops_ns >= 0)
    {
      g_autofree char *text = sl_time_format_ns (summary->aicore_ops_ns, self->unit);

      gtk_widget_set_tooltip_text (add_row (self, group, _("AI Core ops' task time"), text),
                                   sl_profile_aicore_ops_definition ());
    }

  fill_top_types (self, rank);

  self->hardware_group = SL_HARDWARE_GROUP (sl_hardware_group_new ());
  sl_hardware_group_set_rank (self->hardware_group, rank);
  adw_preferences_page_add (self->summary_page, ADW_PREFERENCES_GROUP (self->hardware_group));
  g_ptr_array_add (self->summary_groups, self->hardware_group);

  if (rank->info_keys->len > 0)
    {
      group = new_group (self, _("Host and Device"));
      for (guint i = 0; i < MIN (rank->info_keys->len, MAX_INFO_ROWS); i++)
        {
          const char *key = g_ptr_array_index (rank->info_keys, i);

          add_row (self, group, key, g_hash_table_lookup (rank->info, key));
        }
    }
}

/* Ranks side by side: a slow rank holds every other one up at the next
 * collective, so say which one and by how much (the Ascend tools call a
 * spread above 5% of the mean a slow rank). */
static void
fill_cluster (SlProfilePage *self)
{
  guint n = sl_profile_get_n_ranks (self->profile);
  AdwPreferencesGroup *group;
  double sum = 0, slowest = -1, fastest = G_MAXDOUBLE;
  guint n_timed = 0, slowest_rank = 0;

  if (n < 2)
    return;

  group = new_group (self, _("Ranks"));
  for (guint i = 0; i < n; i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (self->profile, i);
      g_autofree char *text = NULL;
      SlStep average;

      if (rank->steps == NULL || sl_step_trace_get_n_steps (rank->steps) == 0)
        {
          add_row (self, group, rank->label, _("no step trace"));
          continue;
        }

      sl_step_trace_compute_average (rank->steps, &average);
      if (average.total_ns == SL_STEP_NO_TIME)
        {
          add_row (self, group, rank->label, _("no step times"));
          continue;
        }

      {
        g_autofree char *total = sl_time_format_ns (average.total_ns, self->unit);
        g_autoptr(GString) phases = g_string_new (NULL);

        /* The phases as the rank's step trace names them. */
        for (guint p = 0; p < sl_step_trace_get_n_phases (rank->steps); p++)
          {
            gint64 mean = sl_step_trace_get_phase_average (rank->steps, p);
            g_autofree char *time = sl_time_format_ns (mean == SL_STEP_NO_TIME ? 0 : MAX (mean, 0), self->unit);

            if (phases->len > 0)
              /* TRANSLATORS: between the phases of a step in a list */
              g_string_append (phases, _(", "));
            /* TRANSLATORS: a phase of a step and its average duration, e.g. "Free 25.7 ms" */
            g_string_append_printf (phases, C_("phase and its average", "%s %s"),
                                    sl_step_trace_get_phase_label (rank->steps, p), time);
          }
        if (phases->len > 0)
          /* TRANSLATORS: a rank's average step, then its phases */
          text = g_strdup_printf (_("%s a step (%s)"), total, phases->str);
        else
          /* TRANSLATORS: a rank's average step */
          text = g_strdup_printf (_("%s a step"), total);
      }
      add_row_full (self, group, rank->label, text, TRUE);

      sum += average.total_ns;
      n_timed++;
      if (average.total_ns > slowest)
        {
          slowest = average.total_ns;
          slowest_rank = i;
        }
      fastest = MIN (fastest, average.total_ns);
    }

  if (n_timed >= 2 && sum > 0)
    {
      double spread = (slowest - fastest) / (sum / n_timed) * 100;
      g_autofree char *text = NULL;

      if (spread > 5)
        text = g_strdup_printf (_("%s is the slowest: step times differ by %.1f%% of the mean, so the other ranks wait for it"),
                                sl_profile_get_rank (self->profile, slowest_rank)->label, spread);
      else
        text = g_strdup_printf (_("Balanced: step times differ by %.1f%% of the mean"), spread);
      adw_preferences_group_set_description (group, text);
    }
}

static void
update_advisor_badge (SlProfilePage *self)
{
  guint high = sl_advisor_view_get_n_shown (self->advisor_view, SL_ADVISOR_SEVERITY_HIGH);

  adw_view_stack_page_set_badge_number (self->advisor_stack_page, high);
  adw_view_stack_page_set_needs_attention (self->advisor_stack_page, high > 0);
}

static void
show_rank (SlProfilePage *self)
{
  const SlProfileRank *rank = current_rank (self);
  g_autofree char *source = NULL;

  if (rank == NULL)
    return;

  source = g_strdup_printf ("%s · %s", layout_label (rank->layout), rank->dir);
  gtk_label_set_label (self->source_label, source);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->source_label), rank->dir);

  fill_summary (self, rank);
  sl_op_stats_view_set_table (self->ops_view, rank->ops);
  sl_api_stats_view_set_rank (self->apis_view, rank);
  sl_step_trace_chart_set_steps (self->step_chart, rank->steps);
  sl_step_timeline_export_set_profile (self->step_export, self->path, rank->trace ? SL_TRACE (rank->trace) : NULL);
  gtk_stack_set_visible_child_name (self->steps_stack,
                                    rank->steps && sl_step_trace_get_n_steps (rank->steps) ? "chart" : "empty");
  sl_comm_view_set_communication (self->comm_view, rank->communication, rank->rank_id, rank->dir);
  sl_advisor_view_set_rank_label (self->advisor_view, rank->label);
  sl_memory_view_set_memory (self->memory_view, rank->memory, rank->dir);
  update_advisor_badge (self);
}

static void
rank_changed_cb (SlProfilePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->rank_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION && selected != self->rank)
    {
      self->rank = selected;
      show_rank (self);
    }
}

/* Opens the timeline of this profile at an op or a step, through the
 * window's open-document action, when the profile has timeline files. */
static void
link_to_timeline (SlProfilePage *self,
                  const char    *search,
                  gint64         start_ns,
                  gint64         end_ns,
                  gint64         origin_ns)
{
  g_signal_emit (self, signals[SHOW_ON_TIMELINE], 0, search, start_ns, end_ns, origin_ns);

  if (!self->has_timeline)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", _("This profile has no timeline files"));
      return;
    }

  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-document", "(ssv)", "timeline", self->path,
                              g_variant_new ("(sxxx)", search ? search : "", start_ns, end_ns, origin_ns));
}

/* Memory and the timeline are both Unix time: no origin to line up. */
static void
memory_show_time_cb (SlProfilePage *self,
                     gint64         start_ns,
                     gint64         end_ns)
{
  link_to_timeline (self, NULL, start_ns, end_ns, -1);
}

/* Opens the timeline at exactly these ops (a{sv} request, "names"),
 * landing on the first; @what is the signal's search text. */
static void
link_ops_to_timeline (SlProfilePage      *self,
                      const char * const *names,
                      const char         *what)
{
  GVariantDict request;

  g_signal_emit (self, signals[SHOW_ON_TIMELINE], 0, what, (gint64)-1, (gint64)-1, (gint64)-1);
  if (!self->has_timeline)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", _("This profile has no timeline files"));
      return;
    }
  g_variant_dict_init (&request, NULL);
  g_variant_dict_insert (&request, "names", "^as", names);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-document", "(ssv)", "timeline", self->path,
                              g_variant_dict_end (&request));
}

/* An op's row names the op; a type's row, every op of the type. */
static void
op_activated_cb (SlProfilePage *self,
                 const char    *name,
                 const char    *op_type)
{
  const SlProfileRank *rank = current_rank (self);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  if (name != NULL && name[0] != '\0')
    g_ptr_array_add (names, (gpointer)name);
  else if (rank != NULL && rank->ops != NULL && op_type != NULL)
    {
      GListModel *instances = sl_op_table_get_instances (rank->ops);

      for (guint i = 0; i < g_list_model_get_n_items (instances); i++)
        {
          g_autoptr(SlOpRow) row = g_list_model_get_item (instances, i);

          if (g_strcmp0 (sl_op_row_get_op_type (row), op_type) == 0)
            g_ptr_array_add (names, (gpointer)sl_op_row_get_name (row));
        }
    }
  if (names->len == 0)
    {
      /* A type table without its ops: the type's name as text */
      link_to_timeline (self, op_type, -1, -1, -1);
      return;
    }
  g_ptr_array_add (names, NULL);
  link_ops_to_timeline (self, (const char * const *)names->pdata, name != NULL && name[0] ? name : op_type);
}

/* A timeline request for an API's calls: its exact name, with or
 * without the level prefix msprof writes ("AscendCL@"), and the step. */
static GVariant *
api_calls_request (const char *name,
                   gint64      start_ns,
                   gint64      end_ns)
{
  g_autofree char *pattern = sl_api_level_timeline_pattern (name);

  return g_variant_new ("(sxxxb)", pattern, start_ns, end_ns, (gint64)-1, TRUE);
}

static void
api_show_calls_cb (SlProfilePage *self,
                   const char    *name,
                   const char    *level,
                   gint64         start_ns,
                   gint64         end_ns)
{
  g_signal_emit (self, signals[SHOW_ON_TIMELINE], 0, name, start_ns, end_ns, (gint64)-1);

  if (!self->has_timeline)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", _("This profile has no timeline files"));
      return;
    }
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-document", "(ssv)", "timeline", self->path,
                              api_calls_request (name, start_ns, end_ns));
}

/* A selected API marks its calls in this profile's timeline if it is
 * open; it is not opened for a selection. */
static void
api_selected_cb (SlProfilePage *self,
                 const char    *name,
                 const char    *level)
{
  if (self->has_timeline)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.request-document", "(ssv)", "timeline", self->path,
                                api_calls_request (name, -1, -1));
}

/* The Operators tab at an op's row, selected and scrolled to. */
static void
show_op (SlProfilePage *self,
         const char    *name)
{
  adw_view_stack_set_visible_child_name (self->view_stack, "ops");
  if (!sl_op_stats_view_select_op (self->ops_view, name))
    {
      /* Translators: a link named an op the profile does not list */
      g_autofree char *message = g_strdup_printf (_("This profile lists no op named “%s”"), name);

      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
    }
}

/* From the graph: "(ss)" ("op", full name) selects that op's row. */
static void
sl_profile_page_handle_request (SlDocument *document,
                                GVariant   *request)
{
  SlProfilePage *self = SL_PROFILE_PAGE (document);
  const char *what = NULL, *name = NULL;

  if (!g_variant_is_of_type (request, G_VARIANT_TYPE ("(ss)")))
    return;
  g_variant_get (request, "(&s&s)", &what, &name);
  if (g_strcmp0 (what, "op") != 0)
    return;
  show_op (self, name);
}

static void
show_in_graph_cb (SlProfilePage *self,
                  const char    *name)
{
  sl_document_show_op (SL_DOCUMENT (self), name);
}

/* Where the Advisor's links lead: the Operators tab filtered as the
 * finding says, the timeline at its steps, the graph at its op. */
static void
advisor_show_ops_cb (SlProfilePage    *self,
                     SlAdvisorFinding *finding)
{
  GPtrArray *ops = sl_advisor_finding_get_ops (finding);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autofree char *label = NULL;
  g_autofree char *count = NULL;

  adw_view_stack_set_visible_child_name (self->view_stack, "ops");
  for (guint i = 0; i < ops->len; i++)
    if (sl_op_row_get_name (g_ptr_array_index (ops, i)) != NULL)
      g_ptr_array_add (names, (gpointer)sl_op_row_get_name (g_ptr_array_index (ops, i)));
  if (names->len == 0)
    {
      sl_op_stats_view_set_by_instance (self->ops_view, TRUE);
      sl_op_stats_view_set_filter (self->ops_view, sl_advisor_finding_get_filter_text (finding));
      return;
    }
  /* Exactly the finding's ops, not those whose name holds a piece of text */
  g_ptr_array_add (names, NULL);
  count = sl_count_format (names->len - 1);
  /* Translators: the Operators filter showing a finding's ops: their number and the finding */
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s op of “%s”", "%s ops of “%s”", names->len - 1),
                           count, sl_advisor_finding_get_title (finding));
  sl_op_stats_view_show_ops (self->ops_view, (const char * const *)names->pdata, label);
}

/* An op the Advisor names as evidence: its row, or its slices. */
static void
advisor_show_op_cb (SlProfilePage *self,
                    const char    *name)
{
  show_op (self, name);
}

static void
advisor_show_op_on_timeline_cb (SlProfilePage *self,
                                const char    *name)
{
  const char *names[] = { name, NULL };

  link_ops_to_timeline (self, names, name);
}

static void
advisor_show_on_timeline_cb (SlProfilePage    *self,
                             SlAdvisorFinding *finding)
{
  const SlProfileRank *rank = current_rank (self);
  gint64 origin = -1;

  /* The ranges are step times: line them up as a clicked step is. */
  if (rank != NULL && rank->steps != NULL && sl_step_trace_get_n_steps (rank->steps) > 0 &&
      sl_step_trace_get_step (rank->steps, 0)->start_ns != SL_STEP_NO_TIME)
    origin = sl_step_trace_get_step (rank->steps, 0)->start_ns;
  link_to_timeline (self, NULL, sl_advisor_finding_get_range_start_ns (finding),
                    sl_advisor_finding_get_range_end_ns (finding), origin);
}

static void
comm_show_on_timeline_cb (SlProfilePage *self,
                          const char    *name,
                          gint64         start_ns,
                          gint64         end_ns)
{
  link_to_timeline (self, name, start_ns, end_ns, -1);
}

static void
advisor_show_in_graph_cb (SlProfilePage    *self,
                          SlAdvisorFinding *finding)
{
  sl_document_show_op (SL_DOCUMENT (self), sl_advisor_finding_get_graph_op (finding));
}

static void
details_source_changed_cb (SlProfilePage *self)
{
  sl_document_details_changed (SL_DOCUMENT (self));
}

static gboolean
sl_profile_page_show_details (SlDocument     *document,
                              SlDescription  *details)
{
  SlProfilePage *self = SL_PROFILE_PAGE (document);

  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "advisor") != 0)
    return FALSE;
  return sl_advisor_view_show_details (self->advisor_view, details);
}

static void
step_activated_cb (SlProfilePage *self,
                   guint          index)
{
  const SlProfileRank *rank = current_rank (self);
  const SlStep *step;

  if (rank == NULL || rank->steps == NULL || index >= sl_step_trace_get_n_steps (rank->steps))
    return;

  step = sl_step_trace_get_step (rank->steps, index);
  if (step->start_ns == SL_STEP_NO_TIME || step->end_ns == SL_STEP_NO_TIME)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s",
                                  _("This step trace has no start and end times to show on the timeline"));
      return;
    }
  link_to_timeline (self, NULL, step->start_ns, step->end_ns, sl_step_trace_get_step (rank->steps, 0)->start_ns);
}

static void
step_export_requested_cb (SlProfilePage *self,
                          guint          index)
{
  const SlProfileRank *rank = current_rank (self);

  if (rank == NULL || rank->steps == NULL || index >= sl_step_trace_get_n_steps (rank->steps))
    return;
  sl_step_timeline_export_choose (self->step_export, rank->steps, index);
}

static void
fill_ranks (SlProfilePage *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n = sl_profile_get_n_ranks (self->profile);

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (names, sl_profile_get_rank (self->profile, i)->label);

  g_signal_handlers_block_by_func (self->rank_dropdown, rank_changed_cb, self);
  gtk_drop_down_set_model (self->rank_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->rank_dropdown, 0);
  g_signal_handlers_unblock_by_func (self->rank_dropdown, rank_changed_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->rank_dropdown), n > 1);
}

static void
progress_cb (double      fraction,
             const char *path,
             gpointer    user_data)
{
  SlProfilePage *self = user_data;
  g_autofree char *name = path ? g_path_get_basename (path) : NULL;

  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
  gtk_label_set_label (self->progress_label, name ? name : "");
}

static void sl_profile_page_load (SlDocument *document);

static void
add_profile_problems (SlProfilePage *self)
{
  GListModel *problems = sl_profile_get_problems (self->profile);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      sl_document_add_problem (SL_DOCUMENT (self), problem);
    }
}

/* Whether the folder has timeline files is learnt in a worker, beside
 * the profile, so a click on a step never walks the disk. */
static void
find_timeline_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(GPtrArray) files = sl_profile_list_timeline_files (path);

  g_task_return_boolean (task, (files != NULL && files->len > 0) || g_str_has_suffix (path, ".db"));
}

static void
find_timeline_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SlProfilePage *self = SL_PROFILE_PAGE (object);

  self->has_timeline = g_task_propagate_boolean (G_TASK (result), NULL);
  self->timeline_known = TRUE;
}

/* The rule book with the user's overrides is read in the worker too:
 * the settings file may sit on a slow home folder. */
static void
advise_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SlProfile *profile = task_data;
  g_autoptr(SlAdvisorRuleBook) book = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *settings = NULL;
  SlAdvisorReport *report;

  if ((book = sl_advisor_rule_book_new_default (&error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  settings = sl_advisor_rule_book_dup_user_path ();
  if (!sl_advisor_rule_book_load_overrides (book, settings, &error))
    {
      g_prefix_error (&error, "%s: ", settings);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if ((report = sl_advisor_run (profile, book, cancellable, &error)) == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, report, g_object_unref);
}

static void
advise_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SlProfilePage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlAdvisorReport) report = g_task_propagate_pointer (G_TASK (result), &error);

  /* Cancelled: the page is going away. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (report == NULL)
    sl_advisor_view_set_error (self->advisor_view, error->message);
  else
    sl_advisor_view_set_report (self->advisor_view, report);
  update_advisor_badge (self);
}

static void
start_advisor (SlProfilePage *self)
{
  g_autoptr(GTask) task = g_task_new (NULL, self->cancellable, advise_cb, g_object_ref (self));

  sl_advisor_view_set_running (self->advisor_view);
  g_task_set_source_tag (task, start_advisor);
  g_task_set_task_data (task, g_object_ref (self->profile), g_object_unref);
  g_task_run_in_thread (task, advise_thread);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlProfilePage) self = user_data;
  g_autoptr(GError) error = NULL;
  SlProfile *profile = sl_profile_load_finish (result, &error);

  panel_widget_unmark_busy (PANEL_WIDGET (self));
  if (profile == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        adw_status_page_set_description (self->failed_page, _("Reading was cancelled. Close this tab and open the profile again to read it."));
      else
        adw_status_page_set_description (self->failed_page, error->message);
      sl_document_fail (SL_DOCUMENT (self), adw_status_page_get_description (self->failed_page));
      return;
    }

  self->profile = profile;
  self->rank = 0;
  fill_ranks (self);
  show_rank (self);
  add_profile_problems (self);
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
  start_advisor (self);
  g_signal_emit (self, signals[LOADED], 0);
}

static void
time_unit_changed_cb (SlProfilePage *self)
{
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  sl_step_trace_chart_set_time_unit (self->step_chart, self->unit);
  sl_advisor_view_set_time_unit (self->advisor_view, self->unit);
  if (self->profile != NULL)
    fill_summary (self, current_rank (self));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  g_cancellable_cancel (SL_PROFILE_PAGE (widget)->cancellable);
}

static void
open_timeline_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  link_to_timeline (SL_PROFILE_PAGE (widget), NULL, -1, -1, -1);
}

static void
sl_profile_page_dispose (GObject *object)
{
  SlProfilePage *self = SL_PROFILE_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_PROFILE_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->profile);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->summary_groups, g_ptr_array_unref);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_profile_page_parent_class)->dispose (object);
}

/* The stack shows the document's state: nothing reads it back */
static char *
state_child_name (gpointer        instance,
                  SlDocumentState state)
{
  switch (state)
    {
    case SL_DOCUMENT_LOADING:
      return g_strdup ("loading");
    case SL_DOCUMENT_EMPTY:
      return g_strdup ("failed");
    case SL_DOCUMENT_FAILED:
      return g_strdup ("failed");
    case SL_DOCUMENT_READY:
    default:
      return g_strdup ("profile");
    }
}

static void
sl_profile_page_class_init (SlProfilePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_profile_page_dispose;
  SL_DOCUMENT_CLASS (klass)->load = sl_profile_page_load;
  SL_DOCUMENT_CLASS (klass)->handle_request = sl_profile_page_handle_request;
  SL_DOCUMENT_CLASS (klass)->describe = sl_profile_page_show_details;

  /**
   * SlProfilePage::loaded:
   *
   * The profile was read; its problems are in sl_profile_get_problems().
   */
  signals[LOADED] =
    g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * SlProfilePage::show-on-timeline:
   * @search: (nullable): an op name or type to find
   * @start_ns: the start of a range to zoom to, or -1
   * @end_ns: its end, or -1
   * @first_step_ns: where the first step starts, or -1: step traces and
   *   timelines are often written against different origins (MindSpore's
   *   timeline starts at 0, its step trace counts device ticks), and this
   *   lets the timeline line the steps up with its own start
   */
  signals[SHOW_ON_TIMELINE] =
    g_signal_new ("show-on-timeline", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-profile-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, stack);
  gtk_widget_class_bind_template_callback (widget_class, state_child_name);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, progress_label);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, source_label);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, switcher_squeezer);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, summary_page);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, ops_view);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, apis_view);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, steps_stack);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, step_chart);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, step_export);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, advisor_stack_page);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, advisor_view);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, memory_view);
  gtk_widget_class_bind_template_child (widget_class, SlProfilePage, comm_view);
  gtk_widget_class_bind_template_callback (widget_class, rank_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, op_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_in_graph_cb);
  gtk_widget_class_bind_template_callback (widget_class, api_show_calls_cb);
  gtk_widget_class_bind_template_callback (widget_class, api_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_export_requested_cb);
  gtk_widget_class_bind_template_callback (widget_class, advisor_show_ops_cb);
  gtk_widget_class_bind_template_callback (widget_class, memory_show_time_cb);
  gtk_widget_class_bind_template_callback (widget_class, advisor_show_on_timeline_cb);
  gtk_widget_class_bind_template_callback (widget_class, advisor_show_in_graph_cb);
  gtk_widget_class_bind_template_callback (widget_class, advisor_show_op_cb);
  gtk_widget_class_bind_template_callback (widget_class, advisor_show_op_on_timeline_cb);
  gtk_widget_class_bind_template_callback (widget_class, comm_show_on_timeline_cb);
  gtk_widget_class_bind_template_callback (widget_class, details_source_changed_cb);

  gtk_widget_class_install_action (widget_class, "profile.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "profile.open-timeline", NULL, open_timeline_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "profile.cancel", NULL);

  g_type_ensure (SL_TYPE_OP_STATS_VIEW);
  g_type_ensure (SL_TYPE_API_STATS_VIEW);
  g_type_ensure (SL_TYPE_STEP_TRACE_CHART);
  g_type_ensure (SL_TYPE_STEP_TIMELINE_EXPORT);
  g_type_ensure (SL_TYPE_ADVISOR_VIEW);
  g_type_ensure (SL_TYPE_MEMORY_VIEW);
  g_type_ensure (SL_TYPE_COMM_VIEW);
}

static void
sl_profile_page_init (SlProfilePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  {
    g_autoptr(GtkSelectionModel) pages = adw_view_stack_get_pages (self->view_stack);

    adw_squeezer_add (self->switcher_squeezer, sl_page_switcher_new_drop_down (pages, ADW_TYPE_VIEW_STACK_PAGE));
  }

  self->cancellable = g_cancellable_new ();
  self->summary_groups = g_ptr_array_new ();
  self->settings = g_settings_new (APP_ID);
  self->unit = g_settings_get_enum (self->settings, "time-unit");
  sl_step_trace_chart_set_time_unit (self->step_chart, self->unit);
  sl_advisor_view_set_time_unit (self->advisor_view, self->unit);
  g_signal_connect_object (self->settings, "changed::time-unit", G_CALLBACK (time_unit_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

/**
 * sl_profile_page_new:
 * @path: a profiler folder (MindSpore, msprof, Ascend PyTorch) or its
 *   SQLite export
 *
 * Returns: (transfer full): a page that starts reading @path at once
 */
GtkWidget *
sl_profile_page_new (const char *path,
                     const char *title)
{
  GtkWidget *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_PROFILE_PAGE, "path", path, "title", title, NULL);
  sl_document_load (SL_DOCUMENT (self));

  return self;
}

static void
sl_profile_page_load (SlDocument *document)
{
  SlProfilePage *self = SL_PROFILE_PAGE (document);
  g_autoptr(GTask) task = NULL;

  if (self->path != NULL || sl_document_get_path (document) == NULL)
    return;

  self->path = g_strdup (sl_document_get_path (document));
  panel_widget_mark_busy (PANEL_WIDGET (self));
  sl_profile_load_async (self->path, self->cancellable, progress_cb, g_object_ref (self), g_object_unref,
                         load_cb, g_object_ref (self));

  if (self->timeline_known)
    return;
  task = g_task_new (self, self->cancellable, find_timeline_cb, NULL);
  g_task_set_task_data (task, g_strdup (self->path), g_free);
  g_task_run_in_thread (task, find_timeline_thread);
}

/**
 * sl_profile_page_set_has_timeline:
 *
 * Says whether the profile has timeline files, as the finding it was
 * opened from knows, so loading need not look for them.
 */
void
sl_profile_page_set_has_timeline (SlProfilePage *self,
                                  gboolean       has_timeline)
{
  g_return_if_fail (SL_IS_PROFILE_PAGE (self));

  self->has_timeline = has_timeline;
  self->timeline_known = TRUE;
}

const char *
sl_profile_page_get_path (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->path;
}
/**
 * sl_profile_page_get_profile:
 *
 * Returns: (transfer none) (nullable): the profile, once read
 */
SlProfile *
sl_profile_page_get_profile (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->profile;
}

/**
 * sl_profile_page_show_view:
 * @view: "summary", "ops", "apis", "steps", "memory", "communication" or "advisor"
 */
void
sl_profile_page_show_view (SlProfilePage *self,
                           const char    *view)
{
  g_return_if_fail (SL_IS_PROFILE_PAGE (self));
  adw_view_stack_set_visible_child_name (self->view_stack, view);
}

/**
 * sl_profile_page_get_view:
 *
 * Returns: the name of the view shown, as sl_profile_page_show_view() takes
 */
const char *
sl_profile_page_get_view (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return adw_view_stack_get_visible_child_name (self->view_stack);
}

void
sl_profile_page_set_rank (SlProfilePage *self,
                          guint          rank)
{
  g_return_if_fail (SL_IS_PROFILE_PAGE (self));
  gtk_drop_down_set_selected (self->rank_dropdown, rank);
}

SlOpStatsView *
sl_profile_page_get_ops_view (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->ops_view;
}

SlApiStatsView *
sl_profile_page_get_apis_view (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->apis_view;
}

SlAdvisorView *
sl_profile_page_get_advisor_view (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->advisor_view;
}

SlStepTraceChart *
sl_profile_page_get_step_chart (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->step_chart;
}

SlStepTimelineExport *
sl_profile_page_get_step_export (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->step_export;
}

guint
sl_profile_page_get_n_summary_rows (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), 0);
  return self->n_summary_rows;
}

SlCommView *
sl_profile_page_get_comm_view (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->comm_view;
}

SlHardwareGroup *
sl_profile_page_get_hardware_group (SlProfilePage *self)
{
  g_return_val_if_fail (SL_IS_PROFILE_PAGE (self), NULL);
  return self->hardware_group;
}
