/* sl-data-table-export.c: the CSV export of SlDataTable
 *
 * The rows shown and their columns are taken on the main thread; the
 * fields are formatted and written on a worker thread by
 * sl_csv_export_async(), into a file that replaces the target only when
 * whole, so a failure or a cancellation leaves no file behind. Progress
 * and Cancel show under the table while it runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-csv-export.h"
#include "sl-data-table-private.h"

typedef struct {
  GPtrArray *items;     /* the rows shown, in order */
  GPtrArray *columns;   /* Column, acquired */
} ExportRows;

static void
export_rows_free (gpointer data)
{
  ExportRows *rows = data;

  g_ptr_array_unref (rows->items);
  g_ptr_array_unref (rows->columns);
  g_free (rows);
}

static void
append_csv_field (GString    *line,
                  gboolean    first,
                  const char *text)
{
  if (!first)
    g_string_append_c (line, ',');
  if (text == NULL || text[0] == '\0')
    {
      /* Keep an empty first field visible as a field. */
      if (first)
        g_string_append (line, "\"\"");
      return;
    }
  sl_csv_append_field (line, text);
}

/* One row shown, on the worker. */
static void
append_row (GString  *out,
            guint     index,
            gpointer  data)
{
  ExportRows *rows = data;
  gpointer item = g_ptr_array_index (rows->items, index);

  for (guint c = 0; c < rows->columns->len; c++)
    {
      g_autofree char *text = sl_data_table_column_dup_csv (g_ptr_array_index (rows->columns, c), item);

      append_csv_field (out, c == 0, text);
    }
  g_string_append_c (out, '\n');
}

static void
export_progress_cb (SlDataTable *self)
{
  if (self->export_progress != NULL)
    gtk_progress_bar_set_fraction (self->export_progress, sl_progress_get_fraction (self->export_rows));
}

/**
 * sl_data_table_export_csv_async:
 *
 * Writes the rows shown, in their order, with the columns shown, to @file
 * as CSV. The rows are taken now; their fields are formatted and written
 * on a worker thread, and @file is replaced only when the whole table is
 * written: a failure or a cancellation leaves it as it was.
 */
void
sl_data_table_export_csv_async (SlDataTable         *self,
                                GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GPtrArray) shown = NULL;
  g_autoptr(GString) header = g_string_new (NULL);
  GListModel *model;
  ExportRows *rows;

  g_return_if_fail (SL_IS_DATA_TABLE (self));
  g_return_if_fail (G_IS_FILE (file));

  model = G_LIST_MODEL (self->rows);
  rows = g_new0 (ExportRows, 1);
  rows->items = g_ptr_array_new_full (g_list_model_get_n_items (model), g_object_unref);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (rows->items, g_list_model_get_item (model, i));
  rows->columns = g_ptr_array_new_with_free_func (sl_data_table_column_release);
  shown = sl_data_table_dup_shown_columns (self);
  for (guint c = 0; c < shown->len; c++)
    {
      Column *column = g_ptr_array_index (shown, c);

      g_ptr_array_add (rows->columns, g_atomic_rc_box_acquire (column));
      append_csv_field (header, c == 0, column->csv_title);
    }
  g_string_append_c (header, '\n');
  if (self->export_rows != NULL)
    g_signal_handlers_disconnect_by_data (self->export_rows, self);
  g_clear_object (&self->export_rows);
  self->export_rows = sl_progress_new ();
  g_signal_connect_swapped (self->export_rows, "notify::fraction", G_CALLBACK (export_progress_cb), self);

  sl_csv_export_async (self, file, header->str, rows->items->len, append_row, rows, export_rows_free,
                       self->export_rows, cancellable, callback, user_data);
}

/**
 * sl_data_table_export_csv_finish:
 *
 * Returns: %TRUE when the file was written, else an error naming it
 *   (%G_IO_ERROR_CANCELLED when cancelled)
 */
gboolean
sl_data_table_export_csv_finish (SlDataTable   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return sl_csv_export_finish (result, error);
}

/**
 * sl_data_table_get_export_fraction:
 *
 * Returns: how much of the last export is written, from 0 to 1
 */
double
sl_data_table_get_export_fraction (SlDataTable *self)
{
  g_return_val_if_fail (SL_IS_DATA_TABLE (self), 0);

  return self->export_rows != NULL ? sl_progress_get_fraction (self->export_rows) : 0;
}

static void
toast (SlDataTable *self,
       const char  *text)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", text);
}

typedef struct {
  GFile        *file;
  GCancellable *cancellable;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_object_unref (data->file);
  g_object_unref (data->cancellable);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SaveData, save_data_free)

static void
save_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  SlDataTable *self = SL_DATA_TABLE (source);
  g_autoptr(SaveData) data = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = sl_data_table_export_csv_finish (self, result, &error);

  /* An export replaced by a newer one, or a table gone meanwhile, has
   * nothing left to show. */
  if (data->cancellable != self->export_cancellable || self->export_bar == NULL)
    return;

  g_clear_object (&self->export_cancellable);
  gtk_revealer_set_reveal_child (self->export_bar, FALSE);

  if (ok)
    {
      g_autofree char *name = g_file_get_parse_name (data->file);
      g_autofree char *text = g_strdup_printf (_("Exported to “%s”"), name);

      toast (self, text);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      toast (self, error->message);
    }
}

/**
 * sl_data_table_save_csv:
 *
 * Exports the table to @file with progress and Cancel under the table;
 * the outcome is shown in a toast (an error names the file). An export
 * still running is cancelled first.
 */
void
sl_data_table_save_csv (SlDataTable *self,
                        GFile       *file)
{
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  SaveData *data;

  g_return_if_fail (SL_IS_DATA_TABLE (self));
  g_return_if_fail (G_IS_FILE (file));

  sl_data_table_cancel_export (self);
  g_clear_object (&self->export_cancellable);
  self->export_cancellable = g_cancellable_new ();
  name = g_file_get_basename (file);
  text = g_strdup_printf (_("Exporting to “%s”…"), name);
  gtk_label_set_label (self->export_label, text);
  gtk_progress_bar_set_fraction (self->export_progress, 0);
  gtk_revealer_set_reveal_child (self->export_bar, TRUE);

  data = g_new0 (SaveData, 1);
  data->file = g_object_ref (file);
  data->cancellable = g_object_ref (self->export_cancellable);
  sl_data_table_export_csv_async (self, file, self->export_cancellable, save_done_cb, data);
}

gboolean
sl_data_table_is_exporting (SlDataTable *self)
{
  g_return_val_if_fail (SL_IS_DATA_TABLE (self), FALSE);
  return self->export_cancellable != NULL;
}

void
sl_data_table_cancel_export (SlDataTable *self)
{
  g_return_if_fail (SL_IS_DATA_TABLE (self));

  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
}

static void
file_chosen_cb (GtkNativeDialog *dialog,
                int              response,
                SlDataTable     *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) != NULL)
    sl_data_table_save_csv (self, file);

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/**
 * sl_data_table_choose_csv_file:
 *
 * Asks where to export the table (see sl_data_table_set_export_title()),
 * then exports it there.
 */
void
sl_data_table_choose_csv_file (SlDataTable *self)
{
  GtkRoot *root;
  GtkFileChooserNative *dialog;

  g_return_if_fail (SL_IS_DATA_TABLE (self));

  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = gtk_file_chooser_native_new (self->export_title ? self->export_title : _("Export as CSV"),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog),
                                     self->export_file_name ? self->export_file_name : "table.csv");
  g_signal_connect_object (dialog, "response", G_CALLBACK (file_chosen_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/**
 * sl_data_table_set_export_title:
 * @title: (nullable): the title of the file chooser; the context menu
 *   offers the export only when set
 * @file_name: (nullable): the name the file chooser suggests
 */
void
sl_data_table_set_export_title (SlDataTable *self,
                                const char  *title,
                                const char  *file_name)
{
  g_return_if_fail (SL_IS_DATA_TABLE (self));

  g_free (self->export_title);
  self->export_title = g_strdup (title);
  g_free (self->export_file_name);
  self->export_file_name = g_strdup (file_name);
}
