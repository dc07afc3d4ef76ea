/* sl-advisor-finding-item.c
 *
 * What a finding's row in the Advisor tab shows, as properties its
 * template binds: the title, a subtitle with the time and the saving in
 * the page's unit, the severity's icon, style and word, the share of the
 * step, the message and recommendation, and which links it offers. The
 * texts are made once, when the tab lists the finding in a unit; the
 * finding itself is immutable.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-advisor-finding-item.h"

struct _SlAdvisorFindingItem
{
  GObject           parent_instance;

  SlAdvisorFinding *finding;
  guint             index;
  SlTimeUnit        unit;
  char             *subtitle;
  char             *share;
  char             *recommendation;
  char             *estimate;
  char             *ops_link;
};

G_DEFINE_FINAL_TYPE (SlAdvisorFindingItem, sl_advisor_finding_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FINDING,
  PROP_INDEX,
  PROP_TARGET,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_TOOLTIP,
  PROP_SEVERITY_LABEL,
  PROP_ICON_NAME,
  PROP_SEVERITY_CLASS,
  PROP_SHARE,
  PROP_HAS_SHARE,
  PROP_MESSAGE,
  PROP_RECOMMENDATION,
  PROP_ESTIMATE,
  PROP_HAS_ESTIMATE,
  PROP_OPS_LINK,
  PROP_HAS_OPS_LINK,
  PROP_HAS_TIMELINE_LINK,
  PROP_HAS_GRAPH_LINK,
  PROP_HAS_LINKS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
sl_advisor_severity_label (SlAdvisorSeverity severity)
{
  switch (severity)
    {
    case SL_ADVISOR_SEVERITY_HIGH: return _("High");
    case SL_ADVISOR_SEVERITY_MEDIUM: return _("Medium");
    case SL_ADVISOR_SEVERITY_LOW:
    default: return _("Low");
    }
}

const char *
sl_advisor_severity_icon (SlAdvisorSeverity severity)
{
  switch (severity)
    {
    case SL_ADVISOR_SEVERITY_HIGH: return "dialog-error-symbolic";
    case SL_ADVISOR_SEVERITY_MEDIUM: return "dialog-warning-symbolic";
    case SL_ADVISOR_SEVERITY_LOW:
    default: return "dialog-information-symbolic";
    }
}

const char *
sl_advisor_severity_class (SlAdvisorSeverity severity)
{
  switch (severity)
    {
    case SL_ADVISOR_SEVERITY_HIGH: return "error";
    case SL_ADVISOR_SEVERITY_MEDIUM: return "warning";
    case SL_ADVISOR_SEVERITY_LOW:
    default: return "accent";
    }
}

char *
sl_advisor_item_format_time (gint64     ns,
                        SlTimeUnit unit)
{
  return ns < 0 ? g_strdup ("–") : sl_time_format_ns (ns, unit);
}

char *
sl_advisor_item_format_percent (double percent)
{
  if (!isfinite (percent) || percent < 0)
    return g_strdup ("–");
  /* Translators: a share of the step, e.g. "4.0 %" */
  return g_strdup_printf (_("%.1f %%"), percent);
}

/* "FILE:ROW", "FILE @ byte N" or the file alone; NULL without a file. */
char *
sl_advisor_evidence_format_location (const SlAdvisorEvidence *evidence,
                 gboolean                 basename)
{
  g_autofree char *name = NULL;

  if (evidence->file == NULL || evidence->file[0] == '\0')
    return NULL;
  name = basename ? g_path_get_basename (evidence->file) : g_strdup (evidence->file);
  if (evidence->row > 0)
    return g_strdup_printf ("%s:%u", name, evidence->row);
  if (evidence->offset >= 0)
    /* Translators: a place in a file given by its byte offset */
    return g_strdup_printf (_("%s @ byte %lld"), name, (long long)evidence->offset);
  return g_steal_pointer (&name);
}

/* The time the issue takes and what fixing it could save, one line. */
static char *
dup_numbers (SlAdvisorFinding *finding,
             SlTimeUnit        unit)
{
  g_autofree char *time = sl_advisor_item_format_time (sl_advisor_finding_get_time_ns (finding), unit);
  g_autofree char *share = sl_advisor_item_format_percent (sl_advisor_finding_get_step_percent (finding));
  g_autofree char *saving = sl_advisor_item_format_time (sl_advisor_finding_get_saving_ns (finding), unit);
  g_autofree char *saving_share = sl_advisor_item_format_percent (sl_advisor_finding_get_saving_percent (finding));

  if (sl_advisor_finding_get_time_ns (finding) < 0)
    /* Translators: a finding without a time of its own: its estimated saving */
    return sl_advisor_finding_get_saving_ns (finding) < 0 ? g_strdup ("")
           : g_strdup_printf (_("saves about %s a step (%s)"), saving, saving_share);
  if (sl_advisor_finding_get_saving_ns (finding) < 0)
    /* Translators: time per step, then its share of the step */
    return g_strdup_printf (_("%s a step, %s of the step"), time, share);
  /* Translators: time per step, its share of the step, the estimated saving and its share */
  return g_strdup_printf (_("%s a step, %s of the step · saves about %s (%s)"), time, share, saving, saving_share);
}

static void
make_texts (SlAdvisorFindingItem *self)
{
  SlAdvisorFinding *finding = self->finding;
  const char *rank = sl_advisor_finding_get_rank_label (finding);
  const char *filter = sl_advisor_finding_get_filter_text (finding);
  GPtrArray *ops = sl_advisor_finding_get_ops (finding);
  g_autofree char *n_ops = sl_count_format (ops->len);
  g_autofree char *numbers = dup_numbers (finding, self->unit);

  /* A finding over the whole profile says so; one of the rank shown
   * needs no rank. */
  if (rank == NULL || rank[0] == '\0')
    /* Translators: the subtitle of a finding about every rank together */
    self->subtitle = numbers[0] ? g_strdup_printf (_("All ranks · %s"), numbers) : g_strdup (_("All ranks"));
  else
    self->subtitle = g_steal_pointer (&numbers);

  if (sl_advisor_finding_get_step_percent (finding) >= 0)
    self->share = sl_advisor_item_format_percent (sl_advisor_finding_get_step_percent (finding));

  self->recommendation = g_markup_printf_escaped ("<b>%s</b> %s", _("Recommendation:"),
                                                  sl_advisor_finding_get_recommendation (finding));
  if (sl_advisor_finding_get_saving_ns (finding) >= 0)
    {
      g_autofree char *saving = sl_advisor_item_format_time (sl_advisor_finding_get_saving_ns (finding), self->unit);
      g_autofree char *saving_share = sl_advisor_item_format_percent (sl_advisor_finding_get_saving_percent (finding));

      /* Translators: the estimated saving per step, its share, then what the estimate assumes */
      self->estimate = g_strdup_printf (_("Estimated saving per step: %s (%s). %s"), saving, saving_share,
                                        sl_advisor_finding_get_assumption (finding));
    }

  if (filter != NULL && filter[0] != '\0')
    /* Translators: a button; %s is how many ops the finding involves */
    self->ops_link = ops->len > 0
      ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Show the Op in _Operators", "Show All %s Ops in _Operators",
                                      ops->len), n_ops)
      : g_strdup (_("Show in _Operators"));
}

static gboolean
has_timeline_link (SlAdvisorFindingItem *self)
{
  return sl_advisor_finding_get_range_start_ns (self->finding) >= 0 &&
         sl_advisor_finding_get_range_end_ns (self->finding) >= 0;
}

static void
sl_advisor_finding_item_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  SlAdvisorFindingItem *self = SL_ADVISOR_FINDING_ITEM (object);
  SlAdvisorFinding *finding = self->finding;

  switch (prop_id)
    {
    case PROP_FINDING:
      g_value_set_object (value, finding);
      break;
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_TARGET:
      g_value_set_variant (value, g_variant_new_uint32 (self->index));
      break;
    case PROP_TITLE:
      g_value_set_string (value, sl_advisor_finding_get_title (finding));
      break;
    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle);
      break;
    case PROP_TOOLTIP:
      g_value_set_string (value, sl_advisor_finding_get_saving_ns (finding) >= 0
                                 ? sl_advisor_finding_get_assumption (finding) : NULL);
      break;
    case PROP_SEVERITY_LABEL:
      g_value_set_string (value, sl_advisor_severity_label (sl_advisor_finding_get_severity (finding)));
      break;
    case PROP_ICON_NAME:
      g_value_set_string (value, sl_advisor_severity_icon (sl_advisor_finding_get_severity (finding)));
      break;
    case PROP_SEVERITY_CLASS:
      g_value_set_string (value, sl_advisor_severity_class (sl_advisor_finding_get_severity (finding)));
      break;
    case PROP_SHARE:
      g_value_set_string (value, self->share);
      break;
    case PROP_HAS_SHARE:
      g_value_set_boolean (value, self->share != NULL);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, sl_advisor_finding_get_message (finding));
      break;
    case PROP_RECOMMENDATION:
      g_value_set_string (value, self->recommendation);
      break;
    case PROP_ESTIMATE:
      g_value_set_string (value, self->estimate);
      break;
    case PROP_HAS_ESTIMATE:
      g_value_set_boolean (value, self->estimate != NULL);
      break;
    case PROP_OPS_LINK:
      /* A button's label is never NULL; without a filter it is hidden. */
      g_value_set_string (value, self->ops_link != NULL ? self->ops_link : "");
      break;
    case PROP_HAS_OPS_LINK:
      g_value_set_boolean (value, self->ops_link != NULL);
      break;
    case PROP_HAS_TIMELINE_LINK:
      g_value_set_boolean (value, has_timeline_link (self));
      break;
    case PROP_HAS_GRAPH_LINK:
      g_value_set_boolean (value, sl_advisor_finding_get_graph_op (finding) != NULL);
      break;
    case PROP_HAS_LINKS:
      g_value_set_boolean (value, self->ops_link != NULL || has_timeline_link (self) ||
                                  sl_advisor_finding_get_graph_op (finding) != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_advisor_finding_item_finalize (GObject *object)
{
  SlAdvisorFindingItem *self = SL_ADVISOR_FINDING_ITEM (object);

  g_clear_object (&self->finding);
  g_free (self->subtitle);
  g_free (self->share);
  g_free (self->recommendation);
  g_free (self->estimate);
  g_free (self->ops_link);

  G_OBJECT_CLASS (sl_advisor_finding_item_parent_class)->finalize (object);
}

static GParamSpec *
string_property (const char *name)
{
  return g_param_spec_string (name, NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static GParamSpec *
boolean_property (const char *name)
{
  return g_param_spec_boolean (name, NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static void
sl_advisor_finding_item_class_init (SlAdvisorFindingItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_advisor_finding_item_finalize;
  object_class->get_property = sl_advisor_finding_item_get_property;

  properties[PROP_FINDING] =
    g_param_spec_object ("finding", NULL, NULL, SL_TYPE_ADVISOR_FINDING, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* The finding's position in the report, which the tab's actions take. */
  properties[PROP_INDEX] =
    g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* The index as an action target ("u"), for the link buttons. */
  properties[PROP_TARGET] =
    g_param_spec_variant ("target", NULL, NULL, G_VARIANT_TYPE_UINT32, NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = string_property ("title");
  properties[PROP_SUBTITLE] = string_property ("subtitle");
  /* The assumption behind an estimated saving, NULL without one. */
  properties[PROP_TOOLTIP] = string_property ("tooltip");
  properties[PROP_SEVERITY_LABEL] = string_property ("severity-label");
  properties[PROP_ICON_NAME] = string_property ("icon-name");
  /* The style class of the severity: error, warning or accent. */
  properties[PROP_SEVERITY_CLASS] = string_property ("severity-class");
  /* The share of the step, NULL when unknown. */
  properties[PROP_SHARE] = string_property ("share");
  properties[PROP_HAS_SHARE] = boolean_property ("has-share");
  properties[PROP_MESSAGE] = string_property ("message");
  /* Pango markup: "Recommendation:" in bold, then the recommendation. */
  properties[PROP_RECOMMENDATION] = string_property ("recommendation");
  /* The estimated saving and its assumption, NULL without a saving. */
  properties[PROP_ESTIMATE] = string_property ("estimate");
  properties[PROP_HAS_ESTIMATE] = boolean_property ("has-estimate");
  /* The label of the button listing the finding's ops, with a mnemonic;
   * empty when the finding has no op filter. */
  properties[PROP_OPS_LINK] = string_property ("ops-link");
  properties[PROP_HAS_OPS_LINK] = boolean_property ("has-ops-link");
  properties[PROP_HAS_TIMELINE_LINK] = boolean_property ("has-timeline-link");
  properties[PROP_HAS_GRAPH_LINK] = boolean_property ("has-graph-link");
  properties[PROP_HAS_LINKS] = boolean_property ("has-links");
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_advisor_finding_item_init (SlAdvisorFindingItem *self)
{
}

/**
 * sl_advisor_finding_item_new:
 * @index: the finding's position in its report
 * @unit: the unit its times are shown in
 */
SlAdvisorFindingItem *
sl_advisor_finding_item_new (SlAdvisorFinding *finding,
                             guint             index,
                             SlTimeUnit        unit)
{
  SlAdvisorFindingItem *self;

  g_return_val_if_fail (SL_IS_ADVISOR_FINDING (finding), NULL);

  self = g_object_new (SL_TYPE_ADVISOR_FINDING_ITEM, NULL);
  self->finding = g_object_ref (finding);
  self->index = index;
  self->unit = unit;
  make_texts (self);
  return self;
}

SlAdvisorFinding *
sl_advisor_finding_item_get_finding (SlAdvisorFindingItem *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING_ITEM (self), NULL);
  return self->finding;
}

guint
sl_advisor_finding_item_get_index (SlAdvisorFindingItem *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING_ITEM (self), 0);
  return self->index;
}

SlTimeUnit
sl_advisor_finding_item_get_unit (SlAdvisorFindingItem *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING_ITEM (self), SL_TIME_UNIT_AUTO);
  return self->unit;
}
