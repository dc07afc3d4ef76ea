/* sl-lineage-column-item.c
 *
 * A row of the Lineage page's column chooser: the column's position in
 * the table and its key, the heading of its group when it is the first
 * of that group, and whether the table and the parallel coordinates
 * show it (the one property that changes; the page follows it).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-lineage-column-item.h"

struct _SlLineageColumnItem
{
  GObject   parent_instance;

  guint     column;
  char     *key;
  char     *heading;
  gboolean  shown;
};

G_DEFINE_FINAL_TYPE (SlLineageColumnItem, sl_lineage_column_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_COLUMN,
  PROP_KEY,
  PROP_HEADING,
  PROP_HAS_HEADING,
  PROP_FIRST,
  PROP_SHOWN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_lineage_column_item_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  SlLineageColumnItem *self = SL_LINEAGE_COLUMN_ITEM (object);

  switch (prop_id)
    {
    case PROP_COLUMN:
      g_value_set_uint (value, self->column);
      break;
    case PROP_KEY:
      g_value_set_string (value, self->key);
      break;
    case PROP_HEADING:
      g_value_set_string (value, self->heading);
      break;
    case PROP_HAS_HEADING:
      g_value_set_boolean (value, self->heading != NULL);
      break;
    case PROP_FIRST:
      g_value_set_boolean (value, self->column == 0);
      break;
    case PROP_SHOWN:
      g_value_set_boolean (value, self->shown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_lineage_column_item_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  SlLineageColumnItem *self = SL_LINEAGE_COLUMN_ITEM (object);

  switch (prop_id)
    {
    case PROP_SHOWN:
      sl_lineage_column_item_set_shown (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_lineage_column_item_finalize (GObject *object)
{
  SlLineageColumnItem *self = SL_LINEAGE_COLUMN_ITEM (object);

  g_free (self->key);
  g_free (self->heading);

  G_OBJECT_CLASS (sl_lineage_column_item_parent_class)->finalize (object);
}

static void
sl_lineage_column_item_class_init (SlLineageColumnItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_lineage_column_item_finalize;
  object_class->get_property = sl_lineage_column_item_get_property;
  object_class->set_property = sl_lineage_column_item_set_property;

  properties[PROP_COLUMN] =
    g_param_spec_uint ("column", NULL, NULL, 0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_KEY] =
    g_param_spec_string ("key", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* The group's name above its first column, NULL on the others. */
  properties[PROP_HEADING] =
    g_param_spec_string ("heading", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_HAS_HEADING] =
    g_param_spec_boolean ("has-heading", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* The table's first column, whose heading needs no room above it. */
  properties[PROP_FIRST] =
    g_param_spec_boolean ("first", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOWN] =
    g_param_spec_boolean ("shown", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_lineage_column_item_init (SlLineageColumnItem *self)
{
}

/**
 * sl_lineage_column_item_new:
 * @heading: (nullable): the group's name when @column is its first
 */
SlLineageColumnItem *
sl_lineage_column_item_new (guint       column,
                            const char *key,
                            const char *heading,
                            gboolean    shown)
{
  SlLineageColumnItem *self = g_object_new (SL_TYPE_LINEAGE_COLUMN_ITEM, NULL);

  self->column = column;
  self->key = g_strdup (key);
  self->heading = g_strdup (heading);
  self->shown = shown;
  return self;
}

guint
sl_lineage_column_item_get_column (SlLineageColumnItem *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_COLUMN_ITEM (self), 0);
  return self->column;
}

gboolean
sl_lineage_column_item_get_shown (SlLineageColumnItem *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_COLUMN_ITEM (self), FALSE);
  return self->shown;
}

void
sl_lineage_column_item_set_shown (SlLineageColumnItem *self,
                                  gboolean             shown)
{
  g_return_if_fail (SL_IS_LINEAGE_COLUMN_ITEM (self));

  shown = !!shown;
  if (self->shown == shown)
    return;
  self->shown = shown;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWN]);
}
