/* sl-msprof-command.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "sl-msprof-command.h"
#include "sl-workflow-path.h"

typedef struct {
  const char *option;      /* --OPTION=on|off */
  const char *freq_option; /* --FREQ_OPTION=HZ */
  guint       min_hz;
  guint       max_hz;
} Sampler;

static const char * const switch_options[SL_MSPROF_N_SWITCHES] = {
  [SL_MSPROF_TASK_TIME]   = "task-time",
  [SL_MSPROF_AI_CORE]     = "ai-core",
  [SL_MSPROF_AICPU]       = "aicpu",
  [SL_MSPROF_ASCENDCL]    = "ascendcl",
  [SL_MSPROF_RUNTIME_API] = "runtime-api",
  [SL_MSPROF_HCCL]        = "hccl",
  [SL_MSPROF_MSPROFTX]    = "msproftx",
};

/* The rates msprof's documentation allows for each sampler. */
static const Sampler samplers[SL_MSPROF_N_SAMPLERS] = {
  [SL_MSPROF_SYS_HARDWARE_MEM]     = { "sys-hardware-mem", "sys-hardware-mem-freq", 1, 100 },
  [SL_MSPROF_SYS_CPU]              = { "sys-cpu-profiling", "sys-cpu-freq", 1, 50 },
  [SL_MSPROF_SYS_PROFILING]        = { "sys-profiling", "sys-sampling-freq", 1, 10 },
  [SL_MSPROF_SYS_PID]              = { "sys-pid-profiling", "sys-pid-sampling-freq", 1, 10 },
  [SL_MSPROF_SYS_IO]               = { "sys-io-profiling", "sys-io-sampling-freq", 1, 100 },
  [SL_MSPROF_SYS_INTERCONNECTION]  = { "sys-interconnection-profiling", "sys-interconnection-freq", 1, 50 },
  [SL_MSPROF_DVPP]                 = { "dvpp-profiling", "dvpp-freq", 1, 100 },
};

/* In the order of GE's ProfilingAicoreMetrics, whose numbers MindSpore's
 * aicore_metrics option takes. */
static const char * const aic_metrics[] = {
  "ArithmeticUtilization",
  "PipeUtilization",
  "Memory",
  "MemoryL0",
  "ResourceConflictRatio",
  "MemoryUB",
  "L2Cache",
  NULL
};

static const char * const host_metrics[] = { "cpu", "mem", "disk", "network", "osrt", NULL };

struct _SlMsprofCommand
{
  GObject         parent_instance;
  SlProfilerKind  kind;
  char          **program;
  char           *output;
  int             switches[SL_MSPROF_N_SWITCHES];
  char           *aic_metrics;
  char           *aic_mode;
  guint           aic_freq;
  guint           sampler_hz[SL_MSPROF_N_SAMPLERS];   /* 0: msprof's default rate */
  int             sampler_state[SL_MSPROF_N_SAMPLERS]; /* as switches */
  char           *host_sys;
};

G_DEFINE_FINAL_TYPE (SlMsprofCommand, sl_msprof_command, G_TYPE_OBJECT)

static void
sl_msprof_command_finalize (GObject *object)
{
  SlMsprofCommand *self = SL_MSPROF_COMMAND (object);

  g_strfreev (self->program);
  g_free (self->output);
  g_free (self->aic_metrics);
  g_free (self->aic_mode);
  g_free (self->host_sys);

  G_OBJECT_CLASS (sl_msprof_command_parent_class)->finalize (object);
}

static void
sl_msprof_command_class_init (SlMsprofCommandClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_msprof_command_finalize;
}

static void
sl_msprof_command_init (SlMsprofCommand *self)
{
  for (guint i = 0; i < SL_MSPROF_N_SWITCHES; i++)
    self->switches[i] = -1;
  for (guint i = 0; i < SL_MSPROF_N_SAMPLERS; i++)
    self->sampler_state[i] = -1;
}

SlMsprofCommand *
sl_msprof_command_new (void)
{
  return g_object_new (SL_TYPE_MSPROF_COMMAND, NULL);
}

/**
 * sl_msprof_command_copy:
 *
 * Returns: (transfer full): a command with the same settings, for a run
 *   that goes on while @self is edited
 */
SlMsprofCommand *
sl_msprof_command_copy (SlMsprofCommand *self)
{
  SlMsprofCommand *copy;

  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), NULL);

  copy = sl_msprof_command_new ();
  copy->kind = self->kind;
  copy->program = g_strdupv (self->program);
  copy->output = g_strdup (self->output);
  memcpy (copy->switches, self->switches, sizeof self->switches);
  copy->aic_metrics = g_strdup (self->aic_metrics);
  copy->aic_mode = g_strdup (self->aic_mode);
  copy->aic_freq = self->aic_freq;
  memcpy (copy->sampler_hz, self->sampler_hz, sizeof self->sampler_hz);
  memcpy (copy->sampler_state, self->sampler_state, sizeof self->sampler_state);
  copy->host_sys = g_strdup (self->host_sys);
  return copy;
}

void
sl_msprof_command_set_kind (SlMsprofCommand *self,
                            SlProfilerKind   kind)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  self->kind = kind;
}

SlProfilerKind
sl_msprof_command_get_kind (SlMsprofCommand *self)
{
  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), SL_PROFILER_MSPROF);
  return self->kind;
}

void
sl_msprof_command_set_program (SlMsprofCommand    *self,
                               const char * const *argv)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  g_strfreev (self->program);
  self->program = g_strdupv ((char **)argv);
}

void
sl_msprof_command_set_output (SlMsprofCommand *self,
                              const char      *dir)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  g_free (self->output);
  self->output = dir && dir[0] ? g_strdup (dir) : NULL;
}

const char *
sl_msprof_command_get_output (SlMsprofCommand *self)
{
  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), NULL);
  return self->output;
}

void
sl_msprof_command_set_switch (SlMsprofCommand *self,
                              SlMsprofSwitch   which,
                              int              state)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  g_return_if_fail (which < SL_MSPROF_N_SWITCHES);
  self->switches[which] = state < 0 ? -1 : state > 0;
}

int
sl_msprof_command_get_switch (SlMsprofCommand *self,
                              SlMsprofSwitch   which)
{
  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), -1);
  g_return_val_if_fail (which < SL_MSPROF_N_SWITCHES, -1);
  return self->switches[which];
}

void
sl_msprof_command_set_aic_metrics (SlMsprofCommand *self,
                                   const char      *metrics)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  g_free (self->aic_metrics);
  self->aic_metrics = metrics && metrics[0] ? g_strdup (metrics) : NULL;
}

#define DEFINE_GETTER(type, field, fallback) \
  type \
  sl_msprof_command_get_##field (SlMsprofCommand *self) \
  { \
    g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), fallback); \
    return self->field; \
  }

DEFINE_GETTER (const char *, aic_metrics, NULL)
DEFINE_GETTER (const char *, aic_mode, NULL)
DEFINE_GETTER (guint, aic_freq, 0)
DEFINE_GETTER (const char *, host_sys, NULL)

void
sl_msprof_command_set_aic_mode (SlMsprofCommand *self,
                                const char      *mode)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  g_free (self->aic_mode);
  self->aic_mode = mode && mode[0] ? g_strdup (mode) : NULL;
}

void
sl_msprof_command_set_aic_freq (SlMsprofCommand *self,
                                guint            hz)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  self->aic_freq = hz;
}

void
sl_msprof_command_set_sampler (SlMsprofCommand *self,
                               SlMsprofSampler  which,
                               guint            hz)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  g_return_if_fail (which < SL_MSPROF_N_SAMPLERS);
  sl_msprof_command_set_sampler_full (self, which, hz > 0 ? 1 : -1, hz);
}

void
sl_msprof_command_set_sampler_full (SlMsprofCommand *self,
                                    SlMsprofSampler  which,
                                    int              state,
                                    guint            hz)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  g_return_if_fail (which < SL_MSPROF_N_SAMPLERS);
  self->sampler_state[which] = state < 0 ? -1 : state > 0;
  self->sampler_hz[which] = hz;
}

guint
sl_msprof_command_get_sampler (SlMsprofCommand *self,
                               SlMsprofSampler  which)
{
  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), 0);
  g_return_val_if_fail (which < SL_MSPROF_N_SAMPLERS, 0);
  return sl_msprof_command_get_sampler_state (self, which) > 0 ? self->sampler_hz[which] : 0;
}

int
sl_msprof_command_get_sampler_state (SlMsprofCommand *self,
                                     SlMsprofSampler  which)
{
  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), -1);
  g_return_val_if_fail (which < SL_MSPROF_N_SAMPLERS, -1);
  /* A rate given alone turns its sampler on, as the command line shows. */
  return self->sampler_state[which] < 0 && self->sampler_hz[which] != 0 ? 1 : self->sampler_state[which];
}

void
sl_msprof_command_set_host_sys (SlMsprofCommand *self,
                                const char      *list)
{
  g_return_if_fail (SL_IS_MSPROF_COMMAND (self));
  g_free (self->host_sys);
  self->host_sys = list && list[0] ? g_strdup (list) : NULL;
}

/* Validation */

static gboolean
fail (GError     **error,
      const char  *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (GError     **error,
      const char  *format,
      ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, message);
  return FALSE;
}

/* The program and its arguments (nullable, transfer none). */
const char * const *
sl_msprof_command_get_program (SlMsprofCommand *self)
{
  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), NULL);
  return (const char * const *)self->program;
}

static gboolean
check_program (SlMsprofCommand  *self,
               GError          **error)
{
  if (self->program == NULL || self->program[0] == NULL || self->program[0][0] == '\0')
    return fail (error, _("Choose the program to profile"));

  if (!sl_workflow_path_check (self->program[0], _("The program"), error))
    return FALSE;
  for (guint i = 1; self->program[i] != NULL; i++)
    {
      g_autofree char *what = g_strdup_printf (_("Argument %u of the program"), i);

      if (self->program[i][0] != '\0' && !sl_workflow_path_check (self->program[i], what, error))
        return FALSE;
    }

  if (self->kind == SL_PROFILER_TORCH_NPU && !g_str_has_suffix (self->program[0], ".py") &&
      (self->program[1] == NULL || !g_str_has_suffix (self->program[1], ".py")))
    return fail (error, _("The PyTorch profiler starts a Python script: give “script.py” or “python3 script.py” as the program"));
  return TRUE;
}

static gboolean
check_aic (SlMsprofCommand  *self,
           GError          **error)
{
  if (self->aic_metrics != NULL && !g_strv_contains (aic_metrics, self->aic_metrics))
    return fail (error, _("“%s” is not an AI Core metric set; use one of PipeUtilization, ArithmeticUtilization, Memory, MemoryL0, MemoryUB, ResourceConflictRatio or L2Cache"),
                 self->aic_metrics);
  if (self->aic_mode != NULL && !g_str_equal (self->aic_mode, "task-based") && !g_str_equal (self->aic_mode, "sample-based"))
    return fail (error, _("The AI Core mode is “task-based” or “sample-based”, not “%s”"), self->aic_mode);
  if (self->aic_freq != 0 && (self->aic_freq > 100 || g_strcmp0 (self->aic_mode, "sample-based") != 0))
    return fail (error, _("The AI Core sampling rate (1–100 Hz) only applies to the sample-based mode"));
  /* msprof documents all three as needing AI Core collection on. */
  if (self->switches[SL_MSPROF_AI_CORE] == 0 && (self->aic_metrics || self->aic_mode || self->aic_freq))
    return fail (error, _("--aic-metrics, --aic-mode and --aic-freq need --ai-core=on"));
  return TRUE;
}

static gboolean
check_samplers (SlMsprofCommand  *self,
                GError          **error)
{
  for (guint i = 0; i < SL_MSPROF_N_SAMPLERS; i++)
    {
      const Sampler *sampler = &samplers[i];
      guint hz = self->sampler_hz[i];

      if (hz != 0 && (hz < sampler->min_hz || hz > sampler->max_hz))
        return fail (error, _("--%s takes %u to %u Hz, not %u"), sampler->freq_option,
                     sampler->min_hz, sampler->max_hz, hz);
      if (hz != 0 && self->sampler_state[i] == 0)
        return fail (error, _("--%s needs --%s=on"), sampler->freq_option, sampler->option);
    }

  if (self->host_sys != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (self->host_sys, ",", -1);

      for (guint i = 0; parts[i] != NULL; i++)
        if (!g_strv_contains (host_metrics, parts[i]))
          return fail (error, _("“%s” is not a host metric; --host-sys takes cpu, mem, disk, network and osrt"), parts[i]);
    }
  return TRUE;
}

static gboolean
check_framework_options (SlMsprofCommand  *self,
                         GError          **error)
{
  if (self->kind == SL_PROFILER_MSPROF)
    return TRUE;

  /* The frameworks' profilers have no such samplers. */
  for (guint i = 0; i < SL_MSPROF_N_SAMPLERS; i++)
    if (self->sampler_state[i] > 0)
      return fail (error, _("--%s is an msprof option: the framework's profiler does not sample the system"),
                   samplers[i].option);
  if (self->host_sys != NULL)
    return fail (error, _("--host-sys is an msprof option: the framework's profiler does not sample the host"));
  return TRUE;
}

/**
 * sl_msprof_command_validate:
 *
 * Returns: %TRUE when the command can run; else @error says which
 *   option is wrong and why
 */
gboolean
sl_msprof_command_validate (SlMsprofCommand  *self,
                            GError          **error)
{
  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), FALSE);

  if (!check_program (self, error))
    return FALSE;
  if (self->output == NULL)
    return fail (error, _("Choose the output folder on the target"));
  if (!sl_workflow_path_check (self->output, _("The output folder"), error))
    return FALSE;
  return check_aic (self, error) && check_samplers (self, error) && check_framework_options (self, error);
}

/* Command lines */

static void
add_msprof_options (SlMsprofCommand *self,
                    GPtrArray       *argv)
{
  int ai_core = self->switches[SL_MSPROF_AI_CORE];

  g_ptr_array_add (argv, g_strdup_printf ("--output=%s", self->output));
  /* Metrics, mode and rate only count with AI Core collection on. */
  if ((self->aic_metrics != NULL || self->aic_mode != NULL || self->aic_freq != 0) && ai_core < 0)
    ai_core = 1;

  for (guint i = 0; i < SL_MSPROF_N_SWITCHES; i++)
    {
      int state = i == SL_MSPROF_AI_CORE ? ai_core : self->switches[i];

      if (state >= 0)
        g_ptr_array_add (argv, g_strdup_printf ("--%s=%s", switch_options[i], state ? "on" : "off"));
    }
  if (self->aic_mode != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--aic-mode=%s", self->aic_mode));
  if (self->aic_freq != 0)
    g_ptr_array_add (argv, g_strdup_printf ("--aic-freq=%u", self->aic_freq));
  if (self->aic_metrics != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--aic-metrics=%s", self->aic_metrics));

  for (guint i = 0; i < SL_MSPROF_N_SAMPLERS; i++)
    {
      /* A rate given alone turns its sampler on. */
      int state = self->sampler_state[i] < 0 && self->sampler_hz[i] != 0 ? 1 : self->sampler_state[i];

      if (state >= 0)
        g_ptr_array_add (argv, g_strdup_printf ("--%s=%s", samplers[i].option, state ? "on" : "off"));
      if (state > 0 && self->sampler_hz[i] != 0)
        g_ptr_array_add (argv, g_strdup_printf ("--%s=%u", samplers[i].freq_option, self->sampler_hz[i]));
    }
  if (self->host_sys != NULL)
    g_ptr_array_add (argv, g_strdup_printf ("--host-sys=%s", self->host_sys));
}

static guint
aic_metrics_index (const char *name)
{
  for (guint i = 0; aic_metrics[i] != NULL; i++)
    if (g_strcmp0 (aic_metrics[i], name) == 0)
      return i;
  return 1; /* PipeUtilization, the profilers' default */
}

/* The torch_npu profiler around runpy: the script runs as __main__ with
 * its own arguments, and the result lands in the output folder as a
 * *_ascend_pt folder, parsed when the script ends. The output path was
 * validated, so it holds no quote or backslash. */
static char *
dup_torch_launcher (SlMsprofCommand *self)
{
  const char *metrics = self->aic_metrics ? self->aic_metrics : "PipeUtilization";

  return g_strdup_printf ("import runpy, sys\n"
                          "import torch_npu\n"
                          "p = torch_npu.profiler\n"
                          "config = p._ExperimentalConfig(aic_metrics=p.AiCMetrics.%s, profiler_level=p.ProfilerLevel.Level1)\n"
                          "with p.profile(activities=[p.ProfilerActivity.CPU, p.ProfilerActivity.NPU],\n"
                          "               on_trace_ready=p.tensorboard_trace_handler('%s'),\n"
                          "               experimental_config=config):\n"
                          "    sys.argv = sys.argv[1:]\n"
                          "    runpy.run_path(sys.argv[0], run_name='__main__')\n",
                          metrics, self->output);
}

GStrv
sl_msprof_command_dup_argv (SlMsprofCommand  *self,
                            GError          **error)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  guint first = 0;

  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), NULL);

  if (!sl_msprof_command_validate (self, error))
    return NULL;

  switch (self->kind)
    {
    case SL_PROFILER_MSPROF:
      g_ptr_array_add (argv, g_strdup ("msprof"));
      add_msprof_options (self, argv);
      break;

    case SL_PROFILER_TORCH_NPU:
      /* "python3 x.py" keeps its interpreter; a bare "x.py" gets python3. */
      g_ptr_array_add (argv, g_strdup (g_str_has_suffix (self->program[0], ".py") ? "python3" : self->program[0]));
      g_ptr_array_add (argv, g_strdup ("-c"));
      g_ptr_array_add (argv, dup_torch_launcher (self));
      first = g_str_has_suffix (self->program[0], ".py") ? 0 : 1;
      break;

    case SL_PROFILER_MINDSPORE:
    default:
      break;
    }

  for (guint i = first; self->program[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (self->program[i]));
  g_ptr_array_add (argv, NULL);
  return (GStrv)g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

GStrv
sl_msprof_command_dup_environment (SlMsprofCommand *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), NULL);

  if (self->kind == SL_PROFILER_MINDSPORE && self->output != NULL)
    {
      int hccl = self->switches[SL_MSPROF_HCCL];
      int ai_core = self->switches[SL_MSPROF_AI_CORE];
      g_autofree char *value = NULL;

      /* MindSpore starts its profiler from this variable at import and
       * analyses the data when the program exits. */
      value = g_strdup_printf ("{\"start\": true, \"output_path\": \"%s\", \"profile_communication\": %s, "
                               "\"aicore_metrics\": %d, \"l2_cache\": %s}",
                               self->output, hccl > 0 ? "true" : "false",
                               ai_core == 0 ? -1 : (int)aic_metrics_index (self->aic_metrics),
                               g_strcmp0 (self->aic_metrics, "L2Cache") == 0 ? "true" : "false");
      g_autofree char *line = g_strdup_printf ("MS_PROFILER_OPTIONS=%s", value);

      g_strv_builder_add (builder, line);
    }
  return g_strv_builder_end (builder);
}

/**
 * sl_msprof_dup_export_argv:
 * @prof_dir: a PROF_* folder holding only raw data
 *
 * Returns: (transfer full): the command that parses it into CSV and JSON
 */
GStrv
sl_msprof_dup_export_argv (const char *prof_dir)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *output = NULL;

  g_return_val_if_fail (prof_dir != NULL, NULL);

  output = g_strdup_printf ("--output=%s", prof_dir);
  g_strv_builder_add_many (builder, "msprof", "--export=on", output, NULL);
  return g_strv_builder_end (builder);
}

const char *
sl_msprof_switch_get_option (SlMsprofSwitch which)
{
  g_return_val_if_fail (which < SL_MSPROF_N_SWITCHES, NULL);
  return switch_options[which];
}

const char *
sl_msprof_sampler_get_option (SlMsprofSampler which)
{
  g_return_val_if_fail (which < SL_MSPROF_N_SAMPLERS, NULL);
  return samplers[which].option;
}

const char *
sl_msprof_sampler_get_freq_option (SlMsprofSampler which)
{
  g_return_val_if_fail (which < SL_MSPROF_N_SAMPLERS, NULL);
  return samplers[which].freq_option;
}

/* Options by name */

/* In the order MindStudio groups them; the samplers' rows follow the
 * sampler table, each switch then its rate. */
static const SlMsprofOption options[] = {
  { "task-time", SL_MSPROF_VALUE_SWITCH, N_("Task time (on or off)"), "on|off" },
  { "ai-core", SL_MSPROF_VALUE_SWITCH, N_("AI Core metrics collection (on or off)"), "on|off" },
  { "aic-mode", SL_MSPROF_VALUE_CHOICE, N_("How AI Core metrics are taken: task-based (per task) or sample-based (at a fixed rate)"), "task-based|sample-based" },
  { "aic-freq", SL_MSPROF_VALUE_HZ, N_("The AI Core sampling rate in the sample-based mode, 1 to 100 Hz"), N_("HZ") },
  { "aic-metrics", SL_MSPROF_VALUE_CHOICE, N_("AI Core metrics: PipeUtilization, ArithmeticUtilization, Memory, MemoryL0, MemoryUB, ResourceConflictRatio or L2Cache"), N_("M") },
  { "aicpu", SL_MSPROF_VALUE_SWITCH, N_("AI CPU (on or off)"), "on|off" },
  { "ascendcl", SL_MSPROF_VALUE_SWITCH, N_("AscendCL API (on or off)"), "on|off" },
  { "runtime-api", SL_MSPROF_VALUE_SWITCH, N_("Runtime API (on or off)"), "on|off" },
  { "hccl", SL_MSPROF_VALUE_SWITCH, N_("HCCL communication (on or off)"), "on|off" },
  { "msproftx", SL_MSPROF_VALUE_SWITCH, N_("msproftx markers (on or off)"), "on|off" },
  { "sys-hardware-mem", SL_MSPROF_VALUE_SWITCH, N_("Memory bandwidth, DDR and HBM (on or off)"), "on|off" },
  { "sys-hardware-mem-freq", SL_MSPROF_VALUE_HZ, N_("The memory bandwidth sampling rate, 1 to 100 Hz"), N_("HZ") },
  { "sys-cpu-profiling", SL_MSPROF_VALUE_SWITCH, N_("The device’s AI CPU and control CPU (on or off)"), "on|off" },
  { "sys-cpu-freq", SL_MSPROF_VALUE_HZ, N_("The device CPU sampling rate, 1 to 50 Hz"), N_("HZ") },
  { "sys-profiling", SL_MSPROF_VALUE_SWITCH, N_("System CPU and memory use (on or off)"), "on|off" },
  { "sys-sampling-freq", SL_MSPROF_VALUE_HZ, N_("The system sampling rate, 1 to 10 Hz"), N_("HZ") },
  { "sys-pid-profiling", SL_MSPROF_VALUE_SWITCH, N_("CPU and memory use of the processes (on or off)"), "on|off" },
  { "sys-pid-sampling-freq", SL_MSPROF_VALUE_HZ, N_("The process sampling rate, 1 to 10 Hz"), N_("HZ") },
  { "sys-io-profiling", SL_MSPROF_VALUE_SWITCH, N_("Network and storage I/O (on or off)"), "on|off" },
  { "sys-io-sampling-freq", SL_MSPROF_VALUE_HZ, N_("The I/O sampling rate, 1 to 100 Hz"), N_("HZ") },
  { "sys-interconnection-profiling", SL_MSPROF_VALUE_SWITCH, N_("Interconnect, HCCS and PCIe (on or off)"), "on|off" },
  { "sys-interconnection-freq", SL_MSPROF_VALUE_HZ, N_("The interconnect sampling rate, 1 to 50 Hz"), N_("HZ") },
  { "dvpp-profiling", SL_MSPROF_VALUE_SWITCH, N_("DVPP, the media processing engines (on or off)"), "on|off" },
  { "dvpp-freq", SL_MSPROF_VALUE_HZ, N_("The DVPP sampling rate, 1 to 100 Hz"), N_("HZ") },
  { "host-sys", SL_MSPROF_VALUE_LIST, N_("Host metrics, comma-separated: cpu, mem, disk, network, osrt"), N_("LIST") },
};

const SlMsprofOption *
sl_msprof_options (guint *n_options)
{
  if (n_options != NULL)
    *n_options = G_N_ELEMENTS (options);
  return options;
}

static int
find_switch (const char *name)
{
  for (guint i = 0; i < SL_MSPROF_N_SWITCHES; i++)
    if (g_str_equal (switch_options[i], name))
      return i;
  return -1;
}

/* The sampler whose switch (or, with @freq, whose rate) @name is. */
static int
find_sampler (const char *name,
              gboolean    freq)
{
  for (guint i = 0; i < SL_MSPROF_N_SAMPLERS; i++)
    if (g_str_equal (freq ? samplers[i].freq_option : samplers[i].option, name))
      return i;
  return -1;
}

static gboolean
parse_hz (const char  *name,
          const char  *value,
          guint        min_hz,
          guint        max_hz,
          guint       *hz,
          GError     **error)
{
  guint64 number = 0;

  if (!g_ascii_string_to_unsigned (value, 10, min_hz, max_hz, &number, NULL))
    return fail (error, _("--%s takes %u to %u Hz, not “%s”"), name, min_hz, max_hz, value);
  *hz = (guint)number;
  return TRUE;
}

/**
 * sl_msprof_command_apply_option:
 * @name: an option of sl_msprof_options(), without "--"
 *
 * Sets one option from its text, as the CLI takes it. How the options
 * fit together (a rate with its sampler off, a framework's profiler) is
 * left to sl_msprof_command_validate().
 *
 * Returns: %TRUE when @name is known and @value one it takes
 */
gboolean
sl_msprof_command_apply_option (SlMsprofCommand  *self,
                                const char       *name,
                                const char       *value,
                                GError          **error)
{
  int index;
  int state = -1;
  guint hz = 0;

  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), FALSE);
  g_return_val_if_fail (name != NULL && value != NULL, FALSE);

  if ((index = find_switch (name)) >= 0 || (index = find_sampler (name, FALSE)) >= 0)
    {
      if (!sl_msprof_parse_switch_value (value, &state))
        return fail (error, _("--%s takes on or off, not “%s”"), name, value);
      if (find_switch (name) >= 0)
        self->switches[index] = state;
      else
        self->sampler_state[index] = state;
    }
  else if ((index = find_sampler (name, TRUE)) >= 0)
    {
      if (!parse_hz (name, value, samplers[index].min_hz, samplers[index].max_hz, &hz, error))
        return FALSE;
      self->sampler_hz[index] = hz;
    }
  else if (g_str_equal (name, "aic-freq"))
    {
      if (!parse_hz (name, value, 1, 100, &hz, error))
        return FALSE;
      self->aic_freq = hz;
    }
  else if (g_str_equal (name, "aic-mode") || g_str_equal (name, "aic-metrics") || g_str_equal (name, "host-sys"))
    {
      g_autoptr(SlMsprofCommand) probe = sl_msprof_command_new ();

      /* The checks of the whole command, on this option alone. */
      if (g_str_equal (name, "aic-mode"))
        sl_msprof_command_set_aic_mode (probe, value);
      else if (g_str_equal (name, "aic-metrics"))
        sl_msprof_command_set_aic_metrics (probe, value);
      else
        sl_msprof_command_set_host_sys (probe, value);
      if (!check_aic (probe, error) || !check_samplers (probe, error))
        return FALSE;
      if (g_str_equal (name, "aic-mode"))
        sl_msprof_command_set_aic_mode (self, value);
      else if (g_str_equal (name, "aic-metrics"))
        sl_msprof_command_set_aic_metrics (self, value);
      else
        sl_msprof_command_set_host_sys (self, value);
    }
  else
    return fail (error, _("msprof has no option --%s"), name);
  return TRUE;
}

static void
add_option (GStrvBuilder *builder,
            const char   *name,
            const char   *value)
{
  g_autofree char *option = g_strdup_printf ("--%s=%s", name, value);

  g_strv_builder_add (builder, option);
}

/**
 * sl_msprof_command_dup_options:
 *
 * Returns: (transfer full): the options set, as "--NAME=VALUE", each
 *   taken back by sl_msprof_command_apply_option()
 */
GStrv
sl_msprof_command_dup_options (SlMsprofCommand *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (SL_IS_MSPROF_COMMAND (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      const char *name = options[i].name;
      g_autofree char *number = NULL;
      int index;

      if ((index = find_switch (name)) >= 0 && self->switches[index] >= 0)
        add_option (builder, name, self->switches[index] ? "on" : "off");
      else if ((index = find_sampler (name, FALSE)) >= 0 && self->sampler_state[index] >= 0)
        add_option (builder, name, self->sampler_state[index] ? "on" : "off");
      else if ((index = find_sampler (name, TRUE)) >= 0 && self->sampler_hz[index] != 0)
        add_option (builder, name, (number = g_strdup_printf ("%u", self->sampler_hz[index])));
      else if (g_str_equal (name, "aic-freq") && self->aic_freq != 0)
        add_option (builder, name, (number = g_strdup_printf ("%u", self->aic_freq)));
      else if (g_str_equal (name, "aic-mode") && self->aic_mode != NULL)
        add_option (builder, name, self->aic_mode);
      else if (g_str_equal (name, "aic-metrics") && self->aic_metrics != NULL)
        add_option (builder, name, self->aic_metrics);
      else if (g_str_equal (name, "host-sys") && self->host_sys != NULL)
        add_option (builder, name, self->host_sys);
    }
  return g_strv_builder_end (builder);
}

void
sl_msprof_sampler_get_range (SlMsprofSampler  which,
                             guint           *min_hz,
                             guint           *max_hz)
{
  g_return_if_fail (which < SL_MSPROF_N_SAMPLERS);
  if (min_hz != NULL)
    *min_hz = samplers[which].min_hz;
  if (max_hz != NULL)
    *max_hz = samplers[which].max_hz;
}

const char * const *
sl_msprof_aic_metrics (void)
{
  return aic_metrics;
}

/**
 * sl_msprof_parse_switch_value:
 *
 * Returns: %TRUE when @text is "on" or "off" (@state 1 or 0)
 */
gboolean
sl_msprof_parse_switch_value (const char *text,
                              int        *state)
{
  g_return_val_if_fail (state != NULL, FALSE);

  if (g_strcmp0 (text, "on") == 0)
    *state = 1;
  else if (g_strcmp0 (text, "off") == 0)
    *state = 0;
  else
    return FALSE;
  return TRUE;
}
