/* sl-local-target.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-local-target.h"

struct _SlLocalTarget
{
  SlTarget parent_instance;
};

G_DEFINE_FINAL_TYPE (SlLocalTarget, sl_local_target, SL_TYPE_TARGET)

static const char *
sl_local_target_get_kind (SlTarget *target)
{
  return "local";
}

static char *
sl_local_target_dup_location (SlTarget *target)
{
  return g_strdup (g_get_host_name ());
}

static GSubprocess *
sl_local_target_spawn (SlTarget           *target,
                       const char * const *argv,
                       const char         *working_dir,
                       const char * const *env,
                       GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_MERGE |
                                        G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  if (working_dir != NULL)
    g_subprocess_launcher_set_cwd (launcher, working_dir);

  /* Unbuffered output so training logs reach the Console as they happen. */
  g_subprocess_launcher_setenv (launcher, "PYTHONUNBUFFERED", "1", FALSE);

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *eq = strchr (env[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL || eq == env[i])
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("Environment entry “%s” is not of the form NAME=VALUE"), env[i]);
          return NULL;
        }

      name = g_strndup (env[i], eq - env[i]);
      g_subprocess_launcher_setenv (launcher, name, eq + 1, TRUE);
    }

  return g_subprocess_launcher_spawnv (launcher, argv, error);
}

static void
sl_local_target_class_init (SlLocalTargetClass *klass)
{
  SlTargetClass *target_class = SL_TARGET_CLASS (klass);

  target_class->get_kind = sl_local_target_get_kind;
  target_class->dup_location = sl_local_target_dup_location;
  target_class->spawn = sl_local_target_spawn;
}

static void
sl_local_target_init (SlLocalTarget *self)
{
  sl_target_set_name (SL_TARGET (self), _("This computer"));
}

/**
 * sl_local_target_new:
 *
 * Returns: (transfer full): the Local target
 */
SlTarget *
sl_local_target_new (void)
{
  return g_object_new (SL_TYPE_LOCAL_TARGET, NULL);
}
