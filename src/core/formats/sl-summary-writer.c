/* sl-summary-writer.c
 *
 * Writes what MindSpore's SummaryRecord writes: a version event first,
 * then one event per value, framed by SlRecordWriter; lineage goes to a
 * sibling file ending in _lineage, created on first use.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "mindspore_lineage.pb-c.h"
#include "mindspore_summary.pb-c.h"

#include "sl-proto-nesting.h"
#include "sl-record-writer.h"
#include "sl-summary-reader.h"
#include "sl-summary-writer.h"

struct _SlSummaryWriter
{
  GObject         parent_instance;
  char           *path;
  char           *lineage_path;
  GOutputStream  *stream;
  SlRecordWriter *records;
  GOutputStream  *lineage_stream;
  SlRecordWriter *lineage_records;
  GByteArray     *buffer;
};

G_DEFINE_FINAL_TYPE (SlSummaryWriter, sl_summary_writer, G_TYPE_OBJECT)

static void
sl_summary_writer_finalize (GObject *object)
{
  SlSummaryWriter *self = (SlSummaryWriter *)object;

  if (self->stream != NULL)
    sl_summary_writer_close (self, NULL);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->lineage_path, g_free);
  g_clear_pointer (&self->buffer, g_byte_array_unref);

  G_OBJECT_CLASS (sl_summary_writer_parent_class)->finalize (object);
}

static void
sl_summary_writer_class_init (SlSummaryWriterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_summary_writer_finalize;
}

static void
sl_summary_writer_init (SlSummaryWriter *self)
{
  self->buffer = g_byte_array_new ();
}

static GOutputStream *
create_stream (const char  *path,
               GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) stream = NULL;

  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  if (stream == NULL)
    return NULL;
  return g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (stream), 1024 * 1024);
}

static gboolean
write_message (SlSummaryWriter         *self,
               SlRecordWriter          *records,
               const ProtobufCMessage  *message,
               GError                 **error)
{
  gsize len = protobuf_c_message_get_packed_size (message);

  g_byte_array_set_size (self->buffer, MAX (len, 1));
  protobuf_c_message_pack (message, self->buffer->data);
  return sl_record_writer_write (records, self->buffer->data, len, NULL, error);
}

/**
 * sl_summary_writer_new:
 * @folder: an existing folder
 * @timestamp: Unix seconds, part of the file names
 * @host: the host name part of the file names
 *
 * Creates events.out.events.summary.<timestamp>.<host>_MS in @folder and
 * writes the version event.
 *
 * Returns: (transfer full) (nullable): the writer, or %NULL with @error set
 */
SlSummaryWriter *
sl_summary_writer_new (const char  *folder,
                       gint64       timestamp,
                       const char  *host,
                       GError     **error)
{
  g_autoptr(SlSummaryWriter) self = NULL;
  g_autofree char *name = NULL;
  g_autofree char *lineage_name = NULL;
  Mindinsight__Event event = MINDINSIGHT__EVENT__INIT;

  g_return_val_if_fail (folder != NULL, NULL);
  g_return_val_if_fail (host != NULL, NULL);

  self = g_object_new (SL_TYPE_SUMMARY_WRITER, NULL);
  name = g_strdup_printf ("events.out.events.summary.%lld.%s_MS", (long long) timestamp, host);
  lineage_name = g_strdup_printf ("events.out.events.summary.%lld.%s_lineage", (long long) timestamp, host);
  self->path = g_build_filename (folder, name, NULL);
  self->lineage_path = g_build_filename (folder, lineage_name, NULL);

  self->stream = create_stream (self->path, error);
  if (self->stream == NULL)
    return NULL;
  self->records = sl_record_writer_new (self->stream);

  event.wall_time = (double) timestamp;
  event.what_case = MINDINSIGHT__EVENT__WHAT_VERSION;
  event.version = (char *) "MindSpore.Event:1";
  if (!write_message (self, self->records, &event.base, error))
    return NULL;

  return g_steal_pointer (&self);
}

const char *
sl_summary_writer_get_path (SlSummaryWriter *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), NULL);
  return self->path;
}

/**
 * sl_summary_writer_get_lineage_path:
 *
 * Returns: where lineage goes; the file exists once lineage was written
 */
const char *
sl_summary_writer_get_lineage_path (SlSummaryWriter *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), NULL);
  return self->lineage_path;
}

static gboolean
write_value (SlSummaryWriter             *self,
             gint64                       step,
             double                       wall_time,
             Mindinsight__Summary__Value *value,
             GError                     **error)
{
  Mindinsight__Event event = MINDINSIGHT__EVENT__INIT;
  Mindinsight__Summary summary = MINDINSIGHT__SUMMARY__INIT;
  Mindinsight__Summary__Value *values[1] = { value };

  if (self->stream == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED, _("The summary file is closed."));
      return FALSE;
    }

  summary.n_value = 1;
  summary.value = values;
  event.wall_time = wall_time;
  event.has_step = TRUE;
  event.step = step;
  event.what_case = MINDINSIGHT__EVENT__WHAT_SUMMARY;
  event.summary = &summary;

  return write_message (self, self->records, &event.base, error);
}

gboolean
sl_summary_writer_add_scalar (SlSummaryWriter  *self,
                              gint64            step,
                              double            wall_time,
                              const char       *tag,
                              float             value,
                              GError          **error)
{
  Mindinsight__Summary__Value v = MINDINSIGHT__SUMMARY__VALUE__INIT;

  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);
  g_return_val_if_fail (tag != NULL, FALSE);

  v.tag = (char *) tag;
  v.value_case = MINDINSIGHT__SUMMARY__VALUE__VALUE_SCALAR_VALUE;
  v.scalar_value = value;
  return write_value (self, step, wall_time, &v, error);
}

gboolean
sl_summary_writer_add_histogram (SlSummaryWriter         *self,
                                 gint64                   step,
                                 double                   wall_time,
                                 const char              *tag,
                                 const SlHistogramStats  *stats,
                                 guint                    n_buckets,
                                 const double            *lefts,
                                 const double            *widths,
                                 const gint64            *counts,
                                 GError                 **error)
{
  Mindinsight__Summary__Value v = MINDINSIGHT__SUMMARY__VALUE__INIT;
  Mindinsight__Summary__Histogram histogram = MINDINSIGHT__SUMMARY__HISTOGRAM__INIT;
  g_autofree Mindinsight__Summary__Histogram__Bucket *buckets = NULL;
  g_autofree Mindinsight__Summary__Histogram__Bucket **bucket_ptrs = NULL;

  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);
  g_return_val_if_fail (tag != NULL, FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);
  g_return_val_if_fail (n_buckets == 0 || (lefts != NULL && widths != NULL && counts != NULL), FALSE);

  buckets = g_new0 (Mindinsight__Summary__Histogram__Bucket, MAX (n_buckets, 1));
  bucket_ptrs = g_new0 (Mindinsight__Summary__Histogram__Bucket *, MAX (n_buckets, 1));
  for (guint i = 0; i < n_buckets; i++)
    {
      mindinsight__summary__histogram__bucket__init (&buckets[i]);
      buckets[i].left = lefts[i];
      buckets[i].width = widths[i];
      buckets[i].count = counts[i];
      bucket_ptrs[i] = &buckets[i];
    }
  histogram.n_buckets = n_buckets;
  histogram.buckets = bucket_ptrs;
  histogram.has_min = TRUE;
  histogram.min = stats->min;
  histogram.has_max = TRUE;
  histogram.max = stats->max;
  histogram.has_sum = TRUE;
  histogram.sum = stats->sum;
  histogram.has_count = TRUE;
  histogram.count = stats->count;
  histogram.has_nan_count = TRUE;
  histogram.nan_count = stats->nan_count;
  histogram.has_pos_inf_count = TRUE;
  histogram.pos_inf_count = stats->pos_inf_count;
  histogram.has_neg_inf_count = TRUE;
  histogram.neg_inf_count = stats->neg_inf_count;

  v.tag = (char *) tag;
  v.value_case = MINDINSIGHT__SUMMARY__VALUE__VALUE_HISTOGRAM;
  v.histogram = &histogram;
  return write_value (self, step, wall_time, &v, error);
}

gboolean
sl_summary_writer_add_image (SlSummaryWriter  *self,
                             gint64            step,
                             double            wall_time,
                             const char       *tag,
                             int               width,
                             int               height,
                             int               colorspace,
                             GBytes           *png,
                             GError          **error)
{
  Mindinsight__Summary__Value v = MINDINSIGHT__SUMMARY__VALUE__INIT;
  Mindinsight__Summary__Image image = MINDINSIGHT__SUMMARY__IMAGE__INIT;
  gsize len;

  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);
  g_return_val_if_fail (tag != NULL, FALSE);
  g_return_val_if_fail (png != NULL, FALSE);

  image.width = width;
  image.height = height;
  image.colorspace = colorspace;
  image.encoded_image.data = (guint8 *) g_bytes_get_data (png, &len);
  image.encoded_image.len = len;

  v.tag = (char *) tag;
  v.value_case = MINDINSIGHT__SUMMARY__VALUE__VALUE_IMAGE;
  v.image = &image;
  return write_value (self, step, wall_time, &v, error);
}

gboolean
sl_summary_writer_add_tensor (SlSummaryWriter  *self,
                              gint64            step,
                              double            wall_time,
                              const char       *tag,
                              guint             n_dims,
                              const gint64     *dims,
                              gsize             n_values,
                              const float      *values,
                              GError          **error)
{
  Mindinsight__Summary__Value v = MINDINSIGHT__SUMMARY__VALUE__INIT;
  Mindinsight__TensorProto tensor = MINDINSIGHT__TENSOR_PROTO__INIT;

  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);
  g_return_val_if_fail (tag != NULL, FALSE);
  g_return_val_if_fail (n_dims == 0 || dims != NULL, FALSE);
  g_return_val_if_fail (n_values == 0 || values != NULL, FALSE);

  tensor.n_dims = n_dims;
  tensor.dims = (int64_t *) dims;
  tensor.has_data_type = TRUE;
  tensor.data_type = MINDINSIGHT__DATA_TYPE__DT_FLOAT32;
  tensor.n_float_data = n_values;
  tensor.float_data = (float *) values;

  v.tag = (char *) tag;
  v.value_case = MINDINSIGHT__SUMMARY__VALUE__VALUE_TENSOR;
  v.tensor = &tensor;
  return write_value (self, step, wall_time, &v, error);
}

/**
 * sl_summary_writer_add_graph:
 * @graph_proto: a serialized GraphProto
 */
gboolean
sl_summary_writer_add_graph (SlSummaryWriter  *self,
                             gint64            step,
                             double            wall_time,
                             GBytes           *graph_proto,
                             GError          **error)
{
  Mindinsight__GraphProto *graph;
  Mindinsight__Event event = MINDINSIGHT__EVENT__INIT;
  gboolean ok;
  gsize len;
  const guint8 *data;

  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);
  g_return_val_if_fail (graph_proto != NULL, FALSE);

  data = g_bytes_get_data (graph_proto, &len);
  /* Unpacking recurses per nested message: the nesting is checked first. */
  graph = sl_proto_check_nesting (&mindinsight__graph_proto__descriptor, data, len,
                                  SL_SUMMARY_READER_MAX_NESTING, NULL) == SL_PROTO_NESTING_OK
            ? mindinsight__graph_proto__unpack (NULL, len, data) : NULL;
  if (graph == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The graph is not a valid GraphProto."));
      return FALSE;
    }

  event.wall_time = wall_time;
  event.has_step = TRUE;
  event.step = step;
  event.what_case = MINDINSIGHT__EVENT__WHAT_GRAPH_DEF;
  event.graph_def = graph;
  ok = write_message (self, self->records, &event.base, error);
  mindinsight__graph_proto__free_unpacked (graph, NULL);

  return ok;
}

static gboolean
ensure_lineage (SlSummaryWriter  *self,
                double            wall_time,
                GError          **error)
{
  Mindinsight__LineageEvent event = MINDINSIGHT__LINEAGE_EVENT__INIT;

  if (self->lineage_records != NULL)
    return TRUE;

  self->lineage_stream = create_stream (self->lineage_path, error);
  if (self->lineage_stream == NULL)
    return FALSE;
  self->lineage_records = sl_record_writer_new (self->lineage_stream);

  event.wall_time = wall_time;
  event.what_case = MINDINSIGHT__LINEAGE_EVENT__WHAT_VERSION;
  event.version = (char *) "MindSpore.Event:1";
  return write_message (self, self->lineage_records, &event.base, error);
}

gboolean
sl_summary_writer_add_train_lineage (SlSummaryWriter  *self,
                                     double            wall_time,
                                     const char       *optimizer,
                                     float             learning_rate,
                                     const char       *loss_function,
                                     int               epoch,
                                     int               batch_size,
                                     const char       *network,
                                     float             loss,
                                     GError          **error)
{
  Mindinsight__LineageEvent event = MINDINSIGHT__LINEAGE_EVENT__INIT;
  Mindinsight__TrainLineage train = MINDINSIGHT__TRAIN_LINEAGE__INIT;
  Mindinsight__TrainLineage__HyperParameters hp = MINDINSIGHT__TRAIN_LINEAGE__HYPER_PARAMETERS__INIT;
  Mindinsight__TrainLineage__Algorithm algorithm = MINDINSIGHT__TRAIN_LINEAGE__ALGORITHM__INIT;

  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);

  if (!ensure_lineage (self, wall_time, error))
    return FALSE;

  hp.optimizer = (char *) optimizer;
  hp.has_learning_rate = TRUE;
  hp.learning_rate = learning_rate;
  hp.loss_function = (char *) loss_function;
  hp.has_epoch = TRUE;
  hp.epoch = epoch;
  hp.has_batch_size = TRUE;
  hp.batch_size = batch_size;
  algorithm.network = (char *) network;
  algorithm.has_loss = TRUE;
  algorithm.loss = loss;
  train.hyper_parameters = &hp;
  train.algorithm = &algorithm;

  event.wall_time = wall_time;
  event.what_case = MINDINSIGHT__LINEAGE_EVENT__WHAT_TRAIN_LINEAGE;
  event.train_lineage = &train;
  return write_message (self, self->lineage_records, &event.base, error);
}

gboolean
sl_summary_writer_add_eval_lineage (SlSummaryWriter  *self,
                                    double            wall_time,
                                    const char       *metric_json,
                                    const char       *valid_dataset_path,
                                    int               valid_dataset_size,
                                    GError          **error)
{
  Mindinsight__LineageEvent event = MINDINSIGHT__LINEAGE_EVENT__INIT;
  Mindinsight__EvaluationLineage eval = MINDINSIGHT__EVALUATION_LINEAGE__INIT;
  Mindinsight__EvaluationLineage__ValidDataset dataset = MINDINSIGHT__EVALUATION_LINEAGE__VALID_DATASET__INIT;

  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);

  if (!ensure_lineage (self, wall_time, error))
    return FALSE;

  eval.metric = (char *) metric_json;
  dataset.valid_dataset_path = (char *) valid_dataset_path;
  dataset.has_valid_dataset_size = TRUE;
  dataset.valid_dataset_size = valid_dataset_size;
  eval.valid_dataset = &dataset;

  event.wall_time = wall_time;
  event.what_case = MINDINSIGHT__LINEAGE_EVENT__WHAT_EVALUATION_LINEAGE;
  event.evaluation_lineage = &eval;
  return write_message (self, self->lineage_records, &event.base, error);
}

/**
 * sl_summary_writer_add_raw:
 *
 * Frames @payload as it is, for tests and tools that build events
 * themselves.
 */
gboolean
sl_summary_writer_add_raw (SlSummaryWriter  *self,
                           gconstpointer     payload,
                           gsize             len,
                           GError          **error)
{
  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);
  g_return_val_if_fail (self->records != NULL, FALSE);

  return sl_record_writer_write (self->records, payload, len, NULL, error);
}

gboolean
sl_summary_writer_flush (SlSummaryWriter  *self,
                         GError          **error)
{
  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);

  if (self->stream != NULL && !g_output_stream_flush (self->stream, NULL, error))
    return FALSE;
  if (self->lineage_stream != NULL && !g_output_stream_flush (self->lineage_stream, NULL, error))
    return FALSE;
  return TRUE;
}

gboolean
sl_summary_writer_close (SlSummaryWriter  *self,
                         GError          **error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (SL_IS_SUMMARY_WRITER (self), FALSE);

  if (self->stream != NULL)
    ok = g_output_stream_close (self->stream, NULL, error);
  if (self->lineage_stream != NULL)
    ok = g_output_stream_close (self->lineage_stream, NULL, ok ? error : NULL) && ok;

  g_clear_object (&self->records);
  g_clear_object (&self->stream);
  g_clear_object (&self->lineage_records);
  g_clear_object (&self->lineage_stream);

  return ok;
}
