/* sl-graph-finder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-finder.h"
#include "sl-graph-result.h"
#include "sl-graph-search.h"
#include "sl-path-names.h"

/* Results listed; the count says how many there are in all. */
#define MAX_RESULTS 2000

struct _SlGraphFinder
{
  GObject        parent_instance;

  GCancellable  *cancellable;
  GPtrArray     *searches;           /* SlGraphSearch or NULL, per graph */
  guint          generation;
  guint          graph_index;
  GArray        *results;            /* guint32 items */
  GListStore    *rows;               /* SlGraphResult: the results as listed */
};

G_DEFINE_FINAL_TYPE (SlGraphFinder, sl_graph_finder, G_TYPE_OBJECT)

enum {
  FINISHED,
  FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  SlGraphSearch *search;      /* borrowed when the finder has it */
  SlGraph       *graph;
  char          *query;
  gboolean       regex;
} SearchJob;

typedef struct {
  SlGraphSearch *built;       /* the index, when this job built it */
  GArray        *hits;
  guint          total;
} SearchResult;

typedef struct {
  SlGraphFinder *self;
  guint          generation;
  guint          graph_index;
  SlGraph       *graph;
} PendingSearch;

static void
search_job_free (gpointer data)
{
  SearchJob *job = data;

  g_clear_object (&job->graph);
  g_free (job->query);
  g_free (job);
}

static void
search_result_free (gpointer data)
{
  SearchResult *result = data;

  g_clear_pointer (&result->built, sl_graph_search_free);
  g_clear_pointer (&result->hits, g_array_unref);
  g_free (result);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  g_autoptr(GError) error = NULL;
  SearchResult *result = g_new0 (SearchResult, 1);
  SlGraphSearch *search = job->search;

  if (search == NULL)
    search = result->built = sl_graph_search_new (job->graph);
  result->hits = sl_graph_search_find (search, job->query,
                                       job->regex ? SL_GRAPH_SEARCH_REGEX : SL_GRAPH_SEARCH_SUBSTRING,
                                       MAX_RESULTS, &result->total, cancellable, &error);
  if (result->hits == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      search_result_free (result);
      return;
    }
  g_task_return_pointer (task, result, search_result_free);
}

static void
fill_results (SlGraphFinder *self,
              SlGraph       *graph)
{
  guint n = graph != NULL ? self->results->len : 0;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) names = NULL;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (paths, sl_graph_item_dup_path (graph, g_array_index (self->results, guint32, i)));
  /* The layer index of one of 32 layers stays in sight, not just the op. */
  names = sl_path_names_distinguish ((const char * const *) paths->pdata, paths->len);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (rows, sl_graph_result_new (g_array_index (self->results, guint32, i), names[i],
                                                g_ptr_array_index (paths, i)));
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)), rows->pdata, rows->len);
}

static void
search_cb (GObject      *object,
           GAsyncResult *async_result,
           gpointer      user_data)
{
  PendingSearch *pending = user_data;
  g_autoptr(SlGraphFinder) self = pending->self;
  g_autoptr(SlGraph) graph = pending->graph;
  g_autoptr(GError) error = NULL;
  SearchResult *result = g_task_propagate_pointer (G_TASK (async_result), &error);
  guint generation = pending->generation;
  guint graph_index = pending->graph_index;

  g_free (pending);
  if (result == NULL)
    {
      if (generation == self->generation && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_signal_emit (self, signals[FAILED], 0, error->message);
      return;
    }
  if (result->built != NULL && self->searches != NULL && graph_index < self->searches->len &&
      g_ptr_array_index (self->searches, graph_index) == NULL)
    g_ptr_array_index (self->searches, graph_index) = g_steal_pointer (&result->built);
  if (generation != self->generation || graph_index != self->graph_index)
    {
      search_result_free (result);
      return;
    }
  g_array_set_size (self->results, 0);
  g_array_append_vals (self->results, result->hits->data, result->hits->len);
  fill_results (self, graph);
  g_signal_emit (self, signals[FINISHED], 0, result->total);
  search_result_free (result);
}

void
sl_graph_finder_cancel (SlGraphFinder *self)
{
  g_return_if_fail (SL_IS_GRAPH_FINDER (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

void
sl_graph_finder_find (SlGraphFinder *self,
                      guint          graph_index,
                      SlGraph       *graph,
                      const char    *query,
                      gboolean       regex)
{
  g_autoptr(GTask) task = NULL;
  SearchJob *job;
  PendingSearch *pending;

  g_return_if_fail (SL_IS_GRAPH_FINDER (self));
  g_return_if_fail (query != NULL);

  sl_graph_finder_cancel (self);
  self->generation++;
  self->graph_index = graph_index;
  if (query[0] == '\0' || graph == NULL)
    {
      g_array_set_size (self->results, 0);
      g_list_store_remove_all (self->rows);
      return;
    }

  self->cancellable = g_cancellable_new ();
  job = g_new0 (SearchJob, 1);
  job->search = self->searches != NULL && graph_index < self->searches->len
                ? g_ptr_array_index (self->searches, graph_index) : NULL;
  job->graph = g_object_ref (graph);
  job->query = g_strdup (query);
  job->regex = regex;
  pending = g_new0 (PendingSearch, 1);
  pending->self = g_object_ref (self);
  pending->generation = self->generation;
  pending->graph_index = graph_index;
  pending->graph = g_object_ref (graph);

  task = g_task_new (NULL, self->cancellable, search_cb, pending);
  g_task_set_source_tag (task, sl_graph_finder_find);
  g_task_set_task_data (task, job, search_job_free);
  g_task_run_in_thread (task, search_thread);
}

void
sl_graph_finder_forget (SlGraphFinder *self)
{
  g_return_if_fail (SL_IS_GRAPH_FINDER (self));

  self->generation++;
  g_array_set_size (self->results, 0);
}

void
sl_graph_finder_set_n_graphs (SlGraphFinder *self,
                              guint          n_graphs)
{
  g_return_if_fail (SL_IS_GRAPH_FINDER (self));

  g_clear_pointer (&self->searches, g_ptr_array_unref);
  self->searches = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_graph_search_free);
  g_ptr_array_set_size (self->searches, n_graphs);
}

GArray *
sl_graph_finder_get_results (SlGraphFinder *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_FINDER (self), NULL);

  return self->results;
}

GListModel *
sl_graph_finder_get_rows (SlGraphFinder *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_FINDER (self), NULL);

  return G_LIST_MODEL (self->rows);
}

const char *
sl_graph_finder_get_path (SlGraphFinder *self,
                          guint          position)
{
  g_autoptr(SlGraphResult) row = NULL;

  g_return_val_if_fail (SL_IS_GRAPH_FINDER (self), NULL);

  row = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
  /* The store holds the row: what it returns lives as long as the row is listed. */
  return row != NULL ? sl_graph_result_get_path (row) : NULL;
}

static void
sl_graph_finder_dispose (GObject *object)
{
  SlGraphFinder *self = SL_GRAPH_FINDER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->searches, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_graph_finder_parent_class)->dispose (object);
}

static void
sl_graph_finder_finalize (GObject *object)
{
  SlGraphFinder *self = SL_GRAPH_FINDER (object);

  g_clear_pointer (&self->results, g_array_unref);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (sl_graph_finder_parent_class)->finalize (object);
}

static void
sl_graph_finder_class_init (SlGraphFinderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_graph_finder_dispose;
  object_class->finalize = sl_graph_finder_finalize;

  /* How many hits there are in all: the results list holds the first. */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
sl_graph_finder_init (SlGraphFinder *self)
{
  self->results = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->rows = g_list_store_new (SL_TYPE_GRAPH_RESULT);
}

SlGraphFinder *
sl_graph_finder_new (void)
{
  return g_object_new (SL_TYPE_GRAPH_FINDER, NULL);
}
