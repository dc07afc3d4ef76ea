/* sl-pipeline-page.h: a MindX SDK pipeline: one graph per stream, the
 * check's problems, and props edited in Details
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"
#include "sl-graph-canvas.h"
#include "sl-pipeline.h"

G_BEGIN_DECLS

#define SL_TYPE_PIPELINE_PAGE (sl_pipeline_page_get_type ())
G_DECLARE_FINAL_TYPE (SlPipelinePage, sl_pipeline_page, SL, PIPELINE_PAGE, SlDocument)

/* The pipeline as shown: as read, or as edited and not yet saved. */
SlPipeline    *sl_pipeline_page_get_pipeline     (SlPipelinePage *self);
SlGraphCanvas *sl_pipeline_page_get_canvas       (SlPipelinePage *self);
guint          sl_pipeline_page_get_stream       (SlPipelinePage *self);
void           sl_pipeline_page_set_stream       (SlPipelinePage *self,
                                                  guint           stream);
/* Selects element @element of the stream shown, as a click does. */
void           sl_pipeline_page_select_element   (SlPipelinePage *self,
                                                  guint           element);
/* Sets a prop of the selected element, as Enter in its entry does; the
 * edit is checked and laid out on a worker, then shown, unsaved. */
void           sl_pipeline_page_set_prop         (SlPipelinePage *self,
                                                  const char     *key,
                                                  const char     *value);
/* Whether edits are not saved yet. */
gboolean       sl_pipeline_page_get_modified     (SlPipelinePage *self);
/* The line under the graph: how many problems the check found. */
const char    *sl_pipeline_page_get_status       (SlPipelinePage *self);
/* Writes the edits (keeping FILE~), as Ctrl+S does. */
void           sl_pipeline_page_save             (SlPipelinePage *self);

G_END_DECLS
