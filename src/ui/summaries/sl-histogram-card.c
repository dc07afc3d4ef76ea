/* sl-histogram-card.c
 *
 * Wraps an SlHistogramChart with its tag, its run and, in overlay mode, a
 * slider for the step drawn on top. While the slider is at the newest step
 * it follows training; moved back, it stays where it was put.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-histogram-card.h"

#define CHART_WIDTH 320
#define CHART_HEIGHT 260

struct _SlHistogramCard
{
  GtkBox             parent_instance;

  SlHistogramSeries *series;
  char              *run_name;
  guint              palette_index;
  SlHistogramMode    mode;

  SlHistogramChart  *chart;
  GtkBox            *chart_box;
  GtkScale          *step_scale;
  GtkAdjustment     *step_adjustment;
};

G_DEFINE_FINAL_TYPE (SlHistogramCard, sl_histogram_card, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_SERIES,
  PROP_RUN_NAME,
  PROP_PALETTE_INDEX,
  PROP_TAG,
  PROP_MODE,
  PROP_STEP_INDEX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* A scale needs a range even for a single step; it is insensitive then. */
static void
update_step_range (SlHistogramCard *self)
{
  guint n = sl_histogram_chart_get_n_steps (self->chart);

  gtk_adjustment_set_upper (self->step_adjustment, MAX (2, n) - 1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->step_scale), n > 1);
}

static void
step_value_changed_cb (SlHistogramCard *self)
{
  guint index = (guint)gtk_adjustment_get_value (self->step_adjustment);

  if (index == sl_histogram_chart_get_step_index (self->chart))
    return;
  sl_histogram_chart_set_step_index (self->chart, index);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP_INDEX]);
}

static void
sl_histogram_card_constructed (GObject *object)
{
  SlHistogramCard *self = (SlHistogramCard *)object;

  G_OBJECT_CLASS (sl_histogram_card_parent_class)->constructed (object);

  /* The chart is made for its series: it has no properties a template
   * could set. */
  self->chart = SL_HISTOGRAM_CHART (sl_histogram_chart_new (self->series, self->palette_index));
  gtk_widget_set_size_request (GTK_WIDGET (self->chart), CHART_WIDTH, CHART_HEIGHT);
  gtk_box_append (self->chart_box, GTK_WIDGET (self->chart));
  sl_histogram_chart_set_mode (self->chart, self->mode);

  /* The template bound the tag before the series was set. */
  g_object_notify_by_pspec (object, properties[PROP_TAG]);
  update_step_range (self);
  gtk_adjustment_set_value (self->step_adjustment, sl_histogram_chart_get_step_index (self->chart));
  g_signal_connect_object (self->step_adjustment, "value-changed", G_CALLBACK (step_value_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

static void
sl_histogram_card_dispose (GObject *object)
{
  SlHistogramCard *self = (SlHistogramCard *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_HISTOGRAM_CARD);
  g_clear_object (&self->series);

  G_OBJECT_CLASS (sl_histogram_card_parent_class)->dispose (object);
}

static void
sl_histogram_card_finalize (GObject *object)
{
  SlHistogramCard *self = (SlHistogramCard *)object;

  g_clear_pointer (&self->run_name, g_free);

  G_OBJECT_CLASS (sl_histogram_card_parent_class)->finalize (object);
}

static void
sl_histogram_card_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SlHistogramCard *self = SL_HISTOGRAM_CARD (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      g_value_set_object (value, self->series);
      break;
    case PROP_RUN_NAME:
      g_value_set_string (value, self->run_name);
      break;
    case PROP_PALETTE_INDEX:
      g_value_set_uint (value, self->palette_index);
      break;
    case PROP_TAG:
      g_value_set_string (value, sl_histogram_card_get_tag (self));
      break;
    case PROP_MODE:
      g_value_set_uint (value, self->mode);
      break;
    case PROP_STEP_INDEX:
      g_value_set_uint (value, sl_histogram_card_get_step_index (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_histogram_card_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  SlHistogramCard *self = SL_HISTOGRAM_CARD (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      self->series = g_value_dup_object (value);
      break;
    case PROP_RUN_NAME:
      self->run_name = g_value_dup_string (value);
      break;
    case PROP_PALETTE_INDEX:
      self->palette_index = g_value_get_uint (value);
      break;
    case PROP_MODE:
      sl_histogram_card_set_mode (self, g_value_get_uint (value));
      break;
    case PROP_STEP_INDEX:
      sl_histogram_card_set_step_index (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_histogram_card_class_init (SlHistogramCardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = sl_histogram_card_constructed;
  object_class->dispose = sl_histogram_card_dispose;
  object_class->finalize = sl_histogram_card_finalize;
  object_class->get_property = sl_histogram_card_get_property;
  object_class->set_property = sl_histogram_card_set_property;

  properties[PROP_SERIES] =
    g_param_spec_object ("series", NULL, NULL, SL_TYPE_HISTOGRAM_SERIES,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUN_NAME] =
    g_param_spec_string ("run-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PALETTE_INDEX] =
    g_param_spec_uint ("palette-index", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TAG] =
    g_param_spec_string ("tag", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * SlHistogramCard:mode:
   *
   * An #SlHistogramMode; the step slider shows in overlay mode.
   */
  properties[PROP_MODE] =
    g_param_spec_uint ("mode", NULL, NULL, SL_HISTOGRAM_OFFSET, SL_HISTOGRAM_OVERLAY, SL_HISTOGRAM_OFFSET,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STEP_INDEX] =
    g_param_spec_uint ("step-index", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-histogram-card.ui");
  gtk_widget_class_bind_template_child (widget_class, SlHistogramCard, chart_box);
  gtk_widget_class_bind_template_child (widget_class, SlHistogramCard, step_scale);
  gtk_widget_class_bind_template_child (widget_class, SlHistogramCard, step_adjustment);

  /**
   * SlHistogramCard|card.mode:
   *
   * The #SlHistogramCard:mode as an action: 0 offset, 1 overlay.
   */
  gtk_widget_class_install_property_action (widget_class, "card.mode", "mode");
}

static void
sl_histogram_card_init (SlHistogramCard *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * sl_histogram_card_new:
 * @palette_index: the colour of the run, as in the scalar charts
 *
 * Returns: (transfer floating): a card showing the newest step on top
 */
GtkWidget *
sl_histogram_card_new (SlHistogramSeries *series,
                       const char        *run_name,
                       guint              palette_index)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_SERIES (series), NULL);

  return g_object_new (SL_TYPE_HISTOGRAM_CARD,
                       "series", series,
                       "run-name", run_name,
                       "palette-index", palette_index,
                       NULL);
}

const char *
sl_histogram_card_get_tag (SlHistogramCard *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_CARD (self), NULL);
  return self->series ? sl_histogram_series_get_tag (self->series) : NULL;
}

/**
 * sl_histogram_card_get_chart:
 *
 * Returns: (transfer none): the chart
 */
SlHistogramChart *
sl_histogram_card_get_chart (SlHistogramCard *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_CARD (self), NULL);
  return self->chart;
}

SlHistogramMode
sl_histogram_card_get_mode (SlHistogramCard *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_CARD (self), SL_HISTOGRAM_OFFSET);
  return self->mode;
}

void
sl_histogram_card_set_mode (SlHistogramCard *self,
                            SlHistogramMode  mode)
{
  g_return_if_fail (SL_IS_HISTOGRAM_CARD (self));
  g_return_if_fail (mode <= SL_HISTOGRAM_OVERLAY);

  if (mode == self->mode)
    return;

  self->mode = mode;
  if (self->chart != NULL)
    sl_histogram_chart_set_mode (self->chart, mode);
  gtk_widget_set_visible (GTK_WIDGET (self->step_scale), mode == SL_HISTOGRAM_OVERLAY);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

guint
sl_histogram_card_get_step_index (SlHistogramCard *self)
{
  g_return_val_if_fail (SL_IS_HISTOGRAM_CARD (self), 0);
  return self->chart ? sl_histogram_chart_get_step_index (self->chart) : 0;
}

void
sl_histogram_card_set_step_index (SlHistogramCard *self,
                                  guint            index)
{
  g_return_if_fail (SL_IS_HISTOGRAM_CARD (self));

  gtk_adjustment_set_value (self->step_adjustment, index);
}

/**
 * sl_histogram_card_refresh:
 *
 * Takes in the steps the series gained; the slider follows the newest
 * step if it was there.
 *
 * Returns: whether there were new steps
 */
gboolean
sl_histogram_card_refresh (SlHistogramCard *self)
{
  gboolean was_newest;

  g_return_val_if_fail (SL_IS_HISTOGRAM_CARD (self), FALSE);

  was_newest = gtk_adjustment_get_value (self->step_adjustment) >= gtk_adjustment_get_upper (self->step_adjustment);
  if (!sl_histogram_chart_refresh (self->chart))
    return FALSE;

  update_step_range (self);
  if (was_newest)
    gtk_adjustment_set_value (self->step_adjustment, sl_histogram_chart_get_step_index (self->chart));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP_INDEX]);
  return TRUE;
}
