/* test-detector.c: the folder detector on fixtures written here
 *
 * Every fixture is generated in a temporary folder: event files are
 * framed with SlRecordWriter, the database is made with SQLite and the
 * gzip trace with zlib.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <zlib.h>
#ifdef G_OS_UNIX
# include <sys/stat.h>
# include <sys/types.h>
#endif

#include "sl-detector.h"
#include "sl-record-writer.h"
#include "sl-sniffer.h"
#include "sl-trace-skimmer.h"

typedef struct {
  char *dir;
} Fixture;

/* ------------------------------------------------------------------ */
/* Fixture writers                                                     */
/* ------------------------------------------------------------------ */

/* A boolean detail is a boolean, not only the text "yes" or "no" */
static void
assert_boolean_detail (SlFinding  *finding,
                       const char *key,
                       gboolean    expected)
{
  gboolean value = !expected;

  g_assert_true (sl_finding_lookup_boolean_detail (finding, key, &value));
  g_assert_cmpint (value, ==, expected);
}

static void
test_boolean_detail (void)
{
  g_autoptr(SlFinding) finding = sl_finding_new (SL_FINDING_TENSOR, "/data/a.npy", "a.npy");
  g_autoptr(SlFinding) restored = sl_finding_new (SL_FINDING_TENSOR, "/data/a.npy", "a.npy");
  gboolean value = FALSE;
  const char *key = NULL;
  const char *text = NULL;

  sl_finding_add_detail (finding, "dtype", "<f4");
  sl_finding_add_boolean_detail (finding, SL_FINDING_DETAIL_FORTRAN_ORDER, TRUE);
  sl_finding_add_detail (finding, "compressed", "no");

  /* A text detail is not a boolean, even when it reads "no" */
  g_assert_false (sl_finding_detail_is_boolean (finding, 0));
  g_assert_true (sl_finding_detail_is_boolean (finding, 1));
  g_assert_false (sl_finding_detail_is_boolean (finding, 2));
  g_assert_false (sl_finding_detail_is_boolean (finding, 3));
  g_assert_false (sl_finding_lookup_boolean_detail (finding, "compressed", &value));
  g_assert_false (sl_finding_lookup_boolean_detail (finding, "dtype", NULL));
  g_assert_false (sl_finding_lookup_boolean_detail (finding, SL_FINDING_DETAIL_HAS_LINEAGE, NULL));
  assert_boolean_detail (finding, SL_FINDING_DETAIL_FORTRAN_ORDER, TRUE);

  /* Its text form is what is stored and printed */
  g_assert_true (sl_finding_get_detail (finding, 1, &key, &text));
  g_assert_cmpstr (key, ==, SL_FINDING_DETAIL_FORTRAN_ORDER);
  g_assert_cmpstr (text, ==, "yes");

  /* Read back from that text form, it is a boolean again; other text is not */
  sl_finding_add_detail (restored, SL_FINDING_DETAIL_FORTRAN_ORDER, "no");
  sl_finding_add_detail (restored, SL_FINDING_DETAIL_HAS_LINEAGE, "maybe");
  assert_boolean_detail (restored, SL_FINDING_DETAIL_FORTRAN_ORDER, FALSE);
  g_assert_false (sl_finding_lookup_boolean_detail (restored, SL_FINDING_DETAIL_HAS_LINEAGE, &value));
  g_assert_cmpstr (sl_finding_lookup_detail (restored, SL_FINDING_DETAIL_HAS_LINEAGE), ==, "maybe");
}

static char *
fixture_path (Fixture    *fixture,
              const char *relative)
{
  return g_build_filename (fixture->dir, relative, NULL);
}

static void
ensure_parent (const char *path)
{
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
}

static char *
write_file (Fixture    *fixture,
            const char *relative,
            const void *data,
            gsize       len)
{
  g_autoptr(GError) error = NULL;
  char *path = fixture_path (fixture, relative);

  ensure_parent (path);
  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);

  return path;
}

static char *
write_text (Fixture    *fixture,
            const char *relative,
            const char *text)
{
  return write_file (fixture, relative, text, strlen (text));
}

/* Event { wall_time: 1.5, version: @version } */
static GBytes *
version_event (const char *version)
{
  GByteArray *event = g_byte_array_new ();
  const guint8 wall_time[] = { 0x09, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f };
  guint8 tag[2] = { 0x1a, strlen (version) };

  g_byte_array_append (event, wall_time, sizeof wall_time);
  g_byte_array_append (event, tag, 2);
  g_byte_array_append (event, (const guint8 *)version, strlen (version));

  return g_byte_array_free_to_bytes (event);
}

/* Event { wall_time: 2.0, step: @step, summary: { value { tag: "loss", scalar_value: 0.5 } } } */
static GBytes *
scalar_event (guint8 step)
{
  const guint8 event[] = {
    0x09, 0, 0, 0, 0, 0, 0, 0, 0x40,
    0x10, step,
    0x2a, 0x0d, 0x0a, 0x0b, 0x0a, 0x04, 'l', 'o', 's', 's', 0x1d, 0, 0, 0, 0x3f,
  };

  return g_bytes_new (event, sizeof event);
}

/* Writes a framed event file: a version record (unless @version is NULL)
 * and @n_scalars scalar records. */
static char *
write_events (Fixture    *fixture,
              const char *relative,
              const char *version,
              guint       n_scalars)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(SlRecordWriter) writer = NULL;
  char *path = fixture_path (fixture, relative);

  ensure_parent (path);
  file = g_file_new_for_path (path);
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  writer = sl_record_writer_new (G_OUTPUT_STREAM (stream));

  if (version != NULL)
    {
      g_autoptr(GBytes) event = version_event (version);

      sl_record_writer_write (writer, g_bytes_get_data (event, NULL), g_bytes_get_size (event), NULL, &error);
      g_assert_no_error (error);
    }

  for (guint i = 0; i < n_scalars; i++)
    {
      g_autoptr(GBytes) event = scalar_event (i + 1);

      sl_record_writer_write (writer, g_bytes_get_data (event, NULL), g_bytes_get_size (event), NULL, &error);
      g_assert_no_error (error);
    }

  g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, &error);
  g_assert_no_error (error);

  return path;
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, len);
}

static void
flip_byte (const char *path,
           gsize       offset)
{
  g_autoptr(GBytes) bytes = read_bytes (path);
  g_autoptr(GError) error = NULL;
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (bytes, NULL), len);

  g_assert_cmpuint (offset, <, len);
  data[offset] ^= 0xff;
  g_file_set_contents (path, (const char *)data, len, &error);
  g_assert_no_error (error);
}

static void
truncate_file (const char *path,
               gsize       new_len)
{
  g_autoptr(GBytes) bytes = read_bytes (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (new_len, <, g_bytes_get_size (bytes));
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), new_len, &error);
  g_assert_no_error (error);
}

static char *
write_npy (Fixture    *fixture,
           const char *relative,
           const char *dict,
           gsize       data_len)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  gsize dict_len = strlen (dict);
  gsize padded = (10 + dict_len + 1 + 63) / 64 * 64;
  guint8 le[2] = { (padded - 10) & 0xff, (padded - 10) >> 8 };

  g_byte_array_append (bytes, (const guint8 *)"\x93NUMPY\x01\x00", 8);
  g_byte_array_append (bytes, le, 2);
  g_byte_array_append (bytes, (const guint8 *)dict, dict_len);
  while (bytes->len < padded - 1)
    g_byte_array_append (bytes, (const guint8 *)" ", 1);
  g_byte_array_append (bytes, (const guint8 *)"\n", 1);
  for (gsize i = 0; i < data_len; i++)
    g_byte_array_append (bytes, (const guint8 *)"\0", 1);

  return write_file (fixture, relative, bytes->data, bytes->len);
}

static char *
write_gzip (Fixture    *fixture,
            const char *relative,
            const char *text)
{
  z_stream zs = { 0 };
  gsize len = strlen (text);
  gsize cap = compressBound (len) + 64;
  g_autofree guint8 *out = g_malloc (cap);

  g_assert_cmpint (deflateInit2 (&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  zs.next_in = (Bytef *)text;
  zs.avail_in = len;
  zs.next_out = out;
  zs.avail_out = cap;
  g_assert_cmpint (deflate (&zs, Z_FINISH), ==, Z_STREAM_END);
  deflateEnd (&zs);

  return write_file (fixture, relative, out, zs.total_out);
}

static char *
write_sqlite (Fixture    *fixture,
              const char *relative,
              const char *schema)
{
  char *path = fixture_path (fixture, relative);
  sqlite3 *db = NULL;

  ensure_parent (path);
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, schema, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  return path;
}

static void
make_folder (Fixture    *fixture,
             const char *relative)
{
  g_autofree char *path = fixture_path (fixture, relative);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
}

/* Deletes without following symbolic links. */
static void
delete_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GFileInfo) info = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  if (info == NULL)
    return;

  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    {
      enumerator = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                              G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
      while (enumerator != NULL)
        {
          GFileInfo *child_info;
          GFile *child;

          if (!g_file_enumerator_iterate (enumerator, &child_info, &child, NULL, NULL) || child_info == NULL)
            break;
          delete_tree (child);
        }
    }

  g_file_delete (file, NULL, NULL);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("sl-detector-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  user_data)
{
  g_autoptr(GFile) dir = g_file_new_for_path (fixture->dir);

  delete_tree (dir);
  g_free (fixture->dir);
}

/* ------------------------------------------------------------------ */
/* Assertions                                                          */
/* ------------------------------------------------------------------ */

static SlDetection *
detect (const char *path)
{
  g_autoptr(SlDetector) detector = sl_detector_new (path);
  g_autoptr(GError) error = NULL;
  SlDetection *detection;

  detection = sl_detector_run (detector, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (detection);
  g_assert_cmpuint (sl_detection_get_files_scanned (detection), ==, sl_detector_get_files_scanned (detector));

  return detection;
}

static guint
n_findings (SlDetection *detection)
{
  return g_list_model_get_n_items (sl_detection_get_findings (detection));
}

static guint
n_problems (SlDetection *detection)
{
  return g_list_model_get_n_items (sl_detection_get_problems (detection));
}

static guint
count_kind (SlDetection   *detection,
            SlFindingKind  kind)
{
  return sl_detection_count_kind (detection, kind);
}

/* Returns: (transfer none): the finding, which the detection keeps alive */
static SlFinding *
get_finding (SlDetection   *detection,
             SlFindingKind  kind,
             const char    *name)
{
  SlFinding *finding = sl_detection_lookup_finding (detection, kind, name);

  if (finding == NULL)
    g_error ("no %s finding named “%s”", sl_finding_kind_to_id (kind), name);
  return finding;
}

/* Returns: (transfer none): the only problem about @path */
static SlProblem *
get_problem (SlDetection *detection,
             const char  *path)
{
  GListModel *problems = sl_detection_get_problems (detection);
  SlProblem *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (g_strcmp0 (sl_problem_get_path (problem), path) == 0)
        {
          g_assert_null (found);
          found = problem;
        }
    }

  if (found == NULL)
    g_error ("no problem about “%s”", path);
  return found;
}

static void
assert_problem (SlDetection *detection,
                const char  *path,
                SlSeverity   severity,
                gint64       offset)
{
  SlProblem *problem = get_problem (detection, path);

  g_assert_cmpint (sl_problem_get_severity (problem), ==, severity);
  g_assert_cmpint (sl_problem_get_offset (problem), ==, offset);
  g_assert_cmpstr (sl_problem_get_source (problem), ==, "Folder scan");
  g_assert_cmpuint (strlen (sl_problem_get_message (problem)), >, 10);
}

static gboolean
finding_has_file (SlFinding  *finding,
                  const char *path)
{
  for (guint i = 0; i < sl_finding_get_n_files (finding); i++)
    {
      if (g_str_equal (sl_finding_get_file (finding, i), path))
        return TRUE;
    }

  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void
test_empty_folder (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = detect (fixture->dir);

  g_assert_cmpstr (sl_detection_get_root (detection), ==, fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 0);
  g_assert_cmpuint (n_problems (detection), ==, 0);
  g_assert_cmpuint (sl_detection_get_files_scanned (detection), ==, 0);

  /* Empty subfolders and files of no interest change nothing */
  make_folder (fixture, "a/b/c");
  g_free (write_text (fixture, "a/readme.txt", "hello"));
  g_clear_object (&detection);
  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 0);
  g_assert_cmpuint (n_problems (detection), ==, 0);
  g_assert_cmpuint (sl_detection_get_files_scanned (detection), ==, 1);
}

static void
test_summary_runs (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *lineage = NULL;
  g_autofree char *graph = NULL;
  g_autofree char *train = fixture_path (fixture, "train");
  SlFinding *run;

  /* The root itself is a run, named "." */
  g_free (write_events (fixture, "events.out.events.summary.5.host_MS", "MindSpore.Event:1", 1));

  /* Written out of order: the number after "summary." orders them */
  second = write_events (fixture, "train/events.out.events.summary.200.host_MS", "Mindspore.Event:1", 2);
  first = write_events (fixture, "train/events.out.events.summary.100.host_MS", "MindSpore.Event:1", 3);
  lineage = write_events (fixture, "train/events.out.events.summary.150.host_lineage", NULL, 2);
  graph = write_text (fixture, "train/graph.pb", "\x0a\x03\x12\x01" "a\x12\x01g");

  /* Lineage alone makes a run too, as in a grid search */
  g_free (write_events (fixture, "search/trial_1/out.events.summary.7.vm_lineage", NULL, 1));

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 3);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_SUMMARY_RUN), ==, 3);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_GRAPH), ==, 0);
  g_assert_cmpuint (n_problems (detection), ==, 0);
  g_assert_cmpuint (sl_detection_get_files_scanned (detection), ==, 6);

  run = get_finding (detection, SL_FINDING_SUMMARY_RUN, ".");
  g_assert_cmpstr (sl_finding_get_path (run), ==, fixture->dir);
  g_assert_cmpuint (sl_finding_get_n_files (run), ==, 1);
  g_assert_cmpstr (sl_finding_lookup_detail (run, "version"), ==, "MindSpore.Event:1");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "has_lineage"), ==, "no");
  assert_boolean_detail (run, SL_FINDING_DETAIL_HAS_LINEAGE, FALSE);

  run = get_finding (detection, SL_FINDING_SUMMARY_RUN, "train");
  g_assert_cmpstr (sl_finding_get_path (run), ==, train);
  g_assert_cmpuint (sl_finding_get_n_files (run), ==, 4);
  g_assert_cmpstr (sl_finding_get_file (run, 0), ==, first);
  g_assert_cmpstr (sl_finding_get_file (run, 1), ==, lineage);
  g_assert_cmpstr (sl_finding_get_file (run, 2), ==, second);
  g_assert_cmpstr (sl_finding_get_file (run, 3), ==, graph);
  g_assert_cmpstr (sl_finding_lookup_detail (run, "summary_files"), ==, "2");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "lineage_files"), ==, "1");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "graph_files"), ==, "1");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "has_lineage"), ==, "yes");
  assert_boolean_detail (run, SL_FINDING_DETAIL_HAS_LINEAGE, TRUE);
  g_assert_cmpstr (sl_finding_lookup_detail (run, "version"), ==, "MindSpore.Event:1");
  /* 3 + 1 scalar records of 42 bytes, version records of 12+28+4, graph of 8 */
  g_assert_cmpuint (sl_finding_get_size (run), ==, (12 + 28 + 4) * 2 + 42 * 7 + 8);

  run = get_finding (detection, SL_FINDING_SUMMARY_RUN, "search/trial_1");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "summary_files"), ==, "0");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "has_lineage"), ==, "yes");
  assert_boolean_detail (run, SL_FINDING_DETAIL_HAS_LINEAGE, TRUE);
  g_assert_null (sl_finding_lookup_detail (run, "version"));
}

static void
test_tensorboard_run (Fixture       *fixture,
                      gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  SlFinding *run;

  g_free (write_events (fixture, "runs/exp1/events.out.tfevents.1622543341.host.1.0", "brain.Event:2", 4));
  g_free (write_events (fixture, "runs/exp1/events.out.tfevents.1622543399.host.1.1", "brain.Event:2", 1));
  g_free (write_events (fixture, "runs/exp2/events.out.tfevents.1622543341.host.2.0", "brain.Event:2", 0));
  {
    /* Event { wall_time, graph_def (a 40,000-byte GraphDef, most of it
     * beyond the head the detector reads) } after the version. */
    g_autofree char *path = write_events (fixture, "runs/exp3/events.out.tfevents.1622543341.host.3.0",
                                          "brain.Event:2", 0);
    g_autoptr(GByteArray) event = g_byte_array_new ();
    g_autoptr(GByteArray) contents = g_byte_array_new ();
    g_autofree char *old = NULL;
    g_autoptr(GBytes) record = NULL;
    g_autoptr(GError) error = NULL;
    gsize old_len;
    guint8 head[] = { 0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x22, 0xc0, 0xb8, 0x02 };  /* 40,000 = 0xc0 0xb8 0x02 */

    g_byte_array_append (event, head, sizeof head);
    g_byte_array_set_size (event, sizeof head + 40000);
    memset (event->data + sizeof head, 0x20, 40000);
    record = sl_record_frame (event->data, event->len);
    g_file_get_contents (path, &old, &old_len, &error);
    g_assert_no_error (error);
    g_byte_array_append (contents, (const guint8 *) old, old_len);
    g_byte_array_append (contents, g_bytes_get_data (record, NULL), g_bytes_get_size (record));
    g_file_set_contents (path, (const char *) contents->data, contents->len, &error);
    g_assert_no_error (error);
  }

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 3);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TENSORBOARD_RUN), ==, 3);
  g_assert_cmpuint (n_problems (detection), ==, 0);

  run = get_finding (detection, SL_FINDING_TENSORBOARD_RUN, "runs/exp1");
  g_assert_cmpuint (sl_finding_get_n_files (run), ==, 2);
  g_assert_cmpstr (sl_finding_lookup_detail (run, "event_files"), ==, "2");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "version"), ==, "brain.Event:2");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "graph"), ==, "no");
  assert_boolean_detail (run, SL_FINDING_DETAIL_GRAPH, FALSE);

  run = get_finding (detection, SL_FINDING_TENSORBOARD_RUN, "runs/exp2");
  g_assert_cmpuint (sl_finding_get_n_files (run), ==, 1);
  g_assert_cmpuint (sl_finding_get_size (run), ==, 12 + 24 + 4);

  run = get_finding (detection, SL_FINDING_TENSORBOARD_RUN, "runs/exp3");
  g_assert_cmpstr (sl_finding_lookup_detail (run, "graph"), ==, "yes");
  assert_boolean_detail (run, SL_FINDING_DETAIL_GRAPH, TRUE);
}

static void
test_record_problems (Fixture       *fixture,
                      gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *bad_header = NULL;
  g_autofree char *bad_payload = NULL;
  g_autofree char *cut = NULL;
  g_autofree char *empty = NULL;
  g_autofree char *tiny = NULL;
  g_autofree char *bad_tb = NULL;
  g_autofree char *bad_later = NULL;

  bad_header = write_events (fixture, "a/events.out.events.summary.1.h_MS", "MindSpore.Event:1", 2);
  flip_byte (bad_header, 0);

  /* Records are 44 bytes (version) then 42 bytes each */
  bad_payload = write_events (fixture, "b/events.out.events.summary.2.h_MS", "MindSpore.Event:1", 3);
  flip_byte (bad_payload, 44 + 42 + 20);

  cut = write_events (fixture, "c/events.out.events.summary.3.h_MS", "MindSpore.Event:1", 3);
  truncate_file (cut, 44 + 42 + 30);

  empty = write_text (fixture, "d/events.out.events.summary.4.h_MS", "");
  tiny = write_text (fixture, "e/events.out.events.summary.5.h_MS", "\x01\x02\x03");

  bad_tb = write_events (fixture, "f/events.out.tfevents.1.host", "brain.Event:2", 1);
  flip_byte (bad_tb, 8);

  bad_later = write_events (fixture, "g/events.out.events.summary.6.h_MS", "MindSpore.Event:1", 3);
  flip_byte (bad_later, 44 + 42 + 3);

  detection = detect (fixture->dir);

  /* The damaged files still belong to their runs */
  g_assert_cmpuint (count_kind (detection, SL_FINDING_SUMMARY_RUN), ==, 6);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TENSORBOARD_RUN), ==, 1);
  g_assert_cmpuint (n_problems (detection), ==, 7);

  assert_problem (detection, bad_header, SL_SEVERITY_ERROR, 0);
  assert_problem (detection, bad_payload, SL_SEVERITY_ERROR, 44 + 42);
  assert_problem (detection, cut, SL_SEVERITY_WARNING, 44 + 42);
  assert_problem (detection, empty, SL_SEVERITY_WARNING, 0);
  assert_problem (detection, tiny, SL_SEVERITY_WARNING, 0);
  assert_problem (detection, bad_tb, SL_SEVERITY_ERROR, 0);
  assert_problem (detection, bad_later, SL_SEVERITY_ERROR, 44 + 42);

  /* The run with a good first record keeps its version */
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (detection, SL_FINDING_SUMMARY_RUN, "b"), "version"),
                   ==, "MindSpore.Event:1");
  g_assert_null (sl_finding_lookup_detail (get_finding (detection, SL_FINDING_SUMMARY_RUN, "a"), "version"));
}

static void
test_mindspore_profiler (Fixture       *fixture,
                         gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *timeline = NULL;
  SlFinding *finding;

  g_free (write_events (fixture, "job/events.out.events.summary.1.h_MS", "MindSpore.Event:1", 1));
  g_free (write_text (fixture, "job/profiler/step_trace_raw_0_detail_time.csv", "step_num,start_point\n1,2\n"));
  timeline = write_text (fixture, "job/profiler/ascend_timeline_display_1.json", "[{\"name\": \"a\", \"ph\": \"X\", \"ts\": 0, \"dur\": 1, \"pid\": 1, \"tid\": 1}]");
  g_free (write_text (fixture, "job/profiler/PROF_000001_X/device_1/info.json.1", "{}"));
  g_free (write_text (fixture, "job/profiler/PROF_000001_X/device_1/timeline/msprof_1_1_1.json", "[]"));

  /* Marker files alone make a profiler folder, whatever its name */
  g_free (write_text (fixture, "cluster/hccl_raw_3.csv", "step_num\n"));
  g_free (write_text (fixture, "cluster/step_trace_raw_3_detail_time.csv", "step_num\n"));

  /* A folder named profiler* with files in it, and one without */
  g_free (write_text (fixture, "profiler_gpu/notes.txt", "x"));
  make_folder (fixture, "profiler_empty");

  detection = detect (fixture->dir);
  /* job/profiler holds two devices' files: a cluster as well */
  g_assert_cmpuint (n_findings (detection), ==, 5);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_CLUSTER), ==, 1);
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (detection, SL_FINDING_CLUSTER, "job/profiler"), "rank_folders"),
                   ==, "2");
  g_assert_cmpuint (count_kind (detection, SL_FINDING_MINDSPORE_PROFILER), ==, 3);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_SUMMARY_RUN), ==, 1);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TRACE), ==, 0);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_MSPROF), ==, 0);
  g_assert_cmpuint (n_problems (detection), ==, 0);

  finding = get_finding (detection, SL_FINDING_MINDSPORE_PROFILER, "job/profiler");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 4);
  g_assert_true (finding_has_file (finding, timeline));
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "ranks"), ==, "0,1");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "msprof_folders"), ==, "PROF_000001_X");
  /* Labels agree with the number of items: "Ranks 0,1" but "Rank 3". */
  {
    g_autofree char *two = sl_finding_detail_dup_label_for_value ("ranks", "0,1");
    g_autofree char *one_folder = sl_finding_detail_dup_label_for_value ("msprof_folders", "PROF_000001_X");
    g_autofree char *other = sl_finding_detail_dup_label_for_value ("layout", "ascend_pt");

    g_assert_cmpstr (two, ==, "Ranks");
    g_assert_cmpstr (one_folder, ==, "msprof folder");
    g_assert_cmpstr (other, ==, "Layout");
  }

  finding = get_finding (detection, SL_FINDING_MINDSPORE_PROFILER, "cluster");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 2);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "ranks"), ==, "3");
  {
    g_autofree char *one = sl_finding_detail_dup_label_for_value ("ranks", sl_finding_lookup_detail (finding, "ranks"));

    g_assert_cmpstr (one, ==, "Rank");
  }

  finding = get_finding (detection, SL_FINDING_MINDSPORE_PROFILER, "profiler_gpu");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 1);
  g_assert_null (sl_finding_lookup_detail (finding, "ranks"));
}

/* Rank folders side by side, and msprof-analyze's output, make a
 * cluster; a lone rank folder does not. */
static void
test_cluster (Fixture       *fixture,
              gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  SlFinding *finding;

  g_free (write_text (fixture, "job/node0_1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", "Step,Computing\n"));
  g_free (write_text (fixture, "job/node0_2_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", "Step,Computing\n"));
  g_free (write_text (fixture, "job/cluster_analysis_output/cluster_step_trace_time.csv", "Step,Type,Index\n"));
  g_free (write_text (fixture, "alone/only_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", "Step,Computing\n"));
  g_free (write_text (fixture, "analysis/cluster_analysis_output/cluster_step_trace_time.csv", "Step,Type,Index\n"));

  detection = detect (fixture->dir);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_ASCEND_PROFILER), ==, 3);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_CLUSTER), ==, 2);
  finding = get_finding (detection, SL_FINDING_CLUSTER, "job");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "rank_folders"), ==, "2");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "cluster_analysis"), ==, "yes");
  assert_boolean_detail (finding, SL_FINDING_DETAIL_CLUSTER_ANALYSIS, TRUE);
  /* The ranks' files and msprof-analyze's, sizes summed */
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 3);
  g_assert_cmpuint (sl_finding_get_size (finding), ==, 2 * strlen ("Step,Computing\n") + strlen ("Step,Type,Index\n"));
  finding = get_finding (detection, SL_FINDING_CLUSTER, "analysis");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 1);
  g_assert_null (sl_finding_lookup_detail (finding, "rank_folders"));
  g_assert_null (sl_detection_lookup_finding (detection, SL_FINDING_CLUSTER, "alone"));
}

static void
test_msprof (Fixture       *fixture,
             gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  SlFinding *finding;

  g_free (write_text (fixture, "PROF_000001_20230818_A/device_0/info.json.0", "{}"));
  g_free (write_text (fixture, "PROF_000001_20230818_A/device_0/info.json.0.done", "ok"));
  g_free (write_text (fixture, "PROF_000001_20230818_A/device_0/timeline/msprof_0_1_1.json", "[{\"ph\": \"X\"}]"));
  g_free (write_text (fixture, "PROF_000001_20230818_A/device_0/timeline/task_time_0_1_1.json", "[{\"ph\": \"X\"}]"));

  g_free (write_text (fixture, "PROF_000002_B/mindstudio_profiler_output/msprof_20240101.json", "[{\"ph\": \"X\"}]"));
  g_free (write_text (fixture, "PROF_000002_B/mindstudio_profiler_output/op_summary_20240101.csv", "Device_id\n"));
  g_free (write_sqlite (fixture, "PROF_000002_B/msprof_20240101.db", "CREATE TABLE STRING_IDS (id INTEGER, value TEXT);"));
  g_free (write_text (fixture, "PROF_000002_B/device_3/data/ts_track.data.3.slice_0", "raw"));

  g_free (write_text (fixture, "JOB1/training_trace.46.dev.profiler_default_tag.2.slice_0", "raw"));
  g_free (write_text (fixture, "JOB1/Framework.host.vm.task_desc_info.2.slice_0", "raw"));
  g_free (write_text (fixture, "JOB1/Framework.host.vm.task_desc_info.2.slice_0.done", ""));

  /* PROF_ without device or output folders is not msprof output */
  g_free (write_text (fixture, "PROF_nothing/readme.txt", "x"));

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 3);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_MSPROF), ==, 3);
  g_assert_cmpuint (n_problems (detection), ==, 0);

  finding = get_finding (detection, SL_FINDING_MSPROF, "PROF_000001_20230818_A");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 4);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "layout"), ==, "device");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "devices"), ==, "0");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "timelines"), ==, "2");

  finding = get_finding (detection, SL_FINDING_MSPROF, "PROF_000002_B");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 4);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "layout"), ==, "mindstudio_profiler_output");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "devices"), ==, "3");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "timelines"), ==, "1");

  finding = get_finding (detection, SL_FINDING_MSPROF, "JOB1");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 3);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "layout"), ==, "raw");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "devices"), ==, "2");
}

static void
test_ascend_profiler (Fixture       *fixture,
                      gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  SlFinding *finding;

  g_free (write_text (fixture, "prof/node0_1234_20240101_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[{\"ph\": \"X\"}]"));
  g_free (write_text (fixture, "prof/node0_1234_20240101_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", "Step Id\n"));
  g_free (write_text (fixture, "prof/node0_1234_20240101_ascend_pt/profiler_info_3.json", "{}"));
  g_free (write_text (fixture, "prof/node0_1234_20240101_ascend_pt/FRAMEWORK/torch.op_range", "x"));
  g_free (write_sqlite (fixture, "prof/rank1_ascend_ms/ASCEND_PROFILER_OUTPUT/ascend_mindspore_profiler_1.db", "CREATE TABLE STRING_IDS (id INTEGER);"));
  g_free (write_text (fixture, "prof/rank1_ascend_ms/profiler_info_1.json", "{}"));
  /* A folder holding ASCEND_PROFILER_OUTPUT, whatever its name */
  g_free (write_text (fixture, "prof/renamed/ASCEND_PROFILER_OUTPUT/op_statistic.csv", "OP Type\n"));

  detection = detect (fixture->dir);
  /* Three rank folders side by side: prof is a cluster too */
  g_assert_cmpuint (n_findings (detection), ==, 4);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_ASCEND_PROFILER), ==, 3);
  g_assert_cmpstr (sl_finding_lookup_detail (get_finding (detection, SL_FINDING_CLUSTER, "prof"), "rank_folders"), ==, "3");
  g_assert_cmpuint (n_problems (detection), ==, 0);

  finding = get_finding (detection, SL_FINDING_ASCEND_PROFILER, "prof/node0_1234_20240101_ascend_pt");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 4);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "framework"), ==, "PyTorch");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "ranks"), ==, "3");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "export"), ==, "text");

  finding = get_finding (detection, SL_FINDING_ASCEND_PROFILER, "prof/rank1_ascend_ms");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 2);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "framework"), ==, "MindSpore");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "export"), ==, "db");

  finding = get_finding (detection, SL_FINDING_ASCEND_PROFILER, "prof/renamed");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 1);
  g_assert_null (sl_finding_lookup_detail (finding, "framework"));
}

static void
test_profiler_db (Fixture       *fixture,
                  gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *not_sqlite = NULL;
  SlFinding *finding;

  g_free (write_sqlite (fixture, "msprof_20240101120000.db",
                        "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
                        "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER);"));
  g_free (write_sqlite (fixture, "ascend_pytorch_profiler_2.db", "CREATE TABLE META_DATA (name TEXT);"));
  /* Unnamed, but the schema gives it away */
  g_free (write_sqlite (fixture, "export.db", "CREATE TABLE STRING_IDS (id INTEGER); CREATE TABLE CANN_API (name INTEGER);"));
  /* Unnamed and unrelated */
  g_free (write_sqlite (fixture, "cache.db", "CREATE TABLE items (k TEXT);"));
  not_sqlite = write_text (fixture, "msprof_broken.db", "this is not a database");

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 3);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_PROFILER_DB), ==, 3);
  g_assert_cmpuint (n_problems (detection), ==, 1);
  assert_problem (detection, not_sqlite, SL_SEVERITY_WARNING, 0);

  finding = get_finding (detection, SL_FINDING_PROFILER_DB, "msprof_20240101120000.db");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 1);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "producer"), ==, "msprof");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "tables"), ==, "STRING_IDS,TASK");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "page_size"), ==, "4096");

  finding = get_finding (detection, SL_FINDING_PROFILER_DB, "ascend_pytorch_profiler_2.db");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "producer"), ==, "Ascend PyTorch profiler");

  finding = get_finding (detection, SL_FINDING_PROFILER_DB, "export.db");
  g_assert_null (sl_finding_lookup_detail (finding, "producer"));
}

static void
test_traces (Fixture       *fixture,
             gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GString) kineto = g_string_new ("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
  SlFinding *finding;

  /* Kineto puts device properties first, here more than the sniffer reads */
  for (guint i = 0; i < 200; i++)
    g_string_append_printf (kineto, "    {\"id\": %u, \"name\": \"NPU\", \"totalGlobalMem\": 34084028416},\n", i);
  g_string_append (kineto, "    {\"id\": 200}\n  ],\n  \"traceEvents\": [{\"ph\": \"X\", \"ts\": 1}]\n}\n");
  g_assert_cmpuint (kineto->len, >, 10000);

  g_free (write_text (fixture, "object.json", "{\"traceEvents\": [{\"ph\": \"B\", \"name\": \"a\", \"ts\": 1, \"pid\": 1, \"tid\": 1}]}"));
  g_free (write_text (fixture, "array.json", "[{\"name\": \"a\", \"ph\": \"X\", \"ts\": \"1736408883688177.930\", \"dur\": 1}]"));
  g_free (write_gzip (fixture, "rank0.pt.trace.json.gz", "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2}]}"));
  g_free (write_text (fixture, "sub/kineto.pt.trace.json", kineto->str));
  /* JSON that is not a trace, and a gzip that is not JSON */
  g_free (write_text (fixture, "config.json", "{\"learning_rate\": 0.1, \"epochs\": [1, 2]}"));
  g_free (write_gzip (fixture, "notes.json.gz", "plain text"));
  g_free (write_text (fixture, "list.json", "[1, 2, 3]"));

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 4);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TRACE), ==, 4);
  g_assert_cmpuint (n_problems (detection), ==, 0);

  finding = get_finding (detection, SL_FINDING_TRACE, "object.json");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "form"), ==, "object");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "compressed"), ==, "no");

  finding = get_finding (detection, SL_FINDING_TRACE, "array.json");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "form"), ==, "array");

  finding = get_finding (detection, SL_FINDING_TRACE, "rank0.pt.trace.json.gz");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "compressed"), ==, "gzip");

  finding = get_finding (detection, SL_FINDING_TRACE, "sub/kineto.pt.trace.json");
  g_assert_cmpuint (sl_finding_get_size (finding), ==, kineto->len);
}

/* {"metadata": {…more than the sniffer's head…}, @rest */
static char *
metadata_first (const char *rest)
{
  GString *text = g_string_new ("{\"metadata\": {\"hosts\": [");

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (text, "{\"rank\": %u, \"note\": \"\\\"traceEvents\\\": [\"}, ", i);
  g_string_append (text, "null]}, ");
  g_string_append (text, rest);
  return g_string_free (text, FALSE);
}

static void
test_late_trace_keys (Fixture       *fixture,
                      gconstpointer  user_data)
{
  g_autofree char *trace = metadata_first ("\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": 2}]}");
  g_autofree char *units = metadata_first ("\"displayTimeUnit\": \"ns\", \"traceEvents\": []}");
  g_autofree char *other = metadata_first ("\"events\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1}]}");
  g_autoptr(GString) array = g_string_new ("[{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"labels\": [");
  g_autoptr(GString) records = g_string_new ("[");
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *single = NULL;
  SlFinding *finding;

  g_assert_cmpuint (strlen (trace), >, 80000);
  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (array, "\"label %u\", ", i);
  g_string_append (array, "\"end\"]}}, {\"ph\": \"X\", \"ts\": 1, \"dur\": 1, \"name\": \"a\"}]");
  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (records, "{\"id\": %u, \"label\": \"cat\"}, ", i);
  g_string_append (records, "{\"ph\": \"X\", \"ts\": 1}]");

  g_free (write_text (fixture, "rank0.pt.trace.json", trace));
  single = write_gzip (fixture, "rank1.pt.trace.json.gz", trace);
  g_free (write_text (fixture, "units.json", units));
  g_free (write_text (fixture, "array.json", array->str));
  /* Large JSON that is no trace */
  g_free (write_text (fixture, "other.json", other));
  g_free (write_gzip (fixture, "other.json.gz", other));
  g_free (write_text (fixture, "records.json", records->str));

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 4);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TRACE), ==, 4);
  g_assert_cmpuint (n_problems (detection), ==, 0);

  finding = get_finding (detection, SL_FINDING_TRACE, "rank0.pt.trace.json");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "form"), ==, "object");
  finding = get_finding (detection, SL_FINDING_TRACE, "rank1.pt.trace.json.gz");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "compressed"), ==, "gzip");
  get_finding (detection, SL_FINDING_TRACE, "units.json");
  finding = get_finding (detection, SL_FINDING_TRACE, "array.json");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "form"), ==, "array");

  /* Past the skimmer's budget the file is said to be no trace, once */
  {
    g_autoptr(GString) huge = g_string_new ("{\"metadata\": \"");
    g_autoptr(SlDetection) big = NULL;
    g_autofree char *path = NULL;

    g_string_set_size (huge, SL_TRACE_SKIMMER_BUDGET + 16);
    memset (huge->str + 14, 'x', huge->len - 14);
    g_string_append (huge, "\", \"traceEvents\": []}");
    path = write_gzip (fixture, "huge/metadata.json.gz", huge->str);
    big = detect (path);
    g_assert_cmpuint (n_findings (big), ==, 0);
    g_assert_cmpuint (n_problems (big), ==, 1);
    assert_problem (big, path, SL_SEVERITY_INFO, -1);
  }

  /* Opened on its own, as the GUI and `detect FILE` do */
  g_clear_object (&detection);
  detection = detect (single);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TRACE), ==, 1);
}

static void
test_broken_traces (Fixture       *fixture,
                    gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  const char *cut_text = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"step\", \"ts\": 12";
  const char *bad_text = "[{\"ph\": \"X\", \"name\": \"a\"}, {\"ph\": X}]";
  g_autofree char *cut = write_text (fixture, "cut.json", cut_text);
  g_autofree char *bad = write_text (fixture, "bad.json", bad_text);
  g_autofree char *gz = write_gzip (fixture, "cut.json.gz", "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1}]}");
  g_autoptr(GBytes) gz_bytes = read_bytes (gz);
  g_autoptr(GString) long_text = g_string_new ("{\"traceEvents\": [");
  g_autofree char *long_cut = NULL;
  g_autofree char *whole = NULL;
  g_autoptr(SlDetection) small_alone = NULL;
  g_autoptr(SlDetection) long_alone = NULL;

  truncate_file (gz, g_bytes_get_size (gz_bytes) - 10);

  /* The same trace cut off, small enough for the scan to read it whole
   * and too long for that: both are found (a profiler killed while it
   * wrote leaves such files, and the reader keeps what came before) */
  while (long_text->len < 4 * SL_SNIFFER_HEAD_SIZE)
    g_string_append (long_text, "{\"ph\": \"X\", \"name\": \"step\", \"ts\": 12, \"dur\": 3, \"pid\": 1, \"tid\": 1}, ");
  g_string_append (long_text, "{\"ph\": \"X\", \"name\": \"st");
  long_cut = write_text (fixture, "long-cut.json", long_text->str);
  g_string_truncate (long_text, strlen ("{\"traceEvents\": [") + 2 * strlen ("{\"ph\": \"X\", \"name\": \"step\", \"ts\": 12, \"dur\": 3, \"pid\": 1, \"tid\": 1}, ") + 12);
  whole = write_text (fixture, "small-cut.json", long_text->str);

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 5);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TRACE), ==, 5);
  g_assert_cmpuint (n_problems (detection), ==, 4);
  assert_problem (detection, cut, SL_SEVERITY_ERROR, strlen (cut_text));
  assert_problem (detection, bad, SL_SEVERITY_ERROR, strstr (bad_text, "X}") - bad_text);
  assert_problem (detection, gz, SL_SEVERITY_ERROR, g_bytes_get_size (gz_bytes) - 10);
  assert_problem (detection, whole, SL_SEVERITY_ERROR, long_text->len);
  g_assert_nonnull (strstr (sl_problem_get_message (get_problem (detection, whole)), "events before the damage"));

  /* Opened on their own, as the GUI and `detect FILE` do */
  small_alone = detect (whole);
  long_alone = detect (long_cut);
  g_assert_cmpuint (count_kind (small_alone, SL_FINDING_TRACE), ==, 1);
  g_assert_cmpuint (count_kind (long_alone, SL_FINDING_TRACE), ==, 1);
}

static void
test_tensors (Fixture       *fixture,
              gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *objects = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *short_data = NULL;
  g_autofree char *not_npy = NULL;
  SlFinding *finding;

  g_free (write_npy (fixture, "input.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24));
  objects = write_npy (fixture, "objects.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (4,), }", 40);
  bad = write_npy (fixture, "bad.npy", "{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,), }", 8);
  short_data = write_npy (fixture, "short.npy", "{'descr': '<i8', 'fortran_order': True, 'shape': (10,), }", 16);
  not_npy = write_text (fixture, "fake.npy", "just text");

  detection = detect (fixture->dir);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TENSOR), ==, 2);
  g_assert_cmpuint (n_findings (detection), ==, 2);
  g_assert_cmpuint (n_problems (detection), ==, 4);

  finding = get_finding (detection, SL_FINDING_TENSOR, "input.npy");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "dtype"), ==, "<f4");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "shape"), ==, "(2, 3)");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "fortran_order"), ==, "no");
  assert_boolean_detail (finding, SL_FINDING_DETAIL_FORTRAN_ORDER, FALSE);
  g_assert_cmpuint (sl_finding_get_size (finding), ==, 128 + 24);

  finding = get_finding (detection, SL_FINDING_TENSOR, "short.npy");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "fortran_order"), ==, "yes");
  assert_boolean_detail (finding, SL_FINDING_DETAIL_FORTRAN_ORDER, TRUE);

  assert_problem (detection, objects, SL_SEVERITY_ERROR, 10);
  assert_problem (detection, bad, SL_SEVERITY_ERROR, 10 + strlen ("{'descr': '<f4', 'fortran_order': "));
  assert_problem (detection, short_data, SL_SEVERITY_WARNING, 128);
  assert_problem (detection, not_npy, SL_SEVERITY_WARNING, 0);
}

static void
test_msprobe_dump (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *dump_json = NULL;
  SlFinding *finding;
  const char *dump =
    "{\n  \"task\": \"tensor\",\n  \"level\": \"L1\",\n  \"framework\": \"pytorch\",\n"
    "  \"dump_data_dir\": \"dump_tensor_data\",\n  \"data\": {\"Functional.relu.0.forward\": {}}\n}\n";

  dump_json = write_text (fixture, "dump/step0/rank3/dump.json", dump);
  g_free (write_text (fixture, "dump/step0/rank3/stack.json", "{}"));
  g_free (write_text (fixture, "dump/step0/rank3/construct.json", "{}"));
  g_free (write_npy (fixture, "dump/step0/rank3/dump_tensor_data/Functional.relu.0.forward.input.0.npy",
                     "{'descr': '<f2', 'fortran_order': False, 'shape': (8,), }", 16));
  /* A dump.json of something else is just JSON */
  g_free (write_text (fixture, "other/dump.json", "{\"task\": \"build\"}"));

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 1);
  g_assert_cmpuint (n_problems (detection), ==, 0);

  finding = get_finding (detection, SL_FINDING_MSPROBE_DUMP, "dump/step0/rank3");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 4);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "task"), ==, "tensor");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "level"), ==, "L1");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "framework"), ==, "pytorch");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "rank"), ==, "3");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "step"), ==, "0");

  /* Opening the dump.json itself */
  g_clear_object (&detection);
  detection = detect (dump_json);
  g_assert_cmpuint (n_findings (detection), ==, 1);
  finding = get_finding (detection, SL_FINDING_MSPROBE_DUMP, "dump.json");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 1);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "rank"), ==, "3");
}

static void
test_pipelines (Fixture       *fixture,
                gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *no_elements = NULL;
  g_autofree char *broken = NULL;
  g_autoptr(GString) deep = g_string_new (NULL);
  SlFinding *finding;

  g_free (write_text (fixture, "detect.pipeline",
                      "{\n"
                      "  \"detection\": {\n"
                      "    \"stream_config\": {\"deviceId\": \"0\"},\n"
                      "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"mxpi_tensorinfer0\"},\n"
                      "    \"mxpi_tensorinfer0\": {\"factory\": \"mxpi_tensorinfer\", \"props\": {\"modelPath\": \"m.om\"}, \"next\": \"appsink0\"},\n"
                      "    \"appsink0\": {\"factory\": \"appsink\"}\n"
                      "  },\n"
                      "  \"classification\": {\n"
                      "    \"appsrc1\": {\"factory\": \"appsrc\", \"next\": [\"appsink1\"]},\n"
                      "    \"appsink1\": {\"factory\": \"appsink\"}\n"
                      "  }\n"
                      "}\n"));
  no_elements = write_text (fixture, "empty.pipeline", "{\"stream\": {\"stream_config\": {}}}");
  broken = write_text (fixture, "broken.pipeline", "{\"stream\": {\"a\": {\"factory\": }}}");

  /* Hostile nesting is not handed to a recursive parser */
  for (guint i = 0; i < 100000; i++)
    g_string_append (deep, "{\"a\":");
  g_free (write_text (fixture, "deep.pipeline", deep->str));

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 1);
  g_assert_cmpuint (n_problems (detection), ==, 2);

  finding = get_finding (detection, SL_FINDING_PIPELINE, "detect.pipeline");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "streams"), ==, "detection,classification");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "elements"), ==, "5");

  assert_problem (detection, no_elements, SL_SEVERITY_WARNING, -1);
  assert_problem (detection, broken, SL_SEVERITY_ERROR, strlen ("{\"stream\": {\"a\": {\"factory\": "));
}

/* Tuner configurations: a good one found, one with the optimizer's keys
 * and a mistake reported with its line and column, other YAML ignored. */
static void
test_tuner_configs (Fixture       *fixture,
                    gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *broken = NULL;
  SlFinding *finding;

  g_free (write_text (fixture, "mlp/tune.yaml",
                      "command: python3 train.py\nsummary_base_dir: summaries\n"
                      "target: {group: metric, name: Accuracy, goal: maximize}\n"
                      "parameters:\n  learning_rate: {bounds: [0.0001, 0.1]}\n  batch_size: {choice: [32, 64]}\n"));
  broken = write_text (fixture, "bad/tune.yml",
                       "command: x\nsummary_base_dir: s\ntarget: {name: a}\nparameters: {lr: {bounds: [1, 0]}}\n");
  g_free (write_text (fixture, "ci.yaml", "jobs: {build: {runs-on: ubuntu}}\n"));

  detection = detect (fixture->dir);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TUNER_CONFIG), ==, 1);
  finding = get_finding (detection, SL_FINDING_TUNER_CONFIG, "mlp/tune.yaml");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "target"), ==, "Accuracy");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "parameters"), ==, "2");
  g_assert_cmpuint (n_problems (detection), ==, 1);
  assert_problem (detection, broken, SL_SEVERITY_ERROR, -1);
}

/* Profiler tables outside a profiler folder, or opened on their own */
static void
test_single_profiler_tables (Fixture       *fixture,
                             gconstpointer  user_data)
{
  static const struct {
    const char    *name;
    const char    *text;
    SlFindingKind  kind;
    const char    *table;
  } tables[] = {
    { "op_summary_0_1.csv", "Device_id,Op Name,OP Type,Task Duration(us)\n0,a,MatMul,1\n", SL_FINDING_MSPROF, "op-summary" },
    /* The layout table takes op_statistic*.csv for torch_npu's first */
    { "op_statistic_0_1.csv", "Device_id,OP Type,Core Type,Count\n0,MatMul,AI_CORE,1\n", SL_FINDING_ASCEND_PROFILER, "op-statistic" },
    { "step_trace_0_1.csv", "Device_id,Iteration ID,FP Start(us)\n0,1,2\n", SL_FINDING_MSPROF, "step-trace" },
    { "kernel_details.csv", "\xEF\xBB\xBFStep Id,Name,Type\n1,a,MatMul\n", SL_FINDING_ASCEND_PROFILER, "op-summary" },
    { "step_trace_time.csv", "Step,Computing,Free\n1,2,3\n", SL_FINDING_ASCEND_PROFILER, "step-trace" },
    { "communication.json", "{\"step1\": {}}", SL_FINDING_ASCEND_PROFILER, "communication" },
    { "step_trace_raw_2_detail_time.csv", "step_num,start_point,end_point\n1,2,3\n", SL_FINDING_MINDSPORE_PROFILER, "step-trace" },
    { "aicore_intermediate_2_type.csv", "kernel_type,total_time\nMatMul,1\n", SL_FINDING_MINDSPORE_PROFILER, "op-statistic" },
    { "cluster_step_trace_time.csv", "Step,Type,Index\n", SL_FINDING_ASCEND_PROFILER, "cluster-step" },
  };
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *lone = write_text (fixture, "lone/kernel_details.csv", "Step Id,Name,Type\n1,a,MatMul\n");
  g_autofree char *binary = write_file (fixture, "junk/op_summary_9.csv", "\x00\x01\x02,\x03", 5);
  g_autofree char *no_header = write_text (fixture, "junk2/kernel_details.csv", "hello\n");
  g_autoptr(SlProblem) problem = NULL;
  SlFinding *finding;

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *relative = g_build_filename ("single", tables[i].name, NULL);
      g_autofree char *path = write_text (fixture, relative, tables[i].text);
      g_autoptr(SlDetection) single = detect (path);
      g_autoptr(SlProblem) info = NULL;

      g_assert_cmpuint (n_findings (single), ==, 1);
      finding = get_finding (single, tables[i].kind, tables[i].name);
      g_assert_cmpstr (sl_finding_get_path (finding), ==, path);
      g_assert_cmpstr (sl_finding_lookup_detail (finding, "table"), ==, tables[i].table);
      g_assert_nonnull (sl_finding_lookup_detail (finding, "missing_files"));
      g_assert_cmpuint (n_problems (single), ==, 1);
      info = g_list_model_get_item (sl_detection_get_problems (single), 0);
      g_assert_cmpint (sl_problem_get_severity (info), ==, SL_SEVERITY_INFO);
      g_assert_true (g_str_has_prefix (sl_problem_get_message (info), "Only "));
      g_assert_nonnull (strstr (sl_problem_get_message (info), sl_finding_lookup_detail (finding, "missing_files")));

      /* Delete it so the next one is alone in the folder */
      g_assert_cmpint (g_unlink (path), ==, 0);
    }

  /* Not tables, though named like them */
  g_clear_object (&detection);
  detection = detect (binary);
  g_assert_cmpuint (n_findings (detection), ==, 0);
  g_clear_object (&detection);
  detection = detect (no_header);
  g_assert_cmpuint (n_findings (detection), ==, 0);

  /* A folder scan takes the lone table too, and says so in its words */
  g_clear_object (&detection);
  g_free (write_text (fixture, "c/cluster_analysis_output/cluster_step_trace_time.csv", "Step,Type,Index\n"));
  detection = detect (fixture->dir);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_ASCEND_PROFILER), ==, 1);
  finding = get_finding (detection, SL_FINDING_ASCEND_PROFILER, "lone/kernel_details.csv");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 1);
  g_assert_cmpuint (n_problems (detection), ==, 1);
  problem = g_list_model_get_item (sl_detection_get_problems (detection), 0);
  g_assert_cmpstr (sl_problem_get_path (problem), ==, lone);
  g_assert_true (g_str_has_prefix (sl_problem_get_message (problem), "kernel_details.csv is read as a profile on its own"));
}

static void
test_graphs (Fixture       *fixture,
             gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *bogus = NULL;
  g_autofree char *empty = NULL;
  g_autofree char *xplane = NULL;
  g_autofree char *device_xplane = NULL;
  /* XSpace { planes { id: 1, name: "/host:CPU", lines { id: 1 } } } */
  static const char host_plane[] = "\x0a\x11\x08\x01\x12\x09/host:CPU\x1a\x02\x08\x01";
  /* XSpace { planes { name: "/device:TPU:0", lines { id: 1 } } } */
  static const char device_plane[] = "\x0a\x13\x12\x0d/device:TPU:0\x1a\x02\x08\x01";
  /* GraphDef { node { name: "a", op: "Const" }, versions { producer: 27 } } */
  static const char graph_def[] = "\x0a\x0a\x0a\x01" "a\x12\x05" "Const\x22\x02\x08\x1b";
  SlFinding *finding;

  g_free (write_text (fixture, "graphs/lenet.pb", "\x0a\x03\x12\x01" "a\x12\x05lenet"));
  g_free (write_file (fixture, "graphs/frozen.pb", graph_def, sizeof graph_def - 1));
  /* Cut off inside its versions: still a graph, read as far as it goes */
  g_free (write_file (fixture, "graphs/cut.pb", graph_def, sizeof graph_def - 3));
  bogus = write_text (fixture, "graphs/notes.pb", "hello world");
  empty = write_text (fixture, "graphs/empty.pb", "");
  xplane = write_file (fixture, "plugins/profile/host.xplane.pb", host_plane, sizeof host_plane - 1);
  device_xplane = write_file (fixture, "plugins/profile/tpu.xplane.pb", device_plane, sizeof device_plane - 1);
  /* A GraphDef in text format, after a comment; another text proto with
   * the same suffix (a label map) is passed over without a problem. */
  g_free (write_text (fixture, "graphs/frozen.pbtxt", "# exported\nnode {\n  name: \"a\"\n  op: \"Const\"\n}\n"));
  g_free (write_text (fixture, "graphs/labels.pbtxt", "item {\n  id: 1\n  name: \"cat\"\n}\n"));

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 4);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_GRAPH), ==, 4);
  finding = get_finding (detection, SL_FINDING_GRAPH, "graphs/frozen.pbtxt");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "format"), ==, "TensorFlow GraphDef (text)");
  get_finding (detection, SL_FINDING_GRAPH, "graphs/cut.pb");
  finding = get_finding (detection, SL_FINDING_GRAPH, "graphs/lenet.pb");
  g_assert_cmpuint (sl_finding_get_n_files (finding), ==, 1);
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "format"), ==, "MindSpore GraphProto");
  finding = get_finding (detection, SL_FINDING_GRAPH, "graphs/frozen.pb");
  g_assert_cmpstr (sl_finding_lookup_detail (finding, "format"), ==, "TensorFlow GraphDef");

  /* One problem each, naming what is read */
  g_assert_cmpuint (n_problems (detection), ==, 4);
  assert_problem (detection, bogus, SL_SEVERITY_WARNING, 0);
  assert_problem (detection, empty, SL_SEVERITY_WARNING, 0);
  assert_problem (detection, xplane, SL_SEVERITY_WARNING, 0);
  assert_problem (detection, device_xplane, SL_SEVERITY_WARNING, 0);
  for (guint i = 0; i < n_problems (detection); i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (sl_detection_get_problems (detection), i);

      if (g_str_has_suffix (sl_problem_get_path (problem), "xplane.pb"))
        {
          g_assert_nonnull (strstr (sl_problem_get_message (problem), "not a model or graph Sightline reads"));
          g_assert_nonnull (strstr (sl_problem_get_message (problem), "TensorFlow GraphDef"));
          g_assert_nonnull (strstr (sl_problem_get_message (problem), "MindSpore"));
        }
    }
}

static void
test_single_file (Fixture       *fixture,
                  gconstpointer  user_data)
{
  g_autofree char *npy = write_npy (fixture, "deep/x.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", 8);
  g_autofree char *events = write_events (fixture, "run/events.out.tfevents.1.h", "brain.Event:2", 1);
  g_autoptr(SlDetection) detection = NULL;
  SlFinding *finding;

  detection = detect (npy);
  g_assert_cmpstr (sl_detection_get_root (detection), ==, npy);
  g_assert_cmpuint (n_findings (detection), ==, 1);
  g_assert_cmpuint (sl_detection_get_files_scanned (detection), ==, 1);
  finding = get_finding (detection, SL_FINDING_TENSOR, "x.npy");
  g_assert_cmpstr (sl_finding_get_path (finding), ==, npy);

  g_clear_object (&detection);
  detection = detect (events);
  g_assert_cmpuint (n_findings (detection), ==, 1);
  finding = get_finding (detection, SL_FINDING_TENSORBOARD_RUN, "events.out.tfevents.1.h");
  g_assert_cmpstr (sl_finding_get_path (finding), ==, events);
  g_assert_cmpstr (sl_finding_get_file (finding, 0), ==, events);
}

static void
test_symlink_loop (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *a = fixture_path (fixture, "a");
  g_autofree char *loop_path = fixture_path (fixture, "a/b/loop");
  g_autofree char *alias_path = fixture_path (fixture, "c/alias");
  g_autoptr(GFile) loop = g_file_new_for_path (loop_path);
  g_autoptr(GFile) alias = g_file_new_for_path (alias_path);
  g_autoptr(GFile) dangling = NULL;
  g_autofree char *dangling_path = fixture_path (fixture, "c/dangling.json");
  SlProblem *problem;

  g_free (write_npy (fixture, "a/b/t.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4));
  make_folder (fixture, "c");

  if (!g_file_make_symbolic_link (loop, a, NULL, &error))
    {
      g_test_skip (error->message);
      return;
    }
  g_file_make_symbolic_link (alias, a, NULL, &error);
  g_assert_no_error (error);
  dangling = g_file_new_for_path (dangling_path);
  g_file_make_symbolic_link (dangling, "nowhere.json", NULL, &error);
  g_assert_no_error (error);

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 1);
  g_assert_cmpuint (count_kind (detection, SL_FINDING_TENSOR), ==, 1);
  g_assert_cmpuint (n_problems (detection), ==, 2);

  problem = get_problem (detection, loop_path);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_WARNING);
  g_assert_nonnull (strstr (sl_problem_get_message (problem), a));

  /* The second way into a/ is not scanned twice */
  problem = get_problem (detection, alias_path);
  g_assert_cmpint (sl_problem_get_severity (problem), ==, SL_SEVERITY_INFO);
}

static void
test_depth_limit (Fixture       *fixture,
                  gconstpointer  user_data)
{
  g_autoptr(GString) relative = g_string_new (NULL);
  g_autoptr(SlDetection) detection = NULL;
  g_autofree char *too_deep = NULL;

  for (guint i = 0; i < 70; i++)
    g_string_append (relative, i == 0 ? "d" : G_DIR_SEPARATOR_S "d");
  g_string_append (relative, G_DIR_SEPARATOR_S "x.npy");
  g_free (write_npy (fixture, relative->str, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4));

  /* Folder 65 is the first one not entered */
  g_string_truncate (relative, 65 * 2 - 1);
  too_deep = fixture_path (fixture, relative->str);

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 0);
  g_assert_cmpuint (n_problems (detection), ==, 1);
  assert_problem (detection, too_deep, SL_SEVERITY_WARNING, -1);
}

static void
test_unreadable (Fixture       *fixture,
                 gconstpointer  user_data)
{
#ifdef G_OS_UNIX
  g_autofree char *locked = fixture_path (fixture, "locked");
  g_autofree char *secret = NULL;
  g_autofree char *fifo = fixture_path (fixture, "pipe.json");
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(GDir) probe = NULL;

  g_free (write_npy (fixture, "locked/t.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4));
  secret = write_npy (fixture, "secret.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4);

  /* A named pipe must be skipped, never opened: opening it would block */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  g_assert_cmpint (g_chmod (locked, 0), ==, 0);
  g_assert_cmpint (g_chmod (secret, 0), ==, 0);

  probe = g_dir_open (locked, 0, NULL);
  if (probe != NULL)
    {
      g_chmod (locked, 0755);
      detection = detect (fixture->dir);
      g_assert_cmpuint (count_kind (detection, SL_FINDING_TENSOR), ==, 2);
      g_assert_cmpuint (n_problems (detection), ==, 0);
      g_test_skip ("permissions are not enforced for this user");
      return;
    }

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, 0);
  g_assert_cmpuint (n_problems (detection), ==, 2);
  assert_problem (detection, locked, SL_SEVERITY_ERROR, -1);
  assert_problem (detection, secret, SL_SEVERITY_ERROR, -1);
  g_assert_nonnull (strstr (sl_problem_get_message (get_problem (detection, locked)), "permission"));

  g_chmod (locked, 0755);
#else
  g_test_skip ("needs POSIX permissions");
#endif
}

static void
test_missing_root (void)
{
  g_autoptr(SlDetector) detector = sl_detector_new ("/nonexistent/sightline/runs");
  g_autoptr(GError) error = NULL;
  g_autoptr(SlDetection) detection = NULL;

  detection = sl_detector_run (detector, NULL, &error);
  g_assert_null (detection);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/sightline/runs"));
}

static void
test_special_root (Fixture       *fixture,
                   gconstpointer  user_data)
{
#ifdef G_OS_UNIX
  g_autofree char *fifo = fixture_path (fixture, "pipe");
  g_autoptr(SlDetector) detector = sl_detector_new (fifo);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_null (sl_detector_run (detector, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
#else
  g_test_skip ("needs named pipes");
#endif
}

static void
test_cancelled (Fixture       *fixture,
                gconstpointer  user_data)
{
  g_autoptr(SlDetector) detector = sl_detector_new (fixture->dir);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SlDetection) detection = NULL;

  g_free (write_text (fixture, "a.json", "[{\"ph\": \"X\"}]"));
  g_cancellable_cancel (cancellable);

  detection = sl_detector_run (detector, cancellable, &error);
  g_assert_null (detection);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
on_run_finished (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SlDetection **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = sl_detector_run_finish (SL_DETECTOR (object), result, &error);
  g_assert_no_error (error);
}

static void
test_async (Fixture       *fixture,
            gconstpointer  user_data)
{
  g_autoptr(SlDetector) detector = sl_detector_new (fixture->dir);
  g_autoptr(SlDetection) detection = NULL;

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("t%02u/trace.json", i);
      g_free (write_text (fixture, name, "[{\"ph\": \"X\"}]"));
    }

  sl_detector_run_async (detector, NULL, on_run_finished, &detection);
  while (detection == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (count_kind (detection, SL_FINDING_TRACE), ==, 20);
  g_assert_cmpuint (sl_detection_get_files_scanned (detection), ==, 20);
  g_assert_cmpuint (sl_detector_get_files_scanned (detector), ==, 20);
}

static void
test_json (Fixture       *fixture,
           gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *npy = NULL;
  g_autofree char *objects = NULL;
  JsonObject *root;
  JsonObject *finding;
  JsonObject *problem;
  JsonArray *files;

  npy = write_npy (fixture, "x.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24);
  objects = write_npy (fixture, "y.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", 16);

  detection = detect (fixture->dir);
  json = sl_detection_to_json (detection);
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);

  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "root"), ==, fixture->dir);
  g_assert_cmpint (json_object_get_int_member (root, "files_scanned"), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "findings")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "problems")), ==, 1);

  finding = json_array_get_object_element (json_object_get_array_member (root, "findings"), 0);
  g_assert_cmpstr (json_object_get_string_member (finding, "kind"), ==, "tensor");
  g_assert_cmpstr (json_object_get_string_member (finding, "kind_label"), ==, sl_finding_kind_to_label (SL_FINDING_TENSOR));
  g_assert_cmpstr (json_object_get_string_member (finding, "name"), ==, "x.npy");
  g_assert_cmpstr (json_object_get_string_member (finding, "path"), ==, npy);
  g_assert_cmpint (json_object_get_int_member (finding, "size"), ==, 128 + 24);
  files = json_object_get_array_member (finding, "files");
  g_assert_cmpuint (json_array_get_length (files), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (files, 0), ==, npy);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (finding, "details"), "shape"), ==, "(2, 3)");

  problem = json_array_get_object_element (json_object_get_array_member (root, "problems"), 0);
  g_assert_cmpstr (json_object_get_string_member (problem, "severity"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (problem, "source"), ==, "Folder scan");
  g_assert_cmpstr (json_object_get_string_member (problem, "path"), ==, objects);
  g_assert_cmpint (json_object_get_int_member (problem, "offset"), ==, 10);
  g_assert_true (json_object_get_null_member (problem, "line"));
  g_assert_nonnull (json_object_get_string_member (problem, "message"));
}

static void
test_every_kind (Fixture       *fixture,
                 gconstpointer  user_data)
{
  g_autoptr(SlDetection) detection = NULL;

  g_free (write_events (fixture, "ms/events.out.events.summary.1.h_MS", "MindSpore.Event:1", 1));
  g_free (write_events (fixture, "tb/events.out.tfevents.1.h", "brain.Event:2", 1));
  g_free (write_text (fixture, "ms/profiler/framework_raw_0.csv", "task_id\n"));
  g_free (write_text (fixture, "PROF_1/device_0/info.json.0", "{}"));
  g_free (write_text (fixture, "x_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", "[]"));
  g_free (write_sqlite (fixture, "msprof_1.db", "CREATE TABLE STRING_IDS (id INTEGER);"));
  g_free (write_text (fixture, "t.json", "[{\"ph\": \"X\"}]"));
  g_free (write_file (fixture, "g.pb", "\x0a\x00", 2));
  g_free (write_npy (fixture, "n.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4));
  g_free (write_text (fixture, "probe/dump.json", "{\"task\": \"statistics\", \"level\": \"L0\", \"framework\": \"mindspore\", \"data\": {}}"));
  g_free (write_text (fixture, "p.pipeline", "{\"s\": {\"a\": {\"factory\": \"appsrc\"}}}"));
  g_free (write_text (fixture, "tune.yaml", "command: t\nsummary_base_dir: s\ntarget: {name: a}\nparameters: {x: {bounds: [0, 1]}}\n"));
  g_free (write_text (fixture, "c/cluster_analysis_output/cluster_step_trace_time.csv", "Step,Type,Index\n"));

  detection = detect (fixture->dir);
  g_assert_cmpuint (n_findings (detection), ==, SL_FINDING_N_KINDS);
  for (guint kind = 0; kind < SL_FINDING_N_KINDS; kind++)
    g_assert_cmpuint (count_kind (detection, kind), ==, 1);
  g_assert_cmpuint (n_problems (detection), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/detector/empty-folder", test_empty_folder);
  ADD ("/detector/summary-runs", test_summary_runs);
  ADD ("/detector/tensorboard-run", test_tensorboard_run);
  ADD ("/detector/record-problems", test_record_problems);
  ADD ("/detector/mindspore-profiler", test_mindspore_profiler);
  ADD ("/detector/cluster", test_cluster);
  ADD ("/detector/msprof", test_msprof);
  ADD ("/detector/ascend-profiler", test_ascend_profiler);
  ADD ("/detector/profiler-db", test_profiler_db);
  ADD ("/detector/traces", test_traces);
  ADD ("/detector/broken-traces", test_broken_traces);
  ADD ("/detector/late-trace-keys", test_late_trace_keys);
  ADD ("/detector/tensors", test_tensors);
  ADD ("/detector/msprobe-dump", test_msprobe_dump);
  ADD ("/detector/pipelines", test_pipelines);
  ADD ("/detector/tuner-configs", test_tuner_configs);
  ADD ("/detector/graphs", test_graphs);
  ADD ("/detector/single-profiler-tables", test_single_profiler_tables);
  ADD ("/detector/single-file", test_single_file);
  ADD ("/detector/symlink-loop", test_symlink_loop);
  ADD ("/detector/depth-limit", test_depth_limit);
  ADD ("/detector/unreadable", test_unreadable);
  ADD ("/detector/special-root", test_special_root);
  ADD ("/detector/cancelled", test_cancelled);
  ADD ("/detector/async", test_async);
  ADD ("/detector/json", test_json);
  ADD ("/detector/every-kind", test_every_kind);
#undef ADD
  g_test_add_func ("/detector/missing-root", test_missing_root);
  g_test_add_func ("/detector/boolean-detail", test_boolean_detail);

  return g_test_run ();
}
