/* sl-document-target.h: which document `sightline --document KIND PATH`
 * names, checked against what the paths hold
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document-registry.h"

G_BEGIN_DECLS

/**
 * SlDocumentTarget:
 * @kind: the kind of document
 * @page: (nullable): the page of it named, for an alias
 * @address: what the document shows: a finding's path, or the paths
 *   given, in order, for a comparison
 * @finding: (nullable): what was found in the path, for a one-path kind
 */
typedef struct {
  const SlDocumentKind *kind;
  const char           *page;
  SlDocumentAddress    *address;
  SlFinding            *finding;
} SlDocumentTarget;

SlDocumentTarget *sl_document_target_resolve (const char          *name,
                                              const char * const  *paths,
                                              guint                n_paths,
                                              GError             **error);
void              sl_document_target_free    (SlDocumentTarget    *target);
char             *sl_document_target_dup_names (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlDocumentTarget, sl_document_target_free)

G_END_DECLS
