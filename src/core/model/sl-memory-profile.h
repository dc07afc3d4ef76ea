/* sl-memory-profile.h: who held device memory, and when
 *
 * What the Ascend profilers record about memory for one rank: the
 * components' totals over time (memory_record.csv, MEMORY_RECORD), the
 * operators' allocations with their lifetimes (operator_memory.csv,
 * OP_MEMORY) and the reserved memory of each CANN module
 * (npu_module_mem.csv, NPU_MODULE_MEM). Filled by sl-memory-reader, then
 * sl_memory_profile_finish() computes the peak, who holds memory at the
 * peak and the lifetimes' lanes and level of detail; immutable afterwards.
 *
 * Sizes are MB (2^20 bytes, as the profilers write them) except an
 * allocation's size, which is KB; times are Unix nanoseconds. NAN marks
 * a value that was not written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_MEMORY_NOT_RELEASED (-1)

/* One component (PTA, GE, PTA+GE, APP, or a module) over time. */
typedef struct {
  char   *name;
  char   *device;
  GArray *ts_ns;            /* gint64, sorted once finished */
  GArray *allocated_mb;     /* double */
  GArray *reserved_mb;      /* double */
  GArray *active_mb;        /* double */
  double  max_allocated_mb; /* NAN when never written */
  double  max_reserved_mb;
} SlMemoryCurve;

typedef struct {
  const char *name;                    /* owned by the profile */
  double      size_kb;
  gint64      allocation_ns;
  gint64      release_ns;              /* SL_MEMORY_NOT_RELEASED while profiled */
  gint64      duration_ns;             /* -1 unknown */
  double      allocation_allocated_mb; /* the totals when it was allocated */
  double      allocation_reserved_mb;
  double      release_allocated_mb;    /* and when it was released */
  double      release_reserved_mb;
  const char *stream;                  /* owned by the profile, "" when not written */
  const char *device;
  const char *path;
  guint       line;                    /* 1-based CSV line, 0 for the database */
  guint       lane;                    /* of the lifetimes, once finished */
} SlMemoryAllocation;

typedef struct {
  guint  allocation;        /* index of the allocation */
  double share;             /* its size over the peak's allocated total */
} SlMemoryHolder;

typedef struct {
  const char *component;
  double      allocated_mb; /* the last sample at or before the peak; NAN without one */
  double      reserved_mb;
  double      share;        /* allocated over the peak's, NAN when unknown */
} SlMemoryShare;

typedef struct {
  gboolean    found;
  const char *component;    /* the curve that reaches the largest allocated total */
  gint64      time_ns;
  double      allocated_mb;
  double      reserved_mb;  /* of the same sample, NAN when not written */
  double      held_mb;      /* the holders' sizes added up */
  GArray     *holders;      /* SlMemoryHolder, largest first */
  GArray     *shares;       /* SlMemoryShare, in curve order */
} SlMemoryPeak;

/* A run of lifetimes of one lane drawn as one bar at some zoom. */
typedef struct {
  gint64 start_ns;
  gint64 end_ns;
  guint  first;             /* the allocation of the run that starts first */
  guint  count;
} SlMemorySpan;

#define SL_TYPE_MEMORY_PROFILE (sl_memory_profile_get_type ())
G_DECLARE_FINAL_TYPE (SlMemoryProfile, sl_memory_profile, SL, MEMORY_PROFILE, GObject)

SlMemoryProfile          *sl_memory_profile_new              (void);

/* Building (the reader) */
const char               *sl_memory_profile_add_file         (SlMemoryProfile *self,
                                                              const char      *path);
void                      sl_memory_profile_add_sample       (SlMemoryProfile *self,
                                                              const char      *component,
                                                              const char      *device,
                                                              gint64           ts_ns,
                                                              double           allocated_mb,
                                                              double           reserved_mb,
                                                              double           active_mb);
void                      sl_memory_profile_add_module_sample (SlMemoryProfile *self,
                                                              const char      *module,
                                                              const char      *device,
                                                              gint64           ts_ns,
                                                              double           reserved_mb);
SlMemoryAllocation       *sl_memory_profile_add_allocation   (SlMemoryProfile *self,
                                                              const char      *path,
                                                              const char      *name,
                                                              const char      *stream,
                                                              const char      *device);
void                      sl_memory_profile_finish           (SlMemoryProfile *self);

/* Reading */
gboolean                  sl_memory_profile_is_empty         (SlMemoryProfile *self);
GPtrArray                *sl_memory_profile_get_files        (SlMemoryProfile *self);
guint                     sl_memory_profile_get_n_curves     (SlMemoryProfile *self);
const SlMemoryCurve      *sl_memory_profile_get_curve        (SlMemoryProfile *self,
                                                              guint            index);
guint                     sl_memory_profile_get_n_modules    (SlMemoryProfile *self);
const SlMemoryCurve      *sl_memory_profile_get_module       (SlMemoryProfile *self,
                                                              guint            index);
guint                     sl_memory_profile_get_n_allocations (SlMemoryProfile *self);
const SlMemoryAllocation *sl_memory_profile_get_allocation   (SlMemoryProfile *self,
                                                              guint            index);
const SlMemoryPeak       *sl_memory_profile_get_peak         (SlMemoryProfile *self);
gboolean                  sl_memory_profile_get_time_range   (SlMemoryProfile *self,
                                                              gint64          *start_ns,
                                                              gint64          *end_ns);
/* Where an allocation that was never released ends on the lifetimes. */
gint64                    sl_memory_allocation_end_ns        (SlMemoryProfile          *self,
                                                              const SlMemoryAllocation *allocation);

/* Lifetimes: each lane holds allocations that do not overlap, except
 * the last, which takes what no lane had room for. */
guint                     sl_memory_profile_get_n_lanes      (SlMemoryProfile *self);
/* The spans of @lane for a zoom of @ns_per_pixel: lifetimes closer than
 * about a pixel are joined. Sorted by start, never overlapping. */
const SlMemorySpan       *sl_memory_profile_get_spans        (SlMemoryProfile *self,
                                                              guint            lane,
                                                              double           ns_per_pixel,
                                                              guint           *n_spans);

G_END_DECLS
