/* sl-trace-index-slot.c
 *
 * The search and range-statistics indexes are built once per trace, on
 * whichever worker asks first (the timeline page's, as soon as it has the
 * trace, or a search's), and kept as long as the trace. Each trace has a
 * slot per kind of index: the index once built and a lock held while it
 * is built, so that a second worker waits for that build instead of
 * repeating it, and a build for one trace waits for no other trace's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-trace-index-slot.h"

typedef struct {
  GMutex          lock;
  gpointer        index;
  GDestroyNotify  free_index;
} Slot;

static GMutex slots_lock;

static void
slot_free (Slot *slot)
{
  if (slot->index != NULL)
    slot->free_index (slot->index);
  g_mutex_clear (&slot->lock);
  g_free (slot);
}

static Slot *
slot_of (SlTrace        *trace,
         const char     *key,
         GDestroyNotify  free_index)
{
  GQuark quark = g_quark_from_static_string (key);
  Slot *slot;

  g_mutex_lock (&slots_lock);
  slot = g_object_get_qdata (G_OBJECT (trace), quark);
  if (slot == NULL)
    {
      slot = g_new0 (Slot, 1);
      g_mutex_init (&slot->lock);
      slot->free_index = free_index;
      g_object_set_qdata_full (G_OBJECT (trace), quark, slot, (GDestroyNotify)slot_free);
    }
  g_mutex_unlock (&slots_lock);
  return slot;
}

/**
 * sl_trace_index_slot_get:
 * @key: (not nullable): a static string naming the kind of index
 * @build: builds it, in the calling thread (call this on a worker)
 * @free_index: frees it with the trace
 *
 * The index of @trace kept under @key, built by @build on the first call.
 * Concurrent first calls build it once: the others wait for that build.
 *
 * Returns: (transfer none) (nullable): the index, or %NULL when
 *   @cancellable was cancelled while building it (a later call builds it
 *   again)
 */
gpointer
sl_trace_index_slot_get (SlTrace           *trace,
                         const char        *key,
                         SlTraceIndexBuild  build,
                         GDestroyNotify     free_index,
                         GCancellable      *cancellable)
{
  Slot *slot;
  gpointer index;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);
  g_return_val_if_fail (key != NULL && build != NULL && free_index != NULL, NULL);

  slot = slot_of (trace, key, free_index);
  g_mutex_lock (&slot->lock);
  if (slot->index == NULL)
    g_atomic_pointer_set (&slot->index, build (trace, cancellable));
  index = slot->index;
  g_mutex_unlock (&slot->lock);
  return index;
}

/**
 * sl_trace_index_slot_peek:
 *
 * Returns: (transfer none) (nullable): the index of @trace kept under
 *   @key if it is built, without building it or waiting for a build
 */
gpointer
sl_trace_index_slot_peek (SlTrace    *trace,
                          const char *key)
{
  Slot *slot;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  slot = g_object_get_qdata (G_OBJECT (trace), g_quark_from_static_string (key));
  return slot != NULL ? g_atomic_pointer_get (&slot->index) : NULL;
}
