/* sl-frame-worker.h: a second thread that shares a frame's pieces of work
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlFrameWorker SlFrameWorker;

/* Does piece @index of a run; @thread is 0 on the thread that asked for
 * the run and 1 on the worker, so that each can have scratch of its own. */
typedef void (*SlFrameWorkFunc) (guint    index,
                                 guint    thread,
                                 gpointer data);

SlFrameWorker *sl_frame_worker_new       (void);
void           sl_frame_worker_free      (SlFrameWorker  *self);
void           sl_frame_worker_set_enabled (SlFrameWorker *self,
                                            gboolean       enabled);
void           sl_frame_worker_set_alternate (SlFrameWorker *self,
                                              gboolean       alternate);
void           sl_frame_worker_set_adaptive (SlFrameWorker *self,
                                             gboolean       adaptive);
guint          sl_frame_worker_run       (SlFrameWorker  *self,
                                          guint           n_pieces,
                                          SlFrameWorkFunc func,
                                          gpointer        data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlFrameWorker, sl_frame_worker_free)

G_END_DECLS
