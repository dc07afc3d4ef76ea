/* sl-timeline-link.c
 *
 * Each view keeps its own time origin; the link maps a time t of the
 * base to t + offset in the comparison (offset = the comparison's anchor
 * − the base's anchor). Whichever view moves, by keys, wheel, drag or
 * undo, the other gets the same window moved by the offset. A view that
 * is following does not lead: that is what stops the echo. A follower
 * clamped at its trace's ends is not pushed back onto the leader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-timeline-link.h"

struct _SlTimelineLink
{
  GObject         parent_instance;

  SlTimelineView *base;
  SlTimelineView *comparison;
  gint64          offset;
  gboolean        linked;
  gboolean        following;
};

G_DEFINE_FINAL_TYPE (SlTimelineLink, sl_timeline_link, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LINKED,
  PROP_OFFSET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
follow (SlTimelineLink *self,
        SlTimelineView *leader,
        SlTimelineView *follower,
        gint64          shift)
{
  gint64 start, end, follower_start, follower_end;

  if (!self->linked || self->following
      || sl_timeline_view_get_trace (leader) == NULL || sl_timeline_view_get_trace (follower) == NULL)
    return;

  sl_timeline_view_get_window (leader, &start, &end);
  sl_timeline_view_get_window (follower, &follower_start, &follower_end);
  if (follower_start == start + shift && follower_end == end + shift)
    return;

  self->following = TRUE;
  sl_timeline_view_follow_window (follower, start + shift, end + shift);
  self->following = FALSE;
}

static void
base_moved_cb (SlTimelineLink *self)
{
  follow (self, self->base, self->comparison, self->offset);
}

static void
comparison_moved_cb (SlTimelineLink *self)
{
  follow (self, self->comparison, self->base, -self->offset);
}

gboolean
sl_timeline_link_get_linked (SlTimelineLink *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_LINK (self), FALSE);
  return self->linked;
}

/* Linking again brings the comparison to the base. */
void
sl_timeline_link_set_linked (SlTimelineLink *self,
                             gboolean        linked)
{
  g_return_if_fail (SL_IS_TIMELINE_LINK (self));

  linked = !!linked;
  if (self->linked == linked)
    return;
  self->linked = linked;
  base_moved_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINKED]);
}

gint64
sl_timeline_link_get_offset (SlTimelineLink *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_LINK (self), 0);
  return self->offset;
}

void
sl_timeline_link_align (SlTimelineLink *self,
                        gint64          base_start_ns,
                        gint64          comparison_start_ns,
                        gint64          duration_ns)
{
  g_return_if_fail (SL_IS_TIMELINE_LINK (self));
  g_return_if_fail (duration_ns > 0);

  self->offset = comparison_start_ns - base_start_ns;
  self->following = TRUE;
  sl_timeline_view_set_window (self->base, base_start_ns, base_start_ns + duration_ns);
  sl_timeline_view_set_window (self->comparison, comparison_start_ns, comparison_start_ns + duration_ns);
  self->following = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFSET]);
}

static void
sl_timeline_link_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlTimelineLink *self = SL_TIMELINE_LINK (object);

  switch (prop_id)
    {
    case PROP_LINKED:
      g_value_set_boolean (value, self->linked);
      break;
    case PROP_OFFSET:
      g_value_set_int64 (value, self->offset);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_link_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SlTimelineLink *self = SL_TIMELINE_LINK (object);

  switch (prop_id)
    {
    case PROP_LINKED:
      sl_timeline_link_set_linked (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_link_dispose (GObject *object)
{
  SlTimelineLink *self = SL_TIMELINE_LINK (object);

  if (self->base != NULL)
    g_signal_handlers_disconnect_by_data (self->base, self);
  if (self->comparison != NULL)
    g_signal_handlers_disconnect_by_data (self->comparison, self);
  g_clear_object (&self->base);
  g_clear_object (&self->comparison);

  G_OBJECT_CLASS (sl_timeline_link_parent_class)->dispose (object);
}

static void
sl_timeline_link_class_init (SlTimelineLinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_timeline_link_dispose;
  object_class->get_property = sl_timeline_link_get_property;
  object_class->set_property = sl_timeline_link_set_property;

  properties[PROP_LINKED] =
    g_param_spec_boolean ("linked", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OFFSET] =
    g_param_spec_int64 ("offset", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_timeline_link_init (SlTimelineLink *self)
{
  self->linked = TRUE;
}

/**
 * sl_timeline_link_new:
 *
 * Returns: (transfer full): a link, on, at offset 0
 */
SlTimelineLink *
sl_timeline_link_new (SlTimelineView *base,
                      SlTimelineView *comparison)
{
  SlTimelineLink *self;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (base), NULL);
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (comparison), NULL);
  g_return_val_if_fail (base != comparison, NULL);

  self = g_object_new (SL_TYPE_TIMELINE_LINK, NULL);
  self->base = g_object_ref (base);
  self->comparison = g_object_ref (comparison);
  /* Both ends notify; the second finds the follower already there. */
  g_signal_connect_swapped (base, "notify::window-start", G_CALLBACK (base_moved_cb), self);
  g_signal_connect_swapped (base, "notify::window-end", G_CALLBACK (base_moved_cb), self);
  g_signal_connect_swapped (comparison, "notify::window-start", G_CALLBACK (comparison_moved_cb), self);
  g_signal_connect_swapped (comparison, "notify::window-end", G_CALLBACK (comparison_moved_cb), self);
  return self;
}
