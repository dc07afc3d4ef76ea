/* fuzz-msprobe-dump.c: libFuzzer harness for the msprobe dump.json reader
 * and the pairing
 *
 * The input is a dump.json. It is read from memory with a folder for
 * data_name to resolve against, every tensor is checked to have its key
 * and a bounded shape, the dump is paired with itself exactly and
 * fuzzily (every tensor must pair or be unmatched exactly once), and the
 * same bytes are read as a mapping file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sl-msprobe-dump.h"
#include "sl-problem.h"
#include "sl-tensor-mapping.h"
#include "sl-tensor-pairing.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
check_pairing (SlMsprobeDump        *dump,
               SlTensorPairingFlags  flags,
               SlTensorMapping      *mapping)
{
  g_autoptr(SlTensorPairing) pairing = sl_tensor_pairing_new (dump, dump, flags, mapping);
  guint n = sl_msprobe_dump_get_n_tensors (dump);
  SlStatsComparison stats;
  gboolean equal;

  g_assert (2 * sl_tensor_pairing_get_n_pairs (pairing) + sl_tensor_pairing_get_n_unmatched (pairing) == 2 * n);
  for (guint i = 0; i < sl_tensor_pairing_get_n_pairs (pairing); i++)
    {
      const SlTensorPair *pair = sl_tensor_pairing_get_pair (pairing, i);

      (void) sl_tensor_pair_compare_stats (pair, &stats);
      (void) sl_tensor_pair_compare_crc (pair, &equal);
    }
  for (guint i = 0; i < sl_tensor_pairing_get_n_unmatched (pairing); i++)
    g_assert (sl_unmatched_reason_describe (sl_tensor_pairing_get_unmatched (pairing, i)->reason) != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(SlMsprobeDump) dump = sl_msprobe_dump_new_from_data ("/nonexistent/msprobe/dump.json",
                                                                 "/nonexistent/msprobe",
                                                                 (const char *) data, size);
  g_autoptr(SlTensorMapping) mapping = sl_tensor_mapping_new_from_data ((const char *) data, size, NULL);
  GPtrArray *problems = sl_msprobe_dump_get_problems (dump);

  for (guint i = 0; i < sl_msprobe_dump_get_n_tensors (dump); i++)
    {
      const SlMsprobeTensor *tensor = sl_msprobe_dump_get_tensor (dump, i);
      g_autofree char *module_path = sl_msprobe_dump_dup_module_path (dump, tensor->entry);

      g_assert (tensor->key != NULL && tensor->fuzzy_key != NULL && tensor->entry != NULL);
      g_assert (g_str_has_prefix (tensor->key, tensor->entry));
      g_assert (tensor->n_dims <= SL_MSPROBE_MAX_DIMS);
      g_assert (tensor->order == i);
    }
  for (guint i = 0; i < problems->len; i++)
    {
      gint64 offset = sl_problem_get_offset (g_ptr_array_index (problems, i));

      g_assert (sl_problem_get_message (g_ptr_array_index (problems, i)) != NULL);
      g_assert (offset < (gint64) size || offset <= 0);
    }
  check_pairing (dump, SL_TENSOR_PAIRING_EXACT, NULL);
  check_pairing (dump, SL_TENSOR_PAIRING_FUZZY, mapping);
  return 0;
}
