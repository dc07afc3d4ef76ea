/* sl-profile-info-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-input-file.h"
#include "sl-profile-info-reader.h"
#include "sl-profile-table-reader.h"
#include "sl-profiler-layout.h"

#define MAX_INFO_ENTRIES  400
#define MAX_JSON_BYTES    (64 * 1024 * 1024)

static void
flatten_json (SlProfileRank *rank,
              const char    *prefix,
              JsonNode      *node,
              guint          depth)
{
  if (g_hash_table_size (rank->info) >= MAX_INFO_ENTRIES || depth > 4)
    return;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      for (const GList *l = members; l != NULL; l = l->next)
        {
          g_autofree char *key = prefix[0] != '\0' ? g_strdup_printf ("%s.%s", prefix, (char *)l->data)
                                                   : g_strdup (l->data);

          flatten_json (rank, key, json_object_get_member (object, l->data), depth + 1);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array) && i < 64; i++)
        {
          g_autofree char *key = g_strdup_printf ("%s.%u", prefix, i);

          flatten_json (rank, key, json_array_get_element (array, i), depth + 1);
        }
    }
  else if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);
      g_autofree char *text = NULL;

      if (type == G_TYPE_STRING)
        text = g_strdup (json_node_get_string (node));
      else if (type == G_TYPE_INT64)
        text = g_strdup_printf ("%lld", (long long)json_node_get_int (node));
      else if (type == G_TYPE_DOUBLE)
        text = g_strdup_printf ("%.17g", json_node_get_double (node));
      else if (type == G_TYPE_BOOLEAN)
        text = g_strdup (json_node_get_boolean (node) ? "true" : "false");
      if (text != NULL)
        sl_profile_rank_set_info (rank, prefix, text);
    }
}

static JsonNode *
load_json (SlProfile  *profile,
           const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  if (!sl_input_file_get_contents (path, &contents, &length, &error))
    {
      sl_profile_report (profile, SL_SEVERITY_ERROR, path, -1, error->message);
      return NULL;
    }
  if (length > MAX_JSON_BYTES)
    {
      sl_profile_report (profile, SL_SEVERITY_WARNING, path, -1, _("The file is too large for a summary file; it is not read"));
      return NULL;
    }
  if (!json_parser_load_from_data (parser, contents, length, &error))
    {
      sl_profile_report (profile, SL_SEVERITY_ERROR, path, -1, error->message);
      return NULL;
    }
  /* Nothing but blanks parses, to no root at all. */
  if (json_parser_get_root (parser) == NULL)
    {
      sl_profile_report (profile, SL_SEVERITY_WARNING, path, 0, _("The file is empty"));
      return NULL;
    }
  return json_node_copy (json_parser_get_root (parser));
}

static gint64
info_int (SlProfileRank *rank,
          const char    *key)
{
  const char *text = g_hash_table_lookup (rank->info, key);

  return text != NULL ? sl_profile_parse_int_or (text, -1) : -1;
}

void
sl_profile_read_info (SlProfile     *profile,
                      SlProfileRank *rank,
                      const char    *path)
{
  g_autoptr(JsonNode) root = load_json (profile, path);
  g_autofree char *name = g_path_get_basename (path);
  const SlProfilerEntry *entry;
  gint64 id, name_id;

  if (root == NULL)
    return;

  flatten_json (rank, "", root, 0);

  if ((id = info_int (rank, "rank_id")) >= 0)
    rank->rank_id = id;
  entry = sl_profiler_layout_lookup_file (name, &name_id);
  if (entry != NULL && entry->layout == SL_PROFILE_LAYOUT_MSPROF)
    {
      /* msprof's info.json.N */
      if ((id = info_int (rank, "DeviceInfo.0.id")) >= 0)
        rank->device_id = id;
    }
  else if (rank->rank_id < 0 && entry != NULL && entry->rank == SL_PROFILER_RANK_NAME && name_id >= 0)
    rank->rank_id = name_id;
}

/* {total_time, num_of_streams, num_of_ops, op_exe_times}: kept as info;
 * the stream count feeds the summary. */
void
sl_profile_read_json_summary (SlProfile     *profile,
                              SlProfileRank *rank,
                              const char    *path,
                              const char    *prefix)
{
  g_autoptr(JsonNode) root = load_json (profile, path);
  gint64 streams;

  if (root == NULL)
    return;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      sl_profile_report (profile, SL_SEVERITY_WARNING, path, 0, _("Expected a JSON object"));
      return;
    }

  flatten_json (rank, prefix, root, 0);
  if ((streams = info_int (rank, "timeline.num_of_streams")) > 0)
    rank->summary.n_streams = MAX (rank->summary.n_streams, (guint)streams);
}
