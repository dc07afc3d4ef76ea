/* sl-summary-writer.h: writes MindSpore summary and lineage files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-histogram-series.h"

G_BEGIN_DECLS

#define SL_TYPE_SUMMARY_WRITER (sl_summary_writer_get_type ())
G_DECLARE_FINAL_TYPE (SlSummaryWriter, sl_summary_writer, SL, SUMMARY_WRITER, GObject)

SlSummaryWriter *sl_summary_writer_new                (const char              *folder,
                                                       gint64                   timestamp,
                                                       const char              *host,
                                                       GError                 **error);
const char      *sl_summary_writer_get_path           (SlSummaryWriter         *self);
const char      *sl_summary_writer_get_lineage_path   (SlSummaryWriter         *self);
gboolean         sl_summary_writer_add_scalar         (SlSummaryWriter         *self,
                                                       gint64                   step,
                                                       double                   wall_time,
                                                       const char              *tag,
                                                       float                    value,
                                                       GError                 **error);
gboolean         sl_summary_writer_add_histogram      (SlSummaryWriter         *self,
                                                       gint64                   step,
                                                       double                   wall_time,
                                                       const char              *tag,
                                                       const SlHistogramStats  *stats,
                                                       guint                    n_buckets,
                                                       const double            *lefts,
                                                       const double            *widths,
                                                       const gint64            *counts,
                                                       GError                 **error);
gboolean         sl_summary_writer_add_image          (SlSummaryWriter         *self,
                                                       gint64                   step,
                                                       double                   wall_time,
                                                       const char              *tag,
                                                       int                      width,
                                                       int                      height,
                                                       int                      colorspace,
                                                       GBytes                  *png,
                                                       GError                 **error);
gboolean         sl_summary_writer_add_tensor         (SlSummaryWriter         *self,
                                                       gint64                   step,
                                                       double                   wall_time,
                                                       const char              *tag,
                                                       guint                    n_dims,
                                                       const gint64            *dims,
                                                       gsize                    n_values,
                                                       const float             *values,
                                                       GError                 **error);
gboolean         sl_summary_writer_add_graph          (SlSummaryWriter         *self,
                                                       gint64                   step,
                                                       double                   wall_time,
                                                       GBytes                  *graph_proto,
                                                       GError                 **error);
gboolean         sl_summary_writer_add_train_lineage  (SlSummaryWriter         *self,
                                                       double                   wall_time,
                                                       const char              *optimizer,
                                                       float                    learning_rate,
                                                       const char              *loss_function,
                                                       int                      epoch,
                                                       int                      batch_size,
                                                       const char              *network,
                                                       float                    loss,
                                                       GError                 **error);
gboolean         sl_summary_writer_add_eval_lineage   (SlSummaryWriter         *self,
                                                       double                   wall_time,
                                                       const char              *metric_json,
                                                       const char              *valid_dataset_path,
                                                       int                      valid_dataset_size,
                                                       GError                 **error);
gboolean         sl_summary_writer_add_raw            (SlSummaryWriter         *self,
                                                       gconstpointer            payload,
                                                       gsize                    len,
                                                       GError                 **error);
gboolean         sl_summary_writer_flush              (SlSummaryWriter         *self,
                                                       GError                 **error);
gboolean         sl_summary_writer_close              (SlSummaryWriter         *self,
                                                       GError                 **error);

G_END_DECLS
