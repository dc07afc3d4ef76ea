/* sl-trace-search.c: finding the slices of a trace by their name
 *
 * The index keeps every string casefolded once and, per name, the slices
 * of that name as global ids (the slices of the thread and async tracks
 * numbered in track order, then slice order): 4 bytes a slice. A search
 * takes its matches in that order up to the cap, as reading every track in
 * turn would, marks them in a bitmap to put them back in track order, and
 * sorts them by start with a stable radix sort.
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

static GMutex index_lock;

/* The only reads of slice columns here, so that they are easy to find. */
static inline guint32
slice_name (const SlTraceSlices *s,
            guint32              i)
{
  return s->name_id[i];
}

static inline gint64
slice_start (const SlTraceSlices *s,
             guint32              i)
{
  return s->start_ns[i];
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

/* How many of a name's gids are below @cut. */
static guint32
count_below (const guint32 *gids,
             guint32        n,
             guint32        cut)
{
  guint32 lo = 0, hi = n;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (gids[mid] < cut)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static int
compare_gids (const void *a,
              const void *b)
{
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

  return (x > y) - (x < y);
}

/* Stable least-significant-digit radix sort by start. */
static void
sort_by_start (SlTraceSearchMatch *m,
               gsize               n)
{
  g_autofree SlTraceSearchMatch *tmp = NULL;
  SlTraceSearchMatch *from = m, *to;
  guint64 low, span = 0;

  if (n < 2)
    return;
  low = (guint64)m[0].start_ns;
  for (gsize i = 1; i < n; i++)
    if (m[i].start_ns < (gint64)low)
      low = (guint64)m[i].start_ns;
  for (gsize i = 0; i < n; i++)
    span = MAX (span, (guint64)m[i].start_ns - low);

  to = tmp = g_new (SlTraceSearchMatch, n);
  for (guint shift = 0; shift < 64 && (span >> shift) != 0; shift += 11)
    {
      gsize count[2048] = { 0 };
      gsize sum = 0;

      for (gsize i = 0; i < n; i++)
        count[(((guint64)from[i].start_ns - low) >> shift) & 2047]++;
      if (count[(((guint64)from[0].start_ns - low) >> shift) & 2047] == n)
        continue;   /* one digit for all: nothing to move */
      for (guint b = 0; b < 2048; b++)
        {
          gsize c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        to[count[(((guint64)from[i].start_ns - low) >> shift) & 2047]++] = from[i];
      {
        SlTraceSearchMatch *swap = from;

        from = to;
        to = swap;
      }
    }
  if (from != m)
    memcpy (m, from, n * sizeof *m);
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
  g_autofree guint32 *take = NULL;
  guint64 total = 0;
  guint32 n_take = 0, cut;
  GArray *matches;
  SlTraceSearchMatch *out;
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

  /* Past the cap, the matches are those below the global id @cut where
   * exactly @max_matches lie below it. */
  cut = n_gids;
  if (total > max_matches)
    {
      guint32 lo = 0, hi = n_gids;

      while (lo < hi)
        {
          guint32 mid = lo + (hi - lo) / 2;
          guint64 below = 0;

          for (guint j = 0; j < names->len; j++)
            {
              guint32 name = g_array_index (names, guint32, j);

              below += count_below (self->gids + self->name_offset[name],
                                    self->name_offset[name + 1] - self->name_offset[name], mid);
            }
          if (below < max_matches)
            lo = mid + 1;
          else
            hi = mid;
        }
      cut = lo;
    }

  take = g_new (guint32, names->len + 1);
  for (guint j = 0; j < names->len; j++)
    {
      guint32 name = g_array_index (names, guint32, j);
      guint32 n = self->name_offset[name + 1] - self->name_offset[name];

      take[j] = cut == n_gids ? n : count_below (self->gids + self->name_offset[name], n, cut);
      n_take += take[j];
    }

  matches = g_array_sized_new (FALSE, FALSE, sizeof (SlTraceSearchMatch), n_take);
  g_array_set_size (matches, n_take);
  out = (SlTraceSearchMatch *)(gpointer)matches->data;

  /* Back in global id order: sort few, mark many in a bitmap. */
  if ((guint64)n_take * 64 < n_gids)
    {
      g_autofree guint32 *order = g_new (guint32, n_take + 1);
      gsize n = 0;
      guint tc = 0;

      for (guint j = 0; j < names->len; j++)
        {
          guint32 name = g_array_index (names, guint32, j);

          memcpy (order + n, self->gids + self->name_offset[name], take[j] * sizeof (guint32));
          n += take[j];
        }
      qsort (order, n, sizeof (guint32), compare_gids);
      for (gsize i = 0; i < n; i++)
        {
          while (order[i] >= self->base[tc + 1])
            tc++;
          out[k].track = self->tracks[tc];
          out[k].slice = order[i] - self->base[tc];
          out[k].start_ns = slice_start (sl_trace_get_slices (self->trace, self->tracks[tc]), out[k].slice);
          k++;
        }
    }
  else
    {
      gsize n_words = (n_gids + 63) / 64;
      g_autofree guint64 *bits = g_new0 (guint64, n_words);
      const SlTraceSlices *s = NULL;
      guint tc = 0;

      for (guint j = 0; j < names->len; j++)
        {
          const guint32 *g = self->gids + self->name_offset[g_array_index (names, guint32, j)];

          if (g_cancellable_is_cancelled (cancellable))
            {
              g_array_unref (matches);
              return NULL;
            }
          for (guint32 i = 0; i < take[j]; i++)
            bits[g[i] / 64] |= G_GUINT64_CONSTANT (1) << (g[i] % 64);
        }
      for (gsize w = 0; w < n_words; w++)
        {
          guint64 word = bits[w];

          while (word != 0)
            {
              guint32 gid = (guint32)(w * 64 + __builtin_ctzll (word));

              word &= word - 1;
              while (gid >= self->base[tc + 1])
                tc++, s = NULL;
              if (s == NULL)
                s = sl_trace_get_slices (self->trace, self->tracks[tc]);
              out[k].track = self->tracks[tc];
              out[k].slice = gid - self->base[tc];
              out[k].start_ns = slice_start (s, out[k].slice);
              k++;
            }
        }
    }
  g_assert (k == n_take);

  if (n_take < max_matches)
    collect_unindexed (self, hits, max_matches, matches);
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (matches);
      return NULL;
    }
  sort_by_start ((SlTraceSearchMatch *)(gpointer)matches->data, matches->len);
  return matches;
}
