/* test-pipeline-editor.c: props set in place, exact bytes after each edit
 *
 * Each case is the file before, the edit, and the file after as it must
 * be byte for byte: a value replaced with quotes, backslashes, a newline
 * and non-ASCII text; a prop added after its neighbours; a props object
 * made for an element without one, multi-line and on one line; CRLF line
 * ends kept. Damaged files and bad edits are refused with errors that
 * name the file and line; saving keeps FILE~ with the old bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "sl-pipeline-editor.h"
#include "sl-pipeline-reader.h"

#define BASE \
  "{\n" \
  "    \"s\": {\n" \
  "        \"stream_config\": {\n" \
  "            \"deviceId\": \"0\"\n" \
  "        },\n" \
  "        \"appsrc0\": {\n" \
  "            \"props\": {\n" \
  "                \"blocksize\": \"409600\"\n" \
  "            },\n" \
  "            \"factory\": \"appsrc\",\n" \
  "            \"next\": \"appsink0\"\n" \
  "        },\n" \
  "        \"appsink0\": {\n" \
  "            \"factory\": \"appsink\"\n" \
  "        }\n" \
  "    }\n" \
  "}\n"

typedef struct {
  const char *id;
  const char *before;
  guint       element;
  const char *key;
  const char *value;
  const char *after;
} EditCase;

static const EditCase edit_cases[] = {
  { "replace-escapes", BASE, 0, "blocksize", "a \"q\" \\ é\n",
    "{\n"
    "    \"s\": {\n"
    "        \"stream_config\": {\n"
    "            \"deviceId\": \"0\"\n"
    "        },\n"
    "        \"appsrc0\": {\n"
    "            \"props\": {\n"
    "                \"blocksize\": \"a \\\"q\\\" \\\\ é\\n\"\n"
    "            },\n"
    "            \"factory\": \"appsrc\",\n"
    "            \"next\": \"appsink0\"\n"
    "        },\n"
    "        \"appsink0\": {\n"
    "            \"factory\": \"appsink\"\n"
    "        }\n"
    "    }\n"
    "}\n" },
  { "add-after-neighbour", BASE, 0, "caps", "video/x-raw",
    "{\n"
    "    \"s\": {\n"
    "        \"stream_config\": {\n"
    "            \"deviceId\": \"0\"\n"
    "        },\n"
    "        \"appsrc0\": {\n"
    "            \"props\": {\n"
    "                \"blocksize\": \"409600\",\n"
    "                \"caps\": \"video/x-raw\"\n"
    "            },\n"
    "            \"factory\": \"appsrc\",\n"
    "            \"next\": \"appsink0\"\n"
    "        },\n"
    "        \"appsink0\": {\n"
    "            \"factory\": \"appsink\"\n"
    "        }\n"
    "    }\n"
    "}\n" },
  { "add-props-object", BASE, 1, "sync", "false",
    "{\n"
    "    \"s\": {\n"
    "        \"stream_config\": {\n"
    "            \"deviceId\": \"0\"\n"
    "        },\n"
    "        \"appsrc0\": {\n"
    "            \"props\": {\n"
    "                \"blocksize\": \"409600\"\n"
    "            },\n"
    "            \"factory\": \"appsrc\",\n"
    "            \"next\": \"appsink0\"\n"
    "        },\n"
    "        \"appsink0\": {\n"
    "            \"factory\": \"appsink\",\n"
    "            \"props\": {\n"
    "                \"sync\": \"false\"\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "}\n" },
  { "one-line-element",
    "{\"s\": {\"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"}, \"appsink0\": {\"factory\": \"appsink\"}}}\n",
    1, "sync", "false",
    "{\"s\": {\"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"appsink0\"}, \"appsink0\": {\"factory\": \"appsink\", \"props\": {\"sync\": \"false\"}}}}\n" },
  { "one-line-props",
    "{\"s\": {\"appsrc0\": {\"props\": {\"blocksize\": \"1\"}, \"factory\": \"appsrc\"}}}",
    0, "caps", "x",
    "{\"s\": {\"appsrc0\": {\"props\": {\"blocksize\": \"1\", \"caps\": \"x\"}, \"factory\": \"appsrc\"}}}" },
  { "empty-props",
    "{\"s\": {\"appsrc0\": {\"props\": {}, \"factory\": \"appsrc\"}}}",
    0, "caps", "x",
    "{\"s\": {\"appsrc0\": {\"props\": {\"caps\": \"x\"}, \"factory\": \"appsrc\"}}}" },
  { "tabs-and-crlf",
    "{\r\n\t\"s\": {\r\n\t\t\"appsink0\": {\r\n\t\t\t\"factory\": \"appsink\"\r\n\t\t}\r\n\t}\r\n}\r\n",
    0, "sync", "true",
    "{\r\n\t\"s\": {\r\n\t\t\"appsink0\": {\r\n\t\t\t\"factory\": \"appsink\",\r\n\t\t\t\"props\": {\r\n\t\t\t\t\"sync\": \"true\"\r\n\t\t\t}\r\n\t\t}\r\n\t}\r\n}\r\n" },
  { "control-characters-and-cjk",
    "{\"s\": {\"a\": {\"factory\": \"appsrc\", \"props\": {\"k\": 1}}}}",
    0, "k", "\x01\t视频",
    "{\"s\": {\"a\": {\"factory\": \"appsrc\", \"props\": {\"k\": \"\\u0001\\t视频\"}}}}" },
};

static void
test_edit_case (gconstpointer data)
{
  const EditCase *c = data;
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("edit.pipeline", (const guint8 *)c->before,
                                                                 strlen (c->before));
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  gsize length;
  const char *bytes;

  g_assert_true (sl_pipeline_is_complete (pipeline));
  after = sl_pipeline_editor_set_prop (pipeline, 0, c->element, c->key, c->value, &error);
  g_assert_no_error (error);
  g_assert_nonnull (after);
  bytes = g_bytes_get_data (after, &length);
  g_assert_cmpmem (bytes, length, c->after, strlen (c->after));
}

static void
test_quote (void)
{
  g_autofree char *plain = sl_pipeline_editor_quote ("abc");
  g_autofree char *special = sl_pipeline_editor_quote ("\"\\/\b\f\n\r\t\x1f");
  g_autofree char *unicode = sl_pipeline_editor_quote ("é视");

  g_assert_cmpstr (plain, ==, "\"abc\"");
  g_assert_cmpstr (special, ==, "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u001f\"");
  g_assert_cmpstr (unicode, ==, "\"é视\"");
  g_assert_null (sl_pipeline_editor_quote ("\xff"));
}

static void
test_refuse_damaged (void)
{
  const char *text = "{\n  \"s\": {\n    \"a\": {\"factory\": \"appsrc\",, }\n  }\n}\n";
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("damaged.pipeline", (const guint8 *)text,
                                                                 strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;

  g_assert_false (sl_pipeline_is_complete (pipeline));
  after = sl_pipeline_editor_set_prop (pipeline, 0, 0, "k", "v", &error);
  g_assert_null (after);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  /* The damage is on line 3. */
  g_assert_true (g_str_has_prefix (error->message, "damaged.pipeline:3:"));
}

static void
test_refuse_bad_edits (void)
{
  const char *text = "{\"s\": {\"a\": {\"factory\": \"appsrc\", \"props\": \"no\"}, \"b\": 7}}";
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("bad.pipeline", (const guint8 *)text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;

  g_assert_true (sl_pipeline_is_complete (pipeline));

  after = sl_pipeline_editor_set_prop (pipeline, 0, 0, "k", "v", &error);
  g_assert_null (after);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_true (g_str_has_prefix (error->message, "bad.pipeline:1:"));
  g_clear_error (&error);

  after = sl_pipeline_editor_set_prop (pipeline, 0, 1, "k", "v", &error);
  g_assert_null (after);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  after = sl_pipeline_editor_set_prop (pipeline, 0, 9, "k", "v", &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  after = sl_pipeline_editor_set_prop (pipeline, 0, 0, "k", "\xc3", &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
test_save_with_backup (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sl-editor-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "app.pipeline", NULL);
  g_autofree char *backup_path = NULL;
  g_autofree char *expected_backup = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *etag = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) backup = NULL;
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;

  g_assert_true (g_file_set_contents (path, BASE, -1, NULL));
  pipeline = sl_pipeline_reader_read_file (file, NULL, &error);
  g_assert_no_error (error);
  after = sl_pipeline_editor_set_prop (pipeline, 0, 0, "blocksize", "1024", &error);
  g_assert_no_error (error);

  g_assert_true (sl_pipeline_editor_save (file, after, NULL, &etag, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (etag);

  backup = sl_pipeline_editor_dup_backup (file);
  backup_path = g_file_get_path (backup);
  expected_backup = g_strconcat (path, "~", NULL);
  g_assert_cmpstr (backup_path, ==, expected_backup);
  g_assert_true (g_file_get_contents (backup_path, &kept, &length, NULL));
  g_assert_cmpstr (kept, ==, BASE);
  g_assert_true (g_file_get_contents (path, &saved, &length, NULL));
  g_assert_nonnull (strstr (saved, "\"blocksize\": \"1024\""));
  g_assert_cmpuint (length, ==, strlen (BASE) - strlen ("409600") + strlen ("1024"));

  /* A stale etag: the file changed on disk since it was read. */
  g_assert_false (sl_pipeline_editor_save (file, after, "0:0", NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);

  g_unlink (path);
  g_unlink (backup_path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (edit_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/pipeline-editor/edit/%s", edit_cases[i].id);
      g_test_add_data_func (name, &edit_cases[i], test_edit_case);
    }
  g_test_add_func ("/pipeline-editor/quote", test_quote);
  g_test_add_func ("/pipeline-editor/refuse-damaged", test_refuse_damaged);
  g_test_add_func ("/pipeline-editor/refuse-bad-edits", test_refuse_bad_edits);
  g_test_add_func ("/pipeline-editor/save-with-backup", test_save_with_backup);

  return g_test_run ();
}
