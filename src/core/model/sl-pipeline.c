/* sl-pipeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-pipeline.h"

struct _SlPipeline
{
  GObject     parent_instance;
  char       *path;
  GBytes     *contents;
  GPtrArray  *streams;     /* SlPipelineStream */
  GListStore *problems;
  gboolean    complete;
};

G_DEFINE_FINAL_TYPE (SlPipeline, sl_pipeline, G_TYPE_OBJECT)

void
sl_pipeline_member_free (SlPipelineMember *member)
{
  if (member == NULL)
    return;
  g_free (member->key);
  g_free (member->text);
  g_free (member);
}

static void
link_free (gpointer data)
{
  SlPipelineLink *link = data;

  g_free (link->target);
  g_free (link->target_name);
  g_free (link);
}

static void
element_free (gpointer data)
{
  SlPipelineElement *element = data;

  g_free (element->name);
  g_ptr_array_unref (element->members);
  g_ptr_array_unref (element->props);
  g_ptr_array_unref (element->links);
  g_free (element);
}

static void
stream_free (gpointer data)
{
  SlPipelineStream *stream = data;

  g_free (stream->name);
  g_ptr_array_unref (stream->elements);
  g_clear_pointer (&stream->config, g_ptr_array_unref);
  g_free (stream);
}

static void
sl_pipeline_finalize (GObject *object)
{
  SlPipeline *self = (SlPipeline *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->contents, g_bytes_unref);
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_object (&self->problems);

  G_OBJECT_CLASS (sl_pipeline_parent_class)->finalize (object);
}

static void
sl_pipeline_class_init (SlPipelineClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_pipeline_finalize;
}

static void
sl_pipeline_init (SlPipeline *self)
{
  self->streams = g_ptr_array_new_with_free_func (stream_free);
  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
}

/**
 * sl_pipeline_new:
 * @path: the file the pipeline is read from, named in problems
 *
 * Returns: (transfer full): an empty pipeline for a reader to fill in
 */
SlPipeline *
sl_pipeline_new (const char *path)
{
  SlPipeline *self = g_object_new (SL_TYPE_PIPELINE, NULL);

  self->path = g_strdup (path != NULL ? path : "");
  return self;
}

const char *
sl_pipeline_get_path (SlPipeline *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE (self), NULL);
  return self->path;
}

GBytes *
sl_pipeline_get_contents (SlPipeline *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE (self), NULL);
  return self->contents;
}

guint
sl_pipeline_get_n_streams (SlPipeline *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE (self), 0);
  return self->streams->len;
}

const SlPipelineStream *
sl_pipeline_get_stream (SlPipeline *self,
                        guint       index)
{
  g_return_val_if_fail (SL_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (index < self->streams->len, NULL);
  return g_ptr_array_index (self->streams, index);
}

const SlPipelineStream *
sl_pipeline_lookup_stream (SlPipeline *self,
                           const char *name)
{
  g_return_val_if_fail (SL_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = self->streams->len; i > 0; i--)
    {
      const SlPipelineStream *stream = g_ptr_array_index (self->streams, i - 1);

      if (g_str_equal (stream->name, name))
        return stream;
    }
  return NULL;
}

GListModel *
sl_pipeline_get_problems (SlPipeline *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE (self), NULL);
  return G_LIST_MODEL (self->problems);
}

gboolean
sl_pipeline_is_complete (SlPipeline *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE (self), FALSE);
  return self->complete;
}

guint
sl_pipeline_stream_get_n_elements (const SlPipelineStream *stream)
{
  g_return_val_if_fail (stream != NULL, 0);
  return stream->elements->len;
}

const SlPipelineElement *
sl_pipeline_stream_get_element (const SlPipelineStream *stream,
                                guint                   index)
{
  g_return_val_if_fail (stream != NULL, NULL);
  g_return_val_if_fail (index < stream->elements->len, NULL);
  return g_ptr_array_index (stream->elements, index);
}

guint
sl_pipeline_stream_lookup_element (const SlPipelineStream *stream,
                                   const char             *name)
{
  g_return_val_if_fail (stream != NULL, SL_PIPELINE_NO_ELEMENT);
  g_return_val_if_fail (name != NULL, SL_PIPELINE_NO_ELEMENT);

  for (guint i = stream->elements->len; i > 0; i--)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i - 1);

      if (g_str_equal (element->name, name))
        return i - 1;
    }
  return SL_PIPELINE_NO_ELEMENT;
}

guint
sl_pipeline_stream_count_runnable (const SlPipelineStream *stream)
{
  g_autoptr(GHashTable) last = NULL;
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_return_val_if_fail (stream != NULL, 0);

  /* only the last of a repeated name counts, as only it is kept */
  last = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < stream->elements->len; i++)
    {
      SlPipelineElement *element = g_ptr_array_index (stream->elements, i);

      g_hash_table_insert (last, element->name, element);
    }
  g_hash_table_iter_init (&iter, last);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    n += sl_pipeline_element_get_factory (value) != NULL;
  return n;
}

const SlPipelineMember *
sl_pipeline_element_lookup_prop (const SlPipelineElement *element,
                                 const char              *key)
{
  g_return_val_if_fail (element != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = element->props->len; i > 0; i--)
    {
      const SlPipelineMember *prop = g_ptr_array_index (element->props, i - 1);

      if (g_str_equal (prop->key, key))
        return prop;
    }
  return NULL;
}

const char *
sl_pipeline_element_get_factory (const SlPipelineElement *element)
{
  g_return_val_if_fail (element != NULL, NULL);

  if (element->factory == NULL || element->factory->type != SL_PIPELINE_VALUE_STRING)
    return NULL;
  return element->factory->text;
}

const char *
sl_pipeline_value_type_to_string (SlPipelineValueType type)
{
  switch (type)
    {
    case SL_PIPELINE_VALUE_STRING:
      return "string";
    case SL_PIPELINE_VALUE_NUMBER:
      return "number";
    case SL_PIPELINE_VALUE_BOOLEAN:
      return "boolean";
    case SL_PIPELINE_VALUE_NULL:
      return "null";
    case SL_PIPELINE_VALUE_OBJECT:
      return "object";
    case SL_PIPELINE_VALUE_ARRAY:
    default:
      return "array";
    }
}

void
sl_pipeline_set_contents (SlPipeline *self,
                          GBytes     *contents)
{
  g_return_if_fail (SL_IS_PIPELINE (self));

  g_clear_pointer (&self->contents, g_bytes_unref);
  self->contents = contents != NULL ? g_bytes_ref (contents) : NULL;
}

SlPipelineStream *
sl_pipeline_add_stream (SlPipeline           *self,
                        const char           *name,
                        SlPipelineValueType   type,
                        const SlPipelineSpan *key_span)
{
  SlPipelineStream *stream;

  g_return_val_if_fail (SL_IS_PIPELINE (self), NULL);
  g_return_val_if_fail (name != NULL && key_span != NULL, NULL);

  stream = g_new0 (SlPipelineStream, 1);
  stream->name = g_strdup (name);
  stream->type = type;
  stream->key_span = *key_span;
  stream->elements = g_ptr_array_new_with_free_func (element_free);
  g_ptr_array_add (self->streams, stream);
  return stream;
}

SlPipelineElement *
sl_pipeline_stream_add_element (SlPipelineStream     *stream,
                                const char           *name,
                                SlPipelineValueType   type,
                                const SlPipelineSpan *key_span)
{
  SlPipelineElement *element;

  g_return_val_if_fail (stream != NULL, NULL);
  g_return_val_if_fail (name != NULL && key_span != NULL, NULL);

  element = g_new0 (SlPipelineElement, 1);
  element->name = g_strdup (name);
  element->type = type;
  element->key_span = *key_span;
  element->members = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_pipeline_member_free);
  element->props = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_pipeline_member_free);
  element->links = g_ptr_array_new_with_free_func (link_free);
  g_ptr_array_add (stream->elements, element);
  return element;
}

void
sl_pipeline_stream_begin_config (SlPipelineStream     *stream,
                                 const SlPipelineSpan *key_span)
{
  g_return_if_fail (stream != NULL);
  g_return_if_fail (key_span != NULL);

  g_clear_pointer (&stream->config, g_ptr_array_unref);
  stream->config = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_pipeline_member_free);
  stream->n_configs++;
  stream->config_key_span = *key_span;
}

SlPipelineMember *
sl_pipeline_member_new (const char           *key,
                        const SlPipelineSpan *key_span)
{
  SlPipelineMember *member;

  g_return_val_if_fail (key != NULL && key_span != NULL, NULL);

  member = g_new0 (SlPipelineMember, 1);
  member->key = g_strdup (key);
  member->key_span = *key_span;
  member->type = SL_PIPELINE_VALUE_NULL;
  return member;
}

void
sl_pipeline_element_add_member (SlPipelineElement *element,
                                SlPipelineMember  *member)
{
  g_return_if_fail (element != NULL);
  g_return_if_fail (member != NULL);

  g_ptr_array_add (element->members, member);
  if (g_str_equal (member->key, "factory"))
    element->factory = member;
  else if (g_str_equal (member->key, "props"))
    element->props_member = member;
  else if (g_str_equal (member->key, "next"))
    element->next = member;
  else if (g_str_equal (member->key, "nextMeta"))
    element->next_meta = member;
}

void
sl_pipeline_element_begin_props (SlPipelineElement *element)
{
  g_return_if_fail (element != NULL);

  g_ptr_array_set_size (element->props, 0);
}

void
sl_pipeline_element_add_prop (SlPipelineElement *element,
                              SlPipelineMember  *prop)
{
  g_return_if_fail (element != NULL);
  g_return_if_fail (prop != NULL);

  g_ptr_array_add (element->props, prop);
}

void
sl_pipeline_stream_add_config (SlPipelineStream *stream,
                               SlPipelineMember *member)
{
  g_return_if_fail (stream != NULL && stream->config != NULL);
  g_return_if_fail (member != NULL);

  g_ptr_array_add (stream->config, member);
}

static void
split_target (SlPipelineLink *link)
{
  const char *colon = strrchr (link->target, ':');
  const char *p;
  gint64 port = 0;

  link->port = SL_PIPELINE_NO_PORT;
  link->port_valid = TRUE;
  if (colon == NULL)
    {
      link->target_name = g_strdup (link->target);
      return;
    }

  link->target_name = g_strndup (link->target, colon - link->target);
  for (p = colon + 1; g_ascii_isdigit (*p) && port <= G_MAXINT16; p++)
    port = port * 10 + (*p - '0');
  link->port_valid = p > colon + 1 && *p == '\0' && port <= G_MAXINT16;
  if (link->port_valid)
    link->port = (gint) port;
}

SlPipelineLink *
sl_pipeline_element_add_link (SlPipelineElement    *element,
                              SlPipelineLinkKind    kind,
                              SlPipelineValueType   type,
                              const char           *target,
                              const SlPipelineSpan *span)
{
  SlPipelineLink *link;

  g_return_val_if_fail (element != NULL, NULL);
  g_return_val_if_fail (span != NULL, NULL);

  link = g_new0 (SlPipelineLink, 1);
  link->kind = kind;
  link->type = type;
  link->to = SL_PIPELINE_NO_ELEMENT;
  link->port = SL_PIPELINE_NO_PORT;
  link->span = *span;
  if (type == SL_PIPELINE_VALUE_STRING && target != NULL)
    {
      link->target = g_strdup (target);
      split_target (link);
    }
  g_ptr_array_add (element->links, link);
  return link;
}

void
sl_pipeline_element_clear_links (SlPipelineElement  *element,
                                 SlPipelineLinkKind  kind)
{
  g_return_if_fail (element != NULL);

  for (guint i = element->links->len; i > 0; i--)
    {
      SlPipelineLink *link = g_ptr_array_index (element->links, i - 1);

      if (link->kind == kind)
        g_ptr_array_remove_index (element->links, i - 1);
    }
}

void
sl_pipeline_add_problem (SlPipeline *self,
                         SlProblem  *problem)
{
  g_return_if_fail (SL_IS_PIPELINE (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_list_store_append (self->problems, problem);
}

static void
resolve_stream (SlPipelineStream *stream)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

  /* later elements of a repeated name win, as in the SDK */
  for (guint i = 0; i < stream->elements->len; i++)
    {
      SlPipelineElement *element = g_ptr_array_index (stream->elements, i);

      g_hash_table_insert (index, element->name, GUINT_TO_POINTER (i + 1));
    }

  for (guint i = 0; i < stream->elements->len; i++)
    {
      SlPipelineElement *element = g_ptr_array_index (stream->elements, i);

      for (guint l = 0; l < element->links->len; l++)
        {
          SlPipelineLink *link = g_ptr_array_index (element->links, l);
          guint found = 0;

          link->from = i;
          if (link->target_name != NULL)
            found = GPOINTER_TO_UINT (g_hash_table_lookup (index, link->target_name));
          link->to = found > 0 ? found - 1 : SL_PIPELINE_NO_ELEMENT;
        }
    }
}

void
sl_pipeline_finish (SlPipeline *self,
                    gboolean    complete)
{
  g_return_if_fail (SL_IS_PIPELINE (self));

  self->complete = complete;
  for (guint i = 0; i < self->streams->len; i++)
    resolve_stream (g_ptr_array_index (self->streams, i));
}
