/* sl-tensor-compare-row.c: one matched pair of a tensor comparison report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-npy-tensor.h"
#include "sl-tensor-compare-row.h"
#include "sl-torch-tensor.h"

struct _SlTensorCompareRow
{
  GObject              parent_instance;

  char                *name;
  char                *bench_name;
  char                *api;
  char                *module_path;
  char                *stack;
  char                *call;
  SlMsprobeIo          io;
  guint                order;
  SlTensorCompareMode  mode;
  char                *npu_dtype;
  char                *bench_dtype;
  GArray              *npu_shape;     /* guint64 */
  GArray              *bench_shape;
  char                *npu_file;
  char                *bench_file;
  char                *npu_crc;
  char                *bench_crc;
  guint64              data_bytes;
  int                  npu_requires_grad;
  int                  bench_requires_grad;

  SlTensorComparison  *metrics;
  SlTensorDtype        npu_data_dtype;   /* of the data read, for judging again */
  SlTensorDtype        bench_data_dtype;
  gboolean             has_stats;
  SlStatsComparison    stats;          /* as the dump recorded them */
  gboolean             has_data_stats;
  SlStatsComparison    data_stats;     /* read from the data when the dump recorded none */
  gboolean             crc_equal;
  gboolean             failed;
  const char          *failed_file;     /* npu_file or bench_file */
  gint64               failed_offset;   /* where failed_file is damaged, or -1 */
  char                *failed_damage;   /* what is wrong there, without the file and the offset, or NULL */
  SlTensorVerdict      verdict;
  char                *reason;
};

G_DEFINE_FINAL_TYPE (SlTensorCompareRow, sl_tensor_compare_row, G_TYPE_OBJECT)

static void
sl_tensor_compare_row_finalize (GObject *object)
{
  SlTensorCompareRow *self = SL_TENSOR_COMPARE_ROW (object);

  g_free (self->name);
  g_free (self->bench_name);
  g_free (self->api);
  g_free (self->module_path);
  g_free (self->stack);
  g_free (self->call);
  g_free (self->npu_dtype);
  g_free (self->bench_dtype);
  g_array_unref (self->npu_shape);
  g_array_unref (self->bench_shape);
  g_free (self->npu_file);
  g_free (self->bench_file);
  g_free (self->npu_crc);
  g_free (self->bench_crc);
  g_clear_pointer (&self->metrics, sl_tensor_comparison_free);
  g_free (self->reason);
  g_free (self->failed_damage);
  G_OBJECT_CLASS (sl_tensor_compare_row_parent_class)->finalize (object);
}

static void
sl_tensor_compare_row_class_init (SlTensorCompareRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_tensor_compare_row_finalize;
}

static void
sl_tensor_compare_row_init (SlTensorCompareRow *self)
{
  self->npu_shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->bench_shape = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->verdict = SL_TENSOR_VERDICT_PASS;
  self->failed_offset = -1;
}

const char *
sl_tensor_compare_mode_to_string (SlTensorCompareMode mode)
{
  switch (mode)
    {
    case SL_TENSOR_COMPARE_MODE_DATA: return "data";
    case SL_TENSOR_COMPARE_MODE_STATS: return "stats";
    case SL_TENSOR_COMPARE_MODE_CRC: return "crc";
    default: return "unknown";
    }
}

SlTensorCompareRow *
sl_tensor_compare_row_new (const SlTensorCompareRowInit *init)
{
  SlTensorCompareRow *self;

  g_return_val_if_fail (init != NULL && init->name != NULL, NULL);

  self = g_object_new (SL_TYPE_TENSOR_COMPARE_ROW, NULL);
  self->name = g_strdup (init->name);
  self->bench_name = g_strdup (init->bench_name != NULL ? init->bench_name : init->name);
  self->api = g_strdup (init->api);
  self->module_path = g_strdup (init->module_path);
  self->stack = g_strdup (init->stack);
  self->call = g_strdup (init->call);
  self->io = init->io;
  self->order = init->order;
  self->mode = init->mode;
  self->npu_dtype = g_strdup (init->npu_dtype);
  self->bench_dtype = g_strdup (init->bench_dtype);
  if (init->npu_shape != NULL)
    g_array_append_vals (self->npu_shape, init->npu_shape, init->npu_n_dims);
  if (init->bench_shape != NULL)
    g_array_append_vals (self->bench_shape, init->bench_shape, init->bench_n_dims);
  self->npu_file = g_strdup (init->npu_file);
  self->bench_file = g_strdup (init->bench_file);
  self->npu_crc = g_strdup (init->npu_md5);
  self->bench_crc = g_strdup (init->bench_md5);
  self->data_bytes = MAX (init->npu_bytes, 0) + MAX (init->bench_bytes, 0);
  self->npu_requires_grad = init->npu_requires_grad;
  self->bench_requires_grad = init->bench_requires_grad;
  if (init->stats != NULL)
    {
      self->has_stats = TRUE;
      self->stats = *init->stats;
    }
  return self;
}

#define GETTER(type, field, fallback) \
  type \
  sl_tensor_compare_row_get_##field (SlTensorCompareRow *self) \
  { \
    g_return_val_if_fail (SL_IS_TENSOR_COMPARE_ROW (self), fallback); \
    return self->field; \
  }

GETTER (const char *, name, NULL)
GETTER (const char *, bench_name, NULL)
GETTER (const char *, api, NULL)
GETTER (const char *, module_path, NULL)
GETTER (const char *, stack, NULL)
GETTER (const char *, call, NULL)
GETTER (SlMsprobeIo, io, SL_MSPROBE_INPUT)
GETTER (guint, order, 0)
GETTER (SlTensorCompareMode, mode, SL_TENSOR_COMPARE_MODE_DATA)
GETTER (const char *, npu_dtype, NULL)
GETTER (const char *, bench_dtype, NULL)
GETTER (gboolean, crc_equal, FALSE)
GETTER (const char *, npu_crc, NULL)
GETTER (const char *, bench_crc, NULL)
GETTER (SlTensorVerdict, verdict, SL_TENSOR_VERDICT_ERROR)
GETTER (const char *, reason, NULL)
GETTER (const char *, npu_file, NULL)
GETTER (const char *, bench_file, NULL)
GETTER (gboolean, failed, FALSE)
GETTER (const char *, failed_file, NULL)
GETTER (gint64, failed_offset, -1)
GETTER (const char *, failed_damage, NULL)
GETTER (guint64, data_bytes, 0)

#undef GETTER

const guint64 *
sl_tensor_compare_row_get_npu_shape (SlTensorCompareRow *self,
                                     guint              *n_dims)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_ROW (self), NULL);

  if (n_dims != NULL)
    *n_dims = self->npu_shape->len;
  return (const guint64 *)self->npu_shape->data;
}

const guint64 *
sl_tensor_compare_row_get_bench_shape (SlTensorCompareRow *self,
                                       guint              *n_dims)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_ROW (self), NULL);

  if (n_dims != NULL)
    *n_dims = self->bench_shape->len;
  return (const guint64 *)self->bench_shape->data;
}

char *
sl_tensor_compare_row_dup_shape_text (SlTensorCompareRow *self,
                                      SlTensorSide        side)
{
  GArray *shape;
  GString *text;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_ROW (self), NULL);

  shape = side == SL_TENSOR_SIDE_NPU ? self->npu_shape : self->bench_shape;
  text = g_string_new ("[");
  for (guint i = 0; i < shape->len; i++)
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, i > 0 ? ", " : "", g_array_index (shape, guint64, i));
  g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

const SlTensorComparison *
sl_tensor_compare_row_get_metrics (SlTensorCompareRow *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_ROW (self), NULL);
  return self->mode == SL_TENSOR_COMPARE_MODE_DATA ? self->metrics : NULL;
}

const SlStatsComparison *
sl_tensor_compare_row_get_stats (SlTensorCompareRow *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_ROW (self), NULL);
  return self->mode == SL_TENSOR_COMPARE_MODE_STATS && self->has_stats ? &self->stats : NULL;
}

const SlStatsComparison *
sl_tensor_compare_row_get_summary (SlTensorCompareRow *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_ROW (self), NULL);

  if (self->has_stats)
    return &self->stats;
  return self->has_data_stats ? &self->data_stats : NULL;
}

static void
set_verdict (SlTensorCompareRow *self,
             SlTensorVerdict     verdict,
             const char         *reason)
{
  self->verdict = verdict;
  g_free (self->reason);
  self->reason = g_strdup (reason);
}

void
sl_tensor_compare_row_raise_verdict (SlTensorCompareRow *self,
                                     SlTensorVerdict     verdict,
                                     const char         *reason)
{
  g_autofree char *joined = NULL;

  g_return_if_fail (SL_IS_TENSOR_COMPARE_ROW (self));
  g_return_if_fail (reason != NULL);

  if (verdict < self->verdict)
    return;
  if (self->reason == NULL)
    joined = g_strdup (reason);
  else if (verdict > self->verdict)
    joined = g_strconcat (reason, " ", self->reason, NULL);
  else
    joined = g_strconcat (self->reason, " ", reason, NULL);
  set_verdict (self, verdict, joined);
}

void
sl_tensor_compare_row_fail (SlTensorCompareRow *self,
                            const char         *reason)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_ROW (self));

  self->failed = TRUE;
  g_clear_pointer (&self->metrics, sl_tensor_comparison_free);
  set_verdict (self, SL_TENSOR_VERDICT_ERROR, reason);
}

static SlTensorDtype
dtype_from_torch (const char *name)
{
  static const struct { const char *name; SlTensorDtype dtype; } names[] = {
    { "float32", SL_TENSOR_DTYPE_FLOAT32 }, { "float64", SL_TENSOR_DTYPE_FLOAT64 },
    { "float16", SL_TENSOR_DTYPE_FLOAT16 }, { "bfloat16", SL_TENSOR_DTYPE_BFLOAT16 },
    { "int64", SL_TENSOR_DTYPE_INT64 }, { "int32", SL_TENSOR_DTYPE_INT32 },
    { "int16", SL_TENSOR_DTYPE_INT16 }, { "int8", SL_TENSOR_DTYPE_INT8 },
    { "uint8", SL_TENSOR_DTYPE_UINT8 }, { "bool", SL_TENSOR_DTYPE_BOOL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (name, names[i].name) == 0)
      return names[i].dtype;
  return SL_TENSOR_DTYPE_UNKNOWN;
}

/* Whether the strides walk the storage in C order (or Fortran order when
 * @fortran), so the elements can be read straight from the mapping. */
static gboolean
strides_are_dense (const SlTorchTensorView *view,
                   gboolean                 fortran)
{
  gint64 expected = 1;

  for (guint k = 0; k < view->n_dims; k++)
    {
      guint i = fortran ? k : view->n_dims - 1 - k;

      if (view->shape[i] != 1 && view->strides[i] != expected)
        return FALSE;
      expected *= view->shape[i];
    }
  return TRUE;
}

/* A strided view copied into C order; the reader has checked that every
 * element lies inside the storage. */
static guint8 *
gather_strided (const SlTorchTensorView *view)
{
  gsize size = view->item_size;
  guint8 *out = g_malloc (MAX (view->n_elements * size, 1));
  gint64 index[SL_TORCH_TENSOR_MAX_DIMS] = { 0 };

  for (guint64 e = 0; e < view->n_elements; e++)
    {
      gint64 offset = 0;

      for (guint i = 0; i < view->n_dims; i++)
        offset += index[i] * view->strides[i];
      memcpy (out + e * size, view->data + offset * (gint64)size, size);
      for (int i = (int)view->n_dims - 1; i >= 0; i--)
        {
          if (++index[i] < view->shape[i])
            break;
          index[i] = 0;
        }
    }
  return out;
}

static gboolean
load_torch_file (const char   *path,
                 SlTensorData *out,
                 GObject      *keep,
                 const char   *slot,
                 GError      **error)
{
  g_autoptr(SlTorchTensor) tensor = sl_torch_tensor_new_from_file (path, error);
  const SlTorchTensorView *view;
  guint64 *shape;
  g_autofree char *shape_slot = g_strconcat (slot, "-shape", NULL);

  if (tensor == NULL)
    {
      /* The .npy reader names the file; say which .pt it was too. */
      if (error != NULL && *error != NULL && !g_str_has_prefix ((*error)->message, path))
        g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  view = sl_torch_tensor_get_view (tensor);
  out->dtype = dtype_from_torch (view->dtype);
  if (out->dtype == SL_TENSOR_DTYPE_UNKNOWN)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("%s: tensors of dtype %s cannot be compared"),
                   path, view->dtype);
      return FALSE;
    }
  shape = g_new0 (guint64, MAX (view->n_dims, 1));
  for (guint i = 0; i < view->n_dims; i++)
    shape[i] = (guint64)view->shape[i];
  g_object_set_data_full (keep, shape_slot, shape, g_free);
  out->shape = shape;
  out->n_dims = view->n_dims;
  out->n_elements = view->n_elements;
  out->big_endian = view->big_endian;
  out->fortran_order = FALSE;
  if (strides_are_dense (view, FALSE))
    out->data = view->data;
  else if (strides_are_dense (view, TRUE))
    {
      out->data = view->data;
      out->fortran_order = TRUE;
    }
  else
    {
      guint8 *copy = gather_strided (view);
      g_autofree char *copy_slot = g_strconcat (slot, "-copy", NULL);

      g_object_set_data_full (keep, copy_slot, copy, g_free);
      out->data = copy;
    }
  g_object_set_data_full (keep, slot, g_steal_pointer (&tensor), g_object_unref);
  return TRUE;
}

static gboolean
load_file_into (const char   *path,
                SlTensorData *out,
                GObject      *keep,
                const char   *slot,
                gint64       *error_offset,
                char        **error_reason,
                GError      **error)
{
  g_autoptr(SlNpyTensor) npy = NULL;

  if (error_offset != NULL)
    *error_offset = -1;
  if (error_reason != NULL)
    *error_reason = NULL;
  if (g_str_has_suffix (path, ".pt") || g_str_has_suffix (path, ".pth"))
    return load_torch_file (path, out, keep, slot, error);
  if ((npy = sl_npy_tensor_open_full (path, error_offset, error_reason, error)) == NULL)
    return FALSE;
  *out = *sl_npy_tensor_get_view (npy);
  g_object_set_data_full (keep, slot, g_steal_pointer (&npy), g_object_unref);
  return TRUE;
}

gboolean
sl_tensor_data_load_file (const char   *path,
                          SlTensorData *out,
                          GObject      *keep,
                          GError      **error)
{
  g_return_val_if_fail (path != NULL && out != NULL, FALSE);
  g_return_val_if_fail (G_IS_OBJECT (keep), FALSE);

  return load_file_into (path, out, keep, "tensor", NULL, NULL, error);
}

gboolean
sl_tensor_compare_row_load_data (SlTensorCompareRow *self,
                                 SlTensorData       *npu,
                                 SlTensorData       *bench,
                                 GObject           **keep,
                                 GCancellable       *cancellable,
                                 GError            **error)
{
  g_autoptr(GObject) holder = NULL;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_ROW (self), FALSE);
  g_return_val_if_fail (npu != NULL && bench != NULL && keep != NULL, FALSE);

  if (self->npu_file == NULL || self->bench_file == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: the dump holds no data file for this tensor"),
                   self->npu_file == NULL ? self->name : self->bench_name);
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  holder = g_object_new (G_TYPE_OBJECT, NULL);
  if (!load_file_into (self->npu_file, npu, holder, "npu", NULL, NULL, error) ||
      !load_file_into (self->bench_file, bench, holder, "bench", NULL, NULL, error))
    return FALSE;
  *keep = g_steal_pointer (&holder);
  return TRUE;
}

static void
judge_stats (SlTensorCompareRow *self)
{
  const SlStatDiff *diffs[] = { &self->stats.max, &self->stats.min, &self->stats.mean, &self->stats.norm };
  static const char * const names[] = { N_("maximum"), N_("minimum"), N_("mean"), N_("norm") };

  if (!self->has_stats)
    {
      set_verdict (self, SL_TENSOR_VERDICT_WARNING, _("One side has no statistics to compare."));
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (diffs); i++)
    if (isfinite (diffs[i]->npu) != isfinite (diffs[i]->bench))
      {
        g_autofree char *reason = g_strdup_printf (_("The %s is NaN or Inf on one side only."), _(names[i]));

        set_verdict (self, SL_TENSOR_VERDICT_ERROR, reason);
        return;
      }
  for (guint i = 0; i < G_N_ELEMENTS (diffs); i++)
    if (diffs[i]->relative > SL_TENSOR_STATS_RELATIVE_WARNING ||
        (isnan (diffs[i]->relative) && isfinite (diffs[i]->npu)))
      {
        g_autofree char *reason = NULL;

        if (isnan (diffs[i]->relative))
          reason = g_strdup_printf (_("The %s differs where the benchmark's is zero; worth a second look."),
                                    _(names[i]));
        else
          reason = g_strdup_printf (_("The %s differs by %.3g of the benchmark's, more than %.3g; worth a second look."),
                                    _(names[i]), diffs[i]->relative, SL_TENSOR_STATS_RELATIVE_WARNING);
        set_verdict (self, SL_TENSOR_VERDICT_WARNING, reason);
        return;
      }
  set_verdict (self, SL_TENSOR_VERDICT_PASS, NULL);
}

static void
judge_crc (SlTensorCompareRow *self)
{
  if (self->npu_crc == NULL || self->bench_crc == NULL)
    {
      self->crc_equal = FALSE;
      set_verdict (self, SL_TENSOR_VERDICT_WARNING, _("One side has no CRC to compare."));
      return;
    }
  self->crc_equal = g_ascii_strcasecmp (self->npu_crc, self->bench_crc) == 0;
  if (self->crc_equal)
    set_verdict (self, SL_TENSOR_VERDICT_PASS, NULL);
  else
    {
      g_autofree char *reason = g_strdup_printf (_("The CRCs differ: %s against %s."), self->npu_crc, self->bench_crc);

      set_verdict (self, SL_TENSOR_VERDICT_ERROR, reason);
    }
}

/* msprobe: a tensor that needs gradients against one that does not is an
 * error whatever its values. */
static void
judge_requires_grad (SlTensorCompareRow *self)
{
  g_autofree char *reason = NULL;

  if (self->npu_requires_grad < 0 || self->bench_requires_grad < 0 ||
      self->npu_requires_grad == self->bench_requires_grad || self->verdict == SL_TENSOR_VERDICT_ERROR)
    return;
  reason = g_strdup_printf (_("requires_grad differs: %s against %s."),
                            self->npu_requires_grad ? "True" : "False", self->bench_requires_grad ? "True" : "False");
  set_verdict (self, SL_TENSOR_VERDICT_ERROR, reason);
}

static void
judge_by_mode (SlTensorCompareRow           *self,
               const SlTensorCompareOptions *options)
{
  switch (self->mode)
    {
    case SL_TENSOR_COMPARE_MODE_STATS:
      judge_stats (self);
      break;
    case SL_TENSOR_COMPARE_MODE_CRC:
      judge_crc (self);
      break;
    case SL_TENSOR_COMPARE_MODE_DATA:
    default:
      if (self->metrics == NULL)
        return;
      sl_tensor_comparison_judge (self->metrics, self->npu_data_dtype, self->bench_data_dtype, options);
      set_verdict (self, self->metrics->verdict, self->metrics->reason);
      break;
    }
}

void
sl_tensor_compare_row_judge (SlTensorCompareRow           *self,
                             const SlTensorCompareOptions *options)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_ROW (self));
  g_return_if_fail (options != NULL);

  if (self->failed)
    return;
  judge_by_mode (self, options);
  judge_requires_grad (self);
}

/* .npy inputs name no dtype or shape before the file is read. */
static void
fill_from_data (const SlTensorData *data,
                char              **dtype,
                GArray             *shape)
{
  if (*dtype == NULL)
    *dtype = g_strdup (sl_tensor_dtype_get_name (data->dtype));
  if (shape->len == 0 && data->n_dims > 0)
    g_array_append_vals (shape, data->shape, data->n_dims);
}

typedef struct {
  double max, min, mean, norm;
} Summary;

/* Max, min, mean and L2 norm as msprobe records them: NaN anywhere makes
 * the max and min NaN, as torch's do. */
static Summary
summarize (const SlTensorData *data)
{
  enum { BLOCK = 4096 };
  double values[BLOCK];
  double sum = 0, squares = 0;
  Summary out = { -INFINITY, INFINITY, NAN, NAN };
  gboolean saw_nan = FALSE;

  for (guint64 first = 0; first < data->n_elements; first += BLOCK)
    {
      gsize n = (gsize) MIN ((guint64) BLOCK, data->n_elements - first);
      double block_sum = 0, block_squares = 0;

      sl_tensor_data_read_doubles (data, first, n, values);
      for (gsize i = 0; i < n; i++)
        {
          saw_nan |= isnan (values[i]);
          out.max = MAX (out.max, values[i]);
          out.min = MIN (out.min, values[i]);
          block_sum += values[i];
          block_squares += values[i] * values[i];
        }
      /* Summed per block, so a large tensor's total does not swamp each element. */
      sum += block_sum;
      squares += block_squares;
    }
  if (data->n_elements == 0 || saw_nan)
    out.max = out.min = NAN;
  if (data->n_elements > 0)
    {
      out.mean = sum / (double) data->n_elements;
      out.norm = sqrt (squares);
    }
  return out;
}

static void
summarize_data (SlTensorCompareRow *self,
                const SlTensorData *npu,
                const SlTensorData *bench)
{
  Summary a, b;

  if (self->has_stats)
    return;
  a = summarize (npu);
  b = summarize (bench);
  self->data_stats.max = sl_stat_diff_make (a.max, b.max);
  self->data_stats.min = sl_stat_diff_make (a.min, b.min);
  self->data_stats.mean = sl_stat_diff_make (a.mean, b.mean);
  self->data_stats.norm = sl_stat_diff_make (a.norm, b.norm);
  self->has_data_stats = TRUE;
}

static void
compute_data (SlTensorCompareRow           *self,
              const SlTensorCompareOptions *options,
              GCancellable                 *cancellable)
{
  g_autoptr(GObject) keep = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GError) error = NULL;
  SlTensorData npu, bench;

  if (self->npu_file == NULL || self->bench_file == NULL)
    {
      g_autofree char *reason = g_strdup_printf (_("%s: the dump holds no data file for this tensor"),
                                                 self->npu_file == NULL ? self->name : self->bench_name);

      sl_tensor_compare_row_fail (self, reason);
      return;
    }
  g_clear_pointer (&self->failed_damage, g_free);
  if (!load_file_into (self->npu_file, &npu, keep, "npu", &self->failed_offset, &self->failed_damage, &error))
    {
      self->failed_file = self->npu_file;
      sl_tensor_compare_row_fail (self, error->message);
      return;
    }
  fill_from_data (&npu, &self->npu_dtype, self->npu_shape);
  if (!load_file_into (self->bench_file, &bench, keep, "bench", &self->failed_offset, &self->failed_damage, &error))
    {
      self->failed_file = self->bench_file;
      sl_tensor_compare_row_fail (self, error->message);
      return;
    }
  fill_from_data (&bench, &self->bench_dtype, self->bench_shape);
  if (g_cancellable_is_cancelled (cancellable))
    return;
  self->npu_data_dtype = npu.dtype;
  self->bench_data_dtype = bench.dtype;
  g_clear_pointer (&self->metrics, sl_tensor_comparison_free);
  {
    SlTensorCompareOptions cancellable_options = *options;

    cancellable_options.cancellable = cancellable;
    self->metrics = sl_tensor_compare (&npu, &bench, &cancellable_options);
  }
  if (!g_cancellable_is_cancelled (cancellable))
    summarize_data (self, &npu, &bench);
  set_verdict (self, self->metrics->verdict, self->metrics->reason);
  judge_requires_grad (self);
}

void
sl_tensor_compare_row_compute (SlTensorCompareRow           *self,
                               const SlTensorCompareOptions *options,
                               GCancellable                 *cancellable)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_ROW (self));
  g_return_if_fail (options != NULL);

  if (self->failed)
    return;
  if (self->mode == SL_TENSOR_COMPARE_MODE_DATA)
    compute_data (self, options, cancellable);
  else
    sl_tensor_compare_row_judge (self, options);
}
