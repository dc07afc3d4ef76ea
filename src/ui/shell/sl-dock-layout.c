/* sl-dock-layout.c
 *
 * libpanel 1.0 has no layout persistence of its own, so we record, for
 * each panel, the dock area, the index of its frame in that area's paned
 * and its order among the frame's tabs, and rebuild that on start.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-dock-layout.h"

#define LAYOUT_VERSION 1

/* How far an area's extent may be from the size it was given (its
 * handle, rounding) before it counts as resized by hand. */
#define USER_SIZE_TOLERANCE 8

typedef struct {
  PanelWidget *panel;        /* owned by its frame; we hold a ref */
  PanelArea    default_area;
  guint        default_frame;
  guint        registration;
} PanelEntry;

typedef struct {
  PanelEntry *entry;
  PanelArea   area;
  guint       frame;
  guint       order;
  gboolean    visible;
} Placement;

/* An area whose size follows what it shows (sl_dock_layout_follow_contents()). */
typedef struct {
  GListModel *contents;
  int         empty_size;
  int         size;
  int         applied;        /* the size last given, 0 for none */
  gint64      applied_frame;  /* the frame clock's counter then */
} Following;

struct _SlDockLayout
{
  GObject     parent_instance;
  PanelDock  *dock;
  PanelGrid  *grid;
  PanelPaned *paneds[PANEL_AREA_CENTER + 1];
  GArray     *entries;
  Following   following[PANEL_AREA_CENTER];
  gboolean    user_sized[PANEL_AREA_CENTER];   /* a size set by hand, here or saved */
};

G_DEFINE_FINAL_TYPE (SlDockLayout, sl_dock_layout, G_TYPE_OBJECT)

static const char *area_ids[] = {
  [PANEL_AREA_START] = "start",
  [PANEL_AREA_END] = "end",
  [PANEL_AREA_TOP] = "top",
  [PANEL_AREA_BOTTOM] = "bottom",
  [PANEL_AREA_CENTER] = "center",
};

static void
panel_entry_clear (gpointer data)
{
  PanelEntry *entry = data;

  g_clear_object (&entry->panel);
}

static void
sl_dock_layout_dispose (GObject *object)
{
  SlDockLayout *self = (SlDockLayout *)object;

  g_clear_pointer (&self->entries, g_array_unref);
  for (guint a = 0; a < G_N_ELEMENTS (self->following); a++)
    {
      if (self->following[a].contents != NULL)
        g_signal_handlers_disconnect_by_data (self->following[a].contents, self);
      g_clear_object (&self->following[a].contents);
    }
  g_clear_weak_pointer (&self->dock);
  g_clear_weak_pointer (&self->grid);
  for (guint i = 0; i < G_N_ELEMENTS (self->paneds); i++)
    g_clear_weak_pointer (&self->paneds[i]);

  G_OBJECT_CLASS (sl_dock_layout_parent_class)->dispose (object);
}

static void
sl_dock_layout_class_init (SlDockLayoutClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_dock_layout_dispose;
}

static void
sl_dock_layout_init (SlDockLayout *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (PanelEntry));
  g_array_set_clear_func (self->entries, panel_entry_clear);
}

SlDockLayout *
sl_dock_layout_new (PanelDock *dock,
                    PanelGrid *grid)
{
  SlDockLayout *self;

  g_return_val_if_fail (PANEL_IS_DOCK (dock), NULL);
  g_return_val_if_fail (PANEL_IS_GRID (grid), NULL);

  self = g_object_new (SL_TYPE_DOCK_LAYOUT, NULL);
  g_set_weak_pointer (&self->dock, dock);
  g_set_weak_pointer (&self->grid, grid);

  return self;
}

const char *
sl_dock_layout_area_to_id (PanelArea area)
{
  if (area > PANEL_AREA_CENTER)
    return NULL;
  return area_ids[area];
}

static gboolean
area_from_id (const char *id,
              PanelArea  *area)
{
  for (guint i = 0; i < G_N_ELEMENTS (area_ids); i++)
    {
      if (g_strcmp0 (area_ids[i], id) == 0)
        {
          *area = i;
          return TRUE;
        }
    }

  return FALSE;
}

void
sl_dock_layout_set_area (SlDockLayout *self,
                         PanelArea     area,
                         PanelPaned   *paned)
{
  g_return_if_fail (SL_IS_DOCK_LAYOUT (self));
  g_return_if_fail (area < PANEL_AREA_CENTER);
  g_return_if_fail (PANEL_IS_PANED (paned));

  g_set_weak_pointer (&self->paneds[area], paned);
}

static PanelEntry *
find_entry (SlDockLayout *self,
            PanelWidget  *panel)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      PanelEntry *entry = &g_array_index (self->entries, PanelEntry, i);

      if (entry->panel == panel)
        return entry;
    }

  return NULL;
}

PanelWidget *
sl_dock_layout_find_panel (SlDockLayout *self,
                           const char   *id)
{
  g_return_val_if_fail (SL_IS_DOCK_LAYOUT (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < self->entries->len; i++)
    {
      PanelEntry *entry = &g_array_index (self->entries, PanelEntry, i);

      if (g_strcmp0 (panel_widget_get_id (entry->panel), id) == 0)
        return entry->panel;
    }

  return NULL;
}

/* Tabs with titles: icon-only switchers leave people guessing. */
static GtkWidget *
new_dock_frame (void)
{
  GtkWidget *frame = panel_frame_new ();

  panel_frame_set_header (PANEL_FRAME (frame), PANEL_FRAME_HEADER (panel_frame_tab_bar_new ()));
  return frame;
}

static PanelFrame *
ensure_frame (SlDockLayout *self,
              PanelArea     area,
              guint         frame_index)
{
  PanelPaned *paned = self->paneds[area];
  guint n;

  g_assert (paned != NULL);

  /* An area never has gaps: asking for frame 5 of an area with one frame
   * gives its second frame. */
  n = panel_paned_get_n_children (paned);
  if (frame_index < n)
    return PANEL_FRAME (panel_paned_get_nth_child (paned, frame_index));

  panel_paned_append (paned, new_dock_frame ());
  return PANEL_FRAME (panel_paned_get_nth_child (paned, n));
}

static void
detach_panel (PanelWidget *panel)
{
  GtkWidget *frame = gtk_widget_get_ancestor (GTK_WIDGET (panel), PANEL_TYPE_FRAME);

  if (frame != NULL)
    panel_frame_remove (PANEL_FRAME (frame), panel);
}

static void
place_panel (SlDockLayout *self,
             PanelWidget  *panel,
             PanelArea     area,
             guint         frame_index)
{
  detach_panel (panel);

  if (area == PANEL_AREA_CENTER || self->paneds[area] == NULL)
    {
      panel_grid_add (self->grid, panel);
      return;
    }

  panel_frame_add (ensure_frame (self, area, frame_index), panel);
}

/**
 * sl_dock_layout_add_panel:
 * @panel: a panel with an id (panel_widget_set_id())
 *
 * Registers @panel and places it at its default position. Call
 * sl_dock_layout_restore() after adding every panel.
 */
void
sl_dock_layout_add_panel (SlDockLayout *self,
                          PanelWidget  *panel,
                          PanelArea     default_area,
                          guint         default_frame)
{
  PanelEntry entry = { 0 };

  g_return_if_fail (SL_IS_DOCK_LAYOUT (self));
  g_return_if_fail (PANEL_IS_WIDGET (panel));
  g_return_if_fail (panel_widget_get_id (panel) != NULL);
  g_return_if_fail (find_entry (self, panel) == NULL);

  entry.panel = g_object_ref_sink (panel);
  entry.default_area = default_area;
  entry.default_frame = default_frame;
  entry.registration = self->entries->len;
  g_array_append_val (self->entries, entry);

  place_panel (self, panel, default_area, default_frame);
}

static gboolean
locate_frame (SlDockLayout *self,
              PanelFrame   *frame,
              PanelArea    *area,
              guint        *frame_index)
{
  for (guint a = 0; a < PANEL_AREA_CENTER; a++)
    {
      PanelPaned *paned = self->paneds[a];

      if (paned == NULL)
        continue;

      for (guint i = 0; i < panel_paned_get_n_children (paned); i++)
        {
          if (panel_paned_get_nth_child (paned, i) == GTK_WIDGET (frame))
            {
              *area = a;
              *frame_index = i;
              return TRUE;
            }
        }
    }

  return FALSE;
}

static guint
order_in_frame (PanelFrame  *frame,
                PanelWidget *panel)
{
  guint n = panel_frame_get_n_pages (frame);

  for (guint i = 0; i < n; i++)
    {
      if (panel_frame_get_page (frame, i) == panel)
        return i;
    }

  return n;
}

/**
 * sl_dock_layout_get_placement:
 *
 * Returns: %TRUE when @panel is in the dock; @area is
 *   %PANEL_AREA_CENTER when it was dragged among the documents
 */
gboolean
sl_dock_layout_get_placement (SlDockLayout *self,
                              PanelWidget  *panel,
                              PanelArea    *area,
                              guint        *frame_index)
{
  GtkWidget *frame;
  PanelArea found_area = PANEL_AREA_CENTER;
  guint found_index = 0;

  g_return_val_if_fail (SL_IS_DOCK_LAYOUT (self), FALSE);
  g_return_val_if_fail (PANEL_IS_WIDGET (panel), FALSE);

  frame = gtk_widget_get_ancestor (GTK_WIDGET (panel), PANEL_TYPE_FRAME);
  if (frame == NULL)
    return FALSE;

  if (!locate_frame (self, PANEL_FRAME (frame), &found_area, &found_index))
    {
      if (gtk_widget_get_ancestor (frame, PANEL_TYPE_GRID) == NULL)
        return FALSE;
      found_area = PANEL_AREA_CENTER;
      found_index = 0;
    }

  if (area != NULL)
    *area = found_area;
  if (frame_index != NULL)
    *frame_index = found_index;

  return TRUE;
}

void
sl_dock_layout_move_panel (SlDockLayout *self,
                           PanelWidget  *panel,
                           PanelArea     area,
                           guint         frame_index)
{
  g_return_if_fail (SL_IS_DOCK_LAYOUT (self));
  g_return_if_fail (find_entry (self, panel) != NULL);

  g_object_ref (panel);
  place_panel (self, panel, area, frame_index);
  if (area != PANEL_AREA_CENTER)
    panel_dock_set_reveal_area (self->dock, area, TRUE);
  panel_widget_raise (panel);
  g_object_unref (panel);
}

/**
 * sl_dock_layout_show_panel:
 *
 * Brings @panel into view: back to its default place if it was closed,
 * its area revealed, its tab raised.
 */
void
sl_dock_layout_show_panel (SlDockLayout *self,
                           PanelWidget  *panel)
{
  PanelEntry *entry;
  PanelArea area;
  guint frame_index;

  g_return_if_fail (SL_IS_DOCK_LAYOUT (self));

  entry = find_entry (self, panel);
  g_return_if_fail (entry != NULL);

  if (!sl_dock_layout_get_placement (self, panel, &area, &frame_index))
    {
      area = entry->default_area;
      place_panel (self, panel, area, entry->default_frame);
    }

  if (area != PANEL_AREA_CENTER)
    panel_dock_set_reveal_area (self->dock, area, TRUE);
  panel_widget_raise (panel);
  panel_widget_focus_default (panel);
}

static int
paned_extent (PanelPaned *paned,
              PanelArea   area)
{
  if (paned == NULL || !gtk_widget_get_mapped (GTK_WIDGET (paned)))
    return 0;

  if (area == PANEL_AREA_START || area == PANEL_AREA_END)
    return gtk_widget_get_width (GTK_WIDGET (paned));
  return gtk_widget_get_height (GTK_WIDGET (paned));
}

static void
set_dock_size (SlDockLayout *self,
               PanelArea     area,
               int           size)
{
  switch (area)
    {
    case PANEL_AREA_START:
      panel_dock_set_start_width (self->dock, size);
      break;
    case PANEL_AREA_END:
      panel_dock_set_end_width (self->dock, size);
      break;
    case PANEL_AREA_TOP:
      panel_dock_set_top_height (self->dock, size);
      break;
    case PANEL_AREA_BOTTOM:
      panel_dock_set_bottom_height (self->dock, size);
      break;
    case PANEL_AREA_CENTER:
    default:
      break;
    }
}

static gint64
frame_counter (SlDockLayout *self,
               PanelArea     area)
{
  GdkFrameClock *clock = self->paneds[area] ? gtk_widget_get_frame_clock (GTK_WIDGET (self->paneds[area])) : NULL;

  return clock != NULL ? gdk_frame_clock_get_frame_counter (clock) : -1;
}

/* Whether the handle of a following area was dragged: its extent is no
 * longer the size it was last given. Judged only once a frame was laid
 * out since then, and while the area shows. */
static void
notice_user_size (SlDockLayout *self,
                  PanelArea     area)
{
  Following *following = &self->following[area];
  gint64 frame = frame_counter (self, area);
  int extent;

  if (self->user_sized[area] || following->applied == 0 || frame < 0 || frame <= following->applied_frame + 1)
    return;
  extent = paned_extent (self->paneds[area], area);
  if (extent > 0 && ABS (extent - following->applied) > USER_SIZE_TOLERANCE)
    self->user_sized[area] = TRUE;
}

/* A following area takes the size for what it shows, unless its size
 * was set by hand. */
static void
apply_following (SlDockLayout *self,
                 PanelArea     area)
{
  Following *following = &self->following[area];
  int size;

  if (following->contents == NULL || self->dock == NULL)
    return;
  notice_user_size (self, area);
  if (self->user_sized[area])
    return;

  size = g_list_model_get_n_items (following->contents) > 0 ? following->size : following->empty_size;
  if (size == following->applied)
    return;
  following->applied = size;
  following->applied_frame = frame_counter (self, area);
  set_dock_size (self, area, size);
}

static void
contents_changed_cb (SlDockLayout *self,
                     guint         position,
                     guint         removed,
                     guint         added,
                     GListModel   *contents)
{
  for (guint a = 0; a < G_N_ELEMENTS (self->following); a++)
    if (self->following[a].contents == contents)
      apply_following (self, a);
}

/**
 * sl_dock_layout_follow_contents:
 * @area: a side or the bottom
 * @contents: what the area's panels show (the Problems panel's problems)
 * @empty_size: the area's width or height while @contents is empty
 * @size: its width or height once @contents holds something
 *
 * Sizes @area after what it has to show, as long as nobody set its size:
 * small when there is nothing, larger when something arrives. A size set
 * by dragging the area's handle, or restored from a layout that saved
 * one, is kept; sl_dock_layout_reset() follows the contents again.
 * Called again, it takes the new sizes.
 */
void
sl_dock_layout_follow_contents (SlDockLayout *self,
                                PanelArea     area,
                                GListModel   *contents,
                                int           empty_size,
                                int           size)
{
  Following *following;

  g_return_if_fail (SL_IS_DOCK_LAYOUT (self));
  g_return_if_fail (area < PANEL_AREA_CENTER);
  g_return_if_fail (G_IS_LIST_MODEL (contents));
  g_return_if_fail (empty_size > 0 && size > 0);

  following = &self->following[area];
  if (following->contents != contents)
    {
      if (following->contents != NULL)
        g_signal_handlers_disconnect_by_data (following->contents, self);
      g_set_object (&following->contents, contents);
      g_signal_connect_object (contents, "items-changed", G_CALLBACK (contents_changed_cb), self, G_CONNECT_SWAPPED);
    }
  following->empty_size = empty_size;
  following->size = size;
  following->applied = 0;
  apply_following (self, area);
}

/**
 * sl_dock_layout_get_user_sized:
 *
 * Returns: whether @area's size was set by hand (dragged, or restored
 *   from a layout that saved one), so it no longer follows its contents
 */
gboolean
sl_dock_layout_get_user_sized (SlDockLayout *self,
                               PanelArea     area)
{
  g_return_val_if_fail (SL_IS_DOCK_LAYOUT (self), FALSE);
  g_return_val_if_fail (area < PANEL_AREA_CENTER, FALSE);

  notice_user_size (self, area);
  return self->user_sized[area];
}

/**
 * sl_dock_layout_save:
 *
 * Returns: (transfer floating): an a{sv} with a "panels" entry of
 *   (id, area, frame, order, visible) tuples, and per-area reveal state
 *   and size
 */
GVariant *
sl_dock_layout_save (SlDockLayout *self)
{
  GVariantBuilder builder;
  GVariantBuilder panels;

  g_return_val_if_fail (SL_IS_DOCK_LAYOUT (self), NULL);

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_init (&panels, G_VARIANT_TYPE ("a(ssuub)"));

  for (guint i = 0; i < self->entries->len; i++)
    {
      PanelEntry *entry = &g_array_index (self->entries, PanelEntry, i);
      PanelArea area;
      guint frame_index;
      GtkWidget *frame;
      gboolean visible;

      if (!sl_dock_layout_get_placement (self, entry->panel, &area, &frame_index))
        continue;

      frame = gtk_widget_get_ancestor (GTK_WIDGET (entry->panel), PANEL_TYPE_FRAME);
      visible = panel_frame_get_visible_child (PANEL_FRAME (frame)) == entry->panel;
      g_variant_builder_add (&panels, "(ssuub)",
                             panel_widget_get_id (entry->panel),
                             area_ids[area],
                             frame_index,
                             order_in_frame (PANEL_FRAME (frame), entry->panel),
                             visible);
    }

  g_variant_builder_add (&builder, "{sv}", "version", g_variant_new_uint32 (LAYOUT_VERSION));
  g_variant_builder_add (&builder, "{sv}", "panels", g_variant_builder_end (&panels));

  for (guint a = 0; a < PANEL_AREA_CENTER; a++)
    {
      g_autofree char *reveal_key = NULL;
      g_autofree char *size_key = NULL;
      int extent;

      if (self->paneds[a] == NULL)
        continue;

      reveal_key = g_strdup_printf ("reveal-%s", area_ids[a]);
      g_variant_builder_add (&builder, "{sv}", reveal_key,
                             g_variant_new_boolean (panel_dock_get_reveal_area (self->dock, a)));

      extent = paned_extent (self->paneds[a], a);
      /* An area that follows what it shows keeps a size only when one was
       * set by hand; otherwise it follows again next time. */
      if (self->following[a].contents != NULL)
        {
          notice_user_size (self, a);
          if (!self->user_sized[a])
            extent = 0;
        }
      if (extent > 0)
        {
          size_key = g_strdup_printf ("size-%s", area_ids[a]);
          g_variant_builder_add (&builder, "{sv}", size_key, g_variant_new_int32 (extent));
        }
    }

  return g_variant_builder_end (&builder);
}

static int
compare_placement (gconstpointer a,
                   gconstpointer b)
{
  const Placement *pa = a;
  const Placement *pb = b;

  if (pa->area != pb->area)
    return (int)pa->area - (int)pb->area;
  if (pa->frame != pb->frame)
    return pa->frame < pb->frame ? -1 : 1;
  if (pa->order != pb->order)
    return pa->order < pb->order ? -1 : 1;
  return (int)pa->entry->registration - (int)pb->entry->registration;
}

static void
set_area_size (SlDockLayout *self,
               PanelArea     area,
               int           size)
{
  set_dock_size (self, area, CLAMP (size, 120, 2000));
}

static void
remove_empty_frames (SlDockLayout *self)
{
  for (guint a = 0; a < PANEL_AREA_CENTER; a++)
    {
      PanelPaned *paned = self->paneds[a];

      if (paned == NULL)
        continue;

      /* Keep one frame per area so it stays a drop target. */
      for (guint i = panel_paned_get_n_children (paned); i > 1; i--)
        {
          GtkWidget *frame = panel_paned_get_nth_child (paned, i - 1);

          if (panel_frame_get_empty (PANEL_FRAME (frame)))
            panel_paned_remove (paned, frame);
        }
    }
}

/**
 * sl_dock_layout_restore:
 * @layout: (nullable): what sl_dock_layout_save() returned, possibly
 *   from an older or damaged settings file
 *
 * Panels missing from @layout keep their default place; unknown panels
 * and areas in @layout are ignored.
 */
void
sl_dock_layout_restore (SlDockLayout *self,
                        GVariant     *layout)
{
  g_autoptr(GVariant) panels = NULL;
  g_autoptr(GArray) placements = NULL;
  GVariantDict dict;
  guint32 version = 0;

  g_return_if_fail (SL_IS_DOCK_LAYOUT (self));

  if (layout == NULL || !g_variant_is_of_type (layout, G_VARIANT_TYPE_VARDICT))
    return;

  g_variant_dict_init (&dict, layout);

  if (!g_variant_dict_lookup (&dict, "version", "u", &version) || version != LAYOUT_VERSION)
    {
      g_variant_dict_clear (&dict);
      return;
    }

  placements = g_array_new (FALSE, TRUE, sizeof (Placement));
  for (guint i = 0; i < self->entries->len; i++)
    {
      PanelEntry *entry = &g_array_index (self->entries, PanelEntry, i);
      Placement p = { entry, entry->default_area, entry->default_frame, G_MAXUINT, FALSE };

      g_array_append_val (placements, p);
    }

  panels = g_variant_dict_lookup_value (&dict, "panels", G_VARIANT_TYPE ("a(ssuub)"));
  if (panels != NULL)
    {
      GVariantIter iter;
      const char *id;
      const char *area_id;
      guint frame_index;
      guint order;
      gboolean visible;

      g_variant_iter_init (&iter, panels);
      while (g_variant_iter_next (&iter, "(&s&suub)", &id, &area_id, &frame_index, &order, &visible))
        {
          PanelArea area;

          if (!area_from_id (area_id, &area))
            continue;
          if (area != PANEL_AREA_CENTER && self->paneds[area] == NULL)
            continue;

          for (guint i = 0; i < placements->len; i++)
            {
              Placement *p = &g_array_index (placements, Placement, i);

              if (g_strcmp0 (panel_widget_get_id (p->entry->panel), id) == 0)
                {
                  p->area = area;
                  p->frame = MIN (frame_index, 16);
                  p->order = order;
                  p->visible = visible;
                }
            }
        }
    }

  g_array_sort (placements, compare_placement);

  for (guint i = 0; i < placements->len; i++)
    {
      Placement *p = &g_array_index (placements, Placement, i);
      place_panel (self, p->entry->panel, p->area, p->frame);
    }

  remove_empty_frames (self);

  for (guint i = 0; i < placements->len; i++)
    {
      Placement *p = &g_array_index (placements, Placement, i);

      if (p->visible)
        panel_widget_raise (p->entry->panel);
    }

  for (guint a = 0; a < PANEL_AREA_CENTER; a++)
    {
      g_autofree char *reveal_key = g_strdup_printf ("reveal-%s", area_ids[a]);
      g_autofree char *size_key = g_strdup_printf ("size-%s", area_ids[a]);
      gboolean reveal;
      gint32 size;

      if (self->paneds[a] == NULL)
        continue;
      if (g_variant_dict_lookup (&dict, size_key, "i", &size))
        {
          self->user_sized[a] = TRUE;
          set_area_size (self, a, size);
        }
      if (g_variant_dict_lookup (&dict, reveal_key, "b", &reveal))
        panel_dock_set_reveal_area (self->dock, a, reveal);
    }

  g_variant_dict_clear (&dict);
}

/**
 * sl_dock_layout_reset:
 *
 * Puts every panel back where it is on a first start and shows every
 * area that has panels.
 */
void
sl_dock_layout_reset (SlDockLayout *self)
{
  g_autoptr(GArray) placements = NULL;

  g_return_if_fail (SL_IS_DOCK_LAYOUT (self));

  placements = g_array_new (FALSE, TRUE, sizeof (Placement));
  for (guint i = 0; i < self->entries->len; i++)
    {
      PanelEntry *entry = &g_array_index (self->entries, PanelEntry, i);
      Placement p = { entry, entry->default_area, entry->default_frame, 0, FALSE };

      g_array_append_val (placements, p);
    }
  g_array_sort (placements, compare_placement);

  for (guint i = 0; i < placements->len; i++)
    {
      Placement *p = &g_array_index (placements, Placement, i);

      g_object_ref (p->entry->panel);
      place_panel (self, p->entry->panel, p->area, p->frame);
      g_object_unref (p->entry->panel);
    }

  remove_empty_frames (self);

  for (guint i = 0; i < placements->len; i++)
    {
      Placement *p = &g_array_index (placements, Placement, i);

      if (p->area != PANEL_AREA_CENTER)
        panel_dock_set_reveal_area (self->dock, p->area, TRUE);
    }

  /* The first panel registered in each frame is the one shown. */
  for (guint i = placements->len; i > 0; i--)
    panel_widget_raise (g_array_index (placements, Placement, i - 1).entry->panel);

  /* Sizes follow what the areas show again. */
  for (guint a = 0; a < G_N_ELEMENTS (self->following); a++)
    {
      self->user_sized[a] = FALSE;
      self->following[a].applied = 0;
      apply_following (self, a);
    }
}
