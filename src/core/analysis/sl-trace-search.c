/* sl-trace-search.c: finding the slices of a trace by their name
 *
 * The slices of the thread and async tracks are numbered twice: by global
 * id (in track order, then slice order) and by rank (in time order, ties
 * in id order). The build merges the tracks by start once to rank them.
 * The index keeps every string casefolded once, per rank the global id,
 * and per name the ranks of its slices, ascending: 8 bytes a slice. A
 * search of one name takes the first ranks of its list up to the cap; a
 * search of several finds the rank below which the cap's worth of their
 * slices lie, marks those in a bitmap and reads it in order, or, when an
 * eighth of the slices or more match, reads the slices in time order
 * until it has the cap's worth. Either way
 * the cap keeps the earliest matches of the whole trace, with no start
 * compared at search time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sl-trace-index-slot.h"
#include "sl-trace-search.h"

struct _SlTraceSearch
{
  SlTrace *trace;          /* not owned: the index lives in the trace's data */
  guint    n_strings;
  guint32 *folded_offset;  /* n_strings + 1, into folded */
  char    *folded;         /* every string casefolded, each with its NUL */
  guint    n_tracks;       /* the thread and async tracks with slices */
  guint   *tracks;
  const SlTraceSlices **slices;  /* of each of tracks */
  guint32 *base;           /* n_tracks + 1: global id of each track's first slice */
  guint32 *coarse;         /* per 2^COARSE_SHIFT ids, the track (in tracks) of the first */
  guint32 *order;          /* per rank, the global id */
  guint32 *name_offset;    /* n_strings + 1, into ranks */
  guint32 *ranks;          /* per name, ascending */
};

#define COARSE_SHIFT 16

#define PREFETCH 64   /* slices ahead: a memory read takes about that many loop turns */

/* The only reads of slice columns here, so that they are easy to find. */
static inline guint32
slice_name (const SlTraceSlices *s,
            guint32              i)
{
  return sl_trace_slices_name_id (s, i);
}

static inline gint64
slice_start (const SlTraceSlices *s,
             guint32              i)
{
  return sl_trace_slices_start_ns (s, i);
}

/* asks for the start of a slice read soon */
static inline void
slice_start_prefetch (const SlTraceSlices *s,
                      guint32              i)
{
  __builtin_prefetch (s->start_offset + i);
}

static void
search_free (SlTraceSearch *self)
{
  g_free (self->folded_offset);
  g_free (self->folded);
  g_free (self->tracks);
  g_free (self->slices);
  g_free (self->base);
  g_free (self->coarse);
  g_free (self->name_offset);
  g_free (self->order);
  g_free (self->ranks);
  g_free (self);
}

/* A k-way merge by start, ties to the smaller id: a heap of heads, each
 * the next of a run sorted so. */
typedef struct {
  gint64  start_ns;
  guint32 gid;
  guint32 run;
} Head;

static inline gboolean
head_before (const Head *x,
             const Head *y)
{
  return x->start_ns < y->start_ns || (x->start_ns == y->start_ns && x->gid < y->gid);
}

static void
heap_down (Head  *heap,
           guint  n,
           guint  i)
{
  Head moving = heap[i];

  for (;;)
    {
      guint l = 2 * i + 1, m;

      if (l >= n)
        break;
      m = l + 1 < n && head_before (&heap[l + 1], &heap[l]) ? l + 1 : l;
      if (!head_before (&heap[m], &moving))
        break;
      heap[i] = heap[m];
      i = m;
    }
  heap[i] = moving;
}

/* the second earliest head of a heap of at least two */
static inline const Head *
heap_second (const Head *heap,
             guint       n)
{
  return n > 2 && head_before (&heap[2], &heap[1]) ? &heap[2] : &heap[1];
}

/* Ranks every indexed slice and puts its rank after the earlier ones of
 * its name: the tracks merged by start, each track's slices read in turn
 * while they come before every other track's next. */
static gboolean
place_by_time (SlTraceSearch *self,
               guint32       *cursor,
               GCancellable  *cancellable)
{
  g_autofree Head *heap = g_new (Head, MAX (self->n_tracks, 1));
  guint n = 0, turns = 0;
  guint32 rank = 0;

  for (guint k = 0; k < self->n_tracks; k++)
    heap[n++] = (Head) { slice_start (self->slices[k], 0), self->base[k], k };
  for (guint i = n / 2; i-- > 0;)
    heap_down (heap, n, i);
  while (n > 0)
    {
      Head *h = &heap[0];
      guint k = h->run;
      const SlTraceSlices *s = self->slices[k];
      guint32 first = self->base[k], end = self->base[k + 1] - first;
      guint32 i = h->gid - first;

      if (n == 1)
        {
          for (; i < end; i++)
            {
              self->order[rank] = first + i;
              self->ranks[cursor[slice_name (s, i)]++] = rank++;
            }
          break;
        }
      else
        {
          const Head *second = heap_second (heap, n);
          gint64 start = h->start_ns;

          for (;;)
            {
              self->order[rank] = first + i;
              self->ranks[cursor[slice_name (s, i)]++] = rank++;
              if (++i == end)
                break;
              start = slice_start (s, i);
              if (start > second->start_ns || (start == second->start_ns && first + i > second->gid))
                break;
            }
          if (i == end)
            heap[0] = heap[--n];
          else
            {
              h->start_ns = start;
              h->gid = first + i;
            }
          heap_down (heap, n, 0);
        }
      if (++turns % 4096 == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }
  return TRUE;
}

static SlTraceSearch *
search_build (SlTrace      *trace,
              GCancellable *cancellable)
{
  SlTraceSearch *self = g_new0 (SlTraceSearch, 1);
  guint n_tracks = sl_trace_get_n_tracks (trace);
  GString *folded = g_string_new (NULL);
  guint64 total = 0;
  guint32 *cursor;

  self->trace = trace;
  self->n_strings = MAX (sl_trace_get_n_strings (trace), 1);

  self->folded_offset = g_new (guint32, self->n_strings + 1);
  for (guint i = 0; i < self->n_strings; i++)
    {
      g_autofree char *f = g_utf8_casefold (i < sl_trace_get_n_strings (trace) ? sl_trace_get_string (trace, i) : "", -1);

      /* a trace of millions of different names takes a while here */
      if (i % 65536 == 65535 && g_cancellable_is_cancelled (cancellable))
        {
          g_string_free (folded, TRUE);
          search_free (self);
          return NULL;
        }
      self->folded_offset[i] = folded->len;
      g_string_append_len (folded, f, strlen (f) + 1);
    }
  self->folded_offset[self->n_strings] = folded->len;
  self->folded = g_string_free (folded, FALSE);

  self->tracks = g_new (guint, n_tracks + 1);
  self->slices = g_new (const SlTraceSlices *, n_tracks + 1);
  self->base = g_new (guint32, n_tracks + 1);
  for (guint t = 0; t < n_tracks; t++)
    {
      const SlTraceSlices *s;

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER
          || (s = sl_trace_get_slices (trace, t)) == NULL || s->n_slices == 0)
        continue;
      if (total + s->n_slices > G_MAXUINT32)
        break;   /* the rest is not indexed: searches read it slice by slice */
      self->tracks[self->n_tracks] = t;
      self->slices[self->n_tracks] = s;
      self->base[self->n_tracks++] = total;
      total += s->n_slices;
    }
  self->base[self->n_tracks] = total;

  /* Count per name, then place each slice after the ones before it. */
  self->name_offset = g_new0 (guint32, self->n_strings + 1);
  for (guint k = 0; k < self->n_tracks; k++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, self->tracks[k]);

      if (g_cancellable_is_cancelled (cancellable))
        {
          search_free (self);
          return NULL;
        }
      for (guint32 i = 0; i < s->n_slices; i++)
        self->name_offset[slice_name (s, i) + 1]++;
    }
  for (guint i = 0; i < self->n_strings; i++)
    self->name_offset[i + 1] += self->name_offset[i];

  self->coarse = g_new (guint32, (total >> COARSE_SHIFT) + 1);
  for (guint32 c = 0, k = 0; c <= total >> COARSE_SHIFT; c++)
    {
      while (k + 1 < self->n_tracks && ((guint64)c << COARSE_SHIFT) >= self->base[k + 1])
        k++;
      self->coarse[c] = k;
    }

  /* Every slice in time order (the tracks merged by start, ties to the
   * earlier track), each put after the earlier ones of its name. */
  self->order = g_new (guint32, MAX (total, 1));
  self->ranks = g_new (guint32, MAX (total, 1));
  cursor = g_memdup2 (self->name_offset, sizeof (guint32) * self->n_strings);
  if (!place_by_time (self, cursor, cancellable))
    {
      g_free (cursor);
      search_free (self);
      return NULL;
    }
  g_free (cursor);
  return self;
}

static gpointer
build_cb (SlTrace      *trace,
          GCancellable *cancellable)
{
  return search_build (trace, cancellable);
}

static void
free_cb (gpointer index)
{
  search_free (index);
}

/**
 * sl_trace_search_get:
 *
 * The search index of @trace, built on the first call (in the calling
 * thread: call it on a worker) and kept as long as the trace. Concurrent
 * first calls build it once.
 *
 * Returns: (transfer none) (nullable): the index, or %NULL when
 *   @cancellable was cancelled while building it
 */
SlTraceSearch *
sl_trace_search_get (SlTrace      *trace,
                     GCancellable *cancellable)
{
  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  return sl_trace_index_slot_get (trace, "sl-trace-search", build_cb, free_cb, cancellable);
}

/**
 * sl_trace_search_peek:
 *
 * Returns: (transfer none) (nullable): the index of @trace if it is
 *   built, without building it or waiting for a build
 */
SlTraceSearch *
sl_trace_search_peek (SlTrace *trace)
{
  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  return sl_trace_index_slot_peek (trace, "sl-trace-search");
}

/* Bytes held by the index (the per-name slice lists are 4 a slice). */
gsize
sl_trace_search_get_memory_size (SlTraceSearch *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return sizeof *self
         + sizeof (guint32) * (self->n_strings + 1) * 2
         + self->folded_offset[self->n_strings]
         + (sizeof (guint) + sizeof (gpointer) + sizeof (guint32)) * (self->n_tracks + 1)
         + sizeof (guint32) * ((self->base[self->n_tracks] >> COARSE_SHIFT) + 1)
         + sizeof (guint32) * 2 * self->base[self->n_tracks];
}

/**
 * sl_trace_search_match_names:
 * @text: a substring (any case) or, with @regex, a regular expression
 * @names: (nullable): a link's exact names, matched instead of @text
 * @narrow_text: (nullable): the text of an earlier substring search
 * @narrow_hits: (nullable): its hits; when @text is a substring search
 *   whose folded text holds @narrow_text's, only those names are tried
 *
 * Returns: (transfer full) (nullable): per string id of the trace, whether
 *   the name matches (at least one byte long), or %NULL with @error for a
 *   bad expression
 */
guint8 *
sl_trace_search_match_names (SlTraceSearch  *self,
                             const char     *text,
                             gboolean        regex,
                             SlOpNames      *names,
                             const char     *narrow_text,
                             const guint8   *narrow_hits,
                             GError        **error)
{
  g_autoptr(GRegex) re = NULL;
  g_autofree char *needle = NULL;
  g_autofree char *narrow = NULL;
  guint8 *hits;

  g_return_val_if_fail (self != NULL, NULL);

  if (regex && names == NULL)
    {
      re = g_regex_new (text, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, error);
      if (re == NULL)
        return NULL;
    }
  else if (names == NULL)
    {
      needle = g_utf8_casefold (text, -1);
      if (narrow_text != NULL && narrow_hits != NULL)
        {
          narrow = g_utf8_casefold (narrow_text, -1);
          if (strstr (needle, narrow) == NULL)
            narrow_hits = NULL;
        }
    }

  hits = g_new0 (guint8, self->n_strings);
  for (guint i = 1; i < self->n_strings; i++)
    {
      if (names != NULL)
        hits[i] = sl_op_names_contains (names, sl_trace_get_string (self->trace, i));
      else if (re != NULL)
        hits[i] = g_regex_match (re, sl_trace_get_string (self->trace, i), 0, NULL);
      else if (narrow != NULL && narrow_hits != NULL && !narrow_hits[i])
        hits[i] = FALSE;
      else
        hits[i] = strstr (self->folded + self->folded_offset[i], needle) != NULL;
    }
  return hits;
}

/* Every slice (of a thread or async track) whose name is in @hits. */
guint64
sl_trace_search_count (SlTraceSearch *self,
                       const guint8  *hits)
{
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->n_strings; i++)
    if (hits[i])
      n += self->name_offset[i + 1] - self->name_offset[i];
  return n;
}

static int
compare_starts (gconstpointer a,
                gconstpointer b)
{
  const SlTraceSearchMatch *x = a, *y = b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* the place in tracks of the track holding a global id */
static inline guint
track_of (SlTraceSearch *self,
          guint32        gid)
{
  guint k = self->coarse[gid >> COARSE_SHIFT];

  while (gid >= self->base[k + 1])
    k++;
  return k;
}

/* Read slice by slice: the tracks past the index's reach. Appends the
 * first @max_matches of each such track (the most a cap can keep of it)
 * and returns how many match in all. */
static guint64
collect_unindexed (SlTraceSearch *self,
                   const guint8  *hits,
                   guint          max_matches,
                   GArray        *matches)
{
  guint first = self->n_tracks > 0 ? self->tracks[self->n_tracks - 1] + 1 : 0;
  guint64 n = 0;

  for (guint t = first; t < sl_trace_get_n_tracks (self->trace); t++)
    {
      const SlTraceSlices *s;
      guint taken = 0;

      if (sl_trace_get_track_kind (self->trace, t) == SL_TRACE_TRACK_COUNTER
          || (s = sl_trace_get_slices (self->trace, t)) == NULL)
        continue;
      for (guint32 i = 0; i < s->n_slices; i++)
        if (hits[slice_name (s, i)])
          {
            SlTraceSearchMatch m = { t, i, slice_start (s, i) };

            n++;
            if (taken++ < max_matches)
              g_array_append_val (matches, m);
          }
    }
  return n;
}

/* The slices of @n_take ranks, ascending. */
static void
take_ranks (SlTraceSearch      *self,
            const guint32      *ranks,
            guint32             n_take,
            SlTraceSearchMatch *out)
{
  for (guint32 i = 0; i < n_take; i++)
    {
      guint32 gid;
      guint k;

      /* ranks far apart are far apart in order too */
      if (i + PREFETCH < n_take)
        __builtin_prefetch (self->order + ranks[i + PREFETCH]);
      gid = self->order[ranks[i]];
      k = track_of (self, gid);

      out[i].track = k;
      out[i].slice = gid - self->base[k];
    }
  /* the starts are scattered over the tracks' columns: ask for them a
   * little ahead */
  for (guint32 i = 0; i < n_take; i++)
    {
      if (i + PREFETCH < n_take)
        slice_start_prefetch (self->slices[out[i + PREFETCH].track], out[i + PREFETCH].slice);
      out[i].start_ns = slice_start (self->slices[out[i].track], out[i].slice);
    }
  for (guint32 i = 0; i < n_take; i++)
    out[i].track = self->tracks[out[i].track];
}

/* how many of the ranks of @names are below @limit */
static guint64
count_below (SlTraceSearch *self,
             GArray        *names,
             guint32        limit)
{
  guint64 n = 0;

  for (guint j = 0; j < names->len; j++)
    {
      guint32 name = g_array_index (names, guint32, j);
      const guint32 *r = self->ranks + self->name_offset[name];
      guint32 lo = 0, hi = self->name_offset[name + 1] - self->name_offset[name];

      while (lo < hi)
        {
          guint32 mid = lo + (hi - lo) / 2;

          if (r[mid] < limit)
            lo = mid + 1;
          else
            hi = mid;
        }
      n += lo;
    }
  return n;
}

static int
compare_ranks (const void *a,
               const void *b)
{
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

  return (x > y) - (x < y);
}

/* The first @n_take ranks of several names' lists, ascending; %NULL when
 * cancelled. */
static guint32 *
merge_ranks (SlTraceSearch *self,
             const guint8  *hits,
             GArray        *names,
             guint64        total,
             guint32        n_take,
             GCancellable  *cancellable)
{
  guint32 n_ranks = self->base[self->n_tracks];
  guint32 limit = n_ranks;
  guint32 *taken = g_new (guint32, MAX (n_take, 1));
  gsize k = 0;

  if ((guint64)n_ranks <= (guint64)n_take * 8)
    {
      /* an eighth of the slices or more match: reading them in time order
       * finds the first n_take soon, with no search for where they end */
      for (guint32 r = 0; r < n_ranks && k < n_take; r++)
        {
          guint32 gid = self->order[r];
          guint t = track_of (self, gid);

          if (hits[slice_name (self->slices[t], gid - self->base[t])])
            taken[k++] = r;
          if (r % 1048576 == 1048575 && g_cancellable_is_cancelled (cancellable))
            {
              g_free (taken);
              return NULL;
            }
        }
      g_assert (k == n_take);
      return taken;
    }

  if (total == n_take && total * 64 < n_ranks)
    {
      /* few: sorting them is quicker than a bitmap of every rank */
      for (guint j = 0; j < names->len; j++)
        {
          guint32 name = g_array_index (names, guint32, j);
          guint32 n = self->name_offset[name + 1] - self->name_offset[name];

          memcpy (taken + k, self->ranks + self->name_offset[name], n * sizeof (guint32));
          k += n;
        }
      qsort (taken, k, sizeof (guint32), compare_ranks);
      return taken;
    }

  if (total > n_take)
    {
      /* the least limit with n_take ranks below it: then exactly those */
      guint32 lo = 0, hi = n_ranks;

      while (lo < hi)
        {
          guint32 mid = lo + (hi - lo) / 2;

          if (count_below (self, names, mid) >= n_take)
            hi = mid;
          else
            lo = mid + 1;
        }
      limit = lo;
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_free (taken);
      return NULL;
    }

  {
    gsize n_words = (limit + 63) / 64;
    /* zeroed on demand: only the pages marked are touched */
    g_autofree guint64 *bits = g_new0 (guint64, MAX (n_words, 1));

    for (guint j = 0; j < names->len; j++)
      {
        guint32 name = g_array_index (names, guint32, j);
        const guint32 *r = self->ranks + self->name_offset[name];
        guint32 n = self->name_offset[name + 1] - self->name_offset[name];

        for (guint32 i = 0; i < n && r[i] < limit; i++)
          bits[r[i] / 64] |= G_GUINT64_CONSTANT (1) << (r[i] % 64);
      }
    for (gsize w = 0; w < n_words && k < n_take; w++)
      {
        guint64 word = bits[w];

        while (word != 0 && k < n_take)
          {
            taken[k++] = (guint32)(w * 64 + __builtin_ctzll (word));
            word &= word - 1;
          }
      }
  }
  g_assert (k == n_take);
  return taken;
}

/**
 * sl_trace_search_collect:
 * @hits: per string id, whether the name matches
 * @max_matches: the most to return
 * @n_total: (out) (optional): how many slices match in all
 *
 * The slices (of thread and async tracks) whose name is in @hits, by
 * start (ties in track order, then slice order): the earliest
 * @max_matches of them.
 *
 * Returns: (transfer full) (nullable): #SlTraceSearchMatch, or %NULL when
 *   cancelled
 */
GArray *
sl_trace_search_collect (SlTraceSearch *self,
                         const guint8  *hits,
                         guint          max_matches,
                         guint64       *n_total,
                         GCancellable  *cancellable)
{
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 total = 0;
  guint32 n_take;
  GArray *matches;
  SlTraceSearchMatch *out;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (hits != NULL, NULL);

  for (guint32 i = 0; i < self->n_strings; i++)
    if (hits[i] && self->name_offset[i + 1] > self->name_offset[i])
      {
        g_array_append_val (names, i);
        total += self->name_offset[i + 1] - self->name_offset[i];
      }
  n_take = MIN (total, max_matches);

  matches = g_array_sized_new (FALSE, FALSE, sizeof (SlTraceSearchMatch), n_take);
  g_array_set_size (matches, n_take);
  out = (SlTraceSearchMatch *)(gpointer)matches->data;
  if (names->len == 1)
    take_ranks (self, self->ranks + self->name_offset[g_array_index (names, guint32, 0)], n_take, out);
  else if (n_take > 0)
    {
      g_autofree guint32 *taken = merge_ranks (self, hits, names, total, n_take, cancellable);

      if (taken == NULL)
        {
          g_array_unref (matches);
          return NULL;
        }
      take_ranks (self, taken, n_take, out);
    }

  if (self->n_tracks < sl_trace_get_n_tracks (self->trace))
    {
      total += collect_unindexed (self, hits, max_matches, matches);
      if (matches->len > n_take)
        {
          /* stable: the indexed tracks come first */
          g_array_sort (matches, compare_starts);
          g_array_set_size (matches, MIN (matches->len, max_matches));
        }
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (matches);
      return NULL;
    }
  if (n_total != NULL)
    *n_total = total;
  return matches;
}
