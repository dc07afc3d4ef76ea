/* sl-advisor-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-advisor-report.h"

struct _SlAdvisorReport
{
  GObject            parent_instance;
  char              *path;
  SlAdvisorRuleBook *book;
  GPtrArray         *pending;    /* SlAdvisorFinding, until finish */
  GListStore        *findings;
  GArray            *not_run;    /* SlAdvisorSkip */
  SlPerformanceReport *performance;
};

G_DEFINE_FINAL_TYPE (SlAdvisorReport, sl_advisor_report, G_TYPE_OBJECT)

static void
skip_clear (SlAdvisorSkip *skip)
{
  g_free (skip->rule);
  g_free (skip->rank_label);
  g_free (skip->reason);
  g_free (skip->enable);
  g_strfreev (skip->looked_in);
}

static void
sl_advisor_report_finalize (GObject *object)
{
  SlAdvisorReport *self = (SlAdvisorReport *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_object (&self->book);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_object (&self->findings);
  g_clear_pointer (&self->not_run, g_array_unref);
  g_clear_object (&self->performance);

  G_OBJECT_CLASS (sl_advisor_report_parent_class)->finalize (object);
}

static void
sl_advisor_report_class_init (SlAdvisorReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_advisor_report_finalize;
}

static void
sl_advisor_report_init (SlAdvisorReport *self)
{
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->findings = g_list_store_new (SL_TYPE_ADVISOR_FINDING);
  self->not_run = g_array_new (FALSE, TRUE, sizeof (SlAdvisorSkip));
  g_array_set_clear_func (self->not_run, (GDestroyNotify)skip_clear);
  self->performance = sl_performance_report_new ();
}

SlAdvisorReport *
sl_advisor_report_new (const char        *path,
                       SlAdvisorRuleBook *book)
{
  SlAdvisorReport *self;

  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (book), NULL);

  self = g_object_new (SL_TYPE_ADVISOR_REPORT, NULL);
  self->path = g_strdup (path != NULL ? path : "");
  self->book = g_object_ref (book);
  return self;
}

const char *
sl_advisor_report_get_path (SlAdvisorReport *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_REPORT (self), NULL);
  return self->path;
}

SlAdvisorRuleBook *
sl_advisor_report_get_rule_book (SlAdvisorReport *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_REPORT (self), NULL);
  return self->book;
}

/**
 * sl_advisor_report_get_findings:
 *
 * Returns: (transfer none): SlAdvisorFinding, most severe first
 */
GListModel *
sl_advisor_report_get_findings (SlAdvisorReport *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_REPORT (self), NULL);
  return G_LIST_MODEL (self->findings);
}

guint
sl_advisor_report_get_n_not_run (SlAdvisorReport *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_REPORT (self), 0);
  return self->not_run->len;
}

const SlAdvisorSkip *
sl_advisor_report_get_not_run (SlAdvisorReport *self,
                               guint            index)
{
  g_return_val_if_fail (SL_IS_ADVISOR_REPORT (self), NULL);
  g_return_val_if_fail (index < self->not_run->len, NULL);
  return &g_array_index (self->not_run, SlAdvisorSkip, index);
}

void
sl_advisor_report_add_finding (SlAdvisorReport  *self,
                               SlAdvisorFinding *finding)
{
  g_return_if_fail (SL_IS_ADVISOR_REPORT (self));
  g_return_if_fail (SL_IS_ADVISOR_FINDING (finding));

  g_ptr_array_add (self->pending, g_object_ref (finding));
}

void
sl_advisor_report_add_not_run (SlAdvisorReport   *self,
                               const char        *rule,
                               const char        *rank_label,
                               const char        *reason,
                               const char        *enable,
                               const char *const *looked_in)
{
  SlAdvisorSkip skip;

  g_return_if_fail (SL_IS_ADVISOR_REPORT (self));
  g_return_if_fail (rule != NULL && reason != NULL);

  skip.rule = g_strdup (rule);
  skip.rank_label = g_strdup (rank_label != NULL ? rank_label : "");
  skip.reason = g_strdup (reason);
  skip.enable = g_strdup (enable != NULL ? enable : "");
  skip.looked_in = looked_in != NULL ? g_strdupv ((char **)looked_in) : g_new0 (char *, 1);
  g_array_append_val (self->not_run, skip);
}

static int
compare_findings (gconstpointer a,
                  gconstpointer b)
{
  SlAdvisorFinding *fa = *(SlAdvisorFinding **)a;
  SlAdvisorFinding *fb = *(SlAdvisorFinding **)b;
  SlAdvisorSeverity sa = sl_advisor_finding_get_severity (fa), sb = sl_advisor_finding_get_severity (fb);
  gint64 va = sl_advisor_finding_get_saving_ns (fa), vb = sl_advisor_finding_get_saving_ns (fb);

  if (sa != sb)
    return sa > sb ? -1 : 1;
  if (va != vb)
    return va > vb ? -1 : 1;
  return g_strcmp0 (sl_advisor_finding_get_rule (fa), sl_advisor_finding_get_rule (fb));
}

void
sl_advisor_report_finish (SlAdvisorReport *self)
{
  g_return_if_fail (SL_IS_ADVISOR_REPORT (self));

  /* A stable order, so reports of the same profile compare line by line. */
  g_ptr_array_sort (self->pending, compare_findings);
  g_list_store_splice (self->findings, g_list_model_get_n_items (G_LIST_MODEL (self->findings)), 0,
                       self->pending->pdata, self->pending->len);
  g_ptr_array_set_size (self->pending, 0);
}

/**
 * sl_advisor_report_get_performance:
 *
 * Returns: (transfer none): the model performance report of each rank
 */
SlPerformanceReport *
sl_advisor_report_get_performance (SlAdvisorReport *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_REPORT (self), NULL);

  return self->performance;
}
