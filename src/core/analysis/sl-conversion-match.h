/* sl-conversion-match.h: a converted model's ops against its source model's
 *
 * ATC turns a source model (ONNX, TensorFlow, an AIR) into an offline
 * model whose ops are the source's, fused, renamed or joined by ops of
 * its own. Each converted op is paired with the source op(s) it came
 * from, in this order:
 *
 * 1. the original-op-names attribute GE writes on ops it keeps or fuses
 *    (`_datadump_original_op_names`, or `original_op_names`), a list of
 *    the source ops' names, each found in the source by its exact name
 *    and then with ATC's suffixes stripped;
 * 2. the converted op's own name, exactly;
 * 3. its name with ATC's suffixes stripped (the copies of multi-batch
 *    models, `_ascend_mbatch_batch_N`, and L1-slicing's `_lxsliceN`).
 *
 * An op is then *fused* when it stands for two source ops or more,
 * *inserted* when it stands for none or is one of the ops ATC adds
 * (TransData, Cast, TransposeD, Aipp, …: named `trans_TransData_N`,
 * `trans_Cast_N`, `NAME_N_aipp`) without a source op of its own name,
 * and *kept* otherwise. Source ops no converted op stands for are
 * *removed* (folded constants, removed identities).
 *
 * Names are looked up in hash tables, never by walking edges, so size,
 * duplicate names and cycles cost nothing special: of two source ops with
 * one name the first is the one shown, and both count as used.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-graph.h"

G_BEGIN_DECLS

typedef enum {
  SL_CONVERSION_KEPT,
  SL_CONVERSION_FUSED,
  SL_CONVERSION_INSERTED,
} SlConversionStatus;

#define SL_CONVERSION_N_STATUSES 3

/* How a converted op found its source. */
typedef enum {
  SL_CONVERSION_BY_ATTRIBUTE,
  SL_CONVERSION_BY_NAME,
  SL_CONVERSION_BY_STRIPPED_NAME,
  SL_CONVERSION_UNMATCHED,
} SlConversionEvidence;

#define SL_TYPE_CONVERSION_MATCH (sl_conversion_match_get_type ())
G_DECLARE_FINAL_TYPE (SlConversionMatch, sl_conversion_match, SL, CONVERSION_MATCH, GObject)

/* @source and @converted: (element-type SlGraph) the graphs of each model. */
SlConversionMatch   *sl_conversion_match_new              (GPtrArray          *source,
                                                           GPtrArray          *converted);
/* Reads both models with the graph reader, in this thread, and matches
 * them; %NULL with @error naming the file that could not be read. */
SlConversionMatch   *sl_conversion_match_load             (const char         *source_path,
                                                           const char         *converted_path,
                                                           GCancellable       *cancellable,
                                                           GError            **error);

/* The graphs matched (element-type SlGraph). */
GPtrArray           *sl_conversion_match_get_source       (SlConversionMatch  *self);
GPtrArray           *sl_conversion_match_get_converted    (SlConversionMatch  *self);

/* Converted ops, in graph then file order. */
guint                sl_conversion_match_get_n_ops        (SlConversionMatch  *self);
const char          *sl_conversion_match_get_op_name      (SlConversionMatch  *self,
                                                           guint               op);
const char          *sl_conversion_match_get_op_type      (SlConversionMatch  *self,
                                                           guint               op);
SlConversionStatus   sl_conversion_match_get_op_status    (SlConversionMatch  *self,
                                                           guint               op);
SlConversionEvidence sl_conversion_match_get_op_evidence  (SlConversionMatch  *self,
                                                           guint               op);
guint                sl_conversion_match_get_op_n_sources (SlConversionMatch  *self,
                                                           guint               op);
/* The source op's name as the source graph shows it, or as the attribute
 * gives it when the source holds no such op (@found then FALSE). */
const char          *sl_conversion_match_get_op_source    (SlConversionMatch  *self,
                                                           guint               op,
                                                           guint               index,
                                                           gboolean           *found);
/* The sources joined by ", ". */
char                *sl_conversion_match_dup_op_sources   (SlConversionMatch  *self,
                                                           guint               op);

/* Source ops no converted op stands for, in graph then file order. */
guint                sl_conversion_match_get_n_removed    (SlConversionMatch  *self);
const char          *sl_conversion_match_get_removed_name (SlConversionMatch  *self,
                                                           guint               index);
const char          *sl_conversion_match_get_removed_type (SlConversionMatch  *self,
                                                           guint               index);

guint                sl_conversion_match_count            (SlConversionMatch  *self,
                                                           SlConversionStatus  status);

/* "kept", "fused", "inserted": the CLI's keys. */
const char          *sl_conversion_status_to_string       (SlConversionStatus  status);
/* What the view shows; translated. */
const char          *sl_conversion_status_to_label        (SlConversionStatus  status);

/* The names an original-op-names attribute's text lists, as readers
 * write a list of strings: `["a", "b"]` with C escapes, `[a, b]`, or one
 * name; a trailing "…" (a shortened list) is dropped. */
GPtrArray           *sl_conversion_parse_names            (const char         *text);
/* @name without ATC's suffixes, or %NULL when it has none. */
char                *sl_conversion_strip_name             (const char         *name);
/* Whether ATC adds ops of @op_type on its own (format and type changes,
 * AIPP, copies). */
gboolean             sl_conversion_is_inserted_type       (const char         *op_type);

G_END_DECLS
