/* sl-summary-reader.c
 *
 * Run discovery follows TensorBoard and MindInsight: every folder below
 * the opened one that holds summary or event files is a run, named by its
 * relative path ("." for the opened folder itself). Files of a run are
 * read in MindInsight's order (the number after "summary.", then the
 * name), each from the offset where the previous read stopped.
 *
 * Events are decoded with protobuf-c into an arena that is reset after
 * every record, so decoding allocates nothing per record once the arena
 * has grown to the size of the largest event.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-input-file.h"
#include "sl-main-thread.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "mindspore_lineage.pb-c.h"
#include "mindspore_summary.pb-c.h"
#include "tensorboard_event.pb-c.h"

#include "sl-hparams-plugin.h"
#include "sl-proto-nesting.h"
#include "sl-record-reader.h"
#include "sl-record-writer.h"
#include "sl-summary-reader.h"

#define ARENA_BLOCK_SIZE   (256 * 1024)
#define MAX_WALK_DEPTH     32
/* Beyond this many undecodable records per file, only the count grows. */
#define MAX_DECODE_PROBLEMS 20
/* Scalar events decoded without protobuf-c: values per event, and the
 * recently used tags remembered to skip the hash lookup. */
#define FAST_MAX_VALUES    8
#define TAG_CACHE_SIZE     8
#define TAG_CACHE_MAX_LEN  64

typedef struct {
  SlSummaryRun   *run;
  SlScalarSeries *series;
  gsize           len;
  char            tag[TAG_CACHE_MAX_LEN];
} TagCacheEntry;

/* What became of a record's payload. */
typedef enum {
  DECODED,
  UNDECODABLE,
  TOO_DEEP,
} Decoded;

typedef struct {
  guint8    *block;
  gsize      used;
  GPtrArray *extra;
} Arena;

struct _SlSummaryReader
{
  GObject             parent_instance;
  char               *path;
  GPtrArray          *runs;
  Arena               arena;
  ProtobufCAllocator  allocator;
  GArray             *scratch_a;
  GArray             *scratch_b;
  GArray             *scratch_c;
  GArray             *scratch_dims;
  /* TensorBoard writes a tag's plugin only with its first value. */
  GHashTable         *tb_plugins;
  TagCacheEntry       tag_cache[TAG_CACHE_SIZE];
  guint               tag_cache_next;
  /* Where, in the payload, the last TOO_DEEP record went too deep. */
  gsize               deep_at;
};

G_DEFINE_FINAL_TYPE (SlSummaryReader, sl_summary_reader, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ */
/* Arena allocator for protobuf-c                                      */
/* ------------------------------------------------------------------ */

static void *
arena_alloc (void   *data,
             size_t  size)
{
  Arena *arena = data;
  gpointer mem;

  size = (size + 15) & ~(gsize) 15;
  if (size == 0)
    size = 16;

  if (size > ARENA_BLOCK_SIZE - arena->used)
    {
      mem = g_try_malloc (size);
      if (mem != NULL)
        g_ptr_array_add (arena->extra, mem);
      return mem;
    }

  mem = arena->block + arena->used;
  arena->used += size;
  return mem;
}

static void
arena_free (void *data,
            void *pointer)
{
  /* Everything goes at once in arena_reset(). */
}

static void
arena_reset (Arena *arena)
{
  arena->used = 0;
  if (arena->extra->len > 0)
    g_ptr_array_set_size (arena->extra, 0);
}

/* ------------------------------------------------------------------ */

static void
sl_summary_reader_finalize (GObject *object)
{
  SlSummaryReader *self = (SlSummaryReader *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->arena.block, g_free);
  g_clear_pointer (&self->arena.extra, g_ptr_array_unref);
  g_clear_pointer (&self->scratch_a, g_array_unref);
  g_clear_pointer (&self->scratch_b, g_array_unref);
  g_clear_pointer (&self->scratch_c, g_array_unref);
  g_clear_pointer (&self->scratch_dims, g_array_unref);
  g_clear_pointer (&self->tb_plugins, g_hash_table_unref);

  G_OBJECT_CLASS (sl_summary_reader_parent_class)->finalize (object);
}

static void
sl_summary_reader_class_init (SlSummaryReaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_summary_reader_finalize;
}

static void
sl_summary_reader_init (SlSummaryReader *self)
{
  self->runs = g_ptr_array_new_with_free_func (g_object_unref);
  self->arena.block = g_malloc (ARENA_BLOCK_SIZE);
  self->arena.extra = g_ptr_array_new_with_free_func (g_free);
  self->allocator.alloc = arena_alloc;
  self->allocator.free = arena_free;
  self->allocator.allocator_data = &self->arena;
  self->scratch_a = g_array_new (FALSE, FALSE, sizeof (double));
  self->scratch_b = g_array_new (FALSE, FALSE, sizeof (double));
  self->scratch_c = g_array_new (FALSE, FALSE, sizeof (double));
  self->scratch_dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->tb_plugins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/**
 * sl_summary_reader_new:
 * @path: a folder holding runs, or one summary or event file
 *
 * Returns: (transfer full): a reader; nothing is read before
 *   sl_summary_reader_update()
 */
SlSummaryReader *
sl_summary_reader_new (const char *path)
{
  SlSummaryReader *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_SUMMARY_READER, NULL);
  self->path = g_strdup (path);

  return self;
}

const char *
sl_summary_reader_get_path (SlSummaryReader *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), NULL);
  return self->path;
}

/**
 * sl_summary_reader_get_runs:
 *
 * Returns: (transfer none) (element-type SlSummaryRun): the runs, sorted
 *   by name
 */
GPtrArray *
sl_summary_reader_get_runs (SlSummaryReader *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), NULL);
  return self->runs;
}

/**
 * sl_summary_reader_lookup_run:
 *
 * Returns: (transfer none) (nullable): the run called @name
 */
SlSummaryRun *
sl_summary_reader_lookup_run (SlSummaryReader *self,
                              const char      *name)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSummaryRun *run = g_ptr_array_index (self->runs, i);

      if (g_str_equal (sl_summary_run_get_name (run), name))
        return run;
    }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* File names                                                          */
/* ------------------------------------------------------------------ */

/**
 * sl_summary_file_name_get_kind:
 * @kind: (out) (optional):
 * @number: (out) (optional): the number after "summary." (MindInsight's
 *   order), or 0
 *
 * MindInsight's rule: any name matching summary\.(\d+) is a summary file;
 * TensorBoard's: a name starting with events.out.tfevents.
 *
 * Returns: whether @name is a summary, lineage, explain or event file
 */
gboolean
sl_summary_file_name_get_kind (const char        *name,
                               SlSummaryFileKind *kind,
                               guint64           *number)
{
  SlSummaryFileKind found;
  guint64 value = 0;
  gboolean matched = FALSE;

  g_return_val_if_fail (name != NULL, FALSE);

  for (const char *p = strstr (name, "summary."); p != NULL; p = strstr (p + 1, "summary."))
    {
      const char *digits = p + strlen ("summary.");

      if (g_ascii_isdigit (*digits))
        {
          matched = TRUE;
          for (; g_ascii_isdigit (*digits); digits++)
            value = value > G_MAXUINT64 / 10 ? G_MAXUINT64 : value * 10 + (*digits - '0');
          break;
        }
    }

  if (g_str_has_prefix (name, "events.out.tfevents."))
    found = SL_SUMMARY_FILE_TENSORBOARD;
  else if (!matched)
    return FALSE;
  else if (g_str_has_suffix (name, "_lineage"))
    found = SL_SUMMARY_FILE_LINEAGE;
  else if (g_str_has_suffix (name, "_explain"))
    found = SL_SUMMARY_FILE_EXPLAIN;
  else
    found = SL_SUMMARY_FILE_MINDSPORE;

  if (kind != NULL)
    *kind = found;
  if (number != NULL)
    *number = value;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Decoding                                                            */
/* ------------------------------------------------------------------ */

static double
half_to_double (guint16 h)
{
  int exponent = (h >> 10) & 0x1f;
  int mantissa = h & 0x3ff;
  double value;

  if (exponent == 0)
    value = ldexp (mantissa, -24);
  else if (exponent == 31)
    value = mantissa == 0 ? INFINITY : NAN;
  else
    value = ldexp (mantissa + 1024, exponent - 25);

  return (h & 0x8000) ? -value : value;
}

/* Converts little-endian raw tensor bytes of a MindSpore DataType. */
static gboolean
raw_to_doubles (int           dtype,
                const guint8 *data,
                gsize         len,
                GArray       *out)
{
  gsize width;

  switch (dtype)
    {
    case MINDINSIGHT__DATA_TYPE__DT_BOOL:
    case MINDINSIGHT__DATA_TYPE__DT_INT8:
    case MINDINSIGHT__DATA_TYPE__DT_UINT8:
      width = 1;
      break;
    case MINDINSIGHT__DATA_TYPE__DT_INT16:
    case MINDINSIGHT__DATA_TYPE__DT_UINT16:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT16:
      width = 2;
      break;
    case MINDINSIGHT__DATA_TYPE__DT_INT32:
    case MINDINSIGHT__DATA_TYPE__DT_UINT32:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT32:
      width = 4;
      break;
    case MINDINSIGHT__DATA_TYPE__DT_INT64:
    case MINDINSIGHT__DATA_TYPE__DT_UINT64:
    case MINDINSIGHT__DATA_TYPE__DT_FLOAT64:
      width = 8;
      break;
    default:
      return FALSE;
    }

  for (gsize i = 0; i + width <= len; i += width)
    {
      guint64 bits = 0;
      double value;

      for (gsize b = 0; b < width; b++)
        bits |= (guint64) data[i + b] << (8 * b);

      switch (dtype)
        {
        case MINDINSIGHT__DATA_TYPE__DT_BOOL:
        case MINDINSIGHT__DATA_TYPE__DT_UINT8:
        case MINDINSIGHT__DATA_TYPE__DT_UINT16:
        case MINDINSIGHT__DATA_TYPE__DT_UINT32:
        case MINDINSIGHT__DATA_TYPE__DT_UINT64:
          value = (double) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_INT8:
          value = (gint8) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_INT16:
          value = (gint16) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_INT32:
          value = (gint32) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_INT64:
          value = (double) (gint64) bits;
          break;
        case MINDINSIGHT__DATA_TYPE__DT_FLOAT16:
          value = half_to_double (bits);
          break;
        case MINDINSIGHT__DATA_TYPE__DT_FLOAT32:
          {
            guint32 u = bits;
            float f;

            memcpy (&f, &u, sizeof f);
            value = f;
          }
          break;
        case MINDINSIGHT__DATA_TYPE__DT_FLOAT64:
        default:
          memcpy (&value, &bits, sizeof value);
          break;
        }
      g_array_append_val (out, value);
    }

  return TRUE;
}

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

static GBytes *
pack_message (const ProtobufCMessage *message)
{
  gsize len = protobuf_c_message_get_packed_size (message);
  guint8 *data = g_malloc (MAX (len, 1));

  protobuf_c_message_pack (message, data);
  return g_bytes_new_take (data, len);
}

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
    raw_to_doubles (dtype, tensor->raw_data.data, tensor->raw_data.len, values);

  sl_tensor_series_append (sl_summary_run_ensure_tensors (run, tag), step, wall_time, dtype,
                           tensor->n_dims, tensor->dims,
                           values->len, (const double *) (gpointer) values->data);
}

/* ------------------------------------------------------------------ */
/* The hot path: events that hold only scalar values                   */
/* ------------------------------------------------------------------ */

static gboolean
read_varint (const guint8 **p,
             const guint8  *end,
             guint64       *value)
{
  guint64 result = 0;

  for (guint shift = 0; shift < 64 && *p < end; shift += 7)
    {
      guint8 byte = *(*p)++;

      result |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = result;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
read_length_delimited (const guint8 **p,
                       const guint8  *end,
                       const guint8 **data,
                       gsize         *len)
{
  guint64 n;

  if (!read_varint (p, end, &n) || n > (guint64) (end - *p))
    return FALSE;
  *data = *p;
  *len = n;
  *p += n;
  return TRUE;
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

      if (!read_varint (&p, end, &key))
        return FALSE;
      if (key == ((1 << 3) | 2))
        {
          if (!read_length_delimited (&p, end, &out->tag, &out->tag_len))
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
  TagCacheEntry *entry;
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

      if (!read_varint (&p, end, &key))
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

          if (!read_varint (&p, end, &value))
            return FALSE;
          step = (gint64) value;
        }
      else if (key == ((5 << 3) | 2) && summary == NULL)
        {
          if (!read_length_delimited (&p, end, &summary, &summary_len))
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

      if (!read_varint (&p, end, &key) || key != ((1 << 3) | 2) ||
          !read_length_delimited (&p, end, &value, &value_len) ||
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

/* Whether protobuf-c may unpack @payload as @descriptor: its nesting is
 * checked first, without recursion. */
static Decoded
check_nesting (SlSummaryReader                  *self,
               const ProtobufCMessageDescriptor *descriptor,
               const guint8                     *payload,
               gsize                             len)
{
  switch (sl_proto_check_nesting (descriptor, payload, len, SL_SUMMARY_READER_MAX_NESTING, &self->deep_at))
    {
    case SL_PROTO_NESTING_OK:
      return DECODED;
    case SL_PROTO_NESTING_TOO_DEEP:
      return TOO_DEEP;
    case SL_PROTO_NESTING_MALFORMED:
    default:
      return UNDECODABLE;
    }
}

static Decoded
decode_mindspore (SlSummaryReader *self,
                  SlSummaryRun    *run,
                  const guint8    *payload,
                  gsize            len)
{
  Mindinsight__Event *event;
  gint64 step;
  Decoded checked;

  if (decode_mindspore_scalars (self, run, payload, len))
    return DECODED;

  /* GraphProto, ValueProto (values, dict_val, graph) and TypeProto
   * (sequence_type) are recursive. */
  if ((checked = check_nesting (self, &mindinsight__event__descriptor, payload, len)) != DECODED)
    return checked;
  event = mindinsight__event__unpack (&self->allocator, len, payload);
  if (event == NULL)
    return UNDECODABLE;

  step = event->has_step ? event->step : 0;

  if (event->what_case == MINDINSIGHT__EVENT__WHAT_GRAPH_DEF && event->graph_def != NULL)
    {
      g_autoptr(GBytes) bytes = pack_message (&event->graph_def->base);

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
                g_autoptr(GBytes) bytes = pack_message (&value->loss_landscape->base);

                sl_summary_run_add_landscape (run, tag, step, event->wall_time, bytes);
              }
              break;
            case MINDINSIGHT__SUMMARY__VALUE__VALUE__NOT_SET:
            default:
              break;
            }
        }
    }

  return DECODED;
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
    raw_to_doubles (dtype, tensor->tensor_content.data, tensor->tensor_content.len, values);
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
        double v = half_to_double (tensor->half_val[i] & 0xffff);
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
static Decoded
decode_tensorboard (SlSummaryReader *self,
                    SlSummaryRun    *run,
                    const guint8    *payload,
                    gsize            len)
{
  Tensorboard__Event *event;

  event = tensorboard__event__unpack (&self->allocator, len, payload);
  if (event == NULL)
    return UNDECODABLE;

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
            return UNDECODABLE;

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

  return DECODED;
}

static void
set_lineage_string (SlSummaryRun     *run,
                    SlLineageSection  section,
                    const char       *key,
                    const char       *value)
{
  if (value != NULL)
    sl_summary_run_set_lineage (run, section, key, value);
}

static void
set_lineage_number (SlSummaryRun     *run,
                    SlLineageSection  section,
                    const char       *key,
                    gboolean          has_value,
                    double            value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (has_value)
    sl_summary_run_set_lineage (run, section, key, g_ascii_dtostr (buf, sizeof buf, value));
}

/* The shortest text that reads back as the same float: 0.001f prints as
 * "0.001", not as its double expansion. */
static void
set_lineage_float (SlSummaryRun     *run,
                   SlLineageSection  section,
                   const char       *key,
                   gboolean          has_value,
                   float             value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!has_value)
    return;

  for (int digits = 6; digits <= 9; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if ((float) g_ascii_strtod (buf, NULL) == value)
        break;
    }
  sl_summary_run_set_lineage (run, section, key, buf);
}

static void
add_user_info (SlSummaryRun                      *run,
               const Mindinsight__UserDefinedInfo *info,
               guint                              depth)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* Nesting is bounded by the record size already; the depth guard keeps
   * the stack small for hostile input anyway. */
  if (depth > 16)
    return;

  for (gsize i = 0; i < info->n_map_str; i++)
    if (info->map_str[i]->key != NULL)
      set_lineage_string (run, SL_LINEAGE_USER, info->map_str[i]->key, info->map_str[i]->value);
  for (gsize i = 0; i < info->n_map_int32; i++)
    if (info->map_int32[i]->key != NULL)
      set_lineage_number (run, SL_LINEAGE_USER, info->map_int32[i]->key, TRUE, info->map_int32[i]->value);
  for (gsize i = 0; i < info->n_map_double; i++)
    if (info->map_double[i]->key != NULL)
      sl_summary_run_set_lineage (run, SL_LINEAGE_USER, info->map_double[i]->key,
                                  g_ascii_dtostr (buf, sizeof buf, info->map_double[i]->value));
  for (gsize i = 0; i < info->n_user_info; i++)
    add_user_info (run, info->user_info[i], depth + 1);
}

/* The top level of a LineageEvent, read by hand. When the event is a
 * dataset graph, its bytes are stored as they are, for the iterative
 * dataset graph decoder: protobuf-c would need a stack frame per level of
 * a graph that may nest as deep as it has operations, and then packing
 * would need them again. Several occurrences of the field are one merged
 * message, as protobuf has it; another member of the oneof after them
 * replaces them. Returns UNDECODABLE for bytes protobuf-c would refuse
 * at this level, DECODED with *@graph set for a dataset graph, and
 * DECODED with *@graph %NULL for any other event. */
static Decoded
scan_lineage (const guint8  *payload,
              gsize          len,
              GBytes       **graph)
{
  g_autoptr(GByteArray) merged = NULL;
  gsize graph_start = 0, graph_len = 0;
  guint n_graph_fields = 0;
  guint last_case = 0;
  gboolean has_wall_time = FALSE;
  const guint8 *p = payload;
  const guint8 *end = payload + len;

  *graph = NULL;
  while (p < end)
    {
      guint64 key, value;
      const guint8 *field;
      gsize field_len;
      guint number, wire;

      if (!read_varint (&p, end, &key) || (key >> 3) == 0 || (key >> 3) > G_MAXUINT32)
        return UNDECODABLE;
      number = (guint) (key >> 3);
      wire = key & 7;
      if ((number == 1 && wire != 1) || (number == 2 && wire != 0) ||
          ((number == 3 || number == 6 || number == 7 || number == 9 || number == 10) && wire != 2))
        return UNDECODABLE;

      switch (wire)
        {
        case 0:
          if (!read_varint (&p, end, &value))
            return UNDECODABLE;
          break;
        case 1:
          if (end - p < 8)
            return UNDECODABLE;
          p += 8;
          has_wall_time |= number == 1;
          break;
        case 5:
          if (end - p < 4)
            return UNDECODABLE;
          p += 4;
          break;
        case 2:
          if (!read_length_delimited (&p, end, &field, &field_len))
            return UNDECODABLE;
          if (number == 9)
            {
              if (last_case != 9)
                {
                  n_graph_fields = 0;
                  g_clear_pointer (&merged, g_byte_array_unref);
                }
              if (n_graph_fields++ == 0)
                {
                  graph_start = field - payload;
                  graph_len = field_len;
                }
              else
                {
                  if (merged == NULL)
                    {
                      merged = g_byte_array_sized_new (graph_len + field_len);
                      g_byte_array_append (merged, payload + graph_start, graph_len);
                    }
                  g_byte_array_append (merged, field, field_len);
                }
            }
          if (number == 3 || number == 6 || number == 7 || number == 9 || number == 10)
            last_case = number;
          break;
        default:
          return UNDECODABLE;
        }
    }

  if (!has_wall_time)
    return UNDECODABLE;
  if (last_case == 9)
    *graph = merged != NULL ? g_byte_array_free_to_bytes (g_steal_pointer (&merged))
                            : g_bytes_new (payload + graph_start, graph_len);
  return DECODED;
}

static Decoded
decode_lineage (SlSummaryReader *self,
                SlSummaryRun    *run,
                const guint8    *payload,
                gsize            len)
{
  Mindinsight__LineageEvent *event;
  g_autoptr(GBytes) graph = NULL;
  Decoded checked;

  if (scan_lineage (payload, len, &graph) != DECODED)
    return UNDECODABLE;
  if (graph != NULL)
    {
      sl_summary_run_set_dataset_graph (run, graph);
      return DECODED;
    }

  /* UserDefinedInfo nests (user_info), and so may a dataset graph that
   * another member of the oneof replaced. */
  if ((checked = check_nesting (self, &mindinsight__lineage_event__descriptor, payload, len)) != DECODED)
    return checked;
  event = mindinsight__lineage_event__unpack (&self->allocator, len, payload);
  if (event == NULL)
    return UNDECODABLE;

  switch (event->what_case)
    {
    case MINDINSIGHT__LINEAGE_EVENT__WHAT_TRAIN_LINEAGE:
      {
        const Mindinsight__TrainLineage *train = event->train_lineage;

        if (train->hyper_parameters != NULL)
          {
            const Mindinsight__TrainLineage__HyperParameters *hp = train->hyper_parameters;

            set_lineage_string (run, SL_LINEAGE_TRAIN, "optimizer", hp->optimizer);
            set_lineage_float (run, SL_LINEAGE_TRAIN, "learning_rate", hp->has_learning_rate, hp->learning_rate);
            set_lineage_string (run, SL_LINEAGE_TRAIN, "loss_function", hp->loss_function);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "epoch", hp->has_epoch, hp->epoch);
            set_lineage_string (run, SL_LINEAGE_TRAIN, "parallel_mode", hp->parallel_mode);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "device_num", hp->has_device_num, hp->device_num);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "batch_size", hp->has_batch_size, hp->batch_size);
          }
        if (train->train_dataset != NULL)
          {
            set_lineage_string (run, SL_LINEAGE_TRAIN, "train_dataset_path",
                                train->train_dataset->train_dataset_path);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "train_dataset_size",
                                train->train_dataset->has_train_dataset_size,
                                train->train_dataset->train_dataset_size);
          }
        if (train->algorithm != NULL)
          {
            set_lineage_string (run, SL_LINEAGE_TRAIN, "network", train->algorithm->network);
            set_lineage_float (run, SL_LINEAGE_TRAIN, "loss", train->algorithm->has_loss, train->algorithm->loss);
          }
        if (train->model != NULL)
          {
            set_lineage_string (run, SL_LINEAGE_TRAIN, "model_path", train->model->path);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "model_size", train->model->has_size,
                                (double) train->model->size);
          }
      }
      break;
    case MINDINSIGHT__LINEAGE_EVENT__WHAT_EVALUATION_LINEAGE:
      {
        const Mindinsight__EvaluationLineage *eval = event->evaluation_lineage;

        set_lineage_string (run, SL_LINEAGE_EVAL, "metric", eval->metric);
        if (eval->valid_dataset != NULL)
          {
            set_lineage_string (run, SL_LINEAGE_EVAL, "valid_dataset_path",
                                eval->valid_dataset->valid_dataset_path);
            set_lineage_number (run, SL_LINEAGE_EVAL, "valid_dataset_size",
                                eval->valid_dataset->has_valid_dataset_size,
                                eval->valid_dataset->valid_dataset_size);
          }
      }
      break;
    case MINDINSIGHT__LINEAGE_EVENT__WHAT_USER_DEFINED_INFO:
      add_user_info (run, event->user_defined_info, 0);
      break;
    case MINDINSIGHT__LINEAGE_EVENT__WHAT_DATASET_GRAPH:   /* taken by scan_lineage() */
    default:
      break;
    }

  return DECODED;
}

/* ------------------------------------------------------------------ */
/* Reading files                                                       */
/* ------------------------------------------------------------------ */

static void
add_problem (SlSummaryRun  *run,
             SlSeverity     severity,
             SlSummaryFile *file,
             gint64         offset,
             const char    *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Summary reader"), file->path, offset, message);

  sl_summary_run_add_problem (run, problem);
}

/**
 * sl_summary_reader_read_file:
 * @file: a file of @run
 *
 * Reads @file from where the last read stopped and decodes what is new
 * into @run. Damage is counted in @file and reported as problems of @run.
 *
 * Returns: %FALSE only when the file cannot be opened or read
 */
gboolean
sl_summary_reader_read_file (SlSummaryReader  *self,
                             SlSummaryRun     *run,
                             SlSummaryFile    *file,
                             GCancellable     *cancellable,
                             GError          **error)
{
  g_autoptr(GFile) gfile = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(SlRecordReader) reader = NULL;
  guint64 size, previous_size;
  gboolean first_read;
  SlRecordStatus status;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), FALSE);
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (run), FALSE);
  g_return_val_if_fail (file != NULL, FALSE);

  gfile = g_file_new_for_path (file->path);
  stream = sl_input_file_read (gfile, cancellable, error);
  if (stream == NULL)
    return FALSE;
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, error);
  if (info == NULL)
    return FALSE;

  size = g_file_info_get_size (info);
  previous_size = file->size;
  first_read = file->last_update == 0;
  file->growing = !first_read && size != previous_size;
  file->size = size;
  file->last_update = g_get_monotonic_time ();

  if (file->stopped || file->kind == SL_SUMMARY_FILE_EXPLAIN)
    return TRUE;

  if (size < file->offset)
    {
      add_problem (run, SL_SEVERITY_ERROR, file, size,
                   _("The file became shorter than what was already read: it was replaced, and is not read further."));
      file->stopped = TRUE;
      return TRUE;
    }

  if (size == file->offset)
    {
      file->tail_bytes = 0;
      return TRUE;
    }

  if (file->offset > 0 &&
      !g_seekable_seek (G_SEEKABLE (stream), file->offset, G_SEEK_SET, cancellable, error))
    return FALSE;

  reader = sl_record_reader_new (G_INPUT_STREAM (stream), file->path, file->offset);
  for (;;)
    {
      const guint8 *payload;
      gsize len;
      Decoded decoded;

      status = sl_record_reader_next (reader, &payload, &len, cancellable, error);
      if (status == SL_RECORD_STATUS_ERROR)
        break;
      if (status == SL_RECORD_STATUS_END)
        break;
      if (status == SL_RECORD_STATUS_BAD_PAYLOAD || status == SL_RECORD_STATUS_STOPPED)
        {
          sl_summary_run_add_problem (run, sl_record_reader_get_problem (reader));
          if (status == SL_RECORD_STATUS_STOPPED)
            {
              file->stopped = TRUE;
              break;
            }
          continue;
        }

      switch (file->kind)
        {
        case SL_SUMMARY_FILE_LINEAGE:
          decoded = decode_lineage (self, run, payload, len);
          break;
        case SL_SUMMARY_FILE_TENSORBOARD:
          decoded = decode_tensorboard (self, run, payload, len);
          break;
        case SL_SUMMARY_FILE_MINDSPORE:
        case SL_SUMMARY_FILE_EXPLAIN:
        default:
          decoded = decode_mindspore (self, run, payload, len);
          break;
        }
      arena_reset (&self->arena);

      if (decoded != DECODED)
        {
          if (file->n_undecodable < MAX_DECODE_PROBLEMS)
            {
              guint64 offset = sl_record_reader_get_record_offset (reader);
              g_autofree char *message = NULL;

              if (decoded == TOO_DEEP)
                /* Translators: the first %llu is where the record starts, the second where,
                 * in the file, its nesting passes the limit of %u levels */
                message = g_strdup_printf (_("The record at byte %llu nests messages more than %u levels deep (at byte %llu): it is skipped."),
                                           (unsigned long long) offset, SL_SUMMARY_READER_MAX_NESTING,
                                           (unsigned long long) (offset + SL_RECORD_HEADER_SIZE + self->deep_at));
              else
                message = g_strdup_printf (_("The record at byte %llu has intact checksums but is not a valid event: it is skipped."),
                                           (unsigned long long) offset);
              add_problem (run, SL_SEVERITY_WARNING, file, offset, message);
            }
          file->n_undecodable++;
        }
    }

  file->offset = sl_record_reader_get_offset (reader);
  file->n_records += sl_record_reader_get_n_records (reader);
  file->n_bad += sl_record_reader_get_n_bad (reader);
  file->tail_bytes = status == SL_RECORD_STATUS_END ? sl_record_reader_get_tail_bytes (reader) : 0;

  /* A partial record is normal while training writes the file; only a
   * file that stopped growing with one is damaged. */
  if (file->tail_bytes > 0 && !first_read && size == previous_size && !file->tail_reported)
    {
      g_autofree char *message =
        g_strdup_printf (_("The file ends in an incomplete record of %llu bytes and has stopped growing."),
                         (unsigned long long) file->tail_bytes);

      add_problem (run, SL_SEVERITY_WARNING, file, file->offset, message);
      file->tail_reported = TRUE;
    }

  return status != SL_RECORD_STATUS_ERROR;
}

/* ------------------------------------------------------------------ */
/* Discovery                                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  char              *path;
  char              *name;
  SlSummaryFileKind  kind;
  guint64            number;
} FoundFile;

static void
found_file_clear (FoundFile *found)
{
  g_free (found->path);
  g_free (found->name);
}

static int
compare_found (gconstpointer a,
               gconstpointer b)
{
  const FoundFile *fa = a;
  const FoundFile *fb = b;

  if (fa->number != fb->number)
    return fa->number < fb->number ? -1 : 1;
  return strcmp (fa->name, fb->name);
}

static int
compare_runs (gconstpointer a,
              gconstpointer b)
{
  SlSummaryRun *ra = *(SlSummaryRun **) a;
  SlSummaryRun *rb = *(SlSummaryRun **) b;

  return strcmp (sl_summary_run_get_name (ra), sl_summary_run_get_name (rb));
}

static SlSummaryRun *
ensure_run (SlSummaryReader *self,
            const char      *name,
            const char      *path)
{
  SlSummaryRun *run = sl_summary_reader_lookup_run (self, name);

  if (run == NULL)
    {
      run = sl_summary_run_new (name, path);
      g_ptr_array_add (self->runs, run);
    }
  return run;
}

static void
add_found_files (SlSummaryReader *self,
                 const char      *name,
                 const char      *path,
                 GArray          *found)
{
  SlSummaryRun *run;

  if (found->len == 0)
    return;

  g_array_sort (found, compare_found);
  run = ensure_run (self, name, path);
  for (guint i = 0; i < found->len; i++)
    {
      FoundFile *f = &g_array_index (found, FoundFile, i);

      sl_summary_run_ensure_file (run, f->path, f->kind);
    }
}

static gboolean
walk_folder (SlSummaryReader  *self,
             GFile            *folder,
             const char       *name,
             guint             depth,
             GCancellable     *cancellable,
             GError          **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(GPtrArray) children = NULL;
  g_autofree char *path = g_file_get_path (folder);
  g_autoptr(GError) local_error = NULL;

  SL_ASSERT_OFF_MAIN_THREAD ();
  enumerator = g_file_enumerate_children (folder,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                          cancellable, &local_error);
  if (enumerator == NULL)
    {
      /* An unreadable folder below the opened one is skipped, not fatal. */
      if (depth == 0)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      return TRUE;
    }

  found = g_array_new (FALSE, FALSE, sizeof (FoundFile));
  g_array_set_clear_func (found, (GDestroyNotify) found_file_clear);
  children = g_ptr_array_new_with_free_func (g_free);

  for (;;)
    {
      GFileInfo *info;
      const char *child_name;

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, cancellable, error))
        return FALSE;
      if (info == NULL)
        break;

      child_name = g_file_info_get_name (info);
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          g_ptr_array_add (children, g_strdup (child_name));
        }
      else if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR)
        {
          FoundFile f = { 0 };

          if (sl_summary_file_name_get_kind (child_name, &f.kind, &f.number))
            {
              f.name = g_strdup (child_name);
              f.path = g_build_filename (path, child_name, NULL);
              g_array_append_val (found, f);
            }
        }
    }

  add_found_files (self, name, path, found);

  if (depth >= MAX_WALK_DEPTH)
    return TRUE;

  for (guint i = 0; i < children->len; i++)
    {
      const char *child_name = g_ptr_array_index (children, i);
      g_autoptr(GFile) child = g_file_get_child (folder, child_name);
      g_autofree char *child_run = depth == 0 ? g_strdup (child_name)
                                              : g_build_filename (name, child_name, NULL);

      if (!walk_folder (self, child, child_run, depth + 1, cancellable, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
discover (SlSummaryReader  *self,
          GCancellable     *cancellable,
          GError          **error)
{
  g_autoptr(GFile) root = g_file_new_for_path (self->path);
  GFileType type = g_file_query_file_type (root, G_FILE_QUERY_INFO_NONE, cancellable);

  if (type == G_FILE_TYPE_DIRECTORY)
    {
      if (!walk_folder (self, root, ".", 0, cancellable, error))
        return FALSE;
    }
  else if (type == G_FILE_TYPE_REGULAR)
    {
      /* One file opened on its own is a run of its own, whatever its name. */
      g_autofree char *basename = g_file_get_basename (root);
      g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (FoundFile));
      FoundFile f = { 0 };

      g_array_set_clear_func (found, (GDestroyNotify) found_file_clear);
      if (!sl_summary_file_name_get_kind (basename, &f.kind, &f.number))
        f.kind = SL_SUMMARY_FILE_MINDSPORE;
      f.name = g_strdup (basename);
      f.path = g_strdup (self->path);
      g_array_append_val (found, f);
      add_found_files (self, ".", self->path, found);
    }
  else if (sl_input_file_check (self->path, error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("“%s” does not exist"), self->path);
      return FALSE;
    }
  else
    return FALSE;  /* a FIFO, a socket, a device */

  g_ptr_array_sort (self->runs, compare_runs);
  return TRUE;
}

/**
 * sl_summary_reader_update:
 *
 * Finds runs and files that are new since the last update and reads what
 * every file gained. Runs in the calling thread; see
 * sl_summary_reader_update_async() for a worker.
 *
 * Returns: %FALSE when the opened path cannot be read
 */
gboolean
sl_summary_reader_update (SlSummaryReader  *self,
                          GCancellable     *cancellable,
                          GError          **error)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), FALSE);

  if (!discover (self, cancellable, error))
    return FALSE;

  for (guint i = 0; i < self->runs->len; i++)
    {
      SlSummaryRun *run = g_ptr_array_index (self->runs, i);

      for (guint j = 0; j < sl_summary_run_get_n_files (run); j++)
        {
          SlSummaryFile *file = sl_summary_run_get_file (run, j);
          g_autoptr(GError) file_error = NULL;

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;

          if (!sl_summary_reader_read_file (self, run, file, cancellable, &file_error))
            {
              if (g_error_matches (file_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_propagate_error (error, g_steal_pointer (&file_error));
                  return FALSE;
                }
              add_problem (run, SL_SEVERITY_ERROR, file, -1, file_error->message);
            }
        }
    }

  return TRUE;
}

static void
update_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;

  if (sl_summary_reader_update (source_object, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * sl_summary_reader_update_async:
 *
 * Runs sl_summary_reader_update() in a worker thread. The reader and its
 * runs must not be used until @callback runs.
 */
void
sl_summary_reader_update_async (SlSummaryReader     *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_SUMMARY_READER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_summary_reader_update_async);
  g_task_run_in_thread (task, update_thread);
}

gboolean
sl_summary_reader_update_finish (SlSummaryReader  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Following growing files                                             */
/* ------------------------------------------------------------------ */

/* A reader over the same path that continues where @self stopped: every
 * run and file with its reading state, no points. */
static SlSummaryReader *
new_continuation (SlSummaryReader *self)
{
  SlSummaryReader *copy = sl_summary_reader_new (self->path);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < self->runs->len; i++)
    g_ptr_array_add (copy->runs, sl_summary_run_dup_reading_state (g_ptr_array_index (self->runs, i)));

  g_hash_table_iter_init (&iter, self->tb_plugins);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy->tb_plugins, g_strdup (key), g_strdup (value));

  return copy;
}

static void
follow_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;

  if (sl_summary_reader_update (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * sl_summary_reader_follow_async:
 *
 * Like sl_summary_reader_update_async(), but the worker stats, reads and
 * decodes into a copy of the reading state, never into the runs of @self:
 * views may go on drawing them meanwhile. sl_summary_reader_follow_finish()
 * then appends what was decoded, in the calling thread. One follow or
 * update at a time.
 */
void
sl_summary_reader_follow_async (SlSummaryReader     *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_SUMMARY_READER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_summary_reader_follow_async);
  g_task_set_task_data (task, new_continuation (self), g_object_unref);
  g_task_run_in_thread (task, follow_thread);
}

/**
 * sl_summary_reader_follow_finish:
 *
 * Appends to the runs of @self what the worker read: points to existing
 * series, new tags and new runs (kept sorted by name). Nothing is read or
 * decoded here.
 *
 * Returns: %FALSE when the opened path could not be read or the follow
 *   was cancelled; the runs are unchanged then
 */
gboolean
sl_summary_reader_follow_finish (SlSummaryReader  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  SlSummaryReader *copy;
  GHashTableIter iter;
  gpointer key, value;
  gboolean added = FALSE;

  g_return_val_if_fail (SL_IS_SUMMARY_READER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  copy = g_task_get_task_data (G_TASK (result));
  for (guint i = 0; i < copy->runs->len; i++)
    {
      SlSummaryRun *delta = g_ptr_array_index (copy->runs, i);
      SlSummaryRun *run = sl_summary_reader_lookup_run (self, sl_summary_run_get_name (delta));

      if (run != NULL)
        sl_summary_run_absorb (run, delta);
      else
        {
          /* Nobody has seen this run's series yet: take it as it is. */
          g_ptr_array_add (self->runs, g_object_ref (delta));
          added = TRUE;
        }
    }
  if (added)
    g_ptr_array_sort (self->runs, compare_runs);

  g_hash_table_iter_init (&iter, copy->tb_plugins);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_replace (self->tb_plugins, g_strdup (key), g_strdup (value));

  return TRUE;
}
