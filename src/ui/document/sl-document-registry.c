/* sl-document-registry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-document-registry.h"

static GPtrArray *kinds;

/**
 * sl_document_registry_register:
 * @kind: (transfer none): a kind, alive for the rest of the program
 *
 * Adds a kind of document. A later kind that opens a finding kind takes
 * it over from an earlier one.
 */
void
sl_document_registry_register (const SlDocumentKind *kind)
{
  g_return_if_fail (kind != NULL && kind->id != NULL && kind->get_type != NULL);
  g_return_if_fail (sl_document_registry_lookup (kind->id) == NULL);

  if (kinds == NULL)
    kinds = g_ptr_array_new ();
  g_ptr_array_add (kinds, (gpointer)kind);
}

/**
 * sl_document_registry_lookup:
 *
 * Returns: (nullable): the kind named @id
 */
const SlDocumentKind *
sl_document_registry_lookup (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; kinds != NULL && i < kinds->len; i++)
    {
      const SlDocumentKind *kind = g_ptr_array_index (kinds, i);

      if (g_str_equal (kind->id, id))
        return kind;
    }

  return NULL;
}

static gboolean
kind_opens (const SlDocumentKind *kind,
            SlFindingKind         finding)
{
  for (guint i = 0; kind->findings != NULL && kind->findings[i] != SL_FINDING_N_KINDS; i++)
    {
      if (kind->findings[i] == finding)
        return TRUE;
    }

  return FALSE;
}

/**
 * sl_document_registry_lookup_finding:
 *
 * Returns: (nullable): the kind that opens findings of @finding, the
 *   newest registered first, else the kind that opens any finding
 */
const SlDocumentKind *
sl_document_registry_lookup_finding (SlFindingKind finding)
{
  const SlDocumentKind *fallback = NULL;

  for (guint i = kinds ? kinds->len : 0; i > 0; i--)
    {
      const SlDocumentKind *kind = g_ptr_array_index (kinds, i - 1);

      if (kind_opens (kind, finding))
        return kind;
      if (kind->opens_any_finding && fallback == NULL)
        fallback = kind;
    }

  return fallback;
}

/**
 * sl_document_registry_get_nth:
 *
 * Returns: (nullable): the kind registered at @position, or %NULL past
 *   the last
 */
const SlDocumentKind *
sl_document_registry_get_nth (guint position)
{
  if (kinds == NULL || position >= kinds->len)
    return NULL;
  return g_ptr_array_index (kinds, position);
}

/**
 * sl_document_registry_lookup_op_view:
 *
 * Returns: (nullable): the first kind that shows an op by its name
 */
const SlDocumentKind *
sl_document_registry_lookup_op_view (void)
{
  for (guint i = 0; kinds != NULL && i < kinds->len; i++)
    {
      const SlDocumentKind *kind = g_ptr_array_index (kinds, i);

      if (kind->op_findings != NULL)
        return kind;
    }
  return NULL;
}

static gboolean
kind_also_opens (const SlDocumentKind *kind,
                 SlFinding            *finding)
{
  for (guint k = 0; kind->also_opens != NULL && kind->also_opens[k] != SL_FINDING_N_KINDS; k++)
    {
      if (kind->also_opens[k] == sl_finding_get_kind (finding))
        return kind->offers == NULL || kind->offers (finding);
    }
  return FALSE;
}

/* Whether `sightline --document` can name @kind: it shows something a
 * path holds. The folder page and the page of any finding cannot. */
static gboolean
kind_is_named (const SlDocumentKind *kind)
{
  return !kind->opens_any_finding && (kind->findings != NULL || kind->also_opens != NULL || kind->holds != NULL);
}

/**
 * sl_document_registry_lookup_name:
 * @name: a kind's id, or an alias of one of its pages
 * @page: (out) (optional) (transfer none): the alias's page, or %NULL
 *
 * Returns: (nullable): the kind that @name names
 */
const SlDocumentKind *
sl_document_registry_lookup_name (const char  *name,
                                  const char **page)
{
  g_return_val_if_fail (name != NULL, NULL);

  if (page != NULL)
    *page = NULL;
  for (guint i = 0; kinds != NULL && i < kinds->len; i++)
    {
      const SlDocumentKind *kind = g_ptr_array_index (kinds, i);

      if (!kind_is_named (kind))
        continue;
      if (g_str_equal (kind->id, name))
        return kind;
      for (guint a = 0; kind->aliases != NULL && kind->aliases[a].name != NULL; a++)
        {
          if (g_str_equal (kind->aliases[a].name, name))
            {
              if (page != NULL)
                *page = kind->aliases[a].page;
              return kind;
            }
        }
    }

  return NULL;
}

/**
 * sl_document_registry_list_names:
 *
 * Returns: (transfer container) (element-type utf8): the names
 *   sl_document_registry_lookup_name() knows
 */
GPtrArray *
sl_document_registry_list_names (void)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; kinds != NULL && i < kinds->len; i++)
    {
      const SlDocumentKind *kind = g_ptr_array_index (kinds, i);

      if (!kind_is_named (kind))
        continue;
      g_ptr_array_add (names, (gpointer) kind->id);
      for (guint a = 0; kind->aliases != NULL && kind->aliases[a].name != NULL; a++)
        g_ptr_array_add (names, (gpointer) kind->aliases[a].name);
    }
  return names;
}

/**
 * sl_document_registry_kind_holds:
 *
 * Returns: whether a document of @kind shows @finding
 */
gboolean
sl_document_registry_kind_holds (const SlDocumentKind *kind,
                                 SlFinding            *finding)
{
  g_return_val_if_fail (kind != NULL, FALSE);
  g_return_val_if_fail (SL_IS_FINDING (finding), FALSE);

  if (kind->holds != NULL)
    return kind->holds (finding);
  return kind_opens (kind, sl_finding_get_kind (finding)) || kind_also_opens (kind, finding);
}

/**
 * sl_document_registry_list_also_opening:
 *
 * Returns: (transfer container) (element-type SlDocumentKind): the kinds
 *   whose @also_opens lists @finding's kind and which offer it
 */
GPtrArray *
sl_document_registry_list_also_opening (SlFinding *finding)
{
  GPtrArray *found = g_ptr_array_new ();

  g_return_val_if_fail (SL_IS_FINDING (finding), found);

  for (guint i = 0; kinds != NULL && i < kinds->len; i++)
    {
      const SlDocumentKind *kind = g_ptr_array_index (kinds, i);
      gboolean listed = FALSE;

      for (guint k = 0; kind->also_opens != NULL && kind->also_opens[k] != SL_FINDING_N_KINDS; k++)
        listed |= kind->also_opens[k] == sl_finding_get_kind (finding);
      if (listed && (kind->offers == NULL || kind->offers (finding)))
        g_ptr_array_add (found, (gpointer) kind);
    }
  return found;
}

/**
 * sl_document_registry_dup_title:
 *
 * Returns: (transfer full) (nullable): the tab title of the document of
 *   @kind for @path, or %NULL when the kind has no title format
 */
char *
sl_document_registry_dup_title (const SlDocumentKind *kind,
                                const char           *path)
{
  g_autofree char *name = NULL;
  char *title;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (kind->title_format == NULL)
    return NULL;
  name = g_path_get_basename (path);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  title = g_strdup_printf (_(kind->title_format), name);
#pragma GCC diagnostic pop
  return title;
}

/**
 * sl_document_registry_dup_id:
 *
 * Returns: (transfer full): the id of the document of @kind for @path;
 *   one document of a kind is open per path
 */
char *
sl_document_registry_dup_id (const SlDocumentKind *kind,
                             const char           *path)
{
  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  return g_strconcat (kind->id, ":", path, NULL);
}

/**
 * sl_document_registry_dup_address_id:
 *
 * Returns: (transfer full): the id of the document of @kind for
 *   @address: "KIND:PATH" for one path (as sl_document_registry_dup_id()),
 *   "KIND:['BASE', 'COMPARISON']" for several; one document of a kind is
 *   open per address
 */
char *
sl_document_registry_dup_address_id (const SlDocumentKind    *kind,
                                     const SlDocumentAddress *address)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (address != NULL, NULL);

  key = sl_document_address_dup_key (address);
  return g_strconcat (kind->id, ":", key, NULL);
}

/**
 * sl_document_registry_new_button:
 * @path: what the document shows
 * @label: the button's label, already translated
 * @tooltip: (nullable): its tooltip, already translated
 *
 * Returns: (transfer floating): a button opening the document of @kind
 *   for @path through `win.open-document`
 */
GtkWidget *
sl_document_registry_new_button (const SlDocumentKind *kind,
                                 const char           *path,
                                 const char           *label,
                                 const char           *tooltip)
{
  g_autoptr(SlDocumentAddress) address = NULL;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  address = sl_document_address_new_for_path (path);
  return sl_document_registry_new_address_button (kind, address, label, tooltip);
}

/**
 * sl_document_registry_new_address_button:
 * @address: what the document shows
 * @label: the button's label, already translated
 * @tooltip: (nullable): its tooltip, already translated
 *
 * Returns: (transfer floating): a button opening the document of @kind
 *   for @address: through `win.open-document ("(ssv)")` for one path,
 *   `win.open-paths ("(sasv)")` for several
 */
GtkWidget *
sl_document_registry_new_address_button (const SlDocumentKind    *kind,
                                         const SlDocumentAddress *address,
                                         const char              *label,
                                         const char              *tooltip)
{
  GtkWidget *button;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (address != NULL, NULL);
  g_return_val_if_fail (label != NULL, NULL);

  button = gtk_button_new_with_label (label);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  if (sl_document_address_get_n_paths (address) == 1)
    {
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-document");
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                              g_variant_new ("(ssv)", kind->id,
                                                             sl_document_address_get_path (address, 0),
                                                             g_variant_new ("()")));
    }
  else
    {
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-paths");
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                              g_variant_new ("(s@asv)", kind->id,
                                                             sl_document_address_to_variant (address),
                                                             g_variant_new ("()")));
    }
  return button;
}

/**
 * sl_document_registry_create:
 * @item: (nullable): the finding or folder opened, or %NULL for a path
 * @workspace: (nullable): the workspace the document belongs to
 *
 * Makes the document of @kind for @path and starts loading it.
 *
 * Returns: (transfer floating): the document
 */
SlDocument *
sl_document_registry_create (const SlDocumentKind *kind,
                             const char           *path,
                             GObject              *item,
                             SlWorkspace          *workspace)
{
  g_autoptr(SlDocumentAddress) address = NULL;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  address = sl_document_address_new_for_path (path);
  return sl_document_registry_create_for_address (kind, address, item, workspace);
}

/**
 * sl_document_registry_create_for_address:
 * @address: the paths the document shows
 * @item: (nullable): the finding or folder opened, or %NULL for a path
 * @workspace: (nullable): the workspace the document belongs to
 *
 * Makes the document of @kind for @address and starts loading it. A
 * comparison's tab is named after its last side until the document
 * names itself.
 *
 * Returns: (transfer floating): the document
 */
SlDocument *
sl_document_registry_create_for_address (const SlDocumentKind *kind,
                                         SlDocumentAddress    *address,
                                         GObject              *item,
                                         SlWorkspace          *workspace)
{
  g_autofree char *id = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  const char *named;
  SlDocument *document;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (address != NULL, NULL);

  named = sl_document_address_get_path (address, sl_document_address_get_n_paths (address) - 1);
  id = sl_document_registry_dup_address_id (kind, address);
  name = g_path_get_basename (named);
  title = sl_document_registry_dup_title (kind, named);

  document = g_object_new (kind->get_type (),
                           "id", id,
                           "address", address,
                           "title", title != NULL ? title : name,
                           "icon-name", kind->icon_name,
                           "workspace", workspace,
                           NULL);
  if (kind->setup != NULL)
    kind->setup (document, item);
  sl_document_load (document);

  return document;
}
