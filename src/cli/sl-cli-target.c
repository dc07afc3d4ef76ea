/* sl-cli-target.c: sightline-cli target
 *
 * Adds SSH servers to the workspace, lists the targets and tests a
 * connection step by step, saying what to do when a step fails.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-cli.h"
#include "sl-ssh-session.h"
#include "sl-ssh-target.h"
#include "sl-workspace-store.h"

static const char * const step_ids[] = {
  [SL_SSH_STEP_RESOLVE] = "resolve",
  [SL_SSH_STEP_CONNECT] = "connect",
  [SL_SSH_STEP_HOST_KEY] = "host-key",
  [SL_SSH_STEP_AUTH] = "auth",
  [SL_SSH_STEP_SHELL] = "shell",
  [SL_SSH_STEP_DISK] = "disk",
  [SL_SSH_STEP_PYTHON] = "python3",
  [SL_SSH_STEP_NPU_SMI] = "npu-smi",
};

static const char * const error_ids[] = {
  [SL_SSH_ERROR_FAILED] = "failed",
  [SL_SSH_ERROR_RESOLVE] = "resolve",
  [SL_SSH_ERROR_CONNECT] = "connect",
  [SL_SSH_ERROR_TIMED_OUT] = "timed-out",
  [SL_SSH_ERROR_PROTOCOL] = "protocol",
  [SL_SSH_ERROR_HOST_KEY_UNKNOWN] = "host-key-unknown",
  [SL_SSH_ERROR_HOST_KEY_CHANGED] = "host-key-changed",
  [SL_SSH_ERROR_AUTH] = "auth",
  [SL_SSH_ERROR_NOT_CONNECTED] = "not-connected",
  [SL_SSH_ERROR_CHANNEL] = "channel",
  [SL_SSH_ERROR_SFTP] = "sftp",
};

static void
print_target_usage (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: sightline-cli target add NAME --host HOST [OPTIONS…]"));
  fprintf (stream, "%s\n", _("       sightline-cli target list [--json]"));
  fprintf (stream, "%s\n", _("       sightline-cli target test NAME [--accept-new-host-key] [--json]"));
  fprintf (stream, "\n%s\n", _("Run “sightline-cli target add --help” and so on for the options."));
}

static SlTargetRecord *
find_target (SlWorkspaceStore  *store,
             const char        *name,
             GError           **error)
{
  g_autoptr(GPtrArray) targets = sl_workspace_store_list_targets (store, error);

  if (targets == NULL)
    return NULL;

  for (guint i = 0; i < targets->len; i++)
    {
      SlTargetRecord *target = g_ptr_array_index (targets, i);

      if (g_str_equal (sl_target_record_get_name (target), name))
        return g_object_ref (target);
    }

  g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_NOT_FOUND,
               _("There is no target named “%s”; “sightline-cli target list” shows them"), name);
  return NULL;
}

static gboolean
parse_options (GOptionContext  *context,
               int             *argc,
               char          ***argv)
{
  g_autoptr(GError) error = NULL;

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return FALSE;
    }
  return TRUE;
}

/* Paths are kept absolute: the database outlives the current folder. */
static char *
dup_absolute_path (const char *path)
{
  if (path == NULL || path[0] == '\0')
    return NULL;
  return g_canonicalize_filename (path, NULL);
}

/* add */

static int
target_add (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("NAME — add an SSH server as a target"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTargetRecord) record = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *host = NULL;
  g_autofree char *user = NULL;
  g_autofree char *identity = NULL;
  g_autofree char *known_hosts = NULL;
  g_autofree char *base_dir = NULL;
  g_autofree char *env_setup = NULL;
  g_autofree char *identity_path = NULL;
  g_autofree char *known_hosts_path = NULL;
  g_autofree char *location = NULL;
  int port = SL_TARGET_DEFAULT_PORT;
  const GOptionEntry entries[] = {
    { "host", 0, 0, G_OPTION_ARG_STRING, &host, N_("Host name, address or ~/.ssh/config alias of the server"), N_("HOST") },
    { "port", 0, 0, G_OPTION_ARG_INT, &port, N_("SSH port (default 22)"), N_("PORT") },
    { "user", 0, 0, G_OPTION_ARG_STRING, &user, N_("User to log in as"), N_("USER") },
    { "identity", 0, 0, G_OPTION_ARG_FILENAME, &identity, N_("Private key file to log in with"), N_("FILE") },
    { "known-hosts", 0, 0, G_OPTION_ARG_FILENAME, &known_hosts, N_("Known hosts file to check host keys against (default ~/.ssh/known_hosts)"), N_("FILE") },
    { "base-dir", 0, 0, G_OPTION_ARG_STRING, &base_dir, N_("Folder on the server where jobs run (default the home folder)"), N_("DIR") },
    { "env-setup", 0, 0, G_OPTION_ARG_STRING, &env_setup, N_("Shell command run before every job, such as sourcing set_env.sh"), N_("CMD") },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  g_set_prgname ("sightline-cli target add");
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;

  if (argc != 2 || argv[1][0] == '\0')
    {
      sl_cli_print_error (_("target add needs one NAME"));
      return 2;
    }
  if (host == NULL || host[0] == '\0')
    {
      sl_cli_print_error (_("target add needs --host"));
      return 2;
    }
  if (port < 1 || port > 65535)
    {
      sl_cli_print_error (_("the port must be between 1 and 65535"));
      return 2;
    }

  identity_path = dup_absolute_path (identity);
  known_hosts_path = dup_absolute_path (known_hosts);

  target = sl_ssh_target_new (argv[1], host);
  sl_ssh_target_set_port (SL_SSH_TARGET (target), port);
  sl_ssh_target_set_user (SL_SSH_TARGET (target), user);
  sl_ssh_target_set_identity_file (SL_SSH_TARGET (target), identity_path);
  sl_ssh_target_set_known_hosts_file (SL_SSH_TARGET (target), known_hosts_path);
  sl_ssh_target_set_base_dir (SL_SSH_TARGET (target), base_dir);
  sl_ssh_target_set_env_setup (SL_SSH_TARGET (target), env_setup);
  record = sl_ssh_target_to_record (SL_SSH_TARGET (target));

  if (!(store = sl_cli_open_store (db_path, &error)) ||
      !sl_workspace_store_add_target (store, record, &error))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  location = sl_target_dup_location (target);
  g_print (_("Added target “%s” (%s). Check it with: sightline-cli target test %s\n"),
           argv[1], location, argv[1]);
  return 0;
}

/* list */

static void
add_string_member (JsonBuilder *builder,
                   const char  *name,
                   const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
print_json_node (JsonNode *root)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

static int
target_list (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("— list the targets of the workspace"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(GPtrArray) targets = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  gboolean as_json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, N_("Print the result as JSON"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  g_set_prgname ("sightline-cli target list");
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc > 1)
    {
      sl_cli_print_error (_("unexpected argument “%s”"), argv[1]);
      return 2;
    }

  if (!(store = sl_cli_open_store (db_path, &error)) ||
      !(targets = sl_workspace_store_list_targets (store, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  if (as_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_array (builder);
      for (guint i = 0; i < targets->len; i++)
        {
          SlTargetRecord *target = g_ptr_array_index (targets, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "id");
          json_builder_add_int_value (builder, sl_target_record_get_id (target));
          add_string_member (builder, "name", sl_target_record_get_name (target));
          add_string_member (builder, "kind", sl_target_kind_to_id (sl_target_record_get_kind (target)));
          add_string_member (builder, "host", sl_target_record_get_host (target));
          json_builder_set_member_name (builder, "port");
          json_builder_add_int_value (builder, sl_target_record_get_port (target));
          add_string_member (builder, "user", sl_target_record_get_user (target));
          add_string_member (builder, "auth", sl_target_auth_to_id (sl_target_record_get_auth (target)));
          add_string_member (builder, "identity_file", sl_target_record_get_identity_file (target));
          add_string_member (builder, "known_hosts_file", sl_target_record_get_known_hosts_file (target));
          add_string_member (builder, "base_dir", sl_target_record_get_remote_base_folder (target));
          add_string_member (builder, "env_setup", sl_target_record_get_setup_command (target));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      root = json_builder_get_root (builder);
      print_json_node (root);
      return 0;
    }

  for (guint i = 0; i < targets->len; i++)
    {
      SlTargetRecord *target = g_ptr_array_index (targets, i);
      const char *user = sl_target_record_get_user (target);

      if (sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL)
        {
          g_print ("%s\t%s\n", sl_target_record_get_name (target), _("this computer"));
          continue;
        }

      g_print ("%s\t%s%s%s:%u\n", sl_target_record_get_name (target),
               user != NULL ? user : "", user != NULL ? "@" : "",
               sl_target_record_get_host (target), sl_target_record_get_port (target));
      if (sl_target_record_get_identity_file (target) != NULL)
        g_print ("\t%s %s\n", _("Key file:"), sl_target_record_get_identity_file (target));
      if (sl_target_record_get_known_hosts_file (target) != NULL)
        g_print ("\t%s %s\n", _("Known hosts:"), sl_target_record_get_known_hosts_file (target));
      if (sl_target_record_get_remote_base_folder (target) != NULL)
        g_print ("\t%s %s\n", _("Base folder:"), sl_target_record_get_remote_base_folder (target));
      if (sl_target_record_get_setup_command (target) != NULL)
        g_print ("\t%s %s\n", _("Environment setup:"), sl_target_record_get_setup_command (target));
    }

  return 0;
}

/* test */

typedef struct {
  SlSshStepStatus  status;
  char            *detail;
  char            *hint;
  gboolean         reported;
} StepResult;

typedef struct {
  StepResult steps[SL_SSH_N_STEPS];
  gboolean   live;      /* print each step as it arrives */
} TestReport;

static const char *
status_label (SlSshStepStatus status)
{
  switch (status)
    {
    case SL_SSH_STEP_OK:      return _("ok");
    case SL_SSH_STEP_WARNING: return _("warning");
    case SL_SSH_STEP_FAILED:  return _("FAILED");
    default:                  return "?";
    }
}

static const char *
status_id (SlSshStepStatus status)
{
  switch (status)
    {
    case SL_SSH_STEP_OK:      return "ok";
    case SL_SSH_STEP_WARNING: return "warning";
    case SL_SSH_STEP_FAILED:  return "failed";
    default:                  return "unknown";
    }
}

/* Pads by columns on the terminal: a CJK character takes two. */
static void
print_label (const char *label)
{
  guint width = 0;

  for (const char *p = label; *p != '\0'; p = g_utf8_next_char (p))
    width += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;

  g_print ("  %s", label);
  for (; width < 9; width++)
    g_print (" ");
}

static void
print_step (SlSshStep         step,
            const StepResult *result)
{
  print_label (status_label (result->status));
  g_print ("%s: %s\n", sl_ssh_step_get_title (step), result->detail);
  if (result->hint != NULL)
    g_print ("           %s %s\n", _("Next:"), result->hint);
}

static void
on_step (SlSshStep        step,
         SlSshStepStatus  status,
         const char      *detail,
         const char      *hint,
         gpointer         user_data)
{
  TestReport *report = user_data;
  StepResult *result = &report->steps[step];

  g_free (result->detail);
  g_free (result->hint);
  result->status = status;
  result->detail = g_strdup (detail);
  result->hint = g_strdup (hint);
  result->reported = TRUE;

  if (report->live)
    print_step (step, result);
}

static void
test_report_clear (TestReport *report)
{
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    {
      g_clear_pointer (&report->steps[i].detail, g_free);
      g_clear_pointer (&report->steps[i].hint, g_free);
      report->steps[i].reported = FALSE;
    }
}

static void
print_test_json (SlTargetRecord *record,
                 SlSshSession   *session,
                 TestReport     *report,
                 const GError   *error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *key_type = NULL;
  g_autofree char *fingerprint = NULL;

  json_builder_begin_object (builder);
  add_string_member (builder, "target", sl_target_record_get_name (record));
  json_builder_set_member_name (builder, "ok");
  json_builder_add_boolean_value (builder, error == NULL);

  json_builder_set_member_name (builder, "steps");
  json_builder_begin_array (builder);
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    {
      StepResult *result = &report->steps[i];

      json_builder_begin_object (builder);
      add_string_member (builder, "step", step_ids[i]);
      add_string_member (builder, "title", sl_ssh_step_get_title (i));
      add_string_member (builder, "status", result->reported ? status_id (result->status) : "not-run");
      add_string_member (builder, "detail", result->detail);
      add_string_member (builder, "hint", result->hint);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "error");
  if (error != NULL)
    {
      json_builder_begin_object (builder);
      add_string_member (builder, "code",
                         error->domain == SL_SSH_ERROR && error->code >= 0 && (guint)error->code < G_N_ELEMENTS (error_ids)
                         ? error_ids[error->code] : "failed");
      add_string_member (builder, "message", error->message);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "host_key");
  if (sl_ssh_session_dup_host_key (session, &key_type, &fingerprint))
    {
      json_builder_begin_object (builder);
      add_string_member (builder, "type", key_type);
      add_string_member (builder, "fingerprint", fingerprint);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  print_json_node (root);
}

static void
print_buffered_steps (TestReport *report)
{
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    if (report->steps[i].reported)
      print_step (i, &report->steps[i]);
}

static void
print_not_run (TestReport *report)
{
  for (guint i = 0; i < SL_SSH_N_STEPS; i++)
    if (!report->steps[i].reported)
      {
        print_label (_("not run"));
        g_print ("%s\n", sl_ssh_step_get_title (i));
      }
}

static int
target_test (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("NAME — connect to a target and check it step by step"));
  g_autoptr(SlWorkspaceStore) store = NULL;
  g_autoptr(SlTargetRecord) record = NULL;
  g_autoptr(SlTarget) target = NULL;
  g_autoptr(SlSshSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *location = NULL;
  g_autofree char *ssh_config = NULL;
  gboolean accept_new = FALSE;
  gboolean as_json = FALSE;
  int timeout = SL_SSH_DEFAULT_TIMEOUT_SECONDS;
  TestReport report = { 0 };
  gboolean ok;
  const GOptionEntry entries[] = {
    { "accept-new-host-key", 0, 0, G_OPTION_ARG_NONE, &accept_new,
      N_("Trust the server's host key if it is not known yet, and remember it"), NULL },
    { "ssh-config", 0, 0, G_OPTION_ARG_FILENAME, &ssh_config,
      N_("Read host aliases from this ssh_config file instead of ~/.ssh/config"), N_("FILE") },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout, N_("Seconds to wait for the server at each step (default 10)"), N_("SECONDS") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, N_("Print the result as JSON"), NULL },
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &db_path, N_("Use the workspace database at PATH instead of the default one"), N_("PATH") },
    { NULL }
  };

  g_set_prgname ("sightline-cli target test");
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2)
    {
      sl_cli_print_error (_("target test needs one NAME"));
      return 2;
    }
  if (timeout < 1 || timeout > 3600)
    {
      sl_cli_print_error (_("the timeout must be between 1 and 3600 seconds"));
      return 2;
    }

  if (!(store = sl_cli_open_store (db_path, &error)) ||
      !(record = find_target (store, argv[1], &error)) ||
      !(target = sl_ssh_target_new_from_record (record, &error)))
    {
      sl_cli_print_error ("%s", error->message);
      return 1;
    }

  session = sl_ssh_target_create_session (SL_SSH_TARGET (target));
  sl_ssh_session_set_timeout (session, timeout);
  sl_ssh_session_set_config_file (session, ssh_config);
  location = sl_target_dup_location (target);
  if (!as_json)
    g_print (_("Testing “%s” (%s)\n"), sl_target_get_name (target), location);

  /* Connect first with the steps held back: when an unknown host key
   * is accepted, the second attempt is the one worth showing. */
  ok = sl_ssh_session_connect (session, on_step, &report, NULL, &error);
  if (!ok && accept_new && g_error_matches (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN))
    {
      g_autofree char *fingerprint = NULL;

      sl_ssh_session_dup_host_key (session, NULL, &fingerprint);
      sl_ssh_session_accept_host_key (session, fingerprint, TRUE);
      g_clear_error (&error);
      test_report_clear (&report);
      ok = sl_ssh_session_connect (session, on_step, &report, NULL, &error);
    }

  if (!as_json)
    print_buffered_steps (&report);

  if (ok)
    {
      report.live = !as_json;
      ok = sl_ssh_session_test (session, sl_ssh_target_get_base_dir (SL_SSH_TARGET (target)),
                                sl_ssh_target_get_env_setup (SL_SSH_TARGET (target)),
                                on_step, &report, NULL, &error);
    }

  if (as_json)
    {
      print_test_json (record, session, &report, error);
    }
  else
    {
      print_not_run (&report);
      if (ok)
        g_print (_("“%s” is ready to use.\n"), sl_target_get_name (target));
      else if (g_error_matches (error, SL_SSH_ERROR, SL_SSH_ERROR_HOST_KEY_UNKNOWN))
        g_print (_("The host key was not trusted. If the fingerprint above is the server's, run again with --accept-new-host-key to remember it.\n"));
    }

  test_report_clear (&report);
  return ok ? 0 : 1;
}

int
sl_cli_target (int    argc,
               char **argv)
{
  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      print_target_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? 2 : 0;
    }

  if (g_str_equal (argv[1], "add"))
    return target_add (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "list"))
    return target_list (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "test"))
    return target_test (argc - 1, argv + 1);

  sl_cli_print_error (_("unknown target command “%s”"), argv[1]);
  print_target_usage (stderr);
  return 2;
}
