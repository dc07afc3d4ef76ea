/* sl-advisor-rule-book.c
 *
 * Both files are input from outside the program (the user's override
 * file certainly): every member is type-checked, unknown ones are kept
 * as warnings, and numbers must be finite.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-advisor-rule-book.h"
#include "sl-core-resources.h"

#define RULES_FORMAT       "sightline-advisor-rules"
#define SEVERITY_RULE      "severity"
#define MAX_OVERRIDE_BYTES (1024 * 1024)

typedef struct {
  char   *name;
  double  value;
  double  default_value;
} Threshold;

typedef struct {
  char            *id;
  SlAdvisorPolicy  policy;
  GArray          *thresholds;   /* Threshold */
  GStrv            needs;        /* "a|b" names alternatives */
} Rule;

struct _SlAdvisorRuleBook
{
  GObject     parent_instance;
  gint64      version;
  GPtrArray  *rules;        /* Rule, the severity pseudo-rule first */
  GPtrArray  *overridden;   /* SlAdvisorOverride */
  GPtrArray  *warnings;
  char       *override_path;
};

G_DEFINE_FINAL_TYPE (SlAdvisorRuleBook, sl_advisor_rule_book, G_TYPE_OBJECT)

static void
threshold_clear (Threshold *threshold)
{
  g_free (threshold->name);
}

static void
rule_free (Rule *rule)
{
  g_free (rule->id);
  g_array_unref (rule->thresholds);
  g_strfreev (rule->needs);
  g_free (rule);
}

static Rule *
rule_new (const char *id)
{
  Rule *rule = g_new0 (Rule, 1);

  rule->id = g_strdup (id);
  rule->thresholds = g_array_new (FALSE, TRUE, sizeof (Threshold));
  g_array_set_clear_func (rule->thresholds, (GDestroyNotify)threshold_clear);
  return rule;
}

static void
override_free (SlAdvisorOverride *override)
{
  g_free (override->rule);
  g_free (override->name);
  g_free (override);
}

static void
sl_advisor_rule_book_finalize (GObject *object)
{
  SlAdvisorRuleBook *self = (SlAdvisorRuleBook *)object;

  g_clear_pointer (&self->rules, g_ptr_array_unref);
  g_clear_pointer (&self->overridden, g_ptr_array_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->override_path, g_free);

  G_OBJECT_CLASS (sl_advisor_rule_book_parent_class)->finalize (object);
}

static void
sl_advisor_rule_book_class_init (SlAdvisorRuleBookClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_advisor_rule_book_finalize;
}

static void
sl_advisor_rule_book_init (SlAdvisorRuleBook *self)
{
  self->rules = g_ptr_array_new_with_free_func ((GDestroyNotify)rule_free);
  self->overridden = g_ptr_array_new_with_free_func ((GDestroyNotify)override_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
}

static Rule *
find_rule (SlAdvisorRuleBook *self,
           const char        *id)
{
  for (guint i = 0; i < self->rules->len; i++)
    {
      Rule *rule = g_ptr_array_index (self->rules, i);

      if (g_str_equal (rule->id, id))
        return rule;
    }
  return NULL;
}

static Threshold *
find_threshold (Rule       *rule,
                const char *name)
{
  for (guint i = 0; i < rule->thresholds->len; i++)
    {
      Threshold *threshold = &g_array_index (rule->thresholds, Threshold, i);

      if (g_str_equal (threshold->name, name))
        return threshold;
    }
  return NULL;
}

/* A finite JSON number, integer or not. */
static gboolean
node_get_number (JsonNode *node,
                 double   *value)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *value = (double)json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    return FALSE;
  return isfinite (*value);
}

static gboolean
parse_policy (const char      *text,
              SlAdvisorPolicy *policy)
{
  static const struct { const char *name; SlAdvisorPolicy policy; } policies[] = {
    { "step-share", SL_ADVISOR_POLICY_STEP_SHARE },
    { "fixed-low", SL_ADVISOR_POLICY_FIXED_LOW },
    { "fixed-medium", SL_ADVISOR_POLICY_FIXED_MEDIUM },
    { "fixed-high", SL_ADVISOR_POLICY_FIXED_HIGH },
  };

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (policies); i++)
    if (g_str_equal (text, policies[i].name))
      {
        *policy = policies[i].policy;
        return TRUE;
      }
  return FALSE;
}

static gboolean
add_thresholds (Rule        *rule,
                JsonObject  *object,
                GError     **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      Threshold threshold;

      if (!node_get_number (json_object_get_member (object, l->data), &threshold.value))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       /* Translators: the first %s is a threshold's name, the second a rule's id */
                       _("Threshold “%s” of rule “%s” is not a number"), (char *)l->data, rule->id);
          return FALSE;
        }
      threshold.name = g_strdup (l->data);
      threshold.default_value = threshold.value;
      g_array_append_val (rule->thresholds, threshold);
    }
  return TRUE;
}

/* Entries that are not strings are left out: "needs" only says which
 * inputs to prepare, so a damaged list costs a rule its input, no more. */
static GStrv
parse_needs (JsonNode *node)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
            g_strv_builder_add (builder, json_node_get_string (element));
        }
    }
  return g_strv_builder_end (builder);
}

static gboolean
add_rule (SlAdvisorRuleBook  *self,
          JsonNode           *node,
          GError            **error)
{
  JsonObject *object;
  JsonNode *thresholds;
  const char *id;
  Rule *rule;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("A rule is not a JSON object"));
      return FALSE;
    }
  object = json_node_get_object (node);
  id = json_object_get_string_member_with_default (object, "id", NULL);
  if (id == NULL || id[0] == '\0' || find_rule (self, id) != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("A rule has no id, or the id of another rule"));
      return FALSE;
    }

  rule = rule_new (id);
  g_ptr_array_add (self->rules, rule);
  if (!parse_policy (json_object_get_string_member_with_default (object, "severity", "step-share"), &rule->policy))
    {
      /* Translators: %s is a rule's id */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("Rule “%s” has an unknown severity policy"), id);
      return FALSE;
    }
  rule->needs = parse_needs (json_object_get_member (object, "needs"));
  thresholds = json_object_get_member (object, "thresholds");
  if (thresholds != NULL && JSON_NODE_HOLDS_OBJECT (thresholds))
    return add_thresholds (rule, json_node_get_object (thresholds), error);
  return TRUE;
}

static gboolean
parse_book (SlAdvisorRuleBook  *self,
            JsonNode           *root,
            GError            **error)
{
  JsonObject *object;
  JsonNode *severity, *rules;
  Rule *severity_rule;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (root), "format", NULL),
                 RULES_FORMAT) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("This is not an advisor rule book"));
      return FALSE;
    }
  object = json_node_get_object (root);
  self->version = json_object_get_int_member_with_default (object, "version", 0);

  severity_rule = rule_new (SEVERITY_RULE);
  g_ptr_array_add (self->rules, severity_rule);
  severity = json_object_get_member (object, "severity");
  if (severity != NULL && JSON_NODE_HOLDS_OBJECT (severity) &&
      !add_thresholds (severity_rule, json_node_get_object (severity), error))
    return FALSE;

  rules = json_object_get_member (object, "rules");
  if (rules == NULL || !JSON_NODE_HOLDS_ARRAY (rules))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The rule book has no list of rules"));
      return FALSE;
    }
  for (guint i = 0; i < json_array_get_length (json_node_get_array (rules)); i++)
    if (!add_rule (self, json_array_get_element (json_node_get_array (rules), i), error))
      return FALSE;
  return TRUE;
}

SlAdvisorRuleBook *
sl_advisor_rule_book_new_from_data (const char  *data,
                                    gssize       length,
                                    GError     **error)
{
  g_autoptr(SlAdvisorRuleBook) self = g_object_new (SL_TYPE_ADVISOR_RULE_BOOK, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_return_val_if_fail (data != NULL, NULL);

  if (!json_parser_load_from_data (parser, data, length, error) ||
      !parse_book (self, json_parser_get_root (parser), error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * sl_advisor_rule_book_new_default:
 *
 * Returns: (transfer full): the rule book shipped with Sightline
 */
SlAdvisorRuleBook *
sl_advisor_rule_book_new_default (GError **error)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  const char *data;

  /* Looked up in the core's own resource rather than the global table:
   * referencing it keeps the static library's resource object linked in. */
  bytes = g_resource_lookup_data (sl_core_get_resource (), SL_ADVISOR_RULES_RESOURCE,
                                  G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &length);
  return sl_advisor_rule_book_new_from_data (data, (gssize)length, error);
}

char *
sl_advisor_rule_book_dup_user_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "sightline", "advisor.json", NULL);
}

static void
warn (SlAdvisorRuleBook *self,
      char              *message)
{
  g_ptr_array_add (self->warnings, message);
}

static void
apply_override (SlAdvisorRuleBook *self,
                Rule              *rule,
                const char        *name,
                JsonNode          *node)
{
  Threshold *threshold = find_threshold (rule, name);
  SlAdvisorOverride *override;
  double value;

  if (threshold == NULL)
    {
      /* Translators: the first %s is a rule's id, the second a threshold's name */
      warn (self, g_strdup_printf (_("Rule “%s” has no threshold “%s”; the override is ignored"), rule->id, name));
      return;
    }
  if (!node_get_number (node, &value))
    {
      /* Translators: the first %s is a threshold's name, the second a rule's id */
      warn (self, g_strdup_printf (_("The override of “%s” of rule “%s” is not a number; it is ignored"), name, rule->id));
      return;
    }
  if (value == threshold->value)
    return;

  override = g_new0 (SlAdvisorOverride, 1);
  override->rule = g_strdup (rule->id);
  override->name = g_strdup (name);
  override->default_value = threshold->default_value;
  override->value = value;
  threshold->value = value;
  g_ptr_array_add (self->overridden, override);
}

static void
apply_rule_overrides (SlAdvisorRuleBook *self,
                      const char        *id,
                      JsonNode          *node)
{
  Rule *rule = find_rule (self, id);
  g_autoptr(GList) members = NULL;
  JsonObject *object;

  if (rule == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      /* Translators: %s is what the override file gave as a rule's id */
      warn (self, g_strdup_printf (_("There is no rule “%s”; its overrides are ignored"), id));
      return;
    }
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (const GList *l = members; l != NULL; l = l->next)
    apply_override (self, rule, l->data, json_object_get_member (object, l->data));
}

gboolean
sl_advisor_rule_book_load_overrides (SlAdvisorRuleBook  *self,
                                     const char         *path,
                                     GError            **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  JsonNode *root, *rules, *severity;
  gsize length;

  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (length > MAX_OVERRIDE_BYTES)
    {
      /* Translators: %s is a path */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s is too large for an advisor settings file"), path);
      return FALSE;
    }
  if (!json_parser_load_from_data (parser, contents, (gssize)length, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      /* Translators: %s is a path */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s does not hold a JSON object"), path);
      return FALSE;
    }

  g_free (self->override_path);
  self->override_path = g_strdup (path);
  if ((severity = json_object_get_member (json_node_get_object (root), "severity")) != NULL)
    apply_rule_overrides (self, SEVERITY_RULE, severity);
  rules = json_object_get_member (json_node_get_object (root), "rules");
  if (rules != NULL && JSON_NODE_HOLDS_OBJECT (rules))
    {
      g_autoptr(GList) ids = json_object_get_members (json_node_get_object (rules));

      for (const GList *l = ids; l != NULL; l = l->next)
        apply_rule_overrides (self, l->data, json_object_get_member (json_node_get_object (rules), l->data));
    }
  return TRUE;
}

gint64
sl_advisor_rule_book_get_version (SlAdvisorRuleBook *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), 0);
  return self->version;
}

/* The severity pseudo-rule is not a rule to run. */
guint
sl_advisor_rule_book_get_n_rules (SlAdvisorRuleBook *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), 0);
  return self->rules->len - 1;
}

const char *
sl_advisor_rule_book_get_rule_id (SlAdvisorRuleBook *self,
                                  guint              index)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), NULL);
  g_return_val_if_fail (index + 1 < self->rules->len, NULL);

  return ((Rule *)g_ptr_array_index (self->rules, index + 1))->id;
}

gboolean
sl_advisor_rule_book_has_rule (SlAdvisorRuleBook *self,
                               const char        *rule)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), FALSE);
  g_return_val_if_fail (rule != NULL, FALSE);

  return !g_str_equal (rule, SEVERITY_RULE) && find_rule (self, rule) != NULL;
}

double
sl_advisor_rule_book_get_threshold (SlAdvisorRuleBook *self,
                                    const char        *rule,
                                    const char        *name)
{
  Rule *found;
  Threshold *threshold;

  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), NAN);
  g_return_val_if_fail (rule != NULL && name != NULL, NAN);

  if ((found = find_rule (self, rule)) == NULL || (threshold = find_threshold (found, name)) == NULL)
    return NAN;
  return threshold->value;
}

static gboolean
rule_needs (Rule       *rule,
            const char *need)
{
  for (guint i = 0; rule->needs != NULL && rule->needs[i] != NULL; i++)
    {
      g_auto(GStrv) alternatives = g_strsplit (rule->needs[i], "|", -1);

      if (g_strv_contains ((const char *const *)alternatives, need))
        return TRUE;
    }
  return FALSE;
}

/**
 * sl_advisor_rule_book_needs:
 * @need: an input such as "trace-events"
 *
 * Returns: whether some rule of the book names @need among its inputs
 *   (alone or as one of "a|b" alternatives)
 */
gboolean
sl_advisor_rule_book_needs (SlAdvisorRuleBook *self,
                            const char        *need)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), FALSE);
  g_return_val_if_fail (need != NULL, FALSE);

  for (guint i = 0; i < self->rules->len; i++)
    if (rule_needs (g_ptr_array_index (self->rules, i), need))
      return TRUE;
  return FALSE;
}

SlAdvisorPolicy
sl_advisor_rule_book_get_policy (SlAdvisorRuleBook *self,
                                 const char        *rule)
{
  Rule *found;

  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), SL_ADVISOR_POLICY_STEP_SHARE);
  g_return_val_if_fail (rule != NULL, SL_ADVISOR_POLICY_STEP_SHARE);

  found = find_rule (self, rule);
  return found != NULL ? found->policy : SL_ADVISOR_POLICY_STEP_SHARE;
}

static double
severity_threshold (SlAdvisorRuleBook *self,
                    const char        *name,
                    double             fallback)
{
  double value = sl_advisor_rule_book_get_threshold (self, SEVERITY_RULE, name);

  return isnan (value) ? fallback : value;
}

double
sl_advisor_rule_book_get_high_percent (SlAdvisorRuleBook *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), 5.0);
  return severity_threshold (self, "high_step_percent", 5.0);
}

double
sl_advisor_rule_book_get_medium_percent (SlAdvisorRuleBook *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), 3.0);
  return severity_threshold (self, "medium_step_percent", 3.0);
}

/**
 * sl_advisor_rule_book_get_overridden:
 *
 * Returns: (transfer none) (element-type SlAdvisorOverride): thresholds the user changed
 */
GPtrArray *
sl_advisor_rule_book_get_overridden (SlAdvisorRuleBook *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), NULL);
  return self->overridden;
}

/**
 * sl_advisor_rule_book_get_warnings:
 *
 * Returns: (transfer none) (element-type utf8): entries of the override file not used
 */
GPtrArray *
sl_advisor_rule_book_get_warnings (SlAdvisorRuleBook *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), NULL);
  return self->warnings;
}

const char *
sl_advisor_rule_book_get_override_path (SlAdvisorRuleBook *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_RULE_BOOK (self), NULL);
  return self->override_path;
}
