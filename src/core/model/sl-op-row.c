/* sl-op-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sl-op-row.h"

typedef struct {
  double value[SL_OP_N_COUNTERS];
  gint64 core_ns[SL_OP_N_COUNTERS];
  guint8 seen[SL_OP_N_COUNTERS];
} Counters;

struct _SlOpRow
{
  GObject  parent_instance;
  char    *name;
  char    *op_type;
  char    *core_type;
  guint64  count;
  gint64   total_ns;
  gint64   min_ns;
  gint64   max_ns;
  double   ratio;
  gint64   wait_ns;
  gint64   aicore_ns;
  gint64   block_dim;
  gint64   stream_id;
  double   mflops;       /* floating point operations, millions; -1 unknown */
  double   gflops_rate;  /* achieved rate, billions per second; -1 unknown */
  char    *texts[SL_OP_ROW_N_TEXTS];
  char    *source_path;  /* interned GRefString: a million rows share a few files */
  guint    source_line;
  guint    longest_line;
  gint64   core_busy_ns;
  gint64   moved_bytes;  /* in and out, summed over executions whose sizes are known */
  gint64   moved_ns;     /* the duration of those executions */
  double  *pipes;        /* weighted sums then weights, 2 x SL_OP_N_PIPES; only when measured */
  Counters *counters;    /* only when measured */
};

G_DEFINE_FINAL_TYPE (SlOpRow, sl_op_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_OP_TYPE,
  PROP_CORE_TYPE,
  PROP_COUNT,
  PROP_TOTAL_NS,
  PROP_AVG_NS,
  PROP_MIN_NS,
  PROP_MAX_NS,
  PROP_RATIO,
  PROP_WAIT_NS,
  PROP_AICORE_NS,
  PROP_BLOCK_DIM,
  PROP_STREAM_ID,
  PROP_INPUT_SHAPES,
  PROP_INPUT_DTYPES,
  PROP_INPUT_FORMATS,
  PROP_OUTPUT_SHAPES,
  PROP_OUTPUT_DTYPES,
  PROP_OUTPUT_FORMATS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_op_row_finalize (GObject *object)
{
  SlOpRow *self = (SlOpRow *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->op_type, g_free);
  g_clear_pointer (&self->core_type, g_free);
  for (guint i = 0; i < SL_OP_ROW_N_TEXTS; i++)
    g_clear_pointer (&self->texts[i], g_free);
  g_clear_pointer (&self->source_path, g_ref_string_release);
  g_clear_pointer (&self->pipes, g_free);
  g_clear_pointer (&self->counters, g_free);

  G_OBJECT_CLASS (sl_op_row_parent_class)->finalize (object);
}

static void
sl_op_row_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  SlOpRow *self = SL_OP_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, sl_op_row_get_name (self));
      break;

    case PROP_OP_TYPE:
      g_value_set_string (value, sl_op_row_get_op_type (self));
      break;

    case PROP_CORE_TYPE:
      g_value_set_string (value, sl_op_row_get_core_type (self));
      break;

    case PROP_COUNT:
      g_value_set_uint64 (value, sl_op_row_get_count (self));
      break;

    case PROP_TOTAL_NS:
      g_value_set_int64 (value, sl_op_row_get_total_ns (self));
      break;

    case PROP_AVG_NS:
      g_value_set_int64 (value, sl_op_row_get_avg_ns (self));
      break;

    case PROP_MIN_NS:
      g_value_set_int64 (value, sl_op_row_get_min_ns (self));
      break;

    case PROP_MAX_NS:
      g_value_set_int64 (value, sl_op_row_get_max_ns (self));
      break;

    case PROP_RATIO:
      g_value_set_double (value, sl_op_row_get_ratio (self));
      break;

    case PROP_WAIT_NS:
      g_value_set_int64 (value, sl_op_row_get_wait_ns (self));
      break;

    case PROP_AICORE_NS:
      g_value_set_int64 (value, sl_op_row_get_aicore_ns (self));
      break;

    case PROP_BLOCK_DIM:
      g_value_set_int64 (value, sl_op_row_get_block_dim (self));
      break;

    case PROP_STREAM_ID:
      g_value_set_int64 (value, sl_op_row_get_stream_id (self));
      break;

    case PROP_INPUT_SHAPES:
      g_value_set_string (value, sl_op_row_get_input_shapes (self));
      break;

    case PROP_INPUT_DTYPES:
      g_value_set_string (value, sl_op_row_get_input_dtypes (self));
      break;

    case PROP_INPUT_FORMATS:
      g_value_set_string (value, sl_op_row_get_input_formats (self));
      break;

    case PROP_OUTPUT_SHAPES:
      g_value_set_string (value, sl_op_row_get_output_shapes (self));
      break;

    case PROP_OUTPUT_DTYPES:
      g_value_set_string (value, sl_op_row_get_output_dtypes (self));
      break;

    case PROP_OUTPUT_FORMATS:
      g_value_set_string (value, sl_op_row_get_output_formats (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_op_row_class_init (SlOpRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_op_row_finalize;
  object_class->get_property = sl_op_row_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_OP_TYPE] =
    g_param_spec_string ("op-type", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CORE_TYPE] =
    g_param_spec_string ("core-type", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_COUNT] =
    g_param_spec_uint64 ("count", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOTAL_NS] =
    g_param_spec_int64 ("total-ns", NULL, NULL, -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_AVG_NS] =
    g_param_spec_int64 ("avg-ns", NULL, NULL, -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MIN_NS] =
    g_param_spec_int64 ("min-ns", NULL, NULL, -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAX_NS] =
    g_param_spec_int64 ("max-ns", NULL, NULL, -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_RATIO] =
    g_param_spec_double ("ratio", NULL, NULL, -1, G_MAXDOUBLE, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_WAIT_NS] =
    g_param_spec_int64 ("wait-ns", NULL, NULL, -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_AICORE_NS] =
    g_param_spec_int64 ("aicore-ns", NULL, NULL, -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BLOCK_DIM] =
    g_param_spec_int64 ("block-dim", NULL, NULL, -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STREAM_ID] =
    g_param_spec_int64 ("stream-id", NULL, NULL, -1, G_MAXINT64, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INPUT_SHAPES] =
    g_param_spec_string ("input-shapes", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INPUT_DTYPES] =
    g_param_spec_string ("input-dtypes", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INPUT_FORMATS] =
    g_param_spec_string ("input-formats", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_OUTPUT_SHAPES] =
    g_param_spec_string ("output-shapes", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_OUTPUT_DTYPES] =
    g_param_spec_string ("output-dtypes", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_OUTPUT_FORMATS] =
    g_param_spec_string ("output-formats", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_op_row_init (SlOpRow *self)
{
  self->min_ns = -1;
  self->max_ns = -1;
  self->ratio = -1;
  self->wait_ns = -1;
  self->aicore_ns = -1;
  self->mflops = -1;
  self->gflops_rate = -1;
  self->block_dim = -1;
  self->stream_id = -1;
  self->core_busy_ns = -1;
}

SlOpRow *
sl_op_row_new (const char *name,
               const char *op_type,
               const char *core_type)
{
  SlOpRow *self;

  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (SL_TYPE_OP_ROW, NULL);
  self->name = g_strdup (name);
  self->op_type = g_strdup (op_type != NULL ? op_type : "");
  self->core_type = g_strdup (core_type != NULL ? core_type : "");
  return self;
}

const char *
sl_op_row_get_name (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->name;
}

const char *
sl_op_row_get_op_type (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->op_type;
}

const char *
sl_op_row_get_core_type (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->core_type;
}

guint64
sl_op_row_get_count (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), 0);
  return self->count;
}

gint64
sl_op_row_get_total_ns (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->total_ns;
}

gint64
sl_op_row_get_avg_ns (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->count > 0 ? self->total_ns / (gint64)self->count : -1;
}

gint64
sl_op_row_get_min_ns (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->min_ns;
}

gint64
sl_op_row_get_max_ns (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->max_ns;
}

double
sl_op_row_get_ratio (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->ratio;
}

gint64
sl_op_row_get_wait_ns (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->wait_ns;
}

gint64
sl_op_row_get_aicore_ns (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->aicore_ns;
}

gint64
sl_op_row_get_block_dim (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->block_dim;
}

gint64
sl_op_row_get_stream_id (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->stream_id;
}

const char *
sl_op_row_get_input_shapes (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->texts[SL_OP_ROW_INPUT_SHAPES] != NULL ? self->texts[SL_OP_ROW_INPUT_SHAPES] : "";
}

const char *
sl_op_row_get_input_dtypes (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->texts[SL_OP_ROW_INPUT_DTYPES] != NULL ? self->texts[SL_OP_ROW_INPUT_DTYPES] : "";
}

const char *
sl_op_row_get_input_formats (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->texts[SL_OP_ROW_INPUT_FORMATS] != NULL ? self->texts[SL_OP_ROW_INPUT_FORMATS] : "";
}

const char *
sl_op_row_get_output_shapes (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->texts[SL_OP_ROW_OUTPUT_SHAPES] != NULL ? self->texts[SL_OP_ROW_OUTPUT_SHAPES] : "";
}

const char *
sl_op_row_get_output_dtypes (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->texts[SL_OP_ROW_OUTPUT_DTYPES] != NULL ? self->texts[SL_OP_ROW_OUTPUT_DTYPES] : "";
}

const char *
sl_op_row_get_output_formats (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->texts[SL_OP_ROW_OUTPUT_FORMATS] != NULL ? self->texts[SL_OP_ROW_OUTPUT_FORMATS] : "";
}

/**
 * sl_op_row_add_execution:
 * @wait_ns: -1 when unknown
 * @aicore_ns: -1 when unknown
 *
 * Counts one execution of the op.
 */
void
sl_op_row_add_execution (SlOpRow *self,
                         gint64   duration_ns,
                         gint64   wait_ns,
                         gint64   aicore_ns)
{
  g_return_if_fail (SL_IS_OP_ROW (self));

  self->count++;
  self->total_ns += duration_ns;
  if (self->min_ns < 0 || duration_ns < self->min_ns)
    self->min_ns = duration_ns;
  if (duration_ns > self->max_ns)
    self->max_ns = duration_ns;
  if (wait_ns >= 0)
    self->wait_ns = MAX (self->wait_ns, 0) + wait_ns;
  if (aicore_ns >= 0)
    self->aicore_ns = MAX (self->aicore_ns, 0) + aicore_ns;
}

void
sl_op_row_set_totals (SlOpRow *self,
                      guint64  count,
                      gint64   total_ns,
                      gint64   min_ns,
                      gint64   max_ns)
{
  g_return_if_fail (SL_IS_OP_ROW (self));

  self->count = count;
  self->total_ns = total_ns;
  self->min_ns = min_ns;
  self->max_ns = max_ns;
}

void
sl_op_row_set_ratio (SlOpRow *self,
                     double   ratio)
{
  g_return_if_fail (SL_IS_OP_ROW (self));
  self->ratio = ratio;
}

void
sl_op_row_set_op_type (SlOpRow    *self,
                       const char *op_type)
{
  g_return_if_fail (SL_IS_OP_ROW (self));

  g_free (self->op_type);
  self->op_type = g_strdup (op_type != NULL ? op_type : "");
}

void
sl_op_row_set_block_dim (SlOpRow *self,
                         gint64   block_dim)
{
  g_return_if_fail (SL_IS_OP_ROW (self));
  self->block_dim = block_dim;
}

void
sl_op_row_set_stream_id (SlOpRow *self,
                         gint64   stream_id)
{
  g_return_if_fail (SL_IS_OP_ROW (self));
  self->stream_id = stream_id;
}

void
sl_op_row_set_text (SlOpRow     *self,
                    SlOpRowText  which,
                    const char  *text)
{
  g_return_if_fail (SL_IS_OP_ROW (self));
  g_return_if_fail (which < SL_OP_ROW_N_TEXTS);

  g_free (self->texts[which]);
  self->texts[which] = g_strdup (text);
}

/**
 * sl_op_row_set_flops:
 * @mflops: floating point operations of the op, in millions, or -1
 * @gflops_rate: the rate it reached, in billions per second, or -1
 *
 * From MindSpore's flops_<id>.txt (cube and vector units added up).
 */
void
sl_op_row_set_flops (SlOpRow *self,
                     double   mflops,
                     double   gflops_rate)
{
  g_return_if_fail (SL_IS_OP_ROW (self));

  self->mflops = mflops;
  self->gflops_rate = gflops_rate;
}

double
sl_op_row_get_mflops (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->mflops;
}

double
sl_op_row_get_gflops_rate (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->gflops_rate;
}

void
sl_op_row_set_source (SlOpRow    *self,
                      const char *path,
                      guint       line)
{
  g_return_if_fail (SL_IS_OP_ROW (self));

  g_clear_pointer (&self->source_path, g_ref_string_release);
  self->source_path = path != NULL ? g_ref_string_new_intern (path) : NULL;
  self->source_line = line;
}

void
sl_op_row_set_longest_line (SlOpRow *self,
                            guint    line)
{
  g_return_if_fail (SL_IS_OP_ROW (self));
  self->longest_line = line;
}

const char *
sl_op_row_get_source_path (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->source_path;
}

guint
sl_op_row_get_source_line (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), 0);
  return self->source_line;
}

guint
sl_op_row_get_longest_line (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), 0);
  return self->longest_line != 0 ? self->longest_line : self->source_line;
}

void
sl_op_row_add_pipe_ratios (SlOpRow      *self,
                           const double *ratios,
                           gint64        duration_ns)
{
  /* A zero-length execution still says something about the op. */
  double weight = duration_ns > 0 ? (double)duration_ns : 1.0;

  g_return_if_fail (SL_IS_OP_ROW (self));
  g_return_if_fail (ratios != NULL);

  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    {
      /* Hostile files: a ratio is a share of cycles, so anything outside
       * [0, 1] (NaN included) is not a measurement. */
      if (!(ratios[p] >= 0.0 && ratios[p] <= 1.0))
        continue;
      if (self->pipes == NULL)
        self->pipes = g_new0 (double, 2 * SL_OP_N_PIPES);
      self->pipes[p] += ratios[p] * weight;
      self->pipes[SL_OP_N_PIPES + p] += weight;
    }
}

double
sl_op_row_get_pipe_ratio (SlOpRow  *self,
                          SlOpPipe  pipe)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  g_return_val_if_fail (pipe < SL_OP_N_PIPES, -1);

  if (self->pipes == NULL || self->pipes[SL_OP_N_PIPES + pipe] <= 0)
    return -1;
  return self->pipes[pipe] / self->pipes[SL_OP_N_PIPES + pipe];
}

const char *
sl_op_pipe_to_string (SlOpPipe pipe)
{
  static const char *names[SL_OP_N_PIPES] = { "cube", "vector", "scalar", "mte1", "mte2", "mte3" };

  g_return_val_if_fail (pipe < SL_OP_N_PIPES, "unknown");
  return names[pipe];
}

void
sl_op_row_add_core_busy (SlOpRow *self,
                         gint64   busy_ns)
{
  g_return_if_fail (SL_IS_OP_ROW (self));

  if (busy_ns >= 0)
    self->core_busy_ns = MAX (self->core_busy_ns, 0) + busy_ns;
}

gint64
sl_op_row_get_core_busy_ns (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  return self->core_busy_ns;
}

const char *
sl_op_row_get_op_state (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), NULL);
  return self->texts[SL_OP_ROW_OP_STATE] != NULL ? self->texts[SL_OP_ROW_OP_STATE] : "";
}

/* Bytes of one element of a dtype as the profilers write it (FLOAT16,
 * DT_FLOAT, INT64, ...); 0 when unknown. */
static guint
dtype_size (const char *name,
            gsize       len)
{
  static const struct { const char *name; guint size; } sizes[] = {
    { "FLOAT16", 2 }, { "FP16", 2 }, { "HALF", 2 }, { "BF16", 2 }, { "BFLOAT16", 2 }, { "INT16", 2 },
    { "UINT16", 2 }, { "FLOAT", 4 }, { "FLOAT32", 4 }, { "FP32", 4 }, { "INT32", 4 }, { "UINT32", 4 },
    { "DOUBLE", 8 }, { "FLOAT64", 8 }, { "INT64", 8 }, { "UINT64", 8 }, { "INT8", 1 }, { "UINT8", 1 },
    { "BOOL", 1 },
  };

  if (len > 3 && g_ascii_strncasecmp (name, "DT_", 3) == 0)
    {
      name += 3;
      len -= 3;
    }
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (strlen (sizes[i].name) == len && g_ascii_strncasecmp (name, sizes[i].name, len) == 0)
      return sizes[i].size;
  return 0;
}

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '"' || c == '\t';
}

/* The next ';'-separated token of @p, without blanks and quotes. */
static const char *
next_token (const char **p,
            gsize       *len)
{
  const char *start, *end;

  while (is_blank (**p))
    (*p)++;
  start = *p;
  while (**p != '\0' && **p != ';')
    (*p)++;
  end = *p;
  if (**p == ';')
    (*p)++;
  while (end > start && is_blank (end[-1]))
    end--;
  *len = end - start;
  return start;
}

static guint
count_tokens (const char *p)
{
  guint n = 1;

  for (; *p != '\0'; p++)
    n += *p == ';';
  return n;
}

/* Elements of the shape "8,4096" in [p, p + len); an empty shape is a
 * scalar; -1 when a dimension is not a number. */
static gint64
shape_elements (const char *p,
                gsize       len)
{
  const char *end = p + len;
  gint64 elements = 1;

  while (p < end)
    {
      gint64 value = 0;
      gboolean digits = FALSE;

      while (p < end && is_blank (*p))
        p++;
      while (p < end && g_ascii_isdigit (*p))
        {
          value = MIN (value * 10 + (*p - '0'), G_MAXINT64 / 100);
          digits = TRUE;
          p++;
        }
      while (p < end && is_blank (*p))
        p++;
      if (!digits || (p < end && *p != ','))
        return -1;
      if (p < end)
        p++;
      /* Beyond an exabyte the figure means nothing: stop growing. */
      elements = value == 0 ? 0 : MIN (elements, G_MAXINT64 / 16 / value) * value;
    }
  return elements;
}

/**
 * sl_op_row_tensor_bytes:
 * @shapes: tensors as the profilers write them, "1,2,3;4,5" (quotes allowed)
 * @dtypes: their types, "FLOAT16;FLOAT" (one may stand for all)
 *
 * One pass, no allocation: the loader calls it for every execution.
 *
 * Returns: the bytes of those tensors, or -1 when a size cannot be told
 */
gint64
sl_op_row_tensor_bytes (const char *shapes,
                        const char *dtypes)
{
  guint n_shapes, n_dtypes, fixed_size = 0;
  const char *s = shapes, *d = dtypes, *token;
  gint64 bytes = 0;
  gsize len;

  if (shapes == NULL || dtypes == NULL)
    return -1;
  n_shapes = count_tokens (shapes);
  n_dtypes = count_tokens (dtypes);
  if (n_dtypes != n_shapes && n_dtypes != 1)
    return -1;
  if (n_dtypes == 1)
    {
      token = next_token (&d, &len);
      if ((fixed_size = dtype_size (token, len)) == 0)
        return -1;
    }
  for (guint i = 0; i < n_shapes; i++)
    {
      gint64 elements;
      guint size = fixed_size;

      token = next_token (&s, &len);
      elements = shape_elements (token, len);
      if (size == 0)
        {
          const char *type = next_token (&d, &len);

          size = dtype_size (type, len);
        }
      if (elements < 0 || size == 0)
        return -1;
      bytes = MIN (bytes + MIN (elements, G_MAXINT64 / 64) * size, G_MAXINT64 / 4);
    }
  return bytes;
}

/* Bytes one execution read and wrote, and its duration: the rate of the
 * row is then exact even when its executions' shapes differ. */
void
sl_op_row_add_moved_bytes (SlOpRow *self,
                           gint64   bytes,
                           gint64   duration_ns)
{
  g_return_if_fail (SL_IS_OP_ROW (self));

  if (bytes < 0 || duration_ns <= 0)
    return;
  self->moved_bytes += bytes;
  self->moved_ns += duration_ns;
}

gint64
sl_op_row_get_moved_bytes (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), 0);

  return self->moved_bytes;
}

gint64
sl_op_row_get_moved_ns (SlOpRow *self)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), 0);

  return self->moved_ns;
}

void
sl_op_row_add_counter (SlOpRow     *self,
                       SlOpCounter  counter,
                       double       value,
                       gint64       core_ns)
{
  g_return_if_fail (SL_IS_OP_ROW (self));
  g_return_if_fail (counter < SL_OP_N_COUNTERS);

  /* Counts and sizes are never negative; NaN and infinities are damage. */
  if (!isfinite (value) || value < 0)
    return;
  if (self->counters == NULL)
    self->counters = g_new0 (Counters, 1);
  self->counters->value[counter] += value;
  self->counters->core_ns[counter] += MAX (core_ns, 0);
  self->counters->seen[counter] = TRUE;
}

double
sl_op_row_get_counter (SlOpRow     *self,
                       SlOpCounter  counter)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), -1);
  g_return_val_if_fail (counter < SL_OP_N_COUNTERS, -1);

  if (self->counters == NULL || !self->counters->seen[counter])
    return -1;
  return self->counters->value[counter];
}

gint64
sl_op_row_get_counter_ns (SlOpRow     *self,
                          SlOpCounter  counter)
{
  g_return_val_if_fail (SL_IS_OP_ROW (self), 0);
  g_return_val_if_fail (counter < SL_OP_N_COUNTERS, 0);

  return self->counters != NULL ? self->counters->core_ns[counter] : 0;
}
