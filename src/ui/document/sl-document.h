/* sl-document.h: the base of every document tab: what it shows, whether
 * it is loaded, what is selected in it and the problems it met
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libpanel.h>

#include "sl-description.h"
#include "sl-document-address.h"
#include "sl-problem.h"
#include "sl-workspace.h"

G_BEGIN_DECLS

typedef enum {
  SL_DOCUMENT_LOADING,
  SL_DOCUMENT_READY,
  SL_DOCUMENT_EMPTY,
  SL_DOCUMENT_FAILED,
} SlDocumentState;

#define SL_TYPE_DOCUMENT_STATE (sl_document_state_get_type ())
GType sl_document_state_get_type (void);

#define SL_TYPE_DOCUMENT (sl_document_get_type ())
G_DECLARE_DERIVABLE_TYPE (SlDocument, sl_document, SL, DOCUMENT, PanelWidget)

struct _SlDocumentClass
{
  PanelWidgetClass parent_class;

  /* Starts reading the document's source, in a worker. */
  void     (*load)           (SlDocument     *self);
  /* Describes what is selected in the document; FALSE when nothing is. */
  gboolean (*describe)       (SlDocument     *self,
                              SlDescription  *details);
  /* A link from another document (find an op, zoom to a range), applied
   * once the document is ready. */
  void     (*handle_request) (SlDocument     *self,
                              GVariant       *request);

  gpointer padding[8];
};

void             sl_document_load            (SlDocument      *self);
const char      *sl_document_get_path        (SlDocument      *self);
SlDocumentAddress *sl_document_get_address   (SlDocument      *self);
SlWorkspace     *sl_document_get_workspace   (SlDocument      *self);
SlDocumentState  sl_document_get_state       (SlDocument      *self);
void             sl_document_set_state       (SlDocument      *self,
                                              SlDocumentState  state);
double           sl_document_get_progress    (SlDocument      *self);
void             sl_document_set_progress    (SlDocument      *self,
                                              double           progress);
const char      *sl_document_get_error       (SlDocument      *self);
void             sl_document_fail            (SlDocument      *self,
                                              const char      *error);
GListModel      *sl_document_get_problems    (SlDocument      *self);
void             sl_document_add_problem     (SlDocument      *self,
                                              SlProblem       *problem);
void             sl_document_clear_problems  (SlDocument      *self);
SlDescription   *sl_document_get_selection   (SlDocument      *self);
void             sl_document_details_changed (SlDocument      *self);
void             sl_document_request         (SlDocument      *self,
                                              GVariant        *request);
/* Opens what shows an op of the same job by name (a kind of the
 * registry declares it), at the op named as profiles name it; toasts and
 * returns FALSE when the workspace has none. */
gboolean         sl_document_show_op         (SlDocument      *self,
                                              const char      *op_name);
gboolean         sl_document_can_show_op     (SlDocument      *self);

G_END_DECLS
