/* sl-cli-json.c: JSON members the commands write the same way
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "sl-cli.h"

/* A string member, null when there is none. */
void
sl_cli_json_add_string (JsonBuilder *builder,
                        const char  *name,
                        const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value == NULL)
    json_builder_add_null_value (builder);
  else
    json_builder_add_string_value (builder, value);
}

void
sl_cli_json_add_int (JsonBuilder *builder,
                     const char  *name,
                     gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* A duration in microseconds, null when negative (unknown). */
void
sl_cli_json_add_us (JsonBuilder *builder,
                    const char  *name,
                    gint64       ns)
{
  json_builder_set_member_name (builder, name);
  if (ns < 0)
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, ns / 1000.0);
}

/* A number, null when it is NaN or infinite (JSON has neither). */
void
sl_cli_json_add_double (JsonBuilder *builder,
                        const char  *name,
                        double       value)
{
  json_builder_set_member_name (builder, name);
  if (!isfinite (value))
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, value);
}
