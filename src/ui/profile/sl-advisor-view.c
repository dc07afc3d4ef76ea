/* sl-advisor-view.c
 *
 * The report of one advisor run, for the rank the profile page shows
 * (findings over the whole profile, such as a slow rank, on every rank).
 * A group per severity holds a GtkListBox bound to a store of
 * SlAdvisorFindingItems, one SlAdvisorFindingRow (a template) each; a
 * row builds its evidence and ops the first time it is expanded, so a
 * report of hundreds of findings costs hundreds of rows and no more.
 * GTK 4.8 has no sectioned list view, and a rank's findings number a few
 * dozen in practice, so a list box per severity beats a list view here.
 *
 * The links are actions on the class ("advisor.show-ops" and friends,
 * with the finding's position in the report) that the view turns into
 * signals; the profile page decides where they lead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-advisor-finding-row.h"
#include "sl-advisor-skip-row.h"
#include "sl-advisor-texts.h"
#include "sl-advisor-view.h"
#include "sl-performance-tile.h"

/* Details lists every piece of evidence up to this many. */
#define MAX_DETAILS_EVIDENCE 200

enum {
  LINK_OPS,
  LINK_TIMELINE,
  LINK_GRAPH,
  N_LINKS
};

struct _SlAdvisorView
{
  GtkWidget            parent_instance;

  SlAdvisorReport     *report;
  char                *rank_label;
  SlTimeUnit           unit;
  SlAdvisorFinding    *selected;
  guint                n_shown[3];
  guint                n_not_run_shown;

  GtkStack            *stack;
  GtkSpinner          *spinner;
  AdwStatusPage       *failed_page;
  GtkLabel            *high_count;
  GtkLabel            *medium_count;
  GtkLabel            *low_count;
  GtkLabel            *not_run_count;
  GtkLabel            *summary_label;
  AdwPreferencesGroup *overrides_group;
  GtkListBox          *overrides_list;
  AdwPreferencesGroup *none_group;
  AdwPreferencesGroup *high_group;
  AdwPreferencesGroup *medium_group;
  AdwPreferencesGroup *low_group;
  GtkListBox          *high_list;
  GtkListBox          *medium_list;
  GtkListBox          *low_list;
  GListStore          *findings[3];
  AdwPreferencesGroup *not_run_group;
  GtkListBox          *not_run_list;
  AdwPreferencesGroup *performance_group;
  GtkFlowBox          *performance_box;
  GtkLabel            *performance_missing_label;
  SlDocumentState      state;
};

G_DEFINE_FINAL_TYPE (SlAdvisorView, sl_advisor_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SELECTED,
  PROP_STATE,
  N_PROPS
};

enum {
  SHOW_OPS,
  SHOW_ON_TIMELINE,
  SHOW_IN_GRAPH,
  SHOW_OP,
  SHOW_OP_ON_TIMELINE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const char *
rule_title (const char *rule)
{
  const SlAdvisorTexts *texts = sl_advisor_texts_lookup (rule);

  return texts != NULL && texts->title != NULL ? _(texts->title) : rule;
}

static gboolean
shown_on_rank (SlAdvisorView *self,
               const char    *rank_label)
{
  return rank_label == NULL || rank_label[0] == '\0' || self->rank_label == NULL ||
         g_strcmp0 (rank_label, self->rank_label) == 0;
}

static gboolean
names_op (SlAdvisorFinding *finding,
          const char       *name)
{
  GPtrArray *ops = sl_advisor_finding_get_ops (finding);

  for (guint i = 0; name != NULL && i < ops->len; i++)
    if (g_strcmp0 (sl_op_row_get_name (g_ptr_array_index (ops, i)), name) == 0)
      return TRUE;
  return FALSE;
}

static void
finding_expanded_cb (AdwExpanderRow *row,
                     GParamSpec     *pspec,
                     SlAdvisorView  *self)
{
  if (adw_expander_row_get_expanded (row))
    sl_advisor_view_select (self, sl_advisor_finding_item_get_finding (
                                    sl_advisor_finding_row_get_item (SL_ADVISOR_FINDING_ROW (row))));
}

static GtkWidget *
create_finding_row (gpointer item,
                    gpointer user_data)
{
  GtkWidget *row = sl_advisor_finding_row_new (item);

  g_signal_connect_object (row, "notify::expanded", G_CALLBACK (finding_expanded_cb), user_data, 0);
  return row;
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static char *
format_threshold (double value)
{
  return g_strdup_printf ("%g", value);
}

static void
fill_overrides (SlAdvisorView *self)
{
  SlAdvisorRuleBook *book = sl_advisor_report_get_rule_book (self->report);
  GPtrArray *overridden = sl_advisor_rule_book_get_overridden (book);
  GPtrArray *warnings = sl_advisor_rule_book_get_warnings (book);
  const char *path = sl_advisor_rule_book_get_override_path (book);

  clear_list (self->overrides_list);
  for (guint i = 0; i < overridden->len; i++)
    {
      const SlAdvisorOverride *override = g_ptr_array_index (overridden, i);
      g_autofree char *value = format_threshold (override->value);
      g_autofree char *default_value = format_threshold (override->default_value);
      g_autofree char *title = NULL;
      g_autofree char *subtitle = NULL;
      GtkWidget *row = adw_action_row_new ();

      /* Translators: threshold NAME of rule RULE is VALUE here, DEFAULT by default */
      title = g_strdup_printf (_("Threshold %s of rule %s is %s here, %s by default"), override->name,
                               g_str_equal (override->rule, "severity") ? _("severity") : override->rule,
                               value, default_value);
      /* Translators: where an overridden threshold was set */
      subtitle = g_strdup_printf (_("from %s"), path != NULL ? path : "");
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("sl-threshold-symbolic"));
      gtk_list_box_append (self->overrides_list, row);
    }
  for (guint i = 0; i < warnings->len; i++)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g_ptr_array_index (warnings, i));
      /* Translators: the settings file had an entry that was not used */
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Not used"));
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("dialog-warning-symbolic"));
      gtk_list_box_append (self->overrides_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->overrides_group), overridden->len + warnings->len > 0);
}

/* How the figure is computed, its threshold, where it came from and the
 * ops that pull it down: what a tile says on hover. */
static char *
dup_performance_tooltip (const SlPerformanceItem *item)
{
  g_autoptr(GString) text = g_string_new (item->how);
  g_autofree char *n_ops = sl_count_format (item->n_ops);

  if (item->threshold != NULL)
    g_string_append_printf (text, "\n\n%s", item->threshold);
  if (item->n_ops > 0 && item->file != NULL)
    /* Translators: how many ops a figure of the performance report is computed from, and their file */
    g_string_append_printf (text, ngettext ("\n\nFrom %s op in %s", "\n\nFrom %s ops in %s", item->n_ops),
                            n_ops, item->file);
  else if (item->n_ops > 0)
    /* Translators: how many ops a figure of the performance report is computed from */
    g_string_append_printf (text, ngettext ("\n\nFrom %s op", "\n\nFrom %s ops", item->n_ops), n_ops);
  if (item->worst_ops != NULL && item->worst_ops[0] != NULL)
    {
      g_autofree char *names = g_strjoinv ("\n  ", item->worst_ops);

      /* Translators: followed by op names, one per line */
      g_string_append_printf (text, "\n\n%s\n  %s", _("The longest ops outside the threshold:"), names);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static GtkWidget *
new_performance_tile (const SlPerformanceItem *item)
{
  GtkWidget *tile = sl_performance_tile_new (item);
  g_autofree char *tooltip = dup_performance_tooltip (item);

  gtk_widget_set_tooltip_text (tile, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (tile), GTK_ACCESSIBLE_PROPERTY_LABEL, item->label,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tooltip, -1);
  return tile;
}

static const SlPerformanceSection *
shown_performance (SlAdvisorView *self)
{
  SlPerformanceReport *performance = sl_advisor_report_get_performance (self->report);

  for (guint i = 0; i < sl_performance_report_get_n_sections (performance); i++)
    {
      const SlPerformanceSection *section = sl_performance_report_get_section (performance, i);

      if (shown_on_rank (self, section->rank_label))
        return section;
    }
  return NULL;
}

/* The figures this rank has as tiles; the others in one line saying
 * what to collect, so the group never fills with dashes. */
static void
fill_performance (SlAdvisorView *self)
{
  const SlPerformanceSection *section;
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autoptr(GPtrArray) hints = g_ptr_array_new ();
  g_autoptr(GString) suspect = g_string_new (NULL);
  g_autoptr(GPtrArray) suspect_hints = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_tiles = 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->performance_box))) != NULL)
    gtk_flow_box_remove (self->performance_box, child);
  section = self->report != NULL ? shown_performance (self) : NULL;
  for (guint i = 0; section != NULL && i < section->items->len; i++)
    {
      const SlPerformanceItem *item = g_ptr_array_index (section->items, i);

      if (item->suspect != NULL)
        {
          /* Never a graded tile: the data it would come from cannot be right. */
          if (suspect->len > 0)
            g_string_append (suspect, ", ");
          g_string_append (suspect, item->label);
          if (!g_ptr_array_find_with_equal_func (suspect_hints, item->suspect, g_str_equal, NULL))
            g_ptr_array_add (suspect_hints, item->suspect);
          continue;
        }
      if (item->missing == NULL)
        {
          gtk_flow_box_append (self->performance_box, new_performance_tile (item));
          n_tiles++;
          continue;
        }
      if (missing->len > 0)
        g_string_append (missing, ", ");
      g_string_append (missing, item->label);
      if (!g_ptr_array_find_with_equal_func (hints, item->missing, g_str_equal, NULL))
        g_ptr_array_add (hints, item->missing);
    }
  if (suspect->len > 0)
    {
      /* Translators: followed by the names of figures whose data cannot be right */
      g_string_append_printf (text, _("Not graded, suspect data: %s."), suspect->str);
      for (guint i = 0; i < suspect_hints->len; i++)
        g_string_append_printf (text, "\n• %s", (const char *)g_ptr_array_index (suspect_hints, i));
    }
  if (missing->len > 0)
    {
      if (text->len > 0)
        g_string_append (text, "\n");
      /* Translators: followed by the names of figures the profile cannot give */
      g_string_append_printf (text, _("Not in this profile: %s."), missing->str);
      for (guint i = 0; i < hints->len; i++)
        g_string_append_printf (text, "\n• %s", (const char *)g_ptr_array_index (hints, i));
    }
  if (text->len > 0)
    gtk_label_set_label (self->performance_missing_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->performance_missing_label), text->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->performance_box), n_tiles > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->performance_group), section != NULL && (n_tiles > 0 || text->len > 0));
}

static void
set_count (GtkLabel *label,
           guint     count)
{
  g_autofree char *text = g_strdup_printf ("%u", count);

  gtk_label_set_label (label, text);
}

static void
rebuild (SlAdvisorView *self)
{
  GPtrArray *items[3];
  AdwPreferencesGroup *groups[] = { self->low_group, self->medium_group, self->high_group };
  SlAdvisorRuleBook *book;
  GListModel *findings;
  g_autofree char *summary = NULL;
  g_autofree char *high = NULL;
  g_autofree char *medium = NULL;
  g_autofree char *n_rules = NULL;
  guint n_findings;

  g_clear_object (&self->selected);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
  for (guint s = 0; s < G_N_ELEMENTS (self->findings); s++)
    {
      g_list_store_remove_all (self->findings[s]);
      self->n_shown[s] = 0;
    }
  clear_list (self->not_run_list);
  self->n_not_run_shown = 0;
  if (self->report == NULL)
    return;

  findings = sl_advisor_report_get_findings (self->report);
  n_findings = g_list_model_get_n_items (findings);
  for (guint s = 0; s < G_N_ELEMENTS (items); s++)
    items[s] = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_findings; i++)
    {
      g_autoptr(SlAdvisorFinding) finding = g_list_model_get_item (findings, i);
      SlAdvisorSeverity severity = CLAMP (sl_advisor_finding_get_severity (finding), SL_ADVISOR_SEVERITY_LOW,
                                          SL_ADVISOR_SEVERITY_HIGH);

      if (!shown_on_rank (self, sl_advisor_finding_get_rank_label (finding)))
        continue;
      g_ptr_array_add (items[severity], sl_advisor_finding_item_new (finding, i, self->unit));
      self->n_shown[severity]++;
    }
  for (guint s = 0; s < G_N_ELEMENTS (items); s++)
    {
      g_list_store_splice (self->findings[s], 0, 0, items[s]->pdata, items[s]->len);
      g_ptr_array_unref (items[s]);
    }
  for (guint i = 0; i < sl_advisor_report_get_n_not_run (self->report); i++)
    {
      const SlAdvisorSkip *skip = sl_advisor_report_get_not_run (self->report, i);

      if (!shown_on_rank (self, skip->rank_label))
        continue;
      gtk_list_box_append (self->not_run_list, sl_advisor_skip_row_new (rule_title (skip->rule), skip));
      self->n_not_run_shown++;
    }

  for (guint s = 0; s < G_N_ELEMENTS (groups); s++)
    gtk_widget_set_visible (GTK_WIDGET (groups[s]), self->n_shown[s] > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->none_group),
                          self->n_shown[0] + self->n_shown[1] + self->n_shown[2] == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->not_run_group), self->n_not_run_shown > 0);
  set_count (self->high_count, self->n_shown[SL_ADVISOR_SEVERITY_HIGH]);
  set_count (self->medium_count, self->n_shown[SL_ADVISOR_SEVERITY_MEDIUM]);
  set_count (self->low_count, self->n_shown[SL_ADVISOR_SEVERITY_LOW]);
  set_count (self->not_run_count, self->n_not_run_shown);

  book = sl_advisor_report_get_rule_book (self->report);
  high = sl_advisor_item_format_percent (sl_advisor_rule_book_get_high_percent (book));
  medium = sl_advisor_item_format_percent (sl_advisor_rule_book_get_medium_percent (book));
  /* Translators: the rule book's version, its number of rules, the rank
   * shown and the shares of the step that make a finding high or medium */
  n_rules = sl_count_format (sl_advisor_rule_book_get_n_rules (book));
  summary = g_strdup_printf (_("Rule book version %lld, %s rules, on %s. A finding is high when its time is "
                               "%s of the step or more, medium from %s."),
                             (long long)sl_advisor_rule_book_get_version (book), n_rules,
                             self->rank_label != NULL ? self->rank_label : sl_advisor_report_get_path (self->report),
                             high, medium);
  gtk_label_set_label (self->summary_label, summary);
  /* Translators: under the High heading: what makes a finding high */
  {
    g_autofree char *text = g_strdup_printf (_("Each takes %s of a step or more"), high);
    g_autofree char *medium_text = g_strdup_printf (_("Each takes %s of a step or more, or is graded medium by its rule"), medium);

    adw_preferences_group_set_description (self->high_group, text);
    adw_preferences_group_set_description (self->medium_group, medium_text);
    adw_preferences_group_set_description (self->low_group, _("Small now, worth a look when the larger ones are fixed"));
  }
  fill_overrides (self);
  fill_performance (self);
}

static SlAdvisorFinding *
finding_at (SlAdvisorView *self,
            guint          index)
{
  if (self->report == NULL || index >= g_list_model_get_n_items (sl_advisor_report_get_findings (self->report)))
    return NULL;
  return g_list_model_get_item (sl_advisor_report_get_findings (self->report), index);
}

static void
emit_link (SlAdvisorView *self,
           guint          index,
           guint          link)
{
  g_autoptr(SlAdvisorFinding) finding = finding_at (self, index);

  if (finding == NULL)
    return;
  switch (link)
    {
    case LINK_OPS: g_signal_emit (self, signals[SHOW_OPS], 0, finding); break;
    case LINK_TIMELINE: g_signal_emit (self, signals[SHOW_ON_TIMELINE], 0, finding); break;
    case LINK_GRAPH: g_signal_emit (self, signals[SHOW_IN_GRAPH], 0, finding); break;
    default: break;
    }
}

static void
show_ops_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  emit_link (SL_ADVISOR_VIEW (widget), g_variant_get_uint32 (param), LINK_OPS);
}

static void
show_on_timeline_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  emit_link (SL_ADVISOR_VIEW (widget), g_variant_get_uint32 (param), LINK_TIMELINE);
}

static void
show_in_graph_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  emit_link (SL_ADVISOR_VIEW (widget), g_variant_get_uint32 (param), LINK_GRAPH);
}

static void
show_op_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  g_signal_emit (widget, signals[SHOW_OP], 0, g_variant_get_string (param, NULL));
}

static void
show_op_on_timeline_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *param)
{
  g_signal_emit (widget, signals[SHOW_OP_ON_TIMELINE], 0, g_variant_get_string (param, NULL));
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  const char *text = g_variant_get_string (param, NULL);
  g_autofree char *toast = g_strdup_printf (_("Copied “%s”"), text);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  gtk_widget_activate_action (widget, "win.toast", "s", toast);
}

static void
toggle_cb (GtkToggleButton *button,
           GParamSpec      *pspec,
           gpointer         user_data)
{
  /* Active is collapsed, so an open section's button stays flat. */
  gtk_button_set_icon_name (GTK_BUTTON (button), gtk_toggle_button_get_active (button) ? "pan-end-symbolic"
                                                                                       : "pan-down-symbolic");
}

/* An evidence row naming an op: the finding in the high half, the row in
 * the low half, with the top bit set. */
#define EVIDENCE_LINK (G_GUINT64_CONSTANT (1) << 63)

static void
details_link_cb (GObject *object,
                 guint64  target)
{
  SlAdvisorView *self = SL_ADVISOR_VIEW (object);

  if (target & EVIDENCE_LINK)
    {
      g_autoptr(SlAdvisorFinding) finding = finding_at (self, (guint)((target & ~EVIDENCE_LINK) >> 32));
      guint row = (guint)(target & G_MAXUINT32);

      if (finding != NULL && row < sl_advisor_finding_get_n_evidence (finding))
        g_signal_emit (self, signals[SHOW_OP], 0, sl_advisor_finding_get_evidence (finding, row)->label);
      return;
    }
  emit_link (self, (guint)(target / N_LINKS), (guint)(target % N_LINKS));
}

/**
 * sl_advisor_view_show_details:
 *
 * Fills @details with the selected finding: its numbers, every piece of
 * evidence and its links.
 *
 * Returns: whether a finding is selected
 */
gboolean
sl_advisor_view_show_details (SlAdvisorView  *self,
                              SlDescription  *details)
{
  SlAdvisorFinding *finding;
  GListModel *findings;
  g_autofree char *time = NULL;
  g_autofree char *share = NULL;
  g_autofree char *saving = NULL;
  g_autofree char *saving_share = NULL;
  g_autofree char *saving_text = NULL;
  guint index = 0, n;
  GPtrArray *ops;

  g_return_val_if_fail (SL_IS_ADVISOR_VIEW (self), FALSE);
  g_return_val_if_fail (SL_IS_DESCRIPTION (details), FALSE);

  if ((finding = self->selected) == NULL || self->report == NULL)
    return FALSE;
  findings = sl_advisor_report_get_findings (self->report);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlAdvisorFinding) item = g_list_model_get_item (findings, i);

      if (item == finding)
        index = i;
    }

  time = sl_advisor_item_format_time (sl_advisor_finding_get_time_ns (finding), self->unit);
  share = sl_advisor_item_format_percent (sl_advisor_finding_get_step_percent (finding));
  saving = sl_advisor_item_format_time (sl_advisor_finding_get_saving_ns (finding), self->unit);
  saving_share = sl_advisor_item_format_percent (sl_advisor_finding_get_saving_percent (finding));
  saving_text = g_strdup_printf ("%s (%s)", saving, saving_share);
  {
    const char *rank = sl_advisor_finding_get_rank_label (finding);
    const char *rows[] = {
      _("Rule"), sl_advisor_finding_get_rule (finding),
      _("Rank"), rank != NULL && rank[0] ? rank : _("All ranks"),
      _("Severity"), sl_advisor_severity_label (sl_advisor_finding_get_severity (finding)),
      _("Time per step"), time,
      _("Share of the step"), share,
      _("Estimated saving"), saving_text,
      _("Assumption"), sl_advisor_finding_get_assumption (finding) ? sl_advisor_finding_get_assumption (finding) : "",
      _("Message"), sl_advisor_finding_get_message (finding),
      _("Recommendation"), sl_advisor_finding_get_recommendation (finding),
      NULL
    };

    sl_description_show_rows (details, G_OBJECT (finding), sl_advisor_severity_icon (sl_advisor_finding_get_severity (finding)),
                                sl_advisor_finding_get_title (finding), rows);
  }

  n = sl_advisor_finding_get_n_evidence (finding);
  for (guint i = 0; i < MIN (n, MAX_DETAILS_EVIDENCE); i++)
    {
      const SlAdvisorEvidence *evidence = sl_advisor_finding_get_evidence (finding, i);
      g_autofree char *where = sl_advisor_evidence_format_location (evidence, FALSE);
      g_autofree char *value = where != NULL ? g_strdup_printf ("%s — %s", evidence->value, where)
                                             : g_strdup (evidence->value);
      const char *rows[] = { evidence->label, value, NULL };

      if (names_op (finding, evidence->label))
        sl_description_add_object_link (details, evidence->label, value, G_OBJECT (self), details_link_cb,
                                          EVIDENCE_LINK | ((guint64)index << 32) | i);
      else
        sl_description_add_rows (details, rows);
    }

  ops = sl_advisor_finding_get_ops (finding);
  if (sl_advisor_finding_get_filter_text (finding) != NULL && sl_advisor_finding_get_filter_text (finding)[0])
    {
      g_autofree char *n_ops = sl_count_format (ops->len);
      g_autofree char *text = ops->len > 0
        /* Translators: a Details link listing exactly the ops of a finding */
        ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Show the op", "Show all %s ops", ops->len), n_ops)
        : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Show %s op, filtered by “%s”",
                                        "Show %s ops, filtered by “%s”", ops->len),
                           n_ops, sl_advisor_finding_get_filter_text (finding));

      sl_description_add_object_link (details, _("Operators"), text, G_OBJECT (self), details_link_cb,
                                        (guint64)index * N_LINKS + LINK_OPS);
    }
  if (sl_advisor_finding_get_range_start_ns (finding) >= 0 && sl_advisor_finding_get_range_end_ns (finding) >= 0)
    {
      g_autofree char *length = sl_advisor_item_format_time (sl_advisor_finding_get_range_end_ns (finding) -
                                                   sl_advisor_finding_get_range_start_ns (finding), self->unit);
      /* Translators: a link to the step the finding is about, with its length */
      g_autofree char *text = g_strdup_printf (_("Show the step (%s)"), length);

      sl_description_add_object_link (details, _("Timeline"), text, G_OBJECT (self), details_link_cb,
                                        (guint64)index * N_LINKS + LINK_TIMELINE);
    }
  if (sl_advisor_finding_get_graph_op (finding) != NULL)
    sl_description_add_object_link (details, _("Graph"), sl_advisor_finding_get_graph_op (finding), G_OBJECT (self),
                                      details_link_cb, (guint64)index * N_LINKS + LINK_GRAPH);
  return TRUE;
}

static void
sl_advisor_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SlAdvisorView *self = SL_ADVISOR_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      g_value_set_object (value, self->selected);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_advisor_view_dispose (GObject *object)
{
  SlAdvisorView *self = SL_ADVISOR_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_ADVISOR_VIEW);
  g_clear_object (&self->selected);
  g_clear_object (&self->report);
  g_clear_pointer (&self->rank_label, g_free);
  for (guint s = 0; s < G_N_ELEMENTS (self->findings); s++)
    g_clear_object (&self->findings[s]);

  G_OBJECT_CLASS (sl_advisor_view_parent_class)->dispose (object);
}

/* The stack shows the view's state: nothing reads it back */
static char *
state_child_name (gpointer        instance,
                  SlDocumentState state)
{
  switch (state)
    {
    case SL_DOCUMENT_LOADING:
    case SL_DOCUMENT_EMPTY:
      return g_strdup ("running");
    case SL_DOCUMENT_FAILED:
      return g_strdup ("failed");
    case SL_DOCUMENT_READY:
    default:
      return g_strdup ("report");
    }
}

static void
sl_advisor_view_class_init (SlAdvisorViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_advisor_view_dispose;
  object_class->get_property = sl_advisor_view_get_property;

  /**
   * SlAdvisorView:selected:
   *
   * The finding last expanded, for Details.
   */
  properties[PROP_SELECTED] =
    g_param_spec_object ("selected", NULL, NULL, SL_TYPE_ADVISOR_FINDING,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlAdvisorView:state:
   *
   * Whether the advisor still runs (loading), failed, or its report shows (ready).
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, SL_TYPE_DOCUMENT_STATE, SL_DOCUMENT_LOADING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlAdvisorView::show-ops:
   * @finding: lists its ops by its filter text
   */
  signals[SHOW_OPS] =
    g_signal_new ("show-ops", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, SL_TYPE_ADVISOR_FINDING);
  /**
   * SlAdvisorView::show-on-timeline:
   * @finding: shows its time range, in the step trace's clock
   */
  signals[SHOW_ON_TIMELINE] =
    g_signal_new ("show-on-timeline", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, SL_TYPE_ADVISOR_FINDING);
  /**
   * SlAdvisorView::show-in-graph:
   * @finding: shows its graph op
   */
  signals[SHOW_IN_GRAPH] =
    g_signal_new ("show-in-graph", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, SL_TYPE_ADVISOR_FINDING);

  /**
   * SlAdvisorView::show-op:
   * @name: an op named in a finding, to show in Operators
   */
  signals[SHOW_OP] =
    g_signal_new ("show-op", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * SlAdvisorView::show-op-on-timeline:
   * @name: an op named in a finding, to show on the timeline
   */
  signals[SHOW_OP_ON_TIMELINE] =
    g_signal_new ("show-op-on-timeline", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-advisor-view.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, stack);
  gtk_widget_class_bind_template_callback (widget_class, state_child_name);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, spinner);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, high_count);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, medium_count);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, low_count);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, not_run_count);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, overrides_group);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, overrides_list);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, none_group);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, high_group);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, medium_group);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, low_group);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, high_list);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, medium_list);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, low_list);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, not_run_group);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, not_run_list);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, performance_group);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, performance_box);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorView, performance_missing_label);
  gtk_widget_class_bind_template_callback (widget_class, toggle_cb);

  gtk_widget_class_install_action (widget_class, "advisor.show-ops", "u", show_ops_action);
  gtk_widget_class_install_action (widget_class, "advisor.show-on-timeline", "u", show_on_timeline_action);
  gtk_widget_class_install_action (widget_class, "advisor.show-in-graph", "u", show_in_graph_action);
  gtk_widget_class_install_action (widget_class, "advisor.copy", "s", copy_action);
  gtk_widget_class_install_action (widget_class, "advisor.show-op", "s", show_op_action);
  gtk_widget_class_install_action (widget_class, "advisor.show-op-on-timeline", "s", show_op_on_timeline_action);
}

static void
sl_advisor_view_init (SlAdvisorView *self)
{
  GtkListBox *lists[] = { NULL, NULL, NULL };

  gtk_widget_init_template (GTK_WIDGET (self));
  lists[SL_ADVISOR_SEVERITY_LOW] = self->low_list;
  lists[SL_ADVISOR_SEVERITY_MEDIUM] = self->medium_list;
  lists[SL_ADVISOR_SEVERITY_HIGH] = self->high_list;
  for (guint s = 0; s < G_N_ELEMENTS (self->findings); s++)
    {
      self->findings[s] = g_list_store_new (SL_TYPE_ADVISOR_FINDING_ITEM);
      gtk_list_box_bind_model (lists[s], G_LIST_MODEL (self->findings[s]), create_finding_row, self, NULL);
    }
}

GtkWidget *
sl_advisor_view_new (void)
{
  return g_object_new (SL_TYPE_ADVISOR_VIEW, NULL);
}

/**
 * sl_advisor_view_set_running:
 *
 * Shows a spinner until a report or an error is set.
 */
static void
set_state (SlAdvisorView   *self,
           SlDocumentState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

void
sl_advisor_view_set_running (SlAdvisorView *self)
{
  g_return_if_fail (SL_IS_ADVISOR_VIEW (self));

  gtk_spinner_start (self->spinner);
  set_state (self, SL_DOCUMENT_LOADING);
}

void
sl_advisor_view_set_error (SlAdvisorView *self,
                           const char    *message)
{
  g_return_if_fail (SL_IS_ADVISOR_VIEW (self));

  gtk_spinner_stop (self->spinner);
  adw_status_page_set_description (self->failed_page, message);
  set_state (self, SL_DOCUMENT_FAILED);
}

void
sl_advisor_view_set_report (SlAdvisorView   *self,
                            SlAdvisorReport *report)
{
  g_return_if_fail (SL_IS_ADVISOR_VIEW (self));
  g_return_if_fail (report == NULL || SL_IS_ADVISOR_REPORT (report));

  g_set_object (&self->report, report);
  gtk_spinner_stop (self->spinner);
  rebuild (self);
  set_state (self, report != NULL ? SL_DOCUMENT_READY : SL_DOCUMENT_LOADING);
}

SlAdvisorReport *
sl_advisor_view_get_report (SlAdvisorView *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_VIEW (self), NULL);
  return self->report;
}

/**
 * sl_advisor_view_set_rank_label:
 * @rank_label: (nullable): the rank whose findings to show, or %NULL for all
 */
void
sl_advisor_view_set_rank_label (SlAdvisorView *self,
                                const char    *rank_label)
{
  g_return_if_fail (SL_IS_ADVISOR_VIEW (self));

  if (g_strcmp0 (self->rank_label, rank_label) == 0)
    return;
  g_free (self->rank_label);
  self->rank_label = g_strdup (rank_label);
  rebuild (self);
}

void
sl_advisor_view_set_time_unit (SlAdvisorView *self,
                               SlTimeUnit     unit)
{
  g_return_if_fail (SL_IS_ADVISOR_VIEW (self));

  if (self->unit == unit)
    return;
  self->unit = unit;
  rebuild (self);
}

/**
 * sl_advisor_view_get_state:
 *
 * Returns: %SL_DOCUMENT_LOADING while the advisor runs, then
 *   %SL_DOCUMENT_FAILED or %SL_DOCUMENT_READY (its report shows)
 */
SlDocumentState
sl_advisor_view_get_state (SlAdvisorView *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_VIEW (self), SL_DOCUMENT_LOADING);
  return self->state;
}

/* How many findings of @severity the rank shown has. */
guint
sl_advisor_view_get_n_shown (SlAdvisorView     *self,
                             SlAdvisorSeverity  severity)
{
  g_return_val_if_fail (SL_IS_ADVISOR_VIEW (self), 0);
  g_return_val_if_fail (severity <= SL_ADVISOR_SEVERITY_HIGH, 0);
  return self->n_shown[severity];
}

guint
sl_advisor_view_get_n_not_run_shown (SlAdvisorView *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_VIEW (self), 0);
  return self->n_not_run_shown;
}

SlAdvisorFinding *
sl_advisor_view_get_selected (SlAdvisorView *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_VIEW (self), NULL);
  return self->selected;
}

/**
 * sl_advisor_view_select:
 * @finding: (nullable): a finding of the report shown
 *
 * Makes @finding the one Details shows.
 */
void
sl_advisor_view_select (SlAdvisorView    *self,
                        SlAdvisorFinding *finding)
{
  g_return_if_fail (SL_IS_ADVISOR_VIEW (self));
  g_return_if_fail (finding == NULL || SL_IS_ADVISOR_FINDING (finding));

  if (g_set_object (&self->selected, finding))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}
