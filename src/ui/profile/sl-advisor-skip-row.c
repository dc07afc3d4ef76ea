/* sl-advisor-skip-row.c
 *
 * A rule that could not run on the profile, in the Advisor tab: the row
 * is its template, sl-advisor-skip-row.ui. Its title is the rule's,
 * its subtitle why it could not run; expanded, it says what to turn on
 * in the profiler ("enable", markup) and the rule's id ("rule-id"),
 * which the template binds, and the paths it looked in, one selectable
 * label each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-advisor-skip-row.h"

struct _SlAdvisorSkipRow
{
  AdwExpanderRow  parent_instance;

  char           *enable;
  char           *rule_id;

  GtkBox         *looked_in_box;
};

G_DEFINE_FINAL_TYPE (SlAdvisorSkipRow, sl_advisor_skip_row, ADW_TYPE_EXPANDER_ROW)

enum {
  PROP_0,
  PROP_ENABLE,
  PROP_RULE_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
is_set (gpointer    this_object,
        const char *text)
{
  return text != NULL;
}

static void
sl_advisor_skip_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SlAdvisorSkipRow *self = SL_ADVISOR_SKIP_ROW (object);

  switch (prop_id)
    {
    case PROP_ENABLE:
      g_value_set_string (value, self->enable);
      break;
    case PROP_RULE_ID:
      g_value_set_string (value, self->rule_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_advisor_skip_row_dispose (GObject *object)
{
  SlAdvisorSkipRow *self = SL_ADVISOR_SKIP_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_ADVISOR_SKIP_ROW);
  g_clear_pointer (&self->enable, g_free);
  g_clear_pointer (&self->rule_id, g_free);

  G_OBJECT_CLASS (sl_advisor_skip_row_parent_class)->dispose (object);
}

static void
sl_advisor_skip_row_class_init (SlAdvisorSkipRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_advisor_skip_row_dispose;
  object_class->get_property = sl_advisor_skip_row_get_property;

  /* Markup: "To enable:" in bold and what to turn on; NULL when nothing says. */
  properties[PROP_ENABLE] =
    g_param_spec_string ("enable", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* The rule's id in the rule book, for the settings file. */
  properties[PROP_RULE_ID] =
    g_param_spec_string ("rule-id", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-advisor-skip-row.ui");
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorSkipRow, looked_in_box);
  gtk_widget_class_bind_template_callback (widget_class, is_set);
}

static void
sl_advisor_skip_row_init (SlAdvisorSkipRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * sl_advisor_skip_row_new:
 * @title: the rule's title
 */
GtkWidget *
sl_advisor_skip_row_new (const char          *title,
                         const SlAdvisorSkip *skip)
{
  SlAdvisorSkipRow *self = g_object_new (SL_TYPE_ADVISOR_SKIP_ROW, NULL);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), title);
  /* Only the rank shown and the whole profile's are listed: no rank needed. */
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), skip->reason);
  if (skip->enable != NULL && skip->enable[0] != '\0')
    {
      self->enable = g_markup_printf_escaped ("<b>%s</b> %s", _("To enable:"), skip->enable);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLE]);
    }
  /* Translators: the rule's id in the rule book, for the settings file */
  self->rule_id = g_strdup_printf (_("Rule “%s”"), skip->rule);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RULE_ID]);

  for (guint i = 0; skip->looked_in != NULL && skip->looked_in[i] != NULL; i++)
    {
      GtkWidget *path = gtk_label_new (skip->looked_in[i]);

      gtk_label_set_xalign (GTK_LABEL (path), 0);
      gtk_label_set_wrap (GTK_LABEL (path), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (path), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (path), TRUE);
      gtk_widget_add_css_class (path, "monospace");
      gtk_box_append (self->looked_in_box, path);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->looked_in_box), skip->looked_in != NULL && skip->looked_in[0] != NULL);
  return GTK_WIDGET (self);
}
