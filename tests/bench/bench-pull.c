/* bench-pull.c: pulling from a server, against OpenSSH's sftp client
 *
 * On the throwaway loopback server of the integration tests
 * (tests/integration/sshd_fixture.py, started by this program; skipped
 * with a message when sshd is missing):
 *
 * 1. one 1 GiB file pulled with sl_folder_pull(), and fetched with
 *    `sftp -b` in the same run: MB/s of both and the ratio (goal: at
 *    least 0.9 times sftp);
 * 2. a tree of 20,000 small files pulled once, then pulled again
 *    unchanged (goal: the re-sync in at most 1.5 s).
 *
 * Usage: bench-pull [SIZE_MIB]   (1024 by default)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "sl-folder-puller.h"
#include "sl-ssh-session.h"
#include "sl-target-shell.h"

#define N_TREE_DIRS        100
#define N_TREE_FILES       20000
#define GOAL_PEER_RATIO    0.9
#define GOAL_RESYNC_SECONDS 1.5
#define SKIP               77

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / (double)G_USEC_PER_SEC;
}

static void
write_big_file (const char *path,
                guint64     size)
{
  g_autofree guint8 *block = g_malloc (1024 * 1024);
  guint32 state = 0x2545F491;
  FILE *f = g_fopen (path, "wb");

  g_assert (f != NULL);
  for (gsize i = 0; i < 1024 * 1024; i++)
    {
      state ^= state << 13; state ^= state >> 17; state ^= state << 5;
      block[i] = state & 0xff;
    }
  for (guint64 done = 0; done < size; done += 1024 * 1024)
    {
      block[0] = (guint8)(done >> 20);
      fwrite (block, 1, 1024 * 1024, f);
    }
  fclose (f);
}

static void
write_tree (const char *root)
{
  for (guint d = 0; d < N_TREE_DIRS; d++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/d%03u", root, d);

      g_mkdir_with_parents (dir, 0755);
      for (guint f = 0; f < N_TREE_FILES / N_TREE_DIRS; f++)
        {
          g_autofree char *path = g_strdup_printf ("%s/f%04u.txt", dir, f);
          g_autofree char *text = g_strdup_printf ("file %u of folder %u\n", f, d);

          g_file_set_contents (path, text, -1, NULL);
        }
    }
}

static char *
write_known_hosts (const char *tmp)
{
  const char *pub = g_getenv ("SL_SSH_HOST_KEY_PUB");
  g_autofree char *key = NULL;
  g_auto(GStrv) fields = NULL;
  g_autofree char *line = NULL;
  char *path = g_build_filename (tmp, "bench_known_hosts", NULL);

  g_file_get_contents (pub, &key, NULL, NULL);
  fields = g_strsplit (g_strstrip (key), " ", 3);
  line = g_strdup_printf ("[127.0.0.1]:%s %s %s\n", g_getenv ("SL_SSH_PORT"), fields[0], fields[1]);
  g_file_set_contents (path, line, -1, NULL);
  return path;
}

/* Written-back pages of the previous transfer would slow down the next
 * one, whichever program it is. */
static void
flush_disk (void)
{
  g_spawn_command_line_sync ("sync", NULL, NULL, NULL, NULL);
}

static double
pull_seconds (SlTargetShell *shell,
              const char    *remote,
              const char    *local,
              guint         *n_changed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlPullResult) result = NULL;
  gint64 start;
  double seconds;

  flush_disk ();
  start = g_get_monotonic_time ();
  result = sl_folder_pull (shell, remote, local, NULL, NULL, NULL, &error);
  seconds = seconds_since (start);
  if (result == NULL)
    {
      g_printerr ("bench-pull: %s\n", error->message);
      return -1;
    }
  if (n_changed != NULL)
    *n_changed = result->changed->len;
  return seconds;
}

static double
sftp_seconds (const char *known_hosts,
              const char *remote_file,
              const char *local_file)
{
  g_autofree char *port = g_strdup (g_getenv ("SL_SSH_PORT"));
  g_autofree char *destination = g_strdup_printf ("%s@127.0.0.1", g_getenv ("SL_SSH_USER"));
  g_autofree char *known = g_strdup_printf ("UserKnownHostsFile=%s", known_hosts);
  g_autofree char *batch = g_strdup_printf ("get %s %s\n", remote_file, local_file);
  const char *argv[] = {
    "sftp", "-q", "-b", "-", "-P", port, "-i", g_getenv ("SL_SSH_KEY"),
    "-o", known, "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes",
    destination, NULL
  };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) input = g_bytes_new (batch, strlen (batch));
  gint64 start;
  double seconds;

  flush_disk ();
  start = g_get_monotonic_time ();

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  if (process == NULL || !g_subprocess_communicate (process, input, NULL, NULL, NULL, &error))
    {
      g_printerr ("bench-pull: sftp: %s\n", error->message);
      return -1;
    }
  seconds = seconds_since (start);
  if (!g_subprocess_get_successful (process))
    {
      g_printerr ("bench-pull: sftp failed\n");
      return -1;
    }
  return seconds;
}

static int
run_under_fixture (int    argc,
                   char **argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_ptr_array_add (args, (char *)"python3");
  g_ptr_array_add (args, (char *)SL_SSHD_FIXTURE);
  g_ptr_array_add (args, (char *)"--run");
  for (int i = 0; i < argc; i++)
    g_ptr_array_add (args, argv[i]);
  g_ptr_array_add (args, NULL);

  if (!g_spawn_sync (NULL, (char **)args->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN,
                     NULL, NULL, NULL, NULL, &status, &error))
    {
      g_printerr ("bench-pull: could not start the server fixture: %s\n", error->message);
      return 1;
    }
  if (!g_spawn_check_wait_status (status, &error))
    {
      if (g_error_matches (error, G_SPAWN_EXIT_ERROR, SKIP))
        {
          printf ("bench-pull: skipped: sshd (openssh-server) is not installed\n");
          return 0;
        }
      return 1;
    }
  return 0;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SlSshSession) session = NULL;
  g_autoptr(SlTargetShell) shell = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *known_hosts = NULL;
  g_autofree char *remote_big_dir = NULL;
  g_autofree char *remote_big = NULL;
  g_autofree char *local_big_dir = NULL;
  g_autofree char *local_big_peer = NULL;
  g_autofree char *remote_tree = NULL;
  g_autofree char *local_tree = NULL;
  g_autofree char *command = NULL;
  guint64 size_mib = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 1024;
  double ours, peer, first, resync;
  guint n_changed = 0;

  if (g_getenv ("SL_SSH_PORT") == NULL)
    return run_under_fixture (argc, argv);

  if (g_find_program_in_path ("sftp") == NULL)
    {
      printf ("bench-pull: skipped: OpenSSH's sftp client is not installed\n");
      return 0;
    }

  tmp = g_build_filename (g_getenv ("SL_SSH_TMP"), "bench", NULL);
  remote_big_dir = g_build_filename (tmp, "remote-big", NULL);
  remote_big = g_build_filename (remote_big_dir, "weights.bin", NULL);
  local_big_dir = g_build_filename (tmp, "local-big", NULL);
  local_big_peer = g_build_filename (tmp, "peer-weights.bin", NULL);
  remote_tree = g_build_filename (tmp, "remote-tree", NULL);
  local_tree = g_build_filename (tmp, "local-tree", NULL);
  g_mkdir_with_parents (remote_big_dir, 0755);

  printf ("Writing a %llu MiB file and %u small files…\n", (unsigned long long)size_mib, N_TREE_FILES);
  fflush (stdout);
  write_big_file (remote_big, size_mib * 1024 * 1024);
  write_tree (remote_tree);

  known_hosts = write_known_hosts (g_getenv ("SL_SSH_TMP"));
  session = sl_ssh_session_new ("127.0.0.1", (guint)g_ascii_strtoull (g_getenv ("SL_SSH_PORT"), NULL, 10),
                                g_getenv ("SL_SSH_USER"));
  sl_ssh_session_set_identity_file (session, g_getenv ("SL_SSH_KEY"));
  sl_ssh_session_set_known_hosts_file (session, known_hosts);
  if (!sl_ssh_session_connect (session, NULL, NULL, NULL, &error))
    {
      g_printerr ("bench-pull: %s\n", error->message);
      return 1;
    }
  shell = sl_target_shell_new_ssh (session);

  /* Alternate, so the page cache favours neither; best of three each. */
  ours = G_MAXDOUBLE;
  peer = -1;
  for (guint run = 0; run < 3; run++)
    {
      g_autofree char *local_big = g_build_filename (local_big_dir, "weights.bin", NULL);
      double peer_run = sftp_seconds (known_hosts, remote_big, local_big_peer);
      double ours_run;

      g_remove (local_big_peer);
      ours_run = pull_seconds (shell, remote_big_dir, local_big_dir, &n_changed);
      g_remove (local_big);
      if (ours_run < 0 || n_changed != 1)
        return 1;
      ours = MIN (ours, ours_run);
      if (peer_run > 0 && (peer < 0 || peer_run < peer))
        peer = peer_run;
    }

  printf ("\n1 GiB file (%llu MiB), best of 3:\n", (unsigned long long)size_mib);
  printf ("  sightline pull   %8.1f MB/s  (%.2f s)\n", size_mib * 1.048576 / ours, ours);
  if (peer > 0)
    {
      double ratio = peer / ours;

      printf ("  sftp (OpenSSH)   %8.1f MB/s  (%.2f s)\n", size_mib * 1.048576 / peer, peer);
      printf ("  ratio            %8.2f×  (goal ≥ %.1f×: %s)\n", ratio, GOAL_PEER_RATIO,
              ratio >= GOAL_PEER_RATIO ? "met" : "NOT met");
    }

  first = pull_seconds (shell, remote_tree, local_tree, &n_changed);
  if (first < 0 || n_changed != N_TREE_FILES)
    return 1;
  resync = pull_seconds (shell, remote_tree, local_tree, &n_changed);
  if (resync < 0 || n_changed != 0)
    return 1;

  printf ("\n%u small files in %u folders:\n", N_TREE_FILES, N_TREE_DIRS);
  printf ("  first pull       %8.2f s\n", first);
  printf ("  unchanged re-sync %7.2f s  (goal ≤ %.1f s: %s)\n", resync, GOAL_RESYNC_SECONDS,
          resync <= GOAL_RESYNC_SECONDS ? "met" : "NOT met");

  command = g_strdup_printf ("rm -rf %s", tmp);
  g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  return 0;
}
