/* sl-slurm-options.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "sl-slurm-options.h"

#define MAX_NAME 128

G_DEFINE_BOXED_TYPE (SlSlurmOptions, sl_slurm_options, sl_slurm_options_copy, sl_slurm_options_free)

static const char * const launcher_ids[] = {
  [SL_SLURM_LAUNCHER_SRUN] = "srun",
  [SL_SLURM_LAUNCHER_TORCHRUN] = "torchrun",
  [SL_SLURM_LAUNCHER_MSRUN] = "msrun",
  [SL_SLURM_LAUNCHER_NONE] = "none",
};

SlSlurmOptions *
sl_slurm_options_new (void)
{
  return g_new0 (SlSlurmOptions, 1);
}

SlSlurmOptions *
sl_slurm_options_copy (const SlSlurmOptions *options)
{
  SlSlurmOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);

  copy = g_memdup2 (options, sizeof *options);
  copy->device_gres = g_strdup (options->device_gres);
  copy->device_env = g_strdup (options->device_env);
  copy->partition = g_strdup (options->partition);
  copy->time_limit = g_strdup (options->time_limit);
  copy->account = g_strdup (options->account);
  return copy;
}

void
sl_slurm_options_free (SlSlurmOptions *options)
{
  if (options == NULL)
    return;
  g_free (options->device_gres);
  g_free (options->device_env);
  g_free (options->partition);
  g_free (options->time_limit);
  g_free (options->account);
  g_free (options);
}

const char *
sl_slurm_launcher_to_id (SlSlurmLauncher launcher)
{
  g_return_val_if_fail (launcher <= SL_SLURM_LAUNCHER_NONE, NULL);
  return launcher_ids[launcher];
}

gboolean
sl_slurm_launcher_from_id (const char      *id,
                           SlSlurmLauncher *launcher)
{
  g_return_val_if_fail (launcher != NULL, FALSE);

  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (launcher_ids); i++)
    if (g_str_equal (launcher_ids[i], id))
      {
        *launcher = i;
        return TRUE;
      }
  return FALSE;
}

/**
 * sl_slurm_options_get_tasks_per_node:
 *
 * Returns: the workers a per-node launcher (torchrun, msrun) starts on
 *   each node: the tasks per node, else the devices per node, else 1
 */
guint
sl_slurm_options_get_tasks_per_node (const SlSlurmOptions *options)
{
  g_return_val_if_fail (options != NULL, 1);

  if (options->ntasks_per_node > 0)
    return options->ntasks_per_node;
  if (options->devices_per_node > 0)
    return options->devices_per_node;
  return 1;
}

/* Words that go into #SBATCH lines unquoted: Slurm names never need more. */
static gboolean
is_plain (const char *text,
          const char *extra)
{
  if (text == NULL || text[0] == '\0' || strlen (text) > MAX_NAME)
    return FALSE;
  for (const char *p = text; *p; p++)
    if (!g_ascii_isalnum (*p) && strchr (extra, *p) == NULL)
      return FALSE;
  return TRUE;
}

static gboolean
check_field (const char  *value,
             const char  *extra,
             const char  *what,
             GError     **error)
{
  if (value == NULL || is_plain (value, extra))
    return TRUE;
  /* TRANSLATORS: the first %s names a Slurm option (partition, account, ...), the second is what was typed */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("The Slurm %s “%s” is not valid: use letters, digits and %s only"),
               what, value, extra);
  return FALSE;
}

/**
 * sl_slurm_options_validate:
 *
 * Refuses values that could not be a Slurm name or limit, before they go
 * into a batch script.
 *
 * Returns: %TRUE when @options can be submitted
 */
gboolean
sl_slurm_options_validate (const SlSlurmOptions  *options,
                           GError               **error)
{
  g_return_val_if_fail (options != NULL, FALSE);

  if (!check_field (options->partition, "_-.,", _("partition"), error) ||
      !check_field (options->account, "_-.", _("account"), error) ||
      !check_field (options->time_limit, ":-", _("time limit"), error) ||
      !check_field (options->device_gres, "_-:", _("GRES name"), error) ||
      !check_field (options->device_env, "_", _("device variable"), error))
    return FALSE;

  if (options->device_env != NULL && g_ascii_isdigit (options->device_env[0]))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The device variable “%s” is not a valid environment variable name"), options->device_env);
      return FALSE;
    }
  if (options->time_limit != NULL && !g_ascii_isdigit (options->time_limit[0]))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The time limit “%s” is not valid: give minutes, or [DAYS-]HOURS:MINUTES:SECONDS"),
                   options->time_limit);
      return FALSE;
    }
  if (options->nodes > 0 && options->ntasks > 0 && options->ntasks_per_node > 0 &&
      options->ntasks > options->nodes * options->ntasks_per_node)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%u tasks do not fit on %u nodes with %u tasks per node"),
                   options->ntasks, options->nodes, options->ntasks_per_node);
      return FALSE;
    }
  if (options->launcher > SL_SLURM_LAUNCHER_NONE)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("Unknown Slurm launcher"));
      return FALSE;
    }
  return TRUE;
}
