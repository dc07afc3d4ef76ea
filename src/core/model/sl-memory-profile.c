/* sl-memory-profile.c
 *
 * The peak is the sample with the largest allocated total of any curve:
 * the profilers write a sum curve (PTA+GE) beside its parts, and that
 * sum is what runs out. An operator holds memory at the peak when it was
 * allocated at or before it and released after it, or never.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-memory-profile.h"

/* Enough lanes to see the shape of a step; more would be a few pixels
 * each. What does not fit goes into the last lane. */
#define MAX_LANES   32
/* Level k > 0 joins lifetimes closer than span · 4^(k-1) / 65536. */
#define N_LEVELS    9
#define LEVEL_BASE  65536.0

struct _SlMemoryProfile
{
  GObject       parent_instance;

  GPtrArray    *files;        /* char *, owned */
  GStringChunk *strings;
  GPtrArray    *curves;       /* SlMemoryCurve */
  GPtrArray    *modules;      /* SlMemoryCurve */
  GArray       *allocations;  /* SlMemoryAllocation */
  SlMemoryPeak  peak;
  gint64        start_ns;
  gint64        end_ns;
  guint         n_lanes;
  GArray       *levels[MAX_LANES][N_LEVELS]; /* SlMemorySpan */
  double        level_gap[N_LEVELS];
  gboolean      finished;
};

G_DEFINE_FINAL_TYPE (SlMemoryProfile, sl_memory_profile, G_TYPE_OBJECT)

static void
curve_free (SlMemoryCurve *curve)
{
  g_free (curve->name);
  g_free (curve->device);
  g_array_unref (curve->ts_ns);
  g_array_unref (curve->allocated_mb);
  g_array_unref (curve->reserved_mb);
  g_array_unref (curve->active_mb);
  g_free (curve);
}

static void
sl_memory_profile_finalize (GObject *object)
{
  SlMemoryProfile *self = SL_MEMORY_PROFILE (object);

  g_ptr_array_unref (self->files);
  g_string_chunk_free (self->strings);
  g_ptr_array_unref (self->curves);
  g_ptr_array_unref (self->modules);
  g_array_unref (self->allocations);
  g_array_unref (self->peak.holders);
  g_array_unref (self->peak.shares);
  for (guint lane = 0; lane < MAX_LANES; lane++)
    for (guint level = 0; level < N_LEVELS; level++)
      g_clear_pointer (&self->levels[lane][level], g_array_unref);

  G_OBJECT_CLASS (sl_memory_profile_parent_class)->finalize (object);
}

static void
sl_memory_profile_class_init (SlMemoryProfileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_memory_profile_finalize;
}

static void
sl_memory_profile_init (SlMemoryProfile *self)
{
  self->files = g_ptr_array_new_with_free_func (g_free);
  self->strings = g_string_chunk_new (4096);
  self->curves = g_ptr_array_new_with_free_func ((GDestroyNotify)curve_free);
  self->modules = g_ptr_array_new_with_free_func ((GDestroyNotify)curve_free);
  self->allocations = g_array_new (FALSE, TRUE, sizeof (SlMemoryAllocation));
  self->peak.holders = g_array_new (FALSE, FALSE, sizeof (SlMemoryHolder));
  self->peak.shares = g_array_new (FALSE, FALSE, sizeof (SlMemoryShare));
  self->peak.allocated_mb = NAN;
  self->peak.reserved_mb = NAN;
  self->start_ns = G_MAXINT64;
  self->end_ns = G_MININT64;
}

SlMemoryProfile *
sl_memory_profile_new (void)
{
  return g_object_new (SL_TYPE_MEMORY_PROFILE, NULL);
}

/**
 * sl_memory_profile_add_file:
 *
 * Returns: @path as kept by @self, for records to point at
 */
const char *
sl_memory_profile_add_file (SlMemoryProfile *self,
                            const char      *path)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < self->files->len; i++)
    if (g_str_equal (g_ptr_array_index (self->files, i), path))
      return g_ptr_array_index (self->files, i);
  g_ptr_array_add (self->files, g_strdup (path));
  return g_ptr_array_index (self->files, self->files->len - 1);
}

static SlMemoryCurve *
lookup_curve (GPtrArray  *curves,
              const char *name,
              const char *device)
{
  SlMemoryCurve *curve;

  for (guint i = 0; i < curves->len; i++)
    {
      curve = g_ptr_array_index (curves, i);
      if (g_str_equal (curve->name, name) && g_str_equal (curve->device, device))
        return curve;
    }

  curve = g_new0 (SlMemoryCurve, 1);
  curve->name = g_strdup (name);
  curve->device = g_strdup (device);
  curve->ts_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  curve->allocated_mb = g_array_new (FALSE, FALSE, sizeof (double));
  curve->reserved_mb = g_array_new (FALSE, FALSE, sizeof (double));
  curve->active_mb = g_array_new (FALSE, FALSE, sizeof (double));
  curve->max_allocated_mb = NAN;
  curve->max_reserved_mb = NAN;
  g_ptr_array_add (curves, curve);
  return curve;
}

static void
append_sample (SlMemoryCurve *curve,
               gint64         ts_ns,
               double         allocated_mb,
               double         reserved_mb,
               double         active_mb)
{
  g_array_append_val (curve->ts_ns, ts_ns);
  g_array_append_val (curve->allocated_mb, allocated_mb);
  g_array_append_val (curve->reserved_mb, reserved_mb);
  g_array_append_val (curve->active_mb, active_mb);
}

/**
 * sl_memory_profile_add_sample:
 * @allocated_mb: NAN when not written, as the others
 *
 * One row of memory_record: the totals of @component at @ts_ns.
 */
void
sl_memory_profile_add_sample (SlMemoryProfile *self,
                              const char      *component,
                              const char      *device,
                              gint64           ts_ns,
                              double           allocated_mb,
                              double           reserved_mb,
                              double           active_mb)
{
  g_return_if_fail (SL_IS_MEMORY_PROFILE (self));
  g_return_if_fail (!self->finished);

  append_sample (lookup_curve (self->curves, component ? component : "", device ? device : ""),
                 ts_ns, allocated_mb, reserved_mb, active_mb);
}

void
sl_memory_profile_add_module_sample (SlMemoryProfile *self,
                                     const char      *module,
                                     const char      *device,
                                     gint64           ts_ns,
                                     double           reserved_mb)
{
  g_return_if_fail (SL_IS_MEMORY_PROFILE (self));
  g_return_if_fail (!self->finished);

  append_sample (lookup_curve (self->modules, module ? module : "", device ? device : ""),
                 ts_ns, NAN, reserved_mb, NAN);
}

/**
 * sl_memory_profile_add_allocation:
 *
 * Returns: (transfer none): the new record, numbers NAN and times -1,
 *   valid until the next allocation is added
 */
SlMemoryAllocation *
sl_memory_profile_add_allocation (SlMemoryProfile *self,
                                  const char      *path,
                                  const char      *name,
                                  const char      *stream,
                                  const char      *device)
{
  SlMemoryAllocation allocation = {
    .size_kb = NAN,
    .allocation_ns = -1,
    .release_ns = SL_MEMORY_NOT_RELEASED,
    .duration_ns = -1,
    .allocation_allocated_mb = NAN,
    .allocation_reserved_mb = NAN,
    .release_allocated_mb = NAN,
    .release_reserved_mb = NAN,
  };

  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);

  allocation.path = path != NULL ? sl_memory_profile_add_file (self, path) : "";
  allocation.name = g_string_chunk_insert_const (self->strings, name ? name : "");
  allocation.stream = g_string_chunk_insert_const (self->strings, stream ? stream : "");
  allocation.device = g_string_chunk_insert_const (self->strings, device ? device : "");
  g_array_append_val (self->allocations, allocation);
  return &g_array_index (self->allocations, SlMemoryAllocation, self->allocations->len - 1);
}

/* ------------------------------------------------------------------ */
/* Finishing */

typedef struct {
  gint64 ts;
  double allocated, reserved, active;
} Sample;

static int
compare_samples (gconstpointer a,
                 gconstpointer b)
{
  gint64 ta = ((const Sample *)a)->ts, tb = ((const Sample *)b)->ts;

  return ta < tb ? -1 : ta > tb;
}

/* Files are written in time order, mostly: sort stably to be sure, and
 * take the maxima on the way. */
static void
finish_curve (SlMemoryProfile *self,
              SlMemoryCurve   *curve)
{
  g_autoptr(GArray) samples = g_array_sized_new (FALSE, FALSE, sizeof (Sample), curve->ts_ns->len);

  for (guint i = 0; i < curve->ts_ns->len; i++)
    {
      Sample sample = {
        g_array_index (curve->ts_ns, gint64, i),
        g_array_index (curve->allocated_mb, double, i),
        g_array_index (curve->reserved_mb, double, i),
        g_array_index (curve->active_mb, double, i),
      };

      g_array_append_val (samples, sample);
    }
  /* Stable (GLib's sort is since 2.32): equal times keep file order. */
  g_array_sort (samples, compare_samples);

  for (guint i = 0; i < samples->len; i++)
    {
      const Sample *sample = &g_array_index (samples, Sample, i);

      g_array_index (curve->ts_ns, gint64, i) = sample->ts;
      g_array_index (curve->allocated_mb, double, i) = sample->allocated;
      g_array_index (curve->reserved_mb, double, i) = sample->reserved;
      g_array_index (curve->active_mb, double, i) = sample->active;
      if (!isnan (sample->allocated) && !(sample->allocated <= curve->max_allocated_mb))
        curve->max_allocated_mb = sample->allocated;
      if (!isnan (sample->reserved) && !(sample->reserved <= curve->max_reserved_mb))
        curve->max_reserved_mb = sample->reserved;
      self->start_ns = MIN (self->start_ns, sample->ts);
      self->end_ns = MAX (self->end_ns, sample->ts);
    }
}

static void
find_peak_sample (SlMemoryProfile *self)
{
  SlMemoryPeak *peak = &self->peak;

  for (guint c = 0; c < self->curves->len; c++)
    {
      const SlMemoryCurve *curve = g_ptr_array_index (self->curves, c);

      for (guint i = 0; i < curve->ts_ns->len; i++)
        {
          double value = g_array_index (curve->allocated_mb, double, i);
          gint64 ts = g_array_index (curve->ts_ns, gint64, i);

          if (isnan (value))
            continue;
          /* Ties: the earliest, so the peak is where it was first reached. */
          if (!peak->found || value > peak->allocated_mb ||
              (value == peak->allocated_mb && ts < peak->time_ns))
            {
              peak->found = TRUE;
              peak->component = curve->name;
              peak->time_ns = ts;
              peak->allocated_mb = value;
              peak->reserved_mb = g_array_index (curve->reserved_mb, double, i);
            }
        }
    }
}

/* The last sample of @curve at or before @ts_ns, or -1. */
static int
sample_at (const SlMemoryCurve *curve,
           gint64               ts_ns)
{
  guint lo = 0, hi = curve->ts_ns->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (curve->ts_ns, gint64, mid) <= ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (int)lo - 1;
}

static void
find_shares (SlMemoryProfile *self)
{
  SlMemoryPeak *peak = &self->peak;

  for (guint c = 0; c < self->curves->len; c++)
    {
      const SlMemoryCurve *curve = g_ptr_array_index (self->curves, c);
      int at = sample_at (curve, peak->time_ns);
      SlMemoryShare share = { curve->name, NAN, NAN, NAN };

      if (at >= 0)
        {
          share.allocated_mb = g_array_index (curve->allocated_mb, double, at);
          share.reserved_mb = g_array_index (curve->reserved_mb, double, at);
          if (!isnan (share.allocated_mb) && peak->allocated_mb > 0)
            share.share = share.allocated_mb / peak->allocated_mb;
        }
      g_array_append_val (peak->shares, share);
    }
}

static gboolean
holds_at (const SlMemoryAllocation *allocation,
          gint64                    ts_ns)
{
  return allocation->allocation_ns <= ts_ns &&
         (allocation->release_ns == SL_MEMORY_NOT_RELEASED || allocation->release_ns > ts_ns);
}

static int
compare_holders (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  GArray *allocations = user_data;
  const SlMemoryHolder *ha = a, *hb = b;
  double sa = g_array_index (allocations, SlMemoryAllocation, ha->allocation).size_kb;
  double sb = g_array_index (allocations, SlMemoryAllocation, hb->allocation).size_kb;

  if (sa != sb)
    return sa < sb ? 1 : -1;
  return ha->allocation < hb->allocation ? -1 : ha->allocation > hb->allocation;
}

static void
find_holders (SlMemoryProfile *self)
{
  SlMemoryPeak *peak = &self->peak;

  peak->held_mb = 0;
  for (guint i = 0; i < self->allocations->len; i++)
    {
      const SlMemoryAllocation *allocation = &g_array_index (self->allocations, SlMemoryAllocation, i);
      SlMemoryHolder holder = { i, NAN };

      if (!holds_at (allocation, peak->time_ns))
        continue;
      if (peak->allocated_mb > 0)
        holder.share = allocation->size_kb / 1024.0 / peak->allocated_mb;
      peak->held_mb += allocation->size_kb / 1024.0;
      g_array_append_val (peak->holders, holder);
    }
  g_array_sort_with_data (peak->holders, compare_holders, self->allocations);
}

/* ------------------------------------------------------------------ */
/* Lifetimes */

gint64
sl_memory_allocation_end_ns (SlMemoryProfile          *self,
                             const SlMemoryAllocation *allocation)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), -1);
  g_return_val_if_fail (allocation != NULL, -1);

  if (allocation->release_ns != SL_MEMORY_NOT_RELEASED)
    return allocation->release_ns;
  return MAX (self->end_ns, allocation->allocation_ns);
}

static int
compare_by_start (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  GArray *allocations = user_data;
  gint64 sa = g_array_index (allocations, SlMemoryAllocation, *(const guint *)a).allocation_ns;
  gint64 sb = g_array_index (allocations, SlMemoryAllocation, *(const guint *)b).allocation_ns;

  if (sa != sb)
    return sa < sb ? -1 : 1;
  return *(const guint *)a < *(const guint *)b ? -1 : 1;
}

/* Joins sorted spans that are closer than @gap. */
static GArray *
join_spans (GArray *spans,
            double  gap)
{
  GArray *joined = g_array_new (FALSE, FALSE, sizeof (SlMemorySpan));

  for (guint i = 0; i < spans->len; i++)
    {
      const SlMemorySpan *span = &g_array_index (spans, SlMemorySpan, i);
      SlMemorySpan *last = joined->len ? &g_array_index (joined, SlMemorySpan, joined->len - 1) : NULL;

      if (last != NULL && (double)span->start_ns - (double)last->end_ns <= gap)
        {
          last->end_ns = MAX (last->end_ns, span->end_ns);
          last->count += span->count;
        }
      else
        g_array_append_val (joined, *span);
    }
  return joined;
}

static void
build_lanes (SlMemoryProfile *self)
{
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->allocations->len);
  gint64 lane_end[MAX_LANES];
  GArray *lanes[MAX_LANES] = { NULL };
  double range = MAX (1.0, (double)self->end_ns - (double)self->start_ns);

  for (guint i = 0; i < self->allocations->len; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_by_start, self->allocations);

  for (guint i = 0; i < order->len; i++)
    {
      guint index = g_array_index (order, guint, i);
      SlMemoryAllocation *allocation = &g_array_index (self->allocations, SlMemoryAllocation, index);
      SlMemorySpan span = { allocation->allocation_ns, sl_memory_allocation_end_ns (self, allocation), index, 1 };
      guint lane = 0;

      while (lane < self->n_lanes && lane_end[lane] > span.start_ns)
        lane++;
      if (lane == MAX_LANES)
        lane = MAX_LANES - 1;
      if (lane == self->n_lanes)
        {
          self->n_lanes++;
          lanes[lane] = g_array_new (FALSE, FALSE, sizeof (SlMemorySpan));
          lane_end[lane] = G_MININT64;
        }
      lane_end[lane] = MAX (lane_end[lane], span.end_ns);
      allocation->lane = lane;
      g_array_append_val (lanes[lane], span);
    }

  self->level_gap[0] = 0;
  for (guint level = 1; level < N_LEVELS; level++)
    self->level_gap[level] = range * pow (4, level - 1) / LEVEL_BASE;

  for (guint lane = 0; lane < self->n_lanes; lane++)
    {
      /* Level 0 still joins the overlaps of the last lane. */
      self->levels[lane][0] = join_spans (lanes[lane], 0);
      for (guint level = 1; level < N_LEVELS; level++)
        self->levels[lane][level] = join_spans (self->levels[lane][level - 1], self->level_gap[level]);
      g_array_unref (lanes[lane]);
    }
}

/**
 * sl_memory_profile_finish:
 *
 * Sorts the curves and computes the peak, the holders, the shares and
 * the lifetimes' lanes. Runs in the worker that read the files.
 */
void
sl_memory_profile_finish (SlMemoryProfile *self)
{
  g_return_if_fail (SL_IS_MEMORY_PROFILE (self));

  if (self->finished)
    return;
  self->finished = TRUE;

  for (guint i = 0; i < self->curves->len; i++)
    finish_curve (self, g_ptr_array_index (self->curves, i));
  for (guint i = 0; i < self->modules->len; i++)
    finish_curve (self, g_ptr_array_index (self->modules, i));
  for (guint i = 0; i < self->allocations->len; i++)
    {
      const SlMemoryAllocation *allocation = &g_array_index (self->allocations, SlMemoryAllocation, i);

      self->start_ns = MIN (self->start_ns, allocation->allocation_ns);
      self->end_ns = MAX (self->end_ns, MAX (allocation->allocation_ns, allocation->release_ns));
    }

  find_peak_sample (self);
  if (self->peak.found)
    {
      find_shares (self);
      find_holders (self);
    }
  build_lanes (self);
}

/* ------------------------------------------------------------------ */
/* Reading */

gboolean
sl_memory_profile_is_empty (SlMemoryProfile *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), TRUE);
  return self->curves->len == 0 && self->modules->len == 0 && self->allocations->len == 0;
}

/**
 * sl_memory_profile_get_files:
 *
 * Returns: (transfer none) (element-type utf8): the files read
 */
GPtrArray *
sl_memory_profile_get_files (SlMemoryProfile *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), NULL);
  return self->files;
}

guint
sl_memory_profile_get_n_curves (SlMemoryProfile *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), 0);
  return self->curves->len;
}

const SlMemoryCurve *
sl_memory_profile_get_curve (SlMemoryProfile *self,
                             guint            index)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->curves->len, NULL);
  return g_ptr_array_index (self->curves, index);
}

guint
sl_memory_profile_get_n_modules (SlMemoryProfile *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), 0);
  return self->modules->len;
}

const SlMemoryCurve *
sl_memory_profile_get_module (SlMemoryProfile *self,
                              guint            index)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->modules->len, NULL);
  return g_ptr_array_index (self->modules, index);
}

guint
sl_memory_profile_get_n_allocations (SlMemoryProfile *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), 0);
  return self->allocations->len;
}

const SlMemoryAllocation *
sl_memory_profile_get_allocation (SlMemoryProfile *self,
                                  guint            index)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->allocations->len, NULL);
  return &g_array_index (self->allocations, SlMemoryAllocation, index);
}

/**
 * sl_memory_profile_get_peak:
 *
 * Returns: (transfer none): the peak; found is FALSE without an
 *   allocated total, or before sl_memory_profile_finish()
 */
const SlMemoryPeak *
sl_memory_profile_get_peak (SlMemoryProfile *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), NULL);
  return &self->peak;
}

/**
 * sl_memory_profile_get_time_range:
 *
 * Returns: FALSE when nothing has a time
 */
gboolean
sl_memory_profile_get_time_range (SlMemoryProfile *self,
                                  gint64          *start_ns,
                                  gint64          *end_ns)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), FALSE);

  if (self->start_ns > self->end_ns)
    return FALSE;
  if (start_ns != NULL)
    *start_ns = self->start_ns;
  if (end_ns != NULL)
    *end_ns = self->end_ns;
  return TRUE;
}

guint
sl_memory_profile_get_n_lanes (SlMemoryProfile *self)
{
  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), 0);
  return self->n_lanes;
}

const SlMemorySpan *
sl_memory_profile_get_spans (SlMemoryProfile *self,
                             guint            lane,
                             double           ns_per_pixel,
                             guint           *n_spans)
{
  guint level = 0;
  GArray *spans;

  g_return_val_if_fail (SL_IS_MEMORY_PROFILE (self), NULL);
  g_return_val_if_fail (n_spans != NULL, NULL);

  *n_spans = 0;
  if (lane >= self->n_lanes)
    return NULL;
  while (level + 1 < N_LEVELS && self->level_gap[level + 1] <= ns_per_pixel)
    level++;
  spans = self->levels[lane][level];
  *n_spans = spans->len;
  return (const SlMemorySpan *)(gpointer)spans->data;
}
