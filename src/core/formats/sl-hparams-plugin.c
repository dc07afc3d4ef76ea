/* sl-hparams-plugin.c
 *
 * The content of an "hparams" plugin summary is a serialized
 * HParamsPluginData (tensorboard/plugins/hparams/plugin_data.proto):
 * version 1, oneof { experiment 2, session_start_info 3,
 * session_end_info 4 }. A session start holds the run's hyperparameters
 * as map<string, google.protobuf.Value> (field 1); an experiment names
 * the metrics in metric_infos (field 5: MetricInfo { name 1 MetricName
 * { group 1, tag 2 }, display_name 3 }). The message is small and flat,
 * so it is decoded here by hand, every length checked against what is
 * left.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-hparams-plugin.h"
#include "sl-lineage-run.h"

typedef struct {
  const guint8 *p;
  const guint8 *end;
} Cursor;

typedef struct {
  guint         number;
  guint         wire;
  guint64       varint;
  const guint8 *data;   /* wire types 1, 2 and 5 */
  gsize         len;
} Field;

static gboolean
read_varint (Cursor  *cursor,
             guint64 *value)
{
  guint64 result = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (cursor->p >= cursor->end)
        return FALSE;
      byte = *cursor->p++;
      result |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = result;
          return TRUE;
        }
    }
  return FALSE;
}

/* Returns FALSE at the end and on damage; *@damaged tells them apart. */
static gboolean
next_field (Cursor   *cursor,
            Field    *field,
            gboolean *damaged)
{
  guint64 key, length;

  if (cursor->p >= cursor->end)
    return FALSE;
  *damaged = TRUE;
  if (!read_varint (cursor, &key) || (key >> 3) == 0 || (key >> 3) > G_MAXUINT32)
    return FALSE;
  field->number = (guint) (key >> 3);
  field->wire = key & 7;
  field->data = NULL;
  field->len = 0;
  switch (field->wire)
    {
    case 0:
      if (!read_varint (cursor, &field->varint))
        return FALSE;
      break;
    case 1:
    case 5:
      field->len = field->wire == 1 ? 8 : 4;
      if ((gsize) (cursor->end - cursor->p) < field->len)
        return FALSE;
      field->data = cursor->p;
      cursor->p += field->len;
      break;
    case 2:
      if (!read_varint (cursor, &length) || length > (guint64) (cursor->end - cursor->p))
        return FALSE;
      field->data = cursor->p;
      field->len = (gsize) length;
      cursor->p += length;
      break;
    default:
      return FALSE;
    }
  *damaged = FALSE;
  return TRUE;
}

static Cursor
cursor_of (const Field *field)
{
  return (Cursor) { field->data, field->data + field->len };
}

static char *
dup_string (const Field *field)
{
  if (field->wire != 2 || !g_utf8_validate ((const char *) field->data, field->len, NULL))
    return NULL;
  return g_strndup ((const char *) field->data, field->len);
}

/* google.protobuf.Value as text: numbers in the shortest round-trip form,
 * booleans as true and false; structs and lists are not hyperparameters
 * TensorBoard shows, and are left out. Returns FALSE on damage. */
static gboolean
read_value (const Field  *value,
            char        **text)
{
  Cursor cursor = cursor_of (value);
  gboolean damaged = FALSE;
  Field field;

  *text = NULL;
  while (next_field (&cursor, &field, &damaged))
    {
      g_clear_pointer (text, g_free);
      if (field.number == 2 && field.wire == 1)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          guint64 bits;
          double number;

          /* A fixed64 is little-endian on the wire. */
          memcpy (&bits, field.data, sizeof bits);
          bits = GUINT64_FROM_LE (bits);
          memcpy (&number, &bits, sizeof number);
          *text = g_strdup (sl_lineage_format_number (number, buf, sizeof buf));
        }
      else if (field.number == 3 && field.wire == 2)
        *text = dup_string (&field);
      else if (field.number == 4 && field.wire == 0)
        *text = g_strdup (field.varint ? "true" : "false");
    }
  return !damaged;
}

static gboolean
read_hparam_entry (SlSummaryRun *run,
                   const Field  *entry)
{
  Cursor cursor = cursor_of (entry);
  g_autofree char *key = NULL;
  g_autofree char *text = NULL;
  gboolean damaged = FALSE;
  Field field;

  while (next_field (&cursor, &field, &damaged))
    {
      if (field.number == 1 && field.wire == 2)
        {
          g_free (key);
          key = dup_string (&field);
        }
      else if (field.number == 2 && field.wire == 2)
        {
          g_free (text);
          if (!read_value (&field, &text))
            return FALSE;
        }
    }
  if (damaged)
    return FALSE;
  if (key != NULL && *key != '\0' && text != NULL)
    sl_summary_run_set_lineage (run, SL_LINEAGE_HPARAMS, key, text);
  return TRUE;
}

static gboolean
read_session_start (SlSummaryRun *run,
                    const Field  *info)
{
  Cursor cursor = cursor_of (info);
  gboolean damaged = FALSE;
  Field field;

  while (next_field (&cursor, &field, &damaged))
    if (field.number == 1 && field.wire == 2 && !read_hparam_entry (run, &field))
      return FALSE;
  return !damaged;
}

/* MetricName { group 1, tag 2 }: the tag names the scalar series. */
static gboolean
read_metric_name (const Field  *name,
                  char        **tag)
{
  Cursor cursor = cursor_of (name);
  gboolean damaged = FALSE;
  Field field;

  while (next_field (&cursor, &field, &damaged))
    if (field.number == 2 && field.wire == 2)
      {
        g_free (*tag);
        *tag = dup_string (&field);
      }
  return !damaged;
}

static gboolean
read_metric_info (SlSummaryRun *run,
                  const Field  *info)
{
  Cursor cursor = cursor_of (info);
  g_autofree char *tag = NULL;
  g_autofree char *display = NULL;
  gboolean damaged = FALSE;
  Field field;

  while (next_field (&cursor, &field, &damaged))
    {
      if (field.number == 1 && field.wire == 2 && !read_metric_name (&field, &tag))
        return FALSE;
      if (field.number == 3 && field.wire == 2)
        {
          g_free (display);
          display = dup_string (&field);
        }
    }
  if (damaged)
    return FALSE;
  if (tag != NULL && *tag != '\0')
    sl_summary_run_set_lineage (run, SL_LINEAGE_HPARAMS_METRICS, tag,
                                display != NULL && *display != '\0' ? display : tag);
  return TRUE;
}

static gboolean
read_experiment (SlSummaryRun *run,
                 const Field  *experiment)
{
  Cursor cursor = cursor_of (experiment);
  gboolean damaged = FALSE;
  Field field;

  while (next_field (&cursor, &field, &damaged))
    if (field.number == 5 && field.wire == 2 && !read_metric_info (run, &field))
      return FALSE;
  return !damaged;
}

/**
 * sl_hparams_plugin_read:
 * @content: the plugin data's content, an HParamsPluginData
 *
 * Keeps a session's hyperparameters in %SL_LINEAGE_HPARAMS and an
 * experiment's metric tags in %SL_LINEAGE_HPARAMS_METRICS of @run; a
 * later session replaces a value of an earlier one. What was read before
 * damage is kept.
 *
 * Returns: FALSE when @content is not a well-formed message
 */
gboolean
sl_hparams_plugin_read (SlSummaryRun *run,
                        const guint8 *content,
                        gsize         len)
{
  Cursor cursor = { content, content + len };
  gboolean damaged = FALSE;
  Field field;

  g_return_val_if_fail (SL_IS_SUMMARY_RUN (run), FALSE);
  g_return_val_if_fail (content != NULL || len == 0, FALSE);

  while (next_field (&cursor, &field, &damaged))
    {
      if (field.wire != 2)
        continue;
      if (field.number == 2 && !read_experiment (run, &field))
        return FALSE;
      if (field.number == 3 && !read_session_start (run, &field))
        return FALSE;
    }
  return !damaged;
}
