/* sl-performance-report.h: the model performance report of a profile
 *
 * What MindStudio's advisor shows first, from the op metrics of each
 * rank: cube and vector throughput, AI Core time against task duration,
 * block dim usage, pipeline utilisation, the cube/vector/scalar and
 * MTE1/2/3 ratios, memory bound, memory redundancy and the memory read
 * and written. Each figure says how it is computed, which ops and file
 * it came from, whether it is within its threshold, and, when the
 * profile cannot give it, what to collect.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-profile.h"

G_BEGIN_DECLS

typedef enum {
  SL_PERFORMANCE_STATUS_NONE,   /* no threshold for this figure */
  SL_PERFORMANCE_STATUS_GOOD,
  SL_PERFORMANCE_STATUS_BAD,
} SlPerformanceStatus;

typedef struct {
  const char          *key;        /* stable, for scripts: "pipeline_utilization_percent" */
  char                *label;      /* translated */
  char                *unit;       /* "GOps", "%", "µs", "GB" or "" */
  double               value;      /* NAN when the profile cannot give it */
  SlPerformanceStatus  status;
  char                *threshold;  /* translated rule of the status, or NULL */
  char                *how;        /* translated: how the figure is computed */
  char                *missing;    /* translated: why it is missing and what to collect, or NULL */
  /* translated: why the input cannot be physical, with the rows it came
   * from, or NULL; a suspect figure has no value and is never graded */
  char                *suspect;
  guint                n_ops;      /* ops the figure is computed from */
  char                *file;       /* where their rows are, or NULL */
  char               **worst_ops;  /* the longest ops outside the threshold, NULL-terminated; may be empty */
} SlPerformanceItem;

typedef struct {
  char      *rank_label;
  GPtrArray *items;                /* SlPerformanceItem, in report order */
} SlPerformanceSection;

typedef struct {
  gint64 cube_cores;               /* -1 unknown */
  gint64 vector_cores;
} SlPerformanceCores;

#define SL_TYPE_PERFORMANCE_REPORT (sl_performance_report_get_type ())
G_DECLARE_FINAL_TYPE (SlPerformanceReport, sl_performance_report, SL, PERFORMANCE_REPORT, GObject)

SlPerformanceReport        *sl_performance_report_new             (void);
/* @instances: SlOpRow of one rank's op instances; @cores may be NULL */
void                        sl_performance_report_add_rank        (SlPerformanceReport      *self,
                                                                   const char               *rank_label,
                                                                   GPtrArray                *instances,
                                                                   const SlPerformanceCores *cores);
guint                       sl_performance_report_get_n_sections  (SlPerformanceReport      *self);
const SlPerformanceSection *sl_performance_report_get_section     (SlPerformanceReport      *self,
                                                                   guint                     index);
const SlPerformanceItem    *sl_performance_section_lookup         (const SlPerformanceSection *section,
                                                                   const char               *key);
/* "41.2 %", "1.3 ms", "812.0 GOps", "0.42", or "—" when missing */
char                       *sl_performance_item_format_value      (const SlPerformanceItem  *item);
const char                 *sl_performance_status_to_string       (SlPerformanceStatus       status);

G_END_DECLS
