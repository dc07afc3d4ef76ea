/* sl-memory-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-memory-row.h"

struct _SlMemoryRow
{
  GObject  parent_instance;

  char    *name;
  guint    index;
  char    *texts[SL_MEMORY_ROW_MAX_COLUMNS];
  double   keys[SL_MEMORY_ROW_MAX_COLUMNS];
};

G_DEFINE_FINAL_TYPE (SlMemoryRow, sl_memory_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_memory_row_finalize (GObject *object)
{
  SlMemoryRow *self = SL_MEMORY_ROW (object);

  g_free (self->name);
  for (guint i = 0; i < SL_MEMORY_ROW_MAX_COLUMNS; i++)
    g_free (self->texts[i]);
  G_OBJECT_CLASS (sl_memory_row_parent_class)->finalize (object);
}

static void
sl_memory_row_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SlMemoryRow *self = SL_MEMORY_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_memory_row_class_init (SlMemoryRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_memory_row_finalize;
  object_class->get_property = sl_memory_row_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_memory_row_init (SlMemoryRow *self)
{
  for (guint i = 0; i < SL_MEMORY_ROW_MAX_COLUMNS; i++)
    self->keys[i] = NAN;
}

SlMemoryRow *
sl_memory_row_new (const char *name,
                   guint       index)
{
  SlMemoryRow *self = g_object_new (SL_TYPE_MEMORY_ROW, NULL);

  self->name = g_strdup (name);
  self->index = index;
  return self;
}

const char *
sl_memory_row_get_name (SlMemoryRow *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_ROW (self), NULL);
  return self->name;
}

guint
sl_memory_row_get_index (SlMemoryRow *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_ROW (self), 0);
  return self->index;
}

void
sl_memory_row_set_cell (SlMemoryRow *self,
                        guint        column,
                        char        *text,
                        double       key)
{
  g_return_if_fail (SL_IS_MEMORY_ROW (self));
  g_return_if_fail (column < SL_MEMORY_ROW_MAX_COLUMNS);

  g_free (self->texts[column]);
  self->texts[column] = text;
  self->keys[column] = key;
}

const char *
sl_memory_row_get_text (SlMemoryRow *self,
                        guint        column)
{
  g_return_val_if_fail (SL_IS_MEMORY_ROW (self), NULL);
  g_return_val_if_fail (column < SL_MEMORY_ROW_MAX_COLUMNS, NULL);
  return self->texts[column] != NULL ? self->texts[column] : "";
}

double
sl_memory_row_get_key (SlMemoryRow *self,
                       guint        column)
{
  g_return_val_if_fail (SL_IS_MEMORY_ROW (self), NAN);
  g_return_val_if_fail (column < SL_MEMORY_ROW_MAX_COLUMNS, NAN);
  return self->keys[column];
}
