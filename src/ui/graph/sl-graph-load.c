/* sl-graph-load.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-load.h"
#include "sl-graph-reader.h"

struct _SlGraphLoad
{
  GObject       parent_instance;

  GCancellable *cancellable;        /* while a read runs */
  GPtrArray    *graphs;             /* SlGraph, once read */
  GPtrArray    *problems;           /* SlProblem met outside the graphs, once read */
};

typedef struct {
  GPtrArray *graphs;
  GPtrArray *problems;
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_clear_pointer (&loaded->graphs, g_ptr_array_unref);
  g_clear_pointer (&loaded->problems, g_ptr_array_unref);
  g_free (loaded);
}

G_DEFINE_FINAL_TYPE (SlGraphLoad, sl_graph_load, G_TYPE_OBJECT)

enum {
  LOADED,
  FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *graphs = sl_graph_reader_load_full (path, problems, cancellable, &error);
  Loaded *loaded;

  if (graphs == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  loaded = g_new0 (Loaded, 1);
  loaded->graphs = graphs;
  loaded->problems = g_steal_pointer (&problems);
  g_task_return_pointer (task, loaded, (GDestroyNotify) loaded_free);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlGraphLoad) self = user_data;
  g_autoptr(GError) error = NULL;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), &error);

  g_clear_object (&self->cancellable);
  if (loaded == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_signal_emit (self, signals[FAILED], 0, error->message);
      return;
    }
  g_clear_pointer (&self->graphs, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  self->graphs = g_steal_pointer (&loaded->graphs);
  self->problems = g_steal_pointer (&loaded->problems);
  loaded_free (loaded);
  g_signal_emit (self, signals[LOADED], 0, self->graphs);
}

void
sl_graph_load_start (SlGraphLoad *self,
                     const char  *path)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_GRAPH_LOAD (self));
  g_return_if_fail (path != NULL);

  if (self->cancellable != NULL)
    return;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, load_cb, g_object_ref (self));
  g_task_set_source_tag (task, sl_graph_load_start);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_thread);
}

void
sl_graph_load_cancel (SlGraphLoad *self)
{
  g_return_if_fail (SL_IS_GRAPH_LOAD (self));

  g_cancellable_cancel (self->cancellable);
}

GPtrArray *
sl_graph_load_get_graphs (SlGraphLoad *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_LOAD (self), NULL);

  return self->graphs;
}

/**
 * sl_graph_load_get_problems:
 *
 * Returns: (transfer none) (element-type SlProblem) (nullable): what the
 *   readers met outside the graphs read (a summary record whose checksum
 *   fails), or %NULL before "loaded"
 */
GPtrArray *
sl_graph_load_get_problems (SlGraphLoad *self)
{
  g_return_val_if_fail (SL_IS_GRAPH_LOAD (self), NULL);

  return self->problems;
}

SlGraph *
sl_graph_load_get_graph (SlGraphLoad *self,
                         guint        index)
{
  g_return_val_if_fail (SL_IS_GRAPH_LOAD (self), NULL);

  if (self->graphs == NULL || index >= self->graphs->len)
    return NULL;
  return g_ptr_array_index (self->graphs, index);
}

static void
sl_graph_load_dispose (GObject *object)
{
  SlGraphLoad *self = SL_GRAPH_LOAD (object);

  g_cancellable_cancel (self->cancellable);

  G_OBJECT_CLASS (sl_graph_load_parent_class)->dispose (object);
}

static void
sl_graph_load_finalize (GObject *object)
{
  SlGraphLoad *self = SL_GRAPH_LOAD (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->graphs, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_graph_load_parent_class)->finalize (object);
}

static void
sl_graph_load_class_init (SlGraphLoadClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_graph_load_dispose;
  object_class->finalize = sl_graph_load_finalize;

  /* The graphs read (a GPtrArray of SlGraph, maybe empty). */
  signals[LOADED] = g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
sl_graph_load_init (SlGraphLoad *self)
{
}

SlGraphLoad *
sl_graph_load_new (void)
{
  return g_object_new (SL_TYPE_GRAPH_LOAD, NULL);
}
