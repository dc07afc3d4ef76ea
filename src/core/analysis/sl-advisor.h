/* sl-advisor.h: the advisor engine, GTK-free and synchronous
 *
 * Runs every rule of a rule book over a loaded profile and returns a
 * report: findings with their evidence, and the rules that could not run
 * with the reason. It reads the profile only (plus profiler_metadata.json
 * to place the environment evidence), so callers run it in a worker;
 * @cancellable is checked between rules and every few thousand ops.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-advisor-report.h"
#include "sl-advisor-rule-book.h"
#include "sl-profile.h"

G_BEGIN_DECLS

SlAdvisorReport *sl_advisor_run (SlProfile          *profile,
                                 SlAdvisorRuleBook  *book,
                                 GCancellable       *cancellable,
                                 GError            **error);

G_END_DECLS
