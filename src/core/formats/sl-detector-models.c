/* sl-detector-models.c: graphs and models (.pb, ONNX, AIR, OM, MindIR,
 * GraphDef text), recognised by their suffix and their head
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-air-reader.h"
#include "sl-detector-private.h"
#include "sl-graph-def-text.h"
#include "sl-mindir-reader.h"
#include "sl-om-reader.h"
#include "sl-onnx-reader.h"
#include "sl-proto-shape.h"

void
sl_detector_detect_graph (SlDetectorWalk *walk,
                          GFile          *file,
                          GFileInfo      *info)
{
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GError) error = NULL;
  SlFinding *finding;
  const guint8 *data;
  const char *format;
  gsize len;

  if (g_file_info_get_size (info) == 0)
    {
      sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, 0, _("The graph file is empty."));
      return;
    }

  head = sl_sniffer_read_head (file, SL_SNIFFER_HEAD_SIZE, walk->cancellable, &error);
  if (head == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        sl_detector_add_read_problem (walk, file, error);
      return;
    }

  data = g_bytes_get_data (head, &len);
  /* The formats are listed in sl-proto-shape.c. A graph cut off inside
   * a field is still one: the graph reader reads it as far as it goes. */
  format = sl_proto_shape_get_graph_format (data, len, FALSE);
  if (format == NULL)
    {
      g_autofree char *formats = sl_proto_shape_dup_graph_formats ();
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The .pb file is not a model or graph Sightline reads. It reads these .pb formats: %s."),
                                 formats);
      sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, 0, message);
      return;
    }

  sl_detector_add_single_file_finding (walk, SL_FINDING_GRAPH, file, info, &finding);
  sl_finding_add_detail (finding, "format", format);
}

/* Model files named by their suffix, a graph when their head is what the
 * suffix says. @empty and @wrong are the problems of a file that is not;
 * a text format other protos share (@wrong %NULL) is passed over. */
struct _SlDetectorModelFile {
  const char *suffix;
  const char *format;
  gboolean  (*sniff) (const guint8 *data,
                      gsize         size);
  const char *empty;
  const char *wrong;
};

static const SlDetectorModelFile model_files[] = {
  { ".onnx", "ONNX", sl_onnx_sniff, N_("The ONNX model file is empty."),
    N_("The file is named .onnx but does not hold an ONNX model (no ModelProto with a graph at its start).") },
  { ".air", "AIR", sl_air_sniff, N_("The AIR model file is empty."),
    N_("The file is named .air but does not hold an AIR model (no GE ModelDef with a graph at its start).") },
  { ".om", "OM", sl_om_sniff, N_("The OM model file is empty."),
    N_("The file is named .om but does not hold an OM model (it does not start with “IMOD”).") },
  { ".mindir", "MindIR", sl_mindir_sniff, N_("The MindIR model file is empty."),
    N_("The file is named .mindir but does not hold a MindIR model (no ModelProto with an IR version and a graph at its start).") },
  /* Other text protos (a pipeline config, a label map) share the suffix. */
  { ".pbtxt", "TensorFlow GraphDef (text)", sl_graph_def_text_sniff, NULL, NULL },
};

const SlDetectorModelFile *
sl_detector_lookup_model_file (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (model_files); i++)
    if (g_str_has_suffix (name, model_files[i].suffix))
      return &model_files[i];
  return NULL;
}

void
sl_detector_detect_model_file (SlDetectorWalk            *walk,
                               GFile                     *file,
                               GFileInfo                 *info,
                               const SlDetectorModelFile *kind)
{
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GError) error = NULL;
  SlFinding *finding;
  const guint8 *data;
  gsize len;

  head = sl_sniffer_read_head (file, SL_SNIFFER_HEAD_SIZE, walk->cancellable, &error);
  if (head == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        sl_detector_add_read_problem (walk, file, error);
      return;
    }
  data = g_bytes_get_data (head, &len);
  if (!kind->sniff (data, len))
    {
      if (kind->wrong != NULL)
        sl_detector_add_problem (walk, SL_SEVERITY_WARNING, file, 0, len == 0 ? _(kind->empty) : _(kind->wrong));
      return;
    }
  sl_detector_add_single_file_finding (walk, SL_FINDING_GRAPH, file, info, &finding);
  sl_finding_add_detail (finding, "format", kind->format);
}
