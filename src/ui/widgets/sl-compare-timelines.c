/* sl-compare-timelines.c
 *
 * Steps are paired by position, as sl-profile-compare pairs them: the
 * k-th step of the baseline's rank with the k-th of the comparison's.
 * Each pane places its steps on its own timeline (sl-step-spans); the
 * chosen pair sets the link's offset, the difference of the two starts.
 * The timelines are read only once the view is mapped: nobody waits for
 * traces they do not look at.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-compare-timelines.h"
#include "sl-time-format.h"

/* A step without a length (an instant, or unplaced on both sides) is
 * shown a millisecond wide. */
#define DEFAULT_SPAN_NS G_GINT64_CONSTANT (1000000)

typedef struct {
  gint64 start_ns;
  gint64 end_ns;
  gboolean placed;
} Anchor;

struct _SlCompareTimelines
{
  GtkWidget        parent_instance;

  char            *paths[2];
  char            *labels[2];     /* the sides' names; NULL for "Baseline" and "Comparison" */
  SlProfile       *profiles[2];
  gboolean         wanted;        /* profiles set, timelines not asked for yet */
  guint            ranks[2];
  guint            n_pairs;
  gboolean         filling;
  gint64           anchors[2];
  gboolean         aligned;       /* the link's offset was set from anchors[] */
  char            *pairing;
  char            *note;
  GtkStringList   *steps;
  SlTimelineLink  *link;

  GtkDropDown     *step_dropdown;
  GtkLabel        *base_rank_label;
  GtkDropDown     *base_rank_dropdown;
  GtkLabel        *comparison_rank_label;
  GtkDropDown     *comparison_rank_dropdown;
  GtkLabel        *note_label;
  SlTimelinePane  *base_pane;
  SlTimelinePane  *comparison_pane;
};

G_DEFINE_FINAL_TYPE (SlCompareTimelines, sl_compare_timelines, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_LINKED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static SlTimelinePane *
pane (SlCompareTimelines *self,
      guint               side)
{
  return side == 0 ? self->base_pane : self->comparison_pane;
}

static const char *
side_label (SlCompareTimelines *self,
            guint               side)
{
  if (self->labels[side] != NULL)
    return self->labels[side];
  return side == 0 ? _("Baseline") : _("Comparison");
}

static SlStepSpans *
side_spans (SlCompareTimelines *self,
            guint               side)
{
  return sl_timeline_pane_get_spans (pane (self, side), self->ranks[side]);
}

static guint
n_side_steps (SlCompareTimelines *self,
              guint               side)
{
  SlStepSpans *spans = side_spans (self, side);

  return spans != NULL ? sl_step_spans_get_n_steps (spans) : 0;
}

/* What the toolbar says: how unequal step counts paired, then the offset
 * the two clocks were lined up with, so a reader can tell how far apart
 * the sides really started. */
static char *
offset_text (SlCompareTimelines *self)
{
  gint64 offset = self->anchors[1] - self->anchors[0];
  g_autofree char *magnitude = NULL;

  if (!self->aligned)
    return NULL;
  magnitude = sl_time_format_ns (offset < 0 ? -offset : offset, SL_TIME_UNIT_AUTO);
  /* Translators: the offset between the two timelines' clocks at the
   * aligned step: a signed duration such as "+1.2 ms", then the two sides'
   * names, for example "Rank 7" and "Rank 3" */
  return g_strdup_printf (_("Offset %s%s (%s's clock minus %s's)"), offset < 0 ? "−" : "+", magnitude,
                          side_label (self, 1), side_label (self, 0));
}

static void
update_note (SlCompareTimelines *self)
{
  g_autofree char *offset = offset_text (self);
  char *note;

  if (self->pairing != NULL && offset != NULL)
    note = g_strdup_printf ("%s · %s", self->pairing, offset);
  else
    note = g_strdup (self->pairing != NULL ? self->pairing : offset);
  g_free (self->note);
  self->note = note;
  gtk_label_set_text (self->note_label, note != NULL ? note : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->note_label), note);
}

static void
set_pairing (SlCompareTimelines *self,
             char               *pairing)
{
  g_free (self->pairing);
  self->pairing = pairing;
  update_note (self);
}

static const char *
spans_note (SlStepSpans *spans)
{
  switch (sl_step_spans_get_source (spans))
    {
    case SL_STEP_SPANS_FROM_SHIFTED_TABLE:
      return _("The step table uses another clock: steps are placed from the first device activity");
    case SL_STEP_SPANS_FROM_TIMELINE:
      return _("Steps from the timeline's step slices");
    case SL_STEP_SPANS_NONE:
      return sl_step_spans_get_n_steps (spans) > 0 ? _("The steps could not be placed on this timeline")
                                                   : _("No step table: aligned at the first device activity");
    case SL_STEP_SPANS_FROM_TABLE:
    default:
      return NULL;
    }
}

/* The window a side shows for pair @index: its step, or the first device
 * activity when it has no such step or could not place it. */
static Anchor
side_anchor (SlCompareTimelines *self,
             guint               side,
             guint               index)
{
  SlStepSpans *spans = side_spans (self, side);
  Anchor anchor = { 0, 0, FALSE };

  if (spans == NULL)
    return anchor;
  anchor.start_ns = anchor.end_ns = sl_step_spans_get_first_device_ns (spans);
  if (index < sl_step_spans_get_n_steps (spans))
    {
      const SlStepSpan *span = sl_step_spans_get_step (spans, index);

      if (span->start_ns >= 0)
        {
          anchor.start_ns = span->start_ns;
          anchor.end_ns = span->end_ns;
          anchor.placed = TRUE;
        }
    }
  return anchor;
}

static gboolean
both_ready (SlCompareTimelines *self)
{
  return sl_timeline_pane_get_state (self->base_pane) == SL_TIMELINE_PANE_READY
      && sl_timeline_pane_get_state (self->comparison_pane) == SL_TIMELINE_PANE_READY;
}

static void
align_at (SlCompareTimelines *self,
          guint               index)
{
  Anchor a[2];
  gint64 span;

  for (guint side = 0; side < 2; side++)
    a[side] = side_anchor (self, side, index);
  span = MAX (a[0].end_ns - a[0].start_ns, a[1].end_ns - a[1].start_ns);
  if (span <= 0)
    span = DEFAULT_SPAN_NS;
  self->anchors[0] = a[0].start_ns;
  self->anchors[1] = a[1].start_ns;

  self->aligned = both_ready (self);
  if (self->aligned)
    sl_timeline_link_align (self->link, a[0].start_ns, a[1].start_ns, span);
  update_note (self);
  if (!self->aligned)
    for (guint side = 0; side < 2; side++)
      if (sl_timeline_pane_get_state (pane (self, side)) == SL_TIMELINE_PANE_READY)
        sl_timeline_view_set_window (sl_timeline_pane_get_view (pane (self, side)), a[side].start_ns,
                                     a[side].start_ns + span);
}

static char *
pair_label (SlCompareTimelines *self,
            guint               index)
{
  SlStepSpans *spans[2] = { side_spans (self, 0), side_spans (self, 1) };
  gint64 base, comparison;

  /* One side alone (the other has no timeline): its steps. */
  if (spans[0] == NULL || spans[1] == NULL)
    {
      base = comparison = sl_step_spans_get_step (spans[0] != NULL ? spans[0] : spans[1], index)->step;
    }
  else
    {
      base = sl_step_spans_get_step (spans[0], index)->step;
      comparison = sl_step_spans_get_step (spans[1], index)->step;
    }

  if (base == comparison)
    /* Translators: an entry of the step chooser */
    return g_strdup_printf (_("Step %lld"), (long long)base);
  /* Translators: a baseline step paired with a comparison step of
   * another number */
  return g_strdup_printf (_("Step %lld with step %lld"), (long long)base, (long long)comparison);
}

/* Only what the panes' own notes do not say: how unequal counts pair. */
static char *
pairing_note (SlCompareTimelines *self)
{
  guint n[2] = { n_side_steps (self, 0), n_side_steps (self, 1) };
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *paired = NULL;

  if (n[0] == n[1] || n[0] == 0 || n[1] == 0)
    return NULL;
  first = sl_count_format (n[0]);
  second = sl_count_format (n[1]);
  paired = sl_count_format (MIN (n[0], n[1]));
  if (self->labels[0] != NULL && self->labels[1] != NULL)
    /* Translators: two timelines' names (for example "Rank 3" and
     * "Rank 7"), their step counts, and how many pairs that makes */
    return g_strdup_printf (ngettext ("%s has %s step and %s %s: paired by position, the first %s",
                                      "%s has %s steps and %s %s: paired by position, the first %s", n[0]),
                            self->labels[0], first, self->labels[1], second, paired);
  /* Translators: step counts of the baseline and the comparison, and
   * how many pairs of steps that makes */
  return g_strdup_printf (ngettext ("The baseline has %s step and the comparison %s: paired by position, the first %s",
                                    "The baseline has %s steps and the comparison %s: paired by position, the first %s",
                                    n[0]),
                          first, second, paired);
}

static void
fill_steps (SlCompareTimelines *self)
{
  guint selected = gtk_drop_down_get_selected (self->step_dropdown);
  g_autoptr(GtkStringList) steps = gtk_string_list_new (NULL);

  self->n_pairs = both_ready (self) ? MIN (n_side_steps (self, 0), n_side_steps (self, 1))
                                    : MAX (n_side_steps (self, 0), n_side_steps (self, 1));
  for (guint i = 0; i < self->n_pairs; i++)
    {
      g_autofree char *label = pair_label (self, i);
      gtk_string_list_append (steps, label);
    }
  if (self->n_pairs == 0)
    gtk_string_list_append (steps, _("Start of device activity"));

  g_set_object (&self->steps, steps);
  self->filling = TRUE;
  gtk_drop_down_set_model (self->step_dropdown, G_LIST_MODEL (steps));
  if (selected == GTK_INVALID_LIST_POSITION || selected >= g_list_model_get_n_items (G_LIST_MODEL (steps)))
    selected = 0;
  gtk_drop_down_set_selected (self->step_dropdown, selected);
  self->filling = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->step_dropdown), self->n_pairs > 1);

  set_pairing (self, pairing_note (self));
  for (guint side = 0; side < 2; side++)
    if (side_spans (self, side) != NULL)
      sl_timeline_pane_set_note (pane (self, side), spans_note (side_spans (self, side)));
  align_at (self, selected);
}

static void
pane_state_cb (SlCompareTimelines *self)
{
  SlTimelinePaneState states[2] = {
    sl_timeline_pane_get_state (self->base_pane), sl_timeline_pane_get_state (self->comparison_pane),
  };

  /* Once neither is still reading, line up what was read. */
  if (states[0] == SL_TIMELINE_PANE_LOADING || states[1] == SL_TIMELINE_PANE_LOADING
      || (states[0] != SL_TIMELINE_PANE_READY && states[1] != SL_TIMELINE_PANE_READY))
    return;
  fill_steps (self);
}

static void
step_chosen_cb (SlCompareTimelines *self)
{
  guint selected = gtk_drop_down_get_selected (self->step_dropdown);

  if (self->filling || selected == GTK_INVALID_LIST_POSITION)
    return;
  align_at (self, selected);
}

static void
rank_chosen_cb (SlCompareTimelines *self)
{
  guint base = gtk_drop_down_get_selected (self->base_rank_dropdown);
  guint comparison = gtk_drop_down_get_selected (self->comparison_rank_dropdown);

  if (self->filling)
    return;
  self->ranks[0] = base != GTK_INVALID_LIST_POSITION ? base : 0;
  self->ranks[1] = comparison != GTK_INVALID_LIST_POSITION ? comparison : 0;
  pane_state_cb (self);
}

static void
fill_ranks (SlCompareTimelines *self,
            guint               side)
{
  SlProfile *profile = self->profiles[side];
  GtkDropDown *dropdown = side == 0 ? self->base_rank_dropdown : self->comparison_rank_dropdown;
  GtkLabel *label = side == 0 ? self->base_rank_label : self->comparison_rank_label;
  g_autoptr(GtkStringList) ranks = gtk_string_list_new (NULL);
  guint n = profile != NULL ? sl_profile_get_n_ranks (profile) : 0;

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (ranks, sl_profile_get_rank (profile, i)->label);
  self->filling = TRUE;
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (ranks));
  gtk_drop_down_set_selected (dropdown, 0);
  self->filling = FALSE;
  self->ranks[side] = 0;
  gtk_widget_set_visible (GTK_WIDGET (dropdown), n > 1);
  gtk_widget_set_visible (GTK_WIDGET (label), n > 1);
}

static GPtrArray *
step_tables (SlProfile *profile)
{
  GPtrArray *tables = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_step_trace_unref);

  for (guint i = 0; profile != NULL && i < sl_profile_get_n_ranks (profile); i++)
    {
      SlStepTrace *steps = sl_profile_get_rank (profile, i)->steps;

      g_ptr_array_add (tables, steps != NULL ? sl_step_trace_ref (steps) : NULL);
    }
  return tables;
}

/* A profile whose timeline is its SQLite export (no Chrome trace files
 * beside it) is read from the export the profile was read from. */
static const char *
timeline_path (SlProfile  *profile,
               const char *path)
{
  for (guint i = 0; profile != NULL && i < sl_profile_get_n_ranks (profile); i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (profile, i);

      for (guint j = 0; rank->trace != NULL && rank->files != NULL && j < rank->files->len; j++)
        if (g_str_has_suffix (g_ptr_array_index (rank->files, j), ".db"))
          return g_ptr_array_index (rank->files, j);
    }
  return path;
}

static void
start_loading (SlCompareTimelines *self)
{
  self->wanted = FALSE;
  for (guint side = 0; side < 2; side++)
    {
      g_autoptr(GPtrArray) tables = step_tables (self->profiles[side]);

      sl_timeline_pane_load (pane (self, side), timeline_path (self->profiles[side], self->paths[side]), tables);
    }
}

static void
sl_compare_timelines_map (GtkWidget *widget)
{
  SlCompareTimelines *self = SL_COMPARE_TIMELINES (widget);

  GTK_WIDGET_CLASS (sl_compare_timelines_parent_class)->map (widget);
  if (self->wanted)
    start_loading (self);
}

/* API */

void
sl_compare_timelines_clear (SlCompareTimelines *self)
{
  g_return_if_fail (SL_IS_COMPARE_TIMELINES (self));

  self->wanted = FALSE;
  for (guint side = 0; side < 2; side++)
    {
      sl_timeline_pane_clear (pane (self, side));
      g_clear_pointer (&self->paths[side], g_free);
      g_clear_object (&self->profiles[side]);
    }
  self->aligned = FALSE;
  set_pairing (self, NULL);
}

void
sl_compare_timelines_set_profiles (SlCompareTimelines *self,
                                   const char         *base_path,
                                   SlProfile          *base,
                                   const char         *comparison_path,
                                   SlProfile          *comparison)
{
  g_return_if_fail (SL_IS_COMPARE_TIMELINES (self));
  g_return_if_fail (base_path != NULL && comparison_path != NULL);

  sl_compare_timelines_clear (self);
  self->paths[0] = g_strdup (base_path);
  self->paths[1] = g_strdup (comparison_path);
  g_set_object (&self->profiles[0], base);
  g_set_object (&self->profiles[1], comparison);
  sl_timeline_pane_set_heading (self->base_pane, side_label (self, 0), base_path);
  sl_timeline_pane_set_heading (self->comparison_pane, side_label (self, 1), comparison_path);
  fill_ranks (self, 0);
  fill_ranks (self, 1);
  self->wanted = TRUE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_loading (self);
}

/**
 * sl_compare_timelines_set_labels:
 * @base_label: (nullable): the upper side's name, %NULL for "Baseline"
 * @comparison_label: (nullable): the lower side's name, %NULL for
 *   "Comparison"
 *
 * Names the two sides where they are not a baseline and a comparison,
 * such as two ranks of one cluster; the headings and notes follow.
 */
void
sl_compare_timelines_set_labels (SlCompareTimelines *self,
                                 const char         *base_label,
                                 const char         *comparison_label)
{
  g_return_if_fail (SL_IS_COMPARE_TIMELINES (self));

  g_free (self->labels[0]);
  g_free (self->labels[1]);
  self->labels[0] = g_strdup (base_label);
  self->labels[1] = g_strdup (comparison_label);
  for (guint side = 0; side < 2; side++)
    sl_timeline_pane_set_heading (pane (self, side), side_label (self, side), self->paths[side]);
  if (self->pairing != NULL)
    set_pairing (self, pairing_note (self));
  else
    update_note (self);
}

const char *
sl_compare_timelines_get_label (SlCompareTimelines *self,
                                guint               side)
{
  g_return_val_if_fail (SL_IS_COMPARE_TIMELINES (self), NULL);
  g_return_val_if_fail (side < 2, NULL);
  return side_label (self, side);
}

SlTimelinePane *
sl_compare_timelines_get_pane (SlCompareTimelines *self,
                               guint               side)
{
  g_return_val_if_fail (SL_IS_COMPARE_TIMELINES (self), NULL);
  g_return_val_if_fail (side < 2, NULL);
  return pane (self, side);
}

SlTimelineLink *
sl_compare_timelines_get_link (SlCompareTimelines *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_TIMELINES (self), NULL);
  return self->link;
}

GListModel *
sl_compare_timelines_get_steps (SlCompareTimelines *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_TIMELINES (self), NULL);
  return G_LIST_MODEL (self->steps);
}

void
sl_compare_timelines_choose_step (SlCompareTimelines *self,
                                  guint               index)
{
  g_return_if_fail (SL_IS_COMPARE_TIMELINES (self));
  g_return_if_fail (index < g_list_model_get_n_items (G_LIST_MODEL (self->steps)));

  /* Choosing the step shown again aligns again (after panning away). */
  if (gtk_drop_down_get_selected (self->step_dropdown) == index)
    align_at (self, index);
  else
    gtk_drop_down_set_selected (self->step_dropdown, index);
}

void
sl_compare_timelines_choose_rank (SlCompareTimelines *self,
                                  guint               side,
                                  guint               rank)
{
  g_return_if_fail (SL_IS_COMPARE_TIMELINES (self));
  g_return_if_fail (side < 2);

  gtk_drop_down_set_selected (side == 0 ? self->base_rank_dropdown : self->comparison_rank_dropdown, rank);
}

void
sl_compare_timelines_get_anchors (SlCompareTimelines *self,
                                  gint64             *base_ns,
                                  gint64             *comparison_ns)
{
  g_return_if_fail (SL_IS_COMPARE_TIMELINES (self));

  if (base_ns != NULL)
    *base_ns = self->anchors[0];
  if (comparison_ns != NULL)
    *comparison_ns = self->anchors[1];
}

const char *
sl_compare_timelines_get_note (SlCompareTimelines *self)
{
  g_return_val_if_fail (SL_IS_COMPARE_TIMELINES (self), NULL);
  return self->note;
}

/* Life */

static void
sl_compare_timelines_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  SlCompareTimelines *self = SL_COMPARE_TIMELINES (object);

  switch (prop_id)
    {
    case PROP_LINKED:
      g_value_set_boolean (value, sl_timeline_link_get_linked (self->link));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_compare_timelines_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  SlCompareTimelines *self = SL_COMPARE_TIMELINES (object);

  switch (prop_id)
    {
    case PROP_LINKED:
      sl_timeline_link_set_linked (self->link, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
link_changed_cb (SlCompareTimelines *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINKED]);
}

static void
sl_compare_timelines_dispose (GObject *object)
{
  SlCompareTimelines *self = SL_COMPARE_TIMELINES (object);

  /* The link holds the views: let go of it before they go. */
  g_clear_object (&self->link);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_COMPARE_TIMELINES);
  /* The template's unnamed children (the toolbar, the separator, the
   * paned) are not disposed with it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  for (guint side = 0; side < 2; side++)
    {
      g_clear_pointer (&self->paths[side], g_free);
      g_clear_pointer (&self->labels[side], g_free);
      g_clear_object (&self->profiles[side]);
    }
  g_clear_object (&self->steps);
  g_clear_pointer (&self->pairing, g_free);
  g_clear_pointer (&self->note, g_free);

  G_OBJECT_CLASS (sl_compare_timelines_parent_class)->dispose (object);
}

static void
sl_compare_timelines_class_init (SlCompareTimelinesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_compare_timelines_dispose;
  object_class->get_property = sl_compare_timelines_get_property;
  object_class->set_property = sl_compare_timelines_set_property;
  widget_class->map = sl_compare_timelines_map;

  /**
   * SlCompareTimelines:linked:
   *
   * Whether moving one timeline moves the other.
   */
  properties[PROP_LINKED] =
    g_param_spec_boolean ("linked", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SL_TYPE_TIMELINE_PANE);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-compare-timelines.ui");
  gtk_widget_class_bind_template_child (widget_class, SlCompareTimelines, step_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlCompareTimelines, base_rank_label);
  gtk_widget_class_bind_template_child (widget_class, SlCompareTimelines, base_rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlCompareTimelines, comparison_rank_label);
  gtk_widget_class_bind_template_child (widget_class, SlCompareTimelines, comparison_rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlCompareTimelines, note_label);
  gtk_widget_class_bind_template_child (widget_class, SlCompareTimelines, base_pane);
  gtk_widget_class_bind_template_child (widget_class, SlCompareTimelines, comparison_pane);
  gtk_widget_class_bind_template_callback (widget_class, step_chosen_cb);
  gtk_widget_class_bind_template_callback (widget_class, rank_chosen_cb);
  gtk_widget_class_bind_template_callback (widget_class, pane_state_cb);

  gtk_widget_class_install_property_action (widget_class, "timelines.link", "linked");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "timelines.link", NULL);
}

static void
sl_compare_timelines_init (SlCompareTimelines *self)
{
  self->steps = gtk_string_list_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->link = sl_timeline_link_new (sl_timeline_pane_get_view (self->base_pane),
                                     sl_timeline_pane_get_view (self->comparison_pane));
  g_signal_connect_object (self->link, "notify::linked", G_CALLBACK (link_changed_cb), self, G_CONNECT_SWAPPED);
}
