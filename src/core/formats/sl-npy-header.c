/* sl-npy-header.c
 *
 * A .npy file starts with a preamble and a Python dict literal such as
 * {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }. The dict
 * is read with a small literal parser, never evaluated: object arrays
 * ('|O') hold pickles and are refused.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-npy-header.h"

#define MAX_NESTING 16

typedef struct {
  const char *text;
  gsize       len;
  gsize       pos;
  gsize       base;         /* file offset of text[0] */
  gboolean    saw_object;   /* an object typestr appeared in a skipped value */
} Literal;

static gboolean
fail_at (Literal     *lit,
         gint64      *error_offset,
         GError     **error,
         const char  *message)
{
  if (error_offset != NULL)
    *error_offset = lit->base + MIN (lit->pos, lit->len);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, message);
  return FALSE;
}

static void
skip_space (Literal *lit)
{
  while (lit->pos < lit->len && g_ascii_isspace (lit->text[lit->pos]))
    lit->pos++;
}

static gboolean
peek_char (Literal *lit,
           char     c)
{
  skip_space (lit);
  return lit->pos < lit->len && lit->text[lit->pos] == c;
}

static gboolean
accept_char (Literal *lit,
             char     c)
{
  if (!peek_char (lit, c))
    return FALSE;
  lit->pos++;
  return TRUE;
}

/* True for '|O', '<O8', 'O' and the like. */
static gboolean
is_object_typestr (const char *s)
{
  if (*s == '<' || *s == '>' || *s == '|' || *s == '=')
    s++;
  if (*s != 'O')
    return FALSE;
  for (s++; *s != '\0'; s++)
    {
      if (!g_ascii_isdigit (*s))
        return FALSE;
    }
  return TRUE;
}

static gboolean
parse_string (Literal  *lit,
              char    **out)
{
  char quote;
  gsize start;

  skip_space (lit);
  if (lit->pos >= lit->len || (lit->text[lit->pos] != '\'' && lit->text[lit->pos] != '"'))
    return FALSE;

  quote = lit->text[lit->pos++];
  start = lit->pos;

  while (lit->pos < lit->len && lit->text[lit->pos] != quote)
    {
      if (lit->text[lit->pos] == '\\')
        lit->pos++;
      lit->pos++;
    }

  if (lit->pos >= lit->len)
    return FALSE;

  if (out != NULL)
    *out = g_strndup (lit->text + start, lit->pos - start);
  lit->pos++;

  return TRUE;
}

static gboolean
parse_uint (Literal *lit,
            guint64 *out)
{
  guint64 value = 0;
  gsize start;

  skip_space (lit);
  start = lit->pos;

  while (lit->pos < lit->len && g_ascii_isdigit (lit->text[lit->pos]))
    {
      guint digit = lit->text[lit->pos] - '0';

      if (value > (G_MAXUINT64 - digit) / 10)
        return FALSE;
      value = value * 10 + digit;
      lit->pos++;
    }

  if (lit->pos == start)
    return FALSE;

  /* Python 2 wrote long integers as 3L. */
  if (lit->pos < lit->len && (lit->text[lit->pos] == 'L' || lit->text[lit->pos] == 'l'))
    lit->pos++;

  *out = value;
  return TRUE;
}

static gboolean
parse_identifier (Literal     *lit,
                  const char **out,
                  gsize       *out_len)
{
  gsize start;

  skip_space (lit);
  start = lit->pos;
  while (lit->pos < lit->len && (g_ascii_isalnum (lit->text[lit->pos]) || lit->text[lit->pos] == '_'))
    lit->pos++;

  *out = lit->text + start;
  *out_len = lit->pos - start;
  return *out_len > 0;
}

static gboolean
skip_value (Literal *lit,
            guint    depth)
{
  const char *ident;
  gsize ident_len;
  char close;

  if (depth > MAX_NESTING)
    return FALSE;

  skip_space (lit);
  if (lit->pos >= lit->len)
    return FALSE;

  switch (lit->text[lit->pos])
    {
    case '\'':
    case '"':
      {
        g_autofree char *s = NULL;

        if (!parse_string (lit, &s))
          return FALSE;
        if (is_object_typestr (s))
          lit->saw_object = TRUE;
        return TRUE;
      }

    case '(':
      close = ')';
      break;

    case '[':
      close = ']';
      break;

    case '{':
      close = '}';
      break;

    case '-':
      lit->pos++;
      /* fall through */
    default:
      if (lit->pos < lit->len && g_ascii_isdigit (lit->text[lit->pos]))
        {
          guint64 ignored;
          return parse_uint (lit, &ignored);
        }
      return parse_identifier (lit, &ident, &ident_len);
    }

  lit->pos++;
  while (!accept_char (lit, close))
    {
      if (!skip_value (lit, depth + 1))
        return FALSE;
      if (close == '}')
        {
          if (!accept_char (lit, ':') || !skip_value (lit, depth + 1))
            return FALSE;
        }
      if (!accept_char (lit, ',') && !peek_char (lit, close))
        return FALSE;
    }

  return TRUE;
}

static gboolean
parse_shape (Literal     *lit,
             SlNpyHeader *header)
{
  g_autoptr(GArray) dims = g_array_new (FALSE, FALSE, sizeof (guint64));
  char close;

  if (accept_char (lit, '('))
    close = ')';
  else if (accept_char (lit, '['))
    close = ']';
  else
    return FALSE;

  while (!accept_char (lit, close))
    {
      guint64 dim;

      if (dims->len >= SL_NPY_MAX_DIMS || !parse_uint (lit, &dim))
        return FALSE;
      g_array_append_val (dims, dim);
      if (!accept_char (lit, ',') && !peek_char (lit, close))
        return FALSE;
    }

  header->n_dims = dims->len;
  g_clear_pointer (&header->shape, g_free);
  header->shape = (guint64 *)(gpointer)g_array_free (g_steal_pointer (&dims), FALSE);

  return TRUE;
}

static gboolean
parse_bool (Literal  *lit,
            gboolean *out)
{
  const char *ident;
  gsize start;
  gsize len;

  skip_space (lit);
  start = lit->pos;

  if (parse_identifier (lit, &ident, &len))
    {
      if (len == 4 && memcmp (ident, "True", 4) == 0)
        *out = TRUE;
      else if (len == 5 && memcmp (ident, "False", 5) == 0)
        *out = FALSE;
      else
        len = 0;
    }

  /* Point problems at the start of the bad value */
  if (len == 0)
    lit->pos = start;
  return len > 0;
}

/* Bytes per element of a simple typestr such as "<f4", "|b1" or "<U10". */
static gsize
item_size_for_typestr (const char *descr)
{
  const char *p = descr;
  guint64 n = 0;
  char kind;

  if (*p == '<' || *p == '>' || *p == '|' || *p == '=')
    p++;
  kind = *p++;
  if (kind == '\0')
    return 0;

  if (kind == '?' && *p == '\0')
    return 1;

  if (!g_ascii_isdigit (*p))
    return 0;
  while (g_ascii_isdigit (*p) && n < G_MAXUINT32)
    n = n * 10 + (*p++ - '0');

  switch (kind)
    {
    case 'b': case 'i': case 'u': case 'f': case 'c':
    case 'S': case 'a': case 'V':
      return *p == '\0' ? n : 0;
    case 'U':
      return *p == '\0' && n <= G_MAXSIZE / 4 ? n * 4 : 0;
    case 'M': case 'm':
      return (*p == '\0' || *p == '[') ? n : 0;
    default:
      return 0;
    }
}

gboolean
sl_npy_header_has_magic (const guint8 *data,
                         gsize         len)
{
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  return len >= SL_NPY_MAGIC_LEN && memcmp (data, SL_NPY_MAGIC, SL_NPY_MAGIC_LEN) == 0;
}

/**
 * sl_npy_header_peek_size:
 * @header_size: (out): bytes from the start of the file to the array data
 *
 * Reads the preamble only, so a caller knows how much to read before
 * calling sl_npy_header_parse().
 */
gboolean
sl_npy_header_peek_size (const guint8  *data,
                         gsize          len,
                         gsize         *header_size,
                         GError       **error)
{
  gsize preamble;
  guint32 dict_len;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (header_size != NULL, FALSE);

  if (!sl_npy_header_has_magic (data, len))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The file does not start with the NumPy magic string."));
      return FALSE;
    }

  if (len < 8)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                           _("The file ends inside the NumPy preamble."));
      return FALSE;
    }

  switch (data[6])
    {
    case 1:
      preamble = 10;
      break;
    case 2:
    case 3:
      preamble = 12;
      break;
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("NumPy format version %u.%u is not supported."), data[6], data[7]);
      return FALSE;
    }

  if (len < preamble)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                           _("The file ends inside the NumPy preamble."));
      return FALSE;
    }

  dict_len = data[8] | ((guint32)data[9] << 8);
  if (preamble == 12)
    dict_len |= ((guint32)data[10] << 16) | ((guint32)data[11] << 24);

  if (dict_len > SL_NPY_MAX_HEADER_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("The NumPy header claims %u bytes; headers over %u bytes are refused."),
                   dict_len, (guint)SL_NPY_MAX_HEADER_SIZE);
      return FALSE;
    }

  *header_size = preamble + dict_len;
  return TRUE;
}

static gboolean
parse_dict (Literal     *lit,
            SlNpyHeader *header,
            gint64      *error_offset,
            GError     **error)
{
  gboolean have_descr = FALSE;
  gboolean have_order = FALSE;
  gboolean have_shape = FALSE;

  if (!accept_char (lit, '{'))
    return fail_at (lit, error_offset, error, _("The NumPy header is not a dictionary."));

  while (!accept_char (lit, '}'))
    {
      g_autofree char *key = NULL;

      if (!parse_string (lit, &key))
        return fail_at (lit, error_offset, error, _("Expected a quoted key in the NumPy header."));
      if (!accept_char (lit, ':'))
        return fail_at (lit, error_offset, error, _("Expected “:” after a key in the NumPy header."));

      if (g_str_equal (key, "descr"))
        {
          skip_space (lit);
          if (peek_char (lit, '[') || peek_char (lit, '('))
            {
              gsize start = lit->pos;

              lit->saw_object = FALSE;
              if (!skip_value (lit, 0))
                return fail_at (lit, error_offset, error, _("The “descr” list of the NumPy header is malformed."));
              g_free (header->descr);
              header->descr = g_strndup (lit->text + start, lit->pos - start);
              header->structured = TRUE;
              if (lit->saw_object)
                {
                  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                       _("The array has Python object fields, which hold pickled data; it is not read for safety."));
                  if (error_offset != NULL)
                    *error_offset = lit->base + start;
                  return FALSE;
                }
            }
          else
            {
              g_free (header->descr);
              header->descr = NULL;
              if (!parse_string (lit, &header->descr))
                return fail_at (lit, error_offset, error, _("The “descr” of the NumPy header is not a string."));
            }
          have_descr = TRUE;
        }
      else if (g_str_equal (key, "fortran_order"))
        {
          if (!parse_bool (lit, &header->fortran_order))
            return fail_at (lit, error_offset, error, _("“fortran_order” in the NumPy header is not True or False."));
          have_order = TRUE;
        }
      else if (g_str_equal (key, "shape"))
        {
          if (!parse_shape (lit, header))
            return fail_at (lit, error_offset, error, _("“shape” in the NumPy header is not a tuple of sizes."));
          have_shape = TRUE;
        }
      else if (!skip_value (lit, 0))
        {
          return fail_at (lit, error_offset, error, _("A value in the NumPy header is malformed."));
        }

      if (!accept_char (lit, ',') && !peek_char (lit, '}'))
        return fail_at (lit, error_offset, error, _("Expected “,” or “}” in the NumPy header."));
    }

  if (!have_descr || !have_order || !have_shape)
    return fail_at (lit, error_offset, error, _("The NumPy header lacks “descr”, “fortran_order” or “shape”."));

  return TRUE;
}

/**
 * sl_npy_header_parse:
 * @data: the start of the file, at least up to the end of the header
 * @error_offset: (out) (optional): file offset of the problem on failure
 *
 * Returns: (transfer full) (nullable): the header, or %NULL with @error
 *   set; object arrays fail with %G_IO_ERROR_NOT_SUPPORTED
 */
SlNpyHeader *
sl_npy_header_parse (const guint8  *data,
                     gsize          len,
                     gint64        *error_offset,
                     GError       **error)
{
  g_autoptr(SlNpyHeader) header = NULL;
  gsize header_size;
  gsize preamble;
  const char *nul;
  Literal lit = { 0 };

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (error_offset != NULL)
    *error_offset = 0;

  if (!sl_npy_header_peek_size (data, len, &header_size, error))
    return NULL;

  preamble = data[6] == 1 ? 10 : 12;
  if (len < header_size)
    {
      if (error_offset != NULL)
        *error_offset = len;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                           _("The file ends inside the NumPy header."));
      return NULL;
    }

  header = g_new0 (SlNpyHeader, 1);
  header->major_version = data[6];
  header->minor_version = data[7];
  header->data_offset = header_size;

  lit.text = (const char *)data + preamble;
  lit.len = header_size - preamble;
  lit.base = preamble;

  /* The literal parser stops at the first NUL, like Python would. */
  nul = memchr (lit.text, '\0', lit.len);
  if (nul != NULL)
    lit.len = nul - lit.text;

  if (!parse_dict (&lit, header, error_offset, error))
    return NULL;

  if (!header->structured && is_object_typestr (header->descr))
    {
      if (error_offset != NULL)
        *error_offset = preamble;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("The array has dtype “%s” (Python objects), which holds pickled data; it is not read for safety."),
                   header->descr);
      return NULL;
    }

  if (!header->structured)
    header->item_size = item_size_for_typestr (header->descr);

  return g_steal_pointer (&header);
}

gboolean
sl_npy_header_get_n_elements (const SlNpyHeader *self,
                              guint64           *n_elements)
{
  guint64 n = 1;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_elements != NULL, FALSE);

  for (guint i = 0; i < self->n_dims; i++)
    {
      if (self->shape[i] != 0 && n > G_MAXUINT64 / self->shape[i])
        return FALSE;
      n *= self->shape[i];
    }

  *n_elements = n;
  return TRUE;
}

/**
 * sl_npy_header_get_data_size:
 *
 * Returns: %TRUE and the number of data bytes the shape needs, or %FALSE
 *   when the item size is unknown or the product overflows
 */
gboolean
sl_npy_header_get_data_size (const SlNpyHeader *self,
                             guint64           *data_size)
{
  guint64 n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data_size != NULL, FALSE);

  if (self->item_size == 0 || !sl_npy_header_get_n_elements (self, &n))
    return FALSE;
  if (n != 0 && self->item_size > G_MAXUINT64 / n)
    return FALSE;

  *data_size = n * self->item_size;
  return TRUE;
}

/**
 * sl_npy_header_dup_shape:
 *
 * Returns: (transfer full): the shape as Python prints it: "(2, 3)", "(4,)"
 */
char *
sl_npy_header_dup_shape (const SlNpyHeader *self)
{
  GString *str;

  g_return_val_if_fail (self != NULL, NULL);

  str = g_string_new ("(");
  for (guint i = 0; i < self->n_dims; i++)
    {
      if (i > 0)
        g_string_append (str, ", ");
      g_string_append_printf (str, "%" G_GUINT64_FORMAT, self->shape[i]);
    }
  if (self->n_dims == 1)
    g_string_append_c (str, ',');
  g_string_append_c (str, ')');

  return g_string_free (str, FALSE);
}

void
sl_npy_header_free (SlNpyHeader *self)
{
  if (self == NULL)
    return;

  g_free (self->descr);
  g_free (self->shape);
  g_free (self);
}
