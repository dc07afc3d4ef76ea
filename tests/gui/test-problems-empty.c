/* test-problems-empty.c: the empty Problems panel is its toolbar and one
 * line, "No problems", so a 640 px high window keeps its height for the
 * documents; a problem brings the table back and clearing it the line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "gui-test-util.h"
#include "sl-problems-panel.h"

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The visible label saying "No problems", if any. */
static GtkWidget *
find_empty_label (GtkWidget *widget)
{
  if (!gtk_widget_get_visible (widget) || !gtk_widget_get_child_visible (widget))
    return NULL;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), "No problems") == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_empty_label (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static int
min_height (GtkWidget *widget)
{
  int min;

  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, -1, &min, NULL, NULL, NULL);
  return min;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, "scan", "/p/b.txt", -1, "Skipped");
  g_autoptr(GListStore) shown = g_list_store_new (SL_TYPE_PROBLEM);
  GtkWidget *window;
  GtkWidget *panel;
  GtkWidget *toolbar;
  GtkWidget *label;
  int empty_height;

  if (skip_without_display ())
    return 77;
  gtk_init ();
  adw_init ();
  panel_init ();

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  panel = sl_problems_panel_new ();
  sl_problems_panel_set_problems (SL_PROBLEMS_PANEL (panel), G_LIST_MODEL (shown));
  gtk_window_set_child (GTK_WINDOW (window), panel);
  gtk_window_present (GTK_WINDOW (window));
  wait_for_frames (window);

  /* Empty: one line under the toolbar, no taller than two of its lines. */
  label = find_empty_label (panel);
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (label), !=, NULL);
  toolbar = gtk_widget_get_parent (find_widget (panel, GTK_TYPE_SEARCH_ENTRY));
  empty_height = min_height (panel);
  g_assert_cmpint (empty_height, <=, min_height (toolbar) + 2 * min_height (label));

  /* A problem shows the table; cleared, the line is back at its size. */
  g_list_store_append (shown, problem);
  wait_for_frames (window);
  g_assert_null (find_empty_label (panel));
  g_list_store_remove_all (shown);
  wait_for_frames (window);
  g_assert_nonnull (find_empty_label (panel));
  g_assert_cmpint (min_height (panel), ==, empty_height);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
