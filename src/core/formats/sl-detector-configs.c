/* sl-detector-configs.c: MindX SDK pipelines and tuner configurations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sl-detector-private.h"
#include "sl-pipeline-reader.h"
#include "sl-tuner-config.h"

#define MAX_PIPELINE_SIZE  (1024 * 1024)

void
sl_detector_detect_pipeline (SlDetectorWalk *walk,
                             GFile          *file,
                             GFileInfo      *info)
{
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlPipeline) pipeline = NULL;
  g_autoptr(SlSniffResult) result = NULL;
  g_autoptr(GString) streams = g_string_new (NULL);
  SlFinding *finding;
  guint n_elements = 0;
  const char *data;
  gsize len;

  if (g_file_info_get_size (info) > MAX_PIPELINE_SIZE)
    return;

  contents = sl_sniffer_read_head (file, g_file_info_get_size (info), walk->cancellable, &error);
  if (contents == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        sl_detector_add_read_problem (walk, file, error);
      return;
    }

  data = g_bytes_get_data (contents, &len);

  /* The sniffer knows where JSON goes wrong; json-glib only says so. */
  result = sl_sniffer_sniff_data ((const guint8 *)data, len, len);
  if (result->json_root != SL_JSON_ROOT_OBJECT)
    return;

  /* No real pipeline nests that deep: such a file is something else. */
  if (result->json_too_deep)
    return;
  if (result->error_message != NULL)
    {
      sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, result->error_offset, result->error_message);
      return;
    }

  /* The pipeline reader sees what the check and the SDK see: repeated
   * names once, elements with a string factory. */
  pipeline = sl_pipeline_reader_read_data (NULL, (const guint8 *)data, len);
  if (!sl_pipeline_is_complete (pipeline))
    {
      g_autoptr(SlProblem) damage = g_list_model_get_item (sl_pipeline_get_problems (pipeline), 0);

      if (damage != NULL)
        sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, sl_problem_get_offset (damage), sl_problem_get_message (damage));
      return;
    }

  for (guint i = 0; i < sl_pipeline_get_n_streams (pipeline); i++)
    {
      const SlPipelineStream *stream = sl_pipeline_get_stream (pipeline, i);
      guint n_stream_elements = sl_pipeline_stream_count_runnable (stream);

      if (n_stream_elements > 0)
        {
          if (streams->len > 0)
            g_string_append_c (streams, ',');
          g_string_append (streams, stream->name);
          n_elements += n_stream_elements;
        }
    }

  if (n_elements == 0)
    {
      sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, -1,
                               _("The .pipeline file holds no stream elements (objects with a “factory”)."));
      return;
    }

  sl_detector_add_single_file_finding (walk, SL_FINDING_PIPELINE, file, info, &finding);
  sl_finding_add_detail (finding, "streams", streams->str);
  sl_detector_add_uint_detail (finding, "elements", n_elements);
}

/* A YAML file is a tuner configuration when it has the optimizer's keys;
 * one that has them and mistakes besides is reported, any other YAML is
 * none of Sightline's business. */
void
sl_detector_detect_tuner_config (SlDetectorWalk *walk,
                                 GFile          *file,
                                 GFileInfo      *info)
{
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTunerConfig) config = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = NULL;
  SlFinding *finding;
  gsize len;

  if (g_file_info_get_size (info) > MAX_PIPELINE_SIZE)
    return;
  contents = sl_sniffer_read_head (file, g_file_info_get_size (info), walk->cancellable, &error);
  if (contents == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        sl_detector_add_read_problem (walk, file, error);
      return;
    }
  text = g_strndup (g_bytes_get_data (contents, &len), g_bytes_get_size (contents));
  if (strstr (text, "summary_base_dir") == NULL || strstr (text, "parameters") == NULL)
    return;

  config = sl_tuner_config_new_from_data (name, text, strlen (text), &error);
  if (config == NULL)
    {
      sl_detector_add_problem (walk, SL_SEVERITY_ERROR, file, -1, error->message);
      return;
    }
  sl_detector_add_single_file_finding (walk, SL_FINDING_TUNER_CONFIG, file, info, &finding);
  sl_finding_add_detail (finding, "target", sl_tuner_config_get_target_name (config));
  sl_detector_add_uint_detail (finding, "parameters", sl_tuner_config_get_n_parameters (config));
}
