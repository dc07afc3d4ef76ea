/* sl-performance-tile.c
 *
 * The tile is its template, sl-performance-tile.ui: the figure over its
 * name, both bound to the tile's properties. The figure is green when it
 * is within its threshold and red when it is not.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-performance-tile.h"

struct _SlPerformanceTile
{
  GtkFlowBoxChild parent_instance;

  char           *value;
  char           *label;
  GtkWidget      *value_label;
};

G_DEFINE_FINAL_TYPE (SlPerformanceTile, sl_performance_tile, GTK_TYPE_FLOW_BOX_CHILD)

enum {
  PROP_0,
  PROP_VALUE,
  PROP_LABEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_performance_tile_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SlPerformanceTile *self = SL_PERFORMANCE_TILE (object);

  switch (prop_id)
    {
    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_performance_tile_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SlPerformanceTile *self = SL_PERFORMANCE_TILE (object);

  switch (prop_id)
    {
    case PROP_VALUE:
      g_free (self->value);
      self->value = g_value_dup_string (value);
      break;
    case PROP_LABEL:
      g_free (self->label);
      self->label = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_performance_tile_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_PERFORMANCE_TILE);
  G_OBJECT_CLASS (sl_performance_tile_parent_class)->dispose (object);
}

static void
sl_performance_tile_finalize (GObject *object)
{
  SlPerformanceTile *self = SL_PERFORMANCE_TILE (object);

  g_free (self->value);
  g_free (self->label);
  G_OBJECT_CLASS (sl_performance_tile_parent_class)->finalize (object);
}

static void
sl_performance_tile_class_init (SlPerformanceTileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = sl_performance_tile_get_property;
  object_class->set_property = sl_performance_tile_set_property;
  object_class->dispose = sl_performance_tile_dispose;
  object_class->finalize = sl_performance_tile_finalize;

  properties[PROP_VALUE] = g_param_spec_string ("value", NULL, NULL, NULL,
                                                G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL,
                                                G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-performance-tile.ui");
  gtk_widget_class_bind_template_child (widget_class, SlPerformanceTile, value_label);
}

static void
sl_performance_tile_init (SlPerformanceTile *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
sl_performance_tile_new (const SlPerformanceItem *item)
{
  g_autofree char *value = NULL;
  g_autofree char *tooltip = NULL;
  SlPerformanceTile *self;

  g_return_val_if_fail (item != NULL, NULL);

  value = sl_performance_item_format_value (item);
  self = g_object_new (SL_TYPE_PERFORMANCE_TILE, "value", value, "label", item->label, "name", item->key, NULL);
  if (item->status == SL_PERFORMANCE_STATUS_GOOD)
    gtk_widget_add_css_class (self->value_label, "success");
  else if (item->status == SL_PERFORMANCE_STATUS_BAD)
    gtk_widget_add_css_class (self->value_label, "error");
  return GTK_WIDGET (self);
}

const char *
sl_performance_tile_get_value (SlPerformanceTile *self)
{
  g_return_val_if_fail (SL_IS_PERFORMANCE_TILE (self), NULL);
  return self->value;
}

const char *
sl_performance_tile_get_label (SlPerformanceTile *self)
{
  g_return_val_if_fail (SL_IS_PERFORMANCE_TILE (self), NULL);
  return self->label;
}
