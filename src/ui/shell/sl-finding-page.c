/* sl-finding-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-finding-page.h"

#define MAX_FILE_ROWS 500

struct _SlFindingPage
{
  SlDocument           parent_instance;

  SlFinding           *finding;

  AdwPreferencesPage  *page;
  AdwPreferencesGroup *about_group;
  AdwPreferencesGroup *details_group;
  AdwPreferencesGroup *files_group;
};

G_DEFINE_FINAL_TYPE (SlFindingPage, sl_finding_page, SL_TYPE_DOCUMENT)

static void
add_value_row (AdwPreferencesGroup *group,
               const char          *title,
               const char          *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_widget_set_tooltip_text (label, value);
  gtk_widget_add_css_class (label, "dim-label");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
}

/* Shows paths below the finding's folder relative to it. */
static const char *
relative_to (const char *path,
             const char *base)
{
  gsize len = strlen (base);

  if (g_str_has_prefix (path, base) && G_IS_DIR_SEPARATOR (path[len]))
    return path + len + 1;
  return path;
}

static void
fill (SlFindingPage *self)
{
  SlFinding *finding = self->finding;
  g_autofree char *size = g_format_size_full (sl_finding_get_size (finding), G_FORMAT_SIZE_LONG_FORMAT);
  guint n_files = sl_finding_get_n_files (finding);
  g_autofree char *n_files_text = sl_count_format (n_files);
  g_autofree char *files_title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s File", "%s Files", n_files),
                                                  n_files_text);

  adw_preferences_group_set_title (self->about_group, sl_finding_kind_to_label (sl_finding_get_kind (finding)));
  add_value_row (self->about_group, _("Name"), sl_finding_get_name (finding));
  add_value_row (self->about_group, _("Path"), sl_finding_get_path (finding));
  add_value_row (self->about_group, _("Size"), size);

  for (guint i = 0; i < sl_finding_get_n_details (finding); i++)
    {
      const char *key;
      const char *value;

      g_autofree char *label = NULL;

      sl_finding_get_detail (finding, i, &key, &value);
      label = sl_finding_detail_dup_label_for_value (key, value);
      add_value_row (self->details_group, label, sl_finding_detail_value_label (value));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->details_group), sl_finding_get_n_details (finding) > 0);

  adw_preferences_group_set_title (self->files_group, files_title);
  for (guint i = 0; i < n_files && i < MAX_FILE_ROWS; i++)
    {
      const char *path = sl_finding_get_file (finding, i);
      g_autofree char *escaped = g_markup_escape_text (relative_to (path, sl_finding_get_path (finding)), -1);
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
      adw_action_row_set_icon_name (ADW_ACTION_ROW (row), "text-x-generic-symbolic");
      gtk_widget_set_tooltip_text (row, path);
      adw_preferences_group_add (self->files_group, row);
    }
  if (n_files > MAX_FILE_ROWS)
    {
      g_autofree char *count = sl_count_format (n_files - MAX_FILE_ROWS);
      g_autofree char *more = g_strdup_printf (_("and %s more"), count);
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), more);
      adw_preferences_group_add (self->files_group, row);
    }
}

static void
sl_finding_page_dispose (GObject *object)
{
  SlFindingPage *self = (SlFindingPage *)object;

  /* The page's child is a template child: taken off the page first, so
   * that the page does not unparent it once the template has freed it. */
  panel_widget_set_child (PANEL_WIDGET (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_FINDING_PAGE);
  g_clear_object (&self->finding);

  G_OBJECT_CLASS (sl_finding_page_parent_class)->dispose (object);
}

static void
sl_finding_page_class_init (SlFindingPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_finding_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-finding-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlFindingPage, page);
  gtk_widget_class_bind_template_child (widget_class, SlFindingPage, about_group);
  gtk_widget_class_bind_template_child (widget_class, SlFindingPage, details_group);
  gtk_widget_class_bind_template_child (widget_class, SlFindingPage, files_group);
}

static void
sl_finding_page_init (SlFindingPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * sl_finding_page_set_finding:
 *
 * Shows what is known of @finding. Set once.
 */
void
sl_finding_page_set_finding (SlFindingPage *self,
                             SlFinding     *finding)
{
  g_return_if_fail (SL_IS_FINDING_PAGE (self));
  g_return_if_fail (SL_IS_FINDING (finding));
  g_return_if_fail (self->finding == NULL);

  self->finding = g_object_ref (finding);
  {
    g_autofree char *name = sl_finding_dup_display_name (finding);

    panel_widget_set_title (PANEL_WIDGET (self), name);
  }
  panel_widget_set_icon_name (PANEL_WIDGET (self), sl_finding_kind_to_icon (sl_finding_get_kind (finding)));
  fill (self);
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
}

SlFinding *
sl_finding_page_get_finding (SlFindingPage *self)
{
  g_return_val_if_fail (SL_IS_FINDING_PAGE (self), NULL);
  return self->finding;
}
