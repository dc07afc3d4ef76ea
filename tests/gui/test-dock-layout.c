/* test-dock-layout.c: SlDockLayout on a real PanelDock
 *
 * Five panels in a dock built like the window's (a grid, start, end and
 * bottom areas): their default places, two moves (into another area's
 * existing frame, and into a new frame of a third area), the saved layout
 * word for word, a reset back to the defaults, and a restore that brings
 * every panel back to its area, frame, tab order and shown tab. Layouts
 * that are damaged or from a newer version change nothing; unknown panels
 * and areas in a good one are passed over. The bottom area follows what
 * it shows (small while empty, taller once something arrives) until its
 * height is set by hand or restored from a layout that saved one; that
 * height is kept and saved, and a reset follows the contents again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <libpanel.h>

#include "gui-test-util.h"
#include "sl-dock-layout.h"

static const char dock_ui[] =
  "<interface>"
  "  <object class='GtkWindow' id='window'>"
  "    <property name='default-width'>1200</property>"
  "    <property name='default-height'>800</property>"
  "    <property name='child'>"
  "      <object class='PanelDock' id='dock'>"
  "        <property name='reveal-start'>true</property>"
  "        <property name='reveal-end'>true</property>"
  "        <property name='reveal-bottom'>true</property>"
  "        <child><object class='PanelGrid' id='grid'/></child>"
  "        <child type='start'><object class='PanelPaned' id='start'><property name='orientation'>vertical</property></object></child>"
  "        <child type='end'><object class='PanelPaned' id='end'><property name='orientation'>vertical</property></object></child>"
  "        <child type='bottom'><object class='PanelPaned' id='bottom'><property name='orientation'>horizontal</property></object></child>"
  "      </object>"
  "    </property>"
  "  </object>"
  "</interface>";

/* In the order they are added; "outline" starts in the start area's
 * second frame. */
static const char * const panel_ids[] = { "workspace", "outline", "problems", "console", "details" };

static GtkWidget *window;
static PanelDock *dock;
static PanelPaned *paneds[PANEL_AREA_CENTER];
static SlDockLayout *layout;

/* Where every panel is: "id:area/frame.tab", a '*' after the tab shown
 * in its frame; then how many frames each area has. */
static char *
describe (void)
{
  GString *str = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (panel_ids); i++)
    {
      PanelWidget *panel = sl_dock_layout_find_panel (layout, panel_ids[i]);
      PanelFrame *frame;
      PanelArea area;
      guint frame_index, tab = G_MAXUINT;

      g_assert_nonnull (panel);
      g_assert_true (sl_dock_layout_get_placement (layout, panel, &area, &frame_index));
      frame = PANEL_FRAME (gtk_widget_get_ancestor (GTK_WIDGET (panel), PANEL_TYPE_FRAME));
      /* The placement is the frame's real position in its area's paned. */
      g_assert_true (panel_paned_get_nth_child (paneds[area], frame_index) == GTK_WIDGET (frame));
      for (guint t = 0; t < panel_frame_get_n_pages (frame); t++)
        if (panel_frame_get_page (frame, t) == panel)
          tab = t;
      g_assert_cmpuint (tab, !=, G_MAXUINT);
      g_string_append_printf (str, "%s%s:%s/%u.%u%s", i ? " " : "", panel_ids[i],
                              sl_dock_layout_area_to_id (area), frame_index, tab,
                              panel_frame_get_visible_child (frame) == panel ? "*" : "");
    }
  g_string_append_printf (str, " | start %u, end %u, bottom %u",
                          panel_paned_get_n_children (paneds[PANEL_AREA_START]),
                          panel_paned_get_n_children (paneds[PANEL_AREA_END]),
                          panel_paned_get_n_children (paneds[PANEL_AREA_BOTTOM]));
  return g_string_free (str, FALSE);
}

#define DEFAULT_LAYOUT \
  "workspace:start/0.0* outline:start/1.0* problems:bottom/0.0* console:bottom/0.1 details:end/0.0* " \
  "| start 2, end 1, bottom 1"

/* The console into the details' frame, the workspace into a new second
 * frame of the bottom area (the start area keeps its first frame, empty). */
#define MOVED_LAYOUT \
  "workspace:bottom/1.0* outline:start/1.0* problems:bottom/0.0* console:end/0.1* details:end/0.0 " \
  "| start 2, end 1, bottom 2"

#define MOVED_PANELS \
  "[('workspace', 'bottom', 1, 0, true), ('outline', 'start', 1, 0, true), " \
  "('problems', 'bottom', 0, 0, true), ('console', 'end', 0, 1, true), ('details', 'end', 0, 0, false)]"

static GVariant *saved;

static void
assert_layout (const char *expected)
{
  g_autofree char *described = describe ();

  g_assert_cmpstr (described, ==, expected);
}

static char *
dup_panels (GVariant *variant)
{
  g_autoptr(GVariant) panels = g_variant_lookup_value (variant, "panels", G_VARIANT_TYPE ("a(ssuub)"));

  g_assert_nonnull (panels);
  return g_variant_print (panels, FALSE);
}

static void
test_defaults (void)
{
  assert_layout (DEFAULT_LAYOUT);
  g_assert_cmpstr (sl_dock_layout_area_to_id (PANEL_AREA_START), ==, "start");
  g_assert_cmpstr (sl_dock_layout_area_to_id (PANEL_AREA_CENTER), ==, "center");
  g_assert_null (sl_dock_layout_area_to_id (PANEL_AREA_CENTER + 1));
  g_assert_null (sl_dock_layout_find_panel (layout, "nope"));
}

static void
test_move_save_reset_restore (void)
{
  g_autofree char *panels = NULL;
  g_autofree char *panels_again = NULL;
  g_autoptr(GVariant) again = NULL;
  guint32 version = 0;
  gboolean reveal = FALSE;

  sl_dock_layout_move_panel (layout, sl_dock_layout_find_panel (layout, "console"), PANEL_AREA_END, 0);
  sl_dock_layout_move_panel (layout, sl_dock_layout_find_panel (layout, "workspace"), PANEL_AREA_BOTTOM, 1);
  wait_for_frames (window);
  assert_layout (MOVED_LAYOUT);

  saved = g_variant_ref_sink (sl_dock_layout_save (layout));
  g_assert_true (g_variant_is_of_type (saved, G_VARIANT_TYPE_VARDICT));
  g_assert_true (g_variant_lookup (saved, "version", "u", &version));
  g_assert_cmpuint (version, ==, 1);
  panels = dup_panels (saved);
  g_assert_cmpstr (panels, ==, MOVED_PANELS);
  g_assert_true (g_variant_lookup (saved, "reveal-end", "b", &reveal));
  g_assert_true (reveal);

  sl_dock_layout_reset (layout);
  wait_for_frames (window);
  assert_layout (DEFAULT_LAYOUT);

  sl_dock_layout_restore (layout, saved);
  wait_for_frames (window);
  assert_layout (MOVED_LAYOUT);

  /* Saved again, it is the same layout. */
  again = g_variant_ref_sink (sl_dock_layout_save (layout));
  panels_again = dup_panels (again);
  g_assert_cmpstr (panels_again, ==, MOVED_PANELS);
}

static GVariant *
layout_with (const char *version_key,
             GVariant   *version,
             const char *panels_text)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  if (version != NULL)
    g_variant_builder_add (&builder, "{sv}", version_key, version);
  if (panels_text != NULL)
    g_variant_builder_add (&builder, "{sv}", "panels", g_variant_new_parsed (panels_text));
  g_variant_builder_add (&builder, "{sv}", "reveal-end", g_variant_new_boolean (FALSE));
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

/* Everything in the first bottom frame: a layout that, if read, would
 * change every panel's place. */
#define ALL_IN_BOTTOM \
  "@a(ssuub) [('workspace', 'bottom', 0, 0, true), ('outline', 'bottom', 0, 1, false), " \
  "('problems', 'bottom', 0, 2, false), ('console', 'bottom', 0, 3, false), ('details', 'bottom', 0, 4, false)]"

static void
test_bad_layouts_ignored (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) truncated = NULL;
  GVariant *bad[8];

  g_assert_nonnull (saved);
  assert_layout (MOVED_LAYOUT);

  /* From a newer version, an older one, without a version, with a version
   * of the wrong type or under another name. */
  bad[0] = layout_with ("version", g_variant_new_uint32 (2), ALL_IN_BOTTOM);
  bad[1] = layout_with ("version", g_variant_new_uint32 (0), ALL_IN_BOTTOM);
  bad[2] = layout_with ("version", NULL, ALL_IN_BOTTOM);
  bad[3] = layout_with ("version", g_variant_new_string ("1"), ALL_IN_BOTTOM);
  bad[4] = layout_with ("Version", g_variant_new_uint32 (1), ALL_IN_BOTTOM);
  /* Not a dictionary at all. */
  bad[5] = g_variant_ref_sink (g_variant_new_string ("garbage"));
  bad[6] = g_variant_ref_sink (g_variant_new_parsed (ALL_IN_BOTTOM));
  /* The saved layout cut in half, as a damaged settings file gives it. */
  bytes = g_variant_get_data_as_bytes (saved);
  truncated = g_bytes_new_from_bytes (bytes, 0, g_bytes_get_size (bytes) / 2);
  bad[7] = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE_VARDICT, truncated, FALSE));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *printed = g_variant_print (bad[i], TRUE);

      g_test_message ("ignored: %s", printed);
      sl_dock_layout_restore (layout, bad[i]);
      wait_for_frames (window);
      assert_layout (MOVED_LAYOUT);
      g_assert_true (panel_dock_get_reveal_end (dock));
      g_variant_unref (bad[i]);
    }
  sl_dock_layout_restore (layout, NULL);
  assert_layout (MOVED_LAYOUT);

  /* The same panels with version 1 are read: the check above is on the
   * version, not on the panels. */
  {
    g_autoptr(GVariant) good = layout_with ("version", g_variant_new_uint32 (1), ALL_IN_BOTTOM);

    sl_dock_layout_restore (layout, good);
    wait_for_frames (window);
    assert_layout ("workspace:bottom/0.0* outline:bottom/0.1 problems:bottom/0.2 console:bottom/0.3 "
                   "details:bottom/0.4 | start 1, end 1, bottom 1");
    g_assert_false (panel_dock_get_reveal_end (dock));
  }

  /* Unknown panels and areas are passed over; panels not in the layout
   * go to their default place. */
  {
    g_autoptr(GVariant) partly = layout_with ("version", g_variant_new_uint32 (1),
                                              "@a(ssuub) [('nope', 'start', 0, 0, true), ('outline', 'middle', 0, 0, true), "
                                              "('details', 'bottom', 1, 0, true), ('console', 'top', 0, 0, true)]");

    sl_dock_layout_restore (layout, partly);
    wait_for_frames (window);
    /* The top area is not set up here, so the console stays at home too. */
    assert_layout ("workspace:start/0.0* outline:start/1.0* problems:bottom/0.0* console:bottom/0.1 "
                   "details:bottom/1.0* | start 2, end 1, bottom 2");
  }

  sl_dock_layout_restore (layout, saved);
  wait_for_frames (window);
  assert_layout (MOVED_LAYOUT);
}

#define EMPTY_HEIGHT 120
#define FULL_HEIGHT 260
/* The handle and rounding between the size given and the paned's extent. */
#define SLACK 8

static int
bottom_extent (void)
{
  wait_for_frames (window);
  wait_for_frames (window);
  return gtk_widget_get_height (GTK_WIDGET (paneds[PANEL_AREA_BOTTOM]));
}

static void
assert_bottom_near (int expected)
{
  int extent = bottom_extent ();

  g_assert_cmpint (ABS (extent - expected), <=, SLACK);
}

static gboolean
saves_bottom_size (gint32 *size)
{
  g_autoptr(GVariant) layout_saved = g_variant_ref_sink (sl_dock_layout_save (layout));

  return g_variant_lookup (layout_saved, "size-bottom", "i", size);
}

static void
test_bottom_follows_its_contents (void)
{
  g_autoptr(GListStore) problems = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(GObject) problem = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GVariant) user_layout = NULL;
  gint32 size = 0;

  sl_dock_layout_reset (layout);
  sl_dock_layout_follow_contents (layout, PANEL_AREA_BOTTOM, G_LIST_MODEL (problems), EMPTY_HEIGHT, FULL_HEIGHT);

  /* Nothing to show: small; the height is nobody's choice, so not saved. */
  assert_bottom_near (EMPTY_HEIGHT);
  g_assert_false (sl_dock_layout_get_user_sized (layout, PANEL_AREA_BOTTOM));
  g_assert_false (saves_bottom_size (&size));

  /* Problems arrive: taller; they go: small again. */
  g_list_store_append (problems, problem);
  assert_bottom_near (FULL_HEIGHT);
  g_list_store_remove_all (problems);
  assert_bottom_near (EMPTY_HEIGHT);

  /* Arriving and going before a frame is laid out is no drag. */
  g_list_store_append (problems, problem);
  g_list_store_remove_all (problems);
  assert_bottom_near (EMPTY_HEIGHT);
  g_assert_false (sl_dock_layout_get_user_sized (layout, PANEL_AREA_BOTTOM));

  /* The user drags the handle to 330 px: problems arriving and going no
   * longer change it, and the layout saves it. */
  panel_dock_set_bottom_height (dock, 330);
  assert_bottom_near (330);
  g_list_store_append (problems, problem);
  assert_bottom_near (330);
  g_assert_true (sl_dock_layout_get_user_sized (layout, PANEL_AREA_BOTTOM));
  g_list_store_remove_all (problems);
  assert_bottom_near (330);
  g_assert_true (saves_bottom_size (&size));
  g_assert_cmpint (ABS (size - 330), <=, SLACK);
  user_layout = g_variant_ref_sink (sl_dock_layout_save (layout));

  /* A reset follows the contents again. */
  sl_dock_layout_reset (layout);
  assert_bottom_near (EMPTY_HEIGHT);
  g_assert_false (sl_dock_layout_get_user_sized (layout, PANEL_AREA_BOTTOM));

  /* A layout that saved a height restores it, and it is kept. */
  sl_dock_layout_restore (layout, user_layout);
  assert_bottom_near (size);
  g_assert_true (sl_dock_layout_get_user_sized (layout, PANEL_AREA_BOTTOM));
  g_list_store_append (problems, problem);
  assert_bottom_near (size);

  sl_dock_layout_reset (layout);
  assert_bottom_near (FULL_HEIGHT);
  assert_layout (DEFAULT_LAYOUT);
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GtkBuilder) builder = NULL;
  g_autoptr(GError) error = NULL;
  static const struct { PanelArea area; guint frame; } defaults[] = {
    { PANEL_AREA_START, 0 }, { PANEL_AREA_START, 1 }, { PANEL_AREA_BOTTOM, 0 },
    { PANEL_AREA_BOTTOM, 0 }, { PANEL_AREA_END, 0 },
  };
  int status;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: build-aux/dev.sh test starts one\n");
      return 77;
    }

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  adw_init ();
  panel_init ();

  builder = gtk_builder_new ();
  g_assert_true (gtk_builder_add_from_string (builder, dock_ui, -1, &error));
  g_assert_no_error (error);
  window = GTK_WIDGET (gtk_builder_get_object (builder, "window"));
  dock = PANEL_DOCK (gtk_builder_get_object (builder, "dock"));
  paneds[PANEL_AREA_START] = PANEL_PANED (gtk_builder_get_object (builder, "start"));
  paneds[PANEL_AREA_END] = PANEL_PANED (gtk_builder_get_object (builder, "end"));
  paneds[PANEL_AREA_BOTTOM] = PANEL_PANED (gtk_builder_get_object (builder, "bottom"));

  layout = sl_dock_layout_new (dock, PANEL_GRID (gtk_builder_get_object (builder, "grid")));
  sl_dock_layout_set_area (layout, PANEL_AREA_START, paneds[PANEL_AREA_START]);
  sl_dock_layout_set_area (layout, PANEL_AREA_END, paneds[PANEL_AREA_END]);
  sl_dock_layout_set_area (layout, PANEL_AREA_BOTTOM, paneds[PANEL_AREA_BOTTOM]);
  for (guint i = 0; i < G_N_ELEMENTS (panel_ids); i++)
    {
      PanelWidget *panel = PANEL_WIDGET (panel_widget_new ());
      GtkWidget *label = gtk_label_new (panel_ids[i]);

      panel_widget_set_id (panel, panel_ids[i]);
      panel_widget_set_title (panel, panel_ids[i]);
      panel_widget_set_child (panel, label);
      sl_dock_layout_add_panel (layout, panel, defaults[i].area, defaults[i].frame);
    }
  /* As the window does: the first panel of a shared frame is shown. */
  panel_widget_raise (sl_dock_layout_find_panel (layout, "problems"));

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (window_mapped, window, 10000));
  wait_for_frames (window);

  g_test_add_func ("/dock-layout/defaults", test_defaults);
  g_test_add_func ("/dock-layout/move-save-reset-restore", test_move_save_reset_restore);
  g_test_add_func ("/dock-layout/bad-layouts-ignored", test_bad_layouts_ignored);
  g_test_add_func ("/dock-layout/bottom-follows-its-contents", test_bottom_follows_its_contents);
  status = g_test_run ();

  g_clear_pointer (&saved, g_variant_unref);
  g_clear_object (&layout);
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
