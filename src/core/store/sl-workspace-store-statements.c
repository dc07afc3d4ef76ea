/* sl-workspace-store-statements.c: the errors and statements of the store
 *
 * Part of SlWorkspaceStore (see sl-workspace-store-private.h). Every
 * value reaches SQLite as a bound parameter of a prepared statement; SQL
 * text is only ever built from constants.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "sl-workspace-store-private.h"

/* Errors */

static gboolean
may_write (const char *path,
           gboolean    folder)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_ACCESS_CAN_READ ","
                                                 G_FILE_ATTRIBUTE_ACCESS_CAN_WRITE ","
                                                 G_FILE_ATTRIBUTE_ACCESS_CAN_EXECUTE,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);

  if (info == NULL)
    return !folder;   /* a file that is not there yet is made */

  return g_file_info_get_attribute_boolean (info, G_FILE_ATTRIBUTE_ACCESS_CAN_READ) &&
         g_file_info_get_attribute_boolean (info, G_FILE_ATTRIBUTE_ACCESS_CAN_WRITE) &&
         (!folder || g_file_info_get_attribute_boolean (info, G_FILE_ATTRIBUTE_ACCESS_CAN_EXECUTE));
}

/* SQLite says "read-only" of the database whichever of its files it
 * cannot write: the message names the one that is. */
static void
set_unwritable_error (SlWorkspaceStore  *self,
                      GError           **error,
                      const char        *what,
                      const char        *detail)
{
  static const char * const companions[] = { "-wal", "-shm", "-journal" };
  g_autofree char *folder = g_path_get_dirname (self->path);

  if (!may_write (folder, TRUE))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                   _("%s: cannot write in the folder “%s” of the workspace database (%s). SQLite keeps the database’s journal files there: check that you may write in it."),
                   what, folder, detail);
      return;
    }

  if (!may_write (self->path, FALSE))
    {
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                   _("%s: cannot open or write “%s” (%s). Check that the file and its folder exist and that you may write to them."),
                   what, self->path, detail);
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (companions); i++)
    {
      g_autofree char *companion = g_strconcat (self->path, companions[i], NULL);

      if (!may_write (companion, FALSE))
        {
          g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                       _("%s: cannot write “%s”, which SQLite keeps beside the workspace database “%s” (%s). The database stays read-only until it can: give yourself write permission on that file, or delete it while no Sightline is running."),
                       what, companion, self->path, detail);
          return;
        }
    }

  g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
               _("%s: cannot open or write “%s” (%s). Check that the file and its folder exist and that you may write to them."),
               what, self->path, detail);
}

void
sl_workspace_store_set_error (SlWorkspaceStore  *self,
                              GError           **error,
                              int                rc,
                              const char        *what)
{
  const char *detail = self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);

  switch (rc & 0xff)
    {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      g_free (self->damage);
      self->damage = g_strdup (detail);
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_CORRUPT,
                   _("%s: the workspace database “%s” is damaged (%s)."),
                   what, self->path, detail);
      break;

    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_BUSY,
                   _("%s: the workspace database “%s” is in use by another program (%s). Close other Sightline windows and try again."),
                   what, self->path, detail);
      break;

    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
    case SQLITE_AUTH:
      set_unwritable_error (self, error, what, detail);
      break;

    case SQLITE_FULL:
    case SQLITE_IOERR:
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                   _("%s: cannot read or write “%s” (%s). Check that the disk works and has free space."),
                   what, self->path, detail);
      break;

    default:
      g_set_error (error, SL_WORKSPACE_STORE_ERROR, SL_WORKSPACE_STORE_ERROR_FAILED,
                   _("%s: the workspace database “%s” reported an error (%s). If it happens again, please report it."),
                   what, self->path, detail);
      break;
    }
}

/* Lists of strings as JSON arrays */

char *
sl_workspace_store_strv_to_json (const char * const *strv)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_builder_add_string_value (builder, strv[i]);
  json_builder_end_array (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}

/* A value that is not a JSON array of strings reads as an empty list:
 * one odd cell should not hide the whole workspace. */
char **
sl_workspace_store_strv_from_json (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL))
    return g_strv_builder_end (builder);

  if (!JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    return g_strv_builder_end (builder);

  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (element));
    }

  return g_strv_builder_end (builder);
}

/* Rows */

/**
 * sl_workspace_store_read_rows:
 * @read_row: makes the record of each row
 * @free_row: frees a record
 * @what: a translated sentence saying what could not be read
 *
 * Steps @stmt to its end.
 *
 * Returns: (transfer full): the records of the rows in their order, or
 *   %NULL with @error set
 */
GPtrArray *
sl_workspace_store_read_rows (SlWorkspaceStore           *self,
                              sqlite3_stmt               *stmt,
                              SlWorkspaceStoreRowReader   read_row,
                              gpointer                    data,
                              GDestroyNotify              free_row,
                              const char                 *what,
                              GError                    **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (free_row);
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gpointer row = read_row (self, stmt, data, error);

      if (row == NULL)
        return NULL;
      g_ptr_array_add (rows, row);
    }

  if (rc != SQLITE_DONE)
    {
      sl_workspace_store_set_error (self, error, rc, what);
      return NULL;
    }

  return g_steal_pointer (&rows);
}

sqlite3 *
sl_workspace_store_get_db (SlWorkspaceStore *self)
{
  SL_ASSERT_OFF_MAIN_THREAD ();
  return self->db;
}
