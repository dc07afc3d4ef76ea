/* sl-document-address.h: what a document shows, as its list of paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * SlDocumentAddress:
 *
 * The paths a document shows, in order: one for most documents, two (or
 * more) for a comparison, whose first path is the baseline. Immutable
 * and reference counted; a boxed type, so it travels in properties and
 * signals, and as a GVariant `as` in actions.
 */
typedef struct _SlDocumentAddress SlDocumentAddress;

#define SL_TYPE_DOCUMENT_ADDRESS (sl_document_address_get_type ())
GType               sl_document_address_get_type      (void) G_GNUC_CONST;

SlDocumentAddress  *sl_document_address_new           (const char * const  *paths);
SlDocumentAddress  *sl_document_address_new_for_path  (const char          *path);
SlDocumentAddress  *sl_document_address_new_pair      (const char          *first,
                                                       const char          *second);
SlDocumentAddress  *sl_document_address_new_for_files (GFile * const       *files,
                                                       guint                n_files);
SlDocumentAddress  *sl_document_address_new_from_variant (GVariant         *variant);
SlDocumentAddress  *sl_document_address_ref           (SlDocumentAddress   *self);
void                sl_document_address_unref         (SlDocumentAddress   *self);

guint               sl_document_address_get_n_paths   (const SlDocumentAddress *self);
const char         *sl_document_address_get_path      (const SlDocumentAddress *self,
                                                       guint                    index);
const char * const *sl_document_address_get_paths     (const SlDocumentAddress *self);
GFile              *sl_document_address_dup_file      (const SlDocumentAddress *self,
                                                       guint                    index);
GVariant           *sl_document_address_to_variant    (const SlDocumentAddress *self);
char               *sl_document_address_dup_key       (const SlDocumentAddress *self);
gboolean            sl_document_address_equal         (const SlDocumentAddress *a,
                                                       const SlDocumentAddress *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlDocumentAddress, sl_document_address_unref)

G_END_DECLS
