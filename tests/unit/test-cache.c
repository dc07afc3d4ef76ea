/* test-cache.c: measuring and trimming the cache folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sl-cache.h"

static char *
make_file (const char *dir,
           const char *name,
           gsize       size,
           gint64      mtime)
{
  g_autofree char *contents = g_malloc0 (size);
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, size, NULL));
  g_assert_true (g_file_set_attribute_uint64 (file, G_FILE_ATTRIBUTE_TIME_MODIFIED, mtime,
                                              G_FILE_QUERY_INFO_NONE, NULL, NULL));
  return path;
}

static void
test_cache_default_dir (void)
{
  g_autofree char *dir = sl_cache_dup_dir (NULL);
  g_autofree char *empty = sl_cache_dup_dir ("");
  g_autofree char *configured = sl_cache_dup_dir ("/srv/cache");
  g_autofree char *expected = g_build_filename (g_get_user_cache_dir (), "sightline", NULL);

  g_assert_cmpstr (dir, ==, expected);
  g_assert_cmpstr (empty, ==, expected);
  g_assert_cmpstr (configured, ==, "/srv/cache");
}

static void
test_cache_missing_is_empty (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-cache-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (tmp, "not-there", NULL);
  g_autoptr(GError) error = NULL;
  guint64 size = 1;
  guint n_files = 1;

  g_assert_true (sl_cache_measure (missing, &size, &n_files, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, 0);
  g_assert_cmpuint (n_files, ==, 0);
  g_rmdir (tmp);
}

static void
test_cache_trim_oldest_first (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-cache-XXXXXX", NULL);
  g_autofree char *old = make_file (tmp, "targets/a/old.bin", 4000, 1000);
  g_autofree char *middle = make_file (tmp, "targets/b/middle.bin", 3000, 2000);
  g_autofree char *recent = make_file (tmp, "recent.bin", 2000, 3000);
  g_autoptr(GError) error = NULL;
  guint64 size = 0;
  guint64 freed = 0;
  guint n_files = 0;

  g_assert_true (sl_cache_measure (tmp, &size, &n_files, NULL, &error));
  g_assert_cmpuint (size, ==, 9000);
  g_assert_cmpuint (n_files, ==, 3);

  /* 5500 bytes allowed: only the oldest file has to go. */
  g_assert_true (sl_cache_trim (tmp, 5500, &freed, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (freed, ==, 4000);
  g_assert_false (g_file_test (old, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (middle, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (recent, G_FILE_TEST_EXISTS));

  /* Under the limit already: nothing is removed. */
  g_assert_true (sl_cache_trim (tmp, 5500, &freed, NULL, &error));
  g_assert_cmpuint (freed, ==, 0);

  g_assert_true (sl_cache_trim (tmp, 0, &freed, NULL, &error));
  g_assert_cmpuint (freed, ==, 5000);
  g_assert_true (sl_cache_measure (tmp, &size, &n_files, NULL, &error));
  g_assert_cmpuint (size, ==, 0);
  g_assert_cmpuint (n_files, ==, 0);
}

static void
test_cache_never_follows_links_out (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("sl-cache-XXXXXX", NULL);
  g_autofree char *outside = g_dir_make_tmp ("sl-outside-XXXXXX", NULL);
  g_autofree char *precious = make_file (outside, "precious.bin", 1000, 1000);
  g_autofree char *link = g_build_filename (tmp, "link", NULL);
  g_autoptr(GFile) link_file = g_file_new_for_path (link);
  g_autoptr(GError) error = NULL;
  guint64 size = 0;
  guint n_files = 0;

  if (!g_file_make_symbolic_link (link_file, outside, NULL, &error))
    {
      g_test_skip (error->message);
      return;
    }

  g_assert_true (sl_cache_measure (tmp, &size, &n_files, NULL, &error));
  g_assert_cmpuint (n_files, ==, 1); /* the link itself */
  g_assert_true (sl_cache_trim (tmp, 0, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (precious, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (link, G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cache/default-dir", test_cache_default_dir);
  g_test_add_func ("/cache/missing-is-empty", test_cache_missing_is_empty);
  g_test_add_func ("/cache/trim-oldest-first", test_cache_trim_oldest_first);
  g_test_add_func ("/cache/never-follows-links-out", test_cache_never_follows_links_out);

  return g_test_run ();
}
