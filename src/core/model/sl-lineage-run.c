/* sl-lineage-run.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "sl-lineage-run.h"

struct _SlLineageRun
{
  GObject    parent_instance;

  char      *name;
  char      *path;
  GPtrArray *pairs[SL_LINEAGE_N_GROUPS];  /* key, value, key, value … */
  GBytes    *dataset_graph;
  char      *dataset_graph_source;
};

G_DEFINE_FINAL_TYPE (SlLineageRun, sl_lineage_run, G_TYPE_OBJECT)

static void
sl_lineage_run_finalize (GObject *object)
{
  SlLineageRun *self = SL_LINEAGE_RUN (object);

  g_free (self->name);
  g_free (self->path);
  for (guint i = 0; i < SL_LINEAGE_N_GROUPS; i++)
    g_clear_pointer (&self->pairs[i], g_ptr_array_unref);
  g_clear_pointer (&self->dataset_graph, g_bytes_unref);
  g_free (self->dataset_graph_source);

  G_OBJECT_CLASS (sl_lineage_run_parent_class)->finalize (object);
}

static void
sl_lineage_run_class_init (SlLineageRunClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_lineage_run_finalize;
}

static void
sl_lineage_run_init (SlLineageRun *self)
{
  for (guint i = 0; i < SL_LINEAGE_N_GROUPS; i++)
    self->pairs[i] = g_ptr_array_new_with_free_func (g_free);
}

/**
 * sl_lineage_run_new:
 * @name: the run's folder relative to the opened one
 * @path: the run's folder
 */
SlLineageRun *
sl_lineage_run_new (const char *name,
                    const char *path)
{
  SlLineageRun *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_LINEAGE_RUN, NULL);
  self->name = g_strdup (name);
  self->path = g_strdup (path);
  return self;
}

const char *
sl_lineage_run_get_name (SlLineageRun *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), NULL);
  return self->name;
}

const char *
sl_lineage_run_get_path (SlLineageRun *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), NULL);
  return self->path;
}

static gint
find_key (GPtrArray  *pairs,
          const char *key)
{
  for (guint i = 0; i + 1 < pairs->len; i += 2)
    if (g_str_equal (g_ptr_array_index (pairs, i), key))
      return (gint) i;
  return -1;
}

/**
 * sl_lineage_run_set:
 * @value: (nullable): %NULL removes the key
 *
 * A later value replaces an earlier one at its first place.
 */
void
sl_lineage_run_set (SlLineageRun   *self,
                    SlLineageGroup  group,
                    const char     *key,
                    const char     *value)
{
  GPtrArray *pairs;
  gint at;

  g_return_if_fail (SL_IS_LINEAGE_RUN (self));
  g_return_if_fail (group < SL_LINEAGE_N_GROUPS);
  g_return_if_fail (key != NULL);

  pairs = self->pairs[group];
  at = find_key (pairs, key);
  if (at >= 0 && value == NULL)
    {
      g_ptr_array_remove_range (pairs, at, 2);
    }
  else if (at >= 0)
    {
      g_free (g_ptr_array_index (pairs, at + 1));
      g_ptr_array_index (pairs, at + 1) = g_strdup (value);
    }
  else if (value != NULL)
    {
      g_ptr_array_add (pairs, g_strdup (key));
      g_ptr_array_add (pairs, g_strdup (value));
    }
}

const char *
sl_lineage_run_get (SlLineageRun   *self,
                    SlLineageGroup  group,
                    const char     *key)
{
  gint at;

  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), NULL);
  g_return_val_if_fail (group < SL_LINEAGE_N_GROUPS, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  at = find_key (self->pairs[group], key);
  return at >= 0 ? g_ptr_array_index (self->pairs[group], at + 1) : NULL;
}

/**
 * sl_lineage_parse_number:
 *
 * Returns: whether all of @text is one finite number (surrounding blanks
 *   allowed)
 */
gboolean
sl_lineage_parse_number (const char *text,
                         double     *value)
{
  char *end = NULL;
  double number;

  if (text == NULL)
    return FALSE;
  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return FALSE;
  number = g_ascii_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  if (end == NULL || *end != '\0' || !isfinite (number))
    return FALSE;
  if (value != NULL)
    *value = number;
  return TRUE;
}

static gboolean
format_round_trip (double       value,
                   int          digits,
                   gboolean     as_float,
                   char        *buf,
                   gsize        size)
{
  char format[8];
  double back;

  g_snprintf (format, sizeof format, "%%.%dg", digits);
  g_ascii_formatd (buf, size, format, value);
  back = g_ascii_strtod (buf, NULL);
  return as_float ? (float) back == (float) value : back == value;
}

/**
 * sl_lineage_format_number:
 * @buf: at least %G_ASCII_DTOSTR_BUF_SIZE bytes
 *
 * The shortest text that reads back as @value; a value that is exactly a
 * float (a scalar, a float hyperparameter) as the shortest that reads
 * back as that float, so 0.1f prints as "0.1".
 *
 * Returns: @buf
 */
const char *
sl_lineage_format_number (double  value,
                          char   *buf,
                          gsize   size)
{
  gboolean as_float = isfinite (value) && (double) (float) value == value;

  g_return_val_if_fail (buf != NULL && size >= G_ASCII_DTOSTR_BUF_SIZE, NULL);

  for (int digits = as_float ? 6 : 15; digits < 17; digits++)
    if (format_round_trip (value, digits, as_float, buf, size))
      return buf;
  format_round_trip (value, 17, FALSE, buf, size);
  return buf;
}

gboolean
sl_lineage_run_get_number (SlLineageRun   *self,
                           SlLineageGroup  group,
                           const char     *key,
                           double         *value)
{
  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), FALSE);

  return sl_lineage_parse_number (sl_lineage_run_get (self, group, key), value);
}

guint
sl_lineage_run_get_n_keys (SlLineageRun   *self,
                           SlLineageGroup  group)
{
  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), 0);
  g_return_val_if_fail (group < SL_LINEAGE_N_GROUPS, 0);

  return self->pairs[group]->len / 2;
}

const char *
sl_lineage_run_get_key (SlLineageRun   *self,
                        SlLineageGroup  group,
                        guint           index)
{
  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), NULL);
  g_return_val_if_fail (group < SL_LINEAGE_N_GROUPS, NULL);
  g_return_val_if_fail (index < self->pairs[group]->len / 2, NULL);

  return g_ptr_array_index (self->pairs[group], index * 2);
}

/* Returns: whether the run has no value and no dataset graph */
gboolean
sl_lineage_run_is_empty (SlLineageRun *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), TRUE);

  for (guint i = 0; i < SL_LINEAGE_N_GROUPS; i++)
    if (self->pairs[i]->len > 0)
      return FALSE;
  return self->dataset_graph == NULL;
}

/**
 * sl_lineage_run_set_dataset_graph:
 * @bytes: (nullable): a serialized DatasetGraph
 * @source: (nullable): the file it came from, to name in problems
 */
void
sl_lineage_run_set_dataset_graph (SlLineageRun *self,
                                  GBytes       *bytes,
                                  const char   *source)
{
  g_return_if_fail (SL_IS_LINEAGE_RUN (self));

  g_clear_pointer (&self->dataset_graph, g_bytes_unref);
  g_clear_pointer (&self->dataset_graph_source, g_free);
  if (bytes != NULL)
    {
      self->dataset_graph = g_bytes_ref (bytes);
      self->dataset_graph_source = g_strdup (source != NULL ? source : self->path);
    }
}

/* Returns: (transfer none) (nullable): the run's last dataset graph */
GBytes *
sl_lineage_run_get_dataset_graph (SlLineageRun *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), NULL);
  return self->dataset_graph;
}

const char *
sl_lineage_run_get_dataset_graph_source (SlLineageRun *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_RUN (self), NULL);
  return self->dataset_graph_source;
}

/* Returns: the group's key in JSON and in column ids; stable */
const char *
sl_lineage_group_to_string (SlLineageGroup group)
{
  static const char *const names[] = {
    "hyperparameters", "metrics", "user_defined", "dataset", "model",
  };

  g_return_val_if_fail (group < SL_LINEAGE_N_GROUPS, NULL);
  return names[group];
}

/* Returns: the group's name as shown, translated */
const char *
sl_lineage_group_to_label (SlLineageGroup group)
{
  static const char *const labels[] = {
    N_("Hyperparameters"), N_("Metrics"), N_("User-Defined"), N_("Dataset"), N_("Model"),
  };

  g_return_val_if_fail (group < SL_LINEAGE_N_GROUPS, NULL);
  return _(labels[group]);
}
