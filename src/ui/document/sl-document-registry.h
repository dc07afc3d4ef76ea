/* sl-document-registry.h: the kinds of document, and what each opens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"
#include "sl-finding.h"

G_BEGIN_DECLS

/**
 * SlDocumentKind:
 * @id: names the kind in document ids ("scalars:PATH") and in links
 *   (`win.open-document`)
 * @type: a subtype of #SlDocument; made with g_object_new() and the
 *   properties "id", "path", "title", "icon-name" and "workspace"
 * @title_format: (nullable): the tab title, "%s" standing for the file or
 *   folder name; translated when shown
 * @icon_name: the tab's icon
 * @findings: the finding kinds it opens, ended by %SL_FINDING_N_KINDS
 * @opens_any_finding: the kind for findings no other kind opens
 * @setup: (nullable): called after construction with the finding or
 *   folder opened (or %NULL for a path), before loading
 * @also_opens: (nullable): finding kinds it opens as a second view, from
 *   a button on the finding's row (a run's graph beside its scalars),
 *   ended by %SL_FINDING_N_KINDS
 * @action_label: (nullable): that button's label; translated when shown
 * @offers: (nullable): whether a finding of @also_opens has what the
 *   view shows; %NULL for all of them
 * @aliases: (nullable): other names `sightline --document` takes for a
 *   page of this kind ("histograms" for the Scalars document's page),
 *   ended by an alias whose name is %NULL
 * @n_paths: how many paths the document compares (0 for one): its
 *   #SlDocumentAddress then holds that many, in order (see "How to add a
 *   view" in the README), and #SlDocument:path is the first
 * @holds: (nullable): whether @finding, found in a path given to
 *   `sightline --document`, is something this kind shows; %NULL for the
 *   finding kinds of @findings and @also_opens
 * @keeps_path: `sightline --document` opens the path given, not the
 *   path of the finding found in it (a folder of runs compared)
 * @show_page: (nullable): shows the page named by an alias
 * @add_folder_buttons: (nullable): offers buttons in the folder page,
 *   each in the header of the group of one finding kind, for what the
 *   folder's findings hold together (several runs compared, two profiles,
 *   two tensor dumps); calls @add for each
 * @op_findings: (nullable): the kind shows an op by the name profiles
 *   give it, from a request "(s)": the finding kinds, ended by
 *   %SL_FINDING_N_KINDS, whose documents of this kind can, for
 *   sl_document_show_op()
 * @no_op_message: (nullable): what to say when the workspace holds none
 *   of @op_findings near a document; translated when shown
 */
typedef struct {
  const char *name;
  const char *page;
} SlDocumentAlias;

/* Puts @button in the header of the folder page's group of @group. */
typedef void (*SlFolderButtonFunc) (GtkWidget     *button,
                                    SlFindingKind  group,
                                    gpointer       data);

typedef struct {
  const char          *id;
  GType              (*get_type)    (void);
  const char          *title_format;
  const char          *icon_name;
  const SlFindingKind *findings;
  gboolean             opens_any_finding;
  void               (*setup)       (SlDocument *document,
                                     GObject    *item);
  const SlFindingKind *also_opens;
  const char          *action_label;
  gboolean           (*offers)      (SlFinding  *finding);
  const SlDocumentAlias *aliases;
  guint                n_paths;
  gboolean           (*holds)       (SlFinding  *finding);
  gboolean             keeps_path;
  void               (*show_page)   (SlDocument *document,
                                     const char *page);
  void               (*add_folder_buttons) (GListModel         *findings,
                                            const char         *folder_path,
                                            SlFolderButtonFunc  add,
                                            gpointer            data);
  const SlFindingKind *op_findings;
  const char          *no_op_message;
} SlDocumentKind;

void                  sl_document_registry_register       (const SlDocumentKind *kind);
void                  sl_document_registry_ensure_builtin (void);
const SlDocumentKind *sl_document_registry_lookup         (const char           *id);
const SlDocumentKind *sl_document_registry_lookup_finding (SlFindingKind         kind);
/* The kinds in registration order: %NULL past the last. */
const SlDocumentKind *sl_document_registry_get_nth        (guint                 position);
/* The kind that shows an op by name (see @op_findings), if any. */
const SlDocumentKind *sl_document_registry_lookup_op_view (void);
/* The kind named @name, or whose alias @name is; @page is set to the
 * alias's page (%NULL for the kind's own name). */
const SlDocumentKind *sl_document_registry_lookup_name    (const char           *name,
                                                           const char          **page);
/* The names `sightline --document` takes, kinds and aliases, in
 * registration order; the folder and finding pages are left out. */
GPtrArray            *sl_document_registry_list_names     (void);
gboolean              sl_document_registry_kind_holds     (const SlDocumentKind *kind,
                                                           SlFinding            *finding);
/* The kinds offering a second view of @finding, in registration order. */
GPtrArray            *sl_document_registry_list_also_opening (SlFinding     *finding);
char                 *sl_document_registry_dup_title      (const SlDocumentKind *kind,
                                                           const char           *path);
char                 *sl_document_registry_dup_id         (const SlDocumentKind *kind,
                                                           const char           *path);
char                 *sl_document_registry_dup_address_id (const SlDocumentKind    *kind,
                                                           const SlDocumentAddress *address);
/* A button that opens the document of @kind for @path (win.open-document). */
GtkWidget            *sl_document_registry_new_button     (const SlDocumentKind *kind,
                                                           const char           *path,
                                                           const char           *label,
                                                           const char           *tooltip);
/* A button that opens the document of @kind for @address: through
 * win.open-document for one path, win.open-paths for several. */
GtkWidget            *sl_document_registry_new_address_button (const SlDocumentKind    *kind,
                                                               const SlDocumentAddress *address,
                                                               const char              *label,
                                                               const char              *tooltip);
SlDocument           *sl_document_registry_create         (const SlDocumentKind *kind,
                                                           const char           *path,
                                                           GObject              *item,
                                                           SlWorkspace          *workspace);
SlDocument           *sl_document_registry_create_for_address (const SlDocumentKind *kind,
                                                               SlDocumentAddress    *address,
                                                               GObject              *item,
                                                               SlWorkspace          *workspace);

G_END_DECLS
