/* sl-profile-loader.c
 *
 * Files are classified by name, grouped into ranks by the folder that
 * holds them (the *_ascend_pt/_ascend_ms folder, the PROF_ folder, or the
 * MindSpore profiler folder plus the device id in the file name), then
 * read in a fixed order per rank: info, steps, op types, op instances,
 * framework details, summaries, counters, the SQLite export.
 *
 * Units: MindSpore step trace points are system-counter ticks of 10 ns;
 * MindSpore op tables are in ms; msprof and torch_npu CSVs in µs (parsed
 * as exact decimals, since epoch µs with a fraction do not fit a double).
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

#include "sl-communication-reader.h"
#include "sl-csv-reader.h"
#include "sl-memory-reader.h"
#include "sl-profile-db.h"
#include "sl-profile-discovery.h"
#include "sl-profile-loader.h"
#include "sl-profiler-layout.h"

#define MAX_INFO_ENTRIES  400
#define MAX_JSON_BYTES    (64 * 1024 * 1024)
#define CANCEL_MASK       0xfff
#define MS_TICK_NS        10

typedef struct {
  SlProfile    *profile;
  GCancellable *cancellable;
  GHashTable   *ranks;     /* group key → SlProfileRank */
  GHashTable   *cluster_ranks;   /* "id|dir" → SlProfileRank of the cluster layout */
  guint         n_indexed;       /* the profile's ranks looked at for cluster_ranks */
} Loader;

/* ------------------------------------------------------------------ */
/* Problems */

static void
report (Loader     *loader,
        SlSeverity  severity,
        const char *path,
        gint64      offset,
        const char *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (severity, _("Profile reader"), path, offset, message);

  sl_profile_add_problem (loader->profile, problem);
}

static void
take_csv_problems (Loader      *loader,
                   SlCsvReader *reader)
{
  GPtrArray *problems = sl_csv_reader_get_problems (reader);

  for (guint i = 0; i < problems->len; i++)
    sl_profile_add_problem (loader->profile, g_ptr_array_index (problems, i));
}

static SlCsvReader *
open_csv (Loader     *loader,
          const char *path)
{
  g_autoptr(GError) error = NULL;
  SlCsvReader *reader = sl_csv_reader_new_for_path (path, &error);

  if (reader == NULL)
    {
      report (loader, SL_SEVERITY_ERROR, path, -1, error->message);
      return NULL;
    }
  if (!sl_csv_reader_read_header (reader))
    {
      take_csv_problems (loader, reader);
      report (loader, SL_SEVERITY_WARNING, path, 0, _("The file is empty"));
      sl_csv_reader_free (reader);
      return NULL;
    }
  return reader;
}

static gboolean
require_columns (Loader      *loader,
                 SlCsvReader *reader,
                 const char  *names,
                 int          column)
{
  g_autofree char *message = NULL;

  if (column != SL_CSV_NO_COLUMN)
    return TRUE;

  /* Translators: %s is a column name (with alternatives separated by |) */
  message = g_strdup_printf (_("The header has no column “%s”; the file is not read"), names);
  report (loader, SL_SEVERITY_ERROR, sl_csv_reader_get_path (reader), 0, message);
  return FALSE;
}

static gboolean
row_cancelled (Loader      *loader,
               SlCsvReader *reader)
{
  return (sl_csv_reader_get_n_rows (reader) & CANCEL_MASK) == 0 &&
         g_cancellable_is_cancelled (loader->cancellable);
}

static void
report_bad_value (SlCsvReader *reader,
                  int          column,
                  const char  *name)
{
  g_autofree char *message = NULL;

  /* Translators: %s is a column name */
  if (sl_csv_reader_is_refused (reader, column))
    message = g_strdup_printf (_("Line %u: “%s” is out of range; the row is skipped"),
                               sl_csv_reader_get_row_line (reader), name);
  else
    message = g_strdup_printf (_("Line %u: “%s” is not a number; the row is skipped"),
                               sl_csv_reader_get_row_line (reader), name);
  sl_csv_reader_report (reader, SL_SEVERITY_WARNING, message);
}

/* ------------------------------------------------------------------ */
/* Small parsers */

/* The cell's value or @fallback; a value out of range is reported. */
static gint64
scaled_or (SlCsvReader *reader,
           int          column,
           guint        scale,
           gint64       fallback)
{
  gint64 value;

  return sl_csv_reader_get_scaled (reader, column, scale, &value) ? value : fallback;
}

static gint64
int_or (SlCsvReader *reader,
        int          column,
        gint64       fallback)
{
  gint64 value;

  return sl_csv_reader_get_int64 (reader, column, &value) ? value : fallback;
}

static gint64
text_int_or (const char *text,
             gint64      fallback)
{
  gint64 value;

  return sl_csv_parse_int64 (text, &value) ? value : fallback;
}

/* kernel_details writes shapes as "\"32,3,224,224\"": drop the quotes. */
static char *
clean_text (const char *text)
{
  gsize len;

  if (text == NULL)
    return NULL;
  while (*text == ' ' || *text == '"')
    text++;
  len = strlen (text);
  while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '"' || text[len - 1] == '\t'))
    len--;
  if (len == 3 && strncmp (text, "N/A", 3) == 0)
    return NULL;
  return g_strndup (text, len);
}

/* "Default/net/fc3-Dense/MatMul-op9" → "MatMul" */
static char *
type_from_name (const char *name)
{
  const char *base = strrchr (name, '/');
  const char *op;

  base = base != NULL ? base + 1 : name;
  op = strstr (base, "-op");
  return op != NULL ? g_strndup (base, op - base) : g_strdup (base);
}

/* ------------------------------------------------------------------ */
/* Info files */

static void
flatten_json (SlProfileRank *rank,
              const char    *prefix,
              JsonNode      *node,
              guint          depth)
{
  if (g_hash_table_size (rank->info) >= MAX_INFO_ENTRIES || depth > 4)
    return;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      for (const GList *l = members; l != NULL; l = l->next)
        {
          g_autofree char *key = prefix[0] != '\0' ? g_strdup_printf ("%s.%s", prefix, (char *)l->data)
                                                   : g_strdup (l->data);

          flatten_json (rank, key, json_object_get_member (object, l->data), depth + 1);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array) && i < 64; i++)
        {
          g_autofree char *key = g_strdup_printf ("%s.%u", prefix, i);

          flatten_json (rank, key, json_array_get_element (array, i), depth + 1);
        }
    }
  else if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);
      g_autofree char *text = NULL;

      if (type == G_TYPE_STRING)
        text = g_strdup (json_node_get_string (node));
      else if (type == G_TYPE_INT64)
        text = g_strdup_printf ("%lld", (long long)json_node_get_int (node));
      else if (type == G_TYPE_DOUBLE)
        text = g_strdup_printf ("%.17g", json_node_get_double (node));
      else if (type == G_TYPE_BOOLEAN)
        text = g_strdup (json_node_get_boolean (node) ? "true" : "false");
      if (text != NULL)
        sl_profile_rank_set_info (rank, prefix, text);
    }
}

static JsonNode *
load_json (Loader     *loader,
           const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  if (!sl_input_file_get_contents (path, &contents, &length, &error))
    {
      report (loader, SL_SEVERITY_ERROR, path, -1, error->message);
      return NULL;
    }
  if (length > MAX_JSON_BYTES)
    {
      report (loader, SL_SEVERITY_WARNING, path, -1, _("The file is too large for a summary file; it is not read"));
      return NULL;
    }
  if (!json_parser_load_from_data (parser, contents, length, &error))
    {
      report (loader, SL_SEVERITY_ERROR, path, -1, error->message);
      return NULL;
    }
  return json_node_copy (json_parser_get_root (parser));
}

static gint64
info_int (SlProfileRank *rank,
          const char    *key)
{
  const char *text = g_hash_table_lookup (rank->info, key);

  return text != NULL ? text_int_or (text, -1) : -1;
}

static void
read_info (Loader        *loader,
           SlProfileRank *rank,
           const SlProfileFile   *found)
{
  g_autoptr(JsonNode) root = load_json (loader, found->path);
  g_autofree char *name = g_path_get_basename (found->path);
  const SlProfilerEntry *entry;
  gint64 id, name_id;

  if (root == NULL)
    return;

  flatten_json (rank, "", root, 0);

  if ((id = info_int (rank, "rank_id")) >= 0)
    rank->rank_id = id;
  entry = sl_profiler_layout_lookup_file (name, &name_id);
  if (entry != NULL && entry->layout == SL_PROFILE_LAYOUT_MSPROF)
    {
      /* msprof's info.json.N */
      if ((id = info_int (rank, "DeviceInfo.0.id")) >= 0)
        rank->device_id = id;
    }
  else if (rank->rank_id < 0 && entry != NULL && entry->rank == SL_PROFILER_RANK_NAME && name_id >= 0)
    rank->rank_id = name_id;
}

/* ------------------------------------------------------------------ */
/* Step tables */

static void
init_step (SlStep *step)
{
  step->step = -1;
  step->start_ns = step->end_ns = step->fp_ns = step->bp_ns = SL_STEP_NO_TIME;
  step->total_ns = step->data_wait_ns = step->fp_bp_ns = step->tail_ns = SL_STEP_NO_TIME;
}

static gboolean
is_dash (const char *text)
{
  if (text == NULL)
    return FALSE;
  while (*text == ' ' || *text == '\t')
    text++;
  return text[0] == '-' && !g_ascii_isdigit (text[1]);
}

static gint64
ticks (SlCsvReader *reader,
       int          column)
{
  gint64 value;

  G_STATIC_ASSERT (MS_TICK_NS == 10); /* a tick is one decimal place of ns */
  return sl_csv_reader_get_scaled (reader, column, 1, &value) ? value : SL_STEP_NO_TIME;
}

/* MindSpore's communication ops in a step trace: for each op (older
 * "stream_<s>_parallel_<n>", later "stream_<s>_<k>_<Op>-op<N>") a
 * duration column and its "_start_point" and "_end_point". Returns the
 * (start, end) column pairs, flattened. */
static GArray *
find_comm_columns (SlCsvReader *reader,
                   int          first_extra)
{
  static GRegex *op_name;
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (int));

  if (g_once_init_enter (&op_name))
    g_once_init_leave (&op_name, g_regex_new ("^stream_\\d+_(?:parallel_\\d+|\\d+_.+)_start_point$",
                                              G_REGEX_OPTIMIZE, 0, NULL));

  for (guint c = MAX (first_extra, 0); c < sl_csv_reader_get_n_columns (reader); c++)
    {
      const char *name = sl_csv_reader_get_column_name (reader, c);
      g_autofree char *base = NULL;
      g_autofree char *end_name = NULL;
      int end_column;

      if (name == NULL || !g_regex_match (op_name, name, 0, NULL))
        continue;
      base = g_strndup (name, strlen (name) - strlen ("_start_point"));
      end_name = g_strconcat (base, "_end_point", NULL);
      end_column = sl_csv_reader_find_column (reader, end_name);
      if (end_column < 0)
        continue;
      g_array_append_val (pairs, c);
      g_array_append_val (pairs, end_column);
    }
  return pairs;
}

static int
compare_intervals (gconstpointer a,
                   gconstpointer b)
{
  const gint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The time some communication op of the row runs, within the step: the
 * length of the union of the ops' [start, end] (ops on different streams
 * overlap). SL_STEP_NO_TIME when no op has both points. */
static gint64
comm_union (SlCsvReader  *reader,
            GArray       *pairs,
            const SlStep *step)
{
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  gint64 total = 0, covered_to = G_MININT64;

  for (guint i = 0; i + 1 < pairs->len; i += 2)
    {
      gint64 span[2] = {
        ticks (reader, g_array_index (pairs, int, i)),
        ticks (reader, g_array_index (pairs, int, i + 1)),
      };

      if (span[0] == SL_STEP_NO_TIME || span[1] == SL_STEP_NO_TIME || span[0] <= 0 || span[1] < span[0])
        continue;
      if (step->start_ns != SL_STEP_NO_TIME && step->end_ns != SL_STEP_NO_TIME && step->end_ns > step->start_ns)
        {
          span[0] = CLAMP (span[0], step->start_ns, step->end_ns);
          span[1] = CLAMP (span[1], step->start_ns, step->end_ns);
        }
      g_array_append_val (intervals, span);
    }
  if (intervals->len == 0)
    return SL_STEP_NO_TIME;

  g_array_sort (intervals, compare_intervals);
  for (guint i = 0; i < intervals->len; i++)
    {
      const gint64 *span = &g_array_index (intervals, gint64, 2 * i);

      if (span[1] <= covered_to)
        continue;
      total += span[1] - MAX (span[0], covered_to);
      covered_to = span[1];
    }
  return total;
}

/* MindSpore step_trace_raw_<id>_detail_time.csv: ticks of 10 ns; the last
 * row ("-", or all zeros in older versions) holds averages. Columns after
 * "tail" are reduce streams and communication ops, kept as extras; when
 * they carry start and end points, the time the step spends in
 * communication (their union) is the extra "Communication", which the
 * step breakdown takes as the step's communication. */
static void
read_ms_step_trace (Loader        *loader,
                    SlProfileRank *rank,
                    const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  g_autoptr(SlStepTrace) trace = NULL;
  g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (SlStep));
  g_autoptr(GArray) extras = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) comm_pairs = NULL;
  g_autoptr(GArray) comm = g_array_new (FALSE, FALSE, sizeof (gint64));
  int comm_column = -1;
  int c_step, c_start, c_end, c_total, c_fp, c_bp, c_interval, c_fpbp, c_tail;
  int first_extra;
  guint n_extra;
  SlStep average;
  gboolean have_average = FALSE;

  if (reader == NULL)
    return;

  c_step = sl_csv_reader_find_column (reader, "step_num");
  c_start = sl_csv_reader_find_column (reader, "start_point");
  c_end = sl_csv_reader_find_column (reader, "end_point");
  c_total = sl_csv_reader_find_column (reader, "total");
  c_fp = sl_csv_reader_find_column (reader, "fp_point|fp");
  c_bp = sl_csv_reader_find_column (reader, "bp_point");
  c_interval = sl_csv_reader_find_column (reader, "iteration_interval");
  c_fpbp = sl_csv_reader_find_column (reader, "fp_and_bp");
  c_tail = sl_csv_reader_find_column (reader, "tail");
  if (!require_columns (loader, reader, "step_num", c_step) ||
      !require_columns (loader, reader, "total", c_total))
    goto out;

  first_extra = MAX (MAX (MAX (c_tail, c_fpbp), MAX (c_interval, c_bp)), MAX (c_total, c_fp)) + 1;
  n_extra = sl_csv_reader_get_n_columns (reader) > (guint)first_extra
          ? sl_csv_reader_get_n_columns (reader) - first_extra : 0;

  trace = sl_step_trace_new (found->path, SL_STEP_SOURCE_MINDSPORE);
  for (guint i = 0; i < n_extra; i++)
    sl_step_trace_add_extra_column (trace, sl_csv_reader_get_column_name (reader, first_extra + i));
  comm_pairs = find_comm_columns (reader, first_extra);
  if (comm_pairs->len > 0)
    comm_column = sl_step_trace_add_extra_column (trace, SL_STEP_EXTRA_COMMUNICATION);

  while (sl_csv_reader_next_row (reader))
    {
      const char *step_text = sl_csv_reader_get_field (reader, c_step);
      SlStep step;

      if (row_cancelled (loader, reader))
        break;

      init_step (&step);
      step.start_ns = ticks (reader, c_start);
      step.end_ns = ticks (reader, c_end);
      step.total_ns = ticks (reader, c_total);
      step.fp_ns = ticks (reader, c_fp);
      step.bp_ns = ticks (reader, c_bp);
      step.data_wait_ns = ticks (reader, c_interval);
      step.fp_bp_ns = ticks (reader, c_fpbp);
      step.tail_ns = ticks (reader, c_tail);

      if (is_dash (step_text))
        {
          average = step;
          have_average = TRUE;
          continue;
        }
      if (!sl_csv_reader_get_int64 (reader, c_step, &step.step))
        {
          report_bad_value (reader, c_step, "step_num");
          continue;
        }

      g_array_append_val (steps, step);
      {
        guint line = sl_csv_reader_get_row_line (reader);

        g_array_append_val (lines, line);
      }
      for (guint i = 0; i < n_extra; i++)
        {
          gint64 value = ticks (reader, first_extra + i);

          g_array_append_val (extras, value);
        }
      if (comm_column >= 0)
        {
          gint64 value = comm_union (reader, comm_pairs, &step);

          g_array_append_val (comm, value);
        }
    }

  /* Older MindSpore ended with an averages row numbered 0 with no points. */
  if (!have_average && steps->len > 1)
    {
      SlStep *last = &g_array_index (steps, SlStep, steps->len - 1);

      if (last->step == 0 && last->start_ns == 0 && last->end_ns == 0)
        {
          average = *last;
          have_average = TRUE;
          g_array_set_size (steps, steps->len - 1);
        }
    }

  for (guint s = 0; s < steps->len; s++)
    {
      guint index = sl_step_trace_add_step (trace, &g_array_index (steps, SlStep, s));

      sl_step_trace_set_line (trace, index, g_array_index (lines, guint, s));

      for (guint i = 0; i < n_extra; i++)
        sl_step_trace_set_extra (trace, index, i, g_array_index (extras, gint64, s * n_extra + i));
      if (comm_column >= 0)
        sl_step_trace_set_extra (trace, index, comm_column, g_array_index (comm, gint64, s));
    }
  if (have_average)
    sl_step_trace_set_file_average (trace, &average);

  g_clear_pointer (&rank->steps, sl_step_trace_unref);
  rank->steps = g_steal_pointer (&trace);

out:
  take_csv_problems (loader, reader);
}

/* msprof step_trace_*.csv (µs), the same phases as MindSpore's:
 *   total = Iteration Time; fp+bp = FP to BP Time;
 *   tail = Iteration Refresh (BP end to iteration end);
 *   data wait = Data Aug Bound (previous end to FP start);
 *   end = Iteration End, start = end - total.
 * Reduce Start/Duration are kept as extras. */
static void
read_msprof_step_trace (Loader        *loader,
                        SlProfileRank *rank,
                        const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  g_autoptr(SlStepTrace) trace = NULL;
  int c_step, c_fp, c_bp, c_end, c_total, c_fpbp, c_refresh, c_aug, c_reduce_start, c_reduce_dur;

  if (reader == NULL)
    return;

  c_step = sl_csv_reader_find_column (reader, "Iteration ID|Step Id|Step");
  c_fp = sl_csv_reader_find_column (reader, "FP Start(us)");
  c_bp = sl_csv_reader_find_column (reader, "BP End(us)");
  c_end = sl_csv_reader_find_column (reader, "Iteration End(us)");
  c_total = sl_csv_reader_find_column (reader, "Iteration Time(us)");
  c_fpbp = sl_csv_reader_find_column (reader, "FP to BP Time(us)");
  c_refresh = sl_csv_reader_find_column (reader, "Iteration Refresh(us)");
  c_aug = sl_csv_reader_find_column (reader, "Data Aug Bound(us)");
  c_reduce_start = sl_csv_reader_find_column (reader, "Reduce Start(us)");
  c_reduce_dur = sl_csv_reader_find_column (reader, "Reduce Duration(us)");
  if (!require_columns (loader, reader, "Iteration ID", c_step) ||
      !require_columns (loader, reader, "Iteration Time(us)", c_total))
    goto out;

  trace = sl_step_trace_new (found->path, SL_STEP_SOURCE_MSPROF);
  sl_step_trace_add_extra_column (trace, "Reduce Start");
  sl_step_trace_add_extra_column (trace, "Reduce Duration");

  while (sl_csv_reader_next_row (reader))
    {
      SlStep step;
      guint index;

      if (row_cancelled (loader, reader))
        break;

      init_step (&step);
      if (!sl_csv_reader_get_int64 (reader, c_step, &step.step))
        {
          report_bad_value (reader, c_step, "Iteration ID");
          continue;
        }
      step.fp_ns = scaled_or (reader, c_fp, 3, SL_STEP_NO_TIME);
      step.bp_ns = scaled_or (reader, c_bp, 3, SL_STEP_NO_TIME);
      step.end_ns = scaled_or (reader, c_end, 3, SL_STEP_NO_TIME);
      step.total_ns = scaled_or (reader, c_total, 3, SL_STEP_NO_TIME);
      step.fp_bp_ns = scaled_or (reader, c_fpbp, 3, SL_STEP_NO_TIME);
      step.tail_ns = scaled_or (reader, c_refresh, 3, SL_STEP_NO_TIME);
      step.data_wait_ns = scaled_or (reader, c_aug, 3, SL_STEP_NO_TIME);
      if (step.end_ns != SL_STEP_NO_TIME && step.total_ns != SL_STEP_NO_TIME)
        step.start_ns = step.end_ns - step.total_ns;

      index = sl_step_trace_add_step (trace, &step);
      sl_step_trace_set_line (trace, index, sl_csv_reader_get_row_line (reader));
      sl_step_trace_set_extra (trace, index, 0, scaled_or (reader, c_reduce_start, 3, SL_STEP_NO_TIME));
      sl_step_trace_set_extra (trace, index, 1, scaled_or (reader, c_reduce_dur, 3, SL_STEP_NO_TIME));
    }

  g_clear_pointer (&rank->steps, sl_step_trace_unref);
  rank->steps = g_steal_pointer (&trace);

out:
  take_csv_problems (loader, reader);
}

/* torch_npu's overlap analysis per step (µs) has no phase points, so no
 * data wait, forward+backward or tail: its first three columns stack up
 * to the step time (total = Computing + Communication(Not Overlapped) +
 * Free, as torch_npu defines it) and are the trace's phases, under their
 * own names; the others are extras. */
static const struct {
  const char *column;
  const char *key;      /* the first N_PT_PHASES are phases; NULL: an extra */
} pt_step_columns[] = {
  { "Computing", "computing" },
  { "Communication(Not Overlapped)", "communication_not_overlapped" },
  { "Free", "free" },
  { "Overlapped", NULL },
  { "Communication", NULL },
  { "Stage", NULL },
  { "Bubble", NULL },
  { "Communication(Not Overlapped and Exclude Receive)", NULL },
  { "Preparing", NULL },
};
#define N_PT_PHASES 3

static void
add_pt_step (SlStepTrace *trace,
             SlCsvReader *reader,
             const int   *columns,
             gint64       step_id)
{
  SlStep step;
  gint64 values[G_N_ELEMENTS (pt_step_columns)];
  guint index;

  for (guint i = 0; i < G_N_ELEMENTS (pt_step_columns); i++)
    values[i] = scaled_or (reader, columns[i], 3, SL_STEP_NO_TIME);

  init_step (&step);
  step.step = step_id;
  if (values[0] != SL_STEP_NO_TIME && values[1] != SL_STEP_NO_TIME && values[2] != SL_STEP_NO_TIME)
    step.total_ns = values[0] + values[1] + values[2];

  index = sl_step_trace_add_step (trace, &step);
  sl_step_trace_set_line (trace, index, sl_csv_reader_get_row_line (reader));
  for (guint i = 0; i < N_PT_PHASES; i++)
    sl_step_trace_set_phase (trace, index, i, values[i]);
  for (guint i = N_PT_PHASES; i < G_N_ELEMENTS (pt_step_columns); i++)
    sl_step_trace_set_extra (trace, index, i - N_PT_PHASES, values[i]);
}

static SlStepTrace *
new_pt_trace (const char   *path,
              SlStepSource  source)
{
  SlStepTrace *trace = sl_step_trace_new (path, source);

  for (guint i = 0; i < G_N_ELEMENTS (pt_step_columns); i++)
    {
      if (i < N_PT_PHASES)
        sl_step_trace_add_phase (trace, pt_step_columns[i].key, pt_step_columns[i].column);
      else
        sl_step_trace_add_extra_column (trace, pt_step_columns[i].column);
    }
  return trace;
}

static void
find_pt_columns (SlCsvReader *reader,
                 int         *columns)
{
  for (guint i = 0; i < G_N_ELEMENTS (pt_step_columns); i++)
    {
      /* find_column splits on '|' only, and these names have none. */
      columns[i] = sl_csv_reader_find_column (reader, pt_step_columns[i].column);
    }
}

static void
read_pt_step_trace (Loader        *loader,
                    SlProfileRank *rank,
                    const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  g_autoptr(SlStepTrace) trace = NULL;
  int columns[G_N_ELEMENTS (pt_step_columns)];
  int c_step;

  if (reader == NULL)
    return;

  c_step = sl_csv_reader_find_column (reader, "Step|Step Id");
  find_pt_columns (reader, columns);
  if (!require_columns (loader, reader, "Computing", columns[0]))
    goto out;

  trace = new_pt_trace (found->path, SL_STEP_SOURCE_ASCEND_PT);
  while (sl_csv_reader_next_row (reader))
    {
      if (row_cancelled (loader, reader))
        break;
      /* An empty step number: a profile taken without a step schedule. */
      add_pt_step (trace, reader, columns, int_or (reader, c_step, 0));
    }

  g_clear_pointer (&rank->steps, sl_step_trace_unref);
  rank->steps = g_steal_pointer (&trace);

out:
  take_csv_problems (loader, reader);
}

/* msprof-analyze's cluster_step_trace_time.csv: one row per rank (or
 * stage) and step; each "Type Index" becomes a rank of its own. */
static void
read_cluster_step_trace (Loader      *loader,
                         const SlProfileFile *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  g_autoptr(GHashTable) by_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *dir = g_path_get_dirname (found->path);
  int columns[G_N_ELEMENTS (pt_step_columns)];
  int c_step, c_type, c_index;

  if (reader == NULL)
    return;

  c_step = sl_csv_reader_find_column (reader, "Step");
  c_type = sl_csv_reader_find_column (reader, "Type");
  c_index = sl_csv_reader_find_column (reader, "Index");
  find_pt_columns (reader, columns);
  if (!require_columns (loader, reader, "Index", c_index) ||
      !require_columns (loader, reader, "Computing", columns[0]))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      g_autofree char *type = clean_text (sl_csv_reader_get_field (reader, c_type));
      g_autofree char *index = clean_text (sl_csv_reader_get_field (reader, c_index));
      g_autofree char *key = g_strdup_printf ("%s %s", type != NULL ? type : "", index != NULL ? index : "");
      SlProfileRank *rank;

      if (row_cancelled (loader, reader))
        break;

      rank = g_hash_table_lookup (by_index, key);
      if (rank == NULL)
        {
          rank = sl_profile_add_rank (loader->profile, dir, SL_PROFILE_LAYOUT_CLUSTER);
          g_free (rank->label);
          rank->label = g_strstrip (g_strdup (key));
          if (type != NULL && g_str_equal (type, "rank"))
            rank->rank_id = text_int_or (index, -1);
          /* A stage row holds each column's maximum over its ranks. */
          rank->aggregate = type != NULL && g_str_equal (type, "stage");
          rank->steps = new_pt_trace (found->path, SL_STEP_SOURCE_CLUSTER);
          g_ptr_array_add (rank->files, g_strdup (found->path));
          g_hash_table_insert (by_index, g_steal_pointer (&key), rank);
        }
      add_pt_step (rank->steps, reader, columns, int_or (reader, c_step, 0));
    }

out:
  take_csv_problems (loader, reader);
}

/* ------------------------------------------------------------------ */
/* Op tables */

/* aicore_intermediate_<id>_type.csv: ms totals, percent already in %. */
static void
read_ms_aicore_type (Loader        *loader,
                     SlProfileRank *rank,
                     const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  int c_type, c_total, c_count, c_percent;

  if (reader == NULL)
    return;

  c_type = sl_csv_reader_find_column (reader, "kernel_type|op_type");
  c_total = sl_csv_reader_find_column (reader, "total_time|execution_time");
  c_count = sl_csv_reader_find_column (reader, "execution_frequency");
  c_percent = sl_csv_reader_find_column (reader, "percent");
  if (!require_columns (loader, reader, "kernel_type|op_type", c_type) ||
      !require_columns (loader, reader, "total_time|execution_time", c_total))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      const char *type = sl_csv_reader_get_field (reader, c_type);
      gint64 total_ns, count;
      double percent;
      SlOpRow *row;

      if (row_cancelled (loader, reader))
        break;
      if (type == NULL || !sl_csv_reader_get_scaled (reader, c_total, 6, &total_ns))
        {
          report_bad_value (reader, c_total, "total_time");
          continue;
        }
      count = int_or (reader, c_count, 0);

      row = sl_op_table_add_type (rank->ops, type, "AI_CORE");
      if (sl_op_row_get_source_path (row) == NULL)
        sl_op_row_set_source (row, found->path, sl_csv_reader_get_row_line (reader));
      sl_op_row_set_totals (row, sl_op_row_get_count (row) + (guint64)MAX (count, 0),
                            sl_op_row_get_total_ns (row) + total_ns, -1, -1);
      if (sl_csv_reader_get_double (reader, c_percent, &percent))
        {
          sl_op_row_set_ratio (row, percent);
          sl_op_table_set_type_share_basis (rank->ops, SL_OP_SHARE_OF_AICORE);
        }
    }

out:
  take_csv_problems (loader, reader);
}

/* aicore_intermediate_<id>_detail.csv: execution_time is the average per
 * execution in ms (MindInsight shows it as "avg execution time"), so the
 * total is average × execution_frequency; older files have no frequency,
 * meaning one execution. */
static void
read_ms_aicore_detail (Loader        *loader,
                       SlProfileRank *rank,
                       const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  int c_name, c_time, c_count;

  if (reader == NULL)
    return;

  /* "full_kernel_time" is a header real MindSpore versions wrote. */
  c_name = sl_csv_reader_find_column (reader, "full_kernel_name|full_op_name|full_kernel_time|op_name");
  c_time = sl_csv_reader_find_column (reader, "execution_time|avg_execution_time");
  c_count = sl_csv_reader_find_column (reader, "execution_frequency");
  if (!require_columns (loader, reader, "full_kernel_name|full_op_name", c_name) ||
      !require_columns (loader, reader, "execution_time", c_time))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      const char *name = sl_csv_reader_get_field (reader, c_name);
      g_autofree char *type = NULL;
      gint64 avg_ns, count;
      SlOpRow *row;

      if (row_cancelled (loader, reader))
        break;
      if (name == NULL || !sl_csv_reader_get_scaled (reader, c_time, 6, &avg_ns))
        {
          report_bad_value (reader, c_time, "execution_time");
          continue;
        }
      count = c_count != SL_CSV_NO_COLUMN ? int_or (reader, c_count, 1) : 1;
      count = MAX (count, 1);

      type = type_from_name (name);
      row = sl_op_table_add_instance (rank->ops, name, type);
      if (sl_op_row_get_source_path (row) == NULL)
        sl_op_row_set_source (row, found->path, sl_csv_reader_get_row_line (reader));
      sl_op_row_set_totals (row, sl_op_row_get_count (row) + count, sl_op_row_get_total_ns (row) + avg_ns * count,
                            avg_ns, avg_ns);
    }

out:
  take_csv_problems (loader, reader);
}

static int
find_column_exact (SlCsvReader *reader,
                   const char  *name)
{
  for (guint c = 0; c < sl_csv_reader_get_n_columns (reader); c++)
    {
      g_autofree char *header = g_strstrip (g_strdup (sl_csv_reader_get_column_name (reader, c)));

      if (g_str_equal (header, name))
        return (int)c;
    }
  return SL_CSV_NO_COLUMN;
}

static double
blank_double (SlCsvReader *reader,
              int          column)
{
  double value;

  return sl_csv_reader_get_double (reader, column, &value) ? value : -1;
}

/* flops_<id>.txt: per op, either "FLOPs, FLOPS, FLOPS utilization" (older
 * MindSpore) or cube and vector units apart ("MFLOPs(10^6 cube), GFLOPS(10^9
 * cube), MFLOPs(10^6 vector), GFLOPS(10^9 vector)"); fields are padded
 * with a space. Counts are in millions, rates in billions per second. */
static void
read_ms_flops (Loader        *loader,
               SlProfileRank *rank,
               const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  int c_name, c_flops, c_rate, c_cube, c_cube_rate, c_vector, c_vector_rate;

  if (reader == NULL)
    return;

  c_name = sl_csv_reader_find_column (reader, "full_kernel_name|full_op_name|op_full_name");
  /* "FLOPs" and "FLOPS" differ only in case, which column lookup ignores. */
  c_flops = find_column_exact (reader, "FLOPs");
  c_rate = find_column_exact (reader, "FLOPS");
  c_cube = sl_csv_reader_find_column (reader, "MFLOPs(10^6 cube)");
  c_cube_rate = sl_csv_reader_find_column (reader, "GFLOPS(10^9 cube)");
  c_vector = sl_csv_reader_find_column (reader, "MFLOPs(10^6 vector)");
  c_vector_rate = sl_csv_reader_find_column (reader, "GFLOPS(10^9 vector)");
  if (!require_columns (loader, reader, "full_kernel_name", c_name))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      g_autofree char *name = NULL;
      double mflops, rate;
      SlOpRow *row;

      if (row_cancelled (loader, reader))
        break;
      name = g_strstrip (g_strdup (sl_csv_reader_get_field (reader, c_name) ? sl_csv_reader_get_field (reader, c_name) : ""));
      if ((row = sl_op_table_lookup_instance (rank->ops, name)) == NULL)
        continue;

      if (c_cube != SL_CSV_NO_COLUMN || c_vector != SL_CSV_NO_COLUMN)
        {
          mflops = MAX (blank_double (reader, c_cube), 0) +
                   MAX (blank_double (reader, c_vector), 0);
          rate = MAX (blank_double (reader, c_cube_rate), 0) +
                 MAX (blank_double (reader, c_vector_rate), 0);
        }
      else
        {
          mflops = blank_double (reader, c_flops);
          rate = blank_double (reader, c_rate);
        }
      sl_op_row_set_flops (row, mflops, rate);
    }

out:
  take_csv_problems (loader, reader);
}

/* Counts one execution into @row and remembers where its first and its
 * longest execution are in the file. */
static void
note_execution (SlOpRow     *row,
                SlCsvReader *reader,
                const SlProfileFile *found,
                gint64       duration_ns)
{
  gint64 previous_max = sl_op_row_get_count (row) > 0 ? sl_op_row_get_max_ns (row) : -1;
  guint line = sl_csv_reader_get_row_line (reader);

  sl_op_row_add_execution (row, duration_ns, -1, -1);
  if (sl_op_row_get_source_path (row) == NULL)
    sl_op_row_set_source (row, found->path, line);
  if (duration_ns > previous_max)
    sl_op_row_set_longest_line (row, line);
}

/* aicpu_intermediate_<id>.csv: one row per execution, times in ms. */
static void
read_ms_aicpu (Loader        *loader,
               SlProfileRank *rank,
               const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  int c_type, c_total;

  if (reader == NULL)
    return;

  c_type = sl_csv_reader_find_column (reader, "kernel_type|op_type|op_name");
  c_total = sl_csv_reader_find_column (reader, "total_time|total_cost");
  if (!require_columns (loader, reader, "kernel_type", c_type) ||
      !require_columns (loader, reader, "total_time", c_total))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      const char *type = sl_csv_reader_get_field (reader, c_type);
      gint64 total_ns;

      if (row_cancelled (loader, reader))
        break;
      if (type == NULL || !sl_csv_reader_get_scaled (reader, c_total, 6, &total_ns))
        {
          report_bad_value (reader, c_total, "total_time");
          continue;
        }

      /* Type statistics from the AI Core file stop the table from
       * summing types itself, so AI CPU types are added here. */
      sl_op_row_add_execution (sl_op_table_add_type (rank->ops, type, "AI_CPU"), total_ns, -1, -1);
      note_execution (sl_op_table_add_instance (rank->ops, type, type), reader, found, total_ns);
    }

out:
  take_csv_problems (loader, reader);
}

static void
set_row_text (SlOpRow     *row,
              SlOpRowText  which,
              const char  *text)
{
  g_autofree char *clean = clean_text (text);

  if (clean != NULL && clean[0] != '\0')
    sl_op_row_set_text (row, which, clean);
}

/* The pipe ratio columns of msprof's PipeUtilization metrics: the cube
 * side (aic_) and the vector side (aiv_) of a mixed op, or the older
 * unprefixed names. */
static const char *pipe_columns[SL_OP_N_PIPES][3] = {
  [SL_OP_PIPE_CUBE] = { "aic_mac_ratio", "aiv_mac_ratio", "mac_ratio" },
  [SL_OP_PIPE_VECTOR] = { "aiv_vec_ratio", "aic_vec_ratio", "vec_ratio" },
  [SL_OP_PIPE_SCALAR] = { "aic_scalar_ratio", "aiv_scalar_ratio", "scalar_ratio" },
  [SL_OP_PIPE_MTE1] = { "aic_mte1_ratio", "aiv_mte1_ratio", "mte1_ratio" },
  [SL_OP_PIPE_MTE2] = { "aic_mte2_ratio", "aiv_mte2_ratio", "mte2_ratio" },
  [SL_OP_PIPE_MTE3] = { "aic_mte3_ratio", "aiv_mte3_ratio", "mte3_ratio" },
};

static void
find_pipe_columns (SlCsvReader *reader,
                   int          columns[SL_OP_N_PIPES][3])
{
  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    for (guint i = 0; i < 3; i++)
      columns[p][i] = find_column_exact (reader, pipe_columns[p][i]);
}

/* Of a mixed op's two sides, the busier one bounds it. */
static void
read_pipe_ratios (SlCsvReader *reader,
                  int          columns[SL_OP_N_PIPES][3],
                  double      *ratios)
{
  for (guint p = 0; p < SL_OP_N_PIPES; p++)
    {
      ratios[p] = -1;
      for (guint i = 0; i < 3; i++)
        {
          double value;

          if (columns[p][i] != SL_CSV_NO_COLUMN &&
              sl_csv_reader_get_double (reader, columns[p][i], &value) &&
              value >= 0 && value <= 1)
            ratios[p] = MAX (ratios[p], value);
        }
    }
}

/* What the ArithmeticUtilization and Memory metric sets add. The cube
 * (aic_) and vector (aiv_) sides of a mixed op each do their own part of
 * the work, so their counts add up; a bandwidth is turned into bytes with
 * its own side's core time. */
typedef struct {
  int cube_fops[3];
  int vector_fops[3];
  int read_bw[3];
  int write_bw[3];
} CounterColumns;

static void
find_counter_columns (SlCsvReader    *reader,
                      CounterColumns *columns)
{
  static const char *const sides[3] = { "aic_", "aiv_", "" };

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *cube = g_strconcat (sides[i], "cube_fops", NULL);
      g_autofree char *vector = g_strconcat (sides[i], "vector_fops", NULL);
      g_autofree char *read = g_strconcat (sides[i], "main_mem_read_bw(GB/s)", NULL);
      g_autofree char *write = g_strconcat (sides[i], "main_mem_write_bw(GB/s)", NULL);

      columns->cube_fops[i] = find_column_exact (reader, cube);
      columns->vector_fops[i] = find_column_exact (reader, vector);
      columns->read_bw[i] = find_column_exact (reader, read);
      columns->write_bw[i] = find_column_exact (reader, write);
    }
}

/* The sum over the sides that have the column; -1 when none has it. */
static double
sum_sides (SlCsvReader  *reader,
           const int    *columns,
           const gint64 *side_ns)
{
  double sum = -1;

  for (guint i = 0; i < 3; i++)
    {
      double value;

      if (columns[i] == SL_CSV_NO_COLUMN ||
          !sl_csv_reader_get_double (reader, columns[i], &value) ||
          !isfinite (value) || value < 0)
        continue;
      /* GB/s over the side's µs is bytes: 1e9 B/s x 1e-9 s per ns. */
      if (side_ns != NULL)
        {
          if (side_ns[i] < 0)
            continue;
          value *= (double)side_ns[i];
        }
      sum = MAX (sum, 0) + value;
    }
  return sum;
}

static void
read_counters (SlOpRow              *row,
               SlCsvReader          *reader,
               const CounterColumns *columns,
               const int            *c_texts,
               gint64                aicore_ns,
               gint64                aiv_ns,
               gint64                dur_ns)
{
  gint64 busy_ns = MAX (aicore_ns, aiv_ns) >= 0 ? MIN (MAX (aicore_ns, aiv_ns), dur_ns) : dur_ns;
  /* An unprefixed column belongs to whichever core ran the op. */
  gint64 side_ns[3] = { aicore_ns >= 0 ? MIN (aicore_ns, dur_ns) : -1, aiv_ns >= 0 ? MIN (aiv_ns, dur_ns) : -1, busy_ns };
  double cube = sum_sides (reader, columns->cube_fops, NULL);
  double vector = sum_sides (reader, columns->vector_fops, NULL);
  double read = sum_sides (reader, columns->read_bw, side_ns);
  double write = sum_sides (reader, columns->write_bw, side_ns);

  if (cube >= 0)
    sl_op_row_add_counter (row, SL_OP_COUNTER_CUBE_FOPS, cube, busy_ns);
  if (vector >= 0)
    sl_op_row_add_counter (row, SL_OP_COUNTER_VECTOR_FOPS, vector, busy_ns);
  if (read < 0 && write < 0)
    return;
  sl_op_row_add_counter (row, SL_OP_COUNTER_MEMORY_READ, MAX (read, 0), busy_ns);
  sl_op_row_add_counter (row, SL_OP_COUNTER_MEMORY_WRITE, MAX (write, 0), busy_ns);
  if (c_texts[SL_OP_ROW_INPUT_SHAPES] >= 0 && c_texts[SL_OP_ROW_INPUT_DTYPES] >= 0 &&
      c_texts[SL_OP_ROW_OUTPUT_SHAPES] >= 0 && c_texts[SL_OP_ROW_OUTPUT_DTYPES] >= 0)
    {
      gint64 in = sl_op_row_tensor_bytes (sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_INPUT_SHAPES]),
                                          sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_INPUT_DTYPES]));
      gint64 out = sl_op_row_tensor_bytes (sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_OUTPUT_SHAPES]),
                                           sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_OUTPUT_DTYPES]));

      if (in >= 0 && out >= 0)
        sl_op_row_add_counter (row, SL_OP_COUNTER_MEMORY_IDEAL, (double)(in + out), busy_ns);
    }
}

/* This execution's own shapes: an op name runs with different shapes
 * (a pooling op at each resolution), so the first row's would be wrong. */
static void
add_moved_bytes (SlOpRow     *row,
                 SlCsvReader *reader,
                 const int   *c_texts,
                 gint64       dur_ns)
{
  gint64 in, out;

  if (c_texts[SL_OP_ROW_INPUT_SHAPES] < 0 || c_texts[SL_OP_ROW_INPUT_DTYPES] < 0 ||
      c_texts[SL_OP_ROW_OUTPUT_SHAPES] < 0 || c_texts[SL_OP_ROW_OUTPUT_DTYPES] < 0)
    return;
  in = sl_op_row_tensor_bytes (sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_INPUT_SHAPES]),
                               sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_INPUT_DTYPES]));
  out = sl_op_row_tensor_bytes (sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_OUTPUT_SHAPES]),
                                sl_csv_reader_get_field (reader, c_texts[SL_OP_ROW_OUTPUT_DTYPES]));
  if (in >= 0 && out >= 0)
    sl_op_row_add_moved_bytes (row, in + out, dur_ns);
}

/* op_summary_*.csv (msprof) and kernel_details.csv (torch_npu): one row per
 * task, µs. */
static void
read_op_summary (Loader        *loader,
                 SlProfileRank *rank,
                 const SlProfileFile   *found)
{
  static const char *text_columns[SL_OP_ROW_N_TEXTS] = {
    "Input Shapes", "Input Data Types", "Input Formats",
    "Output Shapes", "Output Data Types", "Output Formats", "OP State",
  };
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  int c_name, c_type, c_core, c_dur, c_wait, c_block, c_stream, c_aicore, c_aiv;
  int c_texts[SL_OP_ROW_N_TEXTS];
  int c_pipes[SL_OP_N_PIPES][3];
  CounterColumns c_counters;

  if (reader == NULL)
    return;

  c_name = sl_csv_reader_find_column (reader, "Op Name|Name");
  c_type = sl_csv_reader_find_column (reader, "OP Type|Type");
  c_core = sl_csv_reader_find_column (reader, "Task Type|Accelerator Core");
  c_dur = sl_csv_reader_find_column (reader, "Task Duration(us)|Duration(us)");
  c_wait = sl_csv_reader_find_column (reader, "Task Wait Time(us)|Wait Time(us)");
  c_block = sl_csv_reader_find_column (reader, "Block Dim|Block Num");
  c_stream = sl_csv_reader_find_column (reader, "Stream ID");
  c_aicore = sl_csv_reader_find_column (reader, "aicore_time(us)");
  c_aiv = sl_csv_reader_find_column (reader, "aiv_time(us)");
  for (guint i = 0; i < SL_OP_ROW_N_TEXTS; i++)
    c_texts[i] = sl_csv_reader_find_column (reader, text_columns[i]);
  find_pipe_columns (reader, c_pipes);
  find_counter_columns (reader, &c_counters);
  if (!require_columns (loader, reader, "Op Name|Name", c_name) ||
      !require_columns (loader, reader, "Task Duration(us)|Duration(us)", c_dur))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      const char *name = sl_csv_reader_get_field (reader, c_name);
      const char *type = sl_csv_reader_get_field (reader, c_type);
      const char *core = sl_csv_reader_get_field (reader, c_core);
      gint64 dur_ns, aicore_ns, aiv_ns, previous_max;
      double ratios[SL_OP_N_PIPES];
      SlOpRow *row;
      gboolean first;

      if (row_cancelled (loader, reader))
        break;
      if (name == NULL || !sl_csv_reader_get_scaled (reader, c_dur, 3, &dur_ns))
        {
          report_bad_value (reader, c_dur, "Duration(us)");
          continue;
        }

      aicore_ns = scaled_or (reader, c_aicore, 3, -1);
      aiv_ns = scaled_or (reader, c_aiv, 3, -1);
      if (aicore_ns < 0 && aiv_ns >= 0)
        aicore_ns = 0;

      row = sl_op_table_lookup_instance (rank->ops, name);
      first = row == NULL;
      previous_max = first ? -1 : sl_op_row_get_max_ns (row);
      row = sl_op_table_add_execution (rank->ops, name, type != NULL ? type : "", core != NULL ? core : "",
                                       dur_ns, scaled_or (reader, c_wait, 3, -1),
                                       aicore_ns);
      /* The cores cannot be busy longer than the task lasted: files have
       * rows with an aicore_time of minutes on a 2 µs task. */
      if (aicore_ns >= 0 || aiv_ns >= 0)
        sl_op_row_add_core_busy (row, MIN (MAX (aicore_ns, aiv_ns), dur_ns));
      read_pipe_ratios (reader, c_pipes, ratios);
      sl_op_row_add_pipe_ratios (row, ratios, dur_ns);
      add_moved_bytes (row, reader, c_texts, dur_ns);
      read_counters (row, reader, &c_counters, c_texts, aicore_ns, aiv_ns, dur_ns);
      if (dur_ns > previous_max)
        sl_op_row_set_longest_line (row, sl_csv_reader_get_row_line (reader));
      if (first)
        {
          sl_op_row_set_source (row, found->path, sl_csv_reader_get_row_line (reader));
          sl_op_row_set_block_dim (row, int_or (reader, c_block, -1));
          sl_op_row_set_stream_id (row, int_or (reader, c_stream, -1));
          for (guint i = 0; i < SL_OP_ROW_N_TEXTS; i++)
            set_row_text (row, i, sl_csv_reader_get_field (reader, c_texts[i]));
        }
    }

out:
  take_csv_problems (loader, reader);
}

/* task_time_*.csv: only when there is no op_summary (less detail). */
static void
read_task_time (Loader        *loader,
                SlProfileRank *rank,
                const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = NULL;
  int c_name, c_type, c_stream, c_time;

  if (!sl_op_table_is_empty (rank->ops))
    return;
  if ((reader = open_csv (loader, found->path)) == NULL)
    return;

  c_name = sl_csv_reader_find_column (reader, "kernel_name|Op Name");
  c_type = sl_csv_reader_find_column (reader, "kernel_type|Task Type");
  c_stream = sl_csv_reader_find_column (reader, "stream_id|Stream ID");
  c_time = sl_csv_reader_find_column (reader, "task_time(us)|Task Time(us)");
  if (!require_columns (loader, reader, "kernel_name", c_name) ||
      !require_columns (loader, reader, "task_time(us)", c_time))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      const char *name = sl_csv_reader_get_field (reader, c_name);
      const char *type = sl_csv_reader_get_field (reader, c_type);
      gint64 dur_ns;
      SlOpRow *row;

      if (row_cancelled (loader, reader))
        break;
      if (name == NULL || !sl_csv_reader_get_scaled (reader, c_time, 3, &dur_ns))
        {
          report_bad_value (reader, c_time, "task_time(us)");
          continue;
        }
      row = sl_op_table_add_execution (rank->ops, name, type != NULL ? type : "", type != NULL ? type : "",
                                       dur_ns, -1, -1);
      if (sl_op_row_get_source_path (row) == NULL)
        sl_op_row_set_source (row, found->path, sl_csv_reader_get_row_line (reader));
      sl_op_row_set_stream_id (row, int_or (reader, c_stream, -1));
    }

out:
  take_csv_problems (loader, reader);
}

/* op_statistic(_*).csv: the source's own per-type statistics, µs. */
static void
read_op_statistic (Loader        *loader,
                   SlProfileRank *rank,
                   const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  int c_type, c_core, c_count, c_total, c_min, c_max, c_ratio;

  if (reader == NULL)
    return;

  c_type = sl_csv_reader_find_column (reader, "OP Type");
  c_core = sl_csv_reader_find_column (reader, "Core Type");
  c_count = sl_csv_reader_find_column (reader, "Count");
  c_total = sl_csv_reader_find_column (reader, "Total Time(us)");
  c_min = sl_csv_reader_find_column (reader, "Min Time(us)");
  c_max = sl_csv_reader_find_column (reader, "Max Time(us)");
  c_ratio = sl_csv_reader_find_column (reader, "Ratio(%)");
  if (!require_columns (loader, reader, "OP Type", c_type) ||
      !require_columns (loader, reader, "Total Time(us)", c_total))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      const char *type = sl_csv_reader_get_field (reader, c_type);
      gint64 total_ns;
      double ratio;
      SlOpRow *row;

      if (row_cancelled (loader, reader))
        break;
      if (type == NULL || !sl_csv_reader_get_scaled (reader, c_total, 3, &total_ns))
        {
          report_bad_value (reader, c_total, "Total Time(us)");
          continue;
        }

      row = sl_op_table_add_type (rank->ops, type, sl_csv_reader_get_field (reader, c_core));
      sl_op_row_set_source (row, found->path, sl_csv_reader_get_row_line (reader));
      sl_op_row_set_totals (row, (guint64)MAX (int_or (reader, c_count, 0), 0), total_ns,
                            scaled_or (reader, c_min, 3, -1),
                            scaled_or (reader, c_max, 3, -1));
      if (sl_csv_reader_get_double (reader, c_ratio, &ratio))
        {
          /* a share of the total, so rounding aside 0 to 100 */
          if (ratio >= 0 && ratio <= 100.5)
            {
              sl_op_row_set_ratio (row, ratio);
              sl_op_table_set_type_share_basis (rank->ops, SL_OP_SHARE_OF_MODEL);
            }
          else
            {
              g_autofree char *message =
                g_strdup_printf (_("Line %u: “Ratio(%%)” is %g, not a percentage; it is left out"),
                                 sl_csv_reader_get_row_line (reader), ratio);

              sl_csv_reader_report (reader, SL_SEVERITY_WARNING, message);
            }
        }
    }

out:
  take_csv_problems (loader, reader);
}

/* api_statistic(_*).csv: host API calls by level, µs. */
static void
read_api_statistic (Loader        *loader,
                    SlProfileRank *rank,
                    const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  int c_level, c_name, c_time, c_count, c_min, c_max;

  if (reader == NULL)
    return;

  c_level = sl_csv_reader_find_column (reader, "Level");
  c_name = sl_csv_reader_find_column (reader, "API Name");
  c_time = sl_csv_reader_find_column (reader, "Time(us)");
  c_count = sl_csv_reader_find_column (reader, "Count");
  c_min = sl_csv_reader_find_column (reader, "Min(us)");
  c_max = sl_csv_reader_find_column (reader, "Max(us)");
  if (!require_columns (loader, reader, "API Name", c_name) ||
      !require_columns (loader, reader, "Time(us)", c_time))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      const char *name = sl_csv_reader_get_field (reader, c_name);
      gint64 total_ns;
      SlOpRow *row;

      if (row_cancelled (loader, reader))
        break;
      if (name == NULL || !sl_csv_reader_get_scaled (reader, c_time, 3, &total_ns))
        {
          report_bad_value (reader, c_time, "Time(us)");
          continue;
        }

      row = sl_op_table_add_type (rank->apis, name, sl_csv_reader_get_field (reader, c_level));
      sl_op_row_set_source (row, found->path, sl_csv_reader_get_row_line (reader));
      sl_op_row_set_totals (row, (guint64)MAX (int_or (reader, c_count, 0), 0), total_ns,
                            scaled_or (reader, c_min, 3, -1),
                            scaled_or (reader, c_max, 3, -1));
    }

out:
  take_csv_problems (loader, reader);
}

/* Joins "input_0".."input_N" of op_info into "a;b;c" per attribute. */
static void
apply_op_info (SlOpRow    *row,
               const char *json)
{
  static const char *attributes[3] = { "shape", "data_type", "format" };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;

  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return;

  object = json_node_get_object (json_parser_get_root (parser));
  for (guint side = 0; side < 2; side++)
    {
      const char *prefix = side == 0 ? "input_" : "output_";

      for (guint a = 0; a < 3; a++)
        {
          g_autoptr(GString) text = g_string_new (NULL);

          for (guint i = 0; i < 256; i++)
            {
              g_autofree char *key = g_strdup_printf ("%s%u", prefix, i);
              JsonNode *member = json_object_get_member (object, key);
              JsonObject *io;
              JsonNode *value;

              if (member == NULL || !JSON_NODE_HOLDS_OBJECT (member))
                break;
              io = json_node_get_object (member);
              value = json_object_get_member (io, attributes[a]);
              if (i > 0)
                g_string_append_c (text, ';');
              if (value != NULL && JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
                g_string_append (text, json_node_get_string (value));
            }
          sl_op_row_set_text (row, side * 3 + a, text->str);
        }
    }
}

/* framework_raw_<id>.csv: op type, block dim, stream and op_info shapes
 * for the instances the detail file listed. */
static void
read_ms_framework (Loader        *loader,
                   SlProfileRank *rank,
                   const SlProfileFile   *found)
{
  g_autoptr(SlCsvReader) reader = open_csv (loader, found->path);
  int c_name, c_type, c_block, c_stream, c_info;

  if (reader == NULL)
    return;

  c_name = sl_csv_reader_find_column (reader, "full_kernel_name|full_op_name");
  c_type = sl_csv_reader_find_column (reader, "kernel_type|op_type");
  c_block = sl_csv_reader_find_column (reader, "block_dim");
  c_stream = sl_csv_reader_find_column (reader, "stream_id");
  c_info = sl_csv_reader_find_column (reader, "op_info");
  if (!require_columns (loader, reader, "full_kernel_name|full_op_name", c_name))
    goto out;

  while (sl_csv_reader_next_row (reader))
    {
      const char *name = sl_csv_reader_get_field (reader, c_name);
      const char *type = sl_csv_reader_get_field (reader, c_type);
      SlOpRow *row;

      if (row_cancelled (loader, reader))
        break;
      if (name == NULL || (row = sl_op_table_lookup_instance (rank->ops, name)) == NULL)
        continue;

      if (type != NULL && type[0] != '\0')
        sl_op_row_set_op_type (row, type);
      sl_op_row_set_block_dim (row, int_or (reader, c_block, -1));
      sl_op_row_set_stream_id (row, int_or (reader, c_stream, -1));
      apply_op_info (row, sl_csv_reader_get_field (reader, c_info));
    }

out:
  take_csv_problems (loader, reader);
}

/* {total_time, num_of_streams, num_of_ops, op_exe_times}: kept as info;
 * the stream count feeds the summary. */
static void
read_ms_json_summary (Loader        *loader,
                      SlProfileRank *rank,
                      const SlProfileFile   *found,
                      const char    *prefix)
{
  g_autoptr(JsonNode) root = load_json (loader, found->path);
  gint64 streams;

  if (root == NULL)
    return;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      report (loader, SL_SEVERITY_WARNING, found->path, 0, _("Expected a JSON object"));
      return;
    }

  flatten_json (rank, prefix, root, 0);
  if ((streams = info_int (rank, "timeline.num_of_streams")) > 0)
    rank->summary.n_streams = MAX (rank->summary.n_streams, (guint)streams);
}

static SlMemoryProfile *
rank_memory (SlProfileRank *rank)
{
  if (rank->memory == NULL)
    rank->memory = sl_memory_profile_new ();
  return rank->memory;
}

static void
add_counter (SlProfileRank *rank,
             const char    *component,
             const char    *measure,
             GArray        *ts_ns,
             GArray        *values)
{
  g_autofree char *name = g_strdup_printf ("%s %s", component, measure);
  SlProfileCounter *counter = NULL;

  for (guint i = 0; i < values->len; i++)
    {
      double value = g_array_index (values, double, i);

      if (isnan (value))
        continue;
      if (counter == NULL)
        counter = sl_profile_rank_get_counter (rank, name, "MB");
      g_array_append_val (counter->ts_ns, g_array_index (ts_ns, gint64, i));
      g_array_append_val (counter->values, value);
    }
}

/* memory_record.csv: also one counter per component and measure, as
 * the CLI has always listed them. */
static void
add_memory_counters (SlProfileRank *rank,
                     guint          first_curve)
{
  for (guint i = first_curve; i < sl_memory_profile_get_n_curves (rank->memory); i++)
    {
      const SlMemoryCurve *curve = sl_memory_profile_get_curve (rank->memory, i);

      add_counter (rank, curve->name, "Total Allocated", curve->ts_ns, curve->allocated_mb);
      add_counter (rank, curve->name, "Total Reserved", curve->ts_ns, curve->reserved_mb);
      add_counter (rank, curve->name, "Total Active", curve->ts_ns, curve->active_mb);
    }
}

static void
read_memory (Loader        *loader,
             SlProfileRank *rank,
             const SlProfileFile   *found)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  guint first_curve = sl_memory_profile_get_n_curves (rank_memory (rank));

  sl_memory_reader_read_file (rank->memory, found->path, loader->cancellable, problems);
  if (sl_memory_reader_file_for_path (found->path) == SL_MEMORY_FILE_RECORD)
    add_memory_counters (rank, first_curve);
  for (guint i = 0; i < problems->len; i++)
    sl_profile_add_problem (loader->profile, g_ptr_array_index (problems, i));
}

/* The export's memory tables, unless the text files of the same rank
 * were read already. */
static void
read_db_memory (SlProfileRank *rank,
                const char    *path,
                GCancellable  *cancellable,
                GPtrArray     *problems)
{
  g_autoptr(SlMemoryProfile) memory = sl_memory_profile_new ();

  if (sl_memory_reader_read_db (memory, path, cancellable, problems) && !sl_memory_profile_is_empty (memory))
    g_set_object (&rank->memory, memory);
}

/* ------------------------------------------------------------------ */
/* Communication */

static void
read_communication_into (Loader          *loader,
                         SlCommunication *comm,
                         const SlProfileFile     *found)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);

  sl_communication_read_file (comm, found->path, loader->cancellable, problems);
  for (guint i = 0; i < problems->len; i++)
    sl_profile_add_problem (loader->profile, g_ptr_array_index (problems, i));
}

/* communication.json, communication_matrix.json, hccl_raw_<id>.csv: the
 * rank's own; both JSON files of a rank go into one object. */
static void
read_communication (Loader        *loader,
                    SlProfileRank *rank,
                    const SlProfileFile   *found)
{
  if (rank->communication == NULL)
    rank->communication = sl_communication_new ();
  read_communication_into (loader, rank->communication, found);
}

static SlProfileRank *
cluster_rank (Loader     *loader,
              const char *dir,
              gint64      rank_id)
{
  g_autofree char *key = g_strdup_printf ("%lld|%s", (long long)rank_id, dir);
  SlProfileRank *rank;

  /* Indexed as ranks are added (the step table adds them too): a
   * cluster file naming 60,000 ranks looked each one up among all the
   * others, minutes in all. */
  for (; loader->n_indexed < sl_profile_get_n_ranks (loader->profile); loader->n_indexed++)
    {
      rank = (SlProfileRank *)sl_profile_get_rank (loader->profile, loader->n_indexed);
      if (rank->layout == SL_PROFILE_LAYOUT_CLUSTER)
        g_hash_table_insert (loader->cluster_ranks, g_strdup_printf ("%lld|%s", (long long)rank->rank_id, rank->dir),
                             rank);
    }
  if ((rank = g_hash_table_lookup (loader->cluster_ranks, key)) != NULL)
    return rank;
  rank = sl_profile_add_rank (loader->profile, dir, SL_PROFILE_LAYOUT_CLUSTER);
  g_free (rank->label);
  rank->label = g_strdup_printf ("rank %lld", (long long)rank_id);
  rank->rank_id = rank_id;
  return rank;
}

/* msprof-analyze's cluster_communication(_matrix).json covers every rank:
 * one object is shared by the ranks of the cluster step table (made
 * here for ranks it lacks); each rank's records are told by rank id. */
static void
read_cluster_communication (Loader      *loader,
                            const SlProfileFile *found)
{
  g_autofree char *dir = g_path_get_dirname (found->path);
  g_autoptr(GHashTable) ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));
  SlCommunication *comm = NULL;

  for (guint i = 0; i < sl_profile_get_n_ranks (loader->profile) && comm == NULL; i++)
    {
      const SlProfileRank *rank = sl_profile_get_rank (loader->profile, i);

      if (rank->layout == SL_PROFILE_LAYOUT_CLUSTER && rank->communication != NULL && g_str_equal (rank->dir, dir))
        comm = rank->communication;
    }
  if (comm == NULL)
    comm = sl_communication_new ();
  else
    g_object_ref (comm);
  read_communication_into (loader, comm, found);

  for (guint i = 0; i < sl_communication_get_n_ops (comm); i++)
    if (sl_communication_get_op (comm, i)->rank_id >= 0)
      g_array_append_val (seen, sl_communication_get_op (comm, i)->rank_id);
  for (guint i = 0; i < sl_communication_get_n_links (comm); i++)
    if (sl_communication_get_link (comm, i)->src >= 0)
      g_array_append_val (seen, sl_communication_get_link (comm, i)->src);
  /* Bounded by the records, and the records by the reader. */
  for (guint i = 0; i < seen->len && g_hash_table_size (ids) < 100000; i++)
    {
      gint64 *id = &g_array_index (seen, gint64, i);
      SlProfileRank *rank;

      if (g_hash_table_contains (ids, id))
        continue;
      g_hash_table_add (ids, id);
      rank = cluster_rank (loader, dir, *id);
      if (rank->communication == NULL)
        rank->communication = g_object_ref (comm);
      if (!g_ptr_array_find_with_equal_func (rank->files, found->path, g_str_equal, NULL))
        g_ptr_array_add (rank->files, g_strdup (found->path));
    }
  g_object_unref (comm);
}

/* ------------------------------------------------------------------ */
/* Putting it together */

static SlProfileRank *
rank_for (Loader      *loader,
          const SlProfileFile *found)
{
  g_autofree char *key = g_strdup_printf ("%d|%s|%lld", found->layout, found->unit_dir, (long long)found->id);
  SlProfileRank *rank = g_hash_table_lookup (loader->ranks, key);

  if (rank != NULL)
    return rank;

  rank = sl_profile_add_rank (loader->profile, found->unit_dir, found->layout);
  if (found->id >= 0)
    {
      g_free (rank->label);
      /* Translators: a device of a MindSpore profile, by the id in its file names */
      rank->label = g_strdup_printf (_("device %lld"), (long long)found->id);
      rank->device_id = found->id;
    }
  g_hash_table_insert (loader->ranks, g_steal_pointer (&key), rank);
  return rank;
}

static void
read_found (Loader      *loader,
            const SlProfileFile *found)
{
  SlProfileRank *rank;

  if (found->kind == SL_PROFILE_FILE_CLUSTER_STEP)
    {
      read_cluster_step_trace (loader, found);
      return;
    }
  if (found->kind == SL_PROFILE_FILE_CLUSTER_COMMUNICATION)
    {
      read_cluster_communication (loader, found);
      return;
    }

  rank = rank_for (loader, found);
  g_ptr_array_add (rank->files, g_strdup (found->path));

  switch (found->kind)
    {
    case SL_PROFILE_FILE_INFO: read_info (loader, rank, found); break;
    case SL_PROFILE_FILE_MS_STEP: read_ms_step_trace (loader, rank, found); break;
    case SL_PROFILE_FILE_MSPROF_STEP: read_msprof_step_trace (loader, rank, found); break;
    case SL_PROFILE_FILE_PT_STEP: read_pt_step_trace (loader, rank, found); break;
    case SL_PROFILE_FILE_MS_AICORE_TYPE: read_ms_aicore_type (loader, rank, found); break;
    case SL_PROFILE_FILE_OP_STATISTIC: read_op_statistic (loader, rank, found); break;
    case SL_PROFILE_FILE_MS_AICORE_DETAIL: read_ms_aicore_detail (loader, rank, found); break;
    case SL_PROFILE_FILE_MS_AICPU: read_ms_aicpu (loader, rank, found); break;
    case SL_PROFILE_FILE_OP_SUMMARY: read_op_summary (loader, rank, found); break;
    case SL_PROFILE_FILE_TASK_TIME: read_task_time (loader, rank, found); break;
    case SL_PROFILE_FILE_MS_FRAMEWORK: read_ms_framework (loader, rank, found); break;
    case SL_PROFILE_FILE_MS_FLOPS: read_ms_flops (loader, rank, found); break;
    case SL_PROFILE_FILE_API_STATISTIC: read_api_statistic (loader, rank, found); break;
    case SL_PROFILE_FILE_MS_TIMELINE_SUMMARY: read_ms_json_summary (loader, rank, found, "timeline"); break;
    case SL_PROFILE_FILE_MS_FLOPS_SUMMARY: read_ms_json_summary (loader, rank, found, "flops"); break;
    case SL_PROFILE_FILE_MEMORY: read_memory (loader, rank, found); break;
    case SL_PROFILE_FILE_COMMUNICATION: read_communication (loader, rank, found); break;
    case SL_PROFILE_FILE_DATABASE:
      {
        g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);

        sl_profile_db_read (found->path, rank, loader->cancellable, problems);
        if (rank->memory == NULL || sl_memory_profile_is_empty (rank->memory))
          read_db_memory (rank, found->path, loader->cancellable, problems);
        for (guint i = 0; i < problems->len; i++)
          sl_profile_add_problem (loader->profile, g_ptr_array_index (problems, i));
      }
      break;
    case SL_PROFILE_FILE_CLUSTER_STEP:
    case SL_PROFILE_FILE_CLUSTER_COMMUNICATION:
    default:
      g_assert_not_reached ();
    }
}

SlProfile *
sl_profile_load (const char             *path,
                 GCancellable           *cancellable,
                 SlProfileProgressFunc   progress,
                 gpointer                progress_data,
                 GError                **error)
{
  return sl_profile_load_parts (path, SL_PROFILE_PARTS_ALL, cancellable, progress, progress_data, error);
}

/* A profiler file opened on its own: say which of the profile's files
 * are not beside it, so the user knows why parts are empty. */
static void
report_single_file (Loader     *loader,
                    const char *path)
{
  g_autoptr(GPtrArray) missing = sl_profiler_layout_list_missing_companions (path);
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *list = NULL;
  g_autofree char *message = NULL;

  if (missing->len == 0)
    return;
  g_ptr_array_add (missing, NULL);
  list = g_strjoinv (", ", (char **)missing->pdata);
  message = g_strdup_printf (_("Only %s was opened; the profile’s other files (%s) are not beside it."), name, list);
  report (loader, SL_SEVERITY_INFO, path, -1, message);
}

SlProfile *
sl_profile_load_parts (const char             *path,
                       SlProfileParts          parts,
                       GCancellable           *cancellable,
                       SlProfileProgressFunc   progress,
                       gpointer                progress_data,
                       GError                **error)
{
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(SlProfile) profile = NULL;
  g_autoptr(GHashTable) ranks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) cluster_ranks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Loader loader;

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s does not exist"), path);
      return NULL;
    }
  found = sl_profile_discover (path, parts == SL_PROFILE_PARTS_SUMMARY, cancellable);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (found->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("No profiler output found in %s"), path);
      return NULL;
    }

  profile = sl_profile_new (path);
  loader.profile = profile;
  loader.cancellable = cancellable;
  loader.ranks = ranks;
  loader.cluster_ranks = cluster_ranks;
  loader.n_indexed = 0;

  for (guint i = 0; i < found->len; i++)
    {
      const SlProfileFile *item = g_ptr_array_index (found, i);

      if (progress != NULL)
        progress (i / (double)found->len, item->path, progress_data);
      read_found (&loader, item);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }

  for (guint i = 0; i < sl_profile_get_n_ranks (profile); i++)
    sl_profile_rank_finish ((SlProfileRank *)sl_profile_get_rank (profile, i));

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    report_single_file (&loader, path);

  if (progress != NULL)
    progress (1.0, path, progress_data);

  return g_steal_pointer (&profile);
}

/* ------------------------------------------------------------------ */
/* Asynchronous loading */

typedef struct {
  char                  *path;
  SlProfileProgressFunc  progress;
  gpointer               progress_data;
  GDestroyNotify         progress_destroy;
  GMainContext          *context;
} LoadData;

typedef struct {
  GTask    *task;     /* keeps the LoadData alive */
  double    fraction;
  char     *path;
} ProgressUpdate;

static void
load_data_free (LoadData *data)
{
  if (data->progress_destroy != NULL)
    data->progress_destroy (data->progress_data);
  g_main_context_unref (data->context);
  g_free (data->path);
  g_free (data);
}

static gboolean
progress_idle_cb (gpointer user_data)
{
  ProgressUpdate *update = user_data;
  LoadData *data = g_task_get_task_data (update->task);

  data->progress (update->fraction, update->path, data->progress_data);
  return G_SOURCE_REMOVE;
}

static void
progress_update_free (gpointer user_data)
{
  ProgressUpdate *update = user_data;

  g_object_unref (update->task);
  g_free (update->path);
  g_free (update);
}

/* Runs in the worker; the update runs in the caller's context. */
static void
forward_progress (double      fraction,
                  const char *path,
                  gpointer    user_data)
{
  GTask *task = user_data;
  LoadData *data = g_task_get_task_data (task);
  ProgressUpdate *update;

  if (data->progress == NULL)
    return;

  update = g_new0 (ProgressUpdate, 1);
  update->task = g_object_ref (task);
  update->fraction = fraction;
  update->path = g_strdup (path);
  sl_main_context_dispatch (data->context, progress_idle_cb, update, progress_update_free);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  GError *error = NULL;
  SlProfile *profile = sl_profile_load (data->path, cancellable, forward_progress, task, &error);

  if (profile == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, profile, g_object_unref);
}

void
sl_profile_load_async (const char             *path,
                       GCancellable           *cancellable,
                       SlProfileProgressFunc   progress,
                       gpointer                progress_data,
                       GDestroyNotify          progress_destroy,
                       GAsyncReadyCallback     callback,
                       gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (path != NULL);

  data = g_new0 (LoadData, 1);
  data->path = g_strdup (path);
  data->progress = progress;
  data->progress_data = progress_data;
  data->progress_destroy = progress_destroy;
  data->context = g_main_context_ref_thread_default ();

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_profile_load_async);
  g_task_set_task_data (task, data, (GDestroyNotify)load_data_free);
  g_task_run_in_thread (task, load_thread);
}

SlProfile *
sl_profile_load_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Timeline files */

/**
 * sl_profile_list_timeline_files:
 *
 * Returns: (transfer full): paths (char *), possibly empty
 */
GPtrArray *
sl_profile_list_timeline_files (const char *path)
{
  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (path != NULL, g_ptr_array_new_with_free_func (g_free));

  return sl_profile_discover_timelines (path);
}
