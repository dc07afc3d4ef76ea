/* sl-stage-chip.c
 *
 * The chip is its template, sl-stage-chip.ui: the label shows the title,
 * the icon the state's icon and the spinner turns while the stage runs,
 * all bound to the chip's properties. Only the style classes, which no
 * property carries, are set here when the state changes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-stage-chip.h"

struct _SlStageChip
{
  GtkBox            parent_instance;

  char             *title;
  SlStageChipState  state;

  GtkWidget        *label;
};

G_DEFINE_ENUM_TYPE (SlStageChipState, sl_stage_chip_state,
                    G_DEFINE_ENUM_VALUE (SL_STAGE_CHIP_PENDING, "pending"),
                    G_DEFINE_ENUM_VALUE (SL_STAGE_CHIP_ACTIVE, "active"),
                    G_DEFINE_ENUM_VALUE (SL_STAGE_CHIP_DONE, "done"),
                    G_DEFINE_ENUM_VALUE (SL_STAGE_CHIP_SKIPPED, "skipped"),
                    G_DEFINE_ENUM_VALUE (SL_STAGE_CHIP_FAILED, "failed"),
                    G_DEFINE_ENUM_VALUE (SL_STAGE_CHIP_CANCELLED, "cancelled"))

G_DEFINE_FINAL_TYPE (SlStageChip, sl_stage_chip, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_STATE,
  PROP_ICON_NAME,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
state_icon_name (SlStageChipState state)
{
  switch (state)
    {
    case SL_STAGE_CHIP_PENDING:
      return "content-loading-symbolic";
    case SL_STAGE_CHIP_DONE:
      return "object-select-symbolic";
    case SL_STAGE_CHIP_SKIPPED:
      return "action-unavailable-symbolic";
    case SL_STAGE_CHIP_FAILED:
      return "dialog-error-symbolic";
    case SL_STAGE_CHIP_CANCELLED:
      return "process-stop-symbolic";
    case SL_STAGE_CHIP_ACTIVE:
    default:
      return NULL;
    }
}

static gboolean
sl_stage_chip_not (gpointer unused,
                   gboolean value)
{
  return !value;
}

static void
update_style (SlStageChip *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  SlStageChipState state = self->state;

  gtk_widget_remove_css_class (widget, "dim-label");
  gtk_widget_remove_css_class (widget, "error");
  gtk_widget_remove_css_class (widget, "success");
  gtk_widget_remove_css_class (self->label, "heading");
  if (state == SL_STAGE_CHIP_PENDING || state == SL_STAGE_CHIP_SKIPPED || state == SL_STAGE_CHIP_CANCELLED)
    gtk_widget_add_css_class (widget, "dim-label");
  else if (state == SL_STAGE_CHIP_FAILED)
    gtk_widget_add_css_class (widget, "error");
  else if (state == SL_STAGE_CHIP_DONE)
    gtk_widget_add_css_class (widget, "success");
  if (state == SL_STAGE_CHIP_ACTIVE || state == SL_STAGE_CHIP_FAILED)
    gtk_widget_add_css_class (self->label, "heading");
}

static void
sl_stage_chip_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SlStageChip *self = SL_STAGE_CHIP (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_ICON_NAME:
      g_value_set_static_string (value, state_icon_name (self->state));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->state == SL_STAGE_CHIP_ACTIVE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_stage_chip_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  SlStageChip *self = SL_STAGE_CHIP (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      if (g_strcmp0 (self->title, g_value_get_string (value)) != 0)
        {
          g_free (self->title);
          self->title = g_value_dup_string (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_STATE:
      sl_stage_chip_set_state (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_stage_chip_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_STAGE_CHIP);
  G_OBJECT_CLASS (sl_stage_chip_parent_class)->dispose (object);
}

static void
sl_stage_chip_finalize (GObject *object)
{
  SlStageChip *self = SL_STAGE_CHIP (object);

  g_free (self->title);
  G_OBJECT_CLASS (sl_stage_chip_parent_class)->finalize (object);
}

static void
sl_stage_chip_class_init (SlStageChipClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = sl_stage_chip_get_property;
  object_class->set_property = sl_stage_chip_set_property;
  object_class->dispose = sl_stage_chip_dispose;
  object_class->finalize = sl_stage_chip_finalize;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, SL_TYPE_STAGE_CHIP_STATE, SL_STAGE_CHIP_PENDING,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What the template shows for the state. */
  properties[PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-stage-chip.ui");
  gtk_widget_class_bind_template_child (widget_class, SlStageChip, label);
  gtk_widget_class_bind_template_callback (widget_class, sl_stage_chip_not);
}

static void
sl_stage_chip_init (SlStageChip *self)
{
  self->state = SL_STAGE_CHIP_PENDING;
  gtk_widget_init_template (GTK_WIDGET (self));
  update_style (self);
}

GtkWidget *
sl_stage_chip_new (const char *title)
{
  return g_object_new (SL_TYPE_STAGE_CHIP, "title", title, NULL);
}

const char *
sl_stage_chip_get_title (SlStageChip *self)
{
  g_return_val_if_fail (SL_IS_STAGE_CHIP (self), NULL);
  return self->title;
}

SlStageChipState
sl_stage_chip_get_state (SlStageChip *self)
{
  g_return_val_if_fail (SL_IS_STAGE_CHIP (self), SL_STAGE_CHIP_PENDING);
  return self->state;
}

void
sl_stage_chip_set_state (SlStageChip      *self,
                         SlStageChipState  state)
{
  g_return_if_fail (SL_IS_STAGE_CHIP (self));

  if (self->state == state)
    return;
  self->state = state;
  update_style (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICON_NAME]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}
