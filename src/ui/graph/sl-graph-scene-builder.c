/* sl-graph-scene-builder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-graph-scene-builder.h"
#include "sl-progress.h"

struct _SlGraphSceneBuilder
{
  GObject       parent_instance;

  GCancellable *cancellable;
  guint         generation;
};

G_DEFINE_FINAL_TYPE (SlGraphSceneBuilder, sl_graph_scene_builder, G_TYPE_OBJECT)

enum {
  PROGRESS,
  ENDED,
  BUILT,
  FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
report_build (double   fraction,
              gpointer progress)
{
  sl_progress_report_fraction (progress, fraction);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  SlGraphLayout *layout = task_data;
  g_autoptr(GError) error = NULL;
  SlGraphScene *scene = sl_graph_layout_build_scene (layout, cancellable, report_build,
                                                     g_object_get_data (G_OBJECT (task), "sl-progress"), &error);

  if (scene == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, scene, g_object_unref);
}

typedef struct {
  SlGraphSceneBuilder *self;
  guint                generation;
  guint32              anchor;
  SlProgress          *progress;
} Build;

static void
show_build_progress (SlProgress *progress,
                     GParamSpec *pspec,
                     Build      *build)
{
  /* A build that reports before it ends shows how far it has come. */
  if (build->generation != build->self->generation || sl_progress_get_fraction (progress) >= 1.0)
    return;
  g_signal_emit (build->self, signals[PROGRESS], 0, sl_progress_get_fraction (progress));
}

static void
build_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autofree Build *build = user_data;
  g_autoptr(SlGraphSceneBuilder) self = build->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlGraphScene) scene = g_task_propagate_pointer (G_TASK (result), &error);
  gboolean newest = build->generation == self->generation;

  g_signal_handlers_disconnect_by_data (build->progress, build);
  g_clear_object (&build->progress);
  g_signal_emit (self, signals[ENDED], 0, newest);
  if (!newest)
    return;
  if (scene == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_signal_emit (self, signals[FAILED], 0, error->message);
      return;
    }
  g_signal_emit (self, signals[BUILT], 0, scene, build->anchor);
}

void
sl_graph_scene_builder_build (SlGraphSceneBuilder *self,
                              SlGraphLayout       *layout,
                              guint32              anchor)
{
  g_autoptr(GTask) task = NULL;
  Build *build;

  g_return_if_fail (SL_IS_GRAPH_SCENE_BUILDER (self));
  g_return_if_fail (SL_IS_GRAPH_LAYOUT (layout));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  build = g_new0 (Build, 1);
  build->self = g_object_ref (self);
  build->generation = ++self->generation;
  build->anchor = anchor;
  build->progress = sl_progress_new ();
  g_signal_connect (build->progress, "notify::fraction", G_CALLBACK (show_build_progress), build);

  task = g_task_new (NULL, self->cancellable, build_cb, build);
  g_task_set_source_tag (task, sl_graph_scene_builder_build);
  g_task_set_task_data (task, g_object_ref (layout), g_object_unref);
  g_object_set_data_full (G_OBJECT (task), "sl-progress", g_object_ref (build->progress), g_object_unref);
  g_task_run_in_thread (task, build_thread);
}

void
sl_graph_scene_builder_cancel (SlGraphSceneBuilder *self)
{
  g_return_if_fail (SL_IS_GRAPH_SCENE_BUILDER (self));

  g_cancellable_cancel (self->cancellable);
}

static void
sl_graph_scene_builder_dispose (GObject *object)
{
  SlGraphSceneBuilder *self = SL_GRAPH_SCENE_BUILDER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (sl_graph_scene_builder_parent_class)->dispose (object);
}

static void
sl_graph_scene_builder_class_init (SlGraphSceneBuilderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sl_graph_scene_builder_dispose;

  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 1, G_TYPE_DOUBLE);
  signals[ENDED] = g_signal_new ("ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  signals[BUILT] = g_signal_new ("built", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 2, SL_TYPE_GRAPH_SCENE, G_TYPE_UINT);
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
sl_graph_scene_builder_init (SlGraphSceneBuilder *self)
{
}

SlGraphSceneBuilder *
sl_graph_scene_builder_new (void)
{
  return g_object_new (SL_TYPE_GRAPH_SCENE_BUILDER, NULL);
}
