/* sl-summary-run.h: one training run read from summary or event files
 *
 * A run is a folder holding MindSpore summary files, their _lineage
 * companions or TensorBoard event files; its name is the folder's path
 * relative to the opened one. The run keeps every point of every tag, the
 * graphs and the lineage, and for each file how far it has been read, so
 * that a later read continues where this one stopped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "sl-histogram-series.h"
#include "sl-image-series.h"
#include "sl-problem.h"
#include "sl-scalar-series.h"
#include "sl-tensor-series.h"

G_BEGIN_DECLS

typedef enum {
  SL_SUMMARY_FILE_MINDSPORE,
  SL_SUMMARY_FILE_LINEAGE,
  SL_SUMMARY_FILE_TENSORBOARD,
  SL_SUMMARY_FILE_EXPLAIN,
} SlSummaryFileKind;

typedef enum {
  SL_SUMMARY_TAG_SCALAR,
  SL_SUMMARY_TAG_HISTOGRAM,
  SL_SUMMARY_TAG_IMAGE,
  SL_SUMMARY_TAG_TENSOR,
  SL_SUMMARY_TAG_LOSS_LANDSCAPE,
} SlSummaryTagKind;

typedef enum {
  SL_LINEAGE_TRAIN,
  SL_LINEAGE_EVAL,
  SL_LINEAGE_USER,
  SL_LINEAGE_HPARAMS,          /* a TensorBoard session's hyperparameters */
  SL_LINEAGE_HPARAMS_METRICS,  /* tag → display name, from an HParams experiment */
  SL_LINEAGE_N_SECTIONS,
} SlLineageSection;

/* Reading state of one file; owned by the run, filled by the reader. */
typedef struct {
  char              *path;
  char              *name;
  SlSummaryFileKind  kind;
  guint64            offset;        /* after the last whole record */
  guint64            size;          /* at the last read */
  guint64            n_records;
  guint64            n_bad;         /* failed a checksum or the length limit */
  guint64            n_undecodable; /* framed correctly, not a valid event */
  guint64            tail_bytes;    /* a partial record after offset */
  gboolean           growing;       /* the size changed at the last read */
  gboolean           stopped;       /* the framing broke: not read further */
  gboolean           tail_reported;
  gint64             last_update;   /* monotonic µs of the last read */
} SlSummaryFile;

/* Graphs and loss landscapes are kept as the serialized message, decoded
 * when a view asks for them. */
typedef struct {
  gint64  step;
  double  wall_time;
  GBytes *bytes;
} SlSummaryBlob;

#define SL_TYPE_SUMMARY_RUN (sl_summary_run_get_type ())
G_DECLARE_FINAL_TYPE (SlSummaryRun, sl_summary_run, SL, SUMMARY_RUN, GObject)

SlSummaryRun       *sl_summary_run_new                (const char        *name,
                                                       const char        *path);
const char         *sl_summary_run_get_name           (SlSummaryRun      *self);
const char         *sl_summary_run_get_path           (SlSummaryRun      *self);

guint               sl_summary_run_get_n_files        (SlSummaryRun      *self);
SlSummaryFile      *sl_summary_run_get_file           (SlSummaryRun      *self,
                                                       guint              index);
SlSummaryFile      *sl_summary_run_ensure_file        (SlSummaryRun      *self,
                                                       const char        *path,
                                                       SlSummaryFileKind  kind);
SlSummaryRun       *sl_summary_run_dup_reading_state  (SlSummaryRun      *self);
void                sl_summary_run_absorb             (SlSummaryRun      *self,
                                                       SlSummaryRun      *delta);

guint               sl_summary_run_get_n_tags         (SlSummaryRun      *self);
const char         *sl_summary_run_get_tag_name       (SlSummaryRun      *self,
                                                       guint              index);
SlSummaryTagKind    sl_summary_run_get_tag_kind       (SlSummaryRun      *self,
                                                       guint              index);
gpointer            sl_summary_run_get_tag_series     (SlSummaryRun      *self,
                                                       guint              index);
gint                sl_summary_run_find_tag           (SlSummaryRun      *self,
                                                       SlSummaryTagKind   kind,
                                                       const char        *tag);
guint               sl_summary_run_get_tag_info       (SlSummaryRun      *self,
                                                       guint              index,
                                                       gint64            *first_step,
                                                       gint64            *last_step);

SlScalarSeries     *sl_summary_run_ensure_scalars     (SlSummaryRun      *self,
                                                       const char        *tag);
SlHistogramSeries  *sl_summary_run_ensure_histograms  (SlSummaryRun      *self,
                                                       const char        *tag);
SlImageSeries      *sl_summary_run_ensure_images      (SlSummaryRun      *self,
                                                       const char        *tag);
SlTensorSeries     *sl_summary_run_ensure_tensors     (SlSummaryRun      *self,
                                                       const char        *tag);
void                sl_summary_run_add_landscape      (SlSummaryRun      *self,
                                                       const char        *tag,
                                                       gint64             step,
                                                       double             wall_time,
                                                       GBytes            *bytes);
GPtrArray          *sl_summary_run_get_landscapes     (SlSummaryRun      *self,
                                                       guint              index);

void                sl_summary_run_add_graph          (SlSummaryRun      *self,
                                                       gint64             step,
                                                       double             wall_time,
                                                       GBytes            *bytes);
GPtrArray          *sl_summary_run_get_graphs         (SlSummaryRun      *self);

void                sl_summary_run_set_lineage        (SlSummaryRun      *self,
                                                       SlLineageSection   section,
                                                       const char        *key,
                                                       const char        *value);
const char         *sl_summary_run_get_lineage        (SlSummaryRun      *self,
                                                       SlLineageSection   section,
                                                       const char        *key);
GStrv               sl_summary_run_dup_lineage_keys   (SlSummaryRun      *self,
                                                       SlLineageSection   section);
void                sl_summary_run_set_dataset_graph  (SlSummaryRun      *self,
                                                       GBytes            *bytes);
GBytes             *sl_summary_run_get_dataset_graph  (SlSummaryRun      *self);

void                sl_summary_run_add_problem        (SlSummaryRun      *self,
                                                       SlProblem         *problem);
GPtrArray          *sl_summary_run_get_problems       (SlSummaryRun      *self);
guint64             sl_summary_run_get_n_bad_records  (SlSummaryRun      *self);

const char         *sl_summary_tag_kind_to_string     (SlSummaryTagKind   kind);
const char         *sl_summary_file_kind_to_string    (SlSummaryFileKind  kind);

G_END_DECLS
