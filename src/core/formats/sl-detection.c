/* sl-detection.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>

#include "sl-detection.h"

struct _SlDetection
{
  GObject     parent_instance;
  char       *root;
  GListStore *findings;
  GListStore *problems;
  guint       files_scanned;
  gint64      elapsed;
};

G_DEFINE_FINAL_TYPE (SlDetection, sl_detection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ROOT,
  PROP_FILES_SCANNED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sl_detection_finalize (GObject *object)
{
  SlDetection *self = (SlDetection *)object;

  g_clear_pointer (&self->root, g_free);
  g_clear_object (&self->findings);
  g_clear_object (&self->problems);

  G_OBJECT_CLASS (sl_detection_parent_class)->finalize (object);
}

static void
sl_detection_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SlDetection *self = SL_DETECTION (object);

  switch (prop_id)
    {
    case PROP_ROOT:
      g_value_set_string (value, self->root);
      break;

    case PROP_FILES_SCANNED:
      g_value_set_uint (value, self->files_scanned);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_detection_class_init (SlDetectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_detection_finalize;
  object_class->get_property = sl_detection_get_property;

  properties[PROP_ROOT] =
    g_param_spec_string ("root", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILES_SCANNED] =
    g_param_spec_uint ("files-scanned", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sl_detection_init (SlDetection *self)
{
  self->findings = g_list_store_new (SL_TYPE_FINDING);
  self->problems = g_list_store_new (SL_TYPE_PROBLEM);
}

/**
 * sl_detection_new:
 * @root: the folder or file that was opened
 *
 * Returns: (transfer full): an empty detection
 */
SlDetection *
sl_detection_new (const char *root)
{
  SlDetection *self;

  g_return_val_if_fail (root != NULL, NULL);

  self = g_object_new (SL_TYPE_DETECTION, NULL);
  self->root = g_strdup (root);

  return self;
}

const char *
sl_detection_get_root (SlDetection *self)
{
  g_return_val_if_fail (SL_IS_DETECTION (self), NULL);
  return self->root;
}

/**
 * sl_detection_get_findings:
 *
 * Returns: (transfer none): a list model of #SlFinding
 */
GListModel *
sl_detection_get_findings (SlDetection *self)
{
  g_return_val_if_fail (SL_IS_DETECTION (self), NULL);
  return G_LIST_MODEL (self->findings);
}

/**
 * sl_detection_get_problems:
 *
 * Returns: (transfer none): a list model of #SlProblem
 */
GListModel *
sl_detection_get_problems (SlDetection *self)
{
  g_return_val_if_fail (SL_IS_DETECTION (self), NULL);
  return G_LIST_MODEL (self->problems);
}

void
sl_detection_add_finding (SlDetection *self,
                          SlFinding   *finding)
{
  g_return_if_fail (SL_IS_DETECTION (self));
  g_return_if_fail (SL_IS_FINDING (finding));

  g_list_store_append (self->findings, finding);
}

void
sl_detection_add_problem (SlDetection *self,
                          SlProblem   *problem)
{
  g_return_if_fail (SL_IS_DETECTION (self));
  g_return_if_fail (SL_IS_PROBLEM (problem));

  g_list_store_append (self->problems, problem);
}

guint
sl_detection_get_files_scanned (SlDetection *self)
{
  g_return_val_if_fail (SL_IS_DETECTION (self), 0);
  return self->files_scanned;
}

void
sl_detection_set_files_scanned (SlDetection *self,
                                guint        n_files)
{
  g_return_if_fail (SL_IS_DETECTION (self));

  if (self->files_scanned != n_files)
    {
      self->files_scanned = n_files;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILES_SCANNED]);
    }
}

/**
 * sl_detection_count_kind:
 *
 * Returns: how many findings are of @kind
 */
guint
sl_detection_count_kind (SlDetection   *self,
                         SlFindingKind  kind)
{
  guint n, count = 0;

  g_return_val_if_fail (SL_IS_DETECTION (self), 0);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->findings));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (G_LIST_MODEL (self->findings), i);

      count += sl_finding_get_kind (finding) == kind;
    }

  return count;
}

/**
 * sl_detection_lookup_finding:
 * @name: the finding's name, its path relative to the root
 *
 * Returns: (transfer none) (nullable): the finding, kept alive by @self
 */
SlFinding *
sl_detection_lookup_finding (SlDetection   *self,
                             SlFindingKind  kind,
                             const char    *name)
{
  guint n;

  g_return_val_if_fail (SL_IS_DETECTION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->findings));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (G_LIST_MODEL (self->findings), i);

      if (sl_finding_get_kind (finding) == kind && g_str_equal (sl_finding_get_name (finding), name))
        return finding;
    }

  return NULL;
}

/**
 * sl_detection_get_elapsed:
 *
 * Returns: how long the detector worked, in microseconds
 */
gint64
sl_detection_get_elapsed (SlDetection *self)
{
  g_return_val_if_fail (SL_IS_DETECTION (self), 0);
  return self->elapsed;
}

void
sl_detection_set_elapsed (SlDetection *self,
                          gint64       usec)
{
  g_return_if_fail (SL_IS_DETECTION (self));
  self->elapsed = usec;
}

/* File names need not be UTF-8; JSON must be. */
static void
add_string_value (JsonBuilder *builder,
                  const char  *value)
{
  if (value == NULL)
    {
      json_builder_add_null_value (builder);
    }
  else if (g_utf8_validate (value, -1, NULL))
    {
      json_builder_add_string_value (builder, value);
    }
  else
    {
      g_autofree char *valid = g_utf8_make_valid (value, -1);
      json_builder_add_string_value (builder, valid);
    }
}

static void
build_finding (JsonBuilder *builder,
               SlFinding   *finding)
{
  SlFindingKind kind = sl_finding_get_kind (finding);
  guint n_files = sl_finding_get_n_files (finding);
  guint n_details = sl_finding_get_n_details (finding);

  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, sl_finding_kind_to_id (kind));
  json_builder_set_member_name (builder, "kind_label");
  json_builder_add_string_value (builder, sl_finding_kind_to_label (kind));
  json_builder_set_member_name (builder, "name");
  add_string_value (builder, sl_finding_get_name (finding));
  json_builder_set_member_name (builder, "path");
  add_string_value (builder, sl_finding_get_path (finding));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64)MIN (sl_finding_get_size (finding), (guint64)G_MAXINT64));

  json_builder_set_member_name (builder, "files");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_files; i++)
    add_string_value (builder, sl_finding_get_file (finding, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "details");
  json_builder_begin_object (builder);
  for (guint i = 0; i < n_details; i++)
    {
      const char *key;
      const char *value;

      sl_finding_get_detail (finding, i, &key, &value);
      json_builder_set_member_name (builder, key);
      add_string_value (builder, value);
    }
  json_builder_end_object (builder);

  json_builder_end_object (builder);
}

static void
build_problem (JsonBuilder *builder,
               SlProblem   *problem)
{
  const char *source = sl_problem_get_source (problem);
  const char *path = sl_problem_get_path (problem);
  gint64 offset = sl_problem_get_offset (problem);
  guint line = sl_problem_get_line (problem);

  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "severity");
  json_builder_add_string_value (builder, sl_severity_to_string (sl_problem_get_severity (problem)));

  json_builder_set_member_name (builder, "source");
  add_string_value (builder, source);

  json_builder_set_member_name (builder, "path");
  add_string_value (builder, path);

  /* null rather than -1 or 0, so a reader cannot mistake it for byte 0 */
  json_builder_set_member_name (builder, "offset");
  if (offset >= 0)
    json_builder_add_int_value (builder, offset);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "line");
  if (line > 0)
    json_builder_add_int_value (builder, line);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "message");
  add_string_value (builder, sl_problem_get_message (problem));

  json_builder_end_object (builder);
}

/**
 * sl_detection_to_json:
 *
 * The schema is stable; scripts read it from `sightline-cli detect --json`:
 * {"root", "files_scanned", "findings": [{"kind", "kind_label", "name",
 * "path", "size", "files": [...], "details": {...}}], "problems":
 * [{"severity", "source", "path", "offset", "line", "message"}]}
 *
 * Returns: (transfer full): the detection as indented JSON
 */
char *
sl_detection_to_json (SlDetection *self)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;
  guint n;

  g_return_val_if_fail (SL_IS_DETECTION (self), NULL);

  builder = json_builder_new ();
  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "root");
  add_string_value (builder, self->root);
  json_builder_set_member_name (builder, "files_scanned");
  json_builder_add_int_value (builder, self->files_scanned);

  json_builder_set_member_name (builder, "findings");
  json_builder_begin_array (builder);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->findings));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (G_LIST_MODEL (self->findings), i);
      build_finding (builder, finding);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "problems");
  json_builder_begin_array (builder);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->problems));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SlProblem) problem = g_list_model_get_item (G_LIST_MODEL (self->problems), i);
      build_problem (builder, problem);
    }
  json_builder_end_array (builder);

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}
