/* test-project-upload.c: sl_project_upload() on this computer and over SSH
 *
 * A generated project (excluded folders and patterns, names with spaces
 * and quotes, a file larger than one SFTP chunk) is uploaded; exactly
 * the files that should arrive are there, with their sizes and
 * modification times. Then one file changes and only it is sent again:
 * the counts and progress say so, and the other files on the target are
 * still the same files (same inode).
 *
 * The target's folder is on this computer in both cases (the fixture's
 * server runs here), so what arrived is checked on the file system, not
 * through the code under test. The SSH case runs through sshd_fixture.py
 * and is skipped without it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-project-upload.h"
#include "sl-shell-quote.h"
#include "sl-ssh-session.h"
#include "sl-target-shell.h"

/* 2021-01-01, so a copy that lost the time is not "just now". */
#define BASE_MTIME G_GUINT64_CONSTANT (1609459200)

static const char * const excludes[] = { ".git", "__pycache__", "*.ckpt", NULL };

typedef struct {
  const char *relative;
  gsize       size;
  gboolean    sent;      /* FALSE: excluded */
} ProjectFile;

static const ProjectFile project[] = {
  { "train.py",                       120,        TRUE },
  { "data file.txt",                  33,         TRUE },
  { "it's \"quoted\".txt",            7,          TRUE },
  { "empty",                          0,          TRUE },
  { "pkg/__init__.py",                1,          TRUE },
  { "pkg/sub dir/weights 'v2'.bin",   200 * 1024, TRUE },
  { ".git/HEAD",                      23,         FALSE },
  { ".git/objects/ab/cdef",           64,         FALSE },
  { "__pycache__/train.cpython-311.pyc", 90,      FALSE },
  { "pkg/__pycache__/init.pyc",       10,         FALSE },
  { "model.ckpt",                     4096,       FALSE },
  { "pkg/sub dir/epoch 1.ckpt",       512,        FALSE },
};

/* .git, __pycache__, pkg/__pycache__, model.ckpt, epoch 1.ckpt: an
 * excluded folder counts once, whatever it holds. */
#define N_EXCLUDED 5

/* Reports are at most 10 a second, but the first and the last always
 * come: the files named in between are some of those sent. */
typedef struct {
  GHashTable *named;
  guint64    files_total;
  guint64    files_done;
  guint64    bytes_total;
  guint64    bytes_done;
  guint      n_reports;
} Progress;

static void
progress_reset (Progress *progress)
{
  g_clear_pointer (&progress->named, g_hash_table_unref);
  memset (progress, 0, sizeof *progress);
  progress->named = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
on_progress (const SlTransferProgress *report,
             gpointer                  user_data)
{
  Progress *progress = user_data;

  g_assert_cmpuint (report->files_done, <=, report->files_total);
  g_assert_cmpuint (report->bytes_done, <=, report->bytes_total);
  if (progress->n_reports > 0)
    {
      g_assert_cmpuint (report->files_total, ==, progress->files_total);
      g_assert_cmpuint (report->bytes_total, ==, progress->bytes_total);
    }
  if (report->current != NULL)
    g_hash_table_add (progress->named, g_strdup (report->current));
  progress->files_total = report->files_total;
  progress->files_done = report->files_done;
  progress->bytes_total = report->bytes_total;
  progress->bytes_done = report->bytes_done;
  progress->n_reports++;
}

static void
write_file (const char *root,
            const char *relative,
            gsize       size,
            guint64     mtime)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *contents = g_malloc (MAX (size, 1));
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  for (gsize i = 0; i < size; i++)
    contents[i] = (char)(g_str_hash (relative) + i * 31);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_file_set_contents (path, contents, size, &error);
  g_assert_no_error (error);
  g_file_set_attribute_uint64 (file, G_FILE_ATTRIBUTE_TIME_MODIFIED, mtime,
                               G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, &error);
  g_assert_no_error (error);
}

static GFileInfo *
query (const char *root,
       const char *relative)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  GFileInfo *info;

  info = g_file_query_info (file,
                            G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                            G_FILE_ATTRIBUTE_UNIX_INODE,
                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, &error);
  g_assert_no_error (error);
  return info;
}

/* Every regular file under @root, relative, sorted: temporary files
 * left behind would show up here too. */
static void
collect_files (GFile      *dir,
               const char *relative,
               GPtrArray  *found)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GError) error = NULL;

  enumerator = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, &error);
  g_assert_no_error (error);

  for (;;)
    {
      GFileInfo *info = NULL;
      GFile *child = NULL;
      g_autofree char *child_relative = NULL;

      g_assert_true (g_file_enumerator_iterate (enumerator, &info, &child, NULL, &error));
      g_assert_no_error (error);
      if (info == NULL)
        break;

      child_relative = relative[0] != '\0' ? g_strconcat (relative, "/", g_file_info_get_name (info), NULL)
                                           : g_strdup (g_file_info_get_name (info));
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        collect_files (child, child_relative, found);
      else
        g_ptr_array_add (found, g_steal_pointer (&child_relative));
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

static void
assert_arrived (const char *local_root,
                const char *remote_root)
{
  g_autoptr(GFile) remote = g_file_new_for_path (remote_root);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) expected = g_ptr_array_new ();

  collect_files (remote, "", found);
  g_ptr_array_sort (found, compare_strings);
  for (guint i = 0; i < G_N_ELEMENTS (project); i++)
    if (project[i].sent)
      g_ptr_array_add (expected, (gpointer)project[i].relative);
  g_ptr_array_sort (expected, compare_strings);

  g_assert_cmpuint (found->len, ==, expected->len);
  for (guint i = 0; i < found->len; i++)
    {
      const char *relative = g_ptr_array_index (expected, i);
      g_autoptr(GFileInfo) local_info = NULL;
      g_autoptr(GFileInfo) remote_info = NULL;

      g_assert_cmpstr (g_ptr_array_index (found, i), ==, relative);
      local_info = query (local_root, relative);
      remote_info = query (remote_root, relative);
      g_assert_cmpint (g_file_info_get_size (remote_info), ==, g_file_info_get_size (local_info));
      g_assert_cmpuint (g_file_info_get_attribute_uint64 (remote_info, G_FILE_ATTRIBUTE_TIME_MODIFIED), ==,
                        g_file_info_get_attribute_uint64 (local_info, G_FILE_ATTRIBUTE_TIME_MODIFIED));
    }
}

static guint64
sum_sent_sizes (void)
{
  guint64 total = 0;

  for (guint i = 0; i < G_N_ELEMENTS (project); i++)
    if (project[i].sent)
      total += project[i].size;
  return total;
}

/* @only: the one file that may be named, or %NULL for any that is sent */
static void
assert_named_were_sent (Progress   *progress,
                        const char *only)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, progress->named);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gboolean known = FALSE;

      if (only != NULL)
        {
          g_assert_cmpstr (key, ==, only);
          continue;
        }
      for (guint i = 0; i < G_N_ELEMENTS (project); i++)
        known |= project[i].sent && g_str_equal (project[i].relative, key);
      g_assert_true (known);
    }
}

static void
check_upload (SlTargetShell *shell)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *local_root = NULL;
  g_autofree char *remote_parent = NULL;
  g_autofree char *remote_root = NULL;
  const char *changed = "pkg/sub dir/weights 'v2'.bin";
  g_autoptr(GHashTable) inodes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, NULL);
  SlUploadStats stats = { 0 };
  Progress progress = { 0 };
  guint n_sent = 0;

  local_root = g_dir_make_tmp ("sl-upload-local-XXXXXX", &error);
  g_assert_no_error (error);
  remote_parent = g_dir_make_tmp ("sl-upload-remote-XXXXXX", &error);
  g_assert_no_error (error);
  /* Made by the upload itself, with a space in its name. */
  remote_root = g_build_filename (remote_parent, "my project", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (project); i++)
    write_file (local_root, project[i].relative, project[i].size, BASE_MTIME + i * 60);
  for (guint i = 0; i < G_N_ELEMENTS (project); i++)
    n_sent += project[i].sent;

  /* First upload: everything that is not excluded. */
  progress_reset (&progress);
  g_assert_true (sl_project_upload (shell, local_root, remote_root, excludes, FALSE,
                                    on_progress, &progress, &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.files_sent, ==, n_sent);
  g_assert_cmpuint (stats.files_unchanged, ==, 0);
  g_assert_cmpuint (stats.files_excluded, ==, N_EXCLUDED);
  g_assert_cmpuint (stats.bytes_sent, ==, sum_sent_sizes ());
  g_assert_cmpuint (progress.files_total, ==, n_sent);
  g_assert_cmpuint (progress.files_done, ==, n_sent);
  g_assert_cmpuint (progress.bytes_total, ==, sum_sent_sizes ());
  g_assert_cmpuint (progress.bytes_done, ==, sum_sent_sizes ());
  g_assert_cmpuint (progress.n_reports, >=, 2);
  assert_named_were_sent (&progress, NULL);
  assert_arrived (local_root, remote_root);

  for (guint i = 0; i < G_N_ELEMENTS (project); i++)
    if (project[i].sent)
      {
        g_autoptr(GFileInfo) info = query (remote_root, project[i].relative);

        g_hash_table_insert (inodes, (gpointer)project[i].relative,
                             GSIZE_TO_POINTER (g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_UNIX_INODE)));
      }

  /* Unchanged: nothing is sent. */
  progress_reset (&progress);
  g_assert_true (sl_project_upload (shell, local_root, remote_root, excludes, FALSE,
                                    on_progress, &progress, &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.files_sent, ==, 0);
  g_assert_cmpuint (stats.files_unchanged, ==, n_sent);
  g_assert_cmpuint (stats.files_excluded, ==, N_EXCLUDED);
  g_assert_cmpuint (stats.bytes_sent, ==, 0);
  g_assert_cmpuint (progress.files_total, ==, 0);
  g_assert_cmpuint (progress.bytes_total, ==, 0);
  g_assert_cmpuint (g_hash_table_size (progress.named), ==, 0);

  /* One file changes (new size, new time): only it is sent. */
  write_file (local_root, changed, 150 * 1024 + 3, BASE_MTIME + 86400);
  progress_reset (&progress);
  g_assert_true (sl_project_upload (shell, local_root, remote_root, excludes, FALSE,
                                    on_progress, &progress, &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.files_sent, ==, 1);
  g_assert_cmpuint (stats.files_unchanged, ==, n_sent - 1);
  g_assert_cmpuint (stats.files_excluded, ==, N_EXCLUDED);
  g_assert_cmpuint (stats.bytes_sent, ==, 150 * 1024 + 3);
  g_assert_cmpuint (progress.files_total, ==, 1);
  g_assert_cmpuint (progress.files_done, ==, 1);
  g_assert_cmpuint (progress.bytes_total, ==, 150 * 1024 + 3);
  g_assert_cmpuint (progress.bytes_done, ==, 150 * 1024 + 3);
  assert_named_were_sent (&progress, changed);
  assert_arrived (local_root, remote_root);

  /* The others are the very files of the first upload; the changed one
   * was replaced. */
  for (guint i = 0; i < G_N_ELEMENTS (project); i++)
    if (project[i].sent)
      {
        g_autoptr(GFileInfo) info = query (remote_root, project[i].relative);
        gsize inode = (gsize)g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_UNIX_INODE);
        gsize before = GPOINTER_TO_SIZE (g_hash_table_lookup (inodes, project[i].relative));

        if (g_str_equal (project[i].relative, changed))
          g_assert_cmpuint (inode, !=, before);
        else
          g_assert_cmpuint (inode, ==, before);
      }

  g_clear_pointer (&progress.named, g_hash_table_unref);
  {
    g_autofree char *quoted_local = sl_shell_quote (local_root);
    g_autofree char *quoted_remote = sl_shell_quote (remote_parent);
    g_autofree char *command = g_strdup_printf ("rm -rf -- %s %s", quoted_local, quoted_remote);

    g_assert_true (sl_target_shell_run (shell, command, NULL, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }
}

static void
test_local (void)
{
  g_autoptr(SlTargetShell) shell = sl_target_shell_new_local ();

  check_upload (shell);
}

/* The fixture's host key is accepted for this session only. */
static SlSshSession *
new_connected_session (void)
{
  g_autofree char *known_hosts = g_build_filename (g_getenv ("SL_SSH_TMP"), "upload_known_hosts", NULL);
  SlSshSession *session = sl_ssh_session_new (g_getenv ("SL_SSH_HOST"), atoi (g_getenv ("SL_SSH_PORT")),
                                              g_getenv ("SL_SSH_USER"));
  g_autoptr(GError) error = NULL;
  g_autofree char *fingerprint = NULL;

  sl_ssh_session_set_identity_file (session, g_getenv ("SL_SSH_KEY"));
  sl_ssh_session_set_known_hosts_file (session, known_hosts);
  sl_ssh_session_set_timeout (session, 5);

  g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN);
  g_clear_error (&error);
  g_assert_true (sl_ssh_session_dup_host_key (session, NULL, &fingerprint));
  sl_ssh_session_accept_host_key (session, fingerprint, FALSE);
  g_assert_true (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  return session;
}

static void
test_ssh (void)
{
  g_autoptr(SlSshSession) session = NULL;
  g_autoptr(SlTargetShell) shell = NULL;

  if (g_getenv ("SL_SSH_PORT") == NULL)
    {
      g_test_skip ("Run through tests/integration/sshd_fixture.py --run");
      return;
    }

  session = new_connected_session ();
  shell = sl_target_shell_new_ssh (session);
  check_upload (shell);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/project-upload/local", test_local);
  g_test_add_func ("/project-upload/ssh", test_ssh);

  return g_test_run ();
}
