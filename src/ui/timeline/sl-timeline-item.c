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

enum {
  PROP_0,
  PROP_LABEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_timeline_item_finalize (GObject *object)
{
  SlTimelineItem *self = (SlTimelineItem *)object;

  g_clear_pointer (&self->label, g_free);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (sl_timeline_item_parent_class)->finalize (object);
}

static void
sl_timeline_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlTimelineItem *self = SL_TIMELINE_ITEM (object);

  switch (prop_id)
    {
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_item_class_init (SlTimelineItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_timeline_item_finalize;
  object_class->get_property = sl_timeline_item_get_property;

  /* What a row shows; list rows bind it in their templates. */
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
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
