/* sl-advisor-rule-book.h: the advisor's rules as data
 *
 * The rule book is a versioned JSON file (advisor-rules.json, shipped in
 * the core's GResource) with one entry per rule: its id, what it needs,
 * its thresholds and how its severity is graded. The texts a rule shows
 * are translatable and live in sl-advisor-texts.c, keyed by the same id.
 * A user file (sightline/advisor.json in the config folder) may override
 * any threshold; the book remembers which, so reports can say so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_ADVISOR_RULES_RESOURCE "/io/github/sightline/Sightline/core/advisor-rules.json"

typedef enum {
  SL_ADVISOR_POLICY_STEP_SHARE,   /* high ≥ 5 % of the step, medium ≥ 3 %, else low */
  SL_ADVISOR_POLICY_FIXED_LOW,
  SL_ADVISOR_POLICY_FIXED_MEDIUM,
  SL_ADVISOR_POLICY_FIXED_HIGH,
} SlAdvisorPolicy;

/* A threshold the user's file changed. @rule is "severity" for the
 * grading thresholds. */
typedef struct {
  char   *rule;
  char   *name;
  double  default_value;
  double  value;
} SlAdvisorOverride;

#define SL_TYPE_ADVISOR_RULE_BOOK (sl_advisor_rule_book_get_type ())
G_DECLARE_FINAL_TYPE (SlAdvisorRuleBook, sl_advisor_rule_book, SL, ADVISOR_RULE_BOOK, GObject)

SlAdvisorRuleBook *sl_advisor_rule_book_new_default       (GError            **error);
SlAdvisorRuleBook *sl_advisor_rule_book_new_from_data     (const char         *data,
                                                           gssize              length,
                                                           GError            **error);
/* $XDG_CONFIG_HOME/sightline/advisor.json */
char              *sl_advisor_rule_book_dup_user_path     (void);
/* A missing file is no error. Entries that name no rule or threshold, or
 * hold no number, are kept as warnings rather than failing the file. */
gboolean           sl_advisor_rule_book_load_overrides    (SlAdvisorRuleBook  *self,
                                                           const char         *path,
                                                           GError            **error);

gint64             sl_advisor_rule_book_get_version       (SlAdvisorRuleBook  *self);
guint              sl_advisor_rule_book_get_n_rules       (SlAdvisorRuleBook  *self);
const char        *sl_advisor_rule_book_get_rule_id       (SlAdvisorRuleBook  *self,
                                                           guint               index);
gboolean           sl_advisor_rule_book_has_rule          (SlAdvisorRuleBook  *self,
                                                           const char         *rule);
/* NAN when the rule has no such threshold. */
double             sl_advisor_rule_book_get_threshold     (SlAdvisorRuleBook  *self,
                                                           const char         *rule,
                                                           const char         *name);
gboolean           sl_advisor_rule_book_needs             (SlAdvisorRuleBook  *self,
                                                           const char         *need);
SlAdvisorPolicy    sl_advisor_rule_book_get_policy        (SlAdvisorRuleBook  *self,
                                                           const char         *rule);
double             sl_advisor_rule_book_get_high_percent  (SlAdvisorRuleBook  *self);
double             sl_advisor_rule_book_get_medium_percent (SlAdvisorRuleBook *self);
/* SlAdvisorOverride, in the order applied */
GPtrArray         *sl_advisor_rule_book_get_overridden    (SlAdvisorRuleBook  *self);
/* char *, what the override file said that was not used */
GPtrArray         *sl_advisor_rule_book_get_warnings      (SlAdvisorRuleBook  *self);
const char        *sl_advisor_rule_book_get_override_path (SlAdvisorRuleBook  *self);

G_END_DECLS
