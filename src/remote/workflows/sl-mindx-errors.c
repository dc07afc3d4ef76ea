/* sl-mindx-errors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-mindx-errors.h"
#include "sl-problem.h"

#define SOURCE "mindx"
#define MAX_LINE_BYTES 4096

typedef struct {
  int         code;
  const char *meaning;
  const char *hint;
} KnownCode;

#define CHECK_PIPELINE N_("Check the pipeline with Sightline’s pipeline check; it names the element and the line.")
#define CHECK_PLUGINS N_("Check that GST_PLUGIN_PATH holds the SDK’s plugin folders and that the plugin is spelled as the SDK names it.")

static const KnownCode known_codes[] = {
  { 1001, N_("General failure"), NULL },
  { 1002, N_("Internal error"), NULL },
  { 1004, N_("Invalid parameter"), N_("A value passed to the SDK (a stream name, an element name, a property) is wrong; the log line before names it.") },
  { 1006, N_("Out of memory"), N_("Free device memory: another process may hold the device (npu-smi info lists them).") },
  { 1010, N_("No permission"), N_("The user running the app may not use the device or a file: check the HwHiAiUser group and the file modes.") },
  { 1011, N_("Timed out"), N_("No result arrived in time: check that the stream’s appsink is reached and the model is not too slow.") },
  { 1012, N_("Not initialized"), N_("Call InitManager before creating streams.") },
  { 1013, N_("Initialization failed"), N_("The SDK could not start: check MX_SDK_HOME and LD_LIBRARY_PATH, and that the device is visible.") },
  { 1016, N_("A file or resource does not exist"), N_("A path in the pipeline (modelPath, postProcessConfigPath, labelPath) does not exist on the target.") },
  { 1017, N_("A resource is in use"), N_("Another process holds the device or the file; stop it or choose another device.") },
  { 1019, N_("A device, file or resource could not be opened"), N_("Check the path and its permissions on the target.") },
  { 1028, N_("MX_SDK_HOME is not set"), N_("Set the SDK home in the run configuration, so the run exports MX_SDK_HOME.") },
  { 6001, N_("The stream already exists"), N_("Two streams share a name, or the app creates the stream twice.") },
  { 6002, N_("The stream does not exist"), N_("The stream name the app sends to does not match the pipeline’s top-level key.") },
  { 6003, N_("The stream could not change state"), CHECK_PLUGINS },
  { 6004, N_("The stream could not be created"), CHECK_PIPELINE },
  { 6005, N_("The stream’s configuration is invalid"), CHECK_PIPELINE },
  { 6006, N_("A link of the stream is invalid"), CHECK_PIPELINE },
  { 6007, N_("Two elements of the stream could not be linked"), N_("The linked elements’ formats do not match: check the order of the elements and their ports.") },
  { 6008, N_("The transmission mode does not match"), NULL },
  { 6009, N_("The transmission mode is invalid"), NULL },
  { 6010, N_("The stream timed out"), N_("No result arrived in time: check that the data reaches the appsink.") },
  { 6011, N_("An element is invalid"), CHECK_PIPELINE },
  { 6012, N_("An element already exists"), CHECK_PIPELINE },
  { 6013, N_("An element does not exist"), N_("A next or nextMeta names an element the stream does not have; the pipeline check finds it.") },
  { 6014, N_("An element’s factory is invalid"), CHECK_PLUGINS },
  { 6015, N_("An element’s properties are invalid"), N_("A property of an element is misspelled or has a wrong value; the pipeline check lists required ones.") },
  { 6016, N_("An element’s pad is not linked"), CHECK_PIPELINE },
  { 6017, N_("A property in the pipeline is configured wrongly"), CHECK_PIPELINE },
};

const char *
sl_mindx_error_explain (int          code,
                        const char **hint)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_codes); i++)
    if (known_codes[i].code == code)
      {
        if (hint != NULL)
          *hint = known_codes[i].hint ? _(known_codes[i].hint) : NULL;
        return _(known_codes[i].meaning);
      }
  if (hint != NULL)
    *hint = NULL;
  return NULL;
}

/* "Code = 6005", "ret=6005", "ret = 6005", "errorCode=6005",
 * "error code: 6005". Only codes the table knows count, so numbers in
 * ordinary output are not taken for errors. */
static gboolean
find_code (GRegex     *regex,
           const char *line,
           int        *code)
{
  g_autoptr(GMatchInfo) match = NULL;

  if (!g_regex_match (regex, line, 0, &match))
    return FALSE;
  do
    {
      g_autofree char *digits = g_match_info_fetch (match, 1);
      int value = (int)g_ascii_strtoll (digits, NULL, 10);

      if (sl_mindx_error_explain (value, NULL) != NULL)
        {
          *code = value;
          return TRUE;
        }
    }
  while (g_match_info_next (match, NULL));
  return FALSE;
}

static void
add_problem (GPtrArray  *problems,
             const char *log_path,
             guint       line_number,
             const char *line,
             int         code)
{
  const char *hint = NULL;
  const char *meaning = sl_mindx_error_explain (code, &hint);
  g_autofree char *message = g_strdup_printf ("%s: %s", meaning, line);
  g_autofree char *code_text = g_strdup_printf ("%d", code);
  g_autoptr(SlProblem) problem = sl_problem_new_at_line (SL_SEVERITY_ERROR, SOURCE, log_path, line_number, message);

  sl_problem_set_code (problem, code_text);
  sl_problem_set_hint (problem, hint);
  g_ptr_array_add (problems, g_steal_pointer (&problem));
}

GPtrArray *
sl_mindx_log_parse (const char *text,
                    gsize       length,
                    const char *log_path)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GRegex) regex = g_regex_new ("(?:code|ret|errorcode)\\s*[=:]\\s*([0-9]{4})\\b", G_REGEX_CASELESS, 0, NULL);
  const char *end = text + length;
  guint line_number = 0;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  for (const char *p = text; p != NULL && p < end;)
    {
      const char *newline = memchr (p, '\n', end - p);
      gsize line_length = MIN ((gsize)((newline ? newline : end) - p), MAX_LINE_BYTES);
      g_autofree char *line = g_utf8_make_valid (p, line_length);
      int code = 0;

      line_number++;
      p = newline ? newline + 1 : NULL;
      if (find_code (regex, g_strstrip (line), &code))
        add_problem (problems, log_path, line_number, line, code);
    }
  return g_steal_pointer (&problems);
}
