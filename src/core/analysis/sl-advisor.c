/* sl-advisor.c
 *
 * For each rank: the op rows are taken out of their list models once
 * (a million rows, many rules), the step time is worked out, then every
 * rule of the book runs. Rules over the whole profile (slow rank) run
 * once. A rule the book names but the engine does not know is reported
 * as not run, so a newer rule book never goes silently unused.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "sl-advisor-private.h"
#include "sl-time-format.h"

#define CANCEL_MASK 0xffff

gboolean
sl_advisor_cancelled (SlAdvisorContext *ctx,
                      guint             i)
{
  return (i & CANCEL_MASK) == 0 && g_cancellable_is_cancelled (ctx->cancellable);
}

double
sl_advisor_threshold (SlAdvisorContext *ctx,
                      const char       *name)
{
  return sl_advisor_rule_book_get_threshold (ctx->book, ctx->rule, name);
}

GHashTable *
sl_advisor_values_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
sl_advisor_values_set (GHashTable *values,
                       const char *name,
                       char       *value)
{
  g_hash_table_insert (values, g_strdup (name), value);
}

char *
sl_advisor_format_time (gint64 ns)
{
  if (ns < 0)
    return g_strdup ("-");
  return sl_time_format_ns (ns, SL_TIME_UNIT_AUTO);
}

char *
sl_advisor_format_percent (double percent)
{
  if (!isfinite (percent) || percent < 0)
    return g_strdup ("-");
  return g_strdup_printf ("%.1f %%", percent);
}

void
sl_advisor_add_op_evidence (SlAdvisorFinding *finding,
                            SlOpRow          *row,
                            const char       *value)
{
  sl_advisor_finding_add_evidence (finding, sl_op_row_get_name (row), value,
                                   sl_op_row_get_source_path (row), sl_op_row_get_longest_line (row), -1);
}

SlAdvisorFinding *
sl_advisor_finding_begin (SlAdvisorContext *ctx)
{
  return sl_advisor_finding_new (ctx->rule, ctx->rank != NULL ? ctx->rank->label : NULL);
}

static SlAdvisorSeverity
grade (SlAdvisorContext *ctx,
       double            step_percent)
{
  switch (sl_advisor_rule_book_get_policy (ctx->book, ctx->rule))
    {
    case SL_ADVISOR_POLICY_FIXED_HIGH: return SL_ADVISOR_SEVERITY_HIGH;
    case SL_ADVISOR_POLICY_FIXED_MEDIUM: return SL_ADVISOR_SEVERITY_MEDIUM;
    case SL_ADVISOR_POLICY_FIXED_LOW: return SL_ADVISOR_SEVERITY_LOW;
    case SL_ADVISOR_POLICY_STEP_SHARE:
    default:
      if (step_percent >= sl_advisor_rule_book_get_high_percent (ctx->book))
        return SL_ADVISOR_SEVERITY_HIGH;
      if (step_percent >= sl_advisor_rule_book_get_medium_percent (ctx->book))
        return SL_ADVISOR_SEVERITY_MEDIUM;
      return SL_ADVISOR_SEVERITY_LOW;
    }
}

static double
percent_of_step (SlAdvisorContext *ctx,
                 gint64            per_step_ns)
{
  if (ctx->step_ns <= 0 || per_step_ns < 0)
    return -1;
  return 100.0 * (double)per_step_ns / (double)ctx->step_ns;
}

void
sl_advisor_finding_end (SlAdvisorContext *ctx,
                        SlAdvisorFinding *finding,
                        gint64            total_ns,
                        gint64            saving_total_ns,
                        GHashTable       *values)
{
  const SlAdvisorTexts *texts = sl_advisor_texts_lookup (ctx->rule);
  gint64 time_ns = total_ns >= 0 ? total_ns / ctx->n_steps : -1;
  gint64 saving_ns = saving_total_ns >= 0 ? saving_total_ns / ctx->n_steps : -1;
  double percent = percent_of_step (ctx, time_ns);
  g_autofree char *title = NULL, *message = NULL, *recommendation = NULL, *assumption = NULL;

  if (!g_hash_table_contains (values, "time"))
    sl_advisor_values_set (values, "time", sl_advisor_format_time (time_ns));
  if (!g_hash_table_contains (values, "percent"))
    sl_advisor_values_set (values, "percent", sl_advisor_format_percent (percent));

  title = g_strdup (texts != NULL ? _(texts->title) : ctx->rule);
  message = sl_advisor_texts_format_message (texts, values);
  recommendation = sl_advisor_texts_format (texts != NULL ? texts->recommendation : NULL, values);
  assumption = sl_advisor_texts_format (texts != NULL ? texts->assumption : NULL, values);
  if (!ctx->have_steps)
    {
      char *with_note = g_strdup_printf ("%s %s", assumption,
                                         _("The profile has no step trace, so the whole profile counts as one step."));

      g_free (assumption);
      assumption = with_note;
    }

  sl_advisor_finding_set_texts (finding, title, message, recommendation, assumption);
  sl_advisor_finding_set_time (finding, grade (ctx, percent), time_ns, percent, saving_ns,
                               percent_of_step (ctx, saving_ns));
  sl_advisor_report_add_finding (ctx->report, finding);
}

/* The rank's files that match @patterns (basenames, with * and ?), or
 * where they would have been when the profiler wrote none. */
static GStrv
looked_in (SlAdvisorContext  *ctx,
           const char *const *patterns)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  gboolean any = FALSE;

  if (ctx->rank == NULL)
    {
      g_strv_builder_add (builder, sl_profile_get_path (ctx->profile));
      return g_strv_builder_end (builder);
    }

  for (guint i = 0; i < ctx->rank->files->len; i++)
    {
      const char *path = g_ptr_array_index (ctx->rank->files, i);
      g_autofree char *base = g_path_get_basename (path);

      for (guint p = 0; patterns != NULL && patterns[p] != NULL; p++)
        if (g_pattern_match_simple (patterns[p], base))
          {
            g_strv_builder_add (builder, path);
            any = TRUE;
            break;
          }
    }
  if (!any)
    for (guint p = 0; patterns != NULL && patterns[p] != NULL; p++)
      {
        g_autofree char *where = g_build_filename (ctx->rank->dir, patterns[p], NULL);

        g_strv_builder_add (builder, where);
      }
  return g_strv_builder_end (builder);
}

void
sl_advisor_not_run (SlAdvisorContext  *ctx,
                    const char        *reason,
                    const char *const *patterns)
{
  const SlAdvisorTexts *texts = sl_advisor_texts_lookup (ctx->rule);
  g_auto(GStrv) paths = looked_in (ctx, patterns);

  sl_advisor_report_add_not_run (ctx->report, ctx->rule, ctx->rank != NULL ? ctx->rank->label : NULL, reason,
                                 texts != NULL ? _(texts->enable) : NULL, (const char *const *)paths);
}

static GPtrArray *
snapshot (GListModel *model)
{
  guint n = g_list_model_get_n_items (model);
  GPtrArray *rows = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (rows, g_list_model_get_item (model, i));
  return rows;
}

/* The mean of the steps whose total is a real duration: damaged rows
 * (negative, missing) do not drag it. Without steps, the profile's span
 * or its op time is one step. */
static void
measure_steps (SlAdvisorContext *ctx)
{
  SlStepTrace *steps = ctx->rank->steps;
  gint64 sum = 0;
  guint n = 0;

  for (guint i = 0; steps != NULL && i < sl_step_trace_get_n_steps (steps); i++)
    {
      const SlStep *step = sl_step_trace_get_step (steps, i);

      if (step->total_ns != SL_STEP_NO_TIME && step->total_ns > 0)
        {
          sum += step->total_ns;
          n++;
        }
    }

  ctx->have_steps = n > 0;
  ctx->n_steps = MAX (n, 1);
  if (n > 0)
    ctx->step_ns = sum / n;
  else if (ctx->rank->summary.total_ns > 0)
    ctx->step_ns = ctx->rank->summary.total_ns;
  else if (ctx->rank->summary.task_ns > 0)
    ctx->step_ns = ctx->rank->summary.task_ns;
  else
    ctx->step_ns = -1;
}

/* The block-dim rule's configured counts win over the device info's. */
static gint64
core_count_of (SlAdvisorContext  *ctx,
               const char        *threshold,
               const char *const *keys)
{
  double configured = sl_advisor_rule_book_get_threshold (ctx->book, "block-dim", threshold);

  if (isfinite (configured) && configured >= 1)
    return (gint64)configured;
  for (guint i = 0; keys[i] != NULL; i++)
    {
      const char *text = g_hash_table_lookup (ctx->rank->info, keys[i]);
      gint64 value;

      if (text != NULL && g_ascii_string_to_signed (text, 10, 1, 4096, &value, NULL))
        return value;
    }
  return -1;
}

static void
add_performance (SlAdvisorContext *ctx)
{
  static const char *const cube_keys[] = { "DeviceInfo.0.ai_core_num", "NPU_INFO.aicore_num", "ai_core_num", NULL };
  static const char *const vector_keys[] = { "DeviceInfo.0.aiv_num", "NPU_INFO.aiv_num", "aiv_num", NULL };
  SlPerformanceCores cores;

  cores.cube_cores = core_count_of (ctx, "ai_core_count", cube_keys);
  cores.vector_cores = core_count_of (ctx, "vector_core_count", vector_keys);
  sl_performance_report_add_rank (sl_advisor_report_get_performance (ctx->report), ctx->rank->label,
                                  ctx->instances, &cores);
}

static void
run_rule (SlAdvisorContext *ctx,
          const char       *id,
          gboolean          per_rank)
{
  const SlAdvisorRule *rule = sl_advisor_rules_lookup (id);

  ctx->rule = id;
  if (rule == NULL)
    {
      if (per_rank)
        sl_advisor_not_run (ctx, _("This version of Sightline has no implementation of the rule"), NULL);
      return;
    }
  if (rule->per_rank == per_rank)
    rule->func (ctx);
}

/**
 * sl_advisor_run:
 *
 * Returns: (transfer full): the report, or %NULL when cancelled
 */
SlAdvisorReport *
sl_advisor_run (SlProfile          *profile,
                SlAdvisorRuleBook  *book,
                GCancellable       *cancellable,
                GError            **error)
{
  g_autoptr(SlAdvisorReport) report = NULL;
  SlAdvisorContext ctx = { 0 };
  gboolean needs_trace;
  guint n_rules;

  g_return_val_if_fail (SL_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (book), NULL);

  report = sl_advisor_report_new (sl_profile_get_path (profile), book);
  ctx.book = book;
  ctx.report = report;
  ctx.profile = profile;
  ctx.cancellable = cancellable;
  n_rules = sl_advisor_rule_book_get_n_rules (book);
  needs_trace = sl_advisor_rule_book_needs (book, "trace-events");

  for (guint r = 0; r < sl_profile_get_n_ranks (profile); r++)
    {
      g_autoptr(GPtrArray) instances = NULL;
      g_autoptr(GPtrArray) types = NULL;

      ctx.rank = sl_profile_get_rank (profile, r);
      /* The rules judge one rank's work; a stage's maxima mix ranks. */
      if (ctx.rank->aggregate)
        continue;
      instances = snapshot (sl_op_table_get_instances (ctx.rank->ops));
      types = snapshot (sl_op_table_get_types (ctx.rank->ops));
      ctx.instances = instances;
      ctx.types = types;
      measure_steps (&ctx);
      if (needs_trace)
        sl_advisor_trace_open (&ctx);

      for (guint i = 0; i < n_rules; i++)
        {
          if (g_cancellable_is_cancelled (cancellable))
            break;
          run_rule (&ctx, sl_advisor_rule_book_get_rule_id (book, i), TRUE);
        }
      sl_advisor_trace_close (&ctx);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      add_performance (&ctx);
    }

  ctx.rank = NULL;
  ctx.instances = NULL;
  ctx.types = NULL;
  ctx.n_steps = 1;
  ctx.step_ns = -1;
  ctx.have_steps = TRUE;
  for (guint i = 0; i < n_rules; i++)
    run_rule (&ctx, sl_advisor_rule_book_get_rule_id (book, i), FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  sl_advisor_report_finish (report);
  return g_steal_pointer (&report);
}
