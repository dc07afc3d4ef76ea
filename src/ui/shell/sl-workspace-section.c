/* sl-workspace-section.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-workspace-section.h"

struct _SlWorkspaceSection
{
  GObject     parent_instance;
  char       *id;
  char       *title;
  char       *icon_name;
  GListModel *children;
};

G_DEFINE_FINAL_TYPE (SlWorkspaceSection, sl_workspace_section, G_TYPE_OBJECT)

static void
sl_workspace_section_finalize (GObject *object)
{
  SlWorkspaceSection *self = (SlWorkspaceSection *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->icon_name, g_free);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (sl_workspace_section_parent_class)->finalize (object);
}

static void
sl_workspace_section_class_init (SlWorkspaceSectionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_workspace_section_finalize;
}

static void
sl_workspace_section_init (SlWorkspaceSection *self)
{
}

SlWorkspaceSection *
sl_workspace_section_new (const char *id,
                          const char *title,
                          const char *icon_name,
                          GListModel *children)
{
  SlWorkspaceSection *self;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (children), NULL);

  self = g_object_new (SL_TYPE_WORKSPACE_SECTION, NULL);
  self->id = g_strdup (id);
  self->title = g_strdup (title);
  self->icon_name = g_strdup (icon_name);
  self->children = g_object_ref (children);

  return self;
}

const char *
sl_workspace_section_get_id (SlWorkspaceSection *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_SECTION (self), NULL);
  return self->id;
}

const char *
sl_workspace_section_get_title (SlWorkspaceSection *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_SECTION (self), NULL);
  return self->title;
}

const char *
sl_workspace_section_get_icon_name (SlWorkspaceSection *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_SECTION (self), NULL);
  return self->icon_name;
}

/**
 * sl_workspace_section_get_children:
 *
 * Returns: (transfer none): the items of the section
 */
GListModel *
sl_workspace_section_get_children (SlWorkspaceSection *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_SECTION (self), NULL);
  return self->children;
}
