/* sl-graph-builder.c: collects the elements of a graph, then builds it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-graph-builder.h"
#include "sl-graph-private.h"

typedef struct {
  guint8  kind;
  guint32 proto_name;
  guint32 name_dir;
  guint32 name_tail;
  guint32 op_type;
  guint32 scope;
  guint32 instance_name;
  guint32 source_address;
  guint32 attr_first, n_attrs;
  guint32 input_first, n_inputs;
  guint32 output_first, n_outputs;
} BuilderElement;

typedef struct {
  guint32 name;
  guint32 source;  /* builder index, or SL_GRAPH_NONE to go by name */
  guint8  kind;
} BuilderInput;

typedef struct {
  guint8  dtype;
  guint32 dims_first;
  guint32 n_dims;
} BuilderOutput;

struct _SlGraphBuilder
{
  SlInternTable *strings;
  guint32        name;
  guint32        root_name;
  GArray        *elements;   /* BuilderElement */
  GArray        *attrs;      /* guint32 pairs: name, value */
  GArray        *inputs;     /* BuilderInput */
  GArray        *outputs;    /* BuilderOutput */
  GArray        *dims;       /* gint64 */
  GArray        *metadata;   /* guint32 pairs: key, value */
  GPtrArray     *problems;
  char          *path;       /* for the builder's own problems */
};

SlGraphBuilder *
sl_graph_builder_new (void)
{
  SlGraphBuilder *self = g_new0 (SlGraphBuilder, 1);

  self->strings = sl_intern_table_new ();
  sl_intern_table_intern (self->strings, "", 0);
  self->elements = g_array_new (FALSE, TRUE, sizeof (BuilderElement));
  self->attrs = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->inputs = g_array_new (FALSE, FALSE, sizeof (BuilderInput));
  self->outputs = g_array_new (FALSE, FALSE, sizeof (BuilderOutput));
  self->dims = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->metadata = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
  return self;
}

void
sl_graph_builder_free (SlGraphBuilder *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->strings, sl_intern_table_free);
  g_array_unref (self->elements);
  g_array_unref (self->attrs);
  g_array_unref (self->inputs);
  g_array_unref (self->outputs);
  g_array_unref (self->dims);
  g_array_unref (self->metadata);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_free (self->path);
  g_free (self);
}

static guint32
intern (SlGraphBuilder *self,
        const char     *str)
{
  if (str == NULL)
    return 0;
  return sl_intern_table_intern (self->strings, str, strlen (str));
}

void
sl_graph_builder_set_name (SlGraphBuilder *self,
                           const char     *name,
                           const char     *root_name)
{
  g_return_if_fail (self != NULL);

  self->name = intern (self, name);
  self->root_name = intern (self, root_name);
}

static BuilderElement *
begin_element (SlGraphBuilder     *self,
               SlGraphElementKind  kind,
               const char         *name)
{
  BuilderElement element = { 0 };

  element.kind = kind;
  element.proto_name = intern (self, name);
  element.attr_first = self->attrs->len / 2;
  element.input_first = self->inputs->len;
  element.output_first = self->outputs->len;
  g_array_append_val (self->elements, element);
  return &g_array_index (self->elements, BuilderElement, self->elements->len - 1);
}

/* Split at the last '/' so that the scope part is shared by every op of
 * a scope and only the "OpType-op<N>" part is stored per op. Stored as
 * shown (valid UTF-8), so that looking the shown name up finds the op. */
static void
set_display_name (SlGraphBuilder *self,
                  BuilderElement *element,
                  const char     *raw)
{
  g_autofree char *repaired = g_utf8_validate (raw, -1, NULL) ? NULL : g_utf8_make_valid (raw, -1);
  const char *display = repaired != NULL ? repaired : raw;
  const char *slash = strrchr (display, '/');

  if (slash == NULL)
    {
      element->name_dir = 0;
      element->name_tail = intern (self, display);
      return;
    }
  element->name_dir = sl_intern_table_intern (self->strings, display, slash - display);
  element->name_tail = intern (self, slash + 1);
}

void
sl_graph_builder_begin_op (SlGraphBuilder *self,
                           const char     *name,
                           const char     *op_type,
                           const char     *scope,
                           const char     *full_name,
                           const char     *instance_name,
                           const char     *source_address)
{
  BuilderElement *element;

  g_return_if_fail (self != NULL);

  element = begin_element (self, SL_GRAPH_ELEMENT_OP, name);
  element->op_type = intern (self, op_type);
  element->instance_name = intern (self, instance_name);
  element->source_address = intern (self, source_address);

  /* MindInsight's name: the full name, else scope/OpType-op<name>. */
  if (full_name != NULL && full_name[0] != '\0')
    {
      set_display_name (self, element, full_name);
    }
  else
    {
      g_autofree char *display = NULL;

      if (scope != NULL && scope[0] != '\0')
        display = g_strdup_printf ("%s/%s-op%s", scope, op_type ? op_type : "", name ? name : "");
      else
        display = g_strdup_printf ("%s-op%s", op_type ? op_type : "", name ? name : "");
      set_display_name (self, element, display);
    }

  /* Without a scope, the full name's folder is the best scope there is. */
  if (scope != NULL && scope[0] != '\0')
    element->scope = intern (self, scope);
  else
    element->scope = element->name_dir;
}

void
sl_graph_builder_begin_parameter (SlGraphBuilder *self,
                                  const char     *name)
{
  BuilderElement *element;

  g_return_if_fail (self != NULL);

  element = begin_element (self, SL_GRAPH_ELEMENT_PARAMETER, name);
  element->op_type = intern (self, "Parameter");
  element->name_tail = element->proto_name;
}

void
sl_graph_builder_begin_const (SlGraphBuilder *self,
                              const char     *key,
                              const char     *value)
{
  BuilderElement *element;

  g_return_if_fail (self != NULL);

  element = begin_element (self, SL_GRAPH_ELEMENT_CONST, key);
  element->op_type = intern (self, "Const");
  element->name_tail = element->proto_name;
  if (value != NULL)
    sl_graph_builder_add_attribute (self, "value", value);
}

/* A graph input or output: labelled by its whole name, placed at the top
 * of @scope (the scope of the graph it belongs to; "" for the root). */
static void
begin_boundary (SlGraphBuilder     *self,
                SlGraphElementKind  kind,
                const char         *name,
                const char         *scope)
{
  BuilderElement *element = begin_element (self, kind, name);

  element->op_type = intern (self, kind == SL_GRAPH_ELEMENT_INPUT ? "Input" : "Output");
  if (name == NULL || g_utf8_validate (name, -1, NULL))
    element->name_tail = element->proto_name;
  else
    {
      g_autofree char *repaired = g_utf8_make_valid (name, -1);

      element->name_tail = intern (self, repaired);
    }
  element->scope = intern (self, scope);
}

void
sl_graph_builder_begin_graph_input (SlGraphBuilder *self,
                                    const char     *name,
                                    const char     *scope)
{
  g_return_if_fail (self != NULL);
  begin_boundary (self, SL_GRAPH_ELEMENT_INPUT, name, scope);
}

void
sl_graph_builder_begin_graph_output (SlGraphBuilder *self,
                                     const char     *name,
                                     const char     *scope)
{
  g_return_if_fail (self != NULL);
  begin_boundary (self, SL_GRAPH_ELEMENT_OUTPUT, name, scope);
}

static BuilderElement *
current (SlGraphBuilder *self)
{
  if (self->elements->len == 0)
    return NULL;
  return &g_array_index (self->elements, BuilderElement, self->elements->len - 1);
}

/**
 * sl_graph_builder_split_name:
 *
 * Labels the current parameter or constant by the part of its name after
 * the last '/', as ops are, instead of by the whole name (TensorFlow's
 * "dense/Tensordot/axes" shows as "axes" inside its consumer). Its name,
 * which inputs refer to, stays whole.
 */
void
sl_graph_builder_split_name (SlGraphBuilder *self)
{
  BuilderElement *element;
  g_autofree char *name = NULL;

  g_return_if_fail (self != NULL);
  element = current (self);
  g_return_if_fail (element != NULL && element->kind != SL_GRAPH_ELEMENT_OP);

  name = g_strdup (sl_intern_table_get (self->strings, element->proto_name));
  set_display_name (self, element, name);
}

void
sl_graph_builder_add_input (SlGraphBuilder  *self,
                            const char      *name,
                            SlGraphEdgeKind  kind)
{
  BuilderInput input;
  BuilderElement *element;

  g_return_if_fail (self != NULL);
  element = current (self);
  g_return_if_fail (element != NULL);

  input.name = intern (self, name);
  input.source = SL_GRAPH_NONE;
  input.kind = kind == SL_GRAPH_EDGE_CONTROL ? SL_GRAPH_EDGE_CONTROL : SL_GRAPH_EDGE_DATA;
  g_array_append_val (self->inputs, input);
  element->n_inputs++;
}

/**
 * sl_graph_builder_add_input_element:
 * @source: the index of the source element among those begun so far or
 *   later (0 for the first), or %SL_GRAPH_NONE for an input that names
 *   nothing
 * @name: what the file calls the input (shown, never looked up)
 *
 * An input of the current element whose source the reader has resolved.
 */
void
sl_graph_builder_add_input_element (SlGraphBuilder  *self,
                                    guint            source,
                                    const char      *name,
                                    SlGraphEdgeKind  kind)
{
  BuilderInput input;
  BuilderElement *element;

  g_return_if_fail (self != NULL);
  element = current (self);
  g_return_if_fail (element != NULL);

  input.name = intern (self, name);
  input.source = source;
  input.kind = kind == SL_GRAPH_EDGE_CONTROL ? SL_GRAPH_EDGE_CONTROL : SL_GRAPH_EDGE_DATA;
  g_array_append_val (self->inputs, input);
  element->n_inputs++;
}

void
sl_graph_builder_add_attribute (SlGraphBuilder *self,
                                const char     *name,
                                const char     *value)
{
  guint32 ids[2];
  BuilderElement *element;

  g_return_if_fail (self != NULL);
  element = current (self);
  g_return_if_fail (element != NULL);

  ids[0] = intern (self, name);
  ids[1] = intern (self, value);
  g_array_append_vals (self->attrs, ids, 2);
  element->n_attrs++;
}

void
sl_graph_builder_add_output (SlGraphBuilder *self,
                             int             dtype,
                             const gint64   *dims,
                             guint           n_dims)
{
  BuilderOutput output;
  BuilderElement *element;

  g_return_if_fail (self != NULL);
  element = current (self);
  g_return_if_fail (element != NULL);
  g_return_if_fail (dims != NULL || n_dims == 0);

  output.dtype = (dtype >= 0 && dtype <= G_MAXUINT8) ? dtype : 0;
  output.dims_first = self->dims->len;
  output.n_dims = n_dims;
  g_array_append_vals (self->dims, dims, n_dims);
  g_array_append_val (self->outputs, output);
  element->n_outputs++;
}

/* The file the graph is read from, named by the problems finish() finds
 * (inputs that name nothing). */
void
sl_graph_builder_set_path (SlGraphBuilder *self,
                           const char     *path)
{
  g_return_if_fail (self != NULL);

  g_free (self->path);
  self->path = g_strdup (path);
}

/* A key and value about the whole graph (see sl_graph_get_metadata()). */
void
sl_graph_builder_add_metadata (SlGraphBuilder *self,
                               const char     *key,
                               const char     *value)
{
  guint32 ids[2];

  g_return_if_fail (self != NULL);

  ids[0] = intern (self, key);
  ids[1] = intern (self, value);
  g_array_append_vals (self->metadata, ids, 2);
}

void
sl_graph_builder_add_problem (SlGraphBuilder *self,
                              SlProblem      *problem)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_ptr_array_add (self->problems, g_object_ref (problem));
}

guint
sl_graph_builder_get_n_elements (SlGraphBuilder *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->elements->len;
}

/* Element order in the graph: ops, parameters, constants, graph inputs,
 * graph outputs, each in the order they were added. Returns builder
 * index → graph index. */
static guint32 *
order_elements (SlGraphBuilder *self,
                SlGraph        *graph)
{
  guint32 *order = g_new (guint32, self->elements->len);
  guint next[5] = { 0 };
  guint start = 0;

  for (guint i = 0; i < self->elements->len; i++)
    next[g_array_index (self->elements, BuilderElement, i).kind]++;
  graph->n_ops = next[SL_GRAPH_ELEMENT_OP];
  graph->n_parameters = next[SL_GRAPH_ELEMENT_PARAMETER];
  graph->n_consts = next[SL_GRAPH_ELEMENT_CONST];
  graph->n_graph_inputs = next[SL_GRAPH_ELEMENT_INPUT];
  graph->n_graph_outputs = next[SL_GRAPH_ELEMENT_OUTPUT];
  graph->n_elements = self->elements->len;
  for (guint k = 0; k < G_N_ELEMENTS (next); k++)
    {
      guint count = next[k];

      next[k] = start;
      start += count;
    }
  for (guint i = 0; i < self->elements->len; i++)
    order[i] = next[g_array_index (self->elements, BuilderElement, i).kind]++;
  return order;
}

static void
copy_elements (SlGraphBuilder *self,
               SlGraph        *graph,
               const guint32  *order)
{
  guint n = graph->n_elements;

  graph->kind = g_new (guint8, n);
  graph->proto_name = g_new (guint32, n);
  graph->name_dir = g_new (guint32, n);
  graph->name_tail = g_new (guint32, n);
  graph->op_type = g_new (guint32, n);
  graph->scope = g_new (guint32, n);
  graph->instance_name = g_new (guint32, n);
  graph->source_address = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    {
      const BuilderElement *b = &g_array_index (self->elements, BuilderElement, i);
      guint e = order[i];

      graph->kind[e] = b->kind;
      graph->proto_name[e] = b->proto_name;
      graph->name_dir[e] = b->name_dir;
      graph->name_tail[e] = b->name_tail;
      graph->op_type[e] = b->op_type;
      graph->scope[e] = b->scope;
      graph->instance_name[e] = b->instance_name;
      graph->source_address[e] = b->source_address;
    }
}

/* Per-element offsets into the graph's order, from counts by builder index. */
static guint32 *
offsets_in_order (SlGraphBuilder *self,
                  const guint32  *order,
                  gsize           count_field)
{
  guint n = self->elements->len;
  guint32 *counts = g_new0 (guint32, n + 1);

  for (guint i = 0; i < n; i++)
    {
      const BuilderElement *b = &g_array_index (self->elements, BuilderElement, i);

      counts[order[i] + 1] = G_STRUCT_MEMBER (guint32, b, count_field);
    }
  for (guint e = 0; e < n; e++)
    counts[e + 1] += counts[e];
  return counts;
}

static void
copy_attributes (SlGraphBuilder *self,
                 SlGraph        *graph,
                 const guint32  *order)
{
  guint total = self->attrs->len / 2;

  graph->attr_offsets = offsets_in_order (self, order, G_STRUCT_OFFSET (BuilderElement, n_attrs));
  graph->attr_name = g_new (guint32, MAX (total, 1));
  graph->attr_value = g_new (guint32, MAX (total, 1));
  for (guint i = 0; i < self->elements->len; i++)
    {
      const BuilderElement *b = &g_array_index (self->elements, BuilderElement, i);
      guint32 to = graph->attr_offsets[order[i]];

      for (guint k = 0; k < b->n_attrs; k++)
        {
          graph->attr_name[to + k] = g_array_index (self->attrs, guint32, 2 * (b->attr_first + k));
          graph->attr_value[to + k] = g_array_index (self->attrs, guint32, 2 * (b->attr_first + k) + 1);
        }
    }
}

static void
copy_outputs (SlGraphBuilder *self,
              SlGraph        *graph,
              const guint32  *order)
{
  guint total = self->outputs->len;
  guint32 next_dim = 0;

  graph->output_offsets = offsets_in_order (self, order, G_STRUCT_OFFSET (BuilderElement, n_outputs));
  graph->output_dtype = g_new (guint8, MAX (total, 1));
  graph->dims_offsets = g_new (guint32, total + 1);
  graph->dims = g_new (gint64, MAX (self->dims->len, 1));

  /* Walk in graph order so that dims are laid out in it too. */
  {
    g_autofree guint32 *inverse = g_new (guint32, self->elements->len);

    for (guint i = 0; i < self->elements->len; i++)
      inverse[order[i]] = i;
    for (guint e = 0; e < graph->n_elements; e++)
      {
        const BuilderElement *b = &g_array_index (self->elements, BuilderElement, inverse[e]);
        guint32 to = graph->output_offsets[e];

        for (guint k = 0; k < b->n_outputs; k++)
          {
            const BuilderOutput *o = &g_array_index (self->outputs, BuilderOutput, b->output_first + k);

            graph->output_dtype[to + k] = o->dtype;
            graph->dims_offsets[to + k] = next_dim;
            if (o->n_dims > 0)
              memcpy (graph->dims + next_dim, &g_array_index (self->dims, gint64, o->dims_first),
                      o->n_dims * sizeof (gint64));
            next_dim += o->n_dims;
          }
      }
  }
  graph->dims_offsets[total] = next_dim;
}

/* Inputs name an op, a parameter or a constant. When names clash, an op
 * wins over a parameter over a constant, and the first of each kind. */
static guint32 *
name_table (SlGraph *graph)
{
  guint n_strings = sl_intern_table_get_n_strings (graph->strings);
  guint32 *table = g_new (guint32, n_strings);

  memset (table, 0xff, n_strings * sizeof (guint32));
  /* Ops come first in the element order, so walking backwards lets them
   * overwrite, and the first of a kind too. Nothing is ever named by the
   * empty string. */
  for (guint e = graph->n_elements; e-- > 0;)
    table[graph->proto_name[e]] = e;
  table[0] = SL_GRAPH_NONE;
  return table;
}

static void
resolve_inputs (SlGraphBuilder *self,
                SlGraph        *graph,
                const guint32  *order,
                const char     *path)
{
  g_autofree guint32 *table = name_table (graph);
  guint total = self->inputs->len;
  const char *first_dangling = NULL;

  graph->input_offsets = offsets_in_order (self, order, G_STRUCT_OFFSET (BuilderElement, n_inputs));
  graph->input_source = g_new (guint32, MAX (total, 1));
  graph->input_name = g_new (guint32, MAX (total, 1));
  graph->input_kind = g_new (guint8, MAX (total, 1));
  for (guint i = 0; i < self->elements->len; i++)
    {
      const BuilderElement *b = &g_array_index (self->elements, BuilderElement, i);
      guint32 to = graph->input_offsets[order[i]];

      for (guint k = 0; k < b->n_inputs; k++)
        {
          const BuilderInput *in = &g_array_index (self->inputs, BuilderInput, b->input_first + k);
          guint32 source;

          if (in->source == SL_GRAPH_NONE)
            source = table[in->name];
          else
            source = in->source < self->elements->len ? order[in->source] : SL_GRAPH_NONE;

          graph->input_source[to + k] = source;
          graph->input_name[to + k] = in->name;
          graph->input_kind[to + k] = in->kind;
          if (source == SL_GRAPH_NONE)
            {
              if (first_dangling == NULL)
                first_dangling = sl_intern_table_get (graph->strings, in->name);
              graph->n_dangling++;
            }
          else if (in->kind == SL_GRAPH_EDGE_CONTROL)
            graph->n_control_edges++;
          else
            graph->n_data_edges++;
        }
    }

  if (graph->n_dangling > 0)
    {
      g_autofree char *message = g_strdup_printf (_("%u inputs name no node of the graph (the first: “%s”)."),
                                                  graph->n_dangling, first_dangling);
      g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Graph reader"), path != NULL ? path : "",
                                                     -1, message);

      g_ptr_array_add (graph->problems, g_steal_pointer (&problem));
    }
}

/* The distinct consumers of every element, for placement and proxies. */
static void
index_consumers (SlGraph *graph)
{
  guint n = graph->n_elements;
  g_autofree guint32 *seen = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *fill = NULL;

  memset (seen, 0xff, n * sizeof (guint32));
  graph->consumer_offsets = g_new0 (guint32, n + 1);
  for (guint e = 0; e < n; e++)
    for (guint32 k = graph->input_offsets[e]; k < graph->input_offsets[e + 1]; k++)
      {
        guint32 s = graph->input_source[k];

        if (s != SL_GRAPH_NONE && seen[s] != e)
          {
            seen[s] = e;
            graph->consumer_offsets[s + 1]++;
          }
      }
  for (guint e = 0; e < n; e++)
    graph->consumer_offsets[e + 1] += graph->consumer_offsets[e];

  graph->consumers = g_new (guint32, MAX (graph->consumer_offsets[n], 1));
  fill = g_memdup2 (graph->consumer_offsets, n * sizeof (guint32));
  memset (seen, 0xff, n * sizeof (guint32));
  for (guint e = 0; e < n; e++)
    for (guint32 k = graph->input_offsets[e]; k < graph->input_offsets[e + 1]; k++)
      {
        guint32 s = graph->input_source[k];

        if (s != SL_GRAPH_NONE && seen[s] != e)
          {
            seen[s] = e;
            graph->consumers[fill[s]++] = e;
          }
      }
}

static int
compare_guint64 (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static void
index_op_names (SlGraph *graph)
{
  guint n = graph->n_ops;
  g_autofree guint64 *pairs = g_new (guint64, 2 * MAX (n, 1));

  /* Sorted (key, op) pairs; the key packs the two string ids. */
  for (guint e = 0; e < n; e++)
    {
      pairs[2 * e] = ((guint64) graph->name_tail[e] << 32) | graph->name_dir[e];
      pairs[2 * e + 1] = e;
    }
  g_qsort_with_data (pairs, n, 2 * sizeof (guint64), compare_guint64, NULL);
  graph->lookup_key = g_new (guint64, MAX (n, 1));
  graph->lookup_op = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      graph->lookup_key[i] = pairs[2 * i];
      graph->lookup_op[i] = (guint32) pairs[2 * i + 1];
    }
}

static gsize
measure (SlGraph *graph)
{
  gsize n = graph->n_elements, size = sizeof (SlGraph);
  gsize n_attrs = graph->attr_offsets[n], n_inputs = graph->input_offsets[n];
  gsize n_outputs = graph->output_offsets[n];

  size += n * (1 + 8 * 4 + 4 * 4 + 4 + 12);  /* columns, five offset arrays, item, lookup */
  size += n_attrs * 8 + n_inputs * 9 + graph->consumer_offsets[n] * 4;
  size += n_outputs * 5 + graph->dims_offsets[n_outputs] * 8;
  size += graph->n_items * (1 + 4 * 6);
  size += graph->edge_offsets[graph->n_items] * 13;
  size += graph->n_metadata * 8;
  size += sl_intern_table_get_memory_size (graph->strings);
  return size;
}

/**
 * sl_graph_builder_finish:
 *
 * Resolves the inputs, builds the hierarchy and returns the graph. The
 * builder is empty afterwards and only good for freeing.
 *
 * Returns: (transfer full): the graph
 */
SlGraph *
sl_graph_builder_finish (SlGraphBuilder *self)
{
  SlGraph *graph;
  g_autofree guint32 *order = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  graph = g_object_new (SL_TYPE_GRAPH, NULL);
  graph->strings = g_steal_pointer (&self->strings);
  graph->name = self->name;
  graph->root_name = self->root_name;
  for (guint i = 0; i < self->problems->len; i++)
    g_ptr_array_add (graph->problems, g_object_ref (g_ptr_array_index (self->problems, i)));
  graph->n_metadata = self->metadata->len / 2;
  graph->metadata = (guint32 *) g_array_free (g_steal_pointer (&self->metadata), FALSE);
  self->metadata = g_array_new (FALSE, FALSE, sizeof (guint32));

  order = order_elements (self, graph);
  copy_elements (self, graph, order);
  copy_attributes (self, graph, order);
  copy_outputs (self, graph, order);
  resolve_inputs (self, graph, order, self->path);
  index_consumers (graph);
  index_op_names (graph);
  sl_graph_build_hierarchy (graph);
  graph->memory_size = measure (graph);

  self->strings = sl_intern_table_new ();
  return graph;
}
