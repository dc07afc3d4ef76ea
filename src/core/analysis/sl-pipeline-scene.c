/* sl-pipeline-scene.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-flat-scene.h"
#include "sl-pipeline-scene.h"

#define BOX_HEIGHT      44.0
#define RANK_SEPARATION 56.0

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

SlGraphScene *
sl_pipeline_scene_build (const SlPipelineStream *stream,
                         GPtrArray              *problems,
                         GCancellable           *cancellable,
                         GError                **error)
{
  g_autoptr(GArray) boxes = NULL;
  g_autoptr(GArray) edges = NULL;
  g_autoptr(GArray) counts = NULL;
  g_autoptr(GHashTable) seen = NULL;
  guint n;

  g_return_val_if_fail (stream != NULL, NULL);

  n = stream->elements->len;
  boxes = g_array_sized_new (FALSE, TRUE, sizeof (SlGraphSceneBox), n);
  edges = g_array_new (FALSE, TRUE, sizeof (SlLayeredEdge));
  counts = g_array_new (FALSE, TRUE, sizeof (guint));
  seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < n; i++)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i);
      const char *factory = sl_pipeline_element_get_factory (element);
      SlGraphSceneBox box = {
        .width = sl_flat_scene_box_width (element->name, factory),
        .height = BOX_HEIGHT,
        .id = i,
        .shape = SL_GRAPH_SHAPE_OP,
        .heat = -1,
        .label = element->name,
        .detail = factory,
      };

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
      g_array_append_val (boxes, box);

      /* One edge per source, target and kind, counting repeats. */
      for (guint l = 0; l < element->links->len; l++)
        {
          const SlPipelineLink *link = g_ptr_array_index (element->links, l);
          gboolean meta = link->kind == SL_PIPELINE_LINK_NEXT_META;
          SlLayeredEdge edge = { i, link->to, meta ? SL_LAYERED_EDGE_CONTROL : SL_LAYERED_EDGE_DATA };
          guint one = 1;
          gint64 key;
          gpointer found;

          if (link->to == SL_PIPELINE_NO_ELEMENT || link->to >= n)
            continue;
          key = ((gint64)i << 33) | ((gint64)link->to << 1) | meta;
          if ((found = g_hash_table_lookup (seen, &key)) != NULL)
            {
              g_array_index (counts, guint, GPOINTER_TO_UINT (found) - 1)++;
              continue;
            }
          g_array_append_val (edges, edge);
          g_array_append_val (counts, one);
          g_hash_table_insert (seen, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (edges->len));
        }
    }

  return sl_flat_scene_build ((const SlGraphSceneBox *) boxes->data, n, (const SlLayeredEdge *) edges->data,
                              (const guint *) counts->data, edges->len, RANK_SEPARATION, cancellable, error);
}
