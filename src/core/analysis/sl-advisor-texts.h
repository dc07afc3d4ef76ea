/* sl-advisor-texts.h: the translatable texts of the advisor's rules
 *
 * Kept in C as N_() strings so xgettext sees them; the rule book (JSON)
 * holds the numbers and names each rule by the same id. Templates name
 * their values in braces, {count}, so translators can reorder them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *id;
  const char *title;
  const char *message;         /* template; the singular when there is a plural */
  const char *message_plural;  /* NULL, or the template for a {count} other than one */
  const char *recommendation;  /* template */
  const char *assumption;      /* template: what the saving estimate rests on */
  const char *enable;          /* what to turn on in the profiler to get the data */
} SlAdvisorTexts;

/* NULL for an id no text is written for. Strings are untranslated. */
const SlAdvisorTexts *sl_advisor_texts_lookup (const char *id);
/* Replaces every {name} of @template (translated first) with its value
 * in @values (char * → char *); unknown names stay as they are. */
char                 *sl_advisor_texts_format (const char *template,
                                               GHashTable *values);

/* The message of @texts in the form its {count} value asks for. */
char                 *sl_advisor_texts_format_message (const SlAdvisorTexts *texts,
                                                       GHashTable           *values);

G_END_DECLS
