/* sl-main-thread.h: which thread draws, what must never run on it, and a
 * way to hand work back to it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void     sl_main_thread_mark              (void);
void     sl_main_thread_unmark            (void);
gboolean sl_main_thread_is_current        (void);
void     sl_main_thread_check_off         (const char     *function);
void     sl_main_thread_watch_stalls      (guint           threshold_ms);
void     sl_main_context_dispatch         (GMainContext   *context,
                                           GSourceFunc     func,
                                           gpointer        data,
                                           GDestroyNotify  destroy);

/* Functions that touch the disk or the workspace database start with this:
 * in debug and test builds it is a critical (fatal in the test suites)
 * when they run on the thread that draws. */
#ifdef SL_ENABLE_THREAD_CHECKS
# define SL_ASSERT_OFF_MAIN_THREAD() sl_main_thread_check_off (G_STRFUNC)
#else
# define SL_ASSERT_OFF_MAIN_THREAD() G_STMT_START { } G_STMT_END
#endif

G_END_DECLS
