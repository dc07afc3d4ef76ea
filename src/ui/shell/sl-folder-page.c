/* sl-folder-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-finding.h"
#include "sl-document-registry.h"
#include "sl-folder-page.h"

/* Beyond this many rows a group says how many more the Workspace tree has;
 * boxed rows do not scale to tens of thousands of items. */
#define MAX_ROWS_PER_KIND 200

struct _SlFolderPage
{
  SlDocument          parent_instance;

  SlFolder           *folder;
  GPtrArray          *groups;
  gboolean            busy;

  GtkStack           *stack;
  AdwStatusPage      *scanning_page;
  AdwStatusPage      *failed_page;
  AdwPreferencesPage *findings_page;
};

G_DEFINE_FINAL_TYPE (SlFolderPage, sl_folder_page, SL_TYPE_DOCUMENT)

enum {
  FINDING_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
row_activated_cb (AdwActionRow *row,
                  SlFolderPage *self)
{
  SlFinding *finding = g_object_get_data (G_OBJECT (row), "sl-finding");

  g_signal_emit (self, signals[FINDING_ACTIVATED], 0, finding);
}

/* A button per view that opens the finding besides its own (a run's
 * graph and dataset pipeline beside its training curves). */
static void
add_second_views (GtkWidget *row,
                  SlFinding *finding)
{
  g_autoptr(GPtrArray) kinds = sl_document_registry_list_also_opening (finding);

  for (guint i = 0; i < kinds->len; i++)
    {
      const SlDocumentKind *kind = g_ptr_array_index (kinds, i);
      GtkWidget *button = gtk_button_new_with_label (_(kind->action_label));
      g_autofree char *title = sl_document_registry_dup_title (kind, sl_finding_get_path (finding));

      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (button, title);
      gtk_widget_add_css_class (button, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-document");
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                              g_variant_new ("(ssv)", kind->id, sl_finding_get_path (finding),
                                                             g_variant_new ("()")));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
    }
}

static GtkWidget *
create_finding_row (SlFolderPage *self,
                    SlFinding    *finding)
{
  g_autofree char *summary = sl_finding_dup_summary (finding);
  g_autofree char *display_name = sl_finding_dup_display_name (finding);
  g_autofree char *escaped_name = g_markup_escape_text (display_name, -1);
  g_autofree char *escaped_summary = g_markup_escape_text (summary, -1);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped_name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_summary);
  adw_action_row_set_icon_name (ADW_ACTION_ROW (row), sl_finding_kind_to_icon (sl_finding_get_kind (finding)));
  gtk_widget_set_tooltip_text (row, sl_finding_get_path (finding));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  add_second_views (row, finding);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);

  g_object_set_data_full (G_OBJECT (row), "sl-finding", g_object_ref (finding), g_object_unref);
  g_signal_connect_object (row, "activated", G_CALLBACK (row_activated_cb), self, 0);

  return row;
}

typedef struct {
  AdwPreferencesGroup **by_kind;
  GtkWidget            *boxes[SL_FINDING_N_KINDS];
} GroupButtons;

/* A later kind's button goes before an earlier one's. A button for a
 * group the folder does not show is dropped. */
static void
add_group_button (GtkWidget     *button,
                  SlFindingKind  group,
                  gpointer       data)
{
  GroupButtons *group_buttons = data;

  g_object_ref_sink (button);
  if (group < SL_FINDING_N_KINDS && group_buttons->by_kind[group] != NULL)
    {
      if (group_buttons->boxes[group] == NULL)
        {
          group_buttons->boxes[group] = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
          adw_preferences_group_set_header_suffix (group_buttons->by_kind[group], group_buttons->boxes[group]);
        }
      gtk_box_prepend (GTK_BOX (group_buttons->boxes[group]), button);
    }
  g_object_unref (button);
}

static void
clear_groups (SlFolderPage *self)
{
  for (guint i = 0; i < self->groups->len; i++)
    adw_preferences_page_remove (self->findings_page, g_ptr_array_index (self->groups, i));
  g_ptr_array_set_size (self->groups, 0);
}

static void
fill_groups (SlFolderPage *self)
{
  GListModel *findings = sl_folder_get_findings (self->folder);
  guint n = g_list_model_get_n_items (findings);
  AdwPreferencesGroup *by_kind[SL_FINDING_N_KINDS] = { NULL };
  guint rows[SL_FINDING_N_KINDS] = { 0 };
  guint totals[SL_FINDING_N_KINDS] = { 0 };

  clear_groups (self);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
      totals[sl_finding_get_kind (finding)]++;
    }

  for (guint k = 0; k < SL_FINDING_N_KINDS; k++)
    {
      /* A cluster first: it is the whole that its ranks' groups below are parts of. */
      guint kind = k == 0 ? SL_FINDING_CLUSTER : k - (k <= SL_FINDING_CLUSTER);
      g_autofree char *count = NULL;
      g_autofree char *description = NULL;

      if (totals[kind] == 0)
        continue;

      count = sl_count_format (totals[kind]);
      description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s found", "%s found", totals[kind]), count);
      by_kind[kind] = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
      adw_preferences_group_set_title (by_kind[kind], sl_finding_kind_to_label (kind));
      adw_preferences_group_set_description (by_kind[kind], description);
      adw_preferences_page_add (self->findings_page, by_kind[kind]);
      g_ptr_array_add (self->groups, by_kind[kind]);
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
      SlFindingKind kind = sl_finding_get_kind (finding);

      if (rows[kind]++ < MAX_ROWS_PER_KIND)
        adw_preferences_group_add (by_kind[kind], create_finding_row (self, finding));
    }

  /* What the findings hold together, as the kinds of document offer it. */
  {
    GroupButtons group_buttons = { by_kind, { NULL } };

    for (guint i = 0; sl_document_registry_get_nth (i) != NULL; i++)
      {
        const SlDocumentKind *kind = sl_document_registry_get_nth (i);

        if (kind->add_folder_buttons != NULL)
          kind->add_folder_buttons (findings, sl_folder_get_path (self->folder), add_group_button, &group_buttons);
      }
  }

  for (guint kind = 0; kind < SL_FINDING_N_KINDS; kind++)
    {
      if (totals[kind] > MAX_ROWS_PER_KIND)
        {
          g_autofree char *count = sl_count_format (totals[kind] - MAX_ROWS_PER_KIND);
          g_autofree char *more = g_strdup_printf (_("%s more are listed in the Workspace panel"), count);
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), more);
          adw_preferences_group_add (by_kind[kind], row);
        }
    }
}

static void
update_state (SlFolderPage *self)
{
  g_autofree char *count = NULL;
  g_autofree char *description = NULL;

  switch (sl_folder_get_state (self->folder))
    {
    case SL_FOLDER_SCANNING:
      count = sl_count_format (sl_folder_get_files_scanned (self->folder));
      description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s file looked at", "%s files looked at",
                                                  sl_folder_get_files_scanned (self->folder)),
                                     count);
      adw_status_page_set_description (self->scanning_page, description);
      sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_LOADING);
      if (!self->busy)
        panel_widget_mark_busy (PANEL_WIDGET (self));
      self->busy = TRUE;
      return;

    case SL_FOLDER_FAILED:
      adw_status_page_set_description (self->failed_page, sl_folder_get_error_message (self->folder));
      sl_document_fail (SL_DOCUMENT (self), sl_folder_get_error_message (self->folder));
      break;

    case SL_FOLDER_READY:
    default:
      if (g_list_model_get_n_items (sl_folder_get_findings (self->folder)) == 0)
        {
          sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_EMPTY);
        }
      else
        {
          fill_groups (self);
          sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
        }
      break;
    }

  if (self->busy)
    panel_widget_unmark_busy (PANEL_WIDGET (self));
  self->busy = FALSE;
}

static void
folder_notify_cb (SlFolderPage *self,
                  GParamSpec   *pspec,
                  SlFolder     *folder)
{
  update_state (self);
}

static void
sl_folder_page_dispose (GObject *object)
{
  SlFolderPage *self = (SlFolderPage *)object;

  /* The page's child is a template child: taken off the page first, so
   * that the page does not unparent it once the template has freed it. */
  panel_widget_set_child (PANEL_WIDGET (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_FOLDER_PAGE);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_object (&self->folder);

  G_OBJECT_CLASS (sl_folder_page_parent_class)->dispose (object);
}

/* The stack shows the document's state: nothing reads it back */
static char *
state_child_name (gpointer        instance,
                  SlDocumentState state)
{
  switch (state)
    {
    case SL_DOCUMENT_LOADING:
      return g_strdup ("scanning");
    case SL_DOCUMENT_EMPTY:
      return g_strdup ("empty");
    case SL_DOCUMENT_FAILED:
      return g_strdup ("failed");
    case SL_DOCUMENT_READY:
    default:
      return g_strdup ("findings");
    }
}

static void
sl_folder_page_class_init (SlFolderPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_folder_page_dispose;

  signals[FINDING_ACTIVATED] =
    g_signal_new ("finding-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, SL_TYPE_FINDING);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-folder-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlFolderPage, stack);
  gtk_widget_class_bind_template_callback (widget_class, state_child_name);
  gtk_widget_class_bind_template_child (widget_class, SlFolderPage, scanning_page);
  gtk_widget_class_bind_template_child (widget_class, SlFolderPage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlFolderPage, findings_page);
}

/* Findings open through the window's action, so the page knows no view. */
static void
finding_activated_cb (SlFolderPage *self,
                      SlFinding    *finding)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-finding", "(ss)",
                              sl_finding_kind_to_id (sl_finding_get_kind (finding)), sl_finding_get_path (finding));
}

static void
sl_folder_page_init (SlFolderPage *self)
{
  self->groups = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self, "finding-activated", G_CALLBACK (finding_activated_cb), NULL);
}

/**
 * sl_folder_page_set_folder:
 *
 * Shows @folder, following its scans. Set once.
 */
void
sl_folder_page_set_folder (SlFolderPage *self,
                           SlFolder     *folder)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) remove = g_menu_item_new (_("Remove Folder from Workspace"), NULL);

  g_return_if_fail (SL_IS_FOLDER_PAGE (self));
  g_return_if_fail (SL_IS_FOLDER (folder));
  g_return_if_fail (self->folder == NULL);

  self->folder = g_object_ref (folder);
  g_menu_item_set_action_and_target (remove, "win.remove-folder", "s", sl_folder_get_path (folder));
  g_menu_append_item (menu, remove);
  panel_widget_set_menu_model (PANEL_WIDGET (self), G_MENU_MODEL (menu));

  g_signal_connect_object (folder, "notify::state", G_CALLBACK (folder_notify_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (folder, "notify::files-scanned", G_CALLBACK (folder_notify_cb), self, G_CONNECT_SWAPPED);
  update_state (self);
}

SlFolder *
sl_folder_page_get_folder (SlFolderPage *self)
{
  g_return_val_if_fail (SL_IS_FOLDER_PAGE (self), NULL);
  return self->folder;
}
