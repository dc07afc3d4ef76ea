/* sl-workspace-recovery.c
 *
 * The report is kept in the new database (as JSON in its meta table) so
 * that every program opening it can tell the user until they dismiss it,
 * not only the one that did the recovery.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-workspace-recovery.h"

typedef struct {
  char    *name;
  guint64  recovered;
  gint64   lost;
} TableCount;

struct _SlWorkspaceRecovery
{
  GObject                  parent_instance;
  SlWorkspaceRecoveryKind  kind;
  char                    *db_path;
  char                    *reason;
  gint64                   when;
  GPtrArray               *moved_aside;
  GArray                  *tables;
};

G_DEFINE_FINAL_TYPE (SlWorkspaceRecovery, sl_workspace_recovery, G_TYPE_OBJECT)

static const char * const kind_ids[] = {
  [SL_WORKSPACE_RECOVERY_DAMAGED] = "damaged",
  [SL_WORKSPACE_RECOVERY_FOREIGN_WAL] = "foreign-wal",
};

static void
table_count_clear (gpointer data)
{
  TableCount *count = data;

  g_free (count->name);
}

static void
sl_workspace_recovery_finalize (GObject *object)
{
  SlWorkspaceRecovery *self = (SlWorkspaceRecovery *)object;

  g_free (self->db_path);
  g_free (self->reason);
  g_ptr_array_unref (self->moved_aside);
  g_array_unref (self->tables);

  G_OBJECT_CLASS (sl_workspace_recovery_parent_class)->finalize (object);
}

static void
sl_workspace_recovery_class_init (SlWorkspaceRecoveryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_workspace_recovery_finalize;
}

static void
sl_workspace_recovery_init (SlWorkspaceRecovery *self)
{
  self->moved_aside = g_ptr_array_new_null_terminated (4, g_free, TRUE);
  self->tables = g_array_new (FALSE, TRUE, sizeof (TableCount));
  g_array_set_clear_func (self->tables, table_count_clear);
}

/**
 * sl_workspace_recovery_new:
 * @db_path: the workspace database
 * @reason: why it could not be used as it was
 *
 * Returns: (transfer full): a report dated now
 */
SlWorkspaceRecovery *
sl_workspace_recovery_new (SlWorkspaceRecoveryKind  kind,
                           const char              *db_path,
                           const char              *reason)
{
  SlWorkspaceRecovery *self;

  g_return_val_if_fail (db_path != NULL, NULL);

  self = g_object_new (SL_TYPE_WORKSPACE_RECOVERY, NULL);
  self->kind = kind;
  self->db_path = g_strdup (db_path);
  self->reason = g_strdup (reason != NULL ? reason : "");
  self->when = g_get_real_time ();
  return self;
}

SlWorkspaceRecoveryKind
sl_workspace_recovery_get_kind (SlWorkspaceRecovery *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_RECOVERY (self), SL_WORKSPACE_RECOVERY_DAMAGED);
  return self->kind;
}

const char *
sl_workspace_recovery_get_db_path (SlWorkspaceRecovery *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_RECOVERY (self), NULL);
  return self->db_path;
}

const char *
sl_workspace_recovery_get_reason (SlWorkspaceRecovery *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_RECOVERY (self), NULL);
  return self->reason;
}

/* Microseconds since the Unix epoch. */
gint64
sl_workspace_recovery_get_when (SlWorkspaceRecovery *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_RECOVERY (self), 0);
  return self->when;
}

void
sl_workspace_recovery_add_moved_aside (SlWorkspaceRecovery *self,
                                       const char          *path)
{
  g_return_if_fail (SL_IS_WORKSPACE_RECOVERY (self));
  g_return_if_fail (path != NULL);

  g_ptr_array_add (self->moved_aside, g_strdup (path));
}

/**
 * sl_workspace_recovery_get_moved_aside:
 *
 * Returns: (transfer none): where the original files are now, the
 *   database first
 */
const char * const *
sl_workspace_recovery_get_moved_aside (SlWorkspaceRecovery *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_RECOVERY (self), NULL);
  return (const char * const *)self->moved_aside->pdata;
}

static TableCount *
find_table (SlWorkspaceRecovery *self,
            const char          *table)
{
  for (guint i = 0; i < self->tables->len; i++)
    {
      TableCount *count = &g_array_index (self->tables, TableCount, i);

      if (g_str_equal (count->name, table))
        return count;
    }
  return NULL;
}

void
sl_workspace_recovery_set_table (SlWorkspaceRecovery *self,
                                 const char          *table,
                                 guint64              recovered,
                                 gint64               lost)
{
  TableCount *count;

  g_return_if_fail (SL_IS_WORKSPACE_RECOVERY (self));
  g_return_if_fail (table != NULL);

  if ((count = find_table (self, table)) == NULL)
    {
      TableCount added = { g_strdup (table), 0, 0 };

      g_array_append_val (self->tables, added);
      count = &g_array_index (self->tables, TableCount, self->tables->len - 1);
    }
  count->recovered = recovered;
  count->lost = lost < 0 ? -1 : lost;
}

/**
 * sl_workspace_recovery_lookup_table:
 * @recovered: (out) (optional): rows copied into the new database
 * @lost: (out) (optional): rows known to be lost, or -1 for "unknown"
 *
 * Returns: whether @table was salvaged
 */
gboolean
sl_workspace_recovery_lookup_table (SlWorkspaceRecovery *self,
                                    const char          *table,
                                    guint64             *recovered,
                                    gint64              *lost)
{
  TableCount *count;

  g_return_val_if_fail (SL_IS_WORKSPACE_RECOVERY (self), FALSE);
  g_return_val_if_fail (table != NULL, FALSE);

  if ((count = find_table (self, table)) == NULL)
    return FALSE;
  if (recovered != NULL)
    *recovered = count->recovered;
  if (lost != NULL)
    *lost = count->lost;
  return TRUE;
}

/* JSON: the form kept in the database and shown by
 * `sightline-cli workspace --json` */

/**
 * sl_workspace_recovery_build_json:
 *
 * Adds the report as an object: "kind", "when" (ISO 8601), "database",
 * "reason", "moved_aside" (paths), "recovered" and "lost" (table → rows;
 * "lost" lists only known losses) and "lost_unknown" (tables read only in
 * part, whose loss is not known).
 */
void
sl_workspace_recovery_build_json (SlWorkspaceRecovery *self,
                                  JsonBuilder         *builder)
{
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (self->when / G_USEC_PER_SEC);
  g_autoptr(GDateTime) precise = when != NULL ? g_date_time_add (when, self->when % G_USEC_PER_SEC) : NULL;
  g_autofree char *when_text = precise != NULL ? g_date_time_format_iso8601 (precise) : NULL;

  g_return_if_fail (SL_IS_WORKSPACE_RECOVERY (self));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, kind_ids[self->kind]);
  json_builder_set_member_name (builder, "when");
  json_builder_add_string_value (builder, when_text);
  json_builder_set_member_name (builder, "database");
  json_builder_add_string_value (builder, self->db_path);
  json_builder_set_member_name (builder, "reason");
  json_builder_add_string_value (builder, self->reason);

  json_builder_set_member_name (builder, "moved_aside");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->moved_aside->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (self->moved_aside, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "recovered");
  json_builder_begin_object (builder);
  for (guint i = 0; i < self->tables->len; i++)
    {
      TableCount *count = &g_array_index (self->tables, TableCount, i);

      json_builder_set_member_name (builder, count->name);
      json_builder_add_int_value (builder, (gint64)count->recovered);
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "lost");
  json_builder_begin_object (builder);
  for (guint i = 0; i < self->tables->len; i++)
    {
      TableCount *count = &g_array_index (self->tables, TableCount, i);

      if (count->lost > 0)
        {
          json_builder_set_member_name (builder, count->name);
          json_builder_add_int_value (builder, count->lost);
        }
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "lost_unknown");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->tables->len; i++)
    {
      TableCount *count = &g_array_index (self->tables, TableCount, i);

      if (count->lost < 0)
        json_builder_add_string_value (builder, count->name);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

char *
sl_workspace_recovery_to_json (SlWorkspaceRecovery *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_RECOVERY (self), NULL);

  sl_workspace_recovery_build_json (self, builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static gint64
member_count (JsonObject *object,
              const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return 0;
  return MAX (json_node_get_int (node), 0);
}

/**
 * sl_workspace_recovery_new_from_json:
 *
 * Reads what sl_workspace_recovery_to_json() wrote.
 *
 * Returns: (transfer full): the report, or %NULL with @error set
 */
SlWorkspaceRecovery *
sl_workspace_recovery_new_from_json (const char  *json,
                                     GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(SlWorkspaceRecovery) self = NULL;
  g_autoptr(GDateTime) when = NULL;
  JsonObject *object, *recovered, *lost;
  JsonArray *moved, *unknown;
  const char *kind, *db_path, *when_text;

  g_return_val_if_fail (json != NULL, NULL);

  if (!json_parser_load_from_data (parser, json, -1, error))
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ||
      (object = json_node_get_object (json_parser_get_root (parser)),
       (kind = member_string (object, "kind")) == NULL) ||
      (db_path = member_string (object, "database")) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The report of the last workspace recovery cannot be read."));
      return NULL;
    }

  self = sl_workspace_recovery_new (g_str_equal (kind, kind_ids[SL_WORKSPACE_RECOVERY_FOREIGN_WAL])
                                    ? SL_WORKSPACE_RECOVERY_FOREIGN_WAL : SL_WORKSPACE_RECOVERY_DAMAGED,
                                    db_path, member_string (object, "reason"));
  if ((when_text = member_string (object, "when")) != NULL &&
      (when = g_date_time_new_from_iso8601 (when_text, NULL)) != NULL)
    self->when = g_date_time_to_unix (when) * G_USEC_PER_SEC + g_date_time_get_microsecond (when);

  if ((moved = member_array (object, "moved_aside")) != NULL)
    for (guint i = 0; i < json_array_get_length (moved); i++)
      {
        const char *path = json_array_get_string_element (moved, i);

        if (path != NULL)
          sl_workspace_recovery_add_moved_aside (self, path);
      }

  recovered = member_object (object, "recovered");
  lost = member_object (object, "lost");
  unknown = member_array (object, "lost_unknown");
  if (recovered != NULL)
    {
      g_autoptr(GList) names = json_object_get_members (recovered);

      for (GList *l = names; l != NULL; l = l->next)
        sl_workspace_recovery_set_table (self, l->data, (guint64)member_count (recovered, l->data),
                                         member_count (lost, l->data));
    }
  for (guint i = 0; unknown != NULL && i < json_array_get_length (unknown); i++)
    {
      const char *table = json_array_get_string_element (unknown, i);
      guint64 rows = 0;

      if (table == NULL)
        continue;
      sl_workspace_recovery_lookup_table (self, table, &rows, NULL);
      sl_workspace_recovery_set_table (self, table, rows, -1);
    }

  return g_steal_pointer (&self);
}

/* The message */

static const char *
table_title (const char *table)
{
  static const struct {
    const char *table;
    const char *title;
  } titles[] = {
    { "targets", N_("targets") },
    { "projects", N_("projects") },
    { "run_configs", N_("run configurations") },
    { "recent_folders", N_("recent folders") },
    { "open_folders", N_("open folders") },
    { "runs", N_("runs in the run index") },
    { "run_files", N_("files in the run index") },
    { "run_notes", N_("run notes") },
    { "jobs", N_("jobs") },
    { "tuner_studies", N_("tuner studies") },
    { "tuner_trials", N_("tuner trials") },
    { "project_outputs", N_("project outputs") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    if (g_str_equal (titles[i].table, table))
      return _(titles[i].title);
  return table;
}

/* "targets 3, jobs 40", or NULL when nothing is listed */
static char *
list_counts (SlWorkspaceRecovery *self,
             gboolean             lost)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->tables->len; i++)
    {
      TableCount *count = &g_array_index (self->tables, TableCount, i);
      g_autofree char *item = NULL;

      g_autofree char *n = NULL;

      if ((!lost && count->recovered > 0) || (lost && count->lost > 0))
        {
          n = g_strdup_printf ("%" G_GUINT64_FORMAT, lost ? (guint64)count->lost : count->recovered);
          /* Translators: a table and how many of its rows, as in "jobs 40" */
          item = g_strdup_printf (_("%s %s"), table_title (count->name), n);
        }
      else if (lost && count->lost < 0)
        /* Translators: rows of a table were lost, but how many is not known */
        item = g_strdup_printf (_("an unknown number of %s"), table_title (count->name));
      else
        continue;

      if (text->len > 0)
        g_string_append (text, _(", "));
      g_string_append (text, item);
    }

  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

/**
 * sl_workspace_recovery_dup_message:
 *
 * Returns: (transfer full): what happened, where the original files are,
 *   what was recovered and what was lost, for the user
 */
char *
sl_workspace_recovery_dup_message (SlWorkspaceRecovery *self)
{
  g_autoptr(GString) message = g_string_new (NULL);
  g_autofree char *kept = NULL;
  g_autofree char *recovered = NULL;
  g_autofree char *lost = NULL;

  g_return_val_if_fail (SL_IS_WORKSPACE_RECOVERY (self), NULL);

  /* Translators: the separator of a list of files */
  kept = g_strjoinv (_("”, “"), (char **)self->moved_aside->pdata);

  if (self->kind == SL_WORKSPACE_RECOVERY_FOREIGN_WAL)
    {
      g_string_append_printf (message,
                              _("The write-ahead log beside the workspace database “%s” did not belong to it (%s), so it was not applied: it was kept unchanged as “%s”. The workspace database itself was not changed."),
                              self->db_path, self->reason, kept);
      return g_string_free (g_steal_pointer (&message), FALSE);
    }

  recovered = list_counts (self, FALSE);
  lost = list_counts (self, TRUE);
  g_string_append_printf (message,
                          _("The workspace database “%s” was damaged (%s). The original files were kept unchanged as “%s”, and a new workspace database was made from what could be read."),
                          self->db_path, self->reason, kept);
  g_string_append_c (message, ' ');
  if (recovered != NULL)
    g_string_append_printf (message, _("Recovered: %s."), recovered);
  else
    g_string_append (message, _("Nothing could be recovered: targets, projects and recent folders have to be added again."));
  g_string_append_c (message, ' ');
  if (lost != NULL)
    g_string_append_printf (message, _("Lost: %s."), lost);
  else if (recovered != NULL)
    g_string_append (message, _("Nothing is known to be lost."));

  return g_string_free (g_steal_pointer (&message), FALSE);
}
