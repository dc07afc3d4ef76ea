/* sl-atc-command.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "sl-atc-command.h"
#include "sl-problem.h"
#include "sl-workflow-path.h"

#define SOURCE "atc"

static const char * const precision_modes[] = {
  "force_fp16", "allow_fp32_to_fp16", "must_keep_origin_dtype", "allow_mix_precision",
  "force_fp32", "allow_mix_precision_fp16", "allow_mix_precision_bf16", "allow_fp32_to_bf16",
  NULL
};
static const char * const log_levels[] = { "debug", "info", "warning", "error", "null", NULL };

/* The formats ATC's documentation lists for each framework. */
static const char * const caffe_formats[] = { "NCHW", "ND", NULL };
static const char * const mindspore_formats[] = { "NCHW", "ND", NULL };
static const char * const tensorflow_formats[] = { "NCHW", "NHWC", "ND", "NCDHW", "NDHWC", NULL };
static const char * const onnx_formats[] = { "NCHW", "ND", "NCDHW", NULL };
static const char * const no_formats[] = { NULL };

struct _SlAtcCommand
{
  GObject         parent_instance;
  SlAtcFramework  framework;
  char           *model;
  char           *weight;
  char           *output;
  char           *input_format;
  char           *input_shape;
  char           *soc_version;
  char           *insert_op_conf;
  char           *precision_mode;
  char           *log_level;
};

G_DEFINE_FINAL_TYPE (SlAtcCommand, sl_atc_command, G_TYPE_OBJECT)

static void
sl_atc_command_finalize (GObject *object)
{
  SlAtcCommand *self = SL_ATC_COMMAND (object);

  g_free (self->model);
  g_free (self->weight);
  g_free (self->output);
  g_free (self->input_format);
  g_free (self->input_shape);
  g_free (self->soc_version);
  g_free (self->insert_op_conf);
  g_free (self->precision_mode);
  g_free (self->log_level);

  G_OBJECT_CLASS (sl_atc_command_parent_class)->finalize (object);
}

static void
sl_atc_command_class_init (SlAtcCommandClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_atc_command_finalize;
}

static void
sl_atc_command_init (SlAtcCommand *self)
{
  self->framework = SL_ATC_FRAMEWORK_NONE;
}

SlAtcCommand *
sl_atc_command_new (void)
{
  return g_object_new (SL_TYPE_ATC_COMMAND, NULL);
}

static void
replace (char       **field,
         const char  *value)
{
  g_free (*field);
  *field = value && value[0] ? g_strdup (value) : NULL;
}

void
sl_atc_command_set_framework (SlAtcCommand   *self,
                              SlAtcFramework  framework)
{
  g_return_if_fail (SL_IS_ATC_COMMAND (self));
  self->framework = framework;
}

SlAtcFramework
sl_atc_command_get_framework (SlAtcCommand *self)
{
  g_return_val_if_fail (SL_IS_ATC_COMMAND (self), SL_ATC_FRAMEWORK_NONE);
  return self->framework;
}

#define DEFINE_SETTER(field)                                    \
  void                                                          \
  sl_atc_command_set_##field (SlAtcCommand *self,               \
                              const char   *value)              \
  {                                                             \
    g_return_if_fail (SL_IS_ATC_COMMAND (self));                \
    replace (&self->field, value);                              \
  }

DEFINE_SETTER (model)
DEFINE_SETTER (weight)
DEFINE_SETTER (output)
DEFINE_SETTER (input_format)
DEFINE_SETTER (input_shape)
DEFINE_SETTER (soc_version)
DEFINE_SETTER (insert_op_conf)
DEFINE_SETTER (precision_mode)
DEFINE_SETTER (log_level)

#undef DEFINE_SETTER

/* A run reads its command on a worker while the dialog may still write
 * the one it shows: the run gets a copy. */
SlAtcCommand *
sl_atc_command_copy (SlAtcCommand *self)
{
  SlAtcCommand *copy;

  g_return_val_if_fail (SL_IS_ATC_COMMAND (self), NULL);

  copy = sl_atc_command_new ();
  copy->framework = self->framework;
  copy->model = g_strdup (self->model);
  copy->weight = g_strdup (self->weight);
  copy->output = g_strdup (self->output);
  copy->input_format = g_strdup (self->input_format);
  copy->input_shape = g_strdup (self->input_shape);
  copy->soc_version = g_strdup (self->soc_version);
  copy->insert_op_conf = g_strdup (self->insert_op_conf);
  copy->precision_mode = g_strdup (self->precision_mode);
  copy->log_level = g_strdup (self->log_level);
  return copy;
}

#define DEFINE_GETTER(field)                                    \
  const char *                                                  \
  sl_atc_command_get_##field (SlAtcCommand *self)               \
  {                                                             \
    g_return_val_if_fail (SL_IS_ATC_COMMAND (self), NULL);      \
    return self->field;                                         \
  }

DEFINE_GETTER (model)
DEFINE_GETTER (weight)
DEFINE_GETTER (output)
DEFINE_GETTER (insert_op_conf)

#undef DEFINE_GETTER

/* Validation */

static void
add_problem (GPtrArray  *problems,
             SlSeverity  severity,
             const char *option,
             const char *message)
{
  SlProblem *problem = sl_problem_new_at_position (severity, SOURCE, NULL, -1, 0, 0, option, message);

  g_ptr_array_add (problems, problem);
}

static void
add_error (GPtrArray  *problems,
           const char *option,
           GError     *error)
{
  add_problem (problems, SL_SEVERITY_ERROR, option, error->message);
}

static gboolean
is_known_framework (SlAtcFramework framework)
{
  return framework == SL_ATC_FRAMEWORK_CAFFE || framework == SL_ATC_FRAMEWORK_MINDSPORE ||
         framework == SL_ATC_FRAMEWORK_TENSORFLOW || framework == SL_ATC_FRAMEWORK_ONNX;
}

static const char *
model_suffix (SlAtcFramework framework)
{
  switch (framework)
    {
    case SL_ATC_FRAMEWORK_CAFFE:
      return ".prototxt";
    case SL_ATC_FRAMEWORK_MINDSPORE:
      return ".air";
    case SL_ATC_FRAMEWORK_TENSORFLOW:
      return ".pb";
    case SL_ATC_FRAMEWORK_ONNX:
      return ".onnx";
    case SL_ATC_FRAMEWORK_NONE:
    default:
      return NULL;
    }
}

static void
check_path_field (GPtrArray  *problems,
                  const char *option,
                  const char *value,
                  const char *what)
{
  g_autoptr(GError) error = NULL;

  if (value != NULL && !sl_workflow_path_check (value, what, &error))
    add_error (problems, option, error);
}

static void
check_model (SlAtcCommand *self,
             GPtrArray    *problems)
{
  const char *suffix = model_suffix (self->framework);

  if (self->model == NULL)
    {
      add_problem (problems, SL_SEVERITY_ERROR, "--model", _("Choose the model file to convert"));
      return;
    }
  check_path_field (problems, "--model", self->model, _("The model path"));

  if (suffix != NULL && !g_str_has_suffix (self->model, suffix))
    {
      g_autofree char *message = g_strdup_printf (_("A %s model usually ends with “%s”: check the framework"),
                                                  sl_atc_framework_get_label (self->framework), suffix);

      add_problem (problems, SL_SEVERITY_WARNING, "--model", message);
    }
}

static void
check_weight (SlAtcCommand *self,
              GPtrArray    *problems)
{
  if (self->framework == SL_ATC_FRAMEWORK_CAFFE && self->weight == NULL)
    add_problem (problems, SL_SEVERITY_ERROR, "--weight",
                 _("A Caffe model needs its weights (the .caffemodel file)"));
  else if (self->framework != SL_ATC_FRAMEWORK_CAFFE && self->weight != NULL)
    add_problem (problems, SL_SEVERITY_ERROR, "--weight",
                 _("Only Caffe models take a separate weight file; leave it empty"));
  else
    check_path_field (problems, "--weight", self->weight, _("The weight path"));
}

static void
check_output (SlAtcCommand *self,
              GPtrArray    *problems)
{
  if (self->output == NULL)
    {
      add_problem (problems, SL_SEVERITY_ERROR, "--output", _("Choose the name of the converted model"));
      return;
    }
  check_path_field (problems, "--output", self->output, _("The output name"));
  if (g_str_has_suffix (self->output, "/"))
    add_problem (problems, SL_SEVERITY_ERROR, "--output",
                 _("The output is a file name without “.om” (ATC adds it), not a folder"));
  else if (g_str_has_suffix (self->output, ".om"))
    add_problem (problems, SL_SEVERITY_WARNING, "--output",
                 _("ATC adds “.om” itself: this name ends up as “….om.om”"));
}

static void
check_choice (GPtrArray          *problems,
              const char         *option,
              const char         *value,
              const char * const *choices,
              const char         *what)
{
  g_autofree char *list = NULL;
  g_autofree char *message = NULL;

  if (value == NULL || g_strv_contains (choices, value))
    return;
  list = g_strjoinv (", ", (char **)choices);
  message = g_strdup_printf (_("“%s” is not %s; use one of: %s"), value, what, list);
  add_problem (problems, SL_SEVERITY_ERROR, option, message);
}

static gboolean
is_soc_version (const char *text)
{
  /* Ascend310, Ascend310P3, Ascend910B1, Ascend310B4, Ascend910_9391 */
  return g_regex_match_simple ("^Ascend[0-9]{3}[A-Z]?[0-9]*(_[0-9]+)?$", text, 0, 0);
}

static void
check_soc_version (SlAtcCommand *self,
                   GPtrArray    *problems)
{
  g_autofree char *message = NULL;

  if (self->soc_version == NULL)
    {
      add_problem (problems, SL_SEVERITY_ERROR, "--soc_version",
                   _("Choose the SoC version of the device (npu-smi info shows it, for example Ascend310P3)"));
      return;
    }
  if (is_soc_version (self->soc_version))
    return;
  message = g_strdup_printf (_("“%s” is not an SoC version: it looks like Ascend310, Ascend310P3 or Ascend910B1 (npu-smi info shows the chip’s name)"),
                             self->soc_version);
  add_problem (problems, SL_SEVERITY_ERROR, "--soc_version", message);
}

GPtrArray *
sl_atc_command_validate (SlAtcCommand *self)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (SL_IS_ATC_COMMAND (self), NULL);

  if (!is_known_framework (self->framework))
    add_problem (problems, SL_SEVERITY_ERROR, "--framework",
                 _("Choose the framework: 0 (Caffe), 1 (MindSpore AIR), 3 (TensorFlow) or 5 (ONNX)"));
  check_model (self, problems);
  check_weight (self, problems);
  check_output (self, problems);
  if (is_known_framework (self->framework))
    check_choice (problems, "--input_format", self->input_format, sl_atc_input_formats (self->framework),
                  _("an input format of this framework"));
  if (self->input_shape != NULL && !sl_atc_check_input_shape (self->input_shape, &error))
    add_error (problems, "--input_shape", error);
  check_soc_version (self, problems);
  check_path_field (problems, "--insert_op_conf", self->insert_op_conf, _("The AIPP configuration path"));
  check_choice (problems, "--precision_mode", self->precision_mode, precision_modes, _("a precision mode"));
  check_choice (problems, "--log", self->log_level, log_levels, _("a log level"));
  return g_steal_pointer (&problems);
}

static void
add_option (GPtrArray  *argv,
            const char *name,
            const char *value)
{
  if (value != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--%s=%s", name, value));
}

GStrv
sl_atc_command_dup_argv (SlAtcCommand  *self,
                         GError       **error)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (SL_IS_ATC_COMMAND (self), NULL);

  problems = sl_atc_command_validate (self);
  for (guint i = 0; i < problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (problems, i);

      if (sl_problem_get_severity (problem) == SL_SEVERITY_ERROR)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: %s",
                       sl_problem_get_subject (problem), sl_problem_get_message (problem));
          return NULL;
        }
    }

  /* In the order of the walkthrough's command. */
  g_ptr_array_add (argv, g_strdup ("atc"));
  g_ptr_array_add (argv, g_strdup_printf ("--framework=%d", (int)self->framework));
  add_option (argv, "model", self->model);
  add_option (argv, "weight", self->weight);
  add_option (argv, "output", self->output);
  add_option (argv, "input_format", self->input_format);
  add_option (argv, "input_shape", self->input_shape);
  add_option (argv, "soc_version", self->soc_version);
  add_option (argv, "insert_op_conf", self->insert_op_conf);
  add_option (argv, "precision_mode", self->precision_mode);
  add_option (argv, "log", self->log_level);
  g_ptr_array_add (argv, NULL);
  return (GStrv)g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

char *
sl_atc_command_dup_om_path (SlAtcCommand *self)
{
  g_return_val_if_fail (SL_IS_ATC_COMMAND (self), NULL);
  return self->output ? g_strconcat (self->output, ".om", NULL) : NULL;
}

gboolean
sl_atc_framework_from_name (const char     *name,
                            SlAtcFramework *framework)
{
  static const struct { const char *name; SlAtcFramework framework; } names[] = {
    { "caffe", SL_ATC_FRAMEWORK_CAFFE }, { "0", SL_ATC_FRAMEWORK_CAFFE },
    { "mindspore", SL_ATC_FRAMEWORK_MINDSPORE }, { "1", SL_ATC_FRAMEWORK_MINDSPORE },
    { "tensorflow", SL_ATC_FRAMEWORK_TENSORFLOW }, { "3", SL_ATC_FRAMEWORK_TENSORFLOW },
    { "onnx", SL_ATC_FRAMEWORK_ONNX }, { "5", SL_ATC_FRAMEWORK_ONNX },
  };

  g_return_val_if_fail (framework != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (name != NULL && g_ascii_strcasecmp (name, names[i].name) == 0)
      {
        *framework = names[i].framework;
        return TRUE;
      }
  return FALSE;
}

const char *
sl_atc_framework_get_label (SlAtcFramework framework)
{
  switch (framework)
    {
    case SL_ATC_FRAMEWORK_CAFFE:
      return _("Caffe");
    case SL_ATC_FRAMEWORK_MINDSPORE:
      return _("MindSpore (AIR)");
    case SL_ATC_FRAMEWORK_TENSORFLOW:
      return _("TensorFlow");
    case SL_ATC_FRAMEWORK_ONNX:
      return _("ONNX");
    case SL_ATC_FRAMEWORK_NONE:
    default:
      return _("Unknown framework");
    }
}

const char * const *
sl_atc_precision_modes (void)
{
  return precision_modes;
}

const char * const *
sl_atc_log_levels (void)
{
  return log_levels;
}

const char * const *
sl_atc_input_formats (SlAtcFramework framework)
{
  switch (framework)
    {
    case SL_ATC_FRAMEWORK_CAFFE:
      return caffe_formats;
    case SL_ATC_FRAMEWORK_MINDSPORE:
      return mindspore_formats;
    case SL_ATC_FRAMEWORK_TENSORFLOW:
      return tensorflow_formats;
    case SL_ATC_FRAMEWORK_ONNX:
      return onnx_formats;
    case SL_ATC_FRAMEWORK_NONE:
    default:
      return no_formats;
    }
}

static gboolean
is_dimension (const char *text)
{
  return g_regex_match_simple ("^(-1|[0-9]+|[0-9]+~[0-9]+)$", text, 0, 0);
}

static gboolean
check_one_shape (const char  *entry,
                 GError     **error)
{
  const char *colon = strrchr (entry, ':');
  g_auto(GStrv) dims = NULL;

  /* Input names may hold colons themselves ("x:0" in TensorFlow), so the
   * dimensions start after the last one. */
  if (colon == NULL || colon == entry)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not NAME:DIMENSIONS, for example “input:1,3,224,224”"), entry);
      return FALSE;
    }
  dims = g_strsplit (colon + 1, ",", -1);
  if (dims[0] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The input “%.*s” has no dimensions"), (int)(colon - entry), entry);
      return FALSE;
    }
  for (guint i = 0; dims[i] != NULL; i++)
    if (!is_dimension (dims[i]))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("“%s” in “%s” is not a dimension: use a number, -1 (dynamic) or a range such as 1~8"),
                     dims[i], entry);
        return FALSE;
      }
  return TRUE;
}

gboolean
sl_atc_check_input_shape (const char  *shape,
                          GError     **error)
{
  g_auto(GStrv) entries = NULL;

  g_return_val_if_fail (shape != NULL, FALSE);

  if (strpbrk (shape, "'\"$|&<>`\\\n ") != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Input shapes hold only names, “:”, “,”, “;”, digits, “-1” and “~”"));
      return FALSE;
    }
  entries = g_strsplit (shape, ";", -1);
  for (guint i = 0; entries[i] != NULL; i++)
    if (!check_one_shape (entries[i], error))
      return FALSE;
  return entries[0] != NULL;
}
