/* test-stage-chip.c: a stage of a run as the Profile dialog shows it
 *
 * The chip's template shows its title, the icon of its state or, while
 * the stage runs, a turning spinner; its style follows the state. The
 * Profile dialog's progress row is six such chips from its template.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "gui-test-util.h"

#include "sl-application.h"
#include "sl-profile-dialog.h"
#include "sl-stage-chip.h"
#include "sl-window.h"

static SlApplication *app;
static SlWindow *window;
static char *tmp_root;

/* The chip's children in order: the icon, the spinner, the label. */
static void
chip_parts (GtkWidget  *chip,
            GtkImage  **icon,
            GtkSpinner **spinner,
            GtkLabel  **label)
{
  GtkWidget *child = gtk_widget_get_first_child (chip);

  g_assert_true (GTK_IS_IMAGE (child));
  *icon = GTK_IMAGE (child);
  child = gtk_widget_get_next_sibling (child);
  g_assert_true (GTK_IS_SPINNER (child));
  *spinner = GTK_SPINNER (child);
  child = gtk_widget_get_next_sibling (child);
  g_assert_true (GTK_IS_LABEL (child));
  *label = GTK_LABEL (child);
  g_assert_null (gtk_widget_get_next_sibling (child));
}

static void
test_chip_states (void)
{
  static const struct {
    SlStageChipState state;
    const char *icon;       /* NULL: the spinner shows */
    const char *chip_class; /* NULL: none of the three */
    gboolean heading;
  } cases[] = {
    { SL_STAGE_CHIP_ACTIVE, NULL, NULL, TRUE },
    { SL_STAGE_CHIP_DONE, "object-select-symbolic", "success", FALSE },
    { SL_STAGE_CHIP_SKIPPED, "action-unavailable-symbolic", "dim-label", FALSE },
    { SL_STAGE_CHIP_FAILED, "dialog-error-symbolic", "error", TRUE },
    { SL_STAGE_CHIP_CANCELLED, "process-stop-symbolic", "dim-label", FALSE },
    { SL_STAGE_CHIP_PENDING, "content-loading-symbolic", "dim-label", FALSE },
  };
  static const char * const classes[] = { "success", "dim-label", "error" };
  GtkWidget *chip = g_object_ref_sink (sl_stage_chip_new ("Upload"));
  GtkImage *icon;
  GtkSpinner *spinner;
  GtkLabel *label;

  chip_parts (chip, &icon, &spinner, &label);
  g_assert_cmpstr (gtk_label_get_label (label), ==, "Upload");
  g_assert_cmpint (gtk_label_get_ellipsize (label), ==, PANGO_ELLIPSIZE_END);
  g_assert_cmpint (sl_stage_chip_get_state (SL_STAGE_CHIP (chip)), ==, SL_STAGE_CHIP_PENDING);
  g_assert_cmpstr (gtk_image_get_icon_name (icon), ==, "content-loading-symbolic");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (spinner)));
  g_assert_true (gtk_widget_has_css_class (chip, "dim-label"));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_object_set (chip, "state", cases[i].state, NULL);
      g_assert_cmpint (sl_stage_chip_get_state (SL_STAGE_CHIP (chip)), ==, cases[i].state);
      g_assert_cmpint (gtk_widget_get_visible (GTK_WIDGET (spinner)), ==, cases[i].icon == NULL);
      g_assert_cmpint (gtk_spinner_get_spinning (spinner), ==, cases[i].icon == NULL);
      g_assert_cmpint (gtk_widget_get_visible (GTK_WIDGET (icon)), ==, cases[i].icon != NULL);
      if (cases[i].icon != NULL)
        g_assert_cmpstr (gtk_image_get_icon_name (icon), ==, cases[i].icon);
      for (guint c = 0; c < G_N_ELEMENTS (classes); c++)
        g_assert_cmpint (gtk_widget_has_css_class (chip, classes[c]), ==,
                         g_strcmp0 (classes[c], cases[i].chip_class) == 0);
      g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (label), "heading"), ==, cases[i].heading);
    }

  g_object_set (chip, "title", "Pull", NULL);
  g_assert_cmpstr (gtk_label_get_label (label), ==, "Pull");
  g_assert_cmpstr (sl_stage_chip_get_title (SL_STAGE_CHIP (chip)), ==, "Pull");
  g_object_unref (chip);
}

static void
test_dialog_row (void)
{
  static const char * const titles[] = { "Check", "Upload", "Profile", "Export", "Pull", "Open" };
  SlProfileDialog *dialog = sl_profile_dialog_new (tmp_root);
  GtkWidget *row = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (dialog), SL_TYPE_PROFILE_DIALOG,
                                                              "stages_box"));
  GtkWidget *child = gtk_widget_get_first_child (row);

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++, child = gtk_widget_get_next_sibling (child))
    {
      g_assert_true (SL_IS_STAGE_CHIP (child));
      g_assert_cmpstr (sl_stage_chip_get_title (SL_STAGE_CHIP (child)), ==, titles[i]);
      g_assert_cmpint (sl_stage_chip_get_state (SL_STAGE_CHIP (child)), ==, SL_STAGE_CHIP_PENDING);
    }
  g_assert_null (child);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

int
main (int    argc,
      char **argv)
{
  int status;

  tmp_root = make_test_home ("sl-stage-chip-XXXXXX");
  if (skip_without_display ())
    return 77;

  g_test_init (&argc, &argv, NULL);
  window = start_application (&app);

  g_test_add_func ("/stage-chip/states", test_chip_states);
  g_test_add_func ("/stage-chip/profile-dialog", test_dialog_row);

  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&app);
  return status;
}
