/* sl-tensor-compare-report.c: a whole tensor comparison of two runs
 *
 * Loading happens in two steps: the pairs are found and compared into a
 * private batch on the loading thread, then the batch is published to the
 * list model on the thread that owns the report (at once in load, in
 * load_finish after load_async), so items-changed never fires on a worker.
 *
 * Pairs of large tensors are compared one after the other, each by the
 * metric engine's own two threads; the many small pairs of a dump go to
 * a pool of workers, one pair each, since a thread per half of a tiny
 * tensor costs more than it saves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sl-main-thread.h"
#include "sl-mindspore-dump-name.h"
#include "sl-msprobe-dump.h"
#include "sl-problem.h"
#include "sl-tensor-call-rules.h"
#include "sl-tensor-compare-report.h"

/* A pair with more data than this gets the metric engine's threads. */
#define LARGE_PAIR_BYTES (16 * 1024 * 1024)
#define MAX_WORKERS 8

/* The rows and the rest, built on the loading thread. */
typedef struct {
  GPtrArray            *rows;        /* SlTensorCompareRow */
  GArray               *unmatched;   /* SlTensorCompareUnmatched */
  GPtrArray            *problems;    /* SlProblem */
  SlTensorCompareInput  input;
  SlTensorCompareMode   mode;
} Batch;

struct _SlTensorCompareReport
{
  GObject                 parent_instance;

  char                   *npu_path;
  char                   *bench_path;
  SlTensorCompareOptions  options;
  SlTensorPairingFlags    flags;
  SlTensorMapping        *mapping;

  Batch                  *batch;          /* published */
  SlTensorCompareInput    input;
  SlTensorCompareMode     mode;

  /* progress, written by the workers */
  GMutex                  lock;
  guint64                 work_total;
  guint64                 work_done;
  double                  progress;
  double                  progress_notified;
  GMainContext           *progress_context; /* of load_async's caller, or NULL */
  GThread                *load_thread;
};

static void sl_tensor_compare_report_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SlTensorCompareReport, sl_tensor_compare_report, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sl_tensor_compare_report_list_model_init))

enum {
  PROP_0,
  PROP_PROGRESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
unmatched_clear (gpointer data)
{
  SlTensorCompareUnmatched *unmatched = data;

  g_free (unmatched->name);
  g_free (unmatched->reason_text);
}

static Batch *
batch_new (void)
{
  Batch *batch = g_new0 (Batch, 1);

  batch->rows = g_ptr_array_new_with_free_func (g_object_unref);
  batch->unmatched = g_array_new (FALSE, TRUE, sizeof (SlTensorCompareUnmatched));
  g_array_set_clear_func (batch->unmatched, unmatched_clear);
  batch->problems = g_ptr_array_new_with_free_func (g_object_unref);
  return batch;
}

static void
batch_free (Batch *batch)
{
  if (batch == NULL)
    return;
  g_ptr_array_unref (batch->rows);
  g_array_unref (batch->unmatched);
  g_ptr_array_unref (batch->problems);
  g_free (batch);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Batch, batch_free)

static void
sl_tensor_compare_report_finalize (GObject *object)
{
  SlTensorCompareReport *self = SL_TENSOR_COMPARE_REPORT (object);

  g_free (self->npu_path);
  g_free (self->bench_path);
  g_clear_object (&self->mapping);
  batch_free (self->batch);
  g_clear_pointer (&self->progress_context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (sl_tensor_compare_report_parent_class)->finalize (object);
}

static void
sl_tensor_compare_report_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  SlTensorCompareReport *self = SL_TENSOR_COMPARE_REPORT (object);

  switch (prop_id)
    {
    case PROP_PROGRESS:
      g_value_set_double (value, sl_tensor_compare_report_get_progress (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_tensor_compare_report_class_init (SlTensorCompareReportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_tensor_compare_report_finalize;
  object_class->get_property = sl_tensor_compare_report_get_property;

  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_tensor_compare_report_init (SlTensorCompareReport *self)
{
  g_mutex_init (&self->lock);
  self->batch = batch_new ();
}

static GType
list_get_item_type (GListModel *model)
{
  return SL_TYPE_TENSOR_COMPARE_ROW;
}

static guint
list_get_n_items (GListModel *model)
{
  return SL_TENSOR_COMPARE_REPORT (model)->batch->rows->len;
}

static gpointer
list_get_item (GListModel *model,
               guint       position)
{
  SlTensorCompareReport *self = SL_TENSOR_COMPARE_REPORT (model);

  if (position >= self->batch->rows->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->batch->rows, position));
}

static void
sl_tensor_compare_report_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

SlTensorCompareReport *
sl_tensor_compare_report_new (const char                   *npu_path,
                              const char                   *bench_path,
                              const SlTensorCompareOptions *options,
                              SlTensorPairingFlags          flags,
                              SlTensorMapping              *mapping)
{
  SlTensorCompareReport *self;

  g_return_val_if_fail (npu_path != NULL && bench_path != NULL, NULL);
  g_return_val_if_fail (mapping == NULL || SL_IS_TENSOR_MAPPING (mapping), NULL);

  self = g_object_new (SL_TYPE_TENSOR_COMPARE_REPORT, NULL);
  self->npu_path = g_strdup (npu_path);
  self->bench_path = g_strdup (bench_path);
  if (options != NULL)
    self->options = *options;
  else
    sl_tensor_compare_options_init (&self->options);
  self->flags = flags;
  self->mapping = mapping != NULL ? g_object_ref (mapping) : NULL;
  return self;
}

/* ---- progress ---- */

static gboolean
notify_progress_in_context (gpointer data)
{
  g_object_notify_by_pspec (G_OBJECT (data), properties[PROP_PROGRESS]);
  return G_SOURCE_REMOVE;
}

/* Adds @amount of work done; notifies at most every percent, on the
 * context of load_async's caller or on the loading thread. */
static void
add_progress (SlTensorCompareReport *self,
              guint64                amount)
{
  gboolean notify = FALSE;
  GMainContext *context;

  g_mutex_lock (&self->lock);
  self->work_done += amount;
  self->progress = self->work_total > 0 ? MIN (1.0, (double)self->work_done / self->work_total) : 1.0;
  if (self->progress - self->progress_notified >= 0.01 || (self->progress >= 1.0 && self->progress_notified < 1.0))
    {
      self->progress_notified = self->progress;
      notify = TRUE;
    }
  /* a reference, since a new load may replace the context meanwhile */
  context = notify && self->progress_context != NULL ? g_main_context_ref (self->progress_context) : NULL;
  g_mutex_unlock (&self->lock);

  if (!notify)
    return;
  if (context != NULL)
    {
      sl_main_context_dispatch (context, notify_progress_in_context, g_object_ref (self), g_object_unref);
      g_main_context_unref (context);
    }
  else if (g_thread_self () == self->load_thread)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

double
sl_tensor_compare_report_get_progress (SlTensorCompareReport *self)
{
  double progress;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), 0);

  g_mutex_lock (&self->lock);
  progress = self->progress;
  g_mutex_unlock (&self->lock);
  return progress;
}

/* ---- finding the pairs ---- */

static gint64
file_size (const char *path)
{
  GStatBuf buf;

  if (path == NULL || g_stat (path, &buf) != 0)
    return -1;
  return buf.st_size;
}

static void
add_unmatched (Batch             *batch,
               const char        *name,
               SlTensorSide       side,
               SlUnmatchedReason  reason,
               const char        *reason_text)
{
  SlTensorCompareUnmatched unmatched = {
    g_strdup (name), side, reason, g_strdup (reason_text != NULL ? reason_text : sl_unmatched_reason_describe (reason)),
  };

  g_array_append_val (batch->unmatched, unmatched);
}

/* Relative paths of the .npy files under @root, into @names. */
static gboolean
list_npy_files (const char  *root,
                const char  *relative,
                GPtrArray   *names,
                guint        depth,
                GError     **error)
{
  g_autofree char *path = relative != NULL ? g_build_filename (root, relative, NULL) : g_strdup (root);
  g_autoptr(GDir) dir = NULL;
  const char *entry;

  /* Dump trees are shallow; a deeper one is most likely a link loop. */
  if (depth > 32)
    return TRUE;
  if ((dir = g_dir_open (path, 0, error)) == NULL)
    return FALSE;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = relative != NULL ? g_build_filename (relative, entry, NULL) : g_strdup (entry);
      g_autofree char *full = g_build_filename (root, child, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        {
          if (!list_npy_files (root, child, names, depth + 1, error))
            return FALSE;
        }
      else if (g_str_has_suffix (entry, ".npy"))
        g_ptr_array_add (names, g_steal_pointer (&child));
    }
  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

static SlTensorCompareRow *
add_file_row (Batch      *batch,
              const char *name,
              const char *bench_name,
              const char *api,
              const char *npu_file,
              const char *bench_file)
{
  SlTensorCompareRowInit init = {
    .name = name,
    .bench_name = bench_name,
    .api = api,
    .order = batch->rows->len,
    .mode = SL_TENSOR_COMPARE_MODE_DATA,
    .npu_file = npu_file,
    .bench_file = bench_file,
    .npu_bytes = file_size (npu_file),
    .bench_bytes = file_size (bench_file),
    .npu_requires_grad = -1,
    .bench_requires_grad = -1,
  };
  SlTensorCompareRow *row = sl_tensor_compare_row_new (&init);

  g_ptr_array_add (batch->rows, row);
  return row;
}

/* Both lists sorted, so one merge walk outer-joins them. */
static void
pair_by_relative_path (Batch      *batch,
                       const char *npu_root,
                       const char *bench_root,
                       GPtrArray  *npu,
                       GPtrArray  *bench)
{
  guint i = 0, j = 0;

  g_ptr_array_sort (npu, compare_strings);
  g_ptr_array_sort (bench, compare_strings);
  while (i < npu->len || j < bench->len)
    {
      const char *a = i < npu->len ? g_ptr_array_index (npu, i) : NULL;
      const char *b = j < bench->len ? g_ptr_array_index (bench, j) : NULL;
      int order = a == NULL ? 1 : b == NULL ? -1 : strcmp (a, b);

      if (order == 0)
        {
          g_autofree char *npu_file = g_build_filename (npu_root, a, NULL);
          g_autofree char *bench_file = g_build_filename (bench_root, b, NULL);

          add_file_row (batch, a, NULL, NULL, npu_file, bench_file);
          i++, j++;
        }
      else if (order < 0)
        add_unmatched (batch, g_ptr_array_index (npu, i++), SL_TENSOR_SIDE_NPU, SL_UNMATCHED_MISSING,
                       _("No benchmark file has this relative path."));
      else
        add_unmatched (batch, g_ptr_array_index (bench, j++), SL_TENSOR_SIDE_BENCH, SL_UNMATCHED_MISSING,
                       _("No NPU file has this relative path."));
    }
}

/* The parsed MindSpore names of @files, or NULL when one is not such a name. */
static GPtrArray *
parse_mindspore_names (GPtrArray *files)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify)sl_mindspore_dump_name_free);

  for (guint i = 0; i < files->len; i++)
    {
      const char *relative = g_ptr_array_index (files, i);
      g_autofree char *base = g_path_get_basename (relative);
      SlMindsporeDumpName *name = sl_mindspore_dump_name_parse (base);

      if (name == NULL)
        return NULL;
      /* The pairing reports file names; keep the relative path there. */
      g_free (name->file_name);
      name->file_name = g_strdup (relative);
      g_ptr_array_add (names, name);
    }
  return names->len > 0 ? g_steal_pointer (&names) : NULL;
}

static int
compare_by_time (gconstpointer a,
                 gconstpointer b)
{
  const SlMindsporeDumpName *x = *(const SlMindsporeDumpName * const *)a;
  const SlMindsporeDumpName *y = *(const SlMindsporeDumpName * const *)b;

  if (x->timestamp != y->timestamp)
    return x->timestamp < y->timestamp ? -1 : 1;
  return strcmp (x->file_name, y->file_name);
}

static void
pair_by_mindspore_name (Batch      *batch,
                        const char *npu_root,
                        const char *bench_root,
                        GPtrArray  *npu,
                        GPtrArray  *bench)
{
  g_autoptr(GArray) pairs = NULL;

  /* Execution order is the order of the timestamps. */
  g_ptr_array_sort (npu, compare_by_time);
  pairs = sl_mindspore_dump_names_pair (npu, bench);
  for (guint i = 0; i < pairs->len; i++)
    {
      const SlMindsporeDumpPair *pair = &g_array_index (pairs, SlMindsporeDumpPair, i);

      if (pair->npu != NULL && pair->bench != NULL)
        {
          g_autofree char *npu_file = g_build_filename (npu_root, pair->npu->file_name, NULL);
          g_autofree char *bench_file = g_build_filename (bench_root, pair->bench->file_name, NULL);

          add_file_row (batch, pair->npu->file_name, pair->bench->file_name, pair->npu->op_type, npu_file, bench_file);
        }
      else if (pair->npu != NULL)
        add_unmatched (batch, pair->npu->file_name, SL_TENSOR_SIDE_NPU, SL_UNMATCHED_MISSING,
                       _("No benchmark file has this op name, input or output and index."));
      else
        add_unmatched (batch, pair->bench->file_name, SL_TENSOR_SIDE_BENCH, SL_UNMATCHED_MISSING,
                       _("No NPU file has this op name, input or output and index."));
    }
}

static gboolean
collect_folder_pairs (Batch       *batch,
                      const char  *npu_root,
                      const char  *bench_root,
                      GError     **error)
{
  g_autoptr(GPtrArray) npu = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) bench = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) npu_names = NULL;
  g_autoptr(GPtrArray) bench_names = NULL;

  if (!list_npy_files (npu_root, NULL, npu, 0, error) || !list_npy_files (bench_root, NULL, bench, 0, error))
    return FALSE;
  npu_names = parse_mindspore_names (npu);
  bench_names = npu_names != NULL ? parse_mindspore_names (bench) : NULL;
  if (npu_names != NULL && bench_names != NULL)
    {
      batch->input = SL_TENSOR_COMPARE_INPUT_MINDSPORE;
      pair_by_mindspore_name (batch, npu_root, bench_root, npu_names, bench_names);
    }
  else
    {
      batch->input = SL_TENSOR_COMPARE_INPUT_NPY_FOLDERS;
      pair_by_relative_path (batch, npu_root, bench_root, npu, bench);
    }
  return TRUE;
}

/* ---- msprobe dumps ---- */

/* The dump at @path when it is one (a folder with a dump.json at or
 * below it, or dump.json itself), read once for the whole load. */
static SlMsprobeDump *
open_msprobe (const char  *path,
              GError     **error)
{
  g_autofree char *base = g_path_get_basename (path);

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) && !g_str_equal (base, "dump.json"))
    return NULL;
  return sl_msprobe_dump_open (path, error);
}

static SlTensorCompareMode
dump_mode (SlMsprobeDump *dump)
{
  if (g_strcmp0 (sl_msprobe_dump_get_task (dump), "tensor") == 0)
    return SL_TENSOR_COMPARE_MODE_DATA;
  for (guint i = 0; i < sl_msprobe_dump_get_n_tensors (dump); i++)
    if (sl_msprobe_dump_get_tensor (dump, i)->md5 != NULL)
      return SL_TENSOR_COMPARE_MODE_CRC;
  return SL_TENSOR_COMPARE_MODE_STATS;
}

static SlTensorCompareMode
pair_mode (const SlTensorPair  *pair,
           SlTensorCompareMode  dump_default)
{
  if (pair->npu->data_name != NULL && pair->bench->data_name != NULL)
    return SL_TENSOR_COMPARE_MODE_DATA;
  if (pair->npu->md5 != NULL && pair->bench->md5 != NULL)
    return SL_TENSOR_COMPARE_MODE_CRC;
  if (pair->npu->has_stats && pair->bench->has_stats)
    return SL_TENSOR_COMPARE_MODE_STATS;
  return dump_default;
}

static guint64 *
shape_of (const SlMsprobeTensor *tensor)
{
  guint64 *shape = g_new0 (guint64, MAX (tensor->n_dims, 1));

  for (guint i = 0; i < tensor->n_dims; i++)
    shape[i] = (guint64)tensor->shape[i];
  return shape;
}

/* The dump's own sentence about a refused data_name of @tensor. */
static char *
refusal_of (SlMsprobeDump         *dump,
            const SlMsprobeTensor *tensor)
{
  GPtrArray *problems = sl_msprobe_dump_get_problems (dump);
  g_autofree char *prefix = g_strconcat (tensor->key, ": ", NULL);

  for (guint i = 0; i < problems->len; i++)
    {
      const char *message = sl_problem_get_message (g_ptr_array_index (problems, i));

      if (g_str_has_prefix (message, prefix))
        return g_strdup_printf ("%s: %s", sl_msprobe_dump_get_path (dump), message);
    }
  return NULL;
}

static void
add_msprobe_row (Batch              *batch,
                 SlTensorPairing    *pairing,
                 const SlTensorPair *pair,
                 SlTensorCompareMode mode)
{
  SlMsprobeDump *npu = sl_tensor_pairing_get_npu (pairing);
  SlMsprobeDump *bench = sl_tensor_pairing_get_bench (pairing);
  g_autofree char *module_path = sl_msprobe_dump_dup_module_path (npu, pair->npu->entry);
  g_autofree char *api = g_strdup_printf ("%s.%s", pair->npu->api_type, pair->npu->api);
  g_autofree guint64 *npu_shape = shape_of (pair->npu);
  g_autofree guint64 *bench_shape = shape_of (pair->bench);
  g_autofree char *refused = NULL;
  SlStatsComparison stats;
  gboolean has_stats = sl_tensor_pair_compare_stats (pair, &stats);
  SlTensorCompareRowInit init = {
    .name = pair->npu->key,
    .bench_name = pair->bench->key,
    .api = api,
    .module_path = module_path,
    .stack = sl_msprobe_dump_get_stack (npu, pair->npu->entry),
    .call = pair->npu->entry,
    .io = pair->npu->io,
    .order = batch->rows->len,
    .mode = mode,
    .npu_dtype = pair->npu->dtype,
    .bench_dtype = pair->bench->dtype,
    .npu_shape = npu_shape,
    .npu_n_dims = pair->npu->n_dims,
    .bench_shape = bench_shape,
    .bench_n_dims = pair->bench->n_dims,
    .npu_file = pair->npu->data_path,
    .bench_file = pair->bench->data_path,
    .npu_md5 = pair->npu->md5,
    .bench_md5 = pair->bench->md5,
    .stats = has_stats ? &stats : NULL,
    .npu_bytes = file_size (pair->npu->data_path),
    .bench_bytes = file_size (pair->bench->data_path),
    .npu_requires_grad = pair->npu->requires_grad,
    .bench_requires_grad = pair->bench->requires_grad,
  };
  SlTensorCompareRow *row = sl_tensor_compare_row_new (&init);

  g_ptr_array_add (batch->rows, row);
  if (mode != SL_TENSOR_COMPARE_MODE_DATA)
    return;
  if (pair->npu->data_path == NULL)
    refused = refusal_of (npu, pair->npu);
  if (refused == NULL && pair->bench->data_path == NULL)
    refused = refusal_of (bench, pair->bench);
  if (refused != NULL)
    sl_tensor_compare_row_fail (row, refused);
}

static void
add_dump_problems (Batch         *batch,
                   SlMsprobeDump *dump)
{
  GPtrArray *problems = sl_msprobe_dump_get_problems (dump);

  for (guint i = 0; i < problems->len; i++)
    g_ptr_array_add (batch->problems, g_object_ref (g_ptr_array_index (problems, i)));
}

static void
collect_msprobe_pairs (SlTensorCompareReport *self,
                       Batch                 *batch,
                       SlMsprobeDump         *npu,
                       SlMsprobeDump         *bench)
{
  g_autoptr(SlTensorPairing) pairing = NULL;

  add_dump_problems (batch, npu);
  add_dump_problems (batch, bench);
  batch->input = SL_TENSOR_COMPARE_INPUT_MSPROBE;
  batch->mode = dump_mode (npu);

  pairing = sl_tensor_pairing_new (npu, bench, self->flags, self->mapping);
  for (guint i = 0; i < sl_tensor_pairing_get_n_pairs (pairing); i++)
    {
      const SlTensorPair *pair = sl_tensor_pairing_get_pair (pairing, i);

      add_msprobe_row (batch, pairing, pair, pair_mode (pair, batch->mode));
    }
  for (guint i = 0; i < sl_tensor_pairing_get_n_unmatched (pairing); i++)
    {
      const SlTensorUnmatched *unmatched = sl_tensor_pairing_get_unmatched (pairing, i);

      add_unmatched (batch, unmatched->tensor->key, unmatched->side, unmatched->reason, NULL);
    }
}

static gboolean
dump_unreadable (const GError *error,
                 gboolean      folder)
{
  if (error == NULL)
    return FALSE;
  return !folder || !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static gboolean
collect_pairs (SlTensorCompareReport  *self,
               Batch                  *batch,
               GError                **error)
{
  gboolean npu_dir = g_file_test (self->npu_path, G_FILE_TEST_IS_DIR);
  gboolean bench_dir = g_file_test (self->bench_path, G_FILE_TEST_IS_DIR);
  g_autoptr(SlMsprobeDump) npu = NULL;
  g_autoptr(SlMsprobeDump) bench = NULL;
  g_autoptr(GError) npu_error = NULL;
  g_autoptr(GError) bench_error = NULL;
  g_autofree char *name = NULL;

  npu = open_msprobe (self->npu_path, &npu_error);
  bench = open_msprobe (self->bench_path, &bench_error);
  if (npu != NULL && bench != NULL)
    {
      collect_msprobe_pairs (self, batch, npu, bench);
      return TRUE;
    }
  /* A dump.json that is there but cannot be read is the error to show;
   * a folder without one may still hold .npy files. */
  if (dump_unreadable (npu_error, npu_dir))
    {
      g_propagate_error (error, g_steal_pointer (&npu_error));
      return FALSE;
    }
  if (dump_unreadable (bench_error, bench_dir))
    {
      g_propagate_error (error, g_steal_pointer (&bench_error));
      return FALSE;
    }
  if ((npu != NULL) != (bench != NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("NPU and BENCH must both be msprobe dumps when one is"));
      return FALSE;
    }
  if (npu_dir && bench_dir)
    return collect_folder_pairs (batch, self->npu_path, self->bench_path, error);
  if (npu_dir != bench_dir)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("NPU and BENCH must both be .npy files or both be folders"));
      return FALSE;
    }
  batch->input = SL_TENSOR_COMPARE_INPUT_FILES;
  name = g_path_get_basename (self->npu_path);
  add_file_row (batch, name, NULL, NULL, self->npu_path, self->bench_path);
  return TRUE;
}

/* ---- comparing on the workers ---- */

typedef struct {
  SlTensorCompareReport  *self;
  GPtrArray              *rows;      /* the small pairs */
  SlTensorCompareOptions  options;   /* one engine thread each */
  GCancellable           *cancellable;
  gint                    next;
} Pool;

static guint64
row_work (SlTensorCompareRow *row)
{
  /* A pair without data still counts, so statistics dumps move too. */
  return sl_tensor_compare_row_get_data_bytes (row) + 1;
}

typedef struct {
  SlTensorCompareReport *self;
  guint64                work;
  guint64                reported;
} RowProgress;

/* A pair's share of the work moves with its chunks, so the progress
 * moves during one large pair too. */
static void
row_progress_cb (double   fraction,
                 gpointer data)
{
  RowProgress *progress = data;
  guint64 done = (guint64)(fraction * (double)progress->work);

  if (done <= progress->reported)
    return;
  add_progress (progress->self, done - progress->reported);
  progress->reported = done;
}

static void
compute_row (SlTensorCompareReport        *self,
             SlTensorCompareRow           *row,
             const SlTensorCompareOptions *options,
             GCancellable                 *cancellable)
{
  SlTensorCompareOptions row_options = *options;
  RowProgress progress = { self, row_work (row), 0 };

  row_options.progress = row_progress_cb;
  row_options.progress_data = &progress;
  sl_tensor_compare_row_compute (row, &row_options, cancellable);
  if (progress.reported < progress.work)
    add_progress (self, progress.work - progress.reported);
}

static gpointer
run_pool (gpointer data)
{
  Pool *pool = data;
  guint index;

  while ((index = (guint)g_atomic_int_add (&pool->next, 1)) < pool->rows->len)
    {
      if (g_cancellable_is_cancelled (pool->cancellable))
        break;
      compute_row (pool->self, g_ptr_array_index (pool->rows, index), &pool->options, pool->cancellable);
    }
  return NULL;
}

static guint
count_workers (guint n_rows)
{
  guint n = MIN (g_get_num_processors (), MAX_WORKERS);

  return MAX (1, MIN (n, n_rows));
}

static void
compute_rows (SlTensorCompareReport *self,
              Batch                 *batch,
              GCancellable          *cancellable)
{
  g_autoptr(GPtrArray) small = g_ptr_array_new ();
  Pool pool = { self, small, self->options, cancellable, 0 };
  GThread *threads[MAX_WORKERS];
  guint n_workers;

  g_mutex_lock (&self->lock);
  self->work_total = 0;
  self->work_done = 0;
  self->progress = self->progress_notified = 0;
  for (guint i = 0; i < batch->rows->len; i++)
    self->work_total += row_work (g_ptr_array_index (batch->rows, i));
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < batch->rows->len; i++)
    {
      SlTensorCompareRow *row = g_ptr_array_index (batch->rows, i);

      if (sl_tensor_compare_row_get_data_bytes (row) < LARGE_PAIR_BYTES)
        g_ptr_array_add (small, row);
      else if (!g_cancellable_is_cancelled (cancellable))
        compute_row (self, row, &self->options, cancellable);
    }

  pool.options.n_threads = 1;
  n_workers = count_workers (small->len);
  for (guint i = 1; i < n_workers; i++)
    threads[i] = g_thread_new ("sl-tensor-compare-pool", run_pool, &pool);
  run_pool (&pool);
  for (guint i = 1; i < n_workers; i++)
    g_thread_join (threads[i]);
}

static void
add_row_problems (Batch *batch)
{
  for (guint i = 0; i < batch->rows->len; i++)
    {
      SlTensorCompareRow *row = g_ptr_array_index (batch->rows, i);

      const char *damage = sl_tensor_compare_row_get_failed_damage (row);

      /* The problem shows the file and the offset on their own: its
       * message is what is wrong there. */
      if (sl_tensor_compare_row_get_failed (row))
        g_ptr_array_add (batch->problems,
                         sl_problem_new (SL_SEVERITY_ERROR, _("Tensor comparison"),
                                         sl_tensor_compare_row_get_failed_file (row),
                                         sl_tensor_compare_row_get_failed_offset (row),
                                         damage != NULL ? damage : sl_tensor_compare_row_get_reason (row)));
    }
}

static Batch *
load_batch (SlTensorCompareReport  *self,
            GCancellable           *cancellable,
            GError                **error)
{
  g_autoptr(Batch) batch = batch_new ();

  batch->mode = SL_TENSOR_COMPARE_MODE_DATA;
  if (!collect_pairs (self, batch, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  compute_rows (self, batch, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  sl_tensor_call_rules_apply (batch->rows);
  add_row_problems (batch);
  return g_steal_pointer (&batch);
}

/* On the thread that owns the report. */
static void
publish (SlTensorCompareReport *self,
         Batch                 *batch)
{
  guint removed = self->batch->rows->len;

  batch_free (self->batch);
  self->batch = batch;
  self->input = batch->input;
  self->mode = batch->mode;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, batch->rows->len);
}

gboolean
sl_tensor_compare_report_load (SlTensorCompareReport  *self,
                               GCancellable           *cancellable,
                               GError                **error)
{
  Batch *batch;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Progress goes to this thread now, not to an earlier load_async's context. */
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->progress_context, g_main_context_unref);
  g_mutex_unlock (&self->lock);
  self->load_thread = g_thread_self ();
  batch = load_batch (self, cancellable, error);
  self->load_thread = NULL;
  if (batch == NULL)
    return FALSE;
  publish (self, batch);
  return TRUE;
}

static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  SlTensorCompareReport *self = source_object;
  GError *error = NULL;
  Batch *batch = load_batch (self, cancellable, &error);

  if (batch == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, batch, (GDestroyNotify)batch_free);
}

void
sl_tensor_compare_report_load_async (SlTensorCompareReport *self,
                                     GCancellable          *cancellable,
                                     GAsyncReadyCallback    callback,
                                     gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->progress_context, g_main_context_unref);
  self->progress_context = g_main_context_ref_thread_default ();
  g_mutex_unlock (&self->lock);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sl_tensor_compare_report_load_async);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, load_in_thread);
}

gboolean
sl_tensor_compare_report_load_finish (SlTensorCompareReport  *self,
                                      GAsyncResult           *result,
                                      GError                **error)
{
  Batch *batch;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  batch = g_task_propagate_pointer (G_TASK (result), error);
  if (batch == NULL)
    return FALSE;
  publish (self, batch);
  return TRUE;
}

/* ---- what the report holds ---- */

const char *
sl_tensor_compare_report_get_npu_path (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);
  return self->npu_path;
}

const char *
sl_tensor_compare_report_get_bench_path (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);
  return self->bench_path;
}

SlTensorCompareInput
sl_tensor_compare_report_get_input (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), SL_TENSOR_COMPARE_INPUT_UNKNOWN);
  return self->input;
}

SlTensorCompareMode
sl_tensor_compare_report_get_mode (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), SL_TENSOR_COMPARE_MODE_DATA);
  return self->mode;
}

guint
sl_tensor_compare_report_get_n_rows (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), 0);
  return self->batch->rows->len;
}

SlTensorCompareRow *
sl_tensor_compare_report_get_row (SlTensorCompareReport *self,
                                  guint                  index)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);
  g_return_val_if_fail (index < self->batch->rows->len, NULL);
  return g_ptr_array_index (self->batch->rows, index);
}

guint
sl_tensor_compare_report_get_n_unmatched (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), 0);
  return self->batch->unmatched->len;
}

const SlTensorCompareUnmatched *
sl_tensor_compare_report_get_unmatched (SlTensorCompareReport *self,
                                        guint                  index)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);
  g_return_val_if_fail (index < self->batch->unmatched->len, NULL);
  return &g_array_index (self->batch->unmatched, SlTensorCompareUnmatched, index);
}

SlTensorCompareRow *
sl_tensor_compare_report_get_first_divergence (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);

  for (guint i = 0; i < self->batch->rows->len; i++)
    {
      SlTensorCompareRow *row = g_ptr_array_index (self->batch->rows, i);

      if (sl_tensor_compare_row_get_verdict (row) == SL_TENSOR_VERDICT_ERROR)
        return row;
    }
  return NULL;
}

SlTensorCompareRow *
sl_tensor_compare_report_get_first_warning (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);

  for (guint i = 0; i < self->batch->rows->len; i++)
    {
      SlTensorCompareRow *row = g_ptr_array_index (self->batch->rows, i);

      if (sl_tensor_compare_row_get_verdict (row) == SL_TENSOR_VERDICT_WARNING)
        return row;
    }
  return NULL;
}

guint
sl_tensor_compare_report_count_side_unmatched (SlTensorCompareReport *self,
                                               SlTensorSide           side)
{
  guint n = 0;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), 0);

  for (guint i = 0; i < self->batch->unmatched->len; i++)
    n += g_array_index (self->batch->unmatched, SlTensorCompareUnmatched, i).side == side;
  return n;
}

guint
sl_tensor_compare_report_count_side_tensors (SlTensorCompareReport *self,
                                             SlTensorSide           side)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), 0);
  return self->batch->rows->len + sl_tensor_compare_report_count_side_unmatched (self, side);
}

char *
sl_tensor_compare_report_dup_coverage (SlTensorCompareReport *self)
{
  guint compared, npu, bench, npu_left, bench_left;
  g_autofree char *npu_text = NULL;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);

  compared = self->batch->rows->len;
  npu = sl_tensor_compare_report_count_side_tensors (self, SL_TENSOR_SIDE_NPU);
  bench = sl_tensor_compare_report_count_side_tensors (self, SL_TENSOR_SIDE_BENCH);
  npu_left = npu - compared;
  bench_left = bench - compared;
  /* Translators: how many of the NPU run's tensors were compared; the
   * plural follows the total, the second number */
  npu_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u NPU tensor compared",
                                           "%u of %u NPU tensors compared", npu),
                              compared, npu);
  if (npu_left == 0 && bench_left == 0)
    return g_steal_pointer (&npu_text);
  /* Translators: the NPU side's coverage ("4 of 32 NPU tensors compared"),
   * then how many tensors of each side have no partner */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s; %u unmatched, and %u of %u benchmark tensor unmatched",
                                       "%s; %u unmatched, and %u of %u benchmark tensors unmatched", bench),
                          npu_text, npu_left, bench_left, bench);
}

char *
sl_tensor_compare_report_dup_verdict (SlTensorCompareReport *self)
{
  SlTensorCompareRow *row;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);

  if (self->batch->rows->len == 0)
    return g_strdup (_("No tensor of one side has a partner on the other."));
  if ((row = sl_tensor_compare_report_get_first_divergence (self)) != NULL)
    /* Translators: the verdict over a comparison; %s is the tensor's name */
    return g_strdup_printf (_("First divergence: %s"), sl_tensor_compare_row_get_name (row));
  if ((row = sl_tensor_compare_report_get_first_warning (self)) != NULL)
    /* Translators: no pair is an error; %s is the first pair with a warning */
    return g_strdup_printf (_("No pair is an error; first warning: %s"), sl_tensor_compare_row_get_name (row));
  if (self->batch->unmatched->len > 0)
    return g_strdup (_("No compared pair fails, but not every tensor was compared"));
  return g_strdup (_("No pair fails: the NPU run follows its benchmark"));
}

char *
sl_tensor_compare_report_dup_headline (SlTensorCompareReport *self)
{
  g_autofree char *verdict = NULL;
  g_autofree char *coverage = NULL;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);

  verdict = sl_tensor_compare_report_dup_verdict (self);
  if (self->batch->rows->len == 0)
    return g_steal_pointer (&verdict);
  coverage = sl_tensor_compare_report_dup_coverage (self);
  /* Translators: the verdict ("No pair is an error; first warning: X"),
   * then the coverage ("4 of 32 NPU tensors compared; ...") */
  return g_strdup_printf (_("%s (%s)"), verdict, coverage);
}

guint
sl_tensor_compare_report_count_verdict (SlTensorCompareReport *self,
                                        SlTensorVerdict        verdict)
{
  guint n = 0;

  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), 0);

  for (guint i = 0; i < self->batch->rows->len; i++)
    n += sl_tensor_compare_row_get_verdict (g_ptr_array_index (self->batch->rows, i)) == verdict;
  return n;
}

GPtrArray *
sl_tensor_compare_report_get_problems (SlTensorCompareReport *self)
{
  g_return_val_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self), NULL);
  return self->batch->problems;
}

void
sl_tensor_compare_report_set_thresholds (SlTensorCompareReport           *self,
                                         const SlTensorCompareThresholds *thresholds,
                                         gboolean                         dtype_aware)
{
  g_return_if_fail (SL_IS_TENSOR_COMPARE_REPORT (self));
  g_return_if_fail (thresholds != NULL);

  self->options.thresholds = *thresholds;
  self->options.dtype_aware = dtype_aware;
  for (guint i = 0; i < self->batch->rows->len; i++)
    sl_tensor_compare_row_judge (g_ptr_array_index (self->batch->rows, i), &self->options);
  sl_tensor_call_rules_apply (self->batch->rows);
  if (self->batch->rows->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, self->batch->rows->len, self->batch->rows->len);
}
