/* sl-dialog-memory.c
 *
 * A dialog's fields (template children named by their ids: entry rows,
 * combo rows, switches) are kept in the "dialog-values" setting when it
 * closes, under the dialog's name and the project it was used with, and
 * put back when it opens for that project again. A value of another
 * type than its field, or a choice past a combo row's end, is left out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "sl-dialog-memory.h"

#define MEMORY_KEY "sl-dialog-memory"

typedef struct {
  char  *key;
  GStrv  ids;
} Memory;

static void
memory_free (gpointer data)
{
  Memory *memory = data;

  g_free (memory->key);
  g_strfreev (memory->ids);
  g_free (memory);
}

static GObject *
field (GtkWindow  *dialog,
       const char *id)
{
  return gtk_widget_get_template_child (GTK_WIDGET (dialog), G_OBJECT_TYPE (dialog), id);
}

static GVariant *
read_field (GObject *object)
{
  if (ADW_IS_COMBO_ROW (object))
    return g_variant_new_uint32 (adw_combo_row_get_selected (ADW_COMBO_ROW (object)));
  if (GTK_IS_SWITCH (object))
    return g_variant_new_boolean (gtk_switch_get_active (GTK_SWITCH (object)));
  if (GTK_IS_EDITABLE (object))
    return g_variant_new_string (gtk_editable_get_text (GTK_EDITABLE (object)));
  return NULL;
}

static void
write_field (GObject  *object,
             GVariant *value)
{
  if (ADW_IS_COMBO_ROW (object) && g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
    {
      GListModel *model = adw_combo_row_get_model (ADW_COMBO_ROW (object));
      guint selected = g_variant_get_uint32 (value);

      if (model != NULL && selected < g_list_model_get_n_items (model))
        adw_combo_row_set_selected (ADW_COMBO_ROW (object), selected);
    }
  else if (GTK_IS_SWITCH (object) && g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
    gtk_switch_set_active (GTK_SWITCH (object), g_variant_get_boolean (value));
  else if (GTK_IS_EDITABLE (object) && g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    gtk_editable_set_text (GTK_EDITABLE (object), g_variant_get_string (value, NULL));
}

/**
 * sl_dialog_memory_save:
 *
 * Keeps the fields of @dialog as they are now, for its next opening with
 * the same project. Done on its own when the dialog closes.
 */
void
sl_dialog_memory_save (GtkWindow *dialog)
{
  Memory *memory = g_object_get_data (G_OBJECT (dialog), MEMORY_KEY);
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GVariant) all = NULL;
  GVariantDict dict;
  GVariantBuilder fields;

  if (memory == NULL)
    return;

  g_variant_builder_init (&fields, G_VARIANT_TYPE_VARDICT);
  for (guint i = 0; memory->ids[i] != NULL; i++)
    {
      GObject *object = field (dialog, memory->ids[i]);
      GVariant *value = object ? read_field (object) : NULL;

      if (value != NULL)
        g_variant_builder_add (&fields, "{sv}", memory->ids[i], value);
    }

  settings = g_settings_new (APP_ID);
  all = g_settings_get_value (settings, "dialog-values");
  g_variant_dict_init (&dict, all);
  g_variant_dict_insert_value (&dict, memory->key, g_variant_builder_end (&fields));
  g_settings_set_value (settings, "dialog-values", g_variant_dict_end (&dict));
}

static gboolean
close_request_cb (GtkWindow *dialog)
{
  sl_dialog_memory_save (dialog);
  return FALSE;
}

/**
 * sl_dialog_memory_attach:
 * @dialog_name: which dialog, such as "run"
 * @project_key: (nullable): the project it is used with, or %NULL
 * @field_ids: the template ids of the fields kept, in the order they are
 *   put back (a combo row that fills other fields first)
 *
 * Puts back the fields @dialog was last closed with for @project_key, if
 * any, and keeps them again when it closes.
 */
void
sl_dialog_memory_attach (GtkWindow          *dialog,
                         const char         *dialog_name,
                         const char         *project_key,
                         const char * const *field_ids)
{
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GVariant) all = NULL;
  g_autoptr(GVariant) saved = NULL;
  gboolean attached;
  Memory *memory;

  g_return_if_fail (GTK_IS_WINDOW (dialog));
  g_return_if_fail (dialog_name != NULL && field_ids != NULL);

  attached = g_object_get_data (G_OBJECT (dialog), MEMORY_KEY) != NULL;
  memory = g_new0 (Memory, 1);
  memory->key = g_strdup_printf ("%s:%s", dialog_name, project_key ? project_key : "");
  memory->ids = g_strdupv ((char **)field_ids);
  g_object_set_data_full (G_OBJECT (dialog), MEMORY_KEY, memory, memory_free);
  if (!attached)
    g_signal_connect (dialog, "close-request", G_CALLBACK (close_request_cb), NULL);

  settings = g_settings_new (APP_ID);
  all = g_settings_get_value (settings, "dialog-values");
  saved = g_variant_lookup_value (all, memory->key, G_VARIANT_TYPE_VARDICT);
  for (guint i = 0; saved != NULL && field_ids[i] != NULL; i++)
    {
      GObject *object = field (dialog, field_ids[i]);
      g_autoptr(GVariant) value = g_variant_lookup_value (saved, field_ids[i], NULL);

      if (object != NULL && value != NULL)
        write_field (object, value);
    }
}
