/* sl-pipeline-scene.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-layered-layout.h"
#include "sl-pipeline-scene.h"

/* Box sizes from the text's length: the core has no fonts, and the
 * canvas draws a label in about 7 units a character at zoom 1. */
#define CHAR_WIDTH   7.0
#define BOX_PADDING  24.0
#define BOX_MIN      96.0
#define BOX_MAX      320.0
#define BOX_HEIGHT   44.0

static double
box_width (const char *label,
           const char *detail)
{
  glong chars = label != NULL ? g_utf8_strlen (label, -1) : 0;

  if (detail != NULL)
    chars = MAX (chars, g_utf8_strlen (detail, -1));
  return CLAMP (chars * CHAR_WIDTH + BOX_PADDING, BOX_MIN, BOX_MAX);
}

gboolean
sl_pipeline_scene_problem_is_about (const SlPipelineStream *stream,
                                    guint                   index,
                                    SlProblem              *problem)
{
  const SlPipelineElement *element;
  const char *subject;
  gint64 offset;

  g_return_val_if_fail (stream != NULL, FALSE);
  g_return_val_if_fail (SL_IS_PROBLEM (problem), FALSE);

  if (index >= stream->elements->len)
    return FALSE;
  element = g_ptr_array_index (stream->elements, index);
  subject = sl_problem_get_subject (problem);
  if (subject == NULL || g_strcmp0 (subject, element->name) != 0)
    return FALSE;

  offset = sl_problem_get_offset (problem);
  if (offset < (gint64)stream->key_span.start || offset >= (gint64)MAX (stream->span.end, stream->key_span.end))
    return FALSE;

  /* At this element, or about a repeated name as a whole: then the
   * element the SDK keeps (the last) carries it. */
  if (offset >= (gint64)element->key_span.start && offset < (gint64)MAX (element->span.end, element->key_span.end))
    return TRUE;
  for (guint i = 0; i < stream->elements->len; i++)
    {
      const SlPipelineElement *other = g_ptr_array_index (stream->elements, i);

      if (i != index && g_strcmp0 (other->name, element->name) == 0 &&
          offset >= (gint64)other->key_span.start && offset < (gint64)MAX (other->span.end, other->key_span.end))
        return FALSE;
    }
  return sl_pipeline_stream_lookup_element (stream, element->name) == index;
}

typedef struct {
  guint32 from;
  guint32 to;
  guint8  kind;
  guint   count;
} LinkEdge;

SlGraphScene *
sl_pipeline_scene_build (const SlPipelineStream *stream,
                         GPtrArray              *problems,
                         GCancellable           *cancellable,
                         GError                **error)
{
  g_autoptr(SlGraphScene) scene = NULL;
  g_autoptr(SlLayeredLayout) layout = NULL;
  g_autoptr(GArray) sizes = NULL;
  g_autoptr(GArray) edges = NULL;
  g_autoptr(GArray) links = NULL;
  g_autoptr(GHashTable) seen = NULL;
  SlLayeredInput input = { 0 };
  guint n;

  g_return_val_if_fail (stream != NULL, NULL);

  n = stream->elements->len;
  sizes = g_array_sized_new (FALSE, TRUE, sizeof (SlLayeredSize), n);
  edges = g_array_new (FALSE, TRUE, sizeof (SlLayeredEdge));
  links = g_array_new (FALSE, TRUE, sizeof (LinkEdge));
  seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < n; i++)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i);
      SlLayeredSize size = { box_width (element->name, sl_pipeline_element_get_factory (element)), BOX_HEIGHT };

      g_array_append_val (sizes, size);

      /* One edge per source, target and kind, counting repeats. */
      for (guint l = 0; l < element->links->len; l++)
        {
          const SlPipelineLink *link = g_ptr_array_index (element->links, l);
          gint64 key;
          gpointer found;

          if (link->to == SL_PIPELINE_NO_ELEMENT || link->to >= n)
            continue;
          key = ((gint64)i << 33) | ((gint64)link->to << 1) | (link->kind == SL_PIPELINE_LINK_NEXT_META);
          if ((found = g_hash_table_lookup (seen, &key)) != NULL)
            {
              g_array_index (links, LinkEdge, GPOINTER_TO_UINT (found) - 1).count++;
              continue;
            }
          {
            LinkEdge edge = { i, link->to, link->kind == SL_PIPELINE_LINK_NEXT_META, 1 };
            SlLayeredEdge layered = {
              i, link->to, edge.kind ? SL_LAYERED_EDGE_CONTROL : SL_LAYERED_EDGE_DATA
            };
            gint64 *stored = g_new (gint64, 1);

            *stored = key;
            g_array_append_val (links, edge);
            g_array_append_val (edges, layered);
            g_hash_table_insert (seen, stored, GUINT_TO_POINTER (links->len));
          }
        }
    }

  input.nodes = (const SlLayeredSize *)(gpointer)sizes->data;
  input.n_nodes = n;
  input.edges = (const SlLayeredEdge *)(gpointer)edges->data;
  input.n_edges = edges->len;
  input.node_separation = 32;
  input.rank_separation = 56;
  input.crossing_budget_ms = 200;

  layout = sl_layered_layout_compute (&input, cancellable, NULL, NULL, error);
  if (layout == NULL)
    return NULL;

  scene = sl_graph_scene_new ();
  for (guint i = 0; i < n; i++)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i);
      const SlLayeredSize *size = &g_array_index (sizes, SlLayeredSize, i);
      SlGraphSceneBox box = { 0 };
      double cx, cy;

      sl_layered_layout_get_node_centre (layout, i, &cx, &cy);
      box.x = cx - size->width / 2;
      box.y = cy - size->height / 2;
      box.width = size->width;
      box.height = size->height;
      box.id = i;
      box.parent = SL_GRAPH_SCENE_NONE;
      box.shape = SL_GRAPH_SHAPE_OP;
      box.heat = -1;
      box.label = element->name;
      box.detail = sl_pipeline_element_get_factory (element);

      for (guint p = 0; problems != NULL && p < problems->len; p++)
        {
          SlProblem *problem = g_ptr_array_index (problems, p);

          if (!sl_pipeline_scene_problem_is_about (stream, i, problem))
            continue;
          if (sl_problem_get_severity (problem) == SL_SEVERITY_ERROR)
            box.flags |= SL_GRAPH_BOX_ERROR;
          else if (sl_problem_get_severity (problem) == SL_SEVERITY_WARNING)
            box.flags |= SL_GRAPH_BOX_WARNING;
        }
      sl_graph_scene_add_box (scene, &box);
    }

  for (guint e = 0; e < links->len; e++)
    {
      const LinkEdge *link = &g_array_index (links, LinkEdge, e);
      const SlLayeredPoint *points;
      guint n_points = 0;

      points = sl_layered_layout_get_edge_points (layout, e, &n_points);
      G_STATIC_ASSERT (sizeof (SlLayeredPoint) == sizeof (SlGraphScenePoint));
      sl_graph_scene_add_edge (scene, link->from, link->to,
                               link->kind ? SL_GRAPH_SCENE_EDGE_CONTROL : SL_GRAPH_SCENE_EDGE_DATA,
                               sl_layered_layout_edge_is_reversed (layout, e), link->count,
                               (const SlGraphScenePoint *)points, n_points);
    }

  sl_graph_scene_finish (scene);
  return g_steal_pointer (&scene);
}
