/* sl-exclude-row.c
 *
 * The row is its template, sl-exclude-row.ui: its title is the pattern,
 * set with it here (a binding in the template that reads the row itself
 * would be unwatched while the row is finalized), and its button asks the
 * dialog, through the dialog's "project.remove-exclude" action, to take
 * the pattern off.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-exclude-row.h"

struct _SlExcludeRow
{
  AdwActionRow parent_instance;

  char        *pattern;
};

G_DEFINE_FINAL_TYPE (SlExcludeRow, sl_exclude_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_PATTERN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  g_autoptr(SlExcludeRow) self = g_object_ref (SL_EXCLUDE_ROW (widget));   /* the dialog drops the row */

  gtk_widget_activate_action (widget, "project.remove-exclude", "s", self->pattern != NULL ? self->pattern : "");
}

static void
sl_exclude_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SlExcludeRow *self = SL_EXCLUDE_ROW (object);

  switch (prop_id)
    {
    case PROP_PATTERN:
      g_value_set_string (value, self->pattern);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_exclude_row_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  SlExcludeRow *self = SL_EXCLUDE_ROW (object);

  switch (prop_id)
    {
    case PROP_PATTERN:
      g_free (self->pattern);
      self->pattern = g_value_dup_string (value);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), self->pattern != NULL ? self->pattern : "");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_exclude_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_EXCLUDE_ROW);
  G_OBJECT_CLASS (sl_exclude_row_parent_class)->dispose (object);
}

static void
sl_exclude_row_finalize (GObject *object)
{
  SlExcludeRow *self = SL_EXCLUDE_ROW (object);

  g_free (self->pattern);
  G_OBJECT_CLASS (sl_exclude_row_parent_class)->finalize (object);
}

static void
sl_exclude_row_class_init (SlExcludeRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = sl_exclude_row_get_property;
  object_class->set_property = sl_exclude_row_set_property;
  object_class->dispose = sl_exclude_row_dispose;
  object_class->finalize = sl_exclude_row_finalize;

  properties[PROP_PATTERN] = g_param_spec_string ("pattern", NULL, NULL, NULL,
                                                  G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-exclude-row.ui");
  gtk_widget_class_install_action (widget_class, "exclude.remove", NULL, remove_action);
}

static void
sl_exclude_row_init (SlExcludeRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
sl_exclude_row_new (const char *pattern)
{
  return g_object_new (SL_TYPE_EXCLUDE_ROW, "pattern", pattern, NULL);
}

const char *
sl_exclude_row_get_pattern (SlExcludeRow *self)
{
  g_return_val_if_fail (SL_IS_EXCLUDE_ROW (self), NULL);
  return self->pattern;
}
