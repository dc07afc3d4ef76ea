/* sl-conversion-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sl-conversion-row.h"

struct _SlConversionRow
{
  GObject            parent_instance;

  SlConversionMatch *match;
  guint              index;     /* a converted op, or a removed op */
  gboolean           removed;
};

G_DEFINE_FINAL_TYPE (SlConversionRow, sl_conversion_row, G_TYPE_OBJECT)

static void
sl_conversion_row_finalize (GObject *object)
{
  g_clear_object (&SL_CONVERSION_ROW (object)->match);
  G_OBJECT_CLASS (sl_conversion_row_parent_class)->finalize (object);
}

static void
sl_conversion_row_class_init (SlConversionRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_conversion_row_finalize;
}

static void
sl_conversion_row_init (SlConversionRow *self)
{
}

static SlConversionRow *
row_new (SlConversionMatch *match,
         guint              index,
         gboolean           removed)
{
  SlConversionRow *self = g_object_new (SL_TYPE_CONVERSION_ROW, NULL);

  self->match = g_object_ref (match);
  self->index = index;
  self->removed = removed;
  return self;
}

/**
 * sl_conversion_row_list_new:
 *
 * Returns: (transfer full): a list of #SlConversionRow
 */
GListModel *
sl_conversion_row_list_new (SlConversionMatch *match)
{
  GListStore *store = g_list_store_new (SL_TYPE_CONVERSION_ROW);
  guint n_ops = sl_conversion_match_get_n_ops (match);
  guint n_removed = sl_conversion_match_get_n_removed (match);
  g_autofree gpointer *rows = g_new (gpointer, n_ops + n_removed + 1);

  for (guint i = 0; i < n_ops; i++)
    rows[i] = row_new (match, i, FALSE);
  for (guint i = 0; i < n_removed; i++)
    rows[n_ops + i] = row_new (match, i, TRUE);
  g_list_store_splice (store, 0, 0, rows, n_ops + n_removed);
  for (guint i = 0; i < n_ops + n_removed; i++)
    g_object_unref (rows[i]);
  return G_LIST_MODEL (store);
}

SlConversionRowStatus
sl_conversion_row_get_status (SlConversionRow *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_ROW (self), SL_CONVERSION_ROW_REMOVED);
  if (self->removed)
    return SL_CONVERSION_ROW_REMOVED;
  return (SlConversionRowStatus) sl_conversion_match_get_op_status (self->match, self->index);
}

const char *
sl_conversion_row_get_name (SlConversionRow *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_ROW (self), "");
  return self->removed ? "" : sl_conversion_match_get_op_name (self->match, self->index);
}

const char *
sl_conversion_row_get_op_type (SlConversionRow *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_ROW (self), "");
  return self->removed ? sl_conversion_match_get_removed_type (self->match, self->index)
                       : sl_conversion_match_get_op_type (self->match, self->index);
}

guint
sl_conversion_row_get_n_sources (SlConversionRow *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_ROW (self), 0);
  return self->removed ? 1 : sl_conversion_match_get_op_n_sources (self->match, self->index);
}

const char *
sl_conversion_row_get_source (SlConversionRow *self,
                              guint            index,
                              gboolean        *found)
{
  g_return_val_if_fail (SL_IS_CONVERSION_ROW (self), NULL);
  g_return_val_if_fail (index < sl_conversion_row_get_n_sources (self), NULL);

  if (self->removed)
    {
      if (found != NULL)
        *found = TRUE;
      return sl_conversion_match_get_removed_name (self->match, self->index);
    }
  return sl_conversion_match_get_op_source (self->match, self->index, index, found);
}

/**
 * sl_conversion_row_dup_sources:
 *
 * Returns: (transfer full): the source ops joined by ", "
 */
char *
sl_conversion_row_dup_sources (SlConversionRow *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_ROW (self), g_strdup (""));
  if (self->removed)
    return g_strdup (sl_conversion_match_get_removed_name (self->match, self->index));
  return sl_conversion_match_dup_op_sources (self->match, self->index);
}

const char *
sl_conversion_row_status_to_label (SlConversionRowStatus status)
{
  if (status == SL_CONVERSION_ROW_REMOVED)
    /* Translators: a source op no converted op stands for */
    return C_("conversion", "Removed");
  return sl_conversion_status_to_label ((SlConversionStatus) status);
}
