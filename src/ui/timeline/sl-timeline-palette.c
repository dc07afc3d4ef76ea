/* sl-timeline-palette.c
 *
 * The settings are the state: the popover's buttons are bound to them and
 * every change, from here, from another window or from dconf, reaches the
 * renderer through one handler. The legend says each colour's share of
 * the timeline and what that is in time on the trace shown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-timeline-palette.h"

struct _SlTimelinePalette
{
  GtkWidget       parent_instance;

  GSettings      *settings;
  SlTimelineView *view;
  gint64          shown_span_ns;   /* the span the legend was written for */

  GtkWidget      *legend;
  GtkDrawingArea *short_swatch;
  GtkDrawingArea *medium_swatch;
  GtkDrawingArea *long_swatch;
  GtkLabel       *short_label;
  GtkLabel       *medium_label;
  GtkLabel       *long_label;
  GtkMenuButton  *button;
  GtkCheckButton *name_check;
  GtkCheckButton *duration_check;
  GtkSpinButton  *yellow_spin;
  GtkSpinButton  *red_spin;
};

G_DEFINE_FINAL_TYPE (SlTimelinePalette, sl_timeline_palette, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gint64
trace_span_ns (SlTimelinePalette *self)
{
  SlTrace *trace = self->view != NULL ? sl_timeline_view_get_trace (self->view) : NULL;

  return trace != NULL ? sl_trace_get_end_ns (trace) - sl_trace_get_start_ns (trace) : -1;
}

/* "5", "2.5", "0.25": the two decimals the spin buttons take, no more. */
static char *
format_percent (double percent)
{
  g_autofree char *text = g_strdup_printf ("%.2f", percent);
  char *end = text + strlen (text) - 1;

  while (*end == '0')
    *end-- = '\0';
  if (*end == '.')
    *end = '\0';
  return g_steal_pointer (&text);
}

/* The threshold as a time on the trace shown, or NULL without one. */
static char *
format_threshold_time (gint64 span_ns,
                       double percent)
{
  if (span_ns < 0)
    return NULL;
  return sl_timeline_format_duration ((gint64)round (span_ns * percent / 100.0));
}

static void
update_legend (SlTimelinePalette *self)
{
  double yellow = g_settings_get_double (self->settings, "timeline-yellow-percent");
  double red = MAX (g_settings_get_double (self->settings, "timeline-red-percent"), yellow);
  gint64 span = trace_span_ns (self);
  g_autofree char *yellow_text = format_percent (yellow);
  g_autofree char *red_text = format_percent (red);
  g_autofree char *yellow_time = format_threshold_time (span, yellow);
  g_autofree char *red_time = format_threshold_time (span, red);
  g_autofree char *short_text = NULL;
  g_autofree char *medium_text = NULL;
  g_autofree char *long_text = NULL;

  self->shown_span_ns = span;
  /* TRANSLATORS: the green slices of the duration palette: a share of the
   * timeline's span, then that share as a time */
  short_text = yellow_time ? g_strdup_printf (_("≤ %s%% (≤ %s)"), yellow_text, yellow_time)
                           : g_strdup_printf (_("≤ %s%%"), yellow_text);
  /* TRANSLATORS: the yellow slices of the duration palette: between two
   * shares of the timeline's span */
  medium_text = g_strdup_printf (_("%s–%s%%"), yellow_text, red_text);
  /* TRANSLATORS: the red slices of the duration palette */
  long_text = red_time ? g_strdup_printf (_("≥ %s%% (≥ %s)"), red_text, red_time)
                       : g_strdup_printf (_("≥ %s%%"), red_text);
  gtk_label_set_label (self->short_label, short_text);
  gtk_label_set_label (self->medium_label, medium_text);
  gtk_label_set_label (self->long_label, long_text);
}

static void
apply_settings (SlTimelinePalette *self)
{
  SlTimelineColorMode mode = g_settings_get_enum (self->settings, "timeline-color-mode");

  gtk_widget_set_visible (self->legend, mode == SL_TIMELINE_COLOR_BY_DURATION);
  update_legend (self);
  if (self->view == NULL)
    return;

  sl_timeline_renderer_set_color_mode (sl_timeline_view_get_renderer (self->view), mode);
  sl_timeline_renderer_set_duration_thresholds (sl_timeline_view_get_renderer (self->view),
                                                g_settings_get_double (self->settings, "timeline-yellow-percent"),
                                                g_settings_get_double (self->settings, "timeline-red-percent"));
  gtk_widget_queue_draw (GTK_WIDGET (self->view));
}

/* Keeps yellow ≤ red by moving the other threshold, as a user who drags
 * one past the other means. */
static void
settings_changed_cb (SlTimelinePalette *self,
                     const char        *key)
{
  double yellow = g_settings_get_double (self->settings, "timeline-yellow-percent");
  double red = g_settings_get_double (self->settings, "timeline-red-percent");

  if (yellow > red)
    {
      if (g_strcmp0 (key, "timeline-red-percent") == 0)
        g_settings_set_double (self->settings, "timeline-yellow-percent", red);
      else
        g_settings_set_double (self->settings, "timeline-red-percent", yellow);
      return;   /* the write comes back here */
    }
  apply_settings (self);
}

/* A new trace has another span: the legend's times follow. */
static void
window_changed_cb (SlTimelinePalette *self)
{
  if (trace_span_ns (self) != self->shown_span_ns)
    update_legend (self);
}

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  double rgb[3];

  sl_timeline_color_for_duration (GPOINTER_TO_UINT (user_data),
                                  adw_style_manager_get_dark (adw_style_manager_get_default ()), rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

static void
style_changed_cb (SlTimelinePalette *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->short_swatch));
  gtk_widget_queue_draw (GTK_WIDGET (self->medium_swatch));
  gtk_widget_queue_draw (GTK_WIDGET (self->long_swatch));
}

/* A check button stands for one mode: it writes its mode when it becomes
 * active and nothing when the group turns it off. */
static gboolean
mode_to_active (GValue   *value,
                GVariant *variant,
                gpointer  user_data)
{
  g_value_set_boolean (value, g_strcmp0 (g_variant_get_string (variant, NULL), user_data) == 0);
  return TRUE;
}

static GVariant *
active_to_mode (const GValue       *value,
                const GVariantType *expected_type,
                gpointer            user_data)
{
  return g_value_get_boolean (value) ? g_variant_new_string (user_data) : NULL;
}

static void
bind_settings (SlTimelinePalette *self)
{
  g_settings_bind (self->settings, "timeline-yellow-percent", self->yellow_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "timeline-red-percent", self->red_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "timeline-color-mode", self->name_check, "active", G_SETTINGS_BIND_DEFAULT,
                                mode_to_active, active_to_mode, (gpointer)"name", NULL);
  g_settings_bind_with_mapping (self->settings, "timeline-color-mode", self->duration_check, "active", G_SETTINGS_BIND_DEFAULT,
                                mode_to_active, active_to_mode, (gpointer)"duration", NULL);
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
sl_timeline_palette_new (void)
{
  return g_object_new (SL_TYPE_TIMELINE_PALETTE, NULL);
}

/**
 * sl_timeline_palette_set_view:
 * @view: (nullable): the timeline whose colours this sets
 */
void
sl_timeline_palette_set_view (SlTimelinePalette *self,
                              SlTimelineView    *view)
{
  g_return_if_fail (SL_IS_TIMELINE_PALETTE (self));
  g_return_if_fail (view == NULL || SL_IS_TIMELINE_VIEW (view));

  if (self->view == view)
    return;
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_set_object (&self->view, view);
  if (view != NULL)
    g_signal_connect_object (view, "window-changed", G_CALLBACK (window_changed_cb), self, G_CONNECT_SWAPPED);
  apply_settings (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

SlTimelineView *
sl_timeline_palette_get_view (SlTimelinePalette *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PALETTE (self), NULL);

  return self->view;
}

const char *
sl_timeline_palette_get_legend_text (SlTimelinePalette       *self,
                                     SlTimelineDurationClass  duration_class)
{
  GtkLabel *labels[] = { self->short_label, self->medium_label, self->long_label };

  g_return_val_if_fail (SL_IS_TIMELINE_PALETTE (self), NULL);
  g_return_val_if_fail (duration_class <= SL_TIMELINE_DURATION_LONG, NULL);

  if (!gtk_widget_get_visible (self->legend))
    return NULL;
  return gtk_label_get_label (labels[duration_class]);
}

GtkMenuButton *
sl_timeline_palette_get_button (SlTimelinePalette *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_PALETTE (self), NULL);

  return self->button;
}

static void
sl_timeline_palette_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SlTimelinePalette *self = SL_TIMELINE_PALETTE (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_object (value, self->view);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_palette_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SlTimelinePalette *self = SL_TIMELINE_PALETTE (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      sl_timeline_palette_set_view (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_palette_dispose (GObject *object)
{
  SlTimelinePalette *self = SL_TIMELINE_PALETTE (object);

  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_object (&self->view);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_TIMELINE_PALETTE);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (sl_timeline_palette_parent_class)->dispose (object);
}

static void
sl_timeline_palette_class_init (SlTimelinePaletteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_timeline_palette_dispose;
  object_class->get_property = sl_timeline_palette_get_property;
  object_class->set_property = sl_timeline_palette_set_property;

  properties[PROP_VIEW] =
    g_param_spec_object ("view", NULL, NULL, SL_TYPE_TIMELINE_VIEW,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-timeline-palette.ui");
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, legend);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, short_swatch);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, medium_swatch);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, long_swatch);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, short_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, medium_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, long_label);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, button);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, name_check);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, duration_check);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, yellow_spin);
  gtk_widget_class_bind_template_child (widget_class, SlTimelinePalette, red_spin);
  gtk_widget_class_set_css_name (widget_class, "timelinepalette");
}

static void
sl_timeline_palette_init (SlTimelinePalette *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_drawing_area_set_draw_func (self->short_swatch, draw_swatch, GUINT_TO_POINTER (SL_TIMELINE_DURATION_SHORT), NULL);
  gtk_drawing_area_set_draw_func (self->medium_swatch, draw_swatch, GUINT_TO_POINTER (SL_TIMELINE_DURATION_MEDIUM), NULL);
  gtk_drawing_area_set_draw_func (self->long_swatch, draw_swatch, GUINT_TO_POINTER (SL_TIMELINE_DURATION_LONG), NULL);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (style_changed_cb), self,
                           G_CONNECT_SWAPPED);

  self->settings = g_settings_new (APP_ID);
  bind_settings (self);
  apply_settings (self);
}
