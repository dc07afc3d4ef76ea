/* sl-lineage-importance-item.c
 *
 * A row of the Lineage page's Importance view: the parameter ("key ·
 * group"), its absolute Pearson and Spearman correlations with the
 * target as bar values (0 when there is none) and as text ("—" when
 * there is none), and the number of runs they come from.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-lineage-importance-item.h"

struct _SlLineageImportanceItem
{
  GObject  parent_instance;

  char    *name;
  double   pearson;
  double   spearman;
  guint    n_runs;
};

G_DEFINE_FINAL_TYPE (SlLineageImportanceItem, sl_lineage_importance_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_PEARSON,
  PROP_PEARSON_TEXT,
  PROP_SPEARMAN,
  PROP_SPEARMAN_TEXT,
  PROP_RUNS_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
format_correlation (double value)
{
  return isnan (value) ? g_strdup ("—") : g_strdup_printf ("%.3f", value);
}

static void
sl_lineage_importance_item_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  SlLineageImportanceItem *self = SL_LINEAGE_IMPORTANCE_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_PEARSON:
      g_value_set_double (value, isnan (self->pearson) ? 0 : self->pearson);
      break;
    case PROP_PEARSON_TEXT:
      g_value_take_string (value, format_correlation (self->pearson));
      break;
    case PROP_SPEARMAN:
      g_value_set_double (value, isnan (self->spearman) ? 0 : self->spearman);
      break;
    case PROP_SPEARMAN_TEXT:
      g_value_take_string (value, format_correlation (self->spearman));
      break;
    case PROP_RUNS_TEXT:
      g_value_take_string (value, g_strdup_printf ("%u", self->n_runs));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_lineage_importance_item_finalize (GObject *object)
{
  SlLineageImportanceItem *self = SL_LINEAGE_IMPORTANCE_ITEM (object);

  g_free (self->name);

  G_OBJECT_CLASS (sl_lineage_importance_item_parent_class)->finalize (object);
}

static void
sl_lineage_importance_item_class_init (SlLineageImportanceItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_lineage_importance_item_finalize;
  object_class->get_property = sl_lineage_importance_item_get_property;

  /* "key · group" */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PEARSON] =
    g_param_spec_double ("pearson", NULL, NULL, 0, 1, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PEARSON_TEXT] =
    g_param_spec_string ("pearson-text", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPEARMAN] =
    g_param_spec_double ("spearman", NULL, NULL, 0, 1, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPEARMAN_TEXT] =
    g_param_spec_string ("spearman-text", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNS_TEXT] =
    g_param_spec_string ("runs-text", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_lineage_importance_item_init (SlLineageImportanceItem *self)
{
}

/**
 * sl_lineage_importance_item_new:
 * @pearson: |Pearson| in 0…1, NaN when it cannot be computed
 * @spearman: |Spearman| in 0…1, NaN when it cannot be computed
 */
SlLineageImportanceItem *
sl_lineage_importance_item_new (const char *name,
                                double      pearson,
                                double      spearman,
                                guint       n_runs)
{
  SlLineageImportanceItem *self = g_object_new (SL_TYPE_LINEAGE_IMPORTANCE_ITEM, NULL);

  self->name = g_strdup (name);
  self->pearson = isnan (pearson) ? NAN : CLAMP (pearson, 0, 1);
  self->spearman = isnan (spearman) ? NAN : CLAMP (spearman, 0, 1);
  self->n_runs = n_runs;
  return self;
}
