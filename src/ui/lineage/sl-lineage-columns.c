/* sl-lineage-columns.c
 *
 * The Run column (the run's name, its folder on hover), a column a
 * column of the lineage table (numbers sort as numbers, a missing value
 * shows "—" and is empty in CSV), then the note and tags. The rows are
 * SlLineageRows; runs inside every brush of the parallel coordinates
 * stand out. The functions read only the row and the column's index, so
 * the CSV export may call them on its worker thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "sl-lineage-columns.h"
#include "sl-lineage-row.h"

/* A cell of a value is cut past about 28 characters, as before the
 * shared table; the whole value is on hover. */
#define VALUE_MAX_WIDTH 240

static const char *
marked_style (gpointer item,
              gpointer user_data)
{
  return sl_lineage_row_is_marked (item) ? "accent" : NULL;
}

static char *
run_text (gpointer item,
          gpointer user_data)
{
  return g_strdup (sl_lineage_row_get_label (item));
}

/* The whole of what may be cut: for a run, its folder. */
static char *
run_tooltip (gpointer item,
             gpointer user_data)
{
  return g_strdup (sl_lineage_row_get_path (item));
}

static char *
note_text (gpointer item,
           gpointer user_data)
{
  return g_strdup (sl_lineage_row_get_note (item));
}

static char *
tags_text (gpointer item,
           gpointer user_data)
{
  return g_strdup (sl_lineage_row_get_tags (item));
}

static const char *
value_of (gpointer item,
          gpointer user_data)
{
  return sl_lineage_table_get_text (sl_lineage_row_get_table (item), sl_lineage_row_get_run (item),
                                    GPOINTER_TO_UINT (user_data));
}

static char *
value_text (gpointer item,
            gpointer user_data)
{
  const char *text = value_of (item, user_data);

  return g_strdup (text != NULL ? text : "—");
}

static char *
value_csv (gpointer item,
           gpointer user_data)
{
  return g_strdup (value_of (item, user_data));
}

static double
value_number (gpointer item,
              gpointer user_data)
{
  double value;

  if (!sl_lineage_table_get_number (sl_lineage_row_get_table (item), sl_lineage_row_get_run (item),
                                    GPOINTER_TO_UINT (user_data), &value))
    return NAN;
  return value;
}

static const char *
value_style (gpointer item,
             gpointer user_data)
{
  if (sl_lineage_row_is_marked (item))
    return "accent";
  return value_of (item, user_data) == NULL ? "dim-label" : NULL;
}

/**
 * sl_lineage_columns_append:
 *
 * Appends the Run column, one column a column of @table (with its id),
 * and the Note and Tags columns to @data_table.
 */
void
sl_lineage_columns_append (SlDataTable    *data_table,
                           SlLineageTable *table)
{
  SlDataColumn run = {
    .id = SL_LINEAGE_COLUMN_RUN,
    .title = _("Run"),
    .flags = SL_DATA_COLUMN_ELLIPSIZE_MIDDLE | SL_DATA_COLUMN_SEARCHABLE,
    .text = run_text,
    .tooltip = run_tooltip,
    .style = marked_style,
    .css_class = "heading",
  };
  SlDataColumn note = {
    .id = SL_LINEAGE_COLUMN_NOTE,
    .title = _("Note"),
    .flags = SL_DATA_COLUMN_SEARCHABLE,
    .text = note_text,
    .style = marked_style,
    .max_width = VALUE_MAX_WIDTH,
  };
  SlDataColumn tags = {
    .id = SL_LINEAGE_COLUMN_TAGS,
    .title = _("Tags"),
    .flags = SL_DATA_COLUMN_SEARCHABLE,
    .text = tags_text,
    .style = marked_style,
    .max_width = VALUE_MAX_WIDTH,
  };

  g_return_if_fail (SL_IS_DATA_TABLE (data_table));
  g_return_if_fail (SL_IS_LINEAGE_TABLE (table));

  sl_data_table_append_column (data_table, &run, NULL, NULL);
  for (guint c = 0; c < sl_lineage_table_get_n_columns (table); c++)
    {
      const SlLineageColumn *info = sl_lineage_table_get_column (table, c);
      SlDataColumn value = {
        .id = info->id,
        .title = info->key,
        .csv_title = info->id,
        .flags = info->type == SL_LINEAGE_COLUMN_NUMERIC ? SL_DATA_COLUMN_NUMERIC : 0,
        .text = value_text,
        .number = info->type == SL_LINEAGE_COLUMN_NUMERIC ? value_number : NULL,
        .csv = value_csv,
        .style = value_style,
        .max_width = VALUE_MAX_WIDTH,
      };

      sl_data_table_append_column (data_table, &value, GUINT_TO_POINTER (c), NULL);
    }
  sl_data_table_append_column (data_table, &note, NULL, NULL);
  sl_data_table_append_column (data_table, &tags, NULL, NULL);
}
