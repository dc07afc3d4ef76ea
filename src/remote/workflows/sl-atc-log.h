/* sl-atc-log.h: what ATC printed, as Problems
 *
 * ATC ends with "ATC run success" or "ATC run failed" followed by coded
 * errors (E10007, EZ3003, EC0010, …; FORMATS.md §11). Each code becomes
 * an error with the message as ATC gave it, the option it concerns, the
 * log and line it came from, and what to try next. The details are in
 * the plog files under $HOME/ascend/log (or $ASCEND_PROCESS_LOG_PATH),
 * whose paths the caller adds with sl_atc_log_add_plogs().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SL_ATC_OUTCOME_UNKNOWN,   /* neither line: killed, or not ATC at all */
  SL_ATC_OUTCOME_SUCCESS,
  SL_ATC_OUTCOME_FAILED,
} SlAtcOutcome;

/* @text need not be NUL-terminated; @log_path is where it is on the
 * target, named in every problem. @exit_code is ATC's, or -1. */
GPtrArray    *sl_atc_log_parse         (const char *text,
                                        gsize       length,
                                        const char *log_path,
                                        int         exit_code,
                                        SlAtcOutcome *outcome);
/* Tells every problem where the full logs are: @plogs on the target and,
 * when they were pulled, @local_copies (the same length, or %NULL). */
void          sl_atc_log_add_plogs     (GPtrArray          *problems,
                                        const char * const *plogs,
                                        const char * const *local_copies);
/* What the code means and what to try, or %NULL for a code not known
 * here (the problem then says where to look it up). */
const char   *sl_atc_code_explain      (const char *code,
                                        const char **hint);

G_END_DECLS
