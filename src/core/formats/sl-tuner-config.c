/* sl-tuner-config.c
 *
 * The file is loaded into libyaml's node tree, whose nodes keep their
 * position, and then walked: each mistake becomes one line naming the
 * line and column and what was expected, and the walk goes on so that a
 * file with three mistakes says all three at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <yaml.h>

#include "sl-input-file.h"
#include "sl-tuner-config.h"

/* Far above any real configuration; a YAML bomb stops here. */
#define MAX_CONFIG_BYTES   (1024 * 1024)
#define MAX_PARAMETERS     64
#define MAX_CHOICES        1024
#define DEFAULT_KAPPA      2.576

struct _SlTunerConfig
{
  GObject        parent_instance;

  char          *command;
  char          *summary_base_dir;
  SlTunerMethod  method;
  double         kappa;
  double         xi;
  char          *target_name;
  SlTunerGroup   target_group;
  SlTunerGoal    goal;
  GArray        *parameters;   /* SlTunerParameter */
};

G_DEFINE_FINAL_TYPE (SlTunerConfig, sl_tuner_config, G_TYPE_OBJECT)
G_DEFINE_QUARK (sl-tuner-config-error-quark, sl_tuner_config_error)

static const char * const system_defined_names[] = { "learning_rate", "batch_size", "epoch" };

static void
parameter_clear (gpointer data)
{
  SlTunerParameter *parameter = data;

  g_free (parameter->name);
  g_free (parameter->choices);
  g_strfreev (parameter->choice_labels);
}

static void
sl_tuner_config_finalize (GObject *object)
{
  SlTunerConfig *self = SL_TUNER_CONFIG (object);

  g_free (self->command);
  g_free (self->summary_base_dir);
  g_free (self->target_name);
  g_array_unref (self->parameters);

  G_OBJECT_CLASS (sl_tuner_config_parent_class)->finalize (object);
}

static void
sl_tuner_config_class_init (SlTunerConfigClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_tuner_config_finalize;
}

static void
sl_tuner_config_init (SlTunerConfig *self)
{
  self->method = SL_TUNER_METHOD_UCB;
  self->kappa = DEFAULT_KAPPA;
  self->xi = 0.0;
  self->target_group = SL_TUNER_GROUP_METRIC;
  self->goal = SL_TUNER_GOAL_MAXIMIZE;
  self->parameters = g_array_new (FALSE, TRUE, sizeof (SlTunerParameter));
  g_array_set_clear_func (self->parameters, parameter_clear);
}

SlTunerConfig *
sl_tuner_config_new (void)
{
  return g_object_new (SL_TYPE_TUNER_CONFIG, NULL);
}

/* Methods */

static const char * const method_ids[] = { "ucb", "ei", "pi", "log_ei" };

const char *
sl_tuner_method_to_id (SlTunerMethod method)
{
  g_return_val_if_fail (method <= SL_TUNER_METHOD_LOG_EI, "ucb");
  return method_ids[method];
}

gboolean
sl_tuner_method_from_id (const char    *id,
                         SlTunerMethod *method)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (method_ids); i++)
    {
      if (g_ascii_strcasecmp (id, method_ids[i]) == 0)
        {
          *method = (SlTunerMethod)i;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
is_system_defined_name (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (system_defined_names); i++)
    {
      if (g_str_equal (name, system_defined_names[i]))
        return TRUE;
    }
  return FALSE;
}

/* Reading */

typedef struct {
  const char    *name;
  yaml_document_t document;
  GPtrArray     *errors;
  SlTunerConfig *config;
} Reader;

static void
complain (Reader     *reader,
          yaml_node_t *node,
          const char *format,
          ...) G_GNUC_PRINTF (3, 4);

static void
complain (Reader      *reader,
          yaml_node_t *node,
          const char  *format,
          ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (reader->errors,
                   g_strdup_printf ("%s:%lu:%lu: %s", reader->name,
                                    node != NULL ? (unsigned long)node->start_mark.line + 1 : 1UL,
                                    node != NULL ? (unsigned long)node->start_mark.column + 1 : 1UL,
                                    text));
}

static yaml_node_t *
node_at (Reader *reader,
         int     index)
{
  return yaml_document_get_node (&reader->document, index);
}

static const char *
node_kind_name (yaml_node_t *node)
{
  switch (node->type)
    {
    case YAML_SCALAR_NODE:
      return _("a value");
    case YAML_SEQUENCE_NODE:
      return _("a list");
    case YAML_MAPPING_NODE:
      return _("a mapping");
    case YAML_NO_NODE:
    default:
      return _("nothing");
    }
}

static const char *
scalar_text (yaml_node_t *node)
{
  return node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

static gboolean
expect_mapping (Reader      *reader,
                yaml_node_t *node,
                const char  *what)
{
  if (node->type == YAML_MAPPING_NODE)
    return TRUE;
  complain (reader, node, _("expected a mapping for %s, found %s"), what, node_kind_name (node));
  return FALSE;
}

static const char *
expect_string (Reader      *reader,
               yaml_node_t *node,
               const char  *key)
{
  const char *text = scalar_text (node);

  if (text == NULL)
    {
      complain (reader, node, _("expected text for “%s”, found %s"), key, node_kind_name (node));
      return NULL;
    }
  if (*text == '\0')
    {
      complain (reader, node, _("expected text for “%s”, found an empty value"), key);
      return NULL;
    }
  return text;
}

/* A plain (unquoted) scalar that is a whole finite number. */
static gboolean
scalar_number (yaml_node_t *node,
               double      *value)
{
  const char *text = scalar_text (node);
  char *end = NULL;

  if (text == NULL || *text == '\0' || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return FALSE;
  *value = g_ascii_strtod (text, &end);
  return end != NULL && *end == '\0' && isfinite (*value);
}

static gboolean
expect_number (Reader      *reader,
               yaml_node_t *node,
               const char  *key,
               double      *value)
{
  if (scalar_number (node, value))
    return TRUE;
  complain (reader, node, _("expected a number for “%s”, found “%s”"), key,
            scalar_text (node) != NULL ? scalar_text (node) : node_kind_name (node));
  return FALSE;
}

/* Calls @func for each key of @mapping, after refusing repeated keys and
 * keys that are not text. */
typedef void (*KeyFunc) (Reader      *reader,
                         const char  *key,
                         yaml_node_t *key_node,
                         yaml_node_t *value,
                         gpointer     data);

static void
for_each_key (Reader      *reader,
              yaml_node_t *mapping,
              KeyFunc      func,
              gpointer     data)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (yaml_node_pair_t *pair = mapping->data.mapping.pairs.start; pair < mapping->data.mapping.pairs.top; pair++)
    {
      yaml_node_t *key_node = node_at (reader, pair->key);
      yaml_node_t *value = node_at (reader, pair->value);
      const char *key;

      if (key_node == NULL || value == NULL)
        continue;
      key = scalar_text (key_node);
      if (key == NULL)
        {
          complain (reader, key_node, _("expected a name as the key, found %s"), node_kind_name (key_node));
          continue;
        }
      if (!g_hash_table_add (seen, (gpointer)key))
        {
          complain (reader, key_node, _("“%s” appears twice: expected each key once"), key);
          continue;
        }
      func (reader, key, key_node, value, data);
    }
}

static gboolean
has_key (Reader      *reader,
         yaml_node_t *mapping,
         const char  *wanted)
{
  for (yaml_node_pair_t *pair = mapping->data.mapping.pairs.start; pair < mapping->data.mapping.pairs.top; pair++)
    {
      yaml_node_t *key_node = node_at (reader, pair->key);

      if (key_node != NULL && g_strcmp0 (scalar_text (key_node), wanted) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
require_keys (Reader             *reader,
              yaml_node_t        *mapping,
              const char         *what,
              const char * const *keys)
{
  for (guint i = 0; keys[i] != NULL; i++)
    {
      if (!has_key (reader, mapping, keys[i]))
        complain (reader, mapping, _("%s has no “%s”: expected it here"), what, keys[i]);
    }
}

/* tuner: {name: gp, args: {method: ucb, kappa: 2.576, xi: 0}} */

static void
read_tuner_arg (Reader      *reader,
                const char  *key,
                yaml_node_t *key_node,
                yaml_node_t *value,
                gpointer     data)
{
  SlTunerConfig *config = reader->config;
  double number;

  if (g_str_equal (key, "method"))
    {
      const char *text = expect_string (reader, value, key);

      if (text != NULL && !sl_tuner_method_from_id (text, &config->method))
        complain (reader, value, _("unknown method “%s”: expected ucb, ei, pi or log_ei"), text);
    }
  else if (g_str_equal (key, "kappa"))
    {
      if (expect_number (reader, value, key, &number))
        {
          if (number < 0)
            complain (reader, value, _("expected a “kappa” of 0 or more, found %g"), number);
          else
            config->kappa = number;
        }
    }
  else if (g_str_equal (key, "xi"))
    {
      if (expect_number (reader, value, key, &number))
        {
          if (number < 0)
            complain (reader, value, _("expected an “xi” of 0 or more, found %g"), number);
          else
            config->xi = number;
        }
    }
  else
    complain (reader, key_node, _("unknown tuner argument “%s”: expected method, kappa or xi"), key);
}

static void
read_tuner_key (Reader      *reader,
                const char  *key,
                yaml_node_t *key_node,
                yaml_node_t *value,
                gpointer     data)
{
  if (g_str_equal (key, "name"))
    {
      const char *text = expect_string (reader, value, key);

      if (text != NULL && g_ascii_strcasecmp (text, "gp") != 0)
        complain (reader, value, _("unknown tuner “%s”: expected gp"), text);
    }
  else if (g_str_equal (key, "args"))
    {
      if (expect_mapping (reader, value, "“args”"))
        for_each_key (reader, value, read_tuner_arg, NULL);
    }
  else
    complain (reader, key_node, _("unknown tuner key “%s”: expected name or args"), key);
}

/* target: {group: metric, name: Accuracy, goal: maximize} */

static void
read_target_key (Reader      *reader,
                 const char  *key,
                 yaml_node_t *key_node,
                 yaml_node_t *value,
                 gpointer     data)
{
  SlTunerConfig *config = reader->config;
  const char *text;

  if (g_str_equal (key, "name"))
    {
      if ((text = expect_string (reader, value, key)) != NULL)
        {
          g_free (config->target_name);
          config->target_name = g_strdup (text);
        }
    }
  else if (g_str_equal (key, "group"))
    {
      if ((text = expect_string (reader, value, key)) == NULL)
        return;
      if (g_str_equal (text, "metric"))
        config->target_group = SL_TUNER_GROUP_METRIC;
      else if (g_str_equal (text, "system_defined"))
        config->target_group = SL_TUNER_GROUP_SYSTEM_DEFINED;
      else
        complain (reader, value, _("unknown group “%s”: expected metric or system_defined"), text);
    }
  else if (g_str_equal (key, "goal"))
    {
      if ((text = expect_string (reader, value, key)) == NULL)
        return;
      if (g_str_equal (text, "maximize"))
        config->goal = SL_TUNER_GOAL_MAXIMIZE;
      else if (g_str_equal (text, "minimize"))
        config->goal = SL_TUNER_GOAL_MINIMIZE;
      else
        complain (reader, value, _("unknown goal “%s”: expected maximize or minimize"), text);
    }
  else
    complain (reader, key_node, _("unknown target key “%s”: expected group, name or goal"), key);
}

/* parameters: {NAME: {bounds: [low, high] | choice: [...], type, decimal, source}} */

typedef struct {
  SlTunerParameter  parameter;
  gboolean          has_type;
  gboolean          has_choice;
  gboolean          saw_range;     /* a bounds or choice key, valid or not */
  gboolean          has_source;
  gboolean          all_integers;
  gboolean          any_string;
  yaml_node_t      *type_node;
  yaml_node_t      *decimal_node;
  yaml_node_t      *source_node;
  GArray           *numbers;
  GPtrArray        *labels;
} ParameterDraft;

static void
read_bounds (Reader         *reader,
             yaml_node_t    *value,
             ParameterDraft *draft)
{
  yaml_node_item_t *items;
  double low, high;

  if (value->type != YAML_SEQUENCE_NODE || value->data.sequence.items.top - value->data.sequence.items.start != 2)
    {
      complain (reader, value, _("expected “bounds” as a list of two numbers [low, high], found %s"),
                node_kind_name (value));
      return;
    }
  items = value->data.sequence.items.start;
  if (!expect_number (reader, node_at (reader, items[0]), "bounds", &low) ||
      !expect_number (reader, node_at (reader, items[1]), "bounds", &high))
    return;
  if (!(low < high))
    {
      complain (reader, value, _("expected the lower bound below the upper one, found [%g, %g]"), low, high);
      return;
    }
  draft->parameter.has_bounds = TRUE;
  draft->parameter.low = low;
  draft->parameter.high = high;
}

static void
read_choice (Reader         *reader,
             yaml_node_t    *value,
             ParameterDraft *draft)
{
  gsize n;

  if (value->type != YAML_SEQUENCE_NODE || value->data.sequence.items.top == value->data.sequence.items.start)
    {
      complain (reader, value, _("expected “choice” as a list of at least one value, found %s"),
                value->type == YAML_SEQUENCE_NODE ? _("an empty list") : node_kind_name (value));
      return;
    }
  n = value->data.sequence.items.top - value->data.sequence.items.start;
  if (n > MAX_CHOICES)
    {
      complain (reader, value, _("expected at most %d choices, found %zu"), MAX_CHOICES, n);
      return;
    }

  draft->has_choice = TRUE;
  draft->all_integers = TRUE;
  for (yaml_node_item_t *item = value->data.sequence.items.start; item < value->data.sequence.items.top; item++)
    {
      yaml_node_t *node = node_at (reader, *item);
      double number = 0;

      if (node == NULL)
        continue;
      if (node->type != YAML_SCALAR_NODE)
        {
          complain (reader, node, _("expected a number or text as a choice, found %s"), node_kind_name (node));
          continue;
        }
      for (guint i = 0; i < draft->labels->len; i++)
        {
          if (g_str_equal (g_ptr_array_index (draft->labels, i), scalar_text (node)))
            complain (reader, node, _("“%s” is a choice twice: expected each choice once"), scalar_text (node));
        }
      if (scalar_number (node, &number))
        draft->all_integers = draft->all_integers && number == floor (number) && fabs (number) < 1e15;
      else
        draft->any_string = TRUE;
      g_array_append_val (draft->numbers, number);
      g_ptr_array_add (draft->labels, g_strdup (scalar_text (node)));
    }
}

static void
read_parameter_key (Reader      *reader,
                    const char  *key,
                    yaml_node_t *key_node,
                    yaml_node_t *value,
                    gpointer     data)
{
  ParameterDraft *draft = data;
  const char *text;

  if (g_str_equal (key, "bounds") || g_str_equal (key, "choice"))
    {
      if (draft->saw_range)
        {
          complain (reader, key_node, _("parameter “%s” has both “bounds” and “choice”: expected one of them"),
                    draft->parameter.name);
          draft->has_choice = draft->parameter.has_bounds = FALSE;
          return;
        }
      draft->saw_range = TRUE;
      if (g_str_equal (key, "bounds"))
        read_bounds (reader, value, draft);
      else
        read_choice (reader, value, draft);
    }
  else if (g_str_equal (key, "type"))
    {
      draft->type_node = value;
      if ((text = expect_string (reader, value, key)) == NULL)
        return;
      draft->has_type = TRUE;
      if (g_str_equal (text, "float"))
        draft->parameter.type = SL_TUNER_PARAM_FLOAT;
      else if (g_str_equal (text, "int"))
        draft->parameter.type = SL_TUNER_PARAM_INT;
      else if (g_str_equal (text, "str"))
        draft->parameter.type = SL_TUNER_PARAM_STRING;
      else
        {
          draft->has_type = FALSE;
          complain (reader, value, _("unknown type “%s”: expected int or float"), text);
        }
    }
  else if (g_str_equal (key, "decimal"))
    {
      double number;

      draft->decimal_node = value;
      if (!expect_number (reader, value, key, &number))
        return;
      if (number != floor (number) || number < 0 || number > 15)
        complain (reader, value, _("expected “decimal” as a whole number from 0 to 15, found %g"), number);
      else
        draft->parameter.decimal = (int)number;
    }
  else if (g_str_equal (key, "source"))
    {
      draft->source_node = value;
      if ((text = expect_string (reader, value, key)) == NULL)
        return;
      draft->has_source = TRUE;
      if (g_str_equal (text, "system_defined"))
        draft->parameter.source = SL_TUNER_SOURCE_SYSTEM_DEFINED;
      else if (g_str_equal (text, "user_defined"))
        draft->parameter.source = SL_TUNER_SOURCE_USER_DEFINED;
      else
        {
          draft->has_source = FALSE;
          complain (reader, value, _("unknown source “%s”: expected system_defined or user_defined"), text);
        }
    }
  else
    complain (reader, key_node, _("unknown parameter key “%s”: expected bounds, choice, type, decimal or source"), key);
}

/* What the keys say together: one of bounds and choice, a type that fits
 * the values, a source that fits the name. */
static gboolean
check_parameter (Reader         *reader,
                 yaml_node_t    *node,
                 ParameterDraft *draft)
{
  SlTunerParameter *parameter = &draft->parameter;
  gboolean ok = TRUE;

  if (!draft->saw_range)
    {
      complain (reader, node, _("parameter “%s” has neither “bounds” nor “choice”: expected one of them"),
                parameter->name);
      return FALSE;
    }
  /* Already said what was wrong with them. */
  if (!parameter->has_bounds && !draft->has_choice)
    return FALSE;

  if (!draft->has_type)
    {
      if (draft->has_choice)
        parameter->type = draft->any_string ? SL_TUNER_PARAM_STRING
                        : draft->all_integers ? SL_TUNER_PARAM_INT : SL_TUNER_PARAM_FLOAT;
      else
        parameter->type = SL_TUNER_PARAM_FLOAT;
    }
  else if (draft->has_choice && draft->any_string && parameter->type != SL_TUNER_PARAM_STRING)
    {
      complain (reader, draft->type_node, _("parameter “%s” has text among its choices: expected numbers for type %s"),
                parameter->name, parameter->type == SL_TUNER_PARAM_INT ? "int" : "float");
      ok = FALSE;
    }
  else if (draft->has_choice && parameter->type == SL_TUNER_PARAM_INT && !draft->all_integers)
    {
      complain (reader, draft->type_node, _("parameter “%s” has type int: expected whole numbers as choices"),
                parameter->name);
      ok = FALSE;
    }
  else if (parameter->type == SL_TUNER_PARAM_STRING && parameter->has_bounds)
    {
      complain (reader, draft->type_node, _("parameter “%s” has bounds: expected type int or float"), parameter->name);
      ok = FALSE;
    }

  if (parameter->has_bounds && parameter->type == SL_TUNER_PARAM_INT &&
      !(ceil (parameter->low) < parameter->high))
    {
      complain (reader, node, _("parameter “%s” has type int: expected a whole number within [%g, %g)"),
                parameter->name, parameter->low, parameter->high);
      ok = FALSE;
    }

  if (parameter->decimal >= 0 && parameter->type != SL_TUNER_PARAM_FLOAT)
    {
      complain (reader, draft->decimal_node != NULL ? draft->decimal_node : node, _("parameter “%s” is not a float: expected no “decimal”"), parameter->name);
      ok = FALSE;
    }

  if (!draft->has_source)
    parameter->source = is_system_defined_name (parameter->name) ? SL_TUNER_SOURCE_SYSTEM_DEFINED
                                                                 : SL_TUNER_SOURCE_USER_DEFINED;
  else if (parameter->source == SL_TUNER_SOURCE_SYSTEM_DEFINED && !is_system_defined_name (parameter->name))
    {
      complain (reader, draft->source_node,
                _("“%s” is not recorded by MindSpore itself: expected source user_defined (system_defined is learning_rate, batch_size or epoch)"),
                parameter->name);
      ok = FALSE;
    }

  return ok;
}

static void
read_parameter (Reader      *reader,
                const char  *key,
                yaml_node_t *key_node,
                yaml_node_t *value,
                gpointer     data)
{
  ParameterDraft draft = { { 0 } };

  if (reader->config->parameters->len >= MAX_PARAMETERS)
    {
      complain (reader, key_node, _("expected at most %d parameters"), MAX_PARAMETERS);
      return;
    }
  if (!expect_mapping (reader, value, key))
    return;

  draft.parameter.name = g_strdup (key);
  draft.parameter.decimal = -1;
  draft.numbers = g_array_new (FALSE, FALSE, sizeof (double));
  draft.labels = g_ptr_array_new_with_free_func (g_free);
  for_each_key (reader, value, read_parameter_key, &draft);

  if (check_parameter (reader, value, &draft))
    {
      if (draft.has_choice)
        {
          draft.parameter.n_choices = draft.numbers->len;
          draft.parameter.choices = (double *)g_array_free (g_steal_pointer (&draft.numbers), FALSE);
          if (draft.parameter.type == SL_TUNER_PARAM_STRING)
            {
              g_ptr_array_add (draft.labels, NULL);
              draft.parameter.choice_labels = (char **)g_ptr_array_free (g_steal_pointer (&draft.labels), FALSE);
            }
        }
      g_array_append_val (reader->config->parameters, draft.parameter);
    }
  else
    parameter_clear (&draft.parameter);

  if (draft.numbers != NULL)
    g_array_unref (draft.numbers);
  if (draft.labels != NULL)
    g_ptr_array_unref (draft.labels);
}

static void
read_top_key (Reader      *reader,
              const char  *key,
              yaml_node_t *key_node,
              yaml_node_t *value,
              gpointer     data)
{
  SlTunerConfig *config = reader->config;
  const char *text;

  if (g_str_equal (key, "command"))
    {
      if ((text = expect_string (reader, value, key)) != NULL)
        sl_tuner_config_set_command (config, text);
    }
  else if (g_str_equal (key, "summary_base_dir"))
    {
      if ((text = expect_string (reader, value, key)) != NULL)
        sl_tuner_config_set_summary_base_dir (config, text);
    }
  else if (g_str_equal (key, "tuner"))
    {
      if (expect_mapping (reader, value, "“tuner”"))
        for_each_key (reader, value, read_tuner_key, NULL);
    }
  else if (g_str_equal (key, "target"))
    {
      if (expect_mapping (reader, value, "“target”"))
        {
          require_keys (reader, value, _("The target"), (const char * const []) { "name", NULL });
          for_each_key (reader, value, read_target_key, NULL);
        }
    }
  else if (g_str_equal (key, "parameters"))
    {
      if (!expect_mapping (reader, value, "“parameters”"))
        return;
      if (value->data.mapping.pairs.top == value->data.mapping.pairs.start)
        complain (reader, value, _("expected at least one parameter"));
      for_each_key (reader, value, read_parameter, NULL);
    }
  else
    complain (reader, key_node, _("unknown key “%s”: expected command, summary_base_dir, tuner, target or parameters"), key);
}

static void
set_syntax_error (GError        **error,
                  const char     *name,
                  yaml_parser_t  *parser)
{
  const yaml_mark_t *mark = &parser->problem_mark;

  if (parser->problem == NULL)
    {
      g_set_error (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_SYNTAX,
                   _("%s: cannot read the file as YAML"), name);
      return;
    }
  g_set_error (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_SYNTAX, "%s:%lu:%lu: %s%s%s", name,
               (unsigned long)mark->line + 1, (unsigned long)mark->column + 1, parser->problem,
               parser->context != NULL ? " " : "", parser->context != NULL ? parser->context : "");
}

/**
 * sl_tuner_config_new_from_data:
 * @name: what the messages call the file
 *
 * Returns: (transfer full) (nullable): the configuration, or %NULL with
 *   @error holding one line per mistake
 */
SlTunerConfig *
sl_tuner_config_new_from_data (const char  *name,
                               const char  *data,
                               gsize        length,
                               GError     **error)
{
  g_autoptr(SlTunerConfig) config = sl_tuner_config_new ();
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  yaml_parser_t parser;
  Reader reader;
  yaml_node_t *root;

  g_return_val_if_fail (name != NULL && data != NULL, NULL);

  memset (&reader, 0, sizeof reader);
  reader.name = name;
  reader.errors = errors;
  reader.config = config;

  if (length > MAX_CONFIG_BYTES)
    {
      g_set_error (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_INVALID,
                   _("%s: the file is larger than %d bytes: expected a tuner configuration"), name, MAX_CONFIG_BYTES);
      return NULL;
    }

  if (!yaml_parser_initialize (&parser))
    {
      g_set_error (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_SYNTAX, _("%s: out of memory"), name);
      return NULL;
    }
  yaml_parser_set_input_string (&parser, (const unsigned char *)data, length);
  if (!yaml_parser_load (&parser, &reader.document))
    {
      set_syntax_error (error, name, &parser);
      yaml_parser_delete (&parser);
      return NULL;
    }
  yaml_parser_delete (&parser);

  root = yaml_document_get_root_node (&reader.document);
  if (root == NULL)
    complain (&reader, NULL, _("the file is empty: expected command, summary_base_dir, target and parameters"));
  else if (expect_mapping (&reader, root, _("the configuration")))
    {
      require_keys (&reader, root, _("The configuration"),
                    (const char * const []) { "command", "summary_base_dir", "target", "parameters", NULL });
      for_each_key (&reader, root, read_top_key, NULL);
    }
  yaml_document_delete (&reader.document);

  if (errors->len > 0)
    {
      g_autofree char *text = NULL;

      g_ptr_array_add (errors, NULL);
      text = g_strjoinv ("\n", (char **)errors->pdata);
      g_set_error_literal (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_INVALID, text);
      return NULL;
    }
  return g_steal_pointer (&config);
}

SlTunerConfig *
sl_tuner_config_new_from_file (const char  *path,
                               GError     **error)
{
  g_autofree char *data = NULL;
  g_autofree char *name = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!sl_input_file_get_contents (path, &data, &length, error))
    return NULL;
  name = g_path_get_basename (path);
  return sl_tuner_config_new_from_data (name, data, length, error);
}

/**
 * sl_tuner_config_validate:
 *
 * What the form checks before it writes a file: the same rules as the
 * reader, for a configuration built in code.
 */
gboolean
sl_tuner_config_validate (SlTunerConfig  *self,
                          GError        **error)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), FALSE);

  if (self->command == NULL || *self->command == '\0')
    g_set_error_literal (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_INVALID, _("The command is empty"));
  else if (self->summary_base_dir == NULL || *self->summary_base_dir == '\0')
    g_set_error_literal (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_INVALID,
                         _("The summary base folder is empty"));
  else if (self->target_name == NULL || *self->target_name == '\0')
    g_set_error_literal (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_INVALID, _("The target has no name"));
  else if (self->parameters->len == 0)
    g_set_error_literal (error, SL_TUNER_CONFIG_ERROR, SL_TUNER_CONFIG_ERROR_INVALID, _("There are no parameters"));
  else
    {
      g_autofree char *yaml = sl_tuner_config_to_yaml (self);
      g_autoptr(SlTunerConfig) copy = sl_tuner_config_new_from_data (_("the form"), yaml, strlen (yaml), error);

      return copy != NULL;
    }
  return FALSE;
}

/* Writing */

static gboolean
is_plain_safe (const char *text)
{
  static const char *special = ":#{}[],&*!|>'\"%@`\\";
  double number;
  char *end = NULL;

  if (*text == '\0' || g_ascii_isspace (text[0]) || g_ascii_isspace (text[strlen (text) - 1]) ||
      text[0] == '-' || text[0] == '?')
    return FALSE;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (strchr (special, *p) != NULL || (guchar)*p < 0x20)
        return FALSE;
    }
  /* Text that reads as a number or a YAML word keeps its quotes. */
  number = g_ascii_strtod (text, &end);
  (void)number;
  if (end != NULL && *end == '\0')
    return FALSE;
  return g_ascii_strcasecmp (text, "true") != 0 && g_ascii_strcasecmp (text, "false") != 0 &&
         g_ascii_strcasecmp (text, "null") != 0 && g_ascii_strcasecmp (text, "yes") != 0 &&
         g_ascii_strcasecmp (text, "no") != 0 && !g_str_equal (text, "~");
}

static void
append_text (GString    *out,
             const char *text)
{
  if (is_plain_safe (text))
    {
      g_string_append (out, text);
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p == '\t')
        g_string_append (out, "\\t");
      else if ((guchar)*p < 0x20)
        g_string_append_printf (out, "\\x%02x", (guchar)*p);
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_number (GString *out,
               double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer, value));
}

static void
append_parameter (GString                *out,
                  const SlTunerParameter *parameter)
{
  static const char * const types[] = { "float", "int", "str" };

  g_string_append (out, "  ");
  append_text (out, parameter->name);
  g_string_append (out, ":\n");

  if (parameter->has_bounds)
    {
      g_string_append (out, "    bounds: [");
      append_number (out, parameter->low);
      g_string_append (out, ", ");
      append_number (out, parameter->high);
      g_string_append (out, "]\n");
    }
  else
    {
      g_string_append (out, "    choice: [");
      for (guint i = 0; i < parameter->n_choices; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (parameter->choice_labels != NULL)
            {
              /* Always quoted: a label "1" stays text when read back. */
              g_autofree char *escaped = g_strescape (parameter->choice_labels[i], NULL);

              g_string_append_printf (out, "\"%s\"", escaped);
            }
          else
            append_number (out, parameter->choices[i]);
        }
      g_string_append (out, "]\n");
    }
  g_string_append_printf (out, "    type: %s\n", types[parameter->type]);
  if (parameter->decimal >= 0)
    g_string_append_printf (out, "    decimal: %d\n", parameter->decimal);
  g_string_append_printf (out, "    source: %s\n",
                          parameter->source == SL_TUNER_SOURCE_SYSTEM_DEFINED ? "system_defined" : "user_defined");
}

/**
 * sl_tuner_config_to_yaml:
 *
 * Returns: (transfer full): the configuration as YAML, in the layout of
 *   MindInsight's documentation
 */
char *
sl_tuner_config_to_yaml (SlTunerConfig *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), NULL);

  g_string_append (out, "command: ");
  append_text (out, self->command != NULL ? self->command : "");
  g_string_append (out, "\nsummary_base_dir: ");
  append_text (out, self->summary_base_dir != NULL ? self->summary_base_dir : "");
  g_string_append_printf (out, "\ntuner:\n  name: gp\n  args:\n    method: %s\n", sl_tuner_method_to_id (self->method));
  if (self->kappa != DEFAULT_KAPPA)
    {
      g_string_append (out, "    kappa: ");
      append_number (out, self->kappa);
      g_string_append_c (out, '\n');
    }
  if (self->xi != 0)
    {
      g_string_append (out, "    xi: ");
      append_number (out, self->xi);
      g_string_append_c (out, '\n');
    }
  g_string_append_printf (out, "target:\n  group: %s\n  name: ",
                          self->target_group == SL_TUNER_GROUP_METRIC ? "metric" : "system_defined");
  append_text (out, self->target_name != NULL ? self->target_name : "");
  g_string_append_printf (out, "\n  goal: %s\nparameters:\n",
                          self->goal == SL_TUNER_GOAL_MAXIMIZE ? "maximize" : "minimize");
  for (guint i = 0; i < self->parameters->len; i++)
    append_parameter (out, &g_array_index (self->parameters, SlTunerParameter, i));

  return g_string_free (out, FALSE);
}

/* Properties */

const char *
sl_tuner_config_get_command (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), NULL);
  return self->command;
}

void
sl_tuner_config_set_command (SlTunerConfig *self,
                             const char    *command)
{
  g_return_if_fail (SL_IS_TUNER_CONFIG (self));
  g_free (self->command);
  self->command = g_strdup (command);
}

const char *
sl_tuner_config_get_summary_base_dir (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), NULL);
  return self->summary_base_dir;
}

void
sl_tuner_config_set_summary_base_dir (SlTunerConfig *self,
                                      const char    *dir)
{
  g_return_if_fail (SL_IS_TUNER_CONFIG (self));
  g_free (self->summary_base_dir);
  self->summary_base_dir = g_strdup (dir);
}

SlTunerMethod
sl_tuner_config_get_method (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), SL_TUNER_METHOD_UCB);
  return self->method;
}

void
sl_tuner_config_set_method (SlTunerConfig *self,
                            SlTunerMethod  method)
{
  g_return_if_fail (SL_IS_TUNER_CONFIG (self));
  g_return_if_fail (method <= SL_TUNER_METHOD_LOG_EI);
  self->method = method;
}

double
sl_tuner_config_get_kappa (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), DEFAULT_KAPPA);
  return self->kappa;
}

double
sl_tuner_config_get_xi (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), 0);
  return self->xi;
}

const char *
sl_tuner_config_get_target_name (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), NULL);
  return self->target_name;
}

SlTunerGroup
sl_tuner_config_get_target_group (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), SL_TUNER_GROUP_METRIC);
  return self->target_group;
}

SlTunerGoal
sl_tuner_config_get_goal (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), SL_TUNER_GOAL_MAXIMIZE);
  return self->goal;
}

void
sl_tuner_config_set_target (SlTunerConfig *self,
                            SlTunerGroup   group,
                            const char    *name,
                            SlTunerGoal    goal)
{
  g_return_if_fail (SL_IS_TUNER_CONFIG (self));
  self->target_group = group;
  self->goal = goal;
  g_free (self->target_name);
  self->target_name = g_strdup (name);
}

guint
sl_tuner_config_get_n_parameters (SlTunerConfig *self)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), 0);
  return self->parameters->len;
}

const SlTunerParameter *
sl_tuner_config_get_parameter (SlTunerConfig *self,
                               guint          index)
{
  g_return_val_if_fail (SL_IS_TUNER_CONFIG (self), NULL);
  g_return_val_if_fail (index < self->parameters->len, NULL);
  return &g_array_index (self->parameters, SlTunerParameter, index);
}

static SlTunerParameter *
append_parameter_slot (SlTunerConfig    *self,
                       const char       *name,
                       SlTunerParamType  type)
{
  SlTunerParameter parameter = { 0 };

  parameter.name = g_strdup (name);
  parameter.type = type;
  parameter.decimal = -1;
  parameter.source = is_system_defined_name (name) ? SL_TUNER_SOURCE_SYSTEM_DEFINED : SL_TUNER_SOURCE_USER_DEFINED;
  g_array_append_val (self->parameters, parameter);
  return &g_array_index (self->parameters, SlTunerParameter, self->parameters->len - 1);
}

void
sl_tuner_config_add_bounds (SlTunerConfig    *self,
                            const char       *name,
                            SlTunerParamType  type,
                            double            low,
                            double            high,
                            int               decimal)
{
  SlTunerParameter *parameter;

  g_return_if_fail (SL_IS_TUNER_CONFIG (self));
  g_return_if_fail (name != NULL);

  parameter = append_parameter_slot (self, name, type);
  parameter->has_bounds = TRUE;
  parameter->low = low;
  parameter->high = high;
  parameter->decimal = decimal;
}

void
sl_tuner_config_add_choices (SlTunerConfig      *self,
                             const char         *name,
                             SlTunerParamType    type,
                             const double       *choices,
                             const char * const *labels,
                             guint               n_choices)
{
  SlTunerParameter *parameter;

  g_return_if_fail (SL_IS_TUNER_CONFIG (self));
  g_return_if_fail (name != NULL && n_choices > 0);
  g_return_if_fail ((type == SL_TUNER_PARAM_STRING) == (labels != NULL));

  parameter = append_parameter_slot (self, name, type);
  parameter->n_choices = n_choices;
  parameter->choices = g_new0 (double, n_choices);
  if (choices != NULL)
    memcpy (parameter->choices, choices, n_choices * sizeof (double));
  if (labels != NULL)
    parameter->choice_labels = g_strdupv ((char **)labels);
}

void
sl_tuner_config_set_source (SlTunerConfig *self,
                            guint          index,
                            SlTunerSource  source)
{
  g_return_if_fail (SL_IS_TUNER_CONFIG (self));
  g_return_if_fail (index < self->parameters->len);
  g_array_index (self->parameters, SlTunerParameter, index).source = source;
}

void
sl_tuner_config_clear_parameters (SlTunerConfig *self)
{
  g_return_if_fail (SL_IS_TUNER_CONFIG (self));
  g_array_set_size (self->parameters, 0);
}
