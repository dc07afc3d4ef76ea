/* sl-detector-private.h: what the walk of SlDetector and its detectors,
 * one file a family of files, share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-detector.h"
#include "sl-profiler-layout.h"
#include "sl-sniffer.h"

G_BEGIN_DECLS

typedef struct {
  SlDetector   *detector;
  SlDetection  *detection;
  GFile        *root;
  gboolean      root_is_file;
  GCancellable *cancellable;
  GHashTable   *visited;    /* id::file of every folder entered */
  GHashTable   *ancestors;  /* id::file -> path, for the folders being walked */
  GPtrArray    *analysis_parents; /* folders holding a cluster_analysis_output */
} SlDetectorWalk;

/* A kind of model file named by its suffix (sl-detector-models.c). */
typedef struct _SlDetectorModelFile SlDetectorModelFile;

/* The walk (sl-detector.c): its state, problems, folders and findings. */
gboolean sl_detector_walk_cancelled (SlDetectorWalk *walk);
void sl_detector_add_problem (SlDetectorWalk *walk,
                              SlSeverity      severity,
                              GFile          *file,
                              gint64          offset,
                              const char     *message);
void sl_detector_add_read_problem (SlDetectorWalk *walk,
                                   GFile          *file,
                                   const GError   *error);
SlFinding *sl_detector_finding_new_for_file (SlDetectorWalk *walk,
                                             SlFindingKind   kind,
                                             GFile          *file);
void sl_detector_finding_add_gfile (SlFinding *finding,
                                    GFile     *file,
                                    GFileInfo *info);
gboolean sl_detector_is_regular (GFileInfo *info);
gboolean sl_detector_is_folder (GFileInfo *info);
GFileInfo *sl_detector_find_child (GPtrArray  *children,
                                   const char *name);
gboolean sl_detector_has_child_folder (GPtrArray  *children,
                                       const char *name);
SlSniffResult *sl_detector_sniff_or_report (SlDetectorWalk *walk,
                                            GFile          *file);
gboolean sl_detector_collect_files (SlDetectorWalk *walk,
                                    SlFinding      *finding,
                                    GFile          *folder,
                                    GPtrArray      *children,
                                    guint           depth);
void sl_detector_add_uint_detail (SlFinding  *finding,
                                  const char *key,
                                  guint64     value);
void sl_detector_add_single_file_finding (SlDetectorWalk  *walk,
                                          SlFindingKind    kind,
                                          GFile           *file,
                                          GFileInfo       *info,
                                          SlFinding      **out);

/* Summary and TensorBoard runs (sl-detector-summaries.c). */
gboolean sl_detector_is_summary_file (const char *name);
gboolean sl_detector_is_tensorboard_file (const char *name);
gboolean sl_detector_detect_summary_run (SlDetectorWalk *walk,
                                         GFile          *folder,
                                         GPtrArray      *summary_files,
                                         GPtrArray      *graph_files,
                                         GFile          *single_file);
gboolean sl_detector_detect_tensorboard_run (SlDetectorWalk *walk,
                                             GFile          *folder,
                                             GPtrArray      *event_files,
                                             GFile          *single_file);

/* Profiler folders, tables, databases and traces (sl-detector-profiles.c). */
gboolean sl_detector_detect_whole_folder (SlDetectorWalk *walk,
                                          GFile          *folder,
                                          GPtrArray      *children,
                                          guint           depth,
                                          gboolean       *ok);
void sl_detector_detect_trace (SlDetectorWalk *walk,
                               GFile          *file,
                               GFileInfo      *info);
void sl_detector_detect_profiler_db (SlDetectorWalk *walk,
                                     GFile          *file,
                                     GFileInfo      *info);
const SlProfilerEntry *sl_detector_lookup_profile_file (const char *name,
                                                        gboolean    single_file);
gboolean sl_detector_detect_profile_file (SlDetectorWalk        *walk,
                                          GFile                 *file,
                                          GFileInfo             *info,
                                          const SlProfilerEntry *entry);

/* Graphs and models (sl-detector-models.c). */
void sl_detector_detect_graph (SlDetectorWalk *walk,
                               GFile          *file,
                               GFileInfo      *info);
const SlDetectorModelFile *sl_detector_lookup_model_file (const char *name);
void sl_detector_detect_model_file (SlDetectorWalk            *walk,
                                    GFile                     *file,
                                    GFileInfo                 *info,
                                    const SlDetectorModelFile *kind);

/* msprobe dumps and tensors (sl-detector-dumps.c). */
SlSniffResult *sl_detector_sniff_msprobe_dump (SlDetectorWalk *walk,
                                               GFile          *folder,
                                               GPtrArray      *children);
void sl_detector_add_msprobe_details (SlFinding     *finding,
                                      GFile         *folder,
                                      SlSniffResult *dump);
void sl_detector_detect_tensor (SlDetectorWalk *walk,
                                GFile          *file,
                                GFileInfo      *info);
void sl_detector_detect_msprobe_file (SlDetectorWalk *walk,
                                      GFile          *file,
                                      GFileInfo      *info);

/* Pipelines and tuner configurations (sl-detector-configs.c). */
void sl_detector_detect_pipeline (SlDetectorWalk *walk,
                                  GFile          *file,
                                  GFileInfo      *info);
void sl_detector_detect_tuner_config (SlDetectorWalk *walk,
                                      GFile          *file,
                                      GFileInfo      *info);

G_END_DECLS
