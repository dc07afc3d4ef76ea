/* sl-graph-search.c: one buffer of folded names, searched in one pass
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-graph-search.h"

/* How many names a regular-expression search matches between checks of
 * the cancellable. */
#define CANCEL_STRIDE 4096

struct _SlGraphSearch
{
  SlGraph    *graph;
  GByteArray *text;        /* folded names, each followed by '\n' */
  GArray     *starts;      /* guint32: where each name starts, then the end */
  GArray     *items;       /* guint32: the item of each name */
  GPtrArray  *types;       /* folded op types (owned), distinct */
  GArray     *type_items;  /* guint32: the op items of each type, laid end to end */
  GArray     *type_starts; /* guint32: per type, its first entry in type_items; then the end */
  guint64     frequency[256]; /* of each byte in the text */
};

static void
append_folded (GByteArray *text,
               const char *s)
{
  gsize len = strlen (s);
  guint offset = text->len;

  g_byte_array_set_size (text, offset + len);
  for (gsize i = 0; i < len; i++)
    {
      /* A newline inside a name would end it early: make it a space. */
      guint8 c = (guint8) g_ascii_tolower (s[i]);

      text->data[offset + i] = c == '\n' ? ' ' : c;
    }
}

static void
add_name (SlGraphSearch *self,
          guint32        item,
          const char    *name)
{
  guint32 start = self->text->len;
  guint8 newline = '\n';

  g_array_append_val (self->starts, start);
  g_array_append_val (self->items, item);
  append_folded (self->text, name);
  g_byte_array_append (self->text, &newline, 1);
}

static void
index_types (SlGraphSearch *self)
{
  SlGraph *graph = self->graph;
  guint n_ops = sl_graph_get_n_ops (graph);
  g_autoptr(GHashTable) by_type = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();

  for (guint e = 0; e < n_ops; e++)
    {
      const char *type = sl_graph_element_get_op_type (graph, e);
      g_autofree char *folded = g_ascii_strdown (type != NULL ? type : "", -1);
      GArray *items = g_hash_table_lookup (by_type, folded);
      guint32 item = sl_graph_element_get_item (graph, e);

      if (items == NULL)
        {
          items = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_ptr_array_add (order, g_strdup (folded));
          g_hash_table_insert (by_type, g_steal_pointer (&folded), items);
        }
      g_array_append_val (items, item);
    }

  self->types = g_ptr_array_new_with_free_func (g_free);
  self->type_items = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->type_starts = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint t = 0; t < order->len; t++)
    {
      char *type = g_ptr_array_index (order, t);
      GArray *items = g_hash_table_lookup (by_type, type);
      guint32 start = self->type_items->len;

      g_array_append_val (self->type_starts, start);
      g_array_append_vals (self->type_items, items->data, items->len);
      g_ptr_array_add (self->types, type);
    }
  {
    guint32 end = self->type_items->len;

    g_array_append_val (self->type_starts, end);
  }
}

/**
 * sl_graph_search_new:
 *
 * Returns: (transfer full): the index of @graph's names
 */
SlGraphSearch *
sl_graph_search_new (SlGraph *graph)
{
  SlGraphSearch *self;
  guint n_items;

  g_return_val_if_fail (SL_IS_GRAPH (graph), NULL);

  self = g_new0 (SlGraphSearch, 1);
  self->graph = g_object_ref (graph);
  self->text = g_byte_array_new ();
  self->starts = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->items = g_array_new (FALSE, FALSE, sizeof (guint32));

  n_items = sl_graph_get_n_items (graph);
  for (guint item = 1; item < n_items; item++)
    {
      SlGraphItemKind kind = sl_graph_item_get_kind (graph, item);

      if (kind == SL_GRAPH_ITEM_OP || kind == SL_GRAPH_ITEM_PARAMETER)
        {
          g_autofree char *name = sl_graph_element_dup_name (graph, sl_graph_item_get_element (graph, item));

          add_name (self, item, name);
        }
      else if (kind == SL_GRAPH_ITEM_SCOPE)
        {
          g_autofree char *path = sl_graph_item_dup_path (graph, item);

          add_name (self, item, path);
        }
    }
  {
    guint32 end = self->text->len;

    g_array_append_val (self->starts, end);
  }
  for (guint i = 0; i < self->text->len; i++)
    self->frequency[self->text->data[i]]++;
  index_types (self);
  return self;
}

void
sl_graph_search_free (SlGraphSearch *self)
{
  if (self == NULL)
    return;

  g_object_unref (self->graph);
  g_byte_array_unref (self->text);
  g_array_unref (self->starts);
  g_array_unref (self->items);
  g_ptr_array_unref (self->types);
  g_array_unref (self->type_items);
  g_array_unref (self->type_starts);
  g_free (self);
}

guint
sl_graph_search_get_n_names (SlGraphSearch *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->items->len;
}

/* Sorted, without repeats: a bitmap over the items costs less than
 * sorting a hundred thousand hits. */
static void
sort_unique (GArray *items,
             guint   n_items)
{
  guint n_words = (n_items + 63) / 64;
  g_autofree guint64 *bits = g_new0 (guint64, MAX (n_words, 1));
  guint out = 0;

  for (guint i = 0; i < items->len; i++)
    {
      guint32 item = g_array_index (items, guint32, i);

      bits[item / 64] |= G_GUINT64_CONSTANT (1) << (item % 64);
    }
  for (guint w = 0; w < n_words; w++)
    for (guint64 word = bits[w]; word != 0; word &= word - 1)
      g_array_index (items, guint32, out++) = w * 64 + __builtin_ctzll (word);
  g_array_set_size (items, out);
}

/* The needle's byte that is rarest in the text: memchr stops there
 * least often ("l" and "e" are everywhere in op names, "q" is not). */
static gsize
rarest_byte (SlGraphSearch *self,
             const char    *needle,
             gsize          needle_len)
{
  gsize best = 0;

  for (gsize i = 1; i < needle_len; i++)
    if (self->frequency[(guint8) needle[i]] < self->frequency[(guint8) needle[best]])
      best = i;
  return best;
}

/* memmem is not in every C library Sightline builds with (Windows'
 * has none): memchr for the rarest byte, then memcmp around it. */
static const guint8 *
find_bytes (const guint8 *haystack,
            gsize         haystack_len,
            const char   *needle,
            gsize         needle_len,
            gsize         pivot)
{
  const guint8 *p;
  const guint8 *last;

  if (needle_len == 0 || needle_len > haystack_len)
    return NULL;
  last = haystack + haystack_len - needle_len;
  p = haystack + pivot;
  while (p <= last + pivot)
    {
      p = memchr (p, (guint8) needle[pivot], last + pivot - p + 1);
      if (p == NULL)
        return NULL;
      if (memcmp (p - pivot, needle, needle_len) == 0)
        return p - pivot;
      p++;
    }
  return NULL;
}

/* The name holding byte @offset, looking on from name @from: hits come
 * in order, so stepping is cheaper than a binary search when they are
 * close, and a gallop keeps far ones cheap. */
static guint
name_from (SlGraphSearch *self,
           guint          from,
           guint32        offset)
{
  const guint32 *starts = (const guint32 *) self->starts->data;
  guint n = self->items->len;
  guint step = 1, lo = from, hi;

  while (lo + step < n && starts[lo + step] <= offset)
    {
      lo += step;
      step *= 2;
    }
  hi = MIN (lo + step, n);
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (starts[mid] <= offset)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

static void
find_substring (SlGraphSearch *self,
                const char    *folded,
                GArray        *hits)
{
  gsize len = strlen (folded);
  const guint8 *text = self->text->data;
  const guint8 *end = text + self->text->len;
  const guint8 *p = text;
  guint name = 0;
  gsize pivot = rarest_byte (self, folded, len);

  if (memchr (folded, '\n', len) != NULL)
    return;
  while (p < end)
    {
      const guint8 *hit = find_bytes (p, end - p, folded, len, pivot);

      if (hit == NULL)
        break;
      name = name_from (self, name, hit - text);
      g_array_append_val (hits, g_array_index (self->items, guint32, name));
      /* On to the next name: one hit per name. */
      p = text + g_array_index (self->starts, guint32, name + 1);
    }

  for (guint t = 0; t < self->types->len; t++)
    if (strstr (g_ptr_array_index (self->types, t), folded) != NULL)
      {
        guint32 from = g_array_index (self->type_starts, guint32, t);
        guint32 to = g_array_index (self->type_starts, guint32, t + 1);

        g_array_append_vals (hits, &g_array_index (self->type_items, guint32, from), to - from);
      }
}

/* One pass of the expression over all names (names are lines, so ^ and
 * $ anchor at their ends); a match running past its name's end is
 * checked again on that name alone. */
static gboolean
find_regex (SlGraphSearch  *self,
            GRegex         *regex,
            GArray         *hits,
            GCancellable   *cancellable)
{
  const char *text = (const char *) self->text->data;
  gssize length = self->text->len;
  gssize pos = 0;
  guint name = 0, checks = 0;

  while (pos < length)
    {
      g_autoptr(GMatchInfo) info = NULL;
      int match_start, match_end;
      guint32 name_end;

      if (++checks % CANCEL_STRIDE == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if (!g_regex_match_full (regex, text, length, pos, 0, &info, NULL) ||
          !g_match_info_fetch_pos (info, 0, &match_start, &match_end))
        break;
      name = name_from (self, name, match_start);
      name_end = g_array_index (self->starts, guint32, name + 1) - 1;
      if ((guint32) match_end <= name_end ||
          g_regex_match_full (regex, text, name_end, g_array_index (self->starts, guint32, name), 0, NULL, NULL))
        g_array_append_val (hits, g_array_index (self->items, guint32, name));
      pos = name_end + 1;
    }
  for (guint t = 0; t < self->types->len; t++)
    if (g_regex_match (regex, g_ptr_array_index (self->types, t), 0, NULL))
      {
        guint32 from = g_array_index (self->type_starts, guint32, t);
        guint32 to = g_array_index (self->type_starts, guint32, t + 1);

        g_array_append_vals (hits, &g_array_index (self->type_items, guint32, from), to - from);
      }
  return TRUE;
}

/**
 * sl_graph_search_find:
 *
 * Returns: (transfer full) (element-type guint32): the hits, or %NULL
 */
GArray *
sl_graph_search_find (SlGraphSearch      *self,
                      const char         *query,
                      SlGraphSearchMode   mode,
                      guint               max_results,
                      guint              *n_total,
                      GCancellable       *cancellable,
                      GError            **error)
{
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);

  /* An expression without special characters is a substring: the same
   * hits, without an expression match per name when most names hit. */
  if (mode == SL_GRAPH_SEARCH_REGEX && strpbrk (query, "\\^$.|?*+()[]{}") == NULL)
    mode = SL_GRAPH_SEARCH_SUBSTRING;

  if (query[0] != '\0')
    {
      if (mode == SL_GRAPH_SEARCH_REGEX)
        {
          /* Names are folded to lower case: a caseless expression
           * matches them as the user typed it. */
          g_autoptr(GRegex) regex = g_regex_new (query, G_REGEX_CASELESS | G_REGEX_OPTIMIZE | G_REGEX_RAW |
                                                 G_REGEX_MULTILINE, 0, error);

          if (regex == NULL)
            return NULL;
          if (!find_regex (self, regex, hits, cancellable))
            {
              g_cancellable_set_error_if_cancelled (cancellable, error);
              return NULL;
            }
        }
      else
        {
          g_autofree char *folded = g_ascii_strdown (query, -1);

          find_substring (self, folded, hits);
        }
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  sort_unique (hits, sl_graph_get_n_items (self->graph));
  if (n_total != NULL)
    *n_total = hits->len;
  if (hits->len > max_results)
    g_array_set_size (hits, max_results);
  return g_steal_pointer (&hits);
}
