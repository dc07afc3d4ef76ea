/* sl-mindx-env.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "sl-mindx-env.h"
#include "sl-shell-quote.h"
#include "sl-workflow-path.h"

typedef struct {
  const char *name;
  const char *format;   /* @SDK@ is the SDK home, @TOOLKIT@ the toolkit */
  gboolean    prepend;  /* keeps what was there after ours */
} Variable;

static const Variable variables[] = {
  { "MX_SDK_HOME", "@SDK@", FALSE },
  { "LD_LIBRARY_PATH", "@SDK@/lib:@SDK@/opensource/lib:@SDK@/opensource/lib64:@TOOLKIT@/acllib/lib64", TRUE },
  { "GST_PLUGIN_SCANNER", "@SDK@/opensource/libexec/gstreamer-1.0/gst-plugin-scanner", FALSE },
  { "GST_PLUGIN_PATH", "@SDK@/opensource/lib/gstreamer-1.0:@SDK@/lib/plugins", FALSE },
  { "PYTHONPATH", "@SDK@/python", TRUE },
};

static char *
dup_value (const Variable *variable,
           const char     *sdk_home,
           const char     *toolkit_home)
{
  GString *value = g_string_new (variable->format);

  g_string_replace (value, "@SDK@", sdk_home, 0);
  g_string_replace (value, "@TOOLKIT@", toolkit_home, 0);
  return g_string_free (value, FALSE);
}

char *
sl_mindx_dup_env_setup (const char  *sdk_home,
                        const char  *toolkit_home,
                        GError     **error)
{
  g_autoptr(GString) out = g_string_new (NULL);

  if (!sl_workflow_path_check (sdk_home, _("The SDK home"), error))
    return NULL;
  if (toolkit_home == NULL)
    toolkit_home = SL_MINDX_DEFAULT_TOOLKIT;
  if (!sl_workflow_path_check (toolkit_home, _("The toolkit folder"), error))
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    {
      g_autofree char *value = dup_value (&variables[i], sdk_home, toolkit_home);
      g_autofree char *quoted = sl_shell_quote (value);

      /* ${X:+:$X} keeps an empty variable from adding the current folder. */
      if (variables[i].prepend)
        g_string_append_printf (out, "export %s=%s\"${%s:+:$%s}\"\n", variables[i].name, quoted,
                                variables[i].name, variables[i].name);
      else
        g_string_append_printf (out, "export %s=%s\n", variables[i].name, quoted);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

GStrv
sl_mindx_dup_env (const char *sdk_home,
                  const char *toolkit_home)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (sdk_home != NULL, NULL);

  if (toolkit_home == NULL)
    toolkit_home = SL_MINDX_DEFAULT_TOOLKIT;
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    {
      g_autofree char *value = dup_value (&variables[i], sdk_home, toolkit_home);
      g_autofree char *pair = g_strdup_printf ("%s=%s", variables[i].name, value);

      g_strv_builder_add (builder, pair);
    }
  return g_strv_builder_end (builder);
}

GStrv
sl_mindx_dup_argv (const char          *entry,
                   const char * const  *args,
                   GError             **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (!sl_workflow_path_check (entry, _("The entry script"), error))
    return NULL;

  g_strv_builder_add (builder, g_str_has_suffix (entry, ".py") ? "python3" : "bash");
  g_strv_builder_add (builder, entry);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      if (args[i][0] != '\0' && !sl_workflow_path_check (args[i], _("An argument of the app"), error))
        return NULL;
      g_strv_builder_add (builder, args[i]);
    }
  return g_strv_builder_end (builder);
}
