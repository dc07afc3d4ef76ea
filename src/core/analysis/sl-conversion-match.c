/* sl-conversion-match.c: a converted model's ops against its source model's
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * See sl-conversion-match.h for the rules. Every string is copied into
 * one string chunk; the ops and their sources are flat arrays.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-conversion-match.h"
#include "sl-graph-reader.h"

/* The attributes GE writes the original ops' names in. */
static const char * const name_attributes[] = {
  "_datadump_original_op_names", "original_op_names",
};

/* Ops ATC adds by itself: format and data type changes, transposes for
 * formats, AIPP and its dynamic input, copies between memories. */
static const char * const inserted_types[] = {
  "TransData", "TransDataRNN", "Cast", "TransposeD", "Transpose", "Aipp", "AippData", "ReFormat",
  "MemcpyAsync", "MemcpyAddrAsync", "Identity",
};

typedef struct {
  const char *name;     /* as the graph shows it (the graph view finds it so) */
  const char *type;
  gboolean    is_op;
  gboolean    used;
} SourceElement;

typedef struct {
  guint element;        /* index into sources */
  guint next;           /* the next element with the same key, or G_MAXUINT */
} KeyEntry;

typedef struct {
  const char *name;
  gboolean    found;
} OpSource;

typedef struct {
  const char          *name;
  const char          *type;
  SlConversionStatus   status;
  SlConversionEvidence evidence;
  guint                first_source;
  guint                n_sources;
} ConvertedOp;

struct _SlConversionMatch
{
  GObject       parent_instance;

  GPtrArray    *source_graphs;
  GPtrArray    *converted_graphs;
  GStringChunk *strings;
  GArray       *sources;       /* SourceElement */
  GArray       *keys;          /* KeyEntry */
  GHashTable   *key_index;     /* name → index into keys + 1 */
  GArray       *ops;           /* ConvertedOp */
  GArray       *op_sources;    /* OpSource */
  GArray       *removed;       /* guint: index into sources */
  guint         counts[SL_CONVERSION_N_STATUSES];
};

G_DEFINE_FINAL_TYPE (SlConversionMatch, sl_conversion_match, G_TYPE_OBJECT)

static void
sl_conversion_match_finalize (GObject *object)
{
  SlConversionMatch *self = SL_CONVERSION_MATCH (object);

  g_clear_pointer (&self->source_graphs, g_ptr_array_unref);
  g_clear_pointer (&self->converted_graphs, g_ptr_array_unref);
  g_clear_pointer (&self->key_index, g_hash_table_unref);
  g_clear_pointer (&self->sources, g_array_unref);
  g_clear_pointer (&self->keys, g_array_unref);
  g_clear_pointer (&self->ops, g_array_unref);
  g_clear_pointer (&self->op_sources, g_array_unref);
  g_clear_pointer (&self->removed, g_array_unref);
  g_string_chunk_free (self->strings);
  G_OBJECT_CLASS (sl_conversion_match_parent_class)->finalize (object);
}

static void
sl_conversion_match_class_init (SlConversionMatchClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_conversion_match_finalize;
}

static void
sl_conversion_match_init (SlConversionMatch *self)
{
  self->strings = g_string_chunk_new (4096);
  self->sources = g_array_new (FALSE, FALSE, sizeof (SourceElement));
  self->keys = g_array_new (FALSE, FALSE, sizeof (KeyEntry));
  self->key_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->ops = g_array_new (FALSE, FALSE, sizeof (ConvertedOp));
  self->op_sources = g_array_new (FALSE, FALSE, sizeof (OpSource));
  self->removed = g_array_new (FALSE, FALSE, sizeof (guint));
}

/* ------------------------------------------------------------------ */
/* Names                                                              */

/**
 * sl_conversion_is_inserted_type:
 *
 * Returns: whether ATC adds ops of @op_type by itself
 */
gboolean
sl_conversion_is_inserted_type (const char *op_type)
{
  for (guint i = 0; op_type != NULL && i < G_N_ELEMENTS (inserted_types); i++)
    if (g_str_equal (op_type, inserted_types[i]))
      return TRUE;
  return FALSE;
}

/* The length of @name without a trailing @marker followed by digits
 * (at least one when @digits), or 0 when it does not end so. */
static gsize
suffix_start (const char *name,
              gsize       len,
              const char *marker,
              gboolean    digits)
{
  gsize end = len, marker_len = strlen (marker);

  while (end > 0 && g_ascii_isdigit (name[end - 1]))
    end--;
  if ((digits && end == len) || (!digits && end != len))
    return 0;
  if (end <= marker_len || memcmp (name + end - marker_len, marker, marker_len) != 0)
    return 0;
  return end - marker_len;
}

/**
 * sl_conversion_strip_name:
 *
 * Returns: (transfer full) (nullable): @name without the suffixes ATC
 *   adds to the ops it copies (`_ascend_mbatch_batch_N` for each batch
 *   size of a multi-batch model, `_lxsliceN` for L1 slicing), each as
 *   often as it is there; %NULL when it has none
 */
char *
sl_conversion_strip_name (const char *name)
{
  static const char * const markers[] = { "_ascend_mbatch_batch_", "_lxslice" };
  gsize len;
  gboolean stripped = FALSE, again = TRUE;

  g_return_val_if_fail (name != NULL, NULL);

  len = strlen (name);
  while (again)
    {
      again = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (markers); i++)
        {
          gsize start = suffix_start (name, len, markers[i], TRUE);

          if (start > 0)
            {
              len = start;
              stripped = again = TRUE;
            }
        }
    }
  return stripped ? g_strndup (name, len) : NULL;
}

/* One name of a list: quoted (C escapes) or bare up to a comma. */
static const char *
parse_one (const char *p,
           GPtrArray  *names)
{
  GString *name = g_string_new (NULL);
  g_autofree char *value = NULL;

  if (*p == '"' || *p == '\'')
    {
      char quote = *p++;

      while (*p != '\0' && *p != quote)
        {
          if (*p == '\\' && p[1] != '\0')
            g_string_append_c (name, *p++);
          g_string_append_c (name, *p++);
        }
      if (*p == quote)
        p++;
      value = g_strcompress (name->str);
      g_string_free (name, TRUE);
    }
  else
    {
      while (*p != '\0' && *p != ',' && *p != ']')
        g_string_append_c (name, *p++);
      value = g_strstrip (g_string_free (name, FALSE));
    }
  /* A shortened list ends in "…". */
  if (value[0] != '\0' && g_strcmp0 (value, "…") != 0 && g_strcmp0 (value, "...") != 0)
    g_ptr_array_add (names, g_steal_pointer (&value));
  return p;
}

/**
 * sl_conversion_parse_names:
 * @text: (nullable): an attribute's text
 *
 * Returns: (transfer container) (element-type utf8): the names listed
 */
GPtrArray *
sl_conversion_parse_names (const char *text)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *p = text;

  if (p == NULL)
    return names;
  while (g_ascii_isspace (*p))
    p++;
  if (*p == '[')
    p++;
  while (*p != '\0' && *p != ']')
    {
      while (g_ascii_isspace (*p) || *p == ',')
        p++;
      if (*p == '\0' || *p == ']')
        break;
      p = parse_one (p, names);
      /* Whatever follows a quoted name up to the next comma is not a name. */
      while (*p != '\0' && *p != ',' && *p != ']')
        p++;
    }
  return names;
}

/* ------------------------------------------------------------------ */
/* Source index                                                       */

static void
add_key (SlConversionMatch *self,
         const char        *key,
         guint              element)
{
  gpointer value;
  KeyEntry entry = { element, G_MAXUINT };

  if (key == NULL || key[0] == '\0')
    return;
  if (g_hash_table_lookup_extended (self->key_index, key, NULL, &value))
    {
      /* A second element with this name: chained after the first. */
      guint index = GPOINTER_TO_UINT (value) - 1;
      KeyEntry *last;

      while ((last = &g_array_index (self->keys, KeyEntry, index))->next != G_MAXUINT)
        index = last->next;
      if (last->element == element)
        return;
      last->next = self->keys->len;
      g_array_append_val (self->keys, entry);
      return;
    }
  g_array_append_val (self->keys, entry);
  g_hash_table_insert (self->key_index, g_string_chunk_insert_const (self->strings, key),
                       GUINT_TO_POINTER (self->keys->len));
}

static void
index_sources (SlConversionMatch *self)
{
  for (guint g = 0; g < self->source_graphs->len; g++)
    {
      SlGraph *graph = g_ptr_array_index (self->source_graphs, g);
      guint n = sl_graph_get_n_elements (graph);

      for (guint e = 0; e < n; e++)
        {
          SlGraphElementKind kind = sl_graph_element_get_kind (graph, e);
          g_autofree char *display = NULL;
          SourceElement source;
          guint index = self->sources->len;

          /* A graph output is the value of an op already indexed. */
          if (kind == SL_GRAPH_ELEMENT_OUTPUT)
            continue;
          display = sl_graph_element_dup_name (graph, e);
          source.name = g_string_chunk_insert_const (self->strings, display);
          source.type = g_string_chunk_insert_const (self->strings, sl_graph_element_get_op_type (graph, e));
          source.is_op = kind == SL_GRAPH_ELEMENT_OP;
          source.used = FALSE;
          g_array_append_val (self->sources, source);
          add_key (self, sl_graph_element_get_proto_name (graph, e), index);
          add_key (self, display, index);
        }
    }
}

/* The first source element named @name (marking every one so named as
 * used), or G_MAXUINT. */
static guint
lookup_exact (SlConversionMatch *self,
              const char        *name)
{
  gpointer value;
  guint index, first;

  if (name == NULL || name[0] == '\0' || !g_hash_table_lookup_extended (self->key_index, name, NULL, &value))
    return G_MAXUINT;
  index = GPOINTER_TO_UINT (value) - 1;
  first = g_array_index (self->keys, KeyEntry, index).element;
  for (; index != G_MAXUINT; index = g_array_index (self->keys, KeyEntry, index).next)
    g_array_index (self->sources, SourceElement, g_array_index (self->keys, KeyEntry, index).element).used = TRUE;
  return first;
}

static guint
lookup (SlConversionMatch    *self,
        const char           *name,
        SlConversionEvidence *evidence)
{
  g_autofree char *stripped = NULL;
  guint found = lookup_exact (self, name);

  if (found != G_MAXUINT)
    {
      *evidence = SL_CONVERSION_BY_NAME;
      return found;
    }
  stripped = sl_conversion_strip_name (name);
  if (stripped != NULL && (found = lookup_exact (self, stripped)) != G_MAXUINT)
    *evidence = SL_CONVERSION_BY_STRIPPED_NAME;
  return found;
}

/* ------------------------------------------------------------------ */
/* Matching                                                           */

static const char *
find_name_attribute (SlGraph *graph,
                     guint    element)
{
  guint n = sl_graph_element_get_n_attributes (graph, element);

  for (guint a = 0; a < n; a++)
    {
      const char *value = NULL;
      const char *key = sl_graph_element_get_attribute (graph, element, a, &value);

      for (guint k = 0; k < G_N_ELEMENTS (name_attributes); k++)
        if (g_strcmp0 (key, name_attributes[k]) == 0)
          return value;
    }
  return NULL;
}

static void
add_op_source (SlConversionMatch *self,
               ConvertedOp       *op,
               const char        *name,
               gboolean           found)
{
  OpSource source = { g_string_chunk_insert_const (self->strings, name), found };

  /* The same op named twice (or by two of its names) is one source. */
  for (guint i = 0; i < op->n_sources; i++)
    if (g_array_index (self->op_sources, OpSource, op->first_source + i).name == source.name)
      return;
  g_array_append_val (self->op_sources, source);
  op->n_sources++;
}

static void
match_op (SlConversionMatch *self,
          SlGraph           *graph,
          guint              element)
{
  const char *attribute = find_name_attribute (graph, element);
  const char *proto_name = sl_graph_element_get_proto_name (graph, element);
  g_autofree char *display = sl_graph_element_dup_name (graph, element);
  g_autoptr(GPtrArray) names = sl_conversion_parse_names (attribute);
  SlConversionEvidence own_evidence = SL_CONVERSION_UNMATCHED;
  guint own;
  ConvertedOp op = { 0 };

  op.name = g_string_chunk_insert_const (self->strings, display);
  op.type = g_string_chunk_insert_const (self->strings, sl_graph_element_get_op_type (graph, element));
  op.first_source = self->op_sources->len;
  op.evidence = SL_CONVERSION_UNMATCHED;

  own = lookup (self, proto_name, &own_evidence);
  if (own == G_MAXUINT && g_strcmp0 (display, proto_name) != 0)
    own = lookup (self, display, &own_evidence);

  if (names->len > 0)
    {
      op.evidence = SL_CONVERSION_BY_ATTRIBUTE;
      for (guint i = 0; i < names->len; i++)
        {
          SlConversionEvidence evidence;
          const char *name = g_ptr_array_index (names, i);
          guint found = lookup (self, name, &evidence);

          if (found != G_MAXUINT)
            add_op_source (self, &op, g_array_index (self->sources, SourceElement, found).name, TRUE);
          else
            add_op_source (self, &op, name, FALSE);
        }
    }
  else if (own != G_MAXUINT)
    {
      op.evidence = own_evidence;
      add_op_source (self, &op, g_array_index (self->sources, SourceElement, own).name, TRUE);
    }

  if (op.n_sources == 0 || (own == G_MAXUINT && sl_conversion_is_inserted_type (op.type)))
    op.status = SL_CONVERSION_INSERTED;
  else if (op.n_sources > 1)
    op.status = SL_CONVERSION_FUSED;
  else
    op.status = SL_CONVERSION_KEPT;
  self->counts[op.status]++;
  g_array_append_val (self->ops, op);
}

/**
 * sl_conversion_match_new:
 * @source: (element-type SlGraph): the source model's graphs
 * @converted: (element-type SlGraph): the converted model's graphs
 *
 * Returns: (transfer full): every converted op paired with its source
 */
SlConversionMatch *
sl_conversion_match_new (GPtrArray *source,
                         GPtrArray *converted)
{
  SlConversionMatch *self;

  g_return_val_if_fail (source != NULL && converted != NULL, NULL);

  self = g_object_new (SL_TYPE_CONVERSION_MATCH, NULL);
  self->source_graphs = g_ptr_array_ref (source);
  self->converted_graphs = g_ptr_array_ref (converted);
  index_sources (self);

  for (guint g = 0; g < converted->len; g++)
    {
      SlGraph *graph = g_ptr_array_index (converted, g);
      guint n = sl_graph_get_n_ops (graph);

      for (guint e = 0; e < n; e++)
        match_op (self, graph, e);
    }
  for (guint i = 0; i < self->sources->len; i++)
    {
      const SourceElement *source_element = &g_array_index (self->sources, SourceElement, i);

      if (source_element->is_op && !source_element->used)
        g_array_append_val (self->removed, i);
    }
  return self;
}

static GPtrArray *
load_graphs (const char    *path,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) graphs = sl_graph_reader_load (path, cancellable, &local_error);
  guint n_ops = 0;

  if (graphs == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", local_error->message);
      return NULL;
    }
  for (guint i = 0; i < graphs->len; i++)
    n_ops += sl_graph_get_n_ops (g_ptr_array_index (graphs, i));
  if (n_ops == 0)
    {
      /* Translators: %s is a file name */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s holds no graph with ops"), path);
      return NULL;
    }
  return g_steal_pointer (&graphs);
}

/**
 * sl_conversion_match_load:
 * @source_path: the model ATC read
 * @converted_path: the model it wrote
 *
 * Returns: (transfer full) (nullable): the match, or %NULL with @error
 */
SlConversionMatch *
sl_conversion_match_load (const char    *source_path,
                          const char    *converted_path,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autoptr(GPtrArray) source = NULL;
  g_autoptr(GPtrArray) converted = NULL;

  g_return_val_if_fail (source_path != NULL && converted_path != NULL, NULL);

  if (!(source = load_graphs (source_path, cancellable, error)))
    return NULL;
  if (!(converted = load_graphs (converted_path, cancellable, error)))
    return NULL;
  return sl_conversion_match_new (source, converted);
}

/* ------------------------------------------------------------------ */
/* Accessors                                                          */

GPtrArray *
sl_conversion_match_get_source (SlConversionMatch *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_MATCH (self), NULL);
  return self->source_graphs;
}

GPtrArray *
sl_conversion_match_get_converted (SlConversionMatch *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_MATCH (self), NULL);
  return self->converted_graphs;
}

guint
sl_conversion_match_get_n_ops (SlConversionMatch *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_MATCH (self), 0);
  return self->ops->len;
}

#define CHECK_OP(self, op, val) \
  g_return_val_if_fail (SL_IS_CONVERSION_MATCH (self), val); \
  g_return_val_if_fail ((op) < (self)->ops->len, val)

#define OP(self, op) (&g_array_index ((self)->ops, ConvertedOp, (op)))

const char *
sl_conversion_match_get_op_name (SlConversionMatch *self,
                                 guint              op)
{
  CHECK_OP (self, op, NULL);
  return OP (self, op)->name;
}

const char *
sl_conversion_match_get_op_type (SlConversionMatch *self,
                                 guint              op)
{
  CHECK_OP (self, op, NULL);
  return OP (self, op)->type;
}

SlConversionStatus
sl_conversion_match_get_op_status (SlConversionMatch *self,
                                   guint              op)
{
  CHECK_OP (self, op, SL_CONVERSION_INSERTED);
  return OP (self, op)->status;
}

SlConversionEvidence
sl_conversion_match_get_op_evidence (SlConversionMatch *self,
                                     guint              op)
{
  CHECK_OP (self, op, SL_CONVERSION_UNMATCHED);
  return OP (self, op)->evidence;
}

guint
sl_conversion_match_get_op_n_sources (SlConversionMatch *self,
                                      guint              op)
{
  CHECK_OP (self, op, 0);
  return OP (self, op)->n_sources;
}

const char *
sl_conversion_match_get_op_source (SlConversionMatch *self,
                                   guint              op,
                                   guint              index,
                                   gboolean          *found)
{
  const OpSource *source;

  CHECK_OP (self, op, NULL);
  g_return_val_if_fail (index < OP (self, op)->n_sources, NULL);

  source = &g_array_index (self->op_sources, OpSource, OP (self, op)->first_source + index);
  if (found != NULL)
    *found = source->found;
  return source->name;
}

/**
 * sl_conversion_match_dup_op_sources:
 *
 * Returns: (transfer full): the op's sources joined by ", ", "" for none
 */
char *
sl_conversion_match_dup_op_sources (SlConversionMatch *self,
                                    guint              op)
{
  GString *out = g_string_new (NULL);

  CHECK_OP (self, op, g_string_free (out, FALSE));
  for (guint i = 0; i < OP (self, op)->n_sources; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      g_string_append (out, sl_conversion_match_get_op_source (self, op, i, NULL));
    }
  return g_string_free (out, FALSE);
}

guint
sl_conversion_match_get_n_removed (SlConversionMatch *self)
{
  g_return_val_if_fail (SL_IS_CONVERSION_MATCH (self), 0);
  return self->removed->len;
}

static const SourceElement *
removed_at (SlConversionMatch *self,
            guint              index)
{
  return &g_array_index (self->sources, SourceElement, g_array_index (self->removed, guint, index));
}

const char *
sl_conversion_match_get_removed_name (SlConversionMatch *self,
                                      guint              index)
{
  g_return_val_if_fail (SL_IS_CONVERSION_MATCH (self), NULL);
  g_return_val_if_fail (index < self->removed->len, NULL);
  return removed_at (self, index)->name;
}

const char *
sl_conversion_match_get_removed_type (SlConversionMatch *self,
                                      guint              index)
{
  g_return_val_if_fail (SL_IS_CONVERSION_MATCH (self), NULL);
  g_return_val_if_fail (index < self->removed->len, NULL);
  return removed_at (self, index)->type;
}

guint
sl_conversion_match_count (SlConversionMatch  *self,
                           SlConversionStatus  status)
{
  g_return_val_if_fail (SL_IS_CONVERSION_MATCH (self), 0);
  g_return_val_if_fail (status < SL_CONVERSION_N_STATUSES, 0);
  return self->counts[status];
}

const char *
sl_conversion_status_to_string (SlConversionStatus status)
{
  switch (status)
    {
    case SL_CONVERSION_KEPT: return "kept";
    case SL_CONVERSION_FUSED: return "fused";
    case SL_CONVERSION_INSERTED: return "inserted";
    default: return "";
    }
}

const char *
sl_conversion_status_to_label (SlConversionStatus status)
{
  switch (status)
    {
    /* Translators: a converted op that is its source op */
    case SL_CONVERSION_KEPT: return C_("conversion", "Kept");
    /* Translators: a converted op that stands for several source ops */
    case SL_CONVERSION_FUSED: return C_("conversion", "Fused");
    /* Translators: a converted op ATC added (TransData, Cast, AIPP) */
    case SL_CONVERSION_INSERTED: return C_("conversion", "Inserted");
    default: return "";
    }
}
