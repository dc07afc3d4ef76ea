/* graph-fixture.h: MindSpore graphs written byte by byte, for the graph
 * tests and the open benchmark
 *
 * A small protobuf writer (varints and length-delimited fields, nothing
 * else is needed) that writes GraphProto as MindSpore does: nodes named by
 * numbers, full names "scope/OpType-op<N>", inputs naming nodes,
 * parameters or constants. It remembers where each node starts and ends,
 * so the damage tests know what a cut at any byte must keep.
 *
 * graph_fixture_llm() writes the training graph of a 40-layer decoder
 * LLM as MindSpore would record it: forward, gradient and optimizer scopes,
 * per-layer weights with Adam moments, the bookkeeping ops (Load,
 * TupleGetItem, MakeTuple, UpdateState, Depend, with UpdateState chains as
 * control edges) and two broadcast nodes (the attention mask and the
 * rotary table) feeding every layer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

#include "sl-summary-writer.h"

typedef struct {
  GByteArray *bytes;      /* the GraphProto so far */
  GArray     *node_start; /* gsize: offset of each node's field tag */
  GArray     *node_end;   /* gsize: offset after it */
  guint       next_id;
  guint       n_nodes;
} GraphFixture;

G_GNUC_UNUSED static void
fx_varint (GByteArray *out,
           guint64     value)
{
  do
    {
      guint8 byte = value & 0x7f;

      value >>= 7;
      if (value != 0)
        byte |= 0x80;
      g_byte_array_append (out, &byte, 1);
    }
  while (value != 0);
}

G_GNUC_UNUSED static void
fx_tag (GByteArray *out,
        guint       field,
        guint       wire_type)
{
  fx_varint (out, ((guint64) field << 3) | wire_type);
}

G_GNUC_UNUSED static void
fx_uint (GByteArray *out,
         guint       field,
         guint64     value)
{
  fx_tag (out, field, 0);
  fx_varint (out, value);
}

G_GNUC_UNUSED static void
fx_data (GByteArray   *out,
         guint         field,
         const guint8 *data,
         gsize         len)
{
  fx_tag (out, field, 2);
  fx_varint (out, len);
  g_byte_array_append (out, data, len);
}

G_GNUC_UNUSED static void
fx_string (GByteArray *out,
           guint       field,
           const char *text)
{
  if (text != NULL)
    fx_data (out, field, (const guint8 *) text, strlen (text));
}

G_GNUC_UNUSED static void
fx_message (GByteArray *out,
            guint       field,
            GByteArray *message)
{
  fx_data (out, field, message->data, message->len);
}

G_GNUC_UNUSED static GraphFixture *
graph_fixture_new (const char *name)
{
  GraphFixture *fx = g_new0 (GraphFixture, 1);

  fx->bytes = g_byte_array_new ();
  fx->node_start = g_array_new (FALSE, FALSE, sizeof (gsize));
  fx->node_end = g_array_new (FALSE, FALSE, sizeof (gsize));
  fx->next_id = 1;
  /* MindSpore writes the name after the nodes; the reader must not care. */
  (void) name;
  return fx;
}

G_GNUC_UNUSED static void
graph_fixture_free (GraphFixture *fx)
{
  g_byte_array_unref (fx->bytes);
  g_array_unref (fx->node_start);
  g_array_unref (fx->node_end);
  g_free (fx);
}

/* A TypeProto for a tensor of @dtype and shape @dims. */
G_GNUC_UNUSED static GByteArray *
fx_tensor_type (int           dtype,
                const gint64 *dims,
                guint         n_dims)
{
  GByteArray *type = g_byte_array_new ();
  g_autoptr(GByteArray) tensor = g_byte_array_new ();
  g_autoptr(GByteArray) shape = g_byte_array_new ();

  for (guint i = 0; i < n_dims; i++)
    {
      g_autoptr(GByteArray) dim = g_byte_array_new ();

      fx_uint (dim, 1, (guint64) dims[i]);
      fx_message (shape, 1, dim);
    }
  fx_uint (tensor, 1, dtype);
  fx_message (tensor, 2, shape);
  fx_uint (type, 1, 14 /* DT_TENSOR */);
  fx_message (type, 2, tensor);
  return type;
}

/**
 * graph_fixture_node_full:
 * @inputs: names of nodes, parameters or constants
 * @control: per input, TRUE for a control edge (or NULL: all data)
 * @extra: more NodeProto fields to append (or NULL)
 *
 * Returns: (transfer full): the node's name, which is its number
 */
G_GNUC_UNUSED static char *
graph_fixture_node_full (GraphFixture       *fx,
                         const char         *op_type,
                         const char         *scope,
                         const char * const *inputs,
                         const gboolean     *control,
                         guint               n_inputs,
                         GByteArray         *extra)
{
  g_autoptr(GByteArray) node = g_byte_array_new ();
  g_autofree char *name = g_strdup_printf ("%u", fx->next_id);
  g_autofree char *full_name = NULL;
  gsize start = fx->bytes->len, end;
  static const gint64 dims[] = { 8, 4096 };

  if (scope != NULL && scope[0] != '\0')
    full_name = g_strdup_printf ("%s/%s-op%u", scope, op_type, fx->next_id);
  else
    full_name = g_strdup_printf ("%s-op%u", op_type, fx->next_id);
  for (guint i = 0; i < n_inputs; i++)
    {
      g_autoptr(GByteArray) input = g_byte_array_new ();

      fx_string (input, 1, inputs[i]);
      fx_uint (input, 2, control != NULL && control[i] ? 1 : 0);
      fx_message (node, 1, input);
    }
  fx_string (node, 2, name);
  fx_string (node, 3, op_type);
  fx_string (node, 4, scope);
  {
    g_autoptr(GByteArray) type = fx_tensor_type (11, dims, 2);

    fx_message (node, 6, type);
  }
  fx_string (node, 8, full_name);
  if (extra != NULL)
    g_byte_array_append (node, extra->data, extra->len);

  fx_message (fx->bytes, 1, node);
  end = fx->bytes->len;
  g_array_append_val (fx->node_start, start);
  g_array_append_val (fx->node_end, end);
  fx->next_id++;
  fx->n_nodes++;
  return g_steal_pointer (&name);
}

G_GNUC_UNUSED static char *
graph_fixture_node (GraphFixture       *fx,
                    const char         *op_type,
                    const char         *scope,
                    const char * const *inputs,
                    guint               n_inputs)
{
  return graph_fixture_node_full (fx, op_type, scope, inputs, NULL, n_inputs, NULL);
}

G_GNUC_UNUSED static void
graph_fixture_parameter (GraphFixture *fx,
                         const char   *name)
{
  g_autoptr(GByteArray) parameter = g_byte_array_new ();
  g_autoptr(GByteArray) type = NULL;
  static const gint64 dims[] = { 4096, 4096 };

  type = fx_tensor_type (10, dims, 2);
  fx_string (parameter, 1, name);
  fx_message (parameter, 2, type);
  fx_message (fx->bytes, 3, parameter);
}

/* A constant holding an int64 scalar. */
G_GNUC_UNUSED static void
graph_fixture_const (GraphFixture *fx,
                     const char   *key,
                     gint64        value)
{
  g_autoptr(GByteArray) named = g_byte_array_new ();
  g_autoptr(GByteArray) proto = g_byte_array_new ();

  fx_uint (proto, 1, 5 /* DT_INT64 */);
  fx_uint (proto, 3, (guint64) value);
  fx_string (named, 1, key);
  fx_message (named, 2, proto);
  fx_message (fx->bytes, 5, named);
}

/* The GraphProto, with its name (and the debugger's root_name). */
G_GNUC_UNUSED static GBytes *
graph_fixture_finish (GraphFixture *fx,
                      const char   *name,
                      const char   *root_name)
{
  g_autoptr(GByteArray) out = g_byte_array_sized_new (fx->bytes->len + 64);

  g_byte_array_append (out, fx->bytes->data, fx->bytes->len);
  fx_string (out, 2, name);
  fx_string (out, 6, root_name);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* The same graph as field 4 of a ModelProto, after ir_version and domain. */
G_GNUC_UNUSED static GBytes *
graph_fixture_wrap_model (GBytes *graph)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize len;
  const guint8 *data = g_bytes_get_data (graph, &len);

  fx_uint (out, 1, 1);
  fx_string (out, 2, "sightline.test");
  fx_data (out, 4, data, len);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* The LLM */

#define LLM_ROOT "Default/network-TrainOneStepCell/network-WithLossCell/_backbone-LlamaForCausalLM/model-LlamaModel"

typedef struct {
  GraphFixture *fx;
  char         *state;    /* the UpdateState chain so far */
  char         *mask;     /* the broadcast attention mask */
  char         *freqs;    /* the broadcast rotary table */
} LlmGen;

G_GNUC_UNUSED static char *
llm_op (LlmGen     *gen,
        const char *op_type,
        const char *scope,
        const char *a,
        const char *b)
{
  const char *inputs[] = { a, b };

  return graph_fixture_node (gen->fx, op_type, scope, inputs, b != NULL ? 2 : a != NULL ? 1 : 0);
}

/* Load of a parameter, then UpdateState on the chain (control input). */
G_GNUC_UNUSED static char *
llm_load (LlmGen     *gen,
          const char *scope,
          const char *parameter)
{
  const char *load_inputs[] = { parameter, gen->state };
  const gboolean load_control[] = { FALSE, FALSE };
  g_autofree char *load = graph_fixture_node_full (gen->fx, "Load", scope, load_inputs, load_control, 2, NULL);
  const char *update_inputs[] = { gen->state, load };
  const gboolean update_control[] = { TRUE, FALSE };
  char *update = graph_fixture_node_full (gen->fx, "UpdateState", scope, update_inputs, update_control, 2, NULL);

  g_free (gen->state);
  gen->state = update;
  return g_steal_pointer (&load);
}

/* Load, Cast, MatMul, Reshape: one Linear cell. */
G_GNUC_UNUSED static char *
llm_linear (LlmGen     *gen,
            const char *scope,
            const char *weight,
            const char *x)
{
  g_autofree char *load = llm_load (gen, scope, weight);
  g_autofree char *cast = llm_op (gen, "Cast", scope, load, "cst_dtype");
  g_autofree char *matmul = llm_op (gen, "MatMul", scope, x, cast);

  return llm_op (gen, "Reshape", scope, matmul, "cst_shape");
}

G_GNUC_UNUSED static char *
llm_rms_norm (LlmGen     *gen,
              const char *scope,
              const char *weight,
              const char *x)
{
  g_autofree char *load = llm_load (gen, scope, weight);
  g_autofree char *cast = llm_op (gen, "Cast", scope, x, "cst_dtype");
  g_autofree char *square = llm_op (gen, "Square", scope, cast, NULL);
  g_autofree char *mean = llm_op (gen, "ReduceMean", scope, square, "cst_axis");
  g_autofree char *add = llm_op (gen, "Add", scope, mean, "cst_eps");
  g_autofree char *rsqrt = llm_op (gen, "Rsqrt", scope, add, NULL);
  g_autofree char *mul = llm_op (gen, "Mul", scope, cast, rsqrt);

  return llm_op (gen, "Mul", scope, mul, load);
}

G_GNUC_UNUSED static char *
llm_rotary (LlmGen     *gen,
            const char *scope,
            const char *x)
{
  g_autofree char *cos = llm_op (gen, "Mul", scope, x, gen->freqs);
  g_autofree char *rotated = llm_op (gen, "Neg", scope, x, NULL);
  g_autofree char *sin = llm_op (gen, "Mul", scope, rotated, gen->freqs);
  g_autofree char *sum = llm_op (gen, "Add", scope, cos, sin);

  return llm_op (gen, "Transpose", scope, sum, "cst_perm");
}

G_GNUC_UNUSED static char *
llm_layer_forward (LlmGen     *gen,
                   guint       layer,
                   const char *x)
{
  g_autofree char *scope = g_strdup_printf (LLM_ROOT "/layers-CellList/%u-LLamaDecodeLayer", layer);
  g_autofree char *attention = g_strconcat (scope, "/attention-LLamaAttention", NULL);
  g_autofree char *ffn = g_strconcat (scope, "/feed_forward-LlamaFeedForward", NULL);
  g_autofree char *s = NULL, *w = NULL, *norm = NULL, *q = NULL, *k = NULL, *v = NULL;
  g_autofree char *score = NULL, *scaled = NULL, *masked = NULL, *soft = NULL, *ctx = NULL, *out = NULL;
  g_autofree char *residual = NULL, *norm2 = NULL, *gate = NULL, *up = NULL, *act = NULL, *prod = NULL, *down = NULL;

#define W(name) (g_free (w), w = g_strdup_printf ("model.layers.%u.%s", layer, name))
#define S(sub) (g_free (s), s = g_strconcat (scope, sub, NULL))
  norm = llm_rms_norm (gen, S ("/attention_norm-LlamaRMSNorm"), W ("attention_norm.weight"), x);
  q = llm_linear (gen, S ("/attention-LLamaAttention/wq-Linear"), W ("attention.wq.weight"), norm);
  k = llm_linear (gen, S ("/attention-LLamaAttention/wk-Linear"), W ("attention.wk.weight"), norm);
  v = llm_linear (gen, S ("/attention-LLamaAttention/wv-Linear"), W ("attention.wv.weight"), norm);
  {
    g_autofree char *rq = llm_rotary (gen, S ("/attention-LLamaAttention/apply_rotary_emb-RotaryEmbedding"), q);
    g_autofree char *rk = llm_rotary (gen, s, k);

    score = llm_op (gen, "BatchMatMul", attention, rq, rk);
  }
  scaled = llm_op (gen, "Mul", attention, score, "cst_scale");
  masked = llm_op (gen, "Add", attention, scaled, gen->mask);
  soft = llm_op (gen, "Softmax", attention, masked, NULL);
  ctx = llm_op (gen, "BatchMatMul", attention, soft, v);
  out = llm_linear (gen, S ("/attention-LLamaAttention/wo-Linear"), W ("attention.wo.weight"), ctx);
  residual = llm_op (gen, "Add", scope, x, out);
  norm2 = llm_rms_norm (gen, S ("/ffn_norm-LlamaRMSNorm"), W ("ffn_norm.weight"), residual);
  gate = llm_linear (gen, S ("/feed_forward-LlamaFeedForward/w1-Linear"), W ("feed_forward.w1.weight"), norm2);
  up = llm_linear (gen, S ("/feed_forward-LlamaFeedForward/w3-Linear"), W ("feed_forward.w3.weight"), norm2);
  act = llm_op (gen, "SiLU", ffn, gate, NULL);
  prod = llm_op (gen, "Mul", ffn, act, up);
  down = llm_linear (gen, S ("/feed_forward-LlamaFeedForward/w2-Linear"), W ("feed_forward.w2.weight"), prod);
  return llm_op (gen, "Add", scope, residual, down);
#undef W
#undef S
}

G_GNUC_UNUSED static const char * const llm_weights[] = {
  "attention_norm.weight", "attention.wq.weight", "attention.wk.weight", "attention.wv.weight",
  "attention.wo.weight", "ffn_norm.weight", "feed_forward.w1.weight", "feed_forward.w3.weight",
  "feed_forward.w2.weight",
};

/* Gradients mirror the forward scopes under "Gradients/": per weight a
 * chain of grad ops with the TupleGetItem that unpacks their results. */
G_GNUC_UNUSED static char *
llm_layer_backward (LlmGen     *gen,
                    guint       layer,
                    const char *dy,
                    GPtrArray  *grads)
{
  static const char * const grad_ops[] = { "MatMul", "MatMul", "Reshape", "Cast", "Mul", "Add", "ReduceSum",
                                           "Transpose", "BatchMatMul", "SoftmaxGrad", "RsqrtGrad", "SiLUGrad" };
  char *x = g_strdup (dy);

  for (guint w = 0; w < G_N_ELEMENTS (llm_weights); w++)
    {
      g_autofree char *cell = g_strdup (llm_weights[w]);
      char *dot = strrchr (cell, '.');
      g_autofree char *scope = NULL;

      *dot = '\0';
      for (char *p = cell; *p != '\0'; p++)
        if (*p == '.')
          *p = '/';
      scope = g_strdup_printf ("Gradients/" LLM_ROOT "/layers-CellList/%u-LLamaDecodeLayer/%s-grad", layer, cell);
      for (guint i = 0; i < G_N_ELEMENTS (grad_ops); i++)
        {
          g_autofree char *op = llm_op (gen, grad_ops[i], scope, x, i % 3 == 0 ? "cst_shape" : NULL);
          g_autofree char *tuple = llm_op (gen, "MakeTuple", scope, op, x);

          g_free (x);
          x = llm_op (gen, "TupleGetItem", scope, tuple, "cst_index");
        }
      g_ptr_array_add (grads, g_strdup (x));
    }
  return x;
}

/* AdamWeightDecay per weight in the optimizer scope, as MindSpore lays it
 * out: all layers' updates side by side in one scope. */
G_GNUC_UNUSED static void
llm_optimizer (LlmGen     *gen,
               guint       layer,
               GPtrArray  *grads)
{
  const char *scope = "Default/optimizer-AdamWeightDecay";

  for (guint w = 0; w < G_N_ELEMENTS (llm_weights); w++)
    {
      g_autofree char *weight = g_strdup_printf ("model.layers.%u.%s", layer, llm_weights[w]);
      g_autofree char *m = g_strdup_printf ("adam_m.model.layers.%u.%s", layer, llm_weights[w]);
      g_autofree char *v = g_strdup_printf ("adam_v.model.layers.%u.%s", layer, llm_weights[w]);
      g_autofree char *load_w = llm_load (gen, scope, weight);
      g_autofree char *load_m = llm_load (gen, scope, m);
      g_autofree char *load_v = llm_load (gen, scope, v);
      const char *adam_inputs[] = { load_w, load_m, load_v, "learning_rate", "beta1", "beta2",
                                    g_ptr_array_index (grads, w) };
      g_autofree char *adam = graph_fixture_node (gen->fx, "AdamWeightDecay", scope, adam_inputs, 7);
      g_autofree char *item0 = llm_op (gen, "TupleGetItem", scope, adam, "cst_index");
      g_autofree char *item1 = llm_op (gen, "TupleGetItem", scope, adam, "cst_index");
      g_autofree char *tuple = llm_op (gen, "MakeTuple", scope, item0, item1);
      const char *depend_inputs[] = { tuple, gen->state };
      const gboolean depend_control[] = { FALSE, TRUE };
      g_autofree char *depend = graph_fixture_node_full (gen->fx, "Depend", scope, depend_inputs, depend_control, 2, NULL);
      const char *update_inputs[] = { gen->state, depend };
      const gboolean update_control[] = { TRUE, FALSE };
      char *update = graph_fixture_node_full (gen->fx, "UpdateState", scope, update_inputs, update_control, 2, NULL);

      g_free (gen->state);
      gen->state = update;
    }
}

G_GNUC_UNUSED static void
llm_parameters (GraphFixture *fx,
                guint         n_layers)
{
  static const char * const globals[] = { "learning_rate", "beta1", "beta2", "global_step",
                                          "model.tok_embeddings.embedding_weight", "input_ids", "u" };

  for (guint i = 0; i < G_N_ELEMENTS (globals); i++)
    graph_fixture_parameter (fx, globals[i]);
  for (guint layer = 0; layer < n_layers; layer++)
    for (guint w = 0; w < G_N_ELEMENTS (llm_weights); w++)
      {
        g_autofree char *weight = g_strdup_printf ("model.layers.%u.%s", layer, llm_weights[w]);
        g_autofree char *m = g_strdup_printf ("adam_m.%s", weight);
        g_autofree char *v = g_strdup_printf ("adam_v.%s", weight);

        graph_fixture_parameter (fx, weight);
        graph_fixture_parameter (fx, m);
        graph_fixture_parameter (fx, v);
      }
  graph_fixture_const (fx, "cst_dtype", 10);
  graph_fixture_const (fx, "cst_shape", -1);
  graph_fixture_const (fx, "cst_axis", -1);
  graph_fixture_const (fx, "cst_eps", 0);
  graph_fixture_const (fx, "cst_perm", 0);
  graph_fixture_const (fx, "cst_scale", 0);
  graph_fixture_const (fx, "cst_index", 0);
}

/* The GraphProto of an @n_layers decoder LLM (40: about 20,000 ops). */
G_GNUC_UNUSED static GBytes *
graph_fixture_llm (guint  n_layers,
                   guint *n_ops)
{
  GraphFixture *fx = graph_fixture_new ("llm");
  LlmGen gen = { fx, g_strdup ("u"), NULL, NULL };
  g_autoptr(GPtrArray) grads = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *x = NULL;
  g_autofree char *dy = NULL;
  GBytes *bytes;

  gen.mask = llm_op (&gen, "Tile", LLM_ROOT "/casual_mask-LowerTriangularMaskWithDynamic", "input_ids", "cst_shape");
  gen.freqs = llm_op (&gen, "Concat", LLM_ROOT "/freqs_mgr-FreqsMgr", "cst_shape", NULL);
  {
    g_autofree char *load = llm_load (&gen, LLM_ROOT "/tok_embeddings-LlamaEmbedding", "model.tok_embeddings.embedding_weight");

    x = llm_op (&gen, "Gather", LLM_ROOT "/tok_embeddings-LlamaEmbedding", load, "input_ids");
  }
  for (guint layer = 0; layer < n_layers; layer++)
    {
      char *next = llm_layer_forward (&gen, layer, x);

      g_free (x);
      x = next;
    }
  dy = llm_op (&gen, "SoftmaxCrossEntropyWithLogits",
               "Default/network-TrainOneStepCell/network-WithLossCell/_loss_fn-CrossEntropyLoss", x, "input_ids");
  for (guint layer = n_layers; layer-- > 0;)
    {
      char *next;

      g_ptr_array_set_size (grads, 0);
      next = llm_layer_backward (&gen, layer, dy, grads);
      g_free (dy);
      dy = next;
      llm_optimizer (&gen, layer, grads);
    }
  llm_parameters (fx, n_layers);

  if (n_ops != NULL)
    *n_ops = fx->n_nodes;
  bytes = graph_fixture_finish (fx, "llm_train_graph", NULL);
  graph_fixture_free (fx);
  g_free (gen.state);
  g_free (gen.mask);
  g_free (gen.freqs);
  return bytes;
}

/* A MindSpore summary in @folder holding the LLM graph; returns its path. */
G_GNUC_UNUSED static char *
graph_fixture_write_llm_summary (const char  *folder,
                                 guint        n_layers,
                                 guint       *n_ops,
                                 GError     **error)
{
  g_autoptr(GBytes) graph = graph_fixture_llm (n_layers, n_ops);
  g_autoptr(SlSummaryWriter) writer = sl_summary_writer_new (folder, 1700000000, "bench", error);

  if (writer == NULL)
    return NULL;
  if (!sl_summary_writer_add_graph (writer, 0, 1700000000.0, graph, error) ||
      !sl_summary_writer_add_scalar (writer, 1, 1700000001.0, "loss", 2.5f, error) ||
      !sl_summary_writer_close (writer, error))
    return NULL;
  return g_strdup (sl_summary_writer_get_path (writer));
}

/* TensorFlow GraphDefs, for the GraphDef reader's tests: a NodeDef is
 * name 1, op 2, input 3 (repeated), device 4, attr 5 (map entries: key 1,
 * AttrValue 2). Attribute values are passed already encoded. */

G_GNUC_UNUSED static void
tf_attr (GByteArray *node,
         const char *key,
         GByteArray *value)
{
  g_autoptr(GByteArray) entry = g_byte_array_new ();

  fx_string (entry, 1, key);
  fx_message (entry, 2, value);
  fx_message (node, 5, entry);
  g_byte_array_unref (value);
}

/* AttrValue with one length-delimited member (list 1, s 2, shape 7,
 * tensor 8, placeholder 9, func 10). */
G_GNUC_UNUSED static GByteArray *
tf_value_data (guint       field,
               GByteArray *data)
{
  GByteArray *value = g_byte_array_new ();

  fx_message (value, field, data);
  g_byte_array_unref (data);
  return value;
}

/* AttrValue with one varint member (i 3, b 5, type 6). */
G_GNUC_UNUSED static GByteArray *
tf_value_uint (guint   field,
               guint64 number)
{
  GByteArray *value = g_byte_array_new ();

  fx_uint (value, field, number);
  return value;
}

G_GNUC_UNUSED static GByteArray *
tf_value_string (const char *text)
{
  GByteArray *value = g_byte_array_new ();

  fx_data (value, 2, (const guint8 *) text, strlen (text));
  return value;
}

/* TensorShapeProto of @n dims (-1 for unknown). */
G_GNUC_UNUSED static GByteArray *
tf_shape (const gint64 *dims,
          guint         n)
{
  GByteArray *shape = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GByteArray) dim = g_byte_array_new ();

      fx_uint (dim, 1, (guint64) dims[i]);
      fx_message (shape, 2, dim);
    }
  return shape;
}

/* ListValue { shape: [@shape] } for "_output_shapes". */
G_GNUC_UNUSED static GByteArray *
tf_output_shapes (const gint64 *dims,
                  guint         n)
{
  g_autoptr(GByteArray) shape = tf_shape (dims, n);
  GByteArray *list = g_byte_array_new ();

  fx_message (list, 7, shape);
  return tf_value_data (1, list);
}

/* A NodeDef appended to @graph as field 1; *@start and *@end (optional)
 * get where its tag starts and where it ends. @inputs is NULL-terminated;
 * @node (the attributes, or NULL) is consumed. */
G_GNUC_UNUSED static void
tf_node (GByteArray  *graph,
         const char  *name,
         const char  *op,
         const char  *device,
         const char **inputs,
         GByteArray  *attrs,
         GArray      *starts,
         GArray      *ends)
{
  g_autoptr(GByteArray) node = g_byte_array_new ();
  gsize start = graph->len;

  fx_string (node, 1, name);
  fx_string (node, 2, op);
  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    fx_string (node, 3, inputs[i]);
  fx_string (node, 4, device);
  if (attrs != NULL)
    {
      g_byte_array_append (node, attrs->data, attrs->len);
      g_byte_array_unref (attrs);
    }
  fx_message (graph, 1, node);
  if (starts != NULL)
    g_array_append_val (starts, start);
  if (ends != NULL)
    {
      gsize end = graph->len;

      g_array_append_val (ends, end);
    }
}
