/* gui-test-util.h: helpers shared by the in-process GUI tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef gboolean (*Condition) (gpointer data);

/* Runs the main loop until @condition holds, then lets widgets catch up
 * with what the models say. Returns FALSE on timeout. */
static inline gboolean
wait_until (Condition condition,
            gpointer  data,
            guint     timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;

  while (!condition (data))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }

  for (guint i = 0; i < 50 && g_main_context_iteration (NULL, FALSE); i++)
    ;
  return TRUE;
}

G_END_DECLS
