/* sl-pipeline-reader.c: MindX SDK pipeline JSON through yajl's callbacks
 *
 * The whole file is handed to yajl at once (pipelines are small), so in a
 * callback yajl_get_bytes_consumed() is the file offset just past the
 * token: a value's start is found by stepping back over the token, which
 * is unambiguous once yajl has accepted it. A stack of frames says what
 * the open object or array is (the root, a stream, an element, props, a
 * next list, or anything deeper that is only kept as text).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-input-file.h"
#include "sl-main-thread.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <yajl/yajl_parse.h>

#include "sl-pipeline-reader.h"
#include "sl-yajl-error.h"

/* Deeper than any pipeline nests; yajl itself does not recurse, this only
 * bounds the frame stack. */
#define MAX_DEPTH 1000

typedef enum {
  ROLE_ROOT,
  ROLE_STREAM,
  ROLE_ELEMENT,
  ROLE_CONFIG,
  ROLE_PROPS,
  ROLE_LINKS,
  ROLE_OPAQUE,
} Role;

typedef struct {
  Role                role;
  guint64             start;
  SlPipelineSpan     *span;        /* completed when the container closes, or NULL */
  SlPipelineMember   *member;      /* gets the container's JSON text, or NULL */
  SlPipelineLinkKind  link_kind;
} Frame;

typedef struct {
  SlPipeline        *pipeline;
  const guint8      *data;         /* the whole file */
  gsize              length;
  guint64            base;         /* file offset of what yajl is given (after a BOM) */
  yajl_handle        yajl;
  GArray            *frames;       /* Frame */
  GArray            *line_starts;  /* guint64 file offsets */
  char              *key;
  SlPipelineSpan     key_span;
  SlPipelineStream  *stream;
  SlPipelineElement *element;
  gboolean           reported;     /* a problem stopped the reading */
} Reader;

/* ------------------------------------------------------------------ */
/* Positions */

static void
index_lines (Reader *r)
{
  guint64 zero = 0;

  r->line_starts = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_val (r->line_starts, zero);
  for (gsize i = 0; i < r->length; i++)
    {
      if (r->data[i] == '\n')
        {
          guint64 next = i + 1;

          g_array_append_val (r->line_starts, next);
        }
    }
}

static void
locate (Reader  *r,
        guint64  offset,
        guint   *line,
        guint   *column)
{
  const guint64 *starts = (const guint64 *) r->line_starts->data;
  guint lo = 0, hi = r->line_starts->len;
  guint n = 1;

  offset = MIN (offset, r->length);
  /* the last line start at or before offset */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (starts[mid] <= offset)
        lo = mid;
      else
        hi = mid;
    }
  /* characters, not bytes: UTF-8 continuation bytes do not count */
  for (guint64 i = starts[lo]; i < offset; i++)
    n += (r->data[i] & 0xc0) != 0x80;
  *line = lo + 1;
  *column = n;
}

static void
set_span (Reader         *r,
          SlPipelineSpan *span,
          guint64         start,
          guint64         end)
{
  span->start = start;
  span->end = end;
  locate (r, start, &span->line, &span->column);
}

static guint64
token_end (Reader *r)
{
  return r->base + yajl_get_bytes_consumed (r->yajl);
}

/* The opening quote of the string that ends at @end: inside a string
 * every quote is escaped by an odd run of backslashes. */
static guint64
string_start (Reader  *r,
              guint64  end)
{
  if (end < 2 || end > r->length)
    return end;
  for (guint64 p = end - 2;; p--)
    {
      if (r->data[p] == '"')
        {
          guint64 backslashes = 0;

          while (backslashes < p && r->data[p - 1 - backslashes] == '\\')
            backslashes++;
          if (backslashes % 2 == 0)
            return p;
        }
      if (p == 0)
        return 0;
    }
}

static guint64
number_start (Reader  *r,
              guint64  end)
{
  guint64 p = MIN (end, r->length);

  while (p > 0 && strchr ("0123456789+-.eE", r->data[p - 1]) != NULL && r->data[p - 1] != '\0')
    p--;
  return p;
}

static void
report (Reader     *r,
        SlSeverity  severity,
        guint64     offset,
        const char *message)
{
  g_autoptr(SlProblem) problem = NULL;
  guint line, column;

  locate (r, offset, &line, &column);
  problem = sl_problem_new_at_position (severity, _("MindX SDK pipeline"),
                                        sl_pipeline_get_path (r->pipeline),
                                        offset, line, column, NULL, message);
  sl_pipeline_add_problem (r->pipeline, problem);
}

/* ------------------------------------------------------------------ */
/* Frames */

static Frame *
top (Reader *r)
{
  if (r->frames->len == 0)
    return NULL;
  return &g_array_index (r->frames, Frame, r->frames->len - 1);
}

static gboolean
push (Reader           *r,
      Role              role,
      guint64           start,
      SlPipelineSpan   *span,
      SlPipelineMember *member)
{
  Frame frame = { role, start, span, member, SL_PIPELINE_LINK_NEXT };

  if (r->frames->len >= MAX_DEPTH)
    {
      report (r, SL_SEVERITY_ERROR, start,
              _("The JSON nests too deeply to be a pipeline; what came before is kept"));
      r->reported = TRUE;
      return FALSE;
    }
  if (span != NULL)
    set_span (r, span, start, start + 1);
  g_array_append_val (r->frames, frame);
  return TRUE;
}

static void
close_frame (Reader  *r,
             guint64  end)
{
  Frame *frame = top (r);

  if (frame == NULL)
    return;
  end = MAX (MIN (end, r->length), frame->start);
  if (frame->span != NULL)
    frame->span->end = end;
  if (frame->member != NULL)
    {
      frame->member->value_span.end = end;
      g_free (frame->member->text);
      frame->member->text = g_strndup ((const char *) r->data + frame->start, end - frame->start);
    }
  if (frame->role == ROLE_ELEMENT)
    r->element = NULL;
  else if (frame->role == ROLE_STREAM)
    r->stream = NULL;
  g_array_set_size (r->frames, r->frames->len - 1);
}

static char *
take_key (Reader *r)
{
  return g_steal_pointer (&r->key);
}

static gboolean
link_kind_of (const char         *key,
              SlPipelineLinkKind *kind)
{
  if (g_strcmp0 (key, "next") == 0)
    *kind = SL_PIPELINE_LINK_NEXT;
  else if (g_strcmp0 (key, "nextMeta") == 0)
    *kind = SL_PIPELINE_LINK_NEXT_META;
  else
    return FALSE;
  return TRUE;
}

static SlPipelineMember *
new_member (Reader              *r,
            const char          *key,
            SlPipelineValueType  type,
            guint64              start,
            guint64              end)
{
  SlPipelineMember *member = sl_pipeline_member_new (key != NULL ? key : "", &r->key_span);

  member->type = type;
  set_span (r, &member->value_span, start, end);
  return member;
}

/* A member of an element: the current factory, props or links change. */
static SlPipelineMember *
add_element_member (Reader              *r,
                    const char          *key,
                    SlPipelineValueType  type,
                    guint64              start,
                    guint64              end)
{
  SlPipelineMember *member = new_member (r, key, type, start, end);
  SlPipelineLinkKind kind;

  sl_pipeline_element_add_member (r->element, member);
  if (link_kind_of (key, &kind))
    sl_pipeline_element_clear_links (r->element, kind);
  else if (g_str_equal (member->key, "props"))
    sl_pipeline_element_begin_props (r->element);
  return member;
}

/* ------------------------------------------------------------------ */
/* Values */

static int
on_value (Reader              *r,
          SlPipelineValueType  type,
          const char          *text,
          gsize                length,
          guint64              start,
          guint64              end)
{
  Frame *frame = top (r);
  g_autofree char *key = take_key (r);
  g_autofree char *value = NULL;
  SlPipelineMember *member = NULL;
  SlPipelineSpan span;

  end = MIN (end, r->length);
  start = MIN (start, end);
  if (type == SL_PIPELINE_VALUE_STRING)
    value = g_strndup (text, length);
  else
    value = g_strndup ((const char *) r->data + start, end - start);

  if (frame == NULL)
    {
      report (r, SL_SEVERITY_ERROR, start, _("The file holds a single JSON value, not an object of streams"));
      return 1;
    }

  switch (frame->role)
    {
    case ROLE_ROOT:
      set_span (r, &sl_pipeline_add_stream (r->pipeline, key, type, &r->key_span)->span, start, end);
      break;

    case ROLE_STREAM:
      if (g_str_equal (key, "stream_config"))
        {
          sl_pipeline_stream_begin_config (r->stream, &r->key_span);
          r->stream->config_type = type;
          set_span (r, &r->stream->config_span, start, end);
        }
      else
        {
          set_span (r, &sl_pipeline_stream_add_element (r->stream, key, type, &r->key_span)->span, start, end);
        }
      break;

    case ROLE_ELEMENT:
      {
        SlPipelineLinkKind kind;

        member = add_element_member (r, key, type, start, end);
        if (type == SL_PIPELINE_VALUE_STRING && link_kind_of (key, &kind))
          sl_pipeline_element_add_link (r->element, kind, type, value, &member->value_span);
      }
      break;

    case ROLE_CONFIG:
      member = new_member (r, key, type, start, end);
      sl_pipeline_stream_add_config (r->stream, member);
      break;

    case ROLE_PROPS:
      member = new_member (r, key, type, start, end);
      sl_pipeline_element_add_prop (r->element, member);
      break;

    case ROLE_LINKS:
      set_span (r, &span, start, end);
      sl_pipeline_element_add_link (r->element, frame->link_kind, type, value, &span);
      break;

    case ROLE_OPAQUE:
    default:
      break;
    }

  if (member != NULL)
    member->text = g_steal_pointer (&value);
  return 1;
}

static int
on_null (void *ctx)
{
  Reader *r = ctx;
  guint64 end = token_end (r);

  return on_value (r, SL_PIPELINE_VALUE_NULL, NULL, 0, end >= 4 ? end - 4 : 0, end);
}

static int
on_boolean (void *ctx,
            int   value)
{
  Reader *r = ctx;
  guint64 end = token_end (r);
  guint64 length = value ? 4 : 5;

  return on_value (r, SL_PIPELINE_VALUE_BOOLEAN, NULL, 0, end >= length ? end - length : 0, end);
}

static int
on_number (void       *ctx,
           const char *text,
           size_t      length)
{
  Reader *r = ctx;
  guint64 end = token_end (r);

  return on_value (r, SL_PIPELINE_VALUE_NUMBER, text, length, number_start (r, end), end);
}

static int
on_string (void                *ctx,
           const unsigned char *text,
           size_t               length)
{
  Reader *r = ctx;
  guint64 end = token_end (r);

  return on_value (r, SL_PIPELINE_VALUE_STRING, (const char *) text, length, string_start (r, end), end);
}

static int
on_map_key (void                *ctx,
            const unsigned char *text,
            size_t               length)
{
  Reader *r = ctx;
  guint64 end = token_end (r);

  g_free (r->key);
  r->key = g_strndup ((const char *) text, length);
  set_span (r, &r->key_span, string_start (r, end), end);
  return 1;
}

/* ------------------------------------------------------------------ */
/* Containers */

static gboolean
start_in_element (Reader              *r,
                  const char          *key,
                  SlPipelineValueType  type,
                  guint64              start)
{
  SlPipelineMember *member = add_element_member (r, key, type, start, start + 1);
  SlPipelineLinkKind kind;

  if (type == SL_PIPELINE_VALUE_OBJECT && g_str_equal (member->key, "props"))
    return push (r, ROLE_PROPS, start, NULL, member);
  if (type == SL_PIPELINE_VALUE_ARRAY && link_kind_of (member->key, &kind))
    {
      Frame *frame;

      if (!push (r, ROLE_LINKS, start, NULL, member) || (frame = top (r)) == NULL)
        return FALSE;
      frame->link_kind = kind;
      return TRUE;
    }
  return push (r, ROLE_OPAQUE, start, NULL, member);
}

static gboolean
start_in_stream (Reader              *r,
                 const char          *key,
                 SlPipelineValueType  type,
                 guint64              start)
{
  gboolean is_map = type == SL_PIPELINE_VALUE_OBJECT;

  if (g_str_equal (key, "stream_config"))
    {
      sl_pipeline_stream_begin_config (r->stream, &r->key_span);
      r->stream->config_type = type;
      return push (r, is_map ? ROLE_CONFIG : ROLE_OPAQUE, start, &r->stream->config_span, NULL);
    }

  r->element = sl_pipeline_stream_add_element (r->stream, key, type, &r->key_span);
  if (!push (r, is_map ? ROLE_ELEMENT : ROLE_OPAQUE, start, &r->element->span, NULL))
    return FALSE;
  if (!is_map)
    r->element = NULL;
  return TRUE;
}

static int
on_start (Reader              *r,
          SlPipelineValueType  type)
{
  Frame *frame = top (r);
  guint64 start = token_end (r) - 1;
  g_autofree char *key = take_key (r);
  gboolean is_map = type == SL_PIPELINE_VALUE_OBJECT;
  SlPipelineMember *member;
  SlPipelineSpan span;

  if (frame == NULL)
    {
      if (!is_map)
        report (r, SL_SEVERITY_ERROR, start, _("The file holds a JSON array, not an object of streams"));
      return push (r, is_map ? ROLE_ROOT : ROLE_OPAQUE, start, NULL, NULL);
    }

  switch (frame->role)
    {
    case ROLE_ROOT:
      r->stream = sl_pipeline_add_stream (r->pipeline, key, type, &r->key_span);
      if (!push (r, is_map ? ROLE_STREAM : ROLE_OPAQUE, start, &r->stream->span, NULL))
        return 0;
      if (!is_map)
        r->stream = NULL;
      return 1;

    case ROLE_STREAM:
      return start_in_stream (r, key, type, start);

    case ROLE_ELEMENT:
      return start_in_element (r, key, type, start);

    case ROLE_CONFIG:
      member = new_member (r, key, type, start, start + 1);
      sl_pipeline_stream_add_config (r->stream, member);
      return push (r, ROLE_OPAQUE, start, NULL, member);

    case ROLE_PROPS:
      member = new_member (r, key, type, start, start + 1);
      sl_pipeline_element_add_prop (r->element, member);
      return push (r, ROLE_OPAQUE, start, NULL, member);

    case ROLE_LINKS:
      {
        SlPipelineLink *link;

        set_span (r, &span, start, start + 1);
        link = sl_pipeline_element_add_link (r->element, frame->link_kind, type, NULL, &span);
        return push (r, ROLE_OPAQUE, start, link != NULL ? &link->span : NULL, NULL);
      }

    case ROLE_OPAQUE:
    default:
      return push (r, ROLE_OPAQUE, start, NULL, NULL);
    }
}

static int
on_start_map (void *ctx)
{
  return on_start (ctx, SL_PIPELINE_VALUE_OBJECT);
}

static int
on_start_array (void *ctx)
{
  return on_start (ctx, SL_PIPELINE_VALUE_ARRAY);
}

static int
on_end (void *ctx)
{
  Reader *r = ctx;

  if (r->frames->len > 0)
    close_frame (r, token_end (r));
  return 1;
}

static const yajl_callbacks callbacks = {
  .yajl_null = on_null,
  .yajl_boolean = on_boolean,
  .yajl_number = on_number,
  .yajl_string = on_string,
  .yajl_start_map = on_start_map,
  .yajl_map_key = on_map_key,
  .yajl_end_map = on_end,
  .yajl_start_array = on_start_array,
  .yajl_end_array = on_end,
};

/* ------------------------------------------------------------------ */

static void
report_damage (Reader       *r,
               const guint8 *json,
               gsize         length)
{
  g_autofree char *reason = sl_yajl_error_dup_reason (r->yajl, json, length);
  g_autofree char *message = NULL;

  /* Translators: the reason is the JSON parser's own (English) text */
  message = g_strdup_printf (_("The JSON is damaged here (%s); what came before is kept"), reason);
  report (r, SL_SEVERITY_ERROR, r->base + sl_yajl_error_offset (r->yajl, reason, json, length, -1), message);
}

static gboolean
parse (Reader *r)
{
  const guint8 *json = r->data + r->base;
  gsize length = r->length - r->base;
  yajl_status status;

  status = yajl_parse (r->yajl, json, length);
  if (status == yajl_status_client_canceled)
    return FALSE;
  if (status != yajl_status_ok)
    {
      report_damage (r, json, length);
      return FALSE;
    }

  status = yajl_complete_parse (r->yajl);
  if (status == yajl_status_client_canceled)
    return FALSE;
  if (status != yajl_status_ok || r->frames->len > 0)
    {
      report (r, SL_SEVERITY_ERROR, r->length,
              _("The file ends before the JSON is complete (cut off?); what came before is kept"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_all (Reader *r)
{
  /* a UTF-8 byte order mark is not JSON, but editors write one */
  if (r->length >= 3 && memcmp (r->data, "\xef\xbb\xbf", 3) == 0)
    r->base = 3;

  if (r->length == r->base)
    {
      report (r, SL_SEVERITY_ERROR, 0, _("The file is empty"));
      return FALSE;
    }
  if (r->length > SL_PIPELINE_READER_MAX_SIZE)
    {
      report (r, SL_SEVERITY_ERROR, 0, _("The file is too large to be a pipeline"));
      return FALSE;
    }
  return parse (r);
}

SlPipeline *
sl_pipeline_reader_read_data (const char   *path,
                              const guint8 *data,
                              gsize         length)
{
  g_autoptr(GBytes) contents = NULL;
  gboolean complete;
  Reader r = { 0 };

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  contents = g_bytes_new (data, length);
  r.pipeline = sl_pipeline_new (path);
  r.data = g_bytes_get_data (contents, &r.length);
  r.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  index_lines (&r);
  r.yajl = yajl_alloc (&callbacks, NULL, &r);
  yajl_config (r.yajl, yajl_allow_comments, 0);

  sl_pipeline_set_contents (r.pipeline, contents);
  complete = read_all (&r);

  /* what is still open was cut by the damage: it ends there */
  while (r.frames->len > 0)
    close_frame (&r, r.length);

  sl_pipeline_finish (r.pipeline, complete);

  yajl_free (r.yajl);
  g_array_unref (r.frames);
  g_array_unref (r.line_starts);
  g_free (r.key);
  return r.pipeline;
}

SlPipeline *
sl_pipeline_reader_read_file (GFile         *file,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *path = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (path == NULL)
    path = g_file_get_uri (file);

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_size (info) > SL_PIPELINE_READER_MAX_SIZE)
    {
      SlPipeline *pipeline = sl_pipeline_new (path);
      g_autoptr(SlProblem) problem =
        sl_problem_new_at_position (SL_SEVERITY_ERROR, _("MindX SDK pipeline"), path, 0, 1, 1, NULL,
                                    _("The file is too large to be a pipeline"));

      sl_pipeline_add_problem (pipeline, problem);
      sl_pipeline_finish (pipeline, FALSE);
      return pipeline;
    }

  if (!sl_input_file_load_contents (file, cancellable, &data, &length, error))
    return NULL;
  return sl_pipeline_reader_read_data (path, (const guint8 *) data, length);
}
