/* sl-cli-profile-memory.c: the `memory` of each rank in `sightline-cli profile`
 *
 * {components: [{name, device, max_allocated_mb, max_reserved_mb}],
 *  peak_component, peak_time_us, peak_time_ns, peak_allocated_mb,
 *  peak_reserved_mb, held_mb, holders: [{name, size_kb, allocated_us,
 *  released_us, allocated_ns, released_ns, stream, share}],
 *  modules: [{name, max_reserved_mb}], allocations, files}, or null
 * when the profile has no memory data. Values not written are null.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "sl-cli.h"

static void
add_mb (JsonBuilder *builder,
        const char  *name,
        double       value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_curves (JsonBuilder     *builder,
            SlMemoryProfile *memory,
            gboolean         modules)
{
  guint n = modules ? sl_memory_profile_get_n_modules (memory) : sl_memory_profile_get_n_curves (memory);

  json_builder_set_member_name (builder, modules ? "modules" : "components");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    {
      const SlMemoryCurve *curve = modules ? sl_memory_profile_get_module (memory, i)
                                           : sl_memory_profile_get_curve (memory, i);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", curve->name);
      sl_cli_json_add_string (builder, "device", curve->device);
      if (!modules)
        add_mb (builder, "max_allocated_mb", curve->max_allocated_mb);
      add_mb (builder, "max_reserved_mb", curve->max_reserved_mb);
      sl_cli_json_add_int (builder, "points", curve->ts_ns->len);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_ns (JsonBuilder *builder,
        const char  *name,
        gint64       ns)
{
  json_builder_set_member_name (builder, name);
  if (ns < 0)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, ns);
}

static void
add_holders (JsonBuilder        *builder,
             SlMemoryProfile    *memory,
             const SlMemoryPeak *peak)
{
  json_builder_set_member_name (builder, "holders");
  json_builder_begin_array (builder);
  for (guint i = 0; i < peak->holders->len; i++)
    {
      const SlMemoryHolder *holder = &g_array_index (peak->holders, SlMemoryHolder, i);
      const SlMemoryAllocation *allocation = sl_memory_profile_get_allocation (memory, holder->allocation);

      json_builder_begin_object (builder);
      sl_cli_json_add_string (builder, "name", allocation->name);
      add_mb (builder, "size_kb", allocation->size_kb);
      sl_cli_json_add_us (builder, "allocated_us", allocation->allocation_ns);
      sl_cli_json_add_us (builder, "released_us", allocation->release_ns);
      add_ns (builder, "allocated_ns", allocation->allocation_ns);
      add_ns (builder, "released_ns", allocation->release_ns);
      sl_cli_json_add_string (builder, "stream", allocation->stream);
      add_mb (builder, "share", holder->share);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/**
 * sl_cli_profile_add_memory:
 *
 * Adds the member "memory" to the rank object being built.
 */
void
sl_cli_profile_add_memory (JsonBuilder     *builder,
                           SlMemoryProfile *memory)
{
  const SlMemoryPeak *peak;

  json_builder_set_member_name (builder, "memory");
  if (memory == NULL || sl_memory_profile_is_empty (memory))
    {
      json_builder_add_null_value (builder);
      return;
    }

  peak = sl_memory_profile_get_peak (memory);
  json_builder_begin_object (builder);
  add_curves (builder, memory, FALSE);
  json_builder_set_member_name (builder, "peak_component");
  if (peak->found)
    json_builder_add_string_value (builder, peak->component);
  else
    json_builder_add_null_value (builder);
  sl_cli_json_add_us (builder, "peak_time_us", peak->found ? peak->time_ns : -1);
  add_ns (builder, "peak_time_ns", peak->found ? peak->time_ns : -1);
  add_mb (builder, "peak_allocated_mb", peak->allocated_mb);
  add_mb (builder, "peak_reserved_mb", peak->reserved_mb);
  add_mb (builder, "held_mb", peak->found ? peak->held_mb : NAN);
  add_holders (builder, memory, peak);
  add_curves (builder, memory, TRUE);
  sl_cli_json_add_int (builder, "allocations", sl_memory_profile_get_n_allocations (memory));

  json_builder_set_member_name (builder, "files");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sl_memory_profile_get_files (memory)->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (sl_memory_profile_get_files (memory), i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

void
sl_cli_profile_print_memory (SlMemoryProfile *memory)
{
  const SlMemoryPeak *peak;

  if (memory == NULL || sl_memory_profile_is_empty (memory))
    return;
  peak = sl_memory_profile_get_peak (memory);
  if (!peak->found)
    {
      /* Translators: a count of operator allocations */
      printf (_("  Memory: no allocated totals, %u operator allocations\n"),
              sl_memory_profile_get_n_allocations (memory));
      return;
    }
  /* Translators: the peak's size in MB, its component, then how many operators hold memory there */
  printf (_("  Memory peak: %.3f MB allocated (%s), %u operators hold %.3f MB there\n"),
          peak->allocated_mb, peak->component, peak->holders->len, peak->held_mb);
}
