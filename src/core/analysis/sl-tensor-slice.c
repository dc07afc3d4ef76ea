/* sl-tensor-slice.c
 *
 * The text is read in two passes: items first (where a mistake is a
 * syntax error at a character), then the items against the shape (where it
 * is a range or shape error at the item). Ranges follow Python's slice
 * rules, so what works on the array in NumPy works here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-tensor-slice.h"

/* Larger than any axis a tensor held in memory can have. */
#define MAX_ABS_INDEX G_GINT64_CONSTANT (1000000000000000)

G_DEFINE_QUARK (sl-tensor-slice-error-quark, sl_tensor_slice_error)

typedef enum {
  ITEM_INDEX,
  ITEM_RANGE,
  ITEM_ELLIPSIS,
} ItemKind;

typedef struct {
  ItemKind kind;
  gsize    position;     /* byte offset of the item in the text */
  gsize    step_position;
  gboolean has[3];       /* start, stop, step written */
  gint64   value[3];
} Item;

typedef struct {
  const char *text;
  gsize      *error_position;
  GError    **error;
} Parser;

static gboolean
fail (Parser             *parser,
      gsize               byte_offset,
      SlTensorSliceError  code,
      const char         *message)
{
  glong chars = g_utf8_pointer_to_offset (parser->text, parser->text + byte_offset);

  if (parser->error_position != NULL)
    *parser->error_position = chars;
  /* Translators: the first %s says what is wrong, %u counts characters from 1 */
  g_set_error (parser->error, SL_TENSOR_SLICE_ERROR, code, _("%s (at character %u)"), message, (guint)chars + 1);
  return FALSE;
}

static gsize
skip_spaces (const char *text,
             gsize       pos,
             gsize       end)
{
  while (pos < end && g_ascii_isspace (text[pos]))
    pos++;
  return pos;
}

/* One optional integer between @pos and @end, spaces around it allowed. */
static gboolean
parse_number (Parser   *parser,
              gsize     pos,
              gsize     end,
              gboolean *present,
              gint64   *value)
{
  gboolean negative = FALSE;
  gint64 result = 0;
  gsize digits_start;

  pos = skip_spaces (parser->text, pos, end);
  *present = FALSE;
  *value = 0;
  if (pos == end)
    return TRUE;

  if (parser->text[pos] == '-' || parser->text[pos] == '+')
    {
      negative = parser->text[pos] == '-';
      pos++;
    }

  digits_start = pos;
  while (pos < end && g_ascii_isdigit (parser->text[pos]))
    {
      result = result * 10 + (parser->text[pos] - '0');
      if (result > MAX_ABS_INDEX)
        return fail (parser, digits_start, SL_TENSOR_SLICE_ERROR_RANGE, _("This number is too large"));
      pos++;
    }

  if (pos == digits_start)
    {
      if (pos == end)
        return fail (parser, pos, SL_TENSOR_SLICE_ERROR_SYNTAX, _("A number is missing after the sign"));
      if (parser->text[pos] == '.')
        return fail (parser, pos, SL_TENSOR_SLICE_ERROR_SYNTAX, _("Expected an integer, “:” or “...”"));
      return fail (parser, pos, SL_TENSOR_SLICE_ERROR_SYNTAX, _("Expected an integer"));
    }

  pos = skip_spaces (parser->text, pos, end);
  if (pos != end)
    return fail (parser, pos, SL_TENSOR_SLICE_ERROR_SYNTAX,
                 parser->text[pos] == '.' ? _("Only integers can be used, not fractions") : _("Expected “,” or “:” here"));

  *present = TRUE;
  *value = negative ? -result : result;
  return TRUE;
}

static gboolean
parse_item (Parser *parser,
            gsize   start,
            gsize   end,
            Item   *item)
{
  gsize first = skip_spaces (parser->text, start, end);
  gsize last = end;
  gsize field_start = start;
  guint field = 0;

  memset (item, 0, sizeof *item);
  item->position = first;

  while (last > first && g_ascii_isspace (parser->text[last - 1]))
    last--;

  if (first == last)
    return fail (parser, first, SL_TENSOR_SLICE_ERROR_SYNTAX, _("An item is missing between commas"));

  if (last - first == 3 && memcmp (parser->text + first, "...", 3) == 0)
    {
      item->kind = ITEM_ELLIPSIS;
      return TRUE;
    }

  item->kind = ITEM_INDEX;
  for (gsize pos = start; pos <= end; pos++)
    {
      if (pos < end && parser->text[pos] != ':')
        continue;

      if (pos < end && field == 2)
        return fail (parser, pos, SL_TENSOR_SLICE_ERROR_SYNTAX, _("A range has at most two “:”, as in start:stop:step"));
      if (field == 2)
        item->step_position = skip_spaces (parser->text, field_start, end);
      if (!parse_number (parser, field_start, pos, &item->has[field], &item->value[field]))
        return FALSE;
      if (pos < end)
        {
          item->kind = ITEM_RANGE;
          field++;
          field_start = pos + 1;
        }
    }

  if (item->kind == ITEM_RANGE && item->has[2] && item->value[2] == 0)
    return fail (parser, item->step_position, SL_TENSOR_SLICE_ERROR_RANGE, _("The step of a range cannot be 0"));

  return TRUE;
}

static gboolean
parse_items (Parser *parser,
             GArray *items)
{
  gsize len = strlen (parser->text);
  gsize start = 0;
  gboolean ellipsis = FALSE;

  if (skip_spaces (parser->text, 0, len) == len)
    return TRUE;

  for (gsize pos = 0; pos <= len; pos++)
    {
      Item item;

      if (pos < len && parser->text[pos] != ',')
        continue;

      /* NumPy accepts one trailing comma, as in "0,". */
      if (pos == len && items->len > 0 && skip_spaces (parser->text, start, len) == len)
        break;

      if (!parse_item (parser, start, pos, &item))
        return FALSE;
      if (item.kind == ITEM_ELLIPSIS && ellipsis)
        return fail (parser, item.position, SL_TENSOR_SLICE_ERROR_SYNTAX, _("Only one “...” can be used"));
      ellipsis |= item.kind == ITEM_ELLIPSIS;
      g_array_append_val (items, item);
      start = pos + 1;
    }

  return TRUE;
}

static void
resolve_range (const Item        *item,
               gint64             dim,
               SlTensorAxisSlice *axis)
{
  gint64 step = item != NULL && item->has[2] ? item->value[2] : 1;
  gint64 start, stop;

  axis->step = step;
  axis->is_index = FALSE;

  if (step > 0)
    {
      start = item != NULL && item->has[0] ? item->value[0] : 0;
      stop = item != NULL && item->has[1] ? item->value[1] : dim;
      if (start < 0)
        start = MAX (start + dim, 0);
      if (stop < 0)
        stop = MAX (stop + dim, 0);
      start = MIN (start, dim);
      stop = MIN (stop, dim);
      axis->count = stop > start ? (stop - start - 1) / step + 1 : 0;
    }
  else
    {
      start = item != NULL && item->has[0] ? item->value[0] : dim - 1;
      stop = -1;
      if (item != NULL && item->has[1])
        {
          stop = item->value[1];
          if (stop < 0)
            stop = MAX (stop + dim, -1);
          stop = MIN (stop, dim - 1);
        }
      if (start < 0)
        start = MAX (start + dim, -1);
      start = MIN (start, dim - 1);
      axis->count = start > stop ? (start - stop - 1) / -step + 1 : 0;
    }

  axis->start = axis->count > 0 ? start : 0;
}

static gboolean
resolve (Parser        *parser,
         GArray        *items,
         SlTensorSlice *slice)
{
  guint n_given = 0, axis = 0, n_kept = 0;
  int kept[SL_TENSOR_MAX_DIMS];
  gsize kept_position[SL_TENSOR_MAX_DIMS];
  gint64 strides[SL_TENSOR_MAX_DIMS];
  gsize len = strlen (parser->text);

  for (guint i = 0; i < items->len; i++)
    n_given += g_array_index (items, Item, i).kind != ITEM_ELLIPSIS;

  for (guint i = 0; i < items->len; i++)
    {
      const Item *item = &g_array_index (items, Item, i);

      if (item->kind == ITEM_ELLIPSIS)
        {
          /* "..." stands for as many whole axes as the other items leave. */
          for (guint k = n_given; k < slice->n_dims && axis < slice->n_dims; k++, axis++)
            {
              resolve_range (NULL, slice->dims[axis], &slice->axes[axis]);
              kept_position[n_kept] = item->position;
              kept[n_kept++] = axis;
            }
          continue;
        }

      if (axis >= slice->n_dims)
        {
          g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                   "Too many items: the tensor has %u axis",
                                                                   "Too many items: the tensor has %u axes",
                                                                   slice->n_dims),
                                                      slice->n_dims);
          return fail (parser, item->position, SL_TENSOR_SLICE_ERROR_SHAPE, message);
        }

      if (item->kind == ITEM_INDEX)
        {
          gint64 index = item->value[0] < 0 ? item->value[0] + slice->dims[axis] : item->value[0];

          if (index < 0 || index >= slice->dims[axis])
            {
              g_autofree char *message = g_strdup_printf (_("Index %lld is out of range for axis %u of size %lld"),
                                                          (long long)item->value[0], axis,
                                                          (long long)slice->dims[axis]);
              return fail (parser, item->position, SL_TENSOR_SLICE_ERROR_RANGE, message);
            }
          slice->axes[axis].start = index;
          slice->axes[axis].step = 1;
          slice->axes[axis].count = 1;
          slice->axes[axis].is_index = TRUE;
        }
      else
        {
          resolve_range (item, slice->dims[axis], &slice->axes[axis]);
          kept_position[n_kept] = item->position;
          kept[n_kept++] = axis;
        }
      axis++;
    }

  /* Axes not written are taken whole, as NumPy does. */
  for (; axis < slice->n_dims; axis++)
    {
      resolve_range (NULL, slice->dims[axis], &slice->axes[axis]);
      kept_position[n_kept] = len;
      kept[n_kept++] = axis;
    }

  if (n_kept > 2)
    {
      g_autofree char *example = sl_tensor_slice_default_text (slice->dims, slice->n_dims);
      g_autofree char *message = g_strdup_printf (_("%u axes are kept, but a table shows two: pick one position in the others, as in “%s”"),
                                                  n_kept, example);
      return fail (parser, kept_position[0], SL_TENSOR_SLICE_ERROR_SHAPE, message);
    }

  if (slice->n_dims > 0)
    strides[slice->n_dims - 1] = 1;
  for (int i = (int)slice->n_dims - 2; i >= 0; i--)
    strides[i] = strides[i + 1] * MAX (slice->dims[i + 1], 1);

  slice->base = 0;
  for (guint i = 0; i < slice->n_dims; i++)
    slice->base += slice->axes[i].start * strides[i];

  slice->row_axis = n_kept == 2 ? kept[0] : -1;
  slice->col_axis = n_kept >= 1 ? kept[n_kept - 1] : -1;
  slice->n_rows = slice->row_axis >= 0 ? slice->axes[slice->row_axis].count : 1;
  slice->n_cols = slice->col_axis >= 0 ? slice->axes[slice->col_axis].count : 1;
  slice->row_stride = slice->row_axis >= 0 ? strides[slice->row_axis] * slice->axes[slice->row_axis].step : 0;
  slice->col_stride = slice->col_axis >= 0 ? strides[slice->col_axis] * slice->axes[slice->col_axis].step : 0;

  return TRUE;
}

/**
 * sl_tensor_slice_parse:
 * @text: the slicing, as between the brackets of `array[...]`; empty
 *   takes every axis whole
 * @dims: (array length=n_dims): the tensor's shape
 * @error_position: (out) (optional): on failure, the character offset
 *   (from 0) the error refers to
 *
 * Returns: (transfer full) (nullable): the view, or %NULL with @error set
 */
SlTensorSlice *
sl_tensor_slice_parse (const char    *text,
                       const gint64  *dims,
                       guint          n_dims,
                       gsize         *error_position,
                       GError       **error)
{
  g_autoptr(SlTensorSlice) slice = NULL;
  g_autoptr(GArray) items = NULL;
  Parser parser = { text, error_position, error };

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (n_dims == 0 || dims != NULL, NULL);

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, SL_TENSOR_SLICE_ERROR, SL_TENSOR_SLICE_ERROR_SYNTAX, _("The text is not valid UTF-8"));
      if (error_position != NULL)
        *error_position = 0;
      return NULL;
    }

  if (n_dims > SL_TENSOR_MAX_DIMS)
    {
      parser.text = "";
      fail (&parser, 0, SL_TENSOR_SLICE_ERROR_SHAPE, _("The tensor has more axes than can be shown"));
      return NULL;
    }

  slice = g_new0 (SlTensorSlice, 1);
  slice->n_dims = n_dims;
  for (guint i = 0; i < n_dims; i++)
    {
      if (dims[i] < 0)
        {
          parser.text = "";
          fail (&parser, 0, SL_TENSOR_SLICE_ERROR_SHAPE, _("The tensor has an axis of negative size"));
          return NULL;
        }
      slice->dims[i] = dims[i];
    }

  items = g_array_new (FALSE, FALSE, sizeof (Item));
  if (!parse_items (&parser, items) || !resolve (&parser, items, slice))
    return NULL;

  return g_steal_pointer (&slice);
}

SlTensorSlice *
sl_tensor_slice_copy (const SlTensorSlice *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_memdup2 (self, sizeof *self);
}

void
sl_tensor_slice_free (SlTensorSlice *self)
{
  g_free (self);
}

/**
 * sl_tensor_slice_default_text:
 *
 * The first view of a tensor: its last two axes whole, the first position
 * of every other axis.
 *
 * Returns: (transfer full): slicing text such as "0, 0, :, :"
 */
char *
sl_tensor_slice_default_text (const gint64 *dims,
                              guint         n_dims)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (n_dims == 0 || dims != NULL, NULL);

  for (guint i = 0; i < n_dims; i++)
    {
      if (i > 0)
        g_string_append (text, ", ");
      g_string_append (text, i + 2 < n_dims ? "0" : ":");
    }

  return g_string_free (text, FALSE);
}

gint64
sl_tensor_slice_get_n_elements (const SlTensorSlice *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows * self->n_cols;
}

/* The position along the tensor's own axis of view row @row. */
gint64
sl_tensor_slice_row_position (const SlTensorSlice *self,
                              gint64               row)
{
  g_return_val_if_fail (self != NULL, 0);

  if (self->row_axis < 0)
    return row;
  return self->axes[self->row_axis].start + row * self->axes[self->row_axis].step;
}

gint64
sl_tensor_slice_col_position (const SlTensorSlice *self,
                              gint64               col)
{
  g_return_val_if_fail (self != NULL, 0);

  if (self->col_axis < 0)
    return col;
  return self->axes[self->col_axis].start + col * self->axes[self->col_axis].step;
}

/**
 * sl_tensor_slice_format_shape:
 *
 * Returns: (transfer full): the shape as NumPy prints it, "(2, 16)"
 */
char *
sl_tensor_slice_format_shape (const gint64 *dims,
                              guint         n_dims)
{
  GString *text = g_string_new ("(");

  for (guint i = 0; i < n_dims; i++)
    g_string_append_printf (text, i ? ", %lld" : "%lld", (long long)dims[i]);
  if (n_dims == 1)
    g_string_append_c (text, ',');
  g_string_append_c (text, ')');

  return g_string_free (text, FALSE);
}

/**
 * sl_tensor_slice_format_index:
 *
 * Returns: (transfer full): the tensor index of view cell (@row, @col) as
 *   NumPy writes it, "[0, 3, 5]"
 */
char *
sl_tensor_slice_format_index (const SlTensorSlice *self,
                              gint64               row,
                              gint64               col)
{
  GString *text = g_string_new ("[");

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->n_dims; i++)
    {
      gint64 position = self->axes[i].start;

      if ((int)i == self->row_axis)
        position = sl_tensor_slice_row_position (self, row);
      else if ((int)i == self->col_axis)
        position = sl_tensor_slice_col_position (self, col);
      g_string_append_printf (text, i ? ", %lld" : "%lld", (long long)position);
    }
  g_string_append_c (text, ']');

  return g_string_free (text, FALSE);
}
