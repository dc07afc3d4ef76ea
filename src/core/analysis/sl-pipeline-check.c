/* sl-pipeline-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-main-thread.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-pipeline-check.h"

/* FORMATS.md §7: the plugins of the SDK's own test pipelines and of its
 * plugin reference. */
static const char * const sdk_plugins[] = {
  "appsrc", "mxpi_dumpdata", "appsink", "mxpi_imageresize", "mxpi_imagedecoder",
  "mxpi_loaddata", "fakesink", "mxpi_modelinfer", "mxpi_dataserialize", "mxpi_tensorinfer",
  "queue", "mxpi_imagecrop", "mxpi_objectpostprocessor", "filesink", "mxpi_parallel2serial",
  "mxpi_distributor", "tee", "mxpi_classpostprocessor", "mxpi_rtspsrc", "mxpi_videodecoder",
  "mxpi_videoencoder", "mxpi_skipframe", "mxpi_imageencoder", "mxpi_imagenormalize",
  "mxpi_opencvcentercrop", "mxpi_warpperspective", "mxpi_rotation", "mxpi_roigenerator",
  "mxpi_nmsoverlapedroi", "mxpi_objectselector", "mxpi_facealignment", "mxpi_qualitydetection",
  "mxpi_motsimplesort", "mxpi_keypointpostprocessor", "mxpi_semanticsegpostprocessor",
  "mxpi_semanticsegstitcher", "mxpi_textobjectpostprocessor", "mxpi_textgenerationpostprocessor",
  "mxpi_channelselector", "mxpi_channelimagesstitcher", "mxpi_channelosdcoordsconverter",
  "mxpi_object2osdinstances", "mxpi_class2osdinstances", "mxpi_osdinstancemerger",
  "mxpi_opencvosd", "mxpi_bufferstablizer", "mxpi_synchronize", "mxpi_datatransfer",
};

/* Plugins without an input pad, and without an output pad: the only ones
 * that may lack a link in, or a next. */
static const char * const source_plugins[] = { "appsrc", "mxpi_rtspsrc" };
static const char * const sink_plugins[] = { "appsink", "fakesink", "filesink" };

static const struct {
  const char *factory;
  const char *prop;
} required_props[] = {
  { "mxpi_tensorinfer", "modelPath" },
  { "mxpi_modelinfer", "modelPath" },
  { "mxpi_modelinfer", "dataSource" },
  { "mxpi_dataserialize", "outputDataKeys" },
  { "filesink", "location" },
  { "mxpi_rtspsrc", "rtspUrl" },
};

static const char * const element_keys[] = { "props", "factory", "next", "nextMeta" };

typedef struct {
  SlPipeline       *pipeline;
  GPtrArray        *problems;
  guint8           *kept;          /* of the stream being checked: the last of its name */
  guint            *last;          /* the index of the last element of each one's name */
  GHashTable       *extra_plugins;
  char             *project_dir;
  char             *pipeline_dir;
} Check;

static gboolean
in_list (const char        *name,
         const char * const *list,
         gsize               n)
{
  for (gsize i = 0; i < n; i++)
    if (g_strcmp0 (name, list[i]) == 0)
      return TRUE;
  return FALSE;
}

#define IN_LIST(name, list) in_list (name, list, G_N_ELEMENTS (list))

gboolean
sl_pipeline_check_is_sdk_plugin (const char *name)
{
  g_return_val_if_fail (name != NULL, FALSE);
  return IN_LIST (name, sdk_plugins);
}

GHashTable *
sl_pipeline_check_parse_plugins (const char *text)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (text != NULL, names);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *hash = strchr (lines[i], '#');

      if (hash != NULL)
        *hash = '\0';
      g_strstrip (lines[i]);
      if (lines[i][0] != '\0')
        g_hash_table_add (names, g_strdup (lines[i]));
    }
  return names;
}

GHashTable *
sl_pipeline_check_load_user_plugins (GError **error)
{
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "sightline", "mindx-plugins.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) local_error = NULL;

  SL_ASSERT_OFF_MAIN_THREAD ();

  if (!g_file_get_contents (path, &text, NULL, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  return sl_pipeline_check_parse_plugins (text);
}

char *
sl_pipeline_check_guess_project_dir (const char *pipeline_path)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;

  g_return_val_if_fail (pipeline_path != NULL, NULL);

  dir = g_path_get_dirname (pipeline_path);
  base = g_path_get_basename (dir);
  if (g_str_equal (base, "pipeline") || g_str_equal (base, "pipelines"))
    return g_path_get_dirname (dir);
  return g_steal_pointer (&dir);
}

/* ------------------------------------------------------------------ */

static void
add (Check                *check,
     SlSeverity            severity,
     const SlPipelineSpan *span,
     const char           *element,
     const char           *message)
{
  SlProblem *problem = sl_problem_new_at_position (severity, _("Pipeline check"),
                                                   sl_pipeline_get_path (check->pipeline),
                                                   span->start, span->line, span->column,
                                                   element, message);

  g_ptr_array_add (check->problems, problem);
}

static void
addf (Check                *check,
      SlSeverity            severity,
      const SlPipelineSpan *span,
      const char           *element,
      const char           *format,
      ...) G_GNUC_PRINTF (5, 6);

static void
addf (Check                *check,
      SlSeverity            severity,
      const SlPipelineSpan *span,
      const char           *element,
      const char           *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  add (check, severity, span, element, message);
}

/* A second key of the same name in one object: the SDK keeps one. */
static void
check_repeated_keys (Check           *check,
                     GPtrArray       *members,
                     const char      *element)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < members->len; i++)
    {
      const SlPipelineMember *member = g_ptr_array_index (members, i);

      if (!g_hash_table_add (seen, member->key))
        addf (check, SL_SEVERITY_ERROR, &member->key_span, element,
              _("“%s” appears twice in one object; the SDK keeps only one of them"), member->key);
    }
}

static gboolean
is_device_id (const char *text)
{
  gsize n = strlen (text);

  if (n == 0 || n > 3)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isdigit (text[i]))
      return FALSE;
  return atoi (text) < 256;
}

static void
check_config (Check                  *check,
              const SlPipelineStream *stream)
{
  const SlPipelineMember *device = NULL;

  if (stream->n_configs == 0)
    return;
  if (stream->n_configs > 1)
    add (check, SL_SEVERITY_ERROR, &stream->config_key_span, NULL,
         _("The stream has more than one stream_config; the SDK keeps only one of them"));
  if (stream->config_type != SL_PIPELINE_VALUE_OBJECT)
    {
      add (check, SL_SEVERITY_ERROR, &stream->config_span, NULL, _("stream_config is not an object"));
      return;
    }

  check_repeated_keys (check, stream->config, NULL);
  for (guint i = 0; i < stream->config->len; i++)
    {
      const SlPipelineMember *member = g_ptr_array_index (stream->config, i);

      if (g_str_equal (member->key, "deviceId"))
        device = member;
    }
  if (device != NULL &&
      (device->type != SL_PIPELINE_VALUE_STRING || !is_device_id (device->text)))
    {
      g_autofree char *shown = device->type == SL_PIPELINE_VALUE_STRING ? g_strdup_printf ("\"%s\"", device->text)
                                                                         : g_strdup (device->text);

      addf (check, SL_SEVERITY_ERROR, &device->value_span, NULL,
            _("deviceId %s is not a device number: it must be a string such as \"0\""), shown);
    }
}

static void
check_stream_shape (Check                  *check,
                    SlPipeline             *pipeline,
                    guint                   index)
{
  const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, index);

  for (guint i = 0; i < index; i++)
    {
      if (g_str_equal (sl_pipeline_get_stream (pipeline, i)->name, stream->name))
        {
          addf (check, SL_SEVERITY_ERROR, &stream->key_span, NULL,
                _("A second stream named “%s”; the SDK keeps only one of them"), stream->name);
          break;
        }
    }

  if (stream->type != SL_PIPELINE_VALUE_OBJECT)
    {
      addf (check, SL_SEVERITY_ERROR, &stream->span, NULL,
            _("Stream “%s” is not an object of elements"), stream->name);
      return;
    }

  check_config (check, stream);
  if (stream->elements->len == 0)
    addf (check, SL_SEVERITY_ERROR, &stream->key_span, NULL,
          _("Stream “%s” has no elements"), stream->name);
  else if (stream->elements->len > SL_PIPELINE_MAX_ELEMENTS)
    addf (check, SL_SEVERITY_ERROR, &stream->key_span, NULL,
          _("Stream “%s” has %u elements; the SDK takes at most %u"),
          stream->name, stream->elements->len, SL_PIPELINE_MAX_ELEMENTS);
}

/* ------------------------------------------------------------------ */
/* One element on its own */

static void
check_keys (Check                   *check,
            const SlPipelineElement *element)
{
  for (guint i = 0; i < element->members->len; i++)
    {
      const SlPipelineMember *member = g_ptr_array_index (element->members, i);

      if (!IN_LIST (member->key, element_keys))
        addf (check, SL_SEVERITY_ERROR, &member->key_span, element->name,
              _("“%s” is not an element key (props, factory, next or nextMeta)"), member->key);
    }
  check_repeated_keys (check, element->members, element->name);
}

static void
check_factory (Check                   *check,
               const SlPipelineElement *element)
{
  const char *factory = sl_pipeline_element_get_factory (element);

  if (element->factory == NULL)
    {
      add (check, SL_SEVERITY_ERROR, &element->key_span, element->name, _("The element has no factory"));
      return;
    }
  if (factory == NULL)
    {
      addf (check, SL_SEVERITY_ERROR, &element->factory->value_span, element->name,
            _("The factory is a %s, not a string naming a plugin"),
            sl_pipeline_value_type_to_string (element->factory->type));
      return;
    }
  if (!sl_pipeline_check_is_sdk_plugin (factory) &&
      (check->extra_plugins == NULL || !g_hash_table_contains (check->extra_plugins, factory)))
    addf (check, SL_SEVERITY_WARNING, &element->factory->value_span, element->name,
          _("“%s” is not a plugin of the SDK; the app must register it"), factory);
}

static gboolean
is_appsink_name (const char *name)
{
  const char *p = name + strlen ("appsink");

  if (!g_str_has_prefix (name, "appsink") || *p == '\0')
    return FALSE;
  for (; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

static void
check_props (Check                   *check,
             const SlPipelineElement *element)
{
  const char *factory = sl_pipeline_element_get_factory (element);

  if (element->props_member != NULL && element->props_member->type != SL_PIPELINE_VALUE_OBJECT)
    {
      add (check, SL_SEVERITY_ERROR, &element->props_member->value_span, element->name,
           _("props is not an object"));
      return;
    }
  check_repeated_keys (check, element->props, element->name);

  for (guint i = 0; i < G_N_ELEMENTS (required_props); i++)
    {
      if (g_strcmp0 (factory, required_props[i].factory) == 0 &&
          sl_pipeline_element_lookup_prop (element, required_props[i].prop) == NULL)
        addf (check, SL_SEVERITY_ERROR, &element->key_span, element->name,
              _("%s needs the property %s"), factory, required_props[i].prop);
    }

  if (g_strcmp0 (factory, "appsink") == 0 && !is_appsink_name (element->name))
    add (check, SL_SEVERITY_ERROR, &element->key_span, element->name,
         _("An appsink must be named appsink followed by its number (appsink0, appsink1, …)"));
}

static gboolean
is_path_prop (const SlPipelineMember *prop)
{
  if (prop->type != SL_PIPELINE_VALUE_STRING || prop->text[0] == '\0' || !g_str_has_suffix (prop->key, "Path"))
    return FALSE;
  /* a bare library name is looked up in the SDK's library folder */
  return !(g_str_has_suffix (prop->key, "LibPath") && strchr (prop->text, '/') == NULL);
}

static gboolean
path_exists (Check      *check,
             const char *path)
{
  g_autofree char *in_project = NULL;
  g_autofree char *beside = NULL;

  if (g_path_is_absolute (path))
    return g_file_test (path, G_FILE_TEST_EXISTS);
  in_project = g_build_filename (check->project_dir, path, NULL);
  beside = g_build_filename (check->pipeline_dir, path, NULL);
  return g_file_test (in_project, G_FILE_TEST_EXISTS) || g_file_test (beside, G_FILE_TEST_EXISTS);
}

static void
check_paths (Check                   *check,
             const SlPipelineElement *element)
{
  for (guint i = 0; i < element->props->len; i++)
    {
      const SlPipelineMember *prop = g_ptr_array_index (element->props, i);

      if (is_path_prop (prop) && !path_exists (check, prop->text))
        addf (check, SL_SEVERITY_WARNING, &prop->value_span, element->name,
              _("%s “%s” is not in the project folder (it may exist only on the target)"),
              prop->key, prop->text);
    }
}

static void
check_link_shape (Check                   *check,
                  const SlPipelineElement *element,
                  const SlPipelineStream  *stream)
{
  const SlPipelineMember *lists[] = { element->next, element->next_meta };

  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      if (lists[i] != NULL && lists[i]->type != SL_PIPELINE_VALUE_STRING &&
          lists[i]->type != SL_PIPELINE_VALUE_ARRAY)
        addf (check, SL_SEVERITY_ERROR, &lists[i]->value_span, element->name,
              _("%s must be an element name or a list of them"), lists[i]->key);
    }

  for (guint i = 0; i < element->links->len; i++)
    {
      const SlPipelineLink *link = g_ptr_array_index (element->links, i);

      if (link->target == NULL)
        add (check, SL_SEVERITY_ERROR, &link->span, element->name,
             _("A link must be the name of an element (a string)"));
      else if (!link->port_valid)
        addf (check, SL_SEVERITY_ERROR, &link->span, element->name,
              _("“%s” does not end in a port number after the colon"), link->target);
      else if (link->to == SL_PIPELINE_NO_ELEMENT && sl_pipeline_is_complete (check->pipeline))
        addf (check, SL_SEVERITY_ERROR, &link->span, element->name,
              _("“%s” is not an element of stream “%s”"), link->target_name, stream->name);
    }
}

static void
find_kept (Check                  *check,
           const SlPipelineStream *stream)
{
  g_autoptr(GHashTable) last = g_hash_table_new (g_str_hash, g_str_equal);

  g_free (check->kept);
  g_free (check->last);
  check->kept = g_new0 (guint8, stream->elements->len);
  check->last = g_new0 (guint, stream->elements->len);
  for (guint i = 0; i < stream->elements->len; i++)
    g_hash_table_insert (last, ((SlPipelineElement *) g_ptr_array_index (stream->elements, i))->name,
                         GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < stream->elements->len; i++)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i);

      check->last[i] = GPOINTER_TO_UINT (g_hash_table_lookup (last, element->name)) - 1;
      check->kept[i] = check->last[i] == i;
    }
}

static void
check_element (Check                  *check,
               const SlPipelineStream *stream,
               guint                   index)
{
  const SlPipelineElement *element = g_ptr_array_index (stream->elements, index);

  if (!check->kept[index])
    {
      /* the later one is the one the SDK keeps: point at the earlier too */
      const SlPipelineElement *kept =
        g_ptr_array_index (stream->elements, check->last[index]);

      addf (check, SL_SEVERITY_ERROR, &kept->key_span, element->name,
            _("A second element named “%s” (the first is on line %u); the SDK keeps only one of them"),
            element->name, element->key_span.line);
    }

  if (element->type != SL_PIPELINE_VALUE_OBJECT)
    {
      addf (check, SL_SEVERITY_ERROR, &element->span, element->name,
            _("Element “%s” is not an object with factory, props and next"), element->name);
      return;
    }

  check_keys (check, element);
  check_factory (check, element);
  check_props (check, element);
  check_paths (check, element);
  check_link_shape (check, element, stream);
}

/* ------------------------------------------------------------------ */
/* Links between the elements the SDK keeps */

static gint
link_port (const SlPipelineLink *link)
{
  /* a target without a port is its first pad */
  return link->port == SL_PIPELINE_NO_PORT ? 0 : link->port;
}

static gboolean
is_live_link (Check                *check,
              const SlPipelineLink *link)
{
  return link->to != SL_PIPELINE_NO_ELEMENT && link->port_valid && check->kept[link->from];
}

static void
check_destinations (Check                  *check,
                    const SlPipelineStream *stream)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < stream->elements->len; i++)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i);

      for (guint l = 0; element->type == SL_PIPELINE_VALUE_OBJECT && l < element->links->len; l++)
        {
          const SlPipelineLink *link = g_ptr_array_index (element->links, l);
          const SlPipelineLink *first;
          char *key;

          if (!is_live_link (check, link))
            continue;
          key = g_strdup_printf ("%d:%u:%d", link->kind, link->to, link_port (link));
          first = g_hash_table_lookup (seen, key);
          if (first == NULL)
            {
              g_hash_table_insert (seen, key, (gpointer) link);
              continue;
            }
          g_free (key);
          addf (check, SL_SEVERITY_ERROR, &link->span, element->name,
                _("Port %d of “%s” is linked twice (also from “%s”)"), link_port (link), link->target_name,
                ((const SlPipelineElement *) g_ptr_array_index (stream->elements, first->from))->name);
        }
    }
}

static int
compare_ports (gconstpointer a,
               gconstpointer b)
{
  const SlPipelineLink *la = *(const SlPipelineLink * const *) a;
  const SlPipelineLink *lb = *(const SlPipelineLink * const *) b;

  if (la->to != lb->to)
    return la->to < lb->to ? -1 : 1;
  if (la->kind != lb->kind)
    return la->kind < lb->kind ? -1 : 1;
  return link_port (la) - link_port (lb);
}

/* The ports used on each element, per kind, must be 0, 1, 2, …: links
 * sorted by target, kind and port are walked once, and the first link
 * past a gap is reported. */
static void
check_ports (Check                  *check,
             const SlPipelineStream *stream)
{
  g_autoptr(GPtrArray) links = g_ptr_array_new ();
  const SlPipelineLink *group = NULL;
  gint expected = 0;

  for (guint i = 0; i < stream->elements->len; i++)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i);

      for (guint l = 0; element->type == SL_PIPELINE_VALUE_OBJECT && l < element->links->len; l++)
        {
          const SlPipelineLink *link = g_ptr_array_index (element->links, l);

          if (is_live_link (check, link))
            g_ptr_array_add (links, (gpointer) link);
        }
    }
  g_ptr_array_sort (links, compare_ports);

  for (guint i = 0; i < links->len; i++)
    {
      const SlPipelineLink *link = g_ptr_array_index (links, i);
      gint port = link_port (link);

      if (group == NULL || group->to != link->to || group->kind != link->kind)
        {
          group = link;
          expected = 0;
        }
      if (expected < 0 || port == expected - 1)
        continue;  /* reported already, or the same port twice (a repeated destination) */
      if (port != expected)
        {
          addf (check, SL_SEVERITY_ERROR, &link->span,
                ((const SlPipelineElement *) g_ptr_array_index (stream->elements, link->from))->name,
                _("Port %d of “%s” is used but port %d is not: ports count from 0 without gaps"),
                port, link->target_name, expected);
          expected = -1;
          continue;
        }
      expected++;
    }
}

static void
check_pads (Check                  *check,
            const SlPipelineStream *stream)
{
  g_autofree guint *n_in = g_new0 (guint, stream->elements->len);

  for (guint i = 0; i < stream->elements->len; i++)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i);

      for (guint l = 0; element->type == SL_PIPELINE_VALUE_OBJECT && l < element->links->len; l++)
        {
          const SlPipelineLink *link = g_ptr_array_index (element->links, l);

          if (is_live_link (check, link))
            n_in[link->to]++;
        }
    }

  for (guint i = 0; i < stream->elements->len; i++)
    {
      const SlPipelineElement *element = g_ptr_array_index (stream->elements, i);
      const char *factory = sl_pipeline_element_get_factory (element);
      gboolean source = IN_LIST (factory, source_plugins);
      gboolean sink = IN_LIST (factory, sink_plugins);

      if (!check->kept[i] || element->type != SL_PIPELINE_VALUE_OBJECT || factory == NULL)
        continue;

      if (n_in[i] == 0 && !source)
        add (check, SL_SEVERITY_ERROR, &element->key_span, element->name,
             _("Nothing links to this element: its input pad is unlinked"));
      else if (n_in[i] > 0 && source)
        addf (check, SL_SEVERITY_ERROR, &element->key_span, element->name,
              _("This %s has no input pad, yet elements link to it"), factory);

      /* a next that is not a name was reported as such */
      if (element->links->len == 0 && element->next == NULL && element->next_meta == NULL && !sink)
        add (check, SL_SEVERITY_ERROR, &element->key_span, element->name,
             _("The element has no next: its output pad is unlinked"));
      else if (element->links->len > 0 && sink)
        addf (check, SL_SEVERITY_ERROR, &element->key_span, element->name,
              _("This %s has no output pad, yet it has a next"), factory);
    }
}

/* Depth-first over the kept elements without recursion (a hostile file
 * can chain thousands); a link to an element still on the path closes a
 * loop. */
typedef struct {
  guint element;
  guint next_link;
} Visit;

static void
report_loop (Check                  *check,
             const SlPipelineStream *stream,
             GArray                 *path,
             const SlPipelineLink   *link)
{
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean on = FALSE;

  for (guint i = 0; i < path->len; i++)
    {
      guint e = g_array_index (path, Visit, i).element;

      on = on || e == link->to;
      if (on)
        g_string_append_printf (text, "%s → ",
                                ((const SlPipelineElement *) g_ptr_array_index (stream->elements, e))->name);
    }
  g_string_append (text, link->target_name);
  addf (check, SL_SEVERITY_ERROR, &link->span,
        ((const SlPipelineElement *) g_ptr_array_index (stream->elements, link->from))->name,
        _("This link closes a loop: %s"), text->str);
}

static void
check_loops (Check                  *check,
             const SlPipelineStream *stream)
{
  guint n = stream->elements->len;
  g_autofree guint8 *state = g_new0 (guint8, n);   /* 0 new, 1 on the path, 2 done */
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (Visit));

  for (guint root = 0; root < n; root++)
    {
      Visit first = { root, 0 };

      if (state[root] != 0 || !check->kept[root])
        continue;
      state[root] = 1;
      g_array_append_val (path, first);

      while (path->len > 0)
        {
          Visit *visit = &g_array_index (path, Visit, path->len - 1);
          const SlPipelineElement *element = g_ptr_array_index (stream->elements, visit->element);
          const SlPipelineLink *link;

          if (element->type != SL_PIPELINE_VALUE_OBJECT || visit->next_link >= element->links->len)
            {
              state[visit->element] = 2;
              g_array_set_size (path, path->len - 1);
              continue;
            }
          link = g_ptr_array_index (element->links, visit->next_link++);
          if (!is_live_link (check, link))
            continue;
          if (state[link->to] == 1)
            report_loop (check, stream, path, link);
          else if (state[link->to] == 0)
            {
              Visit next = { link->to, 0 };

              state[link->to] = 1;
              g_array_append_val (path, next);
            }
        }
    }
}

/* ------------------------------------------------------------------ */

/* What follows the damage was not read: nothing is said about it. */
static void
drop_after_damage (Check *check,
                   guint  n_read_problems)
{
  gint64 damage = G_MAXINT64;

  for (guint i = 0; i < n_read_problems; i++)
    damage = MIN (damage, sl_problem_get_offset (g_ptr_array_index (check->problems, i)));
  for (guint i = check->problems->len; i > n_read_problems; i--)
    if (sl_problem_get_offset (g_ptr_array_index (check->problems, i - 1)) >= damage)
      g_ptr_array_remove_index (check->problems, i - 1);
}

static int
compare_positions (gconstpointer a,
                   gconstpointer b)
{
  gint64 oa = sl_problem_get_offset (*(SlProblem * const *) a);
  gint64 ob = sl_problem_get_offset (*(SlProblem * const *) b);

  return (oa > ob) - (oa < ob);
}

GPtrArray *
sl_pipeline_check (SlPipeline *pipeline,
                   const char *project_dir,
                   GHashTable *extra_plugins)
{
  GListModel *read_problems;
  Check check = { 0 };

  SL_ASSERT_OFF_MAIN_THREAD ();
  g_return_val_if_fail (SL_IS_PIPELINE (pipeline), NULL);

  check.pipeline = pipeline;
  check.problems = g_ptr_array_new_with_free_func (g_object_unref);
  check.extra_plugins = extra_plugins;
  check.pipeline_dir = g_path_get_dirname (sl_pipeline_get_path (pipeline));
  check.project_dir = project_dir != NULL ? g_strdup (project_dir)
                                          : sl_pipeline_check_guess_project_dir (sl_pipeline_get_path (pipeline));

  read_problems = sl_pipeline_get_problems (pipeline);
  for (guint i = 0; i < g_list_model_get_n_items (read_problems); i++)
    g_ptr_array_add (check.problems, g_list_model_get_item (read_problems, i));

  for (guint s = 0; s < sl_pipeline_get_n_streams (pipeline); s++)
    {
      const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, s);

      check_stream_shape (&check, pipeline, s);
      if (stream->type != SL_PIPELINE_VALUE_OBJECT)
        continue;
      find_kept (&check, stream);
      for (guint i = 0; i < stream->elements->len; i++)
        check_element (&check, stream, i);
      check_destinations (&check, stream);
      check_ports (&check, stream);
      check_loops (&check, stream);
      /* in a cut file the links in and out are partly unread */
      if (sl_pipeline_is_complete (pipeline))
        check_pads (&check, stream);
    }

  if (!sl_pipeline_is_complete (pipeline))
    drop_after_damage (&check, g_list_model_get_n_items (read_problems));

  /* stable: problems at one position keep the order of the rules */
  g_ptr_array_sort (check.problems, compare_positions);

  g_free (check.kept);
  g_free (check.last);
  g_free (check.pipeline_dir);
  g_free (check.project_dir);
  return check.problems;
}
