/* sl-advisor-op-link.c
 *
 * An op's name as a link to its Operators row ("advisor.show-op"), with
 * a button beside it for its slices on the timeline
 * ("advisor.show-op-on-timeline"). The widget is its template,
 * sl-advisor-op-link.ui, bound to the op's name; @expand says whether the
 * name takes the room left in its row (the Longest Ops list) or keeps a
 * short column (the evidence).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-advisor-op-link.h"

struct _SlAdvisorOpLink
{
  GtkWidget  parent_instance;

  char      *op_name;
  gboolean   expand;
};

G_DEFINE_FINAL_TYPE (SlAdvisorOpLink, sl_advisor_op_link, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_OP_NAME,
  PROP_EXPAND,
  PROP_TARGET,
  PROP_OPERATORS_TOOLTIP,
  PROP_TIMELINE_TOOLTIP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static int
pick_int (gpointer this_object,
          gboolean expand,
          int      if_expanded,
          int      otherwise)
{
  return expand ? if_expanded : otherwise;
}

static void
sl_advisor_op_link_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  SlAdvisorOpLink *self = SL_ADVISOR_OP_LINK (object);
  const char *name = self->op_name != NULL ? self->op_name : "";

  switch (prop_id)
    {
    case PROP_OP_NAME:
      g_value_set_string (value, self->op_name);
      break;
    case PROP_EXPAND:
      g_value_set_boolean (value, self->expand);
      break;
    case PROP_TARGET:
      g_value_set_variant (value, g_variant_new_string (name));
      break;
    case PROP_OPERATORS_TOOLTIP:
      /* Translators: the tooltip of an op's name in an advisor finding */
      g_value_take_string (value, g_strdup_printf (_("Show %s in Operators"), name));
      break;
    case PROP_TIMELINE_TOOLTIP:
      g_value_take_string (value, g_strdup_printf (_("Show %s on the timeline"), name));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_advisor_op_link_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  SlAdvisorOpLink *self = SL_ADVISOR_OP_LINK (object);

  switch (prop_id)
    {
    case PROP_OP_NAME:
      g_free (self->op_name);
      self->op_name = g_value_dup_string (value);
      g_object_notify_by_pspec (object, properties[PROP_TARGET]);
      g_object_notify_by_pspec (object, properties[PROP_OPERATORS_TOOLTIP]);
      g_object_notify_by_pspec (object, properties[PROP_TIMELINE_TOOLTIP]);
      break;
    case PROP_EXPAND:
      self->expand = g_value_get_boolean (value);
      /* A plain widget does not take its children's expansion. */
      gtk_widget_set_hexpand (GTK_WIDGET (self), self->expand);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_advisor_op_link_dispose (GObject *object)
{
  SlAdvisorOpLink *self = SL_ADVISOR_OP_LINK (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_ADVISOR_OP_LINK);
  g_clear_pointer (&self->op_name, g_free);

  G_OBJECT_CLASS (sl_advisor_op_link_parent_class)->dispose (object);
}

static void
sl_advisor_op_link_class_init (SlAdvisorOpLinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_advisor_op_link_dispose;
  object_class->get_property = sl_advisor_op_link_get_property;
  object_class->set_property = sl_advisor_op_link_set_property;

  properties[PROP_OP_NAME] =
    g_param_spec_string ("op-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EXPAND] =
    g_param_spec_boolean ("expand", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* The name as the buttons' action target ("s"). */
  properties[PROP_TARGET] =
    g_param_spec_variant ("target", NULL, NULL, G_VARIANT_TYPE_STRING, NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_OPERATORS_TOOLTIP] =
    g_param_spec_string ("operators-tooltip", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIMELINE_TOOLTIP] =
    g_param_spec_string ("timeline-tooltip", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-advisor-op-link.ui");
  gtk_widget_class_bind_template_callback (widget_class, pick_int);
}

static void
sl_advisor_op_link_init (SlAdvisorOpLink *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
sl_advisor_op_link_new (const char *op_name,
                        gboolean    expand)
{
  return g_object_new (SL_TYPE_ADVISOR_OP_LINK, "op-name", op_name, "expand", expand, NULL);
}

const char *
sl_advisor_op_link_get_op_name (SlAdvisorOpLink *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_OP_LINK (self), NULL);
  return self->op_name;
}
