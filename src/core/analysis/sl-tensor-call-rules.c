/* sl-tensor-call-rules.c: msprobe's rules that set an API call's outputs
 * against its inputs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "sl-tensor-call-rules.h"
#include "sl-tensor-compare-row.h"

/* The rows of one call, in execution order. */
typedef struct {
  GPtrArray *inputs;    /* inputs and parameters */
  GPtrArray *outputs;
} Call;

/* What the outputs are measured against. */
typedef struct {
  gboolean all_agree;       /* every input's one-thousandth ratio is above the bar */
  double   lowest_ratio;
  double   lowest_cosine;   /* NaN when no input has one */
  double   largest_norm;    /* norm relative error; NaN when no input has one */
} Inputs;

static Call *
call_new (void)
{
  Call *call = g_new0 (Call, 1);

  call->inputs = g_ptr_array_new ();
  call->outputs = g_ptr_array_new ();
  return call;
}

static void
call_free (gpointer data)
{
  Call *call = data;

  g_ptr_array_unref (call->inputs);
  g_ptr_array_unref (call->outputs);
  g_free (call);
}

static double
thousandth_ratio (SlTensorCompareRow *row)
{
  const SlTensorComparison *metrics = sl_tensor_compare_row_get_metrics (row);

  return metrics != NULL && metrics->computed ? metrics->one_thousandth_err_ratio : NAN;
}

static double
cosine (SlTensorCompareRow *row)
{
  const SlTensorComparison *metrics = sl_tensor_compare_row_get_metrics (row);

  return metrics != NULL && metrics->computed ? metrics->cosine : NAN;
}

static double
norm_relative_error (SlTensorCompareRow *row)
{
  const SlStatsComparison *summary = sl_tensor_compare_row_get_summary (row);

  return summary != NULL ? summary->norm.relative : NAN;
}

/* NaN stands for "none yet" and never wins. */
static double
lower (double a,
       double b)
{
  return isnan (a) || b < a ? b : a;
}

static double
higher (double a,
        double b)
{
  return isnan (a) || b > a ? b : a;
}

static Inputs
measure_inputs (GPtrArray *inputs)
{
  Inputs measured = { inputs->len > 0, NAN, NAN, NAN };

  for (guint i = 0; i < inputs->len; i++)
    {
      SlTensorCompareRow *row = g_ptr_array_index (inputs, i);
      double ratio = thousandth_ratio (row);
      double cos = cosine (row);
      double norm = norm_relative_error (row);

      /* An input that could not be compared does not agree. */
      if (!(ratio > SL_TENSOR_CALL_AGREEMENT_RATIO) || sl_tensor_compare_row_get_failed (row))
        measured.all_agree = FALSE;
      if (!isnan (ratio))
        measured.lowest_ratio = lower (measured.lowest_ratio, ratio);
      if (isfinite (cos))
        measured.lowest_cosine = lower (measured.lowest_cosine, cos);
      if (isfinite (norm))
        measured.largest_norm = higher (measured.largest_norm, norm);
    }
  return measured;
}

static void
check_agreement (SlTensorCompareRow *output,
                 const Inputs       *inputs)
{
  double ratio = thousandth_ratio (output);
  g_autofree char *reason = NULL;

  if (!inputs->all_agree || isnan (ratio) || ratio > SL_TENSOR_CALL_AGREEMENT_RATIO)
    return;
  reason = g_strdup_printf (_("The inputs agree but this output does not: every input's one-thousandth error ratio "
                              "is above %.2g (the lowest is %.4g), this output's is %.4g."),
                            SL_TENSOR_CALL_AGREEMENT_RATIO, inputs->lowest_ratio, ratio);
  sl_tensor_compare_row_raise_verdict (output, SL_TENSOR_VERDICT_ERROR, reason);
}

static void
check_norm_growth (SlTensorCompareRow *output,
                   const Inputs       *inputs)
{
  double norm = norm_relative_error (output);
  g_autofree char *reason = NULL;

  if (isnan (inputs->largest_norm) || !isfinite (norm) || norm <= SL_TENSOR_CALL_NORM_FLOOR ||
      norm <= SL_TENSOR_CALL_NORM_GROWTH * inputs->largest_norm)
    return;
  reason = g_strdup_printf (_("The norm's relative error grows from the inputs to this output: %.4g here, "
                              "more than %g times the largest input's (%.4g)."),
                            norm, SL_TENSOR_CALL_NORM_GROWTH, inputs->largest_norm);
  sl_tensor_compare_row_raise_verdict (output, SL_TENSOR_VERDICT_WARNING, reason);
}

static void
check_cosine_drop (SlTensorCompareRow *output,
                   const Inputs       *inputs)
{
  double cos = cosine (output);
  g_autofree char *reason = NULL;

  if (isnan (inputs->lowest_cosine) || !isfinite (cos) || inputs->lowest_cosine - cos <= SL_TENSOR_CALL_COSINE_DROP)
    return;
  reason = g_strdup_printf (_("The cosine drops by %.4g from the inputs' lowest (%.4g) to this output (%.4g), "
                              "more than %.2g."),
                            inputs->lowest_cosine - cos, inputs->lowest_cosine, cos, SL_TENSOR_CALL_COSINE_DROP);
  sl_tensor_compare_row_raise_verdict (output, SL_TENSOR_VERDICT_WARNING, reason);
}

static void
judge_call (Call *call)
{
  Inputs inputs;

  if (call->inputs->len == 0 || call->outputs->len == 0)
    return;
  inputs = measure_inputs (call->inputs);
  for (guint i = 0; i < call->outputs->len; i++)
    {
      SlTensorCompareRow *output = g_ptr_array_index (call->outputs, i);

      if (sl_tensor_compare_row_get_failed (output))
        continue;
      check_agreement (output, &inputs);
      check_norm_growth (output, &inputs);
      check_cosine_drop (output, &inputs);
    }
}

void
sl_tensor_call_rules_apply (GPtrArray *rows)
{
  g_autoptr(GHashTable) calls = NULL;
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (rows != NULL);

  calls = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, call_free);
  for (guint i = 0; i < rows->len; i++)
    {
      SlTensorCompareRow *row = g_ptr_array_index (rows, i);
      const char *name = sl_tensor_compare_row_get_call (row);
      Call *call;

      if (name == NULL)
        continue;
      if ((call = g_hash_table_lookup (calls, name)) == NULL)
        g_hash_table_insert (calls, (gpointer) name, call = call_new ());
      g_ptr_array_add (sl_tensor_compare_row_get_io (row) == SL_MSPROBE_OUTPUT ? call->outputs : call->inputs, row);
    }
  g_hash_table_iter_init (&iter, calls);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    judge_call (value);
}
