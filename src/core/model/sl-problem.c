/* sl-problem.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-problem.h"

struct _SlProblem
{
  GObject     parent_instance;
  SlSeverity  severity;
  char       *source;
  char       *path;
  gint64      offset;
  guint       line;
  guint       column;
  char       *subject;
  char       *message;
  char       *code;
  char       *hint;
  char       *local_copy;
  gint64      time;
};

G_DEFINE_FINAL_TYPE (SlProblem, sl_problem, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SEVERITY,
  PROP_SOURCE,
  PROP_PATH,
  PROP_LOCATION,
  PROP_MESSAGE,
  PROP_CODE,
  PROP_HINT,
  PROP_LOCAL_COPY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_problem_finalize (GObject *object)
{
  SlProblem *self = (SlProblem *)object;

  g_clear_pointer (&self->source, g_free);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->subject, g_free);
  g_clear_pointer (&self->message, g_free);
  g_clear_pointer (&self->code, g_free);
  g_clear_pointer (&self->hint, g_free);
  g_clear_pointer (&self->local_copy, g_free);

  G_OBJECT_CLASS (sl_problem_parent_class)->finalize (object);
}

static void
sl_problem_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  SlProblem *self = SL_PROBLEM (object);

  switch (prop_id)
    {
    case PROP_SEVERITY:
      g_value_set_int (value, self->severity);
      break;

    case PROP_SOURCE:
      g_value_set_string (value, self->source);
      break;

    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_LOCATION:
      g_value_take_string (value, sl_problem_dup_location (self));
      break;

    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;

    case PROP_CODE:
      g_value_set_string (value, self->code);
      break;

    case PROP_HINT:
      g_value_set_string (value, self->hint);
      break;

    case PROP_LOCAL_COPY:
      g_value_set_string (value, self->local_copy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_problem_class_init (SlProblemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_problem_finalize;
  object_class->get_property = sl_problem_get_property;

  properties[PROP_SEVERITY] =
    g_param_spec_int ("severity", NULL, NULL, SL_SEVERITY_INFO, SL_SEVERITY_ERROR, SL_SEVERITY_INFO,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SOURCE] =
    g_param_spec_string ("source", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOCATION] =
    g_param_spec_string ("location", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CODE] =
    g_param_spec_string ("code", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_HINT] =
    g_param_spec_string ("hint", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOCAL_COPY] =
    g_param_spec_string ("local-copy", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_problem_init (SlProblem *self)
{
  self->offset = -1;
  self->time = g_get_real_time ();
}

static SlProblem *
sl_problem_new_full (SlSeverity  severity,
                     const char *source,
                     const char *path,
                     gint64      offset,
                     guint       line,
                     const char *message)
{
  SlProblem *self = g_object_new (SL_TYPE_PROBLEM, NULL);

  self->severity = severity;
  self->source = g_strdup (source);
  self->path = g_strdup (path);
  self->offset = offset < 0 ? -1 : offset;
  self->line = line;
  self->message = g_strdup (message);

  return self;
}

/**
 * sl_problem_new:
 * @offset: byte offset into @path, or -1 when it does not apply
 *
 * Returns: (transfer full): a new problem
 */
SlProblem *
sl_problem_new (SlSeverity  severity,
                const char *source,
                const char *path,
                gint64      offset,
                const char *message)
{
  g_return_val_if_fail (message != NULL, NULL);

  return sl_problem_new_full (severity, source, path, offset, 0, message);
}

/**
 * sl_problem_new_at_line:
 * @line: 1-based line number in @path
 *
 * Returns: (transfer full): a new problem
 */
SlProblem *
sl_problem_new_at_line (SlSeverity  severity,
                        const char *source,
                        const char *path,
                        guint       line,
                        const char *message)
{
  g_return_val_if_fail (message != NULL, NULL);

  return sl_problem_new_full (severity, source, path, -1, line, message);
}

/**
 * sl_problem_new_at_position:
 * @offset: byte offset into @path, or -1
 * @line: 1-based line, or 0 when unknown
 * @column: 1-based column in characters, or 0 when unknown
 * @subject: (nullable): the named part of the file the problem is about
 *
 * Returns: (transfer full): a new problem
 */
SlProblem *
sl_problem_new_at_position (SlSeverity  severity,
                            const char *source,
                            const char *path,
                            gint64      offset,
                            guint       line,
                            guint       column,
                            const char *subject,
                            const char *message)
{
  SlProblem *self;

  g_return_val_if_fail (message != NULL, NULL);

  self = sl_problem_new_full (severity, source, path, offset, line, message);
  self->column = line > 0 ? column : 0;
  self->subject = g_strdup (subject);
  return self;
}

SlSeverity
sl_problem_get_severity (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), SL_SEVERITY_INFO);
  return self->severity;
}

const char *
sl_problem_get_source (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), NULL);
  return self->source;
}

const char *
sl_problem_get_path (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), NULL);
  return self->path;
}

gint64
sl_problem_get_offset (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), -1);
  return self->offset;
}

guint
sl_problem_get_line (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), 0);
  return self->line;
}

guint
sl_problem_get_column (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), 0);
  return self->column;
}

const char *
sl_problem_get_subject (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), NULL);
  return self->subject;
}

const char *
sl_problem_get_message (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), NULL);
  return self->message;
}

/**
 * sl_problem_set_code:
 * @code: (nullable): the tool's own code for it ("E10001"), so a user
 *   can look it up in the tool's documentation
 */
void
sl_problem_set_code (SlProblem  *self,
                     const char *code)
{
  g_return_if_fail (SL_IS_PROBLEM (self));

  if (g_strcmp0 (self->code, code) == 0)
    return;
  g_free (self->code);
  self->code = g_strdup (code);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CODE]);
}

const char *
sl_problem_get_code (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), NULL);
  return self->code;
}

/**
 * sl_problem_set_hint:
 * @hint: (nullable): what to try next, in a sentence
 */
void
sl_problem_set_hint (SlProblem  *self,
                     const char *hint)
{
  g_return_if_fail (SL_IS_PROBLEM (self));

  if (g_strcmp0 (self->hint, hint) == 0)
    return;
  g_free (self->hint);
  self->hint = g_strdup (hint);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HINT]);
}

const char *
sl_problem_get_hint (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), NULL);
  return self->hint;
}

/**
 * sl_problem_set_local_copy:
 * @path: (nullable): a copy on this computer of the file at the problem's
 *   path (a log pulled from a target), at the same line
 */
void
sl_problem_set_local_copy (SlProblem  *self,
                           const char *path)
{
  g_return_if_fail (SL_IS_PROBLEM (self));

  if (g_strcmp0 (self->local_copy, path) == 0)
    return;
  g_free (self->local_copy);
  self->local_copy = g_strdup (path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCAL_COPY]);
}

const char *
sl_problem_get_local_copy (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), NULL);
  return self->local_copy;
}

gint64
sl_problem_get_time (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), 0);
  return self->time;
}

/**
 * sl_problem_dup_location:
 *
 * Returns: (transfer full) (nullable): "byte 1234", "line 12" or "line 12,
 *   column 5", or %NULL
 *   when the problem has no position inside its file
 */
char *
sl_problem_dup_location (SlProblem *self)
{
  g_return_val_if_fail (SL_IS_PROBLEM (self), NULL);

  if (self->line > 0 && self->column > 0)
    return g_strdup_printf (_("line %u, column %u"), self->line, self->column);
  if (self->line > 0)
    return g_strdup_printf (_("line %u"), self->line);
  if (self->offset >= 0)
    return g_strdup_printf (_("byte %lld"), (long long)self->offset);
  return NULL;
}

const char *
sl_severity_to_string (SlSeverity severity)
{
  switch (severity)
    {
    case SL_SEVERITY_ERROR:
      return "error";
    case SL_SEVERITY_WARNING:
      return "warning";
    case SL_SEVERITY_INFO:
    default:
      return "info";
    }
}
