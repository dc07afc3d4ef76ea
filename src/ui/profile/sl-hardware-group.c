/* sl-hardware-group.c
 *
 * The host and version rows are in the template and hidden until known;
 * each device is an expander row of its own, as a host may carry eight.
 * A rank whose files say nothing of its hardware gets a description that
 * names the files that would.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-hardware-group.h"
#include "sl-hardware-info.h"

struct _SlHardwareGroup
{
  AdwPreferencesGroup  parent_instance;

  GPtrArray           *device_rows;
  GHashTable          *shown;          /* title → value */

  AdwActionRow        *host_name_row;
  GtkLabel            *host_name_label;
  AdwActionRow        *os_row;
  GtkLabel            *os_label;
  AdwActionRow        *cpu_row;
  GtkLabel            *cpu_label;
  AdwActionRow        *cores_row;
  GtkLabel            *cores_label;
  AdwActionRow        *memory_row;
  GtkLabel            *memory_label;
  AdwActionRow        *cann_row;
  GtkLabel            *cann_label;
  AdwActionRow        *driver_row;
  GtkLabel            *driver_label;
  AdwActionRow        *framework_row;
  GtkLabel            *framework_label;
};

G_DEFINE_FINAL_TYPE (SlHardwareGroup, sl_hardware_group, ADW_TYPE_PREFERENCES_GROUP)

static void
show_value (SlHardwareGroup *self,
            AdwActionRow    *row,
            GtkLabel        *label,
            const char      *value)
{
  gtk_widget_set_visible (GTK_WIDGET (row), value != NULL);
  gtk_label_set_label (label, value != NULL ? value : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), value);
  if (value != NULL)
    g_hash_table_insert (self->shown, g_strdup (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row))),
                         g_strdup (value));
}

static char *
count_text (gint64 count)
{
  return count >= 0 ? g_strdup_printf ("%lld", (long long)count) : NULL;
}

static void
add_device_value (SlHardwareGroup *self,
                  AdwExpanderRow  *expander,
                  gint64           id,
                  const char      *title,
                  char            *value)
{
  g_autofree char *owned = value;
  GtkWidget *row;
  GtkWidget *label;

  if (owned == NULL)
    return;
  row = adw_action_row_new ();
  label = gtk_label_new (owned);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_expander_row_add_row (expander, row);
  /* Device rows are looked up as "Device 0: AI Cores". */
  g_hash_table_insert (self->shown, g_strdup_printf ("Device %lld: %s", (long long)id, title), g_steal_pointer (&owned));
}

static char *
control_cpu_text (const SlHardwareDevice *device)
{
  if (device->ctrl_cpu_num >= 0 && device->ctrl_cpu_type != NULL)
    /* TRANSLATORS: a count of CPUs and their type, "1 × ARMv8_Cortex_A55" */
    return g_strdup_printf (_("%lld × %s"), (long long)device->ctrl_cpu_num, device->ctrl_cpu_type);
  if (device->ctrl_cpu_num >= 0)
    return count_text (device->ctrl_cpu_num);
  return g_strdup (device->ctrl_cpu_type);
}

static void
add_device (SlHardwareGroup        *self,
            const SlHardwareDevice *device,
            gboolean                expanded)
{
  GtkWidget *row = adw_expander_row_new ();
  g_autofree char *title = g_strdup_printf (_("Device %lld"), (long long)device->id);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (device->chip != NULL)
    adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), device->chip);
  add_device_value (self, ADW_EXPANDER_ROW (row), device->id, _("Chip"), g_strdup (device->chip));
  add_device_value (self, ADW_EXPANDER_ROW (row), device->id, _("AI Cores"), count_text (device->ai_core_num));
  add_device_value (self, ADW_EXPANDER_ROW (row), device->id, _("AI Vector cores"), count_text (device->aiv_num));
  add_device_value (self, ADW_EXPANDER_ROW (row), device->id, _("AI CPUs"), count_text (device->ai_cpu_num));
  add_device_value (self, ADW_EXPANDER_ROW (row), device->id, _("Control CPUs"), control_cpu_text (device));
  add_device_value (self, ADW_EXPANDER_ROW (row), device->id, _("TS CPUs"), count_text (device->ts_cpu_num));
  add_device_value (self, ADW_EXPANDER_ROW (row), device->id, _("AI Core frequency"),
                    device->aic_frequency_mhz >= 0
                      ? g_strdup_printf (_("%lld MHz"), (long long)device->aic_frequency_mhz) : NULL);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), expanded);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), row);
  g_ptr_array_add (self->device_rows, row);
}

static void
clear_devices (SlHardwareGroup *self)
{
  for (guint i = 0; i < self->device_rows->len; i++)
    adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self), g_ptr_array_index (self->device_rows, i));
  g_ptr_array_set_size (self->device_rows, 0);
}

static void
sl_hardware_group_dispose (GObject *object)
{
  SlHardwareGroup *self = SL_HARDWARE_GROUP (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_HARDWARE_GROUP);
  g_clear_pointer (&self->device_rows, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_hash_table_unref);

  G_OBJECT_CLASS (sl_hardware_group_parent_class)->dispose (object);
}

static void
sl_hardware_group_class_init (SlHardwareGroupClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sl_hardware_group_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-hardware-group.ui");
#define BIND(name) \
  gtk_widget_class_bind_template_child (widget_class, SlHardwareGroup, name##_row); \
  gtk_widget_class_bind_template_child (widget_class, SlHardwareGroup, name##_label)
  BIND (host_name);
  BIND (os);
  BIND (cpu);
  BIND (cores);
  BIND (memory);
  BIND (cann);
  BIND (driver);
  BIND (framework);
#undef BIND
}

static void
sl_hardware_group_init (SlHardwareGroup *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->device_rows = g_ptr_array_new ();
  self->shown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

GtkWidget *
sl_hardware_group_new (void)
{
  return g_object_new (SL_TYPE_HARDWARE_GROUP, NULL);
}

/**
 * sl_hardware_group_set_rank:
 * @rank: (nullable): the rank shown
 */
void
sl_hardware_group_set_rank (SlHardwareGroup     *self,
                            const SlProfileRank *rank)
{
  g_autoptr(SlHardwareInfo) info = NULL;
  g_autofree char *cores = NULL;
  g_autofree char *memory = NULL;

  g_return_if_fail (SL_IS_HARDWARE_GROUP (self));

  g_hash_table_remove_all (self->shown);
  clear_devices (self);
  info = rank != NULL ? sl_hardware_info_new_for_rank (rank) : NULL;

  cores = info != NULL ? count_text (info->logical_cores) : NULL;
  memory = info != NULL && info->memory_bytes >= 0 ? g_format_size_full (info->memory_bytes, G_FORMAT_SIZE_IEC_UNITS) : NULL;
  show_value (self, self->host_name_row, self->host_name_label, info ? info->host_name : NULL);
  show_value (self, self->os_row, self->os_label, info ? info->os : NULL);
  show_value (self, self->cpu_row, self->cpu_label, info ? info->cpu : NULL);
  show_value (self, self->cores_row, self->cores_label, cores);
  show_value (self, self->memory_row, self->memory_label, memory);
  show_value (self, self->cann_row, self->cann_label, info ? info->cann_version : NULL);
  show_value (self, self->driver_row, self->driver_label, info ? info->driver_version : NULL);
  show_value (self, self->framework_row, self->framework_label, info ? info->framework : NULL);
  for (guint i = 0; info != NULL && i < info->devices->len; i++)
    add_device (self, g_ptr_array_index (info->devices, i), info->devices->len == 1);

  if (info == NULL || sl_hardware_info_is_empty (info))
    {
      /* TRANSLATORS: the first %s lists files, the second is a folder */
      g_autofree char *text = g_strdup_printf (_("This profile does not say what it ran on. That is written in %s; looked in %s."),
                                               sl_hardware_info_needed_files (), rank != NULL ? rank->dir : "");

      g_autofree char *markup = g_markup_escape_text (text, -1);

      /* The group reads its description as markup. */
      adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self), markup);
    }
  else
    {
      adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self), NULL);
    }
}

const char *
sl_hardware_group_get_value (SlHardwareGroup *self,
                             const char      *title)
{
  g_return_val_if_fail (SL_IS_HARDWARE_GROUP (self), NULL);
  g_return_val_if_fail (title != NULL, NULL);
  return g_hash_table_lookup (self->shown, title);
}

guint
sl_hardware_group_get_n_shown (SlHardwareGroup *self)
{
  g_return_val_if_fail (SL_IS_HARDWARE_GROUP (self), 0);
  return g_hash_table_size (self->shown);
}
