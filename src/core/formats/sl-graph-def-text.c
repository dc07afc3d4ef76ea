/* sl-graph-def-text.c: TensorFlow GraphDefs in protobuf text format (.pbtxt)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small tokenizer reads the text format: identifiers, numbers, strings
 * in single or double quotes with C escapes (\n, \", \\, octal \123, hex
 * \x41) and adjacent strings joined, '{ }' and '< >' around messages,
 * '[ ]' around lists, optional ':' ',' ';', and '#' comments. Each field
 * is looked up in a table of GraphDef's schema (NodeDef, AttrValue,
 * ListValue, TensorProto, TensorShapeProto, NameAttrList, VersionDef;
 * field numbers from TensorFlow's public graph.proto, node_def.proto,
 * attr_value.proto, tensor.proto, tensor_shape.proto, versions.proto) and
 * written as the protobuf wire format it stands for; unknown fields are
 * read and dropped. The binary GraphDef then goes to the GraphDef reader,
 * so that a .pbtxt and a .pb of one graph show the same.
 *
 * Hostile text: strings, numbers and nesting are bounded
 * (SL_GRAPH_DEF_TEXT_MAX_NESTING); the first malformed token stops the
 * reading with a problem giving the byte offset, the line and the
 * reason, keeping the nodes that were whole before it.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sl-graph-builder.h"
#include "sl-graph-def-reader.h"
#include "sl-graph-def-text.h"

/* The sniff looks at this many bytes. */
#define SNIFF_BYTES 4096

typedef enum {
  K_STRING,
  K_INT,
  K_FLOAT,
  K_DOUBLE,
  K_BOOL,
  K_TYPE,   /* DataType enum */
  K_MSG,
} Kind;

typedef enum {
  M_GRAPH, M_NODE, M_ATTR_ENTRY, M_ATTR_VALUE, M_LIST, M_SHAPE, M_DIM, M_TENSOR, M_FUNC,
  M_VERSIONS, M_NONE,
} Message;

typedef struct {
  const char *name;
  guint8      number;
  guint8      kind;
  guint8      message;
} TextField;

#define S(n, k) { n, k, K_STRING, M_NONE }
#define N(n, k, kind) { n, k, kind, M_NONE }
#define MSG(n, k, m) { n, k, K_MSG, m }

static const TextField graph_fields[] = { MSG ("node", 1, M_NODE), N ("version", 3, K_INT), MSG ("versions", 4, M_VERSIONS) };
static const TextField node_fields[] = { S ("name", 1), S ("op", 2), S ("input", 3), S ("device", 4), MSG ("attr", 5, M_ATTR_ENTRY) };
static const TextField attr_entry_fields[] = { S ("key", 1), MSG ("value", 2, M_ATTR_VALUE) };
static const TextField attr_value_fields[] = {
  MSG ("list", 1, M_LIST), S ("s", 2), N ("i", 3, K_INT), N ("f", 4, K_FLOAT), N ("b", 5, K_BOOL),
  N ("type", 6, K_TYPE), MSG ("shape", 7, M_SHAPE), MSG ("tensor", 8, M_TENSOR), S ("placeholder", 9),
  MSG ("func", 10, M_FUNC),
};
static const TextField list_fields[] = {
  S ("s", 2), N ("i", 3, K_INT), N ("f", 4, K_FLOAT), N ("b", 5, K_BOOL), N ("type", 6, K_TYPE),
  MSG ("shape", 7, M_SHAPE), MSG ("tensor", 8, M_TENSOR), MSG ("func", 9, M_FUNC),
};
static const TextField shape_fields[] = { MSG ("dim", 2, M_DIM), N ("unknown_rank", 3, K_BOOL) };
static const TextField dim_fields[] = { N ("size", 1, K_INT), S ("name", 2) };
static const TextField tensor_fields[] = {
  N ("dtype", 1, K_TYPE), MSG ("tensor_shape", 2, M_SHAPE), N ("version_number", 3, K_INT),
  S ("tensor_content", 4), N ("float_val", 5, K_FLOAT), N ("double_val", 6, K_DOUBLE), N ("int_val", 7, K_INT),
  S ("string_val", 8), N ("scomplex_val", 9, K_FLOAT), N ("int64_val", 10, K_INT), N ("bool_val", 11, K_BOOL),
  N ("dcomplex_val", 12, K_DOUBLE), N ("half_val", 13, K_INT), N ("uint32_val", 16, K_INT),
  N ("uint64_val", 17, K_INT),
};
static const TextField func_fields[] = { S ("name", 1), MSG ("attr", 2, M_ATTR_ENTRY) };
static const TextField versions_fields[] = { N ("producer", 1, K_INT), N ("min_consumer", 2, K_INT), N ("bad_consumers", 3, K_INT) };

#define SPEC(a) { a, G_N_ELEMENTS (a) }
static const struct { const TextField *fields; guint n; } schema[] = {
  [M_GRAPH] = SPEC (graph_fields), [M_NODE] = SPEC (node_fields), [M_ATTR_ENTRY] = SPEC (attr_entry_fields),
  [M_ATTR_VALUE] = SPEC (attr_value_fields), [M_LIST] = SPEC (list_fields), [M_SHAPE] = SPEC (shape_fields),
  [M_DIM] = SPEC (dim_fields), [M_TENSOR] = SPEC (tensor_fields), [M_FUNC] = SPEC (func_fields),
  [M_VERSIONS] = SPEC (versions_fields), [M_NONE] = { NULL, 0 },
};

/* TensorFlow's DataType names, by number (types.proto). */
static const char * const type_names[] = {
  "DT_INVALID", "DT_FLOAT", "DT_DOUBLE", "DT_INT32", "DT_UINT8", "DT_INT16", "DT_INT8", "DT_STRING",
  "DT_COMPLEX64", "DT_INT64", "DT_BOOL", "DT_QINT8", "DT_QUINT8", "DT_QINT32", "DT_BFLOAT16", "DT_QINT16",
  "DT_QUINT16", "DT_UINT16", "DT_COMPLEX128", "DT_HALF", "DT_RESOURCE", "DT_VARIANT", "DT_UINT32", "DT_UINT64",
};

static const char * const reason_string = N_("a string is not closed on its line");
static const char * const reason_escape = N_("a string holds a malformed escape");
static const char * const reason_token = N_("an unexpected character");
static const char * const reason_end = N_("the text ends inside a message");
static const char * const reason_value = N_("a field has no value");
static const char * const reason_number = N_("a number is malformed");
static const char * const reason_enum = N_("an unknown enum value");
static const char * const reason_close = N_("a message is closed with the wrong bracket");
static const char * const reason_nesting = N_("messages are nested too deeply");

typedef enum {
  TOK_END, TOK_IDENT, TOK_NUMBER, TOK_STRING, TOK_PUNCT,
} TokenKind;

typedef struct {
  const guint8 *data;
  gsize         size;
  gsize         pos;
  /* The current token */
  TokenKind     kind;
  gsize         at;
  gsize         len;       /* identifiers and numbers: data[at..at+len) */
  char          punct;
  GByteArray   *text;      /* strings, unescaped */
  /* The first error */
  gsize         error_at;
  const char   *reason;
} Parser;

static gboolean
fail (Parser     *p,
      gsize       at,
      const char *reason)
{
  if (p->reason == NULL)
    {
      p->error_at = at;
      p->reason = reason;
    }
  return FALSE;
}

static void
skip_space (Parser *p)
{
  while (p->pos < p->size)
    {
      guint8 c = p->data[p->pos];

      if (c == '#')
        {
          while (p->pos < p->size && p->data[p->pos] != '\n')
            p->pos++;
        }
      else if (g_ascii_isspace (c))
        p->pos++;
      else
        break;
    }
}

static gboolean
is_ident_char (guint8 c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.';
}

/* One quoted string, unescaped onto p->text. */
static gboolean
read_string (Parser *p)
{
  guint8 quote = p->data[p->pos];
  gsize start = p->pos++;

  while (TRUE)
    {
      guint8 c;

      if (p->pos >= p->size || p->data[p->pos] == '\n')
        return fail (p, start, reason_string);
      c = p->data[p->pos++];
      if (c == quote)
        return TRUE;
      if (c != '\\')
        {
          g_byte_array_append (p->text, &c, 1);
          continue;
        }
      if (p->pos >= p->size)
        return fail (p, start, reason_string);
      c = p->data[p->pos++];
      switch (c)
        {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case 'a': c = '\a'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'v': c = '\v'; break;
        case '\\': case '\'': case '"': case '?': break;
        case 'x': case 'X':
          {
            guint value = 0, n = 0;

            while (n < 2 && p->pos < p->size && g_ascii_isxdigit (p->data[p->pos]))
              value = value * 16 + g_ascii_xdigit_value (p->data[p->pos++]), n++;
            if (n == 0)
              return fail (p, p->pos - 2, reason_escape);
            c = (guint8) value;
          }
          break;
        default:
          if (c >= '0' && c <= '7')
            {
              guint value = c - '0', n = 1;

              while (n < 3 && p->pos < p->size && p->data[p->pos] >= '0' && p->data[p->pos] <= '7')
                value = value * 8 + (p->data[p->pos++] - '0'), n++;
              if (value > 0xff)
                return fail (p, p->pos - n - 1, reason_escape);
              c = (guint8) value;
              break;
            }
          return fail (p, p->pos - 2, reason_escape);
        }
      g_byte_array_append (p->text, &c, 1);
    }
}

/* The next token; FALSE on malformed text. */
static gboolean
next_token (Parser *p)
{
  guint8 c;

  skip_space (p);
  p->at = p->pos;
  p->len = 0;
  if (p->pos >= p->size)
    {
      p->kind = TOK_END;
      return TRUE;
    }
  c = p->data[p->pos];
  if (c == '"' || c == '\'')
    {
      /* Adjacent strings are one. */
      g_byte_array_set_size (p->text, 0);
      p->kind = TOK_STRING;
      while (p->pos < p->size && (p->data[p->pos] == '"' || p->data[p->pos] == '\''))
        {
          if (!read_string (p))
            return FALSE;
          skip_space (p);
        }
      return TRUE;
    }
  if (g_ascii_isdigit (c) || c == '-' || c == '+' || (c == '.' && p->pos + 1 < p->size && g_ascii_isdigit (p->data[p->pos + 1])))
    {
      p->kind = TOK_NUMBER;
      p->pos++;
      while (p->pos < p->size && (is_ident_char (p->data[p->pos]) ||
                                  ((p->data[p->pos] == '-' || p->data[p->pos] == '+') &&
                                   (p->data[p->pos - 1] == 'e' || p->data[p->pos - 1] == 'E'))))
        p->pos++;
      p->len = p->pos - p->at;
      return TRUE;
    }
  if (g_ascii_isalpha (c) || c == '_')
    {
      p->kind = TOK_IDENT;
      while (p->pos < p->size && is_ident_char (p->data[p->pos]))
        p->pos++;
      p->len = p->pos - p->at;
      return TRUE;
    }
  if (strchr ("{}<>[]:,;", c) != NULL && c != '\0')
    {
      p->kind = TOK_PUNCT;
      p->punct = (char) c;
      p->pos++;
      return TRUE;
    }
  return fail (p, p->pos, reason_token);
}

static gboolean
is_punct (const Parser *p,
          char          c)
{
  return p->kind == TOK_PUNCT && p->punct == c;
}

static gboolean
token_is (const Parser *p,
          const char   *word)
{
  gsize len = strlen (word);

  return p->len == len && g_ascii_strncasecmp ((const char *) p->data + p->at, word, len) == 0;
}

/* Wire format */

static void
put_varint (GByteArray *out,
            guint64     value)
{
  do
    {
      guint8 byte = (value & 0x7f) | (value >= 0x80 ? 0x80 : 0);

      g_byte_array_append (out, &byte, 1);
      value >>= 7;
    }
  while (value != 0);
}

static void
put_bytes (GByteArray   *out,
           guint         number,
           const guint8 *data,
           gsize         len)
{
  put_varint (out, ((guint64) number << 3) | 2);
  put_varint (out, len);
  g_byte_array_append (out, data, len);
}

static gboolean
parse_int (Parser  *p,
           guint64 *value)
{
  g_autofree char *text = g_strndup ((const char *) p->data + p->at, p->len);
  char *end = NULL;

  errno = 0;
  if (text[0] == '-')
    *value = (guint64) g_ascii_strtoll (text, &end, 0);
  else
    *value = g_ascii_strtoull (text[0] == '+' ? text + 1 : text, &end, 0);
  if (errno != 0 || end == NULL || *end != '\0' || end == text)
    return fail (p, p->at, reason_number);
  return TRUE;
}

static gboolean
parse_double (Parser  *p,
              double  *value)
{
  g_autofree char *text = NULL;
  char *end = NULL;
  gsize len = p->len;

  if (p->kind == TOK_IDENT || (p->kind == TOK_NUMBER && len > 1 && !g_ascii_isdigit (p->data[p->at + 1]) &&
                               p->data[p->at + 1] != '.'))
    {
      /* inf, nan, -inf, infinity */
      gboolean negative = p->data[p->at] == '-';
      gsize skip = (p->data[p->at] == '-' || p->data[p->at] == '+') ? 1 : 0;
      g_autofree char *word = g_ascii_strdown ((const char *) p->data + p->at + skip, len - skip);

      if (strcmp (word, "inf") == 0 || strcmp (word, "infinity") == 0 || strcmp (word, "inff") == 0)
        *value = negative ? -INFINITY : INFINITY;
      else if (strcmp (word, "nan") == 0 || strcmp (word, "nanf") == 0)
        *value = NAN;
      else
        return fail (p, p->at, reason_number);
      return TRUE;
    }
  /* "1.5f", as C++ writes floats; not in hex numbers, where f is a digit. */
  if (len > 1 && (p->data[p->at + len - 1] == 'f' || p->data[p->at + len - 1] == 'F') &&
      g_strstr_len ((const char *) p->data + p->at, len, "x") == NULL &&
      g_strstr_len ((const char *) p->data + p->at, len, "X") == NULL)
    len--;
  text = g_strndup ((const char *) p->data + p->at, len);
  *value = g_ascii_strtod (text, &end);
  if (end == NULL || *end != '\0' || end == text)
    return fail (p, p->at, reason_number);
  return TRUE;
}

/* One scalar of @field, the current token, onto @out. */
static gboolean
put_scalar (Parser          *p,
            const TextField *field,
            GByteArray      *out)
{
  guint64 value = 0;

  switch (field->kind)
    {
    case K_STRING:
      if (p->kind != TOK_STRING)
        return fail (p, p->at, reason_value);
      put_bytes (out, field->number, p->text->data, p->text->len);
      return TRUE;
    case K_INT:
      if (p->kind != TOK_NUMBER || !parse_int (p, &value))
        return fail (p, p->at, reason_number);
      put_varint (out, (guint64) field->number << 3);
      put_varint (out, value);
      return TRUE;
    case K_FLOAT:
    case K_DOUBLE:
      {
        double d;

        if ((p->kind != TOK_NUMBER && p->kind != TOK_IDENT) || !parse_double (p, &d))
          return fail (p, p->at, reason_number);
        if (field->kind == K_FLOAT)
          {
            float f = (float) d;
            guint32 bits;

            memcpy (&bits, &f, 4);
            bits = GUINT32_TO_LE (bits);
            put_varint (out, ((guint64) field->number << 3) | 5);
            g_byte_array_append (out, (const guint8 *) &bits, 4);
          }
        else
          {
            guint64 bits;

            memcpy (&bits, &d, 8);
            bits = GUINT64_TO_LE (bits);
            put_varint (out, ((guint64) field->number << 3) | 1);
            g_byte_array_append (out, (const guint8 *) &bits, 8);
          }
        return TRUE;
      }
    case K_BOOL:
      if (token_is (p, "true") || token_is (p, "t") || token_is (p, "1"))
        value = 1;
      else if (token_is (p, "false") || token_is (p, "f") || token_is (p, "0"))
        value = 0;
      else
        return fail (p, p->at, reason_value);
      put_varint (out, (guint64) field->number << 3);
      put_varint (out, value);
      return TRUE;
    case K_TYPE:
      if (p->kind == TOK_NUMBER)
        {
          if (!parse_int (p, &value))
            return FALSE;
        }
      else if (p->kind == TOK_IDENT)
        {
          gboolean found = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (type_names) && !found; i++)
            {
              g_autofree char *ref = g_strconcat (type_names[i], "_REF", NULL);

              if (p->len == strlen (type_names[i]) && memcmp (p->data + p->at, type_names[i], p->len) == 0)
                value = i, found = TRUE;
              else if (p->len == strlen (ref) && memcmp (p->data + p->at, ref, p->len) == 0)
                value = 100 + i, found = TRUE;
            }
          if (!found)
            return fail (p, p->at, reason_enum);
        }
      else
        return fail (p, p->at, reason_value);
      put_varint (out, (guint64) field->number << 3);
      put_varint (out, value);
      return TRUE;
    case K_MSG:
    default:
      return fail (p, p->at, reason_value);
    }
}

static gboolean parse_fields (Parser *p, Message message, GByteArray *out, guint depth, char close);

/* A message value from its opening bracket, the current token. */
static gboolean
put_message (Parser          *p,
             const TextField *field,
             GByteArray      *out,
             guint            depth)
{
  char close;
  GByteArray *inner;
  gboolean ok;

  if (!is_punct (p, '{') && !is_punct (p, '<'))
    return fail (p, p->at, reason_value);
  if (depth >= SL_GRAPH_DEF_TEXT_MAX_NESTING)
    return fail (p, p->at, reason_nesting);
  close = p->punct == '{' ? '}' : '>';
  inner = g_byte_array_new ();
  ok = next_token (p) && parse_fields (p, field != NULL ? field->message : M_NONE, inner, depth + 1, close);
  if (ok && field != NULL)
    put_bytes (out, field->number, inner->data, inner->len);
  g_byte_array_unref (inner);
  return ok;
}

/* A value, the current token, for @field (NULL: read and drop). The
 * token after it is current afterwards. */
static gboolean
parse_value (Parser          *p,
             const TextField *field,
             GByteArray      *out,
             guint            depth)
{
  if (is_punct (p, '{') || is_punct (p, '<'))
    {
      if (field != NULL && field->kind != K_MSG)
        return fail (p, p->at, reason_value);
      return put_message (p, field, out, depth) && next_token (p);
    }
  if (field != NULL && field->kind == K_MSG)
    return fail (p, p->at, reason_value);
  if (p->kind != TOK_STRING && p->kind != TOK_NUMBER && p->kind != TOK_IDENT)
    return fail (p, p->at, p->kind == TOK_END ? reason_end : reason_value);
  if (field == NULL)
    return next_token (p);
  return put_scalar (p, field, out) && next_token (p);
}

/* Fields until @close ('\0': the end of the text), the first token
 * current. */
static gboolean
parse_fields (Parser     *p,
              Message     message,
              GByteArray *out,
              guint       depth,
              char        close)
{
  while (TRUE)
    {
      const TextField *field = NULL;

      if (p->kind == TOK_END)
        return close == '\0' ? TRUE : fail (p, p->at, reason_end);
      if (p->kind == TOK_PUNCT)
        {
          if (p->punct == close)
            return TRUE;
          if (p->punct == '}' || p->punct == '>')
            return fail (p, p->at, reason_close);
          if (p->punct == ',' || p->punct == ';')
            {
              if (!next_token (p))
                return FALSE;
              continue;
            }
          return fail (p, p->at, reason_token);
        }
      if (p->kind != TOK_IDENT)
        return fail (p, p->at, reason_token);
      for (guint i = 0; i < schema[message].n; i++)
        if (p->len == strlen (schema[message].fields[i].name) &&
            memcmp (p->data + p->at, schema[message].fields[i].name, p->len) == 0)
          field = &schema[message].fields[i];
      if (!next_token (p))
        return FALSE;
      if (is_punct (p, ':'))
        {
          if (!next_token (p))
            return FALSE;
        }
      if (is_punct (p, '['))
        {
          /* A list: [v, v, ...] */
          if (!next_token (p))
            return FALSE;
          while (!is_punct (p, ']'))
            {
              if (!parse_value (p, field, out, depth))
                return FALSE;
              if (is_punct (p, ',') && !next_token (p))
                return FALSE;
              if (p->kind == TOK_END)
                return fail (p, p->at, reason_end);
            }
          if (!next_token (p))
            return FALSE;
          continue;
        }
      if (!parse_value (p, field, out, depth))
        return FALSE;
    }
}

static guint
line_of (const guint8 *data,
         gsize         offset)
{
  guint line = 1;

  for (gsize i = 0; i < offset; i++)
    if (data[i] == '\n')
      line++;
  return line;
}

/**
 * sl_graph_def_text_decode:
 * @path: the file the text came from, for problems
 *
 * Reads a GraphDef in text format (see the file comment).
 *
 * Returns: (transfer full) (nullable): the graph, with a problem where
 *   the text is malformed; %NULL with @error when it holds no node
 */
SlGraph *
sl_graph_def_text_decode (const guint8  *data,
                          gsize          size,
                          const char    *path,
                          GError       **error)
{
  Parser p = { data != NULL ? data : (const guint8 *) "", data != NULL ? size : 0, 0, TOK_END, 0, 0, 0,
               g_byte_array_new (), 0, NULL };
  g_autoptr(GByteArray) graph = g_byte_array_new ();
  g_autoptr(SlGraphBuilder) builder = sl_graph_builder_new ();

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (path == NULL)
    path = "";
  sl_graph_builder_set_path (builder, path);
  sl_graph_builder_add_metadata (builder, "format", "TensorFlow GraphDef (text)");

  /* Top-level fields one at a time: each is kept once it is whole. */
  if (next_token (&p))
    while (p.kind != TOK_END)
      {
        g_autoptr(GByteArray) field = g_byte_array_new ();

        if (is_punct (&p, ',') || is_punct (&p, ';'))
          {
            if (!next_token (&p))
              break;
            continue;
          }
        if (p.kind != TOK_IDENT)
          {
            fail (&p, p.at, p.kind == TOK_PUNCT && (p.punct == '}' || p.punct == '>') ? reason_close : reason_token);
            break;
          }
        {
          const TextField *def = NULL;

          for (guint i = 0; i < schema[M_GRAPH].n; i++)
            if (p.len == strlen (schema[M_GRAPH].fields[i].name) &&
                memcmp (p.data + p.at, schema[M_GRAPH].fields[i].name, p.len) == 0)
              def = &schema[M_GRAPH].fields[i];
          if (!next_token (&p))
            break;
          if (is_punct (&p, ':') && !next_token (&p))
            break;
          if (is_punct (&p, '['))
            {
              gboolean ok = next_token (&p);

              while (ok && !is_punct (&p, ']'))
                {
                  ok = parse_value (&p, def, field, 0);
                  if (ok && is_punct (&p, ','))
                    ok = next_token (&p);
                  if (ok && p.kind == TOK_END)
                    ok = fail (&p, p.at, reason_end);
                }
              if (!ok || !next_token (&p))
                break;
            }
          else if (!parse_value (&p, def, field, 0))
            break;
        }
        g_byte_array_append (graph, field->data, field->len);
      }

  if (p.reason != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The graph text is damaged at byte %llu (line %u): %s."),
                                                  (unsigned long long) p.error_at,
                                                  line_of (p.data, MIN (p.error_at, p.size)), _(p.reason));
      g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Graph reader"), path,
                                                     p.error_at, message);

      sl_graph_builder_add_problem (builder, problem);
    }
  g_byte_array_unref (p.text);

  /* Well-formed by construction: the GraphDef reader finds no damage in
   * its framing, only in values (a tensor_content of the wrong size). */
  (void) sl_graph_def_add_nodes (builder, graph->data, graph->len, 0, 1, "", FALSE, path);
  if (sl_graph_builder_get_n_elements (builder) == 0)
    {
      if (p.reason != NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("“%s” holds no TensorFlow graph that can be read: the text is damaged at byte %llu: %s."),
                     path, (unsigned long long) p.error_at, _(p.reason));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("“%s” holds no node: there is no graph to show."), path);
      return NULL;
    }
  return sl_graph_builder_finish (builder);
}

/**
 * sl_graph_def_text_sniff:
 *
 * Whether @data starts, after blanks and '#' comments, with a GraphDef
 * field in text format: "node {", "node:", "versions {", "library {".
 */
gboolean
sl_graph_def_text_sniff (const guint8 *data,
                         gsize         size)
{
  static const char * const starts[] = { "node", "versions", "library", "version" };
  Parser p = { data, MIN (size, SNIFF_BYTES), 0, TOK_END, 0, 0, 0, NULL, 0, NULL };

  if (data == NULL)
    return FALSE;
  skip_space (&p);
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    {
      gsize len = strlen (starts[i]), at = p.pos + len;

      if (p.size - p.pos < len || memcmp (p.data + p.pos, starts[i], len) != 0)
        continue;
      while (at < p.size && (p.data[at] == ' ' || p.data[at] == '\t' || p.data[at] == '\r' || p.data[at] == '\n'))
        at++;
      if (at < p.size && (p.data[at] == '{' || p.data[at] == ':' || p.data[at] == '<'))
        return TRUE;
    }
  return FALSE;
}
