/* sl-timeline-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-timeline-item.h"

struct _SlTimelineItem
{
  GObject             parent_instance;

  SlTimelineItemData  data;
  char               *label;
  GListStore         *children;
};

G_DEFINE_FINAL_TYPE (SlTimelineItem, sl_timeline_item, G_TYPE_OBJECT)

static void
sl_timeline_item_finalize (GObject *object)
{
  SlTimelineItem *self = (SlTimelineItem *)object;

  g_clear_pointer (&self->label, g_free);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (sl_timeline_item_parent_class)->finalize (object);
}

static void
sl_timeline_item_class_init (SlTimelineItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_timeline_item_finalize;
}

static void
sl_timeline_item_init (SlTimelineItem *self)
{
}

SlTimelineItem *
sl_timeline_item_new (const SlTimelineItemData *data)
{
  SlTimelineItem *self;

  g_return_val_if_fail (data != NULL, NULL);

  self = g_object_new (SL_TYPE_TIMELINE_ITEM, NULL);
  self->data = *data;
  self->label = g_strdup (data->label ? data->label : "");
  self->data.label = self->label;
  return self;
}

const SlTimelineItemData *
sl_timeline_item_get_data (SlTimelineItem *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_ITEM (self), NULL);

  return &self->data;
}

/**
 * sl_timeline_item_get_children:
 *
 * Returns: (transfer none): the tracks of a process item (created empty
 *   on first use)
 */
GListStore *
sl_timeline_item_get_children (SlTimelineItem *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_ITEM (self), NULL);

  if (self->children == NULL)
    self->children = g_list_store_new (SL_TYPE_TIMELINE_ITEM);
  return self->children;
}
