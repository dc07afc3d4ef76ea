/* test-ssh-session.c: SlSshSession against a real sshd
 *
 * Run through sshd_fixture.py, which starts the server and says where it
 * is in SL_SSH_* variables: host keys accepted once, streamed output and
 * exit status, standard input, hostile names through the shell and SFTP,
 * upload and download, cancellation, async calls from a main loop, and
 * ~/.ssh of $HOME (not of the account's entry) for the remembered host
 * key, the configuration and the default keys.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#ifdef G_OS_UNIX
#include <pwd.h>
#include <unistd.h>
#endif

#include "sl-known-hosts.h"
#include "sl-shell-quote.h"
#include "sl-ssh-session.h"

static const char * const hostile[] = {
  "two words",
  "it's",
  "\"double\"",
  "$(touch sl-pwned)",
  "`id`",
  "a;b",
  "line\nbreak",
  "glob*?",
  "-n",
  "中文 名字",
  " ",
};

static char *remote_tmp;

static SlSshSession *
new_session (void)
{
  const char *port = g_getenv ("SL_SSH_PORT");
  g_autofree char *known_hosts = g_build_filename (g_getenv ("SL_SSH_TMP"), "session_known_hosts", NULL);
  SlSshSession *session = sl_ssh_session_new (g_getenv ("SL_SSH_HOST"), atoi (port), g_getenv ("SL_SSH_USER"));

  sl_ssh_session_set_identity_file (session, g_getenv ("SL_SSH_KEY"));
  sl_ssh_session_set_known_hosts_file (session, known_hosts);
  sl_ssh_session_set_timeout (session, 5);
  return session;
}

/* Accepts the server's key for this session only, after checking that
 * it is refused first and that its fingerprint is the fixture's. */
static SlSshSession *
new_connected_session (void)
{
  SlSshSession *session = new_session ();
  g_autoptr(GError) error = NULL;
  g_autofree char *type = NULL;
  g_autofree char *fingerprint = NULL;

  g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN);
  g_assert_nonnull (strstr (error->message, "SHA256:"));
  g_assert_false (sl_ssh_session_is_connected (session));
  g_clear_error (&error);

  g_assert_true (sl_ssh_session_dup_host_key (session, &type, &fingerprint));
  g_assert_cmpstr (type, ==, "ssh-ed25519");
  g_assert_true (g_str_has_prefix (fingerprint, "SHA256:"));

  sl_ssh_session_accept_host_key (session, fingerprint, FALSE);
  g_assert_true (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (sl_ssh_session_is_connected (session));
  return session;
}

static void
test_accept_once (void)
{
  g_autoptr(SlSshSession) session = new_connected_session ();
  g_autofree char *known_hosts = g_build_filename (g_getenv ("SL_SSH_TMP"), "session_known_hosts", NULL);
  g_autoptr(SlSshSession) second = NULL;
  g_autoptr(GError) error = NULL;

  /* Accepted once means not written down: a new session asks again. */
  g_assert_false (g_file_test (known_hosts, G_FILE_TEST_EXISTS));
  second = new_session ();
  g_assert_false (sl_ssh_session_connect (second, NULL, NULL, NULL, &error));
  g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN);
  g_clear_error (&error);

  /* A fingerprint the user did not see is no acceptance. */
  sl_ssh_session_accept_host_key (second, "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", TRUE);
  g_assert_false (sl_ssh_session_connect (second, NULL, NULL, NULL, &error));
  g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN);
  g_assert_false (g_file_test (known_hosts, G_FILE_TEST_EXISTS));
}

typedef struct {
  GString *out;
  GString *err;
  guint    n_out_chunks;
  gboolean done;
  gboolean ok;
  int      exit_status;
  GError  *error;
} ExecState;

static void
on_output (SlSshStream  stream,
           GBytes      *data,
           gpointer     user_data)
{
  ExecState *state = user_data;
  gsize size = 0;
  const char *bytes = g_bytes_get_data (data, &size);

  g_assert_false (state->done);
  if (stream == SL_SSH_STREAM_STDOUT)
    {
      g_string_append_len (state->out, bytes, size);
      state->n_out_chunks++;
    }
  else
    g_string_append_len (state->err, bytes, size);
}

static void
on_exec_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ExecState *state = user_data;

  state->ok = sl_ssh_session_exec_finish (SL_SSH_SESSION (object), result, &state->exit_status, &state->error);
  state->done = TRUE;
}

static void
test_exec_streams (void)
{
  g_autoptr(SlSshSession) session = new_connected_session ();
  ExecState state = { g_string_new (NULL), g_string_new (NULL), 0, FALSE, FALSE, -1, NULL };
  GMainContext *context = g_main_context_default ();

  /* Async, from a main loop: output arrives while the command runs,
   * before the completion callback. */
  sl_ssh_session_exec_async (session, "printf 'first\\n'; printf 'oops\\n' >&2; sleep 0.5; printf 'second\\n'; exit 3",
                             NULL, on_output, &state, NULL, on_exec_done, &state);
  while (!state.done)
    g_main_context_iteration (context, TRUE);

  g_assert_no_error (state.error);
  g_assert_true (state.ok);
  g_assert_cmpint (state.exit_status, ==, 3);
  g_assert_cmpstr (state.out->str, ==, "first\nsecond\n");
  g_assert_cmpstr (state.err->str, ==, "oops\n");
  g_assert_cmpuint (state.n_out_chunks, >=, 2);

  g_string_free (state.out, TRUE);
  g_string_free (state.err, TRUE);
}

static void
test_exec_input_and_status (void)
{
  g_autoptr(SlSshSession) session = new_connected_session ();
  g_autoptr(GBytes) input = g_bytes_new_static ("line one\nline two\n", 18);
  ExecState state = { g_string_new (NULL), g_string_new (NULL), 0, FALSE, FALSE, -1, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_assert_true (sl_ssh_session_exec (session, "wc -l", input, on_output, &state, &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (g_strstrip (state.out->str), ==, "2");

  g_assert_true (sl_ssh_session_run (session, "echo to-err >&2; false", &out, &err, &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, "to-err\n");

  g_string_free (state.out, TRUE);
  g_string_free (state.err, TRUE);
}

static gpointer
cancel_soon (gpointer data)
{
  g_usleep (300 * G_TIME_SPAN_MILLISECOND);
  g_cancellable_cancel (data);
  return NULL;
}

static void
test_exec_cancel (void)
{
  g_autoptr(SlSshSession) session = new_connected_session ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  gint64 start = g_get_monotonic_time ();
  int status = -1;
  GThread *thread;

  thread = g_thread_new ("cancel", cancel_soon, cancellable);
  g_assert_false (sl_ssh_session_exec (session, "sleep 30", NULL, NULL, NULL, &status, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_thread_join (thread);

  /* The session is still usable. */
  g_assert_true (sl_ssh_session_run (session, "echo alive", &out, NULL, &status, NULL, NULL));
  g_assert_cmpstr (out, ==, "alive\n");
}

static void
test_quoting_round_trip (void)
{
  g_autoptr(SlSshSession) session = new_connected_session ();

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autofree char *quoted = sl_shell_quote (hostile[i]);
      g_autofree char *command = g_strdup_printf ("cd %s && printf %%s %s", remote_tmp, quoted);
      g_autoptr(GError) error = NULL;
      g_autofree char *out = NULL;
      int status = -1;

      g_assert_true (sl_ssh_session_run (session, command, &out, NULL, &status, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (status, ==, 0);
      g_assert_cmpstr (out, ==, hostile[i]);
    }
}

static gboolean
contains_name (GPtrArray  *infos,
               const char *name)
{
  for (guint i = 0; i < infos->len; i++)
    if (g_str_equal (g_file_info_get_name (g_ptr_array_index (infos, i)), name))
      return TRUE;
  return FALSE;
}

static void
test_hostile_files (void)
{
  g_autoptr(SlSshSession) session = new_connected_session ();
  g_autofree char *dir = g_build_filename (remote_tmp, "names", NULL);
  g_autofree char *quoted_dir = sl_shell_quote (dir);
  g_autofree char *mkdir = g_strdup_printf ("mkdir %s", quoted_dir);
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_true (sl_ssh_session_run (session, mkdir, NULL, NULL, &status, NULL, &error));
  g_assert_cmpint (status, ==, 0);

  /* Created through the shell, listed through SFTP. */
  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autofree char *path = g_build_filename (dir, hostile[i], NULL);
      g_autofree char *quoted = sl_shell_quote (path);
      g_autofree char *command = g_strdup_printf ("printf %%s %s > %s", quoted, quoted);

      g_assert_true (sl_ssh_session_run (session, command, NULL, NULL, &status, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (status, ==, 0);
    }

  infos = sl_ssh_session_list_dir (session, dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (infos->len, ==, G_N_ELEMENTS (hostile));
  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autofree char *path = g_build_filename (dir, hostile[i], NULL);
      g_autoptr(GFileInfo) info = NULL;

      g_assert_true (contains_name (infos, hostile[i]));
      info = sl_ssh_session_stat (session, path, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_file_info_get_file_type (info), ==, G_FILE_TYPE_REGULAR);
      g_assert_cmpint (g_file_info_get_size (info), ==, strlen (path));
    }

  /* Nothing that was quoted ran. */
  {
    g_autofree char *marker = g_build_filename (remote_tmp, "sl-pwned", NULL);
    g_autoptr(GFileInfo) info = sl_ssh_session_stat (session, marker, NULL, &error);

    g_assert_null (info);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  }
}

static void
test_upload_download (void)
{
  g_autoptr(SlSshSession) session = new_connected_session ();
  g_autofree char *local_dir = g_dir_make_tmp ("sl-ssh-transfer-XXXXXX", NULL);
  g_autofree char *source_path = g_build_filename (local_dir, "source.bin", NULL);
  g_autofree char *back_path = g_build_filename (local_dir, "back it's.bin", NULL);
  g_autofree char *remote_path = g_build_filename (remote_tmp, "up $(x); it's\nhere.bin", NULL);
  g_autoptr(GFile) source = g_file_new_for_path (source_path);
  g_autoptr(GFile) back = g_file_new_for_path (back_path);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *quoted = sl_shell_quote (remote_path);
  g_autofree char *sum_command = g_strdup_printf ("cksum < %s", quoted);
  g_autofree char *remote_sum = NULL;
  gsize size = 3 * 1024 * 1024 + 12345;  /* many chunks and a short tail */
  gsize back_size = 0;
  guint8 *data = g_malloc (size);
  GRand *rand = g_rand_new_with_seed (42);
  int status = -1;

  for (gsize i = 0; i < size; i++)
    data[i] = g_rand_int (rand) & 0xff;
  g_rand_free (rand);
  g_assert_true (g_file_set_contents (source_path, (char *)data, size, NULL));

  g_assert_true (sl_ssh_session_upload (session, source, remote_path, NULL, &error));
  g_assert_no_error (error);
  info = sl_ssh_session_stat (session, remote_path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_file_info_get_size (info), ==, size);

  /* Uploading again replaces the file. */
  g_assert_true (sl_ssh_session_upload (session, source, remote_path, NULL, &error));
  g_assert_no_error (error);

  g_assert_true (sl_ssh_session_download (session, remote_path, back, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (back_path, &contents, &back_size, NULL));
  g_assert_cmpuint (back_size, ==, size);
  g_assert_true (memcmp (contents, data, size) == 0);

  /* Checked on the server too, and no temporary file is left behind. */
  g_assert_true (sl_ssh_session_run (session, sum_command, &remote_sum, NULL, &status, NULL, &error));
  g_assert_cmpint (status, ==, 0);
  {
    g_autofree char *local_quoted = sl_shell_quote (source_path);
    g_autofree char *local_command = g_strdup_printf ("cksum < %s", local_quoted);
    g_autofree char *local_sum = NULL;

    {
      const char *argv[] = { "/bin/sh", "-c", local_command, NULL };

      g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &local_sum, NULL, NULL, NULL));
      g_assert_cmpstr (remote_sum, ==, local_sum);
    }
  }

  {
    g_autoptr(GPtrArray) infos = sl_ssh_session_list_dir (session, remote_tmp, NULL, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < infos->len; i++)
      g_assert_null (strstr (g_file_info_get_name (g_ptr_array_index (infos, i)), "sl-part"));
  }

  /* A missing remote file: a clear error and no local file. */
  {
    g_autofree char *missing_path = g_build_filename (local_dir, "missing.bin", NULL);
    g_autoptr(GFile) missing = g_file_new_for_path (missing_path);
    g_autoptr(GError) missing_error = NULL;

    g_assert_false (sl_ssh_session_download (session, "/nonexistent/sl-file", missing, NULL, &missing_error));
    g_assert_error (missing_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_false (g_file_test (missing_path, G_FILE_TEST_EXISTS));
  }

  g_unlink (source_path);
  g_unlink (back_path);
  g_rmdir (local_dir);
  g_free (data);
}

static void
test_wrong_key (void)
{
  g_autoptr(SlSshSession) session = new_session ();
  g_autoptr(GError) error = NULL;
  g_autofree char *fingerprint = NULL;

  g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  g_clear_error (&error);
  sl_ssh_session_dup_host_key (session, NULL, &fingerprint);
  sl_ssh_session_accept_host_key (session, fingerprint, FALSE);
  sl_ssh_session_set_identity_file (session, g_getenv ("SL_SSH_WRONG_KEY"));

  g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
  g_assert_nonnull (strstr (error->message, "publickey"));
}


static void
on_step_keep_host_key (SlSshStep        step,
                       SlSshStepStatus  status,
                       const char      *detail,
                       const char      *hint,
                       gpointer         user_data)
{
  char **host_key_detail = user_data;

  if (step == SL_SSH_STEP_HOST_KEY)
    {
      g_free (*host_key_detail);
      *host_key_detail = g_strdup (detail);
    }
}

/* The key field (the base64 after the type) of an OpenSSH public key
 * file or known hosts line. */
static char *
dup_key_field (const char *line,
               guint       field)
{
  g_auto(GStrv) fields = g_strsplit_set (line, " \t", -1);

  g_assert_cmpuint (g_strv_length (fields), >, field);
  return g_strdup (g_strstrip (fields[field]));
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (from, &contents, &length, &error));
  g_assert_true (g_file_set_contents_full (to, contents, length, G_FILE_SET_CONTENTS_NONE, 0600, &error));
  g_assert_no_error (error);
}

/* With the Known hosts field empty, the host key is remembered in
 * ~/.ssh/known_hosts of $HOME, which the fixture sets apart from the
 * account's home folder: the file the message names is the one written,
 * and the next connection reads it. The configuration and the default
 * keys are looked up in the same folder. */
static void
test_home_ssh_folder (void)
{
  const char *home = g_getenv ("HOME");
  guint port = atoi (g_getenv ("SL_SSH_PORT"));
  g_autofree char *ssh_dir = g_build_filename (home, ".ssh", NULL);
  g_autofree char *known_hosts = g_build_filename (ssh_dir, "known_hosts", NULL);
  g_autofree char *config = g_build_filename (ssh_dir, "config", NULL);
  g_autofree char *default_key = g_build_filename (ssh_dir, "id_ed25519", NULL);
  g_autofree char *account_known_hosts = NULL;
  g_autofree char *expected_detail = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *fingerprint = NULL;
  g_autofree char *host_pub = NULL;
  g_autofree char *remembered = NULL;
  g_autofree char *host_key = NULL;
  g_autofree char *config_text = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  g_assert_nonnull (home);
  g_assert_cmpstr (g_get_home_dir (), ==, home);
#ifdef G_OS_UNIX
  {
    struct passwd *entry = getpwuid (getuid ());

    g_assert_nonnull (entry);
    g_assert_cmpstr (entry->pw_dir, !=, home);
    account_known_hosts = g_build_filename (entry->pw_dir, ".ssh", "known_hosts", NULL);
  }
#endif
  g_assert_false (g_file_test (ssh_dir, G_FILE_TEST_EXISTS));

  {
    g_autoptr(SlSshSession) session = sl_ssh_session_new (g_getenv ("SL_SSH_HOST"), port, g_getenv ("SL_SSH_USER"));

    sl_ssh_session_set_identity_file (session, g_getenv ("SL_SSH_KEY"));
    sl_ssh_session_set_timeout (session, 5);
    g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN);
    g_clear_error (&error);

    g_assert_true (sl_ssh_session_dup_host_key (session, NULL, &fingerprint));
    sl_ssh_session_accept_host_key (session, fingerprint, TRUE);
    g_assert_true (sl_ssh_session_connect (session, on_step_keep_host_key, &detail, NULL, &error));
    g_assert_no_error (error);
  }

  /* Named, written, and made as ssh would make it. */
  expected_detail = g_strdup_printf ("added to %s", known_hosts);
  g_assert_nonnull (strstr (detail, expected_detail));
  g_assert_cmpint (g_stat (ssh_dir, &st), ==, 0);
#ifdef G_OS_UNIX
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
#endif

  /* The line holds the fixture's host key for [127.0.0.1]:port. */
  g_assert_true (sl_known_hosts_has_host (known_hosts, g_getenv ("SL_SSH_HOST"), port));
  g_assert_true (g_file_get_contents (known_hosts, &remembered, NULL, &error));
  g_assert_true (g_file_get_contents (g_getenv ("SL_SSH_HOST_KEY_PUB"), &host_pub, NULL, &error));
  host_key = dup_key_field (host_pub, 1);
  g_assert_nonnull (strstr (remembered, host_key));
  if (account_known_hosts != NULL)
    g_assert_false (sl_known_hosts_has_host (account_known_hosts, g_getenv ("SL_SSH_HOST"), port));

  /* Read back from there by the next connection, with nothing accepted,
   * through a Host alias of ~/.ssh/config and the default key in ~/.ssh. */
  copy_file (g_getenv ("SL_SSH_KEY"), default_key);
  config_text = g_strdup_printf ("Host sl-home-alias\n  HostName %s\n  Port %u\n  User %s\n",
                                 g_getenv ("SL_SSH_HOST"), port, g_getenv ("SL_SSH_USER"));
  g_assert_true (g_file_set_contents (config, config_text, -1, &error));
  g_clear_pointer (&detail, g_free);
  {
    g_autoptr(SlSshSession) session = sl_ssh_session_new ("sl-home-alias", 0, NULL);
    g_autofree char *out = NULL;
    int status = -1;

    sl_ssh_session_set_timeout (session, 5);
    g_assert_true (sl_ssh_session_connect (session, on_step_keep_host_key, &detail, NULL, &error));
    g_assert_no_error (error);
    g_clear_pointer (&expected_detail, g_free);
    expected_detail = g_strdup_printf ("matches %s", known_hosts);
    g_assert_nonnull (strstr (detail, expected_detail));
    g_assert_true (sl_ssh_session_run (session, "echo home", &out, NULL, &status, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (out, ==, "home\n");
  }

  g_unlink (default_key);
  g_unlink (config);
  g_unlink (known_hosts);
  g_rmdir (ssh_dir);
}

/* A port on 127.0.0.1 that accepts connections and never speaks. */
static GSocket *
new_silent_socket (guint *port)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  GSocket *socket;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, address, TRUE, &error));
  g_assert_true (g_socket_listen (socket, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  *port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  return socket;
}

static void
on_connect_result (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GError **error = user_data;

  g_assert_false (sl_ssh_session_connect_finish (SL_SSH_SESSION (object), result, error));
  g_assert_nonnull (*error);
}

static void
test_timeout_and_cancel (void)
{
  g_autoptr(GSocket) silent = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  SlSshSession *session;
  GError *error = NULL;
  gint64 start;
  guint port = 0;

  silent = new_silent_socket (&port);

  /* The timeout ends a connection that never gets an SSH greeting. */
  session = sl_ssh_session_new ("127.0.0.1", port, NULL);
  sl_ssh_session_set_timeout (session, 1);
  start = g_get_monotonic_time ();
  g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_TIMED_OUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 4 * G_USEC_PER_SEC);
  g_clear_error (&error);
  g_object_unref (session);

  /* Cancelling answers the caller at once, while the worker is still
   * waiting; the session goes away once the worker is done. */
  session = sl_ssh_session_new ("127.0.0.1", port, NULL);
  sl_ssh_session_set_timeout (session, 3);
  g_object_add_weak_pointer (G_OBJECT (session), (gpointer *)&session);
  sl_ssh_session_connect_async (session, NULL, NULL, cancellable, on_connect_result, &error);
  g_object_unref (session);
  g_assert_nonnull (session);

  g_usleep (300 * G_TIME_SPAN_MILLISECOND);
  start = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC / 2);
  g_clear_error (&error);

  while (session != NULL && g_get_monotonic_time () - start < 10 * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (session);
}

/* Passphrase prompts: answered at once (as the command line does), later
 * from the main loop (as a dialog does), wrongly, or not at all. */
typedef struct {
  const char      *answer;
  gboolean         later;
  guint            n_asked;
  SlSshPromptKind  kind;
} PromptState;

typedef struct {
  SlSshPrompt *prompt;
  const char  *answer;
} LateAnswer;

static gboolean
answer_later (gpointer data)
{
  LateAnswer *late = data;

  sl_ssh_prompt_answer (late->prompt, late->answer);
  sl_ssh_prompt_unref (late->prompt);
  g_free (late);
  return G_SOURCE_REMOVE;
}

static void
on_prompt (SlSshPrompt *prompt,
           gpointer     user_data)
{
  PromptState *state = user_data;

  state->n_asked++;
  state->kind = sl_ssh_prompt_get_kind (prompt);
  g_assert_false (sl_ssh_prompt_get_echo (prompt));
  g_assert_nonnull (strstr (sl_ssh_prompt_get_message (prompt), "passphrase_key"));

  if (state->later)
    {
      LateAnswer *late = g_new0 (LateAnswer, 1);

      late->prompt = sl_ssh_prompt_ref (prompt);
      late->answer = state->answer;
      g_timeout_add (100, answer_later, late);
    }
  else
    sl_ssh_prompt_answer (prompt, state->answer);
}

static SlSshSession *
new_passphrase_session (PromptState *state)
{
  SlSshSession *session = new_session ();
  g_autoptr(GError) error = NULL;
  g_autofree char *fingerprint = NULL;

  g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
  sl_ssh_session_dup_host_key (session, NULL, &fingerprint);
  sl_ssh_session_accept_host_key (session, fingerprint, FALSE);
  sl_ssh_session_set_identity_file (session, g_getenv ("SL_SSH_PASSPHRASE_KEY"));
  if (state != NULL)
    sl_ssh_session_set_prompt_func (session, on_prompt, state, NULL);
  return session;
}

static void
on_connected (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GError **error = user_data;

  if (!sl_ssh_session_connect_finish (SL_SSH_SESSION (object), result, error))
    g_assert_nonnull (*error);
  else
    *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, "connected");
}

static void
test_passphrase (void)
{
  const char *passphrase = g_getenv ("SL_SSH_PASSPHRASE");

  /* Right away, from the sync call. */
  {
    PromptState state = { passphrase, FALSE, 0, 0 };
    g_autoptr(SlSshSession) session = new_passphrase_session (&state);
    g_autoptr(GError) error = NULL;
    g_autofree char *out = NULL;

    g_assert_true (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (state.n_asked, ==, 1);
    g_assert_cmpint (state.kind, ==, SL_SSH_PROMPT_PASSPHRASE);
    g_assert_true (sl_ssh_session_run (session, "echo in", &out, NULL, NULL, NULL, &error));
    g_assert_cmpstr (out, ==, "in\n");
  }

  /* Later, from the main loop of an async call. */
  {
    PromptState state = { passphrase, TRUE, 0, 0 };
    g_autoptr(SlSshSession) session = new_passphrase_session (&state);
    GError *result = NULL;

    sl_ssh_session_connect_async (session, NULL, NULL, NULL, on_connected, &result);
    while (result == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_assert_error (result, G_IO_ERROR, G_IO_ERROR_EXISTS);  /* meaning: connected */
    g_assert_cmpuint (state.n_asked, ==, 1);
    g_clear_error (&result);
  }

  /* Wrong, cancelled, and nobody to ask: a clear refusal each time. */
  {
    PromptState wrong = { "not the passphrase", FALSE, 0, 0 };
    PromptState cancelled = { NULL, FALSE, 0, 0 };
    PromptState *states[] = { &wrong, &cancelled, NULL };

    for (guint i = 0; i < G_N_ELEMENTS (states); i++)
      {
        g_autoptr(SlSshSession) session = new_passphrase_session (states[i]);
        g_autoptr(GError) error = NULL;

        g_assert_false (sl_ssh_session_connect (session, NULL, NULL, NULL, &error));
        g_assert_error (error, SL_SSH_ERROR, SL_SSH_ERROR_AUTH);
        g_assert_nonnull (strstr (error->message, "passphrase_key"));
        g_assert_false (sl_ssh_session_is_connected (session));
        if (states[i] != NULL)
          g_assert_cmpuint (states[i]->n_asked, ==, 1);
      }
  }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SlSshSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  int status = -1;
  int result;

  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("SL_SSH_PORT") == NULL)
    {
      g_printerr ("Run through tests/integration/sshd_fixture.py --run\n");
      return 77;
    }

  /* One scratch folder on the server for every test. */
  session = new_connected_session ();
  g_assert_true (sl_ssh_session_run (session, "mktemp -d", &out, NULL, &status, NULL, &error));
  g_assert_no_error (error);
  remote_tmp = g_strdup (g_strstrip (out));

  g_test_add_func ("/ssh-session/accept-once", test_accept_once);
  g_test_add_func ("/ssh-session/exec-streams", test_exec_streams);
  g_test_add_func ("/ssh-session/exec-input-and-status", test_exec_input_and_status);
  g_test_add_func ("/ssh-session/exec-cancel", test_exec_cancel);
  g_test_add_func ("/ssh-session/quoting-round-trip", test_quoting_round_trip);
  g_test_add_func ("/ssh-session/hostile-files", test_hostile_files);
  g_test_add_func ("/ssh-session/upload-download", test_upload_download);
  g_test_add_func ("/ssh-session/wrong-key", test_wrong_key);
  g_test_add_func ("/ssh-session/home-ssh-folder", test_home_ssh_folder);
  g_test_add_func ("/ssh-session/passphrase", test_passphrase);
  g_test_add_func ("/ssh-session/timeout-and-cancel", test_timeout_and_cancel);

  result = g_test_run ();

  {
    g_autofree char *quoted = sl_shell_quote (remote_tmp);
    g_autofree char *command = g_strdup_printf ("rm -rf -- %s", quoted);

    sl_ssh_session_run (session, command, NULL, NULL, NULL, NULL, NULL);
  }
  g_free (remote_tmp);
  return result;
}
