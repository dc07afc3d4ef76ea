/* sl-chrome-trace-writer.c: a time range of a trace as Chrome trace JSON or CSV
 *
 * Original event text is copied in increasing file offset order through
 * one SlTraceTextReader, so a gzip source is inflated once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-chrome-trace-writer.h"
#include "sl-csv-export.h"

#define FLUSH_SIZE (256 * 1024)

typedef struct {
  GOutputStream *out;
  GString       *buffer;
  guint64        n_events;
  gboolean       first;
} Writer;

typedef struct {
  guint    track;
  guint32  slice;
  guint64  offset;
} Selected;

typedef struct {
  guint    process;
  guint32  name_id;
  gint64   ts_ns;
  guint32  series_id;
  double   value;
} CounterPoint;

static void
append_us_unsigned (GString *out,
                    guint64  magnitude)
{
  g_string_append_printf (out, "%llu", (unsigned long long) (magnitude / 1000));
  if (magnitude % 1000 != 0)
    {
      char frac[8];
      int len;

      g_snprintf (frac, sizeof frac, "%03u", (guint) (magnitude % 1000));
      len = strlen (frac);
      while (len > 0 && frac[len - 1] == '0')
        frac[--len] = '\0';
      g_string_append_printf (out, ".%s", frac);
    }
}

void
sl_trace_append_us (GString *out,
                    gint64   ns)
{
  if (ns < 0)
    {
      g_string_append_c (out, '-');
      append_us_unsigned (out, (guint64) 0 - (guint64) ns);
    }
  else
    append_us_unsigned (out, ns);
}

static gboolean
writer_flush (Writer   *w,
              gboolean  force,
              GError  **error)
{
  if (w->buffer->len == 0 || (!force && w->buffer->len < FLUSH_SIZE))
    return TRUE;
  if (!g_output_stream_write_all (w->out, w->buffer->str, w->buffer->len, NULL, NULL, error))
    return FALSE;
  g_string_truncate (w->buffer, 0);
  return TRUE;
}

static void
append_json_string (GString    *out,
                    const char *str)
{
  g_string_append_c (out, '"');
  for (const char *p = str; *p; p++)
    {
      guchar c = *p;

      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, c);
        }
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, c);
    }
  g_string_append_c (out, '"');
}

/* pids and tids that were numbers go back as numbers */
static void
append_id_text (GString    *out,
                const char *text)
{
  gboolean numeric = text != NULL && *text != '\0';

  for (const char *p = text; numeric && *p; p++)
    if (!g_ascii_isdigit (*p) && !(p == text && *p == '-' && p[1] != '\0'))
      numeric = FALSE;
  if (numeric && strlen (text) < 16)
    g_string_append (out, text);
  else
    append_json_string (out, text != NULL ? text : "");
}

static void
begin_event (Writer *w)
{
  g_string_append (w->buffer, w->first ? "\n" : ",\n");
  w->first = FALSE;
  w->n_events++;
}

static void
append_common (Writer     *w,
               SlTrace    *trace,
               guint       track,
               const char *phase,
               guint32     name_id,
               guint32     category_id,
               gint64      ts_ns)
{
  guint process = sl_trace_get_track_process (trace, track);
  const char *tid = sl_trace_get_track_tid (trace, track);

  g_string_append (w->buffer, "{\"ph\":\"");
  g_string_append (w->buffer, phase);
  g_string_append (w->buffer, "\",\"name\":");
  append_json_string (w->buffer, sl_trace_get_string (trace, name_id));
  if (category_id != 0)
    {
      g_string_append (w->buffer, ",\"cat\":");
      append_json_string (w->buffer, sl_trace_get_string (trace, category_id));
    }
  g_string_append (w->buffer, ",\"pid\":");
  append_id_text (w->buffer, sl_trace_get_process_pid (trace, process));
  if (tid != NULL)
    {
      g_string_append (w->buffer, ",\"tid\":");
      append_id_text (w->buffer, tid);
    }
  g_string_append (w->buffer, ",\"ts\":");
  sl_trace_append_us (w->buffer, ts_ns);
}

/* The "args" member of an event's source text, when there is one. */
static void
append_args_from (Writer            *w,
                  SlTraceTextReader *reader,
                  guint64            offset,
                  guint32            length)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *text = NULL;
  g_autofree char *args = NULL;
  JsonNode *root, *node;

  if (offset == SL_TRACE_NO_ARGS || reader == NULL)
    return;
  if (!(text = sl_trace_text_reader_read (reader, offset, length, NULL)))
    return;
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, -1, NULL))
    return;
  root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      (node = json_object_get_member (json_node_get_object (root), "args")) == NULL)
    return;
  generator = json_generator_new ();
  json_generator_set_root (generator, node);
  args = json_generator_to_data (generator, NULL);
  g_string_append (w->buffer, ",\"args\":");
  g_string_append (w->buffer, args);
}

static gboolean
track_selected (const guint *tracks,
                guint        n_tracks,
                guint        track)
{
  if (tracks == NULL)
    return TRUE;
  for (guint i = 0; i < n_tracks; i++)
    if (tracks[i] == track)
      return TRUE;
  return FALSE;
}

static int
compare_selected (gconstpointer a,
                  gconstpointer b)
{
  const Selected *sa = a, *sb = b;

  return sa->offset < sb->offset ? -1 : sa->offset > sb->offset;
}

static int
compare_counter_points (gconstpointer a,
                        gconstpointer b)
{
  const CounterPoint *pa = a, *pb = b;

  if (pa->process != pb->process)
    return pa->process < pb->process ? -1 : 1;
  if (pa->name_id != pb->name_id)
    return pa->name_id < pb->name_id ? -1 : 1;
  if (pa->ts_ns != pb->ts_ns)
    return pa->ts_ns < pb->ts_ns ? -1 : 1;
  return pa->series_id < pb->series_id ? -1 : pa->series_id > pb->series_id;
}

static inline gboolean
overlaps (gint64 start,
          gint64 dur,
          gint64 from_ns,
          gint64 to_ns)
{
  return start <= to_ns && start + dur >= from_ns;
}

static gboolean
write_metadata (Writer             *w,
                SlTrace            *trace,
                SlTraceTextReader  *reader,
                GError            **error)
{
  guint n = sl_trace_get_n_metadata_events (trace);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = NULL;
      guint64 offset;
      guint32 length;

      sl_trace_get_metadata_event (trace, i, &offset, &length);
      if (!(text = sl_trace_text_reader_read (reader, offset, length, error)))
        return FALSE;
      begin_event (w);
      g_string_append (w->buffer, text);
      if (!writer_flush (w, FALSE, error))
        return FALSE;
    }

  if (n > 0)
    return TRUE;

  /* No source text (another importer): write what the model knows. */
  for (guint p = 0; p < sl_trace_get_n_processes (trace); p++)
    {
      const char *name = sl_trace_get_process_name (trace, p);

      if (name == NULL)
        continue;
      begin_event (w);
      g_string_append (w->buffer, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":");
      append_id_text (w->buffer, sl_trace_get_process_pid (trace, p));
      g_string_append (w->buffer, ",\"args\":{\"name\":");
      append_json_string (w->buffer, name);
      g_string_append (w->buffer, "}}");
    }
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const char *name = sl_trace_get_track_name (trace, t);

      /* an unnamed thread is named by its tid: nothing to say */
      if (sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_THREAD ||
          g_strcmp0 (name, sl_trace_get_track_tid (trace, t)) == 0)
        continue;
      begin_event (w);
      g_string_append (w->buffer, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":");
      append_id_text (w->buffer, sl_trace_get_process_pid (trace, sl_trace_get_track_process (trace, t)));
      g_string_append (w->buffer, ",\"tid\":");
      append_id_text (w->buffer, sl_trace_get_track_tid (trace, t));
      g_string_append (w->buffer, ",\"args\":{\"name\":");
      append_json_string (w->buffer, name);
      g_string_append (w->buffer, "}}");
    }
  return TRUE;
}

static void
write_synthesized_slice (Writer            *w,
                         SlTrace           *trace,
                         SlTraceTextReader *reader,
                         guint              track,
                         guint32            i,
                         guint64           *async_id)
{
  const SlTraceSlices *s = sl_trace_get_slices (trace, track);
  gboolean instant = (sl_trace_slices_flags (s, i) & SL_TRACE_SLICE_INSTANT) != 0;

  if (sl_trace_get_track_kind (trace, track) == SL_TRACE_TRACK_THREAD)
    {
      begin_event (w);
      append_common (w, trace, track, instant ? "i" : "X", sl_trace_slices_name_id (s, i), sl_trace_slices_category_id (s, i), sl_trace_slices_start_ns (s, i));
      if (!instant)
        {
          g_string_append (w->buffer, ",\"dur\":");
          sl_trace_append_us (w->buffer, sl_trace_slices_dur_ns (s, i));
        }
      append_args_from (w, reader, sl_trace_slices_args_offset (s, i), sl_trace_slices_args_length (s, i));
      g_string_append_c (w->buffer, '}');
      return;
    }

  /* async: a b/e pair (or an n) with an id of its own */
  (*async_id)++;
  begin_event (w);
  append_common (w, trace, track, instant ? "n" : "b", sl_trace_slices_name_id (s, i), sl_trace_slices_category_id (s, i), sl_trace_slices_start_ns (s, i));
  g_string_append_printf (w->buffer, ",\"id\":\"0x%llx\"", (unsigned long long) *async_id);
  append_args_from (w, reader, sl_trace_slices_args_offset (s, i), sl_trace_slices_args_length (s, i));
  g_string_append_c (w->buffer, '}');
  if (instant)
    return;
  begin_event (w);
  append_common (w, trace, track, "e", sl_trace_slices_name_id (s, i), sl_trace_slices_category_id (s, i), sl_trace_slices_start_ns (s, i) + sl_trace_slices_dur_ns (s, i));
  g_string_append_printf (w->buffer, ",\"id\":\"0x%llx\"}", (unsigned long long) *async_id);
}

static void
write_counters (Writer      *w,
                SlTrace     *trace,
                gint64       from_ns,
                gint64       to_ns,
                const guint *tracks,
                guint        n_tracks)
{
  g_autoptr(GArray) points = g_array_new (FALSE, FALSE, sizeof (CounterPoint));

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceCounter *c;
      CounterPoint point;

      if (sl_trace_get_track_kind (trace, t) != SL_TRACE_TRACK_COUNTER || !track_selected (tracks, n_tracks, t))
        continue;
      c = sl_trace_get_counter (trace, t);
      point.process = sl_trace_get_track_process (trace, t);
      sl_trace_get_track_ids (trace, t, &point.name_id, NULL, &point.series_id);
      for (guint i = 0; i < c->n_points; i++)
        {
          if (c->ts_ns[i] < from_ns || c->ts_ns[i] > to_ns)
            continue;
          point.ts_ns = c->ts_ns[i];
          point.value = c->value[i];
          g_array_append_val (points, point);
        }
    }
  g_array_sort (points, compare_counter_points);

  /* series of one (process, name, time) go back into one C event */
  for (guint i = 0; i < points->len;)
    {
      CounterPoint *first = &g_array_index (points, CounterPoint, i);
      guint j;

      begin_event (w);
      g_string_append (w->buffer, "{\"ph\":\"C\",\"name\":");
      append_json_string (w->buffer, sl_trace_get_string (trace, first->name_id));
      g_string_append (w->buffer, ",\"pid\":");
      append_id_text (w->buffer, sl_trace_get_process_pid (trace, first->process));
      g_string_append (w->buffer, ",\"ts\":");
      sl_trace_append_us (w->buffer, first->ts_ns);
      g_string_append (w->buffer, ",\"args\":{");
      for (j = i; j < points->len; j++)
        {
          CounterPoint *p = &g_array_index (points, CounterPoint, j);
          char number[G_ASCII_DTOSTR_BUF_SIZE];

          if (p->process != first->process || p->name_id != first->name_id || p->ts_ns != first->ts_ns)
            break;
          if (j > i)
            g_string_append_c (w->buffer, ',');
          append_json_string (w->buffer, sl_trace_get_string (trace, p->series_id));
          g_string_append_c (w->buffer, ':');
          if (p->value != p->value || p->value - p->value != 0)
            g_string_append (w->buffer, "0");  /* JSON has no NaN or infinity */
          else
            g_string_append (w->buffer, g_ascii_dtostr (number, sizeof number, p->value));
        }
      g_string_append (w->buffer, "}}");
      i = j;
    }
}

static void
append_flow_id (GString *out,
                guint64  id)
{
  /* above 2^53 as text, so JavaScript readers keep it exact */
  if (id > (G_GUINT64_CONSTANT (1) << 53))
    g_string_append_printf (out, ",\"id\":\"%llu\"", (unsigned long long) id);
  else
    g_string_append_printf (out, ",\"id\":%llu", (unsigned long long) id);
}

static gboolean
flow_selected (SlTrace           *trace,
               const SlTraceFlow *flow,
               gint64             from_ns,
               gint64             to_ns,
               const guint       *tracks,
               guint              n_tracks)
{
  return flow->from_ns >= from_ns && flow->from_ns <= to_ns &&
         flow->to_ns >= from_ns && flow->to_ns <= to_ns &&
         track_selected (tracks, n_tracks, flow->from_track) &&
         track_selected (tracks, n_tracks, flow->to_track);
}

/* Whether @next goes on from where @flow ends (an s → t → f chain). */
static gboolean
flow_continues (const SlTraceFlow *flow,
                const SlTraceFlow *next)
{
  return next->id == flow->id && next->category_id == flow->category_id &&
         next->from_track == flow->to_track && next->from_ns == flow->to_ns;
}

/* Arrows go back as s … t … f chains, so one id keeps its steps. */
static void
write_flows (Writer      *w,
             SlTrace     *trace,
             gint64       from_ns,
             gint64       to_ns,
             const guint *tracks,
             guint        n_tracks)
{
  const SlTraceFlow *previous = NULL;
  guint n = sl_trace_get_n_flows (trace);

  for (guint i = 0; i < n; i++)
    {
      const SlTraceFlow *flow = sl_trace_get_flow (trace, i);
      const SlTraceFlow *next = i + 1 < n ? sl_trace_get_flow (trace, i + 1) : NULL;
      gboolean goes_on;

      if (!flow_selected (trace, flow, from_ns, to_ns, tracks, n_tracks))
        {
          previous = NULL;
          continue;
        }

      if (previous == NULL || !flow_continues (previous, flow))
        {
          begin_event (w);
          append_common (w, trace, flow->from_track, "s", flow->name_id, flow->category_id, flow->from_ns);
          append_flow_id (w->buffer, flow->id);
          g_string_append_c (w->buffer, '}');
        }

      goes_on = next != NULL && flow_continues (flow, next) &&
                flow_selected (trace, next, from_ns, to_ns, tracks, n_tracks);
      begin_event (w);
      append_common (w, trace, flow->to_track, goes_on ? "t" : "f", flow->name_id, flow->category_id, flow->to_ns);
      append_flow_id (w->buffer, flow->id);
      if (flow->to_enclosing)
        g_string_append (w->buffer, ",\"bp\":\"e\"");
      g_string_append_c (w->buffer, '}');
      previous = flow;
    }
}

gboolean
sl_chrome_trace_write_range (SlTrace        *trace,
                             gint64          from_ns,
                             gint64          to_ns,
                             const guint    *tracks,
                             guint           n_tracks,
                             GOutputStream  *out,
                             guint64        *n_events,
                             GCancellable   *cancellable,
                             GError        **error)
{
  g_autoptr(SlTraceTextReader) reader = NULL;
  g_autoptr(GArray) copied = g_array_new (FALSE, FALSE, sizeof (Selected));
  g_autoptr(GArray) synthesized = g_array_new (FALSE, FALSE, sizeof (Selected));
  Writer w = { out, g_string_sized_new (FLUSH_SIZE + 4096), 0, TRUE };
  guint64 async_id = 0;
  gboolean ok = FALSE;

  g_return_val_if_fail (SL_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s;

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || !track_selected (tracks, n_tracks, t))
        continue;
      s = sl_trace_get_slices (trace, t);
      for (guint i = 0; i < s->n_slices && sl_trace_slices_start_ns (s, i) <= to_ns; i++)
        {
          Selected sel = { t, i, sl_trace_slices_args_offset (s, i) };

          if (!overlaps (sl_trace_slices_start_ns (s, i), sl_trace_slices_dur_ns (s, i), from_ns, to_ns))
            continue;
          if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_THREAD &&
              sl_trace_slices_args_offset (s, i) != SL_TRACE_NO_ARGS &&
              !(sl_trace_slices_flags (s, i) & (SL_TRACE_SLICE_BEGIN_END | SL_TRACE_SLICE_UNFINISHED)))
            g_array_append_val (copied, sel);
          else
            g_array_append_val (synthesized, sel);
        }
    }
  g_array_sort (copied, compare_selected);
  g_array_sort (synthesized, compare_selected);

  reader = sl_trace_text_reader_new (trace);
  g_string_append (w.buffer, "{\"traceEvents\":[");

  if (!write_metadata (&w, trace, reader, error))
    goto out;

  for (guint i = 0; i < copied->len; i++)
    {
      Selected *sel = &g_array_index (copied, Selected, i);
      const SlTraceSlices *s = sl_trace_get_slices (trace, sel->track);
      g_autofree char *text = NULL;

      if ((i & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (!(text = sl_trace_text_reader_read (reader, sl_trace_slices_args_offset (s, sel->slice), sl_trace_slices_args_length (s, sel->slice), error)))
        goto out;
      begin_event (&w);
      g_string_append (w.buffer, text);
      if (!writer_flush (&w, FALSE, error))
        goto out;
    }

  for (guint i = 0; i < synthesized->len; i++)
    {
      Selected *sel = &g_array_index (synthesized, Selected, i);

      if ((i & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      write_synthesized_slice (&w, trace, reader, sel->track, sel->slice, &async_id);
      if (!writer_flush (&w, FALSE, error))
        goto out;
    }

  write_counters (&w, trace, from_ns, to_ns, tracks, n_tracks);
  write_flows (&w, trace, from_ns, to_ns, tracks, n_tracks);
  g_string_append (w.buffer, "\n],\"displayTimeUnit\":\"ms\"}\n");
  if (!writer_flush (&w, TRUE, error))
    goto out;

  if (n_events != NULL)
    *n_events = w.n_events;
  ok = TRUE;

out:
  g_string_free (w.buffer, TRUE);
  return ok;
}

gboolean
sl_trace_write_slices_csv (SlTrace        *trace,
                           gint64          from_ns,
                           gint64          to_ns,
                           const guint    *tracks,
                           guint           n_tracks,
                           GOutputStream  *out,
                           guint64        *n_rows,
                           GCancellable   *cancellable,
                           GError        **error)
{
  Writer w = { out, g_string_sized_new (FLUSH_SIZE + 4096), 0, TRUE };
  gint64 origin = sl_trace_get_start_ns (trace);
  gboolean ok = FALSE;

  g_return_val_if_fail (SL_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  g_string_append (w.buffer, "track,process,thread,name,category,start_us,dur_us,self_us,depth,flags\n");
  for (guint t = 0; t < sl_trace_get_n_tracks (trace); t++)
    {
      const SlTraceSlices *s;
      guint process;
      const char *track_name;

      if (sl_trace_get_track_kind (trace, t) == SL_TRACE_TRACK_COUNTER || !track_selected (tracks, n_tracks, t))
        continue;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      s = sl_trace_get_slices (trace, t);
      process = sl_trace_get_track_process (trace, t);
      track_name = sl_trace_get_track_name (trace, t);
      for (guint i = 0; i < s->n_slices && sl_trace_slices_start_ns (s, i) <= to_ns; i++)
        {
          if (!overlaps (sl_trace_slices_start_ns (s, i), sl_trace_slices_dur_ns (s, i), from_ns, to_ns))
            continue;
          g_string_append_printf (w.buffer, "%u,", t);
          sl_csv_append_field (w.buffer, sl_trace_get_process_name (trace, process) != NULL
                                      ? sl_trace_get_process_name (trace, process)
                                      : sl_trace_get_process_pid (trace, process));
          g_string_append_c (w.buffer, ',');
          sl_csv_append_field (w.buffer, track_name);
          g_string_append_c (w.buffer, ',');
          sl_csv_append_field (w.buffer, sl_trace_get_string (trace, sl_trace_slices_name_id (s, i)));
          g_string_append_c (w.buffer, ',');
          sl_csv_append_field (w.buffer, sl_trace_get_string (trace, sl_trace_slices_category_id (s, i)));
          g_string_append_c (w.buffer, ',');
          /* the start is never before the origin; the difference may
           * not fit a signed 64-bit number in a hostile file */
          append_us_unsigned (w.buffer, (guint64) sl_trace_slices_start_ns (s, i) - (guint64) origin);
          g_string_append_c (w.buffer, ',');
          sl_trace_append_us (w.buffer, sl_trace_slices_dur_ns (s, i));
          g_string_append_c (w.buffer, ',');
          sl_trace_append_us (w.buffer, sl_trace_slices_self_ns (s, i));
          g_string_append_printf (w.buffer, ",%u,%u\n", sl_trace_slices_depth (s, i), sl_trace_slices_flags (s, i));
          w.n_events++;
          if (!writer_flush (&w, FALSE, error))
            goto out;
        }
    }
  if (!writer_flush (&w, TRUE, error))
    goto out;
  if (n_rows != NULL)
    *n_rows = w.n_events;
  ok = TRUE;

out:
  g_string_free (w.buffer, TRUE);
  return ok;
}
