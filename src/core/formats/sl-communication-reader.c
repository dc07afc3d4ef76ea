/* sl-communication-reader.c
 *
 * The JSON files are streamed through yajl's callbacks over the whole
 * file (a few MB), so whatever precedes a cut or a damaged byte is kept
 * and every record knows the byte offset of its key. A stack of frames
 * holds the key each open object sits under; a record is recognised by
 * its depth: communication.json's op objects at depth 3 (step, kind,
 * op), cluster_communication.json's rank objects at depth 4 (group,
 * step, op, rank), and both matrices' "src-dst" objects at depth 4.
 * Anything in an unexpected place is skipped, never trusted.
 *
 * hccl_raw_<id>.csv holds JSON in two cells per step; those cells are
 * small and parsed whole with json-glib.
 *
 * Numbers may be JSON numbers or strings; NaN, infinities, negative
 * sizes and times and text that is no number are reported and left
 * unknown (NAN).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-input-file.h"
#include "sl-main-thread.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <yajl/yajl_parse.h>

#include "sl-communication-reader.h"
#include "sl-csv-reader.h"
#include "sl-yajl-error.h"

/* Deeper than any of these files nests; deeper containers are skipped. */
#define MAX_DEPTH        16
/* Longer keys (op names are ~60 bytes) are cut: they are only labels. */
#define MAX_KEY_BYTES    1024
#define MAX_RECORDS      (4 * 1024 * 1024)
/* Past this many damaged values in one file, the rest are counted. */
#define MAX_VALUE_REPORTS 20

#define KEY_OFFSET_UNKNOWN (-2)

#define TIME_INFO      "Communication Time Info"
#define BANDWIDTH_INFO "Communication Bandwidth Info"
#define SIZES          "Size Distribution"

typedef struct {
  char    *key;       /* the key this container is under; NULL in an array or at the root */
  gint64   offset;    /* of that key */
  gboolean array;
  guint    index;     /* elements seen, in an array */
} Frame;

typedef struct {
  SlCommunication *comm;
  const char      *path;
  SlCommFormat     format;
  const char      *data;            /* the whole file */
  gsize            length;
  gsize            base;            /* where yajl starts, after a byte order mark */
  yajl_handle      yajl;
  GArray          *frames;          /* Frame */
  guint            skipped;         /* open containers past MAX_DEPTH */
  char            *key;             /* key_buf, or NULL before a value without one */
  char             key_buf[MAX_KEY_BYTES + 1];
  gint64           key_end;         /* where the key's token ends */
  gint64           key_offset;      /* its opening quote; KEY_OFFSET_UNKNOWN until asked for */
  SlCommOp        *op;
  SlCommBandwidth *bandwidth;
  SlCommLink      *link;
  double           packet[2];       /* count, time of the open size array */
  guint            n_packet;
  double           packet_size;
  guint            n_records;
  guint            n_bad_values;
  gboolean         saw_object;      /* the root is an object */
  GPtrArray       *problems;
} Reader;

/* ------------------------------------------------------------------ */
/* Problems */

static void
report (GPtrArray  *problems,
        SlSeverity  severity,
        const char *path,
        gint64      offset,
        const char *message)
{
  g_ptr_array_add (problems, sl_problem_new (severity, _("Communication reader"), path, offset, message));
}

static gint64 key_offset (Reader *r);

static void
report_value (Reader     *r,
              const char *text)
{
  g_autofree char *message = NULL;

  if (++r->n_bad_values > MAX_VALUE_REPORTS)
    return;
  /* Translators: the first %s is a field name, the second its value as written */
  message = g_strdup_printf (_("“%s” is “%s”, not a size, time or rate; it is left unknown"),
                             r->key != NULL ? r->key : "", text);
  report (r->problems, SL_SEVERITY_WARNING, r->path, key_offset (r), message);
}

/* A value of the files: a finite, non-negative number, as number or text. */
/* Plain decimals ("16", "0.5", "1.2345") of up to 15 digits, the way
 * these files write nearly every value: the digits as an exact integer
 * divided by an exact power of ten is the correctly rounded double
 * (Clinger's fast path), so strtod, a third of the reading time on a
 * large cluster, is needed only for the rest. */
static gboolean
parse_plain_decimal (const char *text,
                     gsize       length,
                     double     *value)
{
  static const double powers[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
  guint64 digits = 0;
  guint n_digits = 0, n_decimals = 0;
  gboolean point = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (c == '.' && !point && n_digits > 0)
        point = TRUE;
      else if (g_ascii_isdigit (c) && n_digits < 15)
        {
          digits = digits * 10 + (guint64)(c - '0');
          n_digits++;
          n_decimals += point;
        }
      else
        return FALSE;
    }
  if (n_digits == 0 || text[length - 1] == '.')
    return FALSE;
  *value = (double)digits / powers[n_decimals];
  return TRUE;
}

static gboolean
parse_amount (const char *text,
              gsize       length,
              double     *value)
{
  /* On the stack: a 512-rank cluster has millions of these. */
  char copy[65];

  if (parse_plain_decimal (text, length, value))
    return TRUE;
  if (length > 64)
    return FALSE;
  memcpy (copy, text, length);
  copy[length] = '\0';
  return sl_csv_parse_double (copy, value) && *value >= 0;
}

/* ------------------------------------------------------------------ */
/* Positions */

static gint64
token_end (Reader *r)
{
  return (gint64)(r->base + yajl_get_bytes_consumed (r->yajl));
}

/* The opening quote of the key that ends at @end: inside a string every
 * quote is escaped by an odd run of backslashes. */
static gint64
string_start (Reader *r,
              gint64  end)
{
  if (end < 2 || (gsize)end > r->length)
    return end;
  for (gint64 p = end - 2; p >= 0; p--)
    {
      if (r->data[p] == '"')
        {
          gint64 backslashes = 0;

          while (backslashes < p && r->data[p - 1 - backslashes] == '\\')
            backslashes++;
          if (backslashes % 2 == 0)
            return p;
        }
    }
  return 0;
}

/* Found by scanning back from the key's end, so only when a container
 * opens under the key or a problem names it: not for every value. */
static gint64
key_offset (Reader *r)
{
  if (r->key_offset == KEY_OFFSET_UNKNOWN)
    r->key_offset = string_start (r, r->key_end);
  return r->key_offset;
}

/* Keys are copied into one buffer: most are a scalar's and live only
 * until the next one; a container's is copied into its frame. */
static void
set_key (Reader     *r,
         const char *text,
         gsize       length)
{
  length = MIN (length, MAX_KEY_BYTES);
  memcpy (r->key_buf, text, length);
  r->key_buf[length] = '\0';
  r->key = r->key_buf;
}

/* ------------------------------------------------------------------ */
/* Where a value is */

static guint
depth (Reader *r)
{
  return r->frames->len;
}

static const char *
frame_key (Reader *r,
           guint   level)
{
  return level < r->frames->len ? g_array_index (r->frames, Frame, level).key : NULL;
}

static gboolean
key_is (Reader     *r,
        guint       level,
        const char *name)
{
  return g_strcmp0 (frame_key (r, level), name) == 0;
}

static gboolean
is_cluster (Reader *r)
{
  return r->format == SL_COMM_FORMAT_CLUSTER_OPS || r->format == SL_COMM_FORMAT_CLUSTER_MATRIX;
}

/* The depth of one op record: under step, kind and op, or group, step,
 * op and rank. Frames: 0 is the root, frame n sits under key n. */
static guint
record_level (Reader *r)
{
  return r->format == SL_COMM_FORMAT_CLUSTER_OPS ? 5 : 4;
}

static const char *
step_key (Reader *r)
{
  return frame_key (r, is_cluster (r) ? 2 : 1);
}

static const char *
group_key (Reader *r)
{
  return frame_key (r, is_cluster (r) ? 1 : 2);
}

static gboolean
too_many (Reader *r)
{
  if (r->n_records < MAX_RECORDS)
    {
      r->n_records++;
      return FALSE;
    }
  if (r->n_records++ == MAX_RECORDS)
    report (r->problems, SL_SEVERITY_WARNING, r->path, key_offset (r),
            _("The file holds more records than Sightline keeps; the rest are skipped"));
  return TRUE;
}

static void
open_record (Reader *r)
{
  guint level = depth (r);
  const Frame *frame = &g_array_index (r->frames, Frame, level - 1);
  gboolean ops = r->format == SL_COMM_FORMAT_OPS || r->format == SL_COMM_FORMAT_CLUSTER_OPS;

  if (frame->key == NULL)
    return;

  if (ops && level == record_level (r))
    {
      const char *name = frame_key (r, 3);
      guint64 rank;

      /* The file's own sum of the ops would count everything twice. */
      if (name == NULL || sl_communication_is_total_name (name) || too_many (r))
        return;
      r->op = sl_communication_add_op (r->comm, r->path, step_key (r), group_key (r), name);
      r->op->offset = g_array_index (r->frames, Frame, 3).offset;
      if (r->format == SL_COMM_FORMAT_CLUSTER_OPS &&
          g_ascii_string_to_unsigned (frame->key, 10, 0, G_MAXINT32, &rank, NULL))
        r->op->rank_id = (gint64)rank;
    }
  else if (ops && r->op != NULL && level == record_level (r) + 2 && key_is (r, record_level (r), BANDWIDTH_INFO))
    r->bandwidth = sl_comm_op_add_bandwidth (r->op, frame->key);
  else if (!ops && level == 5 && !too_many (r))
    {
      r->link = sl_communication_add_link (r->comm, r->path, step_key (r), group_key (r), frame_key (r, 3), frame->key);
      r->link->offset = frame->offset;
      r->link->cluster = is_cluster (r);
    }
}

static void
close_record (Reader *r,
              guint   level)
{
  if (level == record_level (r))
    r->op = NULL;
  if (level == record_level (r) + 2)
    r->bandwidth = NULL;
  if (level == 5)
    r->link = NULL;
}

/* A size of "Size Distribution": {"2.064384": [12, 1.578891625]}. */
static gboolean
in_size_array (Reader *r)
{
  guint level = record_level (r);

  return r->bandwidth != NULL && depth (r) == level + 4 && key_is (r, level + 2, SIZES) &&
         g_array_index (r->frames, Frame, depth (r) - 1).array;
}

static void
set_time_info (SlCommOp   *op,
               const char *key,
               double      value)
{
  if (g_str_equal (key, "Start Timestamp(us)"))
    op->start_us = value;
  else if (g_str_equal (key, "Elapse Time(ms)"))
    op->elapse_ms = value;
  else if (g_str_equal (key, "Transit Time(ms)"))
    op->transit_ms = value;
  else if (g_str_equal (key, "Wait Time(ms)"))
    op->wait_ms = value;
  else if (g_str_equal (key, "Synchronization Time(ms)"))
    op->sync_ms = value;
  else if (g_str_equal (key, "Idle Time(ms)"))
    op->idle_ms = value;
}

static gboolean
is_amount_key (const char *key)
{
  static const char *const keys[] = {
    "Start Timestamp(us)", "Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)",
    "Synchronization Time(ms)", "Idle Time(ms)", "Transit Size(MB)", "Bandwidth(GB/s)", "Large Packet Ratio",
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_str_equal (key, keys[i]))
      return TRUE;
  return FALSE;
}

static void
set_amount (double     *size_mb,
            double     *time_ms,
            double     *bandwidth_gbps,
            const char *key,
            double      value)
{
  if (g_str_equal (key, "Transit Size(MB)"))
    *size_mb = value;
  else if (g_str_equal (key, "Transit Time(ms)"))
    *time_ms = value;
  else if (g_str_equal (key, "Bandwidth(GB/s)"))
    *bandwidth_gbps = value;
}

static void
take_text (Reader     *r,
           const char *text,
           gsize       length)
{
  char **field = NULL;

  if (r->link == NULL || depth (r) != 5 || r->key == NULL)
    return;
  if (g_str_equal (r->key, "Transport Type"))
    field = &r->link->transport;
  else if (g_str_equal (r->key, "Op Name"))
    field = &r->link->op_name;
  if (field == NULL)
    return;
  g_free (*field);
  *field = g_strndup (text, MIN (length, MAX_KEY_BYTES));
}

/* Every scalar comes here, numbers and strings alike. */
static void
take_value (Reader     *r,
            const char *text,
            gsize       length,
            gboolean    is_string)
{
  guint level = record_level (r);
  gboolean wanted;
  double value = NAN;

  if (r->skipped > 0)
    return;

  if (in_size_array (r))
    {
      Frame *frame = &g_array_index (r->frames, Frame, depth (r) - 1);

      if (frame->index < 2 && parse_amount (text, length, &value))
        r->packet[frame->index] = value;
      else if (frame->index < 2)
        {
          g_autofree char *shown = g_strndup (text, MIN (length, 64));

          report_value (r, shown);
        }
      frame->index++;
      r->n_packet = frame->index;
      return;
    }

  if (r->key == NULL)
    return;
  if (is_string)
    take_text (r, text, length);

  /* Where the value sits first: that is cheaper than its key's name. */
  wanted = ((r->op != NULL && depth (r) == level + 1 && key_is (r, level, TIME_INFO)) ||
            (r->bandwidth != NULL && depth (r) == level + 2) ||
            (r->link != NULL && depth (r) == 5)) &&
           is_amount_key (r->key);
  if (!wanted)
    return;
  if (!parse_amount (text, length, &value))
    {
      g_autofree char *shown = g_strndup (text, MIN (length, 64));

      report_value (r, shown);
      return;
    }

  if (r->link != NULL)
    set_amount (&r->link->size_mb, &r->link->time_ms, &r->link->bandwidth_gbps, r->key, value);
  else if (r->bandwidth != NULL)
    {
      set_amount (&r->bandwidth->size_mb, &r->bandwidth->time_ms, &r->bandwidth->bandwidth_gbps, r->key, value);
      if (g_str_equal (r->key, "Large Packet Ratio"))
        r->bandwidth->large_packet_ratio = value;
    }
  else
    set_time_info (r->op, r->key, value);
}

/* ------------------------------------------------------------------ */
/* yajl callbacks */

static int
on_null (void *ctx)
{
  return 1;
}

static int
on_boolean (void *ctx,
            int   value)
{
  return 1;
}

static int
on_number (void       *ctx,
           const char *text,
           size_t      length)
{
  take_value (ctx, text, length, FALSE);
  return 1;
}

static int
on_string (void                *ctx,
           const unsigned char *text,
           size_t               length)
{
  take_value (ctx, (const char *)text, length, TRUE);
  return 1;
}

static int
on_map_key (void                *ctx,
            const unsigned char *text,
            size_t               length)
{
  Reader *r = ctx;

  set_key (r, (const char *)text, length);
  r->key_end = token_end (r);
  r->key_offset = KEY_OFFSET_UNKNOWN;
  return 1;
}

static void
push (Reader   *r,
      gboolean  array)
{
  Frame frame = { NULL, -1, array, 0 };
  gboolean in_array = r->frames->len > 0 && g_array_index (r->frames, Frame, r->frames->len - 1).array;

  if (r->skipped > 0 || r->frames->len >= MAX_DEPTH)
    {
      r->skipped++;
      return;
    }
  if (r->frames->len == 0 && array)
    report (r->problems, SL_SEVERITY_ERROR, r->path, token_end (r) - 1,
            _("Expected a JSON object of steps or groups; the file is not read"));
  r->saw_object |= r->frames->len == 0 && !array;
  if (!in_array && r->frames->len > 0)
    {
      frame.key = g_strdup (r->key);
      frame.offset = r->key != NULL ? key_offset (r) : -1;
      r->key = NULL;
    }
  g_array_append_val (r->frames, frame);
}

static int
on_start_map (void *ctx)
{
  Reader *r = ctx;

  push (r, FALSE);
  if (r->skipped == 0 && r->frames->len == 1 && g_array_index (r->frames, Frame, 0).array == FALSE)
    return 1;
  if (r->skipped == 0)
    open_record (r);
  return 1;
}

static int
on_start_array (void *ctx)
{
  Reader *r = ctx;

  push (r, TRUE);
  if (r->skipped > 0)
    return 1;
  if (r->frames->len == 1)
    return 0;   /* reported in push() */
  if (in_size_array (r))
    {
      const char *size = frame_key (r, depth (r) - 1);

      r->n_packet = 0;
      r->packet[0] = r->packet[1] = NAN;
      if (!parse_amount (size, strlen (size), &r->packet_size))
        {
          set_key (r, SIZES, strlen (SIZES));
          r->key_offset = g_array_index (r->frames, Frame, depth (r) - 1).offset;
          report_value (r, size);
          r->packet_size = NAN;
        }
    }
  return 1;
}

static void
close_size_array (Reader *r)
{
  if (isnan (r->packet_size) || r->n_packet < 2 || isnan (r->packet[0]) || isnan (r->packet[1]))
    return;
  sl_comm_bandwidth_add_packets (r->bandwidth, r->packet_size, r->packet[0], r->packet[1]);
}

static int
on_end (void *ctx)
{
  Reader *r = ctx;
  Frame frame;

  if (r->skipped > 0)
    {
      r->skipped--;
      return 1;
    }
  if (r->frames->len == 0)
    return 1;
  if (in_size_array (r))
    close_size_array (r);
  close_record (r, r->frames->len);
  frame = g_array_index (r->frames, Frame, r->frames->len - 1);
  g_free (frame.key);
  g_array_set_size (r->frames, r->frames->len - 1);
  r->key = NULL;
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

static void
report_damage (Reader *r)
{
  g_autofree char *reason = sl_yajl_error_dup_reason (r->yajl, (const unsigned char *)r->data + r->base,
                                                      r->length - r->base);
  g_autofree char *message = NULL;

  /* Translators: the reason is the JSON parser's own (English) text */
  message = g_strdup_printf (_("The JSON is damaged here (%s); what came before is kept"), reason);
  report (r->problems, SL_SEVERITY_ERROR, r->path,
          (gint64)(r->base + sl_yajl_error_offset (r->yajl, reason, (const unsigned char *)r->data + r->base,
                                                   r->length - r->base, -1)),
          message);
}

static gboolean
read_json (Reader *r)
{
  yajl_status status;

  status = yajl_parse (r->yajl, (const unsigned char *)r->data + r->base, r->length - r->base);
  if (status == yajl_status_client_canceled)
    return FALSE;
  if (status != yajl_status_ok)
    {
      report_damage (r);
      return FALSE;
    }
  status = yajl_complete_parse (r->yajl);
  if (status != yajl_status_ok || r->frames->len > 0)
    {
      report (r->problems, SL_SEVERITY_ERROR, r->path, (gint64)r->length,
              _("The file ends before the JSON is complete (cut off?); what came before is kept"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_json_data (SlCommunication *comm,
                const char      *path,
                SlCommFormat     format,
                const char      *data,
                gsize            length,
                GPtrArray       *problems)
{
  Reader r = { 0 };
  guint n_before = sl_communication_get_n_ops (comm) + sl_communication_get_n_links (comm);

  r.comm = comm;
  r.path = sl_communication_add_file (comm, path);
  r.format = format;
  r.data = data;
  r.length = length;
  /* a UTF-8 byte order mark is not JSON, but Windows tools write one */
  r.base = length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
  r.problems = problems;
  r.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  r.yajl = yajl_alloc (&callbacks, NULL, &r);

  if (r.length == r.base)
    report (problems, SL_SEVERITY_WARNING, path, 0, _("The file is empty"));
  else if (read_json (&r) && !r.saw_object)
    report (problems, SL_SEVERITY_ERROR, path, 0, _("Expected a JSON object of steps or groups; the file is not read"));

  if (r.n_bad_values > MAX_VALUE_REPORTS)
    {
      g_autofree char *message = g_strdup_printf (_("%u more values are not numbers and are left unknown"),
                                                  r.n_bad_values - MAX_VALUE_REPORTS);

      report (problems, SL_SEVERITY_WARNING, path, -1, message);
    }

  for (guint i = 0; i < r.frames->len; i++)
    g_free (g_array_index (r.frames, Frame, i).key);
  g_array_unref (r.frames);
  yajl_free (r.yajl);
  return sl_communication_get_n_ops (comm) + sl_communication_get_n_links (comm) > n_before;
}

/* ------------------------------------------------------------------ */
/* MindSpore hccl_raw_<id>.csv */

static gboolean
node_amount (JsonNode *node,
             double   *value)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return parse_amount (json_node_get_string (node), strlen (json_node_get_string (node)), value);
  if (json_node_get_value_type (node) != G_TYPE_INT64 && json_node_get_value_type (node) != G_TYPE_DOUBLE)
    return FALSE;
  *value = json_node_get_double (node);
  return isfinite (*value) && *value >= 0;
}

/* [time ms, size KB, bandwidth] per transport; the bandwidth of a step
 * row is a sum over ops (MindSpore's "total" merge), so it is worked out
 * again from size and time. */
static gboolean
read_link_cost (JsonNode *node,
                double   *time_ms,
                double   *size_mb)
{
  JsonArray *array;
  double size_kb;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  if (json_array_get_length (array) < 2 ||
      !node_amount (json_array_get_element (array, 0), time_ms) ||
      !node_amount (json_array_get_element (array, 1), &size_kb))
    return FALSE;
  *size_mb = size_kb / 1000.0;
  return TRUE;
}

static JsonObject *
parse_cell (SlCsvReader *reader,
            JsonParser  *parser,
            const char  *text,
            const char  *column)
{
  g_autofree char *message = NULL;

  if (text == NULL || text[0] == '\0')
    return NULL;
  if (json_parser_load_from_data (parser, text, -1, NULL) && JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return json_node_get_object (json_parser_get_root (parser));
  /* Translators: %s is a column name */
  message = g_strdup_printf (_("“%s” is not a JSON object; it is skipped"), column);
  sl_csv_reader_report (reader, SL_SEVERITY_WARNING, message);
  return NULL;
}

static void
add_hccl_links (SlCommunication *comm,
                SlCsvReader     *reader,
                const char      *path,
                const char      *step,
                JsonObject      *links,
                SlCommOp        *op,
                guint           *n_bad)
{
  g_autoptr(GList) keys = json_object_get_members (links);

  for (const GList *l = keys; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (links, l->data);
      g_autoptr(GList) transports = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      transports = json_object_get_members (json_node_get_object (node));
      for (const GList *t = transports; t != NULL; t = t->next)
        {
          double time_ms, size_mb;

          if (!read_link_cost (json_object_get_member (json_node_get_object (node), t->data), &time_ms, &size_mb))
            {
              (*n_bad)++;
              continue;
            }
          if (op != NULL)
            {
              SlCommBandwidth *bandwidth = sl_comm_op_add_bandwidth (op, t->data);

              bandwidth->size_mb = (isnan (bandwidth->size_mb) ? 0 : bandwidth->size_mb) + size_mb;
              bandwidth->time_ms = (isnan (bandwidth->time_ms) ? 0 : bandwidth->time_ms) + time_ms;
              bandwidth->bandwidth_gbps = bandwidth->time_ms > 0 ? bandwidth->size_mb / bandwidth->time_ms : NAN;
              /* An op's transfer over one link is one transfer of that size. */
              sl_comm_bandwidth_add_packets (bandwidth, size_mb, 1, time_ms);
            }
          else
            {
              SlCommLink *link = sl_communication_add_link (comm, path, step, "", "", l->data);

              link->transport = g_strdup (t->data);
              link->size_mb = size_mb;
              link->time_ms = time_ms;
              link->bandwidth_gbps = time_ms > 0 ? size_mb / time_ms : NAN;
              link->line = sl_csv_reader_get_row_line (reader);
            }
        }
    }
}

/* {"stream_27_1_AllReduce-op17643": ["1", cost, wait, {links}]} */
static void
add_hccl_ops (SlCommunication *comm,
              SlCsvReader     *reader,
              const char      *path,
              const char      *step,
              JsonObject      *ops,
              guint           *n_bad)
{
  g_autoptr(GList) names = json_object_get_members (ops);

  for (const GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (ops, l->data);
      JsonArray *array;
      JsonNode *links;
      SlCommOp *op;
      double value;

      if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (array = json_node_get_array (node)) < 4)
        {
          (*n_bad)++;
          continue;
        }
      op = sl_communication_add_op (comm, path, step, "", l->data);
      op->line = sl_csv_reader_get_row_line (reader);
      if (node_amount (json_array_get_element (array, 1), &value))
        op->elapse_ms = value;
      if (node_amount (json_array_get_element (array, 2), &value))
        op->wait_ms = value;
      links = json_array_get_element (array, 3);
      if (JSON_NODE_HOLDS_OBJECT (links))
        add_hccl_links (comm, reader, path, step, json_node_get_object (links), op, n_bad);
    }
}

static gboolean
read_hccl_raw (SlCommunication *comm,
               const char      *path,
               SlCsvReader     *reader,
               GPtrArray       *problems)
{
  guint n_before = sl_communication_get_n_ops (comm) + sl_communication_get_n_links (comm);
  int c_step, c_links, c_ops;
  guint n_bad = 0;

  path = sl_communication_add_file (comm, path);
  if (!sl_csv_reader_read_header (reader))
    {
      report (problems, SL_SEVERITY_WARNING, path, 0, _("The file is empty"));
      return FALSE;
    }
  c_step = sl_csv_reader_find_column (reader, "step_num");
  c_links = sl_csv_reader_find_column (reader, "link_info");
  c_ops = sl_csv_reader_find_column (reader, "communication_operator_cost");
  if (c_step == SL_CSV_NO_COLUMN || (c_links == SL_CSV_NO_COLUMN && c_ops == SL_CSV_NO_COLUMN))
    {
      report (problems, SL_SEVERITY_ERROR, path, 0,
              _("The header has no “step_num” and “link_info” columns; the file is not read"));
      return FALSE;
    }

  while (sl_csv_reader_next_row (reader) && sl_communication_get_n_links (comm) < MAX_RECORDS)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *step_text = sl_csv_reader_get_field (reader, c_step);
      g_autofree char *step = g_strstrip (g_strdup (step_text != NULL ? step_text : ""));
      JsonObject *object;
      gint64 number;

      /* The last row, "-", holds averages of the others. */
      if (!sl_csv_parse_int64 (step, &number))
        continue;
      if ((object = parse_cell (reader, parser, sl_csv_reader_get_field (reader, c_links), "link_info")) != NULL)
        add_hccl_links (comm, reader, path, step, object, NULL, &n_bad);
      if ((object = parse_cell (reader, parser, sl_csv_reader_get_field (reader, c_ops), "communication_operator_cost")) != NULL)
        add_hccl_ops (comm, reader, path, step, object, &n_bad);
    }

  for (guint i = 0; i < sl_csv_reader_get_problems (reader)->len; i++)
    g_ptr_array_add (problems, g_object_ref (g_ptr_array_index (sl_csv_reader_get_problems (reader), i)));
  if (n_bad > 0)
    {
      g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "%u link or op entry is not [time, size, bandwidth]; it is skipped",
                                                               "%u link or op entries are not [time, size, bandwidth]; they are skipped",
                                                               n_bad), n_bad);

      report (problems, SL_SEVERITY_WARNING, path, -1, message);
    }
  return sl_communication_get_n_ops (comm) + sl_communication_get_n_links (comm) > n_before;
}

/* ------------------------------------------------------------------ */

SlCommFormat
sl_communication_format_for_path (const char *path)
{
  g_autofree char *base = NULL;

  g_return_val_if_fail (path != NULL, SL_COMM_FORMAT_NONE);

  base = g_path_get_basename (path);
  if (g_str_equal (base, "communication.json"))
    return SL_COMM_FORMAT_OPS;
  if (g_str_equal (base, "communication_matrix.json"))
    return SL_COMM_FORMAT_MATRIX;
  if (g_str_equal (base, "cluster_communication.json"))
    return SL_COMM_FORMAT_CLUSTER_OPS;
  if (g_str_equal (base, "cluster_communication_matrix.json"))
    return SL_COMM_FORMAT_CLUSTER_MATRIX;
  if (g_str_has_prefix (base, "hccl_raw_") && g_str_has_suffix (base, ".csv"))
    return SL_COMM_FORMAT_HCCL_RAW;
  return SL_COMM_FORMAT_NONE;
}

gboolean
sl_communication_read_data (SlCommunication *comm,
                            const char      *path,
                            SlCommFormat     format,
                            const char      *data,
                            gsize            length,
                            GPtrArray       *problems)
{
  g_return_val_if_fail (SL_IS_COMMUNICATION (comm), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (problems != NULL, FALSE);

  if (format == SL_COMM_FORMAT_HCCL_RAW)
    {
      g_autoptr(SlCsvReader) reader = sl_csv_reader_new_for_data (path, data, length);

      return read_hccl_raw (comm, path, reader, problems);
    }
  if (format == SL_COMM_FORMAT_NONE)
    return FALSE;
  return read_json_data (comm, path, format, data, length, problems);
}

gboolean
sl_communication_read_file (SlCommunication *comm,
                            const char      *path,
                            GCancellable    *cancellable,
                            GPtrArray       *problems)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (SL_IS_COMMUNICATION (comm), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (problems != NULL, FALSE);

  if (!sl_input_file_check (path, &error))
    {
      report (problems, SL_SEVERITY_ERROR, path, -1, error->message);
      return FALSE;
    }
  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, cancellable, &error);
  if (info != NULL && g_file_info_get_size (info) > SL_COMMUNICATION_READER_MAX_SIZE)
    {
      report (problems, SL_SEVERITY_WARNING, path, -1, _("The file is too large for a communication file; it is not read"));
      return FALSE;
    }
  if (info == NULL || !g_file_load_contents (file, cancellable, &contents, &length, NULL, &error))
    {
      report (problems, SL_SEVERITY_ERROR, path, -1, error->message);
      return FALSE;
    }
  return sl_communication_read_data (comm, path, sl_communication_format_for_path (path), contents, length, problems);
}
