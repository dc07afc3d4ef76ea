/* sl-graph-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-result.h"

struct _SlGraphResult
{
  GObject  parent_instance;

  guint32  item;
  char    *label;
  char    *path;
};

G_DEFINE_FINAL_TYPE (SlGraphResult, sl_graph_result, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ITEM,
  PROP_LABEL,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_graph_result_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SlGraphResult *self = SL_GRAPH_RESULT (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_uint (value, self->item);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_graph_result_finalize (GObject *object)
{
  SlGraphResult *self = SL_GRAPH_RESULT (object);

  g_free (self->label);
  g_free (self->path);

  G_OBJECT_CLASS (sl_graph_result_parent_class)->finalize (object);
}

static void
sl_graph_result_class_init (SlGraphResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sl_graph_result_get_property;
  object_class->finalize = sl_graph_result_finalize;

  properties[PROP_ITEM] =
    g_param_spec_uint ("item", NULL, NULL, 0, G_MAXUINT32, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_graph_result_init (SlGraphResult *self)
{
}

SlGraphResult *
sl_graph_result_new (guint32     item,
                     const char *label,
                     const char *path)
{
  SlGraphResult *self = g_object_new (SL_TYPE_GRAPH_RESULT, NULL);

  self->item = item;
  self->label = g_strdup (label);
  self->path = g_strdup (path);
  return self;
}

guint32
sl_graph_result_get_item (SlGraphResult *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_RESULT (self), 0);

  return self->item;
}

const char *
sl_graph_result_get_label (SlGraphResult *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_RESULT (self), NULL);

  return self->label;
}

const char *
sl_graph_result_get_path (SlGraphResult *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_RESULT (self), NULL);

  return self->path;
}
