/* sl-advisor-finding.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-advisor-finding.h"

struct _SlAdvisorFinding
{
  GObject            parent_instance;
  char              *rule;
  char              *rank_label;
  SlAdvisorSeverity  severity;
  char              *title;
  char              *message;
  char              *recommendation;
  char              *assumption;
  gint64             time_ns;
  double             step_percent;
  gint64             saving_ns;
  double             saving_percent;
  GArray            *evidence;   /* SlAdvisorEvidence */
  GPtrArray         *ops;
  char              *filter_text;
  gint64             range_start_ns;
  gint64             range_end_ns;
  char              *graph_op;
};

G_DEFINE_FINAL_TYPE (SlAdvisorFinding, sl_advisor_finding, G_TYPE_OBJECT)

static void
evidence_clear (SlAdvisorEvidence *evidence)
{
  g_free (evidence->label);
  g_free (evidence->value);
  g_free (evidence->file);
}

static void
sl_advisor_finding_finalize (GObject *object)
{
  SlAdvisorFinding *self = (SlAdvisorFinding *)object;

  g_clear_pointer (&self->rule, g_free);
  g_clear_pointer (&self->rank_label, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->message, g_free);
  g_clear_pointer (&self->recommendation, g_free);
  g_clear_pointer (&self->assumption, g_free);
  g_clear_pointer (&self->evidence, g_array_unref);
  g_clear_pointer (&self->ops, g_ptr_array_unref);
  g_clear_pointer (&self->filter_text, g_free);
  g_clear_pointer (&self->graph_op, g_free);

  G_OBJECT_CLASS (sl_advisor_finding_parent_class)->finalize (object);
}

static void
sl_advisor_finding_class_init (SlAdvisorFindingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_advisor_finding_finalize;
}

static void
sl_advisor_finding_init (SlAdvisorFinding *self)
{
  self->evidence = g_array_new (FALSE, TRUE, sizeof (SlAdvisorEvidence));
  g_array_set_clear_func (self->evidence, (GDestroyNotify)evidence_clear);
  self->ops = g_ptr_array_new_with_free_func (g_object_unref);
  self->time_ns = -1;
  self->step_percent = -1;
  self->saving_ns = -1;
  self->saving_percent = -1;
  self->range_start_ns = -1;
  self->range_end_ns = -1;
}

SlAdvisorFinding *
sl_advisor_finding_new (const char *rule,
                        const char *rank_label)
{
  SlAdvisorFinding *self;

  g_return_val_if_fail (rule != NULL, NULL);

  self = g_object_new (SL_TYPE_ADVISOR_FINDING, NULL);
  self->rule = g_strdup (rule);
  self->rank_label = g_strdup (rank_label != NULL ? rank_label : "");
  return self;
}

const char *
sl_advisor_finding_get_rule (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->rule;
}

const char *
sl_advisor_finding_get_rank_label (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->rank_label;
}

SlAdvisorSeverity
sl_advisor_finding_get_severity (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), SL_ADVISOR_SEVERITY_LOW);
  return self->severity;
}

const char *
sl_advisor_finding_get_title (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->title != NULL ? self->title : "";
}

const char *
sl_advisor_finding_get_message (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->message != NULL ? self->message : "";
}

const char *
sl_advisor_finding_get_recommendation (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->recommendation != NULL ? self->recommendation : "";
}

const char *
sl_advisor_finding_get_assumption (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->assumption != NULL ? self->assumption : "";
}

gint64
sl_advisor_finding_get_time_ns (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), -1);
  return self->time_ns;
}

double
sl_advisor_finding_get_step_percent (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), -1);
  return self->step_percent;
}

gint64
sl_advisor_finding_get_saving_ns (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), -1);
  return self->saving_ns;
}

double
sl_advisor_finding_get_saving_percent (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), -1);
  return self->saving_percent;
}

guint
sl_advisor_finding_get_n_evidence (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), 0);
  return self->evidence->len;
}

const SlAdvisorEvidence *
sl_advisor_finding_get_evidence (SlAdvisorFinding *self,
                                 guint             index)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  g_return_val_if_fail (index < self->evidence->len, NULL);
  return &g_array_index (self->evidence, SlAdvisorEvidence, index);
}

/**
 * sl_advisor_finding_get_ops:
 *
 * Returns: (transfer none) (element-type SlOpRow): the ops involved
 */
GPtrArray *
sl_advisor_finding_get_ops (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->ops;
}

const char *
sl_advisor_finding_get_filter_text (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->filter_text;
}

gint64
sl_advisor_finding_get_range_start_ns (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), -1);
  return self->range_start_ns;
}

gint64
sl_advisor_finding_get_range_end_ns (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), -1);
  return self->range_end_ns;
}

const char *
sl_advisor_finding_get_graph_op (SlAdvisorFinding *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (self), NULL);
  return self->graph_op;
}

void
sl_advisor_finding_set_texts (SlAdvisorFinding *self,
                              const char       *title,
                              const char       *message,
                              const char       *recommendation,
                              const char       *assumption)
{
  g_return_if_fail (SL_IS_ADVISOR_FINDING (self));

  g_free (self->title);
  self->title = g_strdup (title);
  g_free (self->message);
  self->message = g_strdup (message);
  g_free (self->recommendation);
  self->recommendation = g_strdup (recommendation);
  g_free (self->assumption);
  self->assumption = g_strdup (assumption);
}

void
sl_advisor_finding_set_time (SlAdvisorFinding  *self,
                             SlAdvisorSeverity  severity,
                             gint64             time_ns,
                             double             step_percent,
                             gint64             saving_ns,
                             double             saving_percent)
{
  g_return_if_fail (SL_IS_ADVISOR_FINDING (self));

  self->severity = severity;
  self->time_ns = time_ns;
  self->step_percent = step_percent;
  self->saving_ns = saving_ns;
  self->saving_percent = saving_percent;
}

void
sl_advisor_finding_add_evidence (SlAdvisorFinding *self,
                                 const char       *label,
                                 const char       *value,
                                 const char       *file,
                                 guint             row,
                                 gint64            offset)
{
  SlAdvisorEvidence evidence;

  g_return_if_fail (SL_IS_ADVISOR_FINDING (self));
  g_return_if_fail (label != NULL);

  evidence.label = g_strdup (label);
  evidence.value = g_strdup (value != NULL ? value : "");
  evidence.file = g_strdup (file != NULL ? file : "");
  evidence.row = row;
  evidence.offset = row > 0 ? -1 : offset;
  g_array_append_val (self->evidence, evidence);
}

void
sl_advisor_finding_add_op (SlAdvisorFinding *self,
                           SlOpRow          *op)
{
  g_return_if_fail (SL_IS_ADVISOR_FINDING (self));
  g_return_if_fail (SL_IS_OP_ROW (op));

  g_ptr_array_add (self->ops, g_object_ref (op));
}

void
sl_advisor_finding_set_jump (SlAdvisorFinding *self,
                             const char       *filter_text,
                             gint64            range_start_ns,
                             gint64            range_end_ns,
                             const char       *graph_op)
{
  g_return_if_fail (SL_IS_ADVISOR_FINDING (self));

  g_free (self->filter_text);
  self->filter_text = g_strdup (filter_text);
  self->range_start_ns = range_start_ns;
  self->range_end_ns = range_end_ns;
  g_free (self->graph_op);
  self->graph_op = g_strdup (graph_op);
}

const char *
sl_advisor_severity_to_string (SlAdvisorSeverity severity)
{
  switch (severity)
    {
    case SL_ADVISOR_SEVERITY_HIGH: return "high";
    case SL_ADVISOR_SEVERITY_MEDIUM: return "medium";
    case SL_ADVISOR_SEVERITY_LOW:
    default: return "low";
    }
}
