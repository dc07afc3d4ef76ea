/* sl-summary-tensorboard.c: decoding TensorBoard events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mindspore_summary.pb-c.h"
#include "tensorboard_event.pb-c.h"

#include "sl-hparams-plugin.h"
#include "sl-summary-reader-private.h"

/* TensorFlow's DataType numbers to MindSpore's. */
static int
tf_dtype_to_ms (int dtype)
{
  switch (dtype)
    {
    case 1: return MINDINSIGHT__DATA_TYPE__DT_FLOAT32;
    case 2: return MINDINSIGHT__DATA_TYPE__DT_FLOAT64;
    case 3: return MINDINSIGHT__DATA_TYPE__DT_INT32;
    case 4: return MINDINSIGHT__DATA_TYPE__DT_UINT8;
    case 5: return MINDINSIGHT__DATA_TYPE__DT_INT16;
    case 6: return MINDINSIGHT__DATA_TYPE__DT_INT8;
    case 9: return MINDINSIGHT__DATA_TYPE__DT_INT64;
    case 10: return MINDINSIGHT__DATA_TYPE__DT_BOOL;
    case 17: return MINDINSIGHT__DATA_TYPE__DT_UINT16;
    case 19: return MINDINSIGHT__DATA_TYPE__DT_FLOAT16;
    case 22: return MINDINSIGHT__DATA_TYPE__DT_UINT32;
    case 23: return MINDINSIGHT__DATA_TYPE__DT_UINT64;
    default: return MINDINSIGHT__DATA_TYPE__DT_UNDEFINED;
    }
}
/* Values of a TensorBoard tensor as doubles, in self->scratch_a. */
static int
tb_tensor_values (SlSummaryReader                 *self,
                  const Tensorboard__TensorProto  *tensor)
{
  GArray *values = self->scratch_a;
  int dtype = tf_dtype_to_ms (tensor->dtype);

  g_array_set_size (values, 0);
  if (tensor->tensor_content.len > 0)
    sl_summary_raw_to_doubles (dtype, tensor->tensor_content.data, tensor->tensor_content.len, values);
  else if (tensor->n_float_val > 0)
    for (gsize i = 0; i < tensor->n_float_val; i++)
      {
        double v = tensor->float_val[i];
        g_array_append_val (values, v);
      }
  else if (tensor->n_double_val > 0)
    g_array_append_vals (values, tensor->double_val, tensor->n_double_val);
  else if (tensor->n_half_val > 0)
    for (gsize i = 0; i < tensor->n_half_val; i++)
      {
        double v = sl_summary_half_to_double (tensor->half_val[i] & 0xffff);
        g_array_append_val (values, v);
      }
  else if (tensor->n_int_val > 0)
    for (gsize i = 0; i < tensor->n_int_val; i++)
      {
        double v = tensor->int_val[i];
        g_array_append_val (values, v);
      }
  else if (tensor->n_int64_val > 0)
    for (gsize i = 0; i < tensor->n_int64_val; i++)
      {
        double v = (double) tensor->int64_val[i];
        g_array_append_val (values, v);
      }
  else if (tensor->n_bool_val > 0)
    for (gsize i = 0; i < tensor->n_bool_val; i++)
      {
        double v = tensor->bool_val[i] ? 1 : 0;
        g_array_append_val (values, v);
      }

  return dtype;
}

static void
add_tb_histogram (SlSummaryReader                     *self,
                  SlSummaryRun                        *run,
                  const char                          *tag,
                  gint64                               step,
                  double                               wall_time,
                  const Tensorboard__HistogramProto   *histo)
{
  SlHistogramStats stats = { 0 };
  gsize n = MIN (histo->n_bucket_limit, histo->n_bucket);

  g_array_set_size (self->scratch_a, n);
  g_array_set_size (self->scratch_b, n);
  g_array_set_size (self->scratch_c, n);
  /* TensorBoard stores right edges; the first bucket starts at min and
   * the last one ends at max, its limits being ±DBL_MAX. */
  for (gsize i = 0; i < n; i++)
    {
      double left = i == 0 ? histo->min : histo->bucket_limit[i - 1];
      double right = i + 1 == n ? MIN (histo->bucket_limit[i], histo->max) : histo->bucket_limit[i];

      if (i == 0)
        left = MIN (left, right);
      g_array_index (self->scratch_a, double, i) = left;
      g_array_index (self->scratch_b, double, i) = right > left ? right - left : 0;
      g_array_index (self->scratch_c, double, i) = histo->bucket[i];
    }

  stats.min = histo->min;
  stats.max = histo->max;
  stats.sum = histo->sum;
  stats.count = (gint64) histo->num;

  sl_histogram_series_append (sl_summary_run_ensure_histograms (run, tag), step, wall_time, &stats,
                              n,
                              (const double *) (gpointer) self->scratch_a->data,
                              (const double *) (gpointer) self->scratch_b->data,
                              (const double *) (gpointer) self->scratch_c->data);
}

static void
add_tb_tensor (SlSummaryReader                 *self,
               SlSummaryRun                    *run,
               const char                      *tag,
               const char                      *plugin,
               gint64                           step,
               double                           wall_time,
               const Tensorboard__TensorProto  *tensor)
{
  GArray *dims = self->scratch_dims;
  GArray *values;
  int dtype;

  /* Strings (text plugin) and other non-numeric tensors are not series. */
  if (tensor->n_string_val > 0 || tensor->dtype == 7)
    return;

  g_array_set_size (dims, 0);
  if (tensor->tensor_shape != NULL)
    for (gsize i = 0; i < tensor->tensor_shape->n_dim; i++)
      g_array_append_val (dims, tensor->tensor_shape->dim[i]->size);

  dtype = tb_tensor_values (self, tensor);
  values = self->scratch_a;

  if (dims->len == 0 && values->len == 1 &&
      (plugin == NULL || *plugin == '\0' || g_str_equal (plugin, "scalars")))
    {
      sl_scalar_series_append (sl_summary_run_ensure_scalars (run, tag), step, wall_time,
                               g_array_index (values, double, 0));
      return;
    }

  /* The histograms plugin's tensors are k × 3: left, right, count. */
  if (plugin != NULL && g_str_equal (plugin, "histograms") && dims->len == 2 &&
      g_array_index (dims, gint64, 1) == 3 && values->len % 3 == 0)
    {
      SlHistogramStats stats = { NAN, NAN, 0, 0, 0, 0, 0 };
      gsize n = values->len / 3;
      double count = 0;

      g_array_set_size (self->scratch_b, n);
      g_array_set_size (self->scratch_c, n);
      for (gsize i = 0; i < n; i++)
        {
          double left = g_array_index (values, double, 3 * i);
          double right = g_array_index (values, double, 3 * i + 1);

          g_array_index (self->scratch_b, double, i) = right - left;
          g_array_index (self->scratch_c, double, i) = g_array_index (values, double, 3 * i + 2);
          count += g_array_index (values, double, 3 * i + 2);
          /* compact the left edges to the front of values */
          g_array_index (values, double, i) = left;
        }
      if (n > 0)
        {
          stats.min = g_array_index (values, double, 0);
          stats.max = g_array_index (values, double, n - 1) + g_array_index (self->scratch_b, double, n - 1);
        }
      stats.count = (gint64) count;
      sl_histogram_series_append (sl_summary_run_ensure_histograms (run, tag), step, wall_time, &stats,
                                  n,
                                  (const double *) (gpointer) values->data,
                                  (const double *) (gpointer) self->scratch_b->data,
                                  (const double *) (gpointer) self->scratch_c->data);
      return;
    }

  sl_tensor_series_append (sl_summary_run_ensure_tensors (run, tag), step, wall_time, dtype,
                           dims->len, (const gint64 *) (gpointer) dims->data,
                           values->len, (const double *) (gpointer) values->data);
}

/* The GraphDef of a MetaGraphDef (its field 2), found by walking the top
 * level only; FALSE when it has none or the framing breaks before it. */
static gboolean
meta_graph_def_graph (const guint8 *data,
                      gsize         len,
                      const guint8 **graph,
                      gsize         *graph_len)
{
  gsize pos = 0;
  gboolean found = FALSE;

  while (pos < len)
    {
      guint64 tag = 0, value = 0;
      guint shift = 0;
      gboolean done = FALSE;

      for (int which = 0; which < 2; which++)
        {
          guint64 v = 0;

          /* Varints: the tag, then a varint value or a length. */
          for (shift = 0, done = FALSE; shift < 70 && pos < len && !done; shift += 7)
            {
              v |= (guint64) (data[pos] & 0x7f) << MIN (shift, 63);
              done = (data[pos++] & 0x80) == 0;
            }
          if (!done)
            return found;
          if (which == 0)
            tag = v;
          else
            value = v;
          if (which == 0 && (tag & 7) != 0 && (tag & 7) != 2)
            break;
        }
      switch (tag & 7)
        {
        case 0:
          break;
        case 1:
        case 5:
          if (len - pos < ((tag & 7) == 1 ? 8u : 4u))
            return found;
          pos += (tag & 7) == 1 ? 8 : 4;
          break;
        case 2:
          if (value > len - pos)
            return found;
          if ((tag >> 3) == 2)
            {
              *graph = data + pos;
              *graph_len = value;
              found = TRUE;
            }
          pos += value;
          break;
        default:
          return found;
        }
    }
  return found;
}

/* TensorBoard's schema has no recursive message (graph_def is bytes): it
 * nests six levels at most, and goes to protobuf-c unchecked. A
 * meta_graph_def's graph is kept when the run has no graph yet (TF 1's
 * FileWriter may write both for one graph). */
SlSummaryDecoded
sl_summary_decode_tensorboard (SlSummaryReader *self,
                               SlSummaryRun    *run,
                               const guint8    *payload,
                               gsize            len)
{
  Tensorboard__Event *event;

  event = tensorboard__event__unpack (&self->allocator, len, payload);
  if (event == NULL)
    return SL_SUMMARY_UNDECODABLE;

  if (event->what_case == TENSORBOARD__EVENT__WHAT_GRAPH_DEF)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (event->graph_def.data, event->graph_def.len);

      sl_summary_run_add_graph (run, event->step, event->wall_time, bytes);
    }
  else if (event->what_case == TENSORBOARD__EVENT__WHAT_META_GRAPH_DEF)
    {
      const guint8 *graph;
      gsize graph_len;

      if (sl_summary_run_get_graphs (run)->len == 0 &&
          meta_graph_def_graph (event->meta_graph_def.data, event->meta_graph_def.len, &graph, &graph_len))
        {
          g_autoptr(GBytes) bytes = g_bytes_new (graph, graph_len);

          sl_summary_run_add_graph (run, event->step, event->wall_time, bytes);
        }
    }
  else if (event->what_case == TENSORBOARD__EVENT__WHAT_SUMMARY && event->summary != NULL)
    {
      for (gsize i = 0; i < event->summary->n_value; i++)
        {
          const Tensorboard__Summary__Value *value = event->summary->value[i];
          const char *tag = value->tag != NULL && *value->tag != '\0' ? value->tag : value->node_name;
          const char *plugin = NULL;
          g_autofree char *key = NULL;

          if (tag == NULL)
            tag = "";
          key = g_strconcat (sl_summary_run_get_name (run), "\n", tag, NULL);
          if (value->metadata != NULL && value->metadata->plugin_data != NULL &&
              value->metadata->plugin_data->plugin_name != NULL &&
              *value->metadata->plugin_data->plugin_name != '\0')
            g_hash_table_replace (self->tb_plugins, g_strdup (key),
                                  g_strdup (value->metadata->plugin_data->plugin_name));
          plugin = g_hash_table_lookup (self->tb_plugins, key);

          /* HParams data rides on the metadata of an otherwise empty value. */
          if (value->metadata != NULL && value->metadata->plugin_data != NULL &&
              g_strcmp0 (value->metadata->plugin_data->plugin_name, SL_HPARAMS_PLUGIN_NAME) == 0 &&
              !sl_hparams_plugin_read (run, value->metadata->plugin_data->content.data,
                                       value->metadata->plugin_data->content.len))
            return SL_SUMMARY_UNDECODABLE;

          switch (value->value_case)
            {
            case TENSORBOARD__SUMMARY__VALUE__VALUE_SIMPLE_VALUE:
              sl_scalar_series_append (sl_summary_run_ensure_scalars (run, tag),
                                       event->step, event->wall_time, value->simple_value);
              break;
            case TENSORBOARD__SUMMARY__VALUE__VALUE_IMAGE:
              {
                const Tensorboard__Summary__Image *image = value->image;
                g_autoptr(GBytes) encoded = g_bytes_new (image->encoded_image_string.data,
                                                         image->encoded_image_string.len);

                sl_image_series_append (sl_summary_run_ensure_images (run, tag), event->step,
                                        event->wall_time, image->width, image->height,
                                        image->colorspace, encoded);
              }
              break;
            case TENSORBOARD__SUMMARY__VALUE__VALUE_HISTO:
              add_tb_histogram (self, run, tag, event->step, event->wall_time, value->histo);
              break;
            case TENSORBOARD__SUMMARY__VALUE__VALUE_TENSOR:
              add_tb_tensor (self, run, tag, plugin, event->step, event->wall_time, value->tensor);
              break;
            default:
              break;
            }
        }
    }

  return SL_SUMMARY_DECODED;
}
