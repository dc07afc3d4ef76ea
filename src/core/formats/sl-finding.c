/* sl-finding.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-finding.h"
#include "sl-profiler-layout.h"

struct _SlFinding
{
  GObject        parent_instance;
  SlFindingKind  kind;
  char          *path;
  char          *name;
  GPtrArray     *files;
  guint64        size;
  GPtrArray     *detail_keys;
  GPtrArray     *detail_values;
  /* Per detail: 0 for text, else 1 + the boolean it holds */
  GByteArray    *detail_booleans;
};

G_DEFINE_FINAL_TYPE (SlFinding, sl_finding, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_PATH,
  PROP_KIND_LABEL,
  PROP_ICON_NAME,
  PROP_SUMMARY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct {
  const char *id;
  const char *label;
  const char *short_label;  /* a word, beside a name that does not say the kind */
  const char *icon;
} KindInfo;

/* Icons are Sightline's own symbolic icons, compiled into the GUI's
 * resources; the table lives here so the CLI and the GUI share it. */
static const KindInfo kind_info[SL_FINDING_N_KINDS] = {
  [SL_FINDING_SUMMARY_RUN] = { "summary-run", N_("MindSpore summary run"), NC_("finding kind", "summaries"), "sl-chart-symbolic" },
  [SL_FINDING_TENSORBOARD_RUN] = { "tensorboard-run", N_("TensorBoard run"), NC_("finding kind", "TensorBoard"), "sl-chart-symbolic" },
  [SL_FINDING_MINDSPORE_PROFILER] = { "mindspore-profiler", N_("MindSpore profiler output"), NC_("finding kind", "profile"), "sl-timeline-symbolic" },
  [SL_FINDING_MSPROF] = { "msprof", N_("msprof (CANN) profiling output"), NC_("finding kind", "msprof"), "sl-timeline-symbolic" },
  [SL_FINDING_ASCEND_PROFILER] = { "ascend-profiler", N_("Ascend PyTorch/MindSpore profiler output"), NC_("finding kind", "profile"), "sl-timeline-symbolic" },
  [SL_FINDING_PROFILER_DB] = { "profiler-db", N_("Profiler database export"), NC_("finding kind", "database"), "sl-database-symbolic" },
  [SL_FINDING_TRACE] = { "trace", N_("Chrome trace"), NC_("finding kind", "trace"), "sl-trace-symbolic" },
  [SL_FINDING_GRAPH] = { "graph", N_("Computational graph"), NC_("finding kind", "graph"), "sl-graph-symbolic" },
  [SL_FINDING_TENSOR] = { "tensor", N_("Tensor file"), NC_("finding kind", "tensor"), "sl-tensor-symbolic" },
  [SL_FINDING_MSPROBE_DUMP] = { "msprobe-dump", N_("msprobe tensor dump"), NC_("finding kind", "dump"), "sl-tensor-symbolic" },
  [SL_FINDING_PIPELINE] = { "pipeline", N_("MindX SDK pipeline"), NC_("finding kind", "pipeline"), "sl-pipeline-symbolic" },
  [SL_FINDING_TUNER_CONFIG] = { "tuner-config", N_("Hyperparameter tuner configuration"), NC_("finding kind", "tuner"), "sl-chart-symbolic" },
  [SL_FINDING_CLUSTER] = { "cluster", N_("Cluster profile"), NC_("finding kind", "cluster"), "sl-timeline-symbolic" },
};

static void
sl_finding_finalize (GObject *object)
{
  SlFinding *self = (SlFinding *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->detail_keys, g_ptr_array_unref);
  g_clear_pointer (&self->detail_values, g_ptr_array_unref);
  g_clear_pointer (&self->detail_booleans, g_byte_array_unref);

  G_OBJECT_CLASS (sl_finding_parent_class)->finalize (object);
}

static void
sl_finding_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  SlFinding *self = SL_FINDING (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_KIND_LABEL:
      g_value_set_string (value, sl_finding_kind_to_label (self->kind));
      break;

    case PROP_ICON_NAME:
      g_value_set_string (value, sl_finding_kind_to_icon (self->kind));
      break;

    case PROP_SUMMARY:
      g_value_take_string (value, sl_finding_dup_summary (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_finding_class_init (SlFindingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_finding_finalize;
  object_class->get_property = sl_finding_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND_LABEL] =
    g_param_spec_string ("kind-label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_finding_init (SlFinding *self)
{
  self->files = g_ptr_array_new_with_free_func (g_free);
  self->detail_keys = g_ptr_array_new_with_free_func (g_free);
  self->detail_values = g_ptr_array_new_with_free_func (g_free);
  self->detail_booleans = g_byte_array_new ();
}

/**
 * sl_finding_new:
 * @path: the folder or file that holds the finding
 * @name: what to call it in the Workspace, usually the path relative to
 *   the opened folder
 *
 * Returns: (transfer full): a new finding with no files yet
 */
SlFinding *
sl_finding_new (SlFindingKind  kind,
                const char    *path,
                const char    *name)
{
  SlFinding *self;

  g_return_val_if_fail (kind < SL_FINDING_N_KINDS, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SL_TYPE_FINDING, NULL);
  self->kind = kind;
  self->path = g_strdup (path);
  self->name = g_strdup (name != NULL ? name : path);

  return self;
}

SlFindingKind
sl_finding_get_kind (SlFinding *self)
{
  g_return_val_if_fail (SL_IS_FINDING (self), 0);
  return self->kind;
}

const char *
sl_finding_get_path (SlFinding *self)
{
  g_return_val_if_fail (SL_IS_FINDING (self), NULL);
  return self->path;
}

const char *
sl_finding_get_name (SlFinding *self)
{
  g_return_val_if_fail (SL_IS_FINDING (self), NULL);
  return self->name;
}

/**
 * sl_finding_dup_display_name:
 *
 * Returns: (transfer full): the name to show: the relative name, or the
 *   folder's own name for the opened folder itself (named ".")
 */
char *
sl_finding_dup_display_name (SlFinding *self)
{
  g_return_val_if_fail (SL_IS_FINDING (self), NULL);

  if (g_strcmp0 (sl_finding_get_name (self), ".") == 0)
    return g_path_get_basename (sl_finding_get_path (self));
  return g_strdup (sl_finding_get_name (self));
}

guint
sl_finding_get_n_files (SlFinding *self)
{
  g_return_val_if_fail (SL_IS_FINDING (self), 0);
  return self->files->len;
}

guint64
sl_finding_get_size (SlFinding *self)
{
  g_return_val_if_fail (SL_IS_FINDING (self), 0);
  return self->size;
}

void
sl_finding_add_file (SlFinding  *self,
                     const char *path,
                     guint64     size)
{
  g_return_if_fail (SL_IS_FINDING (self));
  g_return_if_fail (path != NULL);

  g_ptr_array_add (self->files, g_strdup (path));
  self->size += size;
}

const char *
sl_finding_get_file (SlFinding *self,
                     guint      index)
{
  g_return_val_if_fail (SL_IS_FINDING (self), NULL);
  g_return_val_if_fail (index < self->files->len, NULL);

  return g_ptr_array_index (self->files, index);
}

/* The keys whose details are booleans (see sl-finding.h). */
static const char * const boolean_keys[] = {
  SL_FINDING_DETAIL_HAS_LINEAGE,
  SL_FINDING_DETAIL_GRAPH,
  SL_FINDING_DETAIL_FORTRAN_ORDER,
  SL_FINDING_DETAIL_CLUSTER_ANALYSIS,
};

static gboolean
is_boolean_key (const char *key)
{
  return g_strv_contains ((const char * const *) boolean_keys, key);
}

static void
append_detail (SlFinding  *self,
               const char *key,
               const char *text,
               guint8      boolean)
{
  g_ptr_array_add (self->detail_keys, g_strdup (key));
  g_ptr_array_add (self->detail_values, g_strdup (text));
  g_byte_array_append (self->detail_booleans, &boolean, 1);
}

/* Details are an ordered list of key/value pairs shown in the Details
 * panel and printed by `sightline-cli detect`. Keys are stable ids.
 *
 * A boolean key given as text (a finding read back from the workspace)
 * is a boolean when the text is its text form, "yes" or "no". */
void
sl_finding_add_detail (SlFinding  *self,
                       const char *key,
                       const char *value)
{
  guint8 boolean = 0;

  g_return_if_fail (SL_IS_FINDING (self));
  g_return_if_fail (key != NULL);

  if (is_boolean_key (key) && g_strcmp0 (value, "yes") == 0)
    boolean = 1 + TRUE;
  else if (is_boolean_key (key) && g_strcmp0 (value, "no") == 0)
    boolean = 1 + FALSE;
  append_detail (self, key, value ? value : "", boolean);
}

/**
 * sl_finding_add_boolean_detail:
 * @key: one of the boolean keys of sl-finding.h
 *
 * Adds a detail that is a boolean.
 */
void
sl_finding_add_boolean_detail (SlFinding  *self,
                               const char *key,
                               gboolean    value)
{
  g_return_if_fail (SL_IS_FINDING (self));
  g_return_if_fail (key != NULL && is_boolean_key (key));

  append_detail (self, key, value ? "yes" : "no", 1 + !!value);
}

/**
 * sl_finding_detail_is_boolean:
 *
 * Returns: whether the detail at @index holds a boolean
 */
gboolean
sl_finding_detail_is_boolean (SlFinding *self,
                              guint      index)
{
  g_return_val_if_fail (SL_IS_FINDING (self), FALSE);

  return index < self->detail_booleans->len && self->detail_booleans->data[index] != 0;
}

/**
 * sl_finding_lookup_boolean_detail:
 * @value: (out) (optional): the boolean
 *
 * Returns: TRUE when the finding has the detail @key and it is a boolean
 */
gboolean
sl_finding_lookup_boolean_detail (SlFinding  *self,
                                  const char *key,
                                  gboolean   *value)
{
  g_return_val_if_fail (SL_IS_FINDING (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  for (guint i = 0; i < self->detail_keys->len; i++)
    {
      guint8 boolean = self->detail_booleans->data[i];

      if (!g_str_equal (g_ptr_array_index (self->detail_keys, i), key))
        continue;
      if (boolean == 0)
        return FALSE;
      if (value != NULL)
        *value = boolean - 1;
      return TRUE;
    }

  return FALSE;
}

guint
sl_finding_get_n_details (SlFinding *self)
{
  g_return_val_if_fail (SL_IS_FINDING (self), 0);
  return self->detail_keys->len;
}

gboolean
sl_finding_get_detail (SlFinding   *self,
                       guint        index,
                       const char **key,
                       const char **value)
{
  g_return_val_if_fail (SL_IS_FINDING (self), FALSE);

  if (index >= self->detail_keys->len)
    return FALSE;

  if (key != NULL)
    *key = g_ptr_array_index (self->detail_keys, index);
  if (value != NULL)
    *value = g_ptr_array_index (self->detail_values, index);

  return TRUE;
}

const char *
sl_finding_lookup_detail (SlFinding  *self,
                          const char *key)
{
  g_return_val_if_fail (SL_IS_FINDING (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < self->detail_keys->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (self->detail_keys, i), key))
        return g_ptr_array_index (self->detail_values, i);
    }

  return NULL;
}

/**
 * sl_finding_dup_summary:
 *
 * Returns: (transfer full): a short line such as "3 files, 1.2 MB"
 */
char *
sl_finding_dup_summary (SlFinding *self)
{
  g_autofree char *size = NULL;

  g_return_val_if_fail (SL_IS_FINDING (self), NULL);

  size = g_format_size (self->size);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file, %s", "%u files, %s", self->files->len),
                          self->files->len, size);
}

static gboolean
is_profiler_kind (SlFindingKind kind)
{
  return kind == SL_FINDING_MINDSPORE_PROFILER || kind == SL_FINDING_MSPROF ||
         kind == SL_FINDING_ASCEND_PROFILER || kind == SL_FINDING_PROFILER_DB;
}

/**
 * sl_finding_dup_timeline_files:
 *
 * The files of a profiler finding that a timeline is read from: its
 * Chrome trace timelines and SQLite exports, picked by name from the
 * files the detector attached, so nothing is read from disk. A SQLite
 * export finding gives its own file.
 *
 * Returns: (transfer full) (element-type utf8): paths, sorted; empty for
 *   findings that are not profiler output
 */
GPtrArray *
sl_finding_dup_timeline_files (SlFinding *self)
{
  GPtrArray *files;

  g_return_val_if_fail (SL_IS_FINDING (self), NULL);

  if (self->kind == SL_FINDING_PROFILER_DB)
    {
      files = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < self->files->len; i++)
        g_ptr_array_add (files, g_strdup (g_ptr_array_index (self->files, i)));
      return files;
    }
  if (!is_profiler_kind (self->kind))
    return g_ptr_array_new_with_free_func (g_free);

  return sl_profiler_layout_select_timelines (self->path, self->files);
}

/**
 * sl_finding_has_timeline:
 *
 * Answers from the %SL_FINDING_DETAIL_TIMELINE_FILES detail, without
 * touching the disk; findings stored before that detail existed are
 * answered from their file names. A Chrome trace is a timeline itself.
 *
 * Returns: whether the finding can be shown on the timeline
 */
gboolean
sl_finding_has_timeline (SlFinding *self)
{
  const char *count;
  g_autoptr(GPtrArray) files = NULL;

  g_return_val_if_fail (SL_IS_FINDING (self), FALSE);

  if (self->kind == SL_FINDING_TRACE)
    return TRUE;
  if (!is_profiler_kind (self->kind))
    return FALSE;

  count = sl_finding_lookup_detail (self, SL_FINDING_DETAIL_TIMELINE_FILES);
  if (count != NULL)
    return g_ascii_strtoull (count, NULL, 10) > 0;

  files = sl_finding_dup_timeline_files (self);
  return files->len > 0;
}

/* Detail keys are stable ids for scripts (`sightline-cli detect --json`);
 * people see these labels. A detail holding a comma-separated list has
 * its label for one item as well: "Rank 0", "Ranks 0,1". */
#define NP_(singular, plural) singular, plural

static const struct {
  const char *key;
  const char *one;
  const char *many;
} detail_lists[] = {
  { "devices", NP_("Device", "Devices") },
  { "msprof_folders", NP_("msprof folder", "msprof folders") },
  { "rank_folders", NP_("Rank folder", "Rank folders") },
  { "ranks", NP_("Rank", "Ranks") },
  { "streams", NP_("Stream", "Streams") },
  { "tables", NP_("Table", "Tables") },
  { "tags", NP_("Tag", "Tags") },
};

static const struct {
  const char *key;
  const char *label;
} detail_labels[] = {
  { "cluster_analysis", N_("msprof-analyze output") },
  { "compressed", N_("Compression") },
  { "devices", N_("Devices") },
  { "dtype", N_("Data type") },
  { "elements", N_("Elements") },
  { "event_files", N_("Event files") },
  { "explain_files", N_("Explanation files") },
  { "export", N_("Export") },
  { "form", N_("Top level") },
  { "format", N_("Format") },
  { "fortran_order", N_("Fortran order") },
  { "framework", N_("Framework") },
  { "graph_files", N_("Graph files") },
  { "has_lineage", N_("Has lineage") },
  { "layout", N_("Layout") },
  { "level", N_("Level") },
  { "lineage_files", N_("Lineage files") },
  { "missing_files", N_("Files not beside it") },
  { "msprof_folders", N_("msprof folders") },
  { "page_size", N_("Page size") },
  { "producer", N_("Written by") },
  { "rank", N_("Rank") },
  { "rank_folders", N_("Rank folders") },
  { "ranks", N_("Ranks") },
  { "shape", N_("Shape") },
  { "step", N_("Step") },
  { "streams", N_("Streams") },
  { "summary_files", N_("Summary files") },
  { "table", N_("Profiler table") },
  { "tables", N_("Tables") },
  { "tags", N_("Tags") },
  { "task", N_("Task") },
  { "timeline_files", N_("Timeline files") },
  { "timelines", N_("Timelines") },
  { "version", N_("Format version") },
};

/**
 * sl_finding_detail_dup_label:
 * @key: a detail key
 *
 * Returns: (transfer full): what to call @key in the interface
 */
char *
sl_finding_detail_dup_label (const char *key)
{
  char *label;

  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (detail_labels); i++)
    {
      if (g_str_equal (detail_labels[i].key, key))
        return g_strdup (g_dgettext (GETTEXT_PACKAGE, detail_labels[i].label));
    }

  /* A key added later without a label still reads as words. */
  label = g_strdelimit (g_strdup (key), "_", ' ');
  label[0] = g_ascii_toupper (label[0]);
  return label;
}

/**
 * sl_finding_detail_dup_label_for_value:
 * @key: a detail key
 * @value: (nullable): its value
 *
 * Like sl_finding_detail_dup_label(), in the singular or plural form the
 * number of items of a list-valued detail asks for.
 *
 * Returns: (transfer full): what to call @key in the interface
 */
char *
sl_finding_detail_dup_label_for_value (const char *key,
                                       const char *value)
{
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (detail_lists); i++)
    {
      gulong n = 0;

      if (!g_str_equal (detail_lists[i].key, key))
        continue;
      if (value != NULL && value[0] != '\0')
        {
          n = 1;
          for (const char *p = value; *p != '\0'; p++)
            n += *p == ',';
        }
      return g_strdup (g_dngettext (GETTEXT_PACKAGE, detail_lists[i].one, detail_lists[i].many, n));
    }
  return sl_finding_detail_dup_label (key);
}

/**
 * sl_finding_detail_value_label:
 *
 * Returns: @value, or its translation when it is "yes" or "no"
 */
const char *
sl_finding_detail_value_label (const char *value)
{
  if (g_strcmp0 (value, "yes") == 0)
    return g_dgettext (GETTEXT_PACKAGE, N_("yes"));
  if (g_strcmp0 (value, "no") == 0)
    return g_dgettext (GETTEXT_PACKAGE, N_("no"));
  return value;
}

const char *
sl_finding_kind_to_id (SlFindingKind kind)
{
  g_return_val_if_fail (kind < SL_FINDING_N_KINDS, NULL);
  return kind_info[kind].id;
}

const char *
sl_finding_kind_to_label (SlFindingKind kind)
{
  g_return_val_if_fail (kind < SL_FINDING_N_KINDS, NULL);
  return g_dgettext (GETTEXT_PACKAGE, kind_info[kind].label);
}

/**
 * sl_finding_kind_to_short_label:
 *
 * One word for @kind ("profile", "cluster", "trace"), shown beside a
 * name that does not say what the finding is: a folder opened as a whole
 * may hold several findings, all named after it.
 */
const char *
sl_finding_kind_to_short_label (SlFindingKind kind)
{
  g_return_val_if_fail (kind < SL_FINDING_N_KINDS, NULL);
  return g_dpgettext2 (GETTEXT_PACKAGE, "finding kind", kind_info[kind].short_label);
}

const char *
sl_finding_kind_to_icon (SlFindingKind kind)
{
  g_return_val_if_fail (kind < SL_FINDING_N_KINDS, NULL);
  return kind_info[kind].icon;
}

gboolean
sl_finding_kind_from_id (const char    *id,
                         SlFindingKind *kind)
{
  g_return_val_if_fail (id != NULL, FALSE);

  for (guint i = 0; i < SL_FINDING_N_KINDS; i++)
    {
      if (g_str_equal (kind_info[i].id, id))
        {
          if (kind != NULL)
            *kind = i;
          return TRUE;
        }
    }

  return FALSE;
}
