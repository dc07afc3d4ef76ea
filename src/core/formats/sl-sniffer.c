/* sl-sniffer.c
 *
 * Looks at the first few KiB of a file and says what it probably is,
 * without parsing the whole of it: the detector runs this over every
 * candidate file of a folder that may hold thousands of them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <zlib.h>

#include "sl-input-file.h"
#include "sl-crc32c.h"
#include "sl-record-writer.h"
#include "sl-sniffer.h"
#include "sl-trace-skimmer.h"

#define JSON_MAX_DEPTH     64
#define JSON_MAX_KEYS      64
#define JSON_MAX_TEXT      256
#define SQLITE_MAX_TABLES  64
#define PROTOBUF_MAX_FIELDS 4096

static const char sqlite_magic[16] = "SQLite format 3";

/* ------------------------------------------------------------------ */
/* Little-endian helpers                                               */
/* ------------------------------------------------------------------ */

static guint32
read_le32 (const guint8 *p)
{
  return (guint32)p[0] | ((guint32)p[1] << 8) | ((guint32)p[2] << 16) | ((guint32)p[3] << 24);
}

static guint64
read_le64 (const guint8 *p)
{
  return (guint64)read_le32 (p) | ((guint64)read_le32 (p + 4) << 32);
}

/* ------------------------------------------------------------------ */
/* Protobuf                                                            */
/* ------------------------------------------------------------------ */

static gboolean
read_varint (const guint8 *data,
             gsize         len,
             gsize        *pos,
             guint64      *value)
{
  guint64 result = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (*pos >= len)
        return FALSE;

      byte = data[(*pos)++];
      result |= (guint64)(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = result;
          return TRUE;
        }
    }

  return FALSE;
}

typedef enum {
  FIELD_OK,
  FIELD_END,        /* the data ended inside the field */
  FIELD_INVALID,
} FieldStatus;

/* Steps over one field. @field_data and @field_len are set for
 * length-delimited fields. */
static FieldStatus
next_field (const guint8  *data,
            gsize          len,
            gsize         *pos,
            guint64       *field_number,
            guint         *wire_type,
            const guint8 **field_data,
            gsize         *field_len)
{
  guint64 tag;
  guint64 value;

  *field_data = NULL;
  *field_len = 0;

  if (!read_varint (data, len, pos, &tag))
    return *pos >= len ? FIELD_END : FIELD_INVALID;

  *field_number = tag >> 3;
  *wire_type = tag & 7;
  if (*field_number == 0 || *field_number > 536870911)
    return FIELD_INVALID;

  switch (*wire_type)
    {
    case 0:
      if (!read_varint (data, len, pos, &value))
        return *pos >= len ? FIELD_END : FIELD_INVALID;
      return FIELD_OK;

    case 1:
      if (len - *pos < 8)
        return FIELD_END;
      *pos += 8;
      return FIELD_OK;

    case 5:
      if (len - *pos < 4)
        return FIELD_END;
      *pos += 4;
      return FIELD_OK;

    case 2:
      if (!read_varint (data, len, pos, &value))
        return *pos >= len ? FIELD_END : FIELD_INVALID;
      if (value > len - *pos)
        return FIELD_END;
      *field_data = data + *pos;
      *field_len = value;
      *pos += value;
      return FIELD_OK;

    default:
      return FIELD_INVALID;
    }
}

/**
 * sl_sniffer_is_protobuf:
 * @complete: whether @data is the whole message
 *
 * A loose plausibility check for serialized graphs: the start must be a
 * run of well-formed fields.
 */
gboolean
sl_sniffer_is_protobuf (const guint8 *data,
                        gsize         len,
                        gboolean      complete)
{
  gsize pos = 0;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (len == 0)
    return FALSE;

  for (guint i = 0; i < PROTOBUF_MAX_FIELDS && pos < len; i++)
    {
      guint64 field_number;
      guint wire_type;
      const guint8 *field_data;
      gsize field_len;

      switch (next_field (data, len, &pos, &field_number, &wire_type, &field_data, &field_len))
        {
        case FIELD_OK:
          break;
        case FIELD_END:
          return !complete;
        case FIELD_INVALID:
        default:
          return FALSE;
        }
    }

  return TRUE;
}

/* Both MindSpore's Event.version and TensorBoard's Event.file_version are
 * string field 3. */
static char *
dup_event_version (const guint8 *payload,
                   gsize         len)
{
  gsize pos = 0;

  for (guint i = 0; i < PROTOBUF_MAX_FIELDS && pos < len; i++)
    {
      guint64 field_number;
      guint wire_type;
      const guint8 *field_data;
      gsize field_len;

      if (next_field (payload, len, &pos, &field_number, &wire_type, &field_data, &field_len) != FIELD_OK)
        return NULL;

      if (field_number == 3 && wire_type == 2)
        {
          if (field_len == 0 || field_len > JSON_MAX_TEXT ||
              !g_utf8_validate ((const char *)field_data, field_len, NULL))
            return NULL;
          return g_strndup ((const char *)field_data, field_len);
        }
    }

  return NULL;
}

/* Whether the first length-delimited field of an event is graph_def (4)
 * or TensorBoard's meta_graph_def (9). Writers put wall_time and step
 * first, so the tag shows in the first bytes of the payload, even when
 * the rest of a large graph lies beyond the head. */
static gboolean
event_holds_graph (const guint8 *payload,
                   gsize         len)
{
  gsize pos = 0;

  for (guint i = 0; i < 4 && pos < len; i++)
    {
      guint64 tag, ignored;

      if (!read_varint (payload, len, &pos, &tag))
        return FALSE;
      switch (tag & 7)
        {
        case 0:
          if (!read_varint (payload, len, &pos, &ignored))
            return FALSE;
          break;
        case 1:
        case 5:
          pos += (tag & 7) == 1 ? 8 : 4;
          break;
        case 2:
          return (tag >> 3) == 4 || (tag >> 3) == 9;
        default:
          return FALSE;
        }
    }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* TFRecord framing                                                    */
/* ------------------------------------------------------------------ */

void
sl_record_scan_clear (SlRecordScan *scan)
{
  g_return_if_fail (scan != NULL);

  g_clear_pointer (&scan->version, g_free);
  memset (scan, 0, sizeof *scan);
  scan->bad_header_offset = -1;
  scan->partial_offset = -1;
}

static gboolean
record_header_is_valid (const guint8 *p)
{
  return sl_crc32c_mask (sl_crc32c (p, 8)) == read_le32 (p + 8);
}

/**
 * sl_sniffer_scan_records:
 * @data: the start of the file
 * @file_size: the size of the whole file
 * @scan: (out caller-allocates): what was found; clear it with
 *   sl_record_scan_clear()
 *
 * Checks the framing and both CRCs of every whole record inside @data.
 * It stops at the first bad length CRC, because after that the record
 * boundaries are unknown.
 */
void
sl_sniffer_scan_records (const guint8 *data,
                         gsize         len,
                         guint64       file_size,
                         SlRecordScan *scan)
{
  gsize pos = 0;
  guint index = 0;

  g_return_if_fail (data != NULL || len == 0);
  g_return_if_fail (scan != NULL);

  memset (scan, 0, sizeof *scan);
  scan->bad_header_offset = -1;
  scan->partial_offset = -1;

  file_size = MAX (file_size, len);

  while (pos < len)
    {
      guint64 length;
      guint64 remaining_in_file = file_size - pos;
      const guint8 *payload;

      if (len - pos < SL_RECORD_HEADER_SIZE)
        {
          if (remaining_in_file < SL_RECORD_HEADER_SIZE)
            scan->partial_offset = pos;
          break;
        }

      if (!record_header_is_valid (data + pos))
        {
          scan->bad_header_offset = pos;
          scan->bad_header_index = index;
          break;
        }

      length = read_le64 (data + pos);
      if (length > remaining_in_file - SL_RECORD_HEADER_SIZE ||
          remaining_in_file - SL_RECORD_HEADER_SIZE - length < SL_RECORD_FOOTER_SIZE)
        {
          scan->partial_offset = pos;
          break;
        }

      payload = data + pos + SL_RECORD_HEADER_SIZE;
      scan->has_graph |= event_holds_graph (payload, MIN (length, len - pos - SL_RECORD_HEADER_SIZE));

      if (length > len - pos - SL_RECORD_HEADER_SIZE ||
          len - pos - SL_RECORD_HEADER_SIZE - length < SL_RECORD_FOOTER_SIZE)
        break;

      if (sl_crc32c_mask (sl_crc32c (payload, length)) != read_le32 (payload + length))
        {
          if (scan->n_bad_payloads < G_N_ELEMENTS (scan->bad_payload_offsets))
            scan->bad_payload_offsets[scan->n_bad_payloads] = pos;
          scan->n_bad_payloads++;
        }
      else
        {
          if (index == 0)
            scan->version = dup_event_version (payload, length);
          scan->n_records++;
        }

      pos += SL_RECORD_HEADER_SIZE + length + SL_RECORD_FOOTER_SIZE;
      index++;
    }

  scan->complete = pos >= file_size || scan->partial_offset >= 0;
}

/* ------------------------------------------------------------------ */
/* JSON head scanner                                                   */
/* ------------------------------------------------------------------ */

typedef enum {
  JS_VALUE,
  JS_VALUE_OR_CLOSE,
  JS_KEY_OR_CLOSE,
  JS_KEY,
  JS_COLON,
  JS_COMMA_OR_CLOSE,
  JS_DONE,
} JsonState;

typedef enum {
  TOKEN_OK,
  TOKEN_END,
  TOKEN_INVALID,
} TokenStatus;

typedef struct {
  const guint8  *data;
  gsize          len;
  gsize          pos;
  gboolean       complete;
  char           stack[JSON_MAX_DEPTH];
  guint          depth;
  JsonState      state;
  SlSniffResult *result;
  char          *top_key;
  gboolean       trace_events_array;
  gboolean       events_have_ph;
  gboolean       events_have_ts;
  gboolean       events_have_pid;
} JsonScan;

static TokenStatus
scan_string (JsonScan *scan,
             gsize    *start,
             gsize    *end)
{
  gsize pos = scan->pos + 1;

  *start = pos;

  while (pos < scan->len)
    {
      guint8 c = scan->data[pos];

      if (c == '"')
        {
          *end = pos;
          scan->pos = pos + 1;
          return TOKEN_OK;
        }

      if (c < 0x20)
        {
          scan->pos = pos;
          return TOKEN_INVALID;
        }

      if (c == '\\')
        {
          if (pos + 1 >= scan->len)
            break;

          switch (scan->data[pos + 1])
            {
            case '"': case '\\': case '/': case 'b':
            case 'f': case 'n': case 'r': case 't':
              pos += 2;
              continue;

            case 'u':
              for (guint i = 0; i < 4; i++)
                {
                  if (pos + 2 + i >= scan->len)
                    {
                      scan->pos = scan->len;
                      return TOKEN_END;
                    }
                  if (!g_ascii_isxdigit (scan->data[pos + 2 + i]))
                    {
                      scan->pos = pos + 2 + i;
                      return TOKEN_INVALID;
                    }
                }
              pos += 6;
              continue;

            default:
              scan->pos = pos + 1;
              return TOKEN_INVALID;
            }
        }

      pos++;
    }

  scan->pos = scan->len;
  return TOKEN_END;
}

static gboolean
is_delimiter (guint8 c)
{
  return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Numbers, true, false, null, and the NaN/Infinity that Python's json
 * module writes by default. */
static TokenStatus
scan_bare_value (JsonScan *scan,
                 gsize    *start,
                 gsize    *end)
{
  static const char * const words[] = { "true", "false", "null", "NaN", "Infinity", "-Infinity" };
  const guint8 *p = scan->data + scan->pos;
  gsize avail = scan->len - scan->pos;
  gsize n = 0;

  *start = scan->pos;

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize wlen = strlen (words[i]);

      if (avail >= wlen && memcmp (p, words[i], wlen) == 0)
        {
          n = wlen;
          goto check_end;
        }
      if (avail < wlen && memcmp (p, words[i], avail) == 0)
        {
          scan->pos = scan->len;
          return TOKEN_END;
        }
    }

  /* -?digits(.digits)?([eE][+-]?digits)? */
  if (n < avail && p[n] == '-')
    n++;
  if (n >= avail)
    goto out_of_data;
  if (!g_ascii_isdigit (p[n]))
    {
      scan->pos += n;
      return TOKEN_INVALID;
    }
  while (n < avail && g_ascii_isdigit (p[n]))
    n++;
  if (n < avail && p[n] == '.')
    {
      n++;
      if (n >= avail)
        goto out_of_data;
      if (!g_ascii_isdigit (p[n]))
        {
          scan->pos += n;
          return TOKEN_INVALID;
        }
      while (n < avail && g_ascii_isdigit (p[n]))
        n++;
    }
  if (n < avail && (p[n] == 'e' || p[n] == 'E'))
    {
      n++;
      if (n < avail && (p[n] == '+' || p[n] == '-'))
        n++;
      if (n >= avail)
        goto out_of_data;
      if (!g_ascii_isdigit (p[n]))
        {
          scan->pos += n;
          return TOKEN_INVALID;
        }
      while (n < avail && g_ascii_isdigit (p[n]))
        n++;
    }

check_end:
  if (n >= avail)
    {
      /* A number at the very end of a window may go on. At the end of
       * the file it is whole. */
      if (!scan->complete)
        goto out_of_data;
    }
  else if (!is_delimiter (p[n]))
    {
      scan->pos += n;
      return TOKEN_INVALID;
    }

  scan->pos += n;
  *end = scan->pos;
  return TOKEN_OK;

out_of_data:
  scan->pos = scan->len;
  return TOKEN_END;
}

static gboolean
json_path_is (JsonScan   *scan,
              const char *path)
{
  return scan->depth == strlen (path) && memcmp (scan->stack, path, scan->depth) == 0;
}

static void
note_key (JsonScan *scan,
          gsize     start,
          gsize     end)
{
  gsize len = MIN (end - start, JSON_MAX_TEXT);
  const char *key = (const char *)scan->data + start;
  gboolean in_event;

  if (json_path_is (scan, "{"))
    {
      g_free (scan->top_key);
      scan->top_key = g_strndup (key, len);
      if (scan->result->json_keys->len < JSON_MAX_KEYS)
        g_ptr_array_add (scan->result->json_keys, g_strdup (scan->top_key));
      return;
    }

  in_event = json_path_is (scan, "[{") ||
             (json_path_is (scan, "{[{") && g_strcmp0 (scan->top_key, "traceEvents") == 0);
  if (!in_event)
    return;

  if (len == 2 && memcmp (key, "ph", 2) == 0)
    scan->events_have_ph = TRUE;
  else if (len == 2 && memcmp (key, "ts", 2) == 0)
    scan->events_have_ts = TRUE;
  else if (len == 3 && memcmp (key, "pid", 3) == 0)
    scan->events_have_pid = TRUE;
}

static void
note_scalar (JsonScan *scan,
             gsize     start,
             gsize     end)
{
  if (!json_path_is (scan, "{") || scan->top_key == NULL)
    return;

  g_hash_table_replace (scan->result->json_values,
                        g_strdup (scan->top_key),
                        g_strndup ((const char *)scan->data + start, MIN (end - start, JSON_MAX_TEXT)));
}

static void
after_value (JsonScan *scan)
{
  scan->state = scan->depth == 0 ? JS_DONE : JS_COMMA_OR_CLOSE;
}

static gboolean
push_container (JsonScan *scan,
                char      c)
{
  if (scan->depth >= JSON_MAX_DEPTH)
    return FALSE;

  if (json_path_is (scan, "{") && c == '[' && g_strcmp0 (scan->top_key, "traceEvents") == 0)
    scan->trace_events_array = TRUE;

  scan->stack[scan->depth++] = c;
  scan->state = c == '{' ? JS_KEY_OR_CLOSE : JS_VALUE_OR_CLOSE;
  scan->pos++;
  return TRUE;
}

static void
pop_container (JsonScan *scan)
{
  scan->depth--;
  scan->pos++;
  after_value (scan);
}

typedef enum {
  JSON_OK,          /* the whole document was seen and is well formed */
  JSON_WINDOW_END,  /* fine so far; the window ended */
  JSON_TOO_DEEP,    /* fine so far; nesting is deeper than we follow */
  JSON_CUT_OFF,     /* the file ends inside the document */
  JSON_INVALID,
} JsonStatus;

static JsonStatus
run_json_scan (JsonScan *scan)
{
  while (TRUE)
    {
      gsize start = 0, end = 0;
      TokenStatus status = TOKEN_OK;
      guint8 c;

      while (scan->pos < scan->len && g_ascii_isspace (scan->data[scan->pos]))
        scan->pos++;

      if (scan->pos >= scan->len)
        {
          if (scan->state == JS_DONE)
            return JSON_OK;
          if (!scan->complete)
            return JSON_WINDOW_END;
          /* Chrome accepts an array trace without its closing bracket,
           * which is how a tracer that was killed leaves it. */
          if (scan->depth == 1 && scan->stack[0] == '[' &&
              (scan->state == JS_COMMA_OR_CLOSE || scan->state == JS_VALUE))
            return JSON_OK;
          return JSON_CUT_OFF;
        }

      c = scan->data[scan->pos];

      switch (scan->state)
        {
        case JS_VALUE_OR_CLOSE:
          if (c == ']')
            {
              pop_container (scan);
              continue;
            }
          /* fall through */
        case JS_VALUE:
          if (c == '{' || c == '[')
            {
              if (!push_container (scan, c))
                return JSON_TOO_DEEP;
              continue;
            }
          if (c == '"')
            status = scan_string (scan, &start, &end);
          else
            status = scan_bare_value (scan, &start, &end);
          if (status != TOKEN_OK)
            break;
          note_scalar (scan, start, end);
          after_value (scan);
          continue;

        case JS_KEY_OR_CLOSE:
          if (c == '}')
            {
              pop_container (scan);
              continue;
            }
          /* fall through */
        case JS_KEY:
          if (c != '"')
            return JSON_INVALID;
          status = scan_string (scan, &start, &end);
          if (status != TOKEN_OK)
            break;
          note_key (scan, start, end);
          scan->state = JS_COLON;
          continue;

        case JS_COLON:
          if (c != ':')
            return JSON_INVALID;
          scan->pos++;
          scan->state = JS_VALUE;
          continue;

        case JS_COMMA_OR_CLOSE:
          if (c == ',')
            {
              scan->pos++;
              scan->state = scan->stack[scan->depth - 1] == '{' ? JS_KEY : JS_VALUE;
              continue;
            }
          if ((c == '}' && scan->stack[scan->depth - 1] == '{') ||
              (c == ']' && scan->stack[scan->depth - 1] == '['))
            {
              pop_container (scan);
              continue;
            }
          return JSON_INVALID;

        case JS_DONE:
        default:
          return JSON_INVALID;
        }

      /* A token did not end well. */
      if (status == TOKEN_INVALID)
        return JSON_INVALID;
      return scan->complete ? JSON_CUT_OFF : JSON_WINDOW_END;
    }
}

static gboolean
looks_like_trace (JsonScan *scan)
{
  SlSniffResult *result = scan->result;
  gboolean kineto;

  if (result->json_root == SL_JSON_ROOT_ARRAY)
    return scan->events_have_ph || (scan->events_have_ts && scan->events_have_pid);

  /* Kineto writes device properties before "traceEvents", sometimes more
   * than a window's worth of them. */
  kineto = sl_sniff_result_has_json_key (result, "schemaVersion") &&
           (sl_sniff_result_has_json_key (result, "deviceProperties") ||
            sl_sniff_result_has_json_key (result, "distributedInfo") ||
            sl_sniff_result_has_json_key (result, "computeProperties"));

  return scan->trace_events_array ||
         scan->events_have_ph ||
         kineto ||
         sl_sniff_result_has_json_key (result, "displayTimeUnit") ||
         sl_sniff_result_has_json_key (result, "systemTraceEvents");
}

static void
sniff_json (SlSniffResult *result,
            const guint8  *data,
            gsize          len,
            gsize          start,
            gboolean       complete)
{
  JsonScan scan = { 0 };
  JsonStatus status;
  g_autoptr(SlTraceSkimmer) skimmer = sl_trace_skimmer_new (SL_TRACE_SKIMMER_BUDGET);
  SlTraceVerdict verdict;

  /* Zero bytes at the end are room a file was given and never written
   * (the readers say so when it is opened): the data ends before them */
  while (len > start + 1 && data[len - 1] == 0)
    len--;

  scan.data = data;
  scan.len = len;
  scan.pos = start;
  scan.complete = complete;
  scan.state = JS_VALUE;
  scan.result = result;

  result->json_root = data[start] == '{' ? SL_JSON_ROOT_OBJECT : SL_JSON_ROOT_ARRAY;

  status = run_json_scan (&scan);
  result->json_too_deep = status == JSON_TOO_DEEP;

  /* The structure decides wherever the trace keys sit; the head may end
   * before they come. */
  verdict = sl_trace_skimmer_feed (skimmer, data + start, len - start);
  if (complete)
    verdict = sl_trace_skimmer_finish (skimmer);

  if (looks_like_trace (&scan) || verdict == SL_TRACE_VERDICT_TRACE)
    result->kind = SL_SNIFF_TRACE;
  else
    result->kind = SL_SNIFF_JSON;
  result->trace_undecided = result->kind == SL_SNIFF_JSON && verdict == SL_TRACE_VERDICT_UNDECIDED;

  if (status == JSON_INVALID)
    {
      result->error_offset = scan.pos;
      result->error_message = g_strdup_printf (_("The JSON is malformed at byte %llu."),
                                               (unsigned long long)scan.pos);
    }
  else if (status == JSON_CUT_OFF)
    {
      result->error_offset = len;
      result->error_message = g_strdup_printf (_("The JSON stops at byte %llu, in the middle of the data: the file was cut off."),
                                               (unsigned long long)len);
    }

  g_free (scan.top_key);
}

/* ------------------------------------------------------------------ */
/* SQLite                                                              */
/* ------------------------------------------------------------------ */

static void
sniff_sqlite (SlSniffResult *result,
              const guint8  *data,
              gsize          len)
{
  static const char create[] = "CREATE TABLE ";
  const gsize create_len = sizeof create - 1;
  guint page_size;

  result->kind = SL_SNIFF_SQLITE;

  if (len >= 18)
    {
      page_size = ((guint)data[16] << 8) | data[17];
      result->sqlite_page_size = page_size == 1 ? 65536 : page_size;
    }

  /* The schema is SQL text in the pages of sqlite_master; when it sits
   * in the first pages, the table names can be read without SQLite. */
  for (gsize pos = 0; pos + create_len < len && result->sqlite_tables->len < SQLITE_MAX_TABLES; pos++)
    {
      gsize name_start;
      gsize name_end;

      if (data[pos] != 'C' || memcmp (data + pos, create, create_len) != 0)
        continue;

      name_start = pos + create_len;
      if (name_start < len && (data[name_start] == '"' || data[name_start] == '`' || data[name_start] == '['))
        name_start++;
      name_end = name_start;
      while (name_end < len && name_end - name_start < 64 &&
             (g_ascii_isalnum (data[name_end]) || data[name_end] == '_'))
        name_end++;

      if (name_end > name_start)
        {
          g_autofree char *name = g_strndup ((const char *)data + name_start, name_end - name_start);

          if (!g_ptr_array_find_with_equal_func (result->sqlite_tables, name, g_str_equal, NULL))
            g_ptr_array_add (result->sqlite_tables, g_steal_pointer (&name));
        }
      pos = name_end - 1;
    }
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

static SlSniffResult *
sl_sniff_result_new (void)
{
  SlSniffResult *result = g_new0 (SlSniffResult, 1);

  result->error_offset = -1;
  result->json_keys = g_ptr_array_new_with_free_func (g_free);
  result->json_values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  result->sqlite_tables = g_ptr_array_new_with_free_func (g_free);
  result->records.bad_header_offset = -1;
  result->records.partial_offset = -1;

  return result;
}

void
sl_sniff_result_free (SlSniffResult *self)
{
  if (self == NULL)
    return;

  g_free (self->error_message);
  g_clear_pointer (&self->json_keys, g_ptr_array_unref);
  g_clear_pointer (&self->json_values, g_hash_table_unref);
  g_clear_pointer (&self->sqlite_tables, g_ptr_array_unref);
  g_clear_pointer (&self->npy, sl_npy_header_free);
  sl_record_scan_clear (&self->records);
  g_free (self);
}

const char *
sl_sniff_result_lookup_json (SlSniffResult *self,
                             const char    *key)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->json_values, key);
}

gboolean
sl_sniff_result_has_json_key (SlSniffResult *self,
                              const char    *key)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  return g_ptr_array_find_with_equal_func (self->json_keys, key, g_str_equal, NULL);
}

static void
sniff_plain (SlSniffResult *result,
             const guint8  *data,
             gsize          len,
             guint64        file_size)
{
  gboolean complete = len >= file_size;
  gsize start = 0;

  result->complete = complete;

  if (len == 0)
    {
      result->kind = complete ? SL_SNIFF_EMPTY : SL_SNIFF_UNKNOWN;
      return;
    }

  if (len >= sizeof sqlite_magic && memcmp (data, sqlite_magic, sizeof sqlite_magic) == 0)
    {
      sniff_sqlite (result, data, len);
      return;
    }

  if (sl_npy_header_has_magic (data, len))
    {
      g_autoptr(GError) error = NULL;

      result->kind = SL_SNIFF_NPY;
      result->npy = sl_npy_header_parse (data, len, &result->error_offset, &error);
      if (result->npy == NULL)
        result->error_message = g_strdup (error->message);
      else
        result->error_offset = -1;
      return;
    }

  if (len >= SL_RECORD_HEADER_SIZE && record_header_is_valid (data))
    {
      result->kind = SL_SNIFF_RECORDS;
      sl_sniffer_scan_records (data, len, file_size, &result->records);
      return;
    }

  /* A UTF-8 byte order mark, then whitespace */
  if (len >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
    start = 3;
  while (start < len && g_ascii_isspace (data[start]))
    start++;

  if (start < len && (data[start] == '{' || data[start] == '['))
    sniff_json (result, data, len, start, complete);
  else
    result->kind = SL_SNIFF_UNKNOWN;
}

static void
sniff_gzip (SlSniffResult *result,
            const guint8  *data,
            gsize          len,
            gboolean       complete)
{
  g_autofree guint8 *out = g_malloc (SL_SNIFFER_HEAD_SIZE);
  z_stream zs = { 0 };
  gboolean stream_end = FALSE;
  gsize produced;
  int ret;

  result->gzip = TRUE;

  /* 16 + MAX_WBITS: gzip wrapper only */
  if (inflateInit2 (&zs, 16 + MAX_WBITS) != Z_OK)
    {
      result->kind = SL_SNIFF_GZIP;
      return;
    }

  zs.next_in = (Bytef *)data;
  zs.avail_in = (uInt)MIN (len, G_MAXUINT);
  zs.next_out = out;
  zs.avail_out = SL_SNIFFER_HEAD_SIZE;

  do
    ret = inflate (&zs, Z_NO_FLUSH);
  while (ret == Z_OK && zs.avail_out > 0 && zs.avail_in > 0);

  produced = SL_SNIFFER_HEAD_SIZE - zs.avail_out;

  if (ret == Z_STREAM_END)
    {
      stream_end = TRUE;
    }
  else if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_MEM_ERROR || ret == Z_STREAM_ERROR)
    {
      result->error_offset = zs.total_in;
      result->error_message = g_strdup_printf (_("The gzip data is damaged near byte %lu; the file cannot be decompressed."),
                                               zs.total_in);
    }
  else if (zs.avail_out > 0 && zs.avail_in == 0 && complete)
    {
      result->error_offset = len;
      result->error_message = g_strdup_printf (_("The gzip data stops at byte %llu: the file was cut off."),
                                               (unsigned long long)len);
    }

  inflateEnd (&zs);

  if (result->error_message != NULL)
    {
      /* Still say what the start holds, but keep the gzip problem. */
      g_autofree char *gzip_message = g_steal_pointer (&result->error_message);
      gint64 gzip_offset = result->error_offset;

      sniff_plain (result, out, produced, G_MAXUINT64);
      g_free (result->error_message);
      result->error_message = g_steal_pointer (&gzip_message);
      result->error_offset = gzip_offset;
      result->complete = FALSE;
    }
  else
    {
      sniff_plain (result, out, produced, stream_end ? produced : G_MAXUINT64);
      /* Offsets inside decompressed data mean nothing in the file. */
      if (result->error_message != NULL)
        result->error_offset = -1;
    }

  if (result->kind == SL_SNIFF_UNKNOWN || result->kind == SL_SNIFF_EMPTY)
    result->kind = SL_SNIFF_GZIP;
}

/**
 * sl_sniffer_sniff_data:
 * @data: the start of a file
 * @file_size: the size of the whole file, or %G_MAXUINT64 when unknown
 *
 * Returns: (transfer full): what @data looks like
 */
SlSniffResult *
sl_sniffer_sniff_data (const guint8 *data,
                       gsize         len,
                       guint64       file_size)
{
  SlSniffResult *result;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  result = sl_sniff_result_new ();

  if (len >= 2 && data[0] == 0x1f && data[1] == 0x8b)
    sniff_gzip (result, data, len, len >= file_size);
  else
    sniff_plain (result, data, len, file_size);

  return result;
}

/**
 * sl_sniffer_read_head:
 * @max_size: how many bytes to read at most
 *
 * Returns: (transfer full): the first bytes of @file
 */
GBytes *
sl_sniffer_read_head (GFile         *file,
                      gsize          max_size,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autofree guint8 *buffer = NULL;
  gsize n_read = 0;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  stream = sl_input_file_read (file, cancellable, error);
  if (stream == NULL)
    return NULL;

  buffer = g_malloc (MAX (max_size, 1));
  if (!g_input_stream_read_all (G_INPUT_STREAM (stream), buffer, max_size, &n_read, cancellable, error))
    return NULL;

  g_input_stream_close (G_INPUT_STREAM (stream), NULL, NULL);

  return g_bytes_new_take (g_steal_pointer (&buffer), n_read);
}

/**
 * sl_sniffer_skim_trace:
 * @result: what sl_sniffer_sniff_file() said of @file
 *
 * When the head of @file is JSON that does not yet say whether it is a
 * Chrome trace (@result's trace_undecided), reads on through the
 * (decompressed) file within the skimmer's budget and sets @result's
 * kind. A file that cannot be read on stays plain JSON. Only callers
 * that look for traces need it: it may read SL_TRACE_SKIMMER_BUDGET
 * bytes.
 */
void
sl_sniffer_skim_trace (SlSniffResult *result,
                       GFile         *file,
                       GCancellable  *cancellable)
{
  g_autoptr(GFileInputStream) file_stream = NULL;
  g_autoptr(GInputStream) stream = NULL;

  g_return_if_fail (result != NULL);
  g_return_if_fail (G_IS_FILE (file));

  if (!result->trace_undecided || result->error_message != NULL)
    return;

  file_stream = sl_input_file_read (file, cancellable, NULL);
  if (file_stream == NULL)
    return;

  if (result->gzip)
    {
      g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      stream = g_converter_input_stream_new (G_INPUT_STREAM (file_stream), G_CONVERTER (decompressor));
    }
  else
    {
      stream = G_INPUT_STREAM (g_object_ref (file_stream));
    }

  if (sl_trace_skimmer_skim_stream (stream, SL_TRACE_SKIMMER_BUDGET, NULL, &result->trace_out_of_budget,
                                    cancellable, NULL) == SL_TRACE_VERDICT_TRACE)
    result->kind = SL_SNIFF_TRACE;
  result->trace_undecided = FALSE;

  g_input_stream_close (stream, NULL, NULL);
}

/**
 * sl_sniffer_sniff_file:
 *
 * Reads the first SL_SNIFFER_HEAD_SIZE bytes of @file (more for a .npy
 * header that is longer) and sniffs them. Whether JSON whose head does
 * not say is a trace, sl_sniffer_skim_trace() tells.
 *
 * Returns: (transfer full) (nullable): what @file looks like, or %NULL
 *   with @error set when it cannot be read
 */
SlSniffResult *
sl_sniffer_sniff_file (GFile         *file,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GBytes) head = NULL;
  const guint8 *data;
  gsize len;
  gsize header_size;
  guint64 file_size;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (info == NULL)
    return NULL;
  file_size = g_file_info_get_size (info);

  head = sl_sniffer_read_head (file, SL_SNIFFER_HEAD_SIZE, cancellable, error);
  if (head == NULL)
    return NULL;

  data = g_bytes_get_data (head, &len);
  if (sl_npy_header_peek_size (data, len, &header_size, NULL) && header_size > len && len < file_size)
    {
      g_clear_pointer (&head, g_bytes_unref);
      head = sl_sniffer_read_head (file, header_size, cancellable, error);
      if (head == NULL)
        return NULL;
      data = g_bytes_get_data (head, &len);
    }

  return sl_sniffer_sniff_data (data, len, file_size);
}
