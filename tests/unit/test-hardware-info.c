/* test-hardware-info.c: the host, devices and versions read from a rank's
 * info as each profiler writes it (msprof's info.json.N, the SQLite
 * export's tables, torch_npu's and MindSpore's version keys), damaged
 * numbers left unknown, and a rank without any of it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-hardware-info.h"

static SlProfileRank *
rank_with (SlProfile          *profile,
           const char * const *pairs)
{
  SlProfileRank *rank = sl_profile_add_rank (profile, "/p", SL_PROFILE_LAYOUT_MSPROF);

  for (guint i = 0; pairs[i] != NULL; i += 2)
    sl_profile_rank_set_info (rank, pairs[i], pairs[i + 1]);
  return rank;
}

static void
test_msprof (void)
{
  static const char * const pairs[] = {
    "version", "1.0", "OS", "Linux-4.19.36-aarch64", "cpuCores", "1", "hostname", "A2007104679",
    "CPU.0.Name", "HiSilicon", "CPU.0.Logical_CPU_Count", "1", "CPU.0.Type", "TaishanV110",
    "DeviceInfo.0.id", "0", "DeviceInfo.0.ctrl_cpu_id", "ARMv8_Cortex_A55", "DeviceInfo.0.ctrl_cpu_core_num", "1",
    "DeviceInfo.0.ts_cpu_core_num", "4", "DeviceInfo.0.ai_cpu_core_num", "14", "DeviceInfo.0.ai_core_num", "32",
    "DeviceInfo.0.aiv_num", "0", "DeviceInfo.0.aic_frequency", "1000",
    "DeviceInfo.1.id", "3", "DeviceInfo.1.ai_core_num", "24",
    "memoryTotal", "791800000", "cpuNums", "192", "drvVersion", "467732",
    NULL,
  };
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlHardwareInfo) info = sl_hardware_info_new_for_rank (rank_with (profile, pairs));
  const SlHardwareDevice *device;

  g_assert_false (sl_hardware_info_is_empty (info));
  g_assert_cmpstr (info->host_name, ==, "A2007104679");
  g_assert_cmpstr (info->os, ==, "Linux-4.19.36-aarch64");
  g_assert_cmpstr (info->cpu, ==, "HiSilicon TaishanV110");
  /* cpuNums, not the one CPU[] entry */
  g_assert_cmpint (info->logical_cores, ==, 192);
  g_assert_cmpint (info->memory_bytes, ==, 791800000LL * 1024);
  g_assert_cmpstr (info->driver_version, ==, "467732");
  /* info.json's "version" is the file's format, not CANN's */
  g_assert_null (info->cann_version);
  g_assert_null (info->framework);

  g_assert_cmpuint (info->devices->len, ==, 2);
  device = g_ptr_array_index (info->devices, 0);
  g_assert_cmpint (device->id, ==, 0);
  g_assert_null (device->chip);
  g_assert_cmpint (device->ai_core_num, ==, 32);
  g_assert_cmpint (device->ai_cpu_num, ==, 14);
  g_assert_cmpint (device->aiv_num, ==, 0);
  g_assert_cmpint (device->ctrl_cpu_num, ==, 1);
  g_assert_cmpstr (device->ctrl_cpu_type, ==, "ARMv8_Cortex_A55");
  g_assert_cmpint (device->ts_cpu_num, ==, 4);
  g_assert_cmpint (device->aic_frequency_mhz, ==, 1000);
  device = g_ptr_array_index (info->devices, 1);
  g_assert_cmpint (device->id, ==, 3);
  g_assert_cmpint (device->ai_core_num, ==, 24);
  g_assert_cmpint (device->ai_cpu_num, ==, -1);
}

static void
test_database (void)
{
  static const char * const pairs[] = {
    "META_DATA.SCHEMA_VERSION", "1.0.0", "NPU_INFO.1", "Ascend910B", "NPU_INFO.0", "Ascend910B3",
    "NPU_INFO.x", "Ascend310", "HOST_INFO.hostUid", "3538958389648580163", "HOST_INFO.hostName", "ubuntu",
    "META_DATA.CANN_VERSION", "8.0.RC3", "torch_npu_version", "2.1.0.post8",
    NULL,
  };
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlHardwareInfo) info = sl_hardware_info_new_for_rank (rank_with (profile, pairs));

  g_assert_cmpstr (info->host_name, ==, "ubuntu");
  g_assert_cmpstr (info->cann_version, ==, "8.0.RC3");
  g_assert_cmpstr (info->framework, ==, "torch_npu 2.1.0.post8");
  g_assert_cmpint (info->logical_cores, ==, -1);
  g_assert_cmpint (info->memory_bytes, ==, -1);
  /* sorted by id; "NPU_INFO.x" names no device */
  g_assert_cmpuint (info->devices->len, ==, 2);
  g_assert_cmpstr (((SlHardwareDevice *)g_ptr_array_index (info->devices, 0))->chip, ==, "Ascend910B3");
  g_assert_cmpstr (((SlHardwareDevice *)g_ptr_array_index (info->devices, 1))->chip, ==, "Ascend910B");
}

static void
test_mindspore_and_damage (void)
{
  static const char * const pairs[] = {
    "rank_id", "0", "ms_version", "2.3.0", "cpuNums", "-4", "memoryTotal", "lots",
    "CPU.0.Type", "Kunpeng", "CPU.0.Logical_CPU_Count", "64", "CPU.1.Logical_CPU_Count", "64",
    "DeviceInfo.0.ai_core_num", "1e3", "hostname", "",
    NULL,
  };
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlHardwareInfo) info = sl_hardware_info_new_for_rank (rank_with (profile, pairs));

  g_assert_cmpstr (info->framework, ==, "MindSpore 2.3.0");
  g_assert_cmpstr (info->cpu, ==, "Kunpeng");
  /* cpuNums is damaged: the CPU[] entries are counted instead */
  g_assert_cmpint (info->logical_cores, ==, 128);
  g_assert_cmpint (info->memory_bytes, ==, -1);
  g_assert_null (info->host_name);
  g_assert_cmpuint (info->devices->len, ==, 1);
  g_assert_cmpint (((SlHardwareDevice *)g_ptr_array_index (info->devices, 0))->id, ==, 0);
  g_assert_cmpint (((SlHardwareDevice *)g_ptr_array_index (info->devices, 0))->ai_core_num, ==, -1);
}

static void
test_empty (void)
{
  static const char * const pairs[] = {
    "config.common_config.record_shapes", "true", "rank_id", "0", NULL,
  };
  g_autoptr(SlProfile) profile = sl_profile_new ("/p");
  g_autoptr(SlHardwareInfo) info = sl_hardware_info_new_for_rank (rank_with (profile, pairs));

  g_assert_true (sl_hardware_info_is_empty (info));
  g_assert_nonnull (g_strstr_len (sl_hardware_info_needed_files (), -1, "info.json"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hardware-info/msprof", test_msprof);
  g_test_add_func ("/hardware-info/database", test_database);
  g_test_add_func ("/hardware-info/mindspore-and-damage", test_mindspore_and_damage);
  g_test_add_func ("/hardware-info/empty", test_empty);
  return g_test_run ();
}
