/* test-shell-quote.c: quoting for a POSIX shell, checking server names
 *
 * Every quoted word goes through a real /bin/sh and must come back byte
 * for byte.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "sl-shell-quote.h"

static const char * const hostile[] = {
  "",
  "plain",
  "two words",
  "  leading and trailing  ",
  "it's",
  "'",
  "''",
  "\"double\"",
  "$(touch /tmp/sl-pwned)",
  "`id`",
  "${HOME}",
  "$HOME",
  "a;b",
  "a && b || c",
  "line\nbreak",
  "tab\there",
  "back\\slash",
  "glob*?[a]",
  "~",
  "~/x",
  "-n",
  "--",
  "#comment",
  "a|b>c<d",
  "中文 名字",
  "!bang",
};

/* Runs `printf %s WORD` in /bin/sh and returns what it printed. */
static char *
shell_echo (const char *quoted)
{
  g_autofree char *script = g_strdup_printf ("printf %%s %s", quoted);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static void
test_quote_round_trip (void)
{
  gboolean marker_existed = g_file_test ("/tmp/sl-pwned", G_FILE_TEST_EXISTS);

  if (!g_file_test ("/bin/sh", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no /bin/sh");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autofree char *quoted = sl_shell_quote (hostile[i]);
      g_autofree char *out = shell_echo (quoted);

      g_assert_cmpstr (out, ==, hostile[i]);
    }

  if (!marker_existed)
    g_assert_false (g_file_test ("/tmp/sl-pwned", G_FILE_TEST_EXISTS));
}

static void
test_quote_form (void)
{
  g_autofree char *empty = sl_shell_quote ("");
  g_autofree char *quote = sl_shell_quote ("it's");
  const char *argv[] = { "printf", "%s|", "a b", "", NULL };
  g_autofree char *line = sl_shell_quote_argv (argv);

  g_assert_cmpstr (empty, ==, "''");
  g_assert_cmpstr (quote, ==, "'it'\\''s'");
  g_assert_cmpstr (line, ==, "'printf' '%s|' 'a b' ''");
}

static void
test_quote_remote_path (void)
{
  g_autofree char *home = sl_shell_quote_remote_path ("~");
  g_autofree char *below = sl_shell_quote_remote_path ("~/runs/it's here");
  g_autofree char *slash = sl_shell_quote_remote_path ("~/");
  g_autofree char *other = sl_shell_quote_remote_path ("~user/x");
  g_autofree char *plain = sl_shell_quote_remote_path ("/data/a b");

  g_assert_cmpstr (home, ==, "\"$HOME\"");
  g_assert_cmpstr (below, ==, "\"$HOME\"/'runs/it'\\''s here'");
  g_assert_cmpstr (slash, ==, "\"$HOME\"/");
  g_assert_cmpstr (other, ==, "'~user/x'");
  g_assert_cmpstr (plain, ==, "'/data/a b'");

  if (g_file_test ("/bin/sh", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *out = shell_echo (below);
      g_autofree char *expected = g_build_filename (g_getenv ("HOME") ? g_getenv ("HOME") : "", "runs/it's here", NULL);

      if (g_getenv ("HOME") != NULL)
        g_assert_cmpstr (out, ==, expected);
    }
}

static void
test_check_name (void)
{
  static const char * const good[] = { "a", "a b", "...", ".hidden", "..x", "$(x)", "line\nbreak", "中文" };
  static const char * const bad[] = { "", ".", "..", "/", "a/b", "../x", "/etc" };
  const char with_nul[] = { 'a', '\0', 'b' };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (sl_shell_check_name (good[i], (gsize)-1, &error));
      g_assert_no_error (error);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (sl_shell_check_name (bad[i], (gsize)-1, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
    }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (sl_shell_check_name (with_nul, sizeof with_nul, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (sl_shell_check_name ("abc", 0, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
    g_assert_true (sl_shell_check_name ("ab/c", 2, NULL));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/shell-quote/round-trip", test_quote_round_trip);
  g_test_add_func ("/shell-quote/form", test_quote_form);
  g_test_add_func ("/shell-quote/remote-path", test_quote_remote_path);
  g_test_add_func ("/shell-quote/check-name", test_check_name);

  return g_test_run ();
}
