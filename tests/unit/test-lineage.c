/* test-lineage.c: the lineage table of a folder of runs
 *
 * Fixtures are written with SlSummaryWriter, or by hand-encoding events
 * (user-defined info, TensorBoard HParams), into a temporary folder.
 * The CLI's JSON and CSV are read back with json-glib and a CSV reader
 * written here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sl-lineage-table.h"
#include "sl-record-writer.h"
#include "sl-summary-writer.h"

static const char *cli_path;

/* ------------------------------------------------------------------ */
/* Wire encoding for hand-made events                                  */
/* ------------------------------------------------------------------ */

static void
put_varint (GByteArray *out,
            guint64     value)
{
  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value != 0)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
  while (value != 0);
}

static void
put_key (GByteArray *out,
         guint       field,
         guint       wire_type)
{
  put_varint (out, (field << 3) | wire_type);
}

static void
put_fixed (GByteArray *out,
           guint       field,
           guint       wire_type,
           guint64     bits,
           guint       n_bytes)
{
  guint8 bytes[8];

  for (guint i = 0; i < n_bytes; i++)
    bytes[i] = bits >> (8 * i);
  put_key (out, field, wire_type);
  g_byte_array_append (out, bytes, n_bytes);
}

static void
put_double (GByteArray *out,
            guint       field,
            double      value)
{
  guint64 bits;

  memcpy (&bits, &value, 8);
  put_fixed (out, field, 1, bits, 8);
}

static void
put_float (GByteArray *out,
           guint       field,
           float       value)
{
  guint32 bits;

  memcpy (&bits, &value, 4);
  put_fixed (out, field, 5, bits, 4);
}

static void
put_string (GByteArray *out,
            guint       field,
            const char *text)
{
  put_key (out, field, 2);
  put_varint (out, strlen (text));
  g_byte_array_append (out, (const guint8 *) text, strlen (text));
}

static void
put_message (GByteArray *out,
             guint       field,
             GByteArray *message)
{
  put_key (out, field, 2);
  put_varint (out, message->len);
  g_byte_array_append (out, message->data, message->len);
}

static char *
make_temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("sl-lineage-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static char *
make_run_dir (const char *parent,
              const char *name)
{
  char *path = g_build_filename (parent, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
  return path;
}

static gsize
append_record (const char   *path,
               const guint8 *payload,
               gsize         len)
{
  g_autoptr(GBytes) frame = sl_record_frame (payload, len);
  gsize frame_len, offset = 0;
  const guint8 *data = g_bytes_get_data (frame, &frame_len);
  GStatBuf st;
  FILE *f;

  if (g_stat (path, &st) == 0)
    offset = st.st_size;
  f = fopen (path, "ab");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (data, 1, frame_len, f), ==, frame_len);
  fclose (f);
  return offset;
}

/* LineageEvent { wall_time 1, user_defined_info 10 { map_str 4 { key, value } } } */
static void
append_user_info (const char *path,
                  const char *key,
                  const char *value)
{
  g_autoptr(GByteArray) entry = g_byte_array_new ();
  g_autoptr(GByteArray) info = g_byte_array_new ();
  g_autoptr(GByteArray) event = g_byte_array_new ();

  put_string (entry, 1, key);
  put_string (entry, 2, value);
  put_message (info, 4, entry);
  put_double (event, 1, 1700000000.0);
  put_message (event, 10, info);
  append_record (path, event->data, event->len);
}

typedef struct {
  const char *name;
  const char *optimizer;
  float       learning_rate;
  int         batch_size;
  const char *metric;
} RunSpec;

static void
write_train (const char *dir,
             gint64      timestamp,
             const char *optimizer,
             float       learning_rate,
             int         batch_size,
             float       loss)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlSummaryWriter) writer = sl_summary_writer_new (dir, timestamp, "host", &error);

  g_assert_no_error (error);
  g_assert_true (sl_summary_writer_add_train_lineage (writer, 1700000000.0, optimizer, learning_rate,
                                                      "SoftmaxCrossEntropyWithLogits", 10, batch_size,
                                                      "LeNet5", loss, &error));
  g_assert_true (sl_summary_writer_close (writer, &error));
  g_assert_no_error (error);
}

static char *
write_eval (const char *dir,
            gint64      timestamp,
            const char *metric,
            int         valid_size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlSummaryWriter) writer = sl_summary_writer_new (dir, timestamp, "host", &error);

  g_assert_no_error (error);
  g_assert_true (sl_summary_writer_add_eval_lineage (writer, 1700000001.0, metric, "/data/valid", valid_size, &error));
  g_assert_true (sl_summary_writer_close (writer, &error));
  return g_strdup (sl_summary_writer_get_lineage_path (writer));
}

static SlLineageTable *
load (const char *dir)
{
  g_autoptr(GError) error = NULL;
  SlLineageTable *table = sl_lineage_table_load (dir, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (table);
  return table;
}

static const char *
value_of (SlLineageTable *table,
          const char     *run,
          const char     *column)
{
  gint r = sl_lineage_table_find_run (table, run);
  gint c = sl_lineage_table_find_column (table, column);

  g_assert_cmpint (r, >=, 0);
  if (c < 0)
    return NULL;
  return sl_lineage_table_get_text (table, r, c);
}

/* ------------------------------------------------------------------ */
/* Joins and the last event                                            */
/* ------------------------------------------------------------------ */

/* Train and evaluation lineage in two files of one run are one row; of
 * two train events the later wins; user-defined values add up. */
static void
test_join_and_last_wins (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *a = make_run_dir (dir, "run_a");
  g_autofree char *b = make_run_dir (dir, "run_b");
  g_autofree char *c = make_run_dir (dir, "no_lineage");
  g_autofree char *eval_path = NULL;
  g_autoptr(SlLineageTable) table = NULL;
  const SlLineageColumn *column;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SlSummaryWriter) writer = sl_summary_writer_new (a, 100, "host", &error);

    g_assert_true (sl_summary_writer_add_train_lineage (writer, 1.0, "SGD", 0.1f, "L1", 5, 16, "Net", 2.5f, &error));
    g_assert_true (sl_summary_writer_add_train_lineage (writer, 2.0, "Adam", 0.01f, "L1", 5, 64, "Net", 0.5f, &error));
    g_assert_true (sl_summary_writer_close (writer, &error));
    append_user_info (sl_summary_writer_get_lineage_path (writer), "seed", "7");
    append_user_info (sl_summary_writer_get_lineage_path (writer), "owner", "first");
    append_user_info (sl_summary_writer_get_lineage_path (writer), "owner", "second");
  }
  eval_path = write_eval (a, 101, "{\"Accuracy\": 0.9, \"top5\": 0.99, \"note\": \"ok\", \"skip\": null}", 1000);
  write_train (b, 100, "Momentum", 0.001f, 32, 1.25f);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SlSummaryWriter) writer = sl_summary_writer_new (c, 100, "host", &error);

    g_assert_true (sl_summary_writer_add_scalar (writer, 1, 1.0, "loss", 1.0f, &error));
    g_assert_true (sl_summary_writer_close (writer, &error));
  }

  table = load (dir);
  g_assert_cmpuint (sl_lineage_table_get_n_runs (table), ==, 2);
  g_assert_cmpint (sl_lineage_table_find_run (table, "no_lineage"), ==, -1);

  g_assert_cmpstr (value_of (table, "run_a", "hyperparameters/optimizer"), ==, "Adam");
  g_assert_cmpstr (value_of (table, "run_a", "hyperparameters/learning_rate"), ==, "0.01");
  g_assert_cmpstr (value_of (table, "run_a", "hyperparameters/batch_size"), ==, "64");
  g_assert_cmpstr (value_of (table, "run_a", "metrics/loss"), ==, "0.5");
  g_assert_cmpstr (value_of (table, "run_a", "metrics/Accuracy"), ==, "0.9");
  g_assert_cmpstr (value_of (table, "run_a", "metrics/note"), ==, "ok");
  g_assert_null (value_of (table, "run_a", "metrics/skip"));
  g_assert_cmpstr (value_of (table, "run_a", "dataset/valid_dataset_size"), ==, "1000");
  g_assert_cmpstr (value_of (table, "run_a", "dataset/valid_dataset_path"), ==, "/data/valid");
  g_assert_cmpstr (value_of (table, "run_a", "user_defined/seed"), ==, "7");
  g_assert_cmpstr (value_of (table, "run_a", "user_defined/owner"), ==, "second");
  g_assert_cmpstr (value_of (table, "run_b", "hyperparameters/learning_rate"), ==, "0.001");
  g_assert_null (value_of (table, "run_b", "metrics/Accuracy"));

  /* Typing: numbers where every value is one. */
  column = sl_lineage_table_get_column (table, sl_lineage_table_find_column (table, "hyperparameters/learning_rate"));
  g_assert_cmpint (column->type, ==, SL_LINEAGE_COLUMN_NUMERIC);
  g_assert_cmpfloat_with_epsilon (column->min, 0.001, 1e-9);
  g_assert_cmpfloat_with_epsilon (column->max, 0.01, 1e-9);
  g_assert_cmpuint (column->n_values, ==, 2);
  column = sl_lineage_table_get_column (table, sl_lineage_table_find_column (table, "hyperparameters/optimizer"));
  g_assert_cmpint (column->type, ==, SL_LINEAGE_COLUMN_CATEGORICAL);
  g_assert_cmpuint (column->categories->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (column->categories, 0), ==, "Adam");
  column = sl_lineage_table_get_column (table, sl_lineage_table_find_column (table, "metrics/Accuracy"));
  g_assert_cmpint (column->type, ==, SL_LINEAGE_COLUMN_NUMERIC);
  g_assert_cmpuint (column->n_values, ==, 1);
  g_assert_cmpint (sl_lineage_table_get_column (table, 0)->group, ==, SL_LINEAGE_GROUP_HYPERPARAMETERS);
  g_assert_cmpint (sl_lineage_table_find_column (table, "model/size"), ==, -1);
  g_assert_cmpuint (sl_lineage_table_get_problems (table)->len, ==, 0);
  g_assert_true (g_file_test (eval_path, G_FILE_TEST_EXISTS));

  remove_tree (dir);
}

/* A flipped byte: the record is reported at its offset and the others
 * are kept; a metric that is not a JSON object is said, naming the run. */
static void
test_damaged_files (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *a = make_run_dir (dir, "run_a");
  g_autofree char *path = g_build_filename (a, "events.out.events.summary.5.host_lineage", NULL);
  g_autoptr(SlLineageTable) table = NULL;
  g_autofree char *data = NULL;
  gsize len, damaged_at;
  SlProblem *problem = NULL;

  append_user_info (path, "first", "kept");
  damaged_at = append_record (path, (const guint8 *) "\x09\0\0\0\0\0\0\0\0", 9);
  append_user_info (path, "last", "kept");
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  data[damaged_at + 12 + 3] ^= 0x40;   /* inside the second payload */
  g_assert_true (g_file_set_contents (path, data, len, NULL));
  g_free (write_eval (a, 6, "[1, 2]", 10));

  table = load (dir);
  g_assert_cmpuint (sl_lineage_table_get_n_runs (table), ==, 1);
  g_assert_cmpstr (value_of (table, "run_a", "user_defined/first"), ==, "kept");
  g_assert_cmpstr (value_of (table, "run_a", "user_defined/last"), ==, "kept");
  g_assert_cmpstr (value_of (table, "run_a", "dataset/valid_dataset_size"), ==, "10");
  g_assert_cmpuint (sl_lineage_table_get_problems (table)->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      SlProblem *p = g_ptr_array_index (sl_lineage_table_get_problems (table), i);

      if (g_str_equal (sl_problem_get_path (p), path))
        problem = p;
      else
        g_assert_nonnull (strstr (sl_problem_get_message (p), "run_a"));
    }
  g_assert_nonnull (problem);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, damaged_at);

  remove_tree (dir);
}

/* ------------------------------------------------------------------ */
/* TensorBoard HParams                                                 */
/* ------------------------------------------------------------------ */

static GByteArray *
hparams_value_event (GByteArray *plugin_content)
{
  g_autoptr(GByteArray) plugin = g_byte_array_new ();
  g_autoptr(GByteArray) metadata = g_byte_array_new ();
  g_autoptr(GByteArray) value = g_byte_array_new ();
  g_autoptr(GByteArray) summary = g_byte_array_new ();
  GByteArray *event = g_byte_array_new ();

  put_string (plugin, 1, "hparams");
  put_message (plugin, 2, plugin_content);
  put_message (metadata, 1, plugin);
  put_string (value, 1, "_hparams_/session_start_info");
  put_message (value, 9, metadata);
  put_message (summary, 1, value);
  put_double (event, 1, 1700000000.0);
  put_message (event, 5, summary);
  return event;
}

static void
append_scalar (const char *path,
               const char *tag,
               gint64      step,
               float       value)
{
  g_autoptr(GByteArray) entry = g_byte_array_new ();
  g_autoptr(GByteArray) summary = g_byte_array_new ();
  g_autoptr(GByteArray) event = g_byte_array_new ();

  put_string (entry, 1, tag);
  put_float (entry, 2, value);
  put_message (summary, 1, entry);
  put_double (event, 1, 1700000000.0 + step);
  put_key (event, 2, 0);
  put_varint (event, step);
  put_message (event, 5, summary);
  append_record (path, event->data, event->len);
}

/* map<string, Value> entry: key 1, value 2 { number 2 | string 3 | bool 4 } */
static void
put_hparam (GByteArray *start,
            const char *key,
            guint       kind,
            double      number,
            const char *text)
{
  g_autoptr(GByteArray) value = g_byte_array_new ();
  g_autoptr(GByteArray) entry = g_byte_array_new ();

  if (kind == 2)
    put_double (value, 2, number);
  else if (kind == 3)
    put_string (value, 3, text);
  else
    {
      put_key (value, 4, 0);
      put_varint (value, number != 0);
    }
  put_string (entry, 1, key);
  put_message (entry, 2, value);
  put_message (start, 1, entry);
}

static void
write_session (const char *dir,
               double      lr,
               const char *optimizer,
               gboolean    dropout,
               float       accuracy)
{
  g_autofree char *path = g_build_filename (dir, "events.out.tfevents.1700000000.host", NULL);
  g_autoptr(GByteArray) start = g_byte_array_new ();
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(GByteArray) event = NULL;

  put_hparam (start, "lr", 2, lr, NULL);
  put_hparam (start, "optimizer", 3, 0, optimizer);
  put_hparam (start, "dropout", 4, dropout, NULL);
  put_key (data, 1, 0);
  put_varint (data, 0);
  put_message (data, 3, start);
  event = hparams_value_event (data);
  append_record (path, event->data, event->len);
  append_scalar (path, "accuracy", 1, accuracy / 2);
  append_scalar (path, "accuracy", 2, accuracy);
  append_scalar (path, "loss", 2, 1 - accuracy);
}

/* The experiment at the top names accuracy as the metric: loss is not
 * one; hyperparameters keep their kinds. */
static void
test_hparams (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *s1 = make_run_dir (dir, "session_1");
  g_autofree char *s2 = make_run_dir (dir, "session_2");
  g_autofree char *s3 = make_run_dir (dir, "session_3");
  g_autofree char *root_file = g_build_filename (dir, "events.out.tfevents.1700000000.host", NULL);
  g_autofree char *bad_file = g_build_filename (s3, "events.out.tfevents.1700000000.host", NULL);
  g_autoptr(SlLineageTable) table = NULL;
  const SlLineageColumn *column;

  {
    g_autoptr(GByteArray) tag = g_byte_array_new ();
    g_autoptr(GByteArray) name = g_byte_array_new ();
    g_autoptr(GByteArray) info = g_byte_array_new ();
    g_autoptr(GByteArray) experiment = g_byte_array_new ();
    g_autoptr(GByteArray) data = g_byte_array_new ();
    g_autoptr(GByteArray) event = NULL;

    put_string (tag, 2, "accuracy");
    put_message (info, 1, tag);
    put_string (info, 3, "Accuracy");
    put_message (experiment, 5, info);
    put_message (data, 2, experiment);
    event = hparams_value_event (data);
    append_record (root_file, event->data, event->len);
    (void) name;
  }
  write_session (s1, 0.01, "adam", TRUE, 0.5f);
  write_session (s2, 0.1, "sgd", FALSE, 0.75f);
  {
    /* A map entry whose length runs past the message. */
    g_autoptr(GByteArray) data = g_byte_array_new ();
    g_autoptr(GByteArray) event = NULL;

    put_key (data, 3, 2);
    put_varint (data, 40);
    put_string (data, 1, "lr");
    event = hparams_value_event (data);
    append_record (bad_file, event->data, event->len);
  }

  table = load (dir);
  g_assert_cmpuint (sl_lineage_table_get_n_runs (table), ==, 2);
  g_assert_cmpstr (value_of (table, "session_1", "hyperparameters/lr"), ==, "0.01");
  g_assert_cmpstr (value_of (table, "session_1", "hyperparameters/optimizer"), ==, "adam");
  g_assert_cmpstr (value_of (table, "session_1", "hyperparameters/dropout"), ==, "true");
  g_assert_cmpstr (value_of (table, "session_2", "hyperparameters/dropout"), ==, "false");
  g_assert_cmpstr (value_of (table, "session_1", "metrics/accuracy"), ==, "0.5");
  g_assert_cmpstr (value_of (table, "session_2", "metrics/accuracy"), ==, "0.75");
  g_assert_cmpint (sl_lineage_table_find_column (table, "metrics/loss"), ==, -1);
  column = sl_lineage_table_get_column (table, sl_lineage_table_find_column (table, "hyperparameters/lr"));
  g_assert_cmpint (column->type, ==, SL_LINEAGE_COLUMN_NUMERIC);
  column = sl_lineage_table_get_column (table, sl_lineage_table_find_column (table, "hyperparameters/dropout"));
  g_assert_cmpint (column->type, ==, SL_LINEAGE_COLUMN_CATEGORICAL);

  /* The damaged session is said, at its record. */
  g_assert_cmpuint (sl_lineage_table_get_problems (table)->len, ==, 1);
  g_assert_cmpstr (sl_problem_get_path (g_ptr_array_index (sl_lineage_table_get_problems (table), 0)), ==, bad_file);
  g_assert_cmpint (sl_problem_get_offset (g_ptr_array_index (sl_lineage_table_get_problems (table), 0)), ==, 0);

  remove_tree (dir);
}

/* Without an experiment every scalar tag of a session is a metric. */
static void
test_hparams_without_experiment (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *s1 = make_run_dir (dir, "session_1");
  g_autoptr(SlLineageTable) table = NULL;

  write_session (s1, 0.5, "adam", TRUE, 0.25f);
  table = load (dir);
  g_assert_cmpuint (sl_lineage_table_get_n_runs (table), ==, 1);
  g_assert_cmpstr (value_of (table, "session_1", "metrics/accuracy"), ==, "0.25");
  g_assert_cmpstr (value_of (table, "session_1", "metrics/loss"), ==, "0.75");

  remove_tree (dir);
}

/* ------------------------------------------------------------------ */
/* Importance and filters                                              */
/* ------------------------------------------------------------------ */

static void
test_correlations (void)
{
  const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 1, 4, 3, 5 };
  const double tx[] = { 1, 1, 2, 3 }, ty[] = { 1, 2, 3, 4 };
  const double cx[] = { 1, 2, 3, 4, 5, 6 }, cy[] = { 1, 8, 27, 64, 125, 216 };
  const double flat[] = { 3, 3, 3, 3 };

  g_assert_cmpfloat_with_epsilon (sl_lineage_pearson (x, y, 5), 0.8, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_lineage_spearman (x, y, 5), 0.8, 1e-12);
  /* Ties share their average rank (as scipy.stats.spearmanr). */
  g_assert_cmpfloat_with_epsilon (sl_lineage_pearson (tx, ty, 4), 0.9438798074485389, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_lineage_spearman (tx, ty, 4), 0.9486832980505138, 1e-12);
  /* Monotone but not linear. */
  g_assert_cmpfloat_with_epsilon (sl_lineage_pearson (cx, cy, 6), 0.9379313244517968, 1e-12);
  g_assert_cmpfloat_with_epsilon (sl_lineage_spearman (cx, cy, 6), 1.0, 1e-12);
  g_assert_true (isnan (sl_lineage_pearson (flat, ty, 4)));
  g_assert_true (isnan (sl_lineage_spearman (flat, ty, 4)));
  g_assert_true (isnan (sl_lineage_pearson (x, y, 1)));
}

static SlLineageTable *
make_table (guint n_runs)
{
  SlLineageTable *table = sl_lineage_table_new ();
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < n_runs; i++)
    {
      g_autofree char *name = g_strdup_printf ("run_%u", i);
      g_autoptr(SlLineageRun) run = sl_lineage_run_new (name, name);
      double lr = 0.001 * (i + 1);

      sl_lineage_run_set (run, SL_LINEAGE_GROUP_HYPERPARAMETERS, "learning_rate", g_ascii_dtostr (buf, sizeof buf, lr));
      sl_lineage_run_set (run, SL_LINEAGE_GROUP_HYPERPARAMETERS, "optimizer", i % 2 ? "Adam" : "SGD");
      /* Noise that does not follow the accuracy. */
      sl_lineage_run_set (run, SL_LINEAGE_GROUP_HYPERPARAMETERS, "seed", (const char *[]) { "3", "1", "4", "1", "5", "9", "2", "6" }[i % 8]);
      sl_lineage_run_set (run, SL_LINEAGE_GROUP_HYPERPARAMETERS, "epoch", "10");
      sl_lineage_run_set (run, SL_LINEAGE_GROUP_METRICS, "Accuracy", g_ascii_dtostr (buf, sizeof buf, 0.5 + 10 * lr));
      if (i != 2)
        sl_lineage_run_set (run, SL_LINEAGE_GROUP_USER_DEFINED, "tag", i < 3 ? "baseline" : "new");
      sl_lineage_table_add_run (table, run);
    }
  sl_lineage_table_update_columns (table);
  return table;
}

static void
test_importance (void)
{
  g_autoptr(SlLineageTable) table = make_table (6);
  g_autoptr(SlLineageTable) few = make_table (4);
  g_autoptr(GArray) importance = NULL;
  g_autoptr(GArray) few_importance = NULL;
  gint target = sl_lineage_table_find_column (table, "metrics/Accuracy");
  const SlLineageImportance *first, *last;

  importance = sl_lineage_table_compute_importance (table, target, FALSE);
  /* learning_rate, seed and epoch: optimizer and tag are categories. */
  g_assert_cmpuint (importance->len, ==, 3);
  first = &g_array_index (importance, SlLineageImportance, 0);
  g_assert_cmpint (first->column, ==, sl_lineage_table_find_column (table, "hyperparameters/learning_rate"));
  g_assert_cmpfloat_with_epsilon (first->pearson, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (first->spearman, 1.0, 1e-9);
  g_assert_cmpuint (first->n_runs, ==, 6);
  g_assert_true (first->enough);
  /* seed = 3 1 4 1 5 9 against a rising accuracy: rho on averaged ranks. */
  g_assert_cmpint (g_array_index (importance, SlLineageImportance, 1).column, ==,
                   sl_lineage_table_find_column (table, "hyperparameters/seed"));
  g_assert_cmpfloat_with_epsilon (g_array_index (importance, SlLineageImportance, 1).spearman,
                                  0.6667366910003157, 1e-9);
  last = &g_array_index (importance, SlLineageImportance, 2);
  g_assert_cmpint (last->column, ==, sl_lineage_table_find_column (table, "hyperparameters/epoch"));
  g_assert_true (isnan (last->pearson));

  few_importance = sl_lineage_table_compute_importance (few, sl_lineage_table_find_column (few, "metrics/Accuracy"), FALSE);
  g_assert_cmpuint (few_importance->len, >, 0);
  g_assert_false (g_array_index (few_importance, SlLineageImportance, 0).enough);
  g_assert_cmpuint (g_array_index (few_importance, SlLineageImportance, 0).n_runs, ==, 4);
}

static void
test_filters (void)
{
  g_autoptr(SlLineageTable) table = make_table (6);
  guint lr = sl_lineage_table_find_column (table, "hyperparameters/learning_rate");
  guint optimizer = sl_lineage_table_find_column (table, "hyperparameters/optimizer");
  guint tag = sl_lineage_table_find_column (table, "user_defined/tag");
  const char *adam[] = { "Adam", NULL };
  const char *tags[] = { "baseline", "new", NULL };
  double min, max;

  g_assert_cmpuint (sl_lineage_table_count_passing (table), ==, 6);

  sl_lineage_table_set_range_filter (table, lr, 0.0045, 0.0015);   /* either order */
  g_assert_true (sl_lineage_table_get_range_filter (table, lr, &min, &max));
  g_assert_cmpfloat (min, ==, 0.0015);
  g_assert_cmpuint (sl_lineage_table_count_passing (table), ==, 3);     /* 0.002 0.003 0.004 */
  g_assert_false (sl_lineage_table_run_passes (table, 0));
  g_assert_true (sl_lineage_table_run_passes (table, 1));

  sl_lineage_table_set_value_filter (table, optimizer, adam);
  g_assert_cmpuint (sl_lineage_table_count_passing (table), ==, 2);     /* runs 1 and 3 */
  g_assert_true (sl_lineage_table_run_passes (table, 3));
  g_assert_false (sl_lineage_table_get_range_filter (table, optimizer, NULL, NULL));

  /* The filtered importance counts only the runs that pass. */
  {
    g_autoptr(GArray) importance = sl_lineage_table_compute_importance (table, sl_lineage_table_find_column (table, "metrics/Accuracy"), TRUE);

    g_assert_cmpuint (g_array_index (importance, SlLineageImportance, 0).n_runs, ==, 2);
  }

  sl_lineage_table_clear_filter (table, lr);
  g_assert_false (sl_lineage_table_has_filter (table, lr));
  g_assert_cmpuint (sl_lineage_table_count_passing (table), ==, 3);     /* 1 3 5 */

  /* A run without a value fails the filter on its column. */
  sl_lineage_table_clear_filters (table);
  sl_lineage_table_set_value_filter (table, tag, tags);
  g_assert_cmpuint (sl_lineage_table_count_passing (table), ==, 5);
  g_assert_false (sl_lineage_table_run_passes (table, 2));

  /* Sorting puts runs without a value last, numbers by value. */
  g_assert_cmpint (sl_lineage_table_compare_runs (table, tag, 2, 0), >, 0);
  g_assert_cmpint (sl_lineage_table_compare_runs (table, tag, 0, 2), <, 0);
  g_assert_cmpint (sl_lineage_table_compare_runs (table, lr, 5, 1), >, 0);
  g_assert_cmpint (sl_lineage_table_compare_runs (table, optimizer, 1, 0), <, 0);
}

/* ------------------------------------------------------------------ */
/* The CLI, read back                                                  */
/* ------------------------------------------------------------------ */

static char *
run_cli (const char *format,
         const char *dir,
         int        *status)
{
  g_autoptr(GError) error = NULL;
  const char *argv[] = { cli_path, "lineage", format, dir, NULL };
  char *out = NULL;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, status, &error));
  g_assert_no_error (error);
  return out;
}

/* RFC 4180 rows: quoted fields may hold commas, quotes and line breaks. */
static GPtrArray *
parse_csv (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (field, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (!quoted && (*p == ',' || *p == '\n'))
        {
          g_ptr_array_add (row, g_strdup (field->str));
          g_string_truncate (field, 0);
          if (*p == '\n')
            {
              g_ptr_array_add (rows, row);
              row = g_ptr_array_new_with_free_func (g_free);
            }
        }
      else
        g_string_append_c (field, *p);
    }
  g_ptr_array_unref (row);
  g_string_free (field, TRUE);
  return rows;
}

static void
test_cli (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *a = make_run_dir (dir, "run_a");
  g_autofree char *b = make_run_dir (dir, "run_b");
  g_autofree char *json_text = NULL;
  g_autofree char *csv_text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  JsonObject *root, *run;
  JsonArray *runs;
  GPtrArray *header, *row;
  int status;
  gint name_at = -1, metric_at = -1, network_at = -1;

  write_train (a, 100, "Adam", 0.01f, 64, 0.5f);
  g_free (write_eval (a, 101, "{\"Accuracy\": 0.9, \"note\": \"a, \\\"quoted\\\" one\"}", 100));
  write_train (b, 100, "SGD", 0.1f, 32, 0.75f);

  json_text = run_cli ("--json", dir, &status);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_data (parser, json_text, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  runs = json_object_get_array_member (root, "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==, 2);
  run = json_array_get_object_element (runs, 0);
  g_assert_cmpstr (json_object_get_string_member (run, "name"), ==, "run_a");
  for (guint g = 0; g < SL_LINEAGE_N_GROUPS; g++)
    g_assert_true (json_object_has_member (run, sl_lineage_group_to_string (g)));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (run, "hyperparameters"),
                                                                 "learning_rate"), 0.01, 1e-12);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (run, "hyperparameters"), "batch_size"), ==, 64);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (run, "hyperparameters"), "optimizer"), ==, "Adam");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (run, "metrics"), "Accuracy"),
                                  0.9, 1e-12);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (run, "dataset"), "valid_dataset_size"), ==, 100);
  g_assert_false (json_object_has_member (json_object_get_object_member (json_array_get_object_element (runs, 1), "metrics"),
                                          "Accuracy"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "problems")), ==, 0);

  csv_text = run_cli ("--csv", dir, &status);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  rows = parse_csv (csv_text);
  g_assert_cmpuint (rows->len, ==, 3);
  header = g_ptr_array_index (rows, 0);
  for (guint i = 0; i < header->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (header, i), "name"))
        name_at = i;
      if (g_str_equal (g_ptr_array_index (header, i), "metrics/note"))
        metric_at = i;
      if (g_str_equal (g_ptr_array_index (header, i), "hyperparameters/network"))
        network_at = i;
    }
  g_assert_cmpint (name_at, ==, 0);
  g_assert_cmpint (metric_at, >, 0);
  row = g_ptr_array_index (rows, 1);
  g_assert_cmpuint (row->len, ==, header->len);
  g_assert_cmpstr (g_ptr_array_index (row, 0), ==, "run_a");
  g_assert_cmpstr (g_ptr_array_index (row, metric_at), ==, "a, \"quoted\" one");
  g_assert_cmpstr (g_ptr_array_index (row, network_at), ==, "LeNet5");
  row = g_ptr_array_index (rows, 2);
  g_assert_cmpstr (g_ptr_array_index (row, metric_at), ==, "");

  /* A path that is not there. */
  g_free (run_cli ("--json", "/nonexistent/lineage", &status));
  g_assert_false (g_spawn_check_wait_status (status, NULL));

  remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  cli_path = argc > 1 ? argv[1] : NULL;

  g_test_add_func ("/lineage/join-and-last-wins", test_join_and_last_wins);
  g_test_add_func ("/lineage/damaged-files", test_damaged_files);
  g_test_add_func ("/lineage/hparams", test_hparams);
  g_test_add_func ("/lineage/hparams-without-experiment", test_hparams_without_experiment);
  g_test_add_func ("/lineage/correlations", test_correlations);
  g_test_add_func ("/lineage/importance", test_importance);
  g_test_add_func ("/lineage/filters", test_filters);
  if (cli_path != NULL)
    g_test_add_func ("/lineage/cli", test_cli);

  return g_test_run ();
}
