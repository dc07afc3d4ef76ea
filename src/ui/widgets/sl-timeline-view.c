/* sl-timeline-view.c
 *
 * Keys as chrome://tracing and Perfetto: W/S zoom, A/D pan (arrows too),
 * F fits, Backspace or Ctrl+Z goes back to the previous zoom. Ctrl+wheel
 * zooms at the pointer, the wheel scrolls the tracks, Shift+wheel pans.
 * Drag pans, Shift+drag zooms to a box, Alt+drag selects a time range.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-timeline-details.h"
#include "sl-timeline-view.h"
#include "sl-tooltip.h"

#define KEY_ZOOM 1.25
#define KEY_PAN_FRACTION 0.1
#define WHEEL_ZOOM 1.15
#define MIN_NS_PER_PIXEL 0.01
#define MAX_UNDO 64
#define MAX_TOOLTIP_ARGS 6
#define ROW_STEP 20

typedef enum {
  DRAG_NONE,
  DRAG_PAN,
  DRAG_BOX,
  DRAG_RANGE,
} DragMode;

typedef struct {
  gint64 t0;
  double ns_per_pixel;
} Zoom;

struct _SlTimelineView
{
  GtkWidget           parent_instance;

  SlTimelineRenderer *renderer;
  GtkAdjustment      *vadjustment;
  gint64              t0;
  double              ns_per_pixel;
  gboolean            fitted;
  /* A window asked for before the view had a width, applied at its first
   * allocation (the pixel scale needs the width); -1 when none. */
  gint64              pending_start;
  gint64              pending_end;
  /* A slice to bring into view at that allocation (G_MAXUINT: none): its
   * row can only be scrolled to once the view has a height. */
  guint               pending_track;
  guint32             pending_slice;
  /* The slice last revealed, kept in view when the view's height changes
   * (a pane opening below it) until the tracks are scrolled by hand or
   * another slice is selected; G_MAXUINT when none. */
  guint               kept_track;
  guint32             kept_slice;
  gboolean            scrolling;    /* the view moves its own scroll */
  /* The window last asked for, kept while the view is resized until it
   * is zoomed or panned (a document laid out again after a link opened
   * it at a step); -1 when none. */
  gint64              held_start;
  gint64              held_end;
  int                 held_width;
  GArray             *undo;        /* Zoom */

  DragMode            drag_mode;
  double              drag_x;
  double              drag_y;
  gint64              drag_t0;
  double              drag_scroll;

  /* The args of the hovered slice, read once */
  guint               args_track;
  guint32             args_slice;
  GPtrArray          *args;
};

G_DEFINE_FINAL_TYPE (SlTimelineView, sl_timeline_view, GTK_TYPE_WIDGET)

enum {
  SLICE_SELECTED,
  RANGE_SELECTED,
  WINDOW_CHANGED,
  PROCESS_TOGGLED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_WINDOW_START,
  PROP_WINDOW_END,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Both ends change together: one notification each, after both moved. */
static void
notify_window (SlTimelineView *self)
{
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WINDOW_START]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WINDOW_END]);
  g_object_thaw_notify (G_OBJECT (self));
}

static double
tracks_width (SlTimelineView *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - SL_TIMELINE_GUTTER_WIDTH, 1);
}

void
sl_timeline_view_get_viewport (SlTimelineView     *self,
                               SlTimelineViewport *vp)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  vp->t0 = self->t0;
  vp->ns_per_pixel = self->ns_per_pixel;
  vp->scroll_y = gtk_adjustment_get_value (self->vadjustment);
  vp->width = gtk_widget_get_width (GTK_WIDGET (self));
  vp->height = gtk_widget_get_height (GTK_WIDGET (self));
}

static void
update_vadjustment (SlTimelineView *self)
{
  double content = sl_timeline_renderer_get_content_height (self->renderer);
  double page = MAX (gtk_widget_get_height (GTK_WIDGET (self)) - SL_TIMELINE_RULER_HEIGHT
                     - sl_timeline_renderer_get_pinned_height (self->renderer), 1);

  self->scrolling = TRUE;
  gtk_adjustment_configure (self->vadjustment,
                            CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, MAX (content - page, 0)),
                            0, MAX (content, page), ROW_STEP, page * 0.9, page);
  self->scrolling = FALSE;
}

static void
clamp_window (SlTimelineView *self)
{
  SlTrace *trace = sl_timeline_renderer_get_trace (self->renderer);
  gint64 start, end, span;
  double width = tracks_width (self);

  if (trace == NULL)
    return;

  start = sl_trace_get_start_ns (trace);
  end = sl_trace_get_end_ns (trace);
  span = MAX (end - start, 1);
  /* Zoom out to the whole trace with a margin, in to a hundredth of a
   * nanosecond per pixel. */
  self->ns_per_pixel = CLAMP (self->ns_per_pixel, MIN_NS_PER_PIXEL, span * 1.1 / width);
  self->t0 = CLAMP (self->t0, start - (gint64)(span * 0.05), end - (gint64)(width * self->ns_per_pixel * 0.5));
}

static void
window_changed (SlTimelineView *self)
{
  clamp_window (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[WINDOW_CHANGED], 0);
  notify_window (self);
}

static void
push_undo (SlTimelineView *self)
{
  Zoom z = { self->t0, self->ns_per_pixel };

  if (self->undo->len >= MAX_UNDO)
    g_array_remove_index (self->undo, 0);
  g_array_append_val (self->undo, z);
}

/**
 * sl_timeline_view_reserve_images:
 * @width: the view's width to come, or more
 * @height: its height to come, or more
 *
 * Has the images the view keeps between frames made on workers while it
 * has nothing to show yet (see sl_timeline_renderer_reserve_images()), so
 * that its first frame does not wait for their memory.
 */
void
sl_timeline_view_reserve_images (SlTimelineView *self,
                                 int             width,
                                 int             height)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  sl_timeline_renderer_reserve_images (self->renderer, width, height, gtk_widget_get_scale_factor (GTK_WIDGET (self)));
}

void
sl_timeline_view_fit (SlTimelineView *self)
{
  SlTrace *trace;
  gint64 span;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  trace = sl_timeline_renderer_get_trace (self->renderer);
  if (trace == NULL)
    return;
  span = MAX (sl_trace_get_end_ns (trace) - sl_trace_get_start_ns (trace), 1);
  self->ns_per_pixel = span * 1.02 / tracks_width (self);
  self->t0 = sl_trace_get_start_ns (trace) - (gint64)(span * 0.01);
  self->fitted = TRUE;
  self->held_start = -1;
  window_changed (self);
}

/**
 * sl_timeline_view_set_lod:
 * @lod: (transfer full) (nullable): the indexed trace
 */
void
sl_timeline_view_set_lod (SlTimelineView *self,
                          SlTraceLod     *lod)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  sl_timeline_renderer_set_lod (self->renderer, lod);
  self->kept_track = self->pending_track = G_MAXUINT;
  g_clear_pointer (&self->args, g_ptr_array_unref);
  g_array_set_size (self->undo, 0);
  update_vadjustment (self);
  sl_timeline_view_fit (self);
}

/**
 * sl_timeline_view_get_trace:
 *
 * Returns: (transfer none) (nullable): the trace shown
 */
SlTrace *
sl_timeline_view_get_trace (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);

  return sl_timeline_renderer_get_trace (self->renderer);
}

SlTimelineRenderer *
sl_timeline_view_get_renderer (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);

  return self->renderer;
}

/**
 * sl_timeline_view_get_vadjustment:
 *
 * Returns: (transfer none): the vertical scroll of the tracks, for a scrollbar
 */
GtkAdjustment *
sl_timeline_view_get_vadjustment (SlTimelineView *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);

  return self->vadjustment;
}

void
sl_timeline_view_relayout (SlTimelineView *self)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  update_vadjustment (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sl_timeline_view_get_window (SlTimelineView *self,
                             gint64         *start_ns,
                             gint64         *end_ns)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (self->pending_start >= 0)
    {
      if (start_ns != NULL)
        *start_ns = self->pending_start;
      if (end_ns != NULL)
        *end_ns = self->pending_end;
      return;
    }

  if (start_ns != NULL)
    *start_ns = self->t0;
  if (end_ns != NULL)
    *end_ns = self->t0 + (gint64)round (tracks_width (self) * self->ns_per_pixel);
}

static void
move_window (SlTimelineView *self,
             gint64          start_ns,
             gint64          end_ns,
             gboolean        record_undo)
{
  if (end_ns <= start_ns)
    return;
  if (gtk_widget_get_width (GTK_WIDGET (self)) <= SL_TIMELINE_GUTTER_WIDTH)
    {
      self->pending_start = start_ns;
      self->pending_end = end_ns;
      self->fitted = FALSE;
      notify_window (self);
      return;
    }
  self->pending_start = self->pending_end = -1;
  if (record_undo)
    push_undo (self);
  self->t0 = start_ns;
  self->ns_per_pixel = (double)(end_ns - start_ns) / tracks_width (self);
  self->fitted = FALSE;
  self->held_start = start_ns;
  self->held_end = end_ns;
  self->held_width = gtk_widget_get_width (GTK_WIDGET (self));
  window_changed (self);
}

void
sl_timeline_view_set_window (SlTimelineView *self,
                             gint64          start_ns,
                             gint64          end_ns)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  move_window (self, start_ns, end_ns, TRUE);
}

/* As set_window, without a step in the zoom history: for a view that
 * follows another one, whose own history is the one to go back in. */
void
sl_timeline_view_follow_window (SlTimelineView *self,
                                gint64          start_ns,
                                gint64          end_ns)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  move_window (self, start_ns, end_ns, FALSE);
}

/* Zooms by @factor (above 1: in) keeping the time under @x in place. */
void
sl_timeline_view_zoom_at (SlTimelineView *self,
                          double          x,
                          double          factor)
{
  double offset;
  gint64 at;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (factor > 0);

  offset = MAX (x - SL_TIMELINE_GUTTER_WIDTH, 0);
  at = self->t0 + (gint64)(offset * self->ns_per_pixel);
  self->ns_per_pixel /= factor;
  clamp_window (self);
  self->t0 = at - (gint64)(offset * self->ns_per_pixel);
  self->fitted = FALSE;
  self->held_start = -1;
  window_changed (self);
}

/* Moves the view by @dx pixels: positive shows later times. */
void
sl_timeline_view_pan (SlTimelineView *self,
                      double          dx)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  self->t0 += (gint64)(dx * self->ns_per_pixel);
  self->fitted = FALSE;
  self->held_start = -1;
  window_changed (self);
}

gboolean
sl_timeline_view_undo_zoom (SlTimelineView *self)
{
  Zoom z;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);

  if (self->undo->len == 0)
    return FALSE;
  z = g_array_index (self->undo, Zoom, self->undo->len - 1);
  g_array_set_size (self->undo, self->undo->len - 1);
  self->t0 = z.t0;
  self->ns_per_pixel = z.ns_per_pixel;
  window_changed (self);
  return TRUE;
}

void
sl_timeline_view_select (SlTimelineView *self,
                         guint           track,
                         guint32         slice)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  if (track != self->kept_track || slice != self->kept_slice)
    self->kept_track = G_MAXUINT;
  sl_timeline_renderer_set_selected (self->renderer, track, slice);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SLICE_SELECTED], 0, track, slice);
}

gboolean
sl_timeline_view_get_selected (SlTimelineView *self,
                               guint          *track,
                               guint32        *slice)
{
  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), FALSE);

  return sl_timeline_renderer_get_selected (self->renderer, track, slice);
}

/* Scrolls the tracks so the slice's row shows, a third down the view
 * when it has to move. */
static void
scroll_to_row (SlTimelineView *self,
               guint           track,
               guint32         slice)
{
  double y;

  update_vadjustment (self);
  if (!sl_timeline_renderer_get_track_pinned (self->renderer, track)
      && sl_timeline_renderer_get_slice_y (self->renderer, track, slice, &y))
    {
      double value = gtk_adjustment_get_value (self->vadjustment);
      double page = gtk_adjustment_get_page_size (self->vadjustment);

      if (y < value || y + 20 > value + page)
        {
          self->scrolling = TRUE;
          gtk_adjustment_set_value (self->vadjustment, MAX (y - page / 3, 0));
          self->scrolling = FALSE;
        }
    }
}

static void
vadjustment_changed_cb (SlTimelineView *self)
{
  if (!self->scrolling)
    self->kept_track = G_MAXUINT;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Selects a slice and brings it into view: its process opened, its row
 * scrolled to, and the window zoomed so it is a fifth of it. A view not
 * shown yet does it when it gets its size. */
void
sl_timeline_view_reveal (SlTimelineView *self,
                         guint           track,
                         guint32         slice)
{
  SlTrace *trace;
  const SlTraceSlices *s;
  gint64 dur, start_ns, end_ns;

  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  trace = sl_timeline_renderer_get_trace (self->renderer);
  if (trace == NULL || (s = sl_trace_get_slices (trace, track)) == NULL || slice >= s->n_slices)
    return;

  sl_timeline_renderer_set_track_hidden (self->renderer, track, FALSE);
  sl_timeline_renderer_set_process_collapsed (self->renderer, sl_trace_get_track_process (trace, track), FALSE);

  dur = MAX (sl_trace_slices_dur_ns (s, slice), 1000);
  sl_timeline_view_get_window (self, &start_ns, &end_ns);
  if (self->pending_start >= 0 || sl_trace_slices_start_ns (s, slice) < start_ns || sl_trace_slices_start_ns (s, slice) + sl_trace_slices_dur_ns (s, slice) > end_ns
      || sl_trace_slices_dur_ns (s, slice) < self->ns_per_pixel * 40)
    sl_timeline_view_set_window (self, sl_trace_slices_start_ns (s, slice) - dur * 2, sl_trace_slices_start_ns (s, slice) + dur * 3);

  if (gtk_widget_get_width (GTK_WIDGET (self)) <= SL_TIMELINE_GUTTER_WIDTH)
    {
      self->pending_track = track;
      self->pending_slice = slice;
    }
  else
    {
      self->pending_track = G_MAXUINT;
      scroll_to_row (self, track, slice);
    }

  sl_timeline_view_select (self, track, slice);
  self->kept_track = track;
  self->kept_slice = slice;
}

/* start == end clears it. */
void
sl_timeline_view_set_range (SlTimelineView *self,
                            gint64          start_ns,
                            gint64          end_ns)
{
  g_return_if_fail (SL_IS_TIMELINE_VIEW (self));

  sl_timeline_renderer_set_range (self->renderer, start_ns, end_ns);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[RANGE_SELECTED], 0, MIN (start_ns, end_ns), MAX (start_ns, end_ns));
}

static GPtrArray *
get_args (SlTimelineView *self,
          guint           track,
          guint32         slice)
{
  if (self->args == NULL || self->args_track != track || self->args_slice != slice)
    {
      g_clear_pointer (&self->args, g_ptr_array_unref);
      self->args = sl_timeline_read_args (sl_timeline_renderer_get_trace (self->renderer), track, slice);
      self->args_track = track;
      self->args_slice = slice;
    }
  return self->args;
}

/**
 * sl_timeline_view_dup_tooltip_markup:
 *
 * Returns: (transfer full): what hovering the slice shows
 */
char *
sl_timeline_view_dup_tooltip_markup (SlTimelineView *self,
                                     guint           track,
                                     guint32         slice)
{
  SlTrace *trace;
  const SlTraceSlices *s;
  GString *str;
  GPtrArray *args;
  g_autofree char *start = NULL;
  g_autofree char *dur = NULL;
  g_autofree char *self_time = NULL;
  g_autofree char *name = NULL;
  g_autofree char *category = NULL;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);

  trace = sl_timeline_renderer_get_trace (self->renderer);
  if (trace == NULL || (s = sl_trace_get_slices (trace, track)) == NULL || slice >= s->n_slices)
    return NULL;

  start = sl_timeline_format_instant (sl_trace_slices_start_ns (s, slice) - sl_trace_get_start_ns (trace));
  dur = sl_timeline_format_duration (sl_trace_slices_dur_ns (s, slice));
  self_time = sl_timeline_format_duration (sl_trace_slices_self_ns (s, slice));
  name = g_markup_escape_text (sl_trace_get_string (trace, sl_trace_slices_name_id (s, slice)), -1);
  category = g_markup_escape_text (sl_trace_get_string (trace, sl_trace_slices_category_id (s, slice)), -1);

  str = g_string_new (NULL);
  g_string_append_printf (str, "<b>%s</b>\n", name);
  if (category[0] != '\0')
    g_string_append_printf (str, _("Category: %s"), category), g_string_append_c (str, '\n');
  g_string_append_printf (str, _("Start: %s"), start);
  g_string_append_c (str, '\n');
  g_string_append_printf (str, _("Duration: %s"), dur);
  g_string_append_c (str, '\n');
  g_string_append_printf (str, _("Self time: %s"), self_time);

  args = get_args (self, track, slice);
  for (guint i = 0; i < args->len && i < MAX_TOOLTIP_ARGS; i++)
    {
      SlTimelineDetail *a = g_ptr_array_index (args, i);
      g_autofree char *key = g_markup_escape_text (a->label, -1);
      g_autofree char *value = NULL;

      if (g_utf8_strlen (a->value, -1) > 80)
        {
          g_autofree char *cut = g_utf8_substring (a->value, 0, 80);

          value = g_markup_printf_escaped ("%s…", cut);
        }
      else
        value = g_markup_escape_text (a->value, -1);
      g_string_append_printf (str, "\n<small>%s: %s</small>", key, value);
    }
  if (args->len > MAX_TOOLTIP_ARGS)
    g_string_append_printf (str, "\n<small>%s</small>", _("More in Details (click)"));

  return g_string_free (str, FALSE);
}

/* A counter's value at a time: the last point at or before it. */
static char *
dup_counter_markup (SlTimelineView *self,
                    guint           track,
                    gint64          at_ns)
{
  SlTrace *trace = sl_timeline_renderer_get_trace (self->renderer);
  const SlTraceCounter *c;
  g_autofree char *name = NULL;
  g_autofree char *when = NULL;
  guint lo = 0, hi;

  if (trace == NULL || sl_trace_get_track_kind (trace, track) != SL_TRACE_TRACK_COUNTER
      || (c = sl_trace_get_counter (trace, track)) == NULL || c->n_points == 0)
    return NULL;

  hi = c->n_points;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (c->ts_ns[mid] <= at_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;

  name = g_markup_escape_text (sl_trace_get_track_name (trace, track), -1);
  when = sl_timeline_format_instant (c->ts_ns[lo - 1] - sl_trace_get_start_ns (trace));
  /* Translators: a counter's value in a tooltip: name, value, since when */
  return g_strdup_printf (_("<b>%s</b>\n%.6g since %s"), name, c->value[lo - 1], when);
}

static void
sl_timeline_view_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);
  SlTimelineViewport vp;
  cairo_t *cr;

  sl_timeline_view_get_viewport (self, &vp);
  if (vp.width <= 0 || vp.height <= 0)
    return;

  /* One cairo node with the rectangles batched by colour: for 16,000
   * rectangles it measured faster than a colour node for each. */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, vp.width, vp.height));
  /* The node is a recording, replayed at the screen's scale. */
  sl_timeline_renderer_set_scale (self->renderer, gtk_widget_get_scale_factor (widget));
  sl_timeline_renderer_draw (self->renderer, cr, &vp);
  cairo_destroy (cr);
}

static void
sl_timeline_view_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (widget);

  update_vadjustment (self);
  if (self->pending_start >= 0 && width > SL_TIMELINE_GUTTER_WIDTH)
    {
      gint64 start = self->pending_start, end = self->pending_end;

      self->pending_start = self->pending_end = -1;
      sl_timeline_view_set_window (self, start, end);
      if (self->pending_track != G_MAXUINT)
        scroll_to_row (self, self->pending_track, self->pending_slice);
      self->pending_track = G_MAXUINT;
    }
  /* A window asked for stays shown when the view is laid out again at
   * another width, until it is zoomed or panned. */
  else if (self->held_start >= 0 && width != self->held_width && width > SL_TIMELINE_GUTTER_WIDTH)
    {
      self->t0 = self->held_start;
      self->ns_per_pixel = (double)(self->held_end - self->held_start) / tracks_width (self);
      self->held_width = width;
      window_changed (self);
    }
  /* A fitted view stays fitted when the window is resized. */
  else if (self->fitted)
    {
      gboolean had_undo = self->undo->len;

      sl_timeline_view_fit (self);
      if (!had_undo)
        g_array_set_size (self->undo, 0);
    }
  if (self->kept_track != G_MAXUINT && width > SL_TIMELINE_GUTTER_WIDTH)
    scroll_to_row (self, self->kept_track, self->kept_slice);
}

static void
style_changed_cb (SlTimelineView *self)
{
  sl_timeline_renderer_set_dark (self->renderer, adw_style_manager_get_dark (adw_style_manager_get_default ()));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The kept images are made at the screen's scale: moved to a screen of
 * another scale, the next frame makes them again. */
static void
scale_factor_changed_cb (SlTimelineView *self)
{
  sl_timeline_renderer_set_scale (self->renderer, gtk_widget_get_scale_factor (GTK_WIDGET (self)));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                SlTimelineView        *self)
{
  double middle = SL_TIMELINE_GUTTER_WIDTH + tracks_width (self) / 2;
  gboolean ctrl = (state & GDK_CONTROL_MASK) != 0;

  switch (keyval)
    {
    case GDK_KEY_w:
    case GDK_KEY_W:
    case GDK_KEY_Up:
      if (ctrl)
        return FALSE;
      if (keyval == GDK_KEY_Up)
        {
          gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) - ROW_STEP);
          return TRUE;
        }
      push_undo (self);
      sl_timeline_view_zoom_at (self, middle, KEY_ZOOM);
      return TRUE;
    case GDK_KEY_s:
    case GDK_KEY_S:
    case GDK_KEY_Down:
      if (ctrl)
        return FALSE;
      if (keyval == GDK_KEY_Down)
        {
          gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) + ROW_STEP);
          return TRUE;
        }
      push_undo (self);
      sl_timeline_view_zoom_at (self, middle, 1 / KEY_ZOOM);
      return TRUE;
    case GDK_KEY_a:
    case GDK_KEY_A:
    case GDK_KEY_Left:
      if (ctrl)
        return FALSE;
      sl_timeline_view_pan (self, -tracks_width (self) * KEY_PAN_FRACTION);
      return TRUE;
    case GDK_KEY_d:
    case GDK_KEY_D:
    case GDK_KEY_Right:
      if (ctrl)
        return FALSE;
      sl_timeline_view_pan (self, tracks_width (self) * KEY_PAN_FRACTION);
      return TRUE;
    case GDK_KEY_f:
    case GDK_KEY_F:
      if (ctrl)
        return FALSE;
      push_undo (self);
      sl_timeline_view_fit (self);
      return TRUE;
    case GDK_KEY_BackSpace:
      sl_timeline_view_undo_zoom (self);
      return TRUE;
    case GDK_KEY_z:
    case GDK_KEY_Z:
      if (!ctrl)
        return FALSE;
      sl_timeline_view_undo_zoom (self);
      return TRUE;
    case GDK_KEY_Escape:
      if (sl_timeline_renderer_get_range (self->renderer, NULL, NULL))
        {
          sl_timeline_view_set_range (self, 0, 0);
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SlTimelineView           *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));
  double x = SL_TIMELINE_GUTTER_WIDTH + tracks_width (self) / 2, y;

  if (event != NULL)
    gdk_event_get_position (event, &x, &y);

  if (state & GDK_CONTROL_MASK)
    {
      sl_timeline_view_zoom_at (self, x, pow (WHEEL_ZOOM, -dy));
      return TRUE;
    }
  if (state & GDK_SHIFT_MASK)
    {
      sl_timeline_view_pan (self, (dy + dx) * 40);
      return TRUE;
    }
  if (dx != 0)
    sl_timeline_view_pan (self, dx * 40);
  if (dy != 0)
    gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) + dy * 3 * ROW_STEP);
  return TRUE;
}

static gint64
x_to_time (SlTimelineView *self,
           double          x)
{
  return self->t0 + (gint64)((x - SL_TIMELINE_GUTTER_WIDTH) * self->ns_per_pixel);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               SlTimelineView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x = x;
  self->drag_y = y;
  self->drag_t0 = self->t0;
  self->drag_scroll = gtk_adjustment_get_value (self->vadjustment);
  if (x < SL_TIMELINE_GUTTER_WIDTH)
    self->drag_mode = DRAG_NONE;
  else if (state & GDK_ALT_MASK)
    self->drag_mode = DRAG_RANGE;
  else if (state & GDK_SHIFT_MASK)
    self->drag_mode = DRAG_BOX;
  else
    self->drag_mode = DRAG_PAN;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                SlTimelineView *self)
{
  double x = CLAMP (self->drag_x + dx, SL_TIMELINE_GUTTER_WIDTH, gtk_widget_get_width (GTK_WIDGET (self)));

  switch (self->drag_mode)
    {
    case DRAG_PAN:
      self->t0 = self->drag_t0 - (gint64)(dx * self->ns_per_pixel);
      self->fitted = FALSE;
      self->held_start = -1;
      gtk_adjustment_set_value (self->vadjustment, self->drag_scroll - dy);
      window_changed (self);
      break;
    case DRAG_BOX:
      sl_timeline_renderer_set_box (self->renderer, self->drag_x, x);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_RANGE:
      sl_timeline_renderer_set_range (self->renderer, x_to_time (self, self->drag_x), x_to_time (self, x));
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_NONE:
    default:
      break;
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SlTimelineView *self)
{
  double x = CLAMP (self->drag_x + dx, SL_TIMELINE_GUTTER_WIDTH, gtk_widget_get_width (GTK_WIDGET (self)));

  switch (self->drag_mode)
    {
    case DRAG_BOX:
      sl_timeline_renderer_set_box (self->renderer, 0, 0);
      if (fabs (x - self->drag_x) >= 4)
        sl_timeline_view_set_window (self, x_to_time (self, MIN (x, self->drag_x)), x_to_time (self, MAX (x, self->drag_x)));
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_RANGE:
      if (fabs (x - self->drag_x) >= 2)
        sl_timeline_view_set_range (self, x_to_time (self, self->drag_x), x_to_time (self, x));
      else
        sl_timeline_view_set_range (self, 0, 0);
      break;
    case DRAG_PAN:
    case DRAG_NONE:
    default:
      break;
    }
  self->drag_mode = DRAG_NONE;
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            SlTimelineView  *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  SlTimelineViewport vp;
  SlTimelineHit hit;

  if (state & (GDK_SHIFT_MASK | GDK_ALT_MASK))
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  sl_timeline_view_get_viewport (self, &vp);
  sl_timeline_renderer_hit (self->renderer, &vp, x, y, &hit);

  switch (hit.kind)
    {
    case SL_TIMELINE_HIT_PROCESS:
      sl_timeline_renderer_set_process_collapsed (self->renderer, hit.process,
                                                  !sl_timeline_renderer_get_process_collapsed (self->renderer, hit.process));
      update_vadjustment (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      g_signal_emit (self, signals[PROCESS_TOGGLED], 0, hit.process);
      break;
    case SL_TIMELINE_HIT_SLICE:
      if (n_press == 2)
        sl_timeline_view_reveal (self, hit.track, hit.slice);
      else
        sl_timeline_view_select (self, hit.track, hit.slice);
      break;
    case SL_TIMELINE_HIT_TRACK:
    case SL_TIMELINE_HIT_NONE:
      if (x >= SL_TIMELINE_GUTTER_WIDTH)
        sl_timeline_view_select (self, G_MAXUINT, 0);
      break;
    case SL_TIMELINE_HIT_RULER:
    default:
      break;
    }
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SlTimelineView           *self)
{
  SlTimelineViewport vp;
  SlTimelineHit hit;

  sl_timeline_view_get_viewport (self, &vp);
  sl_timeline_renderer_hit (self->renderer, &vp, x, y, &hit);
  if (hit.kind == SL_TIMELINE_HIT_SLICE)
    sl_timeline_renderer_set_hovered (self->renderer, hit.track, hit.slice);
  else
    sl_timeline_renderer_set_hovered (self->renderer, G_MAXUINT, 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sl_timeline_view_dup_tooltip_at:
 *
 * Returns: (transfer full) (nullable): what hovering (@x, @y) shows: a
 *   slice, or a counter's value there
 */
char *
sl_timeline_view_dup_tooltip_at (SlTimelineView *self,
                                 double          x,
                                 double          y)
{
  SlTimelineViewport vp;
  SlTimelineHit hit;

  g_return_val_if_fail (SL_IS_TIMELINE_VIEW (self), NULL);

  sl_timeline_view_get_viewport (self, &vp);
  sl_timeline_renderer_hit (self->renderer, &vp, x, y, &hit);
  if (hit.kind == SL_TIMELINE_HIT_TRACK && x >= SL_TIMELINE_GUTTER_WIDTH)
    return dup_counter_markup (self, hit.track, hit.at_ns);
  if (hit.kind == SL_TIMELINE_HIT_SLICE)
    return sl_timeline_view_dup_tooltip_markup (self, hit.track, hit.slice);
  return NULL;
}

static gboolean
sl_timeline_view_query_tooltip (GtkWidget  *widget,
                                int         x,
                                int         y,
                                gboolean    keyboard,
                                GtkTooltip *tooltip)
{
  g_autofree char *markup = sl_timeline_view_dup_tooltip_at (SL_TIMELINE_VIEW (widget), x, y);

  if (markup == NULL)
    return FALSE;

  sl_tooltip_set_markup (tooltip, markup);
  return markup != NULL;
}

static void
sl_timeline_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlTimelineView *self = SL_TIMELINE_VIEW (object);
  gint64 start, end;

  sl_timeline_view_get_window (self, &start, &end);
  switch (prop_id)
    {
    case PROP_WINDOW_START:
      g_value_set_int64 (value, start);
      break;
    case PROP_WINDOW_END:
      g_value_set_int64 (value, end);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_timeline_view_dispose (GObject *object)
{
  SlTimelineView *self = (SlTimelineView *)object;

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_pointer (&self->renderer, sl_timeline_renderer_free);
  g_clear_pointer (&self->args, g_ptr_array_unref);
  g_clear_pointer (&self->undo, g_array_unref);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (sl_timeline_view_parent_class)->dispose (object);
}

/* The images the renderer keeps between frames take a few megabytes:
 * not while the view is hidden. */
static void
sl_timeline_view_unmap (GtkWidget *widget)
{
  SlTimelineView *self = (SlTimelineView *)widget;

  if (self->renderer != NULL)
    sl_timeline_renderer_drop_images (self->renderer);
  GTK_WIDGET_CLASS (sl_timeline_view_parent_class)->unmap (widget);
}

static void
sl_timeline_view_class_init (SlTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_timeline_view_dispose;
  object_class->get_property = sl_timeline_view_get_property;
  widget_class->snapshot = sl_timeline_view_snapshot;
  widget_class->size_allocate = sl_timeline_view_size_allocate;
  widget_class->unmap = sl_timeline_view_unmap;
  widget_class->query_tooltip = sl_timeline_view_query_tooltip;

  /**
   * SlTimelineView::slice-selected:
   * @track: the track, or G_MAXUINT when the selection was cleared
   * @slice: the slice in the track
   */
  signals[SLICE_SELECTED] = g_signal_new ("slice-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  /**
   * SlTimelineView::range-selected:
   *
   * A time range was selected with Alt+drag (equal ends: cleared).
   */
  signals[RANGE_SELECTED] = g_signal_new ("range-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
  /**
   * SlTimelineView::process-toggled:
   * @process: the process whose header was clicked to fold or unfold it
   */
  signals[PROCESS_TOGGLED] = g_signal_new ("process-toggled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[WINDOW_CHANGED] = g_signal_new ("window-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * SlTimelineView:window-start:
   *
   * The time at the left edge of the tracks, in the trace's nanoseconds
   * (see sl_timeline_view_get_window()).
   */
  properties[PROP_WINDOW_START] =
    g_param_spec_int64 ("window-start", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * SlTimelineView:window-end:
   *
   * The time at the right edge of the tracks.
   */
  properties[PROP_WINDOW_END] =
    g_param_spec_int64 ("window-end", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
sl_timeline_view_init (SlTimelineView *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->pending_start = self->pending_end = -1;
  self->pending_track = G_MAXUINT;
  self->kept_track = G_MAXUINT;
  self->held_start = self->held_end = -1;
  self->renderer = sl_timeline_renderer_new ();
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, ROW_STEP, 100, 1));
  self->undo = g_array_new (FALSE, FALSE, sizeof (Zoom));
  self->ns_per_pixel = 1000;
  self->fitted = TRUE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "default");

  g_signal_connect_swapped (self->vadjustment, "value-changed", G_CALLBACK (vadjustment_changed_cb), self);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (style_changed_cb), self);
  style_changed_cb (self);
  g_signal_connect (self, "notify::scale-factor", G_CALLBACK (scale_factor_changed_cb), NULL);
}

GtkWidget *
sl_timeline_view_new (void)
{
  return g_object_new (SL_TYPE_TIMELINE_VIEW, NULL);
}
