/* sl-compare-entry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-compare-entry.h"

struct _SlCompareEntry
{
  GObject                     parent_instance;

  SlProfileCompare          **result;
  const SlProfileCompareItem *item;
  const SlProfileCompareRow  *row;
};

G_DEFINE_FINAL_TYPE (SlCompareEntry, sl_compare_entry, G_TYPE_OBJECT)

static void
clear_result (gpointer data)
{
  SlProfileCompare **result = data;

  g_clear_pointer (result, sl_profile_compare_free);
}

SlProfileCompare **
sl_compare_result_new (SlProfileCompare *result)
{
  SlProfileCompare **box = g_rc_box_new (SlProfileCompare *);

  *box = result;
  return box;
}

SlProfileCompare **
sl_compare_result_acquire (SlProfileCompare **result)
{
  return g_rc_box_acquire (result);
}

void
sl_compare_result_release (SlProfileCompare **result)
{
  g_rc_box_release_full (result, clear_result);
}

static void
sl_compare_entry_finalize (GObject *object)
{
  SlCompareEntry *self = SL_COMPARE_ENTRY (object);

  g_clear_pointer (&self->result, sl_compare_result_release);
  G_OBJECT_CLASS (sl_compare_entry_parent_class)->finalize (object);
}

static void
sl_compare_entry_class_init (SlCompareEntryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_compare_entry_finalize;
}

static void
sl_compare_entry_init (SlCompareEntry *self)
{
}

SlCompareEntry *
sl_compare_entry_new_item (SlProfileCompare **result,
                           guint              index)
{
  SlCompareEntry *self;

  g_return_val_if_fail (result != NULL && *result != NULL, NULL);
  g_return_val_if_fail (index < SL_PROFILE_COMPARE_N_ITEMS, NULL);

  self = g_object_new (SL_TYPE_COMPARE_ENTRY, NULL);
  self->result = sl_compare_result_acquire (result);
  self->item = &(*result)->items[index];
  return self;
}

SlCompareEntry *
sl_compare_entry_new_row (SlProfileCompare         **result,
                          const SlProfileCompareRow *row)
{
  SlCompareEntry *self;

  g_return_val_if_fail (result != NULL && row != NULL, NULL);

  self = g_object_new (SL_TYPE_COMPARE_ENTRY, NULL);
  self->result = sl_compare_result_acquire (result);
  self->row = row;
  return self;
}

const SlProfileCompareItem *
sl_compare_entry_get_item (SlCompareEntry *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_ENTRY (self), NULL);
  return self->item;
}

const SlProfileCompareRow *
sl_compare_entry_get_row (SlCompareEntry *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_ENTRY (self), NULL);
  return self->row;
}

char *
sl_compare_entry_dup_name (SlCompareEntry *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_ENTRY (self), NULL);

  if (self->item != NULL)
    return g_strdup (sl_profile_compare_item_label (self->item->kind));
  if (self->row->input_shapes != NULL && self->row->input_shapes[0] != '\0')
    return g_strdup_printf ("%s [%s]", self->row->type, self->row->input_shapes);
  return g_strdup (self->row->type);
}

gint64
sl_compare_entry_get_base_ns (SlCompareEntry *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_ENTRY (self), -1);
  if (self->item != NULL)
    return self->item->base_ns;
  return self->row->present[0] ? self->row->total_ns[0] : -1;
}

gint64
sl_compare_entry_get_comparison_ns (SlCompareEntry *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_ENTRY (self), -1);
  if (self->item != NULL)
    return self->item->comparison_ns;
  return self->row->present[1] ? self->row->total_ns[1] : -1;
}

gint64
sl_compare_entry_get_diff_ns (SlCompareEntry *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_ENTRY (self), 0);
  return self->item != NULL ? self->item->diff_ns : self->row->diff_ns;
}

double
sl_compare_entry_get_ratio (SlCompareEntry *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_ENTRY (self), NAN);
  return self->item != NULL ? self->item->ratio : self->row->ratio;
}
