/* sl-pipeline-model-path.h: points a MindX pipeline's inference element at a converted model
 *
 * The project's *.pipeline files are listed, each one's mxpi_tensorinfer
 * and mxpi_modelinfer elements offered with the modelPath they have, and
 * the one picked rewritten through the pipeline editor, so every other
 * byte of the file stays as it was. The rewritten file is read and
 * checked again, as the SDK's stream manager would.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-pipeline.h"

G_BEGIN_DECLS

/* Folders deeper than this, hidden folders and more files than this are
 * not looked at: a project is not a whole disk. */
#define SL_PIPELINE_MODEL_PATH_MAX_DEPTH 4
#define SL_PIPELINE_MODEL_PATH_MAX_FILES 200

/* An inference element of a pipeline; strings owned by the struct. */
typedef struct {
  guint  stream;
  guint  element;
  char  *stream_name;
  char  *element_name;
  char  *factory;
  char  *model_path;  /* the modelPath it has, or NULL */
} SlModelPathSlot;

void       sl_model_path_slot_free                  (SlModelPathSlot *slot);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlModelPathSlot, sl_model_path_slot_free)

/* The *.pipeline files under @project_dir (absolute paths, sorted).
 * Blocks: call it on a worker. */
GPtrArray *sl_pipeline_model_path_find_pipelines   (const char      *project_dir);
/* The elements whose factory takes a modelPath (SlModelPathSlot). */
GPtrArray *sl_pipeline_model_path_list_slots       (SlPipeline      *pipeline);
/* The modelPath to write for @om_path (as ATC's --output gave it, with
 * .om): a relative one stays relative to the project folder. */
char      *sl_pipeline_model_path_for_pipeline     (const char      *om_path);
/* Sets the modelPath of @element of @stream in the file at @path, keeps
 * the old file as FILE~, and returns what the check finds in the new one
 * (SlProblem), or %NULL with @error when nothing was changed. Blocks. */
GPtrArray *sl_pipeline_model_path_apply            (const char      *path,
                                                    guint            stream,
                                                    guint            element,
                                                    const char      *model_path,
                                                    const char      *project_dir,
                                                    GCancellable    *cancellable,
                                                    GError         **error);

G_END_DECLS
