/* sl-step-trace.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-step-trace.h"

typedef struct {
  char    *key;
  char    *name;
  gssize   field;        /* offset of its SlStep field, -1 when stored in phase_values */
  gboolean translate;    /* the name is ours, not the source's */
} Phase;

struct _SlStepTrace
{
  gatomicrefcount  ref_count;
  char            *path;
  SlStepSource     source;
  GArray          *steps;        /* SlStep */
  GPtrArray       *extra_names;
  GArray          *extras;       /* gint64, n_steps x n_extra, row-major */
  GArray          *lines;        /* guint per step, 0 unknown */
  GArray          *phases;       /* Phase */
  GArray          *phase_values; /* gint64, n_steps x n_phases, row-major */
  SlStep           file_average;
  gboolean         has_file_average;
};

G_DEFINE_BOXED_TYPE (SlStepTrace, sl_step_trace, sl_step_trace_ref, sl_step_trace_unref)

static void
phase_clear (gpointer data)
{
  Phase *phase = data;

  g_free (phase->key);
  g_free (phase->name);
}

static guint
add_phase (SlStepTrace *self,
           const char  *key,
           const char  *name,
           gssize       field,
           gboolean     translate)
{
  Phase phase = { g_strdup (key), g_strdup (name), field, translate };

  g_array_append_val (self->phases, phase);
  return self->phases->len - 1;
}

SlStepTrace *
sl_step_trace_new (const char   *path,
                   SlStepSource  source)
{
  SlStepTrace *self = g_new0 (SlStepTrace, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->path = g_strdup (path);
  self->source = source;
  self->steps = g_array_new (FALSE, FALSE, sizeof (SlStep));
  self->extra_names = g_ptr_array_new_with_free_func (g_free);
  self->extras = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->lines = g_array_new (FALSE, TRUE, sizeof (guint));
  self->phases = g_array_new (FALSE, FALSE, sizeof (Phase));
  g_array_set_clear_func (self->phases, phase_clear);
  self->phase_values = g_array_new (FALSE, FALSE, sizeof (gint64));

  /* The phases these sources measure between their phase points. */
  if (source == SL_STEP_SOURCE_MINDSPORE || source == SL_STEP_SOURCE_MSPROF)
    {
      add_phase (self, "data_wait", N_("Data wait"), G_STRUCT_OFFSET (SlStep, data_wait_ns), TRUE);
      add_phase (self, "fp_bp", N_("FP+BP"), G_STRUCT_OFFSET (SlStep, fp_bp_ns), TRUE);
      add_phase (self, "tail", N_("Tail"), G_STRUCT_OFFSET (SlStep, tail_ns), TRUE);
    }
  return self;
}

SlStepTrace *
sl_step_trace_ref (SlStepTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
sl_step_trace_unref (SlStepTrace *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->path);
  g_array_unref (self->steps);
  g_ptr_array_unref (self->extra_names);
  g_array_unref (self->extras);
  g_array_unref (self->lines);
  g_array_unref (self->phases);
  g_array_unref (self->phase_values);
  g_free (self);
}

/**
 * sl_step_trace_add_extra_column:
 *
 * Adds a column before any step is added.
 *
 * Returns: the column index
 */
guint
sl_step_trace_add_extra_column (SlStepTrace *self,
                                const char  *name)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (name != NULL, 0);
  g_return_val_if_fail (self->steps->len == 0, 0);

  g_ptr_array_add (self->extra_names, g_strdup (name));
  return self->extra_names->len - 1;
}

/**
 * sl_step_trace_add_phase:
 * @key: stable, lower case with underscores
 * @name: as the source names it
 *
 * Adds a stacked phase whose values the trace stores, before any step is
 * added; its values are SL_STEP_NO_TIME until set.
 *
 * Returns: the phase index
 */
guint
sl_step_trace_add_phase (SlStepTrace *self,
                         const char  *key,
                         const char  *name)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (key != NULL && name != NULL, 0);
  g_return_val_if_fail (self->steps->len == 0, 0);
  g_return_val_if_fail (sl_step_trace_find_phase (self, key) < 0, 0);

  return add_phase (self, key, name, -1, FALSE);
}

guint
sl_step_trace_add_step (SlStepTrace  *self,
                        const SlStep *step)
{
  gint64 none = SL_STEP_NO_TIME;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (step != NULL, 0);

  g_array_append_vals (self->steps, step, 1);
  g_array_set_size (self->lines, self->steps->len);
  for (guint i = 0; i < self->extra_names->len; i++)
    g_array_append_val (self->extras, none);
  for (guint i = 0; i < self->phases->len; i++)
    g_array_append_val (self->phase_values, none);
  return self->steps->len - 1;
}

void
sl_step_trace_set_line (SlStepTrace *self,
                        guint        step_index,
                        guint        line)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (step_index < self->steps->len);

  g_array_index (self->lines, guint, step_index) = line;
}

guint
sl_step_trace_get_line (SlStepTrace *self,
                        guint        step_index)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (step_index < self->steps->len, 0);

  return g_array_index (self->lines, guint, step_index);
}

void
sl_step_trace_set_extra (SlStepTrace *self,
                         guint        step_index,
                         guint        column,
                         gint64       value_ns)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (step_index < self->steps->len);
  g_return_if_fail (column < self->extra_names->len);

  g_array_index (self->extras, gint64, step_index * self->extra_names->len + column) = value_ns;
}

void
sl_step_trace_set_phase (SlStepTrace *self,
                         guint        step_index,
                         guint        phase,
                         gint64       value_ns)
{
  const Phase *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (step_index < self->steps->len);
  g_return_if_fail (phase < self->phases->len);

  p = &g_array_index (self->phases, Phase, phase);
  if (p->field >= 0)
    G_STRUCT_MEMBER (gint64, &g_array_index (self->steps, SlStep, step_index), p->field) = value_ns;
  else
    g_array_index (self->phase_values, gint64, step_index * self->phases->len + phase) = value_ns;
}

void
sl_step_trace_set_file_average (SlStepTrace  *self,
                                const SlStep *average)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (average != NULL);

  self->file_average = *average;
  self->has_file_average = TRUE;
}

const char *
sl_step_trace_get_path (SlStepTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

SlStepSource
sl_step_trace_get_source (SlStepTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->source;
}

guint
sl_step_trace_get_n_steps (SlStepTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->steps->len;
}

const SlStep *
sl_step_trace_get_step (SlStepTrace *self,
                        guint        index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->steps->len, NULL);

  return &g_array_index (self->steps, SlStep, index);
}

static gint64
mean_of (SlStepTrace *self,
         gsize        field_offset)
{
  gint64 sum = 0;
  guint n = 0;

  for (guint i = 0; i < self->steps->len; i++)
    {
      const SlStep *step = &g_array_index (self->steps, SlStep, i);
      gint64 value = G_STRUCT_MEMBER (gint64, step, field_offset);

      if (value == SL_STEP_NO_TIME)
        continue;
      sum += value;
      n++;
    }

  return n > 0 ? (gint64)((sum + n / 2) / n) : SL_STEP_NO_TIME;
}

void
sl_step_trace_compute_average (SlStepTrace *self,
                               SlStep      *average)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (average != NULL);

  average->step = -1;
  average->start_ns = SL_STEP_NO_TIME;
  average->end_ns = SL_STEP_NO_TIME;
  average->fp_ns = SL_STEP_NO_TIME;
  average->bp_ns = SL_STEP_NO_TIME;
  average->total_ns = mean_of (self, G_STRUCT_OFFSET (SlStep, total_ns));
  average->data_wait_ns = mean_of (self, G_STRUCT_OFFSET (SlStep, data_wait_ns));
  average->fp_bp_ns = mean_of (self, G_STRUCT_OFFSET (SlStep, fp_bp_ns));
  average->tail_ns = mean_of (self, G_STRUCT_OFFSET (SlStep, tail_ns));
}

const SlStep *
sl_step_trace_get_file_average (SlStepTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->has_file_average ? &self->file_average : NULL;
}

guint
sl_step_trace_get_n_extra_columns (SlStepTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->extra_names->len;
}

const char *
sl_step_trace_get_extra_name (SlStepTrace *self,
                              guint        column)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (column < self->extra_names->len, NULL);

  return g_ptr_array_index (self->extra_names, column);
}

gint64
sl_step_trace_get_extra (SlStepTrace *self,
                         guint        step_index,
                         guint        column)
{
  g_return_val_if_fail (self != NULL, SL_STEP_NO_TIME);
  g_return_val_if_fail (step_index < self->steps->len, SL_STEP_NO_TIME);
  g_return_val_if_fail (column < self->extra_names->len, SL_STEP_NO_TIME);

  return g_array_index (self->extras, gint64, step_index * self->extra_names->len + column);
}

guint
sl_step_trace_get_n_phases (SlStepTrace *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->phases->len;
}

const char *
sl_step_trace_get_phase_key (SlStepTrace *self,
                             guint        phase)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (phase < self->phases->len, NULL);

  return g_array_index (self->phases, Phase, phase).key;
}

const char *
sl_step_trace_get_phase_name (SlStepTrace *self,
                              guint        phase)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (phase < self->phases->len, NULL);

  return g_array_index (self->phases, Phase, phase).name;
}

const char *
sl_step_trace_get_phase_label (SlStepTrace *self,
                               guint        phase)
{
  const Phase *p;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (phase < self->phases->len, NULL);

  p = &g_array_index (self->phases, Phase, phase);
  return p->translate ? _(p->name) : p->name;
}

int
sl_step_trace_find_phase (SlStepTrace *self,
                          const char  *key)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (key != NULL, -1);

  for (guint i = 0; i < self->phases->len; i++)
    if (g_str_equal (g_array_index (self->phases, Phase, i).key, key))
      return (int)i;
  return -1;
}

gint64
sl_step_trace_get_phase (SlStepTrace *self,
                         guint        step_index,
                         guint        phase)
{
  const Phase *p;

  g_return_val_if_fail (self != NULL, SL_STEP_NO_TIME);
  g_return_val_if_fail (step_index < self->steps->len, SL_STEP_NO_TIME);
  g_return_val_if_fail (phase < self->phases->len, SL_STEP_NO_TIME);

  p = &g_array_index (self->phases, Phase, phase);
  if (p->field >= 0)
    return G_STRUCT_MEMBER (gint64, &g_array_index (self->steps, SlStep, step_index), p->field);
  return g_array_index (self->phase_values, gint64, step_index * self->phases->len + phase);
}

gint64
sl_step_trace_get_phase_average (SlStepTrace *self,
                                 guint        phase)
{
  gint64 sum = 0;
  guint n = 0;

  g_return_val_if_fail (self != NULL, SL_STEP_NO_TIME);
  g_return_val_if_fail (phase < self->phases->len, SL_STEP_NO_TIME);

  for (guint i = 0; i < self->steps->len; i++)
    {
      gint64 value = sl_step_trace_get_phase (self, i, phase);

      if (value == SL_STEP_NO_TIME)
        continue;
      sum += value;
      n++;
    }
  return n > 0 ? (gint64)((sum + n / 2) / n) : SL_STEP_NO_TIME;
}

const char *
sl_step_source_to_string (SlStepSource source)
{
  switch (source)
    {
    case SL_STEP_SOURCE_MINDSPORE: return "mindspore";
    case SL_STEP_SOURCE_MSPROF: return "msprof";
    case SL_STEP_SOURCE_ASCEND_PT: return "ascend-pt";
    case SL_STEP_SOURCE_CLUSTER: return "cluster";
    case SL_STEP_SOURCE_DATABASE: return "database";
    default: return "unknown";
    }
}
