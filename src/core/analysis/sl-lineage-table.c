/* sl-lineage-table.c
 *
 * A run's values come from its summary run: the train lineage gives the
 * hyperparameters, the train dataset, the loss and the model; the
 * evaluation lineage its metric JSON and the validation dataset; the
 * user-defined events their values. The reader already joins the
 * lineage files of one run and lets a later event replace an earlier
 * one. A TensorBoard session's hyperparameters come from its HParams
 * data; its metrics are the last values of the scalar tags an HParams
 * experiment anywhere below the folder names, or of every scalar tag of
 * the run when no experiment does (as TensorBoard does then).
 *
 * Filters are per column, a range for numbers and a set of values for
 * categories; a run without a value fails its column's filter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-lineage-table.h"
#include "sl-summary-reader.h"

typedef struct {
  gboolean    active;
  gboolean    is_range;
  double      min;
  double      max;
  GHashTable *values;   /* set of allowed texts */
} Filter;

struct _SlLineageTable
{
  GObject    parent_instance;

  GPtrArray *runs;       /* SlLineageRun */
  GPtrArray *columns;    /* SlLineageColumn */
  GArray    *filters;    /* Filter, one a column */
  GPtrArray *problems;   /* SlProblem */
};

G_DEFINE_FINAL_TYPE (SlLineageTable, sl_lineage_table, G_TYPE_OBJECT)

static void
column_free (gpointer data)
{
  SlLineageColumn *column = data;

  g_free (column->key);
  g_free (column->id);
  g_clear_pointer (&column->categories, g_ptr_array_unref);
  g_free (column);
}

static void
filter_clear (gpointer data)
{
  Filter *filter = data;

  g_clear_pointer (&filter->values, g_hash_table_unref);
  filter->active = FALSE;
}

static void
sl_lineage_table_finalize (GObject *object)
{
  SlLineageTable *self = SL_LINEAGE_TABLE (object);

  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->columns, g_ptr_array_unref);
  g_clear_pointer (&self->filters, g_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_lineage_table_parent_class)->finalize (object);
}

static void
sl_lineage_table_class_init (SlLineageTableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_lineage_table_finalize;
}

static void
sl_lineage_table_init (SlLineageTable *self)
{
  self->runs = g_ptr_array_new_with_free_func (g_object_unref);
  self->columns = g_ptr_array_new_with_free_func (column_free);
  self->filters = g_array_new (FALSE, TRUE, sizeof (Filter));
  g_array_set_clear_func (self->filters, filter_clear);
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
}

SlLineageTable *
sl_lineage_table_new (void)
{
  return g_object_new (SL_TYPE_LINEAGE_TABLE, NULL);
}

/* ------------------------------------------------------------------ */
/* From summary runs                                                   */
/* ------------------------------------------------------------------ */

typedef struct {
  const char     *key;
  SlLineageGroup  group;
  const char     *as;
} TrainKey;

static const TrainKey train_keys[] = {
  { "optimizer", SL_LINEAGE_GROUP_HYPERPARAMETERS, "optimizer" },
  { "learning_rate", SL_LINEAGE_GROUP_HYPERPARAMETERS, "learning_rate" },
  { "loss_function", SL_LINEAGE_GROUP_HYPERPARAMETERS, "loss_function" },
  { "epoch", SL_LINEAGE_GROUP_HYPERPARAMETERS, "epoch" },
  { "parallel_mode", SL_LINEAGE_GROUP_HYPERPARAMETERS, "parallel_mode" },
  { "device_num", SL_LINEAGE_GROUP_HYPERPARAMETERS, "device_num" },
  { "batch_size", SL_LINEAGE_GROUP_HYPERPARAMETERS, "batch_size" },
  { "network", SL_LINEAGE_GROUP_HYPERPARAMETERS, "network" },
  { "loss", SL_LINEAGE_GROUP_METRICS, "loss" },
  { "train_dataset_path", SL_LINEAGE_GROUP_DATASET, "train_dataset_path" },
  { "train_dataset_size", SL_LINEAGE_GROUP_DATASET, "train_dataset_size" },
  { "model_path", SL_LINEAGE_GROUP_MODEL, "path" },
  { "model_size", SL_LINEAGE_GROUP_MODEL, "size" },
};

static const char *
lineage_file_path (SlSummaryRun *summary)
{
  for (guint i = 0; i < sl_summary_run_get_n_files (summary); i++)
    if (sl_summary_run_get_file (summary, i)->kind == SL_SUMMARY_FILE_LINEAGE)
      return sl_summary_run_get_file (summary, i)->path;
  return sl_summary_run_get_path (summary);
}

static char *
dup_json_value_text (JsonNode *node)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
        case G_TYPE_DOUBLE:
          return g_strdup (sl_lineage_format_number (json_node_get_double (node), buf, sizeof buf));
        case G_TYPE_BOOLEAN:
          return g_strdup (json_node_get_boolean (node) ? "true" : "false");
        default:
          return g_strdup (json_node_get_string (node));
        }
    }
  return json_to_string (node, FALSE);
}

/* The evaluation metric is a JSON object of name → value; anything else
 * is said, and the run keeps its other values. */
static void
add_metrics (SlLineageTable *self,
             SlLineageRun   *run,
             SlSummaryRun   *summary,
             const char     *metric)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  if (!json_parser_load_from_data (parser, metric, -1, &error) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_autofree char *message = g_strdup_printf (_("The evaluation metric of run %s is not a JSON object: %s"),
                                                  sl_lineage_run_get_name (run),
                                                  error != NULL ? error->message : _("another JSON value"));

      g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, "lineage", lineage_file_path (summary),
                                                     -1, message);

      sl_lineage_table_add_problem (self, problem);
      return;
    }

  object = json_node_get_object (json_parser_get_root (parser));
  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &node))
    {
      g_autofree char *text = dup_json_value_text (node);

      if (text != NULL)
        sl_lineage_run_set (run, SL_LINEAGE_GROUP_METRICS, name, text);
    }
}

/* The scalar tags whose last value is a TensorBoard session's metric. */
static void
add_hparams_metrics (SlLineageRun *run,
                     SlSummaryRun *summary,
                     GStrv         experiment_tags)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < sl_summary_run_get_n_tags (summary); i++)
    {
      const char *tag = sl_summary_run_get_tag_name (summary, i);
      SlScalarSeries *series;
      guint n;

      if (sl_summary_run_get_tag_kind (summary, i) != SL_SUMMARY_TAG_SCALAR)
        continue;
      if (experiment_tags[0] != NULL && !g_strv_contains ((const char * const *) experiment_tags, tag))
        continue;
      series = sl_summary_run_get_tag_series (summary, i);
      n = sl_scalar_series_get_n_points (series);
      if (n > 0)
        sl_lineage_run_set (run, SL_LINEAGE_GROUP_METRICS, tag,
                            sl_lineage_format_number (sl_scalar_series_get_values (series)[n - 1], buf, sizeof buf));
    }
}

static char *
dup_run_name (SlSummaryRun *summary)
{
  if (g_strcmp0 (sl_summary_run_get_name (summary), ".") == 0)
    return g_path_get_basename (sl_summary_run_get_path (summary));
  return g_strdup (sl_summary_run_get_name (summary));
}

static SlLineageRun *
run_from_summary (SlLineageTable *self,
                  SlSummaryRun   *summary,
                  GStrv           experiment_tags)
{
  g_autofree char *name = dup_run_name (summary);
  g_autoptr(SlLineageRun) run = sl_lineage_run_new (name, sl_summary_run_get_path (summary));
  const char *metric;

  for (guint i = 0; i < G_N_ELEMENTS (train_keys); i++)
    {
      const char *value = sl_summary_run_get_lineage (summary, SL_LINEAGE_TRAIN, train_keys[i].key);

      if (value != NULL)
        sl_lineage_run_set (run, train_keys[i].group, train_keys[i].as, value);
    }

  /* The evaluation's own loss, if it has one, is the one to compare. */
  if ((metric = sl_summary_run_get_lineage (summary, SL_LINEAGE_EVAL, "metric")) != NULL)
    add_metrics (self, run, summary, metric);
  sl_lineage_run_set (run, SL_LINEAGE_GROUP_DATASET, "valid_dataset_path",
                      sl_summary_run_get_lineage (summary, SL_LINEAGE_EVAL, "valid_dataset_path"));
  sl_lineage_run_set (run, SL_LINEAGE_GROUP_DATASET, "valid_dataset_size",
                      sl_summary_run_get_lineage (summary, SL_LINEAGE_EVAL, "valid_dataset_size"));

  {
    g_auto(GStrv) keys = sl_summary_run_dup_lineage_keys (summary, SL_LINEAGE_USER);

    for (guint i = 0; keys[i] != NULL; i++)
      sl_lineage_run_set (run, SL_LINEAGE_GROUP_USER_DEFINED, keys[i],
                          sl_summary_run_get_lineage (summary, SL_LINEAGE_USER, keys[i]));
  }

  {
    g_auto(GStrv) keys = sl_summary_run_dup_lineage_keys (summary, SL_LINEAGE_HPARAMS);

    for (guint i = 0; keys[i] != NULL; i++)
      sl_lineage_run_set (run, SL_LINEAGE_GROUP_HYPERPARAMETERS, keys[i],
                          sl_summary_run_get_lineage (summary, SL_LINEAGE_HPARAMS, keys[i]));
    if (keys[0] != NULL)
      add_hparams_metrics (run, summary, experiment_tags);
  }

  sl_lineage_run_set_dataset_graph (run, sl_summary_run_get_dataset_graph (summary), lineage_file_path (summary));
  return g_steal_pointer (&run);
}

static GStrv
dup_experiment_tags (GPtrArray *summaries)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < summaries->len; i++)
    {
      g_auto(GStrv) tags = sl_summary_run_dup_lineage_keys (g_ptr_array_index (summaries, i),
                                                            SL_LINEAGE_HPARAMS_METRICS);

      for (guint t = 0; tags[t] != NULL; t++)
        if (g_hash_table_add (seen, tags[t]))
          g_strv_builder_add (builder, tags[t]);
    }
  return g_strv_builder_end (builder);
}

/**
 * sl_lineage_table_load:
 * @path: a folder of runs, one run's folder or one file
 *
 * Reads every run below @path; runs without lineage or HParams data are
 * left out. Damaged records are kept in the problems, with their file
 * and offset.
 *
 * Returns: (transfer full): the table, or %NULL when @path cannot be read
 */
SlLineageTable *
sl_lineage_table_load (const char    *path,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(SlSummaryReader) reader = NULL;
  g_autoptr(SlLineageTable) self = NULL;
  g_auto(GStrv) experiment_tags = NULL;
  GPtrArray *summaries;

  g_return_val_if_fail (path != NULL, NULL);

  reader = sl_summary_reader_new (path);
  if (!sl_summary_reader_update (reader, cancellable, error))
    return NULL;

  self = sl_lineage_table_new ();
  summaries = sl_summary_reader_get_runs (reader);
  experiment_tags = dup_experiment_tags (summaries);
  for (guint i = 0; i < summaries->len; i++)
    {
      SlSummaryRun *summary = g_ptr_array_index (summaries, i);
      g_autoptr(SlLineageRun) run = run_from_summary (self, summary, experiment_tags);
      GPtrArray *problems = sl_summary_run_get_problems (summary);

      for (guint p = 0; p < problems->len; p++)
        sl_lineage_table_add_problem (self, g_ptr_array_index (problems, p));
      if (!sl_lineage_run_is_empty (run))
        sl_lineage_table_add_run (self, run);
    }

  sl_lineage_table_update_columns (self);
  return g_steal_pointer (&self);
}

void
sl_lineage_table_add_run (SlLineageTable *self,
                          SlLineageRun   *run)
{
  g_return_if_fail (SL_IS_LINEAGE_TABLE (self));
  g_return_if_fail (SL_IS_LINEAGE_RUN (run));

  g_ptr_array_add (self->runs, g_object_ref (run));
}

void
sl_lineage_table_add_problem (SlLineageTable *self,
                              SlProblem      *problem)
{
  g_return_if_fail (SL_IS_LINEAGE_TABLE (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_ptr_array_add (self->problems, g_object_ref (problem));
}

/* ------------------------------------------------------------------ */
/* Columns                                                             */
/* ------------------------------------------------------------------ */

static int
compare_texts (gconstpointer a,
               gconstpointer b)
{
  return g_utf8_collate (*(const char * const *) a, *(const char * const *) b);
}

/* A column is numeric when every value it has reads as a number. */
static void
type_column (SlLineageTable  *self,
             SlLineageColumn *column)
{
  g_autoptr(GHashTable) distinct = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean numeric = TRUE;

  column->n_values = 0;
  column->min = INFINITY;
  column->max = -INFINITY;
  g_clear_pointer (&column->categories, g_ptr_array_unref);
  column->categories = g_ptr_array_new_with_free_func (g_free);

  for (guint r = 0; r < self->runs->len; r++)
    {
      const char *text = sl_lineage_run_get (g_ptr_array_index (self->runs, r), column->group, column->key);
      double value;

      if (text == NULL)
        continue;
      column->n_values++;
      if (g_hash_table_add (distinct, (gpointer) text))
        g_ptr_array_add (column->categories, g_strdup (text));
      if (numeric && sl_lineage_parse_number (text, &value))
        {
          column->min = MIN (column->min, value);
          column->max = MAX (column->max, value);
        }
      else
        numeric = FALSE;
    }

  column->type = numeric && column->n_values > 0 ? SL_LINEAGE_COLUMN_NUMERIC : SL_LINEAGE_COLUMN_CATEGORICAL;
  if (column->type == SL_LINEAGE_COLUMN_CATEGORICAL)
    {
      column->min = column->max = NAN;
      g_ptr_array_sort (column->categories, compare_texts);
    }
}

/**
 * sl_lineage_table_update_columns:
 *
 * Finds the columns after runs were added: by group, then in the order a
 * run first had the key; clears the filters.
 */
void
sl_lineage_table_update_columns (SlLineageTable *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_if_fail (SL_IS_LINEAGE_TABLE (self));

  g_ptr_array_set_size (self->columns, 0);
  for (guint group = 0; group < SL_LINEAGE_N_GROUPS; group++)
    for (guint r = 0; r < self->runs->len; r++)
      {
        SlLineageRun *run = g_ptr_array_index (self->runs, r);

        for (guint k = 0; k < sl_lineage_run_get_n_keys (run, group); k++)
          {
            const char *key = sl_lineage_run_get_key (run, group, k);
            char *id = g_strconcat (sl_lineage_group_to_string (group), "/", key, NULL);
            SlLineageColumn *column;

            if (!g_hash_table_add (seen, id))
              continue;
            column = g_new0 (SlLineageColumn, 1);
            column->group = group;
            column->key = g_strdup (key);
            column->id = g_strdup (id);
            type_column (self, column);
            g_ptr_array_add (self->columns, column);
          }
      }

  g_array_set_size (self->filters, 0);
  g_array_set_size (self->filters, self->columns->len);
}

guint
sl_lineage_table_get_n_runs (SlLineageTable *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), 0);
  return self->runs->len;
}

SlLineageRun *
sl_lineage_table_get_run (SlLineageTable *self,
                          guint           index)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), NULL);
  g_return_val_if_fail (index < self->runs->len, NULL);
  return g_ptr_array_index (self->runs, index);
}

gint
sl_lineage_table_find_run (SlLineageTable *self,
                           const char     *name)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint i = 0; i < self->runs->len; i++)
    if (g_str_equal (sl_lineage_run_get_name (g_ptr_array_index (self->runs, i)), name))
      return (gint) i;
  return -1;
}

guint
sl_lineage_table_get_n_columns (SlLineageTable *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), 0);
  return self->columns->len;
}

const SlLineageColumn *
sl_lineage_table_get_column (SlLineageTable *self,
                             guint           index)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), NULL);
  g_return_val_if_fail (index < self->columns->len, NULL);
  return g_ptr_array_index (self->columns, index);
}

gint
sl_lineage_table_find_column (SlLineageTable *self,
                              const char     *id)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), -1);
  g_return_val_if_fail (id != NULL, -1);

  for (guint i = 0; i < self->columns->len; i++)
    if (g_str_equal (((SlLineageColumn *) g_ptr_array_index (self->columns, i))->id, id))
      return (gint) i;
  return -1;
}

/* Returns: (transfer none) (element-type SlProblem): what reading met */
GPtrArray *
sl_lineage_table_get_problems (SlLineageTable *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), NULL);
  return self->problems;
}

const char *
sl_lineage_table_get_text (SlLineageTable *self,
                           guint           run,
                           guint           column)
{
  const SlLineageColumn *col;

  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), NULL);
  g_return_val_if_fail (run < self->runs->len && column < self->columns->len, NULL);

  col = g_ptr_array_index (self->columns, column);
  return sl_lineage_run_get (g_ptr_array_index (self->runs, run), col->group, col->key);
}

gboolean
sl_lineage_table_get_number (SlLineageTable *self,
                             guint           run,
                             guint           column,
                             double         *value)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), FALSE);
  g_return_val_if_fail (run < self->runs->len && column < self->columns->len, FALSE);

  return sl_lineage_parse_number (sl_lineage_table_get_text (self, run, column), value);
}

/**
 * sl_lineage_table_compare_runs:
 *
 * Orders two runs by @column: numbers by value, categories by text;
 * runs without a value come last, either way.
 */
int
sl_lineage_table_compare_runs (SlLineageTable *self,
                               guint           column,
                               guint           a,
                               guint           b)
{
  const char *ta, *tb;
  double va, vb;

  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), 0);
  g_return_val_if_fail (column < self->columns->len, 0);

  ta = sl_lineage_table_get_text (self, a, column);
  tb = sl_lineage_table_get_text (self, b, column);
  if (ta == NULL || tb == NULL)
    return (ta == NULL) - (tb == NULL);
  if (((SlLineageColumn *) g_ptr_array_index (self->columns, column))->type == SL_LINEAGE_COLUMN_NUMERIC &&
      sl_lineage_parse_number (ta, &va) && sl_lineage_parse_number (tb, &vb))
    return (va > vb) - (va < vb);
  return g_utf8_collate (ta, tb);
}

/* ------------------------------------------------------------------ */
/* Filters                                                             */
/* ------------------------------------------------------------------ */

static Filter *
get_filter (SlLineageTable *self,
            guint           column)
{
  return &g_array_index (self->filters, Filter, column);
}

/* Keeps the runs whose value lies in [@min, @max]. */
void
sl_lineage_table_set_range_filter (SlLineageTable *self,
                                   guint           column,
                                   double          min,
                                   double          max)
{
  Filter *filter;

  g_return_if_fail (SL_IS_LINEAGE_TABLE (self));
  g_return_if_fail (column < self->columns->len);
  g_return_if_fail (!isnan (min) && !isnan (max));

  filter = get_filter (self, column);
  filter_clear (filter);
  filter->active = TRUE;
  filter->is_range = TRUE;
  filter->min = MIN (min, max);
  filter->max = MAX (min, max);
}

/* Keeps the runs whose value is one of @values. */
void
sl_lineage_table_set_value_filter (SlLineageTable     *self,
                                   guint               column,
                                   const char * const *values)
{
  Filter *filter;

  g_return_if_fail (SL_IS_LINEAGE_TABLE (self));
  g_return_if_fail (column < self->columns->len);
  g_return_if_fail (values != NULL);

  filter = get_filter (self, column);
  filter_clear (filter);
  filter->active = TRUE;
  filter->is_range = FALSE;
  filter->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; values[i] != NULL; i++)
    g_hash_table_add (filter->values, g_strdup (values[i]));
}

void
sl_lineage_table_clear_filter (SlLineageTable *self,
                               guint           column)
{
  g_return_if_fail (SL_IS_LINEAGE_TABLE (self));
  g_return_if_fail (column < self->columns->len);

  filter_clear (get_filter (self, column));
}

void
sl_lineage_table_clear_filters (SlLineageTable *self)
{
  g_return_if_fail (SL_IS_LINEAGE_TABLE (self));

  for (guint i = 0; i < self->filters->len; i++)
    filter_clear (get_filter (self, i));
}

gboolean
sl_lineage_table_has_filter (SlLineageTable *self,
                             guint           column)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), FALSE);
  g_return_val_if_fail (column < self->columns->len, FALSE);

  return get_filter (self, column)->active;
}

/* Returns: whether @column has a range filter, and its bounds */
gboolean
sl_lineage_table_get_range_filter (SlLineageTable *self,
                                   guint           column,
                                   double         *min,
                                   double         *max)
{
  Filter *filter;

  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), FALSE);
  g_return_val_if_fail (column < self->columns->len, FALSE);

  filter = get_filter (self, column);
  if (!filter->active || !filter->is_range)
    return FALSE;
  if (min != NULL)
    *min = filter->min;
  if (max != NULL)
    *max = filter->max;
  return TRUE;
}

static gboolean
passes_filter (SlLineageTable *self,
               guint           run,
               guint           column)
{
  Filter *filter = get_filter (self, column);
  const char *text;
  double value;

  if (!filter->active)
    return TRUE;
  text = sl_lineage_table_get_text (self, run, column);
  if (text == NULL)
    return FALSE;
  if (filter->is_range)
    return sl_lineage_parse_number (text, &value) && value >= filter->min && value <= filter->max;
  return g_hash_table_contains (filter->values, text);
}

gboolean
sl_lineage_table_run_passes (SlLineageTable *self,
                             guint           run)
{
  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), FALSE);
  g_return_val_if_fail (run < self->runs->len, FALSE);

  for (guint c = 0; c < self->columns->len; c++)
    if (!passes_filter (self, run, c))
      return FALSE;
  return TRUE;
}

guint
sl_lineage_table_count_passing (SlLineageTable *self)
{
  guint n = 0;

  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), 0);

  for (guint r = 0; r < self->runs->len; r++)
    n += sl_lineage_table_run_passes (self, r);
  return n;
}

/* ------------------------------------------------------------------ */
/* Importance                                                          */
/* ------------------------------------------------------------------ */

/**
 * sl_lineage_pearson:
 *
 * Returns: the Pearson correlation of @x and @y, NaN when either is
 *   constant or @n < 2
 */
double
sl_lineage_pearson (const double *x,
                    const double *y,
                    guint         n)
{
  double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

  if (n < 2)
    return NAN;
  for (guint i = 0; i < n; i++)
    {
      mx += x[i];
      my += y[i];
    }
  mx /= n;
  my /= n;
  for (guint i = 0; i < n; i++)
    {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
      syy += (y[i] - my) * (y[i] - my);
    }
  if (sxx <= 0 || syy <= 0)
    return NAN;
  return CLAMP (sxy / sqrt (sxx * syy), -1.0, 1.0);
}

typedef struct {
  double value;
  guint  index;
} Ranked;

static int
compare_ranked (gconstpointer a,
                gconstpointer b)
{
  double va = ((const Ranked *) a)->value, vb = ((const Ranked *) b)->value;

  return (va > vb) - (va < vb);
}

/* Ties share the average of the ranks they span. */
static double *
average_ranks (const double *values,
               guint         n)
{
  g_autofree Ranked *sorted = g_new (Ranked, n);
  double *ranks = g_new (double, n);

  for (guint i = 0; i < n; i++)
    sorted[i] = (Ranked) { values[i], i };
  qsort (sorted, n, sizeof (Ranked), compare_ranked);
  for (guint i = 0; i < n;)
    {
      guint j = i;

      while (j + 1 < n && sorted[j + 1].value == sorted[i].value)
        j++;
      for (guint k = i; k <= j; k++)
        ranks[sorted[k].index] = (i + j) / 2.0 + 1;
      i = j + 1;
    }
  return ranks;
}

/**
 * sl_lineage_spearman:
 *
 * Returns: Spearman's rank correlation (the Pearson correlation of the
 *   average ranks), NaN when either side is constant or @n < 2
 */
double
sl_lineage_spearman (const double *x,
                     const double *y,
                     guint         n)
{
  g_autofree double *rx = NULL;
  g_autofree double *ry = NULL;

  if (n < 2)
    return NAN;
  rx = average_ranks (x, n);
  ry = average_ranks (y, n);
  return sl_lineage_pearson (rx, ry, n);
}

static double
strength (const SlLineageImportance *importance)
{
  double p = isnan (importance->pearson) ? 0 : importance->pearson;
  double s = isnan (importance->spearman) ? 0 : importance->spearman;

  return MAX (p, s);
}

static int
compare_importance (gconstpointer a,
                    gconstpointer b)
{
  double sa = strength (a), sb = strength (b);

  if (sa != sb)
    return (sa < sb) - (sa > sb);
  return (int) ((const SlLineageImportance *) a)->column - (int) ((const SlLineageImportance *) b)->column;
}

/**
 * sl_lineage_table_compute_importance:
 * @target: a numeric column
 * @passing_only: count only the runs that pass the filters
 *
 * How strongly each other numeric column goes with @target, over the runs
 * that have both: the absolute Pearson and Spearman correlations. Columns
 * that are not numbers, and columns no run shares with the target, are
 * left out.
 *
 * Returns: (transfer full) (element-type SlLineageImportance): strongest
 *   first
 */
GArray *
sl_lineage_table_compute_importance (SlLineageTable *self,
                                     guint           target,
                                     gboolean        passing_only)
{
  GArray *result;
  g_autofree double *x = NULL;
  g_autofree double *y = NULL;

  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (self), NULL);
  g_return_val_if_fail (target < self->columns->len, NULL);

  result = g_array_new (FALSE, FALSE, sizeof (SlLineageImportance));
  x = g_new (double, MAX (self->runs->len, 1));
  y = g_new (double, MAX (self->runs->len, 1));

  for (guint c = 0; c < self->columns->len; c++)
    {
      const SlLineageColumn *column = g_ptr_array_index (self->columns, c);
      SlLineageImportance importance = { c, 0, NAN, NAN, FALSE };

      if (c == target || column->type != SL_LINEAGE_COLUMN_NUMERIC)
        continue;
      for (guint r = 0; r < self->runs->len; r++)
        {
          if (passing_only && !sl_lineage_table_run_passes (self, r))
            continue;
          if (sl_lineage_table_get_number (self, r, c, &x[importance.n_runs]) &&
              sl_lineage_table_get_number (self, r, target, &y[importance.n_runs]))
            importance.n_runs++;
        }
      if (importance.n_runs == 0)
        continue;
      importance.pearson = fabs (sl_lineage_pearson (x, y, importance.n_runs));
      importance.spearman = fabs (sl_lineage_spearman (x, y, importance.n_runs));
      importance.enough = importance.n_runs >= SL_LINEAGE_MIN_RUNS_FOR_IMPORTANCE;
      g_array_append_val (result, importance);
    }

  g_array_sort (result, compare_importance);
  return result;
}
