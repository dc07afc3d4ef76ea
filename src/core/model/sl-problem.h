/* sl-problem.h: one warning or error from a parser, a connection or a job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_SEVERITY_INFO,
  SL_SEVERITY_WARNING,
  SL_SEVERITY_ERROR,
} SlSeverity;

#define SL_TYPE_PROBLEM (sl_problem_get_type ())
G_DECLARE_FINAL_TYPE (SlProblem, sl_problem, SL, PROBLEM, GObject)

SlProblem  *sl_problem_new            (SlSeverity  severity,
                                       const char *source,
                                       const char *path,
                                       gint64      offset,
                                       const char *message);
SlProblem  *sl_problem_new_at_line    (SlSeverity  severity,
                                       const char *source,
                                       const char *path,
                                       guint       line,
                                       const char *message);
/* A position given as line and column (both 1-based, the column counted
 * in characters) next to the byte offset, and the named part of the file
 * the problem is about (a pipeline element), or %NULL. */
SlProblem  *sl_problem_new_at_position (SlSeverity  severity,
                                       const char *source,
                                       const char *path,
                                       gint64      offset,
                                       guint       line,
                                       guint       column,
                                       const char *subject,
                                       const char *message);
SlSeverity  sl_problem_get_severity   (SlProblem  *self);
const char *sl_problem_get_source     (SlProblem  *self);
const char *sl_problem_get_path       (SlProblem  *self);
gint64      sl_problem_get_offset     (SlProblem  *self);
guint       sl_problem_get_line       (SlProblem  *self);
guint       sl_problem_get_column     (SlProblem  *self);
const char *sl_problem_get_subject    (SlProblem  *self);
const char *sl_problem_get_message    (SlProblem  *self);
gint64      sl_problem_get_time       (SlProblem  *self);
/* The tool's own code for the problem and what to try next; both
 * optional, set by those who know them (workflow log parsers). */
void        sl_problem_set_code       (SlProblem  *self,
                                       const char *code);
const char *sl_problem_get_code       (SlProblem  *self);
void        sl_problem_set_hint       (SlProblem  *self,
                                       const char *hint);
const char *sl_problem_get_hint       (SlProblem  *self);
/* A copy on this computer of the file at the path (a log pulled from a
 * target), or %NULL. */
void        sl_problem_set_local_copy (SlProblem  *self,
                                       const char *path);
const char *sl_problem_get_local_copy (SlProblem  *self);
char       *sl_problem_dup_location   (SlProblem  *self);
const char *sl_severity_to_string     (SlSeverity  severity);

G_END_DECLS
