/* sl-target.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-target.h"

typedef struct
{
  gint64  id;
  char   *name;
} SlTargetPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (SlTarget, sl_target, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_KIND,
  PROP_LOCATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_target_finalize (GObject *object)
{
  SlTarget *self = (SlTarget *)object;
  SlTargetPrivate *priv = sl_target_get_instance_private (self);

  g_clear_pointer (&priv->name, g_free);

  G_OBJECT_CLASS (sl_target_parent_class)->finalize (object);
}

static void
sl_target_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  SlTarget *self = SL_TARGET (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_int64 (value, sl_target_get_id (self));
      break;

    case PROP_NAME:
      g_value_set_string (value, sl_target_get_name (self));
      break;

    case PROP_KIND:
      g_value_set_string (value, sl_target_get_kind (self));
      break;

    case PROP_LOCATION:
      g_value_take_string (value, sl_target_dup_location (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_target_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  SlTarget *self = SL_TARGET (object);

  switch (prop_id)
    {
    case PROP_ID:
      sl_target_set_id (self, g_value_get_int64 (value));
      break;

    case PROP_NAME:
      sl_target_set_name (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_target_class_init (SlTargetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_target_finalize;
  object_class->get_property = sl_target_get_property;
  object_class->set_property = sl_target_set_property;

  properties[PROP_ID] =
    g_param_spec_int64 ("id", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOCATION] =
    g_param_spec_string ("location", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_target_init (SlTarget *self)
{
  SlTargetPrivate *priv = sl_target_get_instance_private (self);

  priv->id = -1;
}

/**
 * sl_target_get_id:
 *
 * Returns: the row id in the workspace database, or -1 when not stored
 */
gint64
sl_target_get_id (SlTarget *self)
{
  SlTargetPrivate *priv = sl_target_get_instance_private (self);

  g_return_val_if_fail (SL_IS_TARGET (self), -1);

  return priv->id;
}

void
sl_target_set_id (SlTarget *self,
                  gint64    id)
{
  SlTargetPrivate *priv = sl_target_get_instance_private (self);

  g_return_if_fail (SL_IS_TARGET (self));

  if (priv->id != id)
    {
      priv->id = id;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ID]);
    }
}

const char *
sl_target_get_name (SlTarget *self)
{
  SlTargetPrivate *priv = sl_target_get_instance_private (self);

  g_return_val_if_fail (SL_IS_TARGET (self), NULL);

  return priv->name;
}

void
sl_target_set_name (SlTarget   *self,
                    const char *name)
{
  SlTargetPrivate *priv = sl_target_get_instance_private (self);

  g_return_if_fail (SL_IS_TARGET (self));

  if (g_strcmp0 (priv->name, name) != 0)
    {
      g_free (priv->name);
      priv->name = g_strdup (name);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
    }
}

/**
 * sl_target_get_kind:
 *
 * Returns: a stable id of the target's kind, such as "local" or "ssh"
 */
const char *
sl_target_get_kind (SlTarget *self)
{
  g_return_val_if_fail (SL_IS_TARGET (self), NULL);

  return SL_TARGET_GET_CLASS (self)->get_kind (self);
}

/**
 * sl_target_dup_location:
 *
 * Returns: (transfer full): where the target is, for people ("user@host:22")
 */
char *
sl_target_dup_location (SlTarget *self)
{
  g_return_val_if_fail (SL_IS_TARGET (self), NULL);

  return SL_TARGET_GET_CLASS (self)->dup_location (self);
}

/**
 * sl_target_spawn:
 * @argv: the program and its arguments
 * @working_dir: (nullable): folder on the target to run in
 * @env: (nullable): extra NAME=VALUE pairs added to the environment
 *
 * Starts a process on the target with stdout and stderr merged into one
 * pipe, so the Console shows output in the order it was written.
 *
 * Returns: (transfer full): the running process, or %NULL with @error set
 */
GSubprocess *
sl_target_spawn (SlTarget           *self,
                 const char * const *argv,
                 const char         *working_dir,
                 const char * const *env,
                 GError            **error)
{
  g_return_val_if_fail (SL_IS_TARGET (self), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  if (SL_TARGET_GET_CLASS (self)->spawn == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Target “%s” cannot start processes"), sl_target_get_name (self));
      return NULL;
    }

  return SL_TARGET_GET_CLASS (self)->spawn (self, argv, working_dir, env, error);
}
