/* sl-pipeline.h: a MindX SDK stream pipeline as written in its file
 *
 * Streams, their elements and each element's members are kept in file
 * order and with repeats (a JSON parser that builds a tree keeps one of
 * two equal keys; the SDK's does, so repeats must stay visible to be
 * flagged). Every key and value has its byte range and its line and
 * column, so a check can point at it and an editor can rewrite one value
 * and leave the rest of the file as it was. Links (`next`, `nextMeta`)
 * are resolved to elements of the same stream once reading ends.
 *
 * The records below are read-only views owned by the pipeline; only a
 * reader fills them in, with the functions at the end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sl-problem.h"

G_BEGIN_DECLS

#define SL_PIPELINE_NO_ELEMENT G_MAXUINT
#define SL_PIPELINE_NO_PORT    (-1)

typedef enum {
  SL_PIPELINE_VALUE_STRING,
  SL_PIPELINE_VALUE_NUMBER,
  SL_PIPELINE_VALUE_BOOLEAN,
  SL_PIPELINE_VALUE_NULL,
  SL_PIPELINE_VALUE_OBJECT,
  SL_PIPELINE_VALUE_ARRAY,
} SlPipelineValueType;

typedef enum {
  SL_PIPELINE_LINK_NEXT,
  SL_PIPELINE_LINK_NEXT_META,
} SlPipelineLinkKind;

/* Bytes [start, end) of the file; line and column (1-based, the column in
 * characters) are those of start. A value's range includes its quotes or
 * brackets, a key's range its quotes. */
typedef struct {
  guint64 start;
  guint64 end;
  guint   line;
  guint   column;
} SlPipelineSpan;

/* One key and value of an object: an element's member, a prop, a
 * stream_config entry. @text is the decoded string for strings and the
 * JSON text as written for everything else (nested objects included). */
typedef struct {
  char                *key;
  SlPipelineValueType  type;
  char                *text;
  SlPipelineSpan       key_span;
  SlPipelineSpan       value_span;
} SlPipelineMember;

/* One entry of `next` or `nextMeta`. @target is NULL when the entry is
 * not a string. "name:port" is split into @target_name and @port; @port
 * is SL_PIPELINE_NO_PORT without a port, and @port_valid is FALSE when
 * what follows the colon is not a port number. */
typedef struct {
  SlPipelineLinkKind   kind;
  guint                from;         /* element index in the stream */
  guint                to;           /* element index, or SL_PIPELINE_NO_ELEMENT */
  char                *target;
  char                *target_name;
  gint                 port;
  gboolean             port_valid;
  SlPipelineValueType  type;         /* of the entry */
  SlPipelineSpan       span;
} SlPipelineLink;

typedef struct {
  char                *name;
  SlPipelineValueType  type;         /* an element is an object; anything else is kept to be reported */
  SlPipelineSpan       key_span;
  SlPipelineSpan       span;
  GPtrArray           *members;      /* SlPipelineMember, every key in file order */
  GPtrArray           *props;        /* SlPipelineMember, of the last "props" object */
  GPtrArray           *links;        /* SlPipelineLink, next then nextMeta, file order */
  const SlPipelineMember *factory;   /* the last "factory" member, or NULL */
  const SlPipelineMember *props_member;
  const SlPipelineMember *next;
  const SlPipelineMember *next_meta;
} SlPipelineElement;

typedef struct {
  char                *name;
  SlPipelineValueType  type;
  SlPipelineSpan       key_span;
  SlPipelineSpan       span;
  GPtrArray           *elements;     /* SlPipelineElement, file order, repeats kept */
  GPtrArray           *config;       /* SlPipelineMember of the last stream_config, or NULL */
  guint                n_configs;    /* how many stream_config keys the stream has */
  SlPipelineValueType  config_type;  /* of the last one */
  SlPipelineSpan       config_key_span;
  SlPipelineSpan       config_span;
} SlPipelineStream;

#define SL_TYPE_PIPELINE (sl_pipeline_get_type ())
G_DECLARE_FINAL_TYPE (SlPipeline, sl_pipeline, SL, PIPELINE, GObject)

SlPipeline              *sl_pipeline_new                  (const char              *path);
const char              *sl_pipeline_get_path             (SlPipeline              *self);
/* The file's bytes, as read (NULL before a reader set them). */
GBytes                  *sl_pipeline_get_contents         (SlPipeline              *self);
guint                    sl_pipeline_get_n_streams        (SlPipeline              *self);
const SlPipelineStream  *sl_pipeline_get_stream           (SlPipeline              *self,
                                                           guint                    index);
/* The last stream of that name (the one the SDK keeps), or NULL. */
const SlPipelineStream  *sl_pipeline_lookup_stream        (SlPipeline              *self,
                                                           const char              *name);
/* Problems met while reading (damage, an unexpected shape of the root). */
GListModel              *sl_pipeline_get_problems         (SlPipeline              *self);
/* The reading reached the end of the JSON without damage. */
gboolean                 sl_pipeline_is_complete          (SlPipeline              *self);

guint                    sl_pipeline_stream_get_n_elements (const SlPipelineStream *stream);
const SlPipelineElement *sl_pipeline_stream_get_element   (const SlPipelineStream  *stream,
                                                           guint                    index);
/* The index of the last element of that name, or SL_PIPELINE_NO_ELEMENT. */
guint                    sl_pipeline_stream_lookup_element (const SlPipelineStream *stream,
                                                           const char              *name);
/* Elements with a string factory, a repeated name counted once: what the
 * SDK would build, and what the folder detector counts. */
guint                    sl_pipeline_stream_count_runnable (const SlPipelineStream *stream);

const SlPipelineMember  *sl_pipeline_element_lookup_prop  (const SlPipelineElement *element,
                                                           const char              *key);
/* The factory's name, or NULL when it is missing or not a string. */
const char              *sl_pipeline_element_get_factory  (const SlPipelineElement *element);

const char              *sl_pipeline_value_type_to_string (SlPipelineValueType      type);

/* Filling in, for readers: the pipeline takes what is added. Spans of
 * containers are completed by the reader when they close. */
void                     sl_pipeline_set_contents         (SlPipeline              *self,
                                                           GBytes                  *contents);
SlPipelineStream        *sl_pipeline_add_stream           (SlPipeline              *self,
                                                           const char              *name,
                                                           SlPipelineValueType      type,
                                                           const SlPipelineSpan    *key_span);
SlPipelineElement       *sl_pipeline_stream_add_element   (SlPipelineStream        *stream,
                                                           const char              *name,
                                                           SlPipelineValueType      type,
                                                           const SlPipelineSpan    *key_span);
/* Starts a new stream_config whose entries then go to stream->config. */
void                     sl_pipeline_stream_begin_config  (SlPipelineStream        *stream,
                                                           const SlPipelineSpan    *key_span);
SlPipelineMember        *sl_pipeline_member_new           (const char              *key,
                                                           const SlPipelineSpan    *key_span);
void                     sl_pipeline_member_free          (SlPipelineMember        *member);
/* Adds @member (taken) to the element; "factory", "props", "next" and
 * "nextMeta" become the element's current ones. */
void                     sl_pipeline_element_add_member   (SlPipelineElement       *element,
                                                           SlPipelineMember        *member);
/* Starts a new props object: earlier props are dropped, as the SDK keeps
 * the last. */
void                     sl_pipeline_element_begin_props  (SlPipelineElement       *element);
/* Adds @prop (taken) to the current props object. */
void                     sl_pipeline_element_add_prop     (SlPipelineElement       *element,
                                                           SlPipelineMember        *prop);
/* Adds @member (taken) to the current stream_config. */
void                     sl_pipeline_stream_add_config    (SlPipelineStream        *stream,
                                                           SlPipelineMember        *member);
SlPipelineLink          *sl_pipeline_element_add_link     (SlPipelineElement       *element,
                                                           SlPipelineLinkKind       kind,
                                                           SlPipelineValueType      type,
                                                           const char              *target,
                                                           const SlPipelineSpan    *span);
/* Drops the links of one kind, when a repeated next replaces the first. */
void                     sl_pipeline_element_clear_links  (SlPipelineElement       *element,
                                                           SlPipelineLinkKind       kind);
void                     sl_pipeline_add_problem          (SlPipeline              *self,
                                                           SlProblem               *problem);
/* Ends reading: resolves every link to its element. */
void                     sl_pipeline_finish               (SlPipeline              *self,
                                                           gboolean                 complete);

G_END_DECLS
