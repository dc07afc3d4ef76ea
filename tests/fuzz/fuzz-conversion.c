/* fuzz-conversion.c: libFuzzer harness for the conversion match
 *
 * The input is cut at its first NUL into a source and a converted model,
 * both read as GraphDef text, and matched; each half is also taken as an
 * original-op-names attribute's text and as an op name to strip. Every
 * converted op must have a status and its sources must be readable; the
 * counts must add up to the ops.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sl-conversion-match.h"
#include "sl-graph-def-text.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static GPtrArray *
read_graph (const guint8 *data,
            gsize         size)
{
  GPtrArray *graphs = g_ptr_array_new_with_free_func (g_object_unref);
  SlGraph *graph = sl_graph_def_text_decode (data, size, "fuzz.pbtxt", NULL);

  if (graph != NULL)
    g_ptr_array_add (graphs, graph);
  return graphs;
}

static void
check_text (const guint8 *data,
            gsize         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(GPtrArray) names = sl_conversion_parse_names (text);
  g_autofree char *stripped = sl_conversion_strip_name (text);

  for (guint i = 0; i < names->len; i++)
    if (((const char *) g_ptr_array_index (names, i))[0] == '\0')
      abort ();
  if (stripped != NULL && strlen (stripped) >= strlen (text))
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const guint8 *cut = memchr (data, '\0', size);
  gsize first = cut != NULL ? (gsize) (cut - data) : size;
  gsize rest = cut != NULL ? size - first - 1 : 0;
  g_autoptr(GPtrArray) source = read_graph (data, first);
  g_autoptr(GPtrArray) converted = read_graph (cut != NULL ? cut + 1 : data, cut != NULL ? rest : size);
  g_autoptr(SlConversionMatch) match = sl_conversion_match_new (source, converted);
  guint total = 0;

  for (guint op = 0; op < sl_conversion_match_get_n_ops (match); op++)
    {
      g_autofree char *joined = sl_conversion_match_dup_op_sources (match, op);

      if (joined == NULL || sl_conversion_match_get_op_status (match, op) >= SL_CONVERSION_N_STATUSES)
        abort ();
      for (guint s = 0; s < sl_conversion_match_get_op_n_sources (match, op); s++)
        if (sl_conversion_match_get_op_source (match, op, s, NULL) == NULL)
          abort ();
    }
  for (guint s = 0; s < SL_CONVERSION_N_STATUSES; s++)
    total += sl_conversion_match_count (match, s);
  if (total != sl_conversion_match_get_n_ops (match))
    abort ();
  for (guint i = 0; i < sl_conversion_match_get_n_removed (match); i++)
    if (sl_conversion_match_get_removed_name (match, i) == NULL)
      abort ();

  check_text (data, first);
  if (cut != NULL)
    check_text (cut + 1, rest);
  return 0;
}
