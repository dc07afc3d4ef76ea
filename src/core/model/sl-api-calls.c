/* sl-api-calls.c
 *
 * Calls are kept as 24-byte records with an index into the (level, name)
 * pairs, sorted by start once finished, so a step's calls are found by
 * binary search and summed without touching the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-api-calls.h"

#define CANCEL_MASK 0xffff

typedef struct {
  gint64  start_ns;
  gint64  duration_ns;
  guint32 api;
} Call;

typedef struct {
  char *level;
  char *name;
} Api;

struct _SlApiCalls
{
  GObject     parent_instance;

  GHashTable *index;    /* "level\x1fname" → api index + 1 */
  GArray     *apis;     /* Api */
  GArray     *calls;    /* Call */
  gboolean    finished;
};

G_DEFINE_FINAL_TYPE (SlApiCalls, sl_api_calls, G_TYPE_OBJECT)

static void
api_clear (Api *api)
{
  g_free (api->level);
  g_free (api->name);
}

static void
sl_api_calls_finalize (GObject *object)
{
  SlApiCalls *self = (SlApiCalls *)object;

  g_clear_pointer (&self->index, g_hash_table_unref);
  g_clear_pointer (&self->apis, g_array_unref);
  g_clear_pointer (&self->calls, g_array_unref);

  G_OBJECT_CLASS (sl_api_calls_parent_class)->finalize (object);
}

static void
sl_api_calls_class_init (SlApiCallsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_api_calls_finalize;
}

static void
sl_api_calls_init (SlApiCalls *self)
{
  self->index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->apis = g_array_new (FALSE, FALSE, sizeof (Api));
  g_array_set_clear_func (self->apis, (GDestroyNotify)api_clear);
  self->calls = g_array_new (FALSE, FALSE, sizeof (Call));
}

SlApiCalls *
sl_api_calls_new (void)
{
  return g_object_new (SL_TYPE_API_CALLS, NULL);
}

static guint32
intern_api (SlApiCalls *self,
            const char *level,
            const char *name)
{
  g_autofree char *key = g_strconcat (level, "\x1f", name, NULL);
  gpointer found = g_hash_table_lookup (self->index, key);
  Api api;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  api.level = g_strdup (level);
  api.name = g_strdup (name);
  g_array_append_val (self->apis, api);
  g_hash_table_insert (self->index, g_steal_pointer (&key), GUINT_TO_POINTER (self->apis->len));
  return self->apis->len - 1;
}

/**
 * sl_api_calls_add:
 * @level: (nullable): the API's level ("acl", "runtime", "hccl", ...)
 * @duration_ns: negative durations (a damaged row) count as 0
 */
void
sl_api_calls_add (SlApiCalls *self,
                  const char *level,
                  const char *name,
                  gint64      start_ns,
                  gint64      duration_ns)
{
  Call call;

  g_return_if_fail (SL_IS_API_CALLS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!self->finished);

  call.start_ns = start_ns;
  call.duration_ns = MAX (duration_ns, 0);
  call.api = intern_api (self, level != NULL ? level : "", name);
  g_array_append_val (self->calls, call);
}

static int
compare_start (gconstpointer a,
               gconstpointer b)
{
  const Call *ca = a, *cb = b;

  return ca->start_ns < cb->start_ns ? -1 : ca->start_ns > cb->start_ns;
}

void
sl_api_calls_finish (SlApiCalls *self)
{
  g_return_if_fail (SL_IS_API_CALLS (self));

  if (self->finished)
    return;
  g_array_sort (self->calls, compare_start);
  g_clear_pointer (&self->index, g_hash_table_unref);
  self->finished = TRUE;
}

guint
sl_api_calls_get_n_calls (SlApiCalls *self)
{
  g_return_val_if_fail (SL_IS_API_CALLS (self), 0);
  return self->calls->len;
}

/**
 * sl_api_calls_get_span:
 *
 * Returns: %FALSE when there are no calls; else the first start and the
 *   last end
 */
gboolean
sl_api_calls_get_span (SlApiCalls *self,
                       gint64     *start_ns,
                       gint64     *end_ns)
{
  gint64 end = G_MININT64;

  g_return_val_if_fail (SL_IS_API_CALLS (self), FALSE);
  g_return_val_if_fail (self->finished, FALSE);

  if (self->calls->len == 0)
    return FALSE;
  for (guint i = 0; i < self->calls->len; i++)
    {
      const Call *call = &g_array_index (self->calls, Call, i);

      end = MAX (end, call->start_ns + call->duration_ns);
    }
  if (start_ns != NULL)
    *start_ns = g_array_index (self->calls, Call, 0).start_ns;
  if (end_ns != NULL)
    *end_ns = end;
  return TRUE;
}

/* The first call that starts at or after @ns. */
static guint
lower_bound (SlApiCalls *self,
             gint64      ns)
{
  guint lo = 0, hi = self->calls->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->calls, Call, mid).start_ns < ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

SlOpTable *
sl_api_calls_aggregate (SlApiCalls   *self,
                        gint64        start_ns,
                        gint64        end_ns,
                        GCancellable *cancellable)
{
  g_autoptr(SlOpTable) table = NULL;
  g_autofree SlOpRow **rows = NULL;

  g_return_val_if_fail (SL_IS_API_CALLS (self), NULL);
  g_return_val_if_fail (self->finished, NULL);

  table = sl_op_table_new ();
  rows = g_new0 (SlOpRow *, MAX (self->apis->len, 1));
  for (guint i = lower_bound (self, start_ns); i < self->calls->len; i++)
    {
      const Call *call = &g_array_index (self->calls, Call, i);

      if (call->start_ns >= end_ns)
        break;
      if ((i & CANCEL_MASK) == 0 && g_cancellable_is_cancelled (cancellable))
        return NULL;
      if (rows[call->api] == NULL)
        {
          const Api *api = &g_array_index (self->apis, Api, call->api);

          rows[call->api] = sl_op_table_add_type (table, api->name, api->level);
        }
      sl_op_row_add_execution (rows[call->api], call->duration_ns, -1, -1);
    }
  sl_op_table_finish (table);
  return g_steal_pointer (&table);
}
