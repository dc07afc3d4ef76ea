/* test-replace-stream.c: files written whole or not at all
 *
 * The target of an SlReplaceStream changes only at a successful commit: a
 * writer that fails half-way, a stream dropped without a commit, a
 * cancelled commit, a file size limit and a full file system (a 64 KiB
 * tmpfs, where mounting is permitted) all leave the previous file as it
 * was, with no temporary file left beside it, and errors name the target.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sl-replace-stream.h"

#ifdef G_OS_UNIX
# include <signal.h>
# include <sys/resource.h>
#endif

#define OLD "the previous contents\n"

typedef struct {
  char *dir;
  char *path;
  GFile *file;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("sl-replace-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "out.csv", NULL);
  f->file = g_file_new_for_path (f->path);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  remove_tree (f->dir);
  g_object_unref (f->file);
  g_free (f->path);
  g_free (f->dir);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* The names in @dir, sorted, joined with spaces. */
static char *
list_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
write_old (Fixture *f)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (f->path, OLD, -1, &error);
  g_assert_no_error (error);
}

/* The target holds the previous contents and nothing is beside it. */
static void
assert_untouched (Fixture *f)
{
  g_autofree char *text = read_text (f->path);
  g_autofree char *names = list_dir (f->dir);

  g_assert_cmpstr (text, ==, OLD);
  g_assert_cmpstr (names, ==, "out.csv");
}

static void
write_text (SlReplaceStream *out,
            const char      *text)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (G_OUTPUT_STREAM (out), text, strlen (text), NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
test_new_file (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlReplaceStream) out = sl_replace_stream_new (f->file, NULL, &error);
  g_autofree char *text = NULL;
  g_autofree char *names = NULL;

  g_assert_no_error (error);
  write_text (out, "a,b\n1,2\n");
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
  g_assert_true (sl_replace_stream_commit (out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_is_closed (G_OUTPUT_STREAM (out)));

  text = read_text (f->path);
  g_assert_cmpstr (text, ==, "a,b\n1,2\n");
  names = list_dir (f->dir);
  g_assert_cmpstr (names, ==, "out.csv");
}

static void
test_replaces (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlReplaceStream) out = NULL;
  g_autofree char *text = NULL;
  g_autofree char *names = NULL;
  GStatBuf st;

  write_old (f);
  g_assert_cmpint (g_chmod (f->path, 0640), ==, 0);
  out = sl_replace_stream_new (f->file, NULL, &error);
  g_assert_no_error (error);
  write_text (out, "new\n");

  /* until the commit, the old file is there and the new one beside it */
  text = read_text (f->path);
  g_assert_cmpstr (text, ==, OLD);
  names = list_dir (f->dir);
  g_assert_true (g_str_has_prefix (names, ".out.csv."));
  g_assert_true (g_str_has_suffix (names, ".part out.csv"));

  g_assert_true (sl_replace_stream_commit (out, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&names, g_free);
  text = read_text (f->path);
  g_assert_cmpstr (text, ==, "new\n");
  names = list_dir (f->dir);
  g_assert_cmpstr (names, ==, "out.csv");
#ifdef G_OS_UNIX
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0640);
#else
  (void) st;
#endif
}

/* A writer that fails half-way drops the stream without a commit. */
static gboolean
write_rows_then_fail (GOutputStream  *out,
                      GError        **error)
{
  for (int i = 0; i < 1000; i++)
    {
      g_autofree char *row = g_strdup_printf ("%d,%d\n", i, i * i);

      if (!g_output_stream_write_all (out, row, strlen (row), NULL, NULL, error))
        return FALSE;
    }
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the data ran out");
  return FALSE;
}

static void
test_writer_fails (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  SlReplaceStream *out;

  write_old (f);
  out = sl_replace_stream_new (f->file, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (write_rows_then_fail (G_OUTPUT_STREAM (out), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_object_unref (out);
  assert_untouched (f);
}

static void
test_cancelled_commit (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SlReplaceStream) out = NULL;

  write_old (f);
  out = sl_replace_stream_new (f->file, NULL, &error);
  g_assert_no_error (error);
  write_text (out, "half of it");
  g_cancellable_cancel (cancellable);
  g_assert_false (sl_replace_stream_commit (out, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, f->path));
  g_assert_true (g_output_stream_is_closed (G_OUTPUT_STREAM (out)));
  assert_untouched (f);
}

static void
test_missing_folder (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "missing", "out.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SlReplaceStream) out = sl_replace_stream_new (file, NULL, &error);
  g_autofree char *expected = g_strdup_printf ("Cannot write “%s”: its folder does not exist", path);

  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_folder (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (f->dir);
  g_autoptr(SlReplaceStream) out = sl_replace_stream_new (file, NULL, &error);

  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_assert_nonnull (strstr (error->message, f->dir));
  g_assert_true (g_file_test (f->dir, G_FILE_TEST_IS_DIR));
}

static void
test_contents (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  write_old (f);
  g_assert_true (sl_replace_file_contents (f->file, "x\n", 2, NULL, &error));
  g_assert_no_error (error);
  text = read_text (f->path);
  g_assert_cmpstr (text, ==, "x\n");
}

#ifdef G_OS_UNIX
/* A symbolic link stays a link; the file it names is replaced. */
static void
test_symlink (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *real = g_build_filename (f->dir, "real.csv", NULL);
  g_autofree char *text = NULL;

  g_assert_true (g_file_set_contents (real, OLD, -1, NULL));
  g_assert_true (g_file_make_symbolic_link (f->file, "real.csv", NULL, &error));
  g_assert_true (sl_replace_file_contents (f->file, "linked\n", 7, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (f->path, G_FILE_TEST_IS_SYMLINK));
  text = read_text (real);
  g_assert_cmpstr (text, ==, "linked\n");
}

/* A file size limit makes writes fail as a full disk does. */
static void
test_size_limit (Fixture       *f,
                 gconstpointer  data)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *big = g_strnfill (64 * 1024, 'x');
      struct rlimit limit = { 4096, 4096 };
      SlReplaceStream *out;
      gboolean ok;

      write_old (f);
      signal (SIGXFSZ, SIG_IGN);
      g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
      out = sl_replace_stream_new (f->file, NULL, &error);
      g_assert_no_error (error);
      ok = g_output_stream_write_all (G_OUTPUT_STREAM (out), big, strlen (big), NULL, NULL, &error) &&
           sl_replace_stream_commit (out, NULL, &error);
      g_assert_false (ok);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, f->path));
      g_object_unref (out);
      assert_untouched (f);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static gboolean
run_quietly (const char * const *argv)
{
  int status = -1;

  return g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
                       G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL) &&
         g_spawn_check_wait_status (status, NULL);
}

/* A real full file system: a 64 KiB tmpfs, where mounting is permitted. */
static void
test_full_disk (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *mount_dir = g_build_filename (f->dir, "small", NULL);
  const char *mount_argv[] = { "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mount_dir, NULL };
  const char *umount_argv[] = { "umount", mount_dir, NULL };
  g_autofree char *big = g_strnfill (256 * 1024, 'x');
  g_autoptr(GError) error = NULL;
  Fixture inner = { 0 };
  SlReplaceStream *out;
  gboolean ok;

  g_assert_cmpint (g_mkdir (mount_dir, 0700), ==, 0);
  if (!run_quietly (mount_argv))
    {
      g_test_skip ("mounting a tmpfs is not permitted here");
      return;
    }

  inner.dir = mount_dir;
  inner.path = g_build_filename (mount_dir, "out.csv", NULL);
  inner.file = g_file_new_for_path (inner.path);
  write_old (&inner);

  out = sl_replace_stream_new (inner.file, NULL, &error);
  g_assert_no_error (error);
  ok = g_output_stream_write_all (G_OUTPUT_STREAM (out), big, strlen (big), NULL, NULL, &error) &&
       sl_replace_stream_commit (out, NULL, &error);
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_nonnull (strstr (error->message, inner.path));
  g_object_unref (out);
  assert_untouched (&inner);

  g_assert_true (run_quietly (umount_argv));
  g_object_unref (inner.file);
  g_free (inner.path);
}
#endif

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/replace-stream/new-file", test_new_file);
  ADD ("/replace-stream/replaces", test_replaces);
  ADD ("/replace-stream/writer-fails", test_writer_fails);
  ADD ("/replace-stream/cancelled-commit", test_cancelled_commit);
  ADD ("/replace-stream/missing-folder", test_missing_folder);
  ADD ("/replace-stream/folder", test_folder);
  ADD ("/replace-stream/contents", test_contents);
#ifdef G_OS_UNIX
  ADD ("/replace-stream/symlink", test_symlink);
  ADD ("/replace-stream/size-limit", test_size_limit);
  ADD ("/replace-stream/full-disk", test_full_disk);
#endif
#undef ADD

  return g_test_run ();
}
