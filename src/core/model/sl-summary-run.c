/* sl-summary-run.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-summary-run.h"

typedef struct {
  char             *name;
  SlSummaryTagKind  kind;
  gpointer          series;      /* a Sl*Series, or NULL for landscapes */
  GPtrArray        *landscapes;  /* SlSummaryBlob */
} Tag;

struct _SlSummaryRun
{
  GObject     parent_instance;
  char       *name;
  char       *path;
  GPtrArray  *files;
  GPtrArray  *tags;
  GHashTable *tag_index[SL_SUMMARY_TAG_LOSS_LANDSCAPE + 1];
  GPtrArray  *graphs;
  GPtrArray  *lineage[SL_LINEAGE_N_SECTIONS];  /* key, value, key, value … */
  GBytes     *dataset_graph;
  GPtrArray  *problems;
};

G_DEFINE_FINAL_TYPE (SlSummaryRun, sl_summary_run, G_TYPE_OBJECT)

static void
file_free (SlSummaryFile *file)
{
  g_free (file->path);
  g_free (file->name);
  g_free (file);
}

static void
blob_free (SlSummaryBlob *blob)
{
  g_bytes_unref (blob->bytes);
  g_free (blob);
}

static void
tag_free (Tag *tag)
{
  g_free (tag->name);
  g_clear_object (&tag->series);
  g_clear_pointer (&tag->landscapes, g_ptr_array_unref);
  g_free (tag);
}

static void
sl_summary_run_finalize (GObject *object)
{
  SlSummaryRun *self = (SlSummaryRun *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->tags, g_ptr_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (self->tag_index); i++)
    g_clear_pointer (&self->tag_index[i], g_hash_table_unref);
  g_clear_pointer (&self->graphs, g_ptr_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (self->lineage); i++)
    g_clear_pointer (&self->lineage[i], g_ptr_array_unref);
  g_clear_pointer (&self->dataset_graph, g_bytes_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_summary_run_parent_class)->finalize (object);
}

static void
sl_summary_run_class_init (SlSummaryRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_summary_run_finalize;
}

static void
sl_summary_run_init (SlSummaryRun *self)
{
  self->files = g_ptr_array_new_with_free_func ((GDestroyNotify) file_free);
  self->tags = g_ptr_array_new_with_free_func ((GDestroyNotify) tag_free);
  for (guint i = 0; i < G_N_ELEMENTS (self->tag_index); i++)
    self->tag_index[i] = g_hash_table_new (g_str_hash, g_str_equal);
  self->graphs = g_ptr_array_new_with_free_func ((GDestroyNotify) blob_free);
  for (guint i = 0; i < G_N_ELEMENTS (self->lineage); i++)
    self->lineage[i] = g_ptr_array_new_with_free_func (g_free);
  self->problems = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * sl_summary_run_new:
 * @name: the folder's path relative to the opened folder ("." for itself)
 * @path: the folder, or the single file that was opened
 *
 * Returns: (transfer full): an empty run
 */
SlSummaryRun *
sl_summary_run_new (const char *name,
                    const char *path)
{
  SlSummaryRun *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_SUMMARY_RUN, NULL);
  self->name = g_strdup (name);
  self->path = g_strdup (path);

  return self;
}

const char *
sl_summary_run_get_name (SlSummaryRun *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  return self->name;
}

const char *
sl_summary_run_get_path (SlSummaryRun *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  return self->path;
}

guint
sl_summary_run_get_n_files (SlSummaryRun *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), 0);
  return self->files->len;
}

/**
 * sl_summary_run_get_file:
 *
 * Returns: (transfer none): the file's reading state, in reading order
 */
SlSummaryFile *
sl_summary_run_get_file (SlSummaryRun *self,
                         guint         index)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (index < self->files->len, NULL);
  return g_ptr_array_index (self->files, index);
}

/**
 * sl_summary_run_ensure_file:
 *
 * Returns: (transfer none): the state of @path, added at the end when new
 */
SlSummaryFile *
sl_summary_run_ensure_file (SlSummaryRun      *self,
                            const char        *path,
                            SlSummaryFileKind  kind)
{
  SlSummaryFile *file;

  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < self->files->len; i++)
    {
      file = g_ptr_array_index (self->files, i);
      if (g_str_equal (file->path, path))
        return file;
    }

  file = g_new0 (SlSummaryFile, 1);
  file->path = g_strdup (path);
  file->name = g_path_get_basename (path);
  file->kind = kind;
  g_ptr_array_add (self->files, file);

  return file;
}

guint
sl_summary_run_get_n_tags (SlSummaryRun *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), 0);
  return self->tags->len;
}

const char *
sl_summary_run_get_tag_name (SlSummaryRun *self,
                             guint         index)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (index < self->tags->len, NULL);
  return ((Tag *) g_ptr_array_index (self->tags, index))->name;
}

SlSummaryTagKind
sl_summary_run_get_tag_kind (SlSummaryRun *self,
                             guint         index)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), 0);
  g_return_val_if_fail (index < self->tags->len, 0);
  return ((Tag *) g_ptr_array_index (self->tags, index))->kind;
}

/**
 * sl_summary_run_get_tag_series:
 *
 * Returns: (transfer none) (nullable): the SlScalarSeries,
 *   SlHistogramSeries, SlImageSeries or SlTensorSeries of the tag, or
 *   %NULL for a loss landscape (see sl_summary_run_get_landscapes())
 */
gpointer
sl_summary_run_get_tag_series (SlSummaryRun *self,
                               guint         index)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (index < self->tags->len, NULL);
  return ((Tag *) g_ptr_array_index (self->tags, index))->series;
}

/**
 * sl_summary_run_find_tag:
 *
 * Returns: the index of the tag, or -1
 */
gint
sl_summary_run_find_tag (SlSummaryRun     *self,
                         SlSummaryTagKind  kind,
                         const char       *tag)
{
  gpointer value;

  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), -1);
  g_return_val_if_fail (kind <= SL_SUMMARY_TAG_LOSS_LANDSCAPE, -1);
  g_return_val_if_fail (tag != NULL, -1);

  if (!g_hash_table_lookup_extended (self->tag_index[kind], tag, NULL, &value))
    return -1;
  return GPOINTER_TO_INT (value);
}

/**
 * sl_summary_run_get_tag_info:
 * @first_step: (out) (optional): the first step, 0 without points
 * @last_step: (out) (optional): the last step, 0 without points
 *
 * Returns: the number of points of the tag
 */
guint
sl_summary_run_get_tag_info (SlSummaryRun *self,
                             guint         index,
                             gint64       *first_step,
                             gint64       *last_step)
{
  const gint64 *steps = NULL;
  guint n = 0;
  Tag *tag;

  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), 0);
  g_return_val_if_fail (index < self->tags->len, 0);

  tag = g_ptr_array_index (self->tags, index);
  switch (tag->kind)
    {
    case SL_SUMMARY_TAG_SCALAR:
      n = sl_scalar_series_get_n_points (tag->series);
      steps = sl_scalar_series_get_steps (tag->series);
      break;
    case SL_SUMMARY_TAG_HISTOGRAM:
      n = sl_histogram_series_get_n_points (tag->series);
      steps = sl_histogram_series_get_steps (tag->series);
      break;
    case SL_SUMMARY_TAG_IMAGE:
      n = sl_image_series_get_n_points (tag->series);
      steps = sl_image_series_get_steps (tag->series);
      break;
    case SL_SUMMARY_TAG_TENSOR:
      n = sl_tensor_series_get_n_points (tag->series);
      steps = sl_tensor_series_get_steps (tag->series);
      break;
    case SL_SUMMARY_TAG_LOSS_LANDSCAPE:
    default:
      n = tag->landscapes->len;
      break;
    }

  if (first_step != NULL)
    *first_step = 0;
  if (last_step != NULL)
    *last_step = 0;
  if (n > 0 && steps != NULL)
    {
      if (first_step != NULL)
        *first_step = steps[0];
      if (last_step != NULL)
        *last_step = steps[n - 1];
    }
  else if (n > 0)
    {
      const SlSummaryBlob *first = g_ptr_array_index (tag->landscapes, 0);
      const SlSummaryBlob *last = g_ptr_array_index (tag->landscapes, n - 1);

      if (first_step != NULL)
        *first_step = first->step;
      if (last_step != NULL)
        *last_step = last->step;
    }

  return n;
}

static Tag *
ensure_tag (SlSummaryRun     *self,
            SlSummaryTagKind  kind,
            const char       *name)
{
  gpointer value;
  Tag *tag;

  if (g_hash_table_lookup_extended (self->tag_index[kind], name, NULL, &value))
    return g_ptr_array_index (self->tags, GPOINTER_TO_INT (value));

  tag = g_new0 (Tag, 1);
  tag->name = g_strdup (name);
  tag->kind = kind;
  switch (kind)
    {
    case SL_SUMMARY_TAG_SCALAR:
      tag->series = sl_scalar_series_new (name);
      break;
    case SL_SUMMARY_TAG_HISTOGRAM:
      tag->series = sl_histogram_series_new (name);
      break;
    case SL_SUMMARY_TAG_IMAGE:
      tag->series = sl_image_series_new (name);
      break;
    case SL_SUMMARY_TAG_TENSOR:
      tag->series = sl_tensor_series_new (name);
      break;
    case SL_SUMMARY_TAG_LOSS_LANDSCAPE:
    default:
      tag->landscapes = g_ptr_array_new_with_free_func ((GDestroyNotify) blob_free);
      break;
    }
  g_hash_table_insert (self->tag_index[kind], tag->name, GINT_TO_POINTER (self->tags->len));
  g_ptr_array_add (self->tags, tag);

  return tag;
}

/**
 * sl_summary_run_ensure_scalars:
 *
 * Returns: (transfer none): the series of @tag, created when new
 */
SlScalarSeries *
sl_summary_run_ensure_scalars (SlSummaryRun *self,
                               const char   *tag)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (tag != NULL, NULL);
  return ensure_tag (self, SL_SUMMARY_TAG_SCALAR, tag)->series;
}

SlHistogramSeries *
sl_summary_run_ensure_histograms (SlSummaryRun *self,
                                  const char   *tag)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (tag != NULL, NULL);
  return ensure_tag (self, SL_SUMMARY_TAG_HISTOGRAM, tag)->series;
}

SlImageSeries *
sl_summary_run_ensure_images (SlSummaryRun *self,
                              const char   *tag)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (tag != NULL, NULL);
  return ensure_tag (self, SL_SUMMARY_TAG_IMAGE, tag)->series;
}

SlTensorSeries *
sl_summary_run_ensure_tensors (SlSummaryRun *self,
                               const char   *tag)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (tag != NULL, NULL);
  return ensure_tag (self, SL_SUMMARY_TAG_TENSOR, tag)->series;
}

static SlSummaryBlob *
blob_new (gint64  step,
          double  wall_time,
          GBytes *bytes)
{
  SlSummaryBlob *blob = g_new0 (SlSummaryBlob, 1);

  blob->step = step;
  blob->wall_time = wall_time;
  blob->bytes = g_bytes_ref (bytes);

  return blob;
}

void
sl_summary_run_add_landscape (SlSummaryRun *self,
                              const char   *tag,
                              gint64        step,
                              double        wall_time,
                              GBytes       *bytes)
{
  g_return_if_fail (SL_IS_SUMMARY_RUN (self));
  g_return_if_fail (tag != NULL);
  g_return_if_fail (bytes != NULL);

  g_ptr_array_add (ensure_tag (self, SL_SUMMARY_TAG_LOSS_LANDSCAPE, tag)->landscapes,
                   blob_new (step, wall_time, bytes));
}

/**
 * sl_summary_run_get_landscapes:
 *
 * Returns: (transfer none) (element-type SlSummaryBlob) (nullable): the
 *   serialized LossLandscape messages of a loss-landscape tag
 */
GPtrArray *
sl_summary_run_get_landscapes (SlSummaryRun *self,
                               guint         index)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (index < self->tags->len, NULL);
  return ((Tag *) g_ptr_array_index (self->tags, index))->landscapes;
}

void
sl_summary_run_add_graph (SlSummaryRun *self,
                          gint64        step,
                          double        wall_time,
                          GBytes       *bytes)
{
  g_return_if_fail (SL_IS_SUMMARY_RUN (self));
  g_return_if_fail (bytes != NULL);

  g_ptr_array_add (self->graphs, blob_new (step, wall_time, bytes));
}

/**
 * sl_summary_run_get_graphs:
 *
 * Returns: (transfer none) (element-type SlSummaryBlob): the serialized
 *   GraphProto messages, in reading order
 */
GPtrArray *
sl_summary_run_get_graphs (SlSummaryRun *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  return self->graphs;
}

/**
 * sl_summary_run_set_lineage:
 * @value: (nullable): %NULL to remove the key
 *
 * Sets one lineage value; a later event replaces an earlier one, as in
 * MindInsight.
 */
void
sl_summary_run_set_lineage (SlSummaryRun     *self,
                            SlLineageSection  section,
                            const char       *key,
                            const char       *value)
{
  GPtrArray *pairs;

  g_return_if_fail (SL_IS_SUMMARY_RUN (self));
  g_return_if_fail (section < SL_LINEAGE_N_SECTIONS);
  g_return_if_fail (key != NULL);

  pairs = self->lineage[section];
  for (guint i = 0; i + 1 < pairs->len; i += 2)
    {
      if (g_str_equal (g_ptr_array_index (pairs, i), key))
        {
          if (value == NULL)
            {
              g_ptr_array_remove_range (pairs, i, 2);
            }
          else
            {
              g_free (g_ptr_array_index (pairs, i + 1));
              g_ptr_array_index (pairs, i + 1) = g_strdup (value);
            }
          return;
        }
    }

  if (value != NULL)
    {
      g_ptr_array_add (pairs, g_strdup (key));
      g_ptr_array_add (pairs, g_strdup (value));
    }
}

const char *
sl_summary_run_get_lineage (SlSummaryRun     *self,
                            SlLineageSection  section,
                            const char       *key)
{
  GPtrArray *pairs;

  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (section < SL_LINEAGE_N_SECTIONS, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  pairs = self->lineage[section];
  for (guint i = 0; i + 1 < pairs->len; i += 2)
    {
      if (g_str_equal (g_ptr_array_index (pairs, i), key))
        return g_ptr_array_index (pairs, i + 1);
    }
  return NULL;
}

/**
 * sl_summary_run_dup_lineage_keys:
 *
 * Returns: (transfer full): the keys of @section in the order first set
 */
GStrv
sl_summary_run_dup_lineage_keys (SlSummaryRun     *self,
                                 SlLineageSection  section)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GPtrArray *pairs;

  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  g_return_val_if_fail (section < SL_LINEAGE_N_SECTIONS, NULL);

  pairs = self->lineage[section];
  for (guint i = 0; i + 1 < pairs->len; i += 2)
    g_strv_builder_add (builder, g_ptr_array_index (pairs, i));

  return g_strv_builder_end (builder);
}

void
sl_summary_run_set_dataset_graph (SlSummaryRun *self,
                                  GBytes       *bytes)
{
  g_return_if_fail (SL_IS_SUMMARY_RUN (self));

  g_clear_pointer (&self->dataset_graph, g_bytes_unref);
  if (bytes != NULL)
    self->dataset_graph = g_bytes_ref (bytes);
}

/**
 * sl_summary_run_get_dataset_graph:
 *
 * Returns: (transfer none) (nullable): the serialized DatasetGraph of the
 *   last lineage event that had one
 */
GBytes *
sl_summary_run_get_dataset_graph (SlSummaryRun *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  return self->dataset_graph;
}

void
sl_summary_run_add_problem (SlSummaryRun *self,
                            SlProblem    *problem)
{
  g_return_if_fail (SL_IS_SUMMARY_RUN (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_ptr_array_add (self->problems, g_object_ref (problem));
}

/**
 * sl_summary_run_get_problems:
 *
 * Returns: (transfer none) (element-type SlProblem): every problem met
 *   while reading this run
 */
GPtrArray *
sl_summary_run_get_problems (SlSummaryRun *self)
{
  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);
  return self->problems;
}

guint64
sl_summary_run_get_n_bad_records (SlSummaryRun *self)
{
  guint64 n = 0;

  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), 0);

  for (guint i = 0; i < self->files->len; i++)
    n += ((SlSummaryFile *) g_ptr_array_index (self->files, i))->n_bad;
  return n;
}

const char *
sl_summary_tag_kind_to_string (SlSummaryTagKind kind)
{
  switch (kind)
    {
    case SL_SUMMARY_TAG_SCALAR:
      return "scalar";
    case SL_SUMMARY_TAG_HISTOGRAM:
      return "histogram";
    case SL_SUMMARY_TAG_IMAGE:
      return "image";
    case SL_SUMMARY_TAG_TENSOR:
      return "tensor";
    case SL_SUMMARY_TAG_LOSS_LANDSCAPE:
      return "loss_landscape";
    default:
      return "unknown";
    }
}

const char *
sl_summary_file_kind_to_string (SlSummaryFileKind kind)
{
  switch (kind)
    {
    case SL_SUMMARY_FILE_MINDSPORE:
      return "summary";
    case SL_SUMMARY_FILE_LINEAGE:
      return "lineage";
    case SL_SUMMARY_FILE_TENSORBOARD:
      return "tfevents";
    case SL_SUMMARY_FILE_EXPLAIN:
      return "explain";
    default:
      return "unknown";
    }
}

/**
 * sl_summary_run_dup_reading_state:
 *
 * A run with the same name, path and files, each file at the offset where
 * @self stopped reading, and no tags: reading it again collects only what
 * the files gained, and sl_summary_run_absorb() adds that to @self.
 *
 * Returns: (transfer full): the copy
 */
SlSummaryRun *
sl_summary_run_dup_reading_state (SlSummaryRun *self)
{
  SlSummaryRun *copy;

  g_return_val_if_fail (SL_IS_SUMMARY_RUN (self), NULL);

  copy = sl_summary_run_new (self->name, self->path);
  for (guint i = 0; i < self->files->len; i++)
    {
      SlSummaryFile *file = g_ptr_array_index (self->files, i);
      SlSummaryFile *state = g_memdup2 (file, sizeof *file);

      state->path = g_strdup (file->path);
      state->name = g_strdup (file->name);
      g_ptr_array_add (copy->files, state);
    }

  return copy;
}

static void
absorb_series (Tag      *tag,
               gpointer  into)
{
  switch (tag->kind)
    {
    case SL_SUMMARY_TAG_SCALAR:
      sl_scalar_series_absorb (into, tag->series);
      break;
    case SL_SUMMARY_TAG_HISTOGRAM:
      sl_histogram_series_absorb (into, tag->series);
      break;
    case SL_SUMMARY_TAG_IMAGE:
      sl_image_series_absorb (into, tag->series);
      break;
    case SL_SUMMARY_TAG_TENSOR:
      sl_tensor_series_absorb (into, tag->series);
      break;
    case SL_SUMMARY_TAG_LOSS_LANDSCAPE:
    default:
      break;
    }
}

/**
 * sl_summary_run_absorb:
 * @delta: what a copy from sl_summary_run_dup_reading_state() read since
 *
 * Appends the points, graphs, lineage and problems of @delta to @self and
 * takes over its reading state. Restarts and dropped points come out as
 * one read of the whole files would count them. Cheap next to decoding:
 * nothing is parsed.
 */
void
sl_summary_run_absorb (SlSummaryRun *self,
                       SlSummaryRun *delta)
{
  g_return_if_fail (SL_IS_SUMMARY_RUN (self));
  g_return_if_fail (SL_IS_SUMMARY_RUN (delta));

  for (guint i = 0; i < delta->files->len; i++)
    {
      SlSummaryFile *state = g_ptr_array_index (delta->files, i);
      SlSummaryFile *file = sl_summary_run_ensure_file (self, state->path, state->kind);
      char *path = file->path, *name = file->name;

      *file = *state;
      file->path = path;
      file->name = name;
    }

  for (guint i = 0; i < delta->tags->len; i++)
    {
      Tag *from = g_ptr_array_index (delta->tags, i);
      Tag *into = ensure_tag (self, from->kind, from->name);

      if (from->kind == SL_SUMMARY_TAG_LOSS_LANDSCAPE)
        {
          for (guint b = 0; b < from->landscapes->len; b++)
            {
              SlSummaryBlob *blob = g_ptr_array_index (from->landscapes, b);

              g_ptr_array_add (into->landscapes, blob_new (blob->step, blob->wall_time, blob->bytes));
            }
        }
      else
        absorb_series (from, into->series);
    }

  for (guint i = 0; i < delta->graphs->len; i++)
    {
      SlSummaryBlob *blob = g_ptr_array_index (delta->graphs, i);

      g_ptr_array_add (self->graphs, blob_new (blob->step, blob->wall_time, blob->bytes));
    }

  for (guint s = 0; s < G_N_ELEMENTS (delta->lineage); s++)
    for (guint i = 0; i + 1 < delta->lineage[s]->len; i += 2)
      sl_summary_run_set_lineage (self, s, g_ptr_array_index (delta->lineage[s], i),
                                  g_ptr_array_index (delta->lineage[s], i + 1));

  if (delta->dataset_graph != NULL)
    sl_summary_run_set_dataset_graph (self, delta->dataset_graph);

  for (guint i = 0; i < delta->problems->len; i++)
    sl_summary_run_add_problem (self, g_ptr_array_index (delta->problems, i));
}
