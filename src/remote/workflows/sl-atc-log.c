/* sl-atc-log.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-atc-log.h"
#include "sl-problem.h"

#define SOURCE "atc"
#define MAX_LINE_BYTES 4096
#define MAX_CONTINUATION_LINES 12

typedef struct {
  const char *code;
  const char *meaning;
  const char *hint;
  const char *option;  /* when the message itself does not name one */
} KnownCode;

static const KnownCode known_codes[] = {
  { "E10001", N_("An option has a value ATC does not accept."),
    N_("Correct the value of the option named in the message; “atc --help” lists the values it takes."), NULL },
  { "E10007", N_("A required option is missing."),
    N_("Add the option named in the message."), NULL },
  { "E10054", N_("A required option was given an empty value."),
    N_("Give the option named in the message a value, such as the path of the model file."), "--model" },
  { "E19010", N_("No parser is registered for an operator of the model."),
    N_("The model uses an operator (or an ONNX opset) this CANN version cannot read: export it with an older opset, or install a newer CANN."), "--model" },
  { "EZ3003", N_("No kernel implements an operator type of the model on this SoC."),
    N_("Check that --soc_version names the device’s chip, or replace the operator in the model; the plog names it."), "--soc_version" },
  { "E40000", N_("A Python module ATC needs failed to import."),
    N_("ATC is running with the wrong Python: put the Python 3 the toolkit was installed for first on PATH (source the toolkit’s set_env.sh) and install its packages (numpy, decorator, sympy, attrs, psutil)."), NULL },
  { "EC0010", N_("A Python module the operator compiler needs failed to import."),
    N_("ATC is running with the wrong Python: put the Python 3 the toolkit was installed for first on PATH (source the toolkit’s set_env.sh) and install its packages (numpy, decorator, sympy, attrs, psutil)."), NULL },
};

const char *
sl_atc_code_explain (const char  *code,
                     const char **hint)
{
  g_return_val_if_fail (code != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (known_codes); i++)
    if (g_str_equal (known_codes[i].code, code))
      {
        if (hint != NULL)
          *hint = _(known_codes[i].hint);
        return _(known_codes[i].meaning);
      }
  if (hint != NULL)
    *hint = NULL;
  return NULL;
}

static const char *
known_option (const char *code)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_codes); i++)
    if (g_str_equal (known_codes[i].code, code))
      return known_codes[i].option;
  return NULL;
}

/* "E10007", "EZ3003", "EC0010": E, a digit or capital, four digits,
 * then a colon. Returns the length of the code, or 0. */
static gsize
match_code (const char *line)
{
  if (line[0] != 'E' || !g_ascii_isalnum (line[1]) || (g_ascii_isalpha (line[1]) && !g_ascii_isupper (line[1])))
    return 0;
  for (guint i = 2; i < 6; i++)
    if (!g_ascii_isdigit (line[i]))
      return 0;
  return line[6] == ':' ? 6 : 0;
}

/* The option a message is about: "[--framework]", "--input_shape", or
 * "parameter [soc_version]". */
static char *
find_option (const char *message)
{
  g_autoptr(GRegex) dashed = g_regex_new ("--([a-z][a-z_]*)", 0, 0, NULL);
  g_autoptr(GRegex) bracketed = g_regex_new ("(?:parameter|argument|option)\\s*\\[([a-z][a-z_]*)\\]",
                                              G_REGEX_CASELESS, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  gboolean found = g_regex_match (dashed, message, 0, &match);

  if (!found)
    {
      g_clear_pointer (&match, g_match_info_unref);
      found = g_regex_match (bracketed, message, 0, &match);
    }
  if (found)
    {
      g_autofree char *name = g_match_info_fetch (match, 1);

      return g_strconcat ("--", name, NULL);
    }
  return NULL;
}

typedef struct {
  GPtrArray   *problems;
  const char  *log_path;
  SlProblem   *current;      /* the coded error whose lines follow */
  GString     *message;
  char        *solution;
  guint        continuation;
} Parser;

static void
finish_current (Parser *parser)
{
  g_autofree char *option = NULL;
  const char *code;
  const char *hint = NULL;
  const char *meaning;
  g_autoptr(SlProblem) problem = NULL;
  g_autofree char *full_hint = NULL;

  if (parser->current == NULL)
    return;

  code = sl_problem_get_code (parser->current);
  option = find_option (parser->message->str);
  if (option == NULL && known_option (code) != NULL)
    option = g_strdup (known_option (code));
  meaning = sl_atc_code_explain (code, &hint);

  problem = sl_problem_new_at_position (SL_SEVERITY_ERROR, SOURCE, parser->log_path, -1,
                                        sl_problem_get_line (parser->current), 0, option,
                                        parser->message->str);
  sl_problem_set_code (problem, code);

  /* ATC's own "Solution:" first; ours when it gave none. */
  if (parser->solution != NULL)
    full_hint = g_strdup (parser->solution);
  else if (hint != NULL)
    full_hint = meaning ? g_strdup_printf ("%s %s", meaning, hint) : g_strdup (hint);
  else
    full_hint = g_strdup_printf (_("Look up %s in the CANN error code reference; the plog files hold the details."), code);
  sl_problem_set_hint (problem, full_hint);

  g_ptr_array_add (parser->problems, g_steal_pointer (&problem));
  g_clear_object (&parser->current);
  g_string_truncate (parser->message, 0);
  g_clear_pointer (&parser->solution, g_free);
  parser->continuation = 0;
}

static void
start_code (Parser     *parser,
            const char *line,
            gsize       code_length,
            guint       line_number)
{
  g_autofree char *code = g_strndup (line, code_length);
  const char *text = line + code_length + 1;

  finish_current (parser);
  while (*text == ' ' || *text == '\t')
    text++;
  parser->current = sl_problem_new_at_line (SL_SEVERITY_ERROR, SOURCE, parser->log_path, line_number, "-");
  sl_problem_set_code (parser->current, code);
  g_string_assign (parser->message, text);
}

/* Lines that belong to the coded error above them: indented, or ATC's
 * "Possible Cause:" and "Solution:" lines. */
static gboolean
continue_code (Parser     *parser,
               const char *line)
{
  const char *text = line;

  if (parser->current == NULL || parser->continuation >= MAX_CONTINUATION_LINES)
    return FALSE;
  if (line[0] != ' ' && line[0] != '\t' && !g_str_has_prefix (line, "Solution:") &&
      !g_str_has_prefix (line, "Possible Cause:"))
    return FALSE;

  while (*text == ' ' || *text == '\t')
    text++;
  if (*text == '\0' || g_str_has_prefix (text, "TraceBack"))
    return FALSE;

  parser->continuation++;
  if (g_str_has_prefix (text, "Solution:"))
    {
      text += strlen ("Solution:");
      while (*text == ' ')
        text++;
      g_free (parser->solution);
      parser->solution = g_strdup (text);
    }
  else
    {
      g_string_append_c (parser->message, ' ');
      g_string_append (parser->message, text);
    }
  return TRUE;
}

static char *
dup_line (const char *start,
          const char *end)
{
  gsize length = MIN ((gsize)(end - start), MAX_LINE_BYTES);

  if (length > 0 && start[length - 1] == '\r')
    length--;
  return g_utf8_make_valid (start, length);
}

static void
add_plain (Parser     *parser,
           guint       line,
           const char *message,
           const char *hint)
{
  g_autoptr(SlProblem) problem = sl_problem_new_at_line (SL_SEVERITY_ERROR, SOURCE, parser->log_path, line, message);

  sl_problem_set_hint (problem, hint);
  g_ptr_array_add (parser->problems, g_steal_pointer (&problem));
}

GPtrArray *
sl_atc_log_parse (const char   *text,
                  gsize         length,
                  const char   *log_path,
                  int           exit_code,
                  SlAtcOutcome *outcome)
{
  Parser parser = { 0 };
  const char *end = text + length;
  guint line_number = 0;
  guint failed_line = 0;
  SlAtcOutcome result = SL_ATC_OUTCOME_UNKNOWN;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  parser.problems = g_ptr_array_new_with_free_func (g_object_unref);
  parser.log_path = log_path;
  parser.message = g_string_new (NULL);

  for (const char *p = text; p != NULL && p < end;)
    {
      const char *newline = memchr (p, '\n', end - p);
      const char *line_end = newline ? newline : end;
      g_autofree char *line = dup_line (p, line_end);
      gsize code_length;

      line_number++;
      p = newline ? newline + 1 : NULL;

      if ((code_length = match_code (line)) > 0)
        start_code (&parser, line, code_length, line_number);
      else if (continue_code (&parser, line))
        continue;
      else
        {
          finish_current (&parser);
          if (strstr (line, "ATC run success") != NULL)
            result = SL_ATC_OUTCOME_SUCCESS;
          else if (strstr (line, "ATC run failed") != NULL)
            {
              result = SL_ATC_OUTCOME_FAILED;
              failed_line = line_number;
            }
        }
    }
  finish_current (&parser);

  if (result == SL_ATC_OUTCOME_UNKNOWN && parser.problems->len > 0)
    result = SL_ATC_OUTCOME_FAILED;

  /* A failure must end with a problem even when ATC printed no code. */
  if (result == SL_ATC_OUTCOME_FAILED && parser.problems->len == 0)
    add_plain (&parser, failed_line, _("ATC run failed without an error code"),
               _("The plog files hold the reason; run again with --log=info for more detail."));
  else if (result != SL_ATC_OUTCOME_SUCCESS && parser.problems->len == 0 && exit_code != 0)
    {
      g_autofree char *message = exit_code > 0
        ? g_strdup_printf (_("ATC stopped with exit code %d before it said whether the conversion worked"), exit_code)
        : g_strdup (_("ATC stopped before it said whether the conversion worked"));

      add_plain (&parser, line_number, message,
                 exit_code == 127 ? _("atc was not found: source the toolkit’s set_env.sh in the environment script.")
                                  : _("It was killed or crashed; the last lines of the log show where."));
    }

  g_string_free (parser.message, TRUE);
  if (outcome != NULL)
    *outcome = result;
  return parser.problems;
}

void
sl_atc_log_add_plogs (GPtrArray          *problems,
                      const char * const *plogs,
                      const char * const *local_copies)
{
  g_autoptr(GString) where = g_string_new (NULL);

  g_return_if_fail (problems != NULL);

  if (plogs == NULL || plogs[0] == NULL)
    return;

  for (guint i = 0; plogs[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (where, ", ");
      if (local_copies != NULL && local_copies[i] != NULL)
        g_string_append_printf (where, _("%s (copied to %s)"), plogs[i], local_copies[i]);
      else
        g_string_append (where, plogs[i]);
    }

  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *hint = g_strdup_printf (_("%s The full log: %s."),
                                               sl_problem_get_hint (problem) ? sl_problem_get_hint (problem) : "",
                                               where->str);

      sl_problem_set_hint (problem, g_strstrip (hint));
    }
}
