/* sl-dataset-graph-reader.c
 *
 * The messages, by field number (FORMATS.md §1):
 *   DatasetGraph { 1 children (repeated DatasetGraph), 2 parameter
 *                  (OperationParameter), 3 operations (repeated Operation),
 *                  4 sampler (Operation) }
 *   Operation    { 1 operationParam (OperationParameter), 2 size (repeated
 *                  int32), 3 weights (repeated float) }
 *   OperationParameter { 1 mapStr, 2 mapStrList (→ StrList { 1 repeated
 *                  string }), 3 mapBool, 4 mapInt (int32), 5 mapDouble },
 *                  each map entry { 1 key, 2 value }
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-dataset-graph-reader.h"

#define MAX_PROBLEMS 20
#define MAX_NUMBERS  1000

enum {
  WIRE_VARINT = 0,
  WIRE_FIXED64 = 1,
  WIRE_LEN = 2,
  WIRE_FIXED32 = 5,
};

typedef struct {
  const guint8   *data;
  gsize           length;
  SlDatasetGraph *graph;
  guint           n_problems;
  gboolean        truncated;
} Decoder;

typedef struct {
  gsize pos;
  gsize end;
} Cursor;

typedef struct {
  gsize              start;
  gsize              end;
  guint              parent;
  SlDatasetNodeKind  kind;
} Work;

static void
damage (Decoder    *d,
        gsize       offset,
        const char *what)
{
  g_autofree char *message = NULL;
  g_autoptr(SlProblem) problem = NULL;

  if (d->n_problems++ >= MAX_PROBLEMS)
    return;
  /* Translators: %llu is a byte offset, %s says what is wrong */
  message = g_strdup_printf (_("Damaged dataset graph at byte %llu: %s"), (unsigned long long)offset, what);
  problem = sl_problem_new (SL_SEVERITY_ERROR, _("Dataset graph"), sl_dataset_graph_get_path (d->graph),
                            (gint64)offset, message);
  sl_dataset_graph_add_problem (d->graph, problem);
}

static gboolean
read_varint (Decoder *d,
             Cursor  *c,
             guint64 *value)
{
  guint64 result = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (c->pos >= c->end)
        {
          damage (d, c->pos, _("a number runs past its end"));
          return FALSE;
        }
      byte = d->data[c->pos++];
      result |= (guint64)(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = result;
          return TRUE;
        }
    }
  damage (d, c->pos, _("a number is longer than ten bytes"));
  return FALSE;
}

/* One field's key; for a length-delimited field, @inner is its bytes. */
static gboolean
read_key (Decoder *d,
          Cursor  *c,
          guint32 *field,
          guint   *wire,
          Cursor  *inner)
{
  guint64 key, length;
  gsize at = c->pos;

  if (!read_varint (d, c, &key))
    return FALSE;
  *field = (guint32)(key >> 3);
  *wire = key & 7;
  if (*field == 0 || key >> 3 > G_MAXUINT32)
    {
      damage (d, at, _("a field has no valid number"));
      return FALSE;
    }

  switch (*wire)
    {
    case WIRE_VARINT:
    case WIRE_FIXED64:
    case WIRE_FIXED32:
      return TRUE;
    case WIRE_LEN:
      if (!read_varint (d, c, &length))
        return FALSE;
      if (length > c->end - c->pos)
        {
          damage (d, at, _("a field is longer than what holds it"));
          return FALSE;
        }
      inner->pos = c->pos;
      inner->end = c->pos + (gsize)length;
      c->pos = inner->end;
      return TRUE;
    default:
      damage (d, at, _("a field has an unknown wire type"));
      return FALSE;
    }
}

/* Reads or skips the value of a field that is not length-delimited. */
static gboolean
read_scalar (Decoder *d,
             Cursor  *c,
             guint    wire,
             guint64 *value)
{
  guint64 v = 0;
  guint size = wire == WIRE_FIXED64 ? 8 : 4;

  if (wire == WIRE_VARINT)
    return read_varint (d, c, value);
  if (wire == WIRE_LEN)
    return TRUE;
  if (c->end - c->pos < size)
    {
      damage (d, c->pos, _("a number runs past its end"));
      return FALSE;
    }
  for (guint i = 0; i < size; i++)
    v |= (guint64)d->data[c->pos + i] << (8 * i);
  c->pos += size;
  *value = v;
  return TRUE;
}

static char *
dup_string (Decoder      *d,
            const Cursor *c)
{
  const char *text = (const char *)d->data + c->pos;
  gsize length = c->end - c->pos;

  if (g_utf8_validate_len (text, length, NULL))
    return g_strndup (text, length);
  return g_utf8_make_valid (text, (gssize)length);
}

static void
append_quoted (GString    *out,
               const char *text)
{
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* The shortest text that reads back as @value. */
static char *
format_double (double value)
{
  char buffer[64];

  if (!isfinite (value))
    return g_strdup (isnan (value) ? "nan" : value > 0 ? "inf" : "-inf");
  for (int digits = 15; digits <= 17; digits++)
    {
      g_ascii_formatd (buffer, sizeof buffer, digits == 15 ? "%.15g" : digits == 16 ? "%.16g" : "%.17g", value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  return g_strdup (buffer);
}

static char *
format_float (float value)
{
  char buffer[64];

  if (!isfinite (value))
    return g_strdup (isnan (value) ? "nan" : value > 0 ? "inf" : "-inf");
  for (int digits = 6; digits <= 9; digits++)
    {
      g_ascii_formatd (buffer, sizeof buffer,
                       digits == 6 ? "%.6g" : digits == 7 ? "%.7g" : digits == 8 ? "%.8g" : "%.9g", value);
      if ((float)g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  return g_strdup (buffer);
}

/* A map entry { 1 key, 2 value } of OperationParameter's field @map. */
static gboolean
read_map_entry (Decoder   *d,
                Cursor    *entry,
                guint32    map,
                GPtrArray *parameters)
{
  g_autofree char *key = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) list = NULL;
  SlDatasetValueType type;
  SlDatasetParameter *parameter;
  guint64 number = 0;

  switch (map)
    {
    case 1: type = SL_DATASET_VALUE_STRING; break;
    case 2: type = SL_DATASET_VALUE_STRING_LIST; list = g_ptr_array_new_with_free_func (g_free); break;
    case 3: type = SL_DATASET_VALUE_BOOLEAN; break;
    case 4: type = SL_DATASET_VALUE_INTEGER; break;
    default: type = SL_DATASET_VALUE_DOUBLE; break;
    }

  while (entry->pos < entry->end)
    {
      Cursor inner = { 0 };
      guint32 field;
      guint wire;

      if (!read_key (d, entry, &field, &wire, &inner))
        return FALSE;
      if (field == 1 && wire == WIRE_LEN)
        {
          g_free (key);
          key = dup_string (d, &inner);
        }
      else if (field == 2 && wire == WIRE_LEN && type == SL_DATASET_VALUE_STRING)
        {
          g_free (text);
          text = dup_string (d, &inner);
        }
      else if (field == 2 && wire == WIRE_LEN && type == SL_DATASET_VALUE_STRING_LIST)
        {
          g_ptr_array_set_size (list, 0);
          while (inner.pos < inner.end)
            {
              Cursor item = { 0 };
              guint32 item_field;
              guint item_wire;

              if (!read_key (d, &inner, &item_field, &item_wire, &item))
                return FALSE;
              if (item_field == 1 && item_wire == WIRE_LEN)
                g_ptr_array_add (list, dup_string (d, &item));
              else if (item_wire != WIRE_LEN && !read_scalar (d, &inner, item_wire, &number))
                return FALSE;
            }
        }
      else if (field == 2 && type == SL_DATASET_VALUE_DOUBLE && wire == WIRE_FIXED64)
        {
          if (!read_scalar (d, entry, wire, &number))
            return FALSE;
        }
      else if (field == 2 && (type == SL_DATASET_VALUE_BOOLEAN || type == SL_DATASET_VALUE_INTEGER) &&
               wire == WIRE_VARINT)
        {
          if (!read_scalar (d, entry, wire, &number))
            return FALSE;
        }
      else if (wire != WIRE_LEN && !read_scalar (d, entry, wire, &number))
        return FALSE;
    }

  switch (type)
    {
    case SL_DATASET_VALUE_STRING:
      break;
    case SL_DATASET_VALUE_STRING_LIST:
      {
        GString *out = g_string_new ("[");

        for (guint i = 0; i < list->len; i++)
          {
            if (i > 0)
              g_string_append (out, ", ");
            append_quoted (out, g_ptr_array_index (list, i));
          }
        g_string_append_c (out, ']');
        text = g_string_free (out, FALSE);
      }
      break;
    case SL_DATASET_VALUE_BOOLEAN:
      text = g_strdup (number != 0 ? "true" : "false");
      break;
    case SL_DATASET_VALUE_INTEGER:
      text = g_strdup_printf ("%d", (gint32)(guint32)number);
      break;
    default:
      {
        double value;

        memcpy (&value, &number, sizeof value);
        text = format_double (value);
      }
      break;
    }

  parameter = sl_dataset_parameter_new (key, type, text);
  if (list != NULL)
    {
      g_ptr_array_add (list, NULL);
      parameter->list = (GStrv)g_ptr_array_steal (list, NULL);
    }
  g_ptr_array_add (parameters, parameter);
  return TRUE;
}

static gboolean
read_parameters (Decoder   *d,
                 Cursor    *c,
                 GPtrArray *parameters)
{
  while (c->pos < c->end)
    {
      Cursor inner = { 0 };
      guint32 field;
      guint wire;
      guint64 ignored;

      if (!read_key (d, c, &field, &wire, &inner))
        return FALSE;
      if (field >= 1 && field <= 5 && wire == WIRE_LEN)
        {
          if (!read_map_entry (d, &inner, field, parameters))
            return FALSE;
        }
      else if (wire != WIRE_LEN && !read_scalar (d, c, wire, &ignored))
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  GString *text;
  guint    count;
} Numbers;

static void
add_number (Numbers *numbers,
            char    *text)
{
  if (numbers->count++ < MAX_NUMBERS)
    {
      if (numbers->text->len > 1)
        g_string_append (numbers->text, ", ");
      g_string_append (numbers->text, text);
    }
  else if (numbers->count == MAX_NUMBERS + 1)
    g_string_append (numbers->text, ", …");
  g_free (text);
}

/* Operation: its parameters and its size and weights go to @parameters. */
static gboolean
read_operation (Decoder   *d,
                Cursor    *c,
                GPtrArray *parameters)
{
  Numbers size = { g_string_new ("["), 0 };
  Numbers weights = { g_string_new ("["), 0 };
  gboolean ok = TRUE;

  while (ok && c->pos < c->end)
    {
      Cursor inner = { 0 };
      guint32 field;
      guint wire;
      guint64 value = 0;

      if (!read_key (d, c, &field, &wire, &inner))
        {
          ok = FALSE;
          break;
        }
      if (field == 1 && wire == WIRE_LEN)
        ok = read_parameters (d, &inner, parameters);
      else if (field == 2 && wire == WIRE_VARINT)
        {
          if ((ok = read_scalar (d, c, wire, &value)))
            add_number (&size, g_strdup_printf ("%d", (gint32)(guint32)value));
        }
      else if (field == 2 && wire == WIRE_LEN)
        {
          while (ok && inner.pos < inner.end)
            {
              if ((ok = read_varint (d, &inner, &value)))
                add_number (&size, g_strdup_printf ("%d", (gint32)(guint32)value));
            }
        }
      else if (field == 3 && (wire == WIRE_FIXED32 || wire == WIRE_LEN))
        {
          Cursor *from = wire == WIRE_LEN ? &inner : c;

          do
            {
              float f;
              guint32 bits;

              if (!(ok = read_scalar (d, from, WIRE_FIXED32, &value)))
                break;
              bits = (guint32)value;
              memcpy (&f, &bits, sizeof f);
              add_number (&weights, format_float (f));
            }
          while (wire == WIRE_LEN && from->pos < from->end);
        }
      else if (wire != WIRE_LEN)
        ok = read_scalar (d, c, wire, &value);
    }

  g_string_append_c (size.text, ']');
  g_string_append_c (weights.text, ']');
  if (size.count > 0)
    g_ptr_array_add (parameters, sl_dataset_parameter_new ("size", SL_DATASET_VALUE_NUMBERS, size.text->str));
  if (weights.count > 0)
    g_ptr_array_add (parameters, sl_dataset_parameter_new ("weights", SL_DATASET_VALUE_NUMBERS, weights.text->str));
  g_string_free (size.text, TRUE);
  g_string_free (weights.text, TRUE);
  return ok;
}

static guint
add_node (Decoder           *d,
          SlDatasetNodeKind  kind,
          guint              parent,
          gsize              at)
{
  if (sl_dataset_graph_get_n_nodes (d->graph) >= SL_DATASET_GRAPH_MAX_NODES)
    {
      if (!d->truncated)
        {
          g_autofree char *message =
            g_strdup_printf (_("The dataset graph has more than %u nodes; the rest is left out"),
                             SL_DATASET_GRAPH_MAX_NODES);
          g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Dataset graph"),
                                                         sl_dataset_graph_get_path (d->graph),
                                                         (gint64)at, message);

          sl_dataset_graph_add_problem (d->graph, problem);
          d->truncated = TRUE;
        }
      return SL_DATASET_NO_NODE;
    }
  return sl_dataset_graph_add_node (d->graph, kind, parent);
}

SlDatasetGraph *
sl_dataset_graph_reader_decode (const char   *path,
                                const guint8 *data,
                                gsize         length)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Work));
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (Work));
  Decoder d = { data, length, sl_dataset_graph_new (path), 0, FALSE };
  Work root = { 0, length, SL_DATASET_NO_NODE, SL_DATASET_NODE_OPERATION };

  g_return_val_if_fail (data != NULL || length == 0, d.graph);

  if (length == 0)
    {
      sl_dataset_graph_finish (d.graph);
      return d.graph;
    }

  g_array_append_val (stack, root);
  while (stack->len > 0 && !d.truncated)
    {
      Work work = g_array_index (stack, Work, stack->len - 1);
      Cursor c = { work.start, work.end };
      gboolean have_sampler = FALSE;
      Work sampler = { 0 };
      guint node;

      g_array_set_size (stack, stack->len - 1);
      if ((node = add_node (&d, work.kind, work.parent, work.start)) == SL_DATASET_NO_NODE)
        break;

      if (work.kind == SL_DATASET_NODE_SAMPLER)
        {
          GPtrArray *parameters = sl_dataset_graph_get_node (d.graph, node)->parameters;

          read_operation (&d, &c, parameters);
          continue;
        }

      g_array_set_size (children, 0);
      while (c.pos < c.end)
        {
          Cursor inner = { 0 };
          guint32 field;
          guint wire;
          guint64 ignored;

          if (!read_key (&d, &c, &field, &wire, &inner))
            break;
          if (field == 1 && wire == WIRE_LEN)
            {
              Work child = { inner.pos, inner.end, node, SL_DATASET_NODE_OPERATION };
              g_array_append_val (children, child);
            }
          else if (field == 2 && wire == WIRE_LEN)
            {
              g_autoptr(GPtrArray) parameters = g_ptr_array_new ();

              read_parameters (&d, &inner, parameters);
              for (guint i = 0; i < parameters->len; i++)
                sl_dataset_graph_add_parameter (d.graph, node, g_ptr_array_index (parameters, i));
            }
          else if (field == 3 && wire == WIRE_LEN)
            {
              SlDatasetOperation *operation = sl_dataset_graph_add_operation (d.graph, node);

              read_operation (&d, &inner, operation->parameters);
            }
          else if (field == 4 && wire == WIRE_LEN)
            {
              /* The last sampler wins, as for any message field. */
              sampler.start = inner.pos;
              sampler.end = inner.end;
              sampler.parent = node;
              sampler.kind = SL_DATASET_NODE_SAMPLER;
              have_sampler = TRUE;
            }
          else if (wire != WIRE_LEN && !read_scalar (&d, &c, wire, &ignored))
            break;
        }

      /* Popped in file order, the sampler after the children. */
      if (have_sampler)
        g_array_append_val (stack, sampler);
      for (guint i = children->len; i > 0; i--)
        g_array_append_val (stack, g_array_index (children, Work, i - 1));
    }

  sl_dataset_graph_finish (d.graph);
  return d.graph;
}

SlDatasetGraph *
sl_dataset_graph_reader_decode_bytes (const char *path,
                                      GBytes     *bytes)
{
  gsize length = 0;
  const guint8 *data;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &length);
  return sl_dataset_graph_reader_decode (path, data, length);
}
