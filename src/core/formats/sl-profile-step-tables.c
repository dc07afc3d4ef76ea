/* sl-profile-step-tables.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-profile-step-tables.h"

#define REQUIRED SL_PROFILE_COLUMN_REQUIRED
#define VALUE    SL_PROFILE_COLUMN_VALUE
#define US       SL_PROFILE_UNIT_US

#define TABLE(kind_, files_, columns_) \
  .kind = SL_PROFILE_FILE_##kind_, .files = (files_), .columns = (columns_), .n_columns = G_N_ELEMENTS (columns_)

void
sl_profile_step_init (SlStep *step)
{
  step->step = -1;
  step->start_ns = step->end_ns = step->fp_ns = step->bp_ns = SL_STEP_NO_TIME;
  step->total_ns = step->data_wait_ns = step->fp_bp_ns = step->tail_ns = SL_STEP_NO_TIME;
}

static void
steal_trace (SlProfileTableRow *r)
{
  g_clear_pointer (&r->rank->steps, sl_step_trace_unref);
  r->rank->steps = g_steal_pointer (&r->state);
}

/* ------------------------------------------------------------------ */
/* msprof step_trace_*.csv (µs), the same phases as MindSpore's:
 *   total = Iteration Time; fp+bp = FP to BP Time;
 *   tail = Iteration Refresh (BP end to iteration end);
 *   data wait = Data Aug Bound (previous end to FP start);
 *   end = Iteration End, start = end - total.
 * Reduce Start/Duration are kept as extras. */

enum { MP_STEP, MP_FP, MP_BP, MP_END, MP_TOTAL, MP_FPBP, MP_REFRESH, MP_AUG, MP_REDUCE_START, MP_REDUCE_DUR };

static const SlProfileColumn msprof_step_columns[] = {
  [MP_STEP] = { .aliases = "Iteration ID|Step Id|Step", .name = "Iteration ID", .required = "Iteration ID",
                .flags = REQUIRED | VALUE },
  [MP_FP] = { .aliases = "FP Start(us)", .unit = US },
  [MP_BP] = { .aliases = "BP End(us)", .unit = US },
  [MP_END] = { .aliases = "Iteration End(us)", .unit = US },
  [MP_TOTAL] = { .aliases = "Iteration Time(us)", .required = "Iteration Time(us)", .unit = US, .flags = REQUIRED },
  [MP_FPBP] = { .aliases = "FP to BP Time(us)", .unit = US },
  [MP_REFRESH] = { .aliases = "Iteration Refresh(us)", .unit = US },
  [MP_AUG] = { .aliases = "Data Aug Bound(us)", .unit = US },
  [MP_REDUCE_START] = { .aliases = "Reduce Start(us)", .unit = US },
  [MP_REDUCE_DUR] = { .aliases = "Reduce Duration(us)", .unit = US },
};

static gpointer
msprof_step_begin (SlProfileTableRow *r)
{
  SlStepTrace *trace = sl_step_trace_new (r->path, SL_STEP_SOURCE_MSPROF);

  sl_step_trace_add_extra_column (trace, "Reduce Start");
  sl_step_trace_add_extra_column (trace, "Reduce Duration");
  return trace;
}

static void
msprof_step_row (SlProfileTableRow *r)
{
  SlStepTrace *trace = r->state;
  SlStep step;
  guint index;

  sl_profile_step_init (&step);
  step.step = r->value;
  step.fp_ns = sl_profile_table_row_ns (r, MP_FP, SL_STEP_NO_TIME);
  step.bp_ns = sl_profile_table_row_ns (r, MP_BP, SL_STEP_NO_TIME);
  step.end_ns = sl_profile_table_row_ns (r, MP_END, SL_STEP_NO_TIME);
  step.total_ns = sl_profile_table_row_ns (r, MP_TOTAL, SL_STEP_NO_TIME);
  step.fp_bp_ns = sl_profile_table_row_ns (r, MP_FPBP, SL_STEP_NO_TIME);
  step.tail_ns = sl_profile_table_row_ns (r, MP_REFRESH, SL_STEP_NO_TIME);
  step.data_wait_ns = sl_profile_table_row_ns (r, MP_AUG, SL_STEP_NO_TIME);
  if (step.end_ns != SL_STEP_NO_TIME && step.total_ns != SL_STEP_NO_TIME)
    step.start_ns = step.end_ns - step.total_ns;

  index = sl_step_trace_add_step (trace, &step);
  sl_step_trace_set_line (trace, index, sl_profile_table_row_line (r));
  sl_step_trace_set_extra (trace, index, 0, sl_profile_table_row_ns (r, MP_REDUCE_START, SL_STEP_NO_TIME));
  sl_step_trace_set_extra (trace, index, 1, sl_profile_table_row_ns (r, MP_REDUCE_DUR, SL_STEP_NO_TIME));
}

const SlProfileTableSpec sl_profile_msprof_step_table = {
  TABLE (MSPROF_STEP, "step_trace_*.csv", msprof_step_columns),
  .begin = msprof_step_begin,
  .row = msprof_step_row,
  .end = steal_trace,
  .free_state = (GDestroyNotify)sl_step_trace_unref,
};

/* ------------------------------------------------------------------ */
/* torch_npu's overlap analysis per step (µs) has no phase points, so no
 * data wait, forward+backward or tail: its first three columns stack up
 * to the step time (total = Computing + Communication(Not Overlapped) +
 * Free, as torch_npu defines it) and are the trace's phases, under their
 * own names; the others are extras. The cluster table has the same
 * columns per rank. */

#define N_PT_PHASES 3
#define N_PT_COLUMNS 9

static const char *const pt_phase_keys[N_PT_PHASES] = {
  "computing", "communication_not_overlapped", "free",
};

/* find_column splits on '|' only, and these names have none. */
#define PT_STEP_COLUMNS \
  { .aliases = "Computing", .required = "Computing", .unit = US, .flags = REQUIRED }, \
  { .aliases = "Communication(Not Overlapped)", .unit = US }, \
  { .aliases = "Free", .unit = US }, \
  { .aliases = "Overlapped", .unit = US }, \
  { .aliases = "Communication", .unit = US }, \
  { .aliases = "Stage", .unit = US }, \
  { .aliases = "Bubble", .unit = US }, \
  { .aliases = "Communication(Not Overlapped and Exclude Receive)", .unit = US }, \
  { .aliases = "Preparing", .unit = US }

static SlStepTrace *
new_pt_trace (SlProfileTableRow *r,
              guint              first,
              SlStepSource       source)
{
  SlStepTrace *trace = sl_step_trace_new (r->path, source);

  for (guint i = 0; i < N_PT_COLUMNS; i++)
    {
      const char *name = r->spec->columns[first + i].aliases;

      if (i < N_PT_PHASES)
        sl_step_trace_add_phase (trace, pt_phase_keys[i], name);
      else
        sl_step_trace_add_extra_column (trace, name);
    }
  return trace;
}

static void
add_pt_step (SlStepTrace       *trace,
             SlProfileTableRow *r,
             guint              first,
             gint64             step_id)
{
  SlStep step;
  gint64 values[N_PT_COLUMNS];
  guint index;

  for (guint i = 0; i < N_PT_COLUMNS; i++)
    values[i] = sl_profile_table_row_ns (r, first + i, SL_STEP_NO_TIME);

  sl_profile_step_init (&step);
  step.step = step_id;
  if (values[0] != SL_STEP_NO_TIME && values[1] != SL_STEP_NO_TIME && values[2] != SL_STEP_NO_TIME)
    step.total_ns = values[0] + values[1] + values[2];

  index = sl_step_trace_add_step (trace, &step);
  sl_step_trace_set_line (trace, index, sl_profile_table_row_line (r));
  for (guint i = 0; i < N_PT_PHASES; i++)
    sl_step_trace_set_phase (trace, index, i, values[i]);
  for (guint i = N_PT_PHASES; i < N_PT_COLUMNS; i++)
    sl_step_trace_set_extra (trace, index, i - N_PT_PHASES, values[i]);
}

enum { PT_STEP, PT_FIRST };

static const SlProfileColumn pt_step_columns[] = {
  [PT_STEP] = { .aliases = "Step|Step Id" },
  PT_STEP_COLUMNS,
};

G_STATIC_ASSERT (G_N_ELEMENTS (pt_step_columns) == PT_FIRST + N_PT_COLUMNS);

static gpointer
pt_step_begin (SlProfileTableRow *r)
{
  return new_pt_trace (r, PT_FIRST, SL_STEP_SOURCE_ASCEND_PT);
}

static void
pt_step_row (SlProfileTableRow *r)
{
  /* An empty step number: a profile taken without a step schedule. */
  add_pt_step (r->state, r, PT_FIRST, sl_profile_table_row_int (r, PT_STEP, 0));
}

const SlProfileTableSpec sl_profile_pt_step_table = {
  TABLE (PT_STEP, "ASCEND_PROFILER_OUTPUT/step_trace_time.csv", pt_step_columns),
  .begin = pt_step_begin,
  .row = pt_step_row,
  .end = steal_trace,
  .free_state = (GDestroyNotify)sl_step_trace_unref,
};

/* ------------------------------------------------------------------ */
/* msprof-analyze's cluster_step_trace_time.csv: one row per rank (or
 * stage) and step; each "Type Index" becomes a rank of its own. */

enum { CS_STEP, CS_TYPE, CS_INDEX, CS_FIRST };

static const SlProfileColumn cluster_step_columns[] = {
  [CS_STEP] = { .aliases = "Step" },
  [CS_TYPE] = { .aliases = "Type" },
  [CS_INDEX] = { .aliases = "Index", .required = "Index", .flags = REQUIRED },
  PT_STEP_COLUMNS,
};

G_STATIC_ASSERT (G_N_ELEMENTS (cluster_step_columns) == CS_FIRST + N_PT_COLUMNS);

typedef struct {
  GHashTable *by_index;   /* "type index" → SlProfileRank */
  char       *dir;
} ClusterStep;

static void
cluster_step_free (ClusterStep *state)
{
  g_hash_table_unref (state->by_index);
  g_free (state->dir);
  g_free (state);
}

static gpointer
cluster_step_begin (SlProfileTableRow *r)
{
  ClusterStep *state = g_new0 (ClusterStep, 1);

  state->by_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  state->dir = g_path_get_dirname (r->path);
  return state;
}

static void
cluster_step_row (SlProfileTableRow *r)
{
  ClusterStep *state = r->state;
  g_autofree char *type = sl_profile_clean_text (sl_profile_table_row_text (r, CS_TYPE));
  g_autofree char *index = sl_profile_clean_text (sl_profile_table_row_text (r, CS_INDEX));
  g_autofree char *key = g_strdup_printf ("%s %s", type != NULL ? type : "", index != NULL ? index : "");
  SlProfileRank *rank;

  rank = g_hash_table_lookup (state->by_index, key);
  if (rank == NULL)
    {
      rank = sl_profile_add_rank (r->profile, state->dir, SL_PROFILE_LAYOUT_CLUSTER);
      g_free (rank->label);
      rank->label = g_strstrip (g_strdup (key));
      if (type != NULL && g_str_equal (type, "rank"))
        rank->rank_id = sl_profile_parse_int_or (index, -1);
      /* A stage row holds each column's maximum over its ranks. */
      rank->aggregate = type != NULL && g_str_equal (type, "stage");
      rank->steps = new_pt_trace (r, CS_FIRST, SL_STEP_SOURCE_CLUSTER);
      g_ptr_array_add (rank->files, g_strdup (r->path));
      g_hash_table_insert (state->by_index, g_steal_pointer (&key), rank);
    }
  add_pt_step (rank->steps, r, CS_FIRST, sl_profile_table_row_int (r, CS_STEP, 0));
}

const SlProfileTableSpec sl_profile_cluster_step_table = {
  TABLE (CLUSTER_STEP, "cluster_analysis_output/cluster_step_trace_time.csv", cluster_step_columns),
  .begin = cluster_step_begin,
  .row = cluster_step_row,
  .free_state = (GDestroyNotify)cluster_step_free,
};
