/* sl-run-config-row.c
 *
 * A run configuration of the Project dialog: an expander whose rows are
 * its template, sl-run-config-row.ui. The kind's choice shows a MindX
 * app's rows in place of the command and working folder through
 * bindings; the Slurm row shows the summary the dialog sets, and only
 * when there is one. The title and subtitle follow the name, the kind
 * and the command. The dialog reads and checks the entries; the row
 * says when one changed ("changed") and when the user asks to remove
 * it ("remove").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-run-config-record.h"
#include "sl-run-config-row.h"

struct _SlRunConfigRow
{
  AdwExpanderRow  parent_instance;

  char           *slurm_summary;

  AdwEntryRow    *name_row;
  AdwComboRow    *kind_row;
  AdwEntryRow    *command_row;
  AdwEntryRow    *mindx_sdk_home_row;
  AdwEntryRow    *mindx_toolkit_row;
  AdwEntryRow    *mindx_pipeline_row;
  AdwEntryRow    *mindx_entry_row;
  AdwEntryRow    *arguments_row;
  AdwEntryRow    *environment_row;
  AdwEntryRow    *folder_row;
  AdwEntryRow    *pull_row;
  AdwActionRow   *error_row;
};

G_DEFINE_FINAL_TYPE (SlRunConfigRow, sl_run_config_row, ADW_TYPE_EXPANDER_ROW)

enum {
  PROP_0,
  PROP_SLURM_SUMMARY,
  N_PROPS
};

enum {
  CHANGED,
  REMOVE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean
is_mindx (gpointer this_object,
          guint    kind)
{
  return kind == SL_RUN_CONFIG_KIND_MINDX;
}

static gboolean
is_not_mindx (gpointer this_object,
              guint    kind)
{
  return kind != SL_RUN_CONFIG_KIND_MINDX;
}

static gboolean
is_set (gpointer    this_object,
        const char *text)
{
  return text != NULL;
}

static char *
stripped_text (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

/* "NAME" and "KIND · COMMAND", the entry script standing for a MindX
 * app's command. */
static void
update_title (SlRunConfigRow *self)
{
  guint kind = adw_combo_row_get_selected (self->kind_row);
  GtkStringObject *kind_label = adw_combo_row_get_selected_item (self->kind_row);
  g_autofree char *name = stripped_text (self->name_row);
  g_autofree char *command = stripped_text (kind == SL_RUN_CONFIG_KIND_MINDX ? self->mindx_entry_row
                                                                             : self->command_row);
  g_autofree char *subtitle = NULL;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), name[0] != '\0' ? name : _("Unnamed run configuration"));
  subtitle = g_strdup_printf ("%s · %s", kind_label != NULL ? gtk_string_object_get_string (kind_label) : "?",
                              command[0] != '\0' ? command : _("no command yet"));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), subtitle);
}

static void
field_changed_cb (SlRunConfigRow *self)
{
  update_title (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
remove_clicked_cb (SlRunConfigRow *self)
{
  g_signal_emit (self, signals[REMOVE], 0);
}

static void
sl_run_config_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SlRunConfigRow *self = SL_RUN_CONFIG_ROW (object);

  switch (prop_id)
    {
    case PROP_SLURM_SUMMARY:
      g_value_set_string (value, self->slurm_summary);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_run_config_row_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  SlRunConfigRow *self = SL_RUN_CONFIG_ROW (object);

  switch (prop_id)
    {
    case PROP_SLURM_SUMMARY:
      sl_run_config_row_set_slurm_summary (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_run_config_row_dispose (GObject *object)
{
  SlRunConfigRow *self = SL_RUN_CONFIG_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_RUN_CONFIG_ROW);
  g_clear_pointer (&self->slurm_summary, g_free);

  G_OBJECT_CLASS (sl_run_config_row_parent_class)->dispose (object);
}

static void
sl_run_config_row_class_init (SlRunConfigRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_run_config_row_dispose;
  object_class->get_property = sl_run_config_row_get_property;
  object_class->set_property = sl_run_config_row_set_property;

  /**
   * SlRunConfigRow:slurm-summary:
   *
   * How the configuration's runs go through Slurm, or %NULL when it has
   * no Slurm settings (the row is hidden).
   */
  properties[PROP_SLURM_SUMMARY] =
    g_param_spec_string ("slurm-summary", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlRunConfigRow::changed:
   *
   * An entry or the kind changed.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
  /**
   * SlRunConfigRow::remove:
   *
   * The user asked to remove the configuration.
   */
  signals[REMOVE] = g_signal_new ("remove", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-run-config-row.ui");
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, name_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, kind_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, command_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, mindx_sdk_home_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, mindx_toolkit_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, mindx_pipeline_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, mindx_entry_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, arguments_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, environment_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, folder_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, pull_row);
  gtk_widget_class_bind_template_child (widget_class, SlRunConfigRow, error_row);
  gtk_widget_class_bind_template_callback (widget_class, is_mindx);
  gtk_widget_class_bind_template_callback (widget_class, is_not_mindx);
  gtk_widget_class_bind_template_callback (widget_class, is_set);
  gtk_widget_class_bind_template_callback (widget_class, field_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_clicked_cb);
}

static void
sl_run_config_row_init (SlRunConfigRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  update_title (self);
}

GtkWidget *
sl_run_config_row_new (void)
{
  return g_object_new (SL_TYPE_RUN_CONFIG_ROW, NULL);
}

AdwEntryRow *
sl_run_config_row_get_entry (SlRunConfigRow   *self,
                             SlRunConfigField  field)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_ROW (self), NULL);

  switch (field)
    {
    case SL_RUN_CONFIG_FIELD_NAME: return self->name_row;
    case SL_RUN_CONFIG_FIELD_COMMAND: return self->command_row;
    case SL_RUN_CONFIG_FIELD_ARGUMENTS: return self->arguments_row;
    case SL_RUN_CONFIG_FIELD_ENVIRONMENT: return self->environment_row;
    case SL_RUN_CONFIG_FIELD_FOLDER: return self->folder_row;
    case SL_RUN_CONFIG_FIELD_PULL: return self->pull_row;
    case SL_RUN_CONFIG_FIELD_MINDX_SDK_HOME: return self->mindx_sdk_home_row;
    case SL_RUN_CONFIG_FIELD_MINDX_TOOLKIT: return self->mindx_toolkit_row;
    case SL_RUN_CONFIG_FIELD_MINDX_PIPELINE: return self->mindx_pipeline_row;
    case SL_RUN_CONFIG_FIELD_MINDX_ENTRY: return self->mindx_entry_row;
    case SL_RUN_CONFIG_N_FIELDS:
    default: g_return_val_if_reached (NULL);
    }
}

AdwComboRow *
sl_run_config_row_get_kind_row (SlRunConfigRow *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_ROW (self), NULL);
  return self->kind_row;
}

AdwActionRow *
sl_run_config_row_get_error_row (SlRunConfigRow *self)
{
  g_return_val_if_fail (SL_IS_RUN_CONFIG_ROW (self), NULL);
  return self->error_row;
}

void
sl_run_config_row_set_slurm_summary (SlRunConfigRow *self,
                                     const char     *summary)
{
  g_return_if_fail (SL_IS_RUN_CONFIG_ROW (self));

  if (g_strcmp0 (self->slurm_summary, summary) == 0)
    return;
  g_free (self->slurm_summary);
  self->slurm_summary = g_strdup (summary);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SLURM_SUMMARY]);
}
