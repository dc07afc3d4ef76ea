/* sl-tensor-pairing.c: exact and fuzzy pairing of two msprobe dumps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-tensor-pairing.h"

struct _SlTensorPairing
{
  GObject        parent_instance;

  SlMsprobeDump *npu;
  SlMsprobeDump *bench;
  GArray        *pairs;       /* SlTensorPair */
  GArray        *unmatched;   /* SlTensorUnmatched */
};

G_DEFINE_FINAL_TYPE (SlTensorPairing, sl_tensor_pairing, G_TYPE_OBJECT)

/* Benchmark tensors of one name, taken in order by fuzzy pairing. */
typedef struct {
  GPtrArray *tensors;
  guint      next;
} Queue;

static void
queue_free (gpointer data)
{
  Queue *queue = data;

  g_ptr_array_unref (queue->tensors);
  g_free (queue);
}

static void
sl_tensor_pairing_finalize (GObject *object)
{
  SlTensorPairing *self = SL_TENSOR_PAIRING (object);

  g_clear_object (&self->npu);
  g_clear_object (&self->bench);
  g_array_unref (self->pairs);
  g_array_unref (self->unmatched);
  G_OBJECT_CLASS (sl_tensor_pairing_parent_class)->finalize (object);
}

static void
sl_tensor_pairing_class_init (SlTensorPairingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_tensor_pairing_finalize;
}

static void
sl_tensor_pairing_init (SlTensorPairing *self)
{
  self->pairs = g_array_new (FALSE, FALSE, sizeof (SlTensorPair));
  self->unmatched = g_array_new (FALSE, FALSE, sizeof (SlTensorUnmatched));
}

const char *
sl_tensor_dtype_kind (const char *dtype)
{
  g_autofree char *lower = NULL;

  if (dtype == NULL)
    return NULL;
  lower = g_ascii_strdown (dtype, -1);
  if (strstr (lower, "complex") != NULL)
    return "complex";
  if (strstr (lower, "float") != NULL || strstr (lower, "half") != NULL ||
      strstr (lower, "double") != NULL || strstr (lower, "bf16") != NULL)
    return "float";
  if (strstr (lower, "bool") != NULL)
    return "bool";
  if (strstr (lower, "int") != NULL || strstr (lower, "long") != NULL)
    return "int";
  return NULL;
}

const char *
sl_tensor_side_to_string (SlTensorSide side)
{
  return side == SL_TENSOR_SIDE_NPU ? "npu" : "bench";
}

const char *
sl_unmatched_reason_to_string (SlUnmatchedReason reason)
{
  switch (reason)
    {
    case SL_UNMATCHED_MISSING:
      return "missing";
    case SL_UNMATCHED_SHAPE:
      return "shape";
    case SL_UNMATCHED_DTYPE_KIND:
      return "dtype_kind";
    case SL_UNMATCHED_ARGUMENT_COUNT:
      return "argument_count";
    default:
      return "unknown";
    }
}

const char *
sl_unmatched_reason_describe (SlUnmatchedReason reason)
{
  switch (reason)
    {
    case SL_UNMATCHED_MISSING:
      return _("No tensor of this name on the other side");
    case SL_UNMATCHED_SHAPE:
      return _("The other side's tensor has another shape");
    case SL_UNMATCHED_DTYPE_KIND:
      return _("The other side's tensor has another kind of dtype");
    case SL_UNMATCHED_ARGUMENT_COUNT:
      return _("The calls have different numbers of inputs or outputs");
    default:
      return _("Unknown reason");
    }
}

/* "entry/io" -> number of tensors, for msprobe's rule that an API only
 * matches with as many inputs and outputs on both sides. */
static GHashTable *
count_arguments (SlMsprobeDump *dump)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < sl_msprobe_dump_get_n_tensors (dump); i++)
    {
      const SlMsprobeTensor *tensor = sl_msprobe_dump_get_tensor (dump, i);
      char *name = g_strdup_printf ("%s/%s", tensor->entry, sl_msprobe_io_to_string (tensor->io));
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name));

      g_hash_table_replace (counts, name, GUINT_TO_POINTER (n + 1));
    }
  return counts;
}

static guint
lookup_count (GHashTable            *counts,
              const SlMsprobeTensor *tensor)
{
  g_autofree char *name = g_strdup_printf ("%s/%s", tensor->entry, sl_msprobe_io_to_string (tensor->io));

  return GPOINTER_TO_UINT (g_hash_table_lookup (counts, name));
}

/* The entry on the benchmark side: renamed as a whole, or by its API
 * ("Functional.gelu" -> "Functional.fast_gelu"), or unchanged. */
static char *
map_entry (SlTensorMapping       *mapping,
           const SlMsprobeTensor *tensor)
{
  g_autofree char *api_name = g_strdup_printf ("%s.%s", tensor->api_type, tensor->api);
  const char *renamed;

  if (mapping == NULL)
    return g_strdup (tensor->entry);
  renamed = sl_tensor_mapping_lookup (mapping, tensor->entry);
  if (renamed != NULL)
    return g_strdup (renamed);
  renamed = sl_tensor_mapping_lookup (mapping, api_name);
  if (renamed != NULL)
    return g_strconcat (renamed, tensor->entry + strlen (api_name), NULL);
  return g_strdup (tensor->entry);
}

/* The name to look the benchmark tensor up by; *@exact tells whether it
 * is a whole key (fuzzy pairing still joins on those exactly, as a
 * mapping of one tensor is a deliberate choice). */
static char *
lookup_name (SlTensorMapping       *mapping,
             const SlMsprobeTensor *tensor,
             gboolean               fuzzy,
             gboolean              *exact)
{
  g_autofree char *entry = NULL;
  const char *io = sl_msprobe_io_to_string (tensor->io);
  const char *renamed = mapping != NULL ? sl_tensor_mapping_lookup (mapping, tensor->key) : NULL;
  g_autofree char *api_type = NULL;
  g_autofree char *api = NULL;
  gboolean backward = FALSE;

  *exact = !fuzzy;
  if (renamed != NULL)
    {
      *exact = TRUE;
      return g_strdup (renamed);
    }
  entry = map_entry (mapping, tensor);
  if (!fuzzy)
    return g_strdup_printf ("%s.%s.%s", entry, io, tensor->index);
  if (!sl_msprobe_parse_entry (entry, &api_type, &api, NULL, &backward))
    return g_strdup (tensor->fuzzy_key);
  return g_strdup_printf ("%s.%s.%s.%s.%s", api_type, api, backward ? "backward" : "forward", io, tensor->index);
}

static void
add_unmatched (SlTensorPairing       *self,
               const SlMsprobeTensor *tensor,
               SlTensorSide           side,
               SlUnmatchedReason      reason,
               const SlMsprobeTensor *other)
{
  SlTensorUnmatched unmatched = { tensor, side, reason, other };

  g_array_append_val (self->unmatched, unmatched);
}

static gboolean
same_shape (const SlMsprobeTensor *a,
            const SlMsprobeTensor *b)
{
  return a->n_dims == b->n_dims && memcmp (a->shape, b->shape, a->n_dims * sizeof (gint64)) == 0;
}

/* Why @npu and @bench cannot be a pair, or -1 when they can. */
static int
refusal (const SlMsprobeTensor *npu,
         const SlMsprobeTensor *bench,
         GHashTable            *npu_counts,
         GHashTable            *bench_counts)
{
  const char *npu_kind = sl_tensor_dtype_kind (npu->dtype);
  const char *bench_kind = sl_tensor_dtype_kind (bench->dtype);

  if (lookup_count (npu_counts, npu) != lookup_count (bench_counts, bench))
    return SL_UNMATCHED_ARGUMENT_COUNT;
  if (!same_shape (npu, bench))
    return SL_UNMATCHED_SHAPE;
  if (npu_kind != NULL && bench_kind != NULL && !g_str_equal (npu_kind, bench_kind))
    return SL_UNMATCHED_DTYPE_KIND;
  return -1;
}

static void
index_bench (SlMsprobeDump *bench,
             GHashTable    *by_key,
             GHashTable    *by_fuzzy_key)
{
  for (guint i = 0; i < sl_msprobe_dump_get_n_tensors (bench); i++)
    {
      const SlMsprobeTensor *tensor = sl_msprobe_dump_get_tensor (bench, i);
      Queue *queue = g_hash_table_lookup (by_fuzzy_key, tensor->fuzzy_key);

      /* A repeated key keeps its first tensor; the rest stay unmatched. */
      if (!g_hash_table_contains (by_key, tensor->key))
        g_hash_table_insert (by_key, tensor->key, (gpointer) tensor);
      if (queue == NULL)
        {
          queue = g_new0 (Queue, 1);
          queue->tensors = g_ptr_array_new ();
          g_hash_table_insert (by_fuzzy_key, tensor->fuzzy_key, queue);
        }
      g_ptr_array_add (queue->tensors, (gpointer) tensor);
    }
}

/* The next unused tensor of a fuzzy name. */
static const SlMsprobeTensor *
take_from_queue (Queue      *queue,
                 GHashTable *used)
{
  while (queue != NULL && queue->next < queue->tensors->len)
    {
      const SlMsprobeTensor *tensor = g_ptr_array_index (queue->tensors, queue->next++);

      if (!g_hash_table_contains (used, tensor))
        return tensor;
    }
  return NULL;
}

static void
pair_all (SlTensorPairing      *self,
          SlTensorPairingFlags  flags,
          SlTensorMapping      *mapping)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) by_fuzzy_key = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, queue_free);
  g_autoptr(GHashTable) used = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) npu_counts = count_arguments (self->npu);
  g_autoptr(GHashTable) bench_counts = count_arguments (self->bench);
  gboolean fuzzy = (flags & SL_TENSOR_PAIRING_FUZZY) != 0;

  index_bench (self->bench, by_key, by_fuzzy_key);
  for (guint i = 0; i < sl_msprobe_dump_get_n_tensors (self->npu); i++)
    {
      const SlMsprobeTensor *npu = sl_msprobe_dump_get_tensor (self->npu, i);
      const SlMsprobeTensor *bench;
      gboolean exact = TRUE;
      g_autofree char *name = lookup_name (mapping, npu, fuzzy, &exact);
      int why;

      if (exact)
        {
          bench = g_hash_table_lookup (by_key, name);
          if (bench != NULL && g_hash_table_contains (used, bench))
            bench = NULL;
        }
      else
        bench = take_from_queue (g_hash_table_lookup (by_fuzzy_key, name), used);

      if (bench == NULL)
        {
          add_unmatched (self, npu, SL_TENSOR_SIDE_NPU, SL_UNMATCHED_MISSING, NULL);
          continue;
        }
      g_hash_table_add (used, (gpointer) bench);
      why = refusal (npu, bench, npu_counts, bench_counts);
      if (why >= 0)
        {
          add_unmatched (self, npu, SL_TENSOR_SIDE_NPU, why, bench);
          add_unmatched (self, bench, SL_TENSOR_SIDE_BENCH, why, npu);
          continue;
        }
      {
        SlTensorPair pair = { npu, bench };

        g_array_append_val (self->pairs, pair);
      }
    }

  for (guint i = 0; i < sl_msprobe_dump_get_n_tensors (self->bench); i++)
    {
      const SlMsprobeTensor *bench = sl_msprobe_dump_get_tensor (self->bench, i);

      if (!g_hash_table_contains (used, bench))
        add_unmatched (self, bench, SL_TENSOR_SIDE_BENCH, SL_UNMATCHED_MISSING, NULL);
    }
}

SlTensorPairing *
sl_tensor_pairing_new (SlMsprobeDump        *npu,
                       SlMsprobeDump        *bench,
                       SlTensorPairingFlags  flags,
                       SlTensorMapping      *mapping)
{
  SlTensorPairing *self;

  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (npu), NULL);
  g_return_val_if_fail (SL_IS_MSPROBE_DUMP (bench), NULL);
  g_return_val_if_fail (mapping == NULL || SL_IS_TENSOR_MAPPING (mapping), NULL);

  self = g_object_new (SL_TYPE_TENSOR_PAIRING, NULL);
  self->npu = g_object_ref (npu);
  self->bench = g_object_ref (bench);
  pair_all (self, flags, mapping);
  return self;
}

SlMsprobeDump *
sl_tensor_pairing_get_npu (SlTensorPairing *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIRING (self), NULL);
  return self->npu;
}

SlMsprobeDump *
sl_tensor_pairing_get_bench (SlTensorPairing *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIRING (self), NULL);
  return self->bench;
}

guint
sl_tensor_pairing_get_n_pairs (SlTensorPairing *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIRING (self), 0);
  return self->pairs->len;
}

const SlTensorPair *
sl_tensor_pairing_get_pair (SlTensorPairing *self,
                            guint            index)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIRING (self), NULL);
  g_return_val_if_fail (index < self->pairs->len, NULL);
  return &g_array_index (self->pairs, SlTensorPair, index);
}

guint
sl_tensor_pairing_get_n_unmatched (SlTensorPairing *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIRING (self), 0);
  return self->unmatched->len;
}

const SlTensorUnmatched *
sl_tensor_pairing_get_unmatched (SlTensorPairing *self,
                                 guint            index)
{
  g_return_val_if_fail (SL_IS_TENSOR_PAIRING (self), NULL);
  g_return_val_if_fail (index < self->unmatched->len, NULL);
  return &g_array_index (self->unmatched, SlTensorUnmatched, index);
}

SlStatDiff
sl_stat_diff_make (double npu,
                   double bench)
{
  SlStatDiff diff = { npu, bench, npu - bench, 0.0 };

  if (bench != 0.0)
    diff.relative = fabs (diff.diff) / fabs (bench);
  else
    diff.relative = diff.diff == 0.0 ? 0.0 : NAN;
  return diff;
}

gboolean
sl_tensor_pair_compare_stats (const SlTensorPair *pair,
                              SlStatsComparison  *out)
{
  g_return_val_if_fail (pair != NULL && out != NULL, FALSE);

  if (!pair->npu->has_stats || !pair->bench->has_stats)
    return FALSE;
  out->max = sl_stat_diff_make (pair->npu->max, pair->bench->max);
  out->min = sl_stat_diff_make (pair->npu->min, pair->bench->min);
  out->mean = sl_stat_diff_make (pair->npu->mean, pair->bench->mean);
  out->norm = sl_stat_diff_make (pair->npu->norm, pair->bench->norm);
  return TRUE;
}

gboolean
sl_tensor_pair_compare_crc (const SlTensorPair *pair,
                            gboolean           *equal)
{
  g_return_val_if_fail (pair != NULL && equal != NULL, FALSE);

  if (pair->npu->md5 == NULL || pair->bench->md5 == NULL)
    return FALSE;
  *equal = g_ascii_strcasecmp (pair->npu->md5, pair->bench->md5) == 0;
  return TRUE;
}
