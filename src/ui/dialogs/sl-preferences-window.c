/* sl-preferences-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-dialog-fit.h"
#include "sl-cache.h"
#include "sl-preferences-window.h"

struct _SlPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  GCancellable         *cancellable;

  AdwComboRow          *color_scheme_row;
  AdwComboRow          *time_unit_row;
  AdwActionRow         *cache_dir_row;
  AdwActionRow         *cache_usage_row;
  GtkSpinButton        *cache_limit_spin;
};

G_DEFINE_FINAL_TYPE (SlPreferencesWindow, sl_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char *color_schemes[] = { "system", "light", "dark" };
static const char *time_units[] = { "auto", "ns", "us", "ms", "sec" };

static gboolean
nick_to_position (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const char **nicks = user_data;
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; nicks[i] != NULL; i++)
    {
      if (g_str_equal (nicks[i], nick))
        {
          g_value_set_uint (value, i);
          return TRUE;
        }
    }

  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
position_to_nick (const GValue       *value,
                  const GVariantType *expected_type,
                  gpointer            user_data)
{
  const char **nicks = user_data;
  guint position = g_value_get_uint (value);

  for (guint i = 0; nicks[i] != NULL; i++)
    {
      if (i == position)
        return g_variant_new_string (nicks[i]);
    }

  return NULL;
}

static char *
dup_cache_dir (SlPreferencesWindow *self)
{
  g_autofree char *configured = g_settings_get_string (self->settings, "cache-dir");

  return sl_cache_dup_dir (configured);
}

static void
measure_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  const char *dir = task_data;
  g_autoptr(GError) error = NULL;
  guint64 size = 0;
  guint n_files = 0;

  if (!sl_cache_measure (dir, &size, &n_files, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    {
      g_autofree char *formatted = g_format_size (size);
      g_autofree char *count = sl_count_format (n_files);

      g_task_return_pointer (task,
                             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s in %s file", "%s in %s files", n_files),
                                              formatted, count),
                             g_free);
    }
}

static void
measure_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  SlPreferencesWindow *self = SL_PREFERENCES_WINDOW (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  adw_action_row_set_subtitle (self->cache_usage_row, text ? text : error->message);
}

static void
update_cache_rows (SlPreferencesWindow *self)
{
  g_autofree char *dir = dup_cache_dir (self);
  g_autoptr(GTask) task = NULL;
  g_autofree char *escaped = g_markup_escape_text (dir, -1);

  adw_action_row_set_subtitle (self->cache_dir_row, escaped);
  adw_action_row_set_subtitle (self->cache_usage_row, _("Measuring…"));

  task = g_task_new (self, self->cancellable, measure_cb, NULL);
  g_task_set_task_data (task, g_steal_pointer (&dir), g_free);
  g_task_run_in_thread (task, measure_thread);
}

static void
clear_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;

  if (!sl_cache_trim (task_data, 0, NULL, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  SlPreferencesWindow *self = SL_PREFERENCES_WINDOW (object);
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (error->message));
      return;
    }

  update_cache_rows (self);
}

static void
clear_cache_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  SlPreferencesWindow *self = SL_PREFERENCES_WINDOW (widget);
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, clear_cb, NULL);

  g_task_set_task_data (task, dup_cache_dir (self), g_free);
  g_task_run_in_thread (task, clear_thread);
}

static void
cache_dir_chosen_cb (GtkNativeDialog     *dialog,
                     int                  response,
                     SlPreferencesWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        g_settings_set_string (self->settings, "cache-dir", path);
    }

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose_cache_dir_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  SlPreferencesWindow *self = SL_PREFERENCES_WINDOW (widget);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Cache Folder"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (cache_dir_chosen_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
reset_cache_dir_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  g_settings_reset (SL_PREFERENCES_WINDOW (widget)->settings, "cache-dir");
}

static void
cache_dir_changed_cb (SlPreferencesWindow *self)
{
  update_cache_rows (self);
}

static void
sl_preferences_window_dispose (GObject *object)
{
  SlPreferencesWindow *self = (SlPreferencesWindow *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (sl_preferences_window_parent_class)->dispose (object);
}

static void
sl_preferences_window_class_init (SlPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, color_scheme_row);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, time_unit_row);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, cache_dir_row);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, cache_usage_row);
  gtk_widget_class_bind_template_child (widget_class, SlPreferencesWindow, cache_limit_spin);

  gtk_widget_class_install_action (widget_class, "prefs.clear-cache", NULL, clear_cache_action);
  gtk_widget_class_install_action (widget_class, "prefs.choose-cache-dir", NULL, choose_cache_dir_action);
  gtk_widget_class_install_action (widget_class, "prefs.reset-cache-dir", NULL, reset_cache_dir_action);
}

static void
sl_preferences_window_init (SlPreferencesWindow *self)
{
  static const char *color_scheme_nicks[G_N_ELEMENTS (color_schemes) + 1];
  static const char *time_unit_nicks[G_N_ELEMENTS (time_units) + 1];

  gtk_widget_init_template (GTK_WIDGET (self));
  sl_dialog_fit_screen (GTK_WINDOW (self));

  memcpy (color_scheme_nicks, color_schemes, sizeof color_schemes);
  memcpy (time_unit_nicks, time_units, sizeof time_units);

  self->cancellable = g_cancellable_new ();
  self->settings = g_settings_new (APP_ID);

  g_settings_bind_with_mapping (self->settings, "color-scheme", self->color_scheme_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, nick_to_position, position_to_nick,
                                color_scheme_nicks, NULL);
  g_settings_bind_with_mapping (self->settings, "time-unit", self->time_unit_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, nick_to_position, position_to_nick,
                                time_unit_nicks, NULL);
  g_settings_bind (self->settings, "cache-limit-mb",
                   gtk_spin_button_get_adjustment (self->cache_limit_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed::cache-dir", G_CALLBACK (cache_dir_changed_cb), self,
                           G_CONNECT_SWAPPED);

  update_cache_rows (self);
}

GtkWidget *
sl_preferences_window_new (void)
{
  return g_object_new (SL_TYPE_PREFERENCES_WINDOW, NULL);
}
