/* sl-trace-search.c: finding the slices of a trace by their name
 *
 * The index keeps every string casefolded once and, per name, the slices
 * of that name as global ids (the slices of the thread and async tracks
 * numbered in track order, then slice order): 4 bytes a slice. A search
 * takes its matches in that order up to the cap, as reading every track in
 * turn would, marks them in a bitmap to put them back in track order (each
 * track's then in start order), and merges the tracks by start.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sl-trace-search.h"

struct _SlTraceSearch
{
  SlTrace *trace;          /* not owned: the index lives in the trace's data */
  guint    n_strings;
  guint32 *folded_offset;  /* n_strings + 1, into folded */
  char    *folded;         /* every string casefolded, each with its NUL */
  guint    n_tracks;       /* the thread and async tracks with slices */
  guint   *tracks;
  guint32 *base;           /* n_tracks + 1: global id of each track's first slice */
  guint32 *name_offset;    /* n_strings + 1, into gids */
  guint32 *gids;           /* per name, ascending */
};

#define PREFETCH 64   /* slices ahead: a memory read takes about that many loop turns */

static GMutex index_lock;

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
  g_free (self->base);
  g_free (self->name_offset);
  g_free (self->gids);
  g_free (self);
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

      self->folded_offset[i] = folded->len;
      g_string_append_len (folded, f, strlen (f) + 1);
    }
  self->folded_offset[self->n_strings] = folded->len;
  self->folded = g_string_free (folded, FALSE);

  self->tracks = g_new (guint, n_tracks + 1);
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

  self->gids = g_new (guint32, MAX (total, 1));
  cursor = g_memdup2 (self->name_offset, sizeof (guint32) * self->n_strings);
  for (guint k = 0; k < self->n_tracks; k++)
    {
      const SlTraceSlices *s = sl_trace_get_slices (trace, self->tracks[k]);
      guint32 gid = self->base[k];

      if (g_cancellable_is_cancelled (cancellable))
        {
          g_free (cursor);
          search_free (self);
          return NULL;
        }
      for (guint32 i = 0; i < s->n_slices; i++)
        self->gids[cursor[slice_name (s, i)]++] = gid + i;
    }
  g_free (cursor);
  return self;
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
  static GQuark quark;
  SlTraceSearch *self;

  g_return_val_if_fail (SL_IS_TRACE (trace), NULL);

  if (quark == 0)
    quark = g_quark_from_static_string ("sl-trace-search");
  g_mutex_lock (&index_lock);
  self = g_object_get_qdata (G_OBJECT (trace), quark);
  if (self == NULL && (self = search_build (trace, cancellable)) != NULL)
    g_object_set_qdata_full (G_OBJECT (trace), quark, self, (GDestroyNotify)search_free);
  g_mutex_unlock (&index_lock);
  return self;
}

/* Bytes held by the index (the per-name slice lists are 4 a slice). */
gsize
sl_trace_search_get_memory_size (SlTraceSearch *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return sizeof *self
         + sizeof (guint32) * (self->n_strings + 1) * 2
         + self->folded_offset[self->n_strings]
         + (sizeof (guint) + sizeof (guint32)) * (self->n_tracks + 1)
         + sizeof (guint32) * self->base[self->n_tracks];
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
compare_gids (const void *a,
              const void *b)
{
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

  return (x > y) - (x < y);
}

static int
compare_starts (gconstpointer a,
                gconstpointer b)
{
  const SlTraceSearchMatch *x = a, *y = b;

  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* Merges runs (each sorted by start, in track order) into @out by start,
 * ties to the earlier run: a heap of run heads. */
typedef struct {
  gint64                    start_ns;   /* of at */
  guint                     run;
  const SlTraceSearchMatch *at;
  const SlTraceSearchMatch *end;
} Head;

static inline gboolean
head_before (const Head *x,
             const Head *y)
{
  return x->start_ns < y->start_ns || (x->start_ns == y->start_ns && x->run < y->run);
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

static void
merge_runs (const SlTraceSearchMatch *in,
            const gsize              *run_start,
            guint                     n_runs,
            SlTraceSearchMatch       *out)
{
  g_autofree Head *heap = g_new (Head, MAX (n_runs, 1));
  guint n = 0;
  gsize k = 0;

  for (guint r = 0; r < n_runs; r++)
    if (run_start[r + 1] > run_start[r])
      heap[n++] = (Head) { in[run_start[r]].start_ns, r, in + run_start[r], in + run_start[r + 1] };
  for (guint i = n / 2; i-- > 0;)
    heap_down (heap, n, i);
  while (n > 1)
    {
      /* the earliest run gives until another run is earlier */
      const Head *second = n > 2 && head_before (&heap[2], &heap[1]) ? &heap[2] : &heap[1];

      do
        out[k++] = *heap[0].at++;
      while (heap[0].at < heap[0].end
             && (heap[0].at->start_ns < second->start_ns
                 || (heap[0].at->start_ns == second->start_ns && heap[0].run < second->run)));
      if (heap[0].at == heap[0].end)
        heap[0] = heap[--n];
      else
        heap[0].start_ns = heap[0].at->start_ns;
      heap_down (heap, n, 0);
    }
  if (n == 1)
    memcpy (out + k, heap[0].at, (heap[0].end - heap[0].at) * sizeof *out);
}

/* Read slice by slice: the tracks past the index's reach. */
static void
collect_unindexed (SlTraceSearch *self,
                   const guint8  *hits,
                   guint          max_matches,
                   GArray        *matches)
{
  guint first = self->n_tracks > 0 ? self->tracks[self->n_tracks - 1] + 1 : 0;

  for (guint t = first; t < sl_trace_get_n_tracks (self->trace) && matches->len < max_matches; t++)
    {
      const SlTraceSlices *s;

      if (sl_trace_get_track_kind (self->trace, t) == SL_TRACE_TRACK_COUNTER
          || (s = sl_trace_get_slices (self->trace, t)) == NULL)
        continue;
      for (guint32 i = 0; i < s->n_slices && matches->len < max_matches; i++)
        if (hits[slice_name (s, i)])
          {
            SlTraceSearchMatch m = { t, i, slice_start (s, i) };

            g_array_append_val (matches, m);
          }
    }
}

/**
 * sl_trace_search_collect:
 * @hits: per string id, whether the name matches
 * @max_matches: the most to return
 *
 * The slices (of thread and async tracks) whose name is in @hits: the
 * first @max_matches of them in track order, then slice order, sorted by
 * start (ties in that order).
 *
 * Returns: (transfer full) (nullable): #SlTraceSearchMatch, or %NULL when
 *   cancelled
 */
GArray *
sl_trace_search_collect (SlTraceSearch *self,
                         const guint8  *hits,
                         guint          max_matches,
                         GCancellable  *cancellable)
{
  guint32 n_gids;
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree gsize *run_start = NULL;   /* per indexed track, in out */
  guint64 total = 0;
  guint32 n_take;
  GArray *matches;
  SlTraceSearchMatch *out;              /* by track, then start */
  guint tc = 0, n_runs = 0;
  gsize k = 0;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (hits != NULL, NULL);

  n_gids = self->base[self->n_tracks];
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
  run_start = g_new0 (gsize, self->n_tracks + 1);

  /* Back in global id order: sort few, mark many in a bitmap. */
  if (total <= max_matches && total * 64 < n_gids)
    {
      g_autofree guint32 *order = g_new (guint32, n_take + 1);
      gsize n = 0;

      for (guint j = 0; j < names->len; j++)
        {
          guint32 name = g_array_index (names, guint32, j);

          memcpy (order + n, self->gids + self->name_offset[name],
                  (self->name_offset[name + 1] - self->name_offset[name]) * sizeof (guint32));
          n += self->name_offset[name + 1] - self->name_offset[name];
        }
      qsort (order, n, sizeof (guint32), compare_gids);
      for (gsize i = 0; i < n; i++)
        {
          while (order[i] >= self->base[tc + 1])
            run_start[++tc] = k;
          out[k].track = self->tracks[tc];
          out[k].slice = order[i] - self->base[tc];
          k++;
        }
    }
  else
    {
      gsize n_words = (n_gids + 63) / 64;
      /* zeroed on demand: only the pages marked are touched */
      g_autofree guint64 *bits = g_new0 (guint64, n_words);
      g_autofree guint32 *pos = g_new0 (guint32, names->len + 1);
      guint64 marked = 0;

      /* Track by track, each name's slices in it, until the cap: those
       * after the cap in the last track are marked but not taken. */
      for (guint t = 0; t < self->n_tracks && marked < max_matches; t++)
        {
          if (g_cancellable_is_cancelled (cancellable))
            {
              g_array_unref (matches);
              return NULL;
            }
          for (guint j = 0; j < names->len; j++)
            {
              guint32 name = g_array_index (names, guint32, j);
              const guint32 *g = self->gids + self->name_offset[name];
              guint32 n = self->name_offset[name + 1] - self->name_offset[name], i = pos[j];

              for (; i < n && g[i] < self->base[t + 1]; i++)
                bits[g[i] / 64] |= G_GUINT64_CONSTANT (1) << (g[i] % 64);
              marked += i - pos[j];
              pos[j] = i;
            }
        }
      for (gsize w = 0; w < n_words && k < n_take; w++)
        {
          guint64 word = bits[w];

          while (word != 0 && k < n_take)
            {
              guint32 gid = (guint32)(w * 64 + __builtin_ctzll (word));

              word &= word - 1;
              while (gid >= self->base[tc + 1])
                run_start[++tc] = k;
              out[k].track = self->tracks[tc];
              out[k].slice = gid - self->base[tc];
              k++;
            }
        }
    }
  g_assert (k == n_take);
  for (guint r = tc + 1; r <= self->n_tracks; r++)
    run_start[r] = k;

  /* The starts, a track at a time, asking for those a little ahead: they
   * are scattered over the track's column. */
  for (guint r = 0; r < self->n_tracks; r++)
    {
      const SlTraceSlices *s;
      gsize first = run_start[r], last = run_start[r + 1];

      if (first == last)
        continue;
      s = sl_trace_get_slices (self->trace, self->tracks[r]);
      for (gsize i = first; i < last; i++)
        {
          if (i + PREFETCH < last)
            slice_start_prefetch (s, out[i + PREFETCH].slice);
          out[i].start_ns = slice_start (s, out[i].slice);
        }
    }
  for (guint r = 0; r < self->n_tracks; r++)
    n_runs += run_start[r + 1] > run_start[r];
  if (n_runs > 1)
    {
      g_autofree SlTraceSearchMatch *by_track = g_memdup2 (out, n_take * sizeof *out);

      merge_runs (by_track, run_start, self->n_tracks, out);
    }

  if (n_take < max_matches)
    {
      collect_unindexed (self, hits, max_matches, matches);
      if (matches->len > n_take)
        g_array_sort (matches, compare_starts);
    }
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (matches);
      return NULL;
    }
  return matches;
}
