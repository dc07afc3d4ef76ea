/* sl-timeline-details.c
 *
 * The model keeps no args: they are read back from the event's bytes in
 * the source file only when someone looks at one slice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sl-timeline-details.h"
#include "sl-timeline-renderer.h"

#define MAX_CHILDREN_LISTED 8

void
sl_timeline_detail_free (SlTimelineDetail *detail)
{
  if (detail == NULL)
    return;
  g_free (detail->label);
  g_free (detail->value);
  g_free (detail);
}

static void
add (GPtrArray  *rows,
     const char *label,
     char       *value,
     guint       track,
     guint32     slice)
{
  SlTimelineDetail *d = g_new0 (SlTimelineDetail, 1);

  d->label = g_strdup (label);
  d->value = value;
  d->target.track = track;
  d->target.slice = slice;
  g_ptr_array_add (rows, d);
}

static char *
dup_node_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GValue value = G_VALUE_INIT;
      char *text;

      json_node_get_value (node, &value);
      if (G_VALUE_HOLDS_STRING (&value))
        text = g_value_dup_string (&value);
      else
        {
          GValue str = G_VALUE_INIT;

          g_value_init (&str, G_TYPE_STRING);
          g_value_transform (&value, &str);
          text = g_value_dup_string (&str);
          g_value_unset (&str);
        }
      g_value_unset (&value);
      return text;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  return json_to_string (node, FALSE);
}

/**
 * sl_timeline_read_args:
 *
 * Returns: (transfer full) (element-type SlTimelineDetail): the event's
 *   args in file order, an error row when the file cannot be read, or an
 *   empty array when the event has none
 */
GPtrArray *
sl_timeline_read_args (SlTrace *trace,
                       guint    track,
                       guint32  slice)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_timeline_detail_free);
  const SlTraceSlices *s = sl_trace_get_slices (trace, track);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autofree char *text = NULL;
  JsonNode *root;
  JsonObject *args;
  GList *members;

  if (s == NULL || slice >= s->n_slices || sl_trace_slices_args_offset (s, slice) == SL_TRACE_NO_ARGS)
    return rows;

  text = sl_trace_read_event_text (trace, sl_trace_slices_args_offset (s, slice), sl_trace_slices_args_length (s, slice), &error);
  parser = json_parser_new ();
  if (text == NULL || !json_parser_load_from_data (parser, text, -1, &error))
    {
      add (rows, _("Args"), g_strdup (error ? error->message : ""), G_MAXUINT, 0);
      return rows;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)
      || !json_object_has_member (json_node_get_object (root), "args")
      || !JSON_NODE_HOLDS_OBJECT (json_object_get_member (json_node_get_object (root), "args")))
    return rows;

  args = json_object_get_object_member (json_node_get_object (root), "args");
  members = json_object_get_members (args);
  for (GList *l = members; l != NULL; l = l->next)
    add (rows, l->data, dup_node_text (json_object_get_member (args, l->data)), G_MAXUINT, 0);
  g_list_free (members);

  return rows;
}

static const char *
slice_name (SlTrace             *trace,
            const SlTraceSlices *s,
            guint32              i)
{
  return sl_trace_get_string (trace, sl_trace_slices_name_id (s, i));
}

static char *
describe_target (SlTrace *trace,
                 guint    track,
                 guint32  slice,
                 gint64   at_ns)
{
  const SlTraceSlices *s = sl_trace_get_slices (trace, track);
  g_autofree char *when = sl_timeline_format_instant (at_ns - sl_trace_get_start_ns (trace));

  if (s != NULL && slice < s->n_slices)
    /* Translators: a flow's other end: slice name, track name, time. */
    return g_strdup_printf (_("%s on %s at %s"), slice_name (trace, s, slice),
                            sl_trace_get_track_name (trace, track), when);
  return g_strdup_printf (_("%s at %s"), sl_trace_get_track_name (trace, track), when);
}

/**
 * sl_timeline_describe_slice:
 * @with_args: also read the args from the source file
 *
 * Returns: (transfer full) (element-type SlTimelineDetail): the rows of
 *   Details for one slice: what it is, when, its relatives and flows
 */
GPtrArray *
sl_timeline_describe_slice (SlTrace  *trace,
                            guint     track,
                            guint32   slice,
                            gboolean  with_args)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_timeline_detail_free);
  const SlTraceSlices *s;
  gint64 origin;
  guint process;
  guint n_children = 0;
  const guint32 *flows;
  guint n_flows;
  GString *children;
  const char *pname;

  g_return_val_if_fail (SL_IS_TRACE (trace), rows);

  s = sl_trace_get_slices (trace, track);
  if (s == NULL || slice >= s->n_slices)
    return rows;

  origin = sl_trace_get_start_ns (trace);
  process = sl_trace_get_track_process (trace, track);
  pname = sl_trace_get_process_name (trace, process);

  add (rows, _("Name"), g_strdup (slice_name (trace, s, slice)), G_MAXUINT, 0);
  add (rows, _("Category"), g_strdup (sl_trace_get_string (trace, sl_trace_slices_category_id (s, slice))), G_MAXUINT, 0);
  add (rows, _("Process"), pname && pname[0] ? g_strdup_printf ("%s (%s)", pname, sl_trace_get_process_pid (trace, process))
                                              : g_strdup (sl_trace_get_process_pid (trace, process)), G_MAXUINT, 0);
  add (rows, _("Track"), g_strdup (sl_trace_get_track_name (trace, track)), G_MAXUINT, 0);
  add (rows, _("Start"), sl_timeline_format_instant (sl_trace_slices_start_ns (s, slice) - origin), G_MAXUINT, 0);
  add (rows, _("Duration"), sl_timeline_format_duration (sl_trace_slices_dur_ns (s, slice)), G_MAXUINT, 0);
  add (rows, _("Self time"), sl_timeline_format_duration (sl_trace_slices_self_ns (s, slice)), G_MAXUINT, 0);
  add (rows, _("Depth"), g_strdup_printf ("%u", sl_trace_slices_depth (s, slice)), G_MAXUINT, 0);
  if (sl_trace_slices_flags (s, slice) & SL_TRACE_SLICE_UNFINISHED)
    add (rows, _("State"), g_strdup (_("Not finished: runs to the end of the trace")), G_MAXUINT, 0);
  if (sl_trace_slices_flags (s, slice) & SL_TRACE_SLICE_OVERFLOW)
    add (rows, _("State"), g_strdup (_("Overlaps a sibling without nesting: drawn in an extra lane")), G_MAXUINT, 0);

  if (sl_trace_slices_parent (s, slice) != SL_TRACE_NO_PARENT)
    add (rows, _("Parent"), g_strdup (slice_name (trace, s, sl_trace_slices_parent (s, slice))), track, sl_trace_slices_parent (s, slice));

  /* Children follow their parent in start order, found from depths. */
  children = g_string_new (NULL);
  for (guint32 i = sl_trace_slices_next_child (s, slice, slice); i != G_MAXUINT32; i = sl_trace_slices_next_child (s, slice, i))
    {
      if (n_children == 0)
        add (rows, _("First child"), g_strdup (slice_name (trace, s, i)), track, i);
      if (n_children < MAX_CHILDREN_LISTED)
        g_string_append_printf (children, "%s%s", n_children ? ", " : "", slice_name (trace, s, i));
      n_children++;
    }
  if (n_children > 0)
    {
      if (n_children > MAX_CHILDREN_LISTED)
        g_string_append (children, ", …");
      add (rows, _("Children"), g_strdup_printf ("%u: %s", n_children, children->str), G_MAXUINT, 0);
    }
  g_string_free (children, TRUE);

  flows = sl_trace_get_slice_flows (trace, track, slice, &n_flows);
  for (guint f = 0; f < n_flows; f++)
    {
      const SlTraceFlow *flow = sl_trace_get_flow (trace, flows[f]);

      if (flow->from_track == track && flow->from_slice == slice)
        add (rows, _("Flow to"), describe_target (trace, flow->to_track, flow->to_slice, flow->to_ns),
             flow->to_track, flow->to_slice);
      else if (flow->to_track == track && flow->to_slice == slice)
        add (rows, _("Flow from"), describe_target (trace, flow->from_track, flow->from_slice, flow->from_ns),
             flow->from_track, flow->from_slice);
    }

  if (with_args)
    {
      g_autoptr(GPtrArray) args = sl_timeline_read_args (trace, track, slice);

      for (guint i = 0; i < args->len; i++)
        {
          SlTimelineDetail *a = g_ptr_array_index (args, i);

          add (rows, a->label, g_steal_pointer (&a->value), G_MAXUINT, 0);
        }
    }

  return rows;
}
