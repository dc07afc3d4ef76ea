/* sl-msprof-command.h: the command that profiles a program, with msprof or a framework's profiler
 *
 * Options follow FORMATS.md §11 and are grouped as MindStudio groups
 * them: task time, AI Core metrics, AI CPU, AscendCL and runtime API,
 * HCCL, and system and host samplers with their rates. A switch left
 * unset is left out of the command, so msprof's own default applies.
 * MindSpore programs get MS_PROFILER_OPTIONS in their environment and
 * torch_npu scripts a small launcher, so their code does not change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_PROFILER_MSPROF,
  SL_PROFILER_MINDSPORE,
  SL_PROFILER_TORCH_NPU,
} SlProfilerKind;

typedef enum {
  SL_MSPROF_TASK_TIME,
  SL_MSPROF_AI_CORE,
  SL_MSPROF_AICPU,
  SL_MSPROF_ASCENDCL,
  SL_MSPROF_RUNTIME_API,
  SL_MSPROF_HCCL,
  SL_MSPROF_MSPROFTX,
  SL_MSPROF_N_SWITCHES
} SlMsprofSwitch;

typedef enum {
  SL_MSPROF_SYS_HARDWARE_MEM,
  SL_MSPROF_SYS_CPU,
  SL_MSPROF_SYS_PROFILING,
  SL_MSPROF_SYS_PID,
  SL_MSPROF_SYS_IO,
  SL_MSPROF_SYS_INTERCONNECTION,
  SL_MSPROF_DVPP,
  SL_MSPROF_N_SAMPLERS
} SlMsprofSampler;

typedef enum {
  SL_MSPROF_VALUE_SWITCH,  /* on or off */
  SL_MSPROF_VALUE_HZ,      /* a sampling rate in its documented range */
  SL_MSPROF_VALUE_CHOICE,  /* one of a list */
  SL_MSPROF_VALUE_LIST,    /* some of a list, comma-separated */
} SlMsprofValueKind;

/* An msprof option the builder knows, named as msprof names it; the CLI
 * offers each as --NAME VALUE and the dialog sets each. */
typedef struct {
  const char        *name;         /* without the leading "--" */
  SlMsprofValueKind  kind;
  const char        *description;  /* untranslated, N_() */
  const char        *value_name;   /* "on|off", "HZ", … */
} SlMsprofOption;

#define SL_TYPE_MSPROF_COMMAND (sl_msprof_command_get_type ())
G_DECLARE_FINAL_TYPE (SlMsprofCommand, sl_msprof_command, SL, MSPROF_COMMAND, GObject)

SlMsprofCommand    *sl_msprof_command_new             (void);
SlMsprofCommand    *sl_msprof_command_copy            (SlMsprofCommand     *self);
void                sl_msprof_command_set_kind        (SlMsprofCommand     *self,
                                                       SlProfilerKind       kind);
SlProfilerKind      sl_msprof_command_get_kind        (SlMsprofCommand     *self);
void                sl_msprof_command_set_program     (SlMsprofCommand     *self,
                                                       const char * const  *argv);
void                sl_msprof_command_set_output      (SlMsprofCommand     *self,
                                                       const char          *dir);
const char         *sl_msprof_command_get_output      (SlMsprofCommand     *self);
const char * const *sl_msprof_command_get_program     (SlMsprofCommand     *self);
/* @state: 1 on, 0 off, -1 left to msprof's default */
void                sl_msprof_command_set_switch      (SlMsprofCommand     *self,
                                                       SlMsprofSwitch       which,
                                                       int                  state);
int                 sl_msprof_command_get_switch      (SlMsprofCommand     *self,
                                                       SlMsprofSwitch       which);
void                sl_msprof_command_set_aic_metrics (SlMsprofCommand     *self,
                                                       const char          *metrics);
const char         *sl_msprof_command_get_aic_metrics (SlMsprofCommand     *self);
const char         *sl_msprof_command_get_aic_mode    (SlMsprofCommand     *self);
guint               sl_msprof_command_get_aic_freq    (SlMsprofCommand     *self);
const char         *sl_msprof_command_get_host_sys    (SlMsprofCommand     *self);
void                sl_msprof_command_set_aic_mode    (SlMsprofCommand     *self,
                                                       const char          *mode);
void                sl_msprof_command_set_aic_freq    (SlMsprofCommand     *self,
                                                       guint                hz);
/* @hz: the sampling rate (the sampler on), or 0 to leave it out */
void                sl_msprof_command_set_sampler     (SlMsprofCommand     *self,
                                                       SlMsprofSampler      which,
                                                       guint                hz);
/* @state: 1 on (at @hz, or msprof's default rate when 0), 0 off, -1 left out */
void                sl_msprof_command_set_sampler_full (SlMsprofCommand    *self,
                                                       SlMsprofSampler      which,
                                                       int                  state,
                                                       guint                hz);
/* The rate of a sampler that is on, 0 for msprof's default or when off */
guint               sl_msprof_command_get_sampler     (SlMsprofCommand     *self,
                                                       SlMsprofSampler      which);
int                 sl_msprof_command_get_sampler_state (SlMsprofCommand   *self,
                                                       SlMsprofSampler      which);
/* @list: host metrics, comma-separated: cpu, mem, disk, network, osrt */
void                sl_msprof_command_set_host_sys    (SlMsprofCommand     *self,
                                                       const char          *list);

gboolean            sl_msprof_command_validate        (SlMsprofCommand     *self,
                                                       GError             **error);
/* The program's argv with the profiler put around it; validates first. */
GStrv               sl_msprof_command_dup_argv        (SlMsprofCommand     *self,
                                                       GError             **error);
/* NAME=VALUE lines the program needs in its environment (MindSpore's
 * MS_PROFILER_OPTIONS), or an empty list. */
GStrv               sl_msprof_command_dup_environment (SlMsprofCommand     *self);

/* One option by its msprof name (no "--"), checked as msprof checks it. */
gboolean            sl_msprof_command_apply_option    (SlMsprofCommand     *self,
                                                       const char          *name,
                                                       const char          *value,
                                                       GError             **error);
/* The options set, as "--NAME=VALUE" in the table's order: applied one by
 * one to a new command they give the same msprof command line. */
GStrv               sl_msprof_command_dup_options     (SlMsprofCommand     *self);
const SlMsprofOption *sl_msprof_options               (guint               *n_options);

GStrv               sl_msprof_dup_export_argv         (const char          *prof_dir);
const char         *sl_msprof_switch_get_option       (SlMsprofSwitch       which);
const char         *sl_msprof_sampler_get_option      (SlMsprofSampler      which);
const char         *sl_msprof_sampler_get_freq_option (SlMsprofSampler      which);
void                sl_msprof_sampler_get_range       (SlMsprofSampler      which,
                                                       guint               *min_hz,
                                                       guint               *max_hz);
const char * const *sl_msprof_aic_metrics             (void);
gboolean            sl_msprof_parse_switch_value      (const char          *text,
                                                       int                 *state);

G_END_DECLS
