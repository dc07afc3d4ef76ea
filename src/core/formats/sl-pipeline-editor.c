/* sl-pipeline-editor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-pipeline-editor.h"
#include "sl-pipeline-reader.h"

char *
sl_pipeline_editor_quote (const char *text)
{
  GString *quoted;

  g_return_val_if_fail (text != NULL, NULL);

  if (!g_utf8_validate (text, -1, NULL))
    return NULL;

  quoted = g_string_sized_new (strlen (text) + 2);
  g_string_append_c (quoted, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      guchar c = (guchar)*p;

      switch (c)
        {
        case '"':  g_string_append (quoted, "\\\""); break;
        case '\\': g_string_append (quoted, "\\\\"); break;
        case '\n': g_string_append (quoted, "\\n"); break;
        case '\r': g_string_append (quoted, "\\r"); break;
        case '\t': g_string_append (quoted, "\\t"); break;
        case '\b': g_string_append (quoted, "\\b"); break;
        case '\f': g_string_append (quoted, "\\f"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (quoted, "\\u%04x", c);
          else
            g_string_append_c (quoted, (char)c);
        }
    }
  g_string_append_c (quoted, '"');
  return g_string_free (quoted, FALSE);
}

/* ------------------------------------------------------------------ */

typedef struct {
  const char *data;
  gsize       length;
} Text;

static gsize
line_start (const Text *text,
            gsize       offset)
{
  while (offset > 0 && text->data[offset - 1] != '\n')
    offset--;
  return offset;
}

/* Whether only blanks come before @offset on its line. */
static gboolean
starts_line (const Text *text,
             gsize       offset)
{
  for (gsize i = line_start (text, offset); i < offset; i++)
    if (text->data[i] != ' ' && text->data[i] != '\t')
      return FALSE;
  return TRUE;
}

/* The blanks that open the line of @offset. */
static char *
line_indent (const Text *text,
             gsize       offset)
{
  gsize start = line_start (text, offset);
  gsize end = start;

  while (end < offset && (text->data[end] == ' ' || text->data[end] == '\t'))
    end++;
  return g_strndup (text->data + start, end - start);
}

static gboolean
same_line (const Text *text,
           gsize       a,
           gsize       b)
{
  return memchr (text->data + a, '\n', b - a) == NULL;
}

/* One level of indentation: what @inner adds to @outer, else four
 * spaces, or a tab in a file indented with tabs. */
static char *
indent_unit (const char *outer,
             const char *inner)
{
  if (g_str_has_prefix (inner, outer) && strlen (inner) > strlen (outer))
    return g_strdup (inner + strlen (outer));
  if (inner[0] == '\t' || outer[0] == '\t')
    return g_strdup ("\t");
  return g_strdup ("    ");
}

/* The bytes between a member's key and its value (": " as written). */
static char *
member_separator (const Text             *text,
                  const SlPipelineMember *member)
{
  if (member == NULL || member->value_span.start < member->key_span.end ||
      member->value_span.start > text->length)
    return g_strdup (": ");
  return g_strndup (text->data + member->key_span.end, member->value_span.start - member->key_span.end);
}

static gboolean
span_is_valid (const Text           *text,
               const SlPipelineSpan *span)
{
  return span->start < span->end && span->end <= text->length;
}

static gboolean
refuse_damaged (SlPipeline  *pipeline,
                GError     **error)
{
  GListModel *problems = sl_pipeline_get_problems (pipeline);
  guint n = g_list_model_get_n_items (problems);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (problems, i);

      if (sl_problem_get_severity (problem) != SL_SEVERITY_ERROR)
        continue;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: file:line:column: what is wrong */
                   _("%s:%u:%u: cannot edit a damaged pipeline: %s"),
                   sl_pipeline_get_path (pipeline), sl_problem_get_line (problem),
                   sl_problem_get_column (problem), sl_problem_get_message (problem));
      return FALSE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("%s: cannot edit a damaged pipeline"), sl_pipeline_get_path (pipeline));
  return FALSE;
}

/* The edited bytes read back with the same streams and elements, and the
 * prop as set. */
static gboolean
verify (SlPipeline  *before,
        GBytes      *bytes,
        guint        stream_index,
        guint        element_index,
        const char  *key,
        const char  *value,
        GError     **error)
{
  gsize length;
  const guint8 *data = g_bytes_get_data (bytes, &length);
  g_autoptr(SlPipeline) after = sl_pipeline_reader_read_data (sl_pipeline_get_path (before), data, length);
  const SlPipelineStream *stream;
  const SlPipelineElement *element;
  const SlPipelineMember *prop;

  if (after == NULL || !sl_pipeline_is_complete (after) ||
      sl_pipeline_get_n_streams (after) != sl_pipeline_get_n_streams (before))
    goto changed;

  for (guint s = 0; s < sl_pipeline_get_n_streams (before); s++)
    {
      const SlPipelineStream *a = sl_pipeline_get_stream (before, s);
      const SlPipelineStream *b = sl_pipeline_get_stream (after, s);

      if (g_strcmp0 (a->name, b->name) != 0 || a->elements->len != b->elements->len)
        goto changed;
      for (guint e = 0; e < a->elements->len; e++)
        {
          const SlPipelineElement *x = g_ptr_array_index (a->elements, e);
          const SlPipelineElement *y = g_ptr_array_index (b->elements, e);

          if (g_strcmp0 (x->name, y->name) != 0 ||
              g_strcmp0 (sl_pipeline_element_get_factory (x), sl_pipeline_element_get_factory (y)) != 0 ||
              x->links->len != y->links->len)
            goto changed;
        }
    }

  stream = sl_pipeline_get_stream (after, stream_index);
  element = g_ptr_array_index (stream->elements, element_index);
  prop = sl_pipeline_element_lookup_prop (element, key);
  if (prop == NULL || prop->type != SL_PIPELINE_VALUE_STRING || g_strcmp0 (prop->text, value) != 0)
    goto changed;
  return TRUE;

changed:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
               _("%s: the edited pipeline does not read back the same; nothing was changed"),
               sl_pipeline_get_path (before));
  return FALSE;
}

GBytes *
sl_pipeline_editor_set_prop (SlPipeline  *pipeline,
                             guint        stream_index,
                             guint        element_index,
                             const char  *key,
                             const char  *value,
                             GError     **error)
{
  g_autofree char *quoted_key = NULL;
  g_autofree char *quoted_value = NULL;
  g_autoptr(GString) insert = NULL;
  g_autoptr(GBytes) result = NULL;
  const SlPipelineStream *stream;
  const SlPipelineElement *element;
  const SlPipelineMember *prop;
  const char *newline;
  GBytes *contents;
  Text text;
  gsize cut_start, cut_end;

  g_return_val_if_fail (SL_IS_PIPELINE (pipeline), NULL);
  g_return_val_if_fail (key != NULL && value != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  contents = sl_pipeline_get_contents (pipeline);
  if (contents == NULL || !sl_pipeline_is_complete (pipeline))
    {
      refuse_damaged (pipeline, error);
      return NULL;
    }
  if (stream_index >= sl_pipeline_get_n_streams (pipeline) ||
      element_index >= (stream = sl_pipeline_get_stream (pipeline, stream_index))->elements->len)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("%s: no such element"), sl_pipeline_get_path (pipeline));
      return NULL;
    }
  element = g_ptr_array_index (stream->elements, element_index);

  quoted_key = sl_pipeline_editor_quote (key);
  quoted_value = sl_pipeline_editor_quote (value);
  if (quoted_key == NULL || quoted_value == NULL || key[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("A property name and value must be text (UTF-8), and the name not empty"));
      return NULL;
    }

  text.data = g_bytes_get_data (contents, &text.length);
  newline = g_strstr_len (text.data, text.length, "\r\n") != NULL ? "\r\n" : "\n";
  insert = g_string_new (NULL);

  if (element->type != SL_PIPELINE_VALUE_OBJECT || !span_is_valid (&text, &element->span))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s:%u:%u: element “%s” is not an object"), sl_pipeline_get_path (pipeline),
                   element->span.line, element->span.column, element->name);
      return NULL;
    }
  if (element->props_member != NULL &&
      (element->props_member->type != SL_PIPELINE_VALUE_OBJECT ||
       !span_is_valid (&text, &element->props_member->value_span)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s:%u:%u: the props of “%s” are not an object"), sl_pipeline_get_path (pipeline),
                   element->props_member->value_span.line, element->props_member->value_span.column,
                   element->name);
      return NULL;
    }

  if ((prop = sl_pipeline_element_lookup_prop (element, key)) != NULL)
    {
      /* The value as it stands: only its bytes change. */
      if (!span_is_valid (&text, &prop->value_span))
        {
          refuse_damaged (pipeline, error);
          return NULL;
        }
      cut_start = prop->value_span.start;
      cut_end = prop->value_span.end;
      g_string_append (insert, quoted_value);
    }
  else if (element->props_member != NULL && element->props->len > 0)
    {
      /* After the last prop, as its neighbours are written. */
      const SlPipelineMember *last = g_ptr_array_index (element->props, element->props->len - 1);
      g_autofree char *separator = member_separator (&text, last);

      cut_start = cut_end = last->value_span.end;
      g_string_append_c (insert, ',');
      if (starts_line (&text, last->key_span.start))
        {
          g_autofree char *indent = line_indent (&text, last->key_span.start);
          g_string_append_printf (insert, "%s%s", newline, indent);
        }
      else
        g_string_append_c (insert, ' ');
      g_string_append_printf (insert, "%s%s%s", quoted_key, separator, quoted_value);
    }
  else if (element->props_member != NULL)
    {
      /* An empty props object. */
      const SlPipelineSpan *span = &element->props_member->value_span;
      g_autofree char *separator = member_separator (&text, element->props_member);

      cut_start = cut_end = span->start + 1;
      if (same_line (&text, span->start, span->end))
        g_string_append_printf (insert, "%s%s%s", quoted_key, separator, quoted_value);
      else
        {
          g_autofree char *outer = line_indent (&text, element->props_member->key_span.start);
          g_autofree char *unit = indent_unit (outer, outer);

          g_string_append_printf (insert, "%s%s%s%s%s%s", newline, outer, unit, quoted_key, separator, quoted_value);
        }
    }
  else if (element->members->len > 0)
    {
      /* A new props object after the element's last member. */
      const SlPipelineMember *last = g_ptr_array_index (element->members, element->members->len - 1);
      g_autofree char *separator = member_separator (&text, last);

      if (!span_is_valid (&text, &last->value_span))
        {
          refuse_damaged (pipeline, error);
          return NULL;
        }
      cut_start = cut_end = last->value_span.end;
      g_string_append_c (insert, ',');
      if (starts_line (&text, last->key_span.start))
        {
          g_autofree char *indent = line_indent (&text, last->key_span.start);
          g_autofree char *outer = line_indent (&text, element->key_span.start);
          g_autofree char *unit = indent_unit (outer, indent);

          g_string_append_printf (insert, "%s%s\"props\"%s{%s%s%s%s%s%s%s%s}",
                                  newline, indent, separator, newline, indent, unit, quoted_key,
                                  separator, quoted_value, newline, indent);
        }
      else
        g_string_append_printf (insert, " \"props\"%s{%s%s%s}", separator, quoted_key, separator, quoted_value);
    }
  else
    {
      /* An empty element: {"props": {...}} inside its braces. */
      cut_start = cut_end = element->span.start + 1;
      g_string_append_printf (insert, "\"props\": {%s: %s}", quoted_key, quoted_value);
    }

  {
    GByteArray *bytes = g_byte_array_sized_new (text.length + insert->len);

    g_byte_array_append (bytes, (const guint8 *)text.data, cut_start);
    g_byte_array_append (bytes, (const guint8 *)insert->str, insert->len);
    g_byte_array_append (bytes, (const guint8 *)text.data + cut_end, text.length - cut_end);
    result = g_byte_array_free_to_bytes (bytes);
  }

  if (!verify (pipeline, result, stream_index, element_index, key, value, error))
    return NULL;
  return g_steal_pointer (&result);
}

GFile *
sl_pipeline_editor_dup_backup (GFile *file)
{
  g_autofree char *path = NULL;
  g_autofree char *backup = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (path == NULL)
    return NULL;
  backup = g_strconcat (path, "~", NULL);
  return g_file_new_for_path (backup);
}

gboolean
sl_pipeline_editor_save (GFile         *file,
                         GBytes        *contents,
                         const char    *etag,
                         char         **new_etag,
                         GCancellable  *cancellable,
                         GError       **error)
{
  gsize length;
  const char *data;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  data = g_bytes_get_data (contents, &length);
  /* GIO writes a temporary file beside FILE and renames it over FILE,
   * after renaming the old one to FILE~. */
  return g_file_replace_contents (file, data, length, etag, TRUE, G_FILE_CREATE_NONE,
                                  new_etag, cancellable, error);
}
