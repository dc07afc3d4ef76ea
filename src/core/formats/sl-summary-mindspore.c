/* sl-summary-mindspore.c: decoding MindSpore summary events, with a
 * fast path for events that hold only scalar values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mindspore_summary.pb-c.h"

#include "sl-summary-reader-private.h"

/* Scalar events decoded without protobuf-c: values per event. */
#define FAST_MAX_VALUES    8

static void
add_ms_histogram (SlSummaryReader                 *self,
                  SlSummaryRun                    *run,
                  const char                      *tag,
                  gint64                           step,
                  double                           wall_time,
                  const Mindinsight__Summary__Histogram *histogram)
{
  SlHistogramStats stats = { 0 };
  gsize n = histogram->n_buckets;

  g_array_set_size (self->scratch_a, n);
  g_array_set_size (self->scratch_b, n);
  g_array_set_size (self->scratch_c, n);
  for (gsize i = 0; i < n; i++)
    {
      const Mindinsight__Summary__Histogram__Bucket *bucket = histogram->buckets[i];

      g_array_index (self->scratch_a, double, i) = bucket->left;
      g_array_index (self->scratch_b, double, i) = bucket->width;
      g_array_index (self->scratch_c, double, i) = (double) bucket->count;
    }

  stats.min = histogram->has_min ? histogram->min : NAN;
  stats.max = histogram->has_max ? histogram->max : NAN;
  stats.sum = histogram->has_sum ? histogram->sum : NAN;
  stats.count = histogram->count;
  stats.nan_count = histogram->nan_count;
  stats.pos_inf_count = histogram->pos_inf_count;
  stats.neg_inf_count = histogram->neg_inf_count;

  sl_histogram_series_append (sl_summary_run_ensure_histograms (run, tag), step, wall_time, &stats,
                              n,
                              (const double *) (gpointer) self->scratch_a->data,
                              (const double *) (gpointer) self->scratch_b->data,
                              (const double *) (gpointer) self->scratch_c->data);
}

static void
add_ms_tensor (SlSummaryReader                   *self,
               SlSummaryRun                      *run,
               const char                        *tag,
               gint64                             step,
               double                             wall_time,
               const Mindinsight__TensorProto    *tensor)
{
  GArray *values = self->scratch_a;
  int dtype = tensor->has_data_type ? (int) tensor->data_type : 0;

  g_array_set_size (values, 0);
  /* MindSpore puts summary tensors of every dtype into float_data. */
  if (tensor->n_float_data > 0)
    for (gsize i = 0; i < tensor->n_float_data; i++)
      {
        double v = tensor->float_data[i];
        g_array_append_val (values, v);
      }
  else if (tensor->n_double_data > 0)
    g_array_append_vals (values, tensor->double_data, tensor->n_double_data);
  else if (tensor->n_int32_data > 0)
    for (gsize i = 0; i < tensor->n_int32_data; i++)
      {
        double v = tensor->int32_data[i];
        g_array_append_val (values, v);
      }
  else if (tensor->n_int64_data > 0)
    for (gsize i = 0; i < tensor->n_int64_data; i++)
      {
        double v = (double) tensor->int64_data[i];
        g_array_append_val (values, v);
      }
  else if (tensor->n_uint64_data > 0)
    for (gsize i = 0; i < tensor->n_uint64_data; i++)
      {
        double v = (double) tensor->uint64_data[i];
        g_array_append_val (values, v);
      }
  else if (tensor->has_raw_data)
    sl_summary_raw_to_doubles (dtype, tensor->raw_data.data, tensor->raw_data.len, values);

  sl_tensor_series_append (sl_summary_run_ensure_tensors (run, tag), step, wall_time, dtype,
                           tensor->n_dims, tensor->dims,
                           values->len, (const double *) (gpointer) values->data);
}

static guint64
read_le (const guint8 *p,
         guint         n)
{
  guint64 value = 0;

  for (guint i = 0; i < n; i++)
    value |= (guint64) p[i] << (8 * i);
  return value;
}

typedef struct {
  const guint8 *tag;
  gsize         tag_len;
  float         value;
} FastScalar;

/* Parses Summary.Value { tag 1, scalar_value 3 } and nothing else. */
static gboolean
parse_fast_value (const guint8 *p,
                  const guint8 *end,
                  FastScalar   *out)
{
  gboolean has_tag = FALSE, has_value = FALSE;

  while (p < end)
    {
      guint64 key;

      if (!sl_summary_read_varint (&p, end, &key))
        return FALSE;
      if (key == ((1 << 3) | 2))
        {
          if (!sl_summary_read_length_delimited (&p, end, &out->tag, &out->tag_len))
            return FALSE;
          has_tag = TRUE;
        }
      else if (key == ((3 << 3) | 5))
        {
          guint32 bits;

          if (end - p < 4)
            return FALSE;
          bits = read_le (p, 4);
          memcpy (&out->value, &bits, sizeof bits);
          p += 4;
          has_value = TRUE;
        }
      else
        {
          return FALSE;
        }
    }
  return has_tag && has_value;
}

static SlScalarSeries *
lookup_scalars (SlSummaryReader *self,
                SlSummaryRun    *run,
                const guint8    *tag,
                gsize            tag_len)
{
  SlSummaryTagCacheEntry *entry;
  g_autofree char *name = NULL;

  for (guint i = 0; i < TAG_CACHE_SIZE; i++)
    {
      entry = &self->tag_cache[i];
      if (entry->run == run && entry->len == tag_len && memcmp (entry->tag, tag, tag_len) == 0)
        return entry->series;
    }

  name = g_strndup ((const char *) tag, tag_len);
  entry = &self->tag_cache[self->tag_cache_next];
  entry->run = NULL;
  entry->series = sl_summary_run_ensure_scalars (run, name);
  if (tag_len <= TAG_CACHE_MAX_LEN && memchr (tag, '\0', tag_len) == NULL)
    {
      entry->run = run;
      entry->len = tag_len;
      memcpy (entry->tag, tag, tag_len);
      self->tag_cache_next = (self->tag_cache_next + 1) % TAG_CACHE_SIZE;
    }
  return entry->series;
}

/* Decodes an Event that carries only scalar values, much faster than the
 * generic unpacker. Returns FALSE, having stored nothing, for any other
 * event, which then goes through protobuf-c. */
static gboolean
decode_mindspore_scalars (SlSummaryReader *self,
                          SlSummaryRun    *run,
                          const guint8    *payload,
                          gsize            len)
{
  const guint8 *p = payload;
  const guint8 *end = payload + len;
  const guint8 *summary = NULL;
  gsize summary_len = 0;
  gboolean has_wall_time = FALSE;
  double wall_time = 0;
  gint64 step = 0;
  FastScalar values[FAST_MAX_VALUES];
  guint n_values = 0;

  while (p < end)
    {
      guint64 key;

      if (!sl_summary_read_varint (&p, end, &key))
        return FALSE;
      if (key == ((1 << 3) | 1))
        {
          guint64 bits;

          if (end - p < 8)
            return FALSE;
          bits = read_le (p, 8);
          memcpy (&wall_time, &bits, sizeof bits);
          p += 8;
          has_wall_time = TRUE;
        }
      else if (key == ((2 << 3) | 0))
        {
          guint64 value;

          if (!sl_summary_read_varint (&p, end, &value))
            return FALSE;
          step = (gint64) value;
        }
      else if (key == ((5 << 3) | 2) && summary == NULL)
        {
          if (!sl_summary_read_length_delimited (&p, end, &summary, &summary_len))
            return FALSE;
        }
      else
        {
          return FALSE;
        }
    }

  if (!has_wall_time || summary == NULL)
    return FALSE;

  p = summary;
  end = summary + summary_len;
  while (p < end)
    {
      guint64 key;
      const guint8 *value;
      gsize value_len;

      if (!sl_summary_read_varint (&p, end, &key) || key != ((1 << 3) | 2) ||
          !sl_summary_read_length_delimited (&p, end, &value, &value_len) ||
          n_values == FAST_MAX_VALUES ||
          !parse_fast_value (value, value + value_len, &values[n_values]))
        return FALSE;
      n_values++;
    }

  for (guint i = 0; i < n_values; i++)
    sl_scalar_series_append (lookup_scalars (self, run, values[i].tag, values[i].tag_len),
                             step, wall_time, values[i].value);

  return TRUE;
}

SlSummaryDecoded
sl_summary_decode_mindspore (SlSummaryReader *self,
                             SlSummaryRun    *run,
                             const guint8    *payload,
                             gsize            len)
{
  Mindinsight__Event *event;
  gint64 step;
  SlSummaryDecoded checked;

  if (decode_mindspore_scalars (self, run, payload, len))
    return SL_SUMMARY_DECODED;

  /* GraphProto, ValueProto (values, dict_val, graph) and TypeProto
   * (sequence_type) are recursive. */
  if ((checked = sl_summary_check_nesting (self, &mindinsight__event__descriptor, payload, len)) != SL_SUMMARY_DECODED)
    return checked;
  event = mindinsight__event__unpack (&self->allocator, len, payload);
  if (event == NULL)
    return SL_SUMMARY_UNDECODABLE;

  step = event->has_step ? event->step : 0;

  if (event->what_case == MINDINSIGHT__EVENT__WHAT_GRAPH_DEF && event->graph_def != NULL)
    {
      g_autoptr(GBytes) bytes = sl_summary_pack_message (&event->graph_def->base);

      sl_summary_run_add_graph (run, step, event->wall_time, bytes);
    }
  else if (event->what_case == MINDINSIGHT__EVENT__WHAT_SUMMARY && event->summary != NULL)
    {
      for (gsize i = 0; i < event->summary->n_value; i++)
        {
          const Mindinsight__Summary__Value *value = event->summary->value[i];
          const char *tag = value->tag != NULL ? value->tag : "";

          switch (value->value_case)
            {
            case MINDINSIGHT__SUMMARY__VALUE__VALUE_SCALAR_VALUE:
              sl_scalar_series_append (sl_summary_run_ensure_scalars (run, tag),
                                       step, event->wall_time, value->scalar_value);
              break;
            case MINDINSIGHT__SUMMARY__VALUE__VALUE_IMAGE:
              {
                const Mindinsight__Summary__Image *image = value->image;
                g_autoptr(GBytes) encoded = g_bytes_new (image->encoded_image.data, image->encoded_image.len);

                sl_image_series_append (sl_summary_run_ensure_images (run, tag), step, event->wall_time,
                                        image->width, image->height, image->colorspace, encoded);
              }
              break;
            case MINDINSIGHT__SUMMARY__VALUE__VALUE_HISTOGRAM:
              add_ms_histogram (self, run, tag, step, event->wall_time, value->histogram);
              break;
            case MINDINSIGHT__SUMMARY__VALUE__VALUE_TENSOR:
              add_ms_tensor (self, run, tag, step, event->wall_time, value->tensor);
              break;
            case MINDINSIGHT__SUMMARY__VALUE__VALUE_LOSS_LANDSCAPE:
              {
                g_autoptr(GBytes) bytes = sl_summary_pack_message (&value->loss_landscape->base);

                sl_summary_run_add_landscape (run, tag, step, event->wall_time, bytes);
              }
              break;
            case MINDINSIGHT__SUMMARY__VALUE__VALUE__NOT_SET:
            default:
              break;
            }
        }
    }

  return SL_SUMMARY_DECODED;
}
