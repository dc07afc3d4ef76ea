/* sl-tensor-call-rules.h: msprobe's rules that set an API call's outputs
 * against its inputs
 *
 * One pair at a time cannot tell an op that breaks from one that only
 * passes on what broke before it. msprobe therefore also compares each
 * output of a call with the call's inputs (and parameters, which it
 * counts with them): an output that departs when every input agrees is
 * where a divergence starts (an error), and an output whose norm error
 * or cosine is much worse than its inputs' is worth a look (a warning).
 * The rules use what each pair has: one-thousandth ratios and cosines
 * where the data was compared, the recorded norms in statistics-only
 * dumps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An input agrees when more than this share of its elements has a
 * relative error below one thousandth; an output that does not reach it
 * either, while all inputs do, is an error. */
#define SL_TENSOR_CALL_AGREEMENT_RATIO 0.9
/* An output's norm relative error more than this many times the largest
 * of its inputs' is a warning... */
#define SL_TENSOR_CALL_NORM_GROWTH     10.0
/* ...once it is itself above one thousandth: below that the norms agree
 * and ten times next to nothing is still nothing. */
#define SL_TENSOR_CALL_NORM_FLOOR      0.001
/* An output whose cosine is more than this below its inputs' lowest is a
 * warning. */
#define SL_TENSOR_CALL_COSINE_DROP     0.1

/* Applies the rules to @rows (SlTensorCompareRow, each already judged on
 * its own), grouped by their msprobe call; rows outside msprobe dumps
 * are left alone. */
void sl_tensor_call_rules_apply (GPtrArray *rows);

G_END_DECLS
