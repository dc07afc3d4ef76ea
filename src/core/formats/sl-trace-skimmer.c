/* sl-trace-skimmer.c
 *
 * Decides whether a JSON document is a Chrome trace by skimming its
 * structure, fed in chunks of any size. The keys of a trace object come
 * in any order: exporters write megabytes of "metadata" or device
 * properties before "traceEvents". The skimmer walks the top-level keys
 * and steps over their values without building them: it keeps only a
 * bracket stack of bounded depth and the start of the current key, so
 * memory stays fixed however large the file or its values are.
 *
 * An object is a trace when one of its top-level keys is a trace key
 * (see sl_trace_skimmer_is_trace_key()) or "traceEvents" holding an
 * array; Kineto's "schemaVersion" counts together with
 * "distributedInfo" or "computeProperties". An array is a trace when one
 * of its first elements is an event: an object with "ph", or with "ts"
 * and a "pid" or "name". Anything else (an element that is no object, an
 * array that ends or holds MAX_ELEMENTS objects before an event),
 * malformed JSON, nesting deeper than the stack and input past the
 * budget is not a trace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-trace-skimmer.h"

#define MAX_DEPTH       4096
#define MAX_KEY         32
#define MAX_ELEMENTS    8     /* elements of a root array looked at */
#define READ_CHUNK      (64 * 1024)

typedef enum {
  S_START,           /* before the root: a byte order mark, whitespace */
  S_KEY_OR_CLOSE,    /* just inside the watched object */
  S_KEY,             /* after a comma in the watched object */
  S_IN_KEY,
  S_COLON,
  S_VALUE,           /* a value of the watched object */
  S_FIRST_ELEMENT,   /* just inside a root array, or after a comma there */
  S_NEXT_ELEMENT,    /* after an element of a root array */
  S_SCALAR,          /* a number, true, false or null of the watched object */
  S_SKIP,            /* inside a nested value or a string value */
  S_COMMA_OR_CLOSE,  /* after a value of the watched object */
} State;

enum {
  SEEN_PH         = 1 << 0,
  SEEN_TS         = 1 << 1,
  SEEN_PID        = 1 << 2,
  SEEN_NAME       = 1 << 3,
  SEEN_SCHEMA     = 1 << 4,
  SEEN_KINETO     = 1 << 5,
};

struct _SlTraceSkimmer
{
  guint64         budget;
  guint64         offset;        /* bytes fed so far */
  SlTraceVerdict  verdict;
  State           state;
  guint           bom;           /* bytes of a byte order mark seen */
  gboolean        array_root;
  guint           level;         /* depth of the object whose keys are watched */
  guint           depth;
  gboolean        in_string;
  gboolean        escape;
  gboolean        pending_events;/* the key just read is "traceEvents" */
  guint           seen;
  guint           n_elements;
  char            key[MAX_KEY + 1];
  guint           key_len;
  gboolean        key_long;
  char            decided_by[MAX_KEY + 1];
  gboolean        out_of_budget;
  guint8          stack[MAX_DEPTH];
};

static const char * const trace_keys[] = {
  "displayTimeUnit",
  "otherData",
  "deviceProperties",
  "systemTraceEvents",
  "stackFrames",
};

/**
 * sl_trace_skimmer_is_trace_key:
 *
 * Whether a top-level key by itself makes an object a Chrome trace.
 * "traceEvents" counts only when it holds an array, so it is not among
 * them.
 */
gboolean
sl_trace_skimmer_is_trace_key (const char *key)
{
  g_return_val_if_fail (key != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (trace_keys); i++)
    {
      if (strcmp (key, trace_keys[i]) == 0)
        return TRUE;
    }
  return FALSE;
}

SlTraceSkimmer *
sl_trace_skimmer_new (guint64 budget)
{
  SlTraceSkimmer *self = g_new0 (SlTraceSkimmer, 1);

  self->budget = budget;
  self->verdict = SL_TRACE_VERDICT_UNDECIDED;
  self->state = S_START;
  return self;
}

void
sl_trace_skimmer_free (SlTraceSkimmer *self)
{
  g_free (self);
}

static void
decide (SlTraceSkimmer *self,
        SlTraceVerdict  verdict,
        const char     *by)
{
  self->verdict = verdict;
  g_strlcpy (self->decided_by, by != NULL ? by : "", sizeof self->decided_by);
}

static gboolean
is_space (guint8 c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static gboolean
push (SlTraceSkimmer *self,
      guint8          c)
{
  if (self->depth >= MAX_DEPTH)
    {
      decide (self, SL_TRACE_VERDICT_NOT_TRACE, NULL);
      return FALSE;
    }
  self->stack[self->depth++] = c;
  return TRUE;
}

/* A closing bracket; FALSE (and a verdict) when it does not match. */
static gboolean
pop (SlTraceSkimmer *self,
     guint8          c)
{
  if (self->depth == 0 || self->stack[self->depth - 1] != (c == '}' ? '{' : '['))
    {
      decide (self, SL_TRACE_VERDICT_NOT_TRACE, NULL);
      return FALSE;
    }
  self->depth--;
  return TRUE;
}

static void
note_event_key (SlTraceSkimmer *self)
{
  if (strcmp (self->key, "ph") == 0)
    self->seen |= SEEN_PH;
  else if (strcmp (self->key, "ts") == 0)
    self->seen |= SEEN_TS;
  else if (strcmp (self->key, "pid") == 0)
    self->seen |= SEEN_PID;
  else if (strcmp (self->key, "name") == 0)
    self->seen |= SEEN_NAME;
}

/* A whole key of the watched object was read. */
static void
key_done (SlTraceSkimmer *self)
{
  self->key[self->key_len] = '\0';
  self->pending_events = FALSE;
  if (self->key_long)
    return;

  if (self->array_root)
    {
      note_event_key (self);
      return;
    }

  if (strcmp (self->key, "traceEvents") == 0)
    {
      self->pending_events = TRUE;
      return;
    }
  if (sl_trace_skimmer_is_trace_key (self->key))
    {
      decide (self, SL_TRACE_VERDICT_TRACE, self->key);
      return;
    }

  if (strcmp (self->key, "schemaVersion") == 0)
    self->seen |= SEEN_SCHEMA;
  else if (strcmp (self->key, "distributedInfo") == 0 || strcmp (self->key, "computeProperties") == 0)
    self->seen |= SEEN_KINETO;
  if ((self->seen & (SEEN_SCHEMA | SEEN_KINETO)) == (SEEN_SCHEMA | SEEN_KINETO))
    decide (self, SL_TRACE_VERDICT_TRACE, self->key);
}

/* The watched object ends. */
static void
watched_object_done (SlTraceSkimmer *self)
{
  gboolean event;

  if (!self->array_root)
    {
      decide (self, SL_TRACE_VERDICT_NOT_TRACE, NULL);
      return;
    }

  event = (self->seen & SEEN_PH) != 0 ||
          ((self->seen & SEEN_TS) != 0 && (self->seen & (SEEN_PID | SEEN_NAME)) != 0);
  if (event)
    {
      decide (self, SL_TRACE_VERDICT_TRACE, "[");
      return;
    }

  /* A process name or other metadata may come before the first event */
  if (++self->n_elements >= MAX_ELEMENTS)
    {
      decide (self, SL_TRACE_VERDICT_NOT_TRACE, NULL);
      return;
    }
  self->seen = 0;
  self->level = 1;
  self->state = S_NEXT_ELEMENT;
}

static gboolean
starts_scalar (guint8 c)
{
  return c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

static gboolean
in_scalar (guint8 c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '+' || c == '.';
}

/* One byte; the verdict is set when it decides. */
static void
step (SlTraceSkimmer *self,
      guint8          c)
{
  switch (self->state)
    {
    case S_START:
      if (self->bom < 3 && self->offset == self->bom && c == (guint8) "\xEF\xBB\xBF"[self->bom])
        {
          self->bom++;
          return;
        }
      if (self->bom != 0 && self->bom != 3)
        break;
      if (is_space (c))
        return;
      if (c == '{')
        {
          self->level = 1;
          self->state = S_KEY_OR_CLOSE;
        }
      else if (c == '[')
        {
          self->array_root = TRUE;
          self->state = S_FIRST_ELEMENT;
        }
      else
        break;
      push (self, c);
      return;

    case S_FIRST_ELEMENT:
      if (is_space (c))
        return;
      if (c != '{')
        break;
      if (!push (self, c))
        return;
      self->level = 2;
      self->state = S_KEY_OR_CLOSE;
      return;

    case S_NEXT_ELEMENT:
      if (is_space (c))
        return;
      if (c != ',')
        break;
      self->state = S_FIRST_ELEMENT;
      return;

    case S_KEY_OR_CLOSE:
      if (c == '}')
        {
          if (pop (self, c))
            watched_object_done (self);
          return;
        }
      /* fall through */
    case S_KEY:
      if (is_space (c))
        return;
      if (c != '"')
        break;
      self->key_len = 0;
      self->key_long = FALSE;
      self->escape = FALSE;
      self->state = S_IN_KEY;
      return;

    case S_IN_KEY:
      if (self->escape)
        {
          self->escape = FALSE;
          self->key_long = TRUE;   /* an escaped key is no key we look for */
          return;
        }
      if (c == '\\')
        {
          self->escape = TRUE;
          return;
        }
      if (c < 0x20)
        break;
      if (c == '"')
        {
          self->state = S_COLON;
          key_done (self);
          return;
        }
      if (self->key_len < MAX_KEY)
        self->key[self->key_len++] = c;
      else
        self->key_long = TRUE;
      return;

    case S_COLON:
      if (is_space (c))
        return;
      if (c != ':')
        break;
      self->state = S_VALUE;
      return;

    case S_VALUE:
      if (is_space (c))
        return;
      if (self->pending_events && c == '[')
        {
          decide (self, SL_TRACE_VERDICT_TRACE, "traceEvents");
          return;
        }
      self->pending_events = FALSE;
      if (c == '{' || c == '[')
        {
          if (push (self, c))
            self->state = S_SKIP;
          return;
        }
      if (c == '"')
        {
          self->in_string = TRUE;
          self->escape = FALSE;
          self->state = S_SKIP;
          return;
        }
      if (!starts_scalar (c))
        break;
      self->state = S_SCALAR;
      return;

    case S_SCALAR:
      if (in_scalar (c))
        return;
      self->state = S_COMMA_OR_CLOSE;
      step (self, c);
      return;

    case S_SKIP:
      if (self->in_string)
        {
          if (self->escape)
            self->escape = FALSE;
          else if (c == '\\')
            self->escape = TRUE;
          else if (c == '"')
            self->in_string = FALSE;
          else if (c < 0x20)
            break;
          else
            return;
          if (!self->in_string && self->depth == self->level)
            self->state = S_COMMA_OR_CLOSE;
          return;
        }
      if (c == '"')
        {
          self->in_string = TRUE;
          self->escape = FALSE;
        }
      else if (c == '{' || c == '[')
        {
          push (self, c);
        }
      else if (c == '}' || c == ']')
        {
          if (pop (self, c) && self->depth == self->level)
            self->state = S_COMMA_OR_CLOSE;
        }
      return;

    case S_COMMA_OR_CLOSE:
      if (is_space (c))
        return;
      if (c == ',')
        {
          self->state = S_KEY;
          return;
        }
      if (c == '}')
        {
          if (pop (self, c))
            watched_object_done (self);
          return;
        }
      break;

    default:
      break;
    }

  /* Not JSON, or not JSON this skimmer follows */
  decide (self, SL_TRACE_VERDICT_NOT_TRACE, NULL);
}

/**
 * sl_trace_skimmer_feed:
 *
 * Skims the next @len bytes of the document.
 *
 * Returns: the verdict so far; once decided, more input changes nothing
 */
SlTraceVerdict
sl_trace_skimmer_feed (SlTraceSkimmer *self,
                       const guint8   *data,
                       gsize           len)
{
  g_return_val_if_fail (self != NULL, SL_TRACE_VERDICT_NOT_TRACE);
  g_return_val_if_fail (data != NULL || len == 0, SL_TRACE_VERDICT_NOT_TRACE);

  for (gsize i = 0; i < len && self->verdict == SL_TRACE_VERDICT_UNDECIDED; i++)
    {
      if (self->offset >= self->budget)
        {
          decide (self, SL_TRACE_VERDICT_NOT_TRACE, NULL);
          self->out_of_budget = TRUE;
          break;
        }
      step (self, data[i]);
      self->offset++;
    }

  return self->verdict;
}

/**
 * sl_trace_skimmer_finish:
 *
 * Says that the input ended: a document that has not shown itself to be
 * a trace by then is not one.
 */
SlTraceVerdict
sl_trace_skimmer_finish (SlTraceSkimmer *self)
{
  g_return_val_if_fail (self != NULL, SL_TRACE_VERDICT_NOT_TRACE);

  if (self->verdict == SL_TRACE_VERDICT_UNDECIDED)
    decide (self, SL_TRACE_VERDICT_NOT_TRACE, NULL);
  return self->verdict;
}

SlTraceVerdict
sl_trace_skimmer_get_verdict (SlTraceSkimmer *self)
{
  g_return_val_if_fail (self != NULL, SL_TRACE_VERDICT_NOT_TRACE);
  return self->verdict;
}

/**
 * sl_trace_skimmer_get_key:
 *
 * Returns: the key that made the document a trace ("[" for the array
 *   form), or "" when it is not one or not yet decided
 */
const char *
sl_trace_skimmer_get_key (SlTraceSkimmer *self)
{
  g_return_val_if_fail (self != NULL, "");
  return self->decided_by;
}

/* Returns: how many bytes were skimmed: where the verdict fell */
guint64
sl_trace_skimmer_get_offset (SlTraceSkimmer *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->offset;
}

/* Whether the verdict fell because the budget ran out, not on what was
 * read */
gboolean
sl_trace_skimmer_is_out_of_budget (SlTraceSkimmer *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->out_of_budget;
}

gboolean
sl_trace_skimmer_is_array (SlTraceSkimmer *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->array_root;
}

/**
 * sl_trace_skimmer_skim_stream:
 * @stream: the document, already decompressed
 * @is_array: (out) (optional): whether the root is an array
 * @out_of_budget: (out) (optional): whether @budget bytes were read
 *   without a verdict (which is then %SL_TRACE_VERDICT_NOT_TRACE)
 *
 * Reads @stream in chunks until the verdict falls, the stream ends or
 * @budget bytes were read.
 *
 * Returns: the verdict, or %SL_TRACE_VERDICT_UNDECIDED with @error set
 *   when @stream cannot be read
 */
SlTraceVerdict
sl_trace_skimmer_skim_stream (GInputStream  *stream,
                              guint64        budget,
                              gboolean      *is_array,
                              gboolean      *out_of_budget,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(SlTraceSkimmer) skimmer = sl_trace_skimmer_new (budget);
  g_autofree guint8 *buffer = g_malloc (READ_CHUNK);
  SlTraceVerdict verdict = SL_TRACE_VERDICT_UNDECIDED;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), SL_TRACE_VERDICT_UNDECIDED);

  while (verdict == SL_TRACE_VERDICT_UNDECIDED)
    {
      gssize n = g_input_stream_read (stream, buffer, READ_CHUNK, cancellable, error);

      if (n < 0)
        return SL_TRACE_VERDICT_UNDECIDED;
      if (n == 0)
        verdict = sl_trace_skimmer_finish (skimmer);
      else
        verdict = sl_trace_skimmer_feed (skimmer, buffer, n);
    }

  if (is_array != NULL)
    *is_array = skimmer->array_root;
  if (out_of_budget != NULL)
    *out_of_budget = skimmer->out_of_budget;
  return verdict;
}
