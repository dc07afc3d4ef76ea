/* sl-timeline-search.c
 *
 * A search matches every name of the trace once (a substring in any case,
 * a regular expression, or a link's exact names), then takes the slices
 * with a matching name, in time order, from the trace's search index
 * (sl-trace-search.c, built on a worker as soon as the timeline page has
 * the whole trace; a search before it is ready waits for that build). Typing on
 * narrows: a substring that holds the last one only tries the names that
 * matched it, and a keystroke that matches the same names as the last one
 * keeps its matches. The object keeps the earliest MAX_MATCHES matches
 * (and how many there are in all) and the match the user is at; the list
 * of results holds the first MAX_LISTED_MATCHES, the first page at once
 * and the rest while the main loop is idle.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-timeline-item.h"
#include "sl-timeline-renderer.h"
#include "sl-timeline-search.h"
#include "sl-trace-search.h"

#define MAX_LISTED_MATCHES 10000
#define MAX_MATCHES 1000000
#define FIRST_PAGE 200
#define PAGE 2000

typedef SlTraceSearchMatch Match;

struct _SlTimelineSearch
{
  GObject     parent_instance;

  GArray     *matches;     /* Match, by start; NULL before a search */
  guint64     n_total;     /* matches in all, of which the earliest are kept */
  guint       max_matches;
  guint       current;
  gboolean    has_current;
  GListStore *results;     /* SlTimelineItem */
  guint       n_listed;
  guint       list_id;     /* listing the next page */

  /* the last search: a substring search narrows the next from its hits,
   * and the same hits again give the same matches */
  SlTrace    *last_trace;
  char       *last_text;   /* NULL unless a substring search */
  guint8     *last_hits;
};

G_DEFINE_FINAL_TYPE (SlTimelineSearch, sl_timeline_search, G_TYPE_OBJECT)

typedef struct {
  SlTrace   *trace;
  char      *text;
  gboolean   regex;
  SlOpNames *names;         /* a link's exact names, instead of text */
  char      *narrow_text;   /* the last search's text, when a substring search */
  guint8    *last_hits;     /* the last search's on the trace */
  GArray    *last_matches;
  guint64    last_total;
  guint      max_matches;
  guint8    *hits;          /* per string id, filled by the worker */
  guint64    n_total;       /* filled by the worker */
} Search;

static void
search_free (Search *search)
{
  g_clear_object (&search->trace);
  g_clear_pointer (&search->names, sl_op_names_free);
  g_free (search->narrow_text);
  g_free (search->last_hits);
  g_clear_pointer (&search->last_matches, g_array_unref);
  g_free (search->hits);
  g_free (search->text);
  g_free (search);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Search *search = task_data;
  SlTraceSearch *index;
  GError *error = NULL;
  GArray *matches;

  /* built once per trace, by the first search */
  index = sl_trace_search_get (search->trace, cancellable);
  if (index == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      return;
    }
  search->hits = sl_trace_search_match_names (index, search->text, search->regex, search->names,
                                              search->narrow_text, search->last_hits, &error);
  if (search->hits == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* a keystroke that matches the same names finds the same slices */
  if (search->last_matches != NULL
      && memcmp (search->hits, search->last_hits, MAX (sl_trace_get_n_strings (search->trace), 1)) == 0)
    {
      matches = g_array_ref (search->last_matches);
      search->n_total = search->last_total;
    }
  else
    matches = sl_trace_search_collect (index, search->hits, search->max_matches, &search->n_total, cancellable);
  if (matches == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      return;
    }
  g_task_return_pointer (task, matches, (GDestroyNotify)g_array_unref);
}

/**
 * sl_timeline_search_run_async:
 * @names: (transfer full) (nullable): a link's exact names, matched
 *   instead of @text
 * @text: a substring (any case) or, with @regex, a regular expression
 *
 * Finds the matching slices on a worker.
 */
void
sl_timeline_search_run_async (SlTimelineSearch    *self,
                              SlTrace             *trace,
                              const char          *text,
                              gboolean             regex,
                              SlOpNames           *names,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Search *search;

  g_return_if_fail (SL_IS_TIMELINE_SEARCH (self));
  g_return_if_fail (SL_IS_TRACE (trace));

  search = g_new0 (Search, 1);
  search->trace = g_object_ref (trace);
  search->text = g_strdup (text);
  search->regex = regex;
  search->names = names;
  search->max_matches = self->max_matches;
  if (self->last_trace == trace && self->last_hits != NULL && self->matches != NULL
      && self->matches->len == MIN (self->n_total, self->max_matches))
    {
      search->last_hits = g_memdup2 (self->last_hits, MAX (sl_trace_get_n_strings (trace), 1));
      search->last_matches = g_array_ref (self->matches);
      search->last_total = self->n_total;
      if (!regex && names == NULL && self->last_text != NULL)
        search->narrow_text = g_strdup (self->last_text);
    }
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_timeline_search_run_async);
  g_task_set_task_data (task, search, (GDestroyNotify)search_free);
  g_task_run_in_thread (task, search_thread);
}

/* Appends the rows of the matches after those listed, up to @up_to. */
static void
list_matches (SlTimelineSearch *self,
              guint             up_to)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  SlTrace *trace = self->last_trace;
  guint first = self->n_listed;

  up_to = MIN (MIN (up_to, self->matches->len), MAX_LISTED_MATCHES);
  for (guint i = first; i < up_to; i++)
    {
      const Match *m = &g_array_index (self->matches, Match, i);
      const SlTraceSlices *s = sl_trace_get_slices (trace, m->track);
      g_autofree char *when = sl_timeline_format_instant (m->start_ns - sl_trace_get_start_ns (trace));
      g_autofree char *dur = sl_timeline_format_duration (sl_trace_slices_dur_ns (s, m->slice));
      g_autofree char *label = g_strdup_printf ("%s  ·  %s  ·  %s  ·  %s", when,
                                                sl_trace_get_string (trace, sl_trace_slices_name_id (s, m->slice)),
                                                dur, sl_trace_get_track_name (trace, m->track));
      SlTimelineItemData data = { SL_TIMELINE_ITEM_MATCH, 0, m->track, m->slice, { 0 }, label };

      g_ptr_array_add (items, sl_timeline_item_new (&data));
    }
  g_list_store_splice (self->results, first, 0, items->pdata, items->len);
  self->n_listed = first + items->len;
}

static gboolean
list_more_cb (gpointer user_data)
{
  SlTimelineSearch *self = user_data;

  list_matches (self, self->n_listed + PAGE);
  if (self->n_listed < MIN (self->matches->len, MAX_LISTED_MATCHES))
    return G_SOURCE_CONTINUE;
  self->list_id = 0;
  return G_SOURCE_REMOVE;
}

/**
 * sl_timeline_search_run_finish:
 *
 * The matches and results become the search's, with none current. The
 * first FIRST_PAGE results are listed at once, the rest (up to
 * MAX_LISTED_MATCHES) a page at a time while the main loop is idle.
 *
 * Returns: (transfer full) (nullable): per string id of the trace,
 *   whether the name matched (to highlight with), or %NULL with @error
 */
guint8 *
sl_timeline_search_run_finish (SlTimelineSearch  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  Search *search = g_task_get_task_data (G_TASK (result));
  GArray *matches;
  SlTrace *trace = search->trace;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  matches = g_task_propagate_pointer (G_TASK (result), error);
  if (matches == NULL)
    return NULL;

  g_clear_pointer (&self->matches, g_array_unref);
  self->matches = matches;
  self->n_total = search->n_total;
  self->has_current = FALSE;
  g_set_object (&self->last_trace, trace);
  g_clear_pointer (&self->last_text, g_free);
  g_free (self->last_hits);
  self->last_hits = g_memdup2 (search->hits, MAX (sl_trace_get_n_strings (trace), 1));
  if (!search->regex && search->names == NULL)
    self->last_text = g_strdup (search->text);

  g_clear_handle_id (&self->list_id, g_source_remove);
  g_list_store_remove_all (self->results);
  self->n_listed = 0;
  list_matches (self, FIRST_PAGE);
  if (self->n_listed < MIN (matches->len, MAX_LISTED_MATCHES))
    self->list_id = g_idle_add (list_more_cb, self);
  return g_steal_pointer (&search->hits);
}

/* Back to no search. */
void
sl_timeline_search_clear (SlTimelineSearch *self)
{
  g_return_if_fail (SL_IS_TIMELINE_SEARCH (self));

  g_clear_handle_id (&self->list_id, g_source_remove);
  g_clear_pointer (&self->matches, g_array_unref);
  self->has_current = FALSE;
  self->n_listed = 0;
  g_list_store_remove_all (self->results);
}

gboolean
sl_timeline_search_has_run (SlTimelineSearch *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_SEARCH (self), FALSE);
  return self->matches != NULL;
}

guint
sl_timeline_search_get_n_matches (SlTimelineSearch *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_SEARCH (self), 0);
  return self->matches ? self->matches->len : 0;
}

void
sl_timeline_search_get_match (SlTimelineSearch *self,
                              guint             index,
                              guint            *track,
                              guint32          *slice,
                              gint64           *start_ns)
{
  const Match *m;

  g_return_if_fail (SL_IS_TIMELINE_SEARCH (self));
  g_return_if_fail (index < sl_timeline_search_get_n_matches (self));

  m = &g_array_index (self->matches, Match, index);
  if (track != NULL)
    *track = m->track;
  if (slice != NULL)
    *slice = m->slice;
  if (start_ns != NULL)
    *start_ns = m->start_ns;
}

gboolean
sl_timeline_search_get_current (SlTimelineSearch *self,
                                guint            *index)
{
  g_return_val_if_fail (SL_IS_TIMELINE_SEARCH (self), FALSE);

  if (index != NULL)
    *index = self->current;
  return self->has_current;
}

void
sl_timeline_search_set_current (SlTimelineSearch *self,
                                guint             index)
{
  g_return_if_fail (SL_IS_TIMELINE_SEARCH (self));

  self->current = index;
  self->has_current = TRUE;
}

/**
 * sl_timeline_search_step:
 * @from_ns: where to start when no match is current yet (the view's left
 *   edge)
 *
 * The match after (or before) the current one becomes current, going
 * round at the ends; with none current yet, the first at or after
 * @from_ns (or the one before it).
 *
 * Returns: the new current match; there must be matches
 */
guint
sl_timeline_search_step (SlTimelineSearch *self,
                         gboolean          backwards,
                         gint64            from_ns)
{
  guint n;

  g_return_val_if_fail (SL_IS_TIMELINE_SEARCH (self), 0);
  g_return_val_if_fail (sl_timeline_search_get_n_matches (self) > 0, 0);

  n = self->matches->len;
  if (!self->has_current)
    {
      self->current = 0;
      while (self->current < n && g_array_index (self->matches, Match, self->current).start_ns < from_ns)
        self->current++;
      if (self->current == n || backwards)
        self->current = (self->current + n - (backwards ? 1 : 0)) % n;
      self->has_current = TRUE;
    }
  else if (backwards)
    self->current = (self->current + n - 1) % n;
  else
    self->current = (self->current + 1) % n;
  return self->current;
}

/**
 * sl_timeline_search_find_first:
 * @start_ns: the range's start, or -1 for the whole trace
 *
 * Returns: whether a match starts in [@start_ns, @end_ns), and the first
 *   such in @index
 */
gboolean
sl_timeline_search_find_first (SlTimelineSearch *self,
                               gint64            start_ns,
                               gint64            end_ns,
                               guint            *index)
{
  gboolean ranged = start_ns >= 0 && end_ns > start_ns;

  g_return_val_if_fail (SL_IS_TIMELINE_SEARCH (self), FALSE);

  for (guint i = 0; self->matches != NULL && i < self->matches->len; i++)
    {
      const Match *m = &g_array_index (self->matches, Match, i);

      if (!ranged || (m->start_ns >= start_ns && m->start_ns < end_ns))
        {
          *index = i;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * sl_timeline_search_get_results:
 *
 * Returns: (transfer none): the first matches as rows (SlTimelineItem)
 */
GListModel *
sl_timeline_search_get_results (SlTimelineSearch *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_SEARCH (self), NULL);
  return G_LIST_MODEL (self->results);
}

/* "", "No matches", "3 of 1,234" or "1,234 matches"; when more match
 * than are kept, with how many match in all. */
char *
sl_timeline_search_dup_label (SlTimelineSearch *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_SEARCH (self), NULL);

  if (self->matches == NULL)
    return g_strdup ("");
  else if (self->matches->len == 0)
    return g_strdup (_("No matches"));
  else
    {
      g_autofree char *shown = sl_count_format (self->matches->len);
      g_autofree char *current = sl_count_format (self->current + 1);

      if (self->n_total > self->matches->len)
        {
          g_autofree char *total = sl_count_format (self->n_total);

          if (self->has_current)
            /* Translators: "3 of the first 1,000,000, of 23,446,268 matches":
             * the search keeps the earliest matches only */
            return g_strdup_printf (_("%s of the first %s, of %s matches"), current, shown, total);
          /* Translators: "The first 1,000,000 of 23,446,268 matches": the
           * search keeps the earliest matches only */
          return g_strdup_printf (_("The first %s of %s matches"), shown, total);
        }
      else if (self->has_current)
        /* Translators: "3 of 1,234" search matches */
        return g_strdup_printf (C_("search matches", "%s of %s"), current, shown);
      else
        /* Translators: a count of search matches, its digits grouped */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s match", "%s matches", self->matches->len), shown);
    }
}

/* How many slices match in all, of which get_n_matches() are kept (the
 * earliest). */
guint64
sl_timeline_search_get_n_total (SlTimelineSearch *self)
{
  g_return_val_if_fail (SL_IS_TIMELINE_SEARCH (self), 0);
  return self->matches ? self->n_total : 0;
}

/**
 * sl_timeline_search_set_max_matches:
 * @max_matches: the most matches a search keeps (1,000,000 unless set)
 *
 * For the next searches: they keep the earliest @max_matches.
 */
void
sl_timeline_search_set_max_matches (SlTimelineSearch *self,
                                    guint             max_matches)
{
  g_return_if_fail (SL_IS_TIMELINE_SEARCH (self));
  self->max_matches = max_matches;
}

static void
sl_timeline_search_finalize (GObject *object)
{
  SlTimelineSearch *self = SL_TIMELINE_SEARCH (object);

  g_clear_handle_id (&self->list_id, g_source_remove);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_object (&self->results);
  g_clear_object (&self->last_trace);
  g_free (self->last_text);
  g_free (self->last_hits);

  G_OBJECT_CLASS (sl_timeline_search_parent_class)->finalize (object);
}

static void
sl_timeline_search_class_init (SlTimelineSearchClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_timeline_search_finalize;
}

static void
sl_timeline_search_init (SlTimelineSearch *self)
{
  self->results = g_list_store_new (SL_TYPE_TIMELINE_ITEM);
  self->max_matches = MAX_MATCHES;
}

SlTimelineSearch *
sl_timeline_search_new (void)
{
  return g_object_new (SL_TYPE_TIMELINE_SEARCH, NULL);
}
