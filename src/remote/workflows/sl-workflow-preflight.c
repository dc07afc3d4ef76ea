/* sl-workflow-preflight.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-problem.h"
#include "sl-shell-quote.h"
#include "sl-workflow-preflight.h"

#define SOURCE "preflight"
#define PREFIX "sl-preflight "
#define NPU_PREFIX "sl-npu "

char *
sl_preflight_dup_script (const SlPreflightSpec *spec)
{
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (spec != NULL, NULL);

  if (spec->env_script != NULL)
    {
      g_autofree char *script = sl_shell_quote_remote_path (spec->env_script);

      /* Its own output would be taken for ours. */
      g_string_append_printf (out,
                              "if [ -r %s ]; then . %s >/dev/null 2>&1; echo '" PREFIX "env-script ok'; "
                              "else echo '" PREFIX "env-script missing'; fi\n",
                              script, script);
    }
  if (spec->tool != NULL)
    {
      g_autofree char *tool = sl_shell_quote (spec->tool);

      g_string_append_printf (out,
                              "p=$(command -v %s 2>/dev/null) && echo \"" PREFIX "tool $p\" || echo '" PREFIX "tool-missing'\n",
                              tool);
      g_string_append (out, "echo \"" PREFIX "toolkit ${ASCEND_TOOLKIT_HOME:-${ASCEND_HOME_PATH:-}}\"\n");
    }
  if (spec->needs_python || spec->python_note)
    g_string_append (out,
                     "if command -v python >/dev/null 2>&1; then "
                     "echo \"" PREFIX "python $(python -c 'import sys; print(\"%d.%d.%d\" % sys.version_info[:3])' 2>&1 | head -n 1)\"; "
                     "else echo '" PREFIX "python-missing'; fi\n");
  if (spec->output_dir != NULL)
    {
      g_autofree char *dir = sl_shell_quote_remote_path (spec->output_dir);

      g_string_append_printf (out,
                              "mkdir -p -- %s 2>/dev/null; "
                              "echo \"" PREFIX "free $(df -Pk -- %s 2>/dev/null | awk 'NR==2 {print $4}')\"\n",
                              dir, dir);
    }
  if (spec->device_id >= 0)
    g_string_append (out,
                     "if command -v npu-smi >/dev/null 2>&1; then "
                     "npu-smi info 2>&1 | sed 's/^/" NPU_PREFIX "/'; echo \"" PREFIX "npu-smi $?\"; "
                     "else echo '" PREFIX "npu-smi-missing'; fi\n");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
add (GPtrArray  *problems,
     SlSeverity  severity,
     const char *subject,
     const char *message,
     const char *hint)
{
  SlProblem *problem = sl_problem_new_at_position (severity, SOURCE, NULL, -1, 0, 0, subject, message);

  sl_problem_set_hint (problem, hint);
  g_ptr_array_add (problems, problem);
}

typedef struct {
  gboolean seen_env;
  gboolean env_ok;
  char    *tool_path;
  gboolean tool_missing;
  char    *toolkit;
  char    *python;
  gboolean python_missing;
  gint64   free_kb;
  gboolean npu_smi_missing;
  gboolean npu_smi_seen;
  gboolean in_process_table;
  gboolean device_seen;
  char    *device_health;
  GString *holders;
} Facts;

static void
facts_clear (Facts *facts)
{
  g_free (facts->tool_path);
  g_free (facts->toolkit);
  g_free (facts->python);
  g_free (facts->device_health);
  if (facts->holders != NULL)
    g_string_free (facts->holders, TRUE);
}

/* Cells of a row of npu-smi's tables: "| 0     910B1 | OK | …" */
static GStrv
split_row (const char *line)
{
  g_auto(GStrv) cells = g_strsplit (line, "|", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; cells[i] != NULL; i++)
    {
      g_strstrip (cells[i]);
      if (i > 0 && cells[i + 1] != NULL)
        g_strv_builder_add (builder, cells[i]);
    }
  return g_strv_builder_end (builder);
}

static void
read_npu_line (const SlPreflightSpec *spec,
               Facts                 *facts,
               const char            *line)
{
  g_auto(GStrv) cells = NULL;
  g_auto(GStrv) words = NULL;
  char *end = NULL;
  gint64 id;

  if (strstr (line, "Process id") != NULL)
    {
      facts->in_process_table = TRUE;
      return;
    }
  if (line[0] != '|')
    return;

  cells = split_row (line);
  if (cells[0] == NULL)
    return;
  words = g_strsplit_set (cells[0], " \t", -1);
  id = g_ascii_strtoll (words[0], &end, 10);
  if (end == words[0] || *end != '\0' || id != spec->device_id)
    return;

  if (facts->in_process_table)
    {
      /* | NPU Chip | Process id | Process name | Process memory(MB) | */
      if (g_strv_length (cells) >= 3 && g_ascii_isdigit (cells[1][0]))
        {
          if (facts->holders == NULL)
            facts->holders = g_string_new (NULL);
          else
            g_string_append (facts->holders, ", ");
          g_string_append_printf (facts->holders, "%s (%s)", cells[1], cells[2]);
        }
      return;
    }

  /* The first row of a device's pair names the chip: "0  910B1 | OK | …". */
  if (!facts->device_seen && g_strv_length (words) >= 2 && g_strv_length (cells) >= 2)
    {
      for (guint i = 1; words[i] != NULL; i++)
        if (words[i][0] != '\0')
          {
            facts->device_seen = TRUE;
            facts->device_health = g_strdup (cells[1]);
            break;
          }
    }
}

static void
read_line (const SlPreflightSpec *spec,
           Facts                 *facts,
           const char            *line)
{
  const char *value;

  if (g_str_has_prefix (line, NPU_PREFIX))
    {
      read_npu_line (spec, facts, line + strlen (NPU_PREFIX));
      return;
    }
  if (!g_str_has_prefix (line, PREFIX))
    return;
  line += strlen (PREFIX);
  value = strchr (line, ' ');
  value = value ? value + 1 : "";

  if (g_str_has_prefix (line, "env-script "))
    {
      facts->seen_env = TRUE;
      facts->env_ok = g_str_equal (value, "ok");
    }
  else if (g_str_has_prefix (line, "tool "))
    facts->tool_path = g_strdup (value);
  else if (g_str_equal (line, "tool-missing"))
    facts->tool_missing = TRUE;
  else if (g_str_has_prefix (line, "toolkit"))
    facts->toolkit = g_strdup (value);
  else if (g_str_has_prefix (line, "python "))
    /* Python 2 prints "Python 2.7.18" (to stderr) for --version. */
    facts->python = g_strdup (g_str_has_prefix (value, "Python ") ? value + strlen ("Python ") : value);
  else if (g_str_equal (line, "python-missing"))
    facts->python_missing = TRUE;
  else if (g_str_has_prefix (line, "free"))
    facts->free_kb = value[0] ? g_ascii_strtoll (value, NULL, 10) : -1;
  else if (g_str_equal (line, "npu-smi-missing"))
    facts->npu_smi_missing = TRUE;
  else if (g_str_has_prefix (line, "npu-smi "))
    facts->npu_smi_seen = TRUE;
}

static void
check_env_and_tool (const SlPreflightSpec *spec,
                    Facts                 *facts,
                    GPtrArray             *problems)
{
  g_autofree char *message = NULL;
  g_autofree char *hint = NULL;

  if (spec->env_script != NULL && !facts->env_ok)
    {
      message = g_strdup_printf (_("The environment script %s does not exist on the target (or cannot be read)"),
                                 spec->env_script);
      add (problems, SL_SEVERITY_ERROR, "env-script", message,
           _("Check the path: the CANN toolkit installs it as /usr/local/Ascend/ascend-toolkit/set_env.sh (or under $HOME/Ascend for a user install)."));
      g_clear_pointer (&message, g_free);
    }

  if (spec->tool == NULL)
    return;
  if (facts->tool_missing || facts->tool_path == NULL)
    {
      message = g_strdup_printf (_("%s is not on PATH on the target: the CANN toolkit is missing or its environment is not set"),
                                 spec->tool);
      hint = g_strdup_printf (_("Install the CANN toolkit, or choose its set_env.sh as the environment script so that %s is found."),
                              spec->tool);
      add (problems, SL_SEVERITY_ERROR, spec->tool, message, hint);
    }
  else if (facts->toolkit == NULL || facts->toolkit[0] == '\0')
    add (problems, SL_SEVERITY_WARNING, "toolkit",
         _("Neither ASCEND_TOOLKIT_HOME nor ASCEND_HOME_PATH is set on the target"),
         _("Source the toolkit’s set_env.sh: the tools find their libraries and operator packages through these variables."));
}

static void
check_python (const SlPreflightSpec *spec,
              Facts                 *facts,
              GPtrArray             *problems)
{
  g_autofree char *message = NULL;

  /* A tool that does not run python (ATC) goes ahead whatever python
   * is; the user's own scripts may still need Python 3. */
  if (!spec->needs_python && spec->python_note && facts->python != NULL && g_ascii_isdigit (facts->python[0]) &&
      (facts->python[0] != '3' || facts->python[1] != '.'))
    {
      message = g_strdup_printf (_("“python” on the target is Python %s; this tool does not run it, so it goes ahead"),
                                 facts->python);
      add (problems, SL_SEVERITY_INFO, "python", message,
           _("Scripts of yours that run “python” need Python 3 first on PATH in the environment script (for example export PATH=/usr/local/python3/bin:$PATH)."));
      return;
    }
  if (!spec->needs_python)
    return;
  if (facts->python_missing)
    {
      add (problems, SL_SEVERITY_ERROR, "python", _("There is no “python” on PATH on the target"),
           _("Run the program with python3, or put Python 3 first on PATH in the environment script."));
      return;
    }
  if (facts->python == NULL || g_ascii_isdigit (facts->python[0]) == FALSE)
    {
      message = g_strdup_printf (_("“python” on the target did not say its version: %s"),
                                 facts->python ? facts->python : "");
      add (problems, SL_SEVERITY_WARNING, "python", message,
           _("Check that python runs on the target; the Ascend tools need Python 3."));
      return;
    }
  if (facts->python[0] != '3' || facts->python[1] != '.')
    {
      message = g_strdup_printf (_("“python” on the target is Python %s, not Python 3"), facts->python);
      add (problems, SL_SEVERITY_ERROR, "python", message,
           _("The Ascend tools need Python 3: run the program with python3, or put Python 3 first on PATH in the environment script (for example export PATH=/usr/local/python3/bin:$PATH)."));
    }
}

static void
check_disk (const SlPreflightSpec *spec,
            Facts                 *facts,
            GPtrArray             *problems)
{
  g_autofree char *message = NULL;
  g_autofree char *free_text = NULL;
  g_autofree char *needed = NULL;

  if (spec->output_dir == NULL)
    return;
  if (facts->free_kb < 0)
    {
      message = g_strdup_printf (_("Could not measure the free space in %s"), spec->output_dir);
      add (problems, SL_SEVERITY_WARNING, "disk", message, _("Check that the output folder can be created on the target."));
      return;
    }
  if ((guint64)facts->free_kb >= spec->min_free_kb)
    return;
  free_text = g_format_size ((guint64)facts->free_kb * 1024);
  needed = g_format_size (spec->min_free_kb * 1024);
  message = g_strdup_printf (_("Only %s is free in %s; the run needs at least %s"), free_text, spec->output_dir, needed);
  add (problems, SL_SEVERITY_ERROR, "disk", message,
       _("Free some space there, or choose an output folder on another disk."));
}

static void
check_device (const SlPreflightSpec *spec,
              Facts                 *facts,
              GPtrArray             *problems)
{
  g_autofree char *message = NULL;

  if (spec->device_id < 0)
    return;
  if (facts->npu_smi_missing)
    {
      add (problems, SL_SEVERITY_WARNING, "device", _("npu-smi is not on PATH on the target, so the device could not be checked"),
           _("Install the Ascend driver (it provides npu-smi), or add /usr/local/sbin to PATH."));
      return;
    }
  if (!facts->device_seen)
    {
      message = g_strdup_printf (_("Device %d is not visible in npu-smi info"), spec->device_id);
      add (problems, SL_SEVERITY_ERROR, "device", message,
           _("Check the driver with npu-smi info, and that the user is in the HwHiAiUser group; or choose a device it lists."));
      return;
    }
  if (facts->device_health != NULL && !g_str_equal (facts->device_health, "OK"))
    {
      message = g_strdup_printf (_("Device %d reports its health as “%s”"), spec->device_id, facts->device_health);
      add (problems, SL_SEVERITY_WARNING, "device", message, _("npu-smi info -t health -i ID shows why."));
      g_clear_pointer (&message, g_free);
    }
  if (facts->holders != NULL)
    {
      message = g_strdup_printf (_("Device %d is held by another process: %s"), spec->device_id, facts->holders->str);
      add (problems, SL_SEVERITY_ERROR, "device", message,
           _("Wait for it to end or stop it, or choose another device; a profile taken beside it measures both."));
    }
}

GPtrArray *
sl_preflight_parse (const SlPreflightSpec *spec,
                    const char            *output)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) lines = NULL;
  Facts facts = { .free_kb = -1 };

  g_return_val_if_fail (spec != NULL, NULL);

  lines = g_strsplit (output ? output : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      read_line (spec, &facts, lines[i]);
    }

  check_env_and_tool (spec, &facts, problems);
  check_python (spec, &facts, problems);
  check_disk (spec, &facts, problems);
  check_device (spec, &facts, problems);
  facts_clear (&facts);
  return g_steal_pointer (&problems);
}
