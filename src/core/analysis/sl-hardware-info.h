/* sl-hardware-info.h: the host and devices a profile was taken on
 *
 * Gathered from what the loader keeps of a rank's info files: msprof's
 * info.json.<N> (host name, OS, CPU, memory, DeviceInfo[] with the AI
 * Core, AI CPU, control CPU and TS CPU counts), profiler_info_<N>.json and
 * profiler_metadata.json of torch_npu and MindSpore (framework, CANN and
 * driver versions where written) and the SQLite export's HOST_INFO,
 * NPU_INFO and META_DATA tables. Whatever no file says stays unknown:
 * NULL strings, -1 numbers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-profile.h"

G_BEGIN_DECLS

typedef struct {
  gint64  id;
  char   *chip;               /* "Ascend910B" */
  gint64  ai_core_num;
  gint64  ai_cpu_num;
  gint64  aiv_num;            /* AI Vector cores */
  gint64  ctrl_cpu_num;
  char   *ctrl_cpu_type;      /* "ARMv8_Cortex_A55" */
  gint64  ts_cpu_num;
  gint64  aic_frequency_mhz;
} SlHardwareDevice;

typedef struct {
  char      *host_name;
  char      *os;
  char      *cpu;             /* vendor and model, "HiSilicon TaishanV110" */
  gint64     logical_cores;
  gint64     memory_bytes;
  char      *cann_version;
  char      *driver_version;
  char      *framework;       /* "torch_npu 2.1.0", "MindSpore 2.3.0" */
  GPtrArray *devices;         /* SlHardwareDevice, by id */
} SlHardwareInfo;

SlHardwareInfo *sl_hardware_info_new_for_rank (const SlProfileRank *rank);
void            sl_hardware_info_free         (SlHardwareInfo      *info);
/* Neither host nor device nor version is known. */
gboolean        sl_hardware_info_is_empty     (const SlHardwareInfo *info);
/* The files that would tell, for a rank without them. */
const char     *sl_hardware_info_needed_files (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlHardwareInfo, sl_hardware_info_free)

G_END_DECLS
