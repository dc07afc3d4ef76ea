/* sl-summary-lineage.c: decoding MindSpore lineage events
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mindspore_lineage.pb-c.h"

#include "sl-summary-reader-private.h"

static void
set_lineage_string (SlSummaryRun     *run,
                    SlLineageSection  section,
                    const char       *key,
                    const char       *value)
{
  if (value != NULL)
    sl_summary_run_set_lineage (run, section, key, value);
}

static void
set_lineage_number (SlSummaryRun     *run,
                    SlLineageSection  section,
                    const char       *key,
                    gboolean          has_value,
                    double            value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (has_value)
    sl_summary_run_set_lineage (run, section, key, g_ascii_dtostr (buf, sizeof buf, value));
}

/* The shortest text that reads back as the same float: 0.001f prints as
 * "0.001", not as its double expansion. */
static void
set_lineage_float (SlSummaryRun     *run,
                   SlLineageSection  section,
                   const char       *key,
                   gboolean          has_value,
                   float             value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!has_value)
    return;

  for (int digits = 6; digits <= 9; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if ((float) g_ascii_strtod (buf, NULL) == value)
        break;
    }
  sl_summary_run_set_lineage (run, section, key, buf);
}

static void
add_user_info (SlSummaryRun                      *run,
               const Mindinsight__UserDefinedInfo *info,
               guint                              depth)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* Nesting is bounded by the record size already; the depth guard keeps
   * the stack small for hostile input anyway. */
  if (depth > 16)
    return;

  for (gsize i = 0; i < info->n_map_str; i++)
    if (info->map_str[i]->key != NULL)
      set_lineage_string (run, SL_LINEAGE_USER, info->map_str[i]->key, info->map_str[i]->value);
  for (gsize i = 0; i < info->n_map_int32; i++)
    if (info->map_int32[i]->key != NULL)
      set_lineage_number (run, SL_LINEAGE_USER, info->map_int32[i]->key, TRUE, info->map_int32[i]->value);
  for (gsize i = 0; i < info->n_map_double; i++)
    if (info->map_double[i]->key != NULL)
      sl_summary_run_set_lineage (run, SL_LINEAGE_USER, info->map_double[i]->key,
                                  g_ascii_dtostr (buf, sizeof buf, info->map_double[i]->value));
  for (gsize i = 0; i < info->n_user_info; i++)
    add_user_info (run, info->user_info[i], depth + 1);
}

/* The top level of a LineageEvent, read by hand. When the event is a
 * dataset graph, its bytes are stored as they are, for the iterative
 * dataset graph decoder: protobuf-c would need a stack frame per level of
 * a graph that may nest as deep as it has operations, and then packing
 * would need them again. Several occurrences of the field are one merged
 * message, as protobuf has it; another member of the oneof after them
 * replaces them. Returns SL_SUMMARY_UNDECODABLE for bytes protobuf-c would refuse
 * at this level, SL_SUMMARY_DECODED with *@graph set for a dataset graph, and
 * SL_SUMMARY_DECODED with *@graph %NULL for any other event. */
static SlSummaryDecoded
scan_lineage (const guint8  *payload,
              gsize          len,
              GBytes       **graph)
{
  g_autoptr(GByteArray) merged = NULL;
  gsize graph_start = 0, graph_len = 0;
  guint n_graph_fields = 0;
  guint last_case = 0;
  gboolean has_wall_time = FALSE;
  const guint8 *p = payload;
  const guint8 *end = payload + len;

  *graph = NULL;
  while (p < end)
    {
      guint64 key, value;
      const guint8 *field;
      gsize field_len;
      guint number, wire;

      if (!sl_summary_read_varint (&p, end, &key) || (key >> 3) == 0 || (key >> 3) > G_MAXUINT32)
        return SL_SUMMARY_UNDECODABLE;
      number = (guint) (key >> 3);
      wire = key & 7;
      if ((number == 1 && wire != 1) || (number == 2 && wire != 0) ||
          ((number == 3 || number == 6 || number == 7 || number == 9 || number == 10) && wire != 2))
        return SL_SUMMARY_UNDECODABLE;

      switch (wire)
        {
        case 0:
          if (!sl_summary_read_varint (&p, end, &value))
            return SL_SUMMARY_UNDECODABLE;
          break;
        case 1:
          if (end - p < 8)
            return SL_SUMMARY_UNDECODABLE;
          p += 8;
          has_wall_time |= number == 1;
          break;
        case 5:
          if (end - p < 4)
            return SL_SUMMARY_UNDECODABLE;
          p += 4;
          break;
        case 2:
          if (!sl_summary_read_length_delimited (&p, end, &field, &field_len))
            return SL_SUMMARY_UNDECODABLE;
          if (number == 9)
            {
              if (last_case != 9)
                {
                  n_graph_fields = 0;
                  g_clear_pointer (&merged, g_byte_array_unref);
                }
              if (n_graph_fields++ == 0)
                {
                  graph_start = field - payload;
                  graph_len = field_len;
                }
              else
                {
                  if (merged == NULL)
                    {
                      merged = g_byte_array_sized_new (graph_len + field_len);
                      g_byte_array_append (merged, payload + graph_start, graph_len);
                    }
                  g_byte_array_append (merged, field, field_len);
                }
            }
          if (number == 3 || number == 6 || number == 7 || number == 9 || number == 10)
            last_case = number;
          break;
        default:
          return SL_SUMMARY_UNDECODABLE;
        }
    }

  if (!has_wall_time)
    return SL_SUMMARY_UNDECODABLE;
  if (last_case == 9)
    *graph = merged != NULL ? g_byte_array_free_to_bytes (g_steal_pointer (&merged))
                            : g_bytes_new (payload + graph_start, graph_len);
  return SL_SUMMARY_DECODED;
}

SlSummaryDecoded
sl_summary_decode_lineage (SlSummaryReader *self,
                           SlSummaryRun    *run,
                           const guint8    *payload,
                           gsize            len)
{
  Mindinsight__LineageEvent *event;
  g_autoptr(GBytes) graph = NULL;
  SlSummaryDecoded checked;

  if (scan_lineage (payload, len, &graph) != SL_SUMMARY_DECODED)
    return SL_SUMMARY_UNDECODABLE;
  if (graph != NULL)
    {
      sl_summary_run_set_dataset_graph (run, graph);
      return SL_SUMMARY_DECODED;
    }

  /* UserDefinedInfo nests (user_info), and so may a dataset graph that
   * another member of the oneof replaced. */
  if ((checked = sl_summary_check_nesting (self, &mindinsight__lineage_event__descriptor, payload, len)) != SL_SUMMARY_DECODED)
    return checked;
  event = mindinsight__lineage_event__unpack (&self->allocator, len, payload);
  if (event == NULL)
    return SL_SUMMARY_UNDECODABLE;

  switch (event->what_case)
    {
    case MINDINSIGHT__LINEAGE_EVENT__WHAT_TRAIN_LINEAGE:
      {
        const Mindinsight__TrainLineage *train = event->train_lineage;

        if (train->hyper_parameters != NULL)
          {
            const Mindinsight__TrainLineage__HyperParameters *hp = train->hyper_parameters;

            set_lineage_string (run, SL_LINEAGE_TRAIN, "optimizer", hp->optimizer);
            set_lineage_float (run, SL_LINEAGE_TRAIN, "learning_rate", hp->has_learning_rate, hp->learning_rate);
            set_lineage_string (run, SL_LINEAGE_TRAIN, "loss_function", hp->loss_function);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "epoch", hp->has_epoch, hp->epoch);
            set_lineage_string (run, SL_LINEAGE_TRAIN, "parallel_mode", hp->parallel_mode);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "device_num", hp->has_device_num, hp->device_num);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "batch_size", hp->has_batch_size, hp->batch_size);
          }
        if (train->train_dataset != NULL)
          {
            set_lineage_string (run, SL_LINEAGE_TRAIN, "train_dataset_path",
                                train->train_dataset->train_dataset_path);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "train_dataset_size",
                                train->train_dataset->has_train_dataset_size,
                                train->train_dataset->train_dataset_size);
          }
        if (train->algorithm != NULL)
          {
            set_lineage_string (run, SL_LINEAGE_TRAIN, "network", train->algorithm->network);
            set_lineage_float (run, SL_LINEAGE_TRAIN, "loss", train->algorithm->has_loss, train->algorithm->loss);
          }
        if (train->model != NULL)
          {
            set_lineage_string (run, SL_LINEAGE_TRAIN, "model_path", train->model->path);
            set_lineage_number (run, SL_LINEAGE_TRAIN, "model_size", train->model->has_size,
                                (double) train->model->size);
          }
      }
      break;
    case MINDINSIGHT__LINEAGE_EVENT__WHAT_EVALUATION_LINEAGE:
      {
        const Mindinsight__EvaluationLineage *eval = event->evaluation_lineage;

        set_lineage_string (run, SL_LINEAGE_EVAL, "metric", eval->metric);
        if (eval->valid_dataset != NULL)
          {
            set_lineage_string (run, SL_LINEAGE_EVAL, "valid_dataset_path",
                                eval->valid_dataset->valid_dataset_path);
            set_lineage_number (run, SL_LINEAGE_EVAL, "valid_dataset_size",
                                eval->valid_dataset->has_valid_dataset_size,
                                eval->valid_dataset->valid_dataset_size);
          }
      }
      break;
    case MINDINSIGHT__LINEAGE_EVENT__WHAT_USER_DEFINED_INFO:
      add_user_info (run, event->user_defined_info, 0);
      break;
    case MINDINSIGHT__LINEAGE_EVENT__WHAT_DATASET_GRAPH:   /* taken by scan_lineage() */
    default:
      break;
    }

  return SL_SUMMARY_DECODED;
}
