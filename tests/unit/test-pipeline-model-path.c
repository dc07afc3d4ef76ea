/* test-pipeline-model-path.c: pointing a pipeline's inference element at a converted model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-pipeline-model-path.h"
#include "sl-pipeline-reader.h"
#include "sl-problem.h"

/* Hand-written layout (odd indentation, CRLF-free, a prop after
 * modelPath) that must survive the edit byte for byte. */
static const char pipeline_text[] =
  "{\n"
  "  \"unet\": {\n"
  "    \"stream_config\": {\"deviceId\": \"0\"},\n"
  "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"mxpi_tensorinfer0\"},\n"
  "    \"mxpi_tensorinfer0\": {\n"
  "        \"props\": {\"modelPath\": \"model/old.om\",   \"dataSource\": \"appsrc0\"},\n"
  "        \"factory\": \"mxpi_tensorinfer\",\n"
  "        \"next\": \"appsink0\"\n"
  "    },\n"
  "    \"appsink0\": {\"factory\": \"appsink\"}\n"
  "  },\n"
  "  \"second\": {\n"
  "    \"stream_config\": {\"deviceId\": \"0\"},\n"
  "    \"appsrc0\": {\"factory\": \"appsrc\", \"next\": \"mxpi_modelinfer0\"},\n"
  "    \"mxpi_modelinfer0\": {\"factory\": \"mxpi_modelinfer\", \"props\": {\"dataSource\": \"appsrc0\"}, \"next\": \"appsink0\"},\n"
  "    \"appsink0\": {\"factory\": \"appsink\"}\n"
  "  }\n"
  "}\n";

static char *
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_steal_pointer (&path);
}

static void
remove_tree (char *dir)
{
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", dir);

  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
  g_free (dir);
}

static void
test_find_pipelines (void)
{
  char *dir = g_dir_make_tmp ("sl-model-path-XXXXXX", NULL);
  g_autofree char *a = write_file (dir, "pipeline/unet.pipeline", pipeline_text);
  g_autofree char *b = write_file (dir, "app.pipeline", pipeline_text);
  g_autofree char *hidden = write_file (dir, ".cache/old.pipeline", pipeline_text);
  g_autofree char *deep = write_file (dir, "a/b/c/d/e/f/deep.pipeline", pipeline_text);
  g_autofree char *other = write_file (dir, "pipeline/notes.txt", "not a pipeline");
  g_autoptr(GPtrArray) found = sl_pipeline_model_path_find_pipelines (dir);

  g_assert_cmpuint (found->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (found, 0), ==, b);
  g_assert_cmpstr (g_ptr_array_index (found, 1), ==, a);
  remove_tree (dir);
}

static void
test_slots (void)
{
  g_autoptr(SlPipeline) pipeline = sl_pipeline_reader_read_data ("x.pipeline", (const guint8 *)pipeline_text,
                                                                 strlen (pipeline_text));
  g_autoptr(GPtrArray) slots = sl_pipeline_model_path_list_slots (pipeline);
  SlModelPathSlot *slot;

  g_assert_cmpuint (slots->len, ==, 2);
  slot = g_ptr_array_index (slots, 0);
  g_assert_cmpstr (slot->stream_name, ==, "unet");
  g_assert_cmpstr (slot->element_name, ==, "mxpi_tensorinfer0");
  g_assert_cmpstr (slot->factory, ==, "mxpi_tensorinfer");
  g_assert_cmpstr (slot->model_path, ==, "model/old.om");
  g_assert_cmpuint (slot->stream, ==, 0);
  g_assert_cmpuint (slot->element, ==, 1);
  slot = g_ptr_array_index (slots, 1);
  g_assert_cmpstr (slot->element_name, ==, "mxpi_modelinfer0");
  g_assert_null (slot->model_path);
  g_assert_cmpuint (slot->stream, ==, 1);

  {
    g_autofree char *relative = sl_pipeline_model_path_for_pipeline ("./unet.om");

    g_assert_cmpstr (relative, ==, "unet.om");
  }
}

static gboolean
mentions_model_path (GPtrArray  *problems,
                     const char *model)
{
  for (guint i = 0; i < problems->len; i++)
    if (strstr (sl_problem_get_message (g_ptr_array_index (problems, i)), model) != NULL)
      return TRUE;
  return FALSE;
}

/* Only the value changes; the old file is kept; the check runs on the
 * new one and no longer misses the model once it is there. */
static void
test_apply (void)
{
  char *dir = g_dir_make_tmp ("sl-model-path-XXXXXX", NULL);
  g_autofree char *path = write_file (dir, "pipeline/unet.pipeline", pipeline_text);
  g_autofree char *backup = g_strconcat (path, "~", NULL);
  g_autofree char *om = NULL;
  g_autofree char *text = NULL;
  g_autofree char *saved = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) expected = g_string_new (pipeline_text);

  problems = sl_pipeline_model_path_apply (path, 0, 1, "unet_hw960_bs1.om", dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (problems);
  g_assert_true (mentions_model_path (problems, "unet_hw960_bs1.om"));

  g_string_replace (expected, "\"model/old.om\"", "\"unet_hw960_bs1.om\"", 1);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, expected->str);
  g_assert_true (g_file_get_contents (backup, &saved, NULL, NULL));
  g_assert_cmpstr (saved, ==, pipeline_text);

  /* A prop it did not have goes at the end of the element's props. */
  om = write_file (dir, "unet_hw960_bs1.om", "IMOD");
  g_clear_pointer (&problems, g_ptr_array_unref);
  problems = sl_pipeline_model_path_apply (path, 1, 1, "unet_hw960_bs1.om", dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (mentions_model_path (problems, "unet_hw960_bs1.om"));
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"props\": {\"dataSource\": \"appsrc0\", \"modelPath\": \"unet_hw960_bs1.om\"}"));

  /* An element that is not there changes nothing. */
  g_clear_pointer (&problems, g_ptr_array_unref);
  problems = sl_pipeline_model_path_apply (path, 5, 0, "x.om", dir, NULL, &error);
  g_assert_null (problems);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  remove_tree (dir);
}

/* A damaged pipeline is left alone, and the error says where. */
static void
test_damaged_pipeline_is_not_touched (void)
{
  char *dir = g_dir_make_tmp ("sl-model-path-XXXXXX", NULL);
  g_autofree char *damaged = g_strndup (pipeline_text, 200);
  g_autofree char *path = write_file (dir, "broken.pipeline", damaged);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems = sl_pipeline_model_path_apply (path, 0, 1, "unet.om", dir, NULL, &error);

  g_assert_null (problems);
  g_assert_nonnull (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, damaged);
  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pipeline-model-path/find", test_find_pipelines);
  g_test_add_func ("/pipeline-model-path/slots", test_slots);
  g_test_add_func ("/pipeline-model-path/apply", test_apply);
  g_test_add_func ("/pipeline-model-path/damaged", test_damaged_pipeline_is_not_touched);
  return g_test_run ();
}
